"""Complete games of random legal play, checking the invariants after every
decision: every card, token and chip in one place, Hearts and cubes
consistent, equipment legal by weight and position (``fuzz_test.check``),
the record sound (``GAME.check_state``), the mask exact (a masked action is
refused and changes nothing), and every game ending with a valid outcome.
A third of the games play with no optional rule, a third with all of them
(L1128-L1170), a third with a random choice of them; some Legendary races
run to an agreed target (L166).

CI plays 200 games of every sandbox and hero count, a few turns each; set
``DRAGONGYM_LONG_FUZZ=1`` for the long run: 2,000 games of the rules' full
30 turns (about 55 minutes on one core). A second player never passes or says
'done' while anything else is legal, so a free act that could be repeated
without end would hold a turn open."""
import os

import numpy as np
import pytest

from dragongym.envs.core.outcome import ranking_problem
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import LEGEND_TARGET_DEFAULT, OPTIONAL_RULES, SB_EXPLORE, SB_LEGENDARY, SB_OPEN_REALM
from dragongym.envs.dragons_down.game import GAME
from dragongym.envs.dragons_down.state import STATE_DTYPE
from tests.core.stalling import play_stalling
from tests.dragons_down.fuzz_test import check

LONG = os.environ.get("DRAGONGYM_LONG_FUZZ") == "1"
GAMES = 2000 if LONG else 200
CONFIGS = [(n, sb) for n in (1, 2, 3, 4, 5, 6) for sb in (SB_OPEN_REALM, SB_EXPLORE, SB_LEGENDARY)]


def play_to_the_end(seed, num_heroes, sandbox, max_turns):
    """One complete game of random legal decisions; returns the decisions made."""
    rng = np.random.default_rng(seed)
    packs = int(rng.integers(1, 8))
    every = (1 << len(OPTIONAL_RULES)) - 1
    options = (0, every, int(rng.integers(0, every + 1)))[seed % 3]
    target = LEGEND_TARGET_DEFAULT if seed % 4 else int(rng.integers(1, 30))
    S = np.zeros(1, dtype=STATE_DTYPE)
    R.reset_game(S, 0, np.uint64(seed), num_heroes, sandbox, packs, max_turns,
                 SB_EXPLORE if seed % 2 else SB_OPEN_REALM, 1, int(seed % 3 == 0), options, target)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    decisions = 0
    while int(S[0]["status"]) == 0:
        m = R.fill_mask(S, 0, mask)
        assert m > 0, f"game {seed}: stage {int(S[0]['stage'])} phase {int(S[0]['phase'])} has no legal action"
        masked = np.flatnonzero(mask == 0)
        if len(masked):
            before = S.tobytes()
            assert R.apply_action(S, 0, int(rng.choice(masked)), np.zeros(R.NUM_ACTIONS, dtype=np.int8)) == R.E_ILLEGAL
            assert S.tobytes() == before, f"game {seed}: a refused action changed the game"
        a = int(rng.choice(np.flatnonzero(mask)))
        assert R.apply_action(S, 0, a, mask) == R.E_OK
        decisions += 1
        check(S)
        problem = GAME.check_state(S)
        assert not problem, f"game {seed}, decision {decisions}: {problem}"
    s = S[0]
    assert int(s["status"]) in (1, 2) and int(s["to_play"]) == -1
    assert not ranking_problem([int(r) for r in s["rank"][:num_heroes]])
    assert np.isfinite(s["rewards"]).all()
    return decisions


@pytest.mark.parametrize("chunk", range(10))
def test_random_games_to_their_end_keep_every_invariant(chunk):
    for g in range(chunk * GAMES // 10, (chunk + 1) * GAMES // 10):
        n, sb = CONFIGS[g % len(CONFIGS)]
        turns = 30 if LONG else 1 + g % 3
        assert play_to_the_end(1000 + g, n, sb, turns) > 0


# ================================================================ random play with the Dust always at hand
def test_random_games_with_a_dust_of_destiny_always_held_keep_every_invariant():
    """Random legal play where both Dust of Destiny cards are always held:
    whenever one is in its deck or out of the game, no roll pending, it is
    put in a random active hero's backpack. Every roll the Dust may wait on
    is then reached in turn (Hit Dice, Ranged Attack Dice, hides, noise,
    searches, ...); after every decision the record stays sound and the
    invariants hold, and every game ends (the Dust's scenarios are
    ``reroll_test``'s)."""
    from dragongym.envs.dragons_down.constants import CW_DECK, CW_HERO, CW_REMOVED, HS_ACTIVE, T_BACKPACK
    kinds = set()
    for g in range(40):
        n, sandbox = 1 + g % 4, (SB_OPEN_REALM, SB_EXPLORE, SB_LEGENDARY)[g % 3]
        rng = np.random.default_rng(5000 + g)
        every = (1 << len(OPTIONAL_RULES)) - 1
        S = np.zeros(1, dtype=STATE_DTYPE)
        R.reset_game(S, 0, np.uint64(5000 + g), n, sandbox, int(rng.integers(1, 8)), 2 + g % 4,
                     SB_EXPLORE if g % 2 else SB_OPEN_REALM, 1, int(g % 3 == 0), (0, every)[g % 2], 20)
        s = S[0]
        mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
        while int(s["status"]) == 0:
            heroes = [p for p in range(n) if int(s["hero_state"][p]) == HS_ACTIVE]
            for c in range(R.KIND_CARD_FIRST[R.DUST_OF_DESTINY], R.KIND_CARD_END[R.DUST_OF_DESTINY]):
                if int(s["card_where"][c]) in (CW_DECK, CW_REMOVED) and heroes and int(s["roll_kind"]) == R.ROLL_NONE:
                    s["card_where"][c], s["card_owner"][c], s["card_slot"][c] = CW_HERO, int(rng.choice(heroes)), T_BACKPACK
            assert R.fill_mask(S, 0, mask) > 0
            if int(s["phase"]) == R.PH_REROLL:
                kinds.add(int(s["roll_kind"]))
            assert R.apply_action(S, 0, int(rng.choice(np.flatnonzero(mask))), mask) == R.E_OK
            check(S)
            assert not GAME.check_state(S)
    assert {R.ROLL_STRUCK, R.ROLL_ATTACK, R.ROLL_RANGED, R.ROLL_HIDE, R.ROLL_NOISE} <= kinds


STALL_GAMES = 5 if LONG else 1


@pytest.mark.parametrize("num_heroes", (1, 2, 4))
@pytest.mark.parametrize("sandbox", ("open_realm", "explore_the_realm", "legendary"))
def test_a_player_who_never_passes_while_he_may_do_anything_else_still_ends_every_turn(num_heroes, sandbox):
    """Every turn is finite: each optional act (a move, a search, a swap's Gold
    put in and taken out, an equip) can be taken only so often, so heroes that
    pick at random among everything but 'pass' and 'done' still bring the game
    to its outcome before the decision limit (a Dragon Pass summons could be
    repeated without end until game version 11 of that game)."""
    config = GAME.make_config(num_players=num_heroes, sandbox=sandbox, max_turns=6)
    rng = np.random.default_rng(13)
    for g in range(STALL_GAMES):
        play_stalling(GAME, config, 5000 + g, rng, [R.A_DO + R.DO_DONE, R.A_DO + R.DO_PASS])
