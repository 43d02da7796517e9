"""Agents that play dragongym games, and matches between them.

    from agents import make_agent, play_match
    result = play_match("dragonhunt", ["random", "random"], num_games=12, seed=0)

Built-in agents: ``"random"``. Register more with :func:`register`.
"""
from agents.base import Agent, list_agents, make_agent, register
from agents import random_agent  # noqa: F401  (registers "random")
from agents.random_agent import RandomAgent
from agents.match import AgentStats, MatchResult, play_match

__all__ = ["Agent", "AgentStats", "MatchResult", "RandomAgent", "list_agents", "make_agent",
           "play_match", "register"]
