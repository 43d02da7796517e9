"""Combat in the Player's round (9.4-9.8): melee and snipers, wounds, assaults
on castles and villages, and the Dragon Attack segment."""
import numpy as np

from dragongym.envs.core.jit import rules_jit

from ..constants import (
    COL_DO_OR_DIE, COL_FIRST_WOUND, COL_LATER_WOUND, COTTAGE, DEMON, HERO, KNIGHT, MAN_AT_ARMS,
    R_ALL_KILLED, R_ALL_WOUNDED, R_DRAGON_WOUNDED, R_DRAW_CARD, R_ONE_KILLED,
    R_ONE_KILLED_ATTACKS_CASTLE, R_ONE_WOUNDED, R_ONE_WOUNDED_ATTACKS_CASTLE, R_THREE_KILLED,
    R_TWO_KILLED, SNIPER, TELEPORTER, UNITS_PER_COLOUR,
)
from ..state import F_ATTACKED, F_HARRIED, F_IN_FORCE, F_MOVED_IN, F_SNIPED, F_WOUNDED
from .base import (
    AC_END, AC_STRIKE_CASTLE, A_DONE, A_SNIPE, A_TYPE0, A_WIELDER, BEING_DEFENSE, DEFENSE,
    HEXSIDES, IS_FORT, IS_STRUCTURE, LAIR_CELL, NEIGHBOURS, NUM_NEIGHBOURS, PH_COMBAT_TARGET,
    PH_COMBAT_TYPE, PH_DEFENDER, PH_FORCE_TYPE, PH_OCCUPY, PH_SNIPE_TYPE, SEG_DRAGON, SEG_END,
    SEG_RESOLVE, SNIPE_STRENGTH, SPACE_ADJ, TERRAIN, UNIT_ATTACK, UNIT_COLOUR, UNIT_TYPE, WIELDER,
    action_choice, being_at, being_killed, being_wounded, can_move, choice_action, clear_flags,
    counter_at, current_player, d6, force_size, is_paralyzed, is_player_colour, kill_unit, pose,
    set_loc, table_result, unit_base, unit_choice, unit_defense, unit_of_type_on, wielder_option,
    wound_unit,
)
from .brimstone import (
    affect_force, enraged_penalty, resolve_dragon_card, set_enraged, start_casualties,
    strike_your_castle,
)
from .magesword import end_game, slaying_battle, wound_brimstone


# ================================================================ the combat segment (9.4-9.7)
@rules_jit
def can_attack(S, b, u):
    """9.43, 9.44, 13.4, 15.665, 15.67: may this unit make a normal attack now?"""
    s = S[b]
    if not can_move(S, b, u):
        return False
    p = int(UNIT_COLOUR[u])
    if s['sword_holder'][p] == u:
        return False
    return True


@rules_jit
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


@rules_jit
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


@rules_jit
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


@rules_jit
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


@rules_jit
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


@rules_jit
def strongest_defender(S, b, cell):
    """The defender a non-player garrison puts up (its strongest unit)."""
    order = (HERO, KNIGHT, MAN_AT_ARMS, SNIPER)
    for i in range(4):
        u = unit_of_type_on(S, b, cell, order[i], 0)
        if u >= 0:
            return u
    return -1


@rules_jit
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


@rules_jit
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


@rules_jit
def after_melee(S, b, p):
    """9.612: an emptied structure may be occupied by its adjacent attackers."""
    if occupy_candidates(S, b, p):
        return pose(S, b, PH_OCCUPY, p)
    return False


@rules_jit
def mask_combat_select(S, b, p, mask):
    """Legal actions of PH_COMBAT_SELECT: cell with the attacking unit / DONE ends the
    combat segment (9.4).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        u = base + i
        loc = int(s['unit_loc'][u])
        if loc < 0 or mask[loc]:
            continue
        if unit_has_attack(S, b, u, False) or (UNIT_TYPE[u] == SNIPER and unit_has_attack(S, b, u, True)):
            mask[loc] = 1
    mask[A_DONE] = 1


@rules_jit
def act_combat_select(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_COMBAT_SELECT: cell with the
    attacking unit / DONE ends the combat segment (9.4).

    Returns True if it posed the next decision itself."""
    s = S[b]
    tmp = np.empty(8, dtype=np.int64)
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


@rules_jit
def mask_combat_type(S, b, p, mask):
    """Legal actions of PH_COMBAT_TYPE: TYPE or SNIPE.

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    tmp = np.empty(8, dtype=np.int64)
    m = attack_options(S, b, p, int(s['sel_cell']), tmp)
    for i in range(m):
        if tmp[i] == 4:
            mask[A_SNIPE] = 1
        else:
            mask[A_TYPE0 + tmp[i]] = 1


@rules_jit
def act_combat_type(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_COMBAT_TYPE: TYPE or SNIPE.

    Returns True if it posed the next decision itself."""
    s = S[b]
    opt = 4 if a == A_SNIPE else a - A_TYPE0
    s['sel_type'] = opt
    s['sel_unit'] = attacker_for(S, b, p, int(s['sel_cell']), opt)
    return pose(S, b, PH_COMBAT_TARGET, p)


@rules_jit
def mask_combat_target(S, b, p, mask):
    """Legal actions of PH_COMBAT_TARGET: cell attacked.

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    u = int(s['sel_unit'])
    loc = int(s['unit_loc'][u])
    for i in range(int(NUM_NEIGHBOURS[loc])):
        c = int(NEIGHBOURS[loc, i])
        if is_attack_target(S, b, u, c, s['sel_type'] == 4):
            mask[c] = 1


@rules_jit
def act_combat_target(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_COMBAT_TARGET: cell attacked.

    Returns True if it posed the next decision itself."""
    s = S[b]
    tmp = np.empty(8, dtype=np.int64)
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


@rules_jit
def mask_defender(S, b, p, mask):
    """Legal actions of PH_SNIPE_TYPE: TYPE of the defender the sniper fires at (9.6421);
    PH_DEFENDER: TYPE of the unit that defends a castle/village (9.61, defender decides).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    tmp = np.empty(8, dtype=np.int64)
    m = defender_types(S, b, int(s['target_cell']), tmp)
    for i in range(m):
        mask[choice_action(int(tmp[i]))] = 1


@rules_jit
def act_defender(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_SNIPE_TYPE: TYPE of the defender the
    sniper fires at (9.6421); PH_DEFENDER: TYPE of the unit that defends a castle/village
    (9.61, defender decides).

    Returns True if it posed the next decision itself."""
    s = S[b]
    q = current_player(S, b)
    cell = int(s['target_cell'])
    defender = unit_choice(S, b, cell, action_choice(a), 0)
    resolve_melee(S, b, int(s['sel_unit']), cell, defender, s['sel_type'] == 4)
    return after_melee(S, b, q)


@rules_jit
def mask_occupy(S, b, p, mask):
    """Legal actions of PH_OCCUPY: cell of an adjacent attacker that moves into the won
    structure / DONE (9.612).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    cell = int(s['struct_cell'])
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        loc = int(s['unit_loc'][base + i])
        if loc >= 0 and (s['unit_flags'][base + i] & F_IN_FORCE) and SPACE_ADJ[loc, cell]:
            mask[loc] = 1
    mask[A_DONE] = 1


@rules_jit
def act_occupy(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_OCCUPY: cell of an adjacent attacker
    that moves into the won structure / DONE (9.612).

    Returns True if it posed the next decision itself."""
    s = S[b]
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
    return False


@rules_jit
def end_combat_segment(S, b, p):
    s = S[b]
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        clear_flags(S, b, base + i, F_IN_FORCE)
    s['struct_cell'] = -1
    s['do_or_die'] = 0
    if any_force_candidate(S, b, p):
        s['segment'] = SEG_DRAGON
    else:
        s['segment'] = SEG_END              # 9.8: no unit next to him, the round is over


# ================================================================ the Dragon Attack segment (9.8, 13, 14)
@rules_jit
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


@rules_jit
def in_force_on(S, b, p, cell):
    s = S[b]
    n = 0
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        if s['unit_loc'][base + i] == cell and (s['unit_flags'][base + i] & F_IN_FORCE):
            n += 1
    return n


@rules_jit
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


@rules_jit
def force_wielder(S, b, p, cell):
    """The sword-wielding knight on ``cell`` as a choice of its own (A_WIELDER):
    when other knights share his space and the force is still empty (14.41)."""
    h = wielder_option(S, b, cell, F_IN_FORCE | F_WOUNDED | F_HARRIED)
    if h < 0 or is_paralyzed(S, b, h) or force_size(S, b, p) > 0:
        return -1
    if in_force_on(S, b, p, cell) >= force_capacity(S, b, p, cell):
        return -1
    return h


@rules_jit
def any_force_candidate(S, b, p):
    s = S[b]
    dc = int(s['dragon_cell'])
    for i in range(int(NUM_NEIGHBOURS[dc])):
        c = int(NEIGHBOURS[dc, i])
        for t in range(4):
            if force_candidate(S, b, p, c, t) >= 0:
                return True
    return False


@rules_jit
def force_strength(S, b, p):
    s = S[b]
    total = 0
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        u = base + i
        if s['unit_flags'][u] & F_IN_FORCE:
            total += int(UNIT_ATTACK[UNIT_TYPE[u]])
    return total


@rules_jit
def join_force(S, b, p, u):
    """Add unit u to the force; the hero and a sword-wielder attack alone at once
    (9.81, 14.41)."""
    s = S[b]
    s['unit_flags'][u] |= F_IN_FORCE
    if UNIT_TYPE[u] == HERO or s['sword_holder'][p] == u:
        return launch_dragon_attack(S, b, p)
    return False


@rules_jit
def mask_dragon_force(S, b, p, mask):
    """Legal actions of PH_DRAGON_FORCE: cell of a unit joining the attack on Brimstone /
    DONE attacks (9.8).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    dc = int(s['dragon_cell'])
    for i in range(int(NUM_NEIGHBOURS[dc])):
        c = int(NEIGHBOURS[dc, i])
        for t in range(4):
            if force_candidate(S, b, p, c, t) >= 0:
                mask[c] = 1
    mask[A_DONE] = 1


@rules_jit
def act_dragon_force(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_DRAGON_FORCE: cell of a unit joining
    the attack on Brimstone / DONE attacks (9.8).

    Returns True if it posed the next decision itself."""
    s = S[b]
    if a == A_DONE:
        if force_size(S, b, p) > 0:
            return launch_dragon_attack(S, b, p)
        s['segment'] = SEG_END
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


@rules_jit
def mask_force_type(S, b, p, mask):
    """Legal actions of PH_FORCE_TYPE: TYPE joining from a structure (9.86).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    for t in range(4):
        if force_candidate(S, b, p, int(s['sel_cell']), t) >= 0:
            mask[A_TYPE0 + t] = 1
    if force_wielder(S, b, p, int(s['sel_cell'])) >= 0:
        mask[A_WIELDER] = 1


@rules_jit
def act_force_type(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_FORCE_TYPE: TYPE joining from a
    structure (9.86).

    Returns True if it posed the next decision itself."""
    s = S[b]
    if a == A_WIELDER:
        return join_force(S, b, p, force_wielder(S, b, p, int(s['sel_cell'])))
    return join_force(S, b, p, force_candidate(S, b, p, int(s['sel_cell']), a - A_TYPE0))


@rules_jit
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
        s['segment'] = SEG_END
        return False
    s['segment'] = SEG_RESOLVE
    return wound_attempt(S, b, p)


@rules_jit
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


@rules_jit
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


@rules_jit
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
        s['segment'] = SEG_END
        return False
