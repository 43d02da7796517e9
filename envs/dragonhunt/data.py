"""Dragonhunt board, tables and decks, read from ``envs/dragonhunt/data/*.txt``.

Everything is parsed and precomputed once, at import (plain Python + numpy), into
module-level numpy arrays that the compiled rules freeze as constants. The text
files are the source of truth; several are substitutes for components the
rulebook does not print (see ``envs/dragonhunt/SUBSTITUTES.md``).

Board (``data/board.txt``; cells numbered in reading order, see its legend):

==================  ===============  ===============================================
name                shape / dtype    meaning
==================  ===============  ===============================================
NUM_CELLS           int              number of hexes NC
BOARD_COLS/ROWS     int              size of the printed rectangle
CELL_COL, CELL_ROW  int16[NC]        odd-q offset position of a cell
CELL_Q, CELL_R      int16[NC]        axial coordinates (``dragongym.envs.core.hexgrid``)
TERRAIN             int8[NC]         ``constants`` terrain code
KINGDOM             int8[NC]         kingdom of a castle/village/cottage hex, else -1
SPACE               int16[NC]        canonical cell of the hex's space: the lowest
                                     cell of a 2-hex castle/village (9.33), else itself
STEP                int16[NC,7]      cell one hex away in direction 1..6, or -1
HEX_DIST            int16[NC,NC]     hex distance between two hexes
SPACE_ADJ           int8[NC,NC]      1 iff space(a) != space(b) and they share a hexside
HEXSIDES            int8[NC,NC]      hex edges shared by space(a) and space(b) (9.86);
                                     0 within one space
SPACE_DIST          int16[NC,NC]     fewest hex steps from any hex of space(a) to any
                                     hex of space(b); 0 within one space
NEIGHBOURS          int16[NC,MAXN]   canonical cells of the spaces adjacent to the
                                     cell's space, ascending, padded with -1
NUM_NEIGHBOURS      int8[NC]         count of valid entries in NEIGHBOURS
CASTLE_CELL etc.    int16[6]         canonical cell of kingdom k's castle / village /
                                     cottage (CASTLE_CELL, VILLAGE_CELL, COTTAGE_CELL)
KINGDOM_NAMES       tuple[str]       kingdom k's name (3.1)
LAIR_CELL           int              the Lair of Brimstone
BEING_LAIR_CELL     int16[2]         0 = Cave (1.21), 1 = Hollow Tree (1.22)
MOVE_COST           int8[NC]         MP to enter the hex (9.32) where entry is allowed
DEFENSE             int8[NC]         defensive terrain value (9.7)
SETUP_ALLOWED       int8[NC]         1 iff open/forest/mountain/swamp and not adjacent
                                     to a structure or lair: the static part of 3.41-3.45
==================  ===============  ===============================================

Tables (``data/tables.txt``, ``data/combat_table.txt``, ``data/dragon_cards.txt``):
MOVEMENT_CARD_VALUES int8[6]; UNIT_ATTACK, UNIT_DEFENSE int8[4] by unit type;
SNIPE_STRENGTH int; BEING_MOVE, BEING_FLIES, BEING_ATTACK, BEING_DEFENSE,
BEING_SECOND_MOVE int8[10] by being id; TERRAIN_MOVE_COST, TERRAIN_DEFENSE
int8[NUM_TERRAINS]; COMBAT_TABLE int8[5, COMBAT_TABLE_MAX_TOTAL + 1] (result code by
column ``COL_*`` and total clamped to 0..COMBAT_TABLE_MAX_TOTAL) with
COMBAT_TABLE_SUBSTITUTED bool of the same shape; DECK int8[24] card kinds in card
order and CARD_TEXT (24 str); MAGESWORD_PLUS int8[7] (index = die 1..6).
"""
from pathlib import Path

import numpy as np

from dragongym.envs.core.hexgrid import build_tables, offset_to_axial
from . import constants as K

DATA_DIR = Path(__file__).with_name("data")

_TERRAIN_TOKENS = {"..": K.OPEN, "ff": K.FOREST, "mm": K.MOUNTAIN, "ss": K.SWAMP,
                   "LB": K.DRAGON_LAIR, "CV": K.BEING_LAIR, "HT": K.BEING_LAIR}
_STRUCTURE_LETTERS = {"C": K.CASTLE, "V": K.VILLAGE, "H": K.COTTAGE}


def _lines(name):
    """Non-blank lines of a data file with ``#`` comments stripped."""
    out = []
    for raw in (DATA_DIR / name).read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if line.strip():
            out.append(line)
    return out


def _int_star(text):
    """``"12"`` -> (12, False); ``"2*"`` -> (2, True): a trailing star marks a substitute."""
    text = text.strip()
    return int(text.rstrip("*")), text.endswith("*")


# ----------------------------------------------------------------- board ----

def _parse_board():
    names = {}
    grid = []
    for line in _lines("board.txt"):
        if line.startswith("name"):
            _, k, name = line.split(None, 2)
            names[int(k)] = name.strip()
        else:
            grid.append(line.split())
    if not grid or any(len(row) != len(grid[0]) for row in grid):
        raise ValueError("board.txt: every map row needs the same number of tokens")
    if sorted(names) != list(range(K.NUM_KINGDOMS)):
        raise ValueError("board.txt: need one 'name k NAME' line per kingdom 0..5")
    return grid, tuple(names[k] for k in range(K.NUM_KINGDOMS))


_GRID, KINGDOM_NAMES = _parse_board()
BOARD_ROWS = len(_GRID)
BOARD_COLS = len(_GRID[0])

_cells = [(c, r) for r in range(BOARD_ROWS) for c in range(BOARD_COLS) if _GRID[r][c] != "--"]
NUM_CELLS = len(_cells)
_CELL_INDEX = np.full((BOARD_COLS, BOARD_ROWS), -1, dtype=np.int16)
for _i, (_c, _r) in enumerate(_cells):
    _CELL_INDEX[_c, _r] = _i

CELL_COL = np.array([c for c, _ in _cells], dtype=np.int16)
CELL_ROW = np.array([r for _, r in _cells], dtype=np.int16)
_axial = [offset_to_axial(c, r) for c, r in _cells]
CELL_Q = np.array([q for q, _ in _axial], dtype=np.int16)
CELL_R = np.array([r for _, r in _axial], dtype=np.int16)


def cell_at(col, row):
    """Cell index of the hex at offset (column, row), or -1 off the board."""
    if 0 <= col < BOARD_COLS and 0 <= row < BOARD_ROWS:
        return int(_CELL_INDEX[col, row])
    return -1


TERRAIN = np.zeros(NUM_CELLS, dtype=np.int8)
KINGDOM = np.full(NUM_CELLS, -1, dtype=np.int8)
_TOKEN = []
_lair = []
_being_lairs = {}
for _i, (_c, _r) in enumerate(_cells):
    _tok = _GRID[_r][_c]
    _TOKEN.append(_tok)
    if _tok in _TERRAIN_TOKENS:
        TERRAIN[_i] = _TERRAIN_TOKENS[_tok]
        if _tok == "LB":
            _lair.append(_i)
        elif _tok == "CV":
            _being_lairs.setdefault(K.CAVE, []).append(_i)
        elif _tok == "HT":
            _being_lairs.setdefault(K.HOLLOW_TREE, []).append(_i)
    elif len(_tok) == 2 and _tok[0] in _STRUCTURE_LETTERS and _tok[1].isdigit() \
            and int(_tok[1]) < K.NUM_KINGDOMS:
        TERRAIN[_i] = _STRUCTURE_LETTERS[_tok[0]]
        KINGDOM[_i] = int(_tok[1])
    else:
        raise ValueError(f"board.txt: unknown token {_tok!r} at column {_c}, row {_r}")
if len(_lair) != 1 or [len(_being_lairs.get(k, ())) for k in (K.CAVE, K.HOLLOW_TREE)] != [1, 1]:
    raise ValueError("board.txt: need exactly one LB, one CV and one HT hex")
LAIR_CELL = _lair[0]
BEING_LAIR_CELL = np.array([_being_lairs[K.CAVE][0], _being_lairs[K.HOLLOW_TREE][0]],
                           dtype=np.int16)

STEP, HEX_DIST = build_tables(_axial)

# A castle or village is ONE space whatever its size (9.33): its hexes are the
# connected hexes carrying the same token; the lowest cell stands for the space.
SPACE = np.arange(NUM_CELLS, dtype=np.int16)
for _i in range(NUM_CELLS):
    if TERRAIN[_i] in (K.CASTLE, K.VILLAGE) and SPACE[_i] == _i:
        _todo, _members = [_i], {_i}
        while _todo:
            _a = _todo.pop()
            for _b in STEP[_a, 1:]:
                if _b >= 0 and _b not in _members and _TOKEN[_b] == _TOKEN[_i]:
                    _members.add(int(_b))
                    _todo.append(int(_b))
        for _m in _members:
            SPACE[_m] = min(_members)

_structure_cells = {}
for _i in range(NUM_CELLS):
    if KINGDOM[_i] >= 0:
        _structure_cells.setdefault((int(TERRAIN[_i]), int(KINGDOM[_i])), set()).add(int(SPACE[_i]))
for (_t, _k), _spaces in _structure_cells.items():
    if len(_spaces) != 1:
        raise ValueError(f"board.txt: kingdom {_k} has {len(_spaces)} {K.TERRAIN_NAMES[_t]} spaces")


def _structure_cell_array(terrain):
    try:
        return np.array([next(iter(_structure_cells[(terrain, k)])) for k in range(K.NUM_KINGDOMS)],
                        dtype=np.int16)
    except KeyError as missing:
        raise ValueError(f"board.txt: missing {missing}") from None


CASTLE_CELL = _structure_cell_array(K.CASTLE)
VILLAGE_CELL = _structure_cell_array(K.VILLAGE)
COTTAGE_CELL = _structure_cell_array(K.COTTAGE)

# Hex-level adjacency, then lifted to spaces: E[s, t] counts hex edges with one
# side in space s and the other in space t.
_edges = np.zeros((NUM_CELLS, NUM_CELLS), dtype=np.int16)
for _a in range(NUM_CELLS):
    for _b in STEP[_a, 1:]:
        if _b >= 0:
            _edges[SPACE[_a], SPACE[_b]] += 1
np.fill_diagonal(_edges, 0)
HEXSIDES = _edges[SPACE][:, SPACE].astype(np.int8)
SPACE_ADJ = (HEXSIDES > 0).astype(np.int8)

SPACE_DIST = HEX_DIST.copy()
for _s in np.unique(SPACE):
    _members = np.flatnonzero(SPACE == _s)
    if len(_members) > 1:
        SPACE_DIST[_members, :] = SPACE_DIST[_members, :].min(axis=0)
for _s in np.unique(SPACE):
    _members = np.flatnonzero(SPACE == _s)
    if len(_members) > 1:
        SPACE_DIST[:, _members] = SPACE_DIST[:, _members].min(axis=1, keepdims=True)

_neigh = [sorted({int(SPACE[b]) for b in np.flatnonzero(SPACE_ADJ[a])}) for a in range(NUM_CELLS)]
NUM_NEIGHBOURS = np.array([len(n) for n in _neigh], dtype=np.int8)
MAXN = int(NUM_NEIGHBOURS.max())
NEIGHBOURS = np.full((NUM_CELLS, MAXN), -1, dtype=np.int16)
for _a, _n in enumerate(_neigh):
    NEIGHBOURS[_a, :len(_n)] = _n


# ----------------------------------------------------------- small tables ----

def _parse_sections(name):
    """``[section]`` -> list of rows, each a list of ``|``-separated stripped fields."""
    sections, current = {}, None
    for line in _lines(name):
        s = line.strip()
        if s.startswith("[") and s.endswith("]"):
            current = sections.setdefault(s[1:-1], [])
        elif current is None:
            raise ValueError(f"{name}: data before the first [section]")
        else:
            current.append([f.strip() for f in s.split("|")])
    return sections


_TABLES = _parse_sections("tables.txt")

_card_fields = _TABLES["movement_cards"][0]
MOVEMENT_CARD_VALUES = np.array([_int_star(v)[0] for v in _card_fields[:K.CARDS_PER_PLAYER]],
                                dtype=np.int8)
MOVEMENT_CARD_SUBSTITUTED = np.array([_int_star(v)[1] for v in _card_fields[:K.CARDS_PER_PLAYER]])

_units = {row[0]: row for row in _TABLES["units"]}
UNIT_ATTACK = np.array([_int_star(_units[n][1])[0] for n in K.UNIT_TYPE_NAMES], dtype=np.int8)
UNIT_DEFENSE = np.array([_int_star(_units[n][2])[0] for n in K.UNIT_TYPE_NAMES], dtype=np.int8)
SNIPE_STRENGTH = _int_star(_units["snipe"][1])[0]

_beings = {row[0]: row for row in _TABLES["beings"]}
BEING_MOVE = np.array([_int_star(_beings[n][1])[0] for n in K.BEING_NAMES], dtype=np.int8)
BEING_FLIES = np.array([_beings[n][2] == "F" for n in K.BEING_NAMES], dtype=np.int8)
BEING_ATTACK = np.array([_int_star(_beings[n][3])[0] for n in K.BEING_NAMES], dtype=np.int8)
BEING_DEFENSE = np.array([_int_star(_beings[n][4])[0] for n in K.BEING_NAMES], dtype=np.int8)
BEING_SECOND_MOVE = np.array([_int_star(_beings[n][5])[0] for n in K.BEING_NAMES], dtype=np.int8)
"""Movement of the Berserker's second move (15.62); 0 for every other being."""
if any(_beings[n][2] not in ("F", "M") for n in K.BEING_NAMES):
    raise ValueError("tables.txt: being movement mode must be F or M")

_terrain = {row[0]: row for row in _TABLES["terrain"]}
TERRAIN_MOVE_COST = np.array([_int_star(_terrain[n][1])[0] for n in K.TERRAIN_NAMES], dtype=np.int8)
TERRAIN_DEFENSE = np.array([_int_star(_terrain[n][2])[0] for n in K.TERRAIN_NAMES], dtype=np.int8)
MOVE_COST = TERRAIN_MOVE_COST[TERRAIN]
DEFENSE = TERRAIN_DEFENSE[TERRAIN]

MAGESWORD_PLUS = np.zeros(7, dtype=np.int8)
for _row in _TABLES["mageswords"]:
    MAGESWORD_PLUS[int(_row[0])] = int(_row[1])
if MAGESWORD_PLUS[1:].min() <= 0:
    raise ValueError("tables.txt: the Magesword chart needs a plus factor for every die 1..6")

# Static part of the set-up restrictions: 3.41/3.43 (terrain), 3.44 (not next to
# a castle, village or cottage), 3.45 (not next to the three lairs). Vacancy and
# enemy units (3.42, 3.44) depend on the state.
_placeable = np.isin(TERRAIN, (K.OPEN, K.FOREST, K.MOUNTAIN, K.SWAMP))
_forbidden_neighbour = np.isin(TERRAIN, (K.CASTLE, K.VILLAGE, K.COTTAGE, K.DRAGON_LAIR, K.BEING_LAIR))
SETUP_ALLOWED = (_placeable & (SPACE_ADJ[:, _forbidden_neighbour].sum(axis=1) == 0)).astype(np.int8)


# ----------------------------------------------------------- combat table ----

def _result_code(name):
    """Result code of a combat-table cell name (``R_*`` without the prefix), or None.

    ``OCCUPANTS_DIE_k`` (k = 1..5) is ``R_OCCUPANTS_DIE_1 + k - 1``.
    """
    if name.startswith("OCCUPANTS_DIE_") and name[len("OCCUPANTS_DIE_"):] in ("1", "2", "3", "4", "5"):
        return K.R_OCCUPANTS_DIE_1 + int(name[len("OCCUPANTS_DIE_"):]) - 1
    return getattr(K, "R_" + name, None)


def _parse_combat_table():
    table = np.full((5, K.COMBAT_TABLE_MAX_TOTAL + 1), -1, dtype=np.int8)
    substituted = np.zeros(table.shape, dtype=bool)
    rows = []
    for line in _lines("combat_table.txt"):
        fields = [f.strip() for f in line.split("|")]
        if len(fields) != 6:
            raise ValueError(f"combat_table.txt: need a total and 5 cells: {line!r}")
        rows.append(fields)
    expected = None
    for n, (total, *cells) in enumerate(rows):
        if total.startswith("<="):
            lo, hi = 0, int(total[2:])
            if n != 0:
                raise ValueError("combat_table.txt: only the first row may be '<=N'")
        elif total.startswith(">="):
            lo, hi = int(total[2:]), K.COMBAT_TABLE_MAX_TOTAL
            if n != len(rows) - 1:
                raise ValueError("combat_table.txt: only the last row may be '>=N'")
        else:
            lo = hi = int(total)
        if expected is not None and lo != expected:
            raise ValueError(f"combat_table.txt: row {total!r} should start at {expected}")
        expected = hi + 1
        for col, cell in enumerate(cells):
            code = _result_code(cell.rstrip("*"))
            if code is None:
                raise ValueError(f"combat_table.txt: unknown result {cell!r}")
            table[col, lo:hi + 1] = code
            substituted[col, lo:hi + 1] = cell.endswith("*")
    if (table < 0).any():
        raise ValueError(f"combat_table.txt: totals 0..{K.COMBAT_TABLE_MAX_TOTAL} not all covered")
    return table, substituted


COMBAT_TABLE, COMBAT_TABLE_SUBSTITUTED = _parse_combat_table()


# ------------------------------------------------------------ dragon deck ----

def _parse_deck():
    cards = {}
    for line in (DATA_DIR / "dragon_cards.txt").read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        number, kind, rest = line.split(None, 2)
        text = rest.strip()
        if not (len(text) >= 2 and text[0] == text[-1] == '"'):
            raise ValueError(f"dragon_cards.txt: card text must be in double quotes: {line!r}")
        code = getattr(K, "CARD_" + kind, None)
        if code is None:
            raise ValueError(f"dragon_cards.txt: unknown card kind {kind!r}")
        cards[int(number)] = (code, text[1:-1])
    if sorted(cards) != list(range(1, K.DECK_SIZE + 1)):
        raise ValueError(f"dragon_cards.txt: need cards numbered 1..{K.DECK_SIZE}")
    deck = np.array([cards[i][0] for i in range(1, K.DECK_SIZE + 1)], dtype=np.int8)
    return deck, tuple(cards[i][1] for i in range(1, K.DECK_SIZE + 1))


DECK, CARD_TEXT = _parse_deck()


# -------------------------------------------------------------- rendering ----

def ascii_board(marks=None, staggered=False):
    """The board as text, one 2-character token per hex (the board.txt legend).

    Args:
        marks: optional ``{cell: token}`` drawn over the map (e.g. units in a
            scenario test); tokens are padded or cut to 2 characters.
        staggered: draw each board row as two text lines, even columns on the
            first and odd columns on the second, so the picture shows odd
            columns half a hex lower as they sit on the board.
    Returns:
        A string with a column header line and one labelled line per row
        (two per row when staggered).
    """
    marks = marks or {}
    tok = {}
    for cell in range(NUM_CELLS):
        t = marks.get(cell, _TOKEN[cell])
        tok[int(CELL_COL[cell]), int(CELL_ROW[cell])] = (str(t) + "  ")[:2]
    blank = "  "
    header = "    " + " ".join(f"{c:2d}" for c in range(BOARD_COLS))
    lines = [header]
    for r in range(BOARD_ROWS):
        row = [tok.get((c, r), "--") for c in range(BOARD_COLS)]
        if staggered:
            lines.append(f"{r:2d}  " + " ".join(t if c % 2 == 0 else blank for c, t in enumerate(row)).rstrip())
            lines.append("    " + " ".join(t if c % 2 == 1 else blank for c, t in enumerate(row)).rstrip())
        else:
            lines.append(f"{r:2d}  " + " ".join(row))
    return "\n".join(lines) + "\n"
