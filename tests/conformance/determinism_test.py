"""A game is a pure function of its seed and its actions, wherever it runs:
compiled or pure Python, alone or in a batch, resumed from a snapshot or from
a pickle."""
import json
import os
import pickle
import re
import subprocess
import sys

import numpy as np
import pytest

from tests.conformance.cases import all_cases
from tests.conformance.play import decide, random_play, trajectory, vec_trajectory

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SEEDS = (1, 2)
MAX_STEPS = 200

PURE_PYTHON_WARNINGS = (
    # (category, message regex, file the warning must come from, reason)
    ("RuntimeWarning", r"overflow encountered in scalar (multiply|add)", "envs/core/rng.py",
     "the counter-based RNG wraps uint64 arithmetic on purpose; compiled code wraps silently, "
     "numpy scalars warn (pyproject.toml filterwarnings names the same)"),
)


@pytest.fixture(scope="module")
def pure_python():
    """Every case's trajectories played once in a subprocess with NUMBA_DISABLE_JIT=1:
    ``{(case id, seed): hashes}`` and the warnings that run emitted."""
    cases = all_cases()
    jobs = [[c.name, c.kwargs, seed, MAX_STEPS] for c in cases for seed in SEEDS]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=ROOT)
    done = subprocess.run([sys.executable, "-m", "tests.conformance.play", json.dumps(jobs)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout)
    keys = [(str(c), seed) for c in cases for seed in SEEDS]
    return dict(zip(keys, out["trajectories"])), out["warnings"]


def test_pure_python_run_warns_only_as_documented(pure_python):
    _, seen = pure_python
    bad = [w for w in seen
           if not any(w[0] == cat and re.match(msg, w[1]) and w[2].replace(os.sep, "/").endswith(where)
                      for cat, msg, where, _ in PURE_PYTHON_WARNINGS)]
    assert not bad, f"the pure-Python run warned: {bad}"


@pytest.mark.parametrize("seed", SEEDS)
def test_compiled_and_pure_python_trajectories_are_byte_identical(case, seed, pure_python):
    """Through the Game contract: state bytes, the mover's mask and every
    seat's observation, position by position; through the vector API (a batch
    of 4 with auto-reset, the game's fused kernels where it has them): every
    output, step by step."""
    python = pure_python[0][(str(case), seed)]
    compiled = {"game": trajectory(case.game, case.config, seed, MAX_STEPS),
                "vector": vec_trajectory(case.name, case.kwargs, seed, MAX_STEPS // 4)}
    for path in ("game", "vector"):
        assert len(compiled[path]) == len(python[path]), path
        first = next((i for i, (a, b) in enumerate(zip(compiled[path], python[path])) if a != b), None)
        assert first is None, f"{path}: compiled and pure Python part at step {first}"


def _alone(case, seed):
    """(state bytes, mask, observation of the mover) at every position of one game."""
    game = case.game
    out = []
    for state, mask in random_play(game, case.config, seed):
        mover = max(int(state[0]["to_play"]), 0)
        out.append((state.tobytes(), mask.copy(), game.observation_of(state, mover)))
    return out


@pytest.mark.parametrize("parallel", [False, True], ids=["serial", "parallel"])
def test_a_game_is_the_same_alone_and_inside_a_batch_of_64(case, parallel):
    """Row 41 of a batch of 64 other games (their own seeds and actions)
    replays the game played alone through the Game contract: state, mask and
    observation at every step, and its last position in ``info["final_state"]``.
    ``parallel`` steps the batch with the game's parallel kernel."""
    seed, row, B = 5, 41, 64
    alone = _alone(case, seed)
    venv = case.make_vec(B, num_threads=2 if parallel else 1, parallel_threshold=1 if parallel else 1024)
    seeds = np.arange(B, dtype=np.uint64) * np.uint64(7919) + np.uint64(1000)
    seeds[row] = seed
    venv.reset(seeds=seeds)
    mine = np.random.default_rng(seed)
    others = np.random.default_rng(12345)
    game, last = case.game, len(alone) - 1
    for t, (state_bytes, mask, obs) in enumerate(alone[:-1]):
        assert venv.states[row:row + 1].tobytes() == state_bytes, f"state differs at step {t}"
        assert np.array_equal(venv.masks[row], mask), f"mask differs at step {t}"
        assert np.array_equal(venv.obs[row], obs), f"observation differs at step {t}"
        actions = venv.sample_actions(others).copy()
        actions[row] = decide(mine, venv.masks[row])
        *_, info = venv.step(actions)
        done = list(info.get("done_index", ()))
        assert (row in done) == (t + 1 == last), f"step {t}: the batch and the game alone disagree on the end"
    # the game ended on the last step and the batch reset the row: its last
    # position is in info
    k = done.index(row)
    final = info["final_state"][k:k + 1]
    assert final.tobytes() == alone[-1][0]
    for seat in range(case.spec.num_seats):
        assert np.array_equal(info["final_obs"][k, seat], game.observation_of(final, seat))
    assert np.array_equal(info["final_rewards"][k], final["rewards"][0, :case.spec.num_seats])


def _play_aec(env, actions):
    """Apply ``actions`` (one per decision; None steps for finished agents are
    added) and return what the env showed after each."""
    seen = []
    for a in actions:
        while env.agents and (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
            env.step(None)
        env.step(a)
        seen.append(_aec_view(env))
    return seen


VIEW_FIELDS = ("state bytes", "agent_selection", "rewards", "cumulative rewards", "terminations",
               "truncations", "agents")


def _aec_view(env):
    return (env.state_record.tobytes(), env.agent_selection, dict(env.rewards),
            dict(env._cumulative_rewards), dict(env.terminations), dict(env.truncations),
            tuple(env.agents))


def _same_future(seen, expected, what):
    """Assert two lists of :func:`_aec_view` agree, naming the first difference."""
    for t, (a, b) in enumerate(zip(seen, expected)):
        for name, x, y in zip(VIEW_FIELDS, a, b):
            assert x == y, f"{what}: {name} differs {t} steps on: {x!r:.200} != {y!r:.200}"
    assert len(seen) == len(expected)


def _aec_game(case, seed):
    """The actions of one random AEC game from ``reset(seed=seed)`` and what followed each."""
    env = case.make()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = []
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        actions.append(decide(rng, obs["action_mask"]))
        env.step(actions[-1])
    env2 = case.make()
    env2.reset(seed=seed)
    return actions, _play_aec(env2, actions)


def test_aec_clone_and_restore_replay_the_same_future(case):
    seed = 3
    actions, reference = _aec_game(case, seed)
    k = len(actions) // 2
    env = case.make()
    env.reset(seed=seed)
    _play_aec(env, actions[:k])
    snapshot = env.clone_state()
    _same_future(_play_aec(env, actions[k:]), reference[k:], "after clone_state")
    env.restore_state(snapshot)
    assert env.agents == env.possible_agents
    _same_future(_play_aec(env, actions[k:]), reference[k:], "after restore_state")
    fresh = case.make()
    fresh.restore_state(snapshot)
    _same_future(_play_aec(fresh, actions[k:]), reference[k:], "a fresh env restored from the snapshot")
    env.restore_state(snapshot)
    live = env.state_record.tobytes()
    snapshot.view(np.uint8)[:] = 0
    assert env.state_record.tobytes() == live, "restore_state copies: the snapshot stays the caller's"


def _vec_run(venv, rng_seed, steps):
    rng = np.random.default_rng(rng_seed)
    out = []
    for _ in range(steps):
        obs, masks, rewards, term, trunc, to_play, info = venv.step(venv.sample_actions(rng))
        out.append((venv.states.tobytes(), obs.tobytes(), masks.tobytes(), rewards.tobytes(),
                    term.tobytes(), trunc.tobytes(), to_play.tobytes()))
    return out


def test_vec_clone_and_restore_replay_the_same_future(case):
    venv = case.make_vec(8, seed=4)
    venv.reset()
    _vec_run(venv, 0, 3)
    snapshot = venv.clone()
    first = _vec_run(venv, 1, 12)
    venv.restore(snapshot)
    assert _vec_run(venv, 1, 12) == first
    other = case.make_vec(8, seed=99)
    other.reset()
    other.restore(snapshot)
    assert _vec_run(other, 1, 12) == first, "another batch restored from the snapshot"


def test_vec_clone_game_and_restore_game_move_one_game(case):
    """Game 2 of one batch put into row 5 of another continues identically
    (state, mask, observation, rewards) under the same actions."""
    src = case.make_vec(8, seed=6)
    src.reset()
    _vec_run(src, 0, 3)
    record = src.clone_game(2)
    dst = case.make_vec(8, seed=77)
    dst.reset()
    dst.restore_game(5, record)
    assert dst.states[5:6].tobytes() == record.tobytes()
    assert np.array_equal(dst.masks[5], src.masks[2]) and np.array_equal(dst.obs[5], src.obs[2])
    rng = np.random.default_rng(8)
    for t in range(12):
        a = src.sample_actions(rng).copy()
        b = dst.sample_actions(rng).copy()
        b[5] = a[2]
        _, _, rs, *_ = src.step(a)
        rs = rs.copy()
        _, _, rd, *_ = dst.step(b)
        assert src.states[2:3].tobytes() == dst.states[5:6].tobytes(), f"step {t}"
        assert np.array_equal(rs[2], rd[5]) and np.array_equal(src.obs[2], dst.obs[5])


def test_a_state_record_pickles_byte_for_byte(case):
    for live, _ in random_play(case.game, case.config, 9, max_steps=3):
        state = live.copy()
    back = pickle.loads(pickle.dumps(state))
    assert back.dtype == state.dtype and back.shape == state.shape
    assert back.tobytes() == state.tobytes()
    assert case.game.check_state(back) == ""


def test_the_aec_env_pickles_mid_game(case):
    """A pickled env resumes where it was: the same record, rewards,
    terminations and agent selection under the same actions."""
    seed = 3
    actions, reference = _aec_game(case, seed)
    k = len(actions) // 2
    env = case.make()
    env.reset(seed=seed)
    _play_aec(env, actions[:k])
    copy = pickle.loads(pickle.dumps(env))
    _same_future([_aec_view(copy)], [_aec_view(env)], "just unpickled")
    _same_future(_play_aec(copy, actions[k:]), reference[k:], "unpickled")
