"""Game options from command-line tokens (envs/core/options.py), the layer the
CLI and the trainers share, and the RLlib adapter's promise that importing it
needs no Ray."""
import subprocess
import sys

import pytest

from dragongym.envs.core.options import parse_game_options, parse_value


def test_tokens_become_typed_keyword_options():
    assert parse_game_options(["--max-hands", "4", "--auto-single=false", "--name", "Red",
                               "--ratio=0.5"]) == {"max_hands": 4, "auto_single": False, "name": "Red",
                                                   "ratio": 0.5}
    assert parse_game_options([]) == {}
    assert [parse_value(v) for v in ("YES", "off", "12", "-3", "1e3", "x")] == [True, False, 12, -3, 1000.0, "x"]
    assert parse_value(7) == 7                       # typed values pass through
    with pytest.raises(ValueError, match="needs a value"):
        parse_game_options(["--max-hands"])
    with pytest.raises(ValueError, match="unexpected argument"):
        parse_game_options(["4"])


def test_the_cli_and_the_rllib_trainer_parse_with_the_shared_layer():
    from dragongym.training import cli
    assert cli.parse_game_options is parse_game_options
    source = open(sys.modules["dragongym.training.cli"].__file__.replace("cli.py", "rllib_selfplay.py")).read()
    assert "training.cli" not in source              # the trainer no longer imports the CLI


def test_importing_the_rllib_adapter_needs_no_ray():
    code = ("import sys, dragongym.envs.core.rllib_env as m; print('ray' in sys.modules, "
            "callable(m.multi_agent_env_class))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "True"]


def test_a_command_line_reads_each_value_as_its_options_type():
    """``--scenario 18.3`` is the scenario named "18.3" (a string option), not
    the float 18.3; ``--max-turns 2`` the int 2. Python callers get no such
    reading: a float scenario is refused, as is any other number."""
    import dragongym
    from dragongym.envs.core.config import ConfigError
    game = dragongym.get_game("dragon_pass")
    options = parse_game_options(["--scenario", "18.3", "--max-turns", "2", "--screening=yes"], game)
    assert options == {"scenario": "18.3", "max_turns": 2, "screening": True}
    config = game.make_config(**options)
    assert config.scenario == "18.3" and config.max_turns == 2
    for bad in (18.3, 18.1, 18, True):
        with pytest.raises(ConfigError, match="scenario"):
            game.make_config(scenario=bad)


def test_text_that_spells_no_value_of_the_options_type_names_the_option():
    import dragongym
    from dragongym.envs.core.config import ConfigError
    game = dragongym.get_game("dragonhunt")
    for tokens, shown in ((["--max-hands", "2.5"], "'2.5'"), (["--auto-single", "maybe"], "'maybe'"),
                          (["--num-players", "two"], "'two'")):
        with pytest.raises(ConfigError) as err:
            parse_game_options(tokens, game)
        option = tokens[0][2:].replace("-", "_")
        assert f"option {option} must be" in str(err.value) and shown in str(err.value)
