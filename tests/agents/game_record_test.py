"""Game records (agents/game_record.py): a match writes each game as it ends,
every game replays from its record to the recorded final state, and a
corrupt, cut or foreign record is refused with what does not match."""
import json

import pytest

from dragongym.agents import Agent, play_match
from dragongym.agents.game_record import RecordError, read_records, replay
from dragongym.training import cli

SHORT = {"dragonhunt": {"max_hands": 1}, "dragons_down": {"num_players": 2, "max_turns": 1},
         "dragon_pass": {"scenario": "18.2", "max_turns": 1}}


@pytest.mark.parametrize("game", sorted(SHORT))
def test_every_recorded_game_replays_to_its_final_state(game, tmp_path):
    path = tmp_path / "games.jsonl"
    result = play_match(game, ["random", "random"], 3, seed=5, records=str(path), **SHORT[game])
    records = read_records(path)
    assert len(records) == 3
    for record, outcome in zip(records, result.games):
        assert record.game == game and record.game_index == outcome.index
        assert len(record.actions) == outcome.decisions
        assert record.end["ranks"] == list(outcome.ranks)
        final = replay(record)
        assert int(final[0]["status"]) != 0


def test_record_every_keeps_a_sample(tmp_path):
    path = tmp_path / "games.jsonl"
    play_match("dragon_pass", ["random", "random"], 5, seed=1, records=str(path), record_every=2,
               **SHORT["dragon_pass"])
    assert [r.game_index for r in read_records(path)] == [0, 2, 4]


@pytest.fixture
def recorded(tmp_path):
    path = tmp_path / "games.jsonl"
    play_match("dragon_pass", ["random", "random"], 1, seed=2, records=str(path), **SHORT["dragon_pass"])
    return path


def test_an_edited_action_is_refused(recorded):
    lines = recorded.read_text().splitlines()
    item = json.loads(lines[5])
    item["action"] = (item["action"] + 1) % 1500
    lines[5] = json.dumps(item)
    recorded.write_text("\n".join(lines) + "\n")
    with pytest.raises(RecordError, match="decision 4|digest|seat"):
        replay(read_records(recorded)[0])


def test_a_cut_or_foreign_file_is_refused(recorded, tmp_path):
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(recorded.read_text().splitlines()[:-1]) + "\n")
    with pytest.raises(RecordError, match="no end line"):
        read_records(cut)
    foreign = tmp_path / "foreign.jsonl"
    foreign.write_text('{"record": "something else", "format": 1}\n')
    with pytest.raises(RecordError, match="not a dragongym game record"):
        read_records(foreign)
    garbage = tmp_path / "garbage.jsonl"
    garbage.write_text("not json at all\n")
    with pytest.raises(RecordError, match="line 1: not JSON"):
        read_records(garbage)


def test_another_game_version_is_refused(recorded):
    record = read_records(recorded)[0]
    record.game_version += 1
    with pytest.raises(RecordError, match="version"):
        replay(record)


def test_the_replay_command_checks_a_file_and_says_what_is_wrong(recorded, tmp_path, capsys):
    assert cli.main(["replay", str(recorded)]) == 0
    assert "final state matches" in capsys.readouterr().out
    bad = tmp_path / "bad.jsonl"
    bad.write_text(recorded.read_text().replace('"digest": "', '"digest": "0', 1))
    assert cli.main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "game 0" in err and "digest" in err


def test_match_checks_the_record_file_before_the_first_game(tmp_path, capsys):
    assert cli.main(["match", "--game", "dragon_pass", "--games", "1",
                     "--records", str(tmp_path / "no" / "such" / "x.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err


class Answers(Agent):
    """An agent that answers ``value`` at its first decision, then plays randomly."""

    def __init__(self, value):
        self.value = value

    def reset(self):
        self.first = True

    def act(self, obs, mask, rng):
        if self.first:
            self.first = False
            return self.value
        import numpy as np
        return int(rng.choice(np.flatnonzero(mask)))


@pytest.mark.parametrize("value", [-1, None, 1.5, 10**6, 1596])
def test_an_agent_answering_no_legal_action_stops_the_match_naming_game_seat_agent_and_value(value):
    from dragongym.agents.base import AgentActionError
    bad = Answers(value)
    with pytest.raises(AgentActionError, match=r"game 0, seat 0 \(lunar\): agent Answers returned"):
        play_match("dragon_pass", [bad, "random"], 1, seed=0, **SHORT["dragon_pass"])


def test_an_agent_answering_no_legal_action_stops_a_tournament():
    from dragongym.agents.base import AgentActionError
    from dragongym.agents.tournament import run_tournament
    with pytest.raises(AgentActionError, match=r"game 0, seat 0 .*returned None"):
        run_tournament("dragon_pass", [Answers(None), "random"], 2, seed=0, progress=False,
                       **SHORT["dragon_pass"])


def test_a_tournament_logs_each_game_as_it_finishes_and_resumes(tmp_path):
    from dragongym.agents.tournament import GAMES_FILE, run_tournament
    options = dict(SHORT["dragon_pass"])
    full = run_tournament("dragon_pass", ["random", "random"], 4, seed=3, progress=False, **options)
    out = tmp_path / "t"
    part = run_tournament("dragon_pass", ["random", "random"], 4, seed=3, progress=False, games=range(0, 2),
                          out=str(out), **options)                       # as if stopped after two games
    assert len(part.games) == 2 and len((out / GAMES_FILE).read_text().splitlines()) == 3
    rest = run_tournament("dragon_pass", ["random", "random"], 4, seed=3, progress=False, out=str(out),
                          resume=True, **options)
    assert [g.index for g in rest.games] == [0, 1, 2, 3]
    assert [(g.seating, g.ranks, g.decisions) for g in rest.games] == \
        [(g.seating, g.ranks, g.decisions) for g in full.games]


def test_a_tournament_checks_its_out_folder_before_the_first_game(tmp_path, capsys):
    from dragongym.agents.tournament import OutFolderError, run_tournament
    options = dict(SHORT["dragon_pass"])
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(OutFolderError, match="is a file"):
        run_tournament("dragon_pass", ["random", "random"], 2, progress=False, out=str(blocker), **options)
    out = tmp_path / "t"
    run_tournament("dragon_pass", ["random", "random"], 1, seed=1, progress=False, out=str(out), **options)
    with pytest.raises(OutFolderError, match="already holds"):
        run_tournament("dragon_pass", ["random", "random"], 1, seed=1, progress=False, out=str(out), **options)
    with pytest.raises(OutFolderError, match="another tournament"):
        run_tournament("dragon_pass", ["random", "random"], 1, seed=2, progress=False, out=str(out),
                       resume=True, **options)
    assert cli.main(["eval", "--game", "dragon_pass", "--games", "1", "--resume"]) == 2
    assert "--resume needs the --out folder" in capsys.readouterr().err


def test_a_solo_tournament_with_lost_games_resumes(tmp_path):
    # a solo seat that misses the victory condition ranks 2 (envs/core/outcome.py): its games log is sound
    from dragongym.agents.tournament import run_tournament
    options = {"num_players": 1, "max_turns": 2}
    full = run_tournament("dragons_down", ["random"], 4, seed=3, progress=False, **options)
    assert any(g.ranks == (2,) for g in full.games)
    out = tmp_path / "solo"
    run_tournament("dragons_down", ["random"], 4, seed=3, progress=False, games=range(0, 2), out=str(out), **options)
    rest = run_tournament("dragons_down", ["random"], 4, seed=3, progress=False, out=str(out), resume=True, **options)
    assert [(g.ranks, g.scores) for g in rest.games] == [(g.ranks, g.scores) for g in full.games]
