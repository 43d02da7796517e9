"""The set-up (1-3): the deal, the roll for the first player, the choice of
kingdoms, the garrisons and the placement (also used by the growth phase's
reinforcements, 12.5)."""
import numpy as np

from dragongym.envs.core.jit import rules_jit

from ..constants import (
    CARDS_PER_PLAYER, DECK_SIZE, KNIGHT, MAN_AT_ARMS, MAX_PLAYERS, NUM_BEINGS, NUM_UNITS,
)
from ..state import LOC_RESERVE
from .base import (
    CASTLE_CELL, KINGDOM, LAIR_CELL, NC, NEIGHBOURS, NUM_NEIGHBOURS, PH_KINGDOM, PH_PLACE,
    PLACE_OK, ST_SETUP_KINGDOM, ST_SETUP_PLACE, VILLAGE_CELL, being_at, counter_at, d6, left_of,
    pose, refill_lairs, reserve_unit, set_loc, unit_base,
)
from .brimstone import enter_brimstone_round


# ================================================================ set-up (1-3)
@rules_jit
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
    s['placer'] = -1
    s['stage'] = ST_SETUP_KINGDOM
    s['kingdoms_chosen'] = 0


@rules_jit
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


@rules_jit
def kingdom_round(S, b):
    """3.1: each player in set-up order (2.3) chooses a kingdom; then 3.2 garrisons
    the unused ones and 3.3 sets aside six men-at-arms and two knights each for
    the placement. True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    i = int(s['kingdoms_chosen'])
    if i < n:
        return pose(S, b, PH_KINGDOM, (int(s['setup_first']) + i) % n)     # 3.1, 2.3
    garrison_unused_kingdoms(S, b)
    for p in range(n):
        s['reinf_left'][p, 0] = 6                                   # 3.3
        s['reinf_left'][p, 1] = 2
    s['place_start'] = s['setup_first']
    s['placer'] = s['setup_first']
    s['place_type'] = MAN_AT_ARMS
    s['stage'] = ST_SETUP_PLACE
    return False


@rules_jit
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


@rules_jit
def mask_kingdom(S, b, p, mask):
    """Legal actions of PH_KINGDOM: cell: castle of the kingdom chosen (3.1).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    n = int(s['num_players'])
    for k in range(6):
        free = True
        for q in range(n):
            if s['kingdom'][q] == k:
                free = False
        if free:
            mask[CASTLE_CELL[k]] = 1


@rules_jit
def act_kingdom(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_KINGDOM: cell: castle of the kingdom
    chosen (3.1).

    Returns True if it posed the next decision itself."""
    s = S[b]
    choose_kingdom(S, b, p, int(KINGDOM[a]))
    s['kingdoms_chosen'] += 1
    return False


@rules_jit
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


@rules_jit
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


@rules_jit
def any_placement(S, b, p):
    for c in range(NC):
        if placement_legal(S, b, p, c):
            return True
    return False


@rules_jit
def placement_round(S, b):
    """3.31, 3.32, 12.5-12.52: one unit at a time in rotation to the left from
    ``place_start``; men-at-arms first, then knights; a player who has placed
    all of a type waits for the others. A player with no legal space keeps the
    unit in reserve. Returns True when a placement decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    while True:
        ti = 0 if s['place_type'] == MAN_AT_ARMS else 1
        p = int(s['placer'])
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
            s['placer'] = found
            return pose(S, b, PH_PLACE, found)
        if ti == 0:
            s['place_type'] = KNIGHT
            s['placer'] = s['place_start']
            continue
        return False


@rules_jit
def place_unit(S, b, cell):
    s = S[b]
    p = int(s['placer'])
    ti = 0 if s['place_type'] == MAN_AT_ARMS else 1
    u = reserve_unit(S, b, p, int(s['place_type']))
    set_loc(S, b, u, cell)
    s['reinf_left'][p, ti] -= 1
    s['placed_last'] = p
    s['placer'] = left_of(S, b, p)


@rules_jit
def mask_place(S, b, p, mask):
    """Legal actions of PH_PLACE: cell: set-up / reinforcement placement (3.3, 12.5).
    ``placement_round`` poses it only when some cell is legal (a player with
    none keeps the unit in reserve).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
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


@rules_jit
def act_place(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_PLACE: cell: set-up / reinforcement
    placement (3.3, 12.5).

    Returns True if it posed the next decision itself."""
    place_unit(S, b, a)
    return False


@rules_jit
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
