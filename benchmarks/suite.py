"""Random-legal-play measurements of our games, and the result files.

The lowest benchmark layer: :mod:`dragongym.benchmarks.peers` and
:mod:`dragongym.benchmarks.throughput` (the script) build on it, and it imports
neither. Everything game-specific comes from the game's hooks: the options it is
benchmarked with (``Game.bench_options``) and, where it has one, its bare-core
playout (``Game.bench_playout``).
"""
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


def bench_options(game_name, players=None):
    """The options a game is benchmarked with: its ``Game.bench_options``, with
    ``num_players=players`` where given (for games that have that option)."""
    import dragongym
    options = dict(dragongym.get_game(game_name).bench_options)
    if players is not None:
        options["num_players"] = int(players)
    return options


def bench_aec(game_name, seconds, seed=0, **options):
    """AEC loop: env.last() + a random legal action + env.step, as a user writes it."""
    import dragongym
    return aec_random_play(dragongym.make(game_name, **options), seconds, seed)


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


def bench_vec(game_name, batch, with_obs, threads, seconds, seed=0, **options):
    """Vector API: ``step(sample_actions(rng))`` in a loop; decisions = B per step."""
    import dragongym
    venv = dragongym.make_vec(game_name, batch, seed=seed, observations=with_obs, num_threads=threads,
                              parallel_threshold=64 if threads > 1 else 1 << 62, **options)
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


def vec_bytes_per_game(game_name, with_obs, **options):
    """Bytes held per game by a vector env (state, mask, count, obs, rewards, ...)."""
    import dragongym
    venv = dragongym.make_vec(game_name, 64, observations=with_obs, **options)
    total = 0
    for value in vars(venv).values():
        if isinstance(value, np.ndarray) and value.shape[:1] == (64,):
            total += value.nbytes
    return total // 64


def has_core(game_name):
    """True if the game offers a bare-core playout: it defines a
    ``bench_playout`` hook (one the ``Game`` base class may declare does not count)."""
    import dragongym
    from dragongym.envs.core.game import Game
    hook = getattr(type(dragongym.get_game(game_name)), "bench_playout", None)
    return callable(hook) and hook is not getattr(Game, "bench_playout", None)


def bench_core(game_name, batch, steps, with_obs, threads, seed=0, **options):
    """Bare compiled core: random legal play inside one compiled loop, through
    the game's ``bench_playout(states, config, steps, seed, observations,
    threads)`` hook (it returns the decisions made)."""
    import dragongym
    from dragongym.envs.core.rng import seed_sequence
    game = dragongym.get_game(game_name)
    config = game.make_config(**options)
    states = game.new_states(batch)
    game.reset(states, seed_sequence(seed, batch), config)
    start = time.perf_counter()
    n = game.bench_playout(states, config, steps, seed + 1, observations=with_obs, threads=threads)
    return n / (time.perf_counter() - start)


def warm_up(game_name, threads=(1, 2), **options):
    """Compile (or load from the cache) every kernel once, outside the timings."""
    core = has_core(game_name)
    for t in threads:
        for obs in (False, True):
            bench_vec(game_name, 4, obs, t, 0.0, **options)
            if t > 1:
                bench_vec(game_name, 64, obs, t, 0.0, **options)
            if core:
                bench_core(game_name, 4, 2, obs, t, **options)


def run_suite(games=None, quick=False, reps=3, players=None, threads=(1, 2), batches=None, log=print):
    """Every measurement for every game; returns the result dict (rows, memory,
    and per game the options it was played with: :func:`bench_options`)."""
    import dragongym
    games = games or dragongym.list_games()
    reps = 1 if quick else reps
    batches = batches or (QUICK_BATCHES if quick else BATCHES)
    vec_seconds = 0.15 if quick else 1.0
    aec_seconds = 0.3 if quick else 2.0
    rows, memory, played_with = [], {}, {}
    for name in games:
        game = dragongym.get_game(name)
        options = played_with[name] = bench_options(name, players)
        spec = game.spec_for(game.make_config(**options))
        log(f"[{name}] compiling / loading kernels ...")
        warm_up(name, threads, **options)

        def add(path, batch, obs, nthreads, values):
            m = _median(values)
            rows.append(dict(game=name, path=path, batch=batch, obs=obs, threads=nthreads,
                             median=m[0], min=m[1], max=m[2], reps=len(values)))
            log(f"[{name}] {path:14s} B={batch:<5d} obs={'yes' if obs else 'no ':3s} "
                f"threads={nthreads}: {m[0]:>13,.0f} decisions/s ({m[1]:,.0f}..{m[2]:,.0f})")

        add("pettingzoo AEC", 1, True, 1,
            [bench_aec(name, aec_seconds, seed=r, **options) for r in range(reps)])
        for batch in batches:
            for with_obs in (False, True):
                for t in threads:
                    if t > 1 and batch < 64:
                        continue
                    add("vector API", batch, with_obs, t,
                        [bench_vec(name, batch, with_obs, t, vec_seconds, seed=r, **options)
                         for r in range(reps)])
        if has_core(name):
            for batch in batches:
                steps = max(2, (20_000 if quick else 400_000) // batch)
                for with_obs in (False, True):
                    for t in threads:
                        if t > 1 and batch < 64:
                            continue
                        add("bare core", batch, with_obs, t,
                            [bench_core(name, batch, steps, with_obs, t, seed=r, **options)
                             for r in range(reps)])
        memory[name] = dict(bytes_per_state=int(game.dtype.itemsize),
                            bytes_per_observation=int(spec.obs_size * 4),
                            vec_bytes_per_game_obs=vec_bytes_per_game(name, True, **options),
                            vec_bytes_per_game_no_obs=vec_bytes_per_game(name, False, **options))
    return dict(machine=platform.processor() or platform.machine(), python=platform.python_version(),
                cpus=os.cpu_count(), options=played_with, quick=bool(quick), rows=rows, memory=memory,
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


def markdown(result, sections=()):
    """The result as Markdown: the summary, every figure, memory, the machine;
    then each of ``sections`` (more Markdown, e.g. the peers' tables)."""
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
                 f"{result['cpus']} CPUs, Python {result['python']}, {result['time']}; median of "
                 f"{max((r['reps'] for r in result['rows']), default=0)} repetition(s).")
    for name, options in result.get("options", {}).items():
        settings = ", ".join(f"{k}={v}" for k, v in sorted(options.items())) or "its defaults"
        lines.append(f"{name} played with {settings}.")
    for section in sections:
        lines += ["", section]
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


def write(result, out, stem="throughput", sections=()):
    """Write ``<stem>.json``, ``.md`` (with ``sections``) and ``.png`` to ``out``;
    returns the Markdown."""
    os.makedirs(out, exist_ok=True)
    table = markdown(result, sections)
    with open(os.path.join(out, f"{stem}.json"), "w") as f:
        json.dump(result, f, indent=2)
    with open(os.path.join(out, f"{stem}.md"), "w") as f:
        f.write(table + "\n")
    plot(result, os.path.join(out, f"{stem}.png"))
    return table
