"""The uniform random agent: a baseline and the benchmark workload."""
import numpy as np

from dragongym.agents.base import Agent


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    name = "random"

    def __init__(self, game=None):
        # ``game`` comes with every registry call (``factory(game=None)``);
        # random play needs only the legal mask.
        pass

    def act(self, obs, mask, rng):
        legal = np.flatnonzero(mask)
        if len(legal) == 0:
            raise ValueError("no legal action in the mask")
        return int(legal[rng.integers(len(legal))])

    def act_batch(self, obs, mask, rng):
        mask = np.asarray(mask) != 0
        counts = mask.sum(axis=1)
        if (counts == 0).any():
            raise ValueError("no legal action in some row of the mask")
        # Pick the k-th legal action of each row, k uniform on 0..count-1.
        k = (rng.random(len(mask)) * counts).astype(np.int64)
        k = np.minimum(k, counts - 1)
        rank = np.cumsum(mask, axis=1) - 1
        return np.argmax(mask & (rank == k[:, None]), axis=1).astype(np.int64)

