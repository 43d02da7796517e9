"""The driver: the sequence of play and the dispatch of decisions.

``advance`` runs forced and chance-only transitions until some seat must
decide; the stage's section then sets ``phase`` (the pending decision,
``PH_*``) and ``to_play`` through ``base.pose``. ``fill_mask`` and
``do_action`` hand that decision to its section's ``mask_*`` and ``act_*``
functions; ``apply_action`` checks an action against the mask, applies it and
calls ``advance`` again. The batched entry point Python calls,
``kernel.run_batch``, loops over games with ``reset_game``, ``apply_action``,
``apply_trusted`` and ``fill_mask``; ``random_playout`` is the one-game
playout of MCTS. Under ``NUMBA_DISABLE_JIT=1`` the same code runs as plain
Python and must give the same bytes.
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit

from dragongym.envs.core.rng import draw_below
from ..state import STATE_DTYPE
from .base import (
    NUM_ACTIONS, PH_BANISH_DEST, PH_BEING_MOVE, PH_BEING_SELECT, PH_BEING_TARGET, PH_CARD,
    PH_CARD_STRUCT, PH_CASUALTY, PH_CHARM, PH_COMBAT_SELECT, PH_COMBAT_TARGET, PH_COMBAT_TYPE,
    PH_DEFENDER, PH_DRAGON_DIE, PH_DRAGON_FORCE, PH_EAGLE_DEST, PH_EAGLE_LAND, PH_FIVE_MOVE,
    PH_FORCE_TYPE, PH_KINGDOM, PH_MOVE_DEST, PH_MOVE_SELECT, PH_MOVE_TYPE, PH_NONE, PH_OCCUPY,
    PH_PLACE, PH_REPL_VILLAGE, PH_REVIVE_CELL, PH_REVIVE_TYPE, PH_SECOND_DIE, PH_SNIPE_TYPE,
    PH_TELEPORT_DEST, PH_TELEPORT_UNIT, ST_BEING_FIRST, ST_BEING_SECOND, ST_BRIMSTONE, ST_CARDS,
    ST_GROWTH_PLACE, ST_GROWTH_REPL, ST_PLAYER, ST_SETUP_KINGDOM, ST_SETUP_PLACE,
)
from .brimstone import (
    act_card_struct, act_casualty, act_dragon_die, act_five_move, brimstone_round,
    mask_card_struct, mask_casualty, mask_dragon_die, mask_five_move,
)
from .setup import (
    act_kingdom, act_place, finish_setup, kingdom_round, mask_kingdom, mask_place, placement_round,
    setup_game,
)
from .growth import act_repl_village, end_growth, growth_replacements, mask_repl_village
from .combat import (
    act_combat_select, act_combat_target, act_combat_type, act_defender, act_dragon_force,
    act_force_type, act_occupy, mask_combat_select, mask_combat_target, mask_combat_type,
    mask_defender, mask_dragon_force, mask_force_type, mask_occupy,
)
from .players_round import (
    act_card, act_move_dest, act_move_select, act_move_type, card_segment, mask_card,
    mask_move_dest, mask_move_select, mask_move_type, player_round,
)
from .beings import (
    act_banish_dest, act_being_move, act_being_select, act_being_target, act_charm, act_eagle_dest,
    act_eagle_land, act_revive_cell, act_revive_type, act_second_die, act_teleport_dest,
    act_teleport_unit, being_round_first, being_round_second, mask_banish_dest, mask_being_move,
    mask_being_select, mask_being_target, mask_charm, mask_eagle_dest, mask_eagle_land,
    mask_revive_cell, mask_revive_type, mask_second_die, mask_teleport_dest, mask_teleport_unit,
)


BLANK = np.zeros(1, dtype=STATE_DTYPE)   # a zeroed record to reset from

# error codes of apply_action
E_OK, E_RANGE, E_ILLEGAL, E_OVER = 0, 1, 2, 3


# ================================================================ the legal mask and the effect of a decision
@rules_jit
def fill_mask(S, b, mask):
    """mask[a] = 1 iff action a is legal for ``to_play`` now. Returns the count.

    The pending decision ``phase`` names the section function that knows its
    legal actions (``mask_*``, next to the rules it implements)."""
    s = S[b]
    for a in range(NUM_ACTIONS):
        mask[a] = 0
    if s['status'] != 0:
        return 0
    ph = int(s['phase'])
    p = int(s['to_play'])
    if ph == PH_KINGDOM:
        mask_kingdom(S, b, p, mask)
    elif ph == PH_PLACE:
        mask_place(S, b, p, mask)
    elif ph == PH_DRAGON_DIE:
        mask_dragon_die(S, b, p, mask)
    elif ph == PH_BEING_SELECT:
        mask_being_select(S, b, p, mask)
    elif ph == PH_BEING_MOVE:
        mask_being_move(S, b, p, mask)
    elif ph == PH_BEING_TARGET:
        mask_being_target(S, b, p, mask)
    elif ph == PH_BANISH_DEST:
        mask_banish_dest(S, b, p, mask)
    elif ph == PH_EAGLE_DEST:
        mask_eagle_dest(S, b, p, mask)
    elif ph == PH_EAGLE_LAND:
        mask_eagle_land(S, b, p, mask)
    elif ph == PH_CHARM:
        mask_charm(S, b, p, mask)
    elif ph == PH_REVIVE_TYPE:
        mask_revive_type(S, b, p, mask)
    elif ph == PH_REVIVE_CELL:
        mask_revive_cell(S, b, p, mask)
    elif ph == PH_TELEPORT_DEST:
        mask_teleport_dest(S, b, p, mask)
    elif ph == PH_SECOND_DIE:
        mask_second_die(S, b, p, mask)
    elif ph == PH_CARD:
        mask_card(S, b, p, mask)
    elif ph == PH_MOVE_SELECT:
        mask_move_select(S, b, p, mask)
    elif ph == PH_MOVE_TYPE:
        mask_move_type(S, b, p, mask)
    elif ph == PH_MOVE_DEST:
        mask_move_dest(S, b, p, mask)
    elif ph == PH_COMBAT_SELECT:
        mask_combat_select(S, b, p, mask)
    elif ph == PH_COMBAT_TYPE:
        mask_combat_type(S, b, p, mask)
    elif ph == PH_COMBAT_TARGET:
        mask_combat_target(S, b, p, mask)
    elif ph == PH_SNIPE_TYPE:
        mask_defender(S, b, p, mask)
    elif ph == PH_DEFENDER:
        mask_defender(S, b, p, mask)
    elif ph == PH_OCCUPY:
        mask_occupy(S, b, p, mask)
    elif ph == PH_DRAGON_FORCE:
        mask_dragon_force(S, b, p, mask)
    elif ph == PH_FORCE_TYPE:
        mask_force_type(S, b, p, mask)
    elif ph == PH_CASUALTY:
        mask_casualty(S, b, p, mask)
    elif ph == PH_CARD_STRUCT:
        mask_card_struct(S, b, p, mask)
    elif ph == PH_FIVE_MOVE:
        mask_five_move(S, b, p, mask)
    elif ph == PH_REPL_VILLAGE:
        mask_repl_village(S, b, p, mask)
    elif ph == PH_TELEPORT_UNIT:
        mask_teleport_unit(S, b, p, mask)
    count = 0
    for a in range(NUM_ACTIONS):
        count += int(mask[a])
    return count


@rules_jit
def do_action(S, b, a):
    """Carry out legal action a of the pending decision through its section's
    ``act_*`` function. Returns True if that posed the next decision itself
    (otherwise ``advance`` finds the next one)."""
    s = S[b]
    ph = int(s['phase'])
    p = int(s['to_play'])
    s['phase'] = PH_NONE
    if ph == PH_KINGDOM:
        return act_kingdom(S, b, p, a)
    elif ph == PH_PLACE:
        return act_place(S, b, p, a)
    elif ph == PH_DRAGON_DIE:
        return act_dragon_die(S, b, p, a)
    elif ph == PH_BEING_SELECT:
        return act_being_select(S, b, p, a)
    elif ph == PH_BEING_MOVE:
        return act_being_move(S, b, p, a)
    elif ph == PH_BEING_TARGET:
        return act_being_target(S, b, p, a)
    elif ph == PH_BANISH_DEST:
        return act_banish_dest(S, b, p, a)
    elif ph == PH_EAGLE_DEST:
        return act_eagle_dest(S, b, p, a)
    elif ph == PH_EAGLE_LAND:
        return act_eagle_land(S, b, p, a)
    elif ph == PH_CHARM:
        return act_charm(S, b, p, a)
    elif ph == PH_REVIVE_TYPE:
        return act_revive_type(S, b, p, a)
    elif ph == PH_REVIVE_CELL:
        return act_revive_cell(S, b, p, a)
    elif ph == PH_TELEPORT_DEST:
        return act_teleport_dest(S, b, p, a)
    elif ph == PH_SECOND_DIE:
        return act_second_die(S, b, p, a)
    elif ph == PH_CARD:
        return act_card(S, b, p, a)
    elif ph == PH_MOVE_SELECT:
        return act_move_select(S, b, p, a)
    elif ph == PH_MOVE_TYPE:
        return act_move_type(S, b, p, a)
    elif ph == PH_MOVE_DEST:
        return act_move_dest(S, b, p, a)
    elif ph == PH_COMBAT_SELECT:
        return act_combat_select(S, b, p, a)
    elif ph == PH_COMBAT_TYPE:
        return act_combat_type(S, b, p, a)
    elif ph == PH_COMBAT_TARGET:
        return act_combat_target(S, b, p, a)
    elif ph == PH_SNIPE_TYPE:
        return act_defender(S, b, p, a)
    elif ph == PH_DEFENDER:
        return act_defender(S, b, p, a)
    elif ph == PH_OCCUPY:
        return act_occupy(S, b, p, a)
    elif ph == PH_DRAGON_FORCE:
        return act_dragon_force(S, b, p, a)
    elif ph == PH_FORCE_TYPE:
        return act_force_type(S, b, p, a)
    elif ph == PH_CASUALTY:
        return act_casualty(S, b, p, a)
    elif ph == PH_CARD_STRUCT:
        return act_card_struct(S, b, p, a)
    elif ph == PH_FIVE_MOVE:
        return act_five_move(S, b, p, a)
    elif ph == PH_REPL_VILLAGE:
        return act_repl_village(S, b, p, a)
    elif ph == PH_TELEPORT_UNIT:
        return act_teleport_unit(S, b, p, a)
    return False


# ================================================================ the sequence of play (5)
@rules_jit
def advance(S, b):
    """Run forced and chance-only steps until some seat must decide (or the end):
    the sequence of play (5), one stage (``ST_*``) at a time; each stage's
    function returns True once it has posed a decision."""
    s = S[b]
    while True:
        if s['status'] != 0:
            s['to_play'] = -1
            s['phase'] = PH_NONE
            return
        st = int(s['stage'])
        s['phase'] = PH_NONE
        if st == ST_SETUP_KINGDOM:
            if kingdom_round(S, b):
                return
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


@rules_jit
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


@rules_jit
def apply_trusted(S, b, a, mask):
    """Apply action a, known to be legal (it came from this position's mask).
    On return ``mask`` holds the next position's legal actions; returns their count."""
    s = S[b]
    s['decisions'] += 1
    if not do_action(S, b, a):
        advance(S, b)
    return settle(S, b, mask)


@rules_jit
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


@rules_jit
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


@rules_jit
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
