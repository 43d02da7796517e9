"""Game records: every action of a game in a small JSON-lines file, and its replay.

A record file holds one or more games, one after another, each as JSON
objects one per line (UTF-8):

1. the header::

       {"record": "dragongym game", "format": 1, "game": "dragon_pass",
        "game_version": 1, "config": {"scenario": "18.2"}, "reset_seed": 1234,
        "roles": ["lunar", "sartar"], "agents": ["random", "dragon_pass.heuristic"],
        "match_seed": 0, "game_index": 3}

   ``config`` is the game's options (``Game.make_config(**config)``),
   ``reset_seed`` the uint64 seed ``Game.reset`` started the game from,
   ``agents`` the agent id in each seat (``roles`` order); ``match_seed`` and
   ``game_index`` say where in a match the game was played (null outside one);
2. one line per decision, in order: ``{"seat": 0, "action": 417}``;
3. the end: ``{"end": {"ranks": [1, 2], "rewards": [1.0, -1.0],
   "decisions": 312, "digest": "<sha256 of the final state record's bytes>"}}``;
   a game stopped before its end (a person saving a game in play, a bot that
   failed) ends instead with ``{"end": {"unfinished": true, "decisions": 40,
   "digest": "<sha256 of the state reached>"}}`` (:func:`leave_unfinished`).

Every game replays from its record alone (:func:`replay`; :func:`replay_steps`
position by position, for replay pictures): the rules are a
pure function of the seed and the actions, so the final state's bytes must
hash to the recorded digest, and a record that does not (another game
version, a corrupt line) is refused with what does not match.
"""
# jitcache: no compiled code
import dataclasses
import hashlib
import json
from dataclasses import dataclass, field

import numpy as np

import dragongym

RECORD_KIND = "dragongym game"
FORMAT = 1


class RecordError(ValueError):
    """A record file that is not a readable, replayable game record; the
    message says which game of the file, which line, and what is wrong."""


def digest(state):
    """The sha256 hex digest of a state record's bytes."""
    return hashlib.sha256(np.ascontiguousarray(state).tobytes()).hexdigest()


@dataclass
class GameRecord:
    """One recorded game (the fields of the header, the actions, the end)."""

    game: str
    game_version: int
    config: dict
    reset_seed: int
    roles: list
    agents: list
    actions: list = field(default_factory=list)      # [(seat, action)]
    end: dict = field(default_factory=dict)
    match_seed: object = None
    game_index: object = None

    def header(self):
        return {"record": RECORD_KIND, "format": FORMAT, "game": self.game, "game_version": self.game_version,
                "config": self.config, "reset_seed": int(self.reset_seed), "roles": list(self.roles),
                "agents": list(self.agents), "match_seed": self.match_seed, "game_index": self.game_index}

    def lines(self):
        """The record as JSON lines (no trailing newline on each)."""
        out = [json.dumps(self.header(), sort_keys=True)]
        out += [json.dumps({"seat": int(s), "action": int(a)}) for s, a in self.actions]
        out.append(json.dumps({"end": self.end}, sort_keys=True))
        return out


def config_dict(config):
    """A game configuration (the game's options dataclass) as the JSON object
    a header keeps: every option by name, tuples as lists."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in dataclasses.asdict(config).items()}


def finish(record, state, rewards, ranks):
    """Fill ``record.end`` from the final state (a 1-record array)."""
    record.end = {"ranks": [int(r) for r in ranks], "rewards": [float(r) for r in rewards],
                  "decisions": len(record.actions), "digest": digest(state)}
    return record


def leave_unfinished(record, state):
    """Fill ``record.end`` for a game stopped while still running: ``state``
    (a 1-record array) is the position reached; :func:`replay` then checks
    the game is still running there and its digest."""
    record.end = {"unfinished": True, "decisions": len(record.actions), "digest": digest(state)}
    return record


def append(path, record):
    """Add one game to the record file at ``path`` (created if missing), as soon as it ended."""
    with open(path, "a", encoding="utf-8") as fh:
        fh.write("\n".join(record.lines()) + "\n")


def read_records(path):
    """The games of the record file at ``path``, in order (:class:`RecordError` if unreadable)."""
    games, current = [], None
    try:
        fh = open(path, encoding="utf-8")
    except OSError as err:
        raise RecordError(f"{path}: cannot read the record file ({err.strerror})") from None
    with fh:
        for n, text in enumerate(fh, start=1):
            if not text.strip():
                continue
            where = f"{path}, line {n}"
            try:
                item = json.loads(text)
            except json.JSONDecodeError as err:
                raise RecordError(f"{where}: not JSON ({err.msg})") from None
            if not isinstance(item, dict):
                raise RecordError(f"{where}: a record line is a JSON object, got {type(item).__name__}")
            if "record" in item:
                if current is not None:
                    raise RecordError(f"{where}: a new game begins before game {len(games)} ended")
                current = _header(item, where)
            elif current is None:
                raise RecordError(f"{where}: a line before any game's header")
            elif "end" in item:
                if not isinstance(item["end"], dict) or "digest" not in item["end"]:
                    raise RecordError(f"{where}: the end of a game needs its digest")
                current.end = item["end"]
                games.append(current)
                current = None
            else:
                try:
                    current.actions.append((int(item["seat"]), int(item["action"])))
                except (KeyError, TypeError, ValueError):
                    raise RecordError(f"{where}: a decision is {{\"seat\": int, \"action\": int}}, "
                                      f"got {text.strip()[:80]}") from None
    if current is not None:
        raise RecordError(f"{path}: game {len(games)} has no end line (the file was cut short)")
    return games


def _header(item, where):
    if item.get("record") != RECORD_KIND:
        raise RecordError(f"{where}: not a dragongym game record (record is {item.get('record')!r})")
    if item.get("format") != FORMAT:
        raise RecordError(f"{where}: record format {item.get('format')!r}; this reader reads format {FORMAT}")
    try:
        return GameRecord(game=str(item["game"]), game_version=int(item["game_version"]),
                          config=dict(item["config"]), reset_seed=int(item["reset_seed"]),
                          roles=list(item["roles"]), agents=list(item["agents"]),
                          match_seed=item.get("match_seed"), game_index=item.get("game_index"))
    except (KeyError, TypeError, ValueError) as err:
        raise RecordError(f"{where}: the header lacks or garbles {err}") from None


def replayed_game(record, game=None):
    """``(game, config)``: the game and configuration ``record`` was played
    with, checked against this installation (the game exists, its version,
    the options, the seats); :class:`RecordError` on any mismatch. ``game``
    (a :class:`Game`) skips the registry look-up."""
    try:
        game = game or dragongym.get_game(record.game)
    except ValueError as err:
        raise RecordError(f"the record is of a game this installation does not have: {err}") from None
    if int(getattr(game, "version", 0)) != record.game_version:
        raise RecordError(f"the record is of {record.game} version {record.game_version}; "
                          f"this is version {game.version}")
    try:
        config = game.make_config(**record.config)
    except (TypeError, ValueError) as err:
        raise RecordError(f"the record's configuration is not one of {record.game}'s: {err}") from None
    spec = game.spec_for(config)
    if list(spec.roles) != list(record.roles):
        raise RecordError(f"the record's seats {record.roles} are not this configuration's {list(spec.roles)}")
    return game, config


def replay_steps(record, game=None):
    """Play ``record`` again from its seed and actions, one decision at a time.

    Yields ``(k, state, seat, action)`` before decision ``k`` is applied:
    ``state`` is the live 1-record array of the position where ``seat``
    takes ``action`` (copy it to keep it: it changes when the generator
    resumes). Once every decision is applied and the game's end and the
    final state's digest are checked, yields ``(n, state, None, None)`` with
    the final state, ``n`` being the number of decisions (a game left
    unfinished, :func:`leave_unfinished`, must still be running there).
    Raises :class:`RecordError` as soon as something does not match -- an
    action refused or taken by the wrong seat, a game not over at the end,
    another digest -- so the final position is only ever yielded for a
    record that replays exactly.
    """
    game, config = replayed_game(record, game)
    state = game.new_states(1)
    game.reset(state, np.array([record.reset_seed], dtype=np.uint64), config)
    errors = np.zeros(1, dtype=np.int8)
    for k, (seat, action) in enumerate(record.actions):
        if int(state[0]["status"]) != 0:
            raise RecordError(f"decision {k}: the game was already over")
        if int(state[0]["to_play"]) != seat:
            raise RecordError(f"decision {k}: the record has seat {seat} deciding, the game seat "
                              f"{int(state[0]['to_play'])}")
        yield k, state, seat, action
        game.step(state, np.array([action], dtype=np.int32), errors)
        if errors[0]:
            raise RecordError(f"decision {k}: action {action} of seat {seat} is refused "
                              f"({game.error_message(errors[0])})")
    running = int(state[0]["status"]) == 0
    if record.end.get("unfinished"):
        if not running:
            raise RecordError(f"the record says the game was left unfinished, yet it is over after the "
                              f"record's {len(record.actions)} decisions")
    elif running:
        raise RecordError(f"the game is not over after the record's {len(record.actions)} decisions")
    if digest(state) != record.end.get("digest"):
        raise RecordError("the final state does not match the recorded digest (another game version, "
                          "or an edited record)")
    yield len(record.actions), state, None, None


def replay(record, game=None):
    """Play ``record`` again from its seed and actions, checking every action
    legal for the seat that took it, the game over at the end (still running
    for a game left unfinished) and the final state's digest. Returns the
    final state (a 1-record array); :class:`RecordError` on any mismatch."""
    for _, state, _, _ in replay_steps(record, game):
        pass
    return state
