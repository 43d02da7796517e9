"""Items and Treasures on the Hero Board: equipping (L964-L981), the
Position banners (L936-L960), weight (L920, L976), and the starting
equipment of a new hero (L201, L823).

A hero's card is equipped at an equip target (``card_slot``: one position,
or both of head and chest, both weapon or both hand positions) or lies face
down in the backpack (T_BACKPACK). Armour damage, repair and the cards'
special effects come with combat, trade and the next part.
"""
import numpy as np

from dragongym.envs.core.jit import local_array, local_zeros, rules_jit
from ..constants import (
    CUBE_MAGIC, CUBE_MIGHT, CW_DECK, CW_HERO, DECK_ITEM, NUM_CARDS, NUM_COLOURS, NUM_CUBE_KINDS, NUM_TARGETS,
    T_BACKPACK, T_MISC1, T_MISC2, T_MISC3, T_MISC4,
)
from .base import (
    roll, vapor, shifted, AIM_HERO, CARD_IDS, SPELL_CARDS_OF, SP_FLOATING_DISK, ATTRIBUTE_KINDS, CARD_DECK, CARD_KIND, GIFT_KINDS, KIND_ATTRIBUTE, KIND_CARD_END,
    KIND_CARD_FIRST, KIND_GIVES, KIND_POSITION, KIND_PRICE, KIND_SHIELD, KIND_WEAPON, KIND_WEIGHT,
    TARGET_COVERS, TARGET_OK, CLASS_ATTR, LINEAGE_ATTR, HEAL_HEART,
)


@rules_jit
def healthy_might(S, b, p):
    return int(S[b]['cubes'][p, 0, CUBE_MIGHT])


@rules_jit
def equipped(S, b, p, c):
    """Card c is one of p's, face up on the board (not in the backpack)."""
    s = S[b]
    return s['card_where'][c] == CW_HERO and s['card_owner'][c] == p and s['card_slot'][c] < T_BACKPACK


SLOT_OVERLAP = np.array([[bool((TARGET_COVERS[t] & TARGET_COVERS[u]).any()) for u in range(NUM_TARGETS)]
                         for t in range(NUM_TARGETS)], dtype=np.bool_)
"""SLOT_OVERLAP[t, u]: targets t and u share a board position, so a card put
at t unequips the card at u (L973). The backpack overlaps nothing."""


BELT_OF_EXPANSION = CARD_IDS.index("belt_of_expansion")


@rules_jit
def misc_target(t):
    """Equip target t is a miscellaneous position (L956, L1302)."""
    return t == T_MISC1 or t == T_MISC2 or t == T_MISC3 or t == T_MISC4


@rules_jit
def belted(S, b, p):
    """Hero p wears the Belt of Expansion: two more miscellaneous positions
    (L1302). Worn is enough: the positions are on his board even while his
    possessions are inactive (L1536)."""
    return kind_worn(S, b, p, BELT_OF_EXPANSION) > 0


@rules_jit
def floating(S, b, p):
    """A Floating Disk lies on hero p: any number of active treasures in his
    miscellaneous positions (L1514)."""
    s = S[b]
    for i in range(SPELL_CARDS_OF.shape[1]):
        sp = SPELL_CARDS_OF[SP_FLOATING_DISK, i]
        if sp >= 0 and s['spell_on'][sp] == AIM_HERO + p:
            return True
    return False


@rules_jit
def stacks(S, b, p, c, target, u):
    """Under a Floating Disk, p's treasure c equipped at miscellaneous
    ``target`` lies beside his treasure u in a miscellaneous position
    instead of unequipping it (L1514; items are not treasures)."""
    s = S[b]
    return misc_target(target) and misc_target(s['card_slot'][u]) and CARD_DECK[c] != DECK_ITEM \
        and CARD_DECK[u] != DECK_ITEM and floating(S, b, p)


@rules_jit
def slot_occupants(S, b, p, occ):
    """occ[t] = p's card equipped at target t, or -1, for every t below
    T_BACKPACK (an equipped card fills its target alone, so one card each).
    The equipping checks read this table instead of scanning every card."""
    s = S[b]
    for t in range(T_BACKPACK):
        occ[t] = -1
    for u in range(NUM_CARDS):
        if equipped(S, b, p, u):
            occ[s['card_slot'][u]] = u


@rules_jit
def displaced_by(S, b, p, c, target, u):
    """Equipping c at ``target`` would unequip p's card u (it fills one of
    the positions the target covers, L973)."""
    s = S[b]
    if u == c or not equipped(S, b, p, u):
        return False
    return SLOT_OVERLAP[target, s['card_slot'][u]] and not stacks(S, b, p, c, target, u)


@rules_jit
def displaced_count(c, target, occ):
    """How many of the cards in ``occ`` equipping c at ``target`` unequips."""
    n = 0
    for sl in range(T_BACKPACK):
        u = occ[sl]
        if u >= 0 and u != c and SLOT_OVERLAP[target, sl]:
            n += 1
    return n


@rules_jit
def target_legal(S, b, p, c, target):
    """Hero p may put its card c at ``target`` (L970-L976): the backpack
    always; a position matching the card's banner, if p has the healthy
    Might Cubes for its weight, and without a second weapon or a second
    shield among the cards that stay equipped."""
    k = int(CARD_KIND[c])
    if target == T_BACKPACK:
        return True
    if not TARGET_OK[KIND_POSITION[k], target] or KIND_WEIGHT[k] > healthy_might(S, b, p):
        return False
    if (target == T_MISC3 or target == T_MISC4) and not belted(S, b, p):
        return False
    if not (KIND_WEAPON[k] or KIND_SHIELD[k]):
        return True                              # the other equipped cards do not matter
    occ = local_array(T_BACKPACK, np.int64)
    slot_occupants(S, b, p, occ)
    return target_legal_at(S, b, p, c, target, occ)


@rules_jit
def target_legal_at(S, b, p, c, target, occ):
    """``target_legal`` with p's ``slot_occupants`` table already made."""
    k = int(CARD_KIND[c])
    if target == T_BACKPACK:
        return True
    if not TARGET_OK[KIND_POSITION[k], target]:
        return False
    if KIND_WEIGHT[k] > healthy_might(S, b, p):
        return False
    if (target == T_MISC3 or target == T_MISC4) and not belted(S, b, p):
        return False
    if KIND_WEAPON[k] or KIND_SHIELD[k]:
        for sl in range(T_BACKPACK):
            u = occ[sl]
            if u >= 0 and u != c and not SLOT_OVERLAP[target, sl]:
                ku = int(CARD_KIND[u])
                if (KIND_WEAPON[k] and KIND_WEAPON[ku]) or (KIND_SHIELD[k] and KIND_SHIELD[ku]):
                    return False
    return True


@rules_jit
def equip_card(S, b, p, c, target):
    """Put p's card c at ``target``; the cards in the positions it fills go
    face down to the backpack (L971, L973). An equipped card is face up: its
    first reveal may earn the Epic reward (L534)."""
    s = S[b]
    if target != T_BACKPACK:
        for u in range(NUM_CARDS):
            if displaced_by(S, b, p, c, target, u):
                s['card_slot'][u] = T_BACKPACK
    s['card_slot'][c] = target
    if target != T_BACKPACK:
        reveal_card(S, b, p, c)
    enforce_weight(S, b, p)


@rules_jit
def enforce_weight(S, b, p):
    """L920, L976: an equipped card heavier than the hero's healthy Might
    Cubes goes to the backpack at once. The cubes and Hearts equipped cards
    give follow what is equipped first (``settle_gifts``): a Might Cube lost
    with the Belt of the Beast may unequip armour in turn, so both are
    settled until nothing changes (L1304)."""
    s = S[b]
    while True:
        changed = settle_gifts(S, b, p) or settle_positions(S, b, p)
        might = healthy_might(S, b, p)
        for c in range(NUM_CARDS):
            if equipped(S, b, p, c) and KIND_WEIGHT[CARD_KIND[c]] > might:
                s['card_slot'][c] = T_BACKPACK
                changed = True
        if not changed:
            return


@rules_jit
def settle_positions(S, b, p):
    """Hero p's cards stay only in positions he has: the Belt of Expansion's
    two when it is no longer worn (L1302); one card a miscellaneous position
    when no Floating Disk lies on him (L1514). The cards beyond go to the
    backpack, the highest card numbers first (Interpretations, "Positions
    lost"). True if anything moved."""
    s = S[b]
    belt = belted(S, b, p)
    disk = floating(S, b, p)
    changed = False
    seen = 0
    for c in range(NUM_CARDS):
        if not equipped(S, b, p, c):
            continue
        t = int(s['card_slot'][c])
        if (t == T_MISC3 or t == T_MISC4) and not belt:
            s['card_slot'][c] = T_BACKPACK
            changed = True
        elif misc_target(t) and not disk:
            if (seen >> t) & 1:
                s['card_slot'][c] = T_BACKPACK
                changed = True
            seen |= 1 << t
    return changed


@rules_jit
def possessions_inactive(S, b, p):
    """Hero p's possessions are inactive where they lie: he is vapor (L1536),
    or Shape Shifted (L1566)."""
    return vapor(S, b, AIM_HERO + p) or shifted(S, b, p)


@rules_jit
def kind_equipped(S, b, p, kind):
    """How many cards of ``kind`` hero p has equipped and acting (face up,
    L932: a permanent treasure acts while equipped; none while his
    possessions are inactive, L1536)."""
    if possessions_inactive(S, b, p):
        return 0
    return kind_worn(S, b, p, kind)


@rules_jit
def kind_worn(S, b, p, kind):
    """How many cards of ``kind`` hero p has equipped (face up), acting or not."""
    n = 0
    for c in range(KIND_CARD_FIRST[kind], KIND_CARD_END[kind]):
        if equipped(S, b, p, c):
            n += 1
    return n


@rules_jit
def settle_gifts(S, b, p):
    """Make p's ``gift_cubes`` match his equipped cards (KIND_GIVES: Belt of
    the Beast, L1304; the Epic Magic Cube treasures, L1332-L1474): a card no
    longer equipped takes its cube back, a wounded one where the hero has one
    of that kind, and keeps it so (``gift_wounded``); a card equipped adds its
    cube, healthy unless it kept it wounded -- so unequipping and equipping a
    card again (Adjust Equipment, L773) heals nothing (Interpretations, "Cubes
    a treasure gives"). True if anything changed."""
    s = S[b]
    want = local_zeros(NUM_CUBE_KINDS, np.int64)
    for i in range(GIFT_KINDS.shape[0]):
        k = int(GIFT_KINDS[i])
        want[KIND_GIVES[k]] += kind_worn(S, b, p, k)          # inactive, still there (L1536)
    changed = False
    for g in range(NUM_CUBE_KINDS):
        while s['gift_cubes'][p, g] < want[g]:
            s['cubes'][p, 1 if s['gift_wounded'][g] else 0, g] += 1
            s['gift_wounded'][g] = 0
            s['gift_cubes'][p, g] += 1
            changed = True
        while s['gift_cubes'][p, g] > want[g]:
            box = 1 if s['cubes'][p, 1, g] > 0 else 0
            s['cubes'][p, box, g] -= 1
            s['gift_wounded'][g] = box
            s['gift_cubes'][p, g] -= 1
            changed = True
    return changed


@rules_jit
def hero_attribute(S, b, p, a):
    """Hero p's icons of attribute a (ATTR_*) on its Lineage and Class Cards,
    the sides up (L351, L989, L1081, L1236), and one more for each equipped
    card adding it (L1294, L1316, L1420)."""
    s = S[b]
    return int(LINEAGE_ATTR[s['hero_lineage'][p], s['lineage_side'][p], a]) + \
        int(CLASS_ATTR[s['hero_class'][p], s['class_side'][p], a]) + attribute_bonus(S, b, p, a)


@rules_jit
def attribute_bonus(S, b, p, a):
    """Icons of attribute a (ATTR_*) p's equipped cards add (the Bauble of
    Intelligence, the Charismatic Gemstone, the Sparkler of Wisdom; L1294,
    L1316, L1420)."""
    return kinds_equipped(S, b, p, ATTRIBUTE_KINDS, KIND_ATTRIBUTE, a)


@rules_jit
def kinds_equipped(S, b, p, kinds, table, value):
    """How many cards p has equipped of the ``kinds`` whose ``table`` entry
    (a KIND_* power table) is ``value``."""
    n = 0
    for i in range(kinds.shape[0]):
        k = int(kinds[i])
        if table[k] == value:
            n += kind_equipped(S, b, p, k)
    return n


@rules_jit
def first_free_target(S, b, p, c):
    """The first target (in T_* order) where p may equip c without
    unequipping another card, else T_BACKPACK."""
    occ = local_array(T_BACKPACK, np.int64)
    slot_occupants(S, b, p, occ)
    for t in range(NUM_TARGETS):
        if t != T_BACKPACK and target_legal_at(S, b, p, c, t, occ) and displaced_count(c, t, occ) == 0:
            return t
    return T_BACKPACK


@rules_jit
def take_starting_item(S, b, p, kind):
    """L201: the hero takes an Item Card of ``kind`` from the items and
    equips it (the first free matching position it may use; the backpack
    where none is, or its weight is too much). L823: with none left, the hero gets its base price
    in Gold instead."""
    s = S[b]
    for c in range(NUM_CARDS):
        if CARD_KIND[c] == kind and CARD_DECK[c] == DECK_ITEM and s['card_where'][c] == CW_DECK:
            s['card_where'][c] = CW_HERO
            s['card_owner'][c] = p
            s['card_slot'][c] = T_BACKPACK
            equip_card(S, b, p, c, first_free_target(S, b, p, c))
            return
    s['gold'][p] += KIND_PRICE[kind]


@rules_jit
def possesses(S, b, p, kind):
    """Hero p holds a card of ``kind`` (anywhere on its board or backpack),
    and his possessions act (L1536)."""
    s = S[b]
    if possessions_inactive(S, b, p):
        return False
    for c in range(KIND_CARD_FIRST[kind], KIND_CARD_END[kind]):
        if s['card_where'][c] == CW_HERO and s['card_owner'][c] == p:
            return True
    return False


@rules_jit
def wound_random_cube(S, b, p):
    """Move one random healthy Action Cube (Hearts included, L408) of p to
    the wounded box; a card now too heavy drops to the backpack (L976)."""
    k = random_cube(S, b, p)
    if k >= 0:
        wound_cube(S, b, p, k)


@rules_jit
def random_cube(S, b, p):
    """One of hero p's healthy Action Cubes (Hearts included, L408) drawn at
    random, each cube alike: HEAL_HEART for a Heart, else its kind
    (CUBE_*); -1 when he has none."""
    s = S[b]
    n = int(s['hearts'][p, 0])
    for k in range(CUBE_MAGIC + NUM_COLOURS):
        n += int(s['cubes'][p, 0, k])
    if n == 0:
        return -1
    pick = roll(S, b, n)
    if pick < s['hearts'][p, 0]:
        return HEAL_HEART
    pick -= int(s['hearts'][p, 0])
    for k in range(CUBE_MAGIC + NUM_COLOURS):
        if pick < s['cubes'][p, 0, k]:
            return k
        pick -= int(s['cubes'][p, 0, k])
    return -1


@rules_jit
def cube_kinds(S, b, p):
    """The kinds among hero p's healthy Action Cubes, Hearts counting as one
    (what a random cube may turn out to be)."""
    s = S[b]
    n = 1 if s['hearts'][p, 0] > 0 else 0
    for k in range(CUBE_MAGIC + NUM_COLOURS):
        if s['cubes'][p, 0, k] > 0:
            n += 1
    return n


@rules_jit
def wound_cube(S, b, p, k):
    """One healthy cube of kind k (HEAL_HEART: a Heart) of hero p goes to the
    wounded box; a card now too heavy drops to the backpack (L976)."""
    s = S[b]
    if k == HEAL_HEART:
        s['hearts'][p, 0] -= 1
        s['hearts'][p, 1] += 1
        return
    s['cubes'][p, 0, k] -= 1
    s['cubes'][p, 1, k] += 1
    enforce_weight(S, b, p)


# ---------------------------------------------------------------- reveals and damaged armour (added by rules/trade.py)
from .base import KIND_ARMOR, KIND_EPIC  # noqa: E402


@rules_jit
def reveal_card(S, b, p, c):
    """Card c is shown face up: equipped, revealed from the backpack, or a
    Backpack Special card seen (L534, L908, L960). The first reveal of an
    Epic Treasure while hero p possesses it earns p 1 LP and 5 Fame, once per
    card per game (L534, L563); p = -1: seen where no hero holds it (a
    Merchant's stock, a Treasure Pile), which spends the reward unearned."""
    s = S[b]
    if s['card_revealed'][c]:
        return
    s['card_revealed'][c] = 1
    if p >= 0 and KIND_EPIC[CARD_KIND[c]]:
        s['lp'][p] += 1
        s['fame'][p] += 5


@rules_jit
def armor_damaged(S, b, c):
    """Armour card c carries the pink Status Cube of damage (L762, L565)."""
    return KIND_ARMOR[CARD_KIND[c]] > 0 and S[b]['card_damaged'][c] != 0


# ---------------------------------------------------------------- armour hit in combat (added by rules/combat.py)
from ..constants import CW_REMOVED as _CW_REMOVED  # noqa: E402


@rules_jit
def damage_armor(S, b, c, d):
    """L761-L763: a hit of damage d taken on armour card c. Above its armour
    value it is destroyed (removed from the game); equal to it, it is
    damaged (a pink Status Cube), or destroyed if it already was; below it,
    nothing happens to it."""
    s = S[b]
    value = int(KIND_ARMOR[CARD_KIND[c]])
    if d > value or (d == value and s['card_damaged'][c]):
        s['card_where'][c] = _CW_REMOVED
        s['card_owner'][c] = -1
        s['card_slot'][c] = -1
        s['card_damaged'][c] = 0
    elif d == value:
        s['card_damaged'][c] = 1


# ---------------------------------------------------------------- Spell Books and Scrolls (L1028, L1424-L1428)
from ..constants import NUM_SPELLS, SPW_ATTACHED, SPW_DECK  # noqa: E402
from .base import KIND_PRICED, KIND_SPELLS, SPELL_KIND, SPELL_PRICE  # noqa: E402


@rules_jit
def draw_spell(S, b):
    """A random Spell Card of the Spell deck, taken out of it; -1 if it is
    empty (the deck is shuffled once, L185: a draw is a random card)."""
    s = S[b]
    n = 0
    for sp in range(NUM_SPELLS):
        if s['spell_where'][sp] == SPW_DECK:
            n += 1
    if n == 0:
        return -1
    pick = roll(S, b, n)
    for sp in range(NUM_SPELLS):
        if s['spell_where'][sp] == SPW_DECK:
            if pick == 0:
                return sp
            pick -= 1
    return -1


@rules_jit
def attached_spells(S, b, c):
    """How many Spell Cards lie under card c (a Spell Book or Scroll)."""
    s = S[b]
    n = 0
    for sp in range(NUM_SPELLS):
        if s['spell_where'][sp] == SPW_ATTACHED and s['spell_owner'][sp] == c:
            n += 1
    return n


@rules_jit
def attach_spells(S, b, c):
    """L1424: a Spell Book or Scroll, revealed, gets the number of Spell Cards
    it shows drawn from the Spell deck face down under it. It is revealed to
    the Hero who gains it (its holder reads its spells, L1426) or by a Hero
    trading with the Merchant selling it (Interpretations); one already
    holding spells keeps them (L1028: they stay attached when it is bought or
    sold)."""
    s = S[b]
    want = int(KIND_SPELLS[CARD_KIND[c]])
    if want == 0 or attached_spells(S, b, c) > 0:
        return
    for _ in range(want):
        sp = draw_spell(S, b)
        if sp < 0:
            return
        s['spell_where'][sp] = SPW_ATTACHED
        s['spell_owner'][sp] = c


@rules_jit
def card_price(S, b, c):
    """Card c's base price: printed (L914), or for a Spell Book or Scroll the
    sum of the spells still attached to it (L1028, L1424)."""
    k = CARD_KIND[c]
    if KIND_PRICED[k]:
        return int(KIND_PRICE[k])
    s = S[b]
    total = 0
    for sp in range(NUM_SPELLS):
        if s['spell_where'][sp] == SPW_ATTACHED and s['spell_owner'][sp] == c:
            total += int(SPELL_PRICE[SPELL_KIND[sp]])
    return total


# ---------------------------------------------------------------- the DisEnchanter's tile (L1328; rules/treasures.py)
from ..constants import CARD_IDS, CLEARINGS_PER_TILE, CW_CLEARING, HS_ACTIVE  # noqa: E402

DISENCHANTER = CARD_IDS.index("disenchanter")


@rules_jit
def disenchanted_tile(S, b):
    """The Map Tile the DisEnchanter is in while revealed (L1328): its
    holder's (a Backpack Special card, always face up, L960) or the
    clearing's it lies face up in; -1 while it lies face down (a deck, a
    pile, a Merchant's stock) or nowhere on the map."""
    s = S[b]
    for c in range(KIND_CARD_FIRST[DISENCHANTER], KIND_CARD_END[DISENCHANTER]):
        w = int(s['card_where'][c])
        if w == CW_HERO:
            q = int(s['card_owner'][c])
            if s['hero_state'][q] == HS_ACTIVE and s['hero_clearing'][q] >= 0:
                return int(s['hero_clearing'][q]) // CLEARINGS_PER_TILE
        elif w == CW_CLEARING:
            return int(s['card_owner'][c]) // CLEARINGS_PER_TILE
    return -1
