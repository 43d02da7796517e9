"""PettingZoo's own checks on every game and test configuration, with every
warning heard (see ``warning_policy.py``).

``max_cycles_test`` is not run: it takes a *module* with ``parallel_env`` and
``env`` factories accepting ``max_cycles`` and asserts that every agent acts
exactly ``max_cycles + 1`` times, a contract of simultaneous-move games where
each cycle is one action per agent. Our envs are turn-based AEC envs
(``is_parallelizable`` False) whose length limit is a game option counted in
the game's own unit (``truncation_option``, ``spec.turn_unit``: hands, moves),
and seats do not act equally often (Dragonhunt's core takes forced decisions
itself). What that test stands for, that the limit is honoured and ends the
game as a truncation, is checked here on the game's own terms
(``test_the_length_limit_truncates``).
"""
import dataclasses
import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

import dragongym
from tests.conformance.cases import load_game
from tests.conformance.play import decide
from tests.conformance.warning_policy import only_allowed_warnings, unexplained


def test_api_test(case):
    with only_allowed_warnings(case.spec):
        api_test(case.make(render_mode="ansi"), num_cycles=200)


def test_seed_test(case):
    with only_allowed_warnings(case.spec):
        seed_test(lambda: case.make(), num_cycles=200)


def test_render_test(case, capsys, monkeypatch):
    """``render_test`` opens the env with ``render_mode="human"`` first, then
    plays every listed mode (``rgb_array`` wherever the game draws). Here
    there is no screen, so ``human`` says so, once per env, and prints the
    text picture instead; any other warning fails the test."""
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        render_test(lambda render_mode=None: case.make(render_mode=render_mode))
    no_screen = [w for w in caught if issubclass(w.category, RuntimeWarning)
                 and "found no screen" in str(w.message)]
    assert no_screen, "render_mode='human' without a screen must say so"
    others = [w for w in caught if w not in no_screen]
    assert not unexplained(others, case.spec), unexplained(others, case.spec)
    env = case.make(render_mode="human")
    assert "human" in env.metadata["render_modes"]
    assert ("rgb_array" in env.metadata["render_modes"]) == case.game.has_pictures
    env.reset(seed=0)
    capsys.readouterr()
    with pytest.warns(RuntimeWarning, match="found no screen"):
        assert env.render() is None
    printed = capsys.readouterr().out
    assert case.game.render_ansi(env.state_record, env._render_seat()).strip() in printed
    full = case.make(render_mode="ansi", render_view="full")
    full.reset(seed=0)
    assert full.render() == case.game.render_ansi(full.state_record, None)


def test_every_registered_game_draws(game_name):
    """Every real game draws pictures (``rgb_array``, replays, the web page);
    of the toy games only Race to Ten does (the others test the adapters'
    behaviour for a game that does not)."""
    from tests.conftest import TOY_GAMES

    game = load_game(game_name)
    assert game.has_pictures == (game_name not in TOY_GAMES or game_name == "race")


def test_the_length_limit_truncates(case):
    """With the game's truncation option at its smallest allowed value every
    game ends within ``spec.max_decisions``, and one that the rules did not end
    is reported truncated to every agent, once, as a draw for all when the
    game is zero-sum."""
    game = case.game
    opt = game.truncation_option
    if not opt:
        pytest.skip(f"{case.name} declares no truncation_option: its rules end every game")
    field = {f.name: f for f in dataclasses.fields(game.config_cls)}[opt]
    lo = field.metadata.get("range", (1, None))[0]
    options = {**case.kwargs, opt: lo}
    spec = game.spec_for(game.make_config(**options))
    assert spec.turn_limit == lo
    env = dragongym.make(case.name, **options)
    truncated = 0
    for seed in range(4):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        decisions = 0
        ends = {}
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                ends[agent] = (term, trunc)
                env.step(None)
                continue
            env.step(decide(rng, obs["action_mask"]))
            decisions += 1
            assert decisions <= spec.max_decisions
        assert set(ends) == set(env.possible_agents)
        assert len(set(ends.values())) == 1, f"agents disagree on how the game ended: {ends}"
        term, trunc = next(iter(ends.values()))
        assert term != trunc
        status = int(env.state_record[0]["status"])
        assert status == (2 if trunc else 1)
        if trunc:
            truncated += 1
            ranks = env.state_record[0]["rank"][:spec.num_seats]
            if spec.utility == "zero_sum":
                assert (ranks == 1).all(), f"a truncated zero-sum game is a draw, ranks {ranks}"
    assert truncated, f"{opt}={lo} never truncated a game in 4 tries"
