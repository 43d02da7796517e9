"""Running a game's ``nogil`` kernel over slices of a batch on threads (the
template's compile layout: no ``prange``; ``envs/README.md``)."""
# jitcache: no compiled code
from concurrent.futures import ThreadPoolExecutor

_POOLS = {}
"""One pool per thread count, kept for the process (the vector API calls often)."""


def over_threads(n, run, threads=None):
    """Call ``run(lo, hi)`` on ``threads`` (default ``numba.get_num_threads()``)
    contiguous slices of ``0..n`` at once, from a thread pool kept per thread
    count (the kernels release the GIL); re-raises the first error of any slice."""
    import numba
    if threads is None:
        threads = int(numba.get_num_threads())
    threads = max(1, min(int(threads), n))
    if threads == 1:
        run(0, n)
        return
    pool = _POOLS.get(threads)
    if pool is None:
        pool = _POOLS[threads] = ThreadPoolExecutor(threads, thread_name_prefix="dragongym-vec")
    bounds = [n * k // threads for k in range(threads + 1)]
    for future in [pool.submit(run, bounds[k], bounds[k + 1]) for k in range(threads)]:
        future.result()
