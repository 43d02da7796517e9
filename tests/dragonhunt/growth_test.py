"""Ending the round, the hand and the growth phase: rules 10, 11 and 12-12.53."""

from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import HERO, SNIPER, KNIGHT, MAN_AT_ARMS, UNITS_PER_COLOUR
from dragongym.envs.dragonhunt.state import LOC_DEAD, LOC_RESERVE, F_WOUNDED
from tests.dragonhunt.scenario import Scenario, cell

ALL_CARDS = (1 << 6) - 1
FIRST = {HERO: 0, SNIPER: 1, KNIGHT: 3, MAN_AT_ARMS: 15}
COUNT = {HERO: 1, SNIPER: 2, KNIGHT: 12, MAN_AT_ARMS: 24}


def dead(sc, p, t, n):
    """Put n of seat p's counters of type t in the dead pile (from the reserve)."""
    us = []
    for i in range(FIRST[t], FIRST[t] + COUNT[t]):
        u = p * UNITS_PER_COLOUR + i
        if len(us) < n and sc.loc(u) == LOC_RESERVE:
            R.set_loc(sc.S, 0, u, LOC_DEAD)
            us.append(u)
    assert len(us) == n
    return us


def count(sc, p, t, where):
    base = p * UNITS_PER_COLOUR
    w = where if isinstance(where, int) and where < 0 else (cell(where) if not isinstance(where, int) else where)
    return sum(1 for i in range(FIRST[t], FIRST[t] + COUNT[t]) if sc.loc(base + i) == w)


def start_growth(sc, order):
    """The fourth Player's round of the hand ended with ``order``: growth (12)."""
    n = int(sc.s["num_players"])
    sc.s["round_order"][:] = -1
    sc.s["round_order"][:n] = order
    sc.s["turn"] = 3
    sc.s["stage"] = R.ST_PLAYER
    R.end_players_round(sc.S, 0)
    R.advance(sc.S, 0)


def place_reinforcements(sc):
    """Make every reinforcement placement (first legal space); [(seat, type)]."""
    seq = []
    while int(sc.s["stage"]) == R.ST_GROWTH_PLACE and sc.phase == R.PH_PLACE:
        seq.append((sc.to_play, int(sc.s["place_type"])))
        sc.act(sc.legal()[0])
    return seq


def holding(sc, p, kingdom):
    """Seat p occupies the castle and village of ``kingdom`` with one unit each."""
    sc.put(p, KNIGHT, f"{kingdom} Castle")
    sc.put(p, MAN_AT_ARMS, f"{kingdom} Village")


# ------------------------------------------------------------------ 10
def test_rule_10_ending_a_round_discards_the_card_and_the_next_player_starts_moving():
    sc = Scenario(num_players=3)
    R.enter_card_segment(sc.S, 0)
    R.advance(sc.S, 0)
    for value in (9, 7, 12):                                # seats 0, 1, 2
        assert sc.phase == R.PH_CARD
        sc.act(f"play card {value}")
    values = [int(v) for v in D.MOVEMENT_CARD_VALUES]
    for p, value in enumerate((9, 7, 12)):                  # the played card is out of the hand
        assert not int(sc.s["cards_in_hand"][p]) >> values.index(value) & 1
        assert bin(int(sc.s["cards_in_hand"][p])).count("1") == 5
    assert [int(x) for x in sc.s["round_order"][:3]] == [1, 0, 2]
    assert sc.phase == R.PH_MOVE_SELECT and sc.to_play == 1
    sc.act("done")                                          # movement
    sc.act("done")                                          # combat; nobody next to Brimstone
    assert sc.phase == R.PH_MOVE_SELECT and sc.to_play == 0  # next player: movement segment
    sc.act("done")
    sc.act("done")
    assert sc.to_play == 2
    sc.load_dice(1, 2)
    sc.act("done")
    sc.act("done")
    # all have played: the turn is over, the next one opens with Brimstone's round
    assert int(sc.s["turn"]) == 1
    assert int(sc.s["stage"]) == R.ST_BRIMSTONE
    assert sc.phase == R.PH_DRAGON_DIE and sc.to_play == 2  # 6: the last one moves him first
    assert bin(int(sc.s["cards_in_hand"][0])).count("1") == 5   # discarded, not returned


# ------------------------------------------------------------------ 11
def test_rule_11_a_hand_is_four_turns_then_the_growth_phase():
    sc = Scenario(num_players=2)
    sc.s["round_order"][:2] = (0, 1)
    sc.s["turn"] = 0
    for turn in range(1, 4):
        sc.s["stage"] = R.ST_PLAYER
        R.end_players_round(sc.S, 0)
        assert int(sc.s["turn"]) == turn
        assert int(sc.s["stage"]) == R.ST_BRIMSTONE
    sc.s["cards_in_hand"][:2] = 0
    sc.s["stage"] = R.ST_PLAYER
    R.end_players_round(sc.S, 0)                            # the fourth turn ends
    assert int(sc.s["stage"]) == R.ST_GROWTH_REPL
    assert [int(x) for x in sc.s["cards_in_hand"][:2]] == [ALL_CARDS] * 2
    assert int(sc.s["hand"]) == 1                           # the next hand starts after growth


# ------------------------------------------------------------------ 12
def test_rule_12_after_the_growth_phase_the_next_hand_begins():
    sc = Scenario(num_players=2, max_hands=8)
    holding(sc, 0, "Elderwood")
    holding(sc, 1, "Ironcrag")
    sc.load_dice(1, 2)
    start_growth(sc, (0, 1))
    seq = place_reinforcements(sc)
    assert len(seq) == 6                                    # 12.41 minimum: 2 men + 1 knight each
    assert int(sc.s["hand"]) == 2 and int(sc.s["turn"]) == 0
    assert int(sc.s["stage"]) == R.ST_BRIMSTONE


def test_rule_12_1_every_player_gets_all_six_movement_cards_back():
    sc = Scenario(num_players=3)
    sc.s["cards_in_hand"][:3] = (0b110000, 0b000011, 0b010100)
    start_growth(sc, (0, 1, 2))
    assert [int(x) for x in sc.s["cards_in_hand"][:3]] == [ALL_CARDS] * 3


def test_rule_12_2_flamed_cottages_are_repaired():
    sc = Scenario(num_players=2)
    sc.s["flamed"][0] = 1
    sc.s["flamed"][4] = 1
    start_growth(sc, (0, 1))
    assert not sc.s["flamed"].any()
    healed = sc.put(0, KNIGHT, "0304")
    R.wound_unit(sc.S, 0, healed)                           # the cottage heals again
    assert sc.loc(healed) == cell("Elderwood Cottage") and sc.s["unit_flags"][healed] & F_WOUNDED


def test_rule_12_3_replacements_are_capped_per_type():
    sc = Scenario(num_players=2)
    holding(sc, 0, "Elderwood")
    dead(sc, 0, MAN_AT_ARMS, 10)
    dead(sc, 0, SNIPER, 2)
    dead(sc, 0, KNIGHT, 5)
    dead(sc, 0, HERO, 1)
    start_growth(sc, (0, 1))
    assert count(sc, 0, MAN_AT_ARMS, "Elderwood Village") == 1 + 6
    assert count(sc, 0, SNIPER, "Elderwood Village") == 1
    assert count(sc, 0, KNIGHT, "Elderwood Castle") == 1 + 3
    assert count(sc, 0, HERO, "Elderwood Castle") == 1
    assert count(sc, 0, MAN_AT_ARMS, LOC_DEAD) == 4
    assert count(sc, 0, SNIPER, LOC_DEAD) == 1
    assert count(sc, 0, KNIGHT, LOC_DEAD) == 2


def test_rule_12_3_units_never_in_play_are_not_replacements():
    sc = Scenario(num_players=2)
    holding(sc, 0, "Elderwood")                             # nothing dead, the rest in reserve
    start_growth(sc, (0, 1))
    assert count(sc, 0, MAN_AT_ARMS, "Elderwood Village") == 1
    assert count(sc, 0, KNIGHT, "Elderwood Castle") == 1
    assert count(sc, 0, SNIPER, "Elderwood Village") == 0


def test_example_12_31_four_dead_men_at_arms_all_come_back():
    """EXAMPLE: During the previous hand a player lost FOUR MEN AT ARMS. He will
    bring all four back into play. The other two Men at Arms replacements possible
    are lost because there is nothing for them to bring back."""
    sc = Scenario(num_players=2)
    holding(sc, 0, "Elderwood")
    lost = dead(sc, 0, MAN_AT_ARMS, 4)
    start_growth(sc, (0, 1))
    assert all(sc.loc(u) == cell("Elderwood Village") for u in lost)
    assert count(sc, 0, MAN_AT_ARMS, LOC_DEAD) == 0
    assert count(sc, 0, MAN_AT_ARMS, "Elderwood Village") == 5   # the holder + the four


def test_example_12_32_five_dead_knights_only_three_come_back():
    """EXAMPLE: A player has FIVE dead KNIGHTS. He may only bring THREE back into
    play. The others remain in the dead pile."""
    sc = Scenario(num_players=2)
    holding(sc, 0, "Elderwood")
    dead(sc, 0, KNIGHT, 5)
    start_growth(sc, (0, 1))
    assert count(sc, 0, KNIGHT, "Elderwood Castle") == 1 + 3
    assert count(sc, 0, KNIGHT, LOC_DEAD) == 2
    # ... and they return at the next growth phase (12.32)
    R.end_growth(sc.S, 0)
    start_growth(sc, (0, 1))
    assert count(sc, 0, KNIGHT, LOC_DEAD) == 0


def test_rule_12_33_men_and_snipers_come_on_in_any_village_you_control():
    sc = Scenario(num_players=2)
    sc.put(0, MAN_AT_ARMS, "Sunken Village")                # a conquered village only
    dead(sc, 0, MAN_AT_ARMS, 2)
    dead(sc, 0, SNIPER, 1)
    start_growth(sc, (0, 1))
    assert count(sc, 0, MAN_AT_ARMS, "Sunken Village") == 3
    assert count(sc, 0, SNIPER, "Sunken Village") == 1


def test_rule_12_33_the_player_chooses_the_village_when_he_holds_several():
    sc = Scenario(num_players=2)
    sc.put(0, MAN_AT_ARMS, "Elderwood Village")
    sc.put(0, MAN_AT_ARMS, "Sunken Village")
    dead(sc, 0, MAN_AT_ARMS, 2)
    start_growth(sc, (0, 1))
    assert sc.phase == R.PH_REPL_VILLAGE and sc.to_play == 0
    assert sorted(sc.legal()) == ["replacement to Elderwood Village", "replacement to Sunken Village"]
    sc.act("replacement to Sunken Village")
    sc.act("replacement to Elderwood Village")
    assert count(sc, 0, MAN_AT_ARMS, "Sunken Village") == 2
    assert count(sc, 0, MAN_AT_ARMS, "Elderwood Village") == 2
    assert int(sc.s["stage"]) == R.ST_GROWTH_PLACE


def test_rule_12_331_without_a_village_men_and_snipers_are_not_replaced():
    sc = Scenario(num_players=2)
    sc.put(0, KNIGHT, "Elderwood Castle")
    dead(sc, 0, MAN_AT_ARMS, 3)
    dead(sc, 0, SNIPER, 2)
    start_growth(sc, (0, 1))
    assert count(sc, 0, MAN_AT_ARMS, LOC_DEAD) == 3
    assert count(sc, 0, SNIPER, LOC_DEAD) == 2
    assert int(sc.s["stage"]) == R.ST_GROWTH_PLACE          # no decision was asked


def test_rule_12_34_knights_and_hero_come_on_in_the_home_castle_only():
    sc = Scenario(num_players=2)
    holding(sc, 0, "Elderwood")
    sc.put(0, KNIGHT, "Greymoor Castle")                    # a conquered castle
    dead(sc, 0, KNIGHT, 2)
    dead(sc, 0, HERO, 1)
    start_growth(sc, (0, 1))
    assert count(sc, 0, KNIGHT, "Elderwood Castle") == 3
    assert count(sc, 0, HERO, "Elderwood Castle") == 1
    assert count(sc, 0, KNIGHT, "Greymoor Castle") == 1


def test_rule_12_341_without_the_home_castle_one_knight_per_castle_and_the_cottage():
    sc = Scenario(num_players=2)
    sc.put(1, KNIGHT, "Elderwood Castle")                   # seat 1 holds seat 0's home
    sc.put(0, KNIGHT, "Greymoor Castle")
    sc.put(0, KNIGHT, "Sunken Castle")
    dead(sc, 0, KNIGHT, 5)
    dead(sc, 0, HERO, 1)
    start_growth(sc, (0, 1))
    assert count(sc, 0, HERO, "Elderwood Cottage") == 1
    assert count(sc, 0, KNIGHT, "Elderwood Cottage") == 1
    assert count(sc, 0, KNIGHT, "Greymoor Castle") == 2
    assert count(sc, 0, KNIGHT, "Sunken Castle") == 2
    assert count(sc, 0, KNIGHT, LOC_DEAD) == 2              # never more than three knights


def test_rule_12_341_with_no_castle_at_all_only_the_cottage_knight():
    sc = Scenario(num_players=2)
    dead(sc, 0, KNIGHT, 3)
    start_growth(sc, (0, 1))
    assert count(sc, 0, KNIGHT, "Elderwood Cottage") == 1
    assert count(sc, 0, KNIGHT, LOC_DEAD) == 2


def test_rule_12_341_the_three_knight_limit_holds_across_castles():
    sc = Scenario(num_players=2)
    for k in ("Greymoor", "Sunken", "Stonehelm", "Ambervale"):
        sc.put(0, KNIGHT, f"{k} Castle")
    dead(sc, 0, KNIGHT, 6)
    start_growth(sc, (0, 1))
    placed = sum(count(sc, 0, KNIGHT, f"{k} Castle") - 1 for k in ("Greymoor", "Sunken", "Stonehelm", "Ambervale"))
    assert count(sc, 0, KNIGHT, "Elderwood Cottage") + placed == 3
    assert count(sc, 0, KNIGHT, LOC_DEAD) == 3


# ------------------------------------------------------------------ 12.4
def reinforcement_counts(seq, p):
    return (sum(1 for q, t in seq if q == p and t == MAN_AT_ARMS),
            sum(1 for q, t in seq if q == p and t == KNIGHT))


def test_rule_12_4_a_knight_per_castle_and_two_men_per_village_occupied():
    sc = Scenario(num_players=2)
    holding(sc, 0, "Elderwood")
    holding(sc, 0, "Greymoor")
    sc.put(0, MAN_AT_ARMS, "Sunken Village")                # 2 castles, 3 villages
    start_growth(sc, (0, 1))
    assert [int(x) for x in sc.s["reinf_left"][0]] == [6, 2]
    seq = place_reinforcements(sc)
    assert reinforcement_counts(seq, 0) == (6, 2)


def test_rule_12_41_at_least_one_knight_and_two_men():
    sc = Scenario(num_players=2)                            # seat 1 holds nothing at all
    holding(sc, 0, "Elderwood")
    start_growth(sc, (0, 1))
    seq = place_reinforcements(sc)
    assert reinforcement_counts(seq, 1) == (2, 1)
    assert reinforcement_counts(seq, 0) == (2, 1)


def test_rule_12_411_no_reinforcements_once_every_counter_has_been_used():
    sc = Scenario(num_players=2)
    holding(sc, 0, "Elderwood")
    for u in range(FIRST[MAN_AT_ARMS], FIRST[MAN_AT_ARMS] + COUNT[MAN_AT_ARMS]):
        if sc.loc(u) == LOC_RESERVE:
            R.set_loc(sc.S, 0, u, LOC_DEAD)                 # every man has been in play
    start_growth(sc, (0, 1))
    assert count(sc, 0, MAN_AT_ARMS, "Elderwood Village") == 1 + 6   # replacements go on
    seq = place_reinforcements(sc)
    assert reinforcement_counts(seq, 0) == (0, 1)
    assert reinforcement_counts(seq, 1) == (2, 1)


# ------------------------------------------------------------------ 12.5
def test_rule_12_5_last_player_of_the_hand_starts_and_turns_pass_left():
    sc = Scenario(num_players=3)
    start_growth(sc, (1, 2, 0))                             # seat 0 had the last round
    seq = place_reinforcements(sc)
    assert [p for p, _ in seq[:3]] == [0, 1, 2]
    assert [p for p, t in seq if t == KNIGHT] == [0, 1, 2]


def test_rule_12_5_reinforcements_obey_the_set_up_restrictions():
    sc = Scenario(num_players=2)
    enemy = "0303"
    sc.put(1, KNIGHT, enemy)
    start_growth(sc, (1, 0))
    assert sc.phase == R.PH_PLACE and sc.to_play == 0
    offered = {cell(a[len("place at "):]) for a in sc.legal()}
    banned = {int(x) for x in D.NEIGHBOURS[cell(enemy)][:D.NUM_NEIGHBOURS[cell(enemy)]]}
    for lair in (R.LAIR_CELL, *[int(x) for x in D.BEING_LAIR_CELL]):
        banned |= {int(x) for x in D.NEIGHBOURS[lair][:D.NUM_NEIGHBOURS[lair]]}
    assert offered and not offered & banned
    assert all(R.IS_FIELD[c] for c in offered)
    assert offered == {c for c in range(R.NC) if R.placement_legal(sc.S, 0, 0, c)}


def test_rule_12_51_men_at_arms_first_knights_last():
    sc = Scenario(num_players=2)
    holding(sc, 0, "Elderwood")
    holding(sc, 1, "Ironcrag")
    start_growth(sc, (0, 1))
    seq = place_reinforcements(sc)
    types = [t for _, t in seq]
    assert types == [MAN_AT_ARMS] * 4 + [KNIGHT] * 2


def test_rule_12_52_a_player_who_has_placed_a_type_waits_for_the_others():
    sc = Scenario(num_players=2)
    holding(sc, 0, "Elderwood")
    holding(sc, 0, "Greymoor")                              # seat 0: 4 men, 2 knights
    start_growth(sc, (1, 0))                                # seat 0 starts
    seq = place_reinforcements(sc)
    assert seq == [(0, MAN_AT_ARMS), (1, MAN_AT_ARMS), (0, MAN_AT_ARMS), (1, MAN_AT_ARMS),
                   (0, MAN_AT_ARMS), (0, MAN_AT_ARMS),      # seat 1 has no more men: waits
                   (0, KNIGHT), (1, KNIGHT), (0, KNIGHT)]


def test_rule_12_53_the_last_to_place_moves_brimstone_first_next_hand():
    sc = Scenario(num_players=3)
    holding(sc, 1, "Ironcrag")                              # seat 1: 2 men, 1 knight (minimum)
    sc.put(1, KNIGHT, "Greymoor Castle")                    # ... and a second knight
    start_growth(sc, (0, 1, 2))                             # seat 2 starts, then 0, 1
    sc.load_dice(1, 2)
    seq = place_reinforcements(sc)
    assert seq[-1] == (1, KNIGHT)
    assert int(sc.s["placed_last"]) == 1
    assert int(sc.s["dragon_first"]) == 1
    assert int(sc.s["stage"]) == R.ST_BRIMSTONE
    assert sc.phase == R.PH_DRAGON_DIE and sc.to_play == 1
