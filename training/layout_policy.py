"""One policy network for every game, built from the block kinds of its spec.

:class:`LayoutPolicy` is an sb3-contrib ``MaskableActorCriticPolicy`` whose
features extractor :class:`LayoutTrunk` reads the typed observation and action
layouts of the configuration it plays (``GameSpec.obs_layout`` /
``action_layout``, see ``dragongym.envs.core.spec``) and gives each block kind
the structure it has:

* a ``grid`` whose cells fill its ``grid_shape`` rectangle (a *board*): its
  planes, its ``static`` planes (``GameSpec.constants``: the terrain, the same
  in every observation and so not in it) and a learned per-cell embedding go
  through a 3x3 conv stem and ``blocks`` residual blocks of ``channels``
  channels, with the decision context added to every cell after the stem. On
  an odd-q (or even-q) offset hex grid a 3x3 window holds all six neighbours
  of a hex (and two cells that are not: the filters learn to weigh them), on a
  square grid all eight. The static planes and the embedding are the same for
  every sample, so their share of the stem is computed once per forward pass
  (and cached between passes without gradients), not once per sample;
* a ``graph``: a per-node encoder conditioned on the context, then ``rounds``
  rounds of message passing, each node hearing the mean of its neighbours
  (the node numbers of the graph's ``neighbours`` block, ``-1`` for "no
  neighbour"); where the block declares a ``valid_column`` the nodes whose
  column is 0 are absent: zeroed, heard by nobody;
* ``entities`` (and a ``grid`` whose cells fill no rectangle, read as a set of
  cells that are all real): a shared MLP per row; rows whose ``valid_column``
  is 0 are padding and are zeroed after the MLP, so nothing written in them
  reaches the output;
* the ``flat`` blocks, all together: one layer of width ``hidden``;
* a ``neighbours`` block is read by its graph only (it holds node numbers, not
  features).

The *context* is first the flat features and the masked mean and max of every
row set (entities, cell sets); it conditions the boards and graphs, whose
pooled mean and max join it in the *latent* (width ``hidden``). The value and
every action that indexes nothing come from the latent (one linear layer
each, :class:`dragongym.training.policy._ActionHead` / ``_ValueHead``).

Each action block that ``indexes`` a grid, graph or entities block (action
``offset + i`` is about row ``i``) gets one logit per cell, node or row from
a pointer head: that row's features dotted with a query computed from the
latent, plus an offset of the whole block from the latent. All rows share
the head ("this cell" choices share what they learn), and the query lets the
decision context choose among them. The trunk emits these logits first, in
the order of the action blocks' offsets; ``_ActionHead`` puts every logit in
action order.

Masking is ``MaskablePPO``'s: illegal logits set to a large negative value,
entropy over the legal actions only. :class:`dragongym.training.policy.PolicyAgent`
plays a trained ``LayoutPolicy`` and ``dragongym.training.policy.load_agent``
loads its checkpoints.
"""
from dataclasses import dataclass

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor

from dragongym.training.policy import _ActionHead, _ValueHead, spec_of


# ------------------------------------------------------------------ the layout

@dataclass(frozen=True)
class BoardBlock:
    """A ``grid`` block whose cells fill its ``grid_shape`` rectangle in reading order.

    Attributes:
        name: the block's name in ``obs_layout``.
        offset: index of its first float.
        planes: floats per cell in the observation.
        rows, cols: the rectangle (``grid_shape`` is ``(cols, rows)``).
        static: ``(cells, planes)`` constant planes (the spec's
            ``constants[block.static]``), or None.
    """

    name: str
    offset: int
    planes: int
    rows: int
    cols: int
    static: object = None

    @property
    def cells(self):
        return self.rows * self.cols


@dataclass(frozen=True)
class RowBlock:
    """A set of rows read one by one: an ``entities`` block, or a ``grid``
    whose cells fill no rectangle.

    Attributes:
        name, offset: as in ``obs_layout``.
        rows: rows (entities or cells).
        features: floats per row.
        valid_column: the feature that is 1 for a real row and 0 for padding
            (-1: every row is real).
        static: ``(rows, planes)`` constant planes read beside each row, or None.
    """

    name: str
    offset: int
    rows: int
    features: int
    valid_column: int = -1
    static: object = None


@dataclass(frozen=True)
class GraphBlock:
    """A ``graph`` block and its ``neighbours`` block.

    Attributes:
        name, offset: the graph block's, as in ``obs_layout``.
        nodes: nodes (rows of both blocks).
        features: floats per node.
        neighbours_offset: index of the neighbours block's first float.
        max_degree: neighbour slots per node (``-1`` in a slot: none).
        valid_column: the feature that is 1 for a node that is there (-1: all are).
    """

    name: str
    offset: int
    nodes: int
    features: int
    neighbours_offset: int
    max_degree: int
    valid_column: int = -1


@dataclass(frozen=True)
class PointerActions:
    """An action block that indexes an observation block: action
    ``offset + i`` is about row ``i`` of ``target`` (a board, row or graph block)."""

    offset: int
    size: int
    target: str


@dataclass(frozen=True)
class Layout:
    """How :class:`LayoutTrunk` reads one configuration.

    Attributes:
        boards, row_blocks, graphs: the structured blocks, in observation order.
        flat_index: indexes of the floats of every ``flat`` block, in order.
        pointers: the action blocks with one logit per row, by offset.
    """

    boards: tuple
    row_blocks: tuple
    graphs: tuple
    flat_index: tuple
    pointers: tuple

    @property
    def pointer_outputs(self):
        """Logits the trunk emits before the latent."""
        return sum(p.size for p in self.pointers)


def layout_of(spec):
    """The :class:`Layout` of ``spec``'s observation and action blocks."""
    boards, row_blocks, graphs, flat = [], [], [], []
    for name, b in sorted(spec.obs_layout.items(), key=lambda kv: kv[1].offset):
        static = None
        if b.kind in ("grid", "entities") and b.static:
            static = np.asarray(spec.constants[b.static], dtype=np.float32)
        if b.kind == "grid" and b.grid_shape and int(np.prod(b.grid_shape)) == b.shape[0]:
            cols, rows = (int(x) for x in b.grid_shape)
            boards.append(BoardBlock(name, int(b.offset), int(b.shape[1]), rows, cols, static))
        elif b.kind in ("grid", "entities"):
            valid = int(b.valid_column) if b.kind == "entities" else -1
            row_blocks.append(RowBlock(name, int(b.offset), int(b.shape[0]), int(b.shape[1]), valid, static))
        elif b.kind == "graph":
            nb = spec.obs_layout[b.neighbours]
            graphs.append(GraphBlock(name, int(b.offset), int(b.shape[0]), int(b.shape[1]), int(nb.offset),
                                     int(nb.shape[1]), int(b.valid_column)))
        elif b.kind == "flat":
            flat.extend(range(b.offset, b.stop))
    pointers = tuple(sorted((PointerActions(int(a.offset), int(a.size), a.indexes)
                             for a in spec.action_layout.values() if a.indexes), key=lambda p: p.offset))
    readable = {b.name for b in (*boards, *row_blocks, *graphs)}
    for p in pointers:
        if p.target not in readable:
            raise ValueError(f"{spec.name}: actions {p.offset}..{p.offset + p.size - 1} index "
                             f"{p.target!r}, which is not a grid, graph or entities block")
    return Layout(tuple(boards), tuple(row_blocks), tuple(graphs), tuple(flat), pointers)


# ------------------------------------------------------------------ encoders

DENSE_GRAPH_NODES = 0
"""A graph of at most this many nodes hears its neighbours through a dense
``[nodes, nodes]`` averaging matrix per sample (:meth:`_GraphEncoder._dense_mean`,
one batched matmul a round); a larger one by gathering its neighbours' rows
(:meth:`_GraphEncoder._gathered_mean`, the edge list: memory and work linear in
the nodes times their degree). 0: every graph gathers. Measured on Dragons
Down's realm (108 clearings, 4 neighbour slots, 16 channels; one thread, CPU
time, medians of 7, two interleaved passes; issue 30, round 2): the encoder's
forward pass at the trainer's rollout batch (256, inference) 7.2 and 7.4 ms
gathered against 9.0 and 8.5 dense, forward and backward at its minibatch
(1,024) 82 and 93 ms against 114 and 92. The dense form zero-fills and
multiplies ``nodes x nodes`` weights per sample where 4 per node are not zero."""


def _masked_pool(h, present):
    """``[mean, max]`` over the rows of ``h`` ``[n, rows, width]`` (rows
    zeroed where absent, every value >= 0); ``present`` ``[n, rows, 1]`` or
    None (all rows). A set with no row pools to zeros."""
    if present is None:
        # the sum over the rows divided by their number, as torch's mean computes it; but the
        # division's backward pass runs on [n, width], not on a whole [n, rows, width] gradient
        mean = h.sum(dim=1) / h.shape[1]
    else:
        mean = h.sum(dim=1) / present.sum(dim=1).clamp(min=1.0)
    # absent rows are 0 and the others >= 0 (after a ReLU), so they never win the max;
    # max (not amax): its backward pass scatters to one row, amax's compares every row
    return torch.cat([mean, h.max(dim=1).values], dim=1)


def _rowwise(linear, x, as_convolution):
    """``linear`` (an ``nn.Linear``) on every row of ``x`` ``[n, rows, in]``
    -> ``[n, rows, out]``; with ``as_convolution``, computed as a 1x1
    convolution over the rows in channels-last order (the same weights, the
    same sums in another order).

    The CPU's matrix product is slow on these thin shapes: on Dragon Pass's
    board stem (1,530 cells of 5 planes to 8 channels, batch 1,024, one
    thread) the convolution took 7 ms forward and 99 ms forward and backward
    against the linear layer's 52 and 161. But oneDNN compiles a convolution
    anew for every batch size it has not seen (about 3x the cached call, and
    slower than the linear layer), so it pays only where the batches keep
    their size: the trainer's learner (:meth:`LayoutTrunk.fixed_batches`),
    not the league's snapshots, whose batches are the games each happens to
    play."""
    if not as_convolution:
        return linear(x)
    n, rows, width = x.shape
    y = F.conv2d(x.reshape(n, rows, 1, width).permute(0, 3, 1, 2), linear.weight[:, :, None, None], linear.bias)
    return y.permute(0, 2, 3, 1).reshape(n, rows, -1)


def _present(x, valid_column):
    """``[n, rows, 1]`` float: 1 where the row is real (its ``valid_column`` is
    set), or None when the block has no such column."""
    if valid_column < 0:
        return None
    return (x[:, :, valid_column:valid_column + 1] > 0.5).to(x.dtype)


class _ConstantCache:
    """The part of a layer's output that depends on parameters only (not on
    the observation), remembered between passes without gradients (a playing
    agent) until any parameter changes: optimiser steps and
    ``load_state_dict`` write parameters in place, which bumps their version.
    Never while tracing: a trace computes it anew at every call."""

    def __init__(self):
        self._key, self._value = None, None

    def get(self, params, compute):
        # a trace (ppo.Acting) must record the computation from the parameters: a
        # remembered tensor would stay in it as a constant when the weights change
        if torch.is_grad_enabled() or torch.jit.is_tracing():
            self._key = self._value = None
            return compute()
        key = tuple((p.data_ptr(), p._version) for p in params)
        if key != self._key:
            self._key, self._value = key, compute()
        return self._value


class _Neighbourhood(nn.Module):
    """``relu(x + conv(x))``: one 3x3 conv, each cell hearing its neighbours
    (on an offset hex grid a 3x3 window holds all six), its sum and ReLU in
    place (each allocation of a whole batch of boards costs as much as the op)."""

    def __init__(self, channels):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1)

    def forward(self, x):
        return self.conv(x).add_(x).relu_()


def _stem_sum(x, constant, context, in_place):
    """``relu(x + constant + context)``, the sums in that order (``constant``
    may be None): in place where ``in_place`` (x is the stem's fresh output),
    else into new tensors. The trainer's update takes the second: x is a view
    of the stem's output (:func:`_rowwise`), and autograd answers an in-place
    op on a view by copying the whole batch of boards in the backward pass
    (``CopySlices``, ``as_strided``): 200 of 1,130 ms of an update minibatch
    of Dragon Pass (1,024, one thread; issue 30, round 2). The same values and
    the same gradients either way."""
    if in_place:
        if constant is not None:
            x = x.add_(constant)
        return x.add_(context).relu_()
    if constant is not None:
        x = x + constant
    return torch.relu(x + context)


class _BoardEncoder(nn.Module):
    """A board's cells -> ``[n, cells, channels]`` features (>= 0), cells in reading order.

    The stem reads each cell alone: one linear map of its planes, plus that of
    its constant planes (static and embedding: the same for every sample, so
    computed once per pass), plus the context; then ``blocks`` neighbourhood
    convolutions (:class:`_Neighbourhood`) spread what the cells hold to their
    neighbours. The boards stay in channels-last memory order throughout,
    which the CPU's convolutions run about a third faster on. A 3x3 stem over
    the raw planes cost 8x the multiply-adds of this one (24 planes on
    Dragonhunt's board) and dominated the learner's update.
    """

    def __init__(self, block, channels, blocks, hidden, cell_embed):
        super().__init__()
        self.block = block
        static = np.zeros((block.cells, 0), np.float32) if block.static is None else block.static
        self.register_buffer("static", torch.tensor(np.asarray(static, dtype=np.float32)),
                             persistent=False)                       # (cells, static planes)
        self.cell_embed = nn.Parameter(torch.zeros(block.cells, cell_embed))
        self.stem = nn.Linear(block.planes, channels)
        constant_planes = static.shape[1] + cell_embed
        self.stem_constant = nn.Linear(constant_planes, channels, bias=False) if constant_planes else None
        self.context = nn.Linear(hidden, channels)
        self.trunk = nn.Sequential(*[_Neighbourhood(channels) for _ in range(blocks)])
        self._constant = _ConstantCache()
        self.rowwise_convolution = False      # see _rowwise and LayoutTrunk.fixed_batches

    def constant_part(self):
        """The stem's output for the static planes and the cell embedding,
        ``[cells, channels]`` (None without either)."""
        if self.stem_constant is None:
            return None
        return self._constant.get(
            (self.cell_embed, self.stem_constant.weight),
            lambda: self.stem_constant(torch.cat([self.static, self.cell_embed], dim=1)))

    def forward(self, obs, context):
        b, n = self.block, obs.shape[0]
        planes = obs[:, b.offset:b.offset + b.cells * b.planes].reshape(n, b.cells, b.planes)
        x = _rowwise(self.stem, planes, self.rowwise_convolution)      # [n, cells, channels]
        x = _stem_sum(x, self.constant_part(), self.context(context)[:, None, :],
                      in_place=not torch.is_grad_enabled())
        # [n, cells, channels] in reading order is [n, channels, rows, cols] in channels-last order
        x = self.trunk(x.reshape(n, b.rows, b.cols, -1).permute(0, 3, 1, 2))
        return x.permute(0, 2, 3, 1).reshape(n, b.cells, -1)


class _RowEncoder(nn.Module):
    """A set of rows -> ``([n, rows, channels] features (>= 0, 0 on padding),
    [n, rows, 1] presence or None)``: the same two-layer MLP on every row."""

    def __init__(self, block, channels):
        super().__init__()
        self.block = block
        self.first = nn.Linear(block.features, channels)
        self.second = nn.Linear(channels, channels)
        if block.static is not None:
            self.register_buffer("static", torch.tensor(np.asarray(block.static, dtype=np.float32)),
                                 persistent=False)              # a copy: the spec's constants are read-only
            self.static_weights = nn.Linear(block.static.shape[1], channels, bias=False)
        else:
            self.static_weights = None
        self._constant = _ConstantCache()
        self.rowwise_convolution = False      # see _rowwise and LayoutTrunk.fixed_batches

    def forward(self, obs):
        b, n = self.block, obs.shape[0]
        x = obs[:, b.offset:b.offset + b.rows * b.features].reshape(n, b.rows, b.features)
        h = _rowwise(self.first, x, self.rowwise_convolution)
        if self.static_weights is not None:
            h = h + self._constant.get((self.static_weights.weight,),
                                       lambda: self.static_weights(self.static))
        h = torch.relu(_rowwise(self.second, torch.relu(h), self.rowwise_convolution))
        present = _present(x, b.valid_column)
        if present is not None:
            h = h * present
        return h, present


class _GraphEncoder(nn.Module):
    """A graph's nodes -> ``([n, nodes, channels] features (>= 0, 0 on absent
    nodes), presence or None)``: a per-node layer conditioned on the context,
    then ``rounds`` of ``h <- h + relu(own(h) + heard(mean of the neighbours' h))``."""

    def __init__(self, block, channels, hidden, rounds):
        super().__init__()
        self.block = block
        self.encode = nn.Linear(block.features, channels)
        self.context = nn.Linear(hidden, channels)
        self.own = nn.ModuleList([nn.Linear(channels, channels) for _ in range(rounds)])
        self.heard = nn.ModuleList([nn.Linear(channels, channels, bias=False) for _ in range(rounds)])
        self.rowwise_convolution = False      # see _rowwise and LayoutTrunk.fixed_batches

    def forward(self, obs, context):
        b, n = self.block, obs.shape[0]
        N, D = b.nodes, b.max_degree
        x = obs[:, b.offset:b.offset + N * b.features].reshape(n, N, b.features)
        slots = obs[:, b.neighbours_offset:b.neighbours_offset + N * D].reshape(n, N, D)
        present = _present(x, b.valid_column)
        h = torch.relu(_rowwise(self.encode, x, self.rowwise_convolution) + self.context(context)[:, None, :])
        # a slot links to a neighbour when it holds a node number (-1: empty)
        linked = (slots >= 0) & (slots < N)
        neighbour = slots.clamp(0, N - 1).long()
        if present is not None:
            h = h * present
            linked &= torch.gather(present[:, :, 0], 1, neighbour.reshape(n, N * D)).reshape(n, N, D) > 0
        share = linked.to(h.dtype)
        share = share / share.sum(dim=2, keepdim=True).clamp(min=1.0)     # each slot's share of the mean
        hear = self._dense_mean(neighbour, share) if N <= DENSE_GRAPH_NODES else \
            self._gathered_mean(neighbour, share)
        for own, heard in zip(self.own, self.heard):
            mean = hear(h)
            h = h + torch.relu(own(h) + heard(mean))
            if present is not None:
                h = h * present
        return h, present

    @staticmethod
    def _dense_mean(neighbour, share):
        """``h [n, nodes, width]`` -> each node's mean of its neighbours' ``h``,
        by one ``[nodes, nodes]`` averaging matrix per sample."""
        n, N, _ = neighbour.shape
        # average[b, i, j]: node j's weight in node i's mean (a neighbour named twice counts twice)
        average = torch.zeros(n, N, N, dtype=share.dtype, device=share.device).scatter_add_(2, neighbour, share)
        return lambda h: torch.bmm(average, h)

    @staticmethod
    def _gathered_mean(neighbour, share):
        """As :meth:`_dense_mean`, by gathering the neighbours' rows (memory
        linear in the nodes, for large graphs)."""
        n, N, D = neighbour.shape
        # the neighbours' rows among the batch's n * nodes rows of h
        rows = (neighbour + torch.arange(n, device=neighbour.device)[:, None, None] * N).reshape(-1)
        weights = share.unsqueeze(3)

        def mean(h):
            width = h.shape[2]
            return (h.reshape(n * N, width).index_select(0, rows).reshape(n, N, D, width) * weights).sum(dim=2)
        return mean


class _PointerHead(nn.Module):
    """``(latent [n, hidden], rows [n, width, rows])`` -> one logit per row:
    ``row . query(latent) + offset(latent)``."""

    def __init__(self, hidden, width):
        super().__init__()
        self.width = width
        self.query = nn.Linear(hidden, width + 1)

    def forward(self, latent, rows):
        q = self.query(latent)
        return torch.bmm(q[:, None, :self.width], rows).squeeze(1) + q[:, self.width:]


# ------------------------------------------------------------------ the trunk

class LayoutTrunk(BaseFeaturesExtractor):
    """Observation -> ``[pointer logits (pointer_outputs), latent (hidden)]``
    (see the module docstring).

    ``pointer_outputs`` is the number of actions in the action blocks that
    index a grid, graph or entities block (0 if none do).

    Args:
        observation_space: the flat ``Box`` of the game's observation.
        game: registered game id, or the Game (its spec gives the layout).
        game_options: the configuration's options (None: the default one).
        channels: features per cell, node and entity row (the boards' conv
            channels).
        blocks: residual blocks after each board's stem.
        hidden: width of the flat features, the context and the latent.
        rounds: message-passing rounds on each graph.
        cell_embed: learned per-cell channels of each board (its terrain and
            position, beside the static planes).
    """

    def __init__(self, observation_space, game, game_options=None, channels=16, blocks=1, hidden=128,
                 rounds=2, cell_embed=8):
        spec = spec_of(game, game_options)
        if spec.obs_size != int(np.prod(observation_space.shape)):
            raise ValueError(f"{spec.name}: the observation space holds {observation_space.shape} floats, "
                             f"the spec {spec.obs_size}")
        layout = layout_of(spec)
        self.layout = layout
        self.pointer_outputs = layout.pointer_outputs
        super().__init__(observation_space, features_dim=self.pointer_outputs + hidden)
        self.hidden = hidden
        self.register_buffer("flat_index", torch.as_tensor(layout.flat_index, dtype=torch.long),
                             persistent=False)
        self.flat = nn.Sequential(nn.Linear(len(layout.flat_index), hidden), nn.ReLU()) \
            if layout.flat_index else None
        self.row_encoders = nn.ModuleList([_RowEncoder(b, channels) for b in layout.row_blocks])
        context_in = (hidden if self.flat is not None else 0) + 2 * channels * len(layout.row_blocks)
        if context_in:
            self.context = nn.Sequential(nn.Linear(context_in, hidden), nn.ReLU())
        else:                                   # nothing but boards and graphs: a learned constant context
            self.context = None
            self.context_constant = nn.Parameter(torch.zeros(hidden))
        self.boards = nn.ModuleList([_BoardEncoder(b, channels, blocks, hidden, cell_embed)
                                     for b in layout.boards])
        self.graphs = nn.ModuleList([_GraphEncoder(b, channels, hidden, rounds) for b in layout.graphs])
        spatial = len(layout.boards) + len(layout.graphs)
        self.latent = nn.Sequential(nn.Linear(hidden + 2 * channels * spatial, hidden), nn.ReLU()) \
            if spatial else None
        self.pointer_heads = nn.ModuleList([_PointerHead(hidden, channels) for _ in layout.pointers])

    def fixed_batches(self, on=True):
        """Whether this network's callers keep their batch sizes (the
        trainer's learner: its rollout of ``n_envs`` games, its minibatches),
        so that its per-row layers run as 1x1 convolutions (:func:`_rowwise`).
        Either way it computes the same function."""
        for module in self.modules():
            if hasattr(module, "rowwise_convolution"):
                module.rowwise_convolution = bool(on)

    def forward(self, obs):
        n = obs.shape[0]
        rows = {}                               # block name -> [n, channels, rows] per-row features
        parts = [] if self.flat is None else [self.flat(obs.index_select(1, self.flat_index))]
        for encoder in self.row_encoders:
            h, present = encoder(obs)
            rows[encoder.block.name] = h.transpose(1, 2)
            parts.append(_masked_pool(h, present))
        if self.context is not None:
            context = self.context(torch.cat(parts, dim=1) if len(parts) > 1 else parts[0])
        else:
            context = torch.relu(self.context_constant).expand(n, -1)
        latent = context
        if self.latent is not None:
            pooled = [context]
            for encoder in self.boards:
                h = encoder(obs, context)
                rows[encoder.block.name] = h.transpose(1, 2)
                pooled.append(_masked_pool(h, None))
            for encoder in self.graphs:
                h, present = encoder(obs, context)
                rows[encoder.block.name] = h.transpose(1, 2)
                pooled.append(_masked_pool(h, present))
            latent = self.latent(torch.cat(pooled, dim=1))
        if not self.pointer_heads:
            return latent
        logits = [head(latent, rows[p.target]) for head, p in zip(self.pointer_heads, self.layout.pointers)]
        return torch.cat(logits + [latent], dim=1)


def init_layout_weights(trunk, action_head, value_head):
    """Orthogonal initialisation of a :class:`LayoutTrunk` and its heads:
    gain sqrt(2) in the trunk, 0.01 for the action logits (a near-uniform
    policy at first) and the pointer queries (those logits leave the trunk),
    1 for the value."""
    init = MaskableActorCriticPolicy.init_weights
    for module, gain in ((trunk, np.sqrt(2)), (action_head, 0.01), (value_head, 1.0)):
        module.apply(lambda m, g=gain: init(m, gain=g))
    for head in trunk.pointer_heads:
        init(head.query, gain=0.01)


class LayoutPolicy(MaskableActorCriticPolicy):
    """Masked actor-critic over :class:`LayoutTrunk` (see the module docstring).

    ``features_extractor_kwargs`` carries ``game``, ``game_options``,
    ``channels``, ``blocks``, ``hidden``, ``rounds``, ``cell_embed`` (see
    :class:`LayoutTrunk`); ``net_arch`` is ignored (the heads are fixed).
    """

    def __init__(self, observation_space, action_space, lr_schedule, **kwargs):
        kwargs["net_arch"] = []
        kwargs["features_extractor_class"] = LayoutTrunk
        kwargs.setdefault("share_features_extractor", True)
        super().__init__(observation_space, action_space, lr_schedule, **kwargs)

    def _build(self, lr_schedule):
        self._build_mlp_extractor()                       # identity: net_arch is []
        trunk = self.features_extractor
        pointer_actions = tuple((p.offset, p.size) for p in trunk.layout.pointers)
        self.action_net = _ActionHead(pointer_actions, trunk.hidden, int(self.action_space.n))
        self.value_net = _ValueHead(trunk.pointer_outputs, trunk.hidden)
        if self.ortho_init:
            init_layout_weights(trunk, self.action_net, self.value_net)
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1),
                                              **self.optimizer_kwargs)
