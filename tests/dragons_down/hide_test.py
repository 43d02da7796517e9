"""Reactions and the Hide reaction (L591-L607) and the Hidden status
(L884-L890): who may hide and when, what it costs, and what ends it -- in the
Action Phase on Deepdelve (see actions_test.py) and in the Battle Phase on
Tri-Peaks (see activation_test.py and combat_test.py)."""
import numpy as np

from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import HST_BLOCKED, HST_HIDDEN, HST_NOISE, ST_COMBAT
from tests.dragons_down.actions_test import (
    NOT_HUMAN, PLAINS_1, PLAINS_3, act, deepdelve, load, put_monster, used,
)
from tests.dragons_down.activation_test import BLANK, MOON, ONE, battle, clearing
from tests.dragons_down.combat_test import (
    ARCHER, HIT, NO_SYMBOL, SYMBOL, chip, combat, place, start, target,
)
from tests.dragons_down import combat_test as CT
from tests.dragons_down.setup_test import legal

MONSTER, NOTHING = 0, 2                        # raw Monster Die faces
TRI_PEAKS_1, TRI_PEAKS_2 = clearing("tri_peaks", 1), clearing("tri_peaks", 2)


def hidden(S, p=0):
    return bool(int(S[0]["hero_status"][p]) & HST_HIDDEN)


def reaction(S, a):
    """Answer the pending reaction (legal) alone, without playing on into combat
    (``activation_test.battle``'s heroes are bare)."""
    assert a in legal(S)
    R.do_action(S, 0, a)


def blocked_on_plains_3(lineages=NOT_HUMAN, heroes=1):
    """The first hero to act has moved from Plains 1 into Plains 3, where a
    Goblin is: the block is posed (PH_BLOCK). Returns (S, that hero's seat)."""
    S = deepdelve(num_heroes=heroes, lineages=lineages)
    p = int(S[0]["to_play"])
    put_monster(S, "goblin", PLAINS_3)
    act(S, R.A_CLEARING + PLAINS_1)
    act(S, R.A_CLEARING + PLAINS_3)
    assert int(S[0]["phase"]) == R.PH_BLOCK and int(S[0]["to_play"]) == p
    return S, p


# ---------------------------------------------------------------- reactions (L591-L593)
def test_dd_reaction_1_one_reaction_per_trigger():
    """L591-L593: a reaction is taken out of turn, even out of the Action
    Phase, each time its trigger occurs -- once for that occurrence. The end
    of Monster Activation asks every hero with Monsters once, in Turn Order
    (L639): the first fails his hide and is not asked again; the second is
    asked in his turn. A block in the Action Phase gives one Hide reaction:
    failed, the block stands and the hero is asked nothing more."""
    S = battle(["tri_peaks"], [("knight", TRI_PEAKS_1), ("rogue", TRI_PEAKS_2)],
               monsters=[("giant", TRI_PEAKS_1), ("giant", TRI_PEAKS_2)], dice=[BLANK, ONE, MOON, ONE])
    R.advance(S, 0)
    assert (int(S[0]["phase"]), int(S[0]["to_play"])) == (R.PH_HIDE, 0)   # the Battle Phase: no one's turn
    load(S, MONSTER, NOTHING)
    reaction(S, R.A_DO + R.DO_HIDE)
    assert not hidden(S, 0)
    assert R.activation_round(S, 0)
    assert (int(S[0]["phase"]), int(S[0]["to_play"])) == (R.PH_HIDE, 1)   # the next hero, not a second try
    reaction(S, R.A_DO + R.DO_STAY)
    assert not R.activation_round(S, 0) and int(S[0]["stage"]) == ST_COMBAT
    S, p = blocked_on_plains_3(heroes=2)
    load(S, MONSTER, NOTHING)
    act(S, R.A_DO + R.DO_HIDE)
    assert int(S[0]["hero_status"][p]) & HST_BLOCKED and int(S[0]["to_play"]) == 1 - p


def test_dd_hide_1_blocked_hero_cannot_hide():
    """L595-L597, L459: only an unblocked hero may make a Hide reaction; a
    blocked one has lost his reactions for the turn. The Knight blocked by
    his own noise (L471) is offered no hide then, nor at the end of Monster
    Activation, where the unblocked Rogue beside the same Monsters is."""
    S = deepdelve(lineages=NOT_HUMAN)
    put_monster(S, "goblin", PLAINS_1)
    act(S, R.A_CLEARING + PLAINS_1)
    act(S, R.A_DO + R.DO_NOISE)
    assert int(S[0]["hero_status"][0]) & HST_BLOCKED and int(S[0]["phase"]) != R.PH_BLOCK
    S = battle(["tri_peaks"], [("knight", TRI_PEAKS_1), ("rogue", TRI_PEAKS_1)],
               monsters=[("giant", TRI_PEAKS_1)], dice=[BLANK, ONE, MOON, ONE])
    S[0]["hero_status"][0] = HST_BLOCKED | HST_NOISE
    R.advance(S, 0)
    assert (int(S[0]["phase"]), int(S[0]["to_play"])) == (R.PH_HIDE, 1)
    reaction(S, R.A_DO + R.DO_STAY)
    assert not R.activation_round(S, 0) and int(S[0]["stage"]) == ST_COMBAT   # the Knight was never asked


def test_dd_hide_5_hide_costs_no_action():
    """L603: the Hide reaction is free: the hero who hides against the block
    has spent only his move, and still has his other actions to take."""
    S, p = blocked_on_plains_3()
    before = used(S, p)
    left = R.actions_left(S, 0, p)
    load(S, NOTHING, NOTHING)
    act(S, R.A_DO + R.DO_HIDE)
    assert hidden(S, p) and used(S, p) == before == 1 and R.actions_left(S, 0, p) == left == 3
    for _ in range(3):
        assert int(S[0]["phase"]) == R.PH_ACTION
        act(S, R.A_DO + R.DO_SNEAK)
    assert used(S, p) == 4


def test_dd_hide_7_hidden_ends_on_move_noise_unhide_ambush_or_new_turn():
    """L607, L886: once hidden, a hero stays hidden -- through Sneak and
    Alert -- until he moves to a new clearing, makes noise, chooses to become
    unhidden (in the Battle Phase at the Challenge, L890), ambushes (and fails
    the Cleanup roll, Interpretations "Ambush and hiding"), or a new turn
    starts (L445). (Choosing to unhide in the Action Phase, L886: see
    DD-STATUS-HIDDEN-2.)"""
    S = deepdelve(lineages=NOT_HUMAN)
    act(S, R.A_CLEARING + PLAINS_1)
    S[0]["hero_status"][0] |= HST_HIDDEN
    act(S, R.A_DO + R.DO_SNEAK)
    act(S, R.A_DO + R.DO_ALERT)
    act(S, R.A_DO + R.DO_DONE)
    assert hidden(S)
    act(S, R.A_CLEARING + PLAINS_3)                          # moves: no longer hidden
    assert not hidden(S)
    S = deepdelve(lineages=NOT_HUMAN)
    act(S, R.A_CLEARING + PLAINS_1)
    S[0]["hero_status"][0] |= HST_HIDDEN
    act(S, R.A_DO + R.DO_NOISE)                              # makes noise
    assert not hidden(S)
    S[0]["hero_status"][0] |= HST_HIDDEN
    R.start_turn(S, 0)                                       # a new turn
    assert not hidden(S)
    S = start(combat([ARCHER + (HST_HIDDEN,)], monsters=[("ogre", TRI_PEAKS_1)]))
    CT.ask(S, R.PH_UNHIDE, 0)
    CT.act(S, R.A_DO + R.DO_UNHIDE)                          # chooses to be unhidden
    assert not hidden(S)
    for roll, stays in (((SYMBOL, NO_SYMBOL), False), ((NO_SYMBOL, NO_SYMBOL), True)):
        S = start(combat([ARCHER + (HST_HIDDEN,)], monsters=[("goblin", TRI_PEAKS_1)],
                         dice=[NO_SYMBOL, BLANK, HIT, *roll]))
        CT.act(S, R.A_DO + R.DO_STAY)
        target(S, 0, chip(S, "goblin"))
        place(S, 0, R.BOX_MIGHT)                             # he ambushes (and misses)
        assert hidden(S) == stays


def test_dd_move_basic_2_moving_ends_hidden():
    """L475, L886: a hidden hero who moves to a new clearing loses the hidden
    status -- by a path or stepping onto a tile he explored (L583); an
    Explore Action that leaves him where he is does not."""
    S = deepdelve(lineages=NOT_HUMAN)
    act(S, R.A_CLEARING + PLAINS_1)
    S[0]["hero_status"][0] |= HST_HIDDEN
    act(S, R.A_CLEARING + PLAINS_3)
    assert not hidden(S) and int(S[0]["hero_clearing"][0]) == PLAINS_3
    for step_in in (False, True):
        S = deepdelve(lineages=NOT_HUMAN)
        act(S, R.A_CLEARING + PLAINS_1)
        S[0]["hero_status"][0] |= HST_HIDDEN
        act(S, R.A_EXPLORE + 0)                              # north, off clearing 1
        act(S, legal(S)[0])
        assert int(S[0]["phase"]) == R.PH_EXPLORE_ENTER
        entries = [a for a in legal(S) if R.A_CLEARING <= a < R.A_DO]
        act(S, entries[0] if step_in else R.A_DO + R.DO_STAY)
        assert hidden(S) != step_in and (int(S[0]["hero_clearing"][0]) != PLAINS_1) == step_in


def test_dd_status_hidden_1_hidden_hero_keeps_acting():
    """L884-L886: a hidden hero takes actions in his clearing as normal,
    including when he hid in the middle of his turn: hidden against the
    Goblin's block in Plains 3, he has every action he would have there with
    no Monster about, and the Goblin blocks none of them (L457)."""
    S, p = blocked_on_plains_3()
    load(S, NOTHING, NOTHING)
    act(S, R.A_DO + R.DO_HIDE)
    assert hidden(S, p) and int(S[0]["phase"]) == R.PH_ACTION
    T = S.copy()
    T[0]["hero_status"][p] &= np.uint8(0xFF ^ HST_HIDDEN)
    T[0]["mon_clearing"][T[0]["mon_clearing"] == PLAINS_3] = -1
    assert [a for a in legal(S) if a != R.A_DO + R.DO_UNHIDE] == legal(T)   # and he may reveal himself (L886)
    act(S, R.A_DO + R.DO_SNEAK)
    act(S, R.A_DO + R.DO_ALERT)
    act(S, R.A_DO + R.DO_DONE)
    assert hidden(S, p) and used(S, p) == 3 and not int(S[0]["hero_status"][p]) & HST_BLOCKED
