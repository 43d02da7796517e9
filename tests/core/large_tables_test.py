"""Large board tables reach compiled code as arguments, never as globals.

numba freezes a global numpy array into the compiled code, and refuses to
cache a function that embeds one larger than about 1 MB, so every process
would compile that game from scratch (DESIGN.md, pitfall 9). A Dragon Pass
hex-pair table would be such an array. This test holds every registered game
to the rule: no module-level array of a game's compiled modules may come near
the limit; bigger tables are passed to the compiled functions as arguments
(or kept as neighbour lists sized to the map), and a board built during play
lives in the state record.
"""
import importlib
import pkgutil

import numpy as np
import pytest

import dragongym
from dragongym.envs.core import jitcache

MAX_GLOBAL_TABLE_BYTES = 256 * 1024
"""A quarter of numba's limit: room for a table to grow before caching breaks."""


def _compiled_modules(game_name):
    package = f"dragongym.envs.{game_name}"
    pkg = importlib.import_module(package)
    for info in pkgutil.iter_modules(pkg.__path__):
        module = importlib.import_module(f"{package}.{info.name}")
        if not jitcache.is_marked_not_compiled(module.__file__):
            yield module


@pytest.mark.parametrize("game_name", dragongym.list_games())
def test_no_compiled_module_embeds_a_large_table(game_name):
    dragongym.get_game(game_name)
    modules = list(_compiled_modules(game_name))
    assert modules, f"{game_name} has no compiled modules to check"
    for module in modules:
        for name, value in vars(module).items():
            if isinstance(value, np.ndarray):
                assert value.nbytes <= MAX_GLOBAL_TABLE_BYTES, (
                    f"{module.__name__}.{name} is a {value.nbytes:,}-byte global table: numba would "
                    "embed it in compiled code; pass it to the compiled functions as an argument")
