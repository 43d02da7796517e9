"""Magic outside combat: Spell Cards, the starting spells, Learn, Enchant and
curses (L203-L205, L536-L547, L564-L580, L1014-L1028, L1099-L1107,
L1424-L1428).

A Spell Card is one physical card (``constants.SPELL_INSTANCES``) of the Hero
Starting Spell deck (never shuffled: a new hero picks from it face up, L203,
L1016) or of the Spell deck (shuffled, drawn at random under a Spell Book or
Scroll when it is revealed, L1424). ``spell_where`` / ``spell_owner`` say where
each is: set aside, in the deck, known by a hero, attached to a card, or
discarded. Casting in combat is ``spells.py``'s; which spells are in play,
and what ends them, is kept here (the parts below combat read them).

The Curse Table is ``data/curses.txt`` (a substitute: the Reference Card's back
is not printed, SUBSTITUTES.md): two instant curses (Teleport, Summon, L1103-
L1105) and four lasting ones, held as bits of ``curses`` until removed; each
lasting curse's effect is read where its rule is (``curse_held``).
"""
import numpy as np

from dragongym.envs.core.jit import local_array, rules_jit
from ..constants import (
    CARD_IDS, CLASS_IDS, MAX_AIMS, CLEARINGS_PER_TILE, CUBE_MAGIC, CW_HERO, HS_ACTIVE, HST_HIDDEN, MAX_HEROES, NUM_COLOURS,
    NUM_CURSES, NUM_PACKS, NUM_SPELLS, NUM_TILES, SPELL_DECK, SPELL_START, SPW_ATTACHED, SPW_KNOWN,
    SPW_START, T_PENDING, TW_PLACED, MON_TRAY, NUM_MONSTER_CHIPS,
)
from .base import (
    A_ANSWER, A_DISPEL, ANSWER_ACCEPT, PH_DISPEL_ASK, AIM_HERO, SPELL_CARDS_OF, DUR_COMBAT, DUR_PERMANENT, PERM_ACTIVE, LICH_VAPOR_ACTIVE, LICH_VAPOR_ON, SP_VAPOR_FORM, SP_SHAPE_SHIFT, shape_off, SP_CHARM, SP_FLOATING_DISK, SPELL_DURATION, A_DO, A_ENCHANT, A_SPELL, A_UNCURSE, BLACK_SYMBOL, CLEARING_TYPE, CURSE_INSTANT, CURSE_OF_ROLL,
    CURSE_SUMMON, CURSE_TELEPORT, CURSE_CLUMSINESS, CURSE_WEAKNESS, DO_DONE, GRAY_NUMBER, GRAY_SYMBOL, CLASS_SPELLS, LEARN_BOOK, LEARN_CURSE,
    LEARN_FACE, LINEAGE_SPELLS, PACK_WANDERER, PH_UNCURSE, REMOVE_PRICE, SPELL_COLOUR, SPELL_FROM, SPELL_KIND,
    TILE_KIND, TILE_LOCAL_SYMBOL, TILE_PACK, TILE_WILDERNESS, UNIVERSAL, CLEAR_NONE, d6, pose, roll,
    DEST_CURSE, ROLL_CURSE, ROLL_DESTINATION, ROLL_SUMMON, dust_roll,
)
from .equipment import attached_spells, disenchanted_tile, enforce_weight, kind_equipped
from .realm import enchant_tile
from .tokens import reveal_tile, take_cards_lying_here
from .activation import CHIP_KIND, summon
from .fate import in_civilization, remove_card

ENCHANT_ACTIONS = 3
"""Consecutive Enchant Actions that enchant a Map Tile (L572)."""
ENCHANTER = CLASS_IDS.index("enchanter")
RING_OF_THE_MAGI = CARD_IDS.index("ring_of_the_magi")
LEARN_LP, LEARN_FAME = 1, 5
"""A learned spell earns 1 LP and 5 Fame (L542, L1661)."""


# ================================================================ Magic Cubes and known spells
@rules_jit
def has_colour(S, b, p, colour):
    """Hero p possesses a Magic Cube of ``colour``, healthy or wounded
    (L538, L575); any Magic Cube for a universal spell (L1490)."""
    s = S[b]
    for k in range(NUM_COLOURS):
        if colour == UNIVERSAL or k == colour:
            if s['cubes'][p, 0, CUBE_MAGIC + k] + s['cubes'][p, 1, CUBE_MAGIC + k] > 0:
                return True
    return False


@rules_jit
def knows(S, b, p, kind, deck):
    """Hero p knows a spell of ``kind`` from ``deck`` (a hero may know the
    same spell once from each deck, L1016)."""
    s = S[b]
    for sp in range(NUM_SPELLS):
        if s['spell_where'][sp] == SPW_KNOWN and s['spell_owner'][sp] == p and \
                SPELL_KIND[sp] == kind and SPELL_FROM[sp] == deck:
            return True
    return False


# ================================================================ starting spells (L203-L205)
@rules_jit
def start_spells_owed(S, b, p):
    """Starting spells hero p has still to take: its Lineage and Class Cards'
    (L203, the Elf's L1200) less those it took."""
    s = S[b]
    li = int(s['hero_lineage'][p])
    ci = int(s['hero_class'][p])
    owed = int(LINEAGE_SPELLS[li, int(s['lineage_side'][p])]) + int(CLASS_SPELLS[ci, int(s['class_side'][p])])
    for sp in range(NUM_SPELLS):
        if s['spell_where'][sp] == SPW_KNOWN and s['spell_owner'][sp] == p and SPELL_FROM[sp] == SPELL_START:
            owed -= 1
    return owed


@rules_jit
def start_spell_offered(S, b, p, sp):
    """Spell Card sp is one hero p may take as a starting spell: in the Hero
    Starting Spell deck, of a colour of its Magic Cubes (L204), of a kind it
    has not taken, and the first such card of its kind (copies are alike)."""
    s = S[b]
    if s['spell_where'][sp] != SPW_START or not has_colour(S, b, p, int(SPELL_COLOUR[SPELL_KIND[sp]])):
        return False
    if knows(S, b, p, int(SPELL_KIND[sp]), SPELL_START):
        return False
    for other in range(sp):
        if s['spell_where'][other] == SPW_START and SPELL_KIND[other] == SPELL_KIND[sp]:
            return False
    return True


@rules_jit
def start_spell_due(S, b, p):
    """Hero p is to choose a starting spell now: it owes one and one is offered
    (when none of its colours is left it goes without, Interpretations)."""
    if start_spells_owed(S, b, p) <= 0:
        return False
    for sp in range(NUM_SPELLS):
        if start_spell_offered(S, b, p, sp):
            return True
    return False


@rules_jit
def mask_start_spell(S, b, p, mask):
    """Legal actions of PH_START_SPELL: A_SPELL + sp for each offered card."""
    for sp in range(NUM_SPELLS):
        if start_spell_offered(S, b, p, sp):
            mask[A_SPELL + sp] = 1


@rules_jit
def take_start_spell(S, b, p, sp):
    """L205: the chosen spell goes below the Hero Board, a known spell."""
    s = S[b]
    s['spell_where'][sp] = SPW_KNOWN
    s['spell_owner'][sp] = p


@rules_jit
def act_start_spell(S, b, p, a):
    take_start_spell(S, b, p, a - A_SPELL)
    return False


@rules_jit
def deal_start_spells(S, b, p):
    """The ``random_heroes`` option: the hero's starting spells are taken at
    random among those offered."""
    while start_spell_due(S, b, p):
        n = 0
        for sp in range(NUM_SPELLS):
            if start_spell_offered(S, b, p, sp):
                n += 1
        pick = roll(S, b, n)
        for sp in range(NUM_SPELLS):
            if start_spell_offered(S, b, p, sp):
                if pick == 0:
                    take_start_spell(S, b, p, sp)
                    break
                pick -= 1


# ================================================================ Learn (L536-L547)
@rules_jit
def learnable(S, b, p, sp):
    """Hero p may take the Learn Action on Spell Card sp: it lies under a Spell
    Book or Scroll p holds (L538), p has a Magic Cube of its colour, healthy
    or wounded (L538, L1426), and p does not know it from the Spell deck."""
    s = S[b]
    if s['spell_where'][sp] != SPW_ATTACHED:
        return False
    c = int(s['spell_owner'][sp])
    if s['card_where'][c] != CW_HERO or s['card_owner'][c] != p or s['card_slot'][c] == T_PENDING:
        return False
    kind = int(SPELL_KIND[sp])
    return has_colour(S, b, p, int(SPELL_COLOUR[kind])) and not knows(S, b, p, kind, SPELL_DECK)


@rules_jit
def mask_learn(S, b, p, mask):
    """Mark A_SPELL + sp for every spell hero p may try to learn (called by
    ``actions.mask_action``)."""
    for sp in range(NUM_SPELLS):
        if learnable(S, b, p, sp):
            mask[A_SPELL + sp] = 1


@rules_jit
def learn_action(S, b, p, sp):
    """The Learn Action (L540-L546): the two Learn Dice -- on consecutive
    Learn Actions on the same spell only the dice showing a blank or a curse
    are rolled again. They apply in ``learn_result`` (after a Dust of
    Destiny's reroll, ``actions.dust_learn``): a curse symbol fails and
    curses the hero (L543); two books learn the spell: it moves to the known
    spells, 1 LP and 5 Fame, and a Spell Book or Scroll left with no spell
    leaves the game (L542, L1428)."""
    s = S[b]
    s['actions_used'][p] += 1
    again = s['learn_spell'] == sp
    for i in range(2):
        if not again or s['learn_dice'][i] != LEARN_BOOK:
            s['learn_dice'][i] = LEARN_FACE[roll(S, b, LEARN_FACE.shape[0])]
    s['learn_spell'] = sp


@rules_jit
def learn_result(S, b, p, sp):
    """The Learn Dice of hero p's Learn Action for spell sp (``learn_dice``,
    rerolls made) apply (L542-L543): a curse rolls on the Curse Table at once,
    which may wait on his Dust of Destiny. True if a decision is posed."""
    s = S[b]
    if s['learn_dice'][0] == LEARN_CURSE or s['learn_dice'][1] == LEARN_CURSE:
        return curse_roll(S, b, p)
    if s['learn_dice'][0] == LEARN_BOOK and s['learn_dice'][1] == LEARN_BOOK:
        c = int(s['spell_owner'][sp])
        s['spell_where'][sp] = SPW_KNOWN
        s['spell_owner'][sp] = p
        s['lp'][p] += LEARN_LP
        s['fame'][p] += LEARN_FAME
        s['learn_spell'] = -1
        if attached_spells(S, b, c) == 0:
            remove_card(S, b, c)
    return False


# ================================================================ Enchant (L570-L580)
@rules_jit
def enchant_legal(S, b, p, colour, left):
    """Hero p, with ``left`` actions left, may take an Enchant Action with a
    Magic Cube of ``colour``: it possesses one (even wounded, L575); the first
    of the three needs three actions left in the turn (they are consecutive,
    L572), the next ones continue with the same colour. Never in the
    DisEnchanter's tile (L1328)."""
    s = S[b]
    if not has_colour(S, b, p, colour):
        return False
    if int(s['hero_clearing'][p]) // CLEARINGS_PER_TILE == disenchanted_tile(S, b):
        return False                                      # L1328: that tile may not be enchanted
    if s['enchant_done'] > 0:
        return colour == s['enchant_colour']
    return left >= enchant_actions(S, b, p)


@rules_jit
def enchant_actions(S, b, p):
    """Consecutive Enchant Actions hero p needs to enchant a tile: three
    (L572), one fewer for an Enchanter (Aura, L1218) and one fewer with the
    Ring of the Magi equipped (L1396); the two add up (Interpretations)."""
    n = ENCHANT_ACTIONS
    if S[b]['hero_class'][p] == ENCHANTER:
        n -= 1
    if kind_equipped(S, b, p, RING_OF_THE_MAGI) > 0:
        n -= 1
    return n


@rules_jit
def mask_enchant(S, b, p, mask, left):
    """Mark A_ENCHANT + colour for each legal Enchant Action (called by
    ``actions.mask_action``)."""
    for k in range(NUM_COLOURS):
        if enchant_legal(S, b, p, k, left):
            mask[A_ENCHANT + k] = 1


@rules_jit
def enchant_action(S, b, p, colour):
    """One Enchant Action; the third in a row enchants the hero's tile
    (L573-L577): it is flipped with its turn and everything on it kept
    (clearing k stays clearing k: both sides of a tile have the same
    clearings), and the Magic Cube on it is replaced by one of ``colour``."""
    s = S[b]
    s['actions_used'][p] += 1
    s['enchant_colour'] = colour
    s['enchant_done'] += 1
    if s['enchant_done'] < enchant_actions(S, b, p):
        return
    enchant_tile(S, b, int(s['hero_clearing'][p]) // CLEARINGS_PER_TILE, colour)
    end_enchant(S, b)


@rules_jit
def end_enchant(S, b):
    """The run of consecutive Enchant Actions is over (or broken by another
    action or the end of the hero's actions)."""
    s = S[b]
    s['enchant_done'] = 0
    s['enchant_colour'] = -1


@rules_jit
def end_learn(S, b):
    """The run of consecutive Learn Actions is over: the next learn rolls both dice."""
    s = S[b]
    s['learn_spell'] = -1
    s['learn_dice'][0] = 0
    s['learn_dice'][1] = 0


# ================================================================ curses (L1099-L1107)
@rules_jit
def curse_held(S, b, p, k):
    """Hero p holds lasting curse k."""
    return (S[b]['curses'][p] >> k) & 1 == 1


@rules_jit
def curse_matters(S, b, p, k):
    """Curse k, rolled on the Curse Table for hero p, would touch him: an
    instant one (L1103-L1105), or a lasting one he does not hold yet (curses
    are not cumulative, L1107). Only such a curse is worth a reroll."""
    return CURSE_INSTANT[k] != 0 or not curse_held(S, b, p, k)


@rules_jit
def foe_curse_serves(S, b, f, k):
    """Curse k, rolled on the Curse Table for foe f a hero's Curse spell hit
    (L1500), serves the caster: Teleport takes the foe out of the fight
    (where some clearing can be drawn); Clumsiness and Weakness change what
    it does in combat, unless it holds them already (L1107). Summon brings
    Wandering Monsters on the caster, and Sloth and Misfortune touch nothing
    a Monster does (Interpretations, "Curses on foes"): only those are worth
    rolling again for him."""
    if k == CURSE_TELEPORT:
        return destinations(S, b) > 0
    if k == CURSE_CLUMSINESS or k == CURSE_WEAKNESS:
        return (int(S[b]['foe_curses'][f]) >> k) & 1 == 0
    return False


@rules_jit
def curse_die(S, b):
    """A roll on the Curse Table (the d6, data/curses.txt): the curse it names."""
    return int(CURSE_OF_ROLL[d6(S, b) - 1])


@rules_jit
def viewed_curse(S, b, p, then):
    """A Cursed Treasure hero p saw curses him (L1320): he rolls on the Curse
    Table as ``curse_roll`` -- a curse that would touch him first waits on
    his Dust of Destiny (L1330: the roll is his, as its target), and so do
    the Teleport curse's clearing and the Summon curse's number. While one
    waits, ``seen_then`` (SEEN_*) says where the look that saw the card
    resumes once the curse has applied. True if a decision is posed."""
    s = S[b]
    s['seen_then'] = then
    if curse_roll(S, b, p):
        return True
    s['seen_then'] = -1
    return False


@rules_jit
def curse_roll(S, b, p):
    """Hero p rolls on the Curse Table (L543); a curse that would touch him
    first waits on his Dust of Destiny (ROLL_CURSE, L1330: the roll is his,
    as its target), and so does the Teleport curse's clearing. True if a
    decision is posed."""
    k = curse_die(S, b)
    if curse_matters(S, b, p, k) and dust_roll(S, b, ROLL_CURSE, 1, CURSE_OF_ROLL.shape[0], -1, -1, k, -1, p):
        return True
    return curse_applies(S, b, p, k, True)


@rules_jit
def curse_applies(S, b, p, k, wait):
    """Curse k of the Curse Table, rolled for hero p, applies: the Teleport
    curse puts him in a random clearing (L1103; ``wait``: the clearing, and
    the Summon curse's number, may wait on his Dust of Destiny), the others
    as ``curse_stays``. True if a decision is posed."""
    if k == CURSE_TELEPORT:
        return teleport_hero(S, b, p, wait)
    return curse_stays(S, b, p, k, wait)


@rules_jit
def curse_stays(S, b, p, k, wait):
    """Curse k, rolled for hero p, that does not move him: Summon brings
    Wandering Monsters to his clearing (L1105; with ``wait`` its die may
    wait on his Dust of Destiny); a lasting curse is marked, unless the hero
    holds it already -- curses are not cumulative and a repeat is not
    rerolled (L1107). True if a decision is posed."""
    s = S[b]
    if k == CURSE_SUMMON:
        return summon_curse(S, b, p, wait)
    if not CURSE_INSTANT[k]:
        s['curses'][p] = s['curses'][p] | np.uint8(1 << k)
    return False


@rules_jit
def teleport_destination(S, b):
    """L1103: the gray and black Summoning symbol dice and a d6, rerolled
    until they name a clearing of a Map Tile on the map: the gray die's
    Terrain Pack and the black die's tile symbol name a wilderness tile (each
    pack's wilderness tiles carry the symbols once each), the d6 its clearing.
    -1 when no wilderness tile is on the map (no roll could ever match)."""
    s = S[b]
    any_tile = False
    for t in range(NUM_TILES):
        if s['tile_where'][t] == TW_PLACED and TILE_KIND[t] == TILE_WILDERNESS and TILE_LOCAL_SYMBOL[t] > 0:
            any_tile = True
    if not any_tile:
        return -1
    while True:
        pack = int(GRAY_SYMBOL[roll(S, b, GRAY_SYMBOL.shape[0])])
        symbol = int(BLACK_SYMBOL[roll(S, b, BLACK_SYMBOL.shape[0])])
        k = d6(S, b) - 1
        if pack < 0 or pack >= NUM_PACKS or symbol <= 0:
            continue
        for t in range(NUM_TILES):
            if s['tile_where'][t] == TW_PLACED and TILE_KIND[t] == TILE_WILDERNESS and \
                    TILE_PACK[t] == pack and TILE_LOCAL_SYMBOL[t] == symbol and \
                    k < CLEARINGS_PER_TILE and CLEARING_TYPE[t, int(s['tile_side'][t]), k] != CLEAR_NONE:
                return t * CLEARINGS_PER_TILE + k


@rules_jit
def destinations(S, b):
    """Clearings the Teleport roll can name (``teleport_destination``): those
    of the wilderness tiles on the map whose Terrain Pack and tile symbol the
    Summoning symbol dice show, within the d6's six."""
    s = S[b]
    n = 0
    for t in range(NUM_TILES):
        if s['tile_where'][t] != TW_PLACED or TILE_KIND[t] != TILE_WILDERNESS or TILE_LOCAL_SYMBOL[t] <= 0:
            continue
        pack = False
        for i in range(GRAY_SYMBOL.shape[0]):
            pack = pack or GRAY_SYMBOL[i] == TILE_PACK[t]
        symbol = False
        for i in range(BLACK_SYMBOL.shape[0]):
            symbol = symbol or BLACK_SYMBOL[i] == TILE_LOCAL_SYMBOL[t]
        if pack and symbol:
            for k in range(CLEARINGS_PER_TILE):
                if CLEARING_TYPE[t, int(s['tile_side'][t]), k] != CLEAR_NONE:
                    n += 1
    return n


@rules_jit
def teleport_hero(S, b, p, wait):
    """The Teleport curse (L1103): the hero is put in a random clearing of the
    map (``teleport_arrives``). With ``wait``, the clearing drawn first waits
    on his Dust of Destiny (ROLL_DESTINATION, L1330). True if a decision is
    posed."""
    c = teleport_destination(S, b)
    if c < 0:
        return False
    if wait and dust_roll(S, b, ROLL_DESTINATION, 1, destinations(S, b), AIM_HERO + p, DEST_CURSE, c, -1, p):
        return True
    teleport_arrives(S, b, p, c)
    return False


@rules_jit
def teleport_arrives(S, b, p, c):
    """The Teleport curse puts hero p in clearing c: a tile new to heroes gets
    its tokens (L485) and face-up cards lying there are taken (L960)."""
    s = S[b]
    s['hero_clearing'][p] = c
    reveal_tile(S, b, p, c // CLEARINGS_PER_TILE)
    take_cards_lying_here(S, b, p, c)


SUMMON_FEWEST = int(GRAY_NUMBER.min())
"""The fewest Wandering Monsters the Summon curse's gray numbered die brings (L1105)."""


@rules_jit
def summon_curse(S, b, p, wait):
    """The Summon curse (L1105): the gray numbered die's number of Wandering
    Monsters of the hero's tile's Terrain Pack come to its clearing, even in
    a Civilization Map Tile. With ``wait``, a number bringing more of them
    than the die's fewest first waits on his Dust of Destiny (ROLL_SUMMON,
    L1330: he is the active Hero of the curse's roll). True if a decision is
    posed."""
    count = summon_die(S, b)
    if wait and summon_matters(S, b, p, count) and \
            dust_roll(S, b, ROLL_SUMMON, 1, GRAY_NUMBER.shape[0], -1, -1, count, -1, p):
        return True
    summon_wanderers(S, b, p, count)
    return False


@rules_jit
def summon_die(S, b):
    """The gray numbered die (L1105): the number of Wandering Monsters."""
    return int(GRAY_NUMBER[roll(S, b, GRAY_NUMBER.shape[0])])


@rules_jit
def summon_wanderers(S, b, p, count):
    """``count`` Wandering Monsters of the Terrain Pack of hero p's tile come
    to his clearing (the Summon curse, L1105, on him or on a foe his Curse
    spell hit), as many as the tray holds."""
    s = S[b]
    t = int(s['hero_clearing'][p]) // CLEARINGS_PER_TILE
    summon(S, b, t, int(PACK_WANDERER[TILE_PACK[t]]), count, p)


@rules_jit
def wanderers_free(S, b, p):
    """Wandering Monsters of the Terrain Pack of hero p's tile left in the
    tray (those the Summon curse could bring him)."""
    s = S[b]
    kind = int(PACK_WANDERER[TILE_PACK[int(s['hero_clearing'][p]) // CLEARINGS_PER_TILE]])
    n = 0
    for m in range(NUM_MONSTER_CHIPS):
        if CHIP_KIND[m] == kind and s['mon_clearing'][m] == MON_TRAY:
            n += 1
    return n


@rules_jit
def summon_matters(S, b, p, count):
    """The Summon curse's die showing ``count`` brings hero p more Wandering
    Monsters than its lowest face would (the tray's free chips bound both):
    only then may a reroll serve him -- the curse is a harm, its Monsters
    come to fight him (L1105)."""
    free = wanderers_free(S, b, p)
    return min(count, free) > min(SUMMON_FEWEST, free)


# ================================================================ removing curses by trade (L568)
MAX_REMOVALS = MAX_HEROES * NUM_CURSES + NUM_SPELLS
"""The most curses and permanent spells one Trade Action may offer to remove."""


@rules_jit
def curse_removable(S, b, p, q, k):
    """Hero p's Trade Action may remove hero q's curse k: p stands in a
    Civilization Location and has 5 Gold, q is p or an unhidden hero in the
    clearing (a willing one: no hero wants a curse, Interpretations) holding k."""
    s = S[b]
    if q >= s['num_players'] or not curse_held(S, b, q, k):
        return False
    return curse_removable_from(S, b, p, q)


@rules_jit
def spell_removable(S, b, p, sp):
    """Hero p's Trade Action may offer to remove permanent Spell Card sp
    (L568: "curses and permanent spells ... 5 Gold per ... permanent spell
    dispelled"): it lies on p, or on an unhidden hero in his clearing, and p
    stands in a Civilization Location with 5 Gold. Another hero is asked
    whether he is willing (PH_DISPEL_ASK)."""
    s = S[b]
    code = int(s['spell_on'][sp])
    if code < AIM_HERO or SPELL_DURATION[SPELL_KIND[sp]] != DUR_PERMANENT:
        return False
    q = code - AIM_HERO
    return curse_removable_from(S, b, p, q)


@rules_jit
def curse_removable_from(S, b, p, q):
    """Hero p's Trade Action may remove curses or permanent spells from hero
    q: p stands in a Civilization Location with 5 Gold, and q is p or an
    unhidden hero in his clearing (L568)."""
    s = S[b]
    if q >= s['num_players'] or s['hero_state'][q] != HS_ACTIVE:
        return False
    if s['gold'][p] < REMOVE_PRICE or not in_civilization(S, b, p):
        return False
    if q == p:
        return True
    return s['hero_clearing'][q] == s['hero_clearing'][p] and (s['hero_status'][q] & HST_HIDDEN) == 0


@rules_jit
def removable_curses(S, b, p, out, n):
    """Append A_UNCURSE + q * NUM_CURSES + k for each curse, and A_DISPEL +
    sp for each permanent spell, hero p's Trade Action may remove to ``out``
    from index n; returns the new count."""
    for q in range(MAX_HEROES):
        for k in range(NUM_CURSES):
            if curse_removable(S, b, p, q, k):
                out[n] = A_UNCURSE + q * NUM_CURSES + k
                n += 1
    for sp in range(NUM_SPELLS):
        if spell_removable(S, b, p, sp):
            out[n] = A_DISPEL + sp
            n += 1
    return n


@rules_jit
def dispel_spell(S, b, p, sp):
    """L568: hero p offers to remove permanent Spell Card sp: from himself he
    pays 5 Gold and it ends; another hero is first asked if he is willing
    (PH_DISPEL_ASK). True if a decision is posed."""
    s = S[b]
    q = int(s['spell_on'][sp]) - AIM_HERO
    if q != p:
        s['dispel_card'] = sp
        return pose(S, b, PH_DISPEL_ASK, q)
    s['gold'][p] -= REMOVE_PRICE
    end_spell(S, b, sp)
    return more_removals(S, b, p)


@rules_jit
def more_removals(S, b, p):
    """After a removal hero p may remove another in the same Trade Action
    (PH_UNCURSE). True if a decision is posed."""
    out = local_array(MAX_REMOVALS, np.int64)
    if removable_curses(S, b, p, out, 0) > 0:
        return pose(S, b, PH_UNCURSE, p)
    return False


@rules_jit
def mask_dispel_ask(S, b, p, mask):
    """Legal actions of PH_DISPEL_ASK: A_ANSWER + ANSWER_ACCEPT / ANSWER_REFUSE."""
    mask[A_ANSWER + ANSWER_ACCEPT] = 1
    mask[A_ANSWER + 1 - ANSWER_ACCEPT] = 1


@rules_jit
def act_dispel_ask(S, b, q, a):
    """PH_DISPEL_ASK: hero q, willing, lets the active hero pay 5 Gold to end
    the spell, who may then remove more; unwilling, the active hero's Trade
    Action is over (Interpretations, "Removing curses and spells")."""
    s = S[b]
    sp = int(s['dispel_card'])
    p = int(s['turn_order'][s['order_pos']])
    s['dispel_card'] = -1
    if a != A_ANSWER + ANSWER_ACCEPT:
        return False
    s['gold'][p] -= REMOVE_PRICE
    end_spell(S, b, sp)
    return more_removals(S, b, p)


@rules_jit
def remove_curse(S, b, p, a):
    """L568: hero p pays 5 Gold and the curse is removed; it may go on
    removing more in the same Trade Action (PH_UNCURSE). True if a decision
    is posed, False when the Trade Action is over."""
    s = S[b]
    if a >= A_DISPEL:
        return dispel_spell(S, b, p, a - A_DISPEL)
    i = a - A_UNCURSE
    q = i // NUM_CURSES
    k = i % NUM_CURSES
    s['gold'][p] -= REMOVE_PRICE
    s['curses'][q] = s['curses'][q] & np.uint8(0xFF ^ (1 << k))
    return more_removals(S, b, p)


@rules_jit
def mask_uncurse(S, b, p, mask):
    """Legal actions of PH_UNCURSE: A_UNCURSE + ... for each curse and A_DISPEL
    + sp for each permanent spell still removable, A_DO + DO_DONE to end the
    Trade Action."""
    out = local_array(MAX_REMOVALS, np.int64)
    n = removable_curses(S, b, p, out, 0)
    for i in range(n):
        mask[out[i]] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_uncurse(S, b, p, a):
    if a == A_DO + DO_DONE:
        return False
    return remove_curse(S, b, p, a)


# ================================================================ spells in play (L1040-L1065)
# A cast spell that lasts (combat, turn, permanent) is in play while its card's
# ``spell_on`` holds its target code (a foe's index, or AIM_HERO + q); the
# caster is the card's holder (``spell_owner``). Its effects are read where
# their rules are, through ``spell_on_target``; what ends it is here.
@rules_jit
def clear_cast(S, b, p):
    """Hero p casts nothing this round: no Spell Card, no cube on one, no
    further target (rules/spells.py)."""
    s = S[b]
    s['cast_card'][p] = -1
    s['cast_wound'][p] = -1
    s['cast_stage'][p] = 0
    s['cast_any'][p] = 0
    for k in range(NUM_COLOURS):
        s['cast_cubes'][p, k] = 0
    for i in range(MAX_AIMS - 1):
        s['more_targets'][p, i] = -1


@rules_jit
def spell_on_target(S, b, kind, code):
    """The Spell Card of ``kind`` in play on target ``code``; -1 none."""
    s = S[b]
    for i in range(SPELL_CARDS_OF.shape[1]):
        sp = SPELL_CARDS_OF[kind, i]
        if sp >= 0 and s['spell_on'][sp] == code:
            return sp
    return -1


@rules_jit
def hero_has_spell(S, b, p, kind):
    """A spell of ``kind`` is in play on hero p."""
    return spell_on_target(S, b, kind, AIM_HERO + p) >= 0


@rules_jit
def end_spell(S, b, sp):
    """Spell Card sp's spell ends: it expires or is broken, and its card is
    its caster's to cast again (L1058). A Floating Disk ending leaves its
    hero one card a miscellaneous position (L1514, ``settle_positions``)."""
    s = S[b]
    code = int(s['spell_on'][sp])
    s['spell_on'][sp] = -1
    s['spell_mark'][sp] = 0
    if SPELL_KIND[sp] == SP_FLOATING_DISK and code >= AIM_HERO:
        enforce_weight(S, b, code - AIM_HERO)
    if SPELL_KIND[sp] == SP_SHAPE_SHIFT and code >= AIM_HERO:
        shape_off(S, b, code - AIM_HERO)           # L1568: cancelled, the chip returns to the tray


@rules_jit
def end_spells_on(S, b, code):
    """Every spell on target ``code`` ends: it died or left the clearing for
    good (L1048, L1058), or Break Spells hit it (L1492) -- the Lich's Vapor
    Form on a hero too."""
    s = S[b]
    for sp in range(NUM_SPELLS):
        if s['spell_on'][sp] == code:
            end_spell(S, b, sp)
    if code >= AIM_HERO:
        s['lich_vapor'][code - AIM_HERO] = 0


@rules_jit
def permanents_on(S, b, code):
    """Target ``code`` bears a permanent spell (a card's, or the Lich's Vapor Form)."""
    s = S[b]
    for sp in range(NUM_SPELLS):
        if s['spell_on'][sp] == code and SPELL_DURATION[SPELL_KIND[sp]] == DUR_PERMANENT:
            return True
    return code >= AIM_HERO and s['lich_vapor'][code - AIM_HERO] != 0


@rules_jit
def end_permanents_on(S, b, code):
    """Every permanent spell on target ``code`` is broken (the Potion of
    Relief, L1388): the cards go back to their casters (L1058); the Lich's
    Vapor Form on a hero ends."""
    s = S[b]
    for sp in range(NUM_SPELLS):
        if s['spell_on'][sp] == code and SPELL_DURATION[SPELL_KIND[sp]] == DUR_PERMANENT:
            end_spell(S, b, sp)
    if code >= AIM_HERO:
        s['lich_vapor'][code - AIM_HERO] = 0


@rules_jit
def end_combat_spells(S, b, p, code):
    """Combat spells end when their caster or target is killed or evades
    (L1042): those hero p cast (p >= 0) and those on target ``code``
    (code >= 0)."""
    s = S[b]
    for sp in range(NUM_SPELLS):
        if s['spell_on'][sp] < 0 or SPELL_DURATION[SPELL_KIND[sp]] != DUR_COMBAT:
            continue
        mine = p >= 0 and s['spell_where'][sp] == SPW_KNOWN and s['spell_owner'][sp] == p
        if mine or (code >= 0 and s['spell_on'][sp] == code):
            end_spell(S, b, sp)


@rules_jit
def expire_spells(S, b, duration):
    """Every spell of ``duration`` in play ends: combat spells at the end of
    the combat (L1042), turn spells at the start of the next turn's battle
    phase (L1044)."""
    s = S[b]
    for sp in range(NUM_SPELLS):
        if s['spell_on'][sp] >= 0 and SPELL_DURATION[SPELL_KIND[sp]] == duration:
            end_spell(S, b, sp)


CHARM_BONUS = 2
"""Charm's +2 to every attribute in haggle attempts and mission rolls (L1592)."""


@rules_jit
def charmed(S, b, p):
    """Charm is on hero p this turn: +2 to every attribute for mission reward
    rolls and haggle attempts (L1592)."""
    return hero_has_spell(S, b, p, SP_CHARM)


# ================================================================ permanent spells (L1046-L1061, L695-L698)
@rules_jit
def target_tile(S, b, code):
    """The Map Tile where target ``code`` (a foe, or AIM_HERO + a hero) stands; -1."""
    s = S[b]
    if code >= AIM_HERO:
        c = int(s['hero_clearing'][code - AIM_HERO])
    elif code < s['mon_clearing'].shape[0]:
        c = int(s['mon_clearing'][code])
    else:
        c = int(s['native_clearing'][code - s['mon_clearing'].shape[0]])
    return c // CLEARINGS_PER_TILE if c >= 0 else -1


@rules_jit
def permanent_active(S, b, sp):
    """Spell Card sp is a permanent spell in play and active (L1048-L1053):
    cast or activated since the battle phase began, or its target in a tile
    enchanted with its colour."""
    s = S[b]
    if s['spell_on'][sp] < 0 or SPELL_DURATION[SPELL_KIND[sp]] != DUR_PERMANENT:
        return False
    return (s['spell_mark'][sp] & PERM_ACTIVE) != 0


@rules_jit
def enchant_permanents(S, b):
    """L577, L1051: an inactive permanent spell whose target stands in a tile
    enchanted with the spell's colour activates at once, at any time; run
    after every decision (``driver``)."""
    s = S[b]
    for sp in range(NUM_SPELLS):
        if s['spell_on'][sp] >= 0 and SPELL_DURATION[SPELL_KIND[sp]] == DUR_PERMANENT:
            t = target_tile(S, b, int(s['spell_on'][sp]))
            if t >= 0 and s['tile_enchant'][t] >= 0 and s['tile_enchant'][t] == SPELL_COLOUR[SPELL_KIND[sp]]:
                s['spell_mark'][sp] = s['spell_mark'][sp] | PERM_ACTIVE
    for p in range(MAX_HEROES):                                  # the Lich's Vapor Form (L1270): gray
        if s['lich_vapor'][p] & LICH_VAPOR_ON:
            t = target_tile(S, b, AIM_HERO + p)
            if t >= 0 and s['tile_enchant'][t] == SPELL_COLOUR[SP_VAPOR_FORM]:
                s['lich_vapor'][p] = s['lich_vapor'][p] | LICH_VAPOR_ACTIVE


@rules_jit
def deactivate_permanents(S, b):
    """L1055, L1602: active permanent spells turn inactive as the battle
    phase begins (those in an enchanted tile of their colour at once
    active again, ``enchant_permanents``)."""
    s = S[b]
    for sp in range(NUM_SPELLS):
        if s['spell_on'][sp] >= 0 and SPELL_DURATION[SPELL_KIND[sp]] == DUR_PERMANENT:
            s['spell_mark'][sp] = s['spell_mark'][sp] & ~PERM_ACTIVE
    for p in range(MAX_HEROES):
        s['lich_vapor'][p] = s['lich_vapor'][p] & LICH_VAPOR_ON
    enchant_permanents(S, b)


@rules_jit
def activatable(S, b, p, sp):
    """L695-L698: hero p may activate Spell Card sp in the Activation step:
    his, a permanent spell in play and inactive, not one affecting another
    hero, and he has a healthy Magic Cube of its colour to wound."""
    s = S[b]
    if s['spell_where'][sp] != SPW_KNOWN or s['spell_owner'][sp] != p or s['spell_on'][sp] < 0:
        return False
    if SPELL_DURATION[SPELL_KIND[sp]] != DUR_PERMANENT or s['spell_mark'][sp] & PERM_ACTIVE:
        return False
    t = int(s['spell_on'][sp])
    if t >= AIM_HERO and t != AIM_HERO + p:
        return False
    colour = int(SPELL_COLOUR[SPELL_KIND[sp]])
    return s['cubes'][p, 0, CUBE_MAGIC + colour] > 0


@rules_jit
def any_activatable(S, b, p):
    for sp in range(NUM_SPELLS):
        if activatable(S, b, p, sp):
            return True
    return False


@rules_jit
def mask_activate(S, b, p, mask):
    """Legal actions of PH_ACTIVATE: A_SPELL + sp for each spell p may
    activate; A_DO + DO_DONE."""
    for sp in range(NUM_SPELLS):
        if activatable(S, b, p, sp):
            mask[A_SPELL + sp] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_activate(S, b, p, a):
    """PH_ACTIVATE: a healthy Magic Cube of the spell's colour is wounded and
    the spell is active (L695); or p is done and the next hero is asked."""
    s = S[b]
    if a == A_DO + DO_DONE:
        s['activate_pos'] += 1
        return False
    sp = a - A_SPELL
    colour = int(SPELL_COLOUR[SPELL_KIND[sp]])
    s['cubes'][p, 0, CUBE_MAGIC + colour] -= 1
    s['cubes'][p, 1, CUBE_MAGIC + colour] += 1
    s['spell_mark'][sp] = s['spell_mark'][sp] | PERM_ACTIVE
    return False
