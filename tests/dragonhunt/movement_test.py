"""Dragonhunt 9.3-9.33 and 9.14: movement points, what may be entered, terrain
costs, castles and villages as one space, and the end-of-movement stacking rule.

Player 0 holds Sunken, player 1 Ironcrag; the other kingdoms are empty (their
castles, villages and cottages belong to no player).
"""
import pytest

from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import HERO, KNIGHT, MAN_AT_ARMS, TROLL
from dragongym.envs.dragonhunt.state import LOC_DEAD
from tests.dragonhunt.scenario import Scenario, cell

KINGDOMS = ("Sunken", "Ironcrag")


def game(**kw):
    sc = Scenario(num_players=2, kingdoms=KINGDOMS, **kw)
    sc.no_beings()
    return sc


def start(sc, card=9, mp=None):
    """Player 0 starts his round (first in the order) with movement card ``card``."""
    sc.start_player_round(order=[0, 1], cards=[card, 12])
    if mp is not None:
        sc.s["mp_left"] = mp
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 0)


def destinations(sc, where, unit_type=None):
    """Select the unit at ``where`` and list the spaces it may move to."""
    sc.act(f"select unit at {where}")
    if sc.phase == R.PH_MOVE_TYPE:
        sc.act(f"type {['hero', 'sniper', 'knight', 'man-at-arms'][unit_type]}")
    assert sc.phase == R.PH_MOVE_DEST
    return {a[len("move to "):] for a in sc.legal()}


def move(sc, src, dst, unit_type=None):
    sc.act(f"select unit at {src}")
    if sc.phase == R.PH_MOVE_TYPE:
        sc.act(f"type {['hero', 'sniper', 'knight', 'man-at-arms'][unit_type]}")
    sc.act(f"move to {dst}")


# ------------------------------------------------------------------ 9.3, 9.31
def test_9_31_movement_points_equal_the_card_played():
    """9.31: if your card is a 10, you will have 10 movement points."""
    sc = game()
    sc.start_card_segment()
    sc.play_cards(10, 12)
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 0)
    assert int(sc.s["mp_left"]) == 10
    sc.act("done")
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 1)
    assert int(sc.s["mp_left"]) == 12


def test_9_3_movement_points_are_spent_only_in_the_movement_segment():
    """9.3: movement points may never be expended in any other segment."""
    sc = game()
    k = sc.put(0, KNIGHT, "0302")
    start(sc)
    move(sc, "0302", "0402")
    assert int(sc.s["mp_left"]) == 8
    sc.act("done")
    assert sc.phase == R.PH_COMBAT_SELECT
    assert not any(a.startswith(("select unit", "move to")) for a in sc.legal())
    sc.act("done")
    assert sc.loc(k) == cell("0402")


# ------------------------------------------------------------------ 9.311
def test_example_9_311_nine_points_hero_3_knight_2_four_men_at_arms_1():
    """9.311 EXAMPLE: a player has NINE movement points. He moves his Hero 3MP, a
    Knight 2MP and four Men at Arms 1MP each. He may not exceed nine in total."""
    sc = game()
    hero = sc.put(0, HERO, "0202")
    knight = sc.put(0, KNIGHT, "1003")
    maa = [sc.put(0, MAN_AT_ARMS, w) for w in ("0907", "0808", "0608", "1009")]
    start(sc, card=9)
    assert int(sc.s["mp_left"]) == 9
    move(sc, "0202", "0502")                      # three open spaces: 3 MP
    assert int(sc.s["mp_left"]) == 6
    move(sc, "1003", "0903")                      # into a swamp: 2 MP
    assert int(sc.s["mp_left"]) == 4
    move(sc, "0907", "1007")
    move(sc, "0808", "0708")
    move(sc, "0608", "0607")
    assert int(sc.s["mp_left"]) == 1
    # one point left: open ground yes, forest or swamp (2 MP) no
    assert destinations(sc, "1009") == {"1108"}
    sc.act("move to 1108")
    assert int(sc.s["mp_left"]) == 0
    assert sc.legal() == ["done"]                 # never more than nine
    assert [sc.loc(u) for u in [hero, knight] + maa] == \
        [cell(w) for w in ("0502", "0903", "1007", "0708", "0607", "1108")]


def test_9_311_all_points_may_go_to_one_unit():
    """9.311: he could, just as legally, have moved any one piece 9MP."""
    sc = game()
    sc.put(0, KNIGHT, "0202")
    start(sc, card=9)
    move(sc, "0202", "0502")
    move(sc, "0502", "0403")
    assert int(sc.s["mp_left"]) == 5
    move(sc, "0403", "0404")                      # a mountain: 3 MP
    move(sc, "0404", "0504")                      # a forest: 2 MP
    assert int(sc.s["mp_left"]) == 0


# ------------------------------------------------------------------ 9.312, 9.313
def test_9_312_no_entry_into_enemy_unit_being_or_dragon():
    """9.312: movement is to an adjacent space NOT occupied by an ENEMY UNIT,
    FANTASTIC BEING or DRAGON."""
    sc = game()
    sc.put(0, KNIGHT, "0302")
    sc.put(1, MAN_AT_ARMS, "0402")
    sc.being(0, TROLL, "0403")
    sc.dragon("0203")
    start(sc, mp=12)
    near = destinations(sc, "0302")
    assert {"0402", "0403", "0203"}.isdisjoint(near)
    assert {"0202", "0301", "0303"} <= near


def test_9_312_enemy_units_block_the_way_own_units_do_not():
    """9.312: every step goes to a space not held by an enemy; one's own units may be
    passed through (stacking only counts at the end of movement, 9.14)."""
    for blocker, reachable in ((1, False), (0, True)):
        sc = game()
        sc.put(0, KNIGHT, "0202")
        sc.put(blocker, MAN_AT_ARMS, "0302")
        start(sc, mp=2)          # 0402 costs 2 only through 0302 (via the forest 3)
        assert ("0402" in destinations(sc, "0202")) is reachable


def test_9_313_no_entry_into_enemy_or_non_player_cottages():
    """9.313, 9.321: units may not be moved into ENEMY or NON-PLAYER cottages, at any
    cost."""
    sc = game()
    sc.put(0, KNIGHT, "0402")
    sc.put(0, KNIGHT, "1404")
    start(sc, card=12)
    assert "Elderwood Cottage" not in destinations(sc, "0402")    # nobody's cottage
    sc.act("move to 0302")
    assert "Ironcrag Cottage" not in destinations(sc, "1404")     # the enemy's, empty


def test_9_313_own_cottage_may_be_entered_for_one_point():
    """9.313 allows one's own cottage (substitute: entering it costs 1 MP)."""
    sc = game()
    k = sc.put(0, KNIGHT, "0711")
    start(sc, mp=1)
    move(sc, "0711", "Sunken Cottage")
    assert sc.loc(k) == cell("Sunken Cottage")
    assert int(sc.s["mp_left"]) == 0


# ------------------------------------------------------------------ 9.32, 9.321, 9.322
@pytest.mark.parametrize("src, dst, cost", [
    ("0302", "0402", 1),                   # open
    ("0302", "0301", 2),                   # forest
    ("0302", "0303", 3),                   # mountain
    ("1003", "0903", 2),                   # swamp
    ("0705", "Lair of Brimstone", 4),      # Dragon's lair (Brimstone away)
    ("1007", "Hollow Tree", 3),            # Being lair (its being away)
    ("0204", "Stonehelm Castle", 1),       # empty castle
    ("0203", "Stonehelm Village", 1),      # empty village
])
def test_9_32_terrain_cost_chart(src, dst, cost):
    """9.32 Terrain Cost Chart: open 1, forest 2, mountain 3, swamp 2, Dragon's lair
    4, Being lair 3, empty castle 1, empty village 1."""
    for mp, ok in ((cost, True), (cost - 1, False)):
        sc = game()
        sc.dragon("0912")
        sc.put(0, KNIGHT, src)
        start(sc, mp=mp)
        if mp == 0:
            assert sc.legal() == ["done"]
            continue
        assert (dst in destinations(sc, src)) is ok, (dst, mp)


@pytest.mark.parametrize("src, cottage", [("0402", "Elderwood Cottage"), ("1404", "Ironcrag Cottage")])
def test_9_321_no_means_never(src, cottage):
    """9.321: NO means that no movement is allowed into these spaces at any time
    (empty or enemy cottages)."""
    sc = game()
    sc.put(0, KNIGHT, src)
    start(sc, mp=12)
    assert cottage not in destinations(sc, src)


def test_9_322_a_castle_is_empty_only_without_units():
    """9.322: a castle or village is empty if there are no units in it; a garrisoned
    one is enemy ground (9.312)."""
    sc = game()
    sc.put(0, KNIGHT, "0204")
    sc.put(3, KNIGHT, "Stonehelm Castle")                 # a non-player garrison
    start(sc, mp=12)
    assert "Stonehelm Castle" not in destinations(sc, "0204")
    sc2 = game()
    sc2.put(0, KNIGHT, "0204")
    start(sc2, mp=1)
    assert "Stonehelm Castle" in destinations(sc2, "0204")


# ------------------------------------------------------------------ 9.33
def test_9_33_a_castle_is_one_space_whatever_its_size():
    """9.33: the cost to move through a friendly or empty castle is 1MP; it is ONE
    SPACE regardless of size. From 0500 (beside one hex of Elderwood Castle) to the
    swamp 0701 (beside its other hex) is 1 + 2 = 3 MP through the castle."""
    for friendly in (False, True):
        sc = game()
        sc.put(0, KNIGHT, "0500")
        sc.put(1, MAN_AT_ARMS, "0601")                  # closes the way round
        if friendly:
            sc.put(0, KNIGHT, "Elderwood Castle")
        start(sc, mp=3)
        assert "0701" in destinations(sc, "0500")
        sc.act("move to 0701")
        assert int(sc.s["mp_left"]) == 0


def test_9_33_enemy_castle_is_not_passed_through():
    """9.33 applies to friendly or empty castles only; an occupied enemy one blocks."""
    sc = game()
    sc.put(0, KNIGHT, "0500")
    sc.put(1, MAN_AT_ARMS, "0601")
    sc.put(2, KNIGHT, "Elderwood Castle")
    start(sc, mp=3)
    assert "0701" not in destinations(sc, "0500")


# ------------------------------------------------------------------ 9.14
def test_9_14_stacked_units_at_the_end_of_movement_are_all_removed():
    """9.14: no more than one unit may occupy a space at the end of your movement
    segment; if violated, ALL units in the space go to the replacement pile."""
    sc = game()
    a = sc.put(0, KNIGHT, "0302")
    b = sc.put(0, MAN_AT_ARMS, "0403")
    start(sc)
    move(sc, "0302", "0402")
    move(sc, "0403", "0402")
    assert sc.units_at("0402") == [a, b]               # stacking is fine meanwhile
    sc.act("done")
    assert sc.loc(a) == LOC_DEAD and sc.loc(b) == LOC_DEAD
    assert sc.units_at("0402") == []


def test_9_14_passing_through_own_units_is_no_stack():
    """9.14 looks at the END of movement only: a space shared on the way is legal."""
    sc = game()
    a = sc.put(0, KNIGHT, "0302")
    b = sc.put(0, MAN_AT_ARMS, "0402")
    start(sc)
    move(sc, "0302", "0402")
    move(sc, "0402", "0502", MAN_AT_ARMS)
    sc.act("done")
    assert sc.loc(a) == cell("0402") and sc.loc(b) == cell("0502")


@pytest.mark.parametrize("where", ["Sunken Castle", "Sunken Village", "Sunken Cottage"])
def test_9_14_castles_villages_and_cottages_may_hold_many(where):
    """9.14: unless units are located in a Castle, Village or Cottage."""
    sc = game()
    units = sc.put(0, KNIGHT, where, n=3)
    start(sc)
    sc.act("done")
    assert all(sc.loc(u) == cell(where) for u in units)


def test_9_14_each_player_is_checked_at_the_end_of_his_own_movement():
    """9.14: units may not be stacked at the end of YOUR movement: the mover's units
    are checked when his movement segment ends, another player's at the end of his.
    Player 1 stacks two knights during his own segment; player 0's segment
    ending before it leaves player 1's knights alone, and player 1's own end
    removes his stack."""
    sc = game()
    mine = sc.put(0, KNIGHT, "0302")
    theirs = sc.put(1, KNIGHT, "1103"), sc.put(1, KNIGHT, "1203")
    start(sc)
    sc.act("done")                                  # player 0's movement ends
    assert sc.loc(mine) == cell("0302")
    assert [sc.loc(u) for u in theirs] == [cell("1103"), cell("1203")]
    sc.act("done")                                  # player 0's combat ends
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 1)
    move(sc, "1203", "1103")
    assert sorted(sc.units_at("1103")) == sorted(theirs)   # stacked while he moves
    sc.act("done")                                  # player 1's movement ends
    assert all(sc.loc(u) == LOC_DEAD for u in theirs)
    assert sc.loc(mine) == cell("0302")
