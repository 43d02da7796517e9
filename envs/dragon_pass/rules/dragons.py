"""The dragons (L839-L857) and Hungry Jack (L868-L882).

Dragons are Independents (red, green, brown, and Cragspider's black one,
L843): = - infinity* - 20 Air Rune - 0. What they do:

* **Dragonfights** (L845 = L726), at the start of their side's Exotic Magic
  Phase (``dragonfights``, called first by ``exotic.exotic_phase``): each
  active dragon on the map beside any inactive unit must dragonfight, one
  dragon at a time in unit order; one left with no inactive unit beside it
  by an earlier dragonfight does not fight (Interpretations 100). A
  dragonfight eliminates every enemy unit beside the dragon, herds included
  (L588), and the dragon itself; if an enemy dragon is beside it, the two
  dragons are eliminated and nothing else. A stack beside it with a
  superhero: the active player decides (PH_DRAGONFIGHT) between eliminating
  one of its superheroes (A_UNIT + g) and all its non-superhero units
  (CH_DRAGON_STACK). Heroes and superheroes eliminated make heroic escapes
  (``base.eliminate``).
* **Combat** (L847): a dragon's CF is its stack's (``moon.dragon_cf_halves``);
  it adds nothing to an attack, and a stack of dragons alone never attacks
  (``base.dragons_only``, ``combat.candidate_stacks``); no terrain effect, no
  leadership (``combat.strength_by_unit``, ``combat.casualty_value2``);
  outside structures, with the units above it (L458, ``combat.herd_at_or_below``).
* **Magic immunity** (L849): a stack with a dragon suffers no chaotic,
  physical or spirit magic losses (``magic.casualty_value``); a spirit
  committed against a battle whose defending stacks hold a dragon is
  eliminated without effect (``magic.spirits_meet_dragons``); dragons are
  unaffected by exotic magic and save up to 3 units stacked with them, the
  controller choosing (L678; ``magic.saving_superhero``, ``exotic.unaffected``).
* **Negating the Glowline and Glowspot** (L670, L851): in his Exotic Magic
  Phase the controller of a dragon may switch its negation on or off
  (CH_NEGATE, through PH_EXOTIC / PH_EXOTIC_TARGET; ``dragon_negates``);
  ``moon.cyclic_value`` reads it (Interpretations 102).

Called with alliances: ``place_dragon`` (a dragon allied appears at its
dragonrest, L841, L344) and ``jack_arrives`` (the dragon sent West returns
carrying Hungry Jack, L870; ``fetch.py``).
Hungry Jack (L872-L874): at the start of each movement phase of his
controller's enemy (``jack_due``, called by ``movement.movement_phase``) his
controller first names the magicians stacked with him that aid him, up to 2
(PH_JACK_AID; they give no magical support and make no magical attack that
game-turn, ``jack_aide_now``), then summons 1 active unit, 1 more per aide
(PH_JACK): not a dragon or superhero, nor a unit stacked with one. A
summoned unit moves on its own, each hex it enters closer to Jack, and must
go on until normal movement stops it (``summoned``, ``movement``). Any unit
of his enemy but a dragon that becomes adjacent to Jack during movement
rolls (``jack_roll``): 1-3 eliminated (a hero or superhero escapes if he
can), 4-6 it may move away, its summons over (Interpretations 106-107).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..board import HEX_STEP
from ..constants import NUM_UNITS, RANK_SUPERHERO, SIDE_FRONT, UF_EXOTIC, UF_MOVED, UW_MAP
from ..data import DATA
from .base import (
    A_CHOICE, A_UNIT, CH_DONE, CH_DRAGON_STACK, CH_NEGATE, PH_JACK, PH_JACK_AID, U_BOUND, d6, rf_of, DRAGON_UNITS, DRAGONREST_HEX, HUNGRY_JACK, PH_DRAGONFIGHT,
    U_HERD, U_RANK, CRIMSON_BAT, movement_allowance, distance, eliminate, force_of, is_dragon, pose, put_on_top, stack_at,
    stampede, step_cost, units_end, foes_of, hostile,
)
from .moon import GLOWSPOT_RADIUS, HEX_GLOWLINE


@rules_jit
def dragon_index(u):
    """The bit of dragon u in ``dragon_negates`` (-1: not a dragon)."""
    for k in range(DRAGON_UNITS.shape[0]):
        if DRAGON_UNITS[k] == u:
            return k
    return -1


@rules_jit
def enemies_beside(S, b, d):
    """How many units of the inactive player stand beside dragon d."""
    s = S[b]
    h = s['unit_hex'][d]
    foes = foes_of(int(s['active']))
    n = 0
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and hostile(force_of(S, b, v), foes):
            g = s['unit_hex'][v]
            for e in range(1, 7):
                if HEX_STEP[h, e] == g:
                    n += 1
    return n


@rules_jit
def next_fighter(S, b):
    """The next active dragon that must dragonfight: on the map, beside an
    inactive unit (L845); -1 none."""
    s = S[b]
    p = int(s['active'])
    for k in range(DRAGON_UNITS.shape[0]):
        d = DRAGON_UNITS[k]
        if d < units_end(S, b) and s['unit_where'][d] == UW_MAP and force_of(S, b, d) == p \
                and enemies_beside(S, b, d) > 0:
            return d
    return -1


@rules_jit
def enemy_dragon_beside(S, b, d):
    """An enemy dragon beside dragon d (the lowest unit; Interpretations 100), -1 none."""
    s = S[b]
    h = s['unit_hex'][d]
    foes = foes_of(int(s['active']))
    for k in range(DRAGON_UNITS.shape[0]):
        v = DRAGON_UNITS[k]
        if v < units_end(S, b) and s['unit_where'][v] == UW_MAP and hostile(force_of(S, b, v), foes):
            for e in range(1, 7):
                if HEX_STEP[h, e] == s['unit_hex'][v]:
                    return v
    return -1


@rules_jit
def fight_hex(S, b):
    """The hex the dragonfight strikes now: beside the fighting dragon in
    direction ``dragonfight_dir``; -1 off the board."""
    s = S[b]
    d = int(s['dragonfight_unit']) - 1
    return int(HEX_STEP[s['unit_hex'][d], int(s['dragonfight_dir'])])


@rules_jit
def stack_counts(S, b, g):
    """(superheroes, other units) of the inactive player at hex g."""
    s = S[b]
    foes = foes_of(int(s['active']))
    ns = 0
    nn = 0
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == g and hostile(force_of(S, b, v), foes):
            if U_RANK[v] == RANK_SUPERHERO:
                ns += 1
            else:
                nn += 1
    return ns, nn


@rules_jit
def strike_stack(S, b, g, superhero):
    """The dragonfight eliminates the inactive units at hex g: the superhero
    ``superhero`` alone, or (-1) every unit but the superheroes -- herds
    included, eliminated (L588). A hero escapes if he can (L845)."""
    s = S[b]
    foes = foes_of(int(s['active']))
    if superhero >= 0:
        eliminate(S, b, superhero)
        return
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == g and hostile(force_of(S, b, v), foes) \
                and U_RANK[v] != RANK_SUPERHERO:
            eliminate(S, b, v)


@rules_jit
def dragonfights(S, b):
    """Resolve the dragonfights due at the start of the Exotic Magic Phase
    (L845). Returns True when the active player must decide for a stack with
    a superhero (PH_DRAGONFIGHT); False once all are over
    (``dragonfights_done`` set)."""
    s = S[b]
    p = int(s['active'])
    while True:
        d = int(s['dragonfight_unit']) - 1
        if d < 0:
            d = next_fighter(S, b)
            if d < 0:
                s['dragonfights_done'] = 1
                return False
            e = enemy_dragon_beside(S, b, d)
            if e >= 0:
                # dragon against dragon: both eliminated, nothing else (L845)
                eliminate(S, b, e)
                eliminate(S, b, d)
                continue
            s['dragonfight_unit'] = d + 1
            s['dragonfight_dir'] = 1
        while s['dragonfight_dir'] <= 6:
            g = fight_hex(S, b)
            if g >= 0:
                ns, nn = stack_counts(S, b, g)
                if ns > 0 and (ns > 1 or nn > 0):
                    return pose(S, b, PH_DRAGONFIGHT, p)
                if ns == 1:
                    # a lone superhero: nothing else to take
                    strike_stack(S, b, g, lone_superhero(S, b, g))
                elif nn > 0:
                    strike_stack(S, b, g, -1)
            s['dragonfight_dir'] += 1
        # the dragon itself is eliminated by its dragonfight (L845)
        eliminate(S, b, d)
        s['dragonfight_unit'] = 0
        s['dragonfight_dir'] = 0


@rules_jit
def lone_superhero(S, b, g):
    s = S[b]
    foes = foes_of(int(s['active']))
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == g and hostile(force_of(S, b, v), foes) \
                and U_RANK[v] == RANK_SUPERHERO:
            return v
    return -1


@rules_jit
def mask_dragonfight(S, b, p, mask):
    """One of the stack's superheroes, or (if it has others) its non-superhero units (L845)."""
    s = S[b]
    g = fight_hex(S, b)
    foes = foes_of(int(s['active']))
    ns, nn = stack_counts(S, b, g)
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == g and hostile(force_of(S, b, v), foes) \
                and U_RANK[v] == RANK_SUPERHERO:
            mask[A_UNIT + v] = 1
    if nn > 0:
        mask[A_CHOICE + CH_DRAGON_STACK] = 1


@rules_jit
def act_dragonfight(S, b, p, a):
    """A_UNIT + g: superhero g is eliminated; CH_DRAGON_STACK: the stack's other
    units are. The dragonfight goes on round the dragon (``dragonfights``)."""
    s = S[b]
    g = fight_hex(S, b)
    strike_stack(S, b, g, -1 if a == A_CHOICE + CH_DRAGON_STACK else a - A_UNIT)
    s['dragonfight_dir'] += 1
    return False


# ================================================================ the Glowline's negation (L670, L851)
@rules_jit
def negation_targets(S, b, u, mask):
    """Dragon u's "exotic" choice in its controller's Exotic Magic Phase:
    CH_NEGATE switches its negation of the Glowline and Glowspot on or off
    (L851; Interpretations 102). 1 if it may, else 0."""
    s = S[b]
    if not is_dragon(u) or s['unit_where'][u] != UW_MAP or force_of(S, b, u) != s['active'] \
            or s['unit_flags'][u] & UF_EXOTIC:
        return 0
    if not dragon_negating(S, b, u) and not glow_near(S, b, int(s['unit_hex'][u])):
        return 0          # nothing to negate there: the choice is not posed
    if mask.shape[0] > 1:
        mask[A_CHOICE + CH_NEGATE] = 1
    return 1


@rules_jit
def glow_near(S, b, h):
    """The Glowline (while it lasts) or the Crimson Bat's Glowspot (the Bat on
    the map) reaches a hex within 1 of hex h: a dragon there has something to
    negate (L662, L666, L851)."""
    s = S[b]
    c = CRIMSON_BAT
    if s['unit_where'][c] == UW_MAP and distance(h, s['unit_hex'][c]) <= GLOWSPOT_RADIUS + 1:
        return True
    if s['glowline_gone']:
        return False
    if HEX_GLOWLINE[h]:
        return True
    for e in range(1, 7):
        g = HEX_STEP[h, e]
        if g >= 0 and HEX_GLOWLINE[g]:
            return True
    return False


@rules_jit
def switch_negation(S, b, u):
    """Dragon u's negation of the Glowline and Glowspot within 1 hex is switched
    (on: with screening, the dragon is revealed by it, Interpretations 102)."""
    s = S[b]
    k = dragon_index(u)
    s['dragon_negates'] = int(s['dragon_negates']) ^ (1 << k)


@rules_jit
def dragon_negating(S, b, u):
    k = dragon_index(u)
    return k >= 0 and (int(S[b]['dragon_negates']) >> k) & 1 == 1


# ================================================================ with alliances (unwired)
@rules_jit
def place_dragon(S, b, f, u):
    """Dragon u, allied to force f, appears at its dragonrest (L841; the Black
    Dragon near Cliffhome when Cragspider is allied, L768). Called by the
    alliance phase (not yet built) when the alliance is granted. The units
    on the dragonrest not of force f are destroyed (L344, Interpretations
    104): eliminated (a hero may escape), herds stampede; f's own units
    stay, the dragon on top of them. It may move and attack that turn (L841):
    a full MF if f is the active force."""
    s = S[b]
    k = dragon_index(u)
    h = int(DRAGONREST_HEX[k])
    out = np.empty(NUM_UNITS, np.int64)
    n = stack_at(S, b, h, out)
    for j in range(n):
        v = out[j]
        if force_of(S, b, v) == f:
            continue
        if U_HERD[v]:
            stampede(S, b, v)
        else:
            eliminate(S, b, v)
    s['unit_force'][u] = f
    s['unit_side'][u] = SIDE_FRONT
    s['unit_flags'][u] = 0
    put_on_top(S, b, u, h)
    s['unit_mp'][u] = movement_allowance(S, b, u)


@rules_jit
def jack_arrives(S, b, d):
    """The dragon d sent to fetch Hungry Jack returns carrying him (L870):
    Jack, allied to d's force, is put on top of d's stack. Called by
    ``fetch.bring_jack`` when the dragon, having left by the West map edge
    for 2 game-turns, comes back on the map; d must be on the map."""
    s = S[b]
    j = HUNGRY_JACK
    s['unit_force'][j] = s['unit_force'][d]
    s['unit_side'][j] = SIDE_FRONT
    s['unit_flags'][j] = 0
    s['unit_mp'][j] = 0
    put_on_top(S, b, j, int(s['unit_hex'][d]))


# ================================================================ Hungry Jack's summons (L872-L874)
JACK_ELIMINATES = np.array([0] + [DATA.tables.hungry_jack[r] == "eliminated" for r in range(1, 7)], np.int8)
"""JACK_ELIMINATES[roll]: a unit that becomes adjacent to Jack is eliminated on this roll (1-3, L874)."""
MAX_AIDES = 2


@rules_jit
def jack_on_map(S, b):
    s = S[b]
    return HUNGRY_JACK < units_end(S, b) and s['unit_where'][HUNGRY_JACK] == UW_MAP and force_of(S, b, HUNGRY_JACK) >= 0


@rules_jit
def in_slots(arr, u):
    for k in range(arr.shape[0]):
        if arr[k] == u + 1:
            return True
    return False


@rules_jit
def slot_count(arr):
    n = 0
    for k in range(arr.shape[0]):
        if arr[k] > 0:
            n += 1
    return n


@rules_jit
def summoned(S, b, u):
    """Unit u is drawn to Hungry Jack this movement phase (L872)."""
    return in_slots(S[b]['jack_summoned'], u)


@rules_jit
def jack_aide_now(S, b, m):
    """Magician m aided Hungry Jack this game-turn: it gives no magical support
    and makes no magical attack (L872)."""
    s = S[b]
    return s['jack_turn'] == s['turn'] and s['jack_turn'] > 0 and in_slots(s['jack_aides'], m)


@rules_jit
def may_aid(S, b, m):
    """Magician m, of Jack's controller and stacked with him, may aid him (L872)."""
    s = S[b]
    j = HUNGRY_JACK
    return m != j and s['unit_where'][m] == UW_MAP and s['unit_hex'][m] == s['unit_hex'][j] \
        and force_of(S, b, m) == force_of(S, b, j) and U_BOUND[m] >= 0 and rf_of(S, b, m) >= 1 \
        and not in_slots(s['jack_aides'], m)


@rules_jit
def shielded(S, b, v):
    """Unit v is immune to the summons: a dragon or superhero, or stacked with one (L874)."""
    s = S[b]
    h = s['unit_hex'][v]
    for w in range(units_end(S, b)):
        if s['unit_where'][w] == UW_MAP and s['unit_hex'][w] == h and (is_dragon(w) or U_RANK[w] == RANK_SUPERHERO):
            return True
    return False


@rules_jit
def may_summon(S, b, v):
    s = S[b]
    return s['unit_where'][v] == UW_MAP and force_of(S, b, v) == s['active'] and not shielded(S, b, v) \
        and not summoned(S, b, v)


@rules_jit
def summons_left(S, b):
    s = S[b]
    return 1 + slot_count(s['jack_aides']) - slot_count(s['jack_summoned'])


@rules_jit
def jack_due(S, b):
    """At the start of the movement phase of Hungry Jack's controller's enemy,
    before any unit moves (L872): pose the aid (PH_JACK_AID), then the summons
    (PH_JACK), to Jack's controller. True when a decision is posed."""
    s = S[b]
    if not jack_on_map(S, b) or not hostile(force_of(S, b, HUNGRY_JACK), foes_of(int(s['active']))):
        return False
    if s['jack_asked'] != s['player_turn']:
        s['jack_asked'] = s['player_turn']
        for k in range(s['jack_summoned'].shape[0]):
            s['jack_summoned'][k] = 0
        for k in range(s['jack_aides'].shape[0]):
            s['jack_aides'][k] = 0
        s['jack_turn'] = 0
        s['jack_step'] = 1
    if s['jack_step'] == 1:
        if slot_count(s['jack_aides']) < MAX_AIDES:
            for m in range(units_end(S, b)):
                if may_aid(S, b, m):
                    return pose(S, b, PH_JACK_AID, force_of(S, b, HUNGRY_JACK))
        s['jack_step'] = 2
    if s['jack_step'] == 2:
        if summons_left(S, b) > 0:
            for v in range(units_end(S, b)):
                if may_summon(S, b, v):
                    return pose(S, b, PH_JACK, force_of(S, b, HUNGRY_JACK))
        s['jack_step'] = 0
    return False


@rules_jit
def mask_jack_aid(S, b, p, mask):
    for m in range(units_end(S, b)):
        if may_aid(S, b, m):
            mask[A_UNIT + m] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_jack_aid(S, b, p, a):
    """Magician a aids Hungry Jack this game-turn; ``CH_DONE``: no more aides, the summons next."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        s['jack_step'] = 2
        return False
    k = slot_count(s['jack_aides'])
    s['jack_aides'][k] = a - A_UNIT + 1
    s['jack_turn'] = s['turn']
    return False


@rules_jit
def mask_jack(S, b, p, mask):
    for v in range(units_end(S, b)):
        if may_summon(S, b, v):
            mask[A_UNIT + v] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_jack(S, b, p, a):
    """Unit a is drawn to Hungry Jack; ``CH_DONE``: no more (the phase goes on)."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        s['jack_step'] = 0
        return False
    k = slot_count(s['jack_summoned'])
    s['jack_summoned'][k] = a - A_UNIT + 1
    return False


@rules_jit
def release(S, b, u):
    s = S[b]
    for k in range(s['jack_summoned'].shape[0]):
        if s['jack_summoned'][k] == u + 1:
            s['jack_summoned'][k] = 0


@rules_jit
def closer_to_jack(S, b, h, g):
    """Hex g is closer to Hungry Jack than hex h (L872: each hex a summoned unit enters)."""
    j = int(S[b]['unit_hex'][HUNGRY_JACK])
    return distance(g, j) < distance(h, j)


@rules_jit
def jack_roll(S, b, u, h, g):
    """Unit u of the moving force stepped from h into g: if it became adjacent
    to the enemy's Hungry Jack, it rolls (L874): 1-3 eliminated (a hero or
    superhero with his heroic escape), 4-6 it may move away, no longer drawn.
    Dragons alone are unaffected. Returns True if u was eliminated."""
    s = S[b]
    if is_dragon(u) or not jack_on_map(S, b) or not hostile(force_of(S, b, HUNGRY_JACK), foes_of(force_of(S, b, u))):
        return False
    j = int(s['unit_hex'][HUNGRY_JACK])
    if distance(g, j) != 1 or distance(h, j) <= 1:
        return False
    if JACK_ELIMINATES[d6(S, b)]:
        release(S, b, u)
        eliminate(S, b, u)
        return True
    release(S, b, u)
    return False


@rules_jit
def must_answer(S, b, u, occ):
    """Summoned unit u has not moved and has a step closer to Jack it can pay
    for, into a hex no enemy holds: its movement phase cannot end before it
    moves (L872)."""
    s = S[b]
    if not summoned(S, b, u) or s['unit_where'][u] != UW_MAP or s['unit_flags'][u] & UF_MOVED:
        return False
    h = int(s['unit_hex'][u])
    foes = foes_of(force_of(S, b, u))
    for d in range(1, 7):
        g = HEX_STEP[h, d]
        if g < 0 or hostile(occ[g], foes) or not closer_to_jack(S, b, h, g):
            continue
        c = step_cost(S, b, u, h, d)
        if 0 <= c <= s['unit_mp'][u]:
            return True
    return False
