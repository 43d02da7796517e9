"""Dragonhunt 13-14.43: the Magesword -- earning it, who wields it, where it goes
home -- and the slaying battle with the magical defense counters against the
dragon parts.

A slaying battle runs without decisions: every die is loaded, and each test
checks that the battle used exactly the dice the rulebook calls for (no draw
from the game's own stream, none of the loaded dice left over).
Player 0 holds Sunken, player 1 Ironcrag.
"""
import pytest

from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import (
    HERO, KNIGHT, MAN_AT_ARMS, COL_LATER_WOUND, COL_SINGLE_PIECE, R_DRAGON_WOUNDED,
    R_DEFENDER_KILLED, CARD_NAP,
)
from dragongym.envs.dragonhunt.game import cell_name
from dragongym.envs.dragonhunt.state import LOC_DEAD, F_WOUNDED, F_IN_FORCE
from tests.dragonhunt.scenario import Scenario, cell, dice_summing_to

KINGDOMS = ("Sunken", "Ironcrag")
DRAGON = "0904"               # a mountain in the open; 1004, 0805, 0905 are next to it


def game(dragon=DRAGON, enraged=False):
    sc = Scenario(num_players=2, kingdoms=KINGDOMS)
    sc.no_beings()
    sc.dragon(dragon, enraged=enraged)
    return sc


def wield(sc, unit):
    """Give player 0's sword to ``unit``."""
    sc.s["sword_holder"][0] = unit
    sc.s["sword_loc"][0] = -1


def to_dragon_segment(sc, order=(0, 1)):
    sc.start_player_round(order=list(order))
    sc.act("done")
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_DRAGON_FORCE, order[0])


def slay(sc, where, dice):
    """Player 0's wielder on ``where`` attacks Brimstone; the battle uses ``dice``
    (Mage Sword Chart roll first, then attacker / Brimstone alternately)."""
    sc.load_dice(*dice)
    before = int(sc.s["rng_counter"])
    sc.act(f"join dragon attack from {where}")
    if sc.phase == R.PH_FORCE_TYPE:             # other knights share his space
        sc.act("type sword-wielder")
    assert sc.dice_left() == 0, "the battle ended early"
    assert int(sc.s["rng_counter"]) == before, "the battle went on past the loaded dice"


def lost_battle(chart_roll, rounds):
    """Dice of a battle where the attacker always misses (6) and Brimstone always
    hits (6) for ``rounds`` rounds."""
    return (chart_roll,) + (6, 6) * rounds


# ------------------------------------------------------------------ 13, 13.1, 13.11
def test_13_without_the_sword_brimstone_can_only_be_wounded():
    """13: the magesword is the only weapon that can KILL Brimstone; until it is used
    he can only be wounded -- even by a player holding three markers."""
    sc = game()
    sc.s["wounds"][0] = 3
    sc.s["sword_loc"][0] = cell("Sunken Castle")
    sc.put(0, KNIGHT, "Sunken Castle")               # not the hero: he lives (13.2)
    sc.put(0, HERO, "0302")
    for w in ("1004", "0805", "0905"):
        sc.put(0, KNIGHT, w)
    to_dragon_segment(sc)
    t = min(t for t in range(21) if D.COMBAT_TABLE[COL_LATER_WOUND, t] == R_DRAGON_WOUNDED)
    sc.load_dice(*dice_summing_to(max(2, t - 6)))
    for w in ("1004", "0805", "0905"):
        sc.act(f"join dragon attack from {w}")
    sc.act("done")
    assert int(sc.s["status"]) == 0 and int(sc.s["wounds"][0]) == 3
    assert int(sc.s["enraged"]) == 1


def test_13_1_the_third_wound_puts_the_sword_in_his_castle():
    """13.1: when his forces have wounded the Dragon three times, the sword is placed
    in his castle."""
    sc = game()
    sc.s["wounds"][0] = 2
    sc.put(0, HERO, "1004")
    k = sc.put(0, KNIGHT, "Sunken Castle")
    to_dragon_segment(sc)
    t = min(t for t in range(21) if D.COMBAT_TABLE[COL_LATER_WOUND, t] == R_DRAGON_WOUNDED)
    sc.load_dice(*dice_summing_to(t - 5))
    sc.act("join dragon attack from 1004")
    assert int(sc.s["wounds"][0]) == 3
    assert int(sc.s["sword_loc"][0]) == cell("Sunken Castle")
    assert int(sc.s["sword_holder"][0]) == -1        # the knight may not (13.2)


def test_13_11_without_his_home_castle_the_sword_goes_to_his_cottage():
    """13.11: if he does not control his HOME CASTLE, the sword is placed in his HOME
    COTTAGE instead."""
    sc = game()
    sc.put(1, KNIGHT, "Sunken Castle")               # the enemy holds it
    sc.s["wounds"][0] = 2
    R.wound_brimstone(sc.S, 0, 0)
    assert int(sc.s["sword_loc"][0]) == cell("Sunken Cottage")


# ------------------------------------------------------------------ 13.2, 13.21
def test_13_2_the_hero_takes_up_the_sword():
    """13.2: the sword may be used by your HERO: he takes it up where it lies."""
    sc = game()
    sc.s["sword_loc"][0] = cell("Sunken Castle")
    hero = sc.put(0, HERO, "0711")
    sc.start_player_round(order=[0, 1])
    sc.act("select unit at 0711")
    sc.act("move to Sunken Castle")
    assert int(sc.s["sword_holder"][0]) == hero
    assert int(sc.s["sword_loc"][0]) == -1


def test_13_2_no_other_piece_while_the_hero_lives():
    """13.2: while the Hero is alive, no other piece may use it."""
    sc = game()
    sc.s["sword_loc"][0] = cell("Sunken Castle")
    sc.put(0, HERO, "0302")
    sc.put(0, KNIGHT, "0711")
    sc.start_player_round(order=[0, 1])
    sc.act("select unit at 0711")
    sc.act("move to Sunken Castle")
    assert int(sc.s["sword_holder"][0]) == -1
    assert int(sc.s["sword_loc"][0]) == cell("Sunken Castle")


def test_13_21_hero_dead_when_it_materialises_a_knight_takes_it():
    """13.21: if your Hero is dead when the sword materializes, any Knight may use it."""
    sc = game()
    hero = sc.put(0, HERO, "0302")
    sc.kill(hero)
    k = sc.put(0, KNIGHT, "Sunken Castle")
    sc.s["wounds"][0] = 2
    R.wound_brimstone(sc.S, 0, 0)
    assert int(sc.s["sword_holder"][0]) == k


def test_13_21_hero_killed_while_using_it_a_knight_takes_it():
    """13.21, 13.3: the Hero is killed while using the sword: it returns to the home
    castle, and a Knight there may use it in his stead."""
    sc = game()
    hero = sc.put(0, HERO, "0302")
    wield(sc, hero)
    k = sc.put(0, KNIGHT, "Sunken Castle")
    sc.dragon("0302")
    sc.load_dice(1, 1)                              # 2 + 5 = 7: killed (printed)
    assert D.COMBAT_TABLE[COL_SINGLE_PIECE, 7] == R_DEFENDER_KILLED
    R.dragon_attacks_piece(sc.S, 0, cell("0302"))
    assert sc.loc(hero) == LOC_DEAD
    assert int(sc.s["sword_holder"][0]) == k


def test_13_21_hero_killed_away_from_the_lying_sword_a_knight_takes_it_at_once():
    """13.2, 13.21: once the Hero is dead, a Knight standing where the sword lies may
    take it up (at once, not only when he next moves)."""
    sc = game()
    sc.s["sword_loc"][0] = cell("Sunken Castle")
    hero = sc.put(0, HERO, "0302")
    k = sc.put(0, KNIGHT, "Sunken Castle")
    assert int(sc.s["sword_holder"][0]) == -1
    R.kill_unit(sc.S, 0, hero, False)
    assert int(sc.s["sword_holder"][0]) == k


# ------------------------------------------------------------------ 13.3, 13.31
def test_13_3_the_sword_returns_home_and_lies_there():
    """13.3: when the wielder is killed the sword returns to the home castle and stays
    there, immovable, until taken up by the Hero or a Knight."""
    sc = game()
    sc.put(0, MAN_AT_ARMS, "Sunken Castle")          # he holds his castle
    k = sc.put(0, KNIGHT, "1004")
    wield(sc, k)
    to_dragon_segment(sc)
    slay(sc, "1004", lost_battle(1, 4))             # 2 + 2 = 4 counters, all lost
    assert sc.loc(k) == LOC_DEAD
    assert int(sc.s["sword_loc"][0]) == cell("Sunken Castle")
    assert int(sc.s["sword_holder"][0]) == -1


def test_13_31_without_the_home_castle_it_returns_to_the_cottage():
    """13.31: if you do not control your home castle, the sword goes to your home
    cottage instead."""
    sc = game()
    k = sc.put(0, KNIGHT, "1004")
    wield(sc, k)
    to_dragon_segment(sc)
    slay(sc, "1004", lost_battle(1, 4))
    assert int(sc.s["sword_loc"][0]) == cell("Sunken Cottage")


# ------------------------------------------------------------------ 13.4
def test_13_4_the_wielder_attacks_no_other_counter():
    """13.4: the counter that takes up the sword is under a geas to attack the Dragon;
    it may not attack any other counter."""
    sc = game()
    hero = sc.put(0, HERO, "0302")
    wield(sc, hero)
    sc.put(1, MAN_AT_ARMS, "0402")
    sc.start_player_round(order=[0, 1])
    sc.act("done")
    assert sc.phase == R.PH_COMBAT_SELECT and sc.legal() == ["done"]


def test_13_4_the_wielder_defends_two_better():
    """13.4: attacked by another unit, the wielder adds TWO to its roll for the sword
    (besides strength and terrain): 2 + 6 against 5 + 2 + 1 is a tie."""
    sc = game()
    hero = sc.put(0, HERO, "0402")
    wield(sc, hero)
    e = sc.put(1, KNIGHT, "0302")
    sc.start_player_round(order=[1, 0])
    sc.act("done")
    sc.load_dice(6, 1)
    sc.act("attack with unit at 0302")
    sc.act("attack 0402")
    assert sc.loc(hero) == cell("Sunken Cottage") and sc.loc(e) == cell("Ironcrag Cottage")
    assert int(sc.s["sword_holder"][0]) == hero      # wounded, not killed: he keeps it


# ------------------------------------------------------------------ 13.5-14.1
def test_example_14_1_knight_with_the_sword_rolls_4_six_counters():
    """14.1 EXAMPLE: a Knight attacks with the sword. His combat strength is TWO. His
    roll, in section 13.5, is 4: +4 magical defense, 6 in all: six counters. (He falls
    after exactly six hits.)"""
    sc = game()
    k = sc.put(0, KNIGHT, "1004")
    wield(sc, k)
    to_dragon_segment(sc)
    slay(sc, "1004", lost_battle(4, 6))
    assert sc.loc(k) == LOC_DEAD


@pytest.mark.parametrize("roll, plus", [(1, 2), (2, 3), (3, 3), (4, 4), (5, 4), (6, 5)])
def test_13_5_mage_sword_chart(roll, plus):
    """13.5, 13.51: one die on the Mage Sword Chart (1: +2, 2-3: +3, 4-5: +4, 6: +5)
    plus the unit's strength gives the magical defense counters."""
    assert int(D.MAGESWORD_PLUS[roll]) == plus
    sc = game()
    k = sc.put(0, KNIGHT, "1004")
    wield(sc, k)
    to_dragon_segment(sc)
    slay(sc, "1004", lost_battle(roll, 2 + plus))
    assert sc.loc(k) == LOC_DEAD


def test_13_51_the_heros_strength_counts():
    """13.51: add the roll to your unit's strength: a hero rolling 1 has 5 + 2 = 7."""
    sc = game()
    hero = sc.put(0, HERO, "1004")
    wield(sc, hero)
    to_dragon_segment(sc)
    slay(sc, "1004", lost_battle(1, 7))
    assert sc.loc(hero) == LOC_DEAD


def test_13_51_demon_markers_add_to_the_counters():
    """13.51 (see 15.635): magical defense markers carried by the wielder add to his
    counters: a knight rolling 1 with two markers has 2 + 2 + 2 = 6."""
    sc = game()
    k = sc.put(0, KNIGHT, "1004")
    wield(sc, k)
    sc.s["md_holder"][0] = k
    sc.s["md_carried"][0] = 2
    to_dragon_segment(sc)
    slay(sc, "1004", lost_battle(1, 6))
    assert sc.loc(k) == LOC_DEAD


def test_13_52_a_new_chart_roll_for_each_attempt():
    """13.52: the roll is taken EACH time you attempt to kill the Dragon. Brimstone
    sits beside Sunken Castle: the first wielder (roll 1: 4 counters) falls, the sword
    returns to the castle, another knight there takes it up and, next round, attacks
    with a new roll (5: 6 counters)."""
    sc = game(dragon="0711")
    a, b = sc.put(0, KNIGHT, "Sunken Castle", n=2)
    wield(sc, a)
    to_dragon_segment(sc)
    slay(sc, "Sunken Castle", lost_battle(1, 4))
    assert sc.loc(a) == LOC_DEAD and int(sc.s["sword_holder"][0]) == b
    sc.s["enraged"] = 0
    to_dragon_segment(sc)
    slay(sc, "Sunken Castle", lost_battle(5, 6))
    assert sc.loc(b) == LOC_DEAD


# ------------------------------------------------------------------ 14.2x parts
def test_14_21_normal_defense_five_parts_one_to_five():
    """14.21, 14.34: with normal morale he defends with five parts, 1 to 5; the
    attacker who removes them all has slain him and wins the game."""
    sc = game()
    hero = sc.put(0, HERO, "1004")
    wield(sc, hero)
    to_dragon_segment(sc)
    # chart 6 (10 counters); A1 D1 (miss: part 1 is gone) A2 D2 A3 D3 A4 D4 A5: dead
    slay(sc, "1004", (6, 1, 1, 2, 2, 3, 3, 4, 4, 5))
    assert int(sc.s["status"]) == 1 and int(sc.s["winner"]) == 0
    assert list(sc.s["rewards"][:2]) == [1.0, -1.0]
    assert sc.to_play == -1


def test_14_22_enraged_defense_six_parts_with_two_ones():
    """14.22: attacked while enraged he uses all six parts, both ONEs: after 1-5 fall
    once, one part (a 1) still stands."""
    sc = game(enraged=True)
    hero = sc.put(0, HERO, "1004")
    wield(sc, hero)
    to_dragon_segment(sc)
    # A1 D6 (hit) A2 D2 A3 D3 A4 D4 A5 D5 (misses: parts gone) -- the other 1 stands -- A1
    slay(sc, "1004", (6, 1, 6, 2, 2, 3, 3, 4, 4, 5, 5, 1))
    assert int(sc.s["status"]) == 1 and int(sc.s["winner"]) == 0


# ------------------------------------------------------------------ 14.3x the battle
def test_example_14_32_and_14_33_part_four_removed_then_brimstone_misses_on_a_four():
    """14.32 EXAMPLE: the attacker rolls a 4: the part numbered 4 is removed BEFORE the
    Dragon's roll. 14.33 EXAMPLE: the Dragon then rolls a 4. He misses. (A knight with
    4 counters loses them only after four more hits.)"""
    sc = game()
    k = sc.put(0, KNIGHT, "1004")
    wield(sc, k)
    to_dragon_segment(sc)
    slay(sc, "1004", (1, 4, 4) + (6, 6) * 4)
    assert sc.loc(k) == LOC_DEAD


@pytest.mark.parametrize("dragon_roll", [1, 2, 3, 5, 6])
def test_example_14_33_any_other_number_would_have_hit(dragon_roll):
    """14.33 EXAMPLE: if he had rolled any other number (a six, or a surviving part)
    the attacker would have lost one magical defense counter."""
    sc = game()
    k = sc.put(0, KNIGHT, "1004")
    wield(sc, k)
    to_dragon_segment(sc)
    slay(sc, "1004", (1, 4, dragon_roll) + (6, 6) * 3)
    assert sc.loc(k) == LOC_DEAD


def test_14_31_a_miss_by_the_attacker_removes_nothing():
    """14.31, 14.32: both roll one die; the attacker's die removes a part only when it
    matches a SURVIVING part (a 6, or a part already gone, removes nothing)."""
    sc = game()
    hero = sc.put(0, HERO, "1004")
    wield(sc, hero)
    to_dragon_segment(sc)
    # chart 6: 10 counters. A1 D1 (miss), A1 (nothing left to remove) D1 (miss), A6 D1,
    # then A2 D2 A3 D3 A4 D4 A5
    slay(sc, "1004", (6, 1, 1, 1, 1, 6, 1, 2, 2, 3, 3, 4, 4, 5))
    assert int(sc.s["status"]) == 1


def test_14_34_losing_every_counter_kills_the_attacker_and_enrages_brimstone():
    """14.34, 9.842: the Dragon eliminates all the attacker's counters: the attacker is
    killed, Brimstone is automatically enraged, and the game continues."""
    sc = game()
    k = sc.put(0, KNIGHT, "1004")
    wield(sc, k)
    to_dragon_segment(sc)
    slay(sc, "1004", lost_battle(1, 4))
    assert sc.loc(k) == LOC_DEAD
    assert int(sc.s["enraged"]) == 1 and int(sc.s["status"]) == 0
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 1)


# ------------------------------------------------------------------ 14.4x restrictions
def test_14_41_only_the_wielder_fights():
    """14.41: only the wielder is involved; other adjacent units are ignored (and a
    wielder never joins a force already formed)."""
    sc = game()
    k = sc.put(0, KNIGHT, "1004")
    wield(sc, k)
    others = [sc.put(0, KNIGHT, "0805"), sc.put(0, MAN_AT_ARMS, "0905")]
    to_dragon_segment(sc)
    slay(sc, "1004", lost_battle(1, 4))
    assert [sc.loc(u) for u in others] == [cell("0805"), cell("0905")]
    sc2 = game()
    k2 = sc2.put(0, KNIGHT, "1004")
    wield(sc2, k2)
    sc2.put(0, KNIGHT, "0805")
    to_dragon_segment(sc2)
    sc2.act("join dragon attack from 0805")
    assert "join dragon attack from 1004" not in sc2.legal()


def test_14_41_a_knight_wielder_sharing_a_castle_is_chosen_by_name():
    """14.41, 9.86: from a castle holding the knight wielder and other knights,
    "type knight" brings a knight without the sword (a wound attempt stays
    possible) and "type sword-wielder" the wielder, who fights the slaying
    battle alone."""
    sc = game(dragon="0711")
    a, b = sc.put(0, KNIGHT, "Sunken Castle", n=2)
    wield(sc, b)
    to_dragon_segment(sc)
    sc.act("join dragon attack from Sunken Castle")
    assert sorted(sc.legal()) == ["type knight", "type sword-wielder"]
    sc.load_dice(*lost_battle(1, 4))
    before = int(sc.s["rng_counter"])
    sc.act("type sword-wielder")
    assert sc.dice_left() == 0 and int(sc.s["rng_counter"]) == before
    assert sc.loc(b) == LOC_DEAD and sc.loc(a) == cell("Sunken Castle")


def test_14_41_knights_beside_a_wielder_may_still_try_to_wound():
    """9.81: knights sharing a castle with the knight wielder can attack together
    without him: "type knight" never takes the wielder, who never joins a force."""
    sc = game(dragon="0711")
    a, b = sc.put(0, KNIGHT, "Sunken Castle", n=2)
    wield(sc, b)
    to_dragon_segment(sc)
    sc.act("join dragon attack from Sunken Castle")
    sc.act("type knight")
    assert int(sc.s["unit_flags"][a]) & F_IN_FORCE
    assert not int(sc.s["unit_flags"][b]) & F_IN_FORCE
    assert "type sword-wielder" not in sc.legal()


def test_13_4_a_knight_wielder_can_be_moved_out_of_a_shared_castle():
    """13.4: the wielding knight can be picked to move out of a castle he shares
    with other knights ("type sword-wielder"), and he takes the sword with him."""
    sc = game()
    a, b = sc.put(0, KNIGHT, "Sunken Castle", n=2)
    wield(sc, b)
    sc.start_player_round(order=[0, 1])
    sc.act("select unit at Sunken Castle")
    assert "type sword-wielder" in sc.legal() and "type knight" in sc.legal()
    sc.act("type sword-wielder")
    dest = [x for x in sc.legal() if x.startswith("move to")][0]
    sc.act(dest)
    assert sc.loc(b) != cell("Sunken Castle") and sc.loc(a) == cell("Sunken Castle")
    assert int(sc.s["sword_holder"][0]) == b


def test_9_61_the_defender_may_choose_his_knight_wielder():
    """9.61 (2): defending a castle, the owner may put up the sword-wielding knight
    even when other knights are inside."""
    sc = game()
    a, b = sc.put(0, KNIGHT, "Sunken Castle", n=2)
    wield(sc, b)
    attacker = sc.put(1, KNIGHT, int(R.NEIGHBOURS[cell("Sunken Castle"), 0]))
    sc.start_player_round(order=[1, 0])
    sc.act("done")
    sc.act(f"attack with unit at {cell_name(sc.loc(attacker))}")
    sc.act("attack Sunken Castle")
    assert sc.to_play == 0 and "type sword-wielder" in sc.legal()


def test_14_42_the_sword_is_no_help_when_brimstone_attacks():
    """14.42: if the dragon attacks the player, the sword is NOT taken into account:
    a plain roll on the SINGLE PIECE column (5 + 3 = 8: killed; +2 would have saved)."""
    assert D.COMBAT_TABLE[COL_SINGLE_PIECE, 8] == R_DEFENDER_KILLED
    assert D.COMBAT_TABLE[COL_SINGLE_PIECE, 10] != R_DEFENDER_KILLED
    sc = game(dragon="0302")
    hero = sc.put(0, HERO, "0302")
    wield(sc, hero)
    assert R.unit_defense(sc.S, 0, hero, True) == 5
    assert R.unit_defense(sc.S, 0, hero, False) == 7
    sc.load_dice(1, 2)
    R.dragon_attacks_piece(sc.S, 0, cell("0302"))
    assert sc.loc(hero) == LOC_DEAD


def test_14_42_the_kill_is_tried_in_the_dragon_attack_segment_only():
    """14.42: the attempt to kill is made during the DRAGON ATTACK SEGMENT only: the
    wielder next to Brimstone has no attack in the combat segment."""
    sc = game()
    hero = sc.put(0, HERO, "1004")
    wield(sc, hero)
    sc.start_player_round(order=[0, 1])
    sc.act("done")
    assert sc.phase == R.PH_COMBAT_SELECT and sc.legal() == ["done"]
    sc.act("done")
    assert sc.phase == R.PH_DRAGON_FORCE and "join dragon attack from 1004" in sc.legal()


def test_14_43_magical_defense_markers_are_lost_with_their_bearer():
    """14.43: special magical defense gained by the player is lost if the unit that
    uses it against the Dragon is killed."""
    sc = game()
    k = sc.put(0, KNIGHT, "1004")
    wield(sc, k)
    sc.s["md_holder"][0] = k
    sc.s["md_carried"][0] = 2
    to_dragon_segment(sc)
    slay(sc, "1004", lost_battle(1, 6))
    assert int(sc.s["md_holder"][0]) == -1 and int(sc.s["md_carried"][0]) == 0
    assert int(sc.s["md_cottage"][0]) == 0


def test_13_4_the_wounded_wielder_keeps_the_sword_in_his_cottage():
    """13.3 returns the sword home only when the wielder is KILLED; a wounded wielder
    (13.4 defence tie) heals with it in his cottage (choice of the core)."""
    sc = game()
    hero = sc.put(0, HERO, "0402")
    wield(sc, hero)
    R.wound_unit(sc.S, 0, hero)
    assert sc.loc(hero) == cell("Sunken Cottage")
    assert int(sc.s["unit_flags"][hero]) & F_WOUNDED
    assert int(sc.s["sword_holder"][0]) == hero
