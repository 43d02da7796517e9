import pytest

import envs


@pytest.fixture
def race_registered():
    """The toy game registered as "race" for the duration of a test."""
    envs.register("race", "tests.core.toygame:GAME")
    yield "race"
    envs._FACTORIES.pop("race", None)
    envs._GAMES.pop("race", None)
