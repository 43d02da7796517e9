"""Per-seat observation tensors for Dragon Pass.

The vector is the blocks of :data:`BLOCKS` in order (``LAYOUT`` gives each
block's offset and shape; the ``G_*``, ``U_*`` and ``F_*`` constants name
their feature columns):

* ``board``: a ``grid`` of the map's 45 x 34 hexes in reading order (row by
  row, ``cell = row * 45 + column``; odd columns, counted from 0, half a hex
  lower, ``hex_layout="flat-odd-q"``), with five dynamic planes ``G_*``:
  each side's counters and CF in the hex (a screened stack: whether its top
  counter exerts a zone of control), and the hexes the pending decision is
  about. The grid holds what a convolution needs to see where things are;
  the detail of every counter is in ``units``. (Game version 3 had 18 planes,
  27,540 floats that were mostly zeros and set the observation's pace;
  version 6 keeps the grid at 7,650.) The static map -- terrain,
  structures, rivers and fords, ridges and roads as hexside planes,
  territories -- is the same in every observation, so it is not repeated
  here: the spec serves it once (``GameSpec.constants["board_static"]``,
  the planes ``S_*``, cell for cell beside ``board``).
* ``units``: one row per counter (``constants.UNIT_IDS``), ``U_*`` columns:
  what changes in play. What each counter is (its printed factors on both
  sides, rank, arm, force) is served once too: ``GameSpec.constants
  ["units_static"]``, the columns ``K_*``, row for row beside ``units``.
* ``flat``: the scenario, the turn, the pending decision, the battle's numbers,
  the moon, the Crimson Bat, storms, the earthquake, who controls each
  fortress and whether a quake damaged it, and diplomacy: the observer's
  Diplomacy Points and what he assigned to each Major Independent, the
  points each player called out seeking alliances, who is allied with each
  Independent, the replacements owed.

Seats are rotated: "own" is the observer's force, "enemy" the other; with
three players (18.8) "enemy" is either opponent, and where one value stands
for the enemy the first opponent (the next force in force order) reads -1
and the second -0.5 (``U_THIRD`` marks the second's counters).

Hidden in the Full Game (L979): the Diplomacy Points the other player holds
and has assigned to each Major Independent -- he calls out his assignment
only when he seeks an alliance (L979), and a denied seeker learns no more.

Hidden with the screening option (L452): the contents of enemy stacks that
are not in the battle being fought. Their presence is seen (the counters are
on the map), and so is whether they exert a zone of control (the top
counter shows it, L460: ``G_ENEMY_UNITS`` -1, or -0.5 if not); what and how
many units they hold, their sides and positions in ``units`` are not written. Without screening everything is open.
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from . import rules as R
from .board import (
    HEX_FORD, HEX_RIVER, HEX_STRUCTURE, HEX_TERRAIN, HEX_TERRITORY, NUM_HEXES, ROAD_PRIMARY,
    ROAD_SECONDARY, SIDE_RIDGE, SIDE_ROAD, STRUCTURE_IDS, TERRAIN_IDS, TERRITORY_IDS,
)
from .constants import (
    LUNAR, NUM_STAGES, NUM_UNITS, SARTAR, SCENARIOS, RANK_HERO, RANK_SUPERHERO, SIDE_BACK, UF_ADVANCED, UF_FOUGHT, UF_GROUP, UF_MOVED, UF_RETREATED,
    UF_USED, UW_COMMITTED, UW_DEAD, UW_ENTERING, UW_ESCAPING, UW_HOLDING, UW_MAP, UW_POOL, UW_SUPPORT,
)
from .data import MAP

COLUMNS, ROWS = MAP.columns, MAP.rows
OBS_HIGH = 8.0
"""Largest value of any observation float (counts are scaled and clamped)."""

CELL_OF_HEX = np.array([(h % ROWS) * COLUMNS + h // ROWS for h in range(NUM_HEXES)], np.int64)
"""The ``board`` cell of each hex (board index ``h = column * rows + row``)."""

# ---- board: dynamic planes
(G_OWN_UNITS, G_OWN_CF, G_ENEMY_UNITS, G_ENEMY_CF, G_DECISION) = range(5)
BOARD_PLANES = 5
"""G_OWN_UNITS: the observer's counters in the hex / 3; G_OWN_CF: their CF
total / 10; G_ENEMY_UNITS, G_ENEMY_CF: the same of a stack of another force
whose contents the observer knows; for one whose contents are screened
(L452), G_ENEMY_UNITS is -1 if its top counter exerts a zone of control
(which it shows, L460) and -0.5 if not, and G_ENEMY_CF 0; G_DECISION: the
hexes the pending decision is about -- the selected stack or moving group
(1), the stack being arranged (0.5), in a battle its attacking stacks (1),
its defending stacks (-1) and the hexes its attackers vacated (0.25), the
earthquake's fracture hexes laid so far (0.75, L720), the Pillar of Fire's
hexes named so far (0.75, L764).
Counts and CF are clamped to OBS_HIGH. Zones of control are read from the
stacks (each row's U_ZOC, a screened stack's -1); per-unit detail (majors,
disrupted, missile factors, cavalry) is in the ``units`` rows and
``units_static``."""

# ---- the static planes (GameSpec.constants["board_static"])
S_TERRAIN = 0                              # one-hot by board.TERRAIN_IDS
S_STRUCTURE = S_TERRAIN + len(TERRAIN_IDS)  # one-hot by board.STRUCTURE_IDS
S_RIVER = S_STRUCTURE + len(STRUCTURE_IDS)  # a river hex (its restrictions apply)
S_FORD = S_RIVER + 1                        # a ford or headwaters (L371)
S_RIDGE = S_FORD + 1                        # 6 planes: crossing toward direction d+1 climbs (1) / descends (-1)
S_ROAD = S_RIDGE + 6                        # 6 planes: a primary (1) or secondary (0.5) road toward direction d+1
S_TERRITORY = S_ROAD + 6                    # one-hot by board.TERRITORY_IDS
STATIC_PLANES = S_TERRITORY + len(TERRITORY_IDS)


def static_planes():
    """The ``(cells, STATIC_PLANES)`` float32 static map (see the module docstring)."""
    out = np.zeros((NUM_HEXES, STATIC_PLANES), np.float32)
    for h in range(NUM_HEXES):
        c = CELL_OF_HEX[h]
        out[c, S_TERRAIN + HEX_TERRAIN[h]] = 1
        if HEX_STRUCTURE[h] >= 0:
            out[c, S_STRUCTURE + HEX_STRUCTURE[h]] = 1
        out[c, S_RIVER] = HEX_RIVER[h] and not HEX_FORD[h]
        out[c, S_FORD] = HEX_FORD[h]
        for d in range(1, 7):
            out[c, S_RIDGE + d - 1] = SIDE_RIDGE[h, d]
            road = SIDE_ROAD[h, d]
            out[c, S_ROAD + d - 1] = 1.0 if road & ROAD_PRIMARY else 0.5 if road & ROAD_SECONDARY else 0.0
        out[c, S_TERRITORY + HEX_TERRITORY[h]] = 1
    return out


# ---- units: one row per counter (what changes in play)
(U_VALID, U_OWN, U_ENEMY, U_SEEN, U_COLUMN, U_ROW, U_CF, U_DISRUPTED, U_POOL, U_DEAD, U_ESCAPING, U_MOVED,
 U_GROUP, U_MP, U_HEIGHT, U_IN_BATTLE, U_FOUGHT, U_SELECTED, U_SCAPEGOAT, U_ENTERING, U_HOLDING, U_COMMITTED,
 U_SUPPORT, U_ZOC, U_THIRD) = range(25)
UNIT_FEATURES = 25
"""U_VALID: the counter is in this scenario; U_OWN / U_ENEMY: whose (neither:
no player controls it, an Independent not allied); U_THIRD: with three
players (18.8), U_ENEMY and of the observer's second opponent, the player
two places after him in force order (lunar, sartar, tarsh; the first
opponent is the next one); U_SEEN: its place and
side are known to the observer (screening hides the enemy's outside combat);
U_COLUMN, U_ROW: its hex / 45, / 34 (-1 off the map); U_CF / 10 of the side
up (a cyclic CF at the moon's value where it stands, L662); U_DISRUPTED: its
back is up (a superhero's is its Berserker Rage); U_POOL / U_DEAD /
U_ESCAPING: waiting to deploy, in the dead pile, to roll a heroic escape;
U_MOVED, U_GROUP, U_MP (movement points left / 10): this movement phase;
U_HEIGHT: place in its stack from the top / 10; U_IN_BATTLE: in the battle
being fought (1), fought already (0.5); U_FOUGHT: fought in this melee
(L571); U_SELECTED: the unit the pending decision is about (a missile firer,
a retreating or advancing unit, an escaped hero, a superhero choosing its
scapegoat); U_SCAPEGOAT: a berserk superhero's scapegoat (the marker is on
its stack for both players to see, L654); U_ENTERING: a reinforcement or
replacement still off the board (L474); U_HOLDING / U_COMMITTED / U_SUPPORT:
a spirit or agent in its holding box, committed to attack the stack at its
column and row (L496; where its magician stands is not shown, L496), giving
magical support there (L604; hidden, like its stack, from the enemy with
screening); U_ZOC: it is the top counter of its stack and the stack exerts a
zone of control into the six hexes around it (L460).

What a counter is -- its printed factors on both sides, its rank, arm and
force -- is the same in every observation: the spec serves it once
(``GameSpec.constants["units_static"]``, the columns ``K_*``, row for row
beside ``units``)."""

# ---- the counters' printed facts (GameSpec.constants["units_static"])
(K_CF, K_MGF, K_MF, K_RF, K_LF, K_MISSILE, K_MAJOR) = range(7)
"""Per side (front at 0, back at K_BACK): CF / 10 (a cyclic CF: 0, see
K_CYCLIC; a dragon's "=": 0), MgF / 10 (infinity: OBS_HIGH, chaotic:
negative), MF / 10, RF / 10 (-0.1 blank), LF / 3, Missile Factors / 4, major
(L127)."""
K_BACK = 7
(K_HERO, K_SUPERHERO, K_CAVALRY, K_SPIRIT, K_MAGICIAN, K_AGENT, K_ASSASSIN, K_CYCLIC, K_LUNAR, K_SARTAR,
 K_INDEPENDENT) = range(2 * K_BACK, 2 * K_BACK + 11)
"""K_SPIRIT: a disembodied spirit (blank CF); K_MAGICIAN: it has a spirit or
agent; K_AGENT: a physical magician's agent; K_CYCLIC: a factor is cyclic
(L398); K_LUNAR / K_SARTAR / K_INDEPENDENT: the force it belongs to."""
STATIC_UNIT_FEATURES = K_INDEPENDENT + 1


def static_units():
    """The ``(units, STATIC_UNIT_FEATURES)`` float32 printed facts of every counter."""
    out = np.zeros((NUM_UNITS, STATIC_UNIT_FEATURES), np.float32)
    for u in range(NUM_UNITS):
        for sd in range(2):
            k = sd * K_BACK
            out[u, k + K_CF] = R.U_CF[u, sd] / 10.0
            mgf = R.U_MGF[u, sd]
            out[u, k + K_MGF] = OBS_HIGH if mgf >= R.INFINITE_MGF else mgf / 10.0
            out[u, k + K_MF] = R.U_MF[u, sd] / 10.0
            out[u, k + K_RF] = R.U_RF[u, sd] / 10.0
            out[u, k + K_LF] = R.U_LF[u, sd] / 3.0
            out[u, k + K_MISSILE] = min(R.U_MISSILE[u, sd] / 4.0, OBS_HIGH)
            out[u, k + K_MAJOR] = R.U_MAJOR[u, sd]
        out[u, K_HERO] = R.U_RANK[u] == RANK_HERO
        out[u, K_SUPERHERO] = R.U_RANK[u] == RANK_SUPERHERO
        out[u, K_CAVALRY] = R.U_CAVALRY[u]
        out[u, K_SPIRIT] = R.U_SPIRIT[u, 0]
        out[u, K_MAGICIAN] = R.U_BOUND[u] >= 0
        out[u, K_AGENT] = R.U_AGENT[u]
        out[u, K_ASSASSIN] = R.U_ASSASSIN[u]
        out[u, K_CYCLIC] = R.U_CYCLIC[u]
        f = int(R.U_FORCE[u])
        out[u, K_LUNAR if f == LUNAR else K_SARTAR if f == SARTAR else K_INDEPENDENT] = 1.0
    return out


# ---- flat
F_SCENARIO = 0                        # one-hot, constants.SCENARIOS
F_TURN = F_SCENARIO + len(SCENARIOS)  # game-turn / the scenario's turns
F_ACTIVE = F_TURN + 1                 # 1 if the observer is the active player
F_FIRST = F_ACTIVE + 1                # 1 if the observer plays first each game-turn
F_SCREENING = F_FIRST + 1
F_RAIN = F_SCREENING + 1
F_PHASE = F_RAIN + 1                  # one-hot of the pending decision (rules.PH_*)
F_STAGE = F_PHASE + R.LAST_PHASE + 1  # one-hot of the stage (constants.ST_*)
F_STEP = F_STAGE + NUM_STAGES         # one-hot of the battle step (combat.CS_*)
F_ATT_TOTAL = F_STEP + R.CS_END + 1   # the attack's CF total / 40
F_DEF_TOTAL = F_ATT_TOTAL + 1         # the counter-attack's / 40
F_LOSS = F_DEF_TOTAL + 1              # the CF loss still to take / 20
F_ELIM = F_LOSS + 1                   # missile eliminations / disruptions still to take
F_DISRUPT = F_ELIM + 1
F_OWN_FORTRESSES = F_DISRUPT + 1      # Sartar fortresses controlled / 7
F_ENEMY_FORTRESSES = F_OWN_FORTRESSES + 1
F_MOON = F_ENEMY_FORTRESSES + 1       # one-hot of the Red Moon's phase (rules.MOON_PHASE_IDS); none: no phase
F_GLOWLINE = F_MOON + R.NUM_MOON_PHASES  # 1 while the Glowline lasts (L143), in a scenario with a phase
F_REVEALED = F_GLOWLINE + 1           # with screening: the Crimson Bat's, Argrath's location revealed (L666, L668)
F_BAT = F_REVEALED + 2                # the Crimson Bat: Black and Dying days missed / 2, units it still needs today / 24,
                                      # Lunar units its spirit still takes / 24 (L698-L708)
F_STORM = F_BAT + 3                   # the Type 2 storm: its day / 3 (1, 2 rain; 3 flood) (L688); it rains
F_FREEZE = F_STORM + 2                # Ironhoof froze the cavalry: this game-turn; once this game (L782)
F_QUAKE = F_FREEZE + 2                # the Earth-Shaker's Cult's earthquake: used this game; its type / 2 while
                                      # its fracture hexes are laid (L720)
F_CLOAK = F_QUAKE + 2                 # the Cloak of Darkness (L752): cast this game; its cloud lasts; game-turns
                                      # it still lasts / 3; the Cloak's hex column and row / the map's (0 none)
F_KEENER = F_CLOAK + 5                # Keener Than took the Hound: 1 if he must release it on a Doom Run in the
                                      # coming Exotic Magic Phase of his player-turn (L756)
F_FORTRESS = F_KEENER + 1             # each fortress (rules.FORTRESS_HEX order): +1 the observer controls it,
                                      # -1 the enemy does (L217)
F_SITE = F_FORTRESS + R.FORTRESS_HEX.shape[0]  # each victory site that is no fortress (rules.SITE_HEX:
                                      # Rich Post, Wintertop, Wild Temple): +1 the observer controls it, -1 the enemy (L293)
F_DAMAGED = F_SITE + R.SITE_HEX.shape[0]  # each fortress: 1 if an earthquake badly damaged it (L720)
F_PILLAR = F_DAMAGED + R.FORTRESS_HEX.shape[0]  # 1 once Cragspider unleashed her Pillar of Fire (once a game, L764)
F_NEWT_CITY = F_PILLAR + 1  # each Dragonewt City 1-8 (rules.CITY_HEX): 1 if the
                                      # observer's units ever entered it, then 1 if an enemy's did: the
                                      # dragonewts of the other side no longer resurrect there (L742)
F_DP = F_NEWT_CITY + 2 * R.NEWT_CITIES  # diplomacy (L975-L991): the observer's Diplomacy Points held / 50;
                                      # each player's DP gained or lost next game-turn / 10 (assassins, L932-L947)
F_ASSIGNED = F_DP + 3                 # each Major (rules.MAJORS): the DP the observer assigned to it / 50 -- the
                                      # other player's are his secret (L979)
F_ANNOUNCED = F_ASSIGNED + R.NUM_MAJORS  # each Major: the DP called out seeking its alliance, + 1, / 50 (0: never),
                                      # the observer's 7 then the enemy's 7 (public, L979)
F_ALLY = F_ANNOUNCED + 2 * R.NUM_MAJORS  # each Independent (unitdata.FACTIONS): +1 allied with the observer, -1
                                      # with the enemy, 0 unallied (a dragon: its unit row)
F_REPLACEMENTS = F_ALLY + R.NUM_FACTIONS  # replacements owed (L299) / 3: the observer's infantry, cavalry, then
                                      # the enemy's (dead piles are public)
F_FIRST_DEPLOYER = F_REPLACEMENTS + 4  # 1 if the observer was chosen to deploy first (18.7's tie-break, L301)
F_EVENTS = F_FIRST_DEPLOYER + 1       # the Random Events Option in use; this game-turn's event roll / 66; the
                                      # Glowline failed this game-turn (event 31) (L950-L973)
F_MINORS = F_EVENTS + 3               # the Independents' public state: the Spirit of Movement eliminated to double
                                      # the movement (L898); the Hydra's MgF / -6 and the units it still must eat / 6
                                      # (L880); zombies owed / 12 (L821); the cup's blanks drawn / 4 and the Puppeteers
                                      # found (L886); each dragon's negation of the Glowline (L851, 4)
F_AUCTION = F_MINORS + 6 + len(R.DRAGON_UNITS)  # random event 12 (L958): the observer's offer for the Dragonewts
                                      # / 50, the enemy's once both are written (secret before); the DP each still
                                      # owes for them / 50, the observer's then the enemy's
F_CAPITALS = F_AUCTION + 4            # the players' capitals (rules.FORCE_CAPITAL: Furthest, Boldhome, Wintertop):
                                      # +1 the observer controls it, -1 his (first) opponent, -0.5 his second
                                      # opponent in 18.8, 0 no player (L313, L987)
F_JACK = F_CAPITALS + len(R.FORCE_CAPITAL)  # a dragon is away fetching Hungry Jack (L870); game-turns before it
                                      # may come back / 2 (public: it flew off the West edge)
FLAT_SIZE = F_JACK + 2

BLOCKS = (("board", (NUM_HEXES, BOARD_PLANES)), ("units", (NUM_UNITS, UNIT_FEATURES)), ("flat", (FLAT_SIZE,)))


def _layout():
    out, off = {}, 0
    for name, shape in BLOCKS:
        out[name] = (off, shape)
        off += int(np.prod(shape))
    return out, off


LAYOUT, OBS_SIZE = _layout()
BOARD_OFF = LAYOUT["board"][0]
UNITS_OFF = LAYOUT["units"][0]
FLAT_OFF = LAYOUT["flat"][0]


@rules_jit
def in_battle_hex(S, b, h):
    s = S[b]
    for k in range(s['bat_att'].shape[0]):
        if s['bat_att'][k] == h or s['bat_def'][k] == h:
            return True
    return False


@rules_jit
def hidden_from(S, b, u, me):
    """Unit u's place and factors are hidden from seat ``me``: an enemy unit on
    the map, with screening, outside the battle being fought (L452)."""
    s = S[b]
    f = R.force_of(S, b, u)
    if not s['screening'] or f == me or f < 0 or s['unit_where'][u] != UW_MAP:
        return False        # a neutral unit is no one's secret (a stampeded herd, L594)
    h = s['unit_hex'][u]
    for k in range(s['bat_att'].shape[0]):
        if s['bat_att'][k] == h or s['bat_def'][k] == h:
            return False
    if s['phase'] == R.PH_ASSASSIN and s['to_play'] == me and h == s['exotic_hex']:
        return False      # its assassin scouted the stack: he examines it (L924, L932)
    if (u == R.CRIMSON_BAT and s['revealed'] & R.REVEAL_BAT) or (u == R.ARGRATH_UNIT and s['revealed'] & R.REVEAL_ARGRATH):
        return False      # its place revealed (L666, L668)
    return True


@rules_jit
def _put(obs, i, v):
    obs[i] = v if v < OBS_HIGH else OBS_HIGH


@rules_jit
def _link_stacks(S, b, head, below):
    """Link the units on the map by hex: ``head[h]`` one unit at h, ``below[u]``
    the next (-1 ends the list); only the occupied hexes' heads are written."""
    s = S[b]
    for u in range(R.units_end(S, b)):
        if s['unit_where'][u] == UW_MAP:
            head[s['unit_hex'][u]] = -1
    for u in range(R.units_end(S, b)):
        if s['unit_where'][u] == UW_MAP:
            h = s['unit_hex'][u]
            below[u] = head[h]
            head[h] = u


@rules_jit
def _stack_planes(S, b, me, zoc, first, below, obs, base):
    """The board planes of one stack (its units linked from ``first``), written
    once, when its top counter is read; ``zoc``: the top exerts a zone of
    control. The stack is its player's (a neutral herd in it, or a stack of
    neutral herds alone, is seen in the unit rows only, L594)."""
    screened = False
    n = 0
    cf = 0.0
    owner = -1
    v = first
    while v >= 0:
        f = R.force_of(S, b, v)
        if f >= 0 and owner < 0:
            owner = f
        if hidden_from(S, b, v, me):
            screened = True
        elif f >= 0:
            n += 1
            cf += np.float64(R.cf_halves(S, b, v)) / 20.0
        v = below[v]
    if screened:
        obs[base + G_ENEMY_UNITS] = -1.0 if zoc else -0.5
        return
    if owner < 0:
        return
    own = owner == me
    _put(obs, base + (G_OWN_UNITS if own else G_ENEMY_UNITS), n / 3.0)
    _put(obs, base + (G_OWN_CF if own else G_ENEMY_CF), cf)


@rules_jit
def _relative(o, me, enemy, third):
    """Force o from the observer's side: +1 his, -1 his (first) opponent's,
    -0.5 his second opponent's (18.8), 0 no player's."""
    return 1.0 if o == me else -1.0 if o == enemy else -0.5 if o == third and third >= 0 else 0.0


@rules_jit
def observe_one(S, b, me, obs):
    """obs = game b as seat ``me`` may know it (see the module docstring)."""
    s = S[b]
    for i in range(obs.shape[0]):
        obs[i] = 0.0
    n_players = R.players(S, b)
    enemy = (me + 1) % n_players          # the opponent; with three players, the first of the two
    third = (me + 2) % n_players if n_players == 3 else -1
    head = np.empty(NUM_HEXES, np.int16)
    below = np.empty(NUM_UNITS, np.int16)
    _link_stacks(S, b, head, below)
    for u in range(R.units_end(S, b)):
        where = s['unit_where'][u]
        row = UNITS_OFF + u * UNIT_FEATURES
        if where == 0:
            if R.SCENARIO_DIPLOMACY[int(s['scenario'])] and R.U_FACTION[u] >= 0:
                # an Independent not (yet) in play: available for alliance, unallied (L736, L806)
                obs[row + U_VALID] = 1.0
                obs[row + U_COLUMN] = -1.0
                obs[row + U_ROW] = -1.0
            continue
        sd = int(s['unit_side'][u])
        force = R.force_of(S, b, u)
        own = force == me
        obs[row + U_VALID] = 1.0
        if own:
            obs[row + U_OWN] = 1.0
        elif force >= 0:
            obs[row + U_ENEMY] = 1.0
            obs[row + U_THIRD] = force == third
        obs[row + U_POOL] = where == UW_POOL
        obs[row + U_DEAD] = where == UW_DEAD
        obs[row + U_ESCAPING] = where == UW_ESCAPING
        obs[row + U_ENTERING] = where == UW_ENTERING
        cf = np.float64(R.cf_halves(S, b, u)) / 20.0
        if where == UW_MAP:
            h = s['unit_hex'][u]
            base = BOARD_OFF + CELL_OF_HEX[h] * BOARD_PLANES
            height = 0
            v = head[h]
            while v >= 0:
                if s['unit_order'][v] > s['unit_order'][u]:
                    height += 1
                v = below[v]
            zoc = height == 0 and R.exerts_zoc(S, b, u)
            if height == 0:
                _stack_planes(S, b, me, zoc, head[h], below, obs, base)
            if hidden_from(S, b, u, me):
                continue
            obs[row + U_COLUMN] = (h // ROWS) / COLUMNS
            obs[row + U_ROW] = (h % ROWS) / ROWS
            obs[row + U_HEIGHT] = height / 10.0
            obs[row + U_ZOC] = zoc
        elif where == UW_COMMITTED or where == UW_SUPPORT:
            if where == UW_SUPPORT and not own and s['screening'] and not in_battle_hex(S, b, s['unit_hex'][u]):
                continue
            h = s['unit_hex'][u]
            obs[row + U_COLUMN] = (h // ROWS) / COLUMNS
            obs[row + U_ROW] = (h % ROWS) / ROWS
            obs[row + (U_COMMITTED if where == UW_COMMITTED else U_SUPPORT)] = 1.0
        else:
            obs[row + U_COLUMN] = -1.0
            obs[row + U_ROW] = -1.0
            obs[row + U_HOLDING] = where == UW_HOLDING
        obs[row + U_SEEN] = 1.0
        obs[row + U_CF] = cf
        obs[row + U_DISRUPTED] = sd == SIDE_BACK
        flags = s['unit_flags'][u]
        obs[row + U_MOVED] = (flags & UF_MOVED) != 0
        obs[row + U_GROUP] = (flags & UF_GROUP) != 0
        obs[row + U_MP] = s['unit_mp'][u] / 20.0
        obs[row + U_FOUGHT] = (flags & UF_FOUGHT) != 0
        if where == UW_MAP:
            if in_battle_hex(S, b, s['unit_hex'][u]) and not flags & UF_RETREATED:
                obs[row + U_IN_BATTLE] = 1.0
            elif flags & (UF_USED | UF_ADVANCED):
                obs[row + U_IN_BATTLE] = 0.5
    # the decision's hexes
    for k in range(s['bat_att'].shape[0]):
        if s['bat_att'][k] >= 0:
            obs[BOARD_OFF + CELL_OF_HEX[s['bat_att'][k]] * BOARD_PLANES + G_DECISION] = 1.0
        if s['bat_def'][k] >= 0:
            obs[BOARD_OFF + CELL_OF_HEX[s['bat_def'][k]] * BOARD_PLANES + G_DECISION] = -1.0
        if s['bat_vacated'][k] >= 0:
            obs[BOARD_OFF + CELL_OF_HEX[s['bat_vacated'][k]] * BOARD_PLANES + G_DECISION] = 0.25
    if s['sel_hex'] >= 0:
        obs[BOARD_OFF + CELL_OF_HEX[s['sel_hex']] * BOARD_PLANES + G_DECISION] = 1.0
    if s['arr_hex'] >= 0:
        obs[BOARD_OFF + CELL_OF_HEX[s['arr_hex']] * BOARD_PLANES + G_DECISION] = 0.5
    for k in range(s['fracture_hexes'].shape[0]):
        if s['fracture_hexes'][k] >= 0:
            obs[BOARD_OFF + CELL_OF_HEX[s['fracture_hexes'][k]] * BOARD_PLANES + G_DECISION] = 0.75
    for k in range(s['pillar_hexes'].shape[0]):
        if s['pillar_hexes'][k] >= 0:
            obs[BOARD_OFF + CELL_OF_HEX[s['pillar_hexes'][k]] * BOARD_PLANES + G_DECISION] = 0.75
    ph = int(s['phase'])
    focus = -1
    for v in range(R.units_end(S, b)):
        g = s['unit_scapegoat'][v]
        if g >= 0:
            obs[UNITS_OFF + g * UNIT_FEATURES + U_SCAPEGOAT] = 1.0
    if ph == R.PH_MISSILE_TARGET or ph == R.PH_RETREAT_HEX or ph == R.PH_ESCAPE_HEX or ph == R.PH_SCAPEGOAT \
            or ph == R.PH_ENTER_HEX or ph == R.PH_FORCE_MARCH or ph == R.PH_COMMIT_HEX or ph == R.PH_SAVE \
            or ph == R.PH_SUPPORT_HEX or ph == R.PH_EXOTIC_TARGET or ph == R.PH_SUMMON_HEX or ph == R.PH_ASSASSIN \
            or ph == R.PH_FRACTURE or ph == R.PH_PILLAR or ph == R.PH_ALLY_SETUP or ph == R.PH_SACRIFICE \
            or ph == R.PH_GIANT_STEP:
        focus = int(s['cursor'])
    elif ph == R.PH_ZOMBIE_MARCH:
        focus = int(s['zombie_lead'])
    elif ph == R.PH_ALCHEMY_FACTOR:
        focus = int(s['alchemy_unit'])
    elif ph == R.PH_ADVANCE_HEX or ph == R.PH_ADVANCE_EXT:
        focus = int(s['adv_unit'])
    if 0 <= focus < NUM_UNITS:
        obs[UNITS_OFF + focus * UNIT_FEATURES + U_SELECTED] = 1.0
    # flat
    f = FLAT_OFF
    obs[f + F_SCENARIO + int(s['scenario'])] = 1.0
    obs[f + F_TURN] = int(s['turn']) / max(1, int(s['max_turns']))
    obs[f + F_ACTIVE] = s['active'] == me
    obs[f + F_FIRST] = s['first_force'] == me
    obs[f + F_SCREENING] = s['screening']
    obs[f + F_RAIN] = s['rain']
    if 0 <= ph <= R.LAST_PHASE:
        obs[f + F_PHASE + ph] = 1.0
    st = int(s['stage'])
    if 0 <= st < NUM_STAGES:
        obs[f + F_STAGE + st] = 1.0
    step = int(s['step'])
    if st == 3 and 0 <= step <= R.CS_END:
        obs[f + F_STEP + step] = 1.0
    _put(obs, f + F_ATT_TOTAL, s['att_total'] / 40.0)
    _put(obs, f + F_DEF_TOTAL, s['def_total'] / 40.0)
    _put(obs, f + F_LOSS, s['loss_left'] / 40.0 if ph == R.PH_CASUALTY else 0.0)
    _put(obs, f + F_ELIM, s['elim_left'] / 3.0)
    _put(obs, f + F_DISRUPT, s['loss_left'] / 3.0 if ph == R.PH_MISSILE_CASUALTY else 0.0)
    obs[f + F_OWN_FORTRESSES] = R.sartar_fortresses(S, b, me) / 7.0
    obs[f + F_ENEMY_FORTRESSES] = R.sartar_fortresses(S, b, enemy) / 7.0
    if s['moon'] >= 0:
        obs[f + F_MOON + int(s['moon'])] = 1.0
        obs[f + F_GLOWLINE] = s['glowline_gone'] == 0
    obs[f + F_BAT] = s['bat_missed'] / 2.0
    need = R.bat_demand(S, b) - int(s['bat_owed']) - int(s['bat_fed'])
    _put(obs, f + F_BAT + 1, (need if need > 0 else 0) / 24.0)
    _put(obs, f + F_BAT + 2, s['hunger_left'] / 24.0)
    obs[f + F_STORM] = s['storm_day'] / 3.0
    obs[f + F_STORM + 1] = s['rain']
    obs[f + F_REVEALED] = (s['revealed'] & R.REVEAL_BAT) != 0
    obs[f + F_REVEALED + 1] = (s['revealed'] & R.REVEAL_ARGRATH) != 0
    obs[f + F_FREEZE] = s['freeze_turn'] > 0 and s['freeze_turn'] == s['turn']
    obs[f + F_FREEZE + 1] = s['freeze_turn'] > 0
    obs[f + F_QUAKE] = s['quake_used']
    obs[f + F_QUAKE + 1] = s['quake_type'] / 2.0
    obs[f + F_CLOAK] = s['cloak_turn'] > 0
    obs[f + F_KEENER] = s['keener_turn'] >= s['player_turn'] and s['keener_turn'] > 0
    if s['cloak_hex'] >= 0:
        obs[f + F_CLOAK + 1] = 1.0
        obs[f + F_CLOAK + 2] = (int(s['cloak_turn']) + R.CLOAK_TURNS - int(s['turn']) + 1) / 3.0
        obs[f + F_CLOAK + 3] = (s['cloak_hex'] // ROWS + 1) / COLUMNS     # board index h = column * rows + row
        obs[f + F_CLOAK + 4] = (s['cloak_hex'] % ROWS + 1) / ROWS
    for k in range(R.FORTRESS_HEX.shape[0]):
        o = s['fortress_owner'][k]
        obs[f + F_FORTRESS + k] = _relative(o, me, enemy, third)
        obs[f + F_DAMAGED + k] = s['fortress_damaged'][k]
    obs[f + F_PILLAR] = s['pillar_used']
    for k in range(R.NEWT_CITIES):
        obs[f + F_NEWT_CITY + 2 * k] = (int(s['city_entered'][k]) >> me) & 1
        obs[f + F_NEWT_CITY + 2 * k + 1] = (int(s['city_entered'][k]) & R.foes_of(me)) != 0
    for k in range(R.SITE_HEX.shape[0]):
        o = s['site_owner'][k]
        obs[f + F_SITE + k] = _relative(o, me, enemy, third)
    _put(obs, f + F_DP, s['dp'][me] / 50.0)
    obs[f + F_DP + 1] = s['dp_next'][me] / 10.0
    obs[f + F_DP + 2] = s['dp_next'][enemy] / 10.0
    for k in range(R.NUM_MAJORS):
        _put(obs, f + F_ASSIGNED + k, s['dp_assigned'][me, k] / 50.0)
        _put(obs, f + F_ANNOUNCED + k, (s['dp_announced'][me, k] + 1) / 50.0)
        _put(obs, f + F_ANNOUNCED + R.NUM_MAJORS + k, (s['dp_announced'][enemy, k] + 1) / 50.0)
    for k in range(R.NUM_FACTIONS):
        o = s['faction_ally'][k]
        obs[f + F_ALLY + k] = _relative(o, me, enemy, third)
    if R.SCENARIO_DIPLOMACY[int(s['scenario'])]:
        for arm in range(2):
            _put(obs, f + F_REPLACEMENTS + arm, R.replacements_owed(S, b, me, arm) / 3.0)
            _put(obs, f + F_REPLACEMENTS + 2 + arm, R.replacements_owed(S, b, enemy, arm) / 3.0)
    obs[f + F_FIRST_DEPLOYER] = s['first_deployer'] == me
    obs[f + F_EVENTS] = s['random_events']
    obs[f + F_EVENTS + 1] = s['event_roll'] / 66.0
    obs[f + F_EVENTS + 2] = s['glowline_failed']
    obs[f + F_MINORS] = s['sm_doubled']
    obs[f + F_MINORS + 1] = s['hydra_mgf'] / -6.0
    obs[f + F_MINORS + 2] = s['hydra_hunger'] / 6.0
    obs[f + F_MINORS + 3] = s['zombies_owed'] / 12.0
    obs[f + F_MINORS + 4] = s['puppet_blanks'] / 4.0
    obs[f + F_MINORS + 5] = s['puppet_found_hex'] >= 0
    for k in range(R.DRAGON_UNITS.shape[0]):
        obs[f + F_MINORS + 6 + k] = (int(s['dragon_negates']) >> k) & 1
    _put(obs, f + F_AUCTION, s['auction_bid'][me] / 50.0)
    if not (ph == R.PH_AUCTION and s['event_left'] > 0):
        _put(obs, f + F_AUCTION + 1, s['auction_bid'][enemy] / 50.0)
    _put(obs, f + F_AUCTION + 2, s['dp_debt'][me] / 50.0)
    _put(obs, f + F_AUCTION + 3, s['dp_debt'][enemy] / 50.0)
    for k in range(R.FORCE_CAPITAL.shape[0]):
        obs[f + F_CAPITALS + k] = _relative(R.controller(S, b, R.FORCE_CAPITAL[k]), me, enemy, third)
    if s['jack_fetcher'] > 0:
        obs[f + F_JACK] = 1.0
        wait = int(s['jack_back_turn']) - int(s['turn'])
        obs[f + F_JACK + 1] = (wait if wait > 0 else 0) / 2.0
