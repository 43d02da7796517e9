"""Time of one acting forward pass of the self-play network, eager against
traced (``training/ppo.py``'s ``Acting``), at several batch sizes (issue 30).

    python -m dragongym.benchmarks.acting_forward --game dragons_down

The network is the trainer's default one (``selfplay.Args``' layout network,
untrained) for the game's default configuration; the observations come from
``--games`` league games after a few random decisions. For each batch size
it times ``--calls`` calls of the actor's logits (what a league snapshot or a
checkpoint's agent computes) eagerly and through the trace, on one torch
thread, alternating the two ``--rounds`` times, prints the medians in
microseconds a call, and checks that the two give the same bytes. A table
line per batch size; ``--out FILE`` writes them as JSON too.
"""
import argparse
import json
import statistics
import time


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m dragongym.benchmarks.acting_forward")
    parser.add_argument("--game", default="dragonhunt")
    parser.add_argument("--sizes", default="4,16,64,256", help="batch sizes, comma-separated")
    parser.add_argument("--calls", type=int, default=200, help="calls timed per size and round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=256, help="league games the observations come from")
    parser.add_argument("--out", default="")
    opts = parser.parse_args(argv)
    sizes = [int(s) for s in opts.sizes.split(",") if s.strip()]
    if not sizes or min(sizes) < 1 or max(sizes) > opts.games:
        parser.error(f"--sizes must be between 1 and --games ({opts.games})")
    if opts.calls < 1 or opts.rounds < 1:
        parser.error("--calls and --rounds must be >= 1")

    import numpy as np
    import torch

    torch.set_num_threads(1)
    from dragongym.training import ppo, selfplay
    from dragongym.training.batched import BatchedLeagueEnv

    args = selfplay.Args(game=opts.game)
    env = BatchedLeagueEnv(opts.game, opts.games, args.config_options(), weights={"random": 1.0}, seed=0)
    env.reset()
    rng = np.random.default_rng(0)
    for _ in range(8):
        env.step(np.array([rng.choice(np.flatnonzero(m)) for m in env.action_masks()]))
    policy = selfplay._policy_factory(args, env.observation_space, env.action_space)().eval()
    obs = torch.as_tensor(env.venv.obs.copy())
    traced = ppo.Acting(ppo.action_logits, policy)

    def eager(x):
        return ppo.action_logits(policy, x)

    rows = []
    with torch.inference_mode():
        for n in sizes:
            x = obs[:n]
            same = torch.equal(traced(x), eager(x))
            times = {"eager": [], "traced": []}
            for _ in range(opts.rounds):
                for name, fn in (("eager", eager), ("traced", traced)):
                    for _ in range(5):
                        fn(x)
                    start = time.perf_counter()
                    for _ in range(opts.calls):
                        fn(x)
                    times[name].append((time.perf_counter() - start) / opts.calls * 1e6)
            row = {"game": opts.game, "batch": n, "eager_us": statistics.median(times["eager"]),
                   "traced_us": statistics.median(times["traced"]), "same_bytes": bool(same)}
            rows.append(row)
            print(f"{opts.game} batch {n:4d}: eager {row['eager_us']:8.0f} us, traced {row['traced_us']:8.0f} us "
                  f"({1 - row['traced_us'] / row['eager_us']:+.0%} saved), same bytes: {same}", flush=True)
    if opts.out:
        with open(opts.out, "w") as f:
            json.dump(rows, f, indent=1)
    if not all(r["same_bytes"] for r in rows):
        raise SystemExit("the traced forward pass differs from the eager one")


if __name__ == "__main__":
    main()
