"""Dragons Down: heroes explore a tile-built realm, 1 to 6 seats
(``dragongym.make("dragons_down", num_players=3, sandbox="explore_the_realm")``).

The rules core is the ``rules`` package (numba, one module per part of the
rulebook; ``envs/README.md``), the state record ``state.py``, the
observations ``observe.py``, the one compiled entry point ``kernel.py``; the
realm's tiles, monsters, cards and tokens are data files in ``data/``
(substitutes, ``SUBSTITUTES.md``); ``RULES.md`` maps every rule to its code
and test.

Spaces
------
Action ``Discrete(A)``, ``A = rules.NUM_ACTIONS``, in blocks whose meaning
the pending decision (``phase``) gives; ``ACTION_LAYOUT`` lists them as the
rules define them (``rules/base.py``, the ``A_*`` offsets), and grows with
the rules:

==================  ==========================================================
``tile``            a dealt Map Tile to place next (Open Realm, L109)
``spot``            beside placed tile u in direction d: where it goes
``turn``            side and turn of a tile being placed or explored
``lineage``         a Lineage Card; ``class`` a Class Card; ``side`` its side
``cube``            the colour a multi-colour Action Cube is taken as (L200)
``clearing``        a clearing (indexes the ``realm`` graph): move, enter, start
``do``              Pass, Sneak, Make Noise, the rests, Hide, stay, Alert, done,
                    Loot, Trade, Retire
``heal``            the wounded cube (or Heart) a rest heals next (L550)
``search``          Search for Hidden Path h of the hero's tile;
                    ``search_site`` for a Treasure Site (or body) in its clearing
``target``          where the card being equipped goes (T_BACKPACK stows it)
``card``            a card to equip or unequip during an Alert Action
``explore``         Explore toward a map direction (L583)
``pile``            a pile (a Treasure Site, then each seat's body): loot it,
                    share it in a swap (L524, L556)
``seat``            the partner of a swap; ``merchant`` a Merchant to trade with;
                    ``gold`` Gold into a swap; ``path`` a Hidden Path shared;
                    ``step`` look, sell, repair, pay, haggle; ``answer`` refuse /
                    accept a swap (L552-L565)
``foe``             a foe to target (Monster chip f, then the Natives, L709);
                    ``box`` a box of Hero Tactics (L714-L718)
==================  ==========================================================

Observation: ``{"observation": float32[OBS_SIZE], "action_mask": int8[A]}``
from the observing seat (rotated to seat 0): the ``realm`` graph (one node per
clearing, with its ``paths`` neighbour block), ``heroes``, ``tiles``,
``foes`` (in the observer's clearing), ``piles``, ``merchants`` and ``cards``
entity blocks, and flat blocks (``observe.py`` says what each column means,
and what is hidden).

Outcome: the rules rank the seats at the end (rules/fate.py): by the Legend
Points of each seat's best hero, ties broken by Fame, Epic Treasures,
Treasures, Gold (L121); in the Legendary race the first to retire with 20 LP
ranks first (L166); a lone hero wins or loses (L168). ``score`` is the LP.
Rewards are 0 every step and the rank's position value at the end. A game
cut short by ``max_turns`` before its rules end it (30 turns, L117, L162; the
Legendary race has none) is truncated: a draw (solo: lost).

Decisions with a single legal action are taken by the core (``auto_single``).

Version history: v1 first release (part 1 of the rules: the realm, heroes,
the action phase, Loot and Trade, monster activation, combat, the fate of
heroes; magic, missions and spells are part 2).
"""
# jitcache: no compiled code
from dataclasses import dataclass, field

import numpy as np

from dragongym.envs.core.config import ConfigError, build_config
from dragongym.envs.core.game import Game, check_common_fields
from dragongym.envs.core.kernel_calls import KernelCalls
from dragongym.envs.core.spec import ActionBlock, GameSpec, ObsBlock, player_names
from . import data as D
from . import kernel as K
from . import observe as O
from . import rules as R
from . import view as V
from .constants import (
    CLEARINGS_PER_TILE, CW_DECK, CW_HERO, CW_MERCHANT, CW_SITE, HS_WAITING, LEGEND_TARGET_DEFAULT,
    MAX_CARD_CUBES, MAX_HEROES, MAX_HIDDEN_PER_SIDE, NUM_CARDS, NUM_CLEARINGS, NUM_TILES, OPT_PVP, OPTIONAL_RULES,
    SANDBOXES, SB_EXPLORE, SB_OPEN_REALM, T_BACKPACK, SPELL_DECK, SPELL_START, SPW_ATTACHED, SPW_KNOWN, SPW_START,
)
from .state import STATE_DTYPE

PHASE_NAMES = {v: k[3:].lower() for k, v in vars(R).items() if k.startswith("PH_") and isinstance(v, int)
               and k != "PH_NONE"}
PHASE_NAMES[R.PH_NONE] = "none"
STAGE_NAMES = {v: k[3:].lower() for k, v in vars(R).items() if k.startswith("ST_") and isinstance(v, int)}
ERRORS = {R.E_RANGE: "action outside 0..A-1", R.E_ILLEGAL: "not a legal action in this position",
          R.E_OVER: "the game is over"}

LEGENDARY_MAPS = ("open_realm", "explore_the_realm")
"""The map rules the Legendary sandbox may use (L151-L153)."""

SETUP_DECISIONS_PER_TILE = 3
"""Choose a dealt tile, its spot, its side and turn (L109)."""
DECISIONS_PER_HERO = 4 + 2 * MAX_CARD_CUBES
"""Lineage, side, class, side, and the colour of every printed cube (L198-L200)."""
DECISIONS_PER_HERO_TURN = 60
"""A bound on one hero's decisions in one turn, on average over a game: four
actions with their follow-ups (a rest's heals, Hide reactions, cards gained
and placed, Loot and Trade's steps) and its part in the battle phase.
Measured: uniformly random play averages 12-13 a hero-turn, at most 23.5 over
a game (64 games of each sandbox and hero count, 2 to 12 turns). The Alert
Action's equipping can be repeated at will (and so can Adjust Equipment's):
an agent that loops there could exceed it."""


def _packs_check(value):
    return "" if len(value) else "at least one Terrain Pack must be in play (L178)"


@dataclass(frozen=True)
class DragonsDownConfig:
    """Options of a Dragons Down game.

    Attributes:
        num_players: heroes in play at once, 1 (solo) to 6 (L161-L168); the
            seats. ``num_heroes`` is accepted as its other name.
        sandbox: ``"open_realm"`` (the map built before play, L105-L121),
            ``"explore_the_realm"`` (built during play from a stack around a
            civilization tile, L123-L143) or ``"legendary"`` (the race to
            retire with 20 Legend Points, L147-L168).
        terrain_packs: the Terrain Packs in play (L178), any non-empty
            combination of ``"cruel_caves"``, ``"malevolent_mountains"`` and
            ``"wicked_woods"``; all three by default.
        max_turns: the game ends after this many turns, truncated (the
            truncation option); the rules themselves end Open Realm, Explore
            the Realm and solo Legendary games after 30 turns (L117, L162),
            so only the multi-player Legendary race plays past 30.
        legendary_map: the map rules of the Legendary sandbox, ``"open_realm"``
            or ``"explore_the_realm"`` (L151-L153); the other sandboxes have
            their own and ignore it.
        random_heroes: deal each seat's hero at random -- Lineage and Class
            Cards, their sides and multi-colour cubes drawn by the game's
            stream -- instead of letting the seat choose (L198).
        auto_single: the core applies a decision that has exactly one legal
            action instead of asking (no information is lost). Set False to
            see every decision.
        legend_target: the Legend Points a Hero must retire with to win the
            multi-player Legendary race (L166: 20, "or any number can be
            agreed to"); the solo game's 20 and 30 are the rules' own (L168).
        luring, tough_monsters, closing_the_distance, wits_only, shared_fame,
        endless_monsters, red_meat, enchantment_limit, enchanted_paths,
        enchanted_realm, player_vs_player: the optional rules of those names
            (L1128-L1192), each off unless chosen: Heroes may lure a Monster
            to challenge them (L1130); Monsters take no wounds (L1134); the
            first Combat Round is ordered by attack length (L1138); Heroes
            start with no Gold (L1146); the Fame of a kill is shared by the
            Heroes who wounded the Monster (L1150); killed Monsters go back to
            the tray (L1162); a non-fatal hit off armour wounds a Heart
            (L1168); an enchanted tile waives only the rightmost solid box of
            its colour (L1144); a Hidden Path of its tile's enchantment colour
            is open to all (L1156); a return arrow flips and enchants the
            tiles of the black die's symbol (L1160); Heroes may block,
            challenge and attack other unhidden Heroes (L1172).
    """

    num_players: int = field(default=2, metadata={"range": (1, MAX_HEROES)})
    sandbox: str = field(default="open_realm", metadata={"choices": SANDBOXES})
    terrain_packs: tuple = field(default=tuple(D.PACKS),
                                 metadata={"subset_of": tuple(D.PACKS), "check": _packs_check})
    max_turns: int = field(default=30, metadata={"range": (1, 1000)})
    legendary_map: str = field(default="open_realm", metadata={"choices": LEGENDARY_MAPS})
    random_heroes: bool = False
    auto_single: bool = True
    legend_target: int = field(default=LEGEND_TARGET_DEFAULT, metadata={"range": (1, 1000)})
    luring: bool = False
    tough_monsters: bool = False
    closing_the_distance: bool = False
    wits_only: bool = False
    shared_fame: bool = False
    endless_monsters: bool = False
    red_meat: bool = False
    enchantment_limit: bool = False
    enchanted_paths: bool = False
    enchanted_realm: bool = False
    player_vs_player: bool = False

    @property
    def optional_rules(self):
        """The optional rules played, as the record's bits (``constants.OPT_*``)."""
        return sum(1 << i for i, name in enumerate(OPTIONAL_RULES) if getattr(self, name))


def _config(config, with_obs=False):
    """``kernel.run_batch``'s int64 settings (indexes ``kernel.CFG_*``)."""
    out = np.zeros(K.CONFIG_SIZE, dtype=np.int64)
    if config is not None:
        out[K.CFG_PLAYERS] = config.num_players
        out[K.CFG_SANDBOX] = SANDBOXES.index(config.sandbox)
        out[K.CFG_PACKS] = sum(1 << D.PACKS.index(p) for p in config.terrain_packs)
        out[K.CFG_MAX_TURNS] = config.max_turns
        out[K.CFG_LEGENDARY_MAP] = SB_EXPLORE if config.legendary_map == "explore_the_realm" else SB_OPEN_REALM
        out[K.CFG_AUTO_SINGLE] = 1 if config.auto_single else 0
        out[K.CFG_RANDOM_HEROES] = 1 if config.random_heroes else 0
        out[K.CFG_OPTIONAL_RULES] = config.optional_rules
        out[K.CFG_LEGEND_TARGET] = config.legend_target
    out[K.CFG_WITH_OBS] = 1 if with_obs else 0
    return out


CALLS = KernelCalls("dragons_down", K, R.NUM_ACTIONS, O.OBS_SIZE, _config)
"""The batched calls, each one op of ``kernel.run_batch``."""


# ------------------------------------------------------------------ spec layouts
_OBS_DOCS = {
    "realm": "one node per clearing (tile * 6 + k): placed, type, tile, tokens, Civilization Location, "
             "Natives, Merchants, Treasure Sites and piles, monsters, heroes by rel seat, Hidden Paths "
             "known and not, combat (observe.R_*)",
    "paths": "the clearings joined to each clearing by a path the observer may use (printed, across "
             "tile edges, the Hidden Paths it discovered); -1 padding",
    "heroes": "one row per rel seat: the Hero Board as the table sees it (observe.H_*)",
    "tiles": "one row per Map Tile: in play, where, position, turn, side, pack (observe.T_*)",
    "foes": "the Monster and Native chips in the observer's clearing (observe.F_*)",
    "piles": "one row per Treasure Site, then per seat's body (observe.P_*)",
    "merchants": "one row per Merchant (observe.V_*)",
    "cards": "the observer's cards, the others' face-up ones, the stock and pile cards it may see (observe.C_*)",
    "missions": "one row per Mission Card (constants.MISSION_IDS): where the observer may know it is, "
                "its printed face, the observer's progress (observe.M_*)",
    "titles": "one row per title (constants.TITLE_IDS): its card's side, claims, price, reward, "
              "requirements, the observer's standing (observe.T_*)",
    "reroll": "the roll waiting on rerolls (PH_REROLL): its kind, dice and the sources used, the "
              "rerolls the observer may make of it, his own Divination, Dust of Destiny and Gage "
              "(observe.REROLL_COLUMNS)",
}
_ENTITY_VALID = {"heroes": O.H_VALID, "tiles": O.T_VALID, "foes": O.F_VALID, "cards": O.C_VALID,
                 "piles": O.P_VALID, "merchants": O.V_VALID}


def _obs_block(name, offset, shape):
    doc = _OBS_DOCS.get(name, "")
    if name == "realm":
        return ObsBlock(offset, shape, kind="graph", neighbours="paths", doc=doc)
    if name == "paths":
        return ObsBlock(offset, shape, kind="neighbours", of="realm", doc=doc)
    if name in _ENTITY_VALID:
        return ObsBlock(offset, shape, kind="entities", valid_column=_ENTITY_VALID[name], doc=doc)
    return ObsBlock(offset, shape, kind="flat", doc=doc)


OBS_LAYOUT = {name: _obs_block(name, offset, shape) for name, (offset, shape) in O.LAYOUT.items()}

_ACTION_DOCS = {
    "tile": "a dealt Map Tile to place next (L109)", "spot": "beside placed tile u in direction d (u * 6 + d)",
    "turn": "side * 6 + turn of the tile being placed or explored", "lineage": "a Lineage Card (L198)",
    "class": "a Class Card (L198)", "side": "side 1 / 2 of the card just chosen",
    "cube": "the CUBE_* kind a multi-colour cube is taken as (L200)",
    "clearing": "a clearing: move, enter the map, start there", "do": "an action or reaction (rules.DO_*)",
    "heal": "the wounded cube kind (or a Heart, last) a rest heals (L550)",
    "search": "Search for Hidden Path h of the hero's tile (L507)",
    "search_site": "Search for a Treasure Site or a body in the clearing (L508, L805)",
    "target": "where the card being equipped goes (T_*; T_BACKPACK stows it)",
    "card": "a card (instance) to equip or unequip (L463)", "explore": "Explore toward direction d (L583)",
    "trade": "Loot and Trade (rules/trade.py)", "combat": "combat (rules/combat.py)",
}
_ACTION_DOCS.update({
    "pile": "a pile (Treasure Site, then bodies): loot it, or share it in a swap (L524, L556)",
    "seat": "a hero: the partner of a swap (L556)", "merchant": "a Merchant to do commerce with (L557)",
    "gold": "Gold put into a swap: give 1, give 5, take 1, take 5 (L556)",
    "path": "a Hidden Path ((tile * 2 + side) * H + h), shared in a swap (L556)",
    "step": "a step of commerce: look, sell, repair, pay, haggle (L557-L565)",
    "answer": "the partner's answer to a proposed swap: refuse, accept",
    "foe": "a foe: Monster chip f, then the Native chips (L709)",
    "box": "a box of Hero Tactics: might, attack, maneuver (L714-L718)",
    "cross": "a cube of the other kind in a box of Hero Tactics: a Speed Cube in a might box, a Might Cube "
             "in the attack or maneuver box (L1308-L1314, L1482, L1504)",
    "aim": "Player vs. Player: a Speed Cube in the head or torso aim box (L1186)",
    "spell": "a Spell Card (constants.SPELL_INSTANCES): a starting spell to take (L203), an attached spell to learn (L538)",
    "enchant": "an Enchant Action toward a Magic Cube of colour k on the hero's tile (L572-L575)",
    "uncurse": "remove hero q's lasting curse k (q * NUM_CURSES + k) for 5 Gold (L568)",
    "dispel": "remove permanent Spell Card sp from the hero it lies on for 5 Gold, he willing (L568)",
    "mission": "Mission Card k: take it from the Merchant, complete it, or discard it (L564-L566, L1071)",
    "title": "claim title i of a Civilization Card (L567)",
    "reroll": "reroll the pending roll (src * REROLL_WAYS + k): die k, or every die (k = MAX_ROLL_DICE), with "
              "source RR_*: Gage of the Thief, Divination, Dust of Destiny, Mastery (L1214, L1330, L1342, L1528)",
})
_ACTION_INDEXES = {"tile": "tiles", "clearing": "realm", "pile": "piles", "merchant": "merchants"}


def action_blocks():
    """``[(name, offset, size)]`` of the action space, in order: every ``A_*``
    offset the rules define (``*_END`` marks excluded), each block running to
    the next offset, the last to ``NUM_ACTIONS``; a block of size 0 (a part
    not landed yet) is left out. Where two offsets coincide the specific name
    wins over a part's ``*_BASE``."""
    starts = {}
    for key, value in vars(R).items():
        if not key.startswith("A_") or key.endswith("_END") or not isinstance(value, int):
            continue
        name = key[2:].lower()
        base = name.endswith("_base")
        name = name[:-5] if base else name
        if value not in starts or starts[value][1]:
            starts[value] = (name, base)
    offsets = sorted(starts)
    out = []
    for i, off in enumerate(offsets):
        stop = offsets[i + 1] if i + 1 < len(offsets) else R.NUM_ACTIONS
        if stop > off:
            out.append((starts[off][0], off, stop - off))
    return out


ACTION_BLOCKS = action_blocks()
BLOCK_OF_ACTION = np.zeros(R.NUM_ACTIONS, dtype=np.int64)
for _i, (_name, _off, _size) in enumerate(ACTION_BLOCKS):
    BLOCK_OF_ACTION[_off:_off + _size] = _i


def _indexes(name, size):
    """The observation block whose rows the action block ``name`` indexes, if
    it has one row per action."""
    target = _ACTION_INDEXES.get(name, "")
    return target if target and O.LAYOUT[target][1][0] == size else ""


ACTION_LAYOUT = {name: ActionBlock(off, size, indexes=_indexes(name, size), doc=_ACTION_DOCS.get(name, ""))
                 for name, off, size in ACTION_BLOCKS}
"""The action blocks (see :func:`action_blocks`); ``tile`` indexes the
``tiles`` rows and ``clearing`` the ``realm`` nodes."""


class DragonsDown(Game):
    """The Dragons Down rules core behind the generic adapters."""

    name = "dragons_down"
    version = 12       # 2: the Massive Door as a combat target, the last turn's Legendary retirement;
                       # 3: magic outside combat (starting spells, Learn, Enchant, curses);
                       # 4: spells cast in combat; 5: the treasures' powers (sixty-four cards)
                       # 6: missions, titles and the Outlaw Tokens they give and take
                       # 7: cubes of the other kind, more miscellaneous positions, paid removal of
                       #    spells, rerolls, controlled Monsters, Player vs. Player, Shape Shift
                       # 8: spells aimed at heroes in Player vs. Player, the Dust of Destiny on
                       #    every roll its owner is party to (its resumable steps: 10 bytes more
                       #    state), Fiery Chasm and dragon fire on controlled chips, a flying
                       #    Shape Shift form (same actions and observation size as 7)
                       # 9: the Dust of Destiny on the Summon curse's die, the Active Wraith's
                       #    die, a Curse spell's table for its caster, the tentacles' Hit Dice,
                       #    a retiring Outlaw's Monster Dice and Shape Shifted chips' fights
                       #    (6 bytes more state; same actions and observation size)
                       # 10: the Dust of Destiny on a Cursed Treasure's curse (the look that saw
                       #    it resumed after), on the Outlaw rolls of the end of the game's
                       #    retirements, on the Ranged Attack Dice of Shape Shifted chips' fights;
                       #    under Player vs. Player, a Monster a hero controls targets and is targeted
                       #    and challenged by the other heroes, a Shape Shifted hero's chip attacks heroes
                       #    (1 byte more state; same actions and observation size)
                       # 11: a treasure's cube taken back wounded stays wounded on the card, so
                       #    unequipping and equipping it again heals nothing (8 bytes more state;
                       #    same actions and observation size)
                       # 12: a hero trading with a Merchant after Looking reads the spells under
                       #    the Spell Books another hero revealed there, so its buy offer never
                       #    turns on spells it has not read; the seller of a Spell Book still knows
                       #    its spells on the stock (same state, actions and observation size)
    dtype = STATE_DTYPE
    config_cls = DragonsDownConfig
    obs_bounds = (-1.0, float(NUM_CLEARINGS - 1))      # the ``paths`` block holds clearing numbers
    heuristic_agent = "dragons_down.heuristic"
    picture_module = "dragongym.envs.dragons_down.picture"
    # shaping: each seat's lead in Legend Points and Fame (public), the heuristic's value at
    # MCTS's cap; without it a learner from scratch is paid only at a game's end, some 350 of
    # its own decisions later (issue 30, training/REPORT.md)
    shaping_potential = "dragongym.agents.dragons_down_heuristic:legend_lead_potential"
    shaping_potential_batch = "dragongym.agents.dragons_down_heuristic:legend_lead_potential_batch"
    truncation_option = "max_turns"
    tie_breaks = "fame, then epic treasures, treasures, gold"
    # rewards: solo +1 won / -1 lost, else position values +1 .. -1 (ties
    # averaged, fate.rank_seats), written at the end; the score is a seat's
    # best hero's LP (never lost, L266; -1 for a seat whose hero never left
    # play), at most what the record's int16 LP can hold
    float_ranges = {"rewards": (-1.0, 1.0), "score": (-1.0, float(np.iinfo(np.int16).max))}
    bench_options = {"num_players": 2, "max_turns": 8}
    bench_targets = {"openspiel chess": 2.0, "openspiel chess +obs": 2.0}   # issue 12
    # measured: 118 s for the kernel from an empty cache, 2 cores
    compile_minutes = 1.5

    # ------------------------------------------------------------ configuration
    def make_config(self, **options):
        """Validate the options (see :class:`DragonsDownConfig`); ``num_heroes``
        is another name of ``num_players``."""
        if "num_heroes" in options:
            heroes = options.pop("num_heroes")
            seats = options.get("num_players")
            if heroes is not None and seats is not None and heroes != seats:
                raise ConfigError(f"{self.name}: options num_heroes ({heroes!r}) and num_players ({seats!r}) "
                                  "name the same thing and disagree")
            if heroes is not None:
                try:
                    return build_config(self.name, self.config_cls, {**options, "num_players": heroes})
                except ConfigError as err:
                    raise ConfigError(str(err).replace("option num_players", "option num_heroes")) from None
        return build_config(self.name, self.config_cls, options)

    def spec_for(self, config):
        """Seats ``player_0 .. player_{n-1}`` for ``config.num_players`` heroes;
        the game ends after ``config.max_turns`` turns. A lone hero is a solo
        game (ranked 1 if it met the victory condition, else 2)."""
        n = int(config.num_players)
        decisions = SETUP_DECISIONS_PER_TILE * NUM_TILES + DECISIONS_PER_HERO * n \
            + DECISIONS_PER_HERO_TURN * n * int(config.max_turns)
        return GameSpec(
            name=self.name, version=self.version, roles=player_names(n),
            num_actions=R.NUM_ACTIONS, obs_size=O.OBS_SIZE, obs_layout=OBS_LAYOUT,
            action_layout=ACTION_LAYOUT, max_decisions=decisions,
            turn_limit=int(config.max_turns), turn_unit="turns", chance=True,
            hidden_information=True, utility="solo" if n == 1 else "zero_sum",
            score_name="legend points", config=config)

    def turns_played(self, state):
        """Turns started (``max_turns`` counts them)."""
        return int(state[0]["turn"])

    def test_configs(self):
        """Every sandbox with 1, 2, 4 and 6 heroes (all packs), and two pack
        subsets; the Legendary sandbox on both map rules; every sandbox with
        every optional rule on; a Legendary race to 5 LP."""
        out = []
        for sandbox in SANDBOXES:
            for n in (1, 2, 4, 6):
                out.append({"num_players": n, "sandbox": sandbox})
        out.append({"num_players": 2, "sandbox": "open_realm", "terrain_packs": ("cruel_caves",)})
        out.append({"num_players": 3, "sandbox": "explore_the_realm",
                    "terrain_packs": ("malevolent_mountains", "wicked_woods")})
        out.append({"num_players": 2, "sandbox": "legendary", "legendary_map": "explore_the_realm"})
        every_rule = {name: True for name in OPTIONAL_RULES}
        for sandbox in SANDBOXES:                        # each sandbox with every optional rule on
            out.append({"num_players": 3, "sandbox": sandbox, **every_rule})
        out.append({"num_players": 2, "sandbox": "legendary", "legend_target": 5})
        return out

    # ------------------------------------------------------------ soundness
    def check_state(self, state):
        """``""`` if ``state`` (a 1-record array) is a sound Dragons Down
        position, else what is wrong (see ``Game.check_state``). In order: the
        common fields; every field in range and the rules' invariants
        (``soundness.record_problem``), so that the compiled check after it
        cannot read outside an array; a running game has a legal action."""
        problem = check_common_fields(state, self.dtype)
        if problem:
            return problem
        from .soundness import record_problem
        problem = record_problem(state)
        if problem:
            return problem
        if int(state[0]["status"]) == 0 and not self.mask_of(state).any():
            return "the running game has no legal action"
        return ""

    def hidden_variants(self, state, seat, rng, count=4):
        """Positions that differ only in what ``seat`` cannot know (see
        :meth:`determinize`)."""
        out = []
        for _ in range(count):
            v = state.copy()
            self.determinize(v, seat, rng)
            out.append(v)
        return out

    def determinize(self, state, player, rng):
        """Resample what seat ``player`` cannot know (see ``Game.determinize``):

        * the cards it cannot see -- the decks, the other heroes' face-down
          cards (backpack, a card just gained), the Treasure Piles, the
          Merchants' stock it has not looked at -- are dealt anew among those
          same places, each place keeping a card of the deck it holds (an
          item, a treasure, a deep treasure: their backs differ), so every
          count the seat sees stays; a Backpack Special card never goes face
          down into another hero's backpack (it would be face up, L960); a
          card some other fact pins (the one being equipped, a card once
          shown, damaged, in a swap) stays;
        * the Spell Cards it cannot see -- the Spell deck, the discard pile,
          the spells under Spell Books and Scrolls it does not hold, the other
          heroes' known spells, the set-aside Hero Starting Spell deck (but
          while the seat itself is choosing from it) -- are dealt anew among
          those same places, deck by deck (the two decks' backs differ), so
          every count it sees stays;
        * the Mission Cards it cannot see -- the Mission Deck, the other
          heroes' missions, the cards of a Merchant it has not looked at --
          are dealt anew among those same places (L564, L558);
        * the order of the tile stack (Explore the Realm);
        * the RNG stream (every future die, draw and token).

        The other heroes' secret Hero Tactics (``placed``, CF_THROWS, while
        combat is in CS_TACTICS) are kept as they are: a consistent position,
        though not resampled among the placements open to them.
        """
        rec = state[0]
        _deal_hidden_cards(rec, int(player), rng)
        _deal_hidden_spells(rec, int(player), rng)
        _deal_hidden_missions(rec, int(player), rng)
        m = int(rec["stack_len"])
        if m > 1:
            rec["tile_stack"][:m] = rec["tile_stack"][:m][rng.permutation(m)]
        Game.determinize(self, state, player, rng)

    # ------------------------------------------------------------ the batched calls
    def reset(self, states, seeds, config):
        CALLS.reset(states, seeds, config)

    def step(self, states, actions, errors, parallel=False):
        CALLS.step(states, actions, errors)

    def legal_mask(self, states, masks):
        CALLS.legal_mask(states, masks)

    def observe(self, states, players, obs, parallel=False):
        CALLS.observe(states, players, obs)

    def error_message(self, code):
        return ERRORS.get(int(code), f"error {int(code)}")

    def vec_step(self, states, actions, masks, counts, errors, obs=None, parallel=False):
        """The fused compiled step (``KernelCalls.vec_step``)."""
        CALLS.vec_step(states, actions, masks, counts, errors, obs, parallel)

    def vec_observe(self, states, players, obs, parallel=False):
        CALLS.observe(states, players, obs, parallel)

    def compiled_entry_points(self):
        """The one compiled entry point, ``kernel.run_batch``, run through each
        of its ops by ``Game.adapter_entry_points`` on two 2-hero games
        (``reset`` compiles it; the others find it), and the vector API's
        threads; ``check_state`` is Python, whose last step is a mask. Then
        the rules functions the heuristic calls from Python (its mission and
        Merchant checks), each compiled as an entry point of its own."""
        config = self.make_config(num_players=2, max_turns=1)

        def heuristic_checks():
            states = self.new_states(1)
            self.reset(states, np.ones(1, dtype=np.uint64), config)
            out = np.zeros(R.MAX_MISSION_OPTIONS, dtype=np.int64)
            R.missions_held(states, 0, 0)
            R.mission_options(states, 0, 0, out, 0)
            R.task_progress(states, 0, 0, 0, 0)
            R.tasks_met(states, 0, 0, 0)
            R.merchant_here(states, 0, 0, 0)
            R.has_looked(states, 0, 0, 0)

        return self.adapter_entry_points(config) + [("heuristic's rules checks", heuristic_checks)]

    # ------------------------------------------------------------ text
    def action_to_string(self, state, action):
        """Readable name of ``action`` in the position ``state`` (a 1-record array).

        A legal action is named by what it does now (``"move to Deepdelve 2
        (cave)"``, ``"place Secret Dens at N of Deepdelve"``, ``"equip Long
        Sword: weapon 1"``); the legal actions of a position have distinct
        names (``string_to_action`` inverts them). Any other action gets its
        neutral name and why it means nothing now: ``"action -1 (no such
        action)"`` outside ``0..A-1``, else e.g. ``"pass (not legal now: the
        position asks for lineage)"``.
        """
        a = int(action)
        if not 0 <= a < R.NUM_ACTIONS:
            return f"action {a} (no such action)"
        mask = self.mask_of(state)
        if mask[a]:
            return _legal_names(state[0], mask)[a]
        name = _neutral_name(a)
        if int(state[0]["status"]) != 0:
            return f"{name} (the game is over)"
        return f"{name} (not legal now: the position asks for {PHASE_NAMES.get(int(state[0]['phase']), '?')})"

    def string_to_action(self, state, text):
        """The legal action of ``state`` named ``text`` by :meth:`action_to_string`."""
        for a, name in _legal_names(state[0], self.mask_of(state)).items():
            if name == text:
                return a
        raise ValueError(f"{text!r} names no legal action here")

    def decision_is_public(self, state, action):
        """Hero Tactics -- a spell cast with them, a Magic Cube put on a treasure
        -- are placed in secret (L714-L724); a starting spell is
        taken in secret (L205) and the spell a Learn Action tries is one only
        its holder sees (L1426): the table sees that a Learn Action is taken,
        not on which spell. Every other decision is made in the open."""
        ph = int(state[0]["phase"])
        if ph in (R.PH_TACTICS, R.PH_START_SPELL, R.PH_SPELL_CUBE):
            return False
        if ph == R.PH_CUBE_COLOUR and int(state[0]["combat_step"]) == R.CS_TACTICS:
            return False                          # a colour chosen in Hero Tactics is part of the secret
        return not R.A_SPELL <= int(action) < R.A_SPELL + R.NUM_SPELLS

    def render_ansi(self, state, seat=None):
        """The position as text (``text_picture``): the game's progress, the
        map as a staggered hex grid of the placed tiles with a legend, every
        tile's clearings, paths and what stands in them, the heroes, the
        combat, the pending decision. With no ``seat`` everything is shown,
        face-down cards by their number only; for a seat, what it may know."""
        from .text_picture import picture
        return picture(state[0], seat)


# ------------------------------------------------------------------ hidden cards
CARD_PLACE_FIELDS = ("card_where", "card_owner", "card_slot")
"""Where a card lies: what dealing the hidden cards anew changes."""
CARD_NAMING_FIELDS = ("sel_card", "trade_card", "atk_armor", "use_card")
"""Fields that name one card by its index (the card being equipped, set
apart to buy, taking a hit): that card is part of the pending decision and
stays where it is."""


_DEALABLE_WHERE = np.array([CW_DECK, CW_SITE, CW_MERCHANT, CW_HERO])
_CARD_DECK = np.asarray(R.CARD_DECK)
_SPELL_FROM = np.asarray(R.SPELL_FROM)
_CARD_FLAGS = {}
"""Per record dtype: its per-card fields beyond the place (see :func:`_dealable`)."""


def _card_flags(dtype):
    flags = _CARD_FLAGS.get(dtype)
    if flags is None:
        flags = _CARD_FLAGS[dtype] = tuple(name for name in dtype.names if name not in CARD_PLACE_FIELDS
                                           and dtype[name].shape == (NUM_CARDS,))
    return flags


def _dealable(rec, seat):
    """The cards whose identity ``seat`` cannot know where they lie now and
    that nothing else pins down: not seen by ``seat`` (``view.cards_seen``),
    not named by a pending decision (CARD_NAMING_FIELDS), and with every
    other per-card field of the record 0 (a card shown once, damaged, thrown,
    in a swap, just received, a Spell Book holding spells: such a fact belongs
    to the card, so it stays). An int array, ascending."""
    names = rec.dtype.names
    ok = np.isin(rec["card_where"], _DEALABLE_WHERE) & ~V.cards_seen(rec, seat)
    for name in _card_flags(rec.dtype):
        ok &= rec[name] == 0
    for name in CARD_NAMING_FIELDS:
        if name in names and 0 <= int(rec[name]) < NUM_CARDS:
            ok[int(rec[name])] = False
    # a Spell Book or Scroll with spells drew them from the Spell deck in the open (L1424): it is known
    ok[rec["spell_owner"][rec["spell_where"] == SPW_ATTACHED].astype(np.int64)] = False
    return np.flatnonzero(ok)


def _deal_hidden_cards(rec, seat, rng):
    """Deal the cards ``seat`` cannot see (:func:`_dealable`) anew among the
    places they hold, deck by deck, a Backpack Special card never into a
    hero's face-down place (see ``DragonsDown.determinize``)."""
    hidden = _dealable(rec, seat)
    decks = _CARD_DECK[hidden]
    where, owner, slot = rec["card_where"], rec["card_owner"], rec["card_slot"]
    for deck in range(O.NUM_DECKS):
        cards = hidden[decks == deck]
        if len(cards) < 2:
            continue
        hero = where[cards] == CW_HERO
        on_boards = list(zip(where[cards][hero].tolist(), owner[cards][hero].tolist(), slot[cards][hero].tolist()))
        elsewhere = list(zip(where[cards][~hero].tolist(), owner[cards][~hero].tolist(),
                             slot[cards][~hero].tolist()))
        face_up = V._CARD_FACE_UP[cards]
        order = rng.permutation(len(cards))
        normal = cards[order[~face_up[order]]].tolist()
        special = cards[order[face_up[order]]].tolist()
        rest = normal[len(on_boards):] + special
        rest = [rest[i] for i in rng.permutation(len(rest))]
        for c, (w, o, sl) in zip(normal[:len(on_boards)] + rest, on_boards + elsewhere):
            where[c] = w
            owner[c] = o
            slot[c] = sl


def _hidden_spells(rec, seat):
    """The Spell Cards whose identity ``seat`` cannot know where they lie
    (see ``DragonsDown.determinize``): not its own known spells, not those
    under a Spell Book or Scroll it holds or a Merchant's it read, not the
    spell a Learn run is on; not a card cast before (the table saw whose it
    is, L1020), in play, or being cast this round. An int array, ascending."""
    w = rec["spell_where"]
    owner = rec["spell_owner"].astype(np.int64)
    book = np.clip(owner, 0, NUM_CARDS - 1)
    attached = w == SPW_ATTACHED
    card_where = rec["card_where"][book]
    hidden = (rec["spell_shown"] == 0) & (rec["spell_on"] < 0)
    hidden &= ~((w == SPW_KNOWN) & (owner == seat))
    hidden &= ~(attached & (card_where == CW_HERO) & (rec["card_owner"][book] == seat))
    hidden &= ~(attached & (card_where == CW_MERCHANT) & (((rec["spells_read"][book] >> seat) & 1) == 1))
    if int(rec["phase"]) == R.PH_START_SPELL and int(rec["to_play"]) == seat:
        hidden &= w != SPW_START
    cast = rec["cast_card"][(rec["cast_card"] >= 0) & (rec["cast_card"] < R.NUM_SPELLS)]
    hidden[cast.astype(np.int64)] = False
    learning = int(rec["learn_spell"])
    if 0 <= learning < R.NUM_SPELLS:
        hidden[learning] = False
    return np.flatnonzero(hidden)


def _deal_hidden_missions(rec, seat, rng):
    """Deal the Mission Cards ``seat`` cannot name where they lie anew among
    their places (see ``DragonsDown.determinize``)."""
    w, owner = rec["mission_where"], rec["mission_owner"].astype(np.int64)
    hidden = np.flatnonzero((w == R.MW_DECK) | ((w == R.MW_HERO) & (owner != seat))
                            | ((w == R.MW_MERCHANT) & ~V.merchants_looked(rec, seat, owner)))
    if len(hidden) < 2:
        return
    order = rng.permutation(len(hidden))
    rec["mission_where"][hidden] = rec["mission_where"][hidden][order]
    rec["mission_owner"][hidden] = rec["mission_owner"][hidden][order]
    rec["mission_order"][hidden] = rec["mission_order"][hidden][order]


def _deal_hidden_spells(rec, seat, rng):
    """Deal the Spell Cards ``seat`` cannot see anew among the places they
    hold, each deck's cards among that deck's places."""
    hidden = _hidden_spells(rec, seat)
    decks = _SPELL_FROM[hidden]
    for deck in (SPELL_START, SPELL_DECK):
        cards = hidden[decks == deck]
        if len(cards) < 2:
            continue
        order = rng.permutation(len(cards))
        rec["spell_where"][cards] = rec["spell_where"][cards][order]
        rec["spell_owner"][cards] = rec["spell_owner"][cards][order]


# ------------------------------------------------------------------ action names
def _ph(name):
    """The code of phase ``rules.PH_<name>``, -1 while its part has not landed."""
    return getattr(R, "PH_" + name, -1)


_DO_NAMES = {R.DO_PASS: "pass", R.DO_SNEAK: "sneak", R.DO_NOISE: "make noise", R.DO_QUICK_REST: "quick rest",
             R.DO_SHORT_REST: "short rest", R.DO_LONG_REST: "long rest", R.DO_HIDE: "hide",
             R.DO_STAY: "stay", R.DO_ALERT: "alert", R.DO_DONE: "done", R.DO_LOOT: "loot",
             R.DO_TRADE: "trade", R.DO_RETIRE: "retire"}
_DO_NAMES.update({R.DO_UNHIDE: "unhide", R.DO_THROW: "throw the weapon",
                   R.DO_DOOR: "target the Chamber's Massive Door"})
_PHASE_DO_NAMES = {
    (R.PH_BLOCK, R.DO_STAY): "be blocked", (R.PH_HIDE, R.DO_STAY): "do not hide",
    (_ph("UNHIDE"), R.DO_STAY): "stay hidden", (_ph("EVADE"), R.DO_STAY): "fight on",
    (_ph("TARGET"), R.DO_PASS): "target no one", (_ph("CTRL_TARGET"), R.DO_PASS): "its Monster targets no one", (_ph("LURE"), R.DO_PASS): "lure none", (_ph("ARMOR"), R.DO_PASS): "take the hit on no armour",
    (_ph("RETIRE"), R.DO_STAY): "do not retire", (_ph("EXPLORE_ENTER"), R.DO_STAY): "stay",
    (_ph("SWAP_OFFER"), R.DO_DONE): "propose the swap", (_ph("COMMERCE"), R.DO_DONE): "end the trade",
    (_ph("SELL"), R.DO_DONE): "sell no more", (_ph("REPAIR"), R.DO_DONE): "repair no more",
    (_ph("BUY"), R.DO_DONE): "do not buy", (_ph("UNCURSE"), R.DO_DONE): "remove no more",
    (_ph("MORE_TARGETS"), R.DO_DONE): "no more targets", (_ph("ACTIVATE"), R.DO_DONE): "activate no more",
    (_ph("TENTACLE"), R.DO_PASS): "leave the tentacle where it lies",
    (_ph("TAKE_MISSION"), R.DO_DONE): "take no second mission",
    (_ph("REROLL"), R.DO_DONE): "let the roll stand",
    (_ph("CHALLENGE"), R.DO_PASS): "challenge no one", (_ph("CHALLENGE_CUBE"), R.DO_DONE): "place no more",
    (_ph("HERO_BLOCK"), R.DO_PASS): "do not block",
}
"""What a DO_* code means in a phase where it reads otherwise."""
_CARD_VERBS = {R.PH_ALERT: "move", _ph("ADJUST"): "move", _ph("LOOT_KEEP"): "keep", _ph("RECEIVED"): "reveal",
               _ph("COMMERCE"): "set apart to buy", _ph("SELL"): "sell", _ph("REPAIR"): "repair",
               _ph("ARMOR"): "take the hit on", _ph("REARM"): "rearm with"}
"""What choosing a card (A_CARD + c) means in each phase (a swap offer: see _legal_name)."""
_CLEARING_VERBS = {R.PH_ENTER_PLACE: "start at", _ph("EXPLORE_ENTER"): "move into", _ph("EVADE"): "evade toward"}
_STEP_NAMES = ("look at the stock", "sell", "repair", "pay", "haggle")
_GOLD_NAMES = ("give 1 Gold", "give 5 Gold", "take 1 Gold", "take 5 Gold")
_BOX_NAMES = ("might box", "attack box", "maneuver box")
_CROSS_KINDS = ("Speed", "Might", "Might")
_AIM_NAMES = ("head", "torso")
"""The kind of cube that is the other kind in each box (A_CROSS + box)."""


def _block(a):
    name, off, _ = ACTION_BLOCKS[int(BLOCK_OF_ACTION[a])]
    return name, a - off


_foe_name = V.foe_name


def _path_name(i):
    """A Hidden Path by its ``hidden_found`` index: its tile, side and clearings."""
    h = i % MAX_HIDDEN_PER_SIDE
    t, side = divmod(i // MAX_HIDDEN_PER_SIDE, 2)
    a, z = (int(x) for x in R.HIDDEN[t, side, h])
    ends = f"{a + 1}-{z + 1}" if a >= 0 else f"{h + 1}"
    return f"hidden path {ends} of {V.tile_name(t)} (side {side + 1})"


_RR_SOURCE_NAMES = ("the Gage of the Thief", "Divination", "the Dust of Destiny", "Mastery")
"""The reroll sources (rules.RR_*), as action names say them."""


def _reroll_name(rec, i):
    """A reroll of the pending roll (PH_REROLL): which die, showing what, by what."""
    src, k = divmod(i, R.REROLL_WAYS)
    source = _RR_SOURCE_NAMES[src] if src < len(_RR_SOURCE_NAMES) else f"source {src}"
    if k == R.MAX_ROLL_DICE:
        return f"reroll every die with {source}"
    if rec is None:
        return f"reroll die {k + 1} with {source}"
    face = int(rec["roll_dice"][k])
    kind = int(rec["roll_kind"])
    if kind in (R.ROLL_GATE, R.ROLL_TELEPORT, R.ROLL_DESTINATION):
        shown = V.clearing_name(rec, face) if face >= 0 else "nothing"
    else:
        shown = V.die_face(kind, face, k)
    return f"reroll die {k + 1} (showing {shown}) with {source}"


def _neutral_name(a):
    """The name of action ``a`` (0..A-1) that holds in any position."""
    name, i = _block(a)
    if name == "reroll":
        return _reroll_name(None, i)
    if name == "tile":
        return f"tile {V.tile_name(i)}"
    if name == "spot":
        return f"spot {V.DIRECTION_NAMES[i % 6]} of {V.tile_name(i // 6)}"
    if name == "turn":
        return f"side {i // 6 + 1}, turn {i % 6}"
    if name == "lineage":
        return f"lineage {V.lineage_name(i)}"
    if name == "class":
        return f"class {V.class_name(i)}"
    if name == "side":
        return f"side {i + 1}"
    if name == "cube":
        return f"take a {V.cube_name(i)} cube"
    if name == "clearing":
        return f"clearing {V.tile_name(i // CLEARINGS_PER_TILE)} {i % CLEARINGS_PER_TILE + 1}"
    if name == "do":
        return _DO_NAMES.get(i, f"do {i}")
    if name == "heal":
        return f"heal {V.heal_name(i)}"
    if name == "search":
        return f"search hidden path {i + 1}"
    if name == "search_site":
        return f"search for {V.pile_name(i)}"
    if name == "target":
        return f"to {V.TARGET_NAMES[i]}"
    if name == "card":
        return f"card {i} ({V.card_name(i)})"
    if name == "explore":
        return f"explore {V.DIRECTION_NAMES[i]}"
    if name == "pile":
        return f"pile {V.pile_name(i)}"
    if name == "seat":
        return f"player_{i}"
    if name == "merchant":
        return f"Merchant {V.merchant_name(i)}"
    if name == "gold" and i < len(_GOLD_NAMES):
        return _GOLD_NAMES[i]
    if name == "path":
        return _path_name(i)
    if name == "step" and i < len(_STEP_NAMES):
        return _STEP_NAMES[i]
    if name == "answer":
        return ("refuse the swap", "accept the swap")[i] if i < 2 else f"answer {i}"
    if name == "foe":
        return f"foe {_foe_name(i)}"
    if name == "box" and i < len(_BOX_NAMES):
        return f"a cube in the {_BOX_NAMES[i]}"
    if name == "cross" and i < len(_BOX_NAMES):
        return f"a {_CROSS_KINDS[i]} Cube in the {_BOX_NAMES[i]}"
    if name == "aim" and i < len(_AIM_NAMES):
        return f"a Speed Cube in the {_AIM_NAMES[i]} aim box"
    if name == "spell":
        return f"spell card {i}"
    if name == "enchant":
        return f"enchant with {V.colour_name(i)}"
    if name == "uncurse":
        return f"remove player_{i // R.NUM_CURSES}'s {V.curse_name(i % R.NUM_CURSES)} curse"
    if name == "dispel":
        return f"remove {V.spell_name(i)} for 5 Gold"
    if name == "mission":
        return f"mission {V.mission_name(i)}"
    if name == "title":
        return f"title {V.title_name(i)}"
    return f"{name.replace('_', ' ')} {i}"


def _card_in_play(rec, ph, p):
    """The card a target (A_TARGET) decision places: the one being equipped,
    just gained, or just received; -1."""
    if ph in (R.PH_ALERT_TARGET, _ph("ADJUST_TARGET")):
        return int(rec["sel_card"])
    if ph == R.PH_GAINED:
        return V.pending_card(rec, p)
    if ph == _ph("RECEIVED") and "card_mark" in rec.dtype.names:
        for c in range(NUM_CARDS):
            if int(rec["card_mark"][c]) == O.MARK_RECEIVED and int(rec["card_where"][c]) == CW_HERO \
                    and int(rec["card_owner"][c]) == p:
                return c
    return -1


def _tile_toward(rec, p, d):
    """The tile placed beside hero p's in direction d; -1 (an Explore there, not a flight)."""
    c = int(rec["hero_clearing"][p])
    if c < 0:
        return -1
    t = c // CLEARINGS_PER_TILE
    return V.tile_at(rec, int(rec["tile_q"][t]) + int(R.DIR_DQ[d]), int(rec["tile_r"][t]) + int(R.DIR_DR[d]))


def _legal_name(rec, a):
    """The name of legal action ``a`` by what it does in ``rec``."""
    ph = int(rec["phase"])
    p = int(rec["to_play"])
    name, i = _block(a)
    if name == "reroll" and ph == _ph("REROLL"):
        return _reroll_name(rec, i)
    if name == "tile" and ph == _ph("TELEPORT_TILE"):
        return f"teleport the target to {V.tile_name(i)}"                 # L1522
    if name == "tile" and ph == _ph("EARTH_TILE"):
        return f"Move Earth: turn {V.tile_name(i)}"                         # L1546
    if name == "turn" and ph == _ph("EARTH_TURN"):
        u = int(rec["earth_tile"])
        kept = " (as it lies)" if i == int(rec["tile_side"][u]) * 6 + int(rec["tile_rot"][u]) else ""
        return f"lay {V.tile_name(u)} side {i // 6 + 1}, turn {i % 6}{kept}"   # L1546
    if name == "tile":
        return f"place tile {V.tile_name(i)}"
    if name == "spot":
        return f"place {V.tile_name(int(rec['sel_tile']))} at {V.DIRECTION_NAMES[i % 6]} of {V.tile_name(i // 6)}"
    if name == "side" and ph == R.PH_LINEAGE_SIDE:
        return f"{V.lineage_name(int(rec['hero_lineage'][p]))} side {i + 1}"
    if name == "side" and ph == R.PH_CLASS_SIDE:
        return f"{V.class_name(int(rec['hero_class'][p]))} side {i + 1}"
    if name == "clearing":
        where = V.clearing_name(rec, i)
        if ph in _CLEARING_VERBS:
            return f"{_CLEARING_VERBS[ph]} {where}"
        if ph == R.PH_ACTION and int(rec["hero_state"][p]) == HS_WAITING:
            return f"enter the map at {where}"
        if ph == R.PH_ACTION:
            return f"move to {where}"
        return f"into {where}"
    if name == "do":
        return _PHASE_DO_NAMES.get((ph, i)) or _DO_NAMES.get(i, f"do {i}")
    if name == "explore" and ph == _ph("EXPLORE_ENTER"):
        return f"fly into {V.tile_name(int(rec['explore_tile']))}, to a clearing drawn at random"   # L1096
    if name == "explore" and ph == R.PH_ACTION and _tile_toward(rec, p, i) >= 0:
        return f"fly into {V.tile_name(_tile_toward(rec, p, i))} to the {V.DIRECTION_NAMES[i]}"   # L1096
    if name == "heal" and ph == _ph("WOUND"):
        return f"wound {V.heal_name(i)}"
    if name == "cube" and ph == _ph("WOUND"):
        return f"wound the {V.cube_name(i)} cube on the Spell Card"
    if name == "cube" and ph == _ph("SPELL_CUBE"):
        return f"cover a multi-colour box with a {V.cube_name(i)} cube"
    if name == "cube" and ph == R.PH_CUBE_COLOUR and int(rec["use_card"]) >= 0:
        return _use_colour_name(rec, i)
    if name == "answer" and ph == _ph("DISPEL_ASK"):
        sp = int(rec["dispel_card"])
        return (f"keep {V.spell_name(sp)}", f"let {V.spell_name(sp)} be removed")[i]            # L568
    if name == "answer" and ph == _ph("ACCEPT"):
        return ("make the spell roll to hit", "accept the spell's hit")[i]
    if name == "answer" and ph == _ph("CTRL_KEEP"):
        return ("cancel the ruled Monster's attack", "let the ruled Monster's attack go on")[i]   # L1506
    if name == "side" and ph == _ph("CTRL_SIDE"):
        return f"{_foe_name(int(rec['ctrl_foe']) - 1)} side {('front', 'back')[i]} up"             # L710
    if name == "answer" and ph == _ph("PARDON"):
        return ("keep the Outlaw Token", "discard one Outlaw Token")[i]                   # L1083
    if name == "mission":
        verb = {_ph("COMMERCE"): "take", _ph("TAKE_MISSION"): "take", _ph("TRADE_WITH"): "complete",
                R.PH_ACTION: "discard", _ph("MISSION_LIMIT"): "discard"}.get(ph, "mission")
        return f"{verb} {V.mission_name(i)}"
    if name == "title":
        return f"claim the title {V.title_name(i)}"
    if name == "box" and ph == _ph("WOUND") and i < len(_BOX_NAMES):
        return f"wound the cube in the {_BOX_NAMES[i]}"
    if name == "cross" and ph == _ph("WOUND") and i < len(_BOX_NAMES):
        return f"wound the {_CROSS_KINDS[i]} Cube in the {_BOX_NAMES[i]}"
    if name == "search":
        c = int(rec["hero_clearing"][p])
        path = V.hidden_path(rec, c // CLEARINGS_PER_TILE, i) if c >= 0 else None
        if path is not None:
            return f"search hidden path {path[0] + 1}-{path[1] + 1}"
    if name == "target":
        c = _card_in_play(rec, ph, p)
        if c >= 0:
            if i == T_BACKPACK:
                return f"stow {V.card_name(c)} in the backpack"
            return f"equip {V.card_name(c)}: {V.TARGET_NAMES[i]}"
    if name == "card":
        card = V.card_name(i)
        if ph == _ph("TACTICS") and int(R.KIND_TAKES[R.CARD_KIND[i]]) >= 0:
            return f"put a Magic Cube on {card}"                  # L1288-L1476
        if ph == _ph("WOUND") and int(R.CARD_KIND[i]) == R.GUARD_CHARM:
            return f"discard {card} instead of the wound"             # L1352
        if ph == _ph("WOUND"):
            return f"wound the Magic Cube on {card}"
        if ph == _ph("ARMOR") and int(R.CARD_KIND[i]) == R.BROCHE_OF_DEFLECTION:
            return f"cancel the hit with {card}"                      # L1312
        if ph in (R.PH_ACTION, _ph("TACTICS"), _ph("BUY")):
            return f"use {card}"                                  # a one-time card (L916)
        if ph == _ph("SWAP_OFFER"):
            return f"offer {card}" if int(rec["card_owner"][i]) == p else f"ask for {card}"
        verb = _CARD_VERBS.get(ph)
        if ph == _ph("COMMERCE") and int(R.KIND_SPELLS[R.CARD_KIND[i]]) and not V.spells_under(rec, i, p):
            verb = "reveal"                                       # L1424: its spells drawn for p to read
        if verb == "move" and int(rec["card_where"][i]) == CW_HERO:
            return f"move {card} ({V.TARGET_NAMES[int(rec['card_slot'][i])]})"
        if verb:
            return f"{verb} {card}"
    if name == "pile":
        if ph == _ph("LOOT_PILE"):
            return f"loot {V.pile_name(i)}"
        if ph == _ph("SWAP_OFFER"):
            return f"share {V.pile_name(i)}"
    if name == "seat" and ph == _ph("TARGET"):
        if i != p and int(rec["optional_rules"]) & OPT_PVP:
            return f"target player_{i}"                                    # L1174
        return "aim a spell at myself" if i == p else f"aim a spell at player_{i}"
    if name == "seat" and ph == _ph("CHALLENGE"):
        return f"challenge player_{i}"                                     # L1182
    if name == "seat" and ph == _ph("TENTACLE"):
        return f"put a tentacle on player_{i}"                             # L1518, L1174
    if name == "seat" and ph == _ph("CTRL_TARGET"):
        return f"{_foe_name(int(rec['ctrl_foe']) - 1)} targets player_{i}"                  # L710, L1174
    if name == "seat" and ph == _ph("MORE_TARGETS"):
        return f"also target player_{i}"                                   # a Fireball's further target (L1562, L1174)
    if name == "seat" and ph in (_ph("HERO_BLOCK"), R.PH_ACTION):
        return f"block player_{i}"                                         # L1180
    if name == "seat":
        return f"swap with player_{i}"
    if name == "merchant":
        return f"trade with the {V.merchant_name(i)}"
    if name == "path":
        return f"share {_path_name(i)}"
    if name == "foe" and ph == _ph("TENTACLE"):
        return f"put a tentacle on {_foe_name(i)}"                         # L1518
    if name == "foe" and ph == _ph("CTRL_TARGET"):
        return f"{_foe_name(int(rec['ctrl_foe']) - 1)} targets {_foe_name(i)}"                # L710
    if name == "foe" and ph == _ph("SHAPE"):
        return f"shape shift into {_foe_name(i)}"                          # L1564
    if name == "foe" and ph == _ph("MORE_TARGETS"):
        return f"also target {_foe_name(i)}"
    if name == "foe" and ph == _ph("CHALLENGE"):
        return f"challenge {_foe_name(i)}"                                 # L692, L1182: a Monster another hero controls
    if name == "foe":
        return f"{'lure' if ph == _ph('LURE') else 'target'} {_foe_name(i)}"
    if name == "box":
        return f"place a cube in the {_BOX_NAMES[i]}" if i < len(_BOX_NAMES) else _neutral_name(a)
    if name == "cross":
        return f"place a {_CROSS_KINDS[i]} Cube in the {_BOX_NAMES[i]}" if i < len(_BOX_NAMES) else _neutral_name(a)
    if name == "aim":
        return f"aim at the {_AIM_NAMES[i]}: a Speed Cube in its aim box" if i < len(_AIM_NAMES) else _neutral_name(a)
    if name == "spell" and ph == _ph("TACTICS"):
        return _cast_name(rec, p, i)
    if name == "spell" and ph == _ph("ACTIVATE"):
        return f"activate {V.spell_name(i)}, wounding a {V.colour_name(int(R.SPELL_COLOUR[R.SPELL_KIND[i]]))} Magic Cube"   # L695
    if name == "spell":
        return f"{'take' if ph == _ph('START_SPELL') else 'learn'} {V.spell_name(i)}"
    if name == "enchant":
        done = int(rec["enchant_done"])
        return f"enchant with {V.colour_name(i)} ({done + 1} of 3)"
    if name == "uncurse":
        q, k = divmod(i, R.NUM_CURSES)
        whose = "my" if q == p else f"player_{q}'s"
        return f"remove {whose} {V.curse_name(k)} curse"
    if name == "dispel" and int(rec["spell_on"][i]) >= R.AIM_HERO:
        q = int(rec["spell_on"][i]) - R.AIM_HERO
        whose = "my" if q == p else f"player_{q}'s"
        return f"remove {whose} {V.spell_name(i)} for 5 Gold"                    # L568
    return _neutral_name(a)


def _use_colour_name(rec, kind):
    """A card's colour choice: "take a green Magic Cube" (the Tome of
    Wizardry); "replace a green Magic Cube", then "turn the green Magic Cube
    blue" (the Alchemist's Mixture); "put a green Magic Cube on Shaman's
    Kaftan"; "turn a green Magic Cube purple with Magical Bowl of Mixing"."""
    colour = V.colour_name(kind - R.CUBE_MAGIC)
    card = int(rec["use_card"])
    mixes = R.KIND_MIXES[R.CARD_KIND[card]]
    if int(mixes[0]) >= 0 and int(rec["card_cube"][card]) > 0:                  # L1368
        other = int(mixes[1]) if kind - R.CUBE_MAGIC == int(mixes[0]) else int(mixes[0])
        return f"turn a {colour} Magic Cube {V.colour_name(other)} with {V.card_name(card)}"
    if int(R.KIND_TAKES[R.CARD_KIND[card]]) >= 0:
        return f"put a {colour} Magic Cube on {V.card_name(card)}"
    if int(R.CARD_KIND[card]) != R.ALCHEMISTS_MIXTURE:
        return f"take a {colour} Magic Cube"
    frm = int(rec["use_from"])
    if frm < 0:
        return f"replace a {colour} Magic Cube"
    return f"turn the {V.colour_name(frm)} Magic Cube {colour}"


def _cast_name(rec, p, sp):
    """"cast Fireball at Goblin (chip 12), Kobold (chip 20) with purple, purple,
    purple, multi-colour": the spell, its targets, the cubes its boxes take
    (a box of an enchanted tile's colour left empty, L1022)."""
    k = int(R.SPELL_KIND[sp])
    targets = []
    for t in [int(rec["hero_target"][p]), *(int(x) for x in rec["more_targets"][p])]:
        if t < 0:
            continue
        targets.append(("myself" if t - R.AIM_HERO == p else f"player_{t - R.AIM_HERO}") if t >= R.AIM_HERO
                       else _foe_name(t))
    c = int(rec["hero_clearing"][p])
    skip = int(rec["tile_enchant"][c // CLEARINGS_PER_TILE]) if c >= 0 else -1
    boxes = []
    for box in (int(x) for x in R.SPELL_BOX[k]):
        if box < 0:
            break
        if box == skip:
            skip = -1
            continue
        boxes.append("multi-colour" if box == R.ANY_COLOUR else V.colour_name(box))
    at = f" at {', '.join(targets)}" if targets else ""
    return f"cast {V.spell_name(sp)}{at} with {', '.join(boxes) or 'no cube'}"


def _legal_names(rec, mask):
    """``{action: name}`` of every legal action of ``rec`` (mask ``mask``); two
    actions that would share a name (two copies of a card in the backpack)
    get their action number appended."""
    legal = [int(a) for a in np.flatnonzero(mask)]
    names = {a: _legal_name(rec, a) for a in legal}
    seen = {}
    for a, text in names.items():
        seen.setdefault(text, []).append(a)
    for text, same in seen.items():
        if len(same) > 1:
            for a in same:
                names[a] = f"{text} #{a}"
    return names


GAME = DragonsDown()
