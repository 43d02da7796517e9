"""Every position is sound and has a seat that can act; every finished game
has an outcome that agrees with the spec's utility kind, and the AEC env pays
exactly that outcome."""
import numpy as np
import pytest

from dragongym.envs.core.outcome import outcome_of, rank_rewards, ranking_problem, seat_results
from tests.conformance.play import decide, random_play

SEEDS = (0, 1, 2)


def _assert_outcome(case, rec):
    """The checks of one finished record (a 1-record array)."""
    game, spec = case.game, case.spec
    n = spec.num_seats
    r = rec[0]
    assert int(r["status"]) in (1, 2) and int(r["to_play"]) == -1
    ranks = [int(x) for x in r["rank"][:n]]
    assert ranking_problem(ranks) == "", f"ranks {ranks}: {ranking_problem(ranks)}"
    assert not r["rank"][n:].any() and not r["rewards"][n:].any() and not r["score"][n:].any(), \
        "seats not in play have an outcome"
    rewards = r["rewards"][:n].astype(np.float64)
    scores = [float(x) for x in r["score"][:n]]
    assert np.isfinite(rewards).all() and np.isfinite(scores).all()
    if spec.utility == "zero_sum":
        assert abs(rewards.sum()) < 1e-5, f"zero-sum rewards {rewards} sum to {rewards.sum()}"
        np.testing.assert_allclose(rewards, rank_rewards(ranks), atol=1e-6,
                                   err_msg=f"zero-sum rewards are not rank_rewards({ranks})")
    if spec.utility == "solo":
        assert n == 1 and ranks[0] in (1, 2)
        np.testing.assert_allclose(rewards, rank_rewards(ranks, "solo"))
    out = outcome_of(rec, n, spec.utility)
    assert out.ranks == tuple(ranks) and out.truncated == (int(r["status"]) == 2)
    assert out.results == seat_results(ranks, spec.utility)
    if spec.score_name:
        for i in range(n):
            for j in range(n):
                if ranks[i] < ranks[j]:
                    assert scores[i] >= scores[j], \
                        f"seat {i} ranks above seat {j} ({ranks}) with a lower {spec.score_name} ({scores})"
                # a game whose tie-breaks order equal scores declares them in
                # ``Game.tie_breaks``; otherwise equal scores share a rank
                if scores[i] == scores[j] and n > 1 and not game.tie_breaks:
                    assert ranks[i] == ranks[j], \
                        f"seats {i} and {j} have equal {spec.score_name} ({scores}) but ranks {ranks}"
    return ranks


def test_every_position_is_sound_and_every_end_agrees_with_the_utility(case):
    game, spec = case.game, case.spec
    n = spec.num_seats
    endings = set()
    for seed in SEEDS:
        decisions = 0
        for state, mask in random_play(game, case.config, seed):
            problem = game.check_state(state)
            assert problem == "", f"seed {seed}, decision {decisions}: {problem}"
            assert set(np.unique(mask)) <= {0, 1}
            assert int(state[0]["num_players"]) == n
            if int(state[0]["status"]) == 0:
                assert 0 <= int(state[0]["to_play"]) < n, f"to_play {int(state[0]['to_play'])} is not a seat"
                assert mask.any(), f"seed {seed}, decision {decisions}: seat to play has no legal action"
                assert not state[0]["rank"].any(), "ranks set while the game runs"
                decisions += 1
                assert decisions <= spec.max_decisions, f"more than max_decisions={spec.max_decisions}"
            else:
                assert not mask.any(), "a finished game has legal actions"
                endings.add(int(state[0]["status"]))
                _assert_outcome(case, state)
    assert endings, "no game ended"


def test_the_aec_env_pays_the_outcome_once(case):
    """Over a whole AEC episode each agent is paid the record's rewards, once;
    terminations and truncations follow the record's status; the mask is
    non-empty for the agent on move and empty for every other."""
    spec = case.spec
    env = case.make()
    for seed in SEEDS:
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        paid = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, term, trunc, _ = env.last()
            paid[agent] += reward
            status = int(env.state_record[0]["status"])
            assert term == (status == 1) and trunc == (status == 2)
            if term or trunc:
                env.step(None)
                continue
            assert env.possible_agents[int(env.state_record[0]["to_play"])] == agent
            assert obs["action_mask"].any()
            for other in env.agents:
                if other != agent:
                    assert not env.observe(other)["action_mask"].any(), f"{other} has a mask off move"
            env.step(decide(rng, obs["action_mask"]))
        rec = env.state_record
        ranks = _assert_outcome(case, rec)
        np.testing.assert_allclose([paid[a] for a in env.possible_agents], rec[0]["rewards"][:spec.num_seats],
                                   atol=1e-6, err_msg=f"paid {paid}, ranks {ranks}")
        assert env.agents == []
