"""Magic in the combat phase (L492-L557, L602-L605, L650): the spirits and
physical agents magicians commit before the battles (combat phase A), the
chaotic, physical and spirit magic steps of a battle (steps 2-4), and the
magical support spirits give after the battles (combat phase C).

A magician's spirit or agent lives in its holding box (``UW_HOLDING``). In
phase A the active player commits it to an inactive stack within its
magician's RF (``UW_COMMITTED``, ``unit_hex`` the target): placed there, not
moved, so zones of control do not matter (L496, L1012). A committed spirit or
agent must take part in the attack on that stack (L496, L512, L582): the
combat phase does not end while that stack can still be attacked. In the
battle, the agents on its defending stacks strike by physical magic, one
stack at a time (L520), and go home (L524); the spirits strike by spirit
magic (L540), the defender answers with Defensive Spirit Magic (L542), the
losses are chosen on both sides (L544-L554), and the survivors go home
(L556). Chaotic units eliminate units on both sides, the attacker choosing
(L516-L518). In phase C the attacker may set spirits atop his own stacks as
magical support (``UW_SUPPORT``, L508, L604): there they defend with DSM,
their magicians may not (L508, L542), and they go home at the start of their
side's next movement phase (L508).

Casualties are chosen one at a time, as in melee (Interpretations 7): a unit
is taken only while its value fits the loss left, and the side must keep
taking while one fits. Superheroes are never casualties of chaotic or spirit
magic, and each saves up to three units of its stack, its best friend first
(L650, L1024); the units beyond three are chosen by its owner.
"""
import numpy as np

from dragongym.envs.core.jit import local_zeros, rules_jit
from ..board import HEX_RIVER, HEX_STEP, NUM_HEXES
from ..constants import (
    NUM_UNITS, RANK_SUPERHERO, UF_ATTACKED, UF_EXOTIC, UF_SAVED, UF_USED, UW_COMMITTED, UW_DEAD, UW_HOLDING,
    UW_MAP, UW_SUPPORT,
)
from .base import outside_structure
from ..constants import OCC_GIANTS
from .base import (
    A_CHOICE, A_HEX, A_UNIT, DELECTI, NUM_ZOMBIES, ZOMBIE_1, CH_DONE, CH_REVEAL, CRIMSON_BAT, HEX_PHYS_IN2, HEX_PHYS_OUT2, INFINITE_MGF, PH_COMMIT, PH_COMMIT_HEX,
    PH_MAGIC_CASUALTY, PH_REVEAL, PH_SAVE, PH_SUPPORT, PH_SUPPORT_HEX, STRUCTURE_UNITS, U_AGENT, best_friend, U_BOUND,
    force_of, units_end, U_MAGICIAN, U_RANK, U_RF, U_SPIRIT, attack_loss, bat_kill, berserk, d6, distance, mgf_of,
    eliminate, ground, hex_force, in_list, pose, rf_of, stack_at, U_HERD, neutral_herd, stampede, mgf_doubled,
    dragon_at, is_dragon, foes_of, hostile,
)
from .quake import quake_strikes
from .pillar import pillar_strikes
from .dragons import jack_aide_now
from .moon import (
    ARGRATH_UNIT, REVEAL_ARGRATH, REVEAL_BAT, U_CF_CYCLIC, U_MGF_CYCLIC, cf_halves, cyclic_value, mgf_halves,
)

# what ``magic_kind`` says the casualties being chosen are (PH_MAGIC_CASUALTY)
MK_CHAOTIC_DEF = 1     # defending units the attacker's chaotic units eliminate (L518)
MK_CHAOTIC_ATT = 2     # attacking units the defender's chaotic units eliminate, chosen by the attacker (L518)
MK_PHYSICAL = 3        # the defending stack ``magic_hex``'s CF loss to physical magic (L520)
MK_SPIRIT_DEF = 4      # the defenders' MgF loss to spirit magic, chosen by the attacker (L548)
MK_SPIRIT_ATT = 5      # the attacking spirits' MgF loss to DSM, chosen by the defender (L550)

MS_REVEAL_BAT, MS_REVEAL_ARGRATH, MS_SAVE, MS_CHAOTIC, MS_CHAOTIC_DEF, MS_CHAOTIC_ATT, MS_PHYSICAL, MS_PHYS_TAKE, \
    MS_SPIRIT, MS_SPIRIT_DEF, MS_SPIRIT_ATT, MS_DONE = range(12)
"""The battle's magic steps (``magic_step``): with screening, the Bat's and
Argrath's owners may reveal them where that changes the battle's cyclic
values (L666, L668); superheroes' invulnerability settled, chaotic magic
counted and its two sides' casualties, physical magic stack by stack and its
casualties, spirit magic rolled and its two sides' casualties, then the
spirits and agents go home."""


@rules_jit
def on_side(S, b, u, defender):
    """Unit u is a unit of the battle's defending (attacking) stacks on the map,
    or a spirit supporting a defending stack (L508), not retreated."""
    s = S[b]
    w = s['unit_where'][u]
    if w != UW_MAP and not (defender and w == UW_SUPPORT):
        return False
    return in_list(s['bat_def'] if defender else s['bat_att'], s['unit_hex'][u])


@rules_jit
def committed_here(S, b, u):
    """Spirit or agent u is committed to one of the battle's defending stacks."""
    s = S[b]
    return s['unit_where'][u] == UW_COMMITTED and in_list(s['bat_def'], s['unit_hex'][u])


# ================================================================ phase A: commitment
@rules_jit
def may_send(S, b, u, support):
    """Spirit or agent u of the active force can be sent out now: in its
    holding box, its magician on the map with an RF of 1 or more (L496; a
    disrupted magician's RF of 0 reaches nothing; a disrupted spirit may go,
    L496). To support, only spirits: agents never support (L604)."""
    s = S[b]
    m = U_MAGICIAN[u]
    if m < 0 or force_of(S, b, u) != s['active'] or s['unit_where'][u] != UW_HOLDING or (support and U_AGENT[u]):
        return False
    if s['unit_flags'][u] & UF_EXOTIC:
        return False                      # the Crater Makers' agent after a Meteor Storm (L710)
    if jack_aide_now(S, b, m):
        return False                      # it aided Hungry Jack this game-turn (L872)
    return s['unit_where'][m] == UW_MAP and rf_of(S, b, m) >= 1


@rules_jit
def attackable(S, b, h, p):
    """Hex h holds a stack of an enemy of force p that p can still attack: one of
    its stacks with a CF, not yet fought, stands beside it and h has not been
    fought either (a spirit cannot be the only attacker, L512)."""
    s = S[b]
    if not hostile(hex_force(S, b, h), foes_of(p)) and hex_force(S, b, h) != OCC_GIANTS:
        return False          # giants may be attacked as the enemy (Interpretations 162)
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h and s['unit_flags'][u] & UF_USED:
            return False
    for d in range(1, 7):
        g = HEX_STEP[h, d]
        if g < 0:
            continue
        for v in range(units_end(S, b)):
            if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == g and force_of(S, b, v) == p \
                    and not s['unit_flags'][v] & UF_USED and not U_SPIRIT[v, int(s['unit_side'][v])]:
                return True
    return False


@rules_jit
def send_targets(S, b, u, mask, support):
    """mask[A_HEX + h] = 1 for each stack within the RF of u's magician that u
    may go to: an inactive stack that can still be attacked (L496), or to
    support, a stack of its own side (L604; Interpretations 32). Returns how many."""
    s = S[b]
    m = U_MAGICIAN[u]
    hm = s['unit_hex'][m]
    rf = rf_of(S, b, m)
    p = force_of(S, b, u)
    n = 0
    seen = local_zeros(NUM_HEXES, np.int8)
    for v in range(units_end(S, b)):
        if s['unit_where'][v] != UW_MAP or (force_of(S, b, v) == p) != support:
            continue
        h = s['unit_hex'][v]
        if seen[h]:
            continue
        seen[h] = 1
        if distance(hm, h) <= rf and (support or attackable(S, b, h, p)):
            n += 1
            if mask.shape[0] > 1:
                mask[A_HEX + h] = 1
    return n


@rules_jit
def any_send(S, b, support):
    dummy = np.zeros(1, np.int8)
    for u in range(units_end(S, b)):
        if may_send(S, b, u, support) and send_targets(S, b, u, dummy, support) > 0:
            return True
    return False


@rules_jit
def mask_send(S, b, mask, support):
    dummy = np.zeros(1, np.int8)
    for u in range(units_end(S, b)):
        if may_send(S, b, u, support) and send_targets(S, b, u, dummy, support) > 0:
            mask[A_UNIT + u] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def mask_commit(S, b, p, mask):
    mask_send(S, b, mask, False)


@rules_jit
def act_commit(S, b, p, a):
    """Spirit or agent a is to be committed (its target next); ``CH_DONE``:
    no more commitments, the battles are declared (L498)."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        s['magic_kind'] = 0
        return False
    s['cursor'] = a - A_UNIT
    return pose(S, b, PH_COMMIT_HEX, p)


@rules_jit
def mask_commit_hex(S, b, p, mask):
    send_targets(S, b, int(S[b]['cursor']), mask, False)


@rules_jit
def act_commit_hex(S, b, p, a):
    """The spirit or agent ``cursor`` is placed atop the stack at hex a (L496)."""
    s = S[b]
    u = int(s['cursor'])
    s['unit_where'][u] = UW_COMMITTED
    s['unit_hex'][u] = a - A_HEX
    return pose(S, b, PH_COMMIT, p) if any_send(S, b, False) else end_commitment(S, b)


@rules_jit
def end_commitment(S, b):
    S[b]['magic_kind'] = 0
    return False


@rules_jit
def commitment_step(S, b):
    """Phase A: pose the commitment while some spirit or agent can be
    committed; True if posed. ``magic_kind`` is 1 while phase A lasts."""
    s = S[b]
    if s['magic_kind'] == 1 and any_send(S, b, False):
        return pose(S, b, PH_COMMIT, int(s['active']))
    s['magic_kind'] = 0
    return False


@rules_jit
def unattacked_commitment(S, b, p):
    """A stack some committed spirit or agent of force p waits on that can
    still be attacked (L496: it must take part in that attack): its hex, -1."""
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_COMMITTED and force_of(S, b, u) == p and attackable(S, b, int(s['unit_hex'][u]), p):
            return int(s['unit_hex'][u])
    return -1


@rules_jit
def send_home(S, b, agents, spirits, battle_only):
    """Committed agents and/or spirits go back to their holding boxes: those of
    the battle (``battle_only``) or all (L524, L556; one never able to attack
    its stack, at the end of the phase, Interpretations 32)."""
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] != UW_COMMITTED:
            continue
        if (U_AGENT[u] and not agents) or (not U_AGENT[u] and not spirits):
            continue
        if battle_only and not in_list(s['bat_def'], s['unit_hex'][u]):
            continue
        s['unit_where'][u] = UW_HOLDING
        s['unit_hex'][u] = -1
        s['unit_flags'][u] &= ~UF_ATTACKED


# ================================================================ magic invulnerability
@rules_jit
def magic_saver(S, b, g, mode):
    """Unit g, on the map, saves up to 3 units of its stack from the magic at
    hand (``mode`` of ``struck``): a superhero (L650, L678), or a dragon from
    exotic magic (L678; in a battle a dragon's whole stack is immune, L849)."""
    if S[b]['unit_where'][g] != UW_MAP:
        return False
    return U_RANK[g] == RANK_SUPERHERO or (mode != 0 and is_dragon(g))


@rules_jit
def savers_at(S, b, h, mode):
    n = 0
    for g in range(units_end(S, b)):
        if magic_saver(S, b, g, mode) and S[b]['unit_hex'][g] == h:
            n += 1
    return n


@rules_jit
def saved_count(S, b, g):
    """Units of superhero g's stack that its magic invulnerability covers now
    (the saves of every superhero and dragon there, counted together)."""
    s = S[b]
    n = 0
    for v in range(units_end(S, b)):
        if v != g and s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == s['unit_hex'][g] \
                and s['unit_flags'][v] & UF_SAVED:
            n += 1
    return n


@rules_jit
def struck(S, b, h, mode):
    """Hex h is struck by the magic at hand: ``mode`` 0 a stack of the battle;
    1 the hex ``exotic_hex``; 2 that hex or a neighbour; 3 a river hex (the
    flood, L688); 4 a fracture hex of the earthquake or a hex it encloses (L720); 5 a
    hex of the Pillar of Fire (L764)."""
    s = S[b]
    if mode == 0:
        return in_list(s['bat_def'], h) or in_list(s['bat_att'], h)
    if mode == 1:
        return h == s['exotic_hex']
    if mode == 2:
        return distance(h, s['exotic_hex']) <= 1
    if mode == 4:
        return quake_strikes(S, b, h)
    if mode == 5:
        return pillar_strikes(S, b, h)
    return HEX_RIVER[h] != 0


@rules_jit
def saving_superhero(S, b, mode):
    """A superhero in a hex the magic strikes (``struck``) whose magic
    invulnerability (L650, L678) still has units to cover and a choice among
    more than it can cover; the automatic cases (its best friend first, then
    all when three or fewer are left) are settled here. Returns the
    superhero, -1 when none is left to choose."""
    s = S[b]
    for g in range(units_end(S, b)):
        if not magic_saver(S, b, g, mode):
            continue
        h = s['unit_hex'][g]
        if not struck(S, b, h, mode):
            continue
        f = best_friend(S, b, g)
        if f >= 0 and s['unit_where'][f] == UW_MAP and s['unit_hex'][f] == h and not s['unit_flags'][f] & UF_SAVED:
            s['unit_flags'][f] |= UF_SAVED
        # each superhero and dragon of the stack covers three (Interpretations 103)
        room = 3 * savers_at(S, b, h, mode) - saved_count(S, b, g)
        left = 0
        for v in range(units_end(S, b)):
            if v != g and U_RANK[v] != RANK_SUPERHERO and not is_dragon(v) and s['unit_where'][v] == UW_MAP \
                    and s['unit_hex'][v] == h and not s['unit_flags'][v] & UF_SAVED:
                left += 1
        if room <= 0 or left == 0:
            continue
        if left <= room:
            for v in range(units_end(S, b)):
                if v != g and U_RANK[v] != RANK_SUPERHERO and not is_dragon(v) and s['unit_where'][v] == UW_MAP \
                        and s['unit_hex'][v] == h:
                    s['unit_flags'][v] |= UF_SAVED
            continue
        return g
    return -1


@rules_jit
def mask_save(S, b, p, mask):
    s = S[b]
    g = int(s['cursor'])
    h = s['unit_hex'][g]
    for v in range(units_end(S, b)):
        if v != g and U_RANK[v] != RANK_SUPERHERO and not is_dragon(v) and s['unit_where'][v] == UW_MAP \
                and s['unit_hex'][v] == h and not s['unit_flags'][v] & UF_SAVED:
            mask[A_UNIT + v] = 1


@rules_jit
def act_save(S, b, p, a):
    """Unit a is one of the three its superhero's invulnerability covers (L650)."""
    S[b]['unit_flags'][a - A_UNIT] |= UF_SAVED
    return False


@rules_jit
def magic_proof(S, b, u):
    """Unit u cannot be a casualty of chaotic or spirit magic: a superhero, or
    a unit its superhero saves (L650), or an infinite MgF (L406, L554)."""
    s = S[b]
    if U_RANK[u] == RANK_SUPERHERO or s['unit_flags'][u] & UF_SAVED:
        return True
    return mgf_of(S, b, u) >= INFINITE_MGF


# ================================================================ the battle's magic steps
@rules_jit
def magic_roll(S, b, total):
    """The Attack Table's loss for a magic total (the die reduced by 1 in rain, L466)."""
    if total <= 0:
        return 0
    roll = d6(S, b) - (1 if S[b]['rain'] else 0)
    return attack_loss(total, roll)


@rules_jit
def chaotic_count(S, b, defender):
    """Units the chaotic units of one side of the battle eliminate: the sum of
    their negative MgFs (L516; chaotic magic is simultaneous, L518)."""
    s = S[b]
    n = 0
    for u in range(units_end(S, b)):
        if on_side(S, b, u, defender) and s['unit_where'][u] == UW_MAP:
            m = mgf_of(S, b, u)
            if m < 0:
                # doubled by the Alchemical Transformer: it devours twice as many (L857)
                n -= 2 * m if mgf_doubled(S, b, u) else m
    return n


@rules_jit
def chaotic_reaches_spirits(S, b, defender):
    """Some chaotic unit of that side has a non-blank RF: it may eliminate
    disembodied spirits (L520)."""
    s = S[b]
    for u in range(units_end(S, b)):
        if on_side(S, b, u, defender) and s['unit_where'][u] == UW_MAP \
                and mgf_of(S, b, u) < 0 and U_RF[u, int(s['unit_side'][u])] >= 0:
            return True
    return False


@rules_jit
def chaotic_target(S, b, u, defender):
    """Unit u may be eliminated by the chaotic units of the other side: on the
    struck side (the attacking side's committed spirits included, L520), not a
    herd, treasure or agent, not magic-proof; a disembodied spirit only if a
    chaotic unit with a non-blank RF strikes (L520)."""
    s = S[b]
    w = s['unit_where'][u]
    if defender:
        if not on_side(S, b, u, True):
            return False
    elif not (on_side(S, b, u, False) or (committed_here(S, b, u) and not U_AGENT[u])):
        return False
    if U_AGENT[u] or magic_proof(S, b, u) or U_HERD[u] != 0:
        return False      # chaotic magic cannot eliminate herds (L524)
    if U_SPIRIT[u, int(s['unit_side'][u])] or w == UW_COMMITTED or w == UW_SUPPORT:
        return chaotic_reaches_spirits(S, b, not defender)
    return True


@rules_jit
def agents_on(S, b, h):
    """The CF total of the committed agents on the stack at h, fractions dropped (L520)."""
    s = S[b]
    t2 = 0
    for u in range(units_end(S, b)):
        if U_AGENT[u] and s['unit_where'][u] == UW_COMMITTED and s['unit_hex'][u] == h:
            t2 += cf_halves(S, b, u)
    return t2 // 2


@rules_jit
def phys_value2(S, b, u):
    """Twice the CF loss unit u absorbs as a physical magic casualty: its CF
    times the Phys Magic multiplier of its hex, the structure's for the bottom
    three units (L335-L355, L348, L520), unless a herd is at or below it: herds
    and the units above them are outside structures (L458, L472)."""
    s = S[b]
    if ZOMBIE_1 <= u < ZOMBIE_1 + NUM_ZOMBIES:
        return 4                  # a zombie absorbs 2, whatever the terrain (L829)
    h = s['unit_hex'][u]
    out = np.empty(NUM_UNITS, np.int64)
    n = stack_at(S, b, h, out)
    k = 0
    while k < n and out[k] != u:
        k += 1
    from_bottom = n - 1 - k
    inside = from_bottom < STRUCTURE_UNITS
    for j in range(k, n):
        if U_HERD[out[j]]:
            inside = False
    if outside_structure(S, b, u):
        inside = False        # a dragon at or below it, a neutral unit, a giant (L458, L472)
    g = ground(S, b, h)
    mult2 = HEX_PHYS_IN2[g] if inside else HEX_PHYS_OUT2[g]
    return cf_halves(S, b, u) * int(mult2) // 2


@rules_jit
def spirits_meet_dragons(S, b):
    """A defending stack of the battle holds a dragon: every spirit committed
    against the battle is eliminated without any effect (L849; those of its
    MgF the spirit attack would have used, Interpretations 101)."""
    s = S[b]
    dragon = False
    for k in range(s['bat_def'].shape[0]):
        if s['bat_def'][k] >= 0 and dragon_at(S, b, int(s['bat_def'][k])):
            dragon = True
    if not dragon:
        return
    for u in range(units_end(S, b)):
        if committed_here(S, b, u) and not U_AGENT[u]:
            s['unit_where'][u] = UW_DEAD
            s['unit_hex'][u] = -1


@rules_jit
def spirit_attack_total(S, b):
    """The MgF total of the spirits committed to the battle's defending stacks
    (L548), and of the attacking side's berserk superheroes unless an opposing
    unit has an infinite MgF (L656); fractions dropped. Marks the attackers."""
    s = S[b]
    t2 = 0
    for u in range(units_end(S, b)):
        if committed_here(S, b, u) and not U_AGENT[u]:
            t2 += mgf_halves(S, b, u)
            s['unit_flags'][u] |= UF_ATTACKED
    if berserk_attack(S, b):
        for u in range(units_end(S, b)):
            if on_side(S, b, u, False) and berserk(S, b, u):
                t2 += mgf_halves(S, b, u)
    return t2 // 2


@rules_jit
def berserk_attack(S, b):
    """A berserk superhero of the attacking stacks attacks in spirit combat: no
    opposing unit has an infinite MgF (L656)."""
    for u in range(units_end(S, b)):
        if on_side(S, b, u, True) and mgf_of(S, b, u) >= INFINITE_MGF:
            return False
    for u in range(units_end(S, b)):
        if on_side(S, b, u, False) and berserk(S, b, u):
            return True
    return False


@rules_jit
def spirit_attacked(S, b, h):
    """The defending stack at h is attacked by spirit magic: a spirit is
    committed to it, or a berserk superhero attacks the battle (L542, L656)."""
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_COMMITTED and s['unit_hex'][u] == h and not U_AGENT[u]:
            return True
    return berserk_attack(S, b)


@rules_jit
def magic_threat(S, b):
    """The battle has chaotic units or a spirit attack, against which the
    superheroes' invulnerability must be settled (L650)."""
    if chaotic_count(S, b, False) > 0 or chaotic_count(S, b, True) > 0:
        return True
    s = S[b]
    for k in range(s['bat_def'].shape[0]):
        if s['bat_def'][k] >= 0 and spirit_attacked(S, b, s['bat_def'][k]):
            return True
    return False


@rules_jit
def may_use_dsm(S, b, u):
    """Unit u of the defending stacks may use Defensive Spirit Magic (L542): its
    stack attacked by spirit magic, an MgF that is not negative, an RF neither
    blank nor parenthesised, and not a magician whose spirit supports a stack (L508)."""
    s = S[b]
    if not on_side(S, b, u, True) or not spirit_attacked(S, b, s['unit_hex'][u]):
        return False
    if mgf_of(S, b, u) < 0 or rf_of(S, b, u) < 0:
        return False
    sp = U_BOUND[u]
    return not (sp >= 0 and s['unit_where'][sp] == UW_SUPPORT)


@rules_jit
def defending_zombie(S, b, spirit_attacked_only):
    """The lowest-numbered zombie among the battle's defenders (in a stack
    attacked by spirit magic, if ``spirit_attacked_only``); -1 if none."""
    s = S[b]
    for z in range(ZOMBIE_1, ZOMBIE_1 + NUM_ZOMBIES):
        if on_side(S, b, z, True) and \
                (not spirit_attacked_only or spirit_attacked(S, b, s['unit_hex'][z])):
            return z
    return -1


@rules_jit
def zombies_mgf2(S, b, counted):
    """Twice Delecti's MgF, which his defending zombies use against spirit
    magic (L827), when they defend and it is not ``counted`` already: 0 if
    there are none, or Delecti himself is ``counted`` among the defenders."""
    if counted or defending_zombie(S, b, False) < 0:
        return 0
    m2 = mgf_halves(S, b, DELECTI)
    return m2 if m2 > 0 else 0


@rules_jit
def dsm_total(S, b):
    t2 = 0
    for u in range(units_end(S, b)):
        if may_use_dsm(S, b, u):
            m2 = mgf_halves(S, b, u)
            t2 += m2 if m2 < 2 * INFINITE_MGF else 2 * INFINITE_MGF
    if defending_zombie(S, b, True) >= 0:
        t2 += zombies_mgf2(S, b, may_use_dsm(S, b, DELECTI))    # zombies defend with Delecti's MgF (L827)
    return t2 // 2


@rules_jit
def nonnegative_mgf(S, b):
    """The MgF total of the defending units with a non-negative MgF (L554)."""
    t2 = 0
    for u in range(units_end(S, b)):
        if on_side(S, b, u, True) and not magic_proof(S, b, u) and mgf_of(S, b, u) > 0:
            t2 += mgf_halves(S, b, u)
    t2 += zombies_mgf2(S, b, on_side(S, b, DELECTI, True))      # the zombies' Delecti's MgF (L827)
    return t2 // 2


@rules_jit
def protected_low(S, b):
    """The defenders' zero- and negative-MgF units are protected: a single
    infinite MgF on their side (L554)."""
    for u in range(units_end(S, b)):
        if on_side(S, b, u, True) and mgf_of(S, b, u) >= INFINITE_MGF:
            return True
    return False


@rules_jit
def casualty_value(S, b, u):
    """What unit u absorbs of the loss being taken, 0 if it cannot be taken
    (``magic_kind``). Chaotic magic: 1 a unit. Physical magic: its CF times
    the Phys Magic multiplier, fractions dropped. Spirit magic: its MgF; a
    zero- or negative-MgF defender 1, and only once the loss exceeds the
    MgF of every non-negative defender (L554, Interpretations 33)."""
    s = S[b]
    k = int(s['magic_kind'])
    sd = int(s['unit_side'][u])
    if s['unit_where'][u] == UW_MAP and dragon_at(S, b, int(s['unit_hex'][u])):
        return 0          # a stack with a dragon suffers no chaotic, physical or spirit magic losses (L849)
    if k == MK_CHAOTIC_DEF or k == MK_CHAOTIC_ATT:
        return 1 if chaotic_target(S, b, u, k == MK_CHAOTIC_DEF) else 0
    if k == MK_PHYSICAL:
        if s['unit_where'][u] != UW_MAP or s['unit_hex'][u] != s['magic_hex'] or U_SPIRIT[u, sd] \
                or neutral_herd(S, b, u):
            return 0
        return phys_value2(S, b, u) // 2
    if k == MK_SPIRIT_DEF:
        if not on_side(S, b, u, True) or magic_proof(S, b, u):
            return 0
        if ZOMBIE_1 <= u < ZOMBIE_1 + NUM_ZOMBIES:
            # the battle's zombies fall together, for Delecti's MgF, offered by
            # their lowest-numbered (L827; Interpretations 115)
            return zombies_mgf2(S, b, False) // 2 if u == defending_zombie(S, b, False) else 0
        m = mgf_of(S, b, u)
        if m > 0:
            return mgf_halves(S, b, u) // 2
        return 1 if s['magic_excess'] else 0
    if k == MK_SPIRIT_ATT:
        if s['unit_where'][u] == UW_COMMITTED and s['unit_flags'][u] & UF_ATTACKED:
            return mgf_halves(S, b, u) // 2
    return 0


@rules_jit
def any_magic_casualty(S, b):
    s = S[b]
    left = int(s['loss_left'])
    if left <= 0:
        return False
    for u in range(units_end(S, b)):
        v = casualty_value(S, b, u)
        if 0 < v <= left:
            return True
    return False


@rules_jit
def mask_magic_casualty(S, b, p, mask):
    s = S[b]
    left = int(s['loss_left'])
    for u in range(units_end(S, b)):
        v = casualty_value(S, b, u)
        if 0 < v <= left:
            mask[A_UNIT + u] = 1


@rules_jit
def act_magic_casualty(S, b, p, a):
    """Unit a is a casualty: eliminated (L522, L556; a spirit to the dead pile,
    its magician unharmed, L1016)."""
    s = S[b]
    u = a - A_UNIT
    s['loss_left'] -= casualty_value(S, b, u)
    k = int(s['magic_kind'])
    bat = CRIMSON_BAT
    if (k == MK_CHAOTIC_DEF or k == MK_CHAOTIC_ATT) and force_of(S, b, u) != force_of(S, b, bat) \
            and on_side(S, b, bat, k == MK_CHAOTIC_ATT) and s['unit_where'][bat] == UW_MAP:
        bat_kill(S, b, u)                 # the Bat's chaotic magic feeds it (L698)
    for v in range(units_end(S, b)):
        if best_friend(S, b, v) == u:
            blame_magic(S, b, k)
    if s['unit_where'][u] == UW_COMMITTED or s['unit_where'][u] == UW_SUPPORT:
        s['unit_where'][u] = UW_DEAD
        s['unit_hex'][u] = -1
    elif U_HERD[u]:
        stampede(S, b, u)         # a herd picked as a casualty stampedes (L534, L556)
    elif k == MK_SPIRIT_DEF and ZOMBIE_1 <= u < ZOMBIE_1 + NUM_ZOMBIES:
        z = u
        while z >= 0:             # all the zombies in the battle are eliminated (L827)
            eliminate(S, b, z)
            z = defending_zombie(S, b, False)
    else:
        eliminate(S, b, u)
    return False


@rules_jit
def blame_magic(S, b, k):
    """A superhero's best friend falls to the magic being taken (MK_*): the units
    most likely responsible, from which its scapegoat is chosen (L654): the
    magicians whose spirits attacked (and raging superheroes striking in spirit
    combat), the magician of the agents that struck, or the chaotic units."""
    s = S[b]
    for u in range(units_end(S, b)):
        if k == MK_SPIRIT_DEF:
            if committed_here(S, b, u) and s['unit_flags'][u] & UF_ATTACKED and U_MAGICIAN[u] >= 0:
                s['unit_blame'][U_MAGICIAN[u]] = 1
            if on_side(S, b, u, False) and berserk(S, b, u):
                s['unit_blame'][u] = 1
        elif k == MK_PHYSICAL:
            if U_AGENT[u] and s['unit_where'][u] == UW_COMMITTED and s['unit_hex'][u] == s['magic_hex']:
                s['unit_blame'][U_MAGICIAN[u]] = 1
        elif k == MK_CHAOTIC_DEF or k == MK_CHAOTIC_ATT:
            if on_side(S, b, u, k == MK_CHAOTIC_ATT) and mgf_of(S, b, u) < 0:
                s['unit_blame'][u] = 1


@rules_jit
def battle_cyclic_values(S, b, out):
    """out[u] = the cyclic value where unit u of the battle stands, for the
    units of the battle with a cyclic factor on the side up; -1 for the rest."""
    s = S[b]
    for u in range(units_end(S, b)):
        out[u] = -1
        sd = int(s['unit_side'][u])
        if U_CF_CYCLIC[u, sd] == 0 and U_MGF_CYCLIC[u, sd] == 0:
            continue
        if on_side(S, b, u, True) or on_side(S, b, u, False) or committed_here(S, b, u):
            out[u] = cyclic_value(S, b, int(s['unit_hex'][u]))


@rules_jit
def reveal_matters(S, b, bit):
    """With screening, revealing the unit of ``bit`` (the Bat, Argrath) would
    change a cyclic value of the battle (L666, L668): it is not revealed yet,
    it is on the map, and some unit of the battle would count another value."""
    s = S[b]
    who = CRIMSON_BAT if bit == REVEAL_BAT else ARGRATH_UNIT
    if not s['screening'] or s['revealed'] & bit or s['unit_where'][who] != UW_MAP:
        return False
    before = np.empty(NUM_UNITS, np.int64)
    after = np.empty(NUM_UNITS, np.int64)
    battle_cyclic_values(S, b, before)
    s['revealed'] |= bit
    battle_cyclic_values(S, b, after)
    s['revealed'] &= ~bit
    for u in range(units_end(S, b)):
        if before[u] != after[u]:
            return True
    return False


@rules_jit
def act_reveal(S, b, p, a):
    """``CH_REVEAL``: the unit's location is revealed, for the rest of the game
    (Interpretations 41); ``CH_DONE``: it stays hidden."""
    s = S[b]
    if a == A_CHOICE + CH_REVEAL:
        s['revealed'] |= int(s['cursor'])
    return False


@rules_jit
def mask_reveal(S, b, p, mask):
    mask[A_CHOICE + CH_REVEAL] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def start_losses(S, b, kind, loss, h):
    s = S[b]
    s['magic_kind'] = kind
    s['loss_left'] = loss
    s['magic_hex'] = h


@rules_jit
def magic_step(S, b):
    """Steps 2-4 of the battle (L516-L556), resumable: ``magic_step`` in the
    state says where it is (MS_*). Returns True when a decision is posed,
    False when the battle's magic is over."""
    s = S[b]
    p = int(s['active'])
    while True:
        ms = int(s['magic_step'])
        if ms == MS_REVEAL_BAT or ms == MS_REVEAL_ARGRATH:
            s['magic_step'] = ms + 1
            bit = REVEAL_BAT if ms == MS_REVEAL_BAT else REVEAL_ARGRATH
            who = CRIMSON_BAT if ms == MS_REVEAL_BAT else ARGRATH_UNIT
            if reveal_matters(S, b, bit):
                s['cursor'] = bit
                return pose(S, b, PH_REVEAL, force_of(S, b, who))
        elif ms == MS_SAVE:
            g = saving_superhero(S, b, 0) if magic_threat(S, b) else -1
            if g >= 0:
                s['cursor'] = g
                return pose(S, b, PH_SAVE, force_of(S, b, g))
            s['magic_step'] = MS_CHAOTIC
        elif ms == MS_CHAOTIC:
            # both counts are fixed before any casualty (simultaneous, L518)
            s['magic_def_loss'] = chaotic_count(S, b, False)
            s['magic_att_loss'] = chaotic_count(S, b, True)
            start_losses(S, b, MK_CHAOTIC_DEF, int(s['magic_def_loss']), -1)
            s['magic_step'] = MS_CHAOTIC_DEF
        elif ms == MS_CHAOTIC_DEF or ms == MS_CHAOTIC_ATT or ms == MS_PHYS_TAKE or ms == MS_SPIRIT_DEF \
                or ms == MS_SPIRIT_ATT:
            if any_magic_casualty(S, b):
                chooser = p if ms != MS_SPIRIT_ATT else int(s['bat_foe'])
                return pose(S, b, PH_MAGIC_CASUALTY, chooser)
            if ms == MS_CHAOTIC_DEF:
                start_losses(S, b, MK_CHAOTIC_ATT, int(s['magic_att_loss']), -1)
                s['magic_step'] = MS_CHAOTIC_ATT
            elif ms == MS_CHAOTIC_ATT:
                s['magic_step'] = MS_PHYSICAL
                s['cursor'] = 0
            elif ms == MS_PHYS_TAKE:
                s['magic_step'] = MS_PHYSICAL
            elif ms == MS_SPIRIT_DEF:
                start_losses(S, b, MK_SPIRIT_ATT, int(s['magic_att_loss']), -1)
                s['magic_step'] = MS_SPIRIT_ATT
            else:
                s['magic_step'] = MS_DONE
        elif ms == MS_PHYSICAL:
            # one defending stack at a time (L520), in the order they were declared
            k = int(s['cursor'])
            while k < s['bat_def'].shape[0] and (s['bat_def'][k] < 0 or agents_on(S, b, s['bat_def'][k]) == 0):
                k += 1
            if k >= s['bat_def'].shape[0]:
                send_home(S, b, True, False, True)      # every agent of the battle goes home (L524)
                s['magic_step'] = MS_SPIRIT
                continue
            h = int(s['bat_def'][k])
            s['cursor'] = k + 1
            loss = magic_roll(S, b, agents_on(S, b, h))
            start_losses(S, b, MK_PHYSICAL, loss, h)
            s['magic_step'] = MS_PHYS_TAKE
        elif ms == MS_SPIRIT:
            spirits_meet_dragons(S, b)
            total = spirit_attack_total(S, b)
            if total <= 0:
                s['magic_step'] = MS_DONE
                continue
            def_loss = magic_roll(S, b, total)                 # Step A, both rolls first (L544-L546)
            att_loss = magic_roll(S, b, dsm_total(S, b))
            s['magic_def_loss'] = def_loss
            s['magic_att_loss'] = att_loss
            # zero- and negative-MgF defenders: open to the excess loss, unless an infinite MgF protects them (L554)
            s['magic_excess'] = 1 if def_loss > nonnegative_mgf(S, b) and not protected_low(S, b) else 0
            start_losses(S, b, MK_SPIRIT_DEF, def_loss, -1)
            s['magic_step'] = MS_SPIRIT_DEF
        else:
            send_home(S, b, True, True, True)           # the survivors go home (L524, L556)
            s['magic_kind'] = 0
            s['loss_left'] = 0
            for u in range(units_end(S, b)):
                s['unit_flags'][u] &= ~UF_SAVED
            return False




# ================================================================ phase C: magical support
@rules_jit
def mask_support(S, b, p, mask):
    mask_send(S, b, mask, True)


@rules_jit
def act_support(S, b, p, a):
    """Spirit a is to support a stack (which one next); ``CH_DONE``: none more,
    the combat phase ends."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        s['magic_kind'] = 3
        return False
    s['cursor'] = a - A_UNIT
    return pose(S, b, PH_SUPPORT_HEX, p)


@rules_jit
def mask_support_hex(S, b, p, mask):
    send_targets(S, b, int(S[b]['cursor']), mask, True)


@rules_jit
def act_support_hex(S, b, p, a):
    """Spirit ``cursor`` is placed atop its side's stack at hex a (L604)."""
    s = S[b]
    u = int(s['cursor'])
    s['unit_where'][u] = UW_SUPPORT
    s['unit_hex'][u] = a - A_HEX
    return False


@rules_jit
def support_step(S, b):
    """Phase C: pose the allocation while a spirit can support; True if
    posed. ``magic_kind`` 2 while it lasts, 3 once the attacker is done."""
    s = S[b]
    if s['magic_kind'] != 3 and any_send(S, b, True):
        s['magic_kind'] = 2
        return pose(S, b, PH_SUPPORT, int(s['active']))
    s['magic_kind'] = 0
    return False


@rules_jit
def support_ends(S, b, f):
    """The start of force f's movement phase: its supporting spirits, and any
    spirit or agent of it still on the map, go back to their holding boxes (L416, L508)."""
    s = S[b]
    for u in range(units_end(S, b)):
        if U_MAGICIAN[u] >= 0 and force_of(S, b, u) == f and (s['unit_where'][u] == UW_SUPPORT
                                                         or s['unit_where'][u] == UW_COMMITTED):
            s['unit_where'][u] = UW_HOLDING
            s['unit_hex'][u] = -1
