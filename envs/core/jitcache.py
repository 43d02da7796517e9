"""Process settings that must be in place before numba compiles anything.

Imported first by ``envs/__init__.py``; importing it has these effects once per
process:

* **A numba cache that can never be stale** (DESIGN.md pitfall 6). numba checks
  only the timestamp of the file that holds a cached function, so editing a
  module it *calls* (a shared kernel, a data table frozen into the code) can
  leave an old compiled caller in use. Unless the user chose ``NUMBA_CACHE_DIR``
  themselves, we point it at a folder named by a hash of every source and data
  file under ``envs/``: any edit anywhere selects a fresh folder, and going back
  to an earlier version finds that version's code again. Folders of other
  versions unused for an hour are removed, best effort.
* **Quiet OpenMP threads** (pitfall 7): ``OMP_WAIT_POLICY=passive`` unless set,
  so idle ``prange`` workers sleep instead of spinning beside the envs.

This module imports nothing heavy (no numba, numpy or torch).
"""
# jitcache: no compiled code
import hashlib
import os
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path

ENVS_ROOT = Path(__file__).resolve().parent.parent
"""The ``envs`` package folder whose sources key the cache."""

KEEP_SECONDS = 3600
"""Cache folders of other source versions used within this many seconds are kept
(another process may be running that version)."""

_HASH_CHARS = 16
_STAMP = ".last_used"


NOT_COMPILED_MARK = "# jitcache: no compiled code"
"""A module whose source holds this line (alone on a line) compiles nothing and
is imported by no compiled module (the adapters, a game's Python face); its
edits do not change the cache key, so working on an adapter keeps every game's
compiled code. ``tests/core/jitcache_test.py`` checks both promises."""


def is_marked_not_compiled(path):
    """True if the module at ``path`` carries :data:`NOT_COMPILED_MARK`."""
    try:
        return NOT_COMPILED_MARK in Path(path).read_text().splitlines()
    except (OSError, UnicodeDecodeError):
        return False


def _hashed_files(root):
    """The files whose contents decide the compiled code, sorted by relative path.

    Every ``.py`` file but those marked :data:`NOT_COMPILED_MARK`, and every
    file inside a ``data`` folder (tables read at import time are frozen into
    compiled functions as constants).
    """
    root = Path(root)
    files = []
    for path in root.rglob("*"):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        rel = path.relative_to(root)
        if path.suffix == ".py" and is_marked_not_compiled(path):
            continue
        if path.suffix == ".py" or "data" in rel.parts[:-1]:
            files.append((rel.as_posix(), path))
    files.sort()
    return files


def source_hash(root=ENVS_ROOT):
    """Hex digest (``_HASH_CHARS`` long) of the relative paths and contents of
    the files under ``root`` that compiled code depends on."""
    digest = hashlib.sha256()
    for rel, path in _hashed_files(root):
        digest.update(rel.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:_HASH_CHARS]


def cache_root():
    """Folder holding one numba cache folder per source version."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dragongym" / "numba"


def _is_version_folder(path):
    name = path.name
    return path.is_dir() and len(name) == _HASH_CHARS and all(c in "0123456789abcdef" for c in name)


def _last_used(folder):
    stamp = folder / _STAMP
    try:
        return stamp.stat().st_mtime
    except OSError:
        return folder.stat().st_mtime


def remove_stale_folders(root, keep, now=None, keep_seconds=KEEP_SECONDS):
    """Delete version folders under ``root`` other than ``keep`` that were last
    used more than ``keep_seconds`` ago. Errors are ignored: another process may
    be doing the same."""
    now = time.time() if now is None else now
    try:
        folders = list(Path(root).iterdir())
    except OSError:
        return
    for folder in folders:
        try:
            if folder.name == keep or not _is_version_folder(folder):
                continue
            if now - _last_used(folder) > keep_seconds:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            continue


def _prepare(folder):
    """Create ``folder`` and mark it used now; False where that is impossible."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / _STAMP).touch()
        return os.access(folder, os.W_OK)
    except OSError:
        return False


def configure():
    """Apply this module's settings (idempotent). Returns the numba cache folder
    in use, or None when none could be created."""
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    if os.environ.get("NUMBA_CACHE_DIR"):
        return os.environ["NUMBA_CACHE_DIR"]
    key = source_hash()
    fallback = Path(tempfile.gettempdir()) / f"dragongym-{os.getuid() if hasattr(os, 'getuid') else 0}" / "numba"
    for root in (cache_root(), fallback):
        folder = root / key
        if _prepare(folder):
            os.environ["NUMBA_CACHE_DIR"] = str(folder)
            remove_stale_folders(root, keep=key)
            break
    else:
        warnings.warn("dragongym: no writable folder for the numba cache; set NUMBA_CACHE_DIR "
                      "(numba's default cache beside the sources can serve stale code)")
        return None
    # If numba was imported before us, make it read the new setting.
    config = sys.modules.get("numba.core.config")
    if config is not None:
        config.reload_config()
    return os.environ["NUMBA_CACHE_DIR"]


CACHE_DIR = configure()
"""The numba cache folder this process uses (None: numba's default)."""
