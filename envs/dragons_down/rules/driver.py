"""The driver: the sequence of play and the dispatch of decisions (the
template's, ``envs/README.md``).

``advance`` runs forced and chance-only steps until some seat must decide;
``fill_mask`` and ``do_action`` hand the pending decision (``phase``) to its
part's ``mask_*`` and ``act_*``. A game is the set-up (the realm and the
heroes), then turns of an action phase (``actions.py``, ``trade.py``) and a
battle phase (monster activation, ``activation.py``; combat, ``combat.py``;
retirement and the end, ``fate.py``).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..constants import (
    ST_ACTIVATION, ST_BATTLE, ST_BUILD_REALM, ST_COMBAT, ST_FATE, ST_HEROES, ST_TURN_START, ST_TURNS,
)
from ..state import STATE_DTYPE
from .base import (
    NUM_ACTIONS, PH_CLASS, PH_CLASS_SIDE, PH_CUBE_COLOUR, PH_LINEAGE, PH_LINEAGE_SIDE, PH_NONE,
    PH_TILE_CHOOSE, PH_TILE_SPOT, PH_TILE_TURN, PH_ENTER_PLACE, PH_ACTION, PH_HEAL, PH_HIDE,
    PH_BLOCK, PH_ALERT, PH_ALERT_TARGET, PH_GAINED,
)
from .actions import (
    act_action, act_alert, act_alert_target, act_block, act_gained, act_enter_place, act_heal, act_hide, action_phase, mask_action,
    mask_alert, mask_alert_target, mask_block, mask_gained, mask_enter_place, mask_heal, mask_hide, start_turn,
)
from .activation import activation_round, start_activation
from .combat import combat_phase
from .fate import fate_phase
from .setup import (
    act_class, act_class_side, act_cube_colour, act_lineage, act_lineage_side, act_tile_choose,
    act_tile_spot, act_tile_turn, build_realm, hero_selection, mask_class, mask_cube_colour,
    mask_lineage, mask_side, mask_tile_choose, mask_tile_spot, mask_tile_turn, setup_game,
)

BLANK = np.zeros(1, dtype=STATE_DTYPE)   # a zeroed record to reset from

# error codes of apply_action
E_OK, E_RANGE, E_ILLEGAL, E_OVER = 0, 1, 2, 3


@rules_jit
def fill_mask(S, b, mask):
    """mask[a] = 1 iff action a is legal for ``to_play`` now. Returns the count."""
    s = S[b]
    for a in range(NUM_ACTIONS):
        mask[a] = 0
    if s['status'] != 0:
        return 0
    ph = int(s['phase'])
    p = int(s['to_play'])
    if ph == PH_TILE_CHOOSE:
        mask_tile_choose(S, b, p, mask)
    elif ph == PH_TILE_SPOT:
        mask_tile_spot(S, b, p, mask)
    elif ph == PH_TILE_TURN:
        mask_tile_turn(S, b, p, mask)
    elif ph == PH_LINEAGE:
        mask_lineage(S, b, p, mask)
    elif ph == PH_LINEAGE_SIDE:
        mask_side(S, b, p, mask)
    elif ph == PH_CLASS:
        mask_class(S, b, p, mask)
    elif ph == PH_CLASS_SIDE:
        mask_side(S, b, p, mask)
    elif ph == PH_CUBE_COLOUR:
        mask_cube_colour(S, b, p, mask)
    elif ph == PH_ENTER_PLACE:
        mask_enter_place(S, b, p, mask)
    elif ph == PH_ACTION:
        mask_action(S, b, p, mask)
    elif ph == PH_HEAL:
        mask_heal(S, b, p, mask)
    elif ph == PH_HIDE:
        mask_hide(S, b, p, mask)
    elif ph == PH_BLOCK:
        mask_block(S, b, p, mask)
    elif ph == PH_ALERT:
        mask_alert(S, b, p, mask)
    elif ph == PH_ALERT_TARGET:
        mask_alert_target(S, b, p, mask)
    elif ph == PH_GAINED:
        mask_gained(S, b, p, mask)
    # --- Explore and fate
    # --- Loot and Trade
    # --- combat
    count = 0
    for a in range(NUM_ACTIONS):
        count += int(mask[a])
    return count


@rules_jit
def do_action(S, b, a):
    """Carry out legal action a of the pending decision through its part's
    ``act_*``. True if that posed the next decision itself."""
    s = S[b]
    ph = int(s['phase'])
    p = int(s['to_play'])
    s['phase'] = PH_NONE
    if ph == PH_TILE_CHOOSE:
        return act_tile_choose(S, b, p, a)
    elif ph == PH_TILE_SPOT:
        return act_tile_spot(S, b, p, a)
    elif ph == PH_TILE_TURN:
        return act_tile_turn(S, b, p, a)
    elif ph == PH_LINEAGE:
        return act_lineage(S, b, p, a)
    elif ph == PH_LINEAGE_SIDE:
        return act_lineage_side(S, b, p, a)
    elif ph == PH_CLASS:
        return act_class(S, b, p, a)
    elif ph == PH_CLASS_SIDE:
        return act_class_side(S, b, p, a)
    elif ph == PH_CUBE_COLOUR:
        return act_cube_colour(S, b, p, a)
    elif ph == PH_ENTER_PLACE:
        return act_enter_place(S, b, p, a)
    elif ph == PH_ACTION:
        return act_action(S, b, p, a)
    elif ph == PH_HEAL:
        return act_heal(S, b, p, a)
    elif ph == PH_HIDE:
        return act_hide(S, b, p, a)
    elif ph == PH_BLOCK:
        return act_block(S, b, p, a)
    elif ph == PH_ALERT:
        return act_alert(S, b, p, a)
    elif ph == PH_ALERT_TARGET:
        return act_alert_target(S, b, p, a)
    elif ph == PH_GAINED:
        return act_gained(S, b, p, a)
    # --- Explore and fate
    # --- Loot and Trade
    # --- combat
    return False


@rules_jit
def advance(S, b):
    """Run the sequence of play until some seat must decide or the game ends."""
    s = S[b]
    while True:
        if s['status'] != 0:
            s['to_play'] = -1
            s['phase'] = PH_NONE
            return
        st = int(s['stage'])
        s['phase'] = PH_NONE
        s['to_play'] = -1
        if st == ST_BUILD_REALM:
            if build_realm(S, b):
                return
        elif st == ST_HEROES:
            if hero_selection(S, b):
                return
        elif st == ST_TURN_START:
            start_turn(S, b)
        elif st == ST_TURNS:
            if action_phase(S, b):
                return
        elif st == ST_BATTLE:
            start_activation(S, b)
        elif st == ST_ACTIVATION:
            if activation_round(S, b):
                return
        elif st == ST_COMBAT:
            if combat_phase(S, b):
                return
        elif st == ST_FATE:
            if fate_phase(S, b):
                return
        else:
            return


@rules_jit(inline=True)
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


@rules_jit(inline=True)
def apply_trusted(S, b, a, mask):
    """Apply action a, known to be legal; ``mask`` then holds the next
    position's legal actions, whose count is returned."""
    s = S[b]
    s['decisions'] += 1
    if not do_action(S, b, a):
        advance(S, b)
    return settle(S, b, mask)


@rules_jit
def apply_action(S, b, a, mask):
    """Check and apply action a for game b. Returns an E_* code; on error the
    record is untouched."""
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
def reset_game(S, b, seed, num_heroes, sandbox, packs, max_turns, legendary_map, auto_single):
    """Zero record b and set up a new game (L170-L205) up to its first decision."""
    S[b] = BLANK[0]
    s = S[b]
    s['seed'] = seed
    s['num_players'] = num_heroes
    s['sandbox'] = sandbox
    s['packs'] = packs
    s['max_turns'] = max_turns
    s['legendary_map'] = legendary_map
    s['auto_single'] = auto_single
    setup_game(S, b)
    advance(S, b)
    mask = np.empty(NUM_ACTIONS, dtype=np.int8)
    settle(S, b, mask)
