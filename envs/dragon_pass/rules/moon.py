"""The Red Moon (L660-L668): its phase, chosen before deployment where the
scenario says so (L263, L271) and moving on one phase each game-turn; the
cyclic values it gives (L398, L410, L662), always 7 within the Glowline
(which ceases for good once an enemy unit occupies the Temple of the
Reaching Moon, L143: ``base.occupy``) and within the Crimson Bat's Glowspot (L666), and
neither within 1 hex of Argrath (L668).

A unit's combat and magic factors are read through ``cf_halves`` and ``mgf_halves``
(halves, so that half-cyclic values keep their fractions until a total is
resolved, L110).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..board import NUM_HEXES
from ..constants import KINDS, NUM_UNITS, SCENARIOS, UNIT_IDS, UNIT_KIND_OF, UW_MAP, seat_of_side
from ..data import DATA, MAP
from ..constants import SIDE_BACK
from .base import A_CHOICE, CH_MOON, CRIMSON_BAT, DRAGON_UNITS, PH_MOON, T, U_AGENT, U_CF, U_MAGICIAN, distance, \
    is_dragon, mgf_doubled, mgf_of, pose, units_end

# ================================================================ the Red Moon (L660-L668)
MOON_PHASE_IDS = tuple(ph.id for ph in T.moon_phases)
"""The Red Moon's phases in their printed order (L664): Black, Crescent-Come,
Empty Half, Full, Full Half, Crescent-Go, Dying. A phase is its index here;
``moon`` in the state is -1 where the scenario chooses no phase."""
NUM_MOON_PHASES = len(MOON_PHASE_IDS)
MOON_CYCLIC = np.array([ph.cyclic for ph in T.moon_phases], np.int8)
"""MOON_CYCLIC[phase]: the cyclic value of the phase (L398, L664)."""
MOON_FULL = MOON_PHASE_IDS.index("full")
GLOWLINE_CYCLIC = int(T.moon["glowline"])
"""The cyclic value inside the Glowline and a Glowspot (L398, L662, L666)."""
GLOWSPOT_RADIUS = int(T.moon["glowspot_radius"])
ARGRATH_RADIUS = int(T.moon["argrath_radius"])
HEX_GLOWLINE = np.array([MAP.territory[h] in ("glowline_dark", "glowline_light") for h in range(NUM_HEXES)],
                        np.int8)
"""Within the Glowline: Tarsh, its dark and its lighter part (L143, L662)."""


def _cyclic_tables():
    kinds = KINDS
    out = np.zeros((2, NUM_UNITS, 2), np.int8)
    for u in range(NUM_UNITS):
        unit = kinds[UNIT_KIND_OF[u]]
        for s, side in enumerate((unit.front, unit.back)):
            for f, kind in enumerate((side.cf_kind, side.mgf_kind)):
                out[f, u, s] = 2 if kind == "cyclic" else 1 if kind == "half_cyclic" else 0
    return out[0], out[1]


U_CF_CYCLIC, U_MGF_CYCLIC = _cyclic_tables()
"""Per unit and side: 2 if the factor is cyclic (the moon's value, L398, L410),
1 if half-cyclic (half of it, L662), 0 if it is a number."""


ARGRATH_UNIT = UNIT_IDS.index("argrath")
"""Prince Argrath, within 1 hex of whom the Glowline and Glowspot have no effect (L668)."""
REVEAL_BAT, REVEAL_ARGRATH = 1, 2
"""Bits of ``revealed``: with screening the Glowspot exists only once the
Lunar player has revealed the Bat, Argrath's resistance only once the Sartar
player has revealed Argrath (L666, L668)."""


@rules_jit
def cyclic_value(S, b, h):
    """The cyclic value of a unit at hex h (L662-L668): the phase's value; 7
    within the Glowline while it lasts (and exists this game-turn) and within 2 hexes of the Crimson Bat
    (its Glowspot, as if the moon were full); neither within 1 hex of Argrath.
    A scenario without a phase (-1) has no cyclic unit; it reads the Glowline's 7."""
    s = S[b]
    phase = int(s['moon'])
    if phase < 0:
        return GLOWLINE_CYCLIC
    value = int(MOON_CYCLIC[phase])
    if h < 0:
        return value
    a = ARGRATH_UNIT
    if a >= 0 and s['unit_where'][a] == UW_MAP and distance(h, s['unit_hex'][a]) <= ARGRATH_RADIUS \
            and (not s['screening'] or s['revealed'] & REVEAL_ARGRATH):
        return value
    if dragon_negates_at(S, b, h):
        return value
    # the Glowline is gone once the Temple fell (L143), and for a game-turn of random event 31 (L969)
    if HEX_GLOWLINE[h] and not s['glowline_gone'] and not s['glowline_failed']:
        return GLOWLINE_CYCLIC
    c = CRIMSON_BAT
    if c >= 0 and s['unit_where'][c] == UW_MAP and distance(h, s['unit_hex'][c]) <= GLOWSPOT_RADIUS \
            and (not s['screening'] or s['revealed'] & REVEAL_BAT):
        return int(MOON_CYCLIC[MOON_FULL])
    return value


@rules_jit
def dragon_negates_at(S, b, h):
    """Hex h is within 1 hex of a dragon whose controller negates the Glowline
    and Glowspot there (L670, L851; ``dragon_negates``, set by the controller
    in his Exotic Magic Phase, rules/dragons.py). With screening the negation
    reveals the dragon (Interpretations 102)."""
    s = S[b]
    bits = int(s['dragon_negates'])
    if bits == 0:
        return False
    for k in range(DRAGON_UNITS.shape[0]):
        d = DRAGON_UNITS[k]
        if bits & (1 << k) and s['unit_where'][d] == UW_MAP and distance(h, s['unit_hex'][d]) <= 1:
            return True
    return False


@rules_jit
def cf_halves(S, b, u):
    """Unit u's CF on the side up, in halves: a cyclic CF is the moon's value
    where it stands, a half-cyclic one half of it, fractions kept (L110, L662);
    a dragon's is its stack's (``dragon_cf_halves``)."""
    if is_dragon(u):
        return dragon_cf_halves(S, b, u)
    return own_cf_halves(S, b, u)


@rules_jit
def dragon_cf_halves(S, b, u):
    """Dragon u's CF, in halves (L397, L847): the CF total of the units stacked
    with it (0 alone, or with only units of non-numeric CF: disembodied
    spirits' blank CF, other dragons' '='), divided between the dragons of
    the stack (13 for 2 dragons: 6½ each), halved when it is disrupted.
    Fractions below a half point are dropped."""
    s = S[b]
    if s['unit_where'][u] != UW_MAP:
        return 0
    h = s['unit_hex'][u]
    total = 0
    dragons = 0
    for v in range(units_end(S, b)):
        if s['unit_where'][v] != UW_MAP or s['unit_hex'][v] != h:
            continue
        if is_dragon(v):
            dragons += 1
        else:
            total += own_cf_halves(S, b, v)
    cf2 = total // dragons
    if s['unit_side'][u] == SIDE_BACK:
        cf2 //= 2
    return cf2


@rules_jit
def own_cf_halves(S, b, u):
    """``cf_halves`` of a unit that is no dragon: its own printed or cyclic CF."""
    sd = int(S[b]['unit_side'][u])
    k = U_CF_CYCLIC[u, sd]
    if k == 0:
        cf2 = 2 * int(U_CF[u, sd])
    else:
        cf2 = int(k) * cyclic_value(S, b, int(S[b]['unit_hex'][u]))
    m = U_MAGICIAN[u]
    if m >= 0 and U_AGENT[u] != 0 and mgf_doubled(S, b, m):
        return 2 * cf2    # a physical agent: its magician's MgF doubled by the Alchemical Transformer (L857)
    return cf2


@rules_jit
def mgf_halves(S, b, u):
    """Unit u's MgF on the side up, in halves, cyclic values as for ``cf_halves``
    (INFINITE_MGF for infinity, L406)."""
    sd = int(S[b]['unit_side'][u])
    k = U_MGF_CYCLIC[u, sd]
    if k == 0:
        m2 = 2 * mgf_of(S, b, u)
    else:
        m2 = int(k) * cyclic_value(S, b, int(S[b]['unit_hex'][u]))
    m = U_MAGICIAN[u]
    if mgf_doubled(S, b, u) or (m >= 0 and U_AGENT[u] == 0 and mgf_doubled(S, b, m)):
        # the Alchemical Transformer (L857); a spirit, whose strength is its MgF, is
        # doubled with its magician's MgF ("the CF of its spirit", Interpretations 123)
        return 2 * m2
    return m2


def _moon_chooser():
    out = np.full(len(SCENARIOS), -1, np.int8)
    for k, sid in enumerate(SCENARIOS):
        side = DATA.scenarios[sid].moon
        if side == "first":
            out[k] = MOON_BY_FIRST
        elif side is not None:
            out[k] = seat_of_side(side)
    return out


MOON_BY_FIRST = 2
"""SCENARIO_MOON's code for "the player who deploys first selects the phase
of the moon" (L313; 18.7 too, Interpretations 91)."""
SCENARIO_MOON = _moon_chooser()
"""SCENARIO_MOON[scenario]: the force that selects the phase of the moon
before any units are deployed (L263, L271, L291), MOON_BY_FIRST for the
first to deploy (``first_deployer``); -1 where none is chosen."""


@rules_jit
def choose_moon(S, b):
    """Pose the choice of the moon's phase if the scenario has one still to
    make; True if posed."""
    s = S[b]
    f = int(SCENARIO_MOON[int(s['scenario'])])
    if f == MOON_BY_FIRST:
        f = int(s['first_deployer'])
    if f >= 0 and s['moon'] < 0:
        return pose(S, b, PH_MOON, f)
    return False


@rules_jit
def mask_moon(S, b, p, mask):
    for k in range(NUM_MOON_PHASES):
        mask[A_CHOICE + CH_MOON + k] = 1


@rules_jit
def act_moon(S, b, p, a):
    """The Red Moon starts the game in phase a - CH_MOON."""
    S[b]['moon'] = a - A_CHOICE - CH_MOON
    return False


@rules_jit
def next_day(S, b):
    """The book-keeping phase: the Red Moon moves on to its next phase, Dying
    going back to Black (a game-turn is a day, L698-L706; Interpretations)."""
    s = S[b]
    if s['moon'] >= 0:
        s['moon'] = (int(s['moon']) + 1) % NUM_MOON_PHASES

