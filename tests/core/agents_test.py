"""The agent protocol, the random agent and seat-rotated matches (on the toy games:
race, dive for solo play, gather for ranked play with ties)."""
import numpy as np
import pytest

import dragongym
from dragongym.agents import Agent, RandomAgent, list_agents, make_agent, match_table, play_match, register
from dragongym.agents.base import _FACTORIES
from dragongym.envs.core.outcome import ranks_from_scores


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
    result = play_match(race, ["random", "random", "random"], num_games=9, seed=4, num_players=3,
                        max_turns=100)
    assert [g.seating for g in result.games[:4]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1), (0, 1, 2)]
    assert [s.label for s in result.stats] == ["random#0", "random#1", "random#2"]
    assert all(s.games == 9 for s in result.stats)
    assert sum(s.wins for s in result.stats) == 9  # the toy game always has one winner
    assert all(g.ranks.count(1) == 1 and sorted(g.ranks) == [1, 2, 2] for g in result.games)
    assert sum(s.total_rank for s in result.stats) == 9 * 5
    assert sum(s.total_reward for s in result.stats) == pytest.approx(0, abs=1e-5)
    assert all(s.mean_length == sum(g.decisions for g in result.games) / 9 for s in result.stats)
    assert sum(s.decisions for s in result.stats) == sum(g.decisions for g in result.games)
    again = play_match(race, ["random"] * 3, num_games=9, seed=4, num_players=3, max_turns=100)
    assert again.games == result.games
    other = play_match(race, ["random"] * 3, num_games=9, seed=5, num_players=3, max_turns=100)
    assert other.games != result.games


def test_match_counts_truncations_as_draws(race):
    result = play_match(race, ["random", "random"], num_games=4, seed=0, max_turns=1)
    assert all(g.truncated and g.ranks == (1, 1) for g in result.games)
    assert all(s.draws == 4 and s.wins == 0 and s.losses == 0 for s in result.stats)


def test_match_checks_the_agent_count(race, dive, gather):
    with pytest.raises(ValueError, match="one agent per seat"):
        play_match(race, ["random"], num_games=1, num_players=2)
    with pytest.raises(ValueError, match=r"2 agents for the 1 seats .*\(diver\)"):
        play_match(dive, ["random", "random"], num_games=1)
    with pytest.raises(ValueError, match="2 agents for the 3 seats"):
        play_match(gather, ["random", "random"], num_games=1)
    # the seats come from the configuration, not from the agent list
    assert play_match(race, ["random"] * 4, num_games=1, num_players=4).num_seats == 4


def _dive_match(num_games=16):
    # target 20 in 12 decisions: random diving wins about two games in three
    return play_match("dive", ["random"], num_games=num_games, seed=1, target=20, max_turns=12)


def test_a_solo_match_is_won_or_lost_by_rank_never_drawn(dive):
    result = _dive_match()
    (stats,) = result.stats
    assert result.num_seats == 1 and result.utility == "solo" and result.score_name == "pearls"
    assert stats.games == 16 and stats.draws == 0
    assert stats.wins > 0 and stats.losses > 0 and stats.wins + stats.losses == 16
    for g in result.games:
        # rank 1 exactly when the diver banked the target
        assert g.seating == (0,) and g.ranks == ((1,) if g.scores[0] >= 20 else (2,))
        assert g.results == (["win"] if g.scores[0] >= 20 else ["loss"])
        assert g.truncated == (g.ranks == (2,))
    assert stats.wins == sum(g.ranks == (1,) for g in result.games)
    assert stats.mean_score == pytest.approx(np.mean([g.scores[0] for g in result.games]))
    assert stats.mean_rank == pytest.approx(1 + stats.losses / 16)


def test_a_solo_match_table_reports_wins_losses_and_the_mean_score(dive):
    result = _dive_match()
    (stats,) = result.stats
    lines = match_table(result).splitlines()
    header = lines[0].split()
    assert "draws" not in header and "rank" not in header        # a solo game has neither
    assert lines[0].index("wins") < lines[0].index("losses") < lines[0].index("mean pearls")
    row = dict(zip(["agent", "games", "wins", "losses", "win_rate", "mean_pearls"], lines[2].split()))
    assert row == {"agent": "random", "games": "16", "wins": str(stats.wins), "losses": str(stats.losses),
                   "win_rate": f"{100 * stats.wins / 16:.1f}%", "mean_pearls": f"{stats.mean_score:.2f}"}


def test_a_ranked_match_reads_ranks_and_ties_from_the_record(gather):
    result = play_match(gather, ["random", "random", "random"], num_games=12, seed=2)
    assert result.score_name == "stones" and result.utility == "general_sum"
    tied_first = tied_below = 0
    for g in result.games:
        # the record ranks by stones (ties share a rank); rewards are stones / 10
        assert g.ranks == ranks_from_scores(g.scores)
        assert np.allclose(g.rewards, np.asarray(g.scores) / 10)
        tied_first += g.ranks.count(1) > 1
        tied_below += g.ranks.count(1) == 1 and len(set(g.ranks)) < 3
    # seed 2 has both kinds of tie: on first place (draws) and below it
    assert tied_first > 0 and tied_below > 0
    for k, s in enumerate(result.stats):
        mine = [(g.ranks[seat], g.ranks.count(1)) for g in result.games for seat, who in enumerate(g.seating)
                if who == k]
        assert s.wins == sum(r == 1 and firsts == 1 for r, firsts in mine)
        assert s.draws == sum(r == 1 and firsts > 1 for r, firsts in mine)
        assert s.losses == sum(r > 1 for r, _ in mine)
        assert s.mean_rank == pytest.approx(np.mean([r for r, _ in mine]))
    assert sum(s.draws for s in result.stats) >= 2 * tied_first
    header = match_table(result).splitlines()[0]
    assert "draws" in header and "mean rank" in header and "mean stones" in header



def test_a_game_of_ones_own_is_named_by_its_module_path():
    """``"package.module:ATTRIBUTE"`` loads and registers a game without a
    register() call; a bad path says what could not be loaded."""
    game = dragongym.get_game("tests.core.toygames:DIVE")
    assert game.name == "dive"
    env = dragongym.make("tests.core.toygames:DIVE")
    env.reset(seed=0)
    assert env.possible_agents == ["diver"]
    with pytest.raises(ValueError, match="cannot load 'tests.core.toygames:NO_SUCH_GAME'"):
        dragongym.get_game("tests.core.toygames:NO_SUCH_GAME")
    assert "tests.core.toygames:NO_SUCH_GAME" not in dragongym.list_games()
    dragongym.envs._FACTORIES.pop("tests.core.toygames:DIVE", None)
    dragongym.envs._GAMES.pop("tests.core.toygames:DIVE", None)
