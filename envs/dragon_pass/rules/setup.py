"""Setting up a scenario (L200-L249): the forces it deploys, where each
force may deploy, fortress control at the start, and the deployment itself,
one unit at a time by its owner's decision.

Deployment order is the scenario's (``data/units.txt``, ``[scenario]``
``deploy``): in 18.1 and 18.2 the Lunar player deploys first outside Old
Sartar and the Sartar player second within it; in 18.3 the other way round.
Each force places its units in unit order (``constants.UNIT_IDS``); a unit
goes on any hex of its zone that is not a lake (no unit can end a turn in
one, L372) and holds no enemy unit (one owner per hex, L448). The force that
deploys first also plays first in every game-turn (Interpretations).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..board import NUM_HEXES, HEX_FORTRESS, HEX_TERRAIN
from ..constants import (
    NUM_UNITS, ST_DEPLOY, ST_TURN_START, UW_HOLDING, UW_OUT, UW_POOL,
)
from ..data import DATA, MAP
from ..unitdata import in_zone
from ..constants import SCENARIOS, FORCES
from .base import (
    A_HEX, FORTRESS_START, PH_DEPLOY, U_ASSASSIN, U_MAGICIAN, TERRAIN_LAKE, U_DEPLOY, U_FORCE, force_of, units_end, hex_force, pose,
    put_on_top,
)
from .moon import choose_moon

SCENARIO_TURNS = np.array([DATA.scenarios[sid].turns for sid in SCENARIOS], np.int8)
"""Game-turns of each scenario (L204, L219, L234)."""
DEPLOY_FIRST = np.array([FORCES.index(DATA.scenarios[sid].deploy[0][0]) for sid in SCENARIOS], np.int8)
"""The force that deploys first (L206, L221, L236)."""


def _deploy_zones():
    out = np.zeros((len(SCENARIOS), len(FORCES), NUM_HEXES), np.int8)
    for sc, sid in enumerate(SCENARIOS):
        zones = dict(DATA.scenarios[sid].deploy)
        for f, force in enumerate(FORCES):
            for h in range(NUM_HEXES):
                out[sc, f, h] = in_zone(zones[force], MAP.ids[h], MAP.territory[h]) \
                    and HEX_TERRAIN[h] != TERRAIN_LAKE
    return out


DEPLOY_ZONE = _deploy_zones()
"""DEPLOY_ZONE[scenario, force, h]: force may deploy on hex h (its scenario's
zone, L206-L269: within or outside Old Sartar, within the Glowline, within
Sartar, west of 26xx and north of xx19; no lake, L372)."""
SCENARIO_MISSILE = np.array(["missile" in DATA.scenarios[sid].combat for sid in SCENARIOS], np.int8)
SCENARIO_EXOTIC_MAGIC = np.array(["exotic" in DATA.scenarios[sid].combat for sid in SCENARIOS], np.int8)
"""The scenario uses exotic magic ("All Combat", 18.4 on): Argrath's summoning of
the Dragontooth Runners, listed among the exotic abilities (L684), with it."""
SCENARIO_UNITS_END = np.array([max(u for u in range(NUM_UNITS) if U_DEPLOY[u, sc] or U_FORCE[u] >= 0) + 1
                               for sc in range(len(SCENARIOS))], np.int16)
"""One past the last counter a scenario can bring into play (``units_end``):
the Lunar and Sartar counters come first in ``constants.UNIT_IDS``, the
Independents' after them; no scenario of 18.1-18.5 brings an Independent in,
so the rules' loops over the counters stop before them."""
SCENARIO_MAGIC = np.array(["magic" in DATA.scenarios[sid].combat for sid in SCENARIOS], np.int8)
"""The scenario uses magic (18.4 on, L108, L250-L273): phases A and C and the
battles' magic steps; 18.1-18.3 ignore the magic rules (L108)."""


@rules_jit
def setup_scenario(S, b):
    """Put every counter the scenario deploys in its force's pool, the rest out
    of play; give each fortress its starting controller (L217, L232, L248)."""
    s = S[b]
    sc = int(s['scenario'])
    s['units_end'] = SCENARIO_UNITS_END[sc]
    for u in range(NUM_UNITS):
        s['unit_hex'][u] = -1
        s['unit_dead_hex'][u] = -1
        s['unit_target'][u] = -1
        s['unit_scapegoat'][u] = -1
        s['unit_entry'][u] = -1
        s['unit_where'][u] = UW_POOL if U_DEPLOY[u, sc] else UW_OUT
        s['unit_force'][u] = U_FORCE[u]
        if U_DEPLOY[u, sc] and (U_MAGICIAN[u] >= 0 or U_ASSASSIN[u]):
            s['unit_where'][u] = UW_HOLDING       # spirits, agents and assassins start off the board (L416, L924)
    for f in range(FORTRESS_START.shape[0]):
        s['fortress_owner'][f] = FORTRESS_START[f, sc]
    s['max_turns'] = SCENARIO_TURNS[sc]
    s['with_missile'] = SCENARIO_MISSILE[sc]
    s['first_force'] = DEPLOY_FIRST[sc]
    s['deploying'] = DEPLOY_FIRST[sc]
    s['sel_hex'] = -1
    s['group_start'] = -1
    s['arr_hex'] = -1
    s['adv_unit'] = -1
    for k in range(s['bat_att'].shape[0]):
        s['bat_att'][k] = -1
        s['bat_def'][k] = -1
        s['bat_vacated'][k] = -1
    s['moon'] = -1
    s['bat_prey'] = -1
    s['exotic_hex'] = -1
    for k in range(s['fracture_hexes'].shape[0]):
        s['fracture_hexes'][k] = -1           # no earthquake laid (L720)
    s['glowline_gone'] = 0
    s['revealed'] = 0
    s['stage'] = ST_DEPLOY


@rules_jit
def next_to_deploy(S, b, f):
    """The next unit of force f to deploy, -1 once all are placed."""
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_POOL and force_of(S, b, u) == f:
            return u
    return -1


@rules_jit
def deploy_round(S, b):
    """Pose the next deployment decision; when both forces are down, hand over
    to the first game-turn. Returns True if a decision is posed. The phase of
    the moon is selected before any units are deployed (L263, L271)."""
    s = S[b]
    if choose_moon(S, b):
        return True
    f = int(s['deploying'])
    if next_to_deploy(S, b, f) >= 0:
        return pose(S, b, PH_DEPLOY, f)
    other = 1 - int(s['first_force'])
    if f != other and next_to_deploy(S, b, other) >= 0:
        s['deploying'] = other
        return pose(S, b, PH_DEPLOY, other)
    s['turn'] = 1
    s['stage'] = ST_TURN_START
    return False


@rules_jit
def deploy_zone(S, b, f, h):
    """Hex h is where force f may deploy a unit in this scenario."""
    s = S[b]
    if not DEPLOY_ZONE[int(s['scenario']), f, h]:
        return False
    other = hex_force(S, b, h)
    return other < 0 or other == f


@rules_jit
def mask_deploy(S, b, p, mask):
    occupied = np.full(NUM_HEXES, -1, np.int8)
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_hex'][u] >= 0:
            occupied[s['unit_hex'][u]] = force_of(S, b, u)
    sc = int(s['scenario'])
    for h in range(NUM_HEXES):
        if DEPLOY_ZONE[sc, p, h] and occupied[h] != 1 - p:
            mask[A_HEX + h] = 1


@rules_jit
def act_deploy(S, b, p, a):
    """Place the deploying force's next unit on hex a; it takes control of a
    fortress there (Interpretations: control passes on entering)."""
    s = S[b]
    u = next_to_deploy(S, b, p)
    h = a - A_HEX
    put_on_top(S, b, u, h)
    fo = HEX_FORTRESS[h]
    if fo >= 0:
        s['fortress_owner'][fo] = p
    return False
