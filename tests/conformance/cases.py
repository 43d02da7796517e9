"""Which games and configurations the conformance suite plays.

Every game in ``dragongym.list_games()`` plus the three toy games of
``tests/core`` (``tests.conftest.TOY_GAMES``), and for each every option dict
of ``game.test_configs()``. Nothing here names a real game: a game registered
tomorrow is picked up as it is.

Games are kept short without naming their options: where a test configuration
leaves the game's ``truncation_option`` unset and the default limit allows more
than :data:`DECISION_BUDGET` decisions (``spec.max_decisions``), the option is
set to the largest value whose ``max_decisions`` fits, or to its smallest
allowed value where none does (Dragonhunt: ``max_hands=1``).
"""
import contextlib
import dataclasses
import importlib
from dataclasses import dataclass

import numpy as np

import dragongym
from tests.conftest import TOY_GAMES

DECISION_BUDGET = 1000
"""Most decisions ``spec.max_decisions`` may allow in a conformance game."""


def load_game(name):
    """The Game object of ``name``: a toy game by its ``module:ATTR`` string (so
    that collecting needs no registration), otherwise the registry's."""
    if name in TOY_GAMES:
        module, _, attr = TOY_GAMES[name].partition(":")
        return getattr(importlib.import_module(module), attr)
    return dragongym.get_game(name)


@contextlib.contextmanager
def registered(name):
    """Register a toy game with ``dragongym.register`` for the block (real
    games are registered already)."""
    if name in TOY_GAMES and name not in dragongym.list_games():
        dragongym.register(name, TOY_GAMES[name])
        try:
            yield
        finally:
            dragongym.envs._FACTORIES.pop(name, None)
            dragongym.envs._GAMES.pop(name, None)
    else:
        yield


def game_names():
    """Registered games first, then the toy games not registered under the same name."""
    real = list(dragongym.list_games())
    return real + [name for name in TOY_GAMES if name not in real]


def short_options(game, options):
    """``options`` with the game's truncation option lowered to keep games short."""
    opt = game.truncation_option
    if not opt or opt in options:
        return dict(options)
    fields = {f.name: f for f in dataclasses.fields(game.config_cls)}
    rng = fields[opt].metadata.get("range") if opt in fields else None
    if game.spec_for(game.make_config(**options)).max_decisions <= DECISION_BUDGET or rng is None:
        return dict(options)
    lo, hi = rng
    best = lo
    for value in range(lo, min(hi, lo + 10_000) + 1):
        if game.spec_for(game.make_config(**options, **{opt: value})).max_decisions > DECISION_BUDGET:
            break
        best = value
    return {**options, opt: best}


@dataclass(frozen=True)
class Case:
    """One configuration of one game, as the conformance tests play it.

    Attributes:
        name: registry id.
        options: the keyword options given to ``dragongym.make`` / ``make_vec``
            (a test configuration, shortened by :func:`short_options`).
        declared: the test configuration exactly as ``game.test_configs()`` gave it.
    """

    name: str
    options: tuple
    declared: tuple

    @property
    def kwargs(self):
        return dict(self.options)

    @property
    def game(self):
        return load_game(self.name)

    @property
    def config(self):
        return self.game.make_config(**self.kwargs)

    @property
    def spec(self):
        return self.game.spec_for(self.config)

    def make(self, **extra):
        """A fresh PettingZoo AEC env of this configuration."""
        return dragongym.make(self.name, **self.kwargs, **extra)

    def make_vec(self, num_envs, **extra):
        return dragongym.make_vec(self.name, num_envs, **self.kwargs, **extra)

    def new_game(self, seed):
        """A 1-record state array reset with game seed ``seed``."""
        game = self.game
        states = game.new_states(1)
        game.reset(states, np.array([seed], dtype=np.uint64), self.config)
        return states

    def __str__(self):
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.name}[{opts}]" if opts else self.name


def all_cases():
    out = []
    for name in game_names():
        game = load_game(name)
        for declared in game.test_configs():
            options = short_options(game, declared)
            out.append(Case(name, tuple(sorted(options.items())), tuple(sorted(declared.items()))))
    return out
