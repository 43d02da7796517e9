"""The parties of a combat, and what hitting and hurting does (L738-L799):
who fights and who is a foe, a hero's weapon and his boxes, the roll to hit,
damage, a foe wounded or killed and its Fame, a hero's wounds and death.
The steps of the Combat Round that use them are ``combat.py``'s; the spells
cast in combat (``spells.py``) use them too, which is why they stand apart.

The foes of a combat are the Monster chips and the Native chips of its
clearing (foe f: Monster chip f, then Native chip f - NUM_MONSTER_CHIPS).
Placed Action Cubes (``placed[p, BOX_*]``, and the Magic Cubes on the Spell
Card being cast, ``cast_cubes``) stay counted among the hero's healthy cubes
(``cubes[p, 0]``): a cube on a card is healthy (Interpretations, "Weight").
"""
import numpy as np

from dragongym.envs.core.jit import local_array, rules_jit
from .. import data as D
from ..constants import (
    CARD_IDS,
    CUBE_MAGIC, NUM_COLOURS,
    CLASS_IDS, CUBE_MIGHT, CUBE_SPEED, HS_ACTIVE, HST_ALERT, HST_HIDDEN, MAX_HEROES, MON_TAKEN, MON_TRAY,
    MONSTER_CHIP_KINDS, MONSTER_IDS, NUM_CARDS, NUM_CUBE_KINDS, NUM_MONSTER_CHIPS, NUM_NATIVE_CHIPS,
    OPT_ENDLESS, OPT_PVP, OPT_SHARED_FAME, OPT_TOUGH, T_WEAPON1, T_WEAPON2, T_WEAPONS,
)
from .base import (
    A_CUBE, AIM_HERO, CAST_CANCELED, CAST_DONE, DIS_DORMANT, DIS_SLOW, FOE_ARMORED, SD_MANEUVER, SP_DISORIENT,
    SP_ENVENOM, SP_HESITATION, SP_ILLUSION, SP_IRON_SKIN, SP_LIFE_ARMOR, SP_STRENGTH,
    A_BOX, A_CROSS, A_CARD, A_HEAL, KIND_CARD_END, KIND_CARD_FIRST, TAKES_KINDS, BOX_ATTACK, BOX_MANEUVER, BOX_MIGHT, CARD_KIND, CHAMBER, CLASS_SPEED_BOXES, DOOR_FOE,
    FOE_UNIQUE, CURSE_CLUMSINESS, CURSE_WEAKNESS, FOE_ELEMENTAL, FOE_FAME, FOE_HEALTH, FOE_SIDE, HEAL_HEART,
    HIT_BLANK, HIT_DIE_FACE, HIT_HIT, KIND_LENGTH, KIND_MIGHT_BOXES, KIND_SPEED_BOX, KIND_WEAPON_USE, LINEAGE_SPEED_BOXES,
    NUM_BOXES, NUM_FOES, PH_HEAL, PH_WOUND, RANGED_DIE_FACE, RANGED_HIGH, RANGED_LOW, WEAPON_EITHER, WEAPON_RANGED, pose, roll,
    ATK_MELEE, ATK_SPELL, FOE_SPELL, SD_ATTACK, SD_DAMAGE, SD_SPEED, SD_SWORDS, SP_DARK_MATTER, SPELL_BOX_COUNT, vapor,
    NUM_TENTACLES, TENTACLE_CARDS, TENT_ATTACK, TENT_MANEUVER, DISCORD_CARDS, CTRL_WAITING, CTRL_SHAPE, shifted,
    hit_passes, SP_SOUL_SAVE, ROLL_RANGED, ATTACK_WEAPON,
)
from .equipment import (
    enforce_weight, equipped, kind_equipped,
)
from .fate import kill_hero, remove_card
from .treasures import (
    band_reroll, dust_waits, stone_tie,
    ELVEN_SLIPPERS, GUARD_CHARM, cube_on, cubes_on_cards, guard_charm, energy_cubes, free_magic, free_might, free_speed, ring_boxes,
)
from .trade import door_closed
from .magic import clear_cast, curse_held, end_spell, end_spells_on, hero_has_spell, permanent_active, spell_on_target
from .missions import note_kill

# the step of the Combat Round now (``combat_step``, L686-L781)
CS_NONE = 0            # no combat under way
CS_CHALLENGE = 1       # 1. Challenge: hidden heroes may unhide, then the Monsters challenge (L688)
CS_EVADE = 2           # 3. Evade (2. Activation is the magic part's; nothing to do without spells, L695)
CS_TARGET = 3          # 4. Target (L706-L712)
CS_TACTICS = 4         # 5. Hero Tactics, in secret (L714-L724)
CS_MONSTER_TACTICS = 5 # 6. Monster Tactics (L726-L728)
CS_RESOLVE = 6         # 7. Resolve (L730-L769)
CS_CLEANUP = 7         # 8. Cleanup (L771-L781)

# a hero's part in this battle phase's combats (``hero_combat``)
HC_NONE = 0            # his clearing has not been fought yet
HC_FIGHTING = 1        # in the combat now under way
HC_EVADED = 2          # evaded: takes no further part (L703)
HC_KILLED = 3          # killed in the combat (L765, L787)
HC_DONE = 4            # his clearing's combat is over

# ``hero_cflags`` bits (this round, but CF_NATIVE_FOE: this combat)
CF_ATTACKED = 1        # his attack this round is resolved (or he has none left)
CF_STRIKES = 2         # his attack is among those striking now (L736)
CF_THROWS = 4          # SECRET in Tactics: his attack this round throws his weapon (L928)
CF_THREW = 8           # he threw his weapon this round: Rearm is due (L774)
CF_USED_CARD = 16      # he put cubes on his Weapon Card this round: no Adjust Equipment (L773, L977)
CF_NATIVE_FOE = 32     # he targeted a Native in this combat (L1006)
CF_SWORD_DONE = 64     # his Air Sword's attack this round is resolved (L1520)
CF_SWORD_STRIKES = 128 # his Air Sword's attack is among those striking now

# ``foe_flags`` bits (this round)
FF_ATTACKED = 1        # its attack this round is resolved
FF_STRIKES = 2         # its attack is among those striking now (L736)
FF_LURED = 4           # a hero lured it this round: it challenges him (optional Luring, L1130)
FF_CTRL_ASKED = 8      # a controlled Monster whose target and side its controller chose this round (PH_CTRL_TARGET, L710)

# how far the strike of ``atk_foe`` on ``atk_victim`` is (``atk_stage``)
AS_HIT = 0             # roll for the next victim
AS_ARMOR = 1           # hit: the victim chooses the armour it takes the hit on (L751)
AS_DAMAGE = 2          # the armour is chosen: apply the damage
AS_WOUND = 3           # the victim chooses the cube to wound (L787)
AS_REROLL = 4          # the Hit Dice hit the victim: he may reroll them with his Dust of Destiny (PH_REROLL, L1330)
AS_LANDED = 5          # the hit stands after the victim's rerolls: armour, then damage
AS_HURT = 6            # the Ranged Attack Dice stood after the rerolls: the damage ``atk_hurt`` applies

CUBE_LIMIT = 5
"""Action Cubes a hero may place in a Combat Round; an Alert Action this
turn allows one more, a Speed Cube (L716)."""
DOOR_DAMAGE = 4
"""Damage of one attack that opens the Chamber's Massive Door (L1240)."""
NATIVE_TAKEN = MON_TAKEN
"""``native_clearing`` of a Native chip a hero has killed and keeps (L799, L1005)."""
WOUND_CHOICES = 1 + NUM_CUBE_KINDS + 2 * NUM_BOXES + NUM_COLOURS + len(TAKES_KINDS) + 1
"""The most cubes a wound may be taken from (``wound_choices``)."""

ARCHER = CLASS_IDS.index("archer")
"""The Archer rerolls one Ranged Attack Die per attack (Steady, L1208)."""
ROGUE = CLASS_IDS.index("rogue")
"""The Rogue may evade on a tie, with two Hit Dice (Elusive, L1224)."""
WARLOCK = CLASS_IDS.index("warlock")
"""The Warlock heals a cube once a round for a kill or wound (Blood Lust, L1228)."""
WARRIOR = CLASS_IDS.index("warrior")
"""The Warrior may always swap a Weapon Card in Adjust Equipment (Adept, L1230)."""
DRUID = CLASS_IDS.index("druid")
"""The Druid spares a green cube on a wound-symbol box (Natural Emanation, L1216)."""
ILLUSIONIST = CLASS_IDS.index("illusionist")
"""The Illusionist spares the wound-symbol box's cube of a targeted or self-or-other spell (Focus, L1220)."""
SORCERER = CLASS_IDS.index("sorcerer")
"""The Sorcerer's spell cast with one colour strikes 1 faster (Specialized, L1226)."""
CONJURER = CLASS_IDS.index("conjurer")
"""The Conjurer rerolls one die for a blue spell's effect (Mastery, L1214)."""
GREEN = D.MAGIC_COLOURS.index("green")
FOE_UNDEAD = np.array([D.REALM.monsters[MONSTER_IDS[k]].undead for k in MONSTER_CHIP_KINDS]
                      + [False] * NUM_NATIVE_CHIPS, dtype=np.int8)
"""Foe f -> 1 for an undead Monster (the skull, L1012); Natives are not undead."""
FOE_FLYING = np.array([D.REALM.monsters[MONSTER_IDS[k]].flying for k in MONSTER_CHIP_KINDS]
                      + [False] * NUM_NATIVE_CHIPS, dtype=np.int8)
FOE_GUARDIAN = np.array([D.REALM.monsters[MONSTER_IDS[k]].kind == "guardian" for k in MONSTER_CHIP_KINDS]
                        + [False] * NUM_NATIVE_CHIPS, dtype=np.int8)
"""Foe f -> 1 for a flying Monster (L1091); for a Guardian (L1254)."""


# ================================================================ who is who
@rules_jit
def in_fight(S, b, p):
    """Hero p is in the combat under way (not evaded, not killed), as
    himself or Shape Shifted into a Monster."""
    return S[b]['hero_combat'][p] == HC_FIGHTING


@rules_jit
def fighting(S, b, p):
    """Hero p takes part in the combat under way as a hero (not evaded, not
    killed): not Shape Shifted, when the chip of his Monster fights for him
    and he has no cubes, possessions, tactics, challenge or target of his own
    (L1564; ``in_fight``)."""
    return S[b]['hero_combat'][p] == HC_FIGHTING and not shifted(S, b, p)


@rules_jit
def hidden(S, b, p):
    return (S[b]['hero_status'][p] & HST_HIDDEN) != 0


@rules_jit
def pick(S, b, n):
    """A random index 0..n-1; no draw when there is a single choice."""
    if n <= 1:
        return 0
    return roll(S, b, n)


@rules_jit
def foe_here(S, b, f):
    """Foe f stands in the clearing being fought and takes part: not vapor (L1536)."""
    s = S[b]
    c = int(s['combat_clearing'])
    if s['combat_step'] == CS_NONE or c < 0:
        return False
    if f < NUM_MONSTER_CHIPS:
        return s['mon_clearing'][f] == c and not vapor(S, b, f)
    return s['native_clearing'][f - NUM_MONSTER_CHIPS] == c and not vapor(S, b, f)


@rules_jit
def foe_is_monster(S, b, f):
    """Foe f fights as a Monster in this combat: a Monster chip in the
    clearing, or one of its Natives once a Native was targeted (L1005; until
    then Natives neither challenge nor attack, L693, L1003)."""
    return foe_here(S, b, f) and (f < NUM_MONSTER_CHIPS or S[b]['natives_hostile'] != 0) \
        and S[b]['foe_ctrl'][f] == 0                # L688, L692: a Monster a hero controls counts as a hero


@rules_jit
def controller(S, b, f):
    """The hero who controls foe f (Rule Undead, Elemental, L1506, L1550); -1
    (``foe_ctrl`` holds 1 + the hero, so that a zeroed record controls nothing)."""
    return int(S[b]['foe_ctrl'][f]) - 1


@rules_jit
def versus(S, b, f):
    """The foe f fights this round among the chips (``foe_vs``, 1 + the foe):
    the controlled Monster it challenges, or a controlled Monster's target
    (L688, L710); -1."""
    return int(S[b]['foe_vs'][f]) - 1


@rules_jit
def add_extra_chip(S, b, f, g):
    """Controlled Monster g is one more target of foe f's multi-target attack
    this round (L728; it counts as a hero, L692): into ``foe_extra_vs``."""
    s = S[b]
    for i in range(s['foe_extra_vs'].shape[1]):
        if s['foe_extra_vs'][f, i] == 0 or s['foe_extra_vs'][f, i] == g + 1:
            s['foe_extra_vs'][f, i] = g + 1
            return


@rules_jit
def extra_chip(S, b, f, g):
    """Chip g is among the targets foe f's multi-target attack added (L728)."""
    s = S[b]
    for i in range(s['foe_extra_vs'].shape[1]):
        if s['foe_extra_vs'][f, i] == g + 1:
            return True
    return False


@rules_jit
def extra_chips(S, b, f):
    """Foe f's multi-target attack added a controlled Monster (L728, L692)
    still in the fight under its controller."""
    s = S[b]
    for i in range(s['foe_extra_vs'].shape[1]):
        g = int(s['foe_extra_vs'][f, i]) - 1
        if g >= 0 and foe_here(S, b, g) and controller(S, b, g) >= 0:
            return True
    return False


@rules_jit
def ctrl_active(S, b, f):
    """Foe f fights this round as a hero under the hero who controls it
    (Rule Undead, Elemental; L692, L1506, L1550): it stands in the fight, its
    controller still fights, and it is not an Elemental just arrived (it
    fights from the next Combat Round, L1550)."""
    s = S[b]
    p = controller(S, b, f)
    return p >= 0 and in_fight(S, b, p) and foe_here(S, b, f) and (s['ctrl_flags'][f] & CTRL_WAITING) == 0


@rules_jit
def monsters_here(S, b):
    """Foes fighting as Monsters in the clearing."""
    n = 0
    for f in range(NUM_FOES):
        if foe_is_monster(S, b, f):
            n += 1
    return n


@rules_jit
def foes_here(S, b):
    """Monsters and Natives in the clearing: what a hero may target (L709, L1003)."""
    n = 0
    for f in range(NUM_FOES):
        if foe_here(S, b, f):
            n += 1
    return n


@rules_jit
def foe_side(S, b, f):
    """The side of foe f's chip up: 0 the name side, 1 the back (L726)."""
    s = S[b]
    if f < NUM_MONSTER_CHIPS:
        return int(s['mon_flipped'][f] != 0)
    return int(s['native_flipped'][f - NUM_MONSTER_CHIPS] != 0)


@rules_jit
def foe_value(S, b, f, col):
    """Column SD_* of the side of foe f's chip now up. Under an active Dark
    Matter (L1502) its might (the red cube's damage) and attack speed are
    swapped and its swords ignored; a side casting a spell attacks instead at
    the speed of its Spell Card's box count, with might its old speed, as a
    melee attack (Interpretations)."""
    side = foe_side(S, b, f)
    v = int(FOE_SIDE[f, side, col])
    if (col != SD_ATTACK and col != SD_SPEED and col != SD_DAMAGE and col != SD_SWORDS) or not dark_matter_on(S, b, f):
        return v
    k = int(FOE_SPELL[f, side])
    if col == SD_ATTACK:
        return ATK_MELEE if v == ATK_SPELL else v
    if col == SD_SWORDS:
        return 0
    if col == SD_DAMAGE:
        return int(FOE_SIDE[f, side, SD_SPEED])
    return int(SPELL_BOX_COUNT[k]) if k >= 0 else int(FOE_SIDE[f, side, SD_DAMAGE])


@rules_jit
def dark_matter_on(S, b, f):
    """An active Dark Matter lies on foe f (L1502)."""
    sp = spell_on_target(S, b, SP_DARK_MATTER, f)
    return sp >= 0 and permanent_active(S, b, sp)


@rules_jit
def flip_foe(S, b, f):
    s = S[b]
    if f < NUM_MONSTER_CHIPS:
        s['mon_flipped'][f] = 1 - foe_side(S, b, f)
    else:
        s['native_flipped'][f - NUM_MONSTER_CHIPS] = 1 - foe_side(S, b, f)


@rules_jit
def random_hero(S, b, native_foes, exclude):
    """A random hero of the combat that a foe may target: fighting and
    unhidden (monsters may not target an ambusher, L682, L890); only heroes
    who targeted a Native with ``native_foes`` (L1006); none whose bit is in
    ``exclude``. -1 if there is none."""
    s = S[b]
    n = int(s['num_players'])
    cand = local_array(MAX_HEROES, np.int64)
    m = 0
    for i in range(n):
        p = int(s['turn_order'][i])
        if p < 0 or not fighting(S, b, p) or hidden(S, b, p) or (exclude >> p) & 1:
            continue
        if native_foes and (s['hero_cflags'][p] & CF_NATIVE_FOE) == 0:
            continue
        cand[m] = p
        m += 1
    if m == 0:
        return -1
    return int(cand[pick(S, b, m)])


# ================================================================ a hero's weapon and boxes
@rules_jit
def hero_weapon(S, b, p):
    """p's equipped Weapon Card, in a weapon position (L948-L950); -1."""
    s = S[b]
    for c in range(NUM_CARDS):
        if equipped(S, b, p, c) and KIND_WEAPON_USE[CARD_KIND[c]] > 0:
            slot = int(s['card_slot'][c])
            if slot == T_WEAPON1 or slot == T_WEAPON2 or slot == T_WEAPONS:
                return c
    return -1


@rules_jit
def can_throw(S, b, p, c):
    """p may throw weapon c: a melee-or-ranged weapon held in one hand
    (L928, L930: weapons are thrown only with one hand)."""
    return KIND_WEAPON_USE[CARD_KIND[c]] == WEAPON_EITHER and S[b]['card_slot'][c] != T_WEAPONS


@rules_jit
def ranged_armed(S, b, p):
    """p is armed with a ranged weapon: a ranged one, or one he can throw (L682)."""
    c = hero_weapon(S, b, p)
    return c >= 0 and (KIND_WEAPON_USE[CARD_KIND[c]] == WEAPON_RANGED or can_throw(S, b, p, c))


@rules_jit
def might_capacity(S, b, p, c):
    """Red boxes of weapon c: mandatory and optional, the optional box a
    spear has only when wielded two-handed (L722, L950), and the required
    box the Warblade fills with a Speed Cube (L1482)."""
    k = int(CARD_KIND[c])
    n = int(KIND_MIGHT_BOXES[k, 0]) + int(KIND_MIGHT_BOXES[k, 1]) + int(KIND_SPEED_BOX[k])
    if S[b]['card_slot'][c] == T_WEAPONS:
        n += int(KIND_MIGHT_BOXES[k, 2])
    return n


@rules_jit
def might_given(S, b, p, c):
    """(mandatory, optional) might boxes of p's weapon c filled without a
    cube (``treasures.free_might``); never the Warblade's box, which takes a
    Speed Cube (L1482)."""
    k = int(CARD_KIND[c])
    mandatory = int(KIND_MIGHT_BOXES[k, 0])
    return free_might(S, b, p, c, mandatory, might_capacity(S, b, p, c) - mandatory - int(KIND_SPEED_BOX[k]))


@rules_jit
def might_open(S, b, p, c):
    """(mandatory boxes still to fill with cubes, boxes a cube may go in) of
    p's weapon c, those filled for free left out; the Warblade's Speed Cube
    box is one of its mandatory boxes (L1482)."""
    fm, fo = might_given(S, b, p, c)
    k = int(CARD_KIND[c])
    return int(KIND_MIGHT_BOXES[k, 0]) + int(KIND_SPEED_BOX[k]) - fm, might_capacity(S, b, p, c) - fm - fo


@rules_jit
def weapon_might(S, b, p, c):
    """The Might in p's weapon c this round: his cubes and the boxes filled for free (L750)."""
    fm, fo = might_given(S, b, p, c)
    return int(S[b]['placed'][p, BOX_MIGHT]) + fm + fo


@rules_jit
def printed_speed_boxes(S, b, p, box):
    """p's attack speed (BOX_ATTACK) or maneuver speed (BOX_MANEUVER) boxes
    printed on his Lineage and Class Cards (L358, L718)."""
    s = S[b]
    w = 0 if box == BOX_ATTACK else 1
    return int(LINEAGE_SPEED_BOXES[s['hero_lineage'][p], s['lineage_side'][p], w]) + \
        int(CLASS_SPEED_BOXES[s['hero_class'][p], s['class_side'][p], w])


@rules_jit
def speed_boxes(S, b, p, box):
    """p's attack or maneuver speed boxes a Speed Cube may go in: the printed
    ones, the Clashing or Quick Ring's (L1318, L1390), less the one the
    Gloves of Aggression or the Talaria of the Gladiator fill (L1348, L1450)."""
    printed = printed_speed_boxes(S, b, p, box)
    return printed + ring_boxes(S, b, p, box) - free_speed(S, b, p, box, printed)


@rules_jit
def speed_given(S, b, p, box):
    """The attack or maneuver speed p's equipped cards give without a cube
    placed (the Gloves of Aggression, the Talaria of the Gladiator)."""
    return free_speed(S, b, p, box, printed_speed_boxes(S, b, p, box))


@rules_jit
def cube_limit(S, b, p):
    """Action Cubes p may place this Combat Round: 5, and one more Speed
    Cube if he took the Alert Action this turn (L465, L716) and one more
    after a Potion of Energy (L1378). The fifth cube may be of any kind,
    those beyond only Speed Cubes."""
    return CUBE_LIMIT + (1 if S[b]['hero_status'][p] & HST_ALERT else 0) + energy_cubes(S, b, p)


@rules_jit
def unplaced(S, b, p, kind):
    """p's healthy cubes of ``kind`` (CUBE_*) not placed on a box."""
    s = S[b]
    n = int(s['cubes'][p, 0, kind])
    if kind == CUBE_MIGHT or kind == CUBE_SPEED:
        n -= placed_kind(S, b, p, kind)
    else:
        n = free_magic(S, b, p, kind - CUBE_MAGIC)       # off his Spell Card and his treasures
    return n


@rules_jit
def placed_kind(S, b, p, kind):
    """p's cubes of ``kind`` (CUBE_MIGHT or CUBE_SPEED) in his boxes: those
    of each box's own colour, and those of the other kind (``placed_cross``:
    Speed Cubes in might boxes, Might Cubes in speed boxes, L1308-L1314,
    L1482, L1504)."""
    s = S[b]
    if kind == CUBE_MIGHT:
        return int(s['placed'][p, BOX_MIGHT]) - int(s['placed_cross'][p, BOX_MIGHT]) + \
            int(s['placed_cross'][p, BOX_ATTACK]) + int(s['placed_cross'][p, BOX_MANEUVER])
    return int(s['placed'][p, BOX_ATTACK]) - int(s['placed_cross'][p, BOX_ATTACK]) + \
        int(s['placed'][p, BOX_MANEUVER]) - int(s['placed_cross'][p, BOX_MANEUVER]) + int(s['placed_cross'][p, BOX_MIGHT]) \
        + (1 if s['hero_aim'][p] > 0 else 0)                     # Player vs. Player's aim box (L1186)


@rules_jit
def clear_placed(S, b, p):
    """p's cubes come off his boxes (Cleanup, death, the end of combat)."""
    s = S[b]
    s['hero_aim'][p] = 0
    s['challenge_cubes'][p] = 0
    for x in range(NUM_BOXES):
        s['placed'][p, x] = 0
        s['placed_cross'][p, x] = 0


@rules_jit
def realign_cubes(S, b, p):
    """L1504: Dark Matter hits hero p after he placed: his unresolved
    attacks swap Speed and Might Cubes at once. Each box keeps as many cubes
    as his healthy cubes of the other kind allow, all of them now of the
    other kind, the boxes taken in order might, attack, maneuver
    (Interpretations, "Dark Matter on a Hero"): a weapon's mandatory box left
    empty cancels its attack, as a wound does (L791)."""
    s = S[b]
    might = int(s['cubes'][p, 0, CUBE_MIGHT])
    speed = int(s['cubes'][p, 0, CUBE_SPEED])
    for x in range(NUM_BOXES):
        n = int(s['placed'][p, x])
        if x == BOX_MIGHT:
            n = min(n, speed)
        else:
            n = min(n, might)
            might -= n
        s['placed'][p, x] = n
        s['placed_cross'][p, x] = n


@rules_jit
def cubes_placed(S, b, p):
    """Action Cubes p has placed this round: in his might, attack and
    maneuver boxes and on the Spell Card he casts (the cube limit counts
    them all, L716, L723), and the Speed Cube in an aim box (Player vs.
    Player, L1186)."""
    s = S[b]
    n = int(s['placed'][p, 0]) + int(s['placed'][p, 1]) + int(s['placed'][p, 2]) + cubes_on_cards(S, b, p, -1) \
        + (1 if s['hero_aim'][p] > 0 else 0)
    for k in range(NUM_COLOURS):
        n += int(s['cast_cubes'][p, k])
    return n


@rules_jit
def attack_length(S, b, p):
    """The attack length of p's weapon: the bottom number when it is thrown,
    the top one in melee (L922, L928)."""
    c = hero_weapon(S, b, p)
    if c < 0:
        return 0
    thrown = 1 if S[b]['hero_cflags'][p] & CF_THROWS else 0
    return int(KIND_LENGTH[CARD_KIND[c], thrown])


@rules_jit
def hero_attack_ready(S, b, p):
    """p's attack this round will happen: his target is still in the
    clearing, his weapon is equipped with a cube on it and every mandatory
    box filled (L722, L750; a wound emptying one cancels it, L791)."""
    s = S[b]
    f = int(s['hero_target'][p])
    if not fighting(S, b, p) or f < 0:
        return False
    if f > DOOR_FOE:                  # a hero: a spell's target, a weapon's only in Player vs. Player (L1174)
        if (s['optional_rules'] & OPT_PVP) == 0 or f == AIM_HERO + p or not fighting(S, b, f - AIM_HERO):
            return False
    elif f == DOOR_FOE:
        if not door_closed(S, b, CHAMBER):                       # opened by an earlier attack
            return False
    elif not foe_here(S, b, f):
        return False
    c = hero_weapon(S, b, p)
    if c < 0:
        return False
    mandatory, _ = might_open(S, b, p, c)
    return weapon_might(S, b, p, c) >= 1 and int(s['placed'][p, BOX_MIGHT]) >= mandatory \
        and int(s['placed_cross'][p, BOX_MIGHT]) >= KIND_SPEED_BOX[CARD_KIND[c]]


# ================================================================ lasting curses in combat (data/curses.txt)
@rules_jit
def clumsy(S, b, p):
    """1 under the Clumsiness curse: -1 to hero p's maneuver speed (data/curses.txt)."""
    return 1 if curse_held(S, b, p, CURSE_CLUMSINESS) else 0


@rules_jit
def weak(S, b, p):
    """1 under the Weakness curse: -1 to the base damage of hero p's attacks (data/curses.txt)."""
    return 1 if curse_held(S, b, p, CURSE_WEAKNESS) else 0


# ================================================================ to hit and damage (L738-L758)
@rules_jit
def roll_to_hit(S, b, speed, maneuver):
    """L740-L743: an attack speed above the target's maneuver speed hits;
    otherwise the two Hit Dice are rolled and the less favourable face
    counts (the Golden Rule, L216): a blank misses, two hits hit, and hits
    with equal signs hit only at equal speeds. A speed of 0 or less is still
    an attack or a maneuver (L718)."""
    if speed > maneuver:
        return True
    return hit_result(hit_die(S, b), hit_die(S, b), speed, maneuver)


@rules_jit
def hit_die(S, b):
    """One Hit Die: its face, HIT_*."""
    return int(HIT_DIE_FACE[roll(S, b, HIT_DIE_FACE.shape[0])])


@rules_jit
def hit_result(first, second, speed, maneuver):
    """Two Hit Dice faces read by the Golden Rule (L740-L743, L216): the less
    favourable counts -- a blank misses, two hits hit, an equal sign hits at
    equal speeds."""
    equal = 1 if speed == maneuver else 0
    return hit_passes(first, equal) and hit_passes(second, equal)


@rules_jit
def ranged_dice(S, b, steady, base, health, tough):
    """L753: the two Ranged Attack Dice (``ranged_pair``); returns the worse
    result, the damage's change."""
    out = local_array(2, np.int64)
    return ranged_pair(S, b, steady, base, health, tough, out)


@rules_jit
def ranged_pair(S, b, steady, base, health, tough, out):
    """L753: the two Ranged Attack Dice into ``out``; the worse result adjusts
    the damage (returned). ``steady``: the attacker is an Archer, who may
    reroll one of them (L1208) for his ``base`` damage on a foe of
    ``health``. Only rerolling the worse die can raise the result, and it is
    rerolled when that can turn what the strike does (nothing, a wound, a
    kill: ``strike_outcome``) for the better and never for the worse
    (Readings of the engine); the new face counts. ``tough``: a strike short
    of a kill does nothing (the optional Tough Monsters, L1136; the Massive
    Door, which only a 4 opens, L1240). The dice kept may still be rerolled
    by a Dust of Destiny (ROLL_RANGED, L1330)."""
    first = int(RANGED_DIE_FACE[roll(S, b, RANGED_DIE_FACE.shape[0])])
    second = int(RANGED_DIE_FACE[roll(S, b, RANGED_DIE_FACE.shape[0])])
    low = min(first, second)
    high = max(first, second)
    if steady:
        now = strike_outcome(base + low, health, tough)
        if strike_outcome(base + min(RANGED_LOW, high), health, tough) >= now and \
                strike_outcome(base + min(RANGED_HIGH, high), health, tough) > now:
            first = int(RANGED_DIE_FACE[roll(S, b, RANGED_DIE_FACE.shape[0])])
            second = high
    out[0] = first
    out[1] = second
    return min(first, second)


@rules_jit
def strike_outcome(d, health, tough):
    """What damage d does to a foe of ``health`` (L747, L755-L758): 0
    nothing, 1 a wound, 2 a kill; ``tough``: no wounds, so short of a kill
    nothing (L1136)."""
    if d < 1:
        return 0
    if d < health:
        return 0 if tough else 1
    return 2


@rules_jit
def attack_damage(S, b, cubes, swords, armored):
    """L750-L752: the base damage is the cubes on the weapon (a Monster's
    red-cube number) plus its sword icons; an attack with a sword icon on an
    armoured target loses one."""
    d = cubes + swords
    if armored and swords > 0:
        d -= 1
    return d


# ================================================================ a foe wounded or killed (L755-L758, L785, L797-L799)
@rules_jit
def warlock_heal(S, b, p, f):
    """L1228: once per Combat Round, a Warlock who kills or wounds a
    non-undead foe (armoured or not) heals one Action Cube at once: a cube
    or a Heart of his wounded box goes back to the healthy box. With one
    kind there it is healed without asking; with several he chooses which,
    by the decision of a rest's cubes (PH_HEAL, L550). True if it is posed.
    A hero makes one attack a Combat Round (one attacking card, L720;
    ``CF_ATTACKED``), so this comes once a round at most."""
    s = S[b]
    if s['hero_class'][p] != WARLOCK or FOE_UNDEAD[f] != 0:
        return False
    kinds = 0
    only = -1
    for k in range(NUM_CUBE_KINDS):
        if s['cubes'][p, 1, k] > 0:
            kinds += 1
            only = k
    if s['hearts'][p, 1] > 0:
        kinds += 1
        only = HEAL_HEART
    if kinds == 0:
        return False
    if kinds > 1:
        s['heal_left'] = 1
        return pose(S, b, PH_HEAL, p)
    if only == HEAL_HEART:
        s['hearts'][p, 1] -= 1
        s['hearts'][p, 0] += 1
    else:
        s['cubes'][p, 1, only] -= 1
        s['cubes'][p, 0, only] += 1
    return False


@rules_jit
def damage_monster(S, b, f, d, p):
    """Hero p's strike of damage d on foe f (``strike_monster``; a kill of a
    Native makes him an Outlaw)."""
    return strike_monster(S, b, f, d, p, True)


@rules_jit
def strike_monster(S, b, f, d, p, outlaw):
    """L755-L758: damage at least the foe's health (printed health less its
    wounds, L757) kills it; less gives it one wound -- none under the optional
    Tough Monsters (L1136: such a hit does not harm it, and so is no wound of
    the round, L781). The optional Shared Fame keeps who placed each wound
    (L1152). True if the foe was harmed (wounded or killed)."""
    s = S[b]
    if d >= int(FOE_HEALTH[f]) - int(s['foe_wounds'][f]):
        s['round_wounds'] = 1
        credit_kill(S, b, f, p, outlaw)
        return True
    if s['optional_rules'] & OPT_TOUGH:
        return False
    s['round_wounds'] = 1
    wound_monster(S, b, f)
    s['foe_wound_by'][f, p] += 1
    return True


@rules_jit
def wound_monster(S, b, f):
    """L785: a pink Status Cube on the chip; each lowers its health by one."""
    S[b]['foe_wounds'][f] += 1


@rules_jit
def monster_killed(S, b, f, p):
    """Hero p kills foe f (``credit_kill``, a Native's Outlaw Token included)."""
    credit_kill(S, b, f, p, True)


@rules_jit
def credit_kill(S, b, f, p, outlaw):
    """L799: hero p, who struck the final blow, takes the chip (an Elemental
    goes back to the pool instead) and at once its Fame -- shared under the
    optional Shared Fame (``share_fame``). A Native fighting as a Monster dies
    the same way (L1005), and makes its killer an Outlaw: one Outlaw Token
    (L1115) -- unless ``outlaw`` is off: a kill a Discord's Monster made
    earns its caster only the Fame (L1596). The optional Endless Monsters
    returns a killed Monster to the tray, a unique one or a Native excepted
    (L1162-L1166)."""
    s = S[b]
    if s['ctrl_flags'][f] & CTRL_SHAPE and controller(S, b, f) >= 0:
        killed_by_hero(S, b, controller(S, b, f), p)    # a Shape Shifted hero's chip is he: p killed a hero (L1190)
        return
    if not (FOE_ELEMENTAL[f] and controller(S, b, f) == p):   # L1550: no Fame for killing one's own Elemental
        share_fame(S, b, f, p)
        note_kill(S, b, f, p)             # for his missions and titles (L1079, L567)
    foe_dies(S, b, f)
    if f < NUM_MONSTER_CHIPS:
        if FOE_ELEMENTAL[f] or (s['optional_rules'] & OPT_ENDLESS and not FOE_UNIQUE[f]):
            s['mon_clearing'][f] = MON_TRAY
        else:
            s['mon_clearing'][f] = MON_TAKEN
            s['mon_taker'][f] = p
    else:
        i = f - NUM_MONSTER_CHIPS
        s['native_clearing'][i] = NATIVE_TAKEN
        s['native_taker'][i] = p
        if outlaw and s['outlaw'][p] < 127:  # no limit in the rules (L1111); an int8 holds 127
            s['outlaw'][p] += 1


@rules_jit
def foe_slain(S, b, f):
    """Foe f is killed by no hero (a Monster's Fiery Chasm, L1262): its
    spells and curses end, a Monster goes back to the tray, a Native leaves
    play; no one takes it or its Fame (Interpretations)."""
    s = S[b]
    foe_dies(S, b, f)
    if f < NUM_MONSTER_CHIPS:
        s['mon_clearing'][f] = MON_TRAY
    else:
        s['native_clearing'][f - NUM_MONSTER_CHIPS] = NATIVE_TAKEN


@rules_jit
def foe_dies(S, b, f):
    """What dies with foe f: the spells on it (L1058), its curses, its wounds
    (and who dealt them); its chip is turned name side up. The chip of a
    Shape Shifted hero dies with him: he is the Monster (L1564, L691;
    Interpretations, "Shape Shift")."""
    s = S[b]
    if s['ctrl_flags'][f] & CTRL_SHAPE and controller(S, b, f) >= 0:
        killed_by_hero(S, b, controller(S, b, f), -1)   # his spells end with him: the chip is back in the tray
        return
    end_spells_on(S, b, f)
    S[b]['foe_curses'][f] = 0
    foe_recovers(S, b, f)


@rules_jit
def foe_recovers(S, b, f):
    """Foe f's wounds are discarded (with who dealt them) and its chip is
    turned name side up (L811)."""
    s = S[b]
    s['foe_wounds'][f] = 0
    for q in range(MAX_HEROES):
        s['foe_wound_by'][f, q] = 0
    if f < NUM_MONSTER_CHIPS:
        s['mon_flipped'][f] = 0
    else:
        s['native_flipped'][f - NUM_MONSTER_CHIPS] = 0


@rules_jit
def share_fame(S, b, f, p):
    """The Fame of killing foe f, p having struck the death blow (L799). With
    the optional Shared Fame (L1150-L1152) each hero who wounded it gets the
    Fame in proportion to his cubes, the death blow counted as the cubes that
    filled the rest of its printed health (Interpretations), rounded down; the
    Fame left over goes to p."""
    s = S[b]
    fame = int(FOE_FAME[f])
    if s['optional_rules'] & OPT_SHARED_FAME:
        health = int(FOE_HEALTH[f])
        given = 0
        for q in range(MAX_HEROES):
            cubes = int(s['foe_wound_by'][f, q])
            if q == p:
                cubes += health - int(s['foe_wounds'][f])
            share = fame * cubes // health
            if q != p:
                s['fame'][q] += share
                given += share
        fame -= given
    s['fame'][p] += fame


# ================================================================ a hero's wounds and death (L783-L795, L408)
ROBUST_RING = CARD_IDS.index("robust_ring")


@rules_jit
def hero_health(S, b, p):
    """L766: a Hero's health is his healthy Hearts; the Robust Ring equipped
    adds one (L1402; Interpretations, "Robust Ring"): a hit of that much
    damage or more kills him (L765)."""
    return int(S[b]['hearts'][p, 0]) + kind_equipped(S, b, p, ROBUST_RING)


@rules_jit
def wound_choices(S, b, p, out):
    """The cubes p may move to his wounded box (L787): a healthy Heart, an
    unplaced healthy cube of each kind (A_HEAL + kind), a cube placed in a
    box of his Lineage, Class or Weapon Card (A_BOX + box), a Magic Cube on
    the Spell Card he casts (A_CUBE + kind, L789), a Magic Cube on a
    treasure (A_CARD + c), or his Guard Charm discarded instead (A_CARD + c,
    L1352). Action codes into
    ``out`` (WOUND_CHOICES long); returns the count."""
    s = S[b]
    n = 0
    if s['hearts'][p, 0] > 0:
        out[n] = A_HEAL + HEAL_HEART
        n += 1
    for k in range(NUM_CUBE_KINDS):
        if unplaced(S, b, p, k) > 0:
            out[n] = A_HEAL + k
            n += 1
    for x in range(NUM_BOXES):
        if s['placed'][p, x] > s['placed_cross'][p, x]:
            out[n] = A_BOX + x
            n += 1
        if s['placed_cross'][p, x] > 0:
            out[n] = A_CROSS + x
            n += 1
    for k in range(NUM_COLOURS):
        if s['cast_cubes'][p, k] > 0:
            out[n] = A_CUBE + CUBE_MAGIC + k
            n += 1
    for i in range(TAKES_KINDS.shape[0]):                        # a Magic Cube on a treasure (L787)
        kind = int(TAKES_KINDS[i])
        for c in range(KIND_CARD_FIRST[kind], KIND_CARD_END[kind]):
            if s['card_cube'][c] > 0 and equipped(S, b, p, c):
                out[n] = A_CARD + c
                n += 1
    c = guard_charm(S, b, p)                                     # L1352: the charm instead of the wound
    if c >= 0:
        out[n] = A_CARD + c
        n += 1
    return n


@rules_jit
def wound_hero(S, b, p):
    """L787: p moves one Action Cube of his choice to his wounded box at
    once; asked only when he has a choice. True if the choice is posed."""
    out = local_array(WOUND_CHOICES, np.int64)
    m = wound_choices(S, b, p, out)
    if m == 0:
        return False
    if m == 1:
        apply_wound(S, b, p, int(out[0]))
        return False
    S[b]['atk_stage'] = AS_WOUND
    return pose(S, b, PH_WOUND, p)


@rules_jit
def apply_wound(S, b, p, a):
    """Move the cube named by action a to p's wounded box. A card now too
    heavy for his healthy Might Cubes drops to the backpack, even in combat
    (L976), and the cubes on a dropped weapon come off it. A Might Cube taken
    from a weapon whose mandatory box it leaves empty cancels its attack if
    not yet made (L791), and fewer Speed Cubes change the speeds of the
    attacks still to come (L793): both follow from ``placed``. A cube taken
    from the Spell Card he casts leaves a box empty and cancels the spell if
    it has not yet been cast (L789). No healthy Heart left: he is killed
    (L787, L408)."""
    s = S[b]
    if a == A_HEAL + HEAL_HEART:
        s['hearts'][p, 0] -= 1
        s['hearts'][p, 1] += 1
    elif a >= A_CARD and a < A_CARD + NUM_CARDS and CARD_KIND[a - A_CARD] == GUARD_CHARM:
        remove_card(S, b, a - A_CARD)                             # L1352: discarded instead of the wound
        return
    elif a >= A_CARD and a < A_CARD + NUM_CARDS:                  # the Magic Cube on a treasure: its effect ends
        k = CUBE_MAGIC + int(s['card_cube'][a - A_CARD]) - 1
        s['card_cube'][a - A_CARD] = 0
        s['cubes'][p, 0, k] -= 1
        s['cubes'][p, 1, k] += 1
    else:
        if a >= A_CROSS:
            x = a - A_CROSS
            s['placed'][p, x] -= 1
            s['placed_cross'][p, x] -= 1
            k = CUBE_SPEED if x == BOX_MIGHT else CUBE_MIGHT
        elif a >= A_BOX:
            x = a - A_BOX
            s['placed'][p, x] -= 1
            k = CUBE_MIGHT if x == BOX_MIGHT else CUBE_SPEED
        elif a >= A_HEAL:
            k = a - A_HEAL
        else:
            k = a - A_CUBE
            s['cast_cubes'][p, k - CUBE_MAGIC] -= 1
            if s['cast_stage'][p] != CAST_DONE:
                s['cast_stage'][p] = CAST_CANCELED
        s['cubes'][p, 0, k] -= 1
        s['cubes'][p, 1, k] += 1
    enforce_weight(S, b, p)
    if hero_weapon(S, b, p) < 0:
        s['placed'][p, BOX_MIGHT] = 0
        s['placed_cross'][p, BOX_MIGHT] = 0
    check_hero_death(S, b, p)


@rules_jit
def check_hero_death(S, b, p):
    """L408, L787: a hero with no Heart in his healthy box dies at once."""
    s = S[b]
    if s['hearts'][p, 0] <= 0 and s['hero_state'][p] == HS_ACTIVE:
        hero_killed(S, b, p)


@rules_jit
def hero_killed(S, b, p):
    """Hero p is killed (L765, L787) by the attack now resolved on him: a
    hero's (``atk_by``, Player vs. Player: a weapon's hit or its wound,
    Affliction's wound, a Fireball's hit) or a Monster's -- by no hero, but
    a Monster a hero controls strikes for him (L692; it targets heroes only
    with Player vs. Player) (``killed_by_hero``)."""
    s = S[b]
    killer = int(s['atk_by']) - 1
    if killer < 0 and s['atk_foe'] >= 0:        # a Monster a hero controls strikes for him (L692, Player vs. Player)
        killer = controller(S, b, int(s['atk_foe']))
    killed_by_hero(S, b, p, killer if int(s['atk_victim']) == p else -1)


@rules_jit
def killed_by_hero(S, b, p, k):
    """Hero p is killed (L765, L787) by hero k's attack or spell, or by no
    hero (k = -1): ``fate.kill_hero`` does what death does (L801-L805); he
    takes no further part in the combat. With Player vs. Player (L1172) a
    hero's kill gives the killer the Fame death discards (L1190) and an
    Outlaw Token for a victim who is no Outlaw, or discards one of his own
    for an Outlaw (L1117, L1122: "only allowed if playing with the optional
    Player vs. Player rules")."""
    s = S[b]
    if k >= 0 and k != p and s['hero_state'][p] == HS_ACTIVE and (s['optional_rules'] & OPT_PVP) != 0:
        pvp_kill(S, b, k, p)
    kill_hero(S, b, p)                            # his spells and those on him end with him (fate.clear_hero)
    clear_cast(S, b, p)
    s['round_wounds'] = 1
    if s['hero_combat'][p] == HC_FIGHTING:
        s['hero_combat'][p] = HC_KILLED
    s['hero_target'][p] = -1
    clear_placed(S, b, p)


@rules_jit
def pvp_kill(S, b, k, p):
    """Player vs. Player: hero k kills hero p (L1190-L1192): the half of p's
    Fame death discards (``fate.kill_hero``) goes to k; k receives an Outlaw
    Token if p holds none (L1117), else discards one he holds (L1122)."""
    s = S[b]
    s['fame'][k] += int(s['fame'][p]) // 2       # p still discards it (kill_hero): it is given, not doubled
    if s['outlaw'][p] > 0:
        if s['outlaw'][k] > 0:
            s['outlaw'][k] -= 1
    elif s['outlaw'][k] < 127:
        s['outlaw'][k] += 1


# ================================================================ spells on a strike (L1530-L1594)
# A target code is a foe's index, DOOR_FOE, or AIM_HERO + q (rules/base.py).
@rules_jit
def target_here(S, b, t):
    """Target code t is still in the combat: a foe in the clearing, a hero
    fighting, the Massive Door still closed."""
    if t < 0:
        return False
    if t < NUM_FOES:
        return foe_here(S, b, t)
    if t == DOOR_FOE:
        return door_closed(S, b, CHAMBER)
    return fighting(S, b, t - AIM_HERO)


@rules_jit
def foe_armored(S, b, f):
    """Foe f is armoured: a shield icon (L751), or Iron Skin or Life Armor on
    it (L1556, L1578)."""
    return FOE_ARMORED[f] != 0 or spell_on_target(S, b, SP_IRON_SKIN, f) >= 0 or \
        spell_on_target(S, b, SP_LIFE_ARMOR, f) >= 0


@rules_jit
def foe_cursed(S, b, f, k):
    return (int(S[b]['foe_curses'][f]) >> k) & 1 != 0


@rules_jit
def foe_maneuver(S, b, f):
    """Foe f's maneuver speed now: its side's, -1 for a Clumsiness curse
    (data/curses.txt), -1 for a Hesitation on it (L1588) and -1 for each
    tentacle holding it with a double hit (L1518)."""
    m = foe_value(S, b, f, SD_MANEUVER) - tentacle_hold(S, b, f, TENT_MANEUVER)
    if foe_cursed(S, b, f, CURSE_CLUMSINESS):
        m -= 1
    if spell_on_target(S, b, SP_HESITATION, f) >= 0:
        m -= 1
    return m


@rules_jit
def hero_maneuver(S, b, p):
    """Hero p's maneuver speed now: the Speed Cubes in his maneuver boxes,
    +1 for the Talaria of the Gladiator and for a green cube on the Elven
    Slippers (L1450, L1338), -1 for Clumsiness and for each tentacle holding
    him with a double hit (Player vs. Player, L1518; never below 0,
    data/curses.txt) and -1 for a Hesitation on him (L1588)."""
    m = max(int(S[b]['placed'][p, BOX_MANEUVER]) + speed_given(S, b, p, BOX_MANEUVER)
            + cube_on(S, b, p, ELVEN_SLIPPERS) - clumsy(S, b, p)
            - tentacle_hold(S, b, AIM_HERO + p, TENT_MANEUVER), 0)
    if hero_has_spell(S, b, p, SP_HESITATION):
        m -= 1
    return m


@rules_jit
def maneuver_of(S, b, t):
    """The maneuver speed of target code t (a foe or a hero)."""
    if t < NUM_FOES:
        return foe_maneuver(S, b, t)
    if t == DOOR_FOE:
        return 0
    return hero_maneuver(S, b, t - AIM_HERO)


@rules_jit
def attack_speed_against(S, b, speed, attacker, t):
    """An attack speed after the spells on its attacker (code) and target
    (code t): -1 against a target under Illusion (L1532), -2 for an attacker
    whose Disorient has its slow attack to come (L1594), -1 for each tentacle
    holding the attacker (a foe, or a hero with Player vs. Player) with a
    single hit (L1518)."""
    if attacker >= 0:
        speed -= tentacle_hold(S, b, attacker, TENT_ATTACK)
    if t >= 0 and spell_on_target(S, b, SP_ILLUSION, t) >= 0:
        speed -= 1
    sp = spell_on_target(S, b, SP_DISORIENT, attacker)
    if sp >= 0 and S[b]['spell_mark'][sp] & DIS_SLOW:
        speed -= 2
    return speed


@rules_jit
def discord_foe(S, b, f):
    """The foe a Discord in play sets foe f against (L1596); -1."""
    s = S[b]
    for i in range(DISCORD_CARDS.shape[0]):
        sp = DISCORD_CARDS[i]
        a = int(s['spell_on'][sp])
        if a < 0 or a >= NUM_FOES:
            continue
        if a == f:
            return int(s['spell_mark'][sp])
        if s['spell_mark'][sp] == f:
            return a
    return -1


@rules_jit
def tentacle_hold(S, b, f, effect):
    """Tentacles in play holding target code f (a foe, or a hero) whose roll
    had ``effect`` (TENT_*, L1518)."""
    s = S[b]
    n = 0
    for i in range(TENTACLE_CARDS.shape[0]):
        if s['spell_on'][TENTACLE_CARDS[i]] < 0:
            continue
        for j in range(NUM_TENTACLES):
            if s['tentacle_on'][i, j] == f and s['tentacle_hit'][i, j] == effect:
                n += 1
    return n


@rules_jit
def dormant(S, b, t):
    """Target code t is disoriented and may not attack until it is targeted
    or hit (L1594)."""
    sp = spell_on_target(S, b, SP_DISORIENT, t)
    return sp >= 0 and (S[b]['spell_mark'][sp] & DIS_DORMANT) != 0


@rules_jit
def rouse(S, b, t, bits):
    """Clear Disorient marks ``bits`` of target code t (targeted or hit:
    DIS_DORMANT; it attacked: DIS_SLOW); with none left the spell is spent."""
    sp = spell_on_target(S, b, SP_DISORIENT, t)
    if sp >= 0:
        s = S[b]
        s['spell_mark'][sp] = s['spell_mark'][sp] & np.int8(~bits)
        if s['spell_mark'][sp] == 0:
            end_spell(S, b, sp)


@rules_jit
def struck_at(S, b, t):
    """Target code t was attacked: its Hesitation is spent (L1588)."""
    sp = spell_on_target(S, b, SP_HESITATION, t)
    if sp >= 0:
        end_spell(S, b, sp)


@rules_jit
def hit_bonus(S, b, attacker, t):
    """Base damage and swords the next hit of attacker (code) on target
    (code t) gains, spending the spells: +1 base damage from Strength
    (L1558), +1 sword from Envenom, except on the undead (L1530). Returns
    (base, swords, envenomed)."""
    base = 0
    swords = 0
    envenomed = False
    sp = spell_on_target(S, b, SP_STRENGTH, attacker)
    if sp >= 0:
        base = 1
        end_spell(S, b, sp)
    sp = spell_on_target(S, b, SP_ENVENOM, attacker)
    if sp >= 0 and not (t < NUM_FOES and FOE_UNDEAD[t]):
        swords = 1
        envenomed = True
        end_spell(S, b, sp)
    return base, swords, envenomed


@rules_jit
def afflict_foe(S, b, f, p):
    """Foe f suffers one wound (Affliction, L1498; Envenom's extra wound,
    L1530): a wound on its last point of health kills it, and hero p takes it
    (L799). Not a hit's damage, so Tough Monsters does not spare it."""
    s = S[b]
    s['round_wounds'] = 1
    if int(s['foe_wounds'][f]) + 1 >= int(FOE_HEALTH[f]):
        monster_killed(S, b, f, p)
        return
    wound_monster(S, b, f)
    s['foe_wound_by'][f, p] += 1


@rules_jit
def hero_roll_to_hit(S, b, p, speed, maneuver, wand):
    """Hero p's attack roll (L740, ``hero_hit_dice``): True on a hit."""
    if speed > maneuver:
        return True
    out = local_array(2, np.int64)
    return hero_hit_dice(S, b, p, speed, maneuver, wand, out)


@rules_jit
def hero_hit_dice(S, b, p, speed, maneuver, wand, out):
    """Hero p's attack roll where the dice decide (speed <= maneuver, L740),
    the two Hit Dice read kept in ``out``: with ``wand`` (a targeted spell
    cast with the Wand of the Magician, L1480) a missing roll rerolls its
    dice that do not show a hit, once -- the only rerolls that can help; a
    roll still missing is rolled again whole by his Band of Sagacity, once a
    round (L1290). Rerolls are made only where they can help
    (Interpretations); the dice kept may still be rerolled by a Dust of
    Destiny (ROLL_ATTACK, L1330). True on a hit."""
    first = hit_die(S, b)
    second = hit_die(S, b)
    hit = hit_result(first, second, speed, maneuver)
    if not hit and wand:
        if first != HIT_HIT:
            first = hit_die(S, b)
        if second != HIT_HIT:
            second = hit_die(S, b)
        hit = hit_result(first, second, speed, maneuver)
    if not hit and band_reroll(S, b, p):
        first = hit_die(S, b)
        second = hit_die(S, b)
        hit = hit_result(first, second, speed, maneuver)
    out[0] = first
    out[1] = second
    return hit


@rules_jit
def roll_at(S, b, p, t, speed, wand, out):
    """Hero p's attack roll at target code t (a foe, or a hero), his attack
    speed against its maneuver speed: his Time Stone's tie (L1456), his
    rerolls of a miss (``hero_hit_dice``: the Wand's, his Band's); at a hero
    (Player vs. Player, L1174) a hit is rolled again, whole, by the victim's
    Band of Sagacity ("a Hit Die roll by or against them", L1290). The two
    Hit Dice read are kept in ``out`` (-1 where no dice decided: an attack
    speed above the maneuver speed, the Time Stone's tie not rerolled), for
    the Dust of Destiny of the attacker and of a hero struck (ROLL_ATTACK,
    L1330). True on a hit."""
    m = maneuver_of(S, b, t)
    out[0] = -1
    out[1] = -1
    if stone_tie(S, b, p, speed, m):
        hit = True
    elif speed > m:
        return True
    else:
        hit = hero_hit_dice(S, b, p, speed, m, wand, out)
    if hit and t > DOOR_FOE and band_reroll(S, b, t - AIM_HERO):
        out[0] = hit_die(S, b)
        out[1] = hit_die(S, b)
        hit = hit_result(out[0], out[1], speed, m)
    return hit


@rules_jit
def roll_against_hero(S, b, q, speed, maneuver, save):
    """An attack roll against hero q (``roll_to_hit_saved``); a hit is rolled
    again, whole, by his Band of Sagacity, once a round (L1290)."""
    if speed > maneuver:
        return True
    out = local_array(2, np.int64)
    return struck_dice(S, b, q, speed, maneuver, save, out)


@rules_jit
def struck_dice(S, b, q, speed, maneuver, save, out):
    """``roll_against_hero`` when the dice decide (speed <= maneuver),
    keeping the two Hit Dice read in ``out`` (after Soul Save and the Band of
    Sagacity): a hero struck may reroll them with his Dust of Destiny
    (L1330). Returns True on a hit."""
    saved_dice(S, b, save, out)
    hit = hit_result(out[0], out[1], speed, maneuver)
    if hit and band_reroll(S, b, q):
        saved_dice(S, b, save, out)
        hit = hit_result(out[0], out[1], speed, maneuver)
    return hit


@rules_jit
def saved_dice(S, b, save, out):
    """Two Hit Dice into ``out``; with Soul Save (``save``, L1574) the most
    favourable is rerolled unless both show blanks (``save_again``)."""
    out[0] = hit_die(S, b)
    out[1] = hit_die(S, b)
    if save:
        save_again(S, b, out)


@rules_jit
def save_again(S, b, out):
    """Soul Save on the two Hit Dice ``out`` of an undead attacker's roll
    (L1574): the most favourable result is rerolled, unless both show
    blanks; the less favourable stays (first)."""
    if not (out[0] == HIT_BLANK and out[1] == HIT_BLANK):
        out[0] = min(out[0], out[1])
        out[1] = hit_die(S, b)


@rules_jit
def soul_saved(S, b, f, q):
    """Soul Save protects hero q from foe f's attack rolls: f is undead and
    the spell lies on q (L1574: "Undead that attack this Hero")."""
    return FOE_UNDEAD[f] != 0 and hero_has_spell(S, b, q, SP_SOUL_SAVE)


@rules_jit
def roll_to_hit_saved(S, b, speed, maneuver, save):
    """``roll_to_hit``, with Soul Save on the target of an undead attacker
    (``save``, L1574): its most favourable Hit Die is rerolled, unless both
    show blanks (``saved_dice``)."""
    if not save or speed > maneuver:
        return roll_to_hit(S, b, speed, maneuver)
    out = local_array(2, np.int64)
    saved_dice(S, b, True, out)
    return hit_result(out[0], out[1], speed, maneuver)


# ================================================================ a hero's weapon attack, its dice rolled (L738-L758)
@rules_jit
def weapon_lands(S, b, p, hit):
    """Hero p's weapon attack on his target (``hero_target``), its Hit Dice
    read (``hit``, after any Dust of Destiny: ``combat.hero_attack``). On a
    hit the damage comes from the pieces kept at the attack: ``atk_dmg`` (the
    cubes on the weapon), ``atk_swords``, ``atk_ranged``. The Massive Door,
    unarmoured, opens to 4 (L1240); a hero struck takes it as a Monster's hit
    (Player vs. Player, L1174): the attack is ``atk_by``'s, his armour and
    the damage follow in the Resolve step; a foe takes the
    damage with the spells on either side -- Illusion, Disorient,
    Hesitation, Iron Skin, Life Armor, Strength, Envenom -- one less on an
    armoured foe, the worse Ranged Attack Die for a ranged or thrown weapon
    (an Archer may reroll one, L1208), which may wait on his Dust of Destiny
    (ROLL_RANGED; ``weapon_damage`` once they stand); a hero struck
    (``hero_strikes_hero``) takes it in the Resolve step. True if a decision
    is posed."""
    s = S[b]
    if not hit:
        return False
    t = int(s['hero_target'][p])
    cubes = int(s['atk_dmg'])
    swords = int(s['atk_swords'])
    if t > DOOR_FOE:
        hero_strikes_hero(S, b, p, t - AIM_HERO, cubes, swords)
        return False
    if t == DOOR_FOE:                                   # L1240: no Fame, no wound: a door is not a foe
        d = max(attack_damage(S, b, cubes, swords, False) - weak(S, b, p), 0)
        health = DOOR_DAMAGE
        tough = True
    else:
        rouse(S, b, t, DIS_DORMANT)
        base, plus, envenomed = hit_bonus(S, b, AIM_HERO + p, t)
        s['atk_venom'] = 1 if envenomed else 0
        d = max(attack_damage(S, b, cubes + base, swords + plus, foe_armored(S, b, t)) - weak(S, b, p), 0)
        health = int(FOE_HEALTH[t]) - int(s['foe_wounds'][t])
        tough = (s['optional_rules'] & OPT_TOUGH) != 0
    if s['atk_ranged']:
        dice = local_array(2, np.int64)
        low = ranged_pair(S, b, s['hero_class'][p] == ARCHER, d, health, tough, dice)
        if dust_waits(S, b, ROLL_RANGED, RANGED_DIE_FACE.shape[0], d, ATTACK_WEAPON, int(dice[0]), int(dice[1]), p, -1):
            return True
        d += low
    return weapon_damage(S, b, p, d)


@rules_jit
def hero_strikes_hero(S, b, p, q, cubes, swords):
    """Player vs. Player (L1174): hero p's weapon attack hit hero q (its roll,
    Time Stone, Bands and Dust of Destiny done: ``combat.hero_attack``), with
    ``cubes`` on the weapon and its ``swords``: it is resolved as a Monster's
    hit on a hero (L738-L767), the attack ``atk_by``'s until its wounds are
    taken. q wakes from Disorient (L1594); its pieces are kept -- its base
    damage, the cubes with p's Strength, less his Weakness (data/curses.txt),
    its swords, p's aim (L1188) and Envenom -- and q chooses the armour he
    takes it on (only armour in the aimed position, or a shield, if p aimed)
    at AS_LANDED; the damage follows (``combat.damage_hero``: the worse
    Ranged Attack Die for a ranged or thrown weapon)."""
    s = S[b]
    rouse(S, b, AIM_HERO + q, DIS_DORMANT)
    base, plus, envenomed = hit_bonus(S, b, AIM_HERO + p, AIM_HERO + q)
    s['atk_by'] = 1 + p
    s['atk_victim'] = q
    s['atk_victims'] = 0
    s['atk_dmg'] = min(max(cubes + base - weak(S, b, p), 0), 127)     # his Weakness is his attack's (data/curses.txt)
    s['atk_swords'] = swords + plus
    s['atk_aim'] = s['hero_aim'][p]
    s['atk_venom'] = 1 if envenomed else 0
    s['atk_stage'] = AS_LANDED


@rules_jit
def weapon_damage(S, b, p, d):
    """Hero p's weapon hit on his target deals damage d, its Ranged Attack
    Dice counted: the Massive Door opens to 4 or more (L1240); a foe takes it
    (under 1 it does nothing, L747, L754; a hit that does no harm under
    Tough Monsters gives no heal either), Envenom's wound more if the hit
    was envenomed (``atk_venom``, L1530), and a Warlock's kill or wound may
    heal him (L1228). True if a decision is posed (the Warlock's cube)."""
    s = S[b]
    t = int(s['hero_target'][p])
    envenomed = s['atk_venom'] != 0
    s['atk_venom'] = 0
    if t == DOOR_FOE:
        if d >= DOOR_DAMAGE:
            s['door_open'][CHAMBER] = 1
        return False
    if d < 1:
        return False
    if not damage_monster(S, b, t, d, p):
        return False
    if envenomed and foe_here(S, b, t):
        afflict_foe(S, b, t, p)              # not killed: Envenom's wound more (L1530)
    return warlock_heal(S, b, p, t)
