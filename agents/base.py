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
    uses_state = False
    """True for agents that want :meth:`act_state` (heuristics, search): runners
    that own the game state call it instead of :meth:`act`."""

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

    def act_state(self, game, state, player, rng):
        """One legal action for seat ``player`` from the game state itself.

        Called by runners that own the state (tournaments, the match runner)
        when :attr:`uses_state` is True. ``state`` is the live 1-record array of
        ``game`` (an :class:`dragongym.envs.core.game.Game`): read it, never write it (copy
        it for look-ahead). The record holds hidden information too (other
        seats' secret cards, the RNG stream of future dice): an agent may only
        use what ``player`` could know, i.e. read it through the game's
        documented view (e.g. ``dragongym.envs.dragonhunt.view``) and search on copies
        passed through ``game.determinize(copy, player, rng)``.

        The default plays :meth:`act` on the observation and mask of ``player``.
        """
        return self.act(game.observation_of(state, player), game.mask_of(state), rng)

    def act_batch(self, obs, mask, rng):
        """Actions for a batch: ``obs[B, obs_size]``, ``mask[B, A]`` -> ``int64[B]``.

        The default calls :meth:`act` row by row; override it for speed.
        """
        return np.array([self.act(obs[i], mask[i], rng) for i in range(len(mask))], dtype=np.int64)


_FACTORIES = {}   # agent id -> factory(game=None, **kwargs) -> Agent, or "module:factory"
_LOADERS = {}     # file suffix -> loader(path, game=None, **kwargs) -> Agent, or "module:loader"


class AgentActionError(ValueError):
    """An agent answered with something that is not a legal action; the match
    or tournament stops at once, the message naming the game, seat, agent and value."""


def checked_action(value, mask, game_index, seat, role, agent):
    """``value`` as the int action it is, if it is a legal action of ``mask``;
    else :class:`AgentActionError` naming ``game_index``, ``seat`` (its
    ``role``), the ``agent`` and the value (-1, None, a float, an int the mask
    does not allow)."""
    integral = isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))
    if integral and 0 <= int(value) < len(mask) and mask[int(value)]:
        return int(value)
    if not integral:
        why = f"not an action index (a {type(value).__name__})"
    elif not 0 <= int(value) < len(mask):
        why = f"outside 0..{len(mask) - 1}"
    else:
        why = "not legal in the position"
    raise AgentActionError(f"game {game_index}, seat {seat} ({role}): agent {agent} returned {value!r}, "
                           f"{why}")


def _resolve(ref):
    """The callable named by ``ref``: ``ref`` itself, or the attribute a
    ``"module:attribute"`` string names (importing the module)."""
    if not isinstance(ref, str):
        return ref
    import importlib
    module, _, name = ref.partition(":")
    if not module or not name:
        raise ValueError(f"{ref!r} is not a 'module:attribute' reference")
    return getattr(importlib.import_module(module), name)


def register(agent_id, factory):
    """Make agents available as ``agent_id``.

    Args:
        agent_id: the name used on the command line and in :func:`make_agent`.
        factory: callable ``factory(game=None, **kwargs) -> Agent`` (``game`` is
            the :class:`dragongym.envs.core.game.Game` the agent will play, for
            agents that need its spec or rules), or a ``"module:factory"``
            string naming one. A string is imported on the first
            :func:`make_agent` of ``agent_id``, so registering an agent costs
            nothing: a game's heuristic module, and the rules core it reads,
            load only when that agent is made.
    """
    if not (callable(factory) or isinstance(factory, str)):
        raise TypeError("factory must be a callable or a 'module:factory' string")
    _FACTORIES[agent_id] = factory


def register_loader(suffix, loader):
    """Make agent ids that are file paths ending in ``suffix`` (``".zip"``,
    ``".rllib.pt"``) loadable: ``make_agent("runs/ppo/final.zip")`` calls
    ``loader(path, game=game, **kwargs)``. The training code's policy loaders
    are registered here; agents/ knows nothing about networks. ``loader`` may
    be a ``"module:function"`` string, imported on first use, so that naming
    a loader costs no import of torch. The longest matching suffix wins.
    """
    _LOADERS[suffix] = loader


def _loader_for(agent_id):
    matches = [x for x in _LOADERS if str(agent_id).endswith(x)]
    if agent_id in _FACTORIES or not matches:
        return None
    return _resolve(_LOADERS[max(matches, key=len)])


def agent_factory(agent_id):
    """The factory registered as ``agent_id``, imported now if it was
    registered as a ``"module:factory"`` string (importing that module also
    runs whatever else it registers, such as a game's search helpers)."""
    try:
        factory = _FACTORIES[agent_id]
    except KeyError:
        raise ValueError(f"unknown agent {agent_id!r}; registered: {', '.join(list_agents())}"
                         + (f"; checkpoint suffixes: {', '.join(sorted(_LOADERS))}" if _LOADERS else "")) from None
    if isinstance(factory, str):
        factory = _FACTORIES[agent_id] = _resolve(factory)
    return factory


def is_agent_id(agent_id):
    """True if :func:`make_agent` knows ``agent_id`` (registered, or a path with
    a registered loader suffix); nothing is imported to find out."""
    return agent_id in _FACTORIES or any(str(agent_id).endswith(x) for x in _LOADERS)


def list_agents():
    """Registered agent ids, sorted (lazily registered ones included)."""
    return sorted(_FACTORIES)


def make_agent(agent_id, game=None, **kwargs):
    """A new agent of kind ``agent_id`` for ``game`` (a registered id, or a
    checkpoint path whose suffix has a loader, see :func:`register_loader`)."""
    loader = _loader_for(agent_id)
    if loader is not None:
        return loader(agent_id, game=game, **kwargs)
    return agent_factory(agent_id)(game=game, **kwargs)
