"""Strict validation of a game's options into its configuration dataclass.

A game's options are the fields of a frozen dataclass. Each field may say what
it allows in its ``metadata``:

* ``range=(lo, hi)``: an int in ``lo..hi`` (bools refused);
* ``choices=(...)``: one of these values;
* ``subset_of=(...)``: a tuple of distinct values, each one of these;
* ``check=callable``: ``check(value) -> ""`` or a sentence saying what is wrong.

The type is the field's annotation: ``int`` fields take Python or numpy ints
but never bools, floats or strings (``2.5``, ``"2"`` and ``True`` are refused,
not coerced); ``bool`` fields take only ``True``/``False``; ``str`` fields only
strings (``scenario=18.1`` is refused: the float is not the name ``"18.1"``);
``subset_of`` fields only tuples (a string or a list is refused). ``None`` is
refused too: leave an option out to take its default. A refused option raises
:class:`ConfigError` (a ``ValueError``) that names the game, the option, what
was given and what is allowed.

Two other spellings of options are read into those types explicitly, never
guessed inside :func:`build_config`: text, as a command line gives it
(:func:`options_from_text`: ``"4"`` for an int option, ``"18.1"`` for a
scenario, ``"cruel_caves,wicked_woods"`` for a set of names), and JSON, as a
game record or a run's saved arguments keep a configuration
(:func:`options_from_json`: a list for a tuple option).
"""
# jitcache: no compiled code
import dataclasses
import numbers

import numpy as np


class ConfigError(ValueError):
    """A game option that is unknown or not allowed."""


def describe(value):
    return f"{value!r} ({type(value).__name__})"


def _allowed(f):
    meta = f.metadata
    if "range" in meta:
        lo, hi = meta["range"]
        return f"an int in {lo}..{hi}"
    if "choices" in meta:
        return "one of " + ", ".join(repr(c) for c in meta["choices"])
    if "subset_of" in meta:
        return ("a tuple of distinct values from " + ", ".join(repr(c) for c in meta["subset_of"])
                + " (on a command line: comma-separated names)")
    kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))
    return {"int": "an int", "bool": "True or False", "str": "a string", "float": "a number"}.get(kind, kind)


def _check_field(game, f, value):
    """The value to store for field ``f``, or raise ConfigError."""
    kind = _field_kind(f)
    bad = f"{game}: option {f.name} must be {_allowed(f)}, got {describe(value)}"
    meta = f.metadata
    if kind == "bool":
        if not isinstance(value, (bool, np.bool_)):
            raise ConfigError(bad)
        value = bool(value)
    elif kind == "int":
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
            raise ConfigError(bad)
        value = int(value)
    elif kind == "float":
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
            raise ConfigError(bad)
        value = float(value)
        if not np.isfinite(value):
            raise ConfigError(bad)
    elif kind == "str":
        if not isinstance(value, str):
            raise ConfigError(bad)
        value = str(value)
    if "range" in meta:
        lo, hi = meta["range"]
        if not lo <= value <= hi:
            raise ConfigError(bad)
    if "choices" in meta and value not in meta["choices"]:
        raise ConfigError(bad)
    if "subset_of" in meta:
        if not isinstance(value, tuple):
            raise ConfigError(bad)
        if len(set(value)) != len(value) or any(v not in meta["subset_of"] for v in value):
            raise ConfigError(bad)
    if "check" in meta:
        problem = meta["check"](value)
        if problem:
            raise ConfigError(f"{game}: option {f.name}: {problem}, got {describe(value)}")
    return value


def build_config(game, config_cls, options):
    """``config_cls(**options)`` after strict checks (see the module docstring).

    An option given as ``None`` is refused: leave it out to take its default.
    """
    fields = {f.name: f for f in dataclasses.fields(config_cls)}
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise ConfigError(f"{game}: unknown option(s) {', '.join(unknown)}; "
                          f"its options are {', '.join(sorted(fields))}")
    values = {}
    for name, value in options.items():
        if value is None:
            raise ConfigError(f"{game}: option {name} must be {_allowed(fields[name])}, got None "
                              f"(leave an option out to take its default)")
        values[name] = _check_field(game, fields[name], value)
    return config_cls(**values)


def _field_kind(f):
    return f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "")


def option_from_text(game, f, text):
    """The value of option field ``f`` that the command-line text ``text``
    spells, read as the option's own type: ``"4"`` -> 4 for an int,
    ``"true"``/``"yes"``/``"on"`` and ``"false"``/``"no"``/``"off"`` for a
    bool, the text itself for a string (``"18.1"`` stays the scenario's name),
    comma-separated names for a set (``"cruel_caves,wicked_woods"`` -> a
    tuple). Text that spells no value of the type raises :class:`ConfigError`
    naming the option; the value is then checked by :func:`build_config`."""
    from dragongym.envs.core.options import FALSE_WORDS, TRUE_WORDS

    bad = ConfigError(f"{game}: option {f.name} must be {_allowed(f)}, got {text!r}")
    if "subset_of" in f.metadata:
        return tuple(name for name in text.split(",")) if text else ()
    kind = _field_kind(f)
    if kind == "bool":
        if text.lower() in TRUE_WORDS:
            return True
        if text.lower() in FALSE_WORDS:
            return False
        raise bad
    if kind in ("int", "float"):
        try:
            return int(text) if kind == "int" else float(text)
        except ValueError:
            raise bad from None
    return text


def options_from_text(game_name, config_cls, options):
    """Options as a command line gives them (``{"max_hands": "4"}``), each
    text value read as its option's type (:func:`option_from_text`). Values
    that are not strings pass unchanged, and so does a name that is no
    option of ``config_cls`` (read by :func:`options.parse_value`'s guess,
    for a game's aliases such as ``num_heroes``; an unknown name is then
    refused by :func:`build_config`)."""
    from dragongym.envs.core.options import parse_value

    fields = {f.name: f for f in dataclasses.fields(config_cls)}
    out = {}
    for name, value in options.items():
        if isinstance(value, str):
            value = option_from_text(game_name, fields[name], value) if name in fields else parse_value(value)
        out[name] = value
    return out


def options_from_json(config_cls, options):
    """Options as JSON keeps them (a game record's ``config``, a run's saved
    ``args.json``): a list stands for a tuple option's tuple. Everything
    else passes unchanged, for :func:`build_config` to check."""
    fields = {f.name: f for f in dataclasses.fields(config_cls)}
    return {name: tuple(value) if isinstance(value, list) and name in fields and "subset_of" in fields[name].metadata
            else value for name, value in options.items()}


def option_help(config_cls):
    """``{option: "what it allows (default ...)"}`` for error messages and CLIs."""
    out = {}
    for f in dataclasses.fields(config_cls):
        default = f.default if f.default is not dataclasses.MISSING else None
        out[f.name] = f"{_allowed(f)} (default {default!r})"
    return out


def check_seed(seed, what="seed"):
    """``seed`` as a Python int in ``0..2**64-1``; None passes through.
    Refuses bools, floats, strings and out-of-range ints (no silent modulo)."""
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, numbers.Integral):
        raise ConfigError(f"{what} must be an int in 0..2**64-1 or None, got {describe(seed)}")
    seed = int(seed)
    if not 0 <= seed < 2**64:
        raise ConfigError(f"{what} must be an int in 0..2**64-1 or None, got {seed}")
    return seed


def check_count(value, what, lo=1, hi=None):
    """``value`` as an int in ``lo..hi`` (bools, floats and strings refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral) \
            or not lo <= int(value) <= (hi if hi is not None else int(value)):
        rng = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
        raise ConfigError(f"{what} must be an int, {rng}, got {describe(value)}")
    return int(value)


def seated_options(game, players, num_agents, options):
    """The game options with the seat count settled, and the spec they give.

    ``--players`` becomes the game's ``num_players`` option. Without it, a game
    that has that option gets one seat per agent where its configuration
    allows that many, else its default; the configuration (scenario, sandbox,
    player count) decides the seats, read from ``spec_for``. Returns
    ``(options, spec)``, or ``(error, None)`` with a readable error string.
    """
    options = dict(options)
    if players is not None:
        options["num_players"] = players
    elif "num_players" in getattr(game.config_cls, "__dataclass_fields__", {}) and num_agents > 1:
        try:
            game.make_config(**options, num_players=num_agents)
            options["num_players"] = num_agents
        except (TypeError, ValueError):
            pass                      # too many agents for one game: lineups of the default size
    try:
        config = game.make_config(**options)
    except (TypeError, ValueError) as error:
        return f"invalid option for {game.name}: {error}", None
    return options, game.spec_for(config)
