"""Compiled random play over a batch of Dragonhunt games (the bare-core
throughput measurement, and a quick way to generate positions).

Each game draws its actions from its own counter-based stream, so results do
not depend on the batch size; finished games restart with a fresh seed.
There is no ``prange`` twin: ``Dragonhunt.bench_playout`` runs ``random_play``
on slices of the batch from Python threads, so no parallel entry point relinks
the whole core on a cold cache.
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from dragongym.envs.core.rng import draw_below, mix64
from . import rules as R
from .observe import observe_one


@rules_jit
def _pick(mask, count, stream, counter):
    r = draw_below(stream, counter, count)
    for a in range(mask.shape[0]):
        if mask[a]:
            if r == 0:
                return a
            r -= 1
    return -1


@rules_jit
def _play_one(S, b, masks, counts, steps, stream, with_obs, obs, num_players, max_hands):
    done = 0
    for t in range(steps):
        if S[b]['status'] != 0:
            seed = mix64(S[b]['seed'] ^ np.uint64(0x5DEECE66D))
            R.reset_game(S, b, seed, num_players, max_hands, 1)
            counts[b] = R.fill_mask(S, b, masks[b])
        a = _pick(masks[b], counts[b], stream ^ S[b]['seed'], np.uint64(S[b]['decisions']))
        counts[b] = R.apply_trusted(S, b, a, masks[b])
        if with_obs:
            p = int(S[b]['to_play'])
            R_obs = obs[b]
            observe_one(S, b, p if p >= 0 else 0, R_obs)
        done += 1
    return done


@rules_jit
def prepare(S, masks, counts):
    """Fill ``masks``/``counts`` for the positions of S (call after reset)."""
    for b in range(S.shape[0]):
        counts[b] = R.fill_mask(S, b, masks[b])


@rules_jit(nogil=True)
def random_play(S, masks, counts, steps, stream, with_obs, obs, num_players, max_hands):
    """``steps`` random decisions in every game of S. Returns the total.

    Each game draws from its own stream keyed by its seed, so a batch split
    into slices run on several threads (the GIL released) plays the same
    games as the whole batch run at once."""
    total = 0
    for t in range(steps):
        for b in range(S.shape[0]):
            total += _play_one(S, b, masks, counts, 1, stream, with_obs, obs, num_players, max_hands)
    return total
