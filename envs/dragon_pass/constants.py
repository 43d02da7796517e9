"""Codes and sizes shared by Dragon Pass's data tables, rules and observations.

A hex is its index in ``data.MAP`` (``board.py``); a unit is one counter, its
index in :data:`UNIT_IDS` (every counter of ``data/units.txt``, then of
``data/independents.txt``, kind by kind in file order, each kind repeated
``counters`` times), whether or not the scenario deploys it. Directions are 1..6 (N NE SE S SW NW, ``board.HEX_STEP``).
"""
from .data import DATA

FORCES = ("lunar", "sartar", "tarsh")
"""The players' forces; a force is its index here. Two play in every
scenario but 18.8, the Lunars (0) and Sartar or, in 18.6, the Independent
player (1); 18.8 adds the Tarsh player (2), who plays the Independents it
takes (L303-L313)."""
LUNAR, SARTAR, TARSH = 0, 1, 2
NUM_FORCES = len(FORCES)
NEUTRAL = -1
"""The force of a counter no player controls: an Independent not allied, a
giant (``unit_force``; the Independents' own force in the data is
``independent``)."""
OCC_GIANTS = 3
"""In a board scan (``rules/base.py::scan_board``): a hex held by giants, no
player's, whose units are inactive to every player (L918); a giants' zone of
control stops the units of every force. Not a force index."""

SCENARIOS = ("18.1", "18.2", "18.3", "18.4", "18.5", "18.6", "18.7", "18.8", "18.9")
"""The scenarios the core sets up (L200-L325); a scenario is its index here."""
SC_18_1, SC_18_2, SC_18_3, SC_18_4, SC_18_5, SC_18_6, SC_18_7, SC_18_8, SC_18_9 = range(len(SCENARIOS))
PLAYABLE_SCENARIOS = SCENARIOS


def seat_of_side(side):
    """The seat of a scenario's side word (unitdata.SIDES): the Lunar player
    is seat 0; Sartar or the Independent player seat 1; 18.8's Tarsh player
    seat 2."""
    return {"lunar": LUNAR, "tarsh": TARSH}.get(side, SARTAR)


def _roles(sid):
    sides = DATA.scenarios[sid].sides
    if len(sides) == 3:
        return FORCES                   # 18.8: lunar, sartar, tarsh (L303)
    other = [f for f in sides if f != "lunar"][0]
    return ("lunar", "independents" if other == "independent" else other)


SCENARIO_ROLES = tuple(_roles(sid) for sid in SCENARIOS)
"""The players of each scenario, seat by seat (the PettingZoo agent names):
seat 0 (LUNAR) is always the Lunar player; seat 1 (SARTAR) is the Sartar
player, or in 18.6 the Independent player, who plays the Independents the
scenario takes (L284); in 18.8 seat 2 (TARSH) is the Tarsh player (L303).
A force index in the state is a seat."""
SCENARIO_INDEPENDENT_SEAT = tuple(1 if "independent" in DATA.scenarios[sid].sides else
                                  TARSH if "tarsh" in DATA.scenarios[sid].sides else NEUTRAL
                                  for sid in SCENARIOS)
"""The seat whose side the scenario's Independents are (18.6: the Independent
player's; 18.8: the Tarsh player's, L305), NEUTRAL where the scenario deploys
none."""
"""The scenarios a game may be made with (every one the core sets up)."""


KINDS = tuple(DATA.units.values()) + tuple(DATA.independent_units.values())
"""Every kind of counter: the Battalia's (and the Twin Stars), then the
Independents' and the special units' (L730-L920)."""


def _instances():
    ids, kinds = [], []
    for k, unit in enumerate(KINDS):
        for i in range(unit.counters):
            ids.append(unit.id if unit.counters == 1 else f"{unit.id}#{i + 1}")
            kinds.append(k)
    return tuple(ids), tuple(kinds)


UNIT_IDS, UNIT_KIND_OF = _instances()
"""Unit index -> ``"cc_lancers#3"`` (the kind's id, and the copy where there are
several); UNIT_KIND_OF[u] -> the index of its kind in :data:`KINDS`."""
UNIT_KINDS = tuple(k.id for k in KINDS)
NUM_UNITS = len(UNIT_IDS)
NUM_KINDS = len(UNIT_KINDS)

# where a unit is (``unit_where``)
UW_OUT = 0        # not in this scenario
UW_POOL = 1       # waiting to be deployed (L206-L242)
UW_MAP = 2        # on the map, at ``unit_hex``
UW_DEAD = 3       # eliminated: the dead pile (L588)
UW_ESCAPING = 4   # a hero or superhero eliminated this player-turn, to roll a heroic escape (L642)
UW_ENTERING = 5   # a reinforcement or replacement off the board, to enter from its edge (L474)
UW_HOLDING = 6    # a magician's spirit or agent in its holding box (L416, L496)
UW_COMMITTED = 7  # a spirit or agent committed to attack the inactive stack at ``unit_hex`` (L496)
UW_SUPPORT = 8    # a spirit giving magical support to its side's stack at ``unit_hex`` (L508, L604)
"""Spirits and agents committed or supporting sit atop another stack (L448)
without being part of it for movement, zones of control and ownership:
they are not ``UW_MAP``."""

# the board edges reinforcements and replacements enter by (``unit_entry``, rules/base.py::ENTRY_HEXES)
ENTRY_SARTAR_SOUTH = 0    # the south edge hexes east of Stone Cross (1934), inclusive (L297, L323, L972)
ENTRY_LUNAR_GLOWLINE = 1  # the edge hexes of the dark Glowline (L981)
ENTRY_SARTAR_SOUTH_EDGE = 2  # Androgeus allied by Sartar: the south edge anywhere in Sartar (L800)
ENTRY_IMPERIAL_EDGE = 3   # Androgeus allied by the Lunars: any edge hex of the Imperial borders (L800)
ENTRY_WEST_EDGE = 4       # the dragon sent to fetch Hungry Jack comes back by the West map edge (L870; rules/fetch.py)
ENTRY_SOUTH_EDGE = 5      # 18.9's South Soldier Reserve: any south edge hex, west of Stone Cross too (L321)
NUM_ENTRY_ZONES = 6

# the side of a counter that is up (``unit_side``)
SIDE_FRONT, SIDE_BACK = 0, 1
"""The back is the disrupted side (L590), or a superhero's Berserker Rage (L656)."""

RANK_NONE, RANK_HERO, RANK_SUPERHERO = 0, 1, 2
RUNE_NONE, RUNE_WATER, RUNE_STONE, RUNE_AIR = 0, 1, 2, 3

# missile-modifier tags of a kind (bits of base.U_TAGS, L382-L384, L1107-L1109)
TAG_DUCK, TAG_BISON, TAG_DRAGON, TAG_LARGE = 1, 2, 4, 8
"""TAG_LARGE: a giant, llama, herd or ancestor (+1 to missile fire at its stack)."""

# per-unit flags of the current phase (``unit_flags`` bits)
UF_MOVED = 1       # has moved (or chosen not to) this movement phase
UF_GROUP = 2       # in the group now moving
UF_ARRANGED = 4    # its stack was arranged this phase (each arrangement lifts a new unit)
UF_USED = 8        # its stack fought a battle this combat phase (L516)
UF_ADVANCED = 16   # advanced after combat this battle (L600)
UF_RETREATED = 32  # retreated out of this battle (L576)
UF_LIFTED = 64     # lifted in the arrangement now being made
UF_FOUGHT = 128    # fought in this melee's attack or counter-attack (not in reserve, L571)
UF_FLEE = 256      # disrupted, and must end its move away from the enemy (L590)
UF_HIT = 512       # already taken as a casualty of this missile result
UF_FRIEND_FELL = 1024  # a superhero whose best friend was eliminated in this battle (L654)
UF_CLOSE = 2048    # a berserk superhero that must end its move as close as it can to its scapegoat (L656)
UF_ATTACKED = 4096  # a spirit that made a spirit magic attack in this battle (only these are DSM's casualties, L552)
UF_SAVED = 8192    # protected by its superhero's magic invulnerability in this battle (L650)
UF_EXOTIC = 16384  # used its exotic ability this phase; the Crater Makers' agent: no attack this turn (L710);
#                    a Dragontooth Runner: summoned this movement phase, not again (L684)

# stages of the sequence of play (``stage``)
ST_DEPLOY = 0       # deployment, one unit at a time (L206-L242)
ST_TURN_START = 1   # a player-turn begins (L175-L181)
ST_MOVEMENT = 2     # the movement phase (L437-L475)
ST_COMBAT = 3       # the combat phase (L492-L601)
ST_RALLY = 4        # the rally phase (L590, L642)
ST_BOOKKEEPING = 5  # the book-keeping phase: the end of a game-turn (L182)
ST_OVER = 6
ST_EXOTIC = 7       # the Exotic Magic Phase, between movement and combat (L178, L672); and the
                    # effects a day brings before a player-turn's movement (the storm's flood, L688)
ST_DIPLOMACY = 8    # the Diplomacy Segment: Diplomacy Points received and assigned in secret,
                    # replacements (L170, L979, L981, L299; rules/alliance.py)
ST_ALLIANCE = 9     # the Alliance Phase of a player-turn (L176, L983, L985, L993; rules/alliance.py)
ST_RANDOM_EVENTS = 10  # the Random Events Segment at the start of a game-turn, with the Random
                       # Events Option (L174, L950-L973; rules/events.py)
ST_RANDOM_MOVE = 11    # the Random Movement Phase, before a player-turn's movement: the active
                       # player moves every giant (L176, L490, L918; rules/giants.py)
NUM_STAGES = 12
