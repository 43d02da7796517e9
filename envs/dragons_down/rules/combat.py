"""Combat in each clearing with a hero (L674-L800): the eight steps of a
Combat Round, the Ambush (L680-L682), the Monsters' attacks on heroes, the
end of combat (L807-L812), and Natives drawn into a fight (L1001-L1008).
Who fights, hits, damage, wounds and death are ``strike.py``'s; the spells
heroes cast in the steps are ``spells.py``'s.

A Combat Round's progress lives in named fields: ``combat_step`` (CS_*)
and, for each step with a decision per hero, its position in the Turn Order
(``unhide_pos``, ``evade_pos``, ``target_pos``, ``tactics_pos``,
``cleanup_pos``); an attack waiting for its victim's choice keeps
``atk_foe``, ``atk_victims``, ``atk_victim``, ``atk_stage``, ``atk_armor``.

Placed Action Cubes (``placed[p, BOX_*]``) stay counted among the hero's
healthy cubes (``cubes[p, 0]``): a cube on a card is healthy (Interpretations,
"Weight"); ``placed`` says where it lies until Cleanup returns it (L780).

SECRET (for the observation): while ``combat_step == CS_TACTICS``, the row
``placed[q]``, the CF_THROWS bit of ``hero_cflags[q]`` and the spell q casts
(``cast_card``, ``cast_cubes``, ``cast_wound``) of every hero q other than
the observer are hidden; they are revealed when every hero has placed (L714,
L724), i.e. once ``combat_step`` has moved on. The Speed Cubes a hero put in
his maneuver boxes as he challenged a hero (Player vs. Player) were placed in
the open (L1182) and stay seen: ``challenge_cubes[q]``.

Not yet built: Step 2 (Activation) of permanent spells, and the chip sides
that cast a spell (the Demon's, the Lich's, the Titan's, L1262-L1274), which
do not strike yet.
"""
import numpy as np

from dragongym.envs.core.jit import local_array, local_zeros, rules_jit
from ..constants import (
    NUM_SPELLS,
    CUBE_MAGIC,
    CUBE_MIGHT, CUBE_SPEED, CW_HERO, CW_REMOVED, HST_EVADED, HST_HIDDEN, MAX_HEROES, NUM_CARDS,
    NUM_MONSTER_CHIPS, NUM_NATIVE_CHIPS, NUM_TARGETS, OPT_CLOSING, OPT_LURING, OPT_PVP, OPT_RED_MEAT,
    ST_FATE, T_BACKPACK, T_CHEST, T_HEAD, T_HEAD_CHEST, T_WEAPON1, T_WEAPON2, T_WEAPONS,
)
from .base import (
    PH_CTRL_TARGET, PH_CTRL_SIDE, CTRL_UNDEAD, CTRL_WAITING, A_SIDE, PH_ACTIVATE, PH_CHALLENGE,
    PH_CHALLENGE_CUBE, A_AIM, AIMB_HEAD, AIMB_TORSO,
    vapor, TAKES_CARDS,
    AIR_SWORD_LENGTH,
    SP_FIERY_CHASM, SP_ELEMENTAL,
    SP_LIFE_ARMOR,
    SP_IRON_SKIN,
    SPELL_LENGTH,
    SPELL_KIND,
    PH_MORE_TARGETS,
    LIFE_ARMOR_HIT,
    LIFE_ARMOR_DAMAGED,
    LIFE_ARMOR,
    DUR_TURN,
    DUR_COMBAT,
    DIS_SLOW,
    DIS_DORMANT,
    CURSE_WEAKNESS,
    CAST_DONE,
    A_SPELL,
    A_SEAT,
    A_CUBE,
    AIM_HERO,
    KIND_ONE_TIME, A_BOX, A_CROSS, A_CARD, A_CLEARING, A_DO, A_FOE, A_HEAL, A_TARGET, ATK_FIRE, ATK_RANGED, ATK_SPELL, BOX_ATTACK,
    BOX_MANEUVER, BOX_MIGHT, CARD_KIND, CHAMBER, DO_DONE, DO_DOOR, DO_PASS, DO_STAY, DOOR_FOE, PH_LURE,
    DO_THROW, DO_UNHIDE, HEAL_HEART, HIT_BLANK, HIT_DIE_FACE, KIND_ARMOR, ROLL_STRUCK,
    ROLL_ATTACK, ROLL_NONE, ROLL_RANGED, RANGED_DIE_FACE, HIDE_CLEANUP, ATTACK_ON_HERO, ATTACK_WEAPON,
    KIND_MIGHT_BOXES, KIND_SPEED_BOX, KIND_POSITION, KIND_SWORDS, KIND_WEAPON_USE, NUM_BOXES, NUM_FOES, PH_ADJUST,
    PH_ADJUST_TARGET, PH_ARMOR, PH_EVADE, PH_REARM, PH_TACTICS, PH_TARGET, PH_UNHIDE, SD_ATTACK, SD_DAMAGE,
    SD_LENGTH, SD_MANEUVER, SD_SPEED, SD_SWORDS, SD_TARGETS, WEAPON_RANGED, TARGET_OK, pose, roll,
)
from .equipment import (
    SLOT_OVERLAP, damage_armor, displaced_count, equip_card, equipped, slot_occupants, target_legal_at,
)
from .realm import clearing_links
from .fate import remove_card
from .treasures import (
    ASCENDANT_ORNAMENT, BROCHE_OF_DEFLECTION, DECIMATION, SHAMANS_KAFTAN, deflector, SHIELD_OF_MERCY, TRICKY_RING, any_usable,
    clear_card_cubes, cube_card_colours, cube_on, mask_use, put_card_cube, thief_evade, use_card,
    horn_attack, round_powers_end, ARTIFICERS_CONCOCTION, BAND_OF_SAGACITY, altered,
    crossings_allowed, MAGICAL_BOWL_OF_MIXING, mixable, dust_waits, spherule_attack,
)
from .trade import door_closed
from .actions import found_hidden_links, hide_attempt, monster_die
from .activation import hero_on_map
from .magic import clear_cast, end_combat_spells, end_spell, expire_spells, hero_has_spell, spell_on_target
from .magic import any_activatable, deactivate_permanents
from .spells import (
    move_tentacles, tentacles_placed, discord_ends, discord_strike, specialized, wound_spared,
    add_target, aim_offered, any_castable, any_more, cast_ready, cast_spell, castable, cover_any, more_offered,
    start_cast, foe_may_cast, monster_cast, fiery_chasm, air_sword, sword_attack, sword_ready, sword_speed,
    ctrl_sync, release, release_all, versus_goes_on, versus_strike, summon_elemental, shape_sync, fireball_hero,
    shape_hero,
)
from .strike import (  # noqa: F401 (the scenario tests read them as combat.X)
    FOE_UNDEAD, WOUND_CHOICES, afflict_foe, attack_speed_against, cubes_placed, dormant, foe_armored, foe_cursed,
    hero_maneuver, hit_bonus, roll_to_hit_saved, rouse, struck_at, hero_roll_to_hit,
    CF_SWORD_STRIKES, foe_recovers, discord_foe, ARCHER, AS_ARMOR, AS_DAMAGE, AS_HIT, AS_WOUND, AS_LANDED,
    AS_REROLL, AS_HURT, struck_dice, soul_saved, hit_die, hit_result, ranged_pair, weapon_lands,
    CF_ATTACKED, CF_NATIVE_FOE, CF_STRIKES, CF_THREW, ctrl_active,
    FF_CTRL_ASKED, controller, versus, in_fight, add_extra_chip, extra_chip, extra_chips, roll_at,
    maneuver_of,
    CF_THROWS, CF_USED_CARD, CS_CHALLENGE, CS_CLEANUP, CS_EVADE, CS_MONSTER_TACTICS, CS_NONE, CS_RESOLVE,
    CS_TACTICS, CS_TARGET, CUBE_LIMIT, DOOR_DAMAGE, FF_ATTACKED, FF_LURED, FF_STRIKES, HC_DONE, HC_EVADED,
    HC_FIGHTING, HC_KILLED, HC_NONE, NATIVE_TAKEN, ROGUE, WARRIOR, apply_wound, attack_damage, attack_length,
    can_throw, clumsy, cube_limit, damage_monster, fighting, flip_foe, foe_here, foe_is_monster, foe_value,
    foes_here, hero_attack_ready, hero_health, hero_killed, hero_weapon, hidden, might_capacity, might_open, monsters_here,
    speed_given, weapon_might, placed_kind, clear_placed,
    random_hero, ranged_armed, ranged_dice, roll_to_hit, speed_boxes, unplaced, warlock_heal,
    wound_choices, wound_hero,
)

# ================================================================ the phase: clearing by clearing (L676)
MAX_FIGHTERS = MAX_HEROES + NUM_FOES
"""Heroes and chips that may take part in one combat."""

@rules_jit
def combat_phase(S, b):
    """Play combat in each clearing with a hero, starting with the start
    player's and going on in Turn Order (L676); clearings without heroes are
    ignored, and a clearing with heroes but no Monster is fought all the
    same (L678). When all are done, the battle phase ends (``stage`` =
    ST_FATE). True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    if s['combat_step'] == CS_NONE and s['combats_begun'] == 0:   # a fresh battle phase
        s['combats_begun'] = 1
        expire_spells(S, b, DUR_TURN)            # L1044: last turn's turn spells expire now
        deactivate_permanents(S, b)              # L1055, L1602: and the active permanent spells turn inactive
        for p in range(MAX_HEROES):
            s['hero_combat'][p] = HC_NONE
            s['evade_to'][p] = -1
            s['cast_turn'][p] = 0
    while True:
        if s['combat_step'] == CS_NONE:
            while s['combat_pos'] < n:
                p = int(s['turn_order'][s['combat_pos']])
                if p >= 0 and hero_on_map(S, b, p) and s['hero_combat'][p] == HC_NONE \
                        and not vapor(S, b, AIM_HERO + p):          # L1536: vapor takes no part in combat
                    break
                s['combat_pos'] += 1
            if s['combat_pos'] >= n:
                s['combat_pos'] = 0
                s['combats_begun'] = 0
                for p in range(MAX_HEROES):
                    s['hero_combat'][p] = HC_NONE
                s['stage'] = ST_FATE
                return False
            start_combat(S, b, int(s['hero_clearing'][s['turn_order'][s['combat_pos']]]))
        if combat_round(S, b):
            return True


@rules_jit
def start_combat(S, b, c):
    """The heroes in clearing c enter its combat; the first round begins."""
    s = S[b]
    s['combat_clearing'] = c
    s['combat_round'] = 0
    s['quiet_rounds'] = 0
    s['natives_hostile'] = 0
    s['peace'] = 0
    for p in range(int(s['num_players'])):
        if hero_on_map(S, b, p) and s['hero_clearing'][p] == c and s['hero_combat'][p] == HC_NONE \
                and not vapor(S, b, AIM_HERO + p):
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
    s['activate_pos'] = 0
    s['combat_step'] = CS_CHALLENGE
    s['unhide_pos'] = 0
    s['lure_pos'] = 0
    s['challenge_pos'] = 0
    s['evade_pos'] = 0
    s['target_pos'] = 0
    s['tactics_pos'] = 0
    s['cleanup_pos'] = 0
    s['stay_pos'] = 0
    s['adjust_left'] = 2
    s['tentacle_new'] = 0
    for p in range(MAX_HEROES):
        s['hero_cflags'][p] = s['hero_cflags'][p] & np.uint8(CF_NATIVE_FOE)
        s['hero_target'][p] = -1
        s['hero_challenge'][p] = 0
        clear_cast(S, b, p)
        round_powers_end(S, b, p)
        clear_placed(S, b, p)
    clear_card_cubes(S, b, -1)
    for f in range(NUM_FOES):
        s['foe_target'][f] = -1
        s['foe_extra'][f] = 0
        s['foe_flags'][f] = 0
        s['foe_vs'][f] = 0
        for i in range(s['foe_extra_vs'].shape[1]):
            s['foe_extra_vs'][f, i] = 0
        s['ctrl_flags'][f] = s['ctrl_flags'][f] & np.uint8(0xFF ^ CTRL_WAITING)   # L1550: an Elemental fights from now
    ctrl_sync(S, b)
    shape_sync(S, b)                             # L1564: a Shape Shifted hero fights as his chip
    s['atk_foe'] = -1
    s['atk_by'] = 0
    s['atk_aim'] = 0
    s['atk_victims'] = 0
    s['atk_victim'] = -1
    s['atk_stage'] = AS_HIT
    s['atk_armor'] = -1


@rules_jit
def combat_round(S, b):
    """The steps of the Combat Rounds of the combat under way, in order
    (L686), until a decision is posed (True) or the clearing's combat is
    over (False). Each step is a function of its own, typed once by numba
    (envs/README.md's compile layout)."""
    s = S[b]
    while s['combat_step'] != CS_NONE:
        st = int(s['combat_step'])
        if st == CS_CHALLENGE:
            if challenge_step(S, b):
                return True
            s['combat_step'] = CS_EVADE
        elif st == CS_EVADE:
            if activation_step(S, b):            # Step 2, Activation (L695-L698), before the evasions
                return True
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
            if s['peace']:
                make_peace(S, b)                 # L1582: the round is not finished
            else:
                s['combat_step'] = CS_CLEANUP
        else:
            if cleanup_step(S, b):
                return True
    return False


# ================================================================ 2. Activation (L695-L698)
@rules_jit
def activation_step(S, b):
    """L695: in player order, each hero of the combat with an inactive
    permanent spell of his he may activate (``magic.activatable``) chooses
    which to activate, a Magic Cube of its colour wounded for each (in a
    tile enchanted with its colour it is active already, L697). True if a
    decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    while s['activate_pos'] < n:
        p = int(s['turn_order'][s['activate_pos']])
        if p >= 0 and fighting(S, b, p) and any_activatable(S, b, p):
            return pose(S, b, PH_ACTIVATE, p)
        s['activate_pos'] += 1
    shape_sync(S, b)                             # a Shape Shift activated: its hero is his chip from now (L1564)
    return False


# ================================================================ who may attack (L682)
@rules_jit
def may_attack(S, b, p):
    """p may take the Target, Hero Tactics and Resolve steps with a weapon:
    he has one equipped, and if hidden it is a ranged weapon (an Ambush, L682)."""
    return fighting(S, b, p) and hero_weapon(S, b, p) >= 0 and (not hidden(S, b, p) or ranged_armed(S, b, p))


# ================================================================ 1. Challenge (L688-L693)
@rules_jit
def challenge_step(S, b):
    """L688: in player order, hidden heroes may become unhidden (the only
    moment of the battle phase they may, L890; not asked where no Monster or
    Native is, since nothing could come of it); with the optional Luring, each
    unhidden hero in player order may then lure one Monster not yet lured
    (L1130-L1132); then each Monster not lured challenges a random unhidden
    hero of the combat (L690: several may challenge one). With Player vs.
    Player, each unhidden hero in player order may first challenge one
    unhidden hero (PH_CHALLENGE, L1182; ``pvp_challenge``).
    Natives challenge no one (L693) until they are treated as Monsters; then
    each challenges a random hero among those who targeted a Native
    (Interpretations). True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    if foes_here(S, b) > 0 or (pvp(S, b) and heroes_fighting(S, b) > 1):
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
    if pvp(S, b):
        while s['challenge_pos'] < n:
            p = int(s['turn_order'][s['challenge_pos']])
            s['challenge_pos'] += 1
            if p >= 0 and fighting(S, b, p) and not hidden(S, b, p) and any_challenge(S, b, p) \
                    and not dormant(S, b, AIM_HERO + p):         # L1594: disoriented, he chooses no target
                return pose(S, b, PH_CHALLENGE, p)
    s['challenge_pos'] = n
    for f in range(NUM_FOES):
        if foe_is_monster(S, b, f) and not s['foe_flags'][f] & FF_LURED:
            if discord_foe(S, b, f) >= 0:
                s['foe_target'][f] = -1           # L1596: it challenges the Monster it is set against
            elif f < NUM_MONSTER_CHIPS:
                challenge_pick(S, b, f)
            else:
                s['foe_target'][f] = random_hero(S, b, True, 0)
    return False


# ================================================================ Player vs. Player (optional, L1172-L1192)
@rules_jit
def pvp(S, b):
    """The optional Player vs. Player is played (L1172)."""
    return (S[b]['optional_rules'] & OPT_PVP) != 0


@rules_jit
def heroes_fighting(S, b):
    """Heroes in the combat under way."""
    n = 0
    for p in range(MAX_HEROES):
        if fighting(S, b, p):
            n += 1
    return n


@rules_jit
def hero_foe_ok(S, b, p, q):
    """Player vs. Player (L1174): hero p may challenge, target and attack
    hero q -- another hero of the combat, unhidden."""
    return pvp(S, b) and q != p and fighting(S, b, q) and not hidden(S, b, q)


@rules_jit
def any_hero_foe(S, b, p):
    for q in range(MAX_HEROES):
        if hero_foe_ok(S, b, p, q):
            return True
    return False


@rules_jit
def chip_foe_ok(S, b, p, g):
    """Player vs. Player (L692, L1174, L1182): hero p may challenge Monster g
    another hero controls, a hero of the fight (``pvp_ctrl_ok``) fighting
    this round (a chip is never hidden) -- a Shape Shifted hero he
    challenges as the hero himself (A_SEAT)."""
    return pvp(S, b) and ctrl_active(S, b, g) and controller(S, b, g) != p and shape_hero(S, b, g) < 0


@rules_jit
def any_challenge(S, b, p):
    """Hero p has someone to challenge: a hero, or a Monster another hero controls."""
    if any_hero_foe(S, b, p):
        return True
    for g in range(NUM_FOES):
        if chip_foe_ok(S, b, p, g):
            return True
    return False


@rules_jit
def mask_challenge(S, b, p, mask):
    """Legal actions of PH_CHALLENGE: A_SEAT + q for each unhidden hero of
    the combat p may challenge (L1182), A_FOE + g for each Monster another
    hero controls (``chip_foe_ok``); A_DO + DO_PASS: none."""
    for q in range(MAX_HEROES):
        if hero_foe_ok(S, b, p, q):
            mask[A_SEAT + q] = 1
    for g in range(NUM_FOES):
        if chip_foe_ok(S, b, p, g):
            mask[A_FOE + g] = 1
    mask[A_DO + DO_PASS] = 1


@rules_jit
def act_challenge(S, b, p, a):
    """PH_CHALLENGE (L1182): p challenges hero q -- or Monster g another hero
    controls (``hero_challenge`` 1 + MAX_HEROES + g) --: his Targeting Token
    lies on it for the round (the Target step does not ask him again), and
    he places Speed Cubes in his maneuver boxes (PH_CHALLENGE_CUBE)."""
    s = S[b]
    if a == A_DO + DO_PASS:
        return False
    if a >= A_FOE and a < A_FOE + NUM_FOES:
        g = a - A_FOE
        s['hero_challenge'][p] = 1 + MAX_HEROES + g
        s['hero_target'][p] = g
        foe_targeted(S, b, p, g)                 # a disoriented chip targeted may attack again (L1594)
    else:
        q = a - A_SEAT
        s['hero_challenge'][p] = 1 + q
        s['hero_target'][p] = AIM_HERO + q
        rouse(S, b, AIM_HERO + q, DIS_DORMANT)   # L1594: targeted, a disoriented hero may attack again
    if challenge_cube_ok(S, b, p):
        return pose(S, b, PH_CHALLENGE_CUBE, p)
    return False


@rules_jit
def challenge_cube_ok(S, b, p):
    """A challenger may put one more Speed Cube in his maneuver boxes (L1182):
    a healthy one not placed, a box free, within the cube limit (L716); not
    under the Cape of Alteration or Dark Matter, whose speed boxes take Might
    Cubes only (Interpretations)."""
    s = S[b]
    return unplaced(S, b, p, CUBE_SPEED) >= 1 and int(s['placed'][p, BOX_MANEUVER]) < speed_boxes(S, b, p, BOX_MANEUVER) \
        and cubes_placed(S, b, p) + 1 <= cube_limit(S, b, p) and not altered(S, b, p)


@rules_jit
def mask_challenge_cube(S, b, p, mask):
    """Legal actions of PH_CHALLENGE_CUBE: A_BOX + BOX_MANEUVER (one more
    Speed Cube); A_DO + DO_DONE."""
    if challenge_cube_ok(S, b, p):
        mask[A_BOX + BOX_MANEUVER] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_challenge_cube(S, b, p, a):
    """PH_CHALLENGE_CUBE: the cube goes in his maneuver box and stays there
    for the whole Combat Round (L1184: ``placed`` is cleared only in Cleanup);
    placed in the open, it stays public through Hero Tactics
    (``challenge_cubes``)."""
    if a == A_DO + DO_DONE:
        return False
    S[b]['placed'][p, BOX_MANEUVER] += 1
    S[b]['challenge_cubes'][p] += 1
    if challenge_cube_ok(S, b, p):
        return pose(S, b, PH_CHALLENGE_CUBE, p)
    return False


@rules_jit
def hero_challenged(S, b, p):
    """Some hero of the combat challenges hero p this round (L1182)."""
    s = S[b]
    for q in range(MAX_HEROES):
        if s['hero_challenge'][q] == 1 + p and fighting(S, b, q):
            return True
    return False


@rules_jit
def challenge_pick(S, b, f):
    """Monster f challenges a random unhidden hero of the combat -- a Monster a
    hero controls counts as a hero (L688, L692), from the round it fights
    for him (L1550): one drawn among the heroes, in Turn Order, then the
    controlled Monsters (``foe_target`` a hero, or ``foe_vs`` the Monster)."""
    s = S[b]
    s['foe_target'][f] = -1
    s['foe_vs'][f] = 0
    cand = local_array(MAX_FIGHTERS, np.int64)
    m = hero_candidates(S, b, f, 0, cand)
    if m == 0:
        return
    x = int(cand[roll(S, b, m)]) if m > 1 else int(cand[0])
    if x < MAX_HEROES:
        s['foe_target'][f] = x
    else:
        s['foe_vs'][f] = x - MAX_HEROES + 1


@rules_jit
def hero_candidates(S, b, f, taken, out):
    """The heroes Monster f may challenge, or add to the targets of its
    multi-target attack (L688, L728): the unhidden heroes of the combat in
    Turn Order (hero p as p), then the Monsters heroes control fighting this
    round, which count as heroes (L692; chip g as MAX_HEROES + g) -- none
    already its target: no hero whose bit is in ``taken``, no chip it fights
    (``foe_vs``) or already added (``foe_extra_vs``). Into ``out``; returns
    the count."""
    s = S[b]
    n = int(s['num_players'])
    m = 0
    for i in range(n):
        p = int(s['turn_order'][i])
        if p >= 0 and fighting(S, b, p) and not hidden(S, b, p) and not (taken >> p) & 1:
            out[m] = p
            m += 1
    for g in range(NUM_FOES):
        if ctrl_active(S, b, g) and versus(S, b, f) != g and not extra_chip(S, b, f, g):
            out[m] = MAX_HEROES + g
            m += 1
    return m


@rules_jit
def lurable(S, b, f):
    """Optional Luring (L1130-L1132): foe f is a Monster of the clearing (a
    Native turned hostile counts, L1005) that no hero has lured this round,
    and no Discord sets on another (L1596)."""
    return foe_is_monster(S, b, f) and not S[b]['foe_flags'][f] & FF_LURED and discord_foe(S, b, f) < 0


@rules_jit
def any_lurable(S, b):
    """Some Monster of the clearing may still be lured (L1132)."""
    for f in range(NUM_FOES):
        if lurable(S, b, f):
            return True
    return False


@rules_jit
def mask_lure(S, b, p, mask):
    """Legal actions of PH_LURE: A_FOE + f for each Monster not yet lured;
    A_DO + DO_PASS to lure none."""
    for f in range(NUM_FOES):
        if lurable(S, b, f):
            mask[A_FOE + f] = 1
    mask[A_DO + DO_PASS] = 1


@rules_jit
def act_lure(S, b, p, a):
    """PH_LURE: the lured Monster challenges the hero who lured it (L1130);
    no other hero may lure it (L1132)."""
    s = S[b]
    if a != A_DO + DO_PASS:
        f = a - A_FOE
        s['foe_target'][f] = p
        s['foe_flags'][f] = s['foe_flags'][f] | FF_LURED
    return False


@rules_jit
def mask_unhide(S, b, p, mask):
    """Legal actions of PH_UNHIDE: A_DO + DO_UNHIDE or A_DO + DO_STAY."""
    mask[A_DO + DO_UNHIDE] = 1
    mask[A_DO + DO_STAY] = 1


@rules_jit
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
    (Interpretations). With Player vs. Player the heroes challenging him
    count too, by the Speed Cubes in their maneuver boxes (L1184)."""
    s = S[b]
    best = 0
    for f in range(NUM_FOES):
        if s['foe_target'][f] == p and foe_is_monster(S, b, f):
            v = foe_value(S, b, f, SD_MANEUVER)
            if v > best:
                best = v
    for q in range(MAX_HEROES):
        if s['hero_challenge'][q] == 1 + p and fighting(S, b, q):
            v = hero_maneuver(S, b, q)
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
    tmp = local_array(32, np.int64)
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
    """The maneuver speed p can evade with: the Speed Cubes he can place in
    his maneuver speed boxes -- his healthy Speed Cubes and his boxes limit
    him, not the Tactics limit (L700) -- and the Talaria of the Gladiator's
    (L1450); or three with the Shoes of the Thief, no cube added (L1416);
    one less under the Clumsiness curse (his maneuver speed, data/curses.txt).
    Altered (the Cape of Alteration, Dark Matter) his Might Cubes fill those
    boxes instead; the Bracelets of Finesse add one Might Cube (L1308-L1314,
    L1504)."""
    might = int(S[b]['cubes'][p, 0, CUBE_MIGHT])
    if altered(S, b, p):
        avail = might
    else:
        avail = int(S[b]['cubes'][p, 0, CUBE_SPEED]) + min(crossings_allowed(S, b, p)[0], might)
    cubes = min(avail, speed_boxes(S, b, p, BOX_MANEUVER)) + speed_given(S, b, p, BOX_MANEUVER)
    return max(max(cubes, thief_evade(S, b, p)) - clumsy(S, b, p), 0)


@rules_jit
def rogue_tie(S, b, p):
    """L1224: p is a Rogue whose evade cubes tie the maneuver speed of the
    fastest Monster challenging him (a challenger there must be): he may try
    to evade with two Hit Dice (``act_evade``)."""
    s = S[b]
    if s['hero_class'][p] != ROGUE:
        return False
    challenged = hero_challenged(S, b, p)
    for f in range(NUM_FOES):
        if s['foe_target'][f] == p and foe_is_monster(S, b, f):
            challenged = True
    return challenged and evade_cubes(S, b, p) == challenger_maneuver(S, b, p)


@rules_jit
def can_evade(S, b, p):
    """L700-L703: p can place more Speed Cubes in his maneuver speed boxes
    than the highest maneuver speed of the Monsters challenging him, or, a
    Rogue, as many (L1224, ``rogue_tie``), and a path leads out of his clearing.
    A hero who challenges a hero may not evade this round (L1184)."""
    if S[b]['hero_challenge'][p] > 0:
        return False
    if evade_cubes(S, b, p) <= challenger_maneuver(S, b, p) and not rogue_tie(S, b, p):
        return False
    out = local_array(32, np.int64)
    return evade_paths(S, b, p, out) > 0


@rules_jit
def evade_step(S, b):
    """L700: in player order, each hero who can may evade. Not asked where no
    Monster is (there is then no combat to evade: Interpretations). True if
    a decision is posed. With Player vs. Player a hero challenged by a hero
    is asked where no Monster is (L1184)."""
    s = S[b]
    n = int(s['num_players'])
    monsters = monsters_here(S, b) > 0
    while s['evade_pos'] < n:
        p = int(s['turn_order'][s['evade_pos']])
        s['evade_pos'] += 1
        if p >= 0 and fighting(S, b, p) and (monsters or hero_challenged(S, b, p)) and can_evade(S, b, p):
            return pose(S, b, PH_EVADE, p)
    s['evade_pos'] = n
    return False


@rules_jit
def mask_evade(S, b, p, mask):
    """Legal actions of PH_EVADE: A_CLEARING + c to evade onto the path to c;
    A_DO + DO_STAY to fight on."""
    out = local_array(32, np.int64)
    m = evade_paths(S, b, p, out)
    for i in range(m):
        mask[A_CLEARING + out[i]] = 1
    mask[A_DO + DO_STAY] = 1


@rules_jit
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
    end_combat_spells(S, b, p, AIM_HERO + p)     # L1042: his combat spells, and those on him, end
    for f in range(NUM_FOES):
        if s['foe_target'][f] == p:
            s['foe_target'][f] = -1
    for q in range(MAX_HEROES):
        if s['hero_challenge'][q] == 1 + p:
            s['hero_target'][q] = -1             # the hero challenging him attacks no one (L704, L1184)
    return False


# ================================================================ 4. Target (L706-L712, L1003-L1006)
@rules_jit
def target_step(S, b):
    """L709: in player order each hero with a weapon he may use (a hidden
    one only a ranged weapon, L682) or a spell he may aim (L711-L712,
    ``spells.aim_offered``) chooses a Monster or a Native to target -- or,
    for a spell, a hero -- or no one. L708: the Monsters target the heroes
    they challenge (their challenge stands as ``foe_target``). L1006: then
    the Natives turned hostile target. True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    foes = foes_here(S, b) > 0
    if s['target_pos'] == 0:
        for f in range(NUM_FOES):                # L708: the Monsters target the heroes they challenge
            if foe_is_monster(S, b, f) and s['foe_target'][f] >= 0:
                rouse(S, b, AIM_HERO + int(s['foe_target'][f]), DIS_DORMANT)   # L1594: a disoriented hero targeted
    while s['target_pos'] < n:
        p = int(s['turn_order'][s['target_pos']])
        s['target_pos'] += 1
        if p < 0 or not fighting(S, b, p) or s['hero_challenge'][p] > 0:    # a challenger's token is placed (L1182)
            continue
        if dormant(S, b, AIM_HERO + p):
            continue                             # L1594: disoriented, not yet targeted or hit: no target to choose
        if (may_attack(S, b, p) and (foes or door_target(S, b, p) or any_hero_foe(S, b, p))) \
                or spell_aims_open(S, b, p) \
                or (air_sword(S, b, p) >= 0 and (foes or any_hero_foe(S, b, p))):      # L1520, L1174
            return pose(S, b, PH_TARGET, p)
    s['target_pos'] = n
    ctrl_sync(S, b)
    for f in range(NUM_FOES):                    # L692, L710: then each controlled Monster, by its controller
        if ctrl_active(S, b, f) and (s['foe_flags'][f] & FF_CTRL_ASKED) == 0:
            s['foe_flags'][f] = s['foe_flags'][f] | FF_CTRL_ASKED
            s['ctrl_foe'] = f + 1
            if any_ctrl_target(S, b, f):
                return pose(S, b, PH_CTRL_TARGET, controller(S, b, f))
            return pose(S, b, PH_CTRL_SIDE, controller(S, b, f))
    natives_turn_hostile(S, b)
    return False


@rules_jit
def ctrl_target_ok(S, b, f, g):
    """Foe g may be the target of Monster f a hero controls (L710): a Monster
    of the fight (Natives not fighting as Monsters are ignored, L693); a
    Monster another hero controls only with Player vs. Player (it counts as
    a hero, L692, and heroes fight heroes only so, L1172), but a Shape
    Shifted hero's chip, which is targeted as the hero (``ctrl_hero_ok``)."""
    if foe_is_monster(S, b, g):
        return True
    c = controller(S, b, g)
    return c >= 0 and c != controller(S, b, f) and foe_here(S, b, g) and pvp_ctrl_ok(S, b, f) \
        and shape_hero(S, b, g) < 0               # a Shape Shifted hero: targeted as the hero (A_SEAT)


@rules_jit
def pvp_ctrl_ok(S, b, f):
    """Player vs. Player (L692, L1174, L1564): Monster f, which a hero
    controls (a Rule Undead's, an Elemental, a Shape Shifted hero's own
    chip), fights as a hero of the fight: it may target the other heroes and
    the Monsters the other heroes control."""
    return pvp(S, b) and controller(S, b, f) >= 0


@rules_jit
def ctrl_hero_ok(S, b, f, q):
    """Monster f a hero controls may target hero q (``pvp_ctrl_ok``): another
    unhidden hero of the fight than its controller."""
    return pvp_ctrl_ok(S, b, f) and q != controller(S, b, f) and fighting(S, b, q) and not hidden(S, b, q)


@rules_jit
def any_ctrl_target(S, b, f):
    """Controlled Monster f has someone to target."""
    for g in range(NUM_FOES):
        if ctrl_target_ok(S, b, f, g):
            return True
    for q in range(MAX_HEROES):
        if ctrl_hero_ok(S, b, f, q):
            return True
    return False


@rules_jit
def mask_ctrl_target(S, b, p, mask):
    """Legal actions of PH_CTRL_TARGET: A_FOE + g for each Monster the
    controlled Monster (``ctrl_foe``) may target, A_SEAT + q for each hero
    (Player vs. Player); A_DO + DO_PASS to target none."""
    f = int(S[b]['ctrl_foe']) - 1
    for g in range(NUM_FOES):
        if ctrl_target_ok(S, b, f, g):
            mask[A_FOE + g] = 1
    for q in range(MAX_HEROES):
        if ctrl_hero_ok(S, b, f, q):
            mask[A_SEAT + q] = 1
    mask[A_DO + DO_PASS] = 1


@rules_jit
def act_ctrl_target(S, b, p, a):
    """PH_CTRL_TARGET: the controlled Monster (``ctrl_foe``) targets that
    Monster this round -- a fight among the chips (``foe_vs``) -- or that hero
    (Player vs. Player: ``foe_target``, struck as a Monster strikes a hero,
    its kill its controller's); a disoriented foe or hero so targeted may
    attack again (L1594). Then its controller chooses its side face up
    (PH_CTRL_SIDE, L710)."""
    s = S[b]
    f = int(s['ctrl_foe']) - 1
    if a >= A_SEAT and a < A_SEAT + MAX_HEROES:
        s['foe_target'][f] = a - A_SEAT
        rouse(S, b, AIM_HERO + (a - A_SEAT), DIS_DORMANT)
    elif a != A_DO + DO_PASS:
        g = a - A_FOE
        s['foe_vs'][f] = g + 1
        rouse(S, b, g, DIS_DORMANT)
    return pose(S, b, PH_CTRL_SIDE, p)


@rules_jit
def mask_ctrl_side(S, b, p, mask):
    """Legal actions of PH_CTRL_SIDE: A_SIDE + 0 (name side) or A_SIDE + 1 (back)."""
    mask[A_SIDE] = 1
    mask[A_SIDE + 1] = 1


@rules_jit
def act_ctrl_side(S, b, p, a):
    """PH_CTRL_SIDE: the controlled Monster's chip lies with that side up for
    the round (L710): no Monster Die flips it (it is no Monster now, L726)."""
    s = S[b]
    f = int(s['ctrl_foe']) - 1
    s['mon_flipped'][f] = a - A_SIDE
    s['ctrl_foe'] = 0
    return False


@rules_jit
def spell_aims_open(S, b, p):
    """Hero p could aim a spell at someone in the fight: a foe or a hero."""
    for f in range(NUM_FOES):
        if foe_here(S, b, f) and aim_offered(S, b, p, f):
            return True
    for q in range(MAX_HEROES):
        if fighting(S, b, q) and aim_offered(S, b, p, AIM_HERO + q):
            return True
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


@rules_jit
def mask_target(S, b, p, mask):
    """Legal actions of PH_TARGET: A_FOE + f for each Monster and Native in
    the clearing his weapon or a spell may strike; A_SEAT + q for a hero a
    spell of his may aid (L712), or with Player vs. Player an unhidden hero
    his weapon may attack (L1174); A_DO + DO_DOOR for the Chamber's closed
    Massive Door (L1240); A_DO + DO_PASS to target no one (Interpretations)."""
    armed = may_attack(S, b, p)
    sword = air_sword(S, b, p) >= 0                              # L1520: the sword strikes his target
    for f in range(NUM_FOES):
        if foe_here(S, b, f) and (armed or sword or aim_offered(S, b, p, f)) and ctrl_may_target(S, b, p, f):
            mask[A_FOE + f] = 1
    for q in range(MAX_HEROES):
        if (fighting(S, b, q) and aim_offered(S, b, p, AIM_HERO + q)) or ((armed or sword) and hero_foe_ok(S, b, p, q)):
            mask[A_SEAT + q] = 1                                 # a hero his weapon or Air Sword may strike (L1174)
    if armed and door_target(S, b, p):
        mask[A_DO + DO_DOOR] = 1
    mask[A_DO + DO_PASS] = 1


@rules_jit
def act_target(S, b, p, a):
    """PH_TARGET: the hero's Targeting Token goes on that foe, on a hero, or
    on the Massive Door; a spell for several targets may take more foes
    (PH_MORE_TARGETS)."""
    s = S[b]
    if a == A_DO + DO_PASS:
        return False
    if a == A_DO + DO_DOOR:
        s['hero_target'][p] = DOOR_FOE
        return False
    if a >= A_SEAT and a < A_SEAT + MAX_HEROES:
        s['hero_target'][p] = AIM_HERO + (a - A_SEAT)
        if a - A_SEAT != p:
            rouse(S, b, AIM_HERO + (a - A_SEAT), DIS_DORMANT)   # L1594: targeted, he may attack again
        if any_more(S, b, p):
            return pose(S, b, PH_MORE_TARGETS, p)
        return False
    f = a - A_FOE
    s['hero_target'][p] = f
    foe_targeted(S, b, p, f)
    if any_more(S, b, p):
        return pose(S, b, PH_MORE_TARGETS, p)
    return False


@rules_jit
def ctrl_may_target(S, b, p, f):
    """Hero p may target foe f as far as control goes: his own controlled
    Monster he may (L1506, L1550); one another hero controls counts as a
    hero (L692), so only with Player vs. Player (L1172-L1174: heroes attack
    other unhidden heroes; a chip is never hidden) -- and a Shape Shifted
    hero's chip is targeted as the hero himself (A_SEAT)."""
    c = controller(S, b, f)
    if c < 0 or c == p:
        return True
    return pvp(S, b) and shape_hero(S, b, f) < 0


@rules_jit
def foe_targeted(S, b, p, f):
    """Hero p targets foe f: targeting a Native makes every Native of the
    clearing a Monster for this combat (L1005); a disoriented foe may attack
    again once targeted (L1594); the Monster his Rule Undead rules is his no
    more once he targets it (L1506)."""
    s = S[b]
    if controller(S, b, f) == p and s['ctrl_flags'][f] & CTRL_UNDEAD:
        release(S, b, f)
    if f >= NUM_MONSTER_CHIPS:
        s['hero_cflags'][p] = s['hero_cflags'][p] | CF_NATIVE_FOE
        s['natives_hostile'] = 1
    rouse(S, b, f, DIS_DORMANT)


@rules_jit
def mask_more_targets(S, b, p, mask):
    """Legal actions of PH_MORE_TARGETS: A_FOE + f for each foe, A_SEAT + q
    for each hero (Player vs. Player, L1174), one more target of a spell he
    could cast (``spells.more_offered``); A_DO + DO_DONE."""
    for f in range(NUM_FOES):
        if foe_here(S, b, f) and more_offered(S, b, p, f) and ctrl_may_target(S, b, p, f):
            mask[A_FOE + f] = 1
    for q in range(MAX_HEROES):
        if more_offered(S, b, p, AIM_HERO + q):
            mask[A_SEAT + q] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_more_targets(S, b, p, a):
    """PH_MORE_TARGETS: that foe or hero is one more target, and another may
    follow."""
    if a == A_DO + DO_DONE:
        return False
    if a >= A_SEAT and a < A_SEAT + MAX_HEROES:
        add_target(S, b, p, AIM_HERO + (a - A_SEAT))
        rouse(S, b, AIM_HERO + (a - A_SEAT), DIS_DORMANT)       # L1594: targeted, he may attack again
    else:
        add_target(S, b, p, a - A_FOE)
        foe_targeted(S, b, p, a - A_FOE)
    if any_more(S, b, p):
        return pose(S, b, PH_MORE_TARGETS, p)
    return False


@rules_jit
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
@rules_jit
def threatened(S, b, p):
    """Some foe's attack may strike p this round: he is unhidden and a
    Monster of the clearing has a target (a multi-target attack adds random
    heroes, L728); with Player vs. Player, a hero or a Monster a hero
    controls targets him."""
    s = S[b]
    if hidden(S, b, p):
        return False
    for f in range(NUM_FOES):
        if s['foe_target'][f] >= 0 and foe_is_monster(S, b, f):
            return True
    if pvp(S, b):
        for q in range(MAX_HEROES):
            if q != p and s['hero_target'][q] == AIM_HERO + p and fighting(S, b, q):
                return True                      # a hero targets him (L1174)
        for f in range(NUM_FOES):
            if s['foe_target'][f] == p and ctrl_active(S, b, f):
                return True                      # so does a Monster a hero controls (L692)
    return False


@rules_jit
def placement_secret(S, b, me, q):
    """Hero q's placements (``placed[q]`` and the CF_THROWS bit of
    ``hero_cflags[q]``) are hidden from seat ``me`` now: during Hero
    Tactics, before every hero has placed (L714, L724). For the observation."""
    return S[b]['combat_step'] == CS_TACTICS and q != me


@rules_jit
def box_legal(S, b, p, box, cross):
    """One more cube may go in ``box`` (L714-L722): of the box's own colour
    (``cross`` 0: a Might Cube in a red might box of the equipped weapon, a
    Speed Cube in an attack or maneuver speed box) or of the other kind
    (``cross`` 1: a Speed Cube in a might box, a Might Cube in a speed box).
    The other kind goes where a treasure or spell says: the Warblade's
    required box takes a Speed Cube (L1482); one Might Cube in a speed box
    with the Bracelets of Finesse, one Speed Cube in a might box with the
    Bracers of Vigor (L1308, L1310); every cube crosses under the Cape of
    Alteration or Dark Matter (``treasures.altered``, L1314, L1504). None on
    backpack cards (L721); within the cube limit, the cubes beyond the fifth
    Speed Cubes (L716, the Magic Cubes on a Spell Card counted); might boxes
    only for a weapon attack on one foe or the door, not with a spell cast
    (one card that attacks a round, L720); attack boxes only for a hero with
    a weapon target or a spell cast; maneuver boxes only for one a foe may
    strike; and the weapon's mandatory boxes must still be fillable once a
    cube is on it (L722)."""
    s = S[b]
    total = cubes_placed(S, b, p)
    if total + 1 > cube_limit(S, b, p):
        return False
    alt = altered(S, b, p)
    if alt and not cross:
        return False
    kind = CUBE_SPEED if (box == BOX_MIGHT) == (cross != 0) else CUBE_MIGHT
    if unplaced(S, b, p, kind) < 1:
        return False
    if kind == CUBE_MIGHT and total - placed_kind(S, b, p, CUBE_SPEED) + 1 > CUBE_LIMIT:
        return False
    in_speed, in_might = crossings_allowed(S, b, p)
    c = hero_weapon(S, b, p)
    might = int(s['placed'][p, BOX_MIGHT])
    crossed = int(s['placed_cross'][p, BOX_MIGHT])
    sb = 0 if c < 0 else int(KIND_SPEED_BOX[CARD_KIND[c]])
    if box == BOX_MIGHT:
        if not weapon_aimed(S, b, p) or c < 0:
            return False
        room = might_open(S, b, p, c)[1]
        if might >= room:
            return False
        if cross:
            if not alt and crossed >= sb + in_might:
                return False
            crossed += 1
        elif might + 1 + max(sb - crossed, 0) > room:
            return False                         # the Warblade's box waits for its Speed Cube
        might += 1
    else:
        if s['placed'][p, box] >= speed_boxes(S, b, p, box):
            return False
        if cross and not alt and \
                int(s['placed_cross'][p, BOX_ATTACK]) + int(s['placed_cross'][p, BOX_MANEUVER]) >= in_speed:
            return False
        if box == BOX_ATTACK and not weapon_aimed(S, b, p) and s['cast_card'][p] < 0 and not horn_attack(S, b, p):
            return False
        if box == BOX_MANEUVER and not threatened(S, b, p):
            return False
    if c < 0 or might == 0:
        return True
    return might_fillable(S, b, p, c, might, crossed, kind, alt, in_might)


@rules_jit
def might_fillable(S, b, p, c, might, crossed, kind, alt, in_might):
    """Once a cube of ``kind`` is placed, leaving ``might`` cubes in the
    might boxes of p's weapon c, ``crossed`` of them Speed Cubes, its
    mandatory boxes can still all be filled (L722): the Warblade's with
    Speed Cubes, the rest with the cubes his treasures let go there, within
    the cube limit (L716)."""
    total = cubes_placed(S, b, p) + 1
    spare_m = unplaced(S, b, p, CUBE_MIGHT) - (1 if kind == CUBE_MIGHT else 0)
    spare_s = unplaced(S, b, p, CUBE_SPEED) - (1 if kind == CUBE_SPEED else 0)
    speed_in = placed_kind(S, b, p, CUBE_SPEED) + (1 if kind == CUBE_SPEED else 0)
    sb = int(KIND_SPEED_BOX[CARD_KIND[c]])
    need = might_open(S, b, p, c)[0] - might
    need_s = max(sb - crossed, 0)
    if need <= 0 and need_s <= 0:
        return True
    if need_s > spare_s:
        return False
    rest = max(need - need_s, 0)
    left_s = spare_s - need_s
    more_s = left_s if alt else min(left_s, max(sb + in_might - crossed - need_s, 0))
    more_m = 0 if alt else min(spare_m, max(CUBE_LIMIT - (total - speed_in), 0))
    return more_m + more_s >= rest and total + need_s + rest <= cube_limit(S, b, p)


@rules_jit
def card_cube_legal(S, b, p, c):
    """p may put a Magic Cube on his treasure c in Hero Tactics, beside the
    round's other cards (L1288, L1324, L1338, L1410, L1414, L1476): it takes
    a cube he has free (``treasures.cube_card_colours``), within the cube
    limit (a Magic Cube is no Speed Cube, L716), where it serves: the Tricky
    Ring with an attack, the Elven Slippers, the Kaftan and the Shield of
    Mercy when a foe may strike him, the Ascendant Ornament with a might box
    of his weapon open, Decimation when it is the weapon attacking."""
    s = S[b]
    if cube_card_colours(S, b, p, c) == 0:
        return False
    total = cubes_placed(S, b, p)
    if total + 1 > cube_limit(S, b, p) or \
            total - int(s['placed'][p, BOX_ATTACK]) - int(s['placed'][p, BOX_MANEUVER]) + 1 > CUBE_LIMIT:
        return False
    k = CARD_KIND[c]
    if k == TRICKY_RING:
        return weapon_aimed(S, b, p) or s['cast_card'][p] >= 0
    if k == ASCENDANT_ORNAMENT:
        w = hero_weapon(S, b, p)
        return weapon_aimed(S, b, p) and w >= 0 and int(s['placed'][p, BOX_MIGHT]) < might_open(S, b, p, w)[1]
    if k == DECIMATION:
        return weapon_aimed(S, b, p) and hero_weapon(S, b, p) == c
    if k == BAND_OF_SAGACITY:                    # L1290: a roll by him or against him
        return weapon_aimed(S, b, p) or s['cast_card'][p] >= 0 or threatened(S, b, p)
    if k == MAGICAL_BOWL_OF_MIXING:              # L1368: a cube of a colour it shows to convert
        return mixable(S, b, p, c)
    return threatened(S, b, p)


@rules_jit
def weapon_aimed(S, b, p):
    """Hero p's targets suit a weapon attack: one foe or the Massive Door (or
    with Player vs. Player another hero, L1174), no spell cast, and his weapon may be used from where he is (L682)."""
    s = S[b]
    t = int(s['hero_target'][p])
    return t >= 0 and (t <= DOOR_FOE or (pvp(S, b) and t != AIM_HERO + p)) and s['more_targets'][p, 0] < 0 \
        and s['cast_card'][p] < 0 and may_attack(S, b, p) and not horn_attack(S, b, p)


@rules_jit
def aim_legal(S, b, p):
    """Player vs. Player (L1186-L1188): p, whose weapon targets a hero, may
    put one Speed Cube in one aim box of his Lineage Card -- head or torso,
    not both -- counted in the cube limit (L716); Monsters are never aimed at."""
    s = S[b]
    return pvp(S, b) and s['hero_target'][p] > DOOR_FOE and weapon_aimed(S, b, p) and s['hero_aim'][p] == 0 \
        and unplaced(S, b, p, CUBE_SPEED) >= 1 and cubes_placed(S, b, p) + 1 <= cube_limit(S, b, p) \
        and not altered(S, b, p)


@rules_jit
def throw_legal(S, b, p):
    """p may choose to throw his weapon this round (L928): he has a target
    and a weapon he can throw, and is unhidden (a hidden hero's attack with
    it is always a throw, L682)."""
    s = S[b]
    c = hero_weapon(S, b, p)
    return weapon_aimed(S, b, p) and c >= 0 and can_throw(S, b, p, c) and not hidden(S, b, p) \
        and (s['hero_cflags'][p] & CF_THROWS) == 0


@rules_jit
def tactics_open(S, b, p):
    """p has a placement to make: a cube he may place, a throw to choose, a
    spell to cast, or a one-time card to use (L916)."""
    if throw_legal(S, b, p) or any_castable(S, b, p) or any_usable(S, b, p) or aim_legal(S, b, p):
        return True
    for i in range(TAKES_CARDS.shape[0]):
        if card_cube_legal(S, b, p, int(TAKES_CARDS[i])):
            return True
    for x in range(NUM_BOXES):
        if box_legal(S, b, p, x, 0) or box_legal(S, b, p, x, 1):
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
            if move_tentacles(S, b, p):          # L1518: tentacles on the dead, before his Tactics
                return True
            if s['cast_any'][p] > 0 and cover_any(S, b, p):
                return True                      # the colour of a multi-colour box (PH_SPELL_CUBE)
            if tactics_open(S, b, p):
                return pose(S, b, PH_TACTICS, p)
            finish_tactics(S, b, p)
        else:
            s['tactics_pos'] += 1
    return False


@rules_jit
def finish_tactics(S, b, p):
    """p has placed: a hidden hero's attack with a weapon he can throw is a
    throw (L682); cubes on his Weapon Card or a spell cast mean he used a
    card (L773, L775)."""
    s = S[b]
    if s['cast_card'][p] >= 0 or horn_attack(S, b, p):
        s['hero_cflags'][p] = s['hero_cflags'][p] | CF_USED_CARD
    if s['placed'][p, BOX_MIGHT] > 0:
        s['hero_cflags'][p] = s['hero_cflags'][p] | CF_USED_CARD
        c = hero_weapon(S, b, p)
        if hidden(S, b, p) and c >= 0 and can_throw(S, b, p, c):
            s['hero_cflags'][p] = s['hero_cflags'][p] | CF_THROWS
    s['tactics_pos'] += 1


@rules_jit
def mask_tactics(S, b, p, mask):
    """Legal actions of PH_TACTICS: A_BOX + box for each box one more cube
    of its colour may go in, A_CROSS + box one of the other kind; A_AIM +
    AIMB_* a Speed Cube in that aim box (Player vs. Player, L1186); A_DO + DO_THROW to make the attack a throw; A_SPELL + sp to
    cast Spell Card sp (``spells.castable``); A_CARD + c to use one-time
    card c (L916, ``treasures.usable``); A_DO + DO_DONE once no mandatory
    box is left half filled (L722)."""
    s = S[b]
    mask_use(S, b, p, mask)
    for i in range(TAKES_CARDS.shape[0]):
        if card_cube_legal(S, b, p, int(TAKES_CARDS[i])):
            mask[A_CARD + TAKES_CARDS[i]] = 1
    for sp in range(NUM_SPELLS):
        if castable(S, b, p, sp):
            mask[A_SPELL + sp] = 1
    for x in range(NUM_BOXES):
        if box_legal(S, b, p, x, 0):
            mask[A_BOX + x] = 1
        if box_legal(S, b, p, x, 1):
            mask[A_CROSS + x] = 1
    if throw_legal(S, b, p):
        mask[A_DO + DO_THROW] = 1
    if aim_legal(S, b, p):
        mask[A_AIM + AIMB_HEAD] = 1
        mask[A_AIM + AIMB_TORSO] = 1
    c = hero_weapon(S, b, p)
    w = int(s['placed'][p, BOX_MIGHT])
    if c < 0 or w == 0 or (w >= might_open(S, b, p, c)[0]
                           and s['placed_cross'][p, BOX_MIGHT] >= KIND_SPEED_BOX[CARD_KIND[c]]):
        mask[A_DO + DO_DONE] = 1


@rules_jit
def act_tactics(S, b, p, a):
    """PH_TACTICS: place the cube, choose the throw, cast the spell (its
    boxes covered, ``spells.start_cast``), use the one-time card, or end the
    placing."""
    s = S[b]
    if a >= A_CARD and a < A_CARD + NUM_CARDS:
        c = a - A_CARD
        if KIND_ONE_TIME[CARD_KIND[c]]:
            return use_card(S, b, p, c)
        return put_card_cube(S, b, p, c, cube_card_colours(S, b, p, c))
    if a == A_DO + DO_DONE:
        finish_tactics(S, b, p)
    elif a >= A_SPELL and a < A_SPELL + NUM_SPELLS:
        start_cast(S, b, p, a - A_SPELL)
    elif a == A_DO + DO_THROW:
        s['hero_cflags'][p] = s['hero_cflags'][p] | CF_THROWS
    elif a >= A_AIM:
        s['hero_aim'][p] = 1 + a - A_AIM
    elif a >= A_CROSS:
        s['placed'][p, a - A_CROSS] += 1
        s['placed_cross'][p, a - A_CROSS] += 1
    else:
        s['placed'][p, a - A_BOX] += 1
    return False


# ================================================================ 6. Monster Tactics (L726-L728)
@rules_jit
def monster_tactics(S, b):
    """L726: one Monster Die for each Monster of the clearing (Natives once
    they fight as Monsters); a Monster symbol flips its chip, whose other
    side now applies (and stays up in later rounds until flipped again).
    L728: a Monster whose side now strikes several targets (a dragon's fire,
    L1266) adds random heroes to the one it challenged -- the Monsters heroes
    control among them, which count as heroes (L692; ``hero_candidates``)."""
    s = S[b]
    for f in range(NUM_FOES):
        if foe_is_monster(S, b, f) and monster_die(S, b):
            flip_foe(S, b, f)
    cand = local_array(MAX_FIGHTERS, np.int64)
    for f in range(NUM_FOES):
        if foe_is_monster(S, b, f) and (s['foe_target'][f] >= 0 or versus(S, b, f) >= 0):
            extra = foe_value(S, b, f, SD_TARGETS) - 1
            taken = 1 << int(s['foe_target'][f]) if s['foe_target'][f] >= 0 else 0
            for _ in range(extra):
                m = hero_candidates(S, b, f, taken, cand)
                if m == 0:
                    break
                x = int(cand[roll(S, b, m)]) if m > 1 else int(cand[0])
                if x < MAX_HEROES:
                    taken |= 1 << x
                    s['foe_extra'][f] = s['foe_extra'][f] | np.uint8(1 << x)
                    rouse(S, b, AIM_HERO + x, DIS_DORMANT)      # L1594: targeted
                else:
                    add_extra_chip(S, b, f, x - MAX_HEROES)     # a controlled Monster counts as a hero (L692)


# ================================================================ 7. Resolve (L730-L769)
@rules_jit
def hero_can_strike(S, b, p):
    """Hero p still has his attack or his spell to make this round."""
    if S[b]['hero_cflags'][p] & CF_ATTACKED:
        return False
    if S[b]['cast_card'][p] >= 0:
        return cast_ready(S, b, p)
    if horn_attack(S, b, p):
        return fighting(S, b, p)                 # L1358: the Horn's attack strikes the whole clearing
    return hero_attack_ready(S, b, p)


@rules_jit
def hero_speed(S, b, p):
    """Hero p's attack speed now: his Speed Cubes in his attack boxes (a
    spell's too, L718, L732), the Gloves of Aggression's (L1348), a gray
    cube on the Tricky Ring (L1476) and a Sorcerer's one-colour spell's +1
    (L1226), changed by spells (``strike.attack_speed_against``)."""
    s = S[b]
    speed = int(s['placed'][p, BOX_ATTACK]) + speed_given(S, b, p, BOX_ATTACK) + cube_on(S, b, p, TRICKY_RING) \
        + specialized(S, b, p)
    return attack_speed_against(S, b, speed, AIM_HERO + p, int(s['hero_target'][p]))


@rules_jit
def hero_length(S, b, p):
    """The attack length of hero p's attack: his spell's (L734) or his weapon's."""
    sp = int(S[b]['cast_card'][p])
    if sp >= 0:
        return int(SPELL_LENGTH[SPELL_KIND[sp]])
    if spherule_attack(S, b, p):
        return int(SPELL_LENGTH[SP_ELEMENTAL])   # L1334: it casts Elemental
    if horn_attack(S, b, p):
        return int(SPELL_LENGTH[SP_FIERY_CHASM])
    return attack_length(S, b, p)


@rules_jit
def foe_speed(S, b, f):
    """Foe f's attack speed now: its side's, changed by spells."""
    t = int(S[b]['foe_target'][f])
    g = versus(S, b, f)
    return attack_speed_against(S, b, foe_value(S, b, f, SD_SPEED), f, AIM_HERO + t if t >= 0 else g)


@rules_jit
def foe_can_strike(S, b, f):
    """Foe f still has its attack to make this round: it fights as a Monster
    and targets a hero still in the fight, and no Disorient keeps it still
    (L1594). A side that casts a spell casts it (``spells.monster_cast``)
    where its spell is built and no Confuse stops it (L1590)."""
    s = S[b]
    if s['foe_flags'][f] & FF_ATTACKED or dormant(S, b, f):
        return False
    if controller(S, b, f) >= 0:                 # L692: it fights for its controller
        if not (foe_here(S, b, f) and in_fight(S, b, controller(S, b, f))):
            return False
    elif not foe_is_monster(S, b, f):
        return False
    g = discord_foe(S, b, f)
    if g >= 0:                                   # L1596: it strikes the Monster it is set against
        return foe_here(S, b, g) and foe_value(S, b, f, SD_ATTACK) != ATK_SPELL
    g = versus(S, b, f)                          # L688, L710: a fight between chips
    if g >= 0 or extra_chips(S, b, f):           # L728: or chips its multi-target attack added, and heroes
        return foe_value(S, b, f, SD_ATTACK) != ATK_SPELL and ((g >= 0 and foe_here(S, b, g))
                                                              or extra_chips(S, b, f)
                                                              or (controller(S, b, f) < 0 and foe_victims(S, b, f) != 0))
    if foe_value(S, b, f, SD_ATTACK) == ATK_SPELL and not foe_may_cast(S, b, f):
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


@rules_jit
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
            sp = hero_speed(S, b, p)
            ln = hero_length(S, b, p)
            if not found or strikes_before(sp, ln, best_speed, best_length, closing):
                best_speed, best_length, found = sp, ln, True
    for i in range(n):
        p = int(s['turn_order'][i])
        if p >= 0 and sword_ready(S, b, p):
            sp = sword_speed(S, b, p)
            if not found or strikes_before(sp, AIR_SWORD_LENGTH, best_speed, best_length, closing):
                best_speed, best_length, found = sp, AIR_SWORD_LENGTH, True
    for f in range(NUM_FOES):
        if foe_can_strike(S, b, f):
            sp = foe_speed(S, b, f)
            ln = foe_value(S, b, f, SD_LENGTH)
            if not found or strikes_before(sp, ln, best_speed, best_length, closing):
                best_speed, best_length, found = sp, ln, True
    if not found:
        return False
    for i in range(n):
        p = int(s['turn_order'][i])
        if p >= 0 and sword_ready(S, b, p) and sword_speed(S, b, p) == best_speed \
                and AIR_SWORD_LENGTH == best_length:
            s['hero_cflags'][p] = s['hero_cflags'][p] | np.uint8(CF_SWORD_STRIKES)
    for i in range(n):
        p = int(s['turn_order'][i])
        if p >= 0 and hero_can_strike(S, b, p) and hero_speed(S, b, p) == best_speed \
                and hero_length(S, b, p) == best_length:
            s['hero_cflags'][p] = s['hero_cflags'][p] | CF_STRIKES
    for f in range(NUM_FOES):
        if foe_can_strike(S, b, f) and foe_speed(S, b, f) == best_speed \
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
        if s['atk_foe'] >= 0 or s['atk_by'] > 0:
            if monster_attack(S, b):
                return True
            continue
        f = int(s['roll_chips'][0])
        if f >= 0 and s['roll_kind'] == ROLL_NONE:   # a fight among the chips whose roll waited on a Dust goes on
            if versus_goes_on(S, b):
                return True
            versus_done(S, b, f)
            continue
        ctrl_sync(S, b)                          # L1506, L1550: a controller killed loses his Monster
        p = -1
        for i in range(n):
            q = int(s['turn_order'][i])
            if q >= 0 and (s['hero_cflags'][q] & (CF_STRIKES | CF_ATTACKED)) == CF_STRIKES:
                p = q
                break
        if p < 0:
            for i in range(n):
                q = int(s['turn_order'][i])
                if q >= 0 and s['hero_cflags'][q] & CF_SWORD_STRIKES and sword_ready(S, b, q):
                    p = q
                    break
            if p >= 0:
                if sword_attack(S, b, p):        # L1520: the Air Sword strikes beside its caster
                    return True
                continue
        if p >= 0:
            if s['cast_card'][p] >= 0:
                if cast_spell(S, b, p):
                    return True
                if s['peace']:
                    return False                 # Peace: the combat ends now (L1582)
            elif spherule_attack(S, b, p):        # L1334: the Spherule's attack casts Elemental, no cube needed
                s['hero_cflags'][p] = s['hero_cflags'][p] | CF_ATTACKED
                summon_elemental(S, b, p, -1)
                rouse(S, b, AIM_HERO + p, DIS_SLOW)
            elif horn_attack(S, b, p):            # L1358: the Horn's attack casts Fiery Chasm, no cube needed
                s['hero_cflags'][p] = s['hero_cflags'][p] | CF_ATTACKED
                if fiery_chasm(S, b, AIM_HERO + p, int(s['placed'][p, BOX_ATTACK])):
                    return True
            elif hero_attack(S, b, p):
                return True
            continue
        f = -1
        for g in range(NUM_FOES):
            if (s['foe_flags'][g] & (FF_STRIKES | FF_ATTACKED)) == FF_STRIKES:
                f = g
                break
        if f >= 0:
            if discord_foe(S, b, f) >= 0:
                discord_strike(S, b, f)              # L1596
            elif versus(S, b, f) >= 0 or extra_chips(S, b, f):
                if versus_strike(S, b, f):           # L692, L710, L728: its fight among the chips
                    return True                      # a roll waits on a Shape Shifted hero's Dust (L1330)
                versus_done(S, b, f)
            elif foe_value(S, b, f, SD_ATTACK) == ATK_SPELL:
                if monster_cast(S, b, f):            # L1260-L1274
                    return True
            else:
                start_monster_attack(S, b, f)
            continue
        for q in range(MAX_HEROES):
            s['hero_cflags'][q] = s['hero_cflags'][q] & np.uint8(0xFF ^ (CF_STRIKES | CF_SWORD_STRIKES))
        for g in range(NUM_FOES):
            s['foe_flags'][g] = s['foe_flags'][g] & np.uint8(0xFF ^ FF_STRIKES)
        if not attack_order(S, b):
            return False


@rules_jit
def versus_done(S, b, f):
    """Foe f's fight among the chips is over (``spells.versus_strike``): a
    Monster then strikes the heroes its multi-target attack added, else its
    attack is made (L1594: its Disorient's slow attack spent)."""
    if controller(S, b, f) < 0 and foe_victims(S, b, f) != 0:
        start_monster_attack(S, b, f)
    else:
        rouse(S, b, f, DIS_SLOW)


@rules_jit
def throw_weapon(S, b, p, c):
    """L930: the thrown weapon lies beside the Hero Board: out of p's
    possessions until the end of combat (L812)."""
    s = S[b]
    s['card_where'][c] = CW_REMOVED
    s['card_owner'][c] = p
    s['card_slot'][c] = -1
    s['card_thrown'][c] = 1
    s['hero_cflags'][p] = s['hero_cflags'][p] | CF_THREW


@rules_jit
def hero_attack(S, b, p):
    """Hero p's weapon attack on his target (L738-L758): to hit, his attack
    speed against its maneuver speed -- a foe's; a hero's (Player vs. Player,
    L1174: the Time Stone's tie, L1456, his Band of Sagacity for a miss, the
    victim's for a hit, L1290); the Massive Door's, 0 (L1240: no Time Stone,
    no Band). A thrown weapon is thrown whether it hits or not (L930). The
    weapon's pieces are kept (``atk_dmg``, ``atk_swords``, ``atk_ranged``)
    while the Hit Dice wait on the Dust of Destiny of the attacker (a miss)
    and of a hero struck (a hit) (ROLL_ATTACK, L1330); then ``weapon_lands``.
    True if a decision is posed."""
    s = S[b]
    s['hero_cflags'][p] = s['hero_cflags'][p] | CF_ATTACKED
    if not hero_attack_ready(S, b, p):
        return False
    f = int(s['hero_target'][p])
    c = hero_weapon(S, b, p)
    k = int(CARD_KIND[c])
    thrown = (s['hero_cflags'][p] & CF_THROWS) != 0
    ranged = thrown or KIND_WEAPON_USE[k] == WEAPON_RANGED
    cubes = weapon_might(S, b, p, c)                              # L1282, L1292, L1346, L1366, L1394
    if f != DOOR_FOE and k == DECIMATION and s['card_cube'][c] > 0:
        cubes += 1                                                # L1324: its black cube raises the base damage
    if thrown:
        throw_weapon(S, b, p, c)
    if k == ARTIFICERS_CONCOCTION:
        remove_card(S, b, c)                                      # L1286: one-time, gone with its attack
    speed = hero_speed(S, b, p)
    rouse(S, b, AIM_HERO + p, DIS_SLOW)
    q = f - AIM_HERO if f > DOOR_FOE else -1
    if q >= 0 and not fighting(S, b, q):
        return False
    s['atk_dmg'] = min(cubes, 127)
    s['atk_swords'] = int(KIND_SWORDS[k])
    s['atk_ranged'] = 1 if ranged else 0
    dice = local_array(2, np.int64)
    if f == DOOR_FOE:                                             # a door has no maneuver (Interpretations): no Time Stone, no Band
        m = 0
        hit = speed > m
        if not hit:
            dice[0] = hit_die(S, b)
            dice[1] = hit_die(S, b)
            hit = hit_result(dice[0], dice[1], speed, m)
    else:
        m = maneuver_of(S, b, f)
        hit = roll_at(S, b, p, f, speed, False, dice)       # a hero's: the Time Stone's tie, the Bands (L1456, L1290)
        struck_at(S, b, f)
    if speed <= m and dice[0] >= 0 and dust_waits(S, b, ROLL_ATTACK, HIT_DIE_FACE.shape[0], 1 if speed == m else 0,
                                                  ATTACK_WEAPON, int(dice[0]), int(dice[1]), p, q):
        return True
    return weapon_lands(S, b, p, hit)


@rules_jit
def hit_taken(S, b, p):
    """Hero p is hit (L751): Life Armor takes it first (L1578); else he
    chooses the armour to take it on, if he has a choice (PH_ARMOR); then
    the damage (``atk_stage``). True if the choice is posed."""
    s = S[b]
    s['atk_armor'] = -1
    if hero_has_spell(S, b, p, SP_LIFE_ARMOR):
        s['atk_armor'] = LIFE_ARMOR_HIT                   # it must be hit first (L1578)
        s['atk_stage'] = AS_DAMAGE
        return False
    if armor_choices(S, b, p) > 0 or deflector(S, b, p) >= 0:
        s['atk_stage'] = AS_ARMOR
        return pose(S, b, PH_ARMOR, p)
    s['atk_stage'] = AS_DAMAGE
    return False


@rules_jit
def aim_allows(S, b, c):
    """Armour card c may take the hit now being resolved: any, unless it is a
    hero's aimed attack (Player vs. Player, L1188), which ignores armour
    outside the aimed position -- the head, or the torso (the chest) --
    while a shield (armour in a weapon position) always blocks."""
    s = S[b]
    a = int(s['atk_aim'])
    if s['atk_by'] == 0 or a == 0:
        return True
    slot = int(s['card_slot'][c])
    if slot == T_WEAPON1 or slot == T_WEAPON2 or slot == T_WEAPONS or slot == T_HEAD_CHEST:
        return True
    if a == AIMB_HEAD + 1:
        return slot == T_HEAD
    return slot == T_CHEST


@rules_jit
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


@rules_jit
def armor_choices(S, b, p):
    """Armour p may take a hit on (L751): each equipped armour card -- the
    one in the head position, the one in the torso (chest) position, a
    shield in a weapon position. Returns how many."""
    n = 0
    for c in range(NUM_CARDS):
        if armor_worn(S, b, p, c) and aim_allows(S, b, c):
            n += 1
    return n


@rules_jit
def armor_worn(S, b, p, c):
    """Card c is armour p may take a hit on: equipped armour; the Shaman's
    Kaftan only while a Magic Cube is on it -- otherwise it is ignored and
    cannot be damaged (L1410)."""
    if not equipped(S, b, p, c) or KIND_ARMOR[CARD_KIND[c]] == 0:
        return False
    return CARD_KIND[c] != SHAMANS_KAFTAN or S[b]['card_cube'][c] > 0


@rules_jit
def monster_attack(S, b):
    """The attack of ``atk_foe``, victim by victim (L738-L767): to hit, its
    attack speed against the victim's maneuver speed; on a hit the victim
    chooses head or torso and the armour, if any, he takes it on, before any
    Ranged Attack Die (L751), then the damage. A hero's attack on a hero
    (Player vs. Player, ``atk_by``) comes here hit, at its damage; a hero's
    Fireball (no ``atk_foe``) with the heroes it hit as ``atk_victims``, each
    struck in Turn Order (``spells.fireball_hero``). True if a decision is
    posed."""
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
                s['atk_by'] = 0
                s['atk_aim'] = 0
                if f >= 0:
                    rouse(S, b, f, DIS_SLOW)                      # its attack is made (L1594)
                return False
            s['atk_victims'] = int(s['atk_victims']) & (0xFF ^ (1 << p))
            if not fighting(S, b, p):
                continue
            if f < 0:                            # a hero's Fireball: its victims were hit as it was cast (L1562)
                fireball_hero(S, b, int(s['atk_by']) - 1, p)
                s['atk_stage'] = AS_LANDED
                continue
            s['atk_victim'] = p
            speed = attack_speed_against(S, b, foe_value(S, b, f, SD_SPEED), f, AIM_HERO + p)
            maneuver = hero_maneuver(S, b, p)
            dice = local_zeros(2, np.int64)
            hit = speed > maneuver or struck_dice(S, b, p, speed, maneuver, soul_saved(S, b, f, p), dice)
            struck_at(S, b, AIM_HERO + p)
            sh = shape_hero(S, b, f)
            if sh >= 0 and speed <= maneuver and dust_waits(S, b, ROLL_ATTACK, HIT_DIE_FACE.shape[0],
                                                            1 if speed == maneuver else 0, ATTACK_ON_HERO,
                                                            int(dice[0]), int(dice[1]), sh, p):
                s['atk_stage'] = AS_REROLL                        # L1564, L1330: a Shape Shifted hero's chip strikes a
                return True                                       # hero (Player vs. Player): his Dust on a miss, his victim's on a hit
            if not hit:
                continue
            if sh < 0 and speed <= maneuver and dust_waits(S, b, ROLL_STRUCK, HIT_DIE_FACE.shape[0],
                                                           1 if speed == maneuver else 0, -1, int(dice[0]),
                                                           int(dice[1]), p, -1):
                s['atk_stage'] = AS_REROLL                        # L1330: the target's Dust, before the hit applies
                return True                                       # (``spells.roll_applies`` wakes him if it stands)
            rouse(S, b, AIM_HERO + p, DIS_DORMANT)          # L1594: hit, a disoriented hero may attack again
            s['atk_stage'] = AS_LANDED
        elif st == AS_LANDED:
            if hit_taken(S, b, int(s['atk_victim'])):
                return True
        elif st == AS_DAMAGE:
            s['atk_stage'] = AS_HIT
            if damage_hero(S, b, f, int(s['atk_victim'])):
                return True
        elif st == AS_HURT:
            s['atk_stage'] = AS_HIT
            if hero_hurt(S, b, int(s['atk_victim']), int(s['atk_hurt'])):
                return True
        else:
            return False                                          # waiting for the victim's choice (armour, reroll)


@rules_jit
def mask_armor(S, b, p, mask):
    """Legal actions of PH_ARMOR: A_CARD + c for each armour card the hero
    may take the hit on; A_DO + DO_PASS: on none (a hit location without
    armour, Interpretations)."""
    for c in range(NUM_CARDS):
        if armor_worn(S, b, p, c) and aim_allows(S, b, c):
            mask[A_CARD + c] = 1
    c = deflector(S, b, p)
    if c >= 0:
        mask[A_CARD + c] = 1                               # L1312: the Broche cancels the hit
    mask[A_DO + DO_PASS] = 1


@rules_jit
def act_armor(S, b, p, a):
    """PH_ARMOR: the armour is chosen; the damage follows. The Broche of
    Deflection, used, leaves the game and the hit is cancelled (L1312)."""
    s = S[b]
    if a != A_DO + DO_PASS and CARD_KIND[a - A_CARD] == BROCHE_OF_DEFLECTION:
        remove_card(S, b, a - A_CARD)
        s['atk_stage'] = AS_HIT
        return False
    s['atk_armor'] = -1 if a == A_DO + DO_PASS else a - A_CARD
    s['atk_stage'] = AS_DAMAGE
    return False


@rules_jit
def damage_hero(S, b, f, p):
    """Foe f's hit on hero p (L750-L767): the red cube's damage plus its
    swords, one less on armour, the worse Ranged Attack Die for a ranged
    attack or dragon fire (Interpretations); under 1 it does nothing (L747).
    On armour: the armour is damaged or destroyed (``damage_armor``) and the
    hero takes one wound. Without armour: damage at least his healthy Hearts
    kills him, less gives one wound -- a Heart under the optional Red Meat
    (L1170). Spells count: the foe's Strength and Envenom (one wound more,
    L1530, L1558) and Weakness curse; Iron Skin makes an unarmoured hero
    armoured against swords (L1556); Life Armor takes the hit as armour of
    strength 2 (L1578). A hero's hit (Player vs. Player: his weapon's, his
    Fireball's, his Air Sword's) brings its pieces, kept at the hit
    (``atk_dmg``, ``atk_swords``, ``atk_ranged``, ``atk_venom``). The Ranged
    Attack Dice wait on the Dust of Destiny of the attacking hero and of the
    hero struck (ROLL_RANGED, L1330): the damage then applies at AS_HURT.
    True if a decision is posed."""
    s = S[b]
    armor = int(s['atk_armor'])
    armored = armor >= 0 or armor == LIFE_ARMOR_HIT or hero_has_spell(S, b, p, SP_IRON_SKIN)
    k = int(s['atk_by']) - 1
    ranged = False
    if k >= 0:                                   # a hero's hit (Player vs. Player): its pieces kept at the hit
        envenomed = s['atk_venom'] != 0
        d = max(attack_damage(S, b, int(s['atk_dmg']), int(s['atk_swords']), armored), 0)
        ranged = s['atk_ranged'] != 0
    else:
        base, plus, envenomed = hit_bonus(S, b, f, AIM_HERO + p)
        d = attack_damage(S, b, foe_value(S, b, f, SD_DAMAGE) + base, foe_value(S, b, f, SD_SWORDS) + plus, armored)
        if foe_cursed(S, b, f, CURSE_WEAKNESS):
            d = max(d - 1, 0)
        kind = foe_value(S, b, f, SD_ATTACK)
        ranged = kind == ATK_RANGED or kind == ATK_FIRE
    s['atk_venom'] = 1 if envenomed else 0
    if ranged:
        dice = local_array(2, np.int64)
        if k >= 0:                               # an Archer rerolls for his weapon, not for a spell (L1208)
            low = ranged_pair(S, b, s['hero_class'][k] == ARCHER and s['cast_card'][k] < 0, d,
                              hero_health(S, b, p), False, dice)
        else:
            low = ranged_pair(S, b, False, 0, 0, False, dice)
        asker = k if k >= 0 else shape_hero(S, b, f)    # the attacking hero: his weapon's, or his Shape Shifted chip's
        if dust_waits(S, b, ROLL_RANGED, RANGED_DIE_FACE.shape[0], d, ATTACK_ON_HERO, int(dice[0]), int(dice[1]), asker, p):
            s['atk_stage'] = AS_REROLL
            return True
        d += low
    return hero_hurt(S, b, p, d)


@rules_jit
def hero_hurt(S, b, p, d):
    """The hit on hero p deals damage d, its Ranged Attack Dice counted
    (``damage_hero``; Envenom's wound owed in ``atk_venom``): on armour
    (``atk_armor``) the armour is damaged or destroyed and he takes one
    wound; without, d at least his healthy Hearts kills him, less gives one
    wound; under 1 it does nothing (L747). True if the wound choice is
    posed."""
    s = S[b]
    armor = int(s['atk_armor'])
    if d < 1:
        s['atk_venom'] = 0
        return False
    if armor >= 0:
        mercy = CARD_KIND[armor] == SHIELD_OF_MERCY and s['card_cube'][armor] > 0
        damage_armor(S, b, armor, d)
        if mercy:                                          # L1414: no wound, even if the shield is destroyed,
            s['card_cube'][armor] = 0                      # so no wound of the round either (L781)
            return False
        s['round_wounds'] = 1
        return wound_hero_venom(S, b, p)
    s['round_wounds'] = 1
    if armor == LIFE_ARMOR_HIT:
        wear_life_armor(S, b, p, d)
        return wound_hero_venom(S, b, p)
    if d >= hero_health(S, b, p):
        hero_killed(S, b, p)
        return False
    if s['optional_rules'] & OPT_RED_MEAT:
        apply_wound(S, b, p, A_HEAL + HEAL_HEART)        # he has a healthy Heart: d < his health
        return venom_wound(S, b, p)
    return wound_hero_venom(S, b, p)


@rules_jit
def wear_life_armor(S, b, p, d):
    """L1578, L761-L763: damage above the Life Armor's 2 destroys it, equal
    to 2 damages it (a second time destroys it); it never stops the wound."""
    s = S[b]
    sp = spell_on_target(S, b, SP_LIFE_ARMOR, AIM_HERO + p)
    if sp < 0:
        return
    if d > LIFE_ARMOR or (d == LIFE_ARMOR and s['spell_mark'][sp] == LIFE_ARMOR_DAMAGED):
        end_spell(S, b, sp)
    elif d == LIFE_ARMOR:
        s['spell_mark'][sp] = LIFE_ARMOR_DAMAGED


@rules_jit
def wound_hero_venom(S, b, p):
    """One wound, then Envenom's wound more if owed. True if a choice is posed."""
    if wound_hero(S, b, p):
        return True
    return venom_wound(S, b, p)


@rules_jit
def venom_wound(S, b, p):
    """Envenom's extra wound on a hero not killed by the hit (L1530)."""
    s = S[b]
    if s['atk_venom'] == 0:
        return False
    s['atk_venom'] = 0
    if not fighting(S, b, p):
        return False
    return wound_hero(S, b, p)


# ================================================================ the wound choice (L787)
@rules_jit
def mask_wound(S, b, p, mask):
    """Legal actions of PH_WOUND: ``wound_choices``."""
    out = local_array(WOUND_CHOICES, np.int64)
    m = wound_choices(S, b, p, out)
    for i in range(m):
        mask[out[i]] = 1


@rules_jit
def act_wound(S, b, p, a):
    """PH_WOUND: that cube is wounded (Envenom's wound more follows); the
    attack goes on to its next victim."""
    apply_wound(S, b, p, a)
    S[b]['atk_stage'] = AS_HIT
    return venom_wound(S, b, p)


# ================================================================ 8. Cleanup (L771-L781)
@rules_jit
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


@rules_jit
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


@rules_jit
def cleanup_choices(S, b, p):
    """Cards p may move in his Rearm or Adjust Equipment now."""
    s = S[b]
    occ = local_array(T_BACKPACK, np.int64)
    slot_occupants(S, b, p, occ)
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
    return end_of_round(S, b)


@rules_jit
def stay_hidden(S, b):
    """L775-L777: in Turn Order, a hidden hero who used a card this round
    (ambushed with his ranged weapon) rolls to stay hidden, without the Sneak
    allowance or the Halfling reroll; failing, he is unhidden for the rest of
    combat; so does a hidden caster (L1020), one whose Air Sword fights
    (L1520) or who placed a tentacle (L1518). A failed roll waits on his Dust
    of Destiny (``actions.hide_attempt``; ``stay_pos`` the next hero). True if
    a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    while s['stay_pos'] < n:
        p = int(s['turn_order'][s['stay_pos']])
        s['stay_pos'] += 1
        if p >= 0 and fighting(S, b, p) and hidden(S, b, p) and \
                (s['hero_cflags'][p] & CF_USED_CARD or air_sword(S, b, p) >= 0     # L1520: the sword betrays him
                 or tentacles_placed(S, b, p)):                                    # L1518: so does a tentacle placed
            if hide_attempt(S, b, p, False, HIDE_CLEANUP):
                return True
    return False


@rules_jit
def mask_adjust(S, b, p, mask):
    """Legal actions of PH_ADJUST and PH_REARM: A_CARD + c for each card that
    may be moved; A_DO + DO_DONE."""
    s = S[b]
    occ = local_array(T_BACKPACK, np.int64)
    slot_occupants(S, b, p, occ)
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_HERO and s['card_owner'][c] == p and cleanup_card_targets(S, b, p, c, occ) != 0:
            mask[A_CARD + c] = 1
    mask[A_DO + DO_DONE] = 1


@rules_jit
def act_adjust(S, b, p, a):
    """PH_ADJUST / PH_REARM: the card to move (placed at once when it can go
    to one place only), or the end of the hero's equipping."""
    s = S[b]
    if a == A_DO + DO_DONE:
        s['adjust_left'] = 0
        return False
    c = a - A_CARD
    occ = local_array(T_BACKPACK, np.int64)
    slot_occupants(S, b, p, occ)
    k = cleanup_card_targets(S, b, p, c, occ)
    if k < 0:
        place_card(S, b, p, c, -1 - k)
        return False
    s['sel_card'] = c
    return pose(S, b, PH_ADJUST_TARGET, p)


@rules_jit
def mask_adjust_target(S, b, p, mask):
    """Legal actions of PH_ADJUST_TARGET: A_TARGET + t for each place the
    chosen card may go."""
    c = int(S[b]['sel_card'])
    occ = local_array(T_BACKPACK, np.int64)
    slot_occupants(S, b, p, occ)
    for t in range(NUM_TARGETS):
        if cleanup_target_ok(S, b, p, c, t, occ):
            mask[A_TARGET + t] = 1


@rules_jit
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


@rules_jit
def end_of_round(S, b):
    """The rest of Cleanup: the rolls to stay hidden (``stay_hidden``, which
    may wait on a Dust of Destiny: True, a decision posed). L779: the cube on
    a cast spell's wound-symbol box is wounded (not a wound that keeps the
    combat going, Interpretations). L780: every placed cube goes back to the
    healthy box. L781: after two consecutive rounds without a wound or a
    death the clearing's combat ends, as it does once no hero is left in it;
    else a new round begins."""
    s = S[b]
    if stay_hidden(S, b):
        return True
    spell_wounds(S, b)
    discord_ends(S, b)                           # L1596: a Discord whose Monster died expires
    clear_card_cubes(S, b, -1)
    left = 0
    for p in range(MAX_HEROES):
        clear_placed(S, b, p)
        if in_fight(S, b, p):                    # a Shape Shifted hero fights on as his chip
            left += 1
    if s['round_wounds']:
        s['quiet_rounds'] = 0
    else:
        s['quiet_rounds'] += 1
    if s['quiet_rounds'] >= 2 or left == 0:
        end_of_combat(S, b)
    else:
        new_round(S, b)
    return False


@rules_jit
def spell_wounds(S, b):
    """L779: each hero who cast a spell wounds the cube on its wound-symbol
    box; every Spell Card is cleared (its cubes are healthy cubes again)."""
    s = S[b]
    for p in range(MAX_HEROES):
        c = int(s['cast_wound'][p])
        if s['cast_stage'][p] == CAST_DONE and c >= 0 and s['cast_cubes'][p, c] > 0 and in_fight(S, b, p) \
                and not wound_spared(S, b, p, c):
            apply_wound(S, b, p, A_CUBE + CUBE_MAGIC + c)
        clear_cast(S, b, p)


@rules_jit
def make_peace(S, b):
    """Peace (L1582): combat ends in the clearing at once, the round not
    finished: the spells cast so far wound their cubes (their cost is paid),
    the cubes go back, and the end of combat follows (Interpretations)."""
    s = S[b]
    spell_wounds(S, b)
    clear_card_cubes(S, b, -1)
    for p in range(MAX_HEROES):
        clear_placed(S, b, p)
    s['atk_foe'] = -1
    s['atk_by'] = 0
    s['atk_aim'] = 0
    s['atk_victim'] = -1
    s['atk_stage'] = AS_HIT
    end_of_combat(S, b)


# ================================================================ the end of combat (L807-L812, L1008)
@rules_jit
def end_of_combat(S, b):
    """L811: the Monsters' pink cubes are discarded and their chips turned
    name side up (heroes' wounds stay). L812: a hero who threw a weapon and
    is still in the clearing, with no Monster left there, takes it back face
    down into his backpack; otherwise it leaves the game (Natives still
    fighting as Monsters count as Monsters). L1008: the Natives return to
    their peace."""
    s = S[b]
    release_all(S, b)                            # L1506, L1550: control lasts the combat
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
            foe_recovers(S, b, f)
        s['foe_target'][f] = -1
        s['foe_extra'][f] = 0
        s['foe_flags'][f] = 0
        for i in range(s['foe_extra_vs'].shape[1]):
            s['foe_extra_vs'][f, i] = 0
    s['natives_hostile'] = 0
    for q in range(MAX_HEROES):
        s['treasure_combat'][q] = 0                  # L1378: a Potion of Energy lasts until the end of combat
    s['peace'] = 0
    expire_spells(S, b, DUR_COMBAT)              # L1042
    for p in range(MAX_HEROES):
        clear_cast(S, b, p)
        if s['hero_combat'][p] == HC_FIGHTING:
            s['hero_combat'][p] = HC_DONE
        s['hero_cflags'][p] = 0
        s['hero_target'][p] = -1
        s['hero_challenge'][p] = 0
    s['combat_step'] = CS_NONE
    s['combat_clearing'] = -1
    if s['hero_combat'][s['turn_order'][s['combat_pos']]] != HC_NONE:
        s['combat_pos'] += 1                     # else a spell moved him off: his new clearing is next (L1516)
