"""Cragspider's Pillar of Fire (L764 = L718), her exotic magic.

Once per game, in her side's Exotic Magic Phase, Cragspider unleashes the
Pillar of Fire while her spirit lives; her spirit is eliminated by doing so.
She is one more exotic-ability unit (``exotic.ABLE``): chosen in PH_EXOTIC,
her target (PH_EXOTIC_TARGET) is the triangle's first hex, her spirit
eliminated as it is chosen; then her player names its other two hexes one at
a time (PH_PILLAR, A_HEX + h), each masked exactly:

* within Cragspider's RF (7 on her front; measured from her counter, which
  must be on the map, as for every exotic ability that strikes within an
  RF), on the map;
* each hex adjacent to every hex named before it (the three hexes of a
  triangle are each adjacent to the other two);
* never a hex from which the triangle could not be completed within her RF
  (``triangle_completable``), so the mask is never empty.

When the third hex is named, ``exotic_effect`` becomes EX_PILLAR:
superheroes in the three hexes choose whom they save (D&S), then
``exotic.pillar_of_fire`` eliminates every other unit there -- herds
(eliminated, not stampeded: L588 names the Pillar), disembodied spirits and
treasures included (the Pillar names D&S, not DS&T).

Interpretations (RULES.md, Interpretations 60; rows DP-INDEP-PILLAR-*):
* the triangle is named hex by hex; any hex in range that starts a triangle
  in range may be first, whether or not units stand there;
* "all units" are of both sides: Cragspider's own units and Cragspider
  herself, when in the triangle, are destroyed too (she, a hero, rolls her
  heroic escape, L642);
* a disembodied spirit on the map in the triangle is destroyed (D&S only).
"""
from dragongym.envs.core.jit import rules_jit
from ..board import HEX_STEP, NUM_HEXES
from ..constants import UW_DEAD
from ..state import PILLAR_HEXES
from .base import A_HEX, CRAGSPIDER, PH_PILLAR, U_BOUND, distance, in_list, laid_count, pose, rf_of, spirit_power_left

EX_PILLAR = 6          # exotic.EX_*: the Pillar of Fire strikes its three hexes (L764)


@rules_jit
def pillar_count(S, b):
    """The Pillar's hexes named so far."""
    return laid_count(S[b]['pillar_hexes'])


@rules_jit
def cragspider_can_pillar(S, b):
    """Cragspider may still unleash the Pillar of Fire: not yet used this game,
    she on the map with an RF, her spirit not eliminated (L764)."""
    return spirit_power_left(S, b, CRAGSPIDER, S[b]['pillar_used'])


@rules_jit
def triangle_completable(g, h, centre, rf):
    """Hexes g and h (adjacent, or h -1: g alone) can be completed to a
    triangle whose hexes all lie within ``rf`` of ``centre``."""
    for d in range(1, 7):
        k = HEX_STEP[g, d]
        if k < 0 or distance(k, centre) > rf:
            continue
        if h >= 0:
            if k != h and distance(k, h) == 1:
                return True
            continue
        # g alone: its neighbour k and a hex beside both (the next or the previous direction round g)
        for e in (d % 6 + 1, (d + 4) % 6 + 1):
            m = HEX_STEP[g, e]
            if m >= 0 and distance(m, centre) <= rf:
                return True
    return False


@rules_jit
def pillar_options(S, b, mask, first_only):
    """mask[A_HEX + h] = 1 for each hex the next hex of the Pillar of Fire may
    be (the module docstring); returns how many (with ``first_only``, stops at
    the first)."""
    s = S[b]
    centre = int(s['unit_hex'][CRAGSPIDER])
    rf = rf_of(S, b, CRAGSPIDER)
    n = pillar_count(S, b)
    h0 = int(s['pillar_hexes'][0]) if n > 0 else -1
    h1 = int(s['pillar_hexes'][1]) if n > 1 else -1
    count = 0
    for g in range(NUM_HEXES):
        if distance(g, centre) > rf or g == h0 or g == h1:
            continue
        if h0 >= 0 and distance(g, h0) != 1:
            continue
        if h1 >= 0 and distance(g, h1) != 1:
            continue
        if n < 2 and not triangle_completable(g, h0, centre, rf):
            continue
        count += 1
        if mask.shape[0] > 1:
            mask[A_HEX + g] = 1
        if first_only:
            return count
    return count


@rules_jit
def pillar_strikes(S, b, h):
    """Hex h is one of the Pillar of Fire's (for the superheroes' saves,
    ``magic.struck``)."""
    return in_list(S[b]['pillar_hexes'], h)


@rules_jit
def begin_pillar(S, b, p, a):
    """Cragspider unleashes the Pillar of Fire on hex a first: her spirit is
    eliminated and the Pillar used for the game (L764); its other two hexes
    are named next."""
    s = S[b]
    sp = U_BOUND[CRAGSPIDER]
    s['unit_where'][sp] = UW_DEAD
    s['unit_hex'][sp] = -1
    s['pillar_used'] = 1
    for k in range(s['pillar_hexes'].shape[0]):
        s['pillar_hexes'][k] = -1
    s['pillar_hexes'][0] = a - A_HEX
    return pose(S, b, PH_PILLAR, p)


@rules_jit
def mask_pillar(S, b, p, mask):
    pillar_options(S, b, mask, False)


@rules_jit
def act_pillar(S, b, p, a):
    """Hex a is the Pillar's next hex; with the third, it strikes
    (``exotic.exotic_phase`` applies EX_PILLAR)."""
    s = S[b]
    n = pillar_count(S, b)
    s['pillar_hexes'][n] = a - A_HEX
    if n + 1 < PILLAR_HEXES:
        return pose(S, b, PH_PILLAR, p)
    s['exotic_effect'] = EX_PILLAR
    return False


@rules_jit
def end_pillar(S, b):
    s = S[b]
    for k in range(s['pillar_hexes'].shape[0]):
        s['pillar_hexes'][k] = -1

