"""Range checks of Dragonhunt records, before any compiled code reads them.

The compiled core (``rules/``, ``observe.py``, ``invariants.py``) indexes
arrays with the record's fields without bounds checks, so a corrupted record
(a flipped unit location, random bytes) could make it read or write outside
its arrays and crash the interpreter. ``Dragonhunt.check_state`` runs
:func:`record_problems` first and hands a record to compiled code only when it
passes.

Two layers:

* :data:`FIELD_RANGES`: every field that compiled code uses as an index, a
  shift, a loop bound or a table code, with the values every reachable
  position keeps (``tests/dragonhunt/restore_test.py`` plays random games and
  checks every visited record);
* cross-field checks for fields whose meaning depends on others: seat fields
  below ``num_players``, each round's position field during its round, ``order_pos`` inside the
  Player's round, the five-space move, loaded scenario dice.

The checks work on whole batches (one vectorised test per field), so the
vector API can check a batch cheaply; :func:`record_problem` is the one-record
form.
"""
# jitcache: no compiled code
import numpy as np

from . import data as D
from . import rules as R
from .constants import (
    MAX_PLAYERS, NUM_UNITS, NUM_BEINGS, NUM_KINGDOMS, NUM_CARD_KINDS, DECK_SIZE, CARDS_PER_PLAYER,
    UNITS_PER_COLOUR,
)
from .state import LOC_OUT

NC = D.NUM_CELLS
LAST_SEAT = MAX_PLAYERS - 1
MAX_CARD_VALUE = int(D.MOVEMENT_CARD_VALUES.max())
LOADED_SLOTS = 16   # length of the ``loaded`` field

FIELD_RANGES = {
    # where things are: board cells 0..NC-1, -1 for none (units also -2 dead, -3 out)
    "unit_loc": (LOC_OUT, NC - 1),
    "cell_count": (0, NUM_UNITS),
    "cell_colour": (-1, LAST_SEAT),
    "slot_loc": (-1, NC - 1),
    "dragon_cell": (-1, NC - 1),
    "sword_loc": (-1, NC - 1),
    "sel_cell": (-1, NC - 1),
    "target_cell": (-1, NC - 1),
    "struct_cell": (-1, NC - 1),
    "eagle_cell": (-1, NC - 1),
    "five_path": (-1, NC - 1),
    # units: 0..NUM_UNITS-1, -1 for none
    "sword_holder": (-1, NUM_UNITS - 1),
    "md_holder": (-1, NUM_UNITS - 1),
    "sel_unit": (-1, NUM_UNITS - 1),
    "unit_flags": (0, 127),                     # the seven F_* bits
    # seats 0..MAX_PLAYERS-1 (-1 for none); below num_players: see _seat_problems
    "num_players": (2, MAX_PLAYERS),
    "round_order": (-1, LAST_SEAT),
    "setup_first": (0, LAST_SEAT),
    "choice_player": (0, LAST_SEAT),
    "second_player": (0, LAST_SEAT),
    "dragon_first": (0, LAST_SEAT),
    "placed_last": (0, LAST_SEAT),
    "place_start": (0, LAST_SEAT),
    "teleport_user": (-1, LAST_SEAT),
    "winner": (-1, LAST_SEAT),
    "rank": (0, MAX_PLAYERS),
    # the sequence of play: codes of rules.ST_* / PH_* and the counters inside them
    "stage": (R.ST_SETUP_KINGDOM, R.ST_OVER),
    "phase": (R.PH_NONE, R.PH_TELEPORT_UNIT),
    "kingdoms_chosen": (0, MAX_PLAYERS),
    "placer": (-1, LAST_SEAT),
    "dragon_moves_made": (0, MAX_PLAYERS),      # at most 2 * 2 or n moves (6.1, 6.11)
    "round_cut_short": (0, 1),
    "being_step": (0, R.BP_DONE),
    "cards_laid": (0, MAX_PLAYERS),
    "segment": (0, R.SEG_RESOLVE),
    "order_pos": (0, MAX_PLAYERS),              # n once the Player's round is over
    "turn": (0, 4),                             # 4 during the growth phase
    "hand": (0, 1000),
    "max_hands": (1, 1000),
    "auto_single": (0, 1),
    # kingdoms and what they hold, indexed by seat or colour
    "kingdom": (-1, NUM_KINGDOMS - 1),
    "colour_kingdom": (-1, NUM_KINGDOMS - 1),
    "flamed": (0, 1),
    "wounds": (0, 3),
    "reinf_left": (0, UNITS_PER_COLOUR),
    # cards, dice and beings
    "cards_in_hand": (0, (1 << CARDS_PER_PLAYER) - 1),
    "card_played": (-1, CARDS_PER_PLAYER - 1),
    "deck_left": (0, (1 << DECK_SIZE) - 1),
    "being_pile": (0, (1 << NUM_BEINGS) - 1),
    "slot_being": (-1, NUM_BEINGS - 1),
    "active_slot": (0, 1),
    "die0": (0, 6),
    "die1": (0, 6),
    "mp_left": (0, MAX_CARD_VALUE),
    "sel_type": (0, NUM_CARD_KINDS - 1),        # a unit type 0..4 or a dragon card kind
    "place_type": (0, 3),                       # a unit type (HERO..MAN_AT_ARMS)
    "casualties": (0, 3),
    "casualty_kill": (0, 1),
    "after_casualty": (R.AC_END, R.AC_STRIKE_CASTLE),
    "do_or_die": (0, 1),
    "combat_started": (0, 1),
    "enraged": (0, 1),
    "five_left": (0, 5),
    # scenario tests' loaded dice and dragon card (their values: see _cross_problems)
    "loaded_count": (0, LOADED_SLOTS),
    "loaded_pos": (0, LOADED_SLOTS),
    "loaded_card": (0, DECK_SIZE),
}
"""field -> (lowest, highest) value allowed in every element."""

SEAT_FIELDS = ("setup_first", "choice_player", "second_player", "dragon_first", "placed_last",
               "place_start", "teleport_user", "winner", "placer")
"""Scalar fields holding a seat (or -1): they must be below ``num_players``."""

# the stages in which ``placer`` names the seat now placing (never -1 there)
_PLACING_STAGES = (R.ST_SETUP_PLACE, R.ST_GROWTH_REPL, R.ST_GROWTH_PLACE)
# stage -> the counter of seats done that stays below num_players while it is pending
_SEATS_DONE = {R.ST_SETUP_KINGDOM: "kingdoms_chosen", R.ST_CARDS: "cards_laid"}
# the one decision each of these stages poses (the others pose many)
_STAGE_PHASE = {R.ST_SETUP_KINGDOM: R.PH_KINGDOM, R.ST_SETUP_PLACE: R.PH_PLACE,
                R.ST_BEING_SECOND: R.PH_SECOND_DIE, R.ST_CARDS: R.PH_CARD,
                R.ST_GROWTH_REPL: R.PH_REPL_VILLAGE, R.ST_GROWTH_PLACE: R.PH_PLACE}


def _first(bad):
    """Index of the first True row of ``bad``, or -1."""
    rows = np.flatnonzero(bad)
    return int(rows[0]) if len(rows) else -1


def _range_plan(dtype):
    """Per base dtype of the ranged fields: the byte positions of all their
    elements in a record, the bounds of each element, and its name for
    messages. Gathering those bytes from a batch and viewing them as the
    dtype tests every ranged element of every record at once."""
    groups = {}
    for name, (lo, hi) in FIELD_RANGES.items():
        sub, offset = dtype.fields[name][:2]
        base, count = sub.base, max(1, int(np.prod(sub.shape)))
        g = groups.setdefault(base, {"bytes": [], "lo": [], "hi": [], "names": []})
        for j in range(count):
            start = offset + j * base.itemsize
            g["bytes"].extend(range(start, start + base.itemsize))
            g["lo"].append(lo)
            g["hi"].append(hi)
            g["names"].append(f"{name}[{j}]" if sub.shape else name)
    return [(base, np.array(g["bytes"]), np.array(g["lo"]), np.array(g["hi"]), g["names"])
            for base, g in groups.items()]


_PLANS = {}


def _range_problems(states):
    """(row, sentence) of the first record with a field outside
    :data:`FIELD_RANGES`, or (-1, "")."""
    plan = _PLANS.get(states.dtype)
    if plan is None:
        plan = _PLANS[states.dtype] = _range_plan(states.dtype)
    raw = np.ascontiguousarray(states).view(np.uint8).reshape(len(states), states.dtype.itemsize)
    first = (-1, "")
    for base, positions, lo, hi, names in plan:
        values = np.ascontiguousarray(raw[:, positions]).view(base)
        bad = (values < lo) | (values > hi)
        rows = np.flatnonzero(bad.any(axis=1))
        if len(rows) and (first[0] < 0 or rows[0] < first[0]):
            b = int(rows[0])
            j = int(np.flatnonzero(bad[b])[0])
            first = (b, f"field {names[j]} is {int(values[b, j])}, outside {int(lo[j])}..{int(hi[j])}")
    return first


def _cross_problems(states):
    """(row, sentence) of the first broken cross-field rule, or (-1, "")."""
    n = states["num_players"].astype(np.int64)
    stage = states["stage"].astype(np.int64)
    status = states["status"].astype(np.int64)
    checks = [((status == 0) == (stage == R.ST_OVER),
               lambda b: f"stage {int(stage[b])} does not match status {int(status[b])} (the rules "
                         f"put a game in stage {R.ST_OVER} exactly when it ends)")]
    phase = states["phase"].astype(np.int64)
    for st, ph in _STAGE_PHASE.items():
        checks.append(((status == 0) & (stage == st) & (phase != ph),
                       lambda b, ph=ph: f"phase {int(phase[b])} is pending in stage {int(stage[b])}, "
                                        f"which poses only phase {ph}"))
    for name in SEAT_FIELDS:
        v = states[name].astype(np.int64)
        checks.append((v >= n, lambda b, name=name: f"{name} {int(states[name][b])} is not a seat of "
                                                    f"the {int(n[b])}-player game"))
    running = status == 0
    placer = states["placer"].astype(np.int64)
    checks.append((running & np.isin(stage, _PLACING_STAGES) & (placer < 0),
                   lambda b: f"no seat is placing (placer -1) in placement stage {int(stage[b])}"))
    for st, name in _SEATS_DONE.items():
        done = states[name].astype(np.int64)
        checks.append((running & (stage == st) & (done >= n),
                       lambda b, name=name: f"{name} {int(states[name][b])} leaves no seat to decide in "
                                            f"stage {int(stage[b])} of the {int(n[b])}-player game"))
    # Brimstone's round ends as soon as his moves are made or he struck a structure
    moves = np.where(n == 2, 4, n)
    made = states["dragon_moves_made"].astype(np.int64)
    in_round = running & (stage == R.ST_BRIMSTONE)
    checks.append((in_round & ((made >= moves) | (states["round_cut_short"] != 0)),
                   lambda b: f"Brimstone's round is still pending after {int(made[b])} of "
                             f"{int(moves[b])} moves (cut short: {int(states['round_cut_short'][b])})"))
    # round_order is all -1 before the first Player's round, then the n seats
    # in some order, -1 padding after them
    order = states["round_order"].astype(np.int64)
    seats = np.arange(MAX_PLAYERS)
    in_game = seats[None, :] < n[:, None]
    unset = (order == -1).all(axis=1)
    # sorted, the first n entries (padding pushed to the end) must read 0..n-1
    ascending = np.sort(np.where(in_game, order, MAX_PLAYERS), axis=1)
    every_seat_once = np.where(in_game, ascending == seats[None, :], True).all(axis=1)
    padded = np.where(in_game, True, order == -1).all(axis=1)
    permutation = every_seat_once & padded
    checks.append((~unset & ~permutation,
                   lambda b: f"round_order {order[b].tolist()} is not the {int(n[b])} seats in some order"))
    # inside the Player's round order_pos picks the acting seat from round_order
    order_pos = states["order_pos"].astype(np.int64)
    playing = stage == R.ST_PLAYER
    checks.append((playing & (order_pos >= n),
                   lambda b: f"order_pos {int(order_pos[b])} is past the {int(n[b])} seats of the "
                             "Player's round"))
    acting = states["round_order"][np.arange(len(states)), np.clip(order_pos, 0, MAX_PLAYERS - 1)]
    checks.append((playing & ((acting < 0) | (acting >= n)),
                   lambda b: f"round_order[{int(order_pos[b])}] is not a seat of the Player's round"))
    # the five-space move writes five_path[6 - five_left]: five_left is 1..5 while it is posed
    checks.append(((states["phase"] == R.PH_FIVE_MOVE) & (states["five_left"] < 1),
                   lambda b: "the five-space move is pending with no spaces left (five_left 0)"))
    # loaded draws (scenario tests) are raw results read from loaded[loaded_pos]
    # while pos < count; the rules take each modulo the range of its draw
    # (rules.roll), so any value that is not negative is safe
    count = states["loaded_count"].astype(np.int64)
    pos = states["loaded_pos"].astype(np.int64)
    checks.append((pos > count, lambda b: f"loaded_pos {int(pos[b])} is past loaded_count {int(count[b])}"))
    slots = np.arange(LOADED_SLOTS)
    pending = (slots[None, :] >= pos[:, None]) & (slots[None, :] < count[:, None])
    loaded = states["loaded"].astype(np.int64)
    checks.append(((pending & (loaded < 0)).any(axis=1),
                   lambda b: "a loaded draw is negative"))
    first = (-1, "")
    for bad, why in checks:
        b = _first(bad)
        if b >= 0 and (first[0] < 0 or b < first[0]):
            first = (b, why(b))
    return first


def record_problems(states):
    """``(row, sentence)`` of the first record of the batch ``states`` (a
    structured array of ``STATE_DTYPE``) with a field out of range or a broken
    cross-field rule, or ``(-1, "")`` when every record passes. Every record
    that passes is safe for compiled code to index with."""
    states = np.asarray(states).reshape(-1)
    b, why = _range_problems(states)
    if b >= 0:
        return b, why
    return _cross_problems(states)


def record_problem(state):
    """``""`` if the record ``state[0]`` passes :func:`record_problems`, else
    the sentence naming what is wrong."""
    return record_problems(state[:1])[1]

