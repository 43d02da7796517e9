"""Minor Independents (L853-L912): the Sun Dome Templars, the Tusk Riders'
movement, the Spirit of Movement, the Alchemical Transformer.

Alliances are not built yet: a position hands the counters to a side
(``for_side``) and widens ``units_end`` to every counter, as the Cragspider and
herd tests do. The Dwarf Luck Table and the Tusk Riders' blood sacrifice are
applied by the alliance phase (``rules/minors.py::dwarf_luck``,
``blood_sacrifice``), tested when it is wired.
"""
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import FORCES, UNIT_IDS
from tests.dragon_pass.combat_test import LANCERS, MILITIA, WARRIORS, arranged, declare
from tests.dragon_pass.herds_test import moving, step_to
from tests.dragon_pass.movement_test import to_next_player_turn
from tests.dragon_pass.scenario import LUNAR, SARTAR, Position, unit

TEMPLAR = "sun_dome_templars#1"
TUSKS = [f"tusk_riders#{i}" for i in range(1, 6)]    # 5-4-5*-X
SPIRIT = "spirit_of_movement"                        # X-5-x2-1
TRANSFORMER = "alchemical_transformer"               # 2-x2-3-x2
MAGICIAN = "lcm_magicians#1"                         # a Lunar magician, MF 5


def for_side(p, force, name, where, disrupted=False):
    """Independent counter ``name`` at ``where``, allied to ``force``."""
    u = p.put(name, where, disrupted=disrupted)
    p.s["unit_force"][u] = FORCES.index(force)
    p.s["units_end"] = len(UNIT_IDS)
    return u


# ---------------------------------------------------------------- the Sun Dome Templars (L900-L904)
def templar_attacked(where, die, attackers, at="0424"):
    p = Position()
    for_side(p, SARTAR, TEMPLAR, where)
    for u in attackers:
        p.put(u, at)
    p.combat(LUNAR)
    p.dice(die, 1)
    declare(p, [where], [at])
    if p.phase == R.PH_RETREAT:
        p.act("no more retreats")
    arranged(p, at)
    return p


def test_rule_dp_templar_inside_a_stockade_counts_as_10_cf_when_selecting_casualties():
    """L902-L904: 'a Sun Dome Templar inside a stockade counts as 10 CF when
    selecting casualties': its 5 CF doubled, not x1.5 for the stockade on its
    hill (which would make 7.5). 12 CF at 5 is a loss of 9: nothing taken;
    14 CF at 5 is a loss of 10: the Templar is taken."""
    p = templar_attacked("0325", 5, LANCERS[:3])
    assert int(p.s["att_total"]) == 12
    assert p.where(TEMPLAR) == "0325" and p.phase == R.PH_ARRANGE       # 9 < 10: no casualty
    p = templar_attacked("0325", 5, ["cc_heavy_lancers#1"] + LANCERS[:2])
    assert int(p.s["att_total"]) == 14
    assert p.phase == R.PH_CASUALTY and p.legal() == [f"eliminate {p.name(TEMPLAR)} at 0325"]


def test_rule_dp_templar_doubling_is_no_terrain_benefit_it_counts_10_on_open_ground_too():
    """L902: doubled CF, 'but they do not receive any terrain benefits': on a
    hill (x1.5) or open ground the Templar counts 10 alike, never 15."""
    for where in ("0325", "0424"):
        at = "0425" if where == "0424" else "0424"
        p = templar_attacked(where, 5, ["cc_heavy_lancers#1"] + LANCERS[:2], at=at)
        assert p.phase == R.PH_CASUALTY, where      # a loss of 10 takes it anywhere


# ---------------------------------------------------------------- the Tusk Riders' movement (L484, L910)
def tusk_step(frm, to, rain=False, other=WARRIORS[0]):
    """A Tusk Rider (MF 5) and a Lunar infantry unit (MF 4) each step from
    ``frm`` into ``to``: the movement points each has left."""
    left = []
    for name in (TUSKS[0], other):
        p = Position()
        if name == TUSKS[0]:
            for_side(p, LUNAR, name, frm)
        else:
            p.put(name, frm)
        p.s["rain"] = 1 if rain else 0
        p.movement(LUNAR)
        moving(p, frm, name)
        step_to(p, frm, to)
        left.append(p.mp(name))
    return left


def test_rule_dp_tusk_riders_pay_1_mp_for_forest_and_hill_forest():
    """L484, L910: 1 MP for Hill, Forest, Hill/Forest, where others pay 2 MP
    for forest and hill/forest; a hill is 1 MP for everyone."""
    assert tusk_step("0108", "0109") == [4.0, 2.0]        # forest
    assert tusk_step("1311", "1410") == [4.0, 2.0]        # hill/forest
    assert tusk_step("0114", "0214") == [4.0, 3.0]        # hill


def test_rule_dp_tusk_riders_still_pay_plus_1_mp_in_rain_for_those_hexes():
    """L484 '(but 2 MP in rain)', L910 'still pay +1 MP in rain'."""
    assert tusk_step("0108", "0109", rain=True) == [3.0, 1.0]
    assert tusk_step("1311", "1410", rain=True) == [3.0, 1.0]


def test_rule_dp_tusk_riders_receive_no_road_benefits():
    """L484, L910: along a primary road others pay 1/2 MP; the Tusk Riders pay
    the open ground's 1 MP."""
    assert tusk_step("0404", "0504") == [4.0, 3.5]


def test_rule_dp_tusk_riders_benefit_from_fords():
    """L484: 'do benefit from fords': leaving a ford hex costs them no more
    than the ground entered (1 MP for open ground)."""
    assert tusk_step("0613", "0614") == [4.0, 3.0]


# ---------------------------------------------------------------- the Spirit of Movement (L488, L894-L898)
def test_rule_dp_spirit_of_movement_alone_has_mf_2():
    """L896: 'By itself, it has an MF of 2.'"""
    p = Position()
    for_side(p, LUNAR, SPIRIT, "0604")
    p.movement(LUNAR)
    moving(p, "0604", SPIRIT)
    assert p.mp(SPIRIT) == 2.0


def test_rule_dp_spirit_of_movement_doubles_every_unit_moving_with_it_magicians_included():
    """L488, L896: all stacked units' MFs doubled, magicians included (unlike
    herds); the Spirit's MF the highest of them."""
    p = Position("18.5")
    for_side(p, LUNAR, SPIRIT, "0604")
    p.put(LANCERS[0], "0604")                     # MF 7, cavalry
    p.put(WARRIORS[0], "0604")                    # MF 4, infantry
    p.put(MAGICIAN, "0604")                       # MF 5, a magician
    p.movement(LUNAR)
    moving(p, "0604", LANCERS[0], WARRIORS[0], MAGICIAN)
    assert (p.mp(LANCERS[0]), p.mp(WARRIORS[0]), p.mp(MAGICIAN)) == (7.0, 4.0, 5.0)   # no Spirit yet
    p.act(f"move {p.name(SPIRIT)} with the group")
    assert (p.mp(LANCERS[0]), p.mp(WARRIORS[0]), p.mp(MAGICIAN)) == (14.0, 8.0, 10.0)
    assert p.mp(SPIRIT) == 14.0
    step_to(p, "0604", "0603")
    assert p.mp(WARRIORS[0]) == 7.0                # it pays its step from 8


def test_rule_dp_spirit_of_movement_doubles_only_units_spending_the_whole_phase_with_it():
    """L898: 'Units must spend an entire movement phase with The Spirit of
    Movement': a unit that moved into its hex cannot join its group, and a
    unit left behind keeps its own MF."""
    p = Position()
    for_side(p, LUNAR, SPIRIT, "0604")
    p.put(WARRIORS[0], "0603")
    p.put(WARRIORS[1], "0604")
    p.movement(LUNAR)
    moving(p, "0603", WARRIORS[0])
    step_to(p, "0603", "0604")
    p.act("stop at 0604")
    moving(p, "0604", SPIRIT)
    assert f"move {p.name(WARRIORS[0])} with the group" not in p.legal()
    assert p.mp(WARRIORS[1]) == 4.0                 # not in the Spirit's group: not doubled


def test_rule_dp_spirit_of_movement_eliminated_doubles_all_its_owners_units_for_the_phase():
    """L898: by eliminating the Spirit of Movement at the start of a movement
    phase its owner doubles the movement of all his units for that phase
    only; asked of its owner only."""
    p = Position("18.5")
    for_side(p, LUNAR, SPIRIT, "1010")
    p.put(LANCERS[0], "1012")                     # MF 7, far from the Spirit
    p.put("smu_storm_priests#1", "3230")          # Sartar
    p.movement(SARTAR, player_turn=2)
    to_next_player_turn(p)
    stays = "the Spirit of Movement stays"
    speed = "eliminate the Spirit of Movement: every unit's movement doubled this phase"
    assert p.to_play == LUNAR and sorted(p.legal()) == sorted([speed, stays])
    p.act(speed)
    assert p.where(SPIRIT) == "dead"
    assert p.mp(LANCERS[0]) == 14.0 and p.phase == R.PH_MOVE
    to_next_player_turn(p)                        # the Sartar player-turn: his units are not doubled
    assert p.to_play == SARTAR and p.mp("smu_storm_priests#1") == R.U_MF[unit("smu_storm_priests#1"), 0]
    to_next_player_turn(p)
    assert p.to_play == LUNAR and p.mp(LANCERS[0]) == 7.0     # that phase only


def test_rule_dp_spirit_of_movement_kept_asks_nothing_more_and_doubles_nothing():
    p = Position("18.5")
    for_side(p, LUNAR, SPIRIT, "1010")
    p.put(LANCERS[0], "1012")
    p.movement(SARTAR, player_turn=2)
    to_next_player_turn(p)
    p.act("the Spirit of Movement stays")
    assert p.where(SPIRIT) == "1010" and p.mp(LANCERS[0]) == 7.0 and p.phase == R.PH_MOVE


def test_rule_dp_spirit_of_movement_not_asked_of_the_other_side():
    p = Position("18.5")
    for_side(p, SARTAR, SPIRIT, "3030")
    p.put(LANCERS[0], "1012")
    p.movement(SARTAR, player_turn=2)
    to_next_player_turn(p)
    assert p.to_play == LUNAR and not any("Spirit of Movement" in t for t in p.legal())


def test_rule_dp_spirit_of_movement_doubling_applies_to_retreats():
    """L896: 'The movement doubling also applies for retreats.' A lone Sartar
    militia (MF 4) attacked by lancers (MF 7) is slower and has no one to
    cover it: it cannot retreat (L578). With the Spirit of Movement its MF is
    8, faster than the lancers: it may retreat."""
    can = []
    for with_spirit in (False, True):
        p = Position()
        p.put(MILITIA[0], "0604")
        if with_spirit:
            for_side(p, SARTAR, SPIRIT, "0604")
        p.put(LANCERS[0], "0504")
        p.combat(LUNAR)
        declare(p, ["0604"], ["0504"])
        if p.phase == R.PH_ARRANGE:
            arranged(p, "0604")
        can.append(p.phase == R.PH_RETREAT and any(p.name(MILITIA[0]) in t for t in p.legal()))
    assert can == [False, True]


# ---------------------------------------------------------------- the Alchemical Transformer (L857)
CANNON, AGENT = "cannon_cult", "cannon_cult_agent"    # 8-7-3-3 & Agent 7-X-X-3 (L864)


def cf_seen(p, name, force=LUNAR):
    """Unit ``name``'s CF as ``force``'s observation shows it (halves kept), as
    ``Position.cf`` does for a unit of the Battalia."""
    import numpy as np
    from dragongym.envs.dragon_pass import observe as O
    from tests.dragon_pass.scenario import GAME, seat
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([seat(force)], np.int64), obs)
    return round(float(obs[0, O.UNITS_OFF + unit(name) * O.UNIT_FEATURES + O.U_CF]) * 20) / 2


def transformer_turn(*stacked, where="1010"):
    """The Lunar player-turn of game-turn 2 begins (18.5) with the Alchemical
    Transformer and ``stacked`` at ``where``, Lunar's; the Cannon Cult's agent
    in its holding box."""
    from dragongym.envs.dragon_pass.constants import UW_HOLDING
    p = Position("18.5", moon="full")
    for_side(p, LUNAR, TRANSFORMER, where)
    for name in stacked:
        for_side(p, LUNAR, name, where)
    p.s["unit_force"][unit(AGENT)] = FORCES.index(LUNAR)
    p.s["unit_where"][unit(AGENT)] = UW_HOLDING
    p.put("smu_storm_priests#1", "3230")          # Sartar
    p.movement(SARTAR, player_turn=2)
    to_next_player_turn(p)
    return p


def test_rule_dp_transformer_owner_names_a_stacked_unit_and_its_mgf_or_rf_at_his_movement_start():
    """L857: 'doubles the MgF or RF of any one unit stacked with it' --
    named at the start of its owner's movement phase (Interpretations 121):
    the units with it that have an MgF or RF to double, or no one; then which
    factor. A stone man (MgF 2, RF X) offers only its MgF."""
    p = transformer_turn(CANNON, "stone_men#1", LANCERS[0])
    assert p.to_play == LUNAR and sorted(p.legal()) == sorted([
        f"the Alchemical Transformer doubles {p.name(CANNON)}",
        f"the Alchemical Transformer doubles {p.name('stone_men#1')}",
        f"the Alchemical Transformer doubles {p.name(LANCERS[0])}",
        "the Alchemical Transformer doubles no one"])
    p.act(f"the Alchemical Transformer doubles {p.name('stone_men#1')}")
    assert p.legal() == [f"double the MgF of {p.name('stone_men#1')}"]
    p = transformer_turn(CANNON)
    p.act(f"the Alchemical Transformer doubles {p.name(CANNON)}")
    assert sorted(p.legal()) == [f"double the MgF of {p.name(CANNON)}", f"double the RF of {p.name(CANNON)}"]


def test_rule_dp_transformer_doubling_a_physical_magicians_mgf_doubles_its_agents_cf():
    """L857: 'If a physical magician's MgF is doubled, the CF of its physical
    agent is also doubled': the Cannon Cult's agent, 7, becomes 14 -- while
    the two stay stacked; moved apart, the doubling lapses."""
    p = transformer_turn(CANNON)
    assert cf_seen(p, AGENT) == 7.0
    p.act(f"the Alchemical Transformer doubles {p.name(CANNON)}")
    p.act(f"double the MgF of {p.name(CANNON)}")
    assert cf_seen(p, AGENT) == 14.0 and p.phase == R.PH_MOVE
    moving(p, "1010", TRANSFORMER)
    step_to(p, "1010", "1011")
    assert cf_seen(p, AGENT) == 7.0


def test_rule_dp_transformer_doubling_the_rf_doubles_the_reach_of_the_magicians_spirit():
    """L857 (RF doubled), L496: the College Magicians (RF 8) commit their
    spirit onto a stack 10 hexes off only with their RF doubled (16)."""
    from tests.dragon_pass.magic_test import choose
    reach = []
    for doubled in (False, True):
        p = Position("18.4", moon="full")
        p.put("full_moon_corps", "2022")
        p.put("lcm_magicians#1", "2011")
        p.put("bh_shamans#1", "2021")                 # 10 hexes from the magicians
        for_side(p, LUNAR, TRANSFORMER, "2011")
        if doubled:                                   # named at the start of the movement phase
            p.s["alchemy_unit"] = unit("lcm_magicians#1")
            p.s["alchemy_rf"] = 1
        p.combat(LUNAR)
        if any("commit" in t and "College Magicians' Spirit" in t for t in p.legal()):
            choose(p, "commit", "College Magicians' Spirit")
            reach.append([t for t in p.legal() if "attacks the stack" in t])
        else:
            reach.append([])                          # nothing within its reach: no commitment posed
    assert reach[0] == [] and reach[1] == [f"{p.name('lcm_magicians_spirit#1')} attacks the stack at 2021"]


def test_rule_dp_transformer_doubling_a_chaotic_mgf_devours_twice_as_many():
    """L857: 'If a chaotic unit's MgF is doubled, it can devour twice as many
    units as normal': the attacking Crimson Bat (MgF -1) eliminates two
    defenders, not one (as magic_test's chaotic test, L516)."""
    from tests.dragon_pass.magic_test import ATTACKER, DEFENDER, choose, declare as declare_magic
    p = Position("18.4", moon="full")
    p.put("crimson_bat", ATTACKER)
    p.put("full_moon_corps", ATTACKER)
    for_side(p, LUNAR, TRANSFORMER, ATTACKER)
    p.s["alchemy_unit"] = unit("crimson_bat")
    p.s["alchemy_rf"] = 0
    p.put("smu_earth_priestesses#1", DEFENDER)
    p.put("bh_shamans#1", DEFENDER)
    p.put("bh_shamans#2", DEFENDER)
    p.combat(LUNAR)
    p.dice(1)
    declare_magic(p)
    choose(p, "eliminate", "Shaman", "(1)")
    choose(p, "eliminate", "Shaman", "(2)")
    assert p.where("bh_shamans#1") == p.where("bh_shamans#2") == "dead"
    assert p.where("smu_earth_priestesses#1") == DEFENDER


def test_rule_dp_transformer_doubles_a_cyclic_mgf_too():
    """L857, L410 (Interpretations 121): the Lunar Sorcerers' cyclic MgF can be
    doubled; their agent's CF doubles with it."""
    p = transformer_turn("lcm_sorcerers")
    agent = R.UNIT_IDS[int(R.U_BOUND[unit("lcm_sorcerers")])]
    before = cf_seen(p, agent)
    p.act(f"the Alchemical Transformer doubles {p.name('lcm_sorcerers')}")
    assert f"double the MgF of {p.name('lcm_sorcerers')}" in p.legal()
    p.act(f"double the MgF of {p.name('lcm_sorcerers')}")
    assert before > 0 and cf_seen(p, agent) == 2 * before



def test_rule_dp_spirit_of_movement_doubles_the_largest_mf_too():
    """L896: every MF of the stack doubled, the game's largest too -- the
    Stormwalkers' 20 makes 40 MP -- and the position is sound (no bound below
    the largest MF doubled)."""
    p = Position("18.5")
    for_side(p, SARTAR, SPIRIT, "3124")
    p.put("stormwalkers", "3124")                 # MF 20
    p.movement(SARTAR)
    moving(p, "3124", "stormwalkers")
    p.act(f"move {p.name(SPIRIT)} with the group")
    assert p.mp("stormwalkers") == 40.0
    p.check()
