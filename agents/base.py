"""The agent protocol shared by random, heuristic, search and neural agents, and their registry."""
import os

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
_CHECKS = {}      # file suffix -> check(path, game=None) -> "" or what is wrong, or "module:check"


class AgentLoadError(ValueError):
    """An agent cannot be made: a checkpoint file that is missing, is not a
    checkpoint, was trained on another game or fails to load, or a factory
    that returned something without ``act``. The message is one line that
    names the file (or agent id) and what is wrong, e.g. ``runs/x.zip: no
    such file``; command lines print it as it is."""


class DuckAgent(Agent):
    """An object with ``act(obs, mask, rng)`` (any class, not an
    :class:`Agent`) seen as an :class:`Agent`: what the object defines
    (``reset``, ``act_state`` with ``uses_state``, ``act_batch``, ``name``,
    ``values``, ...) is used, and everything else is :class:`Agent`'s default.
    :func:`make_agent` wraps what a factory or loader returns, so every runner
    (match, tournament, play, search rollouts, league) may call any method of
    the protocol. The object itself is :attr:`wrapped`; attributes that
    :class:`Agent` does not define are read from it."""

    def __init__(self, wrapped):
        self.wrapped = wrapped

    def __getattr__(self, attribute):          # only for what the wrapper itself lacks
        if attribute.startswith("__") or "wrapped" not in self.__dict__:
            raise AttributeError(attribute)
        return getattr(self.__dict__["wrapped"], attribute)

    def __repr__(self):
        return f"DuckAgent({self.wrapped!r})"

    @property
    def name(self):
        return getattr(self.wrapped, "name", Agent.name)

    @name.setter
    def name(self, value):
        self.wrapped.name = value

    @property
    def uses_state(self):
        return bool(getattr(self.wrapped, "uses_state", Agent.uses_state))

    @uses_state.setter
    def uses_state(self, value):
        self.wrapped.uses_state = value

    def reset(self):
        reset = getattr(self.wrapped, "reset", None)
        if reset is not None:
            reset()

    def act(self, obs, mask, rng):
        act = getattr(self.wrapped, "act", None)
        if act is None:
            raise NotImplementedError(f"{type(self.wrapped).__name__} has no act(obs, mask, rng)")
        return act(obs, mask, rng)

    def act_state(self, game, state, player, rng):
        act_state = getattr(self.wrapped, "act_state", None)
        if act_state is not None:
            return act_state(game, state, player, rng)
        return Agent.act_state(self, game, state, player, rng)

    def act_batch(self, obs, mask, rng):
        act_batch = getattr(self.wrapped, "act_batch", None)
        if act_batch is not None:
            return act_batch(obs, mask, rng)
        return Agent.act_batch(self, obs, mask, rng)


def as_agent(obj, agent_id=None):
    """``obj`` as an :class:`Agent`: itself if it is one, a :class:`DuckAgent`
    around it if it has ``act`` (or ``act_state`` and ``uses_state``), else
    :class:`AgentLoadError` naming ``agent_id`` (the id it was made for)."""
    if isinstance(obj, Agent):
        return obj
    if callable(getattr(obj, "act", None)) or (getattr(obj, "uses_state", False)
                                                and callable(getattr(obj, "act_state", None))):
        return DuckAgent(obj)
    what = f"agent {agent_id!r}: its factory returned" if agent_id is not None else "agent"
    raise AgentLoadError(f"{what} {type(obj).__name__} {obj!r:.60}, which has no act(obs, mask, rng)")


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


def register_loader(suffix, loader, check=None):
    """Make agent ids that are file paths ending in ``suffix`` (``".zip"``,
    ``".rllib.pt"``) loadable: ``make_agent("runs/ppo/final.zip")`` calls
    ``loader(path, game=game, **kwargs)``. The training code's policy loaders
    are registered here; agents/ knows nothing about networks. ``loader`` may
    be a ``"module:function"`` string, imported on first use, so that naming
    a loader costs no import of torch. The longest matching suffix wins.

    ``check``, optional (a callable or a ``"module:function"`` string), is
    the cheap test :func:`agent_problem` runs before anything is loaded:
    ``check(path, game=None)`` returns ``""`` or one line saying what is wrong
    with the file (``"runs/x.zip: is not a checkpoint zip"``). A loader
    registered again without one keeps no check.
    """
    _LOADERS[suffix] = loader
    if check is None:
        _CHECKS.pop(suffix, None)
    else:
        _CHECKS[suffix] = check


def _suffix_of(agent_id):
    """The registered loader suffix of ``agent_id`` (the longest that
    matches), or None for registered ids and ids no loader takes."""
    matches = [x for x in _LOADERS if str(agent_id).endswith(x)]
    if agent_id in _FACTORIES or not matches:
        return None
    return max(matches, key=len)


def _loader_for(agent_id):
    suffix = _suffix_of(agent_id)
    return None if suffix is None else _resolve(_LOADERS[suffix])


def agent_problem(agent_id, game=None):
    """``""`` if :func:`make_agent` ``(agent_id, game)`` can be tried, else
    one line saying why not, checked before anything is loaded (no torch):
    an id that is neither registered nor a path with a loader suffix, or
    what the suffix's ``check`` (see :func:`register_loader`) finds wrong
    with the file, such as a ``.zip`` that is missing, is no checkpoint or
    was trained on another game than ``game``. Runners ask before their
    first game, so a bad ``--agents`` costs no games.

    A spec with options (``mcts:simulations=16``) is also checked against
    the factory's keyword parameters (this imports the factory's module, not
    the game's rules), and a ``package.module:factory`` reference by
    importing the module: a module that does not import, an attribute it
    lacks or one that is not callable is named here."""
    try:
        agent_id, kwargs = parse_agent_spec(agent_id)
    except ValueError as error:
        return str(error)
    if agent_id in _FACTORIES or (_suffix_of(agent_id) is None and _is_reference(agent_id)):
        try:
            factory = agent_factory(agent_id)
        except AgentLoadError as error:
            return str(error)
        return _options_problem(agent_id, factory, kwargs)
    suffix = _suffix_of(agent_id)
    if suffix is None:
        return f"unknown agent {agent_id!r}; registered: {', '.join(list_agents())}"
    check = _CHECKS.get(suffix)
    if check is None:
        return ""
    if isinstance(check, str):
        check = _CHECKS[suffix] = _resolve(check)
    return check(str(agent_id), game=game) or ""


def file_problem(path):
    """``""`` if ``path`` is a file that can be read, else one line saying
    why not (``"runs/x.zip: no such file"``); for a loader's ``check``."""
    if not os.path.exists(path):
        return f"{path}: no such file"
    if os.path.isdir(path):
        return f"{path}: is a folder, not a checkpoint file"
    if not os.access(path, os.R_OK):
        return f"{path}: cannot be read"
    return ""


def zip_checkpoint_problem(path, game=None):
    """The :func:`register_loader` check of ``*.zip`` self-play checkpoints
    (``MaskablePPO.save``): ``""``, or that ``path`` is missing
    (:func:`file_problem`), is not a zip, is a zip without the checkpoint's
    ``data`` member, or was trained on another game than ``game`` (the
    ``game`` its ``policy_kwargs`` name). Reads the zip's JSON only: nothing
    is unpickled and torch is not imported."""
    import json
    import zipfile
    problem = file_problem(path)
    if problem:
        return problem
    try:
        with zipfile.ZipFile(path) as archive:
            data = json.loads(archive.read("data"))
    except (zipfile.BadZipFile, OSError, EOFError):
        return f"{path}: is not a checkpoint zip"
    except KeyError:
        return f"{path}: is not a checkpoint zip (a zip without the checkpoint's data member)"
    except (ValueError, UnicodeDecodeError):
        return f"{path}: is not a checkpoint zip (its data member is not JSON)"
    kwargs = data.get("policy_kwargs") if isinstance(data, dict) else None
    kwargs = kwargs.get("features_extractor_kwargs") if isinstance(kwargs, dict) else None
    trained_on = kwargs.get("game") if isinstance(kwargs, dict) else None
    name = getattr(game, "name", game)
    if name is not None and isinstance(trained_on, str) and trained_on != name:
        return f"{path}: was trained on {trained_on}, not {name}"
    return ""


def agent_factory(agent_id):
    """The factory registered as ``agent_id``, imported now if it was
    registered as a ``"module:factory"`` string (importing that module also
    runs whatever else it registers, such as a game's search helpers), or
    the callable a ``package.module:factory`` reference names (imported now;
    :class:`AgentLoadError` if the module does not import or has no such
    callable)."""
    if agent_id not in _FACTORIES and _is_reference(agent_id):
        return _reference_factory(agent_id)
    try:
        factory = _FACTORIES[agent_id]
    except KeyError:
        raise ValueError(f"unknown agent {agent_id!r}; registered: {', '.join(list_agents())}"
                         + (f"; checkpoint suffixes: {', '.join(sorted(_LOADERS))}" if _LOADERS else "")) from None
    if isinstance(factory, str):
        factory = _FACTORIES[agent_id] = _resolve(factory)
    return factory


def is_agent_id(agent_id):
    """True if :func:`make_agent` knows ``agent_id`` by its form: a registered
    id, a path with a registered loader suffix or a ``package.module:factory``
    reference, each perhaps with ``:key=value,...`` options (see
    :func:`parse_agent_spec`); nothing is imported to find out (whether the
    module imports is :func:`agent_problem`'s question)."""
    try:
        base, _ = parse_agent_spec(agent_id)
    except ValueError:
        return False
    return base in _FACTORIES or _suffix_of(base) is not None or _is_reference(base)


SPEC_SEPARATOR = ":"
"""Between an agent id and its options in a spec (``mcts:simulations=16``)."""


def _option_value(text):
    """A spec option's value: ``none`` is None, the rest is read as a game
    option's value on the command line (``true``/``false``, an int, a float,
    else the text itself: an agent id, a path)."""
    from dragongym.envs.core.options import parse_value

    return None if text.lower() == "none" else parse_value(text)


def parse_agent_spec(spec):
    """``(agent id, options)`` of an agent spec: an id (registered, a
    checkpoint path, a ``package.module:factory`` reference) optionally
    followed by ``:key=value,key=value`` -- ``"mcts:simulations=16,
    rollout=heuristic,rollout_depth=10"`` is ``("mcts", {"simulations": 16,
    "rollout": "heuristic", "rollout_depth": 10})``. Values are read as
    ``true``/``false``, ``none``, ints, floats, else kept as text; keys are
    the factory's keyword arguments. A registered id is never split (even
    one holding a colon). ValueError (one line) for options that are not
    ``key=value`` pairs or name a key twice."""
    spec = str(spec)
    if spec in _FACTORIES or SPEC_SEPARATOR not in spec:
        return spec, {}
    base, _, tail = spec.rpartition(SPEC_SEPARATOR)
    if "=" not in tail:
        return spec, {}                      # package.module:factory, no options
    options = {}
    for pair in tail.split(","):
        key, eq, value = (part.strip() for part in pair.partition("="))
        if not eq or not key.isidentifier():
            raise ValueError(f"agent {spec!r}: options after {SPEC_SEPARATOR!r} are key=value pairs separated "
                             f"by commas, not {pair!r}")
        if key in options:
            raise ValueError(f"agent {spec!r}: option {key!r} given twice")
        options[key] = _option_value(value)
    if not base:
        raise ValueError(f"agent {spec!r}: options without an agent id before {SPEC_SEPARATOR!r}")
    return base, options


def split_agent_list(text):
    """The agent specs of a comma-separated list (``--agents``): commas
    separate agents, except that a ``key=value`` piece after a spec with
    options continues that spec's options --
    ``"mcts:simulations=16,rollout=heuristic,random"`` is
    ``["mcts:simulations=16,rollout=heuristic", "random"]``. Pieces are
    stripped; an empty piece stays empty (the caller names it)."""
    specs = []
    for piece in str(text).split(","):
        piece = piece.strip()
        key, eq, _ = piece.partition("=")
        if (eq and key.strip().isidentifier() and specs and SPEC_SEPARATOR in specs[-1]
                and "=" in specs[-1].rpartition(SPEC_SEPARATOR)[2]):
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    return specs


def _is_reference(agent_id):
    """True if ``agent_id`` has the form ``package.module:factory`` (dotted
    identifiers, a colon, an identifier); nothing is imported."""
    module, sep, name = str(agent_id).partition(":")
    return bool(sep) and name.isidentifier() and all(part.isidentifier() for part in module.split("."))


def _reference_factory(reference):
    """The callable a ``package.module:factory`` reference names, or
    :class:`AgentLoadError` saying why not (the module does not import, has
    no such attribute, or it is not callable)."""
    import importlib
    module_name, _, name = reference.partition(":")
    try:
        module = importlib.import_module(module_name)
    except Exception as error:              # ImportError, or whatever the module raised at import
        raise AgentLoadError(f"agent {reference!r}: module {module_name!r} cannot be imported: "
                             f"{type(error).__name__}: {_one_line(error, module_name)}") from None
    factory = getattr(module, name, None)
    if factory is None:
        raise AgentLoadError(f"agent {reference!r}: module {module_name!r} has no attribute {name!r}")
    if not callable(factory):
        raise AgentLoadError(f"agent {reference!r}: {module_name}.{name} is a {type(factory).__name__}, "
                             f"not a callable factory(game=None, **kwargs)")
    return factory


def _options_problem(agent_id, factory, options):
    """"" if ``factory`` takes every keyword of ``options`` (or any keyword),
    else one line naming the first it does not take and those it does."""
    if not options:
        return ""
    import inspect
    try:
        parameters = inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return ""                            # a builtin without a signature: the call will tell
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values()):
        return ""
    takes = [n for n, p in parameters.items()
             if n != "game" and p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)]
    for key in options:
        if key not in takes:
            return f"agent {agent_id!r} has no option {key!r}; its options: {', '.join(takes) or 'none'}"
    return ""


def list_agents():
    """Registered agent ids, sorted (lazily registered ones included)."""
    return sorted(_FACTORIES)


def _one_line(err, path):
    """An exception's message as one line, without a leading ``path``."""
    text = str(err.args[0]) if isinstance(err, KeyError) and err.args else str(err)   # KeyError quotes
    text = text.strip().splitlines()[0] if text.strip() else type(err).__name__
    if text.startswith(path):
        text = text[len(path):].lstrip(" :")
    return text


def make_agent(agent_id, game=None, **kwargs):
    """A new agent of kind ``agent_id`` for ``game`` (a registered id, or a
    checkpoint path whose suffix has a loader, see :func:`register_loader`).

    ``agent_id`` may also be a ``package.module:factory`` reference (any
    importable callable ``factory(game=None, **kwargs)`` returning an
    agent), and any of these may carry options, ``mcts:simulations=16,
    rollout=heuristic`` (:func:`parse_agent_spec`): they are passed to the
    factory or loader as keyword arguments, over ``kwargs`` where both name
    one.

    Whatever the factory or loader returns is an :class:`Agent`: an object
    with only ``act`` (duck-typed) is wrapped in a :class:`DuckAgent`, which
    gives it :class:`Agent`'s defaults for the rest. A checkpoint path that
    is missing, is no checkpoint, was trained on another game or fails to
    load raises :class:`AgentLoadError` (one line naming the file), as does
    a reference whose module does not import or has no such callable."""
    spec = agent_id
    agent_id, options = parse_agent_spec(agent_id)
    kwargs = {**kwargs, **options}
    suffix = _suffix_of(agent_id)
    if suffix is None:
        factory = agent_factory(agent_id)
        problem = _options_problem(agent_id, factory, options)
        if problem:
            raise AgentLoadError(problem)
        return as_agent(factory(game=game, **kwargs), spec)
    problem = agent_problem(agent_id, game)
    if problem:
        raise AgentLoadError(problem)
    loader = _resolve(_LOADERS[suffix])
    try:
        agent = loader(agent_id, game=game, **kwargs)
    except AgentLoadError:
        raise
    except Exception as err:
        path = str(agent_id)
        if isinstance(err, (FileNotFoundError, IsADirectoryError)) and file_problem(path):
            raise AgentLoadError(file_problem(path)) from err
        raise AgentLoadError(f"{path}: cannot be loaded: {_one_line(err, path)}") from err
    return as_agent(agent, agent_id)
