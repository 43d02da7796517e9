"""The sequence of play (L424-L439, L447-L451, L609-L611): a turn is an Action
Phase -- the heroes in the order their Targeting Tokens are drawn, each
taking all his actions -- then a Battle Phase of Monster Activation and
Combat; the Move Action (L473-L481); and the Golden Rule (L216), which every
part's dice follow. Played through the driver (``rules/driver.py``) from
positions built by hand at the start of a turn."""
import numpy as np

from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    HST_EVADED, HST_SNEAK, ST_ACTIVATION, ST_COMBAT, ST_TURN_START, ST_TURNS,
)
from tests.dragons_down.actions_test import (
    CAVE_2, MOUNTAINS_4, NOT_HUMAN, PLAINS_1, PLAINS_3, deepdelve, moves, used,
)
from tests.dragons_down.activation_test import BLANK, EYE, MOON, ONE, RETURN, at
from tests.dragons_down.combat_test import (
    HIT, EQUAL, TRI_PEAKS_1, act, ask, chip, clearing, combat, load,
)
from tests.dragons_down.explore_test import gates
from tests.dragons_down.setup_test import legal

TRI_PEAKS_2, TRI_PEAKS_3 = clearing("tri_peaks", 2), clearing("tri_peaks", 3)
QUIET = [BLANK, ONE, MOON, ONE]
"""Summoning Dice (raw faces) that bring nothing to Tri-Peaks."""


def turn_start(heroes, monsters=(), tiles=("tri_peaks",), dice=()):
    """``combat_test.combat``'s heroes and monsters, at the start of the
    game's first turn instead (its Targeting Tokens not yet drawn)."""
    S = combat(heroes, monsters=monsters, tiles=tiles, dice=dice)
    S[0]["turn"] = 0
    S[0]["stage"] = ST_TURN_START
    return S


def summoned(S):
    """The Summoning Dice have been rolled this turn (the Battle Phase has begun)."""
    return bool(S[0]["summon_dice"].any()) or int(S[0]["stage"]) >= ST_ACTIVATION


# ---------------------------------------------------------------- the turn (L424-L439)
def test_dd_play_1_turn_is_an_action_phase_then_a_battle_phase():
    """L424-L426: each turn is an Action Phase followed by a Battle Phase:
    the Knight takes his actions with no Summoning Die rolled yet; once he
    passes, the dice are rolled and his clearing's combat is fought (its two
    quiet rounds, L781); only then does the next turn's Action Phase begin."""
    S = turn_start([("halfling", "knight", TRI_PEAKS_2)], dice=[5, 3, 5, 3])
    s = S[0]
    R.advance(S, 0)
    assert (int(s["turn"]), int(s["stage"]), int(s["phase"])) == (1, ST_TURNS, R.PH_ACTION)
    assert int(s["loaded_pos"]) == 0 and not s["summon_dice"].any()
    act(S, R.A_DO + R.DO_SNEAK)
    assert int(s["stage"]) == ST_TURNS and int(s["loaded_pos"]) == 0
    act(S, R.A_DO + R.DO_PASS)
    assert int(s["loaded_pos"]) == 4 and list(s["summon_dice"]) == [5, 3, 5, 3]   # Monster Activation
    ask(S, R.PH_ADJUST, 0)                                   # Combat: the Cleanup of round 1
    assert int(s["stage"]) == ST_COMBAT and int(s["turn"]) == 1
    act(S, R.A_DO + R.DO_DONE)
    act(S, R.A_DO + R.DO_DONE)
    assert (int(s["turn"]), int(s["stage"]), int(s["phase"])) == (2, ST_TURNS, R.PH_ACTION)
    assert not int(s["hero_status"][0]) & HST_SNEAK          # a new turn: statuses cleared (L445)


def test_dd_play_3_battle_phase_is_activation_then_combat():
    """L436-L439: the Battle Phase is Monster Activation, then Combat: the
    dice summon a Giant to the Knight's clearing, the Hide reaction closes
    the activation (L639), and then the combat in his clearing begins with
    the Giant, summoned this turn, challenging him (L688)."""
    S = turn_start([("halfling", "knight", TRI_PEAKS_1)], dice=[BLANK, ONE, EYE, ONE])
    s = S[0]
    R.advance(S, 0)
    assert at(S, TRI_PEAKS_1) == []
    act(S, R.A_DO + R.DO_PASS)
    assert at(S, TRI_PEAKS_1) == ["giant"]
    ask(S, R.PH_HIDE, 0)
    assert int(s["stage"]) == ST_ACTIVATION and int(s["combat_step"]) == 0
    act(S, R.A_DO + R.DO_STAY)
    assert int(s["stage"]) == ST_COMBAT and int(s["combat_clearing"]) == TRI_PEAKS_1
    assert int(s["foe_target"][chip(S, "giant")]) == 0


# ---------------------------------------------------------------- the order of the heroes (L449)
def test_dd_action_order_2_draw_order_is_the_turn_order():
    """L449 (Interpretations, "Turn Order"): the order in which the Targeting
    Tokens are drawn is the turn's Turn Order, the first drawn its start
    player: drawn second-seat-first, the second seat acts first, and in the
    Battle Phase the Monsters of the tile move to his clearing, "the Hero
    earliest in the Turn Order" (L623), and he is asked first to hide. Drawn
    the other way, all of it goes the other way."""
    for raw, first in ((0, 1), (1, 0)):
        S = turn_start([("halfling", "knight", TRI_PEAKS_1), ("halfling", "rogue", TRI_PEAKS_2)],
                       monsters=[("giant", TRI_PEAKS_3)], dice=[raw, RETURN, ONE, MOON, ONE])
        s = S[0]
        R.advance(S, 0)
        assert [int(x) for x in s["turn_order"][:2]] == [first, 1 - first]
        assert int(s["to_play"]) == first
        act(S, R.A_DO + R.DO_PASS)
        assert int(s["to_play"]) == 1 - first and int(s["phase"]) == R.PH_ACTION
        act(S, R.A_DO + R.DO_PASS)
        assert at(S, int(s["hero_clearing"][first])) == ["giant"]
        ask(S, R.PH_HIDE, first)


def test_dd_action_limit_2_the_same_action_may_repeat():
    """L451: actions can be taken in any order and the same action any
    number of times: Sneak, Move, Sneak, Move; or four Moves back and forth
    between Plains 1 and Plains 3 -- each legal when taken, four in all."""
    S = deepdelve(lineages=NOT_HUMAN)
    act(S, R.A_CLEARING + PLAINS_1)
    for a in (R.A_DO + R.DO_SNEAK, R.A_CLEARING + PLAINS_3, R.A_DO + R.DO_SNEAK):
        act(S, a)
    assert used(S) == 3
    act(S, R.A_CLEARING + PLAINS_1)
    assert int(S[0]["turn"]) > 1 or int(S[0]["stage"]) > ST_TURNS
    S = deepdelve(lineages=NOT_HUMAN)
    act(S, R.A_CLEARING + PLAINS_1)
    for k, c in enumerate((PLAINS_3, PLAINS_1, PLAINS_3)):
        act(S, R.A_CLEARING + c)
        assert used(S) == k + 1 and int(S[0]["hero_clearing"][0]) == c
    assert R.A_CLEARING + PLAINS_1 in legal(S)               # the fourth time


def test_dd_turnend_1_battle_phase_follows_the_last_hero():
    """L609-L611: once a hero has completed his actions -- four, or a Pass --
    play passes to the next hero; once all have acted, the Action Phase ends
    and the Battle Phase begins (the Summoning Dice are rolled)."""
    S = turn_start([("halfling", "knight", TRI_PEAKS_2), ("halfling", "rogue", TRI_PEAKS_2)],
                   dice=[1] + QUIET)                         # the draw: the Knight first
    s = S[0]
    R.advance(S, 0)
    assert int(s["to_play"]) == 0
    for k in range(4):
        assert int(s["to_play"]) == 0 and not summoned(S)
        act(S, R.A_DO + R.DO_SNEAK)
    assert int(s["to_play"]) == 1 and int(s["phase"]) == R.PH_ACTION and not summoned(S)
    act(S, R.A_DO + R.DO_SNEAK)
    assert not summoned(S)
    act(S, R.A_DO + R.DO_PASS)                               # the last hero is done
    assert summoned(S) and int(s["loaded_pos"]) == 5


# ---------------------------------------------------------------- Move (L473-L481)
def test_dd_move_basic_1_moves_by_paths_gates_and_own_found_hidden_paths():
    """L473-L475: a Move goes to an adjacent clearing joined by a path, a
    Gate, or a Hidden Path the hero has discovered (L515) -- not one another
    hero found. Deepdelve side 1: paths 1-2, 2-3, 3-4, 1-3; Hidden Path 2-4."""
    S = deepdelve(num_heroes=2, lineages=NOT_HUMAN)
    p = int(S[0]["to_play"])
    q = 1 - p
    act(S, R.A_CLEARING + CAVE_2)
    assert moves(S) == [PLAINS_1, PLAINS_3]                  # the paths only
    S[0]["hero_clearing"][q], S[0]["hero_state"][q] = CAVE_2, R.HS_ACTIVE
    S[0]["hidden_found"][p, R.hidden_index(S, 0, CAVE_2 // 6, 0)] = 1
    assert moves(S) == [PLAINS_1, PLAINS_3, MOUNTAINS_4]     # his Hidden Path, as a path
    out = np.zeros(32, dtype=np.int64)
    assert sorted(int(c) for c in out[:R.move_targets(S, 0, q, out)]) == [PLAINS_1, PLAINS_3]
    S = deepdelve(lineages=NOT_HUMAN)
    act(S, R.A_CLEARING + PLAINS_1)
    assert MOUNTAINS_4 not in moves(S)
    gates(S, PLAINS_1, MOUNTAINS_4)
    assert moves(S) == [CAVE_2, PLAINS_3, MOUNTAINS_4]       # Gate to Gate (L479)


def test_dd_move_evaded_2_evading_out_of_a_cave_still_costs_an_action():
    """L481: a hero who evaded out of a Cave Clearing still loses one action
    that turn, though he evaded towards a non-Cave Clearing: the evader
    stands on the path out of Deepdelve's cave and begins his turn there
    having lost the action (L455), then must move to Plains 1 (L703). One who
    evaded out of Plains 3 loses nothing."""
    for start, lost in ((CAVE_2, 1), (PLAINS_3, 0)):
        S = turn_start([("halfling", "knight", start, HST_EVADED)], tiles=("deepdelve",))
        S[0]["evade_to"][0] = PLAINS_1
        R.advance(S, 0)
        assert used(S) == lost and legal(S) == [R.A_CLEARING + PLAINS_1]
        act(S, R.A_CLEARING + PLAINS_1)
        assert used(S) == lost + 1 and not int(S[0]["hero_status"][0]) & HST_EVADED


# ---------------------------------------------------------------- the Golden Rule (L216)
def test_dd_comp_dice_2_two_dice_and_the_worse_face_counts():
    """L216: two dice are rolled and the least favourable face counts, unless
    the rules say otherwise -- one Monster symbol fails a hide (L605), one
    blank fails a search (L511), the higher Loot Die is the place taken
    (L528), an equal sign beside a hit misses below equal speed (L740-L743);
    the better face of the two never decides. (A Dwarf: no Halfling reroll.)"""
    S = deepdelve(lineages=("dwarf",))
    act(S, R.A_CLEARING + PLAINS_1)
    symbol, blank = 0, 2                                     # raw Monster Die faces
    for dice, hidden in (((symbol, blank), False), ((blank, symbol), False), ((blank, blank), True)):
        T = S.copy()
        load(T, *dice)
        assert R.hide_roll(T, 0, 0, True) == hidden
    spyglass, nothing = 0, 3                                 # raw Search Die faces
    for dice, found in (((spyglass, nothing), False), ((nothing, spyglass), False), ((spyglass, spyglass), True)):
        T = S.copy()
        load(T, *dice)
        assert R.search_roll(T, 0, 0, 0) == found
    for dice in ((1, 4), (4, 1)):                            # Loot Dice 1 and 4: the fourth card
        T = S.copy()
        load(T, *dice)
        assert max(R.loot_die(T, 0), R.loot_die(T, 0)) == 4
    for dice, hit in (((HIT, EQUAL), False), ((EQUAL, HIT), False), ((HIT, HIT), True)):
        T = S.copy()
        load(T, *dice)
        assert R.roll_to_hit(T, 0, 1, 2) == hit              # speed 1 against maneuver 2
