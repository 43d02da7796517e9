"""Multi-agent PPO self-play with Ray RLlib, on one machine or a Ray cluster.

    python -m dragongym.training.rllib_selfplay --game dragonhunt --num-players 2 --iterations 200 \\
        --num-env-runners 2 --max-hands 20 --out-dir runs/rllib
    python -m dragongym.training.rllib_selfplay --address auto ...          # a running Ray instance
    python -m dragongym.training.rllib_selfplay --address HEAD_IP:6379 ...  # a cluster, by address

Without ``--address`` the script starts a private Ray instance on this machine
and stops it at the end; with one it joins that instance (``auto``: the one
``ray start --head`` started here; ``host:port``: a cluster's GCS; ``ray://``:
Ray Client, untested) and the same command runs unchanged. Every node needs this project
installed (``pip install -e ".[distributed]"``, the same version as the driver).
Options the script does not know (``--max-hands 20``) are the game's own options.

The pieces, all generic over the game name:

- :class:`GameMultiAgentEnv`: a turn-based RLlib ``MultiAgentEnv`` over the
  :class:`dragongym.envs.core.game.Game` contract. Agents ``player_0..player_{n-1}``; only
  the seat to move receives an observation, a ``Dict(observations=Box,
  action_mask=Box(0, 1, (A,)))``; every seat receives its reward when earned
  (Dragonhunt pays at the end) and, when the game ends, a last observation with
  ``terminateds``/``truncateds`` set for all and ``__all__``. An action outside
  the mask raises :class:`dragongym.envs.core.game.IllegalActionError` (or, with
  ``--illegal-action penalty``, is refused with a penalty and counted; the
  count is reported as ``illegal_actions``).
- :class:`ActionMaskingTorchModule`: an RLModule (new API stack) around
  :class:`dragongym.training.rllib_policy.MaskedPolicyNet`: masked policy logits, value
  from the observation alone.
- The league: one trainable module ``learner`` and ``--num-opponents`` frozen
  modules ``opponent_i``, all starting as copies of the learner.
  :class:`LeagueMapping` (the ``policy_mapping_fn``) seats the learner in one
  random seat per episode and fills each other seat with a frozen opponent
  drawn per episode, a snapshot of age ``k`` (0 = newest) with weight
  ``opponent_decay ** k``. Every ``--snapshot-every`` iterations
  :class:`LeagueCallback` copies the learner's weights into the oldest frozen
  slot, which becomes the newest, and tells every env runner the new order:
  the opponents change while training runs.

Output in ``--out-dir``: ``checkpoint/`` (RLlib ``Algorithm.save_to_path``;
``--restore`` continues from it, ``league.json`` inside keeps the league's
order), ``policy.rllib.pt`` (the learner's network for play without Ray, see
:mod:`dragongym.training.rllib_policy`), ``progress.jsonl`` (one line per iteration) and
``summary.json``.
"""
import functools
import json
import sys
import time
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Literal, Optional

import numpy as np

import dragongym
from dragongym.envs.core.game import STATUS_RUNNING, STATUS_TERMINATED, IllegalActionError
from dragongym.envs.core.rng import seed_sequence
from dragongym.training.rllib_policy import DEFAULT_HIDDEN, SUFFIX, MaskedPolicyNet, save_policy

try:
    import gymnasium as gym
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.callbacks.callbacks import RLlibCallback
    from ray.rllib.core import COMPONENT_LEARNER, COMPONENT_RL_MODULE
    from ray.rllib.core.columns import Columns
    from ray.rllib.core.rl_module.apis import ValueFunctionAPI
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.core.rl_module.torch import TorchRLModule
    from ray.rllib.env.multi_agent_env import MultiAgentEnv
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError("dragongym.training.rllib_selfplay needs Ray RLlib: pip install -e \".[distributed]\" "
                      f"({error})") from error

LEARNER = "learner"
"""Module id of the trainable policy."""
POLICY_FILE = "policy" + SUFFIX
CHECKPOINT_DIR = "checkpoint"
LEAGUE_FILE = "league.json"

_MAX_RESTARTS = 1000


PROG = "python -m dragongym.training.rllib_selfplay"
DESCRIPTION = ("Multi-agent PPO self-play with Ray RLlib against a league of frozen snapshots, "
               "on a private local Ray instance or a cluster (--address). Options not listed "
               "here are the game's own options, e.g. --max-hands 20 for dragonhunt.")


def opponent_id(i):
    """Module id of frozen league slot ``i``."""
    return f"opponent_{i}"


# --------------------------------------------------------------------------- env

# Per process: decisions stepped and illegal actions met by every env here.
# LeagueCallback.on_sample_end reports them as metrics and zeroes them.
_COUNTERS = {"decisions": 0, "illegal_actions": 0}


def observation_space(game):
    """The ``Dict(observations, action_mask)`` space of every seat of ``game``."""
    low, high = getattr(game, "obs_bounds", (-np.inf, np.inf))
    return gym.spaces.Dict({
        "observations": gym.spaces.Box(low, high, (game.spec.obs_size,), np.float32),
        "action_mask": gym.spaces.Box(0.0, 1.0, (game.spec.num_actions,), np.float32),
    })


class GameMultiAgentEnv(MultiAgentEnv):
    """Turn-based RLlib ``MultiAgentEnv`` playing one game of a registered Game.

    ``config`` (RLlib's ``env_config``) keys: ``game`` (registered id),
    ``num_players``, ``game_options`` (dict of the game's options),
    ``illegal_action`` (``"raise"`` or ``"penalty"``), ``illegal_penalty``
    (reward of a refused action), ``seed`` (with the env runner's worker and
    vector index, seeds the stream of game seeds).
    """

    def __init__(self, config=None):
        super().__init__()
        config = config if config is not None else {}
        game = dragongym.get_game(config.get("game", "dragonhunt"))
        spec = game.spec
        num_players = int(config.get("num_players") or spec.min_players)
        self.game = game
        self.num_players = num_players
        self.game_config = game.make_config(num_players=num_players,
                                            **dict(config.get("game_options") or {}))
        self.illegal_action = config.get("illegal_action", "raise")
        if self.illegal_action not in ("raise", "penalty"):
            raise ValueError(f"illegal_action must be 'raise' or 'penalty', not {self.illegal_action!r}")
        self.illegal_penalty = float(config.get("illegal_penalty", -1.0))

        self.agents = self.possible_agents = [f"player_{i}" for i in range(num_players)]
        space = observation_space(game)
        self.observation_spaces = {agent: space for agent in self.agents}
        self.action_spaces = {agent: gym.spaces.Discrete(spec.num_actions) for agent in self.agents}

        seed = config.get("seed")
        stream = None if seed is None else [int(seed), int(getattr(config, "worker_index", 0)),
                                            int(getattr(config, "vector_index", 0))]
        self._seed_rng = np.random.default_rng(stream)
        self._states = game.new_states(1)
        self._actions = np.zeros(1, dtype=np.int32)
        self._errors = np.zeros(1, dtype=np.int8)
        self._players = np.zeros(1, dtype=np.int8)
        self._obs = np.zeros((1, spec.obs_size), dtype=np.float32)
        self._mask = np.zeros((1, spec.num_actions), dtype=np.int8)
        self._paid = np.zeros(num_players, dtype=np.float32)
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
            raise RuntimeError(f"{self.game.spec.name}: {_MAX_RESTARTS} games in a row ended "
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
        _COUNTERS["decisions"] += 1
        legal = 0 <= action < self._mask.shape[1] and self._mask[0, action] != 0
        if legal:
            self._actions[0] = action
            self._errors[0] = 0
            self.game.step(self._states, self._actions, self._errors)
            legal = self._errors[0] == 0  # the game refused it and left the state unchanged
        if not legal:
            self.illegal_actions += 1
            _COUNTERS["illegal_actions"] += 1
            if self.illegal_action == "raise":
                raise IllegalActionError(f"{agent}: action {action} is not legal here "
                                         f"(error {int(self._errors[0])}); the mask was not respected")
            return ({agent: self._observe(seat)}, {agent: self.illegal_penalty},
                    {"__all__": False}, {"__all__": False}, {agent: {"illegal_action": True}})

        now = self._rewards.copy()
        delta = now - self._paid
        self._paid = now
        rewards = {a: float(delta[i]) for i, a in enumerate(self.agents)}
        status = self._status
        if status == STATUS_RUNNING:
            nxt = self._to_play
            return ({self.agents[nxt]: self._observe(nxt)}, rewards,
                    {"__all__": False}, {"__all__": False}, {})
        # the game is over: a last observation for every seat (RLlib drops seats
        # that never acted), all of them done
        obs = {a: self._observe(i) for i, a in enumerate(self.agents)}
        terminated = status == STATUS_TERMINATED
        terminateds = {a: terminated for a in self.agents}
        truncateds = {a: not terminated for a in self.agents}
        terminateds["__all__"] = terminated
        truncateds["__all__"] = not terminated
        return obs, rewards, terminateds, truncateds, {}

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
        return self._states["rewards"][0, :self.num_players]

    def _observe(self, seat):
        self._players[0] = seat
        self.game.observe(self._states, self._players, self._obs)
        if self._status == STATUS_RUNNING and self._to_play == seat:
            self.game.legal_mask(self._states, self._mask)
            mask = self._mask[0].astype(np.float32)
        else:
            self._mask[:] = 0
            mask = np.zeros(self.game.spec.num_actions, dtype=np.float32)
        return {"observations": self._obs[0].copy(), "action_mask": mask}


# ------------------------------------------------------------------------ module

class ActionMaskingTorchModule(TorchRLModule, ValueFunctionAPI):
    """RLModule for PPO over ``Dict(observations, action_mask)`` observations.

    Wraps :class:`dragongym.training.rllib_policy.MaskedPolicyNet` (as ``self.net``), so
    the learner's weights export as a plain torch state dict.
    ``model_config["hidden"]`` sets the hidden-layer widths.
    """

    def setup(self):
        obs_space = self.observation_space["observations"]
        hidden = tuple((self.model_config or {}).get("hidden") or DEFAULT_HIDDEN)
        self.net = MaskedPolicyNet(obs_space.shape[0], self.action_space.n, hidden)

    def _forward(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        return {Columns.ACTION_DIST_INPUTS: self.net.logits(obs["observations"], obs["action_mask"])}

    def _forward_train(self, batch, **kwargs):
        return self._forward(batch, **kwargs)

    def compute_values(self, batch, embeddings=None):
        return self.net.value(batch[Columns.OBS]["observations"])


# ------------------------------------------------------------------------ league

class LeagueMapping:
    """The ``policy_mapping_fn``: which module plays each seat of an episode.

    Per episode (decided from the episode id, so every call for the same
    episode agrees): one uniformly random seat plays :data:`LEARNER`; each
    other seat plays a frozen opponent, snapshot of age ``k`` (0 = newest)
    drawn with weight ``decay ** k``. With no opponents every seat is the
    learner (pure self-play).

    Args:
        num_players: seats per game.
        num_opponents: frozen league slots.
        decay: weight of each snapshot relative to the next newer one.
        seed: mixed into every episode's draw.
    """

    def __init__(self, num_players, num_opponents, decay=0.7, seed=0):
        self.num_players = int(num_players)
        self.decay = float(decay)
        self.seed = int(seed)
        self.order = [opponent_id(i) for i in range(num_opponents)]  # oldest first
        self.generation = 0  # snapshots taken so far

    def set_order(self, order, generation):
        """Adopt a new oldest-first slot order (the callback's update)."""
        self.order = list(order)
        self.generation = int(generation)

    def state(self):
        return {"order": list(self.order), "generation": self.generation}

    def weights(self):
        """Draw probabilities of :attr:`order` (oldest first)."""
        ages = np.arange(len(self.order))[::-1]
        w = self.decay ** ages
        return w / w.sum()

    def lineup(self, episode_id):
        """Module id of every seat in the episode ``episode_id``."""
        if not self.order:
            return [LEARNER] * self.num_players
        rng = np.random.default_rng([self.seed, zlib.crc32(str(episode_id).encode())])
        learner_seat = int(rng.integers(self.num_players))
        picks = rng.choice(len(self.order), size=self.num_players, p=self.weights())
        return [LEARNER if s == learner_seat else self.order[picks[s]] for s in range(self.num_players)]

    def __call__(self, agent_id, episode=None, **kwargs):
        if episode is None:  # RLlib probing spaces: every module has the same ones
            return LEARNER
        seat = int(str(agent_id).rsplit("_", 1)[-1])
        return self.lineup(episode.id_)[seat]


def learner_state(algorithm):
    """The learner module's weights, from the learner group (local or remote)."""
    path = f"{COMPONENT_LEARNER}/{COMPONENT_RL_MODULE}/{LEARNER}"
    state = algorithm.learner_group.get_state(components=path)
    return state[COMPONENT_LEARNER][COMPONENT_RL_MODULE][LEARNER]


def set_module_states(algorithm, states):
    """Overwrite modules' weights (``{module_id: state}``) on the learners and
    on every env runner.

    The env runners are written directly: RLlib's own weight sync skips
    runners whose weights sequence number is already current, so the new
    weights would reach them only after the next update.
    """
    import ray

    algorithm.learner_group.set_state({COMPONENT_LEARNER: {COMPONENT_RL_MODULE: states}})
    ref = ray.put(states)

    def apply(env_runner, ref=ref):
        if env_runner.module is not None:
            for module_id, state in ray.get(ref).items():
                env_runner.module[module_id].set_state(state)

    algorithm.env_runner_group.foreach_env_runner(apply)


def set_league_order(algorithm, order, generation):
    """Give every env runner (and the algorithm's config) the new slot order."""
    def apply(env_runner, order=list(order), generation=generation):
        env_runner.config.policy_mapping_fn.set_order(order, generation)

    algorithm.env_runner_group.foreach_env_runner(apply)
    algorithm.config.policy_mapping_fn.set_order(order, generation)


class LeagueCallback(RLlibCallback):
    """Runs the frozen-opponent league and reports the env counters.

    Args:
        snapshot_every: copy the learner into the oldest frozen slot every
            this many iterations (0: never).
    """

    def __init__(self, snapshot_every=5):
        super().__init__()
        self.snapshot_every = int(snapshot_every)

    def on_algorithm_init(self, *, algorithm, metrics_logger=None, **kwargs):
        mapping = algorithm.config.policy_mapping_fn
        if mapping.order:  # every frozen slot starts as the initial learner
            weights = learner_state(algorithm)
            set_module_states(algorithm, {slot: weights for slot in mapping.order})

    def on_environment_created(self, *, env_runner, **kwargs):
        if env_runner.worker_index:  # a remote env runner: one core each
            torch.set_num_threads(1)

    def on_sample_end(self, *, env_runner=None, metrics_logger=None, samples=None, **kwargs):
        if metrics_logger is None:
            return
        for key in ("decisions", "illegal_actions"):
            metrics_logger.log_value(key, _COUNTERS[key], reduce="lifetime_sum")
            _COUNTERS[key] = 0
        steps = {}
        for episode in samples or []:
            for sa_episode in getattr(episode, "agent_episodes", {}).values():
                steps[sa_episode.module_id] = steps.get(sa_episode.module_id, 0) + len(sa_episode)
        for module_id, n in steps.items():
            metrics_logger.log_value(("module_steps", module_id), n, reduce="lifetime_sum")

    def on_episode_end(self, *, episode, prev_episode_chunks=None, metrics_logger=None, **kwargs):
        if metrics_logger is None:
            return
        total = {}
        for chunk in [episode] + list(prev_episode_chunks or []):
            for agent_id, sa_episode in chunk.agent_episodes.items():
                if chunk.module_for(agent_id) == LEARNER:
                    total[agent_id] = total.get(agent_id, 0.0) + float(sa_episode.get_return())
        for value in total.values():
            metrics_logger.log_value("learner_return", value, reduce="mean", window=100)
            metrics_logger.log_value("learner_win", float(value > 0), reduce="mean", window=100)

    def on_train_result(self, *, algorithm, metrics_logger=None, result, **kwargs):
        mapping = algorithm.config.policy_mapping_fn
        if mapping.order and self.snapshot_every and algorithm.iteration % self.snapshot_every == 0:
            slot = mapping.order[0]
            set_module_states(algorithm, {slot: learner_state(algorithm)})
            set_league_order(algorithm, mapping.order[1:] + [slot], mapping.generation + 1)
        result["league"] = mapping.state()


# -------------------------------------------------------------------------- args

@dataclass
class Args:
    """Options of :mod:`dragongym.training.rllib_selfplay` (``--help`` shows these docstrings)."""

    address: Optional[str] = None
    """Ray to join. None: start a private local one (stopped at the end). 'auto': the one `ray start` started here. 'host:port': a cluster's GCS. 'ray://host:10001': a cluster via Ray Client."""
    game: str = "dragonhunt"
    """Registered game id."""
    num_players: Optional[int] = None
    """Seats per game (default: the game's minimum)."""
    iterations: int = 100
    """Training iterations (each samples --train-batch-size env steps, then updates)."""
    num_env_runners: int = 2
    """Sampling actors (one CPU each); 0 samples in the driver process."""
    num_envs_per_env_runner: int = 1
    """Games each env runner steps side by side."""
    num_learners: int = 0
    """Learner actors; 0 updates in the driver process."""
    num_gpus_per_learner: float = 0.0
    """GPUs per learner actor (with --num-learners >= 1)."""
    num_cpus: Optional[int] = None
    """CPUs the private local Ray instance may use (default: all); ignored with --address."""
    out_dir: str = "runs/rllib"
    """Where checkpoint/, policy.rllib.pt, progress.jsonl and summary.json go."""
    restore: Optional[str] = None
    """Continue from this checkpoint directory (an earlier run's <out-dir>/checkpoint)."""
    seed: int = 0
    """Seeds RLlib, the games and the league's draws."""
    num_opponents: int = 4
    """Frozen league slots (0: pure self-play, every seat the learner)."""
    snapshot_every: int = 5
    """Copy the learner into the oldest frozen slot every this many iterations."""
    opponent_decay: float = 0.7
    """Weight of each frozen snapshot relative to the next newer one."""
    checkpoint_every: int = 10
    """Save checkpoint/ and policy.rllib.pt every this many iterations (and at the end)."""
    train_batch_size: int = 8000
    """Env steps (all seats) per iteration."""
    minibatch_size: int = 1000
    """SGD minibatch size."""
    num_epochs: int = 4
    """Passes over each batch."""
    lr: float = 3e-4
    """Adam learning rate."""
    gamma: float = 0.998
    """Discount per decision of a seat."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    entropy_coeff: float = 0.01
    """Entropy bonus."""
    clip_param: float = 0.2
    """PPO clip range."""
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    """Hidden-layer widths of the policy and value MLPs."""
    illegal_action: Literal["raise", "penalty"] = "raise"
    """An action outside the mask: 'raise' stops the run; 'penalty' refuses it with --illegal-penalty, counts it and makes the run exit 1."""
    illegal_penalty: float = -1.0
    """Reward of a refused illegal action under --illegal-action penalty."""

    def validate(self, game):
        spec = game.spec
        n = self.num_players or spec.min_players
        if not spec.min_players <= n <= spec.max_players:
            raise ValueError(f"{spec.name} is for {spec.min_players}..{spec.max_players} players, not {n}")
        for name in ("iterations", "train_batch_size", "minibatch_size", "num_epochs"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name.replace('_', '-')} must be at least 1")
        for name in ("num_env_runners", "num_learners", "num_opponents", "snapshot_every",
                     "checkpoint_every"):
            if getattr(self, name) < 0:
                raise ValueError(f"--{name.replace('_', '-')} must not be negative")
        if self.num_envs_per_env_runner < 1:
            raise ValueError("--num-envs-per-env-runner must be at least 1")
        if self.minibatch_size > self.train_batch_size:
            raise ValueError("--minibatch-size must not exceed --train-batch-size")
        if not 0 < self.opponent_decay <= 1:
            raise ValueError("--opponent-decay must be in (0, 1]")
        if not self.hidden:
            raise ValueError("--hidden needs at least one width")


# ------------------------------------------------------------------------ config

def build_config(args, game_options):
    """The ``PPOConfig`` of a run (also usable from Python / Ray Tune)."""
    game = dragongym.get_game(args.game)
    num_players = args.num_players or game.spec.min_players
    obs_space = observation_space(game)
    act_space = gym.spaces.Discrete(game.spec.num_actions)
    module_ids = [LEARNER] + [opponent_id(i) for i in range(args.num_opponents)]
    specs = {mid: RLModuleSpec(module_class=ActionMaskingTorchModule, observation_space=obs_space,
                               action_space=act_space, model_config={"hidden": list(args.hidden)})
             for mid in module_ids}
    return (
        PPOConfig()
        .environment(
            GameMultiAgentEnv,
            env_config={"game": args.game, "num_players": num_players,
                        "game_options": dict(game_options), "illegal_action": args.illegal_action,
                        "illegal_penalty": args.illegal_penalty, "seed": args.seed},
            # RLlib's checker steps unmasked random actions
            disable_env_checking=True,
        )
        .env_runners(num_env_runners=args.num_env_runners,
                     num_envs_per_env_runner=args.num_envs_per_env_runner,
                     num_cpus_per_env_runner=1)
        .learners(num_learners=args.num_learners, num_gpus_per_learner=args.num_gpus_per_learner)
        .training(lr=args.lr, gamma=args.gamma, lambda_=args.gae_lambda,
                  train_batch_size_per_learner=args.train_batch_size,
                  minibatch_size=args.minibatch_size, num_epochs=args.num_epochs,
                  entropy_coeff=args.entropy_coeff, clip_param=args.clip_param)
        .multi_agent(policies=set(module_ids),
                     policy_mapping_fn=LeagueMapping(num_players, args.num_opponents,
                                                     args.opponent_decay, args.seed),
                     policies_to_train=[LEARNER])
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
        .callbacks(functools.partial(LeagueCallback, snapshot_every=args.snapshot_every))
        .debugging(seed=args.seed)
    )


def init_ray(args):
    """Join or start Ray; True if this call started a private instance."""
    import ray

    if ray.is_initialized():
        return False
    if args.address is None:
        ray.init(address="local", num_cpus=args.num_cpus, include_dashboard=False)
        return True
    ray.init(address=args.address)
    return False


# ------------------------------------------------------------------------- train

def _metric(result, *keys, default=None):
    value = result
    for key in keys:
        if not isinstance(value, dict) or key not in value:
            return default
        value = value[key]
    return value


def _float(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def save(algorithm, out_dir, args, game, num_players, game_options, row):
    """Write checkpoint/ (with league.json) and policy.rllib.pt."""
    checkpoint = (out_dir / CHECKPOINT_DIR).resolve()
    algorithm.save_to_path(str(checkpoint))
    league = algorithm.config.policy_mapping_fn.state()
    (checkpoint / LEAGUE_FILE).write_text(json.dumps(league))
    weights = learner_state(algorithm)
    prefix = "net."
    net_state = {k[len(prefix):]: v for k, v in weights.items() if k.startswith(prefix)}
    save_policy(out_dir / POLICY_FILE, net_state, game=game, num_players=num_players,
                game_options=game_options, hidden=args.hidden,
                extra={"iteration": row["iteration"], "env_steps": row["env_steps"],
                       "league": league})


def train(args, game_options, log=print):
    """Run the training loop; returns the summary dict (also written to summary.json)."""
    game = dragongym.get_game(args.game)
    args.validate(game)
    num_players = args.num_players or game.spec.min_players
    game.make_config(num_players=num_players, **game_options)  # fail early on bad options
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "args.json").write_text(json.dumps({"args": asdict(args), "game_options": game_options},
                                                  indent=1))

    import ray

    started_ray = init_ray(args)
    algorithm = None
    try:
        algorithm = build_config(args, game_options).build_algo()
        if args.restore:
            checkpoint = Path(args.restore).resolve()
            algorithm.restore_from_path(str(checkpoint))
            league_file = checkpoint / LEAGUE_FILE
            if league_file.exists():
                league = json.loads(league_file.read_text())
                set_league_order(algorithm, league["order"], league["generation"])
            log(f"restored {checkpoint} at iteration {algorithm.iteration}")
        progress = out_dir / "progress.jsonl"
        row = {"iteration": algorithm.iteration, "env_steps": 0}
        started = time.time()
        for _ in range(args.iterations):
            result = algorithm.train()
            row = {
                "iteration": int(algorithm.iteration),
                "time_s": round(time.time() - started, 2),
                "env_steps": int(_metric(result, "env_runners", "num_env_steps_sampled_lifetime",
                                         default=0) or 0),
                "decisions": int(_metric(result, "env_runners", "decisions", default=0) or 0),
                "illegal_actions": int(_metric(result, "env_runners", "illegal_actions",
                                               default=0) or 0),
                "episodes": int(_metric(result, "env_runners", "num_episodes_lifetime",
                                        default=0) or 0),
                "module_steps": {k: int(v) for k, v in
                                 (_metric(result, "env_runners", "module_steps") or {}).items()},
                "learner_return": _float(_metric(result, "env_runners", "learner_return")),
                "learner_win_rate": _float(_metric(result, "env_runners", "learner_win")),
                "policy_loss": _float(_metric(result, "learners", LEARNER, "policy_loss")),
                "vf_loss": _float(_metric(result, "learners", LEARNER, "vf_loss")),
                "entropy": _float(_metric(result, "learners", LEARNER, "entropy")),
                "league": result.get("league"),
            }
            with progress.open("a") as f:
                f.write(json.dumps(row) + "\n")
            log(f"iter {row['iteration']}: {row['env_steps']} env steps, {row['episodes']} games, "
                f"learner return {row['learner_return']}, win rate {row['learner_win_rate']}, "
                f"illegal actions {row['illegal_actions']}, {row['time_s']:.0f}s")
            if args.checkpoint_every and row["iteration"] % args.checkpoint_every == 0:
                save(algorithm, out_dir, args, game, num_players, game_options, row)
        save(algorithm, out_dir, args, game, num_players, game_options, row)
        summary = {
            "game": args.game, "num_players": num_players, "game_options": game_options,
            "iterations": int(algorithm.iteration), "env_steps": row["env_steps"],
            "decisions": row.get("decisions", 0), "illegal_actions": row.get("illegal_actions", 0),
            "episodes": row.get("episodes", 0), "module_steps": row.get("module_steps", {}),
            "league": algorithm.config.policy_mapping_fn.state(),
            "checkpoint": CHECKPOINT_DIR, "policy": POLICY_FILE,
        }
        (out_dir / "summary.json").write_text(json.dumps(summary, indent=1))
        log(f"wrote {out_dir / CHECKPOINT_DIR} and {out_dir / POLICY_FILE}")
        return summary
    finally:
        if algorithm is not None:
            algorithm.stop()
        if started_ray:
            ray.shutdown()


def main(argv=None):
    import tyro

    from dragongym.training.cli import parse_game_options

    args, extra = tyro.cli(Args, args=argv, return_unknown_args=True, prog=PROG,
                           description=DESCRIPTION)
    try:
        game_options = parse_game_options(extra)
        game = dragongym.get_game(args.game)
        args.validate(game)
        game.make_config(num_players=args.num_players or game.spec.min_players, **game_options)
    except (ValueError, TypeError) as error:
        print(f"rllib_selfplay: error: {error}", file=sys.stderr)
        return 2
    summary = train(args, game_options)
    # a refused illegal action (--illegal-action penalty) means the masking failed
    return 1 if summary["illegal_actions"] else 0

if __name__ == "__main__":
    # run through the importable module, so RLlib's workers unpickle the same classes
    from dragongym.training.rllib_selfplay import main as _main

    sys.exit(_main())
