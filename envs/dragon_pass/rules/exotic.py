"""The Exotic Magic Phase (L672-L712): between a player's movement and combat
phases, in the scenarios that grant it to his side (18.4: the Lunars only,
L263; 18.5: both). The active player uses his units' exotic abilities one at
a time, in the order he likes, then ends the phase:

* the Crimson Bat devours a Lunar unit within 1 hex of it on each Black and
  Dying day, more while it is hungry (the Bat Hunger Table), and starves after
  the following Full Half day (L698-L708; ``base.bat_demand``);
* the Crater Makers call a Meteor Storm on a hex within their RF, on any day
  but a Black or Dying one (L710);
* the Full Moon Corps, eliminated, are summoned back on a Full Moon day to a
  hex holding a Lunar magician (L712);
* the Wasps sting every non-Sartar unit within 1 hex (L690);
* the Stormwalkers raise a Type 1 storm on a hex within their RF, or a Type 2
  storm over the whole board: two days of rain, then a day of flood (L688);
* the Earth-Shaker's Cult (an Independent, with its ally) unleashes its
  earthquake once per game, laying its fracture lines hex by hex (L720;
  ``quake.py``);
* Cragspider (an Independent, with her ally) brings the Pillar of Fire down
  once per game on a triangle of 3 hexes within her RF, named hex by hex,
  destroying every unit there, herds included (L764; ``pillar.py``);
* Sir Ethilrist's Hound (an Independent, with its ally) is unleashed on a
  Doom Run, its target the first hex of its straight run (L754;
  ``ethilrist.py``);
* Sir Ethilrist casts the Cloak of Darkness on his own hex, once a game
  (L752; ``ethilrist.py``);
* the Puppeteer Troop creates or removes Illusory Armies within its RF of 8
  (L724, L888; ``puppeteers.py``);
* the hungry Hydra is fed allied units within 1 hex of it (L880; ``hydra.py``).

Dragons and superheroes are unaffected by exotic magic and save up to three
units stacked with them (D&S, L674, L678; ``magic.saving_superhero``);
disembodied spirits and treasures are unaffected (DS&T) -- but by the
Pillar of Fire, which names D&S alone (Interpretations 60). The effects that
strike several units are resolved as ``exotic_effect`` (EX_*), the
superheroes' saves chosen first. A hungry Bat eliminated or starved leaves
Lunar units for the opposing player to eliminate (L700; ``hunger_left``),
chosen at the start of the next Exotic Magic Phase.
"""
import numpy as np

from dragongym.envs.core.jit import local_zeros, rules_jit
from ..board import HEX_RIVER, NUM_HEXES
from ..constants import (
    LUNAR, NUM_FORCES, NUM_UNITS, RANK_NONE, RANK_SUPERHERO, SARTAR, SIDE_FRONT, ST_COMBAT, ST_MOVEMENT, UF_EXOTIC,
    UF_SAVED, UNIT_IDS, UW_DEAD, UW_HOLDING, UW_MAP,
)
from ..data import DATA
from .base import (
    A_CHOICE, A_HEX, A_UNIT, CH_DONE, CH_STORM, CRIMSON_BAT, MOON_BLACK, MOON_DYING, MOON_FULL_HALF, PH_EXOTIC,
    PH_ASSASSIN, PH_EXOTIC_TARGET, PH_HUNGER, PH_SAVE, U_ASSASSIN, U_BOUND, U_SPIRIT, force_of, units_end, U_RANK, bat_demand, d6,
    disrupt, distance, eliminate, occupy, pose, put_on_top, rf_of, stack_at, U_HERD, stampede, herds_settle,
    CRAGSPIDER, killed, ETHILRIST, HELL_HOUND, assassin_result, SCOUT_CAPTURED, SCOUT_KILLED, ASSASSINATED_DP,
    GETAWAY_CAPTURED, GETAWAY_KILLED, PUPPETEER_TROOP, HYDRA, DRAGON_UNITS, is_dragon,
)
from .dragons import dragonfights, negation_targets, switch_negation
from .magic import saving_superhero
from .pillar import EX_PILLAR, begin_pillar, cragspider_can_pillar, end_pillar, pillar_options, pillar_strikes
from .quake import (
    EARTH_SHAKERS_CULT, EX_QUAKE, begin_quake, damage_fortresses, end_quake, enclosed_hexes, mark_fractures,
    quake_choices,
)
from .ethilrist import cast_cloak, cloak_targets, doom_targets, unleash
from .puppeteers import create_or_remove, illusion_targets
from .hydra import feed_hydra, feed_targets
from .moon import MOON_FULL
from .setup import SCENARIO_MAGIC

# the effects (``exotic_effect``)
EX_METEOR = 1      # the Crater Makers' Meteor Storm on ``exotic_hex`` (L710)
EX_STORM = 2       # the Stormwalkers' Type 1 storm on ``exotic_hex`` (L688)
EX_STING = 3       # the Wasps' sting around ``exotic_hex`` (L690)
EX_FLOOD = 4       # the third day of a Type 2 storm: every river hex floods (L688)
# EX_QUAKE = 5 (quake.py): the earthquake strikes its fracture hexes and the hexes they enclose (L720)
# EX_PILLAR = 6 (pillar.py): Cragspider's Pillar of Fire strikes its three hexes (L764)
EXS_DAY = 1
"""``step`` of ST_EXOTIC when it is no player's phase but the day's own effect
(the flood) before the player-turn's movement."""

CRATER_MAKERS = UNIT_IDS.index("crater_makers")
FULL_MOON_CORPS = UNIT_IDS.index("full_moon_corps")
WASPS = UNIT_IDS.index("wasps")
STORMWALKERS = UNIT_IDS.index("stormwalkers")
ABLE = np.zeros(NUM_UNITS, np.int8)
for _u in (CRIMSON_BAT, CRATER_MAKERS, FULL_MOON_CORPS, WASPS, STORMWALKERS, EARTH_SHAKERS_CULT, CRAGSPIDER, HELL_HOUND,
           ETHILRIST, PUPPETEER_TROOP, HYDRA):
    ABLE[_u] = 1
ABLE[DRAGON_UNITS] = 1
ABLE |= U_ASSASSIN
"""The units with an exotic ability of the Lunar or Sartar battalia (L680-L712, L924), and the
Earth-Shaker's Cult (L720), Cragspider (L764), Ethilrist's Hound (L754) and Ethilrist's Cloak of Darkness (L752),
the Puppeteer Troop's Illusory Armies (L724, L888) and the Hydra, fed (L880); and the dragons, whose
controller switches their negation of the Glowline here (L851, Interpretations 102)."""


def _exotic_forces():
    from ..constants import FORCES, SCENARIOS, seat_of_side
    out = np.zeros((len(SCENARIOS), len(FORCES)), np.int8)
    for k, sid in enumerate(SCENARIOS):
        for f in DATA.scenarios[sid].exotic:
            out[k, seat_of_side(f)] = 1
    return out


def _assassin_tables():
    t = DATA.tables.assassin
    scout = np.array([t["scouting"].get(r) == "success" for r in range(7)], np.int8)
    kill = np.array([t["assassination"].get(r) == "success" for r in range(7)], np.int8)
    away = np.array([t["getaway"].get(r) == "away" for r in range(7)], np.int8)
    return scout, kill, away


SCOUTED, ASSASSINATED, GOT_AWAY = _assassin_tables()
SCOUT_CAPTURED_ROLL = np.array([DATA.tables.assassin["scouting"].get(r) == "captured" for r in range(7)], np.int8)
GETAWAY_CAPTURED_ROLL = np.array([DATA.tables.assassin["getaway"].get(r) == "captured" for r in range(7)], np.int8)
"""By die roll: the assassin failing its scouting (getaway) is captured, not
killed -- the greater loss of Diplomacy Points (L932, L945)."""
"""By die roll 0..6: the scouting succeeds; the assassination succeeds; the
assassin gets away (L932-L947). A failed scouting or getaway loses the
assassin (captured or killed)."""
HERO_MODIFIER = int(DATA.tables.assassin_dp["hero_modifier"])
"""The assassination die against a hero (L928)."""

SCENARIO_EXOTIC = _exotic_forces()
"""SCENARIO_EXOTIC[scenario, force]: force has an Exotic Magic Phase (L178, L263, L271)."""


# ================================================================ who may do what
@rules_jit
def on_map(S, b, u):
    return S[b]['unit_where'][u] == UW_MAP


@rules_jit
def bat_prey(S, b, v):
    """Lunar unit v may be devoured by the Bat now: within 1 hex of it, the Bat
    still needing units today (L698)."""
    s = S[b]
    if not on_map(S, b, CRIMSON_BAT) or v == CRIMSON_BAT or not on_map(S, b, v) or force_of(S, b, v) != LUNAR:
        return False
    if bat_demand(S, b) - int(s['bat_owed']) - int(s['bat_fed']) <= 0:
        return False
    return distance(s['unit_hex'][v], s['unit_hex'][CRIMSON_BAT]) <= 1


@rules_jit
def targets(S, b, u, mask):
    """mask[...] = 1 for each target of u's exotic ability now; returns how many
    (0: the ability cannot be used)."""
    s = S[b]
    n = 0
    if s['unit_flags'][u] & UF_EXOTIC:
        return 0
    d = int(s['moon'])
    if u == CRIMSON_BAT and force_of(S, b, u) == s['active'] and on_map(S, b, u):
        for v in range(units_end(S, b)):
            if bat_prey(S, b, v):
                n += 1
                if mask.shape[0] > 1:
                    mask[A_UNIT + v] = 1
    elif u == CRATER_MAKERS:
        # not on a Black or Dying day; within the Crater Makers' RF of 12 (L710)
        if not on_map(S, b, u) or d < 0 or d == MOON_BLACK or d == MOON_DYING or rf_of(S, b, u) < 0:
            return 0
        n = mark_stacks(S, b, mask, int(s['unit_hex'][u]), rf_of(S, b, u), -1, False)
    elif u == FULL_MOON_CORPS:
        # eliminated, summoned on a Full Moon day to a Lunar magician's hex (L712)
        if s['unit_where'][u] != UW_DEAD or d != MOON_FULL:
            return 0
        n = mark_stacks(S, b, mask, -1, 0, LUNAR, True)
    elif u == WASPS:
        if on_map(S, b, u):
            n = 1
            if mask.shape[0] > 1:
                mask[A_HEX + s['unit_hex'][u]] = 1
    elif U_ASSASSIN[u]:
        # dropped onto any enemy stack (L924)
        if s['unit_where'][u] != UW_HOLDING:
            return 0
        n = 0
        for f in range(NUM_FORCES):
            if f != force_of(S, b, u):
                n += mark_stacks(S, b, mask, -1, 0, f, False)
    elif u == STORMWALKERS:
        # only while the Stormwalkers' spirit lives (L688)
        sp = U_BOUND[u]
        if not on_map(S, b, u) or sp < 0 or s['unit_where'][sp] == UW_DEAD or rf_of(S, b, u) < 0:
            return 0
        n = mark_stacks(S, b, mask, int(s['unit_hex'][u]), rf_of(S, b, u), -1, False)
        if s['storm_day'] == 0:
            n += 1
            if mask.shape[0] > 1:
                mask[A_CHOICE + CH_STORM] = 1
    elif u == EARTH_SHAKERS_CULT:
        # once per game, while its spirit lives: a Type 1 or Type 2 earthquake (L720)
        n = quake_choices(S, b, mask)
    elif u == CRAGSPIDER:
        # once per game, while her spirit lives: the Pillar of Fire's first hex, within her RF (L764)
        if cragspider_can_pillar(S, b):
            n = pillar_options(S, b, mask, mask.shape[0] <= 1)
    elif u == HELL_HOUND:
        # unleashed on a Doom Run: the hex beside it that names its direction (L754)
        n = doom_targets(S, b, mask)
    elif u == ETHILRIST:
        # the Cloak of Darkness, on his own hex, once a game (L752)
        n = cloak_targets(S, b, mask)
    elif u == PUPPETEER_TROOP:
        # create or remove Illusory Armies within its RF of 8 (L724, L888)
        n = illusion_targets(S, b, mask)
    elif u == HYDRA:
        # an allied unit within 1 hex fed to it while it is hungry (L880; Interpretations 135)
        n = feed_targets(S, b, mask)
    elif is_dragon(u):
        # the dragon's negation of the Glowline and Glowspot, switched on or off (L851)
        n = negation_targets(S, b, u, mask)
    return n


@rules_jit
def mark_stacks(S, b, mask, centre, rf, force, magician):
    """mask[A_HEX + h] = 1 for each hex holding units on the map -- of ``force``
    (-1: either), with a magician among them if ``magician`` -- within ``rf`` of
    ``centre`` (-1: anywhere). Returns how many; one pass over the units."""
    s = S[b]
    seen = local_zeros(NUM_HEXES, np.int8)
    n = 0
    for v in range(units_end(S, b)):
        if s['unit_where'][v] != UW_MAP or (force >= 0 and force_of(S, b, v) != force) or (magician and U_BOUND[v] < 0):
            continue
        h = s['unit_hex'][v]
        if seen[h] or (centre >= 0 and distance(h, centre) > rf):
            continue
        seen[h] = 1
        n += 1
        if mask.shape[0] > 1:
            mask[A_HEX + h] = 1
    return n


@rules_jit
def any_ability(S, b):
    s = S[b]
    dummy = np.zeros(1, np.int8)
    for u in range(units_end(S, b)):
        if ABLE[u] and force_of(S, b, u) == s['active'] and s['unit_where'][u] != 0 and targets(S, b, u, dummy) > 0:
            return True
    return False


# ================================================================ the phase
@rules_jit
def to_combat(S, b):
    s = S[b]
    herds_settle(S, b)            # the end of the Exotic Magic Phase (L592)
    s['dragonfights_done'] = 0    # the next Exotic Magic Phase starts with its dragonfights (L845)
    s['stage'] = ST_COMBAT
    s['step'] = 0
    s['magic_kind'] = 1 if SCENARIO_MAGIC[int(s['scenario'])] else 0     # phase A first (L496)


@rules_jit
def exotic_phase(S, b):
    """Run the Exotic Magic Phase (or the day's flood) until a decision is
    needed (True) or it ends."""
    s = S[b]
    while True:
        if s['step'] == 0 and s['magic_kind'] != 3 and not SCENARIO_EXOTIC[int(s['scenario']), int(s['active'])]:
            s['magic_kind'] = 3           # no phase for this side: nothing but what is due (L178)
        if s['step'] == 0 and s['dragonfights_done'] == 0:
            # the active dragons beside inactive units must dragonfight first (L845; dragons.py)
            if dragonfights(S, b):
                return True
            continue
        e = int(s['exotic_effect'])
        if e != 0:
            mode = 1 if e == EX_METEOR else 2 if e == EX_STORM else 3 if e == EX_FLOOD else 4 if e == EX_QUAKE \
                else 5 if e == EX_PILLAR else -1
            g = saving_superhero(S, b, mode) if mode >= 0 else -1
            if g >= 0:
                s['cursor'] = g
                return pose(S, b, PH_SAVE, force_of(S, b, g))
            apply_effect(S, b, e)
            s['exotic_effect'] = 0
            for u in range(units_end(S, b)):
                s['unit_flags'][u] &= ~UF_SAVED
            continue
        if s['hunger_left'] > 0 and lunar_left(S, b):
            return pose(S, b, PH_HUNGER, SARTAR)
        s['hunger_left'] = 0
        if s['step'] == EXS_DAY:
            s['step'] = 0
            s['stage'] = ST_MOVEMENT
            return False
        if s['magic_kind'] != 3 and any_ability(S, b):
            return pose(S, b, PH_EXOTIC, int(s['active']))
        if s['active'] == LUNAR and starving(S, b):
            # not fed by the end of the Lunar Exotic Magic Phase of the Full Half day (L700)
            eliminate(S, b, CRIMSON_BAT)
            continue
        s['magic_kind'] = 0
        agent = U_BOUND[CRATER_MAKERS]
        for u in range(units_end(S, b)):
            if u != agent:
                s['unit_flags'][u] &= ~UF_EXOTIC     # the agent's stays: no attack this turn (L710)
        to_combat(S, b)
        return False


@rules_jit
def starving(S, b):
    """The hungry Bat is still not sated at the end of the Lunar Exotic Magic
    Phase of a Full Half day (L700)."""
    s = S[b]
    return on_map(S, b, CRIMSON_BAT) and s['moon'] == MOON_FULL_HALF and s['bat_missed'] > 0 \
        and int(s['bat_owed']) + int(s['bat_fed']) < bat_demand(S, b)


@rules_jit
def lunar_left(S, b):
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and force_of(S, b, u) == LUNAR:
            return True
    return False


@rules_jit
def must_release(S, b):
    """Keener Than must still release the Hound he took on another Doom Run in
    this Exotic Magic Phase: the phase cannot end before (L756)."""
    s = S[b]
    return s['keener_turn'] > 0 and s['keener_turn'] == s['player_turn'] and on_map(S, b, HELL_HOUND) \
        and force_of(S, b, HELL_HOUND) == s['active']


@rules_jit
def mask_exotic(S, b, p, mask):
    dummy = np.zeros(1, np.int8)
    for u in range(units_end(S, b)):
        if ABLE[u] and force_of(S, b, u) == p and S[b]['unit_where'][u] != 0 and targets(S, b, u, dummy) > 0:
            mask[A_UNIT + u] = 1
    if not must_release(S, b):
        mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_exotic(S, b, p, a):
    """Unit a uses its exotic ability (its target next); ``CH_DONE``: the phase ends."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        s['magic_kind'] = 3
        return False
    s['cursor'] = a - A_UNIT
    return pose(S, b, PH_EXOTIC_TARGET, p)


@rules_jit
def mask_exotic_target(S, b, p, mask):
    targets(S, b, int(S[b]['cursor']), mask)


@rules_jit
def act_exotic_target(S, b, p, a):
    """Unit ``cursor``'s ability strikes target a."""
    s = S[b]
    u = int(s['cursor'])
    s['unit_flags'][u] |= UF_EXOTIC
    if u == CRIMSON_BAT:
        # devoured: no heroic escape (L698)
        v = a - A_UNIT
        killed(S, b, v)
        s['bat_fed'] += 1
        s['unit_flags'][u] &= ~UF_EXOTIC          # it may devour again while it needs more
        return False
    if u == FULL_MOON_CORPS:
        h = a - A_HEX
        s['unit_side'][u] = SIDE_FRONT
        put_on_top(S, b, u, h)
        occupy(S, b, LUNAR, h)
        return False
    if u == EARTH_SHAKERS_CULT:
        return begin_quake(S, b, p, a)
    if u == CRAGSPIDER:
        return begin_pillar(S, b, p, a)
    if u == HELL_HOUND:
        unleash(S, b, a - A_HEX)
        return False
    if u == ETHILRIST:
        cast_cloak(S, b, a - A_HEX)
        return False
    if u == PUPPETEER_TROOP:
        create_or_remove(S, b, a - A_HEX)
        s['unit_flags'][u] &= ~UF_EXOTIC          # any number of them, each piece once (L888)
        return False
    if u == HYDRA:
        feed_hydra(S, b, a - A_UNIT)
        s['unit_flags'][u] &= ~UF_EXOTIC          # fed one by one while it is hungry (L880)
        return False
    if is_dragon(u):
        switch_negation(S, b, u)
        return False
    if u == STORMWALKERS:
        s['unit_where'][U_BOUND[u]] = UW_DEAD     # the storm costs the Stormwalkers' spirit (L688)
        s['unit_hex'][U_BOUND[u]] = -1
        if a == A_CHOICE + CH_STORM:
            s['storm_day'] = 1
            s['rain'] = 1
            return False
        s['exotic_hex'] = a - A_HEX
        s['exotic_effect'] = EX_STORM
        return False
    if U_ASSASSIN[u]:
        # scouting (L924, L932): success lets the player examine the stack and try a kill
        r = d6(S, b)
        if not SCOUTED[r]:
            s['unit_where'][u] = UW_DEAD          # captured or killed
            assassin_result(S, b, p, SCOUT_CAPTURED if SCOUT_CAPTURED_ROLL[r] else SCOUT_KILLED)
            return False
        s['exotic_hex'] = a - A_HEX
        return pose(S, b, PH_ASSASSIN, p)
    s['exotic_hex'] = a - A_HEX
    if u == CRATER_MAKERS:
        s['exotic_effect'] = EX_METEOR
        if U_BOUND[u] >= 0:
            s['unit_flags'][U_BOUND[u]] |= UF_EXOTIC   # its agent cannot attack this turn (L710)
    else:
        s['exotic_effect'] = EX_STING
    return False


@rules_jit
def mask_assassin(S, b, p, mask):
    """Any unit of the scouted stack but a superhero (or a dragon) (L924); or
    take the assassin back."""
    s = S[b]
    h = s['exotic_hex']
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == h and U_RANK[v] != RANK_SUPERHERO \
                and not is_dragon(v):
            mask[A_UNIT + v] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_assassin(S, b, p, a):
    """The assassin ``cursor`` tries to kill unit a (the die 1 less against a
    hero; L924, L938), then tries its getaway (L942); ``CH_DONE``: it is taken
    back, to be used again another turn (L924)."""
    s = S[b]
    u = int(s['cursor'])
    s['exotic_hex'] = -1
    if a == A_CHOICE + CH_DONE:
        return False
    v = a - A_UNIT
    roll = d6(S, b) + (HERO_MODIFIER if U_RANK[v] != RANK_NONE else 0)
    if ASSASSINATED[roll if roll > 0 else 0]:
        eliminate(S, b, v)                        # a hero may make his heroic escape (L928)
        assassin_result(S, b, p, ASSASSINATED_DP)  # +3 DP next turn (L938)
    r = d6(S, b)
    if not GOT_AWAY[r]:
        s['unit_where'][u] = UW_DEAD              # captured or killed
        assassin_result(S, b, p, GETAWAY_CAPTURED if GETAWAY_CAPTURED_ROLL[r] else GETAWAY_KILLED)
    return False


# ================================================================ the effects
@rules_jit
def unaffected(S, b, u):
    """Exotic magic does not touch unit u: a superhero or a dragon, or a unit
    one of them saves (D&S, L650, L674, L678, L849)."""
    return U_RANK[u] == RANK_SUPERHERO or is_dragon(u) or (S[b]['unit_flags'][u] & UF_SAVED) != 0


@rules_jit
def apply_effect(S, b, e):
    s = S[b]
    h0 = int(s['exotic_hex'])
    out = np.empty(NUM_UNITS, np.int64)
    if e == EX_METEOR or e == EX_STORM:
        # every unit in the hex is eliminated (L688, L710), except herds, which
        # stampede (L710; herds are never eliminated but by the Pillar of Fire or
        # a Dragonfight, L588, so the storm's too: Interpretations)
        n = stack_at(S, b, h0, out)
        for j in range(n):
            if unaffected(S, b, out[j]):
                continue
            if U_HERD[out[j]]:
                stampede(S, b, out[j])
            else:
                eliminate(S, b, out[j])
        if e == EX_STORM:
            # and every non-Sartar unit beside it is disrupted (L688)
            for u in range(units_end(S, b)):
                if on_map(S, b, u) and force_of(S, b, u) != SARTAR and distance(s['unit_hex'][u], h0) == 1 \
                        and not unaffected(S, b, u):
                    disrupt(S, b, u)
    elif e == EX_STING:
        # every non-Sartar unit within 1 hex of the Wasps is disrupted; the Wasps
        # are eliminated (L690). Superheroes are unaffected, but save no one
        # (the sting lists DS&T only, not D&S: Interpretations 37)
        for u in range(units_end(S, b)):
            if on_map(S, b, u) and force_of(S, b, u) != SARTAR and distance(s['unit_hex'][u], h0) <= 1 \
                    and U_RANK[u] != RANK_SUPERHERO and not is_dragon(u):
                disrupt(S, b, u)          # dragons are immune to all magic (L849)
        eliminate(S, b, WASPS)
    elif e == EX_FLOOD:
        # every unit in a river hex, fords included, is disrupted (L688)
        for u in range(units_end(S, b)):
            if on_map(S, b, u) and HEX_RIVER[s['unit_hex'][u]] and not unaffected(S, b, u):
                disrupt(S, b, u)
    elif e == EX_QUAKE:
        earthquake(S, b)
    elif e == EX_PILLAR:
        pillar_of_fire(S, b)


@rules_jit
def earthquake(S, b):
    """The earthquake strikes (L720): the units on its fracture hexes are
    disrupted (a disrupted one eliminated, L590), herds stampede, there or
    enclosed (L588: nothing but the Pillar of Fire or a Dragonfight eliminates
    a herd); the units in the hexes it encloses are eliminated; D&S (``unaffected``); DS&T --
    disembodied spirits (and treasures, none in this game) are unaffected,
    on the line too (Interpretations 53). Fortresses on the line are badly
    damaged."""
    s = S[b]
    fract = local_zeros(NUM_HEXES, np.int8)
    enclosed = local_zeros(NUM_HEXES, np.int8)
    mark_fractures(S, b, fract)
    enclosed_hexes(fract, enclosed)
    for u in range(units_end(S, b)):
        if not on_map(S, b, u) or unaffected(S, b, u) or U_SPIRIT[u, int(s['unit_side'][u])]:
            continue
        h = s['unit_hex'][u]
        if (enclosed[h] == 1 or fract[h]) and U_HERD[u]:
            stampede(S, b, u)      # herds are never eliminated but by the Pillar or a Dragonfight (L588; Interpretations)
        elif enclosed[h] == 1:
            eliminate(S, b, u)
        elif fract[h]:
            disrupt(S, b, u)
    damage_fortresses(S, b, fract)
    end_quake(S, b)


@rules_jit
def pillar_of_fire(S, b):
    """The Pillar of Fire strikes (L764): every unit in its three hexes is
    eliminated, of either side -- herds eliminated, not stampeded (L588 names
    the Pillar), disembodied spirits and treasures too; a hero rolls his
    heroic escape (L642). D&S: superheroes and the units they save are
    untouched (``unaffected``)."""
    s = S[b]
    for u in range(units_end(S, b)):
        if on_map(S, b, u) and pillar_strikes(S, b, int(s['unit_hex'][u])) and not unaffected(S, b, u):
            eliminate(S, b, u)
    end_pillar(S, b)


# ================================================================ the day's end and the Bat's hunger
@rules_jit
def day_ends(S, b):
    """The book-keeping phase (before the moon moves on): the Bat's day is
    counted (L698-L708, Interpretations 36) and the storm's days pass (L688)."""
    s = S[b]
    d = int(s['moon'])
    if d >= 0 and on_map(S, b, CRIMSON_BAT):
        own_day = d == MOON_BLACK or d == MOON_DYING
        fed = int(s['bat_fed'])
        if s['bat_missed'] == 0:
            if own_day and fed < 1:
                s['bat_missed'] = 1
                s['bat_owed'] = 0
        else:
            s['bat_owed'] += fed
            if own_day:
                if fed < 1:
                    s['bat_missed'] += 1
            elif s['bat_owed'] >= bat_demand(S, b):
                s['bat_missed'] = 0
                s['bat_owed'] = 0
    s['bat_fed'] = 0
    if s['storm_day'] > 0:
        s['storm_day'] += 1
        if s['storm_day'] == 3:
            s['rain'] = 0
            s['exotic_effect'] = EX_FLOOD     # at the start of the flood day
        elif s['storm_day'] > 3:
            s['storm_day'] = 0


@rules_jit
def mask_hunger(S, b, p, mask):
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] != UW_MAP or force_of(S, b, u) != LUNAR:
            continue
        if s['screening']:
            # the stack cannot be examined: its place is chosen, its top taken (Interpretations 36)
            mask[A_HEX + s['unit_hex'][u]] = 1
        else:
            mask[A_UNIT + u] = 1


@rules_jit
def act_hunger(S, b, p, a):
    """Lunar unit a (or the top of the stack at hex a) is eliminated for the
    Bat's spirit (L700); a hero may not escape (as devoured, L698)."""
    s = S[b]
    if a < A_UNIT:
        out = np.empty(NUM_UNITS, np.int64)
        stack_at(S, b, a - A_HEX, out)
        u = int(out[0])
    else:
        u = a - A_UNIT
    killed(S, b, u)
    s['hunger_left'] -= 1
    return False

