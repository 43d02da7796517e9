"""Where a cold compile of a game's rules core goes, part by part.

Runs what ``dragongym warm GAME`` runs (the game's compiled entry points,
``jitcache.warm``) in a fresh process whose cache folder is empty, while
numba's compile events are recorded (``numba.core.event``): every
``numba:compile`` of a dispatcher, its start and end, nested as the compiles
are (a caller's compile types its non-inlined callees inside it). Each
function's *own* time is its compile less the compiles nested in it; the
report sums own times by the module they were written in (``rules/magic.py``,
``observe.py``, ``kernel.py``: the rulebook's parts) and lists the costliest
functions, with the wall time of the whole warm-up and the time spent holding
numba's LLVM lock (optimising and emitting machine code, counted inside the
compiles).

    python -m dragongym.benchmarks.compile_profile --game dragons_down

A function compiled code calls is typed and lowered in its own event; LLVM's
one pass over an entry point's whole tree (``envs/core/jit.py``) is charged to
the entry point (``kernel.py``).
"""
# jitcache: no compiled code
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict


def _child(game_name):
    """Warm ``game_name`` with the compile events recorded; print them as JSON."""
    from numba.core import event

    import dragongym
    from dragongym.envs.core import jitcache

    game = dragongym.get_game(game_name)
    spans = []          # (name, module, start, end, depth)
    stack = []
    llvm = [0.0, None]

    class Compiles(event.Listener):
        def on_start(self, ev):
            stack.append((ev.data["dispatcher"], time.perf_counter()))

        def on_end(self, ev):
            disp, t0 = stack.pop()
            func = getattr(disp, "py_func", None)
            name = getattr(func, "__qualname__", str(disp))
            module = getattr(func, "__module__", "?")
            spans.append((name, module, t0, time.perf_counter(), len(stack)))

    class LlvmLock(event.Listener):
        def on_start(self, ev):
            llvm[1] = time.perf_counter()

        def on_end(self, ev):
            if llvm[1] is not None:
                llvm[0] += time.perf_counter() - llvm[1]
                llvm[1] = None

    start = time.perf_counter()
    with event.install_listener("numba:compile", Compiles()), event.install_listener("numba:llvm_lock", LlvmLock()):
        results, _ = jitcache.warm(game)
    wall = time.perf_counter() - start
    print(json.dumps({"wall": wall, "llvm": llvm[0], "spans": spans,
                      "entries": [(entry, seconds) for entry, seconds, _ in results]}))


def own_times(spans):
    """``{(module, name): (own seconds, compiles)}``: each compile's span less
    the spans of the compiles nested directly in it."""
    spans = sorted(spans, key=lambda s: (s[2], -s[3]))
    own = defaultdict(lambda: [0.0, 0])
    for i, (name, module, t0, t1, depth) in enumerate(spans):
        nested = sum(e - s for n, m, s, e, d in spans if d == depth + 1 and s >= t0 and e <= t1)
        entry = own[(module, name)]
        entry[0] += (t1 - t0) - nested
        entry[1] += 1
    return {key: tuple(value) for key, value in own.items()}


def report(data, top):
    """The report's lines."""
    own = own_times(data["spans"])
    parts = defaultdict(float)
    for (module, _), (seconds, _) in own.items():
        parts[module.replace("dragongym.envs.", "")] += seconds
    lines = [f"cold warm-up: {data['wall']:.1f} s wall; {sum(s for s, _ in own.values()):.1f} s in "
             f"{sum(n for _, n in own.values())} compiles of {len(own)} functions; LLVM lock held "
             f"{data['llvm']:.1f} s",
             "entry points: " + ", ".join(f"{entry} {seconds:.1f} s" for entry, seconds in data["entries"]),
             "", f"{'part (module)':<40} {'own s':>8} {'share':>6}"]
    total = sum(parts.values()) or 1.0
    for module, seconds in sorted(parts.items(), key=lambda kv: -kv[1]):
        lines.append(f"{module:<40} {seconds:8.1f} {100 * seconds / total:5.1f}%")
    lines += ["", f"{'function':<56} {'own s':>8} {'compiles':>8}"]
    ranked = sorted(own.items(), key=lambda kv: -kv[1][0])[:top]
    for (module, name), (seconds, count) in ranked:
        short = module.replace("dragongym.envs.", "")
        lines.append(f"{short + '::' + name:<56} {seconds:8.1f} {count:8d}")
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m dragongym.benchmarks.compile_profile",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a registered game id")
    parser.add_argument("--top", type=int, default=25, help="functions to list (default 25)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        _child(args.game)
        return 0
    with tempfile.TemporaryDirectory(prefix="dragongym-cold-") as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        env.pop("NUMBA_DISABLE_JIT", None)
        done = subprocess.run([sys.executable, "-m", "dragongym.benchmarks.compile_profile", "--game", args.game,
                               "--child"], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        print(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "the warm-up failed",
              file=sys.stderr)
        return 1
    data = json.loads(done.stdout.strip().splitlines()[-1])
    print("\n".join(report(data, args.top)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
