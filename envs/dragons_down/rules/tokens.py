"""Tokens placed when a hero first enters a Map Tile (L485-L502): two
Civilization Tokens at a civilization tile's location, their Merchants
stocked (L487-L491); one Wilderness Token in a wilderness tile -- a Site
(a Treasure Site drawn from the Site Tokens), a numbered token (a Treasure
Site by name, a Gate), an Item, a Treasure, a Discovery, or the Forgotten
City / Dwarven Ruins with one more token from each Terrain Setup Card.

A face-down token is drawn at random from its pile when revealed, which
deals the same as drawing from a shuffled pile (Interpretations). A
Merchant lists Mission Cards from the Mission Deck (L184, L564), which is
shuffled from a chance stream of its own (``mission_roll``).
"""
import numpy as np

from dragongym.envs.core.jit import local_zeros, rules_jit
from dragongym.envs.core.rng import draw_below
from ..constants import (
    CLEARINGS_PER_TILE, CW_CLEARING, CW_DECK, CW_HERO, CW_MERCHANT, DECK_ITEM, DECK_TREASURE, MAX_HEROES, MW_DECK,
    MW_DISCARD, MW_HERO, MW_MERCHANT, MW_OUT, NUM_CARDS, NUM_CIV_TOKENS, NUM_MISSIONS, NUM_PACKS,
    NUM_WILD_TOKENS, T_PENDING, TILE_CIVILIZATION, TOK_PLACED, TOK_POOL, TOK_SPENT,
)
from .base import (
    CARD_DECK, CIV_TOKEN_MERCHANT, CIV_TOKEN_PACK, MERCHANT_PACK, MERCHANT_STOCK,
    MISSION_DIE_FAME, MISSION_DIE_GOLD, SITE_TOKEN_CLEARING, SITE_TOKEN_PACK, SITE_TOKEN_SITE,
    TILE_KIND, TILE_PACK, WILD_CLEARING, WILD_KIND, WILD_PACK, WILD_SITE, WK_DISCOVERY, WK_ITEM,
    WK_NUMBERED, WK_SITE, WK_SPECIAL, WK_TREASURE, roll, CARD_KIND, KIND_BACKPACK_SPECIAL, CIV_PACK, MISSION_PACK,
)
from .equipment import attach_spells, reveal_card


MAX_WILD_BUNDLES = 4 * NUM_PACKS
"""At most this many Wilderness Token draws one reveal sets off (the Forgotten City's
and the Dwarven Ruins' more tokens, one per Terrain Setup Card)."""

@rules_jit
def draw_card(S, b, deck):
    """A random card of ``deck`` (DECK_*), taken out of it; -1 if empty."""
    s = S[b]
    n = 0
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_DECK and CARD_DECK[c] == deck:
            n += 1
    if n == 0:
        return -1
    pick = roll(S, b, n)
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_DECK and CARD_DECK[c] == deck:
            if pick == 0:
                s['card_where'][c] = -1
                return c
            pick -= 1
    return -1


@rules_jit
def gain_card(S, b, p, c):
    """Hero p gains card c; it must at once choose to equip or stow it (L972):
    the card waits at T_PENDING for that decision (PH_GAINED). A Backpack
    Special card is always face up: seen as it is drawn, it is revealed at
    once (L532, L960), which may earn an Epic's reward (L534)."""
    s = S[b]
    s['card_where'][c] = CW_HERO
    s['card_owner'][c] = p
    s['card_slot'][c] = T_PENDING
    if KIND_BACKPACK_SPECIAL[CARD_KIND[c]]:
        reveal_card(S, b, p, c)
    attach_spells(S, b, c)                   # a Spell Book or Scroll is revealed to the Hero gaining it (L1424)


@rules_jit
def take_cards_lying_here(S, b, p, c):
    """L960: a hero entering clearing c at once takes possession of the
    Backpack Special cards lying face up there."""
    s = S[b]
    for k in range(s['card_where'].shape[0]):
        if s['card_where'][k] == CW_CLEARING and s['card_owner'][k] == c:
            gain_card(S, b, p, k)


@rules_jit
def reveal_tile(S, b, p, t):
    """L485: hero p enters tile t, which has no tokens yet: place them.
    p = -1: the set-up places them (Explore the Realm's centre tile, L129);
    its Merchants are filled once the Item deck exists (``stock_revealed_merchants``)."""
    s = S[b]
    if s['tile_revealed'][t]:
        return
    s['tile_revealed'][t] = 1
    if TILE_KIND[t] == TILE_CIVILIZATION:
        for _ in range(2):                                         # L489
            reveal_civ_token(S, b, int(s['civ_clearing'][TILE_PACK[t]]), 1 if p >= 0 else 0)
    else:
        reveal_wilderness(S, b, p, t)                               # L493


@rules_jit
def reveal_civ_token(S, b, c, stock):
    """L487-L491: a random Civilization Token of the pool is revealed in the
    location's clearing c; a newly revealed Merchant is stocked with the
    treasures and items its Terrain Setup Card lists -- now if ``stock``,
    else once the set-up has formed the Item deck (L206)."""
    s = S[b]
    n = 0
    for k in range(NUM_CIV_TOKENS):
        if s['civ_token_where'][k] == TOK_POOL and (s['packs'] >> CIV_TOKEN_PACK[k]) & 1:
            n += 1
    if n == 0:
        return
    pick = roll(S, b, n)
    for k in range(NUM_CIV_TOKENS):
        if s['civ_token_where'][k] == TOK_POOL and (s['packs'] >> CIV_TOKEN_PACK[k]) & 1:
            if pick == 0:
                s['civ_token_where'][k] = TOK_PLACED
                s['civ_token_clearing'][k] = c
                m = int(CIV_TOKEN_MERCHANT[k])
                if m >= 0 and stock:
                    stock_merchant(S, b, m)
                return
            pick -= 1


@rules_jit
def stock_revealed_merchants(S, b):
    """L129, L206, L491: the Merchants whose Civilization Tokens the set-up
    revealed (Explore the Realm's centre tile) are filled from the piles once
    the heroes have taken their starting equipment and the remaining Item
    Cards form the Item deck -- not before, so no Merchant holds a starting
    item a hero is due."""
    s = S[b]
    for k in range(NUM_CIV_TOKENS):
        m = int(CIV_TOKEN_MERCHANT[k])
        if s['civ_token_where'][k] == TOK_PLACED and m >= 0:
            stock_merchant(S, b, m)


@rules_jit
def stock_merchant(S, b, m):
    """L491: fill Merchant m with its treasures, items and missions."""
    s = S[b]
    side = int(s['setup_side'][MERCHANT_PACK[m]])
    for i in range(2):
        deck = DECK_TREASURE if i == 0 else DECK_ITEM
        for _ in range(int(MERCHANT_STOCK[m, side, i])):
            c = draw_card(S, b, deck)
            if c >= 0:
                s['card_where'][c] = CW_MERCHANT
                s['card_owner'][c] = m
                s['card_slot'][c] = -1
    list_missions(S, b, m)


# ================================================================ the Mission Deck (L184, L564)
MISSION_STREAM = np.uint64(0x6D697373696F6E73)
"""Salt naming the Mission Deck's chance stream: its shuffles and the
Civilization Cards' sides draw from the game's seed through a counter of
their own (``mission_draws``), so the rest of the game's chance is what it
would be without them."""


@rules_jit
def mission_roll(S, b, n):
    """The Mission Deck stream's next draw, uniform on 0..n-1."""
    s = S[b]
    x = draw_below(np.uint64(s['seed']) ^ MISSION_STREAM, int(s['mission_draws']), n)
    s['mission_draws'] += 1
    return x


@rules_jit
def deal_civilization_cards(S, b):
    """L180, L184: each Civilization Card of a pack in play lies random side
    up; the Mission Cards of the packs in play are shuffled into one Mission
    Deck, the rest are out of the game."""
    s = S[b]
    for k in range(s['civ_side'].shape[0]):
        s['civ_side'][k] = mission_roll(S, b, 2) if (s['packs'] >> CIV_PACK[k]) & 1 else -1
    for k in range(NUM_MISSIONS):
        s['mission_owner'][k] = -1
        s['mission_order'][k] = -1
        s['mission_where'][k] = MW_DISCARD if (s['packs'] >> MISSION_PACK[k]) & 1 else MW_OUT
    shuffle_mission_deck(S, b)


@rules_jit
def shuffle_mission_deck(S, b):
    """L564: the discard pile is shuffled into a new Mission Deck."""
    s = S[b]
    n = 0
    for k in range(NUM_MISSIONS):
        if s['mission_where'][k] == MW_DISCARD:
            s['mission_where'][k] = MW_DECK
            s['mission_order'][k] = -1
            n += 1
    for i in range(n):                    # each place from the top to a random card not yet placed
        pick = mission_roll(S, b, n - i)
        for k in range(NUM_MISSIONS):
            if s['mission_where'][k] == MW_DECK and s['mission_order'][k] < 0:
                if pick == 0:
                    s['mission_order'][k] = i
                    break
                pick -= 1


@rules_jit
def draw_mission(S, b):
    """The Mission Deck's top card, taken out of it; an empty deck is first
    rebuilt from the discards (L564). -1 if there is none."""
    top = deck_top(S, b)
    if top < 0:
        shuffle_mission_deck(S, b)
        top = deck_top(S, b)
    if top >= 0:
        S[b]['mission_order'][top] = -1
    return top


@rules_jit
def deck_top(S, b):
    """The Mission Deck's top card (the lowest place); -1 when it is empty."""
    s = S[b]
    top = -1
    for k in range(NUM_MISSIONS):
        if s['mission_where'][k] == MW_DECK and (top < 0 or s['mission_order'][k] < s['mission_order'][top]):
            top = k
    return top


@rules_jit
def list_missions(S, b, m):
    """L564: Merchant m is given Mission Cards until it lists as many as its
    Terrain Setup Card shows; with no card left anywhere, it lists fewer. A
    card joining it is one the heroes who looked there have not seen (L558)."""
    s = S[b]
    side = int(s['setup_side'][MERCHANT_PACK[m]])
    n = 0
    for k in range(NUM_MISSIONS):
        if s['mission_where'][k] == MW_MERCHANT and s['mission_owner'][k] == m:
            n += 1
    while n < MERCHANT_STOCK[m, side, 2]:
        k = draw_mission(S, b)
        if k < 0:
            return
        s['mission_where'][k] = MW_MERCHANT
        s['mission_owner'][k] = m
        n += 1
        for p in range(MAX_HEROES):
            s['merchant_looked'][p] = int(s['merchant_looked'][p]) & ~(1 << m)


@rules_jit
def refill_missions(S, b):
    """L564: at the end of a hero's turn every Merchant on the map is
    refilled to its listed missions."""
    s = S[b]
    for k in range(NUM_CIV_TOKENS):
        m = int(CIV_TOKEN_MERCHANT[k])
        if m >= 0 and s['civ_token_where'][k] == TOK_PLACED:
            list_missions(S, b, m)


@rules_jit
def discard_mission_card(S, b, k):
    """Mission Card k goes face up onto the discard pile (L1071)."""
    s = S[b]
    s['mission_where'][k] = MW_DISCARD
    s['mission_owner'][k] = -1


@rules_jit
def discard_missions_of(S, b, p):
    """Hero p leaves play: his Mission Cards are discarded, no reward or
    penalty applying (L805; Interpretations)."""
    s = S[b]
    for k in range(NUM_MISSIONS):
        if s['mission_where'][k] == MW_HERO and s['mission_owner'][k] == p:
            discard_mission_card(S, b, k)


@rules_jit
def has_looked(S, b, p, m):
    """Hero p knows Merchant m's cards (L558)."""
    return (int(S[b]['merchant_looked'][p]) >> m) & 1 != 0


@rules_jit
def merchant_here(S, b, p, m):
    """Merchant m's Civilization Token lies in hero p's clearing (L489, L557)."""
    s = S[b]
    for k in range(NUM_CIV_TOKENS):
        if CIV_TOKEN_MERCHANT[k] == m and s['civ_token_where'][k] == TOK_PLACED \
                and s['civ_token_clearing'][k] == s['hero_clearing'][p]:
            return True
    return False


@rules_jit
def reveal_wilderness(S, b, p, t):
    """L493-L502: a Wilderness Token of the tile's pack is revealed in tile t
    for hero p; the Forgotten City or Dwarven Ruins gives 1 LP and 5 Fame and
    one more token from each Terrain Setup Card, each resolved the same way,
    in that tile (Interpretations)."""
    s = S[b]
    todo = local_zeros(MAX_WILD_BUNDLES, np.int64)
    todo[0] = TILE_PACK[t]
    n = 1
    while n > 0:
        n -= 1
        if reveal_wild_token(S, b, p, t, int(todo[n])) == WK_SPECIAL:   # L502
            s['lp'][p] += 1
            s['fame'][p] += 5
            for k in range(NUM_PACKS):
                if (s['packs'] >> k) & 1 and n < todo.shape[0]:
                    todo[n] = k
                    n += 1


@rules_jit
def reveal_wild_token(S, b, p, t, pack):
    """A random Wilderness Token of ``pack``'s setup card revealed in tile t
    and resolved for hero p (L495-L501); returns its kind (WK_*), or -1 if
    the pile is empty."""
    s = S[b]
    n = 0
    for w in range(NUM_WILD_TOKENS):
        if s['wild_where'][w] == TOK_POOL and WILD_PACK[w] == pack:
            n += 1
    if n == 0:
        return -1
    pick = roll(S, b, n)
    w = -1
    for k in range(NUM_WILD_TOKENS):
        if s['wild_where'][k] == TOK_POOL and WILD_PACK[k] == pack:
            if pick == 0:
                w = k
                break
            pick -= 1
    s['wild_where'][w] = TOK_PLACED
    s['wild_tile'][w] = t
    kind = int(WILD_KIND[w])
    base = t * CLEARINGS_PER_TILE
    if kind == WK_SITE:                                            # L497: a Site Token names the clearing
        place_site_token(S, b, t)
    elif kind == WK_NUMBERED or kind == WK_SPECIAL:                # L498
        s['wild_clearing'][w] = base + WILD_CLEARING[w]
        if WILD_SITE[w] >= 0:
            s['site_clearing'][WILD_SITE[w]] = base + WILD_CLEARING[w]
    elif kind == WK_ITEM or kind == WK_TREASURE:                   # L498-L499
        s['wild_where'][w] = TOK_SPENT
        c = draw_card(S, b, DECK_ITEM if kind == WK_ITEM else DECK_TREASURE)
        if c >= 0:
            gain_card(S, b, p, c)
    elif kind == WK_DISCOVERY:                                     # L501: two Mission Dice
        s['wild_where'][w] = TOK_SPENT
        for _ in range(2):
            f = roll(S, b, MISSION_DIE_GOLD.shape[0])
            s['gold'][p] += MISSION_DIE_GOLD[f]
            s['fame'][p] += MISSION_DIE_FAME[f]
    return kind


@rules_jit
def place_site_token(S, b, t):
    """L497: a random Site Token (of the packs in play) puts its Treasure
    Site in the clearing of tile t it names."""
    s = S[b]
    n = 0
    for k in range(s['site_token_where'].shape[0]):
        if s['site_token_where'][k] == TOK_POOL and (s['packs'] >> SITE_TOKEN_PACK[k]) & 1:
            n += 1
    if n == 0:
        return
    pick = roll(S, b, n)
    for k in range(s['site_token_where'].shape[0]):
        if s['site_token_where'][k] == TOK_POOL and (s['packs'] >> SITE_TOKEN_PACK[k]) & 1:
            if pick == 0:
                s['site_token_where'][k] = TOK_PLACED
                s['site_clearing'][SITE_TOKEN_SITE[k]] = t * CLEARINGS_PER_TILE + SITE_TOKEN_CLEARING[k]
                return
            pick -= 1
