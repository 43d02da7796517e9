"""Is a Dragons Down record a sound position? Checked before any compiled
code reads it.

The compiled core (``rules/``, ``observe.py``) indexes arrays with the
record's fields without bounds checks, so a corrupted record (a flipped
clearing, random bytes) could make it read or write outside its arrays.
``DragonsDown.check_state`` runs :func:`record_problem` first and hands a
record to compiled code (the legal mask) only when it passes; ``restore_state``
of the adapters refuses what fails.

Three layers, each run only when the one before passed:

* :data:`FIELD_RANGES`: every field of the record with the values every
  reachable position keeps (``tests/dragons_down/game_test.py`` checks that
  every field is listed, so a field a new part adds must be given its range
  here);
* seats: fields about seats below ``num_players``, the seats not in play
  empty, the selection and turn orders permutations of the seats;
* the rules' invariants: the realm (tiles placed on distinct positions,
  matching their neighbours, the stack and the dealt tiles), everything on
  the map standing in an existing clearing of a placed tile, heroes' Hearts
  and Action Cubes as their cards give them, each card in one place that can
  hold it, equipment legal by position, weapons, shields and weight, the
  pending decision and its context.
"""
# jitcache: no compiled code
import numpy as np

from . import rules as R
from .constants import (
    CLEARINGS_PER_TILE, CW_CLEARING, CW_DECK, CW_HERO, CW_MERCHANT, CW_REMOVED, CW_SITE, HS_ACTIVE, HS_NONE,
    HS_RETIRED, HS_WAITING, MAP_RADIUS, MAX_CARD_CUBES, MAX_HEROES, MAX_HIDDEN_PER_SIDE, MON_TAKEN, MON_SHAPE,
    NUM_CARDS, NUM_CLASSES, NUM_CLEARINGS, NUM_CUBE_KINDS, NUM_DIRECTIONS, NUM_LINEAGES, NUM_MERCHANTS, NUM_MONSTER_CHIPS,
    NUM_NATIVE_CHIPS, NUM_PACKS, NUM_CURSES, NUM_COLOURS, NUM_SPELLS, SPELL_DECK, SPELL_START, SPW_ATTACHED,
    SPW_DECK, SPW_DISCARD, SPW_KNOWN, SPW_START,
    NUM_PILES, NUM_POSITIONS, NUM_SITES, NUM_TILES, OPTIONAL_RULES, SANDBOXES, SB_EXPLORE, SB_OPEN_REALM, ST_HEROES,
    T_BACKPACK, T_PENDING, TOK_PLACED, TOK_POOL, TOK_SPENT, TW_HAND, TW_OUT, TW_PLACED, TW_STACK,
)

NC = NUM_CLEARINGS
NUM_FOES = NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS
"""Combat's foes: the Monster chips, then the Native chips."""
LAST_SEAT = MAX_HEROES - 1
LAST_STAGE = max(v for k, v in vars(R).items() if k.startswith("ST_") and isinstance(v, int))
LAST_PHASE_CODE = max(v for k, v in vars(R).items() if k.startswith("PH_") and isinstance(v, int))
LOADED_SLOTS = 16
DIE_FACES = int(R.GRAY_SYMBOL.shape[0])
BIG = 30000

FIELD_RANGES = {
    # the outcome and the stream (rewards, score: finite, see the common checks)
    "seed": None, "rng_counter": None, "rewards": None, "score": None, "rank": (0, MAX_HEROES),
    "decisions": (0, 2**31 - 1),
    # the sequence of play
    "num_players": (1, MAX_HEROES),
    "sandbox": (0, len(SANDBOXES) - 1),
    "packs": (1, (1 << NUM_PACKS) - 1),
    "auto_single": (0, 1),
    "to_play": (-1, LAST_SEAT),
    "status": (0, 2),
    "stage": (0, LAST_STAGE),
    "phase": (0, LAST_PHASE_CODE),
    "turn": (0, 1001),
    "max_turns": (1, 1000),
    "legendary_map": (SB_OPEN_REALM, SB_EXPLORE),
    "optional_rules": (0, (1 << len(OPTIONAL_RULES)) - 1),
    "legend_target": (1, 1000),
    # the realm
    "tile_where": (TW_OUT, TW_PLACED),
    "tile_holder": (-1, LAST_SEAT),
    "tile_q": (-MAP_RADIUS, MAP_RADIUS),
    "tile_r": (-MAP_RADIUS, MAP_RADIUS),
    "tile_rot": (0, NUM_DIRECTIONS - 1),
    "tile_side": (0, 1),
    "tile_stack": (-1, NUM_TILES - 1),
    "stack_len": (0, NUM_TILES),
    "tiles_placed": (0, NUM_TILES),
    "placer": (-1, LAST_SEAT),
    "sel_tile": (-1, NUM_TILES - 1),
    "sel_q": (-MAP_RADIUS - 1, MAP_RADIUS + 1),
    "sel_r": (-MAP_RADIUS - 1, MAP_RADIUS + 1),
    "setup_side": (-1, 1),
    "tile_revealed": (0, 1),
    # where things stand: clearings 0..NC-1, -1 none
    "hero_clearing": (-1, NC - 1),
    "civ_clearing": (-1, NC - 1),
    "native_clearing": (MON_TAKEN, NC - 1),      # MON_TAKEN: killed (combat, L1005)
    "wild_clearing": (-1, NC - 1),
    "civ_token_clearing": (-1, NC - 1),
    "site_clearing": (-1, NC - 1),
    "mon_clearing": (MON_SHAPE, NC - 1),         # MON_SHAPE: a Shape Shift's chip by its hero (L1568)
    "shape": (0, NUM_MONSTER_CHIPS),             # 1 + the chip of the hero's Shape Shift; 0 none
    "mon_flipped": (0, 1),
    # heroes
    "gold": (0, BIG), "fame": (-BIG, BIG), "lp": (-BIG, BIG),
    "hero_state": (HS_NONE, HS_RETIRED),
    "hero_lineage": (-1, NUM_LINEAGES - 1),
    "lineage_side": (-1, 1),
    "hero_class": (-1, NUM_CLASSES - 1),
    "class_side": (-1, 1),
    "cubes_taken": (0, 2 * MAX_CARD_CUBES),
    "hearts": (0, 100),
    "cubes": (0, 100),
    "hero_order": (-1, LAST_SEAT),
    "heroes_chosen": (0, MAX_HEROES),
    # the action phase
    "hero_status": (0, 255),                    # the eight HST_* bits
    "actions_used": (0, R.ACTIONS_PER_TURN),
    "turn_order": (-1, LAST_SEAT),
    "order_pos": (0, MAX_HEROES),
    "heal_left": (0, R.ACTIONS_PER_TURN),
    "hidden_found": (0, 1),
    "search_target": (-1, MAX_HIDDEN_PER_SIDE + NUM_PILES - 1),
    "search_dice": (0, 1),
    "block_due": (0, 1),
    "alert_moves": (0, NUM_CARDS),
    "random_heroes": (0, 1),
    "civ_action": (0, 2),                       # the Human's extra action: not earned, earned, taken (L1204)
    "cleric_rerolled": (0, 1),                  # the Cleric rerolled a Summoning Die this turn (L1212)
    # the battle phase
    "summon_dice": (0, DIE_FACES - 1),
    "noise_pos": (0, MAX_HEROES),
    "hide_pos": (0, MAX_HEROES),
    # cards (their owner and slot by where they are: see _card_problem)
    "card_where": (CW_DECK, CW_CLEARING),
    "card_owner": (-1, max(NUM_PILES, NUM_MERCHANTS, MAX_HEROES, NUM_CLEARINGS) - 1),   # a deck, seat, Merchant, pile or clearing
    "card_slot": (-1, max(T_PENDING, NUM_CARDS)),     # a pile's card: its place from the top
    "sel_card": (-1, NUM_CARDS - 1),
    # tokens and piles
    "site_found": (0, 1),
    "site_opened": (0, 1),
    "site_gold": (0, BIG),
    "wild_where": (TOK_POOL, TOK_SPENT),
    "wild_tile": (-1, NUM_TILES - 1),
    "civ_token_where": (TOK_POOL, TOK_SPENT),
    "site_token_where": (TOK_POOL, TOK_SPENT),
    # Loot and Trade (rules/trade.py)
    "card_revealed": (0, 1),
    "merchant_looked": (0, (1 << NUM_MERCHANTS) - 1),   # bit m per Merchant
    "merchant_closed": (0, (1 << NUM_MERCHANTS) - 1),
    "closed_turn": (0, 1001),
    "door_open": (0, 1),
    "trade_mode": (0, 3),                       # TM_*
    "trade_pile": (0, NUM_PILES - 1),
    "trade_partner": (0, LAST_SEAT),
    "trade_merchant": (0, NUM_MERCHANTS - 1),
    "trade_steps": (0, 31),                     # DONE_* bits
    "trade_card": (0, NUM_CARDS - 1),
    "trade_factor": (0, 3),
    "swap_gold": (-BIG, BIG),
    "card_mark": (0, 2),                        # MARK_DEAL, MARK_RECEIVED
    "pile_deal": (0, 1),
    "path_deal": (0, 1),
    # Explore (rules/actions.py)
    "explore_q": (-MAP_RADIUS - 1, MAP_RADIUS + 1),
    "explore_r": (-MAP_RADIUS - 1, MAP_RADIUS + 1),
    "explore_toward": (-1, NUM_DIRECTIONS - 1),
    "explore_tile": (-1, NUM_TILES - 1),
    # the fate of heroes and the end (rules/fate.py)
    "best": (-BIG, BIG),
    "heroes_made": (0, 1000),
    "class_gone": (0, (1 << NUM_CLASSES) - 1),
    "fate_pos": (0, MAX_HEROES),
    "legend": (-1, LAST_SEAT),
    "epic_victory": (0, 1),
    "outlaw": (0, 127),
    # combat (rules/combat.py)
    "combat_pos": (0, MAX_HEROES),
    "combats_begun": (0, 1),
    "activate_pos": (0, MAX_HEROES),
    "combat_clearing": (-1, NC - 1),
    "combat_step": (0, 7),                      # CS_*
    "combat_round": (0, BIG),
    "quiet_rounds": (0, 127),
    "round_wounds": (0, 1),
    "unhide_pos": (0, MAX_HEROES),
    "evade_pos": (0, MAX_HEROES),
    "target_pos": (0, MAX_HEROES),
    "tactics_pos": (0, MAX_HEROES),
    "cleanup_pos": (0, MAX_HEROES),
    "stay_pos": (0, MAX_HEROES),
    "adjust_left": (0, 2),
    "natives_hostile": (0, 1),
    "lure_pos": (0, MAX_HEROES),
    "hero_combat": (0, 4),                      # HC_*
    "hero_cflags": (0, 255),                    # CF_* bits (a byte of flags, never an index)
    "hero_target": (-1, R.AIM_HERO + MAX_HEROES - 1),  # a foe, the Massive Door (NUM_FOES, L1240), a hero (AIM_HERO + q)
    "placed": (0, 100),
    "dispel_card": (-1, NUM_SPELLS - 1),
    "placed_cross": (0, 100),                   # of ``placed``: cubes of the other kind (checked against it below)
    "evade_to": (-1, NC - 1),
    "foe_wounds": (0, 127),
    "foe_target": (-1, LAST_SEAT),
    "foe_extra": (0, 255),                      # bit p per hero
    "foe_flags": (0, 255),                      # FF_* bits
    "foe_wound_by": (0, 127),
    "native_flipped": (0, 1),
    "mon_taker": (-1, LAST_SEAT),
    "native_taker": (-1, LAST_SEAT),
    "card_damaged": (0, 1),
    "card_thrown": (0, 1),
    "atk_foe": (-1, NUM_FOES - 1),
    "atk_victims": (0, 255),                    # bit p per hero
    "atk_victim": (-1, LAST_SEAT),
    "atk_stage": (0, 6),                        # AS_*
    "atk_armor": (R.LIFE_ARMOR_HIT, NUM_CARDS - 1),  # a card, none, or Life Armor (L1578)
    # Player vs. Player (optional, L1172-L1192)
    "atk_by": (0, MAX_HEROES),                  # 1 + a hero; 0 none
    "atk_dmg": (0, 127),
    "atk_swords": (0, 127),
    "atk_ranged": (0, 1),
    "atk_aim": (0, 2),                          # 1 + AIMB_*; 0 unaimed
    "hero_challenge": (0, MAX_HEROES + NUM_FOES),   # 1 + a hero, 1 + MAX_HEROES + a controlled chip; 0 none
    "challenge_cubes": (0, 100),                # Speed Cubes he put in his maneuver boxes as he challenged (of ``placed``)
    "hero_aim": (0, 2),                         # 1 + AIMB_*; 0 none
    "challenge_pos": (0, MAX_HEROES),
    "pvp_block": (0, 100),                      # 1 + a Turn Order index, or actions.PVP_BLOCKING
    # magic outside combat (rules/magic.py)
    "spell_where": (0, 4),                      # SPW_*
    "spell_owner": (-1, NUM_CARDS - 1),
    "curses": (0, (1 << NUM_CURSES) - 1),
    "spells_read": (0, 255),                    # bit p per hero
    "tile_enchant": (-1, NUM_COLOURS - 1),
    "learn_spell": (-1, NUM_SPELLS - 1),
    "learn_dice": (0, 2),                       # LEARN_*
    "enchant_done": (0, 2),
    "enchant_colour": (-1, NUM_COLOURS - 1),
    # spells cast in combat (rules/spells.py)
    "more_targets": (-1, R.AIM_HERO + MAX_HEROES - 1),   # a foe, or a hero (AIM_HERO + q)
    "cast_card": (-1, NUM_SPELLS - 1),
    "cast_cubes": (0, 5),
    "cast_wound": (-2, NUM_COLOURS - 1),        # WOUND_ANY while its multi-colour wound box waits
    "cast_stage": (0, R.CAST_CANCELED),         # CAST_*
    "cast_asked": (0, (1 << MAX_HEROES) - 1),   # bit q per hero
    "cast_accepted": (0, (1 << MAX_HEROES) - 1),
    "cast_any": (0, 5),
    "cast_turn": (0, 1),
    "spell_on": (-1, R.AIM_HERO + MAX_HEROES - 1),
    "spell_shown": (0, 1),
    "spell_mark": (0, 3),
    "peace": (0, 1),
    "atk_venom": (0, 1),
    "atk_hurt": (0, 127),
    "cast_aim": (0, R.MAX_AIMS),
    "cast_hits": (0, R.MAX_AIMS),
    "chasm_by": (0, R.AIM_HERO + MAX_HEROES - 1),
    "chasm_speed": (-BIG, BIG),
    "chasm_pos": (0, NUM_FOES + MAX_HEROES),
    "foe_curses": (0, (1 << NUM_CURSES) - 1),
    # treasures' powers (rules/treasures.py)
    "gift_cubes": (0, len(R.GIFT_KINDS)),
    "gift_wounded": (0, 1),
    "cubes_gained": (0, 100),
    "free_used": (0, 0xFFFF),
    "use_card": (-1, NUM_CARDS - 1),
    "use_from": (-1, NUM_COLOURS - 1),
    "flight_until": (0, 127),
    "spell_moved": (0, (1 << MAX_HEROES) - 1),
    "teleport_target": (-1, R.AIM_HERO + MAX_HEROES - 1),
    "earth_tile": (-1, R.NUM_TILES - 1),
    "lich_vapor": (0, R.LICH_VAPOR_ON | R.LICH_VAPOR_ACTIVE),
    "tentacle_on": (R.TENT_LEFT, R.AIM_HERO + MAX_HEROES - 1),   # a foe, or a hero (AIM_HERO + q)
    "tentacle_hit": (R.TENT_UNROLLED, R.TENT_MANEUVER),
    "tentacle_new": (0, (1 << R.TENTACLE_CARDS.shape[0]) - 1),
    "tentacle_card": (-1, R.TENTACLE_CARDS.shape[0] - 1),
    "foe_ctrl": (0, LAST_SEAT + 1),                # 1 + the controlling hero; 0 none
    "ctrl_flags": (0, R.CTRL_UNDEAD | R.CTRL_ELEMENTAL | R.CTRL_WAITING | R.CTRL_SHAPE),   # CTRL_* bits
    "foe_vs": (0, NUM_FOES),                     # 1 + a foe; 0 none
    "foe_extra_vs": (0, NUM_FOES),               # 1 + a foe; 0 none
    "ctrl_foe": (0, NUM_FOES),                   # 1 + a foe; 0 none
    "treasure_combat": (0, R.TC_ENERGY | R.TC_HORN | R.TC_TIME_STONE | R.TC_BAND_USED | R.TC_SPHERULE),   # TC_* bits
    "card_cube": (0, NUM_COLOURS),
    "turn_powers": (0, 3),
    # rerolls (PH_REROLL)
    "roll_dice": (-1, NUM_CLEARINGS - 1),
    "roll_target": (-1, max(R.AIM_HERO + MAX_HEROES, NUM_PILES) - 1),
    "roll_kind": (R.ROLL_NONE, R.NUM_ROLL_KINDS - 1),
    "roll_n": (0, R.MAX_ROLL_DICE),
    "roll_span": (0, 127),
    "roll_used": (0, (1 << 2 * R.NUM_RR_SOURCES) - 1),
    "roll_party": (-1, LAST_SEAT),
    "roll_chips": (-1, NUM_FOES),
    "roll_stage": (0, 2),
    "roll_then": (-1, NUM_FOES - 1),
    "seen_then": (-1, R.SEEN_MERCHANT),
    # missions and titles
    "mission_draws": (0, BIG),
    "mission_where": (R.MW_OUT, R.MW_DONE),
    "mission_owner": (-1, max(R.NUM_MERCHANTS, MAX_HEROES) - 1),
    "mission_order": (-1, R.NUM_MISSIONS - 1),
    "missions_taken": (0, 2),
    "missions_done": (0, R.NUM_MISSIONS),
    "kills": (0, 127), "native_kills": (0, 127),
    "sites_looted": (0, 1), "tiles_entered": (0, 1),
    "civ_side": (-1, 1),
    "title_claims": (0, 127),
    "title_taken": (0, 1),
    # scenario tests' loaded chance
    "loaded": None,
    "loaded_count": (0, LOADED_SLOTS),
    "loaded_pos": (0, LOADED_SLOTS),
}
"""Field -> ``(lo, hi)``, the values every element keeps; None: any value
(the stream, the outcome floats, loaded raw draws taken modulo their range).
A field listed here that the record does not have yet (a part still being
written) is skipped."""


def _ranges(r):
    for name in r.dtype.names:
        rng = FIELD_RANGES.get(name)
        if rng is None:
            continue
        v = np.asarray(r[name]).astype(np.int64)
        lo, hi = rng
        bad = np.flatnonzero((v < lo) | (v > hi)) if v.ndim else ([0] if not lo <= int(v) <= hi else [])
        if len(bad):
            i = int(bad[0])
            val = int(v.reshape(-1)[i])
            where = f"[{np.unravel_index(i, v.shape)}]" if v.ndim else ""
            return f"{name}{where} is {val}, outside {lo}..{hi}"
    return ""


def _clearing_exists(r, c):
    """Clearing c is a clearing of a placed tile's side up."""
    t = c // CLEARINGS_PER_TILE
    return int(r["tile_where"][t]) == TW_PLACED and \
        int(R.CLEARING_TYPE[t, int(r["tile_side"][t]), c % CLEARINGS_PER_TILE]) >= 0


def _seat_problem(r, n):
    for p in range(n, MAX_HEROES):
        if int(r["hero_state"][p]) != HS_NONE or int(r["hero_clearing"][p]) != -1:
            return f"seat {p} is not in play ({n} seats) but has a hero"
        for name in ("gold", "fame", "lp", "hearts", "cubes", "cubes_taken", "hidden_found", "site_found",
                     "actions_used", "hero_status", "search_dice"):
            if np.any(r[name][p]):
                return f"seat {p} is not in play ({n} seats) but has {name}"
        for name in ("hero_lineage", "hero_class", "lineage_side", "class_side", "hero_order", "turn_order"):
            if int(r[name][p]) not in (-1, 0):
                return f"seat {p} is not in play ({n} seats) but has {name} {int(r[name][p])}"
    for name in ("placer",):
        if int(r[name]) >= n:
            return f"{name} {int(r[name])} is not a seat of {n}"
    for name in ("order_pos", "noise_pos", "hide_pos", "heroes_chosen"):
        if int(r[name]) > n:
            return f"{name} {int(r[name])} is past the {n} seats"
    order = [int(x) for x in r["hero_order"]]
    k = sum(1 for x in order if x >= 0)
    if any(x >= n for x in order) or len({x for x in order if x >= 0}) != k or any(x >= 0 for x in order[k:]):
        return f"hero_order {order} is not a list of distinct seats of {n} (padded with -1)"
    if int(r["stage"]) == ST_HEROES and int(r["heroes_chosen"]) >= k:
        return f"hero selection is under way but all {k} heroes of hero_order are made"
    if int(r["stage"]) < ST_HEROES and k:
        return f"hero_order {order} is set before hero selection"
    if int(r["turn"]) > 0:
        to = [int(x) for x in r["turn_order"]]
        if sorted(to[:n]) != list(range(n)) or any(x != -1 for x in to[n:]):
            return f"turn_order {to} is not an order of the {n} seats"
    if int(r["heroes_chosen"]) > 0 and int(r["stage"]) < ST_HEROES:
        return "heroes are chosen before hero selection"
    return ""


def _realm_problem(r, n):
    packs = int(r["packs"])
    where = [int(x) for x in r["tile_where"]]
    placed = [t for t in range(NUM_TILES) if where[t] == TW_PLACED]
    for t in range(NUM_TILES):
        if not (packs >> int(R.TILE_PACK[t])) & 1 and where[t] != TW_OUT:
            return f"tile {t} is in play but its Terrain Pack is not"
        holder = int(r["tile_holder"][t])
        if where[t] == TW_HAND:
            if not 0 <= holder < n:
                return f"tile {t} is dealt to {holder}, not a seat"
        elif holder != -1:
            return f"tile {t} has a holder but is not dealt"
    if int(r["tiles_placed"]) != len(placed):
        return f"tiles_placed {int(r['tiles_placed'])} but {len(placed)} tiles are on the map"
    spots = {}
    for t in placed:
        key = (int(r["tile_q"][t]), int(r["tile_r"][t]))
        if key in spots:
            return f"tiles {spots[key]} and {t} share the position {key}"
        spots[key] = t
    if placed and (0, 0) not in spots:
        return "no tile is at the map's origin (0, 0)"
    for (q, rr), t in spots.items():
        for d in range(NUM_DIRECTIONS):
            u = spots.get((q + int(R.DIR_DQ[d]), rr + int(R.DIR_DR[d])))
            if u is None:
                continue
            mine = int(R.EDGE_CLEARING[t, int(r["tile_side"][t]), (d - int(r["tile_rot"][t])) % 6]) >= 0
            theirs = int(R.EDGE_CLEARING[u, int(r["tile_side"][u]), ((d + 3) % 6 - int(r["tile_rot"][u])) % 6]) >= 0
            if mine != theirs:
                return f"tiles {t} and {u} do not match along their common edge (paths to paths)"
    m = int(r["stack_len"])
    stack = [int(x) for x in r["tile_stack"]]
    in_stack = sorted(t for t in range(NUM_TILES) if where[t] == TW_STACK)
    drawn = int(r["explore_tile"]) if "explore_tile" in r.dtype.names else -1
    held = stack[:m] + ([drawn] if drawn >= 0 and where[drawn] == TW_STACK else [])   # drawn to explore (L583)
    if sorted(held) != in_stack or any(x != -1 for x in stack[m:]):
        return f"the tile stack {stack[:m]} (stack_len {m}) is not the tiles in the stack {in_stack}"
    for k in range(NUM_PACKS):
        c = int(r["civ_clearing"][k])
        side = int(r["setup_side"][k])
        if not (packs >> k) & 1:
            if c != -1 or side != -1:
                return f"pack {k} is not in play but has a Civilization Location or a setup card side"
            continue
        if side not in (0, 1):
            return f"pack {k} is in play without its Terrain Setup Card side"
        if c >= 0 and (c // CLEARINGS_PER_TILE != int(R.CIV_TILE_OF_PACK[k]) or not _clearing_exists(r, c)):
            return f"pack {k}'s Civilization Location {c} is not a clearing of its placed civilization tile"
        if c < 0 and where[int(R.CIV_TILE_OF_PACK[k])] == TW_PLACED:
            return f"pack {k}'s civilization tile is placed without its Civilization Location"
    return ""


def _where_problem(r, n):
    """Everything on the map stands in an existing clearing."""
    for name in ("native_clearing", "wild_clearing", "civ_token_clearing", "site_clearing", "mon_clearing"):
        for i, c in enumerate(int(x) for x in r[name]):
            if c >= 0 and not _clearing_exists(r, c):
                return f"{name}[{i}] is {c}, not a clearing of a placed tile"
    # A Native stands at its Civilization Location (L189, L312) unless a Curse
    # spell's Teleport sent it elsewhere (L1500, L1103; Interpretations,
    # "Curses on foes"), so any clearing of a placed tile is sound for it.
    civs = {int(x) for x in r["civ_clearing"] if int(x) >= 0}
    for w in range(len(r["wild_where"])):
        ww, tile, c = int(r["wild_where"][w]), int(r["wild_tile"][w]), int(r["wild_clearing"][w])
        if ww == TOK_POOL and (tile != -1 or c != -1):
            return f"Wilderness Token {w} is in its pile but lies on the map"
        if ww != TOK_POOL and (tile < 0 or int(r["tile_where"][tile]) != TW_PLACED):
            return f"Wilderness Token {w} was revealed but not in a placed tile"
        if c >= 0 and c // CLEARINGS_PER_TILE != tile:
            return f"Wilderness Token {w} stands outside its tile"
    for k in range(len(r["civ_token_where"])):
        cw, c = int(r["civ_token_where"][k]), int(r["civ_token_clearing"][k])
        if cw == TOK_PLACED and c not in civs:              # one pile for all packs (L489)
            return f"Civilization Token {k} is not at a Civilization Location"
        if cw == TOK_POOL and c != -1:
            return f"Civilization Token {k} is in the pool but on the map"
    for pile in range(NUM_PILES):
        if int(r["site_opened"][pile]) and int(r["site_clearing"][pile]) < 0 and pile < NUM_SITES:
            return f"Treasure Site {pile} was discovered but is not on the map"
        if pile < NUM_SITES and int(r["site_gold"][pile]) and not int(r["site_opened"][pile]):
            return f"pile {pile} holds Gold before anyone discovered it"
        for p in range(n):
            if int(r["site_found"][p, pile]) and not int(r["site_opened"][pile]):
                return f"seat {p} discovered pile {pile}, which nobody opened"
    return ""


def _hero_problem(r, n):
    classes = {}
    for p in range(n):
        hs = int(r["hero_state"][p])
        c = int(r["hero_clearing"][p])
        if hs == HS_ACTIVE and (c < 0 or not _clearing_exists(r, c)):
            return f"hero {p} is on the map at {c}, not a clearing of a placed tile"
        if hs in (HS_NONE, HS_WAITING) and c != -1:
            return f"hero {p} is not on the map but stands in clearing {c}"
        li, ls = int(r["hero_lineage"][p]), int(r["lineage_side"][p])
        ci, cs = int(r["hero_class"][p]), int(r["class_side"][p])
        if (ls >= 0 and li < 0) or (ci >= 0 and ls < 0) or (cs >= 0 and ci < 0):
            return f"hero {p}'s cards are chosen out of order (lineage, its side, class, its side)"
        if hs != HS_NONE and min(li, ls, ci, cs) < 0:
            return f"hero {p} is made but its Lineage or Class Card is missing"
        if ci >= 0:
            if ci in classes:
                return f"heroes {classes[ci]} and {p} share a Class Card"
            classes[ci] = p
        gifts = _gifts(r, p)
        if list(gifts) != [int(x) for x in r["gift_cubes"][p]]:
            return f"hero {p}'s equipped cards give {gifts} cubes, he holds {list(r['gift_cubes'][p])}"
        extra = int(r["cubes_gained"][p]) + sum(gifts)
        cubes = int(r["cubes"][p].sum())
        if cubes != int(r["cubes_taken"][p]) + extra:
            return f"hero {p} has {cubes} Action Cubes but took {int(r['cubes_taken'][p])} and gained {extra}"
        for k in range(NUM_CUBE_KINDS):
            if int(r["cubes"][p, :, k].sum()) < gifts[k]:
                return f"hero {p} has fewer kind-{k} cubes than his equipped cards give"
        problem = placement_problem(r, p)
        if problem:
            return problem
        if hs in (HS_WAITING, HS_ACTIVE):
            printed = int(R.LINEAGE_HEARTS[li, ls]) + int(R.CLASS_HEARTS[ci, cs])
            if int(r["hearts"][p].sum()) != printed:
                return f"hero {p} has {int(r['hearts'][p].sum())} Hearts, its cards give {printed}"
            cards = int((R.LINEAGE_CUBES[li, ls] != 0).sum()) + int((R.CLASS_CUBES[ci, cs] != 0).sum())
            if cubes != cards + extra:
                return f"hero {p} has {cubes} Action Cubes, its cards give {cards} and he gained {extra}"
        elif hs == HS_NONE and int(r["hearts"][p].sum()):
            return f"hero {p} is not made but has Hearts"
    for k in range(NUM_CUBE_KINDS):
        if int(r["gift_wounded"][k]) and int(r["gift_cubes"][:n, k].sum()):
            return f"the card giving kind-{k} cubes holds its cube wounded, yet a hero holds it"
    return ""


def placement_problem(r, p):
    """Hero p's placed cubes (``placed``, ``placed_cross``) are his: no box
    holds more cubes of the other kind than cubes, and he placed no more
    Might or Speed Cubes than he has healthy."""
    for x in range(R.NUM_BOXES):
        if int(r["placed_cross"][p, x]) > int(r["placed"][p, x]):
            return f"hero {p} has {int(r['placed_cross'][p, x])} cubes of the other kind in box {x}, " \
                   f"which holds {int(r['placed'][p, x])}"
    pl, cr = r["placed"][p].astype(int), r["placed_cross"][p].astype(int)
    in_might = pl[R.BOX_MIGHT] - cr[R.BOX_MIGHT] + cr[R.BOX_ATTACK] + cr[R.BOX_MANEUVER]
    in_speed = pl[R.BOX_ATTACK] + pl[R.BOX_MANEUVER] - cr[R.BOX_ATTACK] - cr[R.BOX_MANEUVER] + cr[R.BOX_MIGHT]
    if in_might > int(r["cubes"][p, 0, R.CUBE_MIGHT]) or in_speed > int(r["cubes"][p, 0, R.CUBE_SPEED]):
        return f"hero {p} placed more Might or Speed Cubes than he has healthy"
    return ""


def _gifts(r, p):
    """The cubes of each CUBE_* kind hero p's equipped cards give (KIND_GIVES)."""
    out = [0] * NUM_CUBE_KINDS
    for c in range(NUM_CARDS):
        k = int(R.CARD_KIND[c])
        if R.KIND_GIVES[k] >= 0 and int(r["card_where"][c]) == CW_HERO and int(r["card_owner"][c]) == p \
                and int(r["card_slot"][c]) < T_BACKPACK:
            out[int(R.KIND_GIVES[k])] += 1
    return out


def _acting_hero(r, n):
    """The hero whose turn of actions is under way (``rules/actions.py::action_phase``), or -1.
    Cards he gains in an action wait at T_PENDING until it is over (``settle_gained``)."""
    if int(r["stage"]) != R.ST_TURNS or not 0 <= int(r["order_pos"]) < n:
        return -1
    return int(r["turn_order"][int(r["order_pos"])])


def _card_problem(r, n):
    merchants = {int(R.CIV_TOKEN_MERCHANT[k]) for k in range(len(r["civ_token_where"]))
                 if int(r["civ_token_where"][k]) == TOK_PLACED and int(R.CIV_TOKEN_MERCHANT[k]) >= 0}
    places = set()
    cover = np.zeros((n, NUM_POSITIONS), dtype=np.int64)
    weapons = np.zeros(n, dtype=np.int64)
    shields = np.zeros(n, dtype=np.int64)
    ph, to_play = int(r["phase"]), int(r["to_play"])
    for c in range(NUM_CARDS):
        w, owner, slot = int(r["card_where"][c]), int(r["card_owner"][c]), int(r["card_slot"][c])
        k = int(R.CARD_KIND[c])
        if w == CW_DECK:
            if owner != int(R.CARD_DECK[c]) or slot != -1:
                return f"card {c} lies in a deck other than its own ({owner}, slot {slot})"
        elif w == CW_HERO:
            if not 0 <= owner < n or int(r["hero_state"][owner]) == HS_NONE:
                return f"card {c} is held by {owner}, not a seat's hero"
            if not 0 <= slot <= T_PENDING:
                return f"card {c} lies at {slot}, not a place on a Hero Board"
            if slot == T_PENDING and not ((ph == R.PH_GAINED or ph == R.PH_REROLL) and to_play == owner) \
                    and (owner != _acting_hero(r, n) or ph == R.PH_ACTION):
                # asked now (PH_GAINED; a roll made as he gained it, the Secret Cache's trap, waits on
                # his Dust of Destiny first), or the hero whose action gained it: the action's own
                # decisions come first (a loot's cards kept and placed, a curse), then the gained
                # card's, before he is asked for his next action
                return f"card {c} waits to be equipped or stowed but hero {owner} is not asked (L972)"
            if slot < T_BACKPACK:
                if not int(R.TARGET_OK[int(R.KIND_POSITION[k]), slot]):
                    return f"card {c} is equipped at {slot}, which its Position banner does not allow"
                if int(R.KIND_WEIGHT[k]) > int(r["cubes"][owner, 0, R.CUBE_MIGHT]):
                    return f"card {c} is equipped beyond hero {owner}'s healthy Might Cubes (L976)"
                cover[owner] += R.TARGET_COVERS[slot]
                weapons[owner] += int(R.KIND_WEAPON[k])
                shields[owner] += int(R.KIND_SHIELD[k])
        elif w == CW_MERCHANT:
            if owner not in merchants:
                return f"card {c} is with Merchant {owner}, whose token is not on the map"
        elif w == CW_CLEARING:
            if not int(R.KIND_BACKPACK_SPECIAL[k]) or not 0 <= owner < NUM_CLEARINGS or slot != -1:
                return f"card {c} lies face up in clearing {owner}: only a Backpack Special card may (L960)"
        elif w == CW_SITE:
            if not 0 <= owner < NUM_PILES or slot < 0:
                return f"card {c} lies in pile {owner} at place {slot}"
            if owner < NUM_SITES and (int(r["site_clearing"][owner]) < 0 or not int(r["site_opened"][owner])):
                return f"card {c} lies in Treasure Site {owner}'s pile, which is not drawn (L520)"
            if (owner, slot) in places:
                return f"two cards lie at place {slot} of pile {owner}"
            places.add((owner, slot))
        elif w != CW_REMOVED:
            return f"card {c} is nowhere ({w})"
    for sp in range(NUM_SPELLS):
        w, owner = int(r["spell_where"][sp]), int(r["spell_owner"][sp])
        if w == SPW_KNOWN:
            if not 0 <= owner < n or int(r["hero_state"][owner]) == HS_NONE and ph != R.PH_START_SPELL:
                return f"spell {sp} is known by {owner}, not a seat's hero"
        elif w == SPW_ATTACHED:
            if not 0 <= owner < NUM_CARDS or not int(R.KIND_SPELLS[int(R.CARD_KIND[owner])]) \
                    or int(r["card_where"][owner]) in (CW_DECK, CW_REMOVED):
                return f"spell {sp} lies under card {owner}, not a Spell Book or Scroll in play (L1424)"
            if int(R.SPELL_FROM[sp]) != SPELL_DECK:
                return f"spell {sp} of the Hero Starting Spell deck lies under a card"
        elif owner != -1:
            return f"spell {sp} is not held but names owner {owner}"
        if w == SPW_START and int(R.SPELL_FROM[sp]) != SPELL_START or \
                w in (SPW_DECK, SPW_DISCARD) and int(R.SPELL_FROM[sp]) != SPELL_DECK:
            return f"spell {sp} lies in the other deck ({w})"
    for sp in range(NUM_SPELLS):
        t = int(r["spell_on"][sp])
        if t < 0:
            continue
        if int(R.SPELL_DURATION[int(R.SPELL_KIND[sp])]) == R.DUR_INSTANT:
            return f"spell {sp} is instantaneous but in play (L1040)"
        if int(r["spell_where"][sp]) != SPW_KNOWN:
            return f"spell {sp} is in play but known by no hero (L1058)"
        if t >= R.AIM_HERO and int(r["hero_state"][t - R.AIM_HERO]) not in (HS_ACTIVE, HS_WAITING):
            return f"spell {sp} is in play on hero {t - R.AIM_HERO}, who is not in play"
        if t < R.AIM_HERO and not (t < NUM_MONSTER_CHIPS and int(r["mon_clearing"][t]) >= 0
                                   or t >= NUM_MONSTER_CHIPS and int(r["native_clearing"][t - NUM_MONSTER_CHIPS]) >= 0):
            return f"spell {sp} is in play on foe {t}, which is not on the map"
    for p in range(n):
        c = int(r["cast_card"][p])
        if c >= 0 and (int(r["spell_where"][c]) != SPW_KNOWN or int(r["spell_owner"][c]) != p):
            return f"hero {p} casts spell {c}, which he does not know"
        on_cards = [0] * NUM_COLOURS
        for c in range(NUM_CARDS):
            v = int(r["card_cube"][c])
            if v and int(r["card_where"][c]) == CW_HERO and int(r["card_owner"][c]) == p:
                on_cards[v - 1] += 1
        for k in range(NUM_COLOURS):
            if int(r["cast_cubes"][p, k]) + on_cards[k] > int(r["cubes"][p, 0, R.CUBE_MAGIC + k]):
                return f"hero {p} has more {k} cubes on his Spell Card and treasures than healthy ones"
    for c in range(NUM_CARDS):
        v = int(r["card_cube"][c])
        if not v:
            continue
        takes = int(R.KIND_TAKES[int(R.CARD_KIND[c])])
        if int(r["combat_step"]) == R.CS_NONE:
            return f"card {c} carries a Magic Cube out of combat"
        if takes < 0 or (takes != R.TAKES_ANY and takes != v - 1):
            return f"card {c} carries a Magic Cube of colour {v - 1} it does not take"
    for p in range(n):
        if cover[p].max(initial=0) > 1:
            return f"hero {p} has two cards in one position (L973)"
        if weapons[p] > 1 or shields[p] > 1:
            return f"hero {p} has two weapons or two shields equipped (L948)"
    sel = int(r["sel_card"])
    if ph == R.PH_ALERT_TARGET and (sel < 0 or int(r["card_where"][sel]) != CW_HERO
                                    or int(r["card_owner"][sel]) != to_play):
        return f"the card being equipped ({sel}) is not the hero's to play"
    if ph == R.PH_GAINED and not any(int(r["card_where"][c]) == CW_HERO and int(r["card_owner"][c]) == to_play
                                     and int(r["card_slot"][c]) == T_PENDING for c in range(NUM_CARDS)):
        return "a card gained is to be equipped or stowed, but the hero to play has none"
    return ""


def _mission_problem(r, n):
    """Every Mission Card in one place, as its pack allows; the deck's order
    a list; the titles' boxes as the cards and their sides allow."""
    packs = int(r["packs"])
    order = []
    for k in range(R.NUM_MISSIONS):
        w, owner = int(r["mission_where"][k]), int(r["mission_owner"][k])
        if ((packs >> int(R.MISSION_PACK[k])) & 1) != (w != R.MW_OUT):
            return f"Mission Card {k} is {'out of' if w == R.MW_OUT else 'in'} play against its pack"
        if w == R.MW_HERO and not 0 <= owner < n:
            return f"Mission Card {k} is held by {owner}, not a seat of {n}"
        if w == R.MW_MERCHANT and not 0 <= owner < R.NUM_MERCHANTS:
            return f"Mission Card {k} is listed with {owner}, not a Merchant"
        if w not in (R.MW_HERO, R.MW_MERCHANT) and owner != -1:
            return f"Mission Card {k} has an owner but is not held or listed"
        if (w == R.MW_DECK) != (int(r["mission_order"][k]) >= 0):
            return f"Mission Card {k} is {'in' if w == R.MW_DECK else 'out of'} the deck, with place {int(r['mission_order'][k])}"
        if w == R.MW_DECK:
            order.append(int(r["mission_order"][k]))
    if len(set(order)) != len(order):
        return f"the Mission Deck's places {sorted(order)} repeat"
    for p in range(n, MAX_HEROES):
        if np.any(r["title_claims"][p]) or np.any(r["kills"][p]) or int(r["missions_done"][p]):
            return f"seat {p} is not in play ({n} seats) but has done deeds"
    for i in range(R.NUM_TITLES):
        card = int(R.TITLE_CARD[i])
        if int(r["civ_side"][card]) < 0 and (int(r["title_taken"][i]) or np.any(r["title_claims"][:, i])):
            return f"title {i} is claimed but its card is not in play"
        if R.TITLE_SMALL[i] and int(np.sum(r["title_claims"][:, i])) > 1:
            return f"small title box {i} is claimed more than once"
        if not R.TITLE_SMALL[i] and int(r["title_taken"][i]):
            return f"large title box {i} is marked taken"
    for k in range(len(R.CIV_PACK)):
        if ((packs >> int(R.CIV_PACK[k])) & 1) != (int(r["civ_side"][k]) >= 0):
            return f"Civilization Card {k} is {'not ' if int(r['civ_side'][k]) < 0 else ''}laid out against its pack"
    return ""


def _decision_problem(r, n):
    running = int(r["status"]) == 0
    ph = int(r["phase"])
    if running and ph == R.PH_NONE:
        return "a running game poses no decision (phase 0)"
    if not running and ph != R.PH_NONE:
        return f"a finished game still poses decision {ph}"
    if running and int(r["turn"]) > int(r["max_turns"]):
        return f"turn {int(r['turn'])} is past the game's {int(r['max_turns'])} turns"
    p = int(r["to_play"])
    if ph in (R.PH_TILE_SPOT, R.PH_TILE_TURN, R.PH_TILE_CHOOSE) and int(r["placer"]) != p:
        return "a seat other than the placer places a tile"
    if ph in (R.PH_TILE_SPOT, R.PH_TILE_TURN):
        t = int(r["sel_tile"])
        if t < 0 or int(r["tile_where"][t]) != TW_HAND or int(r["tile_holder"][t]) != p:
            return f"the tile being placed ({t}) is not one dealt to the seat to play"
    if ph == R.PH_TILE_TURN:
        q, rr = int(r["sel_q"]), int(r["sel_r"])
        if not -MAP_RADIUS <= q <= MAP_RADIUS or not -MAP_RADIUS <= rr <= MAP_RADIUS:
            return f"the tile is to be placed off the map's grid ({q}, {rr})"
        for t in range(NUM_TILES):
            if int(r["tile_where"][t]) == TW_PLACED and (int(r["tile_q"][t]), int(r["tile_r"][t])) == (q, rr):
                return f"the tile is to be placed on tile {t}"
    if ph in (R.PH_ACTION, R.PH_HEAL, R.PH_ALERT, R.PH_ALERT_TARGET, R.PH_ENTER_PLACE) \
            and int(r["hero_state"][p]) not in (HS_WAITING, HS_ACTIVE):
        return f"seat {p} has no hero in play to act"
    if ph == R.PH_SHAPE:
        c = int(r["cast_card"][p])
        if c < 0 or int(R.SPELL_KIND[c]) != R.SP_SHAPE_SHIFT:
            return f"seat {p} chooses a Shape Shift's Monster without casting Shape Shift"
    problem = _shape_problem(r, n)
    if problem:
        return problem
    if ph in (R.PH_CTRL_TARGET, R.PH_CTRL_SIDE, R.PH_CTRL_KEEP):
        f = int(r["ctrl_foe"]) - 1
        if f < 0 or int(r["foe_ctrl"][f]) != p + 1:
            return f"seat {p} decides for foe {f}, which it does not control"
    for f in range(NUM_FOES):
        if int(r["foe_ctrl"][f]) > 0 and int(r["combat_step"]) == 0:
            return f"foe {f} is still controlled with no combat under way (control lasts a combat, L1506, L1550)"
    if int(r["seen_then"]) >= 0 and ph != R.PH_REROLL:
        return "a look that saw a Cursed Treasure waits with no reroll posed (its curse waits on the Dust of Destiny)"
    if int(r["loaded_pos"]) > int(r["loaded_count"]):
        return "more loaded draws used than loaded"
    return ""


def _shape_problem(r, n):
    """Shape Shift (L1564-L1568): a hero's chip is a Monster it may take, its
    card lies on him; the chip lies by him (MON_SHAPE), or in his combat's
    clearing under his control while the spell is active; no other chip lies
    by a hero."""
    owners = {}
    for p in range(MAX_HEROES):
        f = int(r["shape"][p]) - 1
        sp = next((int(x) for x in R.SHAPE_CARDS if int(r["spell_on"][int(x)]) == R.AIM_HERO + p), -1)
        if f < 0:
            if sp >= 0:
                return f"hero {p} bears Shape Shift (card {sp}) with no Monster chip"
            continue
        if sp < 0:
            return f"hero {p} has Shape Shift's chip {f} with no Shape Shift on him"
        if not R.SHAPE_OK[f]:
            return f"hero {p} is Shape Shifted into chip {f}, undead, unique or no Monster (L1564, L1258)"
        if f in owners:
            return f"chip {f} is the Shape Shift of two heroes"
        owners[f] = p
        c = int(r["mon_clearing"][f])
        if c == MON_SHAPE:
            if int(r["foe_ctrl"][f]) != 0:
                return f"Shape Shift chip {f} lies by its hero yet is controlled"
        elif not (c >= 0 and c == int(r["combat_clearing"]) and int(r["combat_step"]) != 0
                  and int(r["foe_ctrl"][f]) == p + 1 and int(r["ctrl_flags"][f]) & R.CTRL_SHAPE):
            return f"Shape Shift chip {f} of hero {p} is neither by him nor fighting for him (mon_clearing {c})"
    for f in range(NUM_MONSTER_CHIPS):
        if int(r["mon_clearing"][f]) == MON_SHAPE and f not in owners:
            return f"chip {f} lies by a hero's board with no Shape Shift"
        if int(r["ctrl_flags"][f]) & R.CTRL_SHAPE and f not in owners:
            return f"chip {f} fights as a Shape Shifted hero that has none"
    return ""


def record_problem(state):
    """``""`` if the 1-record array ``state`` passes every check of this
    module (see its docstring), else a sentence naming the first problem.
    The common fields are checked by the caller first."""
    r = state[0]
    problem = _ranges(r)
    if problem:
        return problem
    n = int(r["num_players"])
    for check in (_seat_problem, _realm_problem, _where_problem, _hero_problem, _card_problem,
                  _mission_problem, _decision_problem):
        problem = check(r, n)
        if problem:
            return problem
    return ""
