"""The movement phase (L437-L475) and the Q&A rulings on it (L1008, L1036, L1040).

Positions are built by hand (``tests/dragon_pass/scenario.py``) at the start
of a movement phase; a move is: select a stack, pick the units that go,
step hex by hex. Costs are read off the points a unit has left (``mp``).
"""
import pytest

from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.board import FORTRESS_NAMES
from dragongym.envs.dragon_pass.constants import ENTRY_SARTAR_SOUTH
from tests.dragon_pass.scenario import INDEPENDENTS, LUNAR, SARTAR, Position, hexi, unit

JONSTOWN = FORTRESS_NAMES.index("Jonstown")

LANCER = "cc_lancers#1"          # 4-2-7, cavalry
LANCER2 = "cc_lancers#2"
WARRIORS = "nf_tarsh_warriors#1"  # 4-3-4
FREE = "fa_free_warriors#1"       # Sartar 4-5-5
FREE2 = "fa_free_warriors#2"
MILITIA = "cm_town_militia#1"     # Sartar 3-3-4
DUCKS = "cm_duck_militia#1"       # Sartar 2*-3-4 Water Rune (18.2)


def moving(p, unit, start):
    """Select the stack at ``start`` and put ``unit`` in the group."""
    return p.acts(f"select the stack at {start}", f"move {p.name(unit)} with the group")


def step(p, unit, frm, to):
    return p.act(f"move {p.name(unit)} from {frm} to {to}")


def test_rule_dp_move_primary_road_costs_half_a_point_along_the_road():
    p = Position()
    p.put(LANCER, "0404")                   # Furthest, on the primary road to 0504 and 0603
    p.movement(LUNAR)
    moving(p, LANCER, "0404")
    step(p, LANCER, "0404", "0504")
    step(p, LANCER, "0504", "0603")
    assert p.mp(LANCER) == 6.0              # MF 7, two road hexes at 1/2 each (L363)


def test_rule_dp_move_secondary_road_every_third_hex_is_free():
    p = Position()
    p.put(LANCER, "0610")
    p.movement(LUNAR)
    moving(p, LANCER, "0610")
    for a, b in (("0610", "0710"), ("0710", "0709"), ("0709", "0708")):
        step(p, LANCER, a, b)
    assert p.mp(LANCER) == 5.0              # 1 + 1 + 0 (L364)
    step(p, LANCER, "0708", "0707")
    assert p.mp(LANCER) == 4.0              # the row starts again


def test_rule_dp_move_no_road_from_1813_into_1914():
    """L160: "The secondary road in hex 1813 does not cross into hex 1914": the
    step is off every road and pays 1914's open ground."""
    p = Position()
    p.put(LANCER, "1813")
    p.movement(LUNAR)
    moving(p, LANCER, "1813")
    step(p, LANCER, "1813", "1914")
    assert p.mp(LANCER) == 6.0              # MF 7, open ground 1 (L336), no road's 1/2


def test_rule_dp_move_the_secondary_road_merges_with_the_primary_road_in_1813():
    """L160: "It merges with the primary road in hex 1813": a unit along the
    secondary road goes on along the primary road from 1813."""
    p = Position()
    p.put(LANCER, "2011")                   # on the secondary road from Too Far
    p.movement(LUNAR)
    moving(p, LANCER, "2011")
    for a, b in (("2011", "1912"), ("1912", "1812"), ("1812", "1813")):
        step(p, LANCER, a, b)
    assert p.mp(LANCER) == 5.0              # 1 + 1 + the third hex free (L364)
    step(p, LANCER, "1813", "1913")
    step(p, LANCER, "1913", "2013")
    assert p.mp(LANCER) == 4.0              # on along the primary road at 1/2 a hex (L363)


def test_rule_dp_move_leaving_a_river_costs_one_more_point_and_moving_along_it_none():
    p = Position()
    p.put(LANCER, "0107")                   # a river hex (not a ford)
    p.put(LANCER2, "0107")
    p.movement(LUNAR)
    moving(p, LANCER, "0107")
    step(p, LANCER, "0107", "0106")
    assert p.mp(LANCER) == 5.0              # open ground 1 + leaving the river 1 (L370, L468)
    p.act("stop at 0106")
    moving(p, LANCER2, "0107")
    step(p, LANCER2, "0107", "0207")        # along the river
    assert p.mp(LANCER2) == 6.0


def test_rule_dp_move_a_ford_ignores_the_river():
    p = Position()
    p.put(LANCER, "0613")                   # a ford hex
    p.movement(LUNAR)
    moving(p, LANCER, "0613")
    step(p, LANCER, "0613", "0614")
    assert p.mp(LANCER) == 6.0              # L371


def test_rule_dp_move_the_water_rune_leaves_a_river_for_nothing_and_crosses_marsh_for_one():
    p = Position("18.2")
    p.put(DUCKS, "0107")
    p.put(MILITIA, "2219")
    p.put("cm_duck_militia#2", "2219")
    p.movement(SARTAR)
    moving(p, DUCKS, "0107")
    step(p, DUCKS, "0107", "0106")
    assert p.mp(DUCKS) == 3.0               # no river cost with the Water Rune (L370, L421)
    p.act("stop at 0106")
    p.acts("select the stack at 2219", f"move {p.name(MILITIA)} with the group",
           f"move {p.name('cm_duck_militia#2')} with the group")
    step_all = f"move 2 units ({p.name('cm_duck_militia#2')}, {p.name(MILITIA)}) from 2219 to 2220"
    if step_all not in p.legal():
        step_all = f"move 2 units ({p.name(MILITIA)}, {p.name('cm_duck_militia#2')}) from 2219 to 2220"
    p.act(step_all)
    assert p.mp(MILITIA) == 2.0             # marsh 2 MP
    assert p.mp("cm_duck_militia#2") == 3.0  # 1 MP with the Water Rune (L339)


def test_rule_dp_move_climbing_a_ridge_costs_one_more_point_coming_down_none():
    p = Position()
    p.put(LANCER, "0414")
    p.put(LANCER2, "0314")
    p.movement(LUNAR)
    moving(p, LANCER, "0414")
    step(p, LANCER, "0414", "0314")         # up to the hill
    assert p.mp(LANCER) == 5.0              # hill 1 + ridge 1 (L374)
    p.act("stop at 0314")
    moving(p, LANCER2, "0314")
    step(p, LANCER2, "0314", "0414")
    assert p.mp(LANCER2) == 6.0             # down: open 1 (L375)


@pytest.mark.parametrize("hexes,cost", [(("3802", "3703"), 3), (("2219", "2220"), 2), (("0108", "0109"), 2),
                                        (("0330", "0329"), 2), (("0215", "0214"), 1)])
def test_rule_dp_move_terrain_costs(hexes, cost):
    """Mountain 3, marsh 2, forest 2, hill/forest 2, hill 1 (L335-L341)."""
    p = Position()
    a, b = hexes
    p.put(LANCER, a)
    p.movement(LUNAR)
    moving(p, LANCER, a)
    step(p, LANCER, a, b)
    assert p.mp(LANCER) == 7 - cost


def test_rule_dp_move_a_structure_costs_its_own_points_in_place_of_the_terrain():
    """L352, L355 (Interpretations 4): a stockade or a temple costs 1 MP to
    enter, whatever the ground under it; leaving it pays the next hex's terrain."""
    p = Position()
    p.put(LANCER, "1920")                   # mountain
    p.put(LANCER2, "2801")                  # forest
    p.movement(LUNAR)
    moving(p, LANCER, "1920")
    step(p, LANCER, "1920", "1921")         # the stockade on a mountain: 1 MP, not 3
    assert p.mp(LANCER) == 6.0
    step(p, LANCER, "1921", "1922")         # off it, on to the bare mountain: 3 MP (L341)
    assert p.mp(LANCER) == 3.0
    p.act("stop at 1922")
    moving(p, LANCER2, "2801")
    step(p, LANCER2, "2801", "2802")        # the temple in a forest: 1 MP, not 2
    assert p.mp(LANCER2) == 6.0


def test_rule_dp_move_headwaters_ignore_the_river():
    """L371: leaving a headwaters hex costs no extra point, though leaving a
    river hex below it does (L370)."""
    p = Position()
    p.put(LANCER, "0905")                   # the headwaters of Jaldon's Wrong River
    p.put(LANCER2, "0805")                  # the river hex next to it
    p.movement(LUNAR)
    moving(p, LANCER, "0905")
    step(p, LANCER, "0905", "0904")         # open ground 1, nothing for the river
    assert p.mp(LANCER) == 6.0
    p.act("stop at 0904")
    moving(p, LANCER2, "0805")
    step(p, LANCER2, "0805", "0804")        # open ground 1 + leaving the river 1
    assert p.mp(LANCER2) == 5.0


def test_rule_dp_move_heroic_movement_pays_one_point_a_hex():
    p = Position("18.3")
    p.put("argrath", "3802")
    p.movement(SARTAR)
    moving(p, "argrath", "3802")
    step(p, "argrath", "3802", "3703")      # a mountain: 1 MP, not 3 (L417)
    assert p.mp("argrath") == 5.0


def test_rule_dp_move_heroic_movement_pays_one_point_with_the_river_and_ridge_extras():
    """L417 (Interpretations 6): the 1 MP of a heroic MF covers the whole step:
    leaving a river (1 + 1) and climbing a ridge to a hill (1 + 1) cost 1 each."""
    p = Position("18.3")
    p.put("argrath", "0107")                # a river hex, not a ford
    p.put("gunda", "0414")
    p.movement(SARTAR)
    moving(p, "argrath", "0107")
    step(p, "argrath", "0107", "0106")
    assert p.mp("argrath") == 5.0
    p.act("stop at 0106")
    moving(p, "gunda", "0414")
    step(p, "gunda", "0414", "0314")        # up the ridge
    assert p.mp("gunda") == 5.0


def test_rule_dp_move_a_road_still_pays_the_river_and_ridge_extras():
    """L370, L374, L377 (Interpretations 5): a road replaces the hex's cost only.
    Leaving the river at 0707 along the secondary road costs 1 + 1; the third
    hex of a row on the secondary road is free (L364), but climbing the ridge
    into it still costs 1."""
    p = Position()
    p.put(LANCER, "0707")
    p.put(LANCER2, "3319")
    p.movement(LUNAR)
    moving(p, LANCER, "0707")
    step(p, LANCER, "0707", "0708")
    assert p.mp(LANCER) == 5.0
    p.act("stop at 0708")
    moving(p, LANCER2, "3319")
    step(p, LANCER2, "3319", "3419")
    step(p, LANCER2, "3419", "3420")
    assert p.mp(LANCER2) == 5.0             # 1 + 1 along the road
    step(p, LANCER2, "3420", "3521")        # the third hex: 0, + the ridge 1
    assert p.mp(LANCER2) == 4.0


def test_rule_dp_move_rain_adds_a_point_except_along_roads():
    p = Position()
    p.put(LANCER, "0404")
    p.put(LANCER2, "0108")
    p.s["rain"] = 1
    p.movement(LUNAR)
    moving(p, LANCER, "0404")
    step(p, LANCER, "0404", "0504")         # primary road: still 1/2 (L373, L466)
    assert p.mp(LANCER) == 6.5
    p.act("stop at 0504")
    moving(p, LANCER2, "0108")
    step(p, LANCER2, "0108", "0109")        # forest 2 + rain 1
    assert p.mp(LANCER2) == 4.0


def test_rule_dp_move_lakes_are_entered_only_with_the_water_rune_and_never_left_as_a_stop():
    p = Position("18.2")
    p.put(DUCKS, "3510")
    p.put(MILITIA, "3510")
    p.movement(SARTAR)
    p.act("select the stack at 3510")
    p.act(f"move {p.name(MILITIA)} with the group")
    assert not any("to 3511" in a for a in p.legal())       # 3511 is a lake (L372)
    p.act("stop at 3510")
    moving(p, DUCKS, "3510")
    step(p, DUCKS, "3510", "3511")
    assert "stop at 3511" not in p.legal()                  # no unit ends a turn on a lake
    assert any(a.startswith(f"move {p.name(DUCKS)} from 3511") for a in p.legal())


def test_rule_dp_move_entering_an_enemy_zoc_stops_the_move():
    p = Position()
    p.put(LANCER, "0404")
    p.put(FREE, "0604")                     # beside 0504
    p.movement(LUNAR)
    moving(p, LANCER, "0404")
    step(p, LANCER, "0404", "0504")         # beside 0604: stopped there (L456, L460)
    assert p.phase == R.PH_MOVE
    assert p.where(LANCER) == "0504"
    assert "select the stack at 0504" not in p.legal()      # its move is over


def test_rule_dp_move_no_unit_enters_a_hex_of_the_other_player():
    p = Position()
    p.put(LANCER, "0404")
    p.put(MILITIA, "0504")
    p.movement(LUNAR)
    moving(p, LANCER, "0404")
    assert not any("to 0504" in a for a in p.legal())       # one owner per hex (L448)


def test_rule_dp_move_qa_a_unit_beginning_in_a_zoc_may_leave_but_not_straight_into_another():
    """L460, and Q&A L1036: not even when another unit exerts the second ZOC."""
    p = Position()
    p.put(LANCER, "0504")
    p.put(FREE, "0604")                     # 0504 is in its ZOC
    p.put(FREE2, "0402")                    # another ZOC beside 0403
    p.movement(LUNAR)
    moving(p, LANCER, "0504")
    legal = p.legal()
    assert f"move {p.name(LANCER)} from 0504 to 0404" in legal        # out of every ZOC
    assert f"move {p.name(LANCER)} from 0504 to 0603" not in legal    # 0603 is beside 0604 too
    assert f"move {p.name(LANCER)} from 0504 to 0403" not in legal    # 0403 is in 0402's ZOC


def test_rule_dp_move_a_stack_topped_by_a_parenthesised_cf_exerts_no_zoc():
    p = Position("18.3")
    p.put(FREE, "0604")
    p.put("argrath", "0604")                # (4!!) on top: no ZOC (L460)
    p.put(LANCER, "0404")
    p.movement(LUNAR)
    moving(p, LANCER, "0404")
    step(p, LANCER, "0404", "0504")
    assert p.phase == R.PH_MOVE_GROUP       # not stopped
    step(p, LANCER, "0504", "0505")


def test_rule_dp_move_a_group_moves_together_and_each_pays_its_own_cost():
    p = Position()
    p.put(WARRIORS, "0404")                 # MF 4
    p.put(LANCER, "0404")                   # MF 7
    p.movement(LUNAR)
    p.acts("select the stack at 0404", f"move {p.name(LANCER)} with the group",
           f"move {p.name(WARRIORS)} with the group")
    move = [a for a in p.legal() if a.endswith("from 0404 to 0504")]
    p.act(move[0])
    assert p.stack("0504") == [LANCER, WARRIORS] or p.stack("0504") == [WARRIORS, LANCER]
    assert p.mp(WARRIORS) == 3.5 and p.mp(LANCER) == 6.5


def test_rule_dp_move_stacks_are_rearranged_in_the_movement_phase():
    p = Position()
    p.put(WARRIORS, "0404")
    p.put(LANCER, "0404")                   # on top
    p.movement(LUNAR)
    p.acts("select the stack at 0404", "arrange the stack at 0404", f"put {p.name(WARRIORS)} on top at 0404",
           "the stack at 0404 is arranged")
    assert p.stack("0404") == [WARRIORS, LANCER]          # L450
    assert "leave the stack at 0404" in p.legal()


def test_rule_dp_move_a_disrupted_unit_must_end_away_from_the_enemy_if_it_can():
    p = Position()
    p.put(WARRIORS, "0504", disrupted=True)   # 2-2-2 disrupted, beside the enemy at 0604
    p.put(FREE, "0604")
    p.movement(LUNAR)
    assert "end the movement phase" not in p.legal()       # L458, L590
    moving(p, WARRIORS, "0504")
    assert "stop at 0504" not in p.legal()
    step(p, WARRIORS, "0504", "0404")
    assert "stop at 0404" in p.legal()


def test_rule_dp_move_a_disrupted_unit_that_must_flee_moves_as_a_group_of_its_own():
    """Interpretations 14 (L458, L590): the obligation to get away is the disrupted
    unit's own, so it makes up a group alone, and a unit that need not flee moves
    without it."""
    def position():
        p = Position()
        p.put(WARRIORS, "0504", disrupted=True)   # beside the enemy at 0604: must flee
        p.put(LANCER2, "0504")
        p.put(FREE, "0604")
        p.movement(LUNAR)
        p.act("select the stack at 0504")
        return p
    p = position()
    moving_warriors = f"move {p.name(WARRIORS)} with the group"
    moving_lancers = f"move {p.name(LANCER2)} with the group"
    assert {moving_warriors, moving_lancers} <= set(p.legal())
    p.act(moving_warriors)
    assert moving_lancers not in p.legal() and "stop at 0504" not in p.legal()
    p = position()
    p.act(moving_lancers)
    assert moving_warriors not in p.legal() and "stop at 0504" in p.legal()


def test_rule_dp_move_a_disrupted_unit_that_cannot_get_away_may_stay():
    p = Position()
    p.put(WARRIORS, "0504", disrupted=True)
    for k, h in enumerate(("0604", "0404", "0402")):   # every neighbour is an enemy's or in a ZOC
        p.put(f"fa_free_warriors#{k + 1}", h)
    p.movement(LUNAR)
    assert "end the movement phase" in p.legal()


def test_qa_dp_flying_and_every_unit_stop_on_entering_a_zoc():
    """Q&A L1008, L1040: ZOCs stop flying units too -- no unit of 18.1-18.3 is
    exempt: the check names no unit type."""
    p = Position()
    p.put("cc_heavy_lancers#1", "0404")
    p.put(FREE, "0604")
    p.movement(LUNAR)
    moving(p, "cc_heavy_lancers#1", "0404")
    step(p, "cc_heavy_lancers#1", "0404", "0504")
    assert p.phase == R.PH_MOVE


def test_rule_dp_move_a_unit_entering_a_fortress_takes_control_of_it():
    p = Position()
    p.put(LANCER, "3123")
    p.movement(LUNAR)
    assert int(p.s["fortress_owner"][JONSTOWN]) == 1
    moving(p, LANCER, "3123")
    step(p, LANCER, "3123", "3122")               # Jonstown, empty (Interpretations: control on entering)
    assert int(p.s["fortress_owner"][JONSTOWN]) == 0


def test_rule_dp_terrain_a_dinosaur_symbol_has_no_effect_on_movement():
    """L344: "Dragonrest / Dinosaur / Giant Symbol: no effect on movement or
    combat": stepping from 2911 onto the dinosaur symbol at 3011 (open ground)
    costs what a step onto the open ground at 2912 costs, 1 MP; no ZOC or stop."""
    from dragongym.envs.dragon_pass.data import MAP
    assert MAP.hex_index("3011") in MAP.dinosaur_symbols and MAP.hex_index("2912") not in MAP.dinosaur_symbols
    assert R.HEX_TERRAIN[hexi("3011")] == R.HEX_TERRAIN[hexi("2912")]
    spent = {}
    for to in ("3011", "2912"):
        p = Position()
        p.put(LANCER, "2911")
        p.movement(LUNAR)
        moving(p, LANCER, "2911")
        step(p, LANCER, "2911", to)
        spent[to] = 7 - p.mp(LANCER)
        assert p.phase == R.PH_MOVE_GROUP                 # it may go on
    assert spent == {"3011": 1.0, "2912": 1.0}


# ---------------------------------------------------------------- reinforcements and replacements (L474)
def test_rule_dp_move_reinforcements_enter_from_their_edge_paying_the_hexs_cost():
    p = Position()
    p.entering(FREE, ENTRY_SARTAR_SOUTH)          # the south edge east of Stone Cross (L297, L972)
    p.movement(SARTAR)
    p.act(f"bring {p.name(FREE)} onto the board")
    hexes = {a.rsplit(" ", 1)[1] for a in p.legal()}
    assert "1934" in hexes and "4534" in hexes and "1834" not in hexes   # Stone Cross inclusive, east of it
    p.act(f"{p.name(FREE)} enters at 2334")       # 2 MP there
    p.act(f"{p.name(FREE)} enters at its MF")
    assert p.where(FREE) == "2334" and p.mp(FREE) == 3.0
    assert p.phase == R.PH_MOVE_GROUP              # it moves on from there


def test_rule_dp_move_force_march_makes_the_first_three_points_free():
    p = Position()
    p.entering(FREE, ENTRY_SARTAR_SOUTH)
    p.movement(SARTAR)
    p.acts(f"bring {p.name(FREE)} onto the board", f"{p.name(FREE)} enters at 2334",
           f"{p.name(FREE)} force marches on")
    assert p.mp(FREE) == 6.0                       # 5 + 3 free - 2 (L474)


def test_rule_dp_move_reinforcements_may_wait_and_are_blocked_by_enemy_units():
    p = Position()
    p.entering(FREE, ENTRY_SARTAR_SOUTH)
    p.put(LANCER, "2334")
    p.movement(SARTAR)
    assert "end the movement phase" in p.legal()   # he may delay them as long as he wants
    p.act(f"bring {p.name(FREE)} onto the board")
    assert f"{p.name(FREE)} enters at 2334" not in p.legal()     # an inactive unit holds it
    p.act(f"{p.name(FREE)} enters at 2434")        # beside the lancer: its ZOC stops it (L460)
    p.act(f"{p.name(FREE)} enters at its MF")
    assert p.where(FREE) == "2434" and p.phase == R.PH_MOVE


def test_rule_dp_move_a_unit_enters_a_lake_only_if_it_can_get_off_it():
    """L372: 'no unit can ever end a turn in a Lake / Sea hex': the Ducks (Water Rune)
    step onto the lake at 3512 only with the MP to reach land again (Interpretations 42)."""
    from tests.dragon_pass.scenario import unit
    for mp2, allowed in ((2, False), (4, True)):
        p = Position("18.2")
        p.put(DUCKS, "3612")
        p.movement(SARTAR, player_turn=2)
        p.s["unit_mp"][unit(DUCKS)] = mp2                   # 1 MP left: the lake, and nothing more
        moving(p, DUCKS, "3612")
        assert any(t.endswith("to 3512") for t in p.legal()) == allowed


# ---------------------------------------------------------------- Ironhoof's freeze (L782-L786)
def ironhoof_for(p, force, hex_id="2424"):
    """Ironhoof on the map, allied to ``force`` (the position hands him over
    directly; his alliance: diplomacy_test.py)."""
    from dragongym.envs.dragon_pass.constants import FORCES
    p.put("ironhoof", hex_id)
    p.s["unit_force"][unit("ironhoof")] = FORCES.index(force)


def to_next_player_turn(p):
    """Play the active player's turn out, taking the last legal action each time."""
    active = p.to_play
    while p.to_play == active:
        p.act(p.legal()[-1])


def test_rule_dp_ironhoof_freezes_every_cavalry_unit_for_the_game_turn():
    """L782, L786: announced at the start of his controller's player-turn; no
    cavalry unit of either side moves in that game-turn; the rest move."""
    p = Position("18.5")
    ironhoof_for(p, LUNAR)
    p.put("cc_lancers#1", "1010")                 # Lunar cavalry
    p.put("nf_furthest_phalanx#1", "1012")        # Lunar infantry
    p.put("bh_shamans#1", "3030")                 # Sartar cavalry (L786)
    p.put("smu_storm_priests#1", "3230")          # Sartar, not cavalry
    p.movement(SARTAR, player_turn=2)             # the end of game-turn 1
    to_next_player_turn(p)
    assert p.to_play == LUNAR and sorted(p.legal()) == ["Ironhoof freezes every cavalry unit this game-turn",
                                                        "the cavalry moves this game-turn"]
    p.act("Ironhoof freezes every cavalry unit this game-turn")
    assert int(p.s["freeze_turn"]) == int(p.s["turn"]) == 2
    assert "select the stack at 1010" not in p.legal() and "select the stack at 1012" in p.legal()
    to_next_player_turn(p)
    assert p.to_play == SARTAR and p.phase == R.PH_MOVE
    assert "select the stack at 3030" not in p.legal() and "select the stack at 3230" in p.legal()
    to_next_player_turn(p)                        # game-turn 3: the cavalry moves again
    assert p.to_play == LUNAR and "select the stack at 1010" in p.legal()
    assert "Ironhoof freezes every cavalry unit this game-turn" not in p.legal()    # once a game


def test_rule_dp_ironhoof_freeze_is_announced_only_by_his_controller():
    p = Position("18.5")
    ironhoof_for(p, SARTAR)
    p.put("cc_lancers#1", "1010")
    p.put("bh_shamans#1", "3030")
    p.movement(SARTAR, player_turn=2)
    to_next_player_turn(p)
    assert p.to_play == LUNAR and "select the stack at 1010" in p.legal()
    assert not any("Ironhoof" in t for t in p.legal())


def test_rule_dp_ironhoof_frozen_cavalry_reinforcements_wait_for_the_next_game_turn():
    """L784, L722: "Cavalry reinforcement or replacement units must be delayed
    until the next game-turn": Sartar's cavalry waiting to enter is not
    offered in the frozen game-turn, his infantry is; the game-turn after,
    the cavalry enters. (Replacements of the Full Game come in the Diplomacy
    Segment, before any freeze is announced: Interpretations 90.)"""
    p = Position("18.5")
    ironhoof_for(p, LUNAR)
    p.put("cc_lancers#1", "1010")
    p.entering("bh_shamans#1", ENTRY_SARTAR_SOUTH)    # Sartar cavalry (L786)
    p.entering(FREE, ENTRY_SARTAR_SOUTH)              # Sartar infantry
    p.movement(SARTAR, player_turn=2)
    to_next_player_turn(p)
    p.act("Ironhoof freezes every cavalry unit this game-turn")
    to_next_player_turn(p)
    assert p.to_play == SARTAR and int(p.s["turn"]) == 2
    assert f"bring {p.name(FREE)} onto the board" in p.legal()
    assert f"bring {p.name('bh_shamans#1')} onto the board" not in p.legal()
    to_next_player_turn(p)
    to_next_player_turn(p)
    assert p.to_play == SARTAR and int(p.s["turn"]) == 3
    assert f"bring {p.name('bh_shamans#1')} onto the board" in p.legal()


# ---------------------------------------------------------------- the Stone Rune (L340, L374, L423)
def stone_rune_step(name, start, to):
    """MPs (in half points) unit ``name`` of 18.6's Independent player spends stepping from ``start`` to ``to``."""
    p = Position("18.6", moon="full")
    p.put(name, start)
    p.movement(INDEPENDENTS)
    before = int(p.s["unit_mp"][unit(name)])
    p.acts(f"select the stack at {start}", f"move {p.name(name)} with the group")
    step = f"move {p.name(name)} from {start} to {to}"
    if step not in p.legal():
        return None
    p.act(step)
    return before - int(p.s["unit_mp"][unit(name)])


def test_rule_dp_stone_rune_pays_1_mp_for_a_mountain_and_nothing_to_climb_a_ridge():
    """L340, L374, L423: the Stone Rune (the Baron's Friends, 3 Stone Rune) pays 1 MP to
    enter a mountain and nothing extra to climb a ridge; an Exiles' infantry unit of the
    same MF pays the mountain in full and +1 MP up the ridge (L470)."""
    assert stone_rune_step("barons_friends", "3801", "3902") == 2                     # 1 MP
    plain = stone_rune_step("ex_infantry#1", "3801", "3902")
    assert plain is None or plain > 2
    rune, foot = stone_rune_step("barons_friends", "0214", "0314"), stone_rune_step("ex_infantry#1", "0214", "0314")
    assert rune is not None and foot == rune + 2                                       # the ridge's +1 MP waived


# ---------------------------------------------------------------- a disembodied spirit's ZOC (L460)
def steps_on_after_entering_beside(spirit):
    """A Lunar cavalry unit steps from 2012 to 2013, beside a Sartar stack at 2014
    whose only counter is ``spirit``: whether it may step on from there."""
    p = Position("18.5", moon="full")
    p.s["units_end"] = len(R.U_FORCE)                # the Independents' counters are beyond 18.5's
    p.put(spirit, "2014")
    p.s["unit_force"][unit(spirit)] = 1
    p.put("cc_lancers#1", "2012")
    p.movement(LUNAR)
    p.acts("select the stack at 2012", f"move {p.name('cc_lancers#1')} with the group",
           f"move {p.name('cc_lancers#1')} from 2012 to 2013")
    return any(t.startswith(f"move {p.name('cc_lancers#1')} from 2013") for t in p.legal())


def test_rule_dp_zoc_a_disembodied_spirit_with_a_numeric_rf_exerts_one_and_a_parenthesised_rf_none():
    """L460: a disembodied spirit on top exerts a zone of control only with a numeric
    RF: the Spirit of Movement (X-5-x2-1) stops a unit entering beside it; the Cloak of
    Darkness (X-*-0-(10)) does not."""
    assert not steps_on_after_entering_beside("spirit_of_movement")
    assert steps_on_after_entering_beside("cloak_of_darkness")
