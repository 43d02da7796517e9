"""The vector (throughput) API over any :class:`dragongym.envs.core.game.Game`, written once.

    venv = dragongym.make_vec("dragonhunt", num_envs=1024, seed=0, num_players=2)
    obs, mask, to_play = venv.reset()
    while ...:
        actions = venv.sample_actions(rng)            # or your policy, int[B]
        obs, mask, rewards, terminated, truncated, to_play, info = venv.step(actions)

Arrays in, arrays out. ``B`` games run in lockstep, one decision each per step
(game ``b``'s decision is made by seat ``to_play[b]``):

=================  ==========================================================
``obs``            float32 ``[B, obs_size]``: game ``b`` as seat ``to_play[b]``
                   may know it (``None`` with ``observations=False``)
``mask``           int8 ``[B, A]``: the legal actions of ``to_play[b]``
``to_play``        int8 ``[B]``: the seat that decides next in game ``b``
``rewards``        float32 ``[B, P]``: what each seat earned by this step
                   (games pay when they end), ``P = num_players``
``terminated``     bool ``[B]``: game ``b`` ended by the rules on this step
``truncated``      bool ``[B]``: game ``b`` hit the game's limit on this step
                   (its own, or ``spec.decision_limit`` decisions: see below)
``info``           dict; where games ended on this step (``done_index``, int
                   ``[D]``), their last position before the automatic reset:
                   ``final_obs`` float32 ``[D, P, obs_size]`` (every seat's
                   view; ``None`` without observations), ``final_rewards``
                   ``[D, P]`` (the game's whole payout), ``final_status``
                   ``[D]`` and ``final_state`` (the ``D`` records)
=================  ==========================================================

Finished games restart at once (auto-reset), so every row is always a running
game; ``obs``/``mask``/``to_play`` of a restarted row are its new game's.
``decisions[b]`` counts the decisions of game ``b``'s current episode; one
still running after ``spec.decision_limit`` of them is ended there, truncated
(:func:`dragongym.envs.core.outcome.end_at_decision_limit`: every seat tied),
so a policy that repeats a loop the rules allow cannot hold a row forever.

Seeding: game ``i`` starts with seed ``seed_sequence(seed, B)[i]`` (which does
not depend on ``B``) and each auto-reset derives the next seed from the old one
(:func:`next_seeds`), so a game's whole sequence of episodes depends only on its
seed and the actions it is given, never on the batch size, its position in the
batch or the thread count. ``reset(seeds=...)`` sets every game's seed directly.

The returned arrays are preallocated buffers reused by the next ``step``:
copy what you keep. Actions are an integer array of shape ``(B,)`` (any signed
or unsigned width). A negative action, of any size, leaves that game alone for
this step. Any other bad action raises before any game is stepped, so the
batch is unchanged: a wrong shape, a bool, float or object array
(:class:`ValueError`); an action ``>= A``, however large (a ``uint64``
``2**63`` included), or one its game's mask does not allow
(:class:`dragongym.envs.core.game.IllegalActionError`, naming the game index
and the action).

Seeds (``seed`` of the constructor and of :meth:`VecGameEnv.reset`, the
entries of ``reset(seeds=...)``) are ints in ``0..2**64-1``; anything else is
refused (:class:`dragongym.envs.core.config.ConfigError`), never reduced.
:meth:`VecGameEnv.restore` and :meth:`VecGameEnv.restore_game` check every
record (``game.check_state``) before anything is copied in and refuse an
unsound one with :class:`dragongym.envs.core.game.InvalidStateError`.

Batches of at least ``parallel_threshold`` games with ``num_threads > 1`` are
stepped on ``num_threads`` threads (``Game.vec_step`` with ``parallel``: the
game's kernel on slices of the batch, the GIL released); smaller ones serially.
"""
# jitcache: no compiled code
import numbers

import numpy as np

from dragongym.envs.core.game import (
    STATUS_RUNNING, STATUS_TERMINATED, STATUS_TRUNCATED, IllegalActionError, InvalidStateError,
    check_common_fields, float_field_problem,
)
from dragongym.envs.core.config import ConfigError, check_count, check_seed, describe
from dragongym.envs.core.outcome import end_at_decision_limit
from dragongym.envs.core.rng import seed_sequence
from dragongym.envs.core.sampling import sample_legal

ACTION_DTYPE = np.int32
ERROR_DTYPE = np.int8
MASK_DTYPE = np.int8
COUNT_DTYPE = np.int64
PLAYER_DTYPE = np.int8

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_RESEED = np.uint64(0xD1B54A32D192ED03)


def _mix64(z):
    """splitmix64 finaliser over a uint64 array (wrapping arithmetic)."""
    z = np.asarray(z, dtype=np.uint64).copy()
    z ^= z >> np.uint64(30)
    z *= _M1
    z ^= z >> np.uint64(27)
    z *= _M2
    z ^= z >> np.uint64(31)
    return z


def next_seeds(seeds):
    """The seed of each game's next episode, from the seed of its last one."""
    return _mix64(np.asarray(seeds, dtype=np.uint64) ^ _RESEED)


class VecGameEnv:
    """``B`` games of one :class:`Game`, stepped in lockstep with auto-reset.

    Args:
        game: the game object (see ``dragongym.get_game``).
        num_envs: batch size ``B``.
        seed: user seed, an int in ``0..2**64-1`` (None: 0); game ``i`` gets
            ``seed_sequence(seed, B)[i]``.
        num_players: seats; None takes the game's default configuration.
        observations: True or False; compute observations (False: rules
            only, ``obs`` is None).
        num_threads: threads for the parallel kernel, an int >= 1 (None:
            numba's default); 1 keeps everything serial.
        parallel_threshold: smallest batch stepped by the parallel kernel
            (an int >= 0).
        **config: the game's options.
    """

    def __init__(self, game, num_envs, seed=0, num_players=None, observations=True,
                 num_threads=None, parallel_threshold=1024, **config):
        num_envs = check_count(num_envs, "num_envs")
        seed = check_seed(seed, "seed")
        if not isinstance(observations, (bool, np.bool_)):
            raise ConfigError(f"observations must be True or False, got {describe(observations)}")
        if num_threads is not None:
            num_threads = check_count(num_threads, "num_threads")
        parallel_threshold = check_count(parallel_threshold, "parallel_threshold", lo=0)
        if num_players is not None:
            config["num_players"] = num_players
        self.game = game
        self.config = game.make_config(**config)
        self.spec = spec = game.spec_for(self.config)
        num_players = spec.num_seats
        self.num_envs = num_envs
        self.num_players = num_players
        self.num_actions = spec.num_actions
        self.observations = bool(observations)
        if num_threads is None:
            import numba
            num_threads = numba.config.NUMBA_NUM_THREADS
        self.num_threads = max(1, int(num_threads))
        self.parallel_threshold = parallel_threshold
        self.seed = seed

        B, A = num_envs, spec.num_actions
        self.states = game.new_states(B)
        # the same memory as bytes: row copies by memcpy (structured copies go field by field)
        self._state_bytes = self.states.view(np.uint8).reshape(B, self.states.dtype.itemsize)
        self.masks = np.zeros((B, A), dtype=MASK_DTYPE)
        self.counts = np.zeros(B, dtype=COUNT_DTYPE)
        self.to_play = np.zeros(B, dtype=PLAYER_DTYPE)
        self.obs = np.zeros((B, spec.obs_size), dtype=np.float32) if self.observations else None
        self.rewards = np.zeros((B, num_players), dtype=np.float32)
        self.terminated = np.zeros(B, dtype=bool)
        self.truncated = np.zeros(B, dtype=bool)
        self.decisions = np.zeros(B, dtype=np.int64)
        """Decisions taken in each row's current episode (0 after its reset)."""
        self._at_limit = np.zeros(B, dtype=bool)
        self._most = 0              # >= decisions.max(): the rows are looked at only once it reaches the limit
        self._limit = spec.decision_limit
        self._paid = np.zeros((B, num_players), dtype=np.float32)
        self._actions = np.zeros(B, dtype=ACTION_DTYPE)
        self._errors = np.zeros(B, dtype=ERROR_DTYPE)
        self._draws = np.zeros(B, dtype=np.float64)
        self._sampled = np.zeros(B, dtype=ACTION_DTYPE)
        self._arange = np.arange(B)
        self._has_reset = False

    # ------------------------------------------------------------------ API
    @property
    def parallel(self):
        """Whether :meth:`step` uses the parallel kernel."""
        return self.num_threads > 1 and self.num_envs >= self.parallel_threshold

    def reset(self, seed=None, seeds=None):
        """Start a new game in every row. Returns ``(obs, mask, to_play)``.

        ``seed`` (an int in ``0..2**64-1``) re-derives the per-game seeds
        (default: the constructor's); ``seeds`` (``B`` ints in ``0..2**64-1``:
        an unsigned, or non-negative signed, integer array, or a list of ints)
        gives each game's seed directly. Not both.
        """
        if seeds is not None:
            if seed is not None:
                raise ConfigError("give seed or seeds, not both")
            seeds = self._checked_seeds(seeds)
        else:
            seed = check_seed(seed, "seed")
            if seed is not None:
                self.seed = seed
            seeds = seed_sequence(0 if self.seed is None else self.seed, self.num_envs)
        self.states.view(np.uint8)[:] = 0
        self.game.reset(self.states, seeds, self.config)
        self.decisions[:] = 0
        self._most = 0
        self._refresh_all()
        self._has_reset = True
        return self.obs, self.masks, self.to_play

    def step(self, actions):
        """One decision in every game (see the module docstring for the outputs)."""
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        self._check_actions(actions)
        acts = self._actions
        parallel = self.parallel
        if parallel:
            self._set_threads()
        errors = self._errors
        errors[:] = 0
        self.game.vec_step(self.states, acts, self.masks, self.counts, errors,
                           self.obs, parallel)
        if errors.any():  # cannot happen after _check_actions unless a game's masks are inexact
            b = int(np.flatnonzero(errors)[0])
            raise RuntimeError(f"{self.spec.name}: game {b} rejected action {int(acts[b])} that its "
                               f"mask allowed: {self.game.error_message(int(errors[b]))}")
        st = self.states
        self.decisions += acts >= 0
        self._most += 1
        if self._limit and self._most >= self._limit:
            self._end_at_limit()
        status = st["status"]
        np.equal(status, STATUS_TERMINATED, out=self.terminated)
        np.equal(status, STATUS_TRUNCATED, out=self.truncated)
        now = st["rewards"][:, :self.num_players]
        np.subtract(now, self._paid, out=self.rewards)
        self._paid[:] = now
        info = {}
        if self.terminated.any() or self.truncated.any():
            info = self._auto_reset(np.flatnonzero(status != STATUS_RUNNING))
        np.copyto(self.to_play, st["to_play"])
        return self.obs, self.masks, self.rewards, self.terminated, self.truncated, self.to_play, info

    def _end_at_limit(self):
        """End, truncated, every running game that has reached ``spec.decision_limit``."""
        np.greater_equal(self.decisions, self._limit, out=self._at_limit)
        for b in np.flatnonzero(self._at_limit).tolist():
            if int(self.states[b]["status"]) == STATUS_RUNNING:
                end_at_decision_limit(self.states[b:b + 1], self.num_players, self.spec.utility)
                self.decisions[b] = 0                 # its episode ends here; the auto-reset starts the next
        self._most = int(self.decisions.max())

    def sample_actions(self, rng, out=None):
        """A uniformly random legal action for every game (int32 ``[B]``), drawn
        from the numpy Generator ``rng``; a fast random policy for benchmarks."""
        rng.random(out=self._draws)
        out = self._sampled if out is None else out
        sample_legal(self.masks, self.counts, self._draws, out)
        return out

    # --------------------------------------------------- snapshots
    def clone(self):
        """A snapshot of the whole batch (independent copies)."""
        return {"states": self.states.copy(), "paid": self._paid.copy(), "seed": self.seed,
                "decisions": self.decisions.copy()}

    def restore(self, snapshot):
        """Continue from :meth:`clone`'s snapshot. Returns ``(obs, mask, to_play)``.

        Every record is checked first (dtype, shape, seats, ``game.check_state``)
        and so are the paid rewards, the seed and the decision counts (a
        snapshot without them counts from 0); an unsound snapshot raises
        :class:`InvalidStateError` naming the first bad game, and the batch is
        left byte for byte as it was."""
        if not isinstance(snapshot, dict) or "states" not in snapshot or "paid" not in snapshot:
            raise InvalidStateError("a snapshot is the dict clone() returns, with 'states' and 'paid'")
        states = snapshot["states"]
        name, B, P = self.spec.name, self.num_envs, self.num_players
        if not isinstance(states, np.ndarray) or states.dtype != self.states.dtype \
                or states.shape != self.states.shape:
            raise InvalidStateError(f"{name}: snapshot['states'] is not a batch of {B} {name} records "
                                    f"(dtype {self.states.dtype}, shape ({B},))")
        checked = np.ascontiguousarray(states).copy()
        for b in range(B):
            try:
                checked_record(self.game, checked[b:b + 1], P, self.states.dtype)
            except InvalidStateError as e:
                raise InvalidStateError(f"game {b}: {e}") from None
        paid = np.asarray(snapshot["paid"])
        if paid.shape != (B, P) or paid.dtype.kind != "f" or not np.all(np.isfinite(paid)):
            raise InvalidStateError(f"{name}: snapshot['paid'] must be finite floats of shape ({B}, {P})")
        seed = snapshot.get("seed", self.seed)
        try:
            seed = check_seed(seed, "snapshot['seed']")
        except ConfigError as e:
            raise InvalidStateError(str(e)) from None
        decisions = np.asarray(snapshot.get("decisions", np.zeros(B, dtype=np.int64)))
        if decisions.shape != (B,) or decisions.dtype.kind not in "iu" or (B and int(decisions.min()) < 0):
            raise InvalidStateError(f"{name}: snapshot['decisions'] must be {B} counts (ints >= 0)")
        self._state_bytes[:] = checked.view(np.uint8).reshape(B, -1)
        self.seed = seed
        self.decisions[:] = decisions
        self._most = int(decisions.max()) if B else 0
        self._refresh_all()
        self._paid[:] = paid
        self._has_reset = True
        return self.obs, self.masks, self.to_play

    def clone_game(self, i):
        """A snapshot of game ``i`` (a 1-record array)."""
        i = self._index(i)
        return self.states[i:i + 1].copy()

    def restore_game(self, i, record):
        """Put the snapshot ``record`` (from :meth:`clone_game`) into row ``i``.

        The record is checked first (dtype, shape, seats, ``game.check_state``);
        an unsound one raises :class:`InvalidStateError` and the batch is left
        byte for byte as it was."""
        i = self._index(i)
        checked = checked_record(self.game, record, self.num_players, self.states.dtype)
        self._state_bytes[i] = checked.view(np.uint8)
        self.decisions[i] = 0                         # the record does not say how many it took
        self._refresh_rows(np.array([i]), checked)
        self._has_reset = True

    def action_to_string(self, i, action):
        """Readable name of ``action`` in game ``i``'s position."""
        return self.game.action_to_string(self.states[self._index(i):self._index(i) + 1], int(action))

    def close(self):
        pass

    # ------------------------------------------------------------ internals
    def __getstate__(self):
        # pickling would turn the byte view into a copy detached from the states
        return {k: v for k, v in self.__dict__.items() if k != "_state_bytes"}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._state_bytes = self.states.view(np.uint8).reshape(self.num_envs, self.states.dtype.itemsize)

    def _index(self, i):
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, numbers.Integral):
            raise IndexError(f"game index must be an int, got {describe(i)}")
        i = int(i)
        if not 0 <= i < self.num_envs:
            raise IndexError(f"game index {i} outside 0..{self.num_envs - 1}")
        return i

    def _set_threads(self):
        import numba
        numba.set_num_threads(min(self.num_threads, numba.config.NUMBA_NUM_THREADS))

    def _refresh_all(self):
        self._refresh_rows(None)

    def _rows(self, idx):
        """A copy of the records of rows ``idx`` (by bytes)."""
        return self._state_bytes[idx].copy().view(self.states.dtype).reshape(len(idx))

    def _refresh_rows(self, idx, sub=None):
        """Recompute mask, count, to_play, obs and paid rewards of rows ``idx`` (all if
        None); ``sub`` is a copy of those rows when the caller has one."""
        if idx is None:
            st, masks = self.states, self.masks
            self.game.legal_mask(st, masks)
            self.counts[:] = masks.sum(axis=1)
            self.to_play[:] = st["to_play"]
            self._paid[:] = st["rewards"][:, :self.num_players]
            if self.observations:
                self.game.vec_observe(st, np.maximum(st["to_play"], 0).astype(PLAYER_DTYPE), self.obs,
                                      self.parallel)
            return
        if sub is None:
            sub = self._rows(idx)
        masks = np.zeros((len(idx), self.num_actions), dtype=MASK_DTYPE)
        self.game.legal_mask(sub, masks)
        self.masks[idx] = masks
        self.counts[idx] = masks.sum(axis=1)
        self.to_play[idx] = sub["to_play"]
        self._paid[idx] = sub["rewards"][:, :self.num_players]
        if self.observations:
            obs = np.zeros((len(idx), self.spec.obs_size), dtype=np.float32)
            self.game.observe(sub, np.maximum(sub["to_play"], 0).astype(PLAYER_DTYPE), obs)
            self.obs[idx] = obs

    def _auto_reset(self, idx):
        final = self._rows(idx)                       # a copy
        D, P = len(idx), self.num_players
        info = {"done_index": idx, "final_state": final,
                "final_rewards": final["rewards"][:, :P].copy(),
                "final_status": final["status"].copy(), "final_obs": None}
        if self.observations:
            fo = np.zeros((D, P, self.spec.obs_size), dtype=np.float32)
            tmp = np.zeros((D, self.spec.obs_size), dtype=np.float32)
            for p in range(P):
                self.game.observe(final, np.full(D, p, dtype=PLAYER_DTYPE), tmp)
                fo[:, p] = tmp
            info["final_obs"] = fo
        fresh = self.game.new_states(D)
        self.game.reset(fresh, next_seeds(final["seed"]), self.config)
        self._state_bytes[idx] = fresh.view(np.uint8).reshape(D, -1)
        self.decisions[idx] = 0
        self._refresh_rows(idx, fresh)
        return info

    def _checked_seeds(self, seeds):
        """``seeds`` as uint64 ``[B]``, or ConfigError naming the first bad entry."""
        B = self.num_envs
        if isinstance(seeds, (list, tuple)):
            # each entry on its own: numpy would turn [0, 2**64 - 1] into floats
            if len(seeds) != B:
                raise ConfigError(f"seeds must have shape ({B},), got ({len(seeds)},)")
            return np.array([check_seed(s, f"seeds[{b}]") for b, s in enumerate(seeds)], dtype=np.uint64)
        if not isinstance(seeds, np.ndarray):
            raise ConfigError(f"seeds must be {B} ints in 0..2**64-1 (an array or list), "
                              f"got {describe(seeds)}")
        arr = seeds
        if arr.shape != (B,):
            raise ConfigError(f"seeds must have shape ({B},), got {arr.shape}")
        if arr.dtype.kind == "O":       # Python ints of any size: check each one
            return np.array([check_seed(s, f"seeds[{b}]") for b, s in enumerate(arr)], dtype=np.uint64)
        if arr.dtype.kind not in "iu":
            raise ConfigError(f"seeds must be integers in 0..2**64-1, got dtype {arr.dtype}")
        if arr.dtype.kind == "i" and B and int(arr.min()) < 0:
            b = int(np.argmin(arr))
            raise ConfigError(f"seeds[{b}] must be an int in 0..2**64-1, got {int(arr[b])}")
        return arr.astype(np.uint64)

    def _check_actions(self, actions):
        """Validate everything before anything is applied; fills ``self._actions``
        (-1 for a game left alone)."""
        name, B, A = self.spec.name, self.num_envs, self.num_actions
        if isinstance(actions, (list, tuple)):
            actions = np.asarray(actions)
        if not isinstance(actions, np.ndarray):
            raise ValueError(f"{name}: actions must be an integer array of shape ({B},), "
                             f"got {type(actions).__name__}; no game was stepped")
        if actions.shape != (B,):
            raise ValueError(f"{name}: actions must have shape ({B},), got {actions.shape}; "
                             "no game was stepped")
        if actions.dtype.kind not in "iu":     # bools are kind "b", floats "f"
            raise ValueError(f"{name}: actions must be integers, got dtype {actions.dtype}; "
                             "no game was stepped")
        # compared in the array's own dtype, so no value wraps: a uint64 2**63
        # stays huge and an int64 -(2**32)+195 stays negative
        alone = actions < 0
        too_big = actions >= A
        in_range = ~(alone | too_big)
        where_in = np.where(in_range, actions, 0).astype(np.intp)
        not_legal = in_range & (self.masks[self._arange, where_in] == 0)
        bad = too_big | not_legal
        if bad.any():
            where = np.flatnonzero(bad)
            b = int(where[0])
            a = int(actions[b])
            if a >= A:
                why = f"outside 0..{A - 1}"
            else:
                try:
                    why = f"({self.action_to_string(b, a)}) not legal in its position"
                except Exception:  # the name only decorates the message
                    why = "not legal in its position"
            more = f" (and {len(where) - 1} other game(s))" if len(where) > 1 else ""
            error = IllegalActionError(f"{name}: game {b}: action {a} {why}{more}; no game was stepped")
            error.game_index = b        # callers that know who chose the action name them
            raise error
        np.copyto(self._actions, np.where(in_range, where_in, -1), casting="unsafe")


def checked_record(game, record, num_players, dtype):
    """``record`` as a fresh contiguous 1-record array, after the checks every
    restore makes before anything is copied in: an array of ``dtype`` holding
    one record, a ``num_players``-seat game, then ``game.check_state``.
    Raises :class:`InvalidStateError` naming what is wrong."""
    name = game.name
    if isinstance(record, np.void):      # one record taken out of an array
        record = np.asarray(record)
    if not isinstance(record, np.ndarray):
        raise InvalidStateError(f"{name}: expected a record array of dtype {dtype}, got "
                                f"{type(record).__name__}")
    if record.dtype != dtype or record.shape not in ((1,), ()):
        raise InvalidStateError(f"{name}: expected one record of dtype {dtype} (shape (1,)), got "
                                f"dtype {record.dtype} shape {record.shape}")
    checked = np.ascontiguousarray(record.reshape(1)).copy()
    seats = int(checked["num_players"][0])
    if seats != num_players:
        raise InvalidStateError(f"{name}: the record is a {seats}-seat game; this env plays "
                                f"{num_players} seats")
    # before the game's own checks: they may trust the fields these bound
    problem = check_common_fields(checked, dtype) or float_field_problem(game, checked) \
        or game.check_state(checked)
    if problem:
        raise InvalidStateError(f"{name}: refused an unsound record: {problem}")
    return checked
