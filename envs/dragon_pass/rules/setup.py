"""Setting up a scenario (L200-L249): the forces it deploys, where each
force may deploy, fortress control at the start, and the deployment itself,
one unit at a time by its owner's decision.

Deployment order is the scenario's (``data/units.txt``, ``[scenario]``
``deploy``): in 18.1 and 18.2 the Lunar player deploys first outside Old
Sartar and the Sartar player second within it; in 18.3 the other way round.
Each force places its units in unit order (``constants.UNIT_IDS``); a unit
goes on any hex of its zone that is not a lake (no unit can end a turn in
one, L372) and holds no enemy unit (one owner per hex, L448). The force that
deploys first also plays first in every game-turn (Interpretations) -- but in
18.9, where a second die decides it after deployment (``marathon.who_plays_first``).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..board import NUM_HEXES, HEX_TERRAIN
from ..constants import (
    ENTRY_SARTAR_SOUTH, ENTRY_SOUTH_EDGE, LUNAR, NUM_UNITS, SARTAR, ST_DEPLOY, ST_DIPLOMACY, ST_TURN_START, UW_ENTERING, UW_HOLDING,
    UW_OUT, UW_POOL, NUM_FORCES,
)
from ..data import DATA, MAP
from ..unitdata import in_zone
from ..constants import SCENARIOS, FORCES, SCENARIO_INDEPENDENT_SEAT, seat_of_side
from .base import (
    A_CHOICE, CH_RESERVE, NUM_FACTIONS, NUM_MAJORS, d6, A_HEX, FORTRESS_START, PH_DEPLOY, U_ASSASSIN, U_MAGICIAN, TERRAIN_LAKE, U_DEPLOY, U_FORCE, force_of, units_end, hex_force, occupy, pose,
    put_on_top, foes_of, force_playing, hostile, players, CITY_HEX, U_HOME_CITY,
)
from .moon import choose_moon
from .marathon import who_plays_first

INDEPENDENT_SEAT = np.array(SCENARIO_INDEPENDENT_SEAT, np.int8)
"""The seat that plays the Independents a scenario deploys (18.6: seat 1)."""
SCENARIO_TURNS = np.array([DATA.scenarios[sid].turns for sid in SCENARIOS], np.int8)
"""Game-turns of each scenario (L204, L219, L234)."""
DEPLOY_FIRST = np.array([seat_of_side(DATA.scenarios[sid].deploy[0][0]) for sid in SCENARIOS], np.int8)
"""The force that deploys first (L206, L221, L236, L277)."""


def _deploy_zones():
    zone = np.zeros((len(SCENARIOS), len(FORCES), NUM_HEXES), np.int8)
    garrison = np.zeros((len(SCENARIOS), len(FORCES), NUM_HEXES), np.int8)
    for sc, sid in enumerate(SCENARIOS):
        scenario = DATA.scenarios[sid]
        for side, where in scenario.deploy:
            f = seat_of_side(side)
            for h in range(NUM_HEXES):
                zone[sc, f, h] = in_zone(where, MAP.ids[h], MAP.territory[h]) and HEX_TERRAIN[h] != TERRAIN_LAKE
        for side, hex_id in scenario.keep_out:
            zone[sc, seat_of_side(side), MAP.hex_index(hex_id)] = 0
        for side, hex_id in scenario.garrison:
            garrison[sc, seat_of_side(side), MAP.hex_index(hex_id)] = 1
    return zone, garrison


DEPLOY_ZONE, GARRISON = _deploy_zones()
"""DEPLOY_ZONE[scenario, force, h]: force may deploy on hex h (its scenario's
zone, L206-L284: within or outside Old Sartar, within the Glowline, within
Sartar, west of 26xx and north of xx19, the dark Glowline but Bagnot and
Dunstop, outside Sartar and the dark Glowline; no lake, L372).
GARRISON[scenario, force, h]: force must deploy at least one unit on hex h
(18.6: the Independents in Bagnot and in Dunstop, L284)."""
HAS_GARRISON = GARRISON.reshape(len(SCENARIOS), -1).any(axis=1).astype(np.int8)
for _sc in range(len(SCENARIOS)):
    for _f in range(len(FORCES)):
        assert not (GARRISON[_sc, _f] & ~DEPLOY_ZONE[_sc, _f]).any(), "a garrison hex outside its zone"
SCENARIO_MISSILE = np.array(["missile" in DATA.scenarios[sid].combat for sid in SCENARIOS], np.int8)
SCENARIO_EXOTIC_MAGIC = np.array(["exotic" in DATA.scenarios[sid].combat for sid in SCENARIOS], np.int8)
"""The scenario uses exotic magic ("All Combat", 18.4 on): Argrath's summoning of
the Dragontooth Runners, listed among the exotic abilities (L684), with it."""
SCENARIO_INDEPENDENTS = np.array([DATA.scenarios[sid].independents for sid in SCENARIOS], np.int8)
"""Every Independent is available, allied by Diplomacy Points and emissaries:
the Full and the Marathon Games (L299, L321; rules/alliance.py)."""
SCENARIO_UNITS_END = np.array([NUM_UNITS if SCENARIO_INDEPENDENTS[sc] else
                               max(u for u in range(NUM_UNITS) if U_DEPLOY[u, sc] or U_FORCE[u] >= 0) + 1
                               for sc in range(len(SCENARIOS))], np.int16)
"""One past the last counter a scenario can bring into play (``units_end``):
the Lunar and Sartar counters come first in ``constants.UNIT_IDS``, the
Independents' after them; no scenario of 18.1-18.5 brings an Independent in,
so the rules' loops over the counters stop before them; 18.6's stop after
the last of its Independents; 18.7's take every counter."""
DEPLOY_ROLL = np.array([DATA.scenarios[sid].deploy_first == "roll" for sid in SCENARIOS], np.int8)
"""A die decides who deploys first: odd the Lunars, even Sartar (L297, L319)."""
RESERVE = np.array([[DATA.scenarios[sid].reserve[1] if DATA.scenarios[sid].reserve and
                     seat_of_side(DATA.scenarios[sid].reserve[0]) == f else 0 for f in range(len(FORCES))]
                    for sid in SCENARIOS], np.int8)
"""RESERVE[scenario, force]: how many of its units the force may hold back as
the South Soldier Reserve, to enter by the south edge east of Stone Cross
(L297, L319)."""
RESERVE_ENTRY = np.array([ENTRY_SOUTH_EDGE if sid == "18.9" else ENTRY_SARTAR_SOUTH for sid in SCENARIOS], np.int8)
"""The edge the South Soldier Reserve enters by: east of Stone Cross inclusive
in 18.7 (L297), any south edge hex in 18.9 (L321; Interpretations 151)."""


@rules_jit
def game_turn_begins(S, b):
    """A game-turn begins: its Diplomacy Segment first in the Full and
    Marathon Games (L170), else its first player-turn."""
    s = S[b]
    s['step'] = 0
    s['stage'] = ST_DIPLOMACY if SCENARIO_INDEPENDENTS[int(s['scenario'])] else ST_TURN_START
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
        if U_FORCE[u] < 0 and U_DEPLOY[u, sc]:
            s['unit_force'][u] = INDEPENDENT_SEAT[sc]     # 18.6: the Independent player's (L284)
        if U_DEPLOY[u, sc] and (U_MAGICIAN[u] >= 0 or U_ASSASSIN[u]):
            s['unit_where'][u] = UW_HOLDING       # spirits, agents and assassins start off the board (L416, L924)
    for f in range(FORTRESS_START.shape[0]):
        s['fortress_owner'][f] = FORTRESS_START[f, sc]
    for k in range(s['site_owner'].shape[0]):
        # Rich Post, Wintertop and Wild Temple lie in the Independents' lands
        # (L144-L148): their side's, where a player plays them (18.6)
        s['site_owner'][k] = INDEPENDENT_SEAT[sc]
    s['max_turns'] = SCENARIO_TURNS[sc]
    s['with_missile'] = SCENARIO_MISSILE[sc]
    first = int(DEPLOY_FIRST[sc])
    if DEPLOY_ROLL[sc]:
        first = LUNAR if d6(S, b) % 2 == 1 else SARTAR     # odd: the Lunars deploy first (L297)
    s['first_force'] = first
    s['first_deployer'] = first
    s['deploying'] = first
    for k in range(NUM_FACTIONS):
        s['faction_ally'][k] = -1             # every Independent unallied (L736, L806)
    for f in range(NUM_FORCES):
        for k in range(NUM_MAJORS):
            s['dp_announced'][f, k] = -1      # no alliance sought yet (L979)
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
    s['cloak_hex'] = -1             # no cloud of the Cloak of Darkness (L752)
    s['zombie_lead'] = -1           # no zombie chain moving (rules/zombies.py)
    for k in range(s['fracture_hexes'].shape[0]):
        s['fracture_hexes'][k] = -1           # no earthquake laid (L720)
    for k in range(s['pillar_hexes'].shape[0]):
        s['pillar_hexes'][k] = -1             # no Pillar of Fire unleashed (L764)
    s['alchemy_unit'] = -1          # the Alchemical Transformer doubles no one yet (L857)
    s['glowline_gone'] = 0
    for k in range(s['city_entered'].shape[0]):
        s['city_entered'][k] = 0              # no force has entered a Dragonewt City yet (L742)
    s['revealed'] = 0
    s['puppet_found_hex'] = -1      # the Puppeteers not found yet (L886)
    s['illusion_kept'] = -1         # no Illusory Army kept from removal (L888)
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_POOL and U_HOME_CITY[u] >= 0:
            # 18.8: the Dragonewts are set up on their home cities (L305, L740)
            h = int(CITY_HEX[U_HOME_CITY[u]])
            put_on_top(S, b, u, h)
            occupy(S, b, force_of(S, b, u), h)
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
    for k in range(players(S, b)):
        # the forces deploy one after the other, in the order they play (L303-L307)
        g = force_playing(S, b, k)
        if next_to_deploy(S, b, g) >= 0:
            s['deploying'] = g
            return pose(S, b, PH_DEPLOY, g)
    s['turn'] = 1
    who_plays_first(S, b)         # 18.9: a second die (L319)
    game_turn_begins(S, b)
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
def garrisons_left(S, b, p):
    """How many of force p's garrison hexes (GARRISON) hold none of its units yet."""
    s = S[b]
    sc = int(s['scenario'])
    n = 0
    if not HAS_GARRISON[sc]:
        return 0
    for h in range(NUM_HEXES):
        if GARRISON[sc, p, h] and hex_force(S, b, h) != p:
            n += 1
    return n


@rules_jit
def mask_deploy(S, b, p, mask):
    """Hexes of p's zone that hold no enemy unit; when p has no more units
    left to deploy than garrison hexes still empty of his units, only those
    (18.6: at least one Independent unit in each of Bagnot and Dunstop, L284)."""
    occupied = np.full(NUM_HEXES, -1, np.int8)
    s = S[b]
    left = 0
    for u in range(units_end(S, b)):
        if s['unit_hex'][u] >= 0:
            occupied[s['unit_hex'][u]] = force_of(S, b, u)
        elif s['unit_where'][u] == UW_POOL and force_of(S, b, u) == p:
            left += 1
    sc = int(s['scenario'])
    only_garrisons = left <= garrisons_left(S, b, p)
    for h in range(NUM_HEXES):
        if DEPLOY_ZONE[sc, p, h] and not hostile(occupied[h], foes_of(p)):
            if only_garrisons and not (GARRISON[sc, p, h] and occupied[h] != p):
                continue
            mask[A_HEX + h] = 1
    if reserve_left(S, b, p) > 0:
        mask[A_CHOICE + CH_RESERVE] = 1


@rules_jit
def reserve_left(S, b, p):
    """How many more units p may put in the South Soldier Reserve (L297)."""
    s = S[b]
    n = int(RESERVE[int(s['scenario']), p])
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_ENTERING and force_of(S, b, u) == p:
            n -= 1
    return n


@rules_jit
def act_deploy(S, b, p, a):
    """Place the deploying force's next unit on hex a; it takes control of a
    fortress or victory site there (Interpretations: control passes on entering)."""
    u = next_to_deploy(S, b, p)
    if a == A_CHOICE + CH_RESERVE:
        # the South Soldier Reserve: off the board, to force march in by the
        # south edge east of Stone Cross on game-turn 1 (L297)
        s = S[b]
        s['unit_where'][u] = UW_ENTERING
        s['unit_entry'][u] = RESERVE_ENTRY[int(s['scenario'])]
        return False
    h = a - A_HEX
    put_on_top(S, b, u, h)
    occupy(S, b, p, h)
    return False
