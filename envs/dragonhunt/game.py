"""Dragonhunt: hunt Brimstone the Dragon, 2 to 6 players (``dragongym.make("dragonhunt")``).

The rules core is the ``rules`` package (numba, one module per part of the
rulebook; see ``envs/README.md``), the state record ``state.py``, the
observations ``observe.py``; the board, tables and deck are data files in
``data/`` (substitutes, see ``SUBSTITUTES.md``); ``RULES.md`` maps every rule of
the rulebook to its code and test.

Spaces
------
Action ``Discrete(A)``, ``A = NUM_CELLS + 21``:

===========================  =================================================
``0 .. NUM_CELLS-1``         a board cell: a unit's space, a destination, a
                             target, a castle to choose, ... (its meaning is
                             given by the pending decision, ``phase``)
``NUM_CELLS + 0``            done / pass / end this segment
``+1, +2``                   choose the first / second die
``+3 .. +8``                 play movement card 0..5 (values 6 7 8 9 10 12)
``+9 .. +12``                a unit type: hero, sniper, knight, man-at-arms
``+13``                      snipe (9.64)
``+14 .. +16``               Dragon Charmer: Brimstone 1..3 spaces toward her
``+17 .. +19``               Dragon Charmer: Brimstone 1..3 spaces away
``+20``                      the sword-wielding knight, where other knights
                             share his space (13.4, 14.41)
===========================  =================================================

Observation: ``{"observation": float32[OBS_SIZE], "action_mask": int8[A]}``
from the observing seat (rotated to seat 0); ``SPEC.obs_layout`` names the
blocks (``board`` is ``(NUM_CELLS, 24)`` planes, see ``observe.py``).

Rewards: 0 every step; when Brimstone is slain the slayer gets +1 and every
other seat ``-1/(n-1)``. A game that reaches ``max_hands`` hands is truncated,
a draw (all 0).

Decisions with a single legal action are taken by the core (``auto_single``),
so an agent is only asked when it has a choice.

Version history: v1 first release.
"""
# jitcache: no compiled code
from dataclasses import dataclass, field

import numpy as np

from dragongym.envs.core.game import Game, check_common_fields
from dragongym.envs.core.kernel_calls import KernelCalls
from dragongym.envs.core.threads import over_threads
from dragongym.envs.core.spec import ActionBlock, GameSpec, ObsBlock, player_names
from . import data as D
from . import rules as R
from . import observe as O
from . import kernel as K
from .constants import (
    UNIT_TYPE_NAMES, MAX_PLAYERS, CASTLE, VILLAGE, COTTAGE,
    DRAGON_LAIR, BEING_LAIR,
)
from .state import STATE_DTYPE

DIRECTION_NAMES = ("", "N", "NE", "SE", "S", "SW", "NW")

PHASE_NAMES = {v: k[3:].lower() for k, v in vars(R).items() if k.startswith("PH_")}
STAGE_NAMES = {v: k[3:].lower() for k, v in vars(R).items() if k.startswith("ST_")}
ERRORS = {R.E_RANGE: "action outside 0..A-1", R.E_ILLEGAL: "not a legal action in this position",
          R.E_OVER: "the game is over"}


@dataclass(frozen=True)
class DragonhuntConfig:
    """Options of a Dragonhunt game.

    Attributes:
        num_players: seats, 2 to 6 (Object of Play).
        max_hands: the game is truncated (a draw) after this many hands of four
            turns if Brimstone still lives. The rulebook sets no limit; RL needs
            one. The default, 30, was chosen by measurement: in 400 games of the
            heuristic against itself (2 players) Brimstone was slain in 88% by
            hand 30 (15% by hand 8, 64% by hand 20; median hand 16), so a first
            match or evaluation mostly ends by the rules
            (``python -m dragongym.benchmarks.game_length --game dragonhunt
            --games 400 --limit 60``; agents/eval_results/dragonhunt_game_length).
        auto_single: the core applies a decision that has exactly one legal
            action instead of asking (no information is lost). Set False to see
            every decision.
    """

    num_players: int = field(default=2, metadata={"range": (2, MAX_PLAYERS)})
    max_hands: int = field(default=30, metadata={"range": (1, 1000)})
    auto_single: bool = True


def cell_name(cell):
    """Readable name of a board cell: a structure's name, a lair, or column-row."""
    cell = int(cell)
    t = int(D.TERRAIN[cell])
    k = int(D.KINGDOM[cell])
    if t in (CASTLE, VILLAGE, COTTAGE):
        kind = {CASTLE: "Castle", VILLAGE: "Village", COTTAGE: "Cottage"}[t]
        return f"{D.KINGDOM_NAMES[k]} {kind}"
    if t == DRAGON_LAIR:
        return "Lair of Brimstone"
    if t == BEING_LAIR:
        return "Cave" if cell == int(D.BEING_LAIR_CELL[0]) else "Hollow Tree"
    return f"{int(D.CELL_COL[cell]):02d}{int(D.CELL_ROW[cell]):02d}"


_OBS_DOCS = {"board": "per-cell planes (see observe.py: units by type and owner, beings, flames, swords, "
                      "the pending selection)"}


def _obs_block(name, offset, shape):
    if name == "board":
        return ObsBlock(offset, shape, kind="grid", geometry="hex",
                        grid_shape=(int(D.BOARD_COLS), int(D.BOARD_ROWS)), hex_layout="flat-odd-q",
                        doc=_OBS_DOCS["board"])
    return ObsBlock(offset, shape, kind="flat")


OBS_LAYOUT = {name: _obs_block(name, offset, shape) for name, (offset, shape) in O.LAYOUT.items()}
"""Typed observation blocks: the board is a hex grid of ``NUM_CELLS`` cells
filling the printed 15 x 13 rectangle in reading order; the rest is flat."""

ACTION_LAYOUT = {
    "cell": ActionBlock(0, R.NC, indexes="board", doc="a board cell; its meaning follows the phase"),
    "done": ActionBlock(R.A_DONE, 1, doc="done / pass / end this segment"),
    "die": ActionBlock(R.A_DIE0, 2, doc="the first / second die"),
    "card": ActionBlock(R.A_CARD0, 6, doc="movement card 0..5 (values 6 7 8 9 10 12)"),
    "unit_type": ActionBlock(R.A_TYPE0, 4, doc="hero, sniper, knight, man-at-arms"),
    "snipe": ActionBlock(R.A_SNIPE, 1, doc="snipe (9.64)"),
    "charm": ActionBlock(R.A_CHARM0, 6, doc="Dragon Charmer: 1..3 spaces toward, then away"),
    "sword_wielder": ActionBlock(R.A_WIELDER, 1, doc="the sword-wielding knight (13.4, 14.41)"),
}


def _config(num_players, max_hands, auto_single, with_obs=False):
    """``kernel.run_batch``'s int64 settings (indexes ``kernel.CFG_*``)."""
    return np.array([num_players, max_hands, 1 if auto_single else 0, 1 if with_obs else 0],
                    dtype=np.int64)


def _settings(config, with_obs=False):
    """The kernel's settings for a configuration (``None``: the ops that need none)."""
    if config is None:
        return _config(0, 0, 0, with_obs)
    return _config(config.num_players, config.max_hands, config.auto_single, with_obs)


CALLS = KernelCalls("dragonhunt", K, R.NUM_ACTIONS, O.OBS_SIZE, _settings)
"""The batched calls, each one op of ``kernel.run_batch``."""


class Dragonhunt(Game):
    """The Dragonhunt rules core behind the generic adapters."""

    name = "dragonhunt"
    version = 2
    dtype = STATE_DTYPE
    config_cls = DragonhuntConfig
    obs_bounds = (-1.0, 8.0)
    heuristic_agent = "dragonhunt.heuristic"
    picture_module = "dragongym.envs.dragonhunt.picture"
    shaping_potential = "dragongym.agents.dragonhunt_heuristic:seat_score_potential"
    shaping_potential_batch = "dragongym.agents.dragonhunt_heuristic:seat_score_potential_batch"
    truncation_option = "max_hands"
    # rewards +1 to the slayer, -1/(n-1) to the others, 0 in a truncated game,
    # written at the end (magesword.end_game); Dragonhunt keeps no score
    float_ranges = {"rewards": (-1.0, 1.0), "score": (0.0, 0.0)}
    # the throughput figures keep the 8-hand games they were first measured with
    bench_options = {"num_players": 2, "max_hands": 8}
    bench_targets = {"openspiel chess": 10.0, "openspiel chess +obs": 8.0, "threads": 1.7,
                     "bytes_per_state": 4096}     # the targets of issue 11
    # measured: 90 s for every entry point from an empty cache, 2 cores (README)
    compile_minutes = 1

    def spec_for(self, config):
        """Seats ``player_0 .. player_{n-1}`` for ``config.num_players``; the
        game is truncated after ``config.max_hands`` hands."""
        n = int(config.num_players)
        return GameSpec(
            name=self.name, version=self.version, roles=player_names(n),
            num_actions=R.NUM_ACTIONS, obs_size=O.OBS_SIZE, obs_layout=OBS_LAYOUT,
            action_layout=ACTION_LAYOUT, max_decisions=2500 * int(config.max_hands),
            turn_limit=int(config.max_hands), turn_unit="hands", chance=True,
            hidden_information=True, utility="zero_sum", config=config)

    def turns_played(self, state):
        """Hands started (``max_hands`` counts them)."""
        return int(state[0]["hand"])

    def test_configs(self):
        return [{"num_players": n} for n in range(2, MAX_PLAYERS + 1)]

    def check_state(self, state):
        """``""`` if ``state`` (a 1-record array) is a sound Dragonhunt position,
        else what is wrong (see ``Game.check_state``). In order: the common
        fields; every field compiled code indexes with in range and the
        cross-field rules (``soundness.record_problem``), so that the compiled
        checks after it cannot read outside an array; the rules' invariants
        (``invariants.check_state``); a running game has a legal action."""
        problem = check_common_fields(state, self.dtype)
        if problem:
            return problem
        from .invariants import INVARIANT_NAMES, check_state
        from .soundness import record_problem
        problem = record_problem(state)
        if problem:
            return problem
        code = int(check_state(state, 0))
        if code:
            return INVARIANT_NAMES.get(code, f"invariant {code} broken")
        if int(state[0]["status"]) == 0 and not self.mask_of(state).any():
            return INVARIANT_NAMES[9]
        return ""

    def hidden_variants(self, state, seat, rng, count=4):
        """Positions that differ only in what ``seat`` cannot know: the
        face-down cards the others laid this turn and the RNG stream."""
        out = []
        for _ in range(count):
            v = state.copy()
            self.determinize(v, seat, rng)
            out.append(v)
        return out

    def reset(self, states, seeds, config):
        CALLS.reset(states, seeds, config)

    def step(self, states, actions, errors, parallel=False):
        CALLS.step(states, actions, errors)

    def legal_mask(self, states, masks):
        CALLS.legal_mask(states, masks)

    def observe(self, states, players, obs, parallel=False):
        CALLS.observe(states, players, obs)

    def determinize(self, state, player, rng):
        """Resample what seat ``player`` cannot know (see ``Game.determinize``):
        the face-down movement cards the other seats laid this turn (during the
        card segment, 9.11: each drawn uniformly from that seat's hand, which is
        public) and the RNG stream (future dice, dragon-card and being draws)."""
        rec = state[0]
        if int(rec["stage"]) == R.ST_CARDS:
            for q in range(int(rec["num_players"])):
                if q != player and int(rec["card_played"][q]) >= 0:
                    hand = [i for i in range(6) if int(rec["cards_in_hand"][q]) >> i & 1]
                    rec["card_played"][q] = hand[int(rng.integers(len(hand)))]
        Game.determinize(self, state, player, rng)

    def playout(self, state, max_steps, seed):
        """Compiled random playout (``rules.random_playout``) of ``state[0]``."""
        return int(R.random_playout(state, 0, int(max_steps), np.uint64(seed)))

    def bench_playout(self, states, config, steps, seed, observations=False, threads=1):
        """Bare-core benchmark hook: ``steps`` uniformly random legal decisions
        in every game of the freshly reset batch ``states``, inside one compiled
        loop (``playout.random_play``; games spread over ``threads`` threads
        when more than 1). A finished game restarts at once in ``config`` with a
        fresh seed; each game's choices come from its own stream keyed by
        ``seed``. ``observations`` also writes the observation of the seat to
        play after every decision. Returns the decisions made."""
        from . import playout as P
        n = len(states)
        masks = np.zeros((n, R.NUM_ACTIONS), dtype=np.int8)
        counts = np.zeros(n, dtype=np.int64)
        obs = np.zeros((n if observations else 1, O.OBS_SIZE), dtype=np.float32)
        P.prepare(states, masks, counts)
        done = np.zeros(n, dtype=np.int64)

        def run(lo, hi):
            # the one-row dummy ``obs`` is never read without observations
            done[lo] = P.random_play(states[lo:hi], masks[lo:hi], counts[lo:hi], int(steps),
                                     np.uint64(seed), bool(observations),
                                     obs[lo:hi] if observations else obs,
                                     int(config.num_players), int(config.max_hands))
        over_threads(n, run, threads=max(1, int(threads)))
        return int(done.sum())

    def compiled_entry_points(self):
        """Every compiled entry point (see ``Game.compiled_entry_points``), each
        run on a freshly reset batch of two 2-player games with the adapters'
        argument types: the batched ``reset``, ``step`` (action -1, so only
        the kernel's compile is timed), ``legal_mask`` and ``observe``; the
        vector kernels (``vec_step``, one kernel for any thread count, and
        ``vec_observe`` on threads); the invariant checker (``check_state``):
        ``Game.adapter_entry_points``. Then the bare-core playout
        (``bench_playout`` serial and on 2 threads), the random-play fuzzer
        (``invariants.fuzz``, one short game) and MCTS's ``playout``."""
        from . import invariants as I
        config = self.make_config(num_players=2, max_hands=1)

        def fresh():
            states = self.new_states(2)
            self.reset(states, np.arange(1, 3, dtype=np.uint64), config)
            return states

        return self.adapter_entry_points(config) + [
            ("bench_playout serial", lambda: self.bench_playout(fresh(), config, 2, 0, threads=1)),
            ("bench_playout threads", lambda: self.bench_playout(fresh(), config, 2, 0, threads=2)),
            ("fuzz", lambda: I.fuzz(self.new_states(1), np.ones(1, dtype=np.uint64), 2, 1,
                                    np.uint64(2), 40)),
            ("playout (MCTS)", lambda: self.playout(fresh()[:1].copy(), 40, 0)),
        ]

    def error_message(self, code):
        return ERRORS.get(int(code), f"error {int(code)}")

    # ------------------------------------------------------------ vector fast path
    def vec_step(self, states, actions, masks, counts, errors, obs=None, parallel=False):
        """The fused compiled step (``KernelCalls.vec_step``)."""
        CALLS.vec_step(states, actions, masks, counts, errors, obs, parallel)

    def vec_observe(self, states, players, obs, parallel=False):
        CALLS.observe(states, players, obs, parallel)

    # ------------------------------------------------------------ text
    def action_to_string(self, state, action):
        """Readable name of ``action`` in the position ``state`` (a 1-record array).

        A legal action is named by what it does now (``"choose kingdom
        Stonehelm"``, ``"move to 0304"``); the legal actions of a position
        have distinct names (``string_to_action`` inverts them). An action
        that means nothing here says so, so that error messages never name
        the wrong thing: ``"action -1 (no such action)"`` outside
        ``0..A-1``, and otherwise the action's neutral name with the reason,
        e.g. ``"cell 0304 (no kingdom to choose there)"`` or ``"snipe (not
        legal now: the position asks for move_dest)"``.
        """
        a = int(action)
        if not 0 <= a < R.NUM_ACTIONS:
            return f"action {a} (no such action)"
        if self.mask_of(state)[a]:
            return _legal_action_name(state[0], a)
        return _illegal_action_name(state[0], a)

    def string_to_action(self, state, text):
        """The legal action of ``state`` named ``text`` by :meth:`action_to_string`."""
        rec = state[0]
        for a in np.flatnonzero(self.mask_of(state)):
            if _legal_action_name(rec, int(a)) == text:
                return int(a)
        raise ValueError(f"{text!r} names no legal action here")


    def decision_is_public(self, state, action):
        """A card laid face down in the card segment (9.11) is secret until
        the cards are turned; every other decision is made in the open."""
        return int(state[0]["phase"]) != R.PH_CARD

    def render_ansi(self, state, seat=None):
        """The text picture of ``state`` (``text_picture.text_picture``) as
        ``seat`` may know it (None: the full position): the board as a
        staggered hex grid with a legend, every occupied space in words,
        Brimstone, the beings, each player and the decision pending."""
        from .text_picture import text_picture
        return text_picture(state, seat)


_CELL_VERBS = {
    R.PH_KINGDOM: "choose kingdom", R.PH_PLACE: "place at", R.PH_BEING_SELECT: "use being at",
    R.PH_BEING_MOVE: "being to", R.PH_BEING_TARGET: "being acts on", R.PH_BANISH_DEST: "banish to",
    R.PH_EAGLE_DEST: "eagle carries to", R.PH_EAGLE_LAND: "eagle lands at",
    R.PH_REVIVE_CELL: "revive at", R.PH_TELEPORT_UNIT: "teleport unit at",
    R.PH_TELEPORT_DEST: "teleport to", R.PH_MOVE_SELECT: "select unit at", R.PH_MOVE_DEST: "move to",
    R.PH_COMBAT_SELECT: "attack with unit at", R.PH_COMBAT_TARGET: "attack",
    R.PH_OCCUPY: "occupy from", R.PH_DRAGON_FORCE: "join dragon attack from",
    R.PH_CASUALTY: "casualty at", R.PH_CARD_STRUCT: "Brimstone strikes", R.PH_FIVE_MOVE: "Brimstone to",
    R.PH_REPL_VILLAGE: "replacement to",
}
"""What choosing a cell means while each phase is pending."""


def _legal_action_name(rec, a):
    """The name of action ``a`` (0..A-1), legal in the position ``rec``, by what it does."""
    ph = int(rec["phase"])
    if a < R.NC:
        if ph == R.PH_KINGDOM:
            return f"choose kingdom {D.KINGDOM_NAMES[int(D.KINGDOM[a])]}"
        return f"{_CELL_VERBS.get(ph, 'cell')} {cell_name(a)}"
    if a == R.A_DONE:
        return "being leaves the board" if ph == R.PH_BEING_MOVE else "done"
    if a in (R.A_DIE0, R.A_DIE1):
        die = int(rec["die0"] if a == R.A_DIE0 else rec["die1"])
        return f"die {die} ({DIRECTION_NAMES[die] if 1 <= die <= 6 else '?'})"
    return _neutral_action_name(a)


def _neutral_action_name(a):
    """The name of action ``a`` (0..A-1) that holds in any position."""
    if a < R.NC:
        return f"cell {cell_name(a)}"
    if a == R.A_DONE:
        return "done"
    if a in (R.A_DIE0, R.A_DIE1):
        return "first die" if a == R.A_DIE0 else "second die"
    if R.A_CARD0 <= a < R.A_CARD0 + 6:
        return f"play card {int(D.MOVEMENT_CARD_VALUES[a - R.A_CARD0])}"
    if R.A_TYPE0 <= a < R.A_TYPE0 + 4:
        return f"type {UNIT_TYPE_NAMES[a - R.A_TYPE0]}"
    if a == R.A_SNIPE:
        return "snipe"
    if a == R.A_WIELDER:
        return "type sword-wielder"
    j = a - R.A_CHARM0
    return f"charm Brimstone {j % 3 + 1} {'toward' if j < 3 else 'away'}"


def _illegal_action_name(rec, a):
    """The neutral name of action ``a`` (0..A-1), not legal in ``rec``, and why it means nothing."""
    name = _neutral_action_name(a)
    if int(rec["status"]) != 0:
        return f"{name} (the game is over)"
    ph = int(rec["phase"])
    if ph == R.PH_KINGDOM and a < R.NC:
        if int(D.TERRAIN[a]) != CASTLE:
            return f"{name} (no kingdom to choose there)"
        return f"{name} (kingdom {D.KINGDOM_NAMES[int(D.KINGDOM[a])]} cannot be chosen by this cell now)"
    return f"{name} (not legal now: the position asks for {PHASE_NAMES.get(ph, ph)})"


GAME = Dragonhunt()
