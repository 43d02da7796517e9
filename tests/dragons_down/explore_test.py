"""The Explore Action (L581-L585) and Gates (L479), on the Cruel Caves'
civilization tile in the centre (Deepdelve side 1: clearings 1 plains,
2 cave, 3 plains, 4 mountains; edges N: 1, NE: 2, S: 3, SW: 4, none SE and
NW; see actions_test.py)."""
import numpy as np

from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    NUM_WILD_TOKENS, SB_OPEN_REALM, TOK_PLACED, TW_PLACED, TW_STACK, WILD_TOKENS,
)
from dragongym.envs.dragons_down import data as D
from tests.dragons_down.actions_test import (
    CAVE_2, DEEPDELVE, MOUNTAINS_4, PLAINS_1, PLAINS_3, act, deepdelve, make_hero, used,
)
from tests.dragons_down.setup_test import legal, new_game

N, NE, SE, S_, SW, NW = range(6)


def explore_moves(S):
    return sorted(a - R.A_EXPLORE for a in legal(S) if R.A_EXPLORE <= a < R.A_EXPLORE + 6)


def at(start):
    """Deepdelve with one hero standing in ``start`` at the start of its turn."""
    S = deepdelve()
    act(S, R.A_CLEARING + start)
    return S


def test_dd_explore_1_explore_needs_a_path_off_the_map():
    """L583: a hero in a clearing with a path leading off the map may explore
    the empty location it leads to -- only there."""
    S = at(PLAINS_1)
    assert explore_moves(S) == [N]
    S = at(PLAINS_3)
    assert explore_moves(S) == [S_]


def test_dd_sandbox_explore_6_explore_is_legal_only_with_the_exploration_map():
    """L143-L145: the Explore Action belongs to Explore the Realm (and the
    Legendary sandbox on its map rules); Open Realm has none."""
    S = new_game(num_heroes=1, sandbox=SB_OPEN_REALM, packs=0b001)
    assert all(not R.A_EXPLORE <= a < R.A_EXPLORE + 6 for a in legal(S))
    S = at(PLAINS_1)
    assert explore_moves(S)


def test_dd_explore_2_bottom_tile_placed_on_the_chosen_path():
    """L583: the bottom Map Tile of the stack is drawn and placed connected to
    the path explored, any turn, either side up; every way offered carries a
    path on the edge facing the explorer's tile."""
    S = at(PLAINS_1)
    bottom = int(S[0]["tile_stack"][0])
    n = int(S[0]["stack_len"])
    act(S, R.A_EXPLORE + N)
    assert int(S[0]["phase"]) == R.PH_EXPLORE_TURN and used(S) == 1
    assert int(S[0]["stack_len"]) == n - 1 and int(S[0]["explore_tile"]) == bottom
    ways = [a - R.A_TURN for a in legal(S)]
    assert ways
    for k in ways:
        side, rot = divmod(k, 6)
        assert R.path_toward(bottom, side, rot, S_)            # the edge facing Deepdelve's north path
    act(S, R.A_TURN + ways[0])
    s = S[0]
    assert int(s["tile_where"][bottom]) == TW_PLACED
    assert (int(s["tile_q"][bottom]), int(s["tile_r"][bottom])) == (0, -1)


def test_dd_explore_3_explored_tile_matches_every_neighbour():
    """L583: all edges must match adjacent tiles -- path to path, non-path to
    non-path -- for every way offered."""
    S = at(PLAINS_1)
    act(S, R.A_EXPLORE + N)
    t = int(S[0]["explore_tile"])
    for a in legal(S):
        side, rot = divmod(a - R.A_TURN, 6)
        fits, touched, joined = R.placement_fit(S, 0, t, side, rot, 0, -1)
        assert fits and touched == 1 and joined


def test_dd_explore_4_unplaceable_tile_goes_on_top_and_the_action_is_lost():
    """L583: a tile that cannot be placed is returned to the top of the stack
    and the action is forfeited: from the Mountain Clearing toward SE, where
    Deepdelve shows no path and no other tile touches, no tile can connect to
    a path (L585)."""
    S = at(MOUNTAINS_4)
    assert SE in explore_moves(S)                             # L585: any adjacent empty location
    before = [int(t) for t in S[0]["tile_stack"][:int(S[0]["stack_len"])]]
    act(S, R.A_EXPLORE + SE)
    s = S[0]
    assert int(s["phase"]) == R.PH_ACTION and used(S) == 1 and int(s["tiles_placed"]) == 1
    after = [int(t) for t in s["tile_stack"][:int(s["stack_len"])]]
    assert after == before[1:] + before[:1]                   # the bottom tile now on top
    assert int(s["tile_where"][before[0]]) == TW_STACK


def test_dd_explore_5_explorer_may_step_in_paying_the_terrain_extra():
    """L583: after placement the hero may move into a connected clearing of
    the new tile, paying only what a Mountain or Swamp Clearing adds (the
    Explore Action was the move); its tokens are placed on entering (L485)."""
    S = at(PLAINS_1)
    act(S, R.A_EXPLORE + N)
    t = int(S[0]["explore_tile"])
    act(S, legal(S)[0])
    assert int(S[0]["phase"]) == R.PH_EXPLORE_ENTER
    entries = [a - R.A_CLEARING for a in legal(S) if R.A_CLEARING <= a < R.A_DO]
    assert len(entries) == 1 and entries[0] // 6 == t
    c = entries[0]
    kind = R.CLEARING_TYPE[t, int(S[0]["tile_side"][t]), c % 6]
    extra = 1 if kind in (2, 4) else 0                        # mountains, swamp
    extra += 1 if kind == 1 else 0                            # a cave takes this turn's action
    act(S, R.A_CLEARING + c)
    assert int(S[0]["hero_clearing"][0]) == c and used(S) == 1 + extra
    assert int(S[0]["tile_revealed"][t]) == 1


def test_dd_explore_6_mountain_explorer_may_fill_any_adjacent_location():
    """L585: from a Mountain Clearing the hero may explore any adjacent empty
    location; the tile must connect to at least one path on any tile. South
    of Deepdelve the path is clearing 3's, so only the Mountain rule allows
    it; the new tile does not join clearing 4, so there is no step in
    (Interpretations)."""
    S = at(MOUNTAINS_4)
    assert explore_moves(S) == [N, NE, SE, S_, SW, NW]
    act(S, R.A_EXPLORE + S_)
    t = int(S[0]["explore_tile"])
    for a in legal(S):
        side, rot = divmod(a - R.A_TURN, 6)
        assert R.placement_fit(S, 0, t, side, rot, 0, 1)[2]      # joined to a path
    act(S, legal(S)[0])
    assert int(S[0]["phase"]) == R.PH_ACTION and int(S[0]["hero_clearing"][0]) == MOUNTAINS_4


def gates(S, *clearings):
    """Reveal Gate tokens in ``clearings``."""
    s = S[0]
    ids = [w for w in range(NUM_WILD_TOKENS) if D.REALM.wilderness_tokens[WILD_TOKENS[w]].kind == "gate"]
    for w, c in zip(ids, clearings):
        s["wild_where"][w] = TOK_PLACED
        s["wild_tile"][w] = c // 6
        s["wild_clearing"][w] = c


def test_dd_move_gate_1_revealed_gates_are_connected():
    """L479: once two or more Gates are revealed, a hero may travel between
    any two of them as if joined by a path; one Gate alone joins nothing."""
    S = at(PLAINS_3)
    gates(S, PLAINS_3)
    assert R.A_CLEARING + PLAINS_1 in legal(S) and R.A_CLEARING + MOUNTAINS_4 in legal(S)   # paths 1-3, 3-4
    assert sorted(a - R.A_CLEARING for a in legal(S) if R.A_CLEARING <= a < R.A_DO) == [PLAINS_1, CAVE_2, MOUNTAINS_4]
    S = at(PLAINS_1)
    gates(S, PLAINS_1, MOUNTAINS_4)                           # no path 1-4 on Deepdelve side 1
    assert R.A_CLEARING + MOUNTAINS_4 in legal(S)


def test_dd_move_gate_2_gate_move_costs_by_the_clearing_entered():
    """L479: the clearing entered decides the cost of a Gate move: into the
    Mountain Clearing, two actions."""
    S = at(PLAINS_1)
    gates(S, PLAINS_1, MOUNTAINS_4)
    act(S, R.A_CLEARING + MOUNTAINS_4)
    assert used(S) == 2 and int(S[0]["hero_clearing"][0]) == MOUNTAINS_4
