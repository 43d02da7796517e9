"""The PettingZoo ``AECEnv`` over any :class:`dragongym.envs.core.game.Game`, written once.

One game lives in a 1-record state array and every call goes through the
game's batched methods with ``B = 1``; the adapter holds no rules. What it adds
is PettingZoo's bookkeeping:

=====================  =====================================================
agents                 ``player_0 .. player_{n-1}``; ``player_i`` sits in seat i
action space           ``Discrete(A)``, ``A = game.spec.num_actions``
observation space      ``Dict(observation=Box(float32, (obs_size,)),
                       action_mask=Box(0, 1, (A,), int8))``; the observation is
                       the game from that agent's seat (what it may know, its
                       seat rotated to 0); the mask is all zeros for agents not
                       on move
rewards                the change of the record's ``rewards`` field since the
                       previous step (games write final rewards only, so a
                       game pays out once, when it ends)
terminations           the record's ``status`` is terminated
truncations            the record's ``status`` is truncated (the game's limit)
illegal actions        raise :class:`IllegalActionError` naming the action and
                       the game's reason; the state is left byte for byte as it
                       was (wrap the env for another policy)
=====================  =====================================================

Seeding: ``reset(seed=s)`` starts game seed ``seed_sequence(s, 1)[0]``, so the
whole episode is a function of ``s`` and the actions. ``reset()`` without a seed
draws the next game seed from a generator seeded once (by the ``seed`` given to
the constructor, or from the OS when that is None).
"""
# jitcache: no compiled code
import operator

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from dragongym.envs.core.game import STATUS_RUNNING, STATUS_TERMINATED, STATUS_TRUNCATED, IllegalActionError
from dragongym.envs.core.rng import seed_sequence

ACTION_DTYPE = np.int32
"""dtype of the action array handed to ``Game.step``."""
ERROR_DTYPE = np.int8
"""dtype of the error array handed to ``Game.step`` (same as the record's ``error``)."""
PLAYER_DTYPE = np.int8
"""dtype of the observer array handed to ``Game.observe``."""


class GameAECEnv(AECEnv):
    """PettingZoo AEC environment playing one game of ``game``.

    Args:
        game: the :class:`dragongym.envs.core.game.Game` instance (see ``dragongym.get_game``).
        num_players: seats in play; defaults to ``game.spec.min_players``.
        render_mode: None, ``"ansi"`` (``render()`` returns the game's text
            picture) or ``"rgb_array"`` (an ``H x W x 3`` uint8 image; only for
            games that define ``render_rgb(state)``).
        seed: seeds the generator behind ``reset()`` without a seed.
        **config: the game's options, validated by ``game.make_config`` together
            with ``num_players``.

    A game may set ``obs_bounds = (low, high)`` to bound its observation Box;
    the default is unbounded.
    """

    def __init__(self, game, num_players=None, render_mode=None, seed=None, **config):
        super().__init__()
        if num_players is not None:
            config["num_players"] = num_players
        self.game = game
        self.config = game.make_config(**config)
        self.spec = spec = game.spec_for(self.config)
        self.num_players = num_players = spec.num_seats

        render_modes = ["ansi"]
        if callable(getattr(game, "render_rgb", None)):
            render_modes.append("rgb_array")
        self.metadata = {"name": f"{spec.name}_v{spec.version}", "render_modes": render_modes,
                         "is_parallelizable": False}
        if render_mode is not None and render_mode not in render_modes:
            raise ValueError(f"render_mode {render_mode!r} is not available for {spec.name}; "
                             f"choose from {render_modes}")
        self.render_mode = render_mode

        self.possible_agents = list(spec.roles)
        self._seat_of = {agent: i for i, agent in enumerate(self.possible_agents)}
        low, high = game.obs_bounds
        num_actions = spec.num_actions
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(low, high, (spec.obs_size,), np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(num_actions) for agent in self.possible_agents}

        self._states = game.new_states(1)
        # field views of the one record, made once: the array is only ever
        # written in place, so they stay valid (structured access is slow)
        self._rewards_view = self._states["rewards"][0, :self.num_players]
        self._status_view = self._states["status"]
        self._to_play_view = self._states["to_play"]
        self._actions = np.zeros(1, dtype=ACTION_DTYPE)
        self._errors = np.zeros(1, dtype=ERROR_DTYPE)
        self._observers = np.zeros(1, dtype=PLAYER_DTYPE)
        self._obs = np.zeros((1, spec.obs_size), dtype=np.float32)
        self._mask = np.zeros((1, num_actions), dtype=np.int8)
        self._paid = np.zeros(num_players, dtype=np.float32)  # rewards already handed out
        self._seed_rng = np.random.default_rng(seed)
        self._has_reset = False

    # --- PettingZoo API ------------------------------------------------------

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        """Start a new game; ``seed`` makes it reproducible (see module docstring)."""
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
            game_seed = seed_sequence(seed, 1)[0]
        else:
            game_seed = self._seed_rng.integers(0, 2**64, dtype=np.uint64)
        self._states.view(np.uint8)[:] = 0
        self.game.reset(self._states, np.array([game_seed], dtype=np.uint64), self.config)
        self._has_reset = True
        self._rebuild_bookkeeping()

    def step(self, action):
        """Apply ``action`` for ``agent_selection`` (``None`` for a finished agent)."""
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = self._check_action(agent, action)
        # a byte snapshot (a plain memcpy; copying a structured record field
        # by field costs tens of microseconds) guards the contract that a
        # rejected action leaves the state untouched
        before = self._states.view(np.uint8).copy()
        self._actions[0] = a
        self._errors[0] = 0
        self.game.step(self._states, self._actions, self._errors)
        code = int(self._errors[0])
        if code:
            self._states.view(np.uint8)[:] = before
            raise IllegalActionError(
                f"{agent}: illegal action {a} ({self._action_text(a)}): {self.game.error_message(code)}")

        self._cumulative_rewards[agent] = 0
        now = self._rewards_view.copy()
        delta = now - self._paid
        self._paid = now
        for other in self.agents:
            self.rewards[other] = float(delta[self._seat_of[other]])
        self._sync_status()
        self._accumulate_rewards()

    def observe(self, agent):
        """``{"observation": float32[obs_size], "action_mask": int8[A]}`` for ``agent``."""
        seat = self._seat_of[agent]
        self._observers[0] = seat
        self.game.observe(self._states, self._observers, self._obs)
        if int(self._status_view[0]) == STATUS_RUNNING and int(self._to_play_view[0]) == seat:
            self.game.legal_mask(self._states, self._mask)
            mask = self._mask[0].copy()
        else:
            mask = np.zeros(self.spec.num_actions, dtype=np.int8)
        return {"observation": self._obs[0].copy(), "action_mask": mask}

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called with render_mode None; pass render_mode='ansi' "
                                  "or 'rgb_array' to the constructor")
            return None
        if self.render_mode == "ansi":
            return self.game.render_ansi(self._states)
        return self.game.render_rgb(self._states)

    def close(self):
        pass

    # --- state access (search agents, save/load, replays) -------------------

    @property
    def state_record(self):
        """The live 1-record state array (a view: do not write to it mid-game)."""
        return self._states

    def clone_state(self):
        """A snapshot of the current game (an independent 1-record array)."""
        return self._states.copy()

    def restore_state(self, record):
        """Continue from a snapshot taken by :meth:`clone_state` (or ``state_record``).

        PettingZoo bookkeeping restarts there: all seats are agents again, no
        reward is pending, terminations/truncations follow the record's status.
        """
        record = np.asarray(record)
        if record.dtype != self._states.dtype or record.shape not in ((1,), ()):
            raise ValueError(f"expected a record of dtype {self._states.dtype} and shape (1,)")
        if int(record.reshape(1)["num_players"][0]) != self.num_players:
            raise ValueError("the record is for a different number of players")
        self._states[...] = record.reshape(1)
        self._has_reset = True
        self._rebuild_bookkeeping()

    def action_to_string(self, action):
        """Readable name of ``action`` in the current position."""
        return self.game.action_to_string(self._states, int(action))

    def string_to_action(self, text):
        """The legal action named ``text`` in the current position."""
        return self.game.string_to_action(self._states, text)

    # --- internals -----------------------------------------------------------

    def _rebuild_bookkeeping(self):
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos = {agent: {} for agent in self.agents}
        self._paid = self._rewards_view.copy()
        self._skip_agent_selection = None
        self.agent_selection = self.agents[0]
        self._sync_status()

    def _sync_status(self):
        """Point ``agent_selection`` at the seat to play, or mark the game over."""
        status = int(self._status_view[0])
        if status == STATUS_RUNNING:
            seat = int(self._to_play_view[0])
            if not 0 <= seat < self.num_players:
                raise RuntimeError(f"{self.spec.name}: running game has to_play={seat}")
            self.agent_selection = self.possible_agents[seat]
            return
        if status not in (STATUS_TERMINATED, STATUS_TRUNCATED):
            raise RuntimeError(f"{self.spec.name}: unknown status {status}")
        for agent in self.agents:
            self.terminations[agent] = status == STATUS_TERMINATED
            self.truncations[agent] = status == STATUS_TRUNCATED

    def _check_action(self, agent, action):
        try:
            a = operator.index(action)
        except TypeError:
            raise IllegalActionError(f"{agent}: action must be an integer, got {action!r}") from None
        if not 0 <= a < self.spec.num_actions:
            raise IllegalActionError(
                f"{agent}: action {a} is outside 0..{self.spec.num_actions - 1}")
        return a

    def _action_text(self, action):
        try:
            return self.game.action_to_string(self._states, action)
        except Exception:  # the name is only decoration on the error message
            return "?"
