"""A real browser for the page tests: Debian's headless chromium driven by playwright.

``with launched_chromium() as browser:`` gives a headless chromium, and
``with chromium_page() as (page, problems):`` a fresh page and a list
that collects every page error and console error while the block runs (a
test asserts it empty). Where chromium or playwright is missing the tests
are skipped with the reason -- unless ``DRAGONGYM_REQUIRE_BROWSER=1`` (set by
``.ci/run``, which installs chromium), where they fail instead.
"""
import contextlib
import os
import shutil
import tempfile

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
"""As root on a closed network: no sandbox, and no background connections
(each of them refused would slow the start and litter the console)."""


def _missing(reason):
    if os.environ.get("DRAGONGYM_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason}; DRAGONGYM_REQUIRE_BROWSER=1 requires the browser tests to run")
    pytest.skip(reason)


def chromium_executable():
    """The path of the chromium to drive (skips or fails the test where there is none)."""
    path = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if not path:
        _missing(f"no chromium at {CHROMIUM} (Debian: apt-get install chromium)")
    return path


def playwright_api():
    """``playwright.sync_api`` (skips or fails the test where it is not installed)."""
    try:
        from playwright import sync_api
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[dev]')")
    return sync_api


@contextlib.contextmanager
def launched_chromium():
    """A headless chromium (a playwright ``Browser``) for the block: the
    ``browser`` fixture of the page tests."""
    sync_api = playwright_api()
    executable = chromium_executable()
    with sync_api.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@contextlib.contextmanager
def chromium_page():
    """``(page, problems)``: a playwright page in headless chromium, and the
    page errors and console errors seen so far (strings)."""
    sync_api = playwright_api()
    executable = chromium_executable()
    profile = tempfile.mkdtemp(prefix="dragongym-chromium-")
    try:
        with sync_api.sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile, executable_path=executable, headless=True, args=CHROMIUM_ARGS)
            try:
                page = context.new_page()
                problems = []
                page.on("pageerror", lambda err: problems.append(f"page error: {err}"))
                page.on("console", lambda msg: problems.append(f"console {msg.type}: {msg.text}")
                        if msg.type == "error" else None)
                yield page, problems
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
