"""The Random Events Option (L948-L973): only in the two-player games between
Sartar and the Lunar Empire (L950; ``game.DragonPassConfig.random_events``).

The Random Events Segment (``constants.ST_RANDOM_EVENTS``) opens every
game-turn, before its player-turns (L174): two dice, the first the tens and
the second the units (L952), looked up in the Random Events Table
(``data/tables.txt``, ``[table random_events]``) and carried out:

* 11 the initiative shifts: the order of the player-turns is reversed, from
  this game-turn on (Interpretations 140);
* 12 the Dragonewts' offer and 13 Androgeus' alliance need diplomacy: not
  yet implemented, they do nothing for now;
* 14-16 rain for the rest of the game-turn (L466, L960);
* 21-26 a giant at Giants Walk (``giants.giant_arrives``);
* 31 the Glowline does not exist for the rest of the game-turn (``moon``);
* 32 revolt in the Redlands, 33 unrest in the provinces: the Lunar player
  removes three (two) units with a clear path to the north or west (north
  or east) edge of the board, none if fewer qualify (``PH_EVENT_REMOVE``,
  ``clear_paths``; Interpretations 142);
* 34 the South Soldiers: the Sartar player may replace two infantry or
  cavalry units lost so far, entering by the south edge east of Stone Cross
  inclusive in his movement phase (``PH_EVENT_REPLACE``);
* 35 plague in every fortress the Lunar player controls (Interpretations 143);
* 42 the Twin Stars at the Temple of the Reaching Moon (authored, L444,
  SUBSTITUTES.md);
* the rest, no event (authored).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..board import HEX_STEP, NUM_HEXES
from ..constants import (
    LUNAR, NUM_UNITS, OCC_GIANTS, RANK_SUPERHERO, SARTAR, SIDE_BACK, SIDE_FRONT, ST_TURN_START, TAG_DRAGON,
    UNIT_IDS, UNIT_KIND_OF, KINDS, UW_DEAD, UW_ENTERING, UW_MAP, UW_OUT, ENTRY_SARTAR_SOUTH,
)
from ..data import DATA, MAP
from .base import (
    A_CHOICE, A_UNIT, CH_DONE, FORTRESS_HEX, PH_AUCTION, PH_EVENT_REMOVE, PH_EVENT_REPLACE,
    U_FORCE, U_RANK, U_SPIRIT, U_TAGS, d6, force_of, hex_force, killed, pose, put_on_top,
    scan_board, units_end, players,
)
from .giants import giant_arrives
from .alliance import androgeus_to_the_highest, auction_bidder, dragonewts_offer

(EV_NONE, EV_INITIATIVE, EV_DRAGONEWTS_OFFER, EV_ANDROGEUS, EV_RAIN, EV_GIANT, EV_NO_GLOWLINE, EV_REMOVE,
 EV_REPLACE, EV_PLAGUE, EV_TWIN_STARS) = range(11)
"""What a roll of the Random Events Table does (``EVENT_EFFECT``)."""

EDGE_NORTH, EDGE_EAST, EDGE_SOUTH, EDGE_WEST = 1, 2, 4, 8
"""Board edges, bits of ``EVENT_EDGES``."""
_EDGE_BITS = {"north": EDGE_NORTH, "east": EDGE_EAST, "south": EDGE_SOUTH, "west": EDGE_WEST}


def _event_tables():
    effect = np.zeros(67, np.int8)
    count = np.zeros(67, np.int8)
    edges = np.zeros(67, np.int8)
    codes = {"none": EV_NONE, "reverse_turn_order": EV_INITIATIVE, "auction": EV_DRAGONEWTS_OFFER,
             "ally_to_most_dp": EV_ANDROGEUS, "rain": EV_RAIN, "no_glowline": EV_NO_GLOWLINE,
             "remove_units": EV_REMOVE, "replace_units": EV_REPLACE, "plague": EV_PLAGUE}
    for roll, e in DATA.tables.random_events.items():
        if e.effect == "place_unit":
            effect[roll] = {"Giant": EV_GIANT, "Twin Stars": EV_TWIN_STARS}[e.unit]
        else:
            effect[roll] = codes[e.effect]
        count[roll] = e.count or 0
        for name in e.edges:
            edges[roll] |= _EDGE_BITS[name]
    return effect, count, edges


EVENT_EFFECT, EVENT_COUNT, EVENT_EDGES = _event_tables()
"""By roll 11..66: the EV_* code, the units removed or replaced, the edges (EDGE_* bits)."""


def _edge_hexes():
    out = np.zeros(NUM_HEXES, np.int8)
    cols = [int(MAP.ids[h][:2]) for h in range(NUM_HEXES)]
    rows = [int(MAP.ids[h][2:]) for h in range(NUM_HEXES)]
    for h in range(NUM_HEXES):
        if rows[h] == min(rows):
            out[h] |= EDGE_NORTH
        if rows[h] == max(rows):
            out[h] |= EDGE_SOUTH
        if cols[h] == min(cols):
            out[h] |= EDGE_WEST
        if cols[h] == max(cols):
            out[h] |= EDGE_EAST
    return out


HEX_EDGE = _edge_hexes()
"""HEX_EDGE[h]: the board edges (EDGE_* bits) hex h lies on: the first or last row, the first or last column."""

TWIN_STARS = UNIT_IDS.index("twin_stars")
TWIN_STARS_HEX = MAP.hex_index(DATA.tables.random_events[42].hex)
"""Where event 42 places the Twin Stars: the Temple of the Reaching Moon (authored 1108~, SUBSTITUTES.md)."""
U_FOOT_OR_HORSE = np.array([KINDS[UNIT_KIND_OF[u]].arm in ("infantry", "cavalry") for u in range(NUM_UNITS)],
                           np.int8)
"""Infantry or cavalry units: those the South Soldiers replace (L972)."""
PLAGUE_HIT = np.array([0] + [1 if DATA.tables.plague_fortress[r] == "hit" else 0 for r in range(1, 7)], np.int8)
PLAGUE_UNIT = np.array([0] + [{"eliminated": 2, "disrupted": 1, "none": 0}[DATA.tables.plague_unit[r]]
                              for r in range(1, 7)], np.int8)
"""By die roll 1..6: the fortress is hit; the unit is eliminated (2), disrupted (1), spared (0) (L973)."""


@rules_jit
def random_events_due(S, b):
    """The Random Events Segment of the game-turn about to begin is still to be held."""
    s = S[b]
    return s['random_events'] != 0 and s['player_turn'] % players(S, b) == 0 and s['event_turn'] < s['turn']


@rules_jit
def random_events_segment(S, b):
    """The driver's stage function: roll two dice, tens then units (L952), and
    carry the event out. Returns True if a decision is posed (units to remove
    or replace); the player-turns follow (``ST_TURN_START``)."""
    s = S[b]
    if s['event_turn'] < s['turn']:
        s['event_turn'] = s['turn']
        tens = d6(S, b)
        roll = tens * 10 + d6(S, b)
        s['event_roll'] = roll
        s['event_left'] = 0
        ev = EVENT_EFFECT[roll]
        if ev == EV_INITIATIVE:
            s['first_force'] = 1 - s['first_force']
        elif ev == EV_RAIN:
            s['rain'] = 1
            s['event_rain'] = 1
        elif ev == EV_GIANT:
            giant_arrives(S, b)
        elif ev == EV_NO_GLOWLINE:
            s['glowline_failed'] = 1
        elif ev == EV_REMOVE:
            if removable_count(S, b, roll) >= EVENT_COUNT[roll]:
                s['event_left'] = EVENT_COUNT[roll]
        elif ev == EV_REPLACE:
            s['event_left'] = EVENT_COUNT[roll]
        elif ev == EV_PLAGUE:
            plague(S, b)
        elif ev == EV_TWIN_STARS:
            twin_stars_appear(S, b)
        elif ev == EV_DRAGONEWTS_OFFER:
            dragonewts_offer(S, b)          # no offers where no one has Diplomacy Points (L958)
        elif ev == EV_ANDROGEUS:
            androgeus_to_the_highest(S, b)  # nothing assigned, a tie: no alliance (L959)
    roll = int(s['event_roll'])
    if s['event_left'] > 0:
        if EVENT_EFFECT[roll] == EV_DRAGONEWTS_OFFER:
            return pose(S, b, PH_AUCTION, auction_bidder(S, b))
        if EVENT_EFFECT[roll] == EV_REMOVE:
            return pose(S, b, PH_EVENT_REMOVE, LUNAR)
        if replaceable_count(S, b) > 0:
            return pose(S, b, PH_EVENT_REPLACE, SARTAR)
        s['event_left'] = 0
    s['stage'] = ST_TURN_START
    return False


@rules_jit
def events_end_of_turn(S, b):
    """The book-keeping phase: the event's rain and the Glowline's failure
    last for the rest of the game-turn only (L960, L969). A storm's rain
    (L688) goes on falling."""
    s = S[b]
    if s['event_rain']:
        s['event_rain'] = 0
        if s['storm_day'] == 0:
            s['rain'] = 0
    s['glowline_failed'] = 0


# ================================================================ 32, 33: units removed
@rules_jit
def clear_paths(S, b, edges, reach):
    """reach[h] = 1 for every hex from which a Lunar unit has a clear path to
    one of the board edges ``edges`` (EDGE_* bits): a chain of adjacent hexes,
    each after the unit's own holding no unit of Sartar or the giants and in
    no zone of control of theirs, ending on a hex of such an edge (L970-L971,
    Interpretations 142). A unit on such an edge has its path."""
    occ = np.empty(NUM_HEXES, np.int8)
    zoc = np.empty(NUM_HEXES, np.int8)
    scan_board(S, b, occ, zoc)
    queue = np.empty(NUM_HEXES, np.int64)
    open_ = np.zeros(NUM_HEXES, np.int8)
    n = 0
    for h in range(NUM_HEXES):
        reach[h] = 0
        open_[h] = 1 if (occ[h] != SARTAR and occ[h] != OCC_GIANTS and not zoc[h] & (1 << SARTAR)) else 0
        if HEX_EDGE[h] & edges and open_[h]:
            reach[h] = 1
            queue[n] = h
            n += 1
    i = 0
    while i < n:
        h = queue[i]
        i += 1
        for d in range(1, 7):
            g = HEX_STEP[h, d]
            if g >= 0 and open_[g] and not reach[g]:
                reach[g] = 1
                queue[n] = g
                n += 1
    # the unit's own hex need not be open: a neighbour on a clear path (or the edge itself) suffices
    out = np.zeros(NUM_HEXES, np.int8)
    for h in range(NUM_HEXES):
        if reach[h] or (HEX_EDGE[h] & edges and occ[h] == LUNAR):
            out[h] = 1
            continue
        for d in range(1, 7):
            g = HEX_STEP[h, d]
            if g >= 0 and reach[g]:
                out[h] = 1
                break
    for h in range(NUM_HEXES):
        reach[h] = out[h]


@rules_jit
def may_remove(S, b, u, reach):
    s = S[b]
    return s['unit_where'][u] == UW_MAP and force_of(S, b, u) == LUNAR and reach[s['unit_hex'][u]] != 0


@rules_jit
def removable_count(S, b, roll):
    reach = np.empty(NUM_HEXES, np.int8)
    clear_paths(S, b, EVENT_EDGES[roll], reach)
    n = 0
    for u in range(units_end(S, b)):
        if may_remove(S, b, u, reach):
            n += 1
    return n


@rules_jit
def mask_event_remove(S, b, p, mask):
    reach = np.empty(NUM_HEXES, np.int8)
    clear_paths(S, b, EVENT_EDGES[int(S[b]['event_roll'])], reach)
    for u in range(units_end(S, b)):
        if may_remove(S, b, u, reach):
            mask[A_UNIT + u] = 1


@rules_jit
def act_event_remove(S, b, p, a):
    """Unit a leaves the game: it goes home to the Empire, out of play for
    good -- not eliminated (Interpretations 142)."""
    s = S[b]
    u = a - A_UNIT
    s['unit_where'][u] = UW_OUT
    s['unit_hex'][u] = -1
    s['unit_flags'][u] = 0
    s['event_left'] -= 1
    if s['event_left'] > 0 and removable_count(S, b, int(s['event_roll'])) == 0:
        s['event_left'] = 0
    return False


# ================================================================ 34: the South Soldiers
@rules_jit
def may_replace(S, b, u):
    """A Sartar infantry or cavalry unit lost so far (in the dead pile) (L972)."""
    s = S[b]
    return s['unit_where'][u] == UW_DEAD and U_FORCE[u] == SARTAR and U_FOOT_OR_HORSE[u] != 0


@rules_jit
def replaceable_count(S, b):
    n = 0
    for u in range(units_end(S, b)):
        if may_replace(S, b, u):
            n += 1
    return n


@rules_jit
def mask_event_replace(S, b, p, mask):
    for u in range(units_end(S, b)):
        if may_replace(S, b, u):
            mask[A_UNIT + u] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_event_replace(S, b, p, a):
    """Unit a is replaced: off the board, front side up, to enter by the
    south edge east of Stone Cross inclusive in the Sartar movement phase
    (``ENTRY_SARTAR_SOUTH``, L474, L972). ``CH_DONE``: no more."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        s['event_left'] = 0
        return False
    u = a - A_UNIT
    s['unit_where'][u] = UW_ENTERING
    s['unit_hex'][u] = -1
    s['unit_side'][u] = SIDE_FRONT
    s['unit_entry'][u] = ENTRY_SARTAR_SOUTH
    s['unit_force'][u] = SARTAR
    s['event_left'] -= 1
    return False


# ================================================================ 35: plague
@rules_jit
def plague_spares(S, b, u):
    """Treasures (none in Dragon Pass), superheroes, dragons and disembodied
    spirits roll no plague die (L973)."""
    return U_RANK[u] == RANK_SUPERHERO or U_TAGS[u] & TAG_DRAGON != 0 or U_SPIRIT[u, int(S[b]['unit_side'][u])] != 0


@rules_jit
def plague(S, b):
    """Each fortress the Lunar player controls rolls a die; on a 1 every unit
    there the plague does not spare rolls: 1-2 eliminated (to the dead pile,
    no heroic escape), 3-4 disrupted (L973, Interpretations 143)."""
    s = S[b]
    for k in range(FORTRESS_HEX.shape[0]):
        if s['fortress_owner'][k] != LUNAR:
            continue
        if not PLAGUE_HIT[d6(S, b)]:
            continue
        h = FORTRESS_HEX[k]
        for u in range(units_end(S, b)):
            if s['unit_where'][u] != UW_MAP or s['unit_hex'][u] != h or plague_spares(S, b, u):
                continue
            r = PLAGUE_UNIT[d6(S, b)]
            if r == 2:
                killed(S, b, u)
            elif r == 1:
                s['unit_side'][u] = SIDE_BACK
                s['unit_disrupted_at'][u] = s['player_turn']


# ================================================================ 42: the Twin Stars
@rules_jit
def twin_stars_appear(S, b):
    """Event 42 (L444): the Twin Stars appear as a Lunar unit at the Temple of
    the Reaching Moon (authored, SUBSTITUTES.md) -- nothing if they are on
    the board; after their elimination only while the Temple is Lunar
    controlled -- no enemy unit has entered it since the game began; and
    not while enemy units hold the Temple (Interpretations 144)."""
    s = S[b]
    u = TWIN_STARS
    w = s['unit_where'][u]
    if w != UW_OUT and w != UW_DEAD:
        return
    h = TWIN_STARS_HEX
    held = hex_force(S, b, h)
    if held >= 0 and held != LUNAR:
        return
    # the Temple is Lunar controlled while no enemy unit has entered it (the
    # Glowline's fall, L143) -- the Temple is no fortress (Interpretations 144)
    if w == UW_DEAD and s['glowline_gone']:
        return
    s['unit_force'][u] = LUNAR
    s['unit_side'][u] = SIDE_FRONT
    if s['units_end'] < u + 1:
        s['units_end'] = u + 1
    put_on_top(S, b, u, h)
