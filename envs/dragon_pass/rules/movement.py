"""The movement phase (L437-L475): the active player moves groups of units
one hex at a time, and may rearrange his stacks (L450).

A move is: select a stack (``PH_MOVE``), pick the units that move together
(``PH_MOVE_GROUP``, before the first step), then step the group hex by hex
into neighbours, each step paid by every member from its own movement points
(``base.step_cost``); the group stops when the player says so or on entering
an enemy zone of control (L456, L460). A unit's movement ends when its group
stops, whatever points it has left. A group that begins in an enemy ZOC may
leave it but not step straight into another ZOC hex, whoever exerts it (L460,
Q&A L1036). Flying units obey ZOCs like any other (Q&A L1008, L1040).

A group of dragonewts at a Dragonewt City or Shaker's Temple may instead
journey by dragonewt road to the next such stop, for 1 MP (+1 MP for each
junction turned at), stopping 1 hex before a road hex in an enemy ZOC, and
go on from there (L482, L744; ``travel``, RULES.md Interpretations 73).

Reinforcements and replacements (``UW_ENTERING``) come in from their board
edge during their owner's movement phase, when he chooses (he may delay them
as long as he likes), at an edge hex of their zone that no enemy unit holds,
paying that hex's cost, force marched if he wishes (the first 3 MPs free),
and move on from there (L474). No scenario of 18.1-18.3 has any; 18.5 and
18.7 bring them.

A zero-MF unit cannot move itself (L462): it joins a group formed in its hex
that holds a unit able to carry it (``base.can_carry``: Hungry Jack only a
dragon, L870), pays nothing, and ends its move where the group stops or where
it is dropped off after a step (``may_be_carried``, ``drop_off``;
Interpretations 174). In the player-turn Keener Than must ride the Hound
neither moves apart from the other (L756, ``keener_parts``).

A disrupted unit that can reach a hex not beside an enemy unit must end its
move in one (L458, L590); such a unit moves on its own (Interpretations), its
steps keep a safe hex within reach, and the phase cannot end while one that
could flee has not moved.
"""
import numpy as np

from dragongym.envs.core.jit import local_array, local_zeros, rules_jit
from ..board import HEX_STEP, HEX_TERRAIN, NUM_HEXES, ROAD_PRIMARY, ROAD_SECONDARY, SIDE_ROAD
from ..data import MAP
from ..constants import (
    NUM_UNITS, ST_EXOTIC, UF_ARRANGED, UF_CLOSE, UF_EXOTIC, UF_FLEE, UF_GROUP, UF_LIFTED, UF_MOVED, UNIT_IDS,
    UW_ENTERING, UW_MAP,
)
from .base import (
    movement_allowance, first_turn_mp, trespass, A_CHOICE, A_HEX, A_UNIT, CH_ARRANGE, CH_DONE, CH_FORCE_MARCH, ENTRY_HEXES, FORCE_MARCH_MP2, PH_ARRANGE,
    PH_ENTER_HEX, PH_FORCE_MARCH, PH_MOVE, PH_MOVE_GROUP, PH_SUMMON_HEX, TERRAIN_LAKE, force_of, frozen, IRONHOOF, CH_FREEZE, PH_FREEZE, units_end, enter_cost,
    U_MF, cloud_free, in_cloud, adjacent_to_foe, foes_of, hostile, berserk, distance, is_disrupted, local_board, occupy, pose, put_on_top, scan_board, side_of,
    whole_board,
    stack_at, step_cost,
    floods, hex_force, shut, U_HASTENED, U_HERD, herds_settle, CITY_HEX, U_HOME_CITY, SPIRIT_OF_MOVEMENT, phase_mf,
    PH_SPEED, PH_ALCHEMY, IS_ILLUSION, U_FACTION,
)
from .base import HELL_HOUND, KEENER_THAN, can_carry, clouded, riding, zero_mf
from .minors import may_speed, may_transform, speed_group
from ..constants import OCC_GIANTS
from .setup import SCENARIO_EXOTIC_MAGIC
from .base import PH_ZOMBIE_MARCH, is_zombie
from .zombies import mask_chain_leaders, start_march
from .puppeteers import ILLUSORY_ARMIES, may_switch, switch_places
from .hydra import hydra_question
from .dragons import closer_to_jack, jack_due, jack_roll, must_answer, summoned
from .fetch import bring_jack, fetching, may_fetch, send_for_jack, still_away
from .base import CH_FETCH_JACK
from .giantmaster import controlled_giant, giantmaster_bars, giantmaster_enters, giantmaster_step


@rules_jit
def start_movement(S, b):
    """Every active unit gets its MF in movement points (L456); the phase's flags clear."""
    s = S[b]
    for u in range(units_end(S, b)):
        s['unit_flags'][u] = 0
        s['unit_road'][u] = 0
        s['unit_mp'][u] = movement_allowance(S, b, u)
    s['sel_hex'] = -1
    s['group_start'] = -1
    s['group_moved'] = 0
    s['group_arranged'] = 0


@rules_jit
def may_freeze(S, b):
    """The active player controls Ironhoof, on the map, who has not yet frozen
    the cavalry this game (L782) -- and controlled him at the start of this
    player-turn: Ironhoof allied in its Alliance Phase waits for his
    controller's next player-turn (L784, Interpretations 185)."""
    s = S[b]
    return s['freeze_turn'] == 0 and s['unit_where'][IRONHOOF] == UW_MAP \
        and force_of(S, b, IRONHOOF) == s['active'] \
        and s['allied_turn'][U_FACTION[IRONHOOF]] != s['player_turn']


@rules_jit
def mask_freeze(S, b, p, mask):
    mask[A_CHOICE + CH_FREEZE] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_freeze(S, b, p, a):
    """``CH_FREEZE``: no cavalry unit moves, retreats or advances this game-turn,
    and cavalry reinforcements wait for the next (L782); ``CH_DONE``: not now."""
    s = S[b]
    if a == A_CHOICE + CH_FREEZE:
        s['freeze_turn'] = s['turn']
        for u in range(units_end(S, b)):
            if frozen(S, b, u):
                s['unit_mp'][u] = 0
    return False


@rules_jit
def movement_phase(S, b):
    """Pose the next movement decision (the driver's stage function); first,
    at the start of the player-turn, whether Ironhoof freezes the cavalry (L782)."""
    s = S[b]
    if not s['freeze_asked']:
        s['freeze_asked'] = 1
        if may_freeze(S, b):
            return pose(S, b, PH_FREEZE, int(s['active']))
    if not s['sm_asked']:
        s['sm_asked'] = 1
        if may_speed(S, b):
            return pose(S, b, PH_SPEED, int(s['active']))
    if not s['alchemy_asked']:
        s['alchemy_asked'] = 1
        if may_transform(S, b):
            return pose(S, b, PH_ALCHEMY, int(s['active']))
    if hydra_question(S, b):
        return True           # then whether units are fed to the Hydra (L880; Interpretations 135)
    if s['sel_hex'] < 0 and jack_due(S, b):
        return True               # Hungry Jack's summons, before any unit moves (L872; dragons.py)
    if s['sel_hex'] >= 0:
        return pose(S, b, PH_MOVE_GROUP, int(s['active']))
    if s['zombie_lead'] >= 0:
        return pose(S, b, PH_ZOMBIE_MARCH, int(s['active']))
    return pose(S, b, PH_MOVE, int(s['active']))


@rules_jit
def safe_hex(occ, h, foes):
    """A hex a disrupted unit may rest in: not a lake, no enemy in or beside it."""
    return HEX_TERRAIN[h] != TERRAIN_LAKE and not hostile(occ[h], foes) and not adjacent_to_foe(occ, h, foes)


@rules_jit
def can_reach_safe(S, b, u, h, mp, occ, zoc, foes, from_zoc):
    """Unit u, at h with ``mp`` half points left, can still end its move on a
    safe hex (:func:`safe_hex`). ZOC hexes are beside the enemy, never safe,
    and stop a move, so the search does not pass them."""
    if safe_hex(occ, h, foes):
        return True
    best = np.full(NUM_HEXES, -1, np.int16)
    queue = np.empty(NUM_HEXES * 4, np.int32)
    qmp = np.empty(NUM_HEXES * 4, np.int16)
    qroad = np.empty(NUM_HEXES * 4, np.int8)
    road0 = S[b]['unit_road'][u]
    best[h] = mp
    queue[0] = h
    qmp[0] = mp
    qroad[0] = road0
    head, tail = 0, 1
    found = False
    while head < tail and not found:
        x = queue[head]
        left = qmp[head]
        streak = qroad[head]
        head += 1
        if left < best[x]:
            continue
        for d in range(1, 7):
            g = HEX_STEP[x, d]
            if g < 0 or hostile(occ[g], foes) or zoc[g] & foes:
                continue
            S[b]['unit_road'][u] = streak
            c = step_cost(S, b, u, x, d)
            if c < 0 or c > left:
                continue
            if safe_hex(occ, g, foes):
                found = True
                break
            if left - c > best[g] and tail < queue.shape[0]:
                best[g] = left - c
                queue[tail] = g
                qmp[tail] = left - c
                qroad[tail] = road_after(streak, x, d)
                tail += 1
    S[b]['unit_road'][u] = road0
    return found


@rules_jit
def must_flee(S, b, u, occ, zoc):
    """Disrupted unit u, not yet moved, must move to a safe hex it can reach (L590)."""
    s = S[b]
    if not is_disrupted(S, b, u) or s['unit_flags'][u] & UF_MOVED:
        return False
    f = force_of(S, b, u)
    foes = foes_of(f)
    h = s['unit_hex'][u]
    if safe_hex(occ, h, foes):
        return False
    return can_reach_safe(S, b, u, h, int(s['unit_mp'][u]), occ, zoc, foes, zoc[h] & foes != 0)


@rules_jit
def closest_reachable(S, b, u, h, mp, occ, zoc, first):
    """The least distance to its scapegoat that berserk superhero u, at h with
    ``mp`` half points left, can end its move at (L656): over the hexes it can
    reach, a ZOC hex ending the move there (L460); ``first``: the move has not
    begun, so a ZOC it stands in bars stepping straight into another (L460)."""
    s = S[b]
    target = s['unit_hex'][s['unit_scapegoat'][u]]
    foes = foes_of(force_of(S, b, u))
    best_d = distance(h, target)
    best = np.full(NUM_HEXES, -1, np.int16)
    queue = np.empty(NUM_HEXES * 4, np.int32)
    qmp = np.empty(NUM_HEXES * 4, np.int16)
    qroad = np.empty(NUM_HEXES * 4, np.int8)
    road0 = s['unit_road'][u]
    start_zoc = first and zoc[h] & foes != 0
    best[h] = mp
    queue[0] = h
    qmp[0] = mp
    qroad[0] = road0
    head, tail = 0, 1
    while head < tail:
        x = queue[head]
        left = qmp[head]
        streak = qroad[head]
        head += 1
        if left < best[x]:
            continue
        for d in range(1, 7):
            g = HEX_STEP[x, d]
            if g < 0 or hostile(occ[g], foes):
                continue
            in_zoc = zoc[g] & foes != 0
            if in_zoc and x == h and start_zoc:
                continue
            s['unit_road'][u] = streak
            c = step_cost(S, b, u, x, d)
            if c < 0 or c > left:
                continue
            if HEX_TERRAIN[g] != TERRAIN_LAKE:
                dg = distance(g, target)
                if dg < best_d:
                    best_d = dg
            if not in_zoc and left - c > best[g] and tail < queue.shape[0]:
                best[g] = left - c
                queue[tail] = g
                qmp[tail] = left - c
                qroad[tail] = road_after(streak, x, d)
                tail += 1
    s['unit_road'][u] = road0
    return best_d


@rules_jit
def must_close(S, b, u, occ, zoc):
    """Berserk superhero u, not yet moved, can end its move nearer its
    scapegoat than it stands: it must (L656)."""
    s = S[b]
    if s['unit_flags'][u] & UF_MOVED or not berserk(S, b, u):
        return False
    h = s['unit_hex'][u]
    target = s['unit_hex'][s['unit_scapegoat'][u]]
    return closest_reachable(S, b, u, h, int(s['unit_mp'][u]), occ, zoc, True) < distance(h, target)


@rules_jit
def cloud_stops(S, b, g):
    """The group entering hex g must stop there: g is in the Cloak of
    Darkness's cloud and a unit of the group is not unaffected by it (L752;
    the whole group stops, as for a ZOC: Interpretations 81)."""
    if not in_cloud(S, b, g):
        return False
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_flags'][u] & UF_GROUP and s['unit_where'][u] == UW_MAP and not cloud_free(u):
            return True
    return False


@rules_jit
def movable(S, b, u):
    s = S[b]
    # zombies move only as their chain (L823; rules/zombies.py)
    return s['unit_where'][u] == UW_MAP and not s['unit_flags'][u] & UF_MOVED and s['unit_mp'][u] > 0 \
        and not is_zombie(u)


@rules_jit
def mask_move(S, b, p, mask):
    """Select a stack with a unit that can move, or one of two or more units
    not yet arranged since it last changed; end the phase unless a disrupted
    unit that could flee has not moved."""
    s = S[b]
    # one pass over the counters: p's stacks (hexes[:m], with how many units
    # and what they allow), the units that may enter or be summoned
    hexes = local_array(NUM_UNITS, np.int64)
    sizes = local_zeros(NUM_UNITS, np.int64)
    pick = local_zeros(NUM_UNITS, np.int8)     # bit 1: a unit there can move; bit 2: one cannot, not yet arranged
    slot = local_zeros(NUM_HEXES, np.int16)    # slot[h]: h's index in hexes, where hexes[slot[h]] == h
    m = 0
    constrained = False      # a disrupted or berserk unit still to move: searches are needed
    count_only = local_zeros(1, np.int8)     # a one-element mask: entry_hexes, summon_hexes only say whether any
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_ENTERING and force_of(S, b, u) == p and not frozen(S, b, u) \
                and entry_hexes(S, b, u, count_only) > 0:    # frozen cavalry enters next game-turn (L782)
            mask[A_UNIT + u] = 1
        if (u == RUNNERS[0] or u == RUNNERS[1]) and force_of(S, b, u) == p \
                and summon_hexes(S, b, u, count_only) > 0:
            mask[A_UNIT + u] = 1
        if s['unit_where'][u] != UW_MAP or force_of(S, b, u) != p:
            continue
        h = s['unit_hex'][u]
        k = int(slot[h])
        if k >= m or hexes[k] != h:
            k = m
            slot[h] = m
            hexes[m] = h
            m += 1
        sizes[k] += 1
        if movable(S, b, u):
            pick[k] |= 1
            if is_disrupted(S, b, u) or berserk(S, b, u):
                constrained = True
        elif not s['unit_flags'][u] & UF_ARRANGED:
            pick[k] |= 2
    for k in range(m):
        # a stack with a unit that can move, or two or more units, one not yet arranged
        if pick[k] & 1 or (pick[k] & 2 and sizes[k] >= 2):
            mask[A_HEX + hexes[k]] = 1
    fleeing = False
    if constrained:
        occ, zoc = whole_board(S, b)
        for u in range(units_end(S, b)):
            if movable(S, b, u) and force_of(S, b, u) == p and \
                    (must_flee(S, b, u, occ, zoc) or must_close(S, b, u, occ, zoc)):
                fleeing = True
                break
    mask_chain_leaders(S, b, p, mask)     # the zombie chain's move, led by its first or last (L823)
    for k in range(ILLUSORY_ARMIES.shape[0]):
        if may_switch(S, b, p, ILLUSORY_ARMIES[k]):
            mask[A_UNIT + ILLUSORY_ARMIES[k]] = 1      # the Troop switches places with it (L888)
    if not fleeing and any_summoned(S, b):
        occ, zoc = whole_board(S, b)
        for u in range(units_end(S, b)):
            if must_answer(S, b, u, occ):
                fleeing = True    # a unit drawn to Hungry Jack must move toward him (L872)
    if not fleeing:
        mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def any_summoned(S, b):
    s = S[b]
    for k in range(s['jack_summoned'].shape[0]):
        if s['jack_summoned'][k] > 0:
            return True
    return False


RUNNERS = np.array([u for u, name in enumerate(UNIT_IDS) if name.startswith("dragontooth_runners")], np.int64)
ARGRATH_U = UNIT_IDS.index("argrath")


@rules_jit
def summon_hexes(S, b, u, mask):
    """Where Argrath may summon Dragontooth Runner u now (L684): in a scenario with
    exotic magic, both on the map, a Runner not yet summoned this phase, to a hex
    within 1 of Argrath other than its own, not a lake and holding no enemy
    (Interpretations 40). Returns how many; with a one-element ``mask`` (nothing
    marked), 1 at the first found."""
    s = S[b]
    a = ARGRATH_U
    if not SCENARIO_EXOTIC_MAGIC[int(s['scenario'])] or s['unit_where'][a] != UW_MAP \
            or s['unit_where'][u] != UW_MAP:
        return 0
    if s['unit_flags'][u] & UF_EXOTIC:
        return 0          # summoned once this turn: it "cannot move" again, summoned or not (L684)
    ha = s['unit_hex'][a]
    n = 0
    for d in range(7):
        g = ha if d == 0 else HEX_STEP[ha, d]
        if g < 0 or g == s['unit_hex'][u] or HEX_TERRAIN[g] == TERRAIN_LAKE or shut(S, b, g):
            continue
        if d == 0 and controlled_giant(S, b) >= 0:
            continue          # Argrath with his giant stacks with no other unit (L686)
        f = hex_force(S, b, g)
        if f >= 0 and f != force_of(S, b, u):
            continue
        n += 1
        if mask.shape[0] > 1:
            mask[A_HEX + g] = 1
        else:
            return n          # only whether there is one: the rest need not be looked at
    return n


@rules_jit
def mask_summon_hex(S, b, p, mask):
    summon_hexes(S, b, int(S[b]['cursor']), mask)


@rules_jit
def act_summon_hex(S, b, p, a):
    """The Runner is placed at hex a, beside Argrath; it cannot move this turn (L684)."""
    s = S[b]
    u = int(s['cursor'])
    h = a - A_HEX
    put_on_top(S, b, u, h)
    occupy(S, b, p, h)
    s['unit_flags'][u] |= UF_MOVED | UF_EXOTIC      # UF_EXOTIC: summoned this phase, not again (L684)
    s['unit_mp'][u] = 0
    return False


@rules_jit
def act_move(S, b, p, a):
    """Select the stack at hex a; ``CH_DONE`` ends the movement phase."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        herds_settle(S, b)            # the end of a phase: herds captured or left neutral (L592)
        s['stage'] = ST_EXOTIC        # then combat (exotic.exotic_phase, L178)
        s['step'] = 0
        s['magic_kind'] = 0
        return False
    if a >= A_UNIT and is_zombie(a - A_UNIT):
        return start_march(S, b, p, a - A_UNIT)        # the zombie chain moves (L823)
    if a >= A_UNIT:
        s['cursor'] = a - A_UNIT
        if IS_ILLUSION[a - A_UNIT]:
            switch_places(S, b, p, a - A_UNIT)      # the Puppeteer Troop, then it moves normally (L888)
            return False
        if s['unit_where'][a - A_UNIT] == UW_MAP:
            return pose(S, b, PH_SUMMON_HEX, p)       # a Dragontooth Runner (L684)
        return pose(S, b, PH_ENTER_HEX, p)
    h = a - A_HEX
    occ7 = local_array(7, np.int8)
    zoc7 = local_array(7, np.int8)
    local_board(S, b, h, occ7, zoc7)
    s['sel_hex'] = h
    s['group_start'] = h
    s['group_moved'] = 0
    s['group_arranged'] = 0
    s['group_zoc_start'] = 1 if zoc7[0] & foes_of(p) else 0
    return pose(S, b, PH_MOVE_GROUP, p)


@rules_jit
def group_size(S, b):
    s = S[b]
    n = 0
    flee = False
    for u in range(units_end(S, b)):
        if s['unit_flags'][u] & UF_GROUP:
            n += 1
            if s['unit_flags'][u] & (UF_FLEE | UF_CLOSE):
                flee = True
    return n, flee


@rules_jit
def group_and_stack(S, b, h, members, here):
    """One pass over the counters: the units of the group now moving
    (``UF_GROUP``) into ``members``, the units on the map at hex h into
    ``here``, each in counter order; returns how many of each. The mask's
    checks then loop over these few units, not over every counter."""
    s = S[b]
    flags = s['unit_flags']
    where = s['unit_where']
    hexes = s['unit_hex']
    n = 0
    nh = 0
    for u in range(units_end(S, b)):
        if flags[u] & UF_GROUP:
            members[n] = u
            n += 1
        if hexes[u] == h and where[u] == UW_MAP:
            here[nh] = u
            nh += 1
    return n, nh


@rules_jit
def step_legal(S, b, p, h, d, occ_g, zoc_g, occ, zoc, members, n, close_now):
    """The group at h may step in direction d (see the module docstring);
    ``occ_g``, ``zoc_g``: the force and the ZOC bits at the hex stepped into;
    ``occ``, ``zoc``: the whole board, read only for a member that must flee
    or close on its scapegoat; ``members[:n]``: the group (``group_and_stack``);
    ``close_now[k]``: for a member k that must close on its scapegoat, the
    least distance to it reachable from h (``closest_reachable``, the same for
    every direction), -1 until worked out here."""
    s = S[b]
    g = HEX_STEP[h, d]
    foes = foes_of(p)
    if g < 0 or hostile(occ_g, foes) or (occ_g == OCC_GIANTS and not giantmaster_step(S, b, p, g)):
        return False      # no unit enters an enemy's hex, nor the giants' (inactive to all, L918) but Argrath (L686)
    if giantmaster_bars(S, b, p, g):
        return False      # Argrath and his giant stack with no other unit (L686)
    into_zoc = zoc_g & foes != 0
    if into_zoc and s['group_moved'] == 0 and s['group_zoc_start']:
        return False
    if into_zoc and HEX_TERRAIN[g] == TERRAIN_LAKE:
        return False      # it would have to stop where no unit may end its move (L372)
    for k in range(n):
        u = members[k]
        if carried(S, b, u):
            continue      # a carried unit pays nothing (L462)
        c = step_cost(S, b, u, h, d)
        if c < 0 or c > s['unit_mp'][u]:
            return False
        if summoned(S, b, u) and not closer_to_jack(S, b, h, g):
            return False          # each hex it enters closer to Hungry Jack (L872)
        if s['unit_flags'][u] & UF_CLOSE:
            if close_now[k] < 0:
                close_now[k] = closest_reachable(S, b, u, h, int(s['unit_mp'][u]), occ, zoc, s['group_moved'] == 0)
            now = close_now[k]
            if into_zoc:
                after = distance(g, s['unit_hex'][s['unit_scapegoat'][u]])
            else:
                road = s['unit_road'][u]
                s['unit_road'][u] = road_after(road, h, d)
                after = closest_reachable(S, b, u, g, int(s['unit_mp'][u]) - c, occ, zoc, False)
                s['unit_road'][u] = road
            if after != now:
                return False
        if s['unit_flags'][u] & UF_FLEE:
            if into_zoc:
                return False
            road = s['unit_road'][u]
            s['unit_road'][u] = road_after(road, h, d)
            ok = can_reach_safe(S, b, u, g, int(s['unit_mp'][u]) - c, occ, zoc, foes, False)
            s['unit_road'][u] = road
            if not ok:
                return False
        if HEX_TERRAIN[g] == TERRAIN_LAKE and not leaves_lake(S, b, u, g, int(s['unit_mp'][u]) - c, p):
            return False      # no unit can end its turn on a lake (L372): it must be able to get off
    return True


@rules_jit
def leaves_lake(S, b, u, g, mp, p):
    """Unit u, on lake hex g with ``mp`` half MPs left, can still reach a hex
    that is not a lake, across lake hexes, without entering an enemy's hex or
    a shut one (L372, L271)."""
    best = local_zeros(NUM_HEXES, np.int16)
    todo = local_zeros(NUM_HEXES, np.int16)
    for h in range(NUM_HEXES):
        best[h] = -1
    best[g] = mp
    todo[0] = g
    n = 1
    while n > 0:
        n -= 1
        h = int(todo[n])
        left = int(best[h])
        for d in range(1, 7):
            x = HEX_STEP[h, d]
            if x < 0:
                continue
            c = step_cost(S, b, u, h, d)
            if c < 0 or c > left:
                continue
            f = hex_force(S, b, x)
            if f >= 0 and f != p:
                continue
            if HEX_TERRAIN[x] != TERRAIN_LAKE:
                return True
            if left - c > best[x]:
                best[x] = left - c
                todo[n] = x
                n += 1
    return False


@rules_jit
def mask_move_group(S, b, p, mask):
    s = S[b]
    h = int(s['sel_hex'])
    members = local_array(NUM_UNITS, np.int64)
    here = local_array(NUM_UNITS, np.int64)
    n, nh = group_and_stack(S, b, h, members, here)
    flee = False
    drawn = False
    for k in range(n):
        if s['unit_flags'][members[k]] & (UF_FLEE | UF_CLOSE):
            flee = True
        if summoned(S, b, members[k]):
            drawn = True       # the group is a unit drawn to Hungry Jack (it moves alone, L872)
    # the whole board only where a search needs it: a member, or a unit that
    # might join, that must flee or close on its scapegoat
    full = flee
    if s['group_moved'] == 0 and not flee:
        for i in range(nh):
            u = here[i]
            if movable(S, b, u) and (is_disrupted(S, b, u) or berserk(S, b, u)):
                full = True
    occ = np.empty(NUM_HEXES if full else 1, np.int8)
    zoc = np.empty(NUM_HEXES if full else 1, np.int8)
    if full:
        scan_board(S, b, occ, zoc)
    occ7 = local_array(7, np.int8)
    zoc7 = local_array(7, np.int8)
    local_board(S, b, h, occ7, zoc7)
    foes = foes_of(p)
    if s['group_moved'] == 0 and not flee and not drawn:
        fresh = False         # a unit of the stack not yet arranged since it last changed
        for i in range(nh):
            u = here[i]
            if not s['unit_flags'][u] & UF_ARRANGED:
                fresh = True
            if s['unit_flags'][u] & UF_GROUP:
                continue
            if not (movable(S, b, u) or may_be_carried(S, b, u, h)) or (n > 0 and summoned(S, b, u)):
                continue          # a unit drawn to Hungry Jack moves alone (L872); a zero-MF one is carried (L462)
            if n > 0 and full and (must_flee(S, b, u, occ, zoc) or must_close(S, b, u, occ, zoc)):
                continue      # a unit that must flee, or close on its scapegoat, moves on its own
            mask[A_UNIT + u] = 1
        if n == 0 and nh >= 2 and fresh:
            mask[A_CHOICE + CH_ARRANGE] = 1
    if n > 0:
        mask_drop_off(S, b, mask, members, n)     # a carried unit dropped off here (L462)
        close_now = local_array(NUM_UNITS, np.int64)
        for k in range(n):
            close_now[k] = -1
        can_step = False
        # a carried unit without a carrier, Keener Than apart from his Hound: no step (L462, L756)
        blocked = carrying_blocks_step(S, b, members, n)
        for d in range(1, 7):
            if not blocked and step_legal(S, b, p, h, d, occ7[d], zoc7[d], occ, zoc, members, n, close_now):
                mask[A_HEX + HEX_STEP[h, d]] = 1
                can_step = True
        if HEX_ROAD_STOP[h] and travels_by_road(S, b) and not drawn:
            board_occ, board_zoc = whole_board(S, b)
            for j in range(NUM_JOURNEYS):
                if J_START[j] == h:
                    i = journey_end(p, j, board_occ, board_zoc)
                    if i >= 0 and affords(S, b, journey_cost(j, i)):
                        mask[A_HEX + int(J_PATH[j, i])] = 1
        stop = HEX_TERRAIN[h] != TERRAIN_LAKE and not (drawn and can_step)   # drawn on until stopped (L872)
        if stop and flee and not safe_hex(occ, h, foes):
            # a fleeing unit stops short of safety only where none is left in reach
            for u in range(units_end(S, b)):
                if s['unit_flags'][u] & UF_FLEE and \
                        can_reach_safe(S, b, u, h, int(s['unit_mp'][u]), occ, zoc, foes, False):
                    stop = False
        # a member closing on its scapegoat (UF_CLOSE, only ever set with UF_GROUP)
        for k in range(n):
            u = members[k]
            if stop and s['unit_flags'][u] & UF_CLOSE:
                if close_now[k] < 0:
                    close_now[k] = closest_reachable(S, b, u, h, int(s['unit_mp'][u]), occ, zoc, s['group_moved'] == 0)
                if close_now[k] < distance(h, s['unit_hex'][s['unit_scapegoat'][u]]):
                    stop = False
        if stop:
            mask[A_CHOICE + CH_DONE] = 1
        if may_fetch(S, b, p):
            mask[A_CHOICE + CH_FETCH_JACK] = 1      # off the West map edge, to fetch Hungry Jack (L870)
    elif s['group_arranged']:
        mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def stop_group(S, b, p):
    """The group's move ends where it stands (L456)."""
    s = S[b]
    h = int(s['sel_hex'])
    for u in range(units_end(S, b)):
        if s['unit_flags'][u] & UF_GROUP:
            s['unit_flags'][u] = (s['unit_flags'][u] & ~(UF_GROUP | UF_FLEE | UF_CLOSE)) | UF_MOVED
            floods(S, b, u, h, True)
    occupy(S, b, p, h)
    s['sel_hex'] = -1
    s['group_start'] = -1
    s['group_moved'] = 0
    s['group_arranged'] = 0


@rules_jit
def act_move_group(S, b, p, a):
    s = S[b]
    h = int(s['sel_hex'])
    if a == A_CHOICE + CH_DONE:
        stop_group(S, b, p)
        return False
    if a == A_CHOICE + CH_FETCH_JACK:
        return send_for_jack(S, b, p)        # the dragon leaves by the West map edge (L870; fetch.py)
    if a == A_CHOICE + CH_ARRANGE:
        start_arrangement(S, b, h)
        s['group_arranged'] = 1
        return pose(S, b, PH_ARRANGE, p)
    if a < A_UNIT and distance(h, a - A_HEX) > 1:
        if travel(S, b, p, h, a - A_HEX):
            return pose(S, b, PH_MOVE_GROUP, p)
        return False          # no point left to go on with: its move is over
    if a < A_UNIT:
        # step every member into the neighbour; entering an enemy ZOC stops it (L460)
        g = a - A_HEX
        d = 1
        while HEX_STEP[h, d] != g:
            d += 1
        occ7 = local_array(7, np.int8)
        zoc7 = local_array(7, np.int8)
        local_board(S, b, h, occ7, zoc7)
        order = local_array(NUM_UNITS, np.int64)
        n = stack_at(S, b, h, order)
        for k in range(n - 1, -1, -1):       # bottom first, so the group keeps its order
            u = order[k]
            if not s['unit_flags'][u] & UF_GROUP:
                continue
            c = 0 if carried(S, b, u) else step_cost(S, b, u, h, d)      # carried: it pays nothing (L462)
            s['unit_mp'][u] -= c
            s['unit_road'][u] = road_after(s['unit_road'][u], h, d)
            put_on_top(S, b, u, g)
            trespass(S, b, u, h, g)
            floods(S, b, u, g, False)
        for k in range(n - 1, -1, -1):
            u = order[k]
            if s['unit_flags'][u] & UF_GROUP:
                jack_roll(S, b, u, h, g)      # beside Hungry Jack: 1-3 eliminated (L874)
        s['sel_hex'] = g
        s['group_moved'] = 1
        occupy(S, b, p, g)
        if occ7[d] == OCC_GIANTS and giantmaster_enters(S, b, p, g):
            stop_group(S, b, p)       # Argrath must stop in the giant's hex and controls it (L686)
            return False
        if zoc7[d] & foes_of(p) or group_size(S, b)[0] == 0 or cloud_stops(S, b, g):
            # a ZOC stops it; so does the flood that eliminated it (L688), or the cloud (L752)
            stop_group(S, b, p)
            return False
        return pose(S, b, PH_MOVE_GROUP, p)
    u = a - A_UNIT
    if s['unit_flags'][u] & UF_GROUP:
        drop_off(S, b, u)         # a carried unit is dropped off here (L462)
        return pose(S, b, PH_MOVE_GROUP, p)
    s['unit_flags'][u] |= UF_GROUP
    hasten(S, b)
    if not is_disrupted(S, b, u) and not berserk(S, b, u):
        return pose(S, b, PH_MOVE_GROUP, p)
    occ, zoc = whole_board(S, b)
    if must_flee(S, b, u, occ, zoc):
        s['unit_flags'][u] |= UF_FLEE
    if must_close(S, b, u, occ, zoc):
        s['unit_flags'][u] |= UF_CLOSE
    return pose(S, b, PH_MOVE_GROUP, p)


# ------------------------------------------------------------------ the dragonewt roads
def _journeys():
    """Every journey along the dragonewt roads (data/map.txt [road] kind
    dragonewt): from a stop -- a Dragonewt City or Shaker's Temple (L482,
    L744) -- to the next stop, passing no other. Returns the arrays below."""
    links = {}
    for road in MAP.roads:
        if road.kind == "dragonewt":
            for x, y in zip(road.path, road.path[1:]):
                links.setdefault(x, set()).add(y)
                links.setdefault(y, set()).add(x)
    stops = sorted(MAP.dragonewt_cities.values()) + [MAP.site_named("Shaker's Temple")]
    found = []
    for start in stops:
        todo = [(start, -1, (), ())]
        while todo:
            h, prev, path, turns = todo.pop()
            # every branch of a junction is a road of its own (data/map.txt):
            # going on past a junction is a turn there (Interpretations 73)
            turned = (turns[-1] if turns else 0) + (1 if path and h in MAP.junctions else 0)
            for x in sorted(links.get(h, ())):
                if x == prev:
                    continue
                if x in stops:
                    found.append((start, path + (x,), turns + (turned,)))
                else:
                    todo.append((x, h, path + (x,), turns + (turned,)))
    longest = max(len(path) for _, path, _ in found)
    start = np.array([j[0] for j in found], np.int16)
    length = np.array([len(j[1]) for j in found], np.int16)
    hexes = np.full((len(found), longest), -1, np.int16)
    turns = np.zeros((len(found), longest), np.int8)
    for k, (_, path, turned) in enumerate(found):
        hexes[k, :len(path)] = path
        turns[k, :len(path)] = turned
    stop = np.zeros(NUM_HEXES, np.int8)
    stop[stops] = 1
    return start, length, hexes, turns, stop


J_START, J_LEN, J_PATH, J_TURNS, HEX_ROAD_STOP = _journeys()
"""Journey j by dragonewt road starts at stop J_START[j] and runs through the
J_LEN[j] hexes J_PATH[j, :J_LEN[j]], the last the next stop; J_TURNS[j, i]:
the junctions turned at before reaching J_PATH[j, i]. HEX_ROAD_STOP[h]: h is
a Dragonewt City or Shaker's Temple (L482)."""
NUM_JOURNEYS = J_START.shape[0]
assert CITY_HEX.shape[0] == int(HEX_ROAD_STOP.sum()) - 1


@rules_jit
def travels_by_road(S, b):
    """The group now moving is all dragonewts (``base.U_HOME_CITY``), none
    bound to flee or close on a scapegoat: only dragonewts use the dragonewt
    roads (L365, L482)."""
    s = S[b]
    n = 0
    for u in range(units_end(S, b)):
        if s['unit_flags'][u] & UF_GROUP:
            if U_HOME_CITY[u] < 0 or s['unit_flags'][u] & (UF_FLEE | UF_CLOSE):
                return False
            n += 1
    return n > 0


@rules_jit
def journey_end(p, j, occ, zoc):
    """Where journey j ends for force p's dragonewts, an index into J_PATH[j]:
    its last hex, or, where a hex of the road is in an enemy zone of control
    (or held by the enemy), the hex before the first such one (L482, L744).
    -1 where that is the start or its neighbour: an ordinary step goes there."""
    foes = foes_of(p)
    end = int(J_LEN[j]) - 1
    for i in range(int(J_LEN[j])):
        x = J_PATH[j, i]
        if zoc[x] & foes or hostile(occ[x], foes):
            end = i - 1
            break
    return end if end >= 1 else -1


@rules_jit
def journey_cost(j, i):
    """Half MPs for journey j ending at J_PATH[j, i]: 1 MP, +1 MP for each
    junction turned at on the way (L482, L744)."""
    return 2 * (1 + int(J_TURNS[j, i]))


@rules_jit
def affords(S, b, cost):
    """Every member of the moving group has ``cost`` half MPs left."""
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_flags'][u] & UF_GROUP and s['unit_mp'][u] < cost:
            return False
    return True


@rules_jit
def travel(S, b, p, h, g):
    """The group of dragonewts at stop h journeys by road to g (a journey's
    end, ``journey_end``): each member pays the journey's cost and the group
    goes on from g with its remaining MPs, by road or normally (L482). It
    passes through the road's hexes (they are entered, as a step's: ``occupy``,
    the flood). Returns whether the group may go on (False: no member has a
    point left, and its move has ended)."""
    s = S[b]
    occ, zoc = whole_board(S, b)
    j = -1
    i = -1
    for k in range(NUM_JOURNEYS):
        if J_START[k] == h:
            e = journey_end(p, k, occ, zoc)
            if e >= 0 and J_PATH[k, e] == g:
                j = k
                i = e
    cost = journey_cost(j, i)
    order = local_array(NUM_UNITS, np.int64)
    n = stack_at(S, b, h, order)
    for k in range(n - 1, -1, -1):       # bottom first, so the group keeps its order
        u = order[k]
        if not s['unit_flags'][u] & UF_GROUP:
            continue
        s['unit_mp'][u] -= cost
        s['unit_road'][u] = 0
        put_on_top(S, b, u, g)
        for x in range(i + 1):
            if s['unit_where'][u] == UW_MAP:
                floods(S, b, u, int(J_PATH[j, x]), False)
    for x in range(i + 1):
        occupy(S, b, p, int(J_PATH[j, x]))
    s['sel_hex'] = g
    s['group_moved'] = 1
    if group_size(S, b)[0] == 0:
        stop_group(S, b, p)
        return False
    return True


@rules_jit
def hasten(S, b):
    """The herds of the group about to move hasten it (L478, L794). The group
    is formed before its first step from the hex its units began the phase in
    (a unit that has moved cannot join one), so its units spend the whole
    phase with the herds if they move with them. With one or more herds and
    at least one unit a herd can hasten (``U_HASTENED``), no more than two
    for each herd, those units and the herds get an MF of the herd's +2 plus
    the slowest such unit's MF; other members keep their own. Called as each
    unit joins (no point is spent before the first step, so each member's
    allowance is worked out afresh). A group with more such units than its
    herds can hasten is not hastened: the player picks the hastened units by
    whom he groups with the herds (Interpretations 45). The Spirit of
    Movement in the group then doubles every member's allowance, the same
    way (L896, ``minors.speed_group``)."""
    s = S[b]
    herds = 0
    for u in range(units_end(S, b)):
        if s['unit_flags'][u] & UF_GROUP and U_HERD[u] != 0:
            herds += 1
    sped = s['unit_flags'][SPIRIT_OF_MOVEMENT] & UF_GROUP
    if herds == 0 and not sped:
        return            # no herd, no Spirit of Movement: every allowance stays as it is
    hastened = 0
    slowest = 1 << 30
    bonus = 1 << 30
    for u in range(units_end(S, b)):
        if not s['unit_flags'][u] & UF_GROUP:
            continue
        mf = phase_mf(S, b, u)
        s['unit_mp'][u] = first_turn_mp(S, b, u, 2 * mf)      # halved in 18.9's first move (L319)
        if U_HERD[u]:
            bonus = min(bonus, mf)
        elif U_HASTENED[u] != 0 and mf > 0:
            hastened += 1
            slowest = min(slowest, mf)
    if herds > 0 and hastened > 0 and hastened <= 2 * herds:
        for u in range(units_end(S, b)):
            if s['unit_flags'][u] & UF_GROUP and (U_HERD[u] != 0 or (U_HASTENED[u] != 0 and U_MF[u, side_of(S, b, u)] > 0)):
                s['unit_mp'][u] = first_turn_mp(S, b, u, 2 * (bonus + slowest))
    if sped:
        speed_group(S, b)


@rules_jit
def road_after(streak, h, d):
    """The secondary-road row after a step from h in direction d: one longer
    along a secondary road, back to 0 after its free third hex or off it (L364)."""
    road = SIDE_ROAD[h, d]
    if road & ROAD_PRIMARY or not road & ROAD_SECONDARY:
        return 0
    return 0 if streak >= 2 else streak + 1


# ------------------------------------------------------------------ arranging a stack
@rules_jit
def start_arrangement(S, b, h):
    """Begin arranging the stack at h: its units are lifted one at a time to
    the top (L450), each at most once, so any order can be made."""
    s = S[b]
    s['arr_hex'] = h
    for u in range(units_end(S, b)):
        s['unit_flags'][u] &= ~UF_LIFTED


@rules_jit
def mask_arrange(S, b, p, mask):
    s = S[b]
    h = int(s['arr_hex'])
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h and not s['unit_flags'][u] & UF_LIFTED:
            mask[A_UNIT + u] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_arrange(S, b, p, a):
    """Lift unit a to the top; ``CH_DONE`` ends the arrangement."""
    s = S[b]
    h = int(s['arr_hex'])
    if a == A_CHOICE + CH_DONE:
        for u in range(units_end(S, b)):
            if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h:
                s['unit_flags'][u] = (s['unit_flags'][u] & ~UF_LIFTED) | UF_ARRANGED
        s['arr_hex'] = -1
        return False
    u = a - A_UNIT
    s['unit_order'][u] = s['order_clock']
    s['order_clock'] += 1
    s['unit_flags'][u] |= UF_LIFTED
    return pose(S, b, PH_ARRANGE, p)


# ------------------------------------------------------------------ reinforcements and replacements
@rules_jit
def march_allowed(u, sd):
    """Unit u may force march onto the board: not a herd, nor with a zero MF
    (L474; Dragon Pass has no treasures)."""
    return U_MF[u, sd] > 0 and not U_HERD[u]


ENTRY_COUNT = ENTRY_HEXES.sum(axis=1).astype(np.int64)
ENTRY_LIST = np.full((ENTRY_HEXES.shape[0], max(1, int(ENTRY_COUNT.max()))), -1, np.int64)
for _zone in range(ENTRY_HEXES.shape[0]):
    ENTRY_LIST[_zone, :ENTRY_COUNT[_zone]] = np.flatnonzero(ENTRY_HEXES[_zone])
"""ENTRY_LIST[zone, :ENTRY_COUNT[zone]]: the hexes of ``base.ENTRY_HEXES[zone]``,
in rising order (a short list to loop over, not the whole board)."""


@rules_jit
def entry_hexes(S, b, u, mask):
    """The edge hexes entering unit u may come in at: of its zone, holding no
    enemy unit (inactive units there block it, L474), and within its MF, force
    marched where it may. Marked in ``mask`` when it has room; returns how
    many -- with a one-element ``mask`` (nothing marked), 1 at the first found."""
    s = S[b]
    if still_away(S, b, u):
        return 0              # the dragon gone for Hungry Jack: 2 game-turns away (L870)
    zone = int(s['unit_entry'][u])
    sd = side_of(S, b, u)
    budget = first_turn_mp(S, b, u, 2 * phase_mf(S, b, u)) + (FORCE_MARCH_MP2 if march_allowed(u, sd) else 0)
    foes = foes_of(force_of(S, b, u))
    occ7 = local_array(7, np.int8)
    zoc7 = local_array(7, np.int8)
    n = 0
    for k in range(int(ENTRY_COUNT[zone])):
        h = int(ENTRY_LIST[zone, k])
        c = enter_cost(S, b, u, h)
        if c < 0 or c > budget:
            continue
        local_board(S, b, h, occ7, zoc7)
        if hostile(occ7[0], foes) or occ7[0] == OCC_GIANTS:
            continue
        n += 1
        if mask.shape[0] > 1:
            mask[A_HEX + h] = 1
        else:
            return n          # only whether there is one: the rest need not be looked at
    return n


@rules_jit
def mask_enter_hex(S, b, p, mask):
    entry_hexes(S, b, int(S[b]['cursor']), mask)


@rules_jit
def act_enter_hex(S, b, p, a):
    """The unit will come in at hex a: force march or not, where that is a choice."""
    s = S[b]
    u = int(s['cursor'])
    s['sel_hex'] = a - A_HEX
    if march_allowed(u, side_of(S, b, u)) and not fetching(S, b, u):
        return pose(S, b, PH_FORCE_MARCH, p)
    return enter_board(S, b, p, u, a - A_HEX, False)


@rules_jit
def mask_force_march(S, b, p, mask):
    s = S[b]
    u = int(s['cursor'])
    mask[A_CHOICE + CH_FORCE_MARCH] = 1
    if enter_cost(S, b, u, int(s['sel_hex'])) <= first_turn_mp(S, b, u, 2 * phase_mf(S, b, u)):
        mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_force_march(S, b, p, a):
    s = S[b]
    return enter_board(S, b, p, int(s['cursor']), int(s['sel_hex']), a == A_CHOICE + CH_FORCE_MARCH)


@rules_jit
def enter_board(S, b, p, u, h, march):
    """Unit u enters at edge hex h, paying the hex's cost from its MF (the
    first 3 MPs free when force marched, L474), and moves on as a group of its
    own; entering an enemy ZOC stops it there (L460)."""
    s = S[b]
    if fetching(S, b, u):
        return bring_jack(S, b, p, u, h)      # back from the West carrying Hungry Jack (L870)
    put_on_top(S, b, u, h)
    s['unit_entry'][u] = -1
    # doubled when the Spirit of Movement was eliminated this phase (L898)
    # halved in 18.9's first move (L319); the force march's 3 free MPs are not (Interpretations 153)
    s['unit_mp'][u] = first_turn_mp(S, b, u, 2 * phase_mf(S, b, u)) + (FORCE_MARCH_MP2 if march else 0) \
        - enter_cost(S, b, u, h)
    s['unit_road'][u] = 0
    s['unit_flags'][u] = UF_GROUP
    s['sel_hex'] = h
    s['group_start'] = h
    s['group_moved'] = 1
    s['group_arranged'] = 0
    s['group_zoc_start'] = 0
    occupy(S, b, p, h)
    trespass(S, b, u, -1, h)
    floods(S, b, u, h, False)
    occ7 = local_array(7, np.int8)
    zoc7 = local_array(7, np.int8)
    local_board(S, b, h, occ7, zoc7)
    if zoc7[0] & foes_of(p) or group_size(S, b)[0] == 0 or cloud_stops(S, b, h):
        stop_group(S, b, p)
        return False
    return pose(S, b, PH_MOVE_GROUP, p)


# ------------------------------------------------------------------ carrying zero-MF units (L462); Keener Than on the Hound (L756)
@rules_jit
def carried(S, b, u):
    """Unit u is carried by the group now moving: a member with an MF of 0
    (``base.zero_mf``). It pays no movement points and moves with its carriers
    (L462)."""
    return (S[b]['unit_flags'][u] & UF_GROUP) != 0 and zero_mf(S, b, u)


@rules_jit
def group_carries(S, b, u):
    """The group now moving holds a unit that can carry u (``base.can_carry``, L462)."""
    s = S[b]
    for c in range(units_end(S, b)):
        if s['unit_flags'][c] & UF_GROUP and not zero_mf(S, b, c) and can_carry(S, b, c, u):
            return True
    return False


@rules_jit
def may_be_carried(S, b, u, h):
    """Zero-MF unit u at h, not yet moved this phase, may join the group formed
    at h: the group holds a unit that can carry it (L462; Hungry Jack only a
    dragon, L870). The cloud holds it as any unit (L752)."""
    s = S[b]
    return s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h and zero_mf(S, b, u) \
        and not s['unit_flags'][u] & (UF_MOVED | UF_GROUP) and not clouded(S, b, u) and not frozen(S, b, u) \
        and group_carries(S, b, u)


@rules_jit
def carrying_blocks_step(S, b, members, n):
    """The group (``members[:n]``, ``group_and_stack``) may not step on: a
    carried member has no carrier left in it (a carrier fell, say, to Hungry
    Jack's roll), or Keener Than and the Hound he must ride would part (L756)."""
    for k in range(n):
        u = members[k]
        if carried(S, b, u) and not group_carries(S, b, u):
            return True
    return keener_parts(S, b)


@rules_jit
def keener_parts(S, b):
    """In the player-turn Keener Than must ride the Hound (``base.riding``:
    stacked with it), one of the two is in the group now moving and the other
    not: "for that turn, Keener Than must ride the Hound" (L756; Interpretations
    172), so neither moves apart from the other."""
    s = S[b]
    if not riding(S, b, KEENER_THAN):
        return False
    return (s['unit_flags'][KEENER_THAN] & UF_GROUP != 0) != (s['unit_flags'][HELL_HOUND] & UF_GROUP != 0)


@rules_jit
def mask_drop_off(S, b, mask, members, n):
    """After a step, each carried member may be dropped off where the group
    stands (L462: "dropped off at any hex"), but not on a lake, where no unit
    ends its move (L372)."""
    s = S[b]
    if s['group_moved'] == 0 or HEX_TERRAIN[s['sel_hex']] == TERRAIN_LAKE:
        return
    for k in range(n):
        if carried(S, b, members[k]):
            mask[A_UNIT + members[k]] = 1


@rules_jit
def drop_off(S, b, u):
    """Carried unit u is dropped off at the group's hex: its move ends there (L462)."""
    s = S[b]
    s['unit_flags'][u] = (s['unit_flags'][u] & ~UF_GROUP) | UF_MOVED
    floods(S, b, u, int(s['sel_hex']), True)
