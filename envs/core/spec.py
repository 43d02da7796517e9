"""What a game declares about one configuration of itself: the contract the
generic adapters, agents, trainers and benchmarks read (``Game.spec_for``).

A spec describes one *configuration* (player count, scenario, sandbox, ...),
because the configuration decides the seats: how many there are and what they
are called. Where seats are interchangeable players they are named
``player_0 .. player_{n-1}``; where they are roles (Dragon Pass's factions)
they carry the role names, and those are the PettingZoo agent names.

Observation blocks are typed, so that a policy network can be built from the
layout alone:

=============  ==============================================================
``grid``       ``(cells, planes)``: a board of cells; ``geometry`` is
               ``"hex"`` or ``"square"``, ``grid_shape`` the ``(columns,
               rows)`` rectangle the cells fill in reading order (``()`` when
               they do not fill one), ``hex_layout`` the offset convention of
               a hex grid (``"flat-odd-q"``: flat-topped hexes, odd columns
               half a hex lower); ``static`` names the grid's constant
               planes (the terrain of a large map), the same in every
               observation and so served once in ``GameSpec.constants``:
               a policy reads them beside the block's own planes
``graph``      ``(nodes, features)``: nodes of a graph (a tile-built realm's
               clearings); ``neighbours`` names the companion block
``neighbours`` ``(nodes, max_degree)``: node indices of each node's
               neighbours as floats, ``-1`` padding (the companion of a
               ``graph`` block, named by its ``of``)
``entities``   ``(rows, features)``: a set of things (units of a stack,
               items, cards); feature ``valid_column`` is 1 for a row that
               holds one, 0 for padding
``flat``       any shape: plain features (the shape is documentation only)
=============  ==============================================================

Action blocks are ranges of the ``Discrete(A)`` action space; one that
``indexes`` an observation block means "action ``offset + i`` is about row
``i`` of that block" (a cell, a node, an entity row), so a policy can put one
logit on each row.
"""
# jitcache: no compiled code
from dataclasses import dataclass, field
from math import prod

BLOCK_KINDS = ("grid", "graph", "neighbours", "entities", "flat")
GRID_GEOMETRIES = ("hex", "square")
UTILITY_KINDS = ("zero_sum", "general_sum", "solo")


@dataclass(frozen=True)
class ObsBlock:
    """One named block of the flat observation vector.

    Attributes:
        offset: index of its first float.
        shape: its shape (rank 2 for ``grid``, ``graph``, ``neighbours``,
            ``entities``: rows first).
        kind: one of :data:`BLOCK_KINDS`.
        geometry: ``grid`` only: ``"hex"`` or ``"square"``.
        grid_shape: ``grid`` only: ``(columns, rows)`` of the rectangle the
            cells fill in reading order, or ``()``.
        hex_layout: ``grid`` with hex geometry: the offset convention.
        neighbours: ``graph`` only: the name of its ``neighbours`` block.
        of: ``neighbours`` only: the name of the ``graph`` block it serves.
        valid_column: ``entities`` only: the feature that marks a real row.
        static: ``grid`` or ``entities``: the key of ``GameSpec.constants``
            holding the ``(cells or rows, features)`` float32 features that are
            the same in every observation, row for row beside the block ("" if
            none): a board's terrain, what each entity is.
        doc: what the block holds.
    """

    offset: int
    shape: tuple
    kind: str = "flat"
    geometry: str = ""
    grid_shape: tuple = ()
    hex_layout: str = ""
    neighbours: str = ""
    of: str = ""
    valid_column: int = -1
    static: str = ""
    doc: str = ""

    @property
    def size(self):
        """Number of floats in the block."""
        return int(prod(self.shape))

    @property
    def stop(self):
        return self.offset + self.size


@dataclass(frozen=True)
class ActionBlock:
    """A range ``offset .. offset+size-1`` of the action space.

    ``indexes``: the observation block whose row ``i`` action ``offset + i``
    is about (``""``: the actions index nothing).
    """

    offset: int
    size: int
    indexes: str = ""
    doc: str = ""

    @property
    def stop(self):
        return self.offset + self.size


DECISION_LIMIT_FACTOR = 4
"""``GameSpec.decision_limit`` is this many times ``max_decisions`` (itself a
bound several times the longest random game measured)."""


def player_names(n):
    """Seat names of ``n`` interchangeable players: ``player_0 .. player_{n-1}``."""
    return tuple(f"player_{i}" for i in range(n))


@dataclass(frozen=True)
class GameSpec:
    """What one configuration of a game is, in the spirit of OpenSpiel's GameType.

    Attributes:
        name: registry id, e.g. ``"dragonhunt"``.
        version: bumped whenever rules, observations or actions change.
        roles: one name per seat, in seat order; the PettingZoo agent names.
        seats_are_roles: the seats are distinct roles (factions), not
            interchangeable players; seat rotation in matches then rotates who
            plays which role.
        num_actions: size ``A`` of the fixed ``Discrete(A)`` action space.
        obs_size: length of the flat float32 observation vector.
        obs_layout: block name -> :class:`ObsBlock`, covering ``0..obs_size``.
        action_layout: block name -> :class:`ActionBlock`, covering ``0..A``.
        max_decisions: upper bound on decisions in one game of this
            configuration (sizes buffers and search horizons).
        turn_limit: the configured limit after which a game is truncated, in
            ``turn_unit`` (None: the rules end every game by themselves).
        turn_unit: what ``turn_limit`` counts (``"hands"``, ``"game-turns"``).
        chance: the rules roll dice or draw cards.
        hidden_information: some of the state is not visible to every seat.
        utility: ``"zero_sum"``, ``"general_sum"`` or ``"solo"`` (one seat, a
            score to maximise).
        score_name: what the game's own score is (``"legend points"``), or
            ``""`` where the outcome is ranks only.
        config: the configuration this spec describes (the game's dataclass).
        constants: name -> a read-only numpy array that is the same in every
            observation of this configuration (a grid block's ``static``
            planes), served here once instead of in every vector.
    """

    name: str
    version: int
    roles: tuple
    num_actions: int
    obs_size: int
    obs_layout: dict = field(default_factory=dict)
    action_layout: dict = field(default_factory=dict)
    seats_are_roles: bool = False
    max_decisions: int = 0
    turn_limit: object = None
    turn_unit: str = ""
    chance: bool = True
    hidden_information: bool = True
    utility: str = "zero_sum"
    score_name: str = ""
    config: object = None
    constants: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.utility not in UTILITY_KINDS:
            raise ValueError(f"{self.name}: utility must be one of {UTILITY_KINDS}, not {self.utility!r}")
        if not self.roles or len(set(self.roles)) != len(self.roles):
            raise ValueError(f"{self.name}: roles must be distinct names, one per seat: {self.roles!r}")
        if self.utility == "solo" and len(self.roles) != 1:
            raise ValueError(f"{self.name}: a solo game has one seat, not {len(self.roles)}")
        validate_layout(self)

    @property
    def num_seats(self):
        """Seats in play in this configuration."""
        return len(self.roles)

    @property
    def decision_limit(self):
        """Decisions after which a game still running is ended, truncated, by
        matches, tournaments, evaluations, ladders and the vector env
        (:func:`dragongym.envs.core.outcome.end_at_decision_limit`): every
        seat tied, a solo game lost. A guard against play that never ends --
        a policy repeating a loop of decisions the rules allow -- set at
        :data:`DECISION_LIMIT_FACTOR` times ``max_decisions`` so that no game
        the rules end by themselves comes near it; 0 where the spec gives no
        ``max_decisions`` (no limit)."""
        return DECISION_LIMIT_FACTOR * int(self.max_decisions)

    num_players = num_seats

    def blocks_of_kind(self, kind):
        """``{name: block}`` of the observation blocks of ``kind``."""
        return {k: b for k, b in self.obs_layout.items() if b.kind == kind}


def validate_layout(spec):
    """Check that the blocks tile the observation and the action space exactly
    and that every cross-reference names a block of the right kind; raise
    ValueError naming the first problem."""
    name = spec.name
    pos = 0
    for key, b in sorted(spec.obs_layout.items(), key=lambda kv: kv[1].offset):
        if not isinstance(b, ObsBlock):
            raise ValueError(f"{name}: obs block {key!r} is not an ObsBlock")
        if b.kind not in BLOCK_KINDS:
            raise ValueError(f"{name}: obs block {key!r} has kind {b.kind!r}; allowed: {BLOCK_KINDS}")
        if b.offset != pos:
            raise ValueError(f"{name}: obs block {key!r} starts at {b.offset}, expected {pos}")
        pos = b.stop
        if b.kind in ("grid", "graph", "neighbours", "entities") and len(b.shape) != 2:
            raise ValueError(f"{name}: {b.kind} block {key!r} must have shape (rows, features)")
        if b.kind == "grid":
            if b.geometry not in GRID_GEOMETRIES:
                raise ValueError(f"{name}: grid block {key!r} needs geometry in {GRID_GEOMETRIES}")
            if b.grid_shape and prod(b.grid_shape) != b.shape[0]:
                raise ValueError(f"{name}: grid block {key!r}: grid_shape {b.grid_shape} does not hold "
                                 f"{b.shape[0]} cells")
        if b.static:
            planes = spec.constants.get(b.static)
            if b.kind not in ("grid", "entities"):
                raise ValueError(f"{name}: {b.kind} block {key!r} names static features; only grid and "
                                 f"entities blocks have them")
            if planes is None or getattr(planes, "ndim", 0) != 2 or planes.shape[0] != b.shape[0]:
                raise ValueError(f"{name}: {b.kind} block {key!r} names static features {b.static!r}, which "
                                 f"the spec's constants do not hold as ({b.shape[0]}, features)")
        if b.kind == "graph":
            nb = spec.obs_layout.get(b.neighbours)
            if nb is None or nb.kind != "neighbours" or nb.of != key or nb.shape[0] != b.shape[0]:
                raise ValueError(f"{name}: graph block {key!r} needs a neighbours block of its "
                                 f"{b.shape[0]} nodes (named {b.neighbours!r})")
        if b.kind == "entities" and not 0 <= b.valid_column < b.shape[1]:
            raise ValueError(f"{name}: entities block {key!r} needs a valid_column in 0..{b.shape[1] - 1}")
    if spec.obs_layout and pos != spec.obs_size:
        raise ValueError(f"{name}: obs blocks cover {pos} floats, obs_size is {spec.obs_size}")
    pos = 0
    for key, a in sorted(spec.action_layout.items(), key=lambda kv: kv[1].offset):
        if not isinstance(a, ActionBlock):
            raise ValueError(f"{name}: action block {key!r} is not an ActionBlock")
        if a.offset != pos:
            raise ValueError(f"{name}: action block {key!r} starts at {a.offset}, expected {pos}")
        pos = a.stop
        if a.indexes:
            target = spec.obs_layout.get(a.indexes)
            if target is None or len(target.shape) != 2 or target.kind == "flat":
                raise ValueError(f"{name}: action block {key!r} indexes {a.indexes!r}, which is not "
                                 "a grid, graph or entities block")
            if a.size != target.shape[0]:
                raise ValueError(f"{name}: action block {key!r} has {a.size} actions for the "
                                 f"{target.shape[0]} rows of {a.indexes!r}")
    if spec.action_layout and pos != spec.num_actions:
        raise ValueError(f"{name}: action blocks cover {pos} actions, num_actions is {spec.num_actions}")
