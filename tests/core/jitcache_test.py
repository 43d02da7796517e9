"""The numba cache folder follows the sources, so compiled code is never stale."""
import os
import subprocess
import sys
import time
from pathlib import Path

from envs.core import jitcache

REPO = Path(__file__).resolve().parents[2]


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def make_tree(root):
    write(root / "core" / "rng.py", "def f(): return 1\n")
    write(root / "game" / "rules.py", "from ..core.rng import f\n")
    write(root / "game" / "data" / "board.txt", "..##..\n")
    write(root / "game" / "RULES.md", "rules\n")


def test_hash_changes_with_any_source_or_data_file(tmp_path):
    make_tree(tmp_path)
    first = jitcache.source_hash(tmp_path)
    assert len(first) == 16 and first == jitcache.source_hash(tmp_path)

    write(tmp_path / "core" / "rng.py", "def f(): return 2\n")  # a callee changes
    second = jitcache.source_hash(tmp_path)
    assert second != first

    write(tmp_path / "game" / "data" / "board.txt", "..#...\n")  # a table frozen into code
    third = jitcache.source_hash(tmp_path)
    assert third != second

    write(tmp_path / "core" / "extra.py", "")  # a new module
    fourth = jitcache.source_hash(tmp_path)
    assert fourth != third

    (tmp_path / "core" / "extra.py").rename(tmp_path / "core" / "renamed.py")
    assert jitcache.source_hash(tmp_path) != fourth

    (tmp_path / "core" / "renamed.py").unlink()
    assert jitcache.source_hash(tmp_path) == third  # going back finds the old folder again


def test_hash_ignores_docs_and_bytecode(tmp_path):
    make_tree(tmp_path)
    before = jitcache.source_hash(tmp_path)
    write(tmp_path / "game" / "RULES.md", "edited\n")
    write(tmp_path / "game" / "__pycache__" / "rules.cpython-311.pyc", "x")
    write(tmp_path / "game" / "__pycache__" / "rules.f-1.py311.nbi", "x")
    assert jitcache.source_hash(tmp_path) == before


def test_stale_folders_are_removed_but_recent_ones_kept(tmp_path):
    now = time.time()
    for name, age in [("0123456789abcdef", 10), ("aaaaaaaaaaaaaaaa", 7200), ("bbbbbbbbbbbbbbbb", 7200)]:
        folder = tmp_path / name
        folder.mkdir()
        (folder / ".last_used").touch()
        os.utime(folder / ".last_used", (now - age, now - age))
    (tmp_path / "not-a-version").mkdir()
    os.utime(tmp_path / "not-a-version", (now - 7200, now - 7200))

    jitcache.remove_stale_folders(tmp_path, keep="bbbbbbbbbbbbbbbb", now=now)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["0123456789abcdef", "bbbbbbbbbbbbbbbb", "not-a-version"]


def run_python(code, **env_changes):
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "OMP_WAIT_POLICY")}
    env.update(env_changes)
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_importing_envs_picks_the_folder_for_these_sources(tmp_path):
    out = run_python("import os, envs; print(os.environ['NUMBA_CACHE_DIR']);"
                     "print(os.environ['OMP_WAIT_POLICY'])", XDG_CACHE_HOME=str(tmp_path))
    cache_dir, omp = out.splitlines()
    expected = tmp_path / "dragongym" / "numba" / jitcache.source_hash()
    assert Path(cache_dir) == expected and expected.is_dir()
    assert omp == "passive"


def test_user_settings_win(tmp_path):
    out = run_python("import os, envs; print(os.environ['NUMBA_CACHE_DIR']);"
                     "print(os.environ['OMP_WAIT_POLICY'])",
                     NUMBA_CACHE_DIR=str(tmp_path / "mine"), OMP_WAIT_POLICY="active",
                     XDG_CACHE_HOME=str(tmp_path))
    assert out.splitlines() == [str(tmp_path / "mine"), "active"]


def test_numba_imported_first_still_uses_the_folder(tmp_path):
    out = run_python("import numba, envs; from numba.core import config; print(config.CACHE_DIR)",
                     XDG_CACHE_HOME=str(tmp_path))
    assert Path(out) == tmp_path / "dragongym" / "numba" / jitcache.source_hash()


def test_importing_envs_is_cheap():
    out = run_python("import sys, envs; print(sorted(m for m in ('torch', 'numba', 'gymnasium',"
                     " 'pettingzoo') if m in sys.modules))")
    assert out == "[]"
