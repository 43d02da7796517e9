"""Diplomacy and alliances (L975-L1003, L295-L301): the Diplomacy Segment
at the start of each game-turn of the Full and Marathon Games, and the
Alliance Phase of each player-turn.

* **The Diplomacy Segment** (``diplomacy_segment``, stage ST_DIPLOMACY):
  each player receives the scenario's Diplomacy Points (tables.txt
  ``dp_schedule``: 18.7, 50 on the first game-turn and 25 on every other,
  L299) -- none while the enemy occupies his capital, 1 fewer for each of
  his allied Independents' capitals the enemy occupies, never below zero
  (L987, L989), with his assassins' gains and losses of the last turn
  (L932-L947). He takes the replacements his dead piles give (one per 2
  dead infantry, one per 3 dead cavalry, in his capital, L299), then assigns
  Diplomacy Points to the Major Independents in secret: the first player,
  then the second, who never sees the first's (L979; the observation hides
  them, ``observe.py``). Points left unassigned are kept (Interpretations 92).
* **The Alliance Phase** (``alliance_phase``, stage ST_ALLIANCE, before the
  movement phase, L176): the active player seeks the alliance of Major
  Independents, calling out the points he assigned (public from then on,
  ``dp_announced``): with more than the other player has assigned, and at
  least the Major's price (L1002; Interpretations 93), the alliance is his;
  denied, the other player, if he has assigned more, gains 5 DP with that
  Independent (L979, L983). He sends emissaries -- his own Lunar or Sartar
  units, never allied ones -- standing where a Minor Independent resides:
  the Emissary Table decides (L993-L998).
* **An alliance's results** (``ally``, L985): the Independent's units join
  the ally; units of the other force in its capital are eliminated (heroes
  may escape), herds among them captured; the ally sets up its units one by
  one anywhere in its territory, never with enemy units (``PH_ALLY_SETUP``);
  its spirits and its assassin wait in their holding boxes (L416, L924). The
  Dragonewts go to their home cities, removing enemy units there (L740);
  Sir Ethilrist's Hound is set up with him and Keener Than goes to the other
  player, who puts him on one of his stacks (L750, L756, ``PH_KEENER``);
  Cragspider's Black Dragon to its dragonrest (L768); Androgeus force marches
  in from the south edge of Sartar or an edge of the Imperial borders (L800).
  In the movement phase that follows, a Major's units keep to its territory
  but the Dragonewts and Androgeus (``base.keeps_to_territory``).
* **Trespassing** (``base.trespass``, L991): each active unit entering a neutral
  Major Independent's territory from outside it gives the other player 1 DP,
  once a movement phase (Interpretations 94).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..board import HEX_TERRAIN, NUM_HEXES
from ..constants import (
    ENTRY_IMPERIAL_EDGE, ENTRY_SARTAR_SOUTH_EDGE, LUNAR, NUM_UNITS, SCENARIOS, SIDE_FRONT, ST_EXOTIC, ST_MOVEMENT,
    ST_TURN_START,
    UF_USED, UNIT_IDS, UW_DEAD, UW_ENTERING, UW_HOLDING, UW_MAP, UW_OUT, UW_POOL,
)
from ..data import DATA, MAP
from ..unitdata import FACTIONS
from .base import (
    A_CHOICE, A_HEX, A_UNIT, ANDROGEUS_FACTION, BLACK_DRAGON, CH_DONE, DRAGONEWTS, ETHILRIST, FACTION_CAPITAL,
    FORCE_CAPITAL, HELL_HOUND, HEX_MAJOR, KEENER_THAN, MAJOR_PRICE, NUM_MAJORS, PH_ALLIANCE, PH_ALLY_SETUP,
    PH_DIPLOMACY, PH_KEENER, PH_REPLACE, CH_ASSIGN, CH_SEEK, ASSIGN_AMOUNTS, TERRAIN_LAKE, U_ASSASSIN, U_FACTION,
    U_BOUND, U_SPIRIT, side_of, PH_SACRIFICE, CH_BID, U_FORCE, U_HERD, U_HOME_CITY, U_MAGICIAN, U_REPLACEABLE, CITY_HEX, GOBLINS, capture, d6, eliminate,
    force_of, hex_force, movement_allowance, occupy, pose, put_on_top, shut, units_end, SCENARIO_DIPLOMACY,
)
from .exotic import EX_FLOOD, EXS_DAY
from .base import DELECTI, ZOMBIE_1
from .zombies import ally_delecti
from .puppeteers import place_puppeteers, puppeteer_draw, puppeteer_location
from .hydra import hydra_awakes
from .marathon import purchase_step
from .dragons import place_dragon
from .minors import GIFT_ALLIES, IVORY_PLINTH, SACRIFICE_DENIED, blood_sacrifice, dwarf_luck

T = DATA.tables


def _schedule():
    out = np.zeros((len(SCENARIOS), 64), np.int16)
    for sc, sid in enumerate(SCENARIOS):
        for t, points in enumerate(T.dp_schedule.get(sid, ()) if DATA.scenarios[sid].independents else ()):
            out[sc, t + 1] = points
    return out


DP_SCHEDULE = _schedule()
"""DP_SCHEDULE[scenario, game-turn]: the Diplomacy Points each player receives
(tables.txt ``dp_schedule``: 18.7 L299, 18.9 L321); all zero in a scenario
without the diplomacy rules."""
DENIED_BONUS = int(T.diplomacy["denied_bonus"])
ALLIED_CAPITAL_PENALTY = -int(T.diplomacy["allied_capital_occupied"])
DEAD_PER_REPLACEMENT = np.array([T.diplomacy["dead_infantry_per_replacement"],
                                 T.diplomacy["dead_cavalry_per_replacement"]], np.int16)
"""One infantry replacement for every 2 dead infantry, one cavalry for every 3
dead cavalry (L299, L981)."""
EMISSARY_GRANTED = np.array([T.emissary.get(r, {}).get("alliance") == "granted" for r in range(7)], np.int8)
EMISSARY_SLAIN = np.array([T.emissary.get(r, {}).get("stack") == "eliminated" for r in range(7)], np.int8)
"""By die roll: the alliance is granted (4-6); the emissary and the units
stacked with him are eliminated (1-2) (L995-L998, L1137)."""


def _minor_homes():
    home = np.full(NUM_HEXES, -1, np.int8)
    for name in ("spirit_of_movement", "sun_dome_templars", "hydra", "delecti", "dwarf", "tusk_riders"):
        for h in MAP.homes[name]:
            home[h] = FACTIONS.index(name)
    dragon = np.full(NUM_HEXES, -1, np.int16)
    for colour in ("red", "green", "brown"):
        dragon[MAP.dragonrests[colour]] = UNIT_IDS.index(f"{colour}_dragon")
    return home, dragon


HEX_MINOR_HOME, HEX_DRAGONREST = _minor_homes()
"""HEX_MINOR_HOME[h]: the Minor Independent (``unitdata.FACTIONS`` index) an
emissary standing on hex h may seek by the Emissary Table -- the Spirit of
Movement (Travelling Stone), the Sun Dome Templars (the Sun Dome Temple),
the Hydra (Hydra Hill), Delecti (his Ruin, allied by the first emissary,
L817), the Dwarf (the Dwarf Mine, by the Dwarf Luck Table, L853), the Tusk
Riders (the Ivory Plinth, by blood sacrifice, L906) (L806, L878, L894,
L900); -1 elsewhere.
HEX_DRAGONREST[h]: the dragon whose dragonrest h is (red, green, brown,
L839-L841; the Black Dragon comes only with Cragspider), -1 elsewhere."""
CLOAK_OF_DARKNESS = UNIT_IDS.index("cloak_of_darkness")
NUM_FACTIONS = len(FACTIONS)
DRAGONS_FACTION = FACTIONS.index("dragons")
DELECTI_FACTION = FACTIONS.index("delecti")
DWARF_FACTION = FACTIONS.index("dwarf")
PUPPETEERS_FACTION = FACTIONS.index("puppeteers")
HYDRA_FACTION = FACTIONS.index("hydra")
TUSK_FACTION = FACTIONS.index("tusk_riders")

DS_INCOME, DS_REPLACE, DS_ASSIGN = 0, 1, 2
DS_PURCHASE = 3
"""The Diplomacy Segment's steps (``step``); ``cursor`` 0 / 1: the first /
second player's turn to decide. DS_PURCHASE (18.9), between DS_REPLACE and
DS_ASSIGN: replacements bought with Diplomacy Points (rules/marathon.py)."""


# ================================================================ the Diplomacy Segment
@rules_jit
def occupied_by(S, b, h, f):
    """Units of force f occupy hex h (L987, L989)."""
    return h >= 0 and hex_force(S, b, h) == f


@rules_jit
def income(S, b, f):
    """The Diplomacy Points force f receives this game-turn (L979, L987, L989):
    the schedule's, 1 fewer for each allied Independent's capital the enemy
    occupies, with his assassins' results of last turn; none while the enemy
    occupies his own capital; never below zero."""
    s = S[b]
    o = 1 - f
    if occupied_by(S, b, FORCE_CAPITAL[f], o):
        return 0
    n = int(DP_SCHEDULE[int(s['scenario']), int(s['turn'])]) + int(s['dp_next'][f])
    for k in range(NUM_MAJORS):
        if s['faction_ally'][k] == f and occupied_by(S, b, FACTION_CAPITAL[k], o):
            n -= ALLIED_CAPITAL_PENALTY
    return n if n > 0 else 0


@rules_jit
def replacements_owed(S, b, f, arm):
    """Replacements of ``arm`` (0 infantry, 1 cavalry) force f may still take:
    one for every 2 dead infantry (3 dead cavalry) less those taken (L299)."""
    s = S[b]
    return int(s['dead_count'][f, arm]) // int(DEAD_PER_REPLACEMENT[arm]) - int(s['replaced'][f, arm])


@rules_jit
def may_replace(S, b, f, u):
    """Dead unit u may come back now as a replacement of force f: Lunar or
    Sartar infantry or cavalry of his (L299, L323), one owed, and his capital
    free of the enemy (replacements appear there, L299)."""
    s = S[b]
    arm = int(U_REPLACEABLE[u])
    return arm >= 0 and U_FORCE[u] == f and s['unit_where'][u] == UW_DEAD and replacements_owed(S, b, f, arm) > 0 \
        and not occupied_by(S, b, FORCE_CAPITAL[f], 1 - f)


@rules_jit
def any_replacement(S, b, f):
    for u in range(units_end(S, b)):
        if may_replace(S, b, f, u):
            return True
    return False


@rules_jit
def may_assign(S, b, f):
    """Force f holds Diplomacy Points and some Major Independent is unallied."""
    s = S[b]
    if s['dp'][f] <= 0:
        return False
    for k in range(NUM_MAJORS):
        if s['faction_ally'][k] < 0:
            return True
    return False


@rules_jit
def diplomacy_segment(S, b):
    """The Diplomacy Segment (the driver's stage function). Returns True if a
    decision is posed."""
    s = S[b]
    if s['step'] == DS_INCOME:
        for f in range(2):
            n = income(S, b, f)
            paid = n if n < s['dp_debt'][f] else int(s['dp_debt'][f])
            s['dp_debt'][f] -= paid       # the Dragonewts' price, paid with every DP received (event 12, L958)
            s['dp'][f] += n - paid
            s['dp_next'][f] = 0
        s['step'] = DS_REPLACE
        s['cursor'] = 0
    first = int(s['first_force'])
    while s['step'] == DS_REPLACE:
        if s['cursor'] >= 2:
            s['step'] = DS_PURCHASE
            s['cursor'] = 0
            break
        f = first if s['cursor'] == 0 else 1 - first
        if any_replacement(S, b, f):
            return pose(S, b, PH_REPLACE, f)
        s['cursor'] += 1
    while s['step'] == DS_PURCHASE:
        if s['cursor'] >= 2:
            s['step'] = DS_ASSIGN
            s['cursor'] = 0
            break
        f = first if s['cursor'] == 0 else 1 - first   # two-player
        if purchase_step(S, b, f):        # 18.9: replacements bought with DP (L323, L981)
            return True
        s['cursor'] += 1
    while s['cursor'] < 2:
        f = first if s['cursor'] == 0 else 1 - first
        if may_assign(S, b, f):
            return pose(S, b, PH_DIPLOMACY, f)
        s['cursor'] += 1
    s['step'] = 0
    s['cursor'] = 0
    s['stage'] = ST_TURN_START
    return False


@rules_jit
def mask_replace(S, b, p, mask):
    for u in range(units_end(S, b)):
        if may_replace(S, b, p, u):
            mask[A_UNIT + u] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_replace(S, b, p, a):
    """A_UNIT + u: dead unit u comes back, front side up, on top of the stack
    in p's capital, Boldhome or Furthest (L299); CH_DONE: he delays the rest
    (L474)."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        s['cursor'] += 1
        return False
    u = a - A_UNIT
    h = int(FORCE_CAPITAL[p])
    s['replaced'][p, int(U_REPLACEABLE[u])] += 1
    s['unit_side'][u] = SIDE_FRONT
    s['unit_force'][u] = p
    put_on_top(S, b, u, h)
    occupy(S, b, p, h)
    return False


@rules_jit
def mask_diplomacy(S, b, p, mask):
    s = S[b]
    for k in range(NUM_MAJORS):
        if s['faction_ally'][k] >= 0:
            continue
        for j in range(ASSIGN_AMOUNTS.shape[0]):
            if s['dp'][p] >= ASSIGN_AMOUNTS[j]:
                mask[A_CHOICE + CH_ASSIGN + j * NUM_MAJORS + k] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_diplomacy(S, b, p, a):
    """CH_ASSIGN + j * 7 + k: p assigns ASSIGN_AMOUNTS[j] of his Diplomacy
    Points to Major k, in secret (L979); CH_DONE: he has assigned what he
    will this game-turn, the rest kept (Interpretations 92)."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        s['cursor'] += 1
        return False
    c = a - A_CHOICE - CH_ASSIGN
    k = c % NUM_MAJORS
    n = int(ASSIGN_AMOUNTS[c // NUM_MAJORS])
    s['dp'][p] -= n
    s['dp_assigned'][p, k] += n
    return False


# ================================================================ random events 12 and 13 (L958-L959)
@rules_jit
def future_income(S, b):
    """The Diplomacy Points the schedule still gives a player after this
    game-turn: the most he may offer for the Dragonewts (event 12, L958)."""
    s = S[b]
    sc = int(s['scenario'])
    n = 0
    for t in range(int(s['turn']) + 1, int(s['max_turns']) + 1):
        n += int(DP_SCHEDULE[sc, t])
    return n


@rules_jit
def dragonewts_offer(S, b):
    """Random event 12 begins (L958): the Dragonewts, unallied, offer to ally;
    both players write their offers in secret, the first player then the
    second (``event_left`` 2, 1). Returns whether there is an auction: none
    without the diplomacy rules (no DP to offer) or once they are allied."""
    s = S[b]
    if not SCENARIO_DIPLOMACY[int(s['scenario'])] or s['faction_ally'][DRAGONEWTS] >= 0:
        return False
    for f in range(2):
        s['auction_bid'][f] = 0
    s['event_left'] = 2
    return True


@rules_jit
def auction_bidder(S, b):
    """Who writes an offer now: the first player, then the second."""
    s = S[b]
    first = int(s['first_force'])
    return first if s['event_left'] == 2 else 1 - first


@rules_jit
def mask_auction(S, b, p, mask):
    room = future_income(S, b) - int(S[b]['auction_bid'][p])
    for j in range(ASSIGN_AMOUNTS.shape[0]):
        if ASSIGN_AMOUNTS[j] <= room:
            mask[A_CHOICE + CH_BID + j] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_auction(S, b, p, a):
    """CH_BID + j: p's offer grows by ASSIGN_AMOUNTS[j] DP, never beyond what he
    is still scheduled to receive; CH_DONE: his offer is written. Both
    written, the higher offer allies the Dragonewts and owes its DP, paid
    with every DP received; equal offers ally no one (L958)."""
    s = S[b]
    if a != A_CHOICE + CH_DONE:
        s['auction_bid'][p] += ASSIGN_AMOUNTS[a - A_CHOICE - CH_BID]
        return False
    s['event_left'] -= 1
    if s['event_left'] > 0:
        return False
    lunar = int(s['auction_bid'][LUNAR])
    sartar = int(s['auction_bid'][1 - LUNAR])
    if lunar != sartar:
        w = LUNAR if lunar > sartar else 1 - LUNAR
        s['dp_debt'][w] += lunar if w == LUNAR else sartar
        ally(S, b, DRAGONEWTS, w, -1)
    return False


@rules_jit
def androgeus_to_the_highest(S, b):
    """Random event 13 (L959): both sides announce the DP assigned to Androgeus
    so far; the higher allies him, a tie allies no one."""
    s = S[b]
    k = ANDROGEUS_FACTION
    if s['faction_ally'][k] >= 0:
        return
    for f in range(2):
        s['dp_announced'][f, k] = s['dp_assigned'][f, k]
    if s['dp_assigned'][LUNAR, k] != s['dp_assigned'][1 - LUNAR, k]:
        ally(S, b, k, LUNAR if s['dp_assigned'][LUNAR, k] > s['dp_assigned'][1 - LUNAR, k] else 1 - LUNAR, -1)


# ================================================================ the Alliance Phase
@rules_jit
def emissary_target(S, b, f, u):
    """What unit u of force f, on the map, may seek as an emissary this
    Alliance Phase: a Minor Independent (its faction index) or a dragon
    (NUM_FACTIONS + its unit) residing where he stands, still unallied and out
    of play; -1 for none. Emissaries are Lunar or Sartar units, never allied
    ones (L993), and try once an Alliance Phase (Interpretations 95)."""
    s = S[b]
    if s['unit_where'][u] != UW_MAP or force_of(S, b, u) != f or s['unit_flags'][u] & UF_USED:
        return -1
    h = int(s['unit_hex'][u])
    if h == IVORY_PLINTH:
        # the Tusk Riders: no emissary but a blood sacrifice -- unit u, any of
        # f's but a disembodied spirit, offered by a magician of f there (L906)
        if s['faction_ally'][TUSK_FACTION] >= 0 or U_SPIRIT[u, side_of(S, b, u)] or not any_sacrificer(S, b, f, u):
            return -1
        return TUSK_FACTION
    if U_FORCE[u] != f:
        return -1
    if s['faction_ally'][PUPPETEERS_FACTION] < 0 and puppeteer_location(S, b, h):
        return PUPPETEERS_FACTION       # one of the 5 Illusory Armies, or where the Troop was found (L886)
    m = int(HEX_MINOR_HOME[h])
    if m >= 0 and s['faction_ally'][m] < 0:
        for v in range(NUM_UNITS):
            if U_FACTION[v] == m and s['unit_where'][v] == UW_OUT:
                return m
    d = int(HEX_DRAGONREST[h])
    if d >= 0 and s['unit_where'][d] == UW_OUT and s['unit_force'][d] < 0:
        return NUM_FACTIONS + d
    return -1


@rules_jit
def may_seek(S, b, f, k):
    """Force f may seek Major k's alliance now: unallied, not sought yet this
    phase, with at least its price assigned (L979, L1002)."""
    s = S[b]
    return s['faction_ally'][k] < 0 and not (s['majors_sought'] >> k) & 1 and \
        s['dp_assigned'][f, k] >= MAJOR_PRICE[k]


@rules_jit
def alliance_options(S, b, f):
    for k in range(NUM_MAJORS):
        if may_seek(S, b, f, k):
            return True
    for u in range(units_end(S, b)):
        if emissary_target(S, b, f, u) >= 0:
            return True
    return False


@rules_jit
def next_to_set_up(S, b, f):
    """The next unit of force f's newly allied Independents to set up, -1 if none."""
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_POOL and force_of(S, b, u) == f and U_FACTION[u] >= 0:
            return u
    return -1


@rules_jit
def alliance_phase(S, b):
    """The Alliance Phase (the driver's stage function; L176, L979, L985,
    L993): the set-up of the units of an Independent just allied, Keener Than
    placed by the other player, then the active player's next alliance
    attempt. Returns True if a decision is posed."""
    s = S[b]
    f = int(s['active'])
    if s['step'] == 0:
        for u in range(units_end(S, b)):
            s['unit_flags'][u] = 0
        s['majors_sought'] = 0
        s['step'] = 1
    while True:
        u = next_to_set_up(S, b, f)
        if u < 0:
            break
        if any_set_up_hex(S, b, f, u):
            s['cursor'] = u
            return pose(S, b, PH_ALLY_SETUP, f)
        # every hex of its territory holds enemy units: it cannot come (Interpretations 97)
        s['unit_where'][u] = UW_DEAD
    if s['unit_where'][KEENER_THAN] == UW_POOL:
        o = 1 - f
        if any_own_stack(S, b, o):
            return pose(S, b, PH_KEENER, o)
        s['unit_where'][KEENER_THAN] = UW_OUT       # no stack of his to join (Interpretations 97)
    if alliance_options(S, b, f):
        return pose(S, b, PH_ALLIANCE, f)
    end_alliance_phase(S, b)
    return False


@rules_jit
def end_alliance_phase(S, b):
    """The Alliance Phase ends: the movement phase follows (after the storm's
    flood, if this day brings it, L688)."""
    s = S[b]
    for u in range(units_end(S, b)):
        s['unit_flags'][u] &= ~UF_USED        # the emissaries' mark (the movement phase's flags are its own)
    s['step'] = 0
    s['stage'] = ST_MOVEMENT
    if s['exotic_effect'] == EX_FLOOD:
        s['stage'] = ST_EXOTIC
        s['step'] = EXS_DAY


@rules_jit
def ready(S, b, u):
    """Unit u, just come into play in its side's Alliance Phase, may move in
    the movement phase that follows (L985, L993): its MF in movement points,
    as ``movement.start_movement`` gives every unit."""
    s = S[b]
    s['unit_road'][u] = 0
    s['unit_mp'][u] = movement_allowance(S, b, u)


@rules_jit
def mask_alliance(S, b, p, mask):
    for k in range(NUM_MAJORS):
        if may_seek(S, b, p, k):
            mask[A_CHOICE + CH_SEEK + k] = 1
    for u in range(units_end(S, b)):
        if emissary_target(S, b, p, u) >= 0:
            mask[A_UNIT + u] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_alliance(S, b, p, a):
    """CH_SEEK + k: p calls out Major k and the points he assigned to it
    (public, ``dp_announced``): granted with more than the other player's,
    denied otherwise -- and the other player, with more, gains 5 DP with it
    (L979, L983). A_UNIT + u: unit u is sent as an emissary to the Minor
    Independent (or dragon) residing where it stands: the Emissary Table
    (L993-L998). CH_DONE: the phase ends."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        end_alliance_phase(S, b)
        return False
    o = 1 - p
    if a >= A_CHOICE:
        k = a - A_CHOICE - CH_SEEK
        s['majors_sought'] |= 1 << k
        mine = int(s['dp_assigned'][p, k])
        theirs = int(s['dp_assigned'][o, k])
        s['dp_announced'][p, k] = mine
        if mine > theirs:
            ally(S, b, k, p, -1)
        elif theirs > mine:
            s['dp_assigned'][o, k] += DENIED_BONUS
        return False
    u = a - A_UNIT
    target = emissary_target(S, b, p, u)
    s['unit_flags'][u] |= UF_USED
    if target == DELECTI_FACTION:
        # "the first emissary sent to Delecti automatically gains an alliance with
        # him", and becomes zombie 1 (L817-L819)
        s['faction_ally'][target] = p
        s['allied_turn'][target] = s['player_turn']
        s['unit_side'][DELECTI] = SIDE_FRONT
        put_on_top(S, b, DELECTI, int(s['unit_hex'][u]))
        ready(S, b, DELECTI)
        ally_delecti(S, b, p, u)
        ready(S, b, ZOMBIE_1)
        return False
    if target == DWARF_FACTION:
        # the Dwarf Luck Table instead of the Emissary Table (L853-L866)
        if dwarf_luck(S, b, p, u) == GIFT_ALLIES:
            s['faction_ally'][target] = p
            s['allied_turn'][target] = s['player_turn']
        ready_new(S, b, p, target)
        return False
    if target == TUSK_FACTION:
        s['cursor'] = u                         # the unit to be sacrificed; its magician next
        return pose(S, b, PH_SACRIFICE, p)
    if target == PUPPETEERS_FACTION and not puppeteer_draw(S, b, p, u, int(s['unit_hex'][u])):
        return False                        # a blank drawn from the cup: that Illusory Army goes (L886)
    roll = d6(S, b)
    if EMISSARY_SLAIN[roll]:
        h = s['unit_hex'][u]
        for v in range(units_end(S, b)):
            if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == h and force_of(S, b, v) == p:
                eliminate(S, b, v)          # heroes may make their heroic escape (L642)
        return False
    if not EMISSARY_GRANTED[roll]:
        return False
    if target >= NUM_FACTIONS:
        d = target - NUM_FACTIONS
        s['allied_turn'][DRAGONS_FACTION] = s['player_turn']
        place_dragon(S, b, p, d)    # at its dragonrest, where he stands; it may move and attack this turn (L839)
        return False
    if target == PUPPETEERS_FACTION:
        s['faction_ally'][target] = p
        s['allied_turn'][target] = s['player_turn']
        place_puppeteers(S, b, p)           # the Troop where they were found; the Illusory Armies his (L888)
        ready_new(S, b, p, target)
        return False
    ally(S, b, target, p, int(s['unit_hex'][u]))
    if target == HYDRA_FACTION:
        hydra_awakes(S, b, p)               # its chaotic MgF rolled once allied (L880)
    return False


@rules_jit
def ready_new(S, b, f, k):
    """Independent k's units that force f brought on the map this Alliance
    Phase may move in the movement phase that follows (L993)."""
    s = S[b]
    for v in range(units_end(S, b)):
        if U_FACTION[v] == k and s['unit_where'][v] == UW_MAP and force_of(S, b, v) == f and s['unit_mp'][v] == 0:
            ready(S, b, v)


@rules_jit
def sacrificer(S, b, f, m, victim):
    """Unit m of force f may sacrifice ``victim`` at the Ivory Plinth: a magician
    (it has a spirit or agent) stacked with it (L906)."""
    s = S[b]
    return m != victim and U_BOUND[m] >= 0 and s['unit_where'][m] == UW_MAP and force_of(S, b, m) == f \
        and s['unit_hex'][m] == s['unit_hex'][victim]


@rules_jit
def any_sacrificer(S, b, f, victim):
    for m in range(units_end(S, b)):
        if sacrificer(S, b, f, m, victim):
            return True
    return False


@rules_jit
def mask_sacrifice(S, b, p, mask):
    victim = int(S[b]['cursor'])
    for m in range(units_end(S, b)):
        if sacrificer(S, b, p, m, victim):
            mask[A_UNIT + m] = 1


@rules_jit
def act_sacrifice(S, b, p, a):
    """A_UNIT + m: magician m sacrifices unit ``cursor`` to the Tusk Riders: on
    2-6 they ally and appear in the hex (L906-L908, ``minors.blood_sacrifice``)."""
    s = S[b]
    if not SACRIFICE_DENIED[blood_sacrifice(S, b, p, a - A_UNIT, int(s['cursor']))]:
        s['faction_ally'][TUSK_FACTION] = p
        s['allied_turn'][TUSK_FACTION] = s['player_turn']
        ready_new(S, b, p, TUSK_FACTION)
    return False


@rules_jit
def evict(S, b, h, f):
    """Units not of force f at hex h, where f's new ally sets up: herds among
    them are captured, the rest eliminated (heroes may make their heroic
    escape) (L740, L985)."""
    s = S[b]
    for v in range(units_end(S, b)):
        if s['unit_where'][v] != UW_MAP or s['unit_hex'][v] != h or force_of(S, b, v) == f:
            continue
        if U_HERD[v]:
            capture(S, b, v, f)
        else:
            eliminate(S, b, v)


@rules_jit
def ally(S, b, k, f, home):
    """Independent k (``unitdata.FACTIONS`` index) allies with force f: its
    counters out of play become f's (L985), each where its rules put it (see
    the module docstring). A Major's units still to set up wait in the pool
    (``next_to_set_up``); a Minor Independent's appear at ``home``, the hex
    where it resides and its emissary stands (L998: it has no territory,
    Interpretations 95)."""
    s = S[b]
    s['faction_ally'][k] = f
    s['allied_turn'][k] = s['player_turn']
    cap = int(FACTION_CAPITAL[k])
    if cap >= 0 and k < NUM_MAJORS:
        evict(S, b, cap, f)
    for u in range(units_end(S, b)):
        if U_FACTION[u] != k or s['unit_where'][u] != UW_OUT:
            continue
        if u == GOBLINS or u == HELL_HOUND:
            continue          # the Goblins come with the Cloak's end (L752); the Hound with Ethilrist (L750)
        if u == KEENER_THAN:
            s['unit_force'][u] = 1 - f      # the other player takes him (L756)
            s['unit_where'][u] = UW_POOL
            continue
        if u == CLOAK_OF_DARKNESS:
            s['unit_force'][u] = f          # kept off the board until used (L750)
            continue
        s['unit_force'][u] = f
        s['unit_side'][u] = SIDE_FRONT
        if U_MAGICIAN[u] >= 0 or U_ASSASSIN[u]:
            s['unit_where'][u] = UW_HOLDING     # spirits, agents and assassins (L416, L924)
        elif U_HOME_CITY[u] >= 0:
            h = int(CITY_HEX[U_HOME_CITY[u]])
            evict(S, b, h, f)
            put_on_top(S, b, u, h)          # the dragonewts on their home cities (L740)
            occupy(S, b, f, h)
            ready(S, b, u)
        elif u == BLACK_DRAGON:
            place_dragon(S, b, f, u)        # on the dragonrest near Cliffhome (L768)
        elif k == ANDROGEUS_FACTION:
            s['unit_where'][u] = UW_ENTERING        # he force marches in (L800)
            s['unit_entry'][u] = ENTRY_SARTAR_SOUTH_EDGE if f != LUNAR else ENTRY_IMPERIAL_EDGE
        elif home >= 0:
            put_on_top(S, b, u, home)
            ready(S, b, u)              # a Minor's units move in the following movement phase (L993)
        else:
            s['unit_where'][u] = UW_POOL



@rules_jit
def set_up_hex(S, b, f, u, h):
    """Unit u of force f's new ally may be set up on hex h: in its Major's
    territory (L985), not a lake, no enemy units there (L985), not closed by
    the scenario."""
    k = int(U_FACTION[u])
    if HEX_MAJOR[h] != k or HEX_TERRAIN[h] == TERRAIN_LAKE or shut(S, b, h):
        return False
    held = hex_force(S, b, h)
    return held < 0 or held == f


@rules_jit
def any_set_up_hex(S, b, f, u):
    for h in range(NUM_HEXES):
        if set_up_hex(S, b, f, u, h):
            return True
    return False


@rules_jit
def mask_ally_setup(S, b, p, mask):
    u = int(S[b]['cursor'])
    for h in range(NUM_HEXES):
        if set_up_hex(S, b, p, u, h):
            mask[A_HEX + h] = 1


@rules_jit
def act_ally_setup(S, b, p, a):
    """A_HEX + h: the unit being set up goes on top of the stack at h; Sir
    Ethilrist brings the Hound, stacked with him (L750)."""
    s = S[b]
    u = int(s['cursor'])
    h = a - A_HEX
    put_on_top(S, b, u, h)
    occupy(S, b, p, h)
    ready(S, b, u)
    if u == ETHILRIST and s['unit_where'][HELL_HOUND] == UW_OUT and s['faction_ally'][U_FACTION[u]] == p:
        s['unit_force'][HELL_HOUND] = p
        s['unit_side'][HELL_HOUND] = SIDE_FRONT
        put_on_top(S, b, HELL_HOUND, h)
        ready(S, b, HELL_HOUND)
    return False


@rules_jit
def any_own_stack(S, b, f):
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and force_of(S, b, u) == f:
            return True
    return False


@rules_jit
def mask_keener(S, b, p, mask):
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and force_of(S, b, u) == p:
            mask[A_HEX + s['unit_hex'][u]] = 1


@rules_jit
def act_keener(S, b, p, a):
    """A_HEX + h: Keener Than joins p's stack at h (L756)."""
    s = S[b]
    s['unit_side'][KEENER_THAN] = SIDE_FRONT
    put_on_top(S, b, KEENER_THAN, a - A_HEX)
    return False
