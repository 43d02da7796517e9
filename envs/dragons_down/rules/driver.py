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

from dragongym.envs.core.jit import local_array, rules_jit
from ..constants import (
    ST_ACTIVATION, ST_BATTLE, ST_BUILD_REALM, ST_COMBAT, ST_FATE, ST_HEROES, ST_TURN_START, ST_TURNS,
)
from ..state import STATE_DTYPE
from .base import (
    NUM_ACTIONS, PH_CLASS, PH_CLASS_SIDE, PH_CUBE_COLOUR, PH_LINEAGE, PH_LINEAGE_SIDE, PH_NONE,
    PH_TILE_CHOOSE, PH_TILE_SPOT, PH_TILE_TURN, PH_ENTER_PLACE, PH_ACTION, PH_HEAL, PH_HIDE,
    PH_BLOCK, PH_ALERT, PH_ALERT_TARGET, PH_GAINED, PH_EXPLORE_TURN, PH_EXPLORE_ENTER, PH_RETIRE,
    PH_START_SPELL, PH_UNCURSE, PH_DISPEL_ASK, PH_ADJUST, PH_ADJUST_TARGET, PH_ARMOR, PH_EVADE, PH_LURE, PH_REARM, PH_TACTICS,
    PH_TARGET, PH_UNHIDE, PH_WOUND, PH_MORE_TARGETS, PH_SPELL_CUBE, PH_ACCEPT, PH_TELEPORT_TILE, PH_ACTIVATE, PH_EARTH_TILE, PH_EARTH_TURN,
    PH_TENTACLE, PH_TAKE_MISSION, PH_MISSION_LIMIT, PH_PARDON, PH_REROLL, PH_CTRL_TARGET, PH_CTRL_SIDE,
    PH_CTRL_KEEP, PH_SHAPE, PH_CHALLENGE, PH_CHALLENGE_CUBE, PH_HERO_BLOCK,
)
from .actions import (
    act_explore_enter, act_explore_turn, mask_explore_enter, mask_explore_turn,
    act_action, act_alert, act_alert_target, act_block, act_gained, act_enter_place, act_heal, act_hide, action_phase, mask_action,
    mask_alert, mask_alert_target, mask_block, mask_gained, mask_enter_place, mask_heal, mask_hide, start_turn,
    spell_arrivals, act_hero_block, mask_hero_block,
)
from .activation import activation_round, start_activation
from .spells import (
    act_accept, act_earth_tile, act_earth_turn, act_spell_cube, act_teleport_tile, act_tentacle, act_reroll,
    mask_reroll, mask_accept, mask_earth_tile, mask_earth_turn, mask_spell_cube, mask_teleport_tile,
    mask_tentacle, act_ctrl_keep, mask_ctrl_keep, act_shape, mask_shape,
)
from .combat import (
    act_more_targets, mask_more_targets, act_adjust, act_adjust_target, act_armor, act_evade, act_lure, act_tactics, act_target, act_unhide,
    act_wound, combat_phase, mask_adjust, mask_adjust_target, mask_armor, mask_evade, mask_lure, mask_tactics,
    mask_target, mask_unhide, mask_wound, act_ctrl_target, act_ctrl_side, mask_ctrl_target, mask_ctrl_side,
    act_challenge, act_challenge_cube, mask_challenge, mask_challenge_cube,
)
from .fate import act_retire, fate_phase, mask_retire
from .treasures import act_use_colour, disenchant, mask_use_colour, using_colour
from .magic import act_activate, act_start_spell, act_uncurse, enchant_permanents, mask_activate, mask_start_spell, mask_uncurse
from .magic import act_dispel_ask, mask_dispel_ask
from .trade import (
    act_buy, act_commerce, act_loot_keep, act_loot_pile, act_received, act_repair, act_sell,
    act_swap_answer, act_swap_offer, act_take_mission, act_trade_with, mask_take_mission, mask_buy, mask_commerce, mask_loot_keep, mask_loot_pile,
    mask_received, mask_repair, mask_sell, mask_swap_answer, mask_swap_offer, mask_trade_with,
    PH_BUY, PH_COMMERCE, PH_LOOT_KEEP, PH_LOOT_PILE, PH_RECEIVED, PH_REPAIR, PH_SELL, PH_SWAP_ANSWER,
    PH_SWAP_OFFER, PH_TRADE_WITH,
)
from .missions import act_mission_limit, act_pardon, mask_discard_missions, mask_pardon, note_tiles_entered
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
        if using_colour(S, b):
            mask_use_colour(S, b, p, mask)
        else:
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
    elif ph == PH_EXPLORE_TURN:
        mask_explore_turn(S, b, p, mask)
    elif ph == PH_EXPLORE_ENTER:
        mask_explore_enter(S, b, p, mask)
    elif ph == PH_RETIRE:
        mask_retire(S, b, p, mask)
    # --- Loot and Trade
    elif ph == PH_LOOT_PILE:
        mask_loot_pile(S, b, p, mask)
    elif ph == PH_LOOT_KEEP:
        mask_loot_keep(S, b, p, mask)
    elif ph == PH_RECEIVED:
        mask_received(S, b, p, mask)
    elif ph == PH_TRADE_WITH:
        mask_trade_with(S, b, p, mask)
    elif ph == PH_SWAP_OFFER:
        mask_swap_offer(S, b, p, mask)
    elif ph == PH_SWAP_ANSWER:
        mask_swap_answer(S, b, p, mask)
    elif ph == PH_COMMERCE:
        mask_commerce(S, b, p, mask)
    elif ph == PH_SELL:
        mask_sell(S, b, p, mask)
    elif ph == PH_REPAIR:
        mask_repair(S, b, p, mask)
    elif ph == PH_BUY:
        mask_buy(S, b, p, mask)
    elif ph == PH_TAKE_MISSION:
        mask_take_mission(S, b, p, mask)
    # --- missions and titles
    elif ph == PH_MISSION_LIMIT:
        mask_discard_missions(S, b, p, mask)
    elif ph == PH_PARDON:
        mask_pardon(S, b, p, mask)
    # --- magic
    elif ph == PH_START_SPELL:
        mask_start_spell(S, b, p, mask)
    elif ph == PH_UNCURSE:
        mask_uncurse(S, b, p, mask)
    elif ph == PH_DISPEL_ASK:
        mask_dispel_ask(S, b, p, mask)
    # --- combat
    elif ph == PH_UNHIDE:
        mask_unhide(S, b, p, mask)
    elif ph == PH_LURE:
        mask_lure(S, b, p, mask)
    elif ph == PH_CHALLENGE:
        mask_challenge(S, b, p, mask)
    elif ph == PH_CHALLENGE_CUBE:
        mask_challenge_cube(S, b, p, mask)
    elif ph == PH_HERO_BLOCK:
        mask_hero_block(S, b, p, mask)
    elif ph == PH_EVADE:
        mask_evade(S, b, p, mask)
    elif ph == PH_TARGET:
        mask_target(S, b, p, mask)
    elif ph == PH_MORE_TARGETS:
        mask_more_targets(S, b, p, mask)
    elif ph == PH_SPELL_CUBE:
        mask_spell_cube(S, b, p, mask)
    elif ph == PH_ACCEPT:
        mask_accept(S, b, p, mask)
    elif ph == PH_TELEPORT_TILE:
        mask_teleport_tile(S, b, p, mask)
    elif ph == PH_EARTH_TILE:
        mask_earth_tile(S, b, p, mask)
    elif ph == PH_EARTH_TURN:
        mask_earth_turn(S, b, p, mask)
    elif ph == PH_TENTACLE:
        mask_tentacle(S, b, p, mask)
    elif ph == PH_REROLL:
        mask_reroll(S, b, p, mask)
    elif ph == PH_CTRL_TARGET:
        mask_ctrl_target(S, b, p, mask)
    elif ph == PH_CTRL_SIDE:
        mask_ctrl_side(S, b, p, mask)
    elif ph == PH_CTRL_KEEP:
        mask_ctrl_keep(S, b, p, mask)
    elif ph == PH_SHAPE:
        mask_shape(S, b, p, mask)
    elif ph == PH_ACTIVATE:
        mask_activate(S, b, p, mask)
    elif ph == PH_TACTICS:
        mask_tactics(S, b, p, mask)
    elif ph == PH_ARMOR:
        mask_armor(S, b, p, mask)
    elif ph == PH_WOUND:
        mask_wound(S, b, p, mask)
    elif ph == PH_ADJUST or ph == PH_REARM:
        mask_adjust(S, b, p, mask)
    elif ph == PH_ADJUST_TARGET:
        mask_adjust_target(S, b, p, mask)
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
        if using_colour(S, b):
            return act_use_colour(S, b, p, a)
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
    elif ph == PH_EXPLORE_TURN:
        return act_explore_turn(S, b, p, a)
    elif ph == PH_EXPLORE_ENTER:
        return act_explore_enter(S, b, p, a)
    elif ph == PH_RETIRE:
        return act_retire(S, b, p, a)
    # --- Loot and Trade
    elif ph == PH_LOOT_PILE:
        return act_loot_pile(S, b, p, a)
    elif ph == PH_LOOT_KEEP:
        return act_loot_keep(S, b, p, a)
    elif ph == PH_RECEIVED:
        return act_received(S, b, p, a)
    elif ph == PH_TRADE_WITH:
        return act_trade_with(S, b, p, a)
    elif ph == PH_SWAP_OFFER:
        return act_swap_offer(S, b, p, a)
    elif ph == PH_SWAP_ANSWER:
        return act_swap_answer(S, b, p, a)
    elif ph == PH_COMMERCE:
        return act_commerce(S, b, p, a)
    elif ph == PH_SELL:
        return act_sell(S, b, p, a)
    elif ph == PH_REPAIR:
        return act_repair(S, b, p, a)
    elif ph == PH_BUY:
        return act_buy(S, b, p, a)
    elif ph == PH_TAKE_MISSION:
        return act_take_mission(S, b, p, a)
    # --- missions and titles
    elif ph == PH_MISSION_LIMIT:
        return act_mission_limit(S, b, p, a)
    elif ph == PH_PARDON:
        return act_pardon(S, b, p, a)
    # --- magic
    elif ph == PH_START_SPELL:
        return act_start_spell(S, b, p, a)
    elif ph == PH_UNCURSE:
        return act_uncurse(S, b, p, a)
    elif ph == PH_DISPEL_ASK:
        return act_dispel_ask(S, b, p, a)
    # --- combat
    elif ph == PH_UNHIDE:
        return act_unhide(S, b, p, a)
    elif ph == PH_LURE:
        return act_lure(S, b, p, a)
    elif ph == PH_CHALLENGE:
        return act_challenge(S, b, p, a)
    elif ph == PH_CHALLENGE_CUBE:
        return act_challenge_cube(S, b, p, a)
    elif ph == PH_HERO_BLOCK:
        return act_hero_block(S, b, p, a)
    elif ph == PH_EVADE:
        return act_evade(S, b, p, a)
    elif ph == PH_TARGET:
        return act_target(S, b, p, a)
    elif ph == PH_MORE_TARGETS:
        return act_more_targets(S, b, p, a)
    elif ph == PH_SPELL_CUBE:
        return act_spell_cube(S, b, p, a)
    elif ph == PH_ACCEPT:
        return act_accept(S, b, p, a)
    elif ph == PH_TELEPORT_TILE:
        return act_teleport_tile(S, b, p, a)
    elif ph == PH_EARTH_TILE:
        return act_earth_tile(S, b, p, a)
    elif ph == PH_EARTH_TURN:
        return act_earth_turn(S, b, p, a)
    elif ph == PH_TENTACLE:
        return act_tentacle(S, b, p, a)
    elif ph == PH_REROLL:
        return act_reroll(S, b, p, a)
    elif ph == PH_CTRL_TARGET:
        return act_ctrl_target(S, b, p, a)
    elif ph == PH_CTRL_SIDE:
        return act_ctrl_side(S, b, p, a)
    elif ph == PH_CTRL_KEEP:
        return act_ctrl_keep(S, b, p, a)
    elif ph == PH_SHAPE:
        return act_shape(S, b, p, a)
    elif ph == PH_ACTIVATE:
        return act_activate(S, b, p, a)
    elif ph == PH_TACTICS:
        return act_tactics(S, b, p, a)
    elif ph == PH_ARMOR:
        return act_armor(S, b, p, a)
    elif ph == PH_WOUND:
        return act_wound(S, b, p, a)
    elif ph == PH_ADJUST or ph == PH_REARM:
        return act_adjust(S, b, p, a)
    elif ph == PH_ADJUST_TARGET:
        return act_adjust_target(S, b, p, a)
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
            if spell_arrivals(S, b) or fate_phase(S, b):
                return
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
        after_decision(S, b)


@rules_jit
def apply_trusted(S, b, a, mask):
    """Apply action a, known to be legal; ``mask`` then holds the next
    position's legal actions, whose count is returned. The DisEnchanter's
    tile is cleared of its Magic Cube after every decision (L1328)."""
    s = S[b]
    s['decisions'] += 1
    if not do_action(S, b, a):
        advance(S, b)
    after_decision(S, b)
    return settle(S, b, mask)


@rules_jit
def after_decision(S, b):
    """What holds after every decision: the DisEnchanter's tile is cleared
    (L1328); a permanent spell in its colour's enchanted tile is active
    (L577); each hero has stood in his tile (a mission's enter task)."""
    disenchant(S, b)
    enchant_permanents(S, b)
    note_tiles_entered(S, b)


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
def reset_game(S, b, seed, num_heroes, sandbox, packs, max_turns, legendary_map, auto_single, random_heroes,
               optional_rules, legend_target):
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
    s['random_heroes'] = random_heroes
    s['optional_rules'] = optional_rules
    s['legend_target'] = legend_target
    setup_game(S, b)
    advance(S, b)
    mask = local_array(NUM_ACTIONS, np.int8)
    settle(S, b, mask)
