r"""Dragons Down's text picture (``render_ansi``) and the words the pictures share.

The text reads like Dragon Pass's: a header line, the map as a staggered hex
grid of the placed tiles with a legend, then the realm tile by tile (its
clearings, paths and what stands in each clearing that holds something),
the heroes (named as the PettingZoo agents, ``player_N``), the combat and
the decision pending::

    Dragons Down, explore the realm (cruel_caves, malevolent_mountains, wicked_woods) | turn 6 of 30 | ...
     q -1            q 0             q 1
                    /Lonely M.    \
                    |@0           |
                    \M1 T1 G      / /Hag's Mire   \
                                    |             |
                    /Deepdelve*   \ \T1 G         /
                    |@12          |
    /Dragon's S.  \ \N3           / /Tri-Peaks    \
    ...
    Deepdelve* at (0, 0), side 2, turn 0: 1 plains, 2 cave, 3 cave, 4 mountains
      paths 1-2 2-3 3-4 1-4; hidden 1-3; to 1>Lonely Mountains 3, 2>Hag's Mire 1, ...
      3: The Mine; Natives Mine Foreman, Miner x2
      4: player_2

With no observer (``seat=None``) everything is shown, but cards lying face
down are shown by their number only. For a seat, the Hidden Paths are those
that seat found, and its own face-down cards are named.
"""
# jitcache: no compiled code
import numpy as np

from . import constants as C
from . import data as D
from . import rules as R
from . import view as V
from .constants import (
    CLEARINGS_PER_TILE, CW_HERO, CW_MERCHANT, CW_SITE, HS_ACTIVE, MAX_HIDDEN_PER_SIDE, MONSTER_CHIP_KINDS,
    NATIVE_CHIP_KINDS, NUM_DIRECTIONS, NUM_MONSTER_CHIPS, NUM_TILES, T_BACKPACK, TOK_PLACED, TW_HAND, WILD_TOKENS,
)

LINE_WIDTH = 118
"""Long lines are wrapped to this many columns."""
CELL_WIDTH = 16
"""A tile's cell in the map grid: this many columns, a space after its
hexagon's two sides and the 13 between them ..."""
CELL_TEXT = CELL_WIDTH - 3
CELL_LINES = 3
"""... and this many lines: its name, its heroes, what else is there."""

LEGEND = ("legend: each hexagon is a Map Tile, its name on top (* a Civilization Tile), then @02 the heroes "
          "of player_0 and player_2 (! a combat there), then M3 Monster chips, N4 Natives, T1 Treasure Sites "
          "and bodies, $2 Merchants, G a Gate; (q, r) below are axial tile positions, q the column")

_STAGE_WORDS = {
    C.ST_DEAL: "setting up the realm", C.ST_BUILD_REALM: "building the realm", C.ST_HEROES: "choosing heroes",
    C.ST_TURN_START: "a new turn begins", C.ST_TURNS: "the action phase", C.ST_BATTLE: "the battle phase",
    C.ST_ACTIVATION: "the battle phase: monsters activate", C.ST_COMBAT: "the battle phase: combat",
    C.ST_OVER: "the game is over", C.ST_FATE: "the fate of heroes",
}
_DECISIONS = {
    R.PH_TILE_CHOOSE: "choose a dealt tile to place", R.PH_TILE_SPOT: "choose where the tile goes",
    R.PH_TILE_TURN: "choose the tile's side and turn", R.PH_LINEAGE: "choose a Lineage Card",
    R.PH_LINEAGE_SIDE: "choose the Lineage Card's side", R.PH_CLASS: "choose a Class Card",
    R.PH_CLASS_SIDE: "choose the Class Card's side", R.PH_CUBE_COLOUR: "choose a cube's colour",
    R.PH_ENTER_PLACE: "choose where the hero enters the map", R.PH_ACTION: "take an action",
    R.PH_ALERT: "Alert: equip or unequip a card", R.PH_ALERT_TARGET: "Alert: where the card goes",
    R.PH_HIDE: "hide after the activation?", R.PH_ADJUST: "adjust equipment",
    R.PH_ADJUST_TARGET: "adjust equipment: where the card goes", R.PH_TARGET: "choose a target",
    R.PH_TACTICS: "place Hero Tactics in secret", R.PH_ARMOR: "choose the armour that takes the hit",
    R.PH_WOUND: "choose what is wounded", R.PH_BLOCK: "block the monsters' way?", R.PH_EVADE: "evade?",
    R.PH_UNHIDE: "unhide for the combat?", R.PH_LURE: "lure a Monster to challenge the hero?",
    R.PH_RETIRE: "retire the hero?",
    R.PH_GAINED: "equip or stow the card just gained", R.PH_REARM: "rearm after the throw",
    R.PH_TRADE_WITH: "choose whom to trade with", R.PH_COMMERCE: "trade with the Merchant",
    R.PH_HEAL: "choose what the rest heals", R.PH_EXPLORE_TURN: "choose the explored tile's side and turn",
    R.PH_EXPLORE_ENTER: "move into the explored tile?", R.PH_SWAP_OFFER: "make the swap offer",
    R.PH_SWAP_ANSWER: "answer the swap offer", R.PH_RECEIVED: "equip or stow the card received",
    R.PH_BUY: "buy the card set apart?", R.PH_SELL: "choose a card to sell", R.PH_REPAIR: "choose a card to repair",
    R.PH_LOOT_PILE: "choose the pile to loot", R.PH_LOOT_KEEP: "keep one of the top cards",
    R.PH_START_SPELL: "choose a starting spell", R.PH_UNCURSE: "remove another curse or spell for 5 Gold?",
    R.PH_TAKE_MISSION: "take a second mission?", R.PH_MISSION_LIMIT: "discard a mission (two may be kept)",
    R.PH_PARDON: "discard an Outlaw Token for the Quest?",
    R.PH_DISPEL_ASK: "let the active hero remove a spell on you?",
    R.PH_MORE_TARGETS: "add a target for the spell?", R.PH_SPELL_CUBE: "cover a multi-colour spell box",
    R.PH_ACCEPT: "accept the hit of another hero's spell?",
    R.PH_CHALLENGE: "challenge a hero?", R.PH_CHALLENGE_CUBE: "place challenge cubes in the maneuver box",
    R.PH_HERO_BLOCK: "block a hero?",
    R.PH_DISPEL_ASK: "let the active hero remove your permanent spell?",
    R.PH_TELEPORT_TILE: "choose the Map Tile the Teleport sends its target to",
    R.PH_EARTH_TILE: "choose the Map Tile Move Earth turns",
    R.PH_TENTACLE: "put a tentacle of the Tentacles on a foe (or, Player vs. Player, a hero)",
    R.PH_REROLL: "reroll a die of the roll, or let it stand?",
    R.PH_EARTH_TURN: "choose the side and turn Move Earth gives the tile",
    R.PH_ACTIVATE: "activate a permanent spell?",
    R.PH_CTRL_TARGET: "choose the target of one's controlled Monster",
    R.PH_CTRL_SIDE: "choose the side up of one's controlled Monster",
    R.PH_CTRL_KEEP: "let the ruled Monster's attack go on?",
    R.PH_SHAPE: "choose the Monster to Shape Shift into",
}
"""The pending decision (``phase``) in words."""

CIV_LOCATIONS = {D.PACKS.index(card.pack): D.REALM.civ_locations[card.civ_location].name
                  for card in D.REALM.setup_cards.values()}
"""Terrain Pack index -> the name of its Civilization Location."""


def stage_words(rec):
    """Where the game is in its sequence of play, in words ("the action phase")."""
    if int(rec["status"]) != 0:
        return "the game is over" + (" (turn limit)" if int(rec["status"]) == 2 else "")
    return _STAGE_WORDS.get(int(rec["stage"]), f"stage {int(rec['stage'])}")


def decision_words(rec, seat=None):
    """The pending decision in words, with the actions left in an action
    phase, as ``seat`` may know it: another seat covering a Spell Card's
    multi-colour box, or choosing a colour in Hero Tactics (a Magic Cube on
    a treasure), is placing its Hero Tactics (a secret, L714)."""
    ph = int(rec["phase"])
    p = int(rec["to_play"])
    if (ph == R.PH_SPELL_CUBE or (ph == R.PH_CUBE_COLOUR and int(rec["combat_step"]) == R.CS_TACTICS)) \
            and seat is not None and int(seat) != p:
        ph = R.PH_TACTICS
    words = _DECISIONS.get(ph, f"phase {ph}")
    if ph == R.PH_ACTION and p >= 0:
        left = V.actions_left(rec, p)
        words += f" ({left} action{'s' if left != 1 else ''} left)"
    if ph == R.PH_REROLL:
        words += f" ({V.pending_roll(rec)})"
    return words


# ------------------------------------------------------------------ the map grid
def short_name(t):
    """Tile t's name in at most CELL_TEXT columns: as printed when it
    fits, else its first word and the initials of the others ("Lonely M."),
    a Civilization Tile's marked with "*"."""
    name = V.tile_name(t)
    mark = "*" if V.is_civilization(t) else ""
    if len(name) + len(mark) > CELL_TEXT:
        words = name.split(" ")
        name = words[0] + " " + "".join(w[0] + "." for w in words[1:]) if len(words) > 1 else name
    return name[:CELL_TEXT - len(mark)] + mark


def _cell(rec, t, at):
    """The three lines of tile t's cell, a hexagon's outline around its
    name, its heroes (and a combat), the rest."""
    name = short_name(t)
    heroes = "".join(str(p) for p in at["heroes"].get(t, []))
    fight = "!" if t in at["combat"] else ""
    line1 = (fight + ("@" + heroes if heroes else "")).strip()
    parts = []
    for mark, key in (("M", "monsters"), ("N", "natives"), ("T", "piles"), ("$", "merchants")):
        k = at[key].get(t, 0)
        if k:
            parts.append(f"{mark}{k}")
    if at["gates"].get(t):
        parts.append("G")
    return [f"/{name:<{CELL_TEXT}}\\", f"|{line1:<{CELL_TEXT}}|", f"\\{' '.join(parts)[:CELL_TEXT]:<{CELL_TEXT}}/"]


def _contents_by_tile(rec):
    """What stands on each tile, counted: ``{key: {tile: ...}}``."""
    def tile_of(c):
        return int(c) // CLEARINGS_PER_TILE

    at = {"heroes": {}, "monsters": {}, "natives": {}, "piles": {}, "merchants": {}, "gates": {}, "combat": set()}
    n = int(rec["num_players"])
    for p in range(n):
        c = int(rec["hero_clearing"][p])
        if c >= 0 and int(rec["hero_state"][p]) == HS_ACTIVE:
            at["heroes"].setdefault(tile_of(c), []).append(p)
    for key, field in (("monsters", "mon_clearing"), ("natives", "native_clearing"), ("piles", "site_clearing")):
        for c in rec[field].tolist():
            if c >= 0:
                at[key][tile_of(c)] = at[key].get(tile_of(c), 0) + 1
    for k, (where, c) in enumerate(zip(rec["civ_token_where"].tolist(), rec["civ_token_clearing"].tolist())):
        if where == TOK_PLACED and c >= 0 and int(R.CIV_TOKEN_MERCHANT[k]) >= 0:
            at["merchants"][tile_of(c)] = at["merchants"].get(tile_of(c), 0) + 1
    for w, (where, c) in enumerate(zip(rec["wild_where"].tolist(), rec["wild_clearing"].tolist())):
        if where == TOK_PLACED and c >= 0 and R.WILD_GATE[w]:
            at["gates"][tile_of(c)] = 1
    if int(rec["combat_step"]) and int(rec["combat_clearing"]) >= 0:
        at["combat"].add(tile_of(rec["combat_clearing"]))
    return at


def map_text(rec):
    """The placed tiles as a staggered hex grid: the tile at axial (q, r) is
    text column ``CELL_WIDTH * (q - q_min)`` and starts on text line
    ``2 * (2r + q - min)``, so a column's tiles are 4 lines apart and the
    next column's sit half a tile lower, as on the table (N is up). The
    first line names the columns."""
    placed = V.placed_tiles(rec)
    if not placed:
        return ["(no tile on the map yet)"]
    qs = {t: int(rec["tile_q"][t]) for t in placed}
    halves = {t: 2 * int(rec["tile_r"][t]) + qs[t] for t in placed}
    q0, h0 = min(qs.values()), min(halves.values())
    cols = max(qs.values()) - q0 + 1
    height = 2 * (max(halves.values()) - h0) + CELL_LINES
    grid = [[" "] * (CELL_WIDTH * cols) for _ in range(height)]
    at = _contents_by_tile(rec)
    for t in placed:
        x, top = CELL_WIDTH * (qs[t] - q0), 2 * (halves[t] - h0)
        for i, text in enumerate(_cell(rec, t, at)):
            grid[top + i][x:x + len(text)] = list(text)
    header = "".join(f" q {q0 + c}".ljust(CELL_WIDTH) for c in range(cols))
    return [header.rstrip()] + ["".join(row).rstrip() for row in grid]


# ------------------------------------------------------------------ the realm tile by tile
def _wrap(text, indent="    "):
    """``text`` as lines of at most LINE_WIDTH columns, broken at spaces; a
    line it continues starts with its own indentation and ``indent``."""
    lead = text[:len(text) - len(text.lstrip(" "))]
    out, line = [], lead
    for word in text[len(lead):].split(" "):
        if line.strip() and len(line) + 1 + len(word) > LINE_WIDTH:
            out.append(line)
            line = lead + indent + word
        else:
            line = f"{line} {word}" if line.strip() else line + word
    out.append(line)
    return out


def clearing_contents(rec):
    """``{clearing: [words, ...]}``: what stands in each clearing that holds
    something -- its Civilization Location, Natives, Merchants, Wilderness
    Tokens, Treasure Sites and bodies, Monsters, heroes -- in one pass over
    each kind of piece."""
    out = {}

    def add(c, text):
        out.setdefault(int(c), []).append(text)

    for pack, c in enumerate(rec["civ_clearing"].tolist()):
        if c >= 0:
            add(c, CIV_LOCATIONS[pack])
    natives = {}
    for i, c in enumerate(rec["native_clearing"].tolist()):
        if c >= 0:
            kinds = natives.setdefault(c, {})
            name = D.REALM.natives[NATIVE_CHIP_KINDS[i]].name
            kinds[name] = kinds.get(name, 0) + 1
    for c, kinds in natives.items():
        add(c, "Natives " + ", ".join(f"{k} x{v}" if v > 1 else k for k, v in kinds.items()))
    stock = np.bincount(rec["card_owner"][rec["card_where"] == CW_MERCHANT].astype(np.int64),
                        minlength=len(R.MERCHANT_PACK))
    merchants = {}
    for k, (where, c) in enumerate(zip(rec["civ_token_where"].tolist(), rec["civ_token_clearing"].tolist())):
        m = int(R.CIV_TOKEN_MERCHANT[k])
        if where == TOK_PLACED and c >= 0 and m >= 0:
            merchants.setdefault(c, []).append(f"{V.merchant_name(m)} ({int(stock[m])} cards)")
    for c, names in merchants.items():
        add(c, "Merchants " + ", ".join(names))
    for w, (where, c) in enumerate(zip(rec["wild_where"].tolist(), rec["wild_clearing"].tolist())):
        if where == TOK_PLACED and c >= 0 and int(R.WILD_SITE[w]) < 0:
            add(c, D.REALM.wilderness_tokens[WILD_TOKENS[w]].name)
    in_piles = np.bincount(rec["card_owner"][rec["card_where"] == CW_SITE].astype(np.int64),
                           minlength=len(rec["site_clearing"]))
    for pile, c in enumerate(rec["site_clearing"].tolist()):
        if c >= 0:
            size, gold = int(in_piles[pile]), int(rec["site_gold"][pile])
            add(c, f"{V.pile_name(pile)} ({size} card{'s' if size != 1 else ''}, {gold} Gold)")
    monsters = {}
    flipped = rec["mon_flipped"].tolist()
    for m, c in enumerate(rec["mon_clearing"].tolist()):
        if c >= 0:
            kinds = monsters.setdefault(c, {})
            name = V.monster_name(MONSTER_CHIP_KINDS[m]) + (" (back)" if flipped[m] else "")
            kinds[name] = kinds.get(name, 0) + 1
    for c, kinds in monsters.items():
        for name, k in kinds.items():
            add(c, f"{name} x{k}" if k > 1 else name)
    n = int(rec["num_players"])
    for p, (c, state) in enumerate(zip(rec["hero_clearing"][:n].tolist(), rec["hero_state"][:n].tolist())):
        if c >= 0 and state == HS_ACTIVE:
            add(c, f"player_{p}")
    return out


def _edge_links(rec, t, where):
    """``(links, off_map)`` of tile t: ``[(k, u, ku)]`` for each path crossing
    an edge into placed tile u's clearing ku, ``[(k, d)]`` for each leading
    off the map toward direction d (L113, L583); ``where`` maps ``(q, r)`` to
    the placed tile there."""
    side, rot = int(rec["tile_side"][t]), int(rec["tile_rot"][t])
    q, r = int(rec["tile_q"][t]), int(rec["tile_r"][t])
    links, off_map = [], []
    for e in range(NUM_DIRECTIONS):
        k = int(R.EDGE_CLEARING[t, side, e])
        if k < 0:
            continue
        d = (e + rot) % NUM_DIRECTIONS
        u = where.get((q + int(R.DIR_DQ[d]), r + int(R.DIR_DR[d])))
        if u is None:
            off_map.append((k, d))
            continue
        eu = ((d + 3) % NUM_DIRECTIONS - int(rec["tile_rot"][u])) % NUM_DIRECTIONS
        ku = int(R.EDGE_CLEARING[u, int(rec["tile_side"][u]), eu])
        if ku >= 0:
            links.append((k, u, ku))
    return sorted(links), sorted(off_map)


def _tile_lines(rec, t, where, contents, seat=None):
    """Tile t's lines: where it lies with its clearings' types, its paths,
    Hidden Paths (with who found them) and the paths across its edges, then
    a line for each clearing that holds something (``contents``, from
    :func:`clearing_contents`); ``where`` maps ``(q, r)`` to the placed tile."""
    side, rot = int(rec["tile_side"][t]), int(rec["tile_rot"][t])
    kinds = [(k, D.CLEARING_TYPES[int(R.CLEARING_TYPE[t, side, k])]) for k in range(CLEARINGS_PER_TILE)
             if int(R.CLEARING_TYPE[t, side, k]) >= 0]
    clearings = [t * CLEARINGS_PER_TILE + k for k, _ in kinds]
    mark = "*" if V.is_civilization(t) else ""
    enchanted = V.enchantment(rec, t)
    spell = f", enchanted {enchanted}" if enchanted else ""
    head = (f"{V.tile_name(t)}{mark} at ({int(rec['tile_q'][t])}, {int(rec['tile_r'][t])}), side {side + 1}, "
            f"turn {rot}{spell}: " + ", ".join(f"{k + 1} {kind}" for k, kind in kinds))
    lines = _wrap(head)
    paths = " ".join(f"{int(a) + 1}-{int(z) + 1}" for a, z in R.PATHS[t, side] if int(a) >= 0)
    hidden = []
    n = int(rec["num_players"])
    for h, (a, z) in enumerate(R.HIDDEN[t, side]):
        if int(a) < 0:
            continue
        i = (t * 2 + side) * MAX_HIDDEN_PER_SIDE + h
        finders = [f"player_{p}" for p in range(n) if int(rec["hidden_found"][p, i])]
        if seat is not None and not int(rec["hidden_found"][seat, i]):
            continue                        # a Hidden Path this seat has not found
        hidden.append(f"{int(a) + 1}-{int(z) + 1}" + (f" (found by {', '.join(finders)})" if finders else ""))
    links, off_map = _edge_links(rec, t, where)
    text = f"  paths {paths}"
    if hidden:
        text += "; hidden " + ", ".join(hidden)
    if links:
        text += "; to " + ", ".join(f"{k + 1}>{V.tile_name(u)} {ku + 1}" for k, u, ku in links)
    if off_map:
        text += "; off the map " + " ".join(f"{k + 1}>{V.DIRECTION_NAMES[d]}" for k, d in off_map)
    lines += _wrap(text)
    for c in clearings:
        if c in contents:
            lines += _wrap(f"  {c % CLEARINGS_PER_TILE + 1}: " + "; ".join(contents[c]))
    return lines


# ------------------------------------------------------------------ heroes, combat, the decision
def _hero_lines(rec, p, seat=None):
    h = V.hero(rec, p)
    who = []
    if h["lineage"]:
        who.append(V.lineage_name(int(rec["hero_lineage"][p])))
    if h["class"]:
        who.append(V.class_name(int(rec["hero_class"][p])))
    where = f"{h['state']} at {V.clearing_name(rec, h['clearing'])}" if h["clearing"] >= 0 else h["state"]
    cubes = ", ".join(f"{k} {v}" for k, v in h["cubes"][0].items()) or "-"
    wounded = ", ".join(f"{k} {v}" for k, v in h["cubes"][1].items()) or "-"
    first = (f"player_{p}: {' '.join(who) or 'no hero yet'}, {where} | Hearts {h['hearts'][0]} "
             f"({h['hearts'][1]} wounded) | cubes {cubes} | wounded {wounded}")
    equipped, down, mine = [], 0, []
    owned = np.flatnonzero((rec["card_where"] == CW_HERO) & (rec["card_owner"] == p)).tolist()
    for c in owned:
        slot = int(rec["card_slot"][c])
        if slot < T_BACKPACK:
            equipped.append(f"{V.card_name(c)} ({V.TARGET_NAMES[slot]})")
        elif seat == p:
            mine.append(V.card_name(c))     # the observer's own backpack
        else:
            down += 1
    backpack = f"backpack: {', '.join(mine) or '-'}" if seat == p else f"face down: {down}"
    outlaw = f", Outlaw Tokens {h['outlaw']}" if h["outlaw"] else ""
    second = (f"  LP {h['lp']}, Fame {h['fame']}, Gold {h['gold']}{outlaw} | "
              f"{', '.join(h['statuses']) or 'no statuses'} "
              f"| equipped: {', '.join(equipped) or '-'}; {backpack}")
    return _wrap(first) + _wrap(second) + _magic_lines(rec, p, seat, owned) + _mission_lines(rec, p, seat)


def _mission_lines(rec, p, seat):
    """The hero's Mission Cards (named for their holder, counted for the
    others, L564), the missions he completed and the titles he claimed
    (public, L567); nothing when he has none of them."""
    h = V.hero(rec, p)
    parts = []
    if h["missions"]:
        names = [V.mission_name(k) for k in V.missions_of(rec, p, p if seat == p else -1)]
        parts.append(f"missions: {', '.join(names)}" if names else f"missions: {h['missions']} face down")
    if h["missions_done"]:
        parts.append(f"completed {h['missions_done']}")
    if h["titles"]:
        parts.append(f"titles: {', '.join(h['titles'])}")
    return _wrap("  " + " | ".join(parts)) if parts else []


def _magic_lines(rec, p, seat, owned):
    """The hero's spells (named for their owner, counted for the others,
    L205), the spells under its Spell Books and Scrolls (likewise, L1426), and
    its curses (public, L422); nothing when it has none of them."""
    known = V.spells_known(rec, p, p if seat == p else -1)
    under = [x for c in owned for x in V.spells_under(rec, c, p if seat == p else -1)]
    parts = []
    if known:
        names = [name for _, name in known if name]
        parts.append("spells: " + (", ".join(names) if names else f"{len(known)} known"))
    if under:
        names = [name for _, name in under if name]
        parts.append("to learn: " + (", ".join(names) if names else f"{len(under)} under its books"))
    curses = V.curses_of(rec, p)
    if curses:
        parts.append("cursed: " + ", ".join(curses))
    on = V.spells_on(rec, R.AIM_HERO + p)
    if on:
        parts.append("under: " + ", ".join(on))
    casting = V.casting(rec, p, seat)
    if casting:
        parts.append("casting: " + casting)
    cubes = V.treasure_cubes(rec, p, seat)
    if cubes:
        parts.append("cubes on: " + ", ".join(f"{card} ({colour})" for card, colour in cubes))
    return _wrap("  " + " | ".join(parts)) if parts else []


def _combat_lines(rec):
    step = int(rec["combat_step"])
    c = int(rec["combat_clearing"])
    if not step or c < 0:
        return []
    names = ("", "challenge", "evade", "target", "hero tactics", "monster tactics", "resolve", "cleanup")
    foes = []
    for f in range(NUM_MONSTER_CHIPS):
        if int(rec["mon_clearing"][f]) == c:
            foes.append((f, V.monster_name(MONSTER_CHIP_KINDS[f]), int(rec["mon_flipped"][f])))
    for i, cc in enumerate(rec["native_clearing"].tolist()):
        if cc == c:
            foes.append((NUM_MONSTER_CHIPS + i, D.REALM.natives[NATIVE_CHIP_KINDS[i]].name,
                         int(rec["native_flipped"][i])))
    parts = []
    for f, name, back in foes:
        target = int(rec["foe_target"][f])
        marks = V.spells_on(rec, f) + V.foe_curses_of(rec, f)
        ctrl, vs = int(rec["foe_ctrl"][f]) - 1, int(rec["foe_vs"][f]) - 1
        added = [f"player_{q}" for q in range(int(rec["num_players"])) if int(rec["foe_extra"][f]) >> q & 1] \
            + [f"#{int(g) - 1}" for g in rec["foe_extra_vs"][f] if g > 0]       # its multi-target attack's (L728)
        parts.append(f"{name} #{f} ({'back' if back else 'front'}, {int(rec['foe_wounds'][f])} wounds"
                     + (f", -> player_{target}" if target >= 0 else "")
                     + (f", controlled by player_{ctrl}" if ctrl >= 0 else "")
                     + (f", -> #{vs}" if vs >= 0 else "")
                     + (f", also -> {', '.join(added)}" if added else "")
                     + (f", {', '.join(marks)}" if marks else "") + ")")
    head = (f"combat at {V.clearing_name(rec, c)}, round {int(rec['combat_round'])}, "
            f"{names[step] if step < len(names) else step}: " + ("; ".join(parts) or "no foes"))
    return _wrap(head)


def picture(rec, seat=None):
    """The whole text picture of record ``rec`` as ``seat`` may know it
    (None: the full position; see the module docstring)."""
    n = int(rec["num_players"])
    lines = _wrap(f"Dragons Down, {V.sandbox(rec).replace('_', ' ')} ({', '.join(V.packs_in_play(rec))}) | "
                  f"turn {int(rec['turn'])} of {int(rec['max_turns'])} | {stage_words(rec)}")
    lines += map_text(rec)
    lines += _wrap(LEGEND)
    placed = V.placed_tiles(rec)
    where = {(int(rec["tile_q"][t]), int(rec["tile_r"][t])): t for t in placed}
    contents = clearing_contents(rec)
    for t in placed:
        lines += _tile_lines(rec, t, where, contents, seat)
    dealt = [t for t in range(NUM_TILES) if int(rec["tile_where"][t]) == TW_HAND]
    if dealt:
        lines += _wrap("dealt: " + ", ".join(f"{V.tile_name(t)} (player_{int(rec['tile_holder'][t])})"
                                             for t in dealt))
    if int(rec["stack_len"]):
        lines.append(f"tile stack: {int(rec['stack_len'])} tiles")
    for p in range(n):
        lines += _hero_lines(rec, p, seat)
    lines += _combat_lines(rec)
    if int(rec["status"]) == 0:
        p = int(rec["to_play"])
        lines.append(f"to play: player_{p}, {decision_words(rec, seat)}")
    else:
        lines.append("ranks: " + ", ".join(f"player_{p} {int(rec['rank'][p])} ({int(rec['lp'][p])} LP)"
                                           for p in range(n)))
    return "\n".join(lines) + "\n"

