"""Random-legal-play throughput of every registered game.

Decisions per second through

(a) the PettingZoo AEC loop (``env.last()``, a random legal action, ``env.step``),
(b) the vector API (``dragongym.make_vec``) at B = 1, 64, 1024, 8192, with and without
    observations, on 1 and 2 threads (the random policy is ``sample_actions``,
    a compiled pick from the mask, so the figure is the environment's),
(c) the bare compiled core (random play inside one compiled loop, the game's
    ``bench_playout`` hook) where a game has one,

plus bytes per game state, per observation and per vector-env row, and the
process's peak resident memory. Each figure is the median of several
repetitions (spread = min..max). Writes ``throughput.json``, ``throughput.md``
and ``throughput.png`` (decisions/s against batch size) to the results folder.
Each game plays with its ``Game.bench_options`` (``--players N`` sets
``num_players`` for games that have it).

The measurements live in :mod:`dragongym.benchmarks.suite`; this script puts
them together with the peers' (:mod:`dragongym.benchmarks.peers`, ``--peers``).

    python -m dragongym.benchmarks.throughput                  # default suite -> results/
    python -m dragongym.benchmarks.throughput --peers          # + PettingZoo/OpenSpiel/Pgx (benchmarks/peers.py)
    python -m dragongym.benchmarks.throughput --quick          # a short smoke run
    dragongym bench [--quick] [--peers] [--out DIR]  # the same from the CLI
"""
import argparse
import sys

from dragongym.benchmarks import peers, suite
from dragongym.benchmarks.suite import (  # noqa: F401  (the measurements, importable from here as before)
    BATCHES, QUICK_BATCHES, aec_random_play, bench_aec, bench_core, bench_options, bench_vec, find,
    has_core, peak_rss_bytes, plot, run_suite, summary, vec_bytes_per_game, warm_up)


def markdown(result):
    """The result as Markdown, with the peers' tables when it has peers."""
    return suite.markdown(result, [peers.markdown(result)] if result.get("peers") else [])


def write(result, out, stem="throughput"):
    """Write ``<stem>.json``, ``.md`` and ``.png`` (peers included) to ``out``."""
    return suite.write(result, out, stem, [peers.markdown(result)] if result.get("peers") else [])


def add_arguments(ap):
    ap.add_argument("--quick", action="store_true", help="short run (smoke test)")
    ap.add_argument("--reps", type=int, default=3, help="repetitions per figure (default: %(default)s)")
    ap.add_argument("--players", type=int, default=None,
                    help="num_players of games that have that option (default: each game's bench options)")
    ap.add_argument("--games", default=None, help="comma-separated game ids (default: all registered)")
    ap.add_argument("--peers", action="store_true",
                    help="also measure PettingZoo classic, OpenSpiel and Pgx where installed")
    ap.add_argument("--pictures", action="store_true",
                    help="also time every game's pictures (frames/s; benchmarks/picture_rate.py -> pictures.md)")
    ap.add_argument("--out", default="results", help="folder for the result files (default: %(default)s)")


def run(args, log=print):
    games = args.games.split(",") if args.games else None
    result = run_suite(games, quick=args.quick, reps=args.reps, players=args.players, log=log)
    if args.peers:
        result["peers"] = peers.run_peers(quick=args.quick, reps=1 if args.quick else args.reps, log=log)
        result["peak_rss_bytes"] = peak_rss_bytes()
    table = write(result, args.out)
    print(table)
    if getattr(args, "pictures", False):
        from dragongym.benchmarks import picture_rate

        _, pictures = picture_rate.run(games, frames=20 if args.quick else 200, out=args.out, log=log)
        print("\nPictures (frames per second):\n" + pictures)
    return result


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(ap)
    return run(ap.parse_args(argv), log=lambda s: print(s, file=sys.stderr, flush=True))


if __name__ == "__main__":
    main()
