"""Dragonhunt's picture: the hex board of Arawan, its counters and a side panel.

Drawn as :class:`dragongym.envs.core.picture.Scene` display lists (see that
module for the two layers and the two backends):

* :func:`board_scene` -- the static layer, drawn once and cached: the 15 x 13
  flat-topped hexes (odd columns half a hex lower, ``data/board.txt``) in their
  terrain with a small glyph each (trees, peaks, reeds), the castles, villages
  and cottages of the six kingdoms with their names, the three lairs, every
  hex's name as the action names use it (``"0304"``), and the side panel's
  frame with the terrain and counter legend.
* :func:`position_scene` -- what a decision changes: the owner's colour around
  each chosen kingdom; every unit as a square counter in its owner's colour
  lettered by type (H hero, S sniper, K knight, M man-at-arms) with a count
  badge when several of one type share the space; Brimstone (enraged / asleep
  shown), the Fantastic Beings, the mageswords (lying, or as a badge on the
  wielder), the magical defense and flame markers and the two being control
  markers; the pending decision's selected and target spaces and its legal
  spaces (clickable); the panel: hand, turn and stage, Brimstone and the
  beings, each player (its agent name, kingdom, dragon wounds, movement cards,
  markers, dead and reserve counters), the dice and the pending decision in
  words with a button for every legal action that picks no space.

Hidden information (``observe.py`` decides it): the only secret of a position
is the movement card each other seat has laid face down during the card
segment (9.11) -- and the round order those cards will set. For an observing
seat the panel shows such a card only as "laid face down", and the round
order not before the cards are turned over. Hands are public (every card
played is turned over, so what is left is known) and are shown for all.

The picture is ``WIDTH x HEIGHT`` pixels (multiples of 16).
"""
# jitcache: no compiled code
import math

import numpy as np

from dragongym.envs.core.picture import PALETTE, Scene
from dragongym.envs.core.spec import player_names
from . import data as D
from . import rules as R
from .constants import (
    BEING_LAIR, BEING_NAMES, CASTLE, COTTAGE, DECK_SIZE, DRAGON_LAIR, FOREST, MOUNTAIN, OPEN,
    SWAMP, TERRAIN_NAMES, UNIT_TYPE_NAMES, UNITS_PER_COLOUR, VILLAGE,
)
from .game import DIRECTION_NAMES, GAME, _legal_action_name, cell_name
from .rules.base import SEG_COMBAT, SEG_DRAGON, SEG_MOVE, WIELDER
from .state import F_HARRIED, F_IN_FORCE, F_WOUNDED, LOC_DEAD, LOC_RESERVE

# ------------------------------------------------------------------ geometry
HEX = 38.0
"""Circumradius of a hex in pixels (flat-topped: 2*HEX wide, sqrt(3)*HEX high)."""
SQ3 = math.sqrt(3.0)
MARGIN = 12.0
WIDTH, HEIGHT = 1312, 912
"""Picture size in pixels (multiples of 16, for video encoders)."""
PANEL_X = 904
"""Left edge of the side panel; the board lies left of it."""
PANEL_W = WIDTH - PANEL_X - 12

NC = int(D.NUM_CELLS)
CENTRE = np.array([(MARGIN + HEX + 1.5 * HEX * int(D.CELL_COL[c]),
                    MARGIN + SQ3 / 2 * HEX + SQ3 * HEX * (int(D.CELL_ROW[c]) + 0.5 * (int(D.CELL_COL[c]) % 2)))
                   for c in range(NC)])
"""``CENTRE[cell] = (x, y)``: the hex's centre in pixels."""


def _corners(x, y, r=HEX):
    """The six corners of a flat-topped hex, clockwise from the east corner."""
    return [(x + r * math.cos(math.radians(60 * i)), y + r * math.sin(math.radians(60 * i)))
            for i in range(6)]


CORNERS = [_corners(*CENTRE[c]) for c in range(NC)]
HEX_RINGS = [{inset: _corners(*CENTRE[c], HEX - inset) for inset in range(2, 7)} for c in range(NC)]
"""``HEX_RINGS[cell][k]``: the hex's corners ``k`` pixels inside its outline."""
_EDGE_DIRECTION = (3, 4, 5, 6, 1, 2)
"""Direction (1 N .. 6 NW, ``data.STEP``) across the edge from corner i to corner i+1."""

SPACE_HEXES = {int(s): [int(c) for c in np.flatnonzero(D.SPACE == s)] for s in np.unique(D.SPACE)}
"""Canonical cell of a space -> its hexes (canonical first): a castle or village
is one space of two hexes (9.33)."""


def _boundary(space):
    """Edges ``((x0, y0), (x1, y1))`` around a space's hexes (not between them)."""
    out = []
    for c in SPACE_HEXES[space]:
        for i in range(6):
            nb = int(D.STEP[c, _EDGE_DIRECTION[i]])
            if nb < 0 or int(D.SPACE[nb]) != space:
                out.append((CORNERS[c][i], CORNERS[c][(i + 1) % 6]))
    return out


BOUNDARY = {s: _boundary(s) for s in SPACE_HEXES}

# ------------------------------------------------------------------ colours
SEATS = PALETTE["seats"]
INK = PALETTE["ink"]
NEUTRAL = "#8c8c84"
"""Garrison counters of a colour no player holds (3.2)."""
TERRAIN_FILL = {OPEN: "#e4ebb8", FOREST: "#8cba6a", MOUNTAIN: "#c4b197", SWAMP: "#a9c4b4",
                CASTLE: "#cfcac0", VILLAGE: "#e8d3a6", COTTAGE: "#eadfc4", DRAGON_LAIR: "#5a3b32",
                BEING_LAIR: "#8d7a66"}
HOLLOW_TREE_FILL = "#a08350"
BEING_FILL, BEING_INK = "#efe3ff", "#5b2c83"
DRAGON_BODY, DRAGON_WING = "#8e1b1b", "#5e1010"
GOLD = "#d4a017"
MD_FILL = "#2f6fb0"
BUTTON_FILL = "#ffffff"

BEING_ABBREV = ("Ba", "Be", "De", "Di", "DC", "Ea", "Pa", "Re", "Te", "Tr")
"""Two letters on a Fantastic Being's counter, by being id (``BEING_NAMES``)."""
TYPE_LETTERS = "HSKM"
"""A unit counter's letter by unit type: hero, sniper, knight, man-at-arms."""


def _tint(colour, amount):
    """``colour`` mixed with white: 0 the colour, 1 white."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    mix = [round(v + (255 - v) * amount) for v in (r, g, b)]
    return "#" + "".join(f"{v:02x}" for v in mix)


def board_key(state):
    """The board layer is the same for every Dragonhunt position."""
    return ()


# ================================================================== board layer
def board_scene(state):
    """The static layer: terrain, structures, lairs, hex names, the panel frame
    and legend. ``state`` is not read (one board for every game)."""
    sc = Scene(WIDTH, HEIGHT, background=PALETTE["paper"])
    for c in range(NC):
        sc.polygon(CORNERS[c], fill=_hex_fill(c))
    for c in range(NC):
        _terrain_glyph(sc, c)
    for s, edges in BOUNDARY.items():
        for (a, b) in edges:
            sc.line((a, b), "#7d7a66", width=1)
    for k in range(6):
        for cell in (int(D.CASTLE_CELL[k]), int(D.VILLAGE_CELL[k]), int(D.COTTAGE_CELL[k])):
            for (a, b) in BOUNDARY[cell]:
                sc.line((a, b), "#4a463c", width=2)
    for c in range(NC):
        _hex_label(sc, c)
    _panel_frame(sc)
    return sc


def _hex_fill(c):
    t = int(D.TERRAIN[c])
    if t == BEING_LAIR and c == int(D.BEING_LAIR_CELL[1]):
        return HOLLOW_TREE_FILL
    return TERRAIN_FILL[t]


def _hex_label(sc, c):
    """The hex's name at its top: a structure's kingdom, a lair, else column-row."""
    x, y = CENTRE[c]
    t = int(D.TERRAIN[c])
    k = int(D.KINGDOM[c])
    dark = t in (DRAGON_LAIR, BEING_LAIR)
    colour = "#f3ead8" if dark else "#4d4a3c"
    if k >= 0:
        first = int(D.SPACE[c]) == c
        kind = {CASTLE: "castle", VILLAGE: "village", COTTAGE: "cottage"}[t]
        text = D.KINGDOM_NAMES[k] if first or t == COTTAGE else kind
        sc.text(x, y - HEX * 0.6, text, size=8, color="#2b2820", bold=first)
        return
    if t == DRAGON_LAIR:
        sc.text(x, y - HEX * 0.6, "LAIR", size=9, color=colour, bold=True)
        return
    if t == BEING_LAIR:
        name = "CAVE" if c == int(D.BEING_LAIR_CELL[0]) else "HOLLOW TREE"
        sc.text(x, y - HEX * 0.6, name, size=9 if len(name) < 6 else 8, color=colour, bold=True)
        return
    sc.text(x, y - HEX * 0.6, cell_name(c), size=8, color=colour)


def _terrain_glyph(sc, c):
    """A small picture of the hex's terrain behind its counters."""
    x, y = CENTRE[c]
    t = int(D.TERRAIN[c])
    if t == FOREST:
        for dx, dy in ((-17, 2), (0, -6), (17, 4), (-6, 15), (10, 17)):
            _tree(sc, x + dx, y + dy, 8)
    elif t == MOUNTAIN:
        _peak(sc, x - 9, y + 14, 14, 24)
        _peak(sc, x + 10, y + 14, 16, 28)
    elif t == SWAMP:
        for dx, dy in ((-18, -4), (4, 4), (-10, 16), (14, 18)):
            sc.line([(x + dx + i * 3, y + dy + (1.5 if i % 2 else -1.5)) for i in range(5)], "#5b8fa8", width=2)
        for dx, dy in ((14, -8), (-22, 10), (24, 8)):
            for lean in (-3, 0, 3):
                sc.line(((x + dx, y + dy), (x + dx + lean, y + dy - 7)), "#4f7a52", width=1)
    elif t == OPEN:
        for dx, dy in ((-18, 10), (16, -8), (8, 18)):
            sc.line(((x + dx - 3, y + dy - 4), (x + dx, y + dy), (x + dx + 3, y + dy - 4)), "#b3c27a", width=1)
    elif t == CASTLE:
        _tower(sc, x, y + 4, "#a8a298", "#77716a")
    elif t == VILLAGE:
        _house(sc, x - 12, y + 6, 9, "#c9a06a", "#8a4b2f")
        _house(sc, x + 11, y + 2, 10, "#c9a06a", "#8a4b2f")
    elif t == COTTAGE:
        _house(sc, x, y + 4, 12, "#d2b48a", "#7a4a2a")
    elif t == DRAGON_LAIR:
        sc.polygon([(x - 20, y + 16), (x - 14, y - 4), (x, y - 12), (x + 14, y - 4), (x + 20, y + 16)],
                   fill="#2a1a16", outline="#c0392b", width=2)
    elif c == int(D.BEING_LAIR_CELL[0]):
        sc.polygon([(x - 18, y + 16), (x - 12, y - 2), (x, y - 9), (x + 12, y - 2), (x + 18, y + 16)],
                   fill="#3d3530")
    else:
        sc.rect(x - 9, y - 14, x + 9, y + 18, fill="#6b4e2a")
        sc.polygon(_corners(x, y - 18, 16), fill="#4f7a3a")
        sc.circle(x, y + 4, 5, fill="#2b1e10")


def _tree(sc, x, y, r, fill="#3e6e2c"):
    sc.rect(x - 1, y + r * 0.4, x + 1, y + r * 0.9, fill="#5a3d22")
    sc.polygon([(x, y - r), (x - r * 0.75, y + r * 0.5), (x + r * 0.75, y + r * 0.5)], fill=fill)


def _peak(sc, x, y, half, height):
    sc.polygon([(x - half, y), (x, y - height), (x + half, y)], fill="#8a7760", outline="#6b5a46")
    sc.polygon([(x - half * 0.3, y - height * 0.7), (x, y - height), (x + half * 0.3, y - height * 0.7)],
               fill="#f7f5f0")


def _house(sc, x, y, r, wall, roof):
    sc.rect(x - r * 0.7, y - r * 0.2, x + r * 0.7, y + r * 0.8, fill=wall, outline="#6b5a46")
    sc.polygon([(x - r, y - r * 0.1), (x, y - r * 0.9), (x + r, y - r * 0.1)], fill=roof)


def _tower(sc, x, y, wall, edge):
    w, h = 13, 18
    pts = [(x - w, y + h), (x - w, y - h)]
    for i in range(5):                      # crenellations along the top
        x0 = x - w + i * (2 * w / 5)
        pts += [(x0 + w / 5, y - h), (x0 + w / 5, y - h + 5), (x0 + 2 * w / 5, y - h + 5),
                (x0 + 2 * w / 5, y - h)] if i < 4 else [(x + w, y - h)]
    pts.append((x + w, y + h))
    sc.polygon(pts, fill=wall, outline=edge)
    sc.rect(x - 4, y + 6, x + 4, y + h, fill="#5e574e")


# ------------------------------------------------------------------ panel frame
PANEL_TOP = 12
PLAYERS_Y = 150
PLAYER_ROW = 52
DECISION_Y = PLAYERS_Y + 6 * PLAYER_ROW + 8
LEGEND_Y = 716


def _panel_frame(sc):
    """The panel's background, its section rules and the legend (static)."""
    sc.rect(PANEL_X - 6, 6, WIDTH - 6, HEIGHT - 6, fill=PALETTE["panel"], outline="#c9c2b0")
    sc.text(PANEL_X + 4, PANEL_TOP + 2, "DRAGONHUNT", size=18, color=INK, anchor="lt", bold=True)
    for y in (PLAYERS_Y - 8, DECISION_Y - 6, LEGEND_Y - 8):
        sc.line(((PANEL_X, y), (WIDTH - 14, y)), "#c9c2b0", width=1)
    y = LEGEND_Y
    sc.text(PANEL_X + 4, y, "terrain  (MP to enter / defense)", size=11, color=INK, anchor="lt", bold=True)
    y += 18
    entries = [(t, TERRAIN_NAMES[t]) for t in (OPEN, FOREST, MOUNTAIN, SWAMP, CASTLE, VILLAGE, COTTAGE,
                                              DRAGON_LAIR, BEING_LAIR)]
    for i, (t, name) in enumerate(entries):
        cx, cy = PANEL_X + 12 + (i % 3) * 132, y + 8 + (i // 3) * 22
        sc.polygon(_corners(cx, cy, 9), fill=TERRAIN_FILL[t], outline="#6b6758")
        label = {"dragon lair": "Brimstone's lair", "being lair": "cave / tree"}.get(name, name)
        sc.text(cx + 14, cy, f"{label} {int(D.TERRAIN_MOVE_COST[t])}/+{int(D.TERRAIN_DEFENSE[t])}",
                size=10, color=INK, anchor="lm")
    y += 3 * 22 + 8
    sc.text(PANEL_X + 4, y, "counters", size=11, color=INK, anchor="lt", bold=True)
    y += 20
    x = PANEL_X + 14
    _unit_counter(sc, x, y, 18, SEATS[0], "K", 3, title=None)
    sc.text(x + 22, y, "units: H hero, S sniper, K knight, M man-at-arms; badge = how many",
            size=10, color=INK, anchor="lm")
    y += 24
    _dragon(sc, x, y, 18, enraged=False, asleep=False)
    sc.text(x + 16, y, "Brimstone", size=10, color=INK, anchor="lm")
    _being(sc, x + 96, y, 18, 5)
    sc.text(x + 112, y, "being", size=10, color=INK, anchor="lm")
    _sword(sc, x + 160, y, 20, SEATS[1], tilt=0.5)
    sc.text(x + 172, y, "magesword", size=10, color=INK, anchor="lm")
    _md(sc, x + 244, y, 16, 2)
    sc.text(x + 256, y, "magic defense", size=10, color=INK, anchor="lm")
    y += 24
    _flame(sc, x, y, 18)
    sc.text(x + 14, y, "flamed", size=10, color=INK, anchor="lm")
    _marker(sc, x + 72, y, 18, "B1")
    sc.text(x + 84, y, "B1 / B2 being control markers", size=10, color=INK, anchor="lm")
    _unit_counter(sc, x + 276, y, 18, SEATS[2], "K", 1, wounded=True, title=None)
    sc.text(x + 290, y, "wounded", size=10, color=INK, anchor="lm")


# ================================================================== position layer
def position_scene(state, seat):
    """The dynamic layer of ``state`` (a 1-record array) as ``seat`` may know
    it (None: the full position). Legal choices are clickable only when
    ``seat`` is None or the seat to play."""
    rec = state[0]
    n = int(rec["num_players"])
    names = player_names(n)
    sc = Scene(WIDTH, HEIGHT)
    running = int(rec["status"]) == 0
    to_play = int(rec["to_play"]) if running else -1
    choosing = running and to_play >= 0 and (seat is None or seat == to_play)
    legal = [int(a) for a in np.flatnonzero(GAME.mask_of(state))] if choosing else []

    _kingdom_rings(sc, rec, n)
    _pending_marks(sc, rec)
    _pieces(sc, rec, n, names)
    if choosing:
        _legal_spaces(sc, rec, [a for a in legal if a < NC])
        _die_arrows(sc, rec, legal)
    _panel(sc, rec, n, names, seat, to_play, [a for a in legal if a >= NC])
    return sc


def _kingdom_rings(sc, rec, n):
    """Each chosen kingdom's castle, village and cottage ringed in its player's colour."""
    for p in range(n):
        k = int(rec["kingdom"][p])
        if k < 0:
            continue
        for cell in (int(D.CASTLE_CELL[k]), int(D.VILLAGE_CELL[k]), int(D.COTTAGE_CELL[k])):
            for (a, b) in BOUNDARY[cell]:
                sc.line(_inset(a, b, cell), SEATS[p], width=4)


def _inset(a, b, cell, by=3.0):
    """Edge ``a-b`` of a hex of ``cell``'s space moved ``by`` pixels toward that
    hex's centre, so a coloured ring sits inside the space's outline."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    best = min(SPACE_HEXES[int(D.SPACE[cell])], key=lambda c: math.hypot(CENTRE[c][0] - mx, CENTRE[c][1] - my))
    cx, cy = CENTRE[best]
    f = by / HEX
    return ((a[0] + (cx - a[0]) * f, a[1] + (cy - a[1]) * f), (b[0] + (cx - b[0]) * f, b[1] + (cy - b[1]) * f))


def _space_outline(sc, cell, colour, width, dash=None):
    for (a, b) in BOUNDARY[int(D.SPACE[cell])]:
        sc.line(_inset(a, b, cell, by=width / 2 + 1), colour, width=width, dash=dash)


def _pending_marks(sc, rec):
    """The pending decision's context: the selected space (the unit or being
    acting), the space attacked, the structure under assault, the Eagle's
    space and the spaces Brimstone passed on his five-space move."""
    phase = int(rec["phase"])
    if int(rec["five_left"]) > 0:
        path = [int(c) for c in rec["five_path"] if c >= 0]
        pts = [tuple(CENTRE[c]) for c in path] + [tuple(CENTRE[int(D.SPACE[int(rec["dragon_cell"])])])]
        if len(pts) > 1:
            sc.line(pts, DRAGON_BODY, width=3, dash=(7, 5))
        for c in path:
            sc.circle(*CENTRE[c], 5, fill=DRAGON_BODY)
    if phase == R.PH_NONE:
        return
    if int(rec["struct_cell"]) >= 0:
        _space_outline(sc, int(rec["struct_cell"]), "#c0392b", 4)
    if int(rec["target_cell"]) >= 0 and phase in _TARGET_PHASES:
        _space_outline(sc, int(rec["target_cell"]), PALETTE["select"], 3, dash=(8, 5))
    if int(rec["eagle_cell"]) >= 0 and phase in (R.PH_EAGLE_DEST, R.PH_EAGLE_LAND):
        _space_outline(sc, int(rec["eagle_cell"]), PALETTE["select"], 3, dash=(8, 5))
    sel = _selected_cell(rec)
    if sel >= 0:
        _space_outline(sc, sel, PALETTE["select"], 4)


_TARGET_PHASES = (R.PH_SNIPE_TYPE, R.PH_DEFENDER, R.PH_BANISH_DEST, R.PH_CASUALTY)
"""Phases whose pending context names an attacked space (``target_cell``)."""
_SELECT_PHASES = (R.PH_MOVE_TYPE, R.PH_MOVE_DEST, R.PH_COMBAT_TYPE, R.PH_COMBAT_TARGET, R.PH_SNIPE_TYPE,
                  R.PH_FORCE_TYPE, R.PH_TELEPORT_UNIT, R.PH_DEFENDER)
"""Phases whose pending context names the acting unit's space (``sel_cell``)."""
_BEING_PHASES = (R.PH_BEING_MOVE, R.PH_BEING_TARGET, R.PH_BANISH_DEST, R.PH_EAGLE_DEST, R.PH_EAGLE_LAND,
                 R.PH_CHARM, R.PH_REVIVE_TYPE, R.PH_REVIVE_CELL, R.PH_TELEPORT_DEST, R.PH_TELEPORT_UNIT)
"""Phases posed while a Fantastic Being acts (the being of ``active_slot``)."""


def _selected_cell(rec):
    """The space of the unit or being the pending decision is about, or -1."""
    phase = int(rec["phase"])
    if phase in _BEING_PHASES:
        loc = int(rec["slot_loc"][int(rec["active_slot"])])
        return loc if loc >= 0 else -1
    if phase in _SELECT_PHASES and int(rec["sel_cell"]) >= 0:
        return int(rec["sel_cell"])
    return -1


def _legal_spaces(sc, rec, cells):
    """Every legal space choice outlined and clickable (one shape per hex of its space)."""
    for a in cells:
        title = _legal_action_name(rec, a)
        for c in SPACE_HEXES[int(D.SPACE[a])] if int(D.SPACE[a]) == a else [a]:
            # a band of one-pixel outlines: a thick polygon outline costs Pillow a
            # mask image each, 30 times the price, and a placement poses ~100 spaces
            for inset, colour in ((2, INK), (3, PALETTE["highlight"]), (5, PALETTE["highlight"]), (6, INK)):
                sc.polygon(HEX_RINGS[c][inset], outline=colour)
            sc.polygon(HEX_RINGS[c][4], outline=PALETTE["highlight"], actions=(a,), title=title)


def _die_arrows(sc, rec, legal):
    """While a die picks Brimstone's direction, an arrow from him for each die."""
    if int(rec["phase"]) != R.PH_DRAGON_DIE:
        return
    x, y = CENTRE[int(D.SPACE[int(rec["dragon_cell"])])]
    for a, field in ((R.A_DIE0, "die0"), (R.A_DIE1, "die1")):
        d = int(rec[field])
        if a in legal and 1 <= d <= 6:
            ang = math.radians(-90 + 60 * (d - 1))
            tip = (x + math.cos(ang) * HEX * 1.45, y + math.sin(ang) * HEX * 1.45)
            base = (x + math.cos(ang) * HEX * 0.6, y + math.sin(ang) * HEX * 0.6)
            sc.line((base, tip), INK, width=8)
            sc.line((base, tip), PALETTE["highlight"], width=4)
            left = (tip[0] - 14 * math.cos(ang - 0.45), tip[1] - 14 * math.sin(ang - 0.45))
            right = (tip[0] - 14 * math.cos(ang + 0.45), tip[1] - 14 * math.sin(ang + 0.45))
            sc.polygon([tip, left, right], fill=PALETTE["highlight"], outline=INK, width=1.5)
            lx, ly = tip[0] + 13 * math.cos(ang), tip[1] + 13 * math.sin(ang)
            sc.circle(lx, ly, 9, fill="#ffffff", outline=INK)
            sc.text(lx, ly, str(d), size=13, color=INK, bold=True)


# ------------------------------------------------------------------ counters on spaces
def _pieces(sc, rec, n, names):
    """Every counter and marker on the board, laid out in its space."""
    per_space = {}

    def add(cell, piece):
        per_space.setdefault(int(D.SPACE[cell]), []).append(piece)

    phase = int(rec["phase"])
    dragon = int(rec["dragon_cell"])
    if dragon >= 0:
        add(dragon, ("dragon",))
    for slot in range(2):
        k, loc = int(rec["slot_being"][slot]), int(rec["slot_loc"][slot])
        if k >= 0 and loc >= 0:
            active = phase in _BEING_PHASES + (R.PH_SECOND_DIE,) and int(rec["active_slot"]) == slot
            add(loc, ("being", k, active))
    for p in range(n):
        if int(rec["sword_loc"][p]) >= 0:
            add(int(rec["sword_loc"][p]), ("sword", p))
    for (cell, colour, unit_type, wounded, harried, wielder, in_force), count in _unit_groups(rec, n):
        add(cell, ("units", colour, unit_type, count, wounded, harried, wielder, in_force))
    for p in range(n):
        k = int(rec["kingdom"][p])
        if k >= 0 and int(rec["md_cottage"][p]) > 0:
            add(int(D.COTTAGE_CELL[k]), ("md", int(rec["md_cottage"][p])))
        holder = int(rec["md_holder"][p])
        if holder >= 0 and int(rec["unit_loc"][holder]) >= 0 and int(rec["md_carried"][p]) > 0:
            add(int(rec["unit_loc"][holder]), ("md", int(rec["md_carried"][p])))
    for k in range(6):
        if int(rec["flamed"][k]):
            add(int(D.COTTAGE_CELL[k]), ("flame",))
    if int(rec["stage"]) > R.ST_SETUP_PLACE:
        for field, label in (("choice_player", "B1"), ("second_player", "B2")):
            p = int(rec[field])
            if 0 <= p < n and int(rec["kingdom"][p]) >= 0:
                add(int(D.CASTLE_CELL[int(rec["kingdom"][p])]), ("marker", label))
    for space, pieces in per_space.items():
        for (x, y, size), piece in zip(_slots(space, len(pieces)), pieces):
            _draw_piece(sc, rec, names, n, x, y, size, piece)


def _unit_groups(rec, n):
    """``[(key, count)]`` of the units on the board, one per counter drawn: key
    = (cell, colour, type, wounded, harried, wields the sword, in the attack
    force). A sword wielder is never merged with other knights, so the counter
    carrying the sword badge is exactly him."""
    locs = rec["unit_loc"]
    flags = rec["unit_flags"]
    wielders = {int(rec["sword_holder"][p]) for p in range(n) if int(rec["sword_holder"][p]) >= 0}
    groups = {}
    for u in np.flatnonzero(locs >= 0):
        u = int(u)
        f = int(flags[u])
        key = (int(locs[u]), int(R.UNIT_COLOUR[u]), int(R.UNIT_TYPE[u]), bool(f & F_WOUNDED),
               bool(f & F_HARRIED), u in wielders, bool(f & F_IN_FORCE))
        groups[key] = groups.get(key, 0) + 1
    return sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][2], kv[0][3:]))


def _slots(space, m):
    """``m`` piece places ``(x, y, size)`` in a space: spread over its hexes
    (the canonical one first), each hex holding a grid that keeps clear of
    the hex's name at its top."""
    hexes = SPACE_HEXES[space]
    if m == 1 or len(hexes) == 1:
        shares = [m]
    else:
        shares = [(m + 1) // 2, m // 2]
    out = []
    for c, k in zip(hexes, shares):
        out += _hex_slots(*CENTRE[c], k)
    return out


def _hex_slots(x, y, m):
    if m <= 0:
        return []
    if m == 1:
        return [(x, y + 4, 28)]
    if m == 2:
        return [(x - 15, y + 4, 25), (x + 15, y + 4, 25)]
    cols = 2 if m <= 4 else 3 if m <= 9 else 4
    rows = -(-m // cols)
    pitch_x, pitch_y = min(24.0, 54.0 / cols), min(23.0, 46.0 / rows)
    size = min(pitch_x, pitch_y) - 2
    top = y + 4.5 - pitch_y * (rows - 1) / 2
    return [(x + pitch_x * (i % cols - (cols - 1) / 2), top + pitch_y * (i // cols), size) for i in range(m)]


def _draw_piece(sc, rec, names, n, x, y, size, piece):
    kind = piece[0]
    if kind == "dragon":
        # Brimstone is the biggest counter on the board: alone on his space he is drawn larger
        big = size * 1.25 if size >= 28 else size
        _dragon(sc, x, y, big, enraged=bool(rec["enraged"]), asleep=int(rec["asleep_until"]) >= 0)
    elif kind == "being":
        _being(sc, x, y, size, piece[1], active=piece[2])
    elif kind == "sword":
        _sword(sc, x, y, size * 1.1, SEATS[piece[1]], title=f"{names[piece[1]]}'s magesword", tilt=0.5)
    elif kind == "units":
        _, colour, unit_type, count, wounded, harried, wielder, in_force = piece
        owner = names[colour] if colour < n else "garrison"
        what = UNIT_TYPE_NAMES[unit_type] + ("s" if count > 1 else "")
        notes = [w for w, on in (("wounded", wounded), ("harried", harried), ("wields the magesword", wielder),
                                 ("in the attack", in_force)) if on]
        title = f"{owner}: {count} {what}" + (f" ({', '.join(notes)})" if notes else "")
        _unit_counter(sc, x, y, size, SEATS[colour] if colour < n else NEUTRAL, TYPE_LETTERS[unit_type],
                      count, wounded=wounded, harried=harried, wielder=wielder, in_force=in_force, title=title)
    elif kind == "md":
        _md(sc, x, y, size * 0.85, piece[1])
    elif kind == "flame":
        _flame(sc, x, y, size)
    else:
        _marker(sc, x, y, size, piece[1])


def _unit_counter(sc, x, y, s, fill, letter, count, wounded=False, harried=False, wielder=False,
                  in_force=False, title=None):
    """A square unit counter: type letter, count badge, wounded cross, harried
    mark, sword badge, and a yellow rim while it is in the attack force."""
    h = s / 2
    if in_force:
        sc.rect(x - h - 3, y - h - 3, x + h + 3, y + h + 3, fill=PALETTE["highlight"], outline=INK)
    sc.rect(x - h, y - h, x + h, y + h, fill=_tint(fill, 0.55) if wounded else fill, outline=INK,
            width=1.5, title=title)
    sc.text(x, y, letter, size=max(9, int(s * 0.56)), color=INK if wounded else "#ffffff", bold=True)
    if count > 1:
        r = max(5.5, s * 0.27)
        sc.circle(x + h - 1, y + h - 1, r, fill="#ffffff", outline=INK)
        sc.text(x + h - 1, y + h - 1, str(count), size=max(8, int(r * 1.45)), color=INK, bold=True)
    if wounded:
        c = (x - h + 5, y - h + 5)
        sc.line(((c[0] - 3.5, c[1]), (c[0] + 3.5, c[1])), "#c0392b", width=2.5)
        sc.line(((c[0], c[1] - 3.5), (c[0], c[1] + 3.5)), "#c0392b", width=2.5)
    if harried:
        k = max(8.0, s * 0.45)
        sc.polygon([(x + h, y - h), (x + h - k, y - h), (x + h, y - h + k)], fill="#f39c12", outline=INK)
    if wielder:
        _sword(sc, x - h + 1, y, s * 1.15, fill, tilt=0.35)


def _dragon(sc, x, y, s, enraged, asleep):
    """Brimstone: a winged counter; orange-red with -2 when ENRAGED (9.84), grey with zz asleep (7.67)."""
    body = "#5b6b7a" if asleep else "#d9411e" if enraged else DRAGON_BODY
    wing = "#394652" if asleep else "#9c2a10" if enraged else DRAGON_WING
    span, r = s * 0.78, s * 0.4
    for side in (-1, 1):
        sc.polygon([(x + side * r * 0.4, y - r * 0.6), (x + side * span, y - s * 0.55),
                    (x + side * span * 0.8, y - s * 0.05), (x + side * span, y + s * 0.25),
                    (x + side * r * 0.4, y + r * 0.7)], fill=wing, outline=INK)
    sc.circle(x, y, r, fill=body, outline=GOLD, width=2, title="Brimstone" + (" (enraged)" if enraged else "")
              + (" (asleep)" if asleep else ""))
    sc.text(x, y, "B", size=max(9, int(s * 0.45)), color="#ffffff", bold=True)
    if enraged:
        sc.rect(x + r * 0.2, y + r * 0.55, x + r * 0.2 + 16, y + r * 0.55 + 12, fill="#ffe14d", outline=INK)
        sc.text(x + r * 0.2 + 8, y + r * 0.55 + 6, "-2", size=9, color=INK, bold=True)
    if asleep:
        sc.text(x + r + 4, y - r - 2, "zz", size=11, color="#1f3b57", bold=True)


def _being(sc, x, y, s, k, active=False):
    r = s * 0.48
    if active:
        sc.circle(x, y, r + 3, fill=PALETTE["select"])
    sc.circle(x, y, r, fill=BEING_FILL, outline=BEING_INK, width=2, title=BEING_NAMES[k])
    sc.text(x, y, BEING_ABBREV[k], size=max(8, int(s * 0.42)), color=BEING_INK, bold=True)


def _sword(sc, x, y, s, hilt, title=None, tilt=0.0):
    """A magesword of length ``s`` centred on ``(x, y)``, point down and turned
    ``tilt`` radians clockwise: silver blade, gold guard, pommel in its
    owner's colour."""
    cos, sin = math.cos(tilt), math.sin(tilt)

    def at(dx, dy):
        return (x + dx * cos - dy * sin, y + dx * sin + dy * cos)

    w = max(1.6, s * 0.08)
    sc.polygon([at(-w, -s * 0.22), at(w, -s * 0.22), at(w, s * 0.38), at(0, s * 0.5), at(-w, s * 0.38)],
               fill="#eceff1", outline=INK, title=title)
    g = s * 0.24
    sc.polygon([at(-g, -s * 0.3), at(g, -s * 0.3), at(g, -s * 0.22), at(-g, -s * 0.22)], fill=GOLD, outline=INK)
    sc.polygon([at(-w * 0.8, -s * 0.44), at(w * 0.8, -s * 0.44), at(w * 0.8, -s * 0.3), at(-w * 0.8, -s * 0.3)],
               fill="#6b4e2a")
    px, py = at(0, -s * 0.46)
    sc.circle(px, py, max(2.5, s * 0.09), fill=hilt, outline=INK)


def _md(sc, x, y, s, count):
    """Magical defense markers (15.635): a blue diamond with their number."""
    h = s / 2
    sc.polygon([(x, y - h), (x + h, y), (x, y + h), (x - h, y)], fill=MD_FILL, outline=INK,
               title=f"{count} magical defense markers")
    sc.text(x, y, str(count), size=max(8, int(s * 0.5)), color="#ffffff", bold=True)


def _flame(sc, x, y, s):
    """A flame marker: the cottage is flamed until the next growth phase (7.68, 12.2)."""
    h = s / 2
    sc.polygon([(x, y - h), (x + h * 0.7, y), (x + h * 0.45, y + h * 0.8), (x - h * 0.45, y + h * 0.8),
                (x - h * 0.7, y), (x - h * 0.15, y - h * 0.3)], fill="#e74c3c", outline="#7b1d0e",
               title="flamed")
    sc.polygon([(x, y - h * 0.2), (x + h * 0.35, y + h * 0.3), (x, y + h * 0.7), (x - h * 0.35, y + h * 0.3)],
               fill="#ffd23f")


def _marker(sc, x, y, s, label):
    """A being control marker (3.51, 3.52): B1 the Being Choice, B2 the Second Being."""
    r = s * 0.42
    sc.circle(x, y, r, fill=GOLD, outline=INK,
              title="Being Choice Marker" if label == "B1" else "Second Being Marker")
    sc.text(x, y, label, size=max(8, int(s * 0.4)), color=INK, bold=True)


# ------------------------------------------------------------------ the panel
STAGE_WORDS = {
    R.ST_SETUP_KINGDOM: "set-up: choosing kingdoms", R.ST_SETUP_PLACE: "set-up: placing units",
    R.ST_BRIMSTONE: "Brimstone's round", R.ST_BEING_FIRST: "Fantastic Being round (first being)",
    R.ST_BEING_SECOND: "Fantastic Being round (second being)", R.ST_CARDS: "card segment",
    R.ST_PLAYER: "Player's round", R.ST_GROWTH_REPL: "growth: replacements",
    R.ST_GROWTH_PLACE: "growth: reinforcements", R.ST_OVER: "game over",
}
"""The stage of the sequence of play (``stage``), in words."""
SEGMENT_WORDS = {SEG_MOVE: "movement segment", SEG_COMBAT: "combat segment",
                 SEG_DRAGON: "dragon attack segment"}


def _panel(sc, rec, n, names, seat, to_play, buttons):
    x0 = PANEL_X + 4
    hand, turn = int(rec["hand"]), int(rec["turn"])
    stage = int(rec["stage"])
    status = int(rec["status"])
    head = f"{n} players · " + (f"hand {hand} of {int(rec['max_hands'])} · turn {turn + 1} of 4"
                                if hand > 0 else "set-up")
    sc.text(WIDTH - 16, PANEL_TOP + 4, head, size=12, color=INK, anchor="rt")
    words = STAGE_WORDS.get(stage, "?")
    if stage == R.ST_PLAYER and status == 0:
        acting = int(rec["round_order"][int(rec["order_pos"])])
        seg = SEGMENT_WORDS.get(int(rec["segment"]))
        words += f": {names[acting]}" + (f", {seg}" if seg else "")
    if status == 1:
        words = f"Brimstone is slain by {names[int(rec['winner'])]} -- {names[int(rec['winner'])]} wins"
    elif status == 2:
        m = int(rec["max_hands"])
        words = f"truncated after {m} hand{'s' if m != 1 else ''}: a draw"
    sc.text(x0, PANEL_TOP + 30, words, size=13, color=INK, anchor="lt", bold=status != 0)

    # Brimstone and the beings
    y = PANEL_TOP + 54
    dragon = int(rec["dragon_cell"])
    mood = ("ENRAGED (-2)" if rec["enraged"] else "") + (" asleep" if int(rec["asleep_until"]) >= 0 else "")
    where = "in his lair" if dragon == int(D.LAIR_CELL) else f"at {cell_name(dragon)}"
    _dragon(sc, x0 + 10, y + 8, 20, enraged=bool(rec["enraged"]), asleep=int(rec["asleep_until"]) >= 0)
    sc.text(x0 + 28, y + 8, f"Brimstone {where} {mood}".rstrip(), size=12, color=INK, anchor="lm", bold=True)
    left = bin(int(rec["deck_left"])).count("1")
    sc.text(WIDTH - 16, y + 8, f"dragon cards {left}/{DECK_SIZE}", size=11, color=INK, anchor="rm")
    y += 24
    for slot, lair in ((0, "Cave"), (1, "Hollow Tree")):
        k, loc = int(rec["slot_being"][slot]), int(rec["slot_loc"][slot])
        if k < 0:
            text = f"{lair}: empty"
        else:
            place = "in its lair" if loc == int(D.BEING_LAIR_CELL[slot]) else \
                f"at {cell_name(loc)}" if loc >= 0 else "(off the board)"
            text = f"{lair}: {BEING_NAMES[k]} {place}"
            _being(sc, x0 + 10, y + 8, 18, k)
        sc.text(x0 + 28, y + 8, text, size=11, color=INK, anchor="lm")
        y += 20
    pile = bin(int(rec["being_pile"])).count("1")
    sc.text(WIDTH - 16, y - 12, f"{pile} beings face down", size=11, color=INK, anchor="rm")

    revealed = stage != R.ST_CARDS
    for p in range(n):
        _player_row(sc, rec, p, names, seat, revealed, to_play, PLAYERS_Y + p * PLAYER_ROW)
    _decision(sc, rec, names, to_play, buttons)


def _player_row(sc, rec, p, names, seat, revealed, to_play, y):
    x0 = PANEL_X + 4
    if p == to_play:
        sc.rect(x0 - 3, y - 3, WIDTH - 13, y + PLAYER_ROW - 7, fill=_tint(PALETTE["highlight"], 0.7),
                outline=INK)
    sc.rect(x0, y, x0 + 16, y + 16, fill=SEATS[p], outline=INK)
    k = int(rec["kingdom"][p])
    kingdom = D.KINGDOM_NAMES[k] if k >= 0 else "no kingdom yet"
    sc.text(x0 + 22, y + 8, names[p], size=13, color=INK, anchor="lm", bold=True)
    sc.text(x0 + 96, y + 8, kingdom, size=12, color=INK, anchor="lm")
    wounds = int(rec["wounds"][p])
    sc.text(WIDTH - 20 - 13 * max(wounds, 0), y + 8, f"wounds {wounds}", size=11, color=INK, anchor="rm")
    for i in range(wounds):                  # dragon wound markers (9.83)
        cx = WIDTH - 24 - 13 * i
        sc.polygon([(cx, y + 2), (cx + 5, y + 10), (cx, y + 14), (cx - 5, y + 10)], fill="#c0392b", outline=INK)
    hand = [int(D.MOVEMENT_CARD_VALUES[i]) for i in range(6) if int(rec["cards_in_hand"][p]) >> i & 1]
    played = int(rec["card_played"][p])
    if played < 0:
        laid = ""
    elif revealed or seat is None or seat == p:
        laid = f" · played {int(D.MOVEMENT_CARD_VALUES[played])}" if revealed else \
            f" · laid {int(D.MOVEMENT_CARD_VALUES[played])} face down"
    else:
        laid = " · laid a card face down"
    cards = " ".join(str(v) for v in hand) if hand else "none"
    sc.text(x0 + 22, y + 24, f"cards {cards}{laid}", size=11, color=INK, anchor="lm")
    base = p * UNITS_PER_COLOUR
    locs = rec["unit_loc"][base:base + UNITS_PER_COLOUR]
    extras = [f"dead {int((locs == LOC_DEAD).sum())}", f"reserve {int((locs == LOC_RESERVE).sum())}"]
    md = int(rec["md_cottage"][p]) + int(rec["md_carried"][p])
    if md:
        extras.append(f"magic defense {md}")
    if int(rec["sword_loc"][p]) >= 0 or int(rec["sword_holder"][p]) >= 0:
        extras.append("magesword " + ("wielded" if int(rec["sword_holder"][p]) >= 0 else "lying"))
    if int(rec["stage"]) > R.ST_SETUP_PLACE:
        if int(rec["choice_player"]) == p:
            extras.append("B1 Being Choice")
        if int(rec["second_player"]) == p:
            extras.append("B2 Second Being")
    if revealed and int(rec["stage"]) == R.ST_PLAYER:
        order = [int(q) for q in rec["round_order"][:int(rec["num_players"])]]
        if p in order:
            extras.append(f"order {order.index(p) + 1}")
    sc.text(x0 + 22, y + 38, " · ".join(extras), size=11, color="#4a4638", anchor="lm")


def _decision(sc, rec, names, to_play, buttons):
    """The pending decision in words, the dice, and one button per legal action
    that picks no space."""
    x0 = PANEL_X + 4
    y = DECISION_Y
    if int(rec["status"]) != 0 or to_play < 0:
        sc.text(x0, y, "no decision pending: the game is over", size=12, color=INK, anchor="lt")
        return
    sc.text(x0, y, f"{names[to_play]} to play", size=13, color=INK, anchor="lt", bold=True)
    y += 20
    for line in _wrap(decision_words(rec), 62):
        sc.text(x0, y, line, size=12, color=INK, anchor="lt")
        y += 16
    die_actions = {R.A_DIE0: "die0", R.A_DIE1: "die1"}
    # the dice are shown while they are the decision (they stay in the record after it)
    dice = [(a, int(rec[f])) for a, f in die_actions.items()
            if int(rec[f]) > 0 and int(rec["phase"]) in (R.PH_DRAGON_DIE, R.PH_SECOND_DIE)]
    if dice:
        y += 4
        sc.text(x0, y + 17, "dice", size=11, color=INK, anchor="lm")
        for i, (a, d) in enumerate(dice):
            bx = x0 + 40 + i * 64
            clickable = a in buttons
            title = _legal_action_name(rec, a) if clickable else None
            sc.rect(bx, y, bx + 34, y + 34, fill=BUTTON_FILL, outline=PALETTE["highlight"] if clickable else INK,
                    width=3 if clickable else 1.5, actions=(a,) if clickable else (), title=title)
            sc.text(bx + 17, y + 14, str(d), size=16, color=INK, bold=True)
            sc.text(bx + 17, y + 28, DIRECTION_NAMES[d] if 1 <= d <= 6 else "?", size=9, color=INK)
        y += 42
    rest = [a for a in buttons if a not in die_actions]
    y += 4
    for i, a in enumerate(rest):
        bx = x0 + (i % 2) * (PANEL_W // 2)
        by = y + (i // 2) * 30
        label = button_words(rec, a)
        sc.rect(bx, by, bx + PANEL_W // 2 - 10, by + 24, fill=BUTTON_FILL, outline=INK, width=1.5,
                actions=(a,), title=_legal_action_name(rec, a))
        sc.text(bx + (PANEL_W // 2 - 10) / 2, by + 12, label, size=11, color=INK)


def _wrap(text, width):
    """``text`` broken at spaces into lines of at most ``width`` characters."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return lines + ([line] if line else [])


def _type_name(t):
    return UNIT_TYPE_NAMES[t] if 0 <= t < 4 else "sword-wielding knight" if t == WIELDER else "unit"


def _selected_unit(rec):
    """The type name of the unit the pending decision moves or attacks with (``sel_unit``)."""
    u = int(rec["sel_unit"])
    return UNIT_TYPE_NAMES[int(R.UNIT_TYPE[u])] if u >= 0 else "unit"


def decision_words(rec):
    """The pending decision of ``rec`` (one record) in words, with its context."""
    ph = int(rec["phase"])
    sel = int(rec["sel_cell"])
    where = cell_name(sel) if sel >= 0 else "?"
    slot = int(rec["active_slot"])
    being = BEING_NAMES[int(rec["slot_being"][slot])] if int(rec["slot_being"][slot]) >= 0 else "being"
    target = cell_name(int(rec["target_cell"])) if int(rec["target_cell"]) >= 0 else "?"
    if ph == R.PH_KINGDOM:
        return "choose a kingdom: click its castle (3.1)"
    if ph == R.PH_PLACE:
        what = _type_name(int(rec["place_type"]))
        kind = {R.ST_SETUP_PLACE: "set-up", R.ST_GROWTH_PLACE: "reinforcement"}.get(int(rec["stage"]), "placement")
        return f"{kind}: place a {what} on a vacant space (3.3, 3.4, 12.5)"
    if ph == R.PH_DRAGON_DIE:
        return "Brimstone's move: choose the die whose direction he flies (7.11)"
    if ph == R.PH_SECOND_DIE:
        return "choose the die whose direction the second being moves (8.21)"
    if ph == R.PH_BEING_SELECT:
        return "choose the Fantastic Being you control this round (8.1)"
    if ph == R.PH_BEING_MOVE:
        return f"move the {being}: choose its space (its own space: it stays; done: it leaves the board, 8.332)"
    if ph == R.PH_BEING_TARGET:
        return f"the {being}: choose what it attacks or uses its power on, or none"
    if ph == R.PH_BANISH_DEST:
        return "Banisher: choose the vacant space the loser is banished to (15.611)"
    if ph == R.PH_EAGLE_DEST:
        return "Eagle: choose where it carries the unit (15.662)"
    if ph == R.PH_EAGLE_LAND:
        return "Eagle: choose where it lands (15.6641)"
    if ph == R.PH_CHARM:
        return "Dragon Charmer: move Brimstone up to three spaces toward or away from her, or not (15.65)"
    if ph == R.PH_REVIVE_TYPE:
        return "Revivor: choose the type of dead unit to revive, or none (15.68)"
    if ph == R.PH_REVIVE_CELL:
        return f"Revivor: choose the space the {_type_name(int(rec['sel_type']))} returns to (15.68)"
    if ph == R.PH_TELEPORT_UNIT:
        return "Teleporter: choose your unit to teleport, or none (15.69)"
    if ph == R.PH_TELEPORT_DEST:
        return "Teleporter: choose the space next to it the unit arrives at (15.69)"
    if ph == R.PH_CARD:
        return "lay a movement card face down (9.11); its value is the unit's movement points"
    if ph == R.PH_MOVE_SELECT:
        return "movement: choose a unit to move, or end the movement segment (9.3)"
    if ph == R.PH_MOVE_TYPE:
        return f"choose the type of unit that moves out of {where}"
    if ph == R.PH_MOVE_DEST:
        return (f"move the {_selected_unit(rec)} from {where}: choose its destination "
                f"({int(rec['mp_left'])} movement points left)")
    if ph == R.PH_COMBAT_SELECT:
        return "combat: choose a unit to attack with, or end the combat segment (9.4)"
    if ph == R.PH_COMBAT_TYPE:
        return f"choose the type that attacks from {where}, or snipe (9.64)"
    if ph == R.PH_COMBAT_TARGET:
        how = "snipes at" if int(rec["sel_type"]) == 4 else "attacks"
        unit = _selected_unit(rec)
        return f"choose the space the {unit} at {where} {how}"
    if ph == R.PH_SNIPE_TYPE:
        return f"choose the type of defender at {target} the sniper fires at (9.6421)"
    if ph == R.PH_DEFENDER:
        return f"{target} is attacked: choose the type of the unit that defends it (9.61)"
    if ph == R.PH_OCCUPY:
        struct = cell_name(int(rec["struct_cell"])) if int(rec["struct_cell"]) >= 0 else "the structure"
        return f"{struct} is won: choose an adjacent attacker to occupy it, or stop (9.612)"
    if ph == R.PH_DRAGON_FORCE:
        return (f"dragon attack: add a unit next to Brimstone to the attack force ({_force(rec)} in it), "
                "or attack with it (9.8)")
    if ph == R.PH_FORCE_TYPE:
        return f"choose the type that joins the attack on Brimstone from {where} (9.86)"
    if ph == R.PH_CASUALTY:
        fate = "dies" if int(rec["casualty_kill"]) else "is wounded"
        return f"choose an attacker that {fate} ({int(rec['casualties'])} still to choose)"
    if ph == R.PH_CARD_STRUCT:
        return f"dragon card: \"{_card_text(int(rec['sel_type']))}\" Choose the structure."
    if ph == R.PH_FIVE_MOVE:
        return f"move Brimstone one space: {int(rec['five_left'])} of his five spaces left (7.62)"
    if ph == R.PH_REPL_VILLAGE:
        return "choose the village you control that receives the replacement (12.33)"
    return ""


def _force(rec):
    """Units of the seat to play in the attack force on Brimstone (F_IN_FORCE)."""
    p = int(rec["to_play"])
    base = p * UNITS_PER_COLOUR
    return int(((rec["unit_flags"][base:base + UNITS_PER_COLOUR] & F_IN_FORCE) > 0).sum())


def _card_text(kind):
    """The text of a dragon card of ``kind`` (the first in the deck)."""
    for i in range(len(D.DECK)):
        if int(D.DECK[i]) == kind:
            return D.CARD_TEXT[i]
    return "?"


def button_words(rec, a):
    """A button's label for legal action ``a`` (not a space) of ``rec``."""
    ph = int(rec["phase"])
    if a == R.A_DONE:
        return {R.PH_MOVE_SELECT: "end movement", R.PH_COMBAT_SELECT: "end combat",
                R.PH_BEING_MOVE: "leave the board", R.PH_BEING_TARGET: "no target",
                R.PH_CHARM: "no charm", R.PH_REVIVE_TYPE: "revive none", R.PH_TELEPORT_UNIT: "teleport none",
                R.PH_OCCUPY: "occupy no more",
                R.PH_DRAGON_FORCE: "attack Brimstone" if _force(rec) else "no dragon attack",
                }.get(ph, "done")
    if R.A_CARD0 <= a < R.A_CARD0 + 6:
        return f"play card {int(D.MOVEMENT_CARD_VALUES[a - R.A_CARD0])}"
    if R.A_TYPE0 <= a < R.A_TYPE0 + 4:
        return UNIT_TYPE_NAMES[a - R.A_TYPE0]
    if a == R.A_WIELDER:
        return "sword-wielding knight"
    if a == R.A_SNIPE:
        return "snipe"
    return _legal_action_name(rec, a)
