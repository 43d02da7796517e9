"""dragongym: board games as multi-agent reinforcement-learning environments.

    import dragongym
    env = dragongym.make("dragonhunt", num_players=3)          # PettingZoo AECEnv
    venv = dragongym.make_vec("dragonhunt", 1024, seed=0)      # vector API, arrays in/out
    genv = dragongym.make_single_agent("dragonhunt")           # Gymnasium, for SB3

The repository's folders are this package's subpackages: ``envs/`` is
``dragongym.envs`` (the games and the adapters), ``agents/`` is
``dragongym.agents``, ``training/`` is ``dragongym.training`` and
``benchmarks/`` is ``dragongym.benchmarks``. Importing ``dragongym`` is cheap:
no numba code, gymnasium, pettingzoo or torch is loaded until a game is made.
"""
from dragongym.envs import get_game, list_games, make, make_single_agent, make_vec, register

__version__ = "0.2.0"

__all__ = ["get_game", "list_games", "make", "make_single_agent", "make_vec", "register"]
