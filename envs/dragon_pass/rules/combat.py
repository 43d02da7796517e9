"""The combat phase (L492-L601): declaring battles, missile fire, melee
(stacks arranged, retreats, the attack, the counter-attack), advance after
combat and the reorganising of stacks; with the heroes' and superheroes'
combat rules (L606-L659). Magic (steps 2-4) is ``magic.py``'s.

The active player announces battles one at a time (L582): a defending stack,
then more attacking and defending stacks, every attacking stack beside every
defending one; each battle is fought to its end before the next is
announced. A stack fights one battle per phase (L516). Every active stack
beside an inactive stack must be in a battle, unless it stands in a
fortification with at most three major units (L510-L514, L582): no battle
is fought, and the phase does not end, while that would leave such a stack
without a battle it could still join (``strands``; RULES.md,
Interpretations 11).

A battle's steps are ``step`` (CS_*): the defender's missile fire, then the
attacker's (18.2 and 18.3), stacks arranged (attacker, then defender, L571),
retreats, the attack and its casualties, the defender's arrangement and
counter-attack and its casualties, the advance after combat, the
reorganising of the stacks (L596), the end of the battle.
"""
import numpy as np

from dragongym.envs.core.jit import local_zeros, rules_jit
from ..board import HEX_FORD, HEX_RIVER, HEX_STEP, HEX_TERRAIN, NUM_HEXES, SIDE_RIDGE
from ..constants import (
    NUM_UNITS, RANK_NONE, RANK_SUPERHERO, SIDE_BACK, ST_RALLY, TAG_BISON, TAG_DRAGON, TAG_DUCK, TAG_LARGE,
    UF_ADVANCED, UF_FOUGHT, UF_FRIEND_FELL, UF_HIT, UF_RETREATED, UF_USED, UW_ESCAPING, UW_MAP, UW_SUPPORT,
)
from ..constants import NEUTRAL, OCC_GIANTS, ST_COMBAT, ST_RANDOM_MOVE
from ..state import MAX_BATTLE_STACKS
from .minors import retreat_mf
from .base import (
    A_CHOICE, A_HEX, A_UNIT, CH_DISRUPT_TWO, CH_DONE, CH_ELIMINATE_ONE, COVER_DIVISOR, EXTENDED_ADVANCE_MF,
    FIGHTING_MAJORS, HEX_FORTIFICATION, HEX_MELEE_IN2, HEX_MELEE_OUT2, MISSILE,
    MISSILE_DISRUPT, MISSILE_ELIMINATE, MISSILE_MAX_TOTAL, MISSILE_OR_ELIMINATE, MISSILE_ROLL_HI,
    MISSILE_ROLL_LO, MOD_DRAGON, MOD_LARGE, MOD_SMALL, PH_ADVANCE, PH_ADVANCE_EXT, PH_ADVANCE_HEX,
    PH_ARRANGE, PH_BATTLE, PH_BATTLE_ADD, PH_CASUALTY, PH_MISSILE_CASUALTY, PH_MISSILE_CHOICE,
    PH_MISSILE_TARGET, PH_RETREAT, PH_RETREAT_HEX, PH_SCAPEGOAT, STRUCTURE_UNITS, TERRAIN_FOREST, TERRAIN_HILL_FOREST,
    TERRAIN_LAKE, TERRAIN_MARSH, TERRAIN_MOUNTAIN, best_friend, force_of, frozen, ground, units_end, U_LF, U_MAJOR, mf_of, U_TEMPLAR,
    U_MISSILE, U_RANK, U_SPIRIT, U_TAGS, adjacent_to_force, adjacent_to_foe, foes_of, hostile, force_playing, turn_slot, attack_loss, berserk, d6, disrupt, eliminate,
    in_list, is_disrupted, shut,
    occupy, pose, put_on_top, whole_board, side_of, stack_at,
    U_HERD, capture, capture_herds_at, herds_settle, neutral_herd, stampede, dragons_only, is_dragon, U_GIANT,
)
from .magic import (
    commitment_step, magic_step, send_home, support_step, unattacked_commitment,
)
from .moon import cf_halves, mgf_halves
from .setup import SCENARIO_MAGIC
from .movement import start_arrangement
from .base import is_zombie, zombies_on_board
from .puppeteers import dodge_options
from .base import PH_PUPPET_DODGE, PUPPETEER_TROOP
from .base import can_carry, zero_mf, missile_ground_mod, outside_structure
from .giantmaster import is_controlled, lend_giants, may_not_retreat, pair_hex_barred, return_giants

# the steps of a battle (``step``)
CS_DECLARE = 0              # phase A (spirits and agents committed), then battles declared (L496-L498)
CS_MAGIC = 1                # chaotic, physical and spirit magic (L516-L556; magic.magic_step)
CS_MISSILE_DEF_AIM = 2      # the defender's missile units choose their targets (L564)
CS_MISSILE_DEF_FIRE = 3     # and fire, target by target; the attacker takes casualties
CS_MISSILE_ATT_AIM = 4      # then the attacker's (L565)
CS_MISSILE_ATT_FIRE = 5
CS_MISSILE_TAKE = 6         # a missile result being taken (returns to the fire step)
CS_ARRANGE_ATT = 7          # the attacker arranges his stacks (L571)
CS_ARRANGE_DEF = 8          # the defender his
CS_RETREAT = 9              # the defender retreats some, none or all (L573-L578)
CS_ATTACK = 10              # the attack (L582)
CS_ATTACK_TAKE = 11         # its casualties, chosen by the attacker
CS_ARRANGE_COUNTER = 12     # the defender may rearrange (L584)
CS_COUNTER = 13             # the counter-attack (L584)
CS_COUNTER_TAKE = 14        # its casualties, chosen by the defender
CS_ADVANCE = 15             # advance after combat (L600)
CS_REORG_ATT = 16           # each player may rearrange his stacks of the battle (L596)
CS_REORG_DEF = 17
CS_SCAPEGOAT = 18           # a superhero whose best friend fell picks its scapegoat (L654)
CS_SUPPORT = 19             # phase C, after every battle: magical support (L508, L604), then the phase ends
CS_END = 20                 # the battle's end


# ================================================================ stacks in a battle
@rules_jit
def stack_used(S, b, h):
    """A unit at h has fought a battle this phase (L516)."""
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h and s['unit_flags'][u] & UF_USED:
            return True
    return False


@rules_jit
def majors_at(S, b, h):
    s = S[b]
    n = 0
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h and U_MAJOR[u, side_of(S, b, u)]:
            n += 1
    return n


@rules_jit
def may_stay_in_fortification(S, b, h):
    """Active units in a fortification need not attack if there are no more
    than three major units (L357, L514)."""
    return HEX_FORTIFICATION[ground(S, b, h)] != 0 and majors_at(S, b, h) <= STRUCTURE_UNITS


@rules_jit
def count_of(arr):
    n = 0
    for k in range(arr.shape[0]):
        if arr[k] >= 0:
            n += 1
    return n


@rules_jit
def neighbours(a, c):
    for d in range(1, 7):
        if HEX_STEP[a, d] == c:
            return True
    return False


@rules_jit
def beside_all(h, arr):
    """h is beside every hex of the list ``arr`` (-1 padded)."""
    for k in range(arr.shape[0]):
        if arr[k] >= 0 and not neighbours(h, arr[k]):
            return False
    return True


@rules_jit
def candidate_stacks(S, b, p, occ):
    """cand[h] = 1 for each inactive stack not yet fought that is beside an
    active stack not yet fought; obliged = some such active stack must still
    fight (not excused by its fortification)."""
    s = S[b]
    cand = np.zeros(NUM_HEXES, np.int8)
    seen = np.zeros(NUM_HEXES, np.int8)
    obliged = False
    for u in range(units_end(S, b)):
        if s['unit_where'][u] != UW_MAP or force_of(S, b, u) != p:
            continue
        h = s['unit_hex'][u]
        if seen[h]:
            continue
        seen[h] = 1
        if stack_used(S, b, h) or dragons_only(S, b, h):
            continue              # dragons do not attack but by dragonfights (L847)
        any_foe = False
        for d in range(1, 7):
            g = HEX_STEP[h, d]
            # giants too: inactive to every player, they are fought like the enemy (Interpretations 162)
            if g >= 0 and (hostile(occ[g], foes_of(p)) or occ[g] == OCC_GIANTS) and not stack_used(S, b, g):
                cand[g] = 1
                any_foe = True
        if any_foe and not may_stay_in_fortification(S, b, h):
            obliged = True
    return cand, obliged


@rules_jit
def combat_phase(S, b):
    """Run the combat phase until a decision is needed (True) or the phase ends."""
    s = S[b]
    while True:
        if s['stage'] != ST_COMBAT:
            return False      # a giants' battle ended: back to the Random Movement Phase (L918)
        st = int(s['step'])
        if st == CS_DECLARE:
            if commitment_step(S, b):
                return True
            occ, zoc = whole_board(S, b)
            cand, obliged = candidate_stacks(S, b, int(s['active']), occ)
            if cand.sum() == 0:
                end_combat(S, b)
                continue
            return pose(S, b, PH_BATTLE, int(s['active']))
        if st == CS_MAGIC:
            if magic_step(S, b):
                return True
            s['step'] = CS_MISSILE_DEF_AIM if s['with_missile'] else CS_ARRANGE_ATT
            s['cursor'] = 0
            continue
        if st == CS_SUPPORT:
            if support_step(S, b):
                return True
            finish_combat(S, b)
            return False
        if st == CS_MISSILE_DEF_AIM or st == CS_MISSILE_ATT_AIM:
            if missile_aim(S, b, st == CS_MISSILE_DEF_AIM):
                return True
            s['step'] = st + 1
            s['cursor'] = 0
        elif st == CS_MISSILE_DEF_FIRE or st == CS_MISSILE_ATT_FIRE:
            if missile_fire(S, b, st == CS_MISSILE_DEF_FIRE):
                return True
            s['step'] = CS_MISSILE_ATT_AIM if st == CS_MISSILE_DEF_FIRE else CS_ARRANGE_ATT
            s['cursor'] = 0
        elif st == CS_MISSILE_TAKE:
            if missile_take(S, b):
                return True
        elif st == CS_ARRANGE_ATT or st == CS_ARRANGE_DEF or st == CS_ARRANGE_COUNTER:
            defender = st != CS_ARRANGE_ATT
            if arrange_next(S, b, s['bat_def'] if defender else s['bat_att'],
                            int(s['bat_foe']) if defender else int(s['active'])):
                return True
            s['step'] = st + 1
            s['cursor'] = 0
        elif st == CS_RETREAT:
            if side_left(S, b, s['bat_att']) and any_retreat(S, b):
                return pose(S, b, PH_RETREAT, int(s['bat_foe']))
            s['step'] = CS_ATTACK
        elif st == CS_ATTACK or st == CS_COUNTER:
            if side_left(S, b, s['bat_att']) and side_left(S, b, s['bat_def']):
                strike(S, b, st == CS_COUNTER)
            else:
                s['step'] = CS_ADVANCE
                s['cursor'] = 0
        elif st == CS_ATTACK_TAKE or st == CS_COUNTER_TAKE:
            counter = st == CS_COUNTER_TAKE
            if any_melee_casualty(S, b, counter):
                return pose(S, b, PH_CASUALTY, int(s['active']) if not counter else int(s['bat_foe']))
            s['step'] = CS_ARRANGE_COUNTER if not counter else CS_ADVANCE
            s['cursor'] = 0
            if not counter and not side_left(S, b, s['bat_def']):
                s['step'] = CS_ADVANCE
        elif st == CS_ADVANCE:
            if s['cursor'] == 0:
                mark_vacated(S, b)
                s['cursor'] = 1
            if any_advance(S, b):
                return pose(S, b, PH_ADVANCE, int(s['active']))
            s['step'] = CS_REORG_ATT
            s['cursor'] = 0
        elif st == CS_REORG_ATT:
            if arrange_next(S, b, s['bat_att'], int(s['active'])):
                return True
            if arrange_next_vacated(S, b):
                return True
            s['step'] = CS_REORG_DEF
            s['cursor'] = 0
        elif st == CS_REORG_DEF:
            if arrange_next(S, b, s['bat_def'], int(s['bat_foe'])):
                return True
            s['step'] = CS_SCAPEGOAT
        elif st == CS_SCAPEGOAT:
            if scapegoat_next(S, b):
                return True
            s['step'] = CS_END
        else:
            end_battle(S, b)


@rules_jit
def end_combat(S, b):
    """No more battles: phase C, magical support, in a scenario with magic (L508)."""
    s = S[b]
    s['step'] = CS_SUPPORT
    s['magic_kind'] = 1 if SCENARIO_MAGIC[int(s['scenario'])] else 3


@rules_jit
def finish_combat(S, b):
    """The combat phase ends; a spirit or agent committed to a stack that could
    not be attacked goes home unused (Interpretations 32)."""
    s = S[b]
    send_home(S, b, True, True, False)
    herds_settle(S, b)            # the end of the combat phase (L592)
    s['stage'] = ST_RALLY
    s['step'] = 0
    s['magic_kind'] = 0
    for u in range(units_end(S, b)):
        s['unit_flags'][u] = 0


@rules_jit
def end_battle(S, b):
    s = S[b]
    for k in range(MAX_BATTLE_STACKS):
        s['bat_att'][k] = -1
        s['bat_def'][k] = -1
        s['bat_vacated'][k] = -1
        s['bat_slow'][k] = 0
    for u in range(units_end(S, b)):
        s['unit_flags'][u] &= UF_USED
        s['unit_target'][u] = -1
        s['unit_blame'][u] = 0
    s['adv_unit'] = -1
    s['att_total'] = 0
    s['def_total'] = 0
    s['step'] = CS_DECLARE
    s['cursor'] = 0
    return_giants(S, b)               # giants lent for a battle against them are no one's again (Interpretations 162)
    if s['giant_foe']:
        # the giants' battle of the Random Movement Phase is over (L918): the
        # giants are no one's again, the player-turn's player active again
        for u in range(units_end(S, b)):
            if U_GIANT[u] and not is_controlled(S, b, u):       # Argrath's giant stays his (L686)
                s['unit_force'][u] = NEUTRAL
        s['giant_foe'] = 0
        s['active'] = force_playing(S, b, turn_slot(S, b))
        s['stage'] = ST_RANDOM_MOVE
        s['step'] = 1


# ================================================================ declaration
@rules_jit
def mask_battle(S, b, p, mask):
    occ, zoc = whole_board(S, b)
    cand, obliged = candidate_stacks(S, b, p, occ)
    forced = rage_target(S, b, p)
    if forced >= 0:
        mask[A_HEX + forced] = 1      # the berserk superhero attacks its scapegoat first (L656)
        return
    for h in range(NUM_HEXES):
        if cand[h]:
            mask[A_HEX + h] = 1
    if not obliged and unattacked_commitment(S, b, p) < 0:
        mask[A_CHOICE + CH_DONE] = 1        # a committed spirit or agent must attack its stack (L496)


@rules_jit
def act_battle(S, b, p, a):
    """A new battle against the stack at hex a; ``CH_DONE``: no more battles."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        end_combat(S, b)
        return False
    s['bat_def'][0] = a - A_HEX
    if stands_at(S, b, a - A_HEX) == OCC_GIANTS:
        lend_giants(S, b, a - A_HEX, 1 - p)     # the other player decides for them (Interpretations 162)  # two-player
    s['bat_foe'] = hex_owner(S, b, a - A_HEX)
    return pose(S, b, PH_BATTLE_ADD, p)


@rules_jit
def mask_battle_add(S, b, p, mask):
    s = S[b]
    need = rage_unmet(S, b, p)
    if need >= 0:
        mask[A_HEX + need] = 1        # the berserk superhero's stack joins first (L656)
        return
    occ, zoc = whole_board(S, b)
    n_att = count_of(s['bat_att'])
    n_def = count_of(s['bat_def'])
    d0 = s['bat_def'][0]
    for d in range(1, 7):
        c = HEX_STEP[d0, d]
        if c < 0 or occ[c] != p or in_list(s['bat_att'], c) or n_att >= MAX_BATTLE_STACKS:
            continue
        if beside_all(c, s['bat_def']) and not stack_used(S, b, c) and not dragons_only(S, b, c):
            mask[A_HEX + c] = 1
    if n_att > 0 and n_def < MAX_BATTLE_STACKS and not s['giants_lent']:     # giants are fought alone
        a0 = s['bat_att'][0]
        for d in range(1, 7):
            c = HEX_STEP[a0, d]
            if c < 0 or occ[c] != s['bat_foe'] or in_list(s['bat_def'], c):
                # the other defending stacks are of the first one's force (Interpretations 180)
                continue
            if beside_all(c, s['bat_att']) and not stack_used(S, b, c) and not strands(S, b, p, occ, c, True):
                mask[A_HEX + c] = 1
    if n_att > 0 and not strands(S, b, p, occ, -1, False):
        mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def strands(S, b, p, occ, extra, join):
    """The battle being announced, with the defending stack at ``extra`` added
    (-1: none), would leave an obliged stack of force p out of every battle
    (L512, L582): an active stack outside the battle, not excused by its
    fortification (L514), beside inactive stacks that have not fought, all
    of them in the battle -- a stack fights one battle only (L516), so none
    would be left for it. With ``join``, such a stack that can still join
    this battle (it is beside every defending stack) does not count."""
    s = S[b]
    seen = local_zeros(NUM_HEXES, np.int8)
    for u in range(units_end(S, b)):
        if s['unit_where'][u] != UW_MAP or force_of(S, b, u) != p:
            continue
        h = s['unit_hex'][u]
        if seen[h]:
            continue
        seen[h] = 1
        if in_list(s['bat_att'], h):
            continue
        near = False                  # only a stack beside the battle can be left without one
        for d in range(1, 7):
            g = HEX_STEP[h, d]
            if g >= 0 and (g == extra or in_list(s['bat_def'], g)):
                near = True
        if not near or stack_used(S, b, h) or may_stay_in_fortification(S, b, h) or dragons_only(S, b, h):
            continue
        foe = False
        free = False
        for d in range(1, 7):
            g = HEX_STEP[h, d]
            if g >= 0 and (hostile(occ[g], foes_of(p)) or occ[g] == OCC_GIANTS) and not stack_used(S, b, g):
                foe = True
                if g != extra and not in_list(s['bat_def'], g):
                    free = True
        if not foe or free:
            continue
        if join and beside_all(h, s['bat_def']) and (extra < 0 or neighbours(h, extra)):
            continue
        return True
    return False


@rules_jit
def rage_target(S, b, p):
    """The hex of a scapegoat that a berserk superhero of force p must attack
    now: both stacks not yet fought and side by side (L656); -1."""
    s = S[b]
    for v in range(units_end(S, b)):
        if force_of(S, b, v) != p or not berserk(S, b, v):
            continue
        h = s['unit_hex'][v]
        g = s['unit_hex'][s['unit_scapegoat'][v]]
        if neighbours(h, g) and not stack_used(S, b, h) and not stack_used(S, b, g):
            return int(g)
    return -1


@rules_jit
def rage_unmet(S, b, p):
    """The hex of a berserk superhero's stack that the battle against its
    scapegoat does not include yet, though it could (L656); -1."""
    s = S[b]
    for v in range(units_end(S, b)):
        if force_of(S, b, v) != p or not berserk(S, b, v):
            continue
        h = s['unit_hex'][v]
        g = s['unit_hex'][s['unit_scapegoat'][v]]
        if in_list(s['bat_def'], g) and not in_list(s['bat_att'], h) and beside_all(h, s['bat_def']) \
                and not stack_used(S, b, h):
            return int(h)
    return -1


@rules_jit
def raging_against(S, b, g, arr):
    """Unit g is the scapegoat of a berserk superhero in the stacks of ``arr``."""
    s = S[b]
    for v in range(units_end(S, b)):
        if s['unit_scapegoat'][v] == g and berserk(S, b, v) and in_list(arr, s['unit_hex'][v]):
            return True
    return False


@rules_jit
def scapegoat_next(S, b):
    """At the end of the battle, each superhero whose best friend fell in it
    picks a scapegoat among the enemy units of the battle still on the map
    (L654; herds cannot be scapegoats, and there are none here); with none
    left it does not go berserk. Returns True if the choice is posed."""
    s = S[b]
    for v in range(units_end(S, b)):
        if not s['unit_flags'][v] & UF_FRIEND_FELL:
            continue
        s['unit_flags'][v] &= ~UF_FRIEND_FELL
        if s['unit_where'][v] != UW_MAP and s['unit_where'][v] != UW_ESCAPING:
            continue
        if any_scapegoat(S, b, v):
            s['cursor'] = v
            return pose(S, b, PH_SCAPEGOAT, force_of(S, b, v))
    return False


@rules_jit
def scapegoat_candidate(S, b, v, g):
    """Unit g may be superhero v's scapegoat: if magic killed the best friend,
    a unit blamed for it (its magician, or the chaotic unit; L654); else an
    enemy unit of the battle. Either way on the map, and no herd (L654)."""
    s = S[b]
    if s['unit_where'][g] != UW_MAP or force_of(S, b, g) == force_of(S, b, v) or U_HERD[g]:
        return False
    for x in range(units_end(S, b)):
        if s['unit_blame'][x] and force_of(S, b, x) != force_of(S, b, v) and s['unit_where'][x] == UW_MAP:
            return s['unit_blame'][g] != 0
    return in_list(s['bat_att'], s['unit_hex'][g]) or in_list(s['bat_def'], s['unit_hex'][g])


@rules_jit
def any_scapegoat(S, b, v):
    for g in range(units_end(S, b)):
        if scapegoat_candidate(S, b, v, g):
            return True
    return False


@rules_jit
def mask_scapegoat(S, b, p, mask):
    v = int(S[b]['cursor'])
    for g in range(units_end(S, b)):
        if scapegoat_candidate(S, b, v, g):
            mask[A_UNIT + g] = 1


@rules_jit
def act_scapegoat(S, b, p, a):
    """Unit a is the scapegoat; the superhero turns to its Berserker Rage side (L656)."""
    s = S[b]
    v = int(s['cursor'])
    s['unit_scapegoat'][v] = a - A_UNIT
    s['unit_side'][v] = SIDE_BACK
    return False


@rules_jit
def act_battle_add(S, b, p, a):
    """Add the stack at hex a to the battle (its side by its owner), or
    ``CH_DONE``: fight it."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        begin_battle(S, b)
        if dodge_options(S, b, np.zeros(1, np.int8)) > 0:
            # the Puppeteer Troop may switch out of the battle with an Illusory Army (L890)
            return pose(S, b, PH_PUPPET_DODGE, force_of(S, b, PUPPETEER_TROOP))
        return False
    h = a - A_HEX
    arr = s['bat_att'] if hex_owner(S, b, h) == p else s['bat_def']
    k = 0
    while arr[k] >= 0:
        k += 1
    arr[k] = h
    return pose(S, b, PH_BATTLE_ADD, p)


@rules_jit
def hex_owner(S, b, h):
    """The force whose units are at h, -1 if none (a neutral herd is no one's, L592)."""
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h and not neutral_herd(S, b, u):
            return force_of(S, b, u)
    return -1


@rules_jit
def stands_at(S, b, h):
    """The force whose units other than herds are at h (``OCC_GIANTS`` for
    giants), -1 if only herds, neutral dinosaurs or none: a hex left to herds is vacated, and an advance ending there captures
    them (L600)."""
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h and not U_HERD[u]:
            if U_GIANT[u] and force_of(S, b, u) < 0:
                return OCC_GIANTS         # giants, no one's, hold their hex (L918)
            return force_of(S, b, u)
    return -1


@rules_jit
def begin_battle(S, b):
    """Every unit of the battle's stacks is in it (one battle a stack, L516)."""
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and (in_list(s['bat_att'], s['unit_hex'][u])
                                             or in_list(s['bat_def'], s['unit_hex'][u])):
            s['unit_flags'][u] |= UF_USED
        s['unit_target'][u] = -1
    s['step'] = CS_MISSILE_DEF_AIM if s['with_missile'] else CS_ARRANGE_ATT
    if SCENARIO_MAGIC[int(s['scenario'])]:
        s['step'] = CS_MAGIC
        s['magic_step'] = 0
    s['cursor'] = 0


# ================================================================ missile fire
@rules_jit
def in_battle_side(S, b, u, defender):
    s = S[b]
    if s['unit_where'][u] != UW_MAP:
        return False
    return in_list(s['bat_def'] if defender else s['bat_att'], s['unit_hex'][u])


@rules_jit
def missile_aim(S, b, defender):
    """Each missile unit of the firing side picks the enemy stack of the battle
    it fires on (L564-L565); with one enemy stack it needs no decision.
    Returns True if a decision is posed (for unit ``cursor``)."""
    s = S[b]
    targets = s['bat_att'] if defender else s['bat_def']
    n_targets = count_of(targets)
    for u in range(units_end(S, b)):
        if not in_battle_side(S, b, u, defender) or s['unit_target'][u] >= 0:
            continue
        if U_MISSILE[u, side_of(S, b, u)] <= 0:
            continue
        if n_targets == 1:
            s['unit_target'][u] = targets[0]
            continue
        s['cursor'] = u
        return pose(S, b, PH_MISSILE_TARGET, int(s['bat_foe']) if defender else int(s['active']))
    return False


@rules_jit
def mask_missile_target(S, b, p, mask):
    s = S[b]
    defender = p != s['active']
    targets = s['bat_att'] if defender else s['bat_def']
    for k in range(targets.shape[0]):
        if targets[k] >= 0:
            mask[A_HEX + targets[k]] = 1


@rules_jit
def act_missile_target(S, b, p, a):
    s = S[b]
    s['unit_target'][s['cursor']] = a - A_HEX
    return False


@rules_jit
def missile_modifier(S, b, t):
    """The die modifier of missile fire at the stack at hex t: the worst
    terrain modifier, plus the unit modifiers, cumulative (L1105-L1117)."""
    s = S[b]
    mod = missile_ground_mod(S, b, t)        # the structure's only for a stack not wholly outside it (L458)
    dragon = False
    large = False
    small_only = True
    for u in range(units_end(S, b)):
        if s['unit_where'][u] != UW_MAP or s['unit_hex'][u] != t:
            continue
        tags = U_TAGS[u]
        if tags & TAG_DRAGON:
            dragon = True
        if tags & TAG_LARGE:
            large = True
        if U_MAJOR[u, side_of(S, b, u)] and not tags & (TAG_DUCK | TAG_BISON):
            small_only = False
    if dragon:
        mod += MOD_DRAGON
    if small_only:
        mod += MOD_SMALL
    if large:
        mod += MOD_LARGE
    if s['rain']:
        mod -= 1
    return mod


@rules_jit
def missile_total(S, b, t):
    """Missile Factors firing at the stack at t, halved for those firing up a
    ridge (L564, L1117), fractions dropped."""
    s = S[b]
    total2 = 0
    for u in range(units_end(S, b)):
        if s['unit_where'][u] != UW_MAP or s['unit_target'][u] != t:
            continue
        h = s['unit_hex'][u]
        mf2 = 2 * int(U_MISSILE[u, side_of(S, b, u)])
        for d in range(1, 7):
            if HEX_STEP[h, d] == t and SIDE_RIDGE[h, d] == 1:
                mf2 //= 2
        total2 += mf2
    return total2 // 2


@rules_jit
def missile_fire(S, b, defender):
    """Resolve the fire of one side on each target stack in turn (``cursor`` =
    the next target's index); a result to take hands over to
    :func:`missile_take`. Returns True if a decision is posed."""
    s = S[b]
    targets = s['bat_att'] if defender else s['bat_def']
    while s['cursor'] < MAX_BATTLE_STACKS:
        k = int(s['cursor'])
        s['cursor'] += 1
        t = targets[k]
        if t < 0:
            continue
        total = missile_total(S, b, t)
        if total <= 0:
            continue
        if total > MISSILE_MAX_TOTAL:
            total = MISSILE_MAX_TOTAL
        r = d6(S, b) + missile_modifier(S, b, t)
        if r < MISSILE_ROLL_LO:
            r = MISSILE_ROLL_LO
        if r > MISSILE_ROLL_HI:
            r = MISSILE_ROLL_HI
        code = int(MISSILE[r, total])
        if MISSILE_DISRUPT[code] == 0 and MISSILE_ELIMINATE[code] == 0:
            continue
        s['missile_code'] = code
        s['arr_hex'] = t
        s['firing'] = 1 if defender else 0
        if start_missile_result(S, b, t, code):
            return True
        if missile_take(S, b):
            return True
    return False


@rules_jit
def majors_not_hit(S, b, t):
    s = S[b]
    n = 0
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == t and U_MAJOR[u, side_of(S, b, u)] \
                and not s['unit_flags'][u] & UF_HIT and not neutral_herd(S, b, u):
            n += 1
    return n


@rules_jit
def start_missile_result(S, b, t, code):
    """Set up the casualties of a missile result on the stack at t: only major
    units can be casualties, and where too few are in the stack all of them
    are eliminated (L567); a 2DD is two disruptions or one elimination, the
    stack's owner choosing (L1131). Returns True if the choice is posed."""
    s = S[b]
    for u in range(units_end(S, b)):
        s['unit_flags'][u] &= ~UF_HIT
    m = majors_not_hit(S, b, t)
    dis = int(MISSILE_DISRUPT[code])
    eli = int(MISSILE_ELIMINATE[code])
    alt = int(MISSILE_OR_ELIMINATE[code])
    owner = hex_owner(S, b, t)
    if alt > 0 and m >= dis:
        s['step'] = CS_MISSILE_TAKE
        s['loss_left'] = 0
        s['elim_left'] = 0
        return pose(S, b, PH_MISSILE_CHOICE, owner)
    if alt > 0:
        dis, eli = 0, alt
    if m < dis + eli:
        for u in range(units_end(S, b)):
            if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == t and U_MAJOR[u, side_of(S, b, u)] \
                    and not neutral_herd(S, b, u):
                missile_eliminates(S, b, u)
        s['loss_left'] = 0
        s['elim_left'] = 0
        return False
    s['loss_left'] = dis
    s['elim_left'] = eli
    s['step'] = CS_MISSILE_TAKE
    return False


@rules_jit
def missile_take(S, b):
    """Pose the next missile casualty, or go back to the fire step."""
    s = S[b]
    t = int(s['arr_hex'])
    if (s['loss_left'] > 0 or s['elim_left'] > 0) and majors_not_hit(S, b, t) > 0:
        s['step'] = CS_MISSILE_TAKE
        return pose(S, b, PH_MISSILE_CASUALTY, hex_owner(S, b, t))
    s['loss_left'] = 0
    s['elim_left'] = 0
    s['arr_hex'] = -1
    s['step'] = CS_MISSILE_DEF_FIRE if s['firing'] == 1 else CS_MISSILE_ATT_FIRE
    return False


@rules_jit
def mask_missile_choice(S, b, p, mask):
    mask[A_CHOICE + CH_DISRUPT_TWO] = 1
    mask[A_CHOICE + CH_ELIMINATE_ONE] = 1


@rules_jit
def act_missile_choice(S, b, p, a):
    s = S[b]
    code = int(s['missile_code'])
    if a == A_CHOICE + CH_DISRUPT_TWO:
        s['loss_left'] = MISSILE_DISRUPT[code]
    else:
        s['elim_left'] = MISSILE_OR_ELIMINATE[code]
    return missile_take(S, b)


@rules_jit
def mask_missile_casualty(S, b, p, mask):
    s = S[b]
    t = int(s['arr_hex'])
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == t and U_MAJOR[u, side_of(S, b, u)] \
                and not s['unit_flags'][u] & UF_HIT and not neutral_herd(S, b, u):
            mask[A_UNIT + u] = 1


@rules_jit
def act_missile_casualty(S, b, p, a):
    """Unit a takes an elimination (those first) or a disruption (L1131)."""
    s = S[b]
    u = a - A_UNIT
    s['unit_flags'][u] |= UF_HIT
    if s['elim_left'] > 0:
        s['elim_left'] -= 1
        missile_eliminates(S, b, u)
    else:
        s['loss_left'] -= 1
        disrupt(S, b, u)
    return missile_take(S, b)


@rules_jit
def missile_eliminates(S, b, u):
    """Unit u suffers a missile elimination: a herd stampedes instead (L567)."""
    if U_HERD[u]:
        stampede(S, b, u)
    else:
        eliminate(S, b, u)


# ================================================================ arranging, reorganising
@rules_jit
def arrange_next(S, b, arr, seat):
    """Pose the arrangement of the next stack of ``arr`` from ``cursor`` on
    that holds two or more units (L450, L571, L584, L596)."""
    s = S[b]
    order = np.empty(NUM_UNITS, np.int64)
    while s['cursor'] < arr.shape[0]:
        k = int(s['cursor'])
        s['cursor'] += 1
        h = arr[k]
        if h >= 0 and stack_at(S, b, h, order) >= 2:
            start_arrangement(S, b, h)
            return pose(S, b, PH_ARRANGE, seat)
    return False


@rules_jit
def arrange_next_vacated(S, b):
    """The attacker's reorganising reaches the vacated hexes his units advanced into."""
    s = S[b]
    order = np.empty(NUM_UNITS, np.int64)
    while s['cursor'] < 2 * MAX_BATTLE_STACKS:
        k = int(s['cursor']) - MAX_BATTLE_STACKS
        s['cursor'] += 1
        if k < 0:
            continue
        h = s['bat_vacated'][k]
        if h >= 0 and hex_owner(S, b, h) == s['active'] and stack_at(S, b, h, order) >= 2:
            start_arrangement(S, b, h)
            return pose(S, b, PH_ARRANGE, int(s['active']))
    return False


# ================================================================ melee strength
@rules_jit
def fighting_units(S, b, h, out, fights):
    """The units of the stack at h top first into ``out`` (count returned);
    fights[k] = 1 for those that fight: at most the top three major units and
    the minor units above the fourth; the fourth major and those below are in
    reserve (L571). Disembodied spirits and herds do not fight (L571); a herd,
    never fighting, takes none of the three places (Interpretations)."""
    n = stack_at(S, b, h, out)
    majors = 0
    for k in range(n):
        u = out[k]
        sd = side_of(S, b, u)
        if U_HERD[u]:
            fights[k] = 0
            continue
        if U_MAJOR[u, sd]:
            majors += 1
        fights[k] = 1 if majors <= FIGHTING_MAJORS and not U_SPIRIT[u, sd] else 0
    return n


@rules_jit
def stack_leadership(S, b, out, fights, n):
    """The Leadership Factor the stack's fighting units get: the best of its
    fighting leaders (one leader a stack), or a superhero's and its best
    friend's together when both fight (L652)."""
    best = 0
    for k in range(n):
        if not fights[k]:
            continue
        u = out[k]
        lf = int(U_LF[u, side_of(S, b, u)])
        if lf > best:
            best = lf
        if U_RANK[u] == RANK_SUPERHERO and best_friend(S, b, u) >= 0:
            f = best_friend(S, b, u)
            for j in range(n):
                if out[j] == f and fights[j]:
                    both = lf + int(U_LF[f, side_of(S, b, f)])
                    if both > best:
                        best = both
    return best


@rules_jit
def climbs_toward(h, arr):
    """From h, some hex of ``arr`` lies up a ridge (L582)."""
    for k in range(arr.shape[0]):
        c = arr[k]
        if c < 0:
            continue
        for d in range(1, 7):
            if HEX_STEP[h, d] == c and SIDE_RIDGE[h, d] == 1:
                return True
    return False


@rules_jit
def side_strength(S, b, counter, mark):
    """The melee CF total of the attacking stacks (``counter`` False) or the
    defending stacks' counter-attack: each fighting unit's CF, doubled in the
    counter-attack (defensive doubling, L584), halved for a stack on a river
    hex (not a ford or headwaters) or striking up a ridge -- heroes and
    superheroes excepted (L640) -- then the stack's Leadership Factor added
    to each fighting non-leader with a CF (L385, L582); fractions kept until
    the total, then dropped (L110). ``mark``: flag the fighting units UF_FOUGHT."""
    contrib = np.empty(NUM_UNITS, np.int64)
    return strength_by_unit(S, b, counter, mark, contrib) // 2


@rules_jit
def strength_by_unit(S, b, counter, mark, contrib):
    """``side_strength`` in halves, fractions kept; contrib[u] = what fighting
    unit u adds to it (0 for the others)."""
    s = S[b]
    for u in range(units_end(S, b)):
        contrib[u] = 0
    own = s['bat_def'] if counter else s['bat_att']
    foes = s['bat_att'] if counter else s['bat_def']
    out = np.empty(NUM_UNITS, np.int64)
    fights = np.zeros(NUM_UNITS, np.int8)
    total2 = 0
    zombies = 0
    for k in range(own.shape[0]):
        h = own[k]
        if h < 0:
            continue
        n = fighting_units(S, b, h, out, fights)
        halve = (HEX_RIVER[h] != 0 and HEX_FORD[h] == 0) or climbs_toward(h, foes)
        lf = stack_leadership(S, b, out, fights, n)
        for j in range(n):
            if not fights[j]:
                continue
            u = out[j]
            if is_zombie(u):
                # a zombie: 2 whatever the terrain, no leadership; defending zombies
                # do not counter-attack (L829; Interpretations 114)
                if counter:
                    continue
                zombies += 1
                total2 += 4
                contrib[u] = 4
                if mark:
                    s['unit_flags'][u] |= UF_FOUGHT
                continue
            sd = side_of(S, b, u)
            cf2 = cf_halves(S, b, u)
            if is_dragon(u):
                # a dragon adds nothing to an attack; defending, its CF, no terrain, no leadership (L847)
                cf2 = 2 * cf2 if counter else 0
                total2 += cf2
                contrib[u] = cf2
                if mark:
                    s['unit_flags'][u] |= UF_FOUGHT
                continue
            unit_cf2 = cf2
            if counter:
                cf2 *= 2
            if halve and U_RANK[u] == RANK_NONE:
                cf2 //= 2
            if lf > 0 and U_LF[u, sd] == 0 and unit_cf2 > 0:
                cf2 += 2 * lf
            total2 += cf2
            contrib[u] = cf2
            if mark:
                s['unit_flags'][u] |= UF_FOUGHT
    if zombies > 0:
        total2 += 4 * (zombies_on_board(S, b) - zombies)   # every zombie on the board adds its CF 2 (L829)
    return total2


@rules_jit
def side_has_superhero(S, b, arr):
    s = S[b]
    for u in range(units_end(S, b)):
        if U_RANK[u] == RANK_SUPERHERO and s['unit_where'][u] == UW_MAP and in_list(arr, s['unit_hex'][u]):
            return True
    return False


@rules_jit
def stack_has_superhero(S, b, h):
    s = S[b]
    for u in range(units_end(S, b)):
        if U_RANK[u] == RANK_SUPERHERO and s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h:
            return True
    return False


@rules_jit
def casualty_value2(S, b, u, k_from_bottom, counter):
    """Twice the CF loss unit u absorbs as a melee casualty: its CF times the
    multiplier of its hex -- the structure's for the bottom three units inside
    it, the ground's for the rest (L348) -- for a defender in the attack,
    none if a superhero attacks a stack without one (L648); in the
    counter-attack an attacker that fought has charged and gets none, one in
    reserve gets all (L571). A half-cyclic CF's half point times 1½ is
    dropped here (L110, a fraction of a point absorbs no loss). A Sun Dome
    Templar defending in the attack counts twice its CF, and no terrain
    benefit (L902), whatever attacks it (Interpretations 122)."""
    s = S[b]
    if is_zombie(u):
        return 4                  # a zombie absorbs 2, whatever the terrain (L829)
    h = s['unit_hex'][u]
    cf2 = cf_halves(S, b, u)
    if is_dragon(u):
        return cf2                # dragons are not affected by terrain (L847)
    if counter and s['unit_flags'][u] & UF_FOUGHT:
        return cf2
    if not counter and U_TEMPLAR[u] != 0:
        return 2 * cf2
    if not counter and side_has_superhero(S, b, s['bat_att']) and not stack_has_superhero(S, b, h):
        return cf2
    inside = k_from_bottom < STRUCTURE_UNITS and not herd_at_or_below(S, b, u) \
        and not outside_structure(S, b, u)      # neutral units and giants too (L458, L472)
    g = ground(S, b, h)
    mult2 = HEX_MELEE_IN2[g] if inside else HEX_MELEE_OUT2[g]
    return cf2 * int(mult2) // 2


@rules_jit
def herd_at_or_below(S, b, u):
    """Unit u is a herd, a dragon or a giant, or stacked above one: outside any
    structure (L458, L472)."""
    s = S[b]
    h = s['unit_hex'][u]
    for v in range(units_end(S, b)):
        if (U_HERD[v] != 0 or is_dragon(v) or U_GIANT[v] != 0) and s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == h \
                and s['unit_order'][v] <= s['unit_order'][u]:
            return True
    return False


@rules_jit
def strike(S, b, counter):
    """The attack (or counter-attack): the CF total against the Attack Table,
    the die reduced by 1 in rain (L582, L584); the loss is then taken."""
    s = S[b]
    total = side_strength(S, b, counter, True)
    loss = 0
    if total > 0:
        r = d6(S, b)
        if s['rain']:
            r -= 1
        loss = attack_loss(total, r)
    s['loss_left'] = 2 * loss
    if counter:
        s['def_total'] = total
    else:
        s['att_total'] = total
    s['step'] = CS_COUNTER_TAKE if counter else CS_ATTACK_TAKE


@rules_jit
def melee_casualties(S, b, counter, mask):
    """mask[A_UNIT + u] = 1 for each unit the striking side may take next: the
    top of a struck stack whose casualty value the loss left still covers
    (L582, L586). Returns how many."""
    s = S[b]
    struck = s['bat_att'] if counter else s['bat_def']
    striking = s['bat_def'] if counter else s['bat_att']
    out = np.empty(NUM_UNITS, np.int64)
    n = 0
    goat = -1
    for k in range(struck.shape[0]):
        h = struck[k]
        if h < 0:
            continue
        m = stack_at(S, b, h, out)
        for j in range(m):
            # from the top down, disembodied spirits (and neutral herds, no one's)
            # bypassed; a herd or a zero-MF unit may be taken or bypassed (L586)
            u = out[j]
            if U_SPIRIT[u, side_of(S, b, u)] != 0 or neutral_herd(S, b, u):
                continue
            if casualty_value2(S, b, u, m - 1 - j, counter) <= s['loss_left']:
                n += 1
                if raging_against(S, b, u, striking):
                    goat = u
                if mask.shape[0] > 1:
                    mask[A_UNIT + u] = 1
            if not U_HERD[u] and not zero_mf(S, b, u):
                break
    if goat >= 0 and mask.shape[0] > 1:
        # a scapegoat that can be picked must be (L656)
        for u in range(units_end(S, b)):
            mask[A_UNIT + u] = 0
        mask[A_UNIT + goat] = 1
    return n


@rules_jit
def any_melee_casualty(S, b, counter):
    dummy = np.zeros(1, np.int8)
    return melee_casualties(S, b, counter, dummy) > 0


@rules_jit
def mask_casualty(S, b, p, mask):
    s = S[b]
    melee_casualties(S, b, p != s['active'], mask)


@rules_jit
def act_casualty(S, b, p, a):
    """Unit a is eliminated; its value comes off the loss (L586, L588)."""
    s = S[b]
    counter = p != s['active']
    u = a - A_UNIT
    out = np.empty(NUM_UNITS, np.int64)
    n = stack_at(S, b, s['unit_hex'][u], out)
    pos = 0
    while out[n - 1 - pos] != u:
        pos += 1
    s['loss_left'] -= casualty_value2(S, b, u, pos, counter)
    if U_HERD[u]:
        capture_in_melee(S, b, u, p, counter)
    else:
        eliminate(S, b, u)
    return False


@rules_jit
def capture_in_melee(S, b, u, p, counter):
    """Herd u, a melee casualty, is captured by the striking player p: moved to
    the first of his battle stacks (in the order they joined the battle)
    whose units fought in this strike (L586; Interpretations)."""
    s = S[b]
    striking = s['bat_def'] if counter else s['bat_att']
    to = -1
    for k in range(striking.shape[0]):
        g = striking[k]
        if g < 0:
            continue
        for v in range(units_end(S, b)):
            if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == g and s['unit_flags'][v] & UF_FOUGHT:
                to = g
                break
        if to >= 0:
            break
    if to < 0:
        stampede(S, b, u)       # no stack of his fought: nowhere to take it (not met in play)
        return
    capture(S, b, u, p)
    put_on_top(S, b, u, to)
    s['unit_flags'][u] = UF_USED


@rules_jit
def side_left(S, b, arr):
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and in_list(arr, s['unit_hex'][u]):
            return True
    return False


# ================================================================ retreats
@rules_jit
def fastest_attacker(S, b):
    """The highest MF among the attacking units that fight (L578)."""
    s = S[b]
    out = np.empty(NUM_UNITS, np.int64)
    fights = np.zeros(NUM_UNITS, np.int8)
    best = 0
    for k in range(MAX_BATTLE_STACKS):
        h = s['bat_att'][k]
        if h < 0:
            continue
        n = fighting_units(S, b, h, out, fights)
        for j in range(n):
            if fights[j]:
                mf = int(retreat_mf(S, b, out[j]))     # the Spirit of Movement doubles it (L896)
                if mf > best:
                    best = mf
    return best


@rules_jit
def retreat_hexes(S, b, u, occ, mask):
    """The hexes unit u may retreat into: one hex away, on the board, not a
    lake, not beside (or in) a hex of another player's units (L577) -- nor the
    giants', inactive to all (L918). Returns
    how many (marked in ``mask`` when it has room)."""
    s = S[b]
    h = s['unit_hex'][u]
    foes = foes_of(force_of(S, b, u))
    n = 0
    pair = pair_hex_barred(S, b, u)       # Argrath and his giant stack with no other unit (L686)
    for d in range(1, 7):
        g = HEX_STEP[h, d]
        if g < 0 or HEX_TERRAIN[g] == TERRAIN_LAKE or hostile(occ[g], foes) or adjacent_to_foe(occ, g, foes) \
                or occ[g] == OCC_GIANTS or adjacent_to_force(occ, g, OCC_GIANTS) or shut(S, b, g) or g == pair:
            continue
        if zero_mf(S, b, u) and retreat_carrier(S, b, u, g, -1) == 0:
            continue      # it cannot move itself: only carried, where a carrier of its stack went (L462, L578)
        n += 1
        if mask.shape[0] > 1:
            mask[A_HEX + g] = 1
    return n


@rules_jit
def may_retreat(S, b, u, occ, total, fastest):
    """Unit u of a defending stack may retreat now (L575-L578): not a hero, not
    in a superhero's stack; a slow unit (no faster than every fighting
    attacker) leaves at least one unit behind whose CFs make a sixth of the
    attack; a fast one needs no cover unless a slow one already relied on it."""
    s = S[b]
    if s['unit_where'][u] != UW_MAP or s['unit_flags'][u] & UF_RETREATED or neutral_herd(S, b, u):
        return False      # a neutral herd in the stack is no one's to retreat (L594)
    if is_zombie(u):
        return False      # defending zombies cannot retreat (L829)
    h = s['unit_hex'][u]
    k = 0
    while k < MAX_BATTLE_STACKS and s['bat_def'][k] != h:
        k += 1
    if k == MAX_BATTLE_STACKS:
        return False
    if U_RANK[u] != RANK_NONE or stack_has_superhero(S, b, h):
        return False
    if frozen(S, b, u):
        return False      # Ironhoof froze the cavalry (L782)
    if raging_against(S, b, u, s['bat_att']):
        return False      # the scapegoat cannot retreat from its superhero (L656)
    if may_not_retreat(S, b, u):
        return False      # Argrath and the giant he controls, stacked (L686)
    dummy = np.zeros(1, np.int8)
    if retreat_hexes(S, b, u, occ, dummy) == 0:
        return False
    fast = retreat_mf(S, b, u) > fastest or carried_fast(S, b, u, occ, fastest)
    if fast and not s['bat_slow'][k]:
        return True
    return covered(S, b, u, h, total)


@rules_jit
def covered(S, b, u, h, total):
    """Unit u may leave the defending stack at h as a slow retreat: at least one
    unit stays behind, whose CFs make a sixth of the attack (L578)."""
    s = S[b]
    left = 0
    others = 0
    for v in range(units_end(S, b)):
        if v != u and s['unit_hex'][v] == h and (s['unit_where'][v] == UW_MAP or s['unit_where'][v] == UW_SUPPORT) \
                and not U_HERD[v]:     # a herd cannot cover a retreat (L578)
            others += 1               # a supporting spirit stays: it cannot be retreated (L508)
            if s['unit_where'][v] == UW_MAP:
                left += cf_halves(S, b, v)
    return others > 0 and left * COVER_DIVISOR >= 2 * total - blocked_by_spirits(S, b, h)


@rules_jit
def blocked_by_spirits(S, b, h):
    """The attack's CF (in halves) the spirits supporting the defending stack at h
    block: any group of fighting attackers whose MgF total is at most theirs
    (L578), the group that blocks the most (a 0/1 knapsack over MgF halves)."""
    s = S[b]
    cap = 0
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_SUPPORT and s['unit_hex'][v] == h:
            cap += mgf_halves(S, b, v)
    if cap <= 0:
        return 0
    if cap > MAX_BLOCK2:
        cap = MAX_BLOCK2
    contrib = np.empty(NUM_UNITS, np.int64)
    strength_by_unit(S, b, False, False, contrib)
    best = local_zeros(BLOCK_SLOTS, np.int64)
    for u in range(units_end(S, b)):
        if contrib[u] <= 0:
            continue
        w = mgf_halves(S, b, u)
        if w < 0:
            w = 0
        if w > cap:
            continue
        for c in range(cap, w - 1, -1):
            if best[c - w] + contrib[u] > best[c]:
                best[c] = best[c - w] + contrib[u]
    return best[cap]


BLOCK_SLOTS = 256
MAX_BLOCK2 = BLOCK_SLOTS - 1
"""The largest spirits' MgF (in halves) a covering search considers."""


@rules_jit
def retreaters(S, b, mask):
    """mask[A_UNIT + u] = 1 for each defending unit that may retreat now
    (:func:`may_retreat`; marked when ``mask`` has room). Returns how many."""
    occ, zoc = whole_board(S, b)
    total = side_strength(S, b, False, False)
    fastest = fastest_attacker(S, b)
    n = 0
    for u in range(units_end(S, b)):
        if may_retreat(S, b, u, occ, total, fastest):
            n += 1
            if mask.shape[0] > 1:
                mask[A_UNIT + u] = 1
    return n


@rules_jit
def any_retreat(S, b):
    return retreaters(S, b, np.zeros(1, np.int8)) > 0


@rules_jit
def mask_retreat(S, b, p, mask):
    retreaters(S, b, mask)
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_retreat(S, b, p, a):
    """Unit a will retreat (then where); ``CH_DONE``: no more retreats."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        s['step'] = CS_ATTACK
        return False
    s['cursor'] = a - A_UNIT
    return pose(S, b, PH_RETREAT_HEX, p)


@rules_jit
def mask_retreat_hex(S, b, p, mask):
    occ, zoc = whole_board(S, b)
    retreat_hexes(S, b, int(S[b]['cursor']), occ, mask)
    only_fast_carriers(S, b, int(S[b]['cursor']), mask)


@rules_jit
def act_retreat_hex(S, b, p, a):
    """The unit retreats one hex and is out of the battle (L576)."""
    s = S[b]
    u = int(s['cursor'])
    h = s['unit_hex'][u]
    k = 0
    while s['bat_def'][k] != h:
        k += 1
    fastest = fastest_attacker(S, b)
    if retreat_mf(S, b, u) <= fastest and retreat_carrier(S, b, u, a - A_HEX, fastest) < 2:
        s['bat_slow'][k] = 1          # (a zero-MF unit carried by a fast unit is not slow, L578)
    put_on_top(S, b, u, a - A_HEX)
    s['unit_flags'][u] |= UF_RETREATED
    s['unit_retreat_k'][u] = k
    occupy(S, b, p, a - A_HEX)
    return False


# ================================================================ advance after combat
@rules_jit
def mark_vacated(S, b):
    """The defending hexes the melee emptied (L600)."""
    s = S[b]
    for k in range(MAX_BATTLE_STACKS):
        h = s['bat_def'][k]
        s['bat_vacated'][k] = h if h >= 0 and stands_at(S, b, h) < 0 else -1


@rules_jit
def may_advance(S, b, u):
    """Unit u of an attacking stack may advance: not disrupted, not yet, not
    frozen; giants never (Interpretations 148)."""
    s = S[b]
    return s['unit_where'][u] == UW_MAP and in_list(s['bat_att'], s['unit_hex'][u]) \
        and not is_disrupted(S, b, u) and not s['unit_flags'][u] & UF_ADVANCED \
        and force_of(S, b, u) == s['active'] and not frozen(S, b, u) and not U_GIANT[u]


@rules_jit
def any_advance(S, b):
    s = S[b]
    if count_of(s['bat_vacated']) == 0:
        return False
    for u in range(units_end(S, b)):
        if may_advance(S, b, u):
            return True
    return False


@rules_jit
def mask_advance(S, b, p, mask):
    for u in range(units_end(S, b)):
        if may_advance(S, b, u):
            mask[A_UNIT + u] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_advance(S, b, p, a):
    """Unit a advances (then where); ``CH_DONE``: no more advances."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        s['step'] = CS_REORG_ATT
        s['cursor'] = 0
        return False
    s['adv_unit'] = a - A_UNIT
    return pose(S, b, PH_ADVANCE_HEX, p)


@rules_jit
def mask_advance_hex(S, b, p, mask):
    s = S[b]
    for k in range(MAX_BATTLE_STACKS):
        h = s['bat_vacated'][k]
        if h >= 0 and not hostile(stands_at(S, b, h), foes_of(p)):
            mask[A_HEX + h] = 1


@rules_jit
def attacks_later(S, b, h, occ):
    """Hex h holds an active stack that has not fought beside an inactive
    stack that has not either: it will attack later this phase (L600)."""
    s = S[b]
    if occ[h] != s['active'] or stack_used(S, b, h):
        return False
    for d in range(1, 7):
        g = HEX_STEP[h, d]
        if g >= 0 and hostile(occ[g], foes_of(int(s['active']))) and not stack_used(S, b, g):
            return True
    return False


@rules_jit
def extended_hexes(S, b, u, mask):
    """Where unit u may make an extended advance from its vacated hex (L600):
    only with MF 5 or more, only if that hex is beside no enemy stack, into a
    neighbour that is not forest (hill/forest included), marsh, lake or
    mountain, holds no enemy, and holds no stack of its own that will attack
    later. Returns how many."""
    s = S[b]
    if mf_of(S, b, u) < EXTENDED_ADVANCE_MF:
        return 0
    occ, zoc = whole_board(S, b)
    h = s['unit_hex'][u]
    p = force_of(S, b, u)
    if adjacent_to_foe(occ, h, foes_of(p)) or adjacent_to_force(occ, h, OCC_GIANTS):
        return 0          # the giants are inactive to both players: beside them it stops too (L918)
    n = 0
    pair = pair_hex_barred(S, b, u)       # Argrath and his giant stack with no other unit (L686)
    for d in range(1, 7):
        g = HEX_STEP[h, d]
        if g < 0 or hostile(stands_at(S, b, g), foes_of(p)) or stands_at(S, b, g) == OCC_GIANTS or shut(S, b, g) \
                or g == pair:
            continue          # an enemy's herds alone do not bar it: it captures them (L600)
        ter = HEX_TERRAIN[ground(S, b, g)]
        if ter == TERRAIN_FOREST or ter == TERRAIN_HILL_FOREST or ter == TERRAIN_MARSH or ter == TERRAIN_LAKE \
                or ter == TERRAIN_MOUNTAIN:
            continue
        if attacks_later(S, b, g, occ):
            continue
        n += 1
        if mask.shape[0] > 1:
            mask[A_HEX + g] = 1
    return n


@rules_jit
def act_advance_hex(S, b, p, a):
    s = S[b]
    u = int(s['adv_unit'])
    put_on_top(S, b, u, a - A_HEX)
    s['unit_flags'][u] |= UF_ADVANCED
    occupy(S, b, p, a - A_HEX)
    # herds where an advance stops capture (L600); taken on entering, as one hex
    # holds one player's units (Interpretations)
    capture_herds_at(S, b, a - A_HEX, p)
    dummy = np.zeros(1, np.int8)
    if extended_hexes(S, b, u, dummy) > 0:
        return pose(S, b, PH_ADVANCE_EXT, p)
    s['adv_unit'] = -1
    return False


@rules_jit
def mask_advance_ext(S, b, p, mask):
    extended_hexes(S, b, int(S[b]['adv_unit']), mask)
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_advance_ext(S, b, p, a):
    s = S[b]
    u = int(s['adv_unit'])
    if a != A_CHOICE + CH_DONE:
        put_on_top(S, b, u, a - A_HEX)
        occupy(S, b, p, a - A_HEX)
        capture_herds_at(S, b, a - A_HEX, p)       # where the extended advance ends (L600)
    s['adv_unit'] = -1
    return False



# ================================================================ carrying zero-MF units in a retreat (L462, L578)
@rules_jit
def retreat_carrier(S, b, u, g, fastest):
    """Zero-MF unit u (``base.zero_mf``) may be carried into hex g by a unit
    that retreated there from u's stack in this battle and can carry it
    (``base.can_carry``; Hungry Jack only by a dragon, L870): 2 if such a
    carrier is faster than ``fastest`` (the fastest fighting attacker), 1 if
    only slower ones, 0 if none (L462, L578). 0 for a unit that moves itself."""
    s = S[b]
    if not zero_mf(S, b, u):
        return 0
    h = s['unit_hex'][u]
    best = 0
    for c in range(units_end(S, b)):
        if s['unit_where'][c] != UW_MAP or s['unit_hex'][c] != g or not s['unit_flags'][c] & UF_RETREATED:
            continue
        if s['bat_def'][s['unit_retreat_k'][c]] != h or not can_carry(S, b, c, u):
            continue
        got = 2 if retreat_mf(S, b, c) > fastest else 1
        if got > best:
            best = got
    return best


@rules_jit
def carried_fast(S, b, u, occ, fastest):
    """Zero-MF unit u can be carried off by a unit of its stack faster than
    every fighting attacker, which retreated into a hex u may retreat into:
    like its carrier, it needs no cover (L578: 'Defending units that are faster
    than all of the attacking units, and any zero MF units that they want to
    carry, can always retreat')."""
    if not zero_mf(S, b, u):
        return False
    mask = np.zeros(A_UNIT, np.int8)
    if retreat_hexes(S, b, u, occ, mask) == 0:
        return False
    h = S[b]['unit_hex'][u]
    for d in range(1, 7):
        g = HEX_STEP[h, d]
        if g >= 0 and mask[A_HEX + g] and retreat_carrier(S, b, u, g, fastest) == 2:
            return True
    return False


@rules_jit
def only_fast_carriers(S, b, u, mask):
    """Zero-MF unit u, about to retreat, whose stack does not cover a slow
    retreat: it goes only with a fast carrier (L578, as ``may_retreat`` allowed
    it), so the hexes where only slow ones went are struck from ``mask``."""
    s = S[b]
    if not zero_mf(S, b, u):
        return
    h = s['unit_hex'][u]
    k = 0
    while s['bat_def'][k] != h:
        k += 1
    if covered(S, b, u, h, side_strength(S, b, False, False)):
        return
    fastest = fastest_attacker(S, b)
    for d in range(1, 7):
        g = HEX_STEP[h, d]
        # uncovered, it goes only with a fast carrier, and only while no slow retreat relied on cover (L578)
        if g >= 0 and mask[A_HEX + g] and (s['bat_slow'][k] or retreat_carrier(S, b, u, g, fastest) < 2):
            mask[A_HEX + g] = 0
