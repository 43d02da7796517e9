"""The league and the trainer on the toy games: solo play (dive: no opponent,
the result is the game's victory condition) and ranked general-sum play
(gather: every return is positive, so only the ranks tell a win from a loss)."""
import json

import numpy as np
import pytest
import torch
from gymnasium import spaces

import dragongym
from dragongym.agents import make_agent
from dragongym.agents.game_record import read_records, replay
from dragongym.agents.tournament import run_tournament
from dragongym.envs.core.outcome import rank_rewards, seat_results
from dragongym.training.league import SOLO, League, LeagueEnv, Record
from dragongym.training.policy import BoardPolicy, PolicyAgent, grid_layout
from dragongym.training.selfplay import EVAL_RECORDS, Args, evaluation_opponents, train


def toy_policy(game_name, seed=0):
    """A small BoardPolicy for a toy game (no grid block: the MLP alone)."""
    torch.manual_seed(seed)
    spec = dragongym.get_game(game_name).spec
    return BoardPolicy(spaces.Box(0, 50, (spec.obs_size,), np.float32), spaces.Discrete(spec.num_actions),
                       lambda _: 1e-3, features_extractor_kwargs={"game": game_name, "hidden": 8})


def play_episodes(env, episodes, seed=0):
    """Random legal play of whole episodes; returns ``(info, return)`` at each end."""
    rng = np.random.default_rng(seed)
    ends = []
    for ep in range(episodes):
        env.reset(seed=seed + ep)
        total, done = 0.0, False
        while not done:
            _, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            total += r
            done = term or trunc
        ends.append((info, total))
    return ends


def test_a_toy_game_without_a_grid_gets_the_mlp_policy_and_plays_legal_moves(gather):
    spec = dragongym.get_game(gather).spec
    assert grid_layout(spec) is None
    policy = toy_policy(gather)
    assert policy.features_extractor.cell_outputs == 0
    env = dragongym.make_single_agent(gather)
    obs, _ = env.reset(seed=1)
    mask = env.action_masks()
    for deterministic in (True, False):
        a = PolicyAgent(policy, deterministic=deterministic).act(obs, mask, np.random.default_rng(0))
        assert mask[a] == 1
    assert PolicyAgent(policy).logits(obs[None]).shape == (1, spec.num_actions)


def test_solo_episodes_have_no_opponent_and_results_from_the_victory_condition(dive):
    # a target random diving reaches in some of its 10 decisions only
    env = LeagueEnv(dragongym.make_single_agent(dive, target=20, max_turns=10), lambda: toy_policy(dive),
                    seed=0)
    env.league_update({"random": 0.5, "self:0": 0.5}, {0: toy_policy(dive, 1).state_dict()})
    league = League({"self": 1.0, "random": 1.0})
    ends = play_episodes(env, 12)
    results = set()
    for info, _ in ends:
        end = info["league"]
        assert env.opponent == SOLO and end["opponent"] == SOLO
        # a win is banking the target (rank 1); a truncated dive short of it is a loss
        assert end["result"] == ("win" if end["rank"] == 1 else "loss")
        assert end["score"] >= 0 and end["truncated"] == (end["result"] == "loss")
        league.record(end["opponent"], end["result"])
        results.add(end["result"])
    assert results == {"win", "loss"}, results                    # random diving does both
    wins = sum(info["league"]["result"] == "win" for info, _ in ends)
    assert league.records[SOLO].games == 12 and league.records[SOLO].score == wins


def test_ranked_results_come_from_the_ranks_not_the_sign_of_the_return(gather):
    env = LeagueEnv(dragongym.make_single_agent(gather), lambda: toy_policy(gather), seed=0)
    ends = play_episodes(env, 20)
    for info, ret in ends:
        outcome = env.outcome() if info is ends[-1][0] else None
        end = info["league"]
        assert end["opponent"] == "random"
        assert ret > 0                                # general sum: every seat's score is paid
        if outcome is not None:
            assert end["result"] == seat_results(outcome.ranks, "general_sum")[info["seat"]]
    results = [info["league"]["result"] for info, _ in ends]
    assert "loss" in results and "win" in results     # a sign-of-return league would see only wins


def test_league_picks_opponents_from_outcomes():
    """A snapshot that beats the learner is drawn more; a draw counts half; a
    reward sign is not a result."""
    league = League({"self": 1.0}, capacity=2, recency=1.0)
    league.add_snapshot(0, {"w": torch.zeros(1)})
    league.add_snapshot(1, {"w": torch.zeros(1)})
    assert league.snapshot_weights() == {0: 0.5, 1: 0.5}
    for _ in range(10):
        league.record("self:0", "loss")
        league.record("self:1", "win")
    w = league.snapshot_weights()
    assert w[0] > 0.8 > w[1]
    record = Record()
    record.add("draw")
    assert (record.games, record.score) == (1, 0.5)
    with pytest.raises(ValueError, match="result"):
        record.add(1.0)


def test_rank_and_score_rewards_are_paid_at_the_end(gather):
    for kind in ("rank", "score"):
        env = LeagueEnv(dragongym.make_single_agent(gather), lambda: toy_policy(gather), seed=0, reward=kind)
        env.reset(seed=4)
        rng = np.random.default_rng(4)
        paid = []
        while True:
            _, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            paid.append(r)
            if term or trunc:
                break
        outcome, seat = env.outcome(), info["seat"]
        assert all(r == 0 for r in paid[:-1])
        want = rank_rewards(outcome.ranks, outcome.utility)[seat] if kind == "rank" else outcome.scores[seat]
        assert paid[-1] == pytest.approx(float(want))
    with pytest.raises(ValueError, match="reward"):
        LeagueEnv(dragongym.make_single_agent(gather), lambda: None, reward="sign")


@pytest.mark.parametrize("toy, labels", [("dive", {"solo"}), ("gather", {"random"})])
def test_a_tiny_run_on_a_toy_game_trains_evaluates_and_saves_an_agent(toy, labels, request, tmp_path):
    name = request.getfixturevalue(toy)
    args = Args(game=name, total_timesteps=128, n_envs=1, n_steps=64, batch_size=64, n_epochs=1, hidden=8,
                snapshot_every=1, eval_every=1, eval_games=2, checkpoint_every=1, final_eval_games=2,
                eval_workers=1, record_every=2, out_dir=str(tmp_path), run_name="toy", progress=False)
    assert set(evaluation_opponents(args)) == labels          # no heuristic agent; solo plays alone
    run = train(args)
    # every 2nd game of each evaluation is kept with its actions, and replays
    kept = read_records(run / EVAL_RECORDS)
    assert kept and {r.game_index for r in kept} == {0}       # 2 games per evaluation: game 0 kept
    assert all(r.agents[0] in ("learner", str(run / "final.zip")) for r in kept)
    for record in kept:
        replay(record)
    history = json.loads((run / "history.json").read_text())
    assert history[-1]["kind"] == "final_eval" and set(history[-1]["results"]) == labels
    # the league's win rates of the updates, from the episodes' outcomes
    (label,) = labels
    rates = [h[f"win_rate_vs_{label}"] for h in history
             if h["kind"] == "update" and f"win_rate_vs_{label}" in h]
    assert rates and all(0.0 <= r <= 1.0 for r in rates)
    league = torch.load(run / "checkpoints" / "league.pt", weights_only=False)
    assert bool(league["snapshots"]) == (toy != "dive")          # a solo learner has no one to freeze
    agent = make_agent(str(run / "final.zip"), game=dragongym.get_game(name))
    assert isinstance(agent, PolicyAgent)
    others = [] if toy == "dive" else ["random"]
    result = run_tournament(name, [str(run / "final.zip")] + others, 2, progress=False)
    assert len(result.games) == 2 and result.agents[0].games >= 2
