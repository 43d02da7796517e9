"""Flying (L1089-L1097) and what gives a hero the Fly ability: the Fly spell
(L1560) and the Potion of Flight (L1380). Played through the driver on
Deepdelve (``actions_test``): side 1 has Plains 1, Cave 2, Plains 3 and
Mountains 4, paths 1-2, 2-3, 3-4 and 1-3, so Mountains 4 is two walks from
Plains 1 but one flight."""
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    HST_BLOCKED, SPELL_IDS, ST_BATTLE, ST_TURNS, TILE_IDS, TW_PLACED, TW_STACK,
)
from tests.dragons_down.actions_test import (
    CAVE_2, MOUNTAINS_4, PLAINS_1, PLAINS_3, act, load, moves, put_monster, used,
)
from tests.dragons_down.setup_test import legal
from tests.dragons_down.trade_test import give, phase, start

GLOOMHOLLOW = TILE_IDS.index("gloomhollow")
CRYSTAL_HOLLOWS = TILE_IDS.index("crystal_hollows")


def place_north(S):
    """Gloomhollow placed north of Deepdelve, side 1 up."""
    s = S[0]
    s["tile_where"][GLOOMHOLLOW], s["tile_q"][GLOOMHOLLOW], s["tile_r"][GLOOMHOLLOW] = TW_PLACED, 0, -1
    s["tile_side"][GLOOMHOLLOW] = 0


def flyer(lineage="halfling"):
    """A hero in Plains 1 who drinks a Potion of Flight (no action spent)."""
    S, p = start(lineages=(lineage,))
    potion = give(S, p, "potion_of_flight")
    assert not R.hero_flies(S, 0, p) and MOUNTAINS_4 not in moves(S)
    assert R.A_CARD + potion in legal(S)
    act(S, R.A_CARD + potion)
    assert R.hero_flies(S, 0, p) and used(S, p) == 0
    return S, p


def blocked(S, p):
    return int(S[0]["hero_status"][p]) & HST_BLOCKED != 0


# ================================================================ moving by air (L1093-L1096)
def test_dd_flying_3_a_flyer_reaches_any_non_cave_clearing_of_his_tile_for_one_move():
    """L1095, L477: out of a Cave Clearing, a flyer reaches any non-Cave
    Clearing of his tile with one Move Action: Mountains 4, joined to Plains
    1 by no path, for one Move into mountains, two actions (a walker needs
    two Moves and three actions)."""
    S, p = flyer()
    assert MOUNTAINS_4 in moves(S) and CAVE_2 in moves(S)
    act(S, R.A_CLEARING + MOUNTAINS_4)
    assert int(S[0]["hero_clearing"][p]) == MOUNTAINS_4 and used(S, p) == 2


def test_dd_flying_3_from_a_cave_only_along_the_paths():
    """L1095: "if not currently in a Cave Clearing": from Cave 2 the flyer
    flies only along paths (to Plains 1 and 3), not on to Mountains 4."""
    S, p = flyer()
    act(S, R.A_CLEARING + CAVE_2)
    assert moves(S) == sorted([PLAINS_1, PLAINS_3])


def test_dd_flying_4_two_moves_land_in_a_random_non_cave_clearing_of_an_adjacent_tile():
    """L1096: the flyer may fly into an adjacent Map Tile for two Move
    Actions; the clearing is drawn among its non-Cave Clearings."""
    S, p = flyer()
    s = S[0]
    place_north(S)
    north = R.A_EXPLORE + 0
    assert north in legal(S)
    from dragongym.envs.dragons_down.game import GAME
    assert GAME.action_to_string(S, north).startswith("fly into")
    load(S, 0)
    act(S, north)
    c = int(s["hero_clearing"][p])
    assert c // 6 == GLOOMHOLLOW and not R.is_cave(S, 0, c) and used(S, p) == 2
    options = [k for k in range(6) if R.CLEARING_TYPE[GLOOMHOLLOW, 0, k] >= 0
               and R.CLEARING_TYPE[GLOOMHOLLOW, 0, k] != R.CLEAR_CAVE]
    assert c % 6 == options[0]
    S, p = flyer()
    place_north(S)
    for c in (PLAINS_3, PLAINS_1, PLAINS_3):                # one action left: no flight to a tile
        act(S, R.A_CLEARING + c)
    assert R.A_EXPLORE + 0 not in legal(S) and used(S, p) == 3


def test_dd_flying_2_a_flyer_may_fly_in_an_explore_action():
    """L1093, L1096, L583: after exploring, a flyer may fly into the new
    tile -- a random non-Cave Clearing of it, the Explore's Move Action the
    first of the two -- instead of walking in: Crystal Hollows (side 1:
    Mountains 1, Woods 4 and four caves) explored south of Plains 3. The
    draw lands him in Mountains 1: one more action and its Mountain extra."""
    for flies in (True, False):
        S, p = flyer() if flies else start(lineages=("halfling",))
        act(S, R.A_CLEARING + PLAINS_3)
        s = S[0]
        s["tile_stack"][0], s["stack_len"], s["tile_where"][CRYSTAL_HOLLOWS] = CRYSTAL_HOLLOWS, 1, TW_STACK
        act(S, R.A_EXPLORE + 3)                           # south, along the path from Plains 3
        act(S, R.A_TURN + 0)                              # side 1, unturned
        assert phase(S) == R.PH_EXPLORE_ENTER
        assert (R.A_EXPLORE + 3 in legal(S)) == flies
    from dragongym.envs.dragons_down.game import GAME
    S, p = flyer()
    act(S, R.A_CLEARING + PLAINS_3)
    s = S[0]
    s["tile_stack"][0], s["stack_len"], s["tile_where"][CRYSTAL_HOLLOWS] = CRYSTAL_HOLLOWS, 1, TW_STACK
    act(S, R.A_EXPLORE + 3)
    act(S, R.A_TURN + 0)
    assert GAME.action_to_string(S, R.A_EXPLORE + 3).startswith("fly into")
    load(S, 0)
    act(S, R.A_EXPLORE + 3)
    assert int(s["hero_clearing"][p]) == CRYSTAL_HOLLOWS * 6 + 0 and used(S, p) == 4


# ================================================================ no Hide after flying in (L1097)
def test_dd_flying_5_flown_in_among_monsters_no_hide_against_the_block():
    """L1097: a flyer entering a clearing that holds Monsters may not Hide:
    flown from Plains 1 to Mountains 4 (a flight only), he is blocked at once."""
    S, p = flyer()
    put_monster(S, "goblin", MOUNTAINS_4)
    act(S, R.A_CLEARING + MOUNTAINS_4)
    assert blocked(S, p) and phase(S) != R.PH_BLOCK


def test_interpretation_flying_a_flyer_walks_where_a_path_leads():
    """Interpretations, "Flying": a flight costs what a Move into the same
    clearing costs (L477's extra included), so where a path leads (Plains 3
    from Plains 1) the flyer walks and keeps his Hide."""
    S, p = flyer()
    put_monster(S, "goblin", PLAINS_3)
    act(S, R.A_CLEARING + PLAINS_3)
    assert phase(S) == R.PH_BLOCK


# ================================================================ what makes a hero fly (L1380, L1560)
def test_dd_treasure_potion_of_flight_1_the_hero_flies_until_the_end_of_the_next_action_phase():
    """L1380: drunk in his Action Phase, the hero flies to its end: not in
    the battle phase that follows; the potion is gone."""
    S, p = flyer()
    assert int(S[0]["flight_until"][p]) == int(S[0]["turn"])
    S[0]["stage"] = ST_BATTLE
    assert not R.hero_flies(S, 0, p)


def test_dd_treasure_potion_of_flight_1_drunk_in_combat_it_lasts_through_the_next_action_phase():
    """L1380, L916: drunk in Hero Tactics, the flight lasts for the rest of
    that battle phase and through the next turn's Action Phase."""
    from tests.dragons_down.combat_test import TRI_PEAKS_1, ask, combat, start as start_combat
    S = combat([("human", "knight", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),))
    potion = give(S, 0, "potion_of_flight")
    start_combat(S)
    while int(S[0]["phase"]) != R.PH_TACTICS:
        act(S, legal(S)[0] if int(S[0]["phase"]) != R.PH_TARGET else next(a for a in legal(S) if a >= R.A_FOE))
    ask(S, R.PH_TACTICS, 0)
    act(S, R.A_CARD + potion)
    turn = int(S[0]["turn"])
    assert int(S[0]["flight_until"][0]) == turn + 1 and R.hero_flies(S, 0, 0)
    S[0]["turn"], S[0]["stage"] = turn + 1, ST_TURNS
    assert R.hero_flies(S, 0, 0)
    S[0]["stage"] = ST_BATTLE
    assert not R.hero_flies(S, 0, 0)


def test_dd_spell_fly_1_the_fly_spell_gives_the_fly_ability():
    """L1560: Fly on a hero (a turn spell, cast in last turn's combat, ending
    as this turn's battle phase begins, L1044) lets him fly: Mountains 4 is
    one flight from Plains 1."""
    S, p = start(lineages=("halfling",))
    k = SPELL_IDS.index("fly")
    sp = next(sp for sp in range(R.NUM_SPELLS) if R.SPELL_KIND[sp] == k)
    S[0]["spell_where"][sp], S[0]["spell_owner"][sp], S[0]["spell_on"][sp] = R.SPW_KNOWN, p, R.AIM_HERO + p
    assert R.hero_flies(S, 0, p) and MOUNTAINS_4 in moves(S)
    assert R.SPELL_BUILT[k] and R.SPELL_DURATION[k] == R.DUR_TURN


def test_fiery_chasm_spares_a_flying_hero():
    """L1091, L1508: Fiery Chasm attacks non-flying heroes only: the caster
    under Fly is not attacked (no Hit Die is rolled for him)."""
    from tests.dragons_down.spells_test import HIT, chip, in_combat, wizard, ME
    from dragongym.envs.dragons_down.constants import MON_TAKEN
    S, sp = wizard("fiery_chasm", {"black": 5}, cls="warlock")
    fly = next(x for x in range(R.NUM_SPELLS) if R.SPELL_KIND[x] == SPELL_IDS.index("fly"))
    S[0]["spell_where"][fly], S[0]["spell_owner"][fly], S[0]["spell_on"][fly] = R.SPW_KNOWN, 0, ME + 0
    spider = chip(S, "giant_spider")
    in_combat(S)
    load(S, HIT, HIT)                                     # the spider's roll; none left for the caster
    R.fiery_chasm(S, 0, ME + 0, 0)
    assert int(S[0]["mon_clearing"][spider]) == MON_TAKEN
    assert int(S[0]["hero_state"][0]) == R.HS_ACTIVE and int(S[0]["loaded_pos"]) == 2
