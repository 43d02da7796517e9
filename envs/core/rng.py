"""Counter-based randomness shared by every rules core.

A game's random stream is a pure function of its 64-bit ``seed`` and a draw
``counter`` kept in its state record: draw *i* is ``mix64(seed + (i+1)*GOLDEN)``
(splitmix64). Nothing depends on batch size, batch position, thread count or a
global generator, so a game replays byte for byte anywhere.

All arithmetic stays in ``np.uint64`` so JIT and pure Python agree
(DESIGN.md pitfall 3).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S11 = np.uint64(11)
_ONE = np.uint64(1)
_TWO53 = 9007199254740992.0


@rules_jit
def mix64(z):
    """splitmix64 finaliser: a well-mixed 64-bit value from any 64-bit input."""
    z = np.uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@rules_jit
def draw_u64(seed, counter):
    """The ``counter``-th 64-bit draw of the stream named by ``seed``."""
    return mix64(np.uint64(seed) + (np.uint64(counter) + _ONE) * GOLDEN)


@rules_jit
def draw_below(seed, counter, n):
    """The ``counter``-th draw as an int uniform on ``0..n-1`` (n <= 2**31).

    Uses the top 53 bits as a float fraction; the bias is below 2**-22 for the
    small ranges games use (dice, piles of a few dozen).
    """
    x = draw_u64(seed, counter) >> _S11
    return int(float(x) / _TWO53 * n)


@rules_jit
def roll(S, b, n):
    """Next draw of game b's stream (``S[b]``'s ``seed`` and ``rng_counter``),
    uniform on 0..n-1. Every rules core draws its chance through this.

    Scenario tests may load chance: while the record's ``loaded`` holds values
    (``loaded_pos`` < ``loaded_count``) they are returned in order instead and
    the stream is not advanced. A loaded value is taken modulo ``n``, so even a
    corrupted record's loaded draws stay in the range each draw asks for.
    Compiled once per game's record type."""
    s = S[b]
    if s['loaded_pos'] < s['loaded_count']:
        v = int(s['loaded'][s['loaded_pos']])
        s['loaded_pos'] += 1
        return v % n
    x = draw_below(s['seed'], s['rng_counter'], n)
    s['rng_counter'] += _ONE
    return x


def seed_sequence(seed, n):
    """``n`` independent per-game seeds derived from one user seed (Python side)."""
    base = np.uint64(int(seed) & 0xFFFFFFFFFFFFFFFF)
    out = np.empty(n, dtype=np.uint64)
    with np.errstate(over="ignore"):      # uint64 arithmetic wraps by design
        for i in range(n):
            out[i] = mix64(base ^ mix64(np.uint64(i) * GOLDEN + _ONE))
    return out
