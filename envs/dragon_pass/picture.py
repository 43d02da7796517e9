"""Dragon Pass's picture: the 45 x 34 hex map, the counters and a side panel.

Drawn with the shared picture layer (``envs/core/picture.py``) in two layers:

* the **board** (:func:`board_scene`, cached): every hex in its terrain's
  colour, territory borders and names, structures, rivers with their fords
  and headwaters, primary, secondary and dragonewt roads, ridge hexsides,
  the map symbols (dragonrests, dinosaurs, the giant), a column ruler, a row
  ruler and every fifth hex's number, and the panel's fixed parts (headings
  and the legend);
* the **position** (:func:`position_scene`): the legal hexes of the pending
  decision tinted, the battle's stacks and the selected stack outlined, one
  counter per stack (the top counter's abbreviation and factors in its
  force's colour, the stack's size, a disrupted or berserk mark; a screened
  enemy stack is a blank counter), fortress control, missile targets and
  scapegoats, and the panel: scenario, turn, phase, each force's units, the
  fortresses, the decision in words, buttons for the choices and a list of
  the units the decision is about.

The geometry (hex centres, corners, hexsides) is computed once at import;
each hex's marks (roads, rivers, symbols...) are kept as display-list ops so
that a tinted hex can be redrawn over its tint without redrawing the map.
Pure Python and numpy; nothing is compiled.
"""
# jitcache: no compiled code
import functools
import math

import numpy as np

from dragongym.envs.core.picture import PALETTE, Scene
from . import rules as R
from . import view as V
from .board import (
    FORTRESS_NAMES, HEX_RIVER, HEX_STEP, HEX_STRUCTURE, HEX_TERRAIN, HEX_TERRITORY, NUM_HEXES,
    ROAD_DRAGONEWT, ROAD_PRIMARY, ROAD_SECONDARY, SIDE_RIDGE, SIDE_ROAD, STRUCTURE_IDS, TERRAIN_IDS,
    TERRITORY_IDS,
)
from .constants import (
    FORCES, NUM_UNITS, RANK_SUPERHERO, SCENARIO_ROLES, SCENARIOS, SIDE_BACK, ST_BOOKKEEPING, ST_COMBAT, ST_DEPLOY, ST_MOVEMENT,
    KINDS, ST_RALLY, ST_TURN_START, UF_FOUGHT, UF_GROUP, UF_MOVED, UNIT_IDS, UNIT_KIND_OF, UW_DEAD, UW_ENTERING,
    UW_ESCAPING, UW_MAP, UW_POOL,
)
from .data import DATA, MAP

# ================================================================ geometry
WIDTH, HEIGHT = 1600, 1088
"""The picture's size in pixels (multiples of 16, for video encoders)."""
HEX_R = 17.5
"""A hex's circumradius: flat-topped hexes, 26.25 px between columns."""
_SQ3 = math.sqrt(3.0)
MAP_LEFT, MAP_TOP = 26.0, 20.0
"""The map's top-left corner: room for the row ruler on the left and the
column ruler above."""
MAP_RIGHT = MAP_LEFT + HEX_R * (1.5 * (MAP.columns - 1) + 2)
MAP_BOTTOM = MAP_TOP + _SQ3 * HEX_R * (MAP.rows + 0.5)
PANEL_LEFT = int(MAP_RIGHT) + 8
"""The side panel spans ``PANEL_LEFT .. WIDTH``."""
PANEL_PAD = 12
COUNTER_W, COUNTER_H = 26.0, 24.0
"""A counter's width and height: it fits inside its hex and clears its
neighbours' counters (26.25 px between columns, 30.3 px between rows)."""

_COL = np.arange(NUM_HEXES) // MAP.rows
_ROW = np.arange(NUM_HEXES) % MAP.rows
CENTRE_X = MAP_LEFT + HEX_R * (1 + 1.5 * _COL)
CENTRE_Y = MAP_TOP + _SQ3 * HEX_R * (_ROW + 0.5 + 0.5 * (_COL % 2))
"""Pixel centre of each hex (board index); odd columns counted from 0 (the
map's even columns, 02, 04, ...) sit half a hex lower."""
_ANGLES = np.radians(np.arange(6) * 60.0)      # corner k at 60k degrees, y pointing down
_CORNER_DX = HEX_R * np.cos(_ANGLES)
_CORNER_DY = HEX_R * np.sin(_ANGLES)


def hex_corners(h, scale=1.0):
    """The six corners of hex h (scaled about its centre), clockwise from east."""
    if scale == 1.0:
        return HEX_POLYGONS[h]
    x, y = float(CENTRE_X[h]), float(CENTRE_Y[h])
    return tuple((x + scale * dx, y + scale * dy) for dx, dy in zip(_CORNER_DX.tolist(), _CORNER_DY.tolist()))


HEX_POLYGONS = tuple(tuple((float(x + dx), float(y + dy)) for dx, dy in zip(_CORNER_DX, _CORNER_DY))
                     for x, y in zip(CENTRE_X, CENTRE_Y))
"""Each hex's corners as plain floats, computed once: a frame tints up to
~1,300 of them."""


def ring(scene, h, scale, colour, width):
    """A hexagonal ring inside hex h, drawn as a closed polyline (Pillow draws
    a wide polygon outline some twenty times slower than a wide line)."""
    pts = hex_corners(h, scale)
    scene.line(pts + pts[:1], colour, width)


def hexside(h, d):
    """The two corners of hex h's side toward direction d (1..6, N NE SE S SW NW):
    side d runs between corners 3 + d and 4 + d (mod 6) counted from east."""
    corners = hex_corners(h)
    return corners[(3 + d) % 6], corners[(4 + d) % 6]


def _side_midpoint(h, d):
    (x0, y0), (x1, y1) = hexside(h, d)
    return (x0 + x1) / 2, (y0 + y1) / 2


_DIRECTION_OF = {}
for _h in range(NUM_HEXES):
    for _d in range(1, 7):
        if HEX_STEP[_h, _d] >= 0:
            _DIRECTION_OF[(_h, int(HEX_STEP[_h, _d]))] = _d

# ================================================================ colours
TERRAIN_COLOURS = {"open": "#ede7c6", "hill": "#d9bf88", "hill_forest": "#a8b46c", "forest": "#83ab63",
                   "mountain": "#a4978b", "marsh": "#b5d2c4", "lake": "#8fc5ea"}
"""Fill of each terrain (``board.TERRAIN_IDS``)."""
TERRAIN_LABELS = {"open": "open ground", "hill": "hill", "hill_forest": "hill/forest", "forest": "forest",
                  "mountain": "mountain", "marsh": "marsh", "lake": "lake"}
FORCE_COLOURS = PALETTE["seats"][:len(FORCES)]
"""Counter colour of each force, the seat colours (seat = force)."""
GRID = "#bcb196"
RIVER = "#2f7fc8"
FORD = "#d9c9a0"
ROAD_COLOURS = {ROAD_PRIMARY: "#8c2d19", ROAD_SECONDARY: "#9a6a3a", ROAD_DRAGONEWT: "#7d3c98"}
RIDGE = "#5b3a1e"
BORDER = "#8a4f9e"
FORTRESS = "#262626"
STOCKADE = "#6e4b26"
ATTACKER = "#ff7a00"
DEFENDER = "#7b2cbf"
TINT_EDGE = "#d9a400"
FIRE = "#d01010"
MUTED = "#6b6457"
INK = PALETTE["ink"]

_TINT = 0.28
"""How much of PALETTE["highlight"] a legal hex's tint mixes into its terrain."""


def _mix(a, b, t):
    """Colour ``a`` moved a fraction ``t`` toward colour ``b`` ("#rrggbb")."""
    ca = [int(a[i:i + 2], 16) for i in (1, 3, 5)]
    cb = [int(b[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(ca, cb))


HEX_FILL = tuple(TERRAIN_COLOURS[TERRAIN_IDS[HEX_TERRAIN[h]]] for h in range(NUM_HEXES))
HEX_TINT = tuple(_mix(c, PALETTE["highlight"], _TINT) for c in HEX_FILL)
"""Each hex's fill, and its fill tinted as a legal choice (terrain still reads)."""
FORCE_PALE = tuple(_mix(c, "#ffffff", 0.55) for c in FORCE_COLOURS)
"""A disrupted counter's fill: its force's colour faded (the counter's back)."""

# ================================================================ the counters' lettering
_SKIP_WORDS = {"the", "of", "prince"}


def _initials(name):
    words = [w for w in name.replace("'s", "").split() if w.lower() not in _SKIP_WORDS]
    if len(words) == 1:
        return words[0][:2]
    return "".join(w[0].upper() for w in words)


def _kind_abbreviations():
    """A kind's counter letters: a hero's or superhero's name cut to three
    letters ("Arg", "Har"), other kinds their initials ("FW" Free Warriors,
    "La" Lancers); kinds whose initials clash spell out their first word's
    second letter ("HoA" Horse Archers, "HeA" Heartland Archers), then its
    third ("Tro" Trollkin, "Tra" Trachodons), and kinds still alike are
    numbered ("Cla1".."Cla3", the Grazeland Clans). Initials run to three
    letters at most: the first two words' and the last's."""
    kinds = list(KINDS)
    out = {}
    for kind in kinds:
        if kind.rank != "none":
            words = [w for w in kind.name.split() if w.lower() not in _SKIP_WORDS]
            out[kind.id] = words[0][:3]
        else:
            a = _initials(kind.name)
            out[kind.id] = a if len(a) <= 3 else a[:2] + a[-1]    # "ESS" Earth Shaker's Cult Spirit
    counts = {}
    for a in out.values():
        counts[a] = counts.get(a, 0) + 1
    # clashes spell out more of the first word, then number what is left
    # (the Grazeland Clans differ only in their factors, which the counter prints)
    for letters in (2, 3):
        for kind in kinds:
            if counts[out[kind.id]] > 1:
                first, *rest = [w for w in kind.name.split() if w.lower() not in _SKIP_WORDS]
                out[kind.id] = first[:letters] + "".join(w[0].upper() for w in rest)
        counts = {}
        for a in out.values():
            counts[a] = counts.get(a, 0) + 1
    seen = {}
    for kind in kinds:
        a = out[kind.id]
        if counts[a] > 1:
            seen[a] = seen.get(a, 0) + 1
            out[kind.id] = f"{a}{seen[a]}"
    return out


ABBREVIATIONS = _kind_abbreviations()
"""Kind id -> the letters on its counter."""

_KIND_MARKS = {"blank": "X", "cyclic": "C", "half_cyclic": "C/2", "equal": "=", "infinity": "inf",
               "double": "x2", "special": "*"}
"""How a factor that is not a number is lettered (the picture's font has no
infinity or one-half sign)."""


def _factor(kind, value, number="{}"):
    return number.format(value) if value is not None and kind not in _KIND_MARKS else _KIND_MARKS.get(kind, "?")


def _factor_text(side):
    """CF-MgF-MF as the scenarios print a counter ("4-5-5", L214), shortened to
    fit a counter: a Missile Factor is an asterisk on the CF (L394), "inf" an
    infinite MgF, "C" a cyclic factor; the parentheses, leadership marks,
    Runes and the RF (part 1 has no magic to resist) are left to the
    panel's full name."""
    cf = _factor(side.cf_kind, side.cf) + "*" * side.missile
    mgf = _factor(side.mgf_kind, side.mgf) + ("*" if side.exotic else "")
    mf = _factor(side.mf_kind, side.mf, "+{}" if side.mf_kind == "plus" else "{}") + ("*" if side.unusual else "")
    return f"{cf}-{mgf}-{mf}"


def _fit_width(text, size):
    """``text``'s width in px at font size ``size``."""
    from dragongym.envs.core.picture import _font

    return _font(size).getlength(text)


def _fit_size(text, width, sizes=(9, 8, 7, 6)):
    """The largest font size of ``sizes`` at which ``text`` is at most ``width`` px."""
    from dragongym.envs.core.picture import _font

    for size in sizes:
        if _font(size).getlength(text) <= width:
            return size
    return sizes[-1]


def _counter_labels():
    kinds = list(KINDS)
    out = []
    for u in range(NUM_UNITS):
        kind = kinds[UNIT_KIND_OF[u]]
        letters = ABBREVIATIONS[kind.id]
        sides = []
        for side in (kind.front, kind.back):
            text = _factor_text(side)
            if _fit_width(text, 6) > COUNTER_W - 1:
                text = text.replace("*", "")      # the Hell Hound's 10-10*-10*: its marks stay in the panel
            sides.append((text, _fit_size(text, COUNTER_W - 1)))
        out.append((letters, _fit_size(letters, COUNTER_W - 13), tuple(sides)))
    return tuple(out)


COUNTER_LABELS = _counter_labels()
"""Per unit: ``(letters, their font size, ((front factors, size), (back factors, size)))``."""
_BERSERK_BACK = np.array([KINDS[UNIT_KIND_OF[u]].back_side == "berserk" for u in range(NUM_UNITS)], bool)

# ================================================================ the board layer
_DRAGONREST_COLOURS = {"dragonrest_green": "#2e8b57", "dragonrest_red": "#c0392b",
                       "dragonrest_brown": "#8b5a2b", "dragonrest_black": "#111111"}
TERRITORY_LABELS = {"glowline_dark": "TARSH", "old_sartar": "OLD SARTAR", "grazelands": "GRAZELANDS",
                    "wintertop": "WINTERTOP", "black_horse_country": "BLACK HORSE", "beast_valley": "BEAST VALLEY",
                    "alda_chur": "ALDA-CHUR", "alone": "ALONE", "duck_point": "DUCK POINT",
                    "cragspider": "CRAGSPIDER"}
"""Territories named on the map (the Glowline's lighter part and the
single-hex dragonewt cities go unnamed)."""


def _structure_marks(h, scene):
    """The symbol of hex h's structure (L350-L355), drawn inside the hex."""
    st = HEX_STRUCTURE[h]
    if st < 0:
        return
    kind = STRUCTURE_IDS[st]
    x, y = float(CENTRE_X[h]), float(CENTRE_Y[h])
    if kind == "fortress":
        ring(scene, h, 0.9, FORTRESS, 2)
        scene.rect(x - 5, y - 5, x + 5, y + 5, fill=FORTRESS)
    elif kind == "stockade":
        ring(scene, h, 0.86, STOCKADE, 2)
        scene.rect(x - 4, y - 4, x + 4, y + 4, outline=STOCKADE, width=2)
    elif kind in ("ruin", "marsh_ruin", "hill_ruin"):
        scene.line(((x - 6, y + 4), (x - 6, y - 4), (x - 2, y - 1)), "#5a5a5a", 2)
        scene.line(((x + 1, y + 4), (x + 1, y - 2), (x + 6, y - 5), (x + 6, y + 4)), "#5a5a5a", 2)
    elif kind == "temple":
        scene.polygon(((x - 7, y - 1), (x, y - 7), (x + 7, y - 1)), fill="#f4f0e0", outline="#4a3b2a")
        scene.rect(x - 5, y - 1, x + 5, y + 5, fill="#f4f0e0", outline="#4a3b2a")
    elif kind == "town":
        for dx, dy in ((-4, -3), (3, -3), (0, 3)):
            scene.rect(x + dx - 3, y + dy - 2, x + dx + 3, y + dy + 2, fill="#7b5a3c")
    elif kind == "altar":
        scene.rect(x - 6, y - 2, x + 6, y + 3, fill="#8e8e8e", outline="#404040")
        scene.line(((x, y - 8), (x, y - 2)), "#404040", 2)
    elif kind == "dragonewt_city":
        ring(scene, h, 0.8, "#7d3c98", 2)
        scene.polygon(hex_corners(h, 0.32), fill="#9b59b6", outline="#5b2c6f")


def _symbol_marks(h, scene):
    """Map symbols (L151, L344): a dragonrest's diamond in its dragon's colour,
    a dinosaur's or the giant's letter."""
    x, y = float(CENTRE_X[h]) + 9, float(CENTRE_Y[h]) - 7
    for kind in MAP.symbols.get(h, ()):
        if kind in _DRAGONREST_COLOURS:
            scene.polygon(((x, y - 4), (x + 4, y), (x, y + 4), (x - 4, y)), fill=_DRAGONREST_COLOURS[kind],
                          outline="#ffffff")
        else:
            scene.circle(x, y, 4, fill="#ffffff", outline="#505050")
            scene.text(x, y, "d" if kind == "dinosaur" else "G", 7, "#303030")


def _terrain_marks(h, scene):
    """A small texture for the rough terrains, so that terrain reads in grey too."""
    x, y = float(CENTRE_X[h]), float(CENTRE_Y[h])
    kind = TERRAIN_IDS[HEX_TERRAIN[h]]
    if kind == "mountain":
        scene.line(((x - 9, y + 6), (x - 4, y - 2), (x + 1, y + 6)), "#6b5d50", 1)
        scene.line(((x - 1, y + 2), (x + 4, y - 6), (x + 9, y + 2)), "#6b5d50", 1)
    elif kind == "marsh":
        for dy in (-4, 1, 6):
            scene.line(((x - 6 + (dy % 3), y + dy), (x + 5 + (dy % 3), y + dy)), "#4f8b74", 1)
    elif kind in ("forest", "hill_forest"):
        for dx, dy in ((-5, -3), (4, 1), (-2, 5)):
            scene.circle(x + dx, y + dy, 2.5, fill="#4e7d3a")
    elif kind == "hill":
        scene.line(((x - 7, y + 3), (x - 3, y - 1), (x + 1, y + 3)), "#a88a52", 1)


def _hex_features():
    """Per hex, the display-list ops of the map's features drawn inside it
    over its fill: river, roads, ridges, structure, symbols, its number
    (every fifth). Roads and rivers are drawn as half segments from each
    hex's centre to its sides, so a hex redrawn alone looks the same."""
    marks = []
    river_next = {}
    for river in MAP.rivers:
        course = river.course
        for a, b in zip(course, course[1:]):
            river_next.setdefault(a, []).append(b)
            river_next.setdefault(b, []).append(a)
    for h in range(NUM_HEXES):
        scene = Scene(1, 1)
        x, y = float(CENTRE_X[h]), float(CENTRE_Y[h])
        if HEX_RIVER[h]:
            for g in river_next.get(h, ()):
                scene.line(((x, y), _side_midpoint(h, _DIRECTION_OF[(h, g)])), RIVER, 4)
            scene.circle(x, y, 2, fill=RIVER)
            if h in MAP.headwaters:
                scene.circle(x, y, 4, fill="#ffffff", outline=RIVER, width=2)
            elif h in MAP.fords:
                g = river_next[h][0]
                (x0, y0) = _side_midpoint(h, _DIRECTION_OF[(h, g)])
                nx, ny = -(y0 - y), x0 - x
                k = 7.0 / math.hypot(nx, ny)
                scene.line(((x - nx * k, y - ny * k), (x + nx * k, y + ny * k)), FORD, 5)
        for bit, width, dash in ((ROAD_PRIMARY, 3, None), (ROAD_SECONDARY, 2, (4, 2)), (ROAD_DRAGONEWT, 2, (2, 2))):
            for d in range(1, 7):
                if SIDE_ROAD[h, d] & bit:
                    scene.line(((x, y), _side_midpoint(h, d)), ROAD_COLOURS[bit], width, dash)
        for d in range(1, 7):
            if SIDE_RIDGE[h, d]:
                (x0, y0), (x1, y1) = hexside(h, d)
                scene.line(((x0, y0), (x1, y1)), RIDGE, 3)
                if SIDE_RIDGE[h, d] < 0:
                    # h is the high side; the hachures go on the low side, pointing down into it
                    continue
                mx, my = (x0 + x1) / 2, (y0 + y1) / 2
                for t in (0.25, 0.75):
                    px, py = x0 + (x1 - x0) * t, y0 + (y1 - y0) * t
                    scene.line(((px, py), (px + (x - mx) * 0.25, py + (y - my) * 0.25)), RIDGE, 1)
        _structure_marks(h, scene)
        _symbol_marks(h, scene)
        col, row = int(MAP.ids[h][:2]), int(MAP.ids[h][2:])
        if col % 5 == 0 and row % 5 == 0:
            scene.text(x, y + HEX_R * 0.62, MAP.ids[h], 7, "#5e5546")
        marks.append(tuple(scene.ops))
    return tuple(marks)


def _hex_textures():
    out = []
    for h in range(NUM_HEXES):
        scene = Scene(1, 1)
        _terrain_marks(h, scene)
        out.append(tuple(scene.ops))
    return tuple(out)


HEX_FEATURES = _hex_features()
"""Per hex, the ops of its map features (see :func:`_hex_features`): drawn on
the board, and again over the hex's tint when it is a legal choice."""
HEX_TEXTURES = _hex_textures()
"""Per hex, the ops of its terrain texture (the board only: a tinted hex
shows its terrain by the tint's colour)."""
HEX_TITLES = tuple(MAP.ids)


def _territory_borders(scene):
    """The borders between territories (L142-L150) along the hexsides."""
    for h in range(NUM_HEXES):
        for d in (2, 3, 4):          # each hexside once: toward NE, SE, S
            g = int(HEX_STEP[h, d])
            if g >= 0 and HEX_TERRITORY[h] != HEX_TERRITORY[g]:
                scene.line(hexside(h, d), BORDER, 2, dash=(4, 3))


def _territory_names(scene):
    for t, label in TERRITORY_LABELS.items():
        k = TERRITORY_IDS.index(t)
        hexes = np.flatnonzero(HEX_TERRITORY == k)
        if len(hexes):
            scene.text(float(CENTRE_X[hexes].mean()), float(CENTRE_Y[hexes].mean()), label, 13, "#7a4a86")


def _rulers(scene):
    for c in range(MAP.columns):
        scene.text(MAP_LEFT + HEX_R * (1 + 1.5 * c), MAP_TOP - 9, f"{c + 1:02d}", 9, MUTED)
    for r in range(MAP.rows):
        scene.text(MAP_LEFT - 13, MAP_TOP + _SQ3 * HEX_R * (r + 0.5), f"{r + 1:02d}", 9, MUTED)


# the side panel's fixed parts: where each section starts (y), drawn once with the board
PANEL_TOP = 12
Y_FORCES = 98
Y_FORTRESSES = 222
Y_DECISION = 336
Y_LEGEND = 752
BUTTON_H = 24


def _panel_heading(scene, y, text):
    x0, x1 = PANEL_LEFT + PANEL_PAD, WIDTH - PANEL_PAD
    scene.text(x0, y, text, 11, MUTED, "lb", bold=True)
    scene.line(((x0, y + 3), (x1, y + 3)), "#cfc7b3", 1)


def _legend(scene):
    x0 = PANEL_LEFT + PANEL_PAD
    _panel_heading(scene, Y_LEGEND, "LEGEND")
    y = Y_LEGEND + 20
    terrains = list(TERRAIN_COLOURS)
    for i, t in enumerate(terrains):
        col, row = i % 2, i // 2
        cx, cy = x0 + 10 + col * 165, y + row * 22
        pts = tuple((cx + 8 * math.cos(a), cy + 8 * math.sin(a)) for a in _ANGLES)
        scene.polygon(pts, fill=TERRAIN_COLOURS[t], outline=GRID)
        scene.text(cx + 14, cy, TERRAIN_LABELS[t], 10, INK, "lm")
    y += 22 * ((len(terrains) + 1) // 2) + 4
    items = [
        ("road", ROAD_COLOURS[ROAD_PRIMARY], 3, None, "primary road"),
        ("road", ROAD_COLOURS[ROAD_SECONDARY], 2, (4, 2), "secondary road"),
        ("road", ROAD_COLOURS[ROAD_DRAGONEWT], 2, (2, 2), "dragonewt road"),
        ("road", RIVER, 4, None, "river (hexes)"),
        ("ford", None, 0, None, "ford / headwaters"),
        ("ridge", RIDGE, 3, None, "ridge (hachures low)"),
        ("road", BORDER, 2, (4, 3), "territory border"),
        ("fortress", None, 0, None, "fortress / stockade"),
        ("temple", None, 0, None, "temple / town / ruin"),
        ("city", None, 0, None, "dragonewt city"),
        ("symbol", None, 0, None, "dragonrest / dinosaur"),
    ]
    for i, (kind, colour, width, dash, label) in enumerate(items):
        col, row = i % 2, i // 2
        lx, ly = x0 + 2 + col * 165, y + row * 20
        if kind == "road":
            scene.line(((lx, ly), (lx + 20, ly)), colour, width, dash)
        elif kind == "ridge":
            scene.line(((lx, ly), (lx + 20, ly)), colour, width)
            for t in (5, 15):
                scene.line(((lx + t, ly), (lx + t, ly + 4)), colour, 1)
        elif kind == "ford":
            scene.line(((lx, ly), (lx + 9, ly)), RIVER, 4)
            scene.line(((lx + 4, ly - 5), (lx + 4, ly + 5)), FORD, 4)
            scene.circle(lx + 16, ly, 4, fill="#ffffff", outline=RIVER, width=2)
        elif kind == "city":
            pts = tuple((lx + 10 + 9 * math.cos(a), ly + 9 * math.sin(a)) for a in _ANGLES)
            scene.line(pts + pts[:1], "#7d3c98", 2)
            scene.polygon(tuple((lx + 10 + 3.5 * math.cos(a), ly + 3.5 * math.sin(a)) for a in _ANGLES),
                          fill="#9b59b6", outline="#5b2c6f")
        elif kind == "symbol":
            scene.polygon(((lx + 4, ly - 4), (lx + 8, ly), (lx + 4, ly + 4), (lx, ly)),
                          fill=_DRAGONREST_COLOURS["dragonrest_red"], outline="#ffffff")
            scene.circle(lx + 16, ly, 4, fill="#ffffff", outline="#505050")
            scene.text(lx + 16, ly, "d", 7, "#303030")
        elif kind == "fortress":
            scene.rect(lx + 1, ly - 5, lx + 9, ly + 3, fill=FORTRESS)
            scene.rect(lx + 13, ly - 5, lx + 20, ly + 3, outline=STOCKADE, width=2)
        else:
            scene.polygon(((lx - 1, ly - 1), (lx + 4, ly - 6), (lx + 9, ly - 1)), fill="#f4f0e0",
                          outline="#4a3b2a")
            scene.rect(lx, ly - 1, lx + 8, ly + 4, fill="#f4f0e0", outline="#4a3b2a")
            scene.rect(lx + 12, ly - 3, lx + 17, ly + 1, fill="#7b5a3c")
            scene.line(((lx + 20, ly + 4), (lx + 20, ly - 3), (lx + 23, ly - 1)), "#5a5a5a", 2)
        scene.text(lx + 28, ly, label, 10, INK, "lm")
    y += 20 * ((len(items) + 1) // 2) + 6
    # the counters: a sample of each mark
    scene.text(x0, y, "counter: the top unit's letters and CF-MgF-MF (* a Missile Factor,", 9, MUTED, "lm")
    scene.text(x0, y + 13, "inf infinite, C cyclic); corner box: the stack's size; corner triangle:", 9, MUTED, "lm")
    scene.text(x0, y + 26, "disrupted (black) or berserk (orange); ? a screened enemy stack", 9, MUTED, "lm")
    y += 43
    for i, (label, colour) in enumerate((("tinted: a legal choice", TINT_EDGE), ("attacking stack", ATTACKER),
                                         ("defending stack", DEFENDER), ("selected stack", PALETTE["select"]))):
        col, row = i % 2, i // 2
        lx, ly = x0 + 2 + col * 165, y + row * 20
        scene.rect(lx, ly - 6, lx + 16, ly + 6, fill=_mix("#ede7c6", PALETTE["highlight"], _TINT) if i == 0
                   else None, outline=colour, width=1 if i == 0 else 3)
        scene.text(lx + 24, ly, label, 10, INK, "lm")


def board_scene(state):
    """The board layer: the map and the panel's fixed parts (drawn once, cached)."""
    scene = Scene(WIDTH, HEIGHT, background=PALETTE["paper"])
    for h in range(NUM_HEXES):
        scene.polygon(hex_corners(h), fill=HEX_FILL[h], outline=GRID)
    for h in range(NUM_HEXES):
        scene.ops.extend(HEX_TEXTURES[h])
    _territory_borders(scene)
    for h in range(NUM_HEXES):
        scene.ops.extend(HEX_FEATURES[h])
    _territory_names(scene)
    _rulers(scene)
    scene.rect(PANEL_LEFT, 0, WIDTH, HEIGHT, fill=PALETTE["panel"])
    scene.line(((PANEL_LEFT, 0), (PANEL_LEFT, HEIGHT)), "#cfc7b3", 1)
    scene.text(PANEL_LEFT + PANEL_PAD, PANEL_TOP, "DRAGON PASS", 18, INK, "lt", bold=True)
    _panel_heading(scene, Y_FORCES, "FORCES")
    _panel_heading(scene, Y_FORTRESSES, "FORTRESSES")
    _panel_heading(scene, Y_DECISION, "DECISION")
    _panel_names(scene, V.record(state))
    _legend(scene)
    return scene


def board_key(state):
    """The board is the same map in every scenario; the panel names the
    scenario's players (``constants.SCENARIO_ROLES``): one key per set of names."""
    return SCENARIO_ROLES[int(V.record(state)["scenario"])]


# ================================================================ the position layer
_KINDS = list(KINDS)
_STAGE_NAMES = {ST_DEPLOY: "deployment", ST_TURN_START: "start of a player-turn", ST_MOVEMENT: "movement phase",
                ST_COMBAT: "combat phase", ST_RALLY: "rally phase", ST_BOOKKEEPING: "book-keeping phase",
                R.ST_EXOTIC: "Exotic Magic Phase", R.ST_RANDOM_EVENTS: "Random Events Segment",
                R.ST_RANDOM_MOVE: "Random Movement Phase"}

_CHOICE_LABELS = {
    (R.PH_MOVE, R.CH_DONE): "End the movement phase",
    (R.PH_MOVE_GROUP, R.CH_DONE): "Stop the group here",
    (R.PH_MOVE_GROUP, R.CH_ARRANGE): "Arrange this stack",
    (R.PH_ARRANGE, R.CH_DONE): "The stack is arranged",
    (R.PH_BATTLE, R.CH_DONE): "Fight no more battles",
    (R.PH_BATTLE_ADD, R.CH_DONE): "Fight this battle",
    (R.PH_MISSILE_CHOICE, R.CH_DISRUPT_TWO): "Take two disruptions",
    (R.PH_MISSILE_CHOICE, R.CH_ELIMINATE_ONE): "Take one elimination",
    (R.PH_RETREAT, R.CH_DONE): "No more retreats",
    (R.PH_ADVANCE, R.CH_DONE): "No more advances",
    (R.PH_ADVANCE_EXT, R.CH_DONE): "Stay in the hex",
    (R.PH_FORCE_MARCH, R.CH_FORCE_MARCH): "Force march onto the board",
    (R.PH_FORCE_MARCH, R.CH_DONE): "Enter at its MF",
    (R.PH_COMMIT, R.CH_DONE): "Commit no more spirits",
    (R.PH_SUPPORT, R.CH_DONE): "Give no more support",
    (R.PH_EXOTIC, R.CH_DONE): "End the Exotic Magic Phase",
    (R.PH_ASSASSIN, R.CH_DONE): "Take the assassin back",
    (R.PH_REVEAL, R.CH_REVEAL): "Reveal it",
    (R.PH_REVEAL, R.CH_DONE): "Keep it hidden",
    (R.PH_FREEZE, R.CH_FREEZE): "Freeze the cavalry",
    (R.PH_FREEZE, R.CH_DONE): "Not now",
    (R.PH_SPEED, R.CH_SPEED): "Eliminate the Spirit of Movement",
    (R.PH_SPEED, R.CH_DONE): "Keep it",
    (R.PH_ALCHEMY, R.CH_DONE): "Double no one",
    (R.PH_ALCHEMY_FACTOR, R.CH_ALCHEMY_MGF): "Double its MgF",
    (R.PH_ALCHEMY_FACTOR, R.CH_ALCHEMY_RF): "Double its RF",
    (R.PH_PUPPET_DODGE, R.CH_DONE): "The Troop fights",
    (R.PH_DIPLOMACY, R.CH_DONE): "Assign no more",
    (R.PH_REPLACE, R.CH_DONE): "No more replacements",
    (R.PH_PURCHASE, R.CH_DONE): "Buy no more",
    (R.PH_ALLIANCE, R.CH_DONE): "End the Alliance Phase",
    (R.PH_AUCTION, R.CH_DONE): "Write the offer",
    (R.PH_HYDRA_FEED, R.CH_DONE): "Feed no more now",
    (R.PH_EXOTIC_TARGET, R.CH_STORM): "Type 2 storm: rain, rain, flood",
    (R.PH_EXOTIC_TARGET, R.CH_QUAKE_1): "Type 1 earthquake: one line of 8",
    (R.PH_EXOTIC_TARGET, R.CH_QUAKE_2): "Type 2 earthquake: two lines of 5",
}
"""Button labels of the choice actions, by the pending decision."""
_CHOICE_NAMES = ("Done", "Arrange", "Two disruptions", "One elimination", "Force march") \
    + tuple(f"Red Moon: {ph.name}" for ph in DATA.tables.moon_phases) + ("Type 2 storm", "Reveal") \
    + ("Freeze the cavalry", "Type 1 earthquake", "Type 2 earthquake") \
    + ("Dragonfight: the other units", "Negate the Glowline") \
    + ("Eliminate the Spirit of Movement", "Double the MgF", "Double the RF") \
    + tuple(f"Assign {int(n)} DP to {DATA.tables.alliance_names[R.MAJORS[k]]}"
            for n in R.ASSIGN_AMOUNTS for k in range(R.NUM_MAJORS)) \
    + tuple(f"Seek {DATA.tables.alliance_names[R.MAJORS[k]]}" for k in range(R.NUM_MAJORS)) \
    + ("To the South Soldier Reserve",) \
    + tuple(f"Offer {int(n)} DP more" for n in R.ASSIGN_AMOUNTS) \
    + ("Fetch Hungry Jack",)
assert len(_CHOICE_NAMES) == R.NUM_CHOICES
"""A label for every choice action (``rules.CH_*``, the moon's phases in order)."""

_HEX_VERBS = {R.PH_DEPLOY: "deploy at", R.PH_MOVE: "select the stack at", R.PH_MOVE_GROUP: "step into",
              R.PH_BATTLE: "attack", R.PH_BATTLE_ADD: "add the stack at", R.PH_MISSILE_TARGET: "fire at",
              R.PH_RETREAT_HEX: "retreat to", R.PH_ADVANCE_HEX: "advance into", R.PH_ADVANCE_EXT: "advance on to",
              R.PH_ESCAPE_HEX: "rejoin the stack at", R.PH_ENTER_HEX: "enter at",
              R.PH_COMMIT_HEX: "send it against", R.PH_SUPPORT_HEX: "support the stack at",
              R.PH_EXOTIC_TARGET: "strike", R.PH_HUNGER: "the Bat's spirit takes the top of",
              R.PH_SUMMON_HEX: "summon to", R.PH_FRACTURE: "lay the next fracture hex at",
              R.PH_PILLAR: "bring the Pillar of Fire down on", R.PH_ZOMBIE_RISE: "raise the new zombie at",
              R.PH_ZOMBIE_MARCH: "lead the zombie chain into", R.PH_ALLY_SETUP: "set up at",
              R.PH_KEENER: "Keener Than joins the stack at"}
_UNIT_VERBS = {R.PH_MOVE: "bring on", R.PH_MOVE_GROUP: "move with the group", R.PH_ARRANGE: "put on top",
               R.PH_MISSILE_CASUALTY: "take as the casualty", R.PH_RETREAT: "retreat", R.PH_CASUALTY: "eliminate",
               R.PH_ADVANCE: "advance", R.PH_SCAPEGOAT: "make the scapegoat", R.PH_COMMIT: "commit",
               R.PH_SAVE: "protect", R.PH_MAGIC_CASUALTY: "eliminate", R.PH_SUPPORT: "send to support",
               R.PH_EXOTIC: "use the exotic magic of", R.PH_EXOTIC_TARGET: "devour", R.PH_HUNGER: "eliminate",
               R.PH_ASSASSIN: "try to kill", R.PH_ALCHEMY: "double a factor of",
               R.PH_PUPPET_DODGE: "switch the Troop with", R.PH_HYDRA_FEED: "feed to the Hydra",
               R.PH_DRAGONFIGHT: "the dragonfight eliminates", R.PH_JACK: "Hungry Jack summons",
               R.PH_JACK_AID: "aid Hungry Jack with", R.PH_REPLACE: "bring back as a replacement",
               R.PH_PURCHASE: "buy as a replacement",
               R.PH_ALLIANCE: "send as an emissary", R.PH_SACRIFICE: "sacrifice with"}


class _View:
    """What one frame needs of the record, read once: the stacks, what the
    observer may see of each, the battle, the legal actions to draw."""

    def __init__(self, state, seat):
        rec = state[0]
        self.rec = rec
        self.seat = seat
        where = rec["unit_where"]
        on_map = np.flatnonzero(where == UW_MAP)
        hexes = rec["unit_hex"][on_map].astype(np.int64)
        order = rec["unit_order"][on_map]
        # top first within each hex, hexes in board order
        sort = np.lexsort((-order, hexes))
        self.stacks = {}
        for u, h in zip(on_map[sort].tolist(), hexes[sort].tolist()):
            self.stacks.setdefault(h, []).append(u)
        self.attackers = [int(h) for h in rec["bat_att"] if h >= 0]
        self.defenders = [int(h) for h in rec["bat_def"] if h >= 0]
        self.vacated = [int(h) for h in rec["bat_vacated"] if h >= 0]
        battle = V.open_hexes(rec, seat)
        screening = bool(rec["screening"])
        self.screened = set()
        """Hexes of stacks whose contents ``seat`` may not know (observe.hidden_from)."""
        if seat is not None and screening:
            for h, units in self.stacks.items():
                f = V.stack_force(rec, units)
                if f >= 0 and f != seat and h not in battle:
                    self.screened.add(h)
        self.running = int(rec["status"]) == 0
        self.to_play = int(rec["to_play"])
        self.phase = int(rec["phase"])
        self.acting = self.running and (seat is None or seat == self.to_play)
        """The legal actions are drawn (clickable): the full view or the seat to play."""
        self.legal = np.zeros(0, np.int64)
        if self.acting:
            from .game import GAME

            self.legal = np.flatnonzero(GAME.mask_of(state))

    def seen(self, u):
        """The observer may know unit u's place and factors."""
        return not (int(self.rec["unit_where"][u]) == UW_MAP and int(self.rec["unit_hex"][u]) in self.screened) \
            or u in V.revealed_units(self.rec)

    def side(self, u):
        return int(self.rec["unit_side"][u])

    def name(self, u):
        """The unit's name, with the factors of its side up where the observer
        may see them ("Free Warriors 4-5-5 (2)"), else its name and copy only
        ("Free Warriors (2)": which side is up is screened)."""
        if self.seen(u):
            return V.unit_name(u, self.rec).replace("½", "1/2")
        copy = UNIT_IDS[u].partition("#")[2]
        return _KINDS[UNIT_KIND_OF[u]].name + (f" ({copy})" if copy else "")


# ---------------------------------------------------------------- counters
def _counter(scene, x, y, u, side, actions=(), title=None, size=None, selected=False):
    """Counter u (its side ``side`` up) centred at (x, y); ``size`` is the
    stack's size shown in its corner (None: not shown)."""
    force = int(R.U_FORCE[u])
    hw, hh = COUNTER_W / 2, COUNTER_H / 2
    back = side == SIDE_BACK
    fill = FORCE_PALE[force] if back and not _BERSERK_BACK[u] else FORCE_COLOURS[force]
    ink = INK if fill == FORCE_PALE[force] else "#ffffff"
    scene.rect(x - hw, y - hh, x + hw, y + hh, fill=fill,
               outline=PALETTE["select"] if selected else "#1a1a1a", width=2 if selected else 1,
               actions=actions, title=title)
    letters, letter_size, sides = COUNTER_LABELS[u]
    factors, factor_size = sides[side]
    scene.text(x - hw + 2, y - 5, letters, letter_size, ink, "lm")
    scene.text(x, y + 6, factors, factor_size, ink, "mm")
    if back:
        mark = "#ff8c00" if _BERSERK_BACK[u] else "#111111"
        scene.polygon(((x - hw, y + hh - 7), (x - hw, y + hh), (x - hw + 7, y + hh)), fill=mark)
    if size is not None and size > 1:
        scene.rect(x + hw - 9, y - hh, x + hw, y - hh + 10, fill="#ffffff", outline="#1a1a1a")
        scene.text(x + hw - 4.5, y - hh + 5, str(min(size, 99)), 8, INK, "mm")


def _blank_counter(scene, x, y, force, actions=(), title=None):
    """A screened enemy stack: the back of a counter, its force's colour only (L452)."""
    hw, hh = COUNTER_W / 2, COUNTER_H / 2
    scene.rect(x - hw, y - hh, x + hw, y + hh, fill=FORCE_COLOURS[force], outline="#1a1a1a",
               actions=actions, title=title)
    scene.rect(x - hw + 3, y - hh + 3, x + hw - 3, y + hh - 3, outline=_mix(FORCE_COLOURS[force],
                                                                                     "#ffffff", 0.4))
    scene.text(x, y, "?", 11, "#ffffff", "mm")


def _draw_stacks(scene, view, hex_actions, unit_actions):
    """One counter per stack: the top counter, a shadow for the ones under it.
    A stack's counter carries the legal actions of its hex and of its units."""
    rec = view.rec
    focus = _focus_unit(view)
    for h, units in view.stacks.items():
        x, y = float(CENTRE_X[h]), float(CENTRE_Y[h])
        actions = list(hex_actions.get(h, ()))
        for u in units:
            actions.extend(unit_actions.get(u, ()))
        title = _stack_title(view, h, units)
        top = units[0]
        force = int(R.U_FORCE[top])
        if h in view.screened:
            # its size is part of what screening hides: no shadow, no count
            _blank_counter(scene, x, y, force, actions, title)
            continue
        if len(units) > 1:
            hw, hh = COUNTER_W / 2, COUNTER_H / 2
            shade = _mix(FORCE_COLOURS[force], "#000000", 0.35)
            scene.rect(x - hw + 2, y - hh + 3, x + hw + 2, y + hh + 3, fill=shade, outline="#1a1a1a")
        selected = any(int(rec["unit_flags"][u]) & UF_GROUP for u in units) or focus in units
        _counter(scene, x, y, top, view.side(top), actions, title, len(units), selected)


def _stack_title(view, h, units):
    if h in view.screened:
        f = int(view.rec['unit_force'][units[0]])
        owner = V.side_name(view.rec, f) if f >= 0 else "neutral"          # a neutral herd on top (L594)
        return f"{V.hex_name(h)}: {owner}, " + V.screened_contents(view.rec, units)
    return f"{V.hex_name(h)}: " + ", ".join(view.name(u) for u in units)


def _focus_unit(view):
    """The unit the pending decision is about (observe's U_SELECTED), or -1."""
    rec, ph = view.rec, view.phase
    if ph in (R.PH_MISSILE_TARGET, R.PH_RETREAT_HEX, R.PH_ESCAPE_HEX, R.PH_SCAPEGOAT, R.PH_ENTER_HEX,
              R.PH_FORCE_MARCH, R.PH_COMMIT_HEX, R.PH_SAVE, R.PH_SUPPORT_HEX, R.PH_EXOTIC_TARGET, R.PH_SUMMON_HEX,
              R.PH_ASSASSIN, R.PH_FRACTURE, R.PH_PILLAR, R.PH_ALLY_SETUP, R.PH_SACRIFICE, R.PH_GIANT_STEP):
        return int(rec["cursor"])
    if ph == R.PH_ZOMBIE_MARCH:
        return int(rec["zombie_lead"])
    if ph == R.PH_ALCHEMY_FACTOR:
        return int(rec["alchemy_unit"])
    if ph in (R.PH_ADVANCE_HEX, R.PH_ADVANCE_EXT):
        return int(rec["adv_unit"])
    return -1


# ---------------------------------------------------------------- markers on the map
def _draw_legal_hexes(scene, view, hex_actions):
    """Each legal hex tinted (its terrain still reads through), clickable, and
    its marks redrawn over the tint."""
    verb = _HEX_VERBS.get(view.phase, "choose")
    polygon, ops = scene.polygon, scene.ops
    sel = int(view.rec["sel_hex"])
    for h, actions in hex_actions.items():
        # a hex beyond the neighbours is a journey's end by dragonewt road (L482)
        road = view.phase == R.PH_MOVE_GROUP and sel >= 0 and MAP.distance(sel, h) > 1
        polygon(HEX_POLYGONS[h], fill=HEX_TINT[h], outline=TINT_EDGE, actions=actions,
                title=f"{'travel by dragonewt road to' if road else verb} {HEX_TITLES[h]}")
    for h in hex_actions:
        ops.extend(HEX_FEATURES[h])


def _owner_colour(owner):
    """A controller's colour; no one's (-1: 18.6's Sartar fortresses) is grey."""
    return FORCE_COLOURS[int(owner)] if int(owner) >= 0 else "#9a9a9a"


def _draw_fortress_control(scene, view):
    """Each fortress ringed in the colour of the force controlling it (L217);
    the ring shows beside a counter standing in the fortress."""
    owners = view.rec["fortress_owner"]
    for k, h in enumerate(R.FORTRESS_HEX.tolist()):
        ring(scene, h, 0.76, _owner_colour(owners[k]), 3)


def _draw_decision_hexes(scene, view):
    """The battle's stacks and the selected or arranged stack, outlined."""
    rec = view.rec
    for hexes, colour in ((view.attackers, ATTACKER), (view.defenders, DEFENDER)):
        for h in hexes:
            ring(scene, h, 0.94, colour, 3)
    for h in view.vacated:
        ring(scene, h, 0.8, DEFENDER, 1)
    for name in ("sel_hex", "arr_hex"):
        h = int(rec[name])
        if h >= 0:
            ring(scene, h, 0.94, PALETTE["select"], 3)
    start = int(rec["group_start"])
    # where the moving group set out from is the mover's (the observation does not carry it)
    if start >= 0 and start != int(rec["sel_hex"]) and view.acting:
        scene.polygon(hex_corners(start, 0.7), outline=PALETTE["select"], width=1)


def _firers(view):
    """The missile units, seen by the observer, that have a target this battle."""
    rec = view.rec
    return [u for u in np.flatnonzero(rec["unit_target"] >= 0).tolist()
            if int(rec["unit_where"][u]) == UW_MAP and view.seen(u)]


def _draw_fire_lines(scene, view):
    """A line from each missile unit's stack to its target (under the counters)."""
    rec = view.rec
    for u in _firers(view):
        a, b = int(rec["unit_hex"][u]), int(rec["unit_target"][u])
        scene.line(((float(CENTRE_X[a]), float(CENTRE_Y[a])), (float(CENTRE_X[b]), float(CENTRE_Y[b]))), FIRE, 3)


PILLAR = "#d9480f"
"""The Pillar of Fire's hexes while they are named."""
QUAKE = "#7a4a1e"
"""The earthquake's fracture lines and the cracks of a fortress it damaged."""


def _draw_quake(scene, view):
    """The fracture hexes laid so far (a brown line through them, a line's hexes
    joined one to the next; public) and a crack across each fortress an
    earthquake damaged (L720)."""
    rec = view.rec
    laid = [int(h) for h in rec["fracture_hexes"] if h >= 0]
    length = R.TYPE1_LENGTH if int(rec["quake_type"]) == 1 else R.TYPE2_LENGTH
    for k, h in enumerate(laid):
        x, y = float(CENTRE_X[h]), float(CENTRE_Y[h])
        scene.circle(x, y, 5, fill=QUAKE, outline=QUAKE)
        if k % length:
            g = laid[k - 1]
            scene.line(((float(CENTRE_X[g]), float(CENTRE_Y[g])), (x, y)), QUAKE, 4)
    for f in np.flatnonzero(rec["fortress_damaged"]).tolist():
        h = int(R.FORTRESS_HEX[f])
        x, y = float(CENTRE_X[h]), float(CENTRE_Y[h])
        scene.line(((x - 10, y - 10), (x - 2, y), (x + 2, y - 4), (x + 10, y + 10)), QUAKE, 3)


def _draw_markers(scene, view):
    """Missile targets (a crosshair on the target stack's corner) and
    scapegoat markers (an orange disc), of what the observer may see; the
    earthquake's lines; the Pillar of Fire's hexes named so far."""
    rec = view.rec
    _draw_quake(scene, view)
    for h in [int(g) for g in rec["pillar_hexes"] if g >= 0]:
        scene.circle(float(CENTRE_X[h]), float(CENTRE_Y[h]), 7, fill=PILLAR, outline=PILLAR)
    for b in sorted({int(rec["unit_target"][u]) for u in _firers(view)}):
        x, y = float(CENTRE_X[b]) - COUNTER_W / 2, float(CENTRE_Y[b]) - COUNTER_H / 2
        scene.circle(x, y, 4.5, fill="#ffffff", outline=FIRE, width=2)
        scene.line(((x - 6, y), (x + 6, y)), FIRE, 1)
        scene.line(((x, y - 6), (x, y + 6)), FIRE, 1)
    for v in np.flatnonzero(rec["unit_scapegoat"] >= 0).tolist():
        g = int(rec["unit_scapegoat"][v])
        if int(rec["unit_where"][g]) == UW_MAP and view.seen(g):
            h = int(rec["unit_hex"][g])
            scene.circle(float(CENTRE_X[h]) + HEX_R - 5, float(CENTRE_Y[h]), 4, fill="#ff8c00", outline="#1a1a1a")


# ---------------------------------------------------------------- the panel
@functools.lru_cache(maxsize=1024)
def _wrap(text, size, width):
    """``text`` broken into lines of at most ``width`` px at font ``size`` (a
    tuple; cached, as measuring text is a frame's dearest Python work)."""
    from dragongym.envs.core.picture import _font

    font = _font(size)
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}" if line else word
        if line and font.getlength(trial) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return tuple(lines)


def _force_counts(rec, force):
    """How many of ``force``'s counters are where: on the map, to deploy, ... (public: L452 hides only
    what is in the enemy's stacks)."""
    mine = rec["unit_force"] == force
    where = rec["unit_where"]
    return {k: int(np.count_nonzero(mine & (where == w)))
            for k, w in (("map", UW_MAP), ("pool", UW_POOL), ("entering", UW_ENTERING), ("dead", UW_DEAD),
                         ("escaping", UW_ESCAPING))}


def _players(rec):
    """How many players the record's scenario has (three in 18.8)."""
    return len(SCENARIO_ROLES[int(rec["scenario"])])


def _force_row(rec, f):
    """The top of player f's rows in the panel: 52 px apart for two players,
    34 for three (their lists of the dead are left out)."""
    return Y_FORCES + 14 + (52 if _players(rec) == 2 else 34) * f


def _draw_forces(scene, view):
    """Each force by its role name: whose player-turn it is and who is to
    play, the Sartar fortresses it holds, its units on the map, still to
    deploy, entering, escaping and eliminated, and the dead by their letters."""
    rec = view.rec
    x0 = PANEL_LEFT + PANEL_PAD
    n = _players(rec)
    sartar_fortresses = [sum(1 for k in range(len(FORTRESS_NAMES)) if R.FORTRESS_SARTAR[k]
                             and int(rec["fortress_owner"][k]) == f) for f in range(n)]
    for f in range(n):
        y = _force_row(rec, f)
        on_move = view.running and view.to_play == f
        tags = []
        if view.running and int(rec["active"]) == f and int(rec["stage"]) != ST_DEPLOY:
            tags.append("player-turn")
        if on_move:
            tags.append("to play")
        if not view.running:
            tags.append(f"rank {int(rec['rank'][f])}")
        if tags:
            scene.text(x0 + 90, y + 7, " · ".join(tags), 11, PALETTE["select"] if on_move else MUTED, "lm",
                       bold=True)
        sid = SCENARIOS[int(rec["scenario"])]
        held = (f"holds {V.victory_sites(rec, f)} of the 5 victory sites" if sid == "18.6"
                else f"holds {V.enemy_fortresses(rec, f)} enemy fortresses" if sid == "18.7"
                else f"holds {V.capitals_held(rec, f)} of the 3 capitals" if sid == "18.8"
                else f"holds {V.marathon_capitals(rec, f)} of the 2 capitals" if sid == "18.9"
                else f"holds {sartar_fortresses[f]} Sartar fortresses")
        scene.text(WIDTH - PANEL_PAD, y + 7, held, 11, INK, "rm")
        c = _force_counts(rec, f)
        parts = [f"on the map {c['map']}"]
        for key, label in (("pool", "to deploy"), ("entering", "entering"), ("escaping", "escaping")):
            if c[key]:
                parts.append(f"{label} {c[key]}")
        parts.append(f"eliminated {c['dead']}")
        parts += V.diplomacy_summary(rec, f, view.seat)
        scene.text(x0 + 22, y + 24, " · ".join(parts), 10, INK, "lm")
        dead = [ABBREVIATIONS[_KINDS[UNIT_KIND_OF[u]].id] for u in range(NUM_UNITS)
                if int(rec["unit_force"][u]) == f and int(rec["unit_where"][u]) == UW_DEAD]
        if dead and n == 2:               # three players' rows leave no room for the letters
            text = "dead: " + " ".join(dead)
            lines = _wrap(text, 9, WIDTH - PANEL_PAD - x0 - 22)
            scene.text(x0 + 22, y + 37, lines[0] + (" ..." if len(lines) > 1 else ""), 9, MUTED, "lm")


def _draw_fortresses(scene, view):
    """The ten fortresses, each with its hex and its controller's colour."""
    rec = view.rec
    for k in range(len(FORTRESS_NAMES)):
        x, y = _fortress_row(k)
        scene.rect(x, y - 5, x + 10, y + 5, fill=_owner_colour(rec["fortress_owner"][k]), outline="#1a1a1a")


def _fortress_row(k):
    """Where fortress k's row of the panel starts (its owner's square)."""
    return PANEL_LEFT + PANEL_PAD + (k % 2) * 165, Y_FORTRESSES + 18 + (k // 2) * 16


def _panel_names(scene, rec):
    """The panel's fixed words: the players' role names and swatches, the fortresses' names and hexes."""
    x0 = PANEL_LEFT + PANEL_PAD
    for f in range(_players(rec)):
        y = _force_row(rec, f)
        scene.rect(x0, y, x0 + 14, y + 14, fill=FORCE_COLOURS[f], outline="#1a1a1a")
        scene.text(x0 + 22, y + 7, V.side_name(rec, f), 13, INK, "lm")
    for k, name in enumerate(FORTRESS_NAMES):
        x, y = _fortress_row(k)
        lunar = "" if R.FORTRESS_SARTAR[k] else " (Lunar)"
        scene.text(x + 16, y, f"{name} {MAP.ids[int(R.FORTRESS_HEX[k])]}{lunar}", 10, INK, "lm")


def _decision_text(view):
    """The pending decision in words, as the observer may know it."""
    rec, ph = view.rec, view.phase
    who = V.side_name(rec, view.to_play) if view.running else ""
    if not view.running:
        if int(np.count_nonzero(rec["rank"][:_players(rec)] == 1)) > 1:
            result = "a draw"
        else:
            result = f"{V.side_name(rec, int(np.argmin(rec['rank'][:_players(rec)])))} wins"
        how = " (truncated)" if int(rec["status"]) == 2 else ""
        held = {"18.6": "Victory sites", "18.7": "The opponent's fortresses", "18.8": "The players' capitals",
                "18.9": "Boldhome and Furthest"}.get(
            SCENARIOS[int(rec["scenario"])], "Sartar fortresses")
        return f"The game is over{how}: {result}. {held} held: " + ", ".join(
            f"{V.side_name(rec, f)} {int(rec['score'][f])}" for f in range(_players(rec))) + "."
    sel = int(rec["sel_hex"])
    focus = _focus_unit(view)
    focus_name = view.name(focus) if 0 <= focus < NUM_UNITS else ""
    battle = ""
    if view.defenders:
        battle = (f" Battle: attackers {', '.join(MAP.ids[h] for h in view.attackers) or 'none yet'}; "
                  f"defenders {', '.join(MAP.ids[h] for h in view.defenders)}.")
    if ph == R.PH_DEPLOY:
        u = V.next_to_deploy(rec, view.to_play)
        left = _force_counts(rec, view.to_play)["pool"]
        name = V.unit_name(u) if u >= 0 else "a unit"
        return f"{who} deploys {name} ({left} to deploy): choose its hex."
    if ph == R.PH_MOVE:
        return f"{who}'s movement: select a stack to move or arrange, bring an entering unit on, or end the phase."
    if ph == R.PH_MOVE_GROUP:
        group = [u for u in V.group(rec) if view.seen(u)]
        if group:
            # a carried zero-MF unit pays nothing (L462): the slowest of the others
            mp = min((int(rec["unit_mp"][u]) for u in group if not R.U_ZERO_MF[u, int(rec["unit_side"][u])]),
                     default=0) / 2
            road = ", travel by dragonewt road to another city" if R.HEX_ROAD_STOP[sel] and \
                all(R.U_HOME_CITY[u] >= 0 for u in group) else ""
            return (f"{who} moves {len(group)} unit{'s' if len(group) > 1 else ''} at {V.hex_name(sel)} "
                    f"({mp:g} MP left to the slowest): step into a neighbour{road}, add units, arrange, "
                    "or stop.")
        return f"{who} moves the stack at {V.hex_name(sel)}: choose its units, step into a neighbour, or stop."
    if ph == R.PH_ARRANGE:
        return f"{who} arranges the stack at {V.hex_name(int(rec['arr_hex']))}: lift units to its top, then done."
    if ph == R.PH_BATTLE:
        return f"{who}'s combat: choose an enemy stack to attack, or fight no more battles."
    if ph == R.PH_BATTLE_ADD:
        return f"{who} forms a battle: add attacking or defending stacks, or fight it.{battle}"
    if ph == R.PH_MISSILE_TARGET:
        return f"{who}: {focus_name} fires; choose its target.{battle}"
    if ph == R.PH_MISSILE_CHOICE:
        return f"{who} takes a 2DD missile result: two disruptions or one elimination.{battle}"
    if ph == R.PH_MISSILE_CASUALTY:
        elim, dis = int(rec["elim_left"]), int(rec["loss_left"])
        kind = f"{elim} elimination{'s' if elim != 1 else ''}" if elim > 0 else \
            f"{dis} disruption{'s' if dis != 1 else ''}"
        return f"{who} takes missile fire: {kind} to take; choose the next casualty.{battle}"
    if ph == R.PH_RETREAT:
        return f"{who} may retreat defending units before the melee: choose one, or no more.{battle}"
    if ph == R.PH_RETREAT_HEX:
        return f"{who}: {focus_name} retreats; choose the hex.{battle}"
    if ph == R.PH_CASUALTY:
        return (f"{who} takes melee losses: {int(rec['loss_left'])} CF still to lose; choose the next casualty "
                f"from the top of a stack.{battle}")
    if ph == R.PH_ADVANCE:
        return f"{who} may advance attacking units: choose one, or no more.{battle}"
    if ph == R.PH_ADVANCE_HEX:
        return f"{who}: {focus_name} advances; choose the vacated hex.{battle}"
    if ph == R.PH_ADVANCE_EXT:
        return f"{who}: {focus_name} may advance on, or stay.{battle}"
    if ph == R.PH_ESCAPE_HEX:
        return f"{who}: {focus_name} made a heroic escape; choose the stack it rejoins."
    if ph == R.PH_SCAPEGOAT:
        return f"{who}: {focus_name} goes berserk; choose its scapegoat."
    if ph == R.PH_ENTER_HEX:
        return f"{who}: {focus_name} enters the board; choose its edge hex."
    if ph == R.PH_FORCE_MARCH:
        return f"{who}: {focus_name} enters; force march on, or enter at its MF."
    if ph == R.PH_MOON:
        return f"{who} selects the phase of the Red Moon before any unit is deployed."
    if ph == R.PH_COMMIT or ph == R.PH_COMMIT_HEX:
        return f"{who} commits magicians' spirits and agents to the stacks they will attack, or no more."
    if ph == R.PH_SAVE:
        return f"{who}: {focus_name} protects up to three units from magic; choose one.{battle}"
    if ph == R.PH_MAGIC_CASUALTY:
        return f"{who} chooses the next casualty of magic: {int(rec['loss_left'])} still to take.{battle}"
    if ph == R.PH_SUPPORT or ph == R.PH_SUPPORT_HEX:
        return f"{who} sends spirits to give magical support to his stacks, or no more."
    if ph == R.PH_EXOTIC or ph == R.PH_EXOTIC_TARGET:
        return f"{who}'s Exotic Magic Phase: use an ability, or end the phase."
    if ph == R.PH_HUNGER:
        return f"{who} eliminates Lunar units for the hungry Bat's spirit: {int(rec['hunger_left'])} still."
    if ph == R.PH_ASSASSIN:
        return f"{who}'s assassin scouted the stack: try to kill a unit, or take the assassin back."
    if ph == R.PH_FRACTURE:
        laid = ", ".join(V.hex_name(int(h)) for h in rec["fracture_hexes"] if h >= 0) or "none yet"
        return (f"{who}: the Earth-Shaker's Cult's Type {int(rec['quake_type'])} earthquake; choose the next "
                f"fracture hex (laid: {laid}).")
    if ph == R.PH_PILLAR:
        named = ", ".join(V.hex_name(int(h)) for h in rec["pillar_hexes"] if h >= 0)
        return (f"{who}: Cragspider's Pillar of Fire; choose its next hex, beside every hex named "
                f"(named: {named}).")
    if ph == R.PH_ZOMBIE_RISE:
        return f"{who}: a unit fell beside Delecti or a zombie; choose where the new zombie rises."
    if ph == R.PH_ZOMBIE_MARCH:
        return f"{who} moves the zombie chain: its leader's next hex (the others follow its path), or stop."
    if ph == R.PH_FREEZE:
        return f"{who} may have Ironhoof freeze every cavalry unit for this game-turn (once a game)."
    if ph == R.PH_SPEED:
        return f"{who} may eliminate the Spirit of Movement to double all his units' movement this phase."
    if ph == R.PH_ALCHEMY:
        return f"{who}: name the unit stacked with the Alchemical Transformer whose MgF or RF it doubles."
    if ph == R.PH_ALCHEMY_FACTOR:
        return f"{who}: the Alchemical Transformer doubles {V.unit_name(int(rec['alchemy_unit']), rec)}'s MgF or RF."
    if ph == R.PH_PUPPET_DODGE:
        return f"{who}: the Puppeteer Troop may switch places with an Illusory Army to avoid this battle.{battle}"
    if ph == R.PH_HYDRA_FEED:
        return f"{who} may feed units to the Hydra: {int(rec['hydra_hunger'])} still before it can move."
    if ph == R.PH_REVEAL:
        return f"{who} may reveal a location that would change this battle's cyclic values.{battle}"
    if ph == R.PH_DIPLOMACY:
        return f"{who} assigns Diplomacy Points to the Major Independents in secret ({int(rec['dp'][int(rec['to_play'])])} held)."
    if ph == R.PH_REPLACE:
        return f"{who} brings back dead units as replacements in his capital, or delays them."
    if ph == R.PH_PURCHASE:
        return (f"{who} may buy back dead or removed infantry (1 DP per CF) and cavalry (2 DP per CF) as "
                f"replacements ({int(rec['dp'][int(rec['to_play'])])} DP held).")
    if ph == R.PH_ALLIANCE:
        return f"{who}'s Alliance Phase: seek a Major Independent's alliance, send an emissary, or end it."
    if ph == R.PH_ALLY_SETUP:
        return f"{who} sets up {focus_name} within its Independent's territory."
    if ph == R.PH_KEENER:
        return f"{who} takes Keener Than: choose the stack of his he joins."
    if ph == R.PH_AUCTION:
        return f"{who} writes his offer for the Dragonewts in secret (random event 12)."
    if ph == R.PH_SACRIFICE:
        return f"{who}: choose the magician who sacrifices {focus_name} to the Tusk Riders."
    if ph == R.PH_SUMMON_HEX:
        return f"{who}: Argrath summons {focus_name}; choose its hex."
    return f"{who} to play."


def _draw_decision(scene, view, choice_actions):
    """The decision in words, the battle's totals and one button per choice action."""
    rec = view.rec
    x0, x1 = PANEL_LEFT + PANEL_PAD, WIDTH - PANEL_PAD
    y = Y_DECISION + 16
    for line in _wrap(_decision_text(view), 11, x1 - x0)[:6]:
        scene.text(x0, y, line, 11, INK, "lm")
        y += 15
    if view.defenders and view.running and (int(rec["att_total"]) or int(rec["def_total"])):
        y += 2
        scene.rect(x0, y - 7, x0 + 12, y + 5, outline=ATTACKER, width=3)
        scene.text(x0 + 18, y - 1, f"attack CF {int(rec['att_total'])}", 10, INK, "lm")
        scene.rect(x0 + 120, y - 7, x0 + 132, y + 5, outline=DEFENDER, width=3)
        scene.text(x0 + 138, y - 1, f"counter-attack CF {int(rec['def_total'])}", 10, INK, "lm")
        y += 16
    y += 4
    col = 0
    width = (x1 - x0 - 8) / 2
    for a in choice_actions:
        c = a - R.A_CHOICE
        label = _CHOICE_LABELS.get((view.phase, c), _CHOICE_NAMES[c])
        bx = x0 + col * (width + 8)
        scene.rect(bx, y, bx + width, y + BUTTON_H, fill="#ffffff", outline=INK, width=1, actions=(a,), title=label)
        scene.text(bx + width / 2, y + BUTTON_H / 2, label, 11, INK, "mm")
        col += 1
        if col == 2:
            col, y = 0, y + BUTTON_H + 6
    if col:
        y += BUTTON_H + 6
    return y


def _draw_status(scene, view):
    """Under the title: the scenario, the game-turn, the phase, the options."""
    rec = view.rec
    scenario = SCENARIOS[int(rec["scenario"])]
    turn = (f"game-turn {int(rec['turn'])} of {int(rec['max_turns'])}" if int(rec["turn"]) > 0
            else "before game-turn 1")
    phase = _STAGE_NAMES.get(int(rec["stage"]), "over") if view.running else "game over"
    options = "screening on" if int(rec["screening"]) else "screening off"
    if int(rec["rain"]):
        options += " · rain"
    if int(rec["moon"]) >= 0:
        options += f" · Red Moon {DATA.tables.moon_phases[int(rec['moon'])].name}"
        if int(rec["glowline_gone"]):
            options += ", no Glowline"
    if int(rec["storm_day"]) == 3:
        options += " · flood"
    if int(rec["cloak_hex"]) >= 0:
        options += f" · Cloak of Darkness at {V.hex_name(int(rec['cloak_hex']))}"
    scene.text(PANEL_LEFT + PANEL_PAD, PANEL_TOP + 38, f"Scenario {scenario} {DATA.scenarios[scenario].name}", 12,
               INK, "lm")
    scene.text(PANEL_LEFT + PANEL_PAD, PANEL_TOP + 56, f"{turn} · {phase} · {options}", 11, MUTED, "lm")


def _panel_units(view, unit_actions):
    """The units the panel lists: those a legal unit action picks (when drawn),
    else the visible units of the selected or arranged stack."""
    if unit_actions:
        return list(unit_actions), "Choose a unit:"
    rec = view.rec
    for name, label in (("arr_hex", "The stack being arranged:"), ("sel_hex", "The selected stack:")):
        h = int(rec[name])
        if h >= 0 and h in view.stacks and h not in view.screened:
            return view.stacks[h], label
    focus = _focus_unit(view)
    if 0 <= focus < NUM_UNITS and view.seen(focus):
        return [focus], "The unit the decision is about:"
    return [], ""


def _unit_note(view, u):
    """Where a listed unit is and what this phase has done with it."""
    rec = view.rec
    where = int(rec["unit_where"][u])
    if not view.seen(u):
        return "in a screened stack"
    if where == UW_MAP:
        place = V.hex_name(int(rec["unit_hex"][u]))
    else:
        h = int(rec["unit_hex"][u])
        place = {UW_POOL: "to deploy", UW_ENTERING: "off the board", UW_ESCAPING: "escaping",
                 UW_DEAD: "eliminated", R.UW_HOLDING: "in its holding box",
                 R.UW_COMMITTED: f"attacks {V.hex_name(h)}" if h >= 0 else "",
                 R.UW_SUPPORT: f"supports {V.hex_name(h)}" if h >= 0 else ""}.get(where, "")
    flags = int(rec["unit_flags"][u])
    notes = [place]
    if flags & UF_GROUP:
        notes.append(f"moving, {int(rec['unit_mp'][u]) / 2:g} MP")
    elif flags & UF_MOVED:
        notes.append("moved")
    if flags & UF_FOUGHT:
        notes.append("fought")
    if int(rec["unit_side"][u]) == SIDE_BACK:
        notes.append("berserk" if int(R.U_RANK[u]) == RANK_SUPERHERO else "disrupted")
    return ", ".join(n for n in notes if n)


def _draw_unit_list(scene, view, unit_actions, top):
    """The units of the decision, as rows of counter and name from ``top``
    down; a row carries the unit's legal action (the same action is on its
    stack's counter on the map when the unit is there)."""
    units, heading = _panel_units(view, unit_actions)
    if not units:
        return
    x0, x1 = PANEL_LEFT + PANEL_PAD, WIDTH - PANEL_PAD
    scene.text(x0, top, heading, 11, MUTED, "lm", bold=True)
    space = Y_LEGEND - 24 - (top + 12)
    per_column = max(1, len(units) if len(units) <= 9 else (len(units) + 1) // 2)
    row_h = min(30.0, space / per_column)
    two = len(units) > 9
    col_w = (x1 - x0) / (2 if two else 1)
    verb = _UNIT_VERBS.get(view.phase, "choose")
    focus = _focus_unit(view)
    for i, u in enumerate(units):
        col, row = (i // per_column, i % per_column) if two else (0, i)
        bx, by = x0 + col * col_w, top + 12 + row * row_h
        actions = tuple(unit_actions.get(u, ()))
        name = view.name(u)
        carried = view.phase == R.PH_MOVE_GROUP and int(view.rec["unit_flags"][u]) & UF_GROUP   # L462
        scene.rect(bx, by, bx + col_w - 4, by + row_h - 3, fill="#ffffff" if actions else None,
                   outline=INK if actions else "#cfc7b3", actions=actions,
                   title=(f"drop off {name} here" if carried else f"{verb} {name}") if actions else name)
        cy = by + (row_h - 3) / 2
        if view.seen(u):
            if row_h >= COUNTER_H + 4:
                _counter(scene, bx + 3 + COUNTER_W / 2, cy, u, view.side(u), selected=bool(
                    int(view.rec["unit_flags"][u]) & UF_GROUP) or u == focus)
        tx = bx + COUNTER_W + 10 if row_h >= COUNTER_H + 4 else bx + 6
        size = 10 if row_h >= 22 else 8
        label = _wrap(name, size, col_w - (tx - bx) - 8)[0]
        if row_h >= 26:
            scene.text(tx, cy - 6, label, size, INK, "lm")
            scene.text(tx, cy + 7, _unit_note(view, u), 9, MUTED, "lm")
        else:
            scene.text(tx, cy, label, size, INK, "lm")


def position_scene(state, seat):
    """The position layer of ``state`` as ``seat`` may know it (None: the full
    position): see the module docstring. When ``seat`` is None or the seat to
    play, every legal action is a clickable shape: a hex's on its tinted hex
    (and its stack's counter), a unit's on its stack's counter when it is on
    the map and on its row of the panel's list, a choice's on a button."""
    view = _View(state, seat)
    hex_actions, unit_actions, choice_actions = {}, {}, []
    for a in view.legal.tolist():
        if a < R.A_UNIT:
            hex_actions[a - R.A_HEX] = (a,)
        elif a < R.A_CHOICE:
            unit_actions[a - R.A_UNIT] = (a,)
        else:
            choice_actions.append(a)
    # a unit's action goes on its stack's counter where the observer sees the
    # unit there; a unit in a screened stack is picked from the panel only
    unit_on_map = {u: acts for u, acts in unit_actions.items()
                   if int(view.rec["unit_where"][u]) == UW_MAP and view.seen(u)}
    scene = Scene(WIDTH, HEIGHT)
    _draw_legal_hexes(scene, view, hex_actions)
    _draw_fortress_control(scene, view)
    _draw_decision_hexes(scene, view)
    _draw_fire_lines(scene, view)
    _draw_stacks(scene, view, hex_actions, unit_on_map)
    _draw_markers(scene, view)
    _draw_status(scene, view)
    _draw_forces(scene, view)
    _draw_fortresses(scene, view)
    y = _draw_decision(scene, view, choice_actions)
    _draw_unit_list(scene, view, unit_actions, y + 14)
    return scene
