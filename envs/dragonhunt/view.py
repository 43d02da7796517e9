"""A documented, read-only view of a Dragonhunt state record, for bots.

Heuristic agents (``agents/dragonhunt_heuristic.py``) and tools read positions
through these helpers instead of reaching into record fields ad hoc, so the
state layout can change without breaking them. Every function takes ``state``,
either a 1-record array (as the Game contract passes it) or one record, and
never modifies it.

NOTE: the record holds the *whole* game, hidden parts included (the other
seats' face-down movement cards during the card segment, and the RNG stream that
fixes future dice). A fair bot only reads what its seat may know:
:func:`visible_card_played` returns -1 for another seat's face-down card, and
nothing here exposes the seed. Look-ahead on a copy must first call
``GAME.determinize(copy, player, rng)``.

Seats are game seats (``0..num_players-1``), not rotated. Cells are board cells
``0..NUM_CELLS-1``; a castle or village is one space (its canonical cell).
"""
# jitcache: no compiled code
import numpy as np

from dragongym.envs.core.view import num_players, phase, record, stage, to_play  # noqa: F401 (the game's view)
from . import data as D
from . import rules as R
from .constants import HERO, SNIPER, KNIGHT, MAN_AT_ARMS, UNITS_PER_COLOUR, CASTLE, VILLAGE, COTTAGE
from .state import F_WOUNDED, F_HARRIED, LOC_DEAD

NUM_CELLS = int(D.NUM_CELLS)
UNIT_TYPES = (HERO, SNIPER, KNIGHT, MAN_AT_ARMS)
ATTACK = tuple(int(x) for x in D.UNIT_ATTACK)     # by unit type
DEFENSE = tuple(int(x) for x in D.UNIT_DEFENSE)
CARD_VALUES = tuple(int(x) for x in D.MOVEMENT_CARD_VALUES)
LAIR_CELL = int(D.LAIR_CELL)
_TYPE_OF_INDEX = np.array([HERO] + [SNIPER] * 2 + [KNIGHT] * 12 + [MAN_AT_ARMS] * 24, dtype=np.int8)
_TYPE_OF_INDEX_TUPLE = tuple(int(t) for t in _TYPE_OF_INDEX)
""":data:`_TYPE_OF_INDEX` as Python ints: the bots read one type per call, and a
tuple look-up costs a tenth of a numpy scalar's."""


# ------------------------------------------------------------------ the position
def hand_and_turn(state):
    """``(hand, turn)``: hands started (1-based) and the turn 0..3 within it."""
    r = record(state)
    return int(r["hand"]), int(r["turn"])


def max_hands(state):
    return int(record(state)["max_hands"])


def is_over(state):
    return int(record(state)["status"]) != 0


def legal_actions(state):
    """Legal action indices for the seat to play (``int64`` array)."""
    r = state if getattr(state, "shape", None) == (1,) else np.array([state])
    from .game import CALLS                      # the kernel: no compiled entry point of its own
    mask = np.zeros((1, R.NUM_ACTIONS), dtype=np.int8)
    CALLS.legal_mask(r, mask)
    return np.flatnonzero(mask[0])


def pending(state):
    """Context of the pending decision: dict with ``sel_cell``, ``sel_unit``,
    ``target_cell``, ``mp_left`` (movement points left), ``dice`` (the two
    pending dice), ``casualties`` (attackers still to choose)."""
    r = record(state)
    return {"sel_cell": int(r["sel_cell"]), "sel_unit": int(r["sel_unit"]),
            "target_cell": int(r["target_cell"]), "mp_left": int(r["mp_left"]),
            "dice": (int(r["die0"]), int(r["die1"])), "casualties": int(r["casualties"])}


# ------------------------------------------------------------------ Brimstone
def dragon_cell(state):
    return int(record(state)["dragon_cell"])


def dragon_enraged(state):
    return bool(record(state)["enraged"])


def dragon_asleep(state):
    return int(record(state)["asleep_until"]) >= 0


def wounds(state):
    """Dragon wound markers per seat (``int`` list of length num_players)."""
    r = record(state)
    return [int(r["wounds"][p]) for p in range(int(r["num_players"]))]


def sword(state, seat):
    """``(cell, holder_unit)`` of seat's magesword: cell where it lies unheld
    (-1 if not lying), holder unit index (-1 if not wielded)."""
    r = record(state)
    return int(r["sword_loc"][seat]), int(r["sword_holder"][seat])


def has_sword(state, seat):
    """The seat's magesword has appeared (lying or wielded)."""
    loc, holder = sword(state, seat)
    return loc >= 0 or holder >= 0


# ------------------------------------------------------------------ units
def unit_type(unit):
    """Type (HERO/SNIPER/KNIGHT/MAN_AT_ARMS) of a unit index."""
    return _TYPE_OF_INDEX_TUPLE[int(unit) % UNITS_PER_COLOUR]


def unit_cell(state, unit):
    """Location of a unit: a cell, or a negative ``state.LOC_*`` code."""
    return int(record(state)["unit_loc"][int(unit)])


def unit_wounded(state, unit):
    return bool(int(record(state)["unit_flags"][int(unit)]) & F_WOUNDED)


def unit_harried(state, unit):
    return bool(int(record(state)["unit_flags"][int(unit)]) & F_HARRIED)


def hero(state, seat):
    """The seat's hero unit index."""
    return int(seat) * UNITS_PER_COLOUR


def units(state, seat, unit_type=None, on_board=True):
    """Unit indices of colour ``seat`` (optionally of one type); on the board
    only by default."""
    r = record(state)
    base = int(seat) * UNITS_PER_COLOUR
    locs = r["unit_loc"][base:base + UNITS_PER_COLOUR]
    idx = np.arange(UNITS_PER_COLOUR)
    keep = locs >= 0 if on_board else np.ones(UNITS_PER_COLOUR, dtype=bool)
    if unit_type is not None:
        keep &= _TYPE_OF_INDEX == unit_type
    return (base + idx[keep]).tolist()


def units_by_cell(state, seat):
    """``{cell: [unit, ...]}`` of seat's units on the board."""
    out = {}
    for u in units(state, seat):
        out.setdefault(unit_cell(state, u), []).append(u)
    return out


def dead_count(state, seat):
    r = record(state)
    base = int(seat) * UNITS_PER_COLOUR
    return int((r["unit_loc"][base:base + UNITS_PER_COLOUR] == LOC_DEAD).sum())


def cell_owner(state, cell):
    """Colour of the units on ``cell`` (-1 none; a colour >= num_players is a
    non-player garrison)."""
    r = record(state)
    return int(r["cell_colour"][cell]) if int(r["cell_count"][cell]) > 0 else -1


def cell_count(state, cell):
    """Number of units on ``cell``."""
    return int(record(state)["cell_count"][cell])


def cell_units(state, cell):
    """Unit indices on ``cell``."""
    r = record(state)
    return np.flatnonzero(r["unit_loc"] == int(cell)).tolist()


def strength(state, unit_list, attack=True):
    """Total attack (or defense) strength of some units."""
    table = ATTACK if attack else DEFENSE
    return sum(table[unit_type(u)] for u in unit_list)


# ------------------------------------------------------------------ beings
def beings(state):
    """``[(being, cell), ...]`` of the Fantastic Beings on the board
    (``constants.BEING_NAMES[being]``)."""
    r = record(state)
    return [(int(r["slot_being"][s]), int(r["slot_loc"][s])) for s in range(2)
            if int(r["slot_being"][s]) >= 0 and int(r["slot_loc"][s]) >= 0]


def being_at(state, cell):
    """The being on ``cell`` or -1."""
    for k, c in beings(state):
        if c == int(cell):
            return k
    return -1


# ------------------------------------------------------------------ cards
def cards_in_hand(state, seat):
    """Movement-card indices (0..5, values ``CARD_VALUES``) seat still holds;
    public information (played cards are revealed each turn)."""
    h = int(record(state)["cards_in_hand"][seat])
    return [i for i in range(6) if h >> i & 1]


def visible_card_played(state, seat, observer):
    """Card index seat played this turn as ``observer`` may know it: -1 while it
    lies face down (card segment) unless ``seat == observer``."""
    r = record(state)
    c = int(r["card_played"][seat])
    if int(r["stage"]) == R.ST_CARDS and seat != observer:
        return -1
    return c


# ------------------------------------------------------------------ board
def kingdom(state, seat):
    """Kingdom index of a seat (-1 before it chose)."""
    return int(record(state)["kingdom"][seat])


def home_castle(state, seat):
    k = kingdom(state, seat)
    return int(D.CASTLE_CELL[k]) if k >= 0 else -1


def home_village(state, seat):
    k = kingdom(state, seat)
    return int(D.VILLAGE_CELL[k]) if k >= 0 else -1


def home_cottage(state, seat):
    k = kingdom(state, seat)
    return int(D.COTTAGE_CELL[k]) if k >= 0 else -1


def castle_of_kingdom(k):
    return int(D.CASTLE_CELL[k])


def kingdom_of_cell(cell):
    """Kingdom a cell belongs to (-1 none)."""
    return int(D.KINGDOM[cell])


def terrain(cell):
    """Terrain code (``constants`` OPEN..BEING_LAIR) of a cell."""
    return int(D.TERRAIN[cell])


def is_structure(cell):
    return terrain(cell) in (CASTLE, VILLAGE, COTTAGE)


DISTANCES = D.SPACE_DIST
"""``int16[NC, NC]`` space distances (read-only; do not modify)."""
_DISTANCE_ROWS = D.SPACE_DIST.tolist()
""":data:`DISTANCES` as lists of Python ints: the bots look up distances one
pair at a time, hundreds per decision, and a list look-up costs a fifth of a
numpy scalar's (a negative cell counts from the end in both, as before)."""


def distance(a, b):
    """Fewest hex steps between the spaces of cells ``a`` and ``b``."""
    return _DISTANCE_ROWS[a][b]


def neighbours(cell):
    """Cells adjacent to ``cell``."""
    return [int(D.NEIGHBOURS[cell, i]) for i in range(int(D.NUM_NEIGHBOURS[cell]))]


def cell_name(cell):
    from .game import cell_name as _name
    return _name(cell)
