"""Monster activation, the first step of the battle phase (L615-L641): the
four Summoning Dice, the return arrow, monsters moving to heroes, summoning
in turn order once per clearing, dual-dice monsters, the Make Noise
rerolls, and the Hide reaction at the end.

The site symbol summons Guardians to their Treasure Sites on tiles with a
hero (L633); the sites are placed by the tokens of the action phase. The
Cleric rerolls a die that would bring undead to him (L1212). Two Epic
Treasures add summoning symbols to the tile where they lie: the Icon of the
Dragon (L1360) and the Summoning Marcation (L1430).
"""
import numpy as np

from dragongym.envs.core.jit import local_array, rules_jit
from .. import data as D
from ..constants import (
    MAX_HEROES,
    CARD_IDS, CW_CLEARING, CW_HERO, CW_MERCHANT, CW_SITE, NUM_CIV_TOKENS, NUM_DIRECTIONS, TOK_PLACED,
    CLASS_IDS, CLEARINGS_PER_TILE, HS_ACTIVE, MONSTER_IDS, HST_BLOCKED, HST_HIDDEN, HST_NOISE, MON_TAKEN, MON_TRAY,
    MONSTER_CHIP_KINDS, NUM_MONSTER_CHIPS, NUM_TILES, OPT_ENCH_REALM, ST_ACTIVATION, ST_COMBAT, TILE_WILDERNESS,
    TW_PLACED,
)
from .realm import enchant_by_realm, tile_at
from .base import (
    BLACK_NUMBER, BLACK_SYMBOL, GRAY_NUMBER, GRAY_SYMBOL, PACK_WANDERER, PH_HIDE, SITE_GUARDIAN,
    SYM_RETURN, SYM_SITE, CIV_TOKEN_MERCHANT, DIR_DQ, DIR_DR, KIND_CARD_END, KIND_CARD_FIRST, LOCAL_SYMBOLS,
    TILE_KIND, TILE_LOCAL_DUAL, TILE_LOCAL_KIND, TILE_LOCAL_SYMBOL, TILE_PACK, monsters_in, pose,
    roll, ROLL_NOISE, dust_roll,
)

CHIP_KIND = np.array(MONSTER_CHIP_KINDS, dtype=np.int8)
"""Monster chip -> its kind (constants.MONSTER_IDS index)."""
KIND_UNDEAD = np.array([D.REALM.monsters[m].undead for m in MONSTER_IDS], dtype=np.int8)
"""Monster kind -> 1 for an undead Monster (the skull, L1012)."""
CLERIC = CLASS_IDS.index("cleric")
"""The Cleric rerolls a Summoning Die bringing undead to him (Divine Protection, L1212)."""
ICON_OF_THE_DRAGON = CARD_IDS.index("icon_of_the_dragon")
SUMMONING_MARCATION = CARD_IDS.index("summoning_marcation")
ICON_PACK = D.PACKS.index("malevolent_mountains")
ICON_SYMBOL = 1 + LOCAL_SYMBOLS.index("sound")
ICON_LOCAL = MONSTER_IDS.index("adult_dragon")
"""L1360: the Icon of the Dragon's tile summons as if it bore the Malevolent
Mountains' Wandering symbol (their Juvenile Dragons) and the sound Local
symbol of the Adult Dragon."""
MAX_LOCALS = 1 + 1 + NUM_DIRECTIONS
"""Local Monsters one black symbol may summon on a tile: its own, the Icon's
Adult Dragon, one per adjacent tile under the Summoning Marcation."""


@rules_jit
def start_activation(S, b):
    """L617: the start player rolls all four Summoning Dice; L619: the gray
    dice are processed first, then the black; then the Make Noise rerolls
    (L637) and the Hide reactions (L639)."""
    s = S[b]
    s['cleric_rerolled'] = 0                          # the Cleric's reroll: once a turn (L1212)
    roll_summoning_dice(S, b)
    alt = local_array(4, np.int64)
    apply_summoning(S, b, -1, cleric_reroll(S, b, -1, alt), alt)
    s['noise_pos'] = 0
    s['hide_pos'] = 0
    s['stage'] = ST_ACTIVATION


@rules_jit
def roll_summoning_dice(S, b):
    """The four Summoning Dice into ``summon_dice`` (L617)."""
    s = S[b]
    s['summon_dice'][0] = roll(S, b, GRAY_SYMBOL.shape[0])
    s['summon_dice'][1] = roll(S, b, GRAY_NUMBER.shape[0])
    s['summon_dice'][2] = roll(S, b, BLACK_SYMBOL.shape[0])
    s['summon_dice'][3] = roll(S, b, BLACK_NUMBER.shape[0])


@rules_jit
def hero_on_map(S, b, p):
    return S[b]['hero_state'][p] == HS_ACTIVE and S[b]['hero_clearing'][p] >= 0


@rules_jit
def earliest_hero_clearing(S, b, t, only):
    """The clearing of the hero on tile t earliest in the Turn Order (L623),
    or -1; with ``only`` >= 0, that hero alone counts (a Make Noise reroll)."""
    s = S[b]
    n = int(s['num_players'])
    for i in range(n):
        p = int(s['turn_order'][i])
        if p < 0 or not hero_on_map(S, b, p) or (only >= 0 and p != only):
            continue
        c = int(s['hero_clearing'][p])
        if c // CLEARINGS_PER_TILE == t:
            return c
    return -1


@rules_jit
def clearing_has_hero(S, b, c, only):
    s = S[b]
    for p in range(int(s['num_players'])):
        if hero_on_map(S, b, p) and s['hero_clearing'][p] == c and (only < 0 or p == only):
            return True
    return False


@rules_jit
def monsters_move(S, b, t, only):
    """L623, L627: Monsters of tile t not in a clearing with a hero move to
    the clearing of the hero earliest in the Turn Order; moved monsters are
    placed name side up (L635)."""
    s = S[b]
    target = earliest_hero_clearing(S, b, t, only)
    if target < 0:
        return
    for m in range(NUM_MONSTER_CHIPS):
        c = int(s['mon_clearing'][m])
        if c >= 0 and c // CLEARINGS_PER_TILE == t and not clearing_has_hero(S, b, c, only):
            s['mon_clearing'][m] = target
            s['mon_flipped'][m] = 0


@rules_jit
def summon(S, b, t, kind, count, only):
    """L627-L629: ``count`` random Monsters of ``kind`` from the tray to each
    clearing of tile t holding a hero, in Turn Order, each clearing once; when
    the tray runs short, what remains."""
    s = S[b]
    n = int(s['num_players'])
    done = local_array(MAX_HEROES, np.int64)
    for i in range(MAX_HEROES):
        done[i] = -1
    nd = 0
    for i in range(n):
        p = int(s['turn_order'][i])
        if p < 0 or not hero_on_map(S, b, p) or (only >= 0 and p != only):
            continue
        c = int(s['hero_clearing'][p])
        if c // CLEARINGS_PER_TILE != t:
            continue
        seen = False
        for j in range(nd):
            if done[j] == c:
                seen = True
        if seen:
            continue
        done[nd] = c
        nd += 1
        for _ in range(count):
            free = 0
            for m in range(NUM_MONSTER_CHIPS):
                if CHIP_KIND[m] == kind and s['mon_clearing'][m] == MON_TRAY:
                    free += 1
            if free == 0:
                break
            pick = roll(S, b, free)
            for m in range(NUM_MONSTER_CHIPS):
                if CHIP_KIND[m] == kind and s['mon_clearing'][m] == MON_TRAY:
                    if pick == 0:
                        s['mon_clearing'][m] = c
                        s['mon_flipped'][m] = 0
                        break
                    pick -= 1


# ================================================================ summoning treasures (L1360, L1430)
@rules_jit
def card_tile(S, b, kind):
    """The Map Tile where the card of ``kind`` lies face up, so active
    (L960: a Backpack Special card seen stays face up): its owner's, the
    clearing's where it fell, its Treasure Pile's, its Merchant's; -1 when
    it is in none of those places or no hero has seen it."""
    s = S[b]
    for c in range(KIND_CARD_FIRST[kind], KIND_CARD_END[kind]):
        if not s['card_revealed'][c]:
            continue
        where = int(s['card_where'][c])
        owner = int(s['card_owner'][c])
        clearing = -1
        if where == CW_HERO:
            clearing = int(s['hero_clearing'][owner])
        elif where == CW_CLEARING:
            clearing = owner
        elif where == CW_SITE:
            clearing = int(s['site_clearing'][owner])
        elif where == CW_MERCHANT:
            for k in range(NUM_CIV_TOKENS):
                if CIV_TOKEN_MERCHANT[k] == owner and s['civ_token_where'][k] == TOK_PLACED:
                    clearing = int(s['civ_token_clearing'][k])
        if clearing >= 0:
            return clearing // CLEARINGS_PER_TILE
    return -1


@rules_jit
def gray_summons(S, b, t, gray):
    """The gray symbol die's face ``gray`` (a Terrain Pack) summons on tile t:
    the tile's own Wandering symbol (a wilderness tile of that pack, L625), or
    the Icon of the Dragon's Malevolent Mountains symbol where the Icon lies
    (L1360; never twice on a tile that prints it)."""
    if gray < 0:
        return False
    if TILE_KIND[t] == TILE_WILDERNESS and TILE_PACK[t] == gray:
        return True
    return gray == ICON_PACK and card_tile(S, b, ICON_OF_THE_DRAGON) == t


@rules_jit
def add_local(kinds, duals, n, kind, dual):
    """Append Local Monster ``kind`` (summoned with both numbered dice if
    ``dual``) unless it is listed already: a monster the tile prints is not
    summoned twice (L1360). Returns the new count."""
    for i in range(n):
        if kinds[i] == kind:
            return n
    kinds[n] = kind
    duals[n] = dual
    return n + 1


@rules_jit
def local_summons(S, b, t, black, kinds, duals):
    """The Local Monsters the black symbol die's face ``black`` summons on
    tile t into ``kinds`` / ``duals``; returns how many: the tile's own
    (L625-L631), the Icon of the Dragon's Adult Dragon on the sound symbol
    (L1360), and under the Summoning Marcation the Local Monster of every
    adjacent tile printing that symbol (L1430)."""
    s = S[b]
    n = 0
    if black <= 0:
        return 0
    if TILE_LOCAL_SYMBOL[t] == black:
        n = add_local(kinds, duals, n, int(TILE_LOCAL_KIND[t]), int(TILE_LOCAL_DUAL[t]))
    if black == ICON_SYMBOL and card_tile(S, b, ICON_OF_THE_DRAGON) == t:
        n = add_local(kinds, duals, n, ICON_LOCAL, 0)
    if card_tile(S, b, SUMMONING_MARCATION) == t:
        for d in range(NUM_DIRECTIONS):
            u = tile_at(S, b, int(s['tile_q'][t]) + DIR_DQ[d], int(s['tile_r'][t]) + DIR_DR[d])
            if u >= 0 and TILE_LOCAL_SYMBOL[u] == black:
                n = add_local(kinds, duals, n, int(TILE_LOCAL_KIND[u]), int(TILE_LOCAL_DUAL[u]))
    return n


@rules_jit
def tile_has_hero(S, b, t, only):
    return earliest_hero_clearing(S, b, t, only) >= 0


@rules_jit
def hero_tiles(S, b, only, out):
    """Tiles holding a hero, in the order of their earliest hero in the Turn
    Order (Interpretations), into ``out``; returns the count."""
    s = S[b]
    n = 0
    for i in range(int(s['num_players'])):
        p = int(s['turn_order'][i])
        if p < 0 or not hero_on_map(S, b, p) or (only >= 0 and p != only):
            continue
        t = int(s['hero_clearing'][p]) // CLEARINGS_PER_TILE
        seen = False
        for j in range(n):
            if out[j] == t:
                seen = True
        if not seen:
            out[n] = t
            n += 1
    return n


@rules_jit
def clearing_on_hero_tiles(S, b, c, tiles, nt, only):
    """Clearing c lies on one of the ``nt`` hero tiles; for a Make Noise
    reroll (``only`` >= 0) it must be the hero's own clearing (L471)."""
    if only >= 0:
        return S[b]['hero_clearing'][only] == c
    for i in range(nt):
        if tiles[i] == c // CLEARINGS_PER_TILE:
            return True
    return False


@rules_jit
def summon_guardian(S, b, kind, c):
    """L633: every Guardian chip of ``kind`` moves to clearing c from
    wherever it is (a hero's clearing, another tile, the tray), name side up;
    one a hero has killed stays killed."""
    s = S[b]
    for m in range(NUM_MONSTER_CHIPS):
        if CHIP_KIND[m] == kind and s['mon_clearing'][m] != MON_TAKEN:
            s['mon_clearing'][m] = c
            s['mon_flipped'][m] = 0


@rules_jit
def die_face(S, b, t, ct, alt, i):
    """Summoning Die i's face on tile t: the Cleric's rerolled faces ``alt``
    on his tile ``ct``, those of ``summon_dice`` everywhere else (L1212)."""
    if t == ct:
        return int(alt[i])
    return int(S[b]['summon_dice'][i])


@rules_jit
def apply_summoning(S, b, only, ct, alt):
    """Apply the dice in ``summon_dice`` (L617-L635): the gray die first,
    then the black. ``only`` >= 0: a Make Noise reroll of that hero, applied
    to his clearing alone as if no other hero were on the map (L471, L637).
    ``ct`` >= 0: the Cleric rerolled a die: the faces ``alt`` count on his
    tile ct, the prior ones everywhere else (L1212; ``die_face``)."""
    s = S[b]
    tiles = local_array(NUM_TILES, np.int64)
    nt = hero_tiles(S, b, only, tiles)
    realm = int(GRAY_SYMBOL[s['summon_dice'][0]]) == SYM_RETURN and only < 0
    if realm:
        for m in range(NUM_MONSTER_CHIPS):             # L621: heroless tiles return their monsters
            c = int(s['mon_clearing'][m])
            if c >= 0 and not tile_has_hero(S, b, c // CLEARINGS_PER_TILE, -1):
                s['mon_clearing'][m] = MON_TRAY
                s['mon_flipped'][m] = 0
    for i in range(nt):
        t = int(tiles[i])
        gray = int(GRAY_SYMBOL[die_face(S, b, t, ct, alt, 0)])
        if gray == SYM_RETURN:                         # L623: the rest move to the heroes
            monsters_move(S, b, t, only)
        elif gray_summons(S, b, t, gray):
            monsters_move(S, b, t, only)               # L625-L629: the pack's Wandering Monsters
            summon(S, b, t, int(PACK_WANDERER[gray]), int(GRAY_NUMBER[die_face(S, b, t, ct, alt, 1)]), only)
    for site in range(SITE_GUARDIAN.shape[0]):         # L633: Guardians to their Treasure Sites
        c = int(s['site_clearing'][site])
        if c >= 0 and clearing_on_hero_tiles(S, b, c, tiles, nt, only) and \
                int(BLACK_SYMBOL[die_face(S, b, c // CLEARINGS_PER_TILE, ct, alt, 2)]) == SYM_SITE:
            summon_guardian(S, b, int(SITE_GUARDIAN[site]), c)
    kinds = local_array(MAX_LOCALS, np.int64)
    duals = local_array(MAX_LOCALS, np.int64)
    for i in range(nt):                                # L625-L631: the tile's Local Monsters
        t = int(tiles[i])
        black = int(BLACK_SYMBOL[die_face(S, b, t, ct, alt, 2)])
        n = local_summons(S, b, t, black, kinds, duals)
        if n > 0:
            monsters_move(S, b, t, only)
        black_n = int(BLACK_NUMBER[die_face(S, b, t, ct, alt, 3)])
        for j in range(n):
            count = int(GRAY_NUMBER[die_face(S, b, t, ct, alt, 1)]) + black_n if duals[j] else black_n
            summon(S, b, t, int(kinds[j]), count, only)
    if realm and s['optional_rules'] & OPT_ENCH_REALM:
        enchanted_realm(S, b, ct, alt)


@rules_jit
def enchanted_realm(S, b, ct, alt):
    """Enchanted Realm (optional, L1158-L1160): with the return arrow, once
    the dice's other effects are done, every placed tile bearing the black
    die's Local Monster symbol is flipped and enchanted (``realm.enchant_by_realm``);
    the Treasure Site symbol names no tile (Interpretations)."""
    s = S[b]
    for t in range(NUM_TILES):
        if s['tile_where'][t] != TW_PLACED:
            continue
        black = int(BLACK_SYMBOL[die_face(S, b, t, ct, alt, 2)])
        if black != SYM_SITE and TILE_LOCAL_SYMBOL[t] == black:
            enchant_by_realm(S, b, t)


# ================================================================ the Cleric (L1212)
@rules_jit
def moves_undead_to(S, b, t, c, only):
    """A move of tile t's Monsters to its heroes (L623, L627) would bring an
    undead Monster into clearing c."""
    s = S[b]
    if earliest_hero_clearing(S, b, t, only) != c:
        return False
    for m in range(NUM_MONSTER_CHIPS):
        cm = int(s['mon_clearing'][m])
        if cm >= 0 and cm // CLEARINGS_PER_TILE == t and KIND_UNDEAD[CHIP_KIND[m]] != 0 \
                and not clearing_has_hero(S, b, cm, only):
            return True
    return False


@rules_jit
def summons_undead(S, b, kind, count):
    """Summoning ``count`` Monsters of ``kind`` (L627) would bring undead: the
    kind is undead and the tray holds one."""
    s = S[b]
    if kind < 0 or KIND_UNDEAD[kind] == 0 or count < 1:
        return False
    for m in range(NUM_MONSTER_CHIPS):
        if CHIP_KIND[m] == kind and s['mon_clearing'][m] == MON_TRAY:
            return True
    return False


@rules_jit
def brings_undead(S, b, c, i, dice, only):
    """Summoning Die i (0 the gray symbol die, 2 the black), with the faces
    ``dice``, would summon or move an undead Monster into clearing c, which
    holds a hero (``apply_summoning``)."""
    s = S[b]
    t = c // CLEARINGS_PER_TILE
    if i == 0:
        gray = int(GRAY_SYMBOL[dice[0]])
        if gray == SYM_RETURN:
            return moves_undead_to(S, b, t, c, only)
        if gray_summons(S, b, t, gray):
            return moves_undead_to(S, b, t, c, only) or \
                summons_undead(S, b, int(PACK_WANDERER[gray]), int(GRAY_NUMBER[dice[1]]))
        return False
    black = int(BLACK_SYMBOL[dice[2]])
    if black == SYM_SITE:
        for site in range(SITE_GUARDIAN.shape[0]):
            kind = int(SITE_GUARDIAN[site])
            if s['site_clearing'][site] == c and KIND_UNDEAD[kind] != 0:
                for m in range(NUM_MONSTER_CHIPS):
                    if CHIP_KIND[m] == kind and s['mon_clearing'][m] != MON_TAKEN and s['mon_clearing'][m] != c:
                        return True
        return False
    kinds = local_array(MAX_LOCALS, np.int64)
    duals = local_array(MAX_LOCALS, np.int64)
    n = local_summons(S, b, t, black, kinds, duals)
    if n > 0 and moves_undead_to(S, b, t, c, only):
        return True
    black_n = int(BLACK_NUMBER[dice[3]])
    for j in range(n):
        count = int(GRAY_NUMBER[dice[1]]) + black_n if duals[j] else black_n
        if summons_undead(S, b, int(kinds[j]), count):
            return True
    return False


@rules_jit
def cleric_reroll(S, b, only, alt):
    """L1212 (Interpretations, "Cleric"): once a turn, where a Summoning Die
    of the roll in ``summon_dice`` would summon or move an undead Monster to
    the Cleric's clearing, he rerolls it -- the gray symbol die, processed
    first, else the black -- and the new result counts on his tile only
    (``alt``: the faces there). The reroll is made without asking, since it
    is of the die that brings the undead, the only one that can keep them
    away (Readings of the engine). For a Make Noise reroll (``only`` >= 0)
    the Cleric must be in the noisy hero's clearing. Returns his tile when
    he rerolled (``alt`` then holds the faces for it), else -1."""
    s = S[b]
    for i in range(4):
        alt[i] = s['summon_dice'][i]
    if s['cleric_rerolled'] != 0:
        return -1
    for p in range(int(s['num_players'])):
        if s['hero_class'][p] != CLERIC or not hero_on_map(S, b, p):
            continue
        c = int(s['hero_clearing'][p])
        if only >= 0 and s['hero_clearing'][only] != c:
            continue
        for i in (0, 2):
            if brings_undead(S, b, c, i, alt, only):
                alt[i] = roll(S, b, GRAY_SYMBOL.shape[0] if i == 0 else BLACK_SYMBOL.shape[0])
                s['cleric_rerolled'] = 1
                return c // CLEARINGS_PER_TILE
    return -1


@rules_jit
def noise_summons(S, b, p):
    """The Summoning Dice hero p rolled for his noise (``summon_dice``, a
    Dust of Destiny's reroll made) apply to his clearing only (L471, L637),
    the Cleric's reroll counted."""
    alt = local_array(4, np.int64)
    apply_summoning(S, b, p, cleric_reroll(S, b, p, alt), alt)


@rules_jit
def activation_round(S, b):
    """After the dice: each hero that made noise, in player order, rolls all
    four dice again for its clearing (L637), his roll waiting on his Dust of
    Destiny (ROLL_NOISE, L1330; ``noise_summons`` once it stands); then each
    unblocked, unhidden hero with monsters in its clearing may take the Hide
    reaction (L639, L641). Then combat. True if a decision is posed."""
    s = S[b]
    n = int(s['num_players'])
    while s['noise_pos'] < n:
        p = int(s['turn_order'][s['noise_pos']])
        s['noise_pos'] += 1
        if p >= 0 and hero_on_map(S, b, p) and (s['hero_status'][p] & HST_NOISE):
            roll_summoning_dice(S, b)
            if dust_roll(S, b, ROLL_NOISE, 2, GRAY_SYMBOL.shape[0], -1, -1,     # L1330: the noisy hero rolls them
                         int(s['summon_dice'][0]), int(s['summon_dice'][2]), p):
                return True
            noise_summons(S, b, p)
    while s['hide_pos'] < n:
        p = int(s['turn_order'][s['hide_pos']])
        s['hide_pos'] += 1
        if p >= 0 and hero_on_map(S, b, p) and (s['hero_status'][p] & (HST_BLOCKED | HST_HIDDEN)) == 0 \
                and monsters_in(S, b, int(s['hero_clearing'][p])) > 0:
            return pose(S, b, PH_HIDE, p)
    s['stage'] = ST_COMBAT
    return False
