"""Every float field of a game's record has the range its rules and reward
scheme allow (``Game.float_ranges``, narrowed by ``running_float_ranges``
while the game runs), play stays inside it, and a restored record with a
value outside -- a reward or a score no game can reach, NaN, an infinity, a
seat beyond the game's holding one -- is refused with the field named, the
live game untouched (the AEC env and the vector API alike)."""
import numpy as np
import pytest

from dragongym.envs.core.game import STATUS_RUNNING, InvalidStateError, float_field_problem
from tests.conformance.play import random_play


def _float_fields(game):
    return [name for name in game.dtype.names if game.dtype.fields[name][0].base.kind == "f"]


def test_every_float_field_has_a_declared_range(case):
    game = case.game
    for name in _float_fields(game):
        assert name in game.float_ranges, f"{game.name}: float field {name} has no range in float_ranges"
    for ranges in (game.float_ranges, game.running_float_ranges):
        for name, (lo, hi) in ranges.items():
            assert name in _float_fields(game), f"{game.name}: range for {name}, which is no float field"
            assert np.isfinite(lo) and np.isfinite(hi) and lo <= hi, f"{game.name}: {name} range {lo}..{hi}"
    for name, (lo, hi) in game.running_float_ranges.items():
        wide_lo, wide_hi = game.float_ranges[name]
        assert wide_lo <= lo and hi <= wide_hi, f"{name}: the running range is not inside the whole range"


def test_play_stays_inside_the_declared_ranges(case):
    finished = 0
    for seed in (0, 1, 2):
        for state, _ in random_play(case.game, case.config, seed):
            problem = float_field_problem(case.game, state)
            assert problem == "", f"seed {seed}, decision of a random game: {problem}"
            finished += int(state[0]["status"]) != STATUS_RUNNING
    assert finished == 3


def _just_outside(lo, hi):
    """float32 values next to the range and far from it."""
    out = [np.nextafter(np.float32(hi), np.float32(np.inf)), np.nextafter(np.float32(lo), np.float32(-np.inf)),
           np.float32(1e38), np.float32(-1e38), np.float32(np.nan), np.float32(np.inf), np.float32(-np.inf)]
    return [v for v in out if not lo <= float(v) <= hi]


def _out_of_range_records(case, record):
    """``(what, field, corrupted copy)`` of ``record``, one float outside its range each."""
    game = case.game
    running = int(record[0]["status"]) == STATUS_RUNNING
    out = []
    for name in _float_fields(game):
        lo, hi = game.float_ranges[name]
        if running and name in game.running_float_ranges:
            lo, hi = game.running_float_ranges[name]
        for value in _just_outside(lo, hi):
            bad = record.copy()
            field = bad[name]                      # a view: (1,) or (1, seats, ...)
            field[(0,) * field.ndim] = value
            out.append((f"{name}[0] = {float(value)!r}", name, bad))
        if name in ("rewards", "score") and record[0][name].shape[0] > int(record[0]["num_players"]):
            bad = record.copy()
            bad[name][0, int(record[0]["num_players"])] = np.float32(1.0)
            out.append((f"{name} of a seat beyond the game's", name, bad))
    return out


def _final_record(case):
    for state, _ in random_play(case.game, case.config, 0):
        if int(state[0]["status"]) != STATUS_RUNNING:
            return state.copy()
    raise AssertionError("the game did not end")


def _aec_snapshot(env):
    return (env.state_record.tobytes(), env.agent_selection, dict(env.rewards),
            dict(env.terminations), dict(env.truncations), list(env.agents))


@pytest.mark.parametrize("when", ["running", "finished"])
def test_restore_refuses_a_float_outside_its_range(case, when):
    env = case.make()
    env.reset(seed=0)
    record = env.clone_state() if when == "running" else _final_record(case)
    env.restore_state(record)                      # the sound record is taken
    cases = _out_of_range_records(case, record)
    assert cases
    env.reset(seed=5)
    venv = case.make_vec(3, seed=1)
    venv.reset()
    for what, field, bad in cases:
        before = _aec_snapshot(env)
        with pytest.raises(InvalidStateError, match=field) as err:
            env.restore_state(bad)
        assert "refused" in str(err.value), str(err.value)
        assert _aec_snapshot(env) == before, f"refusing a record with {what} changed the env"
        states = venv.states.tobytes()
        with pytest.raises(InvalidStateError, match=field):
            venv.restore_game(1, bad)
        assert venv.states.tobytes() == states, f"refusing a record with {what} changed the batch"
