"""dragongym environments: a registry of games and the adapters over them.

    import dragongym
    env = dragongym.make("dragonhunt", num_players=3)     # PettingZoo AECEnv
    venv = dragongym.make_vec("dragonhunt", 1024, seed=0)  # vector API, arrays in/out
    genv = dragongym.make_single_agent("dragonhunt", opponents=[agent])  # Gymnasium

Importing this package is cheap: it imports no numba code, gymnasium,
pettingzoo or torch. A game's rules module is imported the first time the game
is asked for.
"""
# jitcache: no compiled code
# First, before anything can import numba-compiled code: pick the cache folder.
from dragongym.envs.core import jitcache  # noqa: F401  (imported for its effect)

import importlib

_FACTORIES = {}
_GAMES = {}


def register(name, game_factory):
    """Make a game available as ``name``.

    Args:
        name: registry id used by :func:`make` and :func:`get_game`.
        game_factory: a zero-argument callable returning the game's
            :class:`dragongym.envs.core.game.Game` instance, or a ``"module:ATTRIBUTE"``
            string naming that instance (imported on first use, so registering
            costs nothing).
    """
    if not (callable(game_factory) or isinstance(game_factory, str)):
        raise TypeError("game_factory must be a callable or a 'module:ATTRIBUTE' string")
    _FACTORIES[name] = game_factory
    _GAMES.pop(name, None)


def list_games():
    """Registered game ids, sorted."""
    return sorted(_FACTORIES)


def get_game(name):
    """The :class:`dragongym.envs.core.game.Game` instance registered as ``name``.

    A game of your own needs no registration to be named: ``"package.module:ATTRIBUTE"``
    (a Game instance) is imported and registered under that string on first use, so
    every command and trainer that takes a game id takes it too.
    """
    game = _GAMES.get(name)
    if game is not None:
        return game
    if name not in _FACTORIES and isinstance(name, str) and ":" in name:
        register(name, name)
    try:
        factory = _FACTORIES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; registered: {', '.join(list_games())} "
                         "(or name one as 'package.module:ATTRIBUTE')") from None
    if isinstance(factory, str):
        module_name, _, attribute = factory.partition(":")
        try:
            game = getattr(importlib.import_module(module_name), attribute or "GAME")
        except (ImportError, AttributeError) as error:
            if factory == name:
                _FACTORIES.pop(name, None)
            raise ValueError(f"game {name!r}: cannot load {factory!r}: {error}") from None
    else:
        game = factory()
    _GAMES[name] = game
    return game


def make(name, num_players=None, render_mode=None, seed=None, render_view="to_play", **config):
    """A PettingZoo ``AECEnv`` playing game ``name``.

    Args:
        name: registered game id (see :func:`list_games`).
        num_players: the game's ``num_players`` option, for games that have
            one (None: the game's default configuration). The configuration
            decides the seats and their names (``game.spec_for(config).roles``).
        render_mode: ``None``, ``"ansi"`` (``render()`` returns the text
            picture), ``"rgb_array"`` (an ``H x W x 3`` uint8 picture) or
            ``"human"`` (the picture in a window; without a screen, a warning
            and the text picture).
        render_view: whose knowledge the picture shows: ``"to_play"``
            (default), ``"full"``, or a seat (number or agent name).
        seed: an int in ``0..2**64-1`` (or None) seeding the generator that
            picks a game seed on ``reset()`` without a seed; ``reset(seed=...)``
            overrides it.
        **config: the game's options (its ``config_cls`` fields), validated
            strictly (``ConfigError`` names a bad option and what it allows).
    """
    from dragongym.envs.core.aec import GameAECEnv

    return GameAECEnv(get_game(name), num_players=num_players, render_mode=render_mode,
                      seed=seed, render_view=render_view, **config)


def make_vec(name, num_envs, seed=0, num_players=None, observations=True, num_threads=None,
             parallel_threshold=1024, **config):
    """The vector (throughput) API: ``num_envs`` games of ``name`` stepped in lockstep.

    Arrays in, arrays out, with auto-reset; see :mod:`dragongym.envs.core.vector`.

    Args:
        name: registered game id.
        num_envs: batch size ``B``.
        seed: user seed, an int in ``0..2**64-1``; game ``i`` is seeded from
            ``(seed, i)`` only.
        num_players: the game's ``num_players`` option where it has one (None:
            the default configuration).
        observations: False steps the rules only (``obs`` is None).
        num_threads: threads of the parallel kernel (1: always serial).
        parallel_threshold: smallest batch stepped in parallel.
        **config: the game's options.
    """
    from dragongym.envs.core.vector import VecGameEnv

    return VecGameEnv(get_game(name), num_envs, seed=seed, num_players=num_players,
                      observations=observations, num_threads=num_threads,
                      parallel_threshold=parallel_threshold, **config)


def make_single_agent(name, opponents=None, seat=None, num_players=None, **kwargs):
    """A Gymnasium env (for Stable-Baselines3) where one learner plays ``name``
    against ``opponents`` that move inside ``step``; see :mod:`dragongym.envs.core.single_agent`.
    """
    from dragongym.envs.core.single_agent import SingleAgentEnv

    return SingleAgentEnv(get_game(name), opponents=opponents, seat=seat,
                          num_players=num_players, **kwargs)


register("dragonhunt", "dragongym.envs.dragonhunt.game:GAME")
register("dragons_down", "dragongym.envs.dragons_down.game:GAME")
register("dragon_pass", "dragongym.envs.dragon_pass.game:GAME")
