"""The numba cache is kept per game and follows its sources, so compiled code is
never stale and editing one game keeps every other game's compiled code."""
import ast
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest

from dragongym.envs.core import jitcache

REPO = Path(__file__).resolve().parents[2]


def write(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def make_tree(root):
    write(root / "core" / "rng.py", "def f(): return 1\n")
    write(root / "game" / "rules.py", "from ..core.rng import f\n")
    write(root / "game" / "data" / "board.txt", "..##..\n")
    write(root / "game" / "RULES.md", "rules\n")


def make_two_games(root):
    """envs/core plus two games, ``game_a`` and ``game_b``."""
    write(root / "core" / "rng.py", "def f(): return 1\n")
    write(root / "core" / "adapter.py", f"{jitcache.NOT_COMPILED_MARK}\nX = 1\n")
    for name in ("game_a", "game_b"):
        write(root / name / "rules.py", "from ..core.rng import f\n")
        write(root / name / "game.py", f'"""Python face."""\n{jitcache.NOT_COMPILED_MARK}\nY = 1\n')
        write(root / name / "data" / "board.txt", "..##..\n")
        write(root / name / "RULES.md", "rules\n")


def keys(root):
    return {p: jitcache.cache_key(p, root, numba_version_text="0.68.1", opt="3")
            for p in ("core", "game_a", "game_b")}


# --- keys ----------------------------------------------------------------------

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


def test_editing_one_game_changes_its_key_only(tmp_path):
    make_two_games(tmp_path)
    start = keys(tmp_path)
    assert len(set(start.values())) == 3 and all(len(k) == 16 for k in start.values())

    write(tmp_path / "game_a" / "rules.py", "from ..core.rng import f\nZ = 2\n")
    after_rules = keys(tmp_path)
    assert after_rules["game_a"] != start["game_a"]
    assert after_rules["game_b"] == start["game_b"] and after_rules["core"] == start["core"]

    write(tmp_path / "game_a" / "data" / "board.txt", "..#...\n")   # a table of game A
    after_data = keys(tmp_path)
    assert after_data["game_a"] != after_rules["game_a"] and after_data["game_b"] == start["game_b"]

    write(tmp_path / "game_b" / "fast.py", "")                       # a new module of game B
    after_new = keys(tmp_path)
    assert after_new["game_b"] != start["game_b"] and after_new["game_a"] == after_data["game_a"]

    write(tmp_path / "core" / "rng.py", "def f(): return 2\n")       # every game calls core
    after_core = keys(tmp_path)
    assert all(after_core[p] != after_new[p] for p in after_core)

    write(tmp_path / "game_a" / "rules.py", "from ..core.rng import f\n")
    write(tmp_path / "game_a" / "data" / "board.txt", "..##..\n")
    write(tmp_path / "core" / "rng.py", "def f(): return 1\n")
    assert keys(tmp_path)["game_a"] == start["game_a"]              # back to the first version


def test_marked_modules_docs_and_tests_change_no_key(tmp_path):
    make_two_games(tmp_path)
    start = keys(tmp_path)
    write(tmp_path / "core" / "adapter.py", f"{jitcache.NOT_COMPILED_MARK}\nX = 2\n")   # an adapter
    write(tmp_path / "game_a" / "game.py", f'"""Edited."""\n{jitcache.NOT_COMPILED_MARK}\nY = 2\n')
    write(tmp_path / "game_a" / "RULES.md", "edited\n")
    write(tmp_path.parent / "tests" / "game_a_test.py", "def test(): pass\n")   # outside envs/
    assert keys(tmp_path) == start
    write(tmp_path / "game_a" / "game.py", '"""Now unmarked."""\nY = 2\n')
    assert keys(tmp_path)["game_a"] != start["game_a"] and keys(tmp_path)["game_b"] == start["game_b"]


def test_numba_version_and_opt_level_change_the_key(tmp_path, monkeypatch):
    make_two_games(tmp_path)
    base = jitcache.cache_key("game_a", tmp_path, numba_version_text="0.68.1", opt="3")
    assert jitcache.cache_key("game_a", tmp_path, numba_version_text="0.69.0", opt="3") != base
    assert jitcache.cache_key("game_a", tmp_path, numba_version_text="0.68.1", opt="0") != base
    assert jitcache.cache_key("core", tmp_path, numba_version_text="0.69.0", opt="3") != \
        jitcache.cache_key("core", tmp_path, numba_version_text="0.68.1", opt="3")

    monkeypatch.delenv("NUMBA_OPT", raising=False)
    default = jitcache.cache_key("game_a", tmp_path)
    monkeypatch.setenv("NUMBA_OPT", "3")
    assert jitcache.cache_key("game_a", tmp_path) == default        # 3 is numba's default
    monkeypatch.setenv("NUMBA_OPT", "1")
    assert jitcache.opt_level() == "1" and jitcache.cache_key("game_a", tmp_path) != default
    import importlib.metadata
    assert jitcache.numba_version() == importlib.metadata.version("numba")


def test_files_map_to_their_package_folder(tmp_path, monkeypatch):
    make_two_games(tmp_path / "envs")
    envs = tmp_path / "envs"
    write(envs / "game_b" / "sub" / "kernels.py", "")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "cache" / "dragongym" / "numba"
    assert jitcache.package_of_file(envs / "game_a" / "rules.py", envs) == "game_a"
    assert jitcache.package_of_file(envs / "core" / "rng.py", envs) == "core"
    assert jitcache.package_of_file(envs / "__init__.py", envs) is None
    assert jitcache.package_of_file(tmp_path / "elsewhere.py", envs) is None
    key_a, key_b = jitcache.cache_key("game_a", envs), jitcache.cache_key("game_b", envs)
    assert jitcache.cache_dir_for_file(envs / "game_a" / "rules.py", envs) == root / "game_a" / key_a
    assert jitcache.cache_dir_for_file(envs / "game_b" / "sub" / "kernels.py", envs) == \
        root / "game_b" / key_b / "sub"
    assert jitcache.cache_dir_for_file(envs / "core" / "rng.py", envs) == \
        root / "core" / jitcache.cache_key("core", envs)
    assert jitcache.cache_dir_for_file(tmp_path / "elsewhere.py", envs) is None
    assert (root / "game_a" / key_a / ".last_used").is_file()


# --- folders -------------------------------------------------------------------

def age(folder, seconds, now):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ".last_used").touch()
    os.utime(folder / ".last_used", (now - seconds, now - seconds))


def test_stale_folders_are_removed_but_recent_ones_kept(tmp_path):
    now = time.time()
    for name, seconds in [("0123456789abcdef", 10), ("aaaaaaaaaaaaaaaa", 7200), ("bbbbbbbbbbbbbbbb", 7200)]:
        age(tmp_path / name, seconds, now)
    (tmp_path / "not-a-version").mkdir()
    os.utime(tmp_path / "not-a-version", (now - 7200, now - 7200))

    jitcache.remove_stale_folders(tmp_path, keep="bbbbbbbbbbbbbbbb", now=now)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["0123456789abcdef", "bbbbbbbbbbbbbbbb", "not-a-version"]


def test_choosing_a_game_folder_sweeps_that_games_stale_versions(tmp_path, monkeypatch):
    envs = tmp_path / "envs"
    make_two_games(envs)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    root = tmp_path / "cache" / "dragongym" / "numba"
    now = time.time()
    age(root / "game_a" / "aaaaaaaaaaaaaaaa", 7200, now)   # an old version of game A
    age(root / "game_a" / "cccccccccccccccc", 60, now)     # in use by another process
    age(root / "game_b" / "bbbbbbbbbbbbbbbb", 7200, now)   # game B's: left for game B to sweep
    age(root / "dddddddddddddddd", 7200, now)              # the old one-folder layout
    folder = jitcache.package_cache_dir("game_a", envs)
    assert folder == root / "game_a" / jitcache.cache_key("game_a", envs)
    assert sorted(p.name for p in (root / "game_a").iterdir()) == sorted([folder.name, "cccccccccccccccc"])
    assert (root / "game_b" / "bbbbbbbbbbbbbbbb").is_dir()
    assert not (root / "dddddddddddddddd").exists()


def test_an_unwritable_cache_falls_back_to_the_temp_dir_with_a_warning(tmp_path, monkeypatch):
    envs = tmp_path / "envs"
    make_two_games(envs)
    write(tmp_path / "not-a-folder", "")                     # XDG_CACHE_HOME cannot hold folders
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "not-a-folder"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    with pytest.warns(UserWarning, match="cannot write the numba cache"):
        folder = jitcache.package_cache_dir("game_b", envs)
    assert folder.is_dir() and tmp_path / "tmp" in folder.parents
    assert folder.parent.name == "game_b" and folder.name == jitcache.cache_key("game_b", envs)


# --- the notice ------------------------------------------------------------------

def test_the_notice_says_why(tmp_path, monkeypatch):
    envs = tmp_path / "envs"
    make_two_games(envs)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    first = jitcache.compile_notice("game_a", "rules.step", envs)
    assert "compiling game_a's numba code (first use)" in first and "dragongym warm game_a" in first
    assert jitcache.NOTICE_ENV in first and "once" in first and "\n" not in first
    folder = jitcache.package_cache_dir("game_a", envs)
    write(folder.parent / "eeeeeeeeeeeeeeee" / "rules.step-3.py311.nbi", "")   # an earlier version
    assert "(its sources, numba or NUMBA_OPT changed" in jitcache.compile_notice("game_a", "rules.step", envs)
    write(folder / "rules.reset-1.py311.nbi", "")                              # part of this version
    assert "compiling rules.step of game_a's numba code (not used before" in \
        jitcache.compile_notice("game_a", "rules.step", envs)


# --- in real processes -----------------------------------------------------------

def run_python(code, **env_changes):
    env = {k: v for k, v in os.environ.items()
           if k not in ("NUMBA_CACHE_DIR", "OMP_WAIT_POLICY", jitcache.NOTICE_ENV, "NUMBA_OPT")}
    env.update(env_changes)
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip(), done.stderr


def index_files(folder):
    return sorted(p.relative_to(folder).as_posix() for p in Path(folder).rglob("*.nbi"))


def test_importing_envs_is_cheap():
    out, _ = run_python("import sys, dragongym; print(sorted(m for m in ('torch', 'numba', 'gymnasium',"
                        " 'pettingzoo') if m in sys.modules))")
    assert out == "[]"


def test_importing_dragongym_puts_our_locator_first_once_numba_loads(tmp_path):
    out, _ = run_python("""
        import os, sys, dragongym
        print('numba' in sys.modules, os.environ.get('NUMBA_CACHE_DIR'), os.environ['OMP_WAIT_POLICY'])
        from numba.core import caching
        print([c.__name__ for c in caching.CacheImpl._locator_classes][:2])
    """, XDG_CACHE_HOME=str(tmp_path))
    assert out.splitlines() == ["False None passive", "['GameCacheLocator', 'UserProvidedCacheLocator']"]


PICK = """
    import sys, numpy as np
    import dragongym
    dragongym.get_game("dragonhunt")
    from numba.core import event
    from dragongym.envs.dragonhunt import playout

    class Finished(event.Listener):
        def on_start(self, ev): pass
        def on_end(self, ev): print("compiled", ev.data["dispatcher"].py_func.__name__, file=sys.stderr)

    event.register("numba:compile", Finished())
    print(playout._pick(np.ones(5, dtype=np.int8), 5, np.uint64(3), np.uint64(4)))
    from dragongym.envs.core import jitcache, rng
    rng.draw_below(np.uint64(3), np.uint64(4), 5)    # called from Python: an entry point of core
    print(jitcache.cache_key("dragonhunt")); print(jitcache.cache_key("core"))
"""
"""Compiles one small function of Dragonhunt (``playout._pick``, which calls
``core.rng.draw_below``) and ``draw_below`` itself, called from Python: seconds,
not the minutes of the rules core."""


def test_dragonhunt_code_lands_in_its_folder_and_its_first_compile_says_so(tmp_path):
    out, err = run_python(PICK, XDG_CACHE_HOME=str(tmp_path))
    choice, game_key, core_key = out.splitlines()
    root = tmp_path / "dragongym" / "numba"
    assert choice == "1"
    assert any(f.startswith("playout._pick-") for f in index_files(root / "dragonhunt" / game_key))
    assert any(f.startswith("rng.draw_below-") for f in index_files(root / "core" / core_key))
    # _pick's own copy of draw_below is compiled into _pick's code, not cached apart
    assert not any(f.startswith("rng.") for f in index_files(root / "dragonhunt" / game_key))
    assert sorted(p.name for p in root.iterdir()) == ["core", "dragonhunt"]   # nowhere else
    notices = [line for line in err.splitlines() if line.startswith("dragongym: compiling")]
    assert len(notices) == 1, err                                         # one line, for the game
    notice = notices[0]
    assert "dragonhunt's numba code (first use)" in notice and "about 1 minute on 2 cores" in notice
    assert "`dragongym warm dragonhunt`" in notice and str(root / "dragonhunt" / game_key) in notice
    lines = err.splitlines()
    assert lines.index(notice) < min(i for i, line in enumerate(lines) if line.startswith("compiled "))

    again_out, again_err = run_python(PICK, XDG_CACHE_HOME=str(tmp_path))   # warm: loads, says nothing
    assert again_out == out and "dragongym: compiling" not in again_err and "compiled " not in again_err


def test_the_notice_can_be_silenced(tmp_path):
    _, err = run_python(PICK, XDG_CACHE_HOME=str(tmp_path), **{jitcache.NOTICE_ENV: "1"})
    assert "compiled _pick" in err and "dragongym: compiling" not in err


def test_user_settings_win(tmp_path):
    out, err = run_python(textwrap.dedent(PICK) + "import os; print(os.environ['OMP_WAIT_POLICY'])\n",
                          NUMBA_CACHE_DIR=str(tmp_path / "mine"), OMP_WAIT_POLICY="active",
                          XDG_CACHE_HOME=str(tmp_path / "xdg"))
    assert out.splitlines()[-1] == "active"
    assert any("playout._pick-" in f for f in index_files(tmp_path / "mine"))
    assert not index_files(tmp_path / "xdg")
    assert "dragongym: compiling" not in err        # numba's own caching: no claims about it


def test_numba_imported_first_still_uses_the_game_folders(tmp_path):
    out, _ = run_python("""
        import numba, numpy as np, dragongym
        from dragongym.envs.core import jitcache, rng
        rng.mix64(np.uint64(3))
        print(jitcache.cache_key("core"))
    """, XDG_CACHE_HOME=str(tmp_path))
    folder = tmp_path / "dragongym" / "numba" / "core" / out
    assert any(f.startswith("rng.mix64-") for f in index_files(folder))


# --- what the keys cover -----------------------------------------------------------

def _module_name(path):
    rel = path.relative_to(jitcache.ENVS_ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["dragongym"] + parts)


def _imported_names(path):
    """Absolute names of the modules (and module attributes) ``path`` imports."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
            names += [base] + [f"{base}.{a.name}" for a in node.names]
    return [name.replace("envs.", "dragongym.envs.", 1) if name.startswith("envs.") else name
            for name in names]


def _hashed_modules():
    for path in sorted(jitcache.ENVS_ROOT.rglob("*.py")):
        if "__pycache__" not in path.parts and not jitcache.is_marked_not_compiled(path):
            yield path


def test_the_marked_modules_keep_their_promise():
    """A marked module holds no numba code, and no hashed module imports it:
    otherwise an edit to it could leave stale compiled callers in the cache."""
    marked = set()
    for path in sorted(jitcache.ENVS_ROOT.rglob("*.py")):
        if "__pycache__" not in path.parts and jitcache.is_marked_not_compiled(path):
            marked.add(_module_name(path))
            assert not re.search(r"@(numba\.)?n?jit|\bprange\(|\bvectorize\b", path.read_text()), path
    assert "dragongym.envs.core.aec" in marked and "dragongym.envs.dragonhunt.game" in marked
    for path in _hashed_modules():
        for name in _imported_names(path):
            assert name not in marked, f"{path.name} imports {name}, which is marked not compiled"


def test_compiled_modules_import_only_their_own_package_and_core():
    """A game's key covers envs/<game>/ and envs/core/ only; a compiled module
    that imported another game's or any other dragongym code could be served
    stale after an edit there."""
    checked = set()
    for path in _hashed_modules():
        package = jitcache.package_of_file(path)
        if package is None:
            continue
        checked.add(package)
        allowed = {"dragongym.envs.core", f"dragongym.envs.{package}"}
        for name in _imported_names(path):
            if name == "dragongym" or name.startswith("dragongym."):
                assert any(name == a or name.startswith(a + ".") for a in allowed), \
                    f"{path.relative_to(jitcache.ENVS_ROOT)} imports {name}, outside its cache key"
    assert {"core", "dragonhunt"} <= checked
