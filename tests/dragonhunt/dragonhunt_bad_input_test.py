"""Bad input to Dragonhunt through the adapters: options that are not what
they say, vector actions of any width, the game ended early by PettingZoo's
TerminateIllegalWrapper, illegal actions named for what they are, and the
"human" render mode."""
import numpy as np
import pytest

import dragongym
from dragongym.envs.core.config import ConfigError
from dragongym.envs.core.game import IllegalActionError
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.game import GAME
from tests.core.bad_input_test import check_terminate_illegal


@pytest.mark.parametrize("option, value, allowed", [
    ("num_players", 2.5, r"an int in 2\.\.6"),
    ("num_players", "2", r"an int in 2\.\.6"),
    ("num_players", True, r"an int in 2\.\.6"),
    ("num_players", 7, r"an int in 2\.\.6"),
    ("max_hands", True, r"an int in 1\.\.1000"),
    ("max_hands", 0, r"an int in 1\.\.1000"),
    ("auto_single", "no", "True or False"),
    ("auto_single", 1, "True or False"),
])
def test_options_are_refused_by_name_not_coerced(option, value, allowed):
    for make in (lambda: dragongym.make("dragonhunt", **{option: value}),
                 lambda: dragongym.make_vec("dragonhunt", 2, **{option: value}),
                 lambda: dragongym.make_single_agent("dragonhunt", **{option: value})):
        with pytest.raises(ConfigError, match=rf"dragonhunt: option {option} must be {allowed}, "
                                              rf"got {value!r}"):
            make()


def test_a_seed_beyond_64_bits_is_refused_not_reduced():
    env = dragongym.make("dragonhunt")
    with pytest.raises(ConfigError, match="seed must be an int in 0..2"):
        env.reset(seed=2**70)
    with pytest.raises(ConfigError, match="seed must be an int in 0..2"):
        dragongym.make_vec("dragonhunt", 2, seed=2**70)
    with pytest.raises(ConfigError, match="seed must be an int in 0..2"):
        dragongym.make_single_agent("dragonhunt").reset(seed=-3)


def test_vector_actions_of_any_width_mean_what_they_say():
    venv = dragongym.make_vec("dragonhunt", 3, seed=0, num_players=2)
    venv.reset()
    before = venv.states.tobytes()
    legal = venv.sample_actions(np.random.default_rng(0)).astype(np.uint64)
    huge = legal.copy()
    huge[1] = 2**63
    with pytest.raises(IllegalActionError, match=rf"game 1: action {2**63} outside 0\.\.{R.NUM_ACTIONS - 1}"):
        venv.step(huge)
    assert venv.states.tobytes() == before
    # -(2**32) + 195 would wrap to 195, "done", if cast to int32: it leaves game 2 alone
    actions = legal.astype(np.int64)
    actions[2] = -(2**32) + R.A_DONE
    venv.step(actions)
    assert venv.states[2:3].tobytes() == np.frombuffer(before, dtype=venv.states.dtype)[2:3].tobytes()
    assert venv.states[0:1].tobytes() != np.frombuffer(before, dtype=venv.states.dtype)[0:1].tobytes()


def test_an_illegal_kingdom_choice_is_named_for_what_it_is():
    env = dragongym.make("dragonhunt", num_players=2)
    env.reset(seed=0)
    agent = env.agent_selection
    cell = next(a for a in range(R.NC) if GAME.action_to_string(env.state_record, a).endswith(
        "(no kingdom to choose there)"))
    with pytest.raises(IllegalActionError, match=rf"{agent}: illegal action {cell} \(cell \d{{4}} \(no kingdom "
                                                 r"to choose there\)\): not a legal action"):
        env.step(cell)
    with pytest.raises(IllegalActionError, match=r"action -1 is outside"):
        env.step(-1)


def test_terminate_illegal_wrapper_on_dragonhunt():
    check_terminate_illegal(lambda: dragongym.make("dragonhunt", num_players=3, max_hands=1))


def test_human_rendering_without_a_screen_says_so_and_prints_the_board(capsys, monkeypatch):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    env = dragongym.make("dragonhunt", num_players=2, render_mode="human")
    env.reset(seed=0)
    with pytest.warns(RuntimeWarning, match="found no screen"):
        assert env.render() is None
    out = capsys.readouterr().out
    assert out == GAME.render_ansi(env.state_record, 0) and "to play: player_" in out   # seat 0 to play
