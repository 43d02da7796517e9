"""A person against bots (agents/play.py): the session (bots answer, undo,
choices by number, name or prefix, saving as a game record that replays),
a bot that fails, the command line's errors, and the terminal front end --
in process with scripted input, and through a pseudo-terminal with the real
``dragongym play`` (``python -m dragongym.training.cli play``) on Dragonhunt."""
import io
import os
import re
import sys

import numpy as np
import pytest

from dragongym.agents import Agent
from dragongym.agents.game_record import RecordError, digest, read_records, replay
from dragongym.agents.play import (HUMAN, ChoiceError, PlayError, PlaySession, TerminalPlay,
                                   numbered_listing)
from dragongym.training import cli

HUNT = {"max_hands": 1}            # one hand of Dragonhunt: a real game of ~50 decisions a seat


class Fumbler(Agent):
    """A bot that answers ``answer`` (an illegal value), or raises when it is an exception."""

    def __init__(self, answer):
        self.answer = answer

    def act(self, obs, mask, rng):
        if isinstance(self.answer, Exception):
            raise self.answer
        return self.answer


def play_out(session):
    """Take the first legal action until the game is over; returns the person's decisions."""
    mine = 0
    while session.live:
        session.choose(session.legal_actions()[0][0])
        mine += 1
    return mine


# ---------------------------------------------------------------- the session
def test_the_bots_answer_until_it_is_your_turn(race):
    session = PlaySession(race, seat=1, opponents=["random"], seed=4)
    assert [(d.seat, d.player) for d in session.decisions] == [(0, "random")]   # seat 0 moved first
    assert session.your_turn and session.to_play == 1
    taken = session.choose(session.legal_actions()[0][0])
    assert taken[0].seat == 1 and taken[0].player == HUMAN and taken[0].name == "add 1"
    assert all(d.seat == 0 for d in taken[1:])
    assert session.your_turn or session.finished
    assert session.log()[1] == "2. player_1 (you): add 1"


def test_a_seat_is_a_number_or_a_role_name_and_opponents_fit_the_seats(race):
    assert PlaySession(race, {"num_players": 3}, seat="player_2", opponents=["random"]).seat == 2
    with pytest.raises(PlayError, match="no seat 'wizard'.*player_0, player_1"):
        PlaySession(race, seat="wizard")
    with pytest.raises(PlayError, match="seat 5 is not"):
        PlaySession(race, seat=5)
    with pytest.raises(PlayError, match="2 opponents for the 1 other seats"):
        PlaySession(race, opponents=["random", "random"])
    with pytest.raises(PlayError, match="unknown agent.*no-such-bot"):
        PlaySession(race, opponents=["no-such-bot"])
    three = PlaySession(race, {"num_players": 3}, seat=1, opponents=["random"])
    assert three.labels == ["random", HUMAN, "random"]


def test_undo_takes_back_your_decision_and_the_replies_after_it(race):
    session = PlaySession(race, {"num_players": 3}, seat=0, opponents=["random"], seed=11)
    with pytest.raises(PlayError, match="nothing to undo"):
        session.undo()
    before, log_before = digest(session.state), session.log()
    taken = session.choose(session.legal_actions()[1][0])
    assert len(taken) == 3 or session.finished            # yours and the two bots' replies
    taken_back = session.undo()
    assert taken_back == taken
    assert digest(session.state) == before and session.log() == log_before and session.your_turn
    # the bots draw from (seed, decision, seat): the same choice is answered the same way again
    assert session.choose(taken[0].action) == taken


def test_choices_are_numbers_full_names_or_unambiguous_prefixes(race):
    session = PlaySession(race, seat=0, opponents=["random"], seed=2)
    assert [name for _, name in session.legal_actions()] == ["add 1", "add 2", "add 3"]
    assert session.parse_choice("2") == 1                 # numbered from 1, as the list shows them
    assert session.parse_choice("ADD   3") == 2           # case and runs of spaces do not matter
    with pytest.raises(ChoiceError, match="begins 3 actions") as ambiguous:
        session.parse_choice("ad")
    assert [name for _, name in ambiguous.value.candidates] == ["add 1", "add 2", "add 3"]
    for nonsense, why in [("4", "numbered 1..3"), ("0", "numbered 1..3"), ("jump", "not a legal"),
                          ("", "type an action")]:
        with pytest.raises(ChoiceError, match=why):
            session.parse_choice(nonsense)


def test_a_prefix_names_one_dragonhunt_action():
    session = PlaySession("dragonhunt", HUNT, seat=0, opponents=["random"], seed=3)
    names = [name for _, name in session.legal_actions()]
    assert "choose kingdom Ironcrag" in names
    assert session.parse_choice("choose kingdom ir") == session.game.string_to_action(
        session.state, "choose kingdom Ironcrag")
    with pytest.raises(ChoiceError) as ambiguous:
        session.parse_choice("choose kingdom")
    assert len(ambiguous.value.candidates) == len(names)
    taken = session.choose_text("choose kingdom ir")
    assert taken[0].name == "choose kingdom Ironcrag"


def test_an_illegal_action_is_refused_and_changes_nothing(race):
    session = PlaySession(race, seat=0, opponents=["random"], seed=2)
    before = digest(session.state)
    for bad in (3, -1, 99, True, 1.0, "1"):
        with pytest.raises(PlayError, match="not a legal action"):
            session.choose(bad)
    assert digest(session.state) == before and session.decisions == []


def test_a_finished_game_saved_replays_to_the_same_final_state(race, tmp_path):
    session = PlaySession(race, {"num_players": 3}, seat=2, opponents=["random", "random"], seed=8)
    play_out(session)
    assert session.finished and not session.live
    assert session.result_text().startswith("game over")
    with pytest.raises(PlayError, match="the game is over"):
        session.choose(0)
    path = session.save(tmp_path / "race.jsonl")
    [record] = read_records(path)
    assert record.agents == ["random", "random", HUMAN] and record.reset_seed == 8
    assert "unfinished" not in record.end and len(record.end["ranks"]) == 3
    assert digest(replay(record)) == digest(session.state)


def test_a_dragonhunt_game_undone_and_finished_replays_from_its_record(tmp_path):
    session = PlaySession("dragonhunt", HUNT, seat=1, opponents=["dragonhunt.heuristic"], seed=5)
    session.choose(session.legal_actions()[-1][0])
    mid = digest(session.state)
    session.choose(session.legal_actions()[0][0])
    session.undo()
    assert digest(session.state) == mid
    play_out(session)
    assert session.finished
    [record] = read_records(session.save(tmp_path / "hunt.jsonl"))
    assert record.agents == ["dragonhunt.heuristic", HUMAN]
    assert digest(replay(record)) == digest(session.state)
    assert cli.main(["replay", str(tmp_path / "hunt.jsonl")]) == 0


def test_a_game_saved_in_play_is_an_unfinished_record_that_replays(race, tmp_path, capsys):
    session = PlaySession(race, seat=0, opponents=["random"], seed=3)
    session.choose(0)
    path = session.save(tmp_path / "mid.jsonl")
    [record] = read_records(path)
    assert record.end == {"unfinished": True, "decisions": len(session.decisions),
                          "digest": digest(session.state)}
    assert digest(replay(record)) == digest(session.state)
    # saved again (the same file is replaced, it holds this game alone) once the game is over
    play_out(session)
    [record] = read_records(session.save(path))
    assert "unfinished" not in record.end and digest(replay(record)) == digest(session.state)
    # an unfinished record whose decisions end the game is refused
    record.end = {"unfinished": True, "decisions": len(record.actions), "digest": digest(session.state)}
    with pytest.raises(RecordError, match="unfinished.*over after"):
        replay(record)


def test_saving_refuses_a_missing_folder_and_a_file_that_is_not_a_record(race, tmp_path):
    session = PlaySession(race, seat=0, opponents=["random"])
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    with pytest.raises(PlayError, match="not saving over .*not a game record"):
        session.save(notes)
    assert notes.read_text() == "my notes\n"
    with pytest.raises(PlayError, match="does not exist"):
        session.save(tmp_path / "no" / "such" / "game.jsonl")
    with pytest.raises(PlayError, match="it is a folder"):
        session.save(tmp_path)


@pytest.mark.parametrize("answer, why", [(-1, "returned -1, outside"), (2.0, "a float"),
                                         (RuntimeError("lost its notes"), "RuntimeError: lost its notes")])
def test_a_bot_that_fails_stops_the_session_naming_it(race, tmp_path, answer, why):
    session = PlaySession(race, seat=0, opponents=[Fumbler(answer)], seed=6)
    taken = session.choose(0)
    assert [d.seat for d in taken] == [0]                # the bot's answer was never played
    assert not session.live and not session.finished
    message = session.failure.message
    assert "bot Fumbler in seat 1 (player_1)" in message and why in message
    assert session.status_text() == f"stopped: {message}"
    with pytest.raises(PlayError, match="the session stopped"):
        session.choose(0)
    # the game so far can still be saved, and replays
    [record] = read_records(session.save(tmp_path / "stopped.jsonl"))
    assert record.end["unfinished"] and record.agents == [HUMAN, "Fumbler"]
    assert digest(replay(record)) == digest(session.state)
    # undo forgets the failure with the decision it answered
    session.undo()
    assert session.live and session.failure is None and session.decisions == []


def test_a_bot_failing_before_your_first_decision_leaves_a_savable_session(race, tmp_path):
    session = PlaySession(race, seat=1, opponents=[Fumbler(7)])
    assert session.failure.seat == 0 and session.decisions == [] and not session.live
    [record] = read_records(session.save(tmp_path / "empty.jsonl"))
    assert record.actions == [] and digest(replay(record)) == digest(session.state)


def test_a_solo_game_has_no_opponents(dive):
    session = PlaySession(dive, seed=1)
    assert session.labels == [HUMAN] and session.your_turn
    with pytest.raises(PlayError, match="one seat: no opponents"):
        PlaySession(dive, opponents=["random"])
    play_out(session)                    # always diving, never surfacing: nothing banked by the limit
    assert session.result_text() == "game over at the game's limit: you lost (diver (you) rank 2, pearls 0)"


# ---------------------------------------------------------------- the terminal, in process
def test_a_long_list_of_choices_on_a_map_is_grouped_by_what_they_share():
    names = [f"place at {hex:04d}" for hex in range(100, 150)] + ["done"]
    text = numbered_listing(names, 80)
    lines = text.splitlines()
    assert lines[0] == "  place at ..." and lines[-1] == "  51) done"
    cells = re.findall(r"(\d+)\) (\d{4})", text)
    assert sorted((int(k), int(h)) for k, h in cells) == [(k, 99 + k) for k in range(1, 51)]
    assert max(len(line) for line in lines) <= 80
    # a short list, or one whose names share no start, is one numbered entry per name
    assert numbered_listing(["add 1", "add 2"], 80) == "  1) add 1   2) add 2"
    varied = [f"{word} {k}" for k, word in enumerate(["move", "attack", "hide", "pass"] * 12)]
    assert "...\n" not in numbered_listing(varied, 80)


class Script:
    """``read(prompt)``: a person typing ``lines`` at the move prompt, then
    ``then`` (at most 20 times, then EOF), and ``save_to`` when offered to save."""

    def __init__(self, lines, then=None, save_to=""):
        self.lines = list(lines) + ([then] * 20 if then is not None else [])
        self.save_to = str(save_to)
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        if prompt.startswith("Save the game?"):
            return self.save_to
        if not self.lines:
            raise EOFError
        return self.lines.pop(0)


def test_the_terminal_plays_to_the_end_and_offers_to_save(race, tmp_path):
    session = PlaySession(race, seat=0, opponents=["random"], seed=9)
    path = tmp_path / "t.jsonl"
    script = Script(["fly away", "ad", "help", "undo", "add 1", "log", "undo", "board"], then="1", save_to=path)
    out = io.StringIO()
    assert TerminalPlay(session, read=script, out=out).run() == 0
    text = out.getvalue()
    assert "counter 0/10" in text and "1) add 1" in text and "3) add 3" in text
    assert "'fly away' is not a legal action's number, name or the start of a name" in text
    assert "'ad' begins 3 actions" in text and "  2) add 2" in text
    assert "undo       take back your last decision" in text
    assert "nothing to undo" in text and "1. player_0 (you): add 1" in text
    assert "took back 2 decision(s), from yours: add 1" in text
    assert "game over" in text and session.finished
    assert script.prompts[-1].startswith("Save the game?")
    assert f"saved {len(session.decisions)} decisions to {path}" in text
    assert digest(replay(read_records(path)[0])) == digest(session.state)


def test_the_terminal_names_a_failing_bot_and_saves_automatically(race, tmp_path):
    session = PlaySession(race, seat=0, opponents=[Fumbler(-1)], seed=9)
    path = tmp_path / "auto.jsonl"
    out = io.StringIO()
    assert TerminalPlay(session, read=Script(["add 2"]), out=out, autosave=str(path)).run() == 1
    assert "stopped: bot Fumbler in seat 1 (player_1) failed at decision 2" in out.getvalue()
    assert read_records(path)[0].end["unfinished"]


# ---------------------------------------------------------------- the command line
@pytest.mark.parametrize("argv, why", [
    (["--seat", "wizard"], "no seat 'wizard'"),
    (["--num-players", "9"], "invalid option for dragonhunt"),
    (["--scenario", "18.2"], "invalid option for dragonhunt"),
    (["--opponents", "random,random,random,random,random,random"], "invalid option|6 opponents"),
    (["--opponents", "random,,random"], "empty agent id"),
    (["--opponents", "no-such-bot"], "unknown agent"),
    (["--port", "8000"], "--port is for --web"),
    (["--game", "chess"], "unknown game 'chess'"),
    (["--save", "/no/such/folder/g.jsonl"], "does not exist"),
])
def test_bad_options_get_one_line_errors(argv, why, capsys):
    assert play_command(argv) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and re.search(why, err), err


def test_several_opponents_set_the_player_count(monkeypatch):
    seen = {}

    def run(self):
        seen["session"] = self.session
        return 0

    monkeypatch.setattr(TerminalPlay, "run", run)
    assert play_command(["--opponents", "random,dragonhunt.heuristic", "--seat", "player_2", "--max-hands", "1"]) == 0
    session = seen["session"]
    assert session.roles == ("player_0", "player_1", "player_2") and session.seat == 2
    assert session.labels == ["random", "dragonhunt.heuristic", HUMAN]
    assert play_command(["--game", "dragon_pass", "--scenario", "18.2", "--seat", "sartar"]) == 0
    assert seen["session"].labels == ["dragon_pass.heuristic", HUMAN]      # the game's own bot by default


def play_command(argv):
    """``dragongym play ARGV``'s exit status."""
    return cli.main(["play", *argv])


# ---------------------------------------------------------------- the terminal, in a pseudo-terminal
def shortest_unique_prefix(name, names):
    """The shortest start of ``name`` that begins no other of ``names`` (case ignored)."""
    for k in range(1, len(name) + 1):
        start = name[:k].lower()
        if [n for n in names if n.lower().startswith(start)] == [name]:
            return name[:k]
    return name


def test_a_person_plays_dragonhunt_in_a_pseudo_terminal(tmp_path):
    pexpect = pytest.importorskip("pexpect", reason="the pseudo-terminal test drives the game with pexpect")
    seed = 21
    # the same game in process: the command is deterministic, so it shows what this shows
    mirror = PlaySession("dragonhunt", HUNT, seat=0, opponents=["random"], seed=seed)
    env = dict(os.environ, TERM="dumb", INPUTRC=os.devnull, PYTHONUNBUFFERED="1")
    child = pexpect.spawn(sys.executable, ["-m", "dragongym.training.cli", "play", "--game", "dragonhunt",
                                           "--opponents", "random", "--seed", str(seed), "--max-hands", "1"],
                          env=env, cwd=str(tmp_path), encoding="utf-8", timeout=30, dimensions=(50, 160))
    try:
        def names():
            return [name for _, name in mirror.legal_actions()]

        def expect_choices():
            """The text board, the status line and the numbered list of the mirror's legal actions."""
            for line in mirror.text_picture().splitlines()[-3:]:
                child.expect_exact(line.rstrip())
            child.expect_exact(mirror.status_text())
            child.expect_exact("> ")
            assert " ".join(child.before.split()) == " ".join(numbered_listing(names(), 160).split())

        child.expect_exact("you are player_0 (seat 0)", timeout=90)     # the game loads its compiled core
        expect_choices()
        second = mirror.legal_actions()[1][1]
        assert second.startswith("choose kingdom ")
        child.sendline("2")                                              # a number
        child.expect_exact(f"player_0 (you): {second}")
        mirror.choose_text("2")
        expect_choices()

        target = names()[-1]
        prefix = shortest_unique_prefix(target, names()).upper()       # case does not matter
        child.sendline(prefix)
        child.expect_exact(f"player_0 (you): {target}")
        mirror.choose_text(prefix)
        expect_choices()

        child.sendline("gibberish!")
        child.expect_exact("'gibberish!' is not a legal action's number, name or the start of a name")
        child.expect_exact("> ")

        assert not any(name.lower().startswith("lo") for name in names())
        child.send("lo\t\r")                                          # Tab completes the command
        for line in mirror.log():
            child.expect_exact(line)
        child.expect_exact("> ")

        child.sendline("undo")
        child.expect_exact(f"from yours: {target}")
        mirror.undo()
        expect_choices()

        child.sendline("save game.jsonl")
        child.expect_exact(f"saved {len(mirror.decisions)} decisions to {tmp_path / 'game.jsonl'} "
                           "(an unfinished game)")
        child.expect_exact("> ")
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0, child.before
    [record] = read_records(tmp_path / "game.jsonl")
    assert record.actions == [(d.seat, d.action) for d in mirror.decisions]
    assert digest(replay(record)) == digest(mirror.state)
    assert cli.main(["replay", str(tmp_path / "game.jsonl")]) == 0
    assert np.array_equal(replay(record), mirror.state)


SHIPPED = {
    "dragonhunt": ("dragonhunt_2p_reverse_curriculum_s0.zip", HUNT),
    "dragons_down": ("dragons_down_2p_bc_v7_s0.zip", {"max_turns": 2}),
    "dragon_pass": ("dragon_pass_18.1_imitation_v10_s1.zip", {"max_turns": 1}),
}
"""The trained policies of ``training/REPORT.md``, one per game, as a person's opponent."""


@pytest.mark.parametrize("game", list(SHIPPED))
def test_a_person_plays_against_each_games_shipped_policy(game):
    name, options = SHIPPED[game]
    checkpoint = f"training/checkpoints/{name}"
    session = PlaySession(game, options, seat=0, opponents=[checkpoint], seed=3)
    play_out(session)
    assert session.finished
    assert {d.player for d in session.decisions} == {HUMAN, checkpoint}
