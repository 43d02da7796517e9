"""The one compiled entry point of Dragonhunt's rules core: ``run_batch``.

Every batched operation the adapters call -- reset, step, legal masks,
observations and the vector API's fused step -- is one ``op`` of the same
compiled function. numba finalises each function Python calls with the whole
rules core linked in (``envs/README.md``, "Compile layout"), so one entry
point instead of five is four LLVM passes over the core fewer on a cold cache.

The kernel releases the GIL (``nogil``): ``Dragonhunt.vec_step`` and
``vec_observe`` spread a large batch over Python threads by running it on
disjoint slices of rows; each game touches only its own row, so any split gives
the same bytes. There is no ``prange`` twin (a parallel kernel is one more
entry point that relinks the whole core).

Arguments an op does not use are passed as the module's one-element dummies
(``Dragonhunt`` does this), with the same dtypes and dimensions, so the kernel
has exactly one compiled signature.
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from . import rules as R
from .observe import observe_one

OP_RESET, OP_STEP, OP_MASK, OP_OBSERVE, OP_VEC_STEP = range(5)
"""What ``run_batch`` does (see its docstring)."""

CFG_PLAYERS, CFG_MAX_HANDS, CFG_AUTO_SINGLE, CFG_WITH_OBS = range(4)
"""Indexes of ``config``, the op's int64 settings."""


@rules_jit(nogil=True)
def run_batch(op, S, seeds, actions, errors, masks, counts, players, obs, config):
    """Apply ``op`` to every game (row) of ``S``:

    * ``OP_RESET``: deal a new game from ``seeds[b]`` with ``config``'s
      players, hand limit and ``auto_single`` (1-3).
    * ``OP_STEP``: check and apply ``actions[b]`` (skipped where negative); the
      E_* code into ``errors[b]``, the game untouched on error.
    * ``OP_MASK``: the legal actions into ``masks[b]``.
    * ``OP_OBSERVE``: the observation of seat ``players[b]`` into ``obs[b]``.
    * ``OP_VEC_STEP``: the vector API's fused pass, trusting ``masks[b]`` (the
      legal mask of the current position): for each b with ``actions[b] >= 0``
      the E_* code into ``errors[b]`` (game untouched on error), else apply,
      the next mask into ``masks[b]``, its count into ``counts[b]`` and, where
      ``config[CFG_WITH_OBS]``, the observation of the seat to play into
      ``obs[b]``.
    """
    n = S.shape[0]
    if op == OP_RESET:
        for b in range(n):
            R.reset_game(S, b, seeds[b], config[CFG_PLAYERS], config[CFG_MAX_HANDS],
                         config[CFG_AUTO_SINGLE])
    elif op == OP_STEP:
        mask = np.empty(R.NUM_ACTIONS, dtype=np.int8)
        for b in range(n):
            if actions[b] >= 0:
                errors[b] = R.apply_action(S, b, int(actions[b]), mask)
            else:
                errors[b] = 0
    elif op == OP_MASK:
        for b in range(n):
            R.fill_mask(S, b, masks[b])
    elif op == OP_OBSERVE:
        for b in range(n):
            observe_one(S, b, int(players[b]), obs[b])
    elif op == OP_VEC_STEP:
        with_obs = config[CFG_WITH_OBS] != 0
        for b in range(n):
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
