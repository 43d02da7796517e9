"""Write a training report (Markdown) from a self-play run directory.

    python -m dragongym.training.report runs/<run> [runs/<other run> ...] --out training/REPORT.md --notes notes.md

Every figure in the report is read from the run's files: ``args.json``,
``history.json`` (periodic and final evaluations, training time) and the
TensorBoard scalars in ``tb/`` (SPS, KL, clip fraction, explained variance,
league win rates). Each run's learning curve is drawn beside the report from its history.
``--notes`` appends a hand-written section (what was tried, what limits it)
under its own heading, kept apart from the measured numbers.
"""
import argparse
import json
import sys
from pathlib import Path


def _scalars(run_dir):
    """``{tag: [(step, value), ...]}`` from the run's TensorBoard event files, and
    ``"_wall"``: the wall-clock times of every logged ``time/fps``."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    out = {}
    for f in sorted(Path(run_dir, "tb").rglob("events.out.tfevents.*")):
        ea = EventAccumulator(str(f), size_guidance={"scalars": 0})
        ea.Reload()
        for tag in ea.Tags()["scalars"]:
            out.setdefault(tag, []).extend((e.step, e.value) for e in ea.Scalars(tag))
        if "time/fps" in ea.Tags()["scalars"]:
            out.setdefault("_wall", []).extend(e.wall_time for e in ea.Scalars("time/fps"))
    return {k: sorted(v) for k, v in out.items()}


def _pct(x):
    return "n/a" if x is None else f"{100 * x:.1f}%"


def _ci(lo_hi):
    return f"[{100 * lo_hi[0]:.1f}, {100 * lo_hi[1]:.1f}]"


def _row(opponent, r):
    return (f"| {opponent} | {r['games']} | {r['wins']} | {r['draws']} | {r['losses']} | "
            f"{_pct(r['win_rate'])} {_ci(r['win_ci'])} | {_pct(r['decided_win_rate'])} "
            f"{_ci(r['decided_ci'])} | {r['mean_reward']:+.3f} | {r['mean_length']:.0f} |")


def _mean_tail(series, k=10):
    vals = [v for _, v in series[-k:]]
    return sum(vals) / len(vals) if vals else float("nan")


TARGETS = {"dragonhunt": {"heuristic": 0.55}, "dragons_down": {"random": 0.70}, "dragon_pass": {"random": 0.70}}
"""Issue 15's strength targets: ``{game: {opponent: least win rate of the
decided games}}`` over the final evaluation's seat-rotated games."""

SKIPPED_FLAGS = ("progress", "resume", "game_options")
"""Args fields a reproducing command leaves out (``game_options`` is spelled
as the game's own ``--<option> <value>`` flags)."""


def command_flags(run_args):
    """``[(field, value)]`` of the run's :class:`Args` that differ from the
    defaults (the game's options are not among them: :func:`command_line`)."""
    from dataclasses import fields
    from dragongym.training.selfplay import Args
    default = Args()
    return [(f.name, getattr(run_args, f.name)) for f in fields(Args)
            if f.name not in SKIPPED_FLAGS and getattr(run_args, f.name) != getattr(default, f.name)]


def _configuration(run_args):
    """Every option of the configuration the run played (defaults included), ``name=value``."""
    import dragongym
    from dragongym.agents.game_record import config_dict
    game = dragongym.get_game(run_args.game)
    config = config_dict(game.make_config(**run_args.config_options()))
    return ", ".join(f"{k}={v}" for k, v in config.items())


def command_line(run_args):
    """The ``python -m dragongym.training.selfplay ...`` command that launches
    the run again (:func:`command_flags`; booleans as ``--x`` / ``--no-x``)."""
    import shlex
    words = ["python", "-m", "dragongym.training.selfplay"]
    for name, value in command_flags(run_args):
        flag = name.replace("_", "-")
        if isinstance(value, bool):
            words.append(f"--{flag}" if value else f"--no-{flag}")
        elif isinstance(value, (tuple, list)):
            words += [f"--{flag}", *[str(v) for v in value]]
        else:
            words += [f"--{flag}", str(value)]
    for name, value in sorted(run_args.game_options.items()):
        # the game's own options: --<option> <value>, booleans spelled out (True / False)
        words += [f"--{name.replace('_', '-')}", str(value)]
    return " ".join(shlex.quote(w) for w in words)



def _network(args):
    """The run's network in words: runs from before ``Args.policy`` existed
    trained the board network."""
    if args.get("policy", "board") == "layout":
        return "layout network (each observation block by its kind),"
    return "board conv trunk"


def _curriculum_start(args):
    """Where the curriculum's positions begin in their games, in words."""
    after, anneal = args.get("curriculum_after") or 0.0, args.get("curriculum_anneal") or 0
    if anneal:
        return (f", from {100 * after:.0f}% of each game on at first, moved back linearly to its opening "
                f"over {anneal:,} learner decisions: a reverse curriculum")
    return f", from {100 * after:.0f}% of each game on" if after else ""

def run_section(run_dir, out, tag, targets=None):
    """Markdown lines of one run (its curve copied beside ``out`` as
    ``<stem>_<tag>.png``); ``targets``: ``{opponent: least decided-game win
    rate}`` (default: the game's entry of :data:`TARGETS`)."""
    from dataclasses import asdict
    from dragongym.training.selfplay import saved_args
    run_dir, out = Path(run_dir), Path(out)
    run_args = saved_args(json.loads((run_dir / "args.json").read_text()))
    args = asdict(run_args)
    options = run_args.config_options()
    seats = run_args.spec().num_seats
    history = json.loads((run_dir / "history.json").read_text())
    scalars = _scalars(run_dir)
    ends = [h for h in history if h["kind"] == "end"]
    finals = [h for h in history if h["kind"] == "final_eval"]
    evals = [h for h in history if h["kind"] == "eval"]
    updates = [h for h in history if h["kind"] == "update"]
    imitation = [h for h in history if h["kind"] == "imitation"]
    train_seconds = sum(h["train_seconds"] for h in ends)
    first_update = next((h for h in history if h["kind"] == "update"), None)
    if scalars.get("_wall") and first_update is not None:
        # first update's collection time + first to last logged update: robust to a
        # run stopped by hand and finished with --resume
        per_update = first_update["timesteps"] / max(scalars["time/fps"][0][1], 1e-9)
        train_seconds = max(train_seconds, scalars["_wall"][-1] - scalars["_wall"][0] + per_update)
    warm_seconds = sum(h["collect_seconds"] + h["train_seconds"] for h in imitation)
    timesteps = ends[-1]["timesteps"] if ends else 0
    curve = out.parent / f"{out.stem}_{tag}.png"
    from dragongym.training.selfplay import plot_learning_curve
    out.parent.mkdir(parents=True, exist_ok=True)
    plot_learning_curve(history, curve, f"{args['game']}, {seats} seat(s), seed "
                                        f"{args['seed']} ({run_dir.name})")

    start = (f"warm-started by imitating {imitation[0]['teacher']}" if imitation else "from scratch")
    if args.get("init"):
        # a run started from another's network inherits that run's start: its report says which
        start = f"continued from `{args['init']}`"
    if imitation and not timesteps:
        start = f"behaviour cloning of {imitation[0]['teacher']} only, no RL"
    if targets is None:
        targets = TARGETS.get(args["game"], {})
    raw = [h for h in history if h["kind"] == "env_rate"]
    curriculum = (f"- Curriculum: {100 * args['curriculum_share']:.0f}% of the episodes start from a position "
                  f"of `{args['curriculum']}` (every {args['curriculum_every']}th decision of its recorded "
                  f"games" + _curriculum_start(args) + "), the rest from the opening"
                  if args.get("curriculum_share") else None)
    lines = [f"## {args['game']}, {seats} seat(s), {start} (`{run_dir.name}`)", "",
             f"- Command: `{command_line(run_args)}`",
             *[f"- Resumed with {', '.join(f'--{k.replace(chr(95), chr(45))} {v}' for k, v in h['args'].items() if k not in ('resume', 'progress'))}"
               for h in history if h["kind"] == "resume"],
             f"- Training wall time (to the last logged update): {train_seconds / 60:.1f} min; learner decisions: {timesteps:,}; "
             f"PPO updates: {len(updates)}; mean SPS (timesteps / training wall time, evaluations "
             f"included): {timesteps / max(train_seconds, 1e-9):.0f}"
             + (f"; the vector API alone in the same run: {raw[0]['decisions_per_second']:,.0f} decisions/s "
                f"({raw[0]['games']} games, random actions, observations on)" if raw else ""),
             *([f"- Imitation warm start (before the RL clock): {imitation[0]['decisions']:,} decisions of "
                f"{imitation[0]['teacher']} self-play recorded in {imitation[0]['collect_seconds']:.0f} s, "
                f"behaviour cloning {len(imitation[0]['epochs'])} epochs in {imitation[0]['train_seconds']:.0f} s, "
                f"greedy accuracy on the teacher's moves {imitation[0]['epochs'][-1]['accuracy']:.3f}; "
                f"total wall time with the warm start: {(train_seconds + warm_seconds) / 60:.1f} min"]
              if imitation else []),
             f"- Network: {_network(args)} {args['channels']} channels x {args['blocks']} residual "
             f"block(s), MLP width {args['hidden']}; PPO n_envs={args['n_envs']}, n_steps={args['n_steps']}, "
             f"batch={args['batch_size']}, epochs={args['n_epochs']}, lr={args['learning_rate']}, "
             f"gamma={args['gamma']}, ent_coef={args['ent_coef']}, shaping={args['shaping']}",
             f"- League: snapshot every {args['snapshot_every']} updates, {args['league_size']} kept; "
             f"opponent mix self/random/heuristic = {args['mix_self']}/{args['mix_random']}/"
             f"{args['mix_heuristic']}",
             *([curriculum] if curriculum else []),
             f"- Game options: {', '.join(f'{k}={v}' for k, v in sorted(options.items())) or 'the defaults'}"
             f"; the configuration played: {_configuration(run_args)}"
             " (a game truncated at its limit ends with every seat tied: a draw)", ""]

    lines += ["### Final evaluation (seat-rotated, judged by outcomes)", ""]
    if finals:
        f = finals[-1]
        lines += ["| opponent | games | wins | draws | losses | win rate [95% CI] | "
                  "win rate of decided games [95% CI] | mean reward | mean length |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        lines += [_row(o, r) for o, r in f["results"].items()]
        lines.append("")
        for opponent, target in targets.items():
            r = f["results"].get(opponent)
            if r is None:
                continue
            met = r["decided_win_rate"] is not None and r["decided_win_rate"] >= target
            lines.append(f"- Target against {opponent}: at least {100 * target:.0f}% of the decided games -> "
                         f"{'met' if met else 'missed'} ({_pct(r['decided_win_rate'])} of "
                         f"{r['wins'] + r['losses']} decided; {_pct(r['win_rate'])} of all {r['games']}).")
        lines.append("")
    else:
        lines += ["No final evaluation in this run.", ""]

    opponents = sorted({o for h in evals + finals for o in h["results"]}) or ["random"]
    lines += ["### Learning curve", "", f"![learning curve]({curve.name})", "",
              "| learner decisions | " + " | ".join(f"vs {o}: W/D/L" for o in opponents) + " |",
              "| ---: | " + " | ".join("---:" for _ in opponents) + " |"]
    for h in evals:
        cells = []
        for o in opponents:
            r = h["results"].get(o)
            cells.append("-" if r is None else f"{r['wins']}/{r['draws']}/{r['losses']}")
        lines.append(f"| {h['timesteps']:,} | " + " | ".join(cells) + " |")
    lines.append("")

    lines += ["### Training signals (TensorBoard, mean of the last 10 logged values)", "",
              "| scalar | first | last-10 mean |", "| --- | ---: | ---: |"]
    for tag in ("time/fps", "train/approx_kl", "train/clip_fraction", "train/explained_variance",
                "train/entropy_loss", "train/value_loss", "league/win_rate_vs_random",
                "league/win_rate_vs_heuristic", "league/win_rate_vs_self",
                "league/loss_rate_vs_heuristic"):
        if scalars.get(tag):
            lines.append(f"| `{tag}` | {scalars[tag][0][1]:.4g} | {_mean_tail(scalars[tag]):.4g} |")
    lines.append("")
    return lines


def write_report(run_dirs, out, notes=None, title="Self-play training report"):
    """Write the Markdown report of the runs in ``run_dirs`` to ``out`` (curves beside it)."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    runs = [Path(r) for r in ([run_dirs] if isinstance(run_dirs, (str, Path)) else run_dirs)]
    lines = [f"# {title}", "",
             "Generated by `python -m dragongym.training.report " + " ".join(r.as_posix() for r in runs) + "` from "
             "each run's `args.json`, `history.json` and TensorBoard logs; no number in the run sections "
             "is typed by hand.", ""]
    for k, run in enumerate(runs):
        lines += run_section(run, out, f"curve{k}")
    if notes:
        lines += [Path(notes).read_text().rstrip(), ""]
    out.write_text("\n".join(lines))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m dragongym.training.report", description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dirs", nargs="+", help="dragongym.training.selfplay run directories")
    parser.add_argument("--out", default="training/REPORT.md", help="report path (default: %(default)s)")
    parser.add_argument("--notes", default=None, help="Markdown appended as the report's last section")
    args = parser.parse_args(argv)
    for run in args.run_dirs:
        if not (Path(run) / "history.json").exists():
            print(f"report: {run} has no history.json (not a finished run)", file=sys.stderr)
            return 2
    print(write_report(args.run_dirs, args.out, args.notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
