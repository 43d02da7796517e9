"""Tournaments: schedule fairness, Wilson intervals, determinism, outputs,
outcomes and ratings from ranks (solo and ranked toy games), the committed
legacy results, the eval CLI."""
import json
import math
from collections import Counter
from pathlib import Path

import pytest

from dragongym.agents.game_record import read_records, replay
from dragongym.agents.match import GameOutcome
from dragongym.agents.tournament import (legacy_ranks, load_tournament, merge_tournaments, run_tournament,
                                         schedule, summarize, wilson_interval)
from dragongym.training.cli import main

EVAL_RESULTS = Path(__file__).resolve().parents[2] / "agents" / "eval_results"


@pytest.mark.parametrize("successes,trials,low,high", [
    (5, 10, 0.2366, 0.7634),     # p = 0.5, n = 10 (textbook value)
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval_known_values(successes, trials, low, high):
    lo, hi = wilson_interval(successes, trials)
    assert lo == pytest.approx(low, abs=5e-4) and hi == pytest.approx(high, abs=5e-4)


def test_wilson_interval_without_trials_is_uninformative():
    assert wilson_interval(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("num_agents,num_players", [(2, 2), (3, 2), (4, 3), (2, 4), (6, 6), (2, 1), (3, 1)])
def test_every_agent_sits_in_every_seat_equally_often(num_agents, num_players):
    from math import comb
    blocks = comb(num_agents, num_players) if num_agents >= num_players else 1
    seatings = schedule(num_agents, num_players, 3 * num_players * blocks)
    per_seat = Counter((seat, k) for s in seatings for seat, k in enumerate(s))
    counts = {per_seat[(seat, k)] for seat in range(num_players) for k in range(num_agents)}
    assert len(counts) == 1 and counts.pop() > 0
    if num_agents >= num_players:
        assert all(len(set(s)) == num_players for s in seatings)


@pytest.mark.parametrize("num_agents,num_players", [(2, 3), (3, 4), (2, 5)])
def test_fewer_agents_than_seats_hold_equal_shares_where_the_cycle_does_not_divide_the_seats(num_agents,
                                                                                              num_players):
    # two agents in three seats: 0,1,0 alone would give agent 0 two seats in every game
    seatings = schedule(num_agents, num_players, num_agents * num_players * 2)
    per_seat = Counter((seat, k) for s in seatings for seat, k in enumerate(s))
    counts = {per_seat[(seat, k)] for seat in range(num_players) for k in range(num_agents)}
    assert len(counts) == 1 and counts.pop() > 0
    assert len({sum(1 for s in seatings for k in s if k == agent) for agent in range(num_agents)}) == 1


def test_tournament_counts_seats_games_and_rates(race):
    result = run_tournament(race, ["random", "mcts"], num_games=12, seed=3, progress=False,
                            agent_kwargs={"mcts": {"simulations": 30}})
    for a in result.agents:
        assert a.games == 12 and a.seats == [6, 6]
        assert a.wins + a.draws + a.losses == 12
        lo, hi = a.win_ci
        assert 0 <= lo <= a.win_rate <= hi <= 1
        assert a.sigma > 0
    assert result.agents[0].wins + result.agents[1].wins + result.agents[0].draws == 12


def test_tournament_is_deterministic_for_any_worker_count(race):
    kwargs = dict(num_games=8, seed=11, progress=False, agent_kwargs={"mcts": {"simulations": 20}})
    one = run_tournament(race, ["random", "mcts", "random"], num_players=3, workers=1, **kwargs)
    two = run_tournament(race, ["random", "mcts", "random"], num_players=3, workers=2, **kwargs)
    assert [(g.seating, g.rewards, g.decisions) for g in one.games] == \
        [(g.seating, g.rewards, g.decisions) for g in two.games]
    assert [a.as_dict() for a in one.agents] == [a.as_dict() for a in two.agents]


def test_a_shard_of_games_replays_those_games_of_the_full_tournament(race):
    kwargs = dict(num_games=10, seed=4, progress=False, agent_kwargs={"mcts": {"simulations": 15}})
    full = run_tournament(race, ["random", "mcts"], **kwargs)
    shard = run_tournament(race, ["random", "mcts"], games=[7, 2, 5, 2], **kwargs)
    assert [g.index for g in shard.games] == [2, 5, 7]
    assert [(g.seating, g.rewards, g.decisions) for g in shard.games] == \
        [(g.seating, g.rewards, g.decisions) for g in full.games if g.index in (2, 5, 7)]
    assert sum(a.games for a in shard.agents) == 2 * 3


def test_a_shard_outside_the_schedule_is_refused(race):
    with pytest.raises(ValueError, match="games must be indices in 0..9"):
        run_tournament(race, ["random", "random"], num_games=10, games=[3, 10], progress=False)


def test_merged_shards_give_the_full_tournament(race, tmp_path):
    kwargs = dict(num_games=9, seed=2, progress=False, agent_kwargs={"mcts": {"simulations": 15}})
    full = run_tournament(race, ["random", "mcts"], **kwargs)
    run_tournament(race, ["random", "mcts"], games=range(0, 5), **kwargs).save(tmp_path / "a")
    run_tournament(race, ["random", "mcts"], games=range(4, 9), **kwargs).save(tmp_path / "b")
    merged = merge_tournaments([load_tournament(tmp_path / "a"), load_tournament(tmp_path / "b")])
    assert merged.as_dict() == full.as_dict()       # game 4, in both shards, counted once


def test_shards_of_different_tournaments_are_not_merged(race):
    kwargs = dict(num_games=4, progress=False)
    a = run_tournament(race, ["random", "random"], seed=0, games=[0, 1], **kwargs)
    b = run_tournament(race, ["random", "random"], seed=1, games=[2, 3], **kwargs)
    with pytest.raises(ValueError, match="cannot merge different tournaments"):
        merge_tournaments([a, b])
    forged = run_tournament(race, ["random", "random"], seed=0, games=[1], **kwargs)
    forged.games[0].rewards = tuple(-r for r in forged.games[0].rewards) if any(forged.games[0].rewards) \
        else (1.0, -1.0)
    with pytest.raises(ValueError, match="game 1 has different outcomes"):
        merge_tournaments([a, forged])


def test_dragonhunt_tournament_is_deterministic_for_any_worker_count():
    kwargs = dict(num_games=4, seed=5, progress=False, max_hands=1)
    one = run_tournament("dragonhunt", ["random", "dragonhunt.heuristic"], workers=1, **kwargs)
    two = run_tournament("dragonhunt", ["random", "dragonhunt.heuristic"], workers=2, **kwargs)
    assert [(g.seating, g.rewards, g.decisions) for g in one.games] == \
        [(g.seating, g.rewards, g.decisions) for g in two.games]


def test_tournament_writes_json_csv_and_png(race, tmp_path):
    result = run_tournament(race, ["random", "random"], num_games=6, seed=0, progress=False)
    result.save(tmp_path)
    data = json.loads((tmp_path / "tournament.json").read_text())
    assert len(data["games"]) == 6 and [a["label"] for a in data["agents"]] == ["random#0", "random#1"]
    assert data["roles"] == ["player_0", "player_1"] and data["utility"] == "zero_sum"
    for g, saved in zip(result.games, data["games"]):
        assert saved["ranks"] == list(g.ranks) and saved["scores"] == list(g.scores)
        assert sorted(saved["ranks"]) in ([1, 1], [1, 2])
    assert [list(a["seats"]) for a in data["agents"]] == [["player_0", "player_1"]] * 2
    csv_text = (tmp_path / "tournament.csv").read_text()
    assert csv_text.count("\n") == 3 and "mean_rank" in csv_text.splitlines()[0]
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"


def test_eval_command_prints_the_table(race, tmp_path, capsys):
    out = tmp_path / "eval"
    assert main(["eval", "--game", race, "--agents", "random,mcts", "--games", "4",
                 "--mcts-sims", "10", "--mcts-depth", "5", "--out", str(out), "--max-turns", "20"]) == 0
    text = capsys.readouterr().out
    assert "decided win rate" in text and "mcts" in text and "rating" in text
    assert (out / "tournament.json").exists()
    assert main(["eval", "--game", race, "--agents", "random,nobody", "--games", "2"]) == 2


def test_eval_command_plays_a_shard_and_merges_shards(race, tmp_path, capsys):
    common = ["eval", "--game", race, "--agents", "random,mcts", "--games", "6", "--mcts-sims", "10",
              "--mcts-depth", "5", "--max-turns", "20"]
    assert main(common + ["--out", str(tmp_path / "full")]) == 0
    assert main(common + ["--only-games", "0:3", "--out", str(tmp_path / "s0")]) == 0
    assert main(common + ["--only-games", "3:6", "--out", str(tmp_path / "s1")]) == 0
    assert "3 games" in capsys.readouterr().out
    assert main(["eval", "--merge", str(tmp_path / "s0"), str(tmp_path / "s1"), "--out", str(tmp_path / "m")]) == 0
    assert "6 games" in capsys.readouterr().out
    full = json.loads((tmp_path / "full" / "tournament.json").read_text())
    assert json.loads((tmp_path / "m" / "tournament.json").read_text()) == full
    assert main(common + ["--only-games", "4:9"]) == 2
    assert main(common + ["--only-games", "four"]) == 2
    assert main(["eval", "--merge", str(tmp_path / "nowhere")]) == 2
    err = capsys.readouterr().err
    assert "0 <= START < STOP <= --games (6)" in err and "START:STOP" in err and "no tournament.json" in err


def _dive_tournament(**kwargs):
    # target 20 in 12 decisions: random diving wins about two games in three
    return run_tournament("dive", ["random", "mcts"], num_games=8, seed=1, progress=False,
                          agent_kwargs={"mcts": {"simulations": 6, "rollout_depth": 4}}, target=20,
                          max_turns=12, **kwargs)


def test_a_solo_tournament_seats_one_agent_per_game(dive, tmp_path):
    result = _dive_tournament()
    assert result.roles == ("diver",) and result.utility == "solo"
    assert [g.seating for g in result.games] == [(0,), (1,)] * 4
    for a in result.agents:
        assert a.games == 4 and a.draws == 0 and a.wins + a.losses == 4 and a.seats == [4]
        assert a.mean_score == pytest.approx(sum(g.scores[0] for g in result.games
                                                 if g.seating == (result.agents.index(a),)) / 4)
    assert sum(a.losses for a in result.agents) > 0 and sum(a.wins for a in result.agents) > 0
    # agents never meet in a solo game: no ratings, and the table says nothing of them
    assert result.rating_system == "none" and all(math.isnan(a.mu) for a in result.agents)
    header = result.table().splitlines()[0]
    assert "rating" not in header and "draws" not in header and "mean pearls" in header
    result.save(tmp_path)
    data = json.loads((tmp_path / "tournament.json").read_text())
    assert data["agents"][0]["mu"] is None and data["agents"][0]["rating_ci"] is None
    assert (tmp_path / "ratings.png").read_bytes()[:4] == b"\x89PNG"
    assert load_tournament(tmp_path).as_dict() == result.as_dict()


def _replayed_ratings(result):
    """OpenSkill ratings replayed by hand from the games' ranks."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    ratings = [model.rating() for _ in result.agents]
    for g in result.games:
        new = model.rate([[ratings[k]] for k in g.seating], ranks=list(g.ranks))
        for k, team in zip(g.seating, new):
            ratings[k] = team[0]
    return [(r.mu, r.sigma) for r in ratings]


def test_a_ranked_tournament_rates_from_ranks_with_ties(gather):
    result = run_tournament(gather, ["random", "mcts", "random"], num_games=12, seed=2, progress=False,
                            agent_kwargs={"mcts": {"simulations": 8}})
    assert result.rating_system == "openskill.PlackettLuce" and result.score_name == "stones"
    assert any(len(set(g.ranks)) < 3 for g in result.games), "no tie among these games"
    replayed = _replayed_ratings(result)
    assert [a.mu for a in result.agents] == pytest.approx([mu for mu, _ in replayed])
    assert [a.sigma for a in result.agents] == pytest.approx([sigma for _, sigma in replayed])
    assert all(a.games == 12 and a.seats == [4, 4, 4] for a in result.agents)
    assert "mean rank" in result.table() and "mean stones" in result.table()


def _record(index, seating, ranks, rewards=None):
    rewards = rewards if rewards is not None else tuple(0.0 for _ in ranks)
    return GameOutcome(index, seating, rewards, ranks, tuple(0.0 for _ in ranks), 10, False)


def test_ratings_follow_the_ranks_not_the_rewards():
    roles = ("player_0", "player_1", "player_2")
    # all rewards equal: only the ranks tell who did well; seats 0 and 1 tie for first
    tied = summarize("gather", ["a", "b", "c"], [_record(0, (0, 1, 2), (1, 1, 3))], roles)
    a, b, c = tied.agents
    assert a.mu == pytest.approx(b.mu) and a.mu > c.mu
    assert (a.draws, b.draws, c.losses) == (1, 1, 1)
    # rewards that say the opposite of the ranks change nothing
    contrary = summarize("gather", ["a", "b", "c"],
                         [_record(0, (0, 1, 2), (1, 1, 3), rewards=(-1.0, -1.0, 2.0))], roles)
    assert [x.mu for x in contrary.agents] == [x.mu for x in tied.agents]
    assert [x.wins for x in contrary.agents] == [0, 0, 0]


@pytest.mark.parametrize("name", ["heuristic_vs_random", "mcts_vs_heuristic"])
def test_committed_legacy_results_still_load_and_merge(name):
    """Files saved before games carried ranks: ranks come from the rewards
    (the legacy path), and the tallies and ratings come out as they were saved."""
    path = EVAL_RESULTS / name / "tournament.json"
    saved = json.loads(path.read_text())
    assert "ranks" not in saved["games"][0]                    # still the old format
    result = load_tournament(path)
    assert result.roles == ("player_0", "player_1") and result.config == saved["config"]
    for g, old in zip(result.games, saved["games"]):
        assert g.ranks == legacy_ranks(old["rewards"])
        assert g.ranks == ((1, 1) if old["rewards"] == [0.0, 0.0] else
                           (1, 2) if old["rewards"][0] > old["rewards"][1] else (2, 1))
    for a, old in zip(result.agents, saved["agents"]):
        for key in ("label", "agent_id", "games", "wins", "draws", "losses", "total_length"):
            assert getattr(a, key) == old[key], key
        assert a.total_reward == pytest.approx(old["total_reward"])
        assert a.mu == pytest.approx(old["mu"]) and a.sigma == pytest.approx(old["sigma"])
        assert a.seats == old["seats"]
    half = len(saved["games"]) // 2
    first, second = load_tournament(path), load_tournament(path)
    first.games, second.games = first.games[:half + 1], second.games[half:]
    assert merge_tournaments([first, second]).as_dict() == result.as_dict()


def test_legacy_ranks_share_ranks_between_equal_rewards():
    assert legacy_ranks((1.0, -0.5, -0.5)) == (1, 2, 2)
    assert legacy_ranks((0.0, 0.0, 0.0)) == (1, 1, 1)
    assert legacy_ranks((-0.5, 1.0, -0.5 + 1e-9)) == (2, 1, 2)


def test_a_tournament_keeps_every_kth_game_with_its_actions_and_each_replays(race, tmp_path):
    """``records`` with ``record_every=2``: games 0, 2, 4 of the schedule are
    written as they finish, with every action, in any worker count; each
    replays to its recorded final state and outcome."""
    kept = {}
    for workers in (1, 2):
        path = tmp_path / f"workers{workers}.jsonl"
        result = run_tournament(race, ["random", "random"], 6, seed=3, workers=workers, progress=False,
                                records=str(path), record_every=2, num_players=2)
        records = sorted(read_records(path), key=lambda r: r.game_index)
        assert [r.game_index for r in records] == [0, 2, 4]
        by_index = {g.index: g for g in result.games}
        for record in records:
            final = replay(record)
            assert tuple(record.end["ranks"]) == tuple(by_index[record.game_index].ranks)
            assert int(final[0]["status"]) != 0 and len(record.actions) == by_index[record.game_index].decisions
            assert record.match_seed == 3 and record.agents == ["random", "random"]
        kept[workers] = [r.lines() for r in records]
    assert kept[1] == kept[2]


def test_a_tournament_refuses_a_record_file_it_cannot_write_before_any_game(race, tmp_path):
    played = []
    with pytest.raises(ValueError, match="records: the folder .* does not exist"):
        run_tournament(race, ["random", "random"], 2, progress=False, records=str(tmp_path / "no" / "r.jsonl"),
                       on_game_end=played.append, num_players=2)
    with pytest.raises(ValueError, match="record_every must be an int >= 1"):
        run_tournament(race, ["random", "random"], 2, progress=False, records=str(tmp_path / "r.jsonl"),
                       record_every=0, num_players=2)
    assert not played


def test_eval_command_keeps_game_records(race, tmp_path, capsys):
    path = tmp_path / "kept.jsonl"
    assert main(["eval", "--game", race, "--agents", "random,random", "--games", "4", "--players", "2",
                 "--records", str(path), "--record-every", "3"]) == 0
    assert sorted(r.game_index for r in read_records(path)) == [0, 3]
    capsys.readouterr()
    assert main(["eval", "--game", race, "--games", "4", "--players", "2", "--records",
                 str(tmp_path / "no" / "such.jsonl")]) == 2
    err = capsys.readouterr().err.strip()
    assert "--records: the folder" in err and "does not exist" in err and "\n" not in err


def test_eval_command_searches_with_a_checkpoint_as_prior_and_value(tmp_path, capsys):
    checkpoint = "training/checkpoints/dragonhunt_2p_scratch_s0.zip"
    assert main(["eval", "--game", "dragonhunt", "--agents", "mcts,random", "--games", "1", "--mcts-sims", "4",
                 "--mcts-depth", "3", "--mcts-rollout", checkpoint, "--mcts-value", checkpoint,
                 "--max-hands", "1"]) == 0
    assert "mcts" in capsys.readouterr().out
