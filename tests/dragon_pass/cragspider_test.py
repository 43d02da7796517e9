"""Cragspider and her allies (L760-L770 = L718, L764): once per game, in her
side's Exotic Magic Phase, Cragspider unleashes the Pillar of Fire on a
triangle of 3 hexes, each adjacent to the other two, all within her RF of 7;
it destroys all units there, herds and treasures included (D&S); her spirit
is eliminated by it. Killed, she takes her Black Dragon with her (L768); her
Dark Trolls and Trollkin stay in play (L766). Cragspider comes by alliance
(diplomacy_test.py); here the tests hand her, her spirit and her allies to the
Sartars, in 18.5 where both sides have an Exotic Magic Phase (L271). The
triangle is named hex by hex, as a player would (Interpretations 60)."""
import numpy as np

from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import FORCES, UW_HOLDING
from dragongym.envs.dragon_pass.data import MAP

from .exotic_test import choose, exotic
from .scenario import LUNAR, SARTAR, Position, hexi, unit

CRAGSPIDER, SPIRIT, DRAGON = "cragspider", "cragspider_spirit", "black_dragon"
CENTRE = "2014"                       # open ground, far from the board's edge


def cragspider_for(p, force, where=CENTRE, *allies):
    """Cragspider on the map and her spirit in its holding box, allied to
    ``force``, with ``allies`` of hers (name, hex) on the map too."""
    s = p.s
    s["units_end"] = max(int(s["units_end"]), unit("trollkin#2") + 1)
    p.put(CRAGSPIDER, where)
    for name in (CRAGSPIDER, SPIRIT):
        s["unit_force"][unit(name)] = FORCES.index(force)
    s["unit_where"][unit(SPIRIT)] = UW_HOLDING
    for name, at in allies:
        p.put(name, at)
        s["unit_force"][unit(name)] = FORCES.index(force)


def step(where, d, n=1):
    h = hexi(where)
    for _ in range(n):
        h = int(R.HEX_STEP[h, d])
    return MAP.hex_id(h)


def triangle(where, d=1):
    """``where``, its neighbour in direction d and the next one round it: each adjacent to the other two."""
    return [where, step(where, d), step(where, d % 6 + 1)]


def pillar(p, first, force=SARTAR):
    """Cragspider's controller starts his Exotic Magic Phase and brings the
    Pillar of Fire down on ``first`` first."""
    exotic(p, force)
    choose(p, "Cragspider", "uses its exotic magic")
    choose(p, "Pillar of Fire on", f"{first} ")
    assert p.phase == R.PH_PILLAR


def options(p):
    return sorted(t.rsplit(": ", 1)[1] for t in p.legal())


def name(p, *hexes):
    for where in hexes:
        hits = [t for t in p.legal() if t.endswith(f": {where}")]
        assert len(hits) == 1, (where, p.legal())
        p.act(hits[0])


def first_hexes(p):
    return sorted(t.split(" on ", 1)[1].split(" ", 1)[0] for t in p.legal() if "Pillar of Fire" in t)


def test_rule_dp_pillar_covers_a_triangle_of_three_hexes_each_adjacent_to_the_other_two():
    """L764: 'a triangular 3-hex area such that all 3 hexes are adjacent to the
    other 2': the second hex is any neighbour of the first, the third one of
    the two hexes beside both."""
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR)
    first = "2012"
    pillar(p, first)
    assert options(p) == sorted(step(first, d) for d in range(1, 7))
    name(p, step(first, 1))
    assert options(p) == sorted([step(first, 2), step(first, 6)])
    assert p.phase == R.PH_PILLAR
    name(p, step(first, 2))
    assert p.phase != R.PH_PILLAR and all(int(h) == -1 for h in p.s["pillar_hexes"])


def test_rule_dp_pillar_hexes_lie_within_cragspiders_rf_of_7():
    """L764: 'All 3 hexes must be within Cragspider's RF of 7', counted from her
    counter; any hex in range may be first, with units or without
    (Interpretations 60 a); from a hex 7 away, the hexes beyond are refused."""
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR)
    exotic(p, SARTAR)
    choose(p, "Cragspider", "uses its exotic magic")
    centre = hexi(CENTRE)
    in_range = sorted(MAP.hex_id(h) for h in range(len(MAP.ids)) if MAP.distance(h, centre) <= 7)
    assert first_hexes(p) == in_range and step(CENTRE, 1, 8) not in first_hexes(p)
    edge = step(CENTRE, 1, 7)
    choose(p, "Pillar of Fire on", f"{edge} ")
    assert all(MAP.distance(hexi(o), centre) <= 7 for o in options(p))
    assert step(edge, 1) not in options(p) and step(edge, 4) in options(p)


def test_rule_dp_pillar_destroys_every_unit_in_its_three_hexes():
    """L764: the Pillar destroys all units in the 3 hexes, of either side,
    disrupted or not; herds are eliminated, not stampeded (L588 names the
    Pillar); a disembodied spirit too (the Pillar names D&S, not DS&T:
    Interpretations 60 c). Units outside it are untouched."""
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR, CENTRE, ("dark_trolls#1", step(CENTRE, 4, 3)))
    hexes = triangle("2012")
    p.s["units_end"] = max(int(p.s["units_end"]), unit("horse_herds#1") + 1, unit("spirit_of_movement") + 1)
    p.put("cc_lancers#1", hexes[0])
    p.put("cc_lancers#2", hexes[1], disrupted=True)
    p.put("bh_bison_riders#1", hexes[2])
    p.put("horse_herds#1", hexes[2])
    p.s["unit_force"][unit("horse_herds#1")] = FORCES.index(SARTAR)
    p.put("spirit_of_movement", hexes[0])
    p.s["unit_force"][unit("spirit_of_movement")] = FORCES.index(LUNAR)
    p.put("cc_lancers#3", step(hexes[0], 4))                 # beside the triangle, outside it
    pillar(p, hexes[0])
    name(p, *hexes[1:])
    for u in ("cc_lancers#1", "cc_lancers#2", "bh_bison_riders#1", "horse_herds#1", "spirit_of_movement"):
        assert p.where(u) == "dead", u
    assert p.where("cc_lancers#3") == step(hexes[0], 4) and not p.disrupted("cc_lancers#3")
    assert p.where("dark_trolls#1") == step(CENTRE, 4, 3)


def test_rule_dp_pillar_superheroes_are_unaffected_and_save_three_units():
    """L764 (D&S), L674, L678: Harrek in the triangle is untouched and saves
    Gunda and two units his owner picks; the last of the stack is destroyed."""
    p = Position("18.5", moon="full")
    cragspider_for(p, LUNAR)
    hexes = triangle("2012")
    for u in ("harrek", "gunda", "bh_bison_riders#1", "bh_bison_riders#2", "bh_bison_riders#3"):
        p.put(u, hexes[1])
    pillar(p, hexes[0], LUNAR)
    name(p, *hexes[1:])
    assert p.to_play == SARTAR
    choose(p, "protects", "(1)")
    choose(p, "protects", "(2)")
    assert all(p.where(u) == hexes[1] for u in ("harrek", "gunda", "bh_bison_riders#1", "bh_bison_riders#2"))
    assert p.where("bh_bison_riders#3") == "dead"


def test_rule_dp_pillar_eliminates_her_spirit_and_is_once_per_game():
    """L764: 'Cragspider's spirit is eliminated when the Pillar is used'; once per game."""
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR)
    pillar(p, "2012")
    assert p.where(SPIRIT) == "dead" and int(p.s["pillar_used"]) == 1
    name(p, *triangle("2012")[1:])
    # even were her spirit back, she has used her Pillar
    p.s["unit_where"][unit(SPIRIT)] = UW_HOLDING
    p.s["unit_flags"][unit(CRAGSPIDER)] = 0
    exotic(p, SARTAR, player_turn=4)
    assert p.phase != R.PH_EXOTIC and not any("Pillar" in t or "exotic magic" in t for t in p.legal())


def test_rule_dp_pillar_is_unavailable_once_her_spirit_is_eliminated():
    """L764: 'If her spirit was already eliminated, then the Pillar cannot be used.'"""
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR)
    p.s["unit_where"][unit(SPIRIT)] = 3                       # dead
    exotic(p, SARTAR)
    assert p.phase != R.PH_EXOTIC and not any("exotic magic" in t for t in p.legal())
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR)
    exotic(p, SARTAR)
    assert any("Cragspider" in t for t in p.legal())


def test_rule_dp_pillar_destroys_her_own_units_and_herself():
    """Interpretations 60 b: 'all units' are of both sides -- her Dark Trolls
    in the triangle are destroyed, and Cragspider in it is eliminated too and,
    a hero, rolls her heroic escape (L642; with no battle to fight, the rally
    phase follows at once)."""
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR, CENTRE, ("dark_trolls#1", CENTRE), ("trollkin#1", "3905"))
    pillar(p, CENTRE)
    p.dice(6, 6, 6)                                          # her heroic escape succeeds
    name(p, *triangle(CENTRE)[1:])
    assert p.where("dark_trolls#1") == "dead"
    assert p.where(CRAGSPIDER) == "escaping" and p.phase == R.PH_ESCAPE_HEX


def test_rule_dp_cragspider_killed_takes_her_black_dragon_with_her():
    """L768: 'If Cragspider is killed, the Black Dragon is also eliminated' --
    killed: eliminated and no heroic escape (a failed roll, L642). Her Dark
    Trolls and Trollkin stay in play (L766)."""
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR, CENTRE, (DRAGON, "3904"), ("dark_trolls#2", "3905"), ("trollkin#1", "3905"))
    pillar(p, CENTRE)
    p.dice(1, 1, 1)                                          # her heroic escape fails
    name(p, *triangle(CENTRE)[1:])
    assert p.where(CRAGSPIDER) == "dead"
    assert p.where(DRAGON) == "dead"
    assert p.where("dark_trolls#2") == p.where("trollkin#1") == "3905"


def test_rule_dp_cragspider_escaping_keeps_her_black_dragon():
    """L768: only her death takes the Black Dragon: a heroic escape (L642) leaves it in play."""
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR, CENTRE, (DRAGON, "3904"), ("dark_trolls#2", "3905"))
    pillar(p, CENTRE)
    p.dice(6, 6, 6)
    name(p, *triangle(CENTRE)[1:])
    assert p.where(CRAGSPIDER) == "escaping" and p.where(DRAGON) == "3904"
    choose(p, "rejoins the stack at 3905")
    assert p.where(CRAGSPIDER) == "3905" and p.where(DRAGON) == "3904"


def test_rule_dp_cragspider_killed_leaves_a_black_dragon_out_of_play_out():
    """Interpretations 60 d: a Black Dragon not yet in play (Cragspider never
    allied) stays out of the game when she is killed."""
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR, CENTRE, ("dark_trolls#2", "3905"))
    assert p.where(DRAGON) == "out"
    pillar(p, CENTRE)
    p.dice(1, 1, 1)
    name(p, *triangle(CENTRE)[1:])
    assert p.where(CRAGSPIDER) == "dead" and p.where(DRAGON) == "out"


def test_rule_dp_cragspider_devoured_by_the_bat_takes_her_black_dragon_with_her():
    """L768, L698, Interpretations 60 d: allied to the Lunars, Cragspider devoured
    by the Crimson Bat is killed outright (no heroic escape): her Black Dragon
    is eliminated with her."""
    p = Position("18.5", moon="black")
    cragspider_for(p, LUNAR, "2012", (DRAGON, "3904"))
    p.put("crimson_bat", "2011")
    exotic(p, LUNAR)
    choose(p, "Crimson Bat", "uses its exotic magic")
    choose(p, "devours", "Cragspider")
    assert p.where(CRAGSPIDER) == "dead" and p.where(DRAGON) == "dead"


def test_rule_dp_pillar_a_broken_triangle_is_an_unsound_record():
    """The record's invariants (soundness): the Pillar's hexes each adjacent to
    the others, named only while it is unleashed; her Black Dragon not in play once she is dead."""
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR)
    pillar(p, "2012")
    assert GAME.check_state(p.S) == ""
    p.s["pillar_hexes"][1] = hexi("2030")
    assert "adjacent" in GAME.check_state(p.S)
    p.s["pillar_hexes"][1] = -1
    p.s["pillar_used"] = 0
    assert "not used" in GAME.check_state(p.S)
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR, CENTRE, (DRAGON, "3904"))
    p.s["unit_where"][unit(CRAGSPIDER)] = 3
    p.s["unit_hex"][unit(CRAGSPIDER)] = -1
    assert "Black Dragon" in GAME.check_state(p.S)


def test_rule_dp_pillar_the_observation_shows_its_hexes_and_that_it_is_used():
    """Both seats see the Pillar's hexes as they are named (the board's
    decision plane) and, from then on, that it is used (F_PILLAR)."""
    from dragongym.envs.dragon_pass import observe as O
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR)
    hexes = triangle("2012")
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([0], np.int64), obs)
    assert obs[0, O.FLAT_OFF + O.F_PILLAR] == 0
    pillar(p, hexes[0])
    name(p, hexes[1])
    cell = lambda where: O.BOARD_OFF + int(O.CELL_OF_HEX[hexi(where)]) * O.BOARD_PLANES + O.G_DECISION  # noqa: E731
    for seat in (0, 1):
        GAME.observe(p.S, np.array([seat], np.int64), obs)
        assert obs[0, cell(hexes[0])] == obs[0, cell(hexes[1])] == 0.75 and obs[0, cell(hexes[2])] == 0
        assert obs[0, O.FLAT_OFF + O.F_PILLAR] == 1
    name(p, hexes[2])
    GAME.observe(p.S, np.array([1], np.int64), obs)
    assert obs[0, O.FLAT_OFF + O.F_PILLAR] == 1 and obs[0, cell(hexes[0])] == 0


def test_the_picture_draws_the_pillars_hexes_and_offers_its_next_hexes():
    """The frame shows the Pillar's hexes named so far and offers every legal
    next hex as a click; the decision reads in the game's words."""
    import xml.etree.ElementTree as ET
    from dragongym.envs.core.picture import render_svg
    from dragongym.envs.dragon_pass import picture as P
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR)
    pillar(p, "2012")
    svg = render_svg(GAME, p.S, None)
    offered = set()
    for element in ET.fromstring(svg).iter():
        if "data-actions" in element.attrib:
            offered.update(int(a) for a in element.attrib["data-actions"].split())
    assert offered == {int(a) for a in np.flatnonzero(GAME.mask_of(p.S))}
    assert P.PILLAR in svg and "Pillar of Fire" in svg


def test_the_heuristic_brings_the_pillar_down_on_the_enemys_strongest_triangle():
    """The heuristic unleashes the Pillar when a triangle in range holds enough
    enemy CF, and names the triangle with the most enemy CF, sparing its own
    units; with no target worth it, it keeps the Pillar."""
    from dragongym.agents.dragon_pass_heuristic import DragonPassHeuristic
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR, CENTRE, ("dark_trolls#1", step("2012", 2)))
    # the lancers stand in 2012 and its neighbours in directions 1 and 6, the trolls in direction 2:
    # the best triangle is 2012, dir 6, dir 1 -- every lancer and no troll
    target = triangle("2012")
    for u, where in (("cc_lancers#1", target[0]), ("cc_lancers#2", target[1]), ("cc_lancers#3", target[1]),
                     ("cc_lancers#4", step("2012", 6))):
        p.put(u, where)
    exotic(p, SARTAR)
    agent, rng = DragonPassHeuristic(GAME), np.random.default_rng(0)
    while p.to_play == SARTAR and p.phase in (R.PH_EXOTIC, R.PH_EXOTIC_TARGET, R.PH_PILLAR):
        a = agent.act_state(GAME, p.S, FORCES.index(SARTAR), rng)
        p.act(GAME.action_to_string(p.S, a))
    assert p.where(SPIRIT) == "dead"
    assert [p.where(f"cc_lancers#{k}") for k in (1, 2, 3, 4)] == ["dead", "dead", "dead", "dead"]
    assert p.where("dark_trolls#1") == step("2012", 2)

    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR)
    p.put("cc_lancers#1", "2012")
    exotic(p, SARTAR)
    a = DragonPassHeuristic(GAME).act_state(GAME, p.S, FORCES.index(SARTAR), np.random.default_rng(0))
    assert "Cragspider" not in GAME.action_to_string(p.S, a)
