"""The Dragon Cards: rules 7.6-7.68.

A card is drawn when an attempt to wound Brimstone (9.8) lands on "draw a
dragon card" on the combat table. Each test lets a player attack him, loads the
dice that make the total a DRAW_CARD result (read from ``data.COMBAT_TABLE``:
those cells are substitutes), fixes the card with ``load_card`` and checks
what the card did.
"""
import numpy as np

from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import (
    HERO, KNIGHT, MAN_AT_ARMS, REVIVOR, DECK_SIZE,
    COL_FIRST_WOUND, COL_LATER_WOUND, COL_SINGLE_PIECE, COL_STRUCTURE, COL_DO_OR_DIE,
    R_DRAW_CARD, R_DRAGON_WOUNDED, R_THREE_KILLED, R_ALL_KILLED, R_DEFENDER_KILLED,
    R_OCCUPANTS_DIE_1,
    CARD_DO_OR_DIE, CARD_ATTACKS_CASTLE_OF_CHOICE, CARD_ATTACKS_VILLAGE_OF_CHOICE,
    CARD_ATTACKS_COTTAGE_OF_CHOICE, CARD_MOVES_FIVE_OF_CHOICE, CARD_ATTACKS_YOUR_CASTLE,
    CARD_ATTACKS_YOUR_VILLAGE, CARD_ATTACKS_YOUR_COTTAGE, CARD_KILLS_ADJACENT,
    CARD_WOUNDS_ADJACENT, CARD_KILLS_WITHIN_TWO, CARD_WOUNDS_WITHIN_TWO,
    CARD_KILLS_ATTACKING_FORCE, CARD_WOUNDS_ATTACKING_FORCE, CARD_KILLS_TWO,
    CARD_FLIES_SIX_RANDOM, CARD_NAP, CARD_FLAMES_YOUR_COTTAGE, CARD_FLAMES_COTTAGE_OF_CHOICE,
)
from dragongym.envs.dragonhunt.state import LOC_DEAD, F_WOUNDED
from tests.dragonhunt.scenario import Scenario, cell, step, dice_summing_to

LAIR = "Lair of Brimstone"
N, NE, SE, S, SW, NW = 1, 2, 3, 4, 5, 6
SPOT = "0708"                     # Brimstone in the open; neighbours 0707 0808 0809 0709 0609 0608


def table(col, total):
    return int(R.table_result(col, total))


def dice_for(col, result, modifier):
    """Two dice that make ``2d6 + modifier`` read ``result`` in column ``col``."""
    for t in range(2, 13):
        if table(col, t + modifier) == result:
            return dice_summing_to(t)
    raise AssertionError(f"no roll gives result {result} in column {col} at {modifier:+d}")


def card_dice(sc, p, strength):
    """Dice for seat p's attack of ``strength`` to draw a dragon card (9.82, 9.71, 9.842)."""
    col = COL_FIRST_WOUND if int(sc.s["wounds"][p]) == 0 else COL_LATER_WOUND
    mod = strength - (2 if sc.s["enraged"] else 0) - (2 if int(sc.s["dragon_cell"]) == R.LAIR_CELL else 0)
    return dice_for(col, R_DRAW_CARD, mod)


def attack(sc, p, cells, dice, card=None, order=None):
    """Seat p, first in the round order, skips movement and combat and attacks
    Brimstone with the units on ``cells``; the next dice are ``dice``."""
    n = int(sc.s["num_players"])
    order = order or [p] + [q for q in range(n) if q != p]
    sc.start_player_round(order)
    assert sc.to_play == p
    sc.act("done")                                          # movement segment
    sc.act("done")                                          # combat segment
    for c in cells:
        sc.act(f"join dragon attack from {c}")
    if card is not None:
        sc.load_card(card)
    sc.load_dice(*dice)
    sc.act("done")


def two_knights(sc, p=0):
    """Brimstone on SPOT, seat p's knights on 0707 and 0808 (strength 4)."""
    sc.dragon(SPOT)
    return sc.put(p, KNIGHT, "0707"), sc.put(p, KNIGHT, "0808")


def wounded(sc, u):
    """Unit u was wounded: it lies in its home cottage (7.52). (Its wounded flag
    is cleared again when its owner's round starts, 9.5.)"""
    p = int(R.UNIT_COLOUR[u])
    return sc.loc(u) == int(D.COTTAGE_CELL[sc.s["kingdom"][p]])


def next_players_round_started(sc, q):
    return sc.phase == R.PH_MOVE_SELECT and sc.to_play == q


# ------------------------------------------------------------------ 7.6
def test_rule_7_6_draw_card_result_draws_a_card_from_the_deck():
    sc = Scenario(num_players=2)
    two_knights(sc)
    full = int(sc.s["deck_left"])
    assert full == (1 << DECK_SIZE) - 1
    attack(sc, 0, ["0707", "0808"], card_dice(sc, 0, 4))   # no card loaded: a random one
    # exactly one card left the deck, and it is the one that was carried out
    gone = full ^ int(sc.s["deck_left"])
    assert bin(gone).count("1") == 1
    assert int(sc.s["sel_type"]) == int(D.DECK[gone.bit_length() - 1])


def test_rule_7_6_the_draw_is_uniform_over_the_cards_left():
    sc = Scenario(num_players=2)
    two_knights(sc)
    nap = int(np.flatnonzero(D.DECK == CARD_NAP)[0])
    dice = card_dice(sc, 0, 4)
    sc.start_player_round([0, 1])
    sc.act("done")
    sc.act("done")
    sc.act("join dragon attack from 0707")
    sc.act("join dragon attack from 0808")
    sc.load_dice(*dice)
    sc.load_rolls(nap)                                      # the draw: the nap-th card left
    sc.act("done")
    assert int(sc.s["deck_left"]) == ((1 << DECK_SIZE) - 1) & ~(1 << nap)
    assert int(sc.s["asleep_until"]) == int(sc.s["brimstone_rounds"]) + 1


# ------------------------------------------------------------------ 7.61
def test_rule_7_61_do_or_die_fights_on_until_brimstone_is_wounded():
    sc = Scenario(num_players=2)
    sc.dragon(SPOT)
    k1, k2 = sc.put(0, KNIGHT, "0707"), sc.put(0, KNIGHT, "0808")
    m1, m2 = sc.put(0, MAN_AT_ARMS, "0809"), sc.put(0, MAN_AT_ARMS, "0709")
    first = card_dice(sc, 0, 6)
    # do or die at 6 + 1 + 1 = 8: three attackers killed (printed); then the last knight
    assert table(COL_DO_OR_DIE, 8) == R_THREE_KILLED
    assert table(COL_FIRST_WOUND, 8) != R_THREE_KILLED                 # the column matters
    last = dice_for(COL_DO_OR_DIE, R_DRAGON_WOUNDED, 2)
    attack(sc, 0, ["0707", "0808", "0809", "0709"], (*first, 1, 1, *last), card=CARD_DO_OR_DIE)
    assert sc.phase == R.PH_CASUALTY and sc.to_play == 0
    for c in ("0809", "0709", "0707"):
        sc.act(f"casualty at {c}")
    assert [sc.loc(u) for u in (m1, m2, k1)] == [LOC_DEAD] * 3
    # it fought on with the last knight and wounded him
    assert sc.dice_left() == 0
    assert sc.loc(k2) == cell("0808")
    assert int(sc.s["wounds"][0]) == 1 and int(sc.s["enraged"]) == 1
    assert int(sc.s["do_or_die"]) == 0
    assert next_players_round_started(sc, 1)


def test_rule_7_61_do_or_die_ends_when_all_attackers_have_fallen():
    sc = Scenario(num_players=2)
    k1, k2 = two_knights(sc)
    first = card_dice(sc, 0, 4)
    assert table(COL_DO_OR_DIE, 4 + 2) == R_ALL_KILLED
    attack(sc, 0, ["0707", "0808"], (*first, 1, 1, 6, 6), card=CARD_DO_OR_DIE)
    assert sc.loc(k1) == LOC_DEAD and sc.loc(k2) == LOC_DEAD
    assert sc.dice_left() == 2                              # no further roll
    assert int(sc.s["wounds"][0]) == 0
    assert next_players_round_started(sc, 1)


# ------------------------------------------------------------------ 7.62
def test_rule_7_62_castle_of_your_choice_any_castle_on_the_board():
    sc = Scenario(num_players=2)
    two_knights(sc)
    garrison = sc.put(4, KNIGHT, "Greymoor Castle", n=4)    # nobody's kingdom, 3.21
    attack(sc, 0, ["0707", "0808"], (*card_dice(sc, 0, 4), 3, 3), card=CARD_ATTACKS_CASTLE_OF_CHOICE)
    assert sc.phase == R.PH_CARD_STRUCT and sc.to_play == 0
    assert sorted(sc.legal()) == sorted(f"Brimstone strikes {k} Castle" for k in D.KINGDOM_NAMES)
    sc.act("Brimstone strikes Greymoor Castle")
    # 6 + castle 2 = 8: three occupants die (printed row)
    assert table(COL_STRUCTURE, 8) == R_OCCUPANTS_DIE_1 + 2
    assert sum(sc.loc(u) < 0 for u in garrison) == 3
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL          # 7.541


def test_rule_7_62_village_of_your_choice():
    sc = Scenario(num_players=2)                            # seat 1 is Ironcrag
    two_knights(sc)
    men = sc.put(1, MAN_AT_ARMS, "Ironcrag Village", n=6)
    attack(sc, 0, ["0707", "0808"], (*card_dice(sc, 0, 4), 3, 3), card=CARD_ATTACKS_VILLAGE_OF_CHOICE)
    assert sorted(sc.legal()) == sorted(f"Brimstone strikes {k} Village" for k in D.KINGDOM_NAMES)
    sc.act("Brimstone strikes Ironcrag Village")
    dead = table(COL_STRUCTURE, 6 + 1) - R_OCCUPANTS_DIE_1 + 1
    assert sum(sc.loc(u) == LOC_DEAD for u in men) == dead
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL


def test_rule_7_62_cottage_of_your_choice_is_attacked_as_in_7_65():
    sc = Scenario(num_players=2)
    two_knights(sc)
    healing = sc.put(1, KNIGHT, "Ironcrag Cottage", flags=F_WOUNDED)
    attack(sc, 0, ["0707", "0808"], (*card_dice(sc, 0, 4), 4, 5), card=CARD_ATTACKS_COTTAGE_OF_CHOICE)
    assert sorted(sc.legal()) == sorted(f"Brimstone strikes {k} Cottage" for k in D.KINGDOM_NAMES)
    sc.act("Brimstone strikes Ironcrag Cottage")
    assert int(sc.s["flamed"][1]) == 1                      # 9 < 10: flamed
    assert sc.loc(healing) == LOC_DEAD


def five_space_path():
    """Five moves from SPOT entering no space twice and no structure."""
    path, c = [], cell(SPOT)
    for d in (S, S, SE, NE, N):
        c = step(c, d)
        path.append(c)
    assert len(set(path + [cell(SPOT)])) == 6
    assert not any(R.IS_STRUCTURE[c] for c in path)
    return path


def test_rule_7_62_five_spaces_of_your_choice_he_attacks_where_he_ends():
    from dragongym.envs.dragonhunt.game import cell_name
    path = five_space_path()
    sc = Scenario(num_players=2)
    two_knights(sc)
    passed = sc.put(1, MAN_AT_ARMS, path[1])
    target = sc.put(1, MAN_AT_ARMS, path[4])
    attack(sc, 0, ["0707", "0808"], (*card_dice(sc, 0, 4), 1, 1), card=CARD_MOVES_FIVE_OF_CHOICE)
    for i, c in enumerate(path):
        assert sc.phase == R.PH_FIVE_MOVE and sc.to_play == 0
        assert "done" not in sc.legal()                     # he must move five spaces
        sc.act(f"Brimstone to {cell_name(c)}")
        assert int(sc.s["dragon_cell"]) == c
    assert sc.loc(passed) == path[1]                        # passed over: not attacked
    total = 2 + 1 + int(D.DEFENSE[path[4]])
    assert table(COL_SINGLE_PIECE, total) == R_DEFENDER_KILLED
    assert sc.loc(target) == LOC_DEAD
    assert sc.dice_left() == 0
    assert int(sc.s["dragon_cell"]) == path[4]


def test_rule_7_62_five_spaces_no_space_is_entered_twice():
    from dragongym.envs.dragonhunt.game import cell_name
    path = five_space_path()
    sc = Scenario(num_players=2)
    two_knights(sc)
    attack(sc, 0, ["0707", "0808"], card_dice(sc, 0, 4), card=CARD_MOVES_FIVE_OF_CHOICE)
    offered = [sc.legal()]
    for c in path[:4]:
        sc.act(f"Brimstone to {cell_name(c)}")
        offered.append(sc.legal())
    visited = [cell(SPOT)] + path[:4]
    for i, legal in enumerate(offered):
        here = visited[i]
        for j in range(i):                                  # every space he has been on
            assert f"Brimstone to {cell_name(visited[j])}" not in legal
        # every other neighbouring hex is offered (no other restriction, 7.62)
        for d in range(1, 7):
            c = int(D.STEP[here, d])
            if c >= 0 and c not in visited[:i + 1]:
                assert f"Brimstone to {cell_name(c)}" in legal


# ------------------------------------------------------------------ 7.63
def test_rule_7_63_attacks_your_home_structure_when_you_hold_several():
    sc = Scenario(num_players=3)                            # seat 0 is Elderwood
    two_knights(sc)
    home = sc.put(0, KNIGHT, "Elderwood Castle", n=4)
    conquered = sc.put(0, KNIGHT, "Greymoor Castle", n=2)
    attack(sc, 0, ["0707", "0808"], (*card_dice(sc, 0, 4), 3, 3), card=CARD_ATTACKS_YOUR_CASTLE)
    assert sum(sc.loc(u) == LOC_DEAD for u in home) == 3    # 8: three die
    assert all(sc.loc(u) == cell("Greymoor Castle") for u in conquered)
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL
    assert next_players_round_started(sc, 1)


def test_rule_7_63_attacks_your_only_structure_of_the_type():
    sc = Scenario(num_players=3)
    two_knights(sc)
    held = sc.put(0, MAN_AT_ARMS, "Sunken Village", n=6)    # home village (Elderwood) is empty
    attack(sc, 0, ["0707", "0808"], (*card_dice(sc, 0, 4), 3, 3), card=CARD_ATTACKS_YOUR_VILLAGE)
    dead = table(COL_STRUCTURE, 6 + 1) - R_OCCUPANTS_DIE_1 + 1
    assert sum(sc.loc(u) == LOC_DEAD for u in held) == dead


def test_rule_7_631_player_to_your_left_picks_among_your_conquests():
    sc = Scenario(num_players=3)
    two_knights(sc)
    sc.put(1, KNIGHT, "Elderwood Castle", n=2)              # seat 1 holds seat 0's home castle
    sunken = sc.put(0, KNIGHT, "Sunken Castle", n=4)
    greymoor = sc.put(0, KNIGHT, "Greymoor Castle", n=4)
    attack(sc, 0, ["0707", "0808"], (*card_dice(sc, 0, 4), 3, 3), card=CARD_ATTACKS_YOUR_CASTLE)
    assert sc.phase == R.PH_CARD_STRUCT
    assert sc.to_play == 1                                  # the seat to the left of 0
    assert sorted(sc.legal()) == ["Brimstone strikes Greymoor Castle", "Brimstone strikes Sunken Castle"]
    sc.act("Brimstone strikes Sunken Castle")
    assert sum(sc.loc(u) == LOC_DEAD for u in sunken) == 3
    assert all(sc.loc(u) == cell("Greymoor Castle") for u in greymoor)


def test_rule_7_632_with_none_left_he_attacks_your_old_home_whoever_holds_it():
    sc = Scenario(num_players=3)
    two_knights(sc)
    occupiers = sc.put(2, KNIGHT, "Elderwood Castle", n=3)
    attack(sc, 0, ["0707", "0808"], (*card_dice(sc, 0, 4), 3, 3), card=CARD_ATTACKS_YOUR_CASTLE)
    assert all(sc.loc(u) == LOC_DEAD for u in occupiers)
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL


# ------------------------------------------------------------------ 7.641-7.645
def test_rule_7_641_kills_all_pieces_adjacent():
    sc = Scenario(num_players=2)
    k1, k2 = two_knights(sc)
    idle_own = sc.put(0, MAN_AT_ARMS, "0609")               # adjacent, not attacking
    enemy = sc.put(1, MAN_AT_ARMS, "0709")                  # adjacent
    far = sc.put(1, KNIGHT, "0710")                         # two spaces away
    sc.being(0, REVIVOR, "0608")                            # adjacent being
    attack(sc, 0, ["0707", "0808"], card_dice(sc, 0, 4), card=CARD_KILLS_ADJACENT)
    for u in (k1, k2, idle_own, enemy):
        assert sc.loc(u) == LOC_DEAD
    assert sc.loc(far) == cell("0710")
    assert not (int(sc.s["slot_being"][0]) == REVIVOR and int(sc.s["slot_loc"][0]) == cell("0608"))
    assert int(sc.s["slot_loc"][0]) == cell("Cave")         # a new being in its lair (7.513)


def test_rule_7_641_wounds_all_pieces_adjacent():
    sc = Scenario(num_players=2)
    k1, k2 = two_knights(sc)
    enemy = sc.put(1, MAN_AT_ARMS, "0709")
    far = sc.put(1, KNIGHT, "0710")
    sc.being(1, REVIVOR, "0608")
    attack(sc, 0, ["0707", "0808"], card_dice(sc, 0, 4), card=CARD_WOUNDS_ADJACENT)
    assert wounded(sc, k1) and wounded(sc, k2) and wounded(sc, enemy)
    assert sc.loc(far) == cell("0710")
    assert int(sc.s["slot_being"][1]) == REVIVOR
    assert int(sc.s["slot_loc"][1]) == cell("Hollow Tree")  # wounded being: home (7.514)


def test_rule_7_6411_attackers_from_a_castle_are_hit_the_rest_of_it_is_not():
    sc = Scenario(num_players=2)                            # seat 0 is Elderwood
    sc.dragon("0701")                                       # one hexside on Elderwood Castle
    castle = sc.put(0, KNIGHT, "Elderwood Castle", n=3)
    village = sc.put(0, MAN_AT_ARMS, "Elderwood Village", n=2)   # adjacent too, not attacking
    outside = sc.put(0, MAN_AT_ARMS, "0702")
    attack(sc, 0, ["Elderwood Castle", "0702"], card_dice(sc, 0, 3), card=CARD_KILLS_ADJACENT)
    assert sum(sc.loc(u) == LOC_DEAD for u in castle) == 1  # the one that came out
    assert sum(sc.loc(u) == cell("Elderwood Castle") for u in castle) == 2
    assert all(sc.loc(u) == cell("Elderwood Village") for u in village)
    assert sc.loc(outside) == LOC_DEAD


def test_rule_7_6412_cottages_give_no_cover():
    sc = Scenario(num_players=2, kingdoms=("Sunken", "Ironcrag"))
    sc.dragon("0912")                                       # next to Sunken Cottage
    attacker = sc.put(0, KNIGHT, "1012")
    resting = sc.put(0, KNIGHT, "Sunken Cottage", flags=F_WOUNDED)
    attack(sc, 0, ["1012"], card_dice(sc, 0, 2), card=CARD_KILLS_ADJACENT)
    assert sc.loc(attacker) == LOC_DEAD
    assert sc.loc(resting) == LOC_DEAD


def test_rule_7_642_kills_all_pieces_within_two_spaces():
    sc = Scenario(num_players=2)
    k1, k2 = two_knights(sc)
    two_away = [sc.put(1, KNIGHT, "0710"), sc.put(1, MAN_AT_ARMS, "0908")]
    three_away = sc.put(1, KNIGHT, "0711")
    assert R.SPACE_DIST[cell("0908"), cell(SPOT)] == 2 and R.SPACE_DIST[cell("0711"), cell(SPOT)] == 3
    attack(sc, 0, ["0707", "0808"], card_dice(sc, 0, 4), card=CARD_KILLS_WITHIN_TWO)
    for u in (k1, k2, *two_away):
        assert sc.loc(u) == LOC_DEAD
    assert sc.loc(three_away) == cell("0711")


def test_rule_7_642_castle_and_village_cover_applies_within_two_spaces():
    sc = Scenario(num_players=2)                            # seat 1 is Ironcrag
    sc.dragon("1305")                                       # two from Ironcrag Castle's hexes
    attacker = sc.put(0, KNIGHT, "1205")
    sheltered = sc.put(1, KNIGHT, "Ironcrag Castle", n=2)
    assert R.SPACE_DIST[cell("Ironcrag Castle"), cell("1305")] <= 2
    attack(sc, 0, ["1205"], card_dice(sc, 0, 2), card=CARD_KILLS_WITHIN_TWO)
    assert sc.loc(attacker) == LOC_DEAD
    assert all(sc.loc(u) == cell("Ironcrag Castle") for u in sheltered)


def test_rule_7_643_everyone_in_range_is_hit_whether_they_attacked_or_not():
    sc = Scenario(num_players=2)
    k1, k2 = two_knights(sc)
    bystanders = [sc.put(1, KNIGHT, "0710"), sc.put(0, MAN_AT_ARMS, "0508")]
    attack(sc, 0, ["0707", "0808"], card_dice(sc, 0, 4), card=CARD_WOUNDS_WITHIN_TWO)
    for u in (k1, k2, *bystanders):
        assert wounded(sc, u)


def test_rule_7_644_kills_only_the_attacking_force():
    sc = Scenario(num_players=2)
    k1, k2 = two_knights(sc)
    idle_own = sc.put(0, KNIGHT, "0709")                    # adjacent but not in the force
    enemy = sc.put(1, MAN_AT_ARMS, "0609")
    attack(sc, 0, ["0707", "0808"], card_dice(sc, 0, 4), card=CARD_KILLS_ATTACKING_FORCE)
    assert sc.loc(k1) == LOC_DEAD and sc.loc(k2) == LOC_DEAD
    assert sc.loc(idle_own) == cell("0709") and sc.loc(enemy) == cell("0609")


def test_rule_7_644_wounds_only_the_attacking_force():
    sc = Scenario(num_players=2)
    k1, k2 = two_knights(sc)
    idle_own = sc.put(0, KNIGHT, "0709")
    attack(sc, 0, ["0707", "0808"], card_dice(sc, 0, 4), card=CARD_WOUNDS_ATTACKING_FORCE)
    assert wounded(sc, k1) and wounded(sc, k2)
    assert sc.loc(idle_own) == cell("0709")


def test_rule_7_645_kills_two_the_attacker_chooses_which():
    sc = Scenario(num_players=2)
    k1, k2 = two_knights(sc)
    k3 = sc.put(0, KNIGHT, "0809")
    bystander = sc.put(0, KNIGHT, "0709")
    attack(sc, 0, ["0707", "0808", "0809"], card_dice(sc, 0, 6), card=CARD_KILLS_TWO)
    assert sc.phase == R.PH_CASUALTY and sc.to_play == 0
    assert sorted(sc.legal()) == ["casualty at 0707", "casualty at 0808", "casualty at 0809"]
    sc.act("casualty at 0809")
    assert sorted(sc.legal()) == ["casualty at 0707", "casualty at 0808"]
    sc.act("casualty at 0707")
    assert sc.loc(k1) == LOC_DEAD and sc.loc(k3) == LOC_DEAD
    assert sc.loc(k2) == cell("0808") and sc.loc(bystander) == cell("0709")
    assert next_players_round_started(sc, 1)


def test_rule_7_645_kills_two_with_one_attacker_only_one_dies():
    sc = Scenario(num_players=2)
    sc.dragon(SPOT)
    k = sc.put(0, KNIGHT, "0707")
    bystander = sc.put(0, KNIGHT, "0808")
    attack(sc, 0, ["0707"], card_dice(sc, 0, 2), card=CARD_KILLS_TWO)
    assert sc.loc(k) == LOC_DEAD
    assert sc.loc(bystander) == cell("0808")
    assert next_players_round_started(sc, 1)


# ------------------------------------------------------------------ 7.65
def test_rule_7_65_cottage_attack_flames_it_unless_the_defender_rolls_10():
    for roll, flamed in (((4, 5), True), ((5, 5), False), ((6, 6), False)):
        sc = Scenario(num_players=2)                        # seat 0 is Elderwood
        two_knights(sc)
        resting = sc.put(0, KNIGHT, "Elderwood Cottage", flags=F_WOUNDED)
        attack(sc, 0, ["0707", "0808"], (*card_dice(sc, 0, 4), *roll), card=CARD_ATTACKS_YOUR_COTTAGE)
        assert sc.dice_left() == 0
        assert int(sc.s["flamed"][0]) == int(flamed), roll
        assert (sc.loc(resting) == LOC_DEAD) == flamed       # undamaged: no loss at all
        assert int(sc.s["dragon_cell"]) == R.LAIR_CELL


# ------------------------------------------------------------------ 7.66
def test_example_7_66_flight_north_attacks_a_being_a_hero_and_a_knight():
    """EXAMPLE: The player rolls a 1 so Brimstone will fly North for six spaces. In
    this flight's path, there is a Fantastic Being (space 2), a Hero (space 5) and
    a Knight (space 6). Normally, he would only attack the Knight. On this flight,
    he will attack all three targets."""
    sc = Scenario(num_players=2)
    start = "0912"
    sc.dragon(start)
    sc.put(0, KNIGHT, "1012")                               # the attacker who draws the card
    path = [step(start, N, i) for i in range(1, 7)]
    assert not any(R.IS_STRUCTURE[c] for c in path)
    sc.being(0, REVIVOR, path[1])
    hero = sc.put(1, HERO, path[4])
    knight = sc.put(1, KNIGHT, path[5])
    aside = sc.put(1, KNIGHT, step(path[2], NE))            # beside the path: left alone
    attack(sc, 0, ["1012"], (*card_dice(sc, 0, 2),
                             1,                             # the direction: North
                             1, 1,                          # the being (space 2) rolls 2
                             1, 1,                          # the hero (space 5)
                             1, 1),                         # the knight (space 6)
           card=CARD_FLIES_SIX_RANDOM)
    sc.load_rolls()
    # the slain Revivor's lair got a new being (its draw took a raw value from the stream)
    assert sc.dice_left() == 0
    assert not (int(sc.s["slot_being"][0]) == REVIVOR and int(sc.s["slot_loc"][0]) == path[1])
    assert sc.loc(hero) == LOC_DEAD
    assert sc.loc(knight) == LOC_DEAD
    assert sc.loc(aside) == step(path[2], NE)
    assert int(sc.s["dragon_cell"]) == path[5]


def test_rule_7_66_flight_is_stopped_by_a_castle_which_he_attacks():
    sc = Scenario(num_players=2)                            # seat 1 is Ironcrag
    start = "1307"
    sc.dragon(start)
    sc.put(0, KNIGHT, "1207")
    garrison = sc.put(1, KNIGHT, "Ironcrag Castle", n=5)
    on_the_way = sc.put(1, MAN_AT_ARMS, "1305")
    beyond = sc.put(1, MAN_AT_ARMS, "1301")
    attack(sc, 0, ["1207"], (*card_dice(sc, 0, 2), N, 1, 1, 3, 3), card=CARD_FLIES_SIX_RANDOM)
    assert sc.loc(on_the_way) == LOC_DEAD                   # 2 + 1 + 0: killed on the way
    assert sum(sc.loc(u) == LOC_DEAD for u in garrison) == 3   # 6 + castle 2 = 8
    assert sc.loc(beyond) == cell("1301")
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL


# ------------------------------------------------------------------ 7.67
def end_players_round_quietly(sc):
    """Seat 1 passes its whole round (it has nothing next to Brimstone)."""
    sc.act("done")
    sc.act("done")


def test_rule_7_67_nap_costs_him_his_next_round_and_he_wakes_normal():
    sc = Scenario(num_players=2)
    sc.dragon(SPOT, enraged=True)
    two_knights(sc)
    attack(sc, 0, ["0707", "0808"], card_dice(sc, 0, 4), card=CARD_NAP)
    assert int(sc.s["asleep_until"]) == int(sc.s["brimstone_rounds"]) + 1
    end_players_round_quietly(sc)
    sc.load_dice(1, 2, 1, 2)
    R.advance(sc.S, 0)
    # his whole round was lost: no die rolled, no move, and the being round is on
    assert sc.dice_left() == 4
    assert int(sc.s["dragon_cell"]) == cell(SPOT)
    assert int(sc.s["stage"]) == R.ST_BEING_FIRST
    assert int(sc.s["asleep_until"]) == -1
    assert int(sc.s["enraged"]) == 0


def test_rule_7_67_attacking_the_sleeping_dragon_wakes_him_enraged_into_do_or_die():
    sc = Scenario(num_players=3)
    two_knights(sc)
    enemy = sc.put(1, KNIGHT, "0709")
    sc.start_player_round([0, 1, 2])
    sc.act("done")
    sc.act("done")
    sc.act("join dragon attack from 0707")
    sc.act("join dragon attack from 0808")
    sc.load_card(CARD_NAP)
    sc.load_dice(*card_dice(sc, 0, 4))
    sc.act("done")
    assert int(sc.s["asleep_until"]) >= 0
    # seat 1 attacks the sleeper: knight 2 - 2 (he wakes enraged) + 7 = 7
    assert table(COL_DO_OR_DIE, 7) != table(COL_FIRST_WOUND, 7)
    assert table(COL_DO_OR_DIE, 7) == R_ALL_KILLED
    sc.act("done")
    sc.act("done")
    sc.act("join dragon attack from 0709")
    sc.load_dice(3, 4)
    sc.act("done")
    assert int(sc.s["enraged"]) == 1
    assert int(sc.s["asleep_until"]) == -1
    assert sc.loc(enemy) == LOC_DEAD
    assert next_players_round_started(sc, 2)


# ------------------------------------------------------------------ 7.68
def test_rule_7_68_flames_your_cottage_kills_everyone_in_it_without_a_roll():
    sc = Scenario(num_players=2)                            # seat 0 is Elderwood
    two_knights(sc)
    resting = sc.put(0, KNIGHT, "Elderwood Cottage", n=2, flags=F_WOUNDED)
    attack(sc, 0, ["0707", "0808"], (*card_dice(sc, 0, 4), 6, 6), card=CARD_FLAMES_YOUR_COTTAGE)
    assert int(sc.s["flamed"][0]) == 1
    assert all(sc.loc(u) == LOC_DEAD for u in resting)
    assert sc.dice_left() == 2                              # no roll can save it
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL          # an attack on a cottage: home (7.541)


def test_rule_7_68_flames_a_cottage_of_your_choice():
    sc = Scenario(num_players=2)
    two_knights(sc)
    resting = sc.put(1, KNIGHT, "Ironcrag Cottage", flags=F_WOUNDED)
    attack(sc, 0, ["0707", "0808"], card_dice(sc, 0, 4), card=CARD_FLAMES_COTTAGE_OF_CHOICE)
    assert sorted(sc.legal()) == sorted(f"Brimstone strikes {k} Cottage" for k in D.KINGDOM_NAMES)
    sc.act("Brimstone strikes Ironcrag Cottage")
    assert int(sc.s["flamed"][1]) == 1 and int(sc.s["flamed"][0]) == 0
    assert sc.loc(resting) == LOC_DEAD


def test_rule_7_68_flamed_cottage_is_useless_for_healing():
    sc = Scenario(num_players=2)
    two_knights(sc)
    attack(sc, 0, ["0707", "0808"], card_dice(sc, 0, 4), card=CARD_FLAMES_YOUR_COTTAGE)
    later = sc.put(0, KNIGHT, "0304")
    R.wound_unit(sc.S, 0, later)                            # a wound while the flame lasts
    assert sc.loc(later) == LOC_DEAD


def test_rule_7_62_five_spaces_a_two_hex_castle_is_one_space():
    sc = Scenario(num_players=2)
    sc.dragon("1304")
    sc.put(0, KNIGHT, "1305")
    attack(sc, 0, ["1305"], card_dice(sc, 0, 2), card=CARD_MOVES_FIVE_OF_CHOICE)
    sc.act("Brimstone to Ironcrag Castle")                  # he may pass through it (no attack)
    assert sc.phase == R.PH_FIVE_MOVE
    assert "Brimstone to Ironcrag Castle" not in sc.legal()  # its other hex is the same space
    assert "Brimstone to Ironcrag Village" in sc.legal()


def test_rule_7_62_five_spaces_ending_in_a_castle_attacks_it():
    sc = Scenario(num_players=2)                            # seat 1 is Ironcrag
    sc.dragon("1306")
    sc.put(0, KNIGHT, "1206")
    garrison = sc.put(1, KNIGHT, "Ironcrag Castle", n=4)
    attack(sc, 0, ["1206"], (*card_dice(sc, 0, 2), 3, 3), card=CARD_MOVES_FIVE_OF_CHOICE)
    for c in ("1305", "1205", "1204", "1304", "Ironcrag Castle"):
        sc.act(f"Brimstone to {c}")
    assert sum(sc.loc(u) == LOC_DEAD for u in garrison) == 3   # 6 + castle 2 = 8
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL


def test_rule_7_66_flight_off_the_board_ends_in_his_lair():
    sc = Scenario(num_players=2)
    sc.dragon("0302")
    sc.put(0, KNIGHT, "0402")
    victim = sc.put(1, KNIGHT, "0301")
    attack(sc, 0, ["0402"], (*card_dice(sc, 0, 2), N, 1, 1), card=CARD_FLIES_SIX_RANDOM)
    assert sc.loc(victim) == LOC_DEAD                       # attacked on the way out
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL
    assert sc.dice_left() == 0


def test_rule_7_65_flight_over_a_cottage_is_a_card_attack_on_it():
    sc = Scenario(num_players=2)                            # seat 1 is Ironcrag
    sc.dragon("1407")
    sc.put(0, KNIGHT, "1307")
    resting = sc.put(1, KNIGHT, "Ironcrag Cottage", flags=F_WOUNDED)
    beyond = sc.put(1, KNIGHT, "1404")
    attack(sc, 0, ["1307"], (*card_dice(sc, 0, 2), N, 4, 5), card=CARD_FLIES_SIX_RANDOM)
    assert int(sc.s["flamed"][1]) == 1                      # 9: flamed (7.65), not a table roll
    assert sc.loc(resting) == LOC_DEAD
    assert sc.loc(beyond) == cell("1404")                   # the flight stopped at the cottage
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL


def test_rule_7_65_five_space_move_ending_on_a_cottage_attacks_it_as_a_card():
    sc = Scenario(num_players=2)                            # seat 1 is Ironcrag
    sc.dragon("1306")
    sc.put(0, KNIGHT, "1206")
    resting = sc.put(1, KNIGHT, "Ironcrag Cottage", flags=F_WOUNDED)
    attack(sc, 0, ["1206"], (*card_dice(sc, 0, 2), 5, 5), card=CARD_MOVES_FIVE_OF_CHOICE)
    for c in ("1305", "1205", "1204", "1304", "Ironcrag Cottage"):
        sc.act(f"Brimstone to {c}")
    assert sc.dice_left() == 0
    assert int(sc.s["flamed"][1]) == 0                      # 10: undamaged, no loss
    assert sc.loc(resting) == cell("Ironcrag Cottage")
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL
