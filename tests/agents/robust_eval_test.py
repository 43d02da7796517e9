"""Bad input and interruptions in matches and tournaments: a clear one-line
error, no traceback, and no finished game thrown away.

* ``eval --resume`` over a games log with a torn last line (a crash mid-write)
  drops that line with a warning and plays its game again; a broken line
  anywhere else, or a line that is not a game of this schedule, is an error
  naming the file and the line, and the folder is left as it was.
* An agent with only ``act`` (duck-typed) plays everywhere an :class:`Agent`
  does: ``make_agent`` gives it the protocol's defaults.
* A checkpoint that is missing, not a checkpoint zip, or trained on another
  game is one line naming the file, exit status 2, before any game.
* Ctrl-C during ``eval`` or ``match``: one line saying what is kept (and the
  command that resumes an ``eval --out``), exit status 130.

Everything runs on Race to Ten (tests/core/toygame.py), except the
checkpoint checks, which use the shipped checkpoints.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

import dragongym
from dragongym.agents import Agent, AgentLoadError, DuckAgent, make_agent, play_match, register
from dragongym.agents.base import _FACTORIES
from dragongym.agents.game_record import read_records, replay
from dragongym.agents.match import MatchInterrupted
from dragongym.agents.tournament import GAMES_FILE, OutFolderError, TournamentInterrupted, run_tournament
from dragongym.training.cli import main

ROOT = Path(__file__).resolve().parents[2]
DRAGONS_DOWN_CHECKPOINT = "training/checkpoints/dragons_down_2p_bc_v7_s0.zip"


class ActOnly:
    """An agent in the README's sense: nothing but ``act`` (no Agent base,
    no reset, no uses_state, no act_batch, no name)."""

    def act(self, obs, mask, rng):
        return int(rng.choice(np.flatnonzero(mask)))


class Interrupter(Agent):
    """Plays as :class:`ActOnly`, but its ``at``-th decision (counted over
    all its games) raises KeyboardInterrupt, as Ctrl-C there would."""

    def __init__(self, at):
        self.at = at
        self.decisions = 0

    def act(self, obs, mask, rng):
        self.decisions += 1
        if self.at is not None and self.decisions == self.at:
            raise KeyboardInterrupt
        return ActOnly().act(obs, mask, rng)


def _interrupted(run, *args, **kwargs):
    """``run(*args, **kwargs)``, failing the test (not ending the session)
    where a KeyboardInterrupt gets out of it."""
    try:
        return run(*args, **kwargs)
    except KeyboardInterrupt as escaped:
        if isinstance(escaped, (MatchInterrupted, TournamentInterrupted)):
            raise
        pytest.fail("a KeyboardInterrupt got out: no clean stop")


ARMED = {"at": None}


@pytest.fixture
def duck_agents():
    """``"actonly"`` and ``"interrupter"`` registered (``ARMED["at"]`` arms the latter)."""
    register("actonly", lambda game=None, **kwargs: ActOnly())
    register("interrupter", lambda game=None, **kwargs: Interrupter(ARMED["at"]))
    ARMED["at"] = None
    yield
    ARMED["at"] = None
    for agent_id in ("actonly", "interrupter"):
        _FACTORIES.pop(agent_id, None)


def _one_line(text):
    lines = [line for line in text.splitlines() if line.strip()]
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


def _snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(Path(folder).iterdir())}


# ------------------------------------------------------------------ 1. torn games logs

EVAL = ["eval", "--agents", "random,random", "--games", "6", "--seed", "7", "--max-turns", "20"]


def _eval(race, out, *more):
    return main(EVAL[:1] + ["--game", race] + EVAL[1:] + ["--out", str(out), *more])


@pytest.fixture
def logs(race, tmp_path, capsys):
    """The games log of the whole tournament (``full``), and a function that
    writes the log an interrupted run would have left: its header and
    games ``0..k-1``, then ``tail`` bytes."""
    assert _eval(race, tmp_path / "full") == 0
    capsys.readouterr()
    full = tmp_path / "full"
    lines = (full / GAMES_FILE).read_text().splitlines(keepends=True)

    def interrupted(k, tail=""):
        out = tmp_path / f"cut{k}"
        out.mkdir()
        (out / GAMES_FILE).write_text("".join(lines[:1 + k]) + tail)
        return out

    return full, lines, interrupted


def _valid_json_lines(path):
    text = Path(path).read_text()
    assert text.endswith("\n")
    return [json.loads(line) for line in text.splitlines()]


def test_resume_drops_a_torn_last_line_and_plays_its_game_again(race, logs, capsys):
    full, lines, interrupted = logs
    out = interrupted(3, tail=lines[4][:25])                  # game 3 torn mid-write (no line end)
    assert _eval(race, out, "--resume") == 0
    captured = capsys.readouterr()
    warning = _one_line(captured.err)
    assert warning.startswith("dragongym: warning: ") and f"{out / GAMES_FILE}, line 5" in warning
    assert "torn" in warning and "dropped" in warning and "game 3 will be played again" in warning
    logged = _valid_json_lines(out / GAMES_FILE)
    assert [g["index"] for g in logged[1:]] == [0, 1, 2, 3, 4, 5]
    assert logged == _valid_json_lines(full / GAMES_FILE)
    assert json.loads((out / "tournament.json").read_text()) == json.loads((full / "tournament.json").read_text())


def test_a_torn_header_or_an_empty_log_starts_the_log_again(race, logs, capsys):
    full, lines, interrupted = logs
    torn_header = full.parent / "torn_header"
    torn_header.mkdir()
    (torn_header / GAMES_FILE).write_text(lines[0][:30])
    empty = full.parent / "empty"
    empty.mkdir()
    (empty / GAMES_FILE).write_text("")
    for out in (torn_header, empty):
        assert _eval(race, out, "--resume") == 0
        assert "every game will be played" in _one_line(capsys.readouterr().err)
        assert _valid_json_lines(out / GAMES_FILE) == _valid_json_lines(full / GAMES_FILE)


def test_a_complete_last_line_without_its_line_end_is_kept(race, logs, capsys):
    full, lines, interrupted = logs
    out = interrupted(2, tail=lines[3].rstrip("\n"))          # game 2 written, its "\n" not
    assert _eval(race, out, "--resume") == 0
    assert capsys.readouterr().err == ""
    assert _valid_json_lines(out / GAMES_FILE) == _valid_json_lines(full / GAMES_FILE)


def _edit(line, **changes):
    g = json.loads(line)
    for key, value in changes.items():
        if value is KeyError:
            del g[key]
        else:
            g[key] = value
    return json.dumps(g) + "\n"


@pytest.mark.parametrize("case,bad_line,expected", [
    ("torn mid-file", lambda lines: lines[2][:30] + "\n", "line 3: not JSON"),
    ("not UTF-8", lambda lines: "written as bytes below\n", "line 3: not JSON (not UTF-8 text)"),
    ("not an object", lambda lines: "[1, 2]\n", "line 3: a game's outcome is a JSON object, not list"),
    ("no ranks", lambda lines: _edit(lines[2], ranks=KeyError), "line 3: not a game's outcome: it has no ranks"),
    ("unknown key", lambda lines: _edit(lines[2], winner=1),
     "line 3: not a game's outcome: unknown key(s) winner"),
    ("index out of range", lambda lines: _edit(lines[2], index=99),
     "line 3: game index 99 is not one of this tournament's games 0..5"),
    ("index not an int", lambda lines: _edit(lines[2], index="1"), "line 3: game index '1' is not one"),
    ("another seating", lambda lines: _edit(lines[2], seating=[0, 0]),
     "line 3: game 1: seating [0, 0] is not the schedule's [1, 0]"),
    ("bad ranks", lambda lines: _edit(lines[2], ranks=[0, 7]), "line 3: game 1: ranks [0, 7] are not 2 ranks"),
    ("duplicate, another result", lambda lines: _edit(lines[1], decisions=999),
     "line 3: game 0 again, with another result than on line 2"),
])
def test_a_bad_line_before_the_end_is_an_error_naming_it_and_nothing_changes(race, logs, capsys, case, bad_line,
                                                                           expected):
    full, lines, interrupted = logs
    out = interrupted(0, tail="".join([lines[1], bad_line(lines), lines[3]]))
    if case == "not UTF-8":
        (out / GAMES_FILE).write_bytes("".join([lines[0], lines[1]]).encode() + b"\xff\xfe\n" + lines[3].encode())
    before = _snapshot(out)
    assert _eval(race, out, "--resume") == 2
    err = _one_line(capsys.readouterr().err)
    assert err.startswith(f"dragongym: error: --out: {out / GAMES_FILE}, {expected}"), err
    assert _snapshot(out) == before                           # nothing written, truncated or saved


def test_a_bad_last_line_that_is_whole_json_is_an_error_too(race, logs, capsys):
    """Only a line that is not JSON can be torn: a whole JSON line at the end
    that is no game of this schedule is an error like anywhere else."""
    full, lines, interrupted = logs
    out = interrupted(2, tail=_edit(lines[3], index=-1))
    before = _snapshot(out)
    assert _eval(race, out, "--resume") == 2
    assert "line 4: game index -1 is not one of" in _one_line(capsys.readouterr().err)
    assert _snapshot(out) == before


def test_a_duplicate_with_the_same_result_counts_once(race, logs, capsys):
    full, lines, interrupted = logs
    out = interrupted(3, tail=lines[2])                       # game 1 logged twice, the same
    assert _eval(race, out, "--resume") == 0
    capsys.readouterr()
    assert json.loads((out / "tournament.json").read_text()) == json.loads((full / "tournament.json").read_text())


def test_run_tournament_raises_out_folder_errors_naming_the_line(race, logs):
    full, lines, interrupted = logs
    out = interrupted(0, tail="".join([lines[1], "{oops\n", lines[3]]))
    with pytest.raises(OutFolderError, match=r"games\.jsonl, line 3: not JSON"):
        run_tournament(race, ["random", "random"], 6, seed=7, progress=False, out=str(out), resume=True,
                       max_turns=20, num_players=2)


# ------------------------------------------------------------------ 2. agents with only act

def test_make_agent_gives_an_act_only_agent_the_defaults_of_agent(race, duck_agents):
    game = dragongym.get_game(race)
    agent = make_agent("actonly", game=game)
    assert isinstance(agent, Agent) and isinstance(agent, DuckAgent) and isinstance(agent.wrapped, ActOnly)
    assert agent.uses_state is False and agent.name == Agent.name
    agent.reset()                                             # the default: nothing
    rng = np.random.default_rng(0)
    mask = np.array([[0, 1, 1], [1, 0, 0]], dtype=np.int8)
    actions = agent.act_batch(np.zeros((2, 7), dtype=np.float32), mask, rng)
    assert actions.dtype == np.int64 and actions[1] == 0 and actions[0] in (1, 2)
    state = game.new_states(1)
    game.reset(state, np.array([3], dtype=np.uint64), game.make_config(num_players=2))
    assert game.mask_of(state)[agent.act_state(game, state, 0, rng)]

    class Own:
        name = "own"

        def __init__(self):
            self.resets = 0

        def reset(self):
            self.resets += 1

        def act(self, obs, mask, rng):
            return int(np.flatnonzero(mask)[0])

        def values(self, obs):
            return np.zeros(len(obs))

    own = DuckAgent(Own())
    own.reset()
    assert own.wrapped.resets == 1 and own.name == "own" and callable(own.values)


def test_a_factory_that_returns_no_agent_is_a_clear_error(race):
    register("nothing", lambda game=None, **kwargs: object())
    try:
        with pytest.raises(AgentLoadError, match="agent 'nothing': its factory returned object .* no act"):
            make_agent("nothing")
    finally:
        _FACTORIES.pop("nothing", None)


def test_an_act_only_agent_plays_matches_and_tournaments(race, duck_agents, tmp_path):
    result = play_match(race, ["actonly", "random"], 4, seed=1, num_players=2)
    assert [a.games for a in result.stats] == [4, 4]
    assert sum(a.decisions for a in result.stats) == sum(g.decisions for g in result.games)
    direct = play_match(race, [ActOnly(), "random"], 4, seed=1, num_players=2)
    assert [g.ranks for g in direct.games] == [g.ranks for g in result.games]
    kwargs = dict(num_games=6, seed=2, progress=False, num_players=2)
    one = run_tournament(race, ["actonly", "random", ActOnly()], workers=1, **kwargs)
    two = run_tournament(race, ["actonly", "random", "actonly"], workers=2, **kwargs)
    assert [(g.seating, g.ranks) for g in one.games] == [(g.seating, g.ranks) for g in two.games]
    # a search agent's rollouts (act_state) and its prior-only agent (reset)
    mcts = run_tournament(race, ["mcts", "random"],
                          agent_kwargs={"mcts": {"rollout": "actonly", "simulations": 4}}, **kwargs)
    assert sum(a.games for a in mcts.agents) == 12


def test_an_act_only_agent_plays_from_the_command_line(race, duck_agents, tmp_path, capsys):
    assert main(["match", "--game", race, "--agents", "actonly,random", "--games", "4"]) == 0
    assert main(["eval", "--game", race, "--agents", "actonly,random", "--games", "4", "--out",
                 str(tmp_path / "e")]) == 0
    assert main(["eval", "--game", race, "--agents", "mcts,random", "--games", "2", "--mcts-sims", "3",
                 "--mcts-rollout", "actonly"]) == 0
    out = capsys.readouterr().out
    assert out.count("actonly") >= 2


# ------------------------------------------------------------------ 3. checkpoints that cannot play

@pytest.fixture
def bad_checkpoints(tmp_path):
    """``(path, what the error says)`` of a missing file, a file that is not a
    zip, a zip that is not a checkpoint, and a Dragons Down checkpoint."""
    junk = tmp_path / "junk.zip"
    junk.write_text("not a zip at all")
    other_zip = tmp_path / "other.zip"
    with zipfile.ZipFile(other_zip, "w") as archive:
        archive.writestr("readme.txt", "hello")
    return [(str(tmp_path / "runs" / "x.zip"), "no such file"),
            (str(junk), "is not a checkpoint zip"),
            (str(other_zip), "is not a checkpoint zip (a zip without the checkpoint's data member)"),
            (DRAGONS_DOWN_CHECKPOINT, "was trained on dragons_down, not dragonhunt")]


@pytest.mark.parametrize("command", ["match", "eval"])
def test_a_checkpoint_that_cannot_play_is_one_line_before_any_game(command, bad_checkpoints, tmp_path, capsys):
    for path, why in bad_checkpoints:
        out, records = tmp_path / f"out_{command}", tmp_path / "records.jsonl"
        argv = [command, "--game", "dragonhunt", "--agents", f"random,{path}", "--games", "2", "--max-hands", "1",
                "--records", str(records)] + (["--out", str(out)] if command == "eval" else [])
        assert main(argv) == 2
        err = _one_line(capsys.readouterr().err)
        assert err.startswith(f"dragongym: error: {path}: {why}")
        assert not out.exists() and not records.exists()      # no game played, no file made


@pytest.mark.parametrize("flag", ["--mcts-rollout", "--mcts-value"])
def test_a_search_checkpoint_that_cannot_play_is_one_line_too(flag, bad_checkpoints, capsys):
    for path, why in bad_checkpoints[1:]:                     # a missing --mcts-value is argparse's own error
        assert main(["eval", "--game", "dragonhunt", "--agents", "mcts,random", "--games", "1", "--mcts-sims", "2",
                     "--max-hands", "1", flag, path]) == 2
        assert _one_line(capsys.readouterr().err).startswith(f"dragongym: error: {flag}: {path}: {why}")


def test_bad_checkpoints_raise_agent_load_errors_in_the_library(bad_checkpoints, tmp_path):
    from dragongym.agents.mcts import MCTSAgent
    game = dragongym.get_game("dragonhunt")
    for path, why in bad_checkpoints:
        with pytest.raises(AgentLoadError, match=re.escape(why)):
            make_agent(path, game=game)
        with pytest.raises(AgentLoadError, match=re.escape(why)):
            play_match("dragonhunt", ["random", path], 2, max_hands=1)
        for workers in (1, 2):
            with pytest.raises(AgentLoadError, match=re.escape(why)):
                run_tournament("dragonhunt", [path, "random"], 2, progress=False, workers=workers,
                               out=str(tmp_path / "never"), max_hands=1)
            assert not (tmp_path / "never").exists()
        with pytest.raises(AgentLoadError, match=re.escape(why)):
            MCTSAgent(game, value=path)
    # a zip that looks like a checkpoint but does not load: the loader's error, in one line
    fake = tmp_path / "fake.zip"
    with zipfile.ZipFile(fake, "w") as archive:
        archive.writestr("data", "{}")
    with pytest.raises(AgentLoadError, match=rf"^{re.escape(str(fake))}: cannot be loaded: [^\n]+$"):
        make_agent(str(fake), game=game)
    # the right game's checkpoint still loads and plays
    assert make_agent("training/checkpoints/dragonhunt_2p_bc_s1.zip", game=game).uses_state is False


def test_an_agent_a_worker_cannot_make_stops_the_tournament(tmp_path):
    """An agent whose factory fails in a worker process stops the tournament
    with that error (a pool initializer that raises would be restarted
    forever: the run would hang)."""
    script = (
        "import dragongym\n"
        "from dragongym.agents import register\n"
        "from dragongym.agents.tournament import run_tournament\n"
        "dragongym.register('race', 'tests.core.toygame:GAME')\n"
        "def broken(game=None, **kwargs):\n"
        "    raise ValueError('this agent cannot be made')\n"
        "register('broken', broken)\n"
        "try:\n"
        "    run_tournament('race', ['broken', 'random'], 4, progress=False, workers=2, num_players=2)\n"
        "except ValueError as error:\n"
        "    print('stopped:', error)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert "stopped: this agent cannot be made" in done.stdout, done.stderr[-2000:]


# ------------------------------------------------------------------ 4. Ctrl-C

CTRL_C = ["--games", "6", "--seed", "3", "--max-turns", "20"]


def test_ctrl_c_during_eval_keeps_the_finished_games_and_says_how_to_resume(race, duck_agents, tmp_path, capsys):
    out = tmp_path / "eval"
    ARMED["at"] = 7                                           # a few games in, in the middle of a game
    assert _interrupted(main, ["eval", "--game", race, "--agents", "interrupter,random", "--out", str(out),
                               *CTRL_C]) == 130
    captured = capsys.readouterr()
    line = _one_line(captured.err)
    kept = _valid_json_lines(out / GAMES_FILE)[1:]
    assert 0 < len(kept) < 6 and not (out / "tournament.json").exists()
    assert line.startswith(f"dragongym: interrupted: {len(kept)} of 6 games finished and are kept in "
                           f"{out / GAMES_FILE}; resume with: dragongym eval ")
    command = shlex.split(line.split("resume with: ", 1)[1])
    assert command[:2] == ["dragongym", "eval"] and "--resume" in command and "--max-turns" in command
    ARMED["at"] = None
    assert main(command[1:]) == 0
    capsys.readouterr()
    assert main(["eval", "--game", race, "--agents", "interrupter,random", "--out", str(tmp_path / "whole"),
                 *CTRL_C]) == 0
    assert json.loads((out / "tournament.json").read_text()) == \
        json.loads((tmp_path / "whole" / "tournament.json").read_text())


def test_ctrl_c_during_eval_without_out_says_the_games_are_lost(race, duck_agents, capsys):
    ARMED["at"] = 7
    assert _interrupted(main, ["eval", "--game", race, "--agents", "interrupter,random", *CTRL_C]) == 130
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("dragongym: interrupted: ") and " of 6 games had finished" in line
    assert "without --out nothing is saved, so their results are lost" in line


def test_ctrl_c_in_run_tournament_raises_what_was_kept(race, duck_agents, tmp_path):
    ARMED["at"] = 7
    with pytest.raises(TournamentInterrupted) as stopped:
        _interrupted(run_tournament, race, ["interrupter", "random"], 6, seed=3, progress=False,
                     out=str(tmp_path / "t"), max_turns=20, num_players=2)
    assert isinstance(stopped.value, KeyboardInterrupt)
    logged = _valid_json_lines(tmp_path / "t" / GAMES_FILE)[1:]
    assert [g.index for g in stopped.value.games] == [g["index"] for g in logged]
    assert stopped.value.scheduled == 6 and stopped.value.log == str(tmp_path / "t" / GAMES_FILE)


def test_ctrl_c_during_match_keeps_its_records_valid(race, duck_agents, tmp_path, capsys):
    records = tmp_path / "records.jsonl"
    ARMED["at"] = 7
    assert _interrupted(main, ["match", "--game", race, "--agents", "interrupter,random", "--records",
                               str(records), *CTRL_C]) == 130
    line = _one_line(capsys.readouterr().err)
    kept = read_records(records)                               # finished games only, each whole
    assert 0 < len(kept) < 6 and [r.game_index for r in kept] == list(range(len(kept)))
    for record in kept:
        replay(record)
    assert line.startswith(f"dragongym: interrupted: {len(kept)} of 6 games had finished; ")
    assert f"{records} keeps the {len(kept)} finished game(s)" in line
    ARMED["at"] = 7
    assert _interrupted(main, ["match", "--game", race, "--agents", "interrupter,random", *CTRL_C]) == 130
    line = _one_line(capsys.readouterr().err)
    assert "a match saves no results, so theirs are lost" in line
    ARMED["at"] = 1
    with pytest.raises(MatchInterrupted) as stopped:
        _interrupted(play_match, race, ["interrupter", "random"], 4, num_players=2)
    assert stopped.value.result.games == [] and stopped.value.num_games == 4


def test_resume_refuses_a_log_of_the_same_agents_with_other_settings(race, tmp_path):
    # An agent id alone does not say how it plays: ``mcts`` with another
    # budget, a ladder rung whose budget changed or a checkpoint retrained
    # under the same name. The games log's header keeps the settings, so a
    # resumed run never mixes games of two different agents.
    out = tmp_path / "mcts"
    kwargs = {"mcts": {"simulations": 2}}
    first = run_tournament(race, ["mcts", "random"], 4, seed=3, out=str(out), agent_kwargs=kwargs,
                           progress=False, max_turns=20)
    header = json.loads((out / GAMES_FILE).read_text().splitlines()[0])["tournament"]
    assert header["agent_settings"] == [{"options": {"simulations": 2}}, None]
    logged = (out / GAMES_FILE).read_bytes()
    with pytest.raises(OutFolderError, match="another tournament .*settings"):
        run_tournament(race, ["mcts", "random"], 4, seed=3, out=str(out), resume=True,
                       agent_kwargs={"mcts": {"simulations": 3}}, progress=False, max_turns=20)
    assert (out / GAMES_FILE).read_bytes() == logged
    again = run_tournament(race, ["mcts", "random"], 4, seed=3, out=str(out), resume=True, agent_kwargs=kwargs,
                           progress=False, max_turns=20)
    assert [g.ranks for g in again.games] == [g.ranks for g in first.games]


def test_a_tournament_of_plain_ids_keeps_its_header_as_before(race, tmp_path):
    # logs written before agent settings were kept still resume: ids whose
    # id says it all add nothing to the header
    run_tournament(race, ["random", "random"], 2, seed=3, out=str(tmp_path), progress=False, max_turns=20)
    header = json.loads((tmp_path / GAMES_FILE).read_text().splitlines()[0])["tournament"]
    assert set(header) == {"game", "agents", "seed", "num_games", "config"}


def test_a_log_written_before_agent_settings_were_kept_is_named_as_such(race, tmp_path):
    out = tmp_path / "old"
    kwargs = {"mcts": {"simulations": 2}}
    run_tournament(race, ["mcts", "random"], 2, seed=3, out=str(out), agent_kwargs=kwargs, progress=False,
                   max_turns=20)
    lines = (out / GAMES_FILE).read_text().splitlines(keepends=True)
    head = json.loads(lines[0])
    del head["tournament"]["agent_settings"]                 # as an older dragongym wrote it
    (out / GAMES_FILE).write_text(json.dumps(head, sort_keys=True) + "\n" + "".join(lines[1:]))
    with pytest.raises(OutFolderError, match="before games logs kept the agents' settings"):
        run_tournament(race, ["mcts", "random"], 2, seed=3, out=str(out), resume=True, agent_kwargs=kwargs,
                       progress=False, max_turns=20)
