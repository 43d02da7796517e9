"""``dragongym warm``: every compiled entry point of a game run once, so the
first real use finds it in the cache."""
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import dragongym
from dragongym.envs.core.game import Game
from dragongym.training.cli import main

REPO = Path(__file__).resolve().parents[2]


class Recorded(Game):
    """A game whose entry points only record that they ran (nothing compiles)."""

    name = "recorded"

    def __init__(self):
        self.ran = []

    def compiled_entry_points(self):
        return [(name, lambda name=name: self.ran.append(name)) for name in ("reset", "step")]


@pytest.fixture
def recorded():
    game = Recorded()
    dragongym.register("recorded", lambda: game)
    yield game
    dragongym.envs._FACTORIES.pop("recorded", None)
    dragongym.envs._GAMES.pop("recorded", None)


def test_warm_runs_every_entry_point_in_order_and_reports_each(recorded, capsys):
    assert main(["warm", "recorded"]) == 0
    assert recorded.ran == ["reset", "step"]
    lines = capsys.readouterr().err.splitlines()
    assert [line.split()[:2] for line in lines[:2]] == [["recorded", "reset"], ["recorded", "step"]]
    assert all(re.search(r"\d+\.\d s  cached$", line) for line in lines[:2])
    assert lines[2].startswith("recorded: 2 entry points in ") and "by default" in lines[2]


def test_warm_refuses_unknown_games(capsys):
    assert main(["warm", "no_such_game"]) == 2
    assert "unknown game(s) no_such_game" in capsys.readouterr().err


def test_the_base_game_declares_no_entry_points():
    assert Game().compiled_entry_points() == []


def run(code, tmp_path, **env_changes):
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "DRAGONGYM_NO_COMPILE_NOTICE")}
    env.update(XDG_CACHE_HOME=str(tmp_path / "cache"), **env_changes)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stderr


def test_dragonhunt_declares_every_entry_point_and_each_runs(tmp_path):
    """As plain Python (NUMBA_DISABLE_JIT=1: nothing compiles, so this takes
    seconds): every entry point runs with the arguments it is given."""
    err = run("from dragongym.training.cli import main; raise SystemExit(main(['warm', 'dragonhunt']))",
              tmp_path, NUMBA_DISABLE_JIT="1")
    # the pure-Python rng's overflow warnings may land inside a line: read the
    # names at line starts and count the results
    names = re.findall(r"^dragonhunt  (.+?)(?: {2,}|$)", err, flags=re.M)
    assert names == ["reset", "step", "legal_mask", "observe", "vec_step", "vec_step threads",
                     "vec_observe threads", "check_state", "seeds", "bench_playout serial",
                     "bench_playout threads", "fuzz", "playout (MCTS)"], err
    assert len(re.findall(r"\d+\.\d s  plain Python$", err, flags=re.M)) == 13
    assert "dragonhunt: 13 entry points in " in err


FAKE_GAME = '''
    import numpy as np
    from numba import njit
    from dragongym.envs.core.game import Game

    @njit(cache=True)
    def total(xs):
        s = 0
        for x in xs:
            s += x
        return s

    class Toy(Game):
        name = "toy"
        def compiled_entry_points(self):
            return [("total", lambda: total(np.arange(3)))]

    GAME = Toy()
'''

WARM_TOY = """
    import sys
    from pathlib import Path
    import dragongym
    from dragongym.envs.core import jitcache
    jitcache.ENVS_ROOT = Path(sys.argv[1]) / "fakeenvs"   # a game tree of our own
    sys.path.insert(0, sys.argv[1])
    dragongym.register("toy", "fakeenvs.toy.game:GAME")
    from dragongym.training.cli import main
    raise SystemExit(main(["warm", "toy"]))
"""


def test_warming_twice_compiles_once_into_the_games_folder(tmp_path):
    game_dir = tmp_path / "fakeenvs" / "toy"
    game_dir.mkdir(parents=True)
    (game_dir / "game.py").write_text(textwrap.dedent(FAKE_GAME))

    def warm():
        env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR",)}
        env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
        done = subprocess.run([sys.executable, "-c", textwrap.dedent(WARM_TOY), str(tmp_path)], cwd=REPO,
                              env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stderr.splitlines()

    first, second = warm(), warm()
    assert first[0].split()[:2] == ["toy", "total"] and first[0].endswith("compiled"), first
    assert second[0].endswith("cached"), second
    assert not any(line.startswith("dragongym: compiling") for line in first)   # warm reports itself
    folder = Path(first[-1].rpartition("cached in ")[2])
    assert folder.parent == tmp_path / "cache" / "dragongym" / "numba" / "toy"
    assert any(p.name.startswith("game.total-") for p in folder.glob("*.nbi"))
    assert second[-1].endswith(f"cached in {folder}")   # loaded, not compiled again ("cached" above):
    # the seconds each took are not compared -- a timing is no test on a busy machine
