"""The giants (L914-L920) and the dinosaurs (L833-L837).

Giants come only by the Random Events Table (21-26, L963-L968): each such
event puts one of the three giants not on the map at Giants Walk, hex 4505
(``giant_arrives``); a unit there is destroyed (L344; RULES.md
Interpretations 141). A giant is no one's (``unit_force`` NEUTRAL): both
players' units are inactive to it, it holds its hex against either and its
zone of control stops the units of both (``constants.OCC_GIANTS``,
``base.scan_board``). In a player's own combat phase his stacks beside giants
fight them, and Argrath's Giantmaster makes one giant his side's while they
are stacked (``giantmaster.py``; Interpretations 162-165).

In every player-turn's Random Movement Phase (``constants.ST_RANDOM_MOVE``,
before the Alliance and Movement Phases, L176-L178) the active player moves every
giant like a normal unit (L490, L918): one giant at a time, step by step
(``PH_GIANT_STEP``), paying the terrain's costs with its MF, entering no hex
that holds units other than giants, and stopped by entering the zone of
control of either player's units (L460: a giant that begins beside units
may not step straight into another such hex). Then every giants' stack
beside units attacks them by the normal combat rules (L918,
``next_giant_battle``): one battle against each player's stacks beside it,
the inactive player's first, fought by the combat stage's steps with the
giants lent for the battle to the other player, who decides for them
(``giant_foe``; Interpretations 148); the battle over, they are no one's
again (``combat.end_battle``) and the phase comes back here.

Dinosaurs: ``place_dinosaurs`` sets one physical dinosaur on each dinosaur
symbol at random (L835), the Trachodons' spirits in their holding boxes
(L416); the setup of 18.7 and 18.9 calls it before any other unit is
placed. A neutral dinosaur is read like a neutral herd
(``base.neutral_herd``): no one's hex, no zone of control, any unit may
stack with it. ``dinosaurs_settle`` (at the end of every phase and battle)
allies a dinosaur with the player whose units end a phase stacked with it,
and returns one left alone to neutrality, except in the movement phase
(L835); an advance after combat ending on neutral dinosaurs allies them
(L600, ``dinosaurs_allied_by_advance``).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..board import HEX_STEP, NUM_HEXES, HEX_TERRAIN
from ..constants import NEUTRAL, NUM_FORCES, NUM_UNITS, ST_ALLIANCE, ST_COMBAT, ST_EXOTIC, ST_MOVEMENT, UF_MOVED, UW_HOLDING, UW_MAP
from ..data import MAP
from .base import (
    A_CHOICE, A_HEX, CH_DONE, PH_GIANT_STEP, TERRAIN_LAKE, U_DINOSAUR, U_DINOSAUR_ON_MAP, U_GIANT, U_MAGICIAN,
    exerts_zoc, killed, mf_of, pose, put_on_top, roll, scan_board, stack_at, step_cost, units_end, SCENARIO_DIPLOMACY,
)
from .movement import road_after, start_movement
from .combat import CS_ARRANGE_ATT, CS_MISSILE_DEF_AIM, begin_battle
from .exotic import EX_FLOOD, EXS_DAY

GIANTS = np.array([u for u in range(NUM_UNITS) if U_GIANT[u]], np.int64)
"""The giants' counters, giants#1..#3 (L920)."""
GIANTS_WALK = MAP.hex_index("4505")
"""Hex 4505, Giants Walk on the north-east edge, where the giants appear (L916, L963)."""
DINOSAUR_SYMBOLS = np.array(MAP.dinosaur_symbols, np.int64)
"""The 12 hexes with a dinosaur symbol (data/map.txt)."""
DINOSAURS_ON_MAP = U_DINOSAUR_ON_MAP
"""The 12 dinosaurs that stand on the map: 3 Brontosauri, 3 Pteradons, 3
Trachodons, 3 Tricerotops Spirits (physical units, L837). The Trachodons'
three spirits are a magician's spirits and wait in their holding boxes
(L416): 12 counters for 12 symbols (Interpretations 145)."""
DINOSAUR_SPIRITS = np.array([u for u in range(NUM_UNITS) if U_DINOSAUR[u] and U_MAGICIAN[u] >= 0], np.int64)
assert DINOSAURS_ON_MAP.shape[0] == DINOSAUR_SYMBOLS.shape[0], "one dinosaur per dinosaur symbol (L835)"


# ================================================================ the giants
@rules_jit
def giant_arrives(S, b):
    """Random events 21-26: a giant not on the map (never yet in play, or
    eliminated) is placed at Giants Walk; none when all three are in play.
    Every other unit at 4505 is destroyed (L344, Interpretations 141).
    Returns the giant placed, -1 if none."""
    s = S[b]
    g = -1
    for k in range(GIANTS.shape[0]):
        u = GIANTS[k]
        if s['unit_where'][u] != UW_MAP:
            g = u
            break
    if g < 0:
        return -1
    if s['units_end'] < g + 1:
        s['units_end'] = g + 1
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == GIANTS_WALK and not U_GIANT[v]:
            killed(S, b, v)
    s['unit_force'][g] = NEUTRAL
    s['unit_side'][g] = 0
    s['unit_flags'][g] = 0
    put_on_top(S, b, g, GIANTS_WALK)
    return g


@rules_jit
def giants_on_map(S, b):
    s = S[b]
    n = 0
    for k in range(GIANTS.shape[0]):
        if GIANTS[k] < units_end(S, b) and s['unit_where'][GIANTS[k]] == UW_MAP:
            n += 1
    return n


@rules_jit
def players_zoc(S, b, g, occ):
    """Hex g is in the zone of control of some player's stack (L460): the
    giants' own zones do not stop them."""
    out = np.empty(NUM_UNITS, np.int64)
    for d in range(1, 7):
        x = HEX_STEP[g, d]
        if x < 0 or occ[x] < 0 or occ[x] >= NUM_FORCES:        # a player's stack, not the giants'
            continue
        if stack_at(S, b, x, out) > 0 and exerts_zoc(S, b, out[0]):
            return True
    return False


@rules_jit
def start_random_movement(S, b):
    """The Random Movement Phase begins: every giant gets its MF (L456, L918)."""
    s = S[b]
    for k in range(GIANTS.shape[0]):
        u = GIANTS[k]
        if u < units_end(S, b) and s['unit_where'][u] == UW_MAP:
            s['unit_mp'][u] = 2 * mf_of(S, b, u)
            s['unit_road'][u] = 0
            s['unit_flags'][u] = 0
    s['cursor'] = -1
    s['group_moved'] = 0
    s['giant_fought'] = 0
    s['step'] = 0


@rules_jit
def next_giant_battle(S, b):
    """After the giants' movement: the next battle of a giants' stack against
    the units of one force beside it (L918: "any giants that end their
    movement adjacent to any players' units will attack all of those units
    according to normal combat rules"), the inactive player's units first.
    The giants are lent for the battle to the other force, whose player
    decides for them (arrangement, casualties they inflict, advance);
    the attacked player retreats and takes his casualties as a defender
    (Interpretations 148). Returns True if a battle was begun."""
    s = S[b]
    occ = np.empty(NUM_HEXES, np.int8)
    zoc = np.empty(NUM_HEXES, np.int8)
    scan_board(S, b, occ, zoc)
    active = int(s['active'])
    for k in range(GIANTS.shape[0]):
        u = GIANTS[k]
        if u >= units_end(S, b) or s['unit_where'][u] != UW_MAP or s['unit_force'][u] >= 0:
            continue          # Argrath's giant fights as his side's, not on its own (L686)
        h = int(s['unit_hex'][u])
        for i in range(2):
            f = 1 - active if i == 0 else active
            if s['giant_fought'] & (1 << (2 * k + f)):
                continue
            # every giant of this stack fights in this battle: none fights it again
            for j in range(GIANTS.shape[0]):
                if s['unit_where'][GIANTS[j]] == UW_MAP and s['unit_hex'][GIANTS[j]] == h:
                    s['giant_fought'] |= 1 << (2 * j + f)
            n = 0
            for d in range(1, 7):
                g = HEX_STEP[h, d]
                if g >= 0 and occ[g] == f:
                    s['bat_def'][n] = g
                    n += 1
            if n == 0:
                continue
            s['bat_att'][0] = h
            for j in range(GIANTS.shape[0]):
                if s['unit_where'][GIANTS[j]] == UW_MAP and s['unit_hex'][GIANTS[j]] == h:
                    s['unit_force'][GIANTS[j]] = 1 - f
            s['giant_foe'] = f + 1
            s['bat_foe'] = f
            s['active'] = 1 - f           # two-player: giants come by random events only (L950)
            s['stage'] = ST_COMBAT
            begin_battle(S, b)
            # no magic in the giants' battles: no spirit was committed (Interpretations 148)
            s['step'] = CS_MISSILE_DEF_AIM if s['with_missile'] else CS_ARRANGE_ATT
            s['cursor'] = 0
            return True
    return False


@rules_jit
def random_movement_phase(S, b):
    """The driver's stage function: pose the next giant's step to the active
    player (``step`` 0); once every giant has moved, their battles (``step``
    1, ``next_giant_battle``); then the player-turn goes on to its movement
    (the storm's flood first, where its day begins with it). Returns True if
    a decision is posed."""
    s = S[b]
    occ = np.empty(NUM_HEXES, np.int8)
    zoc = np.empty(NUM_HEXES, np.int8)
    if s['step'] == 0:
        if s['cursor'] < 0:
            for k in range(GIANTS.shape[0]):
                u = GIANTS[k]
                if u < units_end(S, b) and s['unit_where'][u] == UW_MAP and not s['unit_flags'][u] & UF_MOVED \
                        and s['unit_force'][u] < 0:       # Argrath's giant is his side's (L686)
                    s['cursor'] = u
                    s['group_moved'] = 0
                    scan_board(S, b, occ, zoc)
                    s['group_zoc_start'] = 1 if players_zoc(S, b, int(s['unit_hex'][u]), occ) else 0
                    break
        if s['cursor'] >= 0:
            return pose(S, b, PH_GIANT_STEP, int(s['active']))
        s['step'] = 1
    s['cursor'] = -1
    if next_giant_battle(S, b):
        return False          # the battle is fought in the combat stage, which comes back here
    for k in range(GIANTS.shape[0]):
        u = GIANTS[k]
        if u < units_end(S, b):
            s['unit_mp'][u] = 0
            s['unit_flags'][u] = 0
    start_movement(S, b)
    s['stage'] = ST_MOVEMENT
    s['step'] = 0
    if SCENARIO_DIPLOMACY[int(s['scenario'])]:
        s['stage'] = ST_ALLIANCE              # the Alliance Phase follows (L176; alliance.py brings the flood)
    elif s['exotic_effect'] == EX_FLOOD:       # the storm's third day begins with the flood (L688)
        s['stage'] = ST_EXOTIC
        s['step'] = EXS_DAY
    return False


@rules_jit
def giant_step_legal(S, b, u, h, d, occ, zoc):
    """Giant u at h may step in direction d: a hex it can pay for, holding no
    unit but giants, not a lake it would have to stop on; from a players' ZOC
    not straight into another (L460)."""
    s = S[b]
    g = HEX_STEP[h, d]
    if g < 0:
        return False
    c = step_cost(S, b, u, h, d)
    if c < 0 or c > s['unit_mp'][u]:
        return False
    if 0 <= occ[g] < NUM_FORCES:
        return False
    if occ[g] == -1:
        out = np.empty(NUM_UNITS, np.int64)
        if stack_at(S, b, g, out) > 0:
            return False        # a neutral herd or dinosaur: no one stacks giants with them
    into = players_zoc(S, b, g, occ)
    if into and s['group_moved'] == 0 and s['group_zoc_start']:
        return False
    if HEX_TERRAIN[g] == TERRAIN_LAKE:
        return False            # giants have no Water Rune; a lake is never entered (L372)
    return True


@rules_jit
def mask_giant_step(S, b, p, mask):
    s = S[b]
    u = int(s['cursor'])
    h = int(s['unit_hex'][u])
    occ = np.empty(NUM_HEXES, np.int8)
    zoc = np.empty(NUM_HEXES, np.int8)
    scan_board(S, b, occ, zoc)
    for d in range(1, 7):
        if giant_step_legal(S, b, u, h, d, occ, zoc):
            mask[A_HEX + HEX_STEP[h, d]] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_giant_step(S, b, p, a):
    """The giant steps into hex a, paying its cost; entering a players' ZOC
    stops it (L460). ``CH_DONE``: it stops where it is."""
    s = S[b]
    u = int(s['cursor'])
    if a == A_CHOICE + CH_DONE:
        s['unit_flags'][u] |= UF_MOVED
        s['cursor'] = -1
        return False
    g = a - A_HEX
    h = int(s['unit_hex'][u])
    for d in range(1, 7):
        if HEX_STEP[h, d] == g:
            s['unit_mp'][u] -= step_cost(S, b, u, h, d)
            s['unit_road'][u] = road_after(s['unit_road'][u], h, d)
    put_on_top(S, b, u, g)
    s['group_moved'] = 1
    occ = np.empty(NUM_HEXES, np.int8)
    zoc = np.empty(NUM_HEXES, np.int8)
    scan_board(S, b, occ, zoc)
    if players_zoc(S, b, g, occ):
        s['unit_mp'][u] = 0
        s['unit_flags'][u] |= UF_MOVED
        s['cursor'] = -1
    return False


# ================================================================ the dinosaurs
@rules_jit
def place_dinosaurs(S, b):
    """Set up the dinosaurs before any other unit (L835): the 12 physical
    dinosaurs shuffled onto the 12 dinosaur symbols, one each, neutral; the
    Trachodons' spirits neutral in their holding boxes (L416). Called by the
    setup of the scenarios that use the dinosaurs (``driver.reset_game``: 18.7)."""
    s = S[b]
    n = DINOSAURS_ON_MAP.shape[0]
    order = np.empty(n, np.int64)
    for k in range(n):
        order[k] = DINOSAURS_ON_MAP[k]
    for k in range(n - 1, 0, -1):             # Fisher-Yates through the game's dice
        j = roll(S, b, k + 1)
        t = order[k]
        order[k] = order[j]
        order[j] = t
    for k in range(n):
        u = order[k]
        if s['units_end'] < u + 1:
            s['units_end'] = u + 1
        s['unit_force'][u] = NEUTRAL
        s['unit_side'][u] = 0
        put_on_top(S, b, u, DINOSAUR_SYMBOLS[k])
    for k in range(DINOSAUR_SPIRITS.shape[0]):
        u = DINOSAUR_SPIRITS[k]
        if s['units_end'] < u + 1:
            s['units_end'] = u + 1
        s['unit_force'][u] = NEUTRAL
        s['unit_where'][u] = UW_HOLDING
        s['unit_hex'][u] = -1
