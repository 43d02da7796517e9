"""The Dragonhunt rules core, one module per part of the rulebook
(``shared/rules/dragonhunt.txt``); ``envs/README.md`` describes the layout.

Imports run one way, each module from those above it only:

* ``base``: data tables, action layout, decision codes (``PH_*``), stages
  (``ST_*``), dice, seats, and the bookkeeping of every counter;
* ``brimstone`` (6, 7), ``setup`` (1-3), ``growth`` (12), ``magesword``
  (13, 14), ``combat`` (9.4-9.8), ``players_round`` (9.1-11: cards, round
  order, movement), ``beings`` (8, 15): each section's rules with the mask
  (``mask_*``) and effect (``act_*``) of every decision it poses. The order is
  what calls what: the Player's round hands over to the dragon attack and to
  growth, the being round to the card segment, and the beings move by the
  movement rules;
* ``driver``: the sequence of play (``advance``), the dispatch of the pending
  decision to its section, and the compiled entry points Python calls.

This package re-exports the names the adapters, observations and tests read
as ``rules.<name>``; the rows of ``envs/dragonhunt/RULES.md`` name the
module of each rule's code.
"""
from ..constants import NUM_UNITS
from .base import (
    AC_END, AC_STRIKE_CASTLE, A_CARD0, A_CHARM0, A_DIE0, A_DIE1, A_DONE, A_SNIPE, A_TYPE0,
    A_WIELDER, BP_DONE, BP_SELECT, CASTLE_CELL, COTTAGE_CELL, DECK, HEXSIDES, IS_FIELD,
    IS_STRUCTURE, KINGDOM, LAIR_CELL, NC, NEIGHBOURS, NUM_ACTIONS, PH_BANISH_DEST, PH_BEING_MOVE,
    PH_BEING_SELECT, PH_BEING_TARGET, PH_CARD, PH_CARD_STRUCT, PH_CASUALTY, PH_CHARM,
    PH_COMBAT_SELECT, PH_COMBAT_TARGET, PH_COMBAT_TYPE, PH_DEFENDER, PH_DRAGON_DIE,
    PH_DRAGON_FORCE, PH_EAGLE_DEST, PH_EAGLE_LAND, PH_FIVE_MOVE, PH_FORCE_TYPE, PH_KINGDOM,
    PH_MOVE_DEST, PH_MOVE_SELECT, PH_MOVE_TYPE, PH_NONE, PH_OCCUPY, PH_PLACE, PH_REPL_VILLAGE,
    PH_REVIVE_CELL, PH_REVIVE_TYPE, PH_SECOND_DIE, PH_SNIPE_TYPE, PH_TELEPORT_DEST,
    PH_TELEPORT_UNIT, SEG_RESOLVE, SEG_START, SPACE_ADJ, SPACE_DIST, ST_BEING_FIRST,
    ST_BEING_SECOND, ST_BRIMSTONE, ST_CARDS, ST_GROWTH_PLACE, ST_GROWTH_REPL, ST_OVER, ST_PLAYER,
    ST_SETUP_KINGDOM, ST_SETUP_PLACE, TERRAIN, UNIT_COLOUR, UNIT_TYPE, VILLAGE_CELL, being_at,
    being_killed, dead_unit, home_cottage, home_village, is_paralyzed, is_vacant_field, kill_unit,
    set_loc, table_result, unit_defense, wound_unit,
)
from .brimstone import (
    brimstone_moves, dragon_attacks_piece, dragon_attacks_structure, dragon_walk, draw_dragon_card,
    end_brimstone_round, enter_brimstone_round, flame_cottage,
)
from .setup import any_placement, finish_setup, placement_legal, setup_game
from .growth import end_growth
from .magesword import wound_brimstone
from .combat import can_attack, force_candidate, force_strength, is_attack_target
from .players_round import end_players_round, enter_card_segment
from .beings import can_be_attacked_by_being, can_revive
from .driver import (
    E_ILLEGAL, E_OK, E_OVER, E_RANGE, advance, apply_action, apply_trusted, fill_mask,
    random_playout, reset_game, settle,
)
