"""Spells cast in combat (L706-L781, L1018-L1065) and what the spells of the
Spell Manifest do when cast (L1486-L1597).

A hero casts in the Combat Round's steps (``combat.py`` calls in here):

- **Target** (L709-L712): besides a foe for his weapon, a hero may aim a spell
  he could cast at a foe or at a hero (``aim_offered``); a spell with several
  targets (Fireball) takes more foes one at a time (PH_MORE_TARGETS). The
  Targeting Token is public; which spell is not, until Tactics is revealed.
- **Hero Tactics** (L714-L723): in secret, he casts one Spell Card whose
  aim fits his targets (A_SPELL + card), instead of using his weapon (one
  card that attacks a round, L720): its coloured boxes take Magic Cubes of
  their colour at once, each multi-colour box the colour he chooses
  (PH_SPELL_CUBE) -- a box of his tile's enchantment colour is left empty
  (L1022) -- and his Speed Cubes in his attack boxes are the spell's attack
  speed (L718, L732).
- **Resolve** (L730-L758): the spell strikes in attack speed order, its
  length breaking ties (L734); a targeted spell hits by the normal attack
  rules, unless its target hero accepts the hit (PH_ACCEPT, L1032).
- **Cleanup** (L775-L779): a cube on a wound-symbol box is wounded; a hidden
  caster rolls to stay hidden.

``cast_stage`` (CAST_*) keeps how far the cast is. The spells in play and what
ends them are ``magic.py``'s; how they change a strike is ``strike.py``'s.
Only the spells of ``base.SPELLS_BUILT`` are offered.
"""
import numpy as np

from dragongym.envs.core.jit import local_array, local_zeros, rules_jit
from ..constants import (
    MON_SHAPE, MAX_HEROES, CLEARINGS_PER_TILE, CUBE_MAGIC, CW_HERO, MAX_AIMS, MON_TRAY, NUM_CARDS, NUM_COLOURS, NUM_DIRECTIONS, NUM_MONSTER_CHIPS,
    NUM_SPELLS, NUM_TILES, OPT_ENCH_LIMIT, OPT_PVP, OPT_TOUGH, SPW_KNOWN, TW_PLACED,
)
from .base import (
    drop_control,
    A_TILE, A_TURN, PH_TELEPORT_TILE, PH_EARTH_TILE, PH_EARTH_TURN, SP_MOVE_EARTH, MOVE_EARTH_REACH, SP_OPEN_GATE, SP_TELEPORT, TELEPORT_REACH, FOE_SPELL, FOE_SPELL_BUILT,
    SP_RULE_UNDEAD, SP_ELEMENTAL, CTRL_UNDEAD, CTRL_ELEMENTAL, CTRL_WAITING, PH_CTRL_KEEP, ANSWER_REFUSE, FOE_ELEMENTAL,
    SP_SHAPE_SHIFT, CTRL_SHAPE, PH_SHAPE, SHAPE_OK, shifted,
    SP_CONFUSE, SD_SPEED, SP_AIR_SWORD, SP_DISCORD, DISCORD_CARDS, SD_DAMAGE, SD_SWORDS, SD_ATTACK, ATK_FIRE, ATK_RANGED,
    CURSE_WEAKNESS, SP_TENTACLES, PH_TENTACLE, A_FOE, A_DO, A_SEAT, DO_PASS, NUM_TENTACLES, TENTACLE_CARDS,
    TENT_ATTACK, TENT_LEFT, TENT_MANEUVER, TENT_MISS, TENT_NONE, TENT_UNROLLED, SP_DARK_MATTER, SP_VAPOR_FORM, PERM_ACTIVE, LICH_VAPOR_ACTIVE, LICH_VAPOR_ON, AIR_SWORD_MIGHT, AIR_SWORD_SPEED, AIR_SWORD_SWORDS,
    A_ANSWER, A_CUBE, AIM_HERO, AIM_NONE, AIM_SELF, AIM_SELF_OR_OTHER, AIM_TARGETED, ANSWER_ACCEPT, ANY_COLOUR,
    BOX_ATTACK, BOX_MIGHT, CAST_ASKING, CAST_CANCELED, CAST_DONE, CAST_NONE, CAST_PLACED,
    CURSE_INSTANT, CURSE_SUMMON, CURSE_TELEPORT, DIS_DORMANT, DIS_SLOW, DOOR_FOE,
    DUR_TURN, FIREBALL_DAMAGE, FOE_HEALTH, HEAL_CUBES, MAX_SPELL_BOXES, NUM_FOES,
    PH_ACCEPT, PH_SPELL_CUBE, SP_AFFLICTION, SP_ANTI_MAGIC, SP_BREAK_SPELLS, SP_CALM, SP_CURSE,
    SP_DISORIENT, SP_FIERY_CHASM, SP_FIREBALL, SP_HEAL, SP_HESITATION, SP_PEACE, SP_TURN_UNDEAD,
    SPELL_AIDS, SPELL_AIM, SPELL_BOX, SPELL_BUILT, SPELL_DURATION, SPELL_KIND, SPELL_TARGETS, SPELL_UNDEAD,
    SPELL_WOUND_BOX, UNDEAD_IMMUNE, UNDEAD_ONLY, pose, roll,
    A_REROLL, CLEARING_TYPE, DO_DONE, MAX_ROLL_DICE, NUM_RR_SOURCES, PH_REROLL, REROLL_WAYS, ROLL_GATE, ROLL_LOOT,
    ROLL_SEARCH, ROLL_TELEPORT, ROLL_LEARN, ROLL_HAGGLE, ROLL_STRUCK, LEARN_FACE, HAGGLE_FACE,
    ROLL_ATTACK, ROLL_RANGED, ROLL_HIDE, ROLL_NOISE, ROLL_TRAP, ROLL_CURSE, ROLL_DESTINATION, ROLL_SUMMON, ROLL_WRAITH, ROLL_TENTACLE, ROLL_OUTLAW, DEST_CURSE, DEST_CURSE_FOE, DEST_SPELL,
    DEST_CURSE_SPELL, CURSE_OF_ROLL,
    HIT_DIE_FACE, RANGED_DIE_FACE, GRAY_SYMBOL, BLACK_SYMBOL, end_roll, dust_roll,
    ATTACK_CHASM, ATTACK_CHIP, ATTACK_ON_HERO, ATTACK_SPELL, ATTACK_SWORD, OUTLAW_AT_END,
)
from .fate import end_game, outlaw_result, outlaw_rolls, remove_card, retired
from .activation import CHIP_KIND, noise_summons, roll_summoning_dice
from .actions import draw_clearing, hide_result, monster_die, search_die, search_found, start_heal, trap_wounds
from .magic import (
    curse_applies, curse_die, curse_stays, destinations, learn_result, end_combat_spells, end_spell,
    end_spells_on, spell_on_target, summon_curse, summon_die, summon_wanderers, teleport_arrives,
    teleport_destination,
)
from .equipment import random_cube
from .realm import PATH_BITS, other_gates, position_edges
from .treasures import (
    band_reroll, dust_asks, dust_waits, hero_flies, horn_attack, next_party, reroll_offered, spend_reroll, start_roll,
    wand_held,
)
from .trade import haggle_result, loot_die, loot_result, place_received, seen_resume, wraith_comes, wraith_die
from .strike import (
    AS_HIT, AS_LANDED, HC_NONE, HC_DONE, CF_SWORD_DONE, add_extra_chip, extra_chip, foe_recovers, foe_side, foe_slain, foe_value,
    CF_ATTACKED, FF_ATTACKED, FOE_FLYING, FOE_GUARDIAN, FOE_UNDEAD, afflict_foe, attack_damage, controller,
    versus, in_fight,
    attack_speed_against, cube_limit, hit_die, hit_result, HIT_HIT, CONJURER, DRUID, GREEN, ILLUSIONIST, SORCERER, discord_foe, foe_cursed, foe_maneuver, strike_monster, cubes_placed, damage_monster, fighting, foe_armored, foe_here,
    foe_is_monster, hero_maneuver, hidden, hit_bonus, maneuver_of, monster_killed, roll_at,
    killed_by_hero,
    roll_to_hit, rouse, struck_at, target_here, unplaced, weak, CUBE_LIMIT,
    realign_cubes, wound_hero, AS_HURT, ranged_pair, save_again, soul_saved, struck_dice,
    weapon_damage, weapon_lands,
)

WOUND_ANY = -2
"""``cast_wound`` while the wound-symbol box is a multi-colour one still to
cover: the first cube chosen for a multi-colour box goes there."""
CAST_HEAL = 1
"""``cast_turn`` bit: the hero cast Heal this turn (once per turn, L1576)."""
STRUCK_NEW, STRUCK_MISS, STRUCK_HIT, STRUCK_DONE = -1, 0, 1, 2
"""Where a targeted spell's cast resumes (``cast_targets``) at its target
``cast_aim``: a target not yet struck; its roll to hit stood, a miss or a
hit (after a Dust of Destiny); its hit wholly applied (the Fireball's
Ranged Attack Dice stood and its damage dealt)."""


# ================================================================ covering the boxes (L721-L723, L1020-L1022)
NUM_COLOURS_ANY = NUM_COLOURS + 1
"""The Magic Cube colours and the multicolour box (a box's colour code)."""

@rules_jit
def enchant_colour(S, b, p):
    """The colour of the Magic Cube enchanting hero p's tile, one box of
    which his spell may leave empty (L1022); -1."""
    s = S[b]
    return int(s['tile_enchant'][int(s['hero_clearing'][p]) // CLEARINGS_PER_TILE])


@rules_jit
def waived_box(S, b, p, kind):
    """The box of a spell of ``kind`` hero p leaves empty in his enchanted
    tile; -1 none. L579, L1020: one box matching the enchantment's colour,
    a multi-colour box included, his choice -- made for him where it can only
    help: the wound-symbol box if it matches (no cube on it, so none to
    wound), else a box of that colour, else a multi-colour box, the first of
    these his cubes can cover the rest around. Enchantment Limit (optional,
    L1144): only the rightmost box of the enchantment's solid colour."""
    s = S[b]
    e = enchant_colour(S, b, p)
    if e < 0:
        return -1
    if s['optional_rules'] & OPT_ENCH_LIMIT:
        last = -1
        for i in range(MAX_SPELL_BOXES):
            if SPELL_BOX[kind, i] == e:
                last = i
        return last
    first = -1
    w = int(SPELL_WOUND_BOX[kind])
    for rank in range(3):                        # the wound box, a box of the colour, a multi-colour box
        for i in range(MAX_SPELL_BOXES):
            c = int(SPELL_BOX[kind, i])
            if rank == 0 and (i != w or (c != e and c != ANY_COLOUR)):
                continue
            if (rank == 1 and c != e) or (rank == 2 and c != ANY_COLOUR):
                continue
            if first < 0:
                first = i
            if cover_fits_skipping(S, b, p, kind, i):
                return i
    return first


@rules_jit
def cover_fits(S, b, p, kind):
    """Hero p's healthy Magic Cubes not yet placed cover every box of a spell
    of ``kind`` -- a coloured box with its colour, a multi-colour box with any
    (L723), the box his tile's enchantment waives left empty (``waived_box``,
    L1020) -- within his cube limit (L716: a sixth cube, after an Alert, is a
    Speed Cube)."""
    return cover_fits_skipping(S, b, p, kind, waived_box(S, b, p, kind))


@rules_jit
def cover_fits_skipping(S, b, p, kind, skip):
    """``cover_fits`` with box ``skip`` (-1 none) left empty."""
    s = S[b]
    need = local_zeros(NUM_COLOURS_ANY, np.int64)
    for i in range(MAX_SPELL_BOXES):
        c = int(SPELL_BOX[kind, i])
        if c >= 0 and i != skip:
            need[c] += 1
    spare = 0
    total = int(need[ANY_COLOUR])
    for c in range(NUM_COLOURS):
        free = unplaced(S, b, p, CUBE_MAGIC + c)
        if free < need[c]:
            return False
        spare += free - int(need[c])
        total += int(need[c])
    speed = int(s['placed'][p, BOX_ATTACK]) + int(s['placed'][p, 2])
    placed = cubes_placed(S, b, p)
    return spare >= need[ANY_COLOUR] and placed + total <= cube_limit(S, b, p) and \
        placed - speed + total <= CUBE_LIMIT


@rules_jit
def may_cast(S, b, p, sp):
    """Hero p may cast Spell Card sp this round, its targets aside: he knows
    it (L1018), its effect is built, it is not in play (a spell that lasts is
    not cast again until it ends, L1026), Heal not yet this turn (L1576), and
    his cubes cover its boxes; no Confuse lies on him (L1590)."""
    s = S[b]
    if s['spell_where'][sp] != SPW_KNOWN or s['spell_owner'][sp] != p:
        return False
    k = int(SPELL_KIND[sp])
    if not SPELL_BUILT[k] or s['spell_on'][sp] >= 0:
        return False
    if k == SP_HEAL and s['cast_turn'][p] & CAST_HEAL:
        return False
    if spell_on_target(S, b, SP_CONFUSE, AIM_HERO + p) >= 0:
        return False                             # L1590: Confused (Player vs. Player), he may not cast
    return cover_fits(S, b, p, k)


@rules_jit
def aim_ok(S, b, p, k, t):
    """Hero p may aim a spell of kind k at target code t (L1030-L1034): a foe
    or a hero still in the fight; a targeted spell at no one under Anti-Magic
    (L1534); none marked with the undead symbol at the undead (L1065), Rule
    and Turn Undead only at them; a turn spell only at a hero (it serves his
    next turn's actions, L1044); at a hero, himself included, only a spell
    that aids (``base.SPELLS_AIDING``; Interpretations, "Spells aimed at
    heroes"); Dark Matter also at himself, whom its swap of his cubes may
    serve (L1504). With Player vs. Player, also a harmful spell whose effect
    on a hero is built (``pvp_spell``) at another unhidden hero (L1174)."""
    aim = SPELL_AIM[k]
    if aim == AIM_SELF or aim == AIM_NONE or t < 0 or t == DOOR_FOE or not target_here(S, b, t):
        return False
    if aim == AIM_TARGETED and spell_on_target(S, b, SP_ANTI_MAGIC, t) >= 0:
        return False
    if t < NUM_FOES:
        undead = FOE_UNDEAD[t] != 0
        if (SPELL_UNDEAD[k] == UNDEAD_IMMUNE and undead) or (SPELL_UNDEAD[k] == UNDEAD_ONLY and not undead):
            return False
        return SPELL_DURATION[k] != DUR_TURN
    if SPELL_UNDEAD[k] == UNDEAD_ONLY:
        return False
    if SPELL_AIDS[k] != 0 or (k == SP_DARK_MATTER and t == AIM_HERO + p):
        return True
    return pvp_spell(k) and (S[b]['optional_rules'] & OPT_PVP) != 0 and t != AIM_HERO + p \
        and not hidden(S, b, t - AIM_HERO)


@rules_jit
def pvp_spell(k):
    """Harmful targeted spells of kind k a hero may aim at another hero with
    Player vs. Player (L1174): those whose card lets a hero be their target --
    Affliction's wound (L1498), Curse's roll on the Curse Table (L1500), Dark
    Matter's swap of cubes (L1504), Fireball's ranged attack (L1562),
    Hesitation's -1 maneuver (L1588), Confuse (no more casting, L1590) and
    Disorient (no attack until targeted or hit, L1594). Calm "has no effect
    on Heroes" (L1548), Discord must hit two Monsters (L1596) and Rule Undead
    takes the undead only (L1506): those stay aimed at foes (Interpretations,
    "Spells aimed at heroes")."""
    return k == SP_AFFLICTION or k == SP_CURSE or k == SP_DARK_MATTER or k == SP_FIREBALL \
        or k == SP_HESITATION or k == SP_CONFUSE or k == SP_DISORIENT


@rules_jit
def aims(S, b, p, out):
    """Hero p's targets this round into ``out`` (MAX_AIMS long): his
    Targeting Token's, then the further foes of his spell. Returns how many."""
    s = S[b]
    n = 0
    if s['hero_target'][p] >= 0:
        out[0] = s['hero_target'][p]
        n = 1
        for i in range(MAX_AIMS - 1):
            if s['more_targets'][p, i] >= 0:
                out[n] = s['more_targets'][p, i]
                n += 1
    return n


@rules_jit
def targets_fit(S, b, p, k):
    """Hero p's targets suit a spell of kind k: none for a self or untargeted
    spell; one for a self-or-other spell; one to the number in its target
    symbol for a targeted one, each one it may be aimed at (L1030-L1034)."""
    out = local_array(MAX_AIMS, np.int64)
    n = aims(S, b, p, out)
    aim = SPELL_AIM[k]
    if aim == AIM_SELF or aim == AIM_NONE:
        return n == 0
    if n == 0 or n > SPELL_TARGETS[k]:
        return False
    for i in range(n):
        if not aim_ok(S, b, p, k, int(out[i])):
            return False
    return True


@rules_jit
def castable(S, b, p, sp):
    """Hero p may cast Spell Card sp now, in Hero Tactics: no spell and no
    weapon used yet this round (one card that casts or attacks, L720), and it
    suits his cubes and his targets."""
    s = S[b]
    if s['cast_card'][p] >= 0 or s['placed'][p, BOX_MIGHT] > 0 or horn_attack(S, b, p):
        return False
    return may_cast(S, b, p, sp) and targets_fit(S, b, p, int(SPELL_KIND[sp]))


@rules_jit
def any_castable(S, b, p):
    for sp in range(NUM_SPELLS):
        if castable(S, b, p, sp):
            return True
    return False


@rules_jit
def aim_offered(S, b, p, t):
    """The Target step may give hero p target code t for a spell he could
    cast at it (L711-L712)."""
    for sp in range(NUM_SPELLS):
        if may_cast(S, b, p, sp) and aim_ok(S, b, p, int(SPELL_KIND[sp]), t):
            return True
    return False


@rules_jit
def more_offered(S, b, p, g):
    """Target code g (a foe, or with Player vs. Player another hero, L1174)
    may be one more target of a spell hero p could cast at all his targets
    so far and at g (Fireball's four, L1562)."""
    out = local_array(MAX_AIMS, np.int64)
    n = aims(S, b, p, out)
    if n == 0 or n >= MAX_AIMS or g == DOOR_FOE:
        return False
    for i in range(n):
        if out[i] == g:
            return False
    for sp in range(NUM_SPELLS):
        k = int(SPELL_KIND[sp])
        if SPELL_TARGETS[k] <= n or not may_cast(S, b, p, sp) or not aim_ok(S, b, p, k, g):
            continue
        fits = True
        for i in range(n):
            if not aim_ok(S, b, p, k, int(out[i])):
                fits = False
        if fits:
            return True
    return False


@rules_jit
def any_more(S, b, p):
    for g in range(NUM_FOES):
        if foe_here(S, b, g) and more_offered(S, b, p, g):
            return True
    for q in range(MAX_HEROES):
        if more_offered(S, b, p, AIM_HERO + q):
            return True
    return False


@rules_jit
def add_target(S, b, p, g):
    s = S[b]
    for i in range(MAX_AIMS - 1):
        if s['more_targets'][p, i] < 0:
            s['more_targets'][p, i] = g
            return


# ================================================================ casting in Hero Tactics (L714-L723)
@rules_jit
def start_cast(S, b, p, sp):
    """Hero p casts Spell Card sp: its coloured boxes take Magic Cubes of
    their colour, but the box his tile's enchantment waives is left empty
    (``waived_box``, L1020); its multi-colour boxes wait for his choice
    (``cover_any``)."""
    s = S[b]
    k = int(SPELL_KIND[sp])
    skip = waived_box(S, b, p, k)                # chosen before any cube is placed
    s['cast_card'][p] = sp
    s['cast_stage'][p] = CAST_PLACED
    s['cast_wound'][p] = -1
    for i in range(MAX_SPELL_BOXES):
        c = int(SPELL_BOX[k, i])
        if c < 0:
            break
        if i == skip:
            continue                             # left empty: no cube, so none to wound either
        if c == ANY_COLOUR:
            s['cast_any'][p] += 1
            if i == SPELL_WOUND_BOX[k]:
                s['cast_wound'][p] = WOUND_ANY
        else:
            s['cast_cubes'][p, c] += 1
            if i == SPELL_WOUND_BOX[k]:
                s['cast_wound'][p] = c


@rules_jit
def cover_one(S, b, p, c):
    """A Magic Cube of colour c covers the next multi-colour box (L723)."""
    s = S[b]
    s['cast_cubes'][p, c] += 1
    s['cast_any'][p] -= 1
    if s['cast_wound'][p] == WOUND_ANY:
        s['cast_wound'][p] = c


@rules_jit
def cover_any(S, b, p):
    """Cover the spell's multi-colour boxes: with the one colour p has free,
    at once; with several, he chooses (PH_SPELL_CUBE). True if posed."""
    s = S[b]
    while s['cast_any'][p] > 0:
        kinds = 0
        only = -1
        for c in range(NUM_COLOURS):
            if unplaced(S, b, p, CUBE_MAGIC + c) > 0:
                kinds += 1
                only = c
        if kinds > 1:
            return pose(S, b, PH_SPELL_CUBE, p)
        cover_one(S, b, p, only)
    return False


@rules_jit
def mask_spell_cube(S, b, p, mask):
    """Legal actions of PH_SPELL_CUBE: A_CUBE + CUBE_MAGIC + colour for each
    colour of Magic Cube p has free."""
    for c in range(NUM_COLOURS):
        if unplaced(S, b, p, CUBE_MAGIC + c) > 0:
            mask[A_CUBE + CUBE_MAGIC + c] = 1


@rules_jit
def act_spell_cube(S, b, p, a):
    """PH_SPELL_CUBE: that colour covers the box; Hero Tactics goes on."""
    cover_one(S, b, p, a - A_CUBE - CUBE_MAGIC)
    return False


# ================================================================ accepting a hit (L1032)
@rules_jit
def mask_accept(S, b, p, mask):
    """Legal actions of PH_ACCEPT: A_ANSWER + ANSWER_ACCEPT / ANSWER_REFUSE."""
    mask[A_ANSWER] = 1
    mask[A_ANSWER + 1] = 1


@rules_jit
def act_accept(S, b, p, a):
    """PH_ACCEPT: the targeted hero p accepts the hit (``cast_accepted``), or
    the spell rolls to hit him (L1032). The cast resumes in the Resolve step:
    its next hero target is asked, or it strikes (``cast_spell``)."""
    s = S[b]
    if a == A_ANSWER + ANSWER_ACCEPT:
        s['cast_accepted'] = s['cast_accepted'] | np.uint8(1 << p)
    return False


@rules_jit
def ask_acceptance(S, b, p, out, n):
    """Before hero p's targeted spell strikes, each other hero among its n
    targets ``out`` who is still in the fight and may be targeted (no
    Anti-Magic, L1534) is asked, one at a time in the order of the targets,
    whether he accepts its hit (PH_ACCEPT, L1032; ``cast_asked``). True if
    posed."""
    s = S[b]
    if s['cast_stage'][p] == CAST_PLACED:        # a fresh cast: no one asked yet
        s['cast_asked'] = 0
        s['cast_accepted'] = 0
        s['cast_stage'][p] = CAST_ASKING
    for i in range(n):
        t = int(out[i])
        if t < AIM_HERO or t == AIM_HERO + p or not target_here(S, b, t) or \
                spell_on_target(S, b, SP_ANTI_MAGIC, t) >= 0 or (int(s['cast_asked']) >> (t - AIM_HERO)) & 1:
            continue
        s['cast_asked'] = s['cast_asked'] | np.uint8(1 << (t - AIM_HERO))
        return pose(S, b, PH_ACCEPT, t - AIM_HERO)
    return False


# ================================================================ casting in the Resolve step (L730-L758)
@rules_jit
def cast_ready(S, b, p):
    """Hero p's spell is still to be cast this round: he fights, it is
    covered and not canceled by a wound (L789), and a spell with targets
    still has one in the fight."""
    s = S[b]
    sp = int(s['cast_card'][p])
    st = int(s['cast_stage'][p])
    if sp < 0 or not fighting(S, b, p) or st == CAST_NONE or st == CAST_DONE or st == CAST_CANCELED:
        return False
    aim = SPELL_AIM[SPELL_KIND[sp]]
    if aim == AIM_SELF or aim == AIM_NONE:
        return True
    out = local_array(MAX_AIMS, np.int64)
    n = aims(S, b, p, out)
    for i in range(n):
        if target_here(S, b, int(out[i])):
            return True
    return False


@rules_jit
def cast_spell(S, b, p):
    """Hero p's spell takes effect (L736-L745, L1030-L1034): a targeted spell
    at another hero first asks him to accept the hit (PH_ACCEPT); then each
    target is hit by the normal attack rules -- his attack speed against its
    maneuver speed -- unless it is the caster or accepted; a self-or-other
    spell takes effect on its target without a roll; an untargeted one on
    the clearing. True if a decision is posed."""
    s = S[b]
    sp = int(s['cast_card'][p])
    k = int(SPELL_KIND[sp])
    me = AIM_HERO + p
    t0 = int(s['hero_target'][p])
    aim = SPELL_AIM[k]
    out = local_array(MAX_AIMS, np.int64)
    n = aims(S, b, p, out)
    if aim == AIM_TARGETED and ask_acceptance(S, b, p, out, n):
        return True
    s['hero_cflags'][p] = s['hero_cflags'][p] | CF_ATTACKED
    s['spell_shown'][sp] = 1
    s['cast_stage'][p] = CAST_DONE
    speed = int(s['placed'][p, BOX_ATTACK]) + specialized(S, b, p)
    posed = False
    if aim == AIM_NONE:
        if k == SP_FIERY_CHASM:
            return fiery_chasm(S, b, me, speed)  # its strikes may wait on a Dust: it marks his attack made at their end
        if k == SP_TURN_UNDEAD:
            turn_undead(S, b, p)
        elif k == SP_PEACE:
            s['peace'] = 1                      # combat.py ends the combat at once (L1582)
        elif k == SP_AIR_SWORD:                  # L1520: in play from the next round
            put_in_play(S, b, sp, me)
            s['spell_mark'][sp] = s['combat_round']
        elif k == SP_MOVE_EARTH:                 # L1546: the caster chooses the tile, then its side and turn
            posed = pose(S, b, PH_EARTH_TILE, p)
        elif k == SP_ELEMENTAL:                  # L1550: an Elemental joins, under him from the next round
            summon_elemental(S, b, p, sp)
        elif k == SP_TENTACLES:                  # L1518: four tentacles placed, then rolled
            put_in_play(S, b, sp, me)
            posed = start_tentacles(S, b, p, sp)
    elif aim == AIM_SELF:                        # L1034: on the caster, as it is cast
        if k == SP_SHAPE_SHIFT:
            posed = start_shape(S, b, p)
    elif aim == AIM_SELF_OR_OTHER:
        if target_here(S, b, t0):
            posed = aid_target(S, b, p, sp, t0)
    else:
        s['cast_aim'] = 0
        s['cast_hits'] = 0
        s['atk_victims'] = 0
        return cast_targets(S, b, p, STRUCK_NEW)
    rouse(S, b, me, DIS_SLOW)
    return posed


@rules_jit
def cast_targets(S, b, p, landed):
    """Hero p's targeted spell strikes its targets (``aims``) in turn, from
    ``cast_aim`` on (L1030-L1032): each is hit by the normal attack rules
    (``strike.roll_at``) -- his attack speed against its maneuver speed, the
    Time Stone's tie (L1456), the Wand's and his Band's rerolls of a miss,
    a hero target's Band's of a hit (L1480, L1290) -- unless it is the caster
    or a hero who accepted the hit (``cast_accepted``, L1032). A roll of the
    Hit Dice waits on the Dust of Destiny of the caster (a miss) and of a
    hero target (a hit) (ROLL_ATTACK, L1330), and a foe's Ranged Attack Dice
    (the Fireball's) on the caster's; the cast then resumes here, ``landed``
    (STRUCK_*) saying how the target at ``cast_aim`` stands. A target gone,
    or protected by Anti-Magic, is passed by (L1534); Discord takes effect
    only if both its targets are hit (L1596). The heroes a Fireball hit
    (Player vs. Player, ``atk_victims``) then take its ranged attack in turn,
    each as a hero's hit on a hero (``combat.monster_attack``,
    ``fireball_hero``). True if a decision is posed."""
    s = S[b]
    sp = int(s['cast_card'][p])
    me = AIM_HERO + p
    speed = int(s['placed'][p, BOX_ATTACK]) + specialized(S, b, p)
    out = local_array(MAX_AIMS, np.int64)
    n = aims(S, b, p, out)
    dice = local_array(2, np.int64)
    posed = False
    while s['cast_aim'] < n:
        t = int(out[int(s['cast_aim'])])
        if landed == STRUCK_DONE:
            landed = STRUCK_NEW
            s['cast_aim'] += 1
            continue
        if landed != STRUCK_NEW:
            hit = landed == STRUCK_HIT
            landed = STRUCK_NEW
        elif not target_here(S, b, t) or spell_on_target(S, b, SP_ANTI_MAGIC, t) >= 0:
            s['cast_aim'] += 1
            continue                             # gone, or it may no longer be targeted (L1534)
        elif t == me or (t >= AIM_HERO and (int(s['cast_accepted']) >> (t - AIM_HERO)) & 1):
            hit = True                           # L1032: on himself, or accepted
        else:
            against = attack_speed_against(S, b, speed, me, t)
            m = maneuver_of(S, b, t)
            hit = roll_at(S, b, p, t, against, wand_held(S, b, p), dice)
            struck_at(S, b, t)
            if dice[0] >= 0 and dust_waits(S, b, ROLL_ATTACK, HIT_DIE_FACE.shape[0], 1 if against == m else 0,
                                           ATTACK_SPELL, int(dice[0]), int(dice[1]), p,
                                           t - AIM_HERO if t >= AIM_HERO else -1):
                return True
        posed = cast_struck(S, b, p, sp, t, hit, n) or posed
        if s['roll_kind'] == ROLL_RANGED:
            return True                          # the Fireball's dice wait on his Dust: the cast goes on after them
        s['cast_aim'] += 1
    if SPELL_KIND[sp] == SP_DISCORD and s['cast_hits'] == 2:
        discord(S, b, sp, int(out[0]), int(out[1]))
    if SPELL_KIND[sp] == SP_FIREBALL and s['atk_victims'] != 0:
        s['atk_foe'] = -1                        # the heroes it hit, struck as a hero's hit (combat.monster_attack)
        s['atk_by'] = 1 + p
        s['atk_victim'] = -1
        s['atk_stage'] = AS_HIT
    rouse(S, b, me, DIS_SLOW)
    return posed


@rules_jit
def cast_struck(S, b, p, sp, t, hit, n):
    """Target t of hero p's targeted Spell Card sp (one of n) is hit or
    missed: a hit wakes it from Disorient (L1594) and takes the spell's
    effect (``spell_hits``); Discord's hits are counted (``cast_hits``: it
    takes effect only if both its targets are hit, L1596); a hero a
    Fireball hit (Player vs. Player) takes its ranged attack after the cast
    (``atk_victims``: ``fireball_hero``). True if a decision is posed."""
    if not hit:
        return False
    s = S[b]
    rouse(S, b, t, DIS_DORMANT)
    if SPELL_KIND[sp] == SP_DISCORD:
        s['cast_hits'] += 1
        return False
    if SPELL_KIND[sp] == SP_FIREBALL and t >= AIM_HERO:
        s['atk_victims'] = int(s['atk_victims']) | (1 << (t - AIM_HERO))    # each in turn (``fireball_hero``)
        return False
    return spell_hits(S, b, p, sp, t, n)


@rules_jit
def cast_target(S, b, p):
    """The target code hero p's targeted spell strikes now (``cast_aim``)."""
    out = local_array(MAX_AIMS, np.int64)
    aims(S, b, p, out)
    return int(out[int(S[b]['cast_aim'])])


@rules_jit
def specialized(S, b, p):
    """1 where hero p is a Sorcerer casting his spell with Magic Cubes of one
    colour only (Specialized, L1226): his spell's attack speed is +1."""
    s = S[b]
    if s['hero_class'][p] != SORCERER or s['cast_card'][p] < 0:
        return 0
    colours = 0
    for k in range(NUM_COLOURS):
        if s['cast_cubes'][p, k] > 0:
            colours += 1
    return 1 if colours == 1 else 0


@rules_jit
def wound_spared(S, b, p, colour):
    """Hero p's class spares the cube of ``colour`` on his cast spell's
    wound-symbol box (L779): a Druid's green one (Natural Emanation, L1216),
    any an Illusionist put there for a targeted or self-or-other spell
    (Focus, L1220). "May choose not to wound": sparing is always his better
    choice, so it is made for him (Interpretations)."""
    s = S[b]
    if s['hero_class'][p] == DRUID and colour == GREEN:
        return True
    aim = SPELL_AIM[SPELL_KIND[int(s['cast_card'][p])]]
    return s['hero_class'][p] == ILLUSIONIST and (aim == AIM_TARGETED or aim == AIM_SELF_OR_OTHER)


@rules_jit
def put_in_play(S, b, sp, t):
    """Spell Card sp's spell lasts on target code t (L1040-L1046)."""
    s = S[b]
    s['spell_on'][sp] = t
    s['spell_mark'][sp] = 0


@rules_jit
def aid_target(S, b, p, sp, t):
    """A self-or-other spell takes effect on target t (L1032): Heal heals at
    once (two wounded cubes of a hero, who chooses them, or two wounds of a
    Monster, L1576); every other stays in play for its duration and is read
    where its rule is. True if a decision is posed (the healed cubes)."""
    s = S[b]
    k = int(SPELL_KIND[sp])
    put_in_play(S, b, sp, t)
    if k == SP_HEAL:
        s['cast_turn'][p] = s['cast_turn'][p] | CAST_HEAL
        if t >= AIM_HERO:
            s['heal_left'] = HEAL_CUBES
            return start_heal(S, b, t - AIM_HERO)
        s['foe_wounds'][t] = max(int(s['foe_wounds'][t]) - HEAL_CUBES, 0)
    return False


@rules_jit
def spell_hits(S, b, p, sp, t, n):
    """A targeted spell of hero p hit target t, one of its n targets: the
    Spell Manifest's effect. True if a decision is posed (Teleport's tile,
    Open Gate's clearing, the Fireball's Ranged Attack Dice waiting on a
    Dust of Destiny, ...)."""
    s = S[b]
    k = int(SPELL_KIND[sp])
    if k == SP_OPEN_GATE:                        # L1516
        return open_gate(S, b, p, t)
    elif k == SP_TELEPORT:                       # L1522: the caster chooses the tile
        s['teleport_target'] = t
        return pose(S, b, PH_TELEPORT_TILE, p)
    if k == SP_RULE_UNDEAD:                      # L1506: the undead Monster hit is his for the combat
        return rule_undead(S, b, p, sp, t)
    if k == SP_BREAK_SPELLS:                     # L1492
        end_spells_on(S, b, t)
        if t >= AIM_HERO:
            s['curses'][t - AIM_HERO] = 0
        else:
            s['foe_curses'][t] = 0
    elif k == SP_AFFLICTION:                     # L1498
        if t >= AIM_HERO:
            return afflict_hero(S, b, p, t - AIM_HERO)
        afflict_foe(S, b, t, p)
    elif k == SP_CURSE:                          # L1500
        if t >= AIM_HERO:
            return curse_hero(S, b, p, t - AIM_HERO)
        return curse_foe(S, b, t, p)
    elif k == SP_CALM:                           # L1548
        calm(S, b, t)
    elif k == SP_FIREBALL:                       # L1562
        return fireball_hit(S, b, p, t, n)
    elif k == SP_HESITATION:                     # L1588
        put_in_play(S, b, sp, t)
    elif k == SP_DARK_MATTER:                    # L1502: permanent, active as cast
        put_in_play(S, b, sp, t)
        s['spell_mark'][sp] = PERM_ACTIVE
        if t >= AIM_HERO:                        # L1504: a hero's unresolved attacks swap their cubes at once
            realign_cubes(S, b, t - AIM_HERO)
    elif k == SP_VAPOR_FORM:                     # L1536: permanent, active as cast: out of the fight
        put_in_play(S, b, sp, t)
        s['spell_mark'][sp] = PERM_ACTIVE
        vanish(S, b, t)
    elif k == SP_CONFUSE:                        # L1590: no more casting; a cast not yet made is canceled
        put_in_play(S, b, sp, t)
        if t >= AIM_HERO:
            confuse_hero(S, b, t - AIM_HERO)
        elif foe_spell(S, b, t) >= 0:
            s['foe_flags'][t] = s['foe_flags'][t] | FF_ATTACKED
    elif k == SP_DISORIENT:                      # L1594: its unresolved attacks this round are canceled
        put_in_play(S, b, sp, t)
        s['spell_mark'][sp] = DIS_DORMANT | DIS_SLOW
        if t >= AIM_HERO:                        # his weapon's or spell's, and his Air Sword's
            q = t - AIM_HERO
            s['hero_cflags'][q] = s['hero_cflags'][q] | np.uint8(CF_ATTACKED | CF_SWORD_DONE)
        else:
            s['foe_flags'][t] = s['foe_flags'][t] | FF_ATTACKED
    return False


@rules_jit
def curse_hero(S, b, p, q):
    """Player vs. Player: hero p's Curse spell hits hero q (L1500, L1174): a
    roll on the Curse Table as any hero's (``magic.curse_die``), waiting on
    the Dust of Destiny of its parties (ROLL_CURSE, L1330): p, its attacker,
    where the curse would not touch q (``magic.curse_matters``), then q, its
    target, where it would; then ``spell_curse``. True if a decision is
    posed."""
    k = curse_die(S, b)
    if dust_asks(S, b, ROLL_CURSE, 1, CURSE_OF_ROLL.shape[0], AIM_HERO + q, DEST_CURSE_SPELL, k, -1, p, q):
        return True
    return spell_curse(S, b, q, k)


@rules_jit
def spell_curse(S, b, q, k):
    """Curse k, rolled for hero q whom a Curse spell hit, applies: the
    Teleport curse moves him as a spell does, out of the combat under way
    (``spell_move``), its clearing waiting on his Dust of Destiny
    (ROLL_DESTINATION, DEST_CURSE_SPELL); Summon and the lasting curses as
    ever (``magic.curse_stays``: Summon's die waits on his Dust too). True
    if a decision is posed."""
    if k == CURSE_TELEPORT:
        c = teleport_destination(S, b)
        if c >= 0 and dust_roll(S, b, ROLL_DESTINATION, 1, destinations(S, b), AIM_HERO + q, DEST_CURSE_SPELL,
                                c, -1, q):
            return True
        spell_move(S, b, AIM_HERO + q, c)
        return False
    return curse_stays(S, b, q, k, True)


@rules_jit
def confuse_hero(S, b, q):
    """Player vs. Player: Confuse hit hero q (L1590): his spell not yet cast
    this round is canceled -- a Spell Card's (no wound for it, L779), or
    the Fiery Chasm or Elemental his Horn of the Dark Angel or Elemental
    Spherule was to cast (L1358, L1334); while it lasts he casts none
    (``may_cast``, ``treasures.usable``)."""
    s = S[b]
    st = int(s['cast_stage'][q])
    if s['cast_card'][q] >= 0 and (st == CAST_PLACED or st == CAST_ASKING):
        s['cast_stage'][q] = CAST_CANCELED
    if horn_attack(S, b, q):
        s['hero_cflags'][q] = s['hero_cflags'][q] | CF_ATTACKED


@rules_jit
def afflict_hero(S, b, p, q):
    """Player vs. Player: hero p's Affliction hits hero q (L1498): q suffers
    one wound at once, choosing the cube (L787); the attack is ``atk_by``'s
    until it is taken, so a death is p's kill (L1190). True if the wound
    choice is posed."""
    s = S[b]
    s['atk_by'] = 1 + p
    s['atk_victim'] = q
    s['atk_victims'] = 0
    s['atk_aim'] = 0
    s['atk_venom'] = 0
    s['atk_stage'] = AS_HIT
    s['round_wounds'] = 1
    return wound_hero(S, b, q)


# ================================================================ spells that move their target (L1516, L1522)
@rules_jit
def spell_move(S, b, t, c):
    """Target t is put in clearing c by a spell, out of the combat under way
    (unless c is its clearing): the spells on it and those it cast for the
    combat end (L1042), the Monsters targeting a hero forget him. A hero
    fights on in the new clearing's combat if it is still to come (L676);
    the tokens and cards his entering reveals or gives wait until all
    combat of the turn is over (L485, ``spell_moved``; Interpretations)."""
    s = S[b]
    if c < 0 or c == int(s['combat_clearing']):
        return
    if t < NUM_FOES:
        end_spells_on(S, b, t)
        if t < NUM_MONSTER_CHIPS:
            s['mon_clearing'][t] = c
        else:
            s['native_clearing'][t - NUM_MONSTER_CHIPS] = c
        return
    q = t - AIM_HERO
    leave_fight(S, b, q)
    s['hero_clearing'][q] = c
    s['hero_combat'][q] = HC_NONE
    s['spell_moved'] = s['spell_moved'] | np.uint8(1 << q)


@rules_jit
def leave_fight(S, b, q):
    """Hero q leaves the fight without evading (moved off by a spell, or
    vapor): the spells he cast for the combat and those on him end (L1042),
    and the Monsters targeting him forget him."""
    s = S[b]
    end_combat_spells(S, b, q, AIM_HERO + q)
    for f in range(NUM_FOES):
        if s['foe_target'][f] == q:
            s['foe_target'][f] = -1


@rules_jit
def vanish(S, b, t):
    """Target t became vapor (L1536): it takes no further part in the combat
    under way. The spells it cast for the combat and those on it end as when
    it leaves (L1042); the Monsters targeting a hero forget him and he is
    done with this battle phase's combats; a foe's wounds are discarded as
    at a combat's end (L811)."""
    s = S[b]
    if t < NUM_FOES:
        end_combat_spells(S, b, -1, t)
        s['foe_target'][t] = -1
        foe_recovers(S, b, t)
        return
    q = t - AIM_HERO
    leave_fight(S, b, q)
    if s['hero_combat'][q] != HC_NONE:
        s['hero_combat'][q] = HC_DONE


@rules_jit
def open_gate(S, b, p, t):
    """Open Gate of hero p (L1516): target t is put in a clearing with a
    revealed Gate drawn at random; with no Gate revealed, it stays. The draw
    waits on the rerolls of its parties (PH_REROLL: the Conjurer's Mastery,
    L1214; a Dust of Destiny, L1330). True if a decision is posed."""
    gates = local_array(64, np.int64)
    n = other_gates(S, b, -1, gates, 0)
    if n == 0:
        return False
    start_roll(S, b, ROLL_GATE, 1, n, t, int(gates[roll(S, b, n)]), -1)
    return spell_roll(S, b, p, t)


@rules_jit
def spell_roll(S, b, p, t):
    """The die of hero p's spell on target t (``roll_dice``) waits on its
    parties' rerolls: the caster, then the target hero (L1330: "the target,
    or the attacker"); with none to ask, the clearing applies
    (``spell_clearing``). True if a decision is posed."""
    s = S[b]
    s['roll_party'][0] = p
    if t >= AIM_HERO and t - AIM_HERO != p:
        s['roll_party'][1] = t - AIM_HERO
    q = next_party(S, b)
    if q >= 0:
        return pose(S, b, PH_REROLL, q)
    return spell_clearing(S, b)


@rules_jit
def spell_clearing(S, b):
    """The clearing Open Gate or Teleport drew (``roll_dice``, rerolls made)
    takes its target there (L1516, L1522): Teleport's only if it is still
    in the fight."""
    s = S[b]
    kind = int(s['roll_kind'])
    t = int(s['roll_target'])
    c = int(s['roll_dice'][0])
    end_roll(S, b)
    if kind == ROLL_GATE or target_here(S, b, t):
        spell_move(S, b, t, c)
    return False


@rules_jit
def next_reroll(S, b):
    """Ask the next party to the pending roll who may reroll some die of it
    (PH_REROLL); when none is left, the roll applies. True if a decision is
    posed."""
    q = next_party(S, b)
    if q >= 0:
        return pose(S, b, PH_REROLL, q)
    if roll_applies(S, b):
        return True
    return seen_resume(S, b)                     # a look that saw a Cursed Treasure goes on (L1320)


@rules_jit
def roll_applies(S, b):
    """The pending roll, rerolls made, applies, and the part of the rules
    that made it goes on: the Loot Action's dice to its pile
    (``trade.loot_result``); a Search's to its target
    (``actions.search_found``), a Learn's (``magic.learn_result``), a
    haggle's (``trade.haggle_result``); a Monster's hit on its target (the
    attack goes on: ``combat.monster_attack``; a Monster's spell:
    ``cast_on_hero``); an attack's Hit Dice, by ``roll_then`` (ATTACK_*: a
    hero's weapon, ``strike.weapon_lands``; his targeted spell goes on,
    ``cast_targets``; his Air Sword, ``sword_lands``; a Fiery Chasm goes on,
    ``chasm_strikes``); Ranged Attack Dice (on a hero: the damage at
    AS_HURT; the Fireball's, ``fireball_damage``; a weapon's,
    ``strike.weapon_damage``); a hide
    attempt (``actions.hide_result``); a Make Noise roll
    (``activation.noise_summons``); a trap's cube (``actions.trap_wounds``);
    the Curse Table (``magic.curse_applies``; a Curse spell's on a hero,
    ``spell_curse``); the Summon curse's number (``magic.summon_wanderers``);
    the Wraith's die after a loot (``trade.wraith_comes``, then the card
    taken is placed); a tentacle's Hit Dice (``tentacle_holds``, the next
    tentacles rolled, ``roll_tentacles``); an Outlaw Token's Monster Dice at
    a retirement (``fate.outlaw_result``, then the tokens left and the rest
    of it, ``fate.retired``); the random clearing of the Titan's Teleport or the
    Teleport curse; Open Gate's and Teleport's clearing (``spell_clearing``).
    True if a decision is posed."""
    s = S[b]
    kind = int(s['roll_kind'])
    p = int(s['roll_party'][0])
    if kind == ROLL_LOOT:
        return loot_result(S, b, p)
    if kind == ROLL_HAGGLE:
        return haggle_result(S, b, p)
    if kind == ROLL_GATE or kind == ROLL_TELEPORT:
        return spell_clearing(S, b)
    first = int(s['roll_dice'][0])
    second = int(s['roll_dice'][1])
    target = int(s['roll_target'])
    then = int(s['roll_then'])
    end_roll(S, b)
    if kind == ROLL_STRUCK:                      # the Monster's hit, rerolled by its target (L1330)
        hit = hit_result(first, second, target, 1)
        if then >= 0:
            return cast_on_hero(S, b, then, p, hit)
        if hit:
            rouse(S, b, AIM_HERO + p, DIS_DORMANT)   # L1594: hit, a disoriented hero may attack again
        s['atk_stage'] = AS_LANDED if hit else AS_HIT
        return False
    if kind == ROLL_ATTACK:
        hit = hit_result(first, second, target, 1)
        if then == ATTACK_SPELL:
            return cast_targets(S, b, p, STRUCK_HIT if hit else STRUCK_MISS)
        if then == ATTACK_SWORD:
            sword_lands(S, b, p, hit)
            return False
        if then == ATTACK_CHIP:                  # a chip's, a Shape Shifted hero's among them: the fight goes on after
            f = int(s['roll_chips'][0])
            return chip_lands(S, b, f, int(s['roll_chips'][1]), controller(S, b, f), hit, True,
                              int(s['roll_chips'][2]))
        if then == ATTACK_ON_HERO:               # a Shape Shifted hero's chip on a hero (Player vs. Player, L1564)
            if hit:
                rouse(S, b, AIM_HERO + int(s['atk_victim']), DIS_DORMANT)
            s['atk_stage'] = AS_LANDED if hit else AS_HIT
            return False
        if then == ATTACK_CHASM:
            chasm_lands(S, b, chasm_target(S, b), hit)
            s['chasm_pos'] += 1
            return chasm_strikes(S, b)
        return weapon_lands(S, b, p, hit)
    if kind == ROLL_RANGED:
        d = target + min(first, second)
        if then == ATTACK_CHIP:                  # a chip's ranged attack or fire: the fight goes on after
            f = int(s['roll_chips'][0])
            g = int(s['roll_chips'][1])
            chip_damage(S, b, g, controller(S, b, f), d)
            struck_at(S, b, g)
            return False
        if then == ATTACK_ON_HERO:               # a hero struck: the attack goes on in the Resolve step
            s['atk_hurt'] = min(max(d, 0), 127)      # under 1 it does nothing (L747)
            s['atk_stage'] = AS_HURT
            return False
        if then == ATTACK_SPELL:
            fireball_damage(S, b, p, cast_target(S, b, p), d)
            return cast_targets(S, b, p, STRUCK_DONE)
        return weapon_damage(S, b, p, d)
    if kind == ROLL_HIDE:
        hide_result(S, b, p, then, first + second - target <= 0)
        return False
    if kind == ROLL_NOISE:
        s['summon_dice'][0] = first
        s['summon_dice'][2] = second
        noise_summons(S, b, p)
        return False
    if kind == ROLL_TRAP:
        trap_wounds(S, b, p, first)
        return False
    if kind == ROLL_SUMMON:
        summon_wanderers(S, b, p, first)
        return False
    if kind == ROLL_OUTLAW:                      # a retirement's: the tokens left, then the rest of it
        outlaw_result(S, b, p, first, second)
        if outlaw_rolls(S, b, p, target, then):
            return True
        retired(S, b, p, then == OUTLAW_AT_END)
        if then == OUTLAW_AT_END:                # the end of the game goes on: the other heroes, the outcome
            return end_game(S, b)
        return False
    if kind == ROLL_TENTACLE:                    # the tentacle holds as its dice say; the next rolls
        s['tentacle_hit'][target // NUM_TENTACLES, target % NUM_TENTACLES] = tentacle_holds(first, second)
        return roll_tentacles(S, b, p, target // NUM_TENTACLES)
    if kind == ROLL_WRAITH:                      # after a loot: the card he took is placed then (L972)
        wraith_comes(S, b, target, first)
        return place_received(S, b)
    if kind == ROLL_CURSE:
        if then == DEST_CURSE_SPELL:             # a Curse spell's, on a hero it hit (Player vs. Player)
            return spell_curse(S, b, target - AIM_HERO, first)
        if then == DEST_CURSE_FOE:               # a Curse spell's, on a foe it hit
            return foe_curse(S, b, target, p, first)
        return curse_applies(S, b, p, first, True)
    if kind == ROLL_DESTINATION:
        if then == DEST_CURSE:
            teleport_arrives(S, b, p, first)
        else:
            spell_move(S, b, target, first)
        return False
    if kind == ROLL_LEARN:
        s['learn_dice'][0] = first
        s['learn_dice'][1] = second
        return learn_result(S, b, p, target)
    s['search_dice'][p, 0] = first               # ROLL_SEARCH
    s['search_dice'][p, 1] = second
    if first and second:                         # L511: two spyglasses
        s['search_target'][p] = -1
        return search_found(S, b, p, target)
    return False


@rules_jit
def roll_again(S, b, d):
    """Die d of the pending roll, rolled again as its kind rolls it (the
    Make Noise roll's die 0 is its gray symbol die, die 1 its black)."""
    s = S[b]
    kind = int(s['roll_kind'])
    if kind == ROLL_LOOT:
        return loot_die(S, b)
    if kind == ROLL_SEARCH:
        return search_die(S, b)
    if kind == ROLL_LEARN:
        return int(LEARN_FACE[roll(S, b, LEARN_FACE.shape[0])])
    if kind == ROLL_STRUCK or kind == ROLL_ATTACK or kind == ROLL_TENTACLE:
        return hit_die(S, b)
    if kind == ROLL_RANGED:
        return int(RANGED_DIE_FACE[roll(S, b, RANGED_DIE_FACE.shape[0])])
    if kind == ROLL_HIDE or kind == ROLL_OUTLAW:
        return monster_die(S, b)
    if kind == ROLL_NOISE:
        return roll(S, b, GRAY_SYMBOL.shape[0] if d == 0 else BLACK_SYMBOL.shape[0])
    if kind == ROLL_TRAP:
        return random_cube(S, b, int(s['roll_party'][0]))
    if kind == ROLL_CURSE:
        return curse_die(S, b)
    if kind == ROLL_SUMMON:
        return summon_die(S, b)
    if kind == ROLL_WRAITH:
        return wraith_die(S, b)
    if kind == ROLL_DESTINATION:
        return teleport_destination(S, b)
    if kind == ROLL_HAGGLE:
        return int(HAGGLE_FACE[roll(S, b, HAGGLE_FACE.shape[0])])
    if kind == ROLL_GATE:
        gates = local_array(64, np.int64)
        n = other_gates(S, b, -1, gates, 0)
        return int(gates[roll(S, b, n)])
    return draw_clearing(S, b, int(s['roll_dice'][0]) // CLEARINGS_PER_TILE, True)


@rules_jit
def mask_reroll(S, b, p, mask):
    """Legal actions of PH_REROLL: A_REROLL + src * REROLL_WAYS + k for each
    reroll hero p may make of the pending roll (``treasures.reroll_offered``);
    A_DO + DO_DONE lets it stand as it is."""
    for src in range(NUM_RR_SOURCES):
        for k in range(REROLL_WAYS):
            if reroll_offered(S, b, p, src, k):
                mask[A_REROLL + src * REROLL_WAYS + k] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_reroll(S, b, p, a):
    """PH_REROLL: reroll die k (every die, k = MAX_ROLL_DICE) with source src,
    spending it, the new face standing (L1214 "must accept the new result");
    or let the roll stand, the next party then asked. Soul Save acts again on
    an undead's Hit Dice so rerolled (L1574: it rerolls "the most favorable
    single Hit Die result rolled" of every roll of an undead attacking its
    hero). The roll applies once no party has a reroll left to make."""
    s = S[b]
    if a == A_DO + DO_DONE:
        s['roll_stage'] += 1
        return next_reroll(S, b)
    src = (a - A_REROLL) // REROLL_WAYS
    k = (a - A_REROLL) % REROLL_WAYS
    kind = int(s['roll_kind'])
    spend_reroll(S, b, p, src)
    if kind == ROLL_NOISE and k == MAX_ROLL_DICE:
        roll_summoning_dice(S, b)                # the whole roll: its numbered dice too (L617)
        s['roll_dice'][0] = s['summon_dice'][0]
        s['roll_dice'][1] = s['summon_dice'][2]
    else:
        for d in range(int(s['roll_n'])):
            if k == d or k == MAX_ROLL_DICE:
                s['roll_dice'][d] = roll_again(S, b, d)
    if kind == ROLL_STRUCK and s['roll_then'] < 0 and soul_saved(S, b, int(s['atk_foe']), p):
        dice = local_array(2, np.int64)       # L1574: Soul Save acts on the Hit Dice the undead's roll now shows
        dice[0] = s['roll_dice'][0]
        dice[1] = s['roll_dice'][1]
        save_again(S, b, dice)
        s['roll_dice'][0] = dice[0]
        s['roll_dice'][1] = dice[1]
    return next_reroll(S, b)


@rules_jit
def tile_within(S, b, p, u, reach):
    """Map Tile u is placed and at most ``reach`` tiles from hero p's (his
    own included): Teleport's two (L1522), Move Earth's one (L1546)."""
    s = S[b]
    t = int(s['hero_clearing'][p]) // CLEARINGS_PER_TILE
    if s['tile_where'][u] != TW_PLACED:
        return False
    dq = int(s['tile_q'][u]) - int(s['tile_q'][t])
    dr = int(s['tile_r'][u]) - int(s['tile_r'][t])
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= reach


@rules_jit
def mask_teleport_tile(S, b, p, mask):
    """Legal actions of PH_TELEPORT_TILE: A_TILE + u for each Map Tile within reach."""
    for u in range(NUM_TILES):
        if tile_within(S, b, p, u, TELEPORT_REACH):
            mask[A_TILE + u] = 1


@rules_jit
def act_teleport_tile(S, b, p, a):
    """PH_TELEPORT_TILE: the target goes to a clearing of that tile drawn at
    random (any clearing, caves too, L1522); the Resolve step goes on."""
    s = S[b]
    t = int(s['teleport_target'])
    s['teleport_target'] = -1
    u = a - A_TILE
    c = draw_clearing(S, b, u, True)
    if c < 0:
        return False
    n = 0
    for k in range(CLEARINGS_PER_TILE):
        if CLEARING_TYPE[u, int(s['tile_side'][u]), k] >= 0:
            n += 1
    start_roll(S, b, ROLL_TELEPORT, 1, n, t, c, -1)           # the draw waits on its rerolls (L1214, L1330)
    return spell_roll(S, b, p, t)




# ================================================================ Tentacles (L1518)
@rules_jit
def tentacle_target(S, b, p, t):
    """Target code t may be held by a tentacle of hero p's: a foe fighting as
    a Monster here; with Player vs. Player another unhidden hero of the
    fight ("any number of targets", L1518, L1174)."""
    if t < NUM_FOES:
        return foe_here(S, b, t) and foe_is_monster(S, b, t)
    q = t - AIM_HERO
    return (S[b]['optional_rules'] & OPT_PVP) != 0 and q != p and fighting(S, b, q) and not hidden(S, b, q)


@rules_jit
def any_tentacle_target(S, b, p):
    for f in range(NUM_FOES):
        if tentacle_target(S, b, p, f):
            return True
    for q in range(MAX_HEROES):
        if tentacle_target(S, b, p, AIM_HERO + q):
            return True
    return False


@rules_jit
def tentacle_slot(S, b, i):
    """The tentacle of card i (TENTACLE_CARDS index) to place next: one not
    yet placed, else one whose target is dead or gone from the fight; -1."""
    s = S[b]
    for j in range(NUM_TENTACLES):
        if s['tentacle_on'][i, j] == TENT_NONE:
            return j
    for j in range(NUM_TENTACLES):
        t = int(s['tentacle_on'][i, j])
        if t >= 0 and not target_here(S, b, t):
            return j
    return -1


@rules_jit
def start_tentacles(S, b, p, sp):
    """Tentacles cast by hero p (L1518): its four tentacles are placed one by
    one on any targets (PH_TENTACLE: foes, and with Player vs. Player heroes),
    then rolled. True if posed."""
    s = S[b]
    i = 0
    for k in range(TENTACLE_CARDS.shape[0]):
        if TENTACLE_CARDS[k] == sp:
            i = k
    for j in range(NUM_TENTACLES):
        s['tentacle_on'][i, j] = TENT_NONE
        s['tentacle_hit'][i, j] = TENT_MISS
    s['tentacle_card'] = i
    return place_tentacles(S, b, p)


@rules_jit
def move_tentacles(S, b, p):
    """Before his Hero Tactics (L1518) hero p may place elsewhere each
    tentacle of his whose target is dead or gone. True if posed."""
    s = S[b]
    for i in range(TENTACLE_CARDS.shape[0]):
        if s['spell_on'][TENTACLE_CARDS[i]] == AIM_HERO + p and tentacle_slot(S, b, i) >= 0:
            s['tentacle_card'] = i
            return place_tentacles(S, b, p)
    return False


@rules_jit
def place_tentacles(S, b, p):
    """Ask hero p where the next tentacle of card ``tentacle_card`` goes
    (PH_TENTACLE); with none left to place, or no target to hold, the rest
    lie where they are and the newly placed ones roll their Hit Dice at once
    (L1518). True if posed."""
    s = S[b]
    i = int(s['tentacle_card'])
    if tentacle_slot(S, b, i) >= 0 and any_tentacle_target(S, b, p):
        return pose(S, b, PH_TENTACLE, p)
    j = tentacle_slot(S, b, i)
    while j >= 0:
        s['tentacle_on'][i, j] = TENT_LEFT
        j = tentacle_slot(S, b, i)
    return roll_tentacles(S, b, p, i)


@rules_jit
def roll_tentacles(S, b, p, i):
    """Hero p's tentacles of card i (TENTACLE_CARDS index) newly placed roll
    their Hit Dice, one by one (L1518): two hits hold the target's maneuver
    speed, one its attack speed; the Conjurer rolls one die of a miss again
    (L1214, the only reroll that helps). Each roll then waits on the Dust of
    Destiny of its parties (ROLL_TENTACLE, L1330): the caster, the attacker,
    where a die shows no hit, then the hero it holds (Player vs. Player)
    where one does; the rolls go on after it (``roll_applies``). True if
    posed."""
    s = S[b]
    for j in range(NUM_TENTACLES):
        if s['tentacle_hit'][i, j] == TENT_UNROLLED:
            s['tentacle_new'] = s['tentacle_new'] | np.uint8(1 << i)     # a hidden caster's roll (L1518)
            first = hit_die(S, b)
            second = hit_die(S, b)
            if first != HIT_HIT and second != HIT_HIT and s['hero_class'][p] == CONJURER:
                first = hit_die(S, b)
            t = int(s['tentacle_on'][i, j])
            if dust_asks(S, b, ROLL_TENTACLE, 2, HIT_DIE_FACE.shape[0], i * NUM_TENTACLES + j, -1, first, second, p,
                         t - AIM_HERO if t >= AIM_HERO else -1):
                return True
            s['tentacle_hit'][i, j] = tentacle_holds(first, second)
    s['tentacle_card'] = -1
    return False


@rules_jit
def tentacle_holds(first, second):
    """What a tentacle whose Hit Dice show ``first`` and ``second`` holds
    (L1518): two hits the maneuver speed, one the attack speed, else nothing."""
    hits = 0
    if first == HIT_HIT:
        hits += 1
    if second == HIT_HIT:
        hits += 1
    return TENT_MANEUVER if hits == 2 else (TENT_ATTACK if hits == 1 else TENT_MISS)


@rules_jit
def mask_tentacle(S, b, p, mask):
    """Legal actions of PH_TENTACLE: A_FOE + f for each foe, A_SEAT + q for
    each hero (Player vs. Player), the tentacle may hold; A_DO + DO_PASS to
    leave one whose target is dead or gone."""
    s = S[b]
    for f in range(NUM_FOES):
        if tentacle_target(S, b, p, f):
            mask[A_FOE + f] = 1
    for q in range(MAX_HEROES):
        if tentacle_target(S, b, p, AIM_HERO + q):
            mask[A_SEAT + q] = 1
    if s['tentacle_on'][int(s['tentacle_card']), tentacle_slot(S, b, int(s['tentacle_card']))] != TENT_NONE:
        mask[A_DO + DO_PASS] = 1


@rules_jit
def act_tentacle(S, b, p, a):
    """PH_TENTACLE: the tentacle holds foe f or hero q (its roll to come), or
    is left where it lies; the next one is asked."""
    s = S[b]
    i = int(s['tentacle_card'])
    j = tentacle_slot(S, b, i)
    if a == A_DO + DO_PASS:
        s['tentacle_on'][i, j] = TENT_LEFT
    else:
        s['tentacle_on'][i, j] = AIM_HERO + (a - A_SEAT) if a >= A_SEAT and a < A_SEAT + MAX_HEROES else a - A_FOE
        s['tentacle_hit'][i, j] = TENT_UNROLLED
    return place_tentacles(S, b, p)


@rules_jit
def tentacles_placed(S, b, p):
    """Hero p placed tentacles this round (L1518: a hidden caster rolls to stay hidden)."""
    s = S[b]
    for i in range(TENTACLE_CARDS.shape[0]):
        if s['spell_on'][TENTACLE_CARDS[i]] == AIM_HERO + p and (s['tentacle_new'] >> i) & 1:
            return True
    return False


# ================================================================ Discord (L1596)
@rules_jit
def discord(S, b, sp, f, g):
    """Discord hit both its Monsters in one round (L1596): their attacks this
    round are canceled; from the next they challenge and target each other."""
    s = S[b]
    put_in_play(S, b, sp, f)
    s['spell_mark'][sp] = g
    for x in (f, g):
        s['foe_flags'][x] = s['foe_flags'][x] | FF_ATTACKED
        s['foe_target'][x] = -1


@rules_jit
def discord_caster(S, b, f):
    """The hero whose Discord sets foe f against another (L1596); -1."""
    s = S[b]
    for i in range(DISCORD_CARDS.shape[0]):
        sp = DISCORD_CARDS[i]
        if s['spell_on'][sp] >= 0 and (s['spell_on'][sp] == f or s['spell_mark'][sp] == f):
            return int(s['spell_owner'][sp])
    return -1


@rules_jit
def discord_strike(S, b, f):
    """Foe f, under Discord, attacks the Monster it is set against (L1596), by
    the attack rules of a Monster's hit (L738-L758): its attack speed
    against the other's maneuver speed; the red cube's damage plus its
    swords, one less on an armoured foe, the worse Ranged Attack Die for a
    ranged attack or fire; a kill or wound counted for the caster, who earns
    the Fame (no Outlaw Token, Interpretations)."""
    s = S[b]
    s['foe_flags'][f] = s['foe_flags'][f] | FF_ATTACKED
    g = discord_foe(S, b, f)
    p = discord_caster(S, b, f)
    if g >= 0 and p >= 0 and foe_here(S, b, g):
        monster_hits_monster(S, b, f, g, p, False, 0)
    rouse(S, b, f, DIS_SLOW)


@rules_jit
def discord_ends(S, b):
    """L1596: at the end of a Combat Round a Discord one of whose Monsters
    was killed (or is gone from the fight) expires."""
    s = S[b]
    for i in range(DISCORD_CARDS.shape[0]):
        sp = DISCORD_CARDS[i]
        f = int(s['spell_on'][sp])
        if 0 <= f < NUM_FOES and (not foe_here(S, b, f) or not foe_here(S, b, int(s['spell_mark'][sp]))):
            end_spell(S, b, sp)

# ================================================================ Move Earth (L1546)
@rules_jit
def mask_earth_tile(S, b, p, mask):
    """Legal actions of PH_EARTH_TILE: A_TILE + u for the caster's Map Tile and
    each placed tile beside it (L1546)."""
    for u in range(NUM_TILES):
        if tile_within(S, b, p, u, MOVE_EARTH_REACH):
            mask[A_TILE + u] = 1


@rules_jit
def act_earth_tile(S, b, p, a):
    """PH_EARTH_TILE: that tile is turned; its side and turn are asked next."""
    S[b]['earth_tile'] = a - A_TILE
    return pose(S, b, PH_EARTH_TURN, p)


@rules_jit
def earth_fit(S, b, u, side, rot):
    """Placed tile u would match every tile it touches if turned to ``rot``
    with ``side`` up: paths to paths, non-paths to non-paths (L1546). Its
    present way always fits, so the caster may leave it as it lies."""
    s = S[b]
    touch, need = position_edges(S, b, int(s['tile_q'][u]), int(s['tile_r'][u]))
    return (PATH_BITS[u, side, rot] & touch) == need


@rules_jit
def mask_earth_turn(S, b, p, mask):
    """Legal actions of PH_EARTH_TURN: A_TURN + side * 6 + rot for each way the
    chosen tile fits (L1546)."""
    u = int(S[b]['earth_tile'])
    for side in range(2):
        for rot in range(NUM_DIRECTIONS):
            if earth_fit(S, b, u, side, rot):
                mask[A_TURN + side * NUM_DIRECTIONS + rot] = 1


@rules_jit
def act_earth_turn(S, b, p, a):
    """PH_EARTH_TURN: the tile lies so for good (L1546). Everything on it keeps
    its clearing (both sides of a tile have the same clearings, as when a
    tile is enchanted, L577) and its enchantment is unaffected; the Resolve
    step goes on."""
    s = S[b]
    u = int(s['earth_tile'])
    k = a - A_TURN
    s['tile_side'][u] = k // NUM_DIRECTIONS
    s['tile_rot'][u] = k % NUM_DIRECTIONS
    s['earth_tile'] = -1
    return False

@rules_jit
def fireball_hit(S, b, p, f, n):
    """L1562: each foe the Fireball hits takes a ranged attack of base damage
    2 and 1 sword, 2 swords when it is the only target: one less on an
    armoured foe (L752), the worse Ranged Attack Die (L753), the caster's
    Strength and Envenom (L1530, L1558) and Weakness curse counted. The
    dice wait on the caster's Dust of Destiny (ROLL_RANGED, L1330), then
    ``fireball_damage``. True if a decision is posed."""
    s = S[b]
    base, plus, envenomed = hit_bonus(S, b, AIM_HERO + p, f)
    s['atk_venom'] = 1 if envenomed else 0
    swords = (2 if n == 1 else 1) + plus
    d = max(attack_damage(S, b, FIREBALL_DAMAGE + base, swords, foe_armored(S, b, f)) - weak(S, b, p), 0)
    dice = local_array(2, np.int64)
    low = ranged_pair(S, b, False, d, int(FOE_HEALTH[f]) - int(s['foe_wounds'][f]),
                      (s['optional_rules'] & OPT_TOUGH) != 0, dice)
    if dust_waits(S, b, ROLL_RANGED, RANGED_DIE_FACE.shape[0], d, ATTACK_SPELL, int(dice[0]), int(dice[1]), p, -1):
        return True
    fireball_damage(S, b, p, f, d + low)
    return False


@rules_jit
def fireball_damage(S, b, p, f, d):
    """The Fireball of hero p deals damage d to foe f, its Ranged Attack
    Dice counted (L1562): under 1 nothing (L747); a foe not killed takes
    Envenom's wound more if the hit was envenomed (``atk_venom``, L1530)."""
    s = S[b]
    envenomed = s['atk_venom'] != 0
    s['atk_venom'] = 0
    if d < 1:
        return
    if damage_monster(S, b, f, d, p) and envenomed and foe_here(S, b, f):
        afflict_foe(S, b, f, p)                  # not killed: one wound more (L1530)


@rules_jit
def fireball_hero(S, b, k, q):
    """Player vs. Player: hero k's Fireball hit hero q (L1562, L1174), his
    turn come among its victims (``combat.monster_attack``): a ranged attack
    of base damage 2 and 1 sword, 2 swords when he is its only target, with
    k's Strength and Envenom (L1558, L1530), resolved as a hero's hit on a
    hero (``atk_*``, k's Weakness taken from its base damage): q's armour,
    then the damage (``combat.damage_hero``: the worse Ranged Attack Die)."""
    s = S[b]
    out = local_array(MAX_AIMS, np.int64)
    n = aims(S, b, k, out)
    base, plus, envenomed = hit_bonus(S, b, AIM_HERO + k, AIM_HERO + q)
    s['atk_victim'] = q
    s['atk_dmg'] = max(FIREBALL_DAMAGE + base - weak(S, b, k), 0)
    s['atk_swords'] = (2 if n == 1 else 1) + plus
    s['atk_ranged'] = 1
    s['atk_aim'] = 0
    s['atk_venom'] = 1 if envenomed else 0


@rules_jit
def curse_foe(S, b, f, p):
    """Hero p's Curse spell hits foe f (L1500): a roll on the Curse Table,
    waiting on p's Dust of Destiny where the curse would not serve him
    (ROLL_CURSE, L1330: he is its attacker; ``magic.foe_curse_serves``);
    then ``foe_curse``. True if a decision is posed."""
    k = curse_die(S, b)
    if dust_asks(S, b, ROLL_CURSE, 1, CURSE_OF_ROLL.shape[0], f, DEST_CURSE_FOE, k, -1, p, -1):
        return True
    return foe_curse(S, b, f, p, k)


@rules_jit
def foe_curse(S, b, f, p, k):
    """Curse k, rolled for foe f hero p's Curse spell hit (L1500), applies.
    Teleport puts the chip in a random clearing (L1103), Summon brings
    Wandering Monsters to its clearing (L1105); a lasting curse stays on the
    chip (Clumsiness and Weakness change its maneuver and damage; Sloth and
    Misfortune touch nothing a Monster does; Interpretations, "Curses on
    foes"), not cumulative (L1107). True if a decision is posed."""
    s = S[b]
    if k == CURSE_TELEPORT:
        c = teleport_destination(S, b)
        if c >= 0:
            end_spells_on(S, b, f)
            if f < NUM_MONSTER_CHIPS:
                s['mon_clearing'][f] = c
            else:
                s['native_clearing'][f - NUM_MONSTER_CHIPS] = c
    elif k == CURSE_SUMMON:                      # to the caster, in the combat's clearing, his Dust asked
        return summon_curse(S, b, p, True)
    elif not CURSE_INSTANT[k]:
        s['foe_curses'][f] = s['foe_curses'][f] | np.uint8(1 << k)
    return False


@rules_jit
def calm(S, b, f):
    """Calm (L1548): a Monster goes back to its tray -- never a Guardian, a
    Native or the undead (the undead symbol keeps them out of its aim)."""
    s = S[b]
    if f >= NUM_MONSTER_CHIPS or FOE_GUARDIAN[f]:
        return
    end_spells_on(S, b, f)
    s['foe_curses'][f] = 0
    s['foe_wounds'][f] = 0
    s['mon_flipped'][f] = 0
    s['mon_clearing'][f] = MON_TRAY
    s['foe_target'][f] = -1
    s['foe_extra'][f] = 0


@rules_jit
def fiery_chasm(S, b, me, speed):
    """Fiery Chasm (L1508) cast by ``me`` (a target code: a hero, or the
    Demon, L1262) at attack speed ``speed``: it attacks every unhidden,
    non-flying Monster and hero of the clearing (a hero flies under the Fly
    spell or a Potion of Flight, L1091), the caster too (the Demon flies);
    each it hits (by the normal attack rules) is killed, a hero's possessions
    leaving the game. The chips are struck first -- the Monsters, and the
    Monsters heroes control (Rule Undead's, Elementals, a Shape Shifted
    hero's chip, L692: they are in the clearing, and count as heroes) --
    then the heroes in Turn Order (Interpretations), one by one
    (``chasm_strikes``). A hero caster takes the Monsters killed (L799), and
    a Shape Shifted hero killed so is his kill (``strike.credit_kill``), as
    a hero killed so is (Player vs. Player, L1190); the Demon's victims go
    to no one (``foe_slain``). True if a decision is posed."""
    s = S[b]
    s['chasm_by'] = me
    s['chasm_speed'] = speed
    s['chasm_pos'] = 0
    return chasm_strikes(S, b)


@rules_jit
def chasm_strikes(S, b):
    """The Fiery Chasm of ``chasm_by`` (at ``chasm_speed``) strikes its
    victims from ``chasm_pos`` on (the Monsters and controlled Monsters by
    chip, then the heroes in Turn Order): a roll of the Hit Dice waits,
    before it applies (``chasm_lands``), on the Dust of Destiny of a hero
    caster (a miss; on himself he is only its target) and of the hero struck
    (a hit) (ROLL_ATTACK, L1330). Once all are struck, the caster's
    Disorient marks its attack made (L1594). True if a decision is posed."""
    s = S[b]
    me = int(s['chasm_by'])
    p = me - AIM_HERO if me >= AIM_HERO else -1
    n = int(s['num_players'])
    while s['chasm_pos'] < NUM_FOES + n:
        t = chasm_target(S, b)
        if t < NUM_FOES:
            struck = (foe_is_monster(S, b, t) or (foe_here(S, b, t) and controller(S, b, t) >= 0)) and not FOE_FLYING[t]
        else:
            q = t - AIM_HERO                     # a flying Hero is spared, like a flying Monster (L1091)
            struck = q >= 0 and fighting(S, b, q) and not hidden(S, b, q) and not hero_flies(S, b, q)
        if not struck:
            s['chasm_pos'] += 1
            continue
        against = attack_speed_against(S, b, int(s['chasm_speed']), me, t)
        m = maneuver_of(S, b, t)
        hit = True
        first = -1
        second = -1
        if against <= m:
            first = hit_die(S, b)
            second = hit_die(S, b)
            hit = hit_result(first, second, against, m)
        struck_at(S, b, t)
        q = t - AIM_HERO if t >= AIM_HERO else -1
        if against <= m and dust_waits(S, b, ROLL_ATTACK, HIT_DIE_FACE.shape[0], 1 if against == m else 0,
                                       ATTACK_CHASM, first, second, p if p != q else -1, q):
            return True
        chasm_lands(S, b, t, hit)
        s['chasm_pos'] += 1
    rouse(S, b, me, DIS_SLOW)
    return False


@rules_jit
def chasm_target(S, b):
    """The target code the Fiery Chasm under way strikes at ``chasm_pos``:
    Monster chip i, then the hero i - NUM_FOES in Turn Order."""
    s = S[b]
    i = int(s['chasm_pos'])
    if i < NUM_FOES:
        return i
    return AIM_HERO + int(s['turn_order'][i - NUM_FOES])


@rules_jit
def chasm_lands(S, b, t, hit):
    """The Fiery Chasm of ``chasm_by`` hit target t or missed it (``hit``):
    hit, a Monster or a controlled Monster is killed -- the hero caster's
    kill (L799; a Shape Shifted hero's chip is the hero, ``credit_kill``),
    the Demon's going to no one -- and a hero dies, his possessions and Gold
    leaving the game (L1508), another hero caster's kill (Player vs. Player,
    L1190)."""
    if not hit:
        return
    s = S[b]
    me = int(s['chasm_by'])
    if t < NUM_FOES:
        s['round_wounds'] = 1
        if me >= AIM_HERO:
            monster_killed(S, b, t, me - AIM_HERO)
        else:
            foe_slain(S, b, t)
        return
    q = t - AIM_HERO
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_HERO and s['card_owner'][c] == q:
            remove_card(S, b, c)
    s['gold'][q] = 0
    killed_by_hero(S, b, q, me - AIM_HERO if me >= AIM_HERO else -1)    # Player vs. Player: another's chasm kills him (L1190)


# ================================================================ Monsters that cast (L1260-L1274)
@rules_jit
def foe_spell(S, b, f):
    """The spell kind the side of foe f's chip now up casts; -1 an attack."""
    return int(FOE_SPELL[f, foe_side(S, b, f)])


@rules_jit
def foe_may_cast(S, b, f):
    """Foe f's side casts a spell whose effect is built, and no Confuse on
    it forbids casting (L1590)."""
    return foe_spell(S, b, f) >= 0 and FOE_SPELL_BUILT[f, foe_side(S, b, f)] != 0 and \
        spell_on_target(S, b, SP_CONFUSE, f) < 0


@rules_jit
def monster_cast(S, b, f):
    """Foe f casts its side's spell in its turn of the Resolve step, at its
    side's attack speed: the Demon's Fiery Chasm, which spares the flying
    Demon (L1262); the Titan's Teleport and the Lich's Vapor Form on its
    target, hitting by the normal attack rules (Soul Save aside, L1574 reads
    "attack"), the roll waiting on the target's Dust of Destiny where it
    hits him (ROLL_STRUCK, L1330: he is its target), then ``cast_on_hero``.
    True if a decision is posed."""
    s = S[b]
    s['foe_flags'][f] = s['foe_flags'][f] | FF_ATTACKED
    k = foe_spell(S, b, f)
    q = int(s['foe_target'][f])
    speed = attack_speed_against(S, b, foe_value(S, b, f, SD_SPEED), f, AIM_HERO + q if q >= 0 else -1)
    if k == SP_FIERY_CHASM:
        return fiery_chasm(S, b, f, speed)       # its strikes may wait on a Dust: it marks the attack made at their end
    if (k == SP_TELEPORT or k == SP_VAPOR_FORM) and q >= 0 and fighting(S, b, q) and not hidden(S, b, q):
        m = hero_maneuver(S, b, q)
        dice = local_zeros(2, np.int64)
        hit = speed > m or struck_dice(S, b, q, speed, m, False, dice)
        struck_at(S, b, AIM_HERO + q)
        rouse(S, b, f, DIS_SLOW)                 # its attack is made (L1594)
        if hit and speed <= m and dust_waits(S, b, ROLL_STRUCK, HIT_DIE_FACE.shape[0], 1 if speed == m else 0, f,
                                             int(dice[0]), int(dice[1]), q, -1):
            return True
        return cast_on_hero(S, b, f, q, hit)
    rouse(S, b, f, DIS_SLOW)
    return False


@rules_jit
def cast_on_hero(S, b, f, q, hit):
    """Foe f's spell at hero q, its roll read (``hit``): the Titan's Teleport
    sends him to the clearing both Summoning symbol dice and a d6 name,
    rerolled until on the map (L1274: ``magic.teleport_destination``, the
    Teleport curse's roll), the clearing waiting on his Dust of Destiny
    (ROLL_DESTINATION, L1330); the Lich's Vapor Form lies on him, a new one
    each round it targets another (L1270). True if a decision is posed."""
    if not hit:
        return False
    s = S[b]
    rouse(S, b, AIM_HERO + q, DIS_DORMANT)
    if foe_spell(S, b, f) == SP_TELEPORT:
        c = teleport_destination(S, b)
        if c >= 0 and dust_roll(S, b, ROLL_DESTINATION, 1, destinations(S, b), AIM_HERO + q, DEST_SPELL, c, -1, q):
            return True
        spell_move(S, b, AIM_HERO + q, c)
    else:                                        # L1270: the Lich's Vapor Form, on its target
        s['lich_vapor'][q] = LICH_VAPOR_ON | LICH_VAPOR_ACTIVE
        vanish(S, b, AIM_HERO + q)
    return False


# ================================================================ the Air Sword (L1520)
@rules_jit
def air_sword(S, b, p):
    """Hero p's Air Sword fights this round: cast in an earlier round of this
    combat ("beginning next Combat Round"), still in play (it ends with the
    combat, or when he dies or leaves, L1042); its Spell Card, or -1."""
    s = S[b]
    for sp in range(NUM_SPELLS):
        if SPELL_KIND[sp] == SP_AIR_SWORD and s['spell_on'][sp] == AIM_HERO + p \
                and s['spell_mark'][sp] < s['combat_round']:
            return sp
    return -1


@rules_jit
def sword_ready(S, b, p):
    """Hero p's Air Sword has its attack to make this round: it fights, he
    targets a foe still here, or with Player vs. Player another hero still in
    the fight (L1174; the sword strikes his target), and it has not struck
    yet."""
    s = S[b]
    f = int(s['hero_target'][p])
    if not fighting(S, b, p) or air_sword(S, b, p) < 0 or (s['hero_cflags'][p] & CF_SWORD_DONE) != 0 or f < 0:
        return False
    if f > DOOR_FOE:
        return (s['optional_rules'] & OPT_PVP) != 0 and f != AIM_HERO + p and fighting(S, b, f - AIM_HERO)
    return f < NUM_FOES and foe_here(S, b, f)


@rules_jit
def sword_speed(S, b, p):
    """The Air Sword's attack speed against its target, spells counted (L1520)."""
    return attack_speed_against(S, b, AIR_SWORD_SPEED, AIM_HERO + p, int(S[b]['hero_target'][p]))


@rules_jit
def sword_attack(S, b, p):
    """L1520: the Air Sword strikes hero p's target, a melee attack of might
    2 and one sword: to hit by the normal rules (``mastery_dice``; a hero
    target's Band of Sagacity may reroll a hit, L1290), the roll waiting on
    the Dust of Destiny of its caster where it misses and of a hero it hits
    (Player vs. Player, L1174) (ROLL_ATTACK, L1330: the sword's attack is
    his); then ``sword_lands``. True if a decision is posed."""
    s = S[b]
    s['hero_cflags'][p] = s['hero_cflags'][p] | np.uint8(CF_SWORD_DONE)
    f = int(s['hero_target'][p])
    speed = sword_speed(S, b, p)
    m = maneuver_of(S, b, f)
    dice = local_zeros(2, np.int64)
    hit = speed > m or mastery_dice(S, b, p, speed, m, dice)
    if hit and f > DOOR_FOE and speed <= m and band_reroll(S, b, f - AIM_HERO):
        dice[0] = hit_die(S, b)                  # L1290: the victim's Band rerolls a roll against him
        dice[1] = hit_die(S, b)
        hit = hit_result(dice[0], dice[1], speed, m)
    struck_at(S, b, f)
    if speed <= m and dust_waits(S, b, ROLL_ATTACK, HIT_DIE_FACE.shape[0], 1 if speed == m else 0, ATTACK_SWORD,
                                 int(dice[0]), int(dice[1]), p, f - AIM_HERO if f > DOOR_FOE else -1):
        return True
    sword_lands(S, b, p, hit)
    return False


@rules_jit
def sword_lands(S, b, p, hit):
    """Hero p's Air Sword hit his target or missed (``hit``): a hit deals its
    might 2 and one sword, one less on an armoured foe; its kills are p's
    (L1520). A hero it hits (Player vs. Player, L1174) takes it as a hero's
    hit on a hero (``atk_*``, no aim: the aim box is the weapon's, L1186):
    his armour, then the damage (``combat.monster_attack``)."""
    if not hit:
        return
    s = S[b]
    f = int(s['hero_target'][p])
    if f > DOOR_FOE:
        rouse(S, b, f, DIS_DORMANT)
        s['atk_foe'] = -1
        s['atk_by'] = 1 + p
        s['atk_victim'] = f - AIM_HERO
        s['atk_victims'] = 0
        s['atk_dmg'] = AIR_SWORD_MIGHT
        s['atk_swords'] = AIR_SWORD_SWORDS
        s['atk_ranged'] = 0
        s['atk_aim'] = 0
        s['atk_venom'] = 0
        s['atk_stage'] = AS_LANDED
        return
    d = attack_damage(S, b, AIR_SWORD_MIGHT, AIR_SWORD_SWORDS, foe_armored(S, b, f))
    if d > 0:
        damage_monster(S, b, f, d, p)


@rules_jit
def mastery_roll(S, b, p, speed, maneuver):
    """The to-hit roll of a blue spell's effect for hero p (``mastery_dice``):
    True on a hit."""
    if speed > maneuver:
        return True
    out = local_array(2, np.int64)
    return mastery_dice(S, b, p, speed, maneuver, out)


@rules_jit
def mastery_dice(S, b, p, speed, maneuver, out):
    """The to-hit roll of a blue spell's effect for hero p (the Air Sword's
    attack) where the dice decide (speed <= maneuver), the two Hit Dice kept
    in ``out``: a Conjurer's missing roll rerolls its worse die and keeps
    the new face (Mastery, L1214) -- the only reroll that can help, so it is
    made for him (Interpretations). True on a hit."""
    first = hit_die(S, b)
    second = hit_die(S, b)
    hit = hit_result(first, second, speed, maneuver)
    if not hit and S[b]['hero_class'][p] == CONJURER:
        if first <= second:
            first = hit_die(S, b)
        else:
            second = hit_die(S, b)
        hit = hit_result(first, second, speed, maneuver)
    out[0] = first
    out[1] = second
    return hit


@rules_jit
def turn_undead(S, b, p):
    """Turn Undead (L1580): every undead foe of the clearing is killed; the
    caster takes them (L799)."""
    s = S[b]
    for f in range(NUM_FOES):
        if foe_here(S, b, f) and FOE_UNDEAD[f]:
            s['round_wounds'] = 1
            monster_killed(S, b, f, p)


# ================================================================ controlled Monsters: Rule Undead, Elemental (L1506, L1550, L688-L692, L710)
RULE_UNDEAD_CARDS = np.array([sp for sp in range(NUM_SPELLS) if SPELL_KIND[sp] == SP_RULE_UNDEAD], dtype=np.int64)
ELEMENTAL_CARDS = np.array([sp for sp in range(NUM_SPELLS) if SPELL_KIND[sp] == SP_ELEMENTAL], dtype=np.int64)
"""The Spell Cards of Rule Undead (in play on the Monster it rules) and of
Elemental (in play on its caster while his Elemental fights for him)."""


@rules_jit
def take_control(S, b, f, p, how):
    """Hero p controls foe f from now on (CTRL_* ``how``): it counts as a hero
    in combat (L692); the Monsters it challenged or fought are its foes no more."""
    s = S[b]
    s['foe_ctrl'][f] = p + 1
    s['ctrl_flags'][f] = how
    s['foe_vs'][f] = 0
    for i in range(s['foe_extra_vs'].shape[1]):
        s['foe_extra_vs'][f, i] = 0
    for g in range(NUM_FOES):
        if versus(S, b, g) == f:
            s['foe_vs'][g] = 0


@rules_jit
def release(S, b, f):
    """Foe f's controller loses it (L1506, L1550): the spell that gave it ends;
    a Rule Undead's Monster is a Monster again, without a target this round;
    an Elemental goes back to the pool, its wounds discarded (Interpretations,
    "Controlled Monsters"). The Monsters fighting it forget it."""
    s = S[b]
    p = controller(S, b, f)
    how = int(s['ctrl_flags'][f])
    drop_control(S, b, f)
    for i in range(RULE_UNDEAD_CARDS.shape[0]):
        sp = RULE_UNDEAD_CARDS[i]
        if s['spell_on'][sp] == f:
            end_spell(S, b, sp)
    if how & CTRL_SHAPE:                         # L1564: the hero is himself again by his chip, its wounds healed
        foe_recovers(S, b, f)
        s['mon_clearing'][f] = MON_SHAPE
    if how & CTRL_ELEMENTAL:
        for i in range(ELEMENTAL_CARDS.shape[0]):
            sp = ELEMENTAL_CARDS[i]
            if p >= 0 and s['spell_on'][sp] == AIM_HERO + p:
                end_spell(S, b, sp)
        if f < NUM_MONSTER_CHIPS and s['mon_clearing'][f] >= 0:
            foe_recovers(S, b, f)
            s['mon_clearing'][f] = MON_TRAY


@rules_jit
def ruled_by_card(S, b, f):
    """A Rule Undead card is still in play on foe f (Break Spells, L1492, or
    the Monster's death end it)."""
    s = S[b]
    for i in range(RULE_UNDEAD_CARDS.shape[0]):
        if s['spell_on'][RULE_UNDEAD_CARDS[i]] == f:
            return True
    return False


@rules_jit
def ctrl_sync(S, b):
    """Control ends where its spell says (L1506, L1550): the controller was
    killed or left the clearing (evaded, moved or turned vapor), the Monster
    was killed or is gone, or Rule Undead's card no longer lies on it."""
    s = S[b]
    for f in range(NUM_FOES):
        p = controller(S, b, f)
        if p < 0:
            continue
        if not in_fight(S, b, p) or not foe_here(S, b, f) or \
                (s['ctrl_flags'][f] & CTRL_UNDEAD and not ruled_by_card(S, b, f)) or \
                (s['ctrl_flags'][f] & CTRL_SHAPE and not shifted(S, b, p)):
            release(S, b, f)


@rules_jit
def release_all(S, b):
    """The end of combat ends every control (L1506 "the rest of combat", L1550)."""
    for f in range(NUM_FOES):
        if controller(S, b, f) >= 0:
            release(S, b, f)


@rules_jit
def rule_undead(S, b, p, sp, f):
    """Rule Undead hit undead Monster f (L1506): hero p controls it for the
    rest of combat. If its attack this round is still to resolve, p decides
    whether it is canceled or goes on (PH_CTRL_KEEP). True if posed."""
    s = S[b]
    put_in_play(S, b, sp, f)
    take_control(S, b, f, p, CTRL_UNDEAD)
    if (s['foe_flags'][f] & FF_ATTACKED) == 0 and (s['foe_target'][f] >= 0 or s['foe_extra'][f] != 0):
        s['ctrl_foe'] = f + 1
        return pose(S, b, PH_CTRL_KEEP, p)
    return False


@rules_jit
def mask_ctrl_keep(S, b, p, mask):
    """Legal actions of PH_CTRL_KEEP: A_ANSWER + ANSWER_ACCEPT (the attack goes
    on) or ANSWER_REFUSE (it is canceled)."""
    mask[A_ANSWER + ANSWER_ACCEPT] = 1
    mask[A_ANSWER + ANSWER_REFUSE] = 1


@rules_jit
def act_ctrl_keep(S, b, p, a):
    """PH_CTRL_KEEP (L1506): a canceled attack is resolved as nothing; one
    kept strikes its heroes when its turn comes, its kills its controller's."""
    s = S[b]
    f = int(s['ctrl_foe']) - 1
    s['ctrl_foe'] = 0
    if a == A_ANSWER + ANSWER_REFUSE:
        s['foe_flags'][f] = s['foe_flags'][f] | FF_ATTACKED
        s['foe_target'][f] = -1
        s['foe_extra'][f] = 0
    return False


@rules_jit
def summon_elemental(S, b, p, sp):
    """Elemental (L1550): one of the Elemental chips in the pool, drawn at
    random, is placed in the clearing; from the next Combat Round it fights
    controlled by hero p. ``sp`` is the Spell Card (in play on its caster
    while the Elemental fights for him), or -1 cast by the Elemental
    Spherule (L1334). No chip left in the pool: nothing happens
    (Interpretations)."""
    s = S[b]
    out = local_array(NUM_MONSTER_CHIPS, np.int64)
    m = 0
    for f in range(NUM_MONSTER_CHIPS):
        if FOE_ELEMENTAL[f] and s['mon_clearing'][f] == MON_TRAY:
            out[m] = f
            m += 1
    if m == 0:
        return
    f = int(out[roll(S, b, m)]) if m > 1 else int(out[0])
    s['mon_clearing'][f] = s['combat_clearing']
    s['mon_flipped'][f] = 0
    s['foe_wounds'][f] = 0
    take_control(S, b, f, p, CTRL_ELEMENTAL | CTRL_WAITING)
    if sp >= 0:
        put_in_play(S, b, sp, AIM_HERO + p)


@rules_jit
def monster_hits_monster(S, b, f, g, p, wait, nxt):
    """Foe f attacks foe g by the attack rules of a Monster's hit (L738-L758):
    its attack speed against g's maneuver speed, the Hit Dice rolled unless
    it is above (``chip_lands``). With ``wait`` (a fight among the chips,
    ``versus_strike``) the dice first wait on the Dust of Destiny of a Shape
    Shifted hero whose chip strikes (the attacker) or is struck (the target)
    (ROLL_ATTACK, ATTACK_CHIP, L1564, L1330; ``roll_chips``: f, g and
    ``nxt``, the next added chip f strikes). True if a decision is posed."""
    speed = attack_speed_against(S, b, foe_value(S, b, f, SD_SPEED), f, g)
    m = foe_maneuver(S, b, g)
    if speed > m:
        return chip_lands(S, b, f, g, p, True, wait, nxt)
    first = hit_die(S, b)
    second = hit_die(S, b)
    if wait and dust_waits(S, b, ROLL_ATTACK, HIT_DIE_FACE.shape[0], 1 if speed == m else 0, ATTACK_CHIP, first,
                           second, shape_hero(S, b, f), shape_hero(S, b, g)):
        chips_wait(S, b, f, g, nxt)
        return True
    return chip_lands(S, b, f, g, p, hit_result(first, second, speed, m), wait, nxt)


@rules_jit
def chips_wait(S, b, f, g, nxt):
    """A roll of foe f's attack on foe g waits on a Shape Shifted hero's Dust
    of Destiny: the fight among the chips resumes from ``roll_chips`` (f, g
    and ``nxt``, the next added chip f strikes)."""
    s = S[b]
    s['roll_chips'][0] = f
    s['roll_chips'][1] = g
    s['roll_chips'][2] = nxt


@rules_jit
def shape_hero(S, b, f):
    """The hero Shape Shifted into chip f (L1564: the chip fights for him,
    so its rolls are his, as attacker or target); -1."""
    q = controller(S, b, f)
    if q >= 0 and S[b]['ctrl_flags'][f] & CTRL_SHAPE and shifted(S, b, q):
        return q
    return -1


@rules_jit
def chip_lands(S, b, f, g, p, hit, wait, nxt):
    """Foe f's attack on foe g hit or missed (``monster_hits_monster``): on a
    hit the red cube's damage plus its swords, one less on an armoured foe,
    the worse Ranged Attack Die for a ranged attack or fire (``chip_damage``).
    With ``wait`` (a fight among the chips) the Ranged Attack Dice first wait
    on the Dust of Destiny of a Shape Shifted hero whose chip strikes or is
    struck (ROLL_RANGED, ATTACK_CHIP, L1564, L1330; ``roll_target`` the
    damage before them, ``roll_chips`` f, g and ``nxt``). A kill or wound is
    hero p's (Discord's caster, L1596; the controller of f, L1506, L1550:
    the Fame, no Outlaw Token); by no one where p < 0 (a Monster striking a
    controlled Monster: the chip goes back to the tray, as one a Monster
    slays, Interpretations). True if a decision is posed."""
    if hit:
        base, plus, envenomed = hit_bonus(S, b, f, g)
        d = attack_damage(S, b, foe_value(S, b, f, SD_DAMAGE) + base, foe_value(S, b, f, SD_SWORDS) + plus,
                          foe_armored(S, b, g))
        if foe_cursed(S, b, f, CURSE_WEAKNESS):
            d = max(d - 1, 0)
        kind = foe_value(S, b, f, SD_ATTACK)
        if kind == ATK_RANGED or kind == ATK_FIRE:
            dice = local_array(2, np.int64)
            ranged_pair(S, b, False, 0, 0, False, dice)
            if wait and dust_waits(S, b, ROLL_RANGED, RANGED_DIE_FACE.shape[0], d, ATTACK_CHIP, dice[0], dice[1],
                                   shape_hero(S, b, f), shape_hero(S, b, g)):
                chips_wait(S, b, f, g, nxt)
                return True
            d += min(dice[0], dice[1])
        chip_damage(S, b, g, p, d)
    struck_at(S, b, g)
    return False


@rules_jit
def chip_damage(S, b, g, p, d):
    """Damage d of a chip's hit on foe g (``chip_lands``): a kill or a wound,
    hero p's (-1 no one's)."""
    s = S[b]
    if d < 1:
        return
    if p >= 0:
        strike_monster(S, b, g, d, p, False)
    elif d >= int(FOE_HEALTH[g]) - int(s['foe_wounds'][g]):
        s['round_wounds'] = 1
        foe_slain(S, b, g)
    elif not s['optional_rules'] & OPT_TOUGH:
        s['round_wounds'] = 1
        s['foe_wounds'][g] += 1


@rules_jit
def versus_strike(S, b, f):
    """Foe f strikes the chips it fights (``foe_vs``): a controlled Monster
    its target, for its controller (L692, L710, L1506, L1550); a Monster the
    controlled Monster it challenged (L688), and the controlled Monsters its
    multi-target attack added (``foe_extra_vs``, L728: a dragon's fire,
    L1266), in chip order (``versus_extras``). The heroes it added are
    struck next, and its Disorient's slow attack spent after them
    (``combat.resolve_step``). True if a decision is posed: a roll waits on
    a Shape Shifted hero's Dust of Destiny, the fight going on after it
    (``versus_goes_on``)."""
    s = S[b]
    s['foe_flags'][f] = s['foe_flags'][f] | FF_ATTACKED
    g = versus(S, b, f)
    if g >= 0 and foe_here(S, b, g) and monster_hits_monster(S, b, f, g, controller(S, b, f), True, 0):
        return True
    return versus_extras(S, b, f, 0)


@rules_jit
def versus_extras(S, b, f, first):
    """Foe f strikes the controlled Monsters its multi-target attack added,
    from chip ``first`` on (``versus_strike``). True if a decision is posed."""
    for g in range(first, NUM_FOES):
        if extra_chip(S, b, f, g) and foe_here(S, b, g) and controller(S, b, g) >= 0:
            if monster_hits_monster(S, b, f, g, controller(S, b, f), True, g + 1):
                return True
    return False


@rules_jit
def versus_goes_on(S, b):
    """The fight among the chips whose roll waited on a Dust of Destiny
    (``roll_chips``: its foe striking), that roll applied, goes on with the
    chips still to strike (``combat.resolve_step``, which then ends it). True
    if a decision is posed (another roll waits)."""
    s = S[b]
    f = int(s['roll_chips'][0])
    nxt = int(s['roll_chips'][2])
    for i in range(3):
        s['roll_chips'][i] = -1
    return versus_extras(S, b, f, nxt)


# ================================================================ Shape Shift (L1564-L1568, L691, L1034)
@rules_jit
def shape_choice(S, b, f):
    """Chip f may be taken by a Shape Shift (L1564): a non-undead, non-unique
    Monster chip (``SHAPE_OK``) in the monster tray, the first of its kind
    there (the chips of one kind are alike: one action a kind)."""
    s = S[b]
    if f >= NUM_MONSTER_CHIPS or not SHAPE_OK[f] or s['mon_clearing'][f] != MON_TRAY:
        return False
    for g in range(f):
        if CHIP_KIND[g] == CHIP_KIND[f] and s['mon_clearing'][g] == MON_TRAY:
            return False
    return True


@rules_jit
def start_shape(S, b, p):
    """Hero p casts Shape Shift (L1564, a Self spell: it takes effect as it is
    cast, L1034): he chooses the Monster chip from the tray (PH_SHAPE). With
    none to take, the spell does nothing (Interpretations). True if posed."""
    for f in range(NUM_MONSTER_CHIPS):
        if shape_choice(S, b, f):
            return pose(S, b, PH_SHAPE, p)
    return False


@rules_jit
def mask_shape(S, b, p, mask):
    """Legal actions of PH_SHAPE: A_FOE + f for the first tray chip of each
    kind a Shape Shift may take."""
    for f in range(NUM_MONSTER_CHIPS):
        if shape_choice(S, b, f):
            mask[A_FOE + f] = 1


@rules_jit
def act_shape(S, b, p, a):
    """PH_SHAPE (L1564): the Spell Card lies on its caster, active; chip f
    replaces his hero: it stands in the clearing, fighting for him from the
    next Combat Round (his attack this round was the spell), and the
    Monsters that targeted him fight it."""
    s = S[b]
    f = a - A_FOE
    sp = int(s['cast_card'][p])
    put_in_play(S, b, sp, AIM_HERO + p)
    s['spell_mark'][sp] = PERM_ACTIVE
    s['shape'][p] = f + 1
    s['mon_clearing'][f] = MON_SHAPE
    s['mon_flipped'][f] = 0
    shape_enter(S, b, p)
    s['foe_flags'][f] = s['foe_flags'][f] | FF_ATTACKED
    return False


@rules_jit
def shape_enter(S, b, p):
    """Hero p, Shape Shifted (active) and in the combat, is his chip: it is
    placed in the clearing under his control (CTRL_SHAPE, counted as a hero,
    L691); the Monsters that challenged him fight it (``foe_vs``), and a
    multi-target attack that added him strikes it (``foe_extra_vs``)."""
    s = S[b]
    f = int(s['shape'][p]) - 1
    s['mon_clearing'][f] = s['combat_clearing']
    take_control(S, b, f, p, CTRL_SHAPE)
    for g in range(NUM_FOES):
        if s['foe_target'][g] == p and foe_is_monster(S, b, g):
            s['foe_target'][g] = -1
            s['foe_vs'][g] = f + 1
        elif s['foe_target'][g] == p:
            s['foe_target'][g] = -1
        if (int(s['foe_extra'][g]) >> p) & 1:    # an added target of its multi-target attack: the chip is (L728)
            s['foe_extra'][g] = s['foe_extra'][g] & np.uint8(0xFF ^ (1 << p))
            add_extra_chip(S, b, g, f)


@rules_jit
def shape_sync(S, b):
    """Each hero of the combat whose Shape Shift is active fights as his chip
    (cast before, active again in the Activation step, L695, or by his tile's
    purple enchantment, L1052); a chip whose spell is no longer active leaves
    the clearing for its place by his board (``release``)."""
    s = S[b]
    for p in range(MAX_HEROES):
        f = int(s['shape'][p]) - 1
        if f < 0:
            continue
        if shifted(S, b, p) and in_fight(S, b, p):
            if controller(S, b, f) != p or not foe_here(S, b, f):
                shape_enter(S, b, p)
        elif controller(S, b, f) == p:
            release(S, b, f)
