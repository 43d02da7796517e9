"""Combat in each clearing with a hero (L674-L800): the eight steps of a
Combat Round, the Ambush (L680-L682), wounds (L783-L795), monster death
(L797-L799), the end of combat (L807-L812), and Natives drawn into a fight
(L1001-L1008).

The foes of a combat are the Monster chips and the Native chips of its
clearing (foe f: Monster chip f, then Native chip f - NUM_MONSTER_CHIPS). A
Combat Round's progress lives in named fields: ``combat_step`` (CS_*) and,
for each step with a decision per hero, its position in the Turn Order
(``unhide_pos``, ``evade_pos``, ``target_pos``, ``tactics_pos``,
``cleanup_pos``); an attack waiting for its victim's choice keeps
``atk_foe``, ``atk_victims``, ``atk_victim``, ``atk_stage``, ``atk_armor``.

Placed Action Cubes (``placed[p, BOX_*]``) stay counted among the hero's
healthy cubes (``cubes[p, 0]``): a cube on a card is healthy (Interpretations,
"Weight"); ``placed`` says where it lies until Cleanup returns it (L780).

SECRET (for the observation): while ``combat_step == CS_TACTICS``, the row
``placed[q]`` and the bit CF_THROWS of ``hero_cflags[q]`` of every hero q
other than the observer are hidden; they are revealed when every hero has
placed (L714, L724), i.e. once ``combat_step`` has moved on.

Magic is a later part: Step 2 (Activation) has nothing to do without spells,
no box takes a Magic Cube yet (though a wound may take one from the healthy
box, L787), and a chip side that casts a spell (the Demon's, the Lich's, the
Titan's, L1262-L1274) does not strike until spells are cast.
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from .. import data as D
from ..constants import (
    CLASS_IDS, CUBE_MIGHT, CUBE_SPEED, CW_HERO, CW_REMOVED, HS_ACTIVE, HST_ALERT, HST_EVADED, HST_HIDDEN,
    MAX_HEROES, MON_TAKEN, MON_TRAY, MONSTER_CHIP_KINDS, MONSTER_IDS, NUM_CARDS, NUM_CUBE_KINDS,
    NUM_MONSTER_CHIPS, NUM_NATIVE_CHIPS, NUM_TARGETS, OPT_CLOSING, OPT_ENDLESS, OPT_LURING, OPT_RED_MEAT,
    OPT_SHARED_FAME, OPT_TOUGH, ST_FATE, T_BACKPACK, T_WEAPON1, T_WEAPON2, T_WEAPONS,
)
from .base import (
    A_BOX, A_CARD, A_CLEARING, A_DO, A_FOE, A_HEAL, A_TARGET, ATK_FIRE, ATK_RANGED, ATK_SPELL,
    BOX_ATTACK, BOX_MANEUVER, BOX_MIGHT, CARD_KIND, CHAMBER, CLASS_SPEED_BOXES, DO_DONE, DO_DOOR, DO_PASS,
    DO_STAY, DOOR_FOE, FOE_UNIQUE, PH_LURE, CURSE_CLUMSINESS, CURSE_WEAKNESS,
    DO_THROW, DO_UNHIDE, FOE_ARMORED, FOE_ELEMENTAL, FOE_FAME, FOE_HEALTH, FOE_SIDE, HEAL_HEART,
    HIT_BLANK, HIT_DIE_FACE, HIT_HIT, KIND_ARMOR, KIND_LENGTH, KIND_MIGHT_BOXES, KIND_POSITION, KIND_SWORDS,
    KIND_WEAPON_USE, LINEAGE_SPEED_BOXES, NUM_BOXES, NUM_FOES, PH_ADJUST, PH_ADJUST_TARGET, PH_ARMOR,
    PH_EVADE, PH_HEAL, PH_REARM, PH_TACTICS, PH_TARGET, PH_UNHIDE, PH_WOUND, RANGED_DIE_FACE, SD_ATTACK,
    SD_DAMAGE, SD_LENGTH, SD_MANEUVER, SD_SPEED, SD_SWORDS, SD_TARGETS, WEAPON_EITHER, WEAPON_RANGED,
    TARGET_OK, pose, roll,
)
from .equipment import (
    SLOT_OVERLAP, damage_armor, displaced_count, enforce_weight, equip_card, equipped, new_occupants,
    target_legal_at,
)
from .realm import clearing_links
from .fate import kill_hero
from .trade import door_closed
from .actions import found_hidden_links, hide_roll, monster_die
from .activation import hero_on_map
from .magic import curse_held

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

# ``foe_flags`` bits (this round)
FF_ATTACKED = 1        # its attack this round is resolved
FF_STRIKES = 2         # its attack is among those striking now (L736)
FF_LURED = 4           # a hero lured it this round: it challenges him (optional Luring, L1130)

# how far the strike of ``atk_foe`` on ``atk_victim`` is (``atk_stage``)
AS_HIT = 0             # roll for the next victim
AS_ARMOR = 1           # hit: the victim chooses the armour it takes the hit on (L751)
AS_DAMAGE = 2          # the armour is chosen: apply the damage
AS_WOUND = 3           # the victim chooses the cube to wound (L787)

CUBE_LIMIT = 5
"""Action Cubes a hero may place in a Combat Round; an Alert Action this
turn allows one more, a Speed Cube (L716)."""
DOOR_DAMAGE = 4
"""Damage of one attack that opens the Chamber's Massive Door (L1240)."""
NATIVE_TAKEN = MON_TAKEN
"""``native_clearing`` of a Native chip a hero has killed and keeps (L799, L1005)."""

ARCHER = CLASS_IDS.index("archer")
"""The Archer rerolls one Ranged Attack Die per attack (Steady, L1208)."""
ROGUE = CLASS_IDS.index("rogue")
"""The Rogue may evade on a tie, with two Hit Dice (Elusive, L1224)."""
WARLOCK = CLASS_IDS.index("warlock")
"""The Warlock heals a cube once a round for a kill or wound (Blood Lust, L1228)."""
WARRIOR = CLASS_IDS.index("warrior")
"""The Warrior may always swap a Weapon Card in Adjust Equipment (Adept, L1230)."""
FOE_UNDEAD = np.array([D.REALM.monsters[MONSTER_IDS[k]].undead for k in MONSTER_CHIP_KINDS]
                      + [False] * NUM_NATIVE_CHIPS, dtype=np.int8)
"""Foe f -> 1 for an undead Monster (the skull, L1012); Natives are not undead."""
RANGED_LOW = int(RANGED_DIE_FACE.min())
RANGED_HIGH = int(RANGED_DIE_FACE.max())
"""The worst and the best Ranged Attack Die results (L753)."""


# ================================================================ the phase: clearing by clearing (L676)
@rules_jit
def combat_phase(S, b):
    """Play combat in each clearing with a hero, starting with the start
    player's and going on in Turn Order (L676); clearings without heroes are
    ignored, and a clearing with heroes but no Monster is fought all the
    same (L678). When all are done, the battle phase ends (``stage`` =
    ST_FATE). True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    if s['combat_step'] == CS_NONE and s['combat_pos'] == 0:      # a fresh battle phase
        for p in range(MAX_HEROES):
            s['hero_combat'][p] = HC_NONE
            s['evade_to'][p] = -1
    while True:
        if s['combat_step'] == CS_NONE:
            while s['combat_pos'] < n:
                p = int(s['turn_order'][s['combat_pos']])
                if p >= 0 and hero_on_map(S, b, p) and s['hero_combat'][p] == HC_NONE:
                    break
                s['combat_pos'] += 1
            if s['combat_pos'] >= n:
                s['combat_pos'] = 0
                for p in range(MAX_HEROES):
                    s['hero_combat'][p] = HC_NONE
                s['stage'] = ST_FATE
                return False
            start_combat(S, b, int(s['hero_clearing'][s['turn_order'][s['combat_pos']]]))
        if combat_round(S, b):
            return True


@rules_jit(inline=True)
def start_combat(S, b, c):
    """The heroes in clearing c enter its combat; the first round begins."""
    s = S[b]
    s['combat_clearing'] = c
    s['combat_round'] = 0
    s['quiet_rounds'] = 0
    s['natives_hostile'] = 0
    for p in range(int(s['num_players'])):
        if hero_on_map(S, b, p) and s['hero_clearing'][p] == c and s['hero_combat'][p] == HC_NONE:
            s['hero_combat'][p] = HC_FIGHTING
            s['hero_cflags'][p] = 0
    new_round(S, b)


@rules_jit
def new_round(S, b):
    """A Combat Round begins at step 1 (L686): this round's targets, cubes
    and attacks are cleared."""
    s = S[b]
    s['combat_round'] += 1
    s['round_wounds'] = 0
    s['combat_step'] = CS_CHALLENGE
    s['unhide_pos'] = 0
    s['lure_pos'] = 0
    s['evade_pos'] = 0
    s['target_pos'] = 0
    s['tactics_pos'] = 0
    s['cleanup_pos'] = 0
    s['adjust_left'] = 2
    for p in range(MAX_HEROES):
        s['hero_cflags'][p] = s['hero_cflags'][p] & np.uint8(CF_NATIVE_FOE)
        s['hero_target'][p] = -1
        for x in range(NUM_BOXES):
            s['placed'][p, x] = 0
    for f in range(NUM_FOES):
        s['foe_target'][f] = -1
        s['foe_extra'][f] = 0
        s['foe_flags'][f] = 0
    s['atk_foe'] = -1
    s['atk_victims'] = 0
    s['atk_victim'] = -1
    s['atk_stage'] = AS_HIT
    s['atk_armor'] = -1


@rules_jit(inline=True)
def combat_round(S, b):
    """The steps of the Combat Rounds of the combat under way, in order
    (L686), until a decision is posed (True) or the clearing's combat is
    over (False). Each step is compiled apart, not inlined (the rounds rule
    of envs/README.md's compile layout): inlined, the whole combat was one
    function LLVM optimised slowly -- a cold compile of the kernel took
    174.9 s, with the steps apart 161.4 s (``benchmarks/compile_profile``)."""
    s = S[b]
    while s['combat_step'] != CS_NONE:
        st = int(s['combat_step'])
        if st == CS_CHALLENGE:
            if challenge_step(S, b):
                return True
            # Step 2, Activation (L695-L698): permanent spells, the magic part's.
            s['combat_step'] = CS_EVADE
        elif st == CS_EVADE:
            if evade_step(S, b):
                return True
            s['combat_step'] = CS_TARGET
        elif st == CS_TARGET:
            if target_step(S, b):
                return True
            s['combat_step'] = CS_TACTICS
        elif st == CS_TACTICS:
            if hero_tactics(S, b):
                return True
            s['combat_step'] = CS_MONSTER_TACTICS      # L724: every placement is revealed
        elif st == CS_MONSTER_TACTICS:
            monster_tactics(S, b)
            s['combat_step'] = CS_RESOLVE
        elif st == CS_RESOLVE:
            if resolve_step(S, b):
                return True
            s['combat_step'] = CS_CLEANUP
        else:
            if cleanup_step(S, b):
                return True
    return False


# ================================================================ who is who
@rules_jit
def fighting(S, b, p):
    """Hero p takes part in the combat under way (not evaded, not killed)."""
    return S[b]['hero_combat'][p] == HC_FIGHTING


@rules_jit
def hidden(S, b, p):
    return (S[b]['hero_status'][p] & HST_HIDDEN) != 0


@rules_jit(inline=True)
def pick(S, b, n):
    """A random index 0..n-1; no draw when there is a single choice."""
    if n <= 1:
        return 0
    return roll(S, b, n)


@rules_jit
def foe_here(S, b, f):
    """Foe f stands in the clearing being fought."""
    s = S[b]
    c = int(s['combat_clearing'])
    if s['combat_step'] == CS_NONE or c < 0:
        return False
    if f < NUM_MONSTER_CHIPS:
        return s['mon_clearing'][f] == c
    return s['native_clearing'][f - NUM_MONSTER_CHIPS] == c


@rules_jit
def foe_is_monster(S, b, f):
    """Foe f fights as a Monster in this combat: a Monster chip in the
    clearing, or one of its Natives once a Native was targeted (L1005; until
    then Natives neither challenge nor attack, L693, L1003)."""
    return foe_here(S, b, f) and (f < NUM_MONSTER_CHIPS or S[b]['natives_hostile'] != 0)


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
    """Column SD_* of the side of foe f's chip now up."""
    return int(FOE_SIDE[f, foe_side(S, b, f), col])


@rules_jit(inline=True)
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
    cand = np.empty(MAX_HEROES, dtype=np.int64)
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


@rules_jit(inline=True)
def ranged_armed(S, b, p):
    """p is armed with a ranged weapon: a ranged one, or one he can throw (L682)."""
    c = hero_weapon(S, b, p)
    return c >= 0 and (KIND_WEAPON_USE[CARD_KIND[c]] == WEAPON_RANGED or can_throw(S, b, p, c))


@rules_jit(inline=True)
def may_attack(S, b, p):
    """p may take the Target, Hero Tactics and Resolve steps with a weapon:
    he has one equipped, and if hidden it is a ranged weapon (an Ambush, L682)."""
    return fighting(S, b, p) and hero_weapon(S, b, p) >= 0 and (not hidden(S, b, p) or ranged_armed(S, b, p))


@rules_jit(inline=True)
def might_capacity(S, b, p, c):
    """Red boxes of weapon c: mandatory and optional, and the optional box a
    spear has only when wielded two-handed (L722, L950)."""
    k = int(CARD_KIND[c])
    n = int(KIND_MIGHT_BOXES[k, 0]) + int(KIND_MIGHT_BOXES[k, 1])
    if S[b]['card_slot'][c] == T_WEAPONS:
        n += int(KIND_MIGHT_BOXES[k, 2])
    return n


@rules_jit
def speed_boxes(S, b, p, box):
    """p's attack speed (BOX_ATTACK) or maneuver speed (BOX_MANEUVER) boxes:
    those printed on his Lineage and Class Cards (L358, L718)."""
    s = S[b]
    w = 0 if box == BOX_ATTACK else 1
    return int(LINEAGE_SPEED_BOXES[s['hero_lineage'][p], s['lineage_side'][p], w]) + \
        int(CLASS_SPEED_BOXES[s['hero_class'][p], s['class_side'][p], w])


@rules_jit(inline=True)
def cube_limit(S, b, p):
    """Action Cubes p may place this Combat Round: 5, and one more Speed
    Cube if he took the Alert Action this turn (L465, L716). The fifth
    cube may be of any kind, the sixth only a Speed Cube."""
    return CUBE_LIMIT + (1 if S[b]['hero_status'][p] & HST_ALERT else 0)


@rules_jit
def unplaced(S, b, p, kind):
    """p's healthy cubes of ``kind`` (CUBE_*) not placed on a box."""
    s = S[b]
    n = int(s['cubes'][p, 0, kind])
    if kind == CUBE_MIGHT:
        n -= int(s['placed'][p, BOX_MIGHT])
    elif kind == CUBE_SPEED:
        n -= int(s['placed'][p, BOX_ATTACK]) + int(s['placed'][p, BOX_MANEUVER])
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
    if f == DOOR_FOE:
        if not door_closed(S, b, CHAMBER):                       # opened by an earlier attack
            return False
    elif not foe_here(S, b, f):
        return False
    c = hero_weapon(S, b, p)
    if c < 0:
        return False
    w = int(s['placed'][p, BOX_MIGHT])
    return w >= 1 and w >= KIND_MIGHT_BOXES[CARD_KIND[c], 0]


# ================================================================ 1. Challenge (L688-L693)
@rules_jit
def challenge_step(S, b):
    """L688: in player order, hidden heroes may become unhidden (the only
    moment of the battle phase they may, L890; not asked where no Monster or
    Native is, since nothing could come of it); with the optional Luring, each
    unhidden hero in player order may then lure one Monster not yet lured
    (L1130-L1132); then each Monster not lured challenges a random unhidden
    hero of the combat (L690: several may challenge one).
    Natives challenge no one (L693) until they are treated as Monsters; then
    each challenges a random hero among those who targeted a Native
    (Interpretations). True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    if foes_here(S, b) > 0:
        while s['unhide_pos'] < n:
            p = int(s['turn_order'][s['unhide_pos']])
            s['unhide_pos'] += 1
            if p >= 0 and fighting(S, b, p) and hidden(S, b, p):
                return pose(S, b, PH_UNHIDE, p)
    s['unhide_pos'] = n
    if s['optional_rules'] & OPT_LURING:
        while s['lure_pos'] < n:
            p = int(s['turn_order'][s['lure_pos']])
            s['lure_pos'] += 1
            if p >= 0 and fighting(S, b, p) and not hidden(S, b, p) and any_lurable(S, b):
                return pose(S, b, PH_LURE, p)
    s['lure_pos'] = n
    for f in range(NUM_FOES):
        if foe_is_monster(S, b, f) and not s['foe_flags'][f] & FF_LURED:
            s['foe_target'][f] = random_hero(S, b, f >= NUM_MONSTER_CHIPS, 0)
    return False


@rules_jit
def lurable(S, b, f):
    """Optional Luring (L1130-L1132): foe f is a Monster of the clearing (a
    Native turned hostile counts, L1005) that no hero has lured this round."""
    return foe_is_monster(S, b, f) and not S[b]['foe_flags'][f] & FF_LURED


@rules_jit
def any_lurable(S, b):
    """Some Monster of the clearing may still be lured (L1132)."""
    for f in range(NUM_FOES):
        if lurable(S, b, f):
            return True
    return False


@rules_jit(inline=True)
def mask_lure(S, b, p, mask):
    """Legal actions of PH_LURE: A_FOE + f for each Monster not yet lured;
    A_DO + DO_PASS to lure none."""
    for f in range(NUM_FOES):
        if lurable(S, b, f):
            mask[A_FOE + f] = 1
    mask[A_DO + DO_PASS] = 1


@rules_jit(inline=True)
def act_lure(S, b, p, a):
    """PH_LURE: the lured Monster challenges the hero who lured it (L1130);
    no other hero may lure it (L1132)."""
    s = S[b]
    if a != A_DO + DO_PASS:
        f = a - A_FOE
        s['foe_target'][f] = p
        s['foe_flags'][f] = s['foe_flags'][f] | FF_LURED
    return False


@rules_jit(inline=True)
def mask_unhide(S, b, p, mask):
    """Legal actions of PH_UNHIDE: A_DO + DO_UNHIDE or A_DO + DO_STAY."""
    mask[A_DO + DO_UNHIDE] = 1
    mask[A_DO + DO_STAY] = 1


@rules_jit(inline=True)
def act_unhide(S, b, p, a):
    """PH_UNHIDE: the hero becomes unhidden (L688), or stays hidden."""
    s = S[b]
    if a == A_DO + DO_UNHIDE:
        s['hero_status'][p] = s['hero_status'][p] & np.uint8(0xFF ^ HST_HIDDEN)
    return False


# ================================================================ 3. Evade (L700-L704)
@rules_jit
def challenger_maneuver(S, b, p):
    """The highest maneuver speed among the Monsters challenging p; 0 if none
    (Interpretations)."""
    s = S[b]
    best = 0
    for f in range(NUM_FOES):
        if s['foe_target'][f] == p and foe_is_monster(S, b, f):
            v = foe_value(S, b, f, SD_MANEUVER)
            if v > best:
                best = v
    return best


@rules_jit
def evade_paths(S, b, p, out):
    """The clearings at the far end of the paths out of p's clearing that
    he may evade along: printed paths and the Hidden Paths he has discovered
    (used as paths, L515), never a Gate (L703), never a path off the map's
    edge (Interpretations). Into ``out``; returns the count."""
    s = S[b]
    here = int(s['hero_clearing'][p])
    tmp = np.empty(32, dtype=np.int64)
    m = clearing_links(S, b, here, tmp)
    m = found_hidden_links(S, b, p, here, tmp, m)
    n = 0
    for i in range(m):
        c = int(tmp[i])
        dup = False
        for j in range(n):
            if out[j] == c:
                dup = True
        if not dup and c != here:
            out[n] = c
            n += 1
    return n


@rules_jit
def evade_cubes(S, b, p):
    """The Speed Cubes p can place in his maneuver speed boxes to evade: his
    healthy Speed Cubes and his boxes limit him, not the Tactics limit (L700);
    one less under the Clumsiness curse (his maneuver speed, data/curses.txt)."""
    return max(min(int(S[b]['cubes'][p, 0, CUBE_SPEED]), speed_boxes(S, b, p, BOX_MANEUVER))
               - clumsy(S, b, p), 0)


@rules_jit
def clumsy(S, b, p):
    """1 under the Clumsiness curse: -1 to hero p's maneuver speed (data/curses.txt)."""
    return 1 if curse_held(S, b, p, CURSE_CLUMSINESS) else 0


@rules_jit
def weak(S, b, p):
    """1 under the Weakness curse: -1 to the base damage of hero p's attacks (data/curses.txt)."""
    return 1 if curse_held(S, b, p, CURSE_WEAKNESS) else 0


@rules_jit
def rogue_tie(S, b, p):
    """L1224: p is a Rogue whose evade cubes tie the maneuver speed of the
    fastest Monster challenging him (a challenger there must be): he may try
    to evade with two Hit Dice (``act_evade``)."""
    s = S[b]
    if s['hero_class'][p] != ROGUE:
        return False
    challenged = False
    for f in range(NUM_FOES):
        if s['foe_target'][f] == p and foe_is_monster(S, b, f):
            challenged = True
    return challenged and evade_cubes(S, b, p) == challenger_maneuver(S, b, p)


@rules_jit(inline=True)
def can_evade(S, b, p):
    """L700-L703: p can place more Speed Cubes in his maneuver speed boxes
    than the highest maneuver speed of the Monsters challenging him, or, a
    Rogue, as many (L1224, ``rogue_tie``), and a path leads out of his clearing."""
    if evade_cubes(S, b, p) <= challenger_maneuver(S, b, p) and not rogue_tie(S, b, p):
        return False
    out = np.empty(32, dtype=np.int64)
    return evade_paths(S, b, p, out) > 0


@rules_jit
def evade_step(S, b):
    """L700: in player order, each hero who can may evade. Not asked where no
    Monster is (there is then no combat to evade: Interpretations). True if
    a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    if monsters_here(S, b) > 0:
        while s['evade_pos'] < n:
            p = int(s['turn_order'][s['evade_pos']])
            s['evade_pos'] += 1
            if p >= 0 and fighting(S, b, p) and can_evade(S, b, p):
                return pose(S, b, PH_EVADE, p)
    s['evade_pos'] = n
    return False


@rules_jit(inline=True)
def mask_evade(S, b, p, mask):
    """Legal actions of PH_EVADE: A_CLEARING + c to evade onto the path to c;
    A_DO + DO_STAY to fight on."""
    out = np.empty(32, dtype=np.int64)
    m = evade_paths(S, b, p, out)
    for i in range(m):
        mask[A_CLEARING + out[i]] = 1
    mask[A_DO + DO_STAY] = 1


@rules_jit(inline=True)
def act_evade(S, b, p, a):
    """PH_EVADE: the evader takes no further part in the combat; he stands
    on the path to the clearing chosen (``evade_to``) and must move first
    next turn (HST_EVADED, L481, L703); his cubes are back in his healthy box
    (none is placed yet). The Monsters challenging him attack no one this
    round (L704, L711). A Rogue evading on a tie (L1224, Interpretations,
    "Rogue") first rolls the two Hit Dice, the less favourable face counting
    (the Golden Rule, L216): a hit or an equal sign, and he evades by the path
    chosen; a blank, and he fails and fights on."""
    s = S[b]
    if a == A_DO + DO_STAY:
        return False
    if rogue_tie(S, b, p):
        first = int(HIT_DIE_FACE[roll(S, b, HIT_DIE_FACE.shape[0])])
        second = int(HIT_DIE_FACE[roll(S, b, HIT_DIE_FACE.shape[0])])
        if min(first, second) == HIT_BLANK:
            return False
    s['hero_combat'][p] = HC_EVADED
    s['hero_status'][p] = s['hero_status'][p] | HST_EVADED
    s['evade_to'][p] = a - A_CLEARING
    for f in range(NUM_FOES):
        if s['foe_target'][f] == p:
            s['foe_target'][f] = -1
    return False


# ================================================================ 4. Target (L706-L712, L1003-L1006)
@rules_jit
def target_step(S, b):
    """L709: in player order each hero with a weapon he may use (a hidden
    one only a ranged weapon, L682) chooses a Monster or a Native to target,
    or no one. L708: the Monsters target the heroes they challenge (their
    challenge stands as ``foe_target``). L1006: then the Natives turned
    hostile target. True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    foes = foes_here(S, b) > 0
    while s['target_pos'] < n:
        p = int(s['turn_order'][s['target_pos']])
        s['target_pos'] += 1
        if p >= 0 and may_attack(S, b, p) and (foes or door_target(S, b, p)):
            return pose(S, b, PH_TARGET, p)
    s['target_pos'] = n
    natives_turn_hostile(S, b)
    return False


@rules_jit
def door_target(S, b, p):
    """L1240: the Chamber's Massive Door is a target of the combat in the
    Chamber's clearing while it is closed, for a hero who has found the
    Chamber (an attack upon it of 4 or more damage opens it; it is
    unarmoured and never attacks; Interpretations)."""
    s = S[b]
    return s['site_clearing'][CHAMBER] == s['combat_clearing'] and s['site_found'][p, CHAMBER] != 0 \
        and door_closed(S, b, CHAMBER)


@rules_jit(inline=True)
def mask_target(S, b, p, mask):
    """Legal actions of PH_TARGET: A_FOE + f for each Monster and Native in
    the clearing; A_DO + DO_DOOR for the Chamber's closed Massive Door
    (L1240); A_DO + DO_PASS to target no one (Interpretations)."""
    for f in range(NUM_FOES):
        if foe_here(S, b, f):
            mask[A_FOE + f] = 1
    if door_target(S, b, p):
        mask[A_DO + DO_DOOR] = 1
    mask[A_DO + DO_PASS] = 1


@rules_jit(inline=True)
def act_target(S, b, p, a):
    """PH_TARGET: the hero's Targeting Token goes on that foe, or on the
    Massive Door. Targeting a Native makes every Native of the clearing a
    Monster for this combat (L1005)."""
    s = S[b]
    if a == A_DO + DO_PASS:
        return False
    if a == A_DO + DO_DOOR:
        s['hero_target'][p] = DOOR_FOE
        return False
    f = a - A_FOE
    s['hero_target'][p] = f
    if f >= NUM_MONSTER_CHIPS:
        s['hero_cflags'][p] = s['hero_cflags'][p] | CF_NATIVE_FOE
        s['natives_hostile'] = 1
    return False


@rules_jit(inline=True)
def natives_turn_hostile(S, b):
    """L1006: at the end of the Target step, once a Native has been
    targeted, each Native of the clearing not already targeting a hero
    targets a random hero who targeted a Native this turn (an unhidden one,
    as Monsters do)."""
    s = S[b]
    if not s['natives_hostile']:
        return
    for i in range(NUM_NATIVE_CHIPS):
        f = NUM_MONSTER_CHIPS + i
        if foe_here(S, b, f) and s['foe_target'][f] < 0:
            s['foe_target'][f] = random_hero(S, b, True, 0)


# ================================================================ 5. Hero Tactics (L714-L724)
@rules_jit(inline=True)
def threatened(S, b, p):
    """Some foe's attack may strike p this round: he is unhidden and a
    Monster of the clearing has a target (a multi-target attack adds random
    heroes, L728)."""
    s = S[b]
    if hidden(S, b, p):
        return False
    for f in range(NUM_FOES):
        if s['foe_target'][f] >= 0 and foe_is_monster(S, b, f):
            return True
    return False


@rules_jit
def placement_secret(S, b, me, q):
    """Hero q's placements (``placed[q]`` and the CF_THROWS bit of
    ``hero_cflags[q]``) are hidden from seat ``me`` now: during Hero
    Tactics, before every hero has placed (L714, L724). For the observation."""
    return S[b]['combat_step'] == CS_TACTICS and q != me


@rules_jit
def box_legal(S, b, p, box):
    """One more cube may go in ``box`` (L714-L722): a Might Cube only in a
    red box of the equipped weapon, a Speed Cube only in an attack or
    maneuver speed box (none on backpack cards, L721); within the cube limit
    (L716); attack boxes only for a hero with a target, maneuver boxes only
    for one a foe may strike; and the weapon's mandatory boxes must still be
    fillable once a cube is on it (L722)."""
    s = S[b]
    total = int(s['placed'][p, 0]) + int(s['placed'][p, 1]) + int(s['placed'][p, 2])
    might = int(s['placed'][p, BOX_MIGHT])
    limit = cube_limit(S, b, p)
    if total + 1 > limit:
        return False
    c = hero_weapon(S, b, p)
    spare = unplaced(S, b, p, CUBE_MIGHT)
    if box == BOX_MIGHT:
        if s['hero_target'][p] < 0 or c < 0 or might >= might_capacity(S, b, p, c) or spare < 1 \
                or might + 1 > CUBE_LIMIT:
            return False
        might += 1
        spare -= 1
    else:
        if unplaced(S, b, p, CUBE_SPEED) < 1 or s['placed'][p, box] >= speed_boxes(S, b, p, box):
            return False
        if box == BOX_ATTACK and s['hero_target'][p] < 0:
            return False
        if box == BOX_MANEUVER and not threatened(S, b, p):
            return False
    total += 1
    if c < 0 or might == 0:
        return True
    need = int(KIND_MIGHT_BOXES[CARD_KIND[c], 0]) - might
    return need <= 0 or (need <= spare and might + need <= CUBE_LIMIT and total + need <= limit)


@rules_jit
def throw_legal(S, b, p):
    """p may choose to throw his weapon this round (L928): he has a target
    and a weapon he can throw, and is unhidden (a hidden hero's attack with
    it is always a throw, L682)."""
    s = S[b]
    c = hero_weapon(S, b, p)
    return s['hero_target'][p] >= 0 and c >= 0 and can_throw(S, b, p, c) and not hidden(S, b, p) \
        and (s['hero_cflags'][p] & CF_THROWS) == 0


@rules_jit(inline=True)
def tactics_open(S, b, p):
    """p has a placement to make: a cube he may place, or a throw to choose."""
    if throw_legal(S, b, p):
        return True
    for x in range(NUM_BOXES):
        if box_legal(S, b, p, x):
            return True
    return False


@rules_jit
def hero_tactics(S, b):
    """L714: in secret, each hero places his Action Cubes, cube by cube, in
    Turn Order (each seat's placements hidden from the others until all have
    placed, L724: Interpretations, "Simultaneous choices"). A hero with no
    placement to make is not asked. True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    while s['tactics_pos'] < n:
        p = int(s['turn_order'][s['tactics_pos']])
        if p >= 0 and fighting(S, b, p):
            if tactics_open(S, b, p):
                return pose(S, b, PH_TACTICS, p)
            finish_tactics(S, b, p)
        else:
            s['tactics_pos'] += 1
    return False


@rules_jit
def finish_tactics(S, b, p):
    """p has placed: a hidden hero's attack with a weapon he can throw is a
    throw (L682); cubes on his Weapon Card mean he used it (L773)."""
    s = S[b]
    if s['placed'][p, BOX_MIGHT] > 0:
        s['hero_cflags'][p] = s['hero_cflags'][p] | CF_USED_CARD
        c = hero_weapon(S, b, p)
        if hidden(S, b, p) and c >= 0 and can_throw(S, b, p, c):
            s['hero_cflags'][p] = s['hero_cflags'][p] | CF_THROWS
    s['tactics_pos'] += 1


@rules_jit(inline=True)
def mask_tactics(S, b, p, mask):
    """Legal actions of PH_TACTICS: A_BOX + box for each box one more cube
    may go in; A_DO + DO_THROW to make the attack a throw; A_DO + DO_DONE
    once no mandatory box is left half filled (L722)."""
    s = S[b]
    for x in range(NUM_BOXES):
        if box_legal(S, b, p, x):
            mask[A_BOX + x] = 1
    if throw_legal(S, b, p):
        mask[A_DO + DO_THROW] = 1
    c = hero_weapon(S, b, p)
    w = int(s['placed'][p, BOX_MIGHT])
    if c < 0 or w == 0 or w >= KIND_MIGHT_BOXES[CARD_KIND[c], 0]:
        mask[A_DO + DO_DONE] = 1


@rules_jit(inline=True)
def act_tactics(S, b, p, a):
    """PH_TACTICS: place the cube, choose the throw, or end the placing."""
    s = S[b]
    if a == A_DO + DO_DONE:
        finish_tactics(S, b, p)
    elif a == A_DO + DO_THROW:
        s['hero_cflags'][p] = s['hero_cflags'][p] | CF_THROWS
    else:
        s['placed'][p, a - A_BOX] += 1
    return False


# ================================================================ 6. Monster Tactics (L726-L728)
@rules_jit
def monster_tactics(S, b):
    """L726: one Monster Die for each Monster of the clearing (Natives once
    they fight as Monsters); a Monster symbol flips its chip, whose other
    side now applies (and stays up in later rounds until flipped again).
    L728: a Monster whose side now strikes several targets adds random
    heroes to the one it targets."""
    s = S[b]
    for f in range(NUM_FOES):
        if foe_is_monster(S, b, f) and monster_die(S, b):
            flip_foe(S, b, f)
    for f in range(NUM_FOES):
        if foe_is_monster(S, b, f) and s['foe_target'][f] >= 0:
            extra = foe_value(S, b, f, SD_TARGETS) - 1
            taken = 1 << int(s['foe_target'][f])
            for _ in range(extra):
                q = random_hero(S, b, False, taken)
                if q < 0:
                    break
                taken |= 1 << q
                s['foe_extra'][f] = s['foe_extra'][f] | np.uint8(1 << q)


# ================================================================ 7. Resolve (L730-L769)
@rules_jit
def hero_can_strike(S, b, p):
    return (S[b]['hero_cflags'][p] & CF_ATTACKED) == 0 and hero_attack_ready(S, b, p)


@rules_jit
def foe_can_strike(S, b, f):
    """Foe f still has its attack to make this round: it fights as a Monster
    and targets a hero still in the fight. A side that casts a spell strikes
    with the magic part."""
    s = S[b]
    if s['foe_flags'][f] & FF_ATTACKED or not foe_is_monster(S, b, f):
        return False
    if foe_value(S, b, f, SD_ATTACK) == ATK_SPELL:
        return False
    return foe_victims(S, b, f) != 0


@rules_jit
def foe_victims(S, b, f):
    """Bits of the heroes foe f's attack strikes: its target and the heroes
    added to it (L728), those still fighting and unhidden."""
    s = S[b]
    bits = 0
    t = int(s['foe_target'][f])
    for p in range(MAX_HEROES):
        if (p == t or (int(s['foe_extra'][f]) >> p) & 1) and fighting(S, b, p) and not hidden(S, b, p):
            bits |= 1 << p
    return bits


@rules_jit
def strikes_before(speed, length, best_speed, best_length, closing):
    """An attack of ``speed`` and ``length`` strikes before the best so far:
    by speed, then length (L732-L734), or by length, then speed in the first
    round of Closing the Distance (L1138)."""
    if closing:
        return length > best_length or (length == best_length and speed > best_speed)
    return speed > best_speed or (speed == best_speed and length > best_length)


@rules_jit(inline=True)
def attack_order(S, b):
    """L732-L736, L793: among the attacks not yet resolved, those with the
    fastest attack speed, and among them the longest attack length, strike
    now (together when they tie on both). Hero attacks count the cubes they
    have now. With the optional Closing the Distance the first Combat Round
    orders by attack length, speed breaking ties (L1138-L1140). True if any
    attack is left."""
    s = S[b]
    n = int(s['num_players'])
    closing = (s['optional_rules'] & OPT_CLOSING) != 0 and s['combat_round'] == 1
    best_speed = -1
    best_length = -1
    found = False
    for i in range(n):
        p = int(s['turn_order'][i])
        if p >= 0 and hero_can_strike(S, b, p):
            sp = int(s['placed'][p, BOX_ATTACK])
            ln = attack_length(S, b, p)
            if not found or strikes_before(sp, ln, best_speed, best_length, closing):
                best_speed, best_length, found = sp, ln, True
    for f in range(NUM_FOES):
        if foe_can_strike(S, b, f):
            sp = foe_value(S, b, f, SD_SPEED)
            ln = foe_value(S, b, f, SD_LENGTH)
            if not found or strikes_before(sp, ln, best_speed, best_length, closing):
                best_speed, best_length, found = sp, ln, True
    if not found:
        return False
    for i in range(n):
        p = int(s['turn_order'][i])
        if p >= 0 and hero_can_strike(S, b, p) and s['placed'][p, BOX_ATTACK] == best_speed \
                and attack_length(S, b, p) == best_length:
            s['hero_cflags'][p] = s['hero_cflags'][p] | CF_STRIKES
    for f in range(NUM_FOES):
        if foe_can_strike(S, b, f) and foe_value(S, b, f, SD_SPEED) == best_speed \
                and foe_value(S, b, f, SD_LENGTH) == best_length:
            s['foe_flags'][f] = s['foe_flags'][f] | FF_STRIKES
    return True


@rules_jit
def resolve_step(S, b):
    """L730: attacks are resolved one at a time in attack speed order, each
    fully before the next. Attacks striking together (L736) all strike even
    if one kills another's attacker: the heroes' first, then the foes'
    (heroes' attacks cannot change a foe's attack, so this is the same as at
    once); a foe killed before its attacks' turn never strikes (L853).
    True if a decision is posed (an armour or wound choice, the Warlock's cube)."""
    s = S[b]
    n = int(s['num_players'])
    s['block_due'] = 0        # the Warlock's PH_HEAL ends as a rest's does (actions.start_heal): no block in combat
    while True:
        if s['atk_foe'] >= 0:
            if monster_attack(S, b):
                return True
            continue
        p = -1
        for i in range(n):
            q = int(s['turn_order'][i])
            if q >= 0 and (s['hero_cflags'][q] & (CF_STRIKES | CF_ATTACKED)) == CF_STRIKES:
                p = q
                break
        if p >= 0:
            if hero_attack(S, b, p):
                return True
            continue
        f = -1
        for g in range(NUM_FOES):
            if (s['foe_flags'][g] & (FF_STRIKES | FF_ATTACKED)) == FF_STRIKES:
                f = g
                break
        if f >= 0:
            start_monster_attack(S, b, f)
            continue
        for q in range(MAX_HEROES):
            s['hero_cflags'][q] = s['hero_cflags'][q] & np.uint8(0xFF ^ CF_STRIKES)
        for g in range(NUM_FOES):
            s['foe_flags'][g] = s['foe_flags'][g] & np.uint8(0xFF ^ FF_STRIKES)
        if not attack_order(S, b):
            return False


@rules_jit
def roll_to_hit(S, b, speed, maneuver):
    """L740-L743: an attack speed above the target's maneuver speed hits;
    otherwise the two Hit Dice are rolled and the less favourable face
    counts (the Golden Rule, L216): a blank misses, two hits hit, and hits
    with equal signs hit only at equal speeds. A speed of 0 or less is still
    an attack or a maneuver (L718)."""
    if speed > maneuver:
        return True
    first = int(HIT_DIE_FACE[roll(S, b, HIT_DIE_FACE.shape[0])])
    second = int(HIT_DIE_FACE[roll(S, b, HIT_DIE_FACE.shape[0])])
    worst = min(first, second)
    if worst == HIT_BLANK:
        return False
    if worst == HIT_HIT:
        return True
    return speed == maneuver


@rules_jit
def ranged_dice(S, b, steady, base, health, tough):
    """L753: the two Ranged Attack Dice; the worse result adjusts the damage.
    ``steady``: the attacker is an Archer, who may reroll one of them (L1208)
    for his ``base`` damage on a foe of ``health``. Only rerolling the worse
    die can raise the result, and it is rerolled when that can turn what the
    strike does (nothing, a wound, a kill: ``strike_outcome``) for the better
    and never for the worse (Readings of the engine); the new face counts.
    ``tough``: a strike short of a kill does nothing (the optional Tough
    Monsters, L1136; the Massive Door, which only a 4 opens, L1240)."""
    first = int(RANGED_DIE_FACE[roll(S, b, RANGED_DIE_FACE.shape[0])])
    second = int(RANGED_DIE_FACE[roll(S, b, RANGED_DIE_FACE.shape[0])])
    low = min(first, second)
    high = max(first, second)
    if steady:
        now = strike_outcome(base + low, health, tough)
        if strike_outcome(base + min(RANGED_LOW, high), health, tough) >= now and \
                strike_outcome(base + min(RANGED_HIGH, high), health, tough) > now:
            low = min(int(RANGED_DIE_FACE[roll(S, b, RANGED_DIE_FACE.shape[0])]), high)
    return low


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


@rules_jit(inline=True)
def throw_weapon(S, b, p, c):
    """L930: the thrown weapon lies beside the Hero Board: out of p's
    possessions until the end of combat (L812)."""
    s = S[b]
    s['card_where'][c] = CW_REMOVED
    s['card_owner'][c] = p
    s['card_slot'][c] = -1
    s['card_thrown'][c] = 1
    s['hero_cflags'][p] = s['hero_cflags'][p] | CF_THREW


@rules_jit(inline=True)
def hero_attack(S, b, p):
    """Hero p's weapon attack on his target (L738-L758): to hit, his attack
    speed against its maneuver speed; damage, the cubes on the weapon and its
    swords, one less on an armoured foe, the worse Ranged Attack Die for a
    ranged or thrown weapon (an Archer may reroll one, L1208); a thrown
    weapon is thrown whether it hits or not. A Warlock's kill or wound may
    heal him (L1228). True if a decision is posed (the Warlock's cube)."""
    s = S[b]
    s['hero_cflags'][p] = s['hero_cflags'][p] | CF_ATTACKED
    if not hero_attack_ready(S, b, p):
        return False
    f = int(s['hero_target'][p])
    c = hero_weapon(S, b, p)
    k = int(CARD_KIND[c])
    thrown = (s['hero_cflags'][p] & CF_THROWS) != 0
    ranged = thrown or KIND_WEAPON_USE[k] == WEAPON_RANGED
    cubes = int(s['placed'][p, BOX_MIGHT])
    if thrown:
        throw_weapon(S, b, p, c)
    if f == DOOR_FOE:
        return attack_door(S, b, p, int(s['placed'][p, BOX_ATTACK]), cubes, int(KIND_SWORDS[k]), ranged)
    if not roll_to_hit(S, b, int(s['placed'][p, BOX_ATTACK]), foe_value(S, b, f, SD_MANEUVER)):
        return False
    d = max(attack_damage(S, b, cubes, int(KIND_SWORDS[k]), FOE_ARMORED[f] != 0) - weak(S, b, p), 0)
    if ranged:
        d += ranged_dice(S, b, s['hero_class'][p] == ARCHER, d,
                         int(FOE_HEALTH[f]) - int(s['foe_wounds'][f]), (s['optional_rules'] & OPT_TOUGH) != 0)
    if d < 1:                                                     # L747, L754
        return False
    if not damage_monster(S, b, f, d, p):
        return False                         # no harm done (Tough Monsters): no Warlock's heal either, L1228
    return warlock_heal(S, b, p, f)


@rules_jit(inline=True)
def attack_door(S, b, p, speed, cubes, swords, ranged):
    """L1240: an attack upon the Chamber's Massive Door that causes 4 or more
    damage opens it, for every hero from then on. The door is unarmoured,
    and a door has no maneuver: its maneuver speed is 0 (Interpretations), so
    any attack speed above 0 hits and 0 or less rolls the Hit Dice (L740).
    A ranged or thrown attack adds the worse Ranged Attack Die (L753); an
    Archer rerolls toward the 4 the door needs (L1208). No Fame, no wound:
    a door is not a foe."""
    s = S[b]
    if not roll_to_hit(S, b, speed, 0):
        return False
    d = max(attack_damage(S, b, cubes, swords, False) - weak(S, b, p), 0)
    if ranged:
        d += ranged_dice(S, b, s['hero_class'][p] == ARCHER, d, DOOR_DAMAGE, True)
    if d >= DOOR_DAMAGE:
        s['door_open'][CHAMBER] = 1
    return False


@rules_jit(inline=True)
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


@rules_jit(inline=True)
def damage_monster(S, b, f, d, p):
    """L755-L758: damage at least the foe's health (printed health less its
    wounds, L757) kills it; less gives it one wound -- none under the optional
    Tough Monsters (L1136: such a hit does not harm it, and so is no wound of
    the round, L781). The optional Shared Fame keeps who placed each wound
    (L1152). True if the foe was harmed (wounded or killed)."""
    s = S[b]
    if d >= int(FOE_HEALTH[f]) - int(s['foe_wounds'][f]):
        s['round_wounds'] = 1
        monster_killed(S, b, f, p)
        return True
    if s['optional_rules'] & OPT_TOUGH:
        return False
    s['round_wounds'] = 1
    wound_monster(S, b, f)
    s['foe_wound_by'][f, p] += 1
    return True


@rules_jit(inline=True)
def wound_monster(S, b, f):
    """L785: a pink Status Cube on the chip; each lowers its health by one."""
    S[b]['foe_wounds'][f] += 1


@rules_jit(inline=True)
def monster_killed(S, b, f, p):
    """L799: hero p, who struck the final blow, takes the chip (an Elemental
    goes back to the pool instead) and at once its Fame -- shared under the
    optional Shared Fame (``share_fame``). A Native fighting as a Monster dies
    the same way (L1005), and makes its killer an Outlaw: one Outlaw Token
    (L1115). The optional Endless Monsters returns a killed Monster to the
    tray, a unique one or a Native excepted (L1162-L1166)."""
    s = S[b]
    share_fame(S, b, f, p)
    s['foe_wounds'][f] = 0
    for q in range(MAX_HEROES):
        s['foe_wound_by'][f, q] = 0
    if f < NUM_MONSTER_CHIPS:
        s['mon_flipped'][f] = 0
        if FOE_ELEMENTAL[f] or (s['optional_rules'] & OPT_ENDLESS and not FOE_UNIQUE[f]):
            s['mon_clearing'][f] = MON_TRAY
        else:
            s['mon_clearing'][f] = MON_TAKEN
            s['mon_taker'][f] = p
    else:
        i = f - NUM_MONSTER_CHIPS
        s['native_flipped'][i] = 0
        s['native_clearing'][i] = NATIVE_TAKEN
        s['native_taker'][i] = p
        if s['outlaw'][p] < 127:             # no limit in the rules (L1111); an int8 holds 127
            s['outlaw'][p] += 1


@rules_jit(inline=True)
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


@rules_jit(inline=True)
def start_monster_attack(S, b, f):
    """Foe f strikes: its attack goes to its target and the heroes added to
    it (L728), one after the other in Turn Order."""
    s = S[b]
    s['foe_flags'][f] = s['foe_flags'][f] | FF_ATTACKED
    bits = foe_victims(S, b, f)
    if bits == 0:
        return
    s['atk_foe'] = f
    s['atk_victims'] = bits
    s['atk_victim'] = -1
    s['atk_stage'] = AS_HIT


@rules_jit(inline=True)
def armor_choices(S, b, p):
    """Armour p may take a hit on (L751): each equipped armour card -- the
    one in the head position, the one in the torso (chest) position, a
    shield in a weapon position. Returns how many."""
    n = 0
    for c in range(NUM_CARDS):
        if equipped(S, b, p, c) and KIND_ARMOR[CARD_KIND[c]] > 0:
            n += 1
    return n


@rules_jit(inline=True)
def monster_attack(S, b):
    """The attack of ``atk_foe``, victim by victim (L738-L767): to hit, its
    attack speed against the victim's maneuver speed; on a hit the victim
    chooses head or torso and the armour, if any, he takes it on, before any
    Ranged Attack Die (L751), then the damage. True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    f = int(s['atk_foe'])
    while True:
        st = int(s['atk_stage'])
        if st == AS_HIT:
            p = -1
            for i in range(n):
                q = int(s['turn_order'][i])
                if q >= 0 and (int(s['atk_victims']) >> q) & 1:
                    p = q
                    break
            if p < 0:
                s['atk_foe'] = -1
                s['atk_victim'] = -1
                return False
            s['atk_victims'] = int(s['atk_victims']) & (0xFF ^ (1 << p))
            if not fighting(S, b, p):
                continue
            s['atk_victim'] = p
            if not roll_to_hit(S, b, foe_value(S, b, f, SD_SPEED),
                               max(int(s['placed'][p, BOX_MANEUVER]) - clumsy(S, b, p), 0)):
                continue
            s['atk_armor'] = -1
            if armor_choices(S, b, p) > 0:
                s['atk_stage'] = AS_ARMOR
                return pose(S, b, PH_ARMOR, p)
            s['atk_stage'] = AS_DAMAGE
        elif st == AS_DAMAGE:
            s['atk_stage'] = AS_HIT
            if damage_hero(S, b, f, int(s['atk_victim'])):
                return True
        else:
            return False                                          # waiting for the victim's choice


@rules_jit(inline=True)
def mask_armor(S, b, p, mask):
    """Legal actions of PH_ARMOR: A_CARD + c for each armour card the hero
    may take the hit on; A_DO + DO_PASS: on none (a hit location without
    armour, Interpretations)."""
    for c in range(NUM_CARDS):
        if equipped(S, b, p, c) and KIND_ARMOR[CARD_KIND[c]] > 0:
            mask[A_CARD + c] = 1
    mask[A_DO + DO_PASS] = 1


@rules_jit(inline=True)
def act_armor(S, b, p, a):
    """PH_ARMOR: the armour is chosen; the damage follows."""
    s = S[b]
    s['atk_armor'] = -1 if a == A_DO + DO_PASS else a - A_CARD
    s['atk_stage'] = AS_DAMAGE
    return False


@rules_jit(inline=True)
def damage_hero(S, b, f, p):
    """Foe f's hit on hero p (L750-L767): the red cube's damage plus its
    swords, one less on armour, the worse Ranged Attack Die for a ranged
    attack or dragon fire (Interpretations); under 1 it does nothing (L747).
    On armour: the armour is damaged or destroyed (``damage_armor``) and the
    hero takes one wound. Without armour: damage at least his healthy Hearts
    kills him, less gives one wound -- a Heart under the optional Red Meat
    (L1170). True if the wound choice is posed."""
    s = S[b]
    armor = int(s['atk_armor'])
    d = attack_damage(S, b, foe_value(S, b, f, SD_DAMAGE), foe_value(S, b, f, SD_SWORDS), armor >= 0)
    kind = foe_value(S, b, f, SD_ATTACK)
    if kind == ATK_RANGED or kind == ATK_FIRE:
        d += ranged_dice(S, b, False, 0, 0, False)
    if d < 1:
        return False
    s['round_wounds'] = 1
    if armor >= 0:
        damage_armor(S, b, armor, d)
        return wound_hero(S, b, p)
    if d >= s['hearts'][p, 0]:
        hero_killed(S, b, p)
        return False
    if s['optional_rules'] & OPT_RED_MEAT:
        apply_wound(S, b, p, A_HEAL + HEAL_HEART)        # he has a healthy Heart: d < his Hearts
        return False
    return wound_hero(S, b, p)


# ================================================================ wounds and death (L783-L795, L408)
@rules_jit
def wound_choices(S, b, p, out):
    """The cubes p may move to his wounded box (L787): a healthy Heart, an
    unplaced healthy cube of each kind (A_HEAL + kind), a cube placed in a
    box of his Lineage, Class or Weapon Card (A_BOX + box). Action codes into
    ``out``; returns the count."""
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
        if s['placed'][p, x] > 0:
            out[n] = A_BOX + x
            n += 1
    return n


@rules_jit
def wound_hero(S, b, p):
    """L787: p moves one Action Cube of his choice to his wounded box at
    once; asked only when he has a choice. True if the choice is posed."""
    out = np.empty(NUM_CUBE_KINDS + NUM_BOXES + 1, dtype=np.int64)
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
    attacks still to come (L793): both follow from ``placed``. No healthy
    Heart left: he is killed (L787, L408)."""
    s = S[b]
    if a == A_HEAL + HEAL_HEART:
        s['hearts'][p, 0] -= 1
        s['hearts'][p, 1] += 1
    else:
        if a >= A_BOX:
            x = a - A_BOX
            s['placed'][p, x] -= 1
            k = CUBE_MIGHT if x == BOX_MIGHT else CUBE_SPEED
        else:
            k = a - A_HEAL
        s['cubes'][p, 0, k] -= 1
        s['cubes'][p, 1, k] += 1
    enforce_weight(S, b, p)
    if hero_weapon(S, b, p) < 0:
        s['placed'][p, BOX_MIGHT] = 0
    check_hero_death(S, b, p)


@rules_jit(inline=True)
def mask_wound(S, b, p, mask):
    """Legal actions of PH_WOUND: ``wound_choices``."""
    out = np.empty(NUM_CUBE_KINDS + NUM_BOXES + 1, dtype=np.int64)
    m = wound_choices(S, b, p, out)
    for i in range(m):
        mask[out[i]] = 1


@rules_jit(inline=True)
def act_wound(S, b, p, a):
    """PH_WOUND: that cube is wounded; the attack goes on to its next victim."""
    apply_wound(S, b, p, a)
    S[b]['atk_stage'] = AS_HIT
    return False


@rules_jit(inline=True)
def check_hero_death(S, b, p):
    """L408, L787: a hero with no Heart in his healthy box dies at once."""
    s = S[b]
    if s['hearts'][p, 0] <= 0 and s['hero_state'][p] == HS_ACTIVE:
        hero_killed(S, b, p)


@rules_jit
def hero_killed(S, b, p):
    """Hero p is killed (L765, L787): ``fate.kill_hero`` does what death does
    (L801-L805); he takes no further part in the combat."""
    s = S[b]
    kill_hero(S, b, p)
    s['round_wounds'] = 1
    if s['hero_combat'][p] == HC_FIGHTING:
        s['hero_combat'][p] = HC_KILLED
    s['hero_target'][p] = -1
    for x in range(NUM_BOXES):
        s['placed'][p, x] = 0


# ================================================================ 8. Cleanup (L771-L781)
@rules_jit(inline=True)
def adjust_target_ok(S, b, p, c, t, left, weapons, occ):
    """Adjust Equipment (L773): p may put card c at target t with ``left``
    = 2 (unequip one card, then equip one) or 1 (he has unequipped: equip
    one). An equipped card goes to the backpack, or moves to another position
    it fills alone (unequipped and equipped again); a backpack card is
    equipped, unequipping at most the one card in its way while an unequip
    is left. ``weapons``: a Warrior's adjustment after using a card (L1230):
    the card moved and the one it unequips are Weapon Cards. ``occ``: p's
    ``slot_occupants``."""
    s = S[b]
    slot = int(s['card_slot'][c])
    if t == slot or not target_legal_at(S, b, p, c, t, occ):
        return False
    if weapons and KIND_WEAPON_USE[CARD_KIND[c]] == 0:
        return False
    moved = 0
    for sl in range(T_BACKPACK):
        u = occ[sl]
        if u >= 0 and u != c and SLOT_OVERLAP[t, sl]:
            moved += 1
            if weapons and KIND_WEAPON_USE[CARD_KIND[u]] == 0:
                return False
    if slot < T_BACKPACK:
        return left == 2 and (t == T_BACKPACK or moved == 0)
    return t != T_BACKPACK and moved <= left - 1


@rules_jit(inline=True)
def rearm_target_ok(S, b, p, c, t, occ):
    """Rearm (L774, L978): a backpack card to a weapon position left free."""
    s = S[b]
    if s['card_slot'][c] != T_BACKPACK or not (t == T_WEAPON1 or t == T_WEAPON2 or t == T_WEAPONS):
        return False
    return target_legal_at(S, b, p, c, t, occ) and displaced_count(c, t, occ) == 0


@rules_jit
def cleanup_target_ok(S, b, p, c, t, occ):
    """Card c may go to t in this hero's Rearm (he threw a weapon) or Adjust
    Equipment (Weapon Cards only for a Warrior who used a card, L1230);
    ``occ``: p's ``slot_occupants``."""
    s = S[b]
    if s['card_where'][c] != CW_HERO or s['card_owner'][c] != p:
        return False
    if s['hero_cflags'][p] & CF_THREW:
        return rearm_target_ok(S, b, p, c, t, occ)
    return adjust_target_ok(S, b, p, c, t, int(s['adjust_left']), (s['hero_cflags'][p] & CF_USED_CARD) != 0, occ)


@rules_jit
def cleanup_card_targets(S, b, p, c, occ):
    """How many targets card c may go to now; -1 - t when exactly one, t."""
    s = S[b]
    if s['card_where'][c] != CW_HERO or s['card_owner'][c] != p:
        return 0
    n = 0
    only = -1
    banner = KIND_POSITION[CARD_KIND[c]]
    for t in range(NUM_TARGETS):
        if t != T_BACKPACK and not TARGET_OK[banner, t]:
            continue                             # never legal (target_legal_at): spare the checks
        if cleanup_target_ok(S, b, p, c, t, occ):
            n += 1
            only = t
    return -1 - only if n == 1 else n


@rules_jit(inline=True)
def cleanup_choices(S, b, p):
    """Cards p may move in his Rearm or Adjust Equipment now."""
    s = S[b]
    occ = new_occupants(S, b, p)
    n = 0
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_HERO and s['card_owner'][c] == p and cleanup_card_targets(S, b, p, c, occ) != 0:
            n += 1
    return n


@rules_jit
def cleanup_step(S, b):
    """L773-L774: in Turn Order, a hero who threw his weapon may rearm; one
    who used no card this round (no cube on a Weapon Card, Interpretations)
    may adjust his equipment, and a Warrior always may, unequipping one
    Weapon Card and equipping one (L1230, Interpretations, "Warrior"). Then
    the rest of Cleanup (``end_of_round``). True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    while s['cleanup_pos'] < n:
        p = int(s['turn_order'][s['cleanup_pos']])
        if p >= 0 and fighting(S, b, p) and s['adjust_left'] > 0 and cleanup_choices(S, b, p) > 0:
            if s['hero_cflags'][p] & CF_THREW:
                return pose(S, b, PH_REARM, p)
            if (s['hero_cflags'][p] & CF_USED_CARD) == 0 or s['hero_class'][p] == WARRIOR:
                return pose(S, b, PH_ADJUST, p)
        s['cleanup_pos'] += 1
        s['adjust_left'] = 2
    end_of_round(S, b)
    return False


@rules_jit(inline=True)
def mask_adjust(S, b, p, mask):
    """Legal actions of PH_ADJUST and PH_REARM: A_CARD + c for each card that
    may be moved; A_DO + DO_DONE."""
    s = S[b]
    occ = new_occupants(S, b, p)
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_HERO and s['card_owner'][c] == p and cleanup_card_targets(S, b, p, c, occ) != 0:
            mask[A_CARD + c] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit(inline=True)
def act_adjust(S, b, p, a):
    """PH_ADJUST / PH_REARM: the card to move (placed at once when it can go
    to one place only), or the end of the hero's equipping."""
    s = S[b]
    if a == A_DO + DO_DONE:
        s['adjust_left'] = 0
        return False
    c = a - A_CARD
    k = cleanup_card_targets(S, b, p, c, new_occupants(S, b, p))
    if k < 0:
        place_card(S, b, p, c, -1 - k)
        return False
    s['sel_card'] = c
    return pose(S, b, PH_ADJUST_TARGET, p)


@rules_jit(inline=True)
def mask_adjust_target(S, b, p, mask):
    """Legal actions of PH_ADJUST_TARGET: A_TARGET + t for each place the
    chosen card may go."""
    c = int(S[b]['sel_card'])
    occ = new_occupants(S, b, p)
    for t in range(NUM_TARGETS):
        if cleanup_target_ok(S, b, p, c, t, occ):
            mask[A_TARGET + t] = 1


@rules_jit(inline=True)
def act_adjust_target(S, b, p, a):
    """PH_ADJUST_TARGET: the card goes there."""
    place_card(S, b, p, int(S[b]['sel_card']), a - A_TARGET)
    return False


@rules_jit
def place_card(S, b, p, c, t):
    """Put card c at t (what is in its way goes to the backpack, L973); an
    Adjust Equipment that only unequipped may still equip one card."""
    s = S[b]
    unequip_only = s['card_slot'][c] < T_BACKPACK and t == T_BACKPACK
    equip_card(S, b, p, c, t)
    s['sel_card'] = -1
    if unequip_only and (s['hero_cflags'][p] & CF_THREW) == 0:
        s['adjust_left'] = 1
    else:
        s['adjust_left'] = 0


@rules_jit(inline=True)
def end_of_round(S, b):
    """The rest of Cleanup. L775-L777: a hidden hero who used a card this
    round (ambushed with his ranged weapon) rolls to stay hidden, without
    the Sneak allowance or the Halfling reroll; failing, he is unhidden for
    the rest of combat. L780: every placed cube goes back to the healthy
    box. L781: after two consecutive rounds without a wound or a death the
    clearing's combat ends, as it does once no hero is left in it; else a
    new round begins."""
    s = S[b]
    n = int(s['num_players'])
    for i in range(n):
        p = int(s['turn_order'][i])
        if p >= 0 and fighting(S, b, p) and hidden(S, b, p) and s['hero_cflags'][p] & CF_USED_CARD:
            if not hide_roll(S, b, p, False):
                s['hero_status'][p] = s['hero_status'][p] & np.uint8(0xFF ^ HST_HIDDEN)
    left = 0
    for p in range(MAX_HEROES):
        for x in range(NUM_BOXES):
            s['placed'][p, x] = 0
        if fighting(S, b, p):
            left += 1
    if s['round_wounds']:
        s['quiet_rounds'] = 0
    else:
        s['quiet_rounds'] += 1
    if s['quiet_rounds'] >= 2 or left == 0:
        end_of_combat(S, b)
    else:
        new_round(S, b)


# ================================================================ the end of combat (L807-L812, L1008)
@rules_jit(inline=True)
def end_of_combat(S, b):
    """L811: the Monsters' pink cubes are discarded and their chips turned
    name side up (heroes' wounds stay). L812: a hero who threw a weapon and
    is still in the clearing, with no Monster left there, takes it back face
    down into his backpack; otherwise it leaves the game (Natives still
    fighting as Monsters count as Monsters). L1008: the Natives return to
    their peace."""
    s = S[b]
    left = monsters_here(S, b) > 0
    for c in range(NUM_CARDS):
        if s['card_thrown'][c]:
            q = int(s['card_owner'][c])
            if not left and q >= 0 and fighting(S, b, q):
                s['card_where'][c] = CW_HERO
                s['card_slot'][c] = T_BACKPACK
            else:
                s['card_owner'][c] = -1
            s['card_thrown'][c] = 0
    for f in range(NUM_FOES):
        if foe_here(S, b, f):
            s['foe_wounds'][f] = 0
            for q in range(MAX_HEROES):
                s['foe_wound_by'][f, q] = 0
            if f < NUM_MONSTER_CHIPS:
                s['mon_flipped'][f] = 0
            else:
                s['native_flipped'][f - NUM_MONSTER_CHIPS] = 0
        s['foe_target'][f] = -1
        s['foe_extra'][f] = 0
        s['foe_flags'][f] = 0
    s['natives_hostile'] = 0
    for p in range(MAX_HEROES):
        if s['hero_combat'][p] == HC_FIGHTING:
            s['hero_combat'][p] = HC_DONE
        s['hero_cflags'][p] = 0
        s['hero_target'][p] = -1
    s['combat_step'] = CS_NONE
    s['combat_clearing'] = -1
    s['combat_pos'] += 1
