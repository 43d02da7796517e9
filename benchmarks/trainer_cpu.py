"""CPU and wall time of one self-play training run's loop (issue 30).

    python -m dragongym.benchmarks.trainer_cpu --out /tmp/t.json -- \\
        --game dragonhunt --total-timesteps 65536 --seed 0 --eval-every 0 \\
        --final-eval-games 0 --env-rate-seconds 0 --no-progress --torch-threads 1

Everything after ``--`` is ``python -m dragongym.training.selfplay``'s command
line. The training loop (``training/ppo.py``'s ``learn``, which the default
``--trainer ppo`` runs) is timed twice: the process's CPU time
(``time.process_time``, the work done, whatever else the machine runs; with
``--torch-threads 1`` and no heuristic workers it is the whole loop's work)
and wall time (meaningful only on an idle machine). Set-up, the first
compilation of the rules and the final evaluation are outside both. Prints one
JSON line ``{"cpu_seconds", "wall_seconds", "timesteps", "decisions_per_cpu_second",
"decisions_per_second", "max_rss_mb", "argv"}`` (``max_rss_mb``: the process's peak
resident memory, final evaluation included) and writes it to ``--out`` where given.

The script runs whatever ``dragongym`` its interpreter imports, so an A/B
comparison runs it with each checkout's interpreter (one at a time,
interleaved: A B A B A B) and compares the medians.
"""
import argparse
import json
import resource
import sys
import tempfile
import time


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--" not in argv:
        raise SystemExit("usage: trainer_cpu.py [--out FILE] -- <selfplay arguments>")
    cut = argv.index("--")
    parser = argparse.ArgumentParser(prog="python -m dragongym.benchmarks.trainer_cpu")
    parser.add_argument("--out", default="", help="also write the JSON line to this file")
    opts = parser.parse_args(argv[:cut])
    train_argv = argv[cut + 1:]

    from dragongym.training import ppo, selfplay

    timed = {}
    learn = ppo.learn

    def timed_learn(model, total_timesteps, *args, **kwargs):
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            return learn(model, total_timesteps, *args, **kwargs)
        finally:
            timed["cpu_seconds"] = time.process_time() - cpu
            timed["wall_seconds"] = time.perf_counter() - wall
            timed["timesteps"] = int(model.num_timesteps)

    ppo.learn = timed_learn
    try:
        with tempfile.TemporaryDirectory() as out_dir:
            selfplay.main(train_argv + ["--out-dir", out_dir, "--run-name", "bench"])
    finally:
        ppo.learn = learn
    if not timed:
        raise SystemExit("the run did not enter ppo.learn (is --trainer ppo?)")
    timed["decisions_per_cpu_second"] = timed["timesteps"] / timed["cpu_seconds"]
    timed["decisions_per_second"] = timed["timesteps"] / timed["wall_seconds"]
    timed["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # Linux: KiB
    timed["argv"] = train_argv
    line = json.dumps(timed)
    print(line)
    if opts.out:
        with open(opts.out, "w") as f:
            f.write(line + "\n")


if __name__ == "__main__":
    main()
