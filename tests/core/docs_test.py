"""The README and the pages of ``docs/`` say what the code does.

* Every fenced ``python`` block runs (in this process, in a fresh namespace and
  an empty temporary folder), and what a ``print(...)  # shown`` says it shows
  is in its output.
* Every command (``dragongym ...``, ``.venv/bin/...``, ``python -m ...``, in a
  command block or inline) is in :data:`COMMANDS`: run for real in a temporary
  folder (exit 0, and the parts of its output the docs rely on), parsed by the
  project's own argument parsers (commands too long for a test: a renamed or
  removed flag, or an option the game does not have, fails), or exempt with the
  reason. A command in none of them fails, and so does an entry no page has any
  more.
* The figures and tables are the code's: action counts, observation sizes and
  layouts, options with their defaults and what they allow, the seats of each
  game, the status table, the agent ids, the reward rules (played out in real
  games), the signatures the docs quote, and every link.

The extraction of snippets, commands and tables is ``tests/core/docs_snippets.py``.
Games compile once per process (from the numba cache in seconds when warm).
"""
import argparse
import ast
import contextlib
import dataclasses
import importlib
import inspect
import io
import re
import subprocess
import sys

import numpy as np
import pytest

import dragongym
from tests.core import docs_snippets as D

ROOT = D.ROOT
GAMES = ("dragonhunt", "dragons_down", "dragon_pass")
GAME_NAMES = {"dragonhunt": "Dragonhunt", "dragons_down": "Dragons Down", "dragon_pass": "Dragon Pass"}

RUN, PARSE, EXEMPT = "run", "parse", "exempt"

# ------------------------------------------------------------------ the commands
# key (the command's words joined by single spaces, comments dropped) ->
#   (RUN, parts of the output it must show), (PARSE, why it is not run) or
#   (EXEMPT, why it is neither run nor parsed)

LONG_EVAL = "plays hundreds of games (minutes); parsed"
PLAY = "interactive: waits for a person at the terminal or serves a page until stopped; parsed"
WARM = "compiles every entry point: 1-2 minutes per game from an empty cache; parsed"
BENCH = "a full benchmark: minutes (and the peers extra); parsed"
PLACEHOLDER = "names a file or folder of the user's (FILE, DIR, runs/<run>); parsed"
BARE = "the subcommand named in prose, with its defaults; parsed"
RLLIB = "Ray RLlib training: a Ray instance, minutes to hours; parsed by the script's own parser"

COMMANDS = {
    # README: Quickstart (CI runs these two lines as they are)
    "python3 -m venv .venv": (EXEMPT, "creates the virtual environment the tests already run in"),
    ".venv/bin/pip install -e .": (EXEMPT, "pip install: the package is installed already"),
    ".venv/bin/pip install -e .[dev]": (EXEMPT, "pip install: the package is installed already"),
    ".venv/bin/python -m pytest": (EXEMPT, "the whole suite, of which this test is a part"),
    ".venv/bin/dragongym match --game dragonhunt --agents random,dragonhunt.heuristic --games 12": (
        RUN, ("dragonhunt v", "12 games (seats rotated)", "random", "dragonhunt.heuristic", "win rate")),
    # README: usage
    "dragongym match --game dragonhunt --players 4 --agents random --games 24 --seed 1 --max-hands 6": (
        RUN, ("4 players, 24 games (seats rotated), seed 1", "max_hands=6", "random#0", "random#3",
              "mean reward", "mean length")),
    "dragongym eval --game dragonhunt --agents random,dragonhunt.heuristic --games 8 --max-hands 4 "
    "--out results/eval": (RUN, ("8 games", "results/eval/tournament.json")),
    "dragongym train --game dragonhunt --seed 0 --max-minutes 95 --max-hands 20": (
        PARSE, "trains for 95 minutes; parsed by the trainer's parser"),
    "dragongym match --game dragonhunt --agents dragonhunt.heuristic,random --games 2 --max-hands 4 "
    "--records games.jsonl": (RUN, ("2 games",)),
    "dragongym replay games.jsonl": (RUN, ("replayed",)),
    "dragongym replay games.jsonl --to game.html": (RUN, ("game.html",)),
    "dragongym play --game dragon_pass --scenario 18.2 --seat sartar --web": (PARSE, PLAY),
    "dragongym warm": (PARSE, WARM),
    "dragongym ladder --game dragonhunt --config 2p --agent SPEC": (PARSE, PLACEHOLDER),
    "dragongym ladder --list": (RUN, ("dragonhunt/2p", "dragon_pass/18.8")),
    "dragongym ladder --game dragonhunt --config 2p --agent runs/<run>/final.zip --workers 2 --out results/ladder": (
        PARSE, PLACEHOLDER),
    # docs/agents.md
    "dragongym match --game dragonhunt --agents dragonhunt.heuristic,random --games 4 --max-hands 2 "
    "--records games.jsonl": (RUN, ("4 games",)),
    "dragongym replay games.jsonl --to game.mp4 --index 2": (RUN, ("game.mp4",)),
    "dragongym replay games.jsonl --to game.gif --every 5 --seat player_1": (RUN, ("game.gif",)),
    "dragongym eval --game dragonhunt --agents random,dragonhunt.heuristic,mcts --games 400 --players 2 "
    "--workers 2 --mcts-ms 50 --max-hands 20 --out results/eval": (PARSE, LONG_EVAL),
    "dragongym eval --game dragonhunt --agents mcts,dragonhunt.heuristic --games 2 --players 2 --mcts-sims 4 "
    "--mcts-depth 5 --mcts-rollout training/checkpoints/dragonhunt_2p_reverse_curriculum_s0.zip --max-hands 2": (
        RUN, ("2 games", "mcts")),
    "dragongym eval --game dragonhunt --agents random,dragonhunt.heuristic --games 4 --max-hands 2 "
    "--only-games 0:2 --out shard0": (RUN, ("shard0/tournament.json",)),
    "dragongym eval --game dragonhunt --agents random,dragonhunt.heuristic --games 4 --max-hands 2 "
    "--only-games 2:4 --out shard1": (RUN, ("shard1/tournament.json",)),
    "dragongym eval --merge shard0 shard1 --out full": (RUN, ("4 games", "full/tournament.json")),
    "dragongym play --game dragonhunt --num-players 3 --opponents mcts,dragonhunt.heuristic": (PARSE, PLAY),
    "dragongym eval": (PARSE, BARE),
    "python docs/make_pictures.py": (EXEMPT, "rewrites the shipped docs/pictures and docs/replays from bot "
                                             "games (minutes); the drawing is tested in tests/*/picture_test.py"),
    "dragongym eval --merge DIR1 DIR2 --out DIR": (PARSE, PLACEHOLDER),
    "dragongym bench --pictures": (PARSE, BENCH),
    "dragongym replay FILE": (PARSE, PLACEHOLDER),
    # docs/api.md
    "dragongym match --help": (RUN, ("game options", "dragon_pass:", "--scenario", "--terrain-packs",
                                     "--max-hands")),
    # docs/determinism.md
    "dragongym match": (PARSE, BARE),
    # docs/development.md
    "apt-get install chromium": (EXEMPT, "a system package (the browser tests' chromium)"),
    "pip install -e .[distributed]": (EXEMPT, "pip install of an extra"),
    "pip install -e .[peers]": (EXEMPT, "pip install of an extra"),
    "python3 ../shared/tools/rules_coverage.py": (EXEMPT, "a tool outside this repository"),
    # docs/distributed.md
    ".venv/bin/pip install -e .[distributed]": (EXEMPT, "pip install of an extra"),
    ".venv/bin/python -m dragongym.training.rllib_selfplay --game dragonhunt --num-players 2 --iterations 200 "
    "--num-env-runners 2 --num-cpus 2 --max-hands 20 --out-dir runs/rllib": (PARSE, RLLIB),
    ".venv/bin/ray start --head --node-ip-address=127.0.0.1 --num-cpus 2": (EXEMPT, "starts a Ray cluster"),
    ".venv/bin/python -m dragongym.training.rllib_selfplay --address auto --game dragonhunt --num-players 2 "
    "--iterations 200 --num-env-runners 1 --max-hands 20 --out-dir runs/rllib": (PARSE, RLLIB),
    ".venv/bin/ray stop": (EXEMPT, "stops a Ray cluster"),
    "ray start --head --port=6379": (EXEMPT, "starts a Ray cluster's head node"),
    "ray start --address=HEAD_IP:6379": (EXEMPT, "joins a Ray cluster"),
    "python -m dragongym.training.rllib_selfplay --address auto --game dragonhunt --num-players 2 "
    "--num-env-runners 30 --max-hands 20 --out-dir runs/rllib": (PARSE, RLLIB),
    "python -m dragongym.training.rllib_selfplay --address HEAD_IP:6379 --game dragonhunt --num-players 2 "
    "--num-env-runners 30 --max-hands 20 --out-dir runs/rllib": (PARSE, RLLIB),
    "dragongym eval --game dragonhunt --agents runs/rllib/policy.rllib.pt,random --games 4 --players 2 "
    "--max-hands 20": (RUN, ("4 games", "runs/rllib/policy.rllib.pt")),
    # docs/dragonhunt.md
    "python -m dragongym.benchmarks.game_length --game dragonhunt --games 400 --limit 60": (
        PARSE, "400 heuristic games (minutes); parsed"),
    # docs/performance.md
    "dragongym warm dragonhunt dragons_down dragon_pass": (PARSE, WARM),
    ".venv/bin/pip install -e .[peers]": (EXEMPT, "pip install of an extra"),
    ".venv/bin/dragongym bench --peers": (PARSE, BENCH),
    ".venv/bin/python -m dragongym.benchmarks.peers": (PARSE, BENCH),
    ".venv/bin/dragongym bench --quick": (RUN, ("decisions/s", "dragonhunt", "dragons_down", "dragon_pass")),
    "dragongym warm [GAME ...]": (PARSE, "the command's synopsis; " + WARM),
    "dragongym warm dragonhunt": (PARSE, WARM),
    "dragongym warm dragon_pass": (PARSE, WARM),
    "dragongym bench --games dragons_down": (PARSE, BENCH),
    "python -m dragongym.benchmarks.phase_profile --game dragons_down": (PARSE, BENCH),
    ".venv/bin/python -m dragongym.benchmarks.trainer_cpu --out trainer.json -- --game dragonhunt "
    "--total-timesteps 65536 --seed 0 --eval-every 0 --final-eval-games 0 --env-rate-seconds 0 --no-progress "
    "--torch-threads 1": (PARSE, "trains for a minute; parsed"),
    "python -m dragongym.benchmarks.compile_profile --game dragons_down": (PARSE, BENCH),
    "python -m dragongym.benchmarks.acting_forward --game dragons_down": (PARSE, BENCH),
    "python -m dragongym.benchmarks.phase_profile --game dragon_pass": (PARSE, BENCH),
    "python -m dragongym.benchmarks.phase_profile --game dragon_pass --games 8": (PARSE, BENCH),
    "python -m dragongym.benchmarks.compile_profile --game dragon_pass": (PARSE, BENCH),
    "dragongym bench --peers": (PARSE, BENCH),
    "dragongym bench --peers --games dragons_down": (PARSE, BENCH),
    "dragongym bench --peers --games dragon_pass": (PARSE, BENCH),
    # docs/training.md
    "dragongym train --game dragonhunt --total-timesteps 512 --n-envs 8 --n-steps 32 --batch-size 128 "
    "--eval-every 0 --final-eval-games 0 --env-rate-seconds 0 --max-hands 2": (
        RUN, ("run directory: runs/dragonhunt_s0_",)),
    "dragongym eval --game dragonhunt --agents runs/<run>/final.zip,dragonhunt.heuristic --games 400 "
    "--max-hands 20": (PARSE, PLACEHOLDER),
    "python -m dragongym.training.report runs/dh_reverse_s0 runs/dd_bc_v6_s0 runs/dd_imitation_v6_s0 --notes "
    "training/report_notes.md": (PARSE, "needs the run folders of training/REPORT.md's runs; parsed"),
    "dragongym eval --game dragons_down --agents training/checkpoints/dragons_down_2p_bc_v7_s0.zip,random "
    "--players 2 --games 4": (RUN, ("4 games", "dragons_down_2p_bc_v7_s0.zip")),
    "dragongym match --game dragonhunt --agents dragonhunt.heuristic,dragonhunt.heuristic --games 256 --seed 5 "
    "--records runs/dh_heuristic_selfplay256.jsonl": (PARSE, "256 heuristic games (minutes); parsed"),
    "python -m dragongym.training.selfplay --game dragonhunt --total-timesteps 100000000 --max-minutes 65.0 "
    "--torch-threads 1 --n-epochs 2 --learning-rate 0.001 --ent-coef 0.003 --mix-self 0.3 --mix-random 0.1 "
    "--mix-heuristic 0.6 --curriculum runs/dh_heuristic_selfplay256.jsonl --curriculum-share 0.5 "
    "--curriculum-every 2 --curriculum-after 0.9 --curriculum-anneal 6000000 --eval-every 200 "
    "--final-eval-games 0 --eval-workers 1 --run-name dh_reverse_s0": (
        PARSE, "trains for 40-65 minutes; parsed by the trainer's parser"),
    "dragongym exploit --game dragonhunt --config 2p --agent dragonhunt.heuristic --seed 0 --workers 2 "
    "--out results/exploit_heuristic": (PARSE, "trains a best response for minutes; parsed"),
    "dragongym exploit --game dragons_down --config 2-open --agent "
    "training/checkpoints/dragons_down_2p_open_shaped_s0.zip --out results/exploit_dd":
        (PARSE, "trains a best response for minutes; parsed"),
    "dragongym exploit --game dragonhunt --players 2 --max-hands 20 --agent dragonhunt.heuristic --seed 0 "
    "--workers 1 --out results/exploit/dragonhunt_2p_heuristic": (PARSE, "the measurement's command (10 minutes); parsed"),
    "dragongym exploit --game dragons_down --config 2-open --agent dragons_down.heuristic --seed 0 --workers 2 "
    "--out results/exploit/dragons_down_2-open_heuristic": (PARSE, "the measurement's command (8 minutes); parsed"),
    "dragongym exploit --game dragons_down --config 4-explore --agent dragons_down.heuristic --seed 0 --workers 2 "
    "--out results/exploit/dragons_down_4-explore_heuristic": (PARSE, "the measurement's command (9 minutes); parsed"),
    "dragongym exploit": (PARSE, BARE),
    "dragongym train": (PARSE, BARE),
    "python -m dragongym.training.selfplay": (PARSE, BARE),
    "dragongym match --records FILE": (PARSE, PLACEHOLDER),
    "tensorboard --logdir runs": (EXEMPT, "starts TensorBoard's server"),
    "dragongym play --game dragonhunt --opponents training/checkpoints/dragonhunt_2p_reverse_curriculum_s0.zip": (
        PARSE, PLAY),
}

ALL_COMMANDS = D.commands()


class Parsed(BaseException):
    """Raised in place of the work once a command line is parsed (a
    BaseException, so no ``except Exception`` of the scripts swallows it)."""


# ------------------------------------------------------------------ folders


def _prepare(folder, text):
    """What a snippet or command needs in its folder: the shipped checkpoints
    (``training/checkpoints``, linked) and, where it plays an RLlib export, an
    untrained ``runs/rllib/policy.rllib.pt`` (the trainer's export format)."""
    checkpoints = folder / "training" / "checkpoints"
    if not checkpoints.exists():
        checkpoints.parent.mkdir(parents=True, exist_ok=True)
        checkpoints.symlink_to(ROOT / "training" / "checkpoints", target_is_directory=True)
    policy = folder / "runs" / "rllib" / "policy.rllib.pt"
    if "policy.rllib.pt" in text and not policy.exists():
        from dragongym.training.rllib_policy import MaskedPolicyNet, save_policy

        game = dragongym.get_game("dragonhunt")
        options = {"num_players": 2, "max_hands": 20}
        spec = game.spec_for(game.make_config(**options))
        net = MaskedPolicyNet(spec.obs_size, spec.num_actions, hidden=(16,))
        save_policy(policy, net.state_dict(), game=game, spec=spec, game_options=options, hidden=(16,))


@pytest.fixture(scope="module")
def block_folders(tmp_path_factory):
    """One folder per command block, and the commands already run in it: a
    block's commands run one after another there (a match writes the records
    the next line replays)."""
    folders = {}

    def folder(command):
        name = command.block or command.where
        if name not in folders:
            folders[name] = (tmp_path_factory.mktemp(re.sub(r"\W+", "_", name)), set())
        return folders[name]

    return folder


# ------------------------------------------------------------------ the commands' tests


def test_every_fenced_block_is_a_snippet_commands_or_text():
    assert D.unknown_tags() == [], "tag each fenced block python, sh (or none: commands) or text"


def test_every_command_is_run_parsed_or_exempt():
    keys = {c.key for c in ALL_COMMANDS}
    unlisted = sorted(f"{c.where}: {c.key}" for c in ALL_COMMANDS if c.key not in COMMANDS)
    assert not unlisted, ("commands neither run, nor parse-checked, nor exempt; list each in COMMANDS "
                          "with its mode:\n" + "\n".join(unlisted))
    stale = sorted(set(COMMANDS) - keys)
    assert not stale, "COMMANDS lists commands no page has any more:\n" + "\n".join(stale)
    for key, (mode, detail) in COMMANDS.items():
        assert mode in (RUN, PARSE, EXEMPT), key
        assert detail, f"{key}: give the output to check ({RUN}) or the reason ({PARSE}, {EXEMPT})"


def _program(command):
    argv = command.argv
    program = argv[0]
    if program in ("dragongym", ".venv/bin/dragongym"):
        return "dragongym", argv[1:]
    if program in ("python", "python3", ".venv/bin/python") and len(argv) >= 3 and argv[1] == "-m":
        return argv[2], argv[3:]
    return None, argv


def _validate_game_options(game_id, options, players=None):
    """The game's make_config accepts ``options`` (and ``players`` seats)."""
    game = dragongym.get_game(game_id)
    options = dict(options)
    if players is not None:
        options["num_players"] = players
    game.make_config(**options)


def _game_options(tokens, game_id):
    """Option tokens as the command lines read them (the game's own types where
    the parser takes the game)."""
    from dragongym.envs.core.options import parse_game_options

    if len(inspect.signature(parse_game_options).parameters) >= 2:
        return parse_game_options(tokens, dragongym.get_game(game_id))
    return parse_game_options(tokens)


def _parse_dragongym(argv, monkeypatch):
    """Parse a ``dragongym`` command line as ``training/cli.py`` does (every
    subcommand's parser, game options read and validated by the game), with
    the subcommand's work replaced by raising :class:`Parsed`. ``train`` goes to
    the trainer's own parser (``selfplay.parse_args``)."""
    from dragongym.agents import is_agent_id
    from dragongym.training import cli, selfplay

    def parsed(args, options):
        game = getattr(args, "game", None)
        for field in ("agents", "opponents"):
            ids = getattr(args, field, None)
            if ids:
                unknown = [a for a in ids.split(",") if a and not is_agent_id(a)]
                assert not unknown, f"unknown agent ids {unknown}"
        if game:
            _validate_game_options(game, options, getattr(args, "players", None))
        raise Parsed(args)

    real_build = cli.build_parser

    def build_parser():
        parser = real_build()
        real_parse = parser.parse_known_args

        def parse_known_args(args=None, namespace=None):
            namespace, extra = real_parse(args, namespace)
            if not getattr(namespace, "passthrough", False):
                namespace.run = parsed
            return namespace, extra

        parser.parse_known_args = parse_known_args
        return parser

    monkeypatch.setattr(cli, "build_parser", build_parser)
    monkeypatch.setattr(selfplay, "train", _trainer_parsed)
    return cli.main(argv)


def _trainer_parsed(args, *rest):
    """A trainer's work, replaced: the self-play trainer's run checks its game
    configuration here (the RLlib script has checked it before training)."""
    if getattr(args, "game", None) and hasattr(args, "spec"):
        args.spec()                      # (not validate(): it wants the run's input files, too)
    raise Parsed(args)


def _parse_module(module_name, argv, monkeypatch):
    """Parse ``python -m MODULE ARGS`` with the module's own parser."""
    module = importlib.import_module(module_name)
    if module_name in ("dragongym.training.selfplay", "dragongym.training.rllib_selfplay"):
        # tyro-based: the scripts parse, validate the game and its options, then train
        monkeypatch.setattr(module, "train", _trainer_parsed)
        return module.main(argv)
    # argparse-based scripts (benchmarks, the report): stop once the arguments are read
    real = argparse.ArgumentParser.parse_known_args

    def parse_known_args(self, args=None, namespace=None):
        namespace, extra = real(self, args, namespace)
        if extra and getattr(namespace, "game", None):
            _validate_game_options(namespace.game, _game_options(extra, namespace.game))
        raise Parsed(namespace)

    def parse_args(self, args=None, namespace=None):
        namespace, extra = real(self, args, namespace)
        if extra:
            self.error("unrecognized arguments: " + " ".join(extra))
        raise Parsed(namespace)

    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", parse_known_args)
    monkeypatch.setattr(argparse.ArgumentParser, "parse_args", parse_args)
    return module.main(argv)


def _parse(command, monkeypatch, capsys):
    program, argv = _program(command)
    assert program is not None, f"{command.where}: cannot parse {command.key!r}: list it as exempt"
    try:
        if program == "dragongym":
            status = _parse_dragongym(argv, monkeypatch)
        else:
            status = _parse_module(program, argv, monkeypatch)
    except Parsed:
        return
    except SystemExit as stop:
        status = stop.code
        if status == 0 and ("--help" in argv or "-h" in argv):
            return
    except Exception as error:                       # an option the game refuses, an unknown agent
        pytest.fail(f"{command.where}: {command.key!r} was refused: {type(error).__name__}: {error}")
    captured = capsys.readouterr()
    pytest.fail(f"{command.where}: {command.key!r} was not accepted (status {status}):\n"
                f"{captured.err[-2000:]}{captured.out[-2000:]}")


def _run(command, folder, expected, monkeypatch, capsys):
    program, argv = _program(command)
    assert program == "dragongym", f"{command.where}: only dragongym commands run in-process"
    from dragongym.training import cli

    _prepare(folder, command.key)
    monkeypatch.chdir(folder)
    for assignment in command.tokens[:len(command.tokens) - len(command.argv)]:
        name, _, value = assignment.partition("=")
        monkeypatch.setenv(name, value)
    try:
        status = cli.main(argv)
    except SystemExit as stop:
        status = stop.code
    captured = capsys.readouterr()
    output = captured.out + captured.err
    assert status in (0, None), f"{command.where}: {command.key!r} exited {status}:\n{output[-3000:]}"
    missing = [part for part in expected if part not in output]
    assert not missing, f"{command.where}: {command.key!r} did not show {missing}:\n{output[-3000:]}"
    for token in argv:                     # the files it was asked to write exist
        if re.fullmatch(r"game\.(html|gif|mp4)", token):
            assert (folder / token).stat().st_size > 0, token
    for flag, name in (("--out", "tournament.json"), ("--records", "")):
        if flag in argv and (program, argv[0]) != ("dragongym", "bench"):
            assert (folder / argv[argv.index(flag) + 1] / name).is_file(), f"{command.where}: no {flag} output"


@pytest.mark.parametrize("command", ALL_COMMANDS, ids=[f"{c.where} {' '.join(c.argv[:2])}" for c in ALL_COMMANDS])
def test_command(command, block_folders, monkeypatch, capsys):
    entry = COMMANDS.get(command.key)
    if entry is None:
        pytest.fail(f"{command.where}: {command.key!r} is neither run, nor parse-checked, nor exempt "
                    "(add it to COMMANDS)")
    mode, detail = entry
    if mode == EXEMPT:
        return
    if mode == PARSE or not command.block:
        # an inline mention of a command that runs in a block (where its inputs are) is parsed
        _parse(command, monkeypatch, capsys)
        return
    folder, done = block_folders(command)
    for earlier in ALL_COMMANDS:             # what the block ran before this line, when run alone (-k)
        if earlier.block == command.block and earlier.line < command.line and earlier.key not in done \
                and COMMANDS.get(earlier.key, (None,))[0] == RUN:
            _run(earlier, folder, COMMANDS[earlier.key][1], monkeypatch, capsys)
            done.add(earlier.key)
    _run(command, folder, detail, monkeypatch, capsys)
    done.add(command.key)


# ------------------------------------------------------------------ the snippets

SNIPPETS = D.snippets()


@pytest.mark.parametrize("block", SNIPPETS, ids=[b.where for b in SNIPPETS])
def test_snippet(block, tmp_path, monkeypatch):
    from dragongym import envs
    from dragongym.agents import base

    # what a snippet registers (an agent, a game) stays in the snippet
    for module, registry in ((base, "_FACTORIES"), (base, "_LOADERS"), (base, "_CHECKS"),
                             (envs, "_FACTORIES"), (envs, "_GAMES")):
        monkeypatch.setattr(module, registry, dict(getattr(module, registry)))
    _prepare(tmp_path, block.text)
    monkeypatch.chdir(tmp_path)
    code = compile(block.text, f"{block.where} (snippet)", "exec")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {"__name__": "__docs__"})
    shown = out.getvalue()
    for line, expected in D.outputs_shown(block):
        assert expected in shown, f"{block.file}:{line}: the page shows {expected!r}; the snippet printed:\n{shown}"


# ------------------------------------------------------------------ facts: each game's page


def _page(game_id):
    return ROOT / "docs" / f"{game_id}.md"


def _configs(game):
    return [game.make_config(**options) for options in game.test_configs()] + [game.default_config()]


def _number(text):
    return int(text.replace(",", ""))


@pytest.mark.parametrize("game_id", GAMES)
def test_action_count_and_observation_size(game_id):
    game = dragongym.get_game(game_id)
    spec = game.spec
    text = _page(game_id).read_text()
    assert [_number(a) for a in re.findall(r"`A = ([\d,]+)`", text)] == [spec.num_actions]
    assert [_number(o) for o in re.findall(r"`([\d,]+)` floats", text)] == [spec.obs_size]
    # "every player count" / "every configuration" / "every scenario": the sizes do not move
    for config in _configs(game):
        other = game.spec_for(config)
        assert (other.num_actions, other.obs_size) == (spec.num_actions, spec.obs_size), config


def _one_table(path, header):
    found = D.tables(path, header)
    assert len(found) == 1, f"{D.rel(path)}: expected one table headed {header}, found {len(found)}"
    return found[0]


def _ticked(cell):
    return re.findall(r"`([^`]*)`", cell)


def _shape(text):
    return tuple(int(x) for x in text.replace(" ", "").split("x"))


@pytest.mark.parametrize("game_id", GAMES)
def test_action_layout_table(game_id):
    spec = dragongym.get_game(game_id).spec
    rows = _one_table(_page(game_id), ("action block", "first", "size", "indexes", "meaning"))
    documented = [(_ticked(name)[0], int(first), int(size), "".join(_ticked(indexes)))
                  for _, (name, first, size, indexes, _) in rows]
    actual = [(name, b.offset, b.size, b.indexes) for name, b in spec.action_layout.items()]
    assert documented == actual
    assert sum(size for _, _, size, _ in documented) == spec.num_actions


@pytest.mark.parametrize("game_id", GAMES)
def test_observation_layout_table(game_id):
    spec = dragongym.get_game(game_id).spec
    rows = _one_table(_page(game_id), ("observation block", "kind", "shape", "offset", "meaning"))
    documented = [(_ticked(name)[0], kind, _shape(shape), int(offset))
                  for _, (name, kind, shape, offset, _) in rows]
    actual = [(name, b.kind, tuple(b.shape), b.offset) for name, b in spec.obs_layout.items()]
    assert documented == actual
    assert sum(int(np.prod(shape)) for _, _, shape, _ in documented) == spec.obs_size


def _allowed_from_code(f):
    """What the option allows, as the pages write it: ``("range", lo, hi)``,
    ``("choices", values)``, ``("subset", values, at least one)``, ``("bool",)``."""
    meta = f.metadata
    if "range" in meta:
        return ("range",) + tuple(meta["range"])
    if "choices" in meta:
        return ("choices", tuple(meta["choices"]))
    if "subset_of" in meta:
        return ("subset", tuple(meta["subset_of"]), "check" in meta)
    kind = f.type if isinstance(f.type, str) else f.type.__name__
    return (kind,)


def _allowed_from_page(cell):
    m = re.fullmatch(r"an int in (-?\d+)\.\.(-?\d+)", cell)
    if m:
        return ("range", int(m.group(1)), int(m.group(2)))
    if cell == "True or False":
        return ("bool",)
    values = tuple(ast.literal_eval(t) for t in _ticked(cell))
    if cell.startswith("a tuple of distinct names from"):
        return ("subset", values, cell.endswith("at least one"))
    assert cell == ", ".join(f'`"{v}"`' for v in values), f"unreadable allowed values {cell!r}"
    return ("choices", values)


@pytest.mark.parametrize("game_id", GAMES)
def test_options_table(game_id):
    """Every option, in the configuration's order, with its default and what it allows."""
    from dragongym.envs.core.config import option_help

    game = dragongym.get_game(game_id)
    fields = dataclasses.fields(game.config_cls)
    rows = _one_table(_page(game_id), ("option", "default", "allowed", "meaning"))
    assert [_ticked(row[0])[0] for _, row in rows] == [f.name for f in fields]
    for (line, (_, default, allowed, _)), f in zip(rows, fields):
        assert ast.literal_eval(_ticked(default)[0]) == f.default, f"docs/{game_id}.md:{line}"
        assert _allowed_from_page(allowed) == _allowed_from_code(f), f"docs/{game_id}.md:{line}"
    assert set(option_help(game.config_cls)) == {f.name for f in fields}


def test_readme_sizes_and_defaults_table():
    rows = _one_table(ROOT / "README.md", ("game", "id", "actions", "observation floats", "options (defaults)"))
    assert [_ticked(row[1])[0] for _, row in rows] == list(GAMES)
    for _, (name, ident, actions, floats, options) in rows:
        game = dragongym.get_game(_ticked(ident)[0])
        assert name == GAME_NAMES[game.name]
        assert (_number(actions), _number(floats)) == (game.spec.num_actions, game.spec.obs_size)
        defaults = {f.name: f.default for f in dataclasses.fields(game.config_cls)}
        shown = {}
        for item in _ticked(options):
            option, eq, value = item.partition("=")
            shown[option] = ast.literal_eval(value) if eq else defaults[option]
        assert shown == defaults, name


def _seat_range(game):
    seats = sorted({game.spec_for(c).num_seats for c in _configs(game)})
    num_players = {f.name: f for f in dataclasses.fields(game.config_cls)}.get("num_players")
    if num_players is not None:
        lo, hi = num_players.metadata["range"]
        assert (seats[0], seats[-1]) == (lo, hi), "test_configs cover every seat count"
    return seats[0], seats[-1]


def test_readme_status_table():
    """The games, their seats and what they are: complete, or which part is playable."""
    rows = _one_table(ROOT / "README.md", ("game", "seats", "status"))
    ids = [re.search(r"\(docs/(\w+)\.md\)", row[0]).group(1) for _, row in rows]
    assert ids == list(GAMES) and sorted(ids) == dragongym.list_games()
    for game_id, (_, (name, seats, status)) in zip(ids, rows):
        game = dragongym.get_game(game_id)
        lo, hi = _seat_range(game)
        assert seats == (str(lo) if lo == hi else f"{lo}–{hi}"), game_id
        assert f"**{GAME_NAMES[game_id]}**" in name
        page = _page(game_id).read_text()
        assert status.split(":")[0] in page                         # the page states the same status
    status = {game_id: row[2] for game_id, (_, row) in zip(ids, rows)}
    assert status["dragonhunt"].startswith("complete: every rule")
    # complete: no rule of its traceability table waits for a later part
    assert "not yet implemented" not in (ROOT / "envs" / "dragonhunt" / "RULES.md").read_text()
    assert "| not yet implemented" not in (ROOT / "envs" / "dragon_pass" / "RULES.md").read_text()
    scenarios = dataclasses.fields(dragongym.get_game("dragon_pass").config_cls)[0].metadata["choices"]
    assert f"scenarios {scenarios[0]}–{scenarios[-1]}" in status["dragon_pass"]
    assert scenarios == ("18.1", "18.2", "18.3", "18.4", "18.5", "18.6", "18.7", "18.8", "18.9")
    sandboxes = dataclasses.fields(dragongym.get_game("dragons_down").config_cls)[1].metadata["choices"]
    assert len(sandboxes) == 3 and "every sandbox" in status["dragons_down"]
    assert "1–6 heroes" in status["dragons_down"] and _seat_range(dragongym.get_game("dragons_down")) == (1, 6)


@pytest.mark.parametrize("game_id", GAMES)
def test_seat_names(game_id):
    """The agents each page prints are the spec's roles."""
    game = dragongym.get_game(game_id)
    block = next(b for b in D.blocks(_page(game_id)) if b.tag == "python")
    namespace = {}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(block.text, namespace)
    env = namespace["env"]
    assert env.possible_agents == list(env.spec.roles)
    if game.spec.seats_are_roles:
        assert list(game.spec.roles) == ["lunar", "sartar"]
        assert "`lunar`" in _page(game_id).read_text() and "`sartar`" in _page(game_id).read_text()


def test_package_docstrings_are_current():
    """No registered game's package says it is in progress or unregistered."""
    for game_id in dragongym.list_games():
        module = importlib.import_module(f"dragongym.envs.{game_id}")
        doc = (module.__doc__ or "").lower()
        for stale in ("not yet registered", "in progress", "data first"):
            assert stale not in doc, f"dragongym.envs.{game_id}: {stale!r}"
    for path in D.doc_files():
        assert "first to be implemented" not in path.read_text(), D.rel(path)


# ------------------------------------------------------------------ facts: agents


def test_agents_table():
    from dragongym.agents import is_agent_id

    rows = _one_table(ROOT / "docs" / "agents.md", ("id", "what"))
    ids = [_ticked(row[0])[0] for _, row in rows]
    registered = [i for i in ids if "/" not in i]
    assert sorted(registered) == builtin_agents()
    checkpoints = [i for i in ids if "/" in i]
    assert checkpoints == ["runs/<run>/final.zip"] and is_agent_id("runs/x/final.zip")
    for i in registered:                        # each names its module where it says one
        for module in re.findall(r"`(agents/\w+\.py)`", dict((_ticked(r[0])[0], r[1]) for _, r in rows)[i]):
            assert (ROOT / module).is_file(), module


def builtin_agents():
    """The agent ids the package registers itself, read in a fresh process:
    other test modules register agents of their own in this one."""
    code = "from dragongym.agents import list_agents; print(' '.join(list_agents()))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return out.split()


def test_readme_agents_line():
    line = next(line for line in (ROOT / "README.md").read_text().split("\n\n") if line.startswith("Agents:"))
    from dragongym.agents.ladder import rung_ids

    ids = [t for t in _ticked(line) if "." not in t or ".heuristic" in t]
    # the ladders' rungs are named as a family ("the ladders' rungs (`dragonhunt.mcts`, ...)")
    assert sorted(ids) == [a for a in builtin_agents() if a not in rung_ids()]
    assert "`*.zip`" in line


# ------------------------------------------------------------------ facts: outcomes and rewards


def test_outcome_of_signature_as_documented():
    from dragongym.envs.core.outcome import outcome_of

    text = (ROOT / "docs" / "api.md").read_text()
    m = re.search(r"`dragongym\.envs\.core\.outcome\.outcome_of(\([^`]*\))`", text)
    assert m, "docs/api.md quotes outcome_of's signature"
    assert m.group(1).replace('"', "'") == str(inspect.signature(outcome_of))


@pytest.mark.parametrize("name", ["make", "make_vec", "make_single_agent"])
def test_make_signatures_as_documented(name):
    """The parameters docs/api.md gives each constructor, with their defaults."""
    from dragongym.envs.core.single_agent import SingleAgentEnv

    text = (ROOT / "docs" / "api.md").read_text()
    m = re.search(rf"`dragongym\.{name}(\([^`]*\))`:", text)
    assert m, f"docs/api.md quotes dragongym.{name}'s signature"
    documented = ast.parse(f"def f{m.group(1)}: pass").body[0].args
    actual = dict(inspect.signature(getattr(dragongym, name)).parameters)
    if name == "make_single_agent":          # its **kwargs are SingleAgentEnv's
        actual.update({k: v for k, v in inspect.signature(SingleAgentEnv).parameters.items() if k != "game"})
    params = documented.args
    defaults = [None] * (len(params) - len(documented.defaults)) + documented.defaults
    for arg, default in zip(params, defaults):
        assert arg.arg in actual, f"{name}: no parameter {arg.arg}"
        if default is None:
            assert actual[arg.arg].default is inspect.Parameter.empty, arg.arg
        else:
            assert ast.literal_eval(default) == actual[arg.arg].default, arg.arg
    assert documented.kwarg is not None
    assert any(p.kind is inspect.Parameter.VAR_KEYWORD for p in actual.values())


def test_rank_rewards_as_documented():
    """Position values linear in rank from +1 to -1, ties averaged; solo +1 / -1
    (the examples docs/dragons_down.md and docs/api.md give)."""
    from dragongym.envs.core.outcome import rank_rewards

    cases = {(1, 2): (1, -1), (1, 2, 3): (1, 0, -1), (1, 1, 3): (0.5, 0.5, -1), (1, 2, 2): (1, -0.5, -0.5),
             (1, 1, 1): (0, 0, 0), (2, 1, 2): (-0.5, 1, -0.5)}
    for ranks, rewards in cases.items():
        assert np.allclose(rank_rewards(ranks), rewards), ranks
    assert np.allclose(rank_rewards((1,), "solo"), [1]) and np.allclose(rank_rewards((2,), "solo"), [-1])
    text = (ROOT / "docs" / "dragons_down.md").read_text()
    for phrase in ("ranks 1, 2, 3 get +1, 0, −1", "ranks 1, 1, 3 get +0.5, +0.5, −1",
                   "ranks 1, 2, 2\nget +1, −0.5, −0.5"):
        assert phrase in text, phrase
    readme = " ".join((ROOT / "README.md").read_text().split())
    for phrase in ("+1 first to −1 last, linear in rank, ties averaged", "+1 to the slayer, −1/(n−1) to each other",
                   "a solo game: +1 won, −1 lost", "cut short by its length limit is a draw, 0 each (a solo game: lost)"):
        assert phrase in readme, phrase


def _position_values(ranks):
    n = len(ranks)
    return [np.mean([1 - 2 * p / (n - 1) for p in range(r - 1, r - 1 + list(ranks).count(r))]) for r in ranks]


def _finished_games(game_id, steps, num_envs=32, **options):
    """``(status, ranks, rewards)`` of the games that end in ``steps`` random steps."""
    venv = dragongym.make_vec(game_id, num_envs=num_envs, seed=1, observations=False, **options)
    venv.reset()
    rng = np.random.default_rng(1)
    out = []
    for _ in range(steps):
        *_, info = venv.step(venv.sample_actions(rng))
        if info:
            for k, state in enumerate(info["final_state"]):
                n = int(state["num_players"])
                out.append((int(state["status"]), tuple(int(r) for r in state["rank"][:n]),
                            tuple(float(x) for x in info["final_rewards"][k][:n])))
    assert out, f"no {game_id} game ended"
    return out


def test_dragons_down_rewards_are_linear_in_rank():
    """3 heroes: +1 .. -1 by rank, ties averaged; cut short by max_turns: 0 each."""
    ended = _finished_games("dragons_down", 1500, num_players=3)
    assert {status for status, _, _ in ended} == {1}
    for _, ranks, rewards in ended:
        assert np.allclose(rewards, _position_values(ranks)), (ranks, rewards)
        assert abs(sum(rewards)) < 1e-5
    for status, ranks, rewards in _finished_games("dragons_down", 300, num_players=3, max_turns=1):
        assert (status, ranks, rewards) == (2, (1, 1, 1), (0.0, 0.0, 0.0))


def test_dragons_down_solo_is_won_or_lost():
    ended = _finished_games("dragons_down", 800, num_players=1)
    assert {(ranks, rewards) for _, ranks, rewards in ended} <= {((1,), (1.0,)), ((2,), (-1.0,))}
    for status, ranks, rewards in _finished_games("dragons_down", 300, num_players=1, max_turns=1):
        assert (status, ranks, rewards) == (2, (2,), (-1.0,))          # truncated: lost


def test_dragon_pass_rewards():
    ended = _finished_games("dragon_pass", 1200, scenario="18.1")
    for status, ranks, rewards in ended:
        assert status == 1
        assert (ranks, rewards) in {((1, 2), (1.0, -1.0)), ((2, 1), (-1.0, 1.0)), ((1, 1), (0.0, 0.0))}
    for status, ranks, rewards in _finished_games("dragon_pass", 600, scenario="18.2", max_turns=1):
        assert (status, ranks, rewards) == (2, (1, 1), (0.0, 0.0))


def test_dragonhunt_rewards():
    """The slayer +1, each other seat -1/(n-1); cut short by max_hands: 0 each."""
    from dragongym.agents import play_match

    result = play_match("dragonhunt", ["dragonhunt.heuristic"] * 3, num_games=3, seed=0, num_players=3)
    slain = [g for g in result.games if not g.truncated]
    assert slain, "the heuristic slays Brimstone in most games"
    for g in slain:
        assert sorted(g.ranks) == [1, 2, 2] and sorted(g.rewards) == [-0.5, -0.5, 1.0]
    for status, ranks, rewards in _finished_games("dragonhunt", 600, num_players=4, max_hands=1):
        assert (status, ranks, rewards) == (2, (1, 1, 1, 1), (0.0,) * 4)
    for page in ("dragonhunt.md", "api.md"):
        assert "−1/(n−1)" in (ROOT / "docs" / page).read_text(), page


# ------------------------------------------------------------------ links


def _slug(heading):
    slug = heading.strip().lower()
    slug = re.sub(r"[^\w\- ]", "", slug)
    return slug.replace(" ", "-")


def _anchors(path):
    return {_slug(line.lstrip("#")) for line in D.prose(path).splitlines() if line.startswith("#")}


def test_links_point_at_files_and_headings():
    problems = []
    for path in D.doc_files():
        for m in re.finditer(r"\]\(([^)\s]+)\)", D.prose(path)):
            target = m.group(1)
            if re.match(r"[a-z]+://", target):
                continue
            file, _, anchor = target.partition("#")
            resolved = (path.parent / file).resolve() if file else path
            if not resolved.exists():
                problems.append(f"{D.rel(path)}: {target}: no such file")
            elif anchor and anchor not in _anchors(resolved):
                problems.append(f"{D.rel(path)}: {target}: no such heading")
    assert not problems, "\n".join(problems)


def test_readme_stays_short():
    """The README is what a newcomer reads first; the rest lives in docs/."""
    assert len((ROOT / "README.md").read_text().splitlines()) <= 200
