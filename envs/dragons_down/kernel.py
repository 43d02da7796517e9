"""The one compiled entry point of Dragons Down's rules core: ``run_batch``.

Every batched operation the adapters call -- reset, step, legal masks,
observations and the vector API's fused step -- is one ``op`` of the same
compiled function (``envs/README.md``, "Compile layout": each function Python
calls is finalised with the whole rules core linked in, so one entry point
costs one LLVM pass over the core).

The kernel releases the GIL (``nogil``): ``DragonsDown.vec_step`` and
``vec_observe`` spread a large batch over Python threads by running it on
disjoint slices of rows; each game touches only its own row, so any split
gives the same bytes. Arguments an op does not use are passed as the game
module's one-element dummies with the same dtypes and dimensions, so the
kernel has exactly one compiled signature.
"""
import numpy as np

from dragongym.envs.core.jit import local_array, rules_jit
from . import rules as R
from .observe import observe_one

OP_RESET, OP_STEP, OP_MASK, OP_OBSERVE, OP_VEC_STEP = range(5)
"""What ``run_batch`` does (see its docstring)."""

CFG_PLAYERS, CFG_SANDBOX, CFG_PACKS, CFG_MAX_TURNS, CFG_LEGENDARY_MAP, CFG_AUTO_SINGLE, \
    CFG_WITH_OBS, CFG_RANDOM_HEROES, CFG_OPTIONAL_RULES, CFG_LEGEND_TARGET = range(10)
"""Indexes of ``config``, the op's int64 settings: seats, the sandbox
(``constants.SB_*``), the Terrain Packs in play (bit k = pack k), the turn
limit, the Legendary sandbox's map rules (``SB_OPEN_REALM`` or
``SB_EXPLORE``), 1 to apply lone legal actions, 1 to observe after a vector
step, 1 to deal heroes at random, the optional rules played (bits
``constants.OPT_*``), the LP of a winning Legendary retirement."""
CONFIG_SIZE = 10
NUM_ACTIONS = R.NUM_ACTIONS       # a module constant: a scratch array's size must be one


@rules_jit(nogil=True)
def run_batch(op, S, seeds, actions, errors, masks, counts, players, obs, config):
    """Apply ``op`` to every game (row) of ``S``:

    * ``OP_RESET``: set up a new game from ``seeds[b]`` with ``config``'s
      seats, sandbox, packs, turn limit, Legendary map rules and
      ``auto_single``, up to its first decision.
    * ``OP_STEP``: check and apply ``actions[b]`` (skipped where negative); the
      E_* code into ``errors[b]``, the game untouched on error.
    * ``OP_MASK``: the legal actions into ``masks[b]``.
    * ``OP_OBSERVE``: the observation of seat ``players[b]`` into ``obs[b]``.
    * ``OP_VEC_STEP``: the vector API's fused pass, trusting ``masks[b]`` (the
      legal mask of the current position): for each b with ``actions[b] >= 0``
      the E_* code into ``errors[b]`` (game untouched on error), else apply,
      the next mask into ``masks[b]``, its count into ``counts[b]`` and, where
      ``config[CFG_WITH_OBS]``, the observation of the seat to play (seat 0
      once over) into ``obs[b]``.
    """
    n = S.shape[0]
    if op == OP_RESET:
        for b in range(n):
            R.reset_game(S, b, seeds[b], config[CFG_PLAYERS], config[CFG_SANDBOX], config[CFG_PACKS],
                         config[CFG_MAX_TURNS], config[CFG_LEGENDARY_MAP], config[CFG_AUTO_SINGLE],
                         config[CFG_RANDOM_HEROES], config[CFG_OPTIONAL_RULES], config[CFG_LEGEND_TARGET])
    elif op == OP_STEP:
        mask = local_array(NUM_ACTIONS, np.int8)
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
