"""Random-play trajectories as state hashes, for determinism tests.

Run as a script (``python -m tests.dragonhunt.trajectory``) it prints the
hashes as JSON, so a test can compare a pure-Python run (NUMBA_DISABLE_JIT=1)
against the compiled one.
"""
import hashlib
import json
import sys

import numpy as np

from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.state import STATE_DTYPE


def play(seed, num_players, max_hands, max_steps, states=None, index=0):
    """Hashes of game ``index`` of ``states`` after each random legal action."""
    if states is None:
        states = np.zeros(1, dtype=STATE_DTYPE)
    R.reset_game(states, index, np.uint64(seed), num_players, max_hands, 1)
    rng = np.random.default_rng(seed)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    out = [hashlib.sha1(states[index:index + 1].tobytes()).hexdigest()]
    for _ in range(max_steps):
        if states[index]["status"] != 0:
            break
        R.fill_mask(states, index, mask)
        a = int(rng.choice(np.flatnonzero(mask)))
        assert R.apply_action(states, index, a, mask) == 0
        out.append(hashlib.sha1(states[index:index + 1].tobytes()).hexdigest())
    return out


def main():
    games = [play(seed, n, 1, 400) for seed, n in ((11, 2), (12, 3), (13, 6))]
    json.dump(games, sys.stdout)


if __name__ == "__main__":
    main()
