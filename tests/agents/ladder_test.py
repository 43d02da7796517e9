"""The reference ladder (agents/ladder.py, `dragongym ladder`): a toy game's
ladder end to end, each game's ladders on a tiny schedule, the stored round
robins and agents/LADDER.md, the rungs as opponents."""
import dataclasses
import json

import pytest

import dragongym
from dragongym.agents import register
from dragongym.agents import ladder as ladders
from dragongym.agents.ladder import (DRAW, LOSS, WIN, Ladder, PairResult, Rung, anchored_rating, pair_outcome,
                                     round_robin_ratings)
from dragongym.agents.match import GameOutcome
from dragongym.training.cli import main


@pytest.fixture
def stored_here(tmp_path, monkeypatch):
    """Ladder files, and LADDER.md's copy, go to a temporary folder for one test."""
    monkeypatch.setattr(ladders, "LADDER_DIR", tmp_path / "ladders")
    markdown = tmp_path / "LADDER.md"
    markdown.write_text(ladders.MARKDOWN_FILE.read_text())
    monkeypatch.setattr(ladders, "MARKDOWN_FILE", markdown)
    return tmp_path


@pytest.fixture
def toy_ladder(race, monkeypatch):
    """Race to Ten with random < MCTS (30 simulations), 12 games a pair."""
    register("race.mcts30", lambda game=None, **kw: dragongym.agents.make_agent("mcts", game=game, simulations=30))
    ladder = Ladder("race", "toy", (("num_players", 2),),
                    (Rung("random", "random", "uniform"), Rung("race.mcts30", "mcts", "MCTS, 30 simulations")),
                    games=12, seed=5, about="two players")
    monkeypatch.setitem(ladders.LADDERS, ladder.id, ladder)
    yield ladder
    dragongym.agents.base._FACTORIES.pop("race.mcts30", None)


def outcome(seating, ranks):
    return GameOutcome(0, tuple(seating), (0.0,) * len(seating), tuple(ranks), (0.0,) * len(seating), 1, False)


def test_a_game_is_won_by_the_agent_whose_seats_alone_hold_first_place():
    assert pair_outcome(outcome((0, 1), (1, 2))) == WIN
    assert pair_outcome(outcome((1, 0), (1, 2))) == LOSS
    assert pair_outcome(outcome((0, 1), (1, 1))) == DRAW                  # truncated: everyone tied
    assert pair_outcome(outcome((0, 1, 0, 1), (2, 1, 3, 4))) == LOSS     # agent 1's first seat leads
    assert pair_outcome(outcome((0, 1, 0, 1), (1, 3, 1, 2))) == WIN      # agent 0's two seats share first
    assert pair_outcome(outcome((0, 1, 0), (1, 1, 3))) == DRAW           # first place shared by both agents


def test_a_pair_counts_decided_games_with_a_wilson_interval():
    p = PairResult("a", "b", "WWWLD")
    assert (p.wins, p.draws, p.losses, p.decided) == (3, 1, 1, 4)
    assert p.decided_rate == 0.75
    lo, hi = p.decided_ci
    assert lo < 0.75 < hi


def test_round_robin_ratings_order_the_rungs_by_their_results():
    pairs = [PairResult("mid", "low", "W" * 30 + "L" * 10), PairResult("high", "low", "W" * 40),
             PairResult("high", "mid", "W" * 30 + "D" * 5 + "L" * 5)]
    ratings = round_robin_ratings(["low", "mid", "high"], pairs)
    assert ratings["low"][0] < ratings["mid"][0] < ratings["high"][0]
    assert ratings == round_robin_ratings(["low", "mid", "high"], pairs)       # a fixed order: the same numbers


def test_a_new_agent_is_rated_against_frozen_rungs():
    anchors = {"low": (15.0, 1.0), "high": (35.0, 1.0)}
    between = anchored_rating([PairResult("x", "low", "W" * 40), PairResult("x", "high", "L" * 40)], anchors)
    assert 15.0 < between[0] < 35.0 and between[1] < 25 / 3
    above = anchored_rating([PairResult("x", "low", "W" * 40), PairResult("x", "high", "W" * 40)], anchors)
    assert above[0] > 35.0
    assert anchors == {"low": (15.0, 1.0), "high": (35.0, 1.0)}


def test_the_toy_ladder_end_to_end(toy_ladder, stored_here, capsys):
    assert main(["ladder", "--game", "race", "--config", "toy", "--round-robin", "--write"]) == 0
    out = capsys.readouterr().out
    assert "race.mcts30" in out and "wrote race_toy.json" in out
    assert "`race/toy`" in (stored_here / "LADDER.md").read_text()
    stored = json.loads(toy_ladder.file.read_text())
    assert stored["rungs"] == ["random", "race.mcts30"] and len(stored["pairs"]) == 1
    assert stored["command"].startswith("dragongym ladder --game race --config toy --round-robin")
    assert len(stored["pairs"][0]["outcomes"]) == 12
    assert stored["ratings"]["race.mcts30"][0] > stored["ratings"]["random"][0]

    out_dir = stored_here / "placed"
    assert main(["ladder", "--game", "race", "--config", "toy", "--agent", "random", "--out", str(out_dir)]) == 0
    table = capsys.readouterr().out
    assert "ladder race/toy" in table and "OpenSkill" in table and "race.mcts30" in table
    placed = json.loads((out_dir / "ladder.json").read_text())
    assert placed["agent"] == "random" and set(placed["against"]) == {"random", "race.mcts30"}
    assert sum(r["games"] for r in placed["against"].values()) == 24
    mu = placed["rating"]["mu"]
    assert placed["rating"]["interval"][0] < mu < placed["rating"]["interval"][1]
    # the same schedule, seeds and seats: a second run, resumed from the kept games, gives the same figures
    assert main(["ladder", "--game", "race", "--config", "toy", "--agent", "random", "--out", str(out_dir),
                 "--resume"]) == 0
    capsys.readouterr()
    assert json.loads((out_dir / "ladder.json").read_text()) == placed


def test_a_run_stopped_before_its_later_pairs_resumes_them_and_a_missing_folder_is_refused(
        toy_ladder, stored_here, tmp_path):
    # a run stopped during its first pair left no games log for the others:
    # --resume finishes the first and starts the rest
    register("race.mcts5", lambda game=None, **kw: dragongym.agents.make_agent("mcts", game=game, simulations=5))
    toy_ladder = dataclasses.replace(toy_ladder, rungs=toy_ladder.rungs + (Rung("race.mcts5", "mcts", "5"),))
    whole = ladders.round_robin(toy_ladder, progress=False, log=lambda line: None, out=str(tmp_path / "whole"))
    assert len(whole["pairs"]) == 3
    cut = tmp_path / "cut"
    first = cut / "0-race.mcts30-random"
    first.mkdir(parents=True)
    lines = (tmp_path / "whole" / "0-race.mcts30-random" / "games.jsonl").read_text().splitlines(keepends=True)
    (first / "games.jsonl").write_text("".join(lines[:5]))
    again = ladders.round_robin(toy_ladder, progress=False, log=lambda line: None, out=str(cut), resume=True)
    assert again == whole
    from dragongym.agents.tournament import OutFolderError
    with pytest.raises(OutFolderError, match="nothing to resume"):
        ladders.round_robin(toy_ladder, progress=False, log=lambda line: None, out=str(tmp_path / "typo"),
                            resume=True)
    dragongym.agents.base._FACTORIES.pop("race.mcts5", None)


def test_a_ladder_that_gained_a_rung_resumes_its_old_pairs_under_their_new_numbers(toy_ladder, tmp_path):
    # rungs A, B, C: pairs 0 B-A, 1 C-A, 2 C-B; with D appended: 0 B-A, 1 C-A, 2 D-A, 3 C-B, ...
    # so C-B's games lie under number 2 while the longer ladder looks for them under 3
    for name, sims in (("race.mcts5", 5), ("race.mcts3", 3)):
        register(name, lambda game=None, s=sims, **kw: dragongym.agents.make_agent("mcts", game=game, simulations=s))
    three = dataclasses.replace(toy_ladder, rungs=toy_ladder.rungs + (Rung("race.mcts5", "mcts", "5"),))
    four = dataclasses.replace(three, rungs=three.rungs + (Rung("race.mcts3", "mcts", "3"),))
    out = tmp_path / "out"
    ladders.round_robin(three, progress=False, log=lambda line: None, out=str(out))
    old_pair = sorted(p.name for p in out.iterdir())[2]
    assert old_pair.startswith("2-race.mcts5-")
    before = (out / old_pair / "games.jsonl").read_text()
    grown = ladders.round_robin(four, progress=False, log=lambda line: None, out=str(out), resume=True)
    assert not (out / ("3-" + old_pair[2:])).exists(), "the old pair was played again under its new number"
    assert (out / old_pair / "games.jsonl").read_text() == before
    assert grown == ladders.round_robin(four, progress=False, log=lambda line: None)
    for name in ("race.mcts5", "race.mcts3"):
        dragongym.agents.base._FACTORIES.pop(name, None)


def test_placement_needs_the_ladders_stored_round_robin(toy_ladder, stored_here, capsys):
    assert main(["ladder", "--game", "race", "--config", "toy", "--agent", "random"]) == 2
    assert "has no stored round robin yet" in capsys.readouterr().err


def test_a_stale_round_robin_is_refused(toy_ladder, stored_here, capsys):
    data = ladders.round_robin(toy_ladder, progress=False, log=lambda line: None)
    ladders.save_round_robin(toy_ladder, dict(data, game_version=-1), "by hand")
    assert main(["ladder", "--game", "race", "--config", "toy", "--agent", "random"]) == 2
    assert "game_version is -1" in capsys.readouterr().err


def test_a_round_robin_of_a_rung_whose_budget_changed_is_stale(race, stored_here, monkeypatch):
    import functools

    monkeypatch.setitem(ladders.MCTS_RUNGS, "race.mcts_toy", {"simulations": 5})
    register("race.mcts_toy", functools.partial(ladders.make_rung, "race.mcts_toy"))
    ladder = Ladder("race", "toy", (("num_players", 2),),
                    (Rung("random", "random", "uniform"), Rung("race.mcts_toy", "mcts", "MCTS, 5 simulations")),
                    games=4, seed=5)
    monkeypatch.setitem(ladders.LADDERS, ladder.id, ladder)
    try:
        data = ladders.round_robin(ladder, progress=False, log=lambda line: None)
        assert data["rung_settings"] == {"random": None, "race.mcts_toy": {"mcts": {"simulations": 5}}}
        ladders.save_round_robin(ladder, data, "by hand")
        assert ladders.load_round_robin(ladder)["rungs"] == ["random", "race.mcts_toy"]
        monkeypatch.setitem(ladders.MCTS_RUNGS, "race.mcts_toy", {"simulations": 6})
        with pytest.raises(ladders.LadderError, match="rung_settings .* stale"):
            ladders.load_round_robin(ladder)
    finally:
        dragongym.agents.base._FACTORIES.pop("race.mcts_toy", None)


def test_a_round_robin_reuses_the_stored_pairs_of_unchanged_rungs_and_plays_a_changed_rungs(
        race, stored_here, monkeypatch):
    import functools

    monkeypatch.setitem(ladders.MCTS_RUNGS, "race.mcts_toy", {"simulations": 5})
    register("race.mcts_toy", functools.partial(ladders.make_rung, "race.mcts_toy"))
    register("race.mcts7", lambda game=None, **kw: dragongym.agents.make_agent("mcts", game=game, simulations=7))
    ladder = Ladder("race", "toy", (("num_players", 2),),
                    (Rung("random", "random", "uniform"), Rung("race.mcts7", "mcts", "7"),
                     Rung("race.mcts_toy", "mcts", "MCTS, 5 simulations")), games=6, seed=5)
    monkeypatch.setitem(ladders.LADDERS, ladder.id, ladder)
    try:
        assert ladders.reusable_results(ladder) == {}                 # nothing stored yet
        ladders.save_round_robin(ladder, ladders.round_robin(ladder, progress=False, log=lambda line: None), "t")
        monkeypatch.setitem(ladders.MCTS_RUNGS, "race.mcts_toy", {"simulations": 6})
        said = []
        reused = ladders.round_robin(ladder, progress=False, log=said.append, reuse=True)
        taken = [line for line in said if "taken from" in line]
        assert taken == ["race/toy: race.mcts7 against random, 6 games, taken from race_toy.json"]
        # the same round robin as one played whole with the changed rung
        assert reused == ladders.round_robin(ladder, progress=False, log=lambda line: None)
        assert list(ladders.reusable_results(ladder, games=5)) == []    # another schedule: nothing to take
        ladders.save_round_robin(ladder, dict(reused, game_version=-1), "t")
        assert ladders.reusable_results(ladder) == {}                 # another game version: nothing either
    finally:
        for name in ("race.mcts_toy", "race.mcts7"):
            dragongym.agents.base._FACTORIES.pop(name, None)


@pytest.mark.parametrize("argv, why", [
    (["--agent", "random", "--reuse-stored"], "--reuse-stored takes a round robin's pairs"),
    (["--agent", "no-such-bot"], "unknown agent no-such-bot"),
    (["--agent", "missing.zip"], "missing.zip"),
    (["--config", "9p", "--agent", "random"], "no ladder configuration '9p'"),
    ([], "give --agent SPEC to place an agent, or --round-robin"),
    (["--agent", "random", "--write"], "--write stores a round robin"),
    (["--agent", "random", "--mcts-sims", "4"], "give --agent mcts"),
    (["--agent", "random", "--resume"], "--resume needs the --out folder"),
])
def test_bad_ladder_commands_get_one_line_errors(argv, why, capsys):
    assert main(["ladder", "--game", "dragonhunt"] + argv) == 2
    err = capsys.readouterr().err
    assert why in err and len(err.strip().splitlines()) == 1


def test_a_solo_ladder_orders_its_rungs_by_mean_score(dive, stored_here, monkeypatch):
    ladder = Ladder("dive", "toy", (), (Rung("random", "random", "uniform"),), games=8, seed=1)
    monkeypatch.setitem(ladders.LADDERS, ladder.id, ladder)
    data = ladders.round_robin(ladder, progress=False, log=lambda line: None)
    assert len(data["scores"]["random"]) == 8 and "pairs" not in data
    ladders.save_round_robin(ladder, data, "test")
    placement = ladders.place(ladder, "random", progress=False, log=lambda line: None)
    assert placement.rating is None
    # the same agent on the same deals with the same seeds: every paired difference is zero
    assert placement.as_dict()["against"]["random"]["mean"] == 0.0
    assert "mean score" in placement.table()
    said = []
    assert ladders.round_robin(ladder, progress=False, log=said.append, reuse=True) == data
    assert said == ["dive/toy: random alone, 8 games, taken from dive_toy.json"]


TINY = {
    # each game's ladders with short games, two games a pair: the mechanism, not the figures
    "dragonhunt": {"max_hands": 1},
    "dragons_down": {"max_turns": 1},
    "dragon_pass": {"max_turns": 1},
}


@pytest.mark.parametrize("ladder_id", ["dragonhunt/2p", "dragonhunt/4p", "dragons_down/solo-open",
                                       "dragons_down/2-explore", "dragon_pass/18.8"])
def test_each_games_ladder_plays_on_a_tiny_schedule(ladder_id, stored_here, monkeypatch):
    full = ladders.LADDERS[ladder_id]
    rungs = tuple(r for r in full.rungs if r.kind != "mcts")      # MCTS is timed in the ladder runs, not here
    ladder = dataclasses.replace(full, options=tuple(sorted({**full.option_dict, **TINY[full.game]}.items())),
                                 rungs=rungs, games=2)
    monkeypatch.setitem(ladders.LADDERS, ladder.id, ladder)
    data = ladders.round_robin(ladder, progress=False, log=lambda line: None)
    ladders.save_round_robin(ladder, data, "test")
    placement = ladders.place(ladder, "random", progress=False, log=lambda line: None)
    if ladder.solo:
        assert len(placement.scores) == 2
    else:
        assert [r.games for r in placement.results.values()] == [2] * len(rungs)
        assert placement.rating is not None
    assert ladder_id in placement.table()


def test_every_rung_is_an_agent_id_and_the_mcts_rungs_have_a_fixed_budget():
    for ladder in ladders.LADDERS.values():
        assert [r.kind for r in ladder.rungs][:3] == ["random", "heuristic", "mcts"]
        for rung in ladder.rungs:
            assert dragongym.agents.is_agent_id(rung.agent)
    for rung_id, settings in ladders.MCTS_RUNGS.items():
        assert "simulations" in settings and "time_ms" not in settings
        # a game's rung, or a configuration's own (named after an existing ladder)
        game, _, what = rung_id.partition(".")
        assert what == "mcts" or (what.startswith("mcts_") and f"{game}/{what[5:]}" in ladders.LADDERS), rung_id
    for ladder in ladders.LADDERS.values():
        if ladder.game in {"dragonhunt", "dragons_down", "dragon_pass"}:
            assert ladder.rungs[2].agent == ladders.mcts_rung_id(ladder.game, ladder.config)


def test_the_shipped_learned_rungs_load_and_play_a_game():
    from dragongym.agents.tournament import run_tournament

    for (game, config), (rung_id, file, _) in ladders.LEARNED_RUNGS.items():
        assert (ladders.CHECKPOINT_DIR / file).exists()
        options = {**ladders.get_ladder(game, config).option_dict, **TINY[game]}
        result = run_tournament(game, [rung_id, "random"], 2, seed=0, progress=False, **options)
        seats = options.get("num_players", 2)
        assert sum(a.games for a in result.agents) == 2 * seats      # a seat of each game, each played


@pytest.mark.parametrize("game", ["dragonhunt", "dragons_down", "dragon_pass"])
def test_a_person_can_face_each_rung(game):
    from dragongym.agents.play import PlaySession
    from tests.agents.play_test import play_out

    first, *others = ladders.ladders_of(game)
    faced = [(first, first.rungs)] + [(ladder, ladder.rungs[3:]) for ladder in others if len(ladder.rungs) > 3]
    for ladder, rungs in faced:             # every rung of the first ladder, and every learned rung
        options = {**ladder.option_dict, **TINY[game]}
        if game == "dragons_down":
            options["num_players"] = 2
        for rung in rungs:
            session = PlaySession(game, options, seat=0, opponents=[rung.agent], seed=3)
            play_out(session)
            assert session.finished


def test_stored_round_robins_are_the_ladders_and_their_ratings_follow_from_their_games():
    for ladder in ladders.LADDERS.values():
        if not ladder.file.exists():
            continue
        data = ladders.load_round_robin(ladder)
        assert data["command"].startswith("dragongym ladder")
        if "pairs" in data:
            assert all(p["games"] == ladder.games for p in data["pairs"])
            again = round_robin_ratings(data["rungs"], ladders.stored_pairs(data))
            assert {r: list(x) for r, x in again.items()} == data["ratings"]


def test_ladder_md_shows_every_ladder_and_its_stored_round_robin():
    text = ladders.MARKDOWN_FILE.read_text()
    assert ladders.ladder_markdown() in text, "run dragongym ladder --write-markdown"
    for ladder in ladders.LADDERS.values():
        assert f"`{ladder.id}`" in text


def test_a_rungs_settings_go_into_its_games_logs_header():
    # a round robin resumed after a rung's budget or checkpoint changed must not
    # mix the old rung's games with the new one's (tournament.agent_settings)
    from dragongym.agents.ladder import MCTS_RUNGS, rung_settings
    from dragongym.agents.tournament import agent_settings, file_sha256

    assert rung_settings("dragonhunt.mcts") == {"mcts": dict(MCTS_RUNGS["dragonhunt.mcts"])}
    learned = rung_settings("dragonhunt.ppo_2p")
    assert learned["checkpoint"] == "dragonhunt_2p_continued_s0.zip"
    assert learned["sha256"] == file_sha256(ladders.CHECKPOINT_DIR / learned["checkpoint"])
    assert rung_settings("random") is None and rung_settings("dragonhunt.heuristic") is None
    assert agent_settings("dragon_pass.mcts") == {"rung": rung_settings("dragon_pass.mcts")}
    assert agent_settings("random") is None
