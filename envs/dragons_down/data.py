"""Dragons Down realm data, read from ``envs/dragons_down/data/*.txt``.

The rulebook (``shared/rules/dragons_down.txt``; ``L123`` is its line 123)
names the components but prints almost none of them. The text files are the
source of truth: printed values are transcribed with their line, the rest is
authored for dragongym and marked ``*`` (see ``envs/dragons_down/SUBSTITUTES.md``).
This module parses them into plain frozen dataclasses, checks every rule the
rulebook states about them, and raises :class:`DataError` (a ``ValueError``)
naming the file, the line and the problem. Pure Python; nothing is compiled.

    from dragongym.envs.dragons_down import data
    realm = data.REALM                      # loaded at import
    realm.monsters["great_drake"].back.damage        # 4
    data.build_open_realm(data.PACKS)       # a legal Open Realm map (L109)

:class:`Realm` (``load(data_dir)`` returns one; ``REALM`` is the default):

=================  ==============================  ===================================
field              type                            file
=================  ==============================  ===================================
dice               dict[str, Die]                  dice.txt
monsters           dict[str, Monster]              monsters.txt
natives            dict[str, Native]               natives.txt
tiles              dict[str, Tile]                 tiles.txt
setup_cards        dict[str, SetupCard] (by pack)  setup_cards.txt
lineages, classes  dict[str, HeroCard]             heroes.txt
items              dict[str, Card]                 items.txt
treasures          dict[str, Card]                 treasures.txt
spells             dict[str, Spell]                spells.txt
curses             dict[str, Curse] (roll order)   curses.txt
civ_locations      dict[str, CivLocation]          tokens.txt
civ_tokens         dict[str, CivToken]             tokens.txt
wilderness_tokens  dict[str, WildernessToken]      tokens.txt
site_tokens        dict[str, SiteToken]            tokens.txt
missions           dict[str, Mission]              missions.txt
civ_cards          dict[str, CivCard] (by loc.)    civilization.txt
=================  ==============================  ===================================

Every record has ``cite`` (the rulebook lines, e.g. ``("L851", "L1266")``) and
``substituted`` (the names of its fields holding an authored value; a side's
fields are prefixed ``front.``/``back.`` or ``1.``/``2.``).

Map geometry (tiles.txt header): flat-topped hexes, edges 1..6 clockwise from
N, the directions of :mod:`dragongym.envs.core.hexgrid`; a tile at rotation r
has its edge e facing map direction ((e - 1 + r) mod 6) + 1.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path

from dragongym.envs.core.hexgrid import DIRECTIONS, opposite
from dragongym.envs.core.records import DataError, Line, Record, Syntax, cites, read_sections

DATA_DIR = Path(__file__).with_name("data")
RULEBOOK_LINES = 1704
"""Lines in shared/rules/dragons_down.txt (the last, the dedication, has no newline); every cite must fall inside."""

# ----------------------------------------------------- rulebook vocabulary ----

PACKS = ("cruel_caves", "malevolent_mountains", "wicked_woods")
"""The three Terrain Packs (L278)."""
CLEARING_TYPES = ("plains", "cave", "mountains", "woods", "swamp")
"""Clearing types (L290)."""
MAGIC_COLOURS = ("black", "blue", "gray", "green", "purple", "white", "yellow")
"""Magic Cube colours (L406)."""
ATTRIBUTES = ("cunning", "wisdom", "charisma")
"""Hero attributes (L351)."""
LINEAGES = ("dwarf", "elf", "halfling", "human")
"""The four Lineage Cards (L198)."""
CLASSES = ("archer", "barbarian", "cleric", "conjurer", "druid", "enchanter",
           "illusionist", "knight", "rogue", "sorcerer", "warlock", "warrior")
"""The twelve Class Cards (the Class Advantages, L1208-L1230)."""
POSITIONS = ("neck", "waist", "feet", "head", "chest", "head_chest", "one_handed",
             "two_handed", "one_or_two_handed", "single_hand", "two_hands", "misc",
             "backpack", "backpack_special")
"""Card positions (L936-L960); one_or_two_handed is the spear (L950)."""
WEAPON_KINDS = ("melee", "ranged", "melee_or_ranged")
"""Weapon banners (L924-L928)."""
CARD_USES = ("permanent", "combat", "one_time", "instant", "none")
FREE_ACTIONS = ("alert", "trade", "loot", "learn", "enchant", "move", "rest", "sneak", "search")
"""The actions a Symbol treasure makes one of a turn free (L1432-L1448)."""
"""Card types (L916, L932, L934, L962); none: a plain weapon, armour or valuable."""
SITE_FEATURES = ("labyrinth", "massive_door", "hidden_trap", "active_wraith")
"""Treasure Site features (L1236, L1240, L1248, L1252)."""
EDGE_NAMES = ("N", "NE", "SE", "S", "SW", "NW")
"""Edge / direction 1..6 names (tiles.txt header, core.hexgrid)."""
CURSE_KINDS = ("instant", "lasting")
"""Curse kinds: an instant effect (L1103) or one kept until removed (L1101, L422)."""
PRINTED_CURSES = {"teleport": "L1103", "summon": "L1105"}
"""The curses the rulebook prints, both instant (L1103-L1105)."""
MISSION_KINDS = ("atrocity", "quest", "expedition")
"""Mission types: red, white and brown banners (L330, L1075)."""
MISSION_OUTLAW = {"atrocity": "gain", "quest": "discard", "expedition": "none"}
"""What completing a mission of each kind does to Outlaw Tokens: an Atrocity
gives one (L396, L1116), a Quest lets the Hero discard one he already holds
(L1083, L1121), an Expedition does neither."""
TASK_VERBS = {"kill": (("monster", "group"), True), "kill_native": (("group",), True),
              "loot": (("site",), False), "enter": (("tile",), False)}
"""Mission task verbs (missions.txt): verb -> (the target names it may take,
one of them exactly; whether it takes count=N)."""
PRINTED_MISSIONS = {"temple_defiler": ("Temple Defiler", "atrocity", "cunning", (0, 1, 20), "L1087")}
"""The Mission Card the rulebook prints: id -> (name, kind, bonus attribute,
(gold, LP, Fame) reward, line). "The one Legend Point, 20 Fame, and Outlaw
Token" (L1087) names no Gold."""
TITLE_BOXES = ("small", "large")
"""Title boxes: a small box is claimed once, a large box any number of times,
one per Trade Action (L567)."""
TITLE_REQUIREMENTS = ("fame", "lp", "kills", "missions", "outlaw", "no_outlaw")
"""Title requirements (civilization.txt): fame>=N, lp>=N, kills>=N,
missions>=N, outlaw, no_outlaw."""

NAMED_MONSTERS = {
    "giant_spider": "L300", "goblin": "L651", "griffon": "L658",
    "juvenile_dragon": "L224", "adult_dragon": "L1266", "great_drake": "L300",
    "great_wyrm": "L1266", "giant": "L842", "giant_bat": "L1105", "demon": "L1260",
    "lich": "L1268", "titan": "L1272", "wraith": "L1276", "orc_lord": "L1258",
    "orc_champion": "L1258", "goblin_king": "L1258", "kobold_rex": "L1258",
    "bandit": "L1246", "orc": "L1702", "ogre": "L1702",
}
"""Every monster the rulebook names, with a line naming it."""
LEADERS = ("orc_lord", "orc_champion", "goblin_king", "kobold_rex")
"""Unique Monsters besides the Guardians (L1258)."""
FIRE_BREATHERS = ("great_drake", "great_wyrm", "adult_dragon")
"""Dragons that breathe fire (L1266)."""
MONSTER_SPELLS = {("demon", "back"): "fiery_chasm", ("lich", "back"): "vapor_form",
                  ("titan", "front"): "teleport"}
"""Spells cast by a monster side (L1262, L1270, L1274)."""

# The Treasure Manifest (L1282-L1484): each name with what its entry says the
# card is. epic: "Epic Treasure" (and L366); one_time / instant: "One-time use" /
# "Instant"; melee / ranged / melee_or_ranged: the weapon banner; sharp: "Extra
# sharp"; armor: "Armor" (or a "normal shield", L1414); valuable: "Valuable";
# face_up: "Must always be face-up" (Backpack Special, L960).
MANIFEST = {
    "Adamantium Blade": (1282, "melee"), "Alchemist's Mixture": (1284, "one_time"),
    "Artificer's Concoction": (1286, "one_time ranged"),
    "Ascendant Ornament": (1288, "epic"), "Band of Sagacity": (1290, "epic"),
    "Battle Staff": (1292, "melee"), "Bauble of Intelligence": (1294, ""),
    "Bejeweled Breastplate": (1296, "armor valuable"),
    "Bejeweled Helm": (1298, "armor valuable"),
    "Bejeweled Shield": (1300, "armor valuable"), "Belt of Expansion": (1302, ""),
    "Belt of the Beast": (1304, "epic"), "Bow of the Hunt": (1306, "epic sharp ranged"),
    "Bracelets of Finesse": (1308, ""), "Bracers of Vigor": (1310, ""),
    "Broche of Deflection": (1312, "one_time"), "Cape of Alteration": (1314, "epic"),
    "Charismatic Gemstone": (1316, ""), "Clashing Ring": (1318, ""),
    "Cursed Treasure": (1320, "instant"),
    "Dagger of Bite": (1322, "melee_or_ranged sharp"), "Decimation": (1324, "epic"),
    "Digger's Ruin": (1326, ""), "DisEnchanter": (1328, "face_up"),
    "Dust of Destiny": (1330, "one_time"), "Earthen Cincture": (1332, "epic"),
    "Elemental Spherule": (1334, "one_time"), "Elven Amulet": (1336, ""),
    "Elven Slippers": (1338, "epic"), "Enchanted Treasure": (1340, "instant"),
    "Gage of the Thief": (1342, ""), "Garb of the Gate": (1344, "epic"),
    "Gauntlets of Brawn": (1346, ""), "Gloves of Aggression": (1348, ""),
    "Golden Icon": (1350, "epic valuable"), "Guard Charm": (1352, "one_time"),
    "Hamblen's Pendant": (1354, ""), "Hawkeye": (1356, ""),
    "Horn of the Dark Angel": (1358, "one_time"),
    "Icon of the Dragon": (1360, "epic valuable face_up"),
    "Incanter's Jewel": (1362, "epic"), "King's Pardon": (1364, "one_time"),
    "Mace of Smiting": (1366, "melee"), "Magical Bowl of Mixing": (1368, "epic"),
    "Mirror of Idolatry": (1370, "epic face_up"),
    "Mithral Chainmail": (1372, "epic armor"), "Mithral Plate Armor": (1374, "epic armor"),
    "Mithral Shield": (1376, "epic armor"), "Potion of Energy": (1378, "one_time"),
    "Potion of Flight": (1380, "one_time"), "Potion of Healing": (1382, "one_time"),
    "Potion of Maneuver": (1384, "one_time"), "Potion of Might": (1386, "one_time"),
    "Potion of Relief": (1388, "one_time"), "Quick Ring": (1390, ""),
    "Ring of Malevolence": (1392, "epic"), "Ring of Strength": (1394, ""),
    "Ring of the Magi": (1396, ""), "Ring of Truth": (1398, "epic"),
    "Robe of the Chanter": (1400, "epic"), "Robust Ring": (1402, ""),
    "Satchel of a Giant": (1404, "instant"), "Scepter of the Sorcerer": (1406, "epic"),
    "Shadow Cloak": (1408, "epic"), "Shaman's Kaftan": (1410, "epic"),
    "Shield of Defiance": (1412, "epic armor"), "Shield of Mercy": (1414, "epic armor"),
    "Shoes of the Thief": (1416, ""), "Skeleton Key": (1418, ""),
    "Sparkler of Wisdom": (1420, ""), "Spear of Piercing": (1422, "melee_or_ranged sharp"),
    "Spell Book": (1424, ""), "Spell Scroll": (1424, ""),
    "Summoning Marcation": (1430, "epic valuable face_up"),
    "Symbol of Alertness": (1432, ""), "Symbol of Commerce": (1434, ""),
    "Symbol of Greed": (1436, ""), "Symbol of Knowledge": (1438, ""),
    "Symbol of Magic": (1440, ""), "Symbol of Motion": (1442, ""),
    "Symbol of Rest": (1444, ""), "Symbol of Stealth": (1446, ""),
    "Symbol of Vision": (1448, ""), "Talaria of the Gladiator": (1450, ""),
    "Taper of Illumination": (1452, "epic"), "Thief's Lucky Coin": (1454, "one_time"),
    "Time Stone": (1456, "one_time"), "Tome of Conjuring": (1458, "one_time"),
    "Tome of Fay": (1460, "one_time"), "Tome of Nature": (1462, "one_time"),
    "Tome of Power": (1464, "one_time"), "Tome of Righteousness": (1466, "one_time"),
    "Tome of the Black Arts": (1468, "one_time"), "Tome of Tricks": (1470, "one_time"),
    "Tome of Wizardry": (1472, "one_time"), "Trickster's Stone": (1474, "epic"),
    "Tricky Ring": (1476, "epic"), "Vorpal Cutlass": (1478, "melee sharp"),
    "Wand of the Magician": (1480, "epic"), "Warblade": (1482, "melee"),
    "Writ of Redemption": (1484, "one_time"),
}

# The Spell Manifest (L1492-L1596): colour, targeting, duration, form, the
# colour of the cube it wounds ("Wound one X cube"; "any" for Break Spells,
# None when it wounds none) and its undead marking.
SPELL_MANIFEST = {
    "Break Spells": ("universal", "targeted", "instantaneous", "-", "any", "-"),
    "Affliction": ("black", "targeted", "instantaneous", "-", None, "-"),
    "Curse": ("black", "targeted", "instantaneous", "-", "black", "-"),
    "Dark Matter": ("black", "targeted", "permanent", "-", "black", "-"),
    "Rule Undead": ("black", "targeted", "combat", "-", "black", "only"),
    "Fiery Chasm": ("black", "none", "instantaneous", "-", "black", "-"),
    "Floating Disk": ("blue", "self_or_other", "turn", "-", None, "-"),
    "Open Gate": ("blue", "targeted", "instantaneous", "-", "blue", "-"),
    "Tentacles": ("blue", "none", "combat", "-", "blue", "-"),
    "Air Sword": ("blue", "none", "combat", "-", "blue", "-"),
    "Teleport": ("blue", "targeted", "instantaneous", "-", "blue", "-"),
    "Divination": ("gray", "self_or_other", "turn", "-", None, "-"),
    "Envenom": ("gray", "self_or_other", "combat", "-", "gray", "immune"),
    "Illusion": ("gray", "self_or_other", "combat", "-", "gray", "-"),
    "Anti-Magic": ("gray", "self_or_other", "combat", "-", "gray", "-"),
    "Vapor Form": ("gray", "targeted", "permanent", "-", "gray", "-"),
    "Nature's Help": ("green", "self_or_other", "turn", "-", None, "-"),
    "Trail Blaze": ("green", "self_or_other", "turn", "-", "green", "-"),
    "Move Earth": ("green", "none", "instantaneous", "-", "green", "-"),
    "Calm": ("green", "targeted", "instantaneous", "-", "green", "immune"),
    "Elemental": ("green", "none", "combat", "-", "green", "-"),
    "Iron Skin": ("purple", "self_or_other", "combat", "-", None, "-"),
    "Strength": ("purple", "self_or_other", "combat", "-", "purple", "-"),
    "Fly": ("purple", "self_or_other", "turn", "-", "purple", "-"),
    "Fireball": ("purple", "targeted:4", "instantaneous", "ranged", "purple", "-"),
    "Shape Shift": ("purple", "self", "permanent", "-", "purple", "-"),
    "Soul Save": ("white", "self_or_other", "combat", "-", None, "-"),
    "Heal": ("white", "self_or_other", "combat", "-", "white", "-"),
    "Life Armor": ("white", "self_or_other", "combat", "-", "white", "-"),
    "Turn Undead": ("white", "none", "instantaneous", "-", "white", "only"),
    "Peace": ("white", "none", "instantaneous", "-", "white", "-"),
    "Hesitation": ("yellow", "targeted", "combat", "-", None, "-"),
    "Confuse": ("yellow", "targeted", "combat", "-", "yellow", "-"),
    "Charm": ("yellow", "self_or_other", "turn", "-", "yellow", "-"),
    "Disorient": ("yellow", "targeted", "combat", "-", "yellow", "-"),
    "Discord": ("yellow", "targeted:2", "combat", "-", "yellow", "-"),
}

# Dice faces the rulebook states exactly (L232-L260) and the dice counts.
_DICE_RULES = {
    "search": (2, {"spyglass": 3, "blank": 3}, "L232"),
    "hit": (2, {"hit": 3, "equal": 1, "blank": 2}, "L236"),
    "ranged": (2, None, "L240"),
    "monster": (2, {"monster": 2, "blank": 4}, "L244"),
    "loot": (2, {0: 1, 1: 1, 2: 1, 3: 1, 4: 1, 5: 1}, "L248"),
    "haggle": (2, {0: 1, 1: 1, 2: 1, 3: 1, 4: 1, "door": 1}, "L252"),
    "learn": (2, {"book": 3, "blank": 2, "curse": 1}, "L260"),
    "mission": (None, None, "L256"),
    "d6": (1, {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1}, "L189"),
    "wandering_symbol": (1, None, "L222"),
    "wandering_number": (1, None, "L222"),
    "local_symbol": (1, None, "L222"),
    "local_number": (1, None, "L222"),
}


# ------------------------------------------------------------ records ----

@dataclass(frozen=True)
class Die:
    """A custom die (dice.txt). faces: 6 entries, ints or face words."""
    id: str
    name: str
    colour: str
    count: int
    faces: tuple
    cite: tuple
    substituted: frozenset


@dataclass(frozen=True)
class ChipSide:
    """One side of a Monster or Native chip.

    attack: melee | ranged | fire | spell; spell: the spell id (attack == "spell")
    or None; damage and swords are None for a spell side; targets: how many
    Heroes the attack may strike (4 for fire, L1266; else 1).
    """
    attack: str
    spell: str | None
    length: int
    speed: int
    damage: int | None
    swords: int | None
    maneuver: int
    targets: int


@dataclass(frozen=True)
class Monster:
    """A monster (monsters.txt); kind: wandering | local | leader | guardian | elemental."""
    id: str
    name: str
    plural: str
    kind: str
    pack: str | None
    chips: int
    fame: int
    health: int
    armored: bool
    undead: bool
    flying: bool
    unique: bool
    group: str | None
    front: ChipSide
    back: ChipSide
    cite: tuple
    substituted: frozenset


@dataclass(frozen=True)
class Native:
    """A Native chip (natives.txt)."""
    id: str
    name: str
    group: str
    pack: str
    chips: int
    respect: str
    fame: int
    health: int
    armored: bool
    front: ChipSide
    back: ChipSide
    cite: tuple
    substituted: frozenset


@dataclass(frozen=True)
class TileSide:
    """One side of a Map Tile.

    clearings[i] is the type of clearing i + 1; paths: (a, b) normal paths,
    a < b; hidden: (a, b, colour) Hidden Paths; edges[e - 1]: the clearing the
    path across edge e leads to, or None.
    """
    clearings: tuple
    paths: tuple
    hidden: tuple
    edges: tuple

    def path_edges(self):
        """Six booleans: does edge 1..6 carry a path."""
        return tuple(c is not None for c in self.edges)


@dataclass(frozen=True)
class Tile:
    """A Map Tile (tiles.txt); kind civilization | wilderness.

    local_symbol / local_monster / local_dual: the Local Monster summoning
    symbol, the monster id and the dual dice icon (None/False on a
    Civilization Tile). sides: (side 1, side 2).
    """
    id: str
    name: str
    pack: str
    kind: str
    local_symbol: str | None
    local_monster: str | None
    local_dual: bool
    sides: tuple
    cite: tuple


@dataclass(frozen=True)
class SiteInfo:
    """A Treasure Site on a Terrain Setup Card; token: site | wilderness."""
    id: str
    name: str
    guardian: str
    token: str
    red_arrow: bool


@dataclass(frozen=True)
class SiteLoot:
    """What a site's Treasure Pile holds on one side of its card."""
    treasures: int
    deep: int
    gold: int
    features: tuple


@dataclass(frozen=True)
class MerchantInfo:
    """A Merchant: name and the attribute icons it respects (a tuple)."""
    id: str
    name: str
    respect: tuple


@dataclass(frozen=True)
class MerchantStock:
    """Cards put with a Merchant when revealed (L491)."""
    treasures: int
    items: int
    missions: int


@dataclass(frozen=True)
class SetupSide:
    """One side of a Terrain Setup Card.

    natives: Native ids (a chip id once per chip); loot: site id -> SiteLoot;
    stock: merchant id -> MerchantStock.
    """
    natives: tuple
    loot: dict
    stock: dict


@dataclass(frozen=True)
class SetupCard:
    """A Terrain Setup Card (setup_cards.txt); id = the pack."""
    pack: str
    name: str
    wandering: str
    civ_location: str
    native_group: str
    sites: dict
    merchants: dict
    sides: tuple
    cite: tuple


@dataclass(frozen=True)
class HeroSide:
    """One side of a Lineage or Class Card.

    cubes: the non-Heart Action Cubes, each a tuple of the colours it may be
    taken as ("might",), ("speed",), ("black", "purple"), ...; equipment and
    gold are () and 0 on Lineage Cards; aim_head/aim_torso are 0 on Class Cards.
    """
    hearts: int
    cubes: tuple
    attack_boxes: int
    maneuver_boxes: int
    cunning: int
    wisdom: int
    charisma: int
    aim_head: int
    aim_torso: int
    spells: int
    equipment: tuple
    gold: int

    @property
    def might(self):
        return sum(1 for c in self.cubes if c == ("might",))

    @property
    def speed(self):
        return sum(1 for c in self.cubes if c == ("speed",))

    @property
    def magic(self):
        return tuple(c for c in self.cubes if c not in (("might",), ("speed",)))


@dataclass(frozen=True)
class HeroCard:
    """A Lineage or Class Card (heroes.txt); kind lineage | class."""
    id: str
    name: str
    kind: str
    advantage: str
    sides: tuple
    cite: tuple
    substituted: frozenset


@dataclass(frozen=True)
class Card:
    """An Item or Treasure Card (items.txt, treasures.txt).

    kind: item | treasure; copies: {"item": n} or {"treasure": n, "deep": m};
    price None = variable; length: () or (melee,) or (melee, thrown);
    might_mandatory / might_optional / might_two_handed: red boxes (L722, L950);
    auto: "mandatory" | "optional" | None (boxes filled automatically);
    speed_mandatory: brown boxes in lieu of might (L1482); weight: the armour
    weight, or for a weapon its mandatory boxes (L976). gives: the cube kind
    ("might", "speed", a colour) held while equipped; grants: the cube kind
    (or "choice") a one-time card gives for good; attribute: the attribute
    it adds an icon of while equipped; free: the action (FREE_ACTIONS) it
    makes one of a turn free; search: the clearing type (CLEARING_TYPES)
    in which it rerolls a Search Die; takes: the Magic Cube colour (or
    "any") the card takes in Hero Tactics; mixes: the two Magic Cube colours
    a cube on it converts between (the Magical Bowl of Mixing, L1368).
    """
    id: str
    name: str
    kind: str
    copies: dict
    epic: bool
    valuable: bool
    price: int | None
    position: str
    use: str
    weapon: str | None
    length: tuple
    might_mandatory: int
    might_optional: int
    might_two_handed: int
    auto: str | None
    speed_mandatory: int
    swords: int
    armor: int
    weight: int
    repair: int
    casts: str | None
    spells: int
    colour: str | None
    effect: str | None
    cite: tuple
    substituted: frozenset
    gives: str | None = None
    grants: str | None = None
    attribute: str | None = None
    free: str | None = None
    search: str | None = None
    takes: str | None = None
    mixes: tuple | None = None

    @property
    def is_shield(self):
        return self.armor > 0 and self.position == "one_handed"

    @property
    def backpack_special(self):
        return self.position == "backpack_special"


@dataclass(frozen=True)
class Spell:
    """A Spell Card (spells.txt). boxes: ((colour or "any", wound), ...);
    targets: how many it may target (target "targeted:N")."""
    id: str
    name: str
    colour: str
    level: int
    boxes: tuple
    target: str
    targets: int
    duration: str
    form: str
    length: int
    speed: int
    price: int
    start_copies: int
    deck_copies: int
    undead: str
    cite: tuple
    substituted: frozenset


@dataclass(frozen=True)
class Curse:
    """A row of the Curse Table (curses.txt): the d6 face ``roll`` (1..6)
    selects it; kind "instant" (takes effect once) or "lasting" (kept until
    removed, L1101)."""
    id: str
    name: str
    roll: int
    kind: str
    cite: tuple
    substituted: frozenset

    @property
    def instant(self):
        return self.kind == "instant"


@dataclass(frozen=True)
class CivLocation:
    id: str
    name: str
    pack: str
    cite: tuple


@dataclass(frozen=True)
class CivToken:
    """A Civilization Token; merchant None = empty (L318)."""
    id: str
    pack: str
    merchant: str | None
    copies: int
    cite: tuple


@dataclass(frozen=True)
class WildernessToken:
    """A Wilderness Token kind (tokens.txt); clearing None = not numbered."""
    id: str
    name: str
    pack: str
    kind: str
    target: str | None
    clearing: int | None
    copies: int
    cite: tuple


@dataclass(frozen=True)
class SiteToken:
    id: str
    site: str
    pack: str
    clearing: int
    cite: tuple


@dataclass(frozen=True)
class Payout:
    """Gold, Legend Points and Fame a Hero receives; a negative amount is lost
    (never more than the Hero holds)."""
    gold: int
    lp: int
    fame: int


@dataclass(frozen=True)
class MissionTask:
    """One task of a Mission Card (missions.txt). All tasks of a card must hold
    when the completing Trade Action is spent; what the Hero did before taking
    the card counts (L1079).

    verb: kill | kill_native | loot | enter. by: what ``target`` names --
    "monster" (a monsters.txt id) or "group" (a monsters.txt group, e.g. the
    Bandits) for kill; "group" (a Native Group of natives.txt) for
    kill_native; "site" (a Treasure Site of setup_cards.txt) for loot; "tile"
    (a Map Tile of tiles.txt) for enter. count: for kill and kill_native, how
    many the Hero must have killed this game, credited as for Fame (L799,
    L1550, L1596); 1 for loot (a successful Loot Action at the site; finding
    the Secret Cache counts, L1244) and enter (the Hero has entered the tile).
    """
    verb: str
    by: str
    target: str
    count: int


@dataclass(frozen=True)
class Mission:
    """A Mission Card (missions.txt).

    kind: atrocity | quest | expedition (L1075); pack: the Terrain Pack icon
    that puts the card in the Mission Deck when the pack is in play (L184);
    text: the card's description (L332); tasks: its MissionTasks, all needed
    (L1079); complete_at: where the completing Trade Action is spent (L566,
    L1079) -- a Civilization Location id (tokens.txt) or a Merchant id
    (setup_cards.txt; wherever its Civilization Token stands), of the card's
    pack; reward: the printed Payout (L1079, never negative); bonus: the
    attribute (ATTRIBUTES) of which each icon on the Hero's Lineage and Class
    Cards rolls one Mission Die (L256, L1081); outlaw: "gain" (the Hero takes
    an Outlaw Token), "discard" (he may discard one he already holds) or
    "none" (MISSION_OUTLAW, L1083); discard: the mandatory Payout when the card
    is discarded uncompleted (L1071), None when the card has none.
    """
    id: str
    name: str
    kind: str
    pack: str
    text: str
    tasks: tuple
    complete_at: str
    reward: Payout
    bonus: str
    outlaw: str
    discard: Payout | None
    cite: tuple
    substituted: frozenset


@dataclass(frozen=True)
class Title:
    """A title box of a Civilization Card side (civilization.txt).

    box: small (claimed once, by the first claimer) | large (any number of
    times, one per Trade Action) (L567). Requirements, all needed to claim:
    min_fame / min_lp (Fame / Legend Points the Hero holds), min_kills
    (Monsters he has killed this game, credited as for Fame, L799; Natives
    not counted), min_missions (missions he has completed); 0 means no such
    requirement. outlaw: True (he must hold an Outlaw Token), False (he must
    hold none) or None (either). requires: the requirement words as written
    ("fame>=10", "no_outlaw", ...; () for none). price: Gold paid to claim;
    lp, fame: the reward (L567, L1664).
    """
    id: str
    name: str
    box: str
    min_fame: int
    min_lp: int
    min_kills: int
    min_missions: int
    outlaw: bool | None
    requires: tuple
    price: int
    lp: int
    fame: int

    @property
    def small(self):
        return self.box == "small"

    @property
    def large(self):
        return self.box == "large"


@dataclass(frozen=True)
class CivSide:
    """One side of a Civilization Card. limit: the most titles of this side
    one Hero may claim in a game, small and large boxes together, each claim
    of a large box counting once (L326 "Limit (if applicable)"); None: no
    limit beyond L567. titles: its Titles, in card order."""
    limit: int | None
    titles: tuple


@dataclass(frozen=True)
class CivCard:
    """A Civilization Card (civilization.txt); id = its Civilization Location.
    group: the Native Group of which a member must be present to claim a
    title (L567); sides: (side 1, side 2), one of them up at random (L180)."""
    id: str
    pack: str
    group: str
    sides: tuple
    cite: tuple
    substituted: frozenset

    def title(self, title_id):
        """(side number 1 or 2, Title) of the title ``title_id`` of this card."""
        for n, side in enumerate(self.sides, 1):
            for t in side.titles:
                if t.id == title_id:
                    return n, t
        raise KeyError(title_id)


@dataclass(frozen=True)
class Realm:
    """Everything in the data folder; see the module docstring."""
    dice: dict
    monsters: dict
    natives: dict
    tiles: dict
    setup_cards: dict
    lineages: dict
    classes: dict
    items: dict
    treasures: dict
    spells: dict
    civ_locations: dict
    civ_tokens: dict
    wilderness_tokens: dict
    site_tokens: dict
    curses: dict
    missions: dict = field(default_factory=dict)
    """Mission Cards by id, in file order (missions.txt)."""
    civ_cards: dict = field(default_factory=dict)
    """Civilization Cards by Civilization Location id (civilization.txt)."""

    def tiles_of(self, packs):
        """Tile ids of the given packs, in file order."""
        return [t for t, tile in self.tiles.items() if tile.pack in packs]

    def card(self, card_id):
        """An Item or Treasure Card by id."""
        return self.items.get(card_id) or self.treasures[card_id]

    def missions_of(self, packs):
        """Mission ids of the given packs, in file order: the cards shuffled
        into the one Mission Deck when those packs are in play (L184)."""
        return [m for m, mission in self.missions.items() if mission.pack in packs]


# ------------------------------------------------------------ the reader ----

class _Syntax(Syntax):
    """The syntax of the realm files: a ``#`` inside ``"quotes"`` starts no
    comment, and a token with an unbalanced quote is an error."""

    want = "'[kind id]' or '[table name]'"

    def strip_comment(self, raw):
        out, quoted = [], False
        for ch in raw:
            if ch == '"':
                quoted = not quoted
            elif ch == "#" and not quoted:
                break
            out.append(ch)
        return "".join(out)

    def split(self, text, file, line):
        key, tokens, rest = super().split(text, file, line)
        if any(t.count('"') % 2 for t in [key] + tokens):
            raise DataError(file, line, "unbalanced quote")
        return key, tokens, rest


_SYNTAX = _Syntax()


def _read_sections(path):
    """The file's ``[kind id]`` / ``[table name]`` sections and their lines."""
    return read_sections(path, _SYNTAX)


class _Rec(Record):
    """Reading one record (a ``records.Record``, mark ``*``) with the value helpers."""

    def text(self, key, required=True):
        ln = self.one(key, required)
        if ln is None:
            return None
        if not ln.rest:
            self.err(ln.line, f"{key!r} needs a value")
        return ln.rest.strip('"')

    def word(self, ln, token, fieldname, choices=None):
        value = self.star(token, fieldname)
        if choices is not None and value not in choices:
            self.err(ln.line, f"{fieldname}: {value!r} is not one of {', '.join(map(str, choices))}")
        return value

    def int(self, ln, token, fieldname, lo=0, hi=None):
        value = self.star(token, fieldname)
        try:
            number = int(value)
        except ValueError:
            self.err(ln.line, f"{fieldname}: {value!r} is not an integer")
        if number < lo or (hi is not None and number > hi):
            rng = f"{lo}..{hi}" if hi is not None else f">= {lo}"
            self.err(ln.line, f"{fieldname}: {number} is out of range ({rng})")
        return number

    def int_key(self, key, fieldname=None, lo=0, hi=None, required=True, default=0):
        ln, tok = self.single(key, required=required)
        if ln is None:
            return default
        return self.int(ln, tok, fieldname or key, lo, hi)

    def word_key(self, key, choices=None, fieldname=None, required=True, default=None):
        ln, tok = self.single(key, required=required)
        if ln is None:
            return default
        return self.word(ln, tok, fieldname or key, choices)

    def yesno(self, key, fieldname=None, required=True, default=False):
        value = self.word_key(key, ("yes", "no"), fieldname, required, None)
        return default if value is None else value == "yes"

    def kv(self, ln, tokens, allowed, prefix=""):
        """``a=b`` tokens -> {a: raw b}; unknown or repeated names are errors."""
        out = {}
        for tok in tokens:
            if "=" not in tok:
                self.err(ln.line, f"{ln.key!r}: expected name=value, got {tok!r}")
            name, value = tok.split("=", 1)
            if name not in allowed:
                self.err(ln.line, f"{ln.key!r}: unknown name {name!r} (allowed: {', '.join(allowed)})")
            if name in out:
                self.err(ln.line, f"{ln.key!r}: {name!r} given twice")
            out[name] = value
        return out

    def cite(self, key="cite", required=True):
        ln = self.one(key, required)
        if ln is None:
            return ()
        return _cites(ln.tokens, self.file, ln.line)

    def quoted(self, ln, token):
        if not (len(token) >= 2 and token[0] == token[-1] == '"'):
            self.err(ln.line, f"{ln.key!r}: expected a \"quoted name\", got {token!r}")
        return token[1:-1]


def _cites(tokens, file, line):
    return cites(tokens, file, line, RULEBOOK_LINES)


def _records(sections, kind, file):
    out = []
    for s in sections:
        if s.kind != kind or s.id is None:
            raise DataError(file, s.line, f"unexpected section [{s.kind} {s.id or ''}]"
                            f" (this file holds [{kind} ID] records)")
        out.append(s)
    seen = {}
    for s in out:
        if s.id in seen:
            raise DataError(file, s.line, f"duplicate id {s.id!r} (first at line {seen[s.id]})")
        seen[s.id] = s.line
    return out


def _table(sections, name, file):
    """Rows of ``[table name]`` as (line, {column: raw value})."""
    found = [s for s in sections if s.kind == "table" and s.id == name]
    if not found:
        raise DataError(file, 0, f"missing [table {name}]")
    if len(found) > 1:
        raise DataError(file, found[1].line, f"[table {name}] given twice")
    s = found[0]
    if not s.lines or s.lines[0].key != "columns":
        raise DataError(file, s.line, f"[table {name}] must start with a 'columns ...' line")
    columns = s.lines[0].tokens
    if columns[-1] == "name":
        fixed = len(columns) - 1
    else:
        fixed = len(columns)
    rows = []
    for ln in s.lines[1:]:
        cells = [ln.key] + ln.tokens
        if fixed < len(columns):
            if len(cells) < len(columns):
                raise DataError(file, ln.line, f"[table {name}] row has {len(cells)} values, "
                                f"need {len(columns)} ({' '.join(columns)})")
            name_text = " ".join(cells[fixed:])
            cells = cells[:fixed] + [name_text]
        elif len(cells) != len(columns):
            raise DataError(file, ln.line, f"[table {name}] row has {len(cells)} values, "
                            f"need {len(columns)} ({' '.join(columns)})")
        rows.append((ln.line, dict(zip(columns, cells))))
    return rows, set(columns)


class _Row(_Rec):
    """Reading one table row with the value helpers of :class:`_Rec`."""

    def __init__(self, file, line, cells):
        self.file, self.lineno, self.cells, self.subst = file, line, cells, set()
        self.ln = Line(line, "row", [], "")

    def need(self, columns, table):
        missing = [c for c in columns if c not in self.cells]
        if missing:
            self.err(self.lineno, f"[table {table}] lacks column(s) {', '.join(missing)}")

    def w(self, col, choices=None, none_ok=False):
        raw = self.cells[col]
        if none_ok and raw == "-":
            return None
        return self.word(self.ln, raw, col, choices)

    def i(self, col, lo=0, hi=None, none_ok=False):
        raw = self.cells[col]
        if none_ok and raw in ("-", "-*"):
            return None
        return self.int(self.ln, raw, col, lo, hi)

    def c(self):
        return _cites([self.cells["cite"]], self.file, self.lineno)


# --------------------------------------------------------------- dice ----

def _parse_dice(data_dir):
    file = "dice.txt"
    sections = _read_sections(data_dir / file)
    dice = {}
    for s in _records(sections, "die", file):
        r = _Rec(s, {"name", "colour", "count", "faces", "cite"})
        name = r.text("name")
        colour = r.word_key("colour", ("gray", "black", "white"))
        count = r.int_key("count", lo=1)
        ln = r.one("faces")
        if len(ln.tokens) != 6:
            r.err(ln.line, f"die {s.id!r} has {len(ln.tokens)} faces, a die has 6")
        faces = []
        for i, tok in enumerate(ln.tokens):
            value = r.star(tok, f"faces.{i + 1}")
            faces.append(_face(value))
        dice[s.id] = Die(s.id, name, colour, count, tuple(faces), r.cite(),
                         frozenset(r.subst))
    return dice


def _face(value):
    if re.fullmatch(r"[+-]?\d+", value):
        return int(value)
    return value


# ------------------------------------------------------- chips (sides) ----

_SIDE_NAMES = ("length", "speed", "damage", "swords", "maneuver", "targets")


def _chip_side(r, key):
    ln = r.one(key)
    if not ln.tokens:
        r.err(ln.line, f"{key!r} needs an attack kind and values")
    attack = r.star(ln.tokens[0], f"{key}.attack")
    spell = None
    if attack.startswith("spell:"):
        attack, spell = "spell", attack[6:]
        if not spell:
            r.err(ln.line, f"{key}: 'spell:' needs a spell id")
    elif attack not in ("melee", "ranged", "fire"):
        r.err(ln.line, f"{key}: attack {attack!r} is not melee, ranged, fire or spell:ID")
    kv = r.kv(ln, ln.tokens[1:], _SIDE_NAMES)
    need = ["length", "speed", "maneuver"] + ([] if attack == "spell" else ["damage", "swords"])
    for name in need:
        if name not in kv:
            r.err(ln.line, f"{key}: missing {name}=")
    if attack == "spell" and ("damage" in kv or "swords" in kv):
        r.err(ln.line, f"{key}: a spell side has no damage or swords (the spell decides)")
    values = {n: r.int(ln, v, f"{key}.{n}", lo=0) for n, v in kv.items()}
    targets = values.get("targets", 4 if attack == "fire" else 1)
    return ChipSide(attack, spell, values["length"], values["speed"], values.get("damage"),
                    values.get("swords"), values["maneuver"], targets)


_MONSTER_KEYS = {"name", "plural", "kind", "pack", "chips", "fame", "health", "armored",
                 "undead", "flying", "unique", "group", "front", "back", "cite"}
_MONSTER_KINDS = ("wandering", "local", "leader", "guardian", "elemental")


def _parse_monsters(data_dir):
    file = "monsters.txt"
    out = {}
    for s in _records(_read_sections(data_dir / file), "monster", file):
        r = _Rec(s, _MONSTER_KEYS)
        kind = r.word_key("kind", _MONSTER_KINDS)
        pack = r.word_key("pack", PACKS, required=kind in ("wandering", "guardian"))
        out[s.id] = Monster(
            s.id, r.text("name"), r.text("plural"), kind, pack,
            r.int_key("chips", lo=1), r.int_key("fame"), r.int_key("health", lo=1),
            r.yesno("armored"), r.yesno("undead"), r.yesno("flying"), r.yesno("unique"),
            r.word_key("group", required=False), _chip_side(r, "front"), _chip_side(r, "back"),
            r.cite(), frozenset(r.subst))
        object.__setattr__(out[s.id], "_line", s.line)
    return out


def _parse_natives(data_dir):
    file = "natives.txt"
    out = {}
    keys = {"name", "group", "pack", "chips", "respect", "fame", "health", "armored",
            "front", "back", "cite"}
    for s in _records(_read_sections(data_dir / file), "native", file):
        r = _Rec(s, keys)
        out[s.id] = Native(
            s.id, r.text("name"), r.word_key("group"), r.word_key("pack", PACKS),
            r.int_key("chips", lo=1), r.word_key("respect", ATTRIBUTES), r.int_key("fame"),
            r.int_key("health", lo=1), r.yesno("armored"), _chip_side(r, "front"),
            _chip_side(r, "back"), r.cite(), frozenset(r.subst))
        object.__setattr__(out[s.id], "_line", s.line)
    return out


# --------------------------------------------------------------- tiles ----

def _parse_tiles(data_dir, local_symbols):
    file = "tiles.txt"
    out = {}
    side_keys = {f"{n}.{k}" for n in (1, 2) for k in ("clearings", "paths", "hidden", "edges")}
    for s in _records(_read_sections(data_dir / file), "tile", file):
        r = _Rec(s, {"name", "pack", "kind", "local", "cite"} | side_keys)
        name = r.text("name")
        pack = r.word_key("pack", PACKS)
        kind = r.word_key("kind", ("civilization", "wilderness"))
        n_clear = 4 if kind == "civilization" else 6
        ln = r.one("local", required=kind == "wilderness")
        symbol = monster = None
        dual = False
        if ln is not None:
            if kind == "civilization":
                r.err(ln.line, "a Civilization Tile has no summoning symbols (L294)")
            if len(ln.tokens) not in (2, 3) or (len(ln.tokens) == 3 and ln.tokens[2] != "dual"):
                r.err(ln.line, "'local' is: SYMBOL MONSTER [dual]")
            symbol, monster = ln.tokens[0], ln.tokens[1]
            if symbol not in local_symbols:
                r.err(ln.line, f"summoning symbol {symbol!r} is not on the Local Monster Die "
                      f"({', '.join(local_symbols)}; L226)")
            dual = len(ln.tokens) == 3
        sides = tuple(_tile_side(r, s.id, n, n_clear) for n in (1, 2))
        p1, p2 = sides[0].path_edges(), sides[1].path_edges()
        if p1 != p2:
            r.err(r.one("2.edges").line, f"tile {s.id!r}: side 2 carries paths on edges "
                  f"{_edge_list(p2)} but side 1 on {_edge_list(p1)}; both sides must match "
                  "(a flipped tile must still meet its neighbours path to path, L574, L109)")
        out[s.id] = Tile(s.id, name, pack, kind, symbol, monster, dual, sides, r.cite())
        object.__setattr__(out[s.id], "_line", s.line)
    return out


def _edge_list(bits):
    return "{" + ",".join(str(i + 1) for i, b in enumerate(bits) if b) + "}"


def _pair(r, ln, tok, n_clear, what):
    m = re.fullmatch(r"(\d+)-(\d+)", tok)
    if not m:
        r.err(ln.line, f"{what} {tok!r}: want A-B (two clearing numbers)")
    a, b = int(m.group(1)), int(m.group(2))
    for c in (a, b):
        if not 1 <= c <= n_clear:
            r.err(ln.line, f"{what} {tok!r}: clearing {c} does not exist (1..{n_clear})")
    if a == b:
        r.err(ln.line, f"{what} {tok!r} joins a clearing to itself")
    return (min(a, b), max(a, b))


def _tile_side(r, tid, n, n_clear):
    ln = r.one(f"{n}.clearings")
    if len(ln.tokens) != n_clear:
        r.err(ln.line, f"tile {tid!r} side {n} lists {len(ln.tokens)} clearings; this tile "
              f"has {n_clear} (L290)")
    clearings = tuple(r.word(ln, t, f"{n}.clearings", CLEARING_TYPES) for t in ln.tokens)
    ln = r.one(f"{n}.paths")
    paths = []
    for tok in ln.tokens:
        p = _pair(r, ln, tok, n_clear, "path")
        if p in paths:
            r.err(ln.line, f"tile {tid!r}: path {tok} given twice")
        paths.append(p)
    hidden = []
    hl = r.one(f"{n}.hidden", required=False)
    for tok in (hl.tokens if hl else []):
        if ":" not in tok:
            r.err(hl.line, f"hidden path {tok!r}: want A-B:COLOUR")
        pair_tok, colour = tok.split(":", 1)
        p = _pair(r, hl, pair_tok, n_clear, "hidden path")
        if colour not in MAGIC_COLOURS:
            r.err(hl.line, f"hidden path {tok}: colour {colour!r} is not a Magic Cube colour "
                  f"({', '.join(MAGIC_COLOURS)})")
        if p in paths or any(h[:2] == p for h in hidden):
            r.err(hl.line, f"hidden path {pair_tok} doubles another path between the same clearings")
        hidden.append((p[0], p[1], colour))
    el = r.one(f"{n}.edges")
    if len(el.tokens) != 6:
        r.err(el.line, f"tile {tid!r} side {n} edges: need 6 entries (edges 1..6), got {len(el.tokens)}")
    edges = []
    for e, tok in enumerate(el.tokens, 1):
        if tok == "-":
            edges.append(None)
            continue
        if not tok.isdigit() or not 1 <= int(tok) <= n_clear:
            r.err(el.line, f"tile {tid!r} side {n} edge {e}: {tok!r} is not '-' or a clearing 1..{n_clear}")
        edges.append(int(tok))
    if not any(c is not None for c in edges):
        r.err(el.line, f"tile {tid!r} side {n} has no path leaving the tile: it could never "
              "join the map (L109)")
    # every clearing reachable by normal paths
    reach, todo = {1}, [1]
    while todo:
        a = todo.pop()
        for x, y in paths:
            for u, v in ((x, y), (y, x)):
                if u == a and v not in reach:
                    reach.add(v)
                    todo.append(v)
    if len(reach) != n_clear:
        missing = sorted(set(range(1, n_clear + 1)) - reach)
        r.err(r.one(f"{n}.paths").line, f"tile {tid!r} side {n}: clearing(s) {missing} cannot be reached by "
              "normal paths from clearing 1")
    return TileSide(clearings, tuple(paths), tuple(hidden), tuple(edges))


# --------------------------------------------------------- setup cards ----

def _parse_setup_cards(data_dir):
    file = "setup_cards.txt"
    out = {}
    keys = {"name", "wandering", "civ_location", "native_group", "site", "merchant", "cite"}
    keys |= {f"{n}.{k}" for n in (1, 2) for k in ("natives", "loot", "stock")}
    for s in _records(_read_sections(data_dir / file), "setup_card", file):
        if s.id not in PACKS:
            raise DataError(file, s.line, f"setup card {s.id!r} is not a Terrain Pack "
                            f"({', '.join(PACKS)}; L278)")
        r = _Rec(s, keys, repeatable={"site", "merchant"} |
                 {f"{n}.{k}" for n in (1, 2) for k in ("loot", "stock")})
        sites = {}
        for ln in r.many("site"):
            if len(ln.tokens) < 2:
                r.err(ln.line, "'site' is: ID \"NAME\" guardian=MONSTER token=site|wilderness")
            sid, sname = ln.tokens[0], r.quoted(ln, ln.tokens[1])
            kv = r.kv(ln, ln.tokens[2:], ("guardian", "token", "red_arrow"))
            for k in ("guardian", "token"):
                if k not in kv:
                    r.err(ln.line, f"site {sid}: missing {k}=")
            if kv["token"] not in ("site", "wilderness"):
                r.err(ln.line, f"site {sid}: token= must be site or wilderness")
            if kv.get("red_arrow", "no") not in ("yes", "no"):
                r.err(ln.line, f"site {sid}: red_arrow= must be yes or no")
            if sid in sites:
                r.err(ln.line, f"site {sid!r} given twice")
            sites[sid] = SiteInfo(sid, sname, kv["guardian"], kv["token"],
                                  kv.get("red_arrow") == "yes")
            object.__setattr__(sites[sid], "_line", ln.line)
        merchants = {}
        for ln in r.many("merchant"):
            if len(ln.tokens) != 3:
                r.err(ln.line, "'merchant' is: ID \"NAME\" respect=ATTR[+ATTR]")
            mid, mname = ln.tokens[0], r.quoted(ln, ln.tokens[1])
            kv = r.kv(ln, ln.tokens[2:], ("respect",))
            respect = tuple(kv["respect"].split("+"))
            bad = [a for a in respect if a not in ATTRIBUTES]
            if bad or len(set(respect)) != len(respect):
                r.err(ln.line, f"merchant {mid}: respect {kv['respect']!r} must be distinct "
                      f"attributes from {', '.join(ATTRIBUTES)} (L987)")
            if mid in merchants:
                r.err(ln.line, f"merchant {mid!r} given twice")
            merchants[mid] = MerchantInfo(mid, mname, respect)
        sides = []
        for n in (1, 2):
            ln = r.one(f"{n}.natives")
            natives = tuple(ln.tokens)
            loot = {}
            for ln in r.many(f"{n}.loot"):
                if not ln.tokens:
                    r.err(ln.line, f"'{n}.loot' is: SITE treasures=N deep=N gold=N [feature=F]")
                sid = ln.tokens[0]
                if sid not in sites:
                    r.err(ln.line, f"loot for unknown site {sid!r} (sites: {', '.join(sites)})")
                if sid in loot:
                    r.err(ln.line, f"side {n}: loot of {sid!r} given twice")
                kv = r.kv(ln, ln.tokens[1:], ("treasures", "deep", "gold", "feature"))
                for k in ("treasures", "deep", "gold"):
                    if k not in kv:
                        r.err(ln.line, f"loot of {sid}: missing {k}=")
                features = tuple(f for f in kv.get("feature", "").split("+") if f)
                for f in features:
                    if f not in SITE_FEATURES:
                        r.err(ln.line, f"loot of {sid}: unknown feature {f!r} "
                              f"({', '.join(SITE_FEATURES)})")
                loot[sid] = SiteLoot(*(r.int(ln, kv[k], f"{n}.loot.{sid}.{k}")
                                       for k in ("treasures", "deep", "gold")), features)
            for sid in sites:
                if sid not in loot:
                    r.err(s.line, f"setup card {s.id}: side {n} gives no loot for site {sid!r}")
            stock = {}
            for ln in r.many(f"{n}.stock"):
                if not ln.tokens:
                    r.err(ln.line, f"'{n}.stock' is: MERCHANT treasures=N items=N missions=N")
                mid = ln.tokens[0]
                if mid not in merchants:
                    r.err(ln.line, f"stock for unknown merchant {mid!r}")
                if mid in stock:
                    r.err(ln.line, f"side {n}: stock of {mid!r} given twice")
                kv = r.kv(ln, ln.tokens[1:], ("treasures", "items", "missions"))
                for k in ("treasures", "items", "missions"):
                    if k not in kv:
                        r.err(ln.line, f"stock of {mid}: missing {k}=")
                stock[mid] = MerchantStock(*(r.int(ln, kv[k], f"{n}.stock.{mid}.{k}")
                                             for k in ("treasures", "items", "missions")))
            for mid in merchants:
                if mid not in stock:
                    r.err(s.line, f"setup card {s.id}: side {n} gives no stock for merchant {mid!r}")
            sides.append(SetupSide(natives, loot, stock))
        card = SetupCard(s.id, r.text("name"), r.word_key("wandering"),
                         r.word_key("civ_location"), r.word_key("native_group"),
                         sites, merchants, tuple(sides), r.cite())
        object.__setattr__(card, "_line", s.line)
        out[s.id] = card
    return out


# -------------------------------------------------------------- heroes ----

def _parse_heroes(data_dir):
    file = "heroes.txt"
    lineages, classes = {}, {}
    for s in _read_sections(data_dir / file):
        if s.kind not in ("lineage", "class") or s.id is None:
            raise DataError(file, s.line, f"unexpected section [{s.kind} {s.id or ''}] "
                            "(this file holds [lineage ID] and [class ID] records)")
        target = lineages if s.kind == "lineage" else classes
        if s.id in lineages or s.id in classes:
            raise DataError(file, s.line, f"duplicate id {s.id!r}")
        side_keys = ["hearts", "cubes", "boxes", "attributes", "spells"]
        side_keys += ["aim"] if s.kind == "lineage" else ["equipment", "gold"]
        r = _Rec(s, {"name", "advantage", "cite"} | {f"{n}.{k}" for n in (1, 2) for k in side_keys})
        ln = r.one("advantage")
        if len(ln.tokens) != 1:
            r.err(ln.line, "'advantage' is one \"QUOTED NAME\"")
        advantage = r.quoted(ln, ln.tokens[0])
        sides = []
        for n in (1, 2):
            hearts = r.int_key(f"{n}.hearts", lo=1)
            ln = r.one(f"{n}.cubes")
            cubes = []
            for tok in ln.tokens:
                value = r.star(tok, f"{n}.cubes")
                colours = tuple(value.split("|"))
                ok = colours in (("might",), ("speed",)) or all(c in MAGIC_COLOURS for c in colours)
                if not ok or len(set(colours)) != len(colours):
                    r.err(ln.line, f"cube {value!r}: want might, speed, a Magic Cube colour, or "
                          f"colours joined by '|' ({', '.join(MAGIC_COLOURS)}; L200, L400-L406)")
                cubes.append(colours)
            ln = r.one(f"{n}.boxes")
            kv = r.kv(ln, ln.tokens, ("attack", "maneuver"))
            if set(kv) != {"attack", "maneuver"}:
                r.err(ln.line, f"'{n}.boxes' is: attack=N maneuver=N")
            boxes = [r.int(ln, kv[k], f"{n}.boxes.{k}") for k in ("attack", "maneuver")]
            ln = r.one(f"{n}.attributes")
            kv = r.kv(ln, ln.tokens, ATTRIBUTES)
            if set(kv) != set(ATTRIBUTES):
                r.err(ln.line, f"'{n}.attributes' is: cunning=N wisdom=N charisma=N")
            attrs = [r.int(ln, kv[k], f"{n}.attributes.{k}", 0, 4) for k in ATTRIBUTES]
            aim = [0, 0]
            if s.kind == "lineage":
                ln = r.one(f"{n}.aim")
                kv = r.kv(ln, ln.tokens, ("head", "torso"))
                if set(kv) != {"head", "torso"}:
                    r.err(ln.line, f"'{n}.aim' is: head=N torso=N")
                aim = [r.int(ln, kv[k], f"{n}.aim.{k}") for k in ("head", "torso")]
            spells = r.int_key(f"{n}.spells", fieldname=f"{n}.spells")
            equipment, gold = (), 0
            if s.kind == "class":
                ln = r.one(f"{n}.equipment")
                equipment = tuple(r.star(t, f"{n}.equipment") for t in ln.tokens)
                gold = r.int_key(f"{n}.gold", fieldname=f"{n}.gold")
            sides.append(HeroSide(hearts, tuple(cubes), boxes[0], boxes[1], *attrs, aim[0],
                                  aim[1], spells, equipment, gold))
        card = HeroCard(s.id, r.text("name"), s.kind, advantage, tuple(sides), r.cite(),
                        frozenset(r.subst))
        object.__setattr__(card, "_line", s.line)
        target[s.id] = card
    return lineages, classes


# --------------------------------------------------------------- cards ----

_CARD_KEYS = {"name", "copies", "price", "position", "weapon", "length", "might", "swords",
              "armor", "weight", "repair", "cite"}
_TREASURE_KEYS = _CARD_KEYS | {"epic", "use", "valuable", "auto", "speed_box", "casts",
                               "spells", "colour", "effect", "gives", "grants", "attribute", "free", "search", "takes",
                               "mixes"}


def _parse_cards(data_dir, file, kind):
    out = {}
    keys = _CARD_KEYS if kind == "item" else _TREASURE_KEYS
    for s in _records(_read_sections(data_dir / file), kind, file):
        r = _Rec(s, keys)
        name = r.text("name")
        ln = r.one("copies")
        if kind == "item":
            if len(ln.tokens) != 1:
                r.err(ln.line, "'copies' takes one number")
            copies = {"item": r.int(ln, ln.tokens[0], "copies", lo=1)}
        else:
            kv = r.kv(ln, ln.tokens, ("treasure", "deep"))
            if not kv:
                r.err(ln.line, "'copies' is: treasure=N and/or deep=N")
            copies = {k: r.int(ln, v, f"copies.{k}", lo=1) for k, v in kv.items()}
        ln, tok = r.single("price")
        price = None if tok == "variable" else r.int(ln, tok, "price")
        position = r.word_key("position", POSITIONS)
        use = r.word_key("use", CARD_USES) if kind == "treasure" else "none"
        epic = r.yesno("epic") if kind == "treasure" else False
        valuable = r.yesno("valuable", required=False)
        weapon = r.word_key("weapon", WEAPON_KINDS, required=False)
        length = ()
        ln = r.one("length", required=False)
        if ln is not None:
            length = tuple(r.int(ln, t, "length") for t in ln.tokens)
        mand = opt = two = 0
        ln = r.one("might", required=False)
        if ln is not None:
            kv = r.kv(ln, ln.tokens, ("mandatory", "optional", "two_handed"))
            mand = r.int(ln, kv.get("mandatory", "0"), "might.mandatory")
            opt = r.int(ln, kv.get("optional", "0"), "might.optional")
            two = r.int(ln, kv.get("two_handed", "0"), "might.two_handed")
        swords = r.int_key("swords", required=False)
        armor = r.int_key("armor", required=False)
        weight = r.int_key("weight", required=False)
        repair = r.int_key("repair", required=False)
        auto = r.word_key("auto", ("mandatory", "optional"), required=False)
        speed_box = r.int_key("speed_box", required=False)
        casts = r.word_key("casts", required=False)
        spells = r.int_key("spells", lo=1, hi=3, required=False)
        colour = r.word_key("colour", MAGIC_COLOURS, required=False)
        gives = r.word_key("gives", ("might", "speed") + MAGIC_COLOURS, required=False)
        grants = r.word_key("grants", ("might", "speed", "choice") + MAGIC_COLOURS, required=False)
        attribute = r.word_key("attribute", ATTRIBUTES, required=False)
        free = r.word_key("free", FREE_ACTIONS, required=False)
        search = r.word_key("search", CLEARING_TYPES, required=False)
        takes = r.word_key("takes", MAGIC_COLOURS + ("any",), required=False)
        mixes = None
        ml = r.one("mixes", required=False)
        if ml is not None:
            if len(ml.tokens) != 2:
                r.err(ml.line, "'mixes' names two Magic Cube colours")
            mixes = tuple(r.word(ml, tok, "mixes", MAGIC_COLOURS) for tok in ml.tokens)
        el = r.one("effect", required=False)
        effect = _cites(el.tokens, file, el.line)[0] if el is not None and el.tokens else None
        where = r.one("name").line

        def bad(problem, line=where):
            r.err(line, f"{kind} {s.id!r}: {problem}")

        if weapon:
            want = 2 if weapon == "melee_or_ranged" else 1
            if len(length) != want:
                bad(f"a {weapon} weapon has {want} attack length(s) (L928), got {len(length)}")
            if r.one("might", required=False) is None or r.one("swords", required=False) is None:
                bad("a weapon needs 'might' and 'swords'")
            if r.one("weight", required=False) is not None:
                bad("a weapon's weight is its mandatory might boxes (L976); give no 'weight'")
            if armor:
                bad("a card is a weapon or armour, not both")
            if position not in ("one_handed", "two_handed", "one_or_two_handed", "backpack"):
                bad(f"a weapon is held in the weapon positions, not {position!r}")
            if mand + opt + speed_box == 0:
                bad("a weapon needs at least one might (or speed) box")
            weight = mand
        else:
            for k in ("length", "might", "swords", "auto", "speed_box"):
                if r.one(k, required=False) is not None:
                    bad(f"{k!r} is for weapons; this card has no 'weapon'")
        if two and position != "one_or_two_handed":
            bad("two-handed-only might boxes are for a spear (one_or_two_handed, L950)")
        if auto == "mandatory" and mand == 0:
            bad("auto=mandatory needs a mandatory might box")
        if auto == "optional" and opt == 0:
            bad("auto=optional needs an optional might box")
        if armor and r.one("weight", required=False) is None:
            bad("armour needs a 'weight' (L976)")
        if (gives or attribute or free or search) and use != "permanent":
            bad("'gives', 'attribute', 'free' and 'search' act while the card is equipped: use permanent (L932)")
        if mixes and (mixes[0] == mixes[1] or takes is None or takes in mixes):
            bad("'mixes' converts between two colours with the cube it 'takes', of a third colour (L1368)")
        if takes and use not in ("permanent", "none"):
            bad("'takes' is a cube placed on an equipped card in Hero Tactics: not a one-time or instant card")
        if grants and use != "one_time":
            bad("'grants' is a one-time card's cube (L916): use one_time")
        if r.one("armor", required=False) is not None and armor < 1:
            bad("an armour value is at least 1")
        card = Card(s.id, name, kind, copies, epic, valuable, price, position, use, weapon,
                    length, mand, opt, two, auto, speed_box, swords, armor, weight, repair,
                    casts, spells, colour, effect, r.cite(required=False), frozenset(r.subst),
                    gives, grants, attribute, free, search, takes, mixes)
        object.__setattr__(card, "_line", s.line)
        out[s.id] = card
    return out


# -------------------------------------------------------------- spells ----

def _parse_spells(data_dir):
    file = "spells.txt"
    sections = _read_sections(data_dir / file)
    rows, columns = _table(sections, "spells", file)
    cols = ["id", "colour", "level", "boxes", "target", "duration", "form", "length", "speed",
            "price", "start", "deck", "undead", "cite", "name"]
    out = {}
    for line, cells in rows:
        row = _Row(file, line, cells)
        row.need(cols, "spells")
        sid = cells["id"]
        if sid in out:
            row.err(line, f"duplicate spell id {sid!r}")
        boxes = []
        for raw in cells["boxes"].split(","):
            value = row.star(raw, "boxes")
            wound = value.endswith("!")
            colour = value.rstrip("!")
            if colour not in MAGIC_COLOURS and colour != "any":
                row.err(line, f"spell {sid}: box {raw!r} is not a colour or 'any'")
            boxes.append((colour, wound))
        target = row.w("target")
        m = re.fullmatch(r"(targeted|self_or_other|self|none)(?::(\d))?", target)
        if not m or (m.group(2) and m.group(1) != "targeted"):
            row.err(line, f"spell {sid}: target {target!r} is not targeted[:N], self_or_other, "
                    "self or none (L1030-L1034)")
        out[sid] = Spell(
            sid, cells["name"], row.w("colour", ("universal",) + MAGIC_COLOURS),
            row.i("level", 1, 5), tuple(boxes), target, int(m.group(2) or 1),
            row.w("duration", ("instantaneous", "combat", "turn", "permanent")),
            row.w("form", ("ranged", "melee", "-")), row.i("length"), row.i("speed"),
            row.i("price"), row.i("start"), row.i("deck"),
            row.w("undead", ("-", "immune", "only")), row.c(), frozenset(row.subst))
        object.__setattr__(out[sid], "_line", line)
    return out


# -------------------------------------------------------------- curses ----

def _parse_curses(data_dir):
    """The Curse Table, in roll order: the six d6 faces once each, exactly
    two instant curses (L1103), Teleport and Summon among them (L1103-L1105)."""
    file = "curses.txt"
    sections = _read_sections(data_dir / file)
    for s in sections:
        if not (s.kind == "table" and s.id == "curses"):
            raise DataError(file, s.line, f"unexpected section {s.label} (this file holds "
                            "[table curses])")
    rows, _ = _table(sections, "curses", file)
    cols = ["id", "roll", "kind", "cite", "name"]
    out, rolls = {}, {}
    for line, cells in rows:
        row = _Row(file, line, cells)
        row.need(cols, "curses")
        cid = cells["id"]
        if cid in out:
            row.err(line, f"duplicate curse id {cid!r} (first at line {out[cid]._line})")
        roll = row.i("roll", 1, 6)
        if roll in rolls:
            row.err(line, f"curse {cid}: d6 face {roll} is already curse {rolls[roll][0]!r} "
                    f"(line {rolls[roll][1]}); each face selects one curse")
        rolls[roll] = (cid, line)
        kind = row.w("kind", CURSE_KINDS)
        name = row.star(cells["name"], "name")
        out[cid] = Curse(cid, name, roll, kind, row.c(), frozenset(row.subst))
        object.__setattr__(out[cid], "_line", line)
    end = rows[-1][0] if rows else 0
    missing = [f for f in range(1, 7) if f not in rolls]
    if missing:
        raise DataError(file, end, f"the Curse Table needs every d6 face 1..6 once; "
                        f"missing {', '.join(map(str, missing))}")
    for cid, cite in PRINTED_CURSES.items():
        if cid not in out:
            raise DataError(file, end, f"missing the {cid} curse ({cite})")
        if out[cid].kind != "instant":
            _fail(file, out[cid], f"curse {cid} is an instant effect ({cite}, L1103)")
    instant = [c.id for c in out.values() if c.instant]
    if len(instant) != 2:
        raise DataError(file, end, f"two of the curses are instant effects (L1103), not "
                        f"{len(instant)} ({', '.join(instant)})")
    return dict(sorted(out.items(), key=lambda kv: kv[1].roll))


# -------------------------------------------------------------- tokens ----

def _parse_tokens(data_dir):
    file = "tokens.txt"
    sections = _read_sections(data_dir / file)
    for s in sections:
        if s.kind != "table":
            raise DataError(file, s.line, f"unexpected section [{s.kind} {s.id}] (this file "
                            "holds [table ...] sections)")
    known = {"civilization_locations", "civilization_tokens", "wilderness_tokens", "site_tokens"}
    for s in sections:
        if s.id not in known:
            raise DataError(file, s.line, f"unknown table {s.id!r} ({', '.join(sorted(known))})")

    def rows(name, cols):
        out = []
        table_rows, _ = _table(sections, name, file)
        seen = {}
        for line, cells in table_rows:
            row = _Row(file, line, cells)
            row.need(cols, name)
            if cells["id"] in seen:
                row.err(line, f"duplicate id {cells['id']!r} (first at line {seen[cells['id']]})")
            seen[cells["id"]] = line
            out.append(row)
        return out

    locations = {}
    for row in rows("civilization_locations", ["id", "pack", "cite", "name"]):
        locations[row.cells["id"]] = CivLocation(row.cells["id"], row.cells["name"],
                                                 row.w("pack", PACKS), row.c())
        object.__setattr__(locations[row.cells["id"]], "_line", row.lineno)
    civ = {}
    for row in rows("civilization_tokens", ["id", "pack", "merchant", "copies", "cite"]):
        civ[row.cells["id"]] = CivToken(row.cells["id"], row.w("pack", PACKS),
                                        row.w("merchant", none_ok=True), row.i("copies", 1),
                                        row.c())
        object.__setattr__(civ[row.cells["id"]], "_line", row.lineno)
    kinds = ("site", "treasure_site", "gate", "special", "item", "treasure", "discovery")
    wild = {}
    for row in rows("wilderness_tokens", ["id", "pack", "kind", "target", "clearing", "copies",
                                          "cite", "name"]):
        kind = row.w("kind", kinds)
        clearing = row.i("clearing", 1, 6, none_ok=True)
        target = row.w("target", none_ok=True)
        numbered = kind in ("treasure_site", "gate", "special")
        if numbered and clearing is None:
            row.err(row.lineno, f"a {kind} token is numbered: give its clearing 1..6 (L498)")
        if not numbered and clearing is not None:
            row.err(row.lineno, f"a {kind} token has no clearing number ('-')")
        if (kind in ("treasure_site", "special")) != (target is not None):
            need = "needs a" if kind in ("treasure_site", "special") else "has no"
            row.err(row.lineno, f"a {kind} token {need} target")
        wild[row.cells["id"]] = WildernessToken(row.cells["id"], row.cells["name"],
                                                row.w("pack", PACKS), kind, target, clearing,
                                                row.i("copies", 1), row.c())
        object.__setattr__(wild[row.cells["id"]], "_line", row.lineno)
    sites = {}
    for row in rows("site_tokens", ["id", "site", "pack", "clearing", "cite"]):
        sites[row.cells["id"]] = SiteToken(row.cells["id"], row.w("site"), row.w("pack", PACKS),
                                           row.i("clearing", 1, 6), row.c())
        object.__setattr__(sites[row.cells["id"]], "_line", row.lineno)
    return locations, civ, wild, sites


# ------------------------------------------------------------ missions ----

_MISSION_KEYS = {"name", "kind", "pack", "text", "task", "complete", "reward", "bonus",
                 "outlaw", "discard", "cite"}
_PAYOUT = ("gold", "lp", "fame")


def _marked_rest(r, key):
    """The rest of ``key``'s line, without a trailing ``*`` (which marks the
    field authored): a name written out, spaces and all."""
    ln = r.one(key)
    value = r.star(ln.rest, key)
    if not value.strip():
        r.err(ln.line, f"{key!r} needs a value")
    return value.strip()


def _quoted_rest(r, key):
    """The ``"quoted text"`` (optionally followed by ``*``) of ``key``'s line."""
    ln = r.one(key)
    m = re.fullmatch(r'"([^"]*)"(\*?)', ln.rest)
    if not m or not m.group(1).strip():
        r.err(ln.line, f"{key!r} is: \"text\" (one quoted line, '*' after it when authored)")
    if m.group(2):
        r.subst.add(key)
    return m.group(1)


def _payout(r, ln, tokens, fieldname, lo):
    kv = r.kv(ln, tokens, _PAYOUT)
    for k in _PAYOUT:
        if k not in kv:
            r.err(ln.line, f"{fieldname}: missing {k}= (it is: gold=N lp=N fame=N)")
    return Payout(*(r.int(ln, kv[k], f"{fieldname}.{k}", lo=lo, hi=99) for k in _PAYOUT))


def _parse_missions(data_dir):
    """The Mission Cards (missions.txt; see its header), by id in file order."""
    file = "missions.txt"
    out = {}
    for s in _records(_read_sections(data_dir / file), "mission", file):
        r = _Rec(s, _MISSION_KEYS, repeatable={"task"})
        name = _marked_rest(r, "name")
        kind = r.word_key("kind", MISSION_KINDS)
        pack = r.word_key("pack", PACKS)
        text = _quoted_rest(r, "text")
        tasks = []
        for i, ln in enumerate(r.many("task"), 1):
            if not ln.tokens:
                r.err(ln.line, "'task' is: VERB NAME=VALUE ... (kill, kill_native, loot, enter)")
            verb = r.word(ln, ln.tokens[0], f"task.{i}.verb", tuple(TASK_VERBS))
            targets, counted = TASK_VERBS[verb]
            kv = r.kv(ln, ln.tokens[1:], targets + (("count",) if counted else ()))
            named = [k for k in targets if k in kv]
            if len(named) != 1:
                r.err(ln.line, f"task {verb}: give exactly one of {', '.join(n + '=' for n in targets)}")
            if counted and "count" not in kv:
                r.err(ln.line, f"task {verb}: missing count=N")
            by = named[0]
            target = r.star(kv[by], f"task.{i}.{by}")
            count = r.int(ln, kv["count"], f"task.{i}.count", lo=1) if counted else 1
            task = MissionTask(verb, by, target, count)
            if any((t.verb, t.by, t.target) == (verb, by, target) for t in tasks):
                r.err(ln.line, f"mission {s.id}: task {verb} {by}={target} given twice")
            object.__setattr__(task, "_line", ln.line)
            tasks.append(task)
        ln, tok = r.single("complete")
        kv = r.kv(ln, [tok], ("at",))
        if "at" not in kv:
            r.err(ln.line, "'complete' is: at=PLACE")
        place = r.star(kv["at"], "complete.at")
        ln = r.one("reward")
        reward = _payout(r, ln, ln.tokens, "reward", 0)
        if reward == Payout(0, 0, 0):
            r.err(ln.line, f"mission {s.id}: a mission rewards Gold, LP or Fame (L1069, L1079)")
        bonus = r.word_key("bonus", ATTRIBUTES)
        outlaw = r.word_key("outlaw", ("gain", "discard", "none"))
        ln = r.one("discard")
        if len(ln.tokens) == 1 and "=" not in ln.tokens[0]:
            if r.star(ln.tokens[0], "discard") != "none":
                r.err(ln.line, "'discard' is: none, or gold=N lp=N fame=N")
            discard = None
        else:
            discard = _payout(r, ln, ln.tokens, "discard", -99)
            if discard == Payout(0, 0, 0):
                r.err(ln.line, f"mission {s.id}: a discard of nothing is written 'discard none'")
        m = Mission(s.id, name, kind, pack, text, tuple(tasks), place, reward, bonus, outlaw,
                    discard, r.cite(), frozenset(r.subst))
        object.__setattr__(m, "_line", s.line)
        out[s.id] = m
    return out


# -------------------------------------------------- civilization cards ----

_TITLE_LINE = re.compile(r'(\w+)\s+"([^"]*)"(\*?)((?:\s+\S+)*)')
_REQUIREMENT = re.compile(r"(fame|lp|kills|missions)>=(\d+)|(outlaw|no_outlaw)")


def _title(r, ln, n):
    m = _TITLE_LINE.fullmatch(ln.rest)
    if not m:
        r.err(ln.line, f"'{n}.title' is: ID \"NAME\" box=small|large require=REQ[,REQ...] "
              "price=gold:N reward=lp:N,fame:N")
    tid, name = m.group(1), m.group(2)
    if not name.strip():
        r.err(ln.line, f"title {tid}: empty name")
    if m.group(3):
        r.subst.add(f"{n}.{tid}.name")
    kv = r.kv(ln, m.group(4).split(), ("box", "require", "price", "reward"))
    for k in ("box", "require", "price", "reward"):
        if k not in kv:
            r.err(ln.line, f"title {tid}: missing {k}=")
    box = r.word(ln, kv["box"], f"{n}.{tid}.box", TITLE_BOXES)
    raw = r.star(kv["require"], f"{n}.{tid}.require")
    need = {"fame": 0, "lp": 0, "kills": 0, "missions": 0}
    outlaw, requires = None, ()
    if raw != "none":
        requires = tuple(raw.split(","))
        seen = set()
        for req in requires:
            rm = _REQUIREMENT.fullmatch(req)
            if not rm:
                r.err(ln.line, f"title {tid}: requirement {req!r} is not one of fame>=N, lp>=N, "
                      "kills>=N, missions>=N, outlaw, no_outlaw (or require=none)")
            what = rm.group(1) or "outlaw"
            if what in seen:
                r.err(ln.line, f"title {tid}: {req!r} repeats or contradicts another requirement")
            seen.add(what)
            if rm.group(1):
                need[what] = int(rm.group(2))
                if need[what] < 1:
                    r.err(ln.line, f"title {tid}: {req!r} requires nothing (N must be >= 1)")
            else:
                outlaw = rm.group(3) == "outlaw"
    price = r.star(kv["price"], f"{n}.{tid}.price")
    pm = re.fullmatch(r"gold:(\d+)", price)
    if not pm:
        r.err(ln.line, f"title {tid}: price {price!r} is not gold:N")
    reward = r.star(kv["reward"], f"{n}.{tid}.reward")
    rw = re.fullmatch(r"lp:(\d+),fame:(\d+)", reward)
    if not rw:
        r.err(ln.line, f"title {tid}: reward {reward!r} is not lp:N,fame:N")
    lp, fame = int(rw.group(1)), int(rw.group(2))
    if lp + fame == 0:
        r.err(ln.line, f"title {tid}: a title earns LPs or Fame (L324)")
    title = Title(tid, name, box, need["fame"], need["lp"], need["kills"], need["missions"],
                  outlaw, requires, int(pm.group(1)), lp, fame)
    object.__setattr__(title, "_line", ln.line)
    return title


def _parse_civilization(data_dir):
    """The Civilization Cards (civilization.txt; see its header), by location."""
    file = "civilization.txt"
    out = {}
    seen_ids, seen_names = {}, {}
    keys = {"pack", "group", "cite"} | {f"{n}.{k}" for n in (1, 2) for k in ("limit", "title")}
    for s in _records(_read_sections(data_dir / file), "civ", file):
        r = _Rec(s, keys, repeatable={"1.title", "2.title"})
        pack = r.word_key("pack", PACKS)
        group = r.word_key("group")
        sides = []
        for n in (1, 2):
            limit = r.int_key(f"{n}.limit", lo=1, required=False, default=None)
            titles = []
            for ln in r.many(f"{n}.title"):
                t = _title(r, ln, n)
                if t.id in seen_ids:
                    r.err(ln.line, f"duplicate title id {t.id!r} (first at line {seen_ids[t.id]})")
                if t.name in seen_names:
                    r.err(ln.line, f"title name {t.name!r} used twice (first at line "
                          f"{seen_names[t.name]})")
                seen_ids[t.id], seen_names[t.name] = ln.line, ln.line
                titles.append(t)
            if not 2 <= len(titles) <= 4:
                r.err(s.line, f"civilization card {s.id} side {n} has {len(titles)} titles; "
                      "give each side 2-4")
            sides.append(CivSide(limit, tuple(titles)))
        card = CivCard(s.id, pack, group, tuple(sides), r.cite(), frozenset(r.subst))
        object.__setattr__(card, "_line", s.line)
        out[s.id] = card
    return out


# ---------------------------------------------------------- validation ----

def _fail(file, obj, problem):
    raise DataError(file, getattr(obj, "_line", 0), problem)


def _check(realm):
    """Cross-file references and the rulebook's statements about the data."""
    _check_dice(realm)
    _check_spells(realm)
    _check_monsters(realm)
    _check_natives(realm)
    _check_tiles(realm)
    _check_setup_and_tokens(realm)
    _check_cards(realm)
    _check_heroes(realm)
    _check_decks(realm)
    _check_missions(realm)
    _check_civilization(realm)


def _check_dice(realm):
    f = "dice.txt"
    for did, (count, faces, cite) in _DICE_RULES.items():
        if did not in realm.dice:
            raise DataError(f, 0, f"missing die {did!r} ({cite})")
        die = realm.dice[did]
        if count is not None and die.count != count:
            _fail(f, die, f"die {did}: the rulebook has {count} such dice ({cite}), not {die.count}")
        if faces is not None:
            got = {}
            for x in die.faces:
                got[x] = got.get(x, 0) + 1
            if got != faces:
                _fail(f, die, f"die {did}: faces {list(die.faces)} contradict {cite} "
                      f"(want {faces})")
    for did, die in realm.dice.items():
        if did not in _DICE_RULES:
            _fail(f, die, f"unknown die {did!r} (known: {', '.join(_DICE_RULES)})")
    ws, ls = realm.dice["wandering_symbol"], realm.dice["local_symbol"]
    if ws.colour != "gray" or realm.dice["wandering_number"].colour != "gray":
        _fail(f, ws, "the Wandering Monster Dice are gray (L222)")
    if ls.colour != "black" or realm.dice["local_number"].colour != "black":
        _fail(f, ls, "the Local Monster Dice are black (L222)")
    for p in PACKS:
        if p not in ws.faces:
            _fail(f, ws, f"the Wandering Monster Die lacks the {p} symbol (L224)")
    if "return" not in ws.faces:
        _fail(f, ws, "the Wandering Monster Die lacks the return arrow (L619, L1635)")
    for face in ws.faces:
        if face not in PACKS + ("return", "blank"):
            _fail(f, ws, f"Wandering Monster Die face {face!r} is not a pack, return or blank")
    for need in ("site", "claw", "sound"):
        if need not in ls.faces:
            _fail(f, ls, f"the Local Monster Die lacks the {need} face (L226, L647, L1360)")
    symbols = [x for x in ls.faces if x != "site"]
    if len(set(symbols)) != len(symbols) or ls.faces.count("site") != 1:
        _fail(f, ls, "the Local Monster Die needs one site face and distinct tile symbols, so "
              "that the two symbol dice name one tile (L1274)")
    for did in ("wandering_number", "local_number"):
        d = realm.dice[did]
        if not all(isinstance(x, int) and x >= 1 for x in d.faces) or 1 not in d.faces:
            _fail(f, d, f"die {did}: faces are counts of monsters >= 1, one of them 1 (L647)")
    for x in realm.dice["ranged"].faces:
        if not isinstance(x, int):
            _fail(f, realm.dice["ranged"], f"ranged die face {x!r} is not a damage change (L240)")
    if not any(x < 0 for x in realm.dice["ranged"].faces) or not any(
            x > 0 for x in realm.dice["ranged"].faces):
        _fail(f, realm.dice["ranged"], "ranged dice both increase and decrease damage (L240)")
    for x in realm.dice["mission"].faces:
        if not (isinstance(x, str) and re.fullmatch(r"(gold|fame):\d+", x)):
            _fail(f, realm.dice["mission"], f"mission die face {x!r}: want gold:N or fame:N (L256)")


def _check_spells(realm):
    f = "spells.txt"
    names = {s.name: s for s in realm.spells.values()}
    for name in SPELL_MANIFEST:
        if name not in names:
            raise DataError(f, 0, f"missing spell {name!r} of the Spell Manifest")
    for sp in realm.spells.values():
        if sp.name not in SPELL_MANIFEST:
            _fail(f, sp, f"spell {sp.name!r} is not in the Spell Manifest (L1486-L1596)")
        colour, target, duration, form, wound, undead = SPELL_MANIFEST[sp.name]
        line = sp.cite[0] if sp.cite else "the manifest"
        if (sp.colour, sp.target, sp.duration, sp.form, sp.undead) != (colour, target, duration,
                                                                         form, undead):
            _fail(f, sp, f"spell {sp.id}: the manifest ({line}) says {colour}, {target}, "
                  f"{duration}, form {form}, undead {undead}")
        wounds = [c for c, w in sp.boxes if w]
        want = [] if wound is None else [wound]
        if wounds != want:
            _fail(f, sp, f"spell {sp.id}: wound boxes {wounds} contradict the manifest "
                  f"({line}): {'no wound' if wound is None else 'wound one ' + wound + ' cube'}")
        if sp.colour != "universal" and not any(c == sp.colour for c, _ in sp.boxes):
            _fail(f, sp, f"spell {sp.id}: a {sp.colour} spell needs a {sp.colour} box")
        if sp.colour == "universal" and any(c != "any" for c, _ in sp.boxes):
            _fail(f, sp, "Break Spells takes any colour(s) of cubes (L1492)")
        if sp.deck_copies == 0 and sp.start_copies == 0:
            _fail(f, sp, f"spell {sp.id} is in neither deck")
    by_colour = {}
    for sp in realm.spells.values():
        by_colour.setdefault(sp.colour, []).append(sp.level)
    for colour in MAGIC_COLOURS:
        if sorted(by_colour.get(colour, [])) != [1, 2, 3, 4, 5]:
            raise DataError(f, 0, f"{colour} spells: want levels 1..5 once each (manifest order)")


def _check_chip(f, obj, what, side, spells):
    if side.attack == "spell" and side.spell not in spells:
        _fail(f, obj, f"{what}: spell {side.spell!r} is not in spells.txt")
    if side.attack == "fire":
        if (side.damage, side.swords, side.targets) != (2, 1, 4):
            _fail(f, obj, f"{what}: a dragon's fire has the Fireball's characteristics: base "
                  "damage 2 + 1 sword, up to 4 targets (L1266, L1562)")
    elif side.targets != 1:
        _fail(f, obj, f"{what}: only fire strikes several Heroes")


def _check_monsters(realm):
    f = "monsters.txt"
    m = realm.monsters
    for mid, line in NAMED_MONSTERS.items():
        if mid not in m:
            raise DataError(f, 0, f"missing monster {mid!r} (named at {line})")
    for mon in m.values():
        for sname in ("front", "back"):
            _check_chip(f, mon, f"{mon.id} {sname}", getattr(mon, sname), realm.spells)
        want_unique = mon.kind in ("guardian", "leader")
        if mon.unique != want_unique:
            _fail(f, mon, f"{mon.id}: unique must be {'yes' if want_unique else 'no'}: all "
                  "Guardians and the Orc Lord, Orc Champion, Goblin King and Kobold Rex are "
                  "unique (L1258)")
        if mon.unique and mon.chips > 1 and mon.group is None:
            _fail(f, mon, f"{mon.id}: a unique monster has one chip unless it is a group (L1246)")
        fire = [s for s in (mon.front, mon.back) if s.attack == "fire"]
        if (mon.id in FIRE_BREATHERS) != bool(fire):
            _fail(f, mon, f"{mon.id}: only the Great Drake, Great Wyrm and Adult Dragons breathe "
                  "fire, on one side of the chip (L1266)")
    for (mid, sname), spell in MONSTER_SPELLS.items():
        side = getattr(m[mid], sname)
        if side.spell != spell:
            _fail(f, m[mid], f"{mid}: its {sname} side casts {spell} (L1262, L1270, L1274)")
    for mon in m.values():
        for sname in ("front", "back"):
            side = getattr(mon, sname)
            if side.attack == "spell" and (mon.id, sname) not in MONSTER_SPELLS:
                _fail(f, mon, f"{mon.id} {sname}: the rulebook names no spell for it")
    if not m["demon"].flying:
        _fail(f, m["demon"], "the Demon is a flying Monster (L1262)")
    leaders = sorted(x.id for x in m.values() if x.kind == "leader")
    if leaders != sorted(LEADERS):
        raise DataError(f, 0, f"leaders are {leaders}; the rulebook's are {sorted(LEADERS)} (L1258)")
    bandits = [x for x in m.values() if x.group == "bandits"]
    if len(bandits) != 1 or bandits[0].chips < 2 or bandits[0].kind != "guardian":
        raise DataError(f, 0, "the Bandits are one guardian kind of several chips, summoned as "
                        "a group (L1246)")
    elementals = [x for x in m.values() if x.kind == "elemental"]
    if sum(x.chips for x in elementals) < 2 or any(x.group != "elementals" for x in elementals):
        raise DataError(f, 0, "there are several Elemental Monster Chips, group 'elementals' (L1550)")
    if not any(x.undead for x in m.values() if x.kind != "elemental"):
        raise DataError(f, 0, "some Monsters are undead (L1012, L1212)")
    for x in m.values():
        if x.kind == "wandering" and x.pack is None:
            _fail(f, x, f"{x.id}: a Wandering Monster belongs to a pack (L224)")


def _check_natives(realm):
    f = "natives.txt"
    for nat in realm.natives.values():
        for sname in ("front", "back"):
            side = getattr(nat, sname)
            if side.attack in ("spell", "fire"):
                _fail(f, nat, f"{nat.id}: Natives attack with weapons (melee or ranged)")


def _check_tiles(realm):
    f = "tiles.txt"
    symbols = sorted(x for x in realm.dice["local_symbol"].faces if x != "site")
    for pack in PACKS:
        tiles = [t for t in realm.tiles.values() if t.pack == pack]
        civ = [t for t in tiles if t.kind == "civilization"]
        wild = [t for t in tiles if t.kind == "wilderness"]
        if len(civ) != 1 or len(wild) != 5:
            raise DataError(f, 0, f"{pack}: {len(civ)} Civilization and {len(wild)} Wilderness "
                            "Tiles; each Terrain Pack has one and five (L290)")
        got = sorted(t.local_symbol for t in wild)
        if got != symbols:
            _fail(f, wild[0], f"{pack}: its wilderness tiles carry symbols {got}; each of the "
                  f"Local Monster Die's tile symbols {symbols} must be on exactly one of them, "
                  "so that the two symbol dice name one tile (L1103, L1274)")
    names = {}
    for t in realm.tiles.values():
        if t.name in names:
            _fail(f, t, f"tile name {t.name!r} used twice")
        names[t.name] = t.id
        if t.kind == "wilderness":
            mon = realm.monsters.get(t.local_monster)
            if mon is None:
                _fail(f, t, f"tile {t.id}: unknown local monster {t.local_monster!r}")
            if mon.kind not in ("local", "leader") and not (
                    mon.kind == "wandering" and mon.pack != t.pack):
                _fail(f, t, f"tile {t.id}: {mon.id} is a {mon.kind} monster, not a Local Monster "
                      "(L226; another pack's Wandering Monster may be one)")
            if mon.unique and t.local_dual:
                _fail(f, t, f"tile {t.id}: a unique monster cannot summon with the dual dice icon")
            for n, side in enumerate(t.sides, 1):
                if not side.hidden:
                    _fail(f, t, f"tile {t.id} side {n}: a wilderness side needs a Hidden Path "
                          "(L1160 picks one at random)")
                if all(c == "cave" for c in side.clearings):
                    _fail(f, t, f"tile {t.id} side {n}: needs a non-Cave Clearing (flying, L1095)")
    if not any(t.pack == "malevolent_mountains" and t.local_symbol == "sound"
               and t.local_monster == "adult_dragon" for t in realm.tiles.values()):
        raise DataError(f, 0, "the sound symbol summons Adult Dragons in the Malevolent "
                        "Mountains (L1360)")
    for t in realm.tiles.values():
        if t.kind == "wilderness" and t.local_monster in realm.monsters:
            home = realm.setup_cards.get(t.pack)
            if home and realm.monsters[t.local_monster].id == home.wandering:
                _fail(f, t, f"tile {t.id}: its Local Monster is the pack's Wandering Monster")


def _check_setup_and_tokens(realm):
    f, ft = "setup_cards.txt", "tokens.txt"
    cards = realm.setup_cards
    for pack in PACKS:
        if pack not in cards:
            raise DataError(f, 0, f"missing the Terrain Setup Card of {pack} (L278, L282)")
    guarded = {}
    all_sites = {}
    for card in cards.values():
        w = realm.monsters.get(card.wandering)
        if w is None or w.kind != "wandering" or w.pack != card.pack:
            _fail(f, card, f"{card.pack}: wandering {card.wandering!r} must be a wandering "
                  f"monster of pack {card.pack} (L224)")
        loc = realm.civ_locations.get(card.civ_location)
        if loc is None or loc.pack != card.pack:
            _fail(f, card, f"{card.pack}: civ_location {card.civ_location!r} must be a "
                  f"Civilization Location of {card.pack} in tokens.txt (L306)")
        for sid, site in card.sites.items():
            if sid in all_sites:
                _fail(f, site, f"site {sid!r} is on two setup cards")
            all_sites[sid] = card.pack
            g = realm.monsters.get(site.guardian)
            if g is None or g.kind != "guardian":
                _fail(f, site, f"site {sid}: guardian {site.guardian!r} is not a guardian "
                      "monster (L300)")
            if site.guardian in guarded:
                _fail(f, site, f"{site.guardian} guards two sites ({guarded[site.guardian]}, {sid})")
            guarded[site.guardian] = sid
            if g.pack != card.pack and not site.red_arrow:
                _fail(f, site, f"site {sid}: its guardian {g.id} is in the {g.pack} tray")
        for n, side in enumerate(card.sides, 1):
            count = {}
            for nid in side.natives:
                nat = realm.natives.get(nid)
                if nat is None:
                    _fail(f, card, f"{card.pack} side {n}: unknown native {nid!r}")
                if nat.group != card.native_group or nat.pack != card.pack:
                    _fail(f, card, f"{card.pack} side {n}: native {nid} is of group {nat.group} "
                          f"({nat.pack}), not {card.native_group} ({card.pack})")
                count[nid] = count.get(nid, 0) + 1
            for nid, c in count.items():
                if c > realm.natives[nid].chips:
                    _fail(f, card, f"{card.pack} side {n}: {c} x {nid} but only "
                          f"{realm.natives[nid].chips} chip(s) in natives.txt")
            if not side.natives:
                _fail(f, card, f"{card.pack} side {n}: every Civilization Location has Natives (L312)")
            for sid, loot in side.loot.items():
                if loot.treasures + loot.deep == 0:
                    _fail(f, card, f"{card.pack} side {n}: site {sid} holds no cards")
    for guardian in (x for x in realm.monsters.values() if x.kind == "guardian"):
        if guardian.id not in guarded:
            _fail("monsters.txt", guardian, f"guardian {guardian.id} guards no site")
    # the sites the rulebook describes (L1232-L1252, L1278)
    for sid, line in (("catacombs", "L1234"), ("chamber", "L1238"), ("secret_cache", "L1242"),
                      ("shrine", "L1250")):
        if sid not in all_sites:
            raise DataError(f, 0, f"missing Treasure Site {sid!r} ({line})")

    def site(sid):
        card = cards[all_sites[sid]]
        return card, card.sites[sid], [s.loot[sid] for s in card.sides]

    card, info, loots = site("secret_cache")
    if info.token != "wilderness" or not info.red_arrow or \
            realm.monsters[info.guardian].group != "bandits":
        _fail(f, info, "the Secret Cache is named on a Wilderness Token (L344) and guarded by "
              "the Bandits under a red arrow (L1246)")
    for n, loot in enumerate(loots, 1):
        if (loot.treasures, loot.deep) != (0, 1) or loot.gold <= 0:
            _fail(f, card, f"Secret Cache side {n}: it holds the Deep Treasure Card and the "
                  "Gold (L1244): treasures=0 deep=1 gold>0")
    if "hidden_trap" not in loots[1].features or "hidden_trap" in loots[0].features:
        _fail(f, card, "the Secret Cache's hidden trap is on side 2 (L1248)")
    card, info, loots = site("shrine")
    if card.pack != "wicked_woods" or info.guardian != "wraith" or \
            "active_wraith" not in loots[1].features or "active_wraith" in loots[0].features:
        _fail(f, info, "side 2 of the woods Terrain Setup Card has the active Wraith at the "
              "Shrine (L1252, L1278)")
    for sid, feature, line in (("catacombs", "labyrinth", "L1236"),
                               ("chamber", "massive_door", "L1240")):
        card, info, loots = site(sid)
        if sum(feature in lt.features for lt in loots) != 1:
            _fail(f, card, f"{feature} is on one side of the card, at the {sid} ({line})")
    for card in cards.values():
        for n, side in enumerate(card.sides, 1):
            for sid, loot in side.loot.items():
                for feat, home in (("labyrinth", "catacombs"), ("massive_door", "chamber"),
                                   ("hidden_trap", "secret_cache"), ("active_wraith", "shrine")):
                    if feat in loot.features and sid != home:
                        _fail(f, card, f"{card.pack} side {n}: {feat} belongs at the {home}")
    # tokens
    for loc in realm.civ_locations.values():
        if loc.pack not in cards or cards[loc.pack].civ_location != loc.id:
            _fail(ft, loc, f"Civilization Location {loc.id} is on no setup card")
    merchants_seen = set()
    for tok in realm.civ_tokens.values():
        if tok.merchant is not None:
            if tok.merchant not in cards[tok.pack].merchants:
                _fail(ft, tok, f"civilization token {tok.id}: merchant {tok.merchant!r} is not on "
                      f"the {tok.pack} Terrain Setup Card")
            merchants_seen.add(tok.merchant)
    for card in cards.values():
        for mid in card.merchants:
            if mid not in merchants_seen:
                _fail(f, card, f"merchant {mid} has no Civilization Token")
        per_pack = [t for t in realm.civ_tokens.values() if t.pack == card.pack]
        if sum(t.copies for t in per_pack) < 2:
            raise DataError(ft, 0, f"{card.pack}: two Civilization Tokens are drawn per "
                            "Civilization Tile (L489); each pack needs at least two")
    if not any(t.merchant is None for t in realm.civ_tokens.values()):
        raise DataError(ft, 0, "some Civilization Tokens are empty (L318)")
    specials = [t for t in realm.wilderness_tokens.values() if t.kind == "special"]
    if sorted(t.target for t in specials) != ["dwarven_ruins", "forgotten_city"]:
        raise DataError(ft, 0, "the Special Locations are the Forgotten City and the Dwarven "
                        "Ruins, one token each (L502)")
    extra = sum(t.copies for t in specials)
    for pack in PACKS:
        toks = [t for t in realm.wilderness_tokens.values() if t.pack == pack]
        if not toks:
            raise DataError(ft, 0, f"{pack} has no Wilderness Tokens (L181)")
        first = toks[0]
        n = sum(t.copies for t in toks)
        need = 5 + extra
        if n < need:
            _fail(ft, first, f"{pack}: {n} Wilderness Tokens; its five tiles draw one each "
                  f"and each Special Location one more (L495, L502): need {need}")
        draws = sum(t.copies for t in toks if t.kind == "site")
        owned = sum(1 for s in realm.site_tokens.values() if s.pack == pack)
        if draws > owned:
            _fail(ft, first, f"{pack}: {draws} 'Site' Wilderness Tokens but only {owned} "
                  f"Treasure Site Tokens of {pack}: a pool of that pack alone runs dry")
        gates = sum(t.copies for t in toks if t.kind == "gate")
        if gates < 2:
            _fail(ft, first, f"{pack}: Gates work in pairs (L479); give each pack two")
    for tok in realm.wilderness_tokens.values():
        if tok.kind == "treasure_site":
            home = all_sites.get(tok.target)
            if home != tok.pack or cards[home].sites[tok.target].token != "wilderness":
                _fail(ft, tok, f"wilderness token {tok.id}: {tok.target!r} must be a token=wilderness "
                      f"site of {tok.pack}'s setup card")
    for card in cards.values():
        for sid, info in card.sites.items():
            if info.token == "wilderness":
                if not any(t.kind == "treasure_site" and t.target == sid
                           for t in realm.wilderness_tokens.values()):
                    _fail(f, info, f"site {sid} is named on a Wilderness Token: none in tokens.txt")
            else:
                st = [s for s in realm.site_tokens.values() if s.site == sid]
                if len(st) != 1 or st[0].pack != card.pack:
                    _fail(f, info, f"site {sid} needs one Treasure Site Token of {card.pack}")
    for st in realm.site_tokens.values():
        home = all_sites.get(st.site)
        if home is None or cards[home].sites[st.site].token != "site":
            _fail(ft, st, f"site token {st.id}: {st.site!r} is not a token=site site on a setup card")


_SLOTS = {"neck": ("neck",), "waist": ("waist",), "feet": ("feet",), "head": ("head",),
          "chest": ("chest",), "head_chest": ("head", "chest"), "one_handed": ("weapon",),
          "one_or_two_handed": ("weapon",), "two_handed": ("weapon", "weapon"),
          "single_hand": ("hand",), "two_hands": ("hand", "hand"), "misc": ("misc",),
          "backpack": (), "backpack_special": ()}
_SLOT_COUNT = {"neck": 1, "waist": 1, "feet": 1, "head": 1, "chest": 1, "weapon": 2, "hand": 2,
               "misc": 2}


def equip_problem(cards):
    """Why the Cards cannot all be equipped together, or None (L936-L976).

    Positions: head, chest, neck, waist, feet once each; two weapon positions
    (one weapon and one shield at most, a two-handed card takes both); two
    hands; two miscellaneous positions.
    """
    used = {}
    for c in cards:
        for slot in _SLOTS[c.position]:
            used[slot] = used.get(slot, 0) + 1
    for slot, n in used.items():
        if n > _SLOT_COUNT[slot]:
            return f"more cards than {slot} positions"
    if sum(1 for c in cards if c.weapon) > 1:
        return "two weapons (L948)"
    if sum(1 for c in cards if c.is_shield) > 1:
        return "two shields (L948)"
    return None


def _check_cards(realm):
    fi, fs = "items.txt", "treasures.txt"
    for tid in realm.treasures:
        if tid in realm.items:
            _fail(fs, realm.treasures[tid], f"id {tid!r} is both an item and a treasure")
    names = {}
    for card in realm.treasures.values():
        base = re.sub(r" \([^)]*\)$", "", card.name)
        if base not in MANIFEST:
            _fail(fs, card, f"treasure {card.name!r} is not in the Treasure Manifest (L1280-L1484)")
        names.setdefault(base, []).append(card)
        line, flags = MANIFEST[base]
        flags = set(flags.split())
        where = f"the manifest (L{line})"
        if card.effect != f"L{line}":
            _fail(fs, card, f"{card.id}: effect must cite {where}")
        if card.epic != ("epic" in flags):
            says = "an Epic" if "epic" in flags else "not an Epic"
            _fail(fs, card, f"{card.id}: {where} says it is {says} Treasure")
        for flag, ok in (("one_time", card.use == "one_time"), ("instant", card.use == "instant"),
                         ("valuable", card.valuable), ("face_up", card.backpack_special)):
            if (flag in flags) != ok:
                _fail(fs, card, f"{card.id}: {where} {'says' if flag in flags else 'does not say'} "
                      f"{flag.replace('_', ' ')}")
        kinds = {"melee", "ranged", "melee_or_ranged"} & flags
        if kinds and card.weapon not in kinds:
            _fail(fs, card, f"{card.id}: {where} says it is a {kinds.pop().replace('_', ' or ')} weapon")
        if card.weapon and not kinds and "weapon" not in card.substituted:
            _fail(fs, card, f"{card.id}: {where} names no weapon; mark an authored weapon '*'")
        if ("armor" in flags) != bool(card.armor) and "armor" not in card.substituted:
            _fail(fs, card, f"{card.id}: armour must match {where} (mark an authored value '*')")
        if "sharp" in flags and card.swords < 2:
            _fail(fs, card, f"{card.id}: extra sharp ({where}) is written as 2 sword icons")
        if card.spells and not card.name.startswith("Spell "):
            _fail(fs, card, f"{card.id}: only a Spell Book or Scroll holds spells (L1424)")
        if card.name.startswith("Spell ") and not card.spells:
            _fail(fs, card, f"{card.id}: a Spell Book or Scroll holds 1-3 spells (L1424)")
        if card.casts and card.casts not in realm.spells:
            _fail(fs, card, f"{card.id}: casts unknown spell {card.casts!r}")
        if (card.colour is not None) != (base == "Enchanted Treasure"):
            _fail(fs, card, f"{card.id}: only an Enchanted Treasure shows an enchantment colour (L1340)")
    for name in MANIFEST:
        if name not in names:
            raise DataError(fs, 0, f"missing treasure {name!r} of the Treasure Manifest")
    sod = next(c for c in realm.treasures.values() if c.name == "Shield of Defiance")
    if (sod.armor, sod.weight) != (3, 2) or not sod.is_shield:
        _fail(fs, sod, "Shield of Defiance: a shield of armour value 3, weight 2 (L1412)")
    for cid, want in (("horn_of_the_dark_angel", "fiery_chasm"), ("elemental_spherule", "elemental")):
        if cid in realm.treasures and realm.treasures[cid].casts != want:
            _fail(fs, realm.treasures[cid], f"{cid} casts {want} (L1334, L1358)")
    if "Cursed Treasure" in names:
        decks = set()
        for c in names["Cursed Treasure"]:
            decks |= set(c.copies)
        if decks != {"treasure", "deep"}:
            _fail(fs, names["Cursed Treasure"][0], "Cursed Treasures are in both the Treasure and "
                  "the Deep Treasure decks (L1320)")
    colours = sorted(c.colour for c in names.get("Enchanted Treasure", []))
    if not colours:
        raise DataError(fs, 0, "missing Enchanted Treasure (L1340)")
    for file, pool in ((fi, realm.items), (fs, realm.treasures)):
        for card in pool.values():
            if card.armor and card.position in ("two_handed", "one_or_two_handed"):
                _fail(file, card, f"{card.id}: a shield sits in one weapon position")
    for need, line in (("helmet", "L201"), ("plate_armor", "L364")):
        if need not in realm.items:
            raise DataError(fi, 0, f"missing item {need!r} ({line})")
    if realm.items["helmet"].position != "head":
        _fail(fi, realm.items["helmet"], "the Helmet goes in the head position (L201)")
    if "Warblade" not in names or "Spell Scroll" not in names:
        raise DataError(fs, 0, "the Warblade and the Spell Scroll are treasures (L365)")
    if not realm.treasures["magical_bowl_of_mixing"].epic:
        _fail(fs, realm.treasures["magical_bowl_of_mixing"], "an Epic Treasure (L366)")


def _check_heroes(realm):
    f = "heroes.txt"
    if sorted(realm.lineages) != sorted(LINEAGES):
        raise DataError(f, 0, f"the Lineage Cards are {', '.join(LINEAGES)} (L198); "
                        f"got {', '.join(sorted(realm.lineages))}")
    if sorted(realm.classes) != sorted(CLASSES):
        raise DataError(f, 0, f"the Class Cards are {', '.join(CLASSES)} (L1208-L1230); "
                        f"got {', '.join(sorted(realm.classes))}")
    demand = {}
    start_colours = {}
    for sp in realm.spells.values():
        start_colours[sp.colour] = start_colours.get(sp.colour, 0) + sp.start_copies
    for cls in realm.classes.values():
        most = {}
        for n, side in enumerate(cls.sides, 1):
            cards = []
            for cid in side.equipment:
                if cid not in realm.items:
                    _fail(f, cls, f"{cls.id} side {n}: starting equipment {cid!r} is not an Item "
                          "Card in items.txt (L201)")
                cards.append(realm.items[cid])
                most[cid] = max(most.get(cid, 0), side.equipment.count(cid))
            why = equip_problem(cards)
            if why:
                _fail(f, cls, f"{cls.id} side {n}: its starting equipment cannot all be equipped "
                      f"({why}; L201)")
            for lin in realm.lineages.values():
                for m, lside in enumerate(lin.sides, 1):
                    might = side.might + lside.might
                    for c in cards:
                        if c.weight > might:
                            _fail(f, cls, f"{lin.id} side {m} + {cls.id} side {n}: {might} Might "
                                  f"Cubes cannot carry {c.id} (weight {c.weight}, L976)")
                    if sum(c.speed_mandatory for c in cards) > side.speed + lside.speed:
                        _fail(f, cls, f"{cls.id} side {n}: not enough Speed Cubes for its weapon")
                    magic = side.magic + lside.magic
                    spells = side.spells + lside.spells
                    if spells:
                        if not magic:
                            _fail(f, cls, f"{lin.id} + {cls.id} side {n}: starting spells need "
                                  "Magic Cubes (L204)")
                        avail = start_colours.get("universal", 0) + sum(
                            start_colours.get(c, 0) for c in {c for cube in magic for c in cube})
                        if avail < spells:
                            _fail(f, cls, f"{lin.id} + {cls.id} side {n}: {spells} starting "
                                  f"spells but only {avail} in the Hero Starting Spell deck of "
                                  "its colours (L204)")
        for cid, k in most.items():
            demand[cid] = demand.get(cid, 0) + k
    for cid, k in demand.items():
        if realm.items[cid].copies["item"] < k:
            _fail("items.txt", realm.items[cid], f"{cid}: {realm.items[cid].copies['item']} "
                  f"cards, but the twelve Classes start with {k} (L201, L829)")
    for n in (0, 1):
        golds = [c.sides[n].gold for c in realm.classes.values()]
        if len(set(golds)) != len(golds):
            raise DataError(f, 0, f"side {n + 1}: all Classes have different starting Gold (L1148)")
    for lin in realm.lineages.values():
        for n, side in enumerate(lin.sides, 1):
            if side.equipment or side.gold:
                _fail(f, lin, "Lineage Cards list no equipment or Gold (L201, L202)")
    elf = realm.lineages["elf"]
    for n, side in enumerate(elf.sides, 1):
        if side.spells < 1 or not side.magic:
            _fail(f, elf, f"elf side {n}: an extra starting spell of a Magic Cube colour it "
                  "selects (L1200)")


def _check_decks(realm):
    fs = "treasures.txt"
    deck = {"treasure": 0, "deep": 0}
    for c in realm.treasures.values():
        for k, n in c.copies.items():
            deck[k] += n
    t_need = d_need = i_need = 0
    for card in realm.setup_cards.values():
        t_need += max(sum(lt.treasures for lt in s.loot.values()) +
                      sum(st.treasures for st in s.stock.values()) for s in card.sides)
        d_need += max(sum(lt.deep for lt in s.loot.values()) for s in card.sides)
        i_need += max(sum(st.items for st in s.stock.values()) for s in card.sides)
    t_need += sum(t.copies for t in realm.wilderness_tokens.values() if t.kind == "treasure")
    i_need += sum(t.copies for t in realm.wilderness_tokens.values() if t.kind == "item")
    if deck["treasure"] < t_need or deck["deep"] < d_need:
        raise DataError(fs, 0, f"decks of {deck['treasure']} Treasure and {deck['deep']} Deep "
                        f"Treasure Cards cannot fill the sites and Merchants of all three packs "
                        f"({t_need} and {d_need})")
    items_left = sum(c.copies["item"] for c in realm.items.values())
    items_left -= sum(max(len(s.equipment) for s in c.sides) for c in realm.classes.values())
    if items_left < i_need:
        raise DataError("items.txt", 0, f"{items_left} Item Cards left after the starting "
                        f"equipment; the Merchants and Item tokens need {i_need}")
    book_spells = sum(c.spells * sum(c.copies.values()) for c in realm.treasures.values())
    deck_spells = sum(s.deck_copies for s in realm.spells.values())
    if deck_spells < book_spells:
        raise DataError("spells.txt", 0, f"the Spell deck has {deck_spells} cards; the Spell "
                        f"Books and Scrolls can hold {book_spells} (L1424)")


def pack_monsters(realm, pack):
    """Monster ids the summoning of ``pack`` can bring onto its tiles: its
    Wandering Monster (L224), the Local Monsters of its wilderness tiles
    (L226) and the Guardians of its Treasure Sites (L300)."""
    card = realm.setup_cards[pack]
    found = {card.wandering}
    found |= {t.local_monster for t in realm.tiles.values()
              if t.pack == pack and t.kind == "wilderness"}
    found |= {site.guardian for site in card.sites.values()}
    return found


def _a(word):
    """``word`` with its indefinite article."""
    return ("an " if word[0] in "aeiou" else "a ") + word


def _mission_value(m):
    """What a mission pays, LPs counted as the 10 Fame they are worth at
    retirement (L819) and Gold one for one."""
    return 10 * m.reward.lp + m.reward.fame + m.reward.gold


def _check_missions(realm):
    f = "missions.txt"
    cards = realm.setup_cards
    places = dict((loc.id, loc.pack) for loc in realm.civ_locations.values())
    merchants = {mid: card.pack for card in cards.values() for mid in card.merchants}
    for mid in merchants:
        if mid in places:
            raise DataError(f, 0, f"{mid!r} is both a Civilization Location and a Merchant: "
                            "'complete at=' could not tell them apart")
    places.update(merchants)
    native_groups = {}
    for nat in realm.natives.values():
        native_groups.setdefault(nat.group, set()).add(nat.pack)
    for m in realm.missions.values():
        want = MISSION_OUTLAW[m.kind]
        if m.outlaw != want:
            _fail(f, m, f"mission {m.id}: {_a(m.kind)} card has 'outlaw {want}', not "
                  f"'outlaw {m.outlaw}' (atrocity gain L1116, quest discard L1083 L1121, "
                  "expedition none)")
        if m.complete_at not in places:
            _fail(f, m, f"mission {m.id}: complete at {m.complete_at!r} is neither a "
                  "Civilization Location (tokens.txt) nor a Merchant (setup_cards.txt)")
        if places[m.complete_at] != m.pack:
            _fail(f, m, f"mission {m.id}: it is a {m.pack} card but completes at "
                  f"{m.complete_at} of {places[m.complete_at]}, which need not be in play (L184)")
        reach = pack_monsters(realm, m.pack)
        for t in m.tasks:
            what = f"mission {m.id}: task {t.verb} {t.by}={t.target}"
            if t.verb == "kill" and t.by == "monster":
                mon = realm.monsters.get(t.target)
                if mon is None:
                    _fail(f, t, f"{what}: unknown monster (monsters.txt)")
                if t.target not in reach:
                    _fail(f, t, f"{what}: the {m.pack} summoning never brings {t.target} "
                          "(not its Wandering or a Local Monster of its tiles, nor a Guardian "
                          "of its sites)")
                if t.count > mon.chips:
                    _fail(f, t, f"{what}: count {t.count}, but the game has {mon.chips} "
                          f"{t.target} chip(s)")
            elif t.verb == "kill":
                members = [x for x in realm.monsters.values() if x.group == t.target]
                if not members:
                    _fail(f, t, f"{what}: unknown monster group (monsters.txt 'group')")
                away = [x.id for x in members if x.id not in reach]
                if away:
                    _fail(f, t, f"{what}: the {m.pack} summoning never brings {', '.join(away)}")
                chips = sum(x.chips for x in members)
                if t.count > chips:
                    _fail(f, t, f"{what}: count {t.count}, but the group has {chips} chip(s)")
            elif t.verb == "kill_native":
                if t.target not in native_groups:
                    _fail(f, t, f"{what}: unknown Native Group (natives.txt)")
                if native_groups[t.target] != {m.pack}:
                    _fail(f, t, f"{what}: the group lives at another pack's Civilization "
                          f"Location ({', '.join(sorted(native_groups[t.target]))})")
                stand = min(sum(1 for nid in side.natives if realm.natives[nid].group == t.target)
                            for side in cards[m.pack].sides)
                if t.count > stand:
                    _fail(f, t, f"{what}: count {t.count}, but as few as {stand} of them stand "
                          "on the Civilization Location (L189)")
            elif t.verb == "loot":
                if t.target not in cards[m.pack].sites:
                    _fail(f, t, f"{what}: not a Treasure Site of the {m.pack} Terrain Setup "
                          f"Card ({', '.join(cards[m.pack].sites)})")
            else:
                tile = realm.tiles.get(t.target)
                if tile is None or tile.pack != m.pack:
                    _fail(f, t, f"{what}: not a Map Tile of {m.pack} (tiles.txt)")
    for mid, (name, kind, bonus, reward, line) in PRINTED_MISSIONS.items():
        m = realm.missions.get(mid)
        if m is None:
            raise DataError(f, 0, f"missing the {name} mission ({line})")
        got = (m.name, m.kind, m.bonus, (m.reward.gold, m.reward.lp, m.reward.fame), m.outlaw)
        if got != (name, kind, bonus, reward, "gain"):
            _fail(f, m, f"mission {mid}: {line} prints the {name}, {_a(kind)} with bonus {bonus} "
                  f"that pays {reward[1]} LP, {reward[2]} Fame, {reward[0]} Gold and an Outlaw "
                  f"Token; got {got}")
    for pack in PACKS:
        deck = [m for m in realm.missions.values() if m.pack == pack]
        need = max(sum(st.missions for st in side.stock.values()) for side in cards[pack].sides)
        if len(deck) <= need:
            raise DataError(f, 0, f"{pack}: {len(deck)} Mission Cards; its Merchants take up to "
                            f"{need} when revealed (L491), and cards must be left to refill "
                            "them (L564): need at least " + str(need + 1))
        by_kind = {k: [m for m in deck if m.kind == k] for k in MISSION_KINDS}
        for k, ms in by_kind.items():
            if not ms:
                raise DataError(f, 0, f"{pack}: no {k} card; each pack's deck offers all three "
                                "kinds of mission (L330, L1075)")

        def mean_above(a, b, value):
            return sum(map(value, a)) * len(b) > sum(map(value, b)) * len(a)

        atro, quest, exp = by_kind["atrocity"], by_kind["quest"], by_kind["expedition"]
        if not (mean_above(atro, quest, _mission_value) and mean_above(atro, exp, _mission_value)):
            _fail(f, atro[0], f"{pack}: atrocities are more lucrative (L1075): their mean "
                  "10 x LP + Fame + Gold must exceed that of the quests and the expeditions")
        gold = lambda m: m.reward.gold  # noqa: E731
        if not (mean_above(exp, atro, gold) and mean_above(exp, quest, gold)):
            _fail(f, exp[0], f"{pack}: expeditions earn more Gold (L1075): their mean Gold "
                  "must exceed that of the atrocities and the quests")
    with_discard = [m for m in realm.missions.values() if m.discard is not None]
    if 2 * len(with_discard) >= len(realm.missions) > 0:
        _fail(f, with_discard[0], f"{len(with_discard)} of {len(realm.missions)} cards have a "
              "discard reward or penalty; the rulebook says 'sometimes' (L1071)")


def _check_civilization(realm):
    f = "civilization.txt"
    groups = {nat.group for nat in realm.natives.values()}
    for card in realm.civ_cards.values():
        loc = realm.civ_locations.get(card.id)
        if loc is None:
            _fail(f, card, f"civilization card {card.id}: not a Civilization Location of "
                  f"tokens.txt ({', '.join(realm.civ_locations)})")
        if card.pack != loc.pack:
            _fail(f, card, f"civilization card {card.id}: the location is of {loc.pack}, "
                  f"not {card.pack} (L326)")
        if card.group not in groups:
            _fail(f, card, f"civilization card {card.id}: unknown Native Group {card.group!r} "
                  "(natives.txt)")
        home = realm.setup_cards[card.pack].native_group
        if card.group != home:
            _fail(f, card, f"civilization card {card.id}: the Natives at {card.id} are the "
                  f"{home} (setup_cards.txt), not {card.group} (L189, L567)")
        deck = sum(1 for m in realm.missions.values() if m.pack == card.pack)
        for n, side in enumerate(card.sides, 1):
            for t in side.titles:
                if t.min_missions > deck:
                    _fail(f, t, f"title {t.id}: missions>={t.min_missions}, but a game of "
                          f"{card.pack} alone has {deck} Mission Cards")
                if t.large and side.limit is None and t.price == 0:
                    _fail(f, t, f"title {t.id}: a free large box on a side without a limit "
                          "would pay out every Trade Action (L567); give it a price or the "
                          "side a limit")
            small = sum(1 for t in side.titles if t.small)
            if side.limit is not None and small == len(side.titles) and side.limit >= small:
                _fail(f, card, f"civilization card {card.id} side {n}: limit {side.limit} "
                      f"limits nothing on a side of {small} small boxes")
    for loc in realm.civ_locations.values():
        if loc.id not in realm.civ_cards:
            raise DataError(f, 0, f"no Civilization Card for {loc.id} (L180: one matches each "
                            "Civilization Location)")
    boxes = {t.box for c in realm.civ_cards.values() for s in c.sides for t in s.titles}
    if realm.civ_cards and boxes != set(TITLE_BOXES):
        raise DataError(f, 0, f"the cards have small and large title boxes (L567); only "
                        f"{', '.join(sorted(boxes))} here")


# ------------------------------------------------------------- loading ----

def load(data_dir=DATA_DIR):
    """Parse and check every file of ``data_dir``; a :class:`Realm`.

    Raises :class:`DataError` (a ``ValueError``) naming the file, line and problem.
    """
    data_dir = Path(data_dir)
    dice = _parse_dice(data_dir)
    if "local_symbol" not in dice:
        raise DataError("dice.txt", 0, "missing die 'local_symbol' (L226)")
    local_symbols = tuple(x for x in dice["local_symbol"].faces if x != "site")
    monsters = _parse_monsters(data_dir)
    natives = _parse_natives(data_dir)
    tiles = _parse_tiles(data_dir, local_symbols)
    setup_cards = _parse_setup_cards(data_dir)
    lineages, classes = _parse_heroes(data_dir)
    items = _parse_cards(data_dir, "items.txt", "item")
    treasures = _parse_cards(data_dir, "treasures.txt", "treasure")
    spells = _parse_spells(data_dir)
    locations, civ, wild, sites = _parse_tokens(data_dir)
    curses = _parse_curses(data_dir)
    missions = _parse_missions(data_dir)
    civ_cards = _parse_civilization(data_dir)
    realm = Realm(dice, monsters, natives, tiles, setup_cards, lineages, classes, items,
                  treasures, spells, locations, civ, wild, sites, curses=curses,
                  missions=missions, civ_cards=civ_cards)
    _check(realm)
    return realm


# ---------------------------------------------------------- map building ----

@dataclass(frozen=True)
class Placement:
    """A tile on the map: side 1|2, rotation 0..5 (clockwise sixths), axial (q, r)."""
    tile: str
    side: int
    rotation: int
    q: int
    r: int


def facing_edge(rotation, direction):
    """The tile edge (1..6) that faces map ``direction`` (1..6) at ``rotation``."""
    return (direction - 1 - rotation) % 6 + 1


def exits(realm, p):
    """{map direction: clearing} of the paths leaving placed tile ``p``."""
    cache = realm.__dict__.setdefault("_exits", {})
    key = (p.tile, p.side, p.rotation)
    if key not in cache:
        side = realm.tiles[p.tile].sides[p.side - 1]
        cache[key] = {d: side.edges[facing_edge(p.rotation, d) - 1] for d in range(1, 7)
                      if side.edges[facing_edge(p.rotation, d) - 1] is not None}
    return cache[key]


def neighbour(q, r, d):
    dq, dr = DIRECTIONS[d]
    return q + dq, r + dr


def placement_touches(realm, placed, p):
    """(legal, touched, connected) for ``p`` beside the ``placed`` {(q, r): Placement}:
    all shared edges match path to path (L109), how many tiles it touches, and
    how many paths join it to them."""
    if (p.q, p.r) in placed:
        return False, 0, 0
    mine = exits(realm, p)
    touched = joined = 0
    for d in range(1, 7):
        other = placed.get(neighbour(p.q, p.r, d))
        if other is None:
            continue
        touched += 1
        theirs = opposite(d) in exits(realm, other)
        if (d in mine) != theirs:
            return False, touched, joined
        joined += d in mine
    return True, touched, joined


def legal_placements(realm, placed, tile_id):
    """Every legal Open Realm placement of ``tile_id`` (L109): beside the map,
    edges matching path to path, joined to at least one existing path, and
    touching two tiles if any such placement exists for this tile."""
    if not placed:
        return [Placement(tile_id, s, r, 0, 0) for s in (1, 2) for r in range(6)]
    spots = set()
    for (q, r) in placed:
        for d in range(1, 7):
            n = neighbour(q, r, d)
            if n not in placed:
                spots.add(n)
    found = []
    for (q, r) in sorted(spots):
        for side in (1, 2):
            for rot in range(6):
                p = Placement(tile_id, side, rot, q, r)
                ok, touched, joined = placement_touches(realm, placed, p)
                if ok and joined:
                    found.append((touched, p))
    if any(t >= 2 for t, _ in found):
        return [p for t, p in found if t >= 2]
    return [p for _, p in found]


def open_exits(realm, placed):
    """(tile position, direction) of every path extending off the map (L113)."""
    out = []
    for (q, r), p in placed.items():
        for d in exits(realm, p):
            if neighbour(q, r, d) not in placed:
                out.append(((q, r), d))
    return out


def build_open_realm(packs, seed=0, realm=None, max_nodes=20000):
    """A legal Open Realm map of every tile of ``packs`` (L109), as a list of
    Placements in the order they were placed. Depth-first search over tile,
    side, rotation and position in a seeded random order; ValueError if none
    is found within ``max_nodes`` placements tried."""
    realm = realm or REALM
    rng = random.Random(seed)
    tiles = realm.tiles_of(packs)
    if not tiles:
        raise ValueError("build_open_realm: no tiles (choose at least one Terrain Pack)")
    rng.shuffle(tiles)
    placed, order, nodes = {}, [], [0]

    def dfs(remaining):
        if not remaining:
            return bool(open_exits(realm, placed))
        for tile in list(remaining):
            options = legal_placements(realm, placed, tile)
            rng.shuffle(options)
            for p in options:
                nodes[0] += 1
                if nodes[0] > max_nodes:
                    return False
                placed[(p.q, p.r)] = p
                order.append(p)
                remaining.remove(tile)
                if dfs(remaining):
                    return True
                remaining.append(tile)
                order.pop()
                del placed[(p.q, p.r)]
        return False

    if not dfs(list(tiles)):
        raise ValueError(f"build_open_realm: no legal map of {sorted(packs)} found")
    return order


def check_open_realm(order, realm=None):
    """Replay placements and raise ValueError unless each was legal when made
    (L109) and the finished map has a path off its edge (L113)."""
    realm = realm or REALM
    placed = {}
    for i, p in enumerate(order):
        if placed and p not in legal_placements(realm, placed, p.tile):
            raise ValueError(f"placement {i} ({p}) is not legal")
        placed[(p.q, p.r)] = p
    if len({p.tile for p in order}) != len(order):
        raise ValueError("a tile is placed twice")
    if not open_exits(realm, placed):
        raise ValueError("no path leaves the map: Heroes could not enter it (L113)")
    return placed


REALM = load()
"""The realm of the data folder, loaded and checked at import."""
