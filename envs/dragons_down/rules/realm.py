"""The realm: Map Tiles on the map, how they fit, and the paths they make
(L99-L139, L288-L296, L583-L587).

A placed tile ``t`` sits at axial position ``(tile_q[t], tile_r[t])`` with
``tile_side[t]`` up and turned ``tile_rot[t]`` steps clockwise: its edge ``e``
faces map direction ``(e + rot) % 6``. Two tiles side by side fit when the
facing edges both carry a path or both carry none (L109, L583); a path that
crosses joins the two edge clearings.
"""
import numpy as np

from dragongym.envs.core.jit import local_array, rules_jit
from ..constants import (
    CLEARINGS_PER_TILE, MAP_RADIUS, MAX_HIDDEN_PER_SIDE, NUM_DIRECTIONS, NUM_TILES, OPT_ENCH_PATHS, TOK_PLACED,
    TW_PLACED,
)
from .base import DIR_DQ, DIR_DR, EDGE_CLEARING, HIDDEN, HIDDEN_COLOUR, PATHS, WILD_GATE, roll


@rules_jit
def tile_at(S, b, q, r):
    """The tile placed at axial position (q, r), or -1."""
    s = S[b]
    for t in range(NUM_TILES):
        if s['tile_where'][t] == TW_PLACED and s['tile_q'][t] == q and s['tile_r'][t] == r:
            return t
    return -1


@rules_jit
def path_toward(t, side, rot, d):
    """True if tile ``t``, ``side`` up and turned ``rot``, has a path crossing
    the edge that faces map direction ``d``."""
    return EDGE_CLEARING[t, side, (d - rot) % NUM_DIRECTIONS] >= 0


def _path_bits():
    bits = np.zeros((NUM_TILES, 2, NUM_DIRECTIONS), dtype=np.int64)
    for t in range(NUM_TILES):
        for side in range(2):
            for rot in range(NUM_DIRECTIONS):
                for d in range(NUM_DIRECTIONS):
                    if EDGE_CLEARING[t, side, (d - rot) % NUM_DIRECTIONS] >= 0:
                        bits[t, side, rot] |= 1 << d
    return bits


PATH_BITS = _path_bits()
"""PATH_BITS[t, side, rot]: bit d set iff tile t so placed has a path crossing
its edge that faces map direction d (``path_toward`` for all six at once)."""
EDGE_COUNT = np.array([bin(m).count("1") for m in range(1 << NUM_DIRECTIONS)], dtype=np.int64)
"""EDGE_COUNT[m]: how many directions the six-bit mask m names."""


@rules_jit
def position_edges(S, b, q, r):
    """What an empty position (q, r) asks of a tile put there, as two
    six-bit direction masks: ``touch`` (a placed tile lies that way) and
    ``need`` (that tile's facing edge carries a path). A tile placed so fits
    iff its ``PATH_BITS & touch == need`` (L109, L583: path to path, non-path
    to non-path); it then touches ``EDGE_COUNT[touch]`` tiles and is joined to
    a path iff ``need`` is not 0."""
    s = S[b]
    touch = 0
    need = 0
    for d in range(NUM_DIRECTIONS):
        u = tile_at(S, b, q + DIR_DQ[d], r + DIR_DR[d])
        if u >= 0:
            touch |= 1 << d
            if path_toward(u, int(s['tile_side'][u]), int(s['tile_rot'][u]), (d + 3) % NUM_DIRECTIONS):
                need |= 1 << d
    return touch, need


@rules_jit
def placement_fit(S, b, t, side, rot, q, r):
    """How tile ``t`` (``side``, ``rot``) would sit at the empty position
    (q, r): ``(fits, touched, joined)`` -- every touching edge matches path to
    path and non-path to non-path (L109, L583), the number of placed tiles it
    touches, and whether some path crosses into the map."""
    touch, need = position_edges(S, b, q, r)
    mine = PATH_BITS[t, side, rot]
    return (mine & touch) == need, EDGE_COUNT[touch], (mine & need) != 0


MAX_FRONTIER = NUM_TILES * NUM_DIRECTIONS
"""At most this many empty positions lie beside the map (one per tile edge):
the size of ``realm_frontier``'s lists."""


GRID_R = MAP_RADIUS + 1
"""``realm_grid`` covers axial positions up to this far out on each axis (the
map's farthest tiles and the positions beside them)."""
GRID_W = 2 * GRID_R + 1
GRID_CELLS = GRID_W * GRID_W
"""The cells of a ``realm_grid`` (its array's size)."""
GRID_SEEN = -2
"""A ``realm_grid`` cell marking an empty position already listed."""


@rules_jit
def realm_grid(S, b, grid):
    """Fill ``grid`` (int8, GRID_CELLS) with the placed tiles as a position
    grid: ``grid[(q + GRID_R) * GRID_W + r + GRID_R]`` = the tile at (q, r),
    or -1 (``grid_at``), for searches that look up many positions
    (``tile_at`` scans every tile)."""
    s = S[b]
    for i in range(GRID_CELLS):
        grid[i] = -1
    for t in range(NUM_TILES):
        if s['tile_where'][t] == TW_PLACED:
            grid[grid_cell(int(s['tile_q'][t]), int(s['tile_r'][t]))] = t
    return grid


@rules_jit
def grid_cell(q, r):
    """The ``realm_grid`` index of position (q, r), or -1 outside it."""
    q = int(q)                                   # int8 table entries: widen before the index arithmetic
    r = int(r)
    if q < -GRID_R or q > GRID_R or r < -GRID_R or r > GRID_R:
        return -1
    return (q + GRID_R) * GRID_W + r + GRID_R


@rules_jit
def realm_frontier(S, b, spot, touch, need):
    """The empty positions beside the map, each once: ``spot[i] = u * 6 + d``,
    the lowest placed tile u and direction d naming position i (its A_SPOT
    action less A_SPOT), ``touch[i]``, ``need[i]`` its ``position_edges``.
    Returns how many. A placement search looks the map up once through this
    list instead of once per tile, side and turn it tries."""
    s = S[b]
    grid = local_array(GRID_CELLS, np.int8)
    realm_grid(S, b, grid)
    n = 0
    for u in range(NUM_TILES):
        if s['tile_where'][u] != TW_PLACED:
            continue
        for d in range(NUM_DIRECTIONS):
            q = int(s['tile_q'][u]) + DIR_DQ[d]
            r = int(s['tile_r'][u]) + DIR_DR[d]
            i = grid_cell(q, r)
            if grid[i] != -1:                    # a tile, or listed already
                continue
            grid[i] = GRID_SEEN
            spot[n] = u * NUM_DIRECTIONS + d
            tch = 0
            nd = 0
            for e in range(NUM_DIRECTIONS):
                j = grid_cell(q + DIR_DQ[e], r + DIR_DR[e])
                v = grid[j] if j >= 0 else -1
                if v >= 0:
                    tch |= 1 << e
                    if path_toward(v, int(s['tile_side'][v]), int(s['tile_rot'][v]), (e + 3) % NUM_DIRECTIONS):
                        nd |= 1 << e
            touch[n] = tch
            need[n] = nd
            n += 1
    return n


@rules_jit
def frontier_touches_two(t, n, touch, need):
    """``touches_two_possible`` over a ``realm_frontier`` of n positions."""
    for i in range(n):
        if EDGE_COUNT[touch[i]] < 2 or need[i] == 0:      # what it touches does not depend on the turn
            continue
        for side in range(2):
            for rot in range(NUM_DIRECTIONS):
                if (PATH_BITS[t, side, rot] & touch[i]) == need[i]:
                    return True
    return False


@rules_jit
def touches_two_possible(S, b, t):
    """Some empty position beside the map takes tile ``t`` (either side, any
    turn) touching two placed tiles and joined to a path (L109's "if possible")."""
    spot = local_array(MAX_FRONTIER, np.int64)
    touch = local_array(MAX_FRONTIER, np.int64)
    need = local_array(MAX_FRONTIER, np.int64)
    n = realm_frontier(S, b, spot, touch, need)
    return frontier_touches_two(t, n, touch, need)


@rules_jit
def open_realm_legal(S, b, t, side, rot, q, r, two):
    """L109: the first tile goes anywhere (it is the map's origin, (0, 0));
    every later one must be placed beside the map, match every edge it touches,
    connect to at least one existing path, and touch two tiles if it can
    (``two``: ``touches_two_possible(S, b, t)``, which the caller works out
    once for all the positions it tries)."""
    s = S[b]
    if s['tiles_placed'] == 0:
        return q == 0 and r == 0
    if tile_at(S, b, q, r) >= 0:
        return False
    touch, need = position_edges(S, b, q, r)
    return open_realm_fits(t, side, rot, touch, need, two)


@rules_jit
def open_realm_fits(t, side, rot, touch, need, two):
    """``open_realm_legal`` after the first tile, at an empty position whose
    ``position_edges`` are ``touch`` and ``need``."""
    if need == 0 or (PATH_BITS[t, side, rot] & touch) != need:
        return False
    return EDGE_COUNT[touch] >= 2 or not two


@rules_jit
def explore_legal(S, b, t, side, rot, q, r, toward):
    """L583-L587: an explored tile at the empty position (q, r) must match
    every edge it touches; explored through a path leading off the map in
    direction ``toward`` (from the explorer's tile), it must carry a path on the
    edge that path crosses; by Mountain Exploration (``toward`` -1) it must
    connect to at least one path on any tile."""
    if tile_at(S, b, q, r) >= 0:
        return False
    fits, touched, joined = placement_fit(S, b, t, side, rot, q, r)
    if not fits:
        return False
    if toward < 0:
        return joined
    return path_toward(t, side, rot, (toward + 3) % NUM_DIRECTIONS)


@rules_jit
def clearing_links(S, b, c, out):
    """The clearings joined to clearing ``c`` (a placed tile's) by a path:
    the tile's printed paths on its side up, and the path crossing into a
    neighbouring tile where ``c`` is an edge clearing (L290, L475). Hidden
    Paths are not included (a hero uses those it has discovered, L515).
    Writes them into ``out``; returns the count."""
    s = S[b]
    t = c // CLEARINGS_PER_TILE
    k = c % CLEARINGS_PER_TILE
    side = int(s['tile_side'][t])
    rot = int(s['tile_rot'][t])
    n = 0
    for i in range(PATHS.shape[2]):
        a = int(PATHS[t, side, i, 0])
        z = int(PATHS[t, side, i, 1])
        if a == k:
            out[n] = t * CLEARINGS_PER_TILE + z
            n += 1
        elif z == k:
            out[n] = t * CLEARINGS_PER_TILE + a
            n += 1
    for e in range(NUM_DIRECTIONS):
        if EDGE_CLEARING[t, side, e] != k:
            continue
        d = (e + rot) % NUM_DIRECTIONS
        u = tile_at(S, b, s['tile_q'][t] + DIR_DQ[d], s['tile_r'][t] + DIR_DR[d])
        if u < 0:
            continue
        eu = ((d + 3) % NUM_DIRECTIONS - int(s['tile_rot'][u])) % NUM_DIRECTIONS
        ku = int(EDGE_CLEARING[u, int(s['tile_side'][u]), eu])
        if ku >= 0:
            out[n] = u * CLEARINGS_PER_TILE + ku
            n += 1
    return n


@rules_jit
def exits_from(S, b, c, out):
    """The map directions of the paths leading off the map from clearing ``c``
    (L113, L583) into ``out``; returns the count."""
    s = S[b]
    t = c // CLEARINGS_PER_TILE
    k = c % CLEARINGS_PER_TILE
    side = int(s['tile_side'][t])
    rot = int(s['tile_rot'][t])
    n = 0
    for e in range(NUM_DIRECTIONS):
        if EDGE_CLEARING[t, side, e] == k:
            d = (e + rot) % NUM_DIRECTIONS
            if tile_at(S, b, s['tile_q'][t] + DIR_DQ[d], s['tile_r'][t] + DIR_DR[d]) < 0:
                out[n] = d
                n += 1
    return n


@rules_jit
def gate_links(S, b, c, out, n):
    """L479: once two or more Gates are revealed, a Gate's clearing is joined
    to every other revealed Gate's as if by a path. Appends those clearings to
    ``out[:n]``; returns the new count."""
    s = S[b]
    here = False
    gates = 0
    for w in range(WILD_GATE.shape[0]):
        if WILD_GATE[w] and s['wild_where'][w] == TOK_PLACED and s['wild_clearing'][w] >= 0:
            gates += 1
            if s['wild_clearing'][w] == c:
                here = True
    if not here or gates < 2:
        return n
    return other_gates(S, b, c, out, n)


# ================================================================ enchanted tiles (L573-L577, L1154-L1160)
@rules_jit
def enchant_tile(S, b, t, colour):
    """Map Tile t is enchanted (L577, L1340, L1160): flipped with its turn and
    everything on it kept (clearing k stays clearing k: both sides of a tile
    have the same clearings), the Magic Cube on it replaced by one of
    ``colour`` (none when -1)."""
    s = S[b]
    s['tile_side'][t] = 1 - s['tile_side'][t]
    s['tile_enchant'][t] = colour


@rules_jit
def hidden_path_enchanted(S, b, t, h):
    """Enchanted Paths (optional, L1154-L1156): Hidden Path h of tile t's
    side up has the colour of the Magic Cube enchanting the tile, so anyone
    may use it as a normal path (without discovering it)."""
    s = S[b]
    if (s['optional_rules'] & OPT_ENCH_PATHS) == 0 or s['tile_enchant'][t] < 0:
        return False
    return HIDDEN_COLOUR[t, int(s['tile_side'][t]), h] == s['tile_enchant'][t]


@rules_jit
def enchant_by_realm(S, b, t):
    """Enchanted Realm (optional, L1158-L1160): tile t is flipped and takes a
    Magic Cube of the colour of one of its Hidden Paths (on the side now up)
    drawn at random, replacing any cube; a side with no Hidden Path leaves
    the tile with none (Interpretations)."""
    s = S[b]
    side = 1 - int(s['tile_side'][t])
    n = 0
    for h in range(MAX_HIDDEN_PER_SIDE):
        if HIDDEN[t, side, h, 0] >= 0:
            n += 1
    colour = -1
    if n > 0:
        pick = roll(S, b, n)
        for h in range(MAX_HIDDEN_PER_SIDE):
            if HIDDEN[t, side, h, 0] >= 0:
                if pick == 0:
                    colour = int(HIDDEN_COLOUR[t, side, h])
                    break
                pick -= 1
    enchant_tile(S, b, t, colour)


@rules_jit
def other_gates(S, b, c, out, n):
    """Append to ``out[:n]`` the clearings of the revealed Gates other than
    clearing c; returns the new count."""
    s = S[b]
    for w in range(WILD_GATE.shape[0]):
        g = int(s['wild_clearing'][w])
        if WILD_GATE[w] and s['wild_where'][w] == TOK_PLACED and g >= 0 and g != c:
            out[n] = g
            n += 1
    return n
