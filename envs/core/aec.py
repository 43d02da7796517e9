"""The PettingZoo ``AECEnv`` over any :class:`dragongym.envs.core.game.Game`, written once.

One game lives in a 1-record state array and every call goes through the
game's batched methods with ``B = 1``; the adapter holds no rules. What it adds
is PettingZoo's bookkeeping:

=====================  =====================================================
agents                 ``spec.roles`` of the configuration (``player_0 ..
                       player_{n-1}`` for interchangeable seats); agent ``i``
                       sits in seat i
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
order                  as PettingZoo's ``OrderEnforcingWrapper``:
                       ``observe``/``step``/``render``/``last`` and the
                       bookkeeping (``agents``, ``rewards``, ...) before
                       ``reset()`` raise a clear error, as do ``last()`` and
                       ``step()`` once every agent has left the finished game
                       and a name that is not an agent; ``observe(agent)``
                       after the game still gives each seat its final view
                       (with an all-zero mask)
ended by a wrapper     an agent whose ``terminations``/``truncations`` flag is
                       set (by the rules, or by a wrapper such as
                       ``TerminateIllegalWrapper`` that ends the game early)
                       gets an all-zero mask and its steps are dead steps
restore_state          checks the record (dtype, shape, seats, then
                       ``game.check_state``) before anything is copied in, and
                       refuses an unsound one with :class:`InvalidStateError`
=====================  =====================================================

Seeding: ``reset(seed=s)`` starts game seed ``seed_sequence(s, 1)[0]``, so the
whole episode is a function of ``s`` and the actions. ``reset()`` without a seed
draws the next game seed from a generator seeded once (by the ``seed`` given to
the constructor, or from the OS when that is None). Seeds are ints in
``0..2**64-1`` (``config.check_seed``): floats, bools, negative or larger ints
are refused, never reduced.
"""
# jitcache: no compiled code
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from dragongym.envs.core.config import check_seed
from dragongym.envs.core.game import (
    STATUS_RUNNING, STATUS_TERMINATED, STATUS_TRUNCATED, IllegalActionError, action_int,
)
from dragongym.envs.core.rng import seed_sequence
from dragongym.envs.core.vector import checked_record

ACTION_DTYPE = np.int32
"""dtype of the action array handed to ``Game.step``."""
ERROR_DTYPE = np.int8
"""dtype of the error array handed to ``Game.step`` (same as the record's ``error``)."""
PLAYER_DTYPE = np.int8
"""dtype of the observer array handed to ``Game.observe``."""

_BOOKKEEPING = frozenset({"agents", "num_agents", "rewards", "_cumulative_rewards", "terminations",
                          "truncations", "infos", "agent_selection"})
"""Attributes that exist only once ``reset()`` (or ``restore_state``) has run
(``num_agents`` is PettingZoo's property over ``agents``)."""


class GameAECEnv(AECEnv):
    """PettingZoo AEC environment playing one game of ``game``.

    Args:
        game: the :class:`dragongym.envs.core.game.Game` instance (see ``dragongym.get_game``).
        num_players: seats in play; None takes the game's default
            configuration (``game.make_config``).
        render_mode: None, ``"ansi"`` (``render()`` returns the game's text
            picture), ``"rgb_array"`` (an ``H x W x 3`` uint8 image; games
            that draw pictures, ``Game.has_pictures``) or ``"human"`` (the
            picture in a window where there is a screen; where there is none,
            a warning says so once and the text picture is printed).
        render_view: whose knowledge a picture (and the text picture) shows: ``"to_play"`` (the
            default: the seat to move, the PettingZoo observer; the full
            position once the game is over), ``"full"`` (everything, hidden
            cards and screened stacks included: replays, debugging), or one
            seat (its number or agent name).
        seed: seeds the generator behind ``reset()`` without a seed (an int in
            ``0..2**64-1`` or None).
        **config: the game's options, validated by ``game.make_config`` together
            with ``num_players``.

    A game may set ``obs_bounds = (low, high)`` to bound its observation Box;
    the default is unbounded.
    """

    def __init__(self, game, num_players=None, render_mode=None, seed=None, render_view="to_play",
                 **config):
        super().__init__()
        seed = check_seed(seed, "seed")
        if num_players is not None:
            config["num_players"] = num_players
        self.game = game
        self.config = game.make_config(**config)
        self.spec = spec = game.spec_for(self.config)
        self.num_players = num_players = spec.num_seats

        render_modes = ["ansi", "human"]
        if game.has_pictures:
            render_modes.append("rgb_array")
        self.metadata = {"name": f"{spec.name}_v{spec.version}", "render_modes": render_modes,
                         "is_parallelizable": False}
        if render_mode is not None and render_mode not in render_modes:
            raise ValueError(f"render_mode {render_mode!r} is not available for {spec.name}; "
                             f"choose from {render_modes}")
        self.render_mode = render_mode
        self.render_view = self._check_render_view(render_view, spec)
        self._window = None

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
        self._make_field_views()
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
        return self.observation_spaces[self.possible_agents[self._seat(agent)]]

    def action_space(self, agent):
        return self.action_spaces[self.possible_agents[self._seat(agent)]]

    def reset(self, seed=None, options=None):
        """Start a new game; ``seed`` makes it reproducible (see module docstring)."""
        seed = check_seed(seed, "seed")
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
        self._require_reset("step()")
        if not self.agents:
            raise RuntimeError(f"{self.spec.name}: the game is over and every agent has left it; "
                               "call reset() before step()")
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
        """``{"observation": float32[obs_size], "action_mask": int8[A]}`` for ``agent``.

        The mask is all zero unless ``agent`` is the one to play in a running
        game and no wrapper has ended the game for it (its ``terminations`` or
        ``truncations`` flag). After the game every seat can still observe its
        final view."""
        self._require_reset("observe()")
        seat = self._seat(agent)
        self._observers[0] = seat
        self.game.observe(self._states, self._observers, self._obs)
        # an agent that has left (dead-stepped) or whose flag a wrapper set is
        # out of the game even while the rules core still reports it running
        ended = (agent not in self.agents or self.terminations.get(agent, False)
                 or self.truncations.get(agent, False))
        if (not ended and int(self._status_view[0]) == STATUS_RUNNING
                and int(self._to_play_view[0]) == seat):
            self.game.legal_mask(self._states, self._mask)
            mask = self._mask[0].copy()
        else:
            mask = np.zeros(self.spec.num_actions, dtype=np.int8)
        return {"observation": self._obs[0].copy(), "action_mask": mask}

    def last(self, observe=True):
        """PettingZoo's ``last()``: what ``agent_selection`` sees and has earned.
        Refused, with a message saying so, before ``reset()`` and once every
        agent has left the finished game."""
        self._require_reset("last()")
        if not self.agents:
            raise RuntimeError(f"{self.spec.name}: the game is over and every agent has left it; "
                               "last() has no agent to report on; call reset()")
        return super().last(observe)

    def render(self):
        """The picture of the position: the text for ``"ansi"`` (returned) and
        ``"human"`` (printed; returns None), the image for ``"rgb_array"``."""
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called with render_mode None; pass render_mode='ansi', "
                                  "'human' or 'rgb_array' to the constructor")
            return None
        self._require_reset("render()")
        if self.render_mode == "ansi":
            return self.game.render_ansi(self._states, self._render_seat())
        if self.render_mode == "human":
            from dragongym.envs.core.picture import HumanWindow

            if self._window is None:
                self._window = HumanWindow(self.metadata["name"])
            image = None
            if self.game.has_pictures and self._window.display_available():
                image = self.game.render_rgb(self._states, self._render_seat())
            self._window.show(image, self.game.render_ansi(self._states, self._render_seat()))
            return None
        return self.game.render_rgb(self._states, self._render_seat())

    def _render_seat(self):
        """The observer of the next picture (None: the full position)."""
        if self.render_view == "to_play":
            seat = int(self._states[0]["to_play"])
            return seat if seat >= 0 else None
        return None if self.render_view == "full" else self.render_view

    @staticmethod
    def _check_render_view(view, spec):
        if isinstance(view, str) and view in ("to_play", "full"):
            return view
        if isinstance(view, str) and view in spec.roles:
            return spec.roles.index(view)
        if isinstance(view, (int, np.integer)) and not isinstance(view, bool) and 0 <= view < spec.num_seats:
            return int(view)
        raise ValueError(f"render_view must be 'to_play', 'full', a seat 0..{spec.num_seats - 1} or one "
                         f"of {list(spec.roles)}; got {view!r}")

    def close(self):
        if self._window is not None:
            self._window.close()
            self._window = None

    # --- state access (search agents, save/load, replays) -------------------

    @property
    def state_record(self):
        """The live state: a one-element structured numpy array (shape ``(1,)``,
        dtype ``game.dtype``); ``state_record[0]`` is the record. A view: do
        not write to it mid-game."""
        self._require_reset("state_record")
        return self._states

    def clone_state(self):
        """A snapshot of the current game: an independent one-element
        structured array of the game's dtype."""
        self._require_reset("clone_state()")
        return self._states.copy()

    def restore_state(self, record):
        """Continue from a snapshot taken by :meth:`clone_state` (or ``state_record``).

        The record is checked first: dtype and shape, its seat count against
        this env's, then ``game.check_state``. An unsound record raises
        :class:`InvalidStateError` saying what is wrong, and the live game is
        left byte for byte as it was. PettingZoo bookkeeping restarts at a
        sound one: all seats are agents again, no reward is pending,
        terminations/truncations follow the record's status.
        """
        checked = checked_record(self.game, record, self.num_players, self._states.dtype)
        self._states.view(np.uint8)[:] = checked.view(np.uint8)
        self._has_reset = True
        self._rebuild_bookkeeping()

    def action_to_string(self, action):
        """Readable name of ``action`` in the current position."""
        return self.game.action_to_string(self._states, int(action))

    def string_to_action(self, text):
        """The legal action named ``text`` in the current position."""
        return self.game.string_to_action(self._states, text)

    # --- internals -----------------------------------------------------------

    def __getattr__(self, name):
        # only reached when normal lookup fails: the bookkeeping before reset()
        if name in _BOOKKEEPING:
            raise AttributeError(f"{name} cannot be accessed before reset(); call reset() first")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _make_field_views(self):
        # field views of the one record, made once: the array is only ever
        # written in place, so they stay valid (structured access is slow)
        self._rewards_view = self._states["rewards"][0, :self.num_players]
        self._status_view = self._states["status"]
        self._to_play_view = self._states["to_play"]

    _FIELD_VIEWS = ("_rewards_view", "_status_view", "_to_play_view")

    def __getstate__(self):
        # pickling would turn the views into copies detached from the record
        return {k: v for k, v in self.__dict__.items() if k not in self._FIELD_VIEWS}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._make_field_views()

    def _require_reset(self, what):
        if not self._has_reset:
            raise RuntimeError(f"{self.spec.name}: call reset() before {what}")

    def _seat(self, agent):
        """The seat of agent name ``agent``; a clear error for any other name."""
        try:
            return self._seat_of[agent]
        except (KeyError, TypeError):
            raise ValueError(f"{self.spec.name}: {agent!r} is not an agent of this game; the agents "
                             f"are {', '.join(self.possible_agents)}") from None

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
        a = action_int(action)
        if a is None:
            raise IllegalActionError(f"{agent}: action must be an integer, got {action!r}")
        if not 0 <= a < self.spec.num_actions:
            raise IllegalActionError(
                f"{agent}: action {a} is outside 0..{self.spec.num_actions - 1}")
        return a

    def _action_text(self, action):
        try:
            return self.game.action_to_string(self._states, action)
        except Exception:  # the name is only decoration on the error message
            return "?"
