"""Fixtures of the conformance suite.

A test that takes ``case`` runs once per (game, test configuration) (see
``cases.py``); one that takes ``game_name`` runs once per game. Toy games are
registered with ``dragongym.register`` for the duration of the test only.

Every test runs with every warning recorded (``simplefilter("always")``) and
fails on one that ``warning_policy.ALLOWED`` does not explain. Garbage the
tests of other modules left is collected before each module, outside the
recording, so that its warnings (an unclosed socket of a web test, found at
some later collection) are not taken for the warnings of a game's test.
"""
import gc

import pytest

from tests.conformance.cases import all_cases, game_names, registered
from tests.conformance.warning_policy import only_allowed_warnings


def pytest_generate_tests(metafunc):
    if "case" in metafunc.fixturenames:
        cases = all_cases()
        metafunc.parametrize("case", cases, ids=[str(c) for c in cases], indirect=True)
    if "game_name" in metafunc.fixturenames:
        names = game_names()
        metafunc.parametrize("game_name", names, ids=names, indirect=True)


@pytest.fixture
def case(request):
    """One :class:`tests.conformance.cases.Case`, its game registered."""
    with registered(request.param.name):
        yield request.param


@pytest.fixture
def game_name(request):
    """One game's registry id, registered."""
    with registered(request.param):
        yield request.param


@pytest.fixture(autouse=True, scope="module")
def collected_before():
    """Collect what earlier modules left before this module's tests record warnings."""
    gc.collect()


@pytest.fixture(autouse=True)
def every_warning_is_heard(request):
    """Fail a test (at teardown) on any warning outside the allow-list."""
    spec = request.getfixturevalue("case").spec if "case" in request.fixturenames else None
    with only_allowed_warnings(spec):
        yield
