"""Self-play at the speed of the vector API: B games stepped together.

:class:`BatchedLeagueEnv` is a Stable-Baselines3 ``VecEnv`` of ``B`` games of
one configuration, played in lockstep through ``dragongym.make_vec``. In each
game one seat is the learner's (drawn anew every episode, so every seat is
learned); every other seat is played by the episode's opponent, drawn from the
league's weights (:class:`dragongym.training.league.League`): a frozen snapshot
of the learner, the random bot or the game's heuristic.

One ``step(actions)`` takes the learner's decision in every game (each game
waits at the learner's turn), then plays the opponents until every game waits
at the learner's turn again: each round asks every opponent at once for all
the games where one of its seats is to move -- the random bot by one compiled
draw over the masks, each snapshot by one batched forward pass of its network,
the heuristic through its own batched call -- and steps all those games in
one vector step (the others get action -1: untouched). No Python loop runs
over games on this path except inside a heuristic bot that has no batched
form; that loop can run in worker processes of its own
(``heuristic_workers``), each playing its share of the games while the
others play theirs.

What the learner is paid, the episode ends and the league's bookkeeping are
those of :class:`dragongym.training.league.LeagueEnv`, row by row: the game's
rewards for the learner's seat (or its rank or score, ``reward``) with
potential-based shaping, ``terminal_observation`` (the learner's view of the
final position) and ``info["league"]`` (opponent, result, rank, score) when an
episode ends. Masks reach ``MaskablePPO`` through :meth:`action_masks`.

A curriculum (``start_positions``, ``start_share``): a share of the episodes
starts from a position of recorded games (:func:`recorded_positions`, e.g.
the heuristic's self-play) instead of the opening, so that a learner whose
random games rarely end meets positions near an end. The rules are not
changed: a started position is a real position of the game, its future dice
drawn anew (the RNG stream is reseeded, as nothing could foresee them).
"""
import multiprocessing
import os
import sys
import traceback
import warnings
from dataclasses import dataclass

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv

import dragongym
from dragongym.agents.base import Agent, DuckAgent, is_agent_id, make_agent
from dragongym.envs.core.game import IllegalActionError, InvalidStateError
from dragongym.envs.core.outcome import outcome_of, rank_rewards
from dragongym.envs.core.sampling import sample_legal
from dragongym.training.league import HEURISTIC, REWARD_KINDS, SOLO, opponent_label
from dragongym.training.shaping import batch_potential_for

MAX_OPPONENT_ROUNDS = 100_000
"""Opponent rounds one ``step`` may take, beyond twice the game's decision
limit, before it is judged stuck (a game that never returns to the learner's
seat is a defect, not a long game). The decision limit comes first: the
vector env ends a game that reaches it, so a stretch of opponent decisions
up to the limit, and a fresh game's opening after it, are a game's right."""

HEURISTIC_STREAM = 7
"""Tag of the heuristic bots' random streams: game row ``b``'s bot draws
from ``default_rng([seed, HEURISTIC_STREAM, b])``, apart from every other
stream seeded from the same seed."""

WORKER_CHECK_SECONDS = 1.0
"""How often a wait on a heuristic worker checks that the worker is alive
(the trainer's side), or that the trainer is (the worker's side): a dead
process is an error, not a hang; a slow bot is only slow."""


@dataclass
class EpisodeEnd:
    """What :class:`BatchedLeagueEnv` reports of one finished episode."""

    opponent: str
    result: str
    rank: int
    score: float
    truncated: bool
    game_return: float


def recorded_positions(path, game_name, options=None, every=1, after=0.0, progress=False):
    """The running positions of every game in the game-record file ``path``
    (``agents/game_record.py``), every ``every``-th decision of each, as one
    structured array of state records; with ``after`` in ``0..1``, only those
    of the last ``1 - after`` of each game (``after=0.5``: its second half,
    nearer its end). Each record must be of ``game_name`` in the
    configuration ``options`` (a :class:`ValueError` names the first that is
    not) and replay exactly (``RecordError`` otherwise). With ``progress``,
    returns ``(states, progress)``: ``progress[k]`` is how far into its game
    position ``k`` lies (its decision number over the game's decisions,
    ``0..1``), what an annealed curriculum selects by
    (:meth:`BatchedLeagueEnv.curriculum_from`)."""
    if not 0.0 <= float(after) < 1.0:
        raise ValueError(f"after must be in 0..1 (1 excluded), got {after!r}")
    from dragongym.agents.game_record import config_dict, read_records, replay_steps

    game = dragongym.get_game(game_name)
    want = config_dict(game.make_config(**dict(options or {})))
    out, where = [], []
    for k, record in enumerate(read_records(path)):
        if record.game != game_name or config_dict(game.config_from_json(record.config)) != want:
            raise ValueError(f"{path}, game {k}: a {record.game} game with options {record.config}, not "
                             f"{game_name} with {want}: a curriculum starts from positions of the game trained")
        first = int(after * len(record.actions))
        for step, state, seat, _ in replay_steps(record, game):
            if seat is not None and step % every == 0 and step >= first:
                out.append(state.copy())
                where.append(step / len(record.actions))
    if not out:
        raise ValueError(f"{path}: no position to start from")
    if progress:
        return np.concatenate(out), np.asarray(where, dtype=np.float64)
    return np.concatenate(out)


def new_heuristic(game, seed, row, agent_id=None):
    """A fresh heuristic bot of ``game`` for game row ``row`` (or, with
    ``agent_id``, a fresh agent of that spec, the frozen opponent that takes
    the heuristic's slot), and the generator it draws from:
    ``default_rng([seed, HEURISTIC_STREAM, row])``.
    Both last as long as the row: the bot is reset between episodes
    (``Agent.reset``), its generator goes on with its stream, so that no two
    episodes of a row repeat its draws. A stream of its own per row makes a
    row's draws independent of which other rows the heuristic plays, in
    which order and in which process."""
    return (make_agent(agent_id or game.heuristic_agent, game=game),
            np.random.default_rng([seed, HEURISTIC_STREAM, row]))


def answers_batches(agent):
    """True if ``agent`` reads observations (not the state) and answers a
    batch in one call of its own (it overrides :meth:`Agent.act_batch`, as a
    checkpoint's ``PolicyAgent`` does), rather than :class:`Agent`'s
    row-by-row default."""
    if agent.uses_state:
        return False
    if isinstance(agent, DuckAgent):
        return callable(getattr(agent.wrapped, "act_batch", None))
    return type(agent).act_batch is not Agent.act_batch


class Opponents:
    """The league's opponents, each answering a batch of games at once.

    ``random`` draws one legal action per game with the compiled sampler; a
    snapshot ``self:<id>`` is the learner's network with that snapshot's
    weights, one forward pass for all its games. The game's ``heuristic``
    answers through its ``act_state_batch`` where it has one, else game by
    game, each game row with its own instance of the bot (the Dragonhunt
    heuristic remembers the cells it tried to move from in a segment: one
    instance for all games would mix their memories) and its own generator
    (:func:`new_heuristic`).

    With ``opponent``, an agent spec (``"mcts:simulations=16"``, a
    checkpoint path, ``package.module:factory``), that agent takes the
    heuristic's slot instead, under the name :func:`opponent_label` gives
    it: one instance per game row as the heuristic (``act_state`` for
    agents that read the state, ``act_state_batch`` where it has one), or
    one instance for all rows, answering them in one ``act_batch``, where it
    reads observations and overrides ``act_batch`` (a checkpoint's policy;
    such an agent must keep no memory between moves).

    Args:
        game: the :class:`dragongym.envs.core.game.Game` played.
        make_policy: ``() -> policy``, an untrained copy of the learner's
            network for the snapshots.
        seed: seeds the random bot's and the snapshots' draws (one shared
            generator) and each heuristic bot's generator.
        heuristic_workers: 0 plays the game-by-game heuristic in this
            process; N >= 1 plays it in N worker processes, game row ``b`` in
            worker ``b % N``, which keeps that row's bot and generator. The
            same seed gives the same actions either way. The workers find
            the game by its registry id ``game.name`` (with the "spawn" start
            method, where "fork" is missing, the game must be registered on
            import, as the built-in games are). Unused where the heuristic is
            missing or batched. :meth:`close` stops them.
        opponent: an agent spec that plays the heuristic's slot (above);
            None or "": the game's heuristic.
    """

    def __init__(self, game, make_policy, seed, heuristic_workers=0, opponent=None):
        if heuristic_workers < 0:
            raise ValueError(f"heuristic_workers must be >= 0, got {heuristic_workers}")
        self.game = game
        self._make_policy = make_policy
        self._seed = seed
        self._rng = np.random.default_rng(seed)
        self.opponent = opponent or None
        """The agent spec in the heuristic's slot (None: the game's heuristic)."""
        self.heuristic_name = opponent_label(opponent) if opponent else HEURISTIC
        """The name the heuristic's slot is drawn, logged and recorded under."""
        self.heuristic = None
        if self.opponent:
            self.heuristic = make_agent(self.opponent, game=game)
        elif game.heuristic_agent and is_agent_id(game.heuristic_agent):
            self.heuristic = make_agent(game.heuristic_agent, game=game)
        self._batched = self.heuristic is not None and answers_batches(self.heuristic)
        self._heuristic_of_game = {}      # game row -> its own heuristic (bots keep memory within a game)
        self._heuristic_rng = {}          # game row -> the generator its heuristic draws from
        self._snapshots = {}
        self._retired = set()             # dropped from the league, still playing running games
        self._agents = {}
        self.workers = []
        """The heuristic's worker processes (``multiprocessing.Process``), worker ``k`` playing rows ``b % N == k``."""
        self._pipes = []
        self._resets_due = []             # per worker: its rows whose bots forget their game before the next move
        if (heuristic_workers and self.heuristic is not None and not self._batched
                and not hasattr(self.heuristic, "act_state_batch")):
            self._start_workers(int(heuristic_workers))

    @property
    def names(self):
        """The opponents that can be drawn now."""
        fixed = ["random"] + ([self.heuristic_name] if self.heuristic is not None else [])
        return fixed + [f"self:{sid}" for sid in sorted(self._snapshots) if sid not in self._retired]

    def update(self, new_snapshots=None, dropped=()):
        """Take new snapshots (``{id: state_dict}``); ``dropped`` ones are no
        longer drawn, but keep playing the games that drew them until
        :meth:`forget_unused` finds no game using them."""
        for sid in dropped:
            if int(sid) in self._snapshots:
                self._retired.add(int(sid))
        for sid, weights in (new_snapshots or {}).items():
            self._snapshots[int(sid)] = weights
            self._retired.discard(int(sid))
            self._agents.pop(int(sid), None)

    def forget_unused(self, in_use):
        """Forget the dropped snapshots no game plays any more (``in_use``: the
        opponent names of the running episodes)."""
        for sid in [sid for sid in self._retired if f"self:{sid}" not in in_use]:
            self._retired.discard(sid)
            self._snapshots.pop(sid, None)
            self._agents.pop(sid, None)

    def _snapshot_agent(self, sid):
        agent = self._agents.get(sid)
        if agent is None:
            from dragongym.training.policy import PolicyAgent

            net = self._make_policy()
            net.load_state_dict(self._snapshots[sid])
            agent = self._agents[sid] = PolicyAgent(net, deterministic=False, name=f"self:{sid}")
        return agent

    def new_episodes(self, rows):
        """Games ``rows`` start anew: their bots forget what they remembered of
        the last one (``Agent.reset``), as between the games of a match. A
        worker's bots are reset with its next request, before any move."""
        rows = np.asarray(rows).tolist()
        if self.workers:
            for b in rows:
                self._resets_due[b % len(self.workers)].add(b)
            return
        for b in rows:
            agent = self._heuristic_of_game.get(b)
            if agent is not None:
                agent.reset()

    def act(self, name, venv, rows):
        """The actions (int ``[len(rows)]``) of opponent ``name`` in the games
        ``rows`` of ``venv`` (a ``VecGameEnv``), for the seat to play in each."""
        if name == "random":
            out = np.zeros(len(rows), dtype=np.int32)
            sample_legal(venv.masks[rows], venv.counts[rows], self._rng.random(len(rows)), out)
            return out
        if name == self.heuristic_name:
            if self._batched:
                return self.heuristic.act_batch(venv.obs[rows], venv.masks[rows], self._rng)
            if self.workers:
                return self._heuristic_in_workers(venv, rows)
            return self._heuristic(venv, rows)
        if not name.startswith("self:"):
            raise ValueError(f"unknown opponent {name!r}; known: {self.names}")
        agent = self._snapshot_agent(int(name[5:]))
        return agent.act_batch(venv.obs[rows], venv.masks[rows], self._rng)

    def _heuristic(self, venv, rows):
        agent = self.heuristic
        batch = getattr(agent, "act_state_batch", None)
        if batch is not None:
            return batch(self.game, venv.states, rows, venv.to_play[rows], self._rng)
        out = np.zeros(len(rows), dtype=np.int64)
        states, to_play = venv.states, venv.to_play
        for k, b in enumerate(rows.tolist()):
            agent = self._heuristic_of_game.get(b)
            if agent is None:
                agent, self._heuristic_rng[b] = new_heuristic(self.game, self._seed, b, self.opponent)
                self._heuristic_of_game[b] = agent
            rng = self._heuristic_rng[b]
            if agent.uses_state:
                out[k] = agent.act_state(self.game, states[b:b + 1], int(to_play[b]), rng)
            else:
                out[k] = agent.act(venv.obs[b], venv.masks[b], rng)
        return out

    # ------------------------------------------------------------ heuristic workers
    def _start_workers(self, n):
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        for k in range(n):
            pipe, worker_end = context.Pipe()
            process = context.Process(target=_heuristic_worker,
                                      args=(worker_end, self.game.name, self._seed, self.opponent),
                                      name=f"{self.game.name} heuristic {k}", daemon=True)
            process.start()
            worker_end.close()       # the worker's copy alone: its end closes when it dies
            self.workers.append(process)
            self._pipes.append(pipe)
            self._resets_due.append(set())

    def in_workers(self, name):
        """True if opponent ``name`` plays in the heuristic's worker processes
        (then :meth:`ask` and :meth:`answers` may split its :meth:`act`)."""
        return bool(self.workers) and name == self.heuristic_name and not self._batched

    def ask(self, name, venv, rows):
        """Send the positions of games ``rows`` to the workers of opponent
        ``name`` (:meth:`in_workers`) and return at once, so that this process
        may answer other games meanwhile; :meth:`answers` of the returned
        request waits for the actions. The positions are copied into the
        requests: ``venv`` may be read, not stepped, in between."""
        if not self.in_workers(name):
            raise ValueError(f"opponent {name!r} does not play in worker processes")
        return rows, self._ask_workers(venv, rows)

    def answers(self, request):
        """The actions (int ``[len(rows)]``) of a request of :meth:`ask`."""
        rows, asked = request
        return self._workers_answer(rows, asked)

    def _heuristic_in_workers(self, venv, rows):
        """The heuristic's actions in games ``rows``, each worker playing its
        own rows while the others play theirs."""
        return self._workers_answer(rows, self._ask_workers(venv, rows))

    def _ask_workers(self, venv, rows):
        """Send each worker its games among ``rows``; returns ``[(worker,
        positions in rows of its games)]``."""
        if not self._pipes:
            raise RuntimeError(f"{self.game.name}: the heuristic's workers were stopped (Opponents.close)")
        n = len(self.workers)
        asked = []                  # (worker, positions in rows of its games)
        for k in range(n):
            at = np.flatnonzero(rows % n == k)
            if len(at) == 0:
                continue            # its due resets go with a later request, before its next move
            mine = rows[at]
            request = (sorted(self._resets_due[k]), mine.tolist(), venv.states[mine], venv.to_play[mine].tolist())
            try:
                self._pipes[k].send(request)
            except OSError:
                raise self._dead(k) from None
            self._resets_due[k].clear()
            asked.append((k, at))
        return asked

    def _workers_answer(self, rows, asked):
        """The workers' replies to :meth:`_ask_workers`, as actions ``[len(rows)]``."""
        out = np.zeros(len(rows), dtype=np.int64)
        failed = None
        # every reply is read, even after a failure, so that none is left over for the next request
        for k, at in asked:
            reply = self._receive(k)
            if reply[0] == "actions":
                out[at] = reply[1]
            elif failed is None:
                failed = reply
        if failed is not None:
            _, b, seat, error = failed
            raise RuntimeError(f"{self.game.name} heuristic of game row {b} (seat {seat}) failed in its worker "
                               f"process:\n{error}")
        return out

    def _receive(self, k):
        """Worker ``k``'s reply to its last request."""
        pipe, process = self._pipes[k], self.workers[k]
        while not pipe.poll(WORKER_CHECK_SECONDS):
            if not process.is_alive():
                raise self._dead(k)
        try:
            return pipe.recv()
        except EOFError:
            raise self._dead(k) from None

    def _dead(self, k):
        """The error of worker ``k`` found dead (killed, or failed outside a bot's move)."""
        n, process = len(self.workers), self.workers[k]
        process.join(WORKER_CHECK_SECONDS)
        return RuntimeError(f"{self.game.name} heuristic worker {k} (pid {process.pid}, game rows b % {n} == {k}) "
                            f"died (exit code {process.exitcode}); what it raised, if anything, is on stderr")

    def close(self):
        """Stop the heuristic's workers (the bots' memories go with them); the
        heuristic plays no more after it. ``workers`` keeps the stopped processes."""
        for pipe in self._pipes:
            try:
                pipe.send(None)
            except OSError:
                pass                # already dead
        for process in self.workers:
            process.join(5 * WORKER_CHECK_SECONDS)
            if process.is_alive():
                process.terminate()
                process.join()
        for pipe in self._pipes:
            pipe.close()
        self._pipes = []


def _heuristic_worker(pipe, game_name, seed, agent_id=None):
    """A heuristic worker's loop: the bots of the game rows it owns
    (:func:`new_heuristic`; of spec ``agent_id`` where given), made on their
    first move and kept.

    Each request is ``(resets, rows, states, seats)``: first the bots of rows
    ``resets`` forget their game, then the bot of ``rows[k]`` plays seat
    ``seats[k]`` in the state record ``states[k]``. The reply is
    ``("actions", int64[len(rows)])``, or ``("error", row, seat, traceback)``
    for the first bot that raised. ``None`` ends the loop; so does the
    trainer's death (the worker's parent changes)."""
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)     # never compete with the trainer's threads
    trainer = os.getppid()
    game = dragongym.get_game(game_name)
    bots = {}                   # game row -> (its heuristic, its generator)
    while True:
        while not pipe.poll(WORKER_CHECK_SECONDS):
            if os.getppid() != trainer:
                return
        request = pipe.recv()
        if request is None:
            return
        resets, rows, states, seats = request
        for b in resets:
            if b in bots:
                bots[b][0].reset()
        out = np.zeros(len(rows), dtype=np.int64)
        reply = None
        for k, b in enumerate(rows):
            try:
                if b not in bots:
                    bots[b] = new_heuristic(game, seed, b, agent_id)
                bot, rng = bots[b]
                # a bot that does not read the state plays Agent.act on the record's observation and mask
                # (act_state's default): the same it is handed in the trainer's process
                out[k] = bot.act_state(game, states[k:k + 1], seats[k], rng)
            except Exception:
                reply = ("error", b, seats[k], traceback.format_exc())
                break
        pipe.send(reply or ("actions", out))


class BatchedLeagueEnv(VecEnv):
    """``num_envs`` league games in lockstep as one SB3 ``VecEnv`` (module doc).

    Args:
        game_name: registered game id.
        num_envs: games played together (the learner's batch).
        options: the game's options (``game.make_config(**options)``).
        make_policy: ``() -> policy``, an untrained copy of the learner's
            network for the snapshots (called once per snapshot).
        weights: the league's first sampling weights (``{name: weight}``).
        seed: seeds the games (``make_vec``), the seat and opponent draws.
        gamma, shaping: the shaping term (``dragongym.training.shaping``).
        reward: what the learner is paid, one of ``league.REWARD_KINDS``.
        num_threads: threads of the vector API's step.
        start_positions: state records (:func:`recorded_positions`) a share
            of the episodes starts from; None: every episode from the opening.
        start_share: that share, in ``0..1``.
        start_progress: how far into its recorded game each start position
            lies (``recorded_positions(..., progress=True)``); needed by
            :meth:`curriculum_from`, the annealed curriculum.
        heuristic_workers: worker processes of the game's heuristic
            (:class:`Opponents`; 0: it plays in this process).
        opponent: an agent spec that takes the heuristic's slot, under the
            name :func:`dragongym.training.league.opponent_label` gives it
            (:class:`Opponents`); None: the game's heuristic.
    """

    def __init__(self, game_name, num_envs, options=None, make_policy=None, weights=None, seed=0,
                 gamma=0.99, shaping=0.0, reward="game", num_threads=1, start_positions=None,
                 start_share=0.0, heuristic_workers=0, start_progress=None, opponent=None):
        from gymnasium import spaces

        self.render_mode = None          # SB3's VecEnv asks; the games draw through their own envs
        if reward not in REWARD_KINDS:
            raise ValueError(f"reward must be one of {REWARD_KINDS}, not {reward!r}")
        self.game = game = dragongym.get_game(game_name)
        self.venv = dragongym.make_vec(game_name, num_envs, seed=seed, num_threads=num_threads,
                                       **dict(options or {}))
        spec = self.game_spec = self.venv.spec
        low, high = game.obs_bounds
        super().__init__(num_envs, spaces.Box(low, high, (spec.obs_size,), np.float32),
                         spaces.Discrete(spec.num_actions))
        self.num_seats = spec.num_seats
        self.solo = self.num_seats == 1
        self.opponents = Opponents(game, make_policy, seed + 1, heuristic_workers, opponent)
        self._rng = np.random.default_rng([seed, 2])
        self._weights = {}
        self.set_weights(weights or {"random": 1.0})
        self.potential = batch_potential_for(game) if shaping else None
        self.gamma, self.shaping, self.reward_kind = float(gamma), float(shaping), reward
        B = num_envs
        self.seat = np.zeros(B, dtype=np.int8)
        self.opponent = np.zeros(B, dtype=np.int32)        # index into self._names
        self._names = []
        self._phi = np.zeros(B, dtype=np.float64)
        self._returns = np.zeros(B, dtype=np.float64)       # the game's rewards this episode
        self._actions = None
        if not 0.0 <= float(start_share) <= 1.0:
            raise ValueError(f"start_share must be in 0..1, got {start_share!r}")
        if start_share and (start_positions is None or len(start_positions) == 0):
            raise ValueError("start_share needs start_positions (recorded_positions) to start from")
        self.start_positions = start_positions
        self.start_share = float(start_share)
        if start_progress is not None:
            start_progress = np.asarray(start_progress, dtype=np.float64)
            if start_positions is None or start_progress.shape != (len(start_positions),):
                raise ValueError("start_progress needs one value per start position")
        self.start_progress = start_progress
        self._eligible = None if start_positions is None else np.arange(len(start_positions))
        self.curriculum_after = 0.0
        """Where the start positions now begin in their games (``curriculum_from``)."""
        self.started_from_records = 0
        """Episodes that began at a recorded position."""
        self.refused_start_positions = {}
        """``{index in start_positions: why}``: the recorded positions the
        env's soundness check refused when drawn. Each is warned about once
        and never drawn again; its episode starts from the opening."""
        self.opponent_decisions = 0
        """Decisions the opponents took (all games, since construction)."""
        self.learner_decisions = 0

    # ------------------------------------------------------------ the league
    def set_weights(self, weights, new_snapshots=None, dropped=()):
        """New sampling weights (and snapshots) from the league; they apply
        from each game's next episode on."""
        self.opponents.update(new_snapshots, dropped)
        usable = {k: float(v) for k, v in weights.items() if k in self.opponents.names and v > 0}
        total = sum(usable.values())
        if total <= 0:
            raise ValueError(f"no usable opponent in the league weights {weights}; "
                             f"known now: {self.opponents.names}")
        self._weights = {k: v / total for k, v in sorted(usable.items())}

    league_update = set_weights
    """The message the self-play callback sends every env (``env_method``)."""

    def _draw(self, rows):
        """New seats and opponents for the games ``rows`` (a new episode each)."""
        if len(rows) == 0:
            return
        self.seat[rows] = self._rng.integers(0, self.num_seats, len(rows))
        names = list(self._weights)
        picks = self._rng.choice(len(names), size=len(rows), p=list(self._weights.values()))
        for k, b in zip(picks.tolist(), rows.tolist()):
            name = names[k]
            if name not in self._names:
                self._names.append(name)
            self.opponent[b] = self._names.index(name)
        self._returns[rows] = 0.0
        self.opponents.new_episodes(rows)
        self.opponents.forget_unused({self._names[k] for k in np.unique(self.opponent).tolist()})
        if self.start_share:
            self._start_from_records(rows)

    def curriculum_from(self, after):
        """From the next episodes on, start only from the positions at least
        ``after`` (``0..1``) of the way into their recorded games -- the
        latest positions if none lies that far. Lowering it step by step from
        near 1 to 0 is a reverse curriculum: the learner first meets the
        positions nearest the games' ends, then ever earlier ones."""
        if self.start_progress is None:
            raise ValueError("curriculum_from needs start_progress (recorded_positions(..., progress=True))")
        after = float(after)
        if not 0.0 <= after <= 1.0:
            raise ValueError(f"curriculum_from: after must be in 0..1, got {after!r}")
        self.curriculum_after = after
        eligible = np.flatnonzero(self.start_progress >= min(after, float(self.start_progress.max())))
        self._eligible = np.setdiff1d(eligible, list(self.refused_start_positions), assume_unique=True)

    def _start_from_records(self, rows):
        """Put a recorded position, reseeded, into each of ``rows`` with
        probability ``start_share``."""
        picked = rows[self._rng.random(len(rows)) < self.start_share]
        for b in picked.tolist():
            if len(self._eligible) == 0:      # every one refused: from the opening, as the row is
                break
            k = int(self._eligible[int(self._rng.integers(len(self._eligible)))])
            start = self.start_positions[k:k + 1].copy()
            start["seed"] = np.uint64(int(self._rng.integers(0, 2**63)))
            start["rng_counter"] = 0
            try:
                self.venv.restore_game(b, start)
            except InvalidStateError as exc:
                # One unsound position (a record of a rules defect) must not stop
                # a run hours in: it is said, left out, and this episode starts
                # from the opening (a refused restore leaves the row as it was).
                self._refuse_start(k, exc)
                continue
            self.started_from_records += 1

    def _refuse_start(self, k, exc):
        self.refused_start_positions[k] = str(exc)
        if len(self.refused_start_positions) == len(self.start_positions):
            raise InvalidStateError(f"every one of the {len(self.start_positions)} curriculum start "
                                    f"positions was refused; the last: {exc}") from exc
        self._eligible = self._eligible[self._eligible != k]
        warnings.warn(f"curriculum start position {k} refused and left out "
                      f"({len(self.refused_start_positions)} so far; the episode starts from the "
                      f"opening): {exc}", RuntimeWarning, stacklevel=3)

    # ------------------------------------------------------------ VecEnv
    def reset(self):
        B = self.num_envs
        self.venv.reset()
        self._draw(np.arange(B))
        self._play_opponents(np.zeros(B), np.zeros(B, dtype=bool), [None] * B)
        self._phi[:] = self._potentials(np.arange(B))
        return self.venv.obs.copy()

    def step_async(self, actions):
        self._actions = np.asarray(actions)

    def step_wait(self):
        B = self.num_envs
        rows = np.arange(B)
        rewards = np.zeros(B, dtype=np.float64)     # the game's rewards for the learner's seat
        ended = np.zeros(B, dtype=bool)             # the learner's episode ended in this step
        ends = [None] * B
        actions = self._actions.astype(np.int64, copy=False)
        _, _, step_rewards, _, _, _, info = self._step_games(
            actions, lambda b: f"the learner (seat {int(self.seat[b])})")
        self.learner_decisions += B
        rewards += step_rewards[rows, self.seat]
        self._finish(info, rewards, ended, ends)
        self._play_opponents(rewards, ended, ends)
        phi_next = self._potentials(rows)
        # rank and score are paid at the end only; a final position's potential is 0
        paid = rewards if self.reward_kind == "game" else np.zeros(B)
        infos = [{} for _ in range(B)]
        for b in np.flatnonzero(ended).tolist():
            infos[b], paid[b] = ends[b]
        self._returns += np.where(ended, 0.0, rewards)
        out = (paid + self.shaping * (self.gamma * np.where(ended, 0.0, phi_next) - self._phi)).astype(np.float32)
        self._phi[:] = phi_next
        return self.venv.obs.copy(), out, ended.copy(), infos

    def action_masks(self):
        """The legal mask of the learner's decision in every game (bool ``[B, A]``)."""
        return self.venv.masks != 0

    def close(self):
        self.venv.close()
        self.opponents.close()

    def get_attr(self, attr_name, indices=None):
        return [getattr(self, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name, value, indices=None):
        setattr(self, attr_name, value)

    def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._indices(indices)]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in self._indices(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False for _ in self._indices(indices)]

    def _indices(self, indices):
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else indices

    # ------------------------------------------------------------ inside a step
    def _play_opponents(self, rewards, ended, ends):
        """Step the opponents' decisions until every game waits at its
        learner's seat. Their moves' rewards for the learner's seat are added
        to ``rewards`` until its episode ends (``ended``; ``ends`` gets what
        the episode's end reports)."""
        venv = self.venv
        B = self.num_envs
        actions = np.full(B, -1, dtype=np.int64)
        rows_all = np.arange(B)
        most_rounds = MAX_OPPONENT_ROUNDS + 2 * (self.game_spec.decision_limit or 0)
        for _ in range(most_rounds):
            waiting = venv.to_play != self.seat
            if not waiting.any():
                return
            actions[:] = -1
            asked = []              # the heuristic's workers play while this process answers for the others
            for k in np.unique(self.opponent[waiting]).tolist():
                rows = np.flatnonzero(waiting & (self.opponent == k))
                if self.opponents.in_workers(self._names[k]):
                    asked.append(self.opponents.ask(self._names[k], venv, rows))
            for k in np.unique(self.opponent[waiting]).tolist():
                rows = np.flatnonzero(waiting & (self.opponent == k))
                if not self.opponents.in_workers(self._names[k]):
                    actions[rows] = self.opponents.act(self._names[k], venv, rows)
            for request in asked:
                actions[request[0]] = self.opponents.answers(request)
            self.opponent_decisions += int(waiting.sum())
            _, _, step_rewards, _, _, _, info = self._step_games(
                actions, lambda b: f"opponent {self._names[int(self.opponent[b])]} (seat {int(venv.to_play[b])})")
            rewards += np.where(ended, 0.0, step_rewards[rows_all, self.seat])
            self._finish(info, rewards, ended, ends)
        stuck = np.flatnonzero(venv.to_play != self.seat)[:4].tolist()
        if not stuck:               # the last round handed every game back
            return
        raise RuntimeError(f"{self.game_spec.name}: games still wait for the opponents after "
                           f"{most_rounds} rounds (a cycle of decisions the rules allow "
                           f"without end?): " + "; ".join(
                               f"game {b}, opponent {self._names[int(self.opponent[b])]}, seat "
                               f"{int(venv.to_play[b])} to play" for b in stuck))

    def _step_games(self, actions, chosen_by):
        """``venv.step(actions)``; an action the vector API refuses is re-raised
        naming who chose it (``chosen_by(row)``), and whether that game's seat
        to move had no legal action at all (a defect of the game, not of the
        chooser). No game is stepped then."""
        try:
            return self.venv.step(actions)
        except IllegalActionError as error:
            b = getattr(error, "game_index", None)
            if b is None:
                raise
            empty = (" -- its seat to move has no legal action at all: a defect of the game's position"
                     if self.venv.counts[b] == 0 else "")
            raise IllegalActionError(f"{error} (chosen by {chosen_by(b)}){empty}") from error

    def _finish(self, info, rewards, ended, ends):
        """Note the learner's episodes that ended in the last vector step
        (``ends[b]`` = ``(info, outcome reward)``) and draw the seat and
        opponent of each game's next episode (the vector API has already
        reset those games). A fresh game that ends again before its learner
        decides pays nothing: the learner took no decision in it."""
        if "done_index" not in info:
            return
        final, final_obs = info["final_state"], info["final_obs"]
        idx = info["done_index"]
        for k, b in enumerate(idx.tolist()):
            if not ended[b]:
                seat = int(self.seat[b])
                outcome = outcome_of(final[k:k + 1], self.num_seats, self.game_spec.utility)
                if self.reward_kind == "rank":
                    paid = float(rank_rewards(outcome.ranks, outcome.utility)[seat])
                elif self.reward_kind == "score":
                    paid = float(outcome.scores[seat])
                else:
                    paid = float(rewards[b])
                end = EpisodeEnd(SOLO if self.solo else self._names[int(self.opponent[b])],
                                 outcome.results[seat], int(outcome.ranks[seat]), float(outcome.scores[seat]),
                                 bool(outcome.truncated), float(self._returns[b] + rewards[b]))
                ends[b] = ({"league": dict(end.__dict__), "TimeLimit.truncated": bool(outcome.truncated),
                            "terminal_observation": final_obs[k, seat].copy()}, paid)
                ended[b] = True
            self._draw(np.array([b]))

    def _potentials(self, rows):
        if not self.shaping:
            return np.zeros(len(rows))
        return self.potential(self.venv.states[rows], self.seat[rows])
