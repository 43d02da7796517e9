"""Per-game helpers for search agents, registered by the game's own agent module.

Generic search (:mod:`dragongym.agents.mcts`) never names a game. Where a game
has helpers for it, the module that defines the game's heuristic agent
registers them here under the game's registry id (``Game.name``):

* a **value** ``fn(state) -> float array[num_seats]``: the position scored in
  the game's reward scale (exact rewards once the game is over), used at the
  rollout cap;
* **prior-only** decisions ``fn(state) -> bool``: True where a search with a
  prior agent should play the prior's pick without searching; a game may
  register more than one set under names of its own (``prior_only="<name>"``).

That module is imported lazily: the first lookup for a game resolves the
game's ``heuristic_agent`` id (:func:`dragongym.agents.base.agent_factory`),
whose import registers the helpers. A game without a heuristic, or without
helpers, gets None: plain search.
"""
from dragongym.agents.base import agent_factory, is_agent_id

VALUE, PRIOR_ONLY = "value", "prior_only"

_HOOKS = {}      # game name -> {VALUE: fn, PRIOR_ONLY: fn}
_LOOKED_UP = set()   # games whose heuristic module has been imported (or has none)


def register_value(game_name, fn):
    """Value function used at the rollout cap: ``fn(state) -> array[num_seats]``
    of values in the game's reward scale (exact rewards once over). ``fn`` may
    read only what every seat may know."""
    _HOOKS.setdefault(game_name, {})[VALUE] = fn


def register_prior_only(game_name, fn, name=""):
    """Decisions the search leaves to its prior agent: ``fn(state) -> bool``,
    True where a search with the prior (``rollout="heuristic"``) should play
    the prior's pick at once. Meant for many-option, low-stakes decisions
    (e.g. single unit steps) that a short search cannot judge and would only
    add noise to. ``fn`` may read only what the seat to move may know.
    ``name`` registers another set beside the default one (``""``, what
    ``prior_only=True`` uses), chosen with ``prior_only="<name>"``."""
    _HOOKS.setdefault(game_name, {})[PRIOR_ONLY + (f":{name}" if name else "")] = fn


def prior_only_names(game):
    """The names of the extra prior-only sets ``game`` registered (the default
    one, ``prior_only=True``, is not listed)."""
    hook(game, PRIOR_ONLY)      # imports the game's agent module, where it registers its sets
    return sorted(k.split(":", 1)[1] for k in _HOOKS.get(game.name, {}) if k.startswith(PRIOR_ONLY + ":"))


def hook(game, kind):
    """The helper of ``kind`` (:data:`VALUE`, :data:`PRIOR_ONLY` or
    ``PRIOR_ONLY + ":<name>"``) registered for ``game``, or None. The first
    call for a game imports the module of its heuristic agent, which is where
    a game registers its helpers."""
    if game.name not in _LOOKED_UP:
        agent_id = getattr(game, "heuristic_agent", None)
        if agent_id and is_agent_id(agent_id):
            agent_factory(agent_id)        # an import that fails raises now, and again next time
        _LOOKED_UP.add(game.name)
    return _HOOKS.get(game.name, {}).get(kind)
