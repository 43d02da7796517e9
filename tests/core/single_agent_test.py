"""The generic single-agent Gymnasium adapter (dragongym.envs.core.single_agent)."""
import warnings

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import dragongym
from dragongym.envs.core.game import IllegalActionError
from dragongym.envs.core.single_agent import SingleAgentEnv
from tests.core.toygame import GAME


class Always:
    """An agent-protocol opponent: the lowest legal action; counts its calls."""

    def __init__(self):
        self.calls = 0
        self.resets = 0

    def reset(self):
        self.resets += 1

    def act(self, obs, mask, rng):
        self.calls += 1
        return int(np.flatnonzero(mask)[0])


def play_episode(env, seed, rng):
    obs, info = env.reset(seed=seed)
    total, steps = 0.0, 0
    while True:
        mask = env.action_masks()
        assert mask.any() and env.observation_space.contains(obs)
        obs, reward, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        total += reward
        steps += 1
        if term or trunc:
            return total, steps, info


def check_env_quietly(env):
    """Stable-Baselines3's ``check_env`` with every warning heard: it warns about
    what it finds wrong with the spaces, so any warning fails the test."""
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        check_env(env, skip_render_check=True)
    assert [str(w.message) for w in heard] == []


def test_check_env_toy():
    check_env_quietly(SingleAgentEnv(GAME, num_players=3, illegal_action="penalty"))


def test_check_env_dragonhunt():
    # check_env steps unmasked random actions, so it needs the penalty policy
    check_env_quietly(dragongym.make_single_agent("dragonhunt", max_hands=1, illegal_action="penalty"))


def test_learner_reward_and_seats():
    env = SingleAgentEnv(GAME, num_players=3)
    rng = np.random.default_rng(0)
    seats = set()
    for ep in range(30):
        total, steps, info = play_episode(env, ep, rng)
        seats.add(info["seat"])
        assert total in (0.0, 1.0, -0.5)
    assert seats == {0, 1, 2}
    fixed = SingleAgentEnv(GAME, num_players=3, seat=1)
    for ep in range(5):
        assert play_episode(fixed, ep, rng)[2]["seat"] == 1


def test_deterministic_with_seed():
    env = SingleAgentEnv(GAME, num_players=2)
    a = play_episode(env, 11, np.random.default_rng(0))
    b = play_episode(env, 11, np.random.default_rng(0))
    assert a == b


def test_opponents_objects_callables_and_set_opponents():
    first = Always()
    env = SingleAgentEnv(GAME, opponents=[first, lambda obs, mask: int(np.flatnonzero(mask)[-1])],
                         seat=0)
    assert env.num_players == 3
    play_episode(env, 0, np.random.default_rng(0))
    assert first.calls > 0 and first.resets == 1
    second = Always()
    env.set_opponents(second)
    calls = first.calls
    play_episode(env, 1, np.random.default_rng(0))
    assert second.calls > 0 and first.calls == calls
    with pytest.raises(ValueError, match="opponents"):
        env.set_opponents([Always()])
    with pytest.raises(TypeError):
        env.set_opponents([1, 2])


def test_illegal_action_raise_and_penalty():
    env = SingleAgentEnv(GAME, num_players=2, seat=0)
    env.reset(seed=0)
    env.unwrapped._states["counter"][0] = 9       # only "add 1" (action 0) is legal
    before = env.unwrapped._states.tobytes()
    with pytest.raises(IllegalActionError, match="illegal action 2"):
        env.step(2)
    assert env.unwrapped._states.tobytes() == before
    pen = SingleAgentEnv(GAME, num_players=2, seat=0, illegal_action="penalty", illegal_penalty=-0.25)
    pen.reset(seed=0)
    pen._states["counter"][0] = 9
    before = pen._states.tobytes()
    obs, reward, term, trunc, info = pen.step(2)
    assert reward == -0.25 and not term and not trunc and info["illegal_action"]
    assert pen._states.tobytes() == before
    ends = SingleAgentEnv(GAME, num_players=2, seat=0, illegal_action="penalty",
                          illegal_ends_episode=True)
    ends.reset(seed=0)
    assert ends.step(5)[3] is True
    with pytest.raises(ValueError):
        SingleAgentEnv(GAME, illegal_action="ignore")


def test_an_episode_ended_by_an_illegal_action_is_over():
    """``illegal_ends_episode=True`` reports the episode truncated: after it no
    action, legal or not, continues that game; ``reset()`` starts the next."""
    env = SingleAgentEnv(GAME, num_players=2, seat=0, illegal_action="penalty", illegal_ends_episode=True)
    env.reset(seed=0)
    legal = int(np.flatnonzero(env.action_masks())[0])
    _, reward, term, trunc, info = env.step(5)
    assert (reward, term, trunc, info["illegal_action"]) == (-1.0, False, True, True)
    before = env.states.tobytes()
    for action in (legal, 5):
        with pytest.raises(RuntimeError, match=r"the episode is over; call reset\(\)"):
            env.step(action)
    assert env.states.tobytes() == before and not env.action_masks().any()
    env.reset(seed=1)
    assert env.step(int(np.flatnonzero(env.action_masks())[0]))[4].get("illegal_action") is None


def test_an_episode_that_ended_by_the_rules_is_over():
    env = SingleAgentEnv(GAME, num_players=2, seat=0)
    rng = np.random.default_rng(0)
    play_episode(env, 0, rng)
    before = env.states.tobytes()
    with pytest.raises(RuntimeError, match=r"the episode is over; call reset\(\)"):
        env.step(0)
    assert env.states.tobytes() == before


@pytest.mark.parametrize("action", [True, False, np.bool_(True)])
def test_a_bool_is_not_an_action(action):
    env = SingleAgentEnv(GAME, num_players=2, seat=0)
    env.reset(seed=0)
    before = env.states.tobytes()
    with pytest.raises(IllegalActionError, match="must be an integer"):
        env.step(action)
    assert env.states.tobytes() == before


def test_maskable_ppo_smoke_dragonhunt():
    torch = pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO
    torch.set_num_threads(1)
    env = dragongym.make_single_agent("dragonhunt", max_hands=1)
    model = MaskablePPO("MlpPolicy", env, n_steps=64, batch_size=32, n_epochs=1, seed=0, verbose=0,
                        policy_kwargs=dict(net_arch=[32]))
    model.learn(total_timesteps=256)
    obs, _ = env.reset(seed=1)
    action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
    assert env.action_masks()[int(action)] == 1


def test_use_before_reset_says_to_call_reset():
    env = SingleAgentEnv(GAME, num_players=2, render_mode="ansi")
    for call, what in ((env.action_masks, "action_masks"), (env.render, "render"),
                       (lambda: env.step(0), "step")):
        with pytest.raises(RuntimeError, match=rf"reset\(\) before {what}|call reset\(\)"):
            call()
    env.reset(seed=0)
    assert env.action_masks().any() and env.render().startswith("counter ")
