"""The action phase (L441-L612): turn start, the random order of the active
heroes, up to four actions each, Cave Clearings, entering the map, the
monster block (L457-L459), the actions Move, Sneak, Make Noise, Rest and
Pass, Alert (its equipping; its extra Speed Cube counts in combat), Search
for Hidden Paths and Treasure Sites (the first finder opens a site), and the
Hide reaction (L593-L605; also asked after monster activation).

Loot and Trade are ``trade.py``'s; Explore and Gates are being added here.
"""
import numpy as np

from dragongym.envs.core.jit import local_array, local_zeros, rules_jit
from ..constants import (
    ACTIONS_PER_TURN, CLASS_IDS, CLEAR_CAVE, CLEAR_MOUNTAINS, CLEAR_SWAMP, CLEARINGS_PER_TILE,
    CUBE_MAGIC, CW_HERO, HS_ACTIVE, HS_WAITING, HST_ALERT, HST_BLOCKED, HST_CAVE, HST_EVADED,
    HST_FLEW, HST_HIDDEN, HST_NOISE, HST_SNEAK, LINEAGE_IDS, MAX_HEROES, MAX_HIDDEN_PER_SIDE, NUM_CARDS,
    NUM_COLOURS, NUM_TARGETS, NUM_TILES, SB_EXPLORE, SB_LEGENDARY, ST_BATTLE, ST_TURNS, T_PENDING,
    T_BACKPACK, NUM_SPELLS, OPT_PVP, TW_PLACED, CW_SITE, DECK_DEEP, DECK_TREASURE, NUM_SITES, NUM_DIRECTIONS, NUM_WILD_TOKENS, TOK_PLACED,
)
from .base import (
    ARRIVE_NONE, ARRIVE_POSED, SEEN_ADVANCE,
    NUM_ACTIONS,
    SP_NATURES_HELP, SP_TRAIL_BLAZE, AIM_HERO, KIND_CARD_END, KIND_CARD_FIRST,
    PH_REROLL, ROLL_SEARCH, ROLL_LEARN, LEARN_FACE, A_CARD, A_CLEARING, A_DO, A_HEAL, A_MISSION, A_SEARCH, A_TARGET, A_TITLE, CIV_TILE_OF_PACK, CLEARING_TYPE, DO_ALERT, DO_LOOT, DO_TRADE,
    DO_DONE, DO_HIDE, DO_LONG_REST, DO_NOISE, DO_PASS, DO_QUICK_REST, DO_SHORT_REST, DO_SNEAK,
    DO_STAY, DO_UNHIDE, HEAL_HEART, HIDDEN, MONSTER_DIE_SYMBOL, PH_ACTION, PH_ALERT, PH_ALERT_TARGET, PH_BLOCK,
    PH_ENTER_PLACE, PH_GAINED, PH_HEAL, PH_HERO_BLOCK, A_SEAT, SEARCH_DIE_SPYGLASS, AIM_HERO, blocking_monsters, monsters_in, vapor, pose, roll,
    shuffle_first, shifted, shape_flies, A_TRADE_END,
    FREE_ALERT, FREE_ENCHANT, FREE_LEARN, FREE_LOOT, FREE_MOVE, FREE_REST, FREE_SEARCH, FREE_SNEAK, FREE_TRADE,
    A_ENCHANT, A_SPELL, CURSE_SLOTH, DIR_DQ, DIR_DR, A_EXPLORE, A_TURN, PH_EXPLORE_ENTER, PH_EXPLORE_TURN, A_SEARCH_SITE, CARD_DECK, CARD_KIND, SECRET_CACHE, SITE_LOOT, SITE_PACK, SITE_TRAP, SKELETON_KEY,
    HIDE_BLOCK, HIDE_REACTION, HIDE_CLEANUP, ROLL_HIDE, ROLL_TRAP, dust_roll,
)
from .equipment import cube_kinds, equip_card, kind_equipped, possesses, random_cube, target_legal, wound_cube
from .tokens import draw_card, gain_card, reveal_tile, take_cards_lying_here
from .realm import clearing_links, exits_from, explore_legal, gate_links, hidden_path_enchanted, tile_at
from .trade import loot_action, mask_loot_trade, trade_action
from .missions import discard_mission, end_turn_missions, mask_discard_missions, note_loot
from .fate import in_civilization, kill_hero
from .setup import put_tile
from .magic import curse_held, hero_has_spell, spell_on_target, end_enchant, end_learn, enchant_action, learn_action, learn_result, mask_enchant, mask_learn
from .treasures import (
    TAPER_OF_ILLUMINATION, THIEFS_LUCKY_COIN, dust_card, dust_waits, start_roll, arrive_instant, cloak_reroll, coin_usable, hero_flies, free_bits, garb_links, idolater, mask_use, search_rerolls, spend_free_actions, take_free,
    use_card,
)

DWARF = LINEAGE_IDS.index("dwarf")
"""The Dwarf loses no action to caves (Caver, L1198)."""
HALFLING = LINEAGE_IDS.index("halfling")
"""The Halfling rerolls one Monster Die per hide attempt (Stealthy, L1202)."""
TILE_FLIGHT = 2
"""Move Actions a flight into an adjacent Map Tile takes (L1096)."""
HUMAN = LINEAGE_IDS.index("human")
"""The Human has one more action in a turn at a Civilization Location (Adapted, L1204)."""
CIV_NONE, CIV_EARNED, CIV_TAKEN = 0, 1, 2
"""``civ_action`` of a hero: the Human's extra action not earned this turn;
earned before his first action (it comes off ``actions_used`` once he has
spent one); taken, or forfeited by a Pass or a block."""
KNIGHT = CLASS_IDS.index("knight")
BARBARIAN = CLASS_IDS.index("barbarian")
"""The Barbarian rerolls one die of a search in a Mountain Clearing (L1210)."""
"""The Knight rests one Action Cube for each Rest Action (Health, L1222)."""


# ================================================================ turn start and the hero order (L443-L449)
MAX_LINKS = 16 + 2 * NUM_WILD_TOKENS
"""At most this many clearings one clearing links to (its paths, Hidden Paths, Gates, the
Wilderness Tokens' ways): the size of ``move_links``' lists."""

@rules_jit
def start_turn(S, b):
    """L445: every hero's statuses are cleared and it is unblocked (an
    evader's duty to move first stays: it is last turn's, L481); L449: the
    Targeting Tokens are drawn at random for the order of the active heroes."""
    s = S[b]
    n = int(s['num_players'])
    s['turn'] += 1
    for p in range(MAX_HEROES):
        s['hero_status'][p] = s['hero_status'][p] & HST_EVADED
        s['actions_used'][p] = 0
        s['free_used'][p] = 0
        s['turn_powers'][p] = 0
        s['civ_action'][p] = CIV_NONE
        s['search_target'][p] = -1
        s['turn_order'][p] = p if p < n else -1
    shuffle_first(S, b, s['turn_order'], n)
    s['order_pos'] = 0
    end_learn(S, b)
    end_enchant(S, b)
    s['block_due'] = 0
    s['pvp_block'] = 0
    s['stage'] = ST_TURNS


@rules_jit
def explore_map(S, b):
    """True where the map is built during play (Explore the Realm, or the
    Legendary sandbox on its rules, L125, L153)."""
    s = S[b]
    return s['sandbox'] == SB_EXPLORE or (s['sandbox'] == SB_LEGENDARY and s['legendary_map'] == SB_EXPLORE)


@rules_jit
def action_phase(S, b):
    """L451: each hero in the drawn order takes its actions; then the battle
    phase (L613). True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    while s['order_pos'] < n:
        p = int(s['turn_order'][s['order_pos']])
        state = int(s['hero_state'][p])
        if state == HS_WAITING and explore_map(S, b):
            return pose(S, b, PH_ENTER_PLACE, p)               # L133
        if state == HS_ACTIVE or state == HS_WAITING:
            if state == HS_ACTIVE:
                cave_at_turn_start(S, b, p)
                civilization_action(S, b, p)
                if settle_gained(S, b, p):                     # L972: equip or stow it at once
                    return True
                if s['block_due']:
                    s['block_due'] = 0
                    if s['optional_rules'] & OPT_PVP:
                        s['pvp_block'] = 1                     # L1176: the heroes here may block him next
                    if block_threat(S, b, p):
                        if s['hero_status'][p] & HST_FLEW:     # L1097: flown in among them, no Hide
                            block_hero(S, b, p)
                        else:
                            return pose(S, b, PH_BLOCK, p)
                if s['pvp_block'] > 0 and hero_block_offer(S, b, p):
                    return True
            if actions_left(S, b, p) > 0 or free_bits(S, b, p) != 0:   # Pass is always open (L612)
                return pose(S, b, PH_ACTION, p)
        if end_turn_missions(S, b, p):                          # L564: two missions kept, Merchants refilled
            return True
        s['order_pos'] += 1
        s['pvp_block'] = 0
        end_learn(S, b)                                        # runs of actions are one hero's, in one turn
        end_enchant(S, b)
    s['stage'] = ST_BATTLE
    return False


@rules_jit
def settle_gained(S, b, p):
    """Hero p gained cards (L972): an instantaneous treasure acts first
    (L962; a Cursed Treasure's curse may wait on his Dust of Destiny, the
    stage then running this again: SEEN_ADVANCE); then he equips or stows
    the next one (PH_GAINED). True if posed."""
    c = pending_card(S, b, p)
    while c >= 0:
        arrived = arrive_instant(S, b, p, c, SEEN_ADVANCE)
        if arrived == ARRIVE_POSED:
            return True
        if arrived == ARRIVE_NONE:
            break
        c = pending_card(S, b, p)
    if c >= 0:
        return pose(S, b, PH_GAINED, p)
    return False


@rules_jit
def spell_arrivals(S, b):
    """L485: a hero a spell moved into a clearing during combat gets what
    entering gives -- a new tile's tokens, and the face-up cards lying there
    (L960) -- once all combat of the turn is over; cards so gained are then
    equipped or stowed (PH_GAINED). True if posed."""
    s = S[b]
    for p in range(MAX_HEROES):
        if (s['spell_moved'] >> p) & 1:
            s['spell_moved'] = s['spell_moved'] & np.uint8(0xFF ^ (1 << p))
            c = int(s['hero_clearing'][p])
            if s['hero_state'][p] == HS_ACTIVE and c >= 0:
                reveal_tile(S, b, p, c // CLEARINGS_PER_TILE)
                take_cards_lying_here(S, b, p, c)
        if s['hero_state'][p] == HS_ACTIVE and settle_gained(S, b, p):
            return True
    return False


@rules_jit
def block_threat(S, b, p):
    """L457: monsters in its clearing block the active hero, unless it is
    hidden (or already blocked); vapor neither blocks nor is blocked (L1536)."""
    s = S[b]
    return (s['hero_status'][p] & (HST_HIDDEN | HST_BLOCKED)) == 0 and not vapor(S, b, AIM_HERO + p) and \
        blocking_monsters(S, b, int(s['hero_clearing'][p])) > 0


@rules_jit
def block_hero(S, b, p):
    """L459: a blocked hero is unhidden and loses its remaining actions and
    reactions for the turn."""
    s = S[b]
    s['hero_status'][p] = (s['hero_status'][p] | HST_BLOCKED) & np.uint8(0xFF ^ (HST_HIDDEN | HST_FLEW))
    s['actions_used'][p] = ACTIONS_PER_TURN
    s['civ_action'][p] = CIV_TAKEN                               # the Human's extra one too (L1204)
    spend_free_actions(S, b, p)                                  # and a Symbol's (L1432-L1448)


# ================================================================ Player vs. Player: the Hero Block (optional, L1176-L1180)
PVP_BLOCKING = 100
"""``pvp_block`` while the active hero blocks heroes of his clearing: he is
offered PH_HERO_BLOCK again for one more (L1180 "any number")."""


@rules_jit
def hero_may_block(S, b, q, t):
    """Player vs. Player (L1176-L1180): hero q may block hero t -- both on
    the map in one clearing, q not blocked (a blocked hero has no reaction
    left, L459) unless he is the active hero blocking one more (L1180 "any
    number"), t unhidden and unblocked; vapor neither blocks nor is blocked
    (L1536)."""
    s = S[b]
    if (s['optional_rules'] & OPT_PVP) == 0 or q == t or q < 0 or t < 0:
        return False
    if s['hero_state'][q] != HS_ACTIVE or s['hero_state'][t] != HS_ACTIVE:
        return False
    c = int(s['hero_clearing'][q])
    more = s['pvp_block'] == PVP_BLOCKING and s['order_pos'] < MAX_HEROES and s['turn_order'][s['order_pos']] == q
    return c >= 0 and s['hero_clearing'][t] == c and (more or (s['hero_status'][q] & HST_BLOCKED) == 0) \
        and (s['hero_status'][t] & (HST_HIDDEN | HST_BLOCKED)) == 0 \
        and not vapor(S, b, AIM_HERO + q) and not vapor(S, b, AIM_HERO + t)


@rules_jit
def any_hero_block(S, b, q):
    for t in range(MAX_HEROES):
        if hero_may_block(S, b, q, t):
            return True
    return False


@rules_jit
def hero_block_offer(S, b, p):
    """After an action of the active hero p (L1176), each other hero of his
    clearing in Turn Order may block him (PH_HERO_BLOCK); while p himself
    blocks (PVP_BLOCKING) he may block one more hero. True if posed."""
    s = S[b]
    n = int(s['num_players'])
    if s['pvp_block'] == PVP_BLOCKING:
        if any_hero_block(S, b, p):
            return pose(S, b, PH_HERO_BLOCK, p)
        s['pvp_block'] = 0
        return False
    while s['pvp_block'] > 0:
        i = int(s['pvp_block']) - 1
        if i >= n:
            s['pvp_block'] = 0
            return False
        s['pvp_block'] += 1
        q = int(s['turn_order'][i])
        if q >= 0 and q != p and hero_may_block(S, b, q, p):
            return pose(S, b, PH_HERO_BLOCK, q)
    return False


@rules_jit
def mask_hero_block(S, b, q, mask):
    """Legal actions of PH_HERO_BLOCK: A_SEAT + t to block hero t (the
    active hero, or while the active hero blocks, any hero he may block);
    A_DO + DO_PASS."""
    s = S[b]
    if s['pvp_block'] == PVP_BLOCKING:
        for t in range(MAX_HEROES):
            if hero_may_block(S, b, q, t):
                mask[A_SEAT + t] = 1
    else:
        t = int(s['turn_order'][s['order_pos']])
        if hero_may_block(S, b, q, t):
            mask[A_SEAT + t] = 1
    mask[A_DO + DO_PASS] = 1


@rules_jit
def hero_blocks(S, b, q, t):
    """Hero q blocks hero t (L1180): q becomes unhidden and blocked; t may
    take the Hide reaction to avoid the block (PH_BLOCK, as against Monsters,
    L459). Posed (True)."""
    block_hero(S, b, q)
    return pose(S, b, PH_BLOCK, t)


@rules_jit
def act_hero_block(S, b, q, a):
    """PH_HERO_BLOCK: block that hero, or not (the active hero blocking
    others then stops)."""
    s = S[b]
    if a == A_DO + DO_PASS:
        if s['pvp_block'] == PVP_BLOCKING:
            s['pvp_block'] = 0
        return False
    return hero_blocks(S, b, q, a - A_SEAT)


@rules_jit
def mask_block(S, b, p, mask):
    """Legal actions of PH_BLOCK: A_DO + DO_HIDE (the Hide reaction, L599) or
    A_DO + DO_STAY (accept the block)."""
    mask[A_DO + DO_HIDE] = 1
    mask[A_DO + DO_STAY] = 1


@rules_jit
def act_block(S, b, p, a):
    """PH_BLOCK: a hero that hides is not blocked (L459, L605); one that fails
    or does not try is (his failed hide may wait on his Dust of Destiny,
    ``hide_attempt``). True if a decision is posed."""
    if a == A_DO + DO_HIDE:
        return hide_attempt(S, b, p, True, HIDE_BLOCK)
    block_hero(S, b, p)
    return False


@rules_jit
def cave_at_turn_start(S, b, p):
    """L455: a hero beginning its turn in a Cave Clearing loses one action
    (once: entering another cave this turn loses no more, Interpretations)."""
    s = S[b]
    c = int(s['hero_clearing'][p])
    if (s['hero_status'][p] & HST_CAVE) == 0 and s['actions_used'][p] == 0 and is_cave(S, b, c) \
            and not spared_caves(S, b, p):
        s['hero_status'][p] = s['hero_status'][p] | HST_CAVE
        s['actions_used'][p] += 1


@rules_jit
def spared_caves(S, b, p):
    """Hero p loses no action to Cave Clearings: a Dwarf (Caver, L1198) or a
    hero with the Taper of Illumination equipped (L1452)."""
    return S[b]['hero_lineage'][p] == DWARF or kind_equipped(S, b, p, TAPER_OF_ILLUMINATION) > 0


@rules_jit
def is_cave(S, b, c):
    s = S[b]
    t = c // CLEARINGS_PER_TILE
    return CLEARING_TYPE[t, int(s['tile_side'][t]), c % CLEARINGS_PER_TILE] == CLEAR_CAVE


@rules_jit
def actions_left(S, b, p):
    """Actions the hero may still take this turn (L451), the Human's extra
    one included while it waits for his first action (L1204), one fewer
    under the Sloth curse."""
    s = S[b]
    slow = 1 if curse_held(S, b, p, CURSE_SLOTH) else 0           # the Sloth curse (data/curses.txt)
    return ACTIONS_PER_TURN - slow - int(s['actions_used'][p]) + (1 if s['civ_action'][p] == CIV_EARNED else 0)


@rules_jit
def action_budget(S, b, p, f):
    """Actions hero p may spend on one action of kind f (FREE_*): those left,
    and one more while a Symbol makes an action of that kind free this turn
    (L1432-L1448)."""
    return actions_left(S, b, p) + ((free_bits(S, b, p) >> f) & 1)


@rules_jit
def civilization_action(S, b, p):
    """L1204 (Interpretations, "Human"): a Human who begins his turn at, or
    enters, a Civilization Location receives one additional free action that
    turn, once. It is given by taking one off the actions he has spent (so a
    turn still spends at most ACTIONS_PER_TURN); earned before his first
    action, it waits (CIV_EARNED) until he has spent one. Checked, like the
    cave rule, whenever the action phase comes back to him."""
    s = S[b]
    if s['hero_lineage'][p] != HUMAN:
        return
    if s['civ_action'][p] == CIV_NONE and in_civilization(S, b, p):
        s['civ_action'][p] = CIV_EARNED
    if s['civ_action'][p] == CIV_EARNED and s['actions_used'][p] > 0:
        s['actions_used'][p] -= 1
        s['civ_action'][p] = CIV_TAKEN


# ================================================================ Move (L473-L483) and entering the map (L113, L133)
@rules_jit
def move_cost(S, b, p, c):
    """Actions a Move into clearing c costs hero p: one, plus one into a
    Mountain or Swamp Clearing (L477) unless Trail Blaze is on him (L1544),
    plus the action a Cave Clearing takes unless that is already lost this
    turn or the hero is a Dwarf (L455, L1198; Trail Blaze does not spare it,
    Interpretations)."""
    s = S[b]
    t = c // CLEARINGS_PER_TILE
    kind = CLEARING_TYPE[t, int(s['tile_side'][t]), c % CLEARINGS_PER_TILE]
    cost = 1
    if (kind == CLEAR_MOUNTAINS or kind == CLEAR_SWAMP) and not hero_has_spell(S, b, p, SP_TRAIL_BLAZE):
        cost += 1
    if kind == CLEAR_CAVE and (s['hero_status'][p] & HST_CAVE) == 0 and not spared_caves(S, b, p):
        cost += 1
    return cost


@rules_jit
def move_allowed(S, b, p, c, left):
    """A Move into clearing c is affordable with ``left`` actions, and, into a
    Cave Clearing, is not the turn's last action (L455: "may not use a 4th
    action to enter a Cave Clearing"; a Dwarf, who loses nothing to caves,
    may, L1198)."""
    if move_cost(S, b, p, c) > left:
        return False
    if is_cave(S, b, c) and not spared_caves(S, b, p) and left < 2:
        return False
    return True


@rules_jit
def move_targets(S, b, p, out):
    """Clearings hero p may Move into now, into ``out``; returns the count.
    On the map: along a path from its clearing (L475). Not yet on the map
    (Open Realm): any clearing a path leads into from off the map's edge
    (L113). A move must be affordable with the actions left (``move_allowed``)."""
    s = S[b]
    left = action_budget(S, b, p, FREE_MOVE)
    tmp = local_array(MAX_LINKS, np.int64)
    n = 0
    if s['hero_state'][p] == HS_WAITING:
        dirs = local_array(6, np.int64)
        for t in range(NUM_TILES):
            if s['tile_where'][t] != TW_PLACED:
                continue
            for k in range(CLEARINGS_PER_TILE):
                c = t * CLEARINGS_PER_TILE + k
                if CLEARING_TYPE[t, int(s['tile_side'][t]), k] >= 0 and exits_from(S, b, c, dirs) > 0 \
                        and move_allowed(S, b, p, c, left):
                    out[n] = c
                    n += 1
        return n
    fly = local_array(MAX_LINKS, np.int64)
    m, f = move_links(S, b, p, tmp, fly)
    for i in range(m + f):
        c = int(tmp[i]) if i < m else int(fly[i - m])
        if move_allowed(S, b, p, c, left):
            dup = False
            for j in range(n):
                if out[j] == c:
                    dup = True
            if not dup:
                out[n] = c
                n += 1
    return n


@rules_jit
def move_links(S, b, p, walk, fly):
    """The clearings an on-map hero p could walk into (``walk``: along a
    path, a Hidden Path he found, from Gate to Gate, by the Garb of the Gate;
    L475-L479, L515, L1344) and could reach only by flying (``fly``: out of a
    Cave Clearing, the other non-Cave Clearings of his tile, L1095; a flight
    along a path is a walk's equal, below) -- the costs aside. Returns
    (walks, flights)."""
    here = int(S[b]['hero_clearing'][p])
    m = clearing_links(S, b, here, walk)
    m = found_hidden_links(S, b, p, here, walk, m)
    f = 0
    if hero_flies(S, b, p):
        if not is_cave(S, b, here):
            t = here // CLEARINGS_PER_TILE
            for k in range(CLEARINGS_PER_TILE):
                c = t * CLEARINGS_PER_TILE + k
                if c != here and CLEARING_TYPE[t, int(S[b]['tile_side'][t]), k] >= 0 and not is_cave(S, b, c):
                    fly[f] = c
                    f += 1
    m = gate_links(S, b, here, walk, m)                          # L479
    m = garb_links(S, b, p, here, walk, m)                       # L1344
    return m, f


@rules_jit
def move_action(S, b, p, c):
    """A Move Action into clearing c (L473-L483): walked where a path (a
    Gate, ...) leads there, else flown (L1095). A flight costs what a Move
    into that clearing costs ("one Move Action", with its Mountain or Swamp
    extra, L477), so where he may walk the flyer walks, keeping his Hide
    reaction (Interpretations, "Flying"); but a hero Shape Shifted into a
    flying Monster "must fly" (L1093): every Move of his is a flight, along
    the path too (L1095), and he has no Hide reaction against the Monsters
    he flies in among (L1097)."""
    s = S[b]
    if s['hero_state'][p] != HS_ACTIVE:
        move_hero(S, b, p, c)
        return
    if not shape_flies(S, b, p):
        walk = local_array(MAX_LINKS, np.int64)
        fly = local_array(MAX_LINKS, np.int64)
        m, f = move_links(S, b, p, walk, fly)
        for i in range(m):
            if walk[i] == c:
                move_hero(S, b, p, c)
                return
    fly_hero(S, b, p, c, move_cost(S, b, p, c))


@rules_jit
def fly_hero(S, b, p, c, cost):
    """Hero p flies into clearing c for ``cost`` actions (L1095, L1096);
    entering a clearing that holds Monsters so, he may not Hide against
    their block (L1097)."""
    s = S[b]
    if monsters_in(S, b, c) > 0:
        s['hero_status'][p] = s['hero_status'][p] | HST_FLEW
    enter_clearing(S, b, p, c, cost)


@rules_jit
def tile_flight(S, b, p, d):
    """L1096: the tile beside hero p's in direction d that he may fly into
    now -- he flies, the tile has a non-Cave Clearing, and he can pay two
    Move Actions into whichever of them is drawn; -1 otherwise."""
    s = S[b]
    if s['hero_state'][p] != HS_ACTIVE or not hero_flies(S, b, p):
        return -1
    t = int(s['hero_clearing'][p]) // CLEARINGS_PER_TILE
    u = tile_at(S, b, s['tile_q'][t] + DIR_DQ[d], s['tile_r'][t] + DIR_DR[d])
    extra = landing_extra(S, b, p, u) if u >= 0 else -1
    if extra < 0 or action_budget(S, b, p, FREE_MOVE) < TILE_FLIGHT + extra:
        return -1
    return u


@rules_jit
def landing_extra(S, b, p, u):
    """The most a landing in a non-Cave Clearing of tile u adds to a flight
    (a Mountain or Swamp Clearing's extra action, L477); -1 if the tile has
    no non-Cave Clearing."""
    s = S[b]
    extra = -1
    for k in range(CLEARINGS_PER_TILE):
        c = u * CLEARINGS_PER_TILE + k
        if CLEARING_TYPE[u, int(s['tile_side'][u]), k] >= 0 and not is_cave(S, b, c):
            extra = max(extra, move_cost(S, b, p, c) - 1)
    return extra


@rules_jit
def fly_to_tile(S, b, p, u, cost):
    """L1096: the flyer lands in a non-Cave Clearing of tile u chosen at
    random, for ``cost`` actions (two Move Actions, the clearing's Mountain
    or Swamp extra besides, L477)."""
    c = draw_clearing(S, b, u, False)
    fly_hero(S, b, p, c, cost + move_cost(S, b, p, c) - 1)


@rules_jit
def draw_clearing(S, b, u, caves):
    """A clearing of tile u drawn at random (``caves``: Cave Clearings among
    them; else none; a flight's landing, L1096, a Teleport's, L1522); -1 if
    there is none to draw."""
    s = S[b]
    n = 0
    for k in range(CLEARINGS_PER_TILE):
        if CLEARING_TYPE[u, int(s['tile_side'][u]), k] >= 0 and (caves or not is_cave(S, b, u * CLEARINGS_PER_TILE + k)):
            n += 1
    if n == 0:
        return -1
    pick = roll(S, b, n)
    for k in range(CLEARINGS_PER_TILE):
        c = u * CLEARINGS_PER_TILE + k
        if CLEARING_TYPE[u, int(s['tile_side'][u]), k] >= 0 and (caves or not is_cave(S, b, c)):
            if pick == 0:
                return c
            pick -= 1
    return -1


@rules_jit
def hidden_index(S, b, t, h):
    """Index of Hidden Path h of tile t's side up in ``hidden_found``."""
    return (t * 2 + int(S[b]['tile_side'][t])) * MAX_HIDDEN_PER_SIDE + h


@rules_jit
def found_hidden_links(S, b, p, c, out, n):
    """Append to ``out[:n]`` the clearings joined to c by Hidden Paths hero p
    has discovered (L515: used as regular paths) -- every one while he is
    vapor, found or not (L1536), and those of the tile's enchantment colour
    under Enchanted Paths (L1156); returns the new count."""
    s = S[b]
    every = vapor(S, b, AIM_HERO + p)
    t = c // CLEARINGS_PER_TILE
    k = c % CLEARINGS_PER_TILE
    side = int(s['tile_side'][t])
    for h in range(MAX_HIDDEN_PER_SIDE):
        a = int(HIDDEN[t, side, h, 0])
        z = int(HIDDEN[t, side, h, 1])
        if a < 0 or not (every or s['hidden_found'][p, hidden_index(S, b, t, h)] or hidden_path_enchanted(S, b, t, h)):
            continue
        if a == k:
            out[n] = t * CLEARINGS_PER_TILE + z
            n += 1
        elif z == k:
            out[n] = t * CLEARINGS_PER_TILE + a
            n += 1
    return n


@rules_jit
def move_hero(S, b, p, c):
    """Move hero p into clearing c on foot, paying the move's actions (L477, L455)."""
    enter_clearing(S, b, p, c, move_cost(S, b, p, c))


@rules_jit
def enter_clearing(S, b, p, c, cost):
    """Hero p enters clearing c for ``cost`` actions (a Move, a flight); a
    hidden hero that moves is no longer hidden (L475)."""
    s = S[b]
    if is_cave(S, b, c) and not spared_caves(S, b, p):
        s['hero_status'][p] = s['hero_status'][p] | HST_CAVE
    s['actions_used'][p] += cost
    s['hero_clearing'][p] = c
    s['hero_state'][p] = HS_ACTIVE
    s['hero_status'][p] = s['hero_status'][p] & np.uint8(0xFF ^ (HST_EVADED | HST_HIDDEN))
    reveal_tile(S, b, p, c // CLEARINGS_PER_TILE)                # L485: a new tile gets its tokens
    take_cards_lying_here(S, b, p, c)                            # L960


@rules_jit
def mask_enter_place(S, b, p, mask):
    """Legal actions of PH_ENTER_PLACE: A_CLEARING + c for each clearing of
    the civilization tile in the centre (L133)."""
    s = S[b]
    for k in range(3):
        if s['packs'] & (1 << k):
            t = int(CIV_TILE_OF_PACK[k])
            if s['tile_where'][t] == TW_PLACED and s['tile_q'][t] == 0 and s['tile_r'][t] == 0:
                for j in range(CLEARINGS_PER_TILE):
                    if CLEARING_TYPE[t, int(s['tile_side'][t]), j] >= 0:
                        mask[A_CLEARING + t * CLEARINGS_PER_TILE + j] = 1


@rules_jit
def act_enter_place(S, b, p, a):
    """PH_ENTER_PLACE: the hero starts in that clearing, then takes its turn
    normally (L133); placing it is not an action, and a hero starting its
    turn in a cave loses an action there (L455)."""
    s = S[b]
    s['hero_clearing'][p] = a - A_CLEARING
    s['hero_state'][p] = HS_ACTIVE
    reveal_tile(S, b, p, (a - A_CLEARING) // CLEARINGS_PER_TILE)
    take_cards_lying_here(S, b, p, a - A_CLEARING)               # L960
    return False


# ================================================================ the actions (L461-L612)
@rules_jit
def mask_action(S, b, p, mask):
    """Legal actions of PH_ACTION (``mask_action_all``), only those a Shape
    Shifted hero may take while he is (``mask_shape_action``, L1566)."""
    mask_action_all(S, b, p, mask)
    if shifted(S, b, p) and not vapor(S, b, AIM_HERO + p):
        mask_shape_action(S, b, p, mask)


@rules_jit
def mask_action_all(S, b, p, mask):
    """Legal actions of PH_ACTION: A_CLEARING + c to Move there (or enter the
    map there); A_DO + DO_*: Sneak or Make Noise (not both in one turn, L469),
    a rest the actions left can pay for with a wounded cube to heal (L550),
    Pass (L612); A_CARD + c to use a one-time card, which is no action (L916).
    A hero that evaded last turn must first move (L481). With no action left
    but a Symbol's free one, only actions of that kind (L1432-L1448); with the
    Mirror of Idolatry, no Sneak or Alert (L1370). With Player vs. Player,
    A_SEAT + t: block hero t of his clearing (L1180, a reaction)."""
    s = S[b]
    mask_discard_missions(S, b, p, mask)                         # L1071: at any time in his turn, no action
    for t in range(MAX_HEROES):
        if hero_may_block(S, b, p, t):
            mask[A_SEAT + t] = 1                                 # L1180: block a hero here, acted or not
    if vapor(S, b, AIM_HERO + p):
        mask_vapor_action(S, b, p, mask)
        return
    mask_use(S, b, p, mask)
    out = local_array(32, np.int64)
    n = move_targets(S, b, p, out)
    for i in range(n):
        mask[A_CLEARING + out[i]] = 1
    if s['hero_state'][p] == HS_WAITING or (s['hero_status'][p] & HST_EVADED and n > 0):
        e = int(s['evade_to'][p])
        if s['hero_status'][p] & HST_EVADED and e >= 0 and mask[A_CLEARING + e]:
            for i in range(n):                                   # L481, L703: along the path evaded by
                mask[A_CLEARING + out[i]] = 0
            mask[A_CLEARING + e] = 1
        if n == 0:
            mask[A_DO + DO_PASS] = 1
        return
    mask[A_DO + DO_PASS] = 1
    left = actions_left(S, b, p)
    free = free_bits(S, b, p)
    idol = idolater(S, b, p)
    if (left > 0 or (free >> FREE_ALERT) & 1) and not idol:
        mask[A_DO + DO_ALERT] = 1
    st = s['hero_status'][p]
    if st & HST_HIDDEN:                                          # L886: unhide at will, no action spent
        mask[A_DO + DO_UNHIDE] = 1
    if (st & HST_NOISE) == 0 and (left > 0 or (free >> FREE_SNEAK) & 1) and not idol:
        mask[A_DO + DO_SNEAK] = 1
    if (st & HST_SNEAK) == 0 and left > 0:
        mask[A_DO + DO_NOISE] = 1
    c = int(s['hero_clearing'][p])
    t = c // CLEARINGS_PER_TILE
    if left > 0 or (free >> FREE_SEARCH) & 1:
        for h in range(MAX_HIDDEN_PER_SIDE):                     # L507: a Hidden Path from this clearing
            a = int(HIDDEN[t, int(s['tile_side'][t]), h, 0])
            z = int(HIDDEN[t, int(s['tile_side'][t]), h, 1])
            if a >= 0 and (a == c % CLEARINGS_PER_TILE or z == c % CLEARINGS_PER_TILE) \
                    and not s['hidden_found'][p, hidden_index(S, b, t, h)]:
                mask[A_SEARCH + h] = 1
        for site in range(s['site_clearing'].shape[0]):          # L508: a Treasure Site (or a body, L805) in this clearing
            if s['site_clearing'][site] == c and not s['site_found'][p, site]:
                mask[A_SEARCH_SITE + site] = 1
    mask_loot_trade(S, b, p, mask)                               # L522-L568
    if left <= 0:
        mask[A_DO + DO_LOOT] = mask[A_DO + DO_LOOT] & ((free >> FREE_LOOT) & 1)
        mask[A_DO + DO_TRADE] = mask[A_DO + DO_TRADE] & ((free >> FREE_TRADE) & 1)
    if mask[A_DO + DO_LOOT]:                                     # L1454: the Lucky Coin, for a Loot Action
        for c in range(KIND_CARD_FIRST[THIEFS_LUCKY_COIN], KIND_CARD_END[THIEFS_LUCKY_COIN]):
            if coin_usable(S, b, p, c):
                mask[A_CARD + c] = 1
    if left > 0 or (free >> FREE_LEARN) & 1:
        mask_learn(S, b, p, mask)                                # L536-L546
    mask_enchant(S, b, p, mask, left + ((free >> FREE_ENCHANT) & 1))   # L570-L575
    mask_explore(S, b, p, mask, left)
    if wounded_cubes(S, b, p) > 0:
        rest = left + ((free >> FREE_REST) & 1)
        if rest >= 2:
            mask[A_DO + DO_QUICK_REST] = 1
        if rest >= 3:
            mask[A_DO + DO_SHORT_REST] = 1
        if rest >= 4:
            mask[A_DO + DO_LONG_REST] = 1



@rules_jit
def mask_explore(S, b, p, mask, left):
    """A_EXPLORE + d: an Explore Action toward direction d (L583-L585, only
    with exploration, L145), or a flight into the tile that way (L1096)."""
    s = S[b]
    if explore_map(S, b) and s['stack_len'] > 0 and left > 0:
        for d in range(NUM_DIRECTIONS):
            if explore_toward_legal(S, b, p, d):
                mask[A_EXPLORE + d] = 1
    if hero_flies(S, b, p):                                      # asked once: the mask is on the hot path
        for d in range(NUM_DIRECTIONS):
            if tile_flight(S, b, p, d) >= 0:
                mask[A_EXPLORE + d] = 1


@rules_jit
def mask_shape_action(S, b, p, mask):
    """PH_ACTION for a Shape Shifted hero (L1566): only Sneak, Make Noise,
    Move (a flight for a flying Monster, L1093), Search and Loot, and Pass;
    no Action Cubes (no rest, no card used), no Trade, Learn, Enchant or
    Explore, no block (his possessions inactive). Unhiding, discarding a
    Mission Card and claiming a title are no actions (L886, L1071, L567).
    Built from the full mask, the rest cleared."""
    keep = local_zeros(NUM_ACTIONS, np.int8)
    for a in range(A_CLEARING, A_DO):
        keep[a] = mask[a]
    for a in range(A_SEARCH, A_TARGET):
        keep[a] = mask[a]
    for a in range(A_MISSION, A_TRADE_END):                      # a Mission Card discarded, a title claimed: no action
        keep[a] = mask[a]
    if hero_flies(S, b, p):
        for d in range(NUM_DIRECTIONS):
            if tile_flight(S, b, p, d) >= 0:
                keep[A_EXPLORE + d] = 1
    for do in (DO_PASS, DO_SNEAK, DO_NOISE, DO_LOOT, DO_UNHIDE):
        keep[A_DO + do] = mask[A_DO + do]
    for a in range(mask.shape[0]):
        mask[a] = keep[a]


@rules_jit
def mask_vapor_action(S, b, p, mask):
    """PH_ACTION for a vapor hero (L1536): only the Explore and Move Actions
    (his possessions, cubes and one-time cards unavailable), Pass, and
    unhiding, which is no action (L886). A hero that evaded last turn still
    moves first (L481)."""
    s = S[b]
    out = local_array(32, np.int64)
    n = move_targets(S, b, p, out)
    for i in range(n):
        mask[A_CLEARING + out[i]] = 1
    if s['hero_status'][p] & HST_EVADED and n > 0:               # L481, L703: along the path evaded by
        e = int(s['evade_to'][p])
        if e >= 0 and mask[A_CLEARING + e]:
            for i in range(n):
                mask[A_CLEARING + out[i]] = 0
            mask[A_CLEARING + e] = 1
        return
    mask[A_DO + DO_PASS] = 1
    if s['hero_status'][p] & HST_HIDDEN:
        mask[A_DO + DO_UNHIDE] = 1
    mask_explore(S, b, p, mask, actions_left(S, b, p))

@rules_jit
def free_kind(a):
    """The FREE_* kind of PH_ACTION's action a (the Symbols' actions,
    L1432-L1448); -1 for an action no Symbol frees."""
    if a >= A_SEARCH and a < A_TARGET:
        return FREE_SEARCH
    if a >= A_SPELL and a < A_SPELL + NUM_SPELLS:
        return FREE_LEARN
    if a >= A_ENCHANT and a < A_ENCHANT + NUM_COLOURS:
        return FREE_ENCHANT
    if a >= A_CLEARING and a < A_DO:
        return FREE_MOVE
    do = a - A_DO
    if do == DO_LOOT:
        return FREE_LOOT
    if do == DO_TRADE:
        return FREE_TRADE
    if do == DO_ALERT:
        return FREE_ALERT
    if do == DO_SNEAK:
        return FREE_SNEAK
    if do == DO_QUICK_REST or do == DO_SHORT_REST or do == DO_LONG_REST:
        return FREE_REST
    return -1


@rules_jit
def unhide(S, b, p):
    """L886: a hero may reveal itself at any time of the Action Phase; it is
    not an action (no action spent, no monster block for it)."""
    s = S[b]
    s['hero_status'][p] = s['hero_status'][p] & np.uint8(0xFF ^ HST_HIDDEN)
    s['block_due'] = 0
    return False


@rules_jit
def wounded_cubes(S, b, p):
    """Cubes (Hearts included) in p's wounded box (L384)."""
    s = S[b]
    n = int(s['hearts'][p, 1])
    for k in range(CUBE_MAGIC + NUM_COLOURS):
        n += int(s['cubes'][p, 1, k])
    return n


@rules_jit
def act_action(S, b, p, a):
    """PH_ACTION: carry out the hero's action."""
    s = S[b]
    if a >= A_SEAT and a < A_SEAT + MAX_HEROES:                  # L1180: the active hero's Hero Block, a reaction
        s['pvp_block'] = PVP_BLOCKING
        return hero_blocks(S, b, p, a - A_SEAT)
    if a >= A_CARD and a < A_EXPLORE:                            # L916: a one-time card; no action, no block check
        return use_card(S, b, p, a - A_CARD)
    if a >= A_MISSION and a < A_TITLE:                           # L1071: a Mission Card discarded; no action either
        discard_mission(S, b, p, a - A_MISSION)
        return False
    kind = free_kind(a)
    flight = tile_flight(S, b, p, a - A_EXPLORE) if a >= A_EXPLORE and a < A_EXPLORE + NUM_DIRECTIONS else -1
    if flight >= 0:
        kind = FREE_MOVE                                         # flying to a tile is two Move Actions (L1096)
    take_free(S, b, p, kind)                                     # L1432-L1448: a Symbol's action is not counted
    s['block_due'] = 1                                           # L457: checked at the end of the action
    s['hero_status'][p] = s['hero_status'][p] & np.uint8(0xFF ^ HST_FLEW)
    if a < A_SPELL and a != A_DO + DO_UNHIDE:                    # Learn and Enchant runs are broken (L546, L572)
        end_learn(S, b)
        end_enchant(S, b)
    if a >= A_SEARCH and a < A_SEARCH + MAX_HIDDEN_PER_SIDE:
        return search_hidden_path(S, b, p, a - A_SEARCH)
    if a >= A_SEARCH_SITE and a < A_TARGET:
        return search_site(S, b, p, a - A_SEARCH_SITE)
    s['search_target'][p] = -1                                   # L513: the searches are no longer consecutive
    if a >= A_SPELL and a < A_SPELL + NUM_SPELLS:                # L540
        end_enchant(S, b)
        learn_action(S, b, p, a - A_SPELL)
        return dust_learn(S, b, p, a - A_SPELL)
    if a >= A_ENCHANT and a < A_ENCHANT + NUM_COLOURS:           # L572
        end_learn(S, b)
        enchant_action(S, b, p, a - A_ENCHANT)
        return False
    if flight >= 0:
        fly_to_tile(S, b, p, flight, TILE_FLIGHT)
        return False
    if a >= A_EXPLORE and a < A_EXPLORE + NUM_DIRECTIONS:
        return explore_action(S, b, p, a - A_EXPLORE)
    if a >= A_CLEARING and a < A_DO:
        move_action(S, b, p, a - A_CLEARING)
        return False
    do = a - A_DO
    if do == DO_UNHIDE:
        return unhide(S, b, p)
    if do == DO_PASS:                                            # L612: the hero's action phase ends
        s['actions_used'][p] = ACTIONS_PER_TURN
        s['civ_action'][p] = CIV_TAKEN                           # the Human's extra action with it (L1204)
        spend_free_actions(S, b, p)                              # and the Symbols' (L1432-L1448)
        s['block_due'] = 0
        return False
    if do == DO_LOOT:                                            # L522-L534
        return loot_action(S, b, p)
    if do == DO_TRADE:                                           # L552-L568
        return trade_action(S, b, p)
    if do == DO_ALERT:                                           # L463: equip and unequip at will
        s['hero_status'][p] = s['hero_status'][p] | HST_ALERT
        s['alert_moves'] = 0
        s['actions_used'][p] += 1
        s['block_due'] = 0                                       # checked when the equipping is done
        return pose(S, b, PH_ALERT, p)
    if do == DO_SNEAK:                                           # L467
        s['hero_status'][p] = s['hero_status'][p] | HST_SNEAK
        s['actions_used'][p] += 1
        return False
    if do == DO_NOISE:                                           # L471: unhidden, and blocked where monsters are
        s['hero_status'][p] = (s['hero_status'][p] | HST_NOISE) & np.uint8(0xFF ^ HST_HIDDEN)
        s['actions_used'][p] += 1
        s['block_due'] = 0
        if blocking_monsters(S, b, int(s['hero_clearing'][p])) > 0:
            block_hero(S, b, p)
        return False
    # L550: a quick, short or long rest heals one, two or three cubes for two,
    # three or four actions; a Knight heals one cube per action (L1222)
    cost = do - DO_QUICK_REST + 2
    cubes = cost if s['hero_class'][p] == KNIGHT else cost - 1
    s['actions_used'][p] += cost
    s['heal_left'] = cubes
    s['block_due'] = 0                                           # checked once the rest is done
    return start_heal(S, b, p)


@rules_jit
def start_heal(S, b, p):
    """Pose the choice of the next cube a rest heals, while it has some to
    heal and the hero has wounded cubes; True if posed."""
    s = S[b]
    if s['heal_left'] > 0 and wounded_cubes(S, b, p) > 0:
        return pose(S, b, PH_HEAL, p)
    s['heal_left'] = 0
    s['block_due'] = 1                                           # the rest is over: L457
    return False


@rules_jit
def mask_heal(S, b, p, mask):
    """Legal actions of PH_HEAL: A_HEAL + kind for each kind of cube in the
    wounded box, A_HEAL + HEAL_HEART for a Heart (L550)."""
    s = S[b]
    for k in range(CUBE_MAGIC + NUM_COLOURS):
        if s['cubes'][p, 1, k] > 0:
            mask[A_HEAL + k] = 1
    if s['hearts'][p, 1] > 0:
        mask[A_HEAL + HEAL_HEART] = 1


@rules_jit
def act_heal(S, b, p, a):
    """PH_HEAL: move that cube from the wounded box to the healthy box."""
    s = S[b]
    k = a - A_HEAL
    if k == HEAL_HEART:
        s['hearts'][p, 1] -= 1
        s['hearts'][p, 0] += 1
    else:
        s['cubes'][p, 1, k] -= 1
        s['cubes'][p, 0, k] += 1
    s['heal_left'] -= 1
    return start_heal(S, b, p)


# ================================================================ Explore (L581-L585)
@rules_jit
def explore_toward_legal(S, b, p, d):
    """Hero p may Explore the empty position beside its tile in direction d:
    a path leads off the map that way from its clearing (L583), or it stands
    in a Mountain Clearing (Mountain Exploration, L585)."""
    s = S[b]
    c = int(s['hero_clearing'][p])
    t = c // CLEARINGS_PER_TILE
    if tile_at(S, b, s['tile_q'][t] + DIR_DQ[d], s['tile_r'][t] + DIR_DR[d]) >= 0:
        return False
    if is_mountain(S, b, c):
        return True
    dirs = local_array(6, np.int64)
    n = exits_from(S, b, c, dirs)
    for i in range(n):
        if dirs[i] == d:
            return True
    return False


@rules_jit
def is_mountain(S, b, c):
    s = S[b]
    t = c // CLEARINGS_PER_TILE
    return CLEARING_TYPE[t, int(s['tile_side'][t]), c % CLEARINGS_PER_TILE] == CLEAR_MOUNTAINS


@rules_jit
def explore_fit(S, b, p, side, rot):
    """The drawn tile may go to the explored position ``side`` up and turned
    ``rot``: along the path explored (L583), or, from a Mountain Clearing,
    connected to any path (L585) -- a hero in a Mountain Clearing with a
    path that way may use either rule."""
    s = S[b]
    t = int(s['explore_tile'])
    q = int(s['explore_q'])
    r = int(s['explore_r'])
    d = int(s['explore_toward'])
    if d >= 0 and explore_legal(S, b, t, side, rot, q, r, d):
        return True
    return is_mountain(S, b, int(s['hero_clearing'][p])) and explore_legal(S, b, t, side, rot, q, r, -1)


@rules_jit
def explore_action(S, b, p, d):
    """L583: the Explore Action: draw the bottom Map Tile of the stack and
    place it at the position explored, either side up, any turn, every edge
    matching; if it fits nowhere the action is forfeited and the tile goes
    back on top of the stack. True if the placement is posed."""
    s = S[b]
    s['actions_used'][p] += 1
    c = int(s['hero_clearing'][p])
    t0 = c // CLEARINGS_PER_TILE
    s['explore_q'] = s['tile_q'][t0] + DIR_DQ[d]
    s['explore_r'] = s['tile_r'][t0] + DIR_DR[d]
    dirs = local_array(6, np.int64)
    n = exits_from(S, b, c, dirs)
    s['explore_toward'] = -1
    for i in range(n):
        if dirs[i] == d:
            s['explore_toward'] = d
    m = int(s['stack_len'])
    s['explore_tile'] = s['tile_stack'][0]                       # the bottom tile (L583)
    for i in range(m - 1):
        s['tile_stack'][i] = s['tile_stack'][i + 1]
    s['tile_stack'][m - 1] = -1
    s['stack_len'] = m - 1
    for side in range(2):
        for rot in range(NUM_DIRECTIONS):
            if explore_fit(S, b, p, side, rot):
                return pose(S, b, PH_EXPLORE_TURN, p)
    s['tile_stack'][m - 1] = s['explore_tile']                   # forfeited: back on top
    s['stack_len'] = m
    s['explore_tile'] = -1
    return False


@rules_jit
def mask_explore_turn(S, b, p, mask):
    """Legal actions of PH_EXPLORE_TURN: A_TURN + side * 6 + rot for each way
    the drawn tile fits (L583)."""
    for side in range(2):
        for rot in range(NUM_DIRECTIONS):
            if explore_fit(S, b, p, side, rot):
                mask[A_TURN + side * NUM_DIRECTIONS + rot] = 1


@rules_jit
def act_explore_turn(S, b, p, a):
    """PH_EXPLORE_TURN: the tile is placed; then the hero may move into a
    clearing of it joined to its own (L583)."""
    s = S[b]
    k = a - A_TURN
    t = int(s['explore_tile'])
    put_tile(S, b, t, k // NUM_DIRECTIONS, k % NUM_DIRECTIONS, int(s['explore_q']), int(s['explore_r']))
    out = local_array(16, np.int64)
    if explore_entries(S, b, p, out) > 0 or explore_flight(S, b, p) >= 0:
        return pose(S, b, PH_EXPLORE_ENTER, p)
    s['explore_tile'] = -1
    return False


@rules_jit
def explore_entries(S, b, p, out):
    """Clearings of the explored tile joined by a path to p's clearing that
    the hero can pay the extra cost of (L583: only what a Mountain or Swamp
    Clearing, or a Cave Clearing's lost action, adds to the move)."""
    s = S[b]
    t = int(s['explore_tile'])
    tmp = local_array(16, np.int64)
    m = clearing_links(S, b, int(s['hero_clearing'][p]), tmp)
    n = 0
    for i in range(m):
        c = int(tmp[i])
        if c // CLEARINGS_PER_TILE == t and move_allowed(S, b, p, c, actions_left(S, b, p) + 1):
            out[n] = c
            n += 1
    return n


@rules_jit
def explore_flight(S, b, p):
    """L1093, L1096: after an Explore a flyer may fly into the new tile,
    which lies beside his: its Move Action was the flight's first, so one
    more action is due; the direction explored, or -1 if he may not."""
    s = S[b]
    t = int(s['explore_tile'])
    if t < 0 or not hero_flies(S, b, p):
        return -1
    extra = landing_extra(S, b, p, t)
    if extra < 0 or action_budget(S, b, p, FREE_MOVE) < TILE_FLIGHT - 1 + extra:
        return -1
    here = int(s['hero_clearing'][p]) // CLEARINGS_PER_TILE
    for d in range(NUM_DIRECTIONS):
        if s['tile_q'][here] + DIR_DQ[d] == s['tile_q'][t] and s['tile_r'][here] + DIR_DR[d] == s['tile_r'][t]:
            return d
    return -1


@rules_jit
def mask_explore_enter(S, b, p, mask):
    """Legal actions of PH_EXPLORE_ENTER: A_CLEARING + c to move into c, A_EXPLORE
    + d to fly into the tile explored that way (L1096), or A_DO + DO_STAY."""
    out = local_array(16, np.int64)
    n = explore_entries(S, b, p, out)
    for i in range(n):
        mask[A_CLEARING + out[i]] = 1
    d = explore_flight(S, b, p)
    if d >= 0:
        mask[A_EXPLORE + d] = 1
    mask[A_DO + DO_STAY] = 1


@rules_jit
def act_explore_enter(S, b, p, a):
    """PH_EXPLORE_ENTER: the move into the new tile costs only its extra
    (the Explore Action paid the move itself, L583)."""
    s = S[b]
    t = int(s['explore_tile'])
    if a >= A_EXPLORE and a < A_EXPLORE + NUM_DIRECTIONS:       # L1093, L1096: flown in
        take_free(S, b, p, FREE_MOVE)
        fly_to_tile(S, b, p, t, TILE_FLIGHT - 1)
    elif a != A_DO + DO_STAY:
        s['actions_used'][p] -= 1
        move_hero(S, b, p, a - A_CLEARING)
    s['explore_tile'] = -1
    return False


# ================================================================ the Hide reaction (L593-L605)
@rules_jit
def monster_die(S, b):
    """One Monster Die: 1 if it shows a Monster symbol (L244)."""
    return int(MONSTER_DIE_SYMBOL[roll(S, b, MONSTER_DIE_SYMBOL.shape[0])])


@rules_jit
def hide_dice(S, b, p, modifiers, out):
    """L597-L603: roll two Monster Dice into ``out`` (1: a Monster symbol); a
    Monster symbol on either fails, none gains the Hidden status. With
    ``modifiers`` (not during the Cleanup step, L767-L769): a hero that
    Sneaked this turn ignores one Monster symbol (L603); a Halfling rerolls
    one Monster Die (L1202) -- always the die showing a symbol when that alone
    fails the hide, the only reroll that can help. A failed hide is rolled
    again, all of it, by the Shadow Cloak once a turn (L1408). Returns the
    symbols ignored (0 or 1): the hide succeeds if the dice show no more."""
    s = S[b]
    ignore = 1 if modifiers and (s['hero_status'][p] & HST_SNEAK) else 0
    while True:
        first = monster_die(S, b)
        second = monster_die(S, b)
        if modifiers and s['hero_lineage'][p] == HALFLING and first + second - ignore > 0:
            if first:
                first = monster_die(S, b)
            else:
                second = monster_die(S, b)
        out[0] = first
        out[1] = second
        if first + second - ignore <= 0 or not cloak_reroll(S, b, p):
            return ignore


@rules_jit
def hide_roll(S, b, p, modifiers):
    """A Hide reaction rolled and applied at once (``hide_dice``). Returns
    True if the hero is now hidden."""
    out = local_array(2, np.int64)
    ignore = hide_dice(S, b, p, modifiers, out)
    hidden = out[0] + out[1] - ignore <= 0
    hide_result(S, b, p, HIDE_REACTION, hidden)
    return hidden


@rules_jit
def hide_attempt(S, b, p, modifiers, then):
    """Hero p's hide attempt (``hide_dice``); one that fails first waits on
    his Dust of Destiny (ROLL_HIDE, L1330: he rolls it), its failing die or
    dice, before it applies (``hide_result``; ``then``: HIDE_*). True if a
    decision is posed."""
    out = local_array(2, np.int64)
    ignore = hide_dice(S, b, p, modifiers, out)
    hidden = out[0] + out[1] - ignore <= 0
    if not hidden and dust_waits(S, b, ROLL_HIDE, MONSTER_DIE_SYMBOL.shape[0], ignore, then,
                                 int(out[0]), int(out[1]), p, -1):
        return True
    hide_result(S, b, p, then, hidden)
    return False


@rules_jit
def hide_result(S, b, p, then, hidden):
    """Hero p's hide attempt stands: ``hidden``, he gains the Hidden status
    (L605); failed, against a block he is blocked (``then`` HIDE_BLOCK,
    L459), in Cleanup he is unhidden for the rest of combat (HIDE_CLEANUP,
    L775); a failed Hide reaction (HIDE_REACTION) changes nothing."""
    s = S[b]
    if hidden:
        s['hero_status'][p] = s['hero_status'][p] | HST_HIDDEN
    elif then == HIDE_BLOCK:
        block_hero(S, b, p)
    elif then == HIDE_CLEANUP:
        s['hero_status'][p] = s['hero_status'][p] & np.uint8(0xFF ^ HST_HIDDEN)


@rules_jit
def mask_hide(S, b, p, mask):
    """Legal actions of PH_HIDE: A_DO + DO_HIDE (take the Hide reaction) or
    A_DO + DO_STAY (do not)."""
    mask[A_DO + DO_HIDE] = 1
    mask[A_DO + DO_STAY] = 1


@rules_jit
def act_hide(S, b, p, a):
    """PH_HIDE: roll to hide (``hide_attempt``), or not (L597). True if a
    decision is posed."""
    if a == A_DO + DO_HIDE:
        return hide_attempt(S, b, p, True, HIDE_REACTION)
    return False


# ================================================================ Search (L503-L516)
@rules_jit
def search_die(S, b):
    """One Search Die: 1 for a spyglass (L230)."""
    return int(SEARCH_DIE_SPYGLASS[roll(S, b, SEARCH_DIE_SPYGLASS.shape[0])])


@rules_jit
def search_roll(S, b, p, code):
    """A Search Action for target ``code`` (a Hidden Path h, or
    MAX_HIDDEN_PER_SIDE + a site): roll the two Search Dice, two spyglasses
    succeed (L511). Searching for the same target with consecutive Search
    Actions in a turn rerolls only the blank dice (L513). A Barbarian in a
    Mountain Clearing rerolls one die of each search (L1210): a blank one, the
    only reroll that can help; so does each equipped card that rerolls in such
    a clearing (Digger's Ruin, the Elven Amulet, Hamblen's Pendant, Hawkeye,
    L1326-L1356). Nature's Help on the hero rerolls every blank die of the
    first search of his turn that still fails (L1542; Interpretations).
    Returns True on success."""
    s = S[b]
    s['actions_used'][p] += 1
    c = int(s['hero_clearing'][p])
    t = c // CLEARINGS_PER_TILE
    for i in range(2):
        if s['search_target'][p] != code or s['search_dice'][p, i] == 0:
            s['search_dice'][p, i] = search_die(S, b)
    kind = int(CLEARING_TYPE[t, int(s['tile_side'][t]), c % CLEARINGS_PER_TILE])
    rerolls = search_rerolls(S, b, p, kind)
    if s['hero_class'][p] == BARBARIAN and kind == CLEAR_MOUNTAINS:
        rerolls += 1
    for _ in range(rerolls):
        for i in range(2):
            if s['search_dice'][p, i] == 0:
                s['search_dice'][p, i] = search_die(S, b)
                break
    helped = spell_on_target(S, b, SP_NATURES_HELP, AIM_HERO + p)
    if helped >= 0 and s['spell_mark'][helped] == 0 and not (s['search_dice'][p, 0] and s['search_dice'][p, 1]):
        s['spell_mark'][helped] = 1                              # L1542: its one Search Action
        for i in range(2):
            if s['search_dice'][p, i] == 0:
                s['search_dice'][p, i] = search_die(S, b)
    s['search_target'][p] = code
    if s['search_dice'][p, 0] and s['search_dice'][p, 1]:
        s['search_target'][p] = -1
        return True
    return False


@rules_jit
def search_hidden_path(S, b, p, h):
    """L515: a Hidden Path found is a path for the hero for the rest of the
    game. A search that fails waits on the Dust of Destiny (``dust_search``).
    True if a decision is posed."""
    if search_roll(S, b, p, h):
        return search_found(S, b, p, h)
    return dust_search(S, b, p, h)


@rules_jit
def search_site(S, b, p, site):
    """L508-L511: a search for a Treasure Site in the hero's clearing (see
    ``search_found``); one that fails waits on the Dust of Destiny. True if
    a decision is posed."""
    if search_roll(S, b, p, MAX_HIDDEN_PER_SIDE + site):
        return search_found(S, b, p, MAX_HIDDEN_PER_SIDE + site)
    return dust_search(S, b, p, MAX_HIDDEN_PER_SIDE + site)


@rules_jit
def dust_search(S, b, p, code):
    """A failed Search of hero p for ``code``, its dice shown, may be rerolled
    with his Dust of Destiny (L1330: he is the active Hero): its blank die or
    dice (PH_REROLL; a spyglass is never worth rolling again). True if
    asked."""
    s = S[b]
    if dust_card(S, b, p) < 0:
        return False
    start_roll(S, b, ROLL_SEARCH, 2, SEARCH_DIE_SPYGLASS.shape[0], code,
               int(s['search_dice'][p, 0]), int(s['search_dice'][p, 1]))
    s['roll_party'][0] = p
    return pose(S, b, PH_REROLL, p)


@rules_jit
def dust_learn(S, b, p, sp):
    """The Learn Dice of hero p's Learn Action for spell sp may be rerolled
    with his Dust of Destiny where they do not learn it (L1330; a book is
    never worth rolling again); then they apply. True if a decision is posed."""
    s = S[b]
    if dust_waits(S, b, ROLL_LEARN, LEARN_FACE.shape[0], sp, -1, int(s['learn_dice'][0]), int(s['learn_dice'][1]),
                  p, -1):
        return True
    return learn_result(S, b, p, sp)


@rules_jit
def search_found(S, b, p, code):
    """Hero p's search for ``code`` succeeded: a Hidden Path h (code <
    MAX_HIDDEN_PER_SIDE) is a path for him for the rest of the game (L515);
    a Treasure Site is found, the hero may loot it (L524); found for the
    first time, it opens (L517). True if a decision is posed (its trap's
    cube waiting on the Dust of Destiny)."""
    s = S[b]
    if code < MAX_HIDDEN_PER_SIDE:
        t = int(s['hero_clearing'][p]) // CLEARINGS_PER_TILE
        s['hidden_found'][p, hidden_index(S, b, t, code)] = 1
        return False
    site = code - MAX_HIDDEN_PER_SIDE
    s['site_found'][p, site] = 1
    if site >= NUM_SITES:                                    # L805: a body's finder takes its Gold
        s['site_opened'][site] = 1
        s['gold'][p] += s['site_gold'][site]
        s['site_gold'][site] = 0
    elif not s['site_opened'][site]:
        return open_site(S, b, p, site)
    return False


@rules_jit
def open_site(S, b, p, site):
    """L517-L520: the first hero to discover a Treasure Site gains 1 LP and
    5 Fame, and its Treasure Pile is drawn as its Terrain Setup Card lists,
    the Deep Treasure Cards on top of the Treasure Cards. The Secret Cache's
    first finder takes its Deep Treasure and Gold at once (L1244), and on side
    2 of the card wounds one random Action Cube unless it has the Skeleton
    Key (L1248, ``trap_springs``). True if a decision is posed."""
    s = S[b]
    s['site_opened'][site] = 1
    s['lp'][p] += 1
    s['fame'][p] += 5
    side = int(s['setup_side'][SITE_PACK[site]])
    place = 0
    for i in range(2):
        deck = DECK_DEEP if i == 0 else DECK_TREASURE
        for _ in range(int(SITE_LOOT[site, side, 1 - i])):
            c = draw_card(S, b, deck)
            if c >= 0:
                s['card_where'][c] = CW_SITE
                s['card_owner'][c] = site
                s['card_slot'][c] = place
                place += 1
    s['site_gold'][site] = SITE_LOOT[site, side, 2]
    if site == SECRET_CACHE:
        for c in range(NUM_CARDS):
            if s['card_where'][c] == CW_SITE and s['card_owner'][c] == site and CARD_DECK[c] == DECK_DEEP:
                gain_card(S, b, p, c)
        s['gold'][p] += s['site_gold'][site]
        s['site_gold'][site] = 0
        note_loot(S, b, p, site)                                 # L1244: as a successful Loot Action
        if SITE_TRAP[site, side] and not possesses(S, b, p, SKELETON_KEY):
            return trap_springs(S, b, p)
    return False


@rules_jit
def trap_springs(S, b, p):
    """L1248: the Hidden Trap wounds one random Action Cube of hero p; the
    cube drawn, where his healthy cubes are of several kinds, first waits on
    his Dust of Destiny (ROLL_TRAP, L1330: he is its target). True if a
    decision is posed."""
    k = random_cube(S, b, p)
    if k >= 0 and dust_roll(S, b, ROLL_TRAP, 1, cube_kinds(S, b, p), -1, -1, k, -1, p):
        return True
    trap_wounds(S, b, p, k)
    return False


@rules_jit
def trap_wounds(S, b, p, k):
    """The Hidden Trap's cube of kind k (``equipment.random_cube``; -1 none)
    is wounded; a hero left with no healthy Heart dies (L408)."""
    if k >= 0:
        wound_cube(S, b, p, k)
    if S[b]['hearts'][p, 0] == 0:
        kill_hero(S, b, p)


# ================================================================ Alert (L463-L465, L979)
@rules_jit
def movable(S, b, p, c):
    """p's card c may be moved somewhere else now."""
    s = S[b]
    if s['card_where'][c] != CW_HERO or s['card_owner'][c] != p:
        return False
    for t in range(NUM_TARGETS):
        if t != s['card_slot'][c] and target_legal(S, b, p, c, t):
            return True
    return False


@rules_jit
def mask_alert(S, b, p, mask):
    """Legal actions of PH_ALERT: A_CARD + c for each of the hero's cards
    that can be equipped elsewhere or unequipped; A_DO + DO_DONE ends the
    equipping. "At will" is bounded by as many moves as the hero has cards
    (Interpretations: any arrangement is reachable in that many)."""
    s = S[b]
    held = 0
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_HERO and s['card_owner'][c] == p:
            held += 1
    if s['alert_moves'] < held:
        for c in range(NUM_CARDS):
            if s['card_where'][c] == CW_HERO and s['card_owner'][c] == p and movable(S, b, p, c):
                mask[A_CARD + c] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_alert(S, b, p, a):
    """PH_ALERT: pick the card to move, or end the Alert Action (then the
    monster block is checked, L457)."""
    s = S[b]
    if a == A_DO + DO_DONE:
        s['block_due'] = 1
        return False
    s['sel_card'] = a - A_CARD
    return pose(S, b, PH_ALERT_TARGET, p)


@rules_jit
def mask_alert_target(S, b, p, mask):
    """Legal actions of PH_ALERT_TARGET: A_TARGET + t for each target other
    than its own where the chosen card may go (T_BACKPACK unequips it)."""
    s = S[b]
    c = int(s['sel_card'])
    for t in range(NUM_TARGETS):
        if t != s['card_slot'][c] and target_legal(S, b, p, c, t):
            mask[A_TARGET + t] = 1


@rules_jit
def act_alert_target(S, b, p, a):
    """PH_ALERT_TARGET: move the card (displaced cards go to the backpack)."""
    s = S[b]
    equip_card(S, b, p, int(s['sel_card']), a - A_TARGET)
    s['sel_card'] = -1
    s['alert_moves'] += 1
    return pose(S, b, PH_ALERT, p)


# ================================================================ a card gained (L972)
@rules_jit
def pending_card(S, b, p):
    """The lowest card hero p gained and has not yet equipped or stowed; -1."""
    s = S[b]
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_HERO and s['card_owner'][c] == p and s['card_slot'][c] == T_PENDING:
            return c
    return -1


@rules_jit
def mask_gained(S, b, p, mask):
    """Legal actions of PH_GAINED: A_TARGET + t for each position the card
    just gained may be equipped at, and T_BACKPACK to stow it (L972-L973)."""
    c = pending_card(S, b, p)
    if shifted(S, b, p):                         # L1566: gained while Shape Shifted, it goes to the backpack
        mask[A_TARGET + T_BACKPACK] = 1
        return
    for t in range(NUM_TARGETS):
        if target_legal(S, b, p, c, t):
            mask[A_TARGET + t] = 1


@rules_jit
def act_gained(S, b, p, a):
    """PH_GAINED: equip the card (unequipping what is there) or stow it."""
    equip_card(S, b, p, pending_card(S, b, p), a - A_TARGET)
    return False
