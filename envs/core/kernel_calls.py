"""The batched calls of a game whose rules core has one compiled entry point,
``kernel.run_batch(op, S, seeds, actions, errors, masks, counts, players,
obs, config)`` (``envs/README.md``, "Compile layout"): the Python side every
such game shares.

Each ``Game`` method of the contract that reaches the core (reset, step,
legal_mask, observe, the vector step and observation) is one op of the
kernel. Arguments an op does not use are passed as one-element dummies with
the real ones' dtypes and dimensions, so the kernel keeps one compiled
signature; an array handed over in another dtype (an int64 action batch, a
bool mask buffer) is converted, and an output so converted is copied back.
Large batches of the vector API run on threads, on disjoint slices (the
kernel releases the GIL; each game touches only its own row).

The kernel itself stays in the game's package: a compiled function here would
be cached under ``envs/core``'s key, which does not cover a game's sources
(DESIGN.md pitfall 6).
"""
# jitcache: no compiled code
import numpy as np

from dragongym.envs.core.threads import over_threads


class KernelCalls:
    """The contract's batched calls over a game's ``kernel`` module.

    Args:
        name: the game's registry id (for error messages).
        kernel: the module with ``run_batch`` and the ``OP_*`` codes.
        num_actions, obs_size: the widths of the masks and observations.
        settings: ``settings(config, with_obs) -> int64 array``, the kernel's
            ``config`` argument for a game configuration (``None`` for the
            ops that need none).
    """

    def __init__(self, name, kernel, num_actions, obs_size, settings):
        self.name = name
        self.K = kernel
        self.settings = settings
        self.dummies = {"seeds": np.zeros(1, dtype=np.uint64), "actions": np.zeros(1, dtype=np.int32),
                        "errors": np.zeros(1, dtype=np.int8), "masks": np.zeros((1, num_actions), dtype=np.int8),
                        "counts": np.zeros(1, dtype=np.int64), "players": np.zeros(1, dtype=np.int8),
                        "obs": np.zeros((1, obs_size), dtype=np.float32), "config": settings(None, False)}

    def run(self, op, states, **arrays):
        """``kernel.run_batch(op, states, ...)`` with ``arrays``, the rest dummies."""
        args, back = [], []
        for name, dummy in self.dummies.items():
            given = arrays.get(name)
            if given is None:
                args.append(dummy)
                continue
            arr = np.ascontiguousarray(given, dtype=dummy.dtype)
            if arr is not given and name in ("errors", "masks", "counts", "obs"):
                back.append((given, arr))
            args.append(arr)
        self.K.run_batch(op, states, *args)
        for given, arr in back:
            given[...] = arr

    def reset(self, states, seeds, config):
        seeds = np.ascontiguousarray(seeds, dtype=np.uint64)
        if seeds.shape != states.shape:
            raise ValueError(f"{self.name}: {len(seeds)} seeds for {len(states)} games")
        self.run(self.K.OP_RESET, states, seeds=seeds, config=self.settings(config, False))

    def step(self, states, actions, errors):
        self.run(self.K.OP_STEP, states, actions=actions, errors=errors)

    def legal_mask(self, states, masks):
        self.run(self.K.OP_MASK, states, masks=masks)

    def observe(self, states, players, obs, parallel=False):
        """The observations, on slices of the batch from threads when ``parallel``."""
        if not parallel:
            self.run(self.K.OP_OBSERVE, states, players=players, obs=obs)
            return
        over_threads(len(states), lambda lo, hi: self.run(self.K.OP_OBSERVE, states[lo:hi],
                                                           players=players[lo:hi], obs=obs[lo:hi]))

    def vec_step(self, states, actions, masks, counts, errors, obs=None, parallel=False):
        """Fused check + apply + next mask (+ observation) in one compiled pass
        (``kernel.OP_VEC_STEP``; see ``Game.vec_step``), on slices of the batch
        from threads when ``parallel``."""
        config = self.settings(None, obs is not None)

        def run(lo, hi):
            self.run(self.K.OP_VEC_STEP, states[lo:hi], actions=actions[lo:hi], errors=errors[lo:hi],
                     masks=masks[lo:hi], counts=counts[lo:hi],
                     obs=obs[lo:hi] if obs is not None else None, config=config)
        if parallel:
            over_threads(len(states), run)
        else:
            run(0, len(states))
