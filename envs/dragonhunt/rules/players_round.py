"""The card segment and the Player's round (9.1-11): the secret movement
cards and the round order they set, each player's movement (terrain costs,
stacking) and his segments in turn, the end of the turn. Also the shortest
paths of the movement rules, which the Fantastic Beings share (15.1)."""
import numpy as np

from dragongym.envs.core.jit import rules_jit

from ..constants import (
    CARDS_PER_PLAYER, COTTAGE, MAX_PLAYERS, NUM_UNITS, PARALYZER, UNITS_PER_COLOUR,
)
from ..state import F_ATTACKED, F_HARRIED, F_IN_FORCE, F_MOVED_IN, F_SNIPED, F_WOUNDED
from .base import (
    A_CARD0, A_DONE, CARD_VALUES, COTTAGE_CELL, IS_STRUCTURE, MOVE_COST, NC, NEIGHBOURS,
    NUM_NEIGHBOURS, PH_CARD, PH_COMBAT_SELECT, PH_DRAGON_FORCE, PH_MOVE_DEST, PH_MOVE_SELECT,
    PH_MOVE_TYPE, SEG_COMBAT, SEG_DRAGON, SEG_MOVE, SEG_RESOLVE, SEG_START, SPACE, SPACE_ADJ,
    ST_CARDS, ST_PLAYER, TERRAIN, WIELDER, action_choice, being_at, can_move, check_pickups,
    choice_action, clear_flags, current_player, d6, home_cottage, kill_unit, pose, set_loc,
    unit_base, unit_choice, unit_of_type_on, units_on, wielder_option,
)
from .brimstone import enter_brimstone_round
from .growth import enter_growth
from .combat import dragon_segment


# ================================================================ the card segment (9.1)
@rules_jit
def enter_card_segment(S, b):
    s = S[b]
    s['stage'] = ST_CARDS
    s['cards_laid'] = 0
    for p in range(MAX_PLAYERS):
        s['card_played'][p] = -1


@rules_jit
def card_segment(S, b):
    """9.11: each player in turn lays one card face down (hidden from the others
    until 9.12 turns them over)."""
    s = S[b]
    n = int(s['num_players'])
    i = int(s['cards_laid'])
    if i < n:
        return pose(S, b, PH_CARD, i)
    for p in range(n):
        s['cards_in_hand'][p] = int(s['cards_in_hand'][p]) & (0xFF ^ (1 << int(s['card_played'][p])))
    determine_round_order(S, b)
    s['choice_player'] = s['round_order'][0]       # 9.13
    s['second_player'] = s['round_order'][n - 1]
    s['stage'] = ST_PLAYER
    s['order_pos'] = 0
    s['segment'] = SEG_START
    return False


@rules_jit
def mask_card(S, b, p, mask):
    """Legal actions of PH_CARD: CARD actions (9.11).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    for i in range(CARDS_PER_PLAYER):
        if s['cards_in_hand'][p] & (1 << i):
            mask[A_CARD0 + i] = 1


@rules_jit
def act_card(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_CARD: CARD actions (9.11).

    Returns True if it posed the next decision itself."""
    s = S[b]
    s['card_played'][p] = a - A_CARD0
    s['cards_laid'] += 1
    return False


@rules_jit
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


# ================================================================ the Player's round (9.2-11)
@rules_jit
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
        seg = int(s['segment'])
        base = unit_base(p)
        if seg == SEG_START:
            for i in range(UNITS_PER_COLOUR):          # 9.5: healed for this movement segment
                clear_flags(S, b, base + i, F_WOUNDED)
            s['mp_left'] = CARD_VALUES[s['card_played'][p]]   # 9.31
            s['segment'] = SEG_MOVE
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
        s['segment'] = SEG_START


@rules_jit
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


# ================================================================ movement (9.3, 15.1)
MODE_UNIT, MODE_GROUND_BEING, MODE_FLYING_BEING = 0, 1, 2
UNREACHED = 127


@rules_jit
def paralyzer_cell(S, b):
    s = S[b]
    for k in range(2):
        if s['slot_being'][k] == PARALYZER:
            return int(s['slot_loc'][k])
    return -1


@rules_jit
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


@rules_jit
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


@rules_jit
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


@rules_jit
def mask_move_select(S, b, p, mask):
    """Legal actions of PH_MOVE_SELECT: cell with a unit to move / DONE ends the movement
    segment (9.3).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    # one pass over the mover's counters (not over the board): a space is
    # offered when some unit there may move and an affordable exit exists
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        loc = int(s['unit_loc'][base + i])
        if loc >= 0 and mask[loc] == 0 and can_move(S, b, base + i) and cell_has_exit(S, b, p, loc):
            mask[loc] = 1
    mask[A_DONE] = 1


@rules_jit
def act_move_select(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_MOVE_SELECT: cell with a unit to
    move / DONE ends the movement segment (9.3).

    Returns True if it posed the next decision itself."""
    s = S[b]
    tmp = np.empty(8, dtype=np.int64)
    if a == A_DONE:
        end_movement_segment(S, b, p)
        return False
    s['sel_cell'] = a
    m = movable_types(S, b, a, tmp)
    if m == 1:
        # the one choice may be WIELDER (his fellow knights paralyzed, 15.675):
        # resolved as the type action would resolve it
        s['sel_unit'] = unit_choice(S, b, a, int(tmp[0]), F_WOUNDED | F_HARRIED)
        return pose(S, b, PH_MOVE_DEST, p)
    return pose(S, b, PH_MOVE_TYPE, p)


@rules_jit
def mask_move_type(S, b, p, mask):
    """Legal actions of PH_MOVE_TYPE: TYPE of the unit to move from a structure.

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    tmp = np.empty(8, dtype=np.int64)
    m = movable_types(S, b, int(s['sel_cell']), tmp)
    for i in range(m):
        mask[choice_action(int(tmp[i]))] = 1


@rules_jit
def act_move_type(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_MOVE_TYPE: TYPE of the unit to move
    from a structure.

    Returns True if it posed the next decision itself."""
    s = S[b]
    s['sel_unit'] = unit_choice(S, b, int(s['sel_cell']), action_choice(a), F_WOUNDED | F_HARRIED)
    return pose(S, b, PH_MOVE_DEST, p)


@rules_jit
def mask_move_dest(S, b, p, mask):
    """Legal actions of PH_MOVE_DEST: destination cell (9.312).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    src = int(s['unit_loc'][s['sel_unit']])
    dist = np.empty(NC, dtype=np.int16)
    reach(S, b, src, int(s['mp_left']), MODE_UNIT, p, dist)
    for c in range(NC):
        if c != src and dist[c] != UNREACHED and SPACE[c] == c:
            mask[c] = 1


@rules_jit
def act_move_dest(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_MOVE_DEST: destination cell (9.312).

    Returns True if it posed the next decision itself."""
    s = S[b]
    u = int(s['sel_unit'])
    dist = np.empty(NC, dtype=np.int16)
    reach(S, b, int(s['unit_loc'][u]), int(s['mp_left']), MODE_UNIT, p, dist)
    s['mp_left'] -= dist[a]
    set_loc(S, b, u, a)
    return False


@rules_jit
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


@rules_jit
def end_movement_segment(S, b, p):
    s = S[b]
    stacking_penalty(S, b, p)                  # 9.14
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        clear_flags(S, b, base + i, F_ATTACKED | F_SNIPED | F_IN_FORCE | F_MOVED_IN)
    s['combat_started'] = 0
    s['struct_cell'] = -1
    s['segment'] = SEG_COMBAT
