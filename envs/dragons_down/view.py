"""A documented, read-only view of a Dragons Down state record, for bots,
tools and the game's own text (action names, the ANSI picture).

Every function takes ``state``, either a 1-record array (as the Game contract
passes it) or one record, and never modifies it. Clearings are numbered
``tile * 6 + k`` (``constants``); seats are game seats ``0..num_players-1``
(not rotated); heroes are their seats.

NOTE: the record holds the *whole* game, hidden parts included (the others'
face-down cards, Treasure Piles and Merchant stock, the tile stack's order,
the stream that fixes every future draw). A fair bot reads only what its seat
may know: :func:`visible_cards` and :func:`card_seen` give a card's identity
only where the observer may know it; nothing here exposes the seed or the
stack's order. Look-ahead on a copy must first call
``GAME.determinize(copy, seat, rng)``.
"""
# jitcache: no compiled code
import numpy as np

from dragongym.envs.core.view import num_players, phase, record, stage, to_play  # noqa: F401 (the game's view)
from . import data as D
from . import observe as O
from . import rules as R
from .constants import (
    CARD_IDS, CLASS_IDS, CLEARINGS_PER_TILE, CW_HERO, CW_MERCHANT, CW_SITE, HS_ACTIVE, LINEAGE_IDS,
    MERCHANT_IDS, MONSTER_CHIP_KINDS, MONSTER_IDS, NATIVE_CHIP_KINDS, NUM_CARDS, NUM_DIRECTIONS,
    NUM_SITES, SANDBOXES, SB_EXPLORE, SB_LEGENDARY, SITE_IDS, T_BACKPACK, T_PENDING,
    TILE_CIVILIZATION, TILE_IDS, TOK_PLACED, TW_PLACED, WILD_TOKENS, CURSE_IDS, NUM_SPELLS, SPELL_IDS,
    SPW_ATTACHED, SPW_KNOWN, CIV_CARD_IDS, MISSION_IDS, MW_HERO, MW_MERCHANT, NUM_MISSIONS, NUM_TITLES, TITLE_IDS,
)

DIRECTION_NAMES = tuple(D.EDGE_NAMES)
"""Map directions 0..5: N, NE, SE, S, SW, NW."""
HERO_STATE_NAMES = ("choosing", "waiting to enter", "on the map", "dead", "retired")
STATUS_NAMES = ("hidden", "alert", "sneaking", "noisy", "blocked", "evaded", "lost a cave action",
                "flew in among Monsters")
"""The HST_* bits, lowest first."""
TARGET_NAMES = ("head", "chest", "weapon 1", "weapon 2", "hand 1", "hand 2", "neck", "waist", "feet",
                "misc 1", "misc 2", "misc 3", "misc 4", "head and chest", "both weapons", "both hands", "backpack", "just gained")
"""Where a hero's card lies (``card_slot``, constants.T_*)."""
CUBE_NAMES = ("might", "speed") + tuple(D.MAGIC_COLOURS)
"""Action Cube kinds (CUBE_*)."""


# ------------------------------------------------------------------ names
def tile_name(t):
    """The printed name of Map Tile ``t`` (constants.TILE_IDS index)."""
    return D.REALM.tiles[TILE_IDS[int(t)]].name


def clearing_type(state, c):
    """The clearing type name of clearing c on its tile's side up ("cave"),
    or "" where the slot holds no clearing."""
    r = record(state)
    t = int(c) // CLEARINGS_PER_TILE
    k = int(R.CLEARING_TYPE[t, int(r["tile_side"][t]), int(c) % CLEARINGS_PER_TILE])
    return D.CLEARING_TYPES[k] if k >= 0 else ""


def clearing_name(state, c):
    """"Deepdelve 2 (cave)": the tile, the clearing's number on it (1-based)
    and its type on the side up."""
    c = int(c)
    kind = clearing_type(state, c)
    return f"{tile_name(c // CLEARINGS_PER_TILE)} {c % CLEARINGS_PER_TILE + 1}" + (f" ({kind})" if kind else "")


def card_name(card):
    """The printed name of card instance ``card``."""
    return D.REALM.card(CARD_IDS[int(R.CARD_KIND[int(card)])]).name


def monster_name(kind):
    return D.REALM.monsters[MONSTER_IDS[int(kind)]].name


def lineage_name(i):
    return D.REALM.lineages[LINEAGE_IDS[int(i)]].name


def class_name(i):
    return D.REALM.classes[CLASS_IDS[int(i)]].name


def merchant_name(m):
    return next(card.merchants[MERCHANT_IDS[int(m)]].name for card in D.REALM.setup_cards.values()
                if MERCHANT_IDS[int(m)] in card.merchants)


def pile_name(pile):
    """A Treasure Site's name, or "player_2's body" (piles NUM_SITES + seat)."""
    pile = int(pile)
    if pile < NUM_SITES:
        return next(card.sites[SITE_IDS[pile]].name for card in D.REALM.setup_cards.values()
                    if SITE_IDS[pile] in card.sites)
    return f"player_{pile - NUM_SITES}'s body"


# ------------------------------------------------------------------ the position
def turn(state):
    """Turns started (0 during the set-up)."""
    return int(record(state)["turn"])


def max_turns(state):
    return int(record(state)["max_turns"])


def is_over(state):
    return int(record(state)["status"]) != 0


def sandbox(state):
    """``"open_realm"``, ``"explore_the_realm"`` or ``"legendary"``."""
    return SANDBOXES[int(record(state)["sandbox"])]


def explore_map(state):
    """True where the map is built during play (Explore the Realm, or the
    Legendary sandbox on its rules, L125, L153)."""
    r = record(state)
    return int(r["sandbox"]) == SB_EXPLORE or (int(r["sandbox"]) == SB_LEGENDARY
                                               and int(r["legendary_map"]) == SB_EXPLORE)


def packs_in_play(state):
    """Terrain Pack ids in play (data.PACKS order)."""
    p = int(record(state)["packs"])
    return [D.PACKS[k] for k in range(len(D.PACKS)) if (p >> k) & 1]


def legal_actions(state):
    """Legal action indices of the seat to play (``int64`` array)."""
    r = state if getattr(state, "shape", None) == (1,) else np.array([state])
    from .game import GAME
    return np.flatnonzero(GAME.mask_of(r))


# ------------------------------------------------------------------ the realm
def placed_tiles(state):
    """Tiles on the map, by index."""
    return np.flatnonzero(record(state)["tile_where"] == TW_PLACED).tolist()


def clearing_exists(state, c):
    """Clearing c is a clearing of a tile on the map."""
    r = record(state)
    t = int(c) // CLEARINGS_PER_TILE
    return int(r["tile_where"][t]) == TW_PLACED and bool(clearing_type(r, c))


def clearings(state):
    """Every clearing on the map."""
    return [t * CLEARINGS_PER_TILE + k for t in placed_tiles(state) for k in range(CLEARINGS_PER_TILE)
            if clearing_exists(state, t * CLEARINGS_PER_TILE + k)]


def tile_at(state, q, r_):
    """The tile placed at axial position (q, r), or -1."""
    r = record(state)
    hit = np.flatnonzero((r["tile_where"] == TW_PLACED) & (r["tile_q"] == q) & (r["tile_r"] == r_))
    return int(hit[0]) if len(hit) else -1


def neighbours(state, c, seat=None):
    """Clearings joined to clearing c by a path (its tile's printed paths and
    those crossing into a neighbouring tile, L290, L475), and, given
    ``seat``, by the Hidden Paths that seat discovered (L515)."""
    r = record(state)
    c = int(c)
    t, k = divmod(c, CLEARINGS_PER_TILE)
    side, rot = int(r["tile_side"][t]), int(r["tile_rot"][t])
    out = []
    for a, z in R.PATHS[t, side]:
        if int(a) == k:
            out.append(t * CLEARINGS_PER_TILE + int(z))
        elif int(z) == k and int(a) >= 0:
            out.append(t * CLEARINGS_PER_TILE + int(a))
    for e in range(NUM_DIRECTIONS):
        if int(R.EDGE_CLEARING[t, side, e]) != k:
            continue
        d = (e + rot) % NUM_DIRECTIONS
        u = tile_at(r, int(r["tile_q"][t]) + int(R.DIR_DQ[d]), int(r["tile_r"][t]) + int(R.DIR_DR[d]))
        if u >= 0:
            ku = int(R.EDGE_CLEARING[u, int(r["tile_side"][u]), ((d + 3) % 6 - int(r["tile_rot"][u])) % 6])
            if ku >= 0:
                out.append(u * CLEARINGS_PER_TILE + ku)
    if seat is not None:
        for h, (a, z) in enumerate(R.HIDDEN[t, side]):
            if int(a) >= 0 and int(r["hidden_found"][seat, (t * 2 + side) * R.HIDDEN.shape[2] + h]):
                if int(a) == k:
                    out.append(t * CLEARINGS_PER_TILE + int(z))
                elif int(z) == k:
                    out.append(t * CLEARINGS_PER_TILE + int(a))
    return sorted(set(out))


def exits(state, c):
    """Map directions of the paths leading off the map from clearing c (L113, L583)."""
    r = record(state)
    t, k = divmod(int(c), CLEARINGS_PER_TILE)
    side, rot = int(r["tile_side"][t]), int(r["tile_rot"][t])
    out = []
    for e in range(NUM_DIRECTIONS):
        if int(R.EDGE_CLEARING[t, side, e]) == k:
            d = (e + rot) % NUM_DIRECTIONS
            if tile_at(r, int(r["tile_q"][t]) + int(R.DIR_DQ[d]), int(r["tile_r"][t]) + int(R.DIR_DR[d])) < 0:
                out.append(d)
    return out


def hidden_path(state, t, h):
    """``(a, z)``: the clearings (tile-local, 0-based) of Hidden Path h on
    tile t's side up, or None."""
    r = record(state)
    a, z = (int(x) for x in R.HIDDEN[int(t), int(r["tile_side"][int(t)]), int(h)])
    return None if a < 0 else (a, z)


def monsters_at(state, c):
    """``[(chip, kind id, back side up), ...]`` of the Monster chips in clearing c."""
    r = record(state)
    return [(m, MONSTER_IDS[MONSTER_CHIP_KINDS[m]], bool(r["mon_flipped"][m]))
            for m in range(len(r["mon_clearing"])) if int(r["mon_clearing"][m]) == int(c)]


def natives_at(state, c):
    """Native chip kind ids in clearing c."""
    r = record(state)
    return [NATIVE_CHIP_KINDS[i] for i in range(len(r["native_clearing"])) if int(r["native_clearing"][i]) == int(c)]


def foe_name(f):
    """"Goblin (chip 12)": a foe by its kind and number (Monster chips, then Natives)."""
    if 0 <= f < O.NUM_MONSTER_CHIPS:
        return f"{monster_name(int(O.FOE_KIND[f]))} (chip {f})"
    if f < O.NUM_FOES:
        return f"{D.REALM.natives[O.NATIVE_IDS[int(O.FOE_KIND[f])]].name} (native {f - O.NUM_MONSTER_CHIPS})"
    return f"foe {f}"


def merchants_at(state, c):
    """Merchant indices (constants.MERCHANT_IDS) whose Civilization Token is in clearing c."""
    r = record(state)
    return [int(R.CIV_TOKEN_MERCHANT[k]) for k in range(len(r["civ_token_where"]))
            if int(r["civ_token_where"][k]) == TOK_PLACED and int(r["civ_token_clearing"][k]) == int(c)
            and int(R.CIV_TOKEN_MERCHANT[k]) >= 0]


def piles_at(state, c):
    """Piles (Treasure Sites, then bodies at NUM_SITES + seat) in clearing c."""
    r = record(state)
    return [p for p in range(len(r["site_clearing"])) if int(r["site_clearing"][p]) == int(c)]


def pile_size(state, pile):
    """Face-down cards in a pile (public: the pile is on the table)."""
    r = record(state)
    return int(((r["card_where"] == CW_SITE) & (r["card_owner"] == int(pile))).sum())


def tokens_at(state, c):
    """Names of the numbered Wilderness Tokens (Gates, Forgotten City / Dwarven Ruins) in clearing c."""
    r = record(state)
    out = []
    for w in range(len(r["wild_where"])):
        if int(r["wild_where"][w]) == TOK_PLACED and int(r["wild_clearing"][w]) == int(c) and int(R.WILD_SITE[w]) < 0:
            out.append(D.REALM.wilderness_tokens[WILD_TOKENS[w]].name)
    return out


# ------------------------------------------------------------------ heroes
def hero(state, seat):
    """The public face of seat's hero: a dict with ``state`` (HERO_STATE_NAMES),
    ``lineage`` / ``class`` (ids or None) and their sides (1 or 2), ``clearing``
    (-1 off the map), ``hearts`` and ``cubes`` (``[healthy, wounded]``; cubes
    by CUBE_NAMES), ``lp``, ``fame``, ``gold``, ``outlaw`` (Outlaw Tokens),
    ``curses`` (names of the lasting curses it holds), ``spells`` (how many
    it knows: which ones is its secret), ``statuses`` (STATUS_NAMES set this
    turn), ``actions_left``."""
    r = record(state)
    p = int(seat)
    li, ci = int(r["hero_lineage"][p]), int(r["hero_class"][p])
    return {
        "state": HERO_STATE_NAMES[int(r["hero_state"][p])],
        "lineage": LINEAGE_IDS[li] if li >= 0 else None,
        "lineage_side": int(r["lineage_side"][p]) + 1 if int(r["lineage_side"][p]) >= 0 else None,
        "class": CLASS_IDS[ci] if ci >= 0 else None,
        "class_side": int(r["class_side"][p]) + 1 if int(r["class_side"][p]) >= 0 else None,
        "clearing": int(r["hero_clearing"][p]),
        "hearts": [int(r["hearts"][p, 0]), int(r["hearts"][p, 1])],
        "cubes": [{CUBE_NAMES[k]: int(r["cubes"][p, w, k]) for k in range(len(CUBE_NAMES)) if int(r["cubes"][p, w, k])}
                  for w in range(2)],
        "lp": int(r["lp"][p]), "fame": int(r["fame"][p]), "gold": int(r["gold"][p]),
        "outlaw": int(r["outlaw"][p]),
        "curses": curses_of(r, p),
        "spells": sum(1 for sp in range(NUM_SPELLS) if int(r["spell_where"][sp]) == SPW_KNOWN
                      and int(r["spell_owner"][sp]) == p),
        "statuses": [STATUS_NAMES[i] for i in range(len(STATUS_NAMES)) if int(r["hero_status"][p]) >> i & 1],
        "actions_left": actions_left(r, p),
        "missions": missions_held(r, p),
        "missions_done": int(r["missions_done"][p]),
        "titles": titles_of(r, p),
    }


# ------------------------------------------------------------------ missions and titles
def mission_name(k):
    """Mission Card k's name (constants.MISSION_IDS)."""
    return D.REALM.missions[MISSION_IDS[k]].name


def title_name(i):
    """Title i's name (constants.TITLE_IDS)."""
    card = D.REALM.civ_cards[CIV_CARD_IDS[int(R.TITLE_CARD[i])]]
    return card.title(TITLE_IDS[i])[1].name


def missions_held(state, seat):
    """How many Mission Cards seat's hero holds (public: which ones is his secret, L564)."""
    r = record(state)
    return sum(1 for k in range(NUM_MISSIONS) if int(r["mission_where"][k]) == MW_HERO
               and int(r["mission_owner"][k]) == int(seat))


def missions_of(state, seat, observer):
    """The Mission Cards of seat's hero that ``observer`` may name: all of them
    to himself, none to the others (face down, L564)."""
    r = record(state)
    if int(seat) != int(observer):
        return []
    return [k for k in range(NUM_MISSIONS) if int(r["mission_where"][k]) == MW_HERO
            and int(r["mission_owner"][k]) == int(seat)]


def merchant_missions(state, m, observer):
    """Merchant m's listed Mission Cards, if ``observer`` knows its cards (a
    Look, L558); None when he does not."""
    r = record(state)
    if observer is None or not (int(r["merchant_looked"][int(observer)]) >> int(m)) & 1:
        return None
    return [k for k in range(NUM_MISSIONS) if int(r["mission_where"][k]) == MW_MERCHANT
            and int(r["mission_owner"][k]) == int(m)]


def titles_of(state, seat):
    """Names of the titles seat's hero has claimed, one per claim (public, L567)."""
    r = record(state)
    return [title_name(i) for i in range(NUM_TITLES) for _ in range(int(r["title_claims"][int(seat), i]))]


def actions_left(state, seat):
    """Actions seat's hero may still take this turn, as the rules count them
    (``rules/actions.py::actions_left``: four, one fewer under the Sloth curse,
    the Human's extra one while he has earned it, L451, L1204)."""
    r = record(state)
    p = int(seat)
    slow = 1 if int(r["curses"][p]) >> R.CURSE_SLOTH & 1 else 0
    extra = 1 if int(r["civ_action"][p]) == R.CIV_EARNED else 0
    return R.ACTIONS_PER_TURN - slow - int(r["actions_used"][p]) + extra


def hero_clearing(state, seat):
    """Clearing of seat's hero, -1 when it is not on the map."""
    return int(record(state)["hero_clearing"][int(seat)])


def heroes_at(state, c):
    r = record(state)
    return [p for p in range(int(r["num_players"])) if int(r["hero_clearing"][p]) == int(c)
            and int(r["hero_state"][p]) == HS_ACTIVE]


def pending_card(state, seat):
    """The card seat has just gained and must equip or stow (L972), or -1."""
    r = record(state)
    for c in range(NUM_CARDS):
        if int(r["card_where"][c]) == CW_HERO and int(r["card_owner"][c]) == int(seat) \
                and int(r["card_slot"][c]) == T_PENDING:
            return c
    return -1


def card_seen(state, card, observer):
    """Seat ``observer`` may know which card ``card`` is where it lies now
    (see :func:`cards_seen`)."""
    return bool(cards_seen(state, observer)[int(card)])


_CARD_FACE_UP = np.asarray(O.KIND_FACE_UP)[np.asarray(R.CARD_KIND)].astype(bool)
"""Per card: a Backpack Special card, face up on any board (L960)."""


def merchants_looked(state, observer, merchants):
    """Per entry of ``merchants`` (Merchant indices, -1 for none), whether
    seat ``observer`` knows that Merchant's stock (L558)."""
    merchants = np.asarray(merchants, dtype=np.int64)
    looked = int(record(state)["merchant_looked"][int(observer)])
    return (merchants >= 0) & (((looked >> np.clip(merchants, 0, 62)) & 1) == 1)


def cards_seen(state, observer):
    """Per card, whether seat ``observer`` may know which card it is where it
    lies now (the rule of ``observe.card_visible``): its own; one face up on a
    board (equipped, or Backpack Special, L960); a card of the swap it
    proposes or is offered (L556); a Merchant's stock it has looked at (L558);
    the top three cards of the pile it is looting with two grabby hands (L526)."""
    r = record(state)
    me = int(observer)
    where, owner, slot = r["card_where"], r["card_owner"].astype(np.int64), r["card_slot"]
    on_board = where == CW_HERO
    seen = on_board & ((owner == me) | ((slot >= 0) & (slot < T_BACKPACK)) | _CARD_FACE_UP)
    if not O.HAS_TRADE:
        return seen
    pos = int(r["order_pos"])
    if int(r["trade_mode"]) == O.TM_SWAP and pos < int(r["num_players"]) \
            and me in (int(r["turn_order"][pos]), int(r["trade_partner"])):
        seen |= on_board & (r["card_mark"] == O.MARK_DEAL)
    seen |= (where == CW_MERCHANT) & merchants_looked(r, me, owner)
    if int(r["phase"]) == O.PH_LOOT_KEEP and int(r["to_play"]) == me:
        seen |= (where == CW_SITE) & (owner == int(r["trade_pile"])) & (slot < 3)
    return seen


def visible_cards(state, seat, observer):
    """``[(card, name or None, slot), ...]`` of seat's cards as ``observer``
    may know them: the name of a face-down card of another seat is None.
    ``slot`` indexes TARGET_NAMES."""
    r = record(state)
    out = []
    for c in range(NUM_CARDS):
        if int(r["card_where"][c]) == CW_HERO and int(r["card_owner"][c]) == int(seat):
            out.append((c, card_name(c) if card_seen(r, c, observer) else None, int(r["card_slot"][c])))
    return out


def merchant_stock_size(state, m):
    """Cards in Merchant m's stock (their number is public)."""
    r = record(state)
    return int(((r["card_where"] == CW_MERCHANT) & (r["card_owner"] == int(m))).sum())


def is_civilization(t):
    return int(R.TILE_KIND[int(t)]) == TILE_CIVILIZATION


def cube_name(kind):
    return CUBE_NAMES[int(kind)]


def heal_name(k):
    """Name of what A_HEAL + k heals."""
    return "a Heart" if int(k) == R.HEAL_HEART else f"a {CUBE_NAMES[int(k)]} cube"


# ------------------------------------------------------------------ magic
def spell_name(sp):
    """The name of Spell Card sp (``"Fireball"``)."""
    return D.REALM.spells[SPELL_IDS[int(R.SPELL_KIND[int(sp)])]].name


def colour_name(k):
    """The name of Magic Cube colour k (data.MAGIC_COLOURS)."""
    return D.MAGIC_COLOURS[int(k)]


def curse_name(k):
    return D.REALM.curses[CURSE_IDS[int(k)]].name


def curses_of(state, seat):
    """Names of the lasting curses seat's hero holds (public, L422)."""
    r = record(state)
    return [curse_name(k) for k in range(len(CURSE_IDS)) if int(r["curses"][int(seat)]) >> k & 1]


def spells_on(state, code):
    """Names of the spells in play on target ``code`` (a foe's index, or
    rules.AIM_HERO + seat): public, L1048. A permanent spell not active now
    says so (L1055); the Lich's Vapor Form on a hero is named as its."""
    r = record(state)
    names = []
    for sp in range(NUM_SPELLS):
        if int(r["spell_on"][sp]) == int(code):
            idle = int(R.SPELL_DURATION[R.SPELL_KIND[sp]]) == R.DUR_PERMANENT and \
                not int(r["spell_mark"][sp]) & R.PERM_ACTIVE
            names.append(spell_name(sp) + (" (inactive)" if idle else ""))
    for sp in R.DISCORD_CARDS:
        a, z = int(r["spell_on"][sp]), int(r["spell_mark"][sp])
        if 0 <= a < R.NUM_FOES and int(code) in (a, z):
            other = z if int(code) == a else a
            names = [n for n in names if n != spell_name(sp)]
            names.append(f"Discord, against {foe_name(other)}")
    for i, sp in enumerate(R.TENTACLE_CARDS):
        if int(r["spell_on"][sp]) >= 0 and int(code) >= 0:             # a foe, or a hero (Player vs. Player)
            held = [int(h) for f, h in zip(r["tentacle_on"][i], r["tentacle_hit"][i]) if int(f) == int(code)]
            if held:
                what = {R.TENT_ATTACK: "-1 attack speed", R.TENT_MANEUVER: "-1 maneuver"}
                effects = [what[h] for h in held if h in what]
                names.append(f"{len(held)} tentacle{'s' if len(held) > 1 else ''} of the Tentacles"
                             + (f" ({', '.join(effects)})" if effects else ""))
    if int(code) >= R.AIM_HERO and int(r["lich_vapor"][int(code) - R.AIM_HERO]):
        idle = not int(r["lich_vapor"][int(code) - R.AIM_HERO]) & R.LICH_VAPOR_ACTIVE
        names.append("Vapor Form, the Lich's" + (" (inactive)" if idle else ""))
    return names


def foe_curses_of(state, f):
    """Names of the lasting curses on foe f (the Curse spell, L1500)."""
    r = record(state)
    return [curse_name(k) for k in range(len(CURSE_IDS)) if int(r["foe_curses"][int(f)]) >> k & 1]


def controller_of(state, f):
    """The seat whose hero controls foe f (Rule Undead, Elemental, L1506,
    L1550: it counts as a hero in combat, L692), or None. Public."""
    q = int(record(state)["foe_ctrl"][int(f)]) - 1
    return q if q >= 0 else None


def casting(state, seat, observer):
    """The spell seat's hero casts this round as ``observer`` may know it:
    its name; None when it casts none, or while Hero Tactics are secret to
    another seat (L714, L724)."""
    r = record(state)
    sp = int(r["cast_card"][int(seat)])
    if observer is not None and int(observer) != int(seat) and int(r["combat_step"]) == R.CS_TACTICS:
        return None
    return spell_name(sp) if sp >= 0 else None


def treasure_cubes(state, seat, observer):
    """``[(card name, colour name), ...]``: the Magic Cubes seat's hero has
    put on his treasures this round, as ``observer`` may know them: hidden
    from another seat while Hero Tactics are secret (L714, L724)."""
    r = record(state)
    if observer is not None and int(observer) != int(seat) and int(r["combat_step"]) == R.CS_TACTICS:
        return []
    return [(card_name(c), colour_name(int(r["card_cube"][c]) - 1)) for c in range(NUM_CARDS)
            if int(r["card_cube"][c]) and int(r["card_where"][c]) == CW_HERO and int(r["card_owner"][c]) == int(seat)]


def spells_known(state, seat, observer):
    """``[(spell card, name or None), ...]`` of the spells seat's hero knows
    as ``observer`` may know them: its own by name, another's as None (kept
    secret until cast, L205)."""
    r = record(state)
    mine = int(seat) == int(observer)
    return [(sp, spell_name(sp) if mine else None) for sp in range(NUM_SPELLS)
            if int(r["spell_where"][sp]) == SPW_KNOWN and int(r["spell_owner"][sp]) == int(seat)]


def spells_under(state, card, observer):
    """``[(spell card, name or None), ...]`` under Spell Book or Scroll
    ``card``: named for the hero holding it (L1426) and, on a Merchant's
    stock, for a hero who revealed and read it (L1424); None for anyone else."""
    r = record(state)
    c = int(card)
    me = int(observer)
    holder = int(r["card_owner"][c]) if int(r["card_where"][c]) == CW_HERO else -1
    read = int(r["card_where"][c]) == CW_MERCHANT and me >= 0 and int(r["spells_read"][c]) >> me & 1
    return [(sp, spell_name(sp) if holder == me or read else None) for sp in range(NUM_SPELLS)
            if int(r["spell_where"][sp]) == SPW_ATTACHED and int(r["spell_owner"][sp]) == c]


def enchantment(state, t):
    """The colour name of the Magic Cube enchanting tile t, or None (L575)."""
    k = int(record(state)["tile_enchant"][int(t)])
    return colour_name(k) if k >= 0 else None


def pending_roll(state):
    """The roll waiting on rerolls (PH_REROLL) in words, public: "Loot Dice
    3 and a grabby hand"; "Open Gate's clearing Deepdelve 2 (cave)"; "" none."""
    r = record(state)
    kind = int(r["roll_kind"])
    if kind == R.ROLL_NONE:
        return ""
    dice = [int(r["roll_dice"][i]) for i in range(int(r["roll_n"]))]
    if kind == R.ROLL_LOOT:
        faces = [die_face(kind, f) for f in dice]
        return ("Loot Die " if len(faces) == 1 else "Loot Dice ") + " and ".join(faces)
    if kind in _DICE_NAMES:
        return f"{_DICE_NAMES[kind]} " + " and ".join(die_face(kind, f, i) for i, f in enumerate(dice))
    if kind == R.ROLL_TRAP:
        return f"the Hidden Trap's cube: {die_face(kind, dice[0])}"
    if kind == R.ROLL_CURSE:
        return f"the Curse Table: {die_face(kind, dice[0])}"
    if kind == R.ROLL_SUMMON:
        return f"the Summon curse's gray numbered die: {die_face(kind, dice[0])}"
    if kind == R.ROLL_WRAITH:
        return f"the Wraith's Local Monster Die: {die_face(kind, dice[0])}"
    if kind == R.ROLL_DESTINATION:
        what = "the Teleport curse's" if int(r["roll_then"]) in (R.DEST_CURSE, R.DEST_CURSE_SPELL) else "the Titan's Teleport's"
    else:
        what = "Open Gate's" if kind == R.ROLL_GATE else "Teleport's"
    return f"{what} clearing {clearing_name(state, dice[0])}" if dice and dice[0] >= 0 else f"{what} clearing"


_DICE_NAMES = {R.ROLL_SEARCH: "Search Dice", R.ROLL_LEARN: "Learn Dice", R.ROLL_HAGGLE: "Haggle Dice",
               R.ROLL_STRUCK: "Hit Dice", R.ROLL_ATTACK: "Hit Dice", R.ROLL_RANGED: "Ranged Attack Dice",
               R.ROLL_HIDE: "Monster Dice", R.ROLL_NOISE: "Summoning Dice", R.ROLL_TENTACLE: "a tentacle's Hit Dice",
               R.ROLL_OUTLAW: "an Outlaw Token's Monster Dice"}
"""Pending rolls of dice shown face by face (``pending_roll``), by kind."""


def die_face(kind, f, i=0):
    """Die i of a pending roll of ``kind`` (rules.ROLL_*) showing ``f``, in words."""
    if kind == R.ROLL_LOOT:
        return "a grabby hand" if f == 0 else str(f)
    if kind == R.ROLL_SEARCH:
        return "a spyglass" if f else "a blank"
    if kind == R.ROLL_LEARN:
        return {R.LEARN_BOOK: "a book", R.LEARN_CURSE: "a curse"}.get(int(f), "a blank")
    if kind == R.ROLL_HAGGLE:
        return "the closed door" if f == R.HAGGLE_DOOR else str(f)
    if kind in (R.ROLL_STRUCK, R.ROLL_ATTACK, R.ROLL_TENTACLE):
        return {R.HIT_BLANK: "a blank", R.HIT_EQUAL: "an equal sign"}.get(int(f), "a hit")
    if kind == R.ROLL_RANGED:
        return f"{int(f):+d}"
    if kind in (R.ROLL_HIDE, R.ROLL_OUTLAW):
        return "a Monster symbol" if f else "a blank"
    if kind == R.ROLL_NOISE:
        face = D.REALM.dice["wandering_symbol" if i == 0 else "local_symbol"].faces[int(f)]
        return ("gray " if i == 0 else "black ") + str(face).replace("_", " ")
    if kind == R.ROLL_TRAP:
        return heal_name(f)
    if kind == R.ROLL_CURSE:
        return curse_name(f)
    if kind == R.ROLL_WRAITH:
        return "the Treasure Site Symbol" if f == R.SYM_SITE else "another symbol"
    return str(f)
