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

A record is read strictly, because a record someone edited must never pass
for the game that was played, and a corrupt one must never crash the reader
(:class:`RecordError` is the one error, naming the line and what is wrong):

* the file is UTF-8 (a byte-order mark before the first line is allowed),
  one JSON object a line; blank lines are skipped, a file with no game is
  refused ("no games"); ``NaN`` / ``Infinity`` tokens, numbers of thousands
  of digits and JSON nested too deeply for the parser are refused;
* every key of every line is known: a header holds exactly the keys above
  (``match_seed`` and ``game_index`` may be left out, meaning null), a
  decision exactly ``seat`` and ``action``, the end line exactly ``end``,
  and the end exactly the keys its kind holds (finished: ``ranks``,
  ``rewards``, ``decisions``, ``digest``; unfinished: ``unfinished`` (true),
  ``decisions``, ``digest``). An unknown key is refused, not skipped: a
  later writer that needs another key writes another ``format``;
* integers are JSON integers only (``81.0``, ``"81"`` and ``true`` are not):
  ``format``, ``game_version`` (from 0), ``reset_seed`` (``0..2**64-1``),
  ``match_seed`` and ``game_index`` (null or from 0), each decision's
  ``seat`` (a seat of the header's ``roles``) and ``action`` (an action id of
  the game, ``0..num_actions-1``, checked when the game is known, before the
  replay starts), the end's ``decisions`` (the number of decision lines) and
  ``ranks``; ``rewards`` are finite JSON numbers; ``game`` is a string,
  ``config`` an object, ``roles`` and ``agents`` lists of non-empty strings,
  one agent per role;
* the replay checks the game, its version, the options and the seats
  against this installation, every decision (the seat to play, a legal
  action), and then every field of the end line: the game over (still
  running for an unfinished one; a game that reached its spec's
  ``decision_limit`` is ended there, as the match that played it ended it),
  the digest, and, for a finished game, the
  ranks and the rewards (as the float32 values the game keeps; :func:`finish`
  writes them exactly).

The agent ids, ``match_seed`` and ``game_index`` say who played and where;
the replay does not need them, so only their form is checked (an agent no
longer installed does not stop its games replaying). Decisions are numbered
from 0 (decision ``k`` is taken from position ``k``), lines from 1.
"""
# jitcache: no compiled code
import dataclasses
import hashlib
import json
import math
from dataclasses import dataclass, field

import numpy as np

import dragongym
from dragongym.envs.core.outcome import end_at_decision_limit

RECORD_KIND = "dragongym game"
FORMAT = 1


HEADER_KEYS = ("record", "format", "game", "game_version", "config", "reset_seed", "roles", "agents",
               "match_seed", "game_index")
"""The keys of a header, in the order the module docstring lists them."""

OPTIONAL_HEADER_KEYS = ("match_seed", "game_index")
"""Header keys that may be left out (meaning null)."""

END_KEYS = ("ranks", "rewards", "decisions", "digest")
"""The keys of a finished game's end."""

UNFINISHED_END_KEYS = ("unfinished", "decisions", "digest")
"""The keys of the end of a game left unfinished (:func:`leave_unfinished`)."""

SEED_LIMIT = 2**64
"""Reset seeds are uint64: ``0..SEED_LIMIT-1``."""


class RecordError(ValueError):
    """A record file that is not a readable, replayable game record; the
    message says which game of the file, which line, and what is wrong.

    The message is one line whatever it quotes. ``where`` (``"line 12,
    decision 10"``, ``"line 95"``, or None for a record not read from a file)
    is the place in the file the fault lies; ``what`` is the fault;
    :meth:`located` puts a file and game before both."""

    def __init__(self, message, where=None):
        self.what = " ".join(str(message).splitlines())
        self.where = where
        super().__init__(f"{where}: {self.what}" if where else self.what)

    def located(self, prefix):
        """The message after ``prefix`` (``"games.jsonl, game 3"``), as
        ``"games.jsonl, game 3, line 12, decision 10: what is wrong"``."""
        return f"{prefix}, {self.where}: {self.what}" if self.where else f"{prefix}: {self.what}"


def _is_int(value):
    """A whole number as a record holds one: a JSON integer (a Python int,
    or a numpy integer in a record made in memory), never a bool or a float."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def _kind(value):
    """The type of a JSON value in words, for error messages."""
    return "null" if value is None else type(value).__name__


def _show(value, limit=60):
    """``value`` as JSON, cut to ``limit`` characters, for error messages."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = _kind(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _described(value):
    return f"{_kind(value)} {_show(value)}"


class _NotJSON(ValueError):
    pass


def _no_constant(name):
    raise _NotJSON(f"{name} is not a JSON number")


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
    line_numbers: dict = field(default=None, compare=False, repr=False)
    """Where a record read from a file lies in it (:func:`read_records`):
    ``{"header": n, "actions": [n, ...], "end": n}``, so that a fault found
    in the replay names its line; None for a record made in memory."""

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
    """The games of the record file at ``path``, in order. Every line is
    checked as it is read (see the module docstring): :class:`RecordError`,
    naming the line and what is wrong, for a file that cannot be read, is not
    UTF-8 JSON lines of a game record, holds no game, or a game cut short.
    The actions are checked against the game's (and the end against the
    replay) by :func:`replay`."""
    games, current = [], None
    try:
        fh = open(path, "rb")
    except OSError as err:
        raise RecordError(f"{path}: cannot read the record file ({err.strerror or err})") from None
    try:
        with fh:
            for n, raw in enumerate(fh, start=1):
                current = _read_line(path, n, raw, games, current)
    except OSError as err:
        raise RecordError(f"{path}: cannot read the record file ({err.strerror or err})") from None
    if current is not None:
        raise RecordError(f"{path}: game {len(games)} has no end line (the file was cut short)")
    if not games:
        raise RecordError(f"{path}: no games (the file is empty or holds only blank lines)")
    return games


def _read_line(path, n, raw, games, current):
    """Read line ``n`` (bytes) into ``games`` / ``current`` (the game being
    read, or None between games); returns the game being read after it."""
    where = f"{path}, line {n}"
    try:
        text = raw.decode("utf-8-sig" if n == 1 else "utf-8")
    except UnicodeDecodeError as err:
        raise RecordError(f"{where}: not UTF-8 text (byte {err.start + 1} of the line)") from None
    if not text.strip():
        return current
    try:
        item = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise RecordError(f"{where}: JSON nested too deeply") from None
    except json.JSONDecodeError as err:
        raise RecordError(f"{where}: not JSON ({err.msg}, column {err.colno})") from None
    except _NotJSON as err:
        raise RecordError(f"{where}: not JSON ({err})") from None
    except ValueError:
        # the one other ValueError json raises: int("1" * 5000)
        raise RecordError(f"{where}: a number too long to read (thousands of digits)") from None
    if not isinstance(item, dict):
        raise RecordError(f"{where}: a record line is a JSON object, got {_kind(item)}")
    if "record" in item:
        if current is not None:
            raise RecordError(f"{where}: a new game begins before game {len(games)} ended")
        current = _header(item, where)
        current.line_numbers = {"header": n, "actions": [], "end": None}
        return current
    if current is None:
        raise RecordError(f"{where}: a line before any game's header")
    if "end" in item:
        if set(item) != {"end"}:
            raise RecordError(f"{where}: the end line holds only \"end\", not "
                              f"{', '.join(_show(k) for k in sorted(set(item) - {'end'}))}")
        problem = _end_problem(item["end"], len(current.actions), len(current.roles))
        if problem:
            raise RecordError(f"{where}: {problem}")
        current.end = item["end"]
        current.line_numbers["end"] = n
        games.append(current)
        return None
    k = len(current.actions)
    at = f"{where}, decision {k}"
    if set(item) != {"seat", "action"}:
        extra = sorted(set(item) - {"seat", "action"})
        if extra and {"seat", "action"} <= set(item):
            raise RecordError(f"{at}: a decision line holds only seat and action, not "
                              f"{', '.join(_show(key) for key in extra)}")
        raise RecordError(f"{at}: a decision is {{\"seat\": int, \"action\": int}}, "
                          f"got {_show(item, 80)}")
    seat, action = item["seat"], item["action"]
    seats = len(current.roles)
    if not _is_int(seat) or not 0 <= seat < seats:
        raise RecordError(f"{at}: seat must be an int in 0..{seats - 1} (a seat of "
                          f"{', '.join(current.roles)}), got {_described(seat)}")
    if not _is_int(action):
        raise RecordError(f"{at}: action must be an int (an action id), got "
                          f"{_described(action)}")
    current.actions.append((seat, action))
    current.line_numbers["actions"].append(n)
    return current


def _header(item, where):
    if item.get("record") != RECORD_KIND:
        raise RecordError(f"{where}: not a dragongym game record (record is {_show(item.get('record'))})")
    fmt = item.get("format")
    if not _is_int(fmt):
        raise RecordError(f"{where}: format must be an int (this reader reads format {FORMAT}), got "
                          f"{_described(fmt)}")
    if fmt != FORMAT:
        raise RecordError(f"{where}: record format {fmt}; this reader reads format {FORMAT}")
    unknown = sorted(set(item) - set(HEADER_KEYS))
    if unknown:
        raise RecordError(f"{where}: the header has unknown key(s) {', '.join(_show(k) for k in unknown)}; "
                          f"a format-{FORMAT} header holds only {', '.join(HEADER_KEYS)}")
    missing = [k for k in HEADER_KEYS if k not in item and k not in OPTIONAL_HEADER_KEYS]
    if missing:
        raise RecordError(f"{where}: the header lacks {', '.join(missing)}")

    def bad(message, value):
        return RecordError(f"{where}: {message}, got {_described(value)}")

    game, version, config, seed = item["game"], item["game_version"], item["config"], item["reset_seed"]
    roles, agents = item["roles"], item["agents"]
    if not isinstance(game, str) or not game:
        raise bad("game must be a game's name (a string)", game)
    if not _is_int(version) or version < 0:
        raise bad("game_version must be an int >= 0", version)
    if not isinstance(config, dict):
        raise bad("config must be a JSON object of the game's options", config)
    if not _is_int(seed) or not 0 <= seed < SEED_LIMIT:
        raise bad("reset_seed must be an int in 0..2**64-1", seed)
    if not isinstance(roles, list) or not roles or not all(isinstance(r, str) and r for r in roles):
        raise bad("roles must be a list of role names (non-empty strings), one per seat", roles)
    if not isinstance(agents, list) or not all(isinstance(a, str) and a for a in agents):
        raise bad("agents must be a list of agent ids (non-empty strings), one per seat", agents)
    if len(agents) != len(roles):
        raise RecordError(f"{where}: agents must name one agent per seat: {len(agents)} agent(s) for the "
                          f"{len(roles)} seats ({', '.join(roles)})")
    for key in OPTIONAL_HEADER_KEYS:
        value = item.get(key)
        if value is not None and (not _is_int(value) or value < 0):
            raise bad(f"{key} must be null or an int >= 0", value)
    return GameRecord(game=game, game_version=version, config=config, reset_seed=seed, roles=roles,
                      agents=agents, match_seed=item.get("match_seed"), game_index=item.get("game_index"))


def _end_problem(end, decisions, seats):
    """Why ``end`` (a game's end, as the end line holds it) is not the end of
    a game of ``decisions`` decisions and ``seats`` seats, or ``""``."""
    if not isinstance(end, dict):
        return f"end must be a JSON object (ranks, rewards, decisions, digest), got {_described(end)}"
    unfinished = "unfinished" in end
    keys = UNFINISHED_END_KEYS if unfinished else END_KEYS
    kind = "an unfinished game's" if unfinished else "a finished game's"
    unknown = sorted(set(end) - set(keys))
    if unknown:
        return (f"the end has unknown key(s) {', '.join(_show(k) for k in unknown)}; {kind} end holds "
                f"only {', '.join(keys)}")
    missing = [k for k in keys if k not in end]
    if missing:
        return f"the end of a game lacks {', '.join(missing)} ({kind} end holds {', '.join(keys)})"
    if unfinished and end["unfinished"] is not True:
        return f"unfinished must be true (or left out, for a finished game), got {_described(end['unfinished'])}"
    count = end["decisions"]
    if not _is_int(count) or count < 0:
        return f"decisions must be an int >= 0, got {_described(count)}"
    if count != decisions:
        return f"the end says {count} decisions; the game has {decisions} decision line(s)"
    if not isinstance(end["digest"], str):
        return f"digest must be a string (a sha256 hex digest), got {_described(end['digest'])}"
    if not unfinished:
        ranks, rewards = end["ranks"], end["rewards"]
        if not isinstance(ranks, list) or len(ranks) != seats or not all(_is_int(r) for r in ranks):
            return f"ranks must be a list of {seats} ints, one per seat, got {_described(ranks)}"
        if (not isinstance(rewards, list) or len(rewards) != seats
                or not all(_is_int(r) or (isinstance(r, (float, np.floating)) and math.isfinite(r))
                           for r in rewards)):
            return f"rewards must be a list of {seats} finite numbers, one per seat, got {_described(rewards)}"
    return ""


def replayed_game(record, game=None):
    """``(game, config)``: the game and configuration ``record`` was played
    with, checked against this installation (the game exists, its version,
    the options, the seats); :class:`RecordError` on any mismatch. ``game``
    (a :class:`Game`) skips the registry look-up."""
    where = _where(record, "header")
    try:
        game = game or dragongym.get_game(record.game)
    except (TypeError, ValueError) as err:
        raise RecordError(f"the record is of a game this installation does not have: {err}", where) from None
    if int(getattr(game, "version", 0)) != record.game_version:
        raise RecordError(f"the record is of {record.game} version {record.game_version}; "
                          f"this is version {game.version}", where)
    if not isinstance(record.config, dict):
        raise RecordError(f"config must be a JSON object of the game's options, got {_described(record.config)}",
                          where)
    try:
        config = game.config_from_json(record.config)
    except (TypeError, ValueError, LookupError, OverflowError) as err:
        raise RecordError(f"the record's configuration is not one of {record.game}'s: {err}", where) from None
    spec = game.spec_for(config)
    if list(spec.roles) != list(record.roles):
        raise RecordError(f"the record's seats {record.roles} are not this configuration's {list(spec.roles)}",
                          where)
    if len(record.agents) != spec.num_seats:
        raise RecordError(f"agents must name one agent per seat: {len(record.agents)} agent(s) for the "
                          f"{spec.num_seats} seats ({', '.join(spec.roles)})", where)
    return game, config


def _where(record, part, k=None):
    """Where ``part`` of ``record`` lies in its file, for an error: ``"line
    N"`` of the ``"header"`` or the ``"end"``, ``"line N, decision k"`` for
    ``"decision"`` ``k`` (``"decision k"`` alone, or None, for a record
    made in memory)."""
    numbers = getattr(record, "line_numbers", None) or {}
    if part == "decision":
        lines = numbers.get("actions") or []
        return f"line {lines[k]}, decision {k}" if k < len(lines) else f"decision {k}"
    return f"line {numbers[part]}" if numbers.get(part) else None


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
    action that is not one of the game's (checked for every decision before
    the first is played), an action refused or taken by the wrong seat, a
    game not over at the end, another digest, other ranks or rewards than
    the end line's -- so the final position is only ever yielded for a
    record that replays exactly. A record read from a file names the line
    (:attr:`RecordError.where`).
    """
    game, config = replayed_game(record, game)
    spec = game.spec_for(config)
    seats, num_actions = spec.num_seats, spec.num_actions
    seed = record.reset_seed
    if not _is_int(seed) or not 0 <= seed < SEED_LIMIT:
        raise RecordError(f"reset_seed must be an int in 0..2**64-1, got {_described(seed)}",
                          _where(record, "header"))
    # every decision is an action id of the game before any is played: an
    # edited one is named where it is, not where the replay stumbles after it
    for k, (seat, action) in enumerate(record.actions):
        if not _is_int(seat) or not 0 <= seat < seats:
            raise RecordError(f"seat must be an int in 0..{seats - 1}, got {_described(seat)}",
                              _where(record, "decision", k))
        if not _is_int(action) or not 0 <= action < num_actions:
            raise RecordError(f"action {_show(action)} of seat {seat} is not an action of this {record.game} "
                              f"game (its actions are 0..{num_actions - 1})", _where(record, "decision", k))
    end, at_end = record.end, _where(record, "end")
    problem = _end_problem(end, len(record.actions), seats)
    if problem:
        raise RecordError(problem, at_end)
    state = game.new_states(1)
    game.reset(state, np.array([seed], dtype=np.uint64), config)
    errors = np.zeros(1, dtype=np.int8)
    for k, (seat, action) in enumerate(record.actions):
        if int(state[0]["status"]) != 0:
            raise RecordError("the game was already over", _where(record, "decision", k))
        if int(state[0]["to_play"]) != seat:
            raise RecordError(f"the record has seat {seat} deciding, the game seat {int(state[0]['to_play'])}",
                              _where(record, "decision", k))
        yield k, state, seat, action
        game.step(state, np.array([action], dtype=np.int32), errors)
        if errors[0]:
            raise RecordError(f"action {action} of seat {seat} is refused ({game.error_message(errors[0])})",
                              _where(record, "decision", k))
    running = int(state[0]["status"]) == 0
    if running and not end.get("unfinished") and spec.decision_limit \
            and len(record.actions) >= spec.decision_limit:
        end_at_decision_limit(state, seats, spec.utility)     # as the match that played it did
        running = False
    if end.get("unfinished"):
        if not running:
            raise RecordError(f"the record says the game was left unfinished, yet it is over after the "
                              f"record's {len(record.actions)} decisions", at_end)
    elif running:
        raise RecordError(f"the game is not over after the record's {len(record.actions)} decisions", at_end)
    if digest(state) != end["digest"]:
        raise RecordError("the final state does not match the recorded digest (another game version, "
                          "or an edited record)", at_end)
    if not end.get("unfinished"):
        _check_result(record, game, spec, state, at_end)
    yield len(record.actions), state, None, None


def _check_result(record, game, spec, state, where):
    """The end's ranks and rewards are the replayed game's (the digest
    covers the state, not the end line's copy of its result)."""
    from dragongym.envs.core.outcome import outcome_of

    seats = spec.num_seats
    try:
        ranks = [int(r) for r in outcome_of(state, seats, spec.utility).ranks]
    except ValueError as err:
        raise RecordError(f"the replayed game has no outcome to compare the end with: {err}", where) from None
    if list(record.end["ranks"]) != ranks:
        raise RecordError(f"the end's ranks {_show(record.end['ranks'])} are not the replayed game's {ranks} "
                          "(an edited record)", where)
    # float32 in the state; finish() writes float(np.float32), which JSON keeps exactly
    rewards = [float(r) for r in np.asarray(state[0]["rewards"][:seats], dtype=np.float32)]
    if list(record.end["rewards"]) != rewards:
        raise RecordError(f"the end's rewards {_show(record.end['rewards'])} are not the replayed game's "
                          f"{_show(rewards)} (an edited record)", where)


def replay(record, game=None):
    """Play ``record`` again from its seed and actions, checking every action
    legal for the seat that took it, the game over at the end (still running
    for a game left unfinished) and every field of the end: the decisions,
    the final state's digest, and a finished game's ranks and rewards.
    Returns the final state (a 1-record array); :class:`RecordError` on any
    mismatch."""
    for _, state, _, _ in replay_steps(record, game):
        pass
    return state
