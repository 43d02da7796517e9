"""Dragonhunt 9-9.2: the card segment, the round order and its roll-offs, the
Being Control Markers and the order of the segments of a player's round.

Every test arranges a position with ``Scenario``, fixes the dice with
``load_dice`` and checks what the rules core does against the rulebook.
"""
import numpy as np

from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import KNIGHT
from dragongym.envs.dragonhunt.game import GAME
from tests.dragonhunt.scenario import Scenario, cell


def order(sc):
    n = int(sc.s["num_players"])
    return [int(x) for x in sc.s["round_order"][:n]]


def cards_game(n, seed=0):
    sc = Scenario(num_players=n, seed=seed)
    sc.no_beings()
    sc.start_card_segment()
    return sc


def draws(sc):
    """Random draws taken from the game's own stream (loaded dice not counted)."""
    return int(sc.s["rng_counter"])


# ------------------------------------------------------------------ 9.1, 9.11
def test_9_11_each_player_lays_one_card_from_his_hand():
    """9.11: each player selects ONE card from his hand and places it face down."""
    sc = cards_game(3)
    for seat in range(3):
        assert sc.phase == R.PH_CARD and sc.to_play == seat
        assert sc.legal() == [f"play card {v}" for v in (6, 7, 8, 9, 10, 12)]
        sc.act("play card 9" if seat != 1 else "play card 7")
    assert sc.s["stage"] == R.ST_PLAYER
    assert [int(sc.s["card_played"][p]) for p in range(3)] == [3, 1, 3]


def test_9_11_cards_are_laid_face_down():
    """9.11: no other player can see the number of the card laid until all are laid."""
    obs = []
    for card in (7, 12):
        sc = cards_game(2)
        sc.act(f"play card {card}")
        obs.append(GAME.observation_of(sc.S, 1))
    assert np.array_equal(obs[0], obs[1])


def test_9_1_played_cards_are_expended_until_the_next_hand():
    """9.1: as the cards are used they are expended; they remain out of play until
    the start of the next HAND (12.1)."""
    sc = cards_game(2)
    sc.play_cards(9, 12)
    assert int(sc.s["cards_in_hand"][0]) & (1 << 3) == 0
    assert int(sc.s["cards_in_hand"][1]) & (1 << 5) == 0
    sc.start_card_segment()
    assert "play card 9" not in sc.legal()
    assert "play card 12" in sc.legal()
    sc.act("play card 12")
    assert "play card 12" not in sc.legal() and "play card 9" in sc.legal()


# ------------------------------------------------------------------ 9.12-9.125
def test_9_12_single_lowest_card_wins_the_first_turn():
    """9.12: the player who plays the SINGLE LOWEST card wins the first turn."""
    sc = cards_game(3)
    before = draws(sc)
    sc.play_cards(10, 7, 12)
    assert order(sc) == [1, 0, 2]
    assert draws(sc) == before and sc.dice_left() == 0      # nothing to roll off


def test_9_121_single_lowest_is_the_lowest_untied_card():
    """9.121: the single lowest card is the LOWEST card played that is NOT TIED."""
    sc = cards_game(3)
    sc.load_dice(1, 2)
    sc.play_cards(7, 7, 9)
    assert order(sc)[0] == 2


def test_9_122_untied_cards_follow_low_to_high():
    """9.122: after the first player, all other untied cards are next, LOW to HIGH."""
    sc = cards_game(5)
    sc.load_dice(4, 1)
    sc.play_cards(12, 6, 6, 10, 8)
    assert order(sc)[:3] == [4, 3, 0]
    assert order(sc)[3:] == [2, 1]                         # the tie comes last


def test_example_9_123_sevens_and_tens_rolled_off():
    """9.123 EXAMPLE: cards 7, 9, 12, 10, 10, 7 in a six player game. The NINE is the
    single lowest card and takes the first turn, the TWELVE second. The SEVENS are the
    LOW TIE: their players each roll one die, the lowest is THIRD, the other FOURTH.
    The TENS are the HIGH TIE: the lowest roll is FIFTH, the high number SIXTH."""
    sc = cards_game(6)
    sc.load_dice(5, 2,        # the sevens (seats 0 and 5) roll first: 5 and 2
                 3, 6)        # then the tens (seats 3 and 4): 3 and 6
    sc.play_cards(7, 9, 12, 10, 10, 7)
    assert order(sc) == [1, 2, 5, 0, 3, 4]
    assert sc.dice_left() == 0


def test_example_9_123_ties_on_the_die_are_rolled_off_immediately():
    """9.123 EXAMPLE: "Any ties on the die roll are rolled off immediately" -- the
    sevens roll over before the tens roll at all."""
    sc = cards_game(6)
    sc.load_dice(4, 4,        # the sevens tie on the die ...
                 6, 1,        # ... and roll off at once: seat 5 (1) before seat 0 (6)
                 2, 5)        # then the tens: seat 3 (2) before seat 4 (5)
    sc.play_cards(7, 9, 12, 10, 10, 7)
    assert order(sc) == [1, 2, 5, 0, 3, 4]
    assert sc.dice_left() == 0


def test_9_124_no_single_lowest_card_the_lowest_tie_rolls_for_first():
    """9.124: with no single lowest card, the players with the LOWEST TIE roll off
    and one of them will be the first player."""
    sc = cards_game(4)
    sc.load_dice(5, 2,        # the eights (seats 0, 2)
                 1, 6)        # the twelves (seats 1, 3)
    sc.play_cards(8, 12, 8, 12)
    assert order(sc) == [2, 0, 1, 3]


def test_example_9_125_four_tied_at_nine():
    """9.125 EXAMPLE: four players are tied at NINE. Their rolls are 3, 5, 3, 6. The
    players who rolled the threes roll over and follow the player who rolled the 5 and
    the player who rolled the 6: UNTIED before TIED, LOW before HIGH at all times."""
    sc = cards_game(4)
    sc.load_dice(3, 5, 3, 6,  # seats 0..3
                 4, 2)        # the threes (seats 0 and 2) roll over
    sc.play_cards(9, 9, 9, 9)
    assert order(sc) == [1, 3, 2, 0]
    assert sc.dice_left() == 0


def test_9_125_each_tied_player_rolls_for_as_many_places_as_are_tied():
    """9.125: in all ties each player rolls; the places available equal the number of
    people tied; more than two tied are adjudicated as for the cards."""
    sc = cards_game(3)
    sc.load_dice(2, 2, 2,     # all three tie again
                 5, 1, 5,     # seat 1 untied low; seats 0 and 2 tie at 5
                 6, 3)        # seat 0: 6, seat 2: 3
    sc.play_cards(10, 10, 10)
    assert order(sc) == [1, 2, 0]
    assert sc.dice_left() == 0


def test_9_12_round_order_is_a_permutation_for_random_dice():
    """9.12-9.125: whatever the dice, every seat gets exactly one place, untied cards
    first, low to high, and tied groups after them, low tie first."""
    for seed in range(30):
        sc = cards_game(6, seed=seed)
        sc.play_cards(7, 9, 12, 10, 10, 7)
        o = order(sc)
        assert sorted(o) == list(range(6))
        assert o[:2] == [1, 2] and set(o[2:4]) == {0, 5} and set(o[4:]) == {3, 4}


# ------------------------------------------------------------------ 9.13
def test_9_13_first_and_last_in_the_round_order_take_the_being_markers():
    """9.13: the player with the FIRST TURN takes the BEING CHOICE MARKER, the player
    with the LAST TURN the SECOND BEING MARKER."""
    sc = cards_game(3)
    sc.s["choice_player"] = 0
    sc.s["second_player"] = 0
    sc.play_cards(12, 8, 10)
    assert order(sc) == [1, 2, 0]
    assert int(sc.s["choice_player"]) == 1
    assert int(sc.s["second_player"]) == 0


# ------------------------------------------------------------------ 9.2
def test_9_2_each_player_moves_fights_and_attacks_the_dragon_before_the_next():
    """9.2: play passes to the next player in the round order only when the player
    has completed his MOVEMENT, COMBAT and DRAGON ATTACK segments, in that order."""
    sc = cards_game(2)
    sc.put(0, KNIGHT, "0606")          # next to the Lair of Brimstone
    sc.put(1, KNIGHT, "0203")
    sc.play_cards(9, 7)                # seat 1 first
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 1)
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_COMBAT_SELECT, 1)
    sc.act("done")                     # no unit next to Brimstone: round over (9.8)
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 0)
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_COMBAT_SELECT, 0)
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_DRAGON_FORCE, 0)
    sc.act("done")
    assert sc.s["stage"] != R.ST_PLAYER          # the Player's round is over


def test_9_2_a_segment_once_left_is_forfeited():
    """9.2: a segment skipped is forfeited: ending movement with points left gives
    up the move; the combat segment offers no movement."""
    sc = cards_game(2)
    k = sc.put(0, KNIGHT, "0203")
    sc.play_cards(9, 12)
    assert sc.to_play == 0 and "select unit at 0203" in sc.legal()
    sc.act("done")
    assert sc.phase == R.PH_COMBAT_SELECT
    assert sc.legal() == ["done"]
    sc.act("done")
    assert sc.loc(k) == cell("0203")
    assert sc.to_play == 1
