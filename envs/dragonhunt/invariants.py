"""Consistency checks of a Dragonhunt state, and a compiled random-play fuzzer.

``check_state`` returns 0 for a sound position or the code of the first broken
invariant (``INVARIANT_NAMES``). ``fuzz`` plays complete random games, checking
every position and trying one illegal action per step (it must be rejected and
leave the record's bytes unchanged). Used by the test suite; handy for anyone
changing the rules core.
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit

from dragongym.envs.core.rng import draw_below
from .constants import NUM_UNITS, UNITS_PER_COLOUR, MAX_PLAYERS, COTTAGE
from . import rules as R

INVARIANT_NAMES = {
    1: "a unit location is out of range",
    2: "cell_count disagrees with the units on the cell",
    3: "cell_colour disagrees with the units on the cell",
    4: "two colours share a cell",
    5: "more than one unit on a field space outside the mover's movement segment (9.14)",
    6: "a unit stands in a cottage of another kingdom (9.313)",
    7: "a unit shares a field space with a Fantastic Being",
    8: "a sword-wielder is off the board or not its owner's",
    9: "the running game has no legal action",
    10: "to_play is not a seat of the game",
    11: "a rejected action changed the record",
    12: "a legal action was rejected",
    13: "wound markers out of range",
}


@rules_jit
def same_bytes(x, y):
    """Two contiguous record arrays hold the same bytes."""
    vx = x.view(np.uint8)
    vy = y.view(np.uint8)
    if vx.shape[0] != vy.shape[0]:
        return False
    for i in range(vx.shape[0]):
        if vx[i] != vy[i]:
            return False
    return True


@rules_jit
def check_state(S, b):
    s = S[b]
    n = int(s['num_players'])
    counts = np.zeros(R.NC, dtype=np.int64)
    colour = np.full(R.NC, -1, dtype=np.int64)
    for u in range(NUM_UNITS):
        loc = int(s['unit_loc'][u])
        if loc < -3 or loc >= R.NC:
            return 1
        if loc < 0:
            continue
        c = u // UNITS_PER_COLOUR
        if colour[loc] >= 0 and colour[loc] != c:
            return 4
        colour[loc] = c
        counts[loc] += 1
        if R.TERRAIN[loc] == COTTAGE:
            k = int(R.KINGDOM[loc])
            if c >= n or s['kingdom'][c] != k:
                return 6
    moving = s['phase'] == R.PH_MOVE_SELECT or s['phase'] == R.PH_MOVE_TYPE or s['phase'] == R.PH_MOVE_DEST
    for c in range(R.NC):
        if counts[c] != s['cell_count'][c]:
            return 2
        if counts[c] > 0 and colour[c] != s['cell_colour'][c]:
            return 3
        if counts[c] > 0 and R.IS_STRUCTURE[c] == 0:
            if counts[c] > 1 and not (moving and colour[c] == s['to_play']):
                return 5
            # Brimstone may stand on a unit that survived his attack (7.43); a
            # being never shares a space with a unit
            if R.being_at(S, b, c) >= 0:
                return 7
    for p in range(n):
        h = int(s['sword_holder'][p])
        if h >= 0 and (h // UNITS_PER_COLOUR != p or s['unit_loc'][h] < 0):
            return 8
        if s['wounds'][p] < 0 or s['wounds'][p] > 3:
            return 13
    if s['status'] == 0:
        if s['to_play'] < 0 or s['to_play'] >= n:
            return 10
    return 0


@rules_jit
def fuzz(S, seeds, num_players, max_hands, stream, max_steps):
    """Play one complete random game per record of S (seeded by ``seeds``),
    checking every position. Returns (decisions, first_error_code, error_game)."""
    mask = np.empty(R.NUM_ACTIONS, dtype=np.int8)
    mask2 = np.empty(R.NUM_ACTIONS, dtype=np.int8)
    legal = np.empty(R.NUM_ACTIONS, dtype=np.int64)
    illegal = np.empty(R.NUM_ACTIONS, dtype=np.int64)
    total = 0
    ctr = np.uint64(0)
    for b in range(S.shape[0]):
        R.reset_game(S, b, seeds[b], num_players, max_hands, 1)
        steps = 0
        while S[b]['status'] == 0 and steps < max_steps:
            e = check_state(S, b)
            if e != 0:
                return total, e, b
            m = R.fill_mask(S, b, mask)
            if m == 0:
                return total, 9, b
            k = 0
            j = 0
            for a in range(R.NUM_ACTIONS):
                if mask[a]:
                    legal[k] = a
                    k += 1
                else:
                    illegal[j] = a
                    j += 1
            if j > 0:
                bad = illegal[draw_below(stream, ctr, j)]
                ctr += np.uint64(1)
                before = S[b:b + 1].copy()
                if R.apply_action(S, b, bad, mask2) != R.E_ILLEGAL:
                    return total, 11, b
                if not same_bytes(S[b:b + 1], before):
                    return total, 11, b
            pick = legal[draw_below(stream, ctr, k)]
            ctr += np.uint64(1)
            if R.apply_action(S, b, pick, mask2) != R.E_OK:
                return total, 12, b
            steps += 1
            total += 1
        e = check_state(S, b)
        if e != 0:
            return total, e, b
    return total, 0, -1
