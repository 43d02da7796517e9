"""A turn-based Ray RLlib ``MultiAgentEnv`` over any :class:`dragongym.envs.core.game.Game`.

    from dragongym.envs.core.rllib_env import GameMultiAgentEnv   # imports ray here
    env = GameMultiAgentEnv({"game": "dragonhunt", "game_options": {"num_players": 3}})

Importing this module is cheap and needs no Ray: the class is built (and
``ray.rllib`` imported) the first time ``GameMultiAgentEnv`` is looked up, so
``import dragongym.envs`` never needs the ``distributed`` extra. Without Ray
that lookup raises ImportError naming the extra.

=====================  =====================================================
agents                 the spec's ``roles`` of the configuration
                       (``player_0 .. player_{n-1}``, or faction names);
                       agent ``roles[i]`` sits in seat ``i``
observations           only the seat to move receives one, a
                       ``Dict(observations=Box(float32, (obs_size,)),
                       action_mask=Box(0, 1, (A,), float32))``; when the game
                       ends every seat receives a last one (mask all zero)
rewards                every seat's change of the record's ``rewards`` since
                       the previous step (the core's rewards: by default
                       terminal and rank-derived), or with ``reward="rank"``
                       / ``"score"`` the outcome's rank reward / own score,
                       paid when the game ends
terminateds/truncateds set for every seat and ``__all__`` when the game ends
infos                  at the end, ``{"outcome": {"result", "rank", "score",
                       "truncated"}}`` per seat, read from the record's ranks
                       (``dragongym.envs.core.outcome``), never from rewards
illegal actions        raise :class:`IllegalActionError`, or with
                       ``illegal_action="penalty"`` are refused with
                       ``illegal_penalty`` (state unchanged) and counted
=====================  =====================================================

``config`` (RLlib's ``env_config``) keys: ``game`` (registered id, required),
``game_options`` (the configuration's keyword options; ``num_players`` among
them for games that have it), ``reward`` (``"game"``, ``"rank"`` or
``"score"``), ``illegal_action``, ``illegal_penalty``, ``seed`` (with the env
runner's worker and vector index, seeds the stream of game seeds).
"""
# jitcache: no compiled code
import numpy as np

import dragongym
from dragongym.envs.core.game import STATUS_RUNNING, STATUS_TERMINATED, IllegalActionError, one_game_buffers
from dragongym.envs.core.outcome import outcome_of, rank_rewards
from dragongym.envs.core.rng import seed_sequence

REWARD_KINDS = ("game", "rank", "score")
"""What the seats are paid (see the module docstring)."""

COUNTERS = {"decisions": 0, "illegal_actions": 0}
"""Per process: decisions stepped and illegal actions met by every env here
(a trainer's callback reports them as metrics and zeroes them)."""

_MAX_RESTARTS = 1000


def game_and_spec(config):
    """``(game, game_config, spec)`` of an ``env_config`` dict."""
    if not config.get("game"):
        raise ValueError("env_config needs 'game', a registered game id")
    game = dragongym.get_game(config["game"])
    game_config = game.make_config(**dict(config.get("game_options") or {}))
    return game, game_config, game.spec_for(game_config)


def observation_space(game, spec):
    """The ``Dict(observations, action_mask)`` space of every seat of ``spec``."""
    from gymnasium import spaces
    low, high = getattr(game, "obs_bounds", (-np.inf, np.inf))
    return spaces.Dict({
        "observations": spaces.Box(low, high, (spec.obs_size,), np.float32),
        "action_mask": spaces.Box(0.0, 1.0, (spec.num_actions,), np.float32),
    })


class TurnBasedGame:
    """The RLlib env's behaviour, written without Ray (the class
    ``GameMultiAgentEnv`` puts it before RLlib's ``MultiAgentEnv``)."""

    def __init__(self, config=None):
        super().__init__()
        from gymnasium import spaces
        config = config if config is not None else {}
        game, self.game_config, spec = game_and_spec(config)
        self.game, self.game_spec = game, spec
        self.num_seats = spec.num_seats
        self.reward_kind = config.get("reward", "game")
        if self.reward_kind not in REWARD_KINDS:
            raise ValueError(f"reward must be one of {REWARD_KINDS}, not {self.reward_kind!r}")
        self.illegal_action = config.get("illegal_action", "raise")
        if self.illegal_action not in ("raise", "penalty"):
            raise ValueError(f"illegal_action must be 'raise' or 'penalty', not {self.illegal_action!r}")
        self.illegal_penalty = float(config.get("illegal_penalty", -1.0))

        self.agents = self.possible_agents = list(spec.roles)
        space = observation_space(game, spec)
        self.observation_spaces = {agent: space for agent in self.agents}
        self.action_spaces = {agent: spaces.Discrete(spec.num_actions) for agent in self.agents}

        seed = config.get("seed")
        stream = None if seed is None else [int(seed), int(getattr(config, "worker_index", 0)),
                                            int(getattr(config, "vector_index", 0))]
        self._seed_rng = np.random.default_rng(stream)
        # one game's buffers, reused by every call (B = 1 through the batched methods)
        (self._states, self._actions, self._errors, self._players, self._obs,
         self._mask) = one_game_buffers(game, spec)
        self._paid = np.zeros(self.num_seats, dtype=np.float32)
        self.illegal_actions = 0  # in this env's lifetime

    # -- RLlib API ---------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        if seed is not None:
            self._seed_rng = np.random.default_rng(seed)
        for attempt in range(_MAX_RESTARTS):
            if seed is not None and attempt == 0:
                game_seed = seed_sequence(seed, 1)[0]
            else:
                game_seed = self._seed_rng.integers(0, 2**64, dtype=np.uint64)
            self._states.view(np.uint8)[:] = 0
            self.game.reset(self._states, np.array([game_seed], dtype=np.uint64), self.game_config)
            if self._status == STATUS_RUNNING:
                break
        else:
            raise RuntimeError(f"{self.game_spec.name}: {_MAX_RESTARTS} games in a row ended "
                               "before the first decision")
        self._paid = self._rewards.copy()
        agent = self.agents[self._to_play]
        return {agent: self._observe(self._to_play)}, {}

    def step(self, action_dict):
        seat = self._to_play
        agent = self.agents[seat]
        if agent not in action_dict:
            raise ValueError(f"{agent} is to play but the actions are for {sorted(action_dict)}")
        action = int(action_dict[agent])
        COUNTERS["decisions"] += 1
        legal = 0 <= action < self._mask.shape[1] and self._mask[0, action] != 0
        if legal:
            self._actions[0] = action
            self._errors[0] = 0
            self.game.step(self._states, self._actions, self._errors)
            legal = self._errors[0] == 0  # the game refused it and left the state unchanged
        if not legal:
            self.illegal_actions += 1
            COUNTERS["illegal_actions"] += 1
            if self.illegal_action == "raise":
                raise IllegalActionError(f"{agent}: action {action} is not legal here "
                                         f"(error {int(self._errors[0])}); the mask was not respected")
            return ({agent: self._observe(seat)}, {agent: self.illegal_penalty},
                    {"__all__": False}, {"__all__": False}, {agent: {"illegal_action": True}})

        status = self._status
        now = self._rewards.copy()
        delta = now - self._paid
        self._paid = now
        if status == STATUS_RUNNING:
            if self.reward_kind != "game":
                delta[:] = 0.0
            rewards = {a: float(delta[i]) for i, a in enumerate(self.agents)}
            nxt = self._to_play
            return ({self.agents[nxt]: self._observe(nxt)}, rewards,
                    {"__all__": False}, {"__all__": False}, {})
        # the game is over: a last observation for every seat (RLlib drops seats
        # that never acted), all of them done, each told its outcome
        outcome = self.outcome()
        if self.reward_kind == "rank":
            delta = rank_rewards(outcome.ranks, outcome.utility)
        elif self.reward_kind == "score":
            delta = np.asarray(outcome.scores, dtype=np.float32)
        rewards = {a: float(delta[i]) for i, a in enumerate(self.agents)}
        obs = {a: self._observe(i) for i, a in enumerate(self.agents)}
        terminated = status == STATUS_TERMINATED
        terminateds = {a: terminated for a in self.agents}
        truncateds = {a: not terminated for a in self.agents}
        terminateds["__all__"] = terminated
        truncateds["__all__"] = not terminated
        results = outcome.results
        infos = {a: {"outcome": {"result": results[i], "rank": outcome.ranks[i],
                                 "score": outcome.scores[i], "truncated": outcome.truncated}}
                 for i, a in enumerate(self.agents)}
        return obs, rewards, terminateds, truncateds, infos

    def outcome(self):
        """The :class:`dragongym.envs.core.outcome.Outcome` of the finished game."""
        return outcome_of(self._states, self.num_seats, self.game_spec.utility)

    def render(self):
        return self.game.render_ansi(self._states)

    # -- internals ---------------------------------------------------------------
    @property
    def _status(self):
        return int(self._states["status"][0])

    @property
    def _to_play(self):
        return int(self._states["to_play"][0])

    @property
    def _rewards(self):
        return self._states["rewards"][0, :self.num_seats]

    def _observe(self, seat):
        self._players[0] = seat
        self.game.observe(self._states, self._players, self._obs)
        if self._status == STATUS_RUNNING and self._to_play == seat:
            self.game.legal_mask(self._states, self._mask)
            mask = self._mask[0].astype(np.float32)
        else:
            self._mask[:] = 0
            mask = np.zeros(self.game_spec.num_actions, dtype=np.float32)
        return {"observations": self._obs[0].copy(), "action_mask": mask}


_CLASS = {}


def multi_agent_env_class():
    """``GameMultiAgentEnv``: :class:`TurnBasedGame` on RLlib's ``MultiAgentEnv``
    (built once; imports ``ray.rllib``)."""
    cls = _CLASS.get("env")
    if cls is None:
        try:
            from ray.rllib.env.multi_agent_env import MultiAgentEnv
        except ImportError as error:
            raise ImportError("GameMultiAgentEnv needs Ray RLlib: pip install -e \".[distributed]\" "
                              f"({error})") from error
        cls = type("GameMultiAgentEnv", (TurnBasedGame, MultiAgentEnv), {
            "__module__": __name__, "__qualname__": "GameMultiAgentEnv",
            "__doc__": "Turn-based RLlib ``MultiAgentEnv`` playing one game (see the module docstring)."})
        _CLASS["env"] = cls
    return cls


def __getattr__(name):
    # the lazy class: pickles by reference (module + name), as RLlib's workers need
    if name == "GameMultiAgentEnv":
        return multi_agent_env_class()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
