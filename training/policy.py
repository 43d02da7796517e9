"""The self-play policy network, and trained checkpoints as agents.

:class:`BoardPolicy` is an sb3-contrib ``MaskableActorCriticPolicy`` built
from the game's declared observation layout (``GameSpec.obs_layout``):

* the board block ``(cells, planes)`` is reshaped to ``planes x rows x
  columns`` (``GameSpec.board_shape``), joined by a learned per-cell embedding
  (the fixed terrain is not in the observation: the net learns it per cell),
  and run through a 3x3 conv stem and ``blocks`` residual blocks of
  ``channels`` channels (on an odd-q hex grid a 3x3 window holds all six
  neighbours of a hex);
* every other block goes through an MLP of width ``hidden``, which is also
  added to every cell's features, so the board reads in the decision context;
* actions in the game's ``"cell"`` action block get one logit per cell from a
  1x1 conv over the board features (the same filter everywhere: "this cell"
  choices share what they learn); the other actions and the value come from
  the pooled board and the MLP.

Masking: ``MaskablePPO`` sets illegal logits to a large negative value and its
``MaskableCategorical`` counts entropy over legal actions only.

Checkpoints: ``dragongym.training.selfplay`` saves ``MaskablePPO`` ``.zip`` files;
:func:`load_agent` turns one into an :class:`dragongym.agents.Agent` (the agent
registry loads ``*.zip`` ids through it), playing masked greedy or sampled
actions on the observation alone.
"""
import numpy as np
import torch
from torch import nn
from gymnasium import spaces
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

import dragongym
from dragongym.agents.base import Agent


def board_block(spec):
    """``(offset, cells, planes, rows, cols)`` of the game's board block.

    Raises a ValueError if the game declares no rank-2 block or its cells do
    not fill the printed ``board_shape`` rectangle in reading order.
    """
    for name, (offset, shape) in spec.obs_layout.items():
        if len(shape) == 2:
            cells, planes = shape
            cols, rows = spec.board_shape
            if cells != cols * rows:
                raise ValueError(f"{spec.name}: board block {name!r} has {cells} cells, not the "
                                 f"{cols}x{rows} of board_shape; BoardPolicy needs a full rectangle")
            return offset, cells, planes, rows, cols
    raise ValueError(f"{spec.name}: obs_layout declares no (cells, planes) board block")


class _Residual(nn.Module):
    def __init__(self, channels):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        return torch.relu(x + self.conv2(torch.relu(self.conv1(x))))


class BoardTrunk(BaseFeaturesExtractor):
    """Observation -> ``[cell logits (cells), latent (hidden)]``.

    Args:
        observation_space: the flat ``Box`` of the game's observation.
        game: registered game id (its spec gives the layout).
        channels: conv channels of the board trunk.
        blocks: residual blocks after the stem.
        hidden: width of the MLP over the flat blocks and of the latent.
        cell_embed: learned per-cell channels (terrain and position).
    """

    def __init__(self, observation_space, game="dragonhunt", channels=32, blocks=2, hidden=256,
                 cell_embed=8):
        spec = dragongym.get_game(game).spec
        offset, cells, planes, rows, cols = board_block(spec)
        super().__init__(observation_space, features_dim=cells + hidden)
        self.offset, self.cells, self.planes, self.rows, self.cols = offset, cells, planes, rows, cols
        flat = np.r_[0:offset, offset + cells * planes:spec.obs_size]
        self.register_buffer("flat_index", torch.as_tensor(flat, dtype=torch.long), persistent=False)
        self.cell_embed = nn.Parameter(torch.zeros(1, cell_embed, rows, cols))
        self.stem = nn.Conv2d(planes + cell_embed, channels, 3, padding=1)
        self.trunk = nn.Sequential(*[_Residual(channels) for _ in range(blocks)])
        self.flat_mlp = nn.Sequential(nn.Linear(len(flat), hidden), nn.ReLU(),
                                      nn.Linear(hidden, hidden), nn.ReLU())
        self.context = nn.Linear(hidden, channels)
        self.cell_head = nn.Conv2d(channels, 1, 1)
        self.latent = nn.Sequential(nn.Linear(2 * channels + hidden, hidden), nn.ReLU())

    def forward(self, obs):
        n = obs.shape[0]
        board = obs[:, self.offset:self.offset + self.cells * self.planes]
        board = board.reshape(n, self.rows, self.cols, self.planes).permute(0, 3, 1, 2)
        x = torch.cat([board, self.cell_embed.expand(n, -1, -1, -1)], dim=1)
        flat = self.flat_mlp(obs.index_select(1, self.flat_index))
        x = torch.relu(self.stem(x) + self.context(flat)[:, :, None, None])
        x = self.trunk(x)
        cell_logits = self.cell_head(x).reshape(n, self.cells)
        pooled = torch.cat([x.mean(dim=(2, 3)), x.amax(dim=(2, 3))], dim=1)
        return torch.cat([cell_logits, self.latent(torch.cat([pooled, flat], dim=1))], dim=1)


class _ActionHead(nn.Module):
    """``[cell logits, latent]`` -> logits over the whole action space."""

    def __init__(self, cells, hidden, num_actions, cell_offset):
        super().__init__()
        self.cells = cells
        self.other = nn.Linear(hidden, num_actions - cells)
        # position of each action in cat([cell logits, other logits])
        order = np.empty(num_actions, dtype=np.int64)
        cell_actions = np.arange(cell_offset, cell_offset + cells)
        order[cell_actions] = np.arange(cells)
        others = np.setdiff1d(np.arange(num_actions), cell_actions)
        order[others] = cells + np.arange(len(others))
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

    ``features_extractor_kwargs`` carries ``game``, ``channels``, ``blocks``,
    ``hidden``, ``cell_embed``; ``net_arch`` is ignored (the heads are fixed).
    """

    def __init__(self, observation_space, action_space, lr_schedule, **kwargs):
        kwargs["net_arch"] = []
        kwargs["features_extractor_class"] = BoardTrunk
        kwargs.setdefault("share_features_extractor", True)
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build(self, lr_schedule):
        self._build_mlp_extractor()                       # identity: net_arch is []
        trunk = self.features_extractor
        spec = dragongym.get_game(self.features_extractor_kwargs.get("game", "dragonhunt")).spec
        cell_offset = spec.action_layout.get("cell", (0, 0))[0]
        hidden = trunk.features_dim - trunk.cells
        self.action_net = _ActionHead(trunk.cells, hidden, int(self.action_space.n), cell_offset)
        self.value_net = _ValueHead(trunk.cells, hidden)
        if self.ortho_init:
            for module, gain in ((trunk, np.sqrt(2)), (self.action_net, 0.01), (self.value_net, 1.0)):
                module.apply(lambda m, g=gain: self.init_weights(m, gain=g))
            # the cell logits leave the trunk: start them as small as the other logits
            self.init_weights(trunk.cell_head, gain=0.01)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)


# ---------------------------------------------------------------- as an agent

class PolicyAgent(Agent):
    """A trained policy playing from its observation and mask.

    Args:
        policy: a ``MaskableActorCriticPolicy``.
        deterministic: play the most probable legal action (else sample from
            the masked distribution with the caller's generator).
        name: label for tables.
    """

    uses_state = False

    def __init__(self, policy, deterministic=True, name="policy"):
        self.policy = policy.eval()
        self.deterministic = bool(deterministic)
        self.name = name

    @torch.no_grad()
    def logits(self, obs):
        """Unmasked action logits ``[B, A]`` (numpy) of observations ``[B, obs_size]``."""
        p = self.policy
        obs_t = torch.as_tensor(np.asarray(obs, dtype=np.float32)).reshape(len(obs), -1)
        features = p.extract_features(obs_t)
        if isinstance(features, tuple):              # separate actor and critic extractors
            features = features[0]
        return p.action_net(p.mlp_extractor.forward_actor(features)).numpy()

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


def load_policy(path, device="cpu"):
    """The policy of a ``MaskablePPO`` ``.zip`` checkpoint (no env needed)."""
    from sb3_contrib import MaskablePPO
    model = MaskablePPO.load(path, device=device)
    return model.policy


def load_agent(path, game=None, deterministic=True, **_):
    """Agent-registry loader for ``*.zip`` checkpoints of ``dragongym.training.selfplay``.

    Raises a ValueError if the checkpoint was trained on another game than ``game``.
    """
    torch.set_num_threads(1)
    policy = load_policy(path)
    trained_on = getattr(policy, "features_extractor_kwargs", {}).get("game")
    if game is not None and trained_on is not None and trained_on != game.spec.name:
        raise ValueError(f"{path} was trained on {trained_on!r}, not {game.spec.name!r}")
    if game is not None and policy.action_space.n != game.spec.num_actions:
        raise ValueError(f"{path} has {policy.action_space.n} actions; {game.spec.name} has "
                         f"{game.spec.num_actions}")
    return PolicyAgent(policy, deterministic=deterministic, name=str(path))
