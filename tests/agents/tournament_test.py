"""Tournaments: schedule fairness, Wilson intervals, determinism, outputs, the eval CLI."""
import json
from collections import Counter

import pytest

from dragongym.agents.tournament import (load_tournament, merge_tournaments, run_tournament, schedule,
                               wilson_interval)
from dragongym.training.cli import main


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


@pytest.mark.parametrize("num_agents,num_players", [(2, 2), (3, 2), (4, 3), (2, 4), (6, 6)])
def test_every_agent_sits_in_every_seat_equally_often(num_agents, num_players):
    from math import comb
    blocks = comb(num_agents, num_players) if num_agents >= num_players else 1
    seatings = schedule(num_agents, num_players, 3 * num_players * blocks)
    per_seat = Counter((seat, k) for s in seatings for seat, k in enumerate(s))
    counts = {per_seat[(seat, k)] for seat in range(num_players) for k in range(num_agents)}
    assert len(counts) == 1 and counts.pop() > 0
    if num_agents >= num_players:
        assert all(len(set(s)) == num_players for s in seatings)


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
    assert (tmp_path / "tournament.csv").read_text().count("\n") == 3
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
