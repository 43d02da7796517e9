"""Dragonhunt's shared pieces: the data tables, the action layout and decision
codes, dice, seats, and the bookkeeping of every counter (units, Fantastic
Beings in their lairs and pile, mageswords and markers).

Every function takes the batch ``S`` and the game index ``b`` and mutates
``S[b]`` in place (DESIGN.md pitfalls 1 and 4). Module-level numpy arrays are
frozen into the compiled code as constants: the sections import them from here
so that each is built once.
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit

from dragongym.envs.core.rng import roll  # noqa: F401  (the game's dice go through it)
from .. import data as D
from ..constants import (
    BEING_LAIR, CASTLE, COMBAT_TABLE_MAX_TOTAL, COTTAGE, COUNT_OF_TYPE, DEMON, DRAGON_LAIR,
    FIRST_OF_TYPE, FOREST, HERO, KNIGHT, MAN_AT_ARMS, MAX_PLAYERS, MOUNTAIN, NUM_BEINGS, NUM_UNITS,
    OPEN, PARALYZER, SNIPER, SWAMP, TROLL, UNITS_PER_COLOUR, VILLAGE,
)
from ..state import F_DEMON_KILL, F_HARRIED, F_IN_FORCE, F_WOUNDED, LOC_DEAD, LOC_OUT, LOC_RESERVE


# ---------------------------------------------------------------- board data
NC = D.NUM_CELLS
STEP = D.STEP
TERRAIN = D.TERRAIN
KINGDOM = D.KINGDOM
SPACE = D.SPACE
SPACE_ADJ = D.SPACE_ADJ
HEXSIDES = D.HEXSIDES
SPACE_DIST = D.SPACE_DIST
NEIGHBOURS = D.NEIGHBOURS
NUM_NEIGHBOURS = D.NUM_NEIGHBOURS
CASTLE_CELL = D.CASTLE_CELL
VILLAGE_CELL = D.VILLAGE_CELL
COTTAGE_CELL = D.COTTAGE_CELL
LAIR_CELL = int(D.LAIR_CELL)
BEING_LAIR_CELL = D.BEING_LAIR_CELL
MOVE_COST = D.MOVE_COST
DEFENSE = D.DEFENSE
CARD_VALUES = D.MOVEMENT_CARD_VALUES
UNIT_ATTACK = D.UNIT_ATTACK
UNIT_DEFENSE = D.UNIT_DEFENSE
SNIPE_STRENGTH = int(D.SNIPE_STRENGTH)
BEING_MOVE = D.BEING_MOVE
BEING_FLIES = D.BEING_FLIES
BEING_ATTACK = D.BEING_ATTACK
BEING_DEFENSE = D.BEING_DEFENSE
COMBAT_TABLE = D.COMBAT_TABLE
DECK = D.DECK
MAGESWORD_PLUS = D.MAGESWORD_PLUS
IS_STRUCTURE = ((TERRAIN == CASTLE) | (TERRAIN == VILLAGE) | (TERRAIN == COTTAGE)).astype(np.int8)
IS_FORT = ((TERRAIN == CASTLE) | (TERRAIN == VILLAGE)).astype(np.int8)   # castle or village
IS_FIELD = ((TERRAIN == OPEN) | (TERRAIN == FOREST) | (TERRAIN == MOUNTAIN) | (TERRAIN == SWAMP)).astype(np.int8)


def _placement_table():
    """PLACE_OK[k, c]: the static part of 3.41-3.45 for the owner of kingdom k.

    Open/forest/mountain/swamp only (3.41, 3.43); not adjacent to the three
    lairs (3.45); not adjacent to a castle, village or cottage of another
    kingdom (3.44 reads "adjacent to an ENEMY unit, castle, village or
    cottage": one's own structures are not enemy ones).
    """
    ok = np.zeros((6, NC), dtype=np.int8)
    for k in range(6):
        for c in range(NC):
            if not IS_FIELD[c] or SPACE[c] != c:
                continue
            bad = False
            for c2 in range(NC):
                if SPACE_ADJ[c, c2]:
                    t = TERRAIN[c2]
                    if t == DRAGON_LAIR or t == BEING_LAIR:
                        bad = True
                    if IS_STRUCTURE[c2] and KINGDOM[c2] != k:
                        bad = True
            ok[k, c] = 0 if bad else 1
    return ok


PLACE_OK = _placement_table()

# unit index -> type / colour
UNIT_TYPE = np.zeros(NUM_UNITS, dtype=np.int8)
UNIT_COLOUR = np.zeros(NUM_UNITS, dtype=np.int8)
for _u in range(NUM_UNITS):
    _i = _u % UNITS_PER_COLOUR
    UNIT_COLOUR[_u] = _u // UNITS_PER_COLOUR
    UNIT_TYPE[_u] = HERO if _i == 0 else (SNIPER if _i < 3 else (KNIGHT if _i < 15 else MAN_AT_ARMS))

# ---------------------------------------------------------------- action layout
A_CELLS = 0
A_DONE = NC                  # pass / done / end this segment
A_DIE0 = NC + 1              # choose the first die (7.11, 8.21)
A_DIE1 = NC + 2
A_CARD0 = NC + 3             # play movement card i (9.11): A_CARD0 + i, i = 0..5
A_TYPE0 = NC + 9             # unit type t (HERO, SNIPER, KNIGHT, MAN_AT_ARMS): A_TYPE0 + t
A_SNIPE = NC + 13            # a sniper's snipe attack (9.64)
A_CHARM0 = NC + 14           # Dragon Charmer: k spaces toward (k=1..3: A_CHARM0+k-1) / away (A_CHARM0+2+k)
A_WIELDER = NC + 20          # the knight wielding the magesword, where other knights share his space
NUM_ACTIONS = NC + 21
WIELDER = 4                  # choice code of A_WIELDER beside the unit types 0..3

# ---------------------------------------------------------------- stages / phases
ST_SETUP_KINGDOM, ST_SETUP_PLACE, ST_BRIMSTONE, ST_BEING_FIRST, ST_BEING_SECOND, \
    ST_CARDS, ST_PLAYER, ST_GROWTH_REPL, ST_GROWTH_PLACE, ST_OVER = range(10)
PH_NONE = 0
PH_KINGDOM = 1        # cell: castle of the kingdom chosen (3.1)
PH_PLACE = 2          # cell: set-up / reinforcement placement (3.3, 12.5); posed only when one is legal
PH_DRAGON_DIE = 3     # DIE0/DIE1: direction of Brimstone's normal move (7.11)
PH_BEING_SELECT = 4   # cell of the Fantastic Being to use (8.1)
PH_BEING_MOVE = 5     # destination cell of the controlled being (its own cell = stay); DONE = off the board (8.332)
PH_BEING_TARGET = 6   # cell the being's power or attack is aimed at; DONE = none
PH_BANISH_DEST = 7    # empty cell the Banisher sends the loser to (15.611)
PH_EAGLE_DEST = 8     # cell the Eagle carries the unit to (15.662)
PH_EAGLE_LAND = 9     # cell the Eagle itself lands on (15.6641)
PH_CHARM = 10         # CHARM actions / DONE (15.65)
PH_REVIVE_TYPE = 11   # TYPE actions / DONE (15.68)
PH_REVIVE_CELL = 12
PH_TELEPORT_DEST = 13 # cell next to the Teleporter (15.69)
PH_SECOND_DIE = 14    # DIE0/DIE1: direction of the second being (8.21)
PH_CARD = 15          # CARD actions (9.11)
PH_MOVE_SELECT = 16   # cell with a unit to move / DONE ends the movement segment (9.3)
PH_MOVE_TYPE = 17     # TYPE of the unit to move from a structure
PH_MOVE_DEST = 18     # destination cell (9.312)
PH_COMBAT_SELECT = 19 # cell with the attacking unit / DONE ends the combat segment (9.4)
PH_COMBAT_TYPE = 20   # TYPE or SNIPE
PH_COMBAT_TARGET = 21 # cell attacked
PH_SNIPE_TYPE = 22    # TYPE of the defender the sniper fires at (9.6421)
PH_DEFENDER = 23      # TYPE of the unit that defends a castle/village (9.61, defender decides)
PH_OCCUPY = 24        # cell of an adjacent attacker that moves into the won structure / DONE (9.612)
PH_DRAGON_FORCE = 25  # cell of a unit joining the attack on Brimstone / DONE attacks (9.8)
PH_FORCE_TYPE = 26    # TYPE joining from a structure (9.86)
PH_CASUALTY = 27      # cell of the attacker that falls (7.645)
PH_CARD_STRUCT = 28   # cell of the structure a dragon card sends him to (7.62, 7.631)
PH_FIVE_MOVE = 29     # cell next to Brimstone for the five-space move (7.62)
PH_REPL_VILLAGE = 30  # cell of the controlled village receiving a replacement (12.33)
PH_TELEPORT_UNIT = 31 # cell of the own unit to teleport / DONE; then TYPE if that cell holds several (sel_cell set)

# being-power sub-stage codes kept in ``being_step`` during ST_BEING_FIRST and ST_BEING_SECOND
BP_SELECT, BP_MOVE, BP_POWER, BP_SECOND_MOVE, BP_SECOND_POWER, BP_DONE = range(6)

# Player's-round segments kept in ``segment`` during ST_PLAYER (9.2)
SEG_START, SEG_MOVE, SEG_COMBAT, SEG_DRAGON, SEG_END, SEG_RESOLVE = range(6)

# what follows casualty choices in the dragon attack segment
AC_END, AC_DO_OR_DIE, AC_STRIKE_CASTLE = 0, 1, 2


# the decision the rules wait for
@rules_jit
def pose(S, b, phase, player):
    """Ask seat ``player`` for a decision of kind ``phase``; always returns True."""
    s = S[b]
    s['phase'] = phase
    s['to_play'] = player
    return True


# ================================================================ randomness
@rules_jit
def d6(S, b):
    """One six-sided die."""
    return roll(S, b, 6) + 1


@rules_jit
def table_result(column, total):
    """Brimstone combat table lookup (totals clamped to the printed range)."""
    t = total
    if t < 0:
        t = 0
    if t > COMBAT_TABLE_MAX_TOTAL:
        t = COMBAT_TABLE_MAX_TOTAL
    return int(COMBAT_TABLE[column, t])


# ================================================================ seats
@rules_jit
def left_of(S, b, p):
    """The seat to the LEFT of p (seats count up to the left; 2.3, 7.511)."""
    return (p + 1) % int(S[b]['num_players'])


@rules_jit
def right_of(S, b, p):
    """The seat to the RIGHT of p (6.1)."""
    n = int(S[b]['num_players'])
    return (p - 1 + n) % n


@rules_jit
def current_player(S, b):
    s = S[b]
    return int(s['round_order'][s['order_pos']])


# ================================================================ units and cells
@rules_jit
def unit_base(colour):
    """Index of colour's hero; its 39 counters follow (see constants)."""
    return int(colour) * UNITS_PER_COLOUR


@rules_jit
def is_player_colour(S, b, c):
    return c >= 0 and c < int(S[b]['num_players'])


@rules_jit
def clear_flags(S, b, u, flags):
    """Clear the ``flags`` bits of unit u (uint8-safe in JIT and Python)."""
    s = S[b]
    s['unit_flags'][u] = int(s['unit_flags'][u]) & (0xFF ^ flags)


@rules_jit
def set_loc(S, b, u, loc):
    """Move unit u to ``loc`` keeping the per-cell occupancy caches exact."""
    s = S[b]
    old = int(s['unit_loc'][u])
    if old >= 0:
        s['cell_count'][old] -= 1
        if s['cell_count'][old] == 0:
            s['cell_colour'][old] = -1
    s['unit_loc'][u] = loc
    if loc >= 0:
        s['cell_count'][loc] += 1
        s['cell_colour'][loc] = UNIT_COLOUR[u]
        check_pickups(S, b, int(UNIT_COLOUR[u]))


@rules_jit
def being_at(S, b, cell):
    """Lair slot (0/1) of the being on ``cell``, or -1."""
    s = S[b]
    for k in range(2):
        if s['slot_being'][k] >= 0 and s['slot_loc'][k] == cell:
            return k
    return -1


@rules_jit
def counter_at(S, b, cell):
    """True if any unit, being or the dragon is on ``cell``."""
    s = S[b]
    return s['cell_count'][cell] > 0 or being_at(S, b, cell) >= 0 or s['dragon_cell'] == cell


@rules_jit
def is_vacant_field(S, b, cell):
    """An empty non-structure space (for placements, banishment, revival, eagle)."""
    return SPACE[cell] == cell and IS_STRUCTURE[cell] == 0 and not counter_at(S, b, cell)


@rules_jit
def units_on(S, b, cell, out):
    """Write the units on ``cell`` into ``out``; return their count."""
    s = S[b]
    n = 0
    if s['cell_count'][cell] == 0:
        return 0
    col = int(s['cell_colour'][cell])
    base = unit_base(col)
    for i in range(UNITS_PER_COLOUR):
        if s['unit_loc'][base + i] == cell:
            out[n] = base + i
            n += 1
    return n


@rules_jit
def unit_of_type_on(S, b, cell, t, flags_forbidden):
    """A unit of type t on ``cell`` (skipping units with any of ``flags_forbidden``), or -1.

    Knights that do not wield a sword are preferred, so a type choice never
    hands over the sword by accident.
    """
    s = S[b]
    if s['cell_count'][cell] == 0:
        return -1
    col = int(s['cell_colour'][cell])
    base = unit_base(col)
    best = -1
    for i in range(UNITS_PER_COLOUR):
        u = base + i
        if s['unit_loc'][u] == cell and UNIT_TYPE[u] == t and (s['unit_flags'][u] & flags_forbidden) == 0:
            if col < MAX_PLAYERS and s['sword_holder'][col] == u:
                if best < 0:
                    best = u
            else:
                return u
    return best


@rules_jit
def wielder_option(S, b, cell, flags_forbidden):
    """The sword-wielding knight on ``cell`` when other knights share the space
    (so "a knight" would not name him), or -1. Offered as A_WIELDER."""
    s = S[b]
    if s['cell_count'][cell] == 0:
        return -1
    col = int(s['cell_colour'][cell])
    if col >= MAX_PLAYERS:
        return -1
    h = int(s['sword_holder'][col])
    if h < 0 or s['unit_loc'][h] != cell or UNIT_TYPE[h] != KNIGHT or (s['unit_flags'][h] & flags_forbidden):
        return -1
    base = unit_base(col)
    for i in range(3, 15):
        u = base + i
        if u != h and s['unit_loc'][u] == cell and (s['unit_flags'][u] & flags_forbidden) == 0:
            return h
    return -1


@rules_jit
def unit_choice(S, b, cell, code, flags_forbidden):
    """The unit named by a type choice (0..3) or WIELDER on ``cell``."""
    if code == WIELDER:
        return wielder_option(S, b, cell, flags_forbidden)
    return unit_of_type_on(S, b, cell, code, flags_forbidden)


@rules_jit
def choice_action(code):
    return A_WIELDER if code == WIELDER else A_TYPE0 + code


@rules_jit
def action_choice(a):
    return WIELDER if a == A_WIELDER else a - A_TYPE0


@rules_jit
def home_castle(S, b, p):
    return int(CASTLE_CELL[S[b]['kingdom'][p]])


@rules_jit
def home_village(S, b, p):
    return int(VILLAGE_CELL[S[b]['kingdom'][p]])


@rules_jit
def home_cottage(S, b, p):
    return int(COTTAGE_CELL[S[b]['kingdom'][p]])


@rules_jit
def controls(S, b, p, cell):
    """Seat p occupies the structure on ``cell`` (12.33: control = occupy)."""
    s = S[b]
    return s['cell_count'][cell] > 0 and s['cell_colour'][cell] == p


@rules_jit
def is_paralyzed(S, b, u):
    """15.67: next to the Paralyzer, outside castle/village/cottage, not wielding a sword."""
    s = S[b]
    loc = int(s['unit_loc'][u])
    if loc < 0 or IS_STRUCTURE[loc]:
        return False
    col = int(UNIT_COLOUR[u])
    if col < MAX_PLAYERS and s['sword_holder'][col] == u:
        return False
    for k in range(2):
        if s['slot_being'][k] == PARALYZER and s['slot_loc'][k] >= 0:
            if SPACE_ADJ[loc, s['slot_loc'][k]]:
                return True
    return False


@rules_jit
def unit_defense(S, b, u, vs_dragon):
    """Defence total without the die: strength + terrain (9.7), harried -2 (15.665),
    sword +2 against units and beings (13.4; not against Brimstone, 14.42)."""
    s = S[b]
    loc = int(s['unit_loc'][u])
    v = int(UNIT_DEFENSE[UNIT_TYPE[u]]) + int(DEFENSE[loc])
    if s['unit_flags'][u] & F_HARRIED:
        v -= 2
    col = int(UNIT_COLOUR[u])
    if not vs_dragon and col < MAX_PLAYERS and s['sword_holder'][col] == u:
        v += 2
    return v


@rules_jit
def can_move(S, b, u):
    """A unit may spend movement points: on the board, healed (9.5), not harried
    (15.665), not paralyzed (15.67)."""
    s = S[b]
    if s['unit_loc'][u] < 0:
        return False
    if s['unit_flags'][u] & (F_WOUNDED | F_HARRIED):
        return False
    return not is_paralyzed(S, b, u)


@rules_jit
def force_size(S, b, p):
    s = S[b]
    n = 0
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        if s['unit_flags'][base + i] & F_IN_FORCE:
            n += 1
    return n


FIRST_INDEX = np.array(FIRST_OF_TYPE, dtype=np.int64)   # type -> first index inside a colour
TYPE_COUNT = np.array(COUNT_OF_TYPE, dtype=np.int64)    # type -> counters of that type


@rules_jit
def unit_at(S, b, p, t, loc):
    """The first counter of seat p and type t whose location is ``loc`` (a cell
    or a LOC_* code), or -1."""
    s = S[b]
    first = unit_base(p) + FIRST_INDEX[t]
    for u in range(first, first + TYPE_COUNT[t]):
        if s['unit_loc'][u] == loc:
            return u
    return -1


@rules_jit
def units_at(S, b, p, t, loc):
    """How many counters of seat p and type t are at ``loc``."""
    s = S[b]
    first = unit_base(p) + FIRST_INDEX[t]
    n = 0
    for u in range(first, first + TYPE_COUNT[t]):
        if s['unit_loc'][u] == loc:
            n += 1
    return n


@rules_jit
def reserve_unit(S, b, p, t):
    """A counter of seat p and type t never yet in play (12.411), or -1."""
    return unit_at(S, b, p, t, LOC_RESERVE)


@rules_jit
def dead_unit(S, b, p, t):
    """A counter of seat p and type t in the dead pile (12.3), or -1."""
    return unit_at(S, b, p, t, LOC_DEAD)


@rules_jit
def count_dead(S, b, p, t):
    return units_at(S, b, p, t, LOC_DEAD)


# ================================================================ magesword (13) and markers (15.635)
@rules_jit
def sword_home(S, b, p):
    """Where a materialising or returning sword lies: the home castle if p
    controls it, else the home cottage (13.11, 13.31)."""
    c = home_castle(S, b, p)
    if controls(S, b, p, c):
        return c
    return home_cottage(S, b, p)


@rules_jit
def check_pickups(S, b, p):
    """The hero (or, with the hero dead, a knight) takes up a sword lying where
    he stands (13.2, 13.21, 13.3); the wielder picks up the magical defense
    markers in the home cottage on the way (15.635)."""
    s = S[b]
    if p >= int(s['num_players']):
        return
    loc = int(s['sword_loc'][p])
    if loc >= 0 and s['sword_holder'][p] < 0:
        base = unit_base(p)
        hero = base
        if s['unit_loc'][hero] == loc and (s['unit_flags'][hero] & F_WOUNDED) == 0:
            s['sword_holder'][p] = hero
            s['sword_loc'][p] = -1
        elif s['unit_loc'][hero] < 0:
            for i in range(3, 15):
                if s['unit_loc'][base + i] == loc and (s['unit_flags'][base + i] & F_WOUNDED) == 0:
                    s['sword_holder'][p] = base + i
                    s['sword_loc'][p] = -1
                    break
    h = int(s['sword_holder'][p])
    if h >= 0 and s['md_cottage'][p] > 0 and s['unit_loc'][h] == home_cottage(S, b, p):
        if s['md_holder'][p] != h:
            s['md_carried'][p] = 0
        s['md_holder'][p] = h
        s['md_carried'][p] += s['md_cottage'][p]
        s['md_cottage'][p] = 0


@rules_jit
def materialise_sword(S, b, p):
    """13.1: three wounds earned -> the sword appears at home."""
    s = S[b]
    s['sword_loc'][p] = sword_home(S, b, p)
    check_pickups(S, b, p)


@rules_jit
def unit_leaves_play(S, b, u, loc):
    """Bookkeeping when unit u is killed: the sword returns home (13.3) and
    the magical defense markers it carried are lost (14.43). With the hero
    dead, a knight standing where the unheld sword lies takes it up at once
    (13.2, 13.21)."""
    s = S[b]
    p = int(UNIT_COLOUR[u])
    set_loc(S, b, u, loc)
    s['unit_flags'][u] = 0          # a new death: kill_unit marks the Demon's victims (15.682)
    if p < int(s['num_players']):
        if s['md_holder'][p] == u:
            s['md_holder'][p] = -1
            s['md_carried'][p] = 0
        if s['sword_holder'][p] == u:
            s['sword_holder'][p] = -1
            s['sword_loc'][p] = sword_home(S, b, p)
        check_pickups(S, b, p)


@rules_jit
def kill_unit(S, b, u, by_demon):
    """A unit dies: to its dead pile; the Demon's victims except the Hero are out
    of play for good (15.63); the Hero it kills goes to the dead pile, to come
    back as a replacement (15.631), but is marked so the Revivor cannot raise
    him (15.682); non-player counters never come back."""
    s = S[b]
    p = int(UNIT_COLOUR[u])
    if p >= int(s['num_players']):
        unit_leaves_play(S, b, u, LOC_OUT)
    elif by_demon:
        unit_leaves_play(S, b, u, LOC_DEAD if UNIT_TYPE[u] == HERO else LOC_OUT)
        s['unit_flags'][u] = F_DEMON_KILL
    else:
        unit_leaves_play(S, b, u, LOC_DEAD)


@rules_jit
def wound_unit(S, b, u):
    """A unit is wounded: straight to its home cottage to heal (9.5, 9.613);
    killed instead if that cottage is flamed (9.52); a wounded non-player
    counter is out of play (9.614)."""
    s = S[b]
    p = int(UNIT_COLOUR[u])
    if p >= int(s['num_players']):
        unit_leaves_play(S, b, u, LOC_OUT)
        return
    k = int(s['kingdom'][p])
    if s['flamed'][k]:
        kill_unit(S, b, u, False)
        return
    set_loc(S, b, u, home_cottage(S, b, p))
    s['unit_flags'][u] = (s['unit_flags'][u] & F_HARRIED) | F_WOUNDED


@rules_jit
def sniper_flees(S, b, u):
    """9.645: a sniper that survives an attack by a being or Brimstone flees to its
    home village (if that village is empty or its own; otherwise it stays)."""
    s = S[b]
    if UNIT_TYPE[u] != SNIPER or s['unit_loc'][u] < 0:
        return
    p = int(UNIT_COLOUR[u])
    if p >= int(s['num_players']):
        return
    v = home_village(S, b, p)
    if s['cell_count'][v] == 0 or s['cell_colour'][v] == p:
        set_loc(S, b, u, v)


# ================================================================ Fantastic Beings: pile, lairs
@rules_jit
def being_off_board(S, b, slot, for_good):
    """Take the being of ``slot`` off the board: face down into the pile, or out of
    the game for good (the slain Demon, 15.634). The lair waits for a redraw."""
    s = S[b]
    k = int(s['slot_being'][slot])
    if not for_good:
        s['being_pile'] = int(s['being_pile']) | (1 << k)
    s['slot_being'][slot] = -1
    s['slot_loc'][slot] = -1


@rules_jit
def settle_in_lair(S, b, slot):
    """Put the being of ``slot`` in its lair. Units found there are ambushed and
    killed, and so is another being (9.511), which goes to the pile (the caller
    refills its lair). The Demon dies to nothing but the Hero or Brimstone: an
    ambush that would kill it wounds it instead and it goes home to its own
    lair (15.632, 15.633), ambushing the units it finds there, or dying for good
    if Brimstone sits there (9.511, 15.634). Two beings never share a space.
    A newly drawn being laid where Brimstone sits stays beside him (he attacks
    only where he lands, 7.44)."""
    s = S[b]
    lair = int(BEING_LAIR_CELL[slot])
    other = 1 - slot
    units = np.empty(UNITS_PER_COLOUR, dtype=np.int16)
    if s['slot_being'][other] >= 0 and s['slot_loc'][other] == lair:
        if s['slot_being'][other] != DEMON:
            being_off_board(S, b, other, False)
        else:
            home = int(BEING_LAIR_CELL[other])
            if s['dragon_cell'] == home:
                being_off_board(S, b, other, True)
            else:
                n = units_on(S, b, home, units)
                for i in range(n):
                    kill_unit(S, b, int(units[i]), False)
                s['slot_loc'][other] = home
    n = units_on(S, b, lair, units)
    for i in range(n):
        kill_unit(S, b, int(units[i]), False)
    s['slot_loc'][slot] = lair


@rules_jit
def refill_lairs(S, b):
    """Every empty lair gets a being drawn at random from the face-down pile (1.2,
    7.513, 8.331, 15.4; the drawn one may be the one just put back)."""
    s = S[b]
    for _ in range(4):
        changed = False
        for slot in range(2):
            if s['slot_being'][slot] >= 0:
                continue
            pile = int(s['being_pile'])
            n = 0
            for k in range(NUM_BEINGS):
                if pile & (1 << k):
                    n += 1
            if n == 0:
                continue
            r = roll(S, b, n)
            for k in range(NUM_BEINGS):
                if pile & (1 << k):
                    if r == 0:
                        s['being_pile'] = pile & (0xFFFF ^ (1 << k))
                        s['slot_being'][slot] = k
                        settle_in_lair(S, b, slot)
                        changed = True
                        break
                    r -= 1
        if not changed:
            return


@rules_jit
def being_to_pile(S, b, slot):
    """The being leaves the board face down into the pile; a new one is drawn
    for its lair (8.33, 8.331)."""
    being_off_board(S, b, slot, False)
    refill_lairs(S, b)


@rules_jit
def being_to_lair(S, b, slot):
    """The being returns to its lair (8.321, 9.51, 15.13). A counter found there
    is ambushed and killed; if it is Brimstone, the being dies (9.511)."""
    s = S[b]
    if s['dragon_cell'] == BEING_LAIR_CELL[slot]:
        being_off_board(S, b, slot, s['slot_being'][slot] == DEMON)
        refill_lairs(S, b)
        return
    settle_in_lair(S, b, slot)
    refill_lairs(S, b)


@rules_jit
def being_killed(S, b, slot, by_hero_or_dragon, killer_player):
    """A being is killed (7.513, 15.4): into the pile, and a new one drawn. The
    Demon dies only to the Hero or Brimstone and then leaves the game for good,
    its slayer earning two magical defense markers (15.632-15.635); any other
    killer only wounds it and it goes home (15.633)."""
    s = S[b]
    k = int(s['slot_being'][slot])
    if k == DEMON:
        if not by_hero_or_dragon:
            being_to_lair(S, b, slot)
            return
        being_off_board(S, b, slot, True)
        if killer_player >= 0:
            s['md_cottage'][killer_player] += 2
            check_pickups(S, b, killer_player)
        refill_lairs(S, b)
        return
    being_off_board(S, b, slot, False)
    refill_lairs(S, b)


@rules_jit
def being_wounded(S, b, slot):
    """Wounded beings go home to their lair (9.51, 7.514); the Demon and the Troll
    shrug off wounds (15.632, 15.6011)."""
    k = int(S[b]['slot_being'][slot])
    if k == DEMON or k == TROLL:
        return
    being_to_lair(S, b, slot)
