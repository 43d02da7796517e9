"""Possessions changing hands in the action phase: the Loot Action (L522-L534;
the Treasure Site features of L1232-L1252 that bear on looting) and the Trade
Action (L552-L568: swap, and commerce with a Merchant -- look, sell, buy with
its haggling L982-L1000, repair).

A card a hero receives here (looted, bought, swapped) lies face down in its
backpack, marked MARK_RECEIVED, until its owner chooses at once to equip it
or leave it stowed (L972, PH_RECEIVED); equipping shows it face up, and an
Epic not yet revealed may also be revealed where it lies (L534, L563).
Taking missions is a step of commerce (L564); completing a mission and
claiming a title (L566, L567; ``missions.mission_options``) and removing
curses (L568; ``magic.removable_curses``) are Trade Actions of their own,
offered in ``trade_options``.
"""
import numpy as np

from dragongym.envs.core.jit import local_array, rules_jit
from ..constants import (
    CUBE_MIGHT, CW_HERO, CW_MERCHANT, CW_SITE, HS_ACTIVE, HST_BLOCKED, HST_HIDDEN, MAX_HEROES,
    MAX_HIDDEN_PER_SIDE, MON_TAKEN, NUM_CARDS, NUM_MERCHANTS, NUM_MONSTER_CHIPS,
    NUM_PILES, NUM_SITES, NUM_TARGETS, NUM_TILES, T_BACKPACK, T_PENDING, NUM_CURSES, NUM_SPELLS,
    SPW_DECK,
)
from .base import (
    A_UNCURSE, CURSE_MISFORTUNE, KIND_SPELLS, A_ANSWER, A_CARD, A_DO, A_MISSION, PH_TAKE_MISSION, A_GOLD, A_MERCHANT, A_PATH, A_PILE, A_SEAT, A_STEP, A_TARGET,
    ANSWER_ACCEPT, ANSWER_REFUSE, ATTR_CUNNING, ATTR_WISDOM, BLACK_SYMBOL, CARD_KIND, DO_DONE,
    DO_LOOT, DO_TRADE, GOLD_STEP, HAGGLE_DOOR, HAGGLE_FACE, KIND_BACKPACK_SPECIAL, KIND_EPIC,
    KIND_PRICE, KIND_PRICED, KIND_REPAIR, LOOT_FACE, MERCHANT_RESPECT, PH_BUY,
    PH_COMMERCE, PH_LOOT_KEEP, PH_LOOT_PILE, PH_RECEIVED, PH_REROLL, ROLL_HAGGLE, ROLL_LOOT, PH_REPAIR, PH_SELL, PH_SWAP_ANSWER,
    PH_SWAP_OFFER, PH_TRADE_WITH, SITE_ACTIVE_WRAITH, SITE_GUARDIAN, SITE_LABYRINTH,
    SITE_MASSIVE_DOOR, SITE_PACK, SKELETON_KEY, STEP_HAGGLE, STEP_LOOK, STEP_PAY, STEP_REPAIR,
    STEP_SELL, SYM_SITE, TRADE_CHIP_KIND, monsters_in, pose, roll, end_roll, start_roll,
    ROLL_WRAITH, dust_roll, wraith_brought,
    ARRIVE_ACTED, ARRIVE_POSED, SEEN_LOOT, SEEN_MERCHANT, SEEN_RECEIVED, VIEW_POSED,
)
from .equipment import (
    armor_damaged, attach_spells, attached_spells, card_price, enforce_weight, equip_card, hero_attribute, possesses,
    reveal_card, target_legal,
)
from .fate import remove_card
from .treasures import any_reroll, arrive_instant, lucky_loot, view_instant, writ_held
from .magic import CHARM_BONUS, charmed, curse_held, remove_curse, removable_curses
from .tokens import has_looked, merchant_here
from .missions import (
    MAX_MISSION_OPTIONS, any_takeable, mask_take_missions, mission_options, mission_trade, note_loot, take_mission,
)

TM_NONE, TM_LOOT, TM_SWAP, TM_COMMERCE = range(4)
"""``trade_mode``: the Loot or Trade Action under way."""
MARK_DEAL, MARK_RECEIVED = 1, 2
"""``card_mark``: the card is in the proposed swap; the card was just received."""
DONE_LOOK, DONE_SELL, DONE_REPAIR, DONE_BUY, DONE_MISSIONS = 1, 2, 4, 8, 16
"""``trade_steps`` bits: the commerce steps already taken in this Trade Action (L557)."""
NUM_PATHS = NUM_TILES * 2 * MAX_HIDDEN_PER_SIDE
BUY_FACTOR = 3
"""A Merchant sells at three times the base price (L560, L914)."""
HAGGLE_DICE = 2
LOOT_DICE = 2
MAX_TRADE_OPTIONS = MAX_HEROES + NUM_MERCHANTS + MAX_HEROES * NUM_CURSES + NUM_SPELLS + MAX_MISSION_OPTIONS


# ================================================================ shared helpers
@rules_jit
def active_hero(S, b):
    """The hero whose action is under way (L451)."""
    s = S[b]
    return int(s['turn_order'][s['order_pos']])


@rules_jit
def seen_resume(S, b):
    """The look that saw a Cursed Treasure goes on once its curse, which
    waited on the viewer's Dust of Destiny (L1320, L1330), has applied
    (``seen_then``, SEEN_*): the cards received are placed; the looter's
    look at the pile's top three; the Look at the Merchant's stock, then
    the commerce's menu; in the turn's own steps (SEEN_ADVANCE) nothing:
    the stage runs on. True if a decision is posed."""
    s = S[b]
    then = int(s['seen_then'])
    if then < 0:
        return False
    s['seen_then'] = -1
    p = active_hero(S, b)
    if then == SEEN_RECEIVED:
        return place_received(S, b)
    if then == SEEN_LOOT:
        return loot_grabby(S, b, p, int(s['trade_pile']))
    if then == SEEN_MERCHANT:
        if look_at_merchant(S, b, p, int(s['trade_merchant'])):
            return True
        return commerce_menu(S, b, p)
    return False


@rules_jit
def end_trade(S, b):
    """The Loot or Trade Action is over: its context is cleared. False (no
    decision posed), so the action phase goes on (the block check, L457)."""
    s = S[b]
    s['trade_mode'] = TM_NONE
    s['trade_pile'] = 0
    s['trade_partner'] = 0
    s['trade_merchant'] = 0
    s['missions_taken'] = 0
    s['trade_steps'] = 0
    s['trade_card'] = 0
    s['trade_factor'] = 0
    s['swap_gold'] = 0
    for c in range(NUM_CARDS):
        s['card_mark'][c] = 0
    for pile in range(NUM_PILES):
        s['pile_deal'][pile] = 0
    for i in range(NUM_PATHS):
        s['path_deal'][i] = 0
    return False


# ================================================================ a card received (L532-L534, L562-L563, L972)
@rules_jit
def receive_card(S, b, p, c):
    """Hero p receives card c: it lies face down in the backpack until p
    equips or stows it (PH_RECEIVED). A Backpack Special card is always face
    up (L532, L960): it is revealed as it arrives."""
    s = S[b]
    s['card_where'][c] = CW_HERO
    s['card_owner'][c] = p
    s['card_slot'][c] = T_BACKPACK
    s['card_mark'][c] = MARK_RECEIVED
    if KIND_BACKPACK_SPECIAL[CARD_KIND[c]]:
        reveal_card(S, b, p, c)
    attach_spells(S, b, c)                   # a Spell Book or Scroll is revealed to the Hero receiving it (L1424)


@rules_jit
def received_card(S, b, p):
    """The lowest card hero p has received and not yet equipped or stowed; -1."""
    s = S[b]
    for c in range(NUM_CARDS):
        if s['card_mark'][c] == MARK_RECEIVED and s['card_where'][c] == CW_HERO and s['card_owner'][c] == p:
            return c
    return -1


@rules_jit
def may_reveal(S, b, c):
    """Revealing card c where it lies earns something: an Epic Treasure not
    yet revealed this game (L534, L563)."""
    return KIND_EPIC[CARD_KIND[c]] != 0 and S[b]['card_revealed'][c] == 0


@rules_jit
def receive_choices(S, b, p, c):
    """How many ways hero p may place the card c it received (PH_RECEIVED)."""
    n = 1 if may_reveal(S, b, c) else 0
    for t in range(NUM_TARGETS):
        if target_legal(S, b, p, c, t):
            n += 1
    return n


@rules_jit
def place_received(S, b):
    """L972: each hero that has just received cards chooses at once, card by
    card, to equip or stow them -- the active hero first, then a swap
    partner; a card with one place only (the backpack) goes there without a
    decision. An instantaneous treasure acts first (L962; its replacement,
    or the Satchel's cards, are received in its stead). Then the action goes
    on: the commerce's next step, or its end."""
    s = S[b]
    me = active_hero(S, b)
    for i in range(2):
        q = me
        if i == 1:
            if s['trade_mode'] != TM_SWAP:
                break
            q = int(s['trade_partner'])
        c = received_card(S, b, q)
        while c >= 0:
            arrived = arrive_instant(S, b, q, c, SEEN_RECEIVED)
            if arrived == ARRIVE_POSED:                           # a Cursed Treasure's curse waits on his Dust
                return True
            if arrived == ARRIVE_ACTED:
                c = received_card(S, b, q)
                continue
            if receive_choices(S, b, q, c) > 1:
                return pose(S, b, PH_RECEIVED, q)
            s['card_mark'][c] = 0                                # stowed: its only place
            c = received_card(S, b, q)
    if s['trade_mode'] == TM_COMMERCE:
        return commerce_menu(S, b, me)
    return end_trade(S, b)


@rules_jit
def mask_received(S, b, p, mask):
    """Legal actions of PH_RECEIVED: A_TARGET + t for each position the card
    may be equipped at (face up, L970) and T_BACKPACK (face down, L971);
    A_CARD + c to reveal an Epic not yet revealed and keep it stowed (L534)."""
    c = received_card(S, b, p)
    for t in range(NUM_TARGETS):
        if target_legal(S, b, p, c, t):
            mask[A_TARGET + t] = 1
    if may_reveal(S, b, c):
        mask[A_CARD + c] = 1


@rules_jit
def act_received(S, b, p, a):
    """PH_RECEIVED: equip the card (the cards it displaces go to the
    backpack, L973; face up, so revealed), stow it, or reveal it and stow it."""
    s = S[b]
    c = received_card(S, b, p)
    s['card_mark'][c] = 0
    if a == A_CARD + c:
        reveal_card(S, b, p, c)
    else:
        t = a - A_TARGET
        equip_card(S, b, p, c, t)
        if t != T_BACKPACK:
            reveal_card(S, b, p, c)
    return place_received(S, b)


# ================================================================ Loot (L522-L534, L1232-L1252)
@rules_jit
def pile_size(S, b, pile):
    """Cards in the pile (a Treasure Pile or a body)."""
    s = S[b]
    n = 0
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_SITE and s['card_owner'][c] == pile:
            n += 1
    return n


@rules_jit
def pile_card(S, b, pile, place):
    """The card ``place`` cards from the top of the pile (0 the top); -1."""
    s = S[b]
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_SITE and s['card_owner'][c] == pile and s['card_slot'][c] == place:
            return c
    return -1


@rules_jit
def site_feature(S, b, pile, table):
    """The Treasure Site ``pile`` has the feature of ``table`` (SITE_*) on the
    side up of its Terrain Setup Card; a body has none."""
    s = S[b]
    if pile >= NUM_SITES:
        return False
    side = int(s['setup_side'][SITE_PACK[pile]])
    return side >= 0 and table[pile, side] != 0


@rules_jit
def door_closed(S, b, pile):
    """L1240: the Chamber's Massive Door is on its card's side up and not opened."""
    return site_feature(S, b, pile, SITE_MASSIVE_DOOR) and S[b]['door_open'][pile] == 0


@rules_jit
def can_open_door(S, b, p):
    """L1240: a Hero possessing the Skeleton Key (L1418), or 4 healthy Might
    Cubes while no Monster is in its clearing, opens the Massive Door."""
    s = S[b]
    if possesses(S, b, p, SKELETON_KEY):
        return True
    return s['cubes'][p, 0, CUBE_MIGHT] >= 4 and monsters_in(S, b, int(s['hero_clearing'][p])) == 0


@rules_jit
def lootable(S, b, p, pile):
    """Hero p may loot the pile now: it found the pile itself (L524), the
    pile is in its clearing and holds a card or Gold, and no closed Massive
    Door bars it, or p can open it (L1240)."""
    s = S[b]
    if not s['site_found'][p, pile] or s['site_clearing'][pile] != s['hero_clearing'][p]:
        return False
    if pile_size(S, b, pile) == 0 and s['site_gold'][pile] <= 0:
        return False
    return not door_closed(S, b, pile) or can_open_door(S, b, p)


@rules_jit
def loot_die(S, b):
    """One Loot Die: its number, 0 for the grabby hand (L248)."""
    return int(LOOT_FACE[roll(S, b, LOOT_FACE.shape[0])])


@rules_jit
def loot_action(S, b, p):
    """Hero p takes the Loot Action (L522-L534), spending it; with more than
    one pile it may loot in its clearing, it chooses one (PH_LOOT_PILE).
    True if it posed a decision."""
    s = S[b]
    s['actions_used'][p] += 1
    s['trade_mode'] = TM_LOOT
    n = 0
    only = -1
    for pile in range(NUM_PILES):
        if lootable(S, b, p, pile):
            n += 1
            only = pile
    if n > 1:
        return pose(S, b, PH_LOOT_PILE, p)
    return loot_treasure_site(S, b, p, only)


@rules_jit
def mask_loot_pile(S, b, p, mask):
    """Legal actions of PH_LOOT_PILE: A_PILE + pile for each pile hero p may loot."""
    for pile in range(NUM_PILES):
        if lootable(S, b, p, pile):
            mask[A_PILE + pile] = 1


@rules_jit
def act_loot_pile(S, b, p, a):
    return loot_treasure_site(S, b, p, a - A_PILE)


@rules_jit
def loot_treasure_site(S, b, p, pile):
    """L526-L530: roll the two Loot Dice. Only grabby hands: look at the top
    three cards and keep one (PH_LOOT_KEEP). Otherwise the highest number is
    the place from the top of the card taken; none if the pile is shorter.
    The Catacombs' Labyrinth fails any loot with a die above the Hero's
    Cunning (L1236); a closed Massive Door is opened by the looter who can
    (L1240). A pile with Gold and no card left gives its Gold without a roll
    (Interpretations). After the Thief's Lucky Coin a single die is rolled,
    its grabby hand counting as only grabby hands (L1454)."""
    s = S[b]
    if door_closed(S, b, pile):
        s['door_open'][pile] = 1                                 # L1240: opened, for every Hero from now on
    n = pile_size(S, b, pile)
    if n == 0:
        s['gold'][p] += s['site_gold'][pile]
        s['site_gold'][pile] = 0
        note_loot(S, b, p, pile)
        return end_trade(S, b)
    lucky = lucky_loot(S, b, p)                                  # L1454: the Lucky Coin's single die
    first = loot_die(S, b)
    second = first if lucky else loot_die(S, b)
    start_roll(S, b, ROLL_LOOT, 1 if lucky else LOOT_DICE, LOOT_FACE.shape[0], pile, first, second)
    S[b]['roll_party'][0] = p
    if any_reroll(S, b, p):                                      # L1342, L1528, L1330: his rerolls first
        return pose(S, b, PH_REROLL, p)
    return loot_result(S, b, p)


@rules_jit
def loot_result(S, b, p):
    """The Loot Dice of hero p's Loot Action (``roll_dice``, rerolls made)
    apply to the pile looted (L526-L530, L1236)."""
    s = S[b]
    pile = int(s['roll_target'])
    first = int(s['roll_dice'][0])
    second = first if s['roll_n'] == 1 else int(s['roll_dice'][1])
    end_roll(S, b)
    n = pile_size(S, b, pile)
    if first == 0 and second == 0:                               # L526: only grabby hands
        return loot_grabby(S, b, p, pile)
    result = max(first, second)                                  # L528
    if site_feature(S, b, pile, SITE_LABYRINTH) and result > hero_attribute(S, b, p, ATTR_CUNNING):
        return end_trade(S, b)                                   # L1236: lost in the Labyrinth
    if result > n:                                               # L530: the pile is shorter
        return end_trade(S, b)
    return take_from_pile(S, b, p, pile, result - 1)


@rules_jit
def loot_grabby(S, b, p, pile):
    """L526: two grabby hands: hero p looks at the pile's top three cards
    (``see_top_three``) and keeps one (PH_LOOT_KEEP), the only one left
    without a decision. Where a Cursed Treasure seen curses him and the
    curse waits on his Dust of Destiny, this runs again once it has applied
    (SEEN_LOOT). True if a decision is posed."""
    S[b]['trade_pile'] = pile
    n = see_top_three(S, b, p, pile)
    if n < 0:
        return True
    if n == 0:
        return end_trade(S, b)
    if n == 1:
        return take_from_pile(S, b, p, pile, 0)
    return pose(S, b, PH_LOOT_KEEP, p)


@rules_jit
def see_top_three(S, b, p, pile):
    """L526: the looter looks at the pile's top three cards; a Cursed or
    Enchanted Treasure among them acts (L1320, L1340) and its replacement
    is seen in its place. Returns the cards left in the pile, -1 where a
    curse waits on his Dust of Destiny (the look resumes: SEEN_LOOT)."""
    again = True
    while again:
        again = False
        for place in range(3):
            c = pile_card(S, b, pile, place)
            if c < 0:
                continue
            seen = view_instant(S, b, p, c, SEEN_LOOT)
            if seen == VIEW_POSED:
                return -1
            if seen != c:
                again = True
                break
    return pile_size(S, b, pile)


@rules_jit
def mask_loot_keep(S, b, p, mask):
    """Legal actions of PH_LOOT_KEEP: A_CARD + c for each of the pile's top
    three cards (L526)."""
    s = S[b]
    pile = int(s['trade_pile'])
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_SITE and s['card_owner'][c] == pile and s['card_slot'][c] < 3:
            mask[A_CARD + c] = 1


@rules_jit
def act_loot_keep(S, b, p, a):
    """PH_LOOT_KEEP: keep that card; the other two go back in their order
    (L526). A Backpack Special card among those seen turns face up where it
    lies (L960)."""
    s = S[b]
    pile = int(s['trade_pile'])
    kept = a - A_CARD
    for c in range(NUM_CARDS):
        if c != kept and s['card_where'][c] == CW_SITE and s['card_owner'][c] == pile \
                and s['card_slot'][c] < 3 and KIND_BACKPACK_SPECIAL[CARD_KIND[c]]:
            reveal_card(S, b, -1, c)
    return take_from_pile(S, b, p, pile, int(s['card_slot'][kept]))


@rules_jit
def take_from_pile(S, b, p, pile, place):
    """Hero p takes the card ``place`` from the top of the pile; the cards
    below move up one place. A loot that takes a card takes the pile's Gold
    too (L1244 "as if they had performed a successful Loot Action",
    Interpretations). Then the Wraith may come (L1252), its die first
    waiting on his Dust of Destiny where it would bring it. True if a
    decision is posed."""
    s = S[b]
    c = pile_card(S, b, pile, place)
    for k in range(NUM_CARDS):
        if s['card_where'][k] == CW_SITE and s['card_owner'][k] == pile and s['card_slot'][k] > place:
            s['card_slot'][k] -= 1
    s['gold'][p] += s['site_gold'][pile]
    s['site_gold'][pile] = 0
    note_loot(S, b, p, pile)
    receive_card(S, b, p, c)
    if wraith_watch(S, b, p, pile):
        return True
    return place_received(S, b)


@rules_jit
def wraith_watch(S, b, p, pile):
    """L1252, L1278: with the active Wraith on the card's side up, a loot by
    hero p at the Shrine that takes a treasure rolls the Local Monster
    symbol die (``wraith_die``); the Treasure Site Symbol summons the
    Shrine's Guardian (the Wraith) to it (``wraith_comes``). A die that would
    bring it first waits on p's Dust of Destiny (ROLL_WRAITH, L1330: the
    looter is the active Hero of the roll), the card he took waiting with
    it. True if a decision is posed."""
    if not site_feature(S, b, pile, SITE_ACTIVE_WRAITH):
        return False
    face = wraith_die(S, b)
    if wraith_brought(S, b, pile, face) and \
            dust_roll(S, b, ROLL_WRAITH, 1, BLACK_SYMBOL.shape[0], pile, -1, face, -1, p):
        return True
    wraith_comes(S, b, pile, face)
    return False


@rules_jit
def wraith_die(S, b):
    """The Local Monster Die rolled after a loot at the active Wraith's
    Shrine (L1252): its face (BLACK_SYMBOL)."""
    return int(BLACK_SYMBOL[roll(S, b, BLACK_SYMBOL.shape[0])])


@rules_jit
def wraith_comes(S, b, pile, face):
    """The Wraith's die (rerolls made) applies (L1252): the Treasure Site
    Symbol summons the Shrine's Guardian (the Wraith) to it from wherever
    it is, name side up; a killed Wraith stays dead. No other Monster comes."""
    s = S[b]
    if face != SYM_SITE:
        return
    kind = int(SITE_GUARDIAN[pile])
    for m in range(NUM_MONSTER_CHIPS):
        if TRADE_CHIP_KIND[m] == kind and s['mon_clearing'][m] != MON_TAKEN:
            s['mon_clearing'][m] = s['site_clearing'][pile]
            s['mon_flipped'][m] = 0


# ================================================================ Trade: with whom (L552-L557)
@rules_jit
def doors_closed(S, b, p, m):
    """L995: Merchant m has closed its doors to hero p for the rest of this turn."""
    s = S[b]
    return s['closed_turn'][p] == s['turn'] and (int(s['merchant_closed'][p]) >> m) & 1 != 0


@rules_jit
def trade_options(S, b, p, out):
    """The things hero p's Trade Action may do now, as actions of
    PH_TRADE_WITH, into ``out``; returns the count: a swap, a commerce,
    removing curses (L568), completing a mission (L566), claiming a title
    (L567)."""
    n = 0
    for q in range(MAX_HEROES):
        if swap_partner_ok(S, b, p, q):
            out[n] = A_SEAT + q
            n += 1
    for m in range(NUM_MERCHANTS):
        if merchant_here(S, b, p, m) and commerce_open(S, b, p, m, 0):
            out[n] = A_MERCHANT + m
            n += 1
    n = removable_curses(S, b, p, out, n)
    return mission_options(S, b, p, out, n)


@rules_jit
def mask_loot_trade(S, b, p, mask):
    """Mark A_DO + DO_LOOT and A_DO + DO_TRADE in ``mask`` where hero p may
    take the Loot or the Trade Action now (called by ``actions.mask_action``)."""
    for pile in range(NUM_PILES):
        if lootable(S, b, p, pile):
            mask[A_DO + DO_LOOT] = 1
            break
    out = local_array(MAX_TRADE_OPTIONS, np.int64)
    if trade_options(S, b, p, out) > 0:
        mask[A_DO + DO_TRADE] = 1


@rules_jit
def trade_action(S, b, p):
    """Hero p takes the Trade Action (L552-L554), spending it: one swap or one
    commerce; with more than one to choose from it chooses (PH_TRADE_WITH).
    True if it posed a decision."""
    s = S[b]
    s['actions_used'][p] += 1
    out = local_array(MAX_TRADE_OPTIONS, np.int64)
    if trade_options(S, b, p, out) > 1:
        return pose(S, b, PH_TRADE_WITH, p)
    return trade_with(S, b, p, int(out[0]))


@rules_jit
def mask_trade_with(S, b, p, mask):
    """Legal actions of PH_TRADE_WITH: A_SEAT + q for each hero p may swap
    with, A_MERCHANT + m for each Merchant it may do commerce with."""
    out = local_array(MAX_TRADE_OPTIONS, np.int64)
    n = trade_options(S, b, p, out)
    for i in range(n):
        mask[out[i]] = 1


@rules_jit
def act_trade_with(S, b, p, a):
    return trade_with(S, b, p, a)


@rules_jit
def trade_with(S, b, p, a):
    """Start the swap with hero a - A_SEAT, the commerce with Merchant a -
    A_MERCHANT, or the removal of curses and permanent spells beginning
    with a (A_UNCURSE, A_DISPEL, L568)."""
    s = S[b]
    if a >= A_UNCURSE:
        return remove_curse(S, b, p, a)
    if a >= A_MISSION:
        return mission_trade(S, b, p, a)
    if a < A_MERCHANT:
        s['trade_mode'] = TM_SWAP
        s['trade_partner'] = a - A_SEAT
        s['swap_gold'] = 0
        return pose(S, b, PH_SWAP_OFFER, p)
    s['trade_mode'] = TM_COMMERCE
    s['trade_merchant'] = a - A_MERCHANT
    s['trade_steps'] = 0
    return commerce_menu(S, b, p)


# ================================================================ Swap (L556)
@rules_jit
def swap_partner_ok(S, b, p, q):
    """L556: hero q is another unhidden, unblocked Hero in p's clearing, and
    the two have something to swap."""
    s = S[b]
    if q == p or q >= s['num_players'] or s['hero_state'][q] != HS_ACTIVE:
        return False
    if s['hero_clearing'][q] != s['hero_clearing'][p] or (s['hero_status'][q] & (HST_HIDDEN | HST_BLOCKED)):
        return False
    if s['gold'][p] > 0 or s['gold'][q] > 0:
        return True
    for c in range(NUM_CARDS):
        if card_swappable(S, b, p, q, c):
            return True
    for pile in range(NUM_PILES):
        if pile_shareable(S, b, p, q, pile):
            return True
    for i in range(NUM_PATHS):
        if path_shareable(S, b, p, q, i):
            return True
    return False


@rules_jit
def card_swappable(S, b, p, q, c):
    """Card c may go into p's swap with q: any Item or Treasure Card of p's,
    or one of q's that p can see -- equipped, or Backpack Special, always
    face up (L958, L960, L981: a backpack is hidden, so only its owner can
    offer what is in it). Spells and Mission Cards are no cards here."""
    s = S[b]
    if s['card_where'][c] != CW_HERO or s['card_mark'][c] != 0 or s['card_slot'][c] == T_PENDING:
        return False
    if s['card_owner'][c] == p:
        return True
    return s['card_owner'][c] == q and (s['card_slot'][c] < T_BACKPACK or KIND_BACKPACK_SPECIAL[CARD_KIND[c]] != 0)


@rules_jit
def pile_shareable(S, b, p, q, pile):
    """A pile on the map that one of p and q has found and the other has not
    (a Treasure Site location, L556; a body is searched for like one, L805)."""
    s = S[b]
    return s['pile_deal'][pile] == 0 and s['site_clearing'][pile] >= 0 and \
        s['site_found'][p, pile] != s['site_found'][q, pile]


@rules_jit
def path_shareable(S, b, p, q, i):
    """A Hidden Path (``hidden_found`` index i) one of p and q has found and the other has not (L556)."""
    s = S[b]
    return s['path_deal'][i] == 0 and s['hidden_found'][p, i] != s['hidden_found'][q, i]


@rules_jit
def mask_swap_offer(S, b, p, mask):
    """Legal actions of PH_SWAP_OFFER: A_CARD + c for each card that may
    join the swap; A_GOLD + GOLD_* while the Gold goes one way and the giver
    has it; A_PILE + pile and A_PATH + i for each site or Hidden Path known
    to one of the two only; A_DO + DO_DONE to propose the swap as it stands."""
    s = S[b]
    q = int(s['trade_partner'])
    for c in range(NUM_CARDS):
        if card_swappable(S, b, p, q, c):
            mask[A_CARD + c] = 1
    g = int(s['swap_gold'])
    for i in range(GOLD_STEP.shape[0]):
        step = int(GOLD_STEP[i])
        if step > 0 and g >= 0 and g + step <= s['gold'][p]:
            mask[A_GOLD + i] = 1
        if step < 0 and g <= 0 and -(g + step) <= s['gold'][q]:
            mask[A_GOLD + i] = 1
    for pile in range(NUM_PILES):
        if pile_shareable(S, b, p, q, pile):
            mask[A_PILE + pile] = 1
    for i in range(NUM_PATHS):
        if path_shareable(S, b, p, q, i):
            mask[A_PATH + i] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_swap_offer(S, b, p, a):
    """PH_SWAP_OFFER: put one more thing into the swap (nothing leaves it
    again, so the offer always ends), or propose it: an empty swap ends the
    Trade Action; any other is put to the partner (PH_SWAP_ANSWER)."""
    s = S[b]
    if a == A_DO + DO_DONE:
        if swap_empty(S, b):
            return end_trade(S, b)
        return pose(S, b, PH_SWAP_ANSWER, int(s['trade_partner']))
    if a >= A_CARD and a < A_CARD + NUM_CARDS:
        s['card_mark'][a - A_CARD] = MARK_DEAL
    elif a >= A_GOLD and a < A_GOLD + GOLD_STEP.shape[0]:
        s['swap_gold'] += GOLD_STEP[a - A_GOLD]
    elif a >= A_PILE and a < A_PILE + NUM_PILES:
        s['pile_deal'][a - A_PILE] = 1
    else:
        s['path_deal'][a - A_PATH] = 1
    return pose(S, b, PH_SWAP_OFFER, p)


@rules_jit
def swap_empty(S, b):
    s = S[b]
    if s['swap_gold'] != 0:
        return False
    for c in range(NUM_CARDS):
        if s['card_mark'][c] == MARK_DEAL:
            return False
    for pile in range(NUM_PILES):
        if s['pile_deal'][pile]:
            return False
    for i in range(NUM_PATHS):
        if s['path_deal'][i]:
            return False
    return True


@rules_jit
def mask_swap_answer(S, b, p, mask):
    """Legal actions of PH_SWAP_ANSWER: A_ANSWER + ANSWER_ACCEPT / ANSWER_REFUSE."""
    mask[A_ANSWER + ANSWER_ACCEPT] = 1
    mask[A_ANSWER + ANSWER_REFUSE] = 1


@rules_jit
def act_swap_answer(S, b, p, a):
    """PH_SWAP_ANSWER: the partner refuses (the Trade Action ends, spent) or
    accepts, and the swap is made."""
    if a == A_ANSWER + ANSWER_ACCEPT:
        return swap_trade(S, b)
    return end_trade(S, b)


@rules_jit
def swap_trade(S, b):
    """L556: the swap accepted: the Gold and the cards change hands (each
    receiver equips or stows its new cards at once, L972); a found site or
    Hidden Path is shared, the giver keeping what it knows."""
    s = S[b]
    p = active_hero(S, b)
    q = int(s['trade_partner'])
    g = int(s['swap_gold'])
    s['gold'][p] -= g
    s['gold'][q] += g
    for c in range(NUM_CARDS):
        if s['card_mark'][c] == MARK_DEAL:
            receive_card(S, b, q if s['card_owner'][c] == p else p, c)
    enforce_weight(S, b, p)                    # a given treasure takes its cube with it (L1304)
    enforce_weight(S, b, q)
    for pile in range(NUM_PILES):
        if s['pile_deal'][pile]:
            s['site_found'][p, pile] = 1
            s['site_found'][q, pile] = 1
            s['pile_deal'][pile] = 0
    for i in range(NUM_PATHS):
        if s['path_deal'][i]:
            s['hidden_found'][p, i] = 1
            s['hidden_found'][q, i] = 1
            s['path_deal'][i] = 0
    return place_received(S, b)


# ================================================================ Commerce (L557-L565) and haggling (L983-L999)
@rules_jit
def sellable(S, b, p, c):
    """Hero p may sell card c: an item or treasure of its Hero Board (L559)
    with a price (a Spell Book or Scroll with no spell left has none, L1028)."""
    s = S[b]
    return s['card_where'][c] == CW_HERO and s['card_owner'][c] == p and s['card_slot'][c] != T_PENDING \
        and card_price(S, b, c) > 0


@rules_jit
def repairable(S, b, p, c):
    """Hero p's damaged armour c, whose repair price p can pay (L565)."""
    s = S[b]
    return s['card_where'][c] == CW_HERO and s['card_owner'][c] == p and armor_damaged(S, b, c) \
        and KIND_REPAIR[CARD_KIND[c]] <= s['gold'][p]


@rules_jit
def buyable(S, b, p, m, c):
    """Card c of Merchant m's stock that hero p could buy: it knows the stock
    (a Hero picks the card it has seen, L558) and has Gold for at least its
    base price, the least haggling can bring it to (L997); a Spell Book's
    price is of spells p has read (``read_books``)."""
    s = S[b]
    return s['card_where'][c] == CW_MERCHANT and s['card_owner'][c] == m and has_looked(S, b, p, m) \
        and 0 < card_price(S, b, c) <= s['gold'][p]


@rules_jit
def commerce_open(S, b, p, m, steps):
    """Hero p has a commerce step left with Merchant m, ``steps`` (DONE_*)
    being taken already: the Merchant's doors are open to it (L995) and it
    may Look, Sell, Buy, Repair or Take Missions (L557, L564: each once)."""
    if doors_closed(S, b, p, m):
        return False
    if (steps & DONE_LOOK) == 0 and not has_looked(S, b, p, m):
        return True
    if (steps & DONE_MISSIONS) == 0 and any_takeable(S, b, p, m):
        return True
    for c in range(NUM_CARDS):
        if (steps & DONE_SELL) == 0 and sellable(S, b, p, c):
            return True
        if (steps & DONE_REPAIR) == 0 and repairable(S, b, p, c):
            return True
        if (steps & DONE_BUY) == 0 and buyable(S, b, p, m, c):
            return True
        if revealable(S, b, p, m, c):
            return True
    return False


@rules_jit
def revealable(S, b, p, m, c):
    """L1424: a Spell Book or Scroll in Merchant m's stock, whose spells are
    not drawn yet, that hero p trading there (and knowing the stock, L558)
    may reveal to draw its spells and read them in secret; not while the
    Spell deck is empty (nothing would be drawn)."""
    s = S[b]
    if s['card_where'][c] != CW_MERCHANT or s['card_owner'][c] != m or not has_looked(S, b, p, m):
        return False
    if KIND_SPELLS[CARD_KIND[c]] == 0 or attached_spells(S, b, c) > 0:
        return False
    for sp in range(NUM_SPELLS):
        if s['spell_where'][sp] == SPW_DECK:
            return True
    return False


@rules_jit
def reveal_book(S, b, p, c):
    """L1424: the book is revealed to all, its spells drawn face down under
    it; hero p alone reads them (``spells_read``). It stays on sale, now
    priced by its spells (L1028)."""
    s = S[b]
    attach_spells(S, b, c)
    s['spells_read'][c] = s['spells_read'][c] | np.uint8(1 << p)


@rules_jit
def read_books(S, b, p, m):
    """L1424 (Interpretations, *Spell Books*): hero p, trading with Merchant m
    and knowing its stock (L558), reads the spells under every Spell Book or
    Scroll there that another hero revealed -- what the revealer did, any
    trader there may -- so the book's price, the sum of its spells (L1028),
    is one he knows before he may buy it (``buyable``)."""
    s = S[b]
    if not has_looked(S, b, p, m):
        return
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_MERCHANT and s['card_owner'][c] == m and KIND_SPELLS[CARD_KIND[c]] > 0 \
                and attached_spells(S, b, c) > 0:
            s['spells_read'][c] = s['spells_read'][c] | np.uint8(1 << p)


@rules_jit
def commerce_menu(S, b, p):
    """Pose the commerce's next step, or end the Trade Action when none is left."""
    s = S[b]
    m = int(s['trade_merchant'])
    read_books(S, b, p, m)
    if commerce_open(S, b, p, m, int(s['trade_steps'])):
        return pose(S, b, PH_COMMERCE, p)
    return end_trade(S, b)


@rules_jit
def mask_commerce(S, b, p, mask):
    """Legal actions of PH_COMMERCE: A_STEP + STEP_LOOK / STEP_SELL /
    STEP_REPAIR for each step not taken yet that can be; A_CARD + c for each
    stock card the hero may set apart to buy (the Buy step), or reveal (a
    Spell Book or Scroll with its spells not drawn, L1424); A_MISSION + k
    for each Mission Card it may take (L564); A_DO + DO_DONE ends the Trade
    Action."""
    s = S[b]
    m = int(s['trade_merchant'])
    steps = int(s['trade_steps'])
    if (steps & DONE_LOOK) == 0 and not has_looked(S, b, p, m):
        mask[A_STEP + STEP_LOOK] = 1
    if (steps & DONE_MISSIONS) == 0:
        mask_take_missions(S, b, p, m, mask)
    for c in range(NUM_CARDS):
        if (steps & DONE_SELL) == 0 and sellable(S, b, p, c):
            mask[A_STEP + STEP_SELL] = 1
        if (steps & DONE_REPAIR) == 0 and repairable(S, b, p, c):
            mask[A_STEP + STEP_REPAIR] = 1
        if (steps & DONE_BUY) == 0 and buyable(S, b, p, m, c):
            mask[A_CARD + c] = 1
        if revealable(S, b, p, m, c):
            mask[A_CARD + c] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_commerce(S, b, p, a):
    """PH_COMMERCE: take that step."""
    s = S[b]
    m = int(s['trade_merchant'])
    if a == A_DO + DO_DONE:
        return end_trade(S, b)
    if a == A_STEP + STEP_LOOK:
        s['trade_steps'] |= DONE_LOOK
        if look_at_merchant(S, b, p, m):
            return True
        return commerce_menu(S, b, p)
    if a == A_STEP + STEP_SELL:
        s['trade_steps'] |= DONE_SELL
        return pose(S, b, PH_SELL, p)
    if a == A_STEP + STEP_REPAIR:
        s['trade_steps'] |= DONE_REPAIR
        return pose(S, b, PH_REPAIR, p)
    if a >= A_MISSION:                                           # L564: the Take Missions step, 1 or 2 cards
        s['trade_steps'] |= DONE_MISSIONS
        return act_take_mission(S, b, p, a)
    if revealable(S, b, p, m, a - A_CARD):                      # L1424: not a step of its own
        reveal_book(S, b, p, a - A_CARD)
        return commerce_menu(S, b, p)
    s['trade_steps'] |= DONE_BUY                                 # L985: the card is set apart
    s['trade_card'] = a - A_CARD
    s['trade_factor'] = BUY_FACTOR
    return pose(S, b, PH_BUY, p)


@rules_jit
def mask_take_mission(S, b, p, mask):
    """Legal actions of PH_TAKE_MISSION: A_MISSION + k for each other Mission
    Card of the Merchant it may take; A_DO + DO_DONE: no second card."""
    mask_take_missions(S, b, p, int(S[b]['trade_merchant']), mask)
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_take_mission(S, b, p, a):
    """The Take Missions step (L564): hero p takes Mission Card a - A_MISSION;
    after the first, a second if it wants (PH_TAKE_MISSION); then the
    commerce goes on."""
    s = S[b]
    if a == A_DO + DO_DONE:
        return commerce_menu(S, b, p)
    take_mission(S, b, p, a - A_MISSION)
    if s['missions_taken'] < 2 and any_takeable(S, b, p, int(s['trade_merchant'])):
        return pose(S, b, PH_TAKE_MISSION, p)
    return commerce_menu(S, b, p)


@rules_jit
def look_at_merchant(S, b, p, m):
    """L558: hero p looks at all the cards of Merchant m; it knows them from
    now on (until cards it has not seen join them). A Backpack Special card
    seen turns face up there (L960); a Cursed or Enchanted Treasure seen
    acts, a card from the pool taking its place (L1320, L1340). True where
    a Cursed Treasure's curse waits on his Dust of Destiny: the look runs
    again once it has applied (SEEN_MERCHANT), the replacement seen then."""
    s = S[b]
    s['merchant_looked'][p] = int(s['merchant_looked'][p]) | (1 << m)
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_MERCHANT and s['card_owner'][c] == m:
            if view_instant(S, b, p, c, SEEN_MERCHANT) == VIEW_POSED:
                return True
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_MERCHANT and s['card_owner'][c] == m and KIND_BACKPACK_SPECIAL[CARD_KIND[c]]:
            reveal_card(S, b, -1, c)
    return False


@rules_jit
def mask_sell(S, b, p, mask):
    """Legal actions of PH_SELL: A_CARD + c for each card hero p may sell;
    A_DO + DO_DONE ends the selling."""
    for c in range(NUM_CARDS):
        if sellable(S, b, p, c):
            mask[A_CARD + c] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_sell(S, b, p, a):
    """PH_SELL: sell that card and go on selling while there is any to sell."""
    if a == A_DO + DO_DONE:
        return commerce_menu(S, b, p)
    sell_card(S, b, p, int(S[b]['trade_merchant']), a - A_CARD)
    for c in range(NUM_CARDS):
        if sellable(S, b, p, c):
            return pose(S, b, PH_SELL, p)
    return commerce_menu(S, b, p)


@rules_jit
def sell_card(S, b, p, m, c):
    """L559, L914: the Merchant pays the card's base price and puts it with
    its stock, on sale at once. Heroes who knew that stock no longer know all
    of it (the card joins face down); the seller knows what it sold, a Spell
    Book's spells too (he read them while he held it, L1426)."""
    s = S[b]
    s['gold'][p] += card_price(S, b, c)
    if KIND_SPELLS[CARD_KIND[c]] > 0:
        s['spells_read'][c] = s['spells_read'][c] | np.uint8(1 << p)
    s['card_where'][c] = CW_MERCHANT
    s['card_owner'][c] = m
    s['card_slot'][c] = -1
    enforce_weight(S, b, p)                    # a sold treasure takes its cube with it (L1304)
    for q in range(MAX_HEROES):
        if q != p:
            s['merchant_looked'][q] = int(s['merchant_looked'][q]) & ~(1 << m)


@rules_jit
def mask_repair(S, b, p, mask):
    """Legal actions of PH_REPAIR: A_CARD + c for each damaged armour card hero
    p can pay to repair; A_DO + DO_DONE ends the repairs."""
    for c in range(NUM_CARDS):
        if repairable(S, b, p, c):
            mask[A_CARD + c] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_repair(S, b, p, a):
    """PH_REPAIR: repair that card and go on while another can be."""
    if a == A_DO + DO_DONE:
        return commerce_menu(S, b, p)
    repair_armor(S, b, p, a - A_CARD)
    for c in range(NUM_CARDS):
        if repairable(S, b, p, c):
            return pose(S, b, PH_REPAIR, p)
    return commerce_menu(S, b, p)


@rules_jit
def repair_armor(S, b, p, c):
    """L565: the Hero pays the repair price shown on the armour card (to the
    pool) and its pink Status Cube is removed."""
    s = S[b]
    s['gold'][p] -= KIND_REPAIR[CARD_KIND[c]]
    s['card_damaged'][c] = 0


@rules_jit
def buy_price(S, b, c, factor):
    """What the Merchant asks for card c at ``factor`` times its base price
    (3x, lowered by haggling, L560, L914, L997)."""
    return factor * card_price(S, b, c)


@rules_jit
def mask_buy(S, b, p, mask):
    """Legal actions of PH_BUY: A_STEP + STEP_PAY where hero p has the price;
    A_STEP + STEP_HAGGLE while the price is above 1x (L997); A_CARD + w to
    use his Writ of Redemption w for the 1x price (L1484); A_DO + DO_DONE to
    leave the card."""
    s = S[b]
    c = int(s['trade_card'])
    factor = int(s['trade_factor'])
    if buy_price(S, b, c, factor) <= s['gold'][p]:
        mask[A_STEP + STEP_PAY] = 1
    if factor > 1:
        mask[A_STEP + STEP_HAGGLE] = 1
        w = writ_held(S, b, p)
        if w >= 0:
            mask[A_CARD + w] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_buy(S, b, p, a):
    """PH_BUY: buy the card, haggle over it, use the Writ of Redemption (a
    one-time card, L916: it leaves the game and the price is 1x, L1484), or
    leave the card (it goes back to the Merchant, L999)."""
    s = S[b]
    if a >= A_CARD and a < A_CARD + NUM_CARDS:
        remove_card(S, b, a - A_CARD)
        s['trade_factor'] = 1
        return pose(S, b, PH_BUY, p)
    if a == A_STEP + STEP_PAY:
        return buy_card(S, b, p)
    if a == A_STEP + STEP_HAGGLE:
        return haggle(S, b, p)
    s['trade_card'] = 0
    s['trade_factor'] = 0
    return commerce_menu(S, b, p)


@rules_jit
def buy_card(S, b, p):
    """L560, L562: the Hero pays the price and takes the card, which it may
    equip at once (PH_RECEIVED); a bought Epic not revealed this game may be
    revealed for 1 LP and 5 Fame (L563)."""
    s = S[b]
    c = int(s['trade_card'])
    s['gold'][p] -= buy_price(S, b, c, int(s['trade_factor']))
    s['trade_card'] = 0
    s['trade_factor'] = 0
    receive_card(S, b, p, c)
    return place_received(S, b)



@rules_jit
def haggle_number(S, b, p, m):
    """L989: the icons of the attributes Merchant m respects on hero p's
    Lineage and Class Cards (both attributes of a Merchant respecting two,
    Interpretations). L991: an Outlaw (any number of Outlaw Tokens) has one
    icon less with a Merchant respecting only Wisdom and one more with one
    respecting only Cunning; the number is never below 0. The Misfortune
    curse takes one from each attribute (data/curses.txt), never below 0;
    the Charm spell adds two to each (L1592)."""
    n = 0
    kinds = 0
    unlucky = 1 if curse_held(S, b, p, CURSE_MISFORTUNE) else 0
    charm = CHARM_BONUS if charmed(S, b, p) else 0
    for a in range(MERCHANT_RESPECT.shape[1]):
        if MERCHANT_RESPECT[m, a]:
            n += max(hero_attribute(S, b, p, a) + charm - unlucky, 0)
            kinds += 1
    if S[b]['outlaw'][p] > 0 and kinds == 1:
        if MERCHANT_RESPECT[m, ATTR_WISDOM]:
            n -= 1
        elif MERCHANT_RESPECT[m, ATTR_CUNNING]:
            n += 1
    return max(n, 0)


@rules_jit
def haggle(S, b, p):
    """L993-L997: roll the two Haggle Dice. A closed door on either fails and
    shuts the Merchant's doors to the Hero until next turn: the Trade Action
    ends. A highest number above the haggle number fails and ends the Trade
    Action. Otherwise the price factor drops by one and the Hero may haggle
    again. A card not bought goes back to the Merchant (L999)."""
    s = S[b]
    m = int(s['trade_merchant'])
    first = int(HAGGLE_FACE[roll(S, b, HAGGLE_FACE.shape[0])])
    second = int(HAGGLE_FACE[roll(S, b, HAGGLE_FACE.shape[0])])
    start_roll(S, b, ROLL_HAGGLE, HAGGLE_DICE, HAGGLE_FACE.shape[0], haggle_number(S, b, p, m), first, second)
    s['roll_party'][0] = p
    if any_reroll(S, b, p):                                      # L1330: the Dust of Destiny on a failed haggle
        return pose(S, b, PH_REROLL, p)
    return haggle_result(S, b, p)


@rules_jit
def haggle_result(S, b, p):
    """The Haggle Dice (``roll_dice``, rerolls made) against the haggle
    number (``roll_target``) apply (L995-L997)."""
    s = S[b]
    m = int(s['trade_merchant'])
    number = int(s['roll_target'])
    door = False
    high = 0
    for i in range(HAGGLE_DICE):
        f = int(s['roll_dice'][i])
        if f == HAGGLE_DOOR:
            door = True
        elif f > high:
            high = f
    end_roll(S, b)
    if door:
        if s['closed_turn'][p] != s['turn']:
            s['merchant_closed'][p] = 0
            s['closed_turn'][p] = s['turn']
        s['merchant_closed'][p] = int(s['merchant_closed'][p]) | (1 << m)
        return end_trade(S, b)
    if high > number:
        return end_trade(S, b)
    s['trade_factor'] -= 1
    return pose(S, b, PH_BUY, p)
