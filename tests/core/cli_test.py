"""The dragongym command line (on the toy game)."""
import pytest

from dragongym.training.cli import main, parse_game_options


def test_game_options_are_parsed():
    assert parse_game_options(["--max-hands", "4", "--auto-single=false", "--rate", "0.5",
                               "--name", "x"]) == {"max_hands": 4, "auto_single": False,
                                                   "rate": 0.5, "name": "x"}
    with pytest.raises(ValueError):
        parse_game_options(["--max-hands"])
    with pytest.raises(ValueError):
        parse_game_options(["stray"])


def test_a_set_of_names_is_given_comma_separated(capsys):
    """``--terrain-packs cruel_caves,wicked_woods``: a subset option from the
    command line; a name outside the set is refused in one line."""
    import dragongym
    game = dragongym.get_game("dragons_down")
    options = parse_game_options(["--terrain-packs", "cruel_caves,wicked_woods"], game)
    assert game.make_config(**options).terrain_packs == ("cruel_caves", "wicked_woods")
    assert parse_game_options(["--terrain-packs", "wicked_woods"], game) == {"terrain_packs": ("wicked_woods",)}
    assert main(["match", "--game", "dragons_down", "--games", "1", "--max-turns", "1",
                 "--terrain-packs", "cruel_caves,wicked_woods"]) == 0
    assert main(["match", "--game", "dragons_down", "--terrain-packs", "cruel_caves,icy_isles"]) == 2
    err = capsys.readouterr().err.strip()
    assert "terrain_packs" in err and "icy_isles" in err and "comma-separated" in err and "\n" not in err


def test_match_prints_a_table(race, capsys):
    argv = ["match", "--game", "race", "--players", "3", "--agents", "random", "--games", "6",
            "--seed", "1", "--max-turns", "100"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("race v1: 3 players, 6 games (seats rotated), seed 1, max_turns=100")
    assert lines[1].split() == ["agent", "games", "wins", "draws", "losses", "win", "rate", "mean", "rank",
                                "mean", "reward", "mean", "length"]
    assert [line.split()[0] for line in lines[3:]] == ["random#0", "random#1", "random#2"]
    assert sum(int(line.split()[2]) for line in lines[3:]) == 6             # one winner a game
    assert all(int(line.split()[2]) + int(line.split()[4]) == 6 for line in lines[3:])  # no draws
    assert main(argv) == 0
    assert capsys.readouterr().out == out  # same seed, same table


def test_match_reports_bad_input(race, capsys):
    assert main(["match", "--game", "race", "--games", "2", "--no-such-option", "1"]) == 2
    assert "invalid option for race" in capsys.readouterr().err
    assert main(["match", "--game", "race", "--agents", "random,random,random", "--players", "2"]) == 2
    assert main(["match", "--game", "race", "--agents", "nobody"]) == 2
    with pytest.raises(SystemExit):
        main(["match", "--game", "no_such_game"])


@pytest.mark.parametrize("argv, says", [
    (["match", "--seed", "-1"], "--seed: -1 is below 0"),
    (["eval", "--mcts-sims", "0", "--agents", "mcts,random"], "--mcts-sims: 0 is below 1"),
    (["eval", "--mcts-rollout", "foo", "--agents", "mcts,random"], "unknown rollout policy 'foo'"),
    (["eval", "--mcts-ms", "-5"], "--mcts-ms: -5 is below"),
    (["eval", "--mcts-value", "random", "--agents", "mcts,random"], "takes a self-play checkpoint"),
    (["eval", "--mcts-value", "nowhere.zip", "--agents", "mcts,random"], "no checkpoint file 'nowhere.zip'"),
    (["eval", "--workers", "0"], "--workers: 0 is below 1"),
    (["match", "--seed", str(2**64)], f"--seed: {2**64} is above {2**64 - 1}"),
    (["play", "--web", "--port", "70000"], "--port: 70000 is above 65535"),
    (["replay", "games.jsonl", "--to", "g.gif", "--fps", "0"], "--fps: 0 is not above 0"),
    (["replay", "games.jsonl", "--to", "g.gif", "--fps", "nan"], "--fps: nan is not a finite number"),
    (["replay", "games.jsonl", "--to", "g.gif", "--every", "two"], "--every: 'two' is not an integer"),
])
def test_bad_command_line_values_get_a_usage_error_not_a_traceback(argv, says, capsys):
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err
    assert err.strip().splitlines()[-1].startswith("dragongym ")     # usage, then the one error line


@pytest.mark.parametrize("argv, says", [
    (["match", "--players", "0"], "num_players must be an int in 2..6, got 0"),
    (["match", "--game", "dragon_pass", "--scenario", "19"], "scenario must be one of"),
])
def test_bad_game_options_get_one_line(argv, says, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert says in err and "\n" not in err


@pytest.mark.parametrize("command", ["match", "eval"])
def test_help_lists_every_games_options(command, capsys):
    with pytest.raises(SystemExit):
        main([command, "--help"])
    out = capsys.readouterr().out
    assert "game options" in out and "--scenario: one of '18.1', '18.2', '18.3'" in out
    assert "--max-hands: an int in 1..1000" in out and "--sandbox: one of" in out
