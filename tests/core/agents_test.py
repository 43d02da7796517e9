"""The agent protocol, the random agent and seat-rotated matches (on the toy game)."""
import numpy as np
import pytest

from dragongym.agents import Agent, RandomAgent, list_agents, make_agent, play_match, register
from dragongym.agents.base import _FACTORIES


def test_random_agent_plays_uniformly_over_legal_actions():
    agent = make_agent("random")
    assert isinstance(agent, RandomAgent) and "random" in list_agents()
    mask = np.array([0, 1, 0, 1, 1, 0], dtype=np.int8)
    rng = np.random.default_rng(0)
    picks = np.array([agent.act(None, mask, rng) for _ in range(3000)])
    counts = np.bincount(picks, minlength=6)
    assert counts[[0, 2, 5]].sum() == 0
    assert all(900 < c < 1100 for c in counts[[1, 3, 4]])


def test_random_agent_batch():
    agent = RandomAgent()
    masks = np.zeros((500, 5), dtype=np.int8)
    masks[:, 4] = 1
    masks[::2, 0] = 1
    actions = agent.act_batch(None, masks, np.random.default_rng(0))
    assert actions.shape == (500,)
    assert masks[np.arange(500), actions].all()
    assert (actions[1::2] == 4).all()
    assert set(actions[::2].tolist()) == {0, 4}
    with pytest.raises(ValueError):
        agent.act_batch(None, np.zeros((2, 3), dtype=np.int8), np.random.default_rng(0))


def test_random_agent_uses_only_the_generator_given():
    agent = RandomAgent()
    mask = np.ones(50, dtype=np.int8)
    np.random.seed(1)
    a = [agent.act(None, mask, np.random.default_rng(3)) for _ in range(5)]
    np.random.seed(2)
    b = [agent.act(None, mask, np.random.default_rng(3)) for _ in range(5)]
    assert a == b


def test_registry_and_default_batch():
    class First(Agent):
        def act(self, obs, mask, rng):
            return int(np.flatnonzero(mask)[0])

    register("first", lambda game=None, **kw: First())
    try:
        agent = make_agent("first")
        masks = np.array([[0, 1, 1], [1, 0, 0]], dtype=np.int8)
        assert agent.act_batch(np.zeros((2, 4), np.float32), masks, None).tolist() == [1, 0]
    finally:
        _FACTORIES.pop("first")
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("no_such_agent")


def test_match_rotates_seats_and_is_deterministic(race):
    result = play_match(race, ["random", "random", "random"], num_games=9, seed=4,
                        max_turns=100)
    assert [g.seating for g in result.games[:4]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 1, 2)]
    assert [s.label for s in result.stats] == ["random#0", "random#1", "random#2"]
    assert all(s.games == 9 for s in result.stats)
    assert sum(s.wins for s in result.stats) == 9  # the toy game always has one winner
    assert sum(s.total_reward for s in result.stats) == pytest.approx(0, abs=1e-5)
    assert all(s.mean_length == sum(g.decisions for g in result.games) / 9 for s in result.stats)
    assert sum(s.decisions for s in result.stats) == sum(g.decisions for g in result.games)
    again = play_match(race, ["random"] * 3, num_games=9, seed=4, max_turns=100)
    assert again.games == result.games
    other = play_match(race, ["random"] * 3, num_games=9, seed=5, max_turns=100)
    assert other.games != result.games


def test_match_counts_truncations_as_draws(race):
    result = play_match(race, ["random", "random"], num_games=4, seed=0, max_turns=1)
    assert all(g.truncated for g in result.games)
    assert all(s.draws == 4 and s.wins == 0 and s.losses == 0 for s in result.stats)


def test_match_checks_the_agent_count(race):
    with pytest.raises(ValueError, match="one agent per seat"):
        play_match(race, ["random"], num_games=1, num_players=2)
