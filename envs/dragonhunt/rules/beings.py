"""The Fantastic Being round (8) and the beings' powers (15): the controlled
being's move and power, the second being's random move, and the ten powers."""
import numpy as np

from dragongym.envs.core.jit import rules_jit

from .. import data as D
from ..constants import (
    BANISHER, BERSERKER, DEMON, DISPERSER, DRAGON_CHARMER, EAGLE, HERO, REVIVOR, TELEPORTER, TROLL,
    UNITS_PER_COLOUR,
)
from ..state import F_DEMON_KILL, F_HARRIED, F_WOUNDED, LOC_DEAD
from .base import (
    A_CHARM0, A_DIE0, A_DIE1, A_DONE, A_TYPE0, A_WIELDER, BEING_ATTACK, BEING_DEFENSE, BEING_FLIES,
    BEING_MOVE, BP_DONE, BP_MOVE, BP_POWER, BP_SECOND_MOVE, BP_SECOND_POWER, BP_SELECT, DEFENSE,
    IS_STRUCTURE, LAIR_CELL, MOVE_COST, NC, NEIGHBOURS, NUM_NEIGHBOURS, PH_BANISH_DEST,
    PH_BEING_MOVE, PH_BEING_SELECT, PH_BEING_TARGET, PH_CHARM, PH_EAGLE_DEST, PH_EAGLE_LAND,
    PH_REVIVE_CELL, PH_REVIVE_TYPE, PH_SECOND_DIE, PH_TELEPORT_DEST, PH_TELEPORT_UNIT, SPACE,
    SPACE_ADJ, SPACE_DIST, STEP, ST_BEING_SECOND, UNIT_COLOUR, UNIT_TYPE, action_choice, being_at,
    being_killed, being_to_lair, being_to_pile, being_wounded, counter_at, d6, is_paralyzed,
    is_vacant_field, kill_unit, pose, roll, set_loc, sniper_flees, unit_base, unit_choice,
    unit_defense, unit_of_type_on, units_on, wielder_option, wound_unit,
)
from .brimstone import dragon_walk, set_enraged
from .players_round import (
    MODE_FLYING_BEING, MODE_GROUND_BEING, UNREACHED, enter_card_segment, reach,
)


# ================================================================ the Fantastic Being round (8)
@rules_jit
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
        sp = int(s['being_step'])
        if sp == BP_SELECT:
            if s['slot_being'][0] < 0 and s['slot_being'][1] < 0:
                s['being_step'] = BP_DONE
                continue
            return pose(S, b, PH_BEING_SELECT, p)
        if sp == BP_MOVE or sp == BP_SECOND_MOVE:
            if s['slot_being'][s['active_slot']] < 0:
                s['being_step'] = BP_DONE
                continue
            return pose(S, b, PH_BEING_MOVE, p)
        if sp == BP_POWER or sp == BP_SECOND_POWER:
            if being_power(S, b):
                return True
            s['being_step'] = BP_DONE
            continue
        # BP_DONE
        s['stage'] = ST_BEING_SECOND
        return False


@rules_jit
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


@rules_jit
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


@rules_jit
def being_done(S, b):
    S[b]['being_step'] = BP_DONE
    return False


@rules_jit
def mask_being_select(S, b, p, mask):
    """Legal actions of PH_BEING_SELECT: cell of the Fantastic Being to use (8.1).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    for k in range(2):
        if s['slot_being'][k] >= 0 and s['slot_loc'][k] >= 0:
            mask[s['slot_loc'][k]] = 1


@rules_jit
def act_being_select(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_BEING_SELECT: cell of the Fantastic
    Being to use (8.1).

    Returns True if it posed the next decision itself."""
    s = S[b]
    s['active_slot'] = being_at(S, b, a)
    s['being_step'] = BP_MOVE
    return False


@rules_jit
def controlled_move_budget(S, b):
    """Movement of the first player's being this move: its rating, or the
    Berserker's second rating on his second move (15.62 "3M/3M")."""
    s = S[b]
    k = int(s['slot_being'][s['active_slot']])
    if s['being_step'] == BP_SECOND_MOVE and BEING_SECOND_MOVE[k] > 0:
        return int(BEING_SECOND_MOVE[k])
    return int(BEING_MOVE[k])


@rules_jit
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


@rules_jit
def mask_being_move(S, b, p, mask):
    """Legal actions of PH_BEING_MOVE: destination cell of the controlled being (its own
    cell = stay); DONE = off the board (8.332).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
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


@rules_jit
def act_being_move(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_BEING_MOVE: destination cell of the
    controlled being (its own cell = stay); DONE = off the board (8.332).

    Returns True if it posed the next decision itself."""
    s = S[b]
    if a == A_DONE:                                     # 8.332: off the board
        being_to_pile(S, b, int(s['active_slot']))
        return being_done(S, b)
    s['slot_loc'][s['active_slot']] = a
    s['being_step'] = BP_POWER if s['being_step'] == BP_MOVE else BP_SECOND_POWER
    return False


# ================================================================ attacks by beings and on them (15.2-15.5)
BA_SURVIVED, BA_KILLED, BA_BANISH, BA_ATTACKER_LOST = 0, 1, 2, 3


@rules_jit
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


@rules_jit
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


@rules_jit
def any_being_target(S, b, slot, controller):
    s = S[b]
    here = int(s['slot_loc'][slot])
    if here < 0:
        return False
    for i in range(int(NUM_NEIGHBOURS[here])):
        if can_be_attacked_by_being(S, b, slot, int(NEIGHBOURS[here, i]), controller):
            return True
    return False


@rules_jit
def mask_being_target(S, b, p, mask):
    """Legal actions of PH_BEING_TARGET: cell the being's power or attack is aimed at; DONE
    = none.

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
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


@rules_jit
def act_being_target(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_BEING_TARGET: cell the being's power
    or attack is aimed at; DONE = none.

    Returns True if it posed the next decision itself."""
    s = S[b]
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
    if k == BERSERKER and r == BA_KILLED and s['being_step'] == BP_POWER:
        s['being_step'] = BP_SECOND_MOVE                # 15.621
        return False
    return being_done(S, b)


# ================================================================ the powers (15.6)
@rules_jit
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


@rules_jit
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


@rules_jit
def mask_banish_dest(S, b, p, mask):
    """Legal actions of PH_BANISH_DEST: empty cell the Banisher sends the loser to (15.611).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    for c in range(NC):
        if is_vacant_field(S, b, c):
            mask[c] = 1


@rules_jit
def act_banish_dest(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_BANISH_DEST: empty cell the Banisher
    sends the loser to (15.611).

    Returns True if it posed the next decision itself."""
    s = S[b]
    banish(S, b, int(s['active_slot']), int(s['target_cell']), a)
    return being_done(S, b)


@rules_jit
def vacant_next_to(S, b, cell):
    """Some vacant field space adjacent to ``cell``."""
    for i in range(int(NUM_NEIGHBOURS[cell])):
        if is_vacant_field(S, b, int(NEIGHBOURS[cell, i])):
            return True
    return False


@rules_jit
def mark_vacant_next_to(S, b, cell, mask):
    for i in range(int(NUM_NEIGHBOURS[cell])):
        c = int(NEIGHBOURS[cell, i])
        if is_vacant_field(S, b, c):
            mask[c] = 1


@rules_jit
def mask_eagle_dest(S, b, p, mask):
    """Legal actions of PH_EAGLE_DEST: cell the Eagle carries the unit to (15.662).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    for c in range(NC):
        if is_vacant_field(S, b, c) and vacant_next_to(S, b, c):
            mask[c] = 1


@rules_jit
def act_eagle_dest(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_EAGLE_DEST: cell the Eagle carries
    the unit to (15.662).

    Returns True if it posed the next decision itself."""
    s = S[b]
    set_loc(S, b, int(s['sel_unit']), a)
    s['eagle_cell'] = a
    return pose(S, b, PH_EAGLE_LAND, p)


@rules_jit
def mask_eagle_land(S, b, p, mask):
    """Legal actions of PH_EAGLE_LAND: cell the Eagle itself lands on (15.6641).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    mark_vacant_next_to(S, b, int(s['eagle_cell']), mask)


@rules_jit
def act_eagle_land(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_EAGLE_LAND: cell the Eagle itself
    lands on (15.6641).

    Returns True if it posed the next decision itself."""
    s = S[b]
    s['slot_loc'][s['active_slot']] = a
    return being_done(S, b)


@rules_jit
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


@rules_jit
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


@rules_jit
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


@rules_jit
def mask_charm(S, b, p, mask):
    """Legal actions of PH_CHARM: CHARM actions / DONE (15.65).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    slot = int(s['active_slot'])
    d = dragon_row_direction(S, b, int(s['slot_loc'][slot]))
    toward = (d + 2) % 6 + 1
    for k in range(1, 4):
        if charm_path_ok(S, b, toward, k):
            mask[A_CHARM0 + k - 1] = 1
        if charm_path_ok(S, b, d, k):
            mask[A_CHARM0 + 2 + k] = 1
    mask[A_DONE] = 1


@rules_jit
def act_charm(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_CHARM: CHARM actions / DONE (15.65).

    Returns True if it posed the next decision itself."""
    s = S[b]
    if a != A_DONE:
        d = dragon_row_direction(S, b, int(s['slot_loc'][s['active_slot']]))
        j = a - A_CHARM0
        if j < 3:
            charm_dragon(S, b, (d + 2) % 6 + 1, j + 1)
        else:
            charm_dragon(S, b, d, j - 2)
    return being_done(S, b)


@rules_jit
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


@rules_jit
def can_revive(S, b, p):
    s = S[b]
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        if s['unit_loc'][base + i] == LOC_DEAD and (s['unit_flags'][base + i] & F_DEMON_KILL) == 0:
            return True
    return False


@rules_jit
def mask_revive_type(S, b, p, mask):
    """Legal actions of PH_REVIVE_TYPE: TYPE actions / DONE (15.68).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        u = base + i
        if s['unit_loc'][u] == LOC_DEAD and (s['unit_flags'][u] & F_DEMON_KILL) == 0:
            mask[A_TYPE0 + int(UNIT_TYPE[u])] = 1
    mask[A_DONE] = 1


@rules_jit
def act_revive_type(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_REVIVE_TYPE: TYPE actions / DONE
    (15.68).

    Returns True if it posed the next decision itself."""
    s = S[b]
    if a == A_DONE:
        return being_done(S, b)
    s['sel_type'] = a - A_TYPE0
    return pose(S, b, PH_REVIVE_CELL, p)


@rules_jit
def mask_revive_cell(S, b, p, mask):
    """Legal actions of PH_REVIVE_CELL: empty cell next to the Revivor where the revived
    unit comes back (15.681).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    mark_vacant_next_to(S, b, int(s['slot_loc'][s['active_slot']]), mask)


@rules_jit
def act_revive_cell(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_REVIVE_CELL: empty cell next to the
    Revivor where the revived unit comes back (15.681).

    Returns True if it posed the next decision itself."""
    s = S[b]
    base = unit_base(p)
    for i in range(UNITS_PER_COLOUR):
        u = base + i
        if s['unit_loc'][u] == LOC_DEAD and UNIT_TYPE[u] == s['sel_type'] \
                and (s['unit_flags'][u] & F_DEMON_KILL) == 0:
            s['unit_flags'][u] = 0
            set_loc(S, b, u, a)
            break
    return being_done(S, b)


@rules_jit
def mask_teleport_unit(S, b, p, mask):
    """Legal actions of PH_TELEPORT_UNIT: cell of the own unit to teleport / DONE; then TYPE
    if that cell holds several (sel_cell set).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
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


@rules_jit
def act_teleport_unit(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_TELEPORT_UNIT: cell of the own unit
    to teleport / DONE; then TYPE if that cell holds several (sel_cell set).

    Returns True if it posed the next decision itself."""
    s = S[b]
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


@rules_jit
def mask_teleport_dest(S, b, p, mask):
    """Legal actions of PH_TELEPORT_DEST: cell next to the Teleporter (15.69).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    s = S[b]
    mark_vacant_next_to(S, b, int(s['slot_loc'][s['active_slot']]), mask)


@rules_jit
def act_teleport_dest(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_TELEPORT_DEST: cell next to the
    Teleporter (15.69).

    Returns True if it posed the next decision itself."""
    s = S[b]
    set_loc(S, b, int(s['sel_unit']), a)
    s['teleport_user'] = p
    return being_done(S, b)


# ================================================================ the second being: the uncontrolled move (8.2, 8.3)
@rules_jit
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


@rules_jit
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


@rules_jit
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


BEING_SECOND_MOVE = D.BEING_SECOND_MOVE


@rules_jit
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


@rules_jit
def mask_second_die(S, b, p, mask):
    """Legal actions of PH_SECOND_DIE: DIE0/DIE1: direction of the second being (8.21).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    mask[A_DIE0] = 1
    mask[A_DIE1] = 1


@rules_jit
def act_second_die(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_SECOND_DIE: DIE0/DIE1: direction of
    the second being (8.21).

    Returns True if it posed the next decision itself."""
    s = S[b]
    d = int(s['die0']) if a == A_DIE0 else int(s['die1'])
    random_being_move(S, b, 1 - int(s['active_slot']), d)
    enter_card_segment(S, b)
    return False
