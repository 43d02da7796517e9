"""The agent protocol shared by random, heuristic, search and neural agents, and their registry."""
import numpy as np


class Agent:
    """Picks actions from observations.

    An agent gets exactly what a PettingZoo agent gets: its observation (from
    its own seat) and the legal-action mask, plus a ``numpy.random.Generator``
    owned by the caller. All of an agent's randomness must come from that
    generator, so a match replays exactly from its seed.
    """

    name = "agent"

    def reset(self):
        """Called before each game (for agents that keep memory between moves)."""

    def act(self, obs, mask, rng):
        """One legal action (an int with ``mask[action] == 1``).

        Args:
            obs: float32 observation vector of the seat to move.
            mask: int8 legal-action mask, not all zero.
            rng: the generator to draw any randomness from.
        """
        raise NotImplementedError

    def act_batch(self, obs, mask, rng):
        """Actions for a batch: ``obs[B, obs_size]``, ``mask[B, A]`` -> ``int64[B]``.

        The default calls :meth:`act` row by row; override it for speed.
        """
        return np.array([self.act(obs[i], mask[i], rng) for i in range(len(mask))], dtype=np.int64)


_FACTORIES = {}


def register(agent_id, factory):
    """Make agents available as ``agent_id``.

    Args:
        agent_id: the name used on the command line and in :func:`make_agent`.
        factory: callable ``factory(game=None, **kwargs) -> Agent``; ``game`` is
            the :class:`envs.core.game.Game` the agent will play, for agents
            that need its spec or rules.
    """
    _FACTORIES[agent_id] = factory


def list_agents():
    """Registered agent ids, sorted."""
    return sorted(_FACTORIES)


def make_agent(agent_id, game=None, **kwargs):
    """A new agent of kind ``agent_id`` for ``game``."""
    try:
        factory = _FACTORIES[agent_id]
    except KeyError:
        raise ValueError(f"unknown agent {agent_id!r}; registered: {', '.join(list_agents())}") from None
    return factory(game=game, **kwargs)
