"""The ``dragongym`` command line.

    dragongym match --game dragonhunt --players 3 --agents random --games 12 --seed 0 --max-hands 4

Options the command does not know (``--max-hands 4``, ``--auto-single false``)
are the game's own options: dashes become underscores and the game's
``make_config`` validates them.

Adding a subcommand (eval, bench, train): write ``add_<name>(subparsers)``,
which declares the arguments and sets ``run`` (and ``game_options=True`` if it
takes game options) with ``set_defaults``, and ``run_<name>(args, options)``,
which calls into ``agents``/``training`` code and prints; then list the adder
in :data:`SUBCOMMANDS`. The work itself lives in library modules so scripts and
tests can call it without the CLI.
"""
import argparse
import os
import sys

import dragongym


# --- shared pieces -------------------------------------------------------------

def parse_game_options(tokens):
    """``["--max-hands", "4", "--auto-single=false"]`` -> ``{"max_hands": 4, "auto_single": False}``."""
    options = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if not token.startswith("--") or token == "--":
            raise ValueError(f"unexpected argument {token!r}")
        name, eq, value = token[2:].partition("=")
        if not eq:
            if i + 1 >= len(tokens) or tokens[i + 1].startswith("--"):
                raise ValueError(f"game option --{name} needs a value")
            i += 1
            value = tokens[i]
        options[name.replace("-", "_")] = _parse_value(value)
        i += 1
    return options


def _parse_value(text):
    lowered = text.lower()
    if lowered in ("true", "yes", "on"):
        return True
    if lowered in ("false", "no", "off"):
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def format_table(headers, rows):
    """Plain-text table: first column left-aligned, the others right-aligned."""
    cells = [list(headers)] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[k]) for row in cells) for k in range(len(headers))]
    lines = []
    for row in cells:
        parts = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(parts))
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _add_game_arguments(parser):
    parser.add_argument("--game", default="dragonhunt", choices=dragongym.list_games(),
                        help="game to play (default: %(default)s)")
    parser.add_argument("--players", type=int, default=None,
                        help="number of seats (default: one per agent, else the game's minimum)")
    parser.add_argument("--seed", type=int, default=0, help="seed; the same seed replays exactly")
    parser.set_defaults(game_options=True)


def _check_game_options(game, num_players, options):
    """The game's ``make_config`` on the options, as a readable error string or None."""
    try:
        game.make_config(num_players=num_players, **options)
    except (TypeError, ValueError) as error:
        return f"invalid option for {game.spec.name}: {error}"
    return None


# --- match ---------------------------------------------------------------------

def add_match(subparsers):
    parser = subparsers.add_parser(
        "match", allow_abbrev=False,
        help="play a seat-rotated match between agents and print a result table",
        description="Play a seat-rotated match between agents (game i rotates the agent "
                    "list by i seats). Unknown --options are passed to the game.")
    _add_game_arguments(parser)
    parser.add_argument("--agents", default=None,
                        help="comma-separated agent ids, one per seat, or one id for every seat "
                             "(default: random)")
    parser.add_argument("--games", type=int, default=12, help="games to play (default: %(default)s)")
    parser.set_defaults(run=run_match)


def run_match(args, options):
    from dragongym.agents import is_agent_id, list_agents, play_match
    from tqdm import tqdm

    game = dragongym.get_game(args.game)
    agent_ids = args.agents.split(",") if args.agents else None
    num_players = args.players or (len(agent_ids) if agent_ids and len(agent_ids) > 1
                                   else game.spec.min_players)
    if agent_ids is None:
        agent_ids = ["random"]
    if len(agent_ids) == 1:
        agent_ids = agent_ids * num_players
    if len(agent_ids) != num_players:
        return _fail(f"{len(agent_ids)} agents for {num_players} players")
    unknown = sorted({a for a in agent_ids if not is_agent_id(a)})
    if unknown:
        return _fail(f"unknown agent(s) {', '.join(unknown)}; known: {', '.join(list_agents())}")
    if args.games < 1:
        return _fail("--games must be at least 1")
    error = _check_game_options(game, num_players, options)
    if error:
        return _fail(error)

    with tqdm(total=args.games, desc="games", unit="game", disable=None, file=sys.stderr) as bar:
        result = play_match(args.game, agent_ids, args.games, seed=args.seed,
                            num_players=num_players, on_game_end=lambda _: bar.update(), **options)

    truncated = sum(g.truncated for g in result.games)
    settings = "".join(f", {k}={v}" for k, v in sorted(options.items()))
    print(f"{game.spec.name} v{game.spec.version}: {num_players} players, {args.games} games "
          f"(seats rotated), seed {args.seed}{settings}; {truncated} truncated")
    rows = [(s.label, s.games, s.wins, s.draws, f"{100 * s.win_rate:.1f}%", f"{s.mean_reward:+.3f}",
             f"{s.mean_length:.1f}") for s in result.stats]
    print(format_table(("agent", "games", "wins", "draws", "win rate", "mean reward", "mean length"),
                       rows))
    return 0


# --- bench ---------------------------------------------------------------------

def add_bench(subparsers):
    from dragongym.benchmarks import throughput

    parser = subparsers.add_parser(
        "bench", allow_abbrev=False,
        help="measure random-play decisions/s (AEC, vector API, bare core; peers with --peers)",
        description="Random-legal-play throughput of every registered game through the "
                    "PettingZoo AEC loop, the vector API at several batch sizes (with and "
                    "without observations, 1 and 2 threads) and the bare compiled core; "
                    "writes throughput.json, .md and .png to --out.")
    throughput.add_arguments(parser)
    parser.set_defaults(run=run_bench)


def run_bench(args, options):
    from dragongym.benchmarks import throughput

    if args.games:
        unknown = sorted(set(args.games.split(",")) - set(dragongym.list_games()))
        if unknown:
            return _fail(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(dragongym.list_games())}")
    throughput.run(args, log=lambda line: print(line, file=sys.stderr, flush=True))
    return 0


# --- eval ----------------------------------------------------------------------

def add_eval(subparsers):
    parser = subparsers.add_parser(
        "eval", allow_abbrev=False,
        help="seat-rotated tournament with win rates (95%% CI) and OpenSkill ratings",
        description="Play a seat-rotated tournament between agents (every lineup of --players "
                    "agents, every seat rotation) and print win rates with Wilson 95%% "
                    "intervals, decided-game win rates, mean reward, mean length and OpenSkill "
                    "ratings; writes JSON, CSV and a PNG to --out. Unknown --options are "
                    "passed to the game.")
    _add_game_arguments(parser)
    parser.add_argument("--agents", default="random,random",
                        help="comma-separated agent ids or checkpoint paths (default: %(default)s)")
    parser.add_argument("--games", type=int, default=100, help="games to play (default: %(default)s)")
    parser.add_argument("--workers", type=int, default=1, help="parallel processes (default: 1)")
    parser.add_argument("--mcts-ms", type=float, default=None,
                        help="MCTS time budget per decision in ms (default: 200 simulations)")
    parser.add_argument("--mcts-sims", type=int, default=None, help="MCTS simulations per decision")
    parser.add_argument("--mcts-rollout", default="random",
                        help="MCTS rollout policy: random, or heuristic (the game's heuristic, also "
                             "used as the search prior) (default: %(default)s)")
    parser.add_argument("--mcts-depth", type=int, default=None,
                        help="MCTS rollout depth in decisions before the position is scored "
                             "(default: 200)")
    parser.add_argument("--only-games", default=None, metavar="START:STOP",
                        help="play only games START..STOP-1 of the --games schedule (a shard, or the "
                             "rest of an interrupted run); each is the game the full run plays")
    parser.add_argument("--merge", nargs="+", default=None, metavar="DIR",
                        help="play nothing: join the saved shards (their --out directories) of one "
                             "tournament, print the table and write it to --out")
    parser.add_argument("--out", default=None, help="directory for tournament.json/.csv and ratings.png")
    parser.set_defaults(run=run_eval)


def _parse_game_range(text, num_games):
    """``"START:STOP"`` -> ``range(START, STOP)`` inside ``0..num_games``, or an error string."""
    try:
        start, stop = (int(x) for x in text.split(":"))
    except ValueError:
        return f"--only-games must be START:STOP (two integers), got {text!r}"
    if not 0 <= start < stop <= num_games:
        return f"--only-games {text} must satisfy 0 <= START < STOP <= --games ({num_games})"
    return range(start, stop)


def _print_tournament(result, out):
    settings = "".join(f", {k}={v}" for k, v in sorted(result.config.items()))
    truncated = sum(g.truncated for g in result.games)
    spec = dragongym.get_game(result.game).spec
    print(f"{spec.name} v{spec.version}: {result.num_players} players, {len(result.games)} games "
          f"(seats rotated), seed {result.seed}{settings}; {truncated} truncated (draws); "
          f"ratings: {result.rating_system}")
    print(result.table())
    if out:
        result.save(out)
        print(f"wrote {out}/tournament.json, tournament.csv, ratings.png")


def run_eval(args, options):
    from dragongym.agents import is_agent_id, list_agents
    from dragongym.agents.tournament import load_tournament, merge_tournaments, run_tournament

    if args.merge:
        missing = [d for d in args.merge if not os.path.exists(os.path.join(d, "tournament.json"))]
        if missing:
            return _fail(f"no tournament.json in {', '.join(missing)}")
        try:
            result = merge_tournaments(load_tournament(d) for d in args.merge)
        except ValueError as e:
            return _fail(str(e))
        _print_tournament(result, args.out)
        return 0
    game = dragongym.get_game(args.game)
    agent_ids = [a for a in args.agents.split(",") if a]
    unknown = sorted({a for a in agent_ids if not is_agent_id(a)})
    if unknown:
        return _fail(f"unknown agent(s) {', '.join(unknown)}; known: {', '.join(list_agents())}")
    num_players = args.players or min(max(len(agent_ids), game.spec.min_players), game.spec.max_players)
    if args.games < 1:
        return _fail("--games must be at least 1")
    if args.workers < 1:
        return _fail("--workers must be at least 1")
    games = None
    if args.only_games is not None:
        games = _parse_game_range(args.only_games, args.games)
        if isinstance(games, str):
            return _fail(games)
    error = _check_game_options(game, num_players, options)
    if error:
        return _fail(error)
    mcts = {"rollout": args.mcts_rollout}
    if args.mcts_ms is not None:
        mcts["time_ms"] = args.mcts_ms
    if args.mcts_sims is not None:
        mcts["simulations"] = args.mcts_sims
    if args.mcts_depth is not None:
        mcts["rollout_depth"] = args.mcts_depth
    result = run_tournament(args.game, agent_ids, args.games, num_players=num_players, seed=args.seed,
                            workers=args.workers, agent_kwargs={"mcts": mcts}, games=games, **options)
    _print_tournament(result, args.out)
    return 0


# --- train ---------------------------------------------------------------------

def add_train(subparsers):
    parser = subparsers.add_parser(
        "train", add_help=False, allow_abbrev=False,
        help="self-play MaskablePPO against a league (dragongym.training.selfplay; --help for its options)",
        description="Self-play training; every argument goes to dragongym.training.selfplay.")
    parser.add_argument("rest", nargs=argparse.REMAINDER)
    parser.set_defaults(run=run_train, passthrough=True)


def run_train(args, options):
    from dragongym.training import selfplay
    return selfplay.main(args.rest, prog="dragongym train")


# --- entry point -----------------------------------------------------------------

SUBCOMMANDS = [add_match, add_bench, add_eval, add_train]
"""Adders of the subcommands, in the order ``--help`` lists them."""


def _fail(message):
    print(f"dragongym: error: {message}", file=sys.stderr)
    return 2


def build_parser():
    parser = argparse.ArgumentParser(
        prog="dragongym", allow_abbrev=False,
        description="Board games as multi-agent RL environments.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for add in SUBCOMMANDS:
        add(subparsers)
    return parser


def main(argv=None):
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if getattr(args, "passthrough", False):
        # every token after the subcommand belongs to the script behind it
        tokens = list(sys.argv[1:] if argv is None else argv)
        args.rest = tokens[tokens.index(args.command) + 1:]
        return args.run(args, {})
    options = {}
    if extra:
        if not getattr(args, "game_options", False):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        try:
            options = parse_game_options(extra)
        except ValueError as error:
            parser.error(str(error))
    return args.run(args, options)


if __name__ == "__main__":
    sys.exit(main())
