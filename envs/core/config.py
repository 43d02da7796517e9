"""Strict validation of a game's options into its configuration dataclass.

A game's options are the fields of a frozen dataclass. Each field may say what
it allows in its ``metadata``:

* ``range=(lo, hi)``: an int in ``lo..hi`` (bools refused);
* ``choices=(...)``: one of these values;
* ``subset_of=(...)``: a tuple of distinct values, each one of these (or, as
  a command line spells it, one string of them separated by commas);
* ``check=callable``: ``check(value) -> ""`` or a sentence saying what is wrong.

The type is the field's annotation: ``int`` fields take Python or numpy ints
but never bools, floats or strings (``2.5``, ``"2"`` and ``True`` are refused,
not coerced); ``bool`` fields take only ``True``/``False``; ``str`` fields only
strings. A refused option raises :class:`ConfigError` (a ``ValueError``) that
names the game, the option, what was given and what is allowed.
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
    kind = f.type if isinstance(f.type, str) else getattr(f.type, "__name__", "")
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
            # a choice spelled like a number ("18.1", which a command line reads as a float,
            # options.parse_value) may be given as that number; nothing else converts
            spelled = repr(value) if isinstance(value, float) else str(value)
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real) \
                    or spelled not in meta.get("choices", ()):
                raise ConfigError(bad)
            value = spelled
    if "range" in meta:
        lo, hi = meta["range"]
        if not lo <= value <= hi:
            raise ConfigError(bad)
    if "choices" in meta and value not in meta["choices"]:
        raise ConfigError(bad)
    if "subset_of" in meta:
        if isinstance(value, str):
            # as a command line spells it (options.parse_value leaves it a string):
            # "cruel_caves,wicked_woods"; the names are then checked like a tuple's
            value = tuple(value.split(","))
        if not isinstance(value, (tuple, list)):
            raise ConfigError(bad)
        value = tuple(value)
        if len(set(value)) != len(value) or any(v not in meta["subset_of"] for v in value):
            raise ConfigError(bad)
    if "check" in meta:
        problem = meta["check"](value)
        if problem:
            raise ConfigError(f"{game}: option {f.name}: {problem}, got {describe(value)}")
    return value


def build_config(game, config_cls, options):
    """``config_cls(**options)`` after strict checks (see the module docstring).

    Options given as ``None`` take their default.
    """
    fields = {f.name: f for f in dataclasses.fields(config_cls)}
    unknown = sorted(set(options) - set(fields))
    if unknown:
        raise ConfigError(f"{game}: unknown option(s) {', '.join(unknown)}; "
                          f"its options are {', '.join(sorted(fields))}")
    values = {}
    for name, value in options.items():
        if value is None:
            continue
        values[name] = _check_field(game, fields[name], value)
    return config_cls(**values)


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
