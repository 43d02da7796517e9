"""Random-legal-play throughput of every registered game.

Measures decisions per second through (a) the PettingZoo AEC loop and (b) the
batched compiled core at several batch sizes, with and without observations,
on 1 or more threads; reports bytes per game state and per observation.
Each figure is the median of several repetitions (spread = min..max).

    python -m benchmarks.throughput                  # default suite, results/throughput.*
    python -m benchmarks.throughput --quick          # a short smoke run
"""
import argparse
import json
import os
import platform
import statistics
import time

import numpy as np


def _median(values):
    return float(statistics.median(values)), float(min(values)), float(max(values))


def bench_aec(game_name, num_players, seconds, seed=0):
    """AEC loop: env.last() + a random legal action + env.step, as a user writes it."""
    import envs
    env = envs.make(game_name, num_players=num_players)
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
            if steps % 256 == 0 and time.perf_counter() - start >= seconds:
                break
        else:
            env.reset(seed=int(rng.integers(1 << 31)))
    return steps / (time.perf_counter() - start)


def bench_core(batch, steps, with_obs, threads, num_players=2, max_hands=8, seed=0):
    """Batched core: random legal play inside compiled code, optional observations."""
    from numba import set_num_threads
    from envs.core.rng import seed_sequence
    from envs.dragonhunt import playout
    from envs.dragonhunt.game import GAME
    S = GAME.new_states(batch)
    GAME.reset(S, seed_sequence(seed, batch), GAME.make_config(num_players=num_players, max_hands=max_hands))
    masks = np.zeros((batch, GAME.spec.num_actions), dtype=np.int8)
    counts = np.zeros(batch, dtype=np.int64)
    obs = np.zeros((batch if with_obs else 1, GAME.spec.obs_size), dtype=np.float32)
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


def warm_up():
    """Compile (or load from cache) every kernel once, outside the timings."""
    bench_core(4, 2, False, 1)
    bench_core(4, 2, True, 1)
    bench_core(4, 2, False, 2)
    bench_core(4, 2, True, 2)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="short run (smoke test)")
    ap.add_argument("--reps", type=int, default=3, help="repetitions per figure")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--out", default="results", help="folder for throughput.json / .md")
    args = ap.parse_args(argv)
    from envs.dragonhunt.game import GAME
    from envs.dragonhunt.state import STATE_DTYPE
    reps = 1 if args.quick else args.reps
    batches = [1, 64] if args.quick else [1, 64, 1024]
    warm_up()
    rows = []
    aec = _median([bench_aec("dragonhunt", args.players, 0.5 if args.quick else 3.0, seed=r) for r in range(reps)])
    rows.append(dict(game="dragonhunt", path="pettingzoo AEC", batch=1, obs=True, threads=1,
                     median=aec[0], min=aec[1], max=aec[2]))
    for batch in batches:
        steps = max(2, (20_000 if args.quick else 200_000) // batch)
        for with_obs in (False, True):
            for threads in (1, 2):
                if threads == 2 and batch < 64:
                    continue
                r = _median([bench_core(batch, steps, with_obs, threads, args.players, seed=i) for i in range(reps)])
                rows.append(dict(game="dragonhunt", path="batched core", batch=batch, obs=with_obs,
                                 threads=threads, median=r[0], min=r[1], max=r[2]))
    result = dict(machine=platform.processor() or platform.machine(), cpus=os.cpu_count(),
                  bytes_per_state=int(STATE_DTYPE.itemsize),
                  bytes_per_observation=int(GAME.spec.obs_size * 4), rows=rows)
    os.makedirs(args.out, exist_ok=True)
    lines = ["| game | path | batch | obs | threads | decisions/s (median) | min..max |",
             "|---|---|---:|---|---:|---:|---|"]
    for r in rows:
        lines.append(f"| {r['game']} | {r['path']} | {r['batch']} | {'yes' if r['obs'] else 'no'} | "
                     f"{r['threads']} | {r['median']:,.0f} | {r['min']:,.0f}..{r['max']:,.0f} |")
    lines.append("")
    lines.append(f"bytes per game state: {result['bytes_per_state']}; "
                 f"bytes per observation: {result['bytes_per_observation']}")
    table = "\n".join(lines)
    with open(os.path.join(args.out, "throughput.json"), "w") as f:
        json.dump(result, f, indent=2)
    with open(os.path.join(args.out, "throughput.md"), "w") as f:
        f.write(table + "\n")
    print(table)
    return result


if __name__ == "__main__":
    main()
