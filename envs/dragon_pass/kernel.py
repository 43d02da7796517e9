"""The one compiled entry point of Dragon Pass's rules core: ``run_batch``.

Every batched operation the adapters call -- reset, step, legal masks,
observations and the vector API's fused step -- is one ``op`` of the same
compiled function (``envs/README.md``, "Compile layout"). The kernel releases
the GIL (``nogil``) so that the vector API can run disjoint slices of a batch
on threads; arguments an op does not use are one-element dummies with the
real ones' dtypes, so the kernel has one compiled signature.
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from . import rules as R
from .observe import observe_one

OP_RESET, OP_STEP, OP_MASK, OP_OBSERVE, OP_VEC_STEP = range(5)
"""What ``run_batch`` does (see its docstring)."""

CFG_SCENARIO, CFG_SCREENING, CFG_AUTO_SINGLE, CFG_MAX_TURNS, CFG_WITH_OBS, CFG_RANDOM_EVENTS = range(6)
"""Indexes of ``config``, the op's int64 settings: the scenario
(``constants.SCENARIOS`` index), 1 for the screening option, 1 to apply lone
legal actions, the game-turn limit, 1 to observe after a vector step, 1 for
the Random Events Option (L950)."""
CONFIG_SIZE = 6


@rules_jit(nogil=True)
def run_batch(op, S, seeds, actions, errors, masks, counts, players, obs, config):
    """Apply ``op`` to every game (row) of ``S``:

    * ``OP_RESET``: set up a new game of ``config``'s scenario from ``seeds[b]``,
      up to its first decision.
    * ``OP_STEP``: check and apply ``actions[b]`` (skipped where negative); the
      E_* code into ``errors[b]``, the game untouched on error.
    * ``OP_MASK``: the legal actions into ``masks[b]``.
    * ``OP_OBSERVE``: the observation of seat ``players[b]`` into ``obs[b]``.
    * ``OP_VEC_STEP``: the vector API's fused pass, trusting ``masks[b]``: for
      each b with ``actions[b] >= 0`` the E_* code into ``errors[b]`` (game
      untouched on error), else apply, the next mask into ``masks[b]``, its
      count into ``counts[b]`` and, where ``config[CFG_WITH_OBS]``, the
      observation of the seat to play (seat 0 once over) into ``obs[b]``.
    """
    n = S.shape[0]
    if op == OP_RESET:
        for b in range(n):
            R.reset_game(S, b, seeds[b], config[CFG_SCENARIO], config[CFG_SCREENING], config[CFG_AUTO_SINGLE],
                         config[CFG_MAX_TURNS], config[CFG_RANDOM_EVENTS])
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
