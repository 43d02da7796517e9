"""Dragon Pass: the Lunar Empire against Sartar, and against the Independents, on
a 1,530-hex map, scenarios 18.1 to 18.6 (``dragongym.make("dragon_pass",
scenario="18.2", screening=True)``).

The rules core is the ``rules`` package (numba, one module per part of the
rulebook; ``envs/README.md``), the state record ``state.py``, the
observations ``observe.py``, the one compiled entry point ``kernel.py``; the
map and the counters are data files in ``data/`` (substitutes,
``SUBSTITUTES.md``); ``RULES.md`` maps every rule to its code and test.

Seats are the factions: seat 0 ``lunar``, seat 1 ``sartar`` (18.6's
``independents``), and in 18.8, The Rising of Tarsh, seat 2 ``tarsh``: three
players, who deploy and play in the order Tarsh, Lunar, Sartar (who deploys
and plays first is the scenario's, L206-L313).

Spaces
------
Action ``Discrete(A)``, ``A = rules.NUM_ACTIONS``, in three blocks whose
meaning the pending decision (``phase``) gives:

==========  ==============================================================
``hex``     a hex of the map (board index; indexes ``board``... by hex, see
            ``observe.CELL_OF_HEX``): deploy there, select the stack there,
            step the moving group into it, attack it, add it to a battle,
            fire on it, retreat or advance into it, rejoin it
``unit``    a counter (indexes the ``units`` rows): it joins the moving
            group, goes on top of its stack, is the next casualty, retreats,
            advances
``choice``  done / arrange this stack / a 2DD as two disruptions / as one
            elimination / force march onto the board (``rules.CH_*``)
==========  ==============================================================

Observation: ``{"observation": float32[OBS_SIZE], "action_mask": int8[A]}``
from the observing seat's side: the ``board`` grid (dynamic planes; the
static map is ``spec.constants["board_static"]``), the ``units`` entity rows
and ``flat`` features (``observe.py``). With ``screening`` the contents of
enemy stacks outside combat are hidden (L452).

Outcome: each scenario's victory conditions at the end of its last
game-turn (L217, L232, L248; 18.3 also ends when Argrath dies for good):
the winner ranks 1 (+1), the loser 2 (-1), a draw ranks both 1 (0).
``score``: the Sartar fortresses each side controls.

Decisions are split finely, one per step, each with an exact mask: the
next unit to deploy and its hex; a stack to move, the units that go with it,
each hex they step into (the player chooses the whole path, so every case
where the path matters -- a ZOC, a river to leave, a road -- is the player's,
L456-L468), where the group stops; the stacks of each battle; each missile
unit's target; each casualty; each retreat and where to; each advance and
where to; the order of a stack, by lifting units to its top one at a time
(L450). Decisions with a single legal action are taken by the core
(``auto_single``).

Version history: v1 first release (part 1: deployment, movement, zones of
control, missile fire, melee, retreats, advances, rally, heroes and
superheroes; 18.1-18.3). v2 part 1's corrections: every active stack beside
an inactive stack must attack (no battle, and no end of the combat phase,
leaves one without a battle it could join); the map's road at 1813 honours
the erratum (no road crosses from 1813 into 1914; the primary road runs on
to 1913, the secondary road from Too Far comes in from 1812). v3 part 2:
the whole battalia, magic in the combat phase, the Red Moon and the
Glowline, the Exotic Magic Phase, assassins; scenarios 18.4 and 18.5.
v4 a smaller observation (12,384 floats, was 30,534): the grid keeps six
planes (each side's counters and CF, the enemy's zones of control, the
decision's hexes); the per-hex majors, disrupted, missile and cavalry planes
are read from the unit rows (which gain U_CAVALRY and U_ZOC), fortress
control moves to ``flat``. v5 a hero or superhero whose escape roll succeeds
with no stack of his side left on the map is eliminated permanently as one
that fails it: the Crimson Bat feeds on him if it struck him, and Argrath's
death so ends 18.3. v6 the observation serves what each counter is (its
printed factors on both sides, rank, arm, force) once, in
``spec.constants["units_static"]``, beside the unit rows, which keep what
changes in play (24 features); the grid keeps five planes: the enemy's zones
of control are read from the stacks (each row's U_ZOC; a screened stack
shows -1 when its top counter exerts one, -0.5 when not). 10,154 floats.
v7 every counter of the game is in the unit set, the Independents' included
(244 rows; 1,791 actions, 13,633 floats), and scenario 18.6 Dousing the
Flames plays: the Independent player (seat 1, ``independents``), Ironhoof's
freeze, the horse herds (hastening, stampedes, capture, neutral herds), the
Earth-Shaker's earthquake, the Twins as Androgeus' best friend, Sartar
closed, the five victory sites (``site_owner``); a herd is never a scapegoat.
v8 the special rules of three more Major Independents (to be brought in by
alliances): Cragspider's Pillar of Fire and her Black Dragon dying with her,
Sir Ethilrist's Hound (riding, the Doom Run), Cloak of Darkness (its cloud,
the Goblins) and Keener Than, the Dragonewts' resurrection and roads; the
flat observation shows the Cloak, Keener Than, the Pillar and who entered
each Dragonewt City (13,657 floats).
v9 scenario 18.7 The Full Game: diplomacy and alliances (the Diplomacy
Segment, the Alliance Phase, emissaries, replacements, trespassing), the
Minor Independents' rules (Delecti's zombies, the dinosaurs, the dragons and
Hungry Jack, the Dwarf, the Hydra, the Puppeteers, the Spirit of Movement,
the Sun Dome Templars, the Tusk Riders), the Random Events Option with every
event and the giants; 1,828 actions, 13,760 floats (the flat features of
diplomacy, the events and the Independents' public state).
v10 scenarios 18.8 The Rising of Tarsh (three players: Tarsh, Lunar, Sartar)
and 18.9 The Marathon Game (replacements bought with DP, a purchase
decision); Hungry Jack fetched by a dragon (a choice), players attacking
giants and Giantmaster, carrying zero-MF units; 1,829 actions, 14,014 floats
(each counter's second opponent, the players' capitals, the dragon away
fetching Jack).
"""
# jitcache: no compiled code
from dataclasses import dataclass, field

import numpy as np

from dragongym.envs.core.config import ConfigError
from dragongym.envs.core.game import Game, check_common_fields
from dragongym.envs.core.spec import ActionBlock, GameSpec, ObsBlock
from dragongym.envs.core.kernel_calls import KernelCalls
from . import kernel as K
from . import observe as O
from . import rules as R
from . import view as V
from .board import NUM_HEXES
from .constants import NUM_UNITS, PLAYABLE_SCENARIOS, SCENARIO_ROLES, SCENARIOS, UNIT_IDS
from .data import DATA, MAP
from .state import STATE_DTYPE

PHASE_NAMES = {v: k[3:].lower() for k, v in vars(R).items() if k.startswith("PH_") and isinstance(v, int)}
ERRORS = {R.E_RANGE: "action outside 0..A-1", R.E_ILLEGAL: "not a legal action in this position",
          R.E_OVER: "the game is over"}

MAX_GAME_TURNS = 28
"""The longest scenario of the rulebook (18.9, L315); 18.1-18.3 last 5-6."""
DOOM_COMPASS = ("", "north", "north-east", "south-east", "south", "south-west", "north-west")
"""The map's compass by direction 1..6 (``board.HEX_STEP``): the way of the Hound's Doom Run (L754)."""
DECISIONS_PER_UNIT_TURN = 12
"""A bound on one unit's decisions in one player-turn, on average over a
game: joining a group, its steps (an MF of 7 on a primary road is 14), its
battles' arrangements, retreats, casualties and advances."""


@dataclass(frozen=True)
class DragonPassConfig:
    """Options of a Dragon Pass game.

    Attributes:
        scenario: ``"18.1"`` Stemming the Tide (5 game-turns, melee only),
            ``"18.2"`` High Tide (6, missile and melee), ``"18.3"`` Argrath's
            Return (5, with heroes and superheroes), ``"18.4"`` Counterstroke
            and ``"18.5"`` Hearts and Minds (7 each, all combat: magic, the
            Red Moon, the Exotic Magic Phase), ``"18.6"`` Dousing the Flames
            (10, all combat, the Lunars against the Independents), ``"18.7"``
            The Full Game (14, all combat, diplomacy and alliances, every
            Independent available), ``"18.8"`` The Rising of Tarsh (14, all
            combat, three players: Tarsh, Lunar, Sartar) (L204-L313); the name is a
            string (the float 18.1 is refused; ``--scenario 18.1`` on a
            command line is read as the name).
        screening: the screening option: players cannot examine enemy
            stacks except those in combat (L452). Off by default ("if any
            player says they do not want the screening option before play,
            then it is not used").
        max_turns: stop after this many game-turns, truncated (a draw),
            where that is before the scenario's own end (the truncation
            option; the default plays every scenario to its end).
        auto_single: the core applies a decision that has exactly one legal
            action instead of asking (no information is lost).
        random_events: the Random Events Option: a Random Events Segment
            opens each game-turn, two dice read as 11..66 (L948-L973), and
            the giants it brings move in each player-turn's Random Movement
            Phase (L918). Off by default here (the rulebook assumes it unless
            a player objects, L950); only in the two-player games between
            Sartar and the Lunar Empire (18.1-18.5, 18.7; 18.6 is the Lunars against
            the Independents, 18.8 is for three players).
    """

    scenario: str = field(default="18.1", metadata={"choices": PLAYABLE_SCENARIOS})
    screening: bool = False
    max_turns: int = field(default=MAX_GAME_TURNS, metadata={"range": (1, MAX_GAME_TURNS)})
    auto_single: bool = True
    random_events: bool = False


def _config(config, with_obs=False):
    out = np.zeros(K.CONFIG_SIZE, dtype=np.int64)
    if config is not None:
        out[K.CFG_SCENARIO] = SCENARIOS.index(config.scenario)
        out[K.CFG_SCREENING] = 1 if config.screening else 0
        out[K.CFG_AUTO_SINGLE] = 1 if config.auto_single else 0
        out[K.CFG_MAX_TURNS] = config.max_turns
        out[K.CFG_RANDOM_EVENTS] = 1 if config.random_events else 0
    out[K.CFG_WITH_OBS] = 1 if with_obs else 0
    return out


CALLS = KernelCalls("dragon_pass", K, R.NUM_ACTIONS, O.OBS_SIZE, _config)
"""The batched calls, each one op of ``kernel.run_batch``."""

STATIC_PLANES = O.static_planes()
STATIC_PLANES.setflags(write=False)
STATIC_UNITS = O.static_units()
STATIC_UNITS.setflags(write=False)

OBS_LAYOUT = {
    "board": ObsBlock(O.BOARD_OFF, O.LAYOUT["board"][1], kind="grid", geometry="hex",
                      grid_shape=(MAP.columns, MAP.rows), hex_layout="flat-odd-q", static="board_static",
                      doc="the map's hexes in reading order: each side's counters and CF (a screened stack: "
                          "whether it exerts a ZOC), the decision's hexes (observe.G_*); the static map is constants['board_static'] "
                          "(observe.S_*)"),
    "units": ObsBlock(O.UNITS_OFF, O.LAYOUT["units"][1], kind="entities", valid_column=O.U_VALID,
                      static="units_static",
                      doc="one row per counter (constants.UNIT_IDS): where it is and what it is doing "
                          "(observe.U_*); what it is, its printed factors, is constants['units_static'] "
                          "(observe.K_*)"),
    "flat": ObsBlock(O.FLAT_OFF, O.LAYOUT["flat"][1], kind="flat",
                     doc="scenario, turn, the pending decision, the battle's numbers (observe.F_*)"),
}
ACTION_LAYOUT = {
    "hex": ActionBlock(R.A_HEX, NUM_HEXES, doc="a hex of the map by board index (observe.CELL_OF_HEX gives "
                                               "its board cell)"),
    "unit": ActionBlock(R.A_UNIT, NUM_UNITS, indexes="units", doc="a counter (constants.UNIT_IDS)"),
    "choice": ActionBlock(R.A_CHOICE, R.NUM_CHOICES, doc="done, arrange, 2DD as two disruptions, as one "
                                                         "elimination, force march, the Red Moon's phase, "
                                                         "a Type 2 storm, reveal, freeze the cavalry, "
                                                         "a Type 1 / Type 2 earthquake, eliminate the Spirit of Movement, "
                                                         "double the MgF / RF (the Alchemical Transformer), "
                                                         "assign DP to a Major Independent, seek its alliance, "
                                                         "the South Soldier Reserve, a dragon off the West "
                                                         "edge to fetch Hungry Jack"),
}


class DragonPass(Game):
    """The Dragon Pass rules core behind the generic adapters."""

    name = "dragon_pass"
    version = 11
    dtype = STATE_DTYPE
    config_cls = DragonPassConfig
    obs_bounds = (-1.0, O.OBS_HIGH)
    heuristic_agent = "dragon_pass.heuristic"
    picture_module = "dragongym.envs.dragon_pass.picture"
    truncation_option = "max_turns"
    # rewards +1 / -1, 0 for a draw, written at the end (turns.end_game); the
    # score is the Sartar fortresses a side controls (L217), seven at most
    float_ranges = {"rewards": (-1.0, 1.0), "score": (0.0, float(R.FORTRESS_SARTAR.sum()))}
    bench_options = {"scenario": "18.7"}        # the Full Game: every counter, diplomacy (issue 29 measures it)
    bench_targets = {"openspiel chess": 1.5, "openspiel chess +obs": 1.5}   # issue 13
    # measured: 65 s for the kernel from an empty cache, 2 cores
    compile_minutes = 0.5

    def make_config(self, **options):
        """The options checked; the Random Events Option is refused outside the
        two-player games between Sartar and the Lunar Empire (L950)."""
        config = super().make_config(**options)
        if config.random_events and SCENARIO_ROLES[SCENARIOS.index(config.scenario)] != ("lunar", "sartar"):
            raise ConfigError(f"{self.name}: option random_events is only for the two-player games between Sartar "
                              f"and the Lunar Empire (L950: 18.1-18.5, 18.7, 18.9); scenario {config.scenario} is "
                              f"{' against '.join(SCENARIO_ROLES[SCENARIOS.index(config.scenario)])}")
        return config

    def spec_for(self, config):
        """Seats by faction (roles): ``lunar`` and ``sartar``, in 18.6 ``lunar``
        and ``independents``; the scenario's game-turns end it. Hidden
        information: the screening option, and in the Full Game the
        Diplomacy Points each player assigns in secret (L979)."""
        sc = SCENARIOS.index(config.scenario)
        deployed = int(R.SCENARIO_UNITS_END[sc]) if R.SCENARIO_DIPLOMACY[sc] else int(R.U_DEPLOY[:, sc].sum())
        turns = min(int(R.SCENARIO_TURNS[sc]), int(config.max_turns))
        return GameSpec(
            name=self.name, version=self.version, roles=SCENARIO_ROLES[sc], seats_are_roles=True,
            num_actions=R.NUM_ACTIONS, obs_size=O.OBS_SIZE, obs_layout=OBS_LAYOUT, action_layout=ACTION_LAYOUT,
            max_decisions=2 * deployed + len(SCENARIO_ROLES[sc]) * turns * deployed * DECISIONS_PER_UNIT_TURN,
            turn_limit=turns if turns < int(R.SCENARIO_TURNS[sc]) else None, turn_unit="game-turns", chance=True,
            hidden_information=bool(config.screening) or bool(R.SCENARIO_DIPLOMACY[sc]),
            utility="zero_sum", config=config,
            score_name={"18.6": "victory sites (L293)", "18.7": "the opponent's fortresses (L301)",
                        "18.8": "the players' capitals (L313)", "18.9": "Boldhome and Furthest held (L325)"}.get(
                config.scenario, "Sartar fortresses"),
            constants={"board_static": STATIC_PLANES, "units_static": STATIC_UNITS})

    def turns_played(self, state):
        """Game-turns started."""
        return int(state[0]["turn"])

    def test_configs(self):
        """Every scenario, with and without screening; the Random Events Option
        in 18.4 and in the Full Game (where its events 12 and 13 bid Diplomacy
        Points in secret)."""
        return [{"scenario": sc, "screening": scr} for sc in PLAYABLE_SCENARIOS for scr in (False, True)] + \
            [{"scenario": sc, "random_events": True} for sc in ("18.4", "18.7")]

    # ------------------------------------------------------------ soundness
    def check_state(self, state):
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
        out = []
        for _ in range(count):
            v = state.copy()
            self.determinize(v, seat, rng)
            out.append(v)
        return out

    def determinize(self, state, player, rng):
        """Resample what seat ``player`` cannot know: with screening, the
        contents of the enemy stacks it cannot examine are dealt anew among
        those stacks (whole stacks trade places, neutral units staying put, among stacks of the
        same player whose top counter alike exerts or does not exert a ZOC, which it sees; a stack
        the pending decision or this phase's flags name stays); in the Full
        Game, the other player's Diplomacy Points held and assigned to the
        unallied Majors (``_deal_assignments``); and the RNG stream (every
        future die)."""
        rec = state[0]
        if int(R.SCENARIO_DIPLOMACY[int(rec["scenario"])]):
            _deal_assignments(rec, 1 - int(player), rng)
            if int(rec["phase"]) == R.PH_AUCTION and int(rec["event_left"]) == 1:
                # the first offer for the Dragonewts is written, not yet shown (L958)
                sc, turn = int(rec["scenario"]), int(rec["turn"])
                room = int(sum(int(R.DP_SCHEDULE[sc, t]) for t in range(turn + 1, int(rec["max_turns"]) + 1)))
                rec["auction_bid"][1 - int(player)] = int(rng.integers(0, room + 1))
        if int(rec["screening"]):
            pinned = {int(rec[n]) for n in ("sel_hex", "group_start", "arr_hex", "exotic_hex")}
            pinned |= {int(h) for n in ("bat_att", "bat_def", "bat_vacated") for h in rec[n]}
            # the scapegoat marker sits on its stack for both players to see (L654); a
            # revealed Bat or Argrath is seen where it is (L666, L668)
            pinned |= {int(rec["unit_hex"][g]) for g in rec["unit_scapegoat"] if g >= 0}
            pinned |= {int(rec["unit_hex"][u]) for u in V.revealed_units(rec)}
            hidden = {}
            for h, units in V.stacks(state).items():
                # a neutral unit is no one's secret (a stampeded herd, L594): it stays put
                secret = [v for v in units if int(rec["unit_force"][v]) >= 0]
                if not secret or int(rec["unit_force"][secret[0]]) == int(player) or h in pinned:
                    continue
                if any(int(rec["unit_flags"][v]) or int(rec["unit_target"][v]) >= 0 for v in units):
                    continue      # a fact of this phase pins the stack (it moved, fought, fires)
                # stacks trade places only with stacks of the same player (whose a stack is, its
                # counters' colour, is public: with three players two enemies are told apart)
                owner = int(rec["unit_force"][secret[0]])
                hidden.setdefault((owner, V.exerts_zoc(rec, units[0])), []).append((h, secret))
            for group in hidden.values():
                if len(group) < 2:
                    continue
                order = rng.permutation(len(group))
                for (h, _), k in zip(group, order):
                    for u in group[k][1]:
                        rec["unit_hex"][u] = h
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
        """The one compiled entry point, ``kernel.run_batch``, through each of
        its ops (``Game.adapter_entry_points``)."""
        return self.adapter_entry_points(self.make_config(scenario="18.3"))

    # ------------------------------------------------------------ text
    def action_to_string(self, state, action):
        """Readable name of ``action`` in ``state`` (a 1-record array): a legal
        action by what it does now ("move Free Warriors 4-5-5 from 3124 to
        3125", "attack 2930 with the stacks at 3030, 3031"); any other by its
        neutral name and why it means nothing now."""
        a = int(action)
        if not 0 <= a < R.NUM_ACTIONS:
            return f"action {a} (no such action)"
        names = self._names(state)
        if a in names:
            return names[a]
        name = _neutral_name(a)
        if int(state[0]["status"]) != 0:
            return f"{name} (the game is over)"
        return f"{name} (not legal now: the position asks for {PHASE_NAMES.get(int(state[0]['phase']), '?')})"

    def string_to_action(self, state, text):
        """The legal action of ``state`` named ``text`` by :meth:`action_to_string`."""
        for a, name in self._names(state).items():
            if name == text:
                return a
        raise ValueError(f"{text!r} names no legal action here")

    def _names(self, state):
        """``{action: name}`` of the legal actions of ``state``, kept for the
        last position asked about (naming every action of a position one by
        one would otherwise name the position's ~1,500 actions each time)."""
        key = state.tobytes()
        cached = self.__dict__.get("_named")
        if cached is None or cached[0] != key:
            cached = (key, _legal_names(state[0], self.mask_of(state)))
            self.__dict__["_named"] = cached
        return cached[1]

    def decision_is_public(self, state, action):
        """With screening, a decision names the counters it moves or
        chooses, which the enemy may not examine; without it, all is open --
        but the Diplomacy Points a player assigns, which are always his
        secret (L979), as are the offers for the Dragonewts (L958)."""
        if int(state[0]["phase"]) in (R.PH_DIPLOMACY, R.PH_AUCTION):
            return False
        return not bool(state[0]["screening"])

    def render_ansi(self, state, seat=None):
        """The map as a staggered hex grid with a legend, the forces and the
        decision; with a ``seat``, screened enemy stacks as that seat sees them."""
        return _picture(state[0], seat)


# ------------------------------------------------------------------ action names
_CHOICES = ("done", "arrange the stack", "take two disruptions", "take one elimination", "force march") \
    + tuple(f"the Red Moon starts at {ph.name}" for ph in DATA.tables.moon_phases) + ("a Type 2 storm", "reveal") \
    + ("freeze the cavalry", "a Type 1 earthquake", "a Type 2 earthquake") \
    + ("a dragonfight on the stack's non-superhero units", "negate the Glowline near a dragon") \
    + ("eliminate the Spirit of Movement", "double the MgF", "double the RF") \
    + tuple(f"assign {int(n)} DP to {DATA.tables.alliance_names[R.MAJORS[k]]}"
            for n in R.ASSIGN_AMOUNTS for k in range(R.NUM_MAJORS)) \
    + tuple(f"seek {DATA.tables.alliance_names[R.MAJORS[k]]}'s alliance" for k in range(R.NUM_MAJORS)) \
    + ("to the South Soldier Reserve",) \
    + tuple(f"offer {int(n)} DP more for the Dragonewts" for n in R.ASSIGN_AMOUNTS) \
    + ("fly off the West map edge to fetch Hungry Jack",)
assert len(_CHOICES) == R.NUM_CHOICES


def _deal_assignments(rec, o, rng):
    """Deal player o's secret Diplomacy Points anew (L979): his total over the
    points he holds and has assigned to the unallied Majors stays, as does
    at least what he called out for each (he never takes points back, L979);
    the rest goes point by point to his pool or any of those Majors."""
    open_ = [k for k in range(R.NUM_MAJORS) if int(rec["faction_ally"][k]) < 0]
    floor = {k: max(0, int(rec["dp_announced"][o, k])) for k in open_}
    total = int(rec["dp"][o]) + sum(int(rec["dp_assigned"][o, k]) for k in open_)
    spare = total - sum(floor.values())
    if spare < 0:
        return
    slots = rng.integers(0, len(open_) + 1, size=spare)
    rec["dp"][o] = int((slots == len(open_)).sum())
    for i, k in enumerate(open_):
        rec["dp_assigned"][o, k] = floor[k] + int((slots == i).sum())


def _neutral_name(a):
    if a < R.A_UNIT:
        return f"hex {V.hex_name(a - R.A_HEX)}"
    if a < R.A_CHOICE:
        return f"unit {V.unit_name(a - R.A_UNIT)}"
    return _CHOICES[a - R.A_CHOICE]


def _units_text(rec, units):
    names = [V.unit_name(u, rec) for u in units]
    return names[0] if len(names) == 1 else f"{len(names)} units ({', '.join(names)})"


def _legal_name(rec, a):
    ph = int(rec["phase"])
    h = a - R.A_HEX
    u = a - R.A_UNIT
    done = a == R.A_CHOICE + R.CH_DONE
    sel = int(rec["sel_hex"])
    if ph == R.PH_DEPLOY:
        nxt = V.next_to_deploy(rec, int(rec["to_play"]))
        if a == R.A_CHOICE + R.CH_RESERVE:
            return f"{V.unit_name(nxt)} joins the South Soldier Reserve"
        return f"deploy {V.unit_name(nxt)} at {V.hex_name(h)}"
    if ph == R.PH_DIPLOMACY:
        if done:
            held = int(rec["dp"][int(rec["to_play"])])
            return f"assign no more Diplomacy Points this game-turn (keep {held})"
        c = a - R.A_CHOICE - R.CH_ASSIGN
        k = c % R.NUM_MAJORS
        return f"assign {int(R.ASSIGN_AMOUNTS[c // R.NUM_MAJORS])} DP to {DATA.tables.alliance_names[R.MAJORS[k]]}"
    if ph == R.PH_REPLACE:
        if done:
            return "take no more replacements this game-turn"
        return f"{V.unit_name(u, rec)} comes back as a replacement"
    if ph == R.PH_PURCHASE:
        if done:
            return "buy no more replacements this game-turn"
        return f"buy {V.unit_name(u, rec)} as a replacement for {int(R.PURCHASE_COST[u])} DP"
    if ph == R.PH_ALLIANCE:
        if done:
            return "end the Alliance Phase"
        if a >= R.A_CHOICE:
            k = a - R.A_CHOICE - R.CH_SEEK
            mine = int(rec["dp_assigned"][int(rec["to_play"]), k])
            return f"seek {DATA.tables.alliance_names[R.MAJORS[k]]}'s alliance with {mine} DP"
        where = int(rec["unit_hex"][u])
        if where == R.IVORY_PLINTH:
            return f"{V.unit_name(u, rec)} is offered to the Tusk Riders at {V.hex_name(where)}"
        return f"{V.unit_name(u, rec)} goes as an emissary at {V.hex_name(where)}"
    if ph == R.PH_ALLY_SETUP:
        return f"set up {V.unit_name(int(rec['cursor']), rec)} at {V.hex_name(h)}"
    if ph == R.PH_KEENER:
        return f"Keener Than joins the stack at {V.hex_name(h)}"
    if ph == R.PH_AUCTION:
        if done:
            return f"write the offer for the Dragonewts: {int(rec['auction_bid'][int(rec['to_play'])])} DP"
        return f"offer {int(R.ASSIGN_AMOUNTS[a - R.A_CHOICE - R.CH_BID])} DP more for the Dragonewts"
    if ph == R.PH_SACRIFICE:
        return f"{V.unit_name(u, rec)} sacrifices {V.unit_name(int(rec['cursor']), rec)} to the Tusk Riders"
    if ph == R.PH_MOVE:
        if a >= R.A_UNIT and not done:
            if R.ZOMBIE_1 <= u < R.ZOMBIE_1 + R.NUM_ZOMBIES:
                return f"move the zombie chain led by {V.unit_name(u, rec)}"
            if R.IS_ILLUSION[u]:
                return f"the Puppeteer Troop switches places with the Illusory Army at " \
                       f"{V.hex_name(int(rec['unit_hex'][u]))}"
            if int(rec["unit_where"][u]) == R.UW_MAP:
                return f"Argrath summons {V.unit_name(u, rec)}"
            return f"bring {V.unit_name(u, rec)} onto the board"
        return "end the movement phase" if done else f"select the stack at {V.hex_name(h)}"
    if ph == R.PH_ENTER_HEX:
        return f"{V.unit_name(int(rec['cursor']), rec)} enters at {V.hex_name(h)}"
    if ph == R.PH_FORCE_MARCH:
        name = V.unit_name(int(rec['cursor']), rec)
        return f"{name} force marches on" if a == R.A_CHOICE + R.CH_FORCE_MARCH else f"{name} enters at its MF"
    if ph == R.PH_MOVE_GROUP:
        grp = V.group(rec)
        if a == R.A_CHOICE + R.CH_ARRANGE:
            return f"arrange the stack at {V.hex_name(sel)}"
        if a == R.A_CHOICE + R.CH_FETCH_JACK:
            return f"{_units_text(rec, grp)} flies off the West map edge to fetch Hungry Jack"
        if done:
            return f"stop at {V.hex_name(sel)}" if grp else f"leave the stack at {V.hex_name(sel)}"
        if a >= R.A_UNIT and rec["unit_flags"][u] & R.UF_GROUP:     # a carried unit (L462)
            return f"drop off {V.unit_name(u, rec)} at {V.hex_name(sel)}"
        if a >= R.A_UNIT:
            return f"move {V.unit_name(u, rec)} with the group"
        if MAP.distance(sel, h) > 1:          # a journey by dragonewt road (L482)
            return f"move {_units_text(rec, grp)} by dragonewt road from {V.hex_name(sel)} to {V.hex_name(h)}"
        return f"move {_units_text(rec, grp)} from {V.hex_name(sel)} to {V.hex_name(h)}"
    if ph == R.PH_ARRANGE:
        where = V.hex_name(int(rec["arr_hex"]))
        return f"the stack at {where} is arranged" if done else f"put {V.unit_name(u, rec)} on top at {where}"
    if ph == R.PH_BATTLE:
        return "fight no more battles" if done else f"attack the stack at {V.hex_name(h)}"
    if ph == R.PH_BATTLE_ADD:
        att = [int(x) for x in rec["bat_att"] if x >= 0]
        dfn = [int(x) for x in rec["bat_def"] if x >= 0]
        if done:
            return f"attack {', '.join(V.hex_name(x) for x in dfn)} with the stacks at " \
                   f"{', '.join(V.hex_name(x) for x in att)}"
        mine = V.stack(rec, h) and int(rec["unit_force"][V.stack(rec, h)[0]]) == int(rec["to_play"])
        return f"{'attack with' if mine else 'also attack'} the stack at {V.hex_name(h)}"
    if ph == R.PH_MISSILE_TARGET:
        return f"{V.unit_name(int(rec['cursor']), rec)} fires at {V.hex_name(h)}"
    if ph == R.PH_MISSILE_CHOICE:
        return _CHOICES[a - R.A_CHOICE]
    if ph == R.PH_MISSILE_CASUALTY:
        if int(rec['elim_left']) > 0:
            # a herd suffering an eliminated result stampedes instead (L567)
            return f"{'stampede' if R.U_HERD[u] else 'eliminate'} {V.unit_name(u, rec)}"
        return f"disrupt {V.unit_name(u, rec)}"
    if ph == R.PH_RETREAT:
        return "no more retreats" if done else f"retreat {V.unit_name(u, rec)}"
    if ph == R.PH_RETREAT_HEX:
        c = int(rec["cursor"])
        return f"{V.unit_name(c, rec)} retreats from {V.hex_name(int(rec['unit_hex'][c]))} to {V.hex_name(h)}"
    if ph == R.PH_CASUALTY:
        verb = "capture" if R.U_HERD[u] else "eliminate"      # a herd taken as a melee casualty is captured (L586)
        return f"{verb} {V.unit_name(u, rec)} at {V.hex_name(int(rec['unit_hex'][u]))}"
    if ph == R.PH_ADVANCE:
        return "no more advances" if done else f"advance {V.unit_name(u, rec)}"
    if ph == R.PH_ADVANCE_HEX:
        return f"{V.unit_name(int(rec['adv_unit']), rec)} advances into {V.hex_name(h)}"
    if ph == R.PH_ADVANCE_EXT:
        v = int(rec["adv_unit"])
        if done:
            return f"{V.unit_name(v, rec)} stays in {V.hex_name(int(rec['unit_hex'][v]))}"
        return f"{V.unit_name(v, rec)} advances on to {V.hex_name(h)}"
    if ph == R.PH_ESCAPE_HEX:
        return f"{V.unit_name(int(rec['cursor']))} rejoins the stack at {V.hex_name(h)}"
    if ph == R.PH_SCAPEGOAT:
        return f"{V.unit_name(u, rec)} is the scapegoat of {V.unit_name(int(rec['cursor']))}"
    if ph == R.PH_COMMIT:
        return "commit no more spirits or agents" if done else f"commit {V.unit_name(u, rec)}"
    if ph == R.PH_COMMIT_HEX:
        return f"{V.unit_name(int(rec['cursor']), rec)} attacks the stack at {V.hex_name(h)}"
    if ph == R.PH_SAVE:
        return f"{V.unit_name(int(rec['cursor']), rec)} protects {V.unit_name(u, rec)} from magic"
    if ph == R.PH_MAGIC_CASUALTY:
        where = int(rec["unit_hex"][u])
        verb = "stampede" if R.U_HERD[u] and where >= 0 else "eliminate"    # herds stampede (L534, L556)
        return f"{verb} {V.unit_name(u, rec)}" + (f" at {V.hex_name(where)}" if where >= 0 else "")
    if ph == R.PH_SUPPORT:
        return "give no more magical support" if done else f"{V.unit_name(u, rec)} gives magical support"
    if ph == R.PH_SUPPORT_HEX:
        return f"{V.unit_name(int(rec['cursor']), rec)} supports the stack at {V.hex_name(h)}"
    if ph == R.PH_EXOTIC:
        if not done and R.U_TAGS[u] & R.TAG_DRAGON:
            return f"{V.unit_name(u, rec)}: negate the Glowline near it or not"     # L851, no magic of its own
        return "end the Exotic Magic Phase" if done else f"{V.unit_name(u, rec)} uses its exotic magic"
    if ph == R.PH_EXOTIC_TARGET:
        c = int(rec["cursor"])
        if c == R.CRIMSON_BAT:
            return f"the Crimson Bat devours {V.unit_name(u, rec)}"
        if c == R.CRATER_MAKERS:
            return f"a Meteor Storm strikes {V.hex_name(h)}"
        if c == R.FULL_MOON_CORPS:
            return f"summon the Full Moon Corps to {V.hex_name(h)}"
        if c == R.WASPS:
            return f"the Wasps sting around {V.hex_name(h)}"
        if c == R.ETHILRIST:
            return (f"Sir Ethilrist casts the Cloak of Darkness at {V.hex_name(h)}: "
                    f"a cloud {R.CLOAK_RANGE} hexes around for {R.CLOAK_TURNS} more game-turns")
        if c == R.HELL_HOUND:
            way = DOOM_COMPASS[[int(R.HEX_STEP[int(rec["unit_hex"][c]), d]) for d in range(7)].index(h)]
            return f"the Hell Hound runs its Doom Run {way} through {V.hex_name(h)} to the board's edge"
        if a == R.A_CHOICE + R.CH_STORM:
            return "a Type 2 storm: rain, rain, then flood"
        if a == R.A_CHOICE + R.CH_QUAKE_1:
            return "a Type 1 earthquake: one fracture line of 8 hexes"
        if a == R.A_CHOICE + R.CH_QUAKE_2:
            return "a Type 2 earthquake: two fracture lines of 5 hexes"
        if R.U_ASSASSIN[c]:
            return f"{V.unit_name(c, rec)} scouts the stack at {V.hex_name(h)}"
        if c == R.CRAGSPIDER:
            return f"Cragspider unleashes the Pillar of Fire on {V.hex_name(h)} and two hexes beside it"
        if c == R.PUPPETEER_TROOP:
            f = int(rec["unit_force"][c])
            if any(int(rec["unit_where"][v]) == R.UW_MAP and int(rec["unit_hex"][v]) == h
                   and int(rec["unit_force"][v]) == f for v in R.ILLUSORY_ARMIES):
                return f"remove the Illusory Army at {V.hex_name(h)}"
            return f"create an Illusory Army at {V.hex_name(h)}"
        if c == R.HYDRA:
            return f"feed {V.unit_name(u, rec)} to the Hydra"
        if a == R.A_CHOICE + R.CH_NEGATE:
            name = V.unit_name(c, rec)
            if int(rec["dragon_negates"]) >> list(R.DRAGON_UNITS).index(c) & 1:
                return f"{name} stops negating the Glowline and Glowspot within 1 hex"
            return f"{name} negates the Glowline and Glowspot within 1 hex"
        return f"a Type 1 storm strikes {V.hex_name(h)}"
    if ph == R.PH_FRACTURE:
        n = int((rec["fracture_hexes"] >= 0).sum())
        length = R.TYPE1_LENGTH if int(rec["quake_type"]) == 1 else R.TYPE2_LENGTH
        line = 2 if n >= length else 1
        return f"fracture line {line}, hex {n % length + 1} of {length}: {V.hex_name(h)}"
    if ph == R.PH_ZOMBIE_RISE:
        return f"a new zombie rises at {V.hex_name(h)}"
    if ph == R.PH_ZOMBIE_MARCH:
        lead = V.unit_name(int(rec["zombie_lead"]), rec)
        return "the zombie chain stops" if done else f"{lead} leads the zombie chain into {V.hex_name(h)}"
    if ph == R.PH_PILLAR:
        n = int((rec["pillar_hexes"] >= 0).sum())
        return f"the Pillar of Fire, hex {n + 1} of 3: {V.hex_name(h)}"
    if ph == R.PH_PUPPET_DODGE:
        if done:
            return "the Puppeteer Troop fights this battle"
        return f"the Puppeteer Troop switches places with the Illusory Army at " \
               f"{V.hex_name(int(rec['unit_hex'][u]))} to avoid the battle"
    if ph == R.PH_HYDRA_FEED:
        return "feed no more units to the Hydra now" if done else f"feed {V.unit_name(u, rec)} to the Hydra"
    if ph == R.PH_DRAGONFIGHT:
        d = int(rec["dragonfight_unit"]) - 1
        where = V.hex_name(int(R.HEX_STEP[int(rec["unit_hex"][d]), int(rec["dragonfight_dir"])]))
        if a == R.A_CHOICE + R.CH_DRAGON_STACK:
            return f"{V.unit_name(d, rec)}'s dragonfight eliminates the units at {where} but the superheroes"
        return f"{V.unit_name(d, rec)}'s dragonfight eliminates {V.unit_name(u, rec)} at {where}"
    if ph == R.PH_JACK:
        if done:
            return "Hungry Jack summons no more units"
        return f"Hungry Jack summons {V.unit_name(u, rec)} at {V.hex_name(int(rec['unit_hex'][u]))}"
    if ph == R.PH_JACK_AID:
        return "no more magicians aid Hungry Jack" if done else f"{V.unit_name(u, rec)} aids Hungry Jack"
    if ph == R.PH_FREEZE:
        return "the cavalry moves this game-turn" if done else "Ironhoof freezes every cavalry unit this game-turn"
    if ph == R.PH_ALCHEMY:
        return ("the Alchemical Transformer doubles no one" if done else
                f"the Alchemical Transformer doubles {V.unit_name(u, rec)}")
    if ph == R.PH_ALCHEMY_FACTOR:
        who = V.unit_name(int(rec["alchemy_unit"]), rec)
        return f"double the RF of {who}" if a == R.A_CHOICE + R.CH_ALCHEMY_RF else f"double the MgF of {who}"
    if ph == R.PH_SPEED:
        return ("the Spirit of Movement stays" if done else
                "eliminate the Spirit of Movement: every unit's movement doubled this phase")
    if ph == R.PH_REVEAL:
        who = "the Crimson Bat" if int(rec["cursor"]) == R.REVEAL_BAT else "Argrath"
        return f"keep {who} hidden" if done else f"reveal where {who} is"
    if ph == R.PH_ASSASSIN:
        name = V.unit_name(int(rec["cursor"]), rec)
        return f"{name} is taken back" if done else f"{name} tries to kill {V.unit_name(u, rec)}"
    if ph == R.PH_SUMMON_HEX:
        return f"{V.unit_name(int(rec['cursor']), rec)} comes to {V.hex_name(h)}"
    if ph == R.PH_HUNGER:
        if a < R.A_UNIT:
            return f"the Bat's spirit takes the top unit of the stack at {V.hex_name(h)}"
        return f"the Bat's spirit takes {V.unit_name(u, rec)}"
    if ph == R.PH_EVENT_REMOVE:
        return f"remove {V.unit_name(u, rec)} (random event {int(rec['event_roll'])})"
    if ph == R.PH_EVENT_REPLACE:
        return "replace no more units" if done else f"the South Soldiers replace {V.unit_name(u, rec)}"
    if ph == R.PH_GIANT_STEP:
        name = V.unit_name(int(rec["cursor"]), rec)
        return f"{name} stops" if done else f"{name} steps to {V.hex_name(h)}"
    return _neutral_name(a)


def _legal_names(rec, mask):
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


# ------------------------------------------------------------------ the picture
_TERRAIN_CHARS = {"open": ".", "hill": "h", "hill_forest": "H", "forest": "f", "mountain": "M", "marsh": "m",
                  "lake": "~"}
LEGEND = ("legend: . open  h hill  H hill/forest  f forest  M mountain  m marsh  ~ lake; before it: "
          "# fortress, + other structure, = river, : ford or headwaters; L3 / S2: a Lunar / Sartar "
          "stack of 3 / 2 units (* a stack in the battle, ? a screened enemy stack)")


def _screened(rec, viewer, force, h, battle):
    """Whether ``viewer`` (a seat, or None for the full position) may not see
    into ``force``'s stack at hex ``h``: screening hides enemy stacks outside
    the battle (``battle``: its hexes). Neutral units are no one's secret."""
    return viewer is not None and bool(rec["screening"]) and force >= 0 and force != viewer and h not in battle


def _map_text(rec, viewer=None):
    """The map as a staggered hex grid: column c of the map is text column 3c, and
    hex (c, r) sits on text line 2r + c % 2, so that odd columns (counted from 0)
    lie half a hex lower, as on the board (``observe.CELL_OF_HEX``)."""
    from .board import HEX_FORD, HEX_RIVER, HEX_STRUCTURE, HEX_TERRAIN, STRUCTURE_IDS, TERRAIN_IDS
    cols, rows = MAP.columns, MAP.rows
    grid = [[" "] * (3 * cols) for _ in range(2 * rows + 1)]
    stacks = V.stacks(rec)
    battle = V.open_hexes(rec, viewer)
    for h in range(NUM_HEXES):
        c, r = h // rows, h % rows
        line, x = 2 * r + c % 2, 3 * c
        if h in stacks:
            force = V.stack_force(rec, stacks[h])
            hidden = _screened(rec, viewer, force, h, battle)
            count = "?" if hidden else str(min(len(stacks[h]), 9))
            mark = "*" if h in battle else " "
            cell = f"{V.side_letter(rec, force)}{count}{mark}"
        else:
            st = HEX_STRUCTURE[h]
            lead = "#" if st >= 0 and STRUCTURE_IDS[st] == "fortress" else "+" if st >= 0 else \
                ":" if HEX_FORD[h] and HEX_RIVER[h] else "=" if HEX_RIVER[h] else " "
            cell = f"{lead}{_TERRAIN_CHARS[TERRAIN_IDS[HEX_TERRAIN[h]]]} "
        grid[line][x:x + 3] = list(cell)
    header = "".join(f"{c + 1:02d} " for c in range(cols))
    return [header] + ["".join(row).rstrip() for row in grid]


def _magic_text(rec, viewer, battle):
    """The Red Moon, and the spirits and agents committed, supporting and at home
    (a screened enemy stack's supporting spirits are not shown, L452)."""
    lines = []
    if int(rec["moon"]) >= 0:
        phase = DATA.tables.moon_phases[int(rec["moon"])]
        glow = "the Glowline is gone" if int(rec["glowline_gone"]) else "the Glowline stands"
        lines.append(f"Red Moon: {phase.name} (cyclic {phase.cyclic}); {glow}")
    if int(rec["bat_missed"]) or int(rec["hunger_left"]):
        lines.append(f"the Crimson Bat is hungry: {int(rec['bat_missed'])} day(s) missed, "
                     f"{int(rec['bat_owed']) + int(rec['bat_fed'])} unit(s) devoured since; "
                     f"{int(rec['hunger_left'])} Lunar unit(s) still owed to its spirit")
    if int(rec["storm_day"]):
        lines.append("the storm: " + ("a day of rain" if int(rec["storm_day"]) < 3 else "the rivers flood"))
    if int(rec["cloak_hex"]) >= 0:
        left = int(rec["cloak_turn"]) + R.CLOAK_TURNS - int(rec["turn"])
        lines.append(f"the Cloak of Darkness at {V.hex_name(int(rec['cloak_hex']))}: its cloud covers every hex "
                     f"within {R.CLOAK_RANGE}, " + (f"{left} more game-turn(s)" if left else "until this game-turn ends"))
    if int(rec["keener_turn"]) >= int(rec["player_turn"]) > 0 and int(rec["unit_where"][R.HELL_HOUND]) == R.UW_MAP:
        lines.append(f"Keener Than took the Hell Hound: he rides it and must release it on a Doom Run "
                     f"in player-turn {int(rec['keener_turn'])}")
    where = {R.UW_COMMITTED: "commits", R.UW_SUPPORT: "supports"}
    for u in range(NUM_UNITS):
        w = int(rec["unit_where"][u])
        if w in where:
            h = int(rec["unit_hex"][u])
            force = int(rec["unit_force"][u])
            if w == R.UW_SUPPORT and _screened(rec, viewer, force, h, battle):
                continue
            verb = "attacks the stack at" if w == R.UW_COMMITTED else "supports the stack at"
            lines.append(f"  {V.side_name(rec, force)} {V.unit_name(u, rec)} {verb} {V.hex_name(h)}")
    home = [V.unit_name(u, rec) for u in range(NUM_UNITS) if int(rec["unit_where"][u]) == R.UW_HOLDING]
    if home:
        lines.append("holding boxes: " + ", ".join(home))
    return lines


def _picture(rec, viewer=None):
    from .board import FORTRESS_NAMES
    status = {0: "running", 1: "over", 2: "over (truncated)"}[int(rec["status"])]
    lines = [f"Dragon Pass {SCENARIOS[int(rec['scenario'])]} | game-turn {int(rec['turn'])} of "
             f"{int(rec['max_turns'])} | {V.side_name(rec, rec['active'])} player-turn | {status}"]
    lines += _map_text(rec, viewer)
    lines.append(LEGEND)
    battle = V.open_hexes(rec, viewer)
    for h, units in sorted(V.stacks(rec).items()):
        force = V.stack_force(rec, units)
        if _screened(rec, viewer, force, h, battle):
            contents = V.screened_contents(rec, units)
        else:
            contents = ", ".join(V.unit_name(u, rec) for u in units)
        lines.append(f"  {V.hex_name(h)} {V.side_name(rec, force):6} {contents}")
    lines.append("fortresses: " + ", ".join(f"{n} ({V.side_name(rec, rec['fortress_owner'][k])})"
                                            for k, n in enumerate(FORTRESS_NAMES)))
    if SCENARIOS[int(rec["scenario"])] == "18.6":
        lines.append("sites: " + ", ".join(f"{n} ({who})" for n, who in V.site_control(rec).items()))
    for f in range(2):
        words = V.diplomacy_summary(rec, f, viewer)
        if words:
            lines.append(f"diplomacy, {V.side_name(rec, f)}: " + "; ".join(words))
    lines += _magic_text(rec, viewer, battle)
    if int(rec["random_events"]):
        roll = int(rec["event_roll"])
        event = DATA.tables.random_events[roll].event.rstrip("~").replace("_", " ") if roll else "none yet"
        weather = "; rain" if int(rec["rain"]) else ""
        glow = "; the Glowline does not exist this game-turn" if int(rec["glowline_failed"]) else ""
        lines.append(f"random event: {roll or '-'} ({event}){weather}{glow}")
    dead = [UNIT_IDS[u] for u in range(NUM_UNITS) if int(rec["unit_where"][u]) == 3]
    if dead:
        lines.append("dead: " + ", ".join(dead))
    if int(rec["status"]) == 0:
        lines.append(f"to play: {V.side_name(rec, rec['to_play'])} ({PHASE_NAMES.get(int(rec['phase']), '?')})")
    else:
        lines.append("ranks: " + ", ".join(f"{V.side_name(rec, f)} {int(rec['rank'][f])}" for f in range(len(SCENARIO_ROLES[int(rec["scenario"])]))))
    return "\n".join(lines) + "\n"


GAME = DragonPass()
