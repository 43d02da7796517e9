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
Options the script does not know (``--max-hands 20``) are the game's own
options; seats come from the game's spec of that configuration
(``--num-players`` only for games that have the option).

The pieces, all generic over the game name:

- :class:`dragongym.envs.core.rllib_env.GameMultiAgentEnv` (the adapter,
  beside the other adapters): a turn-based RLlib ``MultiAgentEnv`` whose
  agents are the spec's roles; when a game ends every seat's info carries its
  outcome (``win``/``draw``/``loss`` from the ranks). An action outside the
  mask raises :class:`dragongym.envs.core.game.IllegalActionError` (or, with
  ``--illegal-action penalty``, is refused with a penalty and counted; the
  count is reported as ``illegal_actions``).
- :class:`ActionMaskingTorchModule`: an RLModule (new API stack) around the
  self-play trainer's own network (``--network layout``, the default:
  :class:`dragongym.training.rllib_policy.LayoutPolicyNet`, built from the
  layout of the game's spec) or policy and value MLPs (``--network mlp``):
  masked policy logits, and the value from the same trunk.
- The league: one trainable module ``learner`` and ``--num-opponents`` frozen
  modules ``opponent_i``, all starting as copies of the learner.
  :class:`LeagueMapping` (the ``policy_mapping_fn``) seats the learner in one
  random seat per episode and fills each other seat with a frozen opponent
  drawn per episode, a snapshot of age ``k`` (0 = newest) with weight
  ``opponent_decay ** k``. Every ``--snapshot-every`` iterations
  :class:`LeagueCallback` copies the learner's weights into the oldest frozen
  slot, which becomes the newest, and tells every env runner the new order:
  the opponents change while training runs. A solo game has the learner
  alone. The learner's win rate is read from outcomes, not from the sign of
  its return.

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
from dragongym.envs.core.outcome import WIN
from dragongym.envs.core.rllib_env import (COUNTERS, REWARD_KINDS, game_and_spec, multi_agent_env_class,
                                           observation_space)
from dragongym.training.rllib_policy import DEFAULT_HIDDEN, NETWORKS, SUFFIX, build_net, save_policy

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
    GameMultiAgentEnv = multi_agent_env_class()
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError("dragongym.training.rllib_selfplay needs Ray RLlib: pip install -e \".[distributed]\" "
                      f"({error})") from error

LEARNER = "learner"
"""Module id of the trainable policy."""
POLICY_FILE = "policy" + SUFFIX
CHECKPOINT_DIR = "checkpoint"
LEAGUE_FILE = "league.json"

PROG = "python -m dragongym.training.rllib_selfplay"
DESCRIPTION = ("Multi-agent PPO self-play with Ray RLlib against a league of frozen snapshots, "
               "on a private local Ray instance or a cluster (--address). Options not listed "
               "here are the game's own options (--max-hands 20, --auto-single false).")


def opponent_id(i):
    """Module id of frozen league slot ``i``."""
    return f"opponent_{i}"


# ------------------------------------------------------------------------ module

class ActionMaskingTorchModule(TorchRLModule, ValueFunctionAPI):
    """RLModule for PPO over ``Dict(observations, action_mask)`` observations.

    Wraps :class:`dragongym.training.rllib_policy.MaskedPolicyNet` (as ``self.net``), so
    the learner's weights export as a plain torch state dict.
    ``model_config["hidden"]`` sets the hidden-layer widths.
    """

    def setup(self):
        obs_space = self.observation_space["observations"]
        config = dict(self.model_config or {})
        self.net = build_net(config.get("network", "mlp"), game=config.get("game"),
                             game_options=config.get("game_options") or {}, obs_size=obs_space.shape[0],
                             num_actions=self.action_space.n,
                             hidden=tuple(config.get("hidden") or DEFAULT_HIDDEN),
                             **config.get("layout", {}))

    def _forward(self, batch, **kwargs):
        obs = batch[Columns.OBS]
        features = self.net.features(obs["observations"])
        return {Columns.ACTION_DIST_INPUTS: self.net.logits(obs["observations"], obs["action_mask"], features),
                Columns.EMBEDDINGS: features}

    def _forward_train(self, batch, **kwargs):
        return self._forward(batch, **kwargs)

    def compute_values(self, batch, embeddings=None):
        # the loss passes the trunk's output of _forward_train: the trunk runs once per minibatch
        return self.net.value(batch[Columns.OBS]["observations"], embeddings)


# ------------------------------------------------------------------------ league

class LeagueMapping:
    """The ``policy_mapping_fn``: which module plays each seat of an episode.

    Per episode (decided from the episode id, so every call for the same
    episode agrees): one uniformly random seat plays :data:`LEARNER`; each
    other seat plays a frozen opponent, snapshot of age ``k`` (0 = newest)
    drawn with weight ``decay ** k``. With no opponents every seat is the
    learner (pure self-play).

    Args:
        roles: the agent ids of the seats, in seat order (the spec's ``roles``).
        num_opponents: frozen league slots.
        decay: weight of each snapshot relative to the next newer one.
        seed: mixed into every episode's draw.
    """

    def __init__(self, roles, num_opponents, decay=0.7, seed=0):
        self.roles = list(roles)
        self.num_players = len(self.roles)
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
        return self.lineup(episode.id_)[self.roles.index(agent_id)]


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
            metrics_logger.log_value(key, COUNTERS[key], reduce="lifetime_sum")
            COUNTERS[key] = 0
        steps = {}
        for episode in samples or []:
            for sa_episode in getattr(episode, "agent_episodes", {}).values():
                steps[sa_episode.module_id] = steps.get(sa_episode.module_id, 0) + len(sa_episode)
        for module_id, n in steps.items():
            metrics_logger.log_value(("module_steps", module_id), n, reduce="lifetime_sum")

    def on_episode_end(self, *, episode, prev_episode_chunks=None, metrics_logger=None, **kwargs):
        if metrics_logger is None:
            return
        total, results = {}, {}
        for chunk in [episode] + list(prev_episode_chunks or []):
            for agent_id, sa_episode in chunk.agent_episodes.items():
                if chunk.module_for(agent_id) == LEARNER:
                    total[agent_id] = total.get(agent_id, 0.0) + float(sa_episode.get_return())
                    if len(sa_episode.infos):
                        outcome = sa_episode.get_infos(-1).get("outcome")
                        if outcome:
                            results[agent_id] = outcome["result"]
        for value in total.values():
            metrics_logger.log_value("learner_return", value, reduce="mean", window=100)
        for result in results.values():
            # outcomes, not the sign of the return: ranked and solo games are judged rightly
            metrics_logger.log_value("learner_win", float(result == WIN), reduce="mean", window=100)

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
    game: str = ""
    """Registered game id (required)."""
    num_players: Optional[int] = None
    """Game option num_players, for games that have it (default: the game's default); the seats come from the spec."""
    reward: Literal["game", "rank", "score"] = "game"
    """What the seats are paid: 'game' (the core's rewards: by default terminal and rank-derived), 'rank' (rank-derived at the end), 'score' (own final score)."""
    iterations: int = 100
    """Training iterations (each samples --train-batch-size env steps, then updates)."""
    num_env_runners: int = 2
    """Sampling actors (one CPU each); 0 samples in the driver process."""
    num_envs_per_env_runner: int = 8
    """Games each env runner steps side by side, its module answering all of them in one forward pass. RLlib 2.60's MultiAgentEnvRunner builds them as a synchronous vector of one MultiAgentEnv per game (it asserts that each sub-env is one), so the games are stepped one by one, not by the compiled vector API."""
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
    network: Literal["layout", "mlp"] = "layout"
    """The policy class: 'layout' (the self-play trainer's network, training/layout_policy.py: convolutions over grids, message passing over graphs, pointer logits) or 'mlp' (policy and value MLPs of --hidden widths)."""
    channels: int = 8
    """Features per cell, node and row of the layout network."""
    blocks: int = 1
    """Neighbourhood convolutions after each board's stem (layout network)."""
    latent: int = 128
    """Width of the layout network's flat features, context and latent."""
    hidden: tuple[int, ...] = DEFAULT_HIDDEN
    """Hidden-layer widths of the policy and value MLPs (--network mlp)."""
    illegal_action: Literal["raise", "penalty"] = "raise"
    """An action outside the mask: 'raise' stops the run; 'penalty' refuses it with --illegal-penalty, counts it and makes the run exit 1."""
    illegal_penalty: float = -1.0
    """Reward of a refused illegal action under --illegal-action penalty."""

    def validate(self):
        """Raise a ValueError naming the first bad option."""
        if not self.game:
            raise ValueError(f"--game is required; registered: {', '.join(dragongym.list_games())}")
        if self.reward not in REWARD_KINDS:
            raise ValueError(f"--reward must be one of {', '.join(REWARD_KINDS)}")
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
        if self.network not in NETWORKS:
            raise ValueError(f"--network must be one of {', '.join(NETWORKS)}")
        for name in ("channels", "latent"):
            if getattr(self, name) < 1:
                raise ValueError(f"--{name} must be at least 1")
        if self.blocks < 0:
            raise ValueError("--blocks must not be negative")

    def model_config(self, game_options):
        """The RLModule's ``model_config``: which network, and its sizes."""
        return {"network": self.network, "game": self.game, "game_options": self.env_config(game_options)["game_options"],
                "hidden": list(self.hidden), "layout": self.layout()}

    def layout(self):
        """``{"channels", "blocks", "latent"}`` of the layout network."""
        return {"channels": self.channels, "blocks": self.blocks, "latent": self.latent}

    def env_config(self, game_options):
        """RLlib's ``env_config`` for :class:`GameMultiAgentEnv`: the game, its
        options (with ``num_players`` where given) and the env settings."""
        options = dict(game_options)
        if self.num_players is not None:
            options["num_players"] = self.num_players
        return {"game": self.game, "game_options": options, "reward": self.reward,
                "illegal_action": self.illegal_action, "illegal_penalty": self.illegal_penalty,
                "seed": self.seed}


# ------------------------------------------------------------------------ config

def build_config(args, game_options):
    """The ``PPOConfig`` of a run (also usable from Python / Ray Tune)."""
    env_config = args.env_config(game_options)
    game, _, spec = game_and_spec(env_config)
    obs_space = observation_space(game, spec)
    act_space = gym.spaces.Discrete(spec.num_actions)
    module_ids = [LEARNER] + [opponent_id(i) for i in range(args.num_opponents)]
    specs = {mid: RLModuleSpec(module_class=ActionMaskingTorchModule, observation_space=obs_space,
                               action_space=act_space, model_config=args.model_config(game_options))
             for mid in module_ids}
    return (
        PPOConfig()
        .environment(
            GameMultiAgentEnv,
            env_config=env_config,
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
                     policy_mapping_fn=LeagueMapping(spec.roles, args.num_opponents,
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


def save(algorithm, out_dir, args, game, spec, game_options, row):
    """Write checkpoint/ (with league.json) and policy.rllib.pt."""
    checkpoint = (out_dir / CHECKPOINT_DIR).resolve()
    algorithm.save_to_path(str(checkpoint))
    league = algorithm.config.policy_mapping_fn.state()
    (checkpoint / LEAGUE_FILE).write_text(json.dumps(league))
    weights = learner_state(algorithm)
    prefix = "net."
    net_state = {k[len(prefix):]: v for k, v in weights.items() if k.startswith(prefix)}
    save_policy(out_dir / POLICY_FILE, net_state, game=game, spec=spec,
                game_options=game_options, hidden=args.hidden, network=args.network, layout=args.layout(),
                game_id=args.game,
                extra={"iteration": row["iteration"], "env_steps": row["env_steps"],
                       "league": league})


def train(args, game_options, log=print):
    """Run the training loop; returns the summary dict (also written to summary.json)."""
    args.validate()
    env_config = args.env_config(game_options)
    game, _, spec = game_and_spec(env_config)  # fail early on bad options
    game_options = env_config["game_options"]
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
            row.update(throughput(row, args.num_env_runners))
            with progress.open("a") as f:
                f.write(json.dumps(row) + "\n")
            log(f"iter {row['iteration']}: {row['env_steps']} env steps, {row['episodes']} games, "
                f"learner return {row['learner_return']}, win rate {row['learner_win_rate']}, "
                f"illegal actions {row['illegal_actions']}, {row['time_s']:.0f}s, "
                f"{row['learner_decisions_per_s']:.0f} learner decisions/s "
                f"({row['learner_decisions_per_s_per_env_runner']:.0f} per env runner)")
            if args.checkpoint_every and row["iteration"] % args.checkpoint_every == 0:
                save(algorithm, out_dir, args, game, spec, game_options, row)
        save(algorithm, out_dir, args, game, spec, game_options, row)
        summary = {
            "game": args.game, "roles": list(spec.roles), "game_options": game_options,
            "iterations": int(algorithm.iteration), "env_steps": row["env_steps"],
            "decisions": row.get("decisions", 0), "illegal_actions": row.get("illegal_actions", 0),
            "episodes": row.get("episodes", 0), "module_steps": row.get("module_steps", {}),
            "league": algorithm.config.policy_mapping_fn.state(),
            "checkpoint": CHECKPOINT_DIR, "policy": POLICY_FILE,
            "num_env_runners": args.num_env_runners, "num_envs_per_env_runner": args.num_envs_per_env_runner,
            "time_s": row.get("time_s", 0.0),
            **{k: row[k] for k in THROUGHPUT_KEYS if k in row},
        }
        (out_dir / "summary.json").write_text(json.dumps(summary, indent=1))
        log(f"wrote {out_dir / CHECKPOINT_DIR} and {out_dir / POLICY_FILE}")
        return summary
    finally:
        if algorithm is not None:
            algorithm.stop()
        if started_ray:
            ray.shutdown()


THROUGHPUT_KEYS = ("decisions_per_s", "learner_decisions_per_s", "decisions_per_s_per_env_runner",
                   "learner_decisions_per_s_per_env_runner")
"""The throughput figures of a progress row and of ``summary.json``."""


def throughput(row, num_env_runners):
    """Decisions per second of wall time since training started (sampling
    and learning together, as the single-machine trainer's figure): all
    seats' (``decisions_per_s``), the learner module's alone
    (``learner_decisions_per_s``), and each divided by the env runners
    sampling them (at least one: with none, the local runner samples)."""
    seconds = max(float(row.get("time_s") or 0.0), 1e-9)
    learner = sum(n for module, n in (row.get("module_steps") or {}).items() if module == LEARNER)
    runners = max(1, int(num_env_runners))
    out = {"decisions_per_s": row.get("decisions", 0) / seconds, "learner_decisions_per_s": learner / seconds}
    out["decisions_per_s_per_env_runner"] = out["decisions_per_s"] / runners
    out["learner_decisions_per_s_per_env_runner"] = out["learner_decisions_per_s"] / runners
    return {k: round(v, 1) for k, v in out.items()}


def main(argv=None):
    import tyro

    from dragongym.envs.core.options import parse_game_options

    args, extra = tyro.cli(Args, args=argv, return_unknown_args=True, prog=PROG,
                           description=DESCRIPTION)
    try:
        game_options = parse_game_options(extra, dragongym.get_game(args.game))
        args.validate()
        game_and_spec(args.env_config(game_options))
    except (ValueError, TypeError, ImportError, AttributeError) as error:
        print(f"rllib_selfplay: error: {error}", file=sys.stderr)
        return 2
    summary = train(args, game_options)
    # a refused illegal action (--illegal-action penalty) means the masking failed
    return 1 if summary["illegal_actions"] else 0

if __name__ == "__main__":
    # run through the importable module, so RLlib's workers unpickle the same classes
    from dragongym.training.rllib_selfplay import main as _main

    sys.exit(_main())
