"""Rulebook section 8, the Fantastic Being Round, and 9.51, 9.511, 9.616.

Every test builds a position with the Scenario helper, fixes the dice with
``load_dice`` / ``load_rolls`` and plays the round by action strings. The
second being's straight-line move is ``rules.random_being_move``; the first
player's being is ``rules.being_round_first`` with the being branches of
``fill_mask`` / ``do_action``.

Board facts used below (``envs/dragonhunt/data/board.txt``): seat 0 plays
Elderwood (castle 0600/0700, village 0800/0801, cottage 0501), seat 1
Ironcrag; column 10 runs 1002 open, 1003 open, 1004 open, 1005 forest, 1006
forest, 1007 open, 1008 mountain, 1009 open, 1010 swamp, 1011 open, 1012 open.
"""
import pytest

from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import (
    BANISHER, BERSERKER, DEMON, DISPERSER, DRAGON_CHARMER, EAGLE, PARALYZER, REVIVOR,
    TELEPORTER, TROLL, KNIGHT, MAN_AT_ARMS, HERO,
)
from dragongym.envs.dragonhunt.state import LOC_DEAD, LOC_OUT, F_WOUNDED, F_HARRIED
from tests.dragonhunt.beings_common import (
    LAIR, arena, being_loc, in_pile, pile_index, use_being, first_being_stays, choose_die,
    legal_cells, mask, name, towards,
)
from tests.dragonhunt.scenario import cell


def second_move(sc, slot, direction):
    """Let the first player use the being of the other slot in place, then move
    the being of ``slot`` at random in ``direction`` (its dice: ``direction``
    and another face, the last player choosing ``direction``)."""
    other = 1 if direction != 1 else 2
    sc.load_dice(direction, other)
    first_being_stays(sc, being_loc(sc, 1 - slot))
    assert sc.phase == R.PH_SECOND_DIE and sc.to_play == 1
    choose_die(sc, direction)
    assert sc.phase == R.PH_CARD          # the Player's round begins: nothing else to decide


# ------------------------------------------------------------------ 8, 8.1, 8.2
def test_8_being_round_comes_between_brimstones_round_and_the_players_round():
    """8: "During this round the players will move and utilize the Fantastic
    Beings"; 5: Brimstone's round, then the Fantastic Being round, then the
    Player's round."""
    sc = arena((0, PARALYZER, "Cave"), (1, REVIVOR, "Hollow Tree"))
    R.enter_brimstone_round(sc.S, 0)
    sc.s["dragon_moves_made"] = 4                     # all his moves made (6.11: two each)
    R.advance(sc.S, 0)
    assert sc.s["stage"] == R.ST_BEING_FIRST and sc.phase == R.PH_BEING_SELECT
    sc.load_dice(4, 4)                                # the second being: doubles, no choice
    use_being(sc, "Cave")
    assert sc.s["stage"] == R.ST_CARDS and sc.phase == R.PH_CARD
    assert being_loc(sc, 1) == towards("Hollow Tree", 4, 4)


def test_8_1_the_choice_marker_holder_selects_one_being_in_play():
    """8.1: the player with the Being Choice Marker may SELECT, MOVE and USE one
    of the Fantastic Beings in play."""
    sc = arena((0, DEMON, "1003"), (1, TROLL, "Hollow Tree"))
    sc.start_being_round(choice_player=1, second_player=0)
    assert sc.phase == R.PH_BEING_SELECT and sc.to_play == 1
    assert sc.legal() == ["use being at 1003", "use being at Hollow Tree"]
    sc.act("use being at 1003")
    assert sc.phase == R.PH_BEING_MOVE and sc.to_play == 1
    cells = legal_cells(sc)
    assert "1003" in cells and "1009" in cells        # stay, or fly six spaces (15.11)
    sc.load_dice(2, 5)
    sc.act("being to 1009")
    assert being_loc(sc, 0) == "1009"
    assert sc.phase == R.PH_SECOND_DIE and sc.to_play == 0


def test_8_1_first_being_round_of_the_game_belongs_to_the_setup_first_player():
    """8.1: for the first Fantastic Being Round the marker goes by the SET-UP
    (3.51: the first player; 3.52: the one who placed last rolls for the other)."""
    sc = arena((0, PARALYZER, "Cave"), (1, REVIVOR, "Hollow Tree"))
    sc.s["setup_first"] = 1
    sc.s["placed_last"] = 0
    R.finish_setup(sc.S, 0)
    sc.load_dice(1, 1, 1, 1, 1, 1, 1, 1)               # Brimstone: four doubles, one space north each
    R.advance(sc.S, 0)
    assert sc.s["stage"] == R.ST_BEING_FIRST
    assert sc.phase == R.PH_BEING_SELECT and sc.to_play == 1
    sc.load_dice(2, 5)
    use_being(sc, "Cave")
    assert sc.phase == R.PH_SECOND_DIE and sc.to_play == 0


def test_8_2_the_other_being_moves_after_the_first_players_being():
    """8.2: when the First Player has moved and used his being, the other being
    is moved."""
    sc = arena((0, REVIVOR, "1002"), (1, PARALYZER, "Hollow Tree"))
    sc.load_dice(6, 4)
    sc.start_being_round(0, 1)
    use_being(sc, "1002", to="1004")
    assert sc.phase == R.PH_SECOND_DIE and sc.to_play == 1
    assert being_loc(sc, 1) == "Hollow Tree"          # not moved before the choice
    choose_die(sc, 4)
    assert being_loc(sc, 0) == "1004"
    assert being_loc(sc, 1) == "1110"                 # 8M south: 2+1+3+1, the forest 1111 too dear


def test_8_21_the_last_player_rolls_two_dice_and_chooses_one():
    """8.21: the LAST PLAYER rolls two dice and chooses one of them as the
    second being's direction."""
    sc = arena((0, PARALYZER, "Cave"), (1, REVIVOR, "1008"))
    sc.load_dice(1, 4)
    first_being_stays(sc, "Cave", choice_player=0, second_player=1)
    assert sc.to_play == 1
    assert sc.legal() == ["die 1 (N)", "die 4 (S)"]
    choose_die(sc, 4)
    assert being_loc(sc, 1) == "1012"                  # 4 spaces south (4F)


def test_8_21_doubles_leave_no_choice():
    """8.21: with both dice alike there is one direction; the being moves at once."""
    sc = arena((0, PARALYZER, "Cave"), (1, REVIVOR, "1008"))
    sc.load_dice(1, 1)
    first_being_stays(sc, "Cave")
    assert sc.phase == R.PH_CARD
    assert being_loc(sc, 1) == "1004"


def test_8_211_the_last_player_controls_only_the_direction():
    """8.211: the direction is the last player's only control; he may not use
    the being's power to his benefit: the Banisher's beaten foe lands on a
    random empty space, not one he picks (15.611 is for the first player)."""
    sc = arena((0, PARALYZER, "Cave"), (1, BANISHER, "1002"))
    victim = sc.put(0, MAN_AT_ARMS, "1007")           # where the Banisher (5F) would land
    sc.load_dice(4, 1)                                # direction
    sc.load_dice(6, 1)                                # Banisher 5+6 against 1+0+1
    sc.load_rolls(0)                                  # the random empty space: the first one
    first_being_stays(sc, "Cave")
    choose_die(sc, 4)
    assert sc.phase == R.PH_CARD                      # no banishment decision was posed
    assert name(sc.loc(victim)) == "0000"
    assert being_loc(sc, 1) == "1007"                 # and took the space it emptied (8.3434)
    assert sc.dice_left() == 0


def test_8_22_the_second_being_moves_its_full_movement():
    """8.22: the last player moves it up to its full movement ability."""
    sc = arena((0, PARALYZER, "Cave"), (1, TELEPORTER, "1002"))
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == "1008"                  # 6F: six spaces south


def test_8_23_the_second_being_keeps_a_straight_line():
    """8.23: it moves in a straight line in its direction and will not deviate,
    even where the ground beside is cheaper: the Troll (6M) pays 1+1+2+2 down
    column 10 and stops in the forest at 1006."""
    sc = arena((0, PARALYZER, "Cave"), (1, TROLL, "1002"))
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == "1006"


# ------------------------------------------------------------------ 8.3 stopping conditions
def test_example_8_31_the_demon_moving_south_stops_after_six_spaces():
    """8.31 EXAMPLE: "If the DEMON is moving to the south, it will stop after
    moving six spaces, its movement ability expended." """
    sc = arena((0, DEMON, "0301"), (1, PARALYZER, "Hollow Tree"))
    second_move(sc, 0, 4)                          # S
    assert being_loc(sc, 0) == "0307"              # 0302 .. 0307: six spaces
    assert towards("0307", 4) == "0308"            # the board went on: its movement ran out


def test_8_31_a_ground_being_stops_when_the_next_space_costs_more_than_it_has_left():
    """8.31, 15.12: the Berserker (3M) pays 1+1 for 1003, 1004; the forest 1005
    costs 2 and it has 1 left: its movement is expended there."""
    sc = arena((0, PARALYZER, "Cave"), (1, BERSERKER, "1002"))
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == "1004"


def test_example_8_321_the_troll_moving_southeast_is_blocked_by_a_village():
    """8.321 EXAMPLE: "The Troll, by his roll, is required to move SOUTHEAST.
    Four spaces into its move it is blocked by a village space. He immediately
    returns to his lair, ending his move."

    On the substitute board no south-east line of four spaces the Troll (6M)
    can pay for ends at a village (the only four-space approach, to the
    Ambervale Village, costs 7), so the Troll here is three spaces into its
    move (1009 open, 1109 mountain, 1210 open: 5 points) when the Ambervale
    Village (1310) blocks it."""
    sc = arena((0, PARALYZER, "Cave"), (1, TROLL, "0908"))
    assert towards("0908", 3, 4) == "Ambervale Village"
    second_move(sc, 1, 3)                           # SE
    assert being_loc(sc, 1) == "Hollow Tree"


def test_8_32_a_cottage_or_castle_blocks_like_a_village():
    """8.32: a CASTLE, VILLAGE or COTTAGE space blocks the move; 8.321 the
    being goes home. The Paralyzer (8M) from 0603 north: 0602 mountain (3),
    0601 open (1), then the Elderwood Castle."""
    sc = arena((0, PARALYZER, "0603"), (1, REVIVOR, "Hollow Tree"))
    assert towards("0603", 1, 3) == "Elderwood Castle"
    second_move(sc, 0, 1)
    assert being_loc(sc, 0) == "Cave"


def test_8_322_a_flying_being_is_blocked_by_a_structure_too():
    """8.322: flying and ground beings alike return to the lair when a structure
    blocks the move: the Demon (6F) flying north from 0703 meets the Elderwood
    Castle at its third space."""
    sc = arena((0, DEMON, "0703"), (1, PARALYZER, "Hollow Tree"))
    assert towards("0703", 1, 3) == "Elderwood Castle"
    second_move(sc, 0, 1)
    assert being_loc(sc, 0) == "Cave"


def test_8_323_a_being_may_end_next_to_a_structure_when_its_movement_runs_out():
    """8.323: it may end its move adjacent to a structure when its movement is
    fully expended there: the Revivor (4F) from 0705 north lands on 0701, next
    to the Elderwood Castle."""
    sc = arena((0, REVIVOR, "0705"), (1, PARALYZER, "Hollow Tree"))
    second_move(sc, 0, 1)
    assert being_loc(sc, 0) == "0701"
    assert D.SPACE_ADJ[cell("0701"), cell("Elderwood Castle")]


def test_8_323_a_being_may_end_next_to_a_structure_by_victory_in_combat():
    """8.323, 8.3434: the Demon (6F, flying over Brimstone in his lair) would land
    on 0701; the knight there blocks it; the Demon wins and takes 0701, next to
    the Elderwood Castle."""
    sc = arena((0, DEMON, "0707"), (1, PARALYZER, "Hollow Tree"))
    knight = sc.put(1, KNIGHT, "0701")
    sc.load_dice(1, 2)                                # direction N
    sc.load_dice(6, 1)                                # Demon 3+6 = 9 against knight 2+1(swamp)+1 = 4
    first_being_stays(sc, "Hollow Tree")
    choose_die(sc, 1)
    assert sc.loc(knight) == LOC_OUT                  # killed by the Demon: out for good (15.63)
    assert being_loc(sc, 0) == "0701"


def test_8_33_a_being_that_leaves_the_board_goes_to_the_pile():
    """8.33: its counter goes face down with the unused beings; 8.331 a being
    drawn from the pile takes its lair."""
    sc = arena((0, DEMON, "0302"), (1, PARALYZER, "Hollow Tree"))
    sc.load_dice(1, 2)
    sc.load_rolls(pile_index(sc, EAGLE, joining=[DEMON]))
    first_being_stays(sc, "Hollow Tree")
    choose_die(sc, 1)
    assert in_pile(sc, DEMON)
    assert int(sc.s["slot_being"][0]) == EAGLE and being_loc(sc, 0) == "Cave"
    assert not in_pile(sc, EAGLE)


def test_example_8_331_the_paralyzer_moves_off_the_board():
    """8.331 EXAMPLE: "The Paralyzer moves off the board. She is placed in the
    pile, face down, and mixed in. The player who moved the Paralyzer now
    selects a Fantastic Being counter at random and places it in her lair, face
    up." (8M from 0402 north: 0401 forest, 0400 open, then off the board.)"""
    sc = arena((0, DEMON, "Cave"), (1, PARALYZER, "0402"))
    # The pile then holds every being but the Demon; the Revivor is the 7th of
    # them in id order (Banisher, Berserker, Disperser, Charmer, Eagle, Paralyzer, Revivor).
    sc.load_dice(1, 3)
    sc.load_rolls(6)
    first_being_stays(sc, "Cave")
    choose_die(sc, 1)
    assert in_pile(sc, PARALYZER)
    assert int(sc.s["slot_being"][1]) == REVIVOR
    assert being_loc(sc, 1) == "Hollow Tree"          # her lair
    assert sc.dice_left() == 0


def test_8_331_the_being_drawn_may_be_the_one_that_just_left():
    """8.331 (and 15.4): the pile is mixed with the being in it; the draw may
    bring the same being back, into its lair."""
    sc = arena((0, DEMON, "Cave"), (1, PARALYZER, "0402"))
    sc.load_dice(1, 3)
    sc.load_rolls(5)                                  # Paralyzer: 6th of the pile
    first_being_stays(sc, "Cave")
    choose_die(sc, 1)
    assert int(sc.s["slot_being"][1]) == PARALYZER
    assert being_loc(sc, 1) == "Hollow Tree"
    assert not in_pile(sc, PARALYZER)


def test_8_332_the_last_player_may_choose_the_direction_off_the_board():
    """8.332: the player moving the being may choose a direction that takes it
    off the board."""
    sc = arena((0, PARALYZER, "Cave"), (1, TELEPORTER, "1002"))
    sc.load_dice(1, 4)
    sc.load_rolls(0)
    first_being_stays(sc, "Cave")
    assert "die 1 (N)" in sc.legal() and "die 4 (S)" in sc.legal()
    choose_die(sc, 1)
    assert in_pile(sc, TELEPORTER)
    assert int(sc.s["slot_being"][1]) == BANISHER      # first in the pile: raw draw 0


def test_8_332_the_first_player_may_move_his_being_off_the_board():
    """8.332: "The player moving the Beings may choose a direction, or move,
    that will take the Being off the board if ... its movement is sufficient":
    the first player's move (DONE in the move decision) sends the Demon (6F,
    two spaces from the north edge) to the pile and a new being to the Cave;
    then the other being moves as usual."""
    sc = arena((0, DEMON, "0302"), (1, PARALYZER, "Hollow Tree"))
    sc.start_being_round(0, 1)
    sc.act("use being at 0302")
    assert mask(sc)[R.A_DONE] == 1
    sc.load_rolls(pile_index(sc, TROLL, joining=[DEMON]))
    sc.load_dice(2, 5)
    sc.act("being leaves the board")
    assert in_pile(sc, DEMON)
    assert int(sc.s["slot_being"][0]) == TROLL and being_loc(sc, 0) == "Cave"
    assert sc.phase == R.PH_SECOND_DIE and sc.to_play == 1
    choose_die(sc, 5)
    assert being_loc(sc, 1) != "Hollow Tree"          # the Paralyzer moved after him


def test_8_332_no_move_off_the_board_without_the_movement_for_it():
    """8.332: only "if ... its movement is sufficient to leave the board": the
    Revivor (4F) at 0707 is five or more spaces from every edge."""
    sc = arena((0, REVIVOR, "0707"), (1, PARALYZER, "Hollow Tree"))
    sc.start_being_round(0, 1)
    sc.act("use being at 0707")
    assert mask(sc)[R.A_DONE] == 0


# ------------------------------------------------------------------ 8.34 blocking counters
def test_8_34_a_counter_in_the_way_blocks_a_ground_being():
    """8.34, 8.342, 8.343: the Dragon Charmer (8M) moving south stops directly
    before the unit in its path."""
    sc = arena((0, PARALYZER, "Cave"), (1, DRAGON_CHARMER, "1002"))
    unit = sc.put(0, MAN_AT_ARMS, "1005")
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == "1004"
    assert sc.loc(unit) == cell("1005")


def test_8_341_a_flying_being_ignores_the_units_it_passes_over():
    """8.341: a flying being is blocked only by a counter on the space it would
    land in; the Revivor (4F) flies over the unit at 1004 and lands on 1006."""
    sc = arena((0, PARALYZER, "Cave"), (1, REVIVOR, "1002"))
    unit = sc.put(0, KNIGHT, "1004")
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == "1006"
    assert sc.loc(unit) == cell("1004")


def test_8_341_a_flying_being_stops_short_of_a_counter_on_its_landing_space():
    """8.341, 8.343: a unit on the landing space blocks the Revivor; it lands on
    the space before it along its path."""
    sc = arena((0, PARALYZER, "Cave"), (1, REVIVOR, "1002"))
    sc.put(0, KNIGHT, "1006")
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == "1005"


@pytest.mark.parametrize("k, flies", [
    (BANISHER, True), (BERSERKER, False), (DEMON, True), (DISPERSER, True),
    (DRAGON_CHARMER, False), (EAGLE, True), (PARALYZER, False), (REVIVOR, True),
    (TELEPORTER, True), (TROLL, False)])
def test_8_3411_8_3421_flying_and_ground_beings_by_their_rating(k, flies):
    """8.3411: F-rated beings fly; 8.3421: M-rated beings move on the ground
    (ratings of 15.61-15.601: 5F, 3M/3M, 6F, 7F, 8M, 8F, 8M, 4F, 6F, 6M)."""
    assert bool(D.BEING_FLIES[k]) is flies
    assert int(D.BEING_MOVE[k]) == {BANISHER: 5, BERSERKER: 3, DEMON: 6, DISPERSER: 7,
                                     DRAGON_CHARMER: 8, EAGLE: 8, PARALYZER: 8, REVIVOR: 4,
                                     TELEPORTER: 6, TROLL: 6}[k]


def test_8_342_a_ground_being_is_blocked_by_any_counter_within_its_range():
    """8.342: a ground being "will ignore no unit" in its direction within its
    range: the Troll (6M) cannot fly over the knight at 1003 as the Revivor
    did; it stops where it stands and attacks (8.3431)."""
    sc = arena((0, PARALYZER, "Cave"), (1, TROLL, "1002"))
    knight = sc.put(0, KNIGHT, "1003")
    sc.load_dice(4, 1)
    sc.load_dice(1, 6)                                # Troll 5+1 = 6 against 2+0+6 = 8: the Troll dies
    sc.load_rolls(0)                                  # a new being for the Hollow Tree
    first_being_stays(sc, "Cave")
    choose_die(sc, 4)
    assert sc.loc(knight) == cell("1003")
    assert in_pile(sc, TROLL)


def test_8_342_a_counter_beyond_the_ground_beings_range_does_not_block_it():
    """8.342 "within its range of movement": the Berserker (3M) has 1 point
    left at 1004 and cannot pay for the forest 1005, so the unit there is out
    of its range: no block, no attack (8.31 ends the move)."""
    sc = arena((0, PARALYZER, "Cave"), (1, BERSERKER, "1002"))
    unit = sc.put(0, MAN_AT_ARMS, "1005")
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == "1004"
    assert sc.loc(unit) == cell("1005")
    assert sc.dice_left() == 0                        # no combat roll


@pytest.mark.parametrize("k, start, unit_at, stop_at, lost_to", [
    (DEMON, "1002", "1008", "1007", LOC_OUT),         # 6F lands on 1008: blocked
    (BERSERKER, "1002", "1004", "1003", LOC_DEAD),    # 3M walks into it
    (TROLL, "1002", "1004", "1003", LOC_DEAD),        # 6M
])
def test_8_3431_the_killer_beings_attack_the_blocking_counter(k, start, unit_at, stop_at, lost_to):
    """8.3431: the blocking counter is attacked if the being is the DEMON,
    BERSERKER or TROLL (the Banisher: next test); 8.343 it stops directly
    before the blocker; 8.3434 winning, it takes the blocker's space and its
    movement is over."""
    sc = arena((0, PARALYZER, "Cave"), (1, k, start))
    knight = sc.put(0, KNIGHT, unit_at)
    sc.load_dice(4, 1)
    sc.load_dice(6, 1)                                # the being 6, the knight 1: a win
    first_being_stays(sc, "Cave")
    choose_die(sc, 4)
    assert sc.loc(knight) == lost_to
    assert being_loc(sc, 1) == unit_at
    assert sc.dice_left() == 0


def test_8_3431_the_banisher_attacks_the_blocking_counter():
    """8.3431: the Banisher attacks the blocker; winning, he removes it (to a
    random empty space, 8.211) and occupies its space (8.3434 "kills/removes")."""
    sc = arena((0, PARALYZER, "Cave"), (1, BANISHER, "1002"))
    knight = sc.put(0, KNIGHT, "1007")
    sc.load_dice(4, 1)
    sc.load_dice(6, 1)
    sc.load_rolls(0)
    first_being_stays(sc, "Cave")
    choose_die(sc, 4)
    assert name(sc.loc(knight)) == "0000"
    assert being_loc(sc, 1) == "1007"


def test_8_3431_the_troll_attacks_a_blocking_being_too():
    """8.3431: "The blocking counter is attacked" whatever it is: the Troll (6M)
    blocked by the Revivor attacks and kills her; she goes to the pile (15.4),
    a new being takes the Cave, and the Troll takes her space."""
    sc = arena((0, REVIVOR, "1004"), (1, TROLL, "1002"))
    sc.load_dice(4, 1)
    sc.load_dice(6, 1)                                # Troll 5+6 against Revivor 1+0+1
    sc.load_rolls(pile_index(sc, EAGLE, joining=[REVIVOR]))
    first_being_stays(sc, "1004")
    choose_die(sc, 4)
    assert in_pile(sc, REVIVOR)
    assert int(sc.s["slot_being"][0]) == EAGLE and being_loc(sc, 0) == "Cave"
    assert being_loc(sc, 1) == "1004"


def test_8_3432_a_blocked_disperser_uses_its_power_on_all_adjacent_counters():
    """8.3432: the Disperser (7F from 1002 south would land on 1009) is blocked
    by the knight there and disperses every adjacent unit four spaces straight
    away from it (15.64): the knight south down to 1012 (the last row; only
    three spaces are left), the man-at-arms at 0907 north-west."""
    sc = arena((0, PARALYZER, "Cave"), (1, DISPERSER, "1002"))
    knight = sc.put(0, KNIGHT, "1009")
    man = sc.put(1, MAN_AT_ARMS, towards("1008", 6))
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == "1008"
    assert name(sc.loc(knight)) == "1012"
    assert name(sc.loc(man)) == towards("1008", 6, 5)


def test_8_3432_a_blocked_paralyzer_paralyzes_the_adjacent_units():
    """8.3432: the Paralyzer (8M) blocked by the knight at 1004 stops next to it;
    its power holds every adjacent unit (15.67)."""
    sc = arena((0, REVIVOR, "Cave"), (1, PARALYZER, "1002"))
    knight = sc.put(0, KNIGHT, "1004")
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == "1003"
    assert R.is_paralyzed(sc.S, 0, knight)
    assert sc.dice_left() == 0


@pytest.mark.parametrize("k, unit_at, stop_at", [
    (EAGLE, "1010", "1009"), (DRAGON_CHARMER, "1004", "1003"),
    (REVIVOR, "1006", "1005"), (TELEPORTER, "1008", "1007")])
def test_8_3433_the_other_beings_do_nothing_when_blocked(k, unit_at, stop_at):
    """8.3433: the EAGLE, DRAGON CHARMER, REVIVOR and TELEPORTER do nothing when
    blocked: no combat, no harry, no revival, no teleport."""
    sc = arena((0, PARALYZER, "Cave"), (1, k, "1002"))
    knight = sc.put(0, KNIGHT, unit_at)
    dead = sc.put(1, KNIGHT, "0000")
    sc.kill(dead)
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == stop_at
    assert sc.loc(knight) == cell(unit_at) and int(sc.s["unit_flags"][knight]) == 0
    assert sc.loc(dead) == LOC_DEAD
    assert sc.dice_left() == 0


def test_8_3434_the_move_ends_when_blocked_whatever_the_combat_result():
    """8.3434: the movement ends whenever the being is blocked, whether the
    blocker survives or not: the Troll ties with the knight (both wounded; the
    Troll shrugs it off, 15.6011), the way is clear, yet it stays at 1003."""
    sc = arena((0, PARALYZER, "Cave"), (1, TROLL, "1002"))
    knight = sc.put(0, KNIGHT, "1004")
    sc.load_dice(4, 1)
    sc.load_dice(1, 4)                                # Troll 5+1 = knight 2+0+4
    first_being_stays(sc, "Cave")
    choose_die(sc, 4)
    assert sc.loc(knight) == R.home_cottage(sc.S, 0, 0)
    assert int(sc.s["unit_flags"][knight]) & F_WOUNDED
    assert being_loc(sc, 1) == "1003"


def test_8_35_brimstone_in_a_ground_beings_path_sends_it_home():
    """8.35: a being blocked by BRIMSTONE returns to its lair (as for structures)."""
    sc = arena((0, PARALYZER, "Cave"), (1, TROLL, "1002"))
    sc.dragon("1004")
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == "Hollow Tree"
    assert int(sc.s["dragon_cell"]) == cell("1004")


def test_8_35_brimstone_on_a_flying_beings_landing_space_sends_it_home():
    """8.35 with 8.341: the Demon (6F) would land on Brimstone at 1008."""
    sc = arena((0, DEMON, "1002"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1008")
    second_move(sc, 0, 4)
    assert being_loc(sc, 0) == "Cave"


def test_8_35_brimstone_next_to_a_blocked_landing_space_sends_it_home():
    """8.35 with 8.343: a knight on the Demon's landing space 1008 would stop it
    on 1007, but Brimstone is there: blocked by Brimstone, it goes home."""
    sc = arena((0, DEMON, "1002"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1007")
    knight = sc.put(1, KNIGHT, "1008")
    second_move(sc, 0, 4)
    assert being_loc(sc, 0) == "Cave"
    assert sc.loc(knight) == cell("1008")


def test_8_34_a_flying_being_passes_over_brimstone():
    """8.34 "excluding BRIMSTONE", 8.341: Brimstone only blocks a flying being
    that would land on him; the Revivor (4F) flies over him at 1004."""
    sc = arena((0, PARALYZER, "Cave"), (1, REVIVOR, "1002"))
    sc.dragon("1004")
    second_move(sc, 1, 4)
    assert being_loc(sc, 1) == "1006"


# ------------------------------------------------------------------ 9.51, 9.511, 9.616
def berserker_ties_with_knight(sc, *rolls):
    """The first player's Berserker (Cave slot, on 1003) attacks the knight at
    1004 and ties: 4+1 against 2+0+3. ``rolls``: raw draws made after the
    combat (a new being for a lair)."""
    sc.load_dice(1, 3)
    sc.load_rolls(*rolls)
    sc.load_dice(2, 5)                                # the second being's dice
    sc.start_being_round(0, 1)
    use_being(sc, "1003")
    assert sc.phase == R.PH_BEING_TARGET
    sc.act("being acts on 1004")


def test_9_51_a_wounded_being_goes_to_its_lair_and_is_ready_next_round():
    """9.51: wounded beings are placed in their lair, healed and ready to move in
    the very next Fantastic Being Round (9.483: a tie wounds both)."""
    sc = arena((0, BERSERKER, "1003"), (1, PARALYZER, "Hollow Tree"))
    knight = sc.put(1, KNIGHT, "1004")
    berserker_ties_with_knight(sc)
    assert being_loc(sc, 0) == "Cave"
    assert sc.loc(knight) == R.home_cottage(sc.S, 0, 1)
    choose_die(sc, 2)
    sc.start_being_round(0, 1)
    assert "use being at Cave" in sc.legal()
    sc.act("use being at Cave")
    assert len(legal_cells(sc)) > 1                   # it can move again


def test_9_511_a_unit_in_the_lair_is_ambushed_and_killed():
    """9.511: the occupying counter of the lair is automatically ambushed and killed."""
    sc = arena((0, BERSERKER, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(1, KNIGHT, "1004")
    squatter = sc.put(1, MAN_AT_ARMS, "Cave")
    berserker_ties_with_knight(sc)
    assert sc.loc(squatter) == LOC_DEAD
    assert being_loc(sc, 0) == "Cave"


def test_9_511_brimstone_in_the_lair_kills_the_being():
    """9.511: "If the occupying counter is Brimstone, the Fantastic Being is
    automatically killed" (to the pile, a new being for the lair, 15.4)."""
    sc = arena((0, BERSERKER, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(1, KNIGHT, "1004")
    sc.dragon("Cave")
    berserker_ties_with_knight(sc, pile_index(sc, TELEPORTER, joining=[BERSERKER]))
    assert in_pile(sc, BERSERKER)
    assert int(sc.s["slot_being"][0]) == TELEPORTER
    assert int(sc.s["dragon_cell"]) == cell("Cave")


def test_9_511_another_being_in_the_lair_is_ambushed_and_killed():
    """9.511: the Revivor (Hollow Tree slot) sits in the Cave when the wounded
    Berserker comes home: she is killed (to the pile) and her own lair gets a
    new being."""
    sc = arena((0, BERSERKER, "1003"), (1, REVIVOR, "Cave"))
    sc.put(1, KNIGHT, "1004")
    berserker_ties_with_knight(sc, pile_index(sc, EAGLE, joining=[REVIVOR]))
    assert in_pile(sc, REVIVOR)
    assert being_loc(sc, 0) == "Cave"
    assert int(sc.s["slot_being"][1]) == EAGLE and being_loc(sc, 1) == "Hollow Tree"


def test_9_511_the_demon_in_the_lair_is_only_wounded_home():
    """9.511 with 15.632/15.633: the Demon cannot be killed by the ambush; it is
    wounded instead and goes to its own lair: the two beings never share a space."""
    sc = arena((0, BERSERKER, "1003"), (1, DEMON, "Cave"))
    sc.put(1, KNIGHT, "1004")
    berserker_ties_with_knight(sc)
    assert being_loc(sc, 0) == "Cave"
    assert being_loc(sc, 1) == "Hollow Tree"
    assert not in_pile(sc, DEMON)


def test_9_616_a_being_never_attacks_a_castle_or_village():
    """9.616: a Fantastic Being may never be used to attack a castle or village:
    the Demon next to the garrisoned Ironcrag Castle is offered no attack."""
    sc = arena((0, DEMON, "1203"), (1, PARALYZER, "Hollow Tree"))
    assert towards("1203", 3) == "Ironcrag Castle"
    sc.put(1, KNIGHT, "Ironcrag Castle")
    sc.load_dice(2, 5)
    sc.start_being_round(0, 1)
    use_being(sc, "1203")
    assert sc.phase == R.PH_SECOND_DIE                # no attack decision
    assert not R.can_be_attacked_by_being(sc.S, 0, 0, cell("Ironcrag Castle"), 0)
