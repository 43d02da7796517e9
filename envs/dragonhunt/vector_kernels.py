"""Fused compiled kernels behind ``envs.make_vec("dragonhunt", ...)``.

One pass per game: check the action against the known legal mask, apply it
with ``rules.apply_trusted`` (which leaves the next legal mask in the same row
and returns its count) and, optionally, write the observation of the seat now
to play. A serial loop for small batches, ``prange`` for large ones; both give
the same bytes (each game only touches its own row).

Kept in its own module so the rules core (``rules.py``) compiles as before.
"""
import numpy as np
from numba import njit, prange

from . import rules as R
from .observe import observe_one


@njit(cache=True)
def _step_one(S, b, a, masks, counts, errors, with_obs, obs):
    if a < 0:
        return
    if S[b]['status'] != 0:
        errors[b] = R.E_OVER
        return
    if a >= R.NUM_ACTIONS:
        errors[b] = R.E_RANGE
        return
    if masks[b, a] == 0:
        errors[b] = R.E_ILLEGAL
        return
    errors[b] = 0
    counts[b] = R.apply_trusted(S, b, a, masks[b])
    if with_obs:
        p = int(S[b]['to_play'])
        observe_one(S, b, p if p >= 0 else 0, obs[b])


@njit(cache=True)
def vec_step_serial(S, actions, masks, counts, errors, with_obs, obs):
    for b in range(S.shape[0]):
        _step_one(S, b, int(actions[b]), masks, counts, errors, with_obs, obs)


@njit(cache=True, parallel=True)
def vec_step_parallel(S, actions, masks, counts, errors, with_obs, obs):
    for b in prange(S.shape[0]):
        _step_one(S, b, int(actions[b]), masks, counts, errors, with_obs, obs)


@njit(cache=True, parallel=True)
def observe_parallel(S, players, obs):
    for b in prange(S.shape[0]):
        observe_one(S, b, int(players[b]), obs[b])
