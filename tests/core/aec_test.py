"""The generic PettingZoo adapter, tested on the toy game Race to Ten."""

import numpy as np
import pytest

import dragongym
from dragongym.envs.core.aec import GameAECEnv
from dragongym.envs.core.config import ConfigError
from dragongym.envs.core.game import IllegalActionError
from tests.core.toygame import GAME, RaceToTen
from tests.core.toygames import DIVE


def make_env(num_players=3, **kwargs):
    return GameAECEnv(GAME, num_players=num_players, **kwargs)


def random_game(env, seed, rng):
    """Play one game with random legal moves; returns (state bytes per step, rewards per agent)."""
    env.reset(seed=seed)
    history = [env.state_record.tobytes()]
    totals = {agent: 0.0 for agent in env.possible_agents}
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _ = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        history.append(env.state_record.tobytes())
    return history, totals


def test_spaces_and_metadata():
    env = make_env(4)
    assert env.possible_agents == ["player_0", "player_1", "player_2", "player_3"]
    assert env.metadata["name"] == "race_v1"
    assert env.metadata["is_parallelizable"] is False
    assert env.metadata["render_modes"] == ["ansi", "human", "rgb_array"]
    space = env.observation_space("player_2")
    assert space["observation"].shape == (7,) and space["observation"].dtype == np.float32
    assert space["action_mask"].shape == (3,) and space["action_mask"].dtype == np.int8
    assert env.action_space("player_1").n == 3


def test_rejects_bad_construction():
    with pytest.raises(ConfigError, match=r"num_players must be an int in 2\.\.4, got 5"):
        make_env(5)
    with pytest.raises(ValueError, match="rgb_array"):
        GameAECEnv(DIVE, render_mode="rgb_array")       # Dive draws no pictures
    with pytest.raises(ValueError, match="render_view must be 'to_play', 'full', a seat 0..1"):
        make_env(2, render_mode="rgb_array", render_view="player_7")
    with pytest.raises(ConfigError, match="unknown option.*no_such_option"):
        make_env(2, no_such_option=1)


def test_same_seed_same_game_and_seeds_differ():
    runs = [random_game(make_env(3), 7, np.random.default_rng(0)) for _ in range(2)]
    assert runs[0] == runs[1]
    other = random_game(make_env(3), 8, np.random.default_rng(0))
    assert other[0][0] != runs[0][0][0]


def test_reset_without_seed_follows_the_constructor_seed():
    a, b = make_env(2, seed=5), make_env(2, seed=5)
    firsts = []
    for env in (a, b):
        env.reset()
        first = env.state_record.tobytes()
        env.reset()
        firsts.append((first, env.state_record.tobytes()))
    assert firsts[0] == firsts[1]
    assert firsts[0][0] != firsts[0][1]


def test_observe_from_each_seat_and_mask_only_for_the_mover():
    env = make_env(3)
    env.reset(seed=3)
    record = env.state_record[0]
    mover = env.agent_selection
    assert mover == "player_0"
    for seat, agent in enumerate(env.possible_agents):
        observation = env.observe(agent)
        assert observation["observation"][1] == pytest.approx(record["secret"][seat] / 9)
        # seats rotated: the mover (seat 0) sits (0 - seat) % 3 places after the observer
        assert observation["observation"][3 + (0 - seat) % 3] == 1.0
        if agent == mover:
            assert observation["action_mask"].tolist() == [1, 1, 1]
        else:
            assert not observation["action_mask"].any()


def test_illegal_action_raises_and_leaves_the_state_unchanged():
    env = make_env(2)
    env.reset(seed=11)
    while env.state_record[0]["counter"] < 8:  # walk to a position where "add 3" would pass 10
        env.step(0)
    assert env.observe(env.agent_selection)["action_mask"][2] == 0
    before = env.state_record.tobytes()
    agent = env.agent_selection
    with pytest.raises(IllegalActionError, match=r"illegal action 2 \(add 3\): the counter may not pass 10"):
        env.step(2)
    for bad in (3, -1, 1.5, "1"):
        with pytest.raises(IllegalActionError):
            env.step(bad)
    with pytest.raises(IllegalActionError):
        env.step(None)
    assert env.state_record.tobytes() == before
    assert env.agent_selection == agent
    env.step(np.int64(0))  # the game goes on


def test_rewards_are_zero_sum_and_paid_once():
    rng = np.random.default_rng(1)
    outcomes = set()
    for num_players in (2, 3, 4):
        env = make_env(num_players)
        for seed in range(30):
            _, totals = random_game(env, seed, rng)
            values = sorted(totals.values())
            assert sum(values) == pytest.approx(0.0, abs=1e-6)
            assert values[-1] == 1.0 and values[0] == pytest.approx(-1 / (num_players - 1))
            outcomes.add(max(totals, key=totals.get))
            assert env.agents == []
    assert len(outcomes) > 1


def test_truncation_is_a_draw_for_everyone():
    env = make_env(3, max_turns=2)
    env.reset(seed=0)
    env.step(0)
    env.step(0)
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(env._cumulative_rewards[a] == 0 for a in env.agents)
    for agent in env.agent_iter():
        _, reward, termination, truncation, _ = env.last()
        assert truncation and not termination and reward == 0
        env.step(None)
    assert env.agents == []


def test_dead_agent_must_step_none():
    env = make_env(2, max_turns=1)
    env.reset(seed=0)
    env.step(0)
    with pytest.raises(ValueError):
        env.step(0)


def test_clone_and_restore_replay_the_same_future():
    env = make_env(3)
    env.reset(seed=21)
    env.step(0)
    snapshot = env.clone_state()
    future = []
    for _ in range(2):
        env.restore_state(snapshot)
        assert env.agents == env.possible_agents and env.agent_selection == "player_1"
        steps = []
        while env.state_record[0]["status"] == 0:
            env.step(0)
            steps.append(env.state_record.tobytes())
        future.append(steps)
    assert future[0] == future[1]
    snapshot[0]["counter"] = 99
    assert env.state_record[0]["counter"] != 99  # the snapshot is independent


def test_render_ansi_and_action_names():
    env = make_env(2, render_mode="ansi")
    env.reset(seed=0)
    assert env.render().startswith("counter 0/10")
    assert env.action_to_string(1) == "add 2"
    assert env.string_to_action("add 3") == 2


def test_rgb_array_draws_what_the_render_view_may_know():
    """The picture follows ``render_view``: by default the seat to play (the
    PettingZoo observer), else one fixed seat, or the full position."""
    from dragongym.envs.core.picture import render_rgb

    env = make_env(2, render_mode="rgb_array")
    env.reset(seed=0)
    env.step(2)
    image = env.render()
    state = env.state_record
    assert image.shape == (208, 592, 3) and image.dtype == np.uint8
    assert np.array_equal(image, render_rgb(GAME, state, 1))        # seat 1 is to play
    assert not np.array_equal(image, render_rgb(GAME, state, 0))    # seat 0 sees another secret
    for view, seat in (("full", None), ("player_0", 0), (0, 0)):
        fixed = make_env(2, render_mode="rgb_array", render_view=view)
        fixed.restore_state(state)
        assert np.array_equal(fixed.render(), render_rgb(GAME, state, seat))


def test_human_rendering_opens_a_window_where_there_is_a_screen(monkeypatch):
    """With a screen, ``human`` shows the picture in one reused matplotlib
    window (its image data is the frame) and prints nothing."""
    import matplotlib
    import matplotlib.pyplot as plt

    from dragongym.envs.core import picture

    matplotlib.use("Agg")
    monkeypatch.setattr(picture.HumanWindow, "display_available", staticmethod(lambda: True))
    monkeypatch.setattr(plt, "pause", lambda interval: None)
    env = make_env(2, render_mode="human")
    env.reset(seed=0)
    assert env.render() is None
    env.step(0)
    env.render()
    window = env._window
    shown = np.asarray(window._axes_image.get_array())
    assert np.array_equal(shown, picture.render_rgb(GAME, env.state_record, int(env.state_record[0]["to_play"])))
    assert len(plt.get_fignums()) == 1
    env.close()
    assert not plt.get_fignums()


def test_registry():
    dragongym.register("race", lambda: GAME)
    try:
        assert "race" in dragongym.list_games() and "dragonhunt" in dragongym.list_games()
        assert dragongym.get_game("race") is GAME
        env = dragongym.make("race", num_players=4, max_turns=5)
        assert isinstance(env, GameAECEnv) and env.num_players == 4 and env.config.max_turns == 5
        dragongym.register("race_by_name", "tests.core.toygame:GAME")
        assert dragongym.get_game("race_by_name") is GAME
        with pytest.raises(ValueError, match="unknown game"):
            dragongym.get_game("no_such_game")
    finally:
        dragongym.envs._FACTORIES.pop("race", None)
        dragongym.envs._FACTORIES.pop("race_by_name", None)
        dragongym.envs._GAMES.pop("race", None)
        dragongym.envs._GAMES.pop("race_by_name", None)


def test_a_pickled_env_plays_on_like_the_original():
    import pickle

    env = make_env(3)
    env.reset(seed=3)
    env.step(0)
    copy = pickle.loads(pickle.dumps(env))
    for e in (env, copy):
        while e.agents and not (e.terminations[e.agent_selection] or e.truncations[e.agent_selection]):
            e.step(0)
    assert copy.state_record.tobytes() == env.state_record.tobytes()
    assert copy.agent_selection == env.agent_selection and copy.terminations == env.terminations
