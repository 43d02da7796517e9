"""Delecti and his zombies (L815-L831; L486).

The chain. Zombie k (1..12) is unit ``ZOMBIE_1 + k - 1``; the zombies on the
map form the chain in the order of their numbers: its first is the lowest on
the map, its last the highest (L821, L823; ``base.chain_ends``;
Interpretations 112). The chain's falls, which disruption, elimination and
the end of a phase call, live in ``rules/base.py`` (it comes first).

Alliance (L819): the first emissary sent to Delecti allies him at once; the
emissary is eliminated (no heroic escape) and zombie 1 takes its place
(``ally_delecti``, called by the alliance phase -- wired with alliances).

New zombies (L821): each major unit -- a counter with a non-blank,
non-parenthesised CF (L127), not a dragon, a giant or a zombie -- eliminated
in a combat phase while in or beside the hex of Delecti or of a zombie
(``base.zombie_raised_by``, from ``base.eliminate``) owes one new zombie to
Delecti's controller (``zombies_owed``); the sequence of play places them
before it goes on (``raise_zombie``, from ``driver.advance``): numbered one
higher than the last of the chain, in a hex beside it -- or zombie 1 stacked
with Delecti when none is left -- not a lake or a river hex (ford and
headwaters allowed), holding no enemy, and beside no enemy unit unless units
of Delecti's side are there. One such hex: it goes there; several: Delecti's
controller chooses (``PH_ZOMBIE_RISE``, masked exactly); none, or the last
of the chain is zombie 12: no zombie (L821: at most 12). Interpretations 110, 111.

Movement (L486, L823): zombies never move in a group of the ordinary kind
(``movement.movable``); the chain moves as one. In the movement phase its
controller picks the first or the last of the chain (``PH_MOVE``, A_UNIT)
to lead; the leader steps hex by hex (``PH_ZOMBIE_MARCH``), 1 MP a hex
whatever the terrain or weather, never into a lake or a river hex but a ford
or headwaters, nor an enemy's hex, nor (on its first step out of an enemy
ZOC) straight into another enemy ZOC hex (L460); every other zombie follows
the same path, each stepping into the hex the one before it left (a snake;
one already there stays). Entering an enemy ZOC stops the leader and the
chain (L460). A follower that cannot take its step -- it has no MP left, or
it stands in an enemy ZOC it entered on this move, or would step from one
enemy ZOC straight into another -- is eliminated with every zombie behind it
(L825). Interpretations 113.

Elimination (L825): a zombie that suffers a disruption is eliminated with
every zombie after it in the chain (``base.zombie_disrupted``); at the end of every
phase, Delecti not on the map (eliminated) or not stacked with one of his
zombies: every zombie is eliminated (``base.zombies_settle``, from
``base.herds_settle``, which every phase's end calls).

Combat (L829): a zombie is worth a CF of 2 as a melee or physical magic
casualty, whatever the terrain (``combat.casualty_value2``,
``magic.phys_value2``); when zombies fight in a melee attack, their side's
CF total gets 2 for every zombie on the board in place of the fighting
zombies' own CFs, whatever the terrain, with no leadership added
(``combat.strength_by_unit``); defending zombies do not counter-attack nor
retreat (``combat.fighting_units``, ``combat.may_retreat``).
Interpretations 114.

Spirit magic (L827): defending zombies use Delecti's MgF, once, for DSM
and in the defenders' MgF (``magic.zombies_mgf2``, ``magic.dsm_total``,
``magic.nonnegative_mgf``), whether or not Delecti is in the battle (where he
is, his own MgF serves); a spirit loss of at least Delecti's MgF may take all
the battle's zombies at once, for his MgF (``magic.casualty_value``,
``magic.act_magic_casualty``). Interpretations 115.
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..board import HEX_FORD, HEX_RIVER, HEX_STEP, NUM_HEXES
from ..constants import SIDE_FRONT, UF_ADVANCED, UF_MOVED, UW_MAP
from .base import (
    A_CHOICE, A_HEX, A_UNIT, CH_DONE, DELECTI, PH_ZOMBIE_MARCH, PH_ZOMBIE_RISE, TERRAIN_LAKE, HEX_TERRAIN, ZOMBIE_1,
    ZOMBIE_LAST, chain_ends, chain_falls, force_of, killed, occupy, pose, put_on_top, scan_board, shut, foes_of,
)

UF_MARCHED = UF_ADVANCED
"""A zombie that has stepped in the chain's move now (the movement phase
borrows the combat phase's advance flag; cleared when the move ends)."""


@rules_jit
def zombie_ground(g):
    """A zombie may enter (or rise in) hex g: not a lake, not a river hex but a ford or headwaters (L823)."""
    return HEX_TERRAIN[g] != TERRAIN_LAKE and (HEX_RIVER[g] == 0 or HEX_FORD[g] != 0)


# ------------------------------------------------------------------ new zombies (L821)
@rules_jit
def rise_hexes(S, b, mask):
    """mask[A_HEX + g] = 1 for every hex the next new zombie may be placed in
    (L821; the module's docstring); returns how many."""
    s = S[b]
    f = force_of(S, b, DELECTI)
    if f < 0:
        return 0
    first, last = chain_ends(S, b)
    if last == ZOMBIE_LAST:
        return 0                                   # at most 12 zombies (L821)
    occ = np.empty(NUM_HEXES, np.int8)
    zoc = np.empty(NUM_HEXES, np.int8)
    scan_board(S, b, occ, zoc)
    n = 0
    if last < 0:
        if s['unit_where'][DELECTI] != UW_MAP:
            return 0
        lo, hi = 0, 0                              # zombie 1 stacked with Delecti
        h = s['unit_hex'][DELECTI]
    else:
        lo, hi = 1, 6
        h = s['unit_hex'][last]
    for d in range(lo, hi + 1):
        g = h if d == 0 else HEX_STEP[h, d]
        if g < 0 or shut(S, b, g) or not zombie_ground(g):
            continue
        if occ[g] >= 0 and occ[g] != f:
            continue
        if occ[g] != f:
            near_enemy = False
            for e in range(1, 7):
                x = HEX_STEP[g, e]
                if x >= 0 and occ[x] >= 0 and occ[x] != f:
                    near_enemy = True
            if near_enemy:
                continue
        n += 1
        if mask.shape[0] > 1:
            mask[A_HEX + g] = 1
    return n


@rules_jit
def rise_at(S, b, g):
    """The next new zombie rises at hex g, on top of the stack there, Delecti's controller's."""
    s = S[b]
    first, last = chain_ends(S, b)
    z = ZOMBIE_1 if last < 0 else last + 1
    f = force_of(S, b, DELECTI)
    s['unit_force'][z] = f
    s['unit_side'][z] = SIDE_FRONT
    s['unit_flags'][z] = UF_MOVED
    s['unit_mp'][z] = 0
    put_on_top(S, b, z, g)
    occupy(S, b, f, g)
    s['zombies_owed'] -= 1


@rules_jit
def raise_zombie(S, b):
    """Place the zombies owed (the sequence of play, before it goes on): each
    in its only hex, or Delecti's controller chooses (``PH_ZOMBIE_RISE``);
    with no hex, none is created (L821). True if a decision is posed."""
    s = S[b]
    one = np.zeros(NUM_HEXES + A_HEX, np.int8)
    while s['zombies_owed'] > 0:
        for k in range(one.shape[0]):
            one[k] = 0
        n = rise_hexes(S, b, one)
        if n == 0:
            s['zombies_owed'] = 0
            return False
        if n > 1:
            return pose(S, b, PH_ZOMBIE_RISE, force_of(S, b, DELECTI))
        g = A_HEX
        while one[g] == 0:
            g += 1
        rise_at(S, b, g - A_HEX)
    return False


@rules_jit
def mask_zombie_rise(S, b, p, mask):
    rise_hexes(S, b, mask)


@rules_jit
def act_zombie_rise(S, b, p, a):
    rise_at(S, b, a - A_HEX)
    return False


# ------------------------------------------------------------------ the chain's move (L486, L823)
@rules_jit
def chain_may_move(S, b, p):
    """Force p's zombie chain may still move this phase: its zombies are p's,
    on the map, not yet moved, with MPs (``movement.start_movement``)."""
    s = S[b]
    first, last = chain_ends(S, b)
    return first >= 0 and force_of(S, b, first) == p and (s['unit_flags'][first] & UF_MOVED) == 0 \
        and s['unit_mp'][first] > 0


@rules_jit
def mask_chain_leaders(S, b, p, mask):
    """``PH_MOVE``: the first and the last zombie of the chain may lead its move (L823)."""
    if chain_may_move(S, b, p):
        first, last = chain_ends(S, b)
        mask[A_UNIT + first] = 1
        mask[A_UNIT + last] = 1


@rules_jit
def start_march(S, b, p, z):
    """Zombie z, the first or the last of the chain, leads the chain's move."""
    s = S[b]
    s['zombie_lead'] = z
    s['zombie_steps'] = 0
    return pose(S, b, PH_ZOMBIE_MARCH, p)


@rules_jit
def march_step(S, b):
    """+1: the leader is the first zombie, the chain follows in rising numbers; -1: the last."""
    first, last = chain_ends(S, b)
    return 1 if S[b]['zombie_lead'] == first else -1


@rules_jit
def mask_zombie_march(S, b, p, mask):
    s = S[b]
    z = int(s['zombie_lead'])
    mask[A_CHOICE + CH_DONE] = 1
    if s['unit_mp'][z] < 2:
        return
    occ = np.empty(NUM_HEXES, np.int8)
    zoc = np.empty(NUM_HEXES, np.int8)
    scan_board(S, b, occ, zoc)
    h = s['unit_hex'][z]
    bit = foes_of(p)
    for d in range(1, 7):
        g = HEX_STEP[h, d]
        if g < 0 or shut(S, b, g) or not zombie_ground(g):
            continue
        if occ[g] >= 0 and occ[g] != p:
            continue
        if s['zombie_steps'] == 0 and (zoc[h] & bit) != 0 and (zoc[g] & bit) != 0:
            continue                                  # from one enemy ZOC straight into another (L460)
        mask[A_HEX + g] = 1


@rules_jit
def end_march(S, b):
    s = S[b]
    for z in range(ZOMBIE_1, ZOMBIE_LAST + 1):
        if s['unit_where'][z] == UW_MAP:
            s['unit_flags'][z] = (s['unit_flags'][z] & ~UF_MARCHED) | UF_MOVED
    s['zombie_lead'] = -1
    s['zombie_steps'] = 0


@rules_jit
def act_zombie_march(S, b, p, a):
    """The leader steps into hex a; every other zombie follows into the hex the
    one before it left, or, unable to, falls with all the zombies behind it
    (L825). CH_DONE, or an enemy ZOC entered by the leader, ends the move."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        end_march(S, b)
        return False
    z = int(s['zombie_lead'])
    step = march_step(S, b)
    g = a - A_HEX
    occ = np.empty(NUM_HEXES, np.int8)
    zoc = np.empty(NUM_HEXES, np.int8)
    scan_board(S, b, occ, zoc)
    bit = foes_of(p)
    left = int(s['unit_hex'][z])
    s['unit_mp'][z] -= 2
    s['unit_flags'][z] |= UF_MARCHED
    put_on_top(S, b, z, g)
    occupy(S, b, p, g)
    v = z + step
    while ZOMBIE_1 <= v <= ZOMBIE_LAST and s['unit_where'][v] == UW_MAP:
        here = int(s['unit_hex'][v])
        if here != left:
            in_zoc = (zoc[here] & bit) != 0
            marched = (s['unit_flags'][v] & UF_MARCHED) != 0
            into_zoc = (zoc[left] & bit) != 0
            # no MP left, or stopped by the enemy ZOC it entered, or from one ZOC straight into another (L460)
            if s['unit_mp'][v] < 2 or (in_zoc and (marched or into_zoc)):
                chain_falls(S, b, v, step)            # unable to follow (L825)
                break
            s['unit_mp'][v] -= 2
            s['unit_flags'][v] |= UF_MARCHED
            put_on_top(S, b, v, left)
            occupy(S, b, p, left)
        left = here
        v += step
    s['zombie_steps'] += 1
    if (zoc[g] & bit) != 0:
        end_march(S, b)                               # an enemy ZOC stops the chain (L460)
        return False
    return pose(S, b, PH_ZOMBIE_MARCH, p)


# ------------------------------------------------------------------ alliance (L819)
@rules_jit
def ally_delecti(S, b, f, emissary):
    """Called by the alliance phase when force f sends its first emissary to
    Delecti (L819): Delecti is allied to f at once; the emissary (a unit on
    the map, by Delecti) is eliminated -- a hero or superhero makes no
    heroic escape -- and zombie 1 takes its place, in its hex
    (``alliance.act_alliance``)."""
    s = S[b]
    h = s['unit_hex'][emissary]
    s['unit_force'][DELECTI] = f
    for z in range(ZOMBIE_1, ZOMBIE_LAST + 1):
        s['unit_force'][z] = f
    killed(S, b, emissary)                            # no heroic escape (L819)
    s['unit_flags'][emissary] = 0
    s['unit_side'][ZOMBIE_1] = SIDE_FRONT
    put_on_top(S, b, ZOMBIE_1, h)
    occupy(S, b, f, h)
