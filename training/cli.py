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
from dragongym.envs.core.options import number_type, parse_game_options


# --- shared pieces -------------------------------------------------------------

def _at_least(lo, kind=int):
    """An argparse type: a number of ``kind`` no less than ``lo``."""
    return number_type(kind, at_least=lo)


def _rollout(text):
    """``--mcts-rollout``: random, heuristic, or a registered agent id."""
    from dragongym.agents import is_agent_id, list_agents
    if text in ("random", "heuristic") or is_agent_id(text):
        return text
    raise argparse.ArgumentTypeError(f"unknown rollout policy {text!r}; use random, heuristic or one of "
                                     f"{', '.join(list_agents())}")


def _value_agent(text):
    """``--mcts-value``: a checkpoint file with a value head (``*.zip``)."""
    import os
    if not text.endswith(".zip"):
        raise argparse.ArgumentTypeError(f"--mcts-value takes a self-play checkpoint (*.zip), not {text!r}")
    if not os.path.isfile(text):
        raise argparse.ArgumentTypeError(f"no checkpoint file {text!r}")
    return text


class GameOptionsParser(argparse.ArgumentParser):
    """A subcommand's parser whose --help ends with every registered game's own
    options (read from each game's configuration, only when help is asked for)."""

    def format_help(self):
        from dragongym.envs.core.config import option_help
        if not self.get_default("game_options"):
            return super().format_help()
        lines = ["", "game options (--name value; names with dashes or underscores):"]
        for name in dragongym.list_games():
            game = dragongym.get_game(name)
            lines.append(f"  {name}:")
            for option, allowed in option_help(game.config_cls).items():
                lines.append(f"    --{option.replace('_', '-')}: {allowed}")
        return super().format_help() + "\n".join(lines) + "\n"


def _add_game_arguments(parser):
    parser.add_argument("--game", default="dragonhunt", choices=dragongym.list_games(),
                        help="game to play (default: %(default)s)")
    parser.add_argument("--players", type=int, default=None,
                        help="the game's num_players option, where it has one (default: one seat "
                             "per agent where the game allows it, else the game's default)")
    parser.add_argument("--seed", type=number_type(int, at_least=0, at_most=2**64 - 1), default=0, help="seed; the same seed replays exactly")
    parser.set_defaults(game_options=True)


def _seated_options(game, players, num_agents, options):
    """:func:`dragongym.envs.core.config.seated_options` (one rule for every command)."""
    from dragongym.envs.core.config import seated_options

    return seated_options(game, players, num_agents, options)


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
    _add_record_arguments(parser)
    parser.set_defaults(run=run_match)


def _add_record_arguments(parser):
    parser.add_argument("--records", default=None, metavar="FILE",
                        help="append each game with all its actions, as it ends, to this game-record "
                             "file (JSON lines; `dragongym replay FILE` checks it, `--to` draws it)")
    parser.add_argument("--record-every", type=_at_least(1), default=1, metavar="K",
                        help="with --records, keep every K-th game only (default: every game)")


def run_match(args, options):
    from dragongym.agents import AgentLoadError, is_agent_id, list_agents, match_table, play_match
    from dragongym.agents.base import split_agent_list
    from dragongym.agents.match import MatchInterrupted
    from tqdm import tqdm

    game = dragongym.get_game(args.game)
    agent_ids = split_agent_list(args.agents) if args.agents else ["random"]
    options, spec = _seated_options(game, args.players, len(agent_ids), options)
    if spec is None:
        return _fail(options)
    num_players = spec.num_seats
    if len(agent_ids) == 1:
        agent_ids = agent_ids * num_players
    if len(agent_ids) != num_players:
        return _fail(f"{len(agent_ids)} agents for {num_players} seats ({', '.join(spec.roles)})")
    unknown = sorted({a for a in agent_ids if not is_agent_id(a)})
    if unknown:
        return _fail(f"unknown agent(s) {', '.join(unknown)}; known: {', '.join(list_agents())}")
    problem = _agents_problem(agent_ids, game)
    if problem:
        return _fail(problem)
    if args.games < 1:
        return _fail("--games must be at least 1")
    if args.records is not None:
        problem = _writable(args.records)
        if problem:
            return _fail(problem)

    try:
        with tqdm(total=args.games, desc="games", unit="game", disable=None, file=sys.stderr) as bar:
            result = play_match(args.game, agent_ids, args.games, seed=args.seed,
                                on_game_end=lambda _: bar.update(), records=args.records,
                                record_every=args.record_every, **options)
    except AgentLoadError as error:
        return _fail(str(error))
    except MatchInterrupted as stop:
        return _interrupted(_match_stopped(args, stop.result.games, stop.num_games))
    except KeyboardInterrupt:
        return _interrupted(_match_stopped(args, [], args.games))

    truncated = sum(g.truncated for g in result.games)
    settings = "".join(f", {k}={v}" for k, v in sorted(options.items()) if k != "num_players")
    seats = ("roles " + ", ".join(spec.roles)) if spec.seats_are_roles else f"{num_players} players"
    print(f"{spec.name} v{spec.version}: {seats}, {args.games} games "
          f"(seats rotated), seed {args.seed}{settings}; {truncated} truncated")
    print(match_table(result))
    return 0


def _agents_problem(agent_ids, game):
    """"" if every agent id can be made for ``game``, else what is wrong with
    the first that cannot (a missing checkpoint, one that is not a checkpoint
    zip, one trained on another game), checked before any game or load."""
    from dragongym.agents import agent_problem

    for agent_id in dict.fromkeys(agent_ids):
        problem = agent_problem(agent_id, game)
        if problem:
            return problem
    return ""


def _interrupted(message):
    """Ctrl-C: one line on stderr (no traceback) and exit status 130 (128 + SIGINT)."""
    print(f"dragongym: interrupted: {message}", file=sys.stderr, flush=True)
    return 130


def _match_stopped(args, finished, num_games):
    """What a match stopped by Ctrl-C keeps: ``finished`` games of ``num_games``."""
    if not finished:
        return f"before the first of {num_games} games ended; nothing was kept"
    text = f"{len(finished)} of {num_games} games had finished"
    if args.records is None:
        return (f"{text}; a match saves no results, so theirs are lost (`dragongym eval --out DIR` keeps "
                f"each game as it ends and can --resume)")
    kept = sum(1 for g in finished if g.index % args.record_every == 0)
    return (f"{text}; the table is not printed, but {args.records} keeps the {kept} finished game(s) it "
            f"records, and nothing else (`dragongym replay {args.records}` checks them)")


def _writable(path):
    """"" if a file can be appended at ``path``, else why not, as ``--records`` (checked before the first game)."""
    from dragongym.agents.match import record_file_problem

    problem = record_file_problem(path)
    return "--" + problem if problem else ""


# --- play ----------------------------------------------------------------------

def add_play(subparsers):
    from dragongym.agents.play import add_play_arguments

    parser = subparsers.add_parser(
        "play", allow_abbrev=False,
        help="play a game against bots, in the terminal or in the browser (--web)",
        description="Play a game against bots: in the terminal (the board, the legal actions by "
                    "number or name, undo, save) or, with --web, in the browser on 127.0.0.1. "
                    "Unknown --options are the game's own (--num-players 3, --scenario 18.2).")
    add_play_arguments(parser)


# --- replay --------------------------------------------------------------------

def add_replay(subparsers):
    parser = subparsers.add_parser(
        "replay", allow_abbrev=False,
        help="replay the games of a game-record file and check each ends as recorded; --to draws one",
        description="Replay every game of a game-record file (written by `match`, `eval` or `play`) "
                    "from its seed and actions, checking that each action was legal for its seat and "
                    "that the end line is the replay's (decisions, ranks, rewards, and the final state's "
                    "digest); prints a line per game. A corrupt or edited record is refused with one "
                    "error line naming the game, the line and what is wrong (exit status 2). "
                    "With --to OUT.gif|OUT.mp4|OUT.html, draws one game (--index) instead.")
    parser.add_argument("file", metavar="FILE", help="the game-record file")
    from dragongym.agents.replay_media import add_replay_media_arguments

    add_replay_media_arguments(parser)
    parser.set_defaults(run=run_replay)


def run_replay(args, options):
    from dragongym.agents.game_record import RecordError, read_records, replay
    from dragongym.agents.replay_media import run_replay_media

    if args.to:
        return run_replay_media(args)
    if args.index or args.seat != "full" or args.fps is not None or args.every is not None:
        return _fail("--index, --seat, --fps and --every choose what --to OUT draws; give --to")

    try:
        records = read_records(args.file)
        for k, record in enumerate(records):
            try:
                replay(record)
            except RecordError as err:
                # the file, the game, and the line where the record read from it is wrong
                raise RecordError(err.located(f"{args.file}, game {k}")) from None
            settings = ", ".join(f"{key}={value}" for key, value in sorted(record.config.items()))
            print(f"game {k}: {record.game} v{record.game_version} ({settings}), seats "
                  f"{', '.join(f'{r}={a}' for r, a in zip(record.roles, record.agents))}: "
                  f"{len(record.actions)} decisions, "
                  + ("unfinished, the position as saved" if record.end.get("unfinished")
                     else f"ranks {record.end.get('ranks')}, final state matches"))
    except RecordError as err:
        return _fail(str(err))
    print(f"{args.file}: {len(records)} game(s) replayed, every final state as recorded")
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
    parser.add_argument("--workers", type=_at_least(1), default=1, help="parallel processes (default: 1)")
    parser.add_argument("--mcts-ms", type=_at_least(1e-3, float), default=None,
                        help="MCTS time budget per decision in ms (default: 200 simulations)")
    parser.add_argument("--mcts-sims", type=_at_least(1), default=None, help="MCTS simulations per decision")
    parser.add_argument("--mcts-rollout", type=_rollout, default="random",
                        help="MCTS rollout policy, also the search prior: random, heuristic (the "
                             "game's heuristic), or any agent id or checkpoint (*.zip) "
                             "(default: %(default)s)")
    parser.add_argument("--mcts-depth", type=_at_least(1), default=None,
                        help="MCTS rollout depth in decisions before the position is scored "
                             "(default: 200)")
    parser.add_argument("--mcts-value", type=_value_agent, default=None,
                        help="a self-play checkpoint (*.zip) whose value head scores MCTS positions at "
                             "the rollout cap (default: the game's own position score)")
    parser.add_argument("--only-games", default=None, metavar="START:STOP",
                        help="play only games START..STOP-1 of the --games schedule (a shard, or the "
                             "rest of an interrupted run); each is the game the full run plays")
    parser.add_argument("--merge", nargs="+", default=None, metavar="DIR",
                        help="play nothing: join the saved shards (their --out directories) of one "
                             "tournament, print the table and write it to --out")
    parser.add_argument("--out", default=None,
                        help="directory for games.jsonl (each game's outcome as it finishes), "
                             "tournament.json/.csv and ratings.png; checked before the first game")
    parser.add_argument("--resume", action="store_true",
                        help="continue the interrupted run whose --out folder is given: play only the "
                             "games its games.jsonl does not hold")
    _add_record_arguments(parser)
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
    seats = (f"{result.num_seats} seats ({', '.join(result.roles)})" if result.seats_are_roles
             else f"{result.num_seats} players")
    print(f"{spec.name} v{spec.version}: {seats}, {len(result.games)} games "
          f"(seats rotated), seed {result.seed}{settings}; {truncated} truncated (draws); "
          f"ratings: {result.rating_system}")
    print(result.table())
    if out:
        result.save(out)
        print(f"wrote {out}/tournament.json, tournament.csv, ratings.png")


def _option_text(value):
    """A game option's value as the command line spells it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def _eval_resume_command(args, options):
    """The command line that resumes this ``eval`` run (its --out folder): the
    same tournament (game, agents, games, seed, players, game ``options`` as
    given), the same players' settings, and ``--resume``."""
    import shlex

    words = ["dragongym", "eval", "--game", args.game, "--agents", args.agents, "--games", str(args.games),
             "--seed", str(args.seed)]
    if args.players is not None:
        words += ["--players", str(args.players)]
    if args.workers != 1:
        words += ["--workers", str(args.workers)]
    for flag, value, default in (("--mcts-ms", args.mcts_ms, None), ("--mcts-sims", args.mcts_sims, None),
                                 ("--mcts-rollout", args.mcts_rollout, "random"),
                                 ("--mcts-depth", args.mcts_depth, None), ("--mcts-value", args.mcts_value, None),
                                 ("--only-games", args.only_games, None)):
        if value is not None and value != default:
            words += [flag, str(value)]
    if args.records is not None:
        words += ["--records", args.records]
        if args.record_every != 1:
            words += ["--record-every", str(args.record_every)]
    words += ["--out", args.out, "--resume"]
    for name, value in options.items():
        words += [f"--{name.replace('_', '-')}", _option_text(value)]
    return shlex.join(words)


def _eval_stopped(args, options, stop):
    """What an ``eval`` stopped by Ctrl-C keeps (``stop``: a KeyboardInterrupt,
    a :class:`TournamentInterrupted` once games were under way)."""
    games = getattr(stop, "games", None)
    if games is None:                               # before the games log was read or written
        return ("before the first game; nothing was played" if not args.resume
                else f"before the first game; {os.path.join(args.out, 'games.jsonl')} is as it was")
    count = f"{len(games)} of {stop.scheduled} games"
    if stop.log is not None:
        return f"{count} finished and are kept in {stop.log}; resume with: {_eval_resume_command(args, options)}"
    text = (f"{count} had finished; without --out nothing is saved, so their results are lost (give --out DIR "
            f"to keep each game as it ends, and --resume)")
    if args.records is not None and games:
        text += f"; {args.records} keeps the game records of those it records"
    return text


def run_eval(args, options):
    from dragongym.agents import AgentLoadError, is_agent_id, list_agents
    from dragongym.agents.base import split_agent_list
    from dragongym.agents.tournament import OutFolderError, load_tournament, merge_tournaments, run_tournament

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
    agent_ids = [a for a in split_agent_list(args.agents) if a]
    unknown = sorted({a for a in agent_ids if not is_agent_id(a)})
    if unknown:
        return _fail(f"unknown agent(s) {', '.join(unknown)}; known: {', '.join(list_agents())}")
    problem = _agents_problem(agent_ids, game)
    if problem:
        return _fail(problem)
    for flag, value in (("--mcts-rollout", args.mcts_rollout), ("--mcts-value", args.mcts_value)):
        problem = _agents_problem([value], game) if value and value not in ("random", "heuristic") else ""
        if problem:
            return _fail(f"{flag}: {problem}")
    given = dict(options)
    options, spec = _seated_options(game, args.players, len(agent_ids), options)
    if spec is None:
        return _fail(options)
    if args.games < 1:
        return _fail("--games must be at least 1")
    if args.workers < 1:
        return _fail("--workers must be at least 1")
    games = None
    if args.only_games is not None:
        games = _parse_game_range(args.only_games, args.games)
        if isinstance(games, str):
            return _fail(games)
    mcts = {"rollout": args.mcts_rollout}
    if args.mcts_ms is not None:
        mcts["time_ms"] = args.mcts_ms
    if args.mcts_sims is not None:
        mcts["simulations"] = args.mcts_sims
    if args.mcts_depth is not None:
        mcts["rollout_depth"] = args.mcts_depth
    if args.mcts_value:
        mcts["value"] = args.mcts_value
    if args.resume and not args.out:
        return _fail("--resume needs the --out folder of the run to resume")
    if args.records is not None and _writable(args.records):
        return _fail(_writable(args.records))
    try:
        result = run_tournament(args.game, agent_ids, args.games, seed=args.seed, workers=args.workers,
                                agent_kwargs={"mcts": mcts}, games=games, out=args.out, resume=args.resume,
                                records=args.records, record_every=args.record_every, **options)
    except OutFolderError as error:
        return _fail(f"--out: {error}")
    except AgentLoadError as error:
        return _fail(str(error))
    except KeyboardInterrupt as stop:
        return _interrupted(_eval_stopped(args, given, stop))
    try:
        _print_tournament(result, args.out)
    except KeyboardInterrupt:
        if not args.out:
            return _interrupted("while printing the results")
        return _interrupted(f"while writing the results; all {len(result.games)} games are kept in "
                            f"{os.path.join(args.out, 'games.jsonl')}; write them with: "
                            f"{_eval_resume_command(args, given)}")
    return 0


# --- ladder --------------------------------------------------------------------

def add_ladder(subparsers):
    parser = subparsers.add_parser(
        "ladder", allow_abbrev=False,
        help="place an agent on a game's reference ladder (random < heuristic < MCTS < learned)",
        description="Play an agent (--agent: an id, a checkpoint *.zip, or package.module:factory) against "
                    "every rung of a game's reference ladder with the ladder's fixed schedule, seeds and seat "
                    "rotation, and print its decided-game win rate against each rung (Wilson 95%% intervals) "
                    "and its OpenSkill rating on the ladder's scale, rated against the rungs' stored ratings. "
                    "--round-robin plays the rungs against each other instead (--write stores the result in "
                    "the package); --list prints every ladder. agents/LADDER.md has the ladders' tables.")
    parser.add_argument("--game", default="dragonhunt", choices=dragongym.list_games(),
                        help="the game (default: %(default)s)")
    parser.add_argument("--config", default=None,
                        help="the ladder's configuration (default: the game's first; --list names them)")
    parser.add_argument("--agent", default=None, help="the agent to place")
    parser.add_argument("--round-robin", action="store_true",
                        help="play every pair of rungs (or, solo, every rung alone) and print the ladder's table")
    parser.add_argument("--write", action="store_true",
                        help="with --round-robin: store its results as the ladder's ratings (agents/ladders/)")
    parser.add_argument("--reuse-stored", action="store_true",
                        help="with --round-robin: take the pairs the stored round robin holds unchanged (the "
                             "same game version, options, schedule and rungs' settings: the same games) from it, "
                             "and play only the others (a new or changed rung's)")
    parser.add_argument("--list", action="store_true", help="list the ladders, their rungs and stored ratings")
    parser.add_argument("--write-markdown", action="store_true",
                        help="rewrite agents/LADDER.md's tables from the stored round robins (plays nothing)")
    parser.add_argument("--games", type=_at_least(1), default=None,
                        help="games per rung (default: the ladder's, 400); fewer play the first games of "
                             "the same schedule")
    parser.add_argument("--workers", type=_at_least(1), default=1, help="parallel processes (default: 1)")
    parser.add_argument("--out", default=None,
                        help="directory: each pairing's games as they finish (one folder per rung) and "
                             "ladder.json at the end; checked before the first game")
    parser.add_argument("--resume", action="store_true",
                        help="continue the interrupted run whose --out folder is given")
    parser.add_argument("--mcts-sims", type=_at_least(1), default=None,
                        help="with --agent mcts: simulations per decision")
    parser.add_argument("--mcts-rollout", type=_rollout, default=None,
                        help="with --agent mcts: rollout policy and prior (random, heuristic, an agent id)")
    parser.add_argument("--mcts-depth", type=_at_least(1), default=None,
                        help="with --agent mcts: rollout depth in decisions")
    parser.set_defaults(run=run_ladder)


def run_ladder(args, options):
    from dragongym.agents import AgentLoadError, is_agent_id, list_agents
    from dragongym.agents import ladder as ladders
    from dragongym.agents.tournament import OutFolderError, TournamentInterrupted

    if args.list:
        for ladder in ladders.LADDERS.values():
            try:
                stored = ladders.load_round_robin(ladder)
            except ladders.LadderError as error:
                stored = None
                why = "no stored round robin yet" if not ladder.file.exists() else str(error).split(";")[0]
            if stored is None:
                rungs, note = ", ".join(r.agent for r in ladder.rungs), f" ({why})"
            elif "scores" in stored:      # solo: the rungs' mean scores
                rungs = ", ".join(f"{r} {ladders.mean_interval(stored['scores'][r])[0]:.2f}" for r in stored["rungs"])
                note = " (mean scores)"
            else:
                rungs = ", ".join(f"{r} {stored['ratings'][r][0]:.1f}" for r in stored["rungs"])
                note = " (OpenSkill mu)"
            print(f"{ladder.id:<26} {ladder.about}: {rungs}{note}")
        return 0
    if args.write_markdown:
        ladders.write_markdown()
        print(f"wrote {ladders.MARKDOWN_FILE.name}")
        return 0
    try:
        ladder = ladders.get_ladder(args.game, args.config)
    except ValueError as error:
        return _fail(str(error))
    if args.write and not args.round_robin:
        return _fail("--write stores a round robin; give --round-robin")
    if args.reuse_stored and not args.round_robin:
        return _fail("--reuse-stored takes a round robin's pairs from the stored one; give --round-robin")
    if args.round_robin == (args.agent is not None):
        return _fail("give --agent SPEC to place an agent, or --round-robin to play the rungs (not both)")
    if args.resume and not args.out:
        return _fail("--resume needs the --out folder of the run to resume")
    mcts = {k: v for k, v in (("simulations", args.mcts_sims), ("rollout", args.mcts_rollout),
                              ("rollout_depth", args.mcts_depth)) if v is not None}
    if mcts and args.agent != "mcts":
        return _fail("--mcts-sims, --mcts-rollout and --mcts-depth set the agent mcts; give --agent mcts")
    game = dragongym.get_game(args.game)
    if args.agent is not None:
        if not is_agent_id(args.agent):
            return _fail(f"unknown agent {args.agent}; known: {', '.join(list_agents())}, a checkpoint (*.zip) "
                         f"or package.module:factory")
        problem = _agents_problem([args.agent], game)
        if problem:
            return _fail(problem)
    if args.out and os.path.isfile(args.out):
        return _fail(f"--out {args.out} is a file; give a directory")
    log = lambda line: print(line, file=sys.stderr, flush=True)      # noqa: E731
    try:
        if args.round_robin:
            data = ladders.round_robin(ladder, args.games, args.workers, args.out, args.resume, log=log,
                                       reuse=args.reuse_stored)
            print(f"ladder {ladder.id} ({ladder.about}): round robin, {data['games']} games "
                  f"{'a rung, alone' if ladder.solo else 'a pair'}, seed {ladder.seed}")
            print(ladders.round_robin_table(ladder, data))
            if args.write:
                if data["games"] != ladder.games:
                    return _fail(f"--write stores the ladder's own schedule ({ladder.games} games a pair), "
                                 f"not {data['games']}")
                # the command that plays this round robin again (where its games are kept, how many
                # processes and whether it was resumed change nothing in it)
                path = ladders.save_round_robin(ladder, data, f"dragongym ladder --game {ladder.game} --config "
                                                              f"{ladder.config} --round-robin --write")
                ladders.write_markdown()
                print(f"wrote {path.name} and {ladders.MARKDOWN_FILE.name}'s tables")
            if args.out:
                with open(os.path.join(args.out, "round_robin.json"), "w") as f:
                    import json
                    json.dump(data, f, indent=1)
            return 0
        placement = ladders.place(ladder, args.agent, args.games, args.workers, args.out, args.resume,
                                  agent_kwargs={"mcts": mcts} if mcts else None, log=log)
    except ladders.LadderError as error:
        return _fail(str(error))
    except OutFolderError as error:
        return _fail(f"--out: {error}")
    except AgentLoadError as error:
        return _fail(str(error))
    except (TournamentInterrupted, KeyboardInterrupt):
        resume = _ladder_command(args) + ("" if args.resume else " --resume")
        return _interrupted(f"the finished games are kept in {args.out}; resume with: {resume}" if args.out
                            else "without --out nothing is kept (give --out DIR to keep each game and --resume)")
    print(placement.table())
    if args.out:
        import json
        with open(os.path.join(args.out, "ladder.json"), "w") as f:
            json.dump(placement.as_dict(), f, indent=1)
        print(f"wrote {os.path.join(args.out, 'ladder.json')}")
    return 0


def _ladder_command(args):
    """The ``dragongym ladder`` command line of ``args`` (for a ladder file, and to resume)."""
    import shlex

    words = ["dragongym", "ladder", "--game", args.game]
    if args.config:
        words += ["--config", args.config]
    if args.agent:
        words += ["--agent", args.agent]
    if args.round_robin:
        words.append("--round-robin")
    for flag, value in (("--games", args.games), ("--mcts-sims", args.mcts_sims), ("--mcts-rollout", args.mcts_rollout),
                        ("--mcts-depth", args.mcts_depth)):
        if value is not None:
            words += [flag, str(value)]
    if args.workers != 1:
        words += ["--workers", str(args.workers)]
    if args.out:
        words += ["--out", args.out]
    if args.resume:
        words.append("--resume")
    if args.write:
        words.append("--write")
    return shlex.join(words)


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


# --- exploit -------------------------------------------------------------------

def add_exploit(subparsers):
    from dragongym.training.exploit import CURRICULUM_GAMES, DEFAULT_DECISIONS, DEFAULT_GAMES

    parser = subparsers.add_parser(
        "exploit", allow_abbrev=False,
        help="train a best response against a frozen agent and report its win rate (95%% CI)",
        description="How exploitable is an agent? Freeze it, train a fresh learner against it alone "
                    "(the self-play trainer with the recipe of the game's learned rungs and a reverse curriculum of "
                    "the agent's own games, the agent in every other seat, a fixed "
                    "budget of learner decisions), then play seat-rotated games of that best response "
                    "against it and print the best response's win rate over the decided games with "
                    "its Wilson 95% interval: a lower bound on how exploitable the agent is. "
                    "Unknown --options are passed to the game.")
    _add_game_arguments(parser)
    parser.add_argument("--agent", default=None,
                        help="(required) the agent to exploit: an agent id, with options as mcts:simulations=16,"
                             "rollout=heuristic,rollout_depth=10; a checkpoint (*.zip); or "
                             "package.module:factory")
    parser.add_argument("--decisions", type=_at_least(1), default=DEFAULT_DECISIONS,
                        help="the best response's training budget in learner decisions "
                             "(default: %(default)s)")
    parser.add_argument("--config", default=None,
                        help="play in the game options of this ladder configuration (`dragongym ladder "
                             "--list`: 2p, 2-open, 18.2 ...), the ones its ratings were measured in; "
                             "instead of --players and the game's options")
    parser.add_argument("--curriculum-games", type=_at_least(0), default=CURRICULUM_GAMES,
                        help="games of the agent against itself, recorded first, whose positions start half "
                             "of the best response's episodes, near their ends at first (a reverse "
                             "curriculum); 0: every episode from the opening (default: %(default)s)")
    parser.add_argument("--games", type=_at_least(1), default=DEFAULT_GAMES,
                        help="evaluation games of the best response against the agent (default: %(default)s)")
    parser.add_argument("--workers", type=_at_least(1), default=1,
                        help="processes for the evaluation games (default: 1)")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="keep the run here: train/ (the best response, train/final.zip), eval/ (its "
                             "games), exploit.json (agent, game, options, budget, seed, result, times); "
                             "default: a temporary folder, removed")
    parser.add_argument("--resume", action="store_true",
                        help="continue the interrupted run whose --out folder is given")
    parser.set_defaults(run=run_exploit)


def run_exploit(args, options):
    from dragongym.training.exploit import ExploitError, exploit, exploit_problem

    if not args.agent:
        return _fail("exploit needs --agent, the agent to exploit (an agent id, a checkpoint, "
                     "package.module:factory)")
    game = dragongym.get_game(args.game)
    if args.config is not None:
        from dragongym.agents.ladder import get_ladder
        if options or args.players is not None:
            return _fail("--config sets the game options of a ladder configuration; give it or --players "
                         "and the game's options, not both")
        try:
            options = get_ladder(args.game, args.config).option_dict
        except ValueError as error:
            return _fail(str(error))
    options, spec = _seated_options(game, args.players, 2, options)
    if spec is None:
        return _fail(options)
    problem = exploit_problem(args.game, args.agent, options)
    if problem:
        return _fail(problem)
    if args.resume and not args.out:
        return _fail("--resume needs the --out folder of the run to resume")
    log = lambda line: print(f"exploit: {line}", file=sys.stderr, flush=True)
    try:
        result = exploit(args.game, args.agent, decisions=args.decisions, seed=args.seed, games=args.games,
                         workers=args.workers, out=args.out, resume=args.resume, log=log,
                         curriculum_games=args.curriculum_games, **options)
    except ExploitError as error:
        return _fail(str(error))
    except KeyboardInterrupt:
        if not args.out:
            return _interrupted("without --out nothing is kept")
        return _interrupted(f"{args.out} keeps what was trained and played; continue with the same command "
                            f"and --resume")
    print(result.summary())
    if args.out:
        print(f"wrote {os.path.join(args.out, 'exploit.json')}; the best response is "
              f"{os.path.join(args.out, 'train', 'final.zip')}")
    return 0


# --- warm ----------------------------------------------------------------------

def add_warm(subparsers):
    parser = subparsers.add_parser(
        "warm", allow_abbrev=False,
        help="compile every game's numba code into the cache ahead of time",
        description="Run every compiled entry point of the named games (default: every "
                    "registered game) once, so that numba compiles it into the cache now "
                    "rather than at the first make/make_vec/match. Prints one line per entry "
                    "point (seconds; 'cached' where nothing had to be compiled) to stderr and "
                    "where the cache is. A second run only loads from the cache.")
    parser.add_argument("games", nargs="*", metavar="GAME",
                        help="registered game ids (default: all of them)")
    parser.set_defaults(run=run_warm)


def run_warm(args, options):
    from numba import config as numba_config

    from dragongym.envs.core import jitcache

    names = args.games or dragongym.list_games()
    unknown = sorted(set(names) - set(dragongym.list_games()))
    if unknown:
        return _fail(f"unknown game(s) {', '.join(unknown)}; known: {', '.join(dragongym.list_games())}")
    if numba_config.DISABLE_JIT:
        print("dragongym warm: NUMBA_DISABLE_JIT is set: the entry points run as plain Python "
              "and nothing is compiled", file=sys.stderr, flush=True)
    for name in names:
        game = dragongym.get_game(name)

        def starting(entry):
            print(f"{name}  {entry:<24}", end="", file=sys.stderr, flush=True)

        def done(entry, seconds, compiled):
            how = "plain Python" if numba_config.DISABLE_JIT else "compiled" if compiled else "cached"
            print(f"{seconds:7.1f} s  {how}", file=sys.stderr, flush=True)

        results, folder = jitcache.warm(game, log=done, on_start=starting)
        total = sum(seconds for _, seconds, _ in results)
        where = (f"cached in {folder}" if folder is not None
                 else "cached where numba puts it by default (beside its sources)")
        if not results:
            print(f"{name}: no compiled entry points", file=sys.stderr, flush=True)
        else:
            print(f"{name}: {len(results)} entry points in {total:.1f} s; compiled code {where}",
                  file=sys.stderr, flush=True)
    return 0


# --- entry point -----------------------------------------------------------------

SUBCOMMANDS = [add_match, add_play, add_replay, add_bench, add_eval, add_ladder, add_exploit, add_train, add_warm]
"""Adders of the subcommands, in the order ``--help`` lists them."""


def _fail(message):
    print(f"dragongym: error: {message}", file=sys.stderr)
    return 2


def build_parser():
    parser = argparse.ArgumentParser(
        prog="dragongym", allow_abbrev=False,
        description="Board games as multi-agent RL environments.")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                       parser_class=GameOptionsParser)
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
            # each value is read as the type of the game's option of that name
            game = dragongym.get_game(args.game) if getattr(args, "game", None) else None
            options = parse_game_options(extra, game)
        except (ValueError, ImportError, AttributeError) as error:
            parser.error(str(error))
    return args.run(args, options)


if __name__ == "__main__":
    sys.exit(main())
