"""The realm: Map Tiles on the map, how they fit, and the paths they make
(L99-L139, L288-L296, L583-L587).

A placed tile ``t`` sits at axial position ``(tile_q[t], tile_r[t])`` with
``tile_side[t]`` up and turned ``tile_rot[t]`` steps clockwise: its edge ``e``
faces map direction ``(e + rot) % 6``. Two tiles side by side fit when the
facing edges both carry a path or both carry none (L109, L583); a path that
crosses joins the two edge clearings.
"""
from dragongym.envs.core.jit import rules_jit
from ..constants import CLEARINGS_PER_TILE, NUM_DIRECTIONS, NUM_TILES, TOK_PLACED, TW_PLACED
from .base import DIR_DQ, DIR_DR, EDGE_CLEARING, PATHS, WILD_GATE


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


@rules_jit
def placement_fit(S, b, t, side, rot, q, r):
    """How tile ``t`` (``side``, ``rot``) would sit at the empty position
    (q, r): ``(fits, touched, joined)`` -- every touching edge matches path to
    path and non-path to non-path (L109, L583), the number of placed tiles it
    touches, and whether some path crosses into the map."""
    s = S[b]
    touched = 0
    fits = True
    joined = False
    for d in range(NUM_DIRECTIONS):
        u = tile_at(S, b, q + DIR_DQ[d], r + DIR_DR[d])
        if u < 0:
            continue
        touched += 1
        mine = path_toward(t, side, rot, d)
        theirs = path_toward(u, int(s['tile_side'][u]), int(s['tile_rot'][u]), (d + 3) % NUM_DIRECTIONS)
        if mine != theirs:
            fits = False
        elif mine:
            joined = True
    return fits, touched, joined


@rules_jit
def touches_two_possible(S, b, t):
    """Some empty position beside the map takes tile ``t`` (either side, any
    turn) touching two placed tiles and joined to a path (L109's "if possible")."""
    s = S[b]
    for u in range(NUM_TILES):
        if s['tile_where'][u] != TW_PLACED:
            continue
        for d in range(NUM_DIRECTIONS):
            q = s['tile_q'][u] + DIR_DQ[d]
            r = s['tile_r'][u] + DIR_DR[d]
            if tile_at(S, b, q, r) >= 0:
                continue
            for side in range(2):
                for rot in range(NUM_DIRECTIONS):
                    fits, touched, joined = placement_fit(S, b, t, side, rot, q, r)
                    if fits and joined and touched >= 2:
                        return True
    return False


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
    fits, touched, joined = placement_fit(S, b, t, side, rot, q, r)
    if not (fits and joined):
        return False
    return touched >= 2 or not two


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
    for w in range(WILD_GATE.shape[0]):
        g = int(s['wild_clearing'][w])
        if WILD_GATE[w] and s['wild_where'][w] == TOK_PLACED and g >= 0 and g != c:
            out[n] = g
            n += 1
    return n
