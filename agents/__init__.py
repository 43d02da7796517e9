"""Agents that play dragongym games, and matches between them.

    from dragongym.agents import make_agent, play_match
    result = play_match("dragonhunt", ["random", "random"], num_games=12, seed=0)

Built-in agents: ``"random"``, ``"mcts"`` (any game) and
``"dragonhunt.heuristic"``. Register more with :func:`register`; policy
checkpoints (``*.zip`` from ``dragongym.training.selfplay``, ``*.rllib.pt`` from
``dragongym.training.rllib_selfplay``) load through loaders
registered with :func:`register_loader`. Tournaments with ratings:
:func:`dragongym.agents.tournament.run_tournament`.
"""
from dragongym.agents.base import Agent, is_agent_id, list_agents, make_agent, register, register_loader
from dragongym.agents import random_agent  # noqa: F401  (registers "random")
from dragongym.agents import mcts  # noqa: F401  (registers "mcts")
from dragongym.agents import dragonhunt_heuristic  # noqa: F401  (registers "dragonhunt.heuristic")
from dragongym.agents.random_agent import RandomAgent

# MaskablePPO checkpoints written by dragongym.training.selfplay (imported on first use)
register_loader(".zip", "dragongym.training.policy:load_agent")
# policies exported by dragongym.training.rllib_selfplay (the longest matching suffix wins)
register_loader(".rllib.pt", "dragongym.training.rllib_policy:load_agent")
from dragongym.agents.match import AgentStats, MatchResult, play_match

__all__ = ["Agent", "AgentStats", "MatchResult", "RandomAgent", "list_agents", "make_agent",
           "play_match", "register", "register_loader", "is_agent_id"]
