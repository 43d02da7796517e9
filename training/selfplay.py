"""Self-play training on one machine: MaskablePPO against a league.

    python -m dragongym.training.selfplay --game dragonhunt --max-minutes 100 --seed 0 --max-hands 20
    python -m dragongym.training.selfplay --resume runs/dragonhunt_s0_20261129-190000

Options the script does not know (``--max-hands 20``, ``--auto-single false``)
are the game's own options, validated by its ``make_config``; so is
``--game-options KEY VALUE ...``. ``--truncation N`` sets whichever option
limits the game's length (``Game.truncation_option``). Seats come from the
game's spec of that configuration (``--num-players`` only for games that have
the option).

The learner is sb3-contrib ``MaskablePPO`` with the network ``policy`` names
(by default :class:`dragongym.training.layout_policy.LayoutPolicy`), a random
seat each episode. Its opponents come from a :class:`dragongym.training.league.League`: frozen
snapshots of itself (every ``snapshot_every`` updates, drawn with a bias to
recent and strong ones), the random bot and the game's heuristic bot
(``Game.heuristic_agent``), in the shares of ``mix_*`` (a solo game has no
opponents); new weights and snapshots reach the env workers through
``VecEnv.env_method`` between rollouts, without restarting them.

A run directory ``<out_dir>/<run_name>`` holds:

==========================  ==================================================
``tb/``                      TensorBoard: SPS (``time/fps``), KL, clip fraction,
                             explained variance, entropy, league win rates,
                             evaluation win rates
``checkpoints/latest.zip``   the model, every ``checkpoint_every`` updates
                             (with ``league.pt`` and ``history.json`` beside it:
                             what ``--resume`` needs)
``final.zip``                the trained model: an agent id for tournaments
                             (``dragongym eval --agents <run>/final.zip,random``)
``history.json``             evaluations over training (and the final one)
``eval_records.jsonl``       with ``record_every`` K: every K-th game of each
                             evaluation as a game record (all its actions)
``learning_curve.png``       evaluation win rates against timesteps
``args.json``                the arguments of the run
==========================  ==================================================

Layout: by default the ``n_envs`` games run in lockstep on the vector API in
this process (``vec_env="batched"``, ``training/batched.py``), the learner
answering all of them in one forward pass and each opponent all of its games
in one batch; the network takes both cores between the steps
(``torch_threads=2``). On this project's 2-core reference machine that gave
1,494 learner decisions/s end to end on Dragonhunt with the layout network
(rollouts, opponents and updates; 1,254 with ``policy="board"``), against 183
for the single-agent envs of ``vec_env="dummy"``. Today's defaults made
about 6,100 (Dragonhunt), 2,100 (Dragons Down) and 930 (Dragon Pass)
learner decisions/s on issue 30's 2-core machine, nearly idle, before its changes.
Its second round (``training/report_notes.md``, "Trainer speed, round 2")
cut the training loop's CPU time for the same command 1.18x (Dragonhunt),
1.27x (Dragons Down) and 1.87x (Dragon Pass), to 6,600, 2,900 and 1,900
learner decisions per CPU second on one thread (on an idle machine with
the default two threads, 7,060, 3,740 and 2,800 learner decisions/s of
wall time, 1.23x, 1.19x and 1.76x): the heuristic opponents
decide the same at about half the cost, Dragons Down's realm gathers its
neighbours' rows, and the update no longer copies (board stems) or faults
in (``keep_freed_memory``) whole batches of boards. The third round
(``overlap_update``, on by default) runs the update on one rollout while
the next one is collected, on the other core: against the code before
issue 30's changes, the default command trains at 8,700 (Dragonhunt), 2,900
(Dragons Down) and 2,300 (Dragon Pass) learner decisions/s of wall time on
an idle 2-core machine, 1.69x, 1.78x and 2.16x (``training/report_notes.md``,
"Trainer speed, round 3"). A GPU is used when
present (``device="auto"``; without one, ``auto`` trains exactly what
``cpu`` trains).
"""
import copy
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Optional

import numpy as np

from dragongym.envs.core.options import parse_game_options

LEGACY_FIELDS = {"max_hands": "truncation", "extra": "game_options"}
"""Fields of ``args.json`` files written before the options became generic ->
today's field (``--resume`` of such a run reads them)."""


@dataclass
class Args:
    """Self-play MaskablePPO against a league of snapshots and bots."""

    game: str = ""
    """Registered game id (required, except with ``--resume``: the run's own)."""
    num_players: Optional[int] = None
    """Game option ``num_players`` for games that have it (None: the game's
    default); the learner takes one seat of the spec's, league opponents the others."""
    truncation: Optional[int] = None
    """The game's length limit: the value of its ``Game.truncation_option``
    (None: the game's default)."""
    game_options: dict = field(default_factory=dict)
    """The game's other options, e.g. ``--game-options auto_single false`` (or
    simply ``--auto-single false``)."""
    reward: str = "game"
    """What the learner is paid: ``game`` (the rules core's rewards, by default
    terminal and rank-derived), ``rank`` (rank-derived at the end) or
    ``score`` (its own final score, e.g. legend points)."""
    seed: int = 0
    """Seed of the networks, the envs and the league draws."""
    total_timesteps: int = 5_000_000
    """Learner decisions to train for (stops earlier at ``max_minutes``)."""
    max_minutes: float = 0.0
    """Wall-clock budget of the training loop in minutes (0 = none); the final
    evaluation runs after it."""
    n_envs: int = 256
    """Games stepped together (one batched forward pass of the learner per step)."""
    vec_env: str = "batched"
    """``batched`` (the games in lockstep on the vector API, the opponents
    answering in batches: ``training/batched.py``), ``dummy`` (one
    single-agent env per game in this process, opponents one game at a time)
    or ``subproc`` (those envs, one process each)."""
    torch_threads: int = 2
    """``torch.set_num_threads`` of the trainer (env workers always use 1).
    With ``vec_env="batched"`` the games and the network take turns in one
    process, so the network may use both cores of a 2-core machine: 1,254
    learner decisions/s against 932 with one thread (Dragonhunt, ``policy="board"``,
    49,152 decisions, ``training/REPORT.md``)."""
    heuristic_workers: int = 0
    """Worker processes for the game's heuristic opponent (batched vec_env
    only; 0 = in the trainer's process)."""
    keep_freed_memory: bool = True
    """Have the trainer's ``malloc`` (glibc's) keep freed memory for the next
    tensors instead of handing each large block back to the system and paying
    its page faults again (``training/allocator.py``): the same training, its
    update on Dragon Pass's boards much cheaper; the process's memory stays at
    its peak. ``--no-keep-freed-memory``: the C library's defaults."""
    overlap_update: bool = True
    """``trainer="ppo"`` only: collect each rollout while the update on the
    previous one runs, on another thread (``training/ppo.py``'s
    ``_learn_overlapped``): the rollout played one update behind, both cores
    busy; the torch threads are split between the two (``torch_threads //
    2``, at least 1). ``--no-overlap-update``: the sequential loop, which
    trains the bytes the trainer trained before this option (runs started
    before it resume that way)."""
    trainer: str = "ppo"
    """``ppo`` (``training/ppo.py``: masked PPO in one file over preallocated
    rollout tensors, the same losses as MaskablePPO, about twice its speed
    here) or ``sb3`` (sb3-contrib's ``MaskablePPO.learn``). Both train the
    same ``MaskablePPO`` model: checkpoints, ``--resume`` and agents are the
    same."""
    device: str = "auto"
    """``auto`` (CUDA where ``torch.cuda.is_available()``, else the CPU: on a
    machine without a GPU it trains exactly what ``cpu`` trains, byte for
    byte), ``cpu``, ``cuda`` or ``cuda:N``. The rollout, its masks and the
    update live on that device; the league's snapshots and the heuristic play
    on the CPU."""
    n_steps: int = 64
    """Steps per env per rollout (an update uses ``n_steps * n_envs`` decisions)."""
    batch_size: int = 1024
    """Minibatch size."""
    n_epochs: int = 1
    """Passes over each rollout. One pass at 5,331 learner decisions/s beat
    two at 3,511 on the 2-core machine (Dragonhunt, ``training/report_notes.md``):
    the update is most of the time, and fresh games are cheap."""
    learning_rate: float = 3e-4
    """Adam learning rate."""
    gamma: float = 0.997
    """Discount (games are hundreds of decisions long)."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    clip_range: float = 0.2
    """PPO clip range."""
    ent_coef: float = 0.01
    """Entropy bonus (entropy over legal actions only)."""
    vf_coef: float = 0.5
    """Value loss weight."""
    max_grad_norm: float = 0.5
    """Gradient clipping."""
    target_kl: float = 0.0
    """Stop an update's epochs early beyond this KL (0 = never)."""
    policy: str = "layout"
    """The network: ``layout`` (``training/layout_policy.py``: every block of
    the game's observation by its kind -- convolutions over grids, message
    passing over graphs, per-row encoders over entities, one logit per cell,
    node or row for the actions that index them) or ``board`` (the older
    ``training/policy.py``: the grid by convolutions, the rest flattened)."""
    channels: int = 8
    """Conv channels of the board trunk (features per cell, node and row)."""
    blocks: int = 1
    """Residual blocks of the board trunk."""
    hidden: int = 128
    """Width of the flat MLP and the latent."""
    shaping: float = 0.1
    """Coefficient of the potential-based shaping (``dragongym.training.shaping``); 0 = off."""
    mix_self: float = 0.5
    """Share of episodes against frozen snapshots of the learner."""
    mix_random: float = 0.2
    """Share of episodes against the random bot."""
    mix_heuristic: float = 0.3
    """Share of episodes against the game's heuristic bot (if it has one), or
    against ``opponent`` where one is given."""
    opponent: str = ""
    """An agent spec that takes the league's heuristic slot instead of the
    game's heuristic: a registered id with options
    (``mcts:simulations=16,rollout=heuristic,rollout_depth=10``), a
    checkpoint (``runs/x/final.zip``) or ``package.module:factory``. It is
    frozen; ``mix_self=0 mix_random=0 mix_heuristic=1`` trains against it
    alone (what ``dragongym exploit`` does). It plays one instance per game
    row (``act_state`` for agents that read the state), or one batched
    instance for agents with their own ``act_batch`` (checkpoints); the
    league, TensorBoard (``league/win_rate_vs_<label>``) and the
    evaluations name it by ``league.opponent_label`` of the spec, and the
    evaluations play it in the heuristic's place. Empty: the game's heuristic."""
    imitate_decisions: int = 0
    """Decisions of the teacher's self-play to imitate before RL (0 = from scratch)."""
    imitate_teacher: str = ""
    """Agent id of the teacher (default: the game's heuristic)."""
    init: str = ""
    """A checkpoint (``*.zip`` of an earlier run of this game, such as a
    shipped one) whose network's weights start this run instead of fresh
    ones: a policy trained on against new opponents. The run's network
    settings (``policy``, ``channels``, ``blocks``, ``hidden``) must be the
    checkpoint's; the optimizer starts afresh. Not with ``imitate_decisions``
    (a start of its own); a resumed run goes on from its own checkpoint, the
    ``init`` of its launch applied once, when it began."""
    curriculum: str = ""
    """A game-record file (``dragongym match ... --records FILE``, e.g. the
    heuristic against itself) whose positions start ``curriculum_share`` of
    the episodes (``vec_env="batched"`` only; ``training/batched.py``)."""
    curriculum_share: float = 0.0
    """Share of the episodes that start from a recorded position (0 = none)."""
    curriculum_every: int = 1
    """Keep every K-th position of each recorded game."""
    curriculum_after: float = 0.0
    """Keep only the positions of the last ``1 - x`` of each recorded game
    (0.5: the second halves, nearer the games' ends, where wins are near)."""
    curriculum_anneal: int = 0
    """Learner decisions over which the curriculum's start moves back from
    ``curriculum_after`` to the games' openings, linearly (a reverse
    curriculum: positions near the recorded games' ends first, ever earlier
    ones later); 0: the start stays at ``curriculum_after``."""
    imitate_epochs: int = 3
    """Behaviour-cloning passes over the demonstrations."""
    snapshot_every: int = 10
    """Updates between snapshots of the learner joining the league."""
    league_size: int = 8
    """Snapshots kept in the league (oldest dropped)."""
    recency: float = 0.8
    """Snapshot sampling weight factor per step of age."""
    eval_every: int = 25
    """Updates between evaluations (0 = none during training)."""
    eval_games: int = 20
    """Seat-rotated games against each of random and the heuristic per evaluation."""
    final_eval_games: int = 400
    """Games against each of random and the heuristic after training (0 = skip)."""
    eval_workers: int = 2
    """Processes for the final evaluation."""
    record_every: int = 0
    """Keep every K-th game of each evaluation, with all its actions, in the
    run's ``eval_records.jsonl`` (``dragongym replay`` replays and draws them;
    0 = keep none)."""
    checkpoint_every: int = 10
    """Updates between checkpoints."""
    env_rate_seconds: float = 2.0
    """Seconds spent, before training, timing the vector API alone (random
    actions in ``n_envs`` games of the run's options, observations on) so the
    run's history holds its raw step rate beside the trainer's (0 = skip)."""
    out_dir: str = "runs"
    """Folder of run directories."""
    run_name: str = ""
    """Run directory name (default ``<game>_s<seed>_<time>``)."""
    resume: str = ""
    """A run directory to continue (its ``checkpoints/latest.zip``, league and history)."""
    progress: bool = True
    """Show a progress bar."""

    def validate(self):
        """Raise a ValueError naming the first bad field."""
        import dragongym
        if not self.game:
            raise ValueError(f"--game is required; registered: {', '.join(dragongym.list_games())}")
        if self.game not in dragongym.list_games():
            raise ValueError(f"unknown game {self.game!r}; registered: {', '.join(dragongym.list_games())}")
        positive = ("n_envs", "n_steps", "batch_size", "n_epochs", "torch_threads", "channels",
                    "hidden", "snapshot_every", "league_size", "checkpoint_every", "eval_workers")
        for name in positive:
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be at least 1, got {getattr(self, name)}")
        for name in ("total_timesteps", "max_minutes", "eval_every", "imitate_decisions", "imitate_epochs", "eval_games", "final_eval_games",
                     "record_every", "shaping", "blocks", "ent_coef", "target_kl", "env_rate_seconds",
                     "heuristic_workers"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0, got {getattr(self, name)}")
        if not 0.0 <= self.curriculum_share <= 1.0:
            raise ValueError(f"curriculum_share must be in 0..1, got {self.curriculum_share}")
        if self.curriculum_share and not self.curriculum:
            raise ValueError("curriculum_share needs --curriculum, a game-record file to start from")
        if self.curriculum and self.vec_env != "batched":
            raise ValueError("a curriculum needs vec_env batched")
        if self.curriculum and not os.path.exists(self.curriculum):
            raise ValueError(f"curriculum {self.curriculum}: no such file")
        if not 0.0 <= self.curriculum_after < 1.0:
            raise ValueError(f"curriculum_after must be in 0..1 (1 excluded), got {self.curriculum_after}")
        if self.curriculum_anneal < 0:
            raise ValueError(f"curriculum_anneal must be at least 0, got {self.curriculum_anneal}")
        if self.curriculum_anneal and not (self.curriculum and self.curriculum_after > 0):
            raise ValueError("curriculum_anneal needs --curriculum and a --curriculum-after to start from (e.g. 0.9)")
        if self.curriculum_every < 1:
            raise ValueError(f"curriculum_every must be at least 1, got {self.curriculum_every}")
        if self.device not in ("auto", "cpu", "cuda") and not \
                (self.device.startswith("cuda:") and self.device[5:].isdigit()):
            raise ValueError(f"device must be auto, cpu, cuda or cuda:N, got {self.device!r}")
        if self.policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {self.policy!r}")
        if self.trainer not in TRAINERS:
            raise ValueError(f"trainer must be one of {', '.join(TRAINERS)}, got {self.trainer!r}")
        if self.vec_env not in VEC_ENVS:
            raise ValueError(f"vec_env must be one of {', '.join(VEC_ENVS)}, got {self.vec_env!r}")
        if min(self.mix_self, self.mix_random, self.mix_heuristic) < 0 or \
                self.mix_self + self.mix_random + self.mix_heuristic <= 0:
            raise ValueError("mix_self/mix_random/mix_heuristic must be >= 0 with a positive sum")
        if not 0 < self.gamma <= 1 or not 0 <= self.gae_lambda <= 1:
            raise ValueError("gamma must be in (0, 1] and gae_lambda in [0, 1]")
        from dragongym.training.league import REWARD_KINDS
        if self.reward not in REWARD_KINDS:
            raise ValueError(f"reward must be one of {', '.join(REWARD_KINDS)}, got {self.reward!r}")
        game = dragongym.get_game(self.game)
        if self.opponent:
            from dragongym.agents import agent_problem
            problem = agent_problem(self.opponent, game)
            if problem:
                raise ValueError(f"opponent: {problem}")
        if self.init:
            if self.imitate_decisions:
                raise ValueError("init and imitate_decisions both start the network; give one")
            problem = init_problem(self)
            if problem:
                raise ValueError(problem)
        if self.imitate_decisions and not (self.imitate_teacher or game.heuristic_agent):
            raise ValueError(f"imitate_decisions needs imitate_teacher: {self.game} has no heuristic agent")
        game.make_config(**self.config_options())
        if self.opponent and self.spec().num_seats == 1:
            raise ValueError(f"opponent: {self.game} is played alone in this configuration (one seat): "
                             f"there is no seat for an opponent")

    def heuristic_slot(self):
        """The league's name of its heuristic slot: ``heuristic``, or the
        label of ``opponent`` where one takes it (``league.opponent_label``)."""
        from dragongym.training.league import HEURISTIC, opponent_label
        return opponent_label(self.opponent) if self.opponent else HEURISTIC

    def config_options(self):
        """The keyword options of the game configuration this run plays
        (``game_options``, plus ``num_players`` and the truncation option where given)."""
        import dragongym
        game = dragongym.get_game(self.game)
        from dragongym.envs.core.config import options_from_json, options_from_text
        # game_options hold text (``--game-options auto_single false``) or, read
        # back from args.json, JSON values: each is read as its option's type
        options = options_from_text(game.name, game.config_cls,
                                    options_from_json(game.config_cls,
                                                      {str(k): v for k, v in self.game_options.items()}))
        if self.num_players is not None:
            options["num_players"] = self.num_players
        if self.truncation is not None:
            name = game.truncation_option
            if not name:
                raise ValueError(f"truncation: {self.game} declares no truncation option")
            if name in options and options[name] != self.truncation:
                raise ValueError(f"truncation {self.truncation} and game option {name}="
                                 f"{options[name]} disagree")
            options[name] = self.truncation
        return options

    def spec(self):
        """The :class:`dragongym.envs.core.spec.GameSpec` of the configuration this run plays."""
        import dragongym
        game = dragongym.get_game(self.game)
        return game.spec_for(game.make_config(**self.config_options()))


def saved_args(saved):
    """``Args`` from an ``args.json`` dict, also one written before the game
    options became generic (see :data:`LEGACY_FIELDS`)."""
    saved = dict(saved)
    for old, new in LEGACY_FIELDS.items():
        if old in saved:
            value = saved.pop(old)
            if new == "game_options":
                saved[new] = {**dict(value or {}), **saved.get(new, {})}
            else:
                saved.setdefault(new, value)
    # a run written before the overlapped update resumes with the sequential one it trained with
    saved.setdefault("overlap_update", False)
    return Args(**saved)


# ----------------------------------------------------------------------- setup

def policy_kwargs(args):
    """``policy_kwargs`` of the learner's network (:func:`policy_class`)."""
    return {"features_extractor_kwargs": {"game": args.game, "game_options": args.config_options(),
                                          "channels": args.channels, "blocks": args.blocks,
                                          "hidden": args.hidden}}


def policy_class(args):
    """The learner's policy class (``Args.policy``)."""
    import importlib

    module, name = POLICIES[args.policy]
    return getattr(importlib.import_module(module), name)


def _policy_factory(args, observation_space, action_space):
    def make():
        return policy_class(args)(observation_space, action_space, lambda _: 0.0, **policy_kwargs(args))
    return make


def _env_factory(args, rank):
    def make():
        import torch
        torch.set_num_threads(1)
        import dragongym
        from dragongym.training.league import LeagueEnv
        env = dragongym.make_single_agent(args.game, **args.config_options())
        factory = _policy_factory(args, env.observation_space, env.action_space)
        return LeagueEnv(env, factory, gamma=args.gamma, shaping=args.shaping,
                         seed=args.seed * 1000 + rank, reward=args.reward, opponent=args.opponent or None)
    return make


def make_vec_env(args):
    """The learner's ``VecEnv`` of ``n_envs`` league games: batched on the
    vector API (``vec_env="batched"``), or single-agent league envs seeded
    ``seed * 1000 + rank``."""
    if args.vec_env == "batched":
        from dragongym.training.batched import BatchedLeagueEnv, recorded_positions

        starts, progress = (recorded_positions(args.curriculum, args.game, args.config_options(),
                                               args.curriculum_every,
                                               0.0 if args.curriculum_anneal else args.curriculum_after,
                                               progress=True)
                            if args.curriculum else (None, None))
        env = BatchedLeagueEnv(args.game, args.n_envs, args.config_options(),
                               make_policy=lambda: _policy_factory(args, env.observation_space,
                                                                   env.action_space)(),
                               seed=args.seed, gamma=args.gamma, shaping=args.shaping, reward=args.reward,
                               start_positions=starts, start_share=args.curriculum_share,
                               heuristic_workers=args.heuristic_workers, start_progress=progress,
                               opponent=args.opponent or None)
        return env
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv
    fns = [_env_factory(args, k) for k in range(args.n_envs)]
    if args.vec_env == "subproc":
        import multiprocessing as mp
        method = "fork" if "fork" in mp.get_all_start_methods() else "spawn"
        venv = SubprocVecEnv(fns, start_method=method)
    else:
        venv = DummyVecEnv(fns)
    venv.seed(args.seed)
    return venv


def default_run_name(args):
    return f"{args.game}_s{args.seed}_{time.strftime('%Y%m%d-%H%M%S')}"


POLICIES = {"layout": ("dragongym.training.layout_policy", "LayoutPolicy"),
            "board": ("dragongym.training.policy", "BoardPolicy")}
"""The networks ``Args.policy`` names: ``(module, class)``."""
RESUME_SETTINGS = ("total_timesteps", "max_minutes", "final_eval_games", "eval_workers", "progress", "resume")
"""The settings a ``--resume`` takes from its own command line; the rest are the run's launch arguments."""
VEC_ENVS = ("batched", "dummy", "subproc")
TRAINERS = ("ppo", "sb3")
"""The learner's env layouts (``Args.vec_env``)."""


# ------------------------------------------------------------------- evaluation
EVAL_RECORDS = "eval_records.jsonl"
"""In a run directory: the kept evaluation games (``record_every``)."""


def evaluation_opponents(args):
    """``{label: agent id}`` the learner is evaluated against: ``random`` and
    the game's heuristic agent (``heuristic``) where it has one, or the
    ``opponent`` in its place (under its label); ``{"solo": None}`` for a
    solo game (the learner plays alone)."""
    import dragongym
    from dragongym.agents import is_agent_id
    if args.spec().num_seats == 1:
        return {"solo": None}
    out = {"random": "random"}
    if args.opponent:
        out[args.heuristic_slot()] = args.opponent
        return out
    heuristic = dragongym.get_game(args.game).heuristic_agent
    if heuristic and is_agent_id(heuristic):
        out["heuristic"] = heuristic
    return out


def evaluate(args, agent, num_games, seed, workers=1, records=None):
    """Seat-rotated games of ``agent`` against random and the heuristic (alone
    in a solo game), judged by outcomes.

    ``agent`` is an :class:`dragongym.agents.Agent` (``workers`` must be 1) or an agent
    id / checkpoint path. ``records``: a game-record file that every
    ``args.record_every``-th game is appended to (None or ``record_every``
    0: none). Returns ``{opponent label: summary dict of the agent}`` (see
    :func:`evaluation_opponents`).
    """
    from dragongym.agents.tournament import run_tournament
    options = args.config_options()
    seats = args.spec().num_seats
    keep = {"records": records, "record_every": args.record_every} if records and args.record_every else {}
    out = {}
    for label, opponent in evaluation_opponents(args).items():
        ids = [agent] + [opponent] * (seats - 1)
        result = run_tournament(args.game, ids, num_games, seed=seed, workers=workers, progress=False,
                                **keep, **options)
        out[label] = result.agents[0].as_dict()
    return out


def plot_learning_curve(history, path, title):
    """The outcomes of every evaluation against timesteps, one panel per
    opponent, a bar per evaluation: the shares of wins (green, bottom), draws
    (grey, middle) and losses (red, top) stacked to 1, so that a policy that
    draws every game (all grey) and one that loses every game (all red) look
    different; the final evaluation an outlined bar after the last, the win
    share of the decided games a black line (absent where none was decided)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    evals = [h for h in history if h.get("kind") == "eval"]
    finals = [h for h in history if h.get("kind") == "final_eval"]
    labels = sorted({k for h in evals + finals for k in h["results"]})
    fig, axes = plt.subplots(1, max(1, len(labels)), figsize=(4.2 * max(1, len(labels)), 3.9), squeeze=False,
                             sharey=True)
    colours = (("wins", "tab:green"), ("draws", "0.7"), ("losses", "tab:red"))

    def shares(r):
        games = max(1, r["games"])
        return [r[k] / games for k, _ in colours]

    for ax, opponent in zip(axes[0], labels):
        pts = [(h["timesteps"], h["results"][opponent]) for h in evals if opponent in h["results"]]
        ends = [(h["timesteps"], h["results"][opponent], h["games"]) for h in finals if opponent in h["results"]]
        xs = sorted({t for t, _ in pts} | {t for t, _, _ in ends})
        gaps = np.diff(xs) if len(xs) > 1 else []
        gap = min([g for g in gaps if g > 0], default=max(xs[-1] if xs else 1, 1))
        width = 0.4 * gap
        # one stacked bar per evaluation: wins, draws, losses (a curve of areas needs two points)
        for k, (t, r) in enumerate(pts):
            bottom = 0.0
            for (kind, colour), share in zip(colours, shares(r)):
                ax.bar(t, share, width, bottom=bottom, color=colour, label=kind if k == 0 else None)
                bottom += share
        if pts:
            decided = [r["decided_win_rate"] if r["decided_win_rate"] is not None else np.nan for _, r in pts]
            ax.plot([t for t, _ in pts], decided, "k-o", ms=3, lw=1.2, label="wins / decided")
        for t, r, games in ends:
            # the final evaluation beside the last periodic one, outlined
            at, bottom = t + 0.5 * gap if pts else t, 0.0
            for (kind, colour), share in zip(colours, shares(r)):
                ax.bar(at, share, width, bottom=bottom, color=colour, edgecolor="k", lw=0.8,
                       label=None if pts else kind)
                bottom += share
            if r["decided_win_rate"] is not None:
                ax.plot([at], [r["decided_win_rate"]], "k*", ms=10, label=f"final ({games} games): wins / decided")
        if not pts and not finals:
            ax.text(0.5, 0.5, "no evaluation", ha="center", transform=ax.transAxes)
        ax.set_title(f"vs {opponent}", fontsize=9)
        ax.set_xlabel("learner decisions (timesteps)")
        ax.set_ylim(0, 1.02)
        ax.set_xlim(left=0)
        ax.grid(alpha=0.3)
    if not labels:
        axes[0][0].text(0.5, 0.5, "no evaluation in this run", ha="center", transform=axes[0][0].transAxes)
    axes[0][0].set_ylabel("share of the evaluation games")
    handles, names = axes[0][0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, names, fontsize=7, loc="lower center", ncol=len(handles), frameon=False)
    fig.suptitle(title, fontsize=9)
    fig.tight_layout(rect=(0, 0.07 if handles else 0, 1, 1))
    fig.savefig(path, dpi=120)
    plt.close(fig)


# -------------------------------------------------------------------- callback

def curriculum_start(args, timesteps):
    """Where in the recorded games the curriculum's positions begin after
    ``timesteps`` learner decisions: ``curriculum_after`` moved linearly to 0
    over ``curriculum_anneal`` decisions (``curriculum_after`` throughout
    without an anneal)."""
    if not args.curriculum_anneal:
        return args.curriculum_after
    return args.curriculum_after * max(0.0, 1.0 - timesteps / args.curriculum_anneal)


class TrainingProgress:
    """The trainer's progress bar (tqdm, on stderr). With a wall-clock budget
    (``deadline``, a ``time.time()``) it counts that budget's seconds, which
    is what ends the run, and shows the learner decisions beside it; without
    one it counts learner decisions toward ``total_timesteps``."""

    def __init__(self, total_timesteps, timesteps, deadline=None, started=None):
        from tqdm import tqdm
        self.deadline = deadline
        if deadline is not None:
            self.started = time.time() if started is None else started
            budget = max(0.0, deadline - self.started)
            self.bar = tqdm(total=round(budget, 1), unit="s", desc="self-play (time budget)", file=sys.stderr,
                            dynamic_ncols=True, bar_format="{l_bar}{bar}| {n:.0f}/{total:.0f} s "
                                                           "[{elapsed}<{remaining}{postfix}]")
        else:
            self.bar = tqdm(total=total_timesteps, initial=timesteps, unit="step", desc="self-play",
                            file=sys.stderr, dynamic_ncols=True)
        self.first_timesteps = timesteps

    def update(self, timesteps):
        if self.deadline is None:
            self.bar.update(timesteps - self.bar.n)
            return
        now = min(time.time(), self.deadline)
        self.bar.update(round(now - self.started, 1) - self.bar.n)
        self.bar.set_postfix_str(f"{timesteps:,} learner decisions", refresh=False)

    def close(self):
        self.bar.close()


def _callback_class():
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """League snapshots and weights, league win rates, checkpoints,
        periodic evaluation, the progress bar and the wall-clock budget."""

        def __init__(self, args, run_dir, league, history, deadline):
            super().__init__()
            self.args, self.run_dir, self.league = args, Path(run_dir), league
            self.history, self.deadline = history, deadline
            self.updates = sum(1 for h in history if h.get("kind") == "update")
            self.bar = None
            self.window = {}
            self.solo = args.spec().num_seats == 1

        # ---- league
        def push_league(self, new=None, dropped=()):
            self.training_env.env_method("league_update", self.league.weights(), new or {}, list(dropped))

        def push_curriculum(self):
            """The annealed curriculum's start for the decisions to come (logged)."""
            after = curriculum_start(self.args, self.model.num_timesteps)
            self.training_env.env_method("curriculum_from", after)
            self.logger.record("curriculum/after", after)
            return after

        def snapshot(self):
            if self.solo:
                # no seat for a snapshot to play: the learner is alone
                self.push_league()
                return
            sid, dropped = self.league.add_snapshot(self.updates, self.model.policy.state_dict())
            self.push_league({sid: self.league.snapshots[sid][1]}, dropped)

        def _on_training_start(self):
            if self.args.progress:
                self.bar = TrainingProgress(self.args.total_timesteps, self.model.num_timesteps, self.deadline)
            if not self.league.snapshots:
                self.snapshot()
                if self.args.eval_every and any(h.get("kind") == "imitation" for h in self.history):
                    # where PPO starts from: the cloned policy, on the curve at 0 decisions
                    self.run_eval()
            else:
                # resumed: the fresh workers need every snapshot the league holds
                self.push_league({k: v[1] for k, v in self.league.snapshots.items()})

        def _on_step(self):
            for info in self.locals.get("infos", ()):
                outcome = info.get("league")
                if outcome:
                    self.league.record(outcome["opponent"], outcome["result"])
                    kind = outcome["opponent"].split(":")[0]
                    self.window.setdefault(kind, []).append(outcome["result"])
            if self.bar is not None:
                self.bar.update(self.model.num_timesteps)
            return not (self.deadline and time.time() > self.deadline)

        def _on_rollout_end(self):
            self.updates += 1
            entry = {"kind": "update", "update": self.updates, "timesteps": self.model.num_timesteps,
                     "time": time.time()}
            for kind, results in self.window.items():
                # results are outcomes of the learner's seat: "win", "draw" or "loss"
                r = np.asarray(results)
                self.logger.record(f"league/win_rate_vs_{kind}", float((r == "win").mean()))
                self.logger.record(f"league/loss_rate_vs_{kind}", float((r == "loss").mean()))
                self.logger.record(f"league/games_vs_{kind}", len(r))
                entry[f"win_rate_vs_{kind}"] = float((r == "win").mean())
            self.logger.record("league/snapshots", len(self.league.snapshots))
            if self.args.curriculum_anneal:
                entry["curriculum_after"] = self.push_curriculum()
            if self.args.curriculum:
                # recorded positions the soundness check refused (each warned about once)
                refused = len(self.training_env.get_attr("refused_start_positions", [0])[0])
                self.logger.record("curriculum/refused_positions", refused)
                entry["curriculum_refused"] = refused
            self.window = {}
            self.history.append(entry)
            if self.updates % self.args.snapshot_every == 0:
                self.snapshot()
            else:
                self.push_league()
            if self.args.eval_every and self.updates % self.args.eval_every == 0:
                self.run_eval()
            if self.updates % self.args.checkpoint_every == 0:
                save_checkpoint(self.model, self.run_dir, self.league, self.history)

        def run_eval(self):
            from dragongym.training.policy import PolicyAgent
            started = time.time()
            agent = PolicyAgent(copy.deepcopy(self.model.policy).cpu(), deterministic=True, name="learner")
            results = evaluate(self.args, agent, self.args.eval_games, seed=self.args.seed + self.updates,
                               records=str(self.run_dir / EVAL_RECORDS))
            for opponent, r in results.items():
                self.logger.record(f"eval/win_rate_vs_{opponent}", r["win_rate"])
                if r["decided_win_rate"] is not None:
                    self.logger.record(f"eval/decided_win_rate_vs_{opponent}", r["decided_win_rate"])
                self.logger.record(f"eval/mean_reward_vs_{opponent}", r["mean_reward"])
            self.logger.record("eval/seconds", time.time() - started)
            self.history.append({"kind": "eval", "update": self.updates, "timesteps": self.model.num_timesteps,
                                 "time": time.time(), "games": self.args.eval_games, "results": results})

        def _on_training_end(self):
            if self.bar is not None:
                self.bar.close()

    return SelfPlayCallback


FINAL_EXCLUDES = ("_last_obs", "_last_original_obs", "_last_episode_starts")
"""Model attributes ``final.zip`` leaves out: the trainer's rollout state."""


def save_checkpoint(model, run_dir, league, history):
    """``checkpoints/latest.zip`` + ``league.pt`` + ``history.json`` (written then renamed)."""
    import torch
    ck = Path(run_dir) / "checkpoints"
    ck.mkdir(parents=True, exist_ok=True)
    model.save(ck / "latest.tmp.zip")
    os.replace(ck / "latest.tmp.zip", ck / "latest.zip")
    torch.save(league.state_dict(), ck / "league.tmp.pt")
    os.replace(ck / "league.tmp.pt", ck / "league.pt")
    (ck / "history.json").write_text(json.dumps(history))


# ------------------------------------------------------------------------ train

def raw_step_rate(args):
    """The history entry of the vector API's own rate: decisions per second
    of ``n_envs`` games of the run's options stepped with random actions
    (``dragongym.benchmarks.suite.bench_vec``, observations on, one thread)."""
    from dragongym.benchmarks.suite import bench_vec
    rate = bench_vec(args.game, args.n_envs, True, 1, args.env_rate_seconds, seed=args.seed,
                     **args.config_options())
    return {"kind": "env_rate", "decisions_per_second": rate, "games": args.n_envs,
            "seconds": args.env_rate_seconds, "time": time.time()}


def warm_start(args, model):
    """Behaviour-clone the teacher into ``model.policy``; returns the history entry."""
    from dragongym.training.imitation import behaviour_clone, collect_demonstrations
    started = time.time()
    import dragongym
    teacher = args.imitate_teacher or dragongym.get_game(args.game).heuristic_agent
    options = args.config_options()
    obs, masks, actions = collect_demonstrations(args.game, teacher, args.imitate_decisions,
                                                 seed=args.seed, **options)
    collected = time.time()
    epochs = behaviour_clone(model.policy, obs, masks, actions, epochs=args.imitate_epochs,
                             seed=args.seed,
                             log=lambda e, loss, acc: print(f"imitation epoch {e}: loss {loss:.3f}, "
                                                            f"accuracy {acc:.3f}", file=sys.stderr))
    return {"kind": "imitation", "teacher": teacher, "decisions": len(actions), "time": time.time(),
            "collect_seconds": collected - started, "train_seconds": time.time() - collected,
            "epochs": [{"loss": loss, "accuracy": acc} for loss, acc in epochs]}


NETWORK_SETTINGS = ("channels", "blocks", "hidden")
"""The network's settings a checkpoint keeps (``policy_kwargs``), besides its class."""


def init_problem(args):
    """``""`` if the checkpoint ``args.init`` can start this run's network,
    else one line saying why not: no such file, not a checkpoint, another
    game, another network (read from the checkpoint's ``data`` JSON, nothing
    unpickled)."""
    import zipfile
    from dragongym.training.policy import POLICY_MODULES, saved_data

    if not os.path.isfile(args.init):
        return f"init {args.init}: no such file"
    try:
        data = saved_data(args.init)
        saved = data["policy_class"]["__module__"]
        kwargs = data["policy_kwargs"]["features_extractor_kwargs"]
    except (OSError, KeyError, TypeError, ValueError, zipfile.BadZipFile) as error:
        return f"init {args.init}: not a checkpoint this trainer wrote ({type(error).__name__}: {error})"
    if kwargs.get("game") != args.game:
        return f"init {args.init} was trained on {kwargs.get('game')!r}, not {args.game!r}"
    theirs = (POLICY_MODULES.get(saved), *(kwargs.get(k) for k in NETWORK_SETTINGS))
    mine = (POLICIES[args.policy], *(getattr(args, k) for k in NETWORK_SETTINGS))
    if theirs != mine:
        described = lambda net: f"{net[0][1] if net[0] else saved}, " + ", ".join(        # noqa: E731
            f"{k} {v}" for k, v in zip(NETWORK_SETTINGS, net[1:]))
        return (f"init {args.init}: its network ({described(theirs)}) is not this run's ({described(mine)}); "
                f"give the checkpoint's --policy, --channels, --blocks and --hidden")
    return ""


def start_from(args, model):
    """Copy the network of the checkpoint ``args.init`` (checked by
    :func:`init_problem`) into ``model.policy``; returns the history entry."""
    from dragongym.training.policy import load_policy
    try:
        model.policy.load_state_dict(load_policy(args.init).state_dict())
    except RuntimeError as error:       # the same settings, another observation or action layout
        raise ValueError(f"init {args.init}: its weights do not fit this run's network "
                         f"({str(error).splitlines()[0]})") from None
    return {"kind": "init", "checkpoint": str(args.init), "time": time.time()}


def train(args):
    """Run self-play training (and the final evaluation); returns the run directory."""
    import torch
    from sb3_contrib import MaskablePPO
    from dragongym.training.league import League

    torch.set_num_threads(args.torch_threads)
    if args.keep_freed_memory:
        from dragongym.training.allocator import keep_freed_memory
        keep_freed_memory()
    history = []
    if args.resume:
        run_dir = Path(args.resume)
        if not (run_dir / "checkpoints" / "latest.zip").exists():
            raise FileNotFoundError(f"--resume {args.resume}: no checkpoints/latest.zip in it")
        saved = json.loads((run_dir / "args.json").read_text())
        keep = {k: getattr(args, k) for k in RESUME_SETTINGS}
        args = saved_args({**saved, **keep})
        history = json.loads((run_dir / "checkpoints" / "history.json").read_text())
        # args.json keeps the launch arguments; each resume is recorded in the history
        history.append({"kind": "resume", "time": time.time(), "args": keep})
        args.validate()
    else:
        args.validate()
        run_dir = Path(args.out_dir) / (args.run_name or default_run_name(args))
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "args.json").write_text(json.dumps(asdict(args), indent=1))

    if args.env_rate_seconds and not any(h.get("kind") == "env_rate" for h in history):
        history.append(raw_step_rate(args))      # once per run (a run from before it: at its resume)
    venv = make_vec_env(args)
    if args.opponent:
        # an opponent loaded from a checkpoint sets torch to the one thread of an env worker
        # (training/policy.py load_agent); the learner keeps the trainer's threads
        torch.set_num_threads(args.torch_threads)
    league = League({"self": args.mix_self, "random": args.mix_random, args.heuristic_slot(): args.mix_heuristic},
                    capacity=args.league_size, recency=args.recency)
    if args.resume:
        model = MaskablePPO.load(run_dir / "checkpoints" / "latest.zip", env=venv, device=args.device,
                                 tensorboard_log=str(run_dir / "tb"))
        league.load_state_dict(torch.load(run_dir / "checkpoints" / "league.pt", weights_only=False))
    else:
        model = MaskablePPO(policy_class(args), venv, learning_rate=args.learning_rate, n_steps=args.n_steps,
                            batch_size=args.batch_size, n_epochs=args.n_epochs, gamma=args.gamma,
                            gae_lambda=args.gae_lambda, clip_range=args.clip_range, ent_coef=args.ent_coef,
                            vf_coef=args.vf_coef, max_grad_norm=args.max_grad_norm,
                            target_kl=args.target_kl or None, policy_kwargs=policy_kwargs(args),
                            tensorboard_log=str(run_dir / "tb"), seed=args.seed, device=args.device,
                            verbose=0)
        if args.imitate_decisions:
            history.append(warm_start(args, model))
        if args.init:
            history.append(start_from(args, model))
    # The trainer resets the env (so the first episodes draw their opponents)
    # before the callback's first league push: without this, every game of the
    # first round -- a whole Dragonhunt game per row, some 190k learner
    # decisions at the defaults -- was played against the env's fallback, random.
    first = league.weights()
    if first:
        venv.env_method("league_update", first, {k: v[1] for k, v in league.snapshots.items()}, [])
    if args.curriculum_anneal:
        # likewise the first episodes start where the anneal stands (resumed: later)
        venv.env_method("curriculum_from", curriculum_start(args, model.num_timesteps))
    deadline = time.time() + 60 * args.max_minutes if args.max_minutes else None
    callback = _callback_class()(args, run_dir, league, history, deadline)
    started = time.time()
    remaining = max(0, args.total_timesteps - model.num_timesteps)
    interrupted = False
    try:
        if remaining and args.trainer == "sb3":
            model.learn(remaining, callback=callback, reset_num_timesteps=not args.resume,
                        tb_log_name="selfplay")
        elif remaining:
            from dragongym.training import ppo
            if args.overlap_update:
                torch.set_num_threads(max(1, args.torch_threads // 2))   # each of the two threads its share
            try:
                ppo.learn(model, remaining, callback=callback, reset_num_timesteps=not args.resume,
                          tb_log_name="selfplay", overlap=args.overlap_update)
            finally:
                torch.set_num_threads(args.torch_threads)
    except KeyboardInterrupt:
        # Ctrl-C stops training, not the run: what was trained is saved below
        # (checkpoint and final.zip; --resume continues), the final evaluation is skipped
        interrupted = True
        print(f"selfplay: interrupted at {model.num_timesteps} learner decisions; saving. "
              f"--resume {run_dir} continues", file=sys.stderr)
    history.append({"kind": "end", "timesteps": model.num_timesteps, "time": time.time(),
                    "train_seconds": time.time() - started, **({"interrupted": True} if interrupted else {})})
    save_checkpoint(model, run_dir, league, history)
    # the agent needs no rollout state (256 observations: megabytes); --resume reads latest.zip
    model.save(run_dir / "final.zip", exclude=list(FINAL_EXCLUDES))
    venv.close()

    if args.final_eval_games and not interrupted:
        results = evaluate(args, str(run_dir / "final.zip"), args.final_eval_games,
                           seed=10_000 + args.seed, workers=args.eval_workers,
                           records=str(run_dir / EVAL_RECORDS))
        history.append({"kind": "final_eval", "timesteps": model.num_timesteps, "time": time.time(),
                        "games": args.final_eval_games, "results": results})
    (run_dir / "history.json").write_text(json.dumps(history, indent=1))
    plot_learning_curve(history, run_dir / "learning_curve.png",
                        f"{args.game}, {args.spec().num_seats} seat(s), seed {args.seed}")
    return run_dir


def parse_args(argv=None, prog="python -m dragongym.training.selfplay"):
    """The :class:`Args` of a command line (``--help`` lists them); tokens the
    trainer does not know are the game's own options (``--max-hands 20``).
    Raises ValueError on a bad game option."""
    import tyro

    import dragongym
    args, extra = tyro.cli(Args, args=argv, prog=prog, description=__doc__.split("\n\n")[0],
                           return_unknown_args=True)
    game = dragongym.get_game(args.game) if args.game and extra else None
    args.game_options = {**args.game_options, **parse_game_options(extra, game)}
    if args.resume and extra:
        raise ValueError(f"--resume plays the run's own game options; drop {' '.join(extra)}")
    if args.resume:
        # a resumed run keeps its launch arguments (args.json); a setting given beside
        # --resume would be dropped without a word, so it is refused instead
        fresh = Args()
        given = [f"--{f.name.replace('_', '-')}" for f in fields(Args)
                 if f.name not in RESUME_SETTINGS and getattr(args, f.name) != getattr(fresh, f.name)]
        if given:
            raise ValueError(f"--resume trains on with the run's own settings; drop {' '.join(given)} "
                             f"(only {', '.join('--' + k.replace('_', '-') for k in RESUME_SETTINGS if k != 'resume')} "
                             "may change)")
    return args


def main(argv=None, prog="python -m dragongym.training.selfplay"):
    """Parse the arguments (``--help`` lists them), train, print the final evaluation."""
    try:
        args = parse_args(argv, prog)
        run_dir = train(args)
    except (ValueError, FileNotFoundError) as error:
        print(f"selfplay: {error}", file=sys.stderr)
        return 2
    print(f"run directory: {run_dir}")
    final = json.loads((run_dir / "history.json").read_text())
    for h in final:
        if h.get("kind") == "final_eval":
            for opponent, r in h["results"].items():
                print(f"final vs {opponent}: {r['wins']}W {r['draws']}D {r['losses']}L of {r['games']} "
                      f"(win rate {r['win_rate']:.3f}, decided {r['decided_win_rate']})")
    ends = [h for h in final if h.get("kind") == "end"]
    return 130 if ends and ends[-1].get("interrupted") else 0     # 128 + SIGINT, as a shell reports it


if __name__ == "__main__":
    sys.exit(main())
