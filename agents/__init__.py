"""Agents that play dragongym games, and matches between them.

    from agents import make_agent, play_match
    result = play_match("dragonhunt", ["random", "random"], num_games=12, seed=0)

Built-in agents: ``"random"``, ``"mcts"`` (any game) and
``"dragonhunt.heuristic"``. Register more with :func:`register`; policy
checkpoints (``*.zip`` from ``training.selfplay``, ``*.rllib.pt`` from
``training.rllib_selfplay``) load through loaders
registered with :func:`register_loader`. Tournaments with ratings:
:func:`agents.tournament.run_tournament`.
"""
from agents.base import Agent, is_agent_id, list_agents, make_agent, register, register_loader
from agents import random_agent  # noqa: F401  (registers "random")
from agents import mcts  # noqa: F401  (registers "mcts")
from agents import dragonhunt_heuristic  # noqa: F401  (registers "dragonhunt.heuristic")
from agents.random_agent import RandomAgent

# MaskablePPO checkpoints written by training.selfplay (imported on first use)
register_loader(".zip", "training.policy:load_agent")
# policies exported by training.rllib_selfplay (the longest matching suffix wins)
register_loader(".rllib.pt", "training.rllib_policy:load_agent")
from agents.match import AgentStats, MatchResult, play_match

__all__ = ["Agent", "AgentStats", "MatchResult", "RandomAgent", "list_agents", "make_agent",
           "play_match", "register", "register_loader", "is_agent_id"]
