"""Set-up (L170-L208): the Terrain Setup Cards, the Map Tiles dealt and
placed (Open Realm, L105-L113) or stacked around a civilization tile (Explore
the Realm, L125-L133), Civilization Locations and their Natives (L189), and
hero selection (L193-L205).

The hero's starting spells (L203) are taken by the magic part.
"""
import numpy as np

from dragongym.envs.core.jit import local_array, local_zeros, rules_jit
from ..constants import (
    CLEARINGS_PER_TILE, CUBE_MAGIC, CW_DECK, HS_NONE, MON_TRAY, TOK_POOL, HS_WAITING, MAX_HEROES, NUM_CLASSES, NUM_COLOURS,
    NUM_DIRECTIONS, NUM_LINEAGES, NUM_PACKS, NUM_TILES, OPT_WITS, SB_LEGENDARY, SB_OPEN_REALM, ST_BUILD_REALM,
    ST_HEROES, ST_TURN_START, TILE_CIVILIZATION, TW_HAND, TW_OUT, TW_PLACED, TW_STACK,
    NUM_SPELLS, SPELL_START, SPW_DECK, SPW_START,
)
from .base import (
    NUM_ACTIONS, A_CLASS, A_CUBE, A_LINEAGE, A_SIDE, A_SPOT, A_TILE, A_TURN, CARD_DECK, CIV_TILE_OF_PACK,
    CLASS_CUBES, CLASS_EQUIPMENT,
    CLASS_GOLD, CLASS_HEARTS, DIR_DQ, DIR_DR, LINEAGE_CUBES, LINEAGE_HEARTS, NATIVES_ON_CARD,
    PH_CLASS, PH_CLASS_SIDE, PH_CUBE_COLOUR, PH_LINEAGE, PH_LINEAGE_SIDE, PH_TILE_CHOOSE,
    PH_START_SPELL, SPELL_FROM, PH_TILE_SPOT, PH_TILE_TURN, TILE_KIND, TILE_PACK, d6, pose, roll, shuffle_first,
)
from .realm import (
    frontier_touches_two, MAX_FRONTIER, open_realm_fits, open_realm_legal, position_edges, realm_frontier, tile_at,
    touches_two_possible,
)
from .equipment import take_starting_item
from .tokens import deal_civilization_cards, reveal_tile, stock_revealed_merchants
from .magic import clear_cast, deal_start_spells, start_spell_due


# ================================================================ the realm's set-up (L178-L189)
@rules_jit
def setup_game(S, b):
    """L178-L189: Terrain Setup Cards random side up (L180); the Map Tiles of
    the packs in play shuffled (L188) and either dealt to the seats to build
    the map (Open Realm, L109) or stacked around a random civilization tile in
    the centre (Explore the Realm, L129). The Legendary sandbox uses either
    map rule (``legendary_map``, L151-L153)."""
    s = S[b]
    n = int(s['num_players'])
    for t in range(NUM_TILES):
        s['tile_where'][t] = TW_OUT
        s['tile_holder'][t] = -1
        s['tile_stack'][t] = -1
    for p in range(MAX_HEROES):
        s['hero_state'][p] = HS_NONE
        s['hero_lineage'][p] = -1
        s['lineage_side'][p] = -1
        s['hero_class'][p] = -1
        s['class_side'][p] = -1
        s['hero_clearing'][p] = -1
        s['hero_order'][p] = -1
        s['search_target'][p] = -1
        for i in range(5):
            s['best'][p, i] = -1                                 # no hero has left play yet
    s['legend'] = -1
    s['explore_tile'] = -1
    s['explore_toward'] = -1
    for k in range(NUM_PACKS):
        s['setup_side'][k] = -1
        s['civ_clearing'][k] = -1
    for c in range(s['native_clearing'].shape[0]):
        s['native_clearing'][c] = -1
    for c in range(s['mon_clearing'].shape[0]):
        s['mon_clearing'][c] = MON_TRAY                          # L306: chips stay in the tray until summoned
    for c in range(s['card_where'].shape[0]):                    # L185: the decks
        s['card_where'][c] = CW_DECK
        s['card_owner'][c] = CARD_DECK[c]
        s['card_slot'][c] = -1
    for sp in range(NUM_SPELLS):                                 # L185, L1016: the two Spell decks
        s['spell_where'][sp] = SPW_START if SPELL_FROM[sp] == SPELL_START else SPW_DECK
        s['spell_owner'][sp] = -1
        s['spell_on'][sp] = -1                                   # no spell in play
    for p in range(MAX_HEROES):
        clear_cast(S, b, p)
    for t in range(NUM_TILES):
        s['tile_enchant'][t] = -1
    s['learn_spell'] = -1
    s['dispel_card'] = -1
    s['enchant_colour'] = -1
    s['sel_card'] = -1
    s['use_card'] = -1
    s['use_from'] = -1
    s['teleport_target'] = -1
    s['earth_tile'] = -1
    s['roll_target'] = -1
    s['seen_then'] = -1
    for i in range(s['roll_dice'].shape[0]):
        s['roll_dice'][i] = -1
        s['roll_party'][i] = -1
    for i in range(s['roll_chips'].shape[0]):
        s['roll_chips'][i] = -1
    s['tentacle_card'] = -1
    for i in range(s['tentacle_on'].shape[0]):
        for j in range(s['tentacle_on'].shape[1]):
            s['tentacle_on'][i, j] = -1
    for w in range(s['wild_where'].shape[0]):                    # L176-L177: the token piles and pools
        s['wild_where'][w] = TOK_POOL
        s['wild_tile'][w] = -1
        s['wild_clearing'][w] = -1
    for k in range(s['civ_token_where'].shape[0]):
        s['civ_token_where'][k] = TOK_POOL
        s['civ_token_clearing'][k] = -1
    for k in range(s['site_token_where'].shape[0]):
        s['site_token_where'][k] = TOK_POOL
    for k in range(s['site_clearing'].shape[0]):
        s['site_clearing'][k] = -1
    for t in range(NUM_TILES):
        s['tile_revealed'][t] = 0
    s['placer'] = -1
    s['sel_tile'] = -1
    for k in range(NUM_PACKS):
        if s['packs'] & (1 << k):
            s['setup_side'][k] = roll(S, b, 2)                   # L180
    # L188: shuffle the tiles of the packs in play into the stack
    m = 0
    for t in range(NUM_TILES):
        if s['packs'] & (1 << int(TILE_PACK[t])):
            s['tile_where'][t] = TW_STACK
            s['tile_stack'][m] = t
            m += 1
    shuffle_first(S, b, s['tile_stack'], m)
    s['stack_len'] = m
    deal_civilization_cards(S, b)                                # L180, L184 (a chance stream of their own)
    open_realm = s['sandbox'] == SB_OPEN_REALM or (s['sandbox'] == SB_LEGENDARY
                                                  and s['legendary_map'] == SB_OPEN_REALM)
    if open_realm:
        deal_tiles(S, b, n)
    else:
        centre_civilization_tile(S, b)


@rules_jit
def deal_tiles(S, b, n):
    """L109: deal all Map Tiles as evenly as possible to the seats (from a
    random dealer onward), then build the map starting with a random seat."""
    s = S[b]
    first = roll(S, b, n)
    for i in range(int(s['stack_len'])):
        t = int(s['tile_stack'][i])
        s['tile_where'][t] = TW_HAND
        s['tile_holder'][t] = (first + i) % n
        s['tile_stack'][i] = -1
    s['stack_len'] = 0
    s['placer'] = roll(S, b, n)
    s['stage'] = ST_BUILD_REALM


@rules_jit
def centre_civilization_tile(S, b):
    """L129: a random civilization tile of a pack in play goes in the centre
    (a random side up: the text names none), with its Civilization Location
    and two random Civilization Tokens;
    the other tiles stay shuffled in the stack."""
    s = S[b]
    count = 0
    for k in range(NUM_PACKS):
        if s['packs'] & (1 << k):
            count += 1
    pick = roll(S, b, count)
    t = -1
    for k in range(NUM_PACKS):
        if s['packs'] & (1 << k):
            if pick == 0:
                t = int(CIV_TILE_OF_PACK[k])
            pick -= 1
    put_tile(S, b, t, roll(S, b, 2), 0, 0, 0)
    reveal_tile(S, b, -1, t)                                     # L129: and two Civilization Tokens
    # take it out of the stack, keeping the shuffled order of the rest
    m = int(s['stack_len'])
    j = 0
    for i in range(m):
        u = int(s['tile_stack'][i])
        if u != t:
            s['tile_stack'][j] = u
            j += 1
    s['tile_stack'][m - 1] = -1
    s['stack_len'] = m - 1
    enter_hero_selection(S, b)


@rules_jit
def put_tile(S, b, t, side, rot, q, r):
    """Place tile t on the map; a civilization tile reveals its location (L189)."""
    s = S[b]
    s['tile_where'][t] = TW_PLACED
    s['tile_side'][t] = side
    s['tile_rot'][t] = rot
    s['tile_q'][t] = q
    s['tile_r'][t] = r
    s['tiles_placed'] += 1
    if TILE_KIND[t] == TILE_CIVILIZATION:
        reveal_civilization(S, b, t)


@rules_jit
def reveal_civilization(S, b, t):
    """L189, L306: roll a d6 and place the pack's Civilization Location in that
    clearing, rerolling 5s and 6s; the Natives its Terrain Setup Card lists are
    stacked on it (L312)."""
    s = S[b]
    k = d6(S, b)
    while k > 4:
        k = d6(S, b)
    pack = int(TILE_PACK[t])
    c = t * CLEARINGS_PER_TILE + k - 1
    s['civ_clearing'][pack] = c
    side = int(s['setup_side'][pack])
    for i in range(NATIVES_ON_CARD.shape[2]):
        chip = int(NATIVES_ON_CARD[pack, side, i])
        if chip >= 0:
            s['native_clearing'][chip] = c


# ================================================================ building the Open Realm (L109)
@rules_jit
def tile_placeable(S, b, t, n, touch, need):
    """Some position, side and turn is legal for tile t now (L109); ``n``,
    ``touch``, ``need``: the ``realm_frontier``."""
    s = S[b]
    if s['tiles_placed'] == 0:
        return True
    two = frontier_touches_two(t, n, touch, need)
    for i in range(n):
        for a in range(2 * NUM_DIRECTIONS):
            if open_realm_fits(t, a // NUM_DIRECTIONS, a % NUM_DIRECTIONS, touch[i], need[i], two):
                return True
    return False


@rules_jit
def seat_can_place(S, b, p):
    s = S[b]
    spot = local_array(MAX_FRONTIER, np.int64)
    touch = local_array(MAX_FRONTIER, np.int64)
    need = local_array(MAX_FRONTIER, np.int64)
    n = realm_frontier(S, b, spot, touch, need)
    for t in range(NUM_TILES):
        if s['tile_where'][t] == TW_HAND and s['tile_holder'][t] == p and tile_placeable(S, b, t, n, touch, need):
            return True
    return False


@rules_jit
def build_realm(S, b):
    """L109: in turn from the first seat, moving clockwise (to the next seat),
    each seat places one of its dealt tiles. A seat whose dealt tiles can no
    longer be placed legally passes; once no seat can place, tiles still
    held stay out of the realm (Interpretations: "A tile that fits nowhere").
    Then the heroes are chosen. True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    for j in range(n):
        p = (int(s['placer']) + j) % n
        if seat_can_place(S, b, p):
            s['placer'] = p
            return pose(S, b, PH_TILE_CHOOSE, p)
    for t in range(NUM_TILES):
        if s['tile_where'][t] == TW_HAND:
            s['tile_where'][t] = TW_OUT
            s['tile_holder'][t] = -1
    s['placer'] = -1
    enter_hero_selection(S, b)
    return False


@rules_jit
def mask_tile_choose(S, b, p, mask):
    """Legal actions of PH_TILE_CHOOSE: A_TILE + t for each dealt tile of p that can be placed."""
    s = S[b]
    spot = local_array(MAX_FRONTIER, np.int64)
    touch = local_array(MAX_FRONTIER, np.int64)
    need = local_array(MAX_FRONTIER, np.int64)
    n = realm_frontier(S, b, spot, touch, need)
    for t in range(NUM_TILES):
        if s['tile_where'][t] == TW_HAND and s['tile_holder'][t] == p and tile_placeable(S, b, t, n, touch, need):
            mask[A_TILE + t] = 1


@rules_jit
def act_tile_choose(S, b, p, a):
    """PH_TILE_CHOOSE: take tile ``a - A_TILE`` to place; the first tile of the
    map is its origin, so only its side and turn are asked."""
    s = S[b]
    s['sel_tile'] = a - A_TILE
    if s['tiles_placed'] == 0:
        s['sel_q'] = 0
        s['sel_r'] = 0
        return pose(S, b, PH_TILE_TURN, p)
    return pose(S, b, PH_TILE_SPOT, p)


@rules_jit
def spot_position(S, b, a):
    """The axial position (q, r) of A_SPOT action ``a``: beside placed tile
    u in direction d, ``a = A_SPOT + u * 6 + d``."""
    s = S[b]
    u = (a - A_SPOT) // NUM_DIRECTIONS
    d = (a - A_SPOT) % NUM_DIRECTIONS
    return s['tile_q'][u] + DIR_DQ[d], s['tile_r'][u] + DIR_DR[d]


@rules_jit
def mask_tile_spot(S, b, p, mask):
    """Legal actions of PH_TILE_SPOT: A_SPOT + u * 6 + d for each empty
    position beside the map where the chosen tile can go (L109). A position
    beside several tiles is offered once, by its lowest action."""
    s = S[b]
    t = int(s['sel_tile'])
    spot = local_array(MAX_FRONTIER, np.int64)
    touch = local_array(MAX_FRONTIER, np.int64)
    need = local_array(MAX_FRONTIER, np.int64)
    n = realm_frontier(S, b, spot, touch, need)
    two = frontier_touches_two(t, n, touch, need)
    for i in range(n):
        for k in range(2 * NUM_DIRECTIONS):
            if open_realm_fits(t, k // NUM_DIRECTIONS, k % NUM_DIRECTIONS, touch[i], need[i], two):
                mask[A_SPOT + spot[i]] = 1
                break


@rules_jit
def act_tile_spot(S, b, p, a):
    """PH_TILE_SPOT: the chosen tile goes beside the map at the position of ``a``."""
    s = S[b]
    q, r = spot_position(S, b, a)
    s['sel_q'] = q
    s['sel_r'] = r
    return pose(S, b, PH_TILE_TURN, p)


@rules_jit
def mask_tile_turn(S, b, p, mask):
    """Legal actions of PH_TILE_TURN: A_TURN + side * 6 + rot where the chosen
    tile fits at the chosen position (L109: either side up)."""
    s = S[b]
    t = int(s['sel_tile'])
    q = int(s['sel_q'])
    r = int(s['sel_r'])
    if s['tiles_placed'] == 0 or tile_at(S, b, q, r) >= 0:
        for k in range(2 * NUM_DIRECTIONS):
            if open_realm_legal(S, b, t, k // NUM_DIRECTIONS, k % NUM_DIRECTIONS, q, r, False):
                mask[A_TURN + k] = 1
        return
    two = touches_two_possible(S, b, t)
    touch, need = position_edges(S, b, q, r)
    for k in range(2 * NUM_DIRECTIONS):
        if open_realm_fits(t, k // NUM_DIRECTIONS, k % NUM_DIRECTIONS, touch, need, two):
            mask[A_TURN + k] = 1


@rules_jit
def act_tile_turn(S, b, p, a):
    """PH_TILE_TURN: place the tile; the next seat clockwise places next (L109)."""
    s = S[b]
    k = a - A_TURN
    put_tile(S, b, int(s['sel_tile']), k // NUM_DIRECTIONS, k % NUM_DIRECTIONS,
             int(s['sel_q']), int(s['sel_r']))
    s['tile_holder'][int(s['sel_tile'])] = -1
    s['sel_tile'] = -1
    s['placer'] = (p + 1) % int(s['num_players'])
    return False


# ================================================================ hero selection (L193-L205)
@rules_jit
def enter_hero_selection(S, b):
    """L195: the order of hero selection is random."""
    s = S[b]
    n = int(s['num_players'])
    for p in range(n):
        s['hero_order'][p] = p
    shuffle_first(S, b, s['hero_order'], n)
    s['heroes_chosen'] = 0
    s['stage'] = ST_HEROES


@rules_jit
def printed_cube(S, b, p, j):
    """The cube-kind mask of the j-th Action Cube of p's two cards (the
    Lineage Card's first, L200); 0 past the last."""
    s = S[b]
    li = int(s['hero_lineage'][p])
    ls = int(s['lineage_side'][p])
    n_l = 0
    while n_l < LINEAGE_CUBES.shape[2] and LINEAGE_CUBES[li, ls, n_l] != 0:
        n_l += 1
    if j < n_l:
        return int(LINEAGE_CUBES[li, ls, j])
    j -= n_l
    if j < CLASS_CUBES.shape[2]:
        return int(CLASS_CUBES[int(s['hero_class'][p]), int(s['class_side'][p]), j])
    return 0


@rules_jit
def hero_selection(S, b):
    """L197-L202: in the selection order each seat chooses a Lineage Card and
    a Class Card, each either side up, and takes the Hearts, Action Cubes
    (choosing the colour of a cube that shows several) and starting Gold the
    two cards show. True if a decision is posed; when every hero is made, the
    first turn starts. ``hero_order`` lists the seats making a hero (-1 past
    the last): all seats at the set-up, those making a new hero after a death
    or retirement (L829, ``fate.start_new_heroes``). At the set-up the Item
    Cards left then are the Item deck (L206), which fills the Merchants the
    set-up revealed (L491)."""
    s = S[b]
    n = int(s['num_players'])
    while s['heroes_chosen'] < n and s['hero_order'][s['heroes_chosen']] >= 0:
        p = int(s['hero_order'][s['heroes_chosen']])
        if s['random_heroes']:
            deal_random_hero(S, b, p)
        if s['hero_lineage'][p] < 0:
            return pose(S, b, PH_LINEAGE, p)
        if s['lineage_side'][p] < 0:
            return pose(S, b, PH_LINEAGE_SIDE, p)
        if s['hero_class'][p] < 0:
            return pose(S, b, PH_CLASS, p)
        if s['class_side'][p] < 0:
            return pose(S, b, PH_CLASS_SIDE, p)
        while True:
            bits = printed_cube(S, b, p, int(s['cubes_taken'][p]))
            if bits == 0:
                break
            if bits & (bits - 1):                    # several colours: the player picks (L200)
                return pose(S, b, PH_CUBE_COLOUR, p)
            kind = 0
            while not (bits >> kind) & 1:
                kind += 1
            take_cube(S, b, p, kind)
        if s['random_heroes']:
            deal_start_spells(S, b, p)
        if start_spell_due(S, b, p):                 # L203-L204: the starting spells, one at a time
            return pose(S, b, PH_START_SPELL, p)
        finish_hero(S, b, p)
        s['heroes_chosen'] += 1
    if s['turn'] == 0:                               # L206: the Item deck is formed now;
        stock_revealed_merchants(S, b)               # L491: the set-up's Merchants are filled from it
    s['stage'] = ST_TURN_START
    return False


@rules_jit
def deal_random_hero(S, b, p):
    """The ``random_heroes`` option: seat p's hero is dealt instead of
    chosen -- a random Lineage Card, a random Class Card among those free
    (``mask_class``), each a random side up, and a random colour of each
    cube showing several; the rest of the set-up is as chosen (L198-L202)."""
    s = S[b]
    if s['hero_lineage'][p] < 0:
        s['hero_lineage'][p] = roll(S, b, NUM_LINEAGES)
        s['lineage_side'][p] = roll(S, b, 2)
    if s['hero_class'][p] < 0:
        free = local_zeros(NUM_ACTIONS, np.int8)
        mask_class(S, b, p, free)
        n = 0
        for i in range(NUM_CLASSES):
            n += int(free[A_CLASS + i])
        pick = roll(S, b, n)
        for i in range(NUM_CLASSES):
            if free[A_CLASS + i]:
                if pick == 0:
                    s['hero_class'][p] = i
                pick -= 1
        s['class_side'][p] = roll(S, b, 2)
    while True:
        bits = printed_cube(S, b, p, int(s['cubes_taken'][p]))
        if bits == 0:
            return
        n = 0
        for kind in range(CUBE_MAGIC + NUM_COLOURS):
            n += (bits >> kind) & 1
        pick = roll(S, b, n)
        for kind in range(CUBE_MAGIC + NUM_COLOURS):
            if (bits >> kind) & 1:
                if pick == 0:
                    take_cube(S, b, p, kind)
                pick -= 1


@rules_jit
def take_cube(S, b, p, kind):
    """Put one Action Cube of ``kind`` in p's healthy box (L200)."""
    s = S[b]
    s['cubes'][p, 0, kind] += 1
    s['cubes_taken'][p] += 1


@rules_jit
def finish_hero(S, b, p):
    """L199: Hearts of both cards into the healthy box; L201: the Class
    Card's starting equipment, equipped; L202: starting Gold (the Class
    Card's) into the backpack -- none under the optional Wits Only (L1148),
    the new heroes of L829 included. The hero enters the map on its first
    turn (L113, L133)."""
    s = S[b]
    li = int(s['hero_lineage'][p])
    ci = int(s['hero_class'][p])
    s['hearts'][p, 0] = LINEAGE_HEARTS[li, int(s['lineage_side'][p])] + CLASS_HEARTS[ci, int(s['class_side'][p])]
    s['gold'][p] = 0 if s['optional_rules'] & OPT_WITS else CLASS_GOLD[ci, int(s['class_side'][p])]
    for j in range(CLASS_EQUIPMENT.shape[2]):                   # L201: the starting equipment
        kind = int(CLASS_EQUIPMENT[ci, int(s['class_side'][p]), j])
        if kind >= 0:
            take_starting_item(S, b, p, kind)
    s['hero_state'][p] = HS_WAITING


@rules_jit
def mask_lineage(S, b, p, mask):
    """Legal actions of PH_LINEAGE: A_LINEAGE + i, any of the four (several
    heroes may share a lineage: Interpretations)."""
    for i in range(NUM_LINEAGES):
        mask[A_LINEAGE + i] = 1


@rules_jit
def act_lineage(S, b, p, a):
    S[b]['hero_lineage'][p] = a - A_LINEAGE
    return False


@rules_jit
def mask_side(S, b, p, mask):
    """Legal actions of PH_LINEAGE_SIDE and PH_CLASS_SIDE: A_SIDE + 0 / 1."""
    mask[A_SIDE] = 1
    mask[A_SIDE + 1] = 1


@rules_jit
def act_lineage_side(S, b, p, a):
    S[b]['lineage_side'][p] = a - A_SIDE
    return False


@rules_jit
def mask_class(S, b, p, mask):
    """Legal actions of PH_CLASS: A_CLASS + i for each class no other hero
    has (one Hero Chip and Targeting Token per class, L198) and that was not
    set aside with a dead or retired hero (L803, L825)."""
    s = S[b]
    for i in range(NUM_CLASSES):
        free = ((s['class_gone'] >> i) & 1) == 0
        for q in range(int(s['num_players'])):
            if q != p and s['hero_class'][q] == i:
                free = False
        if free:
            mask[A_CLASS + i] = 1


@rules_jit
def act_class(S, b, p, a):
    S[b]['hero_class'][p] = a - A_CLASS
    return False


@rules_jit
def act_class_side(S, b, p, a):
    S[b]['class_side'][p] = a - A_SIDE
    return False


@rules_jit
def mask_cube_colour(S, b, p, mask):
    """Legal actions of PH_CUBE_COLOUR: A_CUBE + kind for each colour the
    printed cube shows (L200)."""
    s = S[b]
    bits = printed_cube(S, b, p, int(s['cubes_taken'][p]))
    for kind in range(CUBE_MAGIC + NUM_COLOURS):
        if (bits >> kind) & 1:
            mask[A_CUBE + kind] = 1


@rules_jit
def act_cube_colour(S, b, p, a):
    take_cube(S, b, p, a - A_CUBE)
    return False
