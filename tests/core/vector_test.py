"""The generic vector API (dragongym.envs.core.vector), on the pure-Python toy game
(its Game.vec_step is the base-class default built from step + legal_mask)."""
import numpy as np
import pytest

import dragongym
from dragongym.envs.core.game import IllegalActionError
from dragongym.envs.core.rng import seed_sequence
from dragongym.envs.core.vector import VecGameEnv, next_seeds
from tests.core.toygame import GAME


def make(num_envs=8, **kw):
    kw.setdefault("num_players", 3)
    return VecGameEnv(GAME, num_envs, **kw)


def policy_actions(venv, rngs):
    """Each game picks from its own generator: a trajectory depends on the game only."""
    acts = np.empty(venv.num_envs, dtype=np.int64)
    for b in range(venv.num_envs):
        acts[b] = rngs[b].choice(np.flatnonzero(venv.masks[b]))
    return acts


def run(venv, rngs, steps):
    """Per game: list of (state bytes after each step) and its finished-episode rewards."""
    hist = [[] for _ in range(venv.num_envs)]
    finals = [[] for _ in range(venv.num_envs)]
    for _ in range(steps):
        _, _, rewards, term, trunc, _, info = venv.step(policy_actions(venv, rngs))
        for b in range(venv.num_envs):
            hist[b].append(venv.states[b:b + 1].tobytes())
        for k, b in enumerate(info.get("done_index", [])):
            finals[b].append(info["final_rewards"][k].tobytes())
            assert np.array_equal(rewards[b], info["final_rewards"][k])
    return hist, finals


def test_shapes_and_dtypes():
    venv = make(5)
    obs, mask, to_play = venv.reset()
    assert obs.shape == (5, GAME.spec.obs_size) and obs.dtype == np.float32
    assert mask.shape == (5, GAME.spec.num_actions) and mask.dtype == np.int8
    assert to_play.shape == (5,) and (to_play == 0).all()
    out = venv.step(venv.sample_actions(np.random.default_rng(0)))
    obs2, mask2, rewards, term, trunc, to_play2, info = out
    assert obs2 is obs and mask2 is mask and to_play2 is to_play   # buffers reused
    assert rewards.shape == (5, 3) and term.dtype == bool and trunc.dtype == bool
    assert (to_play == 1).all()


def test_seeds_and_make_vec(race):
    venv = dragongym.make_vec(race, 4, seed=7, num_players=2)
    venv.reset()
    assert np.array_equal(venv.states["seed"], seed_sequence(7, 4))


def test_trajectory_independent_of_batch_size_and_position():
    seeds = seed_sequence(3, 6)
    big = make(6)
    big.reset(seeds=seeds)
    hist_big, fin_big = run(big, [np.random.default_rng(int(s) % 1000) for s in seeds], 40)
    # the same games alone, and in another order
    order = [4, 1, 5, 0, 3, 2]
    small = make(6)
    small.reset(seeds=seeds[order])
    hist_perm, fin_perm = run(small, [np.random.default_rng(int(seeds[i]) % 1000) for i in order], 40)
    for pos, i in enumerate(order):
        assert hist_perm[pos] == hist_big[i]
        assert fin_perm[pos] == fin_big[i]
    alone = make(1)
    alone.reset(seeds=seeds[2:3])
    hist_1, _ = run(alone, [np.random.default_rng(int(seeds[2]) % 1000)], 40)
    assert hist_1[0] == hist_big[2]
    assert any(len(f) > 0 for f in fin_big)   # some games finished and restarted


def test_auto_reset_final_info():
    venv = make(16, max_turns=3)   # every game ends after 3 moves at the latest
    venv.reset(seed=1)
    seeds0 = venv.states["seed"].copy()
    rng = np.random.default_rng(0)
    seen = 0
    for _ in range(3):
        obs, mask, rewards, term, trunc, to_play, info = venv.step(venv.sample_actions(rng))
        if info:
            idx = info["done_index"]
            assert np.array_equal(idx, np.flatnonzero(term | trunc))
            assert info["final_obs"].shape == (len(idx), 3, GAME.spec.obs_size)
            assert (info["final_status"] > 0).all()
            assert np.array_equal(info["final_state"]["seed"], seeds0[idx])
            assert np.array_equal(venv.states["seed"][idx], next_seeds(seeds0[idx]))
            # restarted rows are fresh games
            assert (venv.states["status"][idx] == 0).all() and (venv.states["turns"][idx] == 0).all()
            assert (to_play[idx] == 0).all() and (mask[idx].sum(1) > 0).all()
            for k, b in enumerate(idx):
                assert np.array_equal(rewards[b], info["final_rewards"][k])
                for p in range(3):
                    want = GAME.observation_of(info["final_state"][k:k + 1], p)
                    assert np.array_equal(info["final_obs"][k, p], want)
            seen += len(idx)
    assert seen == 16
    assert not (venv.states["status"] != 0).any()


def test_rewards_zero_sum_and_paid_once():
    venv = make(32)
    venv.reset(seed=5)
    rng = np.random.default_rng(1)
    total = np.zeros((32, 3))
    ends = 0
    for _ in range(60):
        _, _, rewards, term, trunc, _, info = venv.step(venv.sample_actions(rng))
        total += rewards
        ends += int(term.sum() + trunc.sum())
        assert np.allclose(rewards.sum(1), 0, atol=1e-6)
        assert (rewards[~(term | trunc)] == 0).all()
    assert ends > 0


def test_observations_false():
    venv = make(4, observations=False)
    obs, mask, to_play = venv.reset()
    assert obs is None
    obs, *_ , info = venv.step(venv.sample_actions(np.random.default_rng(0)))
    assert obs is None


def test_bad_input_leaves_batch_unchanged():
    venv = make(4)
    venv.reset(seed=2)
    venv.step(venv.sample_actions(np.random.default_rng(0)))
    before = venv.states.tobytes(), venv.masks.copy(), venv.obs.copy()
    good = venv.sample_actions(np.random.default_rng(1)).copy()
    with pytest.raises(ValueError, match="shape"):
        venv.step(good[:3])
    with pytest.raises(ValueError, match="integers"):
        venv.step(good.astype(np.float32))
    bad = good.copy()
    bad[2] = 7
    with pytest.raises(IllegalActionError, match="game 2"):
        venv.step(bad)
    venv.states["counter"][3] = 9          # only "add 1" is legal now
    venv._refresh_all()
    before = venv.states.tobytes(), venv.masks.copy(), venv.obs.copy()
    bad = good.copy()
    bad[3] = 2
    with pytest.raises(IllegalActionError, match="game 3"):
        venv.step(bad)
    assert venv.states.tobytes() == before[0]
    assert np.array_equal(venv.masks, before[1]) and np.array_equal(venv.obs, before[2])


def test_negative_action_skips_game():
    venv = make(3)
    venv.reset(seed=4)
    before = venv.states[1:2].tobytes()
    acts = venv.sample_actions(np.random.default_rng(0)).copy()
    acts[1] = -1
    venv.step(acts)
    assert venv.states[1:2].tobytes() == before
    assert venv.states["turns"][0] == 1 and venv.states["turns"][2] == 1


def test_clone_restore_batch_and_game():
    venv = make(5)
    venv.reset(seed=9)
    rng = np.random.default_rng(3)
    venv.step(venv.sample_actions(rng))
    snap = venv.clone()
    one = venv.clone_game(2)
    acts, outs = [], []
    for _ in range(6):
        acts.append(venv.sample_actions(rng).copy())
        venv.step(acts[-1])
        outs.append(venv.states.tobytes())
    venv.restore(snap)
    for a, want in zip(acts, outs):
        venv.step(a)
        assert venv.states.tobytes() == want
    venv.restore_game(2, one)
    assert venv.states[2:3].tobytes() == one.tobytes()
    assert np.array_equal(venv.masks[2], GAME.mask_of(one))
    assert np.array_equal(venv.obs[2], GAME.observation_of(one, int(one["to_play"][0])))
    with pytest.raises(IndexError):
        venv.clone_game(5)


def test_a_pickled_batch_auto_resets_into_its_own_states():
    import pickle

    venv = make(4)
    venv.reset()
    copy = pickle.loads(pickle.dumps(venv))
    rngs_a = [np.random.default_rng(b) for b in range(4)]
    rngs_b = [np.random.default_rng(b) for b in range(4)]
    ha, fa = run(venv, rngs_a, 40)
    hb, fb = run(copy, rngs_b, 40)
    assert any(fa), "no game ended: auto-reset untested"
    assert ha == hb and fa == fb
