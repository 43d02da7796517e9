"""Game options given as command-line tokens, turned into keyword options.

Every script that plays a game (``dragongym match/eval``, the trainers, the
benchmarks) accepts the game's own options as ``--name value`` or
``--name=value`` tokens it does not know itself; :func:`parse_game_options`
turns them into the keyword dict that ``Game.make_config`` validates: dashes
become underscores, and each value is read as the type of the game's option
of that name (``envs.core.config.options_from_text``: ``--scenario 18.1`` is
the scenario named "18.1", ``--max-hands 4`` the int 4). Without a game the
values are guessed (:func:`parse_value`: bools, ints, floats, then strings).
"""
# jitcache: no compiled code

TRUE_WORDS = ("true", "yes", "on")
FALSE_WORDS = ("false", "no", "off")


def parse_game_options(tokens, game=None):
    """``["--max-hands", "4", "--auto-single=false"]`` -> ``{"max_hands": 4, "auto_single": False}``.

    ``game`` (a :class:`~dragongym.envs.core.game.Game`) reads each value as
    the type of its option; without it the values are guessed
    (:func:`parse_value`). Raises ValueError for a token that is not an
    option, an option without a value, or (``ConfigError``) text that spells
    no value of its option's type.
    """
    options = {}
    i = 0
    tokens = list(tokens)
    while i < len(tokens):
        token = tokens[i]
        if not token.startswith("--") or token == "--":
            raise ValueError(f"unexpected argument {token!r}")
        name, eq, value = token[2:].partition("=")
        if not eq:
            if i + 1 >= len(tokens) or tokens[i + 1].startswith("--"):
                raise ValueError(f"game option --{name} needs a value")
            i += 1
            value = tokens[i]
        options[name.replace("-", "_")] = value
        i += 1
    if game is not None:
        from dragongym.envs.core.config import options_from_text
        return options_from_text(game.name, game.config_cls, options)
    return {name: parse_value(value) for name, value in options.items()}


def parse_value(text):
    """A command-line value as the type it spells: ``"true"``/``"yes"``/``"on"``
    -> True, ``"false"``/``"no"``/``"off"`` -> False (any case), then int,
    then float, else the string itself. Non-strings pass through unchanged."""
    if not isinstance(text, str):
        return text
    lowered = text.lower()
    if lowered in TRUE_WORDS:
        return True
    if lowered in FALSE_WORDS:
        return False
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def number_type(kind=int, at_least=None, above=None, at_most=None):
    """An argparse ``type``: a number of ``kind`` (int or float) with the bounds
    given -- ``at_least`` / ``at_most`` inclusive, ``above`` exclusive. Anything
    else raises ``argparse.ArgumentTypeError``, which argparse answers with its
    one-line usage error, never a traceback. Every command line of the project
    (``dragongym match/eval/play/replay``) takes its counts, seeds, ports and
    rates through it."""
    import argparse
    import math

    def parse(text):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{text!r} is not {'an integer' if kind is int else 'a number'}") from None
        if kind is float and not math.isfinite(value):
            raise argparse.ArgumentTypeError(f"{text} is not a finite number")
        if at_least is not None and value < at_least:
            raise argparse.ArgumentTypeError(f"{text} is below {at_least}")
        if above is not None and not value > above:
            raise argparse.ArgumentTypeError(f"{text} is not above {above}")
        if at_most is not None and value > at_most:
            raise argparse.ArgumentTypeError(f"{text} is above {at_most}")
        return value

    bounds = [f">= {at_least}" if at_least is not None else "", f"> {above}" if above is not None else "",
              f"<= {at_most}" if at_most is not None else ""]
    parse.__name__ = " ".join([kind.__name__] + [b for b in bounds if b])
    return parse
