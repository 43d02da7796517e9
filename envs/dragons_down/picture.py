"""Dragons Down's picture (``render_mode="rgb_array"``, replays, the web page).

The realm as it is built: every placed Map Tile as a flat-topped hexagon in
its Terrain Pack's colour (a Civilization Tile with a double border), its
clearings as circles in their clearing type's colour (L290: plains white,
caves black, mountains red, woods green, swamps yellow) numbered as printed,
the printed paths between them and across the tile edges, and -- while the
realm may still grow -- the empty positions beside it as dashed outlines.
Over that the position: the Hidden Paths the observer may use, heroes as
counters in their seat colours, Monster and Native chips by kind (with how
many), Treasure Sites, bodies, Merchants, Civilization Locations and
Wilderness Tokens, the combat clearing, and a side panel with the game's
progress, every hero's board as the table sees it, the combat, the pending
decision and a button for each legal action that picks nothing on the map.

The board layer depends on the placed tiles (their position, turn and side)
and on whether the realm may still grow (:func:`board_key`); it is drawn
once per key (``envs/core/picture.py`` caches its raster), with the geometry
of every clearing, path and empty position computed once per key as well
(:func:`realm_geometry`), so a frame costs only its position layer.

``seat`` (the observer) hides what that seat may not know: the other heroes'
face-down cards (by their number only), the Hidden Paths it has not found,
the other heroes' Hero Tactics while they are placed in secret (L714); and
the legal actions are drawn (clickable) only for the seat to play.
"""
# jitcache: no compiled code
import functools
import itertools
import math

import numpy as np

from dragongym.envs.core.picture import PALETTE, Scene
from . import data as D
from . import observe as O
from . import rules as R
from . import view as V
from .constants import (
    CLEARINGS_PER_TILE, CW_CLEARING, CW_HERO, HS_ACTIVE, HS_DEAD, HS_RETIRED, HS_WAITING,
    MAX_HIDDEN_PER_SIDE, MONSTER_CHIP_KINDS, MONSTER_IDS, NATIVE_CHIP_KINDS, NUM_CARDS, NUM_DIRECTIONS,
    NUM_MONSTER_CHIPS, NUM_SITES, ST_ACTIVATION, ST_COMBAT, ST_TURNS, T_BACKPACK, TILE_IDS, TOK_PLACED, TW_HAND,
    TW_PLACED, WILD_TOKENS,
)
from .game import _legal_names
from .text_picture import CIV_LOCATIONS, decision_words, stage_words

WIDTH, HEIGHT = 1600, 1024
"""The picture's size in pixels (multiples of 16, for video encoders)."""
MAP_WIDTH = 1152
"""The map takes the left part of the picture; the side panel the rest."""
PANEL_X = MAP_WIDTH
MAP_MARGIN = 14
MAX_HEX_RADIUS = 132
"""A small realm (the first tiles of Explore the Realm) is drawn no larger
than this, so its clearings keep a sensible size."""

SQRT3 = math.sqrt(3.0)
RING = 0.58
"""A clearing that is not at the tile's centre lies this fraction of the
apothem from it, toward one of the six edges."""

CLEARING_COLOURS = {"plains": "#f6f1df", "cave": "#34312e", "mountains": "#b4452e", "woods": "#2e7d3a",
                    "swamp": "#d9bf3c"}
"""Clearing types in their printed colours (L290)."""
CLEARING_INK = {"plains": "#202020", "cave": "#ffffff", "mountains": "#ffffff", "woods": "#ffffff",
                "swamp": "#202020"}
PACK_COLOURS = {"cruel_caves": "#a59d92", "malevolent_mountains": "#cdb08c", "wicked_woods": "#a5c295"}
"""The ground of a Map Tile, by its Terrain Pack."""
PACK_NAMES = {"cruel_caves": "Cruel Caves", "malevolent_mountains": "Malevolent Mountains",
              "wicked_woods": "Wicked Woods"}
CUBE_COLOURS = ("#c62828", "#8d5a2b", "#1c1c1c", "#1e5bd8", "#8a8a8a", "#2e8b3a", "#7b3fa0", "#f4f4f4",
                "#e8c31c")
"""Action Cube kinds (view.CUBE_NAMES order): might, speed, then the Magic colours."""
PATH_COLOUR = "#6b4a26"
MONSTER_FILL, MONSTER_BACK_FILL = "#7d1d1d", "#2a1010"
"""A Monster chip with its name side up, and with its back side up (L635)."""
NATIVE_FILL, NATIVE_HOSTILE_FILL = "#1d5f6e", "#6e1d5f"
SITE_FILL, BODY_FILL = "#e0a020", "#7a7a7a"
MERCHANT_FILL, CIV_FILL, GATE_FILL, RUINS_FILL, CARD_FILL = "#f2d04b", "#7a5230", "#6a3fb0", "#8c8c8c", "#ffffff"
COMBAT_COLOUR = "#e01818"
BUTTON_FILL, BUTTON_INK = "#fff6c8", "#202020"


# ------------------------------------------------------------------ names on chips
def _abbreviations(names):
    """``{name: code}``: a short code for each chip name, unique among them --
    the initials of a name of several words ("GB" Giant Bat), the first three
    letters of a one-word name ("Gob" Goblin), a digit added on a clash."""
    out, used = {}, set()
    for name in names:
        words = name.replace("'", "").replace("-", " ").split()
        code = "".join(w[0].upper() for w in words[:3]) if len(words) > 1 else words[0][:3]
        base, k = code, 2
        while code in used:
            code, k = f"{base[:2]}{k}", k + 1
        used.add(code)
        out[name] = code
    return out


_CHIP_CODES = _abbreviations([m.name for m in D.REALM.monsters.values()] + [n.name for n in D.REALM.natives.values()])
MONSTER_CODES = tuple(_CHIP_CODES[D.REALM.monsters[m].name] for m in MONSTER_IDS)
"""Monster kind index -> the code its chips carry on the map (the panel's legend names it)."""
NATIVE_KIND_IDS = O.NATIVE_IDS
NATIVE_CODES = tuple(_CHIP_CODES[D.REALM.natives[n].name] for n in NATIVE_KIND_IDS)
_NATIVE_KIND_OF_CHIP = np.array([NATIVE_KIND_IDS.index(n) for n in NATIVE_CHIP_KINDS], dtype=np.int64)
_MONSTER_KIND_OF_CHIP = np.array(MONSTER_CHIP_KINDS, dtype=np.int64)
_TILE_PACK = tuple(D.REALM.tiles[tid].pack for tid in TILE_IDS)
_GATE_TOKENS = np.asarray(R.WILD_GATE, dtype=bool)
_SITE_TOKENS = np.asarray(R.WILD_SITE) >= 0


# ------------------------------------------------------------------ the board's key and geometry
def realm_may_grow(rec):
    """True while tiles may still join the map: some are dealt to seats
    (Open Realm, L109) or the tile stack is not empty (Explore the Realm, L583)."""
    return bool((rec["tile_where"] == TW_HAND).any() or int(rec["stack_len"]) > 0)


def board_key(state):
    """What the board layer depends on: ``(tiles, grows)``, the placed tiles
    as ``(tile, q, r, turn, side)`` and whether the realm may still grow (the
    empty positions beside it are then drawn)."""
    rec = state[0]
    placed = np.flatnonzero(rec["tile_where"] == TW_PLACED)
    tiles = tuple(zip(placed.tolist(), rec["tile_q"][placed].tolist(), rec["tile_r"][placed].tolist(),
                      rec["tile_rot"][placed].tolist(), rec["tile_side"][placed].tolist()))
    return tiles, realm_may_grow(rec)


def _unit(direction):
    """The unit vector (pixels, y down) from a tile's centre toward the
    middle of its edge facing map direction ``direction`` (0 = N, clockwise)."""
    angle = math.radians(-90.0 + 60.0 * direction)
    return math.cos(angle), math.sin(angle)


def _segment_distance(p, a, z):
    """Distance from point p to the segment a-z."""
    ax, ay = a
    dx, dy = z[0] - ax, z[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.hypot(p[0] - ax - t * dx, p[1] - ay - t * dy)


def _crosses(a, b, c, d):
    """The segments a-b and c-d cross (touching at an end does not count)."""
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    d1, d2, d3, d4 = orient(c, d, a), orient(c, d, b), orient(a, b, c), orient(a, b, d)
    return d1 * d2 < -1e-9 and d3 * d4 < -1e-9


@functools.lru_cache(maxsize=None)
def local_layout(t, side):
    """Where the clearings of tile ``t`` lie with ``side`` up, upright: a
    tuple of 6 ``(x, y)`` in apothems from the tile's centre, None for a
    slot with no clearing.

    The tiles print no positions, so they are laid out here: a clearing whose
    path crosses an edge sits toward that edge (between two edges it crosses
    side by side), the others take the free places -- toward the other
    edges, or the centre -- that make the tile's paths shortest, crossing
    each other and passing by other clearings least."""
    kinds = R.CLEARING_TYPE[t, side]
    present = [k for k in range(CLEARINGS_PER_TILE) if int(kinds[k]) >= 0]
    slots = [(RING * _unit(e)[0], RING * _unit(e)[1]) for e in range(NUM_DIRECTIONS)] + [(0.0, 0.0)]
    pos, used = {}, set()
    edges = {k: [e for e in range(NUM_DIRECTIONS) if int(R.EDGE_CLEARING[t, side, e]) == k] for k in present}
    for k in present:
        es = edges[k]
        if not es:
            continue
        if len(es) == 2 and (es[1] - es[0]) % NUM_DIRECTIONS in (1, NUM_DIRECTIONS - 1):
            ux = _unit(es[0])[0] + _unit(es[1])[0]
            uy = _unit(es[0])[1] + _unit(es[1])[1]
            norm = math.hypot(ux, uy)
            pos[k] = (RING * ux / norm, RING * uy / norm)
        else:
            pos[k] = slots[es[0]]
        used.update(es)
    paths = [(int(a), int(z)) for a, z in R.PATHS[t, side] if int(a) >= 0]
    paths += [(int(a), int(z)) for a, z in R.HIDDEN[t, side] if int(a) >= 0]
    # the path runs from each clearing out to the tile edges it crosses
    edge_runs = [(k, _unit(e)) for k in present for e in edges[k]]
    free = [k for k in present if k not in pos]
    open_slots = [i for i in range(len(slots)) if i not in used]
    if len(free) > len(open_slots):            # crowded edges: the corners between them take the rest
        for e in range(NUM_DIRECTIONS):
            ux, uy = _unit(e)[0] + _unit(e + 1)[0], _unit(e)[1] + _unit(e + 1)[1]
            norm = math.hypot(ux, uy)
            open_slots.append(len(slots))
            slots.append((RING * 1.05 * ux / norm, RING * 1.05 * uy / norm))

    def cost(where):
        segments = [(where[a], where[z], {a, z}) for a, z in paths]
        segments += [(where[k], end, {k}) for k, end in edge_runs]
        total = sum(math.hypot(p[0] - q[0], p[1] - q[1]) for p, q, _ in segments[:len(paths)])
        for i, (p, q, ends) in enumerate(segments):
            for k in present:
                if k not in ends and _segment_distance(where[k], p, q) < 0.22:
                    total += 2.0
            for p2, q2, ends2 in segments[i + 1:]:
                if not ends & ends2 and _crosses(p, q, p2, q2):
                    total += 1.0
        return total

    best, best_cost = None, float("inf")
    for choice in itertools.permutations(open_slots, len(free)):
        where = dict(pos)
        where.update({k: slots[i] for k, i in zip(free, choice)})
        c = cost(where)
        if c < best_cost - 1e-9:
            best, best_cost = where, c
    where = best if best is not None else pos
    return tuple(where.get(k) for k in range(CLEARINGS_PER_TILE))


class RealmGeometry:
    """Pixel geometry of one realm as built (one :func:`board_key`).

    Attributes:
        radius: a tile's circumradius; ``apothem`` its inner radius;
            ``clearing_r`` a clearing's radius; ``glyph`` a piece's size.
        tile_centre: ``{tile: (x, y)}`` of the placed tiles.
        spots: ``{(q, r): (x, y)}`` of the empty positions beside the realm
            (only while it may grow).
        clearing_xy: ``{clearing: (x, y)}`` of every clearing on the map.
        outward: ``{clearing: angle}``: the direction (radians) with the most
            room around the clearing, where its pieces go first.
        paths: the printed paths as polylines (within a tile, and from an edge
            clearing to its edge).
        hidden: ``{(tile, h): polyline}`` of Hidden Path h of each placed
            tile's side up, ends outside the clearings.
        names: ``[(tile, x, y, lines, size)]``: where each tile's name goes.
    """

    def __init__(self, key):
        tiles, grows = key
        self.tiles = tiles
        cells = {(q, r) for _, q, r, _, _ in tiles}
        spots = set()
        if grows:
            for q, r in cells:
                for d in range(NUM_DIRECTIONS):
                    cell = (q + int(R.DIR_DQ[d]), r + int(R.DIR_DR[d]))
                    if cell not in cells:
                        spots.add(cell)
        shown = cells | spots or {(0, 0)}
        xs = [1.5 * q for q, _ in shown]
        ys = [SQRT3 * (r + q / 2.0) for q, r in shown]
        span_x = max(xs) - min(xs) + 2.0
        span_y = max(ys) - min(ys) + SQRT3
        self.radius = min((MAP_WIDTH - 2 * MAP_MARGIN) / span_x, (HEIGHT - 2 * MAP_MARGIN) / span_y,
                          MAX_HEX_RADIUS)
        self.apothem = self.radius * SQRT3 / 2.0
        self.clearing_r = 0.145 * self.radius
        self.glyph = 0.24 * self.radius
        mid_x = (max(xs) + min(xs)) / 2.0
        mid_y = (max(ys) + min(ys)) / 2.0
        self._ox = MAP_WIDTH / 2.0 - mid_x * self.radius
        self._oy = HEIGHT / 2.0 - mid_y * self.radius
        self.tile_centre = {t: self.cell_xy(q, r) for t, q, r, _, _ in tiles}
        self.spots = {cell: self.cell_xy(*cell) for cell in sorted(spots)}
        self.clearing_xy = {}
        self.paths = []
        self.hidden = {}
        self.names = []
        self.outward = {}
        for t, q, r, rot, side in tiles:
            self._lay_tile(t, rot, side)

    def cell_xy(self, q, r):
        """Pixel centre of the tile position (q, r)."""
        return self._ox + 1.5 * q * self.radius, self._oy + SQRT3 * (r + q / 2.0) * self.radius

    def hexagon(self, x, y, scale=1.0):
        """The six corners of a flat-topped hexagon centred at (x, y)."""
        rr = self.radius * scale
        return [(x + rr * math.cos(math.radians(60 * i)), y + rr * math.sin(math.radians(60 * i)))
                for i in range(6)]

    def _lay_tile(self, t, rot, side):
        """Tile t's clearings, paths, Hidden Paths, name and piece directions
        (``rot`` its turn, ``side`` the side up)."""
        cx, cy = self.tile_centre[t]
        a = self.apothem
        turn = math.radians(60.0 * rot)
        cos_t, sin_t = math.cos(turn), math.sin(turn)
        mine = {}
        for k, p in enumerate(local_layout(t, side)):
            if p is None:
                continue
            x, y = p[0] * a, p[1] * a
            mine[k] = (cx + x * cos_t - y * sin_t, cy + x * sin_t + y * cos_t)
            self.clearing_xy[t * CLEARINGS_PER_TILE + k] = mine[k]
        rc = self.clearing_r
        first_path = len(self.paths)
        for a_, z in R.PATHS[t, side]:
            if int(a_) >= 0:
                self.paths.append(_bent(mine[int(a_)], mine[int(z)], [mine[k] for k in mine
                                                                     if k not in (int(a_), int(z))], rc))
        for e in range(NUM_DIRECTIONS):
            k = int(R.EDGE_CLEARING[t, side, e])
            if k >= 0:
                ux, uy = _unit((e + rot) % NUM_DIRECTIONS)
                self.paths.append([mine[k], (cx + ux * a, cy + uy * a)])
        for h, (a_, z) in enumerate(R.HIDDEN[t, side]):
            if int(a_) >= 0:
                line = _bent(mine[int(a_)], mine[int(z)], [mine[k] for k in mine if k not in (int(a_), int(z))], rc)
                self.hidden[(t, h)] = _trimmed(line, rc + 1.0)
        lines_here = self.paths[first_path:] + [line for (u, _), line in self.hidden.items() if u == t]
        self.names.append((t,) + self._name_place(t, cx, cy, mine, lines_here))
        self._roomiest_sides(t, cx, cy, mine)

    def _roomiest_sides(self, t, cx, cy, mine):
        """``outward`` of tile t's clearings: of twelve directions, the one
        where a piece beside the clearing keeps farthest from the tile's other
        clearings and its name, stays on the tile, and points away from the
        tile's centre where the room is alike."""
        a, rc = self.apothem, self.clearing_r
        _, nx, ny, lines, size = self.names[-1]
        half_w = max(_text_width(line, size) for line in lines) / 2.0 + 2
        half_h = len(lines) * (size + 2) / 2.0
        reach = rc + self.glyph * 0.9
        for k, (x, y) in mine.items():
            others = [p for j, p in mine.items() if j != k]
            best, best_room = 0.0, -1e9
            outward = math.atan2(y - cy, x - cx) if math.hypot(x - cx, y - cy) > 1 else None
            for i in range(12):
                ang = math.radians(30 * i)
                px, py = x + math.cos(ang) * reach, y + math.sin(ang) * reach
                room = min([math.hypot(px - ox, py - oy) - rc for ox, oy in others] + [2 * rc])
                label = math.hypot(max(abs(px - nx) - half_w, 0.0), max(abs(py - ny) - half_h, 0.0))
                room = min(room, label)
                beyond = math.hypot(px - cx, py - cy) - a            # off the tile, over its neighbour's
                if beyond > 0:
                    room -= beyond
                if outward is not None:
                    room += 0.25 * rc * math.cos(ang - outward)
                if room > best_room:
                    best, best_room = ang, room
            self.outward[t * CLEARINGS_PER_TILE + k] = best

    def _name_place(self, t, cx, cy, mine, paths):
        """``(x, y, lines, size)``: the tile's name where it keeps farthest
        from the clearings and paths (on one line or two), low in the tile
        where the room is the same."""
        full = max(9, min(14, round(0.115 * self.radius)))
        name = V.tile_name(t)
        if V.is_civilization(t):
            name = name.upper()
        points = []
        for line in paths:
            for (x0, y0), (x1, y1) in zip(line, line[1:]):
                k = max(1, int(math.hypot(x1 - x0, y1 - y0) / 4))
                points += [(x0 + (x1 - x0) * i / k - cx, y0 + (y1 - y0) * i / k - cy) for i in range(k + 1)]
        points = np.array(points or [(1e6, 1e6)])
        centres = np.array([(x - cx, y - cy) for x, y in mine.values()] or [(1e6, 1e6)])
        a, rr = self.apothem, self.radius
        ys, xs = np.meshgrid(np.linspace(-0.82 * a, 0.82 * a, 21), np.linspace(-0.8 * rr, 0.8 * rr, 25),
                             indexing="ij")
        cand = np.stack([xs.ravel(), ys.ravel()], axis=1)
        best = None
        options = [[name]] + ([name.split(" ", 1)] if " " in name else [])
        options = [(lines, size) for size in (full, max(8, round(full * 0.8))) for lines in options]
        for lines, size in options:
            w = max(_text_width(line, size) for line in lines) + 4
            h = len(lines) * (size + 2)
            inside = (np.abs(cand[:, 1]) + h / 2 <= a - 2) & \
                (np.abs(cand[:, 0]) + w / 2 <= rr - 2 - (np.abs(cand[:, 1]) + h / 2) / SQRT3)
            if not inside.any():
                continue
            c = cand[inside]

            def gap(p, minus):
                dx = np.maximum(np.abs(p[None, :, 0] - c[:, None, 0]) - w / 2, 0.0)
                dy = np.maximum(np.abs(p[None, :, 1] - c[:, None, 1]) - h / 2, 0.0)
                return np.hypot(dx, dy).min(axis=1) - minus

            room = np.minimum(gap(centres, self.clearing_r + 1.0), 10.0) + 0.3 * np.minimum(gap(points, 1.0), 6.0)
            score = room + 0.01 * c[:, 1] / a - 0.01 * np.abs(c[:, 0]) / rr \
                - (0.5 if len(lines) > 1 else 0.0) - (1.0 if size < full else 0.0)
            i = int(np.argmax(score))
            if best is None or score[i] > best[0]:
                best = (float(score[i]), float(c[i, 0]), float(c[i, 1]), lines, size)
        if best is None:
            return cx, cy + 0.8 * a, [name], full
        _, x, y, lines, size = best
        return cx + x, cy + y, lines, size


def _bent(p, q, obstacles, rc):
    """The path from p to q as a polyline: straight, or bowed away from a
    clearing it would pass through."""
    near = [o for o in obstacles if _segment_distance(o, p, q) < rc * 1.3]
    if not near:
        return [p, q]
    mx, my = (p[0] + q[0]) / 2.0, (p[1] + q[1]) / 2.0
    dx, dy = q[0] - p[0], q[1] - p[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    o = near[0]
    if (o[0] - mx) * nx + (o[1] - my) * ny > 0:
        nx, ny = -nx, -ny
    bow = rc * 2.6
    cx_, cy_ = mx + nx * bow, my + ny * bow
    out = []
    for i in range(9):
        s = i / 8.0
        out.append(((1 - s) ** 2 * p[0] + 2 * (1 - s) * s * cx_ + s * s * q[0],
                    (1 - s) ** 2 * p[1] + 2 * (1 - s) * s * cy_ + s * s * q[1]))
    return out


def _trimmed(line, by):
    """``line`` with ``by`` pixels cut from each end (so it stops at the clearings' rims)."""
    def cut(points):
        (x0, y0), (x1, y1) = points[0], points[1]
        length = math.hypot(x1 - x0, y1 - y0) or 1.0
        s = min(0.45, by / length)
        return [(x0 + (x1 - x0) * s, y0 + (y1 - y0) * s)] + points[1:]
    return cut(cut(line)[::-1])[::-1]


@functools.lru_cache(maxsize=16)
def realm_geometry(key):
    """The :class:`RealmGeometry` of a :func:`board_key`, computed once."""
    return RealmGeometry(key)


# ------------------------------------------------------------------ the board layer
def board_scene(state):
    """The board layer: the paper, the placed tiles with their clearings and
    printed paths, the empty positions beside a growing realm, the panel's
    ground and the legend's fixed part."""
    geo = realm_geometry(board_key(state))
    scene = Scene(WIDTH, HEIGHT, background=PALETTE["paper"])
    scene.rect(0, 0, MAP_WIDTH, HEIGHT, fill="#e9e4d6")
    for (q, r), (x, y) in geo.spots.items():
        scene.line(geo.hexagon(x, y, 0.97) + [geo.hexagon(x, y, 0.97)[0]], "#b8ae98", 1, dash=(5, 4))
    for t, q, r, rot, side in geo.tiles:
        x, y = geo.tile_centre[t]
        pack = _TILE_PACK[t]
        civ = V.is_civilization(t)
        fill = _lighter(PACK_COLOURS[pack], 0.35) if civ else PACK_COLOURS[pack]
        scene.polygon(geo.hexagon(x, y), fill=fill, outline="#5d5140", width=1.5)
        if civ:
            scene.polygon(geo.hexagon(x, y, 0.93), fill=None, outline="#7a5230", width=2.5)
    width = max(2.0, 0.045 * geo.radius)
    for line in geo.paths:
        scene.line(line, PATH_COLOUR, width)
    rc = geo.clearing_r
    size = max(9, round(rc * 0.95))
    sides = {t: side for t, _, _, _, side in geo.tiles}
    for c, (x, y) in geo.clearing_xy.items():
        t, k = divmod(c, CLEARINGS_PER_TILE)
        kind = _clearing_kind(t, sides[t], k)
        scene.circle(x, y, rc, fill=CLEARING_COLOURS[kind], outline="#202020", width=1.5)
        scene.text(x, y, str(c % CLEARINGS_PER_TILE + 1), size=size, color=CLEARING_INK[kind], bold=True)
    for t, x, y, lines, size in geo.names:
        civ = V.is_civilization(t)
        half_w = max(_text_width(line, size) for line in lines) / 2.0 + 3
        half_h = len(lines) * (size + 2) / 2.0 + 1
        plate = _lighter(PACK_COLOURS[_TILE_PACK[t]], 0.55 if civ else 0.4)
        scene.rect(x - half_w, y - half_h, x + half_w, y + half_h, fill=plate, outline=None)
        for i, text in enumerate(lines):
            dy = (i - (len(lines) - 1) / 2.0) * (size + 2)
            scene.text(x, y + dy, text, size=size, color="#2a2218", bold=civ)
    scene.rect(PANEL_X, 0, WIDTH, HEIGHT, fill=PALETTE["panel"])
    scene.line([(PANEL_X, 0), (PANEL_X, HEIGHT)], "#b9b09c", 2)
    _legend(scene)
    return scene


def _clearing_kind(t, side, k):
    """The clearing type name ("cave") of clearing k of tile t with ``side`` up."""
    return D.CLEARING_TYPES[int(R.CLEARING_TYPE[t, side, k])]


def _lighter(colour, amount):
    """``colour`` mixed with white by ``amount`` (0..1)."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    r, g, b = (round(v + (255 - v) * amount) for v in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


LEGEND_TOP = HEIGHT - 106
"""The legend's fixed part fills the panel's bottom from here."""


def _legend(scene):
    x0, y = PANEL_X + 14, LEGEND_TOP
    scene.line([(x0, y - 6), (WIDTH - 14, y - 6)], "#b9b09c", 1)
    scene.text(x0, y + 2, "clearings:", size=11, color="#444444", anchor="lm")
    x = x0 + 64
    for kind, colour in CLEARING_COLOURS.items():
        scene.circle(x + 6, y + 2, 6, fill=colour, outline="#202020")
        scene.text(x + 15, y + 2, kind, size=11, anchor="lm")
        x += 22 + 6.2 * len(kind) + 8
    y += 20
    scene.text(x0, y, "tiles:", size=11, color="#444444", anchor="lm")
    x = x0 + 64
    for pack, colour in PACK_COLOURS.items():
        scene.rect(x, y - 6, x + 12, y + 6, fill=colour, outline="#5d5140")
        scene.text(x + 16, y, PACK_NAMES[pack], size=11, anchor="lm")
        x += 24 + 5.9 * len(PACK_NAMES[pack]) + 6
    y += 20
    g = 14
    items = [("hero", lambda x_, y_: _hero_counter(scene, x_, y_, g, 0, False)),
             ("monster", lambda x_, y_: _chip(scene, x_, y_, g, MONSTER_FILL, "", "")),
             ("native", lambda x_, y_: _chip(scene, x_, y_, g, NATIVE_FILL, "", "")),
             ("gate", lambda x_, y_: _disc(scene, x_, y_, g, GATE_FILL, "G")),
             ("Treasure Site", lambda x_, y_: _diamond(scene, x_, y_, g, SITE_FILL, "")),
             ("body", lambda x_, y_: _diamond(scene, x_, y_, g, BODY_FILL, "")),
             ("merchant", lambda x_, y_: _disc(scene, x_, y_, g, MERCHANT_FILL, "$")),
             ("civ. location", lambda x_, y_: _civ_plate(scene, x_, y_, 0))]
    column = PANEL_WIDTH / 4.0
    for i, (label, draw) in enumerate(items):
        row, k = divmod(i, 4)
        x, yy = x0 + k * column, y + row * 20
        draw(x + g / 2 + 2, yy)
        scene.text(x + g + 8, yy, label, size=11, anchor="lm")
    y += 40
    scene.line([(x0, y), (x0 + 26, y)], "#3a2a5a", 2, dash=(4, 3))
    scene.text(x0 + 32, y, "Hidden Path (found)", size=11, anchor="lm")
    scene.circle(x0 + 160, y, 7, fill=None, outline=COMBAT_COLOUR, width=3)
    scene.text(x0 + 172, y, "combat", size=11, anchor="lm")
    scene.rect(x0 + 226, y - 6, x0 + 240, y + 6, fill=PALETTE["highlight"], outline="#806a00")
    scene.text(x0 + 246, y, "a legal choice (click)", size=11, anchor="lm")


# ------------------------------------------------------------------ glyphs
def _hero_counter(scene, x, y, size, seat, hidden, actions=(), title=None, ring=None):
    """A hero: a disc in its seat colour with the seat number (player_N);
    a hidden hero (L895) has a pale centre."""
    colour = PALETTE["seats"][seat % len(PALETTE["seats"])]
    r = size / 2.0
    if ring:
        scene.circle(x, y, r + 3, fill=ring, outline=None)
    scene.circle(x, y, r, fill=colour, outline="#ffffff" if not hidden else "#202020", width=1.5,
                 actions=actions, title=title)
    if hidden:
        scene.circle(x, y, r * 0.55, fill="#ffffff", outline=None)
    scene.text(x, y, str(seat), size=max(8, round(size * 0.62)), color=colour if hidden else "#ffffff",
               bold=True)


def _chip(scene, x, y, size, fill, code, count, actions=(), title=None, outline="#ffffff"):
    """A square chip (a Monster or Native kind) with its code and how many."""
    h = size / 2.0
    scene.rect(x - h, y - h, x + h, y + h, fill=fill, outline=outline, width=1.5, actions=actions, title=title)
    if code:
        scene.text(x, y - (h * 0.28 if count else 0), code, size=max(7, round(size * 0.42)), color="#ffffff",
                   bold=True)
    if count:
        scene.text(x, y + h * 0.45, count, size=max(7, round(size * 0.36)), color="#ffe8a0")


def _diamond(scene, x, y, size, fill, letter, actions=(), title=None, outline="#3a2a10", width=1.5):
    h = size / 2.0 + 1
    scene.polygon([(x, y - h), (x + h, y), (x, y + h), (x - h, y)], fill=fill, outline=outline, width=width,
                  actions=actions, title=title)
    if letter:
        scene.text(x, y, letter, size=max(7, round(size * 0.5)), color="#202020", bold=True)


def _disc(scene, x, y, size, fill, letter, actions=(), title=None, ink="#202020"):
    scene.circle(x, y, size / 2.0, fill=fill, outline="#3a2a10", width=1.2, actions=actions, title=title)
    if letter:
        scene.text(x, y, letter, size=max(7, round(size * 0.58)), color=ink if fill != GATE_FILL else "#ffffff",
                   bold=True)


def _civ_plate(scene, x, y, rc, title=None):
    """A Civilization Location (L306): a walled square under its clearing."""
    h = rc + 5
    scene.rect(x - h, y - h, x + h, y + h, fill=CIV_FILL, outline="#3a2410", width=1.5, title=title)
    for sx in (-1, 1):
        for sy in (-1, 1):
            scene.rect(x + sx * h - 4, y + sy * h - 4, x + sx * h + 4, y + sy * h + 4, fill=CIV_FILL,
                       outline="#3a2410")


def _civ_locations(scene, geo, rec):
    """The Civilization Locations, each under its clearing (drawn again over it)."""
    rc = geo.clearing_r
    size = max(9, round(rc * 0.95))
    for pack, c in enumerate(rec["civ_clearing"].tolist()):
        if c in geo.clearing_xy:
            x, y = geo.clearing_xy[c]
            _civ_plate(scene, x, y, rc, CIV_LOCATIONS.get(pack, ""))
            kind = V.clearing_type(rec, c)
            scene.circle(x, y, rc, fill=CLEARING_COLOURS[kind], outline="#202020", width=1.5)
            scene.text(x, y, str(c % CLEARINGS_PER_TILE + 1), size=size, color=CLEARING_INK[kind], bold=True)


# ------------------------------------------------------------------ what is where
def _pieces(rec):
    """``{clearing: [piece, ...]}``: what stands in each clearing, in drawing
    order. A piece is a tuple ``(kind, ...)``: ``("hero", seat)``,
    ``("monster", kind, back up, [chips])``, ``("native", kind, back up,
    [foes], hostile)`` (foes as ``A_FOE`` numbers them), ``("site", pile)``,
    ``("body", pile)``, ``("merchant", [merchants])``, ``("gate",)``,
    ``("ruins", name)``, ``("card", [cards])`` (face up in the clearing, L960).
    The Civilization Locations are not pieces: their clearings stand on a
    plate (:func:`_civ_locations`)."""
    out = {}

    def add(c, piece):
        out.setdefault(int(c), []).append(piece)

    n = int(rec["num_players"])
    states = rec["hero_state"][:n].tolist()
    for p, c in enumerate(rec["hero_clearing"][:n].tolist()):
        if c >= 0 and states[p] == HS_ACTIVE:
            add(c, ("hero", p))
    monsters = {}
    flipped = rec["mon_flipped"].tolist()
    for m, c in enumerate(rec["mon_clearing"].tolist()):
        if c >= 0:
            monsters.setdefault((c, int(_MONSTER_KIND_OF_CHIP[m]), flipped[m]), []).append(m)
    for (c, kind, side), chips in sorted(monsters.items()):
        add(c, ("monster", kind, side, chips))
    natives = {}
    native_back = rec["native_flipped"].tolist() if "native_flipped" in rec.dtype.names else None
    for i, c in enumerate(rec["native_clearing"].tolist()):
        if c >= 0:
            side = native_back[i] if native_back is not None else 0
            natives.setdefault((c, int(_NATIVE_KIND_OF_CHIP[i]), side), []).append(NUM_MONSTER_CHIPS + i)
    hostile_here = int(rec["combat_clearing"]) if "natives_hostile" in rec.dtype.names \
        and int(rec["natives_hostile"]) and int(rec["combat_step"]) else -1
    for (c, kind, side), foes in sorted(natives.items()):
        add(c, ("native", kind, side, foes, c == hostile_here))
    for pile, c in enumerate(rec["site_clearing"].tolist()):
        if c >= 0:
            add(c, ("site", pile) if pile < NUM_SITES else ("body", pile))
    merchants = {}
    for k, (where, c) in enumerate(zip(rec["civ_token_where"].tolist(), rec["civ_token_clearing"].tolist())):
        m = int(R.CIV_TOKEN_MERCHANT[k])
        if where == TOK_PLACED and c >= 0 and m >= 0:        # an empty Civilization Token shows nothing (L318)
            merchants.setdefault(c, []).append(m)
    for c, ms in merchants.items():
        add(c, ("merchant", ms))
    for w, (where, c) in enumerate(zip(rec["wild_where"].tolist(), rec["wild_clearing"].tolist())):
        if where == TOK_PLACED and c >= 0 and not _SITE_TOKENS[w]:
            if _GATE_TOKENS[w]:
                add(c, ("gate",))
            else:
                add(c, ("ruins", D.REALM.wilderness_tokens[WILD_TOKENS[w]].name))
    lying = np.flatnonzero(rec["card_where"] == CW_CLEARING)
    cards = {}
    for card in lying.tolist():
        cards.setdefault(int(rec["card_owner"][card]), []).append(card)
    for c, cs in cards.items():
        add(c, ("card", cs))
    return out


def _foe_label(f, rec):
    """"Goblin #12: health 1, damage 1": a foe chip with its side up's values."""
    if f < NUM_MONSTER_CHIPS:
        name = V.monster_name(int(_MONSTER_KIND_OF_CHIP[f]))
        side = int(rec["mon_flipped"][f])
    else:
        name = D.REALM.natives[NATIVE_KIND_IDS[int(_NATIVE_KIND_OF_CHIP[f - NUM_MONSTER_CHIPS])]].name
        side = int(rec["native_flipped"][f - NUM_MONSTER_CHIPS]) if "native_flipped" in rec.dtype.names else 0
    return f"{name} #{f}", side


def _strength(f, side):
    """"health 3, damage 2" of foe f with ``side`` up (a spell side has no damage)."""
    damage = int(R.FOE_SIDE[f, side, R.SD_DAMAGE])
    text = f"health {int(R.FOE_HEALTH[f])}"
    return text + (f", damage {damage}" if damage > 0 else ", spell" if
                   int(R.FOE_SIDE[f, side, R.SD_ATTACK]) == R.ATK_SPELL else "")


# ------------------------------------------------------------------ the position layer
def position_scene(state, seat):
    """The position layer for observer ``seat`` (None: the full position):
    Hidden Paths, the pending decision's places on the map, the pieces and
    the side panel. The legal actions are drawn clickable when ``seat`` is
    None or the seat to play; every one of them is on some shape then."""
    rec = state[0]
    geo = realm_geometry(board_key(state))
    scene = Scene(WIDTH, HEIGHT)
    to_play = int(rec["to_play"])
    deciding = int(rec["status"]) == 0 and to_play >= 0 and (seat is None or seat == to_play)
    legal = set()
    names = {}
    if deciding:
        from .game import GAME
        mask = GAME.mask_of(state)
        legal = {int(a) for a in np.flatnonzero(mask)}
        names = _legal_names(rec, mask)
    offered = set()
    _hidden_paths(scene, geo, rec, seat)
    _enchantments(scene, geo, rec)
    _civ_locations(scene, geo, rec)
    _map_choices(scene, geo, rec, legal, names, offered)
    pieces = _pieces(rec)
    _draw_pieces(scene, geo, rec, seat, pieces, legal, names, offered)
    _panel(scene, rec, seat, pieces, legal, names, offered)
    return scene


def _hidden_paths(scene, geo, rec, seat):
    """The Hidden Paths the observer found (L515), dashed; for the full
    position every Hidden Path, dotted where no hero found it, with a dot in
    the colour of each hero who did."""
    n = int(rec["num_players"])
    found = rec["hidden_found"][:n]
    width = max(1.5, 0.03 * geo.radius)
    for (t, h), line in geo.hidden.items():
        side = int(rec["tile_side"][t])
        i = (t * 2 + side) * MAX_HIDDEN_PER_SIDE + h
        finders = [p for p in range(n) if int(found[p, i])]
        if seat is not None:
            if seat in finders:
                scene.line(line, "#3a2a5a", width, dash=(6, 4))
            continue
        if not finders:
            scene.line(line, "#5a4a7a", max(1.0, width * 0.6), dash=(2, 4))
            continue
        scene.line(line, "#3a2a5a", width, dash=(6, 4))
        mx, my = line[len(line) // 2]
        for j, p in enumerate(finders):
            scene.circle(mx + (j - (len(finders) - 1) / 2.0) * 7, my, 3, fill=PALETTE["seats"][p], outline=None)


def _enchantments(scene, geo, rec):
    """The Magic Cube on an enchanted tile (public, L575): a cube of its
    colour beside the tile's centre."""
    half = max(4.0, 0.09 * geo.radius)
    for t, (x, y) in geo.tile_centre.items():
        k = int(rec["tile_enchant"][t])
        if k < 0:
            continue
        cx, cy = x + 0.55 * geo.radius, y - 0.55 * geo.apothem
        scene.rect(cx - half, cy - half, cx + half, cy + half, fill=CUBE_COLOURS[2 + k], outline="#f0e0ff")


def _map_choices(scene, geo, rec, legal, names, offered):
    """The pending decision's places on the map: the position chosen for a
    tile being placed or explored, the legal spots for a tile (L109), the
    empty positions a hero may explore toward (L583), the clearings a hero
    may move to, enter, start at or evade toward. Each legal one is a
    clickable shape; ``offered`` collects their actions."""
    ph = int(rec["phase"])
    chosen = None
    if ph == R.PH_TILE_TURN and int(rec["sel_tile"]) >= 0:
        chosen = (int(rec["sel_q"]), int(rec["sel_r"])), int(rec["sel_tile"])
    elif ph == R.PH_EXPLORE_TURN and int(rec["explore_tile"]) >= 0:
        chosen = (int(rec["explore_q"]), int(rec["explore_r"])), int(rec["explore_tile"])
    if chosen is not None:
        (q, r), t = chosen
        x, y = geo.cell_xy(q, r)
        scene.polygon(geo.hexagon(x, y, 0.94), fill=_lighter(PACK_COLOURS[_TILE_PACK[t]], 0.5),
                      outline=PALETTE["select"], width=4)
        scene.text(x, y - 8, V.tile_name(t), size=max(10, round(0.13 * geo.radius)), bold=True)
        scene.text(x, y + 10, "choose its side and turn", size=max(9, round(0.1 * geo.radius)), color="#555555")
    targets = {}
    for a in sorted(legal):
        if R.A_SPOT <= a < R.A_TURN:
            u, d = divmod(a - R.A_SPOT, NUM_DIRECTIONS)
            cell = (int(rec["tile_q"][u]) + int(R.DIR_DQ[d]), int(rec["tile_r"][u]) + int(R.DIR_DR[d]))
            targets.setdefault(cell, []).append(a)
        elif R.A_EXPLORE <= a < R.A_EXPLORE + NUM_DIRECTIONS:
            c = int(rec["hero_clearing"][int(rec["to_play"])])
            if c >= 0:
                t = c // CLEARINGS_PER_TILE
                d = a - R.A_EXPLORE
                cell = (int(rec["tile_q"][t]) + int(R.DIR_DQ[d]), int(rec["tile_r"][t]) + int(R.DIR_DR[d]))
                targets.setdefault(cell, []).append(a)
    for cell, actions in targets.items():
        if cell not in geo.spots:
            continue
        x, y = geo.spots[cell]
        explore = actions[0] >= R.A_EXPLORE
        scene.polygon(geo.hexagon(x, y, 0.9), fill="#fff3a8", outline="#c9a800", width=3, actions=actions,
                      title="; ".join(names.get(a, "") for a in actions))
        scene.text(x, y, "explore" if explore else "place here", size=max(10, round(0.12 * geo.radius)),
                   color="#6a5600", bold=True)
        offered.update(actions)
    rc = geo.clearing_r
    size = max(9, round(rc * 0.95))
    for a in sorted(legal):
        if R.A_CLEARING <= a < R.A_CLEARING + len(R.CLEARING_TYPE.reshape(-1)):
            c = a - R.A_CLEARING
            if c not in geo.clearing_xy:
                continue
            x, y = geo.clearing_xy[c]
            kind = V.clearing_type(rec, c)
            scene.circle(x, y, rc + 2, fill=CLEARING_COLOURS[kind], outline=PALETTE["highlight"], width=5,
                         actions=(a,), title=names.get(a))
            scene.text(x, y, str(c % CLEARINGS_PER_TILE + 1), size=size, color=CLEARING_INK[kind], bold=True)
            offered.add(a)


def _piece_actions(piece, rec, legal):
    """The legal actions that choose this piece: a hero as the swap partner
    (L556), a foe chip as the target (L709), a site or body to search for,
    loot or share (L508, L524, L556), a Merchant to trade with (L557)."""
    kind = piece[0]
    if kind == "hero":
        cand = [R.A_SEAT + piece[1]]
    elif kind in ("monster", "native"):
        cand = [R.A_FOE + f for f in piece[3]]
    elif kind in ("site", "body"):
        cand = [R.A_SEARCH_SITE + piece[1], R.A_PILE + piece[1]]
    elif kind == "merchant":
        cand = [R.A_MERCHANT + m for m in piece[1]]
    else:
        cand = []
    return tuple(a for a in cand if a in legal)


def _draw_pieces(scene, geo, rec, seat, pieces, legal, names, offered):
    """Every piece in its clearing, around the clearing's rim from its
    roomiest side; the combat clearing ringed in red, the hero to play ringed."""
    g = geo.glyph
    rc = geo.clearing_r
    combat = int(rec["combat_clearing"]) if int(rec["combat_step"]) else -1
    if combat in geo.clearing_xy:
        x, y = geo.clearing_xy[combat]
        scene.circle(x, y, rc + 4, fill=None, outline=COMBAT_COLOUR, width=3)
    to_play = int(rec["to_play"])
    status = rec["hero_status"].tolist()
    for c, items in pieces.items():
        if c not in geo.clearing_xy:
            continue
        x, y = geo.clearing_xy[c]
        spots = _around(x, y, rc, g, geo.outward[c], len(items))
        for piece, (px, py) in zip(items, spots):
            actions = _piece_actions(piece, rec, legal)
            offered.update(actions)
            title = "; ".join(names[a] for a in actions) if actions else None
            ring = PALETTE["highlight"] if actions else None
            if ring:
                scene.circle(px, py, g * 0.5 + 4, fill=ring, outline="#806a00")
            kind = piece[0]
            if kind == "hero":
                p = piece[1]
                me = p == to_play and int(rec["status"]) == 0
                _hero_counter(scene, px, py, g, p, bool(status[p] & 1), actions, title or f"player_{p}",
                              ring=PALETTE["select"] if me and not ring else None)
            elif kind == "monster":
                _, k, flipped, chips = piece
                _chip(scene, px, py, g, MONSTER_BACK_FILL if flipped else MONSTER_FILL, MONSTER_CODES[k],
                      f"x{len(chips)}" if len(chips) > 1 else "", actions,
                      title or f"{len(chips)} {V.monster_name(k)}")
            elif kind == "native":
                _, k, flipped, foes, hostile = piece
                _chip(scene, px, py, g, NATIVE_HOSTILE_FILL if hostile else NATIVE_FILL, NATIVE_CODES[k],
                      f"x{len(foes)}" if len(foes) > 1 else "", actions,
                      title or D.REALM.natives[NATIVE_KIND_IDS[k]].name,
                      outline="#ffd0d0" if flipped else "#ffffff")
            elif kind in ("site", "body"):
                pile = piece[1]
                found = seat is not None and int(rec["site_found"][seat, pile])
                outline = PALETTE["seats"][seat] if found else "#3a2a10"
                if kind == "body":
                    outline = PALETTE["seats"][(pile - NUM_SITES) % len(PALETTE["seats"])]
                _diamond(scene, px, py, g, SITE_FILL if kind == "site" else BODY_FILL,
                         V.pile_name(pile)[0] if kind == "site" else "B", actions, title or V.pile_name(pile),
                         outline=outline, width=3 if found or kind == "body" else 1.5)
            elif kind == "merchant":
                ms = piece[1]
                _disc(scene, px, py, g, MERCHANT_FILL, "$" if len(ms) == 1 else f"${len(ms)}", actions,
                      title or "Merchants " + ", ".join(V.merchant_name(m) for m in ms))
            elif kind == "gate":
                _disc(scene, px, py, g, GATE_FILL, "G", title="Gate")
            elif kind == "ruins":
                _chip(scene, px, py, g, RUINS_FILL, piece[1][0], "", title=piece[1], outline="#202020")
            elif kind == "card":
                h = g * 0.42
                scene.rect(px - h * 0.75, py - h, px + h * 0.75, py + h, fill=CARD_FILL, outline="#202020",
                           title=", ".join(V.card_name(cd) for cd in piece[1]))


def _around(x, y, rc, g, start, n):
    """n piece centres around a clearing's rim: from ``start`` (radians)
    outward, alternately on each side, a second ring farther out if needed."""
    out = []
    ring, dist = 0, rc + g * 0.42
    while len(out) < n:
        step = (g + 2.0) / dist
        per_ring = max(1, int(2 * math.pi / step))
        for i in range(min(per_ring, n - len(out))):
            k = (i + 1) // 2 * (1 if i % 2 else -1)
            ang = start + k * step + (step / 2 if ring % 2 else 0)
            out.append((x + dist * math.cos(ang), y + dist * math.sin(ang)))
        ring += 1
        dist += g + 1.0
    return out


# ------------------------------------------------------------------ the side panel
def _text_width(text, size):
    return _font(size).getlength(text)


@functools.lru_cache(maxsize=None)
def _font(size):
    from PIL import ImageFont
    return ImageFont.load_default(size=size)


def _fit(text, size, width):
    """``text`` cut short (with "...") to fit ``width`` pixels at ``size``."""
    if _text_width(text, size) <= width:
        return text
    while text and _text_width(text + "...", size) > width:
        text = text[:-1]
    return text + "..."


PANEL_LEFT = PANEL_X + 14
PANEL_WIDTH = WIDTH - PANEL_LEFT - 14


def _panel(scene, rec, seat, pieces, legal, names, offered):
    """The side panel: title and progress, the heroes, the combat, the
    pending decision with its buttons, the chips on the map by name."""
    n = int(rec["num_players"])
    x0 = PANEL_LEFT
    y = 12
    scene.text(x0, y, "Dragons Down", size=20, bold=True, anchor="lt")
    scene.text(WIDTH - 14, y + 2, f"turn {int(rec['turn'])} of {int(rec['max_turns'])}", size=14, anchor="rt",
               bold=True)
    y += 28
    packs = ", ".join(PACK_NAMES[p] for p in V.packs_in_play(rec))
    scene.text(x0, y, _fit(f"{V.sandbox(rec).replace('_', ' ').capitalize()} · {packs}", 11, PANEL_WIDTH),
               size=11, color="#444444", anchor="lt")
    y += 16
    scene.text(x0, y, _fit(stage_words(rec), 12, PANEL_WIDTH), size=12, anchor="lt")
    y += 22
    compact = n > 4
    for p in range(n):
        y = _hero_block(scene, rec, p, seat, x0, y, compact)
    y = _tiles_to_place(scene, rec, x0, y)
    y = _combat(scene, rec, seat, x0, y, legal, names, offered)
    bottom = _chip_legend_top(pieces)
    y = _decision(scene, rec, seat, x0, y, bottom, legal, names, offered)
    _chip_legend(scene, pieces, bottom)


def _hero_block(scene, rec, p, seat, x0, y, compact):
    """One hero's board as ``seat`` may see it; returns the next y."""
    h = V.hero(rec, p)
    colour = PALETTE["seats"][p % len(PALETTE["seats"])]
    line = 15 if not compact else 14
    to_play = int(rec["to_play"]) == p and int(rec["status"]) == 0
    height = 4 * line + 6
    if to_play:
        scene.rect(x0 - 8, y - 3, WIDTH - 6, y + height - 5, fill="#fff8d8", outline=PALETTE["select"], width=2)
    _hero_counter(scene, x0 + 8, y + 7, 16, p, "hidden" in h["statuses"])
    who = []
    if h["lineage"]:
        who.append(V.lineage_name(int(rec["hero_lineage"][p])))
    if h["class"]:
        who.append(V.class_name(int(rec["hero_class"][p])))
    scene.text(x0 + 22, y + 7, f"player_{p}", size=13, bold=True, color=colour, anchor="lm")
    scene.text(x0 + 90, y + 7, _fit(" ".join(who) or "no hero yet", 12, 150), size=12, anchor="lm")
    state = int(rec["hero_state"][p])
    if state == HS_ACTIVE and h["clearing"] >= 0:
        where = V.clearing_name(rec, h["clearing"])
    elif state == HS_WAITING:
        where = "waiting to enter"
    elif state == HS_DEAD:
        where = "dead"
    elif state == HS_RETIRED:
        where = "retired"
    else:
        where = h["state"]
    scene.text(WIDTH - 14, y + 7, _fit(where, 11, 175), size=11, color="#444444", anchor="rm")
    y += line + 2
    x = x0 + 4
    for k in range(h["hearts"][0] + h["hearts"][1]):
        wounded = k >= h["hearts"][0]
        scene.circle(x + 5, y + 5, 5, fill="#ffc0c8" if wounded else "#d0203a", outline="#6a0010")
        x += 12
    x += 8
    cubes = rec["cubes"][p]
    for wounded in (0, 1):
        for kind in range(cubes.shape[1]):
            for _ in range(int(cubes[wounded, kind])):
                scene.rect(x, y, x + 10, y + 10, fill=CUBE_COLOURS[kind], outline="#202020")
                if wounded:
                    scene.line([(x, y), (x + 10, y + 10)], "#ff5fa0", 2)
                    scene.line([(x, y + 10), (x + 10, y)], "#ff5fa0", 2)
                x += 13
    wounded_text = sum(h["cubes"][1].values()) + h["hearts"][1]
    if wounded_text:
        scene.text(x + 4, y + 5, f"{wounded_text} wounded", size=11, color="#a01040", anchor="lm")
    y += line
    facts = f"LP {h['lp']} · Fame {h['fame']} · Gold {h['gold']}"
    if h["outlaw"]:
        facts += f" · Outlaw {h['outlaw']}"
    if h["missions"]:
        facts += f" · missions {h['missions']}"          # how many, never which (L564)
    if h["titles"]:
        facts += f" · titles {len(h['titles'])}"
    if h["curses"]:
        facts += " · cursed: " + ", ".join(h["curses"])
    if state == HS_ACTIVE and int(rec["stage"]) == ST_TURNS:
        left = h["actions_left"]
        facts += f" · {left} action{'s' if left != 1 else ''} left"
    if h["statuses"]:
        facts += " · " + ", ".join(h["statuses"])
    scene.text(x0 + 4, y, _fit(facts, 11, PANEL_WIDTH - 4), size=11, anchor="lt")
    y += line
    scene.text(x0 + 4, y, _fit(_cards_text(rec, p, seat), 11, PANEL_WIDTH - 4), size=11, color="#333333",
               anchor="lt")
    return y + line + 6


def _cards_text(rec, p, seat):
    """"equipped: Short Sword, Leather Armor · backpack: Rope" -- a face-down
    card named only where ``seat`` may know it (None: every card)."""
    shown, down, named_down = [], 0, []
    owned = np.flatnonzero((rec["card_where"] == CW_HERO) & (rec["card_owner"] == p))
    for c in owned.tolist():
        slot = int(rec["card_slot"][c])
        seen = seat is None or V.card_seen(rec, c, seat)
        if slot < T_BACKPACK:
            shown.append(V.card_name(c))
        elif seen:
            named_down.append(V.card_name(c))
        else:
            down += 1
    parts = ["equipped: " + (", ".join(shown) if shown else "-")]
    back = named_down + ([f"{down} face down"] if down else [])
    parts.append("backpack: " + (", ".join(back) if back else "-"))
    observer = p if seat is None else seat
    known = V.spells_known(rec, p, observer)
    if known:
        names = [name for _, name in known if name]
        parts.append("spells: " + (", ".join(names) if names else f"{len(known)} known"))
    under = [x for c in owned.tolist() for x in V.spells_under(rec, c, observer)]
    if under:
        names = [name for _, name in under if name]
        parts.append("to learn: " + (", ".join(names) if names else f"{len(under)} spells"))
    taken = [V.monster_name(int(_MONSTER_KIND_OF_CHIP[m])) for m in
             np.flatnonzero((rec["mon_clearing"] == -2) & (rec["mon_taker"] == p)).tolist()] \
        if "mon_taker" in rec.dtype.names else []
    if taken:
        parts.append(f"{len(taken)} chip{'s' if len(taken) > 1 else ''} taken")
    if "shape" in rec.dtype.names and int(rec["shape"][p]) > 0:           # L1564: his Monster is public
        parts.append("Shape Shift: " + V.monster_name(int(_MONSTER_KIND_OF_CHIP[int(rec["shape"][p]) - 1])))
    return " · ".join(parts)


def _tiles_to_place(scene, rec, x0, y):
    """Open Realm's build: the tiles dealt to each seat (public, L109)."""
    dealt = np.flatnonzero(rec["tile_where"] == TW_HAND).tolist()
    if not dealt:
        if int(rec["stack_len"]) and V.explore_map(rec):
            scene.text(x0, y, f"tile stack: {int(rec['stack_len'])} tiles face down", size=11, color="#444444",
                       anchor="lt")
            return y + 18
        return y
    by_seat = {}
    for t in dealt:
        by_seat.setdefault(int(rec["tile_holder"][t]), []).append(V.tile_name(t))
    scene.text(x0, y, "tiles to place:", size=12, bold=True, anchor="lt")
    y += 16
    for p, tiles in sorted(by_seat.items()):
        for line in _wrapped(f"player_{p}: " + ", ".join(tiles), 11, PANEL_WIDTH - 8)[:3]:
            scene.text(x0 + 8, y, line, size=11, color=PALETTE["seats"][p % 6], anchor="lt")
            y += 14
    return y + 4


def _wrapped(text, size, width):
    """``text`` broken at spaces into lines of at most ``width`` pixels."""
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if line and _text_width(trial, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    return lines + [line]


def _combat(scene, rec, seat, x0, y, legal, names, offered):
    """The combat under way (L674-L800): its clearing, round and step, the
    foes with their wounds and targets, the heroes' part; the Summoning Dice
    of the battle phase (L617). A foe row is clickable when it may be targeted."""
    stage = int(rec["stage"])
    if stage in (ST_ACTIVATION, ST_COMBAT):
        dice = rec["summon_dice"].tolist()
        faces = [D.REALM.dice[d].faces[i] for d, i in zip(
            ("wandering_symbol", "wandering_number", "local_symbol", "local_number"), dice)]
        text = (f"Summoning Dice: gray {str(faces[0]).replace('_', ' ')} {faces[1]} · "
                f"black {faces[2]} {faces[3]}")
        scene.text(x0, y, _fit(text, 11, PANEL_WIDTH), size=11, color="#444444", anchor="lt")
        y += 16
    step = int(rec["combat_step"])
    c = int(rec["combat_clearing"])
    if not step or c < 0:
        return y
    steps = ("", "challenge", "evade", "target", "Hero Tactics", "Monster Tactics", "resolve", "cleanup")
    scene.rect(x0 - 6, y - 2, WIDTH - 8, y + 18, fill="#f6d6d0", outline=None)
    scene.text(x0, y + 8, _fit(f"Combat at {V.clearing_name(rec, c)} · round {int(rec['combat_round'])} · "
                               f"{steps[step] if step < len(steps) else step}", 12, PANEL_WIDTH),
               size=12, bold=True, color="#8a0c0c", anchor="lm")
    y += 22
    foes = [m for m in range(NUM_MONSTER_CHIPS) if int(rec["mon_clearing"][m]) == c]
    foes += [NUM_MONSTER_CHIPS + i for i in range(len(rec["native_clearing"])) if int(rec["native_clearing"][i]) == c]
    shown = foes[:6]
    for f in shown:
        label, side = _foe_label(f, rec)
        target = int(rec["foe_target"][f])
        text = f"{label} ({'back' if side else 'front'}): {_strength(f, side)}, wounds {int(rec['foe_wounds'][f])}"
        if target >= 0:
            text += f" -> player_{target}"
        if int(rec["foe_ctrl"][f]) > 0:
            text += f" (player_{int(rec['foe_ctrl'][f]) - 1}'s)"
        if int(rec["foe_vs"][f]) > 0:
            text += f" -> #{int(rec['foe_vs'][f]) - 1}"
        marks = V.spells_on(rec, f) + V.foe_curses_of(rec, f)
        if marks:
            text += " · " + ", ".join(marks)
        a = R.A_FOE + f
        if a in legal:
            scene.rect(x0 - 2, y - 1, WIDTH - 12, y + 14, fill=PALETTE["highlight"], outline="#806a00",
                       actions=(a,), title=names[a])
            offered.add(a)
        scene.text(x0 + 4, y + 6, _fit(text, 11, PANEL_WIDTH - 8), size=11, anchor="lm")
        y += 16
    if len(foes) > len(shown):
        scene.text(x0 + 4, y + 6, f"and {len(foes) - len(shown)} more foes", size=11, color="#444444", anchor="lm")
        y += 16
    n = int(rec["num_players"])
    secret = step == R.CS_TACTICS
    boxes = ("might", "attack", "maneuver")
    for p in range(n):
        hc = int(rec["hero_combat"][p])
        if hc == 0 or int(rec["hero_clearing"][p]) != c and hc != 3:
            continue
        part = ("", "fighting", "evaded", "killed", "done")[hc] if hc < 5 else str(hc)
        target = int(rec["hero_target"][p])
        text = f"player_{p}: {part}"
        if target == R.DOOR_FOE:
            text += ", targets the Massive Door"
        elif target >= 0:                       # a foe or a hero (AIM_HERO + q), and a Fireball's further targets
            aims = [target, *(int(g) for g in rec["more_targets"][p] if g >= 0)]
            labels = [f"player_{g - R.AIM_HERO}" if g >= R.AIM_HERO else _foe_label(g, rec)[0] for g in aims]
            verb = "aims a spell at" if target >= R.AIM_HERO and len(aims) == 1 else "targets"
            text += f", {verb} {', '.join(labels)}"
        if not secret or seat is None or seat == p:
            placed = rec["placed"][p].tolist()
            if any(placed):
                text += " · " + ", ".join(f"{boxes[i]} {v}" for i, v in enumerate(placed) if v)
            casting = V.casting(rec, p, seat)
            if casting:
                text += f" · casts {casting}"
        else:
            text += " · tactics placed in secret"
            shown = min(int(rec["challenge_cubes"][p]), int(rec["placed"][p][R.BOX_MANEUVER]))
            if shown:
                text += f" · maneuver {shown} (challenge, L1182)"
        on = V.spells_on(rec, R.AIM_HERO + p)
        if on:
            text += " · under " + ", ".join(on)
        scene.text(x0 + 4, y + 6, _fit(text, 11, PANEL_WIDTH - 8), size=11, color=PALETTE["seats"][p % 6],
                   anchor="lm")
        y += 16
    return y + 6


_BUTTON_H = 22


def _button_labels(rec, seat, actions, names):
    """``[(action, label)]`` in drawing order. A card the observer cannot
    see (it is face down in a partner's backpack) is named by its place
    only, and such cards come last in one order, so that nothing in the
    buttons tells which card it is."""
    plain, unseen = [], []
    for a in sorted(actions):
        if R.A_CARD <= a < R.A_CARD + NUM_CARDS and seat is not None and not V.card_seen(rec, a - R.A_CARD, seat):
            unseen.append(a)
        else:
            plain.append((a, names.get(a, str(a))))
    for i, a in enumerate(unseen):
        owner = int(rec["card_owner"][a - R.A_CARD])
        plain.append((a, f"ask for face-down card {i + 1} of player_{owner}"))
    return plain


def _decision(scene, rec, seat, x0, y, bottom, legal, names, offered):
    """The pending decision in words and a button for each legal action
    that no shape on the map offers; the ranks once the game is over."""
    n = int(rec["num_players"])
    y += 4
    scene.line([(x0, y), (WIDTH - 14, y)], "#b9b09c", 1)
    y += 8
    if int(rec["status"]) != 0:
        scene.text(x0, y, "Game over" + (" (turn limit)" if int(rec["status"]) == 2 else ""), size=14,
                   bold=True, anchor="lt")
        y += 20
        for p in sorted(range(n), key=lambda q: int(rec["rank"][q])):
            scene.text(x0 + 8, y, f"{int(rec['rank'][p])}. player_{p}: {int(rec['score'][p])} LP", size=12,
                       color=PALETTE["seats"][p % 6], anchor="lt")
            y += 16
        return y
    p = int(rec["to_play"])
    words = decision_words(rec, seat)
    colour = PALETTE["seats"][p % 6]
    head = f"player_{p} to play: {words}" if seat is None or seat == p else f"waiting for player_{p}: {words}"
    scene.text(x0, y, _fit(head, 13, PANEL_WIDTH), size=13, bold=True, color=colour, anchor="lt")
    y += 20
    buttons = _button_labels(rec, seat, legal - offered, names)
    if not buttons:
        if legal:
            scene.text(x0, y, "click a highlighted place on the map", size=11, color="#444444", anchor="lt")
            y += 16
        return y
    room = bottom - y - 4
    for cols in (1, 2, 3, 4):
        rows = -(-len(buttons) // cols)
        height = min(_BUTTON_H, room / rows if rows else _BUTTON_H)
        if height >= 15 or cols == 4:
            break
    width = (PANEL_WIDTH - (cols - 1) * 6) / cols
    size = 12 if cols == 1 and height >= 20 else 11 if height >= 16 else 10
    for i, (a, label) in enumerate(buttons):
        r, k = divmod(i, cols)
        bx, by = x0 + k * (width + 6), y + r * height
        scene.rect(bx, by, bx + width, by + height - 3, fill=BUTTON_FILL, outline="#9a8a40", width=1,
                   actions=(a,), title=label)
        scene.text(bx + 6, by + (height - 3) / 2, _fit(label, size, width - 10), size=size, color=BUTTON_INK,
                   anchor="lm")
    offered.update(a for a, _ in buttons)
    return y + rows * height


def _chip_legend_top(pieces):
    kinds = _chip_kinds(pieces)
    lines = -(-len(kinds) // 3)
    return LEGEND_TOP - 12 - (16 + lines * 14 if kinds else 0)


def _chip_kinds(pieces):
    """``[(code, name, fill, foe)]`` of the Monster and Native kinds on the map."""
    seen = {}
    for items in pieces.values():
        for piece in items:
            if piece[0] == "monster":
                seen.setdefault(("m", piece[1]), (MONSTER_CODES[piece[1]], V.monster_name(piece[1]), MONSTER_FILL,
                                                  piece[3][0]))
            elif piece[0] == "native":
                seen.setdefault(("n", piece[1]), (NATIVE_CODES[piece[1]],
                                                  D.REALM.natives[NATIVE_KIND_IDS[piece[1]]].name, NATIVE_FILL,
                                                  piece[3][0]))
    return [seen[k] for k in sorted(seen)]


def _chip_legend(scene, pieces, top):
    """The Monster and Native kinds on the map: code, name and health (a
    dark chip has its back side up, L635)."""
    kinds = _chip_kinds(pieces)
    if not kinds:
        return
    x0 = PANEL_LEFT
    y = top + 4
    scene.text(x0, y, "on the map (h: health; a dark chip has its back side up):", size=11, color="#444444",
               anchor="lt")
    y += 16
    col_w = PANEL_WIDTH / 3
    for i, (code, name, fill, foe) in enumerate(kinds):
        r, k = divmod(i, 3)
        x, yy = x0 + k * col_w, y + r * 14
        scene.rect(x, yy, x + 22, yy + 12, fill=fill, outline=None)
        scene.text(x + 11, yy + 6, code, size=9, color="#ffffff", bold=True)
        health = int(R.FOE_HEALTH[foe])
        scene.text(x + 26, yy + 6, _fit(f"{name} h{health}", 10, col_w - 30), size=10, anchor="lm")
