"""The Earth-Shaker's Cult's earthquake (L720 = L776), the Exiles' exotic magic.

Once per game, in its side's Exotic Magic Phase, the cult unleashes an
earthquake while its spirit lives; the spirit is eliminated by doing so.
The cult is one more exotic-ability unit (``exotic.ABLE``): chosen in
PH_EXOTIC, its target (PH_EXOTIC_TARGET, as the Stormwalkers' Type 2 storm
is; no decision of its own) is the earthquake's type, CH_QUAKE_1 (one
fracture line of 8 hexes) or CH_QUAKE_2 (two lines of 5), its spirit
eliminated as it is chosen; then its player lays the fracture hexes one at
a time (PH_FRACTURE, A_HEX + h), each masked exactly:

* within the cult's RF (10 on its front; measured from the cult's counter,
  which must be on the map, as for every exotic ability that strikes within
  an RF);
* a line's first hex anywhere in range, each next hex adjacent to the hex
  laid before it (a chain of adjacent hexes, "need not be straight, can go
  anywhere"), never a hex already on a line (no revisiting);
* the second line of a Type 2 quake: no hex of it adjacent to (or on) a
  hex of the first line;
* never a hex from which the line could not be completed
  (``completable``: a search for the rest of the line over the hexes still
  allowed), so the mask is never empty (a Type 2's second line always
  finds room once the first is laid: ``quake_choices``);
* never a hex that would enclose more than 2 hexes (Type 1) or any hex
  (Type 2) (``enclosed_hexes``).

When the last hex is laid, ``exotic_effect`` becomes EX_QUAKE: superheroes
on the struck hexes choose whom they save (D&S), then ``exotic.apply_effect``
disrupts the units on the fracture hexes (herds stampede, ``base.stampede``),
eliminates the units in the enclosed hexes, and badly damages the fortresses
on the line (``fortress_damaged``: clear terrain for the rest of the game,
``base.ground``; still a fortress for victory). Disembodied spirits (and
treasures, of which the game has none) are unaffected (DS&T).

Interpretations (RULES.md, Interpretations 53; rows DP-INDEP-QUAKE-*):
* "no 2 hexes of each line can be adjacent" (Type 2): no hex of one line
  is adjacent to a hex of the other; within a line, hexes may touch.
* A fracture line never passes through the same hex twice.
* An enclosed area: the hexes off the fracture lines that are cut off by
  them from the board's edge -- a connected set of non-fracture hexes, none
  of them an edge hex. The map's edge is open: the land goes on beyond it,
  so a region the line cuts off against the edge is not enclosed.
* "Most types of units on a fracture line are disrupted": all but the
  disembodied spirits and treasures (DS&T, as in the enclosed hexes) and the
  herds, which stampede.
"""
import numpy as np

from dragongym.envs.core.jit import local_zeros, rules_jit
from ..board import HEX_FORTRESS, HEX_STEP, NUM_HEXES
from ..constants import UNIT_IDS, UW_DEAD
from ..state import MAX_FRACTURE_HEXES
from .base import A_CHOICE, A_HEX, CH_QUAKE_1, CH_QUAKE_2, PH_FRACTURE, U_BOUND, distance, laid_count, pose, rf_of, spirit_power_left

EARTH_SHAKERS_CULT = UNIT_IDS.index("earth_shakers_cult")
EX_QUAKE = 5           # exotic.EX_*: the earthquake strikes its fracture hexes (L720)
TYPE1_LENGTH = 8       # Type 1: a single fracture 8 hexes in length (L720)
TYPE2_LENGTH = 5       # Type 2: two fracture lines, each of 5 hexes (L720)
TYPE1_ENCLOSED = 2     # a Type 1 can create a closed area of 2 hexes (L720); a Type 2 none
MAX_AREA = 10
"""An area of more than 10 hexes cannot be enclosed by 10 fracture hexes (a
ring around 7 hexes already needs 12), so a flood fill that finds more is
open ground: the search stops there."""
assert 2 * TYPE2_LENGTH <= MAX_FRACTURE_HEXES and TYPE1_LENGTH <= MAX_FRACTURE_HEXES

HEX_EDGE = np.array([any(HEX_STEP[h, d] < 0 for d in range(1, 7)) for h in range(NUM_HEXES)], np.int8)
"""A hex on the board's edge (a neighbour off the map)."""


@rules_jit
def line_length(t):
    return TYPE1_LENGTH if t == 1 else TYPE2_LENGTH


@rules_jit
def quake_length(t):
    """All the fracture hexes of a quake of type t."""
    return TYPE1_LENGTH if t == 1 else 2 * TYPE2_LENGTH


@rules_jit
def fracture_count(S, b):
    """The fracture hexes laid so far."""
    return laid_count(S[b]['fracture_hexes'])


@rules_jit
def cult_can_quake(S, b):
    """The cult may still unleash its earthquake: not yet used this game, the
    cult on the map with an RF, its spirit not eliminated (L720)."""
    return spirit_power_left(S, b, EARTH_SHAKERS_CULT, S[b]['quake_used'])


# ================================================================ the geometry
@rules_jit
def mark_fractures(S, b, fract):
    """fract[h] = 1 for each fracture hex laid so far."""
    s = S[b]
    for k in range(s['fracture_hexes'].shape[0]):
        h = s['fracture_hexes'][k]
        if h >= 0:
            fract[h] = 1


@rules_jit
def flood_area(fract, mark, seed, queue):
    """The area of non-fracture hexes around ``seed``: its size if it is
    enclosed (its hexes marked 1 in ``mark``), else 0 (it reaches the board's
    edge, open ground already found -- mark 2 -- or more than MAX_AREA
    hexes; what was visited is marked 2)."""
    n = 1
    queue[0] = seed
    mark[seed] = 3
    i = 0
    is_open = False
    while i < n and not is_open:
        h = queue[i]
        i += 1
        if HEX_EDGE[h] or n > MAX_AREA:
            is_open = True
            break
        for d in range(1, 7):
            g = HEX_STEP[h, d]
            if g < 0 or fract[g]:
                continue
            if mark[g] == 2:
                is_open = True
                break
            if mark[g] == 0:
                mark[g] = 3
                queue[n] = g
                n += 1
    for k in range(n):
        mark[queue[k]] = 2 if is_open else 1
    return 0 if is_open else n


@rules_jit
def enclosed_hexes(fract, mark):
    """mark[h] = 1 for each hex the fracture hexes ``fract`` enclose (an area
    cut off from the board's edge, Interpretations); returns how many.
    ``mark`` comes zeroed; other hexes it visits are left 2."""
    queue = local_zeros(NUM_HEXES, np.int16)
    total = 0
    for h in range(NUM_HEXES):
        if not fract[h]:
            continue
        for d in range(1, 7):
            g = HEX_STEP[h, d]
            if g >= 0 and not fract[g] and mark[g] == 0:
                total += flood_area(fract, mark, g, queue)
    return total


@rules_jit
def quake_strikes(S, b, h):
    """Hex h is on a fracture line or enclosed by the quake being applied
    (for the superheroes' saves, ``magic.struck``)."""
    fract = local_zeros(NUM_HEXES, np.int8)
    mark = local_zeros(NUM_HEXES, np.int8)
    mark_fractures(S, b, fract)
    if fract[h]:
        return True
    enclosed_hexes(fract, mark)
    return mark[h] == 1


@rules_jit
def completable(blk, start, left, centre, rf, onpath, path, dirs):
    """A line can go on from ``start`` for ``left`` more hexes, each adjacent to
    the one before, in range of ``centre``, off ``blk`` and off the line
    itself: a depth-first search that stops at the first such line."""
    if left <= 0:
        return True
    depth = 0
    path[0] = start
    dirs[0] = 0
    onpath[start] = 1
    found = False
    while depth >= 0:
        h = path[depth]
        dirs[depth] += 1
        d = dirs[depth]
        if d > 6:
            onpath[h] = 0
            depth -= 1
            continue
        g = HEX_STEP[h, d]
        if g < 0 or blk[g] or onpath[g] or distance(g, centre) > rf:
            continue
        if depth + 1 == left:
            found = True
            break
        depth += 1
        path[depth] = g
        dirs[depth] = 0
        onpath[g] = 1
    if found:
        for k in range(depth + 1):
            onpath[path[k]] = 0
    return found


@rules_jit
def blocked_hexes(S, b, blk):
    """blk[h] = 1 where the next fracture hex may not go: a hex already on a
    line, and, for the second line of a Type 2 quake, a hex beside the first
    line (L720, Interpretations)."""
    s = S[b]
    n = fracture_count(S, b)
    mark_fractures(S, b, blk)
    if s['quake_type'] == 2 and n >= TYPE2_LENGTH:
        for k in range(TYPE2_LENGTH):
            h = s['fracture_hexes'][k]
            for d in range(1, 7):
                g = HEX_STEP[h, d]
                if g >= 0:
                    blk[g] = 1


@rules_jit
def fracture_options(S, b, t, mask, first_only):
    """mask[A_HEX + h] = 1 for each hex the next fracture hex of a type t quake
    may go to (the module docstring); returns how many (with ``first_only``,
    stops at the first)."""
    s = S[b]
    centre = int(s['unit_hex'][EARTH_SHAKERS_CULT])
    rf = rf_of(S, b, EARTH_SHAKERS_CULT)
    n = fracture_count(S, b)
    length = line_length(t)
    laid = n % length                       # hexes of the current line laid so far
    left = length - laid - 1                # hexes still to lay after this one
    blk = local_zeros(NUM_HEXES, np.int8)
    blocked_hexes(S, b, blk)
    onpath = local_zeros(NUM_HEXES, np.int8)
    path = local_zeros(16, np.int64)
    dirs = local_zeros(16, np.int64)
    fract = local_zeros(NUM_HEXES, np.int8)
    mark = local_zeros(NUM_HEXES, np.int8)
    prev = int(s['fracture_hexes'][n - 1]) if laid > 0 else -1
    count = 0
    for g in range(NUM_HEXES):
        if blk[g] or distance(g, centre) > rf:
            continue
        if prev >= 0 and distance(g, prev) != 1:
            continue
        if not completable(blk, g, left, centre, rf, onpath, path, dirs):
            continue
        if n + 1 >= 6:
            # a closed ring needs 6 hexes at least: before that nothing is enclosed
            for h in range(NUM_HEXES):
                fract[h] = 0
                mark[h] = 0
            mark_fractures(S, b, fract)
            fract[g] = 1
            if enclosed_hexes(fract, mark) > (TYPE1_ENCLOSED if t == 1 else 0):
                continue
        count += 1
        if mask.shape[0] > 1:
            mask[A_HEX + g] = 1
        if first_only:
            return count
    return count


@rules_jit
def quake_choices(S, b, mask):
    """mask[A_CHOICE + CH_QUAKE_1 / 2] = 1 for each type of earthquake the cult
    can unleash now; returns how many. (A Type 2's second line always finds
    room once its first is laid: the hexes in range of an RF of 10 are at
    least the 66 of a corner's sector, the first line and its neighbours at
    most 17 of them.)"""
    if not cult_can_quake(S, b):
        return 0
    dummy = np.zeros(1, np.int8)
    n = 0
    for t in range(1, 3):
        if fracture_options(S, b, t, dummy, True) > 0:
            n += 1
            if mask.shape[0] > 1:
                mask[A_CHOICE + (CH_QUAKE_1 if t == 1 else CH_QUAKE_2)] = 1
    return n


# ================================================================ the decisions
@rules_jit
def begin_quake(S, b, p, a):
    """The cult unleashes its earthquake of the type chosen: its spirit is
    eliminated, and the quake is used for the game (L720); its fracture hexes
    are laid next."""
    s = S[b]
    sp = U_BOUND[EARTH_SHAKERS_CULT]
    s['unit_where'][sp] = UW_DEAD
    s['unit_hex'][sp] = -1
    s['quake_used'] = 1
    s['quake_type'] = 1 if a == A_CHOICE + CH_QUAKE_1 else 2
    for k in range(s['fracture_hexes'].shape[0]):
        s['fracture_hexes'][k] = -1
    return pose(S, b, PH_FRACTURE, p)


@rules_jit
def mask_fracture(S, b, p, mask):
    fracture_options(S, b, int(S[b]['quake_type']), mask, False)


@rules_jit
def act_fracture(S, b, p, a):
    """Hex a is the next fracture hex; with the last, the quake strikes
    (``exotic.exotic_phase`` applies EX_QUAKE)."""
    s = S[b]
    n = fracture_count(S, b)
    s['fracture_hexes'][n] = a - A_HEX
    if n + 1 < quake_length(int(s['quake_type'])):
        return pose(S, b, PH_FRACTURE, p)
    s['exotic_effect'] = EX_QUAKE
    return False


@rules_jit
def damage_fortresses(S, b, fract):
    """Each fortress on a fracture line is badly damaged for the rest of the
    game (L720; ``base.ground``)."""
    s = S[b]
    for h in range(NUM_HEXES):
        if fract[h] and HEX_FORTRESS[h] >= 0:
            s['fortress_damaged'][HEX_FORTRESS[h]] = 1


@rules_jit
def end_quake(S, b):
    s = S[b]
    for k in range(s['fracture_hexes'].shape[0]):
        s['fracture_hexes'][k] = -1
    s['quake_type'] = 0
