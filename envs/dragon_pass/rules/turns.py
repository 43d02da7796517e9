"""The game-turn (L167-L199): each force's player-turn -- movement, combat,
rally -- then the book-keeping phase; the end of the scenario and its
victory conditions (L204-L248).

18.1-18.3 use no diplomacy, random events (optional, ``events.py``), random
movement, alliances or exotic magic, so a player-turn is the movement phase
(``movement.py``), the combat phase (``combat.py``) and the rally phase: the
active player's disrupted units recover unless beside an enemy unit (L590),
and every hero or superhero eliminated this player-turn rolls its heroic
escape (L642); then every eliminated dragonewt reappears in its home city
unless the enemy has entered it (L742, ``resurrect``).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..board import NUM_HEXES
from ..constants import (
    LUNAR, RANK_SUPERHERO, SARTAR, SC_18_1, SC_18_2, SC_18_3, SC_18_4, SC_18_5, SC_18_6, SC_18_7, SC_18_8, SC_18_9,
    SIDE_BACK, SIDE_FRONT,
    ST_ALLIANCE, ST_BOOKKEEPING,
    ST_EXOTIC, ST_MOVEMENT, ST_OVER, ST_RANDOM_MOVE, ST_TURN_START, UNIT_IDS, UW_DEAD, UW_ESCAPING, UW_HOLDING, UW_MAP,
)
from .base import (
    A_HEX, BOLDHOME, CITY_HEX, U_HOME_CITY, U_MAGICIAN, hex_force, occupy, VICTORY_18_6, controller, ESCAPE_HERO, ESCAPE_SUPERHERO, FORTRESS_HEX, FORTRESS_SARTAR, PH_ARRANGE,
    PH_ESCAPE_HEX, best_friend, force_of, herds_settle, units_end, U_RANK, d6, distance, end_rage, pose,
    put_on_top, killed, trespass_clear, FORCE_CAPITAL, adjacent_to_foe, foes_of, force_playing, players, turn_slot,
    scan_board,
)
from .movement import start_arrangement, start_movement
from .marathon import marathon_capitals, marathon_winner
from .ethilrist import cloak_expires
from .exotic import EX_FLOOD, EXS_DAY, day_ends
from .magic import support_ends
from .moon import next_day
from .giants import giants_on_map, start_random_movement
from .events import events_end_of_turn
from .setup import SCENARIO_INDEPENDENTS, SCENARIO_TURNS, game_turn_begins

ARGRATH = UNIT_IDS.index("argrath")
"""Prince Argrath, whose end decides 18.3 (L248)."""


@rules_jit
def start_player_turn(S, b):
    """A player-turn begins: the first force's, then the other's (L175); with
    giants on the map, with its Random Movement Phase (L176, L918)."""
    s = S[b]
    s['player_turn'] += 1
    s['active'] = force_playing(S, b, turn_slot(S, b))
    s['stage'] = ST_MOVEMENT
    s['step'] = 0
    s['freeze_asked'] = 0
    s['sm_asked'] = 0             # the Spirit of Movement's owner is asked afresh (L898)
    s['sm_doubled'] = 0
    s['alchemy_asked'] = 0        # the Alchemical Transformer's owner names its unit afresh (L857)
    s['hydra_asked'] = 0
    support_ends(S, b, int(s['active']))      # its spirits go home at the start of its movement (L416, L508)
    start_movement(S, b)
    trespass_clear(S, b)
    if SCENARIO_INDEPENDENTS[int(s['scenario'])]:
        s['stage'] = ST_ALLIANCE              # the Alliance Phase comes before movement (L176; alliance.py)
    elif s['exotic_effect'] == EX_FLOOD:       # the storm's third day begins with the flood (L688)
        s['stage'] = ST_EXOTIC
        s['step'] = EXS_DAY
    if giants_on_map(S, b):
        # the Random Movement Phase comes first (L176): the giants (L918); the
        # movement phase (or the flood) after it
        s['stage'] = ST_RANDOM_MOVE
        start_random_movement(S, b)


@rules_jit
def rally_phase(S, b):
    """The rally phase: recovery, then each heroic escape in unit order.
    Returns True if a decision is posed (where an escaped hero rejoins, or
    the arrangement of that stack, L450)."""
    s = S[b]
    occ = np.empty(NUM_HEXES, np.int8)
    zoc = np.empty(NUM_HEXES, np.int8)
    if s['step'] == 0:
        scan_board(S, b, occ, zoc)
        f = int(s['active'])
        for u in range(units_end(S, b)):
            if s['unit_where'][u] != UW_MAP or force_of(S, b, u) != f or s['unit_side'][u] != SIDE_BACK:
                continue
            if U_RANK[u] == RANK_SUPERHERO:
                continue      # a superhero's back is its Berserker Rage, not a disruption
            # "the rally phase of the owner's next player turn": not the one it was disrupted in
            if s['unit_disrupted_at'][u] < s['player_turn'] and not adjacent_to_foe(occ, s['unit_hex'][u], foes_of(f)):
                s['unit_side'][u] = SIDE_FRONT
        s['step'] = 1
    for u in range(units_end(S, b)):
        if s['unit_where'][u] != UW_ESCAPING:
            continue
        need = ESCAPE_SUPERHERO if U_RANK[u] == RANK_SUPERHERO else ESCAPE_HERO
        # a failed roll, or no stack of his side left to escape to: eliminated permanently (L642)
        if d6(S, b) < need or nearest_stacks(S, b, u, occ) == 0:
            if dies_for_good(S, b, u):
                return False
            continue
        s['cursor'] = u
        return pose(S, b, PH_ESCAPE_HEX, force_of(S, b, u))
    if resurrect(S, b):
        return True
    s['step'] = 0
    s['bat_prey'] = -1
    herds_settle(S, b)            # the end of the rally phase (L592)
    s['stage'] = ST_TURN_START if turn_slot(S, b) < players(S, b) - 1 else ST_BOOKKEEPING
    return False


@rules_jit
def resurrect(S, b):
    """Resurrection (L742): every eliminated dragonewt reappears in its home
    city (``base.U_HOME_CITY``) this rally phase, front side up -- a spirit in
    its holding box (L416) -- unless units of the enemy force have entered
    that city since the game began (``city_entered``, set by ``base.occupy``:
    the ability is cancelled for good). A dragonewt eliminated in this
    player-turn is the only one in the dead pile, as every rally phase brings
    them all back. Where a resurrected dragonewt joins a stack, its owner may
    rearrange it (L450). Returns True if that arrangement is posed; called
    again after it."""
    s = S[b]
    for u in range(units_end(S, b)):
        k = int(U_HOME_CITY[u])
        if k < 0 or s['unit_where'][u] != UW_DEAD:
            continue
        f = force_of(S, b, u)
        if f < 0 or s['city_entered'][k] & foes_of(f):
            continue
        h = int(CITY_HEX[k])
        s['unit_side'][u] = SIDE_FRONT
        s['unit_dead_hex'][u] = -1
        if U_MAGICIAN[u] >= 0:
            s['unit_where'][u] = UW_HOLDING
            continue
        held = hex_force(S, b, h)
        if held >= 0 and held != f:
            continue          # never so: enemy units there entered it, and cancelled this (a safeguard)
        alone = held < 0
        put_on_top(S, b, u, h)
        occupy(S, b, f, h)
        if not alone:
            start_arrangement(S, b, h)
            return pose(S, b, PH_ARRANGE, f)
    return False


@rules_jit
def dies_for_good(S, b, u):
    """Hero or superhero u, eliminated, made no heroic escape: to the dead pile
    for good. A scapegoat leaves nothing to avenge (L656); a hero the Bat's
    chaotic magic struck feeds it (L698); Argrath's death ends 18.3 (L248).
    Returns whether the game ended."""
    s = S[b]
    killed(S, b, u)                   # Cragspider's Black Dragon with her (L768)
    s['unit_dead_hex'][u] = -1
    s['unit_scapegoat'][u] = -1
    for v in range(units_end(S, b)):
        if s['unit_scapegoat'][v] == u:
            end_rage(S, b, v)
    if u == s['bat_prey']:
        s['bat_fed'] += 1
    if u == ARGRATH and s['scenario'] == SC_18_3:
        end_game(S, b, LUNAR)
        return True
    return False


@rules_jit
def nearest_stacks(S, b, u, mask):
    """occ-like array ``mask``[h] = 1 for the hexes of u's force's stacks
    nearest to where u was eliminated (L642); returns how many."""
    s = S[b]
    for h in range(NUM_HEXES):
        mask[h] = 0
    f = force_of(S, b, u)
    dead = s['unit_dead_hex'][u]
    best = 1 << 30
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and force_of(S, b, v) == f:
            dd = distance(dead, s['unit_hex'][v])
            if dd < best:
                best = dd
    n = 0
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and force_of(S, b, v) == f and distance(dead, s['unit_hex'][v]) == best:
            h = s['unit_hex'][v]
            if mask[h] == 0:
                mask[h] = 1
                n += 1
    return n


@rules_jit
def mask_escape_hex(S, b, p, mask):
    near = np.empty(NUM_HEXES, np.int8)
    nearest_stacks(S, b, int(S[b]['cursor']), near)
    for h in range(NUM_HEXES):
        if near[h]:
            mask[A_HEX + h] = 1


@rules_jit
def act_escape_hex(S, b, p, a):
    """The escaped hero reappears on the stack at hex a, front side up; the
    stack may be rearranged (L450, L642)."""
    s = S[b]
    u = int(s['cursor'])
    h = a - A_HEX
    put_on_top(S, b, u, h)
    # a berserk superhero stays berserk (L656); a best friend back ends the rage (L658)
    s['unit_side'][u] = SIDE_BACK if s['unit_scapegoat'][u] >= 0 else SIDE_FRONT
    s['unit_dead_hex'][u] = -1
    for v in range(units_end(S, b)):
        if best_friend(S, b, v) == u and s['unit_scapegoat'][v] >= 0:
            end_rage(S, b, v)
    start_arrangement(S, b, h)
    return pose(S, b, PH_ARRANGE, p)


@rules_jit
def bookkeeping(S, b):
    """The end of a game-turn: the next one, or the end of the scenario. The
    Red Moon moves on to its next phase (``moon.next_day``)."""
    s = S[b]
    if s['turn'] >= s['max_turns']:
        if s['max_turns'] < SCENARIO_TURNS[s['scenario']]:
            end_game(S, b, -1)          # cut short by the truncation option: a draw
            s['status'] = 2
        else:
            end_game(S, b, scenario_winner(S, b))
        return
    cloak_expires(S, b)               # the Cloak of Darkness's cloud lifts: the Goblins (L752)
    events_end_of_turn(S, b)          # the random event's rain stops, the Glowline is back (L960, L969)
    s['turn'] += 1
    day_ends(S, b)
    next_day(S, b)
    game_turn_begins(S, b)


@rules_jit
def sartar_fortresses(S, b, f):
    """How many of the seven Sartar fortresses force f controls (L217)."""
    s = S[b]
    n = 0
    for k in range(FORTRESS_HEX.shape[0]):
        if FORTRESS_SARTAR[k] and s['fortress_owner'][k] == f:
            n += 1
    return n


@rules_jit
def lunar_fortresses(S, b, f):
    """How many of the Lunar fortresses force f controls (L301)."""
    s = S[b]
    n = 0
    for k in range(FORTRESS_HEX.shape[0]):
        if not FORTRESS_SARTAR[k] and s['fortress_owner'][k] == f:
            n += 1
    return n


@rules_jit
def lunar_occupies_a_sartar_fortress(S, b):
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and force_of(S, b, u) == LUNAR:
            for k in range(FORTRESS_HEX.shape[0]):
                if FORTRESS_SARTAR[k] and FORTRESS_HEX[k] == s['unit_hex'][u]:
                    return True
    return False


@rules_jit
def lunar_occupies(S, b, h):
    """A Lunar unit is on hex h (L265)."""
    s = S[b]
    for u in range(units_end(S, b)):
        if s['unit_where'][u] == UW_MAP and force_of(S, b, u) == LUNAR and s['unit_hex'][u] == h:
            return True
    return False


@rules_jit
def victory_sites(S, b, f):
    """How many of 18.6's five victory sites force f controls (L293)."""
    n = 0
    for k in range(VICTORY_18_6.shape[0]):
        if controller(S, b, VICTORY_18_6[k]) == f:
            n += 1
    return n


@rules_jit
def capitals_held(S, b, f):
    """How many of the players' capitals -- Furthest, Boldhome and 18.8's
    Wintertop (``base.FORCE_CAPITAL``) -- force f controls (L313)."""
    n = 0
    for k in range(FORCE_CAPITAL.shape[0]):
        if controller(S, b, FORCE_CAPITAL[k]) == f:
            n += 1
    return n


@rules_jit
def scenario_winner(S, b):
    """The winning force at the end of play, -1 for a draw (L217-L248):

    * 18.1: the Lunars with at least 4 Sartar fortresses, Sartar with at least 5;
    * 18.2: the Lunars with Boldhome or at least 5 Sartar fortresses, Sartar
      with Boldhome and at least 3 others;
    * 18.3: the Lunars if Argrath is dead (his escape failed) or Lunar units
      occupy a Sartar fortress, else Sartar;
    * 18.4: the Lunars if a Lunar unit occupies Boldhome, Sartar if he still
      controls it (L265); neither: a draw (Interpretations 30);
    * 18.5: the force that controls more fortresses, all ten counted; a
      draw if equal (L273);
    * 18.6: the Lunars if they control Bagnot, Dunstop, Rich Post, Wintertop
      and Wild Temple, else the Independents (L293);
    * 18.7: the player controlling more of his opponent's fortresses; if
      tied, the player who was not chosen to deploy first (L301);
    * 18.8: the player controlling his own capital and at least one other
      player's (L313; Interpretations 181); none: a draw;
    * 18.9: the player controlling both Boldhome and Furthest, else a draw
      (L325, ``marathon.marathon_winner``).
    """
    s = S[b]
    sc = s['scenario']
    if sc == SC_18_8:
        for f in range(players(S, b)):
            if controller(S, b, FORCE_CAPITAL[f]) == f and capitals_held(S, b, f) >= 2:
                return f
        return -1
    if sc == SC_18_9:
        return marathon_winner(S, b)
    if sc == SC_18_7:
        lunar_held = sartar_fortresses(S, b, LUNAR)
        sartar_held = lunar_fortresses(S, b, SARTAR)
        if lunar_held != sartar_held:
            return LUNAR if lunar_held > sartar_held else SARTAR
        return 1 - int(s['first_deployer'])       # 18.7 has two players
    if sc == SC_18_6:
        return LUNAR if victory_sites(S, b, LUNAR) == VICTORY_18_6.shape[0] else SARTAR
    if sc == SC_18_4:
        if lunar_occupies(S, b, FORTRESS_HEX[BOLDHOME]):
            return LUNAR
        if s['fortress_owner'][BOLDHOME] == SARTAR:
            return SARTAR
        return -1
    if sc == SC_18_5:
        held = 0
        for k in range(FORTRESS_HEX.shape[0]):
            held += 1 if s['fortress_owner'][k] == LUNAR else -1 if s['fortress_owner'][k] == SARTAR else 0
        return LUNAR if held > 0 else SARTAR if held < 0 else -1
    lunar = sartar_fortresses(S, b, LUNAR)
    sartar = sartar_fortresses(S, b, SARTAR)
    if sc == SC_18_1:
        if lunar >= 4:
            return LUNAR
        if sartar >= 5:
            return SARTAR
        return -1
    if sc == SC_18_2:
        if s['fortress_owner'][BOLDHOME] == LUNAR or lunar >= 5:
            return LUNAR
        if s['fortress_owner'][BOLDHOME] == SARTAR and sartar >= 4:
            return SARTAR
        return -1
    if s['unit_where'][ARGRATH] == UW_DEAD or lunar_occupies_a_sartar_fortress(S, b):
        return LUNAR
    return SARTAR


@rules_jit
def end_game(S, b, winner):
    """The game ends: ranks (the winner first, every other player second; all
    first in a draw), rewards (+1 for the winner, -1 shared among the others:
    -1 each of two players, -1/2 each of three; 0 for a draw) and the score
    (the scenario's: Sartar fortresses controlled, 18.6's victory sites,
    18.7's opponent's fortresses, 18.8's players' capitals)."""
    s = S[b]
    s['status'] = 1
    s['stage'] = ST_OVER
    s['to_play'] = -1
    n = players(S, b)
    for f in range(n):
        if s['scenario'] == SC_18_8:
            s['score'][f] = capitals_held(S, b, f)
        elif s['scenario'] == SC_18_6:
            s['score'][f] = victory_sites(S, b, f)
        elif s['scenario'] == SC_18_7:
            s['score'][f] = sartar_fortresses(S, b, f) if f == LUNAR else lunar_fortresses(S, b, f)
        elif s['scenario'] == SC_18_9:
            s['score'][f] = marathon_capitals(S, b, f)     # of Boldhome and Furthest (L325)
        else:
            s['score'][f] = sartar_fortresses(S, b, f)
        if winner < 0:
            s['rank'][f] = 1
            s['rewards'][f] = 0.0
        elif f == winner:
            s['rank'][f] = 1
            s['rewards'][f] = 1.0
        else:
            s['rank'][f] = 2
            s['rewards'][f] = -1.0 / (n - 1)
