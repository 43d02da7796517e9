"""The growth phase (12): re-supply, repair, replacements and reinforcements
(placed as in the set-up, ``setup.placement_round``)."""
from dragongym.envs.core.jit import rules_jit

from ..constants import CARDS_PER_PLAYER, KNIGHT, MAN_AT_ARMS, SNIPER
from ..state import LOC_DEAD
from .base import (
    CASTLE_CELL, PH_NONE, PH_REPL_VILLAGE, ST_GROWTH_PLACE, ST_GROWTH_REPL, ST_OVER, VILLAGE_CELL,
    controls, count_dead, dead_unit, home_castle, home_cottage, pose, set_loc, unit_base,
)
from .brimstone import enter_brimstone_round


# ================================================================ the growth phase (12)
@rules_jit
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
    s['placer'] = 0


@rules_jit
def controlled_villages(S, b, p):
    n = 0
    last = -1
    for k in range(6):
        if controls(S, b, p, int(VILLAGE_CELL[k])):
            n += 1
            last = int(VILLAGE_CELL[k])
    return n, last


@rules_jit
def replacement_type(S, b, p):
    s = S[b]
    return MAN_AT_ARMS if s['reinf_left'][p, 0] > 0 else SNIPER


@rules_jit
def place_replacement(S, b, p, village):
    s = S[b]
    t = replacement_type(S, b, p)
    set_loc(S, b, dead_unit(S, b, p, t), village)
    s['reinf_left'][p, 0 if t == MAN_AT_ARMS else 1] -= 1


@rules_jit
def growth_replacements(S, b):
    s = S[b]
    n = int(s['num_players'])
    while s['placer'] < n:
        p = int(s['placer'])
        while s['reinf_left'][p, 0] + s['reinf_left'][p, 1] > 0:
            nv, last = controlled_villages(S, b, p)
            if nv == 0:                                  # 12.331: lost this time
                s['reinf_left'][p, 0] = 0
                s['reinf_left'][p, 1] = 0
            elif nv == 1:
                place_replacement(S, b, p, last)
            else:
                return pose(S, b, PH_REPL_VILLAGE, p)
        s['placer'] += 1
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
    s['placer'] = start
    s['place_type'] = MAN_AT_ARMS
    s['stage'] = ST_GROWTH_PLACE
    return False


@rules_jit
def mask_repl_village(S, b, p, mask):
    """Legal actions of PH_REPL_VILLAGE: cell of the controlled village receiving a
    replacement (12.33).

    Sets ``mask[a] = 1`` for each; ``mask`` arrives zeroed."""
    for k in range(6):
        if controls(S, b, p, int(VILLAGE_CELL[k])):
            mask[VILLAGE_CELL[k]] = 1


@rules_jit
def act_repl_village(S, b, p, a):
    """Carry out legal action ``a`` of seat ``p`` at PH_REPL_VILLAGE: cell of the controlled
    village receiving a replacement (12.33).

    Returns True if it posed the next decision itself."""
    place_replacement(S, b, p, a)
    return False


@rules_jit
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
