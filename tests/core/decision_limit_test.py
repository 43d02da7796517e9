"""The decision limit (``GameSpec.decision_limit``): a game that never ends --
a policy repeating a loop of decisions the rules allow -- is ended, truncated,
by matches, tournaments, the vector env and the replay of its record, instead
of hanging them. The toy games' specs are patched to a limit of 3 decisions,
below the 4 that Race to Ten needs at least."""
import numpy as np
import pytest

import dragongym
from dragongym.agents.game_record import read_records, replay
from dragongym.agents.match import play_match
from dragongym.agents.tournament import run_tournament
from dragongym.envs.core.game import STATUS_RUNNING, STATUS_TRUNCATED
from dragongym.envs.core.outcome import end_at_decision_limit, outcome_of
from dragongym.envs.core.spec import DECISION_LIMIT_FACTOR, GameSpec
from dragongym.envs.core.vector import VecGameEnv
from tests.core.toygame import GAME

LIMIT = 3


@pytest.fixture
def limit_of_three(monkeypatch):
    monkeypatch.setattr(GameSpec, "decision_limit", property(lambda self: LIMIT))


def fresh(game, **options):
    config = game.make_config(**options)
    state = game.new_states(1)
    game.reset(state, np.array([7], dtype=np.uint64), config)
    return state, game.spec_for(config)


def test_the_limit_is_a_multiple_of_max_decisions_for_every_registered_game():
    for name in dragongym.list_games():
        game = dragongym.get_game(name)
        spec = game.spec_for(game.make_config())
        assert spec.decision_limit == DECISION_LIMIT_FACTOR * spec.max_decisions > spec.max_decisions


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_game_ended_at_the_limit_is_a_draw_of_every_seat(seats):
    state, spec = fresh(GAME, num_players=seats)
    score = state[0]["score"].copy()
    end_at_decision_limit(state, seats, spec.utility)
    rec = state[0]
    assert int(rec["status"]) == STATUS_TRUNCATED and int(rec["to_play"]) == -1
    outcome = outcome_of(state, seats, spec.utility)
    assert outcome.truncated and outcome.ranks == (1,) * seats and outcome.results == ["draw"] * seats
    assert list(rec["rewards"][:seats]) == [0.0] * seats
    assert np.array_equal(rec["score"], score)                 # the game's own score is kept


def test_a_solo_game_ended_at_the_limit_is_lost(dive):
    game = dragongym.get_game("dive")
    state, spec = fresh(game)
    end_at_decision_limit(state, 1, spec.utility)
    outcome = outcome_of(state, 1, spec.utility)
    assert outcome.truncated and outcome.results == ["loss"] and float(state[0]["rewards"][0]) == -1.0


def test_a_finished_game_is_not_ended_again():
    state, spec = fresh(GAME, num_players=2)
    end_at_decision_limit(state, 2, spec.utility)
    before = state.tobytes()
    with pytest.raises(ValueError, match="already over"):
        end_at_decision_limit(state, 2, spec.utility)
    assert state.tobytes() == before


def test_a_match_ends_its_games_at_the_limit_and_their_records_replay(race, limit_of_three, tmp_path):
    records = tmp_path / "games.jsonl"
    result = play_match("race", ["random", "random"], 4, seed=1, records=str(records), num_players=2)
    assert [(g.decisions, g.truncated, g.ranks) for g in result.games] == [(LIMIT, True, (1, 1))] * 4
    assert all(g.rewards == (0.0, 0.0) for g in result.games)
    assert result.stats[0].draws == 4
    for record in read_records(records):
        assert len(record.actions) == LIMIT and record.end["ranks"] == [1, 1]
        assert int(replay(record)[0]["status"]) == STATUS_TRUNCATED


def test_a_tournament_ends_its_games_at_the_limit(race, limit_of_three, tmp_path):
    records = tmp_path / "games.jsonl"
    result = run_tournament("race", ["random", "random"], 4, seed=2, progress=False, records=str(records),
                            num_players=2)
    assert [(g.decisions, g.truncated, g.ranks) for g in result.games] == [(LIMIT, True, (1, 1))] * 4
    assert all(int(replay(r)[0]["status"]) == STATUS_TRUNCATED for r in read_records(records))


def test_the_vector_env_truncates_a_row_at_the_limit_and_counts_its_next_episode_afresh(limit_of_three):
    venv = VecGameEnv(GAME, 4, seed=3, num_players=2)
    venv.reset()
    rng = np.random.default_rng(0)
    for step in range(1, LIMIT + 1):
        assert venv.decisions.tolist() == [step - 1] * 4
        _, _, rewards, terminated, truncated, _, info = venv.step(venv.sample_actions(rng))
    assert truncated.all() and not terminated.any()
    assert info["final_status"].tolist() == [STATUS_TRUNCATED] * 4
    assert (info["final_state"]["rank"][:, :2] == 1).all() and not rewards.any()
    assert venv.decisions.tolist() == [0] * 4 and (venv.states["status"] == STATUS_RUNNING).all()


def test_a_row_left_alone_does_not_count_and_a_snapshot_keeps_the_counts(limit_of_three):
    venv = VecGameEnv(GAME, 2, seed=4, num_players=2)
    venv.reset()
    actions = venv.sample_actions(np.random.default_rng(1)).astype(np.int64)
    actions[1] = -1
    venv.step(actions)
    assert venv.decisions.tolist() == [1, 0]
    snapshot = venv.clone()
    venv.reset()
    venv.restore(snapshot)
    assert venv.decisions.tolist() == [1, 0]
    with pytest.raises(dragongym.envs.core.game.InvalidStateError, match="decisions"):
        venv.restore(dict(snapshot, decisions=np.array([-1, 0])))
    assert venv.decisions.tolist() == [1, 0]
