"""Where a game's rules core spends its time, decision by decision.

Random legal play collects positions, grouped by the pending decision (the
record's ``phase``); then, for each decision, a batch of those positions is
timed through the compiled core: ``legal_mask`` (the mask) and ``step`` with a
random legal action. ``step`` checks the action against a fresh mask first, so
the effect (every forced and chance step up to the next decision, and the next
position's mask, as the vector API's fused step does it) is step minus mask.
Each figure is microseconds per position; the share is the decision's
frequency in random play times its mask-plus-effect cost (what one decision of
the vector API costs), so the top rows are where a faster core must save.
Games are played with the game's ``bench_options`` (what ``bench`` plays).

    python -m dragongym.benchmarks.phase_profile --game dragons_down

The game needs only the Game contract (``new_states``, ``reset``,
``legal_mask``, ``step``) and a ``phase`` field in its state record; its
game module's ``PHASE_NAMES`` (code -> name), where it has one, names the rows.
"""
# jitcache: no compiled code
import argparse
import importlib
import time
from collections import Counter, defaultdict

import numpy as np

import dragongym


def collect(game, config, games, seed, per_phase):
    """Play ``games`` random games; return (counts of each phase over every
    decision, up to ``per_phase`` sampled records of each phase)."""
    rng = np.random.default_rng(seed)
    counts = Counter()
    samples = defaultdict(list)
    states = game.new_states(games)
    game.reset(states, np.arange(1, games + 1, dtype=np.uint64) + np.uint64(seed) * np.uint64(1 << 20), config)
    masks = np.zeros((games, game.spec_for(config).num_actions), dtype=np.int8)
    errors = np.zeros(games, dtype=np.int8)
    live = np.ones(games, dtype=bool)
    while live.any():
        game.legal_mask(states, masks)
        actions = np.full(games, -1, dtype=np.int32)
        for b in np.flatnonzero(live):
            if states[b]['status'] != 0:
                live[b] = False
                continue
            ph = int(states[b]['phase'])
            counts[ph] += 1
            bucket = samples[ph]
            if len(bucket) < per_phase:
                bucket.append(states[b].copy())
            elif rng.random() < per_phase / counts[ph]:
                bucket[rng.integers(per_phase)] = states[b].copy()
            actions[b] = rng.choice(np.flatnonzero(masks[b]))
        game.step(states, actions, errors)
        if errors.any():
            raise RuntimeError(f"a legal action was refused: {game.error_message(int(errors.max()))}")
    return counts, samples


def time_phase(game, records, num_actions, reps, rng):
    """Microseconds per position of the mask and of a random legal step."""
    batch = np.stack(records)
    masks = np.zeros((len(batch), num_actions), dtype=np.int8)
    game.legal_mask(batch, masks)
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks], dtype=np.int32)
    errors = np.zeros(len(batch), dtype=np.int8)
    best_mask = best_step = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        game.legal_mask(batch, masks)
        best_mask = min(best_mask, time.perf_counter() - t0)
        work = batch.copy()
        t0 = time.perf_counter()
        game.step(work, actions, errors)
        best_step = min(best_step, time.perf_counter() - t0)
    n = len(batch)
    return 1e6 * best_mask / n, 1e6 * best_step / n


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="dragons_down")
    ap.add_argument("--players", type=int, default=None, help="num_players (default: the bench options')")
    ap.add_argument("--set", action="append", default=[], metavar="OPTION=INT",
                    help="override one of the bench options, e.g. --set max_turns=30 (repeatable)")
    ap.add_argument("--games", type=int, default=200, help="random games played to collect positions")
    ap.add_argument("--per-phase", type=int, default=512, help="positions timed per decision")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    game = dragongym.get_game(args.game)
    options = dict(game.bench_options)
    if args.players is not None:
        options["num_players"] = args.players
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep:
            ap.error(f"--set {item!r}: expected OPTION=INT")
        try:
            options[key] = int(value)
        except ValueError:
            ap.error(f"--set {item!r}: {value!r} is not an integer")
    config = game.make_config(**options)
    num_actions = game.spec_for(config).num_actions
    names = getattr(importlib.import_module(type(game).__module__), "PHASE_NAMES", {})
    warm = game.new_states(2)
    game.reset(warm, np.arange(1, 3, dtype=np.uint64), config)     # compile or load first
    counts, samples = collect(game, config, args.games, args.seed, args.per_phase)
    rng = np.random.default_rng(args.seed)
    total = sum(counts.values())
    rows = []
    for ph, recs in samples.items():
        m, s = time_phase(game, recs, num_actions, args.reps, rng)
        effect = max(s - m, 0.0)
        rows.append((counts[ph] / total * (m + effect), ph, counts[ph] / total, m, effect))
    cost = sum(r[0] for r in rows)
    print(f"{args.game} {options}, {args.games} random games, {total:,} decisions; "
          f"weighted cost {cost:.2f} us per decision (about {1e6 / cost:,.0f} decisions/s, one thread)")
    print(f"{'decision':<22} {'share':>6} {'freq':>6} {'mask us':>8} {'effect us':>9}")
    for w, ph, f, m, s in sorted(rows, reverse=True):
        print(f"{names.get(ph, str(ph)):<22} {100 * w / cost:5.1f}% {100 * f:5.1f}% {m:8.2f} {s:9.2f}")


if __name__ == "__main__":
    main()
