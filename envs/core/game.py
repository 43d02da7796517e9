"""The contract between a game's rules core and the generic adapters.

A game is a :class:`Game` object. Its state is one numpy structured record per
game; a batch is a structured array of shape ``(B,)``. Every game's dtype
carries these common fields, which the adapters read directly:

    seed         uint64   per-game seed of the counter-based RNG
    rng_counter  uint64   draws taken so far
    rewards      float32[max_seats]  final rewards (0 until the game ends)
    score        float32[max_seats]  the game's own score per seat at the end
                          (legend points; 0 where the game has none)
    num_players  int8     seats in play
    to_play      int8     the one seat that must decide now (-1 once over)
    status       int8     0 running, 1 terminated, 2 truncated
    rank         int8[max_seats]  outcome: 1 = best, tied seats share a rank
                          (0 while the game runs); see ``envs.core.outcome``

Batched methods take whole arrays and write into preallocated outputs; each
``b`` is independent of every other (same bytes alone or in any batch).

A configuration (the game's ``config_cls`` dataclass, made by
:meth:`Game.make_config`) decides the seats; :meth:`Game.spec_for` describes
it. Everything generic (adapters, matches, tournaments, trainers, benchmarks)
reads seats, spaces and limits from that spec, and finds what is specific to a
game (its heuristic agent, shaping potential, truncation option, benchmark
settings, pictures) through the hooks below, never by naming the game.
"""
# jitcache: no compiled code
import operator

import numpy as np

from dragongym.envs.core.config import build_config

STATUS_RUNNING, STATUS_TERMINATED, STATUS_TRUNCATED = 0, 1, 2

COMMON_FIELDS = ("seed", "rng_counter", "rewards", "score", "num_players", "to_play", "status",
                 "rank")
"""Fields every game's record has (the adapters read them)."""


class IllegalActionError(ValueError):
    """An action outside the legal mask; the state was left unchanged.
    ``game_index``, where set, is the first game row it was refused in."""


class InvalidStateError(ValueError):
    """A state record that is not a sound position of the game (refused by
    ``restore_state``); the live state was left unchanged."""


class Game:
    """Base class; a game module subclasses it once and registers an instance.

    Required: ``name``, ``dtype``, ``config_cls``, :meth:`spec_for`,
    :meth:`reset`, :meth:`step`, :meth:`legal_mask`, :meth:`observe`,
    :meth:`error_message`, :meth:`action_to_string`, :meth:`render_ansi`.
    The rest has defaults a game overrides where it has something to say.
    """

    name = None          # registry id
    dtype = None         # numpy structured dtype of one state record
    config_cls = None    # frozen dataclass of the game's options (see envs.core.config)

    heuristic_agent = None
    """Agent id of the game's own heuristic bot (``"dragonhunt.heuristic"``),
    used by leagues, imitation and evaluations; None if it has none."""
    shaping_potential = None
    """``"module:function"`` naming ``potential(state, seat) -> float``, a
    position score for potential-based reward shaping; None if none."""
    shaping_potential_batch = None
    """``"module:function"`` naming ``potential(states, seats) -> float64[B]``,
    the same potential for a batch of records at once (``seats[b]`` in
    ``states[b]``), equal to ``shaping_potential`` record by record; None:
    batched trainers call ``shaping_potential`` once per record."""
    truncation_option = None
    """Name of the option that limits a game's length (``"max_hands"``)."""
    bench_options = {}
    """Options the throughput benchmarks play with."""
    bench_targets = {}
    """The game's speed targets, reported (never asserted) by ``bench
    --peers``: a peer's label (``"openspiel chess"``, ``"openspiel chess
    +obs"``) -> the least ratio of the vector API at B=1024 (rules only
    against a peer without observations, with observations against one with)
    to that peer; ``"threads"`` -> the least two-thread over one-thread ratio
    at B=8192; ``"bytes_per_state"`` -> the most bytes of one game's record."""
    bench_playout = None
    """Optional method ``bench_playout(states, config, steps, seed,
    observations=False, threads=1) -> decisions``: ``steps`` random legal
    decisions in every game of a freshly reset batch inside one compiled loop,
    finished games restarting at once; the bare-core benchmark times it.
    None: the game has no compiled playout and is benchmarked through its
    adapters only."""
    compile_minutes = None
    """Rough minutes a cold compile of all :meth:`compiled_entry_points` takes
    on a 2-core machine; the first-compile notice quotes it (None: the notice
    says it can take minutes)."""
    obs_bounds = (-np.inf, np.inf)
    """``(low, high)`` of every observation float."""
    float_ranges = {"rewards": (-1.0, 1.0), "score": (0.0, 0.0)}
    """Every float field of ``dtype`` -> ``(lo, hi)``: the values the game's
    rules and reward scheme can give it, in any seat at any moment. A
    restored record with a value outside (or NaN, or an infinity) is refused:
    a reward or a score no game can reach is corruption, not a position.
    The default: rank-derived rewards in -1..1 and no score. The
    conformance suite checks that every float field has a range and that
    play stays inside it. Seats beyond ``num_players`` hold 0."""
    running_float_ranges = {"rewards": (0.0, 0.0), "score": (0.0, 0.0)}
    """Narrower ranges that hold while the game runs (``status`` 0): by
    default rewards and scores are written when the game ends, so a running
    game's are 0 (a running record with a reward would pay it again at the
    end). A game that pays rewards during play widens these."""
    tie_breaks = ""
    """Where seats with equal scores can still rank apart, the game's own
    tie-breaks in words ("fame, then epic treasures, treasures, gold"); ``""``
    means equal scores share a rank."""

    # ------------------------------------------------------------ configuration
    def make_config(self, **options):
        """Validate keyword options into ``config_cls``; raise
        :class:`envs.core.config.ConfigError` naming the option and what it allows."""
        return build_config(self.name, self.config_cls, options)

    def config_from_json(self, options):
        """The configuration of options as JSON keeps them (a game record's
        ``config``, a run's saved arguments, a checkpoint's ``game_options``:
        a list for a tuple option), checked as :meth:`make_config` checks."""
        from dragongym.envs.core.config import options_from_json
        return self.make_config(**options_from_json(self.config_cls, dict(options)))

    def default_config(self):
        return self.make_config()

    def spec_for(self, config):
        """The :class:`GameSpec` of configuration ``config`` (seats, spaces, limits)."""
        raise NotImplementedError

    @property
    def spec(self):
        """The spec of the default configuration (a convenience; generic code
        uses :meth:`spec_for` of the configuration it plays)."""
        spec = self.__dict__.get("_default_spec")
        if spec is None:
            spec = self.spec_for(self.default_config())
            self.__dict__["_default_spec"] = spec
        return spec

    def turns_played(self, state):
        """How many turns, in the spec's ``turn_unit``, the game in ``state`` (a
        1-record array) has started: what ``turn_limit`` counts. Measuring
        this over bot games chooses a game's default limit
        (``dragongym.benchmarks.game_length``)."""
        raise NotImplementedError(f"{self.name} does not count its turns")

    def test_configs(self):
        """Option dicts the conformance suite plays: every player count,
        scenario and sandbox the game declares."""
        return [{}]

    # ------------------------------------------------------------ soundness
    def check_state(self, state):
        """``""`` if ``state`` (a 1-record array) is a sound position, else a
        sentence naming the first broken invariant. ``restore_state`` refuses
        records that fail it. The default checks only the common fields."""
        return check_common_fields(state, self.dtype)

    def hidden_variants(self, state, seat, rng, count=4):
        """Up to ``count`` positions that differ from ``state`` only in what
        ``seat`` cannot know (others' hands and face-down choices, deck order,
        screened units, the RNG stream of future draws), each a 1-record
        array. ``seat``'s observation must be identical across them. The
        default changes the RNG stream only (future dice are unknowable)."""
        out = []
        for _ in range(count):
            v = state.copy()
            v["seed"] = np.uint64(int(rng.integers(0, 2**63)))
            v["rng_counter"] = np.uint64(int(rng.integers(0, 2**20)))
            out.append(v)
        return out

    def new_states(self, n):
        """``n`` zeroed records (zeroed so ``tobytes()`` is deterministic)."""
        return np.zeros(n, dtype=self.dtype)

    def reset(self, states, seeds, config):
        """Start a new game in every record, game ``b`` seeded by ``seeds[b]``."""
        raise NotImplementedError

    def step(self, states, actions, errors, parallel=False):
        """Apply ``actions[b]`` (int32) to game ``b`` (skip where ``actions[b] < 0``).

        ``errors[b]`` gets 0, or an error code with game ``b`` left unchanged.
        """
        raise NotImplementedError

    def legal_mask(self, states, masks):
        """``masks[b, a] = 1`` iff action ``a`` is legal for ``to_play`` of game ``b``."""
        raise NotImplementedError

    def observe(self, states, players, obs, parallel=False):
        """``obs[b]`` = game ``b`` as seat ``players[b]`` may know it (float32)."""
        raise NotImplementedError

    def error_message(self, code):
        """Human-readable meaning of an error code."""
        raise NotImplementedError

    def vec_observe(self, states, players, obs, parallel=False):
        """:meth:`observe` for the vector API; a game may spread it over threads."""
        self.observe(states, players, obs, parallel)

    # Optional fused fast path for the vector API (``dragongym.make_vec``).
    def vec_step(self, states, actions, masks, counts, errors, obs=None, parallel=False):
        """Step a batch whose legal masks are already known, and refresh them.

        On entry ``masks[b]`` is the legal mask of game ``b``'s position. For every
        ``b`` with ``actions[b] >= 0``: if ``actions[b]`` is not legal in
        ``masks[b]`` (or the game is over), ``errors[b]`` gets a non-zero code and
        game ``b`` is left unchanged; otherwise the action is applied,
        ``errors[b] = 0``, ``masks[b]`` becomes the new position's legal mask and
        ``counts[b]`` its number of legal actions. Games with ``actions[b] < 0``
        are untouched (their mask and count too). When ``obs`` is given,
        ``obs[b]`` of every stepped game becomes the observation of the seat now
        to play (seat 0 once the game is over).

        This default is built from :meth:`step`, :meth:`legal_mask` and
        :meth:`observe`; a game may override it with a fused compiled kernel that
        gives the same results (``parallel`` lets it spread games over threads).
        """
        actions = np.asarray(actions)
        stepped = actions >= 0
        if not stepped.any():
            return
        if stepped.all():
            self.step(states, actions, errors, parallel)
            self.legal_mask(states, masks)
            counts[:] = masks.sum(axis=1)
            if obs is not None:
                players = np.maximum(states["to_play"], 0).astype(np.int8)
                self.observe(states, players, obs, parallel)
            return
        idx = np.flatnonzero(stepped)
        sub = states[idx]
        sub_err = np.zeros(len(idx), dtype=errors.dtype)
        self.step(sub, actions[idx], sub_err, parallel)
        states[idx] = sub
        errors[idx] = sub_err
        errors[~stepped] = 0
        sub_masks = np.zeros((len(idx), masks.shape[1]), dtype=masks.dtype)
        self.legal_mask(sub, sub_masks)
        masks[idx] = sub_masks
        counts[idx] = sub_masks.sum(axis=1)
        if obs is not None:
            sub_obs = np.zeros((len(idx), obs.shape[1]), dtype=obs.dtype)
            self.observe(sub, np.maximum(sub["to_play"], 0).astype(np.int8), sub_obs, parallel)
            obs[idx] = sub_obs

    def action_to_string(self, state, action):
        """Readable name of ``action`` in the position ``state`` (a 1-record array)."""
        raise NotImplementedError

    def string_to_action(self, state, text):
        """Inverse of :meth:`action_to_string` for the legal actions of ``state``."""
        for a in np.flatnonzero(self.mask_of(state)):
            if self.action_to_string(state, int(a)) == text:
                return int(a)
        raise ValueError(f"{text!r} names no legal action here")

    def render_ansi(self, state, seat=None):
        """Text picture of the position ``state`` (a 1-record array) as seat
        ``seat`` may know it (None: the full position)."""
        raise NotImplementedError

    # Pictures (envs/core/picture.py): a game that draws names its drawing
    # module, or overrides the first two hooks; it then has
    # render_mode="rgb_array", replays to gif/mp4/html and the web page.
    picture_module = None
    """Import path of the game's drawing module
    (``"dragongym.envs.dragonhunt.picture"``), whose ``board_scene(state)``,
    ``position_scene(state, seat)`` and ``board_key(state)`` are the three
    hooks below; None: the game draws no pictures (unless it overrides them)."""

    def _drawing(self):
        if self.picture_module is None:
            raise NotImplementedError(f"{self.name} draws no pictures")
        import importlib

        return importlib.import_module(self.picture_module)

    def picture_board(self, state):
        """The board layer of ``state``'s picture: a :class:`picture.Scene` of
        what no decision changes (map, terrain, roads, rivers), drawn once per
        :meth:`picture_board_key` and cached. Its size is the picture's."""
        return self._drawing().board_scene(state)

    def picture_position(self, state, seat):
        """The position layer: a :class:`picture.Scene` of the same size drawn
        over the board -- counters, markers, a side panel, and (when ``seat``
        is None or the seat to play) the pending decision, its legal choices
        drawn with ``actions=`` so a click can take them. ``seat`` is the
        observer (None: the full position); nothing ``seat`` may not know
        is drawn."""
        return self._drawing().position_scene(state, seat)

    def picture_board_key(self, state):
        """What the board layer depends on (hashable): ``()`` where it is the
        same in every game; a game whose board follows its options or its
        record (a realm built from tiles) returns those."""
        return self._drawing().board_key(state) if self.picture_module else ()

    @property
    def has_pictures(self):
        """True if the game draws pictures (names a ``picture_module`` or
        overrides :meth:`picture_board`)."""
        return self.picture_module is not None or type(self).picture_board is not Game.picture_board

    def render_rgb(self, state, seat=None):
        """The picture of ``state`` (a 1-record array) as seat ``seat`` may
        know it (None: the full position), an ``H x W x 3`` uint8 array."""
        from dragongym.envs.core.picture import render_rgb

        return render_rgb(self, state, seat)

    def decision_is_public(self, state, action):
        """Whether every seat may know which action the seat to play takes
        in ``state`` (a 1-record array, before ``action``): replays name it
        in every seat's view, else only in the decider's and the full one.
        The default: every decision is public; a game with secret choices
        (a card laid face down, tactics placed in secret) says which."""
        return True

    # Optional hooks for search agents (agents/mcts.py).
    def determinize(self, state, player, rng):
        """Resample, in place, what seat ``player`` cannot know about ``state``.

        ``state`` is a 1-record array (a snapshot the caller owns). After the
        call it is a position consistent with everything ``player`` has seen,
        with the hidden parts drawn from ``rng`` (a ``numpy.random.Generator``),
        never copied from the original. The default only reseeds the RNG
        stream (``seed``, ``rng_counter``), so search cannot foresee future
        dice or draws; games with hidden cards or screened units override it
        and resample those too.
        """
        state["seed"] = np.uint64(int(rng.integers(0, 2**63)))
        state["rng_counter"] = 0

    def playout(self, state, max_steps, seed):
        """Optional fast random playout: play uniformly random legal actions in
        ``state`` (a 1-record array, in place) for at most ``max_steps``
        decisions, the choices drawn from a stream seeded by ``seed``. Returns
        the decisions made. Games with a compiled core override it; the default
        raises NotImplementedError and search agents fall back to Python play.
        """
        raise NotImplementedError

    # Ahead-of-time compilation (``dragongym warm``).
    def compiled_entry_points(self):
        """The game's compiled entry points: a list of ``(name, run)`` pairs in
        the order ``dragongym warm`` runs them, ``name`` a short label (``"reset"``,
        ``"vec_observe threads"``) and ``run()`` a call of that entry point on a
        tiny batch with the argument types the adapters, benchmarks and agents
        use, so that numba compiles it into the cache (or loads it from there)
        and a later first use finds it. A game lists every compiled function
        its hooks can reach (reset, step, mask, observe, the vector kernels,
        playouts, checkers). The default ``[]``: the game compiles nothing."""
        return []

    def adapter_entry_points(self, config, size=2):
        """The ``compiled_entry_points`` every game's adapters reach, each run
        on a fresh batch of ``size`` games of ``config`` with the adapters'
        argument types: ``reset`` (the first, which compiles a one-kernel
        core), ``step`` (action -1), ``legal_mask``, ``observe``, the vector
        step (a legal action in each game) serial and on threads,
        ``vec_observe`` on threads, ``check_state`` on one record, and the
        seeds of a match (``rng.seed_sequence``). A game adds its own
        (playouts, fuzzers, what its agents call) after these."""
        from dragongym.envs.core.rng import seed_sequence     # compiled: imported only here
        spec = self.spec_for(config)

        def fresh():
            states = self.new_states(size)
            self.reset(states, np.arange(1, size + 1, dtype=np.uint64), config)
            return states

        def masks_of(states):
            masks = np.zeros((size, spec.num_actions), dtype=np.int8)
            self.legal_mask(states, masks)
            return masks

        def observations():
            return np.zeros((size, spec.obs_size), dtype=np.float32)

        def vec_step(parallel):
            states = fresh()
            masks = masks_of(states)
            actions = np.argmax(masks, axis=1).astype(np.int32)
            self.vec_step(states, actions, masks, masks.sum(axis=1).astype(np.int64),
                          np.zeros(size, dtype=np.int8), observations(), parallel)

        players = np.zeros(size, dtype=np.int8)
        return [
            ("reset", fresh),
            ("step", lambda: self.step(fresh(), np.full(size, -1, dtype=np.int32), np.zeros(size, dtype=np.int8))),
            ("legal_mask", lambda: masks_of(fresh())),
            ("observe", lambda: self.observe(fresh(), players, observations())),
            ("vec_step", lambda: vec_step(False)),
            ("vec_step threads", lambda: vec_step(True)),
            ("vec_observe threads", lambda: self.vec_observe(fresh(), players, observations(), True)),
            ("check_state", lambda: self.check_state(fresh()[:1].copy())),
            # the per-game seeds of a match (envs/core's own compiled code)
            ("seeds", lambda: seed_sequence(1, size)),
        ]

    # Conveniences over one record, built on the batched methods.
    def mask_of(self, state):
        m = np.zeros((1, self.spec.num_actions), dtype=np.int8)
        self.legal_mask(state, m)
        return m[0]

    def observation_of(self, state, player):
        o = np.zeros((1, self.spec.obs_size), dtype=np.float32)
        self.observe(state, np.array([player], dtype=np.int8), o)
        return o[0]


def action_int(action):
    """``action`` as a Python int, or None where it is no integer action: an
    int, a numpy integer or a one-element integer array is; a bool (Python's
    or numpy's: ``step(True)`` is no action 1), a float, a string or None is
    not."""
    if isinstance(action, (bool, np.bool_)):
        return None
    if isinstance(action, np.ndarray):
        return int(action.reshape(())) if action.size == 1 and action.dtype.kind in "iu" else None
    try:
        return operator.index(action)
    except TypeError:
        return None


def one_game_buffers(game, spec):
    """The arrays an adapter that plays one game at a time hands to the batched
    methods (``B = 1``), made once and reused by every call: ``(states, actions,
    errors, players, obs, mask)`` -- the 1-record state array, int32 ``[1]``
    actions, int8 ``[1]`` error codes, int8 ``[1]`` observing seats, float32
    ``[1, obs_size]`` observations and int8 ``[1, A]`` masks of ``spec``."""
    return (game.new_states(1), np.zeros(1, dtype=np.int32), np.zeros(1, dtype=np.int8),
            np.zeros(1, dtype=np.int8), np.zeros((1, spec.obs_size), dtype=np.float32),
            np.zeros((1, spec.num_actions), dtype=np.int8))


def float_field_problem(game, state):
    """``""`` if every float field of ``state`` (a 1-record array of
    ``game.dtype``) is finite and inside ``game.float_ranges`` (and
    ``game.running_float_ranges`` while the game runs), seats beyond
    ``num_players`` holding 0 in the per-seat ``rewards`` and ``score``; else
    what is wrong. A float field without a declared range is itself a
    problem: a game must say what each of its floats can hold."""
    rec = np.asarray(state)[0]
    dtype = rec.dtype
    n = int(rec["num_players"])
    running = int(rec["status"]) == STATUS_RUNNING
    for name in dtype.names:
        if dtype.fields[name][0].base.kind != "f":
            continue
        if name not in game.float_ranges:
            return f"float field {name} has no declared range (Game.float_ranges)"
        values = np.asarray(rec[name], dtype=np.float64).reshape(-1)
        if not np.all(np.isfinite(values)):
            return f"{name} holds a value that is not finite: {values.tolist()}"
        lo, hi = game.float_ranges[name]
        when = "any game"
        if running and name in game.running_float_ranges:
            lo, hi = game.running_float_ranges[name]
            when = "a running game"
        seated = values
        if name in ("rewards", "score"):
            seated = values[:n]
            if np.any(values[n:] != 0):
                return f"{name} of a seat beyond the game's {n} is not 0: {values.tolist()}"
        outside = seated[(seated < lo) | (seated > hi)]
        if outside.size:
            return (f"{name} {float(outside[0])!r} is outside {lo:g}..{hi:g}, the range {game.name}'s "
                    f"rules and rewards allow in {when}")
    return ""


def check_common_fields(state, dtype):
    """``""`` if the common fields of ``state`` (1-record array of ``dtype``)
    are consistent, else what is wrong."""
    state = np.asarray(state)
    if state.dtype != dtype or state.shape != (1,):
        return f"expected a record of dtype {dtype} and shape (1,), got {state.dtype} {state.shape}"
    rec = state[0]
    max_seats = len(rec["rank"])
    n = int(rec["num_players"])
    if not 1 <= n <= max_seats:
        return f"num_players {n} is not 1..{max_seats}"
    status = int(rec["status"])
    if status not in (STATUS_RUNNING, STATUS_TERMINATED, STATUS_TRUNCATED):
        return f"status {status} is not 0 (running), 1 (terminated) or 2 (truncated)"
    to_play = int(rec["to_play"])
    if status == STATUS_RUNNING and not 0 <= to_play < n:
        return f"a running game has to_play {to_play}, not a seat in 0..{n - 1}"
    if status != STATUS_RUNNING:
        if to_play != -1:
            return f"a finished game has to_play {to_play}, not -1"
        from dragongym.envs.core.outcome import ranking_problem
        problem = ranking_problem([int(r) for r in rec["rank"][:n]])
        if problem:
            return f"a finished game's ranks are not a ranking: {problem}"
    elif any(int(r) for r in rec["rank"]):
        return "a running game has ranks set"
    if not np.all(np.isfinite(rec["rewards"])) or not np.all(np.isfinite(rec["score"])):
        return "rewards or scores are not finite"
    return ""
