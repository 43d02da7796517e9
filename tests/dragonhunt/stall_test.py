"""Every segment of a Dragonhunt turn is finite: players who pick at random among
everything but 'pass / done' (``A_DONE``) still bring the game to its end
before the decision limit. A free act that could be repeated without end (as
Dragon Pass's Dragontooth Runners could be summoned until its game version 11)
would hold a segment open here."""
import numpy as np
import pytest

from dragongym.envs.core.outcome import ranking_problem
from dragongym.envs.dragonhunt.game import GAME
from dragongym.envs.dragonhunt.rules import base as B


@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_players_who_never_pass_while_they_may_do_anything_else_still_end_the_game(num_players):
    config = GAME.make_config(num_players=num_players, max_hands=4)
    limit = GAME.spec_for(config).decision_limit
    rng = np.random.default_rng(17)
    state = GAME.new_states(1)
    act, err = np.zeros(1, np.int64), np.zeros(1, np.int8)
    GAME.reset(state, np.array([4000 + num_players], dtype=np.uint64), config)
    decisions = 0
    while int(state[0]["status"]) == 0:
        legal = np.flatnonzero(np.asarray(GAME.mask_of(state)).reshape(-1))
        other = legal[legal != B.A_DONE]
        act[0] = rng.choice(other) if len(other) else B.A_DONE
        assert decisions < limit, f"still running after {limit} decisions " \
                                  f"({GAME.action_to_string(state, int(act[0]))})"
        GAME.step(state, act, err)
        assert err[0] == 0
        decisions += 1
    assert decisions > 100 and int(state[0]["status"]) in (1, 2)     # won, or at the last hand (max_hands)
    assert not ranking_problem([int(r) for r in state[0]["rank"][:num_players]])
