"""Brimstone's round (6, 7): his moves on the dice, the rage and the nap, his
attacks on units, beings and structures, and the dragon cards (7.6) with what
they make the attacking player choose."""
import numpy as np

from dragongym.envs.core.jit import rules_jit

from ..constants import (
    CARD_ATTACKS_CASTLE_OF_CHOICE, CARD_ATTACKS_COTTAGE_OF_CHOICE, CARD_ATTACKS_VILLAGE_OF_CHOICE,
    CARD_ATTACKS_YOUR_CASTLE, CARD_ATTACKS_YOUR_COTTAGE, CARD_ATTACKS_YOUR_VILLAGE, CARD_DO_OR_DIE,
    CARD_FLAMES_COTTAGE_OF_CHOICE, CARD_FLAMES_YOUR_COTTAGE, CARD_FLIES_SIX_RANDOM,
    CARD_KILLS_ADJACENT, CARD_KILLS_ATTACKING_FORCE, CARD_KILLS_TWO, CARD_KILLS_WITHIN_TWO,
    CARD_MOVES_FIVE_OF_CHOICE, CARD_NAP, CARD_WOUNDS_ADJACENT, CARD_WOUNDS_ATTACKING_FORCE,
    CARD_WOUNDS_WITHIN_TWO, CASTLE, COL_SINGLE_PIECE, COL_STRUCTURE, COTTAGE, DECK_SIZE, HERO,
    KNIGHT, MAN_AT_ARMS, NUM_UNITS, R_DEFENDER_KILLED, R_DEFENDER_WOUNDED, R_OCCUPANTS_DIE_1,
    SNIPER, TROLL, UNITS_PER_COLOUR, VILLAGE,
)
from ..state import F_IN_FORCE
from .base import (
    AC_END, AC_STRIKE_CASTLE, A_DIE0, A_DIE1, BEING_DEFENSE, BEING_LAIR_CELL, BP_SELECT,
    CASTLE_CELL, COTTAGE_CELL, DECK, DEFENSE, IS_FORT, IS_STRUCTURE, KINGDOM, LAIR_CELL,
    NEIGHBOURS, NUM_NEIGHBOURS, PH_CARD_STRUCT, PH_CASUALTY, PH_DRAGON_DIE, PH_FIVE_MOVE, SPACE,
    SPACE_DIST, STEP, ST_BEING_FIRST, ST_BRIMSTONE, TERRAIN, UNIT_COLOUR, UNIT_TYPE, VILLAGE_CELL,
    being_at, being_killed, being_wounded, controls, counter_at, current_player, d6, force_size,
    kill_unit, left_of, pose, roll, sniper_flees, table_result, unit_base, unit_defense,
    unit_of_type_on, units_on, wound_unit,
)


# ================================================================ Brimstone's round (6, 7.1-7.3)
@rules_jit
def enter_brimstone_round(S, b):
    s = S[b]
    s['stage'] = ST_BRIMSTONE
    s['brimstone_rounds'] += 1
    s['dragon_moves_made'] = 0
    s['round_cut_short'] = 0


@rules_jit
def brimstone_moves(S, b):
    """6.1, 6.11: one move per player, two each in a two-player game."""
    n = int(S[b]['num_players'])
    return 2 * n if n == 2 else n


@rules_jit
def brimstone_mover(S, b):
    """6, 6.1: the first mover, then passing to the RIGHT."""
    s = S[b]
    n = int(s['num_players'])
    i = int(s['dragon_moves_made']) % n
    return (int(s['dragon_first']) - i + n) % n


@rules_jit
def after_dragon_part(S, b, r):
    """Book one part of his round: 0 done -> next mover, 1 structure attacked ->
    round over (7.541), 2 left the board -> same mover rolls over (7.42)."""
    s = S[b]
    if r == 0:
        s['dragon_moves_made'] += 1
    elif r == 1:
        s['round_cut_short'] = 1


@rules_jit
def brimstone_round(S, b):
    """Run Brimstone's round until a player must choose a die or the round ends."""
    s = S[b]
    while True:
        if s['status'] != 0:
            return False
        if (s['round_cut_short'] or s['dragon_moves_made'] >= brimstone_moves(S, b)
                or s['asleep_until'] >= s['brimstone_rounds']):
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


@rules_jit
def end_brimstone_round(S, b):
    """9.841, 9.843: rage ends with his next round; 7.67: the nap ends."""
    s = S[b]
    if s['enraged'] and s['enraged_until'] <= s['brimstone_rounds']:
        s['enraged'] = 0
    if s['asleep_until'] >= 0 and s['asleep_until'] <= s['brimstone_rounds']:
        s['asleep_until'] = -1
    s['stage'] = ST_BEING_FIRST
    s['being_step'] = BP_SELECT
    s['being_moves'] = 0


@rules_jit
def mask_dragon_die(S, b, p, mask):
    """Legal actions of PH_DRAGON_DIE: DIE0/DIE1: direction of Brimstone's normal move
    (7.11).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    mask[A_DIE0] = 1
    mask[A_DIE1] = 1


@rules_jit
def act_dragon_die(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_DRAGON_DIE: DIE0/DIE1: direction of
    Brimstone's normal move (7.11).

    Returns True if it posed the next decision itself."""
    s = S[b]
    d = int(s['die0']) if a == A_DIE0 else int(s['die1'])
    after_dragon_part(S, b, dragon_walk(S, b, d, 1))
    return False


# ================================================================ Brimstone: his rage, his walk and his attacks (7.4, 7.5, 9.84)
@rules_jit
def set_enraged(S, b):
    """9.84, 9.841: the ENRAGED counter goes in until the end of his next round."""
    s = S[b]
    s['enraged'] = 1
    s['enraged_until'] = s['brimstone_rounds'] + 1


@rules_jit
def enraged_penalty(S, b):
    """9.842: -2 on every roll taken by, or against, an enraged Brimstone."""
    return 2 if S[b]['enraged'] else 0


@rules_jit
def weakest_on(S, b, cell):
    """The occupant that falls first when a structure loses occupants: men-at-arms,
    then snipers, knights, the hero (the owner's obvious choice)."""
    order = (MAN_AT_ARMS, SNIPER, KNIGHT, HERO)
    for i in range(4):
        u = unit_of_type_on(S, b, cell, order[i], 0)
        if u >= 0:
            return u
    return -1


@rules_jit
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


@rules_jit
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


@rules_jit
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


@rules_jit
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


@rules_jit
def card_attacks_cottage(S, b, k):
    """7.65: a dragon card's attack on a cottage: unless the defender rolls 10 or
    more on two dice the cottage is flamed. Counts as revenge (9.841). Choices:
    the 10 is read on the bare dice (no enraged -2, cottage value 0), and a
    vacant cottage is rolled for too (flaming it still matters, 7.68)."""
    s = S[b]
    if d6(S, b) + d6(S, b) < 10:
        flame_cottage(S, b, k)
    s['enraged'] = 0


@rules_jit
def dragon_to_lair(S, b):
    """Brimstone goes home. A trespasser found there enrages him and is attacked
    (7.46)."""
    s = S[b]
    s['dragon_cell'] = LAIR_CELL
    if s['cell_count'][LAIR_CELL] > 0 or being_at(S, b, LAIR_CELL) >= 0:
        set_enraged(S, b)
        dragon_attacks_piece(S, b, LAIR_CELL)


@rules_jit
def dragon_strikes_structure(S, b, cell):
    """Fly to a structure, attack it, return to the lair (7.45, 7.541, 7.63)."""
    dragon_attacks_structure(S, b, SPACE[cell])
    dragon_to_lair(S, b)


@rules_jit
def card_flames_cottage(S, b, k):
    """7.68: a FLAMES COTTAGE card: the cottage of kingdom k is flamed, no roll.
    Flaming is his attack on that cottage, so (as for 7.65) it appeases his rage
    (9.841) and he then returns to his lair (7.541)."""
    flame_cottage(S, b, k)
    S[b]['enraged'] = 0
    dragon_to_lair(S, b)


@rules_jit
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


# ================================================================ the dragon cards (7.6)
@rules_jit
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


@rules_jit
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


@rules_jit
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


@rules_jit
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


@rules_jit
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


@rules_jit
def mask_casualty(S, b, p, mask):
    """Legal actions of PH_CASUALTY: cell of the attacker that falls (7.645).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    q = current_player(S, b)
    base = unit_base(q)
    for i in range(UNITS_PER_COLOUR):
        loc = int(s['unit_loc'][base + i])
        if loc >= 0 and (s['unit_flags'][base + i] & F_IN_FORCE):
            mask[loc] = 1


@rules_jit
def act_casualty(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_CASUALTY: cell of the attacker that
    falls (7.645).

    Returns True if it posed the next decision itself."""
    s = S[b]
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
    return False


@rules_jit
def structure_of(S, b, k, terrain):
    if terrain == CASTLE:
        return int(CASTLE_CELL[k])
    if terrain == VILLAGE:
        return int(VILLAGE_CELL[k])
    return int(COTTAGE_CELL[k])


@rules_jit
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


@rules_jit
def strike_structure_card(S, b, cell):
    """A dragon card sends Brimstone against a structure (7.62, 7.63): a cottage
    is flamed unless the defender rolls 10+ (7.65); a castle or village is
    attacked on the table; then he returns to his lair (7.541)."""
    if TERRAIN[cell] == COTTAGE:
        card_attacks_cottage(S, b, int(KINGDOM[cell]))
        dragon_to_lair(S, b)
    else:
        dragon_strikes_structure(S, b, cell)


@rules_jit
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


@rules_jit
def card_structure_terrain(kind):
    if kind == CARD_ATTACKS_CASTLE_OF_CHOICE or kind == CARD_ATTACKS_YOUR_CASTLE:
        return CASTLE
    if kind == CARD_ATTACKS_VILLAGE_OF_CHOICE or kind == CARD_ATTACKS_YOUR_VILLAGE:
        return VILLAGE
    return COTTAGE


@rules_jit
def mask_card_struct(S, b, p, mask):
    """Legal actions of PH_CARD_STRUCT: cell of the structure a dragon card sends him to
    (7.62, 7.631).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    kind = int(s['sel_type'])
    terrain = card_structure_terrain(kind)
    q = current_player(S, b)
    mine_only = kind == CARD_ATTACKS_YOUR_CASTLE or kind == CARD_ATTACKS_YOUR_VILLAGE \
        or kind == CARD_ATTACKS_YOUR_COTTAGE
    for k in range(6):
        c = structure_of(S, b, k, terrain)
        if not mine_only or controls(S, b, q, c):
            mask[c] = 1


@rules_jit
def act_card_struct(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_CARD_STRUCT: cell of the structure a
    dragon card sends him to (7.62, 7.631).

    Returns True if it posed the next decision itself."""
    s = S[b]
    kind = int(s['sel_type'])
    if kind == CARD_FLAMES_COTTAGE_OF_CHOICE:
        card_flames_cottage(S, b, int(KINGDOM[a]))             # 7.68
    else:
        strike_structure_card(S, b, a)
    return False


@rules_jit
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


@rules_jit
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


@rules_jit
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


@rules_jit
def mask_five_move(S, b, p, mask):
    """Legal actions of PH_FIVE_MOVE: cell next to Brimstone for the five-space move (7.62).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    dc = int(s['dragon_cell'])
    for d in range(1, 7):
        c = int(STEP[dc, d])
        if c >= 0 and five_move_legal(S, b, c):
            mask[c] = 1


@rules_jit
def act_five_move(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_FIVE_MOVE: cell next to Brimstone
    for the five-space move (7.62).

    Returns True if it posed the next decision itself."""
    s = S[b]
    s['dragon_cell'] = a
    s['five_path'][6 - int(s['five_left'])] = a
    s['five_left'] -= 1
    return five_move_next(S, b, current_player(S, b))
