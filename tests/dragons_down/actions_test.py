"""The action phase (L441-L612) so far: turn start and the hero order,
entering the map, up to four actions, Move with its costs, Cave Clearings,
Sneak / Make Noise, Rest and Pass -- on the civilization tile of the Cruel
Caves (Deepdelve, side 1 forced: clearings 1 plains, 2 cave, 3 plains,
4 mountains; paths 1-2, 2-3, 3-4, 1-3)."""
import numpy as np

from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CLASS_IDS, CUBE_MIGHT, HS_ACTIVE, HST_ALERT, HST_BLOCKED, HST_EVADED, HST_HIDDEN, HST_NOISE, HST_SNEAK,
    LINEAGE_IDS, SB_EXPLORE, SB_OPEN_REALM, ST_TURNS, TILE_IDS,
)
from tests.dragons_down.setup_test import legal, new_game  # noqa: F401

DEEPDELVE = TILE_IDS.index("deepdelve")
PLAINS_1, CAVE_2, PLAINS_3, MOUNTAINS_4 = (DEEPDELVE * 6 + k for k in range(4))
NOT_HUMAN = ("halfling",)
"""Heroes counting their four actions through Plains 3, Deepdelve's
Civilization Location here, where a Human would have a fifth (L1204)."""


def make_hero(S, lineage="human", cls="knight"):
    """Answer the pending hero selection of the seat to play (sides 1, first colours)."""
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    for a in (R.A_LINEAGE + LINEAGE_IDS.index(lineage), R.A_SIDE, R.A_CLASS + CLASS_IDS.index(cls),
              R.A_SIDE):
        assert R.apply_action(S, 0, a, mask) == R.E_OK
    while int(S[0]["phase"]) in (R.PH_CUBE_COLOUR, R.PH_START_SPELL):
        R.apply_action(S, 0, legal(S)[0], mask)


def deepdelve(num_heroes=1, lineages=("human",), seed=3,
              classes=("knight", "barbarian", "archer", "rogue", "cleric", "druid")):
    """Explore the Realm with the Cruel Caves alone: Deepdelve in the centre,
    side 1 up; heroes made; the first hero to act is asked where it starts."""
    S = new_game(num_heroes=num_heroes, sandbox=SB_EXPLORE, packs=0b001, seed=seed)
    S[0]["tile_side"][DEEPDELVE] = 0
    for i in range(num_heroes):
        make_hero(S, lineages[i % len(lineages)], classes[i])
    assert int(S[0]["phase"]) == R.PH_ENTER_PLACE
    return S


def act(S, a):
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    assert a in legal(S), f"action {a} is not legal: {legal(S)}"
    assert R.apply_action(S, 0, a, mask) == R.E_OK


def moves(S):
    return sorted(a - R.A_CLEARING for a in legal(S) if R.A_CLEARING <= a < R.A_DO)


def turn_over(S):
    """The action phase of the game's first turn is over (the game went on
    to the battle phase or a later turn)."""
    return int(S[0]["turn"]) > 1 or int(S[0]["stage"]) > ST_TURNS


def used(S, p=0):
    return int(S[0]["actions_used"][p])


def test_dd_sandbox_explore_4_first_turn_places_the_hero_on_a_civilization_clearing():
    """L133: on its first turn a hero is placed on any clearing of the
    civilization tile, then takes its turn normally: placing is not an action."""
    S = deepdelve()
    assert sorted(a - R.A_CLEARING for a in legal(S)) == [PLAINS_1, CAVE_2, PLAINS_3, MOUNTAINS_4]
    act(S, R.A_CLEARING + PLAINS_1)
    assert int(S[0]["hero_clearing"][0]) == PLAINS_1 and int(S[0]["hero_state"][0]) == HS_ACTIVE
    assert int(S[0]["phase"]) == R.PH_ACTION and used(S) == 0


def test_dd_move_mountain_1_mountain_or_swamp_costs_one_action_more():
    """L475: a Move goes to a clearing joined by a path; L477: into a Mountain
    or Swamp Clearing it costs one action more. L451: four actions a turn."""
    S = deepdelve(lineages=NOT_HUMAN)
    act(S, R.A_CLEARING + PLAINS_1)
    assert moves(S) == [CAVE_2, PLAINS_3]
    act(S, R.A_CLEARING + PLAINS_3)
    assert used(S) == 1 and moves(S) == [PLAINS_1, CAVE_2, MOUNTAINS_4]
    act(S, R.A_CLEARING + MOUNTAINS_4)
    assert used(S) == 3
    act(S, R.A_CLEARING + PLAINS_3)
    assert turn_over(S)    # the only hero's turn is over: four actions used


def test_dd_action_caves_2_last_action_cannot_enter_a_cave():
    """L455: entering a Cave Clearing loses one action that turn, and the
    last action may not be used to enter one; a second cave the same turn
    loses nothing more (Interpretations)."""
    S = deepdelve(lineages=NOT_HUMAN)
    act(S, R.A_CLEARING + PLAINS_1)
    act(S, R.A_CLEARING + CAVE_2)
    assert used(S) == 2 and int(S[0]["hero_clearing"][0]) == CAVE_2
    act(S, R.A_CLEARING + PLAINS_3)
    assert used(S) == 3
    assert CAVE_2 not in moves(S)                        # one action left: not into the cave
    S = deepdelve(lineages=NOT_HUMAN)
    act(S, R.A_CLEARING + PLAINS_1)
    act(S, R.A_DO + R.DO_SNEAK)
    act(S, R.A_DO + R.DO_SNEAK)
    assert used(S) == 2 and CAVE_2 in moves(S)           # two left: the cave takes both
    act(S, R.A_DO + R.DO_SNEAK)
    assert CAVE_2 not in moves(S)


def test_dd_action_caves_1_cave_costs_one_action_once_a_turn():
    """L455: a hero beginning its turn in a Cave Clearing loses one action."""
    S = deepdelve()
    act(S, R.A_CLEARING + CAVE_2)
    assert used(S) == 1
    act(S, R.A_CLEARING + PLAINS_1)
    assert used(S) == 2                                  # the cave's action is already lost


def test_dd_lineage_dwarf_1_dwarf_loses_no_cave_action():
    """L1198: Dwarves do not lose an action for spending any part of their
    turn in a Cave Clearing."""
    S = deepdelve(lineages=("dwarf",))
    act(S, R.A_CLEARING + CAVE_2)
    assert used(S) == 0
    act(S, R.A_CLEARING + PLAINS_1)
    act(S, R.A_CLEARING + CAVE_2)
    assert used(S) == 2


def test_dd_action_sneak_or_noise_not_both_in_one_turn():
    """L467-L469: Sneak marks the Sneak box; Make Noise unhides the hero; a
    hero may not Sneak and Make Noise in the same turn."""
    S = deepdelve()
    act(S, R.A_CLEARING + PLAINS_1)
    act(S, R.A_DO + R.DO_SNEAK)
    assert R.A_DO + R.DO_NOISE not in legal(S) and R.A_DO + R.DO_SNEAK in legal(S)
    S = deepdelve()
    act(S, R.A_CLEARING + PLAINS_1)
    S[0]["hero_status"][0] |= HST_HIDDEN
    act(S, R.A_DO + R.DO_NOISE)
    st = int(S[0]["hero_status"][0])
    assert st & HST_NOISE and not st & HST_HIDDEN
    assert R.A_DO + R.DO_SNEAK not in legal(S)


def wound(S, p, hearts=0, might=0):
    rec = S[0]
    rec["cubes"][p, 0, CUBE_MIGHT] -= might
    rec["cubes"][p, 1, CUBE_MIGHT] += might
    rec["hearts"][p, 0] -= hearts
    rec["hearts"][p, 1] += hearts


def test_dd_rest_2_quick_short_and_long_rest():
    """L550: a quick, short or long rest moves one, two or three cubes from
    the wounded to the healthy box for two, three or four actions; with no
    wounded cube there is nothing to rest for (DD-REST-1, DD-REST-2)."""
    S = deepdelve(classes=("barbarian",))
    act(S, R.A_CLEARING + PLAINS_1)
    assert R.A_DO + R.DO_QUICK_REST not in legal(S)
    rec = S[0]
    wound(S, 0, hearts=2, might=1)
    assert {R.A_DO + R.DO_QUICK_REST, R.A_DO + R.DO_SHORT_REST, R.A_DO + R.DO_LONG_REST} <= set(legal(S))
    act(S, R.A_DO + R.DO_SHORT_REST)
    assert used(S) == 3 and int(S[0]["phase"]) == R.PH_HEAL
    assert legal(S) == [R.A_HEAL + CUBE_MIGHT, R.A_HEAL + R.HEAL_HEART]
    act(S, R.A_HEAL + R.HEAL_HEART)
    act(S, R.A_HEAL + CUBE_MIGHT)
    assert int(rec["hearts"][0, 1]) == 1 and int(rec["cubes"][0, 1, CUBE_MIGHT]) == 0
    assert int(rec["phase"]) == R.PH_ACTION and R.A_DO + R.DO_QUICK_REST not in legal(S)   # 1 left


def test_dd_pass_1_pass_ends_the_heros_turn():
    """L612: Pass ends the hero's action phase; L449-L451: then the next
    hero drawn takes its actions, until all have."""
    S = deepdelve(num_heroes=2)
    first = int(S[0]["to_play"])
    act(S, R.A_CLEARING + PLAINS_1)
    act(S, R.A_DO + R.DO_PASS)
    assert int(S[0]["to_play"]) == 1 - first and int(S[0]["phase"]) == R.PH_ENTER_PLACE
    act(S, R.A_CLEARING + PLAINS_3)
    act(S, R.A_DO + R.DO_PASS)
    assert turn_over(S)


def test_dd_action_order_1_active_hero_drawn_at_random():
    """L449: the active hero is drawn at random, then the next, until all."""
    firsts = set()
    for seed in range(1, 25):
        S = deepdelve(num_heroes=3, seed=seed)
        order = [int(p) for p in S[0]["turn_order"][:3]]
        assert sorted(order) == [0, 1, 2] and int(S[0]["to_play"]) == order[0]
        firsts.add(order[0])
    assert firsts == {0, 1, 2}


def test_dd_sandbox_open_5_first_move_enters_by_a_path_off_the_edge():
    """L113: in Open Realm a hero's first action is a Move onto the map from
    a path extending off its edge."""
    S = new_game(num_heroes=1, sandbox=SB_OPEN_REALM, packs=0b010, seed=5)
    rng = np.random.default_rng(0)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    while int(S[0]["phase"]) != R.PH_ACTION:
        R.apply_action(S, 0, int(rng.choice(legal(S))), mask)
    targets = moves(S)
    out = np.zeros(8, dtype=np.int64)
    assert targets and all(R.exits_from(S, 0, c, out) > 0 for c in targets)
    assert legal(S) == [R.A_CLEARING + c for c in targets]  # the first action must be the entry
    act(S, R.A_CLEARING + targets[0])
    assert int(S[0]["hero_clearing"][0]) == targets[0]


def test_dd_class_knight_1_knight_rests_one_cube_per_action():
    """L1222: a Knight may rest one Action Cube for each Rest Action: a quick
    rest (two actions) heals two."""
    S = deepdelve(classes=("knight",))
    act(S, R.A_CLEARING + PLAINS_1)
    wound(S, 0, hearts=3)
    act(S, R.A_DO + R.DO_QUICK_REST)
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert int(S[0]["phase"]) == R.PH_HEAL
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert int(S[0]["hearts"][0, 1]) == 1 and used(S) == 2


def test_dd_action_turnstart_1_statuses_cleared_at_turn_start():
    """L445: at turn start every hero loses its Hidden, Alert, Sneak and Make
    Noise statuses and is unblocked; L449: a new order is drawn."""
    S = deepdelve()
    act(S, R.A_CLEARING + PLAINS_1)
    S[0]["hero_status"][0] = HST_HIDDEN | HST_ALERT | HST_SNEAK | HST_NOISE | HST_BLOCKED
    S[0]["actions_used"][0] = 3
    turn = int(S[0]["turn"])
    R.start_turn(S, 0)
    assert int(S[0]["hero_status"][0]) == 0 and used(S) == 0 and int(S[0]["turn"]) == turn + 1


def put_monster(S, kind, c):
    from dragongym.envs.dragons_down.constants import MONSTER_CHIP_KINDS, MONSTER_IDS, MON_TRAY
    m = next(m for m in range(len(MONSTER_CHIP_KINDS)) if MONSTER_IDS[MONSTER_CHIP_KINDS[m]] == kind
             and S[0]["mon_clearing"][m] == MON_TRAY)
    S[0]["mon_clearing"][m] = c


def load(S, *raw):
    s = S[0]
    for i, v in enumerate(raw):
        s["loaded"][int(s["loaded_count"]) + i] = v
    s["loaded_count"] += len(raw)


def test_dd_action_block_1_monsters_block_at_the_end_of_an_action():
    """L457-L459: monsters in the active, unhidden hero's clearing at the end
    of an action block it: it is unhidden and loses its remaining actions;
    L599: it may first try to hide (here it does not). Not before its first
    action (Interpretations)."""
    S = deepdelve(num_heroes=2, lineages=NOT_HUMAN)
    p = int(S[0]["to_play"])
    put_monster(S, "goblin", PLAINS_3)
    act(S, R.A_CLEARING + PLAINS_1)
    act(S, R.A_CLEARING + PLAINS_3)
    assert int(S[0]["phase"]) == R.PH_BLOCK and int(S[0]["to_play"]) == p and used(S, p) == 1
    act(S, R.A_DO + R.DO_STAY)
    assert int(S[0]["hero_status"][p]) & HST_BLOCKED and used(S, p) == 4
    assert int(S[0]["to_play"]) == 1 - p                     # the next hero acts


def test_dd_action_block_2_hide_reaction_offered_against_a_block():
    """L599, L605: a hero that hides when blocked is not blocked."""
    S = deepdelve(lineages=NOT_HUMAN)
    put_monster(S, "goblin", PLAINS_3)
    act(S, R.A_CLEARING + PLAINS_1)
    act(S, R.A_CLEARING + PLAINS_3)
    load(S, 2, 3)                                            # two blank Monster Dice
    act(S, R.A_DO + R.DO_HIDE)
    st = int(S[0]["hero_status"][0])
    assert st & HST_HIDDEN and not st & HST_BLOCKED and used(S) == 1
    assert int(S[0]["phase"]) == R.PH_ACTION                 # hidden: no block after the next action
    act(S, R.A_DO + R.DO_SNEAK)
    assert int(S[0]["phase"]) == R.PH_ACTION


def test_dd_action_noise_1_make_noise_unhides_and_is_blocked_by_monsters():
    """L471: a hero making noise is unhidden at once and blocked if monsters
    are present."""
    S = deepdelve(num_heroes=2)
    p = int(S[0]["to_play"])
    put_monster(S, "goblin", PLAINS_1)
    act(S, R.A_CLEARING + PLAINS_1)
    assert int(S[0]["phase"]) == R.PH_ACTION                 # placed, not moved: no action has ended
    S[0]["hero_status"][p] |= HST_HIDDEN
    act(S, R.A_DO + R.DO_NOISE)
    st = int(S[0]["hero_status"][p])
    assert st & HST_BLOCKED and not st & HST_HIDDEN and int(S[0]["to_play"]) == 1 - p


# Deepdelve side 1's Hidden Path: clearings 2-4, yellow (data/tiles.txt)
def hidden_paths(S):
    return sorted(a - R.A_SEARCH for a in legal(S) if R.A_SEARCH <= a < R.A_SEARCH + 2)


def test_dd_search_1_two_spyglasses_find_a_hidden_path_used_as_a_path_after():
    """L511: two spyglasses on the Search Dice find the Hidden Path; L515:
    the hero may use it to Move for the rest of the game (others may not)."""
    S = deepdelve(num_heroes=1)
    act(S, R.A_CLEARING + CAVE_2)
    assert MOUNTAINS_4 not in moves(S) and hidden_paths(S) == [0]
    load(S, 0, 3)                                             # spyglass, blank: fails
    act(S, R.A_SEARCH + 0)
    assert used(S) == 2 and hidden_paths(S) == [0] and MOUNTAINS_4 not in moves(S)
    S = deepdelve(num_heroes=1)
    act(S, R.A_CLEARING + CAVE_2)
    load(S, 0, 1)                                             # two spyglasses
    act(S, R.A_SEARCH + 0)
    assert hidden_paths(S) == [] and MOUNTAINS_4 in moves(S)


def test_dd_search_2_consecutive_searches_reroll_only_blanks():
    """L513: searching again for the same target with the next action rerolls
    only the dice showing a blank; after another action both are rolled."""
    S = deepdelve(num_heroes=1)
    act(S, R.A_CLEARING + CAVE_2)
    load(S, 0, 3, 2)                                          # spyglass, blank; then the blank: spyglass
    act(S, R.A_SEARCH + 0)
    act(S, R.A_SEARCH + 0)
    assert int(S[0]["hidden_found"][0].sum()) == 1 and used(S) == 3
    S = deepdelve(num_heroes=1)
    act(S, R.A_CLEARING + CAVE_2)
    load(S, 0, 3, 4, 2)                                       # spyglass, blank; Sneak; both again: blank, spyglass
    act(S, R.A_SEARCH + 0)
    act(S, R.A_DO + R.DO_SNEAK)
    act(S, R.A_SEARCH + 0)
    assert int(S[0]["hidden_found"][0].sum()) == 0


def test_dd_class_barbarian_1_barbarian_rerolls_a_search_die_in_mountains():
    """L1210: a Barbarian may reroll one die of each Search Action made in a
    Mountain Clearing."""
    S = deepdelve(num_heroes=1, classes=("barbarian",))
    act(S, R.A_CLEARING + MOUNTAINS_4)
    assert hidden_paths(S) == [0]
    load(S, 0, 3, 1)                                          # spyglass, blank -> rerolled: spyglass
    act(S, R.A_SEARCH + 0)
    assert int(S[0]["hidden_found"][0].sum()) == 1 and CAVE_2 in moves(S)


def test_dd_move_evaded_1_evader_first_moves_along_the_path_he_evaded_by():
    """L481, L703: a hero that evaded last turn must spend its first action
    moving along the path it evaded onto (``evade_to``), at that clearing's
    cost; after it, its turn is free again."""
    S = deepdelve()
    act(S, R.A_CLEARING + PLAINS_1)
    S[0]["hero_status"][0] |= HST_EVADED
    S[0]["evade_to"][0] = PLAINS_3
    assert legal(S) == [R.A_CLEARING + PLAINS_3]
    act(S, R.A_CLEARING + PLAINS_3)
    assert R.A_DO + R.DO_PASS in legal(S) and R.A_CLEARING + MOUNTAINS_4 in legal(S)


def test_dd_lineage_human_1_human_gains_an_action_at_a_civilization_location():
    """L1204 (Interpretations, "Human"): Humans receive one additional free
    action during any turn they are in a Civilization Location -- Plains 3,
    Deepdelve's here. Beginning his turn there the Human has five actions;
    entering it he has five that turn, entering it again no more; a
    Halfling on the same round has four."""
    S = deepdelve()
    assert int(S[0]["civ_clearing"][0]) == PLAINS_3
    act(S, R.A_CLEARING + PLAINS_3)                       # placed there before his first action (L133)
    assert R.actions_left(S, 0, 0) == 5
    for _ in range(4):
        act(S, R.A_DO + R.DO_SNEAK)
    assert not turn_over(S) and used(S) == 3 and R.actions_left(S, 0, 0) == 1
    act(S, R.A_DO + R.DO_SNEAK)
    assert turn_over(S)
    for lineages, actions in ((("human",), 5), (NOT_HUMAN, 4)):
        S = deepdelve(lineages=lineages)
        act(S, R.A_CLEARING + PLAINS_1)
        for c in [PLAINS_3, PLAINS_1, PLAINS_3, PLAINS_1, PLAINS_3][:actions]:
            assert not turn_over(S)
            act(S, R.A_CLEARING + c)
        assert turn_over(S)


def test_dd_status_hidden_2_voluntary_unhide_in_the_action_phase():
    """L886: "Heroes may voluntarily reveal themselves at any time during the
    Action Phase": a hidden hero may unhide, which is not an action."""
    S = deepdelve()
    act(S, R.A_CLEARING + PLAINS_1)
    assert R.A_DO + R.DO_UNHIDE not in legal(S)               # not hidden: nothing to reveal
    S[0]["hero_status"][0] |= HST_HIDDEN
    before = used(S)
    act(S, R.A_DO + R.DO_UNHIDE)
    assert not int(S[0]["hero_status"][0]) & HST_HIDDEN and used(S) == before
    assert int(S[0]["phase"]) == R.PH_ACTION


def test_dd_rest_2_a_short_or_long_rest_with_one_wounded_cube_heals_it_and_ends():
    """L550: a short rest moves two cubes, a long rest three, from the wounded
    box to the healthy box; a hero with a single wounded cube may still take
    either, and it heals that one cube (Interpretations, "A rest with fewer
    wounded cubes"): the rest costs its three or four actions, the one cube is
    healed, and the rest ends there -- no second heal is asked for with the
    wounded box empty -- and, the rest done, a Monster in the clearing blocks
    the hero as after any action (L457)."""
    for rest, cost in ((R.DO_SHORT_REST, 3), (R.DO_LONG_REST, 4)):
        S = deepdelve(lineages=NOT_HUMAN, classes=("barbarian",))
        act(S, R.A_CLEARING + PLAINS_1)                      # placed: no action yet
        put_monster(S, "goblin", PLAINS_1)
        wound(S, 0, hearts=1)
        healthy = int(S[0]["hearts"][0, 0])
        assert R.A_DO + rest in legal(S)
        act(S, R.A_DO + rest)
        assert used(S) == cost
        if int(S[0]["phase"]) == R.PH_HEAL:                  # the choice of cube: the one there is
            assert legal(S) == [R.A_HEAL + R.HEAL_HEART]
            act(S, R.A_HEAL + R.HEAL_HEART)
        assert int(S[0]["hearts"][0, 1]) == 0 and int(S[0]["hearts"][0, 0]) == healthy + 1
        assert int(S[0]["heal_left"]) == 0                   # the rest is over
        assert int(S[0]["phase"]) == R.PH_BLOCK and int(S[0]["to_play"]) == 0
        act(S, R.A_DO + R.DO_STAY)
        assert int(S[0]["hero_status"][0]) & HST_BLOCKED
