"""Process settings that must be in place before numba compiles anything.

Imported first by ``envs/__init__.py``; importing it has these effects once per
process:

* **A numba cache per game that can never be stale** (DESIGN.md pitfall 6).
  numba checks only the file that holds a cached function, so editing a module
  it *calls* (a shared kernel, a data table frozen into the code) can leave an
  old compiled caller in use. numba picks the folder of every cached function
  through the locator classes in ``numba.core.caching.CacheImpl._locator_classes``;
  the moment numba is imported we put ours first (a post-import hook: importing
  this module does not import numba). A function defined under ``envs/<game>/``
  is cached in ``<cache_root>/<game>/<key>``, ``key`` a hash of the compiled
  files of ``envs/<game>/`` (its ``data/`` tables included) and of
  ``envs/core/``, the numba version and ``NUMBA_OPT``; one defined under
  ``envs/core/`` in ``<cache_root>/core/<key>`` (``envs/core/`` only). So an
  edit selects a fresh folder for exactly the games it can change, editing one
  game keeps every other game's compiled code, and going back to an earlier
  version finds that version's code again. Version folders of a game unused for
  an hour are removed, best effort. Any other numba code (yours) is cached where
  numba puts it by default; where the user set ``NUMBA_CACHE_DIR`` (or
  ``NUMBA_CACHE_LOCATOR_CLASSES``) numba's own behaviour applies to everything.
* **The first compile says so**: the first time a game's code has to be
  compiled in a process (not found in the cache), one line on stderr says which
  game, why, roughly how long, and that ``dragongym warm`` does it ahead of time.
  ``DRAGONGYM_NO_COMPILE_NOTICE=1`` silences it.
* **Quiet OpenMP threads** (pitfall 7): ``OMP_WAIT_POLICY=passive`` unless set,
  so idle ``prange`` workers sleep instead of spinning beside the envs.

This module imports nothing heavy (no numba, numpy or torch) until numba itself
is imported or :func:`warm` is called.
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
"""The ``envs`` package folder: every folder in it is a package whose compiled
code is cached apart (``core``, and one per game)."""

CORE = "core"
"""The package of the game-agnostic kernels; every game's key covers it."""

KEEP_SECONDS = 3600
"""Version folders of a package used within this many seconds are kept
(another process may be running that version)."""

NOTICE_ENV = "DRAGONGYM_NO_COMPILE_NOTICE"
"""Set to ``1`` to silence the first-compile notice."""

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


# --- keys ----------------------------------------------------------------------

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


def numba_version():
    """The installed numba's version string, read without importing numba."""
    numba = sys.modules.get("numba")
    if getattr(numba, "__version__", None):
        return numba.__version__
    from importlib.metadata import version
    return version("numba")


def opt_level():
    """numba's optimisation level as ``NUMBA_OPT`` sets it (``"3"``, numba's
    default, when unset). numba's cache index does not record it, so it is part
    of the key."""
    return os.environ.get("NUMBA_OPT", "").strip().lower() or "3"


def cache_key(package, envs_root=None, numba_version_text=None, opt=None):
    """The version-folder name (``_HASH_CHARS`` hex digits) of ``package`` (a
    folder of ``envs_root``: ``"core"`` or a game's).

    It hashes the compiled files of ``envs/core/`` and, for a game, those of
    ``envs/<game>/`` (see :func:`source_hash`), the numba version
    (:func:`numba_version` unless given) and the optimisation level
    (:func:`opt_level` unless given): everything a game's compiled code is
    built from. A game's compiled modules import nothing compiled outside
    these two folders (``tests/core/jitcache_test.py`` checks it).
    """
    envs_root = Path(ENVS_ROOT if envs_root is None else envs_root)
    parts = [f"numba={numba_version() if numba_version_text is None else numba_version_text}",
             f"opt={opt_level() if opt is None else opt}", f"core={source_hash(envs_root / CORE)}"]
    if package != CORE:
        parts.append(f"{package}={source_hash(envs_root / package)}")
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:_HASH_CHARS]


def package_of_file(path, envs_root=None):
    """The package (``"core"`` or a game's folder name) whose folder under
    ``envs/`` holds the file ``path``; None for a file elsewhere (or
    ``envs/__init__.py`` itself)."""
    envs_root = Path(ENVS_ROOT if envs_root is None else envs_root).resolve()
    try:
        rel = Path(path).resolve().relative_to(envs_root)
    except (ValueError, OSError):
        return None
    return rel.parts[0] if len(rel.parts) >= 2 else None


# --- folders -------------------------------------------------------------------

def cache_root():
    """Folder holding one folder per package, each holding one numba cache
    folder per version of the package's sources."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dragongym" / "numba"


def _fallback_root():
    """Where the cache goes when :func:`cache_root` cannot be written."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"dragongym-{uid}" / "numba"


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
    """Delete version folders under ``root`` other than ``keep`` (a folder name
    or None) that were last used more than ``keep_seconds`` ago. Errors are
    ignored: another process may be doing the same."""
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


_FOLDERS = {}
"""``(envs_root, cache_root, package) -> version folder or None``, settled once
per process (the key is hashed once, stale folders swept once)."""
_SWEPT_ROOTS = set()


def package_cache_dir(package, envs_root=None):
    """The numba cache folder of ``package``'s current version, created and
    marked used; None where no folder can be written (numba's defaults then
    apply, with a warning).

    ``<cache_root>/<package>/<key>`` (:func:`cache_root`, :func:`cache_key`);
    if that cannot be written, the same under the temp dir, with a warning.
    Choosing it removes the package's stale version folders, and folders of the
    earlier one-folder-for-everything layout (``<cache_root>/<key>``).
    """
    envs_root = Path(ENVS_ROOT if envs_root is None else envs_root)
    memo = (str(envs_root), str(cache_root()), package)
    if memo in _FOLDERS:
        return _FOLDERS[memo]
    key = cache_key(package, envs_root)
    chosen = None
    for root in (cache_root(), _fallback_root()):
        if _prepare(root / package / key):
            chosen = root / package / key
            if root != cache_root():
                warnings.warn(f"dragongym: cannot write the numba cache under {cache_root()}; "
                              f"{package}'s compiled code is cached in {chosen} instead (set "
                              f"XDG_CACHE_HOME or NUMBA_CACHE_DIR to choose a folder)", stacklevel=2)
            remove_stale_folders(root / package, keep=key)
            if root not in _SWEPT_ROOTS:
                _SWEPT_ROOTS.add(root)
                remove_stale_folders(root, keep=None)   # the old layout's version folders
            break
    else:
        warnings.warn(f"dragongym: no writable folder for the numba cache of {package}; numba's "
                      "default cache beside the sources is used, which can serve stale code "
                      "(set NUMBA_CACHE_DIR)", stacklevel=2)
    _FOLDERS[memo] = chosen
    return chosen


def cache_dir_for_file(path, envs_root=None):
    """The folder where numba caches the functions of the source file ``path``
    under ``envs/`` (a package's version folder, or a subfolder of it for a
    file in a subfolder of the package); None for a file elsewhere or when
    nothing can be written."""
    envs_root = Path(ENVS_ROOT if envs_root is None else envs_root).resolve()
    package = package_of_file(path, envs_root)
    if package is None:
        return None
    folder = package_cache_dir(package, envs_root)
    if folder is None:
        return None
    inner = Path(path).resolve().parent.relative_to(envs_root / package)
    return folder.joinpath(*inner.parts)


# --- the numba side (built once numba is imported) -------------------------------

def _numba_uses_its_own_settings():
    """True where the user chose numba's cache folder or locators themselves
    (``NUMBA_CACHE_DIR``, ``NUMBA_CACHE_LOCATOR_CLASSES``), as numba read them."""
    config = sys.modules.get("numba.core.config")
    return bool(getattr(config, "CACHE_DIR", "") or getattr(config, "CACHE_LOCATOR_CLASSES", ""))


def _make_locator_class(caching):
    """Our locator, a subclass of numba's source-file locators, for the
    ``caching`` module (``numba.core.caching``)."""

    class GameCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
        """Caches a function defined under ``envs/<package>/`` in that package's
        version folder (:func:`cache_dir_for_file`); declines (None) every other
        function, which then goes to numba's own locators. Freshness within the
        folder is numba's usual check of the defining file's contents."""

        def __init__(self, py_func, py_file, cache_path):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._cache_path = str(cache_path)

        def get_cache_path(self):
            return self._cache_path

        @classmethod
        def from_function(cls, py_func, py_file):
            if _numba_uses_its_own_settings() or not os.path.exists(py_file):
                return None
            folder = cache_dir_for_file(py_file)
            if folder is None:
                return None
            self = cls(py_func, py_file, folder)
            try:
                self.ensure_cache_path()
            except OSError:
                return None
            _register_compile_notice()
            return self

    return GameCacheLocator


def _install_into_numba(caching):
    """Put our locator first in ``caching.CacheImpl._locator_classes``."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    if not any(getattr(c, "__name__", "") == "GameCacheLocator" for c in impl._locator_classes):
        impl._locator_classes = [_make_locator_class(caching)] + list(impl._locator_classes)


class _LoaderThenInstall:
    """Runs the real loader of ``numba.core.caching``, then installs our locator.
    (The import protocol is duck-typed: no ``importlib.abc`` base, whose import
    pulls in ``typing``.)"""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        _install_into_numba(module)

    def __getattr__(self, name):   # get_source, get_filename, ... for inspect and linecache
        return getattr(self._loader, name)


class _NumbaCachingHook:
    """Finds ``numba.core.caching`` through the other finders and wraps its
    loader, so our locator is in place before any function is decorated."""

    def find_spec(self, fullname, path, target=None):
        if fullname != "numba.core.caching":
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _LoaderThenInstall(spec.loader)
                sys.meta_path[:] = [f for f in sys.meta_path if f is not self]
                return spec
        return None


def _install_locator():
    if "numba.core.caching" in sys.modules:
        _install_into_numba(sys.modules["numba.core.caching"])
    elif not any(isinstance(f, _NumbaCachingHook) for f in sys.meta_path):
        sys.meta_path.insert(0, _NumbaCachingHook())


# --- the first-compile notice ----------------------------------------------------

_ANNOUNCED = set()
_NOTICE_REGISTERED = False
_notice_silenced = False


def _game_of_package(package, envs_root=None):
    """The registered (and already made) game whose class lives in ``package``, or None."""
    registry = sys.modules.get("dragongym.envs")
    for game in list(getattr(registry, "_GAMES", {}).values()):
        module = sys.modules.get(type(game).__module__)
        path = getattr(module, "__file__", "") or ""
        if path and package_of_file(path, envs_root) == package:
            return game
    return None


def _has_index_files(folder):
    return any(True for _ in Path(folder).rglob("*.nbi"))


def compile_notice(package, function_name="", envs_root=None):
    """The one line announcing that ``package``'s compiled code is being built:
    what, why (first use; sources or numba settings changed; or, where other
    parts of this version are cached, an entry point not used before), about
    how long, that it happens once, and how to do it ahead of time."""
    folder = package_cache_dir(package, envs_root)
    game = _game_of_package(package, envs_root)
    name = game.name if game is not None and game.name else package
    minutes = getattr(game, "compile_minutes", None)
    how_long = (f"about {minutes:g} minute{'s' if minutes != 1 else ''} on 2 cores"
                if minutes else "can take minutes")
    others = []
    if folder is not None:
        others = [f for f in folder.parent.iterdir() if f != folder and _is_version_folder(f)]
    if folder is not None and _has_index_files(folder):
        what = f"compiling {function_name or 'more'} of {name}'s numba code"
        why = "not used before with these sources"
        how_long = "up to a few minutes"
    else:
        what = f"compiling {name}'s numba code"
        why = ("its sources, numba or NUMBA_OPT changed since it was last compiled"
               if any(_has_index_files(f) for f in others) else "first use")
    where = f" (cached in {folder})" if folder is not None else ""
    return (f"dragongym: {what} ({why}): {how_long}, once for these sources{where}; "
            f"`dragongym warm {name}` does it ahead of time ({NOTICE_ENV}=1 hides this line)")


def announce_compile(package, function_name="", file=None):
    """Print :func:`compile_notice` to stderr, once per package per process,
    unless :data:`NOTICE_ENV` is set (or :func:`warm` is running: it reports
    every entry point itself)."""
    if package in _ANNOUNCED or _notice_silenced or os.environ.get(NOTICE_ENV, "") not in ("", "0"):
        return
    _ANNOUNCED.add(package)
    print(compile_notice(package, function_name), file=file or sys.stderr, flush=True)


def _register_compile_notice():
    """Listen to numba's ``numba:compile`` events (one per compile that the
    cache could not serve, before it starts) and announce the first of each
    package's cached functions."""
    global _NOTICE_REGISTERED
    if _NOTICE_REGISTERED:
        return
    _NOTICE_REGISTERED = True
    from numba.core import caching, event

    class CompileNotice(event.Listener):
        def on_start(self, ev):
            dispatcher = (ev.data or {}).get("dispatcher")
            py_func = getattr(dispatcher, "py_func", None)
            # uncached functions compile in every process: "once" would be untrue
            if py_func is None or isinstance(getattr(dispatcher, "_cache", None), caching.NullCache):
                return
            package = package_of_file(py_func.__code__.co_filename)
            # envs/core's kernels compile as part of some game's entry point,
            # which has said so already: one line per game, none for core
            if package is not None and package != CORE:
                announce_compile(package, f"{py_func.__module__.rpartition('.')[2]}.{py_func.__name__}")

        def on_end(self, ev):
            pass

    event.register("numba:compile", CompileNotice())


# --- warming ---------------------------------------------------------------------

def warm(game, log=None, on_start=None):
    """Run every compiled entry point of ``game`` (``game.compiled_entry_points()``)
    once, so numba compiles it into the cache or loads it from there.

    ``on_start(name)`` is called before each entry point runs and
    ``log(name, seconds, compiled)`` after it (``compiled``: False where
    everything came from the cache). Returns ``(results, folder)``:
    ``[(name, seconds, compiled), ...]`` in order, and the folder the game's
    compiled code is cached in: its version folder, the user's
    ``NUMBA_CACHE_DIR``, or None (a game outside ``envs/``: numba's default
    beside its sources).
    """
    global _notice_silenced
    import inspect

    from numba.core import config, event

    results = []
    silenced, _notice_silenced = _notice_silenced, True   # warm reports every compile itself
    try:
        for name, run in game.compiled_entry_points():
            if on_start is not None:
                on_start(name)
            start = time.perf_counter()
            with event.install_recorder("numba:compile") as recorder:
                run()
            seconds = time.perf_counter() - start
            compiled = bool(recorder.buffer)
            results.append((name, seconds, compiled))
            if log is not None:
                log(name, seconds, compiled)
    finally:
        _notice_silenced = silenced

    package = package_of_file(inspect.getfile(type(game)))
    if _numba_uses_its_own_settings():
        folder = Path(config.CACHE_DIR) if config.CACHE_DIR else None
    else:
        folder = package_cache_dir(package) if package is not None else None
    return results, folder


def configure():
    """Apply this module's settings (idempotent): ``OMP_WAIT_POLICY`` and the
    locator (installed now if numba is imported, else when it is)."""
    os.environ.setdefault("OMP_WAIT_POLICY", "passive")
    _install_locator()


configure()
