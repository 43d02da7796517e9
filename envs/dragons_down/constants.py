"""Codes and sizes shared by Dragons Down's data tables, rules and observations.

The realm is up to 18 Map Tiles (three Terrain Packs of six, L278, L288); a
tile has up to six clearings (wilderness six, civilization four, L290), so a
clearing is numbered ``tile * CLEARINGS_PER_TILE + (k - 1)`` for clearing ``k``
of tile ``tile`` (the tile's index in ``data/tiles.txt``), whether or not the
tile is in play. Tiles sit on a hex grid of tile positions in axial
coordinates ``(q, r)``; edges and directions are numbered 0..5 here (the data
files' 1..6 minus one): N, NE, SE, S, SW, NW, clockwise.
"""
from . import data as D

MAX_HEROES = 6
"""1 to 6 heroes (solo play is one hero, L161-L168)."""

NUM_PACKS = len(D.PACKS)
PACK_CRUEL_CAVES, PACK_MALEVOLENT_MOUNTAINS, PACK_WICKED_WOODS = range(NUM_PACKS)

TILE_IDS = tuple(D.REALM.tiles)
"""Tile index -> the tile's id in ``data/tiles.txt`` (file order: pack by pack,
the civilization tile first)."""
NUM_TILES = len(TILE_IDS)
CLEARINGS_PER_TILE = 6
NUM_CLEARINGS = NUM_TILES * CLEARINGS_PER_TILE
NUM_DIRECTIONS = 6
MAX_HIDDEN_PER_SIDE = max(len(s.hidden) for t in D.REALM.tiles.values() for s in t.sides)
"""Hidden Paths printed on one side of one tile (their index ``h`` on that side)."""
MAX_PATHS_PER_SIDE = max(len(s.paths) for t in D.REALM.tiles.values() for s in t.sides)

# clearing types (L290), in data.CLEARING_TYPES order
CLEAR_PLAINS, CLEAR_CAVE, CLEAR_MOUNTAINS, CLEAR_WOODS, CLEAR_SWAMP = range(len(D.CLEARING_TYPES))
CLEAR_NONE = -1
"""The clearing slot does not exist (a civilization tile's slots 5 and 6)."""

TILE_CIVILIZATION, TILE_WILDERNESS = 0, 1

# where a tile is (``tile_where`` of the state record)
TW_OUT = 0       # its Terrain Pack is not in play
TW_STACK = 1     # face down in the tile stack (Explore the Realm, L129) or being dealt
TW_HAND = 2      # dealt to a seat that will place it (Open Realm, L109)
TW_PLACED = 3    # on the map

SANDBOXES = ("open_realm", "explore_the_realm", "legendary")
"""The three sandboxes (L99-L168)."""
SB_OPEN_REALM, SB_EXPLORE, SB_LEGENDARY = range(len(SANDBOXES))

OPTIONAL_RULES = ("luring", "tough_monsters", "closing_the_distance", "wits_only", "shared_fame",
                  "endless_monsters", "red_meat", "enchantment_limit", "enchanted_paths", "enchanted_realm",
                  "player_vs_player")
"""The optional rules (L1128-L1192), each a game option off by default; bit
i of the record's ``optional_rules`` is OPTIONAL_RULES[i]."""
OPT_LURING, OPT_TOUGH, OPT_CLOSING, OPT_WITS, OPT_SHARED_FAME, OPT_ENDLESS, OPT_RED_MEAT, OPT_ENCH_LIMIT, \
    OPT_ENCH_PATHS, OPT_ENCH_REALM, OPT_PVP = (1 << i for i in range(len(OPTIONAL_RULES)))
LEGEND_TARGET_DEFAULT = 20
"""LP a Hero retires with to win the multi-player Legendary race (L166: 20,
"or any number agreed to by the players")."""

NATIVE_CHIP_KINDS = tuple(n.id for n in D.REALM.natives.values() for _ in range(n.chips))
"""Native chip index -> its kind's id (natives.txt order, one entry per chip)."""
NUM_NATIVE_CHIPS = len(NATIVE_CHIP_KINDS)

MONSTER_IDS = tuple(D.REALM.monsters)
"""Monster kind index -> its id in ``data/monsters.txt``."""
MONSTER_CHIP_KINDS = tuple(k for k, m in enumerate(D.REALM.monsters.values()) for _ in range(m.chips))
"""Monster chip index -> its kind (index of MONSTER_IDS), one entry per chip."""
NUM_MONSTER_CHIPS = len(MONSTER_CHIP_KINDS)
MON_TRAY = -1
"""``mon_clearing`` of a chip in the monster tray (L298)."""
MON_TAKEN = -2
"""``mon_clearing`` of a chip a hero has killed and keeps by its board (L799)."""
MON_SHAPE = -3
"""``mon_clearing`` of the chip of a hero's Shape Shift lying by his board,
out of the tray and off the map (L1568; in his combats it stands in the
clearing while the spell is active)."""

# ---------------------------------------------------------------- cards (L330-L336, L906-L981)
CARD_IDS = tuple(D.REALM.items) + tuple(D.REALM.treasures)
"""Card kind index -> its id: the Item Cards (items.txt), then the Treasure
and Deep Treasure Cards (treasures.txt)."""
CARD_DECKS = ("item", "treasure", "deep")
DECK_ITEM, DECK_TREASURE, DECK_DEEP = range(len(CARD_DECKS))
CARD_INSTANCES = tuple((k, CARD_DECKS.index(deck)) for k, cid in enumerate(CARD_IDS)
                       for deck, n in sorted((D.REALM.items.get(cid) or D.REALM.treasures[cid]).copies.items())
                       for _ in range(n))
"""Card index -> (kind, deck it starts in): one entry per physical card."""
NUM_CARDS = len(CARD_INSTANCES)

# where a card is (``card_where``)
CW_DECK = 0       # face down in its deck (``card_owner``: DECK_*); drawn at random (Interpretations)
CW_HERO = 1       # a hero's possession (``card_owner``: seat; ``card_slot``: an equip target or T_BACKPACK)
CW_REMOVED = 2    # out of the game
CW_MERCHANT = 3   # a Merchant's stock (``card_owner``: MERCHANT_IDS index, L491)
CW_SITE = 4       # a pile: a Treasure Site's Treasure Pile or a body (``card_owner``: pile, NUM_PILES; ``card_slot``: place from the top, 0 first, L520)
CW_CLEARING = 5   # face up in a clearing (``card_owner``: clearing): a dead hero's Backpack Special card (L960)

# ---------------------------------------------------------------- tokens (L318-L344, L485-L502)
WILD_TOKENS = tuple(w.id for w in D.REALM.wilderness_tokens.values() for _ in range(w.copies))
"""Wilderness Token instance -> its id (tokens.txt, one entry per copy)."""
NUM_WILD_TOKENS = len(WILD_TOKENS)
CIV_TOKENS = tuple(c.id for c in D.REALM.civ_tokens.values() for _ in range(c.copies))
NUM_CIV_TOKENS = len(CIV_TOKENS)
SITE_IDS = tuple(s for card in D.REALM.setup_cards.values() for s in card.sites)
"""Treasure Site index -> its id (the setup cards' sites, L286)."""
NUM_SITES = len(SITE_IDS)
NUM_PILES = NUM_SITES + MAX_HEROES
"""Piles a hero may search for and loot: the Treasure Sites (SITE_IDS
index), then the body of each seat's dead hero (NUM_SITES + seat, L805),
which is searched and looted like a Treasure Site."""
MERCHANT_IDS = tuple(m for card in D.REALM.setup_cards.values() for m in card.merchants)
NUM_MERCHANTS = len(MERCHANT_IDS)
TOK_POOL, TOK_PLACED, TOK_SPENT = 0, 1, 2
"""Where a token is: in its pile or pool, on the map, or used up (an instant
reward token stays with its tile as the mark that the tile was revealed)."""

# equip targets (``card_slot`` of a hero's card) and the board positions they cover (L936-L960)
T_HEAD, T_CHEST, T_WEAPON1, T_WEAPON2, T_HAND1, T_HAND2, T_NECK, T_WAIST, T_FEET, T_MISC1, T_MISC2 = range(11)
T_MISC3, T_MISC4 = 11, 12   # the Belt of Expansion's two more miscellaneous positions (L1302)
NUM_POSITIONS = 13
"""Single positions: each target below NUM_POSITIONS covers just itself."""
T_HEAD_CHEST = 13    # head and chest (L944)
T_WEAPONS = 14       # both weapon positions (L950)
T_HANDS = 15         # both hand positions (L954)
T_BACKPACK = 16      # face down in the backpack: unequipped (L958, L971)
NUM_TARGETS = 17
T_PENDING = 17       # just gained: the hero must choose at once to equip or stow it (L972)

MAP_RADIUS = NUM_TILES
"""No tile position is farther than this from the first tile (a line of all 18)."""

# ---------------------------------------------------------------- heroes (L197-L203)
LINEAGE_IDS = D.LINEAGES
CLASS_IDS = D.CLASSES
NUM_LINEAGES = len(LINEAGE_IDS)
NUM_CLASSES = len(CLASS_IDS)
NUM_COLOURS = len(D.MAGIC_COLOURS)
CUBE_MIGHT, CUBE_SPEED = 0, 1
"""Action Cube kinds (L400-L408): might (red), speed (brown), then the seven
Magic Cube colours ``CUBE_MAGIC + colour`` (data.MAGIC_COLOURS order)."""
CUBE_MAGIC = 2
NUM_CUBE_KINDS = CUBE_MAGIC + NUM_COLOURS
MAX_CARD_CUBES = max(len(side.cubes) for card in (*D.REALM.lineages.values(), *D.REALM.classes.values())
                     for side in card.sides)
"""Action Cubes (not Hearts) printed on one Lineage or Class Card side."""

# where a hero is (``hero_state`` of the state record)
HS_NONE = 0       # no hero yet (choosing one)
HS_WAITING = 1    # created, not yet on the map (enters on its first turn, L113, L133)
HS_ACTIVE = 2     # on the map
HS_DEAD = 3
HS_RETIRED = 4

# a hero's statuses this turn (``hero_status`` bits; L445, L893-L905)
HST_HIDDEN = 1      # the Hidden status (L579, L895)
HST_ALERT = 2       # took the Alert Action (L463)
HST_SNEAK = 4       # took the Sneak Action (L467)
HST_NOISE = 8       # took the Make Noise Action (L469)
HST_BLOCKED = 16    # blocked: no more actions or reactions this turn (L459)
HST_EVADED = 32     # evaded in combat last turn: must move first (L481)
HST_CAVE = 64       # has lost this turn's action to a Cave Clearing (L455)
HST_FLEW = 128      # flew into a clearing holding Monsters this action: no Hide reaction against their block (L1097)

# ---------------------------------------------------------------- spells and curses (L536-L547, L1014-L1060, L1099-L1107, L1486-L1597)
SPELL_IDS = tuple(D.REALM.spells)
"""Spell kind index -> its id in ``data/spells.txt``."""
SPELL_START, SPELL_DECK = 0, 1
"""The two decks of Spell Cards: the Hero Starting Spell deck (never
shuffled, L1016) and the Spell deck (shuffled, L185)."""
SPELL_INSTANCES = tuple((k, SPELL_START) for k, sid in enumerate(SPELL_IDS)
                        for _ in range(D.REALM.spells[sid].start_copies)) + \
    tuple((k, SPELL_DECK) for k, sid in enumerate(SPELL_IDS) for _ in range(D.REALM.spells[sid].deck_copies))
"""Spell Card index -> (kind, the deck it belongs to): one entry per physical card."""
NUM_SPELL_KINDS = len(SPELL_IDS)
NUM_SPELLS = len(SPELL_INSTANCES)
NUM_TENTACLE_CARDS = sum(1 for k, _ in SPELL_INSTANCES if SPELL_IDS[k] == "tentacles")
"""Spell Cards of Tentacles (L1518): each has its own four tentacles."""
# where a Spell Card is (``spell_where``)
SPW_START = 0      # in the Hero Starting Spell deck, set aside (L205, L805, L1016)
SPW_DECK = 1       # face down in the Spell deck (``spell_owner`` -1); drawn at random
SPW_KNOWN = 2      # in the known spells position of hero ``spell_owner`` (L203, L542)
SPW_ATTACHED = 3   # face down under Spell Book or Scroll card ``spell_owner`` (L1424)
SPW_DISCARD = 4    # the Spell deck's discard pile (a dead hero's learned spells, L805)

MAX_AIMS = max(D.REALM.spells[sid].targets for sid in SPELL_IDS)
"""Targets one spell may have (Fireball's 4, L1562)."""
MAX_EXTRA_TARGETS = max(side.targets for m in D.REALM.monsters.values() for side in (m.front, m.back)) - 1
"""Targets a Monster's multi-target attack adds to the one it challenged
(a dragon's fire strikes 4, L728, L1266)."""

CURSE_IDS = tuple(D.REALM.curses)
"""Curse index -> its id in ``data/curses.txt`` (the Curse Table, rolled on the d6)."""
NUM_CURSES = len(CURSE_IDS)

# ---------------------------------------------------------------- missions and titles (L322-L332, L564-L567, L1067-L1087)
MISSION_IDS = tuple(D.REALM.missions)
"""Mission Card index -> its id in ``data/missions.txt`` (one card each)."""
NUM_MISSIONS = len(MISSION_IDS)
# where a Mission Card is (``mission_where``)
MW_OUT = 0        # its Terrain Pack is not in play (L184)
MW_DECK = 1       # face down in the Mission Deck (``mission_order``: its place from the top)
MW_MERCHANT = 2   # listed with Merchant ``mission_owner`` (L564)
MW_HERO = 3       # face down in hero ``mission_owner``'s backpack (L564)
MW_DISCARD = 4    # face up in the discard pile beside the deck (L1071)
MW_DONE = 5       # completed: out of the game (L566, L1085)
MAX_HELD_MISSIONS = 2
"""Uncompleted Mission Cards a Hero may keep at the end of his turn (L564, L1071)."""
CIV_CARD_IDS = tuple(D.REALM.civ_cards)
"""Civilization Card index -> its Civilization Location id (civilization.txt)."""
TITLE_IDS = tuple(t.id for card in D.REALM.civ_cards.values() for side in card.sides for t in side.titles)
"""Title index -> its id: every title box of every Civilization Card, card by
card, side 1 then side 2, in card order."""
NUM_TITLES = len(TITLE_IDS)
NATIVE_GROUPS = tuple(dict.fromkeys(n.group for n in D.REALM.natives.values()))
"""Native Group index -> its id (natives.txt order): the Group a title's claim
needs present (L567) and a mission's Native kills count (missions.txt)."""
NUM_MONSTER_KINDS = len(MONSTER_IDS)

ACTIONS_PER_TURN = 4
"""Up to four actions a turn (L451)."""

# ---------------------------------------------------------------- the sequence of play (ST_*)
ST_DEAL = 0          # the set-up of the realm: cards' sides, tiles dealt or stacked (L178-L189)
ST_BUILD_REALM = 1   # Open Realm: seats place their dealt tiles one at a time (L109)
ST_HEROES = 2        # hero selection, in random order (L193-L205)
ST_TURN_START = 3    # a new turn begins (L443-L449)
ST_TURNS = 4         # the action phase: each hero's actions in the drawn order (L451-L612)
ST_BATTLE = 5        # the battle phase begins: the Summoning Dice are rolled (L615-L635)
ST_ACTIVATION = 6    # Make Noise rerolls and Hide reactions after the dice (L637-L641)
ST_COMBAT = 7        # combat in each clearing with a hero (L674-L800)
ST_OVER = 8
ST_FATE = 9          # the end of the battle phase: retirement, new heroes, the end of the game (L813-L838)
