"""Fused compiled kernels behind ``dragongym.make_vec("dragonhunt", ...)``.

One pass per game: check the action against the known legal mask, apply it
with ``rules.apply_trusted`` (which leaves the next legal mask in the same row
and returns its count) and, optionally, write the observation of the seat now
to play. A serial loop for small batches, ``prange`` for large ones; both give
the same bytes (each game only touches its own row).

Kept in its own module so the rules core (``rules/``) compiles as before.
The loop body is written out in both kernels rather than shared through a
third compiled function: numba optimises every compiled function together
with everything it calls, so each extra function that reaches the rules costs
a full rules compile on a cold cache.
"""
from numba import njit, prange

from . import rules as R
from .observe import observe_one


@njit(cache=True)
def vec_step_serial(S, actions, masks, counts, errors, with_obs, obs):
    """For each b with actions[b] >= 0: E_* code into errors[b] (game untouched on
    error), else apply, next mask into masks[b], its count into counts[b], and
    (with_obs) the observation of the seat to play into obs[b]."""
    for b in range(S.shape[0]):
        a = int(actions[b])
        if a < 0:
            pass
        elif S[b]['status'] != 0:
            errors[b] = R.E_OVER
        elif a >= R.NUM_ACTIONS:
            errors[b] = R.E_RANGE
        elif masks[b, a] == 0:
            errors[b] = R.E_ILLEGAL
        else:
            errors[b] = 0
            counts[b] = R.apply_trusted(S, b, a, masks[b])
            if with_obs:
                p = int(S[b]['to_play'])
                observe_one(S, b, p if p >= 0 else 0, obs[b])


@njit(cache=True, parallel=True)
def vec_step_parallel(S, actions, masks, counts, errors, with_obs, obs):
    """As :func:`vec_step_serial`, the games spread over threads."""
    for b in prange(S.shape[0]):
        a = int(actions[b])
        if a < 0:
            pass
        elif S[b]['status'] != 0:
            errors[b] = R.E_OVER
        elif a >= R.NUM_ACTIONS:
            errors[b] = R.E_RANGE
        elif masks[b, a] == 0:
            errors[b] = R.E_ILLEGAL
        else:
            errors[b] = 0
            counts[b] = R.apply_trusted(S, b, a, masks[b])
            if with_obs:
                p = int(S[b]['to_play'])
                observe_one(S, b, p if p >= 0 else 0, obs[b])


@njit(cache=True, parallel=True)
def observe_parallel(S, players, obs):
    """``observe_one`` for every game, spread over threads."""
    for b in prange(S.shape[0]):
        observe_one(S, b, int(players[b]), obs[b])
