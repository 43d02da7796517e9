"""The counter-based RNG: determinism, uniformity, and JIT == pure Python."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np

from dragongym.envs.core.rng import draw_below, draw_u64, mix64, seed_sequence

REPO = Path(__file__).resolve().parents[2]

SEEDS = [0, 1, 42, 2**63 + 5, 2**64 - 1]


def sample_values():
    """A fixed set of draws covering every function of the module."""
    out = {"u64": [], "below": [], "mix": [], "seq": []}
    for seed in SEEDS:
        for counter in (0, 1, 2, 1000, 2**40):
            out["u64"].append(int(draw_u64(np.uint64(seed), np.uint64(counter))))
            for n in (2, 6, 10, 36, 2**31):
                out["below"].append(int(draw_below(np.uint64(seed), np.uint64(counter), n)))
        out["mix"].append(int(mix64(np.uint64(seed))))
        out["seq"].append([int(s) for s in seed_sequence(seed % 2**63, 4)])
    return out


def test_draws_are_a_function_of_seed_and_counter():
    assert sample_values() == sample_values()
    assert draw_u64(np.uint64(7), np.uint64(3)) == draw_u64(np.uint64(7), np.uint64(3))
    assert draw_u64(np.uint64(7), np.uint64(3)) != draw_u64(np.uint64(7), np.uint64(4))
    assert draw_u64(np.uint64(7), np.uint64(3)) != draw_u64(np.uint64(8), np.uint64(3))


def test_seed_sequence_is_deterministic_and_distinct():
    a = seed_sequence(123, 64)
    assert a.dtype == np.uint64
    assert np.array_equal(a, seed_sequence(123, 64))
    assert np.array_equal(a[:10], seed_sequence(123, 10))
    assert len(set(a.tolist())) == 64
    assert not np.array_equal(a, seed_sequence(124, 64))


def test_draw_below_stays_in_range():
    for n in (1, 2, 3, 6, 7, 100):
        values = [draw_below(np.uint64(99), np.uint64(c), n) for c in range(500)]
        assert min(values) >= 0 and max(values) < n
    assert all(draw_below(np.uint64(5), np.uint64(c), 1) == 0 for c in range(50))


def test_die_rolls_are_uniform():
    """Chi-square over 60,000 d6 rolls of one stream (5 dof; 20.5 is p = 0.001)."""
    rolls = np.array([draw_below(np.uint64(2024), np.uint64(c), 6) for c in range(60_000)])
    counts = np.bincount(rolls, minlength=6)
    expected = len(rolls) / 6
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 20.5, counts


def test_first_draws_across_seeds_are_uniform():
    """Counter 0 of consecutive seeds (how games start) is uniform too (9 dof; 27.9 is p = 0.001)."""
    rolls = np.array([draw_below(np.uint64(s), np.uint64(0), 10) for s in range(20_000)])
    counts = np.bincount(rolls, minlength=10)
    expected = len(rolls) / 10
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 27.9, counts


def test_jit_and_pure_python_agree():
    """The same values with NUMBA_DISABLE_JIT=1 (the readable reference)."""
    # pure Python wraps uint64 arithmetic with numpy's overflow warning, on purpose
    code = ("import json, warnings;"
            "warnings.filterwarnings('ignore', 'overflow encountered in scalar', RuntimeWarning);"
            "from tests.core.rng_test import sample_values; print(json.dumps(sample_values()))")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == sample_values()
