"""The numba cache folder follows the sources, so compiled code is never stale."""
import os
import re
import subprocess
import sys
import time
from pathlib import Path

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
    out = run_python("import os, dragongym; print(os.environ['NUMBA_CACHE_DIR']);"
                     "print(os.environ['OMP_WAIT_POLICY'])", XDG_CACHE_HOME=str(tmp_path))
    cache_dir, omp = out.splitlines()
    expected = tmp_path / "dragongym" / "numba" / jitcache.source_hash()
    assert Path(cache_dir) == expected and expected.is_dir()
    assert omp == "passive"


def test_user_settings_win(tmp_path):
    out = run_python("import os, dragongym; print(os.environ['NUMBA_CACHE_DIR']);"
                     "print(os.environ['OMP_WAIT_POLICY'])",
                     NUMBA_CACHE_DIR=str(tmp_path / "mine"), OMP_WAIT_POLICY="active",
                     XDG_CACHE_HOME=str(tmp_path))
    assert out.splitlines() == [str(tmp_path / "mine"), "active"]


def test_numba_imported_first_still_uses_the_folder(tmp_path):
    out = run_python("import numba, dragongym; from numba.core import config; print(config.CACHE_DIR)",
                     XDG_CACHE_HOME=str(tmp_path))
    assert Path(out) == tmp_path / "dragongym" / "numba" / jitcache.source_hash()


def test_importing_envs_is_cheap():
    out = run_python("import sys, dragongym; print(sorted(m for m in ('torch', 'numba', 'gymnasium',"
                     " 'pettingzoo') if m in sys.modules))")
    assert out == "[]"


def test_modules_marked_not_compiled_leave_the_hash_alone(tmp_path):
    make_tree(tmp_path)
    write(tmp_path / "core" / "adapter.py", f'"""An adapter."""\n{jitcache.NOT_COMPILED_MARK}\nX = 1\n')
    before = jitcache.source_hash(tmp_path)
    write(tmp_path / "core" / "adapter.py", f'"""An adapter."""\n{jitcache.NOT_COMPILED_MARK}\nX = 2\n')
    assert jitcache.source_hash(tmp_path) == before
    write(tmp_path / "core" / "adapter.py", '"""An adapter, unmarked."""\nX = 2\n')
    assert jitcache.source_hash(tmp_path) != before


def _module_name(path):
    rel = path.relative_to(jitcache.ENVS_ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(["dragongym"] + parts)


def test_the_marked_modules_keep_their_promise():
    """A marked module holds no numba code, and no hashed module imports it:
    otherwise an edit to it could leave stale compiled callers in the cache."""
    import ast

    marked, hashed = set(), []
    for path in sorted(jitcache.ENVS_ROOT.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        if jitcache.is_marked_not_compiled(path):
            marked.add(_module_name(path))
            assert not re.search(r"@(numba\.)?n?jit|\bprange\(|\bvectorize\b", path.read_text()), path
        else:
            hashed.append(path)
    assert "dragongym.envs.core.aec" in marked and "dragongym.envs.dragonhunt.game" in marked
    for path in hashed:
        module = _module_name(path)
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1]
                                    + ([base] if base else []))
                names = [base] + [f"{base}.{a.name}" for a in node.names]
            for name in names:
                name = name.replace("envs.", "dragongym.envs.", 1) if name.startswith("envs.") else name
                assert name not in marked, f"{path.name} imports {name}, which is marked not compiled"
