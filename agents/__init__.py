"""Agents that play dragongym games, and matches between them.

    from dragongym.agents import make_agent, play_match
    result = play_match("dragonhunt", ["random", "random"], num_games=12, seed=0)
    print(match_table(result))

An agent is an :class:`Agent`, or any object with ``act(obs, mask, rng)``:
:func:`make_agent` gives such an object :class:`Agent`'s defaults for the
rest (:class:`DuckAgent`). Built-in agents: ``"random"``, ``"mcts"`` (any game),
``"dragonhunt.heuristic"``, ``"dragons_down.heuristic"`` and
``"dragon_pass.heuristic"`` (the games' ``heuristic_agent``), and
``"dragonhunt.heuristic_v1"`` (the first Dragonhunt heuristic). Register more
with :func:`register`; policy checkpoints (``*.zip`` from
``dragongym.training.selfplay``, ``*.rllib.pt`` from
``dragongym.training.rllib_selfplay``) load through loaders registered with
:func:`register_loader`. Tournaments with ratings:
:func:`dragongym.agents.tournament.run_tournament`.

Importing this package is cheap: every agent is registered as a
``"module:factory"`` string and imported on its first :func:`make_agent`, so
no game's rules core (numba), and no torch, loads until an agent or a game
needs it.
"""
from dragongym.agents.base import (Agent, AgentLoadError, DuckAgent, agent_factory, agent_problem, as_agent,
                                   is_agent_id, list_agents, make_agent, register, register_loader)

register("random", "dragongym.agents.random_agent:RandomAgent")
register("mcts", "dragongym.agents.mcts:MCTSAgent")
register("dragonhunt.heuristic", "dragongym.agents.dragonhunt_heuristic2:DragonhuntHeuristicV2")
# the first Dragonhunt heuristic, which falls to the hero rush (kept for comparisons and old results)
register("dragonhunt.heuristic_v1", "dragongym.agents.dragonhunt_heuristic:DragonhuntHeuristic")
register("dragons_down.heuristic", "dragongym.agents.dragons_down_heuristic:DragonsDownHeuristic")
register("dragon_pass.heuristic", "dragongym.agents.dragon_pass_heuristic:DragonPassHeuristic")

# the ladder's MCTS and learned rungs (agents/ladder.py): dragonhunt.mcts, dragonhunt.ppo_2p, ...
from dragongym.agents.ladder import register_rungs  # noqa: E402

register_rungs(register)

# MaskablePPO checkpoints written by dragongym.training.selfplay (imported on first use); the
# check reads the zip's JSON alone (is it a checkpoint, of which game) before torch is imported
register_loader(".zip", "dragongym.training.policy:load_agent",
                check="dragongym.agents.base:zip_checkpoint_problem")
# policies exported by dragongym.training.rllib_selfplay (the longest matching suffix wins)
register_loader(".rllib.pt", "dragongym.training.rllib_policy:load_agent")

from dragongym.agents.match import AgentStats, GameOutcome, MatchResult, play_match  # noqa: E402
from dragongym.agents.random_agent import RandomAgent  # noqa: E402
from dragongym.agents.tables import format_table, match_table  # noqa: E402

__all__ = ["Agent", "AgentLoadError", "AgentStats", "DuckAgent", "GameOutcome", "MatchResult", "RandomAgent",
           "agent_factory", "agent_problem", "as_agent", "format_table", "is_agent_id", "list_agents",
           "make_agent", "match_table", "play_match", "register", "register_loader"]
