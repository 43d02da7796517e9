"""The Earth-Shaker's Cult's earthquake (L720 = L776): once per game, in its
side's Exotic Magic Phase, a Type 1 fracture line of 8 hexes or two Type 2
lines of 5, every hex within the cult's RF of 10; the units on the lines
disrupted, those in an enclosed area eliminated (D&S, DS&T), fortresses on a
line badly damaged; the cult's spirit eliminated. The Exiles come by
alliance (diplomacy_test.py); here the tests hand the cult and its spirit to the
Lunars, in 18.5 where both sides have an Exotic Magic Phase (L271). Lines
are laid hex by hex, as a player would."""
import numpy as np

from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import FORCES, UW_HOLDING
from dragongym.envs.dragon_pass.data import MAP

from .exotic_test import choose, exotic
from .scenario import LUNAR, SARTAR, Position, hexi, unit

CULT, SPIRIT = "earth_shakers_cult", "earth_shakers_cult_spirit"
CENTRE = "2014"                       # open ground, far from the board's edge and from Independents territory


def cult_for(p, force, where=CENTRE):
    """The cult on the map and its spirit in its holding box, allied to ``force``."""
    s = p.s
    s["units_end"] = max(int(s["units_end"]), unit(SPIRIT) + 1)
    p.put(CULT, where)
    for name in (CULT, SPIRIT):
        s["unit_force"][unit(name)] = FORCES.index(force)
    s["unit_where"][unit(SPIRIT)] = UW_HOLDING


def step(where, d, n=1):
    h = hexi(where)
    for _ in range(n):
        h = int(R.HEX_STEP[h, d])
    return MAP.hex_id(h)


def straight(start, d, n):
    """n hexes in a straight line from ``start`` in direction d."""
    return [step(start, d, k) for k in range(n)]


def ring(centre):
    """The six neighbours of ``centre``, each adjacent to the one before."""
    return [step(centre, d) for d in range(1, 7)]


def quake(p, kind):
    """The cult's controller (the Lunars) starts his Exotic Magic Phase and
    chooses the earthquake of type ``kind``."""
    exotic(p, LUNAR)
    choose(p, "Earth Shaker's Cult", "uses its exotic magic")
    choose(p, f"a Type {kind} earthquake")
    assert p.phase == R.PH_FRACTURE


def fracture_options(p):
    return sorted(t.rsplit(": ", 1)[1] for t in p.legal())


def lay(p, *hexes):
    for where in hexes:
        hits = [t for t in p.legal() if t.endswith(f": {where}")]
        assert len(hits) == 1, (where, p.legal())
        p.act(hits[0])


def test_rule_dp_quake_type_1_is_a_single_line_of_8_adjacent_hexes():
    """L720: one fracture 8 hexes long; it need not be straight; each hex
    adjacent to the one before, none laid twice (Interpretations)."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    quake(p, 1)
    line = straight("2010", 3, 7)
    lay(p, *line)
    # the eighth: any neighbour of the seventh that is not on the line yet
    expected = sorted(step(line[-1], d) for d in range(1, 7) if step(line[-1], d) not in line)
    assert fracture_options(p) == expected
    assert p.phase == R.PH_FRACTURE
    lay(p, step(line[-1], 1))          # a bend: 'need not be straight'
    assert p.phase != R.PH_FRACTURE and int(p.s["quake_type"]) == 0
    assert all(int(h) == -1 for h in p.s["fracture_hexes"])


def test_rule_dp_quake_fracture_hexes_lie_within_the_cults_rf_of_10():
    """L720: 'all fracture hexes must be within the cult's RF of 10', counted
    from the cult's counter."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    quake(p, 1)
    options = set(fracture_options(p))
    centre = hexi(CENTRE)
    in_range = {MAP.hex_id(h) for h in range(len(MAP.ids)) if MAP.distance(h, centre) <= 10}
    assert options == in_range
    assert step(CENTRE, 1, 10) in options and step(CENTRE, 1, 11) not in options
    # a line run out to the edge of the range turns back: the hexes beyond are refused
    lay(p, *straight(step(CENTRE, 1, 7), 1, 4))
    assert step(CENTRE, 1, 11) not in fracture_options(p)


def test_rule_dp_quake_type_2_is_two_lines_of_5_with_no_hex_of_one_beside_the_other():
    """L720: two fracture lines, each of 5 hexes; 'no 2 hexes of each line can
    be adjacent' (Interpretations: no hex of the second beside one of the first)."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    p.put("bh_bison_riders#1", "2016")
    quake(p, 2)
    first = straight("2010", 3, 5)
    lay(p, *first)
    options = fracture_options(p)
    assert p.phase == R.PH_FRACTURE and len(options) > 6      # the second line starts anywhere
    assert all(MAP.distance(hexi(o), hexi(f)) >= 2 for o in options for f in first)
    second = straight(step("2010", 5, 2), 3, 5)
    assert all(MAP.distance(hexi(a), hexi(b)) >= 2 for a in first for b in second)
    lay(p, *second[:4])
    # the fifth hex of the second line: adjacent to the fourth, never beside the first line
    assert all(MAP.distance(hexi(o), hexi(second[3])) == 1 for o in fracture_options(p))
    lay(p, second[4])
    assert p.phase != R.PH_FRACTURE


def test_rule_dp_quake_units_on_a_fracture_line_are_disrupted():
    """L720: most units on a fracture line are disrupted (of either side); an
    already disrupted one is eliminated (L590); units off the line are untouched."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    line = straight("2010", 3, 8)
    p.put("bh_bison_riders#1", line[2])
    p.put("bh_bison_riders#2", line[5], disrupted=True)
    p.put("lcm_magicians#1", line[7])
    p.put("bh_bison_riders#3", step(line[2], 1, 2))          # two hexes off the line
    quake(p, 1)
    lay(p, *line)
    assert p.disrupted("bh_bison_riders#1") and p.where("bh_bison_riders#1") == line[2]
    assert p.where("bh_bison_riders#2") == "dead"
    assert p.disrupted("lcm_magicians#1")
    assert not p.disrupted("bh_bison_riders#3")


def test_rule_dp_quake_units_in_an_enclosed_area_are_eliminated():
    """L720: a Type 1 can create a closed area (of up to 2 hexes); most units
    in enclosed hexes are eliminated. A ring of 6 around a hex encloses it."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR, "2018")
    inside = "2014"
    loop = ring(inside)
    tail = [step(loop[-1], 5), step(loop[-1], 5, 2)]
    p.put("bh_bison_riders#1", inside)
    p.put("bh_bison_riders#2", loop[0])
    p.put("bh_bison_riders#3", step(inside, 1, 3))           # outside the ring
    quake(p, 1)
    lay(p, *loop, *tail)
    assert p.where("bh_bison_riders#1") == "dead"
    assert p.disrupted("bh_bison_riders#2") and p.where("bh_bison_riders#2") == loop[0]
    assert p.where("bh_bison_riders#3") != "dead" and not p.disrupted("bh_bison_riders#3")


def test_rule_dp_quake_enclosed_area_is_cut_off_from_the_board_edge():
    """Interpretations 53 (c): an enclosed area is cut off by the lines from the
    board's edge. An open arc around a hex encloses nothing; a corner the line
    cuts off against the map's edge (3 hexes: more than a Type 1 may enclose)
    is open ground: the line is allowed and the units there are untouched."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR, "2018")
    arc = [step(CENTRE, d) for d in range(1, 6)]
    tail = [step(arc[-1], 4), step(arc[-1], 4, 2), step(arc[-1], 4, 3)]
    p.put("bh_bison_riders#1", CENTRE)
    quake(p, 1)
    lay(p, *arc, *tail)
    assert p.where("bh_bison_riders#1") == CENTRE and not p.disrupted("bh_bison_riders#1")

    p = Position("18.5", moon="full")
    cult_for(p, LUNAR, "0404")
    corner = ["0101", "0201", "0102"]
    line = ["0103", "0202", "0302", "0301", "0401", "0501", "0601", step("0601", 2)]
    assert all(MAP.distance(hexi(a), hexi(b)) == 1 for a, b in zip(line, line[1:]))
    p.put("bh_bison_riders#1", "0101")
    p.put("bh_bison_riders#2", "0102")
    quake(p, 1)
    lay(p, *line)
    assert [p.where(u) for u in ("bh_bison_riders#1", "bh_bison_riders#2")] == corner[::2]
    assert not p.disrupted("bh_bison_riders#1") and not p.disrupted("bh_bison_riders#2")


def test_rule_dp_quake_type_2_cannot_enclose_an_area():
    """L720: a Type 2 quake cannot enclose an area: its lines never touch each
    other, and the mask refuses any hex that would enclose one; after a Type 2
    quake no unit off its lines is eliminated."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR, "2018")
    first = [step(CENTRE, d) for d in range(1, 6)]            # five of the six around 2014
    p.put("bh_bison_riders#1", CENTRE)
    quake(p, 2)
    lay(p, *first)
    # the sixth neighbour would close the ring: it is beside the first line, refused
    assert step(CENTRE, 6) not in fracture_options(p) and CENTRE not in fracture_options(p)
    second = straight(step(CENTRE, 1, 4), 3, 5)
    lay(p, *second)
    assert p.where("bh_bison_riders#1") == CENTRE and not p.disrupted("bh_bison_riders#1")


def test_rule_dp_quake_superheroes_are_unaffected_and_save_three_units():
    """L674, L678, L720 (D&S): Harrek on the line is untouched and saves Gunda
    and two units his owner picks; the last of the stack is disrupted."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    line = straight("2010", 3, 8)
    for u in ("harrek", "gunda", "bh_bison_riders#1", "bh_bison_riders#2", "bh_bison_riders#3"):
        p.put(u, line[4])
    quake(p, 1)
    lay(p, *line)
    assert p.to_play == SARTAR
    choose(p, "protects", "(1)")
    choose(p, "protects", "(2)")
    assert not any(p.disrupted(u) for u in ("harrek", "gunda", "bh_bison_riders#1", "bh_bison_riders#2"))
    assert p.disrupted("bh_bison_riders#3")


def test_rule_dp_quake_disembodied_spirits_are_unaffected():
    """L720 (DS&T): a disembodied spirit in an enclosed hex, or on a line, is
    untouched. (No scenario yet puts one on the map in the Exotic Magic Phase:
    an Independent spirit is handed to the Sartars here.)"""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR, "2018")
    spirit = unit("spirit_of_movement")
    p.s["units_end"] = max(int(p.s["units_end"]), spirit + 1)
    p.s["unit_force"][spirit] = FORCES.index(SARTAR)
    loop = ring(CENTRE)
    p.put("spirit_of_movement", CENTRE)
    p.put("bh_bison_riders#1", CENTRE)
    quake(p, 1)
    lay(p, *loop, step(loop[-1], 5), step(loop[-1], 5, 2))
    assert p.where("spirit_of_movement") == CENTRE and not p.disrupted("spirit_of_movement")
    assert p.where("bh_bison_riders#1") == "dead"


def test_rule_dp_quake_herds_on_a_line_or_enclosed_stampede():
    """L720: "Herds stampede" -- on a fracture line, and in an enclosed hex too, since
    nothing but the Pillar of Fire or a Dragonfight eliminates a herd (L588;
    Interpretations): each runs its 2 hexes in the die's direction (L594) and ends
    neutral and disrupted."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR, "2018")
    inside = "2014"
    loop = ring(inside)
    tail = [step(loop[-1], 5), step(loop[-1], 5, 2)]
    p.s["units_end"] = max(int(p.s["units_end"]), unit("horse_herds#2") + 1)
    for name, where in (("horse_herds#1", loop[0]), ("horse_herds#2", inside)):
        p.put(name, where)
        p.s["unit_force"][unit(name)] = FORCES.index(SARTAR)
    quake(p, 1)
    p.dice(4, 1)                                        # the herds in unit order: the first runs S, the second N
    lay(p, *loop, *tail)
    assert p.where("horse_herds#1") == step(loop[0], 4, 2) and p.disrupted("horse_herds#1")
    assert p.where("horse_herds#2") == step(inside, 1, 2) and p.disrupted("horse_herds#2")
    assert int(p.s["unit_force"][unit("horse_herds#1")]) == int(p.s["unit_force"][unit("horse_herds#2")]) == -1


def test_rule_dp_quake_a_fortress_on_a_line_is_damaged_yet_counts_for_victory():
    """L720: a fortress on a fracture line is badly damaged for the rest of the
    game; it still counts as a fortress for victory (its control and the
    fortresses counted are unchanged)."""
    from dragongym.envs.dragon_pass import observe as O
    from dragongym.envs.dragon_pass.game import GAME
    boldhome = "3727"                                         # a fortress on a mountain
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR, "3725")
    p.control("Boldhome", SARTAR)
    p.put("bh_bison_riders#1", boldhome)
    k = list(R.FORTRESS_HEX).index(hexi(boldhome))
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([FORCES.index(SARTAR)], np.int64), obs)
    owned = obs[0, O.FLAT_OFF + O.F_OWN_FORTRESSES]
    quake(p, 1)
    line = straight(boldhome, 4, 8)
    assert all(MAP.distance(hexi(x), hexi("3725")) <= 10 for x in line)
    lay(p, *line)
    assert p.disrupted("bh_bison_riders#1")
    assert int(p.s["fortress_damaged"][k]) == 1 and int(p.s["fortress_owner"][k]) == FORCES.index(SARTAR)
    GAME.observe(p.S, np.array([FORCES.index(SARTAR)], np.int64), obs)
    assert obs[0, O.FLAT_OFF + O.F_OWN_FORTRESSES] == owned > 0


LANCERS = [f"cc_lancers#{i}" for i in range(1, 5)]          # Lunar 4-2-7
MILITIA = [f"cm_town_militia#{i}" for i in range(1, 7)]     # Sartar 3-3-4
ARCHERS = ["cc_horse_archers#1", "cc_horse_archers#2", "cc_light_horse_archers#1", "cc_light_horse_archers#2"]
JONSTOWN = "3122"                                           # a fortress on open ground


def damaged(p, fortress="Jonstown"):
    """The fortress was badly damaged by an earthquake earlier in the game."""
    from dragongym.envs.dragon_pass.board import FORTRESS_NAMES
    p.s["quake_used"] = 1
    p.s["fortress_damaged"][FORTRESS_NAMES.index(fortress)] = 1


def declare(p, defender, attacker):
    p.act(f"attack the stack at {defender}")
    p.act(f"attack with the stack at {attacker}")
    p.act(f"attack {defender} with the stacks at {attacker}")


def test_rule_dp_quake_a_damaged_fortress_is_no_fortification():
    """L720, L357, L514: three majors in a damaged fortress must attack like any
    stack (an undamaged one need not: combat_test's declaration tests)."""
    p = Position()
    for u in MILITIA[:3]:
        p.put(u, JONSTOWN)
    p.put(LANCERS[0], "3123")
    p.combat(SARTAR)
    assert "fight no more battles" in p.legal()
    damaged(p)
    assert "fight no more battles" not in p.legal()


def test_rule_dp_quake_a_damaged_fortress_is_clear_terrain_for_melee():
    """L720, L348: the units in a damaged fortress absorb their CF once, as on
    clear terrain: after the top militia (3), a loss of 3 left takes the next
    (undamaged, the fortress doubles it to 6 and it stays: combat_test)."""
    p = Position()
    damaged(p)
    for u in MILITIA[:4]:
        p.put(u, JONSTOWN)
    for u in LANCERS[:3]:
        p.put(u, "3123")
    p.combat(LUNAR)
    p.dice(4, 1)                                 # loss 6
    declare(p, JONSTOWN, "3123")
    p.act("the stack at 3123 is arranged")
    p.act(f"the stack at {JONSTOWN} is arranged")
    p.act("no more retreats")
    p.act(f"eliminate {p.name(MILITIA[3])} at {JONSTOWN}")
    assert int(p.s["loss_left"]) == 2 * 3
    assert p.phase == R.PH_CASUALTY and f"eliminate {p.name(MILITIA[2])} at {JONSTOWN}" in p.legal()


def test_rule_dp_quake_a_damaged_fortress_is_clear_terrain_for_missile_fire():
    """L720, L1113: no fortress modifier (-4) against missile fire at a damaged
    fortress: 4 Missile Factors at 6 now hit (at 6 - 4 = 2 they do not:
    combat_test's modifier test)."""
    p = Position("18.2")
    damaged(p)
    for u in ARCHERS:
        p.put(u, "3123")
    p.put(MILITIA[0], JONSTOWN)
    p.put(MILITIA[1], JONSTOWN)
    p.combat(LUNAR)
    p.dice(6, 1)
    declare(p, JONSTOWN, "3123")
    assert p.phase in (R.PH_MISSILE_CHOICE, R.PH_MISSILE_CASUALTY) and p.to_play == SARTAR      # a hit: 2DD


def test_rule_dp_quake_eliminates_the_cult_spirit_and_is_once_per_game():
    """L720: the spirit is eliminated by the quake; one earthquake per game."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    quake(p, 2)
    assert p.where(SPIRIT) == "dead"
    lay(p, *straight("2010", 3, 5), *straight(step("2010", 5, 2), 3, 5))
    assert int(p.s["quake_used"]) == 1
    # even were its spirit back, the cult has used its earthquake
    p.s["unit_where"][unit(SPIRIT)] = UW_HOLDING
    p.s["unit_flags"][unit(CULT)] = 0
    exotic(p, LUNAR, player_turn=3)
    assert not any("Earth Shaker" in t for t in p.legal())


def test_rule_dp_quake_is_unavailable_once_the_cult_spirit_is_eliminated():
    """L720: 'If the cult spirit is eliminated, this power is unavailable.'"""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    p.s["unit_where"][unit(SPIRIT)] = 3                       # dead
    exotic(p, LUNAR)
    assert not any("Earth Shaker" in t for t in p.legal())
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    exotic(p, LUNAR)
    assert any("Earth Shaker" in t for t in p.legal())


def test_rule_dp_quake_a_broken_fracture_line_is_an_unsound_record():
    """The record's invariants (soundness): a line's hexes adjacent one to the next, laid only in a quake."""
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    quake(p, 1)
    lay(p, "2010", step("2010", 3))
    assert GAME.check_state(p.S) == ""
    p.s["fracture_hexes"][2] = hexi("2030")
    assert "adjacent" in GAME.check_state(p.S)
    p.s["fracture_hexes"][2] = -1
    p.s["quake_type"] = 0
    assert "no earthquake" in GAME.check_state(p.S)


def test_the_heuristic_lays_its_earthquake_through_enemy_stacks():
    """The heuristic unleashes the quake when more enemy than own units stand in
    range, and strings its line through their stacks."""
    from dragongym.agents.dragon_pass_heuristic import DragonPassHeuristic
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    line = straight("2010", 3, 8)
    for k, u in ((1, "bh_bison_riders#1"), (3, "bh_bison_riders#2"), (6, "bh_bison_riders#3")):
        p.put(u, line[k])
    exotic(p, LUNAR)
    agent, rng = DragonPassHeuristic(GAME), np.random.default_rng(0)
    while p.to_play == LUNAR and p.phase in (R.PH_EXOTIC, R.PH_EXOTIC_TARGET, R.PH_FRACTURE):
        a = agent.act_state(GAME, p.S, FORCES.index(LUNAR), rng)
        p.act(GAME.action_to_string(p.S, a))
    assert p.where(SPIRIT) == "dead"
    hit = [p.disrupted(f"bh_bison_riders#{k}") for k in (1, 2, 3)]
    assert sum(hit) >= 2, hit


def test_rule_dp_quake_the_observation_shows_the_fracture_hexes_and_the_damaged_fortress():
    """Both seats see the fracture hexes being laid (the board's decision
    plane) and, after the quake, which fortress it damaged."""
    from dragongym.envs.dragon_pass import observe as O
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR, "3725")
    quake(p, 1)
    line = straight("3727", 4, 8)
    lay(p, *line[:2])
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    cell = lambda where: O.BOARD_OFF + int(O.CELL_OF_HEX[hexi(where)]) * O.BOARD_PLANES + O.G_DECISION  # noqa: E731
    for seat in (0, 1):
        GAME.observe(p.S, np.array([seat], np.int64), obs)
        assert obs[0, cell(line[0])] == obs[0, cell(line[1])] == 0.75 and obs[0, cell(line[2])] == 0
        assert obs[0, O.FLAT_OFF + O.F_QUAKE] == 1 and obs[0, O.FLAT_OFF + O.F_QUAKE + 1] == 0.5
    lay(p, *line[2:])
    GAME.observe(p.S, np.array([1], np.int64), obs)
    boldhome = list(R.FORTRESS_HEX).index(hexi("3727"))
    assert obs[0, O.FLAT_OFF + O.F_DAMAGED + boldhome] == 1 and obs[0, cell(line[0])] == 0


def test_rule_dp_quake_no_hex_is_offered_from_which_the_line_cannot_be_completed():
    """The mask offers no dead end: a Type 2's first line around the map's
    corner leaves 0101 in range and clear of it, but every neighbour of 0101 is
    beside the first line, so no second line of 5 can start there."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR, "0404")
    first = ["0103", "0202", "0302", "0301", "0401"]
    quake(p, 2)
    lay(p, *first)
    options = fracture_options(p)
    assert all(MAP.distance(hexi("0101"), hexi(f)) >= 2 for f in first)     # neither on nor beside the line
    assert "0101" not in options
    assert "0505" in options


def test_the_picture_draws_the_fracture_line_and_offers_its_next_hexes():
    """The frame shows the laid fracture hexes (brown, L720) and offers every
    legal next hex as a click; the decision reads in the game's words."""
    import xml.etree.ElementTree as ET
    from dragongym.envs.core.picture import render_svg
    from dragongym.envs.dragon_pass import picture as P
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    quake(p, 1)
    lay(p, *straight("2010", 3, 3))
    svg = render_svg(GAME, p.S, None)
    root = ET.fromstring(svg)
    offered = set()
    for element in root.iter():
        if "data-actions" in element.attrib:
            offered.update(int(a) for a in element.attrib["data-actions"].split())
    assert offered == {int(a) for a in np.flatnonzero(GAME.mask_of(p.S))}
    assert P.QUAKE in svg and "fracture hex" in svg
    image = GAME.render_rgb(p.S, None)
    assert image.ndim == 3


def test_the_observation_marks_the_cult_as_the_unit_the_fracture_decision_is_about():
    from dragongym.envs.dragon_pass import observe as O
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    quake(p, 2)
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([0], np.int64), obs)
    assert obs[0, O.UNITS_OFF + unit(CULT) * O.UNIT_FEATURES + O.U_SELECTED] == 1
    assert obs[0, O.FLAT_OFF + O.F_PHASE + R.PH_FRACTURE] == 1


def test_rule_dp_quake_a_disrupted_cult_reaches_no_fracture_line():
    """L720, L427: the disrupted cult's RF is 0: no line of 5 fits within it
    (Interpretations 53 (d))."""
    p = Position("18.5", moon="full")
    cult_for(p, LUNAR)
    p.s["unit_side"][unit(CULT)] = 1
    exotic(p, LUNAR)
    assert not any("Earth Shaker" in t for t in p.legal())
