"""Bad input to the generic adapters gets a clear error and loses nothing:
vector actions of any integer width, seeds and counts that are not what they
say, calls out of order, restores of unsound records, and the game ended early
by PettingZoo's TerminateIllegalWrapper. On the toy games (no compiled code)."""
import numpy as np
import pytest
from pettingzoo.test import render_test
from pettingzoo.utils.wrappers import TerminateIllegalWrapper

import dragongym
from dragongym.envs.core.aec import GameAECEnv
from dragongym.envs.core.config import ConfigError
from dragongym.envs.core.game import IllegalActionError, InvalidStateError
from dragongym.envs.core.single_agent import SingleAgentEnv
from dragongym.envs.core.vector import VecGameEnv
from tests.core.toygame import GAME


def _vec(num_envs=4, **kw):
    kw.setdefault("num_players", 2)
    venv = VecGameEnv(GAME, num_envs, seed=1, **kw)
    venv.reset()
    return venv


def _batch(venv):
    return venv.states.tobytes(), venv.masks.tobytes(), venv.to_play.tobytes(), venv.obs.tobytes()


# ---------------------------------------------------------------- vector actions

def test_a_huge_uint64_action_is_refused_not_replaced_by_the_last_steps():
    venv = _vec()
    venv.step(np.array([0, 1, 2, 0], dtype=np.uint64))
    before = _batch(venv)
    actions = np.array([0, 0, 2**63, 0], dtype=np.uint64)
    with pytest.raises(IllegalActionError, match=r"game 2: action 9223372036854775808 outside 0\.\.2"):
        venv.step(actions)
    assert _batch(venv) == before, "no game may be stepped"
    with pytest.raises(IllegalActionError, match=r"game 0: action 18446744073709551615"):
        venv.step(np.full(4, 2**64 - 1, dtype=np.uint64))
    assert _batch(venv) == before


def test_a_negative_action_of_any_width_leaves_its_game_alone():
    venv = _vec()
    before = venv.states.copy()
    # -(2**32) + 1 would wrap to 1 ("add 2") if it were cast to int32
    actions = np.array([0, -(2**32) + 1, -1, -(2**63)], dtype=np.int64)
    venv.step(actions)
    assert venv.states[1:].tobytes() == before[1:].tobytes(), "games with negative actions moved"
    assert int(venv.states[0]["counter"]) >= 1, "game 0 was not stepped"
    for dtype in (np.int8, np.int16, np.int32):
        venv.step(np.array([-1, 0, -1, -1], dtype=dtype))
    assert int(venv.states[1]["counter"]) >= 1 and venv.states[2:].tobytes() == before[2:].tobytes()


@pytest.mark.parametrize("actions, words", [
    (np.zeros(4, dtype=np.float64), "integers, got dtype float64"),
    (np.zeros(4, dtype=bool), "integers, got dtype bool"),
    (np.zeros(3, dtype=np.int64), r"shape \(4,\), got \(3,\)"),
    (np.zeros((4, 1), dtype=np.int64), r"shape \(4,\), got \(4, 1\)"),
    (np.array(["0"] * 4), "integers"),
    (np.array([0, 1, None, 2], dtype=object), "integers, got dtype object"),
    (7, "integer array"),
])
def test_actions_of_the_wrong_kind_are_refused_before_any_game_moves(actions, words):
    venv = _vec()
    before = _batch(venv)
    with pytest.raises(ValueError, match=words) as err:
        venv.step(actions)
    assert "no game was stepped" in str(err.value)
    assert _batch(venv) == before


def test_an_illegal_action_names_its_game_and_value():
    venv = _vec()
    for _ in range(10):   # push counters up until "add 3" is masked out somewhere
        rows = np.flatnonzero(venv.masks[:, 2] == 0)
        if len(rows):
            break
        venv.step(np.ones(4, dtype=np.int64))
    assert len(rows)
    b = int(rows[0])
    before = _batch(venv)
    actions = venv.sample_actions(np.random.default_rng(0)).copy()
    actions[b] = 2
    with pytest.raises(IllegalActionError, match=rf"game {b}: action 2 \(add 3\) not legal"):
        venv.step(actions)
    assert _batch(venv) == before


# ---------------------------------------------------------------- seeds and counts

@pytest.mark.parametrize("seed", [2**64, 2**70, -1, 1.0, True, "0", np.float64(3.0)])
def test_seeds_that_are_not_ints_in_range_are_refused_everywhere(seed):
    words = "seed must be an int in 0..2\\*\\*64-1"
    with pytest.raises(ConfigError, match=words):
        GameAECEnv(GAME, num_players=2, seed=seed)
    env = GameAECEnv(GAME, num_players=2)
    with pytest.raises(ConfigError, match=words):
        env.reset(seed=seed)
    with pytest.raises(ConfigError, match=words):
        VecGameEnv(GAME, 2, seed=seed)
    venv = VecGameEnv(GAME, 2)
    with pytest.raises(ConfigError, match=words):
        venv.reset(seed=seed)
    with pytest.raises(ConfigError, match=words):
        SingleAgentEnv(GAME, num_players=2).reset(seed=seed)


def test_a_seed_beyond_64_bits_is_not_reduced_to_another_game():
    env = GameAECEnv(GAME, num_players=2)
    env.reset(seed=2**64 - 1)            # the largest seed is fine
    with pytest.raises(ConfigError, match=str(2**64 + 0)):
        env.reset(seed=2**64)


@pytest.mark.parametrize("seeds, words", [
    (np.array([0, -5]), r"seeds\[1\] must be an int in 0..2\*\*64-1, got -5"),
    (np.array([0.0, 1.0]), "integers.*float64"),
    (np.array([True, False]), "integers.*bool"),
    ([0, 2**64], r"seeds\[1\] must be an int in 0..2\*\*64-1.*, got 18446744073709551616"),
    ([0, 1.0], r"seeds\[1\] must be an int in 0..2\*\*64-1.*, got 1.0 \(float\)"),
    ([0, 1, 2], r"shape \(2,\), got \(3,\)"),
    ("01", "2 ints"),
])
def test_reset_seeds_are_checked_entry_by_entry(seeds, words):
    venv = VecGameEnv(GAME, 2, num_players=2)
    venv.reset()
    before = venv.states.tobytes()
    with pytest.raises(ConfigError, match=words):
        venv.reset(seeds=seeds)
    assert venv.states.tobytes() == before
    venv.reset(seeds=[0, 2**64 - 1])
    assert venv.states["seed"].tolist() == [0, 2**64 - 1]


@pytest.mark.parametrize("option, value, words", [
    ("num_envs", 2.7, "num_envs must be an int, at least 1, got 2.7"),
    ("num_envs", True, "num_envs must be an int"),
    ("num_envs", 0, "num_envs must be an int, at least 1, got 0"),
    ("num_threads", 0, "num_threads must be an int, at least 1, got 0"),
    ("num_threads", 1.5, "num_threads must be an int"),
    ("parallel_threshold", -1, "parallel_threshold must be an int, at least 0, got -1"),
    ("parallel_threshold", "5", "parallel_threshold must be an int"),
    ("observations", "yes", "observations must be True or False"),
])
def test_make_vec_counts_are_not_coerced(race, option, value, words):
    kw = {"num_envs": 2, option: value}
    with pytest.raises(ConfigError, match=words):
        dragongym.make_vec(race, **kw)


@pytest.mark.parametrize("value", [2.5, "2", True, np.float32(2.0)])
def test_num_players_is_not_coerced(race, value):
    for make in (lambda: dragongym.make(race, num_players=value),
                 lambda: dragongym.make_vec(race, 2, num_players=value),
                 lambda: dragongym.make_single_agent(race, num_players=value)):
        with pytest.raises(ConfigError, match=r"option num_players must be an int in 2\.\.4, got "):
            make()


def test_the_single_agent_seat_is_not_coerced():
    with pytest.raises(ConfigError, match=r"seat must be an int, 0\.\.2, got 1\.5"):
        SingleAgentEnv(GAME, num_players=3, seat=1.5)


# ---------------------------------------------------------------- call order

def test_use_before_reset_says_to_call_reset():
    env = GameAECEnv(GAME, num_players=2, render_mode="ansi")
    for call, what in ((lambda: env.observe("player_0"), "observe"), (lambda: env.step(0), "step"),
                       (env.last, "last"), (env.render, "render"), (env.clone_state, "clone_state")):
        with pytest.raises(RuntimeError, match=rf"call reset\(\) before {what}\(\)"):
            call()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before state_record"):
        env.state_record
    for name in ("agents", "num_agents", "rewards", "terminations", "agent_selection"):
        with pytest.raises(AttributeError, match=f"{name} cannot be accessed before reset"):
            getattr(env, name)
    with pytest.raises(AttributeError, match="no attribute 'no_such_thing'"):
        env.no_such_thing


@pytest.mark.parametrize("action", [True, False, np.bool_(True), 1.0, "1", None])
def test_a_bool_or_any_other_non_integer_is_not_an_action(action):
    """PettingZoo's ``step(True)`` is no ``step(1)``: bools are refused like
    ``np.bool_``, floats and strings, the game unchanged."""
    env = GameAECEnv(GAME, num_players=2)
    env.reset(seed=0)
    before = env.state_record.tobytes(), env.agent_selection
    with pytest.raises(IllegalActionError, match="action must be an integer"):
        env.step(action)
    assert (env.state_record.tobytes(), env.agent_selection) == before


def test_unknown_agent_names_are_refused_with_the_agents_listed():
    env = GameAECEnv(GAME, num_players=2)
    env.reset(seed=0)
    for bad in ("player_2", "player_0 ", 0, None):
        with pytest.raises(ValueError, match=r"is not an agent of this game; the agents are player_0, player_1"):
            env.observe(bad)
    with pytest.raises(ValueError, match="not an agent"):
        env.action_space("nobody")
    with pytest.raises(ValueError, match="not an agent"):
        env.observation_space("nobody")


def _play_out(env, rng):
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_after_the_game_last_and_step_say_it_is_over_and_observe_gives_final_views():
    env = GameAECEnv(GAME, num_players=3)
    env.reset(seed=4)
    _play_out(env, np.random.default_rng(0))
    assert env.agents == []
    final = env.state_record.tobytes()
    with pytest.raises(RuntimeError, match=r"every agent has left it; last\(\) has no agent"):
        env.last()
    for action in (None, 0):
        with pytest.raises(RuntimeError, match=r"the game is over.*call reset\(\) before step\(\)"):
            env.step(action)
    for agent in env.possible_agents:
        obs = env.observe(agent)
        assert not obs["action_mask"].any() and obs["observation"].shape == (GAME.spec.obs_size,)
    assert env.state_record.tobytes() == final
    env.reset(seed=5)
    assert env.agents == env.possible_agents


# ---------------------------------------------------------------- restores

def test_restore_state_refuses_unsound_records_before_copying(race):
    env = dragongym.make(race, num_players=3)
    env.reset(seed=0)
    env.step(0)
    record = env.clone_state()
    before = env.state_record.tobytes(), env.agent_selection
    for field, value, words in (("status", 9, "status 9"), ("to_play", 3, "to_play 3"),
                                ("to_play", -1, "to_play -1"), ("num_players", 2, "2-seat game")):
        bad = record.copy()
        bad[field] = value
        with pytest.raises(InvalidStateError, match=words):
            env.restore_state(bad)
        assert (env.state_record.tobytes(), env.agent_selection) == before
    for bad, words in ((record.tobytes(), "got bytes"), (np.zeros(1, dtype=np.float64), "dtype float64"),
                       (np.concatenate([record, record]), r"shape \(2,\)")):
        with pytest.raises(InvalidStateError, match=words):
            env.restore_state(bad)
    assert (env.state_record.tobytes(), env.agent_selection) == before
    env.restore_state(record[0])        # a record scalar is one record too
    assert env.state_record.tobytes() == record.tobytes()


def test_vector_restores_refuse_unsound_records_before_copying():
    venv = _vec(3, num_players=3)
    venv.step(np.array([0, 1, 2]))
    snap = venv.clone()
    before = _batch(venv)
    bad = venv.clone_game(0)
    bad["status"] = 1                   # finished, but still a seat to play
    with pytest.raises(InvalidStateError, match="finished game has to_play"):
        venv.restore_game(1, bad)
    states = snap["states"].copy()
    states[2] = bad[0]
    with pytest.raises(InvalidStateError, match="game 2: .*finished game has to_play"):
        venv.restore({"states": states, "paid": snap["paid"], "seed": 1})
    for broken, words in (({"states": snap["states"], "paid": np.zeros((3, 2))}, "paid"),
                          ({"states": snap["states"], "paid": snap["paid"], "seed": -1}, "seed"),
                          ({"paid": snap["paid"]}, "snapshot is the dict"),
                          ({"states": snap["states"][:2], "paid": snap["paid"]}, "batch of 3")):
        with pytest.raises(InvalidStateError, match=words):
            venv.restore(broken)
    assert _batch(venv) == before
    with pytest.raises(IndexError, match="game index must be an int"):
        venv.restore_game(1.0, venv.clone_game(0))
    venv.restore(snap)
    assert _batch(venv) == before


# ---------------------------------------------------------------- wrappers, rendering

def _wrapped_to_a_masked_action(env_fn, seed):
    """A TerminateIllegalWrapper'd env, reset and played on until the mover has
    a masked-out action; (env, that action)."""
    rng = np.random.default_rng(seed)
    for s in range(seed, seed + 20):
        env = TerminateIllegalWrapper(env_fn(), illegal_reward=-1)
        env.reset(seed=s)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                break
            masked = np.flatnonzero(obs["action_mask"] == 0)
            if len(masked):
                return env, int(masked[0])
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    raise AssertionError("no masked-out action in 20 games")


def check_terminate_illegal(env_fn, seed=0):
    """The wrapper ends the game for everyone: every agent then sees an
    all-zero mask and is dead-stepped out; the penalised agent gets the
    penalty; the env behaves as a finished game."""
    env, bad = _wrapped_to_a_masked_action(env_fn, seed)
    offender = env.agent_selection
    env.step(bad)
    penalties = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        assert term or trunc, f"{agent} still plays after the wrapper ended the game"
        assert not obs["action_mask"].any(), f"{agent}'s mask is not empty after the game was ended"
        penalties[agent] = reward
        env.step(None)
    assert penalties[offender] == -1
    assert env.agents == []
    raw = env.unwrapped
    for agent in raw.possible_agents:
        assert not raw.observe(agent)["action_mask"].any()
    with pytest.raises(RuntimeError, match="the game is over"):
        raw.step(0)


def test_terminate_illegal_wrapper_on_the_race(race):
    check_terminate_illegal(lambda: dragongym.make(race, num_players=3))


def test_human_rendering_without_a_screen_says_so_and_prints_the_text_picture(race, dive, capsys,
                                                                               monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    env = dragongym.make(race, num_players=2, render_mode="human")
    assert env.metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    env.reset(seed=0)
    with pytest.warns(RuntimeWarning, match="found no screen .* the text picture is printed instead"):
        assert env.render() is None
    assert capsys.readouterr().out == GAME.render_ansi(env.state_record)
    with pytest.warns(RuntimeWarning, match="found no screen"):
        render_test(lambda render_mode=None: dragongym.make(race, num_players=2, render_mode=render_mode))
    with pytest.raises(ValueError, match="rgb_array"):
        dragongym.make(dive, render_mode="rgb_array")
