"""Shared pieces of the Dragons Down rules: the realm's tables, frozen from
``data.py`` into arrays the compiled code reads, and randomness (the game's
counter-based stream and scenario-loaded chance).

Tile tables are indexed ``[tile, side, ...]`` with ``tile`` the index of
``constants.TILE_IDS`` and ``side`` 0 or 1 (the data files' side 1 or 2);
clearing slots ``k`` are 0-based (the data files' clearing ``k + 1``), edges
and directions 0..5 (N, NE, SE, S, SW, NW).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from dragongym.envs.core.rng import roll  # noqa: F401  (the game's dice go through it)
from .. import data as D
from ..constants import (
    MON_TRAY as _MON_TRAY, MON_TAKEN as _MON_TAKEN, NUM_PILES, CIV_TOKENS, MERCHANT_IDS, NUM_MERCHANTS, SITE_IDS, WILD_TOKENS, CARD_IDS, CARD_INSTANCES, NUM_POSITIONS, NUM_TARGETS, T_BACKPACK, T_CHEST, T_FEET, T_HAND1,
    T_HAND2, T_HANDS, T_HEAD, T_HEAD_CHEST, T_MISC1, T_MISC2, T_MISC3, T_MISC4, T_NECK, T_WAIST, T_WEAPON1,
    T_WEAPON2, T_WEAPONS, CLASS_IDS, CLEAR_NONE, CLEARINGS_PER_TILE, CUBE_MAGIC, CUBE_MIGHT, CUBE_SPEED, LINEAGE_IDS,
    MAX_CARD_CUBES, MAX_HIDDEN_PER_SIDE, MAX_PATHS_PER_SIDE, NATIVE_CHIP_KINDS, NUM_CLASSES,
    NUM_COLOURS, NUM_DIRECTIONS, NUM_LINEAGES, NUM_PACKS, NUM_TILES, TILE_CIVILIZATION, TILE_IDS,
    TILE_WILDERNESS, MAX_AIMS, CURSE_IDS, NUM_CURSES, NUM_SPELLS, SPELL_IDS, SPELL_INSTANCES,
    MISSION_IDS, NUM_MISSIONS, CIV_CARD_IDS, TITLE_IDS, NUM_TITLES, NATIVE_GROUPS, MONSTER_IDS,
    CW_HERO as _CW_HERO, T_PENDING as _T_PENDING,
)


def _tile_tables():
    """The arrays below, from ``data/tiles.txt``."""
    kind = np.zeros(NUM_TILES, dtype=np.int8)
    pack = np.zeros(NUM_TILES, dtype=np.int8)
    ctype = np.full((NUM_TILES, 2, CLEARINGS_PER_TILE), CLEAR_NONE, dtype=np.int8)
    paths = np.full((NUM_TILES, 2, MAX_PATHS_PER_SIDE, 2), -1, dtype=np.int8)
    hidden = np.full((NUM_TILES, 2, MAX_HIDDEN_PER_SIDE, 2), -1, dtype=np.int8)
    hidden_colour = np.full((NUM_TILES, 2, MAX_HIDDEN_PER_SIDE), -1, dtype=np.int8)
    edge = np.full((NUM_TILES, 2, NUM_DIRECTIONS), -1, dtype=np.int8)
    for t, tid in enumerate(TILE_IDS):
        tile = D.REALM.tiles[tid]
        kind[t] = TILE_CIVILIZATION if tile.kind == "civilization" else TILE_WILDERNESS
        pack[t] = D.PACKS.index(tile.pack)
        for s, side in enumerate(tile.sides):
            for k, name in enumerate(side.clearings):
                ctype[t, s, k] = D.CLEARING_TYPES.index(name)
            for i, (a, c) in enumerate(side.paths):
                paths[t, s, i] = (a - 1, c - 1)
            for i, (a, c, colour) in enumerate(side.hidden):
                hidden[t, s, i] = (a - 1, c - 1)
                hidden_colour[t, s, i] = D.MAGIC_COLOURS.index(colour)
            for e, k in enumerate(side.edges):
                edge[t, s, e] = -1 if k is None else k - 1
    return kind, pack, ctype, paths, hidden, hidden_colour, edge


TILE_KIND, TILE_PACK, CLEARING_TYPE, PATHS, HIDDEN, HIDDEN_COLOUR, EDGE_CLEARING = _tile_tables()
"""TILE_KIND[t]: TILE_CIVILIZATION / TILE_WILDERNESS; TILE_PACK[t]: its Terrain
Pack; CLEARING_TYPE[t, s, k]: CLEAR_* of clearing k (CLEAR_NONE past the
tile's clearings); PATHS[t, s, i]: the clearings joined by path i (-1 pad);
HIDDEN[t, s, h] and HIDDEN_COLOUR[t, s, h]: Hidden Path h and its colour;
EDGE_CLEARING[t, s, e]: the clearing the path crossing edge e leads to, -1
where no path crosses (L109, L290-L296)."""

def _cube_bits(options):
    """Bit mask of the cube kinds (CUBE_*) one printed cube may be taken as (L200)."""
    bits = 0
    for name in options:
        kind = {"might": CUBE_MIGHT, "speed": CUBE_SPEED}.get(name)
        bits |= 1 << (kind if kind is not None else CUBE_MAGIC + D.MAGIC_COLOURS.index(name))
    return bits


def _hero_tables(ids, cards):
    """Hearts, cube masks and starting Gold of each card and side."""
    hearts = np.zeros((len(ids), 2), dtype=np.int8)
    cubes = np.zeros((len(ids), 2, MAX_CARD_CUBES), dtype=np.int16)
    gold = np.zeros((len(ids), 2), dtype=np.int16)
    for i, cid in enumerate(ids):
        for s, side in enumerate(cards[cid].sides):
            hearts[i, s] = side.hearts
            for j, options in enumerate(side.cubes):
                cubes[i, s, j] = _cube_bits(options)
            gold[i, s] = getattr(side, "gold", 0) or 0
    return hearts, cubes, gold


CLASS_EQUIPMENT = np.full((len(CLASS_IDS), 2, 4), -1, dtype=np.int16)
"""CLASS_EQUIPMENT[class, side, j]: the card kind (CARD_IDS index) of the
j-th starting item the Class Card lists (L201), -1 past the last."""
for _c, _cid in enumerate(CLASS_IDS):
    for _s, _side in enumerate(D.REALM.classes[_cid].sides):
        for _j, _item in enumerate(_side.equipment):
            CLASS_EQUIPMENT[_c, _s, _j] = CARD_IDS.index(_item)

LINEAGE_HEARTS, LINEAGE_CUBES, _ = _hero_tables(LINEAGE_IDS, D.REALM.lineages)
CLASS_HEARTS, CLASS_CUBES, CLASS_GOLD = _hero_tables(CLASS_IDS, D.REALM.classes)
"""``*_HEARTS[card, side]``: Hearts printed (L199); ``*_CUBES[card, side, j]``:
the j-th Action Cube printed, as a bit mask of the CUBE_* kinds it may be
taken as (one bit, or several for a multi-colour cube, L200), 0 past the last;
``CLASS_GOLD[class, side]``: starting Gold (L202)."""

CIV_TILE_OF_PACK = np.array([next(t for t, tid in enumerate(TILE_IDS)
                                  if D.REALM.tiles[tid].pack == pack
                                  and D.REALM.tiles[tid].kind == "civilization")
                             for pack in D.PACKS], dtype=np.int8)
"""The civilization tile of each Terrain Pack (L288)."""

NATIVES_ON_CARD = np.full((NUM_PACKS, 2, len(NATIVE_CHIP_KINDS)), -1, dtype=np.int8)
"""``NATIVES_ON_CARD[pack, side, i]``: the i-th Native chip (index into
constants.NATIVE_CHIP_KINDS) that side of the pack's Terrain Setup Card puts
on its Civilization Location (L189, L312), -1 past the last."""
for _p, _pack in enumerate(D.PACKS):
    for _s, _side in enumerate(D.REALM.setup_cards[_pack].sides):
        _used = set()
        for _i, _kind in enumerate(_side.natives):
            _chip = next(c for c, k in enumerate(NATIVE_CHIP_KINDS) if k == _kind and c not in _used)
            _used.add(_chip)
            NATIVES_ON_CARD[_p, _s, _i] = _chip

def _face_codes(die, codes):
    """The code of each face of data die ``die`` (``codes[name]``, else -1)."""
    return np.array([codes.get(f, -1) for f in D.REALM.dice[die].faces], dtype=np.int8)


SYM_RETURN = len(D.PACKS)      # gray die: the return arrow (L619)
SYM_SITE = 0                   # black die: the Treasure Site Symbol (L633)
LOCAL_SYMBOLS = tuple(f for f in D.REALM.dice["local_symbol"].faces if f != "site")
GRAY_SYMBOL = _face_codes("wandering_symbol", {**{p: i for i, p in enumerate(D.PACKS)}, "return": SYM_RETURN})
"""Gray Summoning symbol die, face -> the Terrain Pack whose Wandering
Monsters it summons, SYM_RETURN, or -1 (blank) (L222-L224, L617-L623)."""
GRAY_NUMBER = np.array(D.REALM.dice["wandering_number"].faces, dtype=np.int8)
BLACK_SYMBOL = _face_codes("local_symbol", {**{s: 1 + i for i, s in enumerate(LOCAL_SYMBOLS)}, "site": SYM_SITE})
"""Black Summoning symbol die, face -> SYM_SITE or 1 + the index of a tile's
Local Monster symbol in LOCAL_SYMBOLS (L226, L625-L633)."""
BLACK_NUMBER = np.array(D.REALM.dice["local_number"].faces, dtype=np.int8)
SEARCH_DIE_SPYGLASS = np.array([f == "spyglass" for f in D.REALM.dice["search"].faces], dtype=np.int8)
"""Search Die, face -> 1 where it shows a spyglass (L230)."""
MONSTER_DIE_SYMBOL = np.array([f == "monster" for f in D.REALM.dice["monster"].faces], dtype=np.int8)
"""Monster Die, face -> 1 where it shows a Monster symbol (L244)."""

TILE_LOCAL_SYMBOL = np.array([0 if D.REALM.tiles[t].local_symbol is None
                              else 1 + LOCAL_SYMBOLS.index(D.REALM.tiles[t].local_symbol)
                              for t in TILE_IDS], dtype=np.int8)
"""A wilderness tile's Local Monster symbol (BLACK_SYMBOL's code); 0 for a
civilization tile, which summons nothing (L296)."""
TILE_LOCAL_KIND = np.array([-1 if D.REALM.tiles[t].local_monster is None
                            else tuple(D.REALM.monsters).index(D.REALM.tiles[t].local_monster)
                            for t in TILE_IDS], dtype=np.int8)
TILE_LOCAL_DUAL = np.array([D.REALM.tiles[t].local_dual for t in TILE_IDS], dtype=np.int8)
"""1 where the tile's Local Monster has the dual dice icon: it summons the
sum of both numbered dice (L631)."""
PACK_WANDERER = np.array([tuple(D.REALM.monsters).index(D.REALM.setup_cards[p].wandering)
                          for p in D.PACKS], dtype=np.int8)
"""Each pack's Wandering Monster kind (L224)."""

def _card(cid):
    return D.REALM.items.get(cid) or D.REALM.treasures[cid]


CARD_KIND = np.array([k for k, _ in CARD_INSTANCES], dtype=np.int16)
CARD_DECK = np.array([d for _, d in CARD_INSTANCES], dtype=np.int8)
"""Card instance -> its kind (CARD_IDS index) and the deck it starts in."""
KIND_POSITION = np.array([D.POSITIONS.index(_card(c).position) for c in CARD_IDS], dtype=np.int8)
"""Card kind -> its Position banner (data.POSITIONS index, L936-L960)."""
KIND_WEAPON = np.array([_card(c).weapon is not None for c in CARD_IDS], dtype=np.int8)
KIND_SHIELD = np.array([_card(c).weapon is None and _card(c).armor > 0 and
                        _card(c).position in ("one_handed", "one_or_two_handed") for c in CARD_IDS], dtype=np.int8)
"""A shield: armour carried in a weapon position (L754, L974)."""
KIND_WEIGHT = np.array([_card(c).weight for c in CARD_IDS], dtype=np.int8)
"""Healthy Might Cubes a hero needs to equip the card (armour's red cube,
a weapon's mandatory might boxes; L920, L976)."""
KIND_PRICE = np.array([_card(c).price or 0 for c in CARD_IDS], dtype=np.int16)


def _target_tables():
    ok = np.zeros((len(D.POSITIONS), NUM_TARGETS), dtype=np.int8)
    allowed = {"neck": [T_NECK], "waist": [T_WAIST], "feet": [T_FEET], "head": [T_HEAD],
               "chest": [T_CHEST], "head_chest": [T_HEAD_CHEST], "one_handed": [T_WEAPON1, T_WEAPON2],
               "two_handed": [T_WEAPONS], "one_or_two_handed": [T_WEAPON1, T_WEAPON2, T_WEAPONS],
               "single_hand": [T_HAND1, T_HAND2], "two_hands": [T_HANDS], "misc": [T_MISC1, T_MISC2, T_MISC3, T_MISC4],
               "backpack": [], "backpack_special": []}
    for i, pos in enumerate(D.POSITIONS):
        for t in allowed[pos] + [T_BACKPACK]:
            ok[i, t] = 1
    covers = np.zeros((NUM_TARGETS, NUM_POSITIONS), dtype=np.int8)
    for t in range(NUM_POSITIONS):
        covers[t, t] = 1
    covers[T_HEAD_CHEST, T_HEAD] = covers[T_HEAD_CHEST, T_CHEST] = 1
    covers[T_WEAPONS, T_WEAPON1] = covers[T_WEAPONS, T_WEAPON2] = 1
    covers[T_HANDS, T_HAND1] = covers[T_HANDS, T_HAND2] = 1
    return ok, covers


TARGET_OK, TARGET_COVERS = _target_tables()
"""TARGET_OK[position banner, target]: the card may go there (always the
backpack, L958); TARGET_COVERS[target, position]: the board positions an
equipped card fills (both for head and chest, two-handed, two hands)."""

WK_SITE, WK_NUMBERED, WK_ITEM, WK_TREASURE, WK_DISCOVERY, WK_SPECIAL = range(6)
"""Wilderness Token kinds (L495-L502): Site, a numbered token (a Treasure
Site by name, a Gate), Item, Treasure, Discovery, Forgotten City / Dwarven
Ruins (numbered too)."""


def _token_tables():
    kinds = {"site": WK_SITE, "treasure_site": WK_NUMBERED, "gate": WK_NUMBERED, "item": WK_ITEM,
             "treasure": WK_TREASURE, "discovery": WK_DISCOVERY, "special": WK_SPECIAL}
    wt = [D.REALM.wilderness_tokens[w] for w in WILD_TOKENS]
    wild_kind = np.array([kinds[w.kind] for w in wt], dtype=np.int8)
    wild_pack = np.array([D.PACKS.index(w.pack) for w in wt], dtype=np.int8)
    wild_clearing = np.array([(w.clearing or 0) - 1 for w in wt], dtype=np.int8)
    wild_site = np.array([SITE_IDS.index(w.target) if w.kind == "treasure_site" else -1 for w in wt], dtype=np.int8)
    ct = [D.REALM.civ_tokens[c] for c in CIV_TOKENS]
    civ_pack = np.array([D.PACKS.index(c.pack) for c in ct], dtype=np.int8)
    civ_merchant = np.array([MERCHANT_IDS.index(c.merchant) if c.merchant else -1 for c in ct], dtype=np.int8)
    st = list(D.REALM.site_tokens.values())
    site_tok_site = np.array([SITE_IDS.index(s.site) for s in st], dtype=np.int8)
    site_tok_pack = np.array([D.PACKS.index(s.pack) for s in st], dtype=np.int8)
    site_tok_clearing = np.array([s.clearing - 1 for s in st], dtype=np.int8)
    stock = np.zeros((NUM_MERCHANTS, 2, 3), dtype=np.int8)
    merchant_pack = np.zeros(NUM_MERCHANTS, dtype=np.int8)
    for m, mid in enumerate(MERCHANT_IDS):
        pack = next(p for p, card in D.REALM.setup_cards.items() if mid in card.merchants)
        merchant_pack[m] = D.PACKS.index(pack)
        for s, side in enumerate(D.REALM.setup_cards[pack].sides):
            stock[m, s] = (side.stock[mid].treasures, side.stock[mid].items, side.stock[mid].missions)
    return (wild_kind, wild_pack, wild_clearing, wild_site, civ_pack, civ_merchant, site_tok_site,
            site_tok_pack, site_tok_clearing, stock, merchant_pack)


(WILD_KIND, WILD_PACK, WILD_CLEARING, WILD_SITE, CIV_TOKEN_PACK, CIV_TOKEN_MERCHANT, SITE_TOKEN_SITE,
 SITE_TOKEN_PACK, SITE_TOKEN_CLEARING, MERCHANT_STOCK, MERCHANT_PACK) = _token_tables()
"""Token tables: each Wilderness Token's kind (WK_*), pack, clearing slot
(numbered tokens) and Treasure Site (a site token by name); each
Civilization Token's pack and Merchant (-1: empty); each Site Token's site,
pack and clearing slot; MERCHANT_STOCK[merchant, setup side] = (treasures,
items, missions) it is filled with (L491) -- its missions refilled after
every hero's turn (L564)."""
WILD_GATE = np.array([D.REALM.wilderness_tokens[w].kind == "gate" for w in WILD_TOKENS], dtype=np.int8)
"""1 where the Wilderness Token is a Gate (L479)."""
KIND_EPIC = np.array([bool(getattr(_card(c), "epic", False)) for c in CARD_IDS], dtype=np.int8)
"""Card kind -> 1 for an Epic Treasure (red banner, L366, L906)."""
KIND_TREASURE = np.array([c in D.REALM.treasures for c in CARD_IDS], dtype=np.int8)
"""Card kind -> 1 for a Treasure or Deep Treasure Card (not an Item)."""
SITE_LOOT = np.array([[(side.loot[site].treasures, side.loot[site].deep, side.loot[site].gold)
                       for side in card.sides] for card in D.REALM.setup_cards.values()
                      for site in card.sites], dtype=np.int16)
"""SITE_LOOT[site, setup side] = (Treasure Cards, Deep Treasure Cards, Gold)
of its Treasure Pile (L520)."""
SITE_TRAP = np.array([["hidden_trap" in side.loot[site].features for side in card.sides]
                      for card in D.REALM.setup_cards.values() for site in card.sites], dtype=np.int8)
"""SITE_TRAP[site, setup side]: the Secret Cache's Hidden Trap (L1248)."""
SITE_PACK = np.array([D.PACKS.index(pack) for pack, card in D.REALM.setup_cards.items()
                      for site in card.sites], dtype=np.int8)
SECRET_CACHE = SITE_IDS.index("secret_cache")
SKELETON_KEY = CARD_IDS.index("skeleton_key")
SITE_GUARDIAN = np.array([tuple(D.REALM.monsters).index(card.sites[site].guardian)
                          for card in D.REALM.setup_cards.values() for site in card.sites], dtype=np.int8)
"""Treasure Site (SITE_IDS index) -> its Guardian's monster kind (L286, L633)."""
MISSION_DIE_GOLD = np.array([int(f.split(":")[1]) if f.startswith("gold") else 0
                             for f in D.REALM.dice["mission"].faces], dtype=np.int8)
MISSION_DIE_FAME = np.array([int(f.split(":")[1]) if f.startswith("fame") else 0
                             for f in D.REALM.dice["mission"].faces], dtype=np.int8)
"""Mission Die, face -> the Gold and the Fame it rewards (L252)."""

# ---------------------------------------------------------------- Mission Cards and titles (missions.txt, civilization.txt)
MK_ATROCITY, MK_QUEST, MK_EXPEDITION = range(3)
"""Mission kinds (``MISSION_KIND``; data.MISSION_KINDS order, L1075)."""
TASK_KILL, TASK_KILL_NATIVE, TASK_LOOT, TASK_ENTER = range(4)
"""Mission task verbs (``TASK_VERB``; missions.txt)."""
MAX_TASKS = max(len(m.tasks) for m in D.REALM.missions.values())


def _mission_tables():
    ms = [D.REALM.missions[k] for k in MISSION_IDS]
    kind = np.array([D.MISSION_KINDS.index(m.kind) for m in ms], dtype=np.int8)
    pack = np.array([D.PACKS.index(m.pack) for m in ms], dtype=np.int8)
    at_civ = np.array([D.PACKS.index(D.REALM.civ_locations[m.complete_at].pack)
                       if m.complete_at in D.REALM.civ_locations else -1 for m in ms], dtype=np.int8)
    at_merchant = np.array([MERCHANT_IDS.index(m.complete_at) if m.complete_at in MERCHANT_IDS else -1
                            for m in ms], dtype=np.int8)
    reward = np.array([(m.reward.gold, m.reward.lp, m.reward.fame) for m in ms], dtype=np.int16)
    discard = np.array([(m.discard.gold, m.discard.lp, m.discard.fame) if m.discard else (0, 0, 0)
                        for m in ms], dtype=np.int16)
    bonus = np.array([D.ATTRIBUTES.index(m.bonus) for m in ms], dtype=np.int8)
    verb = np.full((NUM_MISSIONS, MAX_TASKS), -1, dtype=np.int8)
    target = np.full((NUM_MISSIONS, MAX_TASKS), -1, dtype=np.int8)
    count = np.zeros((NUM_MISSIONS, MAX_TASKS), dtype=np.int8)
    kinds = np.zeros((NUM_MISSIONS, MAX_TASKS, len(MONSTER_IDS)), dtype=np.int8)
    for k, m in enumerate(ms):
        for j, task in enumerate(m.tasks):
            count[k, j] = task.count
            if task.verb == "kill":
                verb[k, j] = TASK_KILL
                for i, mid in enumerate(MONSTER_IDS):
                    mon = D.REALM.monsters[mid]
                    kinds[k, j, i] = mid == task.target if task.by == "monster" else mon.group == task.target
            elif task.verb == "kill_native":
                verb[k, j] = TASK_KILL_NATIVE
                target[k, j] = NATIVE_GROUPS.index(task.target)
            elif task.verb == "loot":
                verb[k, j] = TASK_LOOT
                target[k, j] = SITE_IDS.index(task.target)
            else:
                verb[k, j] = TASK_ENTER
                target[k, j] = TILE_IDS.index(task.target)
    return kind, pack, at_civ, at_merchant, reward, discard, bonus, verb, target, count, kinds


(MISSION_KIND, MISSION_PACK, MISSION_AT_CIV, MISSION_AT_MERCHANT, MISSION_REWARD, MISSION_DISCARD, MISSION_BONUS,
 TASK_VERB, TASK_TARGET, TASK_COUNT, TASK_KINDS) = _mission_tables()
"""Mission Card k (MISSION_IDS): its kind (MK_*), pack; where its completing
Trade Action is spent -- MISSION_AT_CIV[k] the pack of a Civilization
Location, or MISSION_AT_MERCHANT[k] a Merchant, the other -1 (L566);
MISSION_REWARD[k] = (Gold, LP, Fame) printed (L1079); MISSION_DISCARD[k] the
mandatory (Gold, LP, Fame) of a discard, zeros for none (L1071); its bonus
attribute (ATTR_* index, L1081). Task j: TASK_VERB[k, j] (TASK_*; -1 none),
TASK_TARGET[k, j] (the Native Group, Treasure Site or Map Tile), TASK_COUNT
[k, j] (kills needed) and TASK_KINDS[k, j, kind] (1 for each Monster kind a
kill task counts: one kind, or every kind of a group such as the Bandits)."""
NATIVE_GROUP_OF = np.array([NATIVE_GROUPS.index(D.REALM.natives[n].group) for n in NATIVE_CHIP_KINDS], dtype=np.int8)
"""Native chip -> its Native Group (constants.NATIVE_GROUPS)."""


def _title_tables():
    side = np.zeros(NUM_TITLES, dtype=np.int8)
    card = np.zeros(NUM_TITLES, dtype=np.int8)
    small = np.zeros(NUM_TITLES, dtype=np.int8)
    need = np.zeros((NUM_TITLES, 4), dtype=np.int16)
    outlaw = np.zeros(NUM_TITLES, dtype=np.int8)
    price = np.zeros(NUM_TITLES, dtype=np.int16)
    reward = np.zeros((NUM_TITLES, 2), dtype=np.int16)
    limit = np.zeros((len(CIV_CARD_IDS), 2), dtype=np.int8)
    civ_pack = np.array([D.PACKS.index(D.REALM.civ_cards[c].pack) for c in CIV_CARD_IDS], dtype=np.int8)
    civ_group = np.array([NATIVE_GROUPS.index(D.REALM.civ_cards[c].group) for c in CIV_CARD_IDS], dtype=np.int8)
    i = 0
    for k, cid in enumerate(CIV_CARD_IDS):
        for n, sd in enumerate(D.REALM.civ_cards[cid].sides):
            limit[k, n] = sd.limit if sd.limit is not None else 0
            for t in sd.titles:
                assert TITLE_IDS[i] == t.id
                card[i], side[i], small[i] = k, n, t.small
                need[i] = (t.min_fame, t.min_lp, t.min_kills, t.min_missions)
                outlaw[i] = -1 if t.outlaw is None else int(t.outlaw)
                price[i], reward[i] = t.price, (t.lp, t.fame)
                i += 1
    return card, side, small, need, outlaw, price, reward, limit, civ_pack, civ_group


(TITLE_CARD, TITLE_SIDE, TITLE_SMALL, TITLE_NEED, TITLE_OUTLAW, TITLE_PRICE, TITLE_REWARD, CIV_LIMIT, CIV_PACK,
 CIV_GROUP) = _title_tables()
"""Title i (TITLE_IDS): its Civilization Card (CIV_CARD_IDS index) and side
(0/1); TITLE_SMALL[i] 1 for a small box (claimed once, L567); TITLE_NEED[i] =
(Fame, LP, Monster kills, missions completed) the claimer must have at
least; TITLE_OUTLAW[i] 1 he must be an Outlaw, 0 he must not, -1 either;
its price in Gold and reward (LP, Fame). Card k: CIV_LIMIT[k, side] the most
titles of that side one Hero may claim (0 no limit, L326), CIV_PACK[k] its
Civilization Location's pack, CIV_GROUP[k] the Native Group that must be
present (L567)."""

# axial step of each direction 0..5 (N, NE, SE, S, SW, NW)
DIR_DQ = np.array([0, 1, 1, 0, -1, -1], dtype=np.int8)
DIR_DR = np.array([-1, -1, 0, 1, 1, 0], dtype=np.int8)


# ================================================================ the action space
# One Discrete(NUM_ACTIONS) space; a block's meaning is given by the pending
# decision (PH_*). The parts of the turns add their blocks after these.
A_TILE = 0                           # + t: the dealt Map Tile t (TILE_IDS index)
A_SPOT = A_TILE + NUM_TILES          # + u * 6 + d: the position beside placed tile u in direction d
A_TURN = A_SPOT + NUM_TILES * NUM_DIRECTIONS   # + side * 6 + rot: the side up and turn of a tile
A_LINEAGE = A_TURN + 2 * NUM_DIRECTIONS        # + i: Lineage Card i (LINEAGE_IDS)
A_CLASS = A_LINEAGE + NUM_LINEAGES             # + i: Class Card i (CLASS_IDS)
A_SIDE = A_CLASS + NUM_CLASSES                 # + s: side s (0 = the data's side 1) of the card just chosen
A_CUBE = A_SIDE + 2                            # + kind: take this printed cube as CUBE_* kind
A_CLEARING = A_CUBE + CUBE_MAGIC + NUM_COLOURS # + c: clearing c (move there, enter the map there, ...)
A_DO = A_CLEARING + NUM_TILES * CLEARINGS_PER_TILE   # + DO_*: an action or reaction
DO_PASS, DO_SNEAK, DO_NOISE, DO_QUICK_REST, DO_SHORT_REST, DO_LONG_REST, DO_HIDE, DO_STAY, DO_ALERT, \
    DO_DONE, DO_LOOT, DO_TRADE, DO_RETIRE = range(13)
NUM_DO = 16
"""Size of the A_DO block (codes 13..15 are combat's, below)."""
A_HEAL = A_DO + NUM_DO                              # + kind: heal a wounded cube of CUBE_* kind; + HEAL_HEART: a Heart
HEAL_HEART = CUBE_MAGIC + NUM_COLOURS
A_SEARCH = A_HEAL + HEAL_HEART + 1            # + h: Search for Hidden Path h of the hero's tile (side up) (L507-L515)
A_SEARCH_SITE = A_SEARCH + MAX_HIDDEN_PER_SIDE  # + pile: Search for that Treasure Site (or body, NUM_SITES + seat) in the clearing (L508, L805)
A_TARGET = A_SEARCH_SITE + NUM_PILES            # + T_*: the equip target (position) of the card being equipped
A_CARD = A_TARGET + NUM_TARGETS                # + c: card c (an Item or Treasure Card instance)
A_EXPLORE = A_CARD + len(CARD_INSTANCES)       # + d: Explore toward direction d of the hero's tile (L583-L585)

# ---------------------------------------------------------------- Loot and Trade (rules/trade.py)
from ..constants import (  # noqa: E402  (Loot and Trade's section keeps its own imports)
    MAX_HEROES as _MAX_HEROES, MONSTER_CHIP_KINDS as _TRADE_CHIP_KINDS, NUM_SITES as _NUM_SITES,
)

A_TRADE_BASE = A_EXPLORE + NUM_DIRECTIONS
A_PILE = A_TRADE_BASE                # + pile: that pile (a Treasure Site, or NUM_SITES + seat: a body): loot it, or share it in a swap (L524, L556)
A_SEAT = A_PILE + NUM_PILES          # + seat: that hero, the partner of a swap (L556)
A_MERCHANT = A_SEAT + _MAX_HEROES    # + m: that Merchant (MERCHANT_IDS), to do commerce with (L557)
A_GOLD = A_MERCHANT + NUM_MERCHANTS  # + GOLD_*: Gold put into a swap (L556)
GOLD_GIVE_1, GOLD_GIVE_5, GOLD_TAKE_1, GOLD_TAKE_5 = range(4)
GOLD_STEP = np.array([1, 5, -1, -5], dtype=np.int16)
"""A_GOLD + i moves GOLD_STEP[i] Gold of the proposed swap: > 0 from the
active hero to the partner, < 0 from the partner to him."""
A_PATH = A_GOLD + GOLD_STEP.shape[0]  # + (tile * 2 + side) * MAX_HIDDEN_PER_SIDE + h: that Hidden Path, shared in a swap (L556)
A_STEP = A_PATH + NUM_TILES * 2 * MAX_HIDDEN_PER_SIDE   # + STEP_*: a step of commerce (L557-L565) or of buying (L560, L993)
STEP_LOOK, STEP_SELL, STEP_REPAIR, STEP_PAY, STEP_HAGGLE = range(5)
A_ANSWER = A_STEP + 5                # + ANSWER_*: the partner's answer to a proposed swap; a Quest's pardon taken or not
ANSWER_REFUSE, ANSWER_ACCEPT = range(2)
A_MISSION = A_ANSWER + 2             # + k: Mission Card k -- take it from the Merchant, complete it, or discard it (L564-L566, L1071)
A_TITLE = A_MISSION + NUM_MISSIONS   # + i: claim title i (L567)
A_TRADE_END = A_TITLE + NUM_TITLES
"""Loot and Trade's own blocks lie in [A_TRADE_BASE, A_TRADE_END)."""

LOOT_FACE = np.array([int(f) for f in D.REALM.dice["loot"].faces], dtype=np.int8)
"""Loot Die, face -> its number; 0 is the grabby hand (L248, L526)."""
HAGGLE_DOOR = -1
HAGGLE_FACE = np.array([HAGGLE_DOOR if f == "door" else int(f) for f in D.REALM.dice["haggle"].faces],
                       dtype=np.int8)
"""Haggle Die, face -> its number, HAGGLE_DOOR for the closed door (L252, L995)."""
KIND_REPAIR = np.array([_card(c).repair or 0 for c in CARD_IDS], dtype=np.int16)
"""Card kind -> the Gold a Merchant asks to repair it when damaged (L565); 0 not armour."""
KIND_PRICED = np.array([_card(c).price is not None for c in CARD_IDS], dtype=np.int8)
"""0 for a Spell Book or Scroll, whose price is the sum of its spells (L559-L560,
L1028, L1424): the spells come with magic (part 2), and until then a Merchant
neither buys nor sells such a card."""
KIND_BACKPACK_SPECIAL = np.array([_card(c).position == "backpack_special" for c in CARD_IDS], dtype=np.int8)
"""Card kind -> 1 for the red Backpack Special symbol: always face up (L532, L960)."""
ATTR_CUNNING, ATTR_WISDOM, ATTR_CHARISMA = (D.ATTRIBUTES.index(a) for a in ("cunning", "wisdom", "charisma"))
LINEAGE_ATTR = np.array([[(sd.cunning, sd.wisdom, sd.charisma) for sd in D.REALM.lineages[i].sides]
                         for i in LINEAGE_IDS], dtype=np.int8)
CLASS_ATTR = np.array([[(sd.cunning, sd.wisdom, sd.charisma) for sd in D.REALM.classes[i].sides]
                       for i in CLASS_IDS], dtype=np.int8)
"""``*_ATTR[card, side, ATTR_*]``: the attribute icons printed on a Lineage
or Class Card side (L351, L989, L1236)."""
MERCHANT_RESPECT = np.array([[a in next(card.merchants[m] for card in D.REALM.setup_cards.values()
                                        if m in card.merchants).respect for a in D.ATTRIBUTES]
                             for m in MERCHANT_IDS], dtype=np.int8)
"""MERCHANT_RESPECT[m, ATTR_*]: 1 for each attribute icon printed by the
Merchant's name (L987; two for some Merchants, Interpretations)."""

# ---------------------------------------------------------------- treasures' powers (rules/treasures.py, L1280-L1484)
GRANT_CHOICE = CUBE_MAGIC + NUM_COLOURS
"""KIND_GRANTS of the Tome of Wizardry: a Magic Cube of the hero's chosen colour (L1472)."""
FREE_ALERT, FREE_TRADE, FREE_LOOT, FREE_LEARN, FREE_ENCHANT, FREE_MOVE, FREE_REST, FREE_SNEAK, FREE_SEARCH = \
    (D.FREE_ACTIONS.index(a) for a in ("alert", "trade", "loot", "learn", "enchant", "move", "rest", "sneak",
                                       "search"))
"""The actions a Symbol makes one of a turn free (``free_used`` bits, L1432-L1448)."""


def _cube_kind(word):
    """A data file's cube word -> CUBE_* kind, GRANT_CHOICE, or -1."""
    if word is None:
        return -1
    named = {"might": CUBE_MIGHT, "speed": CUBE_SPEED, "choice": GRANT_CHOICE}
    return named[word] if word in named else CUBE_MAGIC + D.MAGIC_COLOURS.index(word)


KIND_GIVES = np.array([_cube_kind(getattr(_card(c), "gives", None)) for c in CARD_IDS], dtype=np.int8)
"""Card kind -> the CUBE_* kind the hero holds one more of while the card is
equipped (L1304, L1332, L1362, L1392, L1398, L1400, L1406, L1474); -1 none."""
KIND_GRANTS = np.array([_cube_kind(getattr(_card(c), "grants", None)) for c in CARD_IDS], dtype=np.int8)
"""Card kind -> the CUBE_* kind a one-time card gives for good (Tomes,
Potions of Might and Maneuver, L1384, L1386, L1458-L1470); GRANT_CHOICE the
Tome of Wizardry (L1472); -1 none."""
KIND_ATTRIBUTE = np.array([-1 if getattr(_card(c), "attribute", None) is None
                           else D.ATTRIBUTES.index(_card(c).attribute) for c in CARD_IDS], dtype=np.int8)
"""Card kind -> the ATTR_* it adds one icon of while equipped (L1294, L1316, L1420); -1 none."""
KIND_FREE = np.array([-1 if getattr(_card(c), "free", None) is None
                      else D.FREE_ACTIONS.index(_card(c).free) for c in CARD_IDS], dtype=np.int8)
"""Card kind -> the FREE_* action it makes one of a turn free while equipped
(the Symbols, L1432-L1448); -1 none."""
KIND_SEARCH = np.array([-1 if getattr(_card(c), "search", None) is None
                        else D.CLEARING_TYPES.index(_card(c).search) for c in CARD_IDS], dtype=np.int8)
"""Card kind -> the CLEAR_* type of clearing where, equipped, it rerolls one
Search Die a Search Action (L1326, L1336, L1354, L1356); -1 none."""
TAKES_ANY = NUM_COLOURS
KIND_TAKES = np.array([-1 if getattr(_card(c), "takes", None) is None
                       else TAKES_ANY if _card(c).takes == "any" else D.MAGIC_COLOURS.index(_card(c).takes)
                       for c in CARD_IDS], dtype=np.int8)
"""Card kind -> the Magic Cube colour it takes in Hero Tactics (TAKES_ANY: any
colour, the Shaman's Kaftan, L1410); -1 none (L1288, L1324, L1338, L1414, L1476)."""
KIND_MIXES = np.array([[D.MAGIC_COLOURS.index(x) for x in _card(c).mixes] if getattr(_card(c), "mixes", None)
                       else [-1, -1] for c in CARD_IDS], dtype=np.int8)
"""Card kind -> the two Magic Cube colours the cube it takes converts one of
the hero's cubes between (the Magical Bowl of Mixing, L1368); -1, -1 none."""
KIND_CARD_FIRST = np.array([min(c for c, (k, _) in enumerate(CARD_INSTANCES) if k == kind)
                            for kind in range(len(CARD_IDS))], dtype=np.int16)
KIND_CARD_END = np.array([1 + max(c for c, (k, _) in enumerate(CARD_INSTANCES) if k == kind)
                          for kind in range(len(CARD_IDS))], dtype=np.int16)
"""The card instances of kind k are KIND_CARD_FIRST[k] .. KIND_CARD_END[k] - 1
(CARD_INSTANCES lists each kind's copies together), so a power asks only its
own cards whether they are equipped."""
assert all(CARD_INSTANCES[c][0] == k for k in range(len(CARD_IDS))
           for c in range(KIND_CARD_FIRST[k], KIND_CARD_END[k]))
GIFT_KINDS = np.array([k for k in range(len(CARD_IDS)) if KIND_GIVES[k] >= 0], dtype=np.int16)
assert all(sum(KIND_CARD_END[k] - KIND_CARD_FIRST[k] for k in GIFT_KINDS if KIND_GIVES[k] == g) <= 1
           for g in range(int(KIND_GIVES.max()) + 1)), \
    "one card at most gives each cube kind: a wounded gift cube is remembered per kind (state gift_wounded)"
ATTRIBUTE_KINDS = np.array([k for k in range(len(CARD_IDS)) if KIND_ATTRIBUTE[k] >= 0], dtype=np.int16)
FREE_KINDS = np.array([k for k in range(len(CARD_IDS)) if KIND_FREE[k] >= 0], dtype=np.int16)
SEARCH_KINDS = np.array([k for k in range(len(CARD_IDS)) if KIND_SEARCH[k] >= 0], dtype=np.int16)
TAKES_KINDS = np.array([k for k in range(len(CARD_IDS)) if KIND_TAKES[k] >= 0], dtype=np.int16)
"""The card kinds with each power (KIND_GIVES, KIND_ATTRIBUTE, KIND_FREE, KIND_SEARCH, KIND_TAKES)."""
TAKES_CARDS = np.array([c for c in range(len(CARD_KIND)) if KIND_TAKES[CARD_KIND[c]] >= 0], dtype=np.int64)
"""The cards that take a Magic Cube (a hot loop of Hero Tactics reads these, not every card)."""
KIND_AUTO = np.array([(getattr(_card(c), "auto", None) == "mandatory", getattr(_card(c), "auto", None) == "optional")
                      for c in CARD_IDS], dtype=np.int8)
"""KIND_AUTO[k] = (1 if a mandatory, 1 if an optional might box of weapon k is
filled by itself, L1282, L1292, L1366)."""
KIND_ONE_TIME = np.array([getattr(_card(c), "use", "none") == "one_time" for c in CARD_IDS], dtype=np.int8)
"""Card kind -> 1 for a one-time use card (L916)."""
KIND_ENCHANTS = np.array([-1 if getattr(_card(c), "colour", None) is None
                          else D.MAGIC_COLOURS.index(_card(c).colour) for c in CARD_IDS], dtype=np.int8)
"""Card kind -> the Magic Cube colour of an Enchanted Treasure's enchantment
circle (L1340); -1 every other card."""


def _site_feature(name):
    return np.array([[name in side.loot[site].features for side in card.sides]
                     for card in D.REALM.setup_cards.values() for site in card.sites], dtype=np.int8)


SITE_LABYRINTH = _site_feature("labyrinth")
SITE_MASSIVE_DOOR = _site_feature("massive_door")
SITE_ACTIVE_WRAITH = _site_feature("active_wraith")
"""``SITE_*[site, setup side]``: the Catacombs' Labyrinth (L1236), the
Chamber's Massive Door (L1240), the Shrine's active Wraith (L1252, L1278) on
that side of the site's Terrain Setup Card."""
TRADE_CHIP_KIND = np.array(_TRADE_CHIP_KINDS, dtype=np.int8)
"""Monster chip -> its kind (a Guardian summoned by the Wraith's watch, L1252)."""
assert NUM_MERCHANTS <= 15, "merchant_looked / merchant_closed hold one bit per Merchant (state.py)"
assert _NUM_SITES + _MAX_HEROES == NUM_PILES

# ---------------------------------------------------------------- combat (rules/combat.py)
from ..constants import (  # noqa: E402  (combat's section keeps its own imports)
    MONSTER_CHIP_KINDS as _CHIP_KINDS, MONSTER_IDS as _MONSTER_IDS, NUM_MONSTER_CHIPS as _NUM_MON,
    NUM_NATIVE_CHIPS as _NUM_NAT,
)

NUM_FOES = _NUM_MON + _NUM_NAT
"""Combat's foes: foe f < NUM_MONSTER_CHIPS is Monster chip f, the rest
Native chip f - NUM_MONSTER_CHIPS (targeted like a Monster, L1003)."""
BOX_MIGHT, BOX_ATTACK, BOX_MANEUVER = range(3)
"""The boxes a cube is placed in during Hero Tactics (L714-L718): a red might
box of the equipped weapon, an attack speed or a maneuver speed box of the
Lineage and Class Cards."""
NUM_BOXES = 3
AIMB_HEAD, AIMB_TORSO = range(2)
"""Player vs. Player's aim boxes (L1186): the head position, the torso
(the chest position, T_CHEST)."""
DO_UNHIDE = 13        # A_DO: become unhidden at the start of the Challenge step (L688)
DO_THROW = 14         # A_DO: this round's attack throws the melee-or-ranged weapon (L928)
DO_DOOR = 15          # A_DO: in the Target step, target the Chamber's closed Massive Door (L1240)
DOOR_FOE = NUM_FOES
"""``hero_target`` of a hero who targets the Chamber's Massive Door (L1240):
a target of the combat beside the foes, never a foe (it never attacks)."""
CHAMBER = SITE_IDS.index("chamber")
"""The Treasure Site whose setup side may show the Massive Door (L1238-L1240)."""

A_COMBAT_BASE = A_TRADE_END
A_FOE = A_COMBAT_BASE                # + f: foe f (a Monster chip, then the Native chips)
A_BOX = A_FOE + NUM_FOES             # + BOX_*: place a cube of the box's colour in that box / wound such a cube placed there
A_CROSS = A_BOX + NUM_BOXES          # + BOX_*: place a cube of the other kind there (a Speed Cube in a might box, a Might Cube in a speed box: L1308-L1314, L1482, L1504) / wound such a cube
A_AIM = A_CROSS + NUM_BOXES          # + AIMB_*: Player vs. Player: put one Speed Cube in that aim box of one's Lineage Card (L1186)
A_COMBAT_END = A_AIM + 2
"""Combat's own blocks lie in [A_COMBAT_BASE, A_COMBAT_END)."""

ATK_MELEE, ATK_RANGED, ATK_FIRE, ATK_SPELL = range(4)
"""A chip side's attack (monsters.txt): melee, ranged (arrow, L753), dragon
fire (a non-magical ranged attack on up to ``targets`` Heroes, L1266), or a
spell (the magic part's)."""


def _foe_tables():
    kinds = {"melee": ATK_MELEE, "ranged": ATK_RANGED, "fire": ATK_FIRE, "spell": ATK_SPELL}
    chips = [D.REALM.monsters[_MONSTER_IDS[k]] for k in _CHIP_KINDS] + \
        [D.REALM.natives[n] for n in NATIVE_CHIP_KINDS]
    side = np.zeros((NUM_FOES, 2, 7), dtype=np.int8)
    health = np.array([c.health for c in chips], dtype=np.int8)
    armored = np.array([c.armored for c in chips], dtype=np.int8)
    fame = np.array([c.fame for c in chips], dtype=np.int16)
    elemental = np.array([getattr(c, "kind", "") == "elemental" for c in chips], dtype=np.int8)
    # Natives count as unique here: Endless Monsters never returns them either (L1166)
    unique = np.array([getattr(c, "unique", True) for c in chips], dtype=np.int8)
    for f, c in enumerate(chips):
        for s, cs in enumerate((c.front, c.back)):
            side[f, s] = (kinds[cs.attack], cs.length, cs.speed, cs.damage or 0, cs.swords or 0,
                          cs.maneuver, cs.targets)
    return side, health, armored, fame, elemental, unique


FOE_SIDE, FOE_HEALTH, FOE_ARMORED, FOE_FAME, FOE_ELEMENTAL, FOE_UNIQUE = _foe_tables()
FOE_FLIES = np.array([D.REALM.monsters[_MONSTER_IDS[k]].flying for k in _CHIP_KINDS] + [False] * len(NATIVE_CHIP_KINDS),
                     dtype=np.int8)
SHAPE_OK = np.array([not (m.undead or getattr(m, "unique", True) or getattr(m, "kind", "") == "elemental")
                     for m in [D.REALM.monsters[_MONSTER_IDS[k]] for k in _CHIP_KINDS]]
                    + [False] * len(NATIVE_CHIP_KINDS), dtype=np.int8)
"""Foe f -> 1 for a flying Monster (L1091); 1 for a chip a Shape Shift may
take (L1564, L1258: no undead, no unique Monster -- no Guardian, leader --
and no Elemental, whose chips wait in their own pool, L1550; no Native)."""
"""FOE_SIDE[f, side, SD_*]: the combat values of foe f's chip, side 0 the
name side, 1 the back (L726); FOE_HEALTH[f]: printed health (L757);
FOE_ARMORED[f]: a shield icon (L751); FOE_FAME[f]: the Fame for killing it
(L799); FOE_ELEMENTAL[f]: an Elemental, back to the pool when killed (L799);
FOE_UNIQUE[f]: a unique Monster (the Guardians and the leaders, L1258) or a
Native, which the optional Endless Monsters never returns to the tray (L1166)."""
SD_ATTACK, SD_LENGTH, SD_SPEED, SD_DAMAGE, SD_SWORDS, SD_MANEUVER, SD_TARGETS = range(7)
"""FOE_SIDE columns: ATK_* kind, attack length (0 when none printed, L735),
attack speed, the red cube's damage, sword icons (L750), maneuver speed, and
how many Heroes the attack strikes (L728)."""

WEAPON_MELEE, WEAPON_RANGED, WEAPON_EITHER = 1, 2, 3
"""KIND_WEAPON_USE: melee, ranged, melee or ranged (thrown as ranged, L928); 0 not a weapon."""


def _weapon_tables():
    use = {"melee": WEAPON_MELEE, "ranged": WEAPON_RANGED, "melee_or_ranged": WEAPON_EITHER, None: 0}
    cards = [_card(c) for c in CARD_IDS]
    kind = np.array([use[c.weapon] for c in cards], dtype=np.int8)
    length = np.array([(c.length + c.length)[:2] if c.length else (0, 0) for c in cards], dtype=np.int8)
    might = np.array([(c.might_mandatory, c.might_optional, c.might_two_handed) for c in cards], dtype=np.int8)
    swords = np.array([c.swords or 0 for c in cards], dtype=np.int8)
    armor = np.array([c.armor or 0 for c in cards], dtype=np.int8)
    speed_box = np.array([c.speed_mandatory or 0 for c in cards], dtype=np.int8)
    return kind, length, might, swords, armor, speed_box


KIND_WEAPON_USE, KIND_LENGTH, KIND_MIGHT_BOXES, KIND_SWORDS, KIND_ARMOR, KIND_SPEED_BOX = _weapon_tables()
"""Card kind -> WEAPON_*; KIND_LENGTH[k] = (melee length, thrown length) (a
one-length weapon has it twice, L922, L928); KIND_MIGHT_BOXES[k] =
(mandatory, optional, optional only two-handed) red boxes (L722, L950);
KIND_SWORDS[k]: sword icons (L750); KIND_ARMOR[k]: the armour value in the
shield icon, 0 for no armour (L918, L761-L763); KIND_SPEED_BOX[k]: the
weapon's required boxes that take a Speed Cube in lieu of a Might Cube (the
Warblade's, L1482): mandatory might boxes beside KIND_MIGHT_BOXES[k, 0]."""


def _speed_boxes(ids, cards):
    out = np.zeros((len(ids), 2, 2), dtype=np.int8)
    for i, cid in enumerate(ids):
        for s, side in enumerate(cards[cid].sides):
            out[i, s] = (side.attack_boxes, side.maneuver_boxes)
    return out


LINEAGE_SPEED_BOXES = _speed_boxes(LINEAGE_IDS, D.REALM.lineages)
CLASS_SPEED_BOXES = _speed_boxes(CLASS_IDS, D.REALM.classes)
"""``*_SPEED_BOXES[card, side] = (attack speed boxes, maneuver speed boxes)``
printed on the Lineage or Class Card (L358, L718)."""

HIT_BLANK, HIT_EQUAL, HIT_HIT = 0, 1, 2
"""Hit Die faces, least favourable first (the Golden Rule, L216, L740-L743)."""
HIT_DIE_FACE = np.array([{"blank": HIT_BLANK, "equal": HIT_EQUAL, "hit": HIT_HIT}[f]
                         for f in D.REALM.dice["hit"].faces], dtype=np.int8)
RANGED_DIE_FACE = np.array([int(f) for f in D.REALM.dice["ranged"].faces], dtype=np.int8)
"""Hit Die face -> HIT_*; Ranged Attack Die face -> its damage change (L753)."""
RANGED_LOW = int(RANGED_DIE_FACE.min())
RANGED_HIGH = int(RANGED_DIE_FACE.max())
"""The worst and the best Ranged Attack Die results (L753)."""


@rules_jit
def hit_passes(f, equal):
    """A Hit Die showing f lets an attack hit (L740-L743: the less favourable
    die counts, the Golden Rule, L216): a hit, or an equal sign where the
    speeds are equal (``equal`` nonzero); a blank never."""
    return f == HIT_HIT or (f == HIT_EQUAL and equal != 0)

# ---------------------------------------------------------------- magic outside combat (rules/magic.py)
A_MAGIC_BASE = A_COMBAT_END
A_SPELL = A_MAGIC_BASE               # + sp: Spell Card sp (a starting spell to take; an attached spell to learn, L203, L538)
A_ENCHANT = A_SPELL + NUM_SPELLS     # + colour: an Enchant Action toward a Magic Cube of that colour on the tile (L572-L575)
A_UNCURSE = A_ENCHANT + NUM_COLOURS  # + q * NUM_CURSES + k: remove hero q's curse k for 5 Gold (L568)
RR_GAGE, RR_DIVINATION, RR_DUST, RR_MASTERY = range(4)
"""Reroll sources (PH_REROLL): the Gage of the Thief (one Loot Die, L1342),
Divination on the hero (any of the Loot Dice, L1528), the Dust of Destiny
(one die or the whole roll, one-time, L1330), the Conjurer's Mastery (Open
Gate's or Teleport's die, L1214)."""
NUM_RR_SOURCES = 4
MAX_ROLL_DICE = 2
"""Dice of a roll waiting on PH_REROLL (``roll_dice``)."""
REROLL_WAYS = MAX_ROLL_DICE + 1
"""A reroll takes die k (k < MAX_ROLL_DICE) or, k = MAX_ROLL_DICE, every die of the roll."""
A_REROLL = A_UNCURSE + _MAX_HEROES * NUM_CURSES  # + src * REROLL_WAYS + k: reroll die k (or all, k = MAX_ROLL_DICE) with source RR_* src
A_DISPEL = A_REROLL + NUM_RR_SOURCES * REROLL_WAYS   # + sp: remove permanent Spell Card sp from the hero it lies on for 5 Gold (L568)
A_MAGIC_END = A_DISPEL + NUM_SPELLS
"""Magic's own blocks lie in [A_MAGIC_BASE, A_MAGIC_END)."""
(ROLL_NONE, ROLL_LOOT, ROLL_GATE, ROLL_TELEPORT, ROLL_SEARCH, ROLL_LEARN, ROLL_HAGGLE, ROLL_STRUCK,
 ROLL_ATTACK, ROLL_RANGED, ROLL_HIDE, ROLL_NOISE, ROLL_TRAP, ROLL_CURSE, ROLL_DESTINATION, ROLL_SUMMON,
 ROLL_WRAITH, ROLL_TENTACLE, ROLL_OUTLAW) = range(19)
"""``roll_kind``: the roll waiting on PH_REROLL before it applies: none; a
Loot Action's Loot Dice (L526); the random Gate clearing of Open Gate
(L1516); the random clearing of Teleport's tile (L1522); a Search Action's
Search Dice (1 a spyglass, L511); a Learn Action's Learn Dice (LEARN_*,
L541-L543); a haggle's Haggle Dice (HAGGLE_FACE's faces, L993); the Hit Dice
of a Monster's attack, or a Monster's spell, that hit a hero (HIT_*,
L740-L743); the Hit Dice of a hero's attack -- his weapon's, his targeted
spell's on one target (HIT_*); the two Ranged Attack Dice of a ranged hit
(their changes to the damage, L753); the two Monster Dice of a hide attempt
(1 a Monster symbol, L597); the Summoning Dice of a Make Noise roll (L471:
its two symbol dice shown, the numbered dice rolled again with the whole
roll); the Action Cube a Hidden Trap wounds (L1248: HEAL_HEART or the cube
kind); the Curse Table's curse (CURSE_IDS index, L543); the random clearing
the Titan's Teleport or the Teleport curse sends a hero to (L1103, L1274);
the Summon curse's gray numbered die (L1105: the Wandering Monsters it
brings); the Active Wraith's Local Monster Die after a loot (L1252: its
BLACK_SYMBOL face, SYM_SITE bringing the Wraith); the Hit Dice of a
tentacle newly placed (L1518: HIT_*, ``roll_target`` the card's index in
TENTACLE_CARDS * NUM_TENTACLES + the tentacle); the two Monster Dice of
an Outlaw Token at a retirement (L821-L824: 1 a symbol; ``roll_target`` the
tokens left to roll after it).
From the Search on, a die goes for or against the party asked
(``treasures.die_fails``), and only dice against him may be rerolled."""
NUM_ROLL_KINDS = 19
HIDE_REACTION, HIDE_BLOCK, HIDE_CLEANUP = range(3)
"""``roll_then`` of a hide attempt (ROLL_HIDE): the Hide reaction of Monster
Activation (L639), which only hides; one against a block (L459, L599),
failing it the hero is blocked; the roll to stay hidden in Cleanup (L775),
failing it he is unhidden."""
ATTACK_WEAPON, ATTACK_SPELL, ATTACK_SWORD, ATTACK_CHASM, ATTACK_ON_HERO, ATTACK_CHIP = range(6)
"""``roll_then`` of an attack's Hit Dice (ROLL_ATTACK) or Ranged Attack Dice
(ROLL_RANGED): the attack they go on with -- a hero's weapon
(``strike.weapon_lands``, ``strike.weapon_damage``); his targeted spell,
the Fireball's dice included (``spells.cast_targets``); his Air Sword
(``spells.sword_lands``); a Fiery Chasm (``spells.chasm_strikes``); a hit on
a hero being resolved (``combat.monster_attack``, its Ranged Attack Dice
at AS_HURT); a chip striking a chip where a Shape Shifted hero's is one of
them (``spells.chip_lands``, ``roll_chips``; L1564)."""
DEST_SPELL, DEST_CURSE, DEST_CURSE_SPELL, DEST_CURSE_FOE = range(4)
"""``roll_then`` of a random clearing (ROLL_DESTINATION): the Titan's
Teleport moves its target (L1274); the Teleport curse its hero (L1103); the
Teleport curse a hero's Curse spell gave a hero (Player vs. Player, L1500)
moves him as a spell does (``spells.spell_move``). ``roll_then`` of the
Curse Table (ROLL_CURSE): DEST_CURSE_SPELL where a hero's Curse spell
rolled it for a hero (``spells.curse_hero``; ``roll_target`` AIM_HERO + the
hero), DEST_CURSE_FOE for a foe (``spells.curse_foe``; ``roll_target`` the
foe), -1 for a hero's own roll (``magic.curse_roll``)."""

OUTLAW_AT_DEATH, OUTLAW_CHOSEN, OUTLAW_AT_END = -1, 0, 1
"""The retirement or death an Outlaw Token's Monster Dice are rolled in
(``fate.outlaw_rolls``; ``roll_then`` of ROLL_OUTLAW): a death, where the
dice fall as they are (his possessions are his body, Interpretations); a
retirement he chose in the Fate phase; the end of the game's (L833), after
which the end goes on (``fate.end_game``)."""
SEEN_ADVANCE, SEEN_RECEIVED, SEEN_LOOT, SEEN_MERCHANT = range(4)
"""``seen_then``: where the look that saw a Cursed Treasure resumes once its
curse, which waited on its viewer's Dust of Destiny (L1320, L1330), has
applied: the turn goes on as it stood (a card gained, placed at once:
``actions.settle_gained``, which the stage runs again); the cards received
are placed (``trade.place_received``); the looter's look at the pile's top
three (``trade.loot_grabby``); the Look at a Merchant's stock, then the
commerce's menu (``trade.look_at_merchant``). -1: no look waits."""
VIEW_POSED = -2
"""``treasures.view_instant``'s answer where a Cursed Treasure's curse waits
on a decision (the look resumes by ``seen_then``)."""
ARRIVE_NONE, ARRIVE_ACTED, ARRIVE_POSED = range(3)
"""``treasures.arrive_instant``'s answer: the card is no instantaneous
treasure; it acted (look again at what the hero received); it acted and a
decision waits (a Cursed Treasure's curse on its Dust of Destiny)."""

SPELL_KIND = np.array([k for k, _ in SPELL_INSTANCES], dtype=np.int16)
SPELL_FROM = np.array([deck for _, deck in SPELL_INSTANCES], dtype=np.int8)
"""Spell Card -> its kind (SPELL_IDS index); the deck it belongs to (SPELL_START, SPELL_DECK)."""
_COPIES = max(int((SPELL_KIND == k).sum()) for k in range(len(SPELL_IDS)))
SPELL_CARDS_OF = np.full((len(SPELL_IDS), _COPIES), -1, dtype=np.int64)
"""SPELL_CARDS_OF[kind]: the Spell Cards of that kind, -1 padded (a spell's
card in play is looked up among its few copies, not all the cards)."""
for _sp, _k in enumerate(SPELL_KIND):
    SPELL_CARDS_OF[_k, int((SPELL_CARDS_OF[_k] >= 0).sum())] = _sp
UNIVERSAL = -1
SPELL_COLOUR = np.array([UNIVERSAL if D.REALM.spells[sid].colour == "universal"
                         else D.MAGIC_COLOURS.index(D.REALM.spells[sid].colour) for sid in SPELL_IDS], dtype=np.int8)
"""Spell kind -> its colour (data.MAGIC_COLOURS index); UNIVERSAL for the
universal spells any caster may use (L1490)."""
SPELL_PRICE = np.array([D.REALM.spells[sid].price for sid in SPELL_IDS], dtype=np.int16)
"""Spell kind -> base price (L1028): a Spell Book's or Scroll's is the sum of its spells'."""
KIND_SPELLS = np.array([getattr(_card(c), "spells", 0) or 0 for c in CARD_IDS], dtype=np.int8)
"""Card kind -> Spell Cards drawn under it when revealed (a Spell Book or Scroll, L1424); 0 others."""
LINEAGE_SPELLS = np.array([[side.spells for side in D.REALM.lineages[i].sides] for i in LINEAGE_IDS], dtype=np.int8)
CLASS_SPELLS = np.array([[side.spells for side in D.REALM.classes[i].sides] for i in CLASS_IDS], dtype=np.int8)
"""``*_SPELLS[card, side]``: starting spells the card lets the hero take from
the Hero Starting Spell deck (L203; the Elf's, L1200)."""
LEARN_BLANK, LEARN_BOOK, LEARN_CURSE = 0, 1, 2
LEARN_FACE = np.array([{"blank": LEARN_BLANK, "book": LEARN_BOOK, "curse": LEARN_CURSE}[f]
                       for f in D.REALM.dice["learn"].faces], dtype=np.int8)
"""Learn Die face -> LEARN_* (L260: three books, two blanks, one curse)."""
CURSE_INSTANT = np.array([D.REALM.curses[c].kind == "instant" for c in CURSE_IDS], dtype=np.int8)
"""Curse -> 1 for the two instant curses (L1103), never held."""
CURSE_OF_ROLL = np.array([CURSE_IDS.index(next(c for c in CURSE_IDS if D.REALM.curses[c].roll == r))
                          for r in range(1, 7)], dtype=np.int8)
"""d6 result - 1 -> the curse it gives on the Curse Table (data/curses.txt)."""
CURSE_TELEPORT, CURSE_SUMMON, CURSE_SLOTH, CURSE_CLUMSINESS, CURSE_WEAKNESS, CURSE_MISFORTUNE = (
    CURSE_IDS.index(c) for c in ("teleport", "summon", "sloth", "clumsiness", "weakness", "misfortune"))
REMOVE_PRICE = 5
"""Gold to remove one curse at a Civilization Location (L568)."""

# ---------------------------------------------------------------- spells cast in combat (rules/spells.py)
ANY_COLOUR = NUM_COLOURS
"""SPELL_BOX code of a multi-colour box: any Magic Cube covers it (L723)."""
MAX_SPELL_BOXES = max(len(D.REALM.spells[sid].boxes) for sid in SPELL_IDS)
AIM_TARGETED, AIM_SELF_OR_OTHER, AIM_SELF, AIM_NONE = range(4)
"""How a spell is aimed (L1030-L1034): targeted (it must hit), self or other
(it need not hit), self, or no target at all (it affects the clearing)."""
DUR_INSTANT, DUR_COMBAT, DUR_TURN, DUR_PERMANENT = range(4)
"""A spell's duration (L1040-L1046)."""
UNDEAD_ANY, UNDEAD_IMMUNE, UNDEAD_ONLY = range(3)
"""Spells marked with the undead symbol: the undead are immune (L1065); or
spells that touch the undead alone (Rule Undead, Turn Undead)."""
SPELLS_AIDING = frozenset({"break_spells", "open_gate", "teleport", "vapor_form"})
"""Targeted spells a hero may aim at another hero without Player vs. Player:
they undo, move or shield, never harm (L712 "for beneficial purposes";
Interpretations, "Spells aimed at heroes"). Every self-or-other spell aids."""
SPELLS_BUILT = frozenset({
    "break_spells", "affliction", "curse", "fiery_chasm", "envenom", "illusion", "anti_magic", "calm",
    "iron_skin", "strength", "fireball", "soul_save", "heal", "life_armor", "turn_undead", "peace",
    "hesitation", "disorient", "charm", "trail_blaze", "natures_help", "fly", "open_gate", "teleport",
    "confuse", "air_sword", "dark_matter", "move_earth", "vapor_form", "tentacles", "discord", "floating_disk",
    "divination", "rule_undead", "elemental", "shape_shift",
})
"""The spells whose effect the rules core has: only these are offered to cast
(RULES.md marks the others "not yet implemented")."""


def _spell_tables():
    aims = {"targeted": AIM_TARGETED, "self_or_other": AIM_SELF_OR_OTHER, "self": AIM_SELF, "none": AIM_NONE}
    durs = {"instantaneous": DUR_INSTANT, "combat": DUR_COMBAT, "turn": DUR_TURN, "permanent": DUR_PERMANENT}
    und = {"-": UNDEAD_ANY, "immune": UNDEAD_IMMUNE, "only": UNDEAD_ONLY}
    n = len(SPELL_IDS)
    box = np.full((n, MAX_SPELL_BOXES), -1, dtype=np.int8)
    wound = np.full(n, -1, dtype=np.int8)
    cols = np.zeros((n, 9), dtype=np.int8)
    for k, sid in enumerate(SPELL_IDS):
        sp = D.REALM.spells[sid]
        for i, (colour, wounds) in enumerate(sp.boxes):
            box[k, i] = ANY_COLOUR if colour == "any" else D.MAGIC_COLOURS.index(colour)
            if wounds:
                wound[k] = i
        aiding = sp.target == "self_or_other" or sid in SPELLS_AIDING
        cols[k] = (aims[sp.target.split(":")[0]], sp.targets, durs[sp.duration], sp.form == "ranged", sp.length, sp.speed,
                   und[sp.undead], aiding, sid in SPELLS_BUILT)
    return box, wound, cols


SPELL_BOX, SPELL_WOUND_BOX, _SPELL_COLS = _spell_tables()
"""SPELL_BOX[kind, i]: box i of the spell's card, a colour or ANY_COLOUR; -1
past its last box. SPELL_WOUND_BOX[kind]: the box with the wound symbol (its
cube is wounded in Cleanup, L779); -1 none."""
SPELL_AIM, SPELL_TARGETS, SPELL_DURATION, SPELL_RANGED, SPELL_LENGTH, SPELL_SPEED, SPELL_UNDEAD, SPELL_AIDS, \
    SPELL_BUILT = (np.ascontiguousarray(_SPELL_COLS[:, i]) for i in range(9))
"""Per spell kind: AIM_*; targets it may have (L1030); DUR_*; 1 a ranged
attack (L1038); attack length (L734); attack speed of a Monster casting it
(L1502); UNDEAD_*; 1 a hero may aim it at another hero without Player vs.
Player (SPELLS_AIDING); 1 its effect is built (SPELLS_BUILT)."""
(SP_BREAK_SPELLS, SP_AFFLICTION, SP_CURSE, SP_DARK_MATTER, SP_RULE_UNDEAD, SP_FIERY_CHASM, SP_FLOATING_DISK,
 SP_OPEN_GATE, SP_TENTACLES, SP_AIR_SWORD, SP_TELEPORT, SP_DIVINATION, SP_ENVENOM, SP_ILLUSION, SP_ANTI_MAGIC,
 SP_VAPOR_FORM, SP_NATURES_HELP, SP_TRAIL_BLAZE, SP_MOVE_EARTH, SP_CALM, SP_ELEMENTAL, SP_IRON_SKIN, SP_STRENGTH,
 SP_FLY, SP_FIREBALL, SP_SHAPE_SHIFT, SP_SOUL_SAVE, SP_HEAL, SP_LIFE_ARMOR, SP_TURN_UNDEAD, SP_PEACE,
 SP_HESITATION, SP_CONFUSE, SP_CHARM, SP_DISORIENT, SP_DISCORD) = range(len(SPELL_IDS))
assert SPELL_IDS[SP_DISCORD] == "discord" and SPELL_IDS[SP_FIREBALL] == "fireball"
FOE_SPELL = np.array([[SPELL_IDS.index(cs.spell) if cs.spell else -1 for cs in (c.front, c.back)]
                      for c in [D.REALM.monsters[_MONSTER_IDS[k]] for k in _CHIP_KINDS]]
                     + [[-1, -1]] * len(NATIVE_CHIP_KINDS), dtype=np.int8)
"""FOE_SPELL[f, side]: the spell kind a spell-casting side casts (the Demon's
Fiery Chasm, the Lich's Vapor Form, the Titan's Teleport, L1260-L1274); -1."""
MONSTER_SPELLS_BUILT = frozenset({"fiery_chasm", "teleport", "vapor_form"})
"""The Monster spells whose effect the rules core has: a side casting any
other would not strike (every one the data names is built)."""
SPELL_BOX_COUNT = np.array([int((SPELL_BOX[k] >= 0).sum()) for k in range(len(SPELL_IDS))], dtype=np.int8)
"""Spell kind -> the boxes on its card (a Dark Matter'd caster's speed, L1502)."""
FOE_SPELL_BUILT = np.array([[k >= 0 and SPELL_IDS[k] in MONSTER_SPELLS_BUILT for k in row] for row in FOE_SPELL],
                           dtype=np.int8)
AIM_HERO = NUM_FOES + 1
"""A target code ``hero_target`` / ``more_targets`` hold for hero q: AIM_HERO + q
(a foe is its index, the Massive Door DOOR_FOE)."""
CAST_NONE, CAST_PLACED, CAST_ASKING, CAST_DONE, CAST_CANCELED = range(5)
"""``cast_stage``: no cast; the Spell Card covered in Hero Tactics; its
target heroes are being asked to accept the hit (PH_ACCEPT, L1032:
``cast_asked``, ``cast_accepted``); cast (resolved: its wound box is wounded
in Cleanup, L779); canceled (a wound emptied a box before it was cast, L789;
a Confuse hit its caster, L1590)."""
DIS_DORMANT, DIS_SLOW = 1, 2
"""``spell_mark`` bits of a Disorient in play (L1594): its target may not
attack until targeted or hit; its next attack is at -2 speed."""
LIFE_ARMOR_DAMAGED = 1
"""``spell_mark`` of a Life Armor whose armour is damaged (L1578, L762)."""
LIFE_ARMOR_HIT = -2
"""``atk_armor`` of a hit taken on Life Armor (it must be hit first, L1578)."""
FIREBALL_DAMAGE = 2
"""Fireball's base damage, with 1 sword on each of several targets, 2 on one (L1562)."""
HEAL_CUBES = 2
"""Cubes (or a Monster's wounds) the Heal spell heals (L1576)."""
LIFE_ARMOR = 2
"""The strength of Life Armor's weightless armour (L1578)."""
PERM_ACTIVE = 1
"""``spell_mark`` bit of a permanent spell in play: active -- cast or
activated, or its target stood in a tile enchanted with its colour -- until
the next battle phase begins (L1046-L1055, L1602)."""
TELEPORT_REACH = 2
"""Teleport sends its target to a Map Tile up to two tiles away (L1522)."""
MOVE_EARTH_REACH = 1
"""Move Earth turns the caster's Map Tile or an adjacent one (L1546)."""
VAPOR_CARDS = np.array([sp for sp in range(NUM_SPELLS) if SPELL_KIND[sp] == SP_VAPOR_FORM], dtype=np.int64)
"""The Spell Cards of Vapor Form (L1536)."""
SHAPE_CARDS = np.array([sp for sp in range(NUM_SPELLS) if SPELL_KIND[sp] == SP_SHAPE_SHIFT], dtype=np.int64)
"""The Spell Cards of Shape Shift (L1564)."""
DISCORD_CARDS = np.array([sp for sp in range(NUM_SPELLS) if SPELL_KIND[sp] == SP_DISCORD], dtype=np.int64)
"""The Spell Cards of Discord (L1596): ``spell_on`` holds one of its two
Monsters, ``spell_mark`` the other (a foe index fits the int8 mark)."""
assert NUM_FOES < 128
TENTACLE_CARDS = np.array([sp for sp in range(NUM_SPELLS) if SPELL_KIND[sp] == SP_TENTACLES], dtype=np.int64)
"""The Spell Cards of Tentacles (L1518), in the order of ``tentacle_on``'s rows."""
NUM_TENTACLES = 4
"""Tentacles a cast of Tentacles places (L1518)."""
TENT_UNROLLED, TENT_MISS, TENT_ATTACK, TENT_MANEUVER = -1, 0, 1, 2
"""``tentacle_hit``: a tentacle placed whose Hit Dice are still to roll; a
miss; a single hit (-1 to its target's attack speed); a double hit (-1 to
its maneuver speed) (L1518)."""
TENT_NONE, TENT_LEFT = -1, -2
"""``tentacle_on`` beside a foe: not placed; left where it lay, on a target
dead or gone from the fight (L1518)."""
LICH_VAPOR_ON, LICH_VAPOR_ACTIVE = 1, 2
"""``lich_vapor`` bits of a hero: the Lich's Vapor Form lies on him (it has
no Spell Card, L1270); it is active (as PERM_ACTIVE of a card)."""
AIR_SWORD_MIGHT, AIR_SWORD_SWORDS, AIR_SWORD_SPEED, AIR_SWORD_LENGTH = 2, 1, 2, 6
"""The Air Sword: might 2, one sword icon, attack speed 2, attack length 6 (L1520)."""

NUM_ACTIONS = A_MAGIC_END

# the decision now pending (``phase``)
PH_NONE = 0
PH_TILE_CHOOSE = 1    # A_TILE: which of one's dealt tiles to place next (L109)
PH_TILE_SPOT = 2      # A_SPOT: where to place it (sel_tile set; L109)
PH_TILE_TURN = 3      # A_TURN: its side up and turn (sel_tile, sel_q, sel_r set; L109)
PH_LINEAGE = 4        # A_LINEAGE: the hero's Lineage Card (L198)
PH_LINEAGE_SIDE = 5   # A_SIDE: its side up (L198 "either side up")
PH_CLASS = 6          # A_CLASS: the hero's Class Card (L198)
PH_CLASS_SIDE = 7     # A_SIDE: its side up
PH_CUBE_COLOUR = 8    # A_CUBE: the colour of a cube showing several (L200)
PH_ENTER_PLACE = 9    # A_CLEARING: Explore the Realm, first turn: the civilization tile's clearing to start in (L133)
PH_ACTION = 10        # A_CLEARING (move / enter the map there) or A_DO: the active hero's next action (L451)
PH_HEAL = 11          # A_HEAL: which wounded cube a rest heals next (L550)
PH_HIDE = 12          # A_DO + DO_HIDE / DO_STAY: take the Hide reaction or not (L593-L605, L639)
PH_BLOCK = 13         # A_DO + DO_HIDE / DO_STAY: monsters block the active hero: hide, or be blocked (L457-L459, L599)
PH_ALERT = 14         # A_CARD: the possession to equip or unequip next during an Alert / A_DO + DO_DONE (L463, L979)
PH_ALERT_TARGET = 15  # A_TARGET: where that card goes (sel_card set; T_BACKPACK unequips it)
PH_GAINED = 16        # A_TARGET: where a card just gained goes: a legal position or T_BACKPACK (L972)
# Explore and the fate of heroes (rules/actions.py, rules/fate.py): 17..22
PH_EXPLORE_TURN = 17  # A_TURN: the side up and turn of the tile drawn by an Explore Action (L583)
PH_EXPLORE_ENTER = 18 # A_CLEARING: move into a clearing of the new tile, or A_DO + DO_STAY (L583)
PH_RETIRE = 19        # A_DO + DO_RETIRE / DO_STAY: retire in a Civilization Location after the battle phase (L817)
PH_TELEPORT_TILE = 20 # A_TILE + t: the Map Tile, up to two tiles away, the caster's Teleport sends its target to (L1522)
PH_ACTIVATE = 21      # A_SPELL + sp: activate one's inactive permanent spell sp, wounding a Magic Cube of its colour / A_DO + DO_DONE (L695-L698)
PH_EARTH_TILE = 22    # A_TILE + t: the Map Tile, the caster's or an adjacent one, his Move Earth turns (L1546)
PH_TENTACLE = 34     # A_FOE + f: put the next tentacle of one's Tentacles on foe f / A_DO + DO_PASS: leave one whose target is dead or gone where it is (L1518); 34 was free
PH_EARTH_TURN = 33    # A_TURN + side * 6 + rot: the side up and turn Move Earth gives it, every edge matching (L1546); 33 was free, so the phase one-hot keeps its size
# Loot and Trade (rules/trade.py): 23..34
PH_LOOT_PILE = 23     # A_PILE + pile: which found pile of the clearing the Loot Action loots (L524)
PH_LOOT_KEEP = 24     # A_CARD + c: two grabby hands: which of the pile's top three cards to keep (L526)
PH_RECEIVED = 25      # A_TARGET + t: where a card just received by Loot or Trade goes: a legal position (face up) or T_BACKPACK (face down); A_CARD + c: reveal it (an Epic not yet revealed) and keep it in the backpack (L532-L534, L562-L563, L972)
PH_TRADE_WITH = 26    # A_SEAT + q: swap with hero q / A_MERCHANT + m: commerce with Merchant m (L554-L557)
PH_SWAP_OFFER = 27    # the swap proposed: A_CARD + c (give one's card c / ask for the partner's face-up card c), A_GOLD + GOLD_*, A_PILE + pile / A_PATH + i (share a found site or Hidden Path), A_DO + DO_DONE: propose it (L556)
PH_SWAP_ANSWER = 28   # A_ANSWER + ANSWER_ACCEPT / ANSWER_REFUSE: the partner's answer to the proposed swap (L556, Interpretations)
PH_COMMERCE = 29      # A_STEP + STEP_LOOK / STEP_SELL / STEP_REPAIR, A_CARD + c (a stock card: set it apart to buy it), A_DO + DO_DONE: end the Trade Action (L557-L565)
PH_SELL = 30          # A_CARD + c: sell one's card c at its base price / A_DO + DO_DONE: sell no more (L559)
PH_REPAIR = 31        # A_CARD + c: have one's damaged armour c repaired / A_DO + DO_DONE: no more (L565)
PH_BUY = 32           # A_STEP + STEP_PAY / STEP_HAGGLE for the card set apart (trade_card) / A_DO + DO_DONE: leave it (L560-L561, L983-L999)
# combat (rules/combat.py): 35..59
PH_UNHIDE = 35        # A_DO + DO_UNHIDE / DO_STAY: a hidden hero becomes unhidden or stays hidden (L688, L890)
PH_EVADE = 36         # A_CLEARING + c: evade onto the path to clearing c / A_DO + DO_STAY: fight on (L700-L704)
PH_TARGET = 37        # A_FOE + f: target foe f / A_DO + DO_PASS: target no one (L709, L1003)
PH_TACTICS = 38       # A_BOX + box: place one cube there / A_DO + DO_THROW: the attack is a throw / A_DO + DO_DONE (L714-L724)
PH_ARMOR = 39         # A_CARD + c: the hero takes the hit on armour card c, or cancels it with his Broche of Deflection (L1312) / A_DO + DO_PASS: on no armour (L751)
PH_WOUND = 40         # A_HEAL + kind: wound an unplaced healthy cube (HEAL_HEART a Heart) / A_BOX + box: the cube placed there / A_CARD + c: the Magic Cube on treasure c, or discard Guard Charm c instead (L787, L1352)
PH_ADJUST = 41        # A_CARD + c: the card to unequip, move or equip in Adjust Equipment / A_DO + DO_DONE (L773)
PH_ADJUST_TARGET = 42 # A_TARGET + t: where that card goes (sel_card set; T_BACKPACK unequips it) (L773, L774)
PH_REARM = 43         # A_CARD + c: the backpack card to equip in the empty weapon position / A_DO + DO_DONE (L774)
PH_LURE = 44          # A_FOE + f: lure Monster f to challenge the hero / A_DO + DO_PASS: lure none (optional Luring, L1130)
PH_START_SPELL = 45   # A_SPELL + sp: a starting spell from the Hero Starting Spell deck (L203-L205)
PH_UNCURSE = 46       # A_UNCURSE + q * NUM_CURSES + k / A_DISPEL + sp: remove another curse or permanent spell for 5 Gold / A_DO + DO_DONE: end the Trade Action (L568)
# spells cast in combat (rules/spells.py): 47..49
PH_MORE_TARGETS = 47  # A_FOE + f: one more foe the hero's spell aims at (Fireball, L1562) / A_DO + DO_DONE (L711)
PH_SPELL_CUBE = 48    # A_CUBE + CUBE_MAGIC + colour: the Magic Cube covering the Spell Card's next multi-colour box (L723)
PH_ACCEPT = 49        # A_ANSWER + ANSWER_ACCEPT / ANSWER_REFUSE: accept the hit of another hero's targeted spell, or make it roll (L1032)
# missions and titles (rules/missions.py): 50..52
PH_TAKE_MISSION = 50  # A_MISSION + k: take a second Mission Card from the Merchant / A_DO + DO_DONE: no more (L564)
PH_MISSION_LIMIT = 51  # A_MISSION + k: discard Mission Card k, the hero holding more than two at the end of his turn (L564, L1071)
PH_PARDON = 52        # A_ANSWER + ANSWER_ACCEPT: discard one Outlaw Token for the Quest just completed / ANSWER_REFUSE: keep it (L1083)
# controlled Monsters (Rule Undead, Elemental; rules/combat.py, rules/spells.py): 53..55
PH_CTRL_TARGET = 53   # A_FOE + f: the Monster the hero's controlled Monster (ctrl_foe - 1) targets this round / A_DO + DO_PASS: none (L692, L709-L710)
PH_CTRL_SIDE = 54     # A_SIDE + s: the side face up of his controlled Monster's chip (ctrl_foe - 1) this round (L710)
PH_CTRL_KEEP = 55     # A_ANSWER + ANSWER_ACCEPT: the attack of the Monster his Rule Undead just took (ctrl_foe - 1) goes on / ANSWER_REFUSE: it is canceled (L1506)
CTRL_UNDEAD, CTRL_ELEMENTAL, CTRL_WAITING, CTRL_SHAPE = 1, 2, 4, 8
"""``ctrl_flags`` bits of a controlled foe: taken by Rule Undead (its
controller targeting it frees it, L1506); an Elemental (back to the pool
when freed, L1550); arrived this round, it fights from the next (L1550);
the chip of its controller's Shape Shift -- it is the hero (L1564, L691)."""
# Shape Shift (rules/spells.py): 56
PH_SHAPE = 56         # A_FOE + f: the tray chip (the first of its kind in the tray) whose Monster the Shape Shifting hero becomes (L1564)
# rerolls (rules/treasures.py, rules/spells.py): 57..59
PH_REROLL = 57        # A_REROLL + src * REROLL_WAYS + k: reroll die k (k = MAX_ROLL_DICE: every die) of the pending roll (roll_kind) with source src (RR_*) / A_DO + DO_DONE: let the roll stand (L1214, L1330, L1342, L1528)
PH_DISPEL_ASK = 60    # A_ANSWER + ANSWER_ACCEPT: let the active hero remove one's permanent spell ``dispel_card`` for 5 Gold / ANSWER_REFUSE (L568 "a willing Hero")
PH_CHALLENGE = 61     # A_SEAT + q: Player vs. Player: challenge hero q / A_DO + DO_PASS: none (L1182)
PH_CHALLENGE_CUBE = 62  # A_BOX + BOX_MANEUVER: one more Speed Cube in one's maneuver boxes, there for the round / A_DO + DO_DONE (L1182-L1184)
PH_HERO_BLOCK = 63    # A_SEAT + q: Player vs. Player: block hero q (the Hero Block reaction) / A_DO + DO_PASS (L1176-L1180)
LAST_PHASE = PH_HERO_BLOCK


# ================================================================ decisions
@rules_jit
def pose(S, b, phase, player):
    """Ask seat ``player`` for a decision of kind ``phase``; always returns True."""
    s = S[b]
    s['phase'] = phase
    s['to_play'] = player
    return True


# ================================================================ rolls waiting on their parties' rerolls (PH_REROLL)
DUST_OF_DESTINY = CARD_IDS.index("dust_of_destiny")


@rules_jit
def dust_card(S, b, q):
    """A Dust of Destiny hero q holds and may use (one-time, even in the
    backpack, L916, L1330; not one just received); -1 none."""
    s = S[b]
    for c in range(KIND_CARD_FIRST[DUST_OF_DESTINY], KIND_CARD_END[DUST_OF_DESTINY]):
        if s['card_where'][c] == _CW_HERO and s['card_owner'][c] == q and s['card_slot'][c] != _T_PENDING:
            return c
    return -1


@rules_jit
def start_roll(S, b, kind, n, span, target, first, second):
    """A roll of ``kind`` (ROLL_*) is made: its n dice show ``first`` (and
    ``second``), each of ``span`` faces; it waits on its parties' rerolls
    (``roll_party``, and its site's ``roll_then``, set by the caller) before
    it applies."""
    s = S[b]
    s['roll_kind'] = kind
    s['roll_n'] = n
    s['roll_span'] = min(span, 127)
    s['roll_target'] = target
    s['roll_then'] = -1
    s['roll_dice'][0] = first
    s['roll_dice'][1] = second if n > 1 else -1
    s['roll_used'] = 0
    s['roll_stage'] = 0
    s['roll_party'][0] = -1
    s['roll_party'][1] = -1


@rules_jit
def end_roll(S, b):
    """The pending roll applies: its record is cleared."""
    s = S[b]
    s['roll_kind'] = ROLL_NONE
    s['roll_n'] = 0
    s['roll_span'] = 0
    s['roll_target'] = -1
    s['roll_then'] = -1
    s['roll_used'] = 0
    s['roll_stage'] = 0
    for i in range(MAX_ROLL_DICE):
        s['roll_dice'][i] = -1
        s['roll_party'][i] = -1


@rules_jit
def dust_roll(S, b, kind, n, span, target, then, first, second, p):
    """A roll of ``kind`` (as ``start_roll``) whose only party is hero p and
    whose only reroll is his Dust of Destiny (L1330), made where the rules
    know a reroll could change it for him (``roll_then``: ``then``): with a
    Dust held and another face possible it waits, p asked (PH_REROLL), True;
    else nothing is recorded, False, and the caller applies the roll as it
    fell."""
    if span < 2 or dust_card(S, b, p) < 0:
        return False
    start_roll(S, b, kind, n, span, target, first, second)
    s = S[b]
    s['roll_then'] = then
    s['roll_party'][0] = p
    return pose(S, b, PH_REROLL, p)


@rules_jit
def wraith_brought(S, b, pile, face):
    """The active Wraith's Local Monster Die showing ``face`` after a loot at
    the Shrine (``pile``'s site) would move a Wraith (L1252): the Treasure
    Site Symbol while a Wraith chip not killed stands elsewhere or back side
    up. Only then may a reroll serve the looter (``trade.wraith_watch``)."""
    s = S[b]
    if face != SYM_SITE:
        return False
    kind = int(SITE_GUARDIAN[pile])
    for m in range(_NUM_MON):
        if TRADE_CHIP_KIND[m] == kind and s['mon_clearing'][m] != _MON_TAKEN and \
                (s['mon_clearing'][m] != s['site_clearing'][pile] or s['mon_flipped'][m] != 0):
            return True
    return False


@rules_jit
def monsters_in(S, b, c):
    """Monster chips in clearing c."""
    s = S[b]
    n = 0
    for m in range(s['mon_clearing'].shape[0]):
        if s['mon_clearing'][m] == c:
            n += 1
    return n


@rules_jit
def vapor(S, b, code):
    """Target ``code`` (a foe f, or AIM_HERO + a hero) is vapor now: an active
    Vapor Form lies on it -- a hero's Spell Card, or on a hero the Lich's
    (L1536, L1270). Vapor takes no part in combat, may not block or be
    blocked; a vapor hero's cubes and possessions are unavailable."""
    s = S[b]
    for i in range(VAPOR_CARDS.shape[0]):
        sp = VAPOR_CARDS[i]
        if s['spell_on'][sp] == code and (s['spell_mark'][sp] & PERM_ACTIVE) != 0:
            return True
    return code >= AIM_HERO and (s['lich_vapor'][code - AIM_HERO] & LICH_VAPOR_ACTIVE) != 0


@rules_jit
def shape_card(S, b, p):
    """The Shape Shift Spell Card in play on hero p (L1564); -1."""
    s = S[b]
    for i in range(SHAPE_CARDS.shape[0]):
        sp = SHAPE_CARDS[i]
        if s['spell_on'][sp] == AIM_HERO + p:
            return int(sp)
    return -1


@rules_jit
def shifted(S, b, p):
    """Hero p's Shape Shift is active (L1564-L1566, L1046-L1055): he is the
    Monster of his chip (``shape``): in combat it fights for him, outside
    he may only Sneak, Make Noise, Move, Search and Loot; his cubes and
    possessions are unavailable."""
    s = S[b]
    if s['shape'][p] <= 0:
        return False
    sp = shape_card(S, b, p)
    return sp >= 0 and (s['spell_mark'][sp] & PERM_ACTIVE) != 0


@rules_jit
def shape_off(S, b, p):
    """Hero p's Shape Shift is cancelled (broken by Break Spells, removed at a
    Civilization Location, by the Potion of Relief, or he died, L1058): his
    chip goes back to the monster tray, its wounds and control gone, and the
    Monsters fighting it forget it (L1568)."""
    s = S[b]
    f = int(s['shape'][p]) - 1
    s['shape'][p] = 0
    if f < 0:
        return
    s['mon_clearing'][f] = _MON_TRAY
    s['mon_flipped'][f] = 0
    s['foe_wounds'][f] = 0
    for q in range(s['foe_wound_by'].shape[1]):
        s['foe_wound_by'][f, q] = 0
    drop_control(S, b, f)


@rules_jit
def drop_control(S, b, f):
    """Foe f is controlled by no one (``foe_ctrl``, ``ctrl_flags``), has no
    target this round, and the foes fighting it among the chips (``foe_vs``)
    forget it: the end of a Rule Undead, an Elemental or a Shape Shift
    (L1506, L1550, L1568)."""
    s = S[b]
    s['foe_ctrl'][f] = 0
    s['ctrl_flags'][f] = 0
    s['foe_vs'][f] = 0
    s['foe_target'][f] = -1
    s['foe_extra'][f] = 0
    for g in range(NUM_FOES):
        if s['foe_vs'][g] == f + 1:
            s['foe_vs'][g] = 0


@rules_jit
def shape_flies(S, b, p):
    """Hero p is Shape Shifted into a flying Monster: he must fly (L1093)."""
    return shifted(S, b, p) and FOE_FLIES[int(S[b]['shape'][p]) - 1] != 0


@rules_jit
def blocking_monsters(S, b, c):
    """Monster chips in clearing c that may block: not vapor (L1536)."""
    s = S[b]
    n = 0
    for m in range(s['mon_clearing'].shape[0]):
        if s['mon_clearing'][m] == c and not vapor(S, b, m):
            n += 1
    return n


# ================================================================ randomness
@rules_jit
def shuffle_first(S, b, arr, n):
    """Shuffle ``arr[:n]`` (a field of game b's record) uniformly with the
    game's stream (Fisher-Yates)."""
    for i in range(n - 1, 0, -1):
        j = roll(S, b, i + 1)
        x = arr[i]
        arr[i] = arr[j]
        arr[j] = x


@rules_jit
def d6(S, b):
    """One six-sided die, 1..6 (civilization locations, L189, L1274)."""
    return roll(S, b, 6) + 1
