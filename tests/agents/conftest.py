import pytest

import dragongym


@pytest.fixture
def factions():
    """Factions (tests/agents/rolegame.py: three seats that are roles) registered as "factions"."""
    dragongym.register("factions", "tests.agents.rolegame:FACTIONS")
    yield "factions"
    dragongym.envs._FACTORIES.pop("factions", None)
    dragongym.envs._GAMES.pop("factions", None)
