"""The C allocator's settings for the trainer's process (issue 30, round 2).

The learner's update handles whole batches of boards at once: on Dragon Pass
a minibatch of 1,024 is ``[1024, 1530, 16]`` floats, 100 MB, per layer and
per gradient. glibc's ``malloc`` serves every block of more than 32 MB by a
fresh ``mmap`` and hands it back to the system when freed, so each such
tensor is paid for again in page faults (the kernel zeroing every page on
first touch): a 1x1 convolution of that size took 54 ms of CPU time, 9 ms
once the freed memory stays in the process for the next tensor of the same
size (one thread, issue 30's 2-core machine).

:func:`keep_freed_memory` asks ``malloc`` to serve large blocks from its heap
too and to keep what is freed there. The numbers computed are the same (a
tensor's contents and its 64-byte alignment do not depend on where its memory
comes from: a Dragonhunt run trains the same bytes either way). The process
keeps its peak memory instead of handing it back between the rollout and the
update, and a freed block that the next one does not fit stays resident for
smaller ones. Measured with ``benchmarks/trainer_cpu.py`` on Dragon Pass (one
thread, the issue's baseline command): the training loop's CPU time 26.8 s
without, 18.5 s with it at 32,768 decisions (85.5 s and 59.3 s at 98,304), the
peak resident memory 2.03 GB without and 2.24 GB with it, the same at 32,768
and at 98,304 decisions (it does not grow with the run).
"""
import ctypes
import sys

M_TRIM_THRESHOLD = -1
"""``mallopt`` parameter: the free memory at the top of the heap kept before
it is handed back to the system (glibc's ``malloc.h``)."""
M_MMAP_MAX = -4
"""``mallopt`` parameter: how many blocks may be served by ``mmap`` at once
(0: none; every block comes from the heap)."""
KEEP_BYTES = 2**31 - 1
"""The trim threshold set: ``mallopt`` takes an ``int``, so at most 2 GiB of
free heap top is kept (more than any batch of the trainer's)."""


def keep_freed_memory():
    """Have this process's ``malloc`` (glibc's) serve large blocks from its heap
    and keep freed memory for the next ones (see the module docstring).
    Returns True where that was set, False where the C library has no
    ``mallopt`` (not Linux, or not glibc): nothing changes then."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_MMAP_MAX, 0)) and bool(mallopt(M_TRIM_THRESHOLD, KEEP_BYTES))
