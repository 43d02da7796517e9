"""What the observation of one seat shows of hand-arranged positions: the
foes in its clearing, a Merchant's stock once looked at, the secret Hero
Tactics, the rotation of seats. (Random play's hidden-information checks are
in game_test.py.)"""
import numpy as np
import pytest

from dragongym.envs.dragons_down import observe as O
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import CW_MERCHANT, HS_ACTIVE, NUM_CARDS
from dragongym.envs.dragons_down.game import GAME


def first_turn(seed=3, **options):
    """A game at the first action of its first turn (Explore the Realm: the
    heroes stand on the civilization tile, its Merchants stocked)."""
    config = GAME.make_config(**{"num_players": 2, "sandbox": "explore_the_realm", **options})
    states = GAME.new_states(1)
    GAME.reset(states, np.array([seed], dtype=np.uint64), config)
    rng = np.random.default_rng(seed)
    errors = np.zeros(1, dtype=np.int8)
    for _ in range(500):
        rec = states[0]
        if int(rec["phase"]) == R.PH_ACTION and all(int(rec["hero_state"][p]) == HS_ACTIVE for p in range(int(rec["num_players"]))):
            return states
        GAME.step(states, np.array([rng.choice(np.flatnonzero(GAME.mask_of(states)))], dtype=np.int32), errors)
    raise AssertionError("the heroes never both stood on the map")


def block(obs, name):
    off, shape = O.LAYOUT[name]
    return obs[off:off + int(np.prod(shape))].reshape(shape)


def test_the_foes_block_lists_the_chips_in_the_observers_clearing():
    states = first_turn()
    rec = states[0]
    here = int(rec["hero_clearing"][0])
    rec["mon_clearing"][5] = here
    foes = block(GAME.observation_of(states, 0), "foes")
    monsters = foes[(foes[:, O.F_VALID] == 1) & (foes[:, O.F_NATIVE] == 0)]
    assert len(monsters) == 1
    assert monsters[0, O.F_KIND + int(O.FOE_KIND[5])] == 1
    assert monsters[0, O.F_HEALTH] == pytest.approx(min(O.FOE_STATS[5, 0] / 5.0, O.OBS_HIGH))
    natives = foes[(foes[:, O.F_VALID] == 1) & (foes[:, O.F_NATIVE] == 1)]
    assert len(natives) == sum(int(c) == here for c in rec["native_clearing"])
    realm = block(GAME.observation_of(states, 0), "realm")
    assert realm[here, O.R_MONSTERS] == 0.25


@pytest.mark.skipif(not O.HAS_TRADE, reason="Loot and Trade has not landed")
def test_a_merchants_stock_is_shown_only_to_the_seat_that_looked_at_it():
    states = first_turn()
    rec = states[0]
    stocked = [int(rec["card_owner"][c]) for c in range(NUM_CARDS) if int(rec["card_where"][c]) == CW_MERCHANT]
    assert stocked, "no Merchant was stocked"
    m = stocked[0]
    before = [GAME.observation_of(states, seat) for seat in range(2)]
    rec["merchant_looked"][0] = 1 << m
    cards = block(GAME.observation_of(states, 0), "cards")
    rows = cards[cards[:, O.C_MERCHANT + m] == 1]
    assert len(rows) == stocked.count(m)
    assert np.array_equal(GAME.observation_of(states, 1), before[1])
    assert block(GAME.observation_of(states, 0), "merchants")[m, O.V_LOOKED] == 1


@pytest.mark.skipif(not O.HAS_COMBAT, reason="combat has not landed")
def test_hero_tactics_are_secret_until_every_hero_has_placed():
    states = first_turn()
    rec = states[0]
    rec["combat_step"] = O.CS_TACTICS
    hidden = [GAME.observation_of(states, seat) for seat in range(2)]
    rec["placed"][1] = (1, 2, 0)
    rec["placed_cross"][1] = (0, 1, 0)                         # a Might Cube in his attack box (L1308)
    assert np.array_equal(GAME.observation_of(states, 0), hidden[0])
    mine = block(GAME.observation_of(states, 1), "heroes")[0]
    assert mine[O.H_PLACED + 1] == pytest.approx(0.4) and mine[O.H_CROSSED + 1] == pytest.approx(0.2)
    rec["combat_step"] = O.CS_TACTICS + 1                       # Monster Tactics: revealed (L724)
    theirs = block(GAME.observation_of(states, 0), "heroes")[1]
    assert theirs[O.H_PLACED] == pytest.approx(0.2) and theirs[O.H_PLACED + 1] == pytest.approx(0.4)
    assert theirs[O.H_CROSSED + 1] == pytest.approx(0.2)


def test_seats_are_rotated_so_the_observer_is_row_0():
    states = first_turn(num_players=3)
    rec = states[0]
    for me in range(3):
        heroes = block(GAME.observation_of(states, me), "heroes")
        for seat in range(3):
            row = heroes[(seat - me) % 3]
            assert row[O.H_CLASS + int(rec["hero_class"][seat])] == 1
            assert row[O.H_GOLD] == pytest.approx(min(int(rec["gold"][seat]) / 50.0, O.OBS_HIGH))
        realm = block(GAME.observation_of(states, me), "realm")
        assert realm[int(rec["hero_clearing"][me]), O.R_HEROES] == 1
