"""Is a Dragon Pass record a sound position? (``DragonPass.check_state``)

Every field the compiled core indexes with is checked against its range
first, so the compiled mask that ``check_state`` runs last cannot read
outside an array; then the rules' invariants: a counter is in play exactly
when the scenario deploys it, one owner per hex (L448), no unit on a lake
at rest, the battle's stacks on the map.
"""
# jitcache: no compiled code
import numpy as np

from . import rules as R
from .board import NUM_HEXES
from .constants import (
    FORCES, NUM_ENTRY_ZONES, NUM_STAGES, NUM_UNITS, SCENARIOS, ST_COMBAT, ST_EXOTIC, ST_MOVEMENT, UNIT_IDS, UW_COMMITTED, UW_DEAD, UW_ENTERING, UW_ESCAPING,
    UW_HOLDING, UW_MAP, UW_OUT, UW_SUPPORT,
    UW_POOL, ST_ALLIANCE,
)
from .data import MAP
from .state import MAX_LOADED


def _in(value, lo, hi):
    return lo <= int(value) <= hi


def _events_problem(rec, sc):
    """The Random Events Option (rules/events.py) and the giants (rules/giants.py)."""
    for name, lo, hi in (("random_events", 0, 1), ("event_turn", 0, int(rec["max_turns"])), ("event_left", 0, 3),
                         ("event_rain", 0, 1), ("glowline_failed", 0, 1)):
        if not _in(rec[name], lo, hi):
            return f"{name} {int(rec[name])} is not {lo}..{hi}"
    roll = int(rec["event_roll"])
    if roll and not (1 <= roll // 10 <= 6 and 1 <= roll % 10 <= 6):
        return f"event_roll {roll} is not two dice (11..66) or 0"
    if int(rec["random_events"]) and R.SCENARIO_INDEPENDENT_SEAT[sc] >= 0:
        return f"the Random Events Option in scenario {SCENARIOS[sc]}: only Lunar against Sartar (L950)"
    if not int(rec["random_events"]) and (roll or int(rec["event_rain"]) or int(rec["glowline_failed"])):
        return "a random event without the Random Events Option"
    if int(rec["event_rain"]) and not int(rec["rain"]):
        return "event_rain set, but no rain"
    ph = int(rec["phase"])
    if ph in (R.PH_EVENT_REMOVE, R.PH_EVENT_REPLACE) and not (
            int(rec["event_left"]) > 0 and int(rec["stage"]) == R.ST_RANDOM_EVENTS):
        return "a random event's removal or replacement posed with none left, outside the Random Events Segment"
    foe = int(rec["giant_foe"]) - 1
    if not _in(foe, -1, 1) or not _in(rec["giant_fought"], 0, 63):
        return f"giant_foe {foe + 1} is not 0..2 or giant_fought {int(rec['giant_fought'])} not 0..63"
    if foe >= 0 and not (int(rec["stage"]) == R.ST_COMBAT and int(rec["active"]) == 1 - foe):
        return "a giants' battle outside the combat stage, or the giants not lent to the attacked force's enemy"
    lent = int(rec["giants_lent"])
    if not _in(lent, 0, (1 << len(R.GIANT_UNITS)) - 1):
        return f"giants_lent {lent} names no giant"
    if lent and not (int(rec["stage"]) == R.ST_COMBAT and foe < 0):
        return "giants lent for a battle against them outside the combat stage"
    argrath = R.ARGRATH
    for k, u in enumerate(R.GIANTS):
        f = int(rec["unit_force"][u])
        if (lent >> k) & 1:
            if f != 1 - int(rec["active"]):
                return f"giant {UNIT_IDS[u]} lent for a battle against it but not to the inactive player"
            continue
        controlled = int(rec["unit_where"][argrath]) == UW_MAP and int(rec["unit_force"][argrath]) == f \
            and int(rec["unit_hex"][argrath]) == int(rec["unit_hex"][u]) and R.SCENARIO_EXOTIC_MAGIC[sc]
        in_battle = int(rec["stage"]) == R.ST_COMBAT and int(rec["unit_hex"][u]) >= 0 and \
            (int(rec["unit_hex"][u]) in list(rec["bat_att"]) or int(rec["unit_hex"][u]) in list(rec["bat_def"]))
        if int(rec["unit_where"][u]) == UW_MAP and f != -1 and not (foe >= 0 and f == 1 - foe) and not controlled \
                and not in_battle:      # Argrath's giant, Argrath fallen in its battle, reverts when it ends
            return f"giant {UNIT_IDS[u]} belongs to force {f}: giants are no one's (L918) but Argrath's (L686)"
    if ph == R.PH_GIANT_STEP:
        c = int(rec["cursor"])
        if not (int(rec["stage"]) == R.ST_RANDOM_MOVE and 0 <= c < NUM_UNITS and R.U_GIANT[c]
                and int(rec["unit_where"][c]) == UW_MAP):
            return "a giant's step posed for no giant on the map, outside the Random Movement Phase"
    return ""


MAX_MP2 = 2 * (2 * int(R.U_MF.max()) + int(R.FORCE_MARCH_MP2) // 2)
"""The most half movement points a unit can hold: the largest MF doubled by the
Spirit of Movement (L896, L898; the Goblins' 15 doubled is 30 MP), with a force
march's points on top (L474)."""


def record_problem(state):
    """"" if ``state`` (a 1-record array) is sound, else the first problem."""
    rec = state[0]
    if not _in(rec["scenario"], 0, len(SCENARIOS) - 1):
        return f"scenario {int(rec['scenario'])} is not 0..{len(SCENARIOS) - 1}"
    sc = int(rec["scenario"])
    n = int(R.SCENARIO_PLAYERS[sc])
    if int(rec["num_players"]) != n:
        return f"num_players {int(rec['num_players'])} is not {n}, the players of scenario {SCENARIOS[sc]}"
    for name, lo, hi in (("screening", 0, 1), ("auto_single", 0, 1), ("rain", 0, 1), ("phase", 0, R.LAST_PHASE),
                         ("stage", 0, NUM_STAGES - 1), ("active", 0, n - 1), ("first_force", 0, n - 1),
                         ("deploying", 0, n - 1),
                         ("group_moved", 0, 1), ("group_zoc_start", 0, 1), ("group_arranged", 0, 1),
                         ("firing", 0, 1), ("missile_code", 0, len(R.MISSILE_DISRUPT) - 1),
                         ("step", 0, R.CS_END), ("turn", 0, int(rec["max_turns"])),
                         ("loaded_count", 0, MAX_LOADED), ("loaded_pos", 0, MAX_LOADED),
                         ("sm_asked", 0, 1), ("sm_doubled", 0, 1), ("alchemy_rf", 0, 1), ("alchemy_asked", 0, 1),
                         ("alchemy_unit", -1, len(rec["unit_where"]) - 1)):
        if not _in(rec[name], lo, hi):
            return f"{name} {int(rec[name])} is not {lo}..{hi}"
    if int(rec["sm_doubled"]) and int(rec["unit_where"][R.SPIRIT_OF_MOVEMENT]) == UW_MAP:
        return "the movement is doubled for eliminating the Spirit of Movement, which is still on the map (L898)"
    problem = _events_problem(rec, sc)
    if problem:
        return problem
    if not 1 <= int(rec["max_turns"]) <= int(R.SCENARIO_TURNS[sc]):
        return f"max_turns {int(rec['max_turns'])} is not 1..the scenario's {int(R.SCENARIO_TURNS[sc])}"
    for name in ("sel_hex", "group_start", "arr_hex"):
        if not _in(rec[name], -1, NUM_HEXES - 1):
            return f"{name} {int(rec[name])} is not a hex or -1"
    for name in ("bat_att", "bat_def", "bat_vacated"):
        for k, h in enumerate(rec[name]):
            if not _in(h, -1, NUM_HEXES - 1):
                return f"{name}[{k}] {int(h)} is not a hex or -1"
    if not _in(rec["adv_unit"], -1, NUM_UNITS - 1):
        return f"adv_unit {int(rec['adv_unit'])} is not a unit or -1"
    if not _in(rec["cursor"], -1, 2 * len(rec["bat_att"]) + NUM_UNITS):
        return f"cursor {int(rec['cursor'])} is out of range"
    for k, f in enumerate(rec["fortress_owner"]):
        if not _in(f, -1, n - 1):
            return f"fortress_owner[{k}] {int(f)} is not a force or -1 (no one's, 18.6's Sartar fortresses)"
    for k, bits in enumerate(rec["city_entered"]):
        if not _in(bits, 0, (1 << len(FORCES)) - 1):
            return f"city_entered[{k}] {int(bits)} is not a set of forces (bit 1 << force)"
    owner = {}
    for u in range(NUM_UNITS):
        where, h = int(rec["unit_where"][u]), int(rec["unit_hex"][u])
        if not _in(where, UW_OUT, UW_SUPPORT):
            return f"unit {UNIT_IDS[u]}: unit_where {where} is not a UW_* code"
        # the Independents come into play by alliance and random event, not by
        # the scenario's set-up (WIP: which scenarios allow which is not checked yet)
        # with the Random Events Option, events 32-33 send deployed Lunar units out
        # of play and event 42 brings the Twin Stars in (L444, L970-L971)
        events_moved = int(rec["random_events"]) and (
            (where == UW_OUT and int(R.U_FORCE[u]) == 0) or (u == R.TWIN_STARS and where != UW_OUT))
        if int(R.U_FORCE[u]) >= 0 and (where == UW_OUT) != (not R.U_DEPLOY[u, sc]) and not events_moved:
            return f"unit {UNIT_IDS[u]} is {'out of play' if where == UW_OUT else 'in play'}, " \
                   f"but scenario {SCENARIOS[sc]} {'deploys' if R.U_DEPLOY[u, sc] else 'does not deploy'} it"
        own, ctl = int(R.U_FORCE[u]), int(rec["unit_force"][u])
        if (own >= 0 and ctl != own) or not -1 <= ctl < n:
            # a counter of the Battalia is always its force's; an Independent's is
            # no one's (-1) or its ally's
            return f"unit {UNIT_IDS[u]}: unit_force {ctl} is not " + \
                (f"its force {FORCES[own]}" if own >= 0 else "-1 or a force")
        if not _in(rec["unit_side"][u], 0, 1):
            return f"unit {UNIT_IDS[u]}: unit_side {int(rec['unit_side'][u])} is not 0 or 1"
        if where == UW_MAP:
            if not _in(h, 0, NUM_HEXES - 1):
                return f"unit {UNIT_IDS[u]} is on the map at hex index {h}"
            f = int(rec["unit_force"][u])
            # a neutral herd is no one's: it may end a stampede in a player's stack
            # and stays neutral there until the end of the phase (L480, L594)
            # so is an Illusory Army (or the Troop found) before the Puppeteers ally: an
            # emissary stands with it to draw from the cup (L886); a neutral dinosaur
            # likewise, until a unit ends a phase with it (L835)
            if not (f < 0 and (R.U_HERD[u] or R.IS_ILLUSION[u] or u == R.PUPPETEER_TROOP or R.U_DINOSAUR[u])) \
                    and owner.setdefault(h, f) != f:
                return f"hex {MAP.hex_id(h)} holds units of both forces"
        elif where in (UW_COMMITTED, UW_SUPPORT):
            if not _in(h, 0, NUM_HEXES - 1) or int(R.U_MAGICIAN[u]) < 0:
                return f"unit {UNIT_IDS[u]} is committed or supporting at hex index {h} (only a spirit or agent can be)"
            if where == UW_SUPPORT and int(R.U_AGENT[u]):
                return f"unit {UNIT_IDS[u]} is an agent giving magical support (agents never support, L604)"
        elif h != -1:
            return f"unit {UNIT_IDS[u]} is off the map but has unit_hex {h}"
        if where == UW_HOLDING and int(R.U_MAGICIAN[u]) < 0 and not int(R.U_ASSASSIN[u]):
            return f"unit {UNIT_IDS[u]} is in a holding box but is no spirit, agent or assassin"
        if where == UW_ESCAPING and not _in(rec["unit_dead_hex"][u], 0, NUM_HEXES - 1):
            return f"unit {UNIT_IDS[u]} is to roll a heroic escape without the hex it fell in"
        if where == UW_ESCAPING and int(R.U_RANK[u]) == 0:
            return f"unit {UNIT_IDS[u]} is not a hero but waits for a heroic escape"
        if where == UW_POOL and int(rec["stage"]) != 0 and not (
                int(rec["stage"]) == ST_ALLIANCE and int(R.U_FACTION[u]) >= 0):
            # an Independent just allied waits in the pool to be set up (rules/alliance.py)
            return f"unit {UNIT_IDS[u]} is still to deploy after deployment"
        entry = int(rec["unit_entry"][u])
        if (where == UW_ENTERING) != (entry != -1) or not -1 <= entry < NUM_ENTRY_ZONES:
            return f"unit {UNIT_IDS[u]}: unit_entry {entry} does not fit its place {where}"
        if not _in(rec["unit_target"][u], -1, NUM_HEXES - 1):
            return f"unit {UNIT_IDS[u]}: unit_target {int(rec['unit_target'][u])} is not a hex or -1"
        g = int(rec["unit_scapegoat"][u])
        if g != -1 and (not 0 <= g < NUM_UNITS or int(R.U_RANK[u]) != 2 or int(rec["unit_force"][g]) == int(rec["unit_force"][u])):
            return f"unit {UNIT_IDS[u]}: unit_scapegoat {g} is not an enemy unit of a superhero"
        if not _in(rec["unit_mp"][u], 0, MAX_MP2):
            return f"unit {UNIT_IDS[u]}: unit_mp {int(rec['unit_mp'][u])} is out of range"
        origin, ctl = int(rec["unit_origin"][u]), int(rec["unit_force"][u])
        if not _in(origin, R.ORIGIN_HOME, R.ORIGIN_OF + len(FORCES) - 1) or (origin and not R.U_HERD[u]):
            return f"unit {UNIT_IDS[u]}: unit_origin {origin} is not a herd's away from its owner (L592)"
        if (origin == R.ORIGIN_NEUTRAL and ctl < 0) or (origin >= R.ORIGIN_OF and ctl == origin - R.ORIGIN_OF):
            return f"unit {UNIT_IDS[u]}: unit_origin {origin} does not fit its controller {ctl}"
        if not _in(rec["unit_road"][u], 0, 2):
            return f"unit {UNIT_IDS[u]}: unit_road {int(rec['unit_road'][u])} is not 0..2"
        if where == UW_DEAD and int(rec["unit_dead_hex"][u]) != -1:
            return f"unit {UNIT_IDS[u]} is dead but keeps a heroic-escape hex"
    if len(set(int(o) for o in rec["unit_order"][rec["unit_where"] == UW_MAP])) != int((rec["unit_where"] == UW_MAP).sum()):
        return "two units on the map share a stack position"
    for name in ("bat_att", "bat_def"):
        for h in rec[name]:
            if h >= 0 and int(rec["stage"]) != 3:
                return f"{name} names hex {int(h)} outside the combat phase"
    if int(rec["status"]) == 0 and np.any(rec["rank"]):
        return "a running game has ranks"
    return _quake_problem(rec) or _pillar_problem(rec) or _hound_problem(rec) or _cloak_problem(rec) \
        or _zombie_problem(rec) or _puppet_problem(rec) or _hydra_problem(rec) or _dragon_problem(rec) \
        or _carry_problem(rec) or _fetch_problem(rec)


def _zombie_problem(rec):
    """Delecti's zombies (L815-L831, rules/zombies.py): at most 12 owed; a chain's move led by a zombie on the map, in its
    controller's movement phase; zombies on the map are Delecti's side's."""
    owed, lead = int(rec["zombies_owed"]), int(rec["zombie_lead"])
    if not _in(owed, 0, R.NUM_ZOMBIES):
        return f"zombies_owed {owed} is not 0..12"
    if lead != -1:
        if not R.ZOMBIE_1 <= lead < R.ZOMBIE_1 + R.NUM_ZOMBIES or int(rec["unit_where"][lead]) != UW_MAP \
                or int(rec["stage"]) != ST_MOVEMENT or int(rec["unit_force"][lead]) != int(rec["active"]):
            return f"zombie_lead {lead} is not an active zombie on the map in the movement phase"
    for z in range(R.ZOMBIE_1, R.ZOMBIE_1 + R.NUM_ZOMBIES):
        if int(rec["unit_where"][z]) == UW_MAP and int(rec["unit_force"][z]) != int(rec["unit_force"][R.DELECTI]):
            return f"zombie {z - R.ZOMBIE_1 + 1} is not of Delecti's side"
    return ""


def _puppet_problem(rec):
    """The Puppeteers (L884-L892, rules/puppeteers.py): at most 4 blanks drawn
    from the cup; the hex they were found in a hex; the Illusory Army kept from
    removal one of the 5 (stacking: ``check``)."""
    if not _in(rec["puppet_blanks"], 0, 4):
        return f"puppet_blanks {int(rec['puppet_blanks'])} is not 0..4 (4 blanks in the cup, L886)"
    if not _in(rec["puppet_found_hex"], -1, NUM_HEXES - 1):
        return f"puppet_found_hex {int(rec['puppet_found_hex'])} is not a hex or -1"
    kept = int(rec["illusion_kept"])
    if kept != -1 and kept not in set(int(u) for u in R.ILLUSORY_ARMIES):
        return f"illusion_kept {kept} is not an Illusory Army"
    return ""


def _hydra_problem(rec):
    """The Hydra (L880, rules/hydra.py): its MgF minus a die roll (0 before it is
    rolled); never more units owed than the roll."""
    mgf, hunger = int(rec["hydra_mgf"]), int(rec["hydra_hunger"])
    if not -6 <= mgf <= 0 or not 0 <= hunger <= -mgf:
        return f"the Hydra's MgF {mgf} / units still to feed it {hunger} do not fit a die roll (L880)"
    return ""


def _dragon_problem(rec):
    """A dragonfight is resolved only while its decision is posed (L845,
    rules/dragons.py): its dragon, an active one on the map, and a direction
    1..6 round it; ``dragon_negates`` names the four dragons only; Hungry
    Jack's decisions are posed at their own steps, and name counters (L872)."""
    if not _in(rec["dragon_negates"], 0, (1 << len(R.DRAGON_UNITS)) - 1):
        return f"dragon_negates {int(rec['dragon_negates'])} names no dragon"
    if not _in(rec["dragonfights_done"], 0, 1):
        return f"dragonfights_done {int(rec['dragonfights_done'])} is not 0..1"
    if not _in(rec["jack_step"], 0, 2):
        return f"jack_step {int(rec['jack_step'])} is not 0..2"
    ph = int(rec["phase"])
    if (ph == R.PH_JACK_AID and int(rec["jack_step"]) != 1) or (ph == R.PH_JACK and int(rec["jack_step"]) != 2):
        return f"Hungry Jack's decision {ph} is posed at his step {int(rec['jack_step'])}"
    for k in list(rec["jack_summoned"]) + list(rec["jack_aides"]):
        if not _in(k, 0, NUM_UNITS):
            return f"Hungry Jack names unit {int(k) - 1}, no counter"
    d = int(rec["dragonfight_unit"]) - 1
    if d < 0:
        if int(rec["phase"]) == R.PH_DRAGONFIGHT:
            return "a dragonfight decision is posed with no dragon fighting"
        return ""
    if d not in R.DRAGON_UNITS:
        return f"dragonfight_unit {d + 1} is not a dragon's"
    if int(rec["phase"]) != R.PH_DRAGONFIGHT:
        return "a dragonfight is under way but no dragonfight decision is posed"
    if int(rec["unit_where"][d]) != UW_MAP or int(rec["unit_force"][d]) != int(rec["active"]):
        return f"the fighting dragon {UNIT_IDS[d]} is not the active player's on the map"
    if not _in(rec["dragonfight_dir"], 1, 6):
        return f"dragonfight_dir {int(rec['dragonfight_dir'])} is not 1..6"
    return ""


def _cloak_problem(rec):
    """The Cloak of Darkness (L752, rules/ethilrist.py): cast once a game; its
    cloud lasts from the game-turn it was cast in through the next 2; the
    Goblins come only when it lifts."""
    h, cast, turn = int(rec["cloak_hex"]), int(rec["cloak_turn"]), int(rec["turn"])
    if not _in(h, -1, NUM_HEXES - 1) or cast < 0:
        return f"cloak_hex {h} / cloak_turn {cast} out of range"
    if h >= 0 and not (cast > 0 and cast <= turn <= cast + R.CLOAK_TURNS):
        return f"the Cloak's cloud at {h} outlasts its 2 game-turns (cast in {cast}, now {turn})"
    if int(rec["unit_where"][R.GOBLINS]) == UW_MAP and (cast == 0 or h >= 0):
        return "the Goblins are on the map before the Cloak's cloud lifted"
    return ""


def _hound_problem(rec):
    """The Hound's Doom Run after Ethilrist's fall (L754, rules/ethilrist.py):
    pending only once Ethilrist has left the map, in combat or exotic magic."""
    pending = int(rec["doom_pending"])
    if not _in(pending, 0, 1):
        return f"doom_pending {pending} is not 0 or 1"
    if int(rec["keener_turn"]) < 0:
        return f"keener_turn {int(rec['keener_turn'])} is negative"
    if pending and (int(rec["unit_where"][R.ETHILRIST]) == UW_MAP or int(rec["stage"]) not in (ST_COMBAT, ST_EXOTIC)):
        return "a Doom Run is pending but Ethilrist is on the map, or the phase is neither combat nor exotic magic"
    return ""


def _quake_problem(rec):
    """The earthquake (L720, rules/quake.py): its fracture hexes a prefix of
    distinct hexes, each line a chain of adjacent hexes, laid only while a
    quake of a type is under way; a damaged fortress only after the quake."""
    t, used = int(rec["quake_type"]), int(rec["quake_used"])
    if not _in(t, 0, 2) or not _in(used, 0, 1):
        return f"quake_type {t} / quake_used {used} out of range"
    if t and not used:
        return "an earthquake is being laid but quake_used is 0"
    if int(rec["phase"]) == R.PH_FRACTURE and not t:
        return "a fracture hex is asked for with no earthquake under way"
    for k, d in enumerate(rec["fortress_damaged"]):
        if not _in(d, 0, 1) or (d and not used):
            return f"fortress_damaged[{k}] {int(d)} without an earthquake"
    laid = [int(h) for h in rec["fracture_hexes"]]
    n = sum(1 for h in laid if h >= 0)
    if any(h < -1 or h >= NUM_HEXES for h in laid) or any(h < 0 for h in laid[:n]):
        return "fracture_hexes are not a prefix of hexes padded with -1"
    if n and not t:
        return "fracture hexes are laid with no earthquake under way"
    line = R.TYPE1_LENGTH if t == 1 else R.TYPE2_LENGTH          # (plain numbers: no compiled call here)
    if t and n > (line if t == 1 else 2 * line):
        return f"{n} fracture hexes for a Type {t} earthquake"
    if len(set(laid[:n])) != n:
        return "a fracture line passes through a hex twice"
    length = line if t else 1
    for k in range(1, n):
        if k % length and MAP.distance(laid[k - 1], laid[k]) != 1:
            return f"fracture hex {k} is not adjacent to the one before"
    return ""


def _fetch_problem(rec):
    """The dragon gone for Hungry Jack (L870, rules/fetch.py): a dragon off the
    board, to come back by the West edge, with the game-turn it may; Jack not
    in play while it is away; a dragon off by the West edge only then."""
    d = int(rec["jack_fetcher"]) - 1
    back = int(rec["jack_back_turn"])
    for u in R.DRAGON_UNITS:
        if int(rec["unit_where"][u]) == UW_ENTERING and int(rec["unit_entry"][u]) == R.ENTRY_WEST_EDGE and u != d:
            return f"dragon {UNIT_IDS[u]} is off by the West edge but not gone for Hungry Jack"
    if d < 0:
        return "" if back == 0 else f"jack_back_turn {back} with no dragon gone for Hungry Jack"
    if d not in R.DRAGON_UNITS:
        return f"jack_fetcher {d + 1} is not a dragon's"
    if int(rec["unit_where"][d]) != UW_ENTERING or int(rec["unit_entry"][d]) != R.ENTRY_WEST_EDGE:
        return "the dragon gone for Hungry Jack is not off the board by the West edge"
    if not 1 <= back <= int(rec["max_turns"]) + R.AWAY_TURNS:
        return f"jack_back_turn {back} out of range"
    if int(rec["unit_where"][R.HUNGRY_JACK]) != 0:
        return "Hungry Jack is in play while a dragon is gone for him"
    return ""


def _pillar_problem(rec):
    """Cragspider's Pillar of Fire (L764, rules/pillar.py): its hexes a prefix
    of distinct hexes, each adjacent to the others, named only once it is
    used, and only while one is asked for or about to strike; her Black Dragon not in play once she is
    dead (L768)."""
    used = int(rec["pillar_used"])
    if not _in(used, 0, 1):
        return f"pillar_used {used} out of range"
    named = [int(h) for h in rec["pillar_hexes"]]
    n = sum(1 for h in named if h >= 0)
    if any(h < -1 or h >= NUM_HEXES for h in named) or any(h < 0 for h in named[:n]):
        return "pillar_hexes are not a prefix of hexes padded with -1"
    if n and not used:
        return "Pillar of Fire hexes are named but it is not used"
    if len(set(named[:n])) != n:
        return "a Pillar of Fire hex is named twice"
    for i in range(n):
        for j in range(i):
            if MAP.distance(named[i], named[j]) != 1:
                return "the Pillar of Fire's hexes are not each adjacent to the others"
    if n and int(rec["phase"]) != R.PH_PILLAR and not (n == 3 and int(rec["exotic_effect"]) == R.EX_PILLAR):
        return "Pillar of Fire hexes are named with none being unleashed"
    if int(rec["phase"]) == R.PH_PILLAR and not (1 <= n < 3):
        return f"the Pillar of Fire's next hex is asked for with {n} named"
    if int(rec["unit_where"][R.CRAGSPIDER]) == UW_DEAD and int(rec["unit_where"][R.BLACK_DRAGON]) not in (UW_OUT, UW_DEAD):
        return "Cragspider is dead but her Black Dragon is in play"
    return ""



def _carry_problem(rec):
    """Carrying (L462, L578): a disembodied spirit never joins a moving group
    (it cannot move on the map); a retreated unit names the battle stack it
    left by an index into ``bat_def``."""
    from .state import MAX_BATTLE_STACKS
    for u in range(NUM_UNITS):
        if int(rec["unit_flags"][u]) & R.UF_GROUP and int(rec["unit_where"][u]) == UW_MAP \
                and R.U_DISEMBODIED[u, int(rec["unit_side"][u])]:
            return f"unit {UNIT_IDS[u]}, a disembodied spirit, moves on the map (L462)"
        if not _in(rec["unit_retreat_k"][u], 0, MAX_BATTLE_STACKS - 1):
            return f"unit {UNIT_IDS[u]}: unit_retreat_k {int(rec['unit_retreat_k'][u])} is no battle stack"
    return None
