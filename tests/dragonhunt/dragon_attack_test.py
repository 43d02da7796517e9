"""Dragonhunt 9.8-9.861: the Dragon Attack segment -- who may attack Brimstone,
the attack roll and its columns, wound markers, his morale, and attacks out of
castles, villages and cottages.

Totals beyond row 8 of the combat table are substitutes (data/combat_table.txt),
so the dice here are worked out from ``data.COMBAT_TABLE``; printed rows are
asserted as printed. Player 0 holds Sunken, player 1 Ironcrag.
"""
import pytest

from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import (
    HERO, SNIPER, KNIGHT, MAN_AT_ARMS, COL_FIRST_WOUND, COL_LATER_WOUND, COL_SINGLE_PIECE,
    R_ALL_WOUNDED, R_ONE_KILLED, R_ONE_WOUNDED, R_ONE_KILLED_ATTACKS_CASTLE,
    R_DRAGON_WOUNDED, R_DEFENDER_UNHARMED, R_OCCUPANTS_DIE_1, COL_STRUCTURE, CARD_NAP,
)
from dragongym.envs.dragonhunt.state import LOC_DEAD, F_WOUNDED
from tests.dragonhunt.scenario import Scenario, cell, dice_summing_to

KINGDOMS = ("Sunken", "Ironcrag")
MOUNTAIN = "0904"          # Brimstone's usual spot here: a mountain, no terrain for him (9.71)


def first_total(col, result):
    """The lowest total that reads ``result`` in column ``col`` of the combat table."""
    return min(t for t in range(D.COMBAT_TABLE.shape[1]) if D.COMBAT_TABLE[col, t] == result)


WOUND_AT = first_total(COL_FIRST_WOUND, R_DRAGON_WOUNDED)


def game(kingdoms=KINGDOMS, dragon=MOUNTAIN, enraged=False):
    sc = Scenario(num_players=2, kingdoms=kingdoms)
    sc.no_beings()
    sc.dragon(dragon, enraged=enraged)
    return sc


def to_dragon_segment(sc, order=(0, 1)):
    """The first player skips movement and combat: his Dragon Attack segment."""
    sc.start_player_round(order=list(order))
    sc.act("done")
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_DRAGON_FORCE, order[0])


def join(sc, *cells):
    for c in cells:
        sc.act(f"join dragon attack from {c}")


def attack(sc, *cells, dice=None):
    """Join the units on ``cells`` (one each) and attack with two dice summing to ``dice``."""
    if dice is not None:
        sc.load_dice(*dice_summing_to(dice))
    sc.load_card(CARD_NAP)           # should the table say "draw a card": a harmless one
    join(sc, *cells)
    if sc.phase == R.PH_DRAGON_FORCE:
        sc.act("done")


def wounded(sc, u):
    return bool(int(sc.s["unit_flags"][u]) & F_WOUNDED)


def knights_and_maa(sc, colour=0):
    """Two knights and a man-at-arms next to Brimstone on 0904: strength 5."""
    return [sc.put(colour, KNIGHT, "1004"), sc.put(colour, KNIGHT, "0805"),
            sc.put(colour, MAN_AT_ARMS, "0905")]


# ------------------------------------------------------------------ 9.8
def test_9_8_without_a_unit_next_to_brimstone_the_round_is_over():
    """9.8: if you do not have any units adjacent to the Dragon, your round is over."""
    sc = game()
    sc.put(0, KNIGHT, "0302")
    sc.start_player_round(order=[0, 1])
    sc.act("done")
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 1)


def test_9_8_the_one_attempt_may_be_declined():
    """9.8: the player CAN make one attempt: he may also let it be."""
    sc = game()
    k = sc.put(0, KNIGHT, "1004")
    to_dragon_segment(sc)
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 1)
    assert sc.loc(k) == cell("1004") and int(sc.s["wounds"][0]) == 0


# ------------------------------------------------------------------ 9.81
def test_example_9_81_method_1_the_hero_alone():
    """9.81 EXAMPLE: the two legal methods of attack are 1) with your Hero alone. If
    your Hero attacks, no other player unit may be involved."""
    sc = game()
    hero = sc.put(0, HERO, "0903")
    others = knights_and_maa(sc)
    to_dragon_segment(sc)
    sc.load_dice(1, 1)                 # 5 + 2 = 7: "All attackers are wounded" (printed)
    assert D.COMBAT_TABLE[COL_FIRST_WOUND, 7] == R_ALL_WOUNDED
    sc.act("join dragon attack from 0903")          # the attack goes at once
    assert sc.loc(hero) == cell("Sunken Cottage") and wounded(sc, hero)
    assert [sc.loc(u) for u in others] == [cell("1004"), cell("0805"), cell("0905")]
    assert not any(wounded(sc, u) for u in others)
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 1)


def test_example_9_81_method_2_knights_and_men_at_arms_together():
    """9.81 EXAMPLE: 2) with any number of Knights and/or Men at Arms adjacent to the
    Dragon; the hero may then not take part."""
    sc = game()
    force = knights_and_maa(sc)
    hero = sc.put(0, HERO, "0903")
    to_dragon_segment(sc)
    join(sc, "1004")
    assert "join dragon attack from 0903" not in sc.legal()   # no hero with others
    join(sc, "0805", "0905")
    sc.load_dice(1, 1)                 # 2 + 2 + 1 + 2 = 7: all attackers are wounded
    sc.act("done")
    assert all(sc.loc(u) == cell("Sunken Cottage") for u in force)
    assert sc.loc(hero) == cell("0903") and not wounded(sc, hero)


# ------------------------------------------------------------------ 9.82, 9.71, 9.842
def test_9_82_total_of_strengths_plus_two_dice():
    """9.82: total the combat strengths of the attackers and add two dice: strength 5
    and dice of (wound total - 5) reach the first row that wounds him."""
    sc = game()
    knights_and_maa(sc)
    to_dragon_segment(sc)
    attack(sc, "1004", "0805", "0905", dice=WOUND_AT - 5)
    assert int(sc.s["wounds"][0]) == 1


def test_9_82_one_point_short_does_not_wound():
    """9.82: the same force one point lower reads the row below (no wound)."""
    sc = game()
    knights_and_maa(sc)
    to_dragon_segment(sc)
    attack(sc, "1004", "0805", "0905", dice=WOUND_AT - 6)
    assert int(sc.s["wounds"][0]) == 0


@pytest.mark.parametrize("in_lair, enraged, minus", [
    (False, False, 0), (True, False, 2), (False, True, 2), (True, True, 4)])
def test_9_82_minus_two_enraged_and_minus_two_in_his_lair(in_lair, enraged, minus):
    """9.82, 9.71, 9.842: subtract 2 if Brimstone is enraged and 2 if he is in his
    lair (his lair's terrain value; no other terrain counts for him -- the mountain
    0904 gives him nothing)."""
    for extra, wounds in ((minus, 1), (minus - 1, 0)):
        if extra < 0:
            continue
        sc = game(dragon="Lair of Brimstone" if in_lair else MOUNTAIN, enraged=enraged)
        cells = ("0806", "0607", "0707") if in_lair else ("1004", "0805", "0905")
        sc.put(0, KNIGHT, cells[0])
        sc.put(0, KNIGHT, cells[1])
        sc.put(0, MAN_AT_ARMS, cells[2])
        to_dragon_segment(sc)
        attack(sc, *cells, dice=WOUND_AT - 5 + extra)
        assert int(sc.s["wounds"][0]) == wounds, (extra, wounds)


# ------------------------------------------------------------------ 9.821, 9.822
def test_9_821_without_a_marker_the_first_wound_column():
    """9.821: with no wound marker yet, the 1ST WOUND column: 8 = "One attacker dies"
    (printed) -- the attacker picks which."""
    assert D.COMBAT_TABLE[COL_FIRST_WOUND, 8] == R_ONE_KILLED
    sc = game()
    a = sc.put(0, KNIGHT, "1004")
    b = sc.put(0, KNIGHT, "0805")
    to_dragon_segment(sc)
    sc.load_dice(2, 2)                              # 4 + 4 = 8
    join(sc, "1004", "0805")
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_CASUALTY, 0)
    assert set(sc.legal()) == {"casualty at 1004", "casualty at 0805"}
    sc.act("casualty at 0805")
    assert sc.loc(b) == LOC_DEAD and sc.loc(a) == cell("1004")


def test_9_822_with_a_marker_the_second_or_third_wound_column():
    """9.822: holding a wound marker, the 2ND or 3RD WOUND column: 8 = "All attackers
    are wounded" (printed)."""
    assert D.COMBAT_TABLE[COL_LATER_WOUND, 8] == R_ALL_WOUNDED
    sc = game()
    sc.s["wounds"][0] = 1
    a = sc.put(0, KNIGHT, "1004")
    b = sc.put(0, KNIGHT, "0805")
    to_dragon_segment(sc)
    sc.load_dice(2, 2)
    join(sc, "1004", "0805")
    sc.act("done")
    assert sc.loc(a) == cell("Sunken Cottage") and sc.loc(b) == cell("Sunken Cottage")


def test_9_822_a_bad_later_attempt_loses_a_man_and_brings_brimstone_on_your_castle():
    """9.822 with the table's "6 or less": one attacker killed, Brimstone attacks your
    castle and returns to his lair (his attack on the castle appeases him, 9.841)."""
    assert D.COMBAT_TABLE[COL_LATER_WOUND, 3] == R_ONE_KILLED_ATTACKS_CASTLE
    assert D.COMBAT_TABLE[COL_STRUCTURE, 4] == R_OCCUPANTS_DIE_1 + 4
    sc = game(enraged=True)
    sc.s["wounds"][0] = 2
    m = sc.put(0, MAN_AT_ARMS, "1004")
    garrison = sc.put(0, KNIGHT, "Sunken Castle", n=2)
    to_dragon_segment(sc)
    sc.load_dice(2, 2,           # 1 + 4 - 2 (enraged) = 3
                 2, 2)           # the castle: 4 + 2 - 2 = 4, "five occupants die"
    join(sc, "1004")
    sc.act("done")
    assert sc.loc(m) == LOC_DEAD
    assert all(sc.loc(u) == LOC_DEAD for u in garrison)
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL
    assert int(sc.s["enraged"]) == 0


# ------------------------------------------------------------------ 9.83, 9.84x
def test_9_83_a_wound_earns_a_dragon_wound_marker():
    """9.83: if the result says the Dragon is wounded, the attacking player receives a
    DRAGON WOUND MARKER; the third lets him use his Magesword (13)."""
    sc = game()
    sc.s["wounds"][0] = 2
    sc.s["wounds"][1] = 1
    sc.put(0, HERO, "1004")
    sc.put(0, KNIGHT, "Sunken Castle")               # he holds his castle (13.1, 13.11)
    to_dragon_segment(sc)
    t = first_total(COL_LATER_WOUND, R_DRAGON_WOUNDED)
    attack(sc, "1004", dice=t - 5)
    assert [int(w) for w in sc.s["wounds"][:2]] == [3, 1]
    assert int(sc.s["sword_loc"][0]) == cell("Sunken Castle")


def test_9_84_wounding_brimstone_enrages_him():
    """9.84: when a player wounds the Dragon, Brimstone becomes enraged."""
    sc = game()
    knights_and_maa(sc)
    assert int(sc.s["enraged"]) == 0
    to_dragon_segment(sc)
    attack(sc, "1004", "0805", "0905", dice=WOUND_AT - 5)
    assert int(sc.s["enraged"]) == 1
    assert int(sc.s["enraged_until"]) == int(sc.s["brimstone_rounds"]) + 1


def test_9_841_rage_lasts_until_the_end_of_his_next_round():
    """9.841, 9.843: he stays enraged until the END OF HIS NEXT ROUND."""
    sc = game()
    knights_and_maa(sc)
    to_dragon_segment(sc)
    attack(sc, "1004", "0805", "0905", dice=WOUND_AT - 5)
    R.enter_brimstone_round(sc.S, 0)                 # his next round ...
    assert int(sc.s["enraged"]) == 1
    R.end_brimstone_round(sc.S, 0)                   # ... completed
    assert int(sc.s["enraged"]) == 0


def test_9_841_killing_units_in_the_open_does_not_appease_him():
    """9.841: player units killed outside castles, villages and cottages do NOT
    appease his rage; an attack on a structure does."""
    sc = game(enraged=True)
    u = sc.put(0, MAN_AT_ARMS, MOUNTAIN)
    sc.load_dice(1, 1)
    R.dragon_attacks_piece(sc.S, 0, cell(MOUNTAIN))
    assert sc.loc(u) == LOC_DEAD and int(sc.s["enraged"]) == 1
    sc.put(0, MAN_AT_ARMS, "Sunken Village")
    sc.load_dice(6, 6)
    R.dragon_attacks_structure(sc.S, 0, cell("Sunken Village"))
    assert int(sc.s["enraged"]) == 0


def test_9_842_his_rage_counts_against_rolls_taken_against_his_attacks():
    """9.842: while enraged, the -2 applies to any rolls taken by, or against, him:
    a knight that is unharmed at the lowest safe total is hurt when he is enraged."""
    t = first_total(COL_SINGLE_PIECE, R_DEFENDER_UNHARMED)
    for enraged, safe in ((False, True), (True, False)):
        sc = game(enraged=enraged)
        k = sc.put(0, KNIGHT, "0302")              # open ground: defends 2
        sc.load_dice(*dice_summing_to(t - 2))
        R.dragon_attacks_piece(sc.S, 0, cell("0302"))
        assert (sc.loc(k) == cell("0302")) is safe


def test_9_844_a_change_of_morale_is_immediate():
    """9.844: the morale change occurs immediately: the next player's attempt in the
    same round already suffers the -2 (9 becomes 7: all attackers wounded instead of
    one)."""
    assert D.COMBAT_TABLE[COL_FIRST_WOUND, 9] == R_ONE_WOUNDED
    assert D.COMBAT_TABLE[COL_FIRST_WOUND, 7] == R_ALL_WOUNDED
    sc = game()
    sc.put(0, HERO, "1004")
    p1 = [sc.put(1, KNIGHT, "0805"), sc.put(1, KNIGHT, "0905")]
    to_dragon_segment(sc)
    attack(sc, "1004", dice=WOUND_AT - 5)          # player 0 wounds him
    assert int(sc.s["enraged"]) == 1
    sc.act("done")
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_DRAGON_FORCE, 1)
    sc.load_dice(2, 3)                             # 4 + 5 = 9, enraged: 7
    join(sc, "0805", "0905")
    sc.act("done")
    assert all(sc.loc(u) == cell("Ironcrag Cottage") for u in p1)


# ------------------------------------------------------------------ 9.85
def test_9_85_one_attempt_then_the_round_is_over():
    """9.85: a player makes one attempt; whatever the result his round is over and
    the dice pass to the next player (units still next to Brimstone may not go again)."""
    assert D.COMBAT_TABLE[COL_FIRST_WOUND, 9] == R_ONE_WOUNDED
    sc = game()
    a = sc.put(0, KNIGHT, "1004")
    b = sc.put(0, KNIGHT, "0805")
    c = sc.put(0, KNIGHT, "0905")
    to_dragon_segment(sc)
    join(sc, "1004", "0805")
    sc.load_dice(2, 3)                               # 2 + 2 + 5 = 9: one is wounded
    sc.act("done")
    sc.act("casualty at 1004")
    assert sc.loc(a) == cell("Sunken Cottage")
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 1)
    assert sc.loc(b) == cell("0805") and sc.loc(c) == cell("0905")


# ------------------------------------------------------------------ 9.86, 9.861
@pytest.mark.parametrize("dragon, sides", [("0601", 2), ("0500", 1)])
def test_9_86_one_unit_per_adjacent_structure_hexside(dragon, sides):
    """9.86: Brimstone next to the attacker's castle: ONE UNIT per ADJACENT STRUCTURE
    HEXSIDE may attack out of it (Elderwood Castle is two hexes: 0601 touches it along
    two hexsides, 0500 along one)."""
    assert int(D.HEXSIDES[cell("Elderwood Castle"), cell(dragon)]) == sides
    sc = game(kingdoms=("Elderwood", "Ironcrag"), dragon=dragon)
    knights = sc.put(0, KNIGHT, "Elderwood Castle", n=4)
    to_dragon_segment(sc)
    for _ in range(sides):
        sc.act("join dragon attack from Elderwood Castle")
    assert sc.legal() == ["done"]
    sc.load_dice(1, 1)                               # a weak attack: all wounded (<= 7)
    sc.act("done")
    hurt = [u for u in knights if sc.loc(u) != cell("Elderwood Castle")]
    assert len(hurt) == sides


def test_9_861_any_unit_in_the_structure_except_a_sniper():
    """9.861: any unit in the structure, except a SNIPER, may engage, the rules of the
    Dragon attack (9.81: the hero alone) still holding."""
    sc = game(kingdoms=("Elderwood", "Ironcrag"), dragon="0601")
    sc.put(0, SNIPER, "Elderwood Castle")
    sc.put(0, KNIGHT, "Elderwood Castle")
    sc.put(0, MAN_AT_ARMS, "Elderwood Castle")
    hero = sc.put(0, HERO, "Elderwood Castle")
    to_dragon_segment(sc)
    sc.act("join dragon attack from Elderwood Castle")
    assert sc.phase == R.PH_FORCE_TYPE
    assert sc.legal() == ["type hero", "type knight", "type man-at-arms"]
    sc.act("type knight")
    castle = cell("Elderwood Castle")
    assert R.force_candidate(sc.S, 0, 0, castle, HERO) == -1      # not with others
    assert R.force_candidate(sc.S, 0, 0, castle, SNIPER) == -1
    sc.act("join dragon attack from Elderwood Castle")            # the man-at-arms
    assert sc.legal() == ["done"]                                 # two hexsides, two units
    assert int(R.force_strength(sc.S, 0, 0)) == 3
    assert sc.loc(hero) == cell("Elderwood Castle")
