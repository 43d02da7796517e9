"""The Dragons Down heuristic's missions and titles (agents/dragons_down_heuristic.py):
positions built by hand as in ``tests/dragons_down/missions_test.py``."""
import numpy as np

from dragongym.agents.dragons_down_heuristic import DragonsDownHeuristic
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.game import GAME
from tests.dragons_down.actions_test import act
from tests.dragons_down.missions_test import DONE, LOOK, TRADE, at_fence, at_the_mine, hand, kill, listed, place_of, title


def choice(S, p):
    return DragonsDownHeuristic(GAME).act_state(GAME, S, p, np.random.default_rng(0))


def test_it_completes_a_mission_it_can_with_a_trade_action():
    S, p, m = at_fence()
    k, = hand(S, p, "goblin_blight")
    place_of(S, k, p)
    kill(S, p, "goblin", 4)
    assert choice(S, p) == TRADE
    act(S, TRADE)
    if int(S[0]["phase"]) == R.PH_TRADE_WITH:
        assert choice(S, p) == R.A_MISSION + k


def test_it_claims_a_title_it_can():
    S, p, _ = at_the_mine(lineage="dwarf")
    S[0]["gold"][p] = 30
    kill(S, p, "goblin", 5)
    assert choice(S, p) == TRADE
    act(S, TRADE)
    assert int(S[0]["phase"]) == R.PH_TRADE_WITH
    assert choice(S, p) - R.A_TITLE in (title("deep_delver"), title("benefactor_of_the_mine"))


def test_it_looks_at_a_merchant_listing_missions_and_takes_the_best():
    S, p, m = at_fence()
    assert choice(S, p) == TRADE
    act(S, TRADE)
    assert choice(S, p) == LOOK
    act(S, LOOK)
    a = choice(S, p)
    assert a - R.A_MISSION in listed(S, m)
    act(S, a)
    assert choice(S, p) in {R.A_MISSION + k for k in listed(S, m)} | {DONE}


def test_past_two_missions_it_discards_the_least_done():
    S, p, m = at_fence()
    ks = hand(S, p, "goblin_blight", "claim_jumper", "grave_robber")
    kill(S, p, "goblin", 4)                                       # Goblin Blight done
    act(S, R.A_DO + R.DO_PASS)
    assert int(S[0]["phase"]) == R.PH_MISSION_LIMIT
    assert choice(S, p) in (R.A_MISSION + ks[1], R.A_MISSION + ks[2])


def test_with_player_vs_player_it_neither_blocks_nor_challenges_a_hero():
    """Player vs. Player (L1172): the bot passes a Hero Block and a challenge,
    and its actions never block a hero of its clearing."""
    from tests.dragons_down.pvp_test import duel, two_on_deepdelve
    from tests.dragons_down.actions_test import PLAINS_1, PLAINS_3
    from tests.dragons_down.setup_test import legal
    S, p, q = two_on_deepdelve()
    S[0]["hero_clearing"][q] = PLAINS_1
    assert R.A_SEAT + q in legal(S)                  # the active hero could block the other (L1180)
    assert not R.A_SEAT <= choice(S, p) < R.A_SEAT + R.MAX_HEROES
    S[0]["hero_clearing"][q] = PLAINS_3
    act(S, R.A_CLEARING + PLAINS_3)
    assert int(S[0]["phase"]) == R.PH_HERO_BLOCK
    assert choice(S, q) == R.A_DO + R.DO_PASS
    S = duel()
    R.advance(S, 0)
    assert int(S[0]["phase"]) == R.PH_CHALLENGE
    assert choice(S, int(S[0]["to_play"])) == R.A_DO + R.DO_PASS
