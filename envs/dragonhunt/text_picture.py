"""Dragonhunt's text picture (``render_ansi``): the board as a staggered hex
grid with a legend, every occupied space in words, and the position's summary.

The grid reads like the board (``data/board.txt``): column ``c`` is text column
``4 + 3c`` and hex ``(c, r)`` sits on text line ``2r + c % 2`` below the header,
so odd columns lie half a hex lower, as on the board. Each hex shows one token
(at most five characters, so that the hexes of one text line never touch):

* terrain and structures as in ``board.txt``: ``..`` open, ``ff`` forest, ``mm``
  mountain, ``ss`` swamp, ``Ck``/``Vk``/``Hk`` castle/village/cottage of kingdom
  k, ``LB`` the Lair of Brimstone, ``CV`` the Cave, ``HT`` the Hollow Tree;
* units as their owner's seat then the type in lower case (``0k``: a knight of
  player_0; ``h`` hero, ``s`` sniper, ``k`` knight, ``m`` man-at-arms), a stack
  as seat, colon and count (``2:5``: five units of player_2), ``n`` for a
  garrison of no player (3.2);
* ``DR`` Brimstone (``DR!`` enraged, ``DRz`` asleep), ``*`` and two letters a
  Fantastic Being (``*Pa`` the Paralyzer), ``/k`` the magesword of seat k lying;
* a trailing ``+``: more counters share the space (the list below names all);
  a trailing ``^``: a flamed cottage; a trailing ``<``: the space the pending
  decision is about (the unit or being acting).

The hidden information is the picture's (``picture.py``): for an observing seat
another seat's face-down card reads "laid a card face down".
"""
# jitcache: no compiled code
import numpy as np

from dragongym.envs.core.spec import player_names
from . import data as D
from . import rules as R
from .constants import (
    BEING_LAIR, BEING_NAMES, CASTLE, COTTAGE, DECK_SIZE, DRAGON_LAIR, FOREST, MOUNTAIN, OPEN, SWAMP,
    UNIT_TYPE_NAMES, UNITS_PER_COLOUR, VILLAGE,
)
from .game import DIRECTION_NAMES, PHASE_NAMES, cell_name
from .picture import BEING_ABBREV, SEGMENT_WORDS, STAGE_WORDS, _selected_cell, decision_words
from .state import F_HARRIED, F_IN_FORCE, F_WOUNDED, LOC_DEAD, LOC_RESERVE

TYPE_LETTERS = "hskm"
"""A unit's type letter in the grid: hero, sniper, knight, man-at-arms."""
WIDTH = 118
"""Longest line; longer ones are wrapped (a continuation is indented)."""
PITCH = 3
"""Text columns per board column."""
LEFT = 4
"""Text columns before board column 0 (the row label)."""

LEGEND = (
    "legend: .. open  ff forest  mm mountain  ss swamp  Ck Vk Hk castle/village/cottage of kingdom k  "
    "LB Lair of Brimstone",
    "        CV Cave  HT Hollow Tree  DR Brimstone (DR! enraged, DRz asleep)  *Pa a Fantastic Being (two letters)",
    "        0k a knight of player_0 (h hero, s sniper, k knight, m man-at-arms)  2:5 five units of player_2  "
    "n garrison",
    "        /0 player_0's magesword lying | after a token: + more share the space  ^ flamed  < the decision's space",
    "        kingdoms: " + ", ".join(f"{k} {name}" for k, name in enumerate(D.KINGDOM_NAMES)),
)
"""The grid's key, printed under it (each line under 120 columns)."""


_TERRAIN_TOKENS = {OPEN: "..", FOREST: "ff", MOUNTAIN: "mm", SWAMP: "ss", DRAGON_LAIR: "LB"}
_STRUCTURE_LETTERS = {CASTLE: "C", VILLAGE: "V", COTTAGE: "H"}


def board_token(cell):
    """The ``board.txt`` token of a hex: its terrain, structure and kingdom, or lair."""
    t = int(D.TERRAIN[cell])
    if t in _STRUCTURE_LETTERS:
        return f"{_STRUCTURE_LETTERS[t]}{int(D.KINGDOM[cell])}"
    if t == BEING_LAIR:
        return "CV" if cell == int(D.BEING_LAIR_CELL[0]) else "HT"
    return _TERRAIN_TOKENS[t]


def wrap(line, width=WIDTH, indent=4):
    """``line`` broken at spaces into lines of at most ``width`` characters,
    continuations indented by ``indent``."""
    out = []
    while len(line) > width:
        cut = line.rfind(" ", indent + 1, width + 1)
        if cut <= indent:
            cut = width
        out.append(line[:cut].rstrip())
        line = " " * indent + line[cut:].lstrip()
    return out + [line]


def _units_by_space(rec):
    """``{cell: [unit, ...]}`` of the units on the board (cells are canonical)."""
    out = {}
    for u in np.flatnonzero(rec["unit_loc"] >= 0):
        out.setdefault(int(rec["unit_loc"][u]), []).append(int(u))
    return out


def _occupants(rec, n):
    """``{space: [what, ...]}``: the counters of each occupied space as
    ``("dragon",)``, ``("being", k)``, ``("sword", p)``, ``("units", [u...])``."""
    out = {}

    def add(cell, what):
        out.setdefault(int(D.SPACE[cell]), []).append(what)

    if int(rec["dragon_cell"]) >= 0:
        add(int(rec["dragon_cell"]), ("dragon",))
    for slot in range(2):
        k, loc = int(rec["slot_being"][slot]), int(rec["slot_loc"][slot])
        if k >= 0 and loc >= 0:
            add(loc, ("being", k))
    for cell, units in _units_by_space(rec).items():
        add(cell, ("units", units))
    for p in range(n):
        if int(rec["sword_loc"][p]) >= 0:
            add(int(rec["sword_loc"][p]), ("sword", p))
    return out


def _token(rec, n, what):
    kind = what[0]
    if kind == "dragon":
        return "DR" + ("!" if rec["enraged"] else "") + ("z" if int(rec["asleep_until"]) >= 0 else "")
    if kind == "being":
        return "*" + BEING_ABBREV[what[1]]
    if kind == "sword":
        return f"/{what[1]}"
    units = what[1]
    colour = int(R.UNIT_COLOUR[units[0]])
    owner = str(colour) if colour < n else "n"
    if len(units) == 1:
        return owner + TYPE_LETTERS[int(R.UNIT_TYPE[units[0]])]
    return f"{owner}:{len(units)}"


def map_lines(rec):
    """The board as text lines: a column header, then two lines per board row
    (even columns on the first, odd columns half a hex lower on the second)."""
    n = int(rec["num_players"])
    occupants = _occupants(rec, n)
    selected = _selected_cell(rec)
    selected = int(D.SPACE[selected]) if selected >= 0 else -1
    flamed = {int(D.COTTAGE_CELL[k]) for k in range(6) if int(rec["flamed"][k])}
    rows, cols = int(D.BOARD_ROWS), int(D.BOARD_COLS)
    grid = [[" "] * (LEFT + PITCH * cols + 3) for _ in range(2 * rows)]
    for r in range(rows):
        grid[2 * r][0:2] = list(f"{r:02d}")
    for c in range(int(D.NUM_CELLS)):
        col, row = int(D.CELL_COL[c]), int(D.CELL_ROW[c])
        here = occupants.get(c, []) if int(D.SPACE[c]) == c else []
        token = _token(rec, n, here[0]) if here else board_token(c)
        if len(here) > 1:
            token += "+"
        if c in flamed:
            token += "^"
        if c == selected:
            token += "<"
        x = LEFT + PITCH * col
        line = grid[2 * row + col % 2]
        line[x:x + len(token)] = list(token)
    header = " " * LEFT + "".join(f"{c:02d} " for c in range(cols))
    return [header.rstrip()] + ["".join(line).rstrip() for line in grid]


def _unit_words(rec, units, n):
    """``"hero, 2 knights (1 wounded, wields the magesword)"``-style list of a stack."""
    by_type = {}
    for u in units:
        by_type.setdefault(int(R.UNIT_TYPE[u]), []).append(u)
    colour = int(R.UNIT_COLOUR[units[0]])
    wielder = int(rec["sword_holder"][colour]) if colour < n else -1
    md_holder = int(rec["md_holder"][colour]) if colour < n else -1
    parts = []
    for t in sorted(by_type):
        group = by_type[t]
        name = UNIT_TYPE_NAMES[t] if len(group) == 1 else \
            f"{len(group)} {UNIT_TYPE_NAMES[t].replace('man-at-arms', 'men-at-arms')}" \
            + ("" if t == 3 else "s")
        notes = []
        for flag, word in ((F_WOUNDED, "wounded"), (F_HARRIED, "harried"), (F_IN_FORCE, "in the attack")):
            k = sum(1 for u in group if int(rec["unit_flags"][u]) & flag)
            if k:
                notes.append(word if len(group) == 1 else f"{k} {word}")
        if wielder in group:
            notes.append("wields the magesword" if len(group) == 1 else "one wields the magesword")
        if md_holder in group and int(rec["md_carried"][colour]) > 0:
            notes.append(f"carries {int(rec['md_carried'][colour])} magical defense")
        parts.append(name + (f" ({', '.join(notes)})" if notes else ""))
    return ", ".join(parts)


def space_lines(rec):
    """One line per occupied space: its name and everything on it."""
    n = int(rec["num_players"])
    names = player_names(n)
    lines = []
    for space, here in sorted(_occupants(rec, n).items()):
        words = []
        for what in here:
            if what[0] == "dragon":
                words.append("Brimstone" + (" (ENRAGED)" if rec["enraged"] else "")
                             + (" (asleep)" if int(rec["asleep_until"]) >= 0 else ""))
            elif what[0] == "being":
                words.append(BEING_NAMES[what[1]])
            elif what[0] == "sword":
                words.append(f"{names[what[1]]}'s magesword (lying)")
            else:
                colour = int(R.UNIT_COLOUR[what[1][0]])
                owner = names[colour] if colour < n else "garrison"
                words.append(f"{owner}: {_unit_words(rec, what[1], n)}")
        lines.append(f"  {cell_name(space):<17} " + "; ".join(words))
    for k in range(6):
        if int(rec["flamed"][k]):
            lines.append(f"  {cell_name(int(D.COTTAGE_CELL[k])):<17} flamed (7.68)")
    for p in range(n):
        k = int(rec["kingdom"][p])
        if k >= 0 and int(rec["md_cottage"][p]) > 0:
            lines.append(f"  {cell_name(int(D.COTTAGE_CELL[k])):<17} {int(rec['md_cottage'][p])} magical "
                         f"defense markers of {names[p]}")
    return lines


def _card_words(rec, p, seat):
    """Seat p's movement cards: its hand (public) and this turn's card, face
    down for an observing seat other than p during the card segment."""
    hand = [int(D.MOVEMENT_CARD_VALUES[i]) for i in range(6) if int(rec["cards_in_hand"][p]) >> i & 1]
    text = f"cards {hand}"
    played = int(rec["card_played"][p])
    if played >= 0:
        value = int(D.MOVEMENT_CARD_VALUES[played])
        if int(rec["stage"]) != R.ST_CARDS:
            text += f", played {value}"
        elif seat is None or seat == p:
            text += f", laid {value} face down"
        else:
            text += ", laid a card face down"
    return text


def text_picture(state, seat=None):
    """The text picture of ``state`` (a 1-record array) as ``seat`` may know it
    (None: the full position): grid, legend, spaces and summary."""
    rec = state[0]
    n = int(rec["num_players"])
    names = player_names(n)
    stage = int(rec["stage"])
    status = {0: "running", 1: "Brimstone slain", 2: "truncated"}[int(rec["status"])]
    hand = int(rec["hand"])
    when = f"hand {hand} of {int(rec['max_hands'])}, turn {int(rec['turn']) + 1} of 4" if hand > 0 else "set-up"
    words = STAGE_WORDS.get(stage, "?")
    if stage == R.ST_PLAYER and int(rec["status"]) == 0:
        seg = SEGMENT_WORDS.get(int(rec["segment"]))
        words += f" ({names[int(rec['round_order'][int(rec['order_pos'])])]}" + (f", {seg})" if seg else ")")
    lines = [f"Dragonhunt | {n} players | {when} | {words} | {status}"]
    lines += map_lines(rec)
    lines += LEGEND
    lines += space_lines(rec)
    dragon = int(rec["dragon_cell"])
    lines.append(f"Brimstone {'in his lair' if dragon == int(D.LAIR_CELL) else 'at ' + cell_name(dragon)}"
                 f"{' ENRAGED' if rec['enraged'] else ''}{' asleep' if int(rec['asleep_until']) >= 0 else ''}"
                 f" | dragon cards left {bin(int(rec['deck_left'])).count('1')} of {DECK_SIZE}")
    beings = []
    for slot, lair in ((0, "Cave"), (1, "Hollow Tree")):
        k, loc = int(rec["slot_being"][slot]), int(rec["slot_loc"][slot])
        if k < 0:
            beings.append(f"{lair} empty")
        else:
            place = "in its lair" if loc == int(D.BEING_LAIR_CELL[slot]) else \
                f"at {cell_name(loc)}" if loc >= 0 else "off the board"
            beings.append(f"{lair}: {BEING_NAMES[k]} {place}")
    lines.append("beings: " + "; ".join(beings) + f" | {bin(int(rec['being_pile'])).count('1')} face down")
    revealed = stage != R.ST_CARDS
    order = [int(q) for q in rec["round_order"][:n]] if revealed and stage == R.ST_PLAYER else []
    for p in range(n):
        k = int(rec["kingdom"][p])
        base = p * UNITS_PER_COLOUR
        locs = rec["unit_loc"][base:base + UNITS_PER_COLOUR]
        parts = [D.KINGDOM_NAMES[k] if k >= 0 else "no kingdom yet", f"wounds {int(rec['wounds'][p])}",
                 _card_words(rec, p, seat), f"dead {int((locs == LOC_DEAD).sum())}",
                 f"reserve {int((locs == LOC_RESERVE).sum())}"]
        if int(rec["sword_holder"][p]) >= 0 or int(rec["sword_loc"][p]) >= 0:
            parts.append("magesword " + ("wielded" if int(rec["sword_holder"][p]) >= 0 else "lying"))
        md = int(rec["md_cottage"][p]) + int(rec["md_carried"][p])
        if md:
            parts.append(f"magic defense {md}")
        if stage > R.ST_SETUP_PLACE:
            if int(rec["choice_player"]) == p:
                parts.append("Being Choice marker")
            if int(rec["second_player"]) == p:
                parts.append("Second Being marker")
        if p in order:
            parts.append(f"order {order.index(p) + 1}")
        lines.append(f"{names[p]}: " + ", ".join(parts))
    if int(rec["status"]) == 0:
        phase = int(rec["phase"])
        if phase in (R.PH_DRAGON_DIE, R.PH_SECOND_DIE):
            dice = [int(rec["die0"]), int(rec["die1"])]
            lines.append("dice: " + ", ".join(f"{d} ({DIRECTION_NAMES[d] if 1 <= d <= 6 else '?'})" for d in dice))
        lines.append(f"to play: {names[int(rec['to_play'])]} ({PHASE_NAMES.get(phase, '?')}): "
                     f"{decision_words(rec)}")
    elif int(rec["status"]) == 1:
        lines.append(f"winner: {names[int(rec['winner'])]} slew Brimstone")
    return "\n".join(part for line in lines for part in wrap(line)) + "\n"
