"""The Grazelander horse herds (L137, L478-L480, L567-L600, L794-L796):
hastening, stampedes, capture, and herds in battle.

Alliances are not built yet, so a position hands a herd to a side directly
(``herd_for``), as the Ironhoof tests do; the Independents' counters lie
beyond the loops of a scenario of 18.1-18.3 (``units_end``), so the helper
widens them to every counter.
"""
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import ENTRY_SARTAR_SOUTH, FORCES, ST_COMBAT, UNIT_IDS
from tests.dragon_pass.combat_test import ARCHERS, LANCERS, MILITIA, WARRIORS, arranged, declare
from tests.dragon_pass.scenario import LUNAR, SARTAR, Position, unit

HERD = "horse_herds#1"
HERD2 = "horse_herds#2"


def herd_for(p, force, hex_id, name=HERD, disrupted=False):
    """A horse herd at ``hex_id``, its owner's own (``force``; None: neutral)."""
    u = p.put(name, hex_id, disrupted=disrupted)
    p.s["unit_force"][u] = -1 if force is None else FORCES.index(force)
    p.s["units_end"] = len(UNIT_IDS)
    return u


def force(p, name):
    f = int(p.s["unit_force"][unit(name)])
    return FORCES[f] if f >= 0 else None


def moving(p, start, *units):
    p.act(f"select the stack at {start}")
    for u in units:
        p.act(f"move {p.name(u)} with the group")


def step_to(p, frm, to):
    """Step the group now moving from ``frm`` into ``to``."""
    texts = [a for a in p.legal() if a.startswith("move ") and a.endswith(f" from {frm} to {to}")]
    assert texts, p.legal()
    p.act(texts[0])


def no_retreat(p):
    if p.phase == R.PH_RETREAT:
        p.act("no more retreats")


def finish_movement(p):
    p.act("end the movement phase")


# ---------------------------------------------------------------- the herd's MF and hastening (L478, L794)
def test_rule_dp_herd_alone_moves_its_plus_two_as_its_mf():
    """Interpretations: the counter's "+2" alone is an MF of 2 (2 greater than
    the slower of no hastened units)."""
    p = Position()
    herd_for(p, LUNAR, "0604")
    p.movement(LUNAR)
    moving(p, "0604", HERD)
    assert p.mp(HERD) == 2.0


def test_rule_dp_herd_hastens_two_units_to_two_more_than_the_slower():
    """L478, L794: the herd and the two units it hastens move at the slower's MF + 2."""
    p = Position()
    herd_for(p, LUNAR, "0604")
    p.put(LANCERS[0], "0604")                     # MF 7
    p.put(WARRIORS[0], "0604")                    # MF 4
    p.movement(LUNAR)
    moving(p, "0604", LANCERS[0], WARRIORS[0])
    assert p.mp(LANCERS[0]) == 7.0 and p.mp(WARRIORS[0]) == 4.0     # no herd in the group yet
    p.act(f"move {p.name(HERD)} with the group")
    assert p.mp(HERD) == p.mp(LANCERS[0]) == p.mp(WARRIORS[0]) == 6.0
    step_to(p, "0604", "0603")
    assert p.mp(WARRIORS[0]) == 5.0               # the hastened infantry pays its step from 6


def test_rule_dp_herd_hastens_at_most_two_units():
    """L794: each herd affects up to 2 units; a group with more than its herds
    can hasten is not hastened (Interpretations: the player picks them by grouping)."""
    p = Position()
    herd_for(p, LUNAR, "0604")
    for w in WARRIORS[:3]:
        p.put(w, "0604")
    p.movement(LUNAR)
    moving(p, "0604", HERD, *WARRIORS[:3])
    assert p.mp(WARRIORS[0]) == 4.0 and p.mp(HERD) == 2.0


def test_rule_dp_herd_does_not_hasten_personalities_or_magicians():
    """L478: not magicians, parenthesised CFs, flying units, herds, spirits, zero MFs."""
    assert not R.U_HASTENED[unit("argrath")]                  # (4!!), a superhero
    assert not R.U_HASTENED[unit("moon_haters")]              # RF 5: a spirit magician
    assert not R.U_HASTENED[unit(HERD)]
    assert R.U_HASTENED[unit(LANCERS[0])] and R.U_HASTENED[unit("gz_clans_6_4_5#1")]
    p = Position("18.3")
    herd_for(p, SARTAR, "0604")
    p.put("argrath", "0604")                      # MF 6
    p.movement(SARTAR)
    moving(p, "0604", HERD, "argrath")
    assert p.mp("argrath") == 6.0 and p.mp(HERD) == 2.0


def test_rule_dp_herd_hastens_only_units_that_spend_the_whole_phase_with_it():
    """L478: a unit that moved into the herd's hex this phase cannot join its group."""
    p = Position()
    herd_for(p, LUNAR, "0604")
    p.put(WARRIORS[0], "0603")
    p.movement(LUNAR)
    moving(p, "0603", WARRIORS[0])
    step_to(p, "0603", "0604")
    p.act("stop at 0604")
    p.act("select the stack at 0604")
    assert f"move {p.name(WARRIORS[0])} with the group" not in p.legal()


def test_rule_dp_herd_cannot_force_march():
    """L474: herds cannot be force marched onto the board."""
    p = Position()
    u = p.entering(HERD, ENTRY_SARTAR_SOUTH)
    p.s["unit_force"][u] = FORCES.index(SARTAR)
    p.s["units_end"] = len(UNIT_IDS)
    p.movement(SARTAR)
    p.acts(f"bring {p.name(HERD)} onto the board", f"{p.name(HERD)} enters at 2334")
    assert p.phase == R.PH_MOVE_GROUP             # no force march asked
    assert p.where(HERD) == "2334"


# ---------------------------------------------------------------- stampedes (L480, L594)
def test_rule_dp_herd_missile_elimination_stampedes_it():
    """L567, L594: the herd runs its full MF (2) in the die's direction (1 = N),
    through units, then is neutral and disrupted."""
    p = Position("18.2")
    for a in ARCHERS:
        p.put(a, "0504")
    p.put(MILITIA[0], "0604")
    herd_for(p, SARTAR, "0604")
    p.put(MILITIA[1], "0603")                     # it runs through this stack
    p.combat(LUNAR)
    p.dice(6, 1)                                  # 6 + 1 (a herd, L384): 1DE; the stampede's die: 1, north
    declare(p, ["0604"], ["0504"])
    assert f"stampede {p.name(HERD)}" in p.legal()
    p.act(f"stampede {p.name(HERD)}")
    assert p.where(HERD) == "0602"                # 0603 and 0602
    assert force(p, HERD) is None and p.disrupted(HERD)
    assert p.where(MILITIA[0]) == "0604"


def test_rule_dp_herd_stampede_off_the_board_eliminates_it():
    p = Position("18.2")
    for a in ARCHERS:
        p.put(a, "0503")
    herd_for(p, SARTAR, "0602")
    p.put(MILITIA[0], "0602")
    p.combat(LUNAR)
    p.dice(6, 1)                                  # 1DE; north: 0601, then off the board
    declare(p, ["0602"], ["0503"])
    p.act(f"stampede {p.name(HERD)}")
    assert p.where(HERD) == "dead"


def test_rule_dp_herd_stampede_onto_a_lake_eliminates_it():
    from dragongym.envs.dragon_pass.board import HEX_STEP
    from tests.dragon_pass.scenario import hexi
    assert int(HEX_STEP[hexi("3513"), 1]) == hexi("3512")     # a lake north of 3513
    p = Position("18.2")
    for a in ARCHERS:
        p.put(a, "3514")
    herd_for(p, SARTAR, "3513")
    p.put(MILITIA[0], "3513")
    p.combat(LUNAR)
    p.dice(6, 1)
    declare(p, ["3513"], ["3514"])
    p.act("take one elimination")                 # a 2DD here (no terrain bonus)
    p.act(f"stampede {p.name(HERD)}")
    assert p.where(HERD) == "dead"


def test_rule_dp_herd_disrupted_again_stampedes():
    """L590: a disrupted herd that is disrupted again stampedes (not eliminated)."""
    p = Position("18.2")
    for a in ARCHERS:
        p.put(a, "0504")
    p.put(MILITIA[0], "0604")
    herd_for(p, SARTAR, "0604", disrupted=True)
    p.combat(LUNAR)
    p.dice(5, 4)                                  # 5 + 1 (a herd): 2DD; the stampede: 4, south
    declare(p, ["0604"], ["0504"])
    p.act("take two disruptions")
    p.act(f"disrupt {p.name(HERD)}")
    assert p.where(HERD) == "0606" and force(p, HERD) is None and p.disrupted(HERD)


def test_rule_dp_herd_stampeding_into_a_stack_stays_neutral_until_the_phase_ends():
    """L480, L594, L592: neutral in the stack it ends in, captured by that
    stack's player at the end of the phase."""
    p = Position("18.2")
    for a in ARCHERS:
        p.put(a, "0504")
    p.put(MILITIA[0], "0604")
    herd_for(p, SARTAR, "0604")
    p.combat(LUNAR)
    p.dice(6, 6)                                  # 1DE; stampede north-west: 0504 then 0403
    p.put(LANCERS[0], "0403")
    declare(p, ["0604"], ["0504"])
    p.act(f"stampede {p.name(HERD)}")
    assert p.where(HERD) == "0403" and force(p, HERD) is None      # neutral in the Lunar stack
    p.check()
    while int(p.s["stage"]) == ST_COMBAT:
        p.act(p.legal()[-1])
    assert force(p, HERD) == LUNAR                # captured at the end of the combat phase


# ---------------------------------------------------------------- capture (L592)
def test_rule_dp_herd_neutral_herd_is_captured_by_a_unit_stacked_with_it():
    p = Position()
    herd_for(p, None, "0604")
    p.put(LANCERS[0], "0504")
    p.movement(LUNAR)
    moving(p, "0504", LANCERS[0])
    step_to(p, "0504", "0604")
    p.act("stop at 0604")
    assert force(p, HERD) is None                 # not before the end of the phase
    finish_movement(p)
    assert force(p, HERD) == LUNAR


def test_rule_dp_herd_captured_herd_left_alone_becomes_neutral():
    """L592: a captured unit left without a player unit becomes neutral; its
    original owner recapturing it makes it his own again, so it stays his when alone."""
    p = Position()
    herd_for(p, None, "0604")
    p.put(LANCERS[0], "0604")
    p.movement(LUNAR)
    finish_movement(p)
    assert force(p, HERD) == LUNAR                # captured (originally neutral)
    p.movement(LUNAR, player_turn=3)
    moving(p, "0604", LANCERS[0])
    step_to(p, "0604", "0504")
    p.act("stop at 0504")
    finish_movement(p)
    assert force(p, HERD) is None                 # left alone: neutral again

    q = Position()
    herd_for(q, SARTAR, "0604")                   # Sartar's own
    q.s["unit_origin"][unit(HERD)] = R.ORIGIN_OF + FORCES.index(SARTAR)
    q.s["unit_force"][unit(HERD)] = FORCES.index(LUNAR)          # captured by the Lunars
    q.put(LANCERS[0], "0604")
    q.put(MILITIA[0], "0804")
    q.movement(LUNAR)
    finish_movement(q)
    assert force(q, HERD) == LUNAR                # still with a Lunar unit
    q.s["unit_force"][unit(HERD)] = -1            # say it stampeded away from him
    q.s["unit_hex"][unit(HERD)] = q.s["unit_hex"][unit(MILITIA[0])]
    q.movement(SARTAR, player_turn=2)
    finish_movement(q)
    assert force(q, HERD) == SARTAR and int(q.s["unit_origin"][unit(HERD)]) == R.ORIGIN_HOME
    q.movement(SARTAR, player_turn=4)
    moving(q, "0804", MILITIA[0])
    step_to(q, "0804", "0805")
    q.act("stop at 0805")
    finish_movement(q)
    assert force(q, HERD) == SARTAR               # recaptured: alone, it stays his


def test_rule_dp_herd_own_herd_alone_stays_its_owners():
    p = Position()
    herd_for(p, LUNAR, "0604")
    p.movement(LUNAR)
    finish_movement(p)
    assert force(p, HERD) == LUNAR


# ---------------------------------------------------------------- melee (L571, L578, L586, L600)
def test_rule_dp_herd_does_not_fight_nor_take_a_fighting_place():
    """L571: herds do not fight; three majors under a herd all fight (Interpretations)."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    herd_for(p, LUNAR, "0504")                    # on top
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    p.dice(1, 1)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    assert int(p.s["att_total"]) == 12            # 3 x 4, the herd adds nothing


def test_rule_dp_herd_melee_casualty_may_be_bypassed_or_captured():
    """L586: a herd at the top may be bypassed or taken; taken, it is captured
    and moved to the attacking stack that fought (Interpretations: the first)."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    herd_for(p, SARTAR, "0604")                   # on top of the militia
    p.combat(LUNAR)
    p.dice(6)                                     # 12 at 6: loss 12
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    no_retreat(p)
    legal = p.legal()
    assert f"capture {p.name(HERD)} at 0604" in legal and f"eliminate {p.name(MILITIA[0])} at 0604" in legal
    p.act(f"capture {p.name(HERD)} at 0604")
    assert p.where(HERD) == "0504" and force(p, HERD) == LUNAR
    assert int(p.s["unit_origin"][unit(HERD)]) == R.ORIGIN_OF + FORCES.index(SARTAR)


def test_rule_dp_herd_left_alone_is_vacated_and_an_advance_captures_it():
    """L600: the militia under the herd eliminated, the hex holds only the herd:
    an advance ending there captures it."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    herd_for(p, SARTAR, "0604")
    p.put(MILITIA[0], "0604")                     # on top of the herd
    p.put(MILITIA[1], "0705")                     # beside 0604: no extended advance
    p.combat(LUNAR)
    p.dice(2)                                     # 12 at 2: loss 3, the militia's 3 and not the herd's 1 more
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    no_retreat(p)
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    p.act(f"advance {p.name(LANCERS[0])}")
    p.act(f"{p.name(LANCERS[0])} advances into 0604")
    assert p.where(LANCERS[0]) == "0604" and force(p, HERD) == LUNAR


def test_rule_dp_herd_cannot_cover_a_retreat():
    """L578: the militia may not retreat leaving only the herd behind."""
    p = Position()
    p.put(WARRIORS[0], "0504")
    p.put(MILITIA[0], "0604")
    herd_for(p, SARTAR, "0604")
    p.put(MILITIA[1], "0804")
    p.combat(LUNAR)
    p.dice(1)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0604")
    assert p.phase == R.PH_RETREAT                # the herd may go: the militia covers it
    assert p.legal() == [f"retreat {p.name(HERD)}", "no more retreats"]


def test_rule_dp_herd_and_units_above_it_are_outside_structures():
    """L458, L472: the militia on a herd in Jonstown absorbs 3, not 6."""
    p = Position()
    herd_for(p, SARTAR, "3122")                   # Jonstown, a fortress
    p.put(MILITIA[0], "3122")
    for u in LANCERS[:3]:
        p.put(u, "3123")
    p.combat(LUNAR)
    p.dice(3, 1)                                  # 12 at 3: loss 4 < 6 inside, >= 3 outside
    declare(p, ["3122"], ["3123"])
    arranged(p, "3123", "3122")
    if p.phase == R.PH_RETREAT:
        p.act("no more retreats")
    assert f"eliminate {p.name(MILITIA[0])} at 3122" in p.legal()


# ---------------------------------------------------------------- magic and exotic magic (L534, L556, L710)
def ahead(hex_id, direction, steps=2):
    """The hex ``steps`` hexes from ``hex_id`` in compass direction 1..6 (N NE SE S SW NW)."""
    from dragongym.envs.dragon_pass.board import HEX_STEP
    from dragongym.envs.dragon_pass.data import MAP
    from tests.dragon_pass.scenario import hexi
    h = hexi(hex_id)
    for _ in range(steps):
        h = int(HEX_STEP[h, direction])
    return MAP.hex_id(h)


def test_rule_dp_herd_physical_magic_casualty_stampedes():
    """L534: units picked as casualties of physical magic are eliminated, except herds, which stampede."""
    from tests.dragon_pass.magic_test import choose, declare as declare_magic
    p = Position("18.4", moon="full")
    p.put("full_moon_corps", "2011")
    p.put("lcm_sorcerers", "2014")
    p.put("smu_earth_priestesses#1", "2012")
    herd_for(p, SARTAR, "2012")
    p.combat(LUNAR)
    choose(p, "commit", "Agent")
    choose(p, "attacks the stack at", "2012")
    p.dice(6, 1)                                  # the agent's loss of 4; the stampede runs north
    declare_magic(p)
    assert f"stampede {p.name(HERD)} at 2012" in p.legal()
    p.act(f"stampede {p.name(HERD)} at 2012")
    assert p.where(HERD) == ahead("2012", 1) and force(p, HERD) is None and p.disrupted(HERD)


def test_rule_dp_herd_meteor_storm_stampedes_herds_and_the_stack_it_joins_captures_it():
    """L710: every unit in the hex is eliminated except herds, which stampede; the
    herd ends in the Crater Makers' stack, neutral until the end of the Exotic
    Magic Phase, then captured (L594, L592)."""
    from tests.dragon_pass.exotic_test import choose, exotic
    p = Position("18.4", moon="full")
    p.put("crater_makers", ahead("2012", 4))
    p.put("full_moon_corps", "2011")
    p.put("smu_storm_priests#1", "2012")
    herd_for(p, SARTAR, "2012")
    exotic(p, LUNAR)
    p.dice(4)                                     # south, two hexes
    choose(p, "Crater Makers", "uses its exotic magic")
    choose(p, "Meteor Storm strikes 2012")
    assert p.where("smu_storm_priests#1") == "dead"
    assert p.where(HERD) == ahead("2012", 4) and p.disrupted(HERD)
    assert force(p, HERD) == LUNAR                # the phase is over: captured (L592)


def test_rule_dp_herd_a_type_1_storm_stampedes_herds():
    """L688, L588 (Interpretations 50): the storm eliminates every unit of its hex
    but herds, which cannot be eliminated by it: they stampede."""
    from tests.dragon_pass.exotic_test import choose, exotic
    p = Position("18.5", moon="full")
    p.put("stormwalkers", "2016")
    p.put("full_moon_corps", "2012")
    herd_for(p, LUNAR, "2012")
    exotic(p, SARTAR)
    p.dice(1)                                     # north, two hexes
    choose(p, "Stormwalkers", "uses its exotic magic")
    choose(p, "Type 1 storm strikes 2012")
    assert p.where("full_moon_corps") == "dead"
    assert p.where(HERD) == ahead("2012", 1) and p.disrupted(HERD) and force(p, HERD) is None


def test_rule_dp_herd_spirit_magic_casualty_stampedes():
    """L556: casualties of spirit magic are eliminated, except herds, which stampede."""
    from tests.dragon_pass.magic_test import choose, declare as declare_magic
    p = Position("18.4", moon="full")
    p.put("full_moon_corps", "2011")
    p.put("lcm_magicians#1", "2014")
    p.put("bh_shamans#1", "2012")
    herd_for(p, SARTAR, "2012")
    p.combat(LUNAR)
    choose(p, "commit", "College Magicians' Spirit")
    choose(p, "attacks the stack at", "2012")
    p.dice(6, 6, 4)                               # the spirit's loss and the DSM's; the stampede runs south
    declare_magic(p)
    assert p.to_play == LUNAR and f"stampede {p.name(HERD)} at 2012" in p.legal()
    p.act(f"stampede {p.name(HERD)} at 2012")
    assert p.where(HERD) == ahead("2012", 4) and force(p, HERD) is None and p.disrupted(HERD)


def test_rule_dp_herd_chaotic_magic_cannot_eliminate_herds():
    """L524: the attacking Crimson Bat's casualty is never the herd."""
    from tests.dragon_pass.magic_test import declare as declare_magic
    p = Position("18.4", moon="full")
    p.put("crimson_bat", "2011")
    p.put("full_moon_corps", "2011")
    p.put("bh_shamans#1", "2012")
    herd_for(p, SARTAR, "2012")
    p.combat(LUNAR)
    p.dice(1)
    declare_magic(p)
    assert p.to_play == LUNAR and p.legal() == [f"eliminate {p.name('bh_shamans#1')} at 2012"]


def test_rule_dp_herd_a_neutral_herd_in_a_struck_stack_is_no_casualty_and_an_advance_captures_it():
    """L594: a herd that stampeded into a stack this phase is neutral there: it is
    no casualty of the stack's owner and does not retreat with it; the hex left to
    it is vacated, and an advance ending on it captures it (L600)."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    herd_for(p, None, "0604")                     # neutral, on top of the militia
    p.put(MILITIA[1], "0705")                     # beside 0604: no extended advance
    p.combat(LUNAR)
    p.dice(6)                                     # loss 12
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    assert p.phase == R.PH_CASUALTY and p.legal() == [f"eliminate {p.name(MILITIA[0])} at 0604"]
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    assert p.where(HERD) == "0604" and force(p, HERD) is None
    p.act(f"advance {p.name(LANCERS[0])}")
    p.act(f"{p.name(LANCERS[0])} advances into 0604")
    assert force(p, HERD) == LUNAR
