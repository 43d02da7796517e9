"""Bad input is refused with a message that says what was wrong, and the
state is left byte for byte as it was: through the Game contract, the AEC env
and the vector API; snapshots that are not sound positions are refused too."""
import numpy as np
import pytest

from dragongym.envs.core.game import IllegalActionError, InvalidStateError
from tests.conformance.play import changed_fields, decide, random_play

WRONG_TYPES = (1.0, np.float32(1.0), "1", b"\x01", None, [1])


def _positions(case, seeds=(0, 1), every=1):
    """Copies of (state, mask) from a few random games, the final positions included."""
    out = []
    for seed in seeds:
        for t, (state, mask) in enumerate(random_play(case.game, case.config, seed)):
            if t % every == 0 or int(state[0]["status"]) != 0:
                out.append((state.copy(), mask.copy()))
    return out


def _game_step(game, state, action):
    errors = np.zeros(1, dtype=np.int8)
    game.step(state, np.array([action], dtype=np.int32), errors)
    return int(errors[0])


def _assert_explained(game, code):
    text = game.error_message(code)
    assert isinstance(text, str) and text and text != f"error {code}", \
        f"error code {code} has no explanation: {text!r}"


# ---------------------------------------------------------------- Game contract

def test_game_step_refuses_masked_out_of_range_and_finished_without_a_change(case):
    game, A = case.game, case.spec.num_actions
    masked = finished = 0
    for state, mask in _positions(case, every=3):
        before = state.tobytes()
        running = int(state[0]["status"]) == 0
        for a in [A, A + 7] + [int(a) for a in np.flatnonzero(mask == 0)[:3]]:
            code = _game_step(game, state, a)
            assert code != 0, f"action {a} accepted (mask {mask[a] if a < A else 'out of range'})"
            assert state.tobytes() == before, \
                f"refused action {a} changed the record: {changed_fields(before, state)}"
            _assert_explained(game, code)
            masked += a < A and running
        if not running:
            finished += 1
            for a in range(A):
                code = _game_step(game, state, a)
                assert code != 0, f"a finished game took action {a}"
                assert state.tobytes() == before, \
                    f"refusing action {a} after the end changed {changed_fields(before, state)}"
            _assert_explained(game, code)
        _game_step(game, state, -1)
        assert state.tobytes() == before, \
            f"an action < 0 must leave the game alone; it changed {changed_fields(before, state)}"
    assert finished, "no game finished"


# ---------------------------------------------------------------- AEC env

def test_aec_refuses_use_before_reset(case):
    env = case.make()
    agent = env.possible_agents[0]
    with pytest.raises((RuntimeError, ValueError, AttributeError), match="reset"):
        env.step(0)
    with pytest.raises((RuntimeError, ValueError, AttributeError), match="reset"):
        env.observe(agent)
    with pytest.raises((RuntimeError, ValueError, AttributeError), match="reset"):
        env.last()


def _walk_to_masked_position(case, env, tries=4):
    """Reset and play randomly until the mover has a masked-out action; the
    action, or None if no game of ``tries`` had one."""
    for seed in range(tries):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                break
            masked = np.flatnonzero(obs["action_mask"] == 0)
            if len(masked):
                return int(masked[0])
            env.step(decide(rng, obs["action_mask"]))
    return None


def _aec_snapshot(env):
    return (env.state_record.tobytes(), env.agent_selection, dict(env.rewards),
            dict(env.terminations), dict(env.truncations), list(env.agents))


def test_aec_refuses_a_masked_action(case):
    env = case.make()
    a = _walk_to_masked_position(case, env)
    if a is None:
        pytest.skip(f"{case}: no masked-out action in 4 random games")
    agent = env.agent_selection
    before = _aec_snapshot(env)
    with pytest.raises(IllegalActionError) as err:
        env.step(a)
    assert agent in str(err.value) and str(a) in str(err.value)
    assert _aec_snapshot(env) == before
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))  # the game goes on


@pytest.mark.parametrize("kind", ["out_of_range", "wrong_type"])
def test_aec_refuses_out_of_range_and_wrong_types(case, kind):
    env = case.make()
    env.reset(seed=0)
    A = case.spec.num_actions
    agent = env.agent_selection
    before = _aec_snapshot(env)
    bad_values = [A, A + 1, -1, 2**40] if kind == "out_of_range" else list(WRONG_TYPES)
    for bad in bad_values:
        with pytest.raises((ValueError, TypeError)) as err:
            env.step(bad)
        text = str(err.value)
        assert agent in text, text
        if kind == "out_of_range":
            assert str(bad) in text and f"0..{A - 1}" in text, text
        else:
            assert repr(bad) in text, text
        assert _aec_snapshot(env) == before, f"{bad!r} changed the env"
    env.step(int(np.flatnonzero(env.observe(agent)["action_mask"])[0]))


def test_aec_refuses_steps_after_the_end(case):
    env = case.make()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while True:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(decide(rng, obs["action_mask"]))
    before = env.state_record.tobytes()
    with pytest.raises(ValueError, match="None"):
        env.step(int(np.flatnonzero(np.ones(case.spec.num_actions))[0]))
    assert env.state_record.tobytes() == before
    while env.agents:
        env.step(None)
    for a in (0, None):
        with pytest.raises((RuntimeError, ValueError), match="reset"):
            env.step(a)
    assert env.state_record.tobytes() == before


def _corruptions(case, record):
    """(what, corrupted copy) of a running record, each breaking a common field."""
    n = case.spec.num_seats
    out = []
    for what, field, value in (("status 7", "status", 7), (f"to_play {n}", "to_play", n),
                               ("to_play -1 while running", "to_play", -1)):
        bad = record.copy()
        bad[field] = value
        out.append((what, bad))
    bad = record.copy()
    bad["rank"][0, 0] = 1
    out.append(("ranks set while running", bad))
    return out


def test_aec_restore_refuses_unsound_records(case):
    env = case.make()
    env.reset(seed=0)
    record = env.clone_state()
    for what, bad in _corruptions(case, record):
        assert case.game.check_state(bad) != "", f"check_state accepts a record with {what}"
        before = _aec_snapshot(env)
        with pytest.raises(InvalidStateError):
            env.restore_state(bad)
        assert _aec_snapshot(env) == before, f"refusing a record with {what} changed the env"
    with pytest.raises(ValueError):
        env.restore_state(np.zeros(1, dtype=[("x", np.int8)]))
    assert _aec_snapshot(env)[0] == record.tobytes()


# ---------------------------------------------------------------- vector API

def _vec_to_masked_rows(case, B=4):
    venv = case.make_vec(B, seed=3)
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(50):
        if (venv.masks == 0).any(axis=1).any():
            break
        venv.step(venv.sample_actions(rng))
    return venv


def _vec_snapshot(venv):
    return venv.states.tobytes(), venv.masks.tobytes(), venv.to_play.tobytes(), \
        None if venv.obs is None else venv.obs.tobytes()


def test_vec_refuses_bad_actions_before_stepping_any_game(case):
    B = 4
    venv = _vec_to_masked_rows(case, B)
    A = case.spec.num_actions
    legal = venv.sample_actions(np.random.default_rng(1)).copy()
    before = _vec_snapshot(venv)
    rows = np.flatnonzero((venv.masks == 0).any(axis=1))
    if len(rows):
        b = int(rows[-1])
        actions = legal.copy()
        actions[b] = int(np.flatnonzero(venv.masks[b] == 0)[0])
        with pytest.raises(IllegalActionError, match=rf"game {b}\b.*{actions[b]}"):
            venv.step(actions)
        assert _vec_snapshot(venv) == before
    for b, bad in ((B - 1, A), (1, A + 100)):
        actions = legal.copy()
        actions[b] = bad
        with pytest.raises(IllegalActionError, match=rf"game {b}\b.*{bad}.*0\.\.{A - 1}"):
            venv.step(actions)
        assert _vec_snapshot(venv) == before
    for bad, words in ((legal.astype(np.float64), "integer"), (legal[:-1], "shape"),
                       (np.concatenate([legal, legal]), "shape"), (None, "array"),
                       ([str(a) for a in legal], "integer"), (legal.reshape(1, B), "shape")):
        with pytest.raises(ValueError, match=words):
            venv.step(bad)
        assert _vec_snapshot(venv) == before
    venv.step(legal)   # the batch goes on


def test_vec_refuses_use_before_reset(case):
    venv = case.make_vec(2)
    with pytest.raises(RuntimeError, match="reset"):
        venv.step(np.zeros(2, dtype=np.int64))


def test_vec_restore_refuses_unsound_records(case):
    venv = case.make_vec(4, seed=1)
    venv.reset()
    record = venv.clone_game(1)
    for what, bad in _corruptions(case, record):
        before = _vec_snapshot(venv)
        with pytest.raises(InvalidStateError):
            venv.restore_game(2, bad)
        assert _vec_snapshot(venv) == before, f"restore_game of a record with {what} changed the batch"
        snap = venv.clone()
        snap["states"][3] = bad[0]
        with pytest.raises(InvalidStateError, match=r"\b3\b"):
            venv.restore(snap)
        assert _vec_snapshot(venv) == before, f"restore of a batch with {what} changed the batch"
    with pytest.raises(IndexError):
        venv.restore_game(4, record)


# ---------------------------------------------------------------- seeds

BAD_SEEDS = (-1, 2**64, 1.5, "3", True, np.float64(2.0))


def test_seeds_are_ints_in_0_to_2_pow_64_never_coerced(case):
    env = case.make()
    env.reset(seed=0)
    before = env.state_record.tobytes()
    for bad in BAD_SEEDS:
        with pytest.raises((ValueError, TypeError), match="seed"):
            env.reset(seed=bad)
        assert env.state_record.tobytes() == before, f"reset(seed={bad!r}) changed the game"
        with pytest.raises((ValueError, TypeError), match="seed"):
            case.make(seed=bad)
        with pytest.raises((ValueError, TypeError), match="seed"):
            case.make_vec(2, seed=bad)
    firsts = set()
    for good in (0, 1, 2**64 - 1, np.uint64(2**64 - 1)):
        env.reset(seed=good)
        firsts.add(env.state_record.tobytes())
    assert len(firsts) == 3, "seeds 0, 1 and 2**64-1 (as int and np.uint64) start 3 different games"
