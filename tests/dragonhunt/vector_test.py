"""Dragonhunt through the vector API (dragongym.make_vec) and its fused kernels
(envs/dragonhunt/vector_kernels.py)."""
import numpy as np
import pytest

import dragongym
from dragongym.envs.core.game import IllegalActionError
from dragongym.envs.core.rng import seed_sequence
from dragongym.envs.core.vector import next_seeds
from dragongym.envs.dragonhunt.game import GAME

STEPS = 150


def pick(venv, rngs):
    """Game b's action from its own generator, so its choices depend on it alone."""
    acts = np.empty(venv.num_envs, dtype=np.int32)
    for b in range(venv.num_envs):
        acts[b] = rngs[b].choice(np.flatnonzero(venv.masks[b]))
    return acts


def trajectories(seeds, steps=STEPS, **kw):
    """Per game: hash of (state, mask, obs, rewards) after every step, and final rewards."""
    kw.setdefault("max_hands", 1)
    venv = dragongym.make_vec("dragonhunt", len(seeds), **kw)
    venv.reset(seeds=seeds)
    rngs = [np.random.default_rng(int(s) % 100_003) for s in seeds]
    hist = [[] for _ in seeds]
    finals = [[] for _ in seeds]
    for _ in range(steps):
        obs, mask, rewards, term, trunc, to_play, info = venv.step(pick(venv, rngs))
        for b in range(len(seeds)):
            parts = [venv.states[b:b + 1].tobytes(), mask[b].tobytes(), rewards[b].tobytes(),
                     bytes([int(to_play[b]) & 255])]
            if obs is not None:
                parts.append(obs[b].tobytes())
            hist[b].append(hash(b"".join(parts)))
        for k, b in enumerate(info.get("done_index", [])):
            finals[b].append((info["final_rewards"][k].tobytes(), int(info["final_status"][k])))
    return hist, finals, venv


def test_trajectory_same_at_any_batch_size_position_and_thread_count():
    seeds = seed_sequence(42, 5)
    h5, f5, _ = trajectories(seeds)
    assert sum(len(f) for f in f5) > 0, "no game ended: auto-reset untested"
    order = [3, 0, 4, 2, 1]
    hp, fp, _ = trajectories(seeds[order])
    for pos, i in enumerate(order):
        assert hp[pos] == h5[i] and fp[pos] == f5[i]
    h1, f1, _ = trajectories(seeds[2:3])
    assert h1[0] == h5[2] and f1[0] == f5[2]
    # the parallel kernel gives the same bytes
    hpar, fpar, venv = trajectories(seeds, num_threads=2, parallel_threshold=1)
    assert venv.parallel
    assert hpar == h5 and fpar == f5


def test_make_vec_seeds_do_not_depend_on_batch_size():
    a = dragongym.make_vec("dragonhunt", 3, seed=5, max_hands=1)
    b = dragongym.make_vec("dragonhunt", 9, seed=5, max_hands=1)
    a.reset()
    b.reset()
    assert a.states[:3].tobytes() == b.states[:3].tobytes()


def test_auto_reset_final_obs_and_rewards():
    venv = dragongym.make_vec("dragonhunt", 16, seed=3, max_hands=1, num_players=3)
    obs, mask, to_play = venv.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(3000):
        seeds_before = venv.states["seed"].copy()
        obs, mask, rewards, term, trunc, to_play, info = venv.step(venv.sample_actions(rng))
        if not info:
            assert (rewards == 0).all()
            continue
        idx = info["done_index"]
        assert np.array_equal(idx, np.flatnonzero(term | trunc))
        fs = info["final_state"]
        assert (fs["status"] > 0).all() and np.array_equal(fs["seed"], seeds_before[idx])
        assert np.array_equal(venv.states["seed"][idx], next_seeds(seeds_before[idx]))
        assert (venv.states["status"][idx] == 0).all()
        for k, b in enumerate(idx):
            assert np.array_equal(rewards[b], info["final_rewards"][k])
            assert np.array_equal(rewards[b], fs["rewards"][k, :3])
            assert np.isclose(rewards[b].sum(), 0, atol=1e-6)
            for p in range(3):
                assert np.array_equal(info["final_obs"][k, p], GAME.observation_of(fs[k:k + 1], p))
            # the restarted row is its new game's start
            assert np.array_equal(mask[b], GAME.mask_of(venv.states[b:b + 1]))
            assert np.array_equal(obs[b], GAME.observation_of(venv.states[b:b + 1], int(to_play[b])))
        ended += len(idx)
        if ended >= 20:
            break
    assert ended >= 20
    # the buffers always describe running games
    for b in range(16):
        assert np.array_equal(mask[b], GAME.mask_of(venv.states[b:b + 1]))
        assert mask[b].sum() == venv.counts[b] > 0


def test_observations_false_matches_rules():
    seeds = seed_sequence(8, 4)
    h_obs, f_obs, v1 = trajectories(seeds, steps=60)
    h_no, f_no, v2 = trajectories(seeds, steps=60, observations=False)
    assert v2.obs is None
    assert v1.states.tobytes() == v2.states.tobytes() and f_obs == f_no


def test_clone_restore():
    venv = dragongym.make_vec("dragonhunt", 6, seed=1, max_hands=1)
    venv.reset()
    rng = np.random.default_rng(2)
    for _ in range(10):
        venv.step(venv.sample_actions(rng))
    snap = venv.clone()
    game3 = venv.clone_game(3)
    acts, want = [], []
    for _ in range(40):
        acts.append(venv.sample_actions(rng).copy())
        venv.step(acts[-1])
        want.append((venv.states.tobytes(), venv.obs.copy(), venv.rewards.copy()))
    venv.restore(snap)
    for a, (s, o, r) in zip(acts, want):
        venv.step(a)
        assert venv.states.tobytes() == s and np.array_equal(venv.obs, o) and np.array_equal(venv.rewards, r)
    venv.restore_game(3, game3)
    assert venv.states[3:4].tobytes() == game3.tobytes()
    assert np.array_equal(venv.masks[3], GAME.mask_of(game3))
    with pytest.raises(ValueError):
        venv.restore_game(0, np.zeros(1, dtype=np.float64))


def test_bad_input_is_rejected_before_any_game_moves():
    venv = dragongym.make_vec("dragonhunt", 4, seed=6, max_hands=1)
    venv.reset()
    rng = np.random.default_rng(0)
    venv.step(venv.sample_actions(rng))
    good = venv.sample_actions(rng).copy()
    before = (venv.states.tobytes(), venv.masks.copy(), venv.obs.copy(), venv.counts.copy())

    def unchanged():
        return (venv.states.tobytes() == before[0] and np.array_equal(venv.masks, before[1])
                and np.array_equal(venv.obs, before[2]) and np.array_equal(venv.counts, before[3]))

    with pytest.raises(ValueError, match="shape"):
        venv.step(good[:2])
    with pytest.raises(ValueError, match="integers"):
        venv.step(good.astype(np.float64))
    illegal = good.copy()
    illegal[2] = int(np.flatnonzero(venv.masks[2] == 0)[0])
    with pytest.raises(IllegalActionError, match="game 2"):
        venv.step(illegal)
    out_of_range = good.astype(np.int64)
    out_of_range[1] = 10**12
    with pytest.raises(IllegalActionError, match="game 1.*outside"):
        venv.step(out_of_range)
    assert unchanged()
    venv.step(good)   # still usable


def test_fused_kernel_rejects_illegal_rows_itself():
    """Game.vec_step checks each action against its mask row (errors, row untouched)."""
    S = GAME.new_states(3)
    GAME.reset(S, seed_sequence(0, 3), GAME.make_config(max_hands=1))
    masks = np.zeros((3, GAME.spec.num_actions), dtype=np.int8)
    GAME.legal_mask(S, masks)
    counts = masks.sum(1).astype(np.int64)
    before = S.tobytes()
    acts = np.array([int(np.flatnonzero(masks[0] == 0)[0]), -1, GAME.spec.num_actions], dtype=np.int32)
    errors = np.zeros(3, dtype=np.int8)
    GAME.vec_step(S, acts, masks, counts, errors)
    assert errors[0] != 0 and errors[1] == 0 and errors[2] != 0
    assert S.tobytes() == before
