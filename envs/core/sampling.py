"""Compiled helpers of the adapters that are not part of any game's rules."""
from dragongym.envs.core.jit import rules_jit


@rules_jit
def sample_legal(masks, counts, draws, out):
    """``out[b]`` = a uniformly chosen legal action of row ``b`` (``-1`` where
    ``counts[b]`` is 0): the ``floor(draws[b] * counts[b])``-th set entry of
    ``masks[b]``, for ``draws`` uniform in [0, 1)."""
    for b in range(masks.shape[0]):
        c = counts[b]
        if c <= 0:
            out[b] = -1
            continue
        r = int(draws[b] * c)
        if r >= c:
            r = c - 1
        for a in range(masks.shape[1]):
            if masks[b, a]:
                if r == 0:
                    out[b] = a
                    break
                r -= 1
