"""Treasures' powers (the Treasure Manifest, L1280-L1484): what a card does
beyond being carried, equipped, sold and scored (``equipment.py``,
``trade.py``).

Built so far, the cards that change a hero's numbers and actions:

- cubes and Hearts held while a card is equipped (the Belt of the Beast, the
  seven Epic Magic Cube treasures, the Robust Ring): ``equipment.settle_gifts``,
  run with the weight rule whenever equipment changes;
- attribute icons (``equipment.attribute_bonus``, read by ``equipment.hero_attribute``);
- the Symbols' free actions (``free_open`` / ``take_free``, asked by ``actions.py``);
- caves (the Taper of Illumination), Sneak and Alert (the Mirror of
  Idolatry), enchanting (the Ring of the Magi, ``magic.enchant_actions``);
- one-time cards (L916) used at the owner's own decisions -- between actions
  in his turn (PH_ACTION) and in Hero Tactics (PH_TACTICS): the Tomes, the
  Potions of Might, Maneuver, Healing and Relief, the Alchemist's Mixture
  and the King's Pardon; the Writ of Redemption when buying (``trade.py``);
  the Thief's Lucky Coin before a Loot Action;
- instantaneous cards (L962): the Cursed and Enchanted Treasures act when a
  hero sees them, the Satchel of a Giant when one comes to possess it
  (``view_instant``, ``arrive_instant``, asked by ``trade.py`` and
  ``actions.py`` wherever a card is seen or received);
- the summoning Epics, the Icon of the Dragon and the Summoning Marcation,
  are ``activation.py``'s (they add symbols to their tile).

A one-time card is offered only where using it changes something (a Potion
of Healing with a wounded cube, ...), as a rest is offered only with a
wounded cube to heal.
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..constants import (
    CW_MERCHANT, MAX_HEROES, ST_TURNS, CLEARINGS_PER_TILE, CUBE_MAGIC, CW_HERO, CW_SITE, DECK_TREASURE, NUM_CARDS, NUM_COLOURS, T_PENDING,
)
from .base import (
    shape_flies,
    CARD_DECK, KIND_BACKPACK_SPECIAL, KIND_ENCHANTS, SP_CONFUSE, SP_FLY,
    A_CARD, A_CUBE, BOX_ATTACK, CARD_IDS, CARD_KIND, FREE_KINDS, KIND_AUTO, KIND_SEARCH, KIND_TAKES, SEARCH_KINDS,
    TAKES_ANY, TAKES_KINDS, GRANT_CHOICE, KIND_CARD_END, KIND_CARD_FIRST, KIND_FREE,
    KIND_GRANTS, KIND_ONE_TIME, PH_CUBE_COLOUR, AIM_HERO, SP_DARK_MATTER, KIND_MIXES, pose,
    CLASS_IDS, MAX_ROLL_DICE, NUM_RR_SOURCES, ROLL_GATE, ROLL_LOOT, ROLL_NONE, ROLL_SEARCH, ROLL_TELEPORT, RR_DIVINATION,
    ROLL_LEARN, ROLL_HAGGLE, ROLL_STRUCK, LEARN_BOOK, HAGGLE_DOOR,
    RR_DUST, RR_GAGE, RR_MASTERY, SP_DIVINATION, PH_REROLL,
    ROLL_ATTACK, ROLL_RANGED, ROLL_HIDE, ROLL_CURSE, ROLL_TRAP, ROLL_SUMMON, ROLL_WRAITH, ROLL_TENTACLE, ROLL_OUTLAW,
    RANGED_HIGH, VIEW_POSED, ARRIVE_NONE, ARRIVE_ACTED, ARRIVE_POSED,
    RANGED_LOW, HIT_HIT, hit_passes,
    dust_card, end_roll, start_roll, wraith_brought,
)
from .equipment import (
    attach_spells, cube_kinds, disenchanted_tile, enforce_weight, equipped, kind_equipped, kinds_equipped, possesses,
    reveal_card,
)
from .realm import other_gates
from .fate import in_civilization, remove_card
from .tokens import draw_card
from .realm import enchant_tile
from .magic import (
    curse_matters, end_permanents_on, hero_has_spell, permanent_active, permanents_on, viewed_curse, spell_on_target,
    foe_curse_serves, summon_matters,
)

ALCHEMISTS_MIXTURE = CARD_IDS.index("alchemists_mixture")
KINGS_PARDON = CARD_IDS.index("kings_pardon")
POTION_OF_HEALING = CARD_IDS.index("potion_of_healing")
POTION_OF_RELIEF = CARD_IDS.index("potion_of_relief")
WRIT_OF_REDEMPTION = CARD_IDS.index("writ_of_redemption")
TAPER_OF_ILLUMINATION = CARD_IDS.index("taper_of_illumination")
MIRROR_OF_IDOLATRY = CARD_IDS.index("mirror_of_idolatry")
PARDONS = 2
"""Outlaw Tokens the King's Pardon discards at most (L1364)."""
RING_OF_STRENGTH = CARD_IDS.index("ring_of_strength")
GAUNTLETS_OF_BRAWN = CARD_IDS.index("gauntlets_of_brawn")
GLOVES_OF_AGGRESSION = CARD_IDS.index("gloves_of_aggression")
TALARIA_OF_THE_GLADIATOR = CARD_IDS.index("talaria_of_the_gladiator")
CLASHING_RING = CARD_IDS.index("clashing_ring")
QUICK_RING = CARD_IDS.index("quick_ring")
SHOES_OF_THE_THIEF = CARD_IDS.index("shoes_of_the_thief")
POTION_OF_ENERGY = CARD_IDS.index("potion_of_energy")
THIEF_EVADE = 3
"""The Shoes of the Thief evade as if three maneuver cubes were placed (L1416)."""
TC_ENERGY, TC_HORN, TC_TIME_STONE, TC_BAND_USED, TC_SPHERULE = 1, 2, 4, 8, 16
"""``treasure_combat`` bits: the hero drank a Potion of Energy in this combat
(L1378); this round his attack is the Horn of the Dark Angel's (L1358); this
round his attack that ties on maneuver speed hits (the Time Stone, L1456);
the Band of Sagacity's reroll is spent this round (L1290); this round his
attack is the Elemental Spherule's (L1334)."""
ELEMENTAL_SPHERULE = CARD_IDS.index("elemental_spherule")
BAND_OF_SAGACITY = CARD_IDS.index("band_of_sagacity")
WAND_OF_THE_MAGICIAN = CARD_IDS.index("wand_of_the_magician")
HORN_OF_THE_DARK_ANGEL = CARD_IDS.index("horn_of_the_dark_angel")
ARTIFICERS_CONCOCTION = CARD_IDS.index("artificers_concoction")
"""A one-time ranged weapon: it leaves the game with its first attack (L1286, ``combat.hero_attack``)."""
TIME_STONE = CARD_IDS.index("time_stone")
NO_COMBAT = 0
"""``combat_step`` between combats (``strike.CS_NONE``)."""
SHADOW_CLOAK = CARD_IDS.index("shadow_cloak")
GARB_OF_THE_GATE = CARD_IDS.index("garb_of_the_gate")
GUARD_CHARM = CARD_IDS.index("guard_charm")
BROCHE_OF_DEFLECTION = CARD_IDS.index("broche_of_deflection")
ELVEN_SLIPPERS = CARD_IDS.index("elven_slippers")
TRICKY_RING = CARD_IDS.index("tricky_ring")
ASCENDANT_ORNAMENT = CARD_IDS.index("ascendant_ornament")
DECIMATION = CARD_IDS.index("decimation")
SHAMANS_KAFTAN = CARD_IDS.index("shamans_kaftan")
SHIELD_OF_MERCY = CARD_IDS.index("shield_of_mercy")
BRACELETS_OF_FINESSE = CARD_IDS.index("bracelets_of_finesse")
BRACERS_OF_VIGOR = CARD_IDS.index("bracers_of_vigor")
CAPE_OF_ALTERATION = CARD_IDS.index("cape_of_alteration")
MAGICAL_BOWL_OF_MIXING = CARD_IDS.index("magical_bowl_of_mixing")
TP_SHADOW_CLOAK, TP_LUCKY_COIN = 1, 2
"""``turn_powers`` bits: the Shadow Cloak's reroll is spent this turn
(L1408); the Thief's Lucky Coin was used and the hero's next Loot Action
this turn rolls a single Loot Die (L1454)."""
THIEFS_LUCKY_COIN = CARD_IDS.index("thiefs_lucky_coin")
POTION_OF_FLIGHT = CARD_IDS.index("potion_of_flight")
CURSED_TREASURE = CARD_IDS.index("cursed_treasure")
SATCHEL_OF_A_GIANT = CARD_IDS.index("satchel_of_a_giant")
SATCHEL_DRAWS = 2
"""Treasure Cards the Satchel of a Giant draws (L1404)."""
GAGE_OF_THE_THIEF = CARD_IDS.index("gage_of_the_thief")
CONJURER_CLASS = CLASS_IDS.index("conjurer")


# ================================================================ the Symbols' free actions (L1432-L1448)
@rules_jit
def free_bits(S, b, p):
    """Bit FREE_k set: hero p has a Symbol of action k equipped and has not
    yet taken that free action this turn."""
    s = S[b]
    bits = 0
    for i in range(FREE_KINDS.shape[0]):
        k = int(FREE_KINDS[i])
        f = int(KIND_FREE[k])
        if (int(s['free_used'][p]) >> f) & 1 == 0 and kind_equipped(S, b, p, k) > 0:
            bits |= 1 << f
    return bits


@rules_jit
def take_free(S, b, p, f):
    """Hero p takes an action of kind f (FREE_*): if a Symbol makes one free
    and it is still unspent this turn, the action does not count against the
    limit -- one action of its cost is given back (Interpretations, "The
    Symbols"). Called before the action pays, so ``actions_used`` may dip
    below its cost for the moment."""
    s = S[b]
    if f >= 0 and (free_bits(S, b, p) >> f) & 1:
        s['free_used'][p] = s['free_used'][p] | np.uint16(1 << f)
        s['actions_used'][p] -= 1


@rules_jit
def spend_free_actions(S, b, p):
    """The hero's action phase is over (a Pass, a block): his free actions
    go with the rest (L459, L612)."""
    S[b]['free_used'][p] = np.uint16(0xFFFF)


# ================================================================ rerolls (L1326, L1336, L1354, L1356, L1408)
@rules_jit
def search_rerolls(S, b, p, clearing_type):
    """Search Dice p's equipped cards reroll in a Search Action made in a
    clearing of ``clearing_type`` (Digger's Ruin in a cave, the Elven Amulet
    in woods, Hamblen's Pendant in mountains, Hawkeye in plains): one each."""
    return kinds_equipped(S, b, p, SEARCH_KINDS, KIND_SEARCH, clearing_type)


@rules_jit
def cloak_reroll(S, b, p):
    """L1408: a failed Hide reaction of p is rolled again, all its dice, with
    the Shadow Cloak equipped, once a turn; True if he may (and so spends it)."""
    s = S[b]
    if s['turn_powers'][p] & TP_SHADOW_CLOAK or kind_equipped(S, b, p, SHADOW_CLOAK) == 0:
        return False
    s['turn_powers'][p] = s['turn_powers'][p] | np.uint8(TP_SHADOW_CLOAK)
    return True


# ================================================================ moving (L1344)
@rules_jit
def garb_links(S, b, p, c, out, n):
    """L1344: with the Garb of the Gate equipped, hero p may Move to any
    revealed Gate's clearing, at that clearing's cost, as if a path joined it
    to his clearing c (one Gate revealed is enough; Interpretations).
    Appends those clearings to ``out[:n]``; returns the new count."""
    if kind_equipped(S, b, p, GARB_OF_THE_GATE) == 0:
        return n
    return other_gates(S, b, c, out, n)


# ================================================================ Sneak and Alert (L1370)
@rules_jit
def idolater(S, b, p):
    """L1370: a hero possessing the Mirror of Idolatry may take no Sneak or
    Alert Action (those taken before stand)."""
    return possesses(S, b, p, MIRROR_OF_IDOLATRY)


# ================================================================ one-time cards (L916)
@rules_jit
def convertible(S, b, p, colour):
    """Magic Cubes of ``colour`` hero p may convert with the Alchemist's
    Mixture: his own (not those an equipped card gives, which go back with
    it) and not on his Spell Card or a treasure this round."""
    s = S[b]
    k = CUBE_MAGIC + colour
    n = int(s['cubes'][p, 0, k]) + int(s['cubes'][p, 1, k]) - int(s['gift_cubes'][p, k])
    return n - int(s['cast_cubes'][p, colour]) - cubes_on_cards(S, b, p, colour)


@rules_jit
def usable(S, b, p, c):
    """Hero p may use his one-time card c now (L916: in his turn or in
    combat, even unequipped): it is his (not just gained), one-time, built,
    and using it would change something."""
    s = S[b]
    if s['card_where'][c] != CW_HERO or s['card_owner'][c] != p or s['card_slot'][c] == T_PENDING:
        return False
    k = int(CARD_KIND[c])
    if not KIND_ONE_TIME[k]:
        return False
    if KIND_GRANTS[k] >= 0:
        return True
    if k == POTION_OF_HEALING:
        return s['hearts'][p, 1] > 0 or s['cubes'][p, 1].sum() > 0
    if k == POTION_OF_RELIEF:
        return s['curses'][p] != 0 or permanents_on(S, b, AIM_HERO + p)
    if k == ALCHEMISTS_MIXTURE:
        for colour in range(NUM_COLOURS):
            if convertible(S, b, p, colour) > 0:
                return True
        return False
    if k == KINGS_PARDON:
        return s['outlaw'][p] > 0 and in_civilization(S, b, p)
    if k == POTION_OF_FLIGHT:                                # L1380: while it would lengthen his flight
        return not hero_has_spell(S, b, p, SP_FLY) and s['flight_until'][p] < flight_turn(S, b)
    if k == HORN_OF_THE_DARK_ANGEL or k == ELEMENTAL_SPHERULE:   # L1358, L1334: its attack, no Weapon or Spell Card's
        return s['combat_step'] != NO_COMBAT and s['cast_card'][p] < 0 and s['placed'][p, 0] == 0 \
            and (s['treasure_combat'][p] & (TC_HORN | TC_SPHERULE)) == 0 \
            and not hero_has_spell(S, b, p, SP_CONFUSE)          # its attack casts a spell: not while Confused (L1590)
    if k == TIME_STONE:                                      # L1456: for this round's attack
        return s['combat_step'] != NO_COMBAT and (s['treasure_combat'][p] & TC_TIME_STONE) == 0
    if k == POTION_OF_ENERGY:                                # a combat effect: only in combat (L916)
        return s['combat_step'] != NO_COMBAT and (s['treasure_combat'][p] & TC_ENERGY) == 0
    return False                                             # the Lucky Coin: ``coin_usable``, asked with Loot


@rules_jit
def mask_use(S, b, p, mask):
    """Mark A_CARD + c for each one-time card hero p may use now (called by
    the action phase's and Hero Tactics' masks)."""
    for k in range(KIND_ONE_TIME.shape[0]):
        if KIND_ONE_TIME[k]:
            for c in range(KIND_CARD_FIRST[k], KIND_CARD_END[k]):
                if usable(S, b, p, c):
                    mask[A_CARD + c] = 1


@rules_jit
def any_usable(S, b, p):
    """Hero p has a one-time card he may use now."""
    for k in range(KIND_ONE_TIME.shape[0]):
        if KIND_ONE_TIME[k]:
            for c in range(KIND_CARD_FIRST[k], KIND_CARD_END[k]):
                if usable(S, b, p, c):
                    return True
    return False


@rules_jit
def receive_cube(S, b, p, kind):
    """One more Action Cube of ``kind`` for good, healthy (L1384, L1386, L1458-L1472)."""
    s = S[b]
    s['cubes'][p, 0, kind] += 1
    s['cubes_gained'][p] += 1


@rules_jit
def use_card(S, b, p, c):
    """Hero p uses one-time card c (L916): it leaves the game and does what it
    says. A Tome of Wizardry or the Alchemist's Mixture first asks for
    colours (PH_CUBE_COLOUR); True if a decision is posed."""
    s = S[b]
    k = int(CARD_KIND[c])
    if KIND_GRANTS[k] == GRANT_CHOICE or k == ALCHEMISTS_MIXTURE:
        s['use_card'] = c
        s['use_from'] = -1
        return pose(S, b, PH_CUBE_COLOUR, p)
    remove_card(S, b, c)
    if KIND_GRANTS[k] >= 0:                                  # Tomes, Potions of Might and Maneuver
        receive_cube(S, b, p, int(KIND_GRANTS[k]))
    elif k == POTION_OF_HEALING:                             # L1382: every wounded cube, Hearts too (L408)
        s['hearts'][p, 0] += s['hearts'][p, 1]
        s['hearts'][p, 1] = 0
        for kind in range(CUBE_MAGIC + NUM_COLOURS):
            s['cubes'][p, 0, kind] += s['cubes'][p, 1, kind]
            s['cubes'][p, 1, kind] = 0
    elif k == POTION_OF_RELIEF:                              # L1388: every curse and permanent spell on him
        s['curses'][p] = 0
        end_permanents_on(S, b, AIM_HERO + p)
    elif k == KINGS_PARDON:                                  # L1364: up to two of his own
        s['outlaw'][p] = max(int(s['outlaw'][p]) - PARDONS, 0)
    elif k == POTION_OF_ENERGY:                              # L1378: until the end of the combat
        s['treasure_combat'][p] = s['treasure_combat'][p] | np.uint8(TC_ENERGY)
    elif k == HORN_OF_THE_DARK_ANGEL:                        # L1358: this round's attack casts Fiery Chasm
        s['treasure_combat'][p] = s['treasure_combat'][p] | np.uint8(TC_HORN)
    elif k == ELEMENTAL_SPHERULE:                            # L1334: this round's attack casts Elemental
        s['treasure_combat'][p] = s['treasure_combat'][p] | np.uint8(TC_SPHERULE)
    elif k == TIME_STONE:                                    # L1456: this round's tie hits
        s['treasure_combat'][p] = s['treasure_combat'][p] | np.uint8(TC_TIME_STONE)
    elif k == POTION_OF_FLIGHT:                              # L1380: until the end of the next Action Phase
        s['flight_until'][p] = flight_turn(S, b)
    elif k == THIEFS_LUCKY_COIN:                             # L1454: for the next Loot Action
        s['turn_powers'][p] = s['turn_powers'][p] | np.uint8(TP_LUCKY_COIN)
    enforce_weight(S, b, p)                                  # healed or new Might Cubes never unequip; lost ones may
    return False


@rules_jit
def using_colour(S, b):
    """PH_CUBE_COLOUR asks for a card's colour (``use_card``), not a new hero's cube."""
    return S[b]['use_card'] >= 0


@rules_jit
def mask_use_colour(S, b, p, mask):
    """Legal actions of PH_CUBE_COLOUR for a card's colour: the Tome of
    Wizardry's colour (any, L1472); the Alchemist's Mixture's colour to
    replace (one p may convert), then the colour it becomes (any other,
    L1284); the colour of the Magic Cube put on the Shaman's Kaftan in Hero
    Tactics (one p has free, L1410)."""
    s = S[b]
    c = int(s['use_card'])
    frm = int(s['use_from'])
    if KIND_MIXES[CARD_KIND[c], 0] >= 0 and s['card_cube'][c] > 0:   # the Bowl's cube placed: the colour to convert (L1368)
        for i in range(2):
            colour = int(KIND_MIXES[CARD_KIND[c], i])
            if convertible(S, b, p, colour) > 0:
                mask[A_CUBE + CUBE_MAGIC + colour] = 1
        return
    if KIND_TAKES[CARD_KIND[c]] >= 0:                         # the Shaman's Kaftan's cube (L1410)
        bits = cube_card_colours(S, b, p, c)
        for colour in range(NUM_COLOURS):
            if (bits >> colour) & 1:
                mask[A_CUBE + CUBE_MAGIC + colour] = 1
        return
    for colour in range(NUM_COLOURS):
        if CARD_KIND[c] == ALCHEMISTS_MIXTURE:
            ok = convertible(S, b, p, colour) > 0 if frm < 0 else colour != frm
        else:
            ok = True
        if ok:
            mask[A_CUBE + CUBE_MAGIC + colour] = 1


@rules_jit
def act_use_colour(S, b, p, a):
    """PH_CUBE_COLOUR for a card's colour: the Kaftan's cube; the Tome of
    Wizardry's cube; the Alchemist's Mixture's colour to replace, then its
    new colour (a healthy cube is converted where the hero has one,
    Interpretations)."""
    s = S[b]
    c = int(s['use_card'])
    colour = a - A_CUBE - CUBE_MAGIC
    if KIND_MIXES[CARD_KIND[c], 0] >= 0 and s['card_cube'][c] > 0:
        mix_cube(S, b, p, c, colour)
        s['use_card'] = -1
        return False
    if KIND_TAKES[CARD_KIND[c]] >= 0:
        s['card_cube'][c] = 1 + colour
        s['use_card'] = -1
        return False
    if CARD_KIND[c] == ALCHEMISTS_MIXTURE and s['use_from'] < 0:
        s['use_from'] = colour
        return pose(S, b, PH_CUBE_COLOUR, p)
    remove_card(S, b, c)
    if CARD_KIND[c] == ALCHEMISTS_MIXTURE:
        frm = CUBE_MAGIC + int(s['use_from'])
        box = 0 if free_magic(S, b, p, frm - CUBE_MAGIC) > 0 else 1
        s['cubes'][p, box, frm] -= 1
        s['cubes'][p, box, CUBE_MAGIC + colour] += 1
    else:
        receive_cube(S, b, p, CUBE_MAGIC + colour)
    s['use_card'] = -1
    s['use_from'] = -1
    return False


# ================================================================ flying (L1091-L1097, L1380, L1560)
@rules_jit
def flight_turn(S, b):
    """The turn whose Action Phase is "the next" one to end (L1380): this
    turn's while it is under way, else the next turn's."""
    s = S[b]
    return int(s['turn']) + (0 if s['stage'] <= ST_TURNS else 1)


@rules_jit
def hero_flies(S, b, p):
    """Hero p has the Fly ability now (L1093): the Fly spell is on him (it
    lasts to the end of next turn's Action Phase, L1560: turn spells expire
    as the battle phase begins), or a Potion of Flight's flight lasts
    (``flight_until``: through that turn's Action Phase, L1380)."""
    s = S[b]
    if hero_has_spell(S, b, p, SP_FLY) or shape_flies(S, b, p):    # L1093: Shape Shifted into a flying Monster
        return True
    until = int(s['flight_until'][p])
    return until > 0 and flight_turn(S, b) <= until


@rules_jit
def coin_usable(S, b, p, c):
    """L1454: hero p may use his Thief's Lucky Coin c now, in his turn, for
    the Loot Action he may take next (asked by ``actions.mask_action`` only
    where a Loot Action is open); not while an earlier coin waits."""
    s = S[b]
    return CARD_KIND[c] == THIEFS_LUCKY_COIN and s['card_where'][c] == CW_HERO and s['card_owner'][c] == p \
        and s['card_slot'][c] != T_PENDING and (s['turn_powers'][p] & TP_LUCKY_COIN) == 0


@rules_jit
def lucky_loot(S, b, p):
    """L1454: this Loot Action of p rolls a single Loot Die (the coin waiting
    from this turn is spent by it)."""
    s = S[b]
    if s['turn_powers'][p] & TP_LUCKY_COIN:
        s['turn_powers'][p] = s['turn_powers'][p] & np.uint8(0xFF ^ TP_LUCKY_COIN)
        return True
    return False


@rules_jit
def writ_held(S, b, p):
    """The Writ of Redemption hero p could use on the card he is buying (L1484); -1 none."""
    s = S[b]
    for c in range(KIND_CARD_FIRST[WRIT_OF_REDEMPTION], KIND_CARD_END[WRIT_OF_REDEMPTION]):
        if s['card_where'][c] == CW_HERO and s['card_owner'][c] == p and s['card_slot'][c] != T_PENDING:
            return c
    return -1

# ================================================================ boxes filled for free, and more boxes (L1280-L1484)

# ================================================================ cubes of the other kind (L1308-L1314, L1504)
@rules_jit
def altered(S, b, p):
    """Hero p's healthy Might Cubes go only in speed boxes and his Speed
    Cubes only in might boxes: he wears the Cape of Alteration (L1314) or an
    active Dark Matter lies on him (L1504)."""
    if kind_equipped(S, b, p, CAPE_OF_ALTERATION) > 0:
        return True
    sp = spell_on_target(S, b, SP_DARK_MATTER, AIM_HERO + p)
    return sp >= 0 and permanent_active(S, b, sp)


@rules_jit
def crossings_allowed(S, b, p):
    """(Might Cubes p may put in his attack and maneuver speed boxes, Speed
    Cubes he may put in his might boxes) by his treasures, beyond what his
    weapon requires: one with the Bracelets of Finesse (L1308), one with the
    Bracers of Vigor (L1310); each counted in the cube limit like any cube."""
    return min(kind_equipped(S, b, p, BRACELETS_OF_FINESSE), 1), min(kind_equipped(S, b, p, BRACERS_OF_VIGOR), 1)


@rules_jit
def free_might(S, b, p, c, mandatory, optional):
    """The might boxes of p's weapon c (``mandatory`` and ``optional`` of
    them, L722) filled without a cube: the box its card fills by itself
    (the Battle Staff's and the Mace of Smiting's required box, the
    Adamantium Blade's optional one: ``data/treasures.txt`` auto, L1282,
    L1292, L1366), the optional box the Ring of Strength fills (L1394), and
    the Gauntlets of Brawn's Might Cube in an existing box, a mandatory one
    while one is open (L1346; Interpretations). Returns (mandatory filled,
    optional filled); none of them counts against the cube limit. The
    purple cube on the Ascendant Ornament (placed, so counted) fills one
    more box the same way (L1288)."""
    k = int(CARD_KIND[c])
    fm = min(int(KIND_AUTO[k, 0]), mandatory)
    fo = min(int(KIND_AUTO[k, 1]), optional)
    if fo < optional and kind_equipped(S, b, p, RING_OF_STRENGTH) > 0:
        fo += 1
    for _ in range(kind_equipped(S, b, p, GAUNTLETS_OF_BRAWN) + cube_on(S, b, p, ASCENDANT_ORNAMENT)):
        if fm < mandatory:
            fm += 1
        elif fo < optional:
            fo += 1
    return fm, fo


@rules_jit
def free_speed(S, b, p, box, printed):
    """1 where an equipped card counts as a Speed Cube in one of p's
    ``printed`` attack (the Gloves of Aggression, L1348) or maneuver (the
    Talaria of the Gladiator, L1450) speed boxes: an existing box, so none
    without one; outside the cube limit."""
    if printed < 1:
        return 0
    kind = GLOVES_OF_AGGRESSION if box == BOX_ATTACK else TALARIA_OF_THE_GLADIATOR
    return 1 if kind_equipped(S, b, p, kind) > 0 else 0


@rules_jit
def ring_boxes(S, b, p, box):
    """Speed boxes an equipped ring adds: a Speed Cube on the Clashing Ring
    adds one attack speed (L1318), on the Quick Ring one maneuver speed
    (L1390); placed there it counts against the limit like any cube."""
    kind = CLASHING_RING if box == BOX_ATTACK else QUICK_RING
    return kind_equipped(S, b, p, kind)


@rules_jit
def thief_evade(S, b, p):
    """L1416: with the Shoes of the Thief equipped the hero may evade as if
    he had placed three maneuver cubes (no more may be added); 0 without."""
    return THIEF_EVADE if kind_equipped(S, b, p, SHOES_OF_THE_THIEF) > 0 else 0


@rules_jit
def horn_attack(S, b, p):
    """Hero p's attack this round is a treasure's that casts a spell, no
    Weapon or Spell Card used: the Horn of the Dark Angel's (L1358) or the
    Elemental Spherule's (L1334)."""
    return (S[b]['treasure_combat'][p] & (TC_HORN | TC_SPHERULE)) != 0


@rules_jit
def spherule_attack(S, b, p):
    """Hero p's attack this round is the Elemental Spherule's (L1334)."""
    return (S[b]['treasure_combat'][p] & TC_SPHERULE) != 0


@rules_jit
def stone_tie(S, b, p, speed, maneuver):
    """L1456: hero p's attack ties on maneuver speed after he used the Time
    Stone this round: it hits, no Hit Dice rolled; the stone's attack is
    spent. False otherwise (the normal roll follows)."""
    s = S[b]
    if speed != maneuver or (s['treasure_combat'][p] & TC_TIME_STONE) == 0:
        return False
    s['treasure_combat'][p] = s['treasure_combat'][p] & np.uint8(0xFF ^ TC_TIME_STONE)
    return True


@rules_jit
def round_powers_end(S, b, p):
    """The Combat Round is over: the Horn's attack and the Time Stone's are
    made or lost with it."""
    s = S[b]
    s['treasure_combat'][p] = s['treasure_combat'][p] & np.uint8(0xFF ^ (TC_HORN | TC_TIME_STONE | TC_BAND_USED
                                                                         | TC_SPHERULE))


@rules_jit
def band_reroll(S, b, p):
    """L1290: hero p may reroll a Hit Die roll by or against him now -- a
    yellow Magic Cube lies on his Band of Sagacity this round and its reroll
    is not yet spent -- and so spends it."""
    s = S[b]
    if cube_on(S, b, p, BAND_OF_SAGACITY) == 0 or s['treasure_combat'][p] & TC_BAND_USED:
        return False
    s['treasure_combat'][p] = s['treasure_combat'][p] | np.uint8(TC_BAND_USED)
    return True


@rules_jit
def wand_held(S, b, p):
    """L1480: hero p wields the Wand of the Magician (his targeted spells'
    Hit Dice may be rerolled)."""
    return kind_equipped(S, b, p, WAND_OF_THE_MAGICIAN) > 0


@rules_jit
def energy_cubes(S, b, p):
    """L1378: one more Speed Cube a Combat Round after a Potion of Energy,
    until the end of the combat."""
    return 1 if S[b]['treasure_combat'][p] & TC_ENERGY else 0


# ================================================================ Magic Cubes on treasures in Hero Tactics (L1288-L1476)
@rules_jit
def cube_on(S, b, p, kind):
    """1 if p's equipped card of ``kind`` carries a Magic Cube this round."""
    s = S[b]
    for c in range(KIND_CARD_FIRST[kind], KIND_CARD_END[kind]):
        if s['card_cube'][c] > 0 and equipped(S, b, p, c):
            return 1
    return 0


@rules_jit
def cubes_on_cards(S, b, p, colour):
    """Magic Cubes of ``colour`` (-1: of any colour) p has on his treasures this round."""
    s = S[b]
    n = 0
    for i in range(TAKES_KINDS.shape[0]):
        k = int(TAKES_KINDS[i])
        for c in range(KIND_CARD_FIRST[k], KIND_CARD_END[k]):
            v = int(s['card_cube'][c])
            if v > 0 and (colour < 0 or v - 1 == colour) and s['card_where'][c] == CW_HERO \
                    and s['card_owner'][c] == p:
                n += 1
    return n


@rules_jit
def free_magic(S, b, p, colour):
    """p's healthy Magic Cubes of ``colour`` on no card this round (neither
    his Spell Card nor a treasure)."""
    s = S[b]
    return int(s['cubes'][p, 0, CUBE_MAGIC + colour]) - int(s['cast_cubes'][p, colour]) - \
        cubes_on_cards(S, b, p, colour)


@rules_jit
def cube_card_colours(S, b, p, c):
    """Bit k set: p may put a Magic Cube of colour k on his card c now, as
    far as the card and his cubes go (the round's limit and use are
    ``combat.card_cube_legal``'s): c is his, equipped, takes a cube and has
    none yet."""
    s = S[b]
    k = int(KIND_TAKES[CARD_KIND[c]])
    if k < 0 or s['card_cube'][c] > 0 or not equipped(S, b, p, c):
        return 0
    bits = 0
    for colour in range(NUM_COLOURS):
        if (k == TAKES_ANY or k == colour) and free_magic(S, b, p, colour) > 0:
            bits |= 1 << colour
    return bits


@rules_jit
def put_card_cube(S, b, p, c, bits):
    """Put a Magic Cube on p's card c: the one colour ``bits`` allows, or,
    with several (the Shaman's Kaftan), the colour p chooses (PH_CUBE_COLOUR).
    True if a decision is posed."""
    s = S[b]
    if bits & (bits - 1):
        s['use_card'] = c
        s['use_from'] = -1
        return pose(S, b, PH_CUBE_COLOUR, p)
    colour = 0
    while not (bits >> colour) & 1:
        colour += 1
    s['card_cube'][c] = 1 + colour
    if KIND_MIXES[CARD_KIND[c], 0] >= 0:                     # the Bowl: which colour its cube converts (L1368)
        s['use_card'] = c
        s['use_from'] = -1
        return pose(S, b, PH_CUBE_COLOUR, p)
    return False


@rules_jit
def mixable(S, b, p, c):
    """Hero p has a Magic Cube his Magical Bowl of Mixing c may convert: one
    of his own of either colour it shows (L1368; as the Alchemist's
    Mixture's, ``convertible``)."""
    k = int(CARD_KIND[c])
    return convertible(S, b, p, int(KIND_MIXES[k, 0])) > 0 or convertible(S, b, p, int(KIND_MIXES[k, 1])) > 0


@rules_jit
def mix_cube(S, b, p, c, colour):
    """L1368: the blue cube on p's Magical Bowl of Mixing c converts one of
    his Magic Cubes of ``colour`` to the Bowl's other colour, for good (a
    healthy one where he has one free, as the Alchemist's Mixture's)."""
    s = S[b]
    k = int(CARD_KIND[c])
    other = int(KIND_MIXES[k, 1]) if colour == KIND_MIXES[k, 0] else int(KIND_MIXES[k, 0])
    box = 0 if free_magic(S, b, p, colour) > 0 else 1
    s['cubes'][p, box, CUBE_MAGIC + colour] -= 1
    s['cubes'][p, box, CUBE_MAGIC + other] += 1


@rules_jit
def clear_card_cubes(S, b, p):
    """The round is over (or p left it): the Magic Cubes on p's treasures
    (p = -1: every hero's) go back to his healthy box (they never left it:
    ``free_magic``)."""
    s = S[b]
    for i in range(TAKES_KINDS.shape[0]):
        k = int(TAKES_KINDS[i])
        for c in range(KIND_CARD_FIRST[k], KIND_CARD_END[k]):
            if p < 0 or (s['card_where'][c] == CW_HERO and s['card_owner'][c] == p):
                s['card_cube'][c] = 0


# ================================================================ one-time cards against a hit or a wound (L1312, L1352)
@rules_jit
def guard_charm(S, b, p):
    """A Guard Charm hero p may discard instead of taking a wound (L1352;
    one-time, so even unequipped, L916); -1 none."""
    s = S[b]
    for c in range(KIND_CARD_FIRST[GUARD_CHARM], KIND_CARD_END[GUARD_CHARM]):
        if s['card_where'][c] == CW_HERO and s['card_owner'][c] == p and s['card_slot'][c] != T_PENDING:
            return c
    return -1


@rules_jit
def deflector(S, b, p):
    """The Broche of Deflection hero p has equipped to cancel a hit against
    him (L1312: "the equipped Hero"); -1 none."""
    for c in range(KIND_CARD_FIRST[BROCHE_OF_DEFLECTION], KIND_CARD_END[BROCHE_OF_DEFLECTION]):
        if equipped(S, b, p, c):
            return c
    return -1


# ================================================================ the DisEnchanter (L1328)
@rules_jit
def disenchant(S, b):
    """L1328: the Magic Cube on the DisEnchanter's tile is removed at once,
    the tile not flipped. Run after every decision (``driver.advance``)."""
    t = disenchanted_tile(S, b)
    if t >= 0:
        S[b]['tile_enchant'][t] = -1



# ================================================================ instantaneous treasures (L962, L1320, L1340, L1404)
@rules_jit
def seen_instant(c):
    """Card c acts as soon as a hero sees it (L1320, L1340: "even if the Hero
    simply viewed the treasure"): a Cursed or an Enchanted Treasure."""
    k = CARD_KIND[c]
    return k == CURSED_TREASURE or KIND_ENCHANTS[k] >= 0


@rules_jit
def take_place(S, b, r, c):
    """Card r, just drawn, lies where card c lies (a hero's hands, a Treasure
    Pile's place, a Merchant's stock), as c came there: a Backpack Special
    card turns face up (L960), a Spell Book or Scroll reaching a hero draws
    its spells (L1424)."""
    s = S[b]
    s['card_where'][r] = s['card_where'][c]
    s['card_owner'][r] = s['card_owner'][c]
    s['card_slot'][r] = s['card_slot'][c]
    s['card_mark'][r] = s['card_mark'][c]
    owner = int(s['card_owner'][c]) if s['card_where'][c] == CW_HERO else -1
    if KIND_BACKPACK_SPECIAL[CARD_KIND[r]]:
        reveal_card(S, b, owner, r)
    if owner >= 0:
        attach_spells(S, b, r)


@rules_jit
def vacate(S, b, c):
    """Card c leaves its place with nothing to replace it: in a Treasure
    Pile the cards below move up one place."""
    s = S[b]
    if s['card_where'][c] != CW_SITE:
        return
    for k in range(NUM_CARDS):
        if s['card_where'][k] == CW_SITE and s['card_owner'][k] == s['card_owner'][c] \
                and s['card_slot'][k] > s['card_slot'][c]:
            s['card_slot'][k] -= 1


@rules_jit
def view_instant(S, b, p, c, then):
    """Hero p sees card c where it lies (L1320, L1340). While it is a Cursed
    or an Enchanted Treasure: a card drawn from the pool takes its place (a
    Deep Treasure Card for a Deep Cursed Treasure, else a Treasure Card),
    the card leaves the game, and the Cursed Treasure curses p (the Curse
    Table, ``magic.viewed_curse``), the Enchanted Treasure flips p's Map Tile
    and enchants it in its circle's colour; the new card is seen in turn.
    Returns the card lying there now, c itself if it is no such card, -1 if
    the pool ran out, VIEW_POSED where the curse waits on p's Dust of
    Destiny (L1330): the look resumes by ``then`` (SEEN_*), seeing the
    replacement then."""
    s = S[b]
    while c >= 0 and seen_instant(c):
        k = int(CARD_KIND[c])
        r = draw_card(S, b, int(CARD_DECK[c]) if k == CURSED_TREASURE else DECK_TREASURE)
        if r >= 0:
            take_place(S, b, r, c)
            if s['card_where'][r] == CW_MERCHANT:
                m = int(s['card_owner'][r])
                for q in range(MAX_HEROES):          # a card they have not seen joins the stock (as a sale's does)
                    if q != p:
                        s['merchant_looked'][q] = int(s['merchant_looked'][q]) & ~(1 << m)
        else:
            vacate(S, b, c)
        remove_card(S, b, c)
        if k == CURSED_TREASURE:
            if viewed_curse(S, b, p, then):
                return VIEW_POSED
        else:
            enchant_tile(S, b, int(s['hero_clearing'][p]) // CLEARINGS_PER_TILE, int(KIND_ENCHANTS[k]))
        c = r
    return c


@rules_jit
def arrive_instant(S, b, p, c, then):
    """Card c has just come into hero p's hands (gained, looted, bought):
    an instantaneous treasure acts now (L962) -- a Cursed or Enchanted
    Treasure as if seen (``view_instant``: its replacement arrives instead;
    a curse waiting on p's Dust of Destiny resumes by ``then``, SEEN_*);
    the Satchel of a Giant gives two Treasure Cards drawn from the pool,
    which arrive as it did, and leaves the game (L1404). Returns ARRIVE_NONE
    if c is no such card, ARRIVE_ACTED if it was (the caller looks again at
    what p has received), ARRIVE_POSED if it was and a decision waits."""
    if seen_instant(c):
        if view_instant(S, b, p, c, then) == VIEW_POSED:
            return ARRIVE_POSED
        return ARRIVE_ACTED
    if CARD_KIND[c] != SATCHEL_OF_A_GIANT:
        return ARRIVE_NONE
    for _ in range(SATCHEL_DRAWS):
        r = draw_card(S, b, DECK_TREASURE)
        if r >= 0:
            take_place(S, b, r, c)
    remove_card(S, b, c)
    return ARRIVE_ACTED


# ================================================================ rerolls chosen by their owner (PH_REROLL: L1214, L1330, L1342, L1528)
@rules_jit
def divination_card(S, b, q):
    """The Divination in play on hero q, not yet spent on a Loot Action this
    turn (``spell_mark`` 1 once spent, L1528); -1 none."""
    sp = spell_on_target(S, b, SP_DIVINATION, AIM_HERO + q)
    if sp >= 0 and S[b]['spell_mark'][sp] == 0:
        return sp
    return -1


@rules_jit
def roll_hits(S, b):
    """The pending roll of Hit Dice hits (``roll_target``: 1 at equal
    speeds, L740-L743)."""
    s = S[b]
    for d in range(int(s['roll_n'])):
        if not hit_passes(int(s['roll_dice'][d]), int(s['roll_target'])):
            return False
    return True


@rules_jit
def die_fails(S, b, q, d):
    """Die d of the pending roll goes against hero q, a party to it, so that
    rolling it again could serve him: a blank Search Die (L511), a Learn Die
    showing no book (L542), a Haggle Die showing the closed door or a number
    above the haggle number (``roll_target``, L995); of Hit Dice (L740-L743),
    for the attacker (the roll's first party) a die that gives no hit by
    itself, for the hero struck each die of a roll that hits; of Ranged
    Attack Dice (L753: the worse counts), for the attacker the worse die
    while below the best face, for the hero struck each die while the worse
    is above the worst face; a Monster Die showing a Monster symbol (L597);
    the Curse Table's curse where it would touch him (``magic.curse_matters``),
    for the caster of a Curse spell where it would not touch his target (a
    hero, or a foe: ``magic.foe_curse_serves``);
    the Action Cube a trap wounds where his healthy cubes are of several
    kinds; the Summon curse's number where it brings him more Wandering
    Monsters than its lowest face (``magic.summon_matters``); the Wraith's
    die where it brings the Wraith (``base.wraith_brought``); a tentacle's
    Hit Dice (L1518), for its caster a die showing no hit, for the hero it
    holds a die showing one (each hit holds him more); an Outlaw Token's
    Monster Dice short of two symbols (L822-L824). Any die of the
    other rolls (no face better by the rules alone)."""
    s = S[b]
    kind = int(s['roll_kind'])
    f = int(s['roll_dice'][d])
    attacker = s['roll_party'][0] == q
    if kind == ROLL_SEARCH:
        return f == 0
    if kind == ROLL_LEARN:
        return f != LEARN_BOOK
    if kind == ROLL_HAGGLE:
        return f == HAGGLE_DOOR or f > s['roll_target']
    if kind == ROLL_STRUCK or (kind == ROLL_ATTACK and not attacker):
        return roll_hits(S, b)
    if kind == ROLL_ATTACK:
        return not hit_passes(f, int(s['roll_target']))
    if kind == ROLL_RANGED:
        low = min(int(s['roll_dice'][0]), int(s['roll_dice'][1]))
        if attacker:
            return f == low and f < RANGED_HIGH
        return low > RANGED_LOW
    if kind == ROLL_HIDE:
        return f != 0
    if kind == ROLL_CURSE:
        t = int(s['roll_target'])
        if t < 0 or t == AIM_HERO + q:           # his own curse, or the one a Curse spell rolls for him
            return curse_matters(S, b, q, f)
        if t >= AIM_HERO:                        # the caster of a Curse spell on another hero
            return not curse_matters(S, b, t - AIM_HERO, f)
        return not foe_curse_serves(S, b, t, f)  # the caster of a Curse spell on a foe
    if kind == ROLL_TRAP:
        return cube_kinds(S, b, q) > 1
    if kind == ROLL_OUTLAW:                      # short of two symbols: a symbol and a blank lose 1 LP
        return s['roll_dice'][0] + s['roll_dice'][1] < 2
    if kind == ROLL_TENTACLE:                    # partial success kept: one hit holds the attack speed
        return f != HIT_HIT if attacker else f == HIT_HIT
    if kind == ROLL_SUMMON:
        return summon_matters(S, b, q, f)
    if kind == ROLL_WRAITH:
        return wraith_brought(S, b, int(s['roll_target']), f)
    return True


@rules_jit
def needs_every_die(S, b, q):
    """Hero q gains by the pending roll only if every die of it goes his way
    (and no partial success is kept for a later roll): his attack's Hit Dice
    and Ranged Attack Dice (the worse die counts), a hide attempt with no
    Monster symbol to ignore (L603), an Outlaw Token's two blanks (one
    symbol alone loses 1 LP, L823). A one-die reroll that leaves another die
    failing him then cannot serve him."""
    s = S[b]
    kind = int(s['roll_kind'])
    if kind == ROLL_HIDE:
        return s['roll_target'] == 0
    if kind == ROLL_OUTLAW:                      # two blanks: only two symbols gain, one is a loss
        return s['roll_dice'][0] + s['roll_dice'][1] == 0
    return (kind == ROLL_ATTACK or kind == ROLL_RANGED) and s['roll_party'][0] == q


@rules_jit
def used_bit(S, b, q, src):
    """The bit of ``roll_used`` marking source src spent on the pending roll
    by hero q: RR_* for its first party, NUM_RR_SOURCES + RR_* for its second
    (each party's own cards and spells, each once per roll)."""
    return src if S[b]['roll_party'][0] == q else NUM_RR_SOURCES + src


@rules_jit
def reroll_offered(S, b, q, src, k):
    """Hero q, asked now about the pending roll (``roll_kind``), may reroll
    with source src (RR_*) its die k, or every die (k = MAX_ROLL_DICE, a roll
    of two dice): each of his sources once per roll; a die showing one face only
    is never offered (nothing could change), nor a die not going against him
    (``die_fails``), nor one die where another left failing him would still
    lose him the roll (``needs_every_die``). The Gage of the Thief, equipped,
    one Loot Die (L1342); Divination on q, any Loot Dice (L1528); the Dust of
    Destiny, one die or the whole roll, for a party to it (L1330); the
    Conjurer's Mastery, the die of his own Open Gate or Teleport (L1214)."""
    s = S[b]
    kind = int(s['roll_kind'])
    n = int(s['roll_n'])
    if kind == ROLL_NONE or s['roll_span'] < 2 or (int(s['roll_used']) >> used_bit(S, b, q, src)) & 1:
        return False
    one = k < n
    if not one and not (k == MAX_ROLL_DICE and n > 1):
        return False
    every = one and needs_every_die(S, b, q)
    for d in range(n):                       # a die not against him is never worth rolling again (Interpretations)
        if (k == d or not one) and not die_fails(S, b, q, d):
            return False
        if every and k != d and die_fails(S, b, q, d):
            return False
    if src == RR_GAGE:
        return kind == ROLL_LOOT and one and kind_equipped(S, b, q, GAGE_OF_THE_THIEF) > 0
    if src == RR_DIVINATION:
        return kind == ROLL_LOOT and divination_card(S, b, q) >= 0
    if src == RR_DUST:
        return dust_card(S, b, q) >= 0
    if src == RR_MASTERY:
        return (kind == ROLL_GATE or kind == ROLL_TELEPORT) and one and q == s['roll_party'][0] \
            and s['hero_class'][q] == CONJURER_CLASS
    return False


@rules_jit
def any_reroll(S, b, q):
    """Hero q may reroll some die of the pending roll now."""
    for src in range(NUM_RR_SOURCES):
        for k in range(MAX_ROLL_DICE + 1):
            if reroll_offered(S, b, q, src, k):
                return True
    return False


@rules_jit
def next_party(S, b):
    """The next party to the pending roll, from ``roll_stage`` on (the active
    Hero or attacker, then the hero target), who may reroll some die of it;
    ``roll_stage`` is left at him. -1 when none is left."""
    s = S[b]
    while s['roll_stage'] < 2:
        q = int(s['roll_party'][int(s['roll_stage'])])
        if q >= 0 and any_reroll(S, b, q):
            return q
        s['roll_stage'] += 1
    return -1


@rules_jit
def dust_waits(S, b, kind, span, target, then, first, second, p, q):
    """A roll of two dice, as ``dust_asks``. True if a party is asked."""
    return dust_asks(S, b, kind, 2, span, target, then, first, second, p, q)


@rules_jit
def dust_asks(S, b, kind, n, span, target, then, first, second, p, q):
    """A roll of n dice of ``kind`` (as ``start_roll``; ``roll_then``:
    ``then``), just made and showing ``first`` (and ``second``), waits before
    it applies on the Dust of Destiny of its parties -- p (the active Hero or
    the attacker; -1 none), then q (the hero it strikes; -1 none) -- each
    asked in turn where a reroll could serve him (PH_REROLL, L1330). True if
    one is asked; else nothing stays recorded and the caller applies the
    roll as it fell (the roll's own rerolls, made for a hero where they can
    only help, come before)."""
    if (p < 0 or dust_card(S, b, p) < 0) and (q < 0 or dust_card(S, b, q) < 0):
        return False
    start_roll(S, b, kind, n, span, target, first, second)
    s = S[b]
    s['roll_then'] = then
    s['roll_party'][0] = p
    s['roll_party'][1] = q
    r = next_party(S, b)
    if r >= 0:
        return pose(S, b, PH_REROLL, r)
    end_roll(S, b)
    return False


@rules_jit
def spend_reroll(S, b, q, src):
    """Source src of hero q rerolled the pending roll: it is spent for the
    roll; Divination for the turn (L1528), the Dust of Destiny leaves the game
    (L916, L1330)."""
    s = S[b]
    s['roll_used'] = s['roll_used'] | np.uint8(1 << used_bit(S, b, q, src))
    if src == RR_DIVINATION:
        s['spell_mark'][divination_card(S, b, q)] = 1
    elif src == RR_DUST:
        remove_card(S, b, dust_card(S, b, q))
