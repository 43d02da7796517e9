"""Every segment of a Dragonhunt turn is finite: players who pick at random among
everything but 'pass / done' (``A_DONE``) still bring the game to its end
before the decision limit. A free act that could be repeated without end (as
Dragon Pass's Dragontooth Runners could be summoned until its game version 11)
would hold a segment open here."""
import numpy as np
import pytest

from dragongym.envs.dragonhunt.game import GAME
from dragongym.envs.dragonhunt.rules import base as B
from tests.core.stalling import play_stalling


@pytest.mark.parametrize("num_players", (2, 3, 4))
def test_players_who_never_pass_while_they_may_do_anything_else_still_end_the_game(num_players):
    config = GAME.make_config(num_players=num_players, max_hands=4)
    decisions, _ = play_stalling(GAME, config, 4000 + num_players, np.random.default_rng(17), [B.A_DONE])
    assert decisions > 100             # won, or at the last hand (max_hands)
