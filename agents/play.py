"""A person plays a game against bots: the session, and its terminal front end.

    dragongym play --game dragonhunt --num-players 3 --opponents random,dragonhunt.heuristic
    dragongym play --game dragon_pass --scenario 18.2 --seat sartar --web

A :class:`PlaySession` holds one game: the person sits in one seat, a bot
(any agent id :func:`dragongym.agents.make_agent` knows) in each other seat.
The person decides (:meth:`PlaySession.choose`); the bots then answer until it
is the person's turn again or the game is over. :meth:`PlaySession.undo` takes
the person's last decision back, :meth:`PlaySession.save` writes the game as a
game record (``agents/game_record.py``; ``dragongym replay FILE`` checks it: a
game saved before its end is an unfinished record).

Seeds. The game starts from ``Game.reset`` with the session's seed, and the
bot in seat ``s`` answering decision ``k`` of the game draws its randomness
from a generator seeded by ``(seed, k, s)``: the same seed and the same
choices give the same game, and after an undo the bots answer the same
choice the same way.

Front ends: :class:`TerminalPlay` here (the text picture, numbered actions,
typed choices) and the browser page of :mod:`dragongym.agents.play_web`;
:func:`add_play_arguments` and :func:`run_play` are the command line both
share (``dragongym play``).
"""
import math
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass

import numpy as np

import dragongym
from dragongym.agents.base import (Agent, AgentActionError, checked_action, is_agent_id, list_agents,
                                   make_agent, split_agent_list)
from dragongym.agents.game_record import (GameRecord, RecordError, config_dict, finish, leave_unfinished,
                                          read_records)
from dragongym.envs.core.config import check_seed
from dragongym.envs.core.game import STATUS_RUNNING, STATUS_TRUNCATED, Game
from dragongym.envs.core.options import number_type
from dragongym.envs.core.outcome import WIN, DRAW, outcome_of

HUMAN = "human"
"""The agent id a saved game record gives the person's seat."""


class PlayError(ValueError):
    """A request the session refuses (an illegal action, nothing to undo, a
    file that cannot be written); the session is left as it was."""


class ChoiceError(PlayError):
    """Typed text that names no legal action. ``candidates`` holds the
    ``(action, name)`` pairs an ambiguous prefix matches (empty otherwise)."""

    def __init__(self, message, candidates=()):
        super().__init__(message)
        self.candidates = tuple(candidates)


@dataclass(frozen=True)
class Decision:
    """One decision of the game so far.

    Attributes:
        seat: the seat that took it.
        role: that seat's name (``spec.roles``).
        player: the agent id (label) of the bot in that seat, or :data:`HUMAN`.
        action: the action id.
        name: ``game.action_to_string`` of the action in the position it was taken in.
    """

    seat: int
    role: str
    player: str
    action: int
    name: str

    def describe(self):
        """``"player_1 (random): choose kingdom Stonehelm"``; the person is "you"."""
        who = "you" if self.player == HUMAN else self.player
        return f"{self.role} ({who}): {self.name}"


@dataclass(frozen=True)
class BotFailure:
    """Why the session stopped: the bot in ``seat`` raised or answered with no
    legal action. ``message`` names the seat, its role and the bot."""

    seat: int
    agent: str
    message: str


class PlaySession:
    """One game between a person and bots.

    Args:
        game: a registered game id or a :class:`Game`.
        options: the game's options (``{"scenario": "18.2"}``); they decide the seats.
        seat: the person's seat, as a seat number or a role name.
        opponents: the bots of the other seats in seat order, as agent ids (or
            :class:`Agent` objects); a single entry plays every other seat;
            None: ``"random"`` in every other seat.
        seed: the game's reset seed (0..2**64-1); see the module docstring.

    Raises :class:`PlayError` for a seat or an opponent list that does not fit
    the configuration and ``ValueError`` for options the game refuses. A bot
    that fails, already before the person's first decision, does not raise:
    the session stops with :attr:`failure` set (and can still be saved).

    Attributes:
        game, config, spec: the game, its configuration and that configuration's spec.
        roles: the seats' names, in seat order.
        seat: the person's seat.
        labels: per seat, the bot's agent id (its class name for an
            :class:`Agent` object), :data:`HUMAN` for the person.
        state: the position, a live 1-record array (read it; the session owns it).
        decisions: every :class:`Decision` so far, in order.
        failure: the :class:`BotFailure` that stopped the session, or None.
    """

    def __init__(self, game, options=None, seat=0, opponents=None, seed=0):
        self.game = game if isinstance(game, Game) else dragongym.get_game(game)
        self.options = dict(options or {})
        self.config = self.game.make_config(**self.options)
        self.spec = self.game.spec_for(self.config)
        self.roles = tuple(self.spec.roles)
        self.seed = check_seed(seed, "the session's seed")
        self.seat = self._seat_of(seat)
        if opponents is None:
            opponents = ["random"] if len(self.roles) > 1 else []
        self.players = self._seat_players(list(opponents))
        self.bots = {s: p if isinstance(p, Agent) else make_agent(p, game=self.game)
                     for s, p in enumerate(self.players) if s != self.seat}
        self.labels = [HUMAN if s == self.seat else p if isinstance(p, str) else type(p).__name__
                       for s, p in enumerate(self.players)]
        self.decisions = []
        self.failure = None
        self._errors = np.zeros(1, dtype=np.int8)
        self._legal = None            # legal_actions() of the position, until the next decision or undo
        self.state = self._replayed([])
        for bot in self.bots.values():
            bot.reset()
        self._bots_answer()

    # ------------------------------------------------------------ set-up
    def _seat_of(self, seat):
        n = len(self.roles)
        if isinstance(seat, str) and not seat.strip().lstrip("-").isdigit():
            if seat in self.roles:
                return self.roles.index(seat)
            raise PlayError(f"there is no seat {seat!r} in this {self.game.name} configuration; "
                            f"the seats are {', '.join(self.roles)} (or 0..{n - 1})")
        try:
            number = int(seat)
        except (TypeError, ValueError):
            raise PlayError(f"a seat is a number or a role name, not {seat!r}") from None
        if not 0 <= number < n:
            raise PlayError(f"seat {number} is not one of this configuration's seats 0..{n - 1} "
                            f"({', '.join(self.roles)})")
        return number

    def _seat_players(self, opponents):
        """The agent (id or object) of every seat, :data:`HUMAN` in the person's."""
        others = len(self.roles) - 1
        if others == 0:
            if opponents:
                raise PlayError(f"this {self.game.name} configuration has one seat: no opponents")
            return [HUMAN]
        if len(opponents) == 1:
            opponents = opponents * others
        if len(opponents) != others:
            raise PlayError(f"{len(opponents)} opponents for the {others} other seats "
                            f"({', '.join(r for s, r in enumerate(self.roles) if s != self.seat)}); "
                            "give one agent per other seat, or one for all")
        unknown = sorted({p for p in opponents if isinstance(p, str) and not is_agent_id(p)})
        if unknown:
            raise PlayError(f"unknown agent(s) {', '.join(unknown)}; known: {', '.join(list_agents())}")
        players = list(opponents)
        players.insert(self.seat, HUMAN)
        return players

    # ------------------------------------------------------------ the position
    @property
    def to_play(self):
        """The seat that decides now (-1 once the game is over)."""
        return int(self.state[0]["to_play"])

    @property
    def finished(self):
        """True once the game has ended (by the rules or at its limit)."""
        return int(self.state[0]["status"]) != STATUS_RUNNING

    @property
    def live(self):
        """True while the person can decide: the game runs and no bot failed."""
        return not self.finished and self.failure is None

    @property
    def your_turn(self):
        return self.live and self.to_play == self.seat

    def legal_actions(self):
        """``[(action, name), ...]`` of the person's legal actions now, in action
        order (empty when it is not the person's turn)."""
        if not self.your_turn:
            return []
        if self._legal is None:
            self._legal = [(int(a), self.game.action_to_string(self.state, int(a)))
                           for a in np.flatnonzero(self.game.mask_of(self.state))]
        return list(self._legal)

    def text_picture(self):
        """The game's text picture of the position as the person's seat may
        know it (``render_ansi(state, seat)``)."""
        return self.game.render_ansi(self.state, self.seat)

    def log(self):
        """Every decision so far, one line each: ``"12. player_1 (random): ..."``."""
        return [f"{k}. {d.describe()}" for k, d in enumerate(self.decisions, start=1)]

    def status_text(self):
        """One line: whose turn it is, or how the game ended or stopped."""
        if self.failure is not None:
            return f"stopped: {self.failure.message}"
        if self.finished:
            return self.result_text()
        who = "your turn" if self.to_play == self.seat else f"{self.roles[self.to_play]} to play"
        return f"{who} (you are {self.roles[self.seat]}, seat {self.seat}; decision {len(self.decisions) + 1})"

    def result_text(self):
        """How the finished game came out for the person, and every seat's rank."""
        outcome = outcome_of(self.state, len(self.roles), self.spec.utility)
        mine = outcome.results[self.seat]
        verdict = {WIN: "you won", DRAW: "a draw"}.get(mine, "you lost")
        how = " at the game's limit" if int(self.state[0]["status"]) == STATUS_TRUNCATED else ""
        score = self.spec.score_name
        seats = "; ".join(f"{role}{' (you)' if s == self.seat else ''} rank {outcome.ranks[s]}"
                          + (f", {score} {outcome.scores[s]:g}" if score else "")
                          for s, role in enumerate(self.roles))
        return f"game over{how}: {verdict} ({seats})"

    # ------------------------------------------------------------ choices
    def parse_choice(self, text):
        """The legal action ``text`` names: its number in :meth:`legal_actions`
        (1 = the first), its full name, or the start of exactly one name (case
        and runs of spaces ignored; a full name wins over longer names it
        begins). :class:`ChoiceError` otherwise, with the candidates of an
        ambiguous prefix."""
        if not self.your_turn:
            raise ChoiceError(self._why_not_yours())
        legal = self.legal_actions()
        typed = " ".join(str(text).split())
        if not typed:
            raise ChoiceError("type an action's number, its name or the start of its name")
        if typed.isdigit():
            k = int(typed)
            if 1 <= k <= len(legal):
                return legal[k - 1][0]
            raise ChoiceError(f"there is no action {k}: the actions are numbered 1..{len(legal)}")
        wanted = typed.lower()
        names = [(a, " ".join(name.split()).lower()) for a, name in legal]
        exact = [a for a, name in names if name == wanted]
        if len(exact) == 1:
            return exact[0]
        starting = [(a, name) for (a, name), (_, low) in zip(legal, names) if low.startswith(wanted)]
        if len(starting) == 1:
            return starting[0][0]
        if not starting:
            raise ChoiceError(f"{typed!r} is not a legal action's number, name or the start of a name")
        raise ChoiceError(f"{typed!r} begins {len(starting)} actions; type more of the name", starting)

    def choose(self, action):
        """The person takes ``action`` (an action id legal now); then every bot
        answers until it is the person's turn again, the game is over or a bot
        fails. Returns the decisions taken, the person's first.
        :class:`PlayError` (session unchanged) if the action is not legal now."""
        if not self.your_turn:
            raise PlayError(self._why_not_yours())
        integral = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
        mask = self.game.mask_of(self.state)
        if not integral or not 0 <= int(action) < len(mask) or not mask[int(action)]:
            legal = self.legal_actions()
            raise PlayError(f"{action!r} is not a legal action here (the legal ones: "
                            f"{', '.join(f'{a} = {name}' for a, name in legal[:6])}"
                            f"{f', ... {len(legal)} in all' if len(legal) > 6 else ''})")
        first = len(self.decisions)
        self._take(self.seat, int(action))
        self._bots_answer()
        return self.decisions[first:]

    def choose_text(self, text):
        """:meth:`choose` the action :meth:`parse_choice` reads from ``text``."""
        return self.choose(self.parse_choice(text))

    def _why_not_yours(self):
        if self.failure is not None:
            return f"the session stopped: {self.failure.message}"
        if self.finished:
            return "the game is over"
        return f"it is {self.roles[self.to_play]}'s turn, not yours"

    def _take(self, seat, action):
        name = self.game.action_to_string(self.state, action)
        self._legal = None
        self.game.step(self.state, np.array([action], dtype=np.int32), self._errors)
        if self._errors[0]:
            # the mask said legal and the rules refused: a bug of the game, not of the player
            raise RuntimeError(f"{self.game.name} refused action {action} ({name}) its own mask allows: "
                               f"{self.game.error_message(self._errors[0])}")
        self.decisions.append(Decision(seat, self.roles[seat], self.labels[seat], action, name))

    def _bots_answer(self):
        """Let the bots decide until the person's turn, the end, or a failure."""
        while not self.finished and self.failure is None and self.to_play != self.seat:
            seat = self.to_play
            bot, label = self.bots[seat], self.labels[seat]
            rng = np.random.default_rng([self.seed, len(self.decisions), seat])
            mask = self.game.mask_of(self.state)
            try:
                # a bot reads a copy: whatever it does to it, the game stays as the rules left it
                if bot.uses_state:
                    value = bot.act_state(self.game, self.state.copy(), seat, rng)
                else:
                    value = bot.act(self.game.observation_of(self.state, seat), mask, rng)
                action = checked_action(value, mask, len(self.decisions), seat, self.roles[seat], label)
            except Exception as error:  # noqa: BLE001 -- a bot is foreign code: any failure stops the game
                if isinstance(error, AgentActionError):
                    # its message starts "game k, seat s (role): ", which this one says already
                    what = str(error).partition("): ")[2] or str(error)
                else:
                    what = f"{type(error).__name__}: {error}"
                self.failure = BotFailure(seat, label, f"bot {label} in seat {seat} ({self.roles[seat]}) "
                                                       f"failed at decision {len(self.decisions) + 1}: {what}")
                return
            self._take(seat, action)

    # ------------------------------------------------------------ undo
    def can_undo(self):
        return any(d.seat == self.seat for d in self.decisions)

    def undo(self):
        """Take back the person's last decision and the bots' replies after it;
        the position is rebuilt by replaying the decisions before it from the
        seed (a bot's failure after it is forgotten too). Returns the
        decisions taken back, the person's first; :class:`PlayError` when the
        person has made no decision yet. Bots are :meth:`Agent.reset`, since
        what they remembered of the game may now be of moves never made."""
        mine = [k for k, d in enumerate(self.decisions) if d.seat == self.seat]
        if not mine:
            raise PlayError("nothing to undo: you have not decided anything yet")
        keep = mine[-1]
        taken_back = self.decisions[keep:]
        self.state = self._replayed(self.decisions[:keep])
        self._legal = None
        self.decisions = self.decisions[:keep]
        self.failure = None
        for bot in self.bots.values():
            bot.reset()
        return taken_back

    def resettle(self):
        """Rebuild the position from the seed and :attr:`decisions`: after an
        interruption (Ctrl-C while a bot thought) the state may be one step
        past the log, and a record saved then would not replay."""
        self.state = self._replayed(self.decisions)
        self._legal = None

    def _replayed(self, decisions):
        """The position after ``decisions``, replayed from the seed."""
        state = self.game.new_states(1)
        self.game.reset(state, np.array([self.seed], dtype=np.uint64), self.config)
        for d in decisions:
            self.game.step(state, np.array([d.action], dtype=np.int32), self._errors)
            if self._errors[0]:
                raise RuntimeError(f"{self.game.name}: replaying decision {d.describe()} was refused "
                                   f"({self.game.error_message(self._errors[0])}); the rules are not "
                                   "a function of the seed and the actions")
        return state

    # ------------------------------------------------------------ records
    def record(self):
        """The game so far as a :class:`GameRecord`: a finished one when the
        game is over, else an unfinished one (``end.unfinished``)."""
        record = GameRecord(game=self.game.name, game_version=int(getattr(self.game, "version", 0)),
                            config=config_dict(self.config), reset_seed=self.seed, roles=list(self.roles),
                            agents=list(self.labels), actions=[(d.seat, d.action) for d in self.decisions])
        if self.finished:
            n = len(self.roles)
            outcome = outcome_of(self.state, n, self.spec.utility)
            return finish(record, self.state, self.state[0]["rewards"][:n], outcome.ranks)
        return leave_unfinished(record, self.state)

    def record_text(self):
        """:meth:`record` as the text of a record file."""
        return "\n".join(self.record().lines()) + "\n"

    def save(self, path):
        """Write the game so far to ``path`` as a record file holding this game
        alone. An existing file is replaced only if it is a game-record file
        (so a typo cannot overwrite anything else). Returns the absolute path;
        :class:`PlayError` saying why when it cannot be written."""
        path = os.path.abspath(os.path.expanduser(str(path)))
        problem = save_problem(path)
        if problem:
            raise PlayError(problem)
        folder = os.path.dirname(path)
        try:
            # written beside it, then renamed over it: an interrupted save leaves the old file whole
            fd, scratch = tempfile.mkstemp(prefix=".play-", suffix=".jsonl", dir=folder)
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(self.record_text())
            os.replace(scratch, path)
        except OSError as error:
            raise PlayError(f"cannot write {path}: {error.strerror}") from None
        return path


def save_problem(path):
    """``""`` if a game can be saved at ``path``, else why not: the folder is
    missing or read-only, or ``path`` is a folder or an existing file that is
    not a game record."""
    path = os.path.abspath(os.path.expanduser(str(path)))
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        return f"cannot save to {path}: the folder {folder} does not exist"
    if os.path.isdir(path):
        return f"cannot save to {path}: it is a folder"
    if not os.access(folder, os.W_OK):
        return f"cannot save to {path}: the folder {folder} is not writable"
    if os.path.exists(path) and os.path.getsize(path) > 0:
        try:
            read_records(path)
        except RecordError:
            return f"not saving over {path}: it exists and is not a game record"
    return ""


# ---------------------------------------------------------------- the terminal
COMMANDS = {
    "undo": "take back your last decision and the bots' replies to it",
    "save FILE": "write the game so far to FILE as a game record (`dragongym replay FILE` checks it)",
    "board": "show the board and your choices again",
    "log": "list the decisions so far",
    "help": "this help",
    "quit": "leave now (the game is saved only if you saved it, or gave --save)",
}
"""The terminal's commands (a command word wins over an action's name)."""


class TerminalPlay:
    """The terminal front end of a :class:`PlaySession`.

    Shows the text picture, whose turn it is and the legal actions numbered;
    reads a number, a name or the start of one, or a command (:data:`COMMANDS`),
    with readline completion of both where readline is available. At the end
    it shows the result and saves the game: to ``autosave`` if given, else to
    the file the person names when offered.

    Args:
        session: the :class:`PlaySession` to play.
        read: ``read(prompt) -> str`` (``input``; raises EOFError at the end of input).
        out: where to write (a text stream).
        autosave: a path the game is saved to when the session ends, or None.
    """

    PROMPT = "> "

    def __init__(self, session, read=input, out=None, autosave=None):
        self.session = session
        self.read = read
        self.out = out or sys.stdout
        self.autosave = autosave
        self._names = []

    def say(self, text=""):
        print(text, file=self.out, flush=True)

    def run(self):
        """Play until the game ends, a bot fails or the person quits; returns
        the exit status: 0 (ended or quit), 1 (a bot failed), 130 (interrupted)."""
        restore = self._install_completion()
        try:
            return self._loop()
        finally:
            if restore is not None:
                restore()

    def _loop(self):
        s = self.session
        bots = [f"{r}: {s.labels[k]}" for k, r in enumerate(s.roles) if k != s.seat]
        self.say("; ".join([f"{s.game.name} v{s.spec.version}: you are {s.roles[s.seat]} (seat {s.seat})"]
                           + bots + [f"seed {s.seed}. Type 'help' for the commands."]))
        self._show_moves(s.decisions)
        self.show()
        while s.live:
            try:
                line = self.read(self.PROMPT)
            except EOFError:
                self.say()
                return self._leave(0)
            except KeyboardInterrupt:
                self.say()
                return self._leave(130)
            try:
                if not self._handle(line.strip()):
                    return self._leave(0)
            except KeyboardInterrupt:
                self.say("\ninterrupted")
                s.resettle()
                return self._leave(130)
        self.say(s.text_picture().rstrip("\n"))           # the final position
        self.say(s.status_text())
        return self._leave(1 if s.failure is not None else 0, offer=True)

    def _handle(self, line):
        """Act on one line; False when the person quits."""
        s = self.session
        word, _, rest = line.partition(" ")
        command = word.lower()
        if command == "quit" and not rest:
            return False
        if command == "help" and not rest:
            self.say("Type an action's number, its name, or the start of its name (Tab completes).")
            for name, what in COMMANDS.items():
                self.say(f"  {name:<10} {what}")
        elif command == "board" and not rest:
            self.show()
        elif command == "log" and not rest:
            self.say("\n".join(s.log()) or "no decisions yet")
        elif command == "undo" and not rest:
            try:
                taken_back = s.undo()
            except PlayError as error:
                self.say(str(error))
                return True
            self.say(f"took back {len(taken_back)} decision(s), from yours: {taken_back[0].name}")
            self.show()
        elif command == "save":
            if not rest.strip():
                self.say("save needs a file name: save FILE")
                return True
            self._save(rest.strip())
        else:
            try:
                taken = s.choose_text(line)
            except ChoiceError as error:
                self.say(str(error))
                for a, name in error.candidates[:20]:
                    self.say(f"  {self._number_of(a)}) {name}")
                if len(error.candidates) > 20:
                    self.say(f"  ... and {len(error.candidates) - 20} more")
                return True
            self._show_moves(taken)
            if s.live:
                self.show()
        return True

    def _number_of(self, action):
        """The number the list shows for ``action`` (its place among the legal actions)."""
        return 1 + [a for a, _ in self.session.legal_actions()].index(action)

    def show(self):
        """The text picture, the status line and, on the person's turn, the numbered actions."""
        s = self.session
        self.say(s.text_picture().rstrip("\n"))
        self.say(s.status_text())
        legal = s.legal_actions()
        self._names = [name for _, name in legal]
        if legal:
            self.say(numbered_listing(self._names, shutil.get_terminal_size((100, 24)).columns))

    def _show_moves(self, decisions):
        for d in decisions:
            self.say(f"  {d.describe()}")

    def _save(self, path):
        try:
            where = self.session.save(path)
        except PlayError as error:
            self.say(str(error))
            return False
        self.say(f"saved {len(self.session.decisions)} decisions to {where}"
                 f"{'' if self.session.finished else ' (an unfinished game)'}")
        return True

    def _leave(self, status, offer=False):
        """Save at the end (``autosave``, or the file the person names when
        ``offer``), then return ``status``."""
        if self.autosave:
            self._save(self.autosave)
        elif offer and self.session.decisions:
            while True:
                try:
                    answer = self.read("Save the game? File name (Enter: don't save): ").strip()
                except (EOFError, KeyboardInterrupt):
                    self.say()
                    break
                if not answer or self._save(answer):
                    break
        return status

    # readline: complete action names and commands over the whole line
    # (names hold spaces, so the line is one word to complete)
    def _install_completion(self):
        try:
            import readline
        except ImportError:
            return None
        old_completer, old_delims = readline.get_completer(), readline.get_completer_delims()
        words = [c.split()[0] for c in COMMANDS]

        def complete(text, index):
            typed = " ".join(text.split()).lower()
            options = [w for w in self._names + words if w.lower().startswith(typed)]
            return options[index] if index < len(options) else None

        readline.set_completer(complete)
        readline.set_completer_delims("")
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")

        def restore():
            readline.set_completer(old_completer)
            readline.set_completer_delims(old_delims)
        return restore


def numbered_listing(names, width, long_list=40):
    """``names`` numbered from 1, in columns fitting ``width`` characters
    (:func:`numbered_columns`). A list longer than ``long_list`` whose names
    mostly differ only in their last word (``place at 0312``, ``deploy
    Lancers 4-2-7 (1) at 0101``: one choice on a map) is grouped: each
    shared start on a line of its own, then its numbered last words."""
    groups = []                           # [shared start, [(number, last word), ...]]
    for k, name in enumerate(names, start=1):
        head, _, last = name.rpartition(" ")
        if groups and head and groups[-1][0] == head:
            groups[-1][1].append((k, last))
        else:
            groups.append([head, [(k, last)]])
    if len(names) <= long_list or len(groups) > len(names) // 4:
        return numbered_columns(names, width)
    digits = len(str(len(names)))
    parts = []
    for head, members in groups:
        if len(members) == 1:
            k, last = members[0]
            parts.append(f"  {k:>{digits}}) {f'{head} ' if head else ''}{last}")
        else:
            parts.append(f"  {head} ...")
            parts.append(numbered_columns([last for _, last in members], width,
                                          numbers=[k for k, _ in members], digits=digits, indent=4))
    return "\n".join(parts)


def numbered_columns(names, width, numbers=None, digits=None, indent=2):
    """``names`` numbered (``" 3) choose kingdom Ironcrag"``; from 1 unless
    ``numbers`` gives each one's number), laid out down then across in as
    many columns as fit ``width`` characters, each line indented ``indent``."""
    numbers = list(numbers) if numbers is not None else list(range(1, len(names) + 1))
    digits = digits or len(str(max(numbers)))
    items = [f"{k:>{digits}}) {name}" for k, name in zip(numbers, names)]
    cell = max(len(x) for x in items) + 3
    columns = max(1, min(len(items), (width - indent + 3) // cell))
    rows = math.ceil(len(items) / columns)
    lines = []
    for r in range(rows):
        row = [items[c * rows + r] for c in range(columns) if c * rows + r < len(items)]
        lines.append("".join(x.ljust(cell) for x in row[:-1]) + row[-1])
    return "\n".join(" " * indent + line for line in lines)


# ---------------------------------------------------------------- the command line
def add_play_arguments(parser):
    """Declare the play command's arguments on ``parser`` (an argparse parser;
    the command line's ``GameOptionsParser`` lists the games' options in its
    help). The arguments it does not know are the game's own options, for
    :func:`dragongym.envs.core.options.parse_game_options`; sets
    ``run=run_play`` and ``game_options=True`` as the command line's
    subcommands do."""
    parser.add_argument("--game", default="dragonhunt",
                        help="the game (a registered id: %s; default: %%(default)s)"
                             % ", ".join(dragongym.list_games()))
    parser.add_argument("--seat", default="0",
                        help="your seat: its number (0 = the first) or its role name (default: 0)")
    parser.add_argument("--opponents", default=None, metavar="IDS",
                        help="comma-separated agent ids, one per other seat in seat order, or one id for "
                             "all; several ids set the player count where the game has one (default: the "
                             "game's heuristic bot, else random)")
    parser.add_argument("--seed", type=number_type(int, at_least=0, at_most=2**64 - 1), default=0,
                        help="the game's seed; the same seed and choices replay exactly (default: 0)")
    parser.add_argument("--web", action="store_true",
                        help="play in the browser: serve the game on 127.0.0.1 and print its address")
    parser.add_argument("--port", type=number_type(int, at_least=0, at_most=65535), default=None,
                        help="with --web, the port to serve on (default: a free one)")
    parser.add_argument("--save", default=None, metavar="FILE",
                        help="save the game to FILE (a game record) when the session ends")
    parser.set_defaults(run=run_play, game_options=True)
    return parser


def _fail(message):
    print(f"dragongym play: error: {message}", file=sys.stderr)
    return 2


def run_play(args, options=None):
    """Run a play session from the arguments of :func:`add_play_arguments`;
    ``options`` are the game's options (the ``{name: value}`` of the tokens
    the parser did not know). Returns the exit status: 0, 1 when a bot failed,
    2 for bad arguments (a one-line error on stderr)."""
    # the seat count is settled for every command the same way
    from dragongym.envs.core.config import seated_options

    try:
        game = dragongym.get_game(args.game)
    except (ValueError, ImportError, AttributeError) as error:
        return _fail(str(error))
    if args.opponents is not None:
        opponents = split_agent_list(args.opponents)
        if not all(opponents):
            return _fail(f"--opponents {args.opponents!r} has an empty agent id")
    else:
        opponents = [game.heuristic_agent or "random"]
    # several opponents are a lineup: the person and them, where the player count is an option
    options, spec = seated_options(game, None, 1 + len(opponents) if len(opponents) > 1 else 0,
                                    options or {})
    if spec is None:
        return _fail(options)
    if spec.num_seats == 1 and args.opponents is None:
        opponents = []
    if args.port is not None and not args.web:
        return _fail("--port is for --web")
    if args.save:
        problem = save_problem(args.save)
        if problem:
            return _fail(f"--save: {problem}")
    try:
        session = PlaySession(game, options, seat=args.seat, opponents=opponents, seed=args.seed)
    except (PlayError, ValueError, OSError, ImportError) as error:   # a checkpoint that will not load too
        return _fail(str(error))
    if args.web:
        from dragongym.agents.play_web import serve
        return serve(session, port=args.port or 0, autosave=args.save)
    return TerminalPlay(session, autosave=args.save).run()
