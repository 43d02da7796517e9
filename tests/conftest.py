import pytest

import envs


@pytest.fixture
def race():
    """The toy game of tests/core (pure Python, quick games) registered as "race" for one test."""
    envs.register("race", "tests.core.toygame:GAME")
    yield "race"
    envs._FACTORIES.pop("race", None)
    envs._GAMES.pop("race", None)

