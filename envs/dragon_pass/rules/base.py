"""Shared pieces of the Dragon Pass rules: the counters' factors and the
printed tables frozen into arrays, the action space and its decisions, dice,
stacks, zones of control and the cost of a step.

Factors are indexed ``[unit, side]`` (``constants.SIDE_FRONT`` / ``SIDE_BACK``).
Movement points are counted in halves (``2 * MF``), so a primary road's ½ MP
(L363) is exact; combat factors are summed in halves too, so that the rounding
rule holds: fractions are kept until the total is resolved, then dropped
(L110).
"""
from fractions import Fraction

import numpy as np

from dragongym.envs.core.jit import local_array, rules_jit
from dragongym.envs.core.rng import roll  # noqa: F401  (the game's dice go through it)
from ..board import (
    HEX_FORD, HEX_FORTRESS, HEX_RIVER, HEX_STEP, HEX_STRUCTURE, HEX_TERRAIN, HEX_TERRITORY, NUM_HEXES,
    ROAD_PRIMARY, ROAD_SECONDARY, SIDE_RIDGE, SIDE_ROAD, STRUCTURE_IDS, TERRAIN_IDS, TERRITORY_IDS,
)
from ..constants import (
    NUM_UNITS, RANK_HERO, RANK_NONE, RANK_SUPERHERO, RUNE_AIR, RUNE_NONE, RUNE_STONE, RUNE_WATER,
    LUNAR, SCENARIOS, SIDE_BACK, SIDE_FRONT, UNIT_IDS, TAG_BISON, TAG_DRAGON, TAG_DUCK, TAG_LARGE, UNIT_KIND_OF, UW_DEAD, UW_ESCAPING, UW_MAP, UW_OUT, FORCES, UF_FRIEND_FELL, ENTRY_LUNAR_GLOWLINE,
    ENTRY_SARTAR_SOUTH, NUM_ENTRY_ZONES, KINDS, NEUTRAL, OCC_GIANTS, UNIT_KINDS, ST_COMBAT, ST_EXOTIC,
    ENTRY_SARTAR_SOUTH_EDGE, ENTRY_IMPERIAL_EDGE, NUM_FORCES, ENTRY_WEST_EDGE, ENTRY_SOUTH_EDGE, SC_18_9,
)
from ..unitdata import FACTIONS
from ..data import DATA, MAP
from ..state import NUM_FACTIONS, NUM_MAJORS, NUM_SITES

ALL_FORCES = (1 << NUM_FORCES) - 1
"""Every force's ZOC bit (``scan_board``): the giants' zone of control stops
the units of every player (L918)."""

# ================================================================ the counters
_RUNES = {None: RUNE_NONE, "water": RUNE_WATER, "stone": RUNE_STONE, "air": RUNE_AIR}
_RANKS = {"none": RANK_NONE, "hero": RANK_HERO, "superhero": RANK_SUPERHERO}
_TAGS = {"duck": TAG_DUCK, "bison": TAG_BISON, "dragon": TAG_DRAGON, "giant": TAG_LARGE, "llama": TAG_LARGE,
         "herd": TAG_LARGE, "ancestor": TAG_LARGE}
INFINITE_MGF = 99
"""The MgF of a unit printed "infinity" (L406)."""


def _unit_tables():
    kinds = KINDS
    n = NUM_UNITS
    force = np.zeros(n, np.int8)
    rank = np.zeros(n, np.int8)
    rune = np.zeros(n, np.int8)
    tags = np.zeros(n, np.int8)
    cavalry = np.zeros(n, np.int8)
    best = np.full(n, -1, np.int16)
    deploy = np.zeros((n, len(SCENARIOS)), np.int8)
    cf = np.zeros((n, 2), np.int16)
    missile = np.zeros((n, 2), np.int8)
    lf = np.zeros((n, 2), np.int8)
    mf = np.zeros((n, 2), np.int8)
    mgf = np.zeros((n, 2), np.int16)
    rf = np.full((n, 2), -1, np.int8)
    rf_special = np.zeros((n, 2), np.int8)
    major = np.zeros((n, 2), np.int8)
    single = np.zeros((n, 2), np.int8)
    spirit = np.zeros((n, 2), np.int8)
    heroic = np.zeros((n, 2), np.int8)
    cyclic = np.zeros(n, np.int8)
    copy = {}
    first_of_kind = {}
    for u in range(n):
        k = UNIT_KIND_OF[u]
        unit = kinds[k]
        i = copy.get(k, 0)
        copy[k] = i + 1
        first_of_kind.setdefault(unit.id, u)
        force[u] = FORCES.index(unit.force) if unit.force in FORCES else NEUTRAL
        rank[u] = _RANKS[unit.rank]
        rune[u] = _RUNES[unit.front.rune]
        cavalry[u] = unit.arm == "cavalry"
        for t in unit.tags:
            tags[u] |= _TAGS[t]
        for sc, sid in enumerate(SCENARIOS):
            deploy[u, sc] = 1 if i < unit.deploys.get(sid, 0) else 0
        cyclic[u] = unit.front.cyclic or unit.back.cyclic
        for s, side in enumerate((unit.front, unit.back)):
            cf[u, s] = int(side.combat_factor())
            missile[u, s] = side.missile
            lf[u, s] = side.leadership
            # a herd's "+2" (L419) is read as its own MF alone: 2 greater than the
            # slower of no hastened units (L478; RULES.md Interpretations)
            mf[u, s] = side.mf if side.mf_kind in ("number", "plus") else 0
            if side.mgf_kind == "infinity":
                mgf[u, s] = INFINITE_MGF
            elif side.mgf_kind == "number":
                mgf[u, s] = side.mgf
            rf[u, s] = side.rf if side.rf_kind == "number" else -1
            rf_special[u, s] = side.rf_special
            major[u, s] = side.major
            single[u, s] = side.single
            spirit[u, s] = side.cf_kind == "blank"
            heroic[u, s] = side.heroic
    for u in range(n):
        unit = kinds[UNIT_KIND_OF[u]]
        if unit.best_friend:
            best[u] = first_of_kind[unit.best_friend]
    return (force, rank, rune, tags, cavalry, best, deploy, cf, missile, lf, mf, mgf, rf, rf_special, major, single,
            spirit, heroic, cyclic)


(U_FORCE, U_RANK, U_RUNE, U_TAGS, U_CAVALRY, U_BEST_FRIEND, U_DEPLOY, U_CF, U_MISSILE, U_LF, U_MF, U_MGF, U_RF,
 U_RF_SPECIAL, U_MAJOR, U_SINGLE, U_SPIRIT, U_HEROIC, U_CYCLIC) = _unit_tables()


U_MGF_MOON = np.array([[side.mgf_kind in ("cyclic", "half_cyclic") for side in (KINDS[UNIT_KIND_OF[u]].front,
                                                                            KINDS[UNIT_KIND_OF[u]].back)]
                       for u in range(NUM_UNITS)], np.int8)
"""U_MGF_MOON[u, side]: u's MgF is cyclic or half-cyclic (the Red Moon's value,
L410, L662; ``moon.mgf_halves``): U_MGF holds 0 for it."""


def _scenario_best_friends():
    out = np.repeat(U_BEST_FRIEND[None, :], len(SCENARIOS), axis=0)
    for sc, sid in enumerate(SCENARIOS):
        for hero, friend in DATA.scenarios[sid].best_friends:
            out[sc, UNIT_IDS.index(hero)] = UNIT_IDS.index(friend)
    return out


SCENARIO_BEST_FRIEND = _scenario_best_friends()
"""SCENARIO_BEST_FRIEND[scenario, v]: superhero v's best friend, -1 for none:
the printed one (L614), or the one the scenario assigns -- in 18.6 the Twins
are Androgeus' (L291, L615, L633)."""


@rules_jit
def best_friend(S, b, v):
    """Superhero v's best friend in this game's scenario (-1: none)."""
    return SCENARIO_BEST_FRIEND[int(S[b]['scenario']), v]


def _bound_tables():
    kinds = KINDS
    kind_ids = list(UNIT_KINDS)
    first = {}
    for u in range(NUM_UNITS):
        first.setdefault(UNIT_KIND_OF[u], u)
    bound = np.full(NUM_UNITS, -1, np.int16)
    magician = np.full(NUM_UNITS, -1, np.int16)
    agent = np.zeros(NUM_UNITS, np.int8)
    for u in range(NUM_UNITS):
        unit = kinds[UNIT_KIND_OF[u]]
        of = unit.spirit_of or unit.agent_of
        if of is None:
            continue
        m = first[kind_ids.index(of)] + (u - first[UNIT_KIND_OF[u]])     # copy k of the spirit is copy k's
        bound[m] = u
        magician[u] = m
        agent[u] = unit.agent_of is not None
    return bound, magician, agent


U_BOUND, U_MAGICIAN, U_AGENT = _bound_tables()
@rules_jit
def bat_kill(S, b, v):
    """Enemy unit v was eliminated by the Bat's chaotic magic: it feeds the Bat
    (L698), a hero only if it then fails its heroic escape (``bat_prey``,
    ``turns.rally_phase``)."""
    s = S[b]
    if U_RANK[v] == RANK_NONE:
        s['bat_fed'] += 1
    else:
        s['bat_prey'] = v


@rules_jit
def floods(S, b, u, h, stops):
    """The third day of the Stormwalkers' Type 2 storm floods the rivers: unit u
    entering river hex h is disrupted; a flying unit (the Air Rune) only if it
    stops there; superheroes are unaffected (L688, D&S)."""
    s = S[b]
    if s['storm_day'] != 3 or not HEX_RIVER[h] or U_RANK[u] == RANK_SUPERHERO:
        return
    if (U_RUNE[u] == RUNE_AIR) != stops:
        return
    disrupt(S, b, u)


U_ASSASSIN = np.array([KINDS[UNIT_KIND_OF[u]].assassin for u in range(NUM_UNITS)], np.int8)
"""An assassin (X-*-*-X, L926): kept off the board, in its side's holding box,
until the Exotic Magic Phase drops it on a stack (L924)."""


U_DINOSAUR = np.array([KINDS[UNIT_KIND_OF[u]].formation == "DI" for u in range(NUM_UNITS)], np.int8)
"""The Dinosaurs' counters (L833-L837): neutral until a unit ends a phase
stacked with them (``rules/giants.py::dinosaurs_settle``)."""
U_DINOSAUR_ON_MAP = np.array([u for u in range(NUM_UNITS) if U_DINOSAUR[u] and U_MAGICIAN[u] < 0], np.int64)
"""The 12 dinosaurs that stand on the map (the Trachodons' spirits are a
magician's spirits, in their holding boxes, L416)."""
U_GIANT = np.array([KINDS[UNIT_KIND_OF[u]].formation == "GI" for u in range(NUM_UNITS)], np.int8)
"""The three giants (L914-L920): no one's (``unit_force`` NEUTRAL), on the map
a third party both players' units are inactive to (``OCC_GIANTS``)."""


def _herd_tables():
    herd = np.zeros(NUM_UNITS, np.int8)
    hastened = np.zeros(NUM_UNITS, np.int8)
    for u in range(NUM_UNITS):
        unit = KINDS[UNIT_KIND_OF[u]]
        front = unit.front
        herd[u] = front.herd and front.mf_kind == "plus"
        ally = unit.force in FORCES or unit.formation in HASTENED_FORMATIONS
        magician = front.rf_kind == "number" and front.rf >= 1 and not front.rf_special
        hastened[u] = (ally and unit.arm in ("infantry", "cavalry") and not magician and not front.single
                       and front.rune != "air" and not front.herd and front.cf_kind != "blank"
                       and front.mf_kind == "number" and front.mf > 0)
    return herd, hastened


HASTENED_FORMATIONS = ("GZ", "BHT", "EX")
"""The Independents whose infantry and cavalry a herd can hasten besides the
Lunar Empire's and Sartar's: the Grazeland Pony Breeders, Sir Ethilrist's
Black Horse Troop and the Exiles (L478, L794)."""
U_HERD, U_HASTENED = _herd_tables()
"""U_HERD[u]: u is a herd in the rules' sense -- the Grazelander horse herds,
h in the CF and a +N MF (L137, L478; the Brontosauri's h only makes them Herd
targets, SUBSTITUTES.md choice 1). U_HASTENED[u]: a herd can hasten u
(L478, L794): infantry or cavalry of Lunar, Sartar, the Pony Breeders, the
Black Horse Troop or the Exiles, not a magician (an RF of 1 or more, L131,
L133), a personality (parenthesised CF), flying (the Air Rune), a herd, a
disembodied spirit or a zero MF."""
"""U_BOUND[m]: the spirit (L131-L132) or physical agent (L133-L135) of
magician m, -1 if m is none; U_MAGICIAN[u]: the magician of spirit or agent
u, -1; U_AGENT[u]: u is a physical magician's agent (its CF attacks by
physical magic, L520), not a spirit (its MgF attacks by spirit magic, L540)."""
"""Per unit: its force, RANK_*, RUNE_* (L421-L423), TAG_* bits, cavalry (L786),
its best friend's unit (L614, -1), U_DEPLOY[u, scenario] 1 if the scenario
deploys this counter (L204-L246); per unit and side: CF (L392-L399), Missile
Factors (the asterisks, L394), Leadership Factor (the ! marks, L396), MF,
MgF (INFINITE_MGF for infinity), RF (-1 blank), a parenthesised RF (L430), major (L127), parenthesised
(single, L395), a disembodied spirit (blank CF, L134), an underlined
(heroic) MF (L417). U_CYCLIC: a factor follows the Red Moon (L398), which
comes with the moon's part; no counter 18.1-18.3 deploys has one."""

# ================================================================ the printed tables
T = DATA.tables
CRIMSON_BAT = UNIT_IDS.index("crimson_bat")
ETHILRIST = UNIT_IDS.index("ethilrist")
HELL_HOUND = UNIT_IDS.index("hell_hound")
RIDING_MF = 10
"""Ethilrist's MF while he rides the Hound (L754)."""
GOBLINS = UNIT_IDS.index("goblins")
KEENER_THAN = UNIT_IDS.index("keener_than")
CLOAK_RANGE = 10
"""The Cloak of Darkness's cloud: every hex within 10 of it (L752)."""
CLOAK_TURNS = 2
"""It lasts the next 2 game-turns after the one it is cast in (L752; Interpretations 81)."""
U_BLACK_HORSE = np.array([i.startswith("bh_troops#") or i.startswith("bh_auxiliaries#") for i in UNIT_IDS], np.int8)
"""The Black Horse units: Ethilrist's Troops and Auxiliaries (L758)."""
IRONHOOF = UNIT_IDS.index("ironhoof")
CRAGSPIDER = UNIT_IDS.index("cragspider")
SPIRIT_OF_MOVEMENT = UNIT_IDS.index("spirit_of_movement")
ALCHEMICAL_TRANSFORMER = UNIT_IDS.index("alchemical_transformer")
SPIRIT_OF_MOVEMENT_MF = 2
"""The Spirit of Movement's MF by itself (L896); stacked for a whole movement
phase it takes the highest doubled MF of the units with it (rules/minors.py)."""
U_TEMPLAR = np.array([i.startswith("sun_dome_templars#") for i in UNIT_IDS], np.int8)
"""The Sun Dome Templars: their CF doubled as defending melee casualties, no
terrain benefit (L902; combat.casualty_value2)."""
U_TUSK_RIDER = np.array([i.startswith("tusk_riders#") for i in UNIT_IDS], np.int8)
"""The Tusk Riders: 1 MP for hill and forest ground, no road benefits (L484, L910; step_cost)."""
BLACK_DRAGON = UNIT_IDS.index("black_dragon")
"""Cragspider's Black Dragon, eliminated when she is killed (L768)."""
DELECTI = UNIT_IDS.index("delecti")
ZOMBIE_1 = UNIT_IDS.index("zombies#1")
NUM_ZOMBIES = 12
ZOMBIE_LAST = ZOMBIE_1 + NUM_ZOMBIES - 1
"""Delecti and his zombies (L815-L831, rules/zombies.py): zombie k (1..12) is
unit ZOMBIE_1 + k - 1; the chain runs in the order of their numbers (L823)."""
U_GIANT = np.array([i.startswith("giants#") for i in UNIT_IDS], np.int8)
"""The giants (L914-L920): no zombie rises from them (L821)."""
PUPPETEER_TROOP = UNIT_IDS.index("puppeteer_troop")
"""The Puppeteer Troop, who creates, removes and switches places with the Illusory Armies (L884-L892)."""
ILLUSORY_ARMIES = np.array([u for u, i in enumerate(UNIT_IDS) if i.startswith("illusory_armies#")], np.int64)
"""The 5 Illusory Army pieces (L886, L888, L892)."""
IS_ILLUSION = np.zeros(NUM_UNITS, np.int8)
IS_ILLUSION[ILLUSORY_ARMIES] = 1
"""IS_ILLUSION[u]: u is an Illusory Army. It cannot move, retreat or advance
(L888, L890); disrupted it is removed, to be created again (L890). Off the
board and free to be created it is UW_OUT; eliminated (UW_DEAD) it is never
created again (L890)."""
HYDRA = UNIT_IDS.index("hydra")
"""The Hydra: its chaotic MgF is rolled once allied (``hydra_mgf``) and it cannot
move until fed as many units (``hydra_hunger``, L880)."""
DRAGON_UNITS = np.array([UNIT_IDS.index(n) for n in ("red_dragon", "green_dragon", "brown_dragon", "black_dragon")],
                        np.int64)
"""The four dragons (L843), in the order of the bits of ``dragon_negates``."""
DRAGONREST_HEX = np.array([MAP.dragonrests[c] for c in ("red", "green", "brown", "black")], np.int64)
"""DRAGONREST_HEX[k]: the dragonrest of DRAGON_UNITS[k] (L75, L839, L768)."""
HUNGRY_JACK = UNIT_IDS.index("hungry_jack")
"""Hungry Jack, carried only by a dragon (L462, L870)."""
"""Ironhoof, who once per game freezes every cavalry unit for a game-turn (L782)."""
"""The Crimson Bat: its Glowspot (L666, L696), its feeding and hunger (L698-L708)."""
BAT_HUNGER = np.zeros((7, 2), np.int8)
for _ph, (_one, _more) in T.bat_hunger.items():
    BAT_HUNGER[[p.id for p in T.moon_phases].index(_ph)] = (_one, _more)
"""BAT_HUNGER[phase, 0 / 1]: the Lunar units the hungry Bat needs on that day
with one / two or more Black and Dying days missed (L702-L708); 0 where the
table lists none."""
MOON_BLACK = [p.id for p in T.moon_phases].index("black")
MOON_DYING = [p.id for p in T.moon_phases].index("dying")
MOON_FULL_HALF = [p.id for p in T.moon_phases].index("full_half")


@rules_jit
def bat_demand(S, b):
    """The Lunar units the Crimson Bat must have devoured by the end of today:
    1 on a Black or Dying day (L698); while it is hungry, on the days the Bat
    Hunger Table lists, the table's number (L700-L708, Interpretations 36). The
    units it has devoured since it went hungry count towards it (``bat_owed``)."""
    s = S[b]
    d = int(s['moon'])
    if d < 0:
        return 0
    if s['bat_missed'] > 0 and BAT_HUNGER[d, 0] > 0:
        return int(BAT_HUNGER[d, 0 if s['bat_missed'] == 1 else 1])
    return 1 if d == MOON_BLACK or d == MOON_DYING else 0


@rules_jit
def bat_starves(S, b):
    """The Bat eliminated, or starved, before its hunger is sated: the Lunar
    units its spirit still needs, for the opposing player to eliminate (L700)."""
    s = S[b]
    if s['bat_missed'] > 0:
        left = bat_demand(S, b) - int(s['bat_owed']) - int(s['bat_fed'])
        s['hunger_left'] = left if left > 0 else 0
    s['bat_missed'] = 0
    s['bat_owed'] = 0
    s['bat_fed'] = 0


TERRAIN_LAKE = TERRAIN_IDS.index("lake")
TERRAIN_MOUNTAIN = TERRAIN_IDS.index("mountain")
TERRAIN_MARSH = TERRAIN_IDS.index("marsh")
TERRAIN_FOREST = TERRAIN_IDS.index("forest")
TERRAIN_HILL_FOREST = TERRAIN_IDS.index("hill_forest")
TERRAIN_HILL = TERRAIN_IDS.index("hill")
STRUCT_FORTRESS = STRUCTURE_IDS.index("fortress")
STRUCT_STOCKADE = STRUCTURE_IDS.index("stockade")
OLD_SARTAR = TERRITORY_IDS.index("old_sartar")


def _half(x):
    return int(Fraction(x) * 2)


def _terrain_tables():
    n = NUM_HEXES
    enter = np.zeros((n, 4), np.int8)      # half MPs to enter, by RUNE_*
    melee_in = np.zeros(n, np.int8)        # casualty multiplier x2 for the bottom units (inside)
    melee_out = np.zeros(n, np.int8)       # x2 for the others (outside, L348)
    missile = np.zeros(n, np.int8)         # the worst terrain missile modifier of the hex (L1111-L1115)
    fortification = np.zeros(n, np.int8)   # a fortress or stockade (L357)
    for h in range(n):
        ter = T.terrain[TERRAIN_IDS[HEX_TERRAIN[h]]] if TERRAIN_IDS[HEX_TERRAIN[h]] != "lake" else None
        st = T.structures[STRUCTURE_IDS[HEX_STRUCTURE[h]]] if HEX_STRUCTURE[h] >= 0 else None
        cost_of = st if st is not None else ter
        for r, name in ((RUNE_NONE, None), (RUNE_WATER, "water"), (RUNE_STONE, "stone"), (RUNE_AIR, "air")):
            if cost_of is None:            # a lake: entered by the Water and Air Runes only, 1 MP (L372)
                enter[h, r] = 2
            elif cost_of.rune is not None and cost_of.rune == name:
                enter[h, r] = _half(cost_of.rune_movement)
            else:
                enter[h, r] = _half(cost_of.movement)
        t_melee = _half(ter.melee) if ter is not None else 2
        t_missile = ter.missile if ter is not None else 0
        if st is None:
            melee_in[h] = melee_out[h] = t_melee
            missile[h] = t_missile
        else:
            # inside takes the better of the structure and the ground (never both);
            # outside the ruins' printed outside value, else the ground (L348, L353-L354)
            melee_in[h] = max(_half(st.melee), t_melee)
            melee_out[h] = _half(st.melee_outside) if st.melee_outside is not None else t_melee
            missile[h] = min(st.missile, t_missile)
            fortification[h] = st.fortification
    return enter, melee_in, melee_out, missile, fortification


HEX_ENTER2, HEX_MELEE_IN2, HEX_MELEE_OUT2, HEX_MISSILE_MOD, HEX_FORTIFICATION = _terrain_tables()
"""HEX_ENTER2[h, rune]: half MPs to enter h off a road (the structure's cost
where it has one, else the terrain's; L335-L355); HEX_MELEE_IN2 / OUT2[h]:
twice the melee casualty multiplier of a unit inside / outside its
structure; HEX_MISSILE_MOD[h]: the worst terrain missile modifier (only the
worst applies, L331); HEX_FORTIFICATION[h]: a fortress or stockade."""

def _phys_magic_tables():
    inside = np.zeros(NUM_HEXES, np.int8)
    outside = np.zeros(NUM_HEXES, np.int8)
    for h in range(NUM_HEXES):
        ter = T.terrain[TERRAIN_IDS[HEX_TERRAIN[h]]] if TERRAIN_IDS[HEX_TERRAIN[h]] != "lake" else None
        st = T.structures[STRUCTURE_IDS[HEX_STRUCTURE[h]]] if HEX_STRUCTURE[h] >= 0 else None
        t2 = _half(ter.phys_magic) if ter is not None else 2
        outside[h] = t2
        inside[h] = max(_half(st.phys_magic), t2) if st is not None else t2
    return inside, outside


HEX_PHYS_IN2, HEX_PHYS_OUT2 = _phys_magic_tables()
"""Twice the Phys Magic casualty multiplier of a unit inside / outside the
structure of hex h (L335-L355; the bottom three units are inside, L348; inside
takes the better of the structure and the ground, as for melee)."""

def _clear_hex():
    for h in range(NUM_HEXES):
        if TERRAIN_IDS[HEX_TERRAIN[h]] == "open" and HEX_STRUCTURE[h] < 0:
            return h
    raise ValueError("the map has no hex of clear terrain")


CLEAR_HEX = _clear_hex()
"""A hex of clear terrain (open ground, no structure): the per-hex terrain
tables read at it give clear terrain's values (``ground``)."""


@rules_jit
def ground(S, b, h):
    """The hex whose terrain and structure count for hex h: h itself, or, for
    a fortress an earthquake badly damaged, a hex of clear terrain -- the
    fortress has no effect for the rest of the game and its hex is treated as
    clear terrain (L720). Every read of the terrain tables (HEX_ENTER2,
    HEX_MELEE_*, HEX_MISSILE_MOD, HEX_FORTIFICATION, HEX_PHYS_*, the terrain
    kind) goes through it; rivers, ridges and roads stay the hex's own, and
    the fortress still counts for victory (``fortress_owner``)."""
    fo = HEX_FORTRESS[h]
    if fo >= 0 and S[b]['fortress_damaged'][fo] != 0:
        return CLEAR_HEX
    return h


HEX_UPLAND_MARSH = np.zeros(NUM_HEXES, np.int8)
for _h in MAP.areas["upland_marsh"]:
    HEX_UPLAND_MARSH[_h] = 1
HEX_OLD_SARTAR = (HEX_TERRITORY == OLD_SARTAR).astype(np.int8)
HEX_INDEPENDENT = np.array([MAP.territory[h] in ("grazelands", "wintertop", "black_horse_country", "cragspider",
                                                 "beast_valley", "dragonewt") for h in range(NUM_HEXES)], np.int8)
"""The Major Independents' territories (L144-L149)."""
HEX_SARTAR = np.array([MAP.territory[h] in ("old_sartar", "duck_point", "alda_chur", "alone")
                       for h in range(NUM_HEXES)], np.int8)
"""Sartar: Old Sartar, Duck Point, Alda-Chur and Alone (L142)."""
SCENARIO_SHUT = np.array([HEX_INDEPENDENT if "no_independent_territory" in DATA.scenarios[sid].special
                          else HEX_SARTAR if "no_sartar" in DATA.scenarios[sid].special
                          else np.zeros(NUM_HEXES, np.int8) for sid in SCENARIOS], np.int8)
"""SCENARIO_SHUT[scenario, h]: no unit may move, retreat or advance into hex h:
18.5: "Units cannot retreat or move through any Independents territory"
(L271); 18.6: "... into or through any part of Sartar" (L291)."""


@rules_jit
def shut(S, b, g):
    """Hex g is closed to movement, retreats and advances in this scenario
    (SCENARIO_SHUT; L271, L291; Interpretations 39)."""
    return SCENARIO_SHUT[int(S[b]['scenario']), g] != 0


TEMPLE_OF_THE_REACHING_MOON = MAP.hex_index("1108")
"""Occupied by an enemy of the Lunars, it ends the Glowline for the rest of the game (L143, L155)."""

NEWT_CITIES = len(MAP.dragonewt_cities)
CITY_HEX = np.array([MAP.dragonewt_cities[n] for n in range(1, NEWT_CITIES + 1)], np.int16)
"""CITY_HEX[k]: the hex of Dragonewt City k + 1 (L740)."""
HEX_CITY = np.full(NUM_HEXES, -1, np.int8)
"""HEX_CITY[h]: k where h is Dragonewt City k + 1, -1 elsewhere."""
HEX_CITY[CITY_HEX] = np.arange(NEWT_CITIES)


def _home_cities():
    home = np.full(NUM_UNITS, -1, np.int8)
    first = {}
    for u in range(NUM_UNITS):
        first.setdefault(UNIT_KIND_OF[u], u)
        unit = KINDS[UNIT_KIND_OF[u]]
        if unit.homes:
            home[u] = unit.homes[u - first[UNIT_KIND_OF[u]]] - 1
    return home


U_HOME_CITY = _home_cities()
"""U_HOME_CITY[u]: k for a dragonewt whose home is Dragonewt City k + 1 (its
counter's number, L740; independents.txt 'homes'), -1 for every other unit:
the units that resurrect (L742, ``turns.resurrect``)."""


def _entry_hexes():
    out = np.zeros((NUM_ENTRY_ZONES, NUM_HEXES), np.int8)
    stone = MAP.hex_index("1934")
    col = lambda h: int(MAP.ids[h][:2])      # noqa: E731
    row = lambda h: int(MAP.ids[h][2:])      # noqa: E731
    dark = set(MAP.hexes("glowline_dark"))
    imperial = dark | set(MAP.hexes("glowline_light"))
    for h in range(NUM_HEXES):
        if row(h) == MAP.rows and col(h) >= col(stone):
            out[ENTRY_SARTAR_SOUTH, h] = 1
        if h in dark and MAP.is_edge(h):
            out[ENTRY_LUNAR_GLOWLINE, h] = 1
        if row(h) == MAP.rows and HEX_SARTAR[h]:
            out[ENTRY_SARTAR_SOUTH_EDGE, h] = 1
        if h in imperial and MAP.is_edge(h):
            out[ENTRY_IMPERIAL_EDGE, h] = 1
        if col(h) == 1:
            out[ENTRY_WEST_EDGE, h] = 1         # column 01, the West map edge (L870; data/map.txt)
        if row(h) == MAP.rows:
            out[ENTRY_SOUTH_EDGE, h] = 1          # 18.9's reserve: any south edge hex (L321)
    return out


ENTRY_HEXES = _entry_hexes()
"""ENTRY_HEXES[zone, h]: h is a board-edge hex units entering by ``zone`` may
come in at (constants.ENTRY_*: L297, L323, L972, L981; Androgeus by the
south edge of Sartar or an edge of the Imperial borders, the Glowline's
lands, dark and light, L143, L800; Interpretations 96; the dragon back from
fetching Hungry Jack by the West edge, column 01, L870; 18.9's South Soldier
Reserve by any south edge hex, L321, Interpretations 151)."""


# ================================================================ the Independents' factions (L730-L920)
MAJORS = ("dragonewts", "black_horse", "cragspider", "exiles", "half_beasts", "grazelanders", "androgeus")
"""The Major Independents in the order of the Diplomacy Points table (L1002);
they are the first seven of ``unitdata.FACTIONS``, so a Major's index is its
faction's."""
assert FACTIONS[:NUM_MAJORS] == MAJORS and NUM_FACTIONS == len(FACTIONS)
DRAGONEWTS, BLACK_HORSE, CRAGSPIDER_FACTION, EXILES, HALF_BEASTS, GRAZELANDERS, ANDROGEUS_FACTION = range(NUM_MAJORS)


def _faction_tables():
    by_formation = {f.id: FACTIONS.index(f.faction) for f in DATA.independent_formations.values()}
    of_unit = np.array([by_formation.get(KINDS[UNIT_KIND_OF[u]].formation, -1) for u in range(NUM_UNITS)], np.int8)
    price = np.zeros(NUM_MAJORS, np.int16)
    for f in DATA.independent_formations.values():
        if f.group == "major":
            price[FACTIONS.index(f.faction)] = f.dp
    territory_of = {"dragonewt": "dragonewts", "black_horse_country": "black_horse", "cragspider": "cragspider",
                    "wintertop": "exiles", "beast_valley": "half_beasts", "grazelands": "grazelanders"}
    hex_faction = np.array([FACTIONS.index(territory_of[MAP.territory[h]]) if MAP.territory[h] in territory_of
                            else -1 for h in range(NUM_HEXES)], np.int8)
    capital = np.array([MAP.capitals.get(FACTIONS[k], -1) for k in range(NUM_FACTIONS)], np.int16)
    return of_unit, price, hex_faction, capital


U_FACTION, MAJOR_PRICE, HEX_MAJOR, FACTION_CAPITAL = _faction_tables()
"""U_FACTION[u]: the ``unitdata.FACTIONS`` index of an Independent's or special
unit's counter, -1 for the Battalia's. MAJOR_PRICE[k]: the Diplomacy Points
that ally Major k (L1002). HEX_MAJOR[h]: the Major whose territory hex h is
(L144-L149), -1 for none (Androgeus has none, L800). FACTION_CAPITAL[k]: the
hex of an Independent's capital (L740-L792), -1 for none."""
FORCE_CAPITAL = np.array([MAP.capitals["lunar"], MAP.capitals["sartar"], MAP.capitals["exiles"]], np.int16)
"""Each player's capital: Furthest, the Lunar capital, Boldhome, the Sartar
capital (L987), and 18.8's Tarsh player's Wintertop, the Exiles' (L145, L313;
Interpretations 181)."""


def _replaceable():
    arm = np.full(NUM_UNITS, -1, np.int8)
    for u in range(NUM_UNITS):
        k = KINDS[UNIT_KIND_OF[u]]
        if k.force in FORCES and k.rank == "none" and k.arm in ("infantry", "cavalry"):
            arm[u] = 0 if k.arm == "infantry" else 1
    return arm


U_REPLACEABLE = _replaceable()
"""U_REPLACEABLE[u]: 0 for a Lunar or Sartar infantry unit, 1 for cavalry, -1
for any other: only those fill the dead piles that replacements are counted
from and come back as replacements (L299, L323)."""


SCENARIO_DIPLOMACY = np.array([DATA.scenarios[sid].independents for sid in SCENARIOS], np.int8)
"""The scenario uses the diplomacy and alliance rules, every Independent
available (18.7, 18.9: "All Combat & Diplomacy Rules", L295, L317;
rules/alliance.py)."""
TRESPASS_DP = int(DATA.tables.diplomacy["trespass"])


@rules_jit
def trespass(S, b, u, h, g):
    """Active unit u steps from hex h into hex g: entering a neutral Major
    Independent's territory from outside it gives the inactive player 1 DP,
    once a movement phase for each unit (L991; Interpretations 94)."""
    s = S[b]
    if not SCENARIO_DIPLOMACY[int(s['scenario'])]:
        return
    k = int(HEX_MAJOR[g])
    if k < 0 or s['faction_ally'][k] >= 0 or (h >= 0 and HEX_MAJOR[h] == k):
        return
    if s['trespassers'][u >> 3] & (1 << (u & 7)):
        return
    s['trespassers'][u >> 3] |= 1 << (u & 7)
    s['dp'][1 - int(s['active'])] += TRESPASS_DP     # two-player: diplomacy is for two-player games (L977)


@rules_jit
def trespass_clear(S, b):
    """A movement phase begins: no unit has trespassed in it yet."""
    s = S[b]
    for i in range(s['trespassers'].shape[0]):
        s['trespassers'][i] = 0


@rules_jit
def assassin_result(S, b, f, key):
    """Force f's assassin brought ``key`` (tables ``assassin_dp`` index 0..4:
    captured scouting -4, killed scouting -2, an assassination +3, captured
    getting away -5, killed getting away -3): Diplomacy Points lost or gained
    next game-turn (L932-L947) -- in a scenario with the diplomacy rules,
    where the penalties are usual (L271: 18.5 waives them)."""
    s = S[b]
    if SCENARIO_DIPLOMACY[int(s['scenario'])]:
        s['dp_next'][f] += ASSASSIN_DP_BY_KEY[key]


ASSASSIN_DP_BY_KEY = np.array([DATA.tables.assassin_dp[k] for k in (
    "scouting_captured", "scouting_killed", "assassination_success", "getaway_captured", "getaway_killed")], np.int16)
SCOUT_CAPTURED, SCOUT_KILLED, ASSASSINATED_DP, GETAWAY_CAPTURED, GETAWAY_KILLED = range(5)
"""``assassin_result`` keys: the rows of the Scouting, Assassination and
Getaway Tables that move Diplomacy Points (L932-L947)."""


@rules_jit
def keeps_to_territory(S, b, u, g):
    """Unit u, of a Major Independent allied in this player-turn, may not step
    into hex g outside that Major's territory: "A major independent's units
    cannot be moved outside their territory in the first movement phase after
    they are allied" (L985). The Dragonewts and Androgeus are the exceptions
    (L985, L800); the Black Dragon's own rule is this one (L768)."""
    s = S[b]
    k = int(U_FACTION[u])
    if k < 0 or k >= NUM_MAJORS or k == DRAGONEWTS or k == ANDROGEUS_FACTION:
        return False
    return s['allied_turn'][k] == s['player_turn'] and s['player_turn'] > 0 and HEX_MAJOR[g] != k
FORCE_MARCH_MP2 = 6
"""Force march: the first 3 MPs a unit spends entering the board do not count (L474)."""
FORTRESS_HEX = np.array([f.hex for f in MAP.fortresses], np.int16)
FORTRESS_SARTAR = np.array([f.nation == "sartar" for f in MAP.fortresses], np.int8)
"""The Sartar fortresses (seven, L217) among ``board.FORTRESS_NAMES``."""
BOLDHOME = list(f.name for f in MAP.fortresses).index("Boldhome")
FORTRESS_START = np.array([[FORCES.index(f.start_owner[sid]) if f.start_owner[sid] else NEUTRAL for sid in SCENARIOS]
                           for f in MAP.fortresses], np.int8)
"""FORTRESS_START[f, scenario]: who controls fortress f at the start (L217, L232, L248), NEUTRAL: no one."""

ATTACK = T.attack.astype(np.int16)
"""ATTACK[total, roll]: the CF (or MgF) loss of the Attack Table (L1052-L1080), total 1..60."""
ATTACK_MAX = T.attack_max_total
ATTACK_BEYOND_NUM = np.array([f.numerator for f in T.attack_beyond], np.int64)
ATTACK_BEYOND_DEN = np.array([f.denominator for f in T.attack_beyond], np.int64)
MISSILE = T.missile.astype(np.int8)
"""MISSILE[roll, total]: the Missile Fire Table's result code (``tables.missile_codes`` index), total 0..20."""
MISSILE_DISRUPT = np.array([T.missile_results[c].disrupted for c in T.missile_codes], np.int8)
MISSILE_ELIMINATE = np.array([T.missile_results[c].eliminated for c in T.missile_codes], np.int8)
MISSILE_OR_ELIMINATE = np.array([T.missile_results[c].or_eliminated or 0 for c in T.missile_codes], np.int8)
MISSILE_MAX_TOTAL = MISSILE.shape[1] - 1
MISSILE_ROLL_LO, MISSILE_ROLL_HI = T.missile_roll
MOD_DRAGON = T.missile_unit_modifiers["dragon"]
MOD_SMALL = T.missile_unit_modifiers["small_targets"]
MOD_LARGE = T.missile_unit_modifiers["large_targets"]
FIGHTING_MAJORS = T.melee["fighting_majors"]
STRUCTURE_UNITS = T.melee["structure_units"]
EXTENDED_ADVANCE_MF = T.melee["extended_advance_mf"]
COVER_DIVISOR = T.melee["covering_fraction"].denominator
ESCAPE_HERO = T.heroic_escape["hero"]
ESCAPE_SUPERHERO = T.heroic_escape["superhero"]

# ================================================================ the action space
A_HEX = 0                          # a hex (board index): deploy, select, step, battle, retreat, advance
A_UNIT = A_HEX + NUM_HEXES         # a unit: join the group, lift in a stack, a casualty, retreat, advance
A_CHOICE = A_UNIT + NUM_UNITS      # CH_*
CH_DONE, CH_ARRANGE, CH_DISRUPT_TWO, CH_ELIMINATE_ONE, CH_FORCE_MARCH = range(5)
CH_MOON = 5                        # CH_MOON + k: the Red Moon's phase k (moon.MOON_PHASE_IDS) is chosen
CH_STORM = CH_MOON + len(T.moon_phases)   # the Stormwalkers' Type 2 storm: rain, rain, flood (L688)
CH_REVEAL = CH_STORM + 1           # reveal the Crimson Bat's (Argrath's) location, with screening (L666, L668)
CH_FREEZE = CH_REVEAL + 1           # Ironhoof freezes every cavalry unit for the game-turn (L782)
CH_QUAKE_1 = CH_FREEZE + 1          # the Earth-Shaker's Cult: a Type 1 earthquake, one fracture line of 8 (L720)
CH_QUAKE_2 = CH_FREEZE + 2          # a Type 2 earthquake, two fracture lines of 5 (L720)
CH_DRAGON_STACK = CH_QUAKE_2 + 1    # a dragonfight eliminates the non-superhero units of the stack (L845)
CH_NEGATE = CH_QUAKE_2 + 2          # a dragon starts (or stops) negating the Glowline and Glowspot within 1 hex (L851)
CH_SPEED = CH_NEGATE + 1            # eliminate the Spirit of Movement: every MF of its owner doubled this phase (L898)
CH_ALCHEMY_MGF = CH_SPEED + 1       # the Alchemical Transformer doubles the chosen unit's MgF (L857)
CH_ALCHEMY_RF = CH_SPEED + 2        # ... its RF (L857)
ASSIGN_AMOUNTS = np.array([1, 5, 10], np.int16)
"""The Diplomacy Points one assigning decision gives a Major Independent (L979)."""
CH_ASSIGN = CH_ALCHEMY_RF + 1       # CH_ASSIGN + j * 7 + k: assign ASSIGN_AMOUNTS[j] DP to Major k (L979)
CH_SEEK = CH_ASSIGN + 3 * 7         # CH_SEEK + k: seek Major k's alliance, calling out one's DP (L979)
CH_RESERVE = CH_SEEK + 7            # the unit being deployed joins the South Soldier Reserve (L297)
CH_BID = CH_RESERVE + 1             # CH_BID + j: offer ASSIGN_AMOUNTS[j] more DP for the Dragonewts (event 12, L958)
CH_FETCH_JACK = CH_BID + 3          # the dragon moving alone leaves by the West map edge to fetch Hungry Jack (L870)
NUM_CHOICES = CH_FETCH_JACK + 1
NUM_ACTIONS = A_CHOICE + NUM_CHOICES

# decisions (``phase``): what the actions mean
PH_NONE = 0
PH_DEPLOY = 1          # A_HEX + h: where the next unit of the deploying force goes (L206-L242)
PH_MOVE = 2            # A_HEX + h: select the stack at h to move or arrange / A_UNIT + u: bring
                       # entering unit u onto the board (L474), or summon Dragontooth Runner u to
                       # Argrath (L684) / CH_DONE: end the phase
PH_MOVE_GROUP = 3      # A_UNIT + u: u joins the group (before its first step); A_HEX + g: the group
                       # steps into neighbour g; CH_ARRANGE: arrange this stack; CH_DONE: the group stops
PH_ARRANGE = 4         # A_UNIT + u: put u on top of the stack at arr_hex / CH_DONE (L450)
PH_BATTLE = 5          # A_HEX + h: the defending stack of a new battle / CH_DONE: no more battles (L582)
PH_BATTLE_ADD = 6      # A_HEX + h: another attacking or defending stack / CH_DONE: fight it
PH_MISSILE_TARGET = 7  # A_HEX + h: the stack unit ``cursor`` fires on (L564-L565)
PH_MISSILE_CHOICE = 8  # CH_DISRUPT_TWO / CH_ELIMINATE_ONE: how a 2DD is taken (L1131)
PH_MISSILE_CASUALTY = 9  # A_UNIT + u: the next missile casualty (L567)
PH_RETREAT = 10        # A_UNIT + u: a defending unit to retreat / CH_DONE (L575-L578)
PH_RETREAT_HEX = 11    # A_HEX + h: where unit ``cursor`` retreats to
PH_CASUALTY = 12       # A_UNIT + u: the next melee casualty, the top of an involved stack (L586)
PH_ADVANCE = 13        # A_UNIT + u: an attacking unit to advance / CH_DONE (L600)
PH_ADVANCE_HEX = 14    # A_HEX + h: the vacated hex unit ``adv_unit`` advances into
PH_ADVANCE_EXT = 15    # A_HEX + h: its extended advance / CH_DONE: it stays (L600)
PH_ESCAPE_HEX = 16     # A_HEX + h: the stack an escaped hero rejoins (L642)
PH_SCAPEGOAT = 17      # A_UNIT + u: the scapegoat of the superhero ``cursor`` (L654)
PH_ENTER_HEX = 18      # A_HEX + h: the edge hex entering unit ``cursor`` comes in by (L474)
PH_FORCE_MARCH = 19    # CH_FORCE_MARCH: it force marches on / CH_DONE: it enters at its MF (L474)
PH_MOON = 20           # CH_MOON + k: the phase of the Red Moon, before any unit deploys (L263, L271)
PH_COMMIT = 21         # A_UNIT + u: a spirit or agent to commit (its target next) / CH_DONE (L496)
PH_COMMIT_HEX = 22     # A_HEX + h: the inactive stack spirit or agent ``cursor`` is committed to (L496)
PH_SAVE = 23           # A_UNIT + u: a unit superhero ``cursor``'s magic invulnerability covers (L650)
PH_MAGIC_CASUALTY = 24  # A_UNIT + u: the next casualty of chaotic, physical or spirit magic (L518-L554)
PH_SUPPORT = 25        # A_UNIT + u: a spirit to give magical support (its stack next) / CH_DONE (L604)
PH_SUPPORT_HEX = 26    # A_HEX + h: the own stack spirit ``cursor`` supports (L604)
PH_EXOTIC = 27         # A_UNIT + u: use u's exotic ability (its target next, L672-L712) / CH_DONE
PH_EXOTIC_TARGET = 28  # A_HEX + h / A_UNIT + v / CH_STORM: where or whom unit ``cursor``'s ability strikes
PH_SUMMON_HEX = 30     # A_HEX + h: where Argrath summons the Dragontooth Runner ``cursor`` (L684)
PH_ASSASSIN = 31       # A_UNIT + u: the unit of the scouted stack the assassin ``cursor`` tries to kill /
                       # CH_DONE: take the assassin back (L924)
PH_HUNGER = 29         # A_UNIT + u (or, with screening, A_HEX + h: its top unit): a Lunar unit eliminated
                       # for the hungry Bat's spirit, chosen by its enemy (L700)
PH_REVEAL = 32         # CH_REVEAL: reveal the location of the unit whose effect would change the battle's
                       # cyclic values (the Bat's Glowspot, Argrath's resistance) / CH_DONE: keep it hidden
PH_FREEZE = 33         # CH_FREEZE: Ironhoof freezes the cavalry this game-turn / CH_DONE: not now (L782)
PH_FRACTURE = 37       # A_HEX + h: the next hex of the earthquake's fracture line (L720; rules/quake.py)
PH_PILLAR = 38         # A_HEX + h: the next hex of Cragspider's Pillar of Fire, a triangle of 3 hexes
                       # (L764; rules/pillar.py)
PH_DIPLOMACY = 40      # CH_ASSIGN + j * 7 + k: assign DP to Major k, in secret / CH_DONE (L979; rules/alliance.py)
PH_REPLACE = 41        # A_UNIT + u: dead unit u comes back as a replacement in the capital / CH_DONE (L299)
PH_ALLIANCE = 42       # CH_SEEK + k: seek Major k's alliance / A_UNIT + u: u goes as an emissary to the
                       # Minor Independent where it stands / CH_DONE: the Alliance Phase ends (L979, L983, L993)
PH_ALLY_SETUP = 43     # A_HEX + h: where the new ally's unit ``cursor`` is set up in its territory (L985)
PH_KEENER = 44         # A_HEX + h: the stack of his that Keener Than joins, for the player opposing
                       # Sir Ethilrist's ally (L756)
PH_SACRIFICE = 45      # A_UNIT + m: the magician who sacrifices unit ``cursor`` to the Tusk Riders (L906)
PH_AUCTION = 46        # CH_BID + j: offer more DP for the Dragonewts, in secret / CH_DONE: the offer is
                       # written (random event 12, L958; rules/alliance.py)
PH_DRAGONFIGHT = 50    # a dragonfight against a stack with superheroes (L845; rules/dragons.py): A_UNIT + g:
                       # eliminate superhero g of it / CH_DRAGON_STACK: eliminate all its non-superhero units
PH_JACK = 51           # Hungry Jack's controller summons active units at the start of their movement phase
                       # (L872; rules/dragons.py): A_UNIT + v: summon unit v / CH_DONE: no more
PH_JACK_AID = 52       # before that, his magicians stacked with him aid him (L872): A_UNIT + m: magician m
                       # aids him (one more unit summoned; no magic that game-turn) / CH_DONE: no more
PH_ZOMBIE_RISE = 55    # A_HEX + h: where Delecti's controller places the new zombie raised by a unit
                       # eliminated beside Delecti or a zombie (L821; rules/zombies.py)
PH_ZOMBIE_MARCH = 56   # A_HEX + h: the next hex the leading zombie steps into, the chain following along
                       # its path (L823) / CH_DONE: the chain's move ends (rules/zombies.py)
PH_SPEED = 60          # CH_SPEED: the Spirit of Movement's owner eliminates it at the start of his movement
                       # phase to double the movement of all his units for the phase / CH_DONE: not now
                       # (L898; rules/minors.py)
PH_ALCHEMY = 61        # A_UNIT + u: the unit stacked with it whose MgF or RF the Alchemical Transformer doubles
                       # until its owner's next movement phase (its factor next) / CH_DONE: no one (L857)
PH_ALCHEMY_FACTOR = 62  # CH_ALCHEMY_MGF / CH_ALCHEMY_RF: which factor of unit ``alchemy_unit`` is doubled (L857)
PH_PUPPET_DODGE = 65   # A_UNIT + v: the Puppeteer Troop, in the battle about to be fought, switches places with
                       # Illusory Army v (not in that battle) to avoid it / CH_DONE: it fights (L890; rules/puppeteers.py)
PH_HYDRA_FEED = 66     # A_UNIT + u: allied unit u within 1 hex is fed to the hungry Hydra (L880), at the start of
                       # its side's movement phase / CH_DONE: no more now (rules/hydra.py)
PH_EVENT_REMOVE = 70   # A_UNIT + u: the Lunar unit removed by random event 32 or 33, one with a clear path
                       # to the event's board edges (L970-L971; rules/events.py)
PH_EVENT_REPLACE = 71  # A_UNIT + u: the lost Sartar infantry or cavalry unit the South Soldiers replace,
                       # to enter by the south edge east of Stone Cross / CH_DONE: no more (L972)
PH_GIANT_STEP = 72     # A_HEX + g: the giant ``cursor`` steps into neighbour g / CH_DONE: it stops
                       # (the Random Movement Phase, the active player deciding, L490, L918; rules/giants.py)
PH_PURCHASE = 75       # A_UNIT + u: buy Lunar or Sartar infantry or cavalry unit u, dead or removed from play, as
                       # a replacement for its CF in DP (twice its CF for cavalry), to enter by its edge / CH_DONE:
                       # buy no more this game-turn (18.9's Diplomacy Segment, L323, L981; rules/marathon.py)
LAST_PHASE = PH_PURCHASE

NO_HEX = -1


# ================================================================ decisions and dice
@rules_jit
def pose(S, b, phase, player):
    """Ask seat ``player`` for a decision of kind ``phase``; always returns True."""
    s = S[b]
    s['phase'] = phase
    s['to_play'] = player
    return True


@rules_jit
def d6(S, b):
    """One six-sided die, 1..6."""
    return roll(S, b, 6) + 1


# ================================================================ stacks
@rules_jit
def in_list(arr, h):
    """Hex (or unit) h is among the entries of ``arr`` (a battle's stacks, -1 padded)."""
    for k in range(arr.shape[0]):
        if arr[k] == h:
            return True
    return False


@rules_jit
def units_end(S, b):
    """One past the last counter this game can bring into play (``units_end``,
    ``setup.SCENARIO_UNITS_END``): the rules' loops over the counters stop there."""
    return int(S[b]['units_end'])


@rules_jit
def frozen(S, b, u):
    """Unit u cannot move, retreat or advance, nor enter the board now: it is
    cavalry (L786, ``U_CAVALRY``: herds too) and Ironhoof froze the cavalry
    this game-turn (L782); or an Illusory Army, which never moves (L888,
    L890); or the Hydra while it is still to be fed (L880)."""
    s = S[b]
    if IS_ILLUSION[u] or (u == HYDRA and s['hydra_hunger'] > 0):
        return True
    return U_CAVALRY[u] != 0 and s['freeze_turn'] > 0 and s['freeze_turn'] == s['turn']


@rules_jit
def mgf_of(S, b, u):
    """Unit u's MgF on the side up as printed, but the Hydra's: the chaotic MgF
    rolled when it allied (``hydra_mgf``, L880; 0 before)."""
    if u == HYDRA:
        return int(S[b]['hydra_mgf'])
    return int(U_MGF[u, int(S[b]['unit_side'][u])])


@rules_jit
def remove_illusion(S, b, u):
    """Illusory Army u is removed from the board, free to be created again (L886-L890)."""
    s = S[b]
    s['unit_where'][u] = UW_OUT
    s['unit_hex'][u] = -1
    s['unit_side'][u] = SIDE_FRONT


@rules_jit
def force_of(S, b, u):
    """The force that controls unit u now (``unit_force``): its own force's
    for a counter of the Battalia (``U_FORCE``, the force its formation
    belongs to); the Independents' counters will take their ally's."""
    return int(S[b]['unit_force'][u])


@rules_jit
def side_of(S, b, u):
    return int(S[b]['unit_side'][u])


@rules_jit
def is_disrupted(S, b, u):
    """Unit u is disrupted: its back is up and it is no superhero (whose back
    is its Berserker Rage; superheroes cannot be disrupted, L590)."""
    return S[b]['unit_side'][u] == SIDE_BACK and U_RANK[u] != RANK_SUPERHERO


@rules_jit
def put_on_top(S, b, u, h):
    """Unit u goes to hex h, on top of the stack there."""
    s = S[b]
    s['unit_hex'][u] = h
    s['unit_where'][u] = UW_MAP
    s['unit_order'][u] = s['order_clock']
    s['order_clock'] += 1


@rules_jit
def stack_at(S, b, h, out):
    """The units at hex h, top first, into ``out``; returns how many."""
    s = S[b]
    where = s['unit_where']
    hexes = s['unit_hex']
    n = 0
    for u in range(units_end(S, b)):
        if hexes[u] == h and where[u] == UW_MAP:
            j = n
            o = s['unit_order'][u]
            while j > 0 and s['unit_order'][out[j - 1]] < o:
                out[j] = out[j - 1]
                j -= 1
            out[j] = u
            n += 1
    return n


@rules_jit
def is_dragon(u):
    """Unit u is a dragon (its CF '=', L397, L843)."""
    return (U_TAGS[u] & TAG_DRAGON) != 0


@rules_jit
def dragon_at(S, b, h):
    """A dragon is in the stack at hex h (L847, L849)."""
    if h < 0:
        return False
    s = S[b]
    for k in range(DRAGON_UNITS.shape[0]):
        d = DRAGON_UNITS[k]
        if d < units_end(S, b) and s['unit_where'][d] == UW_MAP and s['unit_hex'][d] == h:
            return True
    return False


@rules_jit
def dragons_only(S, b, h):
    """The stack at hex h is made of dragons alone: it never attacks, for
    dragons do not attack but by dragonfights (L847)."""
    s = S[b]
    n = 0
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h:
            if not is_dragon(u):
                return False
            n += 1
    return n > 0


@rules_jit
def hex_force(S, b, h):
    """The force whose units are at hex h, -1 if none (one owner per hex, L448);
    ``OCC_GIANTS`` for giants."""
    s = S[b]
    where = s['unit_where']
    hexes = s['unit_hex']
    for u in range(units_end(S, b)):
        if hexes[u] == h and where[u] == UW_MAP:
            f = force_of(S, b, u)
            if f >= 0:
                return f
            if U_GIANT[u]:
                return OCC_GIANTS       # giants: no player's (L918); neutral herds, dinosaurs and the
                                        # Puppeteers' pieces before an alliance hold no hex
    return -1


@rules_jit
def exerts_zoc(S, b, u):
    """A stack whose top unit is u exerts a ZOC unless u has a parenthesised CF
    or is a disembodied spirit with a blank or parenthesised RF (L460)."""
    sd = side_of(S, b, u)
    if U_SINGLE[u, sd]:
        return False
    if U_SPIRIT[u, sd] and (U_RF[u, sd] < 0 or U_RF_SPECIAL[u, sd]):
        return False
    return True


@rules_jit
def scan_board(S, b, occ, zoc):
    """occ[h] = the force at h (-1 empty, ``OCC_GIANTS`` giants); zoc[h] bit f
    set if h is in a zone of control of force f (beside a stack of f that
    exerts one, L460) -- or of giants, whose ZOC sets both players' bits."""
    s = S[b]
    # top_at[h]: the index into ``top`` of the stack at h, -1 before its first
    # unit is seen (a lookup, where a search of ``top`` cost a pass per unit)
    top_at = local_array(NUM_HEXES, np.int64)
    for h in range(NUM_HEXES):
        occ[h] = -1
        zoc[h] = 0
        top_at[h] = -1
    top = local_array(NUM_UNITS, np.int64)
    ntop = 0
    for u in range(units_end(S, b)):
        if s['unit_where'][u] != UW_MAP or holds_no_hex(S, b, u):
            continue
        h = s['unit_hex'][u]
        f = force_of(S, b, u)
        occ[h] = f if f >= 0 else OCC_GIANTS     # giants: no player's (L918)
        found = top_at[h]
        if found < 0:
            top[ntop] = u
            top_at[h] = ntop
            ntop += 1
        elif s['unit_order'][u] > s['unit_order'][top[found]]:
            top[found] = u
    for k in range(ntop):
        u = top[k]
        if not exerts_zoc(S, b, u):
            continue
        h = s['unit_hex'][u]
        f = force_of(S, b, u)
        # both players' units are inactive to the giants: their ZOC stops either (L918)
        bit = (1 << f) if f >= 0 else ALL_FORCES
        for d in range(1, 7):
            g = HEX_STEP[h, d]
            if g >= 0:
                zoc[g] |= bit


@rules_jit
def whole_board(S, b):
    """``(occ, zoc)`` of :func:`scan_board`, freshly made."""
    occ = np.empty(NUM_HEXES, np.int8)
    zoc = np.empty(NUM_HEXES, np.int8)
    scan_board(S, b, occ, zoc)
    return occ, zoc


@rules_jit
def adjacent_to_force(occ, h, f):
    """Hex h has a neighbour holding units of force f."""
    for d in range(1, 7):
        g = HEX_STEP[h, d]
        if g >= 0 and occ[g] == f:
            return True
    return False


SCENARIO_PLAYERS = np.array([len(DATA.scenarios[sid].sides) for sid in SCENARIOS], np.int8)
"""How many players each scenario has: two, three in 18.8 (L303)."""


@rules_jit
def players(S, b):
    """How many players the game has (forces 0..players - 1)."""
    return int(SCENARIO_PLAYERS[int(S[b]['scenario'])])


@rules_jit
def turn_slot(S, b):
    """The place of the current player-turn in its game-turn: 0 for the first
    player's, ``players - 1`` for the last's (L175)."""
    return (int(S[b]['player_turn']) - 1) % players(S, b)


@rules_jit
def force_playing(S, b, k):
    """The force whose player-turn is the k-th (0-based) of a game-turn: the
    first force, then the next ones in force order, wrapping round (two
    players: the first, then the other; 18.8's Tarsh, Lunar, Sartar)."""
    return (int(S[b]['first_force']) + k) % players(S, b)


@rules_jit
def foes_of(p):
    """The bit set of force p's enemies, every other player's force: one in a
    two-player scenario, two in 18.8 (L303). A ZOC bit set ``zoc[h] & foes``
    is an enemy zone of control; :func:`hostile` reads an occupancy code."""
    return ALL_FORCES & ~(1 << p)


@rules_jit
def hostile(o, foes):
    """Occupancy code o (a force; -1 empty, -2 off the map, ``OCC_GIANTS``)
    is one of the forces of bit set ``foes`` (giants never are: they are
    inactive to every player, L918)."""
    return 0 <= o < NUM_FORCES and (foes >> o) & 1 != 0


@rules_jit
def adjacent_to_foe(occ, h, foes):
    """Hex h has a neighbour holding units of a force of bit set ``foes``."""
    for d in range(1, 7):
        g = HEX_STEP[h, d]
        if g >= 0 and hostile(occ[g], foes):
            return True
    return False


@rules_jit
def laid_count(hexes):
    """How many of a once-a-game power's hexes are named so far (entries >= 0 of
    ``fracture_hexes`` or ``pillar_hexes``)."""
    n = 0
    for k in range(hexes.shape[0]):
        if hexes[k] >= 0:
            n += 1
    return n


@rules_jit
def spirit_power_left(S, b, u, used):
    """Magician u may still use a once-a-game power that costs its spirit (the
    earthquake, L720; the Pillar of Fire, L764): ``used`` not set, u on the map
    with an RF, its spirit neither eliminated nor out of play."""
    s = S[b]
    sp = U_BOUND[u]
    if used or s['unit_where'][u] != UW_MAP or sp < 0:
        return False
    if s['unit_where'][sp] == UW_DEAD or s['unit_where'][sp] == UW_OUT:
        return False
    return rf_of(S, b, u) >= 0


@rules_jit
def riding(S, b, u):
    """Unit u rides the Hound: both on the map in one hex, u Ethilrist (L754;
    Interpretations 80), or Keener Than in the player-turn he must release
    the Hound he took (L756; Interpretations 82)."""
    s = S[b]
    rider = u == ETHILRIST or (u == KEENER_THAN and s['keener_turn'] > 0 and s['keener_turn'] == s['player_turn'])
    return rider and s['unit_where'][u] == UW_MAP and s['unit_where'][HELL_HOUND] == UW_MAP \
        and s['unit_hex'][u] == s['unit_hex'][HELL_HOUND]


@rules_jit
def mf_of(S, b, u):
    """Unit u's MF now: its counter's, but 10 for Ethilrist (or Keener Than) on
    the Hound (L754, L756), and 2 for the Spirit of Movement by itself (its
    printed x2, L896; stacked, rules/minors.py::speed_group)."""
    if riding(S, b, u):
        return RIDING_MF
    if u == SPIRIT_OF_MOVEMENT:
        return SPIRIT_OF_MOVEMENT_MF
    return int(U_MF[u, side_of(S, b, u)])


@rules_jit
def movement_allowance(S, b, u):
    """The half movement points unit u starts a movement phase with: its MF
    (L456) if it is the active player's, none if Ironhoof froze it (L782) or
    the Cloak's cloud holds it (L752). Used by ``movement.start_movement`` and
    for units that come into play before their side's movement (an ally's,
    L985; a dragon, L841)."""
    if force_of(S, b, u) != S[b]['active'] or frozen(S, b, u) or clouded(S, b, u):
        return 0
    return first_turn_mp(S, b, u, 2 * mf_of(S, b, u))


@rules_jit
def half_movement(S, b, u):
    """Unit u moves at half-normal movement now: in 18.9 the first moving
    player's units in game-turn 1 (L319; Interpretations 153)."""
    s = S[b]
    return s['scenario'] == SC_18_9 and s['turn'] == 1 and force_of(S, b, u) == s['first_force'] \
        and s['first_force'] == s['active']


@rules_jit
def first_turn_mp(S, b, u, mp):
    """The half movement points ``mp`` unit u would have, halved when it moves
    at half-normal movement (``half_movement``): the core counts half MPs,
    so 2 x MF halves exactly to MF half MPs (Interpretations 153)."""
    if half_movement(S, b, u):
        return mp // 2
    return mp


@rules_jit
def phase_mf(S, b, u):
    """Unit u's MF for this movement phase: ``mf_of``, doubled for the active
    player's units when he eliminated the Spirit of Movement at its start (L898)."""
    s = S[b]
    mf = mf_of(S, b, u)
    if s['sm_doubled'] != 0 and force_of(S, b, u) == s['active']:
        return 2 * mf
    return mf


@rules_jit
def heroic_now(S, b, u):
    """Unit u moves by its heroic MF now (1 MP a hex at most, L417): not
    Ethilrist while he rides the Hound (L754)."""
    return U_HEROIC[u, side_of(S, b, u)] != 0 and not riding(S, b, u)


@rules_jit
def in_cloud(S, b, h):
    """Hex h is in the Cloak of Darkness's cloud: within 10 of the Cloak while it lasts (L752)."""
    c = S[b]['cloak_hex']
    return c >= 0 and distance(h, c) <= CLOAK_RANGE


@rules_jit
def cloud_free(u):
    """Unit u is unaffected by the cloud (L752): Ethilrist, the Hound, the Black
    Horse units, physical spirits (read: magicians' spirits and agents) and
    disembodied spirits, dragons and superheroes (Interpretations 81)."""
    return u == ETHILRIST or u == HELL_HOUND or U_BLACK_HORSE[u] != 0 or U_MAGICIAN[u] >= 0 \
        or U_DISEMBODIED[u, 0] != 0 or U_DISEMBODIED[u, 1] != 0 or (U_TAGS[u] & TAG_DRAGON) != 0 \
        or U_RANK[u] == RANK_SUPERHERO    # not the Twin Stars: they move like a normal unit (L636; Interpretations 170)


@rules_jit
def clouded(S, b, u):
    """Unit u stands in the cloud and is held by it: it cannot move (L752)."""
    s = S[b]
    return s['unit_where'][u] == UW_MAP and not cloud_free(u) and in_cloud(S, b, s['unit_hex'][u])


@rules_jit
def enter_cost(S, b, u, g):
    """Half MPs unit u pays to enter edge hex g from off the board: the usual
    cost of entering the hex (L474; no road, river or ridge is crossed), -1 if
    it cannot (a lake without the Water or Air Rune)."""
    s = S[b]
    rune = int(U_RUNE[u])
    if HEX_TERRAIN[g] == TERRAIN_LAKE and rune != RUNE_WATER and rune != RUNE_AIR:
        return -1
    cost = ground_cost(S, b, u, g, rune)
    if s['rain']:
        cost += 2
    if heroic_now(S, b, u) and cost > 2:
        cost = 2
    return cost


@rules_jit
def ground_cost(S, b, u, g, rune):
    """Half MPs unit u pays for hex g's own terrain or structure (off a road,
    before rain): ``HEX_ENTER2``, but 1 MP for the Tusk Riders on hill, forest
    and hill/forest ground, ruined hills included (L484, L910)."""
    gg = ground(S, b, g)
    cost = int(HEX_ENTER2[gg, rune])
    ter = HEX_TERRAIN[gg]
    if U_TUSK_RIDER[u] != 0 and (ter == TERRAIN_HILL or ter == TERRAIN_FOREST or ter == TERRAIN_HILL_FOREST) \
            and cost > 2:
        cost = 2
    return cost


@rules_jit
def step_cost(S, b, u, h, d):
    """Half MPs unit u pays to step from h in direction d, -1 if it cannot.

    Along a road the hex entered costs nothing of its own (L456): ½ MP on a
    primary road, 1 MP on a secondary one with every third hex in a row free
    (L364; ``unit_road`` counts the row). Off a road, the hex's terrain or
    structure (L335-L355), +1 MP in rain (L466). Leaving a river hex other than
    a ford or headwaters, not along the river (into another river hex or the
    Upland Marsh, L468), is +1 MP; climbing a ridge +1 MP (L470); the Water
    and Stone Runes waive them (L421-L423). A heroic MF pays 1 MP a hex at most
    (L417). A lake is entered only with the Water or Air Rune (L372). In 18.5
    no unit enters Independents territory (L271).
    """
    s = S[b]
    g = HEX_STEP[h, d]
    if g < 0 or shut(S, b, g) or keeps_to_territory(S, b, u, g):
        return -1
    rune = int(U_RUNE[u])
    if HEX_TERRAIN[g] == TERRAIN_LAKE and rune != RUNE_WATER and rune != RUNE_AIR:
        return -1
    road = SIDE_ROAD[h, d]
    if U_TUSK_RIDER[u] != 0:
        road = 0          # the Tusk Riders receive no road benefits (L484, L910)
    if road & ROAD_PRIMARY:
        cost = 1
    elif road & ROAD_SECONDARY:
        cost = 0 if s['unit_road'][u] >= 2 else 2
    else:
        cost = ground_cost(S, b, u, g, rune)
        if s['rain']:
            cost += 2
    if HEX_RIVER[h] and not HEX_FORD[h] and not HEX_RIVER[g] and not HEX_UPLAND_MARSH[g] \
            and rune != RUNE_WATER:
        cost += 2
    if SIDE_RIDGE[h, d] == 1 and rune != RUNE_STONE:
        cost += 2
    if heroic_now(S, b, u) and cost > 2:
        cost = 2
    return cost


@rules_jit
def attack_loss(total, die):
    """The Attack Table's loss for a CF (or MgF) total and a die roll; the roll
    is clamped to 1..6 and a total beyond 60 takes its printed fraction,
    fractions dropped (L1082-L1093)."""
    r = die
    if r < 1:
        r = 1
    if r > 6:
        r = 6
    if total <= 0:
        return 0
    if total <= ATTACK_MAX:
        return int(ATTACK[total, r])
    return int(total * ATTACK_BEYOND_NUM[r - 1] // ATTACK_BEYOND_DEN[r - 1])


SITE_HEX = np.array([MAP.hex_index(h) for h in ("1229", "1921", "1927")], np.int16)
"""The sites a victory condition names that are not fortresses (state
``site_owner``): Rich Post, Wintertop and Wild Temple (L293)."""
assert len(SITE_HEX) == NUM_SITES
HEX_SITE = np.full(NUM_HEXES, -1, np.int8)
for _k, _h in enumerate(SITE_HEX):
    HEX_SITE[_h] = _k
VICTORY_18_6 = np.array([MAP.hex_index(h) for h in ("1406", "0612", "1229", "1921", "1927")], np.int16)
"""18.6: the Lunar player wins controlling Bagnot, Dunstop, Rich Post,
Wintertop and Wild Temple (L293)."""


@rules_jit
def controller(S, b, h):
    """The force controlling hex h, a fortress or a SITE_HEX site (-1: no one)."""
    s = S[b]
    if HEX_FORTRESS[h] >= 0:
        return int(s['fortress_owner'][HEX_FORTRESS[h]])
    return int(s['site_owner'][HEX_SITE[h]])


@rules_jit
def occupy(S, b, f, h):
    """Units of force f enter hex h: a fortress or a victory site there comes
    under f's control (Interpretations: control passes to the last force to
    enter it); an
    enemy of the Lunars in the Temple of the Reaching Moon desecrates it, and
    the Glowline ceases for the rest of the game (L143, L662). A Dragonewt
    City remembers every force that ever entered it: the dragonewts of the
    other force no longer resurrect there (L742, ``turns.resurrect``)."""
    fo = HEX_FORTRESS[h]
    if HEX_CITY[h] >= 0 and f >= 0:
        S[b]['city_entered'][HEX_CITY[h]] |= 1 << f
    if fo >= 0:
        S[b]['fortress_owner'][fo] = f
    if HEX_SITE[h] >= 0:
        S[b]['site_owner'][HEX_SITE[h]] = f
    if h == TEMPLE_OF_THE_REACHING_MOON and f != LUNAR:
        S[b]['glowline_gone'] = 1


@rules_jit
def killed(S, b, u):
    """Unit u goes to the dead pile for good (no heroic escape, or a failed
    one). Cragspider killed takes her Black Dragon with her (L768) -- when it
    is in play: one out of the game stays out. Her Dark Trolls and Trollkin
    stay in play (L766)."""
    s = S[b]
    if U_REPLACEABLE[u] >= 0 and s['unit_where'][u] != UW_DEAD:
        # his infantry and cavalry dead piles, which replacements are counted from (L299)
        s['dead_count'][int(U_FORCE[u]), int(U_REPLACEABLE[u])] += 1
    s['unit_where'][u] = UW_DEAD
    s['unit_hex'][u] = -1
    d = BLACK_DRAGON
    if u == CRAGSPIDER and s['unit_where'][d] != UW_OUT and s['unit_where'][d] != UW_DEAD:
        s['unit_where'][d] = UW_DEAD
        s['unit_hex'][d] = -1
        s['unit_flags'][d] = 0
        s['unit_entry'][d] = -1
        if s['jack_fetcher'] == d + 1:
            s['jack_fetcher'] = 0         # gone for Hungry Jack, it fetches no one (L870, fetch.py)
            s['jack_back_turn'] = 0


@rules_jit
def eliminate(S, b, u):
    """Unit u is eliminated (L588): to the dead pile, or, for a hero or
    superhero, aside to roll a heroic escape in the rally phase (L642).
    A superhero whose best friend this is will pick a scapegoat at the end
    of the battle (L654). A hero or superhero scapegoat eliminated in a battle
    of its avenging superhero makes no heroic escape, and the rage passes;
    killed by anyone else it may escape, and stays the scapegoat while it
    tries (L656, L1018; ``turns.rally_phase``)."""
    s = S[b]
    zombie_raised_by(S, b, u)         # a major unit falling beside Delecti or a zombie rises as one (L821)
    avenged = False
    for v in range(units_end(S, b)):
        if s['unit_scapegoat'][v] == u and s['unit_where'][v] == UW_MAP:
            hv = s['unit_hex'][v]
            for k in range(s['bat_att'].shape[0]):
                if s['bat_att'][k] == hv or s['bat_def'][k] == hv:
                    avenged = True
    if U_RANK[u] != RANK_NONE and not avenged:
        s['unit_where'][u] = UW_ESCAPING
        s['unit_dead_hex'][u] = s['unit_hex'][u]
    else:
        killed(S, b, u)
    s['unit_hex'][u] = -1
    s['unit_flags'][u] = 0
    if u == CRIMSON_BAT:
        bat_starves(S, b)
    if u == ETHILRIST and s['unit_where'][HELL_HOUND] == UW_MAP and \
            (s['stage'] == ST_COMBAT or s['stage'] == ST_EXOTIC):
        # the Hound runs wild (L754): run by the sequence of play (ethilrist.run_wild)
        s['doom_pending'] = 1
    for v in range(units_end(S, b)):
        if best_friend(S, b, v) == u and (s['unit_where'][v] == UW_MAP or s['unit_where'][v] == UW_ESCAPING):
            s['unit_flags'][v] |= UF_FRIEND_FELL
        if s['unit_scapegoat'][v] == u and s['unit_where'][u] == UW_DEAD:
            end_rage(S, b, v)


@rules_jit
def end_rage(S, b, v):
    """Superhero v's berserker rage passes: its scapegoat avenged, or its best
    friend back by a heroic escape (L656, L658)."""
    s = S[b]
    s['unit_scapegoat'][v] = -1
    s['unit_side'][v] = SIDE_FRONT


@rules_jit
def berserk(S, b, v):
    """Superhero v is in a berserker rage with a scapegoat on the map (L656)."""
    s = S[b]
    g = s['unit_scapegoat'][v]
    return U_RANK[v] == RANK_SUPERHERO and g >= 0 and s['unit_side'][v] == SIDE_BACK \
        and s['unit_where'][v] == UW_MAP and s['unit_where'][g] == UW_MAP


@rules_jit
def disrupt(S, b, u):
    """Unit u suffers a disruption result: turned to its back (L590), or
    eliminated if already disrupted. Superheroes cannot be disrupted (L590)."""
    s = S[b]
    if U_RANK[u] == RANK_SUPERHERO:
        return
    if ZOMBIE_1 <= u < ZOMBIE_1 + NUM_ZOMBIES:
        zombie_disrupted(S, b, u)     # it and the zombies that follow it are eliminated (L825)
        return
    if IS_ILLUSION[u]:
        remove_illusion(S, b, u)      # a disrupted Illusory Army is removed; it can be recreated (L890)
        return
    if s['unit_side'][u] == SIDE_BACK:
        if U_HERD[u]:
            stampede(S, b, u)         # a disrupted herd disrupted again stampedes (L590)
        else:
            eliminate(S, b, u)
    else:
        s['unit_side'][u] = SIDE_BACK
        s['unit_disrupted_at'][u] = s['player_turn']


# ================================================================ herds (L478-L480, L586-L594)
ORIGIN_HOME = 0
"""``unit_origin``: the unit is with its original owner, or neutral and
originally neutral (no original owner, L592)."""
ORIGIN_NEUTRAL = 1
"""``unit_origin``: a captured unit that was originally neutral."""
ORIGIN_OF = 2
"""``unit_origin`` = ORIGIN_OF + f: originally force f's, now not f's (neutral
after a stampede, or captured by the other force)."""


@rules_jit
def captured(S, b, u):
    """Unit u is a captured unit (L592): a player controls it, and it is not
    its original owner's."""
    s = S[b]
    return s['unit_force'][u] >= 0 and s['unit_origin'][u] != ORIGIN_HOME


@rules_jit
def turn_neutral(S, b, u):
    """Unit u becomes neutral (``unit_force`` -1); ``unit_origin`` keeps who
    originally owned it, so that he recaptures it (L592)."""
    s = S[b]
    f = int(s['unit_force'][u])
    o = int(s['unit_origin'][u])
    if f >= 0:
        if o == ORIGIN_HOME:
            s['unit_origin'][u] = ORIGIN_OF + f
        elif o == ORIGIN_NEUTRAL:
            s['unit_origin'][u] = ORIGIN_HOME
    s['unit_force'][u] = NEUTRAL


@rules_jit
def capture(S, b, u, f):
    """Force f captures unit u (a herd, L586, L592, L600). Its original owner
    recapturing it makes it no longer a captured unit (L592)."""
    s = S[b]
    f0 = int(s['unit_force'][u])
    if f0 == f:
        return
    o = int(s['unit_origin'][u])
    if o == ORIGIN_HOME:
        s['unit_origin'][u] = ORIGIN_NEUTRAL if f0 < 0 else ORIGIN_OF + f0
    elif o == ORIGIN_OF + f:
        s['unit_origin'][u] = ORIGIN_HOME
    s['unit_force'][u] = f


@rules_jit
def stampede(S, b, u):
    """Herd u stampedes (L480, L594): its owner rolls the die and it runs its
    full MF, one hex a point, in the compass direction of the roll (1..6 = N
    NE SE S SW NW, ``board.HEX_STEP``; Interpretations), into and through
    any units; running off the board or onto a lake (the map has no sea and
    no dead place) eliminates it. Afterwards it is neutral and disrupted; if
    it ends in a player's stack it stays neutral until the end of the phase
    (:func:`herds_settle`)."""
    s = S[b]
    d = d6(S, b)
    h = int(s['unit_hex'][u])
    turn_neutral(S, b, u)
    s['unit_flags'][u] = 0
    s['unit_mp'][u] = 0
    for _ in range(int(U_MF[u, side_of(S, b, u)])):
        g = HEX_STEP[h, d]
        if g < 0 or HEX_TERRAIN[g] == TERRAIN_LAKE:
            eliminate(S, b, u)
            return
        h = g
    put_on_top(S, b, u, h)
    s['unit_side'][u] = SIDE_BACK
    s['unit_disrupted_at'][u] = s['player_turn']


@rules_jit
def holder(S, b, h):
    """The force that holds hex h with a unit of its own that is no captured
    unit (L592), -1 if none."""
    s = S[b]
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == h and s['unit_force'][v] >= 0 \
                and not captured(S, b, v):
            return int(s['unit_force'][v])
    return -1


@rules_jit
def herds_settle(S, b):
    """The end of a phase (L592): a neutral herd stacked with a player's unit
    is captured by that player; a captured herd left in a hex without a unit
    of a player (other than captured units) becomes neutral."""
    s = S[b]
    for u in range(units_end(S, b)):
        if not U_HERD[u] or s['unit_where'][u] != UW_MAP:
            continue
        f = holder(S, b, int(s['unit_hex'][u]))
        if s['unit_force'][u] < 0:
            if f >= 0:
                capture(S, b, u, f)
        elif captured(S, b, u) and f < 0:
            turn_neutral(S, b, u)
    zombies_settle(S, b)              # Delecti with none of his zombies: they all fall (L825)
    dinosaurs_settle(S, b)        # the dinosaurs too: allied or left alone at the end of a phase (L835)


@rules_jit
def capture_herds_at(S, b, h, f):
    """An advance of force f ends on hex h: the herds there are captured, and
    neutral dinosaurs there ally with f (L600)."""
    s = S[b]
    for u in range(units_end(S, b)):
        if U_HERD[u] != 0 and s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h:
            capture(S, b, u, f)
    dinosaurs_allied_by_advance(S, b, h, f)


@rules_jit
def dinosaur_holder(S, b, h):
    """The player whose units other than dinosaurs are at hex h, -1 if none."""
    s = S[b]
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == h and not U_DINOSAUR[v]:
            f = force_of(S, b, v)
            if 0 <= f <= 1:
                return f
    return -1


@rules_jit
def ally_dinosaur(S, b, u, f):
    """Dinosaur u allies with force f; a Trachodon takes its spirit with it."""
    s = S[b]
    s['unit_force'][u] = f
    sp = U_BOUND[u]
    if sp >= 0 and s['unit_where'][sp] != UW_DEAD:
        s['unit_force'][sp] = f


@rules_jit
def dinosaurs_settle(S, b):
    """The end of a phase (``herds_settle``): a dinosaur stacked with a
    player's units allies with that player (L835: with any unit that ends a
    phase stacked with it); one left alone reverts to neutrality -- "at any
    time except during the movement phase", read at the end of every phase
    (RULES.md Interpretations 146)."""
    s = S[b]
    for k in range(U_DINOSAUR_ON_MAP.shape[0]):
        u = U_DINOSAUR_ON_MAP[k]
        if u >= units_end(S, b) or s['unit_where'][u] != UW_MAP:
            continue
        f = dinosaur_holder(S, b, int(s['unit_hex'][u]))
        if f >= 0:
            if s['unit_force'][u] != f:
                ally_dinosaur(S, b, u, f)
        elif s['unit_force'][u] >= 0:
            ally_dinosaur(S, b, u, NEUTRAL)


@rules_jit
def dinosaurs_allied_by_advance(S, b, h, f):
    """An advance after combat of force f ended on hex h: neutral dinosaurs
    there ally with f (L600)."""
    s = S[b]
    for k in range(U_DINOSAUR_ON_MAP.shape[0]):
        u = U_DINOSAUR_ON_MAP[k]
        if u < units_end(S, b) and s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h \
                and s['unit_force'][u] < 0:
            ally_dinosaur(S, b, u, f)


@rules_jit
def holds_no_hex(S, b, u):
    """Unit u is no one's and no giant: a neutral herd (L592) or dinosaur
    (L835), an Illusory Army or the Puppeteer Troop before their alliance
    (L886). It neither holds its hex nor exerts a zone of control; giants,
    no one's too, do both, against either player (L918)."""
    return S[b]['unit_force'][u] < 0 and U_GIANT[u] == 0


@rules_jit
def neutral_herd(S, b, u):
    """Unit u is a neutral herd: no one's, it neither holds its hex nor exerts a
    zone of control, and units may stack with it to capture it (L592). A
    neutral dinosaur is read the same way: any unit may end a phase stacked
    with it to ally it (L835, ``giants.dinosaurs_settle``)."""
    return (U_HERD[u] != 0 or U_DINOSAUR[u] != 0) and S[b]['unit_force'][u] < 0


@rules_jit
def rf_of(S, b, u):
    """Unit u's RF on the side up, -1 if blank or parenthesised (no magic, L427,
    L430); doubled by the Alchemical Transformer, but never a chaotic unit's
    (a negative MgF, L857)."""
    sd = int(S[b]['unit_side'][u])
    if U_RF_SPECIAL[u, sd]:
        return -1
    rf = int(U_RF[u, sd])
    if rf > 0 and U_MGF[u, sd] >= 0 and transformed(S, b, u, 1):
        return 2 * rf
    return rf


@rules_jit
def transformed(S, b, u, rf):
    """The Alchemical Transformer doubles unit u's RF (rf 1) or MgF (rf 0)
    now: u is the unit its owner named (``alchemy_unit``, ``alchemy_rf``),
    stacked with it on the map, of the same side (L857)."""
    s = S[b]
    t = ALCHEMICAL_TRANSFORMER
    return s['alchemy_unit'] == u and s['alchemy_rf'] == rf and u != t and s['unit_where'][t] == UW_MAP \
        and s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == s['unit_hex'][t] \
        and s['unit_force'][u] == s['unit_force'][t]


@rules_jit
def mgf_doubled(S, b, u):
    """Unit u's MgF is doubled by the Alchemical Transformer (L857); so, for a
    magician's spirit or physical agent u, is its CF (``moon.cf_halves``)."""
    sd = int(S[b]['unit_side'][u])
    return (U_MGF[u, sd] != 0 or U_MGF_MOON[u, sd] != 0) and U_MGF[u, sd] < INFINITE_MGF and transformed(S, b, u, 0)


def _axial_tables():
    from ..mapdata import _axial
    q = np.zeros(NUM_HEXES, np.int16)
    r = np.zeros(NUM_HEXES, np.int16)
    for h in range(NUM_HEXES):
        q[h], r[h] = _axial(MAP.ids[h])
    return q, r


HEX_Q, HEX_R = _axial_tables()
"""Axial coordinates of each hex (for distances, ``mapdata.MapData.distance``)."""


@rules_jit
def distance(a, b):
    """Hex steps between hexes a and b."""
    dq = int(HEX_Q[a]) - int(HEX_Q[b])
    dr = int(HEX_R[a]) - int(HEX_R[b])
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


@rules_jit
def local_board(S, b, h, occ7, zoc7):
    """The board around hex h, cheaply: occ7[d] the force at HEX_STEP[h, d]
    (d = 0 for h itself; -1 empty, -2 off the map) and zoc7[d] the ZOC bits
    there (bit f: in a zone of control of force f, L460). Only the stacks
    within two hexes of h can matter, so only those are looked at; the full
    board (``scan_board``) is built where a search needs it."""
    s = S[b]
    where = s['unit_where']
    hexes = s['unit_hex']
    order = s['unit_order']
    near = local_array(NUM_UNITS, np.int64)
    tops = local_array(NUM_UNITS, np.int64)
    m = 0
    for d in range(7):
        occ7[d] = -1 if d == 0 or HEX_STEP[h, d] >= 0 else -2
        zoc7[d] = 0
    for u in range(units_end(S, b)):
        if where[u] != UW_MAP:
            continue
        x = hexes[u]
        if distance(x, h) > 2 or holds_no_hex(S, b, u):      # the cheap test first: most stacks are far
            continue
        k = 0
        while k < m and near[k] != x:
            k += 1
        if k == m:
            near[m] = x
            tops[m] = u
            m += 1
        elif order[u] > order[tops[k]]:
            tops[k] = u
    for k in range(m):
        x = near[k]
        f = force_of(S, b, tops[k])
        bit = (1 << f) if f >= 0 else ALL_FORCES    # giants: every player's (L918)
        if f < 0:
            f = OCC_GIANTS
        zoc = exerts_zoc(S, b, tops[k])
        for d in range(7):
            g = h if d == 0 else HEX_STEP[h, d]
            if g < 0:
                continue
            if g == x:
                occ7[d] = f
            elif zoc and distance(x, g) == 1:
                zoc7[d] |= bit


# ================================================================ Delecti's zombies (L815-L831)
# The chain and its falls, which disruption, elimination and the end of every
# phase above call; the zombies' movement, rising and alliance: rules/zombies.py.
@rules_jit
def is_zombie(u):
    return ZOMBIE_1 <= u <= ZOMBIE_LAST


@rules_jit
def chain_ends(S, b):
    """(first, last): the lowest- and highest-numbered zombies on the map; -1, -1 if none."""
    s = S[b]
    first = -1
    last = -1
    for z in range(ZOMBIE_1, ZOMBIE_LAST + 1):
        if s['unit_where'][z] == UW_MAP:
            if first < 0:
                first = z
            last = z
    return first, last


@rules_jit
def zombies_on_board(S, b):
    s = S[b]
    n = 0
    for z in range(ZOMBIE_1, ZOMBIE_LAST + 1):
        if s['unit_where'][z] == UW_MAP:
            n += 1
    return n


@rules_jit
def chain_falls(S, b, z, step):
    """Zombie z and every zombie after it (step +1: higher numbers; -1: lower) are eliminated."""
    s = S[b]
    while ZOMBIE_1 <= z <= ZOMBIE_LAST:
        if s['unit_where'][z] == UW_MAP:
            eliminate(S, b, z)
        z += step


@rules_jit
def zombie_disrupted(S, b, z):
    """Zombie z suffers a disruption: it and all the zombies that follow it in the chain are eliminated (L825)."""
    chain_falls(S, b, z, 1)


@rules_jit
def zombies_settle(S, b):
    """The end of a phase: Delecti eliminated, or not stacked with at least one
    of his zombies -- every zombie is eliminated (L825)."""
    s = S[b]
    if zombies_on_board(S, b) == 0:
        return
    if s['unit_where'][DELECTI] == UW_MAP:
        h = s['unit_hex'][DELECTI]
        for z in range(ZOMBIE_1, ZOMBIE_LAST + 1):
            if s['unit_where'][z] == UW_MAP and s['unit_hex'][z] == h:
                return
    chain_falls(S, b, ZOMBIE_1, 1)


@rules_jit
def raises_zombie(S, b, u):
    """Unit u, if eliminated beside Delecti or a zombie, raises a new one: a
    major unit (L127) other than a dragon, a giant or a zombie (L821)."""
    return U_MAJOR[u, side_of(S, b, u)] != 0 and (U_TAGS[u] & TAG_DRAGON) == 0 and U_GIANT[u] == 0 \
        and not is_zombie(u)


@rules_jit
def zombie_raised_by(S, b, u):
    """Unit u is being eliminated (``base.eliminate``, before it leaves its
    hex): in a combat phase, a major unit in or beside the hex of an allied
    Delecti or of a zombie owes Delecti's controller a new zombie (L821;
    Interpretations 110, 111)."""
    s = S[b]
    if s['stage'] != ST_COMBAT or s['unit_where'][u] != UW_MAP or force_of(S, b, DELECTI) < 0 \
            or not raises_zombie(S, b, u):
        return
    h = s['unit_hex'][u]
    for v in range(DELECTI, ZOMBIE_LAST + 1):      # Delecti, then zombies 1..12
        if s['unit_where'][v] == UW_MAP and distance(h, s['unit_hex'][v]) <= 1:
            s['zombies_owed'] += 1
            return


# ================================================================ carrying zero-MF units; disembodied spirits (L444, L462, L464, L636)
def _moving_blank_cf():
    """The blank-CF counters that move like normal units (L444, L636): the
    Twin Stars and the Spirit of Movement ("this form of movement/attack also
    applies to The Spirit of Movement unit", L444)."""
    out = np.zeros(NUM_UNITS, np.int8)
    out[UNIT_IDS.index("twin_stars")] = 1
    out[SPIRIT_OF_MOVEMENT] = 1
    return out


U_MOVES_LIKE_A_UNIT = _moving_blank_cf()
U_DISEMBODIED = np.array([[U_SPIRIT[u, sd] != 0 and not U_MOVES_LIKE_A_UNIT[u] for sd in range(2)]
                          for u in range(NUM_UNITS)], np.int8)
"""U_DISEMBODIED[u, side]: a disembodied spirit for movement (L464, L462):
a blank CF (``U_SPIRIT``), but not the Twin Stars nor the Spirit of Movement,
which have a blank CF yet move like normal units (L444, L636; Interpretations
170). ``U_SPIRIT`` keeps its wider meaning, a blank CF: no physical attack made
or suffered (L444)."""
U_ZERO_MF = np.array([[KINDS[UNIT_KIND_OF[u]].front.mf_kind == "number" and U_MF[u, 0] == 0,
                       KINDS[UNIT_KIND_OF[u]].back.mf_kind == "number" and U_MF[u, 1] == 0]
                      for u in range(NUM_UNITS)], np.int8)
"""U_ZERO_MF[u, side]: u's counter prints an MF of 0 (L462): it cannot move
itself. Of Dragon Pass's counters, Hungry Jack and the Cloak of Darkness (a
disembodied spirit: not carried, L462, L752). A blank MF (magicians' spirits
and agents, L416) or a special one (assassins, Illusory Armies) is not 0."""


@rules_jit
def zero_mf(S, b, u):
    """Unit u cannot move itself but may be carried (L462): an MF of 0 on its
    side now, and not a disembodied spirit (they cannot move on the map)."""
    sd = side_of(S, b, u)
    return U_ZERO_MF[u, sd] != 0 and U_DISEMBODIED[u, sd] == 0


@rules_jit
def can_carry(S, b, c, u):
    """Unit c can carry zero-MF unit u (L462): c has an MF of 1 or more (its
    MF now, ``mf_of``) and is not a disembodied spirit; Hungry Jack only by a
    dragon (L462, L870)."""
    if c == u or mf_of(S, b, c) < 1 or U_DISEMBODIED[c, side_of(S, b, c)] != 0:
        return False
    if u == HUNGRY_JACK:
        return is_dragon(c)
    return True


# ================================================================ outside structures (L458, L472)
def _missile_outside():
    out = np.zeros(NUM_HEXES, np.int8)
    for h in range(NUM_HEXES):
        tid = TERRAIN_IDS[HEX_TERRAIN[h]]
        out[h] = T.terrain[tid].missile if tid != "lake" else 0
    return out


HEX_MISSILE_OUT_MOD = _missile_outside()
"""HEX_MISSILE_OUT_MOD[h]: the missile modifier of hex h's terrain alone, its
structure left out: for a stack every unit of which is outside the structure
(L458, L472; ``missile_ground_mod``)."""


@rules_jit
def outside_structure(S, b, u):
    """Unit u, on the map, is always outside its hex's structure (L458, L472):
    a neutral unit, a giant, or a herd or a dragon or a unit stacked above one."""
    s = S[b]
    if force_of(S, b, u) < 0 or U_GIANT[u] != 0:
        return True
    h = s['unit_hex'][u]
    for v in range(units_end(S, b)):
        if (U_HERD[v] != 0 or is_dragon(v)) and s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == h \
                and s['unit_order'][v] <= s['unit_order'][u]:
            return True
    return False


@rules_jit
def missile_ground_mod(S, b, t):
    """The terrain missile modifier of fire at the stack at hex t (L1111-L1115):
    the worst of its terrain and structure, but its terrain's alone where every
    unit of the stack is outside the structure (``outside_structure``: a herd
    or a dragon at its bottom, or only neutral units and giants; L458, L472;
    Interpretations 173)."""
    s = S[b]
    g = ground(S, b, t)
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == t and not outside_structure(S, b, u):
            return int(HEX_MISSILE_MOD[g])
    return int(HEX_MISSILE_OUT_MOD[g])
