"""Random-legal-play throughput of every registered game.

Decisions per second through

(a) the PettingZoo AEC loop (``env.last()``, a random legal action, ``env.step``),
(b) the vector API (``dragongym.make_vec``) at B = 1, 64, 1024, 8192, with and without
    observations, on 1 and 2 threads (the random policy is ``sample_actions``,
    a compiled pick from the mask, so the figure is the environment's),
(c) the bare compiled core (``envs/<game>/playout.py``: random play inside one
    compiled loop) where a game has one,

plus bytes per game state, per observation and per vector-env row, and the
process's peak resident memory. Each figure is the median of several
repetitions (spread = min..max). Writes ``throughput.json``, ``throughput.md``
and ``throughput.png`` (decisions/s against batch size) to the results folder.

    python -m dragongym.benchmarks.throughput                  # default suite -> results/
    python -m dragongym.benchmarks.throughput --peers          # + PettingZoo/OpenSpiel/Pgx (benchmarks/peers.py)
    python -m dragongym.benchmarks.throughput --quick          # a short smoke run
    dragongym bench [--quick] [--peers] [--out DIR]  # the same from the CLI
"""
import argparse
import importlib
import json
import os
import platform
import resource
import statistics
import sys
import time

import numpy as np

BATCHES = (1, 64, 1024, 8192)
QUICK_BATCHES = (1, 64)


def _median(values):
    return float(statistics.median(values)), float(min(values)), float(max(values))


def peak_rss_bytes():
    """Peak resident memory of this process so far (Linux reports KiB)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(rss if sys.platform == "darwin" else rss * 1024)


def bench_aec(game_name, num_players, seconds, seed=0, **config):
    """AEC loop: env.last() + a random legal action + env.step, as a user writes it."""
    import dragongym
    return aec_random_play(dragongym.make(game_name, num_players=num_players, **config), seconds, seed)


def aec_random_play(env, seconds, seed=0):
    """Decisions per second of random legal play through any PettingZoo AEC env
    (ours or a peer's), restarting finished games, for ``seconds``."""
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                action = None
            else:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            steps += 1
            if steps % 64 == 0 and time.perf_counter() - start >= seconds:
                break
        else:
            env.reset(seed=int(rng.integers(1 << 31)))
    return steps / (time.perf_counter() - start)


def bench_vec(game_name, batch, with_obs, threads, seconds, num_players=2, seed=0, **config):
    """Vector API: ``step(sample_actions(rng))`` in a loop; decisions = B per step."""
    import dragongym
    venv = dragongym.make_vec(game_name, batch, seed=seed, num_players=num_players, observations=with_obs,
                         num_threads=threads, parallel_threshold=64 if threads > 1 else 1 << 62,
                         **config)
    rng = np.random.default_rng(seed)
    venv.reset()
    for _ in range(3):                       # warm the buffers and any lazy compile
        venv.step(venv.sample_actions(rng))
    steps = 0
    start = time.perf_counter()
    min_steps = 5
    while True:
        for _ in range(min_steps):
            venv.step(venv.sample_actions(rng))
        steps += min_steps
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return steps * batch / elapsed


def vec_bytes_per_game(game_name, with_obs, num_players=2, **config):
    """Bytes held per game by a vector env (state, mask, count, obs, rewards, ...)."""
    import dragongym
    venv = dragongym.make_vec(game_name, 64, num_players=num_players, observations=with_obs, **config)
    total = 0
    for value in vars(venv).values():
        if isinstance(value, np.ndarray) and value.shape[:1] == (64,):
            total += value.nbytes
    return total // 64


def _playout_module(game_name):
    try:
        return importlib.import_module(f"dragongym.envs.{game_name}.playout")
    except ImportError:
        return None


def bench_core(game_name, batch, steps, with_obs, threads, num_players=2, max_hands=8, seed=0):
    """Bare compiled core: random legal play inside one compiled loop (``playout.py``)."""
    from numba import set_num_threads
    import dragongym
    from dragongym.envs.core.rng import seed_sequence
    playout = _playout_module(game_name)
    game = dragongym.get_game(game_name)
    S = game.new_states(batch)
    game.reset(S, seed_sequence(seed, batch), game.make_config(num_players=num_players, max_hands=max_hands))
    masks = np.zeros((batch, game.spec.num_actions), dtype=np.int8)
    counts = np.zeros(batch, dtype=np.int64)
    obs = np.zeros((batch if with_obs else 1, game.spec.obs_size), dtype=np.float32)
    playout.prepare(S, masks, counts)
    stream = np.uint64(seed + 1)
    if threads > 1:
        set_num_threads(threads)
        start = time.perf_counter()
        n = playout.random_play_parallel(S, masks, counts, steps, stream, with_obs, obs, num_players, max_hands)
    else:
        start = time.perf_counter()
        n = playout.random_play(S, masks, counts, steps, stream, with_obs, obs, num_players, max_hands)
    return n / (time.perf_counter() - start)


def warm_up(game_name, threads=(1, 2)):
    """Compile (or load from the cache) every kernel once, outside the timings."""
    for t in threads:
        for obs in (False, True):
            bench_vec(game_name, 4, obs, t, 0.0)
            if t > 1:
                bench_vec(game_name, 64, obs, t, 0.0)
            if _playout_module(game_name) is not None:
                bench_core(game_name, 4, 2, obs, t)


def run_suite(games=None, quick=False, reps=3, players=2, threads=(1, 2), batches=None, log=print):
    """Every measurement for every game; returns the result dict (rows + memory)."""
    import dragongym
    games = games or dragongym.list_games()
    reps = 1 if quick else reps
    batches = batches or (QUICK_BATCHES if quick else BATCHES)
    vec_seconds = 0.15 if quick else 1.0
    aec_seconds = 0.3 if quick else 2.0
    rows, memory = [], {}
    for name in games:
        game = dragongym.get_game(name)
        log(f"[{name}] compiling / loading kernels ...")
        warm_up(name, threads)

        def add(path, batch, obs, nthreads, values):
            m = _median(values)
            rows.append(dict(game=name, path=path, batch=batch, obs=obs, threads=nthreads,
                             median=m[0], min=m[1], max=m[2], reps=len(values)))
            log(f"[{name}] {path:14s} B={batch:<5d} obs={'yes' if obs else 'no ':3s} "
                f"threads={nthreads}: {m[0]:>13,.0f} decisions/s ({m[1]:,.0f}..{m[2]:,.0f})")

        add("pettingzoo AEC", 1, True, 1,
            [bench_aec(name, players, aec_seconds, seed=r) for r in range(reps)])
        for batch in batches:
            for with_obs in (False, True):
                for t in threads:
                    if t > 1 and batch < 64:
                        continue
                    add("vector API", batch, with_obs, t,
                        [bench_vec(name, batch, with_obs, t, vec_seconds, players, seed=r)
                         for r in range(reps)])
        if _playout_module(name) is not None:
            for batch in batches:
                steps = max(2, (20_000 if quick else 400_000) // batch)
                for with_obs in (False, True):
                    for t in threads:
                        if t > 1 and batch < 64:
                            continue
                        add("bare core", batch, with_obs, t,
                            [bench_core(name, batch, steps, with_obs, t, players, seed=r)
                             for r in range(reps)])
        memory[name] = dict(bytes_per_state=int(game.dtype.itemsize),
                            bytes_per_observation=int(game.spec.obs_size * 4),
                            vec_bytes_per_game_obs=vec_bytes_per_game(name, True, players),
                            vec_bytes_per_game_no_obs=vec_bytes_per_game(name, False, players))
    return dict(machine=platform.processor() or platform.machine(), python=platform.python_version(),
                cpus=os.cpu_count(), players=players, quick=bool(quick), rows=rows, memory=memory,
                peak_rss_bytes=peak_rss_bytes(),
                time=time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()))


def find(rows, **where):
    """The first row matching every ``key=value`` (None if none)."""
    for r in rows:
        if all(r.get(k) == v for k, v in where.items()):
            return r
    return None


def summary(result):
    """Compact table per game: batch size down, (obs, threads) across, for each path."""
    out = []
    games = sorted({r["game"] for r in result["rows"]})
    for game in games:
        rows = [r for r in result["rows"] if r["game"] == game]
        aec = find(rows, path="pettingzoo AEC")
        cols = [(False, 1), (False, 2), (True, 1), (True, 2)]
        out.append(f"**{game}** (decisions/s, median; PettingZoo AEC loop: "
                   f"{aec['median']:,.0f})" if aec else f"**{game}**")
        out.append("")
        out.append("| path | B | no obs, 1 thread | no obs, 2 threads | obs, 1 thread | obs, 2 threads |")
        out.append("|---|---:|---:|---:|---:|---:|")
        for path in ("vector API", "bare core"):
            for batch in sorted({r["batch"] for r in rows if r["path"] == path}):
                cells = []
                for obs, threads in cols:
                    r = find(rows, path=path, batch=batch, obs=obs, threads=threads)
                    cells.append(f"{r['median']:,.0f}" if r else "")
                out.append(f"| {path} | {batch} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def markdown(result):
    lines = [summary(result), "All figures (median of the repetitions, min..max):", "",
             "| game | path | batch | obs | threads | decisions/s (median) | min..max |",
             "|---|---|---:|---|---:|---:|---|"]
    for r in result["rows"]:
        lines.append(f"| {r['game']} | {r['path']} | {r['batch']} | {'yes' if r['obs'] else 'no'} | "
                     f"{r['threads']} | {r['median']:,.0f} | {r['min']:,.0f}..{r['max']:,.0f} |")
    lines.append("")
    for name, m in result["memory"].items():
        lines.append(f"{name}: {m['bytes_per_state']} bytes per game state, "
                     f"{m['bytes_per_observation']} bytes per observation, vector env "
                     f"{m['vec_bytes_per_game_obs']} bytes per game with observations "
                     f"({m['vec_bytes_per_game_no_obs']} without).")
    lines.append(f"Peak resident memory of the benchmark process: "
                 f"{result['peak_rss_bytes'] / 2**20:,.0f} MiB. Machine: {result['machine']}, "
                 f"{result['cpus']} CPUs, Python {result['python']}, {result['time']}; "
                 f"{result['players']} players, median of {max((r['reps'] for r in result['rows']), default=0)} "
                 f"repetition(s).")
    if result.get("peers"):
        from dragongym.benchmarks import peers
        lines.append("")
        lines.append(peers.markdown(result))
    return "\n".join(lines)


def plot(result, path):
    """decisions/s against batch size (log-log), one line per path/obs/threads."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 5))
    series = {}
    for r in result["rows"]:
        if r["path"] == "pettingzoo AEC":
            continue
        key = (r["game"], r["path"], r["obs"], r["threads"])
        series.setdefault(key, []).append((r["batch"], r["median"]))
    for (game, kind, obs, threads), pts in sorted(series.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                linestyle="-" if kind == "vector API" else ":",
                label=f"{game} {kind}, {'obs' if obs else 'no obs'}, {threads} thr")
    for r in result["rows"]:
        if r["path"] == "pettingzoo AEC":
            ax.axhline(r["median"], color="grey", linestyle="--", linewidth=1)
            ax.annotate(f"{r['game']} PettingZoo AEC", (1, r["median"]), fontsize=7, color="grey")
    for p in result.get("peers", {}).get("rows", []):
        if p.get("batch", 1) == 1:
            ax.axhline(p["median"], color="tab:red", linestyle="--", linewidth=0.8, alpha=0.6)
            ax.annotate(p["label"], (1, p["median"]), fontsize=6, color="tab:red")
        else:
            ax.plot([p["batch"]], [p["median"]], marker="x", color="tab:red")
            ax.annotate(p["label"], (p["batch"], p["median"]), fontsize=6, color="tab:red")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("batch size B (games stepped together)")
    ax.set_ylabel("decisions / second (random legal play)")
    ax.set_title("dragongym throughput")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def write(result, out, stem="throughput"):
    os.makedirs(out, exist_ok=True)
    table = markdown(result)
    with open(os.path.join(out, f"{stem}.json"), "w") as f:
        json.dump(result, f, indent=2)
    with open(os.path.join(out, f"{stem}.md"), "w") as f:
        f.write(table + "\n")
    plot(result, os.path.join(out, f"{stem}.png"))
    return table


def add_arguments(ap):
    ap.add_argument("--quick", action="store_true", help="short run (smoke test)")
    ap.add_argument("--reps", type=int, default=3, help="repetitions per figure (default: %(default)s)")
    ap.add_argument("--players", type=int, default=2, help="seats per game (default: %(default)s)")
    ap.add_argument("--games", default=None, help="comma-separated game ids (default: all registered)")
    ap.add_argument("--peers", action="store_true",
                    help="also measure PettingZoo classic, OpenSpiel and Pgx where installed")
    ap.add_argument("--out", default="results", help="folder for the result files (default: %(default)s)")


def run(args, log=print):
    games = args.games.split(",") if args.games else None
    result = run_suite(games, quick=args.quick, reps=args.reps, players=args.players, log=log)
    if args.peers:
        from dragongym.benchmarks import peers
        result["peers"] = peers.run_peers(quick=args.quick, reps=1 if args.quick else args.reps, log=log)
        result["peak_rss_bytes"] = peak_rss_bytes()
    table = write(result, args.out)
    print(table)
    return result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(ap)
    return run(ap.parse_args(argv), log=lambda s: print(s, file=sys.stderr, flush=True))


if __name__ == "__main__":
    main()
