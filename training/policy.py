"""The self-play policy network, and trained checkpoints as agents.

:class:`BoardPolicy` is an sb3-contrib ``MaskableActorCriticPolicy`` built
from the typed observation and action layouts of the configuration it plays
(``GameSpec.obs_layout`` / ``action_layout``, see ``dragongym.envs.core.spec``):

* the grid block (kind ``"grid"`` whose cells fill its ``grid_shape``
  rectangle; with several, the one with most cells) is reshaped to ``planes x
  rows x columns``, joined by a learned per-cell embedding (fixed terrain is
  not in the observation: the net learns it per cell), and run through a 3x3
  conv stem and ``blocks`` residual blocks of ``channels`` channels (on an
  odd-q hex grid a 3x3 window holds all six neighbours of a hex);
* every other block (flat features, graphs, entities, other grids) goes
  through an MLP of width ``hidden``, which is also added to every cell's
  features, so the board reads in the decision context;
* each action block whose ``indexes`` names the grid block gets one logit per
  cell from a 1x1 conv over the board features (the same filter everywhere:
  "this cell" choices share what they learn); the other actions and the value
  come from the pooled board and the MLP.

A game without such a grid block gets the MLP alone (every action and the
value from its latent).

Masking: ``MaskablePPO`` sets illegal logits to a large negative value and its
``MaskableCategorical`` counts entropy over legal actions only.

Checkpoints: ``dragongym.training.selfplay`` saves ``MaskablePPO`` ``.zip`` files;
:func:`load_agent` turns one into an :class:`dragongym.agents.Agent` (the agent
registry loads ``*.zip`` ids through it), playing masked greedy or sampled
actions on the observation alone. It loads checkpoints saved before the
package was named ``dragongym`` too (their pickled class paths named
``training.policy``).
"""
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

import dragongym
from dragongym.agents.base import Agent


@dataclass(frozen=True)
class GridLayout:
    """Where the conv trunk's board is in the observation and the actions.

    Attributes:
        name: the grid block's name in ``obs_layout``.
        offset: index of its first float.
        cells: cells (``columns * rows``).
        planes: floats per cell.
        rows, cols: the ``grid_shape`` rectangle the cells fill in reading order.
        cell_actions: ``(offset, size)`` of every action block that indexes the
            grid (one logit per cell each), in action order.
    """

    name: str
    offset: int
    cells: int
    planes: int
    rows: int
    cols: int
    cell_actions: tuple


def spec_of(game, game_options=None):
    """The spec of ``game`` (a registered id or a Game) in the configuration
    ``game_options`` (None: the game's default configuration)."""
    if isinstance(game, str):
        game = dragongym.get_game(game)
    return game.spec_for(game.make_config(**dict(game_options or {})))


def grid_layout(spec):
    """The :class:`GridLayout` of ``spec``'s board, or None when it declares no
    grid block whose cells fill a ``grid_shape`` rectangle (then the policy is
    the MLP alone)."""
    grids = [(name, b) for name, b in spec.obs_layout.items()
             if b.kind == "grid" and b.grid_shape and int(np.prod(b.grid_shape)) == b.shape[0]]
    if not grids:
        return None
    name, block = max(grids, key=lambda nb: (nb[1].shape[0], -nb[1].offset))
    cols, rows = (int(x) for x in block.grid_shape)
    cell_actions = tuple(sorted((a.offset, a.size) for a in spec.action_layout.values()
                                if a.indexes == name))
    return GridLayout(name, int(block.offset), int(block.shape[0]), int(block.shape[1]), rows, cols,
                      cell_actions)


class _Residual(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        return torch.relu(x + self.conv2(torch.relu(self.conv1(x))))


class BoardTrunk(BaseFeaturesExtractor):
    """Observation -> ``[cell logits (cell_outputs), latent (hidden)]``.

    ``cell_outputs`` is ``cells`` times the number of action blocks that index
    the grid (0 without a grid).

    Args:
        observation_space: the flat ``Box`` of the game's observation.
        game: registered game id (its spec gives the layout).
        game_options: the configuration's options (None: the default one).
        channels: conv channels of the board trunk.
        blocks: residual blocks after the stem.
        hidden: width of the MLP over the other blocks and of the latent.
        cell_embed: learned per-cell channels (terrain and position).
    """

    def __init__(self, observation_space, game, game_options=None, channels=32, blocks=2, hidden=256,
                 cell_embed=8):
        spec = spec_of(game, game_options)
        grid = grid_layout(spec)
        heads = len(grid.cell_actions) if grid else 0
        cell_outputs = grid.cells * heads if grid else 0
        super().__init__(observation_space, features_dim=cell_outputs + hidden)
        self.grid, self.heads, self.cell_outputs = grid, heads, cell_outputs
        if grid is None:
            flat = np.arange(spec.obs_size)
        else:
            flat = np.r_[0:grid.offset, grid.offset + grid.cells * grid.planes:spec.obs_size]
        self.register_buffer("flat_index", torch.as_tensor(flat, dtype=torch.long), persistent=False)
        self.flat_mlp = nn.Sequential(nn.Linear(len(flat), hidden), nn.ReLU(),
                                      nn.Linear(hidden, hidden), nn.ReLU())
        if grid is None:
            self.cell_head = None
            self.latent = nn.Sequential(nn.Linear(hidden, hidden), nn.ReLU())
            return
        self.cell_embed = nn.Parameter(torch.zeros(1, cell_embed, grid.rows, grid.cols))
        self.stem = nn.Conv2d(grid.planes + cell_embed, channels, 3, padding=1)
        self.trunk = nn.Sequential(*[_Residual(channels) for _ in range(blocks)])
        self.context = nn.Linear(hidden, channels)
        self.cell_head = nn.Conv2d(channels, heads, 1) if heads else None
        self.latent = nn.Sequential(nn.Linear(2 * channels + hidden, hidden), nn.ReLU())

    def forward(self, obs):
        n = obs.shape[0]
        flat = self.flat_mlp(obs.index_select(1, self.flat_index))
        g = self.grid
        if g is None:
            return self.latent(flat)
        board = obs[:, g.offset:g.offset + g.cells * g.planes]
        board = board.reshape(n, g.rows, g.cols, g.planes).permute(0, 3, 1, 2)
        x = torch.cat([board, self.cell_embed.expand(n, -1, -1, -1)], dim=1)
        x = torch.relu(self.stem(x) + self.context(flat)[:, :, None, None])
        x = self.trunk(x)
        pooled = torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1)
        latent = self.latent(torch.cat([pooled, flat], dim=1))
        if not self.heads:
            return latent
        # head k's logits for all cells, then head k+1's: the order of grid.cell_actions
        cell_logits = self.cell_head(x).reshape(n, self.heads * g.cells)
        return torch.cat([cell_logits, latent], dim=1)


class _ActionHead(nn.Module):
    """``[cell logits, latent]`` -> logits over the whole action space.

    ``cell_actions``: ``(offset, size)`` of the action blocks whose logits are
    the cell logits, in the order the trunk emits them.
    """

    def __init__(self, cell_actions, hidden, num_actions):
        super().__init__()
        cell_ids = np.concatenate([np.arange(o, o + n) for o, n in cell_actions]) if cell_actions \
            else np.zeros(0, dtype=np.int64)
        self.cells = len(cell_ids)
        self.other = nn.Linear(hidden, num_actions - self.cells)
        # position of each action in cat([cell logits, other logits])
        order = np.empty(num_actions, dtype=np.int64)
        order[cell_ids] = np.arange(self.cells)
        others = np.setdiff1d(np.arange(num_actions), cell_ids)
        order[others] = self.cells + np.arange(len(others))
        self.register_buffer("order", torch.as_tensor(order), persistent=False)

    def forward(self, features):
        logits = torch.cat([features[:, :self.cells], self.other(features[:, self.cells:])], dim=1)
        return logits.index_select(1, self.order)


class _ValueHead(nn.Module):
    def __init__(self, cells, hidden):
        super().__init__()
        self.cells = cells
        self.linear = nn.Linear(hidden, 1)

    def forward(self, features):
        return self.linear(features[:, self.cells:])


class BoardPolicy(MaskableActorCriticPolicy):
    """Masked actor-critic over :class:`BoardTrunk` (see the module docstring).

    ``features_extractor_kwargs`` carries ``game``, ``game_options``,
    ``channels``, ``blocks``, ``hidden``, ``cell_embed`` (see
    :class:`BoardTrunk`); ``net_arch`` is ignored (the heads are fixed).
    """

    def __init__(self, observation_space, action_space, lr_schedule, **kwargs):
        kwargs["net_arch"] = []
        kwargs["features_extractor_class"] = BoardTrunk
        kwargs.setdefault("share_features_extractor", True)
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build(self, lr_schedule):
        self._build_mlp_extractor()                       # identity: net_arch is []
        trunk = self.features_extractor
        cell_actions = trunk.grid.cell_actions if trunk.grid is not None else ()
        hidden = trunk.features_dim - trunk.cell_outputs
        self.action_net = _ActionHead(cell_actions, hidden, int(self.action_space.n))
        self.value_net = _ValueHead(trunk.cell_outputs, hidden)
        if self.ortho_init:
            for module, gain in ((trunk, np.sqrt(2)), (self.action_net, 0.01), (self.value_net, 1.0)):
                module.apply(lambda m, g=gain: self.init_weights(m, gain=g))
            if trunk.cell_head is not None:
                # the cell logits leave the trunk: start them as small as the other logits
                self.init_weights(trunk.cell_head, gain=0.01)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)


# ---------------------------------------------------------------- as an agent

class PolicyAgent(Agent):
    """A trained policy playing from its observation and mask.

    Its forward pass runs as a trace of itself (:class:`dragongym.training.ppo.Acting`,
    taken at the first move; the same bytes as the eager call, less overhead a
    call): weights loaded into ``policy`` in place later are the ones it plays.

    Args:
        policy: a ``MaskableActorCriticPolicy``.
        deterministic: play the most probable legal action (else sample from
            the masked distribution with the caller's generator).
        name: label for tables.
    """

    uses_state = False

    def __init__(self, policy, deterministic=True, name="policy"):
        from dragongym.training.ppo import Acting, action_logits

        self.policy = policy.eval()
        self.deterministic = bool(deterministic)
        self.name = name
        self._logits = Acting(action_logits, self.policy)     # traced at the first move

    def logits(self, obs):
        """Unmasked action logits ``[B, A]`` (numpy) of observations ``[B, obs_size]``."""
        from dragongym.training.ppo import Acting, action_logits

        if self._logits.policy is not self.policy:        # a policy set after construction
            self._logits = Acting(action_logits, self.policy)
        obs_t = torch.as_tensor(np.asarray(obs, dtype=np.float32)).reshape(len(obs), -1)
        with torch.inference_mode():
            return self._logits(obs_t).numpy()

    @torch.no_grad()
    def values(self, obs):
        """The value head's estimate ``float64 [B]`` for the seat each observation
        ``[B, obs_size]`` is of: its expected return in the trainer's reward
        scale (the game's reward, about -1..1, plus any shaping). Search agents
        use it to score a position (``mcts`` with ``value=<checkpoint>``)."""
        obs_t = torch.as_tensor(np.asarray(obs, dtype=np.float32)).reshape(len(obs), -1)
        return self.policy.predict_values(obs_t).reshape(-1).double().numpy()

    def act_batch(self, obs, mask, rng):
        mask = np.asarray(mask).reshape(len(obs), -1) != 0
        if not mask.any(axis=1).all():
            raise ValueError("no legal action in some row of the mask")
        logits = np.where(mask, self.logits(obs).astype(np.float64), -np.inf)
        if self.deterministic:
            return logits.argmax(axis=1).astype(np.int64)
        probs = np.exp(logits - logits.max(axis=1, keepdims=True))
        probs /= probs.sum(axis=1, keepdims=True)
        # inverse-CDF sampling with one uniform per row from the caller's generator
        u = rng.random(len(mask))[:, None]
        picks = np.minimum((probs.cumsum(axis=1) < u).sum(axis=1), mask.shape[1] - 1)
        rows = np.arange(len(mask))
        stray = ~mask[rows, picks]                   # u beyond a cumsum that rounds below 1
        picks[stray] = mask.shape[1] - 1 - mask[stray, ::-1].argmax(axis=1)
        return picks.astype(np.int64)

    def act(self, obs, mask, rng):
        return int(self.act_batch(obs[None], np.asarray(mask)[None], rng)[0])


POLICY_MODULES = {
    "dragongym.training.policy": ("dragongym.training.policy", "BoardPolicy"),
    "training.policy": ("dragongym.training.policy", "BoardPolicy"),
    "dragongym.training.layout_policy": ("dragongym.training.layout_policy", "LayoutPolicy"),
}
"""Module path a checkpoint's policy class was pickled under -> the ``(module,
class)`` it is rebuilt from today: :class:`BoardPolicy` under today's path and
under the one of checkpoints saved before the package was named ``dragongym``
(such as the shipped ``training/checkpoints/*.zip``), and
:class:`dragongym.training.layout_policy.LayoutPolicy` (which came after the
rename)."""


def saved_data(path):
    """The ``data`` JSON of a ``MaskablePPO`` ``.zip`` checkpoint (its class
    names, ``policy_kwargs``...), read without unpickling anything."""
    import json
    import zipfile
    with zipfile.ZipFile(path) as archive:
        return json.loads(archive.read("data"))


def _saved_policy_module(path):
    """The module path the checkpoint's ``policy_class`` was pickled under, or None."""
    saved = saved_data(path).get("policy_class")
    return saved.get("__module__") if isinstance(saved, dict) else None


def load_policy(path, device="cpu"):
    """The policy of a ``MaskablePPO`` ``.zip`` checkpoint (no env needed).

    A policy pickled under any module path of :data:`POLICY_MODULES` is
    rebuilt from today's class (:class:`BoardPolicy` or ``LayoutPolicy``), so
    checkpoints from before the rename load without the old module on the path.
    """
    import importlib

    from sb3_contrib import MaskablePPO
    custom = {}
    today = POLICY_MODULES.get(_saved_policy_module(path))
    if today is not None:
        module, name = today
        custom["policy_class"] = getattr(importlib.import_module(module), name)
    model = MaskablePPO.load(path, device=device, custom_objects=custom)
    return model.policy


def load_agent(path, game=None, deterministic=True, **_):
    """Agent-registry loader for ``*.zip`` checkpoints of ``dragongym.training.selfplay``.

    Raises a ValueError if the checkpoint was trained on another game than
    ``game``, or its action space is not the game's.
    """
    torch.set_num_threads(1)
    policy = load_policy(path)
    kwargs = getattr(policy, "features_extractor_kwargs", {})
    trained_on = kwargs.get("game")
    if game is not None and trained_on is not None and trained_on != game.name:
        raise ValueError(f"{path} was trained on {trained_on!r}, not {game.name!r}")
    if game is not None:
        spec = spec_of(game, kwargs.get("game_options"))
        if policy.action_space.n != spec.num_actions:
            raise ValueError(f"{path} has {policy.action_space.n} actions; {spec.name} has "
                             f"{spec.num_actions}")
    return PolicyAgent(policy, deterministic=deterministic, name=str(path))
