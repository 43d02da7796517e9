"""Reading a Dragon Pass record in Python: units, stacks, hexes and their
names, for ``action_to_string``, ``render_ansi``, tests and bots.

A ``state`` is one record or a 1-record array.
"""
# jitcache: no compiled code
from dragongym.envs.core.view import num_players, phase, record, stage, to_play  # noqa: F401
from . import rules as R
from .board import FORTRESS_NAMES, HEX_STEP
from .constants import FORCES, KINDS, SCENARIO_ROLES, SIDE_BACK, UNIT_IDS, UF_GROUP, UNIT_KIND_OF, UW_MAP, UW_POOL
from .data import DATA, MAP
from .unitdata import FACTIONS

_KINDS = KINDS


def open_hexes(rec, seat):
    """Hexes whose stacks ``seat`` may examine even with screening: the battle's
    (L452), and the stack its assassin scouted, while it chooses whom to kill
    (L924; ``observe.hidden_from`` reads the same)."""
    out = {int(h) for n in ("bat_att", "bat_def") for h in rec[n] if h >= 0}
    if int(rec["phase"]) == R.PH_ASSASSIN and seat is not None and int(rec["to_play"]) == seat:
        out.add(int(rec["exotic_hex"]))
    return out


def revealed_units(rec):
    """Enemy units whose place screening no longer hides: the Crimson Bat and
    Argrath once revealed (L666, L668; ``observe.hidden_from`` reads the same).
    Their stack-mates stay screened."""
    out = set()
    for u, bit in ((R.CRIMSON_BAT, R.REVEAL_BAT), (R.ARGRATH_UNIT, R.REVEAL_ARGRATH)):
        if u >= 0 and int(rec["revealed"]) & bit and int(rec["unit_where"][u]) == UW_MAP:
            out.add(int(u))
    return out


def screened_contents(rec, units):
    """What a screened stack of ``units`` shows: nothing but a revealed unit."""
    revealed = revealed_units(rec)
    shown = [unit_name(u, rec) for u in units if u in revealed]
    return "a screened stack" + (f" with {', '.join(shown)} (revealed)" if shown else "")


def hex_name(h):
    """The rulebook's number of hex index h ("3124")."""
    return MAP.hex_id(int(h))


def hex_index(name):
    return MAP.hex_index(name)


def short_notation(side):
    """CF-MgF-MF as the scenarios write it, with a blank RF left off (L214)."""
    text = side.notation
    return text[:-2] if text.endswith("-X") else text


def unit_name(u, state=None):
    """"Free Warriors 4-5-5 (2)": the counter's name, the factors of the side
    up (the front if no state is given) and its copy among like counters."""
    kind = _KINDS[UNIT_KIND_OF[u]]
    side = kind.back if state is not None and int(record(state)["unit_side"][u]) == SIDE_BACK else kind.front
    copy = UNIT_IDS[u].partition("#")[2]
    return f"{kind.name} {short_notation(side)}" + (f" ({copy})" if copy else "")


def next_to_deploy(state, force):
    """The unit ``force`` deploys next (``rules/setup.py::next_to_deploy``, read
    in Python so that naming an action compiles nothing), -1 once all are down."""
    rec = record(state)
    for u in range(len(UNIT_IDS)):
        if int(rec["unit_where"][u]) == UW_POOL and int(rec["unit_force"][u]) == force:
            return u
    return -1


def exerts_zoc(state, u):
    """A stack topped by unit u exerts a zone of control (``rules/base.py::exerts_zoc``, L460)."""
    sd = int(record(state)["unit_side"][u])
    return not (R.U_SINGLE[u, sd] or (R.U_SPIRIT[u, sd] and (R.U_RF[u, sd] < 0 or R.U_RF_SPECIAL[u, sd])))


def force_of(u):
    """The force counter u belongs to: its formation's, or "independent"."""
    f = int(R.U_FORCE[u])
    return FORCES[f] if f >= 0 else "independent"


def side_name(rec, f):
    """The player seat f is in this record's scenario (``constants.SCENARIO_ROLES``:
    "lunar", "sartar", or 18.6's "independents"); "no one" for -1."""
    return SCENARIO_ROLES[int(rec["scenario"])][int(f)] if int(f) >= 0 else "no one"


def stack(state, h):
    """Units at hex h, top first."""
    rec = record(state)
    units = [u for u in range(len(UNIT_IDS)) if int(rec["unit_where"][u]) == UW_MAP and int(rec["unit_hex"][u]) == h]
    return sorted(units, key=lambda u: -int(rec["unit_order"][u]))


def stack_force(rec, units):
    """The player whose stack this is: its first unit that is someone's (a
    neutral herd that stampeded into a player's stack stays neutral until the
    phase ends, L594), -1 for a stack of neutral units only."""
    for u in units:
        f = int(rec["unit_force"][u])
        if f >= 0:
            return f
    return -1


def side_letter(rec, f):
    """One letter for the player f (L lunar, S sartar, I independents) or N for no one."""
    return side_name(rec, f)[0].upper() if int(f) >= 0 else "N"


def stacks(state):
    """{hex: [units top first]} of every stack on the map."""
    rec = record(state)
    out = {}
    for u in range(len(UNIT_IDS)):
        if int(rec["unit_where"][u]) == UW_MAP:
            out.setdefault(int(rec["unit_hex"][u]), []).append(u)
    return {h: sorted(us, key=lambda u: -int(rec["unit_order"][u])) for h, us in out.items()}


def group(state):
    """Units of the group now moving."""
    rec = record(state)
    return [u for u in range(len(UNIT_IDS)) if int(rec["unit_flags"][u]) & UF_GROUP]


def neighbours(h):
    return [int(g) for g in HEX_STEP[h, 1:] if g >= 0]


def fortress_control(state):
    """{fortress name: controlling force}."""
    rec = record(state)
    return {name: side_name(rec, rec["fortress_owner"][k]) for k, name in enumerate(FORTRESS_NAMES)}


SITE_NAMES = ("Rich Post", "Wintertop", "Wild Temple")
"""The sites of ``rules.SITE_HEX``, in order (L293)."""


def site_control(state):
    """{site name: controlling player} of the victory sites that are not
    fortresses (18.6's Rich Post, Wintertop, Wild Temple, L293)."""
    rec = record(state)
    return {name: side_name(rec, rec["site_owner"][k]) for k, name in enumerate(SITE_NAMES)}


def victory_sites(state, f):
    """How many of 18.6's five victory sites (Bagnot, Dunstop, Rich Post,
    Wintertop, Wild Temple, L293) seat f controls -- ``rules.victory_sites`` read
    in Python."""
    rec = record(state)
    n = 0
    for h in R.VICTORY_18_6.tolist():
        k = int(R.HEX_FORTRESS[h])
        owner = rec["fortress_owner"][k] if k >= 0 else rec["site_owner"][int(R.HEX_SITE[h])]
        n += int(owner) == int(f)
    return n


def enemy_fortresses(state, f):
    """How many of the other side's fortresses force f controls (18.7's victory, L301)."""
    rec = record(state)
    sartar = [bool(x) for x in R.FORTRESS_SARTAR]
    return sum(1 for k in range(len(sartar)) if int(rec["fortress_owner"][k]) == f and sartar[k] == (f == 0))


def capitals_held(state, f):
    """How many of the players' capitals -- Furthest, Boldhome, Wintertop
    (``rules.FORCE_CAPITAL``) -- force f controls (18.8's victory, L313)."""
    rec = record(state)
    n = 0
    for h in R.FORCE_CAPITAL:
        k = int(R.HEX_FORTRESS[int(h)])
        owner = rec["fortress_owner"][k] if k >= 0 else rec["site_owner"][int(R.HEX_SITE[int(h)])]
        n += int(owner) == f
    return n


def marathon_capitals(state, f):
    """How many of Boldhome and Furthest force f controls (18.9's victory, L325)."""
    rec = record(state)
    return sum(1 for k in (R.BOLDHOME, R.FURTHEST) if int(rec["fortress_owner"][k]) == f)


def diplomacy_summary(state, f, seat=None):
    """Short words on force f's diplomacy as ``seat`` may know it (None: all):
    its Diplomacy Points held and assigned (his secret, L979), its allies
    (public). Empty outside the Full Game."""
    rec = record(state)
    if not int(R.SCENARIO_DIPLOMACY[int(rec["scenario"])]):
        return []
    parts = []
    if seat is None or int(seat) == f:
        assigned = [f"{DATA.tables.alliance_names[R.MAJORS[k]]} {int(rec['dp_assigned'][f, k])}"
                    for k in range(R.NUM_MAJORS) if int(rec["dp_assigned"][f, k]) and int(rec["faction_ally"][k]) < 0]
        parts.append(f"DP {int(rec['dp'][f])}" + (f" (assigned: {', '.join(assigned)})" if assigned else ""))
    allies = [FACTIONS[k] for k in range(R.NUM_FACTIONS) if int(rec["faction_ally"][k]) == f]
    if allies:
        parts.append("allies: " + ", ".join(a.replace("_", " ") for a in allies))
    return parts
