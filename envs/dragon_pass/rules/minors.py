"""Four Minor Independents (L853-L912): the Dwarf and his gifts, the Spirit of
Movement, the Sun Dome Templars, the Tusk Riders.

Built into other modules where the rule lives:

* the Sun Dome Templars' doubled CF as defending melee casualties, no terrain
  benefit (L902): ``combat.casualty_value2``;
* the Tusk Riders' movement, 1 MP on hill and forest ground, no road
  benefits (L484, L910): ``base.ground_cost`` and ``base.step_cost``;
* the Spirit of Movement's MF of 2 by itself (L896): ``base.mf_of``.

Here:

* the Spirit of Movement stacked with a group for its whole move doubles
  every member's allowance and takes the highest of them (``speed_group``,
  called by ``movement.hasten`` as the herds' hastening is: a group is formed
  before its first step from the units that began the phase in its hex and
  moves together to the end, so its members spend the entire phase with the
  Spirit, L896); the doubling applies to retreats (``retreat_mf``, L896);
  eliminated by its owner at the start of his movement phase, it doubles the
  movement of all his units for that phase only (PH_SPEED, L898);
* the Alchemical Transformer: at the start of his movement phase its owner
  names the unit stacked with it whose MgF or RF it doubles (PH_ALCHEMY,
  PH_ALCHEMY_FACTOR; Interpretations 121); the doubling itself is read where
  the factors are (``base.transformed``, ``base.rf_of``, ``moon.mgf_halves``,
  ``moon.cf_halves`` for the magician's spirit or agent,
  ``magic.chaotic_count``);
* at alliance time, unwired (the lead's alliance phase calls them):
  ``dwarf_luck`` (the Dwarf Luck Table, L859-L866, L1139) and
  ``blood_sacrifice`` (the Tusk Riders' alliance, L906-L908).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..constants import NUM_UNITS, UF_GROUP, UW_DEAD, UW_HOLDING, UW_MAP, UW_OUT, UNIT_IDS
from ..data import MAP
from .base import (
    A_CHOICE, A_UNIT, ALCHEMICAL_TRANSFORMER, CH_ALCHEMY_MGF, CH_ALCHEMY_RF, CH_DONE, CH_SPEED, INFINITE_MGF,
    PH_ALCHEMY_FACTOR, SPIRIT_OF_MOVEMENT, U_MGF, U_MGF_MOON, U_RF, U_RF_SPECIAL, U_TUSK_RIDER, pose,
    T, d6, eliminate, first_turn_mp, force_of, killed, mf_of, phase_mf, put_on_top, side_of, units_end,
)

# ================================================================ the Spirit of Movement (L894-L898)


@rules_jit
def may_speed(S, b):
    """The active player controls the Spirit of Movement, on the map: he may
    eliminate it at the start of his movement phase (L898)."""
    s = S[b]
    return s['unit_where'][SPIRIT_OF_MOVEMENT] == UW_MAP and force_of(S, b, SPIRIT_OF_MOVEMENT) == s['active']


@rules_jit
def mask_speed(S, b, p, mask):
    mask[A_CHOICE + CH_SPEED] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_speed(S, b, p, a):
    """``CH_SPEED``: the Spirit of Movement is eliminated and every unit of
    its owner has twice its movement points this phase, reinforcements that
    enter later included (``base.phase_mf``, L898); ``CH_DONE``: it stays."""
    s = S[b]
    if a == A_CHOICE + CH_SPEED:
        eliminate(S, b, SPIRIT_OF_MOVEMENT)
        s['sm_doubled'] = 1
        for u in range(units_end(S, b)):
            if force_of(S, b, u) == p:
                s['unit_mp'][u] = 2 * int(s['unit_mp'][u])
    return False


@rules_jit
def speed_group(S, b):
    """The Spirit of Movement moves with the group now forming: every other
    member's allowance (already worked out, herds' hastening included) is
    doubled -- magicians and flyers too, unlike herds (L488, L896) -- and the
    Spirit's is the highest of them; alone it keeps its own (2 MF)."""
    s = S[b]
    best = 0
    for u in range(units_end(S, b)):
        if u != SPIRIT_OF_MOVEMENT and s['unit_flags'][u] & UF_GROUP:
            mp = 2 * int(s['unit_mp'][u])
            s['unit_mp'][u] = mp
            if mp > best:
                best = mp
    # alone: its own MF, halved in 18.9's first move as every unit's (L319)
    s['unit_mp'][SPIRIT_OF_MOVEMENT] = best if best > 0 else \
        first_turn_mp(S, b, SPIRIT_OF_MOVEMENT, 2 * phase_mf(S, b, SPIRIT_OF_MOVEMENT))


@rules_jit
def retreat_mf(S, b, u):
    """Unit u's MF as a retreat reads it (L578): doubled while it stands with
    its side's Spirit of Movement, which then has the highest of those doubled
    MFs (L896: "the movement doubling also applies for retreats";
    Interpretations 126)."""
    s = S[b]
    mf = mf_of(S, b, u)
    sm = SPIRIT_OF_MOVEMENT
    if s['unit_where'][sm] != UW_MAP or s['unit_where'][u] != UW_MAP or s['unit_hex'][u] != s['unit_hex'][sm] \
            or force_of(S, b, u) != force_of(S, b, sm):
        return mf
    if u != sm:
        return 2 * mf
    best = 0
    for v in range(units_end(S, b)):
        if v != sm and s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == s['unit_hex'][sm] \
                and force_of(S, b, v) == force_of(S, b, sm):
            best = max(best, 2 * mf_of(S, b, v))
    return best if best > 0 else mf


# ================================================================ the Alchemical Transformer (L857)


@rules_jit
def alchemy_factors(S, b, u):
    """What the Alchemical Transformer could double of unit u, stacked with
    it on its side: bit 1 its MgF (neither 0 nor infinite; a chaotic one
    too), bit 2 its RF (a number above 0, not a chaotic unit's, L857)."""
    s = S[b]
    t = ALCHEMICAL_TRANSFORMER
    if u == t or s['unit_where'][u] != UW_MAP or s['unit_hex'][u] != s['unit_hex'][t] \
            or s['unit_force'][u] != s['unit_force'][t]:
        return 0
    sd = side_of(S, b, u)
    bits = 0
    m = int(U_MGF[u, sd])
    if (m != 0 or U_MGF_MOON[u, sd] != 0) and m < INFINITE_MGF:
        bits |= 1
    if m >= 0 and not U_RF_SPECIAL[u, sd] and U_RF[u, sd] > 0:
        bits |= 2
    return bits


@rules_jit
def may_transform(S, b):
    """The active player controls the Alchemical Transformer, on the map, with
    a unit of his stacked with it that has an MgF or RF to double (L857)."""
    s = S[b]
    t = ALCHEMICAL_TRANSFORMER
    if s['unit_where'][t] != UW_MAP or force_of(S, b, t) != s['active']:
        return False
    for u in range(units_end(S, b)):
        if alchemy_factors(S, b, u) != 0:
            return True
    return False


@rules_jit
def mask_alchemy(S, b, p, mask):
    for u in range(units_end(S, b)):
        if alchemy_factors(S, b, u) != 0:
            mask[A_UNIT + u] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_alchemy(S, b, p, a):
    """A_UNIT + u: the Alchemical Transformer will double u's MgF or RF (which,
    next); ``CH_DONE``: it doubles no one until its owner's next movement phase."""
    s = S[b]
    s['alchemy_unit'] = -1
    s['alchemy_rf'] = 0
    if a == A_CHOICE + CH_DONE:
        return False
    s['alchemy_unit'] = a - A_UNIT
    return pose(S, b, PH_ALCHEMY_FACTOR, p)


@rules_jit
def mask_alchemy_factor(S, b, p, mask):
    bits = alchemy_factors(S, b, int(S[b]['alchemy_unit']))
    if bits & 1:
        mask[A_CHOICE + CH_ALCHEMY_MGF] = 1
    if bits & 2:
        mask[A_CHOICE + CH_ALCHEMY_RF] = 1


@rules_jit
def act_alchemy_factor(S, b, p, a):
    """``CH_ALCHEMY_MGF`` / ``CH_ALCHEMY_RF``: the factor doubled (``base.transformed``)."""
    S[b]['alchemy_rf'] = 1 if a == A_CHOICE + CH_ALCHEMY_RF else 0
    return False


# ================================================================ the Dwarf and his gifts (L853-L866)

DWARF = UNIT_IDS.index("dwarf")
STONE_MEN = np.array([u for u, i in enumerate(UNIT_IDS) if i.startswith("stone_men#")], np.int16)
CANNON_CULT = UNIT_IDS.index("cannon_cult")
CANNON_CULT_AGENT = UNIT_IDS.index("cannon_cult_agent")
DWARF_MINE = MAP.hex_index("2612")
IVORY_PLINTH = MAP.hex_index("2802")
GIFTS = np.array([int(x) for x in STONE_MEN] + [CANNON_CULT, CANNON_CULT_AGENT, ALCHEMICAL_TRANSFORMER], np.int16)
TUSK_RIDERS = np.array([u for u in range(NUM_UNITS) if U_TUSK_RIDER[u]], np.int16)

GIFT_SLAIN, GIFT_STONE_MAN, GIFT_CANNON, GIFT_TRANSFORMER, GIFT_ALLIES, GIFT_NONE = range(6)
"""What a roll on the Dwarf Luck Table gave (``dwarf_gift``'s result)."""


def _dwarf_luck_table():
    by_unit = {"Stone Man": GIFT_STONE_MAN, "Cannon Cult": GIFT_CANNON, "Alchemical Transformer": GIFT_TRANSFORMER}
    out = np.full(7, GIFT_NONE, np.int8)
    for roll, row in T.dwarf_luck.items():
        if row["result"] == "slain":
            out[roll] = GIFT_SLAIN
        elif row["result"] == "allies":
            out[roll] = GIFT_ALLIES
        else:
            out[roll] = by_unit[row["unit"]]
    return out


DWARF_LUCK = _dwarf_luck_table()
"""DWARF_LUCK[roll]: what roll 1-6 on the Dwarf Luck Table brings, a GIFT_*
(data/tables.txt [table dwarf_luck], L859-L866, L1139)."""
SACRIFICE_DENIED = np.array([0] + [T.tusk_riders[r]["alliance"] == "denied" for r in range(1, 7)], np.int8)
"""SACRIFICE_DENIED[roll]: the blood sacrifice's roll rejects the alliance and
eliminates the magician (data/tables.txt [table tusk_riders], L908)."""
assert all(T.tusk_riders[r]["sacrifice"] == "eliminated" for r in range(1, 7))
assert all((T.tusk_riders[r]["magician"] == "eliminated") == (T.tusk_riders[r]["alliance"] == "denied")
           for r in range(1, 7))


@rules_jit
def dwarf_ungiven(S, b, u):
    """Gift u is still the Dwarf's to give: never in play (UW_OUT) and the
    Dwarf not allied (his gifts are lost once he is, L855)."""
    s = S[b]
    return s['unit_where'][u] == UW_OUT and s['unit_force'][DWARF] < 0


@rules_jit
def dwarf_gift(S, b, f, emissary, roll):
    """Apply Dwarf Luck Table roll ``roll`` (1-6, L859-L866, L1139) for force
    f's emissary unit ``emissary`` visiting the Dwarf Mine. Returns a GIFT_*.

    1: the emissary alone is slain, the rest of its stack unaffected; a hero
    or superhero rolls its heroic escape (L855, ``base.eliminate``). 2-3: a
    Stone Man; 4: the Cannon Cult, its agent to its holding box (L416); 5: the
    Alchemical Transformer -- each gift force f's, on top of the emissary's
    stack (Interpretations 120). 6: the Dwarf allies, at the Dwarf Mine, and
    the gifts not given away are lost (L855). A gift of a type all given away
    gives nothing (GIFT_NONE, L855). The table may be rolled again on later
    visits (Q&A L1034)."""
    s = S[b]
    h = int(s['unit_hex'][emissary])
    gift = DWARF_LUCK[roll]
    if gift == GIFT_SLAIN:
        eliminate(S, b, emissary)
        return GIFT_SLAIN
    if s['unit_force'][DWARF] >= 0:
        return GIFT_NONE                          # allied already: nothing more to give (L855)
    if gift == GIFT_ALLIES:
        put_on_top(S, b, DWARF, DWARF_MINE)
        s['unit_force'][DWARF] = f
        for k in range(GIFTS.shape[0]):
            u = int(GIFTS[k])
            if s['unit_where'][u] == UW_OUT:
                s['unit_where'][u] = UW_DEAD      # lost: out of the game for good (L855)
        return GIFT_ALLIES
    if gift == GIFT_STONE_MAN:
        for k in range(STONE_MEN.shape[0]):
            u = int(STONE_MEN[k])
            if dwarf_ungiven(S, b, u):
                put_on_top(S, b, u, h)
                s['unit_force'][u] = f
                return GIFT_STONE_MAN
        return GIFT_NONE
    if gift == GIFT_CANNON:
        if not dwarf_ungiven(S, b, CANNON_CULT):
            return GIFT_NONE
        put_on_top(S, b, CANNON_CULT, h)
        s['unit_force'][CANNON_CULT] = f
        s['unit_force'][CANNON_CULT_AGENT] = f
        s['unit_where'][CANNON_CULT_AGENT] = UW_HOLDING
        s['unit_hex'][CANNON_CULT_AGENT] = -1
        return GIFT_CANNON
    if not dwarf_ungiven(S, b, ALCHEMICAL_TRANSFORMER):
        return GIFT_NONE
    put_on_top(S, b, ALCHEMICAL_TRANSFORMER, h)
    s['unit_force'][ALCHEMICAL_TRANSFORMER] = f
    return GIFT_TRANSFORMER


@rules_jit
def dwarf_luck(S, b, f, emissary):
    """Called by the alliance phase when force f's emissary ``emissary`` visits
    the Dwarf Mine (hex 2612): roll on the Dwarf Luck Table instead of the
    Emissary Table (L855) and apply it (``dwarf_gift``). Returns the GIFT_*.
    Called by ``alliance.act_alliance``."""
    return dwarf_gift(S, b, f, emissary, d6(S, b))


# ================================================================ the Tusk Riders' blood sacrifice (L906-L908)


@rules_jit
def blood_sacrifice(S, b, f, magician, victim):
    """Called by force f's alliance phase: its magician ``magician``, with unit
    ``victim`` (neither a disembodied spirit nor a treasure; heroes and
    superheroes may be) at the Ivory Plinth (hex 2802), sacrifices the victim
    and rolls a die (L906-L908). The victim is gone, no heroic escape. On a 1
    the alliance is rejected and the magician is eliminated too (a hero rolls
    its heroic escape, ``base.eliminate``); on 2-6 the Tusk Riders appear in
    the hex, force f's. Returns the roll. Called by ``alliance.act_sacrifice``."""
    s = S[b]
    h = int(s['unit_hex'][magician])
    killed(S, b, victim)
    s['unit_flags'][victim] = 0
    roll = d6(S, b)
    if SACRIFICE_DENIED[roll]:
        eliminate(S, b, magician)
        return roll
    for k in range(TUSK_RIDERS.shape[0]):
        u = int(TUSK_RIDERS[k])
        put_on_top(S, b, u, h)
        s['unit_force'][u] = f
    return roll
