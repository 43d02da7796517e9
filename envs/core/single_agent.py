"""A single-agent Gymnasium env over any :class:`dragongym.envs.core.game.Game`, written once.

For Stable-Baselines3 / sb3-contrib ``MaskablePPO``: one learner takes a seat
(a random seat each episode unless ``seat`` is fixed) and the opponents move
inside :meth:`step` until it is the learner's turn again or the game is over.

=====================  =====================================================
observation space      ``Box(float32, (obs_size,))``: the game from the
                       learner's seat (what it may know, its seat rotated to 0)
action space           ``Discrete(A)``
``action_masks()``     int8 ``[A]``: the learner's legal actions (all zero once
                       the game is over), for ``MaskablePPO``
reward                 what the learner's seat earned during the step
                       (its own move and the opponents' replies)
terminated/truncated   the game ended by the rules / hit its limit
info                   ``seat`` (the learner's), ``to_play``, and
                       ``illegal_action: True`` on a penalised illegal action
=====================  =====================================================

Opponents: ``None`` (uniform random legal play), one opponent for every other
seat, or a list with one per other seat (in seat order, the learner's seat
skipped). An opponent is any object with ``act(obs, mask, rng) -> action``
(every agent of ``agents/``; its ``reset()`` is called before each game) or a
callable ``(obs, mask) -> action``; an agent with ``uses_state`` set is
called as ``act_state(game, state, seat, rng)`` instead (heuristics, search).
Swap them between episodes with
:meth:`SingleAgentEnv.set_opponents` (self-play leagues). This module imports
no agents and no torch: opponents come in as objects.

Illegal learner actions: ``illegal_action="raise"`` (default) raises
:class:`dragongym.envs.core.game.IllegalActionError` and leaves the game as it was;
``"penalty"`` returns ``illegal_penalty`` as the reward with the game left as
it was (and ends the episode, truncated, if ``illegal_ends_episode``).
Gymnasium's ``check_env`` steps unmasked random actions: check with "penalty".
"""
# jitcache: no compiled code
import operator

import gymnasium
import numpy as np
from gymnasium import spaces

from dragongym.envs.core.config import check_count, check_seed
from dragongym.envs.core.game import (
    STATUS_RUNNING, STATUS_TERMINATED, STATUS_TRUNCATED, IllegalActionError, action_int, one_game_buffers,
)

_MAX_RESTARTS = 1000


class _RandomOpponent:
    """Uniform random legal play (the default opponent)."""

    def act(self, obs, mask, rng):
        return int(rng.choice(np.flatnonzero(mask)))


class SingleAgentEnv(gymnasium.Env):
    """One learner against in-env opponents (see the module docstring).

    Args:
        game: the :class:`Game` object.
        opponents: None, one opponent, or a list with one per other seat.
        seat: the learner's fixed seat (an int in ``0..n-1``), or None for a
            random seat each episode.
        num_players: seats; default: ``len(opponents) + 1`` for a list (where
            the game has a ``num_players`` option), else the game's default
            configuration.
        illegal_action: ``"raise"`` or ``"penalty"``.
        illegal_penalty: reward of an illegal action under ``"penalty"``.
        illegal_ends_episode: under ``"penalty"``, end the episode (truncated).
        render_mode: None, ``"ansi"`` (the text picture) or, for games that
            draw pictures, ``"rgb_array"`` (the learner's view as an
            ``H x W x 3`` uint8 image).
        **config: the game's options.

    Attributes:
        game_spec: the :class:`dragongym.envs.core.spec.GameSpec` of the
            configuration played (``spec`` stays Gymnasium's ``EnvSpec``).
    """

    def __init__(self, game, opponents=None, seat=None, num_players=None, illegal_action="raise",
                 illegal_penalty=-1.0, illegal_ends_episode=False, render_mode=None, **config):
        if num_players is None and isinstance(opponents, (list, tuple)) and \
                "num_players" in getattr(game.config_cls, "__dataclass_fields__", {}):
            num_players = len(opponents) + 1
        if num_players is not None:
            config["num_players"] = num_players
        self.config = game.make_config(**config)
        # ``spec`` is Gymnasium's (its EnvSpec, None unless made by gymnasium.make);
        # the game's description of this configuration is ``game_spec``
        self.game_spec = spec = game.spec_for(self.config)
        num_players = spec.num_seats
        if seat is not None:
            seat = check_count(seat, "seat", lo=0, hi=num_players - 1)
        if illegal_action not in ("raise", "penalty"):
            raise ValueError(f"illegal_action must be 'raise' or 'penalty', got {illegal_action!r}")
        render_modes = ["ansi", "rgb_array"] if game.has_pictures else ["ansi"]
        if render_mode is not None and render_mode not in render_modes:
            raise ValueError(f"render_mode must be None or one of {render_modes}, got {render_mode!r}")
        self.game = game
        self.num_players = num_players
        self.fixed_seat = None if seat is None else int(seat)
        self.illegal_action = illegal_action
        self.illegal_penalty = float(illegal_penalty)
        self.illegal_ends_episode = bool(illegal_ends_episode)
        self.render_mode = render_mode
        self.metadata = {"render_modes": render_modes, "name": f"{spec.name}_v{spec.version}"}
        low, high = game.obs_bounds
        self.observation_space = spaces.Box(low, high, (spec.obs_size,), np.float32)
        self.action_space = spaces.Discrete(spec.num_actions)

        (self._states, self._actions, self._errors, self._players, self._obs,
         self._mask) = one_game_buffers(game, spec)
        self.seat = 0
        self._paid = 0.0
        self._has_reset = False
        self._ended_by_illegal_action = False   # the penalty mode ended the episode: it is over
        self.set_opponents(opponents)

    # ------------------------------------------------------------- opponents
    def set_opponents(self, opponents):
        """Replace the opponents (takes effect at once; best between episodes)."""
        n_other = self.num_players - 1
        if opponents is None:
            opponents = [_RandomOpponent()] * n_other
        elif not isinstance(opponents, (list, tuple)):
            opponents = [opponents] * n_other
        opponents = list(opponents)
        if len(opponents) != n_other:
            raise ValueError(f"{len(opponents)} opponents for {n_other} other seat(s)")
        for o in opponents:
            if not (callable(getattr(o, "act", None)) or callable(o)):
                raise TypeError(f"an opponent must have act(obs, mask, rng) or be callable "
                                f"(obs, mask) -> action; got {o!r}")
        self.opponents = opponents

    def _opponent_of(self, seat):
        return self.opponents[seat if seat < self.seat else seat - 1]

    # ----------------------------------------------------------- gymnasium
    def reset(self, *, seed=None, options=None):
        """Start an episode; ``seed`` (an int in ``0..2**64-1`` or None) seeds
        the env's generator (seat, game seed, random opponents)."""
        super().reset(seed=check_seed(seed, "seed"))
        for _ in range(_MAX_RESTARTS):
            self.seat = (self.fixed_seat if self.fixed_seat is not None
                         else int(self.np_random.integers(self.num_players)))
            game_seed = self.np_random.integers(0, 2**63, dtype=np.uint64)
            self._states.view(np.uint8)[:] = 0
            self.game.reset(self._states, np.array([game_seed], dtype=np.uint64), self.config)
            for o in {id(o): o for o in self.opponents}.values():
                if callable(getattr(o, "reset", None)) and callable(getattr(o, "act", None)):
                    o.reset()
            self._paid = float(self._rec["rewards"][self.seat])
            self._play_opponents()
            if self._status == STATUS_RUNNING:
                break
        else:
            raise RuntimeError(f"{self.game_spec.name}: {_MAX_RESTARTS} games in a row ended "
                               f"before seat {self.seat} had a decision")
        self._has_reset = True
        self._ended_by_illegal_action = False
        return self._observe(), self._info()

    def step(self, action):
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        if self._status != STATUS_RUNNING or self._ended_by_illegal_action:
            raise RuntimeError("the episode is over; call reset()")
        a = action_int(action)
        if a is None:
            raise IllegalActionError(f"action must be an integer, got {action!r}")
        mask = self.action_masks()
        if not (0 <= a < mask.shape[0] and mask[a]):
            if self.illegal_action == "raise":
                raise IllegalActionError(f"seat {self.seat}: illegal action {a} "
                                         f"({self._action_text(a)}); the game is unchanged")
            info = self._info()
            info["illegal_action"] = True
            # ending the episode (truncated) ends it: every later step raises until reset()
            self._ended_by_illegal_action = self.illegal_ends_episode
            return (self._observe(), self.illegal_penalty, False, self.illegal_ends_episode, info)
        self._apply(a)
        self._play_opponents()
        now = float(self._rec["rewards"][self.seat])
        reward, self._paid = now - self._paid, now
        status = self._status
        return (self._observe(), reward, status == STATUS_TERMINATED, status == STATUS_TRUNCATED,
                self._info())

    def action_masks(self):
        """The learner's legal actions (int8 ``[A]``; all zero when not its turn)."""
        if not self._has_reset:
            raise RuntimeError(f"{self.game_spec.name}: call reset() before action_masks()")
        if self._status == STATUS_RUNNING and int(self._rec["to_play"]) == self.seat \
                and not self._ended_by_illegal_action:
            self.game.legal_mask(self._states, self._mask)
            return self._mask[0].copy()
        return np.zeros(self.game_spec.num_actions, dtype=np.int8)

    def render(self):
        """The text picture (``render_mode="ansi"``) or the learner's view as
        an image (``"rgb_array"``) of the position; None without a render mode."""
        if self.render_mode is None:
            return None
        if not self._has_reset:
            raise RuntimeError(f"{self.game_spec.name}: call reset() before render()")
        if self.render_mode == "ansi":
            return self.game.render_ansi(self._states)
        return self.game.render_rgb(self._states, self.seat)

    def close(self):
        pass

    @property
    def states(self):
        """The game's state record as a one-record array: a live view, for
        reading (outcomes, shaping potentials); write through ``step`` only."""
        return self._states

    # ------------------------------------------------------------ internals
    @property
    def _rec(self):
        return self._states[0]

    @property
    def _status(self):
        return int(self._states["status"][0])

    def _observe(self):
        self._players[0] = self.seat
        self.game.observe(self._states, self._players, self._obs)
        return self._obs[0].copy()

    def _info(self):
        return {"seat": self.seat, "to_play": int(self._rec["to_play"])}

    def _apply(self, a):
        self._actions[0] = a
        self._errors[0] = 0
        before = self._states.view(np.uint8).copy()   # a byte snapshot: a plain memcpy
        self.game.step(self._states, self._actions, self._errors)
        if self._errors[0]:
            self._states.view(np.uint8)[:] = before
            raise IllegalActionError(f"illegal action {a} ({self._action_text(a)}): "
                                     f"{self.game.error_message(int(self._errors[0]))}")

    def _play_opponents(self):
        while self._status == STATUS_RUNNING:
            p = int(self._rec["to_play"])
            if p == self.seat:
                return
            self._players[0] = p
            self.game.observe(self._states, self._players, self._obs)
            self.game.legal_mask(self._states, self._mask)
            obs, mask = self._obs[0].copy(), self._mask[0].copy()
            opponent = self._opponent_of(p)
            if getattr(opponent, "uses_state", False) and callable(getattr(opponent, "act_state", None)):
                # agents that read the state (heuristics, search) get it, as the
                # match and tournament runners give it (dragongym.agents.Agent.act_state)
                a = opponent.act_state(self.game, self._states, p, self.np_random)
            elif callable(getattr(opponent, "act", None)):
                a = opponent.act(obs, mask, self.np_random)
            else:
                a = opponent(obs, mask)
            try:
                a = operator.index(a)
            except TypeError:
                a = int(np.asarray(a).reshape(()))
            if not (0 <= a < mask.shape[0] and mask[a]):
                raise IllegalActionError(f"opponent in seat {p} chose illegal action {a} "
                                         f"({self._action_text(a)})")
            self._apply(a)

    def _action_text(self, a):
        try:
            return self.game.action_to_string(self._states, int(a))
        except Exception:
            return "?"
