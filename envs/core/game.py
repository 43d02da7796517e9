"""The contract between a game's rules core and the generic adapters.

A game is a :class:`Game` object. Its state is one numpy structured record per
game; a batch is a structured array of shape ``(B,)``. Every game's dtype
carries these common fields, which the adapters read directly:

    seed         uint64   per-game seed of the counter-based RNG
    rng_counter  uint64   draws taken so far
    rewards      float32[max_players]  final rewards (0 until the game ends)
    num_players  int8
    to_play      int8     the one seat that must decide now (-1 once over)
    status       int8     0 running, 1 terminated, 2 truncated
    error        int8     code of the last rejected action (0 = none)

Batched methods take whole arrays and write into preallocated outputs; each
``b`` is independent of every other (same bytes alone or in any batch).
"""
import numpy as np

STATUS_RUNNING, STATUS_TERMINATED, STATUS_TRUNCATED = 0, 1, 2


class IllegalActionError(ValueError):
    """An action outside the legal mask; the state was left unchanged."""


class Game:
    """Base class; a game module subclasses it once and registers an instance."""

    spec = None          # GameSpec
    dtype = None         # numpy structured dtype of one state record
    config_cls = None    # dataclass of the game's options

    def make_config(self, **kwargs):
        """Validate keyword options into ``config_cls`` (raise ValueError with a clear message)."""
        return self.config_cls(**kwargs)

    def new_states(self, n):
        """``n`` zeroed records (zeroed so ``tobytes()`` is deterministic)."""
        return np.zeros(n, dtype=self.dtype)

    def reset(self, states, seeds, config):
        """Start a new game in every record, game ``b`` seeded by ``seeds[b]``."""
        raise NotImplementedError

    def step(self, states, actions, errors, parallel=False):
        """Apply ``actions[b]`` to game ``b`` (skip where ``actions[b] < 0``).

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

    # Optional fused fast path for the vector API (``envs.make_vec``).
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

    def render_ansi(self, state):
        """Text picture of the position ``state`` (a 1-record array)."""
        raise NotImplementedError

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

    # Conveniences over one record, built on the batched methods.
    def mask_of(self, state):
        m = np.zeros((1, self.spec.num_actions), dtype=np.int8)
        self.legal_mask(state, m)
        return m[0]

    def observation_of(self, state, player):
        o = np.zeros((1, self.spec.obs_size), dtype=np.float32)
        self.observe(state, np.array([player], dtype=np.int8), o)
        return o[0]
