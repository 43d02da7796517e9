"""Building Dragonhunt positions for scenario tests that read like the rulebook.

A :class:`Scenario` is one game record with the board emptied, kingdoms
assigned, and helpers to put counters on named spaces, load the dice, start a
given round, and act by readable action strings::

    sc = Scenario(num_players=2, kingdoms=("Sunken", "Ironcrag"))
    sc.put(0, KNIGHT, "0705")
    sc.dragon("Lair of Brimstone", enraged=True)
    sc.load_dice(4, 6)                 # the next two dice show 4 then 6
    sc.start_brimstone_round(first=0)

Cells are named as ``dragongym.envs.dragonhunt.game.cell_name`` writes them: "CCRR"
(column, row), a structure ("Sunken Castle"), "Lair of Brimstone", "Cave",
"Hollow Tree".

Helpers, in the order a test uses them: arrange (``put``, ``kill``,
``dragon``, ``being``, ``no_beings``, or set ``s[...]`` fields); load chance
(``load_dice`` faces 1..6, ``load_rolls`` raw draws, ``load_card`` the next
dragon card; ``dice_left`` checks they were all used); start a round
(``start_brimstone_round``, ``start_brimstone_round_at``,
``start_being_round``, ``start_card_segment``, ``start_player_round``); play
(``act`` by action string, ``play_cards``; ``legal``, ``phase``, ``to_play``);
read (``loc``, ``units_at``, ``board``). ``fresh_game`` deals a game by the
rules themselves (board not cleared) with its first draws loaded;
``dice_summing_to`` picks two faces of a given total.

A hand-built position is checked before it is used: every ``start_*`` method
and every :meth:`Scenario.act` first runs the game's own soundness check
(``GAME.check_state``: every field in range, then the rules' invariants), so a
test cannot pass on a position the rules could never reach or the compiled
core could not safely run.
"""
import numpy as np

from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import HERO, SNIPER, KNIGHT, MAN_AT_ARMS, UNITS_PER_COLOUR
from dragongym.envs.dragonhunt.game import GAME, cell_name
from dragongym.envs.dragonhunt.state import STATE_DTYPE, LOC_RESERVE, LOC_DEAD

NAMES = {cell_name(c): c for c in range(D.NUM_CELLS) if D.SPACE[c] == c}


def cell(name):
    """Cell index of a space name ("0706", "Sunken Castle", "Cave") or an int."""
    if isinstance(name, (int, np.integer)):
        return int(name)
    return NAMES[name]


def step(name, direction, k=1):
    """The cell k hexes from ``name`` in direction 1..6 (N, NE, SE, S, SW, NW)."""
    c = cell(name)
    for _ in range(k):
        c = int(D.STEP[c, direction])
    return c


class Scenario:
    """One game, board cleared, ready to be arranged."""

    def __init__(self, num_players=2, kingdoms=None, seed=0, max_hands=8, auto_single=False):
        self.S = np.zeros(1, dtype=STATE_DTYPE)
        R.reset_game(self.S, 0, np.uint64(seed), num_players, max_hands, 1 if auto_single else 0)
        s = self.S[0]
        kingdoms = kingdoms or tuple(D.KINGDOM_NAMES[:num_players])
        for u in range(len(s["unit_loc"])):
            if s["unit_loc"][u] >= 0:
                R.set_loc(self.S, 0, u, LOC_RESERVE)
            s["unit_flags"][u] = 0
        for p, k in enumerate(kingdoms):
            kid = D.KINGDOM_NAMES.index(k) if isinstance(k, str) else int(k)
            s["kingdom"][p] = kid
            s["colour_kingdom"][p] = kid
        s["dragon_cell"] = R.LAIR_CELL
        s["enraged"] = 0
        s["phase"] = R.PH_NONE
        s["stage"] = R.ST_OVER
        s["to_play"] = -1
        s["hand"] = 1
        s["choice_player"] = 0
        s["second_player"] = num_players - 1
        s["dragon_first"] = 0

    # ------------------------------------------------------------ arranging
    @property
    def s(self):
        """The game record (``S[0]``), to read or set fields directly."""
        return self.S[0]

    def put(self, colour, unit_type, where, n=1, flags=0):
        """Put n reserve counters of ``colour`` and type on a space; returns their indices."""
        placed = []
        base = colour * UNITS_PER_COLOUR
        first = {HERO: 0, SNIPER: 1, KNIGHT: 3, MAN_AT_ARMS: 15}[unit_type]
        count = {HERO: 1, SNIPER: 2, KNIGHT: 12, MAN_AT_ARMS: 24}[unit_type]
        for i in range(first, first + count):
            if len(placed) == n:
                break
            if self.s["unit_loc"][base + i] == LOC_RESERVE:
                R.set_loc(self.S, 0, base + i, cell(where))
                self.s["unit_flags"][base + i] = flags
                placed.append(base + i)
        assert len(placed) == n, "not enough counters in reserve"
        return placed if n > 1 else placed[0]

    def kill(self, unit):
        """Send ``unit`` to the dead pile (bookkeeping only, as if killed earlier: no rule of death runs)."""
        R.set_loc(self.S, 0, unit, LOC_DEAD)

    def dragon(self, where, enraged=False):
        """Put Brimstone on a space; ``enraged`` until the end of his next round (9.841)."""
        self.s["dragon_cell"] = cell(where)
        self.s["enraged"] = 1 if enraged else 0
        if enraged:
            self.s["enraged_until"] = self.s["brimstone_rounds"] + 1

    def being(self, slot, being, where):
        """Put ``being`` (id) in lair slot ``slot`` (0 Cave, 1 Hollow Tree) at a space."""
        s = self.s
        old = int(s["slot_being"][slot])
        if old >= 0:
            s["being_pile"] = int(s["being_pile"]) | (1 << old)
        s["being_pile"] = int(s["being_pile"]) & ~(1 << being)
        s["slot_being"][slot] = being
        s["slot_loc"][slot] = cell(where)

    def no_beings(self):
        """Put both beings back in the pile and leave the lairs empty."""
        for slot in range(2):
            self.being(slot, int(self.s["slot_being"][slot]), "Cave" if slot == 0 else "Hollow Tree")
        self.s["slot_loc"][:] = -1
        self.s["slot_being"][:] = -1

    def load_dice(self, *faces):
        """The next dice rolled show these faces (1..6), in order."""
        self.load_rolls(*[f - 1 for f in faces])

    def load_rolls(self, *raw):
        """The next draws of the game's stream return these raw values."""
        s = self.s
        used = int(s["loaded_count"]) - int(s["loaded_pos"])
        rest = [int(s["loaded"][i]) for i in range(int(s["loaded_pos"]), int(s["loaded_count"]))]
        values = rest + list(raw)
        assert used + len(raw) <= 16
        s["loaded"][:] = 0
        for i, v in enumerate(values):
            s["loaded"][i] = v
        s["loaded_count"] = len(values)
        s["loaded_pos"] = 0

    def load_card(self, kind):
        """The next dragon card drawn is one of this kind (CARD_* code)."""
        idx = int(np.flatnonzero(D.DECK == kind)[0])
        self.s["loaded_card"] = idx + 1

    def dice_left(self):
        """How many loaded values the rules have not drawn yet (0: all were used)."""
        return int(self.s["loaded_count"]) - int(self.s["loaded_pos"])

    def check(self):
        """Fail the test if the position is not sound (``GAME.check_state``)."""
        problem = GAME.check_state(self.S)
        assert not problem, f"the scenario's position is not sound: {problem}\n{self.board()}"

    # ------------------------------------------------------------ starting rounds
    def start_brimstone_round(self, first=0):
        """Start Brimstone's round (6) with seat ``first`` moving him first; runs to the first decision."""
        self.s["dragon_first"] = first
        R.enter_brimstone_round(self.S, 0)
        R.advance(self.S, 0)
        self.check()

    def start_being_round(self, choice_player=0, second_player=1):
        """Start the Fantastic Being round (8): ``choice_player`` controls a being, ``second_player``
        moves the other; runs to the first decision."""
        self.s["choice_player"] = choice_player
        self.s["second_player"] = second_player
        self.s["stage"] = R.ST_BEING_FIRST
        self.s["being_step"] = R.BP_SELECT
        R.advance(self.S, 0)
        self.check()

    def start_player_round(self, order, cards=None):
        """Start the Player's round with the given round order (seats) and
        movement card values per seat (default 9 for everyone)."""
        s = self.s
        n = int(s["num_players"])
        values = list(int(v) for v in D.MOVEMENT_CARD_VALUES)
        for p in range(n):
            v = 9 if cards is None else cards[p]
            s["card_played"][p] = values.index(v)
        s["round_order"][:] = -1
        for i, p in enumerate(order):
            s["round_order"][i] = p
        s["order_pos"] = 0
        s["stage"] = R.ST_PLAYER
        s["segment"] = R.SEG_START
        R.advance(self.S, 0)
        self.check()

    # ------------------------------------------------------------ playing
    def legal(self):
        """The legal actions as strings."""
        m = GAME.mask_of(self.S)
        return [GAME.action_to_string(self.S, int(a)) for a in np.flatnonzero(m)]

    def act(self, action):
        """Apply an action given as an int or its string; fails the test if illegal."""
        self.check()
        a = action if isinstance(action, (int, np.integer)) else GAME.string_to_action(self.S, action)
        mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
        err = R.apply_action(self.S, 0, int(a), mask)
        assert err == 0, f"illegal action {action!r}; legal: {self.legal()}"

    @property
    def phase(self):
        """The pending decision (``rules.PH_*``)."""
        return int(self.s["phase"])

    @property
    def to_play(self):
        """The seat that must decide (-1: none)."""
        return int(self.s["to_play"])

    def units_at(self, where):
        """Unit indices on a space."""
        c = cell(where)
        return [u for u in range(len(self.s["unit_loc"])) if int(self.s["unit_loc"][u]) == c]

    def loc(self, unit):
        """The unit's cell, or ``LOC_RESERVE`` / ``LOC_DEAD`` / ``LOC_OUT``."""
        return int(self.s["unit_loc"][unit])

    def board(self):
        """The board as text (``GAME.render_ansi``), to print while writing a test."""
        return GAME.render_ansi(self.S)


# ---------------------------------------------------------------- more helpers
def fresh_game(num_players=2, rolls=(), seed=0, max_hands=8, auto_single=False):
    """A game dealt by the rules themselves (1-3, ``rules.setup_game``) with the
    first draws of its stream loaded: ``rolls`` are raw values, in the order the
    set-up draws them (the Cave's being 0..9, the Hollow Tree's 0..8, then one
    die 0..5 per seat for the set-up order, 2.1). Returns a Scenario whose board
    is NOT cleared: the game stands at its first set-up decision."""
    sc = Scenario.__new__(Scenario)
    sc.S = np.zeros(1, dtype=STATE_DTYPE)
    s = sc.S[0]
    s["seed"] = np.uint64(seed)
    s["num_players"] = num_players
    s["max_hands"] = max_hands
    s["auto_single"] = 1 if auto_single else 0
    sc.load_rolls(*rolls)
    R.setup_game(sc.S, 0)
    R.advance(sc.S, 0)
    if auto_single:
        R.settle(sc.S, 0, np.zeros(R.NUM_ACTIONS, dtype=np.int8))
    return sc


def _start_brimstone_round_at(self, first=0, moves_done=0):
    """Start Brimstone's round (``first`` moves him first) as if ``moves_done`` of
    its moves were already made, so only the last moves are left to play."""
    self.s["dragon_first"] = first
    R.enter_brimstone_round(self.S, 0)
    self.s["dragon_moves_made"] = moves_done
    R.advance(self.S, 0)
    self.check()


Scenario.start_brimstone_round_at = _start_brimstone_round_at


def dice_summing_to(total):
    """Two die faces (1..6) whose sum is ``total`` (2..12)."""
    assert 2 <= total <= 12, total
    a = min(6, total - 1)
    return a, total - a


def _start_card_segment(self):
    """Start the card segment (9.1) of a Player's round: the seats are asked for
    a movement card one after the other (seat 0 first)."""
    R.enter_card_segment(self.S, 0)
    R.advance(self.S, 0)
    self.check()


def _play_cards(self, *values):
    """Each seat in turn lays the movement card of this value (9.11)."""
    for v in values:
        self.act(f"play card {int(v)}")


Scenario.start_card_segment = _start_card_segment
Scenario.play_cards = _play_cards
