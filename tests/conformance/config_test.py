"""Bad options are refused, never coerced, with a message naming the option,
what was given and what is allowed. The bad values are derived from the
fields of the game's ``config_cls`` (their types and metadata), so every
game's options are covered without naming them."""
import dataclasses
import math

import pytest

import dragongym
from dragongym.envs.core.config import ConfigError
from tests.conformance.cases import game_names, load_game, registered


def _kind(f):
    return f.type if isinstance(f.type, str) else getattr(f.type, "__name__", str(f.type))


def bad_values(f):
    """``[(value, words the message must hold)]`` of values field ``f`` refuses."""
    kind, meta = _kind(f), f.metadata
    # None is not "the default": an option is left out for that
    out = [(None, ["None", "leave an option out"])]
    if kind == "int":
        out += [(2.5, ["2.5"]), ("2", ["'2'"]), (True, ["True"])]
        if "range" in meta:
            lo, hi = meta["range"]
            out += [(lo - 1, [str(lo - 1), f"{lo}..{hi}"]), (hi + 1, [str(hi + 1), f"{lo}..{hi}"])]
    elif kind == "bool":
        out += [("no", ["'no'"]), (1, ["1"]), (0.0, ["0.0"])]
    elif kind == "float":
        out += [("0.5", ["'0.5'"]), (True, ["True"]), (math.nan, ["nan"])]
    elif kind == "str":
        out += [(3, ["3"]), (b"x", ["b'x'"])]
        for choice in meta.get("choices", ()):
            try:                              # a choice spelled like a number ("18.1") is not that number
                out.append((float(choice), [repr(float(choice))]))
            except ValueError:
                pass
    if "choices" in meta:
        out.append(("__not_a_choice__", ["'__not_a_choice__'"] + [repr(c) for c in meta["choices"]]))
    if "subset_of" in meta:
        allowed = list(meta["subset_of"])
        out += [(("__not_a_choice__",), ["__not_a_choice__"]),
                ("a string", ["'a string'"])]
        if allowed:
            # a tuple of names, never one name alone or a list of them
            out += [((allowed[0], allowed[0]), [repr(allowed[0])]), (allowed[0], [repr(allowed[0])]),
                    (list(allowed[:1]), [repr(list(allowed[:1]))])]
    return out


def _bad_cases():
    out = []
    for name in game_names():
        for f in dataclasses.fields(load_game(name).config_cls):
            for value, words in bad_values(f):
                out.append(pytest.param(name, f.name, value, words, id=f"{name}-{f.name}={value!r}"))
    return out


@pytest.mark.parametrize("name, option, value, words", _bad_cases())
def test_a_bad_option_value_is_refused_by_name(name, option, value, words):
    with registered(name):
        game = dragongym.get_game(name)
        makers = [lambda: dragongym.make(name, **{option: value}),
                  lambda: dragongym.make_vec(name, 2, **{option: value}),
                  lambda: game.make_config(**{option: value})]
        if option == "num_players" and value is None:
            makers = makers[2:]   # the adapters' own num_players parameter: None is documented as the default
        for make in makers:
            with pytest.raises(ValueError) as err:
                make()
            text = str(err.value)
            assert option in text, f"the message does not name the option: {text}"
            for w in words:
                assert w in text, f"the message does not say {w!r}: {text}"
            assert isinstance(err.value, ConfigError) or "must" in text


def test_an_unknown_option_is_refused_with_the_options_listed(game_name):
    game = dragongym.get_game(game_name)
    options = [f.name for f in dataclasses.fields(game.config_cls)]
    for make in (lambda: dragongym.make(game_name, no_such_option=1),
                 lambda: dragongym.make_vec(game_name, 2, no_such_option=1)):
        with pytest.raises(ValueError) as err:
            make()
        text = str(err.value)
        assert "no_such_option" in text and game_name in text, text
        for option in options:
            assert option in text, f"the message does not list option {option}: {text}"


def test_every_declared_test_configuration_is_valid_and_kept(game_name):
    """``test_configs()`` are option dicts ``make_config`` accepts as given."""
    game = dragongym.get_game(game_name)
    configs = game.test_configs()
    assert configs, "test_configs() is empty"
    for options in configs:
        config = game.make_config(**options)
        assert isinstance(config, game.config_cls)
        for key, value in options.items():
            assert getattr(config, key) == value
        assert game.spec_for(config).config == config
    assert len({repr(sorted(c.items())) for c in configs}) == len(configs), "test_configs() repeats itself"
