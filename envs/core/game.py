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

    # Conveniences over one record, built on the batched methods.
    def mask_of(self, state):
        m = np.zeros((1, self.spec.num_actions), dtype=np.int8)
        self.legal_mask(state, m)
        return m[0]

    def observation_of(self, state, player):
        o = np.zeros((1, self.spec.obs_size), dtype=np.float32)
        self.observe(state, np.array([player], dtype=np.int8), o)
        return o[0]
