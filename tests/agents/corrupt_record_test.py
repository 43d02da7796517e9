"""Corrupt game records (agents/game_record.py): `dragongym replay` refuses
every edited, cut, garbled or foreign record with ONE line,
``dragongym: error: FILE, line N / game K: what is wrong``, and exit status
2 -- never a traceback, never "every final state as recorded" -- and checks
every field of the end line, not just the digest. ``--to OUT.html``
(agents/replay_media.py) gets the same checks and writes nothing.

Each game's record is played once (a module fixture); each case corrupts a
copy of it.
"""
import json
import re
from typing import NamedTuple

import pytest

import dragongym
from dragongym.agents import play_match
from dragongym.agents.game_record import RecordError, read_records, replay
from dragongym.training import cli

SHORT = {"dragonhunt": {"max_hands": 2}, "dragons_down": {"max_turns": 2},
         "dragon_pass": {"scenario": "18.1", "max_turns": 1}}
"""Options that end each game within a couple of hundred decisions."""


class Recorded(NamedTuple):
    """A valid one-game record and what a corruption needs to know of it."""

    text: str
    lines: list            # the file's lines, without their newlines
    num_actions: int
    num_seats: int

    @property
    def decisions(self):
        return len(self.lines) - 2


@pytest.fixture(scope="module", params=sorted(SHORT))
def recorded(request, tmp_path_factory):
    game = request.param
    path = tmp_path_factory.mktemp(game) / "games.jsonl"
    play_match(game, ["random", "random"], num_games=1, seed=0, records=str(path), **SHORT[game])
    spec = dragongym.get_game(game).spec_for(dragongym.get_game(game).make_config(**SHORT[game]))
    text = path.read_text(encoding="utf-8")
    return Recorded(text, text.splitlines(), spec.num_actions, spec.num_seats)


# ---------------------------------------------------------------- corruptions
DIRECTORY, MISSING = object(), object()
"""A 'file' that is a folder, and one that does not exist."""


def joined(lines):
    return "\n".join(lines) + "\n"


def edit_line(index, change):
    """The record with line ``index`` (0 the header, -1 the end) as JSON,
    passed through ``change`` (a dict -> dict function)."""
    def corrupt(rec):
        lines = list(rec.lines)
        lines[index] = json.dumps(change(json.loads(lines[index])))
        return joined(lines)
    return corrupt


def set_header(**fields):
    return edit_line(0, lambda item: {**item, **fields})


def drop_header(key):
    return edit_line(0, lambda item: {k: v for k, v in item.items() if k != key})


def set_end(**fields):
    return edit_line(-1, lambda item: {"end": {**item["end"], **fields}})


def drop_end(key):
    return edit_line(-1, lambda item: {"end": {k: v for k, v in item["end"].items() if k != key}})


def raw_line(index, text):
    """The record with line ``index`` replaced by ``text`` as it stands (a
    function of the record, or a string with ``{seat}`` standing for the
    seat that line's decision had)."""
    def corrupt(rec):
        lines = list(rec.lines)
        seat = json.loads(lines[index]).get("seat") if index not in (0, -1) else None
        lines[index] = text(rec) if callable(text) else text.replace("{seat}", str(seat))
        return joined(lines)
    return corrupt


def set_decision(k, **fields):
    """Decision ``k`` (line ``k + 2``) with ``fields`` changed."""
    return edit_line(k + 1, lambda item: {**item, **fields})


def flip_seat(k):
    return edit_line(k + 1, lambda item: {**item, "seat": 1 - item["seat"]})


def unfinished(rec):
    end = json.loads(rec.lines[-1])["end"]
    return joined(rec.lines[:-1] + [json.dumps({"end": {"unfinished": True, "decisions": end["decisions"],
                                                        "digest": end["digest"]}})])


def other_ranks(rec):
    end = json.loads(rec.lines[-1])["end"]
    ranks = [1] + [2] * (len(end["ranks"]) - 1) if end["ranks"] != [1] + [2] * (len(end["ranks"]) - 1) \
        else [2] + [1] * (len(end["ranks"]) - 1)
    return set_end(ranks=ranks)(rec)


def other_rewards(rec):
    end = json.loads(rec.lines[-1])["end"]
    return set_end(rewards=[r + 0.5 for r in end["rewards"]])(rec)


def other_digest(rec):
    end = json.loads(rec.lines[-1])["end"]
    digest = end["digest"]
    return set_end(digest=("1" if digest[0] == "0" else "0") + digest[1:])(rec)


def one_decision_fewer(rec):
    return joined(rec.lines[:2] + rec.lines[3:])


def one_decision_fewer_and_counted(rec):
    lines = rec.lines[:2] + rec.lines[3:]
    end = json.loads(lines[-1])
    end["end"]["decisions"] -= 1
    return joined(lines[:-1] + [json.dumps(end)])


def second_game_ranks_edited(rec):
    return rec.text + other_ranks(rec)


def deep_config(rec):
    header = json.loads(rec.lines[0])
    header["config"] = "@@"
    return joined([json.dumps(header).replace('"@@"', "[" * 100_000 + "]" * 100_000)] + rec.lines[1:])


class Case(NamedTuple):
    name: str
    corrupt: object         # rec -> the file's text (str or bytes), or DIRECTORY / MISSING
    says: str               # a regex the error line must match


CASES = [
    # --- crashes of the issue: a traceback before
    Case("action 1e20", raw_line(2, '{"seat": {seat}, "action": 1e20}'), r"line 3, decision 1: action must be an int"),
    Case("reset_seed 2**70", set_header(reset_seed=2**70), r"line 1: reset_seed must be an int in 0\.\.2\*\*64-1"),
    Case("reset_seed -3", set_header(reset_seed=-3), r"line 1: reset_seed must be an int in 0\.\.2\*\*64-1, got int -3"),
    Case("a line nested 100000 deep", raw_line(2, "[" * 100_000 + "]" * 100_000), r"line 3: JSON nested too deeply"),
    Case("a config nested 100000 deep", deep_config, r"line 1: JSON nested too deeply"),
    Case("non-UTF-8 bytes", lambda rec: rec.text.encode() + b'{"\xff\xfe": 1}\n', r"line \d+: not UTF-8 text"),
    Case("an action of 5000 digits", raw_line(2, '{"seat": {seat}, "action": 1' + "0" * 5000 + "}"),
         r"line 3: a number too long"),
    Case("an action of 10**30", set_decision(1, action=10**30),
         r"line 3, decision 1: action 1000000000000000000000000000000 of seat \d is not an action"),
    Case("a reward of 1e400 (infinity)", set_end(rewards="@@"), r"rewards must be a list of 2 finite numbers"),
    # --- an edited end line: accepted before
    Case("ranks edited", other_ranks, r"game 0, line \d+: the end's ranks \[.*\] are not the replayed game's"),
    Case("rewards edited", other_rewards, r"game 0, line \d+: the end's rewards \[.*\] are not the replayed game's"),
    Case("decisions edited", lambda rec: set_end(decisions=rec.decisions + 1)(rec),
         r"the end says \d+ decisions; the game has \d+ decision line"),
    Case("digest edited", other_digest, r"game 0, line \d+: the final state does not match the recorded digest"),
    Case("an unknown key in the end", set_end(note="mine"), r"the end has unknown key\(s\) \"note\""),
    Case("ranks missing from the end", drop_end("ranks"), r"the end of a game lacks ranks"),
    Case("rewards missing from the end", drop_end("rewards"), r"the end of a game lacks rewards"),
    Case("digest missing from the end", drop_end("digest"), r"the end of a game lacks digest"),
    Case("decisions missing from the end", drop_end("decisions"), r"the end of a game lacks decisions"),
    Case("a finished game said unfinished", unfinished, r"left unfinished, yet it is over"),
    Case("unfinished: \"yes\"", lambda rec: unfinished(rec).replace('"unfinished": true', '"unfinished": "yes"'),
         r"unfinished must be true"),
    Case("ranks of one seat too few", set_end(ranks=[1]), r"ranks must be a list of 2 ints"),
    Case("ranks as floats", set_end(ranks=[1.0, 1.0]), r"ranks must be a list of 2 ints"),
    Case("rewards as strings", set_end(rewards=["0", "0"]), r"rewards must be a list of 2 finite numbers"),
    Case("rewards as bools", set_end(rewards=[True, False]), r"rewards must be a list of 2 finite numbers"),
    Case("decisions as a string", lambda rec: set_end(decisions=str(rec.decisions))(rec), r"decisions must be an int"),
    Case("a digest that is a number", set_end(digest=5), r"digest must be a string"),
    Case("the end not an object", edit_line(-1, lambda item: {"end": [1, 2]}), r"end must be a JSON object"),
    Case("the end line with another key", edit_line(-1, lambda item: {**item, "note": 1}),
         r"the end line holds only \"end\", not \"note\""),
    Case("the second game's ranks edited", second_game_ranks_edited,
         r"game 1, line \d+: the end's ranks .* are not the replayed game's"),
    # --- decisions: accepted (or named the wrong decision) before
    Case("action 81.0", set_decision(1, action=81.0), r"line 3, decision 1: action must be an int .*got float 81\.0"),
    Case("action \"3\"", set_decision(1, action="3"), r"line 3, decision 1: action must be an int .*got str \"3\""),
    Case("action true", set_decision(1, action=True), r"line 3, decision 1: action must be an int .*got bool true"),
    Case("action -1", set_decision(1, action=-1), r"game 0, line 3, decision 1: action -1 of seat \d is not an action"),
    Case("action num_actions", lambda rec: set_decision(1, action=rec.num_actions)(rec),
         r"line 3, decision 1: action \d+ of seat \d is not an action of this .* game \(its actions are 0\.\.\d+\)"),
    Case("action NaN", raw_line(2, '{"seat": {seat}, "action": NaN}'), r"line 3: not JSON \(NaN is not a JSON number\)"),
    Case("action Infinity", raw_line(2, '{"seat": {seat}, "action": -Infinity}'), r"line 3: not JSON \(-Infinity is not"),
    Case("seat 0.0", set_decision(1, seat=0.0), r"line 3, decision 1: seat must be an int in 0\.\.1"),
    Case("seat \"1\"", set_decision(1, seat="1"), r"line 3, decision 1: seat must be an int in 0\.\.1"),
    Case("seat true", set_decision(1, seat=True), r"line 3, decision 1: seat must be an int in 0\.\.1"),
    Case("seat 2 of two", set_decision(1, seat=2), r"line 3, decision 1: seat must be an int in 0\.\.1 .*got int 2"),
    Case("the other seat deciding", flip_seat(1), r"line 3, decision 1: the record has seat \d deciding"),
    Case("a decision with another key", set_decision(1, note="x"),
         r"line 3, decision 1: a decision line holds only seat and action, not \"note\""),
    Case("a decision without its action", edit_line(2, lambda item: {"seat": item["seat"]}),
         r"line 3, decision 1: a decision is \{\"seat\": int, \"action\": int\}"),
    Case("a line that is a JSON list", raw_line(2, "[1, 2]"), r"line 3: a record line is a JSON object, got list"),
    Case("a line that is a JSON string", raw_line(2, '"seat"'), r"line 3: a record line is a JSON object, got str"),
    Case("a line that is not JSON", raw_line(2, "seat 0 action 3"), r"line 3: not JSON"),
    Case("a decision line deleted", one_decision_fewer, r"the end says \d+ decisions; the game has \d+ decision line"),
    Case("a decision line deleted, the count mended", one_decision_fewer_and_counted,
         r"decision \d+: (the record has seat|action .* is refused|the game was already over)|game is not over"
         r"|recorded digest"),
    Case("a decision after the end", lambda rec: rec.text + rec.lines[1] + "\n", r"line \d+: a line before any game's header"),
    # --- the header: garbled messages or accepted before
    Case("config a list", set_header(config=[1, 2]), r"line 1: config must be a JSON object of the game's options, got list"),
    Case("config a string", set_header(config="max_turns=1"),
         r"line 1: config must be a JSON object of the game's options, got str"),
    Case("config null", set_header(config=None), r"line 1: config must be a JSON object of the game's options, got null"),
    Case("an unknown option", lambda rec: set_header(config={**json.loads(rec.lines[0])["config"], "speed": 9})(rec),
         r"game 0, line 1: the record's configuration is not one of"),
    Case("three agents for two seats", set_header(agents=["random"] * 3), r"line 1: agents must name one agent per seat"),
    Case("one agent for two seats", set_header(agents=["random"]), r"line 1: agents must name one agent per seat"),
    Case("agents not strings", set_header(agents=[1, 2]), r"line 1: agents must be a list of agent ids"),
    Case("agents a string", set_header(agents="random"), r"line 1: agents must be a list of agent ids"),
    Case("game not a string", set_header(game=5), r"line 1: game must be a game's name \(a string\), got int 5"),
    Case("an unknown game", set_header(game="dragon_chess"), r"line 1: the record is of a game this installation does not have"),
    Case("roles not a list of strings", set_header(roles=[0, 1]), r"line 1: roles must be a list of role names"),
    Case("roles a string", set_header(roles="lunar,sartar"), r"line 1: roles must be a list of role names"),
    Case("roles renamed", lambda rec: set_header(roles=["a", "b"])(rec), r"line 1: the record's seats \[.*\] are not"),
    Case("game_version \"1\"", set_header(game_version="1"), r"line 1: game_version must be an int"),
    Case("another game_version", lambda rec: edit_line(0, lambda h: {**h, "game_version": h["game_version"] + 1})(rec),
         r"line 1: the record is of .* version \d+; this is version \d+"),
    Case("format 1.0", set_header(format=1.0), r"line 1: format must be an int"),
    Case("format true", set_header(format=True), r"line 1: format must be an int"),
    Case("format 2", set_header(format=2), r"line 1: record format 2; this reader reads format 1"),
    Case("reset_seed \"5\"", set_header(reset_seed="5"), r"line 1: reset_seed must be an int in 0\.\.2\*\*64-1, got str"),
    Case("reset_seed 5.0", set_header(reset_seed=5.0), r"line 1: reset_seed must be an int in 0\.\.2\*\*64-1, got float"),
    Case("reset_seed changed", lambda rec: edit_line(0, lambda h: {**h, "reset_seed": h["reset_seed"] ^ 1})(rec),
         r"decision \d+: (the record has seat|action .* is refused|the game was already over)|game is not over"
         r"|recorded digest|the end's"),
    Case("match_seed \"0\"", set_header(match_seed="0"), r"line 1: match_seed must be null or an int >= 0"),
    Case("game_index -1", set_header(game_index=-1), r"line 1: game_index must be null or an int >= 0"),
    Case("an unknown header key", set_header(note="a fine game"), r"line 1: the header has unknown key\(s\) \"note\""),
    Case("the header without reset_seed", drop_header("reset_seed"), r"line 1: the header lacks reset_seed"),
    Case("the header without agents", drop_header("agents"), r"line 1: the header lacks agents"),
    Case("another kind of record", set_header(record="chess game"), r"line 1: not a dragongym game record"),
    Case("a header inside the game", lambda rec: joined(rec.lines[:3] + rec.lines[:1] + rec.lines[3:]),
         r"line 4: a new game begins before game 0 ended"),
    # --- the file
    Case("an empty file", lambda rec: "", r"no games"),
    Case("only blank lines", lambda rec: "\n  \n\n", r"no games"),
    Case("no end line", lambda rec: joined(rec.lines[:-1]), r"game 0 has no end line"),
    Case("a folder", lambda rec: DIRECTORY, r"cannot read the record file \(Is a directory\)"),
    Case("no such file", lambda rec: MISSING, r"cannot read the record file \(No such file or directory\)"),
]
"""Every case: a corruption and what the error must say."""


def fixed(text):
    """Stand-ins the JSON encoder cannot write: 1e400 for a reward."""
    return text.replace('"rewards": "@@"', '"rewards": [1e400, 0.0]') if isinstance(text, str) else text


def corrupt_file(rec, case, tmp_path):
    path = tmp_path / "corrupt.jsonl"
    content = case.corrupt(rec)
    if content is DIRECTORY:
        path.mkdir()
    elif content is not MISSING:
        content = fixed(content)
        if isinstance(content, str):
            content = content.encode("utf-8")
        path.write_bytes(content)
    return path


def refused(argv, capsys, says, path):
    """``dragongym ARGV`` exits 2 with one error line naming ``path`` that
    matches ``says``, and prints nothing else."""
    assert cli.main([str(a) for a in argv]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"dragongym: error: {path}"), err
    assert "Traceback" not in err and "every final state as recorded" not in out
    assert re.search(says, lines[0]), f"{says!r} not in {lines[0]!r}"
    return lines[0]


def test_the_untouched_record_replays(recorded, tmp_path, capsys):
    path = tmp_path / "games.jsonl"
    path.write_text(recorded.text + recorded.text, encoding="utf-8")         # two games: both replay
    assert cli.main(["replay", str(path)]) == 0
    assert "2 game(s) replayed, every final state as recorded" in capsys.readouterr().out
    # a byte-order mark and Windows line ends are still a record
    path.write_bytes(b"\xef\xbb\xbf" + recorded.text.replace("\n", "\r\n").encode("utf-8"))
    assert cli.main(["replay", str(path)]) == 0
    assert "1 game(s) replayed" in capsys.readouterr().out


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_a_corrupt_record_is_refused_in_one_line(recorded, case, tmp_path, capsys):
    path = corrupt_file(recorded, case, tmp_path)
    refused(["replay", path], capsys, case.says, path)


DRAWN = ("action 1e20", "action -1", "ranks edited", "reset_seed 2**70", "an empty file")
"""Cases also refused by ``replay --to OUT.html``, which must then write nothing."""


@pytest.mark.parametrize("case", [c for c in CASES if c.name in DRAWN], ids=DRAWN)
def test_a_corrupt_record_is_not_drawn(recorded, case, tmp_path, capsys):
    path = corrupt_file(recorded, case, tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    refused(["replay", path, "--to", out / "game.html"], capsys, case.says, path)
    assert list(out.iterdir()) == []


def test_a_record_made_in_memory_is_checked_as_one_read(recorded, tmp_path):
    """``replay`` checks the record it is given, not only what the reader
    checked: a record built or changed in code names the decision alone."""
    path = tmp_path / "games.jsonl"
    path.write_text(recorded.text, encoding="utf-8")
    [record] = read_records(path)
    record.line_numbers = None
    seat, _ = record.actions[1]
    record.actions[1] = (seat, -1)
    with pytest.raises(RecordError, match=r"^decision 1: action -1 of seat \d is not an action"):
        replay(record)
    [record] = read_records(path)
    record.reset_seed = 2**64
    with pytest.raises(RecordError, match=r"^line 1: reset_seed must be an int in 0\.\.2\*\*64-1"):
        replay(record)
    [record] = read_records(path)
    record.end = {**record.end, "rewards": [9.0] * recorded.num_seats}
    with pytest.raises(RecordError, match=r"the end's rewards \[9\.0, 9\.0\] are not the replayed game's"):
        replay(record)
