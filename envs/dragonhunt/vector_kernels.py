"""Fused compiled kernels behind ``dragongym.make_vec("dragonhunt", ...)``.

One pass per game: check the action against the known legal mask, apply it
with ``rules.apply_trusted`` (which leaves the next legal mask in the same row
and returns its count) and, optionally, write the observation of the seat now
to play. The kernels release the GIL (``nogil``), so a large batch is spread
over threads by running them on disjoint slices of rows from Python threads
(``Dragonhunt.vec_step``); each game only touches its own row, so any split
gives the same bytes. There is no ``prange`` twin: a parallel kernel would be
one more entry point that relinks the whole rules core on a cold cache (it
cost over three minutes), for no speed the threads do not give.

Kept in its own module so the rules core (``rules/``) compiles as before.
"""
from dragongym.envs.core.jit import rules_jit

from . import rules as R
from .observe import observe_one


@rules_jit(nogil=True)
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


@rules_jit(nogil=True)
def observe_rows(S, players, obs):
    """``observe_one`` for every game of ``S`` (the GIL released, for threads)."""
    for b in range(S.shape[0]):
        observe_one(S, b, int(players[b]), obs[b])
