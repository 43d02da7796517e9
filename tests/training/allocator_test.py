"""The trainer's allocator setting (``training/allocator.py``, issue 30, round
2): with it, a freed 100 MB block's memory serves the next one of that size
without a page fault; without it, every page is faulted in again. Each case runs in a
fresh interpreter (the setting is process-wide and cannot be taken back)."""
import json
import subprocess
import sys

import pytest

from dragongym.training.selfplay import parse_args

PROBE = """
import ctypes, json, resource, sys
from dragongym.training.allocator import keep_freed_memory
kept = keep_freed_memory() if sys.argv[1] == "keep" else None
libc = ctypes.CDLL(None)
libc.malloc.restype, libc.malloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t]
libc.free.argtypes = [ctypes.c_void_p]
libc.memset.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
faults = []
for _ in range(4):
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    block = libc.malloc(100 * 2**20)                  # 100 MB, as a layer of a Dragon Pass minibatch
    libc.memset(block, 1, 100 * 2**20)
    faults.append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
    libc.free(block)
print(json.dumps({"kept": kept, "faults": faults}))
"""


def probe(mode):
    out = subprocess.run([sys.executable, "-c", PROBE, mode], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_freed_memory_is_reused_without_page_faults_once_kept():
    pages = 100 * 2**20 // 4096
    default = probe("default")
    assert min(default["faults"]) > pages // 2              # each block faults its pages in again
    kept = probe("keep")
    assert kept["kept"] is True
    assert kept["faults"][0] > pages // 2                   # the first one grows the heap
    assert max(kept["faults"][1:]) < pages // 20            # the next ones reuse it


def test_the_trainer_keeps_freed_memory_unless_told_not_to():
    assert parse_args(["--game", "dragonhunt"]).keep_freed_memory is True
    assert parse_args(["--game", "dragonhunt", "--no-keep-freed-memory"]).keep_freed_memory is False
