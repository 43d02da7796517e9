"""Frames per second of every game's pictures (``envs/core/picture.py``).

For each game that draws, over the positions of one random game of each
configuration measured (the game's ``bench_options`` and its
``test_configs()``), the time of

* the first frame (the board layer drawn and rasterised; later frames reuse it),
* a frame of the full position (``render_rgb(game, state, None)``),
* a frame as the seat to play may know it (``render_rgb(game, state, seat)``),
* the position layer as SVG (what the replay and web pages store per frame),

each reported as frames per second (median over the frames), with the
picture's size. A figure, never an assertion: run it beside a change.

    python -m dragongym.benchmarks.picture_rate [--games dragon_pass] [--frames 200] [--out results]
"""
# jitcache: no compiled code
import argparse
import json
import os
import statistics
import time

import numpy as np

import dragongym
from dragongym.envs.core import picture


def random_positions(game, config, frames, seed=0):
    """Copies of the first ``frames`` positions of a random game of
    ``config`` (restarting with the next seed when a game ends)."""
    out = []
    state = game.new_states(1)
    errors = np.zeros(1, dtype=np.int8)
    rng = np.random.default_rng(seed)
    game.reset(state, np.array([seed], dtype=np.uint64), config)
    while len(out) < frames:
        out.append(state.copy())
        if int(state[0]["status"]) != 0:
            seed += 1
            game.reset(state, np.array([seed], dtype=np.uint64), config)
            continue
        action = int(rng.choice(np.flatnonzero(game.mask_of(state))))
        game.step(state, np.array([action], dtype=np.int32), errors)
    return out


def _rate(fn, items):
    times = []
    for item in items:
        t0 = time.perf_counter()
        fn(item)
        times.append(time.perf_counter() - t0)
    return 1.0 / statistics.median(times)


def measure(game, options, frames):
    """The figures of one configuration (a dict)."""
    config = game.make_config(**options)
    positions = random_positions(game, config, frames)
    picture._BOARDS.clear()
    t0 = time.perf_counter()
    first = picture.render_rgb(game, positions[0], None)
    first_s = time.perf_counter() - t0

    def as_mover(state):
        seat = int(state[0]["to_play"])
        picture.render_rgb(game, state, seat if seat >= 0 else None)

    return {
        "game": game.name, "options": {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()},
        "size": [int(first.shape[1]), int(first.shape[0])], "frames": len(positions),
        "first_frame_s": first_s,
        "full_fps": _rate(lambda s: picture.render_rgb(game, s, None), positions),
        "seat_fps": _rate(as_mover, positions),
        "svg_fps": _rate(lambda s: game.picture_position(s, None).svg_elements(), positions),
    }


def configurations(game):
    """The option dicts measured: the bench options, then each test configuration."""
    seen, out = set(), []
    for options in [dict(game.bench_options), *game.test_configs()]:
        key = json.dumps(options, sort_keys=True, default=list)
        if key not in seen:
            seen.add(key)
            out.append(options)
    return out


def markdown(rows):
    lines = ["| game | options | size | first frame (s) | full fps | seat fps | SVG fps |",
             "| --- | --- | --- | ---: | ---: | ---: | ---: |"]
    for r in rows:
        opts = ", ".join(f"{k}={v}" for k, v in sorted(r["options"].items())) or "defaults"
        lines.append(f"| {r['game']} | {opts} | {r['size'][0]}x{r['size'][1]} | {r['first_frame_s']:.3f} | "
                     f"{r['full_fps']:.0f} | {r['seat_fps']:.0f} | {r['svg_fps']:.0f} |")
    return "\n".join(lines)


def run(games=None, frames=200, out=None, all_configs=False, log=print):
    rows = []
    for name in games or dragongym.list_games():
        game = dragongym.get_game(name)
        if not game.has_pictures:
            log(f"{name}: draws no pictures, skipped")
            continue
        for options in configurations(game)[: None if all_configs else 1]:
            rows.append(measure(game, options, frames))
            log(markdown(rows[-1:]).splitlines()[-1])
    table = markdown(rows)
    if out:
        os.makedirs(out, exist_ok=True)
        with open(os.path.join(out, "pictures.json"), "w") as fh:
            json.dump(rows, fh, indent=1)
        with open(os.path.join(out, "pictures.md"), "w") as fh:
            fh.write(table + "\n")
    return rows, table


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default=None, help="comma-separated game ids (default: every game that draws)")
    ap.add_argument("--frames", type=int, default=200, help="positions timed per configuration")
    ap.add_argument("--all-configs", action="store_true", help="every test configuration, not only the bench options")
    ap.add_argument("--out", default=None, help="folder for pictures.json and pictures.md")
    args = ap.parse_args(argv)
    if args.frames < 1:
        ap.error("--frames must be at least 1")
    _, table = run(args.games.split(",") if args.games else None, args.frames, args.out, args.all_configs,
                   log=lambda s: None)
    print(table)


if __name__ == "__main__":
    main()
