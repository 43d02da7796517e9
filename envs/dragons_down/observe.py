"""Per-seat observation tensors for Dragons Down.

What a seat may know and nothing more. Public: the realm as built (tiles,
their side and turn, clearings, paths, tokens, Civilization Locations,
Natives, Merchants, Treasure Sites and piles by their size, monster chips and
which side is up), every hero's Hero Board as the table sees it (Lineage and
Class Cards, Hearts and Action Cubes healthy and wounded, Legend Points, Fame,
Gold, statuses, where it stands, its face-up cards, how many face-down ones
it has), combat as it is fought, the dice shown, the turn and the pending
decision.

Hidden (never written here; ``DragonsDown.hidden_variants`` and
``determinize`` resample exactly these):

* the order of the decks and of the tile stack (draws come from the game's
  stream, ``seed`` / ``rng_counter``, which no observation shows);
* the face-down cards of the other heroes: their backpacks and the cards they
  have just gained and not yet placed (L532, L958, L981) -- a Backpack
  Special card is always face up (L960), and the cards of a proposed swap are
  shown to both partners;
* the cards of a Treasure Pile (L520; the looter sees the top three it keeps
  one of, L526) and a Merchant's stock (L491) until the seat has looked at it
  (L558): their number is public, what they are is not (:func:`card_visible`
  decides it, in one place);
* the Hidden Paths the seat has not discovered, as usable paths: the
  ``paths`` block holds a Hidden Path only for a seat that found it (L515);
  the printed Hidden Paths of a tile are counted in ``realm``'s
  ``R_HIDDEN_UNKNOWN`` (they are printed on the tile, and the Search Action's
  legality shows them anyway);
* the Spell Cards the seat cannot see: which spells another hero knows
  (their number is shown, L205), the spells under Spell Books and Scrolls it
  neither holds nor read at a Merchant (L1424-L1426), the Spell deck and its
  discard pile, the set-aside Hero Starting Spell deck but while the seat
  chooses from it (``observe_magic``);
* the other heroes' Hero Tactics while they are placed in secret (L714-L724):
  rules/combat.py names the fields (``placed``, the CF_THROWS bit of
  ``hero_cflags`` and the spell cast, ``cast_card`` and ``cast_cubes``, while
  ``combat_step`` is CS_TACTICS; another seat covering a Spell Card's
  multi-colour box is shown as placing its tactics); they are shown for
  ``me`` always and for the others once revealed -- but the Speed Cubes a
  hero put in his maneuver boxes as he challenged a hero, placed in the open
  (L1182-L1184, ``challenge_cubes``), stay seen through Hero Tactics.

Seats are rotated so the observer is always seat 0 ("rel" = seats to the
observer's left, ``(seat - me) % n``). The vector is the blocks of
:data:`BLOCKS` in order; ``LAYOUT`` gives each block's offset and shape and the
``R_*``, ``H_*``, ``T_*``, ``F_*``, ``P_*``, ``V_*``, ``C_*`` constants the
feature columns of the row blocks. Every value lies in ``[-1, OBS_HIGH]``,
but the ``paths`` block, which holds clearing numbers.

Compile layout: the parts of :func:`observe_one` (``observe_map``,
``observe_heroes``, ...) are functions of their own, each typed once by numba
(LLVM inlines them into ``observe_one``, their one caller: envs/README.md).

Parts of the rules written after the observation (Loot and Trade, combat,
Explore, the end of the game) own some fields of the record; a feature that
reads such a field is written only where the record has it (``HAS_*``, all
true now: numba drops the code of a false constant branch before it types it).
"""
import numpy as np

from dragongym.envs.core.jit import local_array, local_zeros, rules_jit

from . import data as D
from . import rules as R
from .constants import (
    CARD_IDS, CLEARINGS_PER_TILE, CW_CLEARING, CW_DECK, CW_HERO, CW_MERCHANT, CW_SITE, HS_ACTIVE, MAP_RADIUS,
    MAX_HEROES, MERCHANT_IDS, MONSTER_CHIP_KINDS, MONSTER_IDS, NATIVE_CHIP_KINDS, NUM_CARDS,
    NUM_CIV_TOKENS, NUM_CLASSES, NUM_CLEARINGS, NUM_CUBE_KINDS, NUM_DIRECTIONS, NUM_LINEAGES,
    NUM_MERCHANTS, NUM_MONSTER_CHIPS, NUM_NATIVE_CHIPS, NUM_PACKS, NUM_PILES, NUM_SITES, NUM_TILES,
    NUM_WILD_TOKENS, OPTIONAL_RULES, SANDBOXES, SB_EXPLORE, SB_LEGENDARY, SITE_IDS, T_BACKPACK, T_PENDING,
    TILE_CIVILIZATION, TOK_PLACED, TOK_POOL, TW_PLACED, MON_TAKEN,
    NUM_COLOURS, NUM_CURSES, NUM_SPELL_KINDS, NUM_SPELLS, SPELL_DECK, SPELL_START, SPW_ATTACHED, SPW_DECK, SPW_DISCARD, SPW_KNOWN,
    MAX_HELD_MISSIONS, MW_DECK, MW_DISCARD, MW_DONE, MW_HERO, MW_MERCHANT, NUM_MISSIONS, NUM_TITLES,
)
from .state import STATE_DTYPE

OBS_HIGH = 8.0
"""Largest value of any observation float but the clearing numbers of
``paths`` (unbounded counts are clamped)."""

# ---- the parts of the record that are still being written
_FIELDS = set(STATE_DTYPE.names)
HAS_TRADE = {"merchant_looked", "merchant_closed", "card_mark", "trade_mode", "trade_pile", "trade_partner",
             "trade_merchant", "swap_gold", "trade_factor", "pile_deal", "door_open", "closed_turn"} <= _FIELDS
"""Loot and Trade (rules/trade.py): who looked at which Merchant, the
action under way, the cards of a proposed swap."""
HAS_COMBAT = {"combat_step", "combat_clearing", "combat_round", "hero_combat", "hero_cflags", "hero_target",
              "placed", "foe_wounds", "foe_target", "native_flipped", "card_damaged", "quiet_rounds",
              "natives_hostile"} <= _FIELDS
"""Combat (rules/combat.py)."""
HAS_EXPLORE = {"explore_tile", "explore_q", "explore_r", "explore_toward"} <= _FIELDS
"""The Explore Action (rules/actions.py)."""
HAS_FATE = {"best", "heroes_made", "legend", "epic_victory"} <= _FIELDS
"""The fate of heroes and the end (rules/fate.py)."""
HAS_MAGIC = {"spell_where", "spell_owner", "curses", "tile_enchant", "learn_spell", "enchant_done"} <= _FIELDS
"""Magic outside combat (rules/magic.py)."""
PH_LOOT_KEEP = getattr(R, "PH_LOOT_KEEP", -1)
MARK_DEAL = getattr(R, "MARK_DEAL", 1)
MARK_RECEIVED = getattr(R, "MARK_RECEIVED", 2)
TM_SWAP = getattr(R, "TM_SWAP", 2)
TM_COMMERCE = getattr(R, "TM_COMMERCE", 3)
NUM_TRADE_MODES = 4
CS_TACTICS = getattr(R, "CS_TACTICS", 4)
NUM_COMBAT_STEPS = 8
CF_THROWS = getattr(R, "CF_THROWS", 4)
NUM_HERO_COMBAT = 5
NUM_BOXES = 3

NUM_MONSTER_KINDS = len(MONSTER_IDS)
NATIVE_IDS = tuple(D.REALM.natives)
NUM_NATIVE_KINDS = len(NATIVE_IDS)
NUM_FOES = NUM_MONSTER_CHIPS + NUM_NATIVE_CHIPS
"""Foe f: Monster chip f, then Native chip f - NUM_MONSTER_CHIPS (combat's numbering)."""
NUM_CARD_KINDS = len(CARD_IDS)
NUM_CLEARING_TYPES = len(D.CLEARING_TYPES)
NUM_POSITION_BANNERS = len(D.POSITIONS)
MONSTER_GROUPS = ("wandering", "local", "leader", "guardian", "elemental")
NUM_ATTACKS = 4                          # melee, ranged, fire, spell
ATTACKS = ("melee", "ranged", "fire", "spell")
NUM_HERO_STATES = 5                      # HS_NONE .. HS_RETIRED
NUM_STATUS_BITS = 7                      # the HST_* bits
NUM_STAGES = 1 + max(v for k, v in vars(R).items() if k.startswith("ST_") and isinstance(v, int))
NUM_PHASES = 1 + max(v for k, v in vars(R).items() if k.startswith("PH_") and isinstance(v, int))
"""One-hot widths, read from the rules' own codes (they grow as parts land)."""
NUM_DIE_FACES = 6
NUM_DECKS = 3
NUM_SLOT_CODES = T_PENDING + 1           # equip targets T_*, the backpack, and "just gained"


def _max_degree():
    """Most neighbours a clearing can have: its printed paths, the paths
    crossing its edges and its Hidden Paths, on any tile and side."""
    most = 0
    for t in range(NUM_TILES):
        for s in range(2):
            for k in range(CLEARINGS_PER_TILE):
                if R.CLEARING_TYPE[t, s, k] < 0:
                    continue
                n = int(((R.PATHS[t, s, :, 0] == k) | (R.PATHS[t, s, :, 1] == k)).sum())
                n += int((R.EDGE_CLEARING[t, s] == k).sum())
                n += int(((R.HIDDEN[t, s, :, 0] == k) | (R.HIDDEN[t, s, :, 1] == k)).sum())
                most = max(most, n)
    return most


MAX_DEGREE = _max_degree()


def _columns(*names_and_widths):
    """``{name: first column}`` and the row width of features laid out in order."""
    out, col = {}, 0
    for name, width in names_and_widths:
        out[name] = col
        col += width
    return out, col


# ---- realm: one row per clearing (graph block; node c = tile * 6 + k)
_R, NUM_REALM_FEATURES = _columns(
    ("placed", 1),               # the clearing exists on a tile on the map
    ("type", NUM_CLEARING_TYPES),  # plains, cave, mountains, woods, swamp
    ("civ_tile", 1),             # its tile is a civilization tile
    ("pack", NUM_PACKS),         # pack of its tile
    ("revealed", 1),             # its tile has had its tokens (L485)
    ("civ_location", 1),         # a Civilization Location (L189)
    ("natives", 1),              # Native chips here / 4
    ("merchants", 1),            # Merchants' Civilization Tokens here / 4 (the ``merchants`` rows say which)
    ("civ_empty", 1),            # empty Civilization Tokens here / 2
    ("gate", 1),                 # a Gate token
    ("ruins", 1),                # the Forgotten City / Dwarven Ruins token
    ("sites", 1),                # Treasure Sites here (the ``piles`` rows say which)
    ("bodies", 1),               # dead heroes' bodies here (L805)
    ("pile_cards", 1),           # face-down cards in the piles here / 10
    ("pile_gold", 1),            # Gold lying in the piles here / 20
    ("pile_opened", 1),          # a pile here has been discovered by someone (L517)
    ("pile_found", 1),           # the observer has discovered a pile here (it may loot it, L524)
    ("monsters", 1),             # Monster chips here / 4
    ("groups", len(MONSTER_GROUPS)),  # of them: wandering, local, leader, guardian, elemental / 4
    ("health", 1),               # their health, summed / 10
    ("fame", 1),                 # their Fame, summed / 20
    ("flipped", 1),              # chips here back side up / 4 (L635)
    ("heroes", MAX_HEROES),      # + rel seat: that hero stands here
    ("hidden_known", 1),         # Hidden Paths from here the observer discovered / 2
    ("hidden_unknown", 1),       # printed Hidden Paths from here it has not / 2
    ("exits", 1),                # paths leading off the map from here / 3 (L113, L583)
    ("tile_q", 1),               # axial position of its tile / MAP_RADIUS
    ("tile_r", 1),
    ("combat", 1),               # a combat is being fought here
)
(R_PLACED, R_TYPE, R_CIV_TILE, R_PACK, R_REVEALED, R_CIV_LOCATION, R_NATIVES, R_MERCHANTS, R_CIV_EMPTY, R_GATE,
 R_RUINS, R_SITES, R_BODIES, R_PILE_CARDS, R_PILE_GOLD, R_PILE_OPENED, R_PILE_FOUND, R_MONSTERS, R_GROUPS,
 R_HEALTH, R_FAME, R_FLIPPED, R_HEROES, R_HIDDEN_KNOWN, R_HIDDEN_UNKNOWN, R_EXITS, R_TILE_Q, R_TILE_R,
 R_COMBAT) = _R.values()

# ---- heroes: one row per rel seat
_H, NUM_HERO_FEATURES = _columns(
    ("valid", 1),                # a seat in play
    ("state", NUM_HERO_STATES),  # HS_*: no hero yet, waiting to enter, on the map, dead, retired
    ("lineage", NUM_LINEAGES),   # its Lineage Card (constants.LINEAGE_IDS)
    ("lineage_side", 1),         # 1 if side 2 is up
    ("class", NUM_CLASSES),      # its Class Card (constants.CLASS_IDS)
    ("class_side", 1),
    ("hearts", 2),               # Hearts healthy / 8, wounded / 8
    ("cubes", NUM_CUBE_KINDS),   # healthy Action Cubes of each CUBE_* kind / 4
    ("wounded", NUM_CUBE_KINDS),  # wounded ones / 4
    ("lp", 1),                   # Legend Points / 20
    ("fame", 1),                 # Fame / 50
    ("gold", 1),                 # Gold / 50
    ("status", NUM_STATUS_BITS),  # bit i: status HST_* (1 << i) this turn
    ("actions_left", 1),         # actions left this turn / 4
    ("on_map", 1),
    ("to_play", 1),              # it decides now
    ("turn_order", 1),           # its place in this turn's order / 5; -1 not drawn
    ("selection_order", 1),      # its place in the hero selection order / 5; -1
    ("face_down", 1),            # its face-down cards / 10
    ("equipped", 1),             # its face-up cards / 10
    ("paths_found", 1),          # Hidden Paths it discovered / 10
    ("piles_found", 1),          # piles it discovered / NUM_PILES
    ("search_dice", 2),          # its last search showed a spyglass on die 1, die 2
    ("searching", 1),            # a search under way (a consecutive one rerolls blanks, L513)
    ("combat", NUM_HERO_COMBAT),  # HC_*: not fought yet, fighting, evaded, killed, done (this battle phase)
    ("placed", NUM_BOXES),       # cubes placed in its might, attack, maneuver boxes / 5 (secret in Tactics, L714, but the challenge cubes, L1182)
    ("crossed", NUM_BOXES),      # of them, cubes of the other kind: Speed Cubes in might boxes, Might Cubes in speed boxes / 5 (secret in Tactics; L1308-L1314, L1482, L1504)
    ("throws", 1),               # its attack throws its weapon (secret in Tactics, L928)
    ("best_lp", 1),              # LP of the seat's best hero set aside / 20 (it may win, L121)
    ("heroes_made", 1),          # heroes the seat has had / 5 (a new one after death or retirement, L829)
    ("outlaw", 1),               # its Outlaw Tokens / 5 (public, L1111)
    ("spells", 1),               # spells it knows / 5 (which ones are its secret, L205)
    ("curses", NUM_CURSES),      # bit k: it holds lasting curse k (CURSE_IDS; public, L422)
    ("casting", NUM_SPELL_KINDS),  # the spell kind it casts this round (secret in Tactics, L714, L723)
    ("cast_cubes", NUM_COLOURS),  # Magic Cubes on that Spell Card by colour / 5 (secret in Tactics)
    ("spells_on", NUM_SPELL_KINDS),  # spells of each kind in play on it (L1040-L1048)
    ("shape", NUM_MONSTER_KINDS),  # the Monster kind of its Shape Shift in play, active or not (public, L1564-L1568)
    ("shape_active", 1),         # its Shape Shift is active: it is that Monster (L1564-L1566)
    ("aimed_by", MAX_HEROES),    # + rel seat: that hero's spell -- or weapon, Player vs. Player -- targets it this round, a Fireball's further targets included (L712, L1174, L1562)
    ("challenged_by", MAX_HEROES),  # + rel seat: that hero challenges it this round (Player vs. Player, L1182; public)
    ("aim_box", 2),              # its Speed Cube in the head / torso aim box (Player vs. Player, L1186; secret in Tactics)
    ("missions_held", 1),        # Mission Cards in its backpack / 2 (which ones are its secret, L564)
    ("missions_done", 1),        # missions it completed / 5 (L1079)
    ("kills", 1),                # Monsters it killed / 10 (a title's kills>=N)
    ("titles", 1),               # titles it claimed / 5 (L567)
)
(H_VALID, H_STATE, H_LINEAGE, H_LINEAGE_SIDE, H_CLASS, H_CLASS_SIDE, H_HEARTS, H_CUBES, H_WOUNDED, H_LP, H_FAME,
 H_GOLD, H_STATUS, H_ACTIONS_LEFT, H_ON_MAP, H_TO_PLAY, H_TURN_ORDER, H_SELECTION_ORDER, H_FACE_DOWN,
 H_EQUIPPED, H_PATHS_FOUND, H_PILES_FOUND, H_SEARCH_DICE, H_SEARCHING, H_COMBAT, H_PLACED, H_CROSSED, H_THROWS,
 H_BEST_LP, H_HEROES_MADE, H_OUTLAW, H_SPELLS, H_CURSES, H_CASTING, H_CAST_CUBES, H_SPELLS_ON,
 H_SHAPE, H_SHAPE_ACTIVE, H_AIMED_BY, H_CHALLENGED_BY, H_AIM_BOX, H_MISSIONS_HELD, H_MISSIONS_DONE, H_KILLS, H_TITLES) = _H.values()

# ---- tiles: one row per Map Tile (constants.TILE_IDS)
_T, NUM_TILE_FEATURES = _columns(
    ("valid", 1),                # its Terrain Pack is in play
    ("where", 4),                # TW_*: out of play, in the stack, dealt to a seat, on the map
    ("holder", MAX_HEROES),      # rel seat it was dealt to (Open Realm)
    ("q", 1), ("r", 1),          # axial position / MAP_RADIUS (placed tiles)
    ("rot", NUM_DIRECTIONS),     # its turn 0..5
    ("side", 1),                 # 1 if side 2 is up
    ("civ", 1),                  # a civilization tile
    ("pack", NUM_PACKS),
    ("revealed", 1),             # it has had its tokens
    ("selected", 1),             # the tile being placed or explored (pending context)
    ("enchant", NUM_COLOURS),    # the colour of the Magic Cube enchanting it (L575)
)
T_VALID, T_WHERE, T_HOLDER, T_Q, T_R, T_ROT, T_SIDE, T_CIV, T_PACK, T_REVEALED, T_SELECTED, T_ENCHANT = _T.values()

# ---- foes in the observer's clearing
MAX_FOE_ROWS = 12
"""Rows of the ``foes`` block: the Monster chips (by chip index), then the
Native chips, in the observer's hero's clearing; the realm block counts the
monsters of every clearing."""
_F, NUM_FOE_FEATURES = _columns(
    ("valid", 1),
    ("native", 1),               # a Native chip (a foe once targeted, L1005)
    ("kind", NUM_MONSTER_KINDS),  # a Monster chip's kind (constants.MONSTER_IDS)
    ("native_kind", NUM_NATIVE_KINDS),  # a Native chip's kind (natives.txt order)
    ("group", len(MONSTER_GROUPS)),     # wandering, local, leader, guardian, elemental
    ("flipped", 1),              # back side up
    ("wounds", 1),               # wounds on it / its health (combat, L785)
    ("health", 1),               # health / 5
    ("fame", 1),                 # Fame for killing it / 10
    ("armored", 1), ("undead", 1), ("flying", 1),
    ("attack", NUM_ATTACKS),     # its side up's attack: melee, ranged, fire, spell
    ("length", 1),               # attack length / 16
    ("speed", 1),                # attack speed / 5
    ("damage", 1),               # damage / 6
    ("swords", 1),               # sword icons / 2
    ("maneuver", 1),             # maneuver speed / 5
    ("targets", 1),              # heroes its attack strikes / 4
    ("targets_me", 1),           # it challenges (targets) the observer's hero this round
    ("targeted", MAX_HEROES),    # + rel seat: that hero targets it this round
    ("lured", 1),                # a hero lured it this round (optional Luring, L1130)
    ("wounded_by", MAX_HEROES),  # + rel seat: wound cubes that hero put on it / its health (optional Shared Fame, L1152)
    ("spells_on", NUM_SPELL_KINDS),  # spells of each kind in play on it (L1040-L1048)
    ("curses", NUM_CURSES),      # bit k: it holds lasting curse k (the Curse spell, L1500)
    ("controlled_by", MAX_HEROES),  # + rel seat: that hero controls it (Rule Undead, Elemental): it counts as a hero (L692)
    ("ctrl_new", 1),             # an Elemental just arrived: it fights from the next round (L1550)
    ("vs_chip", 1),              # this round it fights a chip: a controlled Monster it challenged or added to its multi-target attack, or a controlled Monster's target (L688, L710, L728)
    ("vs_it", 1),                # this round a chip fights it: a Monster challenging it (controlled) or adding it to its multi-target attack, or a controlled Monster targeting it
    ("deciding", 1),             # the controlled Monster whose target, side or kept attack is being decided (PH_CTRL_*)
)
(F_VALID, F_NATIVE, F_KIND, F_NATIVE_KIND, F_GROUP, F_FLIPPED, F_WOUNDS, F_HEALTH, F_FAME, F_ARMORED, F_UNDEAD,
 F_FLYING, F_ATTACK, F_LENGTH, F_SPEED, F_DAMAGE, F_SWORDS, F_MANEUVER, F_TARGETS, F_TARGETS_ME,
 F_TARGETED, F_LURED, F_WOUNDED_BY, F_SPELLS_ON, F_FOE_CURSES, F_CONTROLLED_BY, F_CTRL_NEW, F_VS_CHIP, F_VS_IT,
 F_DECIDING) = _F.values()

# ---- piles: one row per Treasure Site (constants.SITE_IDS), then per seat's body
_P, NUM_PILE_FEATURES = _columns(
    ("valid", 1),                # on the map
    ("body", 1),                 # a dead hero's body (pile NUM_SITES + seat)
    ("here", 1),                 # in the observer's clearing
    ("opened", 1),               # discovered by someone (L517)
    ("found", 1),                # the observer discovered it (may loot it, L524)
    ("found_by", 1),             # other seats that discovered it / 5
    ("cards", 1),                # face-down cards in it / 10
    ("gold", 1),                 # Gold in it / 20
    ("loot", 3),                 # a site's printed Treasure Pile on its setup card's side up: treasures / 5, deep / 5, Gold / 20
    ("features", 4),             # labyrinth, massive door, hidden trap, active wraith on that side (L1232-L1252)
    ("door_open", 1),            # its Massive Door is opened (L1240)
    ("shared", 1),               # offered in the proposed swap (L556)
    ("door_targeted", MAX_HEROES),  # + rel seat: that hero's attack targets its Massive Door this round (L1240)
)
(P_VALID, P_BODY, P_HERE, P_OPENED, P_FOUND, P_FOUND_BY, P_CARDS, P_GOLD, P_LOOT, P_FEATURES, P_DOOR_OPEN,
 P_SHARED, P_DOOR_TARGETED) = _P.values()

# ---- merchants: one row per Merchant (constants.MERCHANT_IDS)
_V, NUM_MERCHANT_FEATURES = _columns(
    ("valid", 1),                # its Civilization Token is on the map
    ("at", NUM_PACKS),           # the pack of the Civilization Location it is at
    ("here", 1),                 # in the observer's clearing
    ("stock", 1),                # cards in its stock / 8
    ("looked", 1),               # the observer knows its stock (L558)
    ("closed", 1),               # it closed its doors to the observer this turn (L995)
    ("respect", 3),              # the attributes it respects: cunning, wisdom, charisma (L987)
    ("trading", 1),              # the commerce under way is with it
)
V_VALID, V_AT, V_HERE, V_STOCK, V_LOOKED, V_CLOSED, V_RESPECT, V_TRADING = _V.values()

# ---- spells: one row per spell kind (constants.SPELL_IDS), the observer's own
_S, NUM_SPELL_FEATURES = _columns(
    ("known_start", 1),          # it knows this spell from the Hero Starting Spell deck (L203)
    ("known_deck", 1),           # it knows it from the Spell deck (learned, L542)
    ("attached", 1),             # copies under its Spell Books and Scrolls / 2 (L1426: their holder sees them)
    ("read", 1),                 # copies under a Merchant's Spell Book it revealed and read / 2 (L1424)
    ("learning", 1),             # the Learn run under way is on this spell (L546)
    ("offered", 1),              # it may take this one as a starting spell now (PH_START_SPELL, L203)
    ("in_play", 1),              # its own card of this spell is in play: not cast again until it ends (L1026)
    ("dispel", 1),               # the spell of this kind the active hero offers to remove from a hero (public, PH_DISPEL_ASK, L568)
)
S_KNOWN_START, S_KNOWN_DECK, S_ATTACHED, S_READ, S_LEARNING, S_OFFERED, S_IN_PLAY, S_DISPEL = _S.values()

# ---- cards the observer can see
MAX_CARD_ROWS = 32
"""Rows of the ``cards`` block: the observer's own cards first (every one:
equipped, just gained, in the backpack), then the other heroes' face-up
cards by rel seat, then the other cards it may see (a Merchant's stock it
looked at, the top of a pile it loots); by card index within each. Cards
past the last row are not shown."""
_C, NUM_CARD_FEATURES = _columns(
    ("valid", 1),
    ("holder", MAX_HEROES),      # rel seat holding it (0 = the observer)
    ("slot", NUM_SLOT_CODES),    # T_*: where on the board (an equip target, T_BACKPACK, T_PENDING)
    ("merchant", NUM_MERCHANTS),  # it is in that Merchant's stock
    ("pile", 1),                 # it is in a pile (the top three a looter keeps one of, L526)
    ("deck", NUM_DECKS),         # the deck it came from (DECK_*)
    ("banner", NUM_POSITION_BANNERS),  # its Position banner (data.POSITIONS)
    ("weapon", 1), ("shield", 1),
    ("armor", 1),                # armour / 4
    ("weight", 1),               # weight / 3
    ("price", 1),                # base price / 25
    ("swords", 1),               # swords / 2
    ("epic", 1),                 # an Epic Treasure
    ("kind", 1),                 # kind index / NUM_CARD_KINDS (constants.CARD_IDS)
    ("selected", 1),             # the card being equipped (pending context)
    ("damaged", 1),              # damaged armour (L762)
    ("deal", 1),                 # in the proposed swap (L556)
    ("received", 1),             # just received: its owner places it now (L972)
)
(C_VALID, C_HOLDER, C_SLOT, C_MERCHANT, C_PILE, C_DECK, C_BANNER, C_WEAPON, C_SHIELD, C_ARMOR, C_WEIGHT, C_PRICE,
 C_SWORDS, C_EPIC, C_KIND, C_SELECTED, C_DAMAGED, C_DEAL, C_RECEIVED) = _C.values()

# ---- missions: one row per Mission Card (constants.MISSION_IDS)
_M, NUM_MISSION_FEATURES = _columns(
    ("mine", 1),                 # in the observer's backpack (L564)
    ("listed", NUM_MERCHANTS),   # listed with that Merchant, the observer knowing its cards (L558)
    ("discarded", 1),            # face up on the discard pile (L1071)
    ("done", 1),                 # completed by someone: out of the game (L566)
    ("kind", 3),                 # atrocity, quest, expedition (printed: every card's row shows it)
    ("reward", 3),               # printed Gold / 20, LP / 3, Fame / 20 (L1079)
    ("bonus", 3),                # bonus attribute: cunning, wisdom, charisma (L1081)
    ("on_discard", 3),           # mandatory Gold / 5, LP / 3, Fame / 10 of a discard (L1071), signed
    ("progress", 1),             # the observer's share of its tasks done (1 = all met, L1079)
    ("place_here", 1),           # the observer stands where it is completed (L566)
    ("completable", 1),          # the observer may complete it now (a Trade Action)
)
(M_MINE, M_LISTED, M_DISCARDED, M_DONE, M_KIND, M_REWARD, M_BONUS, M_ON_DISCARD, M_PROGRESS,
 M_PLACE_HERE, M_COMPLETABLE) = _M.values()

# ---- titles: one row per title box (constants.TITLE_IDS)
_T, NUM_TITLE_FEATURES = _columns(
    ("up", 1),                   # its side of the Civilization Card is up (L180)
    ("pack", NUM_PACKS),         # the card's Terrain Pack (its Civilization Location)
    ("small", 1),                # a small box: claimed once (L567)
    ("taken", 1),                # its small box holds a pink cube
    ("mine", 1),                 # times the observer claimed it / 3
    ("others", 1),               # times the other heroes claimed it / 3
    ("price", 1),                # Gold / 20
    ("reward", 2),               # LP / 3, Fame / 10
    ("need", 4),                 # Fame / 50, LP / 10, kills / 10, missions / 3 required
    ("outlaw", 2),               # requires an Outlaw; requires no Outlaw Token
    ("met", 1),                  # the observer meets its requirements and can pay
    ("claimable", 1),            # the observer may claim it now (a Trade Action)
)
(T_UP, T_PACK, T_SMALL, T_TAKEN, T_MINE, T_OTHERS, T_PRICE, T_REWARD, T_NEED, T_OUTLAW, T_MET,
 T_CLAIMABLE) = _T.values()

OBSERVED_ROLL_KINDS = R.ROLL_STRUCK
"""The roll kinds with a column of the ``reroll`` block's one-hot (ROLL_LOOT
.. ROLL_STRUCK). The later kinds (a hero's Hit Dice, Ranged Attack Dice, a
hide's Monster Dice, a Make Noise roll, a trap's cube, the Curse Table, a
random clearing) show their dice but no kind column, so the shipped policy
keeps its input size; their columns come with the next change of the
observation."""
REROLL_COLUMNS = (
    ("kind", OBSERVED_ROLL_KINDS),       # the roll waiting on rerolls, one-hot: Loot Dice, Open Gate's, Teleport's clearing, Search, Learn, Haggle, a hit's Hit Dice
    ("die", R.MAX_ROLL_DICE),            # each die: a Loot Die's face / 5; a Search Die 1 for a spyglass; a Learn Die LEARN_* / 2; a Hit Die HIT_* / 2;
                                         # a Haggle Die's number / 5, the closed door 1; a clearing drawn / NUM_CLEARINGS; a Ranged Attack
                                         # Die from its worst face (0) to its best (1); a Monster Die 1 for a symbol; a Summoning symbol die's
                                         # face / 5; a trap's cube kind / HEAL_HEART; the Curse Table's curse / the last curse;
                                         # the Summon curse's number / 3; the Wraith's Local Monster Die 1 for the Site Symbol
    ("shown", R.MAX_ROLL_DICE),          # 1 for each die the roll has
    ("mine", R.NUM_RR_SOURCES),          # the observer, a party to it, may still reroll with source RR_* (Gage, Divination, Dust, Mastery)
    ("used", R.NUM_RR_SOURCES),          # that source already rerolled this roll (for either party)
    ("held", 3),                         # the observer's own: Divination on him unspent, a Dust of Destiny held, the Gage of the Thief equipped
)
NUM_REROLL_FEATURES = sum(w for _, w in REROLL_COLUMNS)
(RR_KIND, RR_DIE, RR_SHOWN, RR_MINE, RR_USED, RR_HELD) = np.cumsum([0] + [w for _, w in REROLL_COLUMNS])[:-1].tolist()

BLOCKS = [
    ("realm", (NUM_CLEARINGS, NUM_REALM_FEATURES)),
    ("paths", (NUM_CLEARINGS, MAX_DEGREE)),     # neighbour clearings as floats, -1 padding
    ("heroes", (MAX_HEROES, NUM_HERO_FEATURES)),
    ("tiles", (NUM_TILES, NUM_TILE_FEATURES)),
    ("foes", (MAX_FOE_ROWS, NUM_FOE_FEATURES)),
    ("piles", (NUM_PILES, NUM_PILE_FEATURES)),
    ("merchants", (NUM_MERCHANTS, NUM_MERCHANT_FEATURES)),
    ("cards", (MAX_CARD_ROWS, NUM_CARD_FEATURES)),
    ("phase", (NUM_PHASES,)),                  # the pending decision, one-hot
    ("stage", (NUM_STAGES,)),                  # the position in the sequence of play, one-hot
    ("to_play", (MAX_HEROES,)),                # rel seat deciding now
    ("num_players", (MAX_HEROES,)),            # one-hot, index n - 1
    ("progress", (3,)),                        # turn / max_turns, turn / 30, max_turns / 100
    ("sandbox", (len(SANDBOXES) + 2,)),        # sandbox one-hot, then the map rules: open realm, explore
    ("packs", (NUM_PACKS, 3)),                 # per pack: in play, setup card side 1 up, side 2 up
    ("context", (8,)),                         # actions left of the hero to play / 4, order_pos / 5, heal_left / 4,
                                               # block_due, spot chosen, its q, r / MAP_RADIUS, tile stack / NUM_TILES
    ("summon_dice", (4, NUM_DIE_FACES)),       # the four Summoning Dice's faces (gray symbol, gray number, black symbol, black number)
    ("decks", (NUM_DECKS,)),                   # cards left in the item, treasure, deep treasure decks / their size
    ("tray", (NUM_MONSTER_KINDS,)),            # chips of each kind in the monster tray / 4
    ("taken", (NUM_MONSTER_KINDS,)),           # chips of each kind heroes have killed / 4
    ("token_pools", (NUM_PACKS + 2,)),         # Wilderness Tokens left per pack / 8, Civilization / 12, Site Tokens / 5
    ("combat", (NUM_COMBAT_STEPS + 3,)),       # combat_step one-hot (CS_*), round / 10, quiet rounds / 3, the Natives are hostile
    ("trade", (NUM_TRADE_MODES + MAX_HEROES + 2,)),  # trade_mode one-hot (TM_*), the swap partner's rel seat,
                                               # the swap's Gold / 20 (> 0 the active hero gives), the price factor / 3
    ("explore", (NUM_DIRECTIONS + 3,)),        # an Explore under way: toward direction d one-hot, by Mountain Exploration, q, r / MAP_RADIUS
    ("legend", (MAX_HEROES + 1,)),             # rel seat that retired with 20 LP (Legendary, L166), an Epic victory (L168)
    ("options", (len(OPTIONAL_RULES) + 1,)),   # each optional rule played (constants.OPTIONAL_RULES), the Legendary target / 40
    ("spells", (NUM_SPELL_KINDS, NUM_SPELL_FEATURES)),  # per spell kind (constants.SPELL_IDS): what the observer holds
    ("magic", (6,)),                           # the learn run under way: a book on Learn Die 1, on die 2, a curse shown;
                                               # Enchant Actions taken / 3; Spell deck left / its size; discarded / its size
    ("missions", (NUM_MISSIONS, NUM_MISSION_FEATURES)),  # per Mission Card (constants.MISSION_IDS)
    ("titles", (NUM_TITLES, NUM_TITLE_FEATURES)),        # per title (constants.TITLE_IDS)
    ("mission_deck", (3,)),                    # Mission Deck left, discarded / the cards in play; missions taken this Trade Action / 2
    ("reroll", (NUM_REROLL_FEATURES,)),        # the roll waiting on PH_REROLL and the observer's rerolls (REROLL_COLUMNS)
]
LAYOUT = {}
_off = 0
for _name, _shape in BLOCKS:
    LAYOUT[_name] = (_off, _shape)
    _off += int(np.prod(_shape))
OBS_SIZE = _off

O_REALM, O_PATHS, O_HEROES, O_TILES, O_FOES, O_PILES, O_MERCHANTS, O_CARDS, O_PHASE, O_STAGE, O_TO_PLAY, O_NPLAY, \
    O_PROGRESS, O_SANDBOX, O_PACKS, O_CONTEXT, O_DICE, O_DECKS, O_TRAY, O_TAKEN, O_POOLS, O_COMBAT, O_TRADE, \
    O_EXPLORE, O_LEGEND, O_OPTIONS, O_SPELLS, O_MAGIC, O_MISSIONS, O_TITLES, O_MISSION_DECK, O_REROLL = \
    (LAYOUT[name][0] for name, _ in BLOCKS)


# ---- tables the observation reads (small; frozen into the compiled code)
def _foe_tables():
    chips = [D.REALM.monsters[MONSTER_IDS[k]] for k in MONSTER_CHIP_KINDS] + \
        [D.REALM.natives[n] for n in NATIVE_CHIP_KINDS]
    kind = np.array(list(MONSTER_CHIP_KINDS) + [NATIVE_IDS.index(n) for n in NATIVE_CHIP_KINDS], dtype=np.int8)
    group = np.array([MONSTER_GROUPS.index(c.kind) if f < NUM_MONSTER_CHIPS else -1 for f, c in enumerate(chips)],
                     dtype=np.int8)
    stats = np.array([(c.health, c.fame, c.armored, getattr(c, "undead", False), getattr(c, "flying", False))
                      for c in chips], dtype=np.int16)
    side = np.array([[(ATTACKS.index(cs.attack), cs.length, cs.speed, cs.damage or 0, cs.swords or 0, cs.maneuver,
                       cs.targets) for cs in (c.front, c.back)] for c in chips], dtype=np.int16)
    return kind, group, stats, side


FOE_KIND, FOE_GROUP, FOE_STATS, FOE_SIDE = _foe_tables()
"""Foe f (a Monster chip, then a Native chip): FOE_KIND[f] its monster kind
(or Native kind); FOE_GROUP[f] its MONSTER_GROUPS index (-1 a Native);
FOE_STATS[f] = (health, Fame, armoured, undead, flying); FOE_SIDE[f, side] =
(attack ATTACKS index, length, speed, damage, swords, maneuver, targets) of
its name side (0) and back (1)."""
_CARDS = [D.REALM.card(c) for c in CARD_IDS]
KIND_ARMOR = np.array([c.armor for c in _CARDS], dtype=np.int16)
KIND_SWORDS = np.array([c.swords for c in _CARDS], dtype=np.int16)
KIND_EPIC = np.array([c.epic for c in _CARDS], dtype=np.int8)
KIND_FACE_UP = np.array([c.position == "backpack_special" for c in _CARDS], dtype=np.int8)
"""Backpack Special cards are always face up, even in the backpack (L960)."""
WILD_GATE = np.array([R.WILD_KIND[w] == R.WK_NUMBERED and R.WILD_SITE[w] < 0
                      for w in range(NUM_WILD_TOKENS)], dtype=np.int8)
WILD_RUINS = np.array([R.WILD_KIND[w] == R.WK_SPECIAL for w in range(NUM_WILD_TOKENS)], dtype=np.int8)
DECK_SIZE = np.array([max(1, int((R.CARD_DECK == d).sum())) for d in range(NUM_DECKS)], dtype=np.int64)
SPELL_DECK_SIZE = float(max(1, int((R.SPELL_FROM == SPELL_DECK).sum())))
"""Spell Cards of the Spell deck (its share left and discarded is observed)."""
_SETUP = list(D.REALM.setup_cards.values())
_SITE_CARD = [next(card for card in _SETUP if site in card.sites) for site in SITE_IDS]
PILE_LOOT = np.array([[(side.loot[site].treasures, side.loot[site].deep, side.loot[site].gold)
                       for side in card.sides] for site, card in zip(SITE_IDS, _SITE_CARD)], dtype=np.int16)
PILE_FEATURES = np.array([[[f in side.loot[site].features for f in ("labyrinth", "massive_door", "hidden_trap",
                                                                    "active_wraith")]
                           for side in card.sides] for site, card in zip(SITE_IDS, _SITE_CARD)], dtype=np.int8)
"""A Treasure Site's Treasure Pile and features printed on each side of its
Terrain Setup Card: PILE_LOOT[site, side] = (treasures, deep, Gold),
PILE_FEATURES[site, side, i] (the ``features`` columns of ``piles``)."""
SITE_PACK = np.array([D.PACKS.index(card.pack) for card in _SITE_CARD], dtype=np.int8)
MERCHANT_RESPECTS = np.array([[a in next(card.merchants[m] for card in _SETUP if m in card.merchants).respect
                               for a in ("cunning", "wisdom", "charisma")] for m in MERCHANT_IDS], dtype=np.int8)


GRID_CELLS = R.GRID_CELLS
"""A ``realm_grid``'s size (a module constant: a scratch array's size must be one)."""
NUM_POOLS = NUM_PACKS + 2
"""The token pools counted: one per Terrain Pack's Wilderness Tokens, the
Civilization Tokens' and one more."""

@rules_jit
def lim(x):
    """``x`` clamped to the observation's bounds."""
    if x > OBS_HIGH:
        return OBS_HIGH
    if x < -1.0:
        return -1.0
    return x


@rules_jit
def actions_left(S, b, p):
    """Actions hero p may still take this turn: the rules' count (L451, the
    Human's extra one L1204, the Sloth curse)."""
    return R.actions_left(S, b, p)


@rules_jit
def face_up(S, b, c):
    """Card c, held by a hero, lies face up for everyone: equipped, or a
    Backpack Special card (L960, L981)."""
    s = S[b]
    slot = int(s['card_slot'][c])
    return (slot >= 0 and slot < T_BACKPACK) or KIND_FACE_UP[R.CARD_KIND[c]] != 0


@rules_jit
def card_visible(S, b, me, c):
    """Seat ``me`` may know which card c is where it lies now: its own; one
    face up on a hero's board; a card of the swap it proposes or is offered
    (L556); a Merchant's stock it has looked at (L558); the top three cards
    of the pile it is looting with two grabby hands (L526). Every other card
    is face down for it (decks, piles, the others' backpacks)."""
    s = S[b]
    w = int(s['card_where'][c])
    if w == CW_HERO:
        if int(s['card_owner'][c]) == me or face_up(S, b, c):
            return True
        if HAS_TRADE:
            if s['card_mark'][c] == MARK_DEAL and s['trade_mode'] == TM_SWAP and s['order_pos'] < s['num_players']:
                active = int(s['turn_order'][s['order_pos']])
                if me == active or me == int(s['trade_partner']):
                    return True
        return False
    if w == CW_MERCHANT:
        if HAS_TRADE:
            return (int(s['merchant_looked'][me]) >> int(s['card_owner'][c])) & 1 != 0
        return False
    if w == CW_SITE:
        if HAS_TRADE:
            return s['phase'] == PH_LOOT_KEEP and s['to_play'] == me and s['card_owner'][c] == s['trade_pile'] \
                and s['card_slot'][c] < 3
        return False
    if w == CW_CLEARING:                                          # L960: face up on the map
        return True
    return False


@rules_jit
def realm_at(c, f):
    """Index of feature f of clearing c inside the observation.

    Every value is written once from integer counts (``count * scale``), never
    accumulated in float32 beyond exact steps, so compiled code and plain
    Python round alike."""
    return O_REALM + c * NUM_REALM_FEATURES + f


@rules_jit
def add_neighbour(obs, deg, c, d):
    """Append clearing d to c's row of the ``paths`` block (once)."""
    n = int(deg[c])
    base = O_PATHS + c * MAX_DEGREE
    for i in range(n):
        if obs[base + i] == d:
            return
    if n < MAX_DEGREE:
        obs[base + n] = d
        deg[c] = n + 1


@rules_jit
def observe_map(S, b, me, obs):
    """The ``realm`` graph's tiles and clearings and its ``paths``: the paths
    the observer may use (printed, across edges, its Hidden Paths)."""
    s = S[b]
    for i in range(NUM_CLEARINGS * MAX_DEGREE):
        obs[O_PATHS + i] = -1.0
    deg = local_zeros(NUM_CLEARINGS, np.int64)
    exits = local_zeros(NUM_CLEARINGS, np.int64)
    known = local_zeros(NUM_CLEARINGS, np.int64)
    unknown = local_zeros(NUM_CLEARINGS, np.int64)
    grid = local_array(GRID_CELLS, np.int8)
    R.realm_grid(S, b, grid)
    placed = local_array(NUM_TILES, np.int64)
    np_ = 0
    for t in range(NUM_TILES):
        if s['tile_where'][t] == TW_PLACED:
            placed[np_] = t
            np_ += 1
    for i in range(np_):
        t = int(placed[i])
        side = int(s['tile_side'][t])
        rot = int(s['tile_rot'][t])
        q = int(s['tile_q'][t])
        r = int(s['tile_r'][t])
        civ = 1.0 if R.TILE_KIND[t] == TILE_CIVILIZATION else 0.0
        pack = int(R.TILE_PACK[t])
        for k in range(CLEARINGS_PER_TILE):
            ct = int(R.CLEARING_TYPE[t, side, k])
            if ct < 0:
                continue
            c = t * CLEARINGS_PER_TILE + k
            obs[realm_at(c, R_PLACED)] = 1.0
            obs[realm_at(c, R_TYPE + ct)] = 1.0
            obs[realm_at(c, R_CIV_TILE)] = civ
            obs[realm_at(c, R_PACK + pack)] = 1.0
            obs[realm_at(c, R_REVEALED)] = 1.0 if s['tile_revealed'][t] else 0.0
            obs[realm_at(c, R_TILE_Q)] = q / MAP_RADIUS
            obs[realm_at(c, R_TILE_R)] = r / MAP_RADIUS
        for j in range(R.PATHS.shape[2]):                        # printed paths (L290)
            a = int(R.PATHS[t, side, j, 0])
            z = int(R.PATHS[t, side, j, 1])
            if a >= 0:
                add_neighbour(obs, deg, t * CLEARINGS_PER_TILE + a, t * CLEARINGS_PER_TILE + z)
                add_neighbour(obs, deg, t * CLEARINGS_PER_TILE + z, t * CLEARINGS_PER_TILE + a)
        for e in range(NUM_DIRECTIONS):                          # paths across the edges
            k = int(R.EDGE_CLEARING[t, side, e])
            if k < 0:
                continue
            c = t * CLEARINGS_PER_TILE + k
            d = (e + rot) % NUM_DIRECTIONS
            qq = q + int(R.DIR_DQ[d])
            rr = r + int(R.DIR_DR[d])
            cell = R.grid_cell(qq, rr)
            u = int(grid[cell]) if cell >= 0 else -1
            if u < 0:
                exits[c] += 1
                continue
            eu = ((d + 3) % NUM_DIRECTIONS - int(s['tile_rot'][u])) % NUM_DIRECTIONS
            ku = int(R.EDGE_CLEARING[u, int(s['tile_side'][u]), eu])
            if ku >= 0:
                add_neighbour(obs, deg, c, u * CLEARINGS_PER_TILE + ku)
        for h in range(R.HIDDEN.shape[2]):                       # Hidden Paths (L507, L515)
            a = int(R.HIDDEN[t, side, h, 0])
            z = int(R.HIDDEN[t, side, h, 1])
            if a < 0:
                continue
            ca = t * CLEARINGS_PER_TILE + a
            cz = t * CLEARINGS_PER_TILE + z
            if s['hidden_found'][me, (t * 2 + side) * R.HIDDEN.shape[2] + h] or R.hidden_path_enchanted(S, b, t, h):
                add_neighbour(obs, deg, ca, cz)
                add_neighbour(obs, deg, cz, ca)
                known[ca] += 1
                known[cz] += 1
            else:
                unknown[ca] += 1
                unknown[cz] += 1
        for k in range(CLEARINGS_PER_TILE):
            c = t * CLEARINGS_PER_TILE + k
            obs[realm_at(c, R_HIDDEN_KNOWN)] = lim(known[c] * 0.5)
            obs[realm_at(c, R_HIDDEN_UNKNOWN)] = lim(unknown[c] * 0.5)
            obs[realm_at(c, R_EXITS)] = lim(exits[c] / 3.0)


@rules_jit
def observe_contents(S, b, me, n, obs):
    """What stands in the clearings (``realm``), the ``piles`` and ``merchants``
    rows, the monster tray and the chips heroes have taken."""
    s = S[b]
    here = int(s['hero_clearing'][me])
    count = local_zeros(NUM_CLEARINGS, np.int64)       # reused: natives, tokens, bodies, ...
    for k in range(NUM_PACKS):
        c = int(s['civ_clearing'][k])
        if c >= 0:
            obs[realm_at(c, R_CIV_LOCATION)] = 1.0
    for i in range(NUM_NATIVE_CHIPS):
        c = int(s['native_clearing'][i])
        if c >= 0:
            count[c] += 1
            obs[realm_at(c, R_NATIVES)] = lim(count[c] * 0.25)
    count[:] = 0
    for i in range(NUM_CIV_TOKENS):
        c = int(s['civ_token_clearing'][i])
        if c < 0 or s['civ_token_where'][i] != TOK_PLACED:
            continue
        m = int(R.CIV_TOKEN_MERCHANT[i])
        if m < 0:
            obs[realm_at(c, R_CIV_EMPTY)] = lim(obs[realm_at(c, R_CIV_EMPTY)] + 0.5)
            continue
        count[c] += 1
        obs[realm_at(c, R_MERCHANTS)] = lim(count[c] * 0.25)
        o = O_MERCHANTS + m * NUM_MERCHANT_FEATURES
        obs[o + V_VALID] = 1.0
        for k in range(NUM_PACKS):
            if s['civ_clearing'][k] == c:
                obs[o + V_AT + k] = 1.0
        if c == here:
            obs[o + V_HERE] = 1.0
    for m in range(NUM_MERCHANTS):
        o = O_MERCHANTS + m * NUM_MERCHANT_FEATURES
        for a in range(3):
            obs[o + V_RESPECT + a] = float(MERCHANT_RESPECTS[m, a])
        if HAS_TRADE:
            if (int(s['merchant_looked'][me]) >> m) & 1:
                obs[o + V_LOOKED] = 1.0
            if (int(s['merchant_closed'][me]) >> m) & 1 and s['closed_turn'][me] == s['turn']:
                obs[o + V_CLOSED] = 1.0
            if s['trade_mode'] == TM_COMMERCE and s['trade_merchant'] == m:
                obs[o + V_TRADING] = 1.0
    for w in range(NUM_WILD_TOKENS):
        c = int(s['wild_clearing'][w])
        if c >= 0 and s['wild_where'][w] == TOK_PLACED:
            if WILD_GATE[w]:
                obs[realm_at(c, R_GATE)] = 1.0
            elif WILD_RUINS[w]:
                obs[realm_at(c, R_RUINS)] = 1.0
    # piles: a Treasure Site's, then each seat's body
    cards = local_zeros(NUM_PILES, np.int64)
    stock = local_zeros(NUM_MERCHANTS, np.int64)
    for card in range(NUM_CARDS):
        w = int(s['card_where'][card])
        if w == CW_SITE:
            cards[int(s['card_owner'][card])] += 1
        elif w == CW_MERCHANT:
            stock[int(s['card_owner'][card])] += 1
    for m in range(NUM_MERCHANTS):
        obs[O_MERCHANTS + m * NUM_MERCHANT_FEATURES + V_STOCK] = lim(stock[m] / 8.0)
    count[:] = 0
    gold = local_zeros(NUM_CLEARINGS, np.int64)
    in_piles = local_zeros(NUM_CLEARINGS, np.int64)
    bodies = local_zeros(NUM_CLEARINGS, np.int64)
    for pile in range(NUM_PILES):
        o = O_PILES + pile * NUM_PILE_FEATURES
        c = int(s['site_clearing'][pile])
        if pile < NUM_SITES:
            side = int(s['setup_side'][SITE_PACK[pile]])
            if side >= 0:
                obs[o + P_LOOT] = lim(PILE_LOOT[pile, side, 0] / 5.0)
                obs[o + P_LOOT + 1] = lim(PILE_LOOT[pile, side, 1] / 5.0)
                obs[o + P_LOOT + 2] = lim(PILE_LOOT[pile, side, 2] / 20.0)
                for i in range(4):
                    obs[o + P_FEATURES + i] = float(PILE_FEATURES[pile, side, i])
        else:
            obs[o + P_BODY] = 1.0
        if c < 0:
            continue
        obs[o + P_VALID] = 1.0
        if c == here:
            obs[o + P_HERE] = 1.0
        if s['site_opened'][pile]:
            obs[o + P_OPENED] = 1.0
            obs[realm_at(c, R_PILE_OPENED)] = 1.0
        others = 0
        for q in range(n):
            if q != me and s['site_found'][q, pile]:
                others += 1
        obs[o + P_FOUND_BY] = others / 5.0
        if s['site_found'][me, pile]:
            obs[o + P_FOUND] = 1.0
            obs[realm_at(c, R_PILE_FOUND)] = 1.0
        obs[o + P_CARDS] = lim(cards[pile] / 10.0)
        obs[o + P_GOLD] = lim(s['site_gold'][pile] / 20.0)
        if HAS_TRADE:
            if s['door_open'][pile]:
                obs[o + P_DOOR_OPEN] = 1.0
            if s['pile_deal'][pile]:
                obs[o + P_SHARED] = 1.0
        if HAS_COMBAT and pile == R.CHAMBER:
            for q in range(n):
                if s['hero_target'][q] == R.DOOR_FOE:
                    obs[o + P_DOOR_TARGETED + (q - me + n) % n] = 1.0
        if pile < NUM_SITES:
            count[c] += 1
            obs[realm_at(c, R_SITES)] = lim(float(count[c]))
        else:
            bodies[c] += 1
            obs[realm_at(c, R_BODIES)] = lim(float(bodies[c]))
        in_piles[c] += cards[pile]
        gold[c] += int(s['site_gold'][pile])
        obs[realm_at(c, R_PILE_CARDS)] = lim(in_piles[c] / 10.0)
        obs[realm_at(c, R_PILE_GOLD)] = lim(gold[c] / 20.0)
    # monster chips: on the map by clearing, in the tray, taken
    count[:] = 0
    health = local_zeros(NUM_CLEARINGS, np.int64)
    fame = local_zeros(NUM_CLEARINGS, np.int64)
    flipped = local_zeros(NUM_CLEARINGS, np.int64)
    for m in range(NUM_MONSTER_CHIPS):
        c = int(s['mon_clearing'][m])
        kind = int(FOE_KIND[m])
        if c >= 0:
            count[c] += 1
            health[c] += int(FOE_STATS[m, 0])
            fame[c] += int(FOE_STATS[m, 1])
            obs[realm_at(c, R_MONSTERS)] = lim(count[c] * 0.25)
            g = realm_at(c, R_GROUPS + int(FOE_GROUP[m]))
            obs[g] = lim(obs[g] + 0.25)
            obs[realm_at(c, R_HEALTH)] = lim(health[c] / 10.0)
            obs[realm_at(c, R_FAME)] = lim(fame[c] / 20.0)
            if s['mon_flipped'][m]:
                flipped[c] += 1
                obs[realm_at(c, R_FLIPPED)] = lim(flipped[c] * 0.25)
        elif c == -1:
            obs[O_TRAY + kind] = lim(obs[O_TRAY + kind] + 0.25)
        elif c == MON_TAKEN:                                 # not a Shape Shift's chip by its hero (H_SHAPE)
            obs[O_TAKEN + kind] = lim(obs[O_TAKEN + kind] + 0.25)
    for p in range(n):
        c = int(s['hero_clearing'][p])
        if c >= 0:
            obs[realm_at(c, R_HEROES + (p - me + n) % n)] = 1.0
    if HAS_COMBAT:
        if s['combat_step'] != 0 and s['combat_clearing'] >= 0:
            obs[realm_at(int(s['combat_clearing']), R_COMBAT)] = 1.0


@rules_jit
def observe_heroes(S, b, me, n, obs):
    """The ``heroes`` rows: every Hero Board as the table sees it."""
    s = S[b]
    face_down = local_zeros(MAX_HEROES, np.int64)
    shown = local_zeros(MAX_HEROES, np.int64)
    for c in range(NUM_CARDS):
        if s['card_where'][c] == CW_HERO:
            q = int(s['card_owner'][c])
            if q < 0 or q >= n:
                continue
            slot = int(s['card_slot'][c])
            if slot >= 0 and slot < T_BACKPACK:
                shown[q] += 1
            else:
                face_down[q] += 1
    known = local_zeros(MAX_HEROES, np.int64)
    if HAS_MAGIC:
        for sp in range(NUM_SPELLS):
            if s['spell_where'][sp] == SPW_KNOWN and s['spell_owner'][sp] >= 0 and s['spell_owner'][sp] < n:
                known[int(s['spell_owner'][sp])] += 1
    secret = False
    if HAS_COMBAT:
        secret = s['combat_step'] == CS_TACTICS
    for p in range(n):
        rel = (p - me + n) % n
        o = O_HEROES + rel * NUM_HERO_FEATURES
        obs[o + H_VALID] = 1.0
        hs = int(s['hero_state'][p])
        if hs >= 0 and hs < NUM_HERO_STATES:
            obs[o + H_STATE + hs] = 1.0
        li = int(s['hero_lineage'][p])
        if li >= 0:
            obs[o + H_LINEAGE + li] = 1.0
        if s['lineage_side'][p] == 1:
            obs[o + H_LINEAGE_SIDE] = 1.0
        ci = int(s['hero_class'][p])
        if ci >= 0:
            obs[o + H_CLASS + ci] = 1.0
        if s['class_side'][p] == 1:
            obs[o + H_CLASS_SIDE] = 1.0
        obs[o + H_HEARTS] = lim(s['hearts'][p, 0] / 8.0)
        obs[o + H_HEARTS + 1] = lim(s['hearts'][p, 1] / 8.0)
        for k in range(NUM_CUBE_KINDS):
            obs[o + H_CUBES + k] = lim(s['cubes'][p, 0, k] / 4.0)
            obs[o + H_WOUNDED + k] = lim(s['cubes'][p, 1, k] / 4.0)
        obs[o + H_LP] = lim(s['lp'][p] / 20.0)
        obs[o + H_FAME] = lim(s['fame'][p] / 50.0)
        obs[o + H_GOLD] = lim(s['gold'][p] / 50.0)
        st = int(s['hero_status'][p])
        for i in range(NUM_STATUS_BITS):
            if (st >> i) & 1:
                obs[o + H_STATUS + i] = 1.0
        obs[o + H_ACTIONS_LEFT] = lim(actions_left(S, b, p) / 4.0)
        if hs == HS_ACTIVE and s['hero_clearing'][p] >= 0:
            obs[o + H_ON_MAP] = 1.0
        if s['status'] == 0 and s['to_play'] == p:
            obs[o + H_TO_PLAY] = 1.0
        obs[o + H_TURN_ORDER] = -1.0
        obs[o + H_SELECTION_ORDER] = -1.0
        if s['turn'] > 0:
            for i in range(n):
                if s['turn_order'][i] == p:
                    obs[o + H_TURN_ORDER] = i / 5.0
        for i in range(n):
            if s['hero_order'][i] == p:
                obs[o + H_SELECTION_ORDER] = i / 5.0
        obs[o + H_FACE_DOWN] = lim(face_down[p] / 10.0)
        obs[o + H_EQUIPPED] = lim(shown[p] / 10.0)
        found = 0
        for i in range(s['hidden_found'].shape[1]):
            found += int(s['hidden_found'][p, i])
        obs[o + H_PATHS_FOUND] = lim(found / 10.0)
        found = 0
        for pile in range(NUM_PILES):
            found += int(s['site_found'][p, pile])
        obs[o + H_PILES_FOUND] = found / NUM_PILES
        for i in range(2):
            obs[o + H_SEARCH_DICE + i] = 1.0 if s['search_dice'][p, i] else 0.0
        if s['search_target'][p] >= 0:
            obs[o + H_SEARCHING] = 1.0
        if HAS_COMBAT:
            hc = int(s['hero_combat'][p])
            if hc >= 0 and hc < NUM_HERO_COMBAT:
                obs[o + H_COMBAT + hc] = 1.0
            if p == me or not secret:                            # Hero Tactics are secret (L714, L724)
                for i in range(NUM_BOXES):
                    obs[o + H_PLACED + i] = lim(s['placed'][p, i] / 5.0)
                    obs[o + H_CROSSED + i] = lim(s['placed_cross'][p, i] / 5.0)
                if int(s['hero_cflags'][p]) & CF_THROWS:
                    obs[o + H_THROWS] = 1.0
                if s['hero_aim'][p] > 0:
                    obs[o + H_AIM_BOX + int(s['hero_aim'][p]) - 1] = 1.0
            else:                                                # but his challenge cubes were placed in the open (L1182)
                shown_cubes = min(int(s['challenge_cubes'][p]), int(s['placed'][p, R.BOX_MANEUVER]))
                obs[o + H_PLACED + R.BOX_MANEUVER] = lim(shown_cubes / 5.0)
            for q in range(n):
                if s['hero_challenge'][q] == 1 + p:
                    obs[o + H_CHALLENGED_BY + (q - me + n) % n] = 1.0
        if HAS_FATE:
            if s['best'][p, 0] >= 0:
                obs[o + H_BEST_LP] = lim(s['best'][p, 0] / 20.0)
            obs[o + H_HEROES_MADE] = lim(s['heroes_made'][p] / 5.0)
        obs[o + H_OUTLAW] = lim(s['outlaw'][p] / 5.0)
        if HAS_MAGIC:
            obs[o + H_SPELLS] = lim(known[p] / 5.0)
            for k in range(NUM_CURSES):
                if (int(s['curses'][p]) >> k) & 1:
                    obs[o + H_CURSES + k] = 1.0
            cast = int(s['cast_card'][p])
            if cast >= 0 and (p == me or not secret):          # a spell is cast in secret (L714, L724)
                obs[o + H_CASTING + int(R.SPELL_KIND[cast])] = 1.0
                for k in range(NUM_COLOURS):
                    obs[o + H_CAST_CUBES + k] = lim(s['cast_cubes'][p, k] / 5.0)
            for sp in range(NUM_SPELLS):
                if s['spell_on'][sp] == R.AIM_HERO + p:
                    obs[o + H_SPELLS_ON + int(R.SPELL_KIND[sp])] = 1.0
            if s['lich_vapor'][p]:                              # the Lich's Vapor Form has no card (L1270)
                obs[o + H_SPELLS_ON + R.SP_VAPOR_FORM] = 1.0
            if s['shape'][p] > 0:                               # his Monster is public (L1564, L1568)
                obs[o + H_SHAPE + int(FOE_KIND[int(s['shape'][p]) - 1])] = 1.0
                if R.shifted(S, b, p):
                    obs[o + H_SHAPE_ACTIVE] = 1.0
            for q in range(n):
                aimed = s['hero_target'][q] == R.AIM_HERO + p
                for i in range(s['more_targets'].shape[1]):
                    if s['more_targets'][q, i] == R.AIM_HERO + p:   # a further target of his Fireball (L1562)
                        aimed = True
                if aimed:
                    obs[o + H_AIMED_BY + (q - me + n) % n] = 1.0
        obs[o + H_MISSIONS_HELD] = lim(R.missions_held(S, b, p) / float(MAX_HELD_MISSIONS))
        obs[o + H_MISSIONS_DONE] = lim(s['missions_done'][p] / 5.0)
        obs[o + H_KILLS] = lim(R.monster_kills(S, b, p) / 10.0)
        titles = 0
        for i in range(NUM_TITLES):
            titles += int(s['title_claims'][p, i])
        obs[o + H_TITLES] = lim(titles / 5.0)


@rules_jit
def observe_tiles(S, b, me, n, obs):
    """The ``tiles`` rows (the stack's order is hidden: only that a tile is in it)."""
    s = S[b]
    for t in range(NUM_TILES):
        o = O_TILES + t * NUM_TILE_FEATURES
        pack = int(R.TILE_PACK[t])
        if (int(s['packs']) >> pack) & 1:
            obs[o + T_VALID] = 1.0
        w = int(s['tile_where'][t])
        if w >= 0 and w < 4:
            obs[o + T_WHERE + w] = 1.0
        h = int(s['tile_holder'][t])
        if h >= 0 and h < n:
            obs[o + T_HOLDER + (h - me + n) % n] = 1.0
        if w == TW_PLACED:
            obs[o + T_Q] = s['tile_q'][t] / MAP_RADIUS
            obs[o + T_R] = s['tile_r'][t] / MAP_RADIUS
            obs[o + T_ROT + int(s['tile_rot'][t]) % NUM_DIRECTIONS] = 1.0
            obs[o + T_SIDE] = 1.0 if s['tile_side'][t] == 1 else 0.0
        if R.TILE_KIND[t] == TILE_CIVILIZATION:
            obs[o + T_CIV] = 1.0
        obs[o + T_PACK + pack] = 1.0
        if s['tile_revealed'][t]:
            obs[o + T_REVEALED] = 1.0
        if s['sel_tile'] == t and s['phase'] != 0:
            obs[o + T_SELECTED] = 1.0
        if HAS_EXPLORE:
            if s['explore_tile'] == t:
                obs[o + T_SELECTED] = 1.0
        if HAS_MAGIC:
            colour = int(s['tile_enchant'][t])
            if colour >= 0:
                obs[o + T_ENCHANT + colour] = 1.0


@rules_jit
def observe_foes(S, b, me, n, obs):
    """The ``foes`` rows: the Monster and Native chips in the observer's
    hero's clearing, with their side up and, in combat, wounds and targets."""
    s = S[b]
    c = int(s['hero_clearing'][me])
    if c < 0:
        return
    row = 0
    for f in range(NUM_FOES):
        if row >= MAX_FOE_ROWS:
            break
        native = f >= NUM_MONSTER_CHIPS
        if native:
            if s['native_clearing'][f - NUM_MONSTER_CHIPS] != c:
                continue
        elif s['mon_clearing'][f] != c:
            continue
        o = O_FOES + row * NUM_FOE_FEATURES
        row += 1
        obs[o + F_VALID] = 1.0
        kind = int(FOE_KIND[f])
        side = 0
        if native:
            obs[o + F_NATIVE] = 1.0
            obs[o + F_NATIVE_KIND + kind] = 1.0
            if HAS_COMBAT:
                side = 1 if s['native_flipped'][f - NUM_MONSTER_CHIPS] else 0
        else:
            obs[o + F_KIND + kind] = 1.0
            obs[o + F_GROUP + int(FOE_GROUP[f])] = 1.0
            side = 1 if s['mon_flipped'][f] else 0
        obs[o + F_FLIPPED] = float(side)
        hp = max(int(FOE_STATS[f, 0]), 1)
        obs[o + F_HEALTH] = lim(FOE_STATS[f, 0] / 5.0)
        obs[o + F_FAME] = lim(FOE_STATS[f, 1] / 10.0)
        obs[o + F_ARMORED] = float(FOE_STATS[f, 2])
        obs[o + F_UNDEAD] = float(FOE_STATS[f, 3])
        obs[o + F_FLYING] = float(FOE_STATS[f, 4])
        obs[o + F_ATTACK + int(FOE_SIDE[f, side, 0])] = 1.0
        obs[o + F_LENGTH] = lim(FOE_SIDE[f, side, 1] / 16.0)
        obs[o + F_SPEED] = lim(FOE_SIDE[f, side, 2] / 5.0)
        obs[o + F_DAMAGE] = lim(FOE_SIDE[f, side, 3] / 6.0)
        obs[o + F_SWORDS] = lim(FOE_SIDE[f, side, 4] / 2.0)
        obs[o + F_MANEUVER] = lim(FOE_SIDE[f, side, 5] / 5.0)
        obs[o + F_TARGETS] = lim(FOE_SIDE[f, side, 6] / 4.0)
        if HAS_COMBAT:
            obs[o + F_WOUNDS] = lim(s['foe_wounds'][f] / hp)
            if s['foe_target'][f] == me:
                obs[o + F_TARGETS_ME] = 1.0
            for q in range(n):
                aimed = s['hero_target'][q] == f
                for i in range(s['more_targets'].shape[1]):
                    if s['more_targets'][q, i] == f:
                        aimed = True
                if aimed:
                    obs[o + F_TARGETED + (q - me + n) % n] = 1.0
                obs[o + F_WOUNDED_BY + (q - me + n) % n] = lim(s['foe_wound_by'][f, q] / hp)
            if s['foe_flags'][f] & R.FF_LURED:
                obs[o + F_LURED] = 1.0
            q = int(s['foe_ctrl'][f]) - 1
            if q >= 0:
                obs[o + F_CONTROLLED_BY + (q - me + n) % n] = 1.0
                if s['ctrl_flags'][f] & R.CTRL_WAITING:
                    obs[o + F_CTRL_NEW] = 1.0
            if s['foe_vs'][f] > 0 or s['foe_extra_vs'][f, 0] > 0:
                obs[o + F_VS_CHIP] = 1.0
            for g in range(NUM_FOES):
                if s['foe_vs'][g] == f + 1:
                    obs[o + F_VS_IT] = 1.0
                for i in range(s['foe_extra_vs'].shape[1]):
                    if s['foe_extra_vs'][g, i] == f + 1:     # added to a multi-target attack's targets (L728)
                        obs[o + F_VS_IT] = 1.0
            if s['ctrl_foe'] == f + 1 and s['phase'] != 0:
                obs[o + F_DECIDING] = 1.0
        if HAS_MAGIC:
            for sp in range(NUM_SPELLS):
                if s['spell_on'][sp] == f:
                    obs[o + F_SPELLS_ON + int(R.SPELL_KIND[sp])] = 1.0
            if R.discord_foe(S, b, f) >= 0:                 # Discord lies on both its Monsters (L1596)
                obs[o + F_SPELLS_ON + R.SP_DISCORD] = 1.0
            for k in range(NUM_CURSES):
                if (int(s['foe_curses'][f]) >> k) & 1:
                    obs[o + F_FOE_CURSES + k] = 1.0


@rules_jit
def card_row(S, b, me, n, c, row, obs):
    """Write card c, visible to ``me``, into row ``row`` of the ``cards`` block."""
    s = S[b]
    k = int(R.CARD_KIND[c])
    o = O_CARDS + row * NUM_CARD_FEATURES
    obs[o + C_VALID] = 1.0
    w = int(s['card_where'][c])
    if w == CW_HERO:
        obs[o + C_HOLDER + (int(s['card_owner'][c]) - me + n) % n] = 1.0
        slot = int(s['card_slot'][c])
        if slot >= 0 and slot < NUM_SLOT_CODES:
            obs[o + C_SLOT + slot] = 1.0
    elif w == CW_MERCHANT:
        obs[o + C_MERCHANT + int(s['card_owner'][c])] = 1.0
    elif w == CW_SITE or w == CW_CLEARING:                        # in a pile, or lying in a clearing (L960)
        obs[o + C_PILE] = 1.0
    obs[o + C_DECK + int(R.CARD_DECK[c])] = 1.0
    obs[o + C_BANNER + int(R.KIND_POSITION[k])] = 1.0
    obs[o + C_WEAPON] = float(R.KIND_WEAPON[k])
    obs[o + C_SHIELD] = float(R.KIND_SHIELD[k])
    obs[o + C_ARMOR] = lim(KIND_ARMOR[k] / 4.0)
    obs[o + C_WEIGHT] = lim(R.KIND_WEIGHT[k] / 3.0)
    obs[o + C_PRICE] = lim(R.KIND_PRICE[k] / 25.0)
    obs[o + C_SWORDS] = lim(KIND_SWORDS[k] / 2.0)
    obs[o + C_EPIC] = float(KIND_EPIC[k])
    obs[o + C_KIND] = k / NUM_CARD_KINDS
    if s['sel_card'] == c and s['phase'] != 0:
        obs[o + C_SELECTED] = 1.0
    if HAS_COMBAT:
        if s['card_damaged'][c]:
            obs[o + C_DAMAGED] = 1.0
    if HAS_TRADE:
        if s['card_mark'][c] == MARK_DEAL:
            obs[o + C_DEAL] = 1.0
        elif s['card_mark'][c] == MARK_RECEIVED:
            obs[o + C_RECEIVED] = 1.0


@rules_jit
def observe_cards(S, b, me, n, obs):
    """The ``cards`` rows (see MAX_CARD_ROWS) and the decks' sizes."""
    s = S[b]
    row = 0
    left = local_zeros(NUM_DECKS, np.int64)
    for c in range(NUM_CARDS):
        w = int(s['card_where'][c])
        if w == CW_DECK:
            left[int(R.CARD_DECK[c])] += 1
        elif w == CW_HERO and s['card_owner'][c] == me and row < MAX_CARD_ROWS:
            card_row(S, b, me, n, c, row, obs)
            row += 1
    for rel in range(1, n):
        q = (me + rel) % n
        for c in range(NUM_CARDS):
            if row >= MAX_CARD_ROWS:
                break
            if s['card_where'][c] == CW_HERO and s['card_owner'][c] == q and card_visible(S, b, me, c):
                card_row(S, b, me, n, c, row, obs)
                row += 1
    for c in range(NUM_CARDS):
        if row >= MAX_CARD_ROWS:
            break
        w = int(s['card_where'][c])
        if (w == CW_MERCHANT or w == CW_SITE or w == CW_CLEARING) and card_visible(S, b, me, c):
            card_row(S, b, me, n, c, row, obs)
            row += 1
    for d in range(NUM_DECKS):
        obs[O_DECKS + d] = left[d] / DECK_SIZE[d]


@rules_jit
def observe_play(S, b, me, n, obs):
    """The flat blocks: the sequence of play, the configuration, the pending
    context, dice, tray and pools, and the state of combat, trade, Explore
    and the Legendary race."""
    s = S[b]
    ph = int(s['phase'])
    if (ph == R.PH_SPELL_CUBE or (ph == R.PH_CUBE_COLOUR and s['combat_step'] == CS_TACTICS)) \
            and s['to_play'] != me:
        ph = R.PH_TACTICS                   # covering a Spell Card or a treasure is part of the secret placing (L714)
    if ph >= 0 and ph < NUM_PHASES:
        obs[O_PHASE + ph] = 1.0
    st = int(s['stage'])
    if st >= 0 and st < NUM_STAGES:
        obs[O_STAGE + st] = 1.0
    p = int(s['to_play'])
    if p >= 0 and s['status'] == 0:
        obs[O_TO_PLAY + (p - me + n) % n] = 1.0
    obs[O_NPLAY + n - 1] = 1.0
    turn = int(s['turn'])
    obs[O_PROGRESS] = lim(turn / max(int(s['max_turns']), 1))
    obs[O_PROGRESS + 1] = lim(turn / 30.0)
    obs[O_PROGRESS + 2] = lim(s['max_turns'] / 100.0)
    sb = int(s['sandbox'])
    if sb >= 0 and sb < len(SANDBOXES):
        obs[O_SANDBOX + sb] = 1.0
    explore = sb == SB_EXPLORE or (sb == SB_LEGENDARY and s['legendary_map'] == SB_EXPLORE)
    obs[O_SANDBOX + len(SANDBOXES) + (1 if explore else 0)] = 1.0
    for k in range(NUM_PACKS):
        if (int(s['packs']) >> k) & 1:
            obs[O_PACKS + k * 3] = 1.0
            side = int(s['setup_side'][k])
            if side == 0 or side == 1:
                obs[O_PACKS + k * 3 + 1 + side] = 1.0
    if p >= 0 and s['status'] == 0:
        obs[O_CONTEXT] = lim(actions_left(S, b, p) / 4.0)
    obs[O_CONTEXT + 1] = lim(s['order_pos'] / 5.0)
    obs[O_CONTEXT + 2] = lim(s['heal_left'] / 4.0)
    obs[O_CONTEXT + 3] = 1.0 if s['block_due'] else 0.0
    if ph == R.PH_TILE_TURN:
        obs[O_CONTEXT + 4] = 1.0
        obs[O_CONTEXT + 5] = lim(s['sel_q'] / MAP_RADIUS)
        obs[O_CONTEXT + 6] = lim(s['sel_r'] / MAP_RADIUS)
    obs[O_CONTEXT + 7] = s['stack_len'] / NUM_TILES
    if s['turn'] > 0:
        for i in range(4):
            f = int(s['summon_dice'][i])
            if f >= 0 and f < NUM_DIE_FACES:
                obs[O_DICE + i * NUM_DIE_FACES + f] = 1.0
    pools = local_zeros(NUM_POOLS, np.int64)
    for w in range(NUM_WILD_TOKENS):
        if s['wild_where'][w] == TOK_POOL and (int(s['packs']) >> int(R.WILD_PACK[w])) & 1:
            pools[int(R.WILD_PACK[w])] += 1
    for k in range(NUM_CIV_TOKENS):
        if s['civ_token_where'][k] == TOK_POOL and (int(s['packs']) >> int(R.CIV_TOKEN_PACK[k])) & 1:
            pools[NUM_PACKS] += 1
    for k in range(s['site_token_where'].shape[0]):
        if s['site_token_where'][k] == TOK_POOL and (int(s['packs']) >> int(R.SITE_TOKEN_PACK[k])) & 1:
            pools[NUM_PACKS + 1] += 1
    for k in range(NUM_PACKS):
        obs[O_POOLS + k] = lim(pools[k] / 8.0)
    obs[O_POOLS + NUM_PACKS] = lim(pools[NUM_PACKS] / 12.0)
    obs[O_POOLS + NUM_PACKS + 1] = lim(pools[NUM_PACKS + 1] / 5.0)
    if HAS_COMBAT:
        cs = int(s['combat_step'])
        if cs >= 0 and cs < NUM_COMBAT_STEPS:
            obs[O_COMBAT + cs] = 1.0
        obs[O_COMBAT + NUM_COMBAT_STEPS] = lim(s['combat_round'] / 10.0)
        obs[O_COMBAT + NUM_COMBAT_STEPS + 1] = lim(s['quiet_rounds'] / 3.0)
        obs[O_COMBAT + NUM_COMBAT_STEPS + 2] = 1.0 if s['natives_hostile'] else 0.0
    if HAS_TRADE:
        tm = int(s['trade_mode'])
        if tm >= 0 and tm < NUM_TRADE_MODES:
            obs[O_TRADE + tm] = 1.0
        if tm == TM_SWAP:
            q = int(s['trade_partner'])
            if q >= 0 and q < n:
                obs[O_TRADE + NUM_TRADE_MODES + (q - me + n) % n] = 1.0
            obs[O_TRADE + NUM_TRADE_MODES + MAX_HEROES] = lim(s['swap_gold'] / 20.0)
        if tm == TM_COMMERCE:
            obs[O_TRADE + NUM_TRADE_MODES + MAX_HEROES + 1] = lim(s['trade_factor'] / 3.0)
    if HAS_EXPLORE:
        if s['explore_tile'] >= 0:
            d = int(s['explore_toward'])
            if d >= 0 and d < NUM_DIRECTIONS:
                obs[O_EXPLORE + d] = 1.0
            else:
                obs[O_EXPLORE + NUM_DIRECTIONS] = 1.0
            obs[O_EXPLORE + NUM_DIRECTIONS + 1] = lim(s['explore_q'] / MAP_RADIUS)
            obs[O_EXPLORE + NUM_DIRECTIONS + 2] = lim(s['explore_r'] / MAP_RADIUS)
    if HAS_FATE:
        q = int(s['legend'])
        if q >= 0 and q < n:
            obs[O_LEGEND + (q - me + n) % n] = 1.0
        if s['epic_victory']:
            obs[O_LEGEND + MAX_HEROES] = 1.0
    for i in range(len(OPTIONAL_RULES)):
        if (int(s['optional_rules']) >> i) & 1:
            obs[O_OPTIONS + i] = 1.0
    obs[O_OPTIONS + len(OPTIONAL_RULES)] = lim(s['legend_target'] / 40.0)


@rules_jit
def observe_magic(S, b, me, obs):
    """The ``spells`` rows and the ``magic`` block: the observer's own spells
    (known, under its Spell Books and Scrolls or a Merchant's it read, the one
    it is learning, those it may take as starting spells now); the Learn Dice of the run under way
    and the Enchant Actions taken (public); how many Spell Cards are left in
    the deck and discarded. Another hero's spells are counted in ``heroes``,
    never named; the deck's order is never shown."""
    s = S[b]
    for sp in range(NUM_SPELLS):
        o = O_SPELLS + int(R.SPELL_KIND[sp]) * NUM_SPELL_FEATURES
        w = int(s['spell_where'][sp])
        owner = int(s['spell_owner'][sp])
        if w == SPW_KNOWN and owner == me:
            obs[o + (S_KNOWN_START if R.SPELL_FROM[sp] == SPELL_START else S_KNOWN_DECK)] = 1.0
        elif w == SPW_ATTACHED and s['card_where'][owner] == CW_HERO and s['card_owner'][owner] == me:
            obs[o + S_ATTACHED] += 0.5
            if s['learn_spell'] == sp:
                obs[o + S_LEARNING] = 1.0
        elif w == SPW_ATTACHED and s['card_where'][owner] == CW_MERCHANT and (int(s['spells_read'][owner]) >> me) & 1:
            obs[o + S_READ] += 0.5
        if s['phase'] == R.PH_START_SPELL and s['to_play'] == me and R.start_spell_offered(S, b, me, sp):
            obs[o + S_OFFERED] = 1.0
        if w == SPW_KNOWN and owner == me and s['spell_on'][sp] >= 0:
            obs[o + S_IN_PLAY] = 1.0
        if s['dispel_card'] == sp:
            obs[o + S_DISPEL] = 1.0
    if s['learn_spell'] >= 0:
        for i in range(2):
            if s['learn_dice'][i] == R.LEARN_BOOK:
                obs[O_MAGIC + i] = 1.0
            elif s['learn_dice'][i] == R.LEARN_CURSE:
                obs[O_MAGIC + 2] = 1.0
    obs[O_MAGIC + 3] = s['enchant_done'] / 3.0
    left = 0
    gone = 0
    for sp in range(NUM_SPELLS):
        if s['spell_where'][sp] == SPW_DECK:
            left += 1
        elif s['spell_where'][sp] == SPW_DISCARD:
            gone += 1
    obs[O_MAGIC + 4] = left / SPELL_DECK_SIZE
    obs[O_MAGIC + 5] = gone / SPELL_DECK_SIZE


@rules_jit
def observe_missions(S, b, me, n, obs):
    """The ``missions`` and ``titles`` rows and the ``mission_deck`` block.
    A Mission Card another hero holds shows only its printed face values
    (which card he holds is his secret, L564; ``heroes`` counts them); a
    Merchant's listed card shows where it is only to an observer who knows
    that Merchant's cards (L558); the deck's order is never shown."""
    s = S[b]
    left = 0
    gone = 0
    total = 0
    for k in range(NUM_MISSIONS):
        o = O_MISSIONS + k * NUM_MISSION_FEATURES
        w = int(s['mission_where'][k])
        owner = int(s['mission_owner'][k])
        if w == R.MW_OUT:
            continue
        total += 1
        if w == MW_HERO and owner == me:
            obs[o + M_MINE] = 1.0
        elif w == MW_MERCHANT and R.has_looked(S, b, me, owner):
            obs[o + M_LISTED + owner] = 1.0
        elif w == MW_DISCARD:
            obs[o + M_DISCARDED] = 1.0
            gone += 1
        elif w == MW_DONE:
            obs[o + M_DONE] = 1.0
        elif w == MW_DECK:
            left += 1
        obs[o + M_KIND + int(R.MISSION_KIND[k])] = 1.0
        obs[o + M_REWARD] = lim(R.MISSION_REWARD[k, 0] / 20.0)
        obs[o + M_REWARD + 1] = lim(R.MISSION_REWARD[k, 1] / 3.0)
        obs[o + M_REWARD + 2] = lim(R.MISSION_REWARD[k, 2] / 20.0)
        obs[o + M_BONUS + int(R.MISSION_BONUS[k])] = 1.0
        obs[o + M_ON_DISCARD] = R.MISSION_DISCARD[k, 0] / 5.0
        obs[o + M_ON_DISCARD + 1] = R.MISSION_DISCARD[k, 1] / 3.0
        obs[o + M_ON_DISCARD + 2] = R.MISSION_DISCARD[k, 2] / 10.0
        if s['hero_state'][me] == HS_ACTIVE:
            share = 1.0
            for j in range(R.MAX_TASKS):
                done, need = R.task_progress(S, b, me, k, j)
                if need > 0 and done < need:
                    share = min(share, done / float(need))
            obs[o + M_PROGRESS] = share
            if R.at_mission_place(S, b, me, k):
                obs[o + M_PLACE_HERE] = 1.0
            if R.completable(S, b, me, k):
                obs[o + M_COMPLETABLE] = 1.0
    if total > 0:
        obs[O_MISSION_DECK] = left / float(total)
        obs[O_MISSION_DECK + 1] = gone / float(total)
    obs[O_MISSION_DECK + 2] = s['missions_taken'] / 2.0
    for i in range(NUM_TITLES):
        o = O_TITLES + i * NUM_TITLE_FEATURES
        card = int(R.TITLE_CARD[i])
        if s['civ_side'][card] < 0:
            continue
        if s['civ_side'][card] == R.TITLE_SIDE[i]:
            obs[o + T_UP] = 1.0
        obs[o + T_PACK + int(R.CIV_PACK[card])] = 1.0
        obs[o + T_SMALL] = float(R.TITLE_SMALL[i])
        obs[o + T_TAKEN] = float(s['title_taken'][i])
        others = 0
        for q in range(n):
            if q != me:
                others += int(s['title_claims'][q, i])
        obs[o + T_MINE] = lim(s['title_claims'][me, i] / 3.0)
        obs[o + T_OTHERS] = lim(others / 3.0)
        obs[o + T_PRICE] = lim(R.TITLE_PRICE[i] / 20.0)
        obs[o + T_REWARD] = lim(R.TITLE_REWARD[i, 0] / 3.0)
        obs[o + T_REWARD + 1] = lim(R.TITLE_REWARD[i, 1] / 10.0)
        obs[o + T_NEED] = lim(R.TITLE_NEED[i, 0] / 50.0)
        obs[o + T_NEED + 1] = lim(R.TITLE_NEED[i, 1] / 10.0)
        obs[o + T_NEED + 2] = lim(R.TITLE_NEED[i, 2] / 10.0)
        obs[o + T_NEED + 3] = lim(R.TITLE_NEED[i, 3] / 3.0)
        if R.TITLE_OUTLAW[i] == 1:
            obs[o + T_OUTLAW] = 1.0
        elif R.TITLE_OUTLAW[i] == 0:
            obs[o + T_OUTLAW + 1] = 1.0
        if s['hero_state'][me] == HS_ACTIVE:
            if R.title_requirements_met(S, b, me, i):
                obs[o + T_MET] = 1.0
            if R.claimable(S, b, me, i):
                obs[o + T_CLAIMABLE] = 1.0


@rules_jit
def observe_reroll(S, b, me, obs):
    """The ``reroll`` block: the roll waiting on its parties' rerolls
    (PH_REROLL; public, as dice on the table), the rerolls the observer may
    still make of it if he is a party, those already made; and the observer's
    own reroll powers (his Divination, Dust of Destiny, Gage of the Thief)."""
    s = S[b]
    kind = int(s['roll_kind'])
    if kind != R.ROLL_NONE:
        if kind <= OBSERVED_ROLL_KINDS:
            obs[O_REROLL + RR_KIND + kind - 1] = 1.0
        for i in range(int(s['roll_n'])):
            f = int(s['roll_dice'][i])
            obs[O_REROLL + RR_SHOWN + i] = 1.0
            if kind == R.ROLL_LOOT or kind == R.ROLL_NOISE:
                obs[O_REROLL + RR_DIE + i] = lim(f / 5.0)
            elif kind == R.ROLL_SEARCH or kind == R.ROLL_HIDE or kind == R.ROLL_OUTLAW:
                obs[O_REROLL + RR_DIE + i] = lim(f)
            elif kind == R.ROLL_LEARN or kind == R.ROLL_STRUCK or kind == R.ROLL_ATTACK or kind == R.ROLL_TENTACLE:
                obs[O_REROLL + RR_DIE + i] = lim(f / 2.0)
            elif kind == R.ROLL_HAGGLE:
                obs[O_REROLL + RR_DIE + i] = 1.0 if f == R.HAGGLE_DOOR else lim(f / 5.0)
            elif kind == R.ROLL_RANGED:
                obs[O_REROLL + RR_DIE + i] = lim((f - R.RANGED_LOW) / (R.RANGED_HIGH - R.RANGED_LOW))
            elif kind == R.ROLL_TRAP:
                obs[O_REROLL + RR_DIE + i] = lim(f / R.HEAL_HEART)
            elif kind == R.ROLL_CURSE:
                obs[O_REROLL + RR_DIE + i] = lim(f / (R.NUM_CURSES - 1))
            elif kind == R.ROLL_SUMMON:
                obs[O_REROLL + RR_DIE + i] = lim(f / 3.0)
            elif kind == R.ROLL_WRAITH:
                obs[O_REROLL + RR_DIE + i] = 1.0 if f == R.SYM_SITE else 0.0
            else:
                obs[O_REROLL + RR_DIE + i] = lim(f / NUM_CLEARINGS)
        party = s['roll_party'][0] == me or s['roll_party'][1] == me
        for src in range(R.NUM_RR_SOURCES):
            if ((int(s['roll_used']) >> src) | (int(s['roll_used']) >> (R.NUM_RR_SOURCES + src))) & 1:
                obs[O_REROLL + RR_USED + src] = 1.0
            elif party:
                for k in range(R.REROLL_WAYS):
                    if R.reroll_offered(S, b, me, src, k):
                        obs[O_REROLL + RR_MINE + src] = 1.0
    if R.divination_card(S, b, me) >= 0:
        obs[O_REROLL + RR_HELD] = 1.0
    if R.dust_card(S, b, me) >= 0:
        obs[O_REROLL + RR_HELD + 1] = 1.0
    if R.kind_equipped(S, b, me, R.GAGE_OF_THE_THIEF) > 0:
        obs[O_REROLL + RR_HELD + 2] = 1.0


@rules_jit
def observe_one(S, b, me, obs):
    """Write game b as seat ``me`` may know it into ``obs`` (float32[OBS_SIZE])."""
    s = S[b]
    n = int(s['num_players'])
    # every cell starts at zero but the ``paths`` block, which observe_map
    # fills whole (-1: no path)
    for i in range(O_PATHS):
        obs[i] = 0.0
    for i in range(O_PATHS + NUM_CLEARINGS * MAX_DEGREE, OBS_SIZE):
        obs[i] = 0.0
    observe_map(S, b, me, obs)
    observe_contents(S, b, me, n, obs)
    observe_heroes(S, b, me, n, obs)
    observe_tiles(S, b, me, n, obs)
    observe_foes(S, b, me, n, obs)
    observe_cards(S, b, me, n, obs)
    observe_play(S, b, me, n, obs)
    if HAS_MAGIC:
        observe_magic(S, b, me, obs)
    observe_missions(S, b, me, n, obs)
    observe_reroll(S, b, me, obs)
