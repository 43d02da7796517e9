"""The Dragonhunt rules core: scalar per-game functions compiled with numba.

Every function takes the batch ``S`` and the game index ``b`` and mutates
``S[b]`` in place (DESIGN.md pitfalls 1 and 4). Under ``NUMBA_DISABLE_JIT=1``
the same code runs as plain Python and must give the same bytes.

Flow: ``advance`` runs forced and chance-only transitions until some seat must
decide; it then sets ``phase`` (the pending decision, ``PH_*``) and
``to_play``. ``apply_action`` checks an action against ``fill_mask``, applies
it, and calls ``advance`` again. The macro position in the sequence of play
(5) is ``stage`` (``ST_*``).

Rule numbers in comments and docstrings refer to the rulebook
(``shared/rules/dragonhunt.txt``); ``envs/dragonhunt/RULES.md`` maps each rule
to its function here and to its test.
"""
import numpy as np
from numba import njit

from dragongym.envs.core.rng import draw_below
from . import data as D
from .constants import (
    MAX_PLAYERS, UNITS_PER_COLOUR, NUM_UNITS, FIRST_OF_TYPE, COUNT_OF_TYPE, HERO, SNIPER, KNIGHT, MAN_AT_ARMS,
    OPEN, FOREST, MOUNTAIN, SWAMP, CASTLE, VILLAGE, COTTAGE, DRAGON_LAIR, BEING_LAIR,
    BANISHER, BERSERKER, DEMON, DISPERSER, DRAGON_CHARMER, EAGLE, PARALYZER, REVIVOR,
    TELEPORTER, TROLL, NUM_BEINGS,
    R_ALL_KILLED, R_ALL_WOUNDED, R_ONE_KILLED, R_ONE_WOUNDED, R_ONE_KILLED_ATTACKS_CASTLE,
    R_ONE_WOUNDED_ATTACKS_CASTLE, R_THREE_KILLED, R_TWO_KILLED, R_DRAW_CARD,
    R_DRAGON_WOUNDED, R_DEFENDER_KILLED, R_DEFENDER_WOUNDED, R_OCCUPANTS_DIE_1,
    COL_FIRST_WOUND, COL_LATER_WOUND, COL_SINGLE_PIECE, COL_STRUCTURE, COL_DO_OR_DIE,
    COMBAT_TABLE_MAX_TOTAL,
    CARD_DO_OR_DIE, CARD_ATTACKS_CASTLE_OF_CHOICE, CARD_ATTACKS_VILLAGE_OF_CHOICE,
    CARD_ATTACKS_COTTAGE_OF_CHOICE, CARD_MOVES_FIVE_OF_CHOICE, CARD_ATTACKS_YOUR_CASTLE,
    CARD_ATTACKS_YOUR_VILLAGE, CARD_ATTACKS_YOUR_COTTAGE, CARD_KILLS_ADJACENT,
    CARD_WOUNDS_ADJACENT, CARD_KILLS_WITHIN_TWO, CARD_WOUNDS_WITHIN_TWO,
    CARD_KILLS_ATTACKING_FORCE, CARD_WOUNDS_ATTACKING_FORCE, CARD_KILLS_TWO,
    CARD_FLIES_SIX_RANDOM, CARD_NAP, CARD_FLAMES_YOUR_COTTAGE, CARD_FLAMES_COTTAGE_OF_CHOICE,
    DECK_SIZE, CARDS_PER_PLAYER,
)
from .state import (
    STATE_DTYPE, LOC_RESERVE, LOC_DEAD, LOC_OUT, F_WOUNDED, F_HARRIED, F_ATTACKED, F_SNIPED,
    F_IN_FORCE, F_DEMON_KILL, F_MOVED_IN,
)

BLANK = np.zeros(1, dtype=STATE_DTYPE)   # a zeroed record to reset from

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
PH_PLACE = 2          # cell: set-up / reinforcement placement (3.3, 12.5); DONE only if none legal
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

# being-power sub-stage codes kept in ``step_index`` during ST_BEING_FIRST
BP_SELECT, BP_MOVE, BP_POWER, BP_SECOND_MOVE, BP_SECOND_POWER, BP_DONE = range(6)
# Player's-round segments kept in ``step_index`` during ST_PLAYER (9.2)
SEG_START, SEG_MOVE, SEG_COMBAT, SEG_DRAGON, SEG_END, SEG_RESOLVE = range(6)

# error codes of apply_action
E_OK, E_RANGE, E_ILLEGAL, E_OVER = 0, 1, 2, 3


# ================================================================ randomness
@njit(cache=True)
def roll(S, b, n):
    """Next draw of game b's stream, uniform on 0..n-1.

    Scenario tests may load the dice: while ``loaded`` holds values, they are
    returned in order instead (and the stream is not advanced). A loaded value
    is taken modulo ``n``, so even a corrupted record's loaded draws stay in
    the range each draw asks for (tests load values below ``n``)."""
    s = S[b]
    if s['loaded_pos'] < s['loaded_count']:
        v = int(s['loaded'][s['loaded_pos']])
        s['loaded_pos'] += 1
        return v % n
    x = draw_below(s['seed'], s['rng_counter'], n)
    s['rng_counter'] += np.uint64(1)
    return x


@njit(cache=True)
def d6(S, b):
    """One six-sided die."""
    return roll(S, b, 6) + 1


@njit(cache=True)
def table_result(column, total):
    """Brimstone combat table lookup (totals clamped to the printed range)."""
    t = total
    if t < 0:
        t = 0
    if t > COMBAT_TABLE_MAX_TOTAL:
        t = COMBAT_TABLE_MAX_TOTAL
    return int(COMBAT_TABLE[column, t])


# ================================================================ seats
@njit(cache=True)
def left_of(S, b, p):
    """The seat to the LEFT of p (seats count up to the left; 2.3, 7.511)."""
    return (p + 1) % int(S[b]['num_players'])


@njit(cache=True)
def right_of(S, b, p):
    """The seat to the RIGHT of p (6.1)."""
    n = int(S[b]['num_players'])
    return (p - 1 + n) % n


# ================================================================ units and cells
@njit(cache=True)
def unit_base(colour):
    """Index of colour's hero; its 39 counters follow (see constants)."""
    return int(colour) * UNITS_PER_COLOUR


@njit(cache=True)
def is_player_colour(S, b, c):
    return c >= 0 and c < int(S[b]['num_players'])


@njit(cache=True)
def clear_flags(S, b, u, flags):
    """Clear the ``flags`` bits of unit u (uint8-safe in JIT and Python)."""
    s = S[b]
    s['unit_flags'][u] = int(s['unit_flags'][u]) & (0xFF ^ flags)


@njit(cache=True)
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


@njit(cache=True)
def being_at(S, b, cell):
    """Lair slot (0/1) of the being on ``cell``, or -1."""
    s = S[b]
    for k in range(2):
        if s['slot_being'][k] >= 0 and s['slot_loc'][k] == cell:
            return k
    return -1


@njit(cache=True)
def counter_at(S, b, cell):
    """True if any unit, being or the dragon is on ``cell``."""
    s = S[b]
    return s['cell_count'][cell] > 0 or being_at(S, b, cell) >= 0 or s['dragon_cell'] == cell


@njit(cache=True)
def is_vacant_field(S, b, cell):
    """An empty non-structure space (for placements, banishment, revival, eagle)."""
    return SPACE[cell] == cell and IS_STRUCTURE[cell] == 0 and not counter_at(S, b, cell)


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def unit_choice(S, b, cell, code, flags_forbidden):
    """The unit named by a type choice (0..3) or WIELDER on ``cell``."""
    if code == WIELDER:
        return wielder_option(S, b, cell, flags_forbidden)
    return unit_of_type_on(S, b, cell, code, flags_forbidden)


@njit(cache=True)
def choice_action(code):
    return A_WIELDER if code == WIELDER else A_TYPE0 + code


@njit(cache=True)
def action_choice(a):
    return WIELDER if a == A_WIELDER else a - A_TYPE0


@njit(cache=True)
def home_castle(S, b, p):
    return int(CASTLE_CELL[S[b]['kingdom'][p]])


@njit(cache=True)
def home_village(S, b, p):
    return int(VILLAGE_CELL[S[b]['kingdom'][p]])


@njit(cache=True)
def home_cottage(S, b, p):
    return int(COTTAGE_CELL[S[b]['kingdom'][p]])


@njit(cache=True)
def controls(S, b, p, cell):
    """Seat p occupies the structure on ``cell`` (12.33: control = occupy)."""
    s = S[b]
    return s['cell_count'][cell] > 0 and s['cell_colour'][cell] == p


@njit(cache=True)
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


@njit(cache=True)
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


# ================================================================ magesword (13) and markers (15.635)
@njit(cache=True)
def sword_home(S, b, p):
    """Where a materialising or returning sword lies: the home castle if p
    controls it, else the home cottage (13.11, 13.31)."""
    c = home_castle(S, b, p)
    if controls(S, b, p, c):
        return c
    return home_cottage(S, b, p)


@njit(cache=True)
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


@njit(cache=True)
def materialise_sword(S, b, p):
    """13.1: three wounds earned -> the sword appears at home."""
    s = S[b]
    s['sword_loc'][p] = sword_home(S, b, p)
    check_pickups(S, b, p)


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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
@njit(cache=True)
def being_off_board(S, b, slot, for_good):
    """Take the being of ``slot`` off the board: face down into the pile, or out of
    the game for good (the slain Demon, 15.634). The lair waits for a redraw."""
    s = S[b]
    k = int(s['slot_being'][slot])
    if not for_good:
        s['being_pile'] = int(s['being_pile']) | (1 << k)
    s['slot_being'][slot] = -1
    s['slot_loc'][slot] = -1


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def being_to_pile(S, b, slot):
    """The being leaves the board face down into the pile; a new one is drawn
    for its lair (8.33, 8.331)."""
    being_off_board(S, b, slot, False)
    refill_lairs(S, b)


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def being_wounded(S, b, slot):
    """Wounded beings go home to their lair (9.51, 7.514); the Demon and the Troll
    shrug off wounds (15.632, 15.6011)."""
    k = int(S[b]['slot_being'][slot])
    if k == DEMON or k == TROLL:
        return
    being_to_lair(S, b, slot)


# ================================================================ Brimstone: morale and attacks
@njit(cache=True)
def set_enraged(S, b):
    """9.84, 9.841: the ENRAGED counter goes in until the end of his next round."""
    s = S[b]
    s['enraged'] = 1
    s['enraged_until'] = s['brimstone_rounds'] + 1


@njit(cache=True)
def enraged_penalty(S, b):
    """9.842: -2 on every roll taken by, or against, an enraged Brimstone."""
    return 2 if S[b]['enraged'] else 0


@njit(cache=True)
def weakest_on(S, b, cell):
    """The occupant that falls first when a structure loses occupants: men-at-arms,
    then snipers, knights, the hero (the owner's obvious choice)."""
    order = (MAN_AT_ARMS, SNIPER, KNIGHT, HERO)
    for i in range(4):
        u = unit_of_type_on(S, b, cell, order[i], 0)
        if u >= 0:
            return u
    return -1


@njit(cache=True)
def troll_retreats(S, b, slot):
    """15.60111: a Troll 'wounded' by Brimstone retreats one space towards his lair
    into a vacant space (the nearest such space, lowest cell first). The rule
    leaves the space to "the last player who moved his counter"; the core
    picks it (lowest cell) instead of posing a decision inside Brimstone's
    round. No such space: he stays."""
    s = S[b]
    here = int(s['slot_loc'][slot])
    lair = int(BEING_LAIR_CELL[slot])
    best = -1
    for i in range(int(NUM_NEIGHBOURS[here])):
        c = int(NEIGHBOURS[here, i])
        if SPACE_DIST[c, lair] < SPACE_DIST[here, lair] and IS_STRUCTURE[c] == 0 and not counter_at(S, b, c):
            if best < 0 or c < best:
                best = c
    if best >= 0:
        s['slot_loc'][slot] = best


@njit(cache=True)
def dragon_attacks_piece(S, b, cell):
    """7.43, 7.51: Brimstone attacks every counter on ``cell`` on the Single Piece
    column: 2 dice + defence + terrain, -2 if he is enraged."""
    s = S[b]
    pen = enraged_penalty(S, b)
    units = np.empty(UNITS_PER_COLOUR, dtype=np.int16)
    n = units_on(S, b, cell, units)
    for i in range(n):
        u = int(units[i])
        total = d6(S, b) + d6(S, b) + unit_defense(S, b, u, True) - pen
        r = table_result(COL_SINGLE_PIECE, total)
        if r == R_DEFENDER_KILLED:
            kill_unit(S, b, u, False)
        elif r == R_DEFENDER_WOUNDED:
            wound_unit(S, b, u)            # 7.52
        else:
            sniper_flees(S, b, u)
    slot = being_at(S, b, cell)
    if slot >= 0:
        k = int(s['slot_being'][slot])
        total = d6(S, b) + d6(S, b) + int(BEING_DEFENSE[k]) + int(DEFENSE[cell]) - pen  # 7.512
        if k == TROLL:
            total -= 2                     # 15.60111
        r = table_result(COL_SINGLE_PIECE, total)
        if r == R_DEFENDER_KILLED:
            being_killed(S, b, slot, True, -1)   # 7.513, 15.634
        elif r == R_DEFENDER_WOUNDED:
            if k == TROLL:
                troll_retreats(S, b, slot)
            else:
                being_wounded(S, b, slot)        # 7.514


@njit(cache=True)
def dragon_attacks_structure(S, b, cell):
    """7.53: an attack on a castle, village or cottage: 2 dice + the structure's
    value (occupants' strength not added, 7.531); a vacant structure needs no
    roll. Attacking a structure appeases his rage (9.841)."""
    s = S[b]
    if s['cell_count'][cell] > 0:
        total = d6(S, b) + d6(S, b) + int(DEFENSE[cell]) - enraged_penalty(S, b)
        r = table_result(COL_STRUCTURE, total)
        if r >= R_OCCUPANTS_DIE_1:
            for i in range(r - R_OCCUPANTS_DIE_1 + 1):
                u = weakest_on(S, b, cell)
                if u < 0:
                    break
                kill_unit(S, b, u, False)
    s['enraged'] = 0


@njit(cache=True)
def flame_cottage(S, b, k):
    """7.68: the cottage of kingdom k is flamed: everyone in it dies; healing there
    stops until repaired (12.2). Magical defense markers there are unharmed."""
    s = S[b]
    s['flamed'][k] = 1
    cell = int(COTTAGE_CELL[k])
    units = np.empty(UNITS_PER_COLOUR, dtype=np.int16)
    n = units_on(S, b, cell, units)
    for i in range(n):
        kill_unit(S, b, int(units[i]), False)


@njit(cache=True)
def card_attacks_cottage(S, b, k):
    """7.65: a dragon card's attack on a cottage: unless the defender rolls 10 or
    more on two dice the cottage is flamed. Counts as revenge (9.841). Choices:
    the 10 is read on the bare dice (no enraged -2, cottage value 0), and a
    vacant cottage is rolled for too (flaming it still matters, 7.68)."""
    s = S[b]
    if d6(S, b) + d6(S, b) < 10:
        flame_cottage(S, b, k)
    s['enraged'] = 0


@njit(cache=True)
def dragon_to_lair(S, b):
    """Brimstone goes home. A trespasser found there enrages him and is attacked
    (7.46)."""
    s = S[b]
    s['dragon_cell'] = LAIR_CELL
    if s['cell_count'][LAIR_CELL] > 0 or being_at(S, b, LAIR_CELL) >= 0:
        set_enraged(S, b)
        dragon_attacks_piece(S, b, LAIR_CELL)


@njit(cache=True)
def dragon_strikes_structure(S, b, cell):
    """Fly to a structure, attack it, return to the lair (7.45, 7.541, 7.63)."""
    dragon_attacks_structure(S, b, SPACE[cell])
    dragon_to_lair(S, b)


@njit(cache=True)
def card_flames_cottage(S, b, k):
    """7.68: a FLAMES COTTAGE card: the cottage of kingdom k is flamed, no roll.
    Flaming is his attack on that cottage, so (as for 7.65) it appeases his rage
    (9.841) and he then returns to his lair (7.541)."""
    flame_cottage(S, b, k)
    S[b]['enraged'] = 0
    dragon_to_lair(S, b)


@njit(cache=True)
def dragon_walk(S, b, d, dist):
    """Move Brimstone ``dist`` spaces in direction d, one part of his round (7.4).

    Returns 0 when the part is done and his round goes on, 1 when he attacked a
    structure and his round is over (7.45, 7.541), 2 when the move would leave
    the board: he is back in his lair and the same player rolls again (7.42).

    Choice (the rulebook leaves the order open): 7.42 is judged on the rolled
    move as a whole, before he is walked, so a move that would run off the board
    sends him home even if a castle or village lies on the way. He attacks what
    he lands on only (7.43, 7.44); landing on his own lair is a return home
    (7.46).
    """
    s = S[b]
    c = int(s['dragon_cell'])
    for i in range(dist):                    # would he leave the board? (7.42)
        c = int(STEP[c, d])
        if c < 0:
            dragon_to_lair(S, b)
            return 2
    c = int(s['dragon_cell'])
    for i in range(dist):
        c = int(STEP[c, d])
        if IS_FORT[c]:                       # passes over part of a castle or village (7.45)
            dragon_strikes_structure(S, b, c)
            return 1
    s['dragon_cell'] = c
    if TERRAIN[c] == COTTAGE:                # lands on a cottage (7.44, 7.53, 7.541)
        dragon_strikes_structure(S, b, c)
        return 1
    if c == LAIR_CELL:
        dragon_to_lair(S, b)                 # 7.46
    elif s['cell_count'][c] > 0 or being_at(S, b, c) >= 0:
        dragon_attacks_piece(S, b, c)        # 7.43, 7.542
    return 0


# what follows casualty choices in the dragon attack segment
AC_END, AC_DO_OR_DIE, AC_STRIKE_CASTLE = 0, 1, 2


@njit(cache=True)
def pose(S, b, phase, player):
    """Ask seat ``player`` for a decision of kind ``phase``; always returns True."""
    s = S[b]
    s['phase'] = phase
    s['to_play'] = player
    return True


# ================================================================ set-up (1-3)
@njit(cache=True)
def setup_game(S, b):
    """1.1-1.3 and 2.1-2.3: dragon in his lair, two beings drawn for the Cave and
    the Hollow Tree, deck shuffled (drawn at random when needed, so its order
    never exists to leak), and the set-up order rolled off."""
    s = S[b]
    n = int(s['num_players'])
    for u in range(NUM_UNITS):
        s['unit_loc'][u] = LOC_RESERVE
    for c in range(NC):
        s['cell_colour'][c] = -1
    s['dragon_cell'] = LAIR_CELL
    s['being_pile'] = (1 << NUM_BEINGS) - 1
    for slot in range(2):
        s['slot_being'][slot] = -1
        s['slot_loc'][slot] = -1
    refill_lairs(S, b)
    s['deck_left'] = np.uint32((1 << DECK_SIZE) - 1)
    for p in range(MAX_PLAYERS):
        s['kingdom'][p] = -1
        s['colour_kingdom'][p] = -1
        s['sword_loc'][p] = -1
        s['sword_holder'][p] = -1
        s['md_holder'][p] = -1
        s['card_played'][p] = -1
        s['round_order'][p] = -1
        s['cards_in_hand'][p] = (1 << CARDS_PER_PLAYER) - 1 if p < n else 0
    for i in range(6):
        s['five_path'][i] = -1
    s['enraged_until'] = -1
    s['asleep_until'] = -1
    s['winner'] = -1
    s['teleport_user'] = -1
    s['sel_cell'] = -1
    s['sel_unit'] = -1
    s['target_cell'] = -1
    s['struct_cell'] = -1
    s['eagle_cell'] = -1
    s['setup_first'] = setup_roll_off(S, b)
    s['stage'] = ST_SETUP_KINGDOM
    s['step_index'] = 0


@njit(cache=True)
def setup_roll_off(S, b):
    """2.1, 2.2: everyone rolls one die; the HIGHEST UNTIED roll goes first; if no
    roll is untied everybody rolls again."""
    n = int(S[b]['num_players'])
    rolls = np.zeros(MAX_PLAYERS, dtype=np.int64)
    while True:
        for p in range(n):
            rolls[p] = d6(S, b)
        best = -1
        for p in range(n):
            tied = False
            for q in range(n):
                if q != p and rolls[q] == rolls[p]:
                    tied = True
            if not tied and (best < 0 or rolls[p] > rolls[best]):
                best = p
        if best >= 0:
            return best


@njit(cache=True)
def choose_kingdom(S, b, p, k):
    """3.1, 3.11: the hero and four knights go into the castle, two snipers and six
    men-at-arms into the village; nothing into the cottage."""
    s = S[b]
    s['kingdom'][p] = k
    s['colour_kingdom'][p] = k
    base = unit_base(p)
    castle = int(CASTLE_CELL[k])
    village = int(VILLAGE_CELL[k])
    set_loc(S, b, base, castle)
    for i in range(4):
        set_loc(S, b, base + 3 + i, castle)
    for i in range(2):
        set_loc(S, b, base + 1 + i, village)
    for i in range(6):
        set_loc(S, b, base + 15 + i, village)


@njit(cache=True)
def garrison_unused_kingdoms(S, b):
    """3.2-3.22: two knights of an unused colour in each vacant castle, four
    men-at-arms in each vacant village (non-player counters)."""
    s = S[b]
    n = int(s['num_players'])
    colour = n
    for k in range(6):
        taken = False
        for p in range(n):
            if s['kingdom'][p] == k:
                taken = True
        if taken:
            continue
        s['colour_kingdom'][colour] = k
        base = unit_base(colour)
        for i in range(2):
            set_loc(S, b, base + 3 + i, int(CASTLE_CELL[k]))
        for i in range(4):
            set_loc(S, b, base + 15 + i, int(VILLAGE_CELL[k]))
        colour += 1


@njit(cache=True)
def placement_legal(S, b, p, cell):
    """3.41-3.45 (also 12.5): a vacant field space, not next to the lairs or an
    enemy structure (static table), and not next to an enemy unit."""
    s = S[b]
    if not PLACE_OK[s['kingdom'][p], cell]:
        return False
    if counter_at(S, b, cell):
        return False
    count = s['cell_count']
    colour = s['cell_colour']
    for i in range(int(NUM_NEIGHBOURS[cell])):
        c2 = int(NEIGHBOURS[cell, i])
        if count[c2] > 0 and colour[c2] != p:
            return False
    return True


@njit(cache=True)
def any_placement(S, b, p):
    for c in range(NC):
        if placement_legal(S, b, p, c):
            return True
    return False


FIRST_INDEX = np.array(FIRST_OF_TYPE, dtype=np.int64)   # type -> first index inside a colour
TYPE_COUNT = np.array(COUNT_OF_TYPE, dtype=np.int64)    # type -> counters of that type


@njit(cache=True)
def unit_at(S, b, p, t, loc):
    """The first counter of seat p and type t whose location is ``loc`` (a cell
    or a LOC_* code), or -1."""
    s = S[b]
    first = unit_base(p) + FIRST_INDEX[t]
    for u in range(first, first + TYPE_COUNT[t]):
        if s['unit_loc'][u] == loc:
            return u
    return -1


@njit(cache=True)
def units_at(S, b, p, t, loc):
    """How many counters of seat p and type t are at ``loc``."""
    s = S[b]
    first = unit_base(p) + FIRST_INDEX[t]
    n = 0
    for u in range(first, first + TYPE_COUNT[t]):
        if s['unit_loc'][u] == loc:
            n += 1
    return n


@njit(cache=True)
def reserve_unit(S, b, p, t):
    """A counter of seat p and type t never yet in play (12.411), or -1."""
    return unit_at(S, b, p, t, LOC_RESERVE)


@njit(cache=True)
def dead_unit(S, b, p, t):
    """A counter of seat p and type t in the dead pile (12.3), or -1."""
    return unit_at(S, b, p, t, LOC_DEAD)


@njit(cache=True)
def count_dead(S, b, p, t):
    return units_at(S, b, p, t, LOC_DEAD)


@njit(cache=True)
def placement_round(S, b):
    """3.31, 3.32, 12.5-12.52: one unit at a time in rotation to the left from
    ``place_start``; men-at-arms first, then knights; a player who has placed
    all of a type waits for the others. A player with no legal space keeps the
    unit in reserve. Returns True when a placement decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    while True:
        ti = 0 if s['place_type'] == MAN_AT_ARMS else 1
        p = int(s['step_index'])
        found = -1
        for j in range(n):
            q = (p + j) % n
            if s['reinf_left'][q, ti] > 0:
                if reserve_unit(S, b, q, int(s['place_type'])) < 0:
                    s['reinf_left'][q, ti] = 0
                    continue
                if not any_placement(S, b, q):
                    s['reinf_left'][q, ti] -= 1
                    continue
                found = q
                break
        if found >= 0:
            s['step_index'] = found
            return pose(S, b, PH_PLACE, found)
        if ti == 0:
            s['place_type'] = KNIGHT
            s['step_index'] = s['place_start']
            continue
        return False


@njit(cache=True)
def place_unit(S, b, cell):
    s = S[b]
    p = int(s['step_index'])
    ti = 0 if s['place_type'] == MAN_AT_ARMS else 1
    u = reserve_unit(S, b, p, int(s['place_type']))
    set_loc(S, b, u, cell)
    s['reinf_left'][p, ti] -= 1
    s['placed_last'] = p
    s['step_index'] = left_of(S, b, p)


@njit(cache=True)
def finish_setup(S, b):
    """3.51, 3.52, 6: the first player takes the Being Choice Marker, the one with
    the last set-up turn the Second Being Marker and the first dragon move."""
    s = S[b]
    s['choice_player'] = s['setup_first']
    s['second_player'] = s['placed_last']
    s['dragon_first'] = s['placed_last']
    s['hand'] = 1
    s['turn'] = 0
    enter_brimstone_round(S, b)


# ================================================================ Brimstone's round (6, 7)
@njit(cache=True)
def enter_brimstone_round(S, b):
    s = S[b]
    s['stage'] = ST_BRIMSTONE
    s['brimstone_rounds'] += 1
    s['step_index'] = 0


@njit(cache=True)
def brimstone_moves(S, b):
    """6.1, 6.11: one move per player, two each in a two-player game."""
    n = int(S[b]['num_players'])
    return 2 * n if n == 2 else n


@njit(cache=True)
def brimstone_mover(S, b):
    """6, 6.1: the first mover, then passing to the RIGHT."""
    s = S[b]
    n = int(s['num_players'])
    i = int(s['step_index']) % n
    return (int(s['dragon_first']) - i + n) % n


@njit(cache=True)
def after_dragon_part(S, b, r):
    """Book one part of his round: 0 done -> next mover, 1 structure attacked ->
    round over (7.541), 2 left the board -> same mover rolls over (7.42)."""
    s = S[b]
    if r == 0:
        s['step_index'] += 1
    elif r == 1:
        s['step_index'] = 100


@njit(cache=True)
def brimstone_round(S, b):
    """Run Brimstone's round until a player must choose a die or the round ends."""
    s = S[b]
    while True:
        if s['status'] != 0:
            return False
        if s['step_index'] >= brimstone_moves(S, b) or s['asleep_until'] >= s['brimstone_rounds']:
            end_brimstone_round(S, b)
            return False
        if s['enraged']:
            red = d6(S, b)                  # 7.211 direction
            white = d6(S, b)                # 7.212 distance
            after_dragon_part(S, b, dragon_walk(S, b, red, white))
            continue
        a = d6(S, b)
        c = d6(S, b)
        if a == c:
            after_dragon_part(S, b, dragon_walk(S, b, a, 1))
            continue
        s['die0'] = a
        s['die1'] = c
        return pose(S, b, PH_DRAGON_DIE, brimstone_mover(S, b))


@njit(cache=True)
def end_brimstone_round(S, b):
    """9.841, 9.843: rage ends with his next round; 7.67: the nap ends."""
    s = S[b]
    if s['enraged'] and s['enraged_until'] <= s['brimstone_rounds']:
        s['enraged'] = 0
    if s['asleep_until'] >= 0 and s['asleep_until'] <= s['brimstone_rounds']:
        s['asleep_until'] = -1
    s['stage'] = ST_BEING_FIRST
    s['step_index'] = BP_SELECT
    s['being_moves'] = 0


# ================================================================ movement (9.3, 15.1)
MODE_UNIT, MODE_GROUND_BEING, MODE_FLYING_BEING = 0, 1, 2
UNREACHED = 127


@njit(cache=True)
def paralyzer_cell(S, b):
    s = S[b]
    for k in range(2):
        if s['slot_being'][k] == PARALYZER:
            return int(s['slot_loc'][k])
    return -1


@njit(cache=True)
def reach(S, b, src, budget, mode, p, dist):
    """Cheapest cost from ``src`` to every cell within ``budget`` (``UNREACHED``
    beyond it), written into ``dist``.

    MODE_UNIT (seat p): terrain costs (9.32); never into a space held by an
    enemy unit, a being or the dragon (9.312), nor into any cottage but one's own
    (9.313, 9.321); a friendly or empty castle/village costs 1 (9.33); a space
    next to the Paralyzer ends the move (15.671). MODE_GROUND_BEING: terrain
    costs, no structures (15.7), no occupied spaces. MODE_FLYING_BEING: every
    space costs 1 (15.11) and counters are flown over; no structures.
    """
    s = S[b]
    # record fields read once into locals: the search below is the hottest
    # loop of the core (movement destinations)
    count = s['cell_count']
    colour = s['cell_colour']
    dragon = int(s['dragon_cell'])
    being0 = int(s['slot_loc'][0]) if s['slot_being'][0] >= 0 else -1
    being1 = int(s['slot_loc'][1]) if s['slot_being'][1] >= 0 else -1
    par = paralyzer_cell(S, b) if mode == MODE_UNIT else -1
    own_cottage = int(COTTAGE_CELL[s['kingdom'][p]]) if mode == MODE_UNIT else -1
    # enter[c]: cost to enter c, 0 = forbidden, -1 = not yet worked out
    enter = np.empty(NC, dtype=np.int8)
    for c in range(NC):
        dist[c] = UNREACHED
        enter[c] = -1
    dist[src] = 0
    queue = np.empty(NC * 8, dtype=np.int16)
    head = 0
    tail = 0
    queue[tail] = src
    tail += 1
    while head < tail:
        c = int(queue[head])
        head += 1
        if c != src and par >= 0 and IS_STRUCTURE[c] == 0 and SPACE_ADJ[c, par]:
            continue
        dc = int(dist[c])
        for i in range(int(NUM_NEIGHBOURS[c])):
            nb = int(NEIGHBOURS[c, i])
            cost = int(enter[nb])
            if cost < 0:
                cost = 0
                if mode == MODE_FLYING_BEING:
                    if IS_STRUCTURE[nb] == 0:
                        cost = 1
                elif not (nb == dragon or nb == being0 or nb == being1):
                    if mode == MODE_UNIT:
                        if not (count[nb] > 0 and colour[nb] != p) and \
                                not (TERRAIN[nb] == COTTAGE and nb != own_cottage):
                            cost = int(MOVE_COST[nb])
                    elif IS_STRUCTURE[nb] == 0 and count[nb] == 0:
                        cost = int(MOVE_COST[nb])
                enter[nb] = cost
            if cost == 0:
                continue
            nd = dc + cost
            if nd <= budget and nd < dist[nb]:
                dist[nb] = nd
                if tail < queue.shape[0]:
                    queue[tail] = nb
                    tail += 1
    return dist


# ================================================================ Fantastic Being round (8, 15)
BA_SURVIVED, BA_KILLED, BA_BANISH, BA_ATTACKER_LOST = 0, 1, 2, 3


@njit(cache=True)
def being_attack(S, b, slot, cell):
    """An attack-capable being (15.2) attacks the counter on ``cell`` by the rules
    of the combat segment (9.45): one die each plus strengths and terrain.

    A unit paralyzed by the Paralyzer is killed without a roll, whichever being
    attacks it, the Banisher included (15.52). A Banisher that wins against
    anything else does not kill: its controller sends the loser away (15.611);
    a tie or a loss does nothing to either side (15.612).

    Returns BA_KILLED when the defender died and the being took its space
    (9.481, 8.3434), BA_BANISH when the Banisher won (15.611), BA_ATTACKER_LOST
    when the being itself was killed, wounded or sent home, else BA_SURVIVED.
    Dice: the being's die, then the defender's.
    """
    s = S[b]
    k = int(s['slot_being'][slot])
    here = int(s['slot_loc'][slot])
    tslot = being_at(S, b, cell)
    if tslot >= 0:
        tk = int(s['slot_being'][tslot])
        atk = int(BEING_ATTACK[k]) + d6(S, b)
        diff = atk - (int(BEING_DEFENSE[tk]) + int(DEFENSE[cell]) + d6(S, b))
        if k == BANISHER:
            return BA_BANISH if diff > 0 else BA_SURVIVED       # 15.611, 15.612
        if diff > 0:
            being_killed(S, b, tslot, False, -1)
            # (a lair refill may have ambushed an attacker standing in that lair, 9.511)
            if s['slot_being'][slot] == k and s['slot_loc'][slot] == here and not counter_at(S, b, cell):
                s['slot_loc'][slot] = cell
                return BA_KILLED
            return BA_SURVIVED
        if diff < 0:
            being_killed(S, b, slot, False, -1)
            return BA_ATTACKER_LOST
        being_wounded(S, b, tslot)
        being_wounded(S, b, slot)
        return BA_SURVIVED
    units = np.empty(UNITS_PER_COLOUR, dtype=np.int16)
    if units_on(S, b, cell, units) == 0:
        return BA_SURVIVED
    u = int(units[0])
    if is_paralyzed(S, b, u):
        kill_unit(S, b, u, k == DEMON)          # 15.52: no roll
        if s['cell_count'][cell] == 0:
            s['slot_loc'][slot] = cell          # 8.3434, 9.481
        return BA_KILLED
    atk = int(BEING_ATTACK[k]) + d6(S, b)
    diff = atk - (unit_defense(S, b, u, False) + d6(S, b))
    if k == BANISHER:
        # a tie or a loss: "nothing happens to either unit" (15.612), which we
        # read as overriding 9.645: a sniper the Banisher fails to banish stays
        return BA_BANISH if diff > 0 else BA_SURVIVED
    if diff > 0:
        kill_unit(S, b, u, k == DEMON)          # 15.63
        if s['cell_count'][cell] == 0:
            s['slot_loc'][slot] = cell          # 8.3434, 9.481
        return BA_KILLED
    if diff < 0:
        being_killed(S, b, slot, UNIT_TYPE[u] == HERO, int(UNIT_COLOUR[u]) if UNIT_COLOUR[u] < s['num_players'] else -1)
        sniper_flees(S, b, u)
        return BA_ATTACKER_LOST
    wound_unit(S, b, u)                          # 9.483
    being_wounded(S, b, slot)
    return BA_SURVIVED if (k == DEMON or k == TROLL) else BA_ATTACKER_LOST


@njit(cache=True)
def can_be_attacked_by_being(S, b, slot, cell, controller):
    """Counters a being may attack from where it stands: a unit or the other being
    on an adjacent field space (never a structure, 9.616, 15.7, nor Brimstone,
    15.3); the Banisher never attacks its controller's units (15.613); the Troll
    picks only player units (15.601: "adjacent to a player unit it will attack";
    blocked on its random move it attacks whatever blocks it, 8.3431); the Eagle
    harries only the units of the controller's enemies (15.663, 15.664).
    ``controller`` -1: a being moved at random (every unit and being qualifies)."""
    s = S[b]
    here = int(s['slot_loc'][slot])
    if here < 0 or not SPACE_ADJ[here, cell] or IS_STRUCTURE[cell]:
        return False
    k = int(s['slot_being'][slot])
    if s['cell_count'][cell] > 0:
        col = int(s['cell_colour'][cell])
        if k == BANISHER and col == controller:
            return False
        if k == TROLL and col >= s['num_players']:
            return False
        if k == EAGLE and (col == controller or col >= s['num_players']):
            return False
        return True
    if being_at(S, b, cell) >= 0 and k != TROLL and k != EAGLE:
        return True
    return False


@njit(cache=True)
def any_being_target(S, b, slot, controller):
    s = S[b]
    here = int(s['slot_loc'][slot])
    if here < 0:
        return False
    for i in range(int(NUM_NEIGHBOURS[here])):
        if can_be_attacked_by_being(S, b, slot, int(NEIGHBOURS[here, i]), controller):
            return True
    return False


@njit(cache=True)
def disperse(S, b, slot):
    """15.64: every unit and being next to the Disperser (not Brimstone, not in a
    structure) goes straight away from it, to the farthest vacant space within
    four; the line stops short of castles, villages and cottages (15.641), each
    space counting one (15.642). With no vacant space on the line it stays.
    Choices where the rule is open: the power is used on all adjacent counters
    or none (no per-unit distance for "up to FOUR"); occupied spaces on the
    line are passed over; units inside a structure next to the Disperser are
    not dispersed (no being acts on a structure, 15.7)."""
    s = S[b]
    here = int(s['slot_loc'][slot])
    for d in range(1, 7):
        c = int(STEP[here, d])
        if c < 0 or IS_STRUCTURE[c]:
            continue
        other = being_at(S, b, c)
        if s['cell_count'][c] == 0 and other < 0:
            continue
        dest = -1
        cur = c
        for j in range(4):
            nxt = int(STEP[cur, d])
            if nxt < 0 or IS_STRUCTURE[nxt]:
                break
            cur = nxt
            if not counter_at(S, b, cur):
                dest = cur
        if dest < 0:
            continue
        if other >= 0:
            s['slot_loc'][other] = dest
        else:
            units = np.empty(UNITS_PER_COLOUR, dtype=np.int16)
            n = units_on(S, b, c, units)
            for i in range(n):
                set_loc(S, b, int(units[i]), dest)


@njit(cache=True)
def random_target(S, b, slot, controller):
    """A target picked by the dice, for beings nobody controls (8.211)."""
    s = S[b]
    here = int(s['slot_loc'][slot])
    n = 0
    for i in range(int(NUM_NEIGHBOURS[here])):
        if can_be_attacked_by_being(S, b, slot, int(NEIGHBOURS[here, i]), controller):
            n += 1
    if n == 0:
        return -1
    r = roll(S, b, n)
    for i in range(int(NUM_NEIGHBOURS[here])):
        c = int(NEIGHBOURS[here, i])
        if can_be_attacked_by_being(S, b, slot, c, controller):
            if r == 0:
                return c
            r -= 1
    return -1


@njit(cache=True)
def random_vacant_field(S, b):
    n = 0
    for c in range(NC):
        if is_vacant_field(S, b, c):
            n += 1
    if n == 0:
        return -1
    r = roll(S, b, n)
    for c in range(NC):
        if is_vacant_field(S, b, c):
            if r == 0:
                return c
            r -= 1
    return -1


@njit(cache=True)
def banish(S, b, slot, cell, dest):
    """15.611: the Banisher's beaten foe on ``cell`` is sent to the empty space
    ``dest``; the Banisher (lair slot ``slot``) then takes the space it emptied,
    as any victor does (9.481; "kills/removes it ... will occupy", 8.3434)."""
    s = S[b]
    tslot = being_at(S, b, cell)
    if tslot >= 0:
        s['slot_loc'][tslot] = dest
    else:
        units = np.empty(UNITS_PER_COLOUR, dtype=np.int16)
        n = units_on(S, b, cell, units)
        for i in range(n):
            set_loc(S, b, int(units[i]), dest)
    if s['slot_being'][slot] >= 0 and not counter_at(S, b, cell):
        s['slot_loc'][slot] = cell


@njit(cache=True)
def uncontrolled_attack(S, b, slot, cell):
    """An attack by a being moved at random (8.3431): no one uses its power to
    advantage (8.211), so a Banisher's victim lands on a random empty space
    (draw: index among the vacant field spaces in cell order) and a victorious
    Berserker makes no second move but must attack again if a target is
    adjacent (15.622; draw: index among the adjacent targets)."""
    s = S[b]
    k = int(s['slot_being'][slot])
    r = being_attack(S, b, slot, cell)
    if r == BA_BANISH:
        dest = random_vacant_field(S, b)
        if dest >= 0:
            banish(S, b, slot, cell, dest)
    elif r == BA_KILLED and k == BERSERKER:
        t = random_target(S, b, slot, -1)
        if t >= 0:
            being_attack(S, b, slot, t)


@njit(cache=True)
def random_being_move(S, b, slot, d):
    """8.2-8.35: the second being moves its full movement in a straight line in
    direction d, stopping as the rules say, then acts on a blocking counter.

    Flying beings (8.341) look only at the space they would land in: if a
    counter is there they stop in the nearest free space short of it along the
    path (8.343), passing over everything else; a structure anywhere on the path
    sends them home (8.32, 8.322), as does Brimstone as the blocker (8.35).
    Ground beings (8.342) pay terrain costs (15.12) and are stopped by the
    first counter, structure or Brimstone on their path within their range of
    movement: a space they cannot pay for ends the move (8.31) and whatever is
    on it or beyond is out of range. Leaving the board sends the being to the
    pile and a new one is drawn for its lair (8.33, 8.331).

    Blocked (8.343-8.3434): the Demon, Berserker, Troll and Banisher attack
    the blocking counter, unit or being; the Disperser disperses everything
    next to it (the Paralyzer's power needs no act); the others do nothing.
    An unblocked Troll attacks an adjacent player unit if there is one (15.601;
    draw: index among them)."""
    s = S[b]
    k = int(s['slot_being'][slot])
    if k < 0:
        return
    cur = int(s['slot_loc'][slot])
    left = int(BEING_MOVE[k])
    blocker = -1
    if BEING_FLIES[k]:
        path = np.empty(16, dtype=np.int16)
        path[0] = cur
        for i in range(1, left + 1):
            nxt = int(STEP[int(path[i - 1]), d])
            if nxt < 0:
                being_to_pile(S, b, slot)            # 8.33
                return
            if IS_STRUCTURE[nxt]:
                being_to_lair(S, b, slot)            # 8.32, 8.322
                return
            path[i] = nxt
        j = left
        while j > 0 and counter_at(S, b, int(path[j])):
            j -= 1                                   # 8.341, 8.343
        if j < left:
            blocker = int(path[j + 1])
            if s['dragon_cell'] == blocker:
                being_to_lair(S, b, slot)            # 8.35
                return
        cur = int(path[j])
    else:
        while left > 0:
            nxt = int(STEP[cur, d])
            if nxt < 0:
                being_to_pile(S, b, slot)            # 8.33
                return
            cost = int(MOVE_COST[nxt])
            if cost > left:
                break                                # 8.31: beyond its range
            if IS_STRUCTURE[nxt] or s['dragon_cell'] == nxt:
                being_to_lair(S, b, slot)            # 8.32, 8.35
                return
            if counter_at(S, b, nxt):
                blocker = nxt                        # 8.342
                break
            cur = nxt
            left -= cost
    s['slot_loc'][slot] = cur
    if blocker >= 0:
        if k == DEMON or k == BERSERKER or k == TROLL or k == BANISHER:   # 8.3431
            uncontrolled_attack(S, b, slot, blocker)
        elif k == DISPERSER:                                               # 8.3432
            disperse(S, b, slot)
    elif k == TROLL:
        t = random_target(S, b, slot, -1)                                  # 15.601
        if t >= 0:
            being_attack(S, b, slot, t)


BEING_SECOND_MOVE = D.BEING_SECOND_MOVE


@njit(cache=True)
def controlled_move_budget(S, b):
    """Movement of the first player's being this move: its rating, or the
    Berserker's second rating on his second move (15.62 "3M/3M")."""
    s = S[b]
    k = int(s['slot_being'][s['active_slot']])
    if s['step_index'] == BP_SECOND_MOVE and BEING_SECOND_MOVE[k] > 0:
        return int(BEING_SECOND_MOVE[k])
    return int(BEING_MOVE[k])


@njit(cache=True)
def can_leave_board(dist, budget):
    """8.332: the controlled being's movement is sufficient to leave the board:
    some space it reaches (``dist`` from ``reach``) lies on the edge with at
    least one movement point left for the step off."""
    for c in range(NC):
        if dist[c] != UNREACHED and int(dist[c]) < budget:
            for d in range(1, 7):
                if STEP[c, d] < 0:
                    return True
    return False


@njit(cache=True)
def dragon_row_direction(S, b, cell):
    """Direction from ``cell`` along a straight hex row to Brimstone, or 0 (15.65)."""
    s = S[b]
    dc = int(s['dragon_cell'])
    for d in range(1, 7):
        c = cell
        for i in range(NC):
            c = int(STEP[c, d])
            if c < 0:
                break
            if c == dc:
                return d
    return 0


@njit(cache=True)
def charm_path_ok(S, b, d, k):
    """The charmed Brimstone can go k spaces in direction d without leaving the
    board or running into the Charmer."""
    s = S[b]
    c = int(s['dragon_cell'])
    for i in range(k):
        c = int(STEP[c, d])
        if c < 0 or c == s['slot_loc'][s['active_slot']]:
            return False
    return True


@njit(cache=True)
def charm_dragon(S, b, d, k):
    """15.65, 15.651, 15.652: move Brimstone k spaces; he attacks where he lands
    (or the castle or village he crosses, 7.45). Charmed out of his lair he is
    enraged "when he lands", at once (9.844), so the attack he makes there is
    an enraged one (-2, 9.842); an attack on a structure appeases him again
    (9.841)."""
    s = S[b]
    if s['dragon_cell'] == LAIR_CELL:
        set_enraged(S, b)
    dragon_walk(S, b, d, k)


@njit(cache=True)
def own_units_anywhere(S, b, p, near, in_structures):
    """Some healthy unit of p on the board: within eight spaces of ``near``
    outside castles, villages and cottages (the Eagle's cargo, 15.66, 15.661),
    or anywhere, structures included, with ``in_structures`` (the Teleporter's
    "any ONE of his units", 15.69)."""
    s = S[b]
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        loc = int(s['unit_loc'][base + i])
        if loc < 0 or (s['unit_flags'][base + i] & F_WOUNDED):
            continue
        if in_structures or (IS_STRUCTURE[loc] == 0 and SPACE_DIST[loc, near] <= 8):
            return True
    return False


@njit(cache=True)
def vacant_next_to(S, b, cell):
    """Some vacant field space adjacent to ``cell``."""
    for i in range(int(NUM_NEIGHBOURS[cell])):
        if is_vacant_field(S, b, int(NEIGHBOURS[cell, i])):
            return True
    return False


@njit(cache=True)
def can_revive(S, b, p):
    s = S[b]
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        if s['unit_loc'][base + i] == LOC_DEAD and (s['unit_flags'][base + i] & F_DEMON_KILL) == 0:
            return True
    return False


@njit(cache=True)
def being_power(S, b):
    """Offer the first player the power of the being he moved (8.1, 15.6);
    returns True when a decision is posed, False when the power is spent.

    Choices where the rules are open: the Eagle's cargo is an own unit within
    eight spaces of where the Eagle stands after its move (15.66); the
    Teleporter may take any healthy own unit, one inside a structure included,
    the player naming the type when the space holds several (15.69); the
    Charmer counts as "moved into" Brimstone's row wherever her move ends,
    staying put included (15.65)."""
    s = S[b]
    slot = int(s['active_slot'])
    k = int(s['slot_being'][slot])
    p = int(s['choice_player'])
    if k < 0 or s['slot_loc'][slot] < 0:
        return False
    here = int(s['slot_loc'][slot])
    if k == BANISHER or k == DEMON or k == BERSERKER or k == TROLL:
        if any_being_target(S, b, slot, p):
            return pose(S, b, PH_BEING_TARGET, p)
        return False
    if k == EAGLE:
        if any_being_target(S, b, slot, p) or own_units_anywhere(S, b, p, here, False):
            return pose(S, b, PH_BEING_TARGET, p)
        return False
    if k == DISPERSER:
        for i in range(int(NUM_NEIGHBOURS[here])):
            c = int(NEIGHBOURS[here, i])
            if IS_STRUCTURE[c] == 0 and (s['cell_count'][c] > 0 or being_at(S, b, c) >= 0):
                return pose(S, b, PH_BEING_TARGET, p)
        return False
    if k == DRAGON_CHARMER:
        if s['asleep_until'] < 0 and dragon_row_direction(S, b, here) > 0:   # 15.653
            return pose(S, b, PH_CHARM, p)
        return False
    if k == REVIVOR:
        if can_revive(S, b, p) and vacant_next_to(S, b, here):
            return pose(S, b, PH_REVIVE_TYPE, p)
        return False
    if k == TELEPORTER:
        if own_units_anywhere(S, b, p, here, True) and vacant_next_to(S, b, here):
            s['sel_cell'] = -1                      # no cell picked yet (see PH_TELEPORT_UNIT)
            return pose(S, b, PH_TELEPORT_UNIT, p)
        return False
    return False          # the Paralyzer's power needs no decision (15.67)


@njit(cache=True)
def being_round_first(S, b):
    """8.1: the holder of the Being Choice Marker selects, moves and uses one being.

    The move (PH_BEING_MOVE) is to any space the being reaches (15.11, 15.12,
    15.7; its own space = no move), or off the board (DONE) when its movement
    suffices (8.332): it then goes to the pile, a new being is drawn for its
    lair, and no power is used. The power (``being_power``) follows the move
    (15.61, 15.681, 15.691); a Berserker that kills moves and may attack once
    more (15.621)."""
    s = S[b]
    p = int(s['choice_player'])
    while True:
        sp = int(s['step_index'])
        if sp == BP_SELECT:
            if s['slot_being'][0] < 0 and s['slot_being'][1] < 0:
                s['step_index'] = BP_DONE
                continue
            return pose(S, b, PH_BEING_SELECT, p)
        if sp == BP_MOVE or sp == BP_SECOND_MOVE:
            if s['slot_being'][s['active_slot']] < 0:
                s['step_index'] = BP_DONE
                continue
            return pose(S, b, PH_BEING_MOVE, p)
        if sp == BP_POWER or sp == BP_SECOND_POWER:
            if being_power(S, b):
                return True
            s['step_index'] = BP_DONE
            continue
        # BP_DONE
        s['stage'] = ST_BEING_SECOND
        return False


@njit(cache=True)
def being_round_second(S, b):
    """8.2-8.23: the other being moves at random, its direction chosen from two
    dice by the holder of the Second Being Marker."""
    s = S[b]
    slot = 1 - int(s['active_slot'])
    if s['slot_being'][slot] < 0 or s['slot_loc'][slot] < 0:
        enter_card_segment(S, b)
        return False
    a = d6(S, b)
    c = d6(S, b)
    if a == c:
        random_being_move(S, b, slot, a)
        enter_card_segment(S, b)
        return False
    s['die0'] = a
    s['die1'] = c
    return pose(S, b, PH_SECOND_DIE, int(s['second_player']))


# ================================================================ the card segment (9.1)
@njit(cache=True)
def enter_card_segment(S, b):
    s = S[b]
    s['stage'] = ST_CARDS
    s['step_index'] = 0
    for p in range(MAX_PLAYERS):
        s['card_played'][p] = -1


@njit(cache=True)
def card_segment(S, b):
    """9.11: each player in turn lays one card face down (hidden from the others
    until 9.12 turns them over)."""
    s = S[b]
    n = int(s['num_players'])
    i = int(s['step_index'])
    if i < n:
        return pose(S, b, PH_CARD, i)
    for p in range(n):
        s['cards_in_hand'][p] = int(s['cards_in_hand'][p]) & (0xFF ^ (1 << int(s['card_played'][p])))
    determine_round_order(S, b)
    s['choice_player'] = s['round_order'][0]       # 9.13
    s['second_player'] = s['round_order'][n - 1]
    s['stage'] = ST_PLAYER
    s['order_pos'] = 0
    s['step_index'] = SEG_START
    return False


@njit(cache=True)
def determine_round_order(S, b):
    """9.12-9.125: the round order from the movement cards played.

    The order is built left to right as a row of seats cut into groups of
    places still to be settled. Untied cards come first, low to high (9.121,
    9.122); then each tied card, low tie to high tie (9.123, 9.124). Groups are
    settled from the front: the players of a group each roll one die, in seat
    order; untied rolls take the group's first places, low to high, and each
    tied roll forms a smaller group behind them, low to high ("UNTIED before
    TIED, LOW before HIGH at all times", 9.125). A tie on the dice is rolled
    off at once, before the next group rolls (9.123: "Any ties on the die roll
    are rolled off immediately"). After 200 roll-offs (never in practice) a
    group left tied keeps seat order."""
    s = S[b]
    n = int(s['num_players'])
    order = np.zeros(MAX_PLAYERS, dtype=np.int64)
    group = np.zeros(MAX_PLAYERS, dtype=np.int64)
    key = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for p in range(n):
        v = int(CARD_VALUES[s['card_played'][p]])
        tied = 0
        for q in range(n):
            if q != p and s['card_played'][q] == s['card_played'][p]:
                tied = 1
        key[p] = tied * 100 + v
    used = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for pos in range(n):                       # seats by (key, seat)
        best = -1
        for p in range(n):
            if used[p] == 0 and (best < 0 or key[p] < key[best]):
                best = p
        used[best] = 1
        order[pos] = best
    gid = 0
    for pos in range(n):                       # equal tied keys share a group
        if pos > 0 and key[order[pos]] >= 100 and key[order[pos]] == key[order[pos - 1]]:
            group[pos] = group[pos - 1]
        else:
            gid += 1
            group[pos] = gid
    dice = np.zeros(MAX_PLAYERS, dtype=np.int64)
    rolloffs = 0
    pos = 0
    while pos < n:
        end = pos + 1
        while end < n and group[end] == group[pos]:
            end += 1
        if end - pos == 1 or rolloffs >= 200:
            pos += 1
            continue
        rolloffs += 1
        for i in range(pos, end):              # each tied player rolls one die
            dice[order[i]] = d6(S, b)
        for i in range(pos, end):
            p = order[i]
            tied = 0
            for j in range(pos, end):
                if order[j] != p and dice[order[j]] == dice[p]:
                    tied = 1
            key[p] = tied * 100 + dice[p]
        for i in range(pos + 1, end):          # insertion sort by (key, seat)
            j = i
            while j > pos and (key[order[j]] < key[order[j - 1]] or
                               (key[order[j]] == key[order[j - 1]] and order[j] < order[j - 1])):
                t = order[j]
                order[j] = order[j - 1]
                order[j - 1] = t
                j -= 1
        for i in range(pos, end):
            if i > pos and key[order[i]] >= 100 and key[order[i]] == key[order[i - 1]]:
                group[i] = group[i - 1]
            else:
                gid += 1
                group[i] = gid
        # pos stays: the group now at pos is settled next (ties rolled off at once)
    for pos in range(n):
        s['round_order'][pos] = order[pos]
    for pos in range(n, MAX_PLAYERS):
        s['round_order'][pos] = -1


# ================================================================ the Player's round (9.2-10)
@njit(cache=True)
def current_player(S, b):
    s = S[b]
    return int(s['round_order'][s['order_pos']])


@njit(cache=True)
def can_move(S, b, u):
    """A unit may spend movement points: on the board, healed (9.5), not harried
    (15.665), not paralyzed (15.67)."""
    s = S[b]
    if s['unit_loc'][u] < 0:
        return False
    if s['unit_flags'][u] & (F_WOUNDED | F_HARRIED):
        return False
    return not is_paralyzed(S, b, u)


@njit(cache=True)
def cell_has_exit(S, b, p, cell):
    """Some space next to ``cell`` that p's units may enter with the points left."""
    s = S[b]
    mp = int(s['mp_left'])
    own_cottage = home_cottage(S, b, p)
    for i in range(int(NUM_NEIGHBOURS[cell])):
        nb = int(NEIGHBOURS[cell, i])
        if MOVE_COST[nb] > mp or s['dragon_cell'] == nb or being_at(S, b, nb) >= 0:
            continue
        if s['cell_count'][nb] > 0 and s['cell_colour'][nb] != p:
            continue
        if TERRAIN[nb] == COTTAGE and nb != own_cottage:
            continue
        return True
    return False


@njit(cache=True)
def movable_types(S, b, cell, out):
    """Types of the seat's units on ``cell`` that may move; returns the count."""
    n = 0
    for t in range(4):
        u = unit_of_type_on(S, b, cell, t, F_WOUNDED | F_HARRIED)
        if u >= 0 and can_move(S, b, u):
            out[n] = t
            n += 1
    h = wielder_option(S, b, cell, F_WOUNDED | F_HARRIED)
    if h >= 0 and can_move(S, b, h):
        out[n] = WIELDER
        n += 1
    return n


@njit(cache=True)
def stacking_penalty(S, b, p):
    """9.14: outside castles, villages and cottages, a space holding more than one
    unit at the end of movement loses them all to the replacement pile."""
    s = S[b]
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        loc = int(s['unit_loc'][base + i])
        if loc >= 0 and IS_STRUCTURE[loc] == 0 and s['cell_count'][loc] > 1:
            units = np.empty(UNITS_PER_COLOUR, dtype=np.int16)
            n = units_on(S, b, loc, units)
            for j in range(n):
                kill_unit(S, b, int(units[j]), False)


@njit(cache=True)
def can_attack(S, b, u):
    """9.43, 9.44, 13.4, 15.665, 15.67: may this unit make a normal attack now?"""
    s = S[b]
    if not can_move(S, b, u):
        return False
    p = int(UNIT_COLOUR[u])
    if s['sword_holder'][p] == u:
        return False
    return True


@njit(cache=True)
def is_attack_target(S, b, u, cell, snipe):
    """Can unit u (of the player in his round) attack the counter on ``cell``?

    Adjacent (9.43; a unit moved by victory has already attacked); never a
    cottage (9.41, 9.642) nor Brimstone (9.63); snipes only at units (9.645)
    before any normal attack (9.6422). One attack per unit (9.44), except that
    the attackers of the castle or village under assault (``struct_cell``) may
    attack it again. Choice: a unit that attacked anything else this segment
    may not then assault a structure."""
    s = S[b]
    p = int(UNIT_COLOUR[u])
    loc = int(s['unit_loc'][u])
    if loc < 0 or not SPACE_ADJ[loc, cell]:
        return False
    if TERRAIN[cell] == COTTAGE:
        return False                                   # 9.41, 9.642
    flags = int(s['unit_flags'][u])
    if snipe:
        if UNIT_TYPE[u] != SNIPER or (flags & F_SNIPED) or s['combat_started']:
            return False                               # 9.641, 9.6422
        return s['cell_count'][cell] > 0 and s['cell_colour'][cell] != p   # 9.645: no beings
    if flags & F_ATTACKED:
        if not ((flags & F_IN_FORCE) and cell == s['struct_cell']):
            return False                               # 9.44
    if s['cell_count'][cell] > 0 and s['cell_colour'][cell] != p:
        return True
    slot = being_at(S, b, cell)
    if slot >= 0 and IS_STRUCTURE[cell] == 0:
        if UNIT_TYPE[u] == SNIPER:
            return False                               # 9.645: snipers never attack beings
        if s['slot_being'][slot] == TELEPORTER and s['teleport_user'] == p:
            return False                               # 15.692
        return True
    return False


@njit(cache=True)
def unit_has_attack(S, b, u, snipe):
    s = S[b]
    loc = int(s['unit_loc'][u])
    if loc < 0:
        return False
    if snipe:
        if not can_move(S, b, u):
            return False
    elif not can_attack(S, b, u):
        return False
    for i in range(int(NUM_NEIGHBOURS[loc])):
        if is_attack_target(S, b, u, int(NEIGHBOURS[loc, i]), snipe):
            return True
    return False


@njit(cache=True)
def attack_options(S, b, p, cell, out):
    """Attack options of p's units on ``cell``: types 0..3, and 4 for a snipe.
    Writes them into ``out``; returns the count."""
    s = S[b]
    n = 0
    if s['cell_count'][cell] == 0 or s['cell_colour'][cell] != p:
        return 0
    for t in range(4):
        # any unit of this type that can attack (skip ones that already attacked)
        base = unit_base(p)
        for i in range(UNITS_PER_COLOUR):
            u = base + i
            if s['unit_loc'][u] == cell and UNIT_TYPE[u] == t and unit_has_attack(S, b, u, False):
                out[n] = t
                n += 1
                break
    base = unit_base(p)
    for i in range(1, 3):
        u = base + i
        if s['unit_loc'][u] == cell and unit_has_attack(S, b, u, True):
            out[n] = 4
            n += 1
            break
    return n


@njit(cache=True)
def attacker_for(S, b, p, cell, option):
    """The unit of p on ``cell`` that makes the attack ``option`` (type or 4=snipe)."""
    s = S[b]
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        u = base + i
        if s['unit_loc'][u] != cell:
            continue
        if option == 4:
            if UNIT_TYPE[u] == SNIPER and unit_has_attack(S, b, u, True):
                return u
        elif UNIT_TYPE[u] == option and unit_has_attack(S, b, u, False):
            return u
    return -1


@njit(cache=True)
def defender_types(S, b, cell, out):
    """Types present among the defenders on ``cell``; returns the count."""
    n = 0
    for t in range(4):
        if unit_of_type_on(S, b, cell, t, 0) >= 0:
            out[n] = t
            n += 1
    if wielder_option(S, b, cell, 0) >= 0:
        out[n] = WIELDER
        n += 1
    return n


@njit(cache=True)
def strongest_defender(S, b, cell):
    """The defender a non-player garrison puts up (its strongest unit)."""
    order = (HERO, KNIGHT, MAN_AT_ARMS, SNIPER)
    for i in range(4):
        u = unit_of_type_on(S, b, cell, order[i], 0)
        if u >= 0:
            return u
    return -1


@njit(cache=True)
def resolve_melee(S, b, u, cell, defender, snipe):
    """9.45-9.483: one attacker against one defender (a unit, or the being on
    ``cell`` when ``defender`` is -1). Snipes: 9.641-9.643.

    Choices: a sniper never moves in after a snipe (9.643: only the target is
    affected); the victor over a being moves in only if the space is then
    empty (a being killed in its lair is replaced there at once, 15.4); a
    castle or village is never entered by a single victory (9.612 decides)."""
    s = S[b]
    p = int(UNIT_COLOUR[u])
    strength = SNIPE_STRENGTH if snipe else int(UNIT_ATTACK[UNIT_TYPE[u]])
    atk = strength + d6(S, b)
    if snipe:
        s['unit_flags'][u] |= F_SNIPED
    else:
        s['unit_flags'][u] |= F_ATTACKED
        s['combat_started'] = 1
    if defender < 0:
        slot = being_at(S, b, cell)
        k = int(s['slot_being'][slot])
        diff = atk - (int(BEING_DEFENSE[k]) + int(DEFENSE[cell]) + d6(S, b))
        if diff > 0:
            being_killed(S, b, slot, UNIT_TYPE[u] == HERO, p)      # 15.4, 15.63x
            if not counter_at(S, b, cell):
                set_loc(S, b, u, cell)                              # 9.481
        elif diff < 0:
            # 9.482; a unit that loses against the Demon is killed BY the Demon:
            # for good, the Hero excepted, and never revived (15.63, 15.682)
            kill_unit(S, b, u, k == DEMON)
        else:
            wound_unit(S, b, u)                                    # 9.483
            being_wounded(S, b, slot)
        return
    fort = IS_FORT[cell] == 1
    if fort:
        s['struct_cell'] = cell
        if not snipe:
            s['unit_flags'][u] |= F_IN_FORCE
    diff = atk - (unit_defense(S, b, defender, False) + d6(S, b))
    if diff > 0:
        kill_unit(S, b, defender, False)
        if not snipe and not fort:
            set_loc(S, b, u, cell)                                  # 9.481
            s['unit_flags'][u] |= F_MOVED_IN
    elif diff < 0:
        if not snipe:
            kill_unit(S, b, u, False)                              # 9.482, 9.643
    else:
        wound_unit(S, b, defender)                                 # 9.483, 9.613
        if not snipe:
            wound_unit(S, b, u)


@njit(cache=True)
def occupy_candidates(S, b, p):
    """9.612: attackers of the emptied structure still next to it ("any or all"
    of them: after some have moved in, the others may follow). Attacking units
    are those that made a normal attack on it this segment (F_IN_FORCE); a
    sniper whose snipe emptied it is not one of them."""
    s = S[b]
    cell = int(s['struct_cell'])
    if cell < 0 or (s['cell_count'][cell] > 0 and s['cell_colour'][cell] != p):
        return False
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        u = base + i
        loc = int(s['unit_loc'][u])
        if loc >= 0 and (s['unit_flags'][u] & F_IN_FORCE) and SPACE_ADJ[loc, cell]:
            return True
    return False


# ================================================================ the Dragon Attack segment (9.8, 13, 14)
@njit(cache=True)
def force_capacity(S, b, p, cell):
    """How many of p's units on ``cell`` may join the attack on Brimstone: the
    units standing next to him, or one per hexside a structure of p's shares with
    his space (9.86)."""
    s = S[b]
    dc = int(s['dragon_cell'])
    if not SPACE_ADJ[cell, dc]:
        return 0
    if s['cell_count'][cell] == 0 or s['cell_colour'][cell] != p:
        return 0
    if IS_STRUCTURE[cell]:
        return int(HEXSIDES[cell, dc])
    return int(s['cell_count'][cell])


@njit(cache=True)
def force_size(S, b, p):
    s = S[b]
    n = 0
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        if s['unit_flags'][base + i] & F_IN_FORCE:
            n += 1
    return n


@njit(cache=True)
def in_force_on(S, b, p, cell):
    s = S[b]
    n = 0
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        if s['unit_loc'][base + i] == cell and (s['unit_flags'][base + i] & F_IN_FORCE):
            n += 1
    return n


@njit(cache=True)
def force_candidate(S, b, p, cell, t):
    """A unit of type t on ``cell`` that may join the force now, or -1 (9.81,
    9.861: no snipers; the hero or a sword-wielder attacks alone).

    "A knight" from a space is a knight without the sword when there is one; a
    sword-wielding knight sharing the space with other knights is chosen with
    A_WIELDER instead (``force_wielder``), and only into an empty force."""
    s = S[b]
    if t == SNIPER:
        return -1
    if in_force_on(S, b, p, cell) >= force_capacity(S, b, p, cell):
        return -1
    size = force_size(S, b, p)
    h = int(s['sword_holder'][p])
    if t == KNIGHT and force_wielder(S, b, p, cell) >= 0:
        h = -2        # another knight is there: "a knight" is not the wielder
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        u = base + i
        if s['unit_loc'][u] != cell or UNIT_TYPE[u] != t:
            continue
        if s['unit_flags'][u] & (F_IN_FORCE | F_WOUNDED | F_HARRIED):
            continue
        if is_paralyzed(S, b, u):
            continue
        if h == -2 and s['sword_holder'][p] == u:
            continue
        alone = t == HERO or s['sword_holder'][p] == u
        if alone and size > 0:
            continue
        return u
    return -1


@njit(cache=True)
def force_wielder(S, b, p, cell):
    """The sword-wielding knight on ``cell`` as a choice of its own (A_WIELDER):
    when other knights share his space and the force is still empty (14.41)."""
    s = S[b]
    h = wielder_option(S, b, cell, F_IN_FORCE | F_WOUNDED | F_HARRIED)
    if h < 0 or is_paralyzed(S, b, h) or force_size(S, b, p) > 0:
        return -1
    if in_force_on(S, b, p, cell) >= force_capacity(S, b, p, cell):
        return -1
    return h


@njit(cache=True)
def any_force_candidate(S, b, p):
    s = S[b]
    dc = int(s['dragon_cell'])
    for i in range(int(NUM_NEIGHBOURS[dc])):
        c = int(NEIGHBOURS[dc, i])
        for t in range(4):
            if force_candidate(S, b, p, c, t) >= 0:
                return True
    return False


@njit(cache=True)
def force_strength(S, b, p):
    s = S[b]
    total = 0
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        u = base + i
        if s['unit_flags'][u] & F_IN_FORCE:
            total += int(UNIT_ATTACK[UNIT_TYPE[u]])
    return total


@njit(cache=True)
def affect_force(S, b, p, kill):
    """Kill or wound every unit of the attacking force (table results, 7.644)."""
    s = S[b]
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        u = base + i
        if s['unit_flags'][u] & F_IN_FORCE:
            if kill:
                kill_unit(S, b, u, False)
            else:
                wound_unit(S, b, u)


@njit(cache=True)
def affect_area(S, b, p, radius, kill):
    """7.641-7.643: every counter within ``radius`` of Brimstone, outside castles
    and villages (cottages give no cover, 7.6412), plus any attacker inside a
    castle or village (7.6411); beings too."""
    s = S[b]
    dc = int(s['dragon_cell'])
    for u in range(NUM_UNITS):
        loc = int(s['unit_loc'][u])
        if loc < 0:
            continue
        near = SPACE_DIST[loc, dc] <= radius and loc != dc
        if IS_FORT[loc]:
            near = near and UNIT_COLOUR[u] == p and (s['unit_flags'][u] & F_IN_FORCE) != 0
        if near:
            if kill:
                kill_unit(S, b, u, False)
            else:
                wound_unit(S, b, u)
    for slot in range(2):
        loc = int(s['slot_loc'][slot])
        if s['slot_being'][slot] >= 0 and loc >= 0 and SPACE_DIST[loc, dc] <= radius:
            if kill:
                being_killed(S, b, slot, True, -1)
            else:
                being_wounded(S, b, slot)


@njit(cache=True)
def structure_of(S, b, k, terrain):
    if terrain == CASTLE:
        return int(CASTLE_CELL[k])
    if terrain == VILLAGE:
        return int(VILLAGE_CELL[k])
    return int(COTTAGE_CELL[k])


@njit(cache=True)
def your_structure(S, b, p, terrain):
    """7.63-7.632: the structure of the type that p owns: the home one if p still
    has it; the only one p holds; -2 when p holds several others (the player to
    the left decides, 7.631); the old home one when p holds none (7.632)."""
    s = S[b]
    home = structure_of(S, b, int(s['kingdom'][p]), terrain)
    if terrain == COTTAGE:
        return home                     # a player's cottage is always his own (9.52)
    if controls(S, b, p, home):
        return home
    n = 0
    last = -1
    for k in range(6):
        c = structure_of(S, b, k, terrain)
        if controls(S, b, p, c):
            n += 1
            last = c
    if n == 0:
        return home
    if n == 1:
        return last
    return -2


@njit(cache=True)
def strike_structure_card(S, b, cell):
    """A dragon card sends Brimstone against a structure (7.62, 7.63): a cottage
    is flamed unless the defender rolls 10+ (7.65); a castle or village is
    attacked on the table; then he returns to his lair (7.541)."""
    if TERRAIN[cell] == COTTAGE:
        card_attacks_cottage(S, b, int(KINGDOM[cell]))
        dragon_to_lair(S, b)
    else:
        dragon_strikes_structure(S, b, cell)


@njit(cache=True)
def draw_dragon_card(S, b):
    """Draw the top card of the shuffled deck (1.3, 7.6): uniformly among those
    left, so no order exists to leak. Choice (the rulebook is silent): drawn
    cards are discarded, and a spent deck is reshuffled whole."""
    s = S[b]
    left = int(s['deck_left'])
    if left == 0:
        left = (1 << DECK_SIZE) - 1
    if s['loaded_card'] > 0:                      # scenario tests: a chosen card
        i = int(s['loaded_card']) - 1
        s['loaded_card'] = 0
        s['deck_left'] = np.uint32(left & (0xFFFFFFFF ^ (1 << i)))
        return i
    n = 0
    for i in range(DECK_SIZE):
        if left & (1 << i):
            n += 1
    r = roll(S, b, n)
    for i in range(DECK_SIZE):
        if left & (1 << i):
            if r == 0:
                s['deck_left'] = np.uint32(left & (0xFFFFFFFF ^ (1 << i)))
                return i
            r -= 1
    return -1


@njit(cache=True)
def fly_six(S, b):
    """7.66: one die for the direction; six spaces, attacking everything he passes
    over or lands on; a castle, village or cottage on the way ends the flight with
    an attack on it, then home (7.541): a castle or village on the structure
    column, a cottage as 7.65 says for any cottage attacked because of a dragon
    card (flamed unless its defender rolls 10+). Choices where the rulebook is
    silent: reaching the board's edge ends the flight in his lair with no reroll
    (7.42 is for the moves of his round), the attacks already made standing;
    flying over his own occupied lair is a return home (7.46)."""
    s = S[b]
    d = d6(S, b)
    c = int(s['dragon_cell'])
    for i in range(6):
        c = int(STEP[c, d])
        if c < 0:
            dragon_to_lair(S, b)
            return
        if IS_STRUCTURE[c]:
            s['dragon_cell'] = c
            strike_structure_card(S, b, c)
            return
        s['dragon_cell'] = c
        if c == LAIR_CELL:
            dragon_to_lair(S, b)
        elif s['cell_count'][c] > 0 or being_at(S, b, c) >= 0:
            dragon_attacks_piece(S, b, c)


@njit(cache=True)
def slaying_battle(S, b, p, u):
    """13.5-14.43: the sword-wielder's attempt to kill Brimstone. Magical defense
    = strength + the Mage Sword Chart (+2 markers per Demon slain, 15.635);
    five dragon parts 1-5, six (two 1s) when enraged (14.21, 14.22). The
    attacker removes the part matching his die; Brimstone hits on a 6 or on a
    surviving part's number (14.32, 14.33). Returns True if Brimstone is slain."""
    s = S[b]
    md = int(UNIT_ATTACK[UNIT_TYPE[u]]) + int(MAGESWORD_PLUS[d6(S, b)])
    if s['md_holder'][p] == u:
        md += int(s['md_carried'][p])
    parts = np.zeros(7, dtype=np.int64)           # parts[v] = surviving parts numbered v
    for v in range(1, 6):
        parts[v] = 1
    if s['enraged']:
        parts[1] = 2
    left = 6 if s['enraged'] else 5
    while True:
        r = d6(S, b)
        if r <= 5 and parts[r] > 0:
            parts[r] -= 1
            left -= 1
            if left == 0:
                return True
        r = d6(S, b)
        if r == 6 or parts[r] > 0:
            md -= 1
            if md == 0:
                kill_unit(S, b, u, False)         # 14.34, 13.3, 14.43
                set_enraged(S, b)                 # 9.842
                return False


@njit(cache=True)
def start_casualties(S, b, p, k, kill, after):
    """The attacking player picks k of his attackers to die or be wounded (7.645);
    with k or fewer attackers they all fall."""
    s = S[b]
    s['after_casualty'] = after
    if force_size(S, b, p) <= k:
        affect_force(S, b, p, kill)
        return False
    s['casualties'] = k
    s['casualty_kill'] = 1 if kill else 0
    return pose(S, b, PH_CASUALTY, p)


@njit(cache=True)
def wound_brimstone(S, b, p):
    """9.83, 9.84, 13.1: a wound marker; he becomes enraged; the third marker makes
    the magesword appear."""
    s = S[b]
    if s['wounds'][p] < 3:
        s['wounds'][p] += 1
        if s['wounds'][p] == 3:
            materialise_sword(S, b, p)
    set_enraged(S, b)
    s['do_or_die'] = 0


@njit(cache=True)
def card_structure_terrain(kind):
    if kind == CARD_ATTACKS_CASTLE_OF_CHOICE or kind == CARD_ATTACKS_YOUR_CASTLE:
        return CASTLE
    if kind == CARD_ATTACKS_VILLAGE_OF_CHOICE or kind == CARD_ATTACKS_YOUR_VILLAGE:
        return VILLAGE
    return COTTAGE


@njit(cache=True)
def resolve_dragon_card(S, b, p):
    """7.6: draw a dragon card and carry it out. Returns True if a decision is posed."""
    s = S[b]
    kind = int(DECK[draw_dragon_card(S, b)])
    s['sel_type'] = kind
    if kind == CARD_DO_OR_DIE:
        s['do_or_die'] = 1                                      # 7.61
        return False
    if kind == CARD_ATTACKS_CASTLE_OF_CHOICE or kind == CARD_ATTACKS_VILLAGE_OF_CHOICE \
            or kind == CARD_ATTACKS_COTTAGE_OF_CHOICE or kind == CARD_FLAMES_COTTAGE_OF_CHOICE:
        return pose(S, b, PH_CARD_STRUCT, p)                    # 7.62
    if kind == CARD_MOVES_FIVE_OF_CHOICE:
        s['five_left'] = 5
        s['five_path'][0] = s['dragon_cell']
        for i in range(1, 6):
            s['five_path'][i] = -1
        return five_move_next(S, b, p)
    if kind == CARD_ATTACKS_YOUR_CASTLE or kind == CARD_ATTACKS_YOUR_VILLAGE or kind == CARD_ATTACKS_YOUR_COTTAGE:
        c = your_structure(S, b, p, card_structure_terrain(kind))   # 7.63
        if c == -2:
            return pose(S, b, PH_CARD_STRUCT, left_of(S, b, p))      # 7.631
        strike_structure_card(S, b, c)
        return False
    if kind == CARD_KILLS_ADJACENT or kind == CARD_WOUNDS_ADJACENT:
        affect_area(S, b, p, 1, kind == CARD_KILLS_ADJACENT)
    elif kind == CARD_KILLS_WITHIN_TWO or kind == CARD_WOUNDS_WITHIN_TWO:
        affect_area(S, b, p, 2, kind == CARD_KILLS_WITHIN_TWO)
    elif kind == CARD_KILLS_ATTACKING_FORCE or kind == CARD_WOUNDS_ATTACKING_FORCE:
        affect_force(S, b, p, kind == CARD_KILLS_ATTACKING_FORCE)   # 7.644
    elif kind == CARD_KILLS_TWO:
        return start_casualties(S, b, p, 2, True, AC_END)           # 7.645
    elif kind == CARD_FLIES_SIX_RANDOM:
        fly_six(S, b)                                               # 7.66
    elif kind == CARD_NAP:
        s['asleep_until'] = s['brimstone_rounds'] + 1               # 7.67
    elif kind == CARD_FLAMES_YOUR_COTTAGE:
        card_flames_cottage(S, b, int(s['kingdom'][p]))             # 7.68
    return False


@njit(cache=True)
def five_move_legal(S, b, cell):
    """7.62, the five spaces of your choice: one hex in any direction, on the
    board, never into a space he has already been on this move (the hexes of a
    2-hex castle or village are one space, 9.33). Nothing else restricts him:
    he may pass over counters, structures and lairs without attacking."""
    s = S[b]
    dc = int(s['dragon_cell'])
    ok = False
    for d in range(1, 7):
        if STEP[dc, d] == cell:
            ok = True
    if not ok:
        return False
    for i in range(6):
        c = int(s['five_path'][i])
        if c >= 0 and SPACE[c] == SPACE[cell]:
            return False                   # 7.62: no space twice
    return True


@njit(cache=True)
def five_move_next(S, b, p):
    """Ask p for the next space of the five-space move (7.62), or end it: he
    attacks what he ends on (a castle or village on the structure column, a
    cottage as 7.65 says for cottages attacked because of a dragon card, and
    then home, 7.541; a counter on the single-piece column; an occupied lair,
    7.46). "He must move five spaces": no DONE is offered; only when every
    neighbouring hex is off the board or already visited does the move end
    early (choice: the rulebook does not say what happens then)."""
    s = S[b]
    if s['five_left'] > 0:
        dc = int(s['dragon_cell'])
        for d in range(1, 7):
            c = int(STEP[dc, d])
            if c >= 0 and five_move_legal(S, b, c):
                return pose(S, b, PH_FIVE_MOVE, p)
    # the move is over: attack whatever he ends on (7.62)
    c = int(s['dragon_cell'])
    s['five_left'] = 0
    if IS_STRUCTURE[c]:
        strike_structure_card(S, b, c)
    elif c == LAIR_CELL:
        dragon_to_lair(S, b)
    elif s['cell_count'][c] > 0 or being_at(S, b, c) >= 0:
        dragon_attacks_piece(S, b, c)
    return False


@njit(cache=True)
def apply_wound_result(S, b, p, r):
    """Carry out a result of the wound / do-or-die columns. True if a decision is posed."""
    if r == R_ALL_KILLED or r == R_ALL_WOUNDED:
        affect_force(S, b, p, r == R_ALL_KILLED)
        return False
    if r == R_ONE_KILLED or r == R_ONE_WOUNDED:
        return start_casualties(S, b, p, 1, r == R_ONE_KILLED, AC_END)
    if r == R_TWO_KILLED:
        return start_casualties(S, b, p, 2, True, AC_END)
    if r == R_THREE_KILLED:
        return start_casualties(S, b, p, 3, True, AC_END)
    if r == R_ONE_KILLED_ATTACKS_CASTLE or r == R_ONE_WOUNDED_ATTACKS_CASTLE:
        if start_casualties(S, b, p, 1, r == R_ONE_KILLED_ATTACKS_CASTLE, AC_STRIKE_CASTLE):
            return True
        return strike_your_castle(S, b, p)
    if r == R_DRAW_CARD:
        return resolve_dragon_card(S, b, p)
    if r == R_DRAGON_WOUNDED:
        wound_brimstone(S, b, p)
    return False


@njit(cache=True)
def strike_your_castle(S, b, p):
    """The 2nd/3rd wound column: 'Brimstone attacks your castle and returns to his
    lair' (castle chosen as for the ATTACKS YOUR cards, 7.63)."""
    s = S[b]
    s['do_or_die'] = 0
    s['sel_type'] = CARD_ATTACKS_YOUR_CASTLE
    c = your_structure(S, b, p, CASTLE)
    if c == -2:
        return pose(S, b, PH_CARD_STRUCT, left_of(S, b, p))
    dragon_strikes_structure(S, b, c)
    return False


@njit(cache=True)
def wound_attempt(S, b, p):
    """9.82: total strength + two dice, -2 if enraged, -2 in his lair (9.71);
    the first-wound, later-wound or do-or-die column. Waking him from his nap
    enrages him and forces do-or-die (7.67)."""
    s = S[b]
    if s['asleep_until'] >= 0:
        s['asleep_until'] = -1
        set_enraged(S, b)
        s['do_or_die'] = 1
    total = force_strength(S, b, p) + d6(S, b) + d6(S, b) - enraged_penalty(S, b)
    if s['dragon_cell'] == LAIR_CELL:
        total -= int(DEFENSE[LAIR_CELL])
    if s['do_or_die']:
        col = COL_DO_OR_DIE
    elif s['wounds'][p] == 0:
        col = COL_FIRST_WOUND
    else:
        col = COL_LATER_WOUND
    return apply_wound_result(S, b, p, table_result(col, total))


@njit(cache=True)
def dragon_segment(S, b):
    """Run the Dragon Attack segment of the current player until a decision or its
    end. Its force is chosen through PH_DRAGON_FORCE; the attack rolls here."""
    s = S[b]
    p = current_player(S, b)
    while True:
        if s['status'] != 0:
            return False
        if s['do_or_die'] and force_size(S, b, p) > 0:
            if wound_attempt(S, b, p):             # 7.61: fight on
                return True
            continue
        s['do_or_die'] = 0
        s['step_index'] = SEG_END
        return False


@njit(cache=True)
def launch_dragon_attack(S, b, p):
    """The force is complete: a sword-wielder fights the slaying battle (14),
    anyone else tries to wound (9.82). True if a decision is posed."""
    s = S[b]
    h = int(s['sword_holder'][p])
    if h >= 0 and (s['unit_flags'][h] & F_IN_FORCE):
        if s['asleep_until'] >= 0:
            s['asleep_until'] = -1
            set_enraged(S, b)
        if slaying_battle(S, b, p, h):
            end_game(S, b, p)
            return False
        s['step_index'] = SEG_END
        return False
    s['step_index'] = SEG_RESOLVE
    return wound_attempt(S, b, p)


@njit(cache=True)
def end_game(S, b, winner):
    """Brimstone is slain: the slayer wins (rank 1, +1), the others share last
    place (rank 2) and -1."""
    s = S[b]
    n = int(s['num_players'])
    s['status'] = 1
    s['winner'] = winner
    s['to_play'] = -1
    s['phase'] = PH_NONE
    s['stage'] = ST_OVER
    for q in range(n):
        s['rewards'][q] = 1.0 if q == winner else np.float32(-1.0 / (n - 1))
        s['rank'][q] = 1 if q == winner else 2


@njit(cache=True)
def player_round(S, b):
    """9.2: each player in round order takes his movement, combat and dragon
    attack segments; then 10: the turn ends. True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    while True:
        if s['status'] != 0:
            return False
        if s['order_pos'] >= n:
            end_players_round(S, b)
            return False
        p = current_player(S, b)
        seg = int(s['step_index'])
        base = unit_base(p)
        if seg == SEG_START:
            for i in range(UNITS_PER_COLOUR):          # 9.5: healed for this movement segment
                clear_flags(S, b, base + i, F_WOUNDED)
            s['mp_left'] = CARD_VALUES[s['card_played'][p]]   # 9.31
            s['step_index'] = SEG_MOVE
            check_pickups(S, b, p)
            return pose(S, b, PH_MOVE_SELECT, p)
        if seg == SEG_MOVE:
            return pose(S, b, PH_MOVE_SELECT, p)
        if seg == SEG_COMBAT:
            return pose(S, b, PH_COMBAT_SELECT, p)
        if seg == SEG_DRAGON:
            return pose(S, b, PH_DRAGON_FORCE, p)
        if seg == SEG_RESOLVE:
            if dragon_segment(S, b):
                return True
            continue
        # SEG_END (10): discard the card (already out of the hand), next player
        for i in range(UNITS_PER_COLOUR):
            clear_flags(S, b, base + i, F_IN_FORCE | F_ATTACKED | F_SNIPED | F_MOVED_IN)
        s['do_or_die'] = 0
        s['order_pos'] += 1
        s['step_index'] = SEG_START


@njit(cache=True)
def end_movement_segment(S, b, p):
    s = S[b]
    stacking_penalty(S, b, p)                  # 9.14
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        clear_flags(S, b, base + i, F_ATTACKED | F_SNIPED | F_IN_FORCE | F_MOVED_IN)
    s['combat_started'] = 0
    s['struct_cell'] = -1
    s['step_index'] = SEG_COMBAT


@njit(cache=True)
def end_combat_segment(S, b, p):
    s = S[b]
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        clear_flags(S, b, base + i, F_IN_FORCE)
    s['struct_cell'] = -1
    s['do_or_die'] = 0
    if any_force_candidate(S, b, p):
        s['step_index'] = SEG_DRAGON
    else:
        s['step_index'] = SEG_END              # 9.8: no unit next to him, the round is over


@njit(cache=True)
def end_players_round(S, b):
    """10, 11: the turn is over; harried units turn face up again (15.6641); after
    the fourth turn comes the growth phase (12)."""
    s = S[b]
    n = int(s['num_players'])
    for u in range(NUM_UNITS):
        clear_flags(S, b, u, F_HARRIED)
    s['teleport_user'] = -1
    s['dragon_first'] = s['round_order'][n - 1]      # 6: last mover moves him first
    s['turn'] += 1
    if s['turn'] >= 4:
        enter_growth(S, b)
    else:
        enter_brimstone_round(S, b)


# ================================================================ the growth phase (12)
@njit(cache=True)
def enter_growth(S, b):
    """12.1 re-supply, 12.2 repair, then 12.3 replacements: the hero and knights
    come back home (12.34, 12.341) at once; men-at-arms and snipers go to a
    controlled village, chosen by the player when he holds several (12.33)."""
    s = S[b]
    n = int(s['num_players'])
    for p in range(n):
        s['cards_in_hand'][p] = (1 << CARDS_PER_PLAYER) - 1
    for k in range(6):
        s['flamed'][k] = 0
    for p in range(n):
        castle = home_castle(S, b, p)
        knights = count_dead(S, b, p, KNIGHT)
        if knights > 3:
            knights = 3                                   # 12.3, 12.32
        hero_dead = s['unit_loc'][unit_base(p)] == LOC_DEAD
        if controls(S, b, p, castle):                     # 12.34
            for i in range(knights):
                set_loc(S, b, dead_unit(S, b, p, KNIGHT), castle)
            if hero_dead:
                set_loc(S, b, unit_base(p), castle)
        else:                                             # 12.341
            cottage = home_cottage(S, b, p)
            if hero_dead:
                set_loc(S, b, unit_base(p), cottage)
            placed = 0
            if knights > 0:
                set_loc(S, b, dead_unit(S, b, p, KNIGHT), cottage)
                placed = 1
            for k in range(6):
                if placed >= knights:
                    break
                c = int(CASTLE_CELL[k])
                if controls(S, b, p, c):
                    set_loc(S, b, dead_unit(S, b, p, KNIGHT), c)
                    placed += 1
        maa = count_dead(S, b, p, MAN_AT_ARMS)
        s['reinf_left'][p, 0] = maa if maa < 6 else 6
        sn = count_dead(S, b, p, SNIPER)
        s['reinf_left'][p, 1] = 1 if sn > 0 else 0
    s['stage'] = ST_GROWTH_REPL
    s['step_index'] = 0


@njit(cache=True)
def controlled_villages(S, b, p):
    n = 0
    last = -1
    for k in range(6):
        if controls(S, b, p, int(VILLAGE_CELL[k])):
            n += 1
            last = int(VILLAGE_CELL[k])
    return n, last


@njit(cache=True)
def replacement_type(S, b, p):
    s = S[b]
    return MAN_AT_ARMS if s['reinf_left'][p, 0] > 0 else SNIPER


@njit(cache=True)
def place_replacement(S, b, p, village):
    s = S[b]
    t = replacement_type(S, b, p)
    set_loc(S, b, dead_unit(S, b, p, t), village)
    s['reinf_left'][p, 0 if t == MAN_AT_ARMS else 1] -= 1


@njit(cache=True)
def growth_replacements(S, b):
    s = S[b]
    n = int(s['num_players'])
    while s['step_index'] < n:
        p = int(s['step_index'])
        while s['reinf_left'][p, 0] + s['reinf_left'][p, 1] > 0:
            nv, last = controlled_villages(S, b, p)
            if nv == 0:                                  # 12.331: lost this time
                s['reinf_left'][p, 0] = 0
                s['reinf_left'][p, 1] = 0
            elif nv == 1:
                place_replacement(S, b, p, last)
            else:
                return pose(S, b, PH_REPL_VILLAGE, p)
        s['step_index'] += 1
    # 12.4, 12.41: reinforcements; 12.5: placed like the set-up
    for p in range(n):
        castles = 0
        villages = 0
        for k in range(6):
            if controls(S, b, p, int(CASTLE_CELL[k])):
                castles += 1
            if controls(S, b, p, int(VILLAGE_CELL[k])):
                villages += 1
        s['reinf_left'][p, 0] = max(2, 2 * villages)
        s['reinf_left'][p, 1] = max(1, castles)
    start = int(s['round_order'][n - 1])                 # 12.5: last round of the hand
    s['place_start'] = start
    s['step_index'] = start
    s['place_type'] = MAN_AT_ARMS
    s['stage'] = ST_GROWTH_PLACE
    return False


@njit(cache=True)
def end_growth(S, b):
    """12.53: the last to place opens the next hand's Brimstone round; a hand limit
    truncates the game as a draw."""
    s = S[b]
    s['dragon_first'] = s['placed_last']
    if s['hand'] >= s['max_hands']:
        s['status'] = 2
        for q in range(int(s['num_players'])):
            s['rank'][q] = 1          # undecided: every seat shares first place, a draw
        s['to_play'] = -1
        s['phase'] = PH_NONE
        s['stage'] = ST_OVER
        return
    s['hand'] += 1
    s['turn'] = 0
    enter_brimstone_round(S, b)


# ================================================================ the legal mask
@njit(cache=True)
def mark_vacant_next_to(S, b, cell, mask):
    for i in range(int(NUM_NEIGHBOURS[cell])):
        c = int(NEIGHBOURS[cell, i])
        if is_vacant_field(S, b, c):
            mask[c] = 1


@njit(cache=True)
def fill_mask(S, b, mask):
    """mask[a] = 1 iff action a is legal for ``to_play`` now. Returns the count."""
    s = S[b]
    for a in range(NUM_ACTIONS):
        mask[a] = 0
    if s['status'] != 0:
        return 0
    ph = int(s['phase'])
    p = int(s['to_play'])
    n = int(s['num_players'])
    tmp = np.empty(8, dtype=np.int64)
    if ph == PH_KINGDOM:
        for k in range(6):
            free = True
            for q in range(n):
                if s['kingdom'][q] == k:
                    free = False
            if free:
                mask[CASTLE_CELL[k]] = 1
    elif ph == PH_PLACE:
        k = int(s['kingdom'][p])
        count = s['cell_count']
        colour = s['cell_colour']
        dragon = int(s['dragon_cell'])
        for c in range(NC):
            if PLACE_OK[k, c] == 0 or count[c] > 0 or c == dragon:
                continue
            ok = being_at(S, b, c) < 0
            for i in range(int(NUM_NEIGHBOURS[c])):
                c2 = int(NEIGHBOURS[c, i])
                if count[c2] > 0 and colour[c2] != p:
                    ok = False
                    break
            if ok:                                 # = placement_legal, inlined (hot)
                mask[c] = 1
    elif ph == PH_DRAGON_DIE or ph == PH_SECOND_DIE:
        mask[A_DIE0] = 1
        mask[A_DIE1] = 1
    elif ph == PH_BEING_SELECT:
        for k in range(2):
            if s['slot_being'][k] >= 0 and s['slot_loc'][k] >= 0:
                mask[s['slot_loc'][k]] = 1
    elif ph == PH_BEING_MOVE:
        slot = int(s['active_slot'])
        k = int(s['slot_being'][slot])
        here = int(s['slot_loc'][slot])
        dist = np.empty(NC, dtype=np.int16)
        budget = controlled_move_budget(S, b)
        reach(S, b, here, budget, MODE_FLYING_BEING if BEING_FLIES[k] else MODE_GROUND_BEING, p, dist)
        for c in range(NC):
            if dist[c] != UNREACHED and SPACE[c] == c and IS_STRUCTURE[c] == 0:
                if c == here or not counter_at(S, b, c):
                    mask[c] = 1
        if can_leave_board(dist, budget):
            mask[A_DONE] = 1                               # 8.332: move it off the board
    elif ph == PH_BEING_TARGET:
        slot = int(s['active_slot'])
        k = int(s['slot_being'][slot])
        here = int(s['slot_loc'][slot])
        if k == DISPERSER:
            mask[here] = 1
            mask[A_DONE] = 1
        else:
            for i in range(int(NUM_NEIGHBOURS[here])):
                c = int(NEIGHBOURS[here, i])
                if can_be_attacked_by_being(S, b, slot, c, p):
                    mask[c] = 1
            if k == EAGLE:
                base = unit_base(p)
                for i in range(UNITS_PER_COLOUR):
                    loc = int(s['unit_loc'][base + i])
                    if loc >= 0 and IS_STRUCTURE[loc] == 0 and SPACE_DIST[loc, here] <= 8:
                        mask[loc] = 1                      # 15.66: carry an own unit
            if k != TROLL:
                mask[A_DONE] = 1
    elif ph == PH_BANISH_DEST:
        for c in range(NC):
            if is_vacant_field(S, b, c):
                mask[c] = 1
    elif ph == PH_EAGLE_DEST:
        for c in range(NC):
            if is_vacant_field(S, b, c) and vacant_next_to(S, b, c):
                mask[c] = 1
    elif ph == PH_EAGLE_LAND:
        mark_vacant_next_to(S, b, int(s['eagle_cell']), mask)
    elif ph == PH_CHARM:
        slot = int(s['active_slot'])
        d = dragon_row_direction(S, b, int(s['slot_loc'][slot]))
        toward = (d + 2) % 6 + 1
        for k in range(1, 4):
            if charm_path_ok(S, b, toward, k):
                mask[A_CHARM0 + k - 1] = 1
            if charm_path_ok(S, b, d, k):
                mask[A_CHARM0 + 2 + k] = 1
        mask[A_DONE] = 1
    elif ph == PH_REVIVE_TYPE:
        base = unit_base(p)
        for i in range(UNITS_PER_COLOUR):
            u = base + i
            if s['unit_loc'][u] == LOC_DEAD and (s['unit_flags'][u] & F_DEMON_KILL) == 0:
                mask[A_TYPE0 + int(UNIT_TYPE[u])] = 1
        mask[A_DONE] = 1
    elif ph == PH_REVIVE_CELL or ph == PH_TELEPORT_DEST:
        mark_vacant_next_to(S, b, int(s['slot_loc'][s['active_slot']]), mask)
    elif ph == PH_TELEPORT_UNIT:
        src = int(s['sel_cell'])
        if src >= 0:                                   # several types there: which one (15.69)
            for t in range(4):
                if unit_of_type_on(S, b, src, t, F_WOUNDED) >= 0:
                    mask[A_TYPE0 + t] = 1
            if wielder_option(S, b, src, F_WOUNDED) >= 0:
                mask[A_WIELDER] = 1
        else:
            base = unit_base(p)
            for i in range(UNITS_PER_COLOUR):
                loc = int(s['unit_loc'][base + i])
                if loc >= 0 and (s['unit_flags'][base + i] & F_WOUNDED) == 0:
                    mask[loc] = 1
            mask[A_DONE] = 1
    elif ph == PH_CARD:
        for i in range(CARDS_PER_PLAYER):
            if s['cards_in_hand'][p] & (1 << i):
                mask[A_CARD0 + i] = 1
    elif ph == PH_MOVE_SELECT:
        # one pass over the mover's counters (not over the board): a space is
        # offered when some unit there may move and an affordable exit exists
        base = unit_base(p)
        for i in range(UNITS_PER_COLOUR):
            loc = int(s['unit_loc'][base + i])
            if loc >= 0 and mask[loc] == 0 and can_move(S, b, base + i) and cell_has_exit(S, b, p, loc):
                mask[loc] = 1
        mask[A_DONE] = 1
    elif ph == PH_MOVE_TYPE:
        m = movable_types(S, b, int(s['sel_cell']), tmp)
        for i in range(m):
            mask[choice_action(int(tmp[i]))] = 1
    elif ph == PH_MOVE_DEST:
        src = int(s['unit_loc'][s['sel_unit']])
        dist = np.empty(NC, dtype=np.int16)
        reach(S, b, src, int(s['mp_left']), MODE_UNIT, p, dist)
        for c in range(NC):
            if c != src and dist[c] != UNREACHED and SPACE[c] == c:
                mask[c] = 1
    elif ph == PH_COMBAT_SELECT:
        base = unit_base(p)
        for i in range(UNITS_PER_COLOUR):
            u = base + i
            loc = int(s['unit_loc'][u])
            if loc < 0 or mask[loc]:
                continue
            if unit_has_attack(S, b, u, False) or (UNIT_TYPE[u] == SNIPER and unit_has_attack(S, b, u, True)):
                mask[loc] = 1
        mask[A_DONE] = 1
    elif ph == PH_COMBAT_TYPE:
        m = attack_options(S, b, p, int(s['sel_cell']), tmp)
        for i in range(m):
            if tmp[i] == 4:
                mask[A_SNIPE] = 1
            else:
                mask[A_TYPE0 + tmp[i]] = 1
    elif ph == PH_COMBAT_TARGET:
        u = int(s['sel_unit'])
        loc = int(s['unit_loc'][u])
        for i in range(int(NUM_NEIGHBOURS[loc])):
            c = int(NEIGHBOURS[loc, i])
            if is_attack_target(S, b, u, c, s['sel_type'] == 4):
                mask[c] = 1
    elif ph == PH_SNIPE_TYPE or ph == PH_DEFENDER:
        m = defender_types(S, b, int(s['target_cell']), tmp)
        for i in range(m):
            mask[choice_action(int(tmp[i]))] = 1
    elif ph == PH_OCCUPY:
        cell = int(s['struct_cell'])
        base = unit_base(p)
        for i in range(UNITS_PER_COLOUR):
            loc = int(s['unit_loc'][base + i])
            if loc >= 0 and (s['unit_flags'][base + i] & F_IN_FORCE) and SPACE_ADJ[loc, cell]:
                mask[loc] = 1
        mask[A_DONE] = 1
    elif ph == PH_DRAGON_FORCE:
        dc = int(s['dragon_cell'])
        for i in range(int(NUM_NEIGHBOURS[dc])):
            c = int(NEIGHBOURS[dc, i])
            for t in range(4):
                if force_candidate(S, b, p, c, t) >= 0:
                    mask[c] = 1
        mask[A_DONE] = 1
    elif ph == PH_FORCE_TYPE:
        for t in range(4):
            if force_candidate(S, b, p, int(s['sel_cell']), t) >= 0:
                mask[A_TYPE0 + t] = 1
        if force_wielder(S, b, p, int(s['sel_cell'])) >= 0:
            mask[A_WIELDER] = 1
    elif ph == PH_CASUALTY:
        q = current_player(S, b)
        base = unit_base(q)
        for i in range(UNITS_PER_COLOUR):
            loc = int(s['unit_loc'][base + i])
            if loc >= 0 and (s['unit_flags'][base + i] & F_IN_FORCE):
                mask[loc] = 1
    elif ph == PH_CARD_STRUCT:
        kind = int(s['sel_type'])
        terrain = card_structure_terrain(kind)
        q = current_player(S, b)
        mine_only = kind == CARD_ATTACKS_YOUR_CASTLE or kind == CARD_ATTACKS_YOUR_VILLAGE \
            or kind == CARD_ATTACKS_YOUR_COTTAGE
        for k in range(6):
            c = structure_of(S, b, k, terrain)
            if not mine_only or controls(S, b, q, c):
                mask[c] = 1
    elif ph == PH_FIVE_MOVE:
        dc = int(s['dragon_cell'])
        for d in range(1, 7):
            c = int(STEP[dc, d])
            if c >= 0 and five_move_legal(S, b, c):
                mask[c] = 1
    elif ph == PH_REPL_VILLAGE:
        for k in range(6):
            if controls(S, b, p, int(VILLAGE_CELL[k])):
                mask[VILLAGE_CELL[k]] = 1
    count = 0
    for a in range(NUM_ACTIONS):
        count += int(mask[a])
    return count


# ================================================================ applying a decision
@njit(cache=True)
def being_done(S, b):
    S[b]['step_index'] = BP_DONE
    return False


@njit(cache=True)
def after_melee(S, b, p):
    """9.612: an emptied structure may be occupied by its adjacent attackers."""
    if occupy_candidates(S, b, p):
        return pose(S, b, PH_OCCUPY, p)
    return False


@njit(cache=True)
def do_action(S, b, a):
    """Carry out legal action a. Returns True if it posed the next decision itself."""
    s = S[b]
    ph = int(s['phase'])
    p = int(s['to_play'])
    s['phase'] = PH_NONE
    tmp = np.empty(8, dtype=np.int64)
    if ph == PH_KINGDOM:
        choose_kingdom(S, b, p, int(KINGDOM[a]))
        s['step_index'] += 1
    elif ph == PH_PLACE:
        place_unit(S, b, a)
    elif ph == PH_DRAGON_DIE:
        d = int(s['die0']) if a == A_DIE0 else int(s['die1'])
        after_dragon_part(S, b, dragon_walk(S, b, d, 1))
    elif ph == PH_BEING_SELECT:
        s['active_slot'] = being_at(S, b, a)
        s['step_index'] = BP_MOVE
    elif ph == PH_BEING_MOVE:
        if a == A_DONE:                                     # 8.332: off the board
            being_to_pile(S, b, int(s['active_slot']))
            return being_done(S, b)
        s['slot_loc'][s['active_slot']] = a
        s['step_index'] = BP_POWER if s['step_index'] == BP_MOVE else BP_SECOND_POWER
    elif ph == PH_BEING_TARGET:
        slot = int(s['active_slot'])
        k = int(s['slot_being'][slot])
        if a == A_DONE:
            return being_done(S, b)
        if k == DISPERSER:
            disperse(S, b, slot)
            return being_done(S, b)
        if k == EAGLE:
            if s['cell_colour'][a] == p:
                tmpu = np.empty(UNITS_PER_COLOUR, dtype=np.int16)
                units_on(S, b, a, tmpu)
                s['sel_unit'] = tmpu[0]
                return pose(S, b, PH_EAGLE_DEST, p)
            tmpu = np.empty(UNITS_PER_COLOUR, dtype=np.int16)
            units_on(S, b, a, tmpu)
            u = int(tmpu[0])
            diff = int(BEING_ATTACK[EAGLE]) + d6(S, b) - (unit_defense(S, b, u, False) + d6(S, b))
            # a harry is an attack by a being that the unit survives either way:
            # a sniper flees home at once, harried or not (9.645)
            if diff >= 0:                                   # 15.664: wins or ties
                s['unit_flags'][u] |= F_HARRIED
                s['eagle_cell'] = a
                sniper_flees(S, b, u)
                if vacant_next_to(S, b, a):
                    return pose(S, b, PH_EAGLE_LAND, p)
                return being_done(S, b)
            being_to_lair(S, b, slot)                       # loses: wounded, home
            sniper_flees(S, b, u)
            return being_done(S, b)
        r = being_attack(S, b, slot, a)
        if r == BA_BANISH:
            s['target_cell'] = a
            for c in range(NC):
                if is_vacant_field(S, b, c):
                    return pose(S, b, PH_BANISH_DEST, p)
            return being_done(S, b)
        if k == BERSERKER and r == BA_KILLED and s['step_index'] == BP_POWER:
            s['step_index'] = BP_SECOND_MOVE                # 15.621
            return False
        return being_done(S, b)
    elif ph == PH_BANISH_DEST:
        banish(S, b, int(s['active_slot']), int(s['target_cell']), a)
        return being_done(S, b)
    elif ph == PH_EAGLE_DEST:
        set_loc(S, b, int(s['sel_unit']), a)
        s['eagle_cell'] = a
        return pose(S, b, PH_EAGLE_LAND, p)
    elif ph == PH_EAGLE_LAND:
        s['slot_loc'][s['active_slot']] = a
        return being_done(S, b)
    elif ph == PH_CHARM:
        if a != A_DONE:
            d = dragon_row_direction(S, b, int(s['slot_loc'][s['active_slot']]))
            j = a - A_CHARM0
            if j < 3:
                charm_dragon(S, b, (d + 2) % 6 + 1, j + 1)
            else:
                charm_dragon(S, b, d, j - 2)
        return being_done(S, b)
    elif ph == PH_REVIVE_TYPE:
        if a == A_DONE:
            return being_done(S, b)
        s['sel_type'] = a - A_TYPE0
        return pose(S, b, PH_REVIVE_CELL, p)
    elif ph == PH_REVIVE_CELL:
        base = unit_base(p)
        for i in range(UNITS_PER_COLOUR):
            u = base + i
            if s['unit_loc'][u] == LOC_DEAD and UNIT_TYPE[u] == s['sel_type'] \
                    and (s['unit_flags'][u] & F_DEMON_KILL) == 0:
                s['unit_flags'][u] = 0
                set_loc(S, b, u, a)
                break
        return being_done(S, b)
    elif ph == PH_TELEPORT_UNIT:
        # 15.69 "any ONE of his units": a cell, then the type when it holds several
        if a == A_DONE:
            return being_done(S, b)
        if (a >= A_TYPE0 and a < A_TYPE0 + 4) or a == A_WIELDER:
            s['sel_unit'] = unit_choice(S, b, int(s['sel_cell']), action_choice(a), F_WOUNDED)
            return pose(S, b, PH_TELEPORT_DEST, p)
        m = 0
        last = -1
        for t in range(4):
            u = unit_of_type_on(S, b, a, t, F_WOUNDED)
            if u >= 0:
                m += 1
                last = u
        if wielder_option(S, b, a, F_WOUNDED) >= 0:
            m += 1
        s['sel_cell'] = a
        if m > 1:
            return pose(S, b, PH_TELEPORT_UNIT, p)
        s['sel_unit'] = last
        return pose(S, b, PH_TELEPORT_DEST, p)
    elif ph == PH_TELEPORT_DEST:
        set_loc(S, b, int(s['sel_unit']), a)
        s['teleport_user'] = p
        return being_done(S, b)
    elif ph == PH_SECOND_DIE:
        d = int(s['die0']) if a == A_DIE0 else int(s['die1'])
        random_being_move(S, b, 1 - int(s['active_slot']), d)
        enter_card_segment(S, b)
    elif ph == PH_CARD:
        s['card_played'][p] = a - A_CARD0
        s['step_index'] += 1
    elif ph == PH_MOVE_SELECT:
        if a == A_DONE:
            end_movement_segment(S, b, p)
            return False
        s['sel_cell'] = a
        m = movable_types(S, b, a, tmp)
        if m == 1:
            s['sel_unit'] = unit_of_type_on(S, b, a, int(tmp[0]), F_WOUNDED | F_HARRIED)
            return pose(S, b, PH_MOVE_DEST, p)
        return pose(S, b, PH_MOVE_TYPE, p)
    elif ph == PH_MOVE_TYPE:
        s['sel_unit'] = unit_choice(S, b, int(s['sel_cell']), action_choice(a), F_WOUNDED | F_HARRIED)
        return pose(S, b, PH_MOVE_DEST, p)
    elif ph == PH_MOVE_DEST:
        u = int(s['sel_unit'])
        dist = np.empty(NC, dtype=np.int16)
        reach(S, b, int(s['unit_loc'][u]), int(s['mp_left']), MODE_UNIT, p, dist)
        s['mp_left'] -= dist[a]
        set_loc(S, b, u, a)
    elif ph == PH_COMBAT_SELECT:
        if a == A_DONE:
            end_combat_segment(S, b, p)
            return False
        s['sel_cell'] = a
        m = attack_options(S, b, p, a, tmp)
        if m == 1:
            s['sel_type'] = tmp[0]
            s['sel_unit'] = attacker_for(S, b, p, a, int(tmp[0]))
            return pose(S, b, PH_COMBAT_TARGET, p)
        return pose(S, b, PH_COMBAT_TYPE, p)
    elif ph == PH_COMBAT_TYPE:
        opt = 4 if a == A_SNIPE else a - A_TYPE0
        s['sel_type'] = opt
        s['sel_unit'] = attacker_for(S, b, p, int(s['sel_cell']), opt)
        return pose(S, b, PH_COMBAT_TARGET, p)
    elif ph == PH_COMBAT_TARGET:
        s['target_cell'] = a
        u = int(s['sel_unit'])
        snipe = s['sel_type'] == 4
        if s['cell_count'][a] == 0:
            resolve_melee(S, b, u, a, -1, False)
            return after_melee(S, b, p)
        m = defender_types(S, b, a, tmp)
        if m == 1:
            defender = unit_of_type_on(S, b, a, int(tmp[0]), 0)
        elif snipe:
            return pose(S, b, PH_SNIPE_TYPE, p)                     # 9.6421
        elif is_player_colour(S, b, int(s['cell_colour'][a])):
            return pose(S, b, PH_DEFENDER, int(s['cell_colour'][a]))  # 9.61 (2)
        else:
            defender = strongest_defender(S, b, a)
        resolve_melee(S, b, u, a, defender, snipe)
        return after_melee(S, b, p)
    elif ph == PH_SNIPE_TYPE or ph == PH_DEFENDER:
        q = current_player(S, b)
        cell = int(s['target_cell'])
        defender = unit_choice(S, b, cell, action_choice(a), 0)
        resolve_melee(S, b, int(s['sel_unit']), cell, defender, s['sel_type'] == 4)
        return after_melee(S, b, q)
    elif ph == PH_OCCUPY:
        if a == A_DONE:
            s['struct_cell'] = -1
            return False
        base = unit_base(p)
        for i in range(UNITS_PER_COLOUR):
            u = base + i
            if s['unit_loc'][u] == a and (s['unit_flags'][u] & F_IN_FORCE):
                set_loc(S, b, u, int(s['struct_cell']))
                clear_flags(S, b, u, F_IN_FORCE)
                s['unit_flags'][u] |= F_MOVED_IN
                break
        if occupy_candidates(S, b, p):
            return pose(S, b, PH_OCCUPY, p)
        s['struct_cell'] = -1
    elif ph == PH_DRAGON_FORCE:
        if a == A_DONE:
            if force_size(S, b, p) > 0:
                return launch_dragon_attack(S, b, p)
            s['step_index'] = SEG_END
            return False
        s['sel_cell'] = a
        m = 0
        last = -1
        for t in range(4):
            if force_candidate(S, b, p, a, t) >= 0:
                m += 1
                last = t
        if force_wielder(S, b, p, a) >= 0:
            m += 1
        if m > 1:
            return pose(S, b, PH_FORCE_TYPE, p)
        return join_force(S, b, p, force_candidate(S, b, p, a, last))
    elif ph == PH_FORCE_TYPE:
        if a == A_WIELDER:
            return join_force(S, b, p, force_wielder(S, b, p, int(s['sel_cell'])))
        return join_force(S, b, p, force_candidate(S, b, p, int(s['sel_cell']), a - A_TYPE0))
    elif ph == PH_CASUALTY:
        q = current_player(S, b)
        order = (MAN_AT_ARMS, KNIGHT, HERO, SNIPER)
        base = unit_base(q)
        chosen = -1
        for j in range(4):
            for i in range(UNITS_PER_COLOUR):
                u = base + i
                if s['unit_loc'][u] == a and UNIT_TYPE[u] == order[j] and (s['unit_flags'][u] & F_IN_FORCE):
                    chosen = u
                    break
            if chosen >= 0:
                break
        if s['casualty_kill']:
            kill_unit(S, b, chosen, False)
        else:
            wound_unit(S, b, chosen)
        s['casualties'] -= 1
        if s['casualties'] > 0 and force_size(S, b, q) > 0:
            return pose(S, b, PH_CASUALTY, q)
        s['casualties'] = 0
        if s['after_casualty'] == AC_STRIKE_CASTLE:
            s['after_casualty'] = AC_END
            return strike_your_castle(S, b, q)
    elif ph == PH_CARD_STRUCT:
        kind = int(s['sel_type'])
        if kind == CARD_FLAMES_COTTAGE_OF_CHOICE:
            card_flames_cottage(S, b, int(KINGDOM[a]))             # 7.68
        else:
            strike_structure_card(S, b, a)
    elif ph == PH_FIVE_MOVE:
        s['dragon_cell'] = a
        s['five_path'][6 - int(s['five_left'])] = a
        s['five_left'] -= 1
        return five_move_next(S, b, current_player(S, b))
    elif ph == PH_REPL_VILLAGE:
        place_replacement(S, b, p, a)
    return False


@njit(cache=True)
def join_force(S, b, p, u):
    """Add unit u to the force; the hero and a sword-wielder attack alone at once
    (9.81, 14.41)."""
    s = S[b]
    s['unit_flags'][u] |= F_IN_FORCE
    if UNIT_TYPE[u] == HERO or s['sword_holder'][p] == u:
        return launch_dragon_attack(S, b, p)
    return False


# ================================================================ the driver
@njit(cache=True)
def advance(S, b):
    """Run forced and chance-only steps until some seat must decide (or the end)."""
    s = S[b]
    while True:
        if s['status'] != 0:
            s['to_play'] = -1
            s['phase'] = PH_NONE
            return
        st = int(s['stage'])
        s['phase'] = PH_NONE
        if st == ST_SETUP_KINGDOM:
            n = int(s['num_players'])
            i = int(s['step_index'])
            if i < n:
                pose(S, b, PH_KINGDOM, (int(s['setup_first']) + i) % n)     # 3.1, 2.3
                return
            garrison_unused_kingdoms(S, b)
            for p in range(n):
                s['reinf_left'][p, 0] = 6                                   # 3.3
                s['reinf_left'][p, 1] = 2
            s['place_start'] = s['setup_first']
            s['step_index'] = s['setup_first']
            s['place_type'] = MAN_AT_ARMS
            s['stage'] = ST_SETUP_PLACE
        elif st == ST_SETUP_PLACE:
            if placement_round(S, b):
                return
            finish_setup(S, b)
        elif st == ST_BRIMSTONE:
            if brimstone_round(S, b):
                return
        elif st == ST_BEING_FIRST:
            if being_round_first(S, b):
                return
        elif st == ST_BEING_SECOND:
            if being_round_second(S, b):
                return
        elif st == ST_CARDS:
            if card_segment(S, b):
                return
        elif st == ST_PLAYER:
            if player_round(S, b):
                return
        elif st == ST_GROWTH_REPL:
            if growth_replacements(S, b):
                return
        elif st == ST_GROWTH_PLACE:
            if placement_round(S, b):
                return
            end_growth(S, b)
        else:
            return


@njit(cache=True)
def settle(S, b, mask):
    """Leave ``mask`` holding the legal actions of the position reached; with
    ``auto_single``, first apply every lone legal action. Returns the count."""
    s = S[b]
    while True:
        m = fill_mask(S, b, mask)
        if m != 1 or not s['auto_single'] or s['status'] != 0:
            return m
        a = 0
        while mask[a] == 0:
            a += 1
        s['decisions'] += 1
        if not do_action(S, b, a):
            advance(S, b)


@njit(cache=True)
def apply_trusted(S, b, a, mask):
    """Apply action a, known to be legal (it came from this position's mask).
    On return ``mask`` holds the next position's legal actions; returns their count."""
    s = S[b]
    s['decisions'] += 1
    if not do_action(S, b, a):
        advance(S, b)
    return settle(S, b, mask)


@njit(cache=True)
def apply_action(S, b, a, mask):
    """Check and apply action a for game b. Returns an E_* code; on error the
    record is untouched. On success ``mask`` holds the next legal actions."""
    s = S[b]
    if s['status'] != 0:
        return E_OVER
    if a < 0 or a >= NUM_ACTIONS:
        return E_RANGE
    fill_mask(S, b, mask)
    if mask[a] == 0:
        return E_ILLEGAL
    apply_trusted(S, b, a, mask)
    return E_OK


@njit(cache=True)
def reset_game(S, b, seed, num_players, max_hands, auto_single):
    """Zero record b and deal a new game (1-3)."""
    S[b] = BLANK[0]
    s = S[b]
    s['seed'] = seed
    s['num_players'] = num_players
    s['max_hands'] = max_hands
    s['auto_single'] = auto_single
    setup_game(S, b)
    advance(S, b)
    mask = np.empty(NUM_ACTIONS, dtype=np.int8)
    settle(S, b, mask)


# ================================================================ batched entry points
@njit(cache=True)
def reset_batch(S, seeds, num_players, max_hands, auto_single):
    for b in range(S.shape[0]):
        reset_game(S, b, seeds[b], num_players, max_hands, auto_single)


@njit(cache=True)
def step_batch(S, actions, errors):
    mask = np.empty(NUM_ACTIONS, dtype=np.int8)
    for b in range(S.shape[0]):
        if actions[b] >= 0:
            errors[b] = apply_action(S, b, int(actions[b]), mask)
        else:
            errors[b] = 0


@njit(cache=True)
def mask_batch(S, masks):
    for b in range(S.shape[0]):
        fill_mask(S, b, masks[b])


@njit(cache=True)
def random_playout(S, b, max_steps, stream):
    """Play random legal actions (its own counter-based stream ``stream``) until
    the end or ``max_steps``; returns the number of decisions made. For tests
    and benchmarks of the bare core."""
    mask = np.empty(NUM_ACTIONS, dtype=np.int8)
    legal = np.empty(NUM_ACTIONS, dtype=np.int64)
    n = 0
    ctr = np.uint64(0)
    while S[b]['status'] == 0 and n < max_steps:
        m = fill_mask(S, b, mask)
        k = 0
        for a in range(NUM_ACTIONS):
            if mask[a]:
                legal[k] = a
                k += 1
        pick = legal[draw_below(stream, ctr, m)]
        ctr += np.uint64(1)
        apply_trusted(S, b, pick, mask)
        n += 1
    return n
