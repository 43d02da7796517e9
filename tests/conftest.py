import pytest

import dragongym

TOY_GAMES = {
    "race": "tests.core.toygame:GAME",     # 2-4 interchangeable players, zero-sum
    "dive": "tests.core.toygames:DIVE",    # 1 seat, solo, a score
    "gather": "tests.core.toygames:GATHER",  # 3 seats, ranked, general-sum
}


def _registered(name):
    dragongym.register(name, TOY_GAMES[name])
    yield name
    dragongym.envs._FACTORIES.pop(name, None)
    dragongym.envs._GAMES.pop(name, None)


@pytest.fixture
def race():
    """Race to Ten (tests/core/toygame.py) registered as "race" for one test."""
    yield from _registered("race")


@pytest.fixture
def dive():
    """Dive, the 1-seat solo toy game (tests/core/toygames.py), registered as "dive"."""
    yield from _registered("dive")


@pytest.fixture
def gather():
    """Gather, the 3-seat ranked toy game (tests/core/toygames.py), registered as "gather"."""
    yield from _registered("gather")
