"""The Dragonhunt environment as a whole: PettingZoo conformance, determinism
(compiled vs pure Python, alone vs in a batch), a random-play fuzz with
invariants checked at every step, hidden information and bad input."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import dragongym
from dragongym.envs.core.game import IllegalActionError
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt import observe as O
from dragongym.envs.dragonhunt.game import GAME
from dragongym.envs.dragonhunt.invariants import fuzz, check_state, INVARIANT_NAMES
from dragongym.envs.dragonhunt.state import STATE_DTYPE
from tests.dragonhunt.trajectory import play

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_compiled_and_pure_python_trajectories_are_byte_identical():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=ROOT)
    # pure Python wraps the RNG's uint64 arithmetic with numpy's overflow warning, on purpose
    out = subprocess.run([sys.executable, "-W", "ignore:overflow encountered in scalar:RuntimeWarning",
                          "-m", "tests.dragonhunt.trajectory"],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-2000:]
    python_games = json.loads(out.stdout)
    compiled = [play(seed, n, 1, 400) for seed, n in ((11, 2), (12, 3), (13, 6))]
    assert [len(g) for g in compiled] == [len(g) for g in python_games]
    assert compiled == python_games


def test_a_game_is_the_same_alone_and_inside_a_batch_of_64():
    alone = play(777, 3, 1, 300)
    batch = np.zeros(64, dtype=STATE_DTYPE)
    # fill the batch with other games first, so its neighbours differ
    for i in range(64):
        R.reset_game(batch, i, np.uint64(1000 + i), 2 + i % 5, 1, 1)
    inside = play(777, 3, 1, 300, states=batch, index=41)
    assert inside == alone


def test_batched_step_equals_one_by_one():
    B = 64
    seeds = np.arange(B, dtype=np.uint64) * 7 + 3
    batch = GAME.new_states(B)
    GAME.reset(batch, seeds, GAME.make_config(num_players=3, max_hands=1))
    single = GAME.new_states(B)
    GAME.reset(single, seeds, GAME.make_config(num_players=3, max_hands=1))
    rng = np.random.default_rng(5)
    masks = np.zeros((B, GAME.spec.num_actions), dtype=np.int8)
    errors = np.zeros(B, dtype=np.int8)
    for _ in range(120):
        GAME.legal_mask(batch, masks)
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else -1 for m in masks], dtype=np.int32)
        GAME.step(batch, actions, errors)
        assert not errors.any()
        for b in range(B):
            GAME.step(single[b:b + 1], actions[b:b + 1], errors[b:b + 1])
        assert batch.tobytes() == single.tobytes()


def test_random_play_2000_games_keeps_every_invariant():
    """2,000 complete games (400 each for 2..6 players, two hands each): every
    position sound, every mask non-empty, one illegal action per step rejected
    with the record's bytes unchanged, every legal action accepted."""
    total = 0
    for players in range(2, 7):
        S = np.zeros(400, dtype=STATE_DTYPE)
        seeds = np.arange(400, dtype=np.uint64) + np.uint64(100_000 * players)
        decisions, code, game = fuzz(S, seeds, players, 2, np.uint64(players), 100_000)
        assert code == 0, f"{players} players, game {game}: {INVARIANT_NAMES.get(code, code)}"
        assert (S["status"] != 0).all()
        total += decisions
    assert total > 100_000


def test_illegal_action_raises_clear_error_and_leaves_state_unchanged():
    env = dragongym.make("dragonhunt", num_players=2)
    env.reset(seed=4)
    before = env.state_record.tobytes()
    obs = env.observe(env.agent_selection)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError, match="not a legal action"):
        env.step(bad)
    assert env.state_record.tobytes() == before
    with pytest.raises(Exception):
        env.step(GAME.spec.num_actions + 5)
    assert env.state_record.tobytes() == before


@pytest.mark.parametrize("bad", [dict(num_players=1), dict(num_players=7), dict(max_hands=0),
                                 dict(colour="red")])
def test_bad_config_is_rejected_with_a_message(bad):
    with pytest.raises(ValueError, match="dragonhunt"):
        GAME.make_config(**bad)


def _to_card_segment(seed=3):
    S = np.zeros(1, dtype=STATE_DTYPE)
    R.reset_game(S, 0, np.uint64(seed), 3, 2, 1)
    rng = np.random.default_rng(seed)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    while not (S[0]["phase"] == R.PH_CARD and S[0]["to_play"] == 0):
        R.fill_mask(S, 0, mask)
        R.apply_action(S, 0, int(rng.choice(np.flatnonzero(mask))), mask)
    return S


def test_face_down_cards_are_hidden_until_revealed():
    """9.11: a card laid face down is not in the other players' observations."""
    S = _to_card_segment()
    a, b = S.copy(), S.copy()
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    R.apply_action(a, 0, R.A_CARD0 + 0, mask)
    R.apply_action(b, 0, R.A_CARD0 + 5, mask)
    assert a.tobytes() != b.tobytes()
    for seat in (1, 2):
        assert np.array_equal(GAME.observation_of(a, seat), GAME.observation_of(b, seat))
    # the player himself sees his own card
    assert not np.array_equal(GAME.observation_of(a, 0), GAME.observation_of(b, 0))


def test_observation_is_from_the_observers_seat():
    S = _to_card_segment()
    off, shape = O.LAYOUT["board"]
    for seat in range(3):
        board = GAME.observation_of(S, seat)[off:off + np.prod(shape)].reshape(shape)
        mine = board[:, O.P_MY_UNITS:O.P_MY_UNITS + 4].sum() * 4
        on_board = sum(1 for u in range(seat * 39, seat * 39 + 39) if S[0]["unit_loc"][u] >= 0)
        assert round(mine) == on_board


def test_observation_values_stay_within_declared_bounds():
    S = _to_card_segment()
    lo, hi = GAME.obs_bounds
    for seat in range(3):
        o = GAME.observation_of(S, seat)
        assert o.dtype == np.float32 and o.shape == (GAME.spec.obs_size,)
        assert o.min() >= lo and o.max() <= hi


def test_action_strings_name_legal_actions_uniquely():
    S = _to_card_segment()
    rng = np.random.default_rng(0)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    for _ in range(200):
        if S[0]["status"] != 0:
            break
        R.fill_mask(S, 0, mask)
        legal = np.flatnonzero(mask)
        names = [GAME.action_to_string(S, int(a)) for a in legal]
        assert len(set(names)) == len(names)
        for a, text in zip(legal, names):
            assert GAME.string_to_action(S, text) == a
        R.apply_action(S, 0, int(rng.choice(legal)), mask)
        assert check_state(S, 0) == 0


def test_ansi_render_shows_the_board_and_whose_turn():
    env = dragongym.make("dragonhunt", num_players=2, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert "DR" in text and "to play: player_" in text
