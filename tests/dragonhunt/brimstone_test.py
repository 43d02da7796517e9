"""Brimstone's round: rules 5, 6-6.11 and 7-7.542 (the dragon cards, 7.6x, are
in dragon_cards_test.py).

Every test builds a position with :class:`Scenario`, loads the dice that the
rules will roll (``load_dice``: faces in the order they are rolled) and checks
concrete outcomes. Combat results are read from ``data.COMBAT_TABLE`` (rows 9
and up are substitutes, see data/combat_table.txt), never hard-coded.
"""
from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import (
    HERO, KNIGHT, MAN_AT_ARMS, BANISHER, BERSERKER, REVIVOR, NUM_BEINGS,
    COL_SINGLE_PIECE, COL_STRUCTURE, R_DEFENDER_KILLED, R_DEFENDER_WOUNDED,
    R_DEFENDER_UNHARMED, R_OCCUPANTS_DIE_1,
)
from dragongym.envs.dragonhunt.state import LOC_DEAD, F_WOUNDED
from tests.dragonhunt.scenario import Scenario, cell, step, dice_summing_to

LAIR = "Lair of Brimstone"
N, NE, SE, S, SW, NW = 1, 2, 3, 4, 5, 6


def table(col, total):
    return int(R.table_result(col, total))


def last_move_by(sc, p):
    """Start Brimstone's round with only its last move left, made by seat p."""
    n = int(sc.s["num_players"])
    moves = int(R.brimstone_moves(sc.S, 0))
    i = (moves - 1) % n
    sc.start_brimstone_round_at(first=(p + i) % n, moves_done=moves - 1)


def outcome(sc, u, where):
    """What became of unit u that stood on ``where``: a R_DEFENDER_* code."""
    loc = sc.loc(u)
    if loc == LOC_DEAD:
        return R_DEFENDER_KILLED
    p = int(R.UNIT_COLOUR[u])
    if loc == int(D.COTTAGE_CELL[sc.s["kingdom"][p]]) and sc.s["unit_flags"][u] & F_WOUNDED:
        return R_DEFENDER_WOUNDED
    assert loc == cell(where)
    return R_DEFENDER_UNHARMED


def in_being_round(sc):
    return int(sc.s["stage"]) == R.ST_BEING_FIRST and sc.phase == R.PH_BEING_SELECT


# ------------------------------------------------------------------ 5, 6
def test_rule_5_turn_runs_brimstone_round_then_being_round_then_players_round():
    sc = Scenario(num_players=2)
    sc.s["choice_player"] = 1
    # four equal pairs: no choice; NE, SW, NE, SW leaves him back home
    sc.load_dice(2, 2, 5, 5, 2, 2, 5, 5)
    sc.start_brimstone_round(first=0)
    assert sc.dice_left() == 0
    assert int(sc.s["stage"]) == R.ST_BEING_FIRST           # 2) the Fantastic Being round
    assert sc.phase == R.PH_BEING_SELECT and sc.to_play == 1
    # ... and after the Player's round (3) comes the next turn's Brimstone round (1)
    sc.s["stage"] = R.ST_PLAYER
    sc.s["round_order"][:2] = (0, 1)
    before = int(sc.s["brimstone_rounds"])
    R.end_players_round(sc.S, 0)
    assert int(sc.s["stage"]) == R.ST_BRIMSTONE
    assert int(sc.s["brimstone_rounds"]) == before + 1
    assert int(sc.s["turn"]) == 1


def test_rule_6_last_player_of_the_players_round_moves_the_dragon_first():
    sc = Scenario(num_players=3)
    sc.s["stage"] = R.ST_PLAYER
    sc.s["round_order"][:3] = (2, 0, 1)                     # seat 1 moved last
    R.end_players_round(sc.S, 0)
    sc.load_dice(1, 4)
    R.advance(sc.S, 0)
    assert sc.phase == R.PH_DRAGON_DIE
    assert sc.to_play == 1


def test_rule_6_1_dragon_moves_pass_to_the_right():
    sc = Scenario(num_players=4)
    sc.load_dice(1, 4, 4, 1, 1, 4, 4, 1)                    # N, S, N, S: no one in the way
    sc.start_brimstone_round(first=2)
    movers = []
    for choice in ("die 1 (N)", "die 4 (S)", "die 1 (N)", "die 4 (S)"):
        assert sc.phase == R.PH_DRAGON_DIE
        movers.append(sc.to_play)
        sc.act(choice)
    assert movers == [2, 1, 0, 3]                           # to the right = next lower seat
    assert in_being_round(sc)


def test_rule_6_11_two_players_move_the_dragon_twice_each():
    sc = Scenario(num_players=2)
    sc.load_dice(1, 4, 4, 1, 1, 4, 4, 1)
    sc.start_brimstone_round(first=1)
    movers = []
    for choice in ("die 1 (N)", "die 4 (S)", "die 1 (N)", "die 4 (S)"):
        movers.append(sc.to_play)
        sc.act(choice)
    assert movers == [1, 0, 1, 0]
    assert in_being_round(sc)


# ------------------------------------------------------------------ 7.1, 7.11: normal movement
def test_rule_7_normal_or_enraged_counter_decides_the_movement_mode():
    calm = Scenario(num_players=2)
    calm.load_dice(1, 2)
    calm.start_brimstone_round(first=0)
    assert calm.phase == R.PH_DRAGON_DIE                    # 7.1: the player chooses
    angry = Scenario(num_players=2)
    angry.dragon(LAIR, enraged=True)
    angry.load_dice(2, 1, 5, 1, 2, 1, 5, 1)
    angry.start_brimstone_round(first=0)
    assert in_being_round(angry)                            # 7.2: nobody chooses anything
    assert angry.dice_left() == 0


def test_rule_7_1_normal_dragon_moves_exactly_one_space_per_move():
    sc = Scenario(num_players=2)
    sc.load_dice(4, 6, 1, 2)
    sc.start_brimstone_round(first=0)
    sc.act("die 4 (S)")
    assert int(sc.s["dragon_cell"]) == step(LAIR, S, 1)     # one space, not four
    assert sc.phase == R.PH_DRAGON_DIE and sc.to_play == 1


def test_example_7_11_dice_1_and_2_move_him_north_or_northeast():
    """EXAMPLE: Two dice are thrown. The result is a 1 and 2. The player will move
    Brimstone either ONE SPACE DUE NORTH (the 1) or ONE SPACE NORTHEAST (the 2)."""
    for choice, direction in (("die 1 (N)", N), ("die 2 (NE)", NE)):
        sc = Scenario(num_players=2)
        sc.load_dice(1, 2, 3, 5)                            # 3, 5: the next mover's dice
        sc.start_brimstone_round(first=0)
        assert sc.to_play == 0
        assert sc.legal() == ["die 1 (N)", "die 2 (NE)"]
        sc.act(choice)
        assert int(sc.s["dragon_cell"]) == step(LAIR, direction, 1)


def test_rule_7_11_equal_dice_leave_no_choice():
    sc = Scenario(num_players=2)
    sc.load_dice(3, 3, 1, 2)
    sc.start_brimstone_round(first=0)
    # the 3-3 moved him southeast at once; the second mover is asked now
    assert int(sc.s["dragon_cell"]) == step(LAIR, SE, 1)
    assert sc.phase == R.PH_DRAGON_DIE and sc.to_play == 1


# ------------------------------------------------------------------ 7.2-7.212: enraged movement
def test_rule_7_2_enraged_dragon_is_moved_by_the_dice_alone():
    sc = Scenario(num_players=3)
    sc.dragon(LAIR, enraged=True)
    sc.load_dice(1, 2, 4, 2, 2, 1)                          # N2, S2, NE1
    sc.start_brimstone_round(first=0)
    assert in_being_round(sc)                               # no decision on the way
    assert int(sc.s["dragon_cell"]) == step(LAIR, NE, 1)


def test_rule_7_21_enraged_each_player_rolls_two_dice_red_then_white():
    sc = Scenario(num_players=2)
    sc.dragon(LAIR, enraged=True)
    sc.load_dice(1, 1, 4, 1, 1, 1, 4, 1)                    # two dice for each of four moves
    sc.start_brimstone_round(first=0)
    assert sc.dice_left() == 0
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL


def test_rule_7_211_red_die_gives_the_direction():
    for red in range(1, 7):
        sc = Scenario(num_players=2)
        sc.dragon(LAIR, enraged=True)
        sc.load_dice(red, 1)
        last_move_by(sc, 0)
        assert int(sc.s["dragon_cell"]) == step(LAIR, red, 1), red


def test_rule_7_212_white_die_gives_the_distance():
    for white in range(1, 7):
        sc = Scenario(num_players=2)
        sc.dragon(LAIR, enraged=True)
        sc.load_dice(S, white)
        last_move_by(sc, 0)
        assert int(sc.s["dragon_cell"]) == step(LAIR, S, white), white


def test_example_7_212_red_4_white_6_six_spaces_south():
    """EXAMPLE: The player rolls a RED 4 and a WHITE 6. Therefore, Brimstone moves
    (RED 4) to the SOUTH, (WHITE 6) SIX SPACES."""
    sc = Scenario(num_players=2)
    sc.dragon(LAIR, enraged=True)
    sc.load_dice(4, 6)
    last_move_by(sc, 0)
    assert sc.dice_left() == 0
    assert int(sc.s["dragon_cell"]) == cell("0712") == step(LAIR, S, 6)


def test_rule_7_3_round_ends_when_every_player_has_moved_him_once():
    sc = Scenario(num_players=3)
    sc.load_dice(1, 4, 4, 1, 1, 4, 2, 5)
    sc.start_brimstone_round(first=0)
    for choice in ("die 1 (N)", "die 4 (S)", "die 1 (N)"):
        assert sc.phase == R.PH_DRAGON_DIE
        sc.act(choice)
    assert in_being_round(sc)
    assert sc.dice_left() == 2                              # no fourth move


# ------------------------------------------------------------------ 7.4: movement conditions
def test_rule_7_41_terrain_costs_do_not_slow_him():
    # NE from the lair: open, open, forest, forest, mountain (9 MP for a unit)
    sc = Scenario(num_players=2)
    sc.dragon(LAIR, enraged=True)
    sc.load_dice(NE, 5)
    last_move_by(sc, 0)
    assert int(sc.s["dragon_cell"]) == cell("1204") == step(LAIR, NE, 5)


def test_rule_7_42_move_off_the_board_returns_him_home_and_the_player_rolls_again():
    sc = Scenario(num_players=2)
    sc.dragon("0300")                                       # on the north edge
    sc.load_dice(1, 1, 2, 4)                                # 1-1: north, off the board
    sc.start_brimstone_round(first=0)
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL
    assert sc.phase == R.PH_DRAGON_DIE and sc.to_play == 0  # the same player, again
    assert sc.legal() == ["die 2 (NE)", "die 4 (S)"]
    assert int(sc.s["dragon_moves_made"]) == 0           # the move off the board did not count


def test_rule_7_42_enraged_move_that_would_leave_the_board_is_rolled_again():
    sc = Scenario(num_players=2)
    sc.dragon("0302", enraged=True)
    sc.load_dice(N, 3, NE, 1)                               # 3 north from row 2: off the board
    last_move_by(sc, 0)
    assert sc.dice_left() == 0
    assert int(sc.s["dragon_cell"]) == step(LAIR, NE, 1)    # the reroll, made from his lair


def test_example_7_43_enraged_three_part_move_attacks_at_each_landing():
    """EXAMPLE: With three players moving him, while enraged, Brimstone moves ONE
    SPACE NORTH, attacks any counter in that space, FOUR SPACES SOUTH, attacks any
    counter that is in the FOURTH SPACE of this part of his move and THREE SPACES
    NORTHEAST attacking any counter that is located in the THIRD SPACE."""
    sc = Scenario(num_players=3)
    sc.dragon(LAIR, enraged=True)
    first = step(LAIR, N, 1)                                # 0705
    second = step(first, S, 4)                              # 0709
    third = step(second, NE, 3)                             # 1008
    assert [D.TERRAIN[c] for c in (first, second, third)] == [2, 3, 2]   # mountain, swamp, mountain
    man = sc.put(0, MAN_AT_ARMS, first)
    knight = sc.put(1, KNIGHT, second)
    hero = sc.put(2, HERO, third)
    passed = [sc.put(1, KNIGHT, step(first, S, 3)), sc.put(0, KNIGHT, step(second, NE, 1)),
              sc.put(2, KNIGHT, step(second, NE, 2))]
    sc.load_dice(N, 1, 1, 1,                                # part 1, then the attack on the man
                 S, 4, 1, 1,                                # part 2, attack on the knight
                 NE, 3, 1, 1)                               # part 3, attack on the hero
    sc.start_brimstone_round(first=0)
    assert sc.dice_left() == 0
    # each defender: 2 + strength + terrain - 2 (enraged) <= 8: killed (printed rows)
    for u in (man, knight, hero):
        assert sc.loc(u) == LOC_DEAD
    for u in passed:                                        # 7.44: passed over, not attacked
        assert sc.loc(u) >= 0 and not sc.s["unit_flags"][u] & F_WOUNDED
    assert int(sc.s["dragon_cell"]) == third


def test_rule_7_43_attacks_a_fantastic_being_where_a_part_ends():
    sc = Scenario(num_players=2)
    sc.being(0, BERSERKER, "0705")
    sc.load_dice(1, 1, 1, 1)                                # N; the Berserker rolls 1+1
    sc.load_rolls(0)                                        # the draw for the emptied Cave
    last_move_by(sc, 0)
    assert sc.dice_left() == 0
    # 2 + defence 1 + mountain 2 = 5: killed
    assert being_outcome(sc, 0, BERSERKER, "0705") == R_DEFENDER_KILLED == table(COL_SINGLE_PIECE, 5)


def test_rule_7_44_passes_over_counters_and_cottages_without_attacking():
    sc = Scenario(num_players=2)                            # seat 1 is Ironcrag
    sc.dragon("1407", enraged=True)
    on_the_way = sc.put(0, KNIGHT, "1406")
    in_cottage = sc.put(1, KNIGHT, "Ironcrag Cottage", flags=F_WOUNDED)
    sc.load_dice(N, 3, 6, 6)                                # 1406, Ironcrag Cottage, 1404
    last_move_by(sc, 0)
    assert int(sc.s["dragon_cell"]) == cell("1404")
    assert sc.dice_left() == 2                              # no attack rolled
    assert sc.loc(on_the_way) == cell("1406")
    assert sc.loc(in_cottage) == cell("Ironcrag Cottage")
    assert not sc.s["flamed"].any()


def test_rule_7_44_lands_on_a_cottage_and_attacks_it():
    sc = Scenario(num_players=3)                            # seat 2 is Ambervale
    sc.dragon("1407")
    k = sc.put(2, KNIGHT, "Ambervale Cottage", flags=F_WOUNDED)
    sc.load_dice(S, S, 1, 1)                                # into the cottage; structure roll 2
    last_move_by(sc, 0)
    assert table(COL_STRUCTURE, 2 + int(D.DEFENSE[cell("Ambervale Cottage")])) >= R_OCCUPANTS_DIE_1
    assert sc.loc(k) == LOC_DEAD
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL          # 7.541


def test_rule_7_45_passing_over_a_castle_stops_him_to_attack_it_and_ends_his_round():
    sc = Scenario(num_players=3)                            # seat 1 is Ironcrag
    sc.dragon("1306", enraged=True)
    castle = sc.put(1, KNIGHT, "Ironcrag Castle", n=6)
    beyond = sc.put(0, KNIGHT, "1300")                      # where six spaces north would end
    # six north would pass the castle on the 3rd space; 3+3 + castle 2 - 2 enraged = 6
    sc.load_dice(N, 6, 3, 3, 2, 2, 5, 5)
    sc.start_brimstone_round(first=0)
    assert table(COL_STRUCTURE, 6) == R_OCCUPANTS_DIE_1 + 4  # five occupants die (printed)
    assert sum(sc.loc(u) == LOC_DEAD for u in castle) == 5
    assert sc.loc(beyond) == cell("1300")
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL
    assert in_being_round(sc)                               # the other two players never move him
    assert sc.dice_left() == 4


def test_rule_7_45_one_space_into_a_village_is_an_attack_on_it():
    sc = Scenario(num_players=2)                            # seat 1 is Ironcrag
    sc.dragon("1301")
    men = sc.put(1, MAN_AT_ARMS, "Ironcrag Village", n=3)
    sc.load_dice(4, 4, 3, 3, 1, 2)                          # S into the village; roll 6 + 1 = 7
    sc.start_brimstone_round(first=0)
    dead = table(COL_STRUCTURE, 7) - R_OCCUPANTS_DIE_1 + 1
    assert sum(sc.loc(u) == LOC_DEAD for u in men) == min(3, dead)
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL
    assert in_being_round(sc) and sc.dice_left() == 2


def test_rule_7_46_trespasser_in_his_lair_enrages_him_and_is_attacked():
    sc = Scenario(num_players=2)
    sc.dragon("0300")
    trespasser = sc.put(1, KNIGHT, LAIR)
    # 1-1 north: off the board, home (7.42) -> trespasser: roll 1+1 + knight 2 + lair 2 - 2
    sc.load_dice(1, 1, 1, 1, NE, 1, 5, 1, 2, 1, 5, 1)
    sc.start_brimstone_round(first=0)
    assert table(COL_SINGLE_PIECE, 4) == R_DEFENDER_KILLED
    assert sc.loc(trespasser) == LOC_DEAD
    assert int(sc.s["enraged"]) == 1                        # and he stays enraged (9.841)
    assert sc.dice_left() == 0                              # the rerolls were enraged moves


def test_rule_7_46_landing_on_an_occupied_lair_also_enrages_him():
    sc = Scenario(num_players=2)
    sc.dragon(step(LAIR, N, 1))
    trespasser = sc.put(1, KNIGHT, LAIR)
    sc.load_dice(4, 4, 1, 1)                                # S onto the lair; 2 + 2 + 2 - 2 = 4
    last_move_by(sc, 0)
    assert int(sc.s["enraged"]) == 1
    assert sc.loc(trespasser) == LOC_DEAD
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL


def test_rule_7_46_he_stays_enraged_for_the_rest_of_the_round():
    sc = Scenario(num_players=2)
    sc.dragon(step(LAIR, N, 1))
    sc.put(1, KNIGHT, LAIR)
    # move 1 (seat 0): S onto the lair, trespasser rolls 6+6 and survives
    # moves 2-4 are enraged (9.844): red/white pairs, no decisions
    sc.load_dice(4, 4, 6, 6, NE, 1, NE, 1, NE, 1)
    sc.start_brimstone_round(first=0)
    assert sc.dice_left() == 0
    assert in_being_round(sc)
    assert int(sc.s["dragon_cell"]) == step(LAIR, NE, 3)


# ------------------------------------------------------------------ 7.5: his attack
def test_rule_7_51_defender_adds_strength_and_terrain_to_two_dice():
    # knight (2) on a mountain (+2), rolls 3+2: 9
    assert table(COL_SINGLE_PIECE, 9) != table(COL_SINGLE_PIECE, 7)   # terrain matters
    assert table(COL_SINGLE_PIECE, 9) != table(COL_SINGLE_PIECE, 5)   # strength and terrain
    for dice, total in (((3, 2), 9), ((2, 2), 8), ((6, 5), 15)):
        sc = Scenario(num_players=2)
        k = sc.put(1, KNIGHT, "0705")
        sc.load_dice(1, 1, *dice)
        last_move_by(sc, 0)
        assert outcome(sc, k, "0705") == table(COL_SINGLE_PIECE, total), dice


def test_rule_7_51_enraged_dragon_takes_two_off_the_defenders_roll():
    sc = Scenario(num_players=2)
    sc.dragon(LAIR, enraged=True)
    k = sc.put(1, KNIGHT, "0705")
    sc.load_dice(N, 1, 3, 2)                                # 5 + 4 - 2 = 7
    last_move_by(sc, 0)
    assert table(COL_SINGLE_PIECE, 7) != table(COL_SINGLE_PIECE, 9)
    assert outcome(sc, k, "0705") == table(COL_SINGLE_PIECE, 7)


def being_outcome(sc, slot, being, where):
    """What became of ``being`` of lair ``slot`` that stood on ``where``."""
    here = int(sc.s["slot_being"][slot]) == being
    if here and int(sc.s["slot_loc"][slot]) == cell(where):
        return R_DEFENDER_UNHARMED
    if here and int(sc.s["slot_loc"][slot]) == int(D.BEING_LAIR_CELL[slot]):
        return R_DEFENDER_WOUNDED
    assert int(sc.s["being_pile"]) >> being & 1             # face down in the pile
    return R_DEFENDER_KILLED


def test_rule_7_512_being_defends_with_its_defensive_strength():
    # Banisher 5/1 on a mountain rolls 3+3: 6 + 1 + 2 = 9 (with its attack 5 it would be 13)
    assert int(D.BEING_ATTACK[BANISHER]) == 5 and int(D.BEING_DEFENSE[BANISHER]) == 1
    assert table(COL_SINGLE_PIECE, 9) != table(COL_SINGLE_PIECE, 13)
    sc = Scenario(num_players=2)
    sc.being(0, BANISHER, "0705")
    sc.load_dice(1, 1, 3, 3)
    sc.load_rolls(0)                                        # the refill draw, if it dies
    last_move_by(sc, 0)
    assert being_outcome(sc, 0, BANISHER, "0705") == table(COL_SINGLE_PIECE, 9)


def test_rule_7_513_killed_being_goes_into_the_pile_and_a_new_one_takes_its_lair():
    sc = Scenario(num_players=2)
    sc.being(0, REVIVOR, "0705")
    pile_before = int(sc.s["being_pile"])
    pile_after_kill = pile_before | (1 << REVIVOR)
    candidates = [k for k in range(NUM_BEINGS) if pile_after_kill >> k & 1]
    pick = candidates.index(REVIVOR) + 1 if candidates.index(REVIVOR) + 1 < len(candidates) else 0
    sc.load_dice(1, 1, 1, 1)                                # 2 + 1 + 2 = 5: killed
    sc.load_rolls(pick)                                     # the draw from the mixed pile
    last_move_by(sc, 0)
    new = candidates[pick]
    assert int(sc.s["slot_being"][0]) == new
    assert int(sc.s["slot_loc"][0]) == cell("Cave")
    assert int(sc.s["being_pile"]) == pile_after_kill & ~(1 << new)
    assert int(sc.s["being_pile"]) >> REVIVOR & 1               # the Revivor lies face down


def test_rule_7_513_the_new_being_may_be_the_one_just_killed():
    sc = Scenario(num_players=2)
    sc.being(0, REVIVOR, "0705")
    pile_after_kill = int(sc.s["being_pile"]) | (1 << REVIVOR)
    candidates = [k for k in range(NUM_BEINGS) if pile_after_kill >> k & 1]
    sc.load_dice(1, 1, 1, 1)
    sc.load_rolls(candidates.index(REVIVOR))
    last_move_by(sc, 0)
    assert int(sc.s["slot_being"][0]) == REVIVOR
    assert int(sc.s["slot_loc"][0]) == cell("Cave")


def test_rule_7_514_wounded_being_is_put_back_in_its_lair():
    total = next(t for t in range(2, 30) if table(COL_SINGLE_PIECE, t) == R_DEFENDER_WOUNDED)
    # Berserker (defence 1) on open ground
    assert D.TERRAIN[cell("0806")] == 0
    sc = Scenario(num_players=2)
    sc.being(1, BERSERKER, "0806")
    sc.load_dice(2, 2, *dice_summing_to(total - 1))
    last_move_by(sc, 0)
    assert int(sc.s["slot_being"][1]) == BERSERKER
    assert int(sc.s["slot_loc"][1]) == cell("Hollow Tree")


def test_rule_7_52_wounded_player_unit_goes_to_its_home_cottage():
    total = next(t for t in range(2, 30) if table(COL_SINGLE_PIECE, t) == R_DEFENDER_WOUNDED)
    sc = Scenario(num_players=2)                            # seat 1 is Ironcrag
    k = sc.put(1, KNIGHT, "0806")                           # open: knight 2 + 0
    sc.load_dice(2, 2, *dice_summing_to(total - 2))
    last_move_by(sc, 0)
    assert sc.loc(k) == cell("Ironcrag Cottage")
    assert sc.s["unit_flags"][k] & F_WOUNDED


def test_rule_7_53_structure_attack_uses_its_column_and_the_structures_value():
    sc = Scenario(num_players=2)                            # seat 1 is Ironcrag
    sc.dragon("1404")
    knights = sc.put(1, KNIGHT, "Ironcrag Castle", n=6)
    sc.load_dice(1, 1, 3, 3)                                # N into the castle; 6 + castle 2 = 8
    last_move_by(sc, 0)
    assert table(COL_STRUCTURE, 8) == R_OCCUPANTS_DIE_1 + 2  # three occupants die (printed)
    assert table(COL_STRUCTURE, 6) != table(COL_STRUCTURE, 8)
    assert sum(sc.loc(u) == LOC_DEAD for u in knights) == 3
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL


def test_rule_7_53_vacant_structure_needs_no_roll():
    sc = Scenario(num_players=2)                            # Ambervale is nobody's
    sc.dragon("1308")
    sc.load_dice(4, 4, 1, 1, 2, 3)                          # S into the empty Ambervale Castle
    last_move_by(sc, 0)
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL
    assert sc.dice_left() == 4                              # nothing rolled for it


def test_rule_7_53_non_player_garrison_is_rolled_for_and_loses_occupants():
    sc = Scenario(num_players=2)
    sc.dragon("1308")
    garrison = sc.put(4, KNIGHT, "Ambervale Castle", n=2)   # an unused colour (3.21)
    sc.load_dice(4, 4, 1, 1)                                # 2 + 2 = 4: five die
    last_move_by(sc, 0)
    assert all(sc.loc(u) < 0 for u in garrison)
    assert sc.dice_left() == 0


def test_rule_7_531_occupants_strength_is_not_added():
    sc = Scenario(num_players=2)
    sc.dragon("1404")
    hero = sc.put(1, HERO, "Ironcrag Castle")
    knights = sc.put(1, KNIGHT, "Ironcrag Castle", n=4)
    sc.load_dice(1, 1, 3, 3)                                # 8: three die, hero's 5 not added
    last_move_by(sc, 0)
    dead = sum(sc.loc(u) == LOC_DEAD for u in [hero] + knights)
    assert dead == table(COL_STRUCTURE, 8) - R_OCCUPANTS_DIE_1 + 1 == 3


def test_rule_7_541_after_a_structure_attack_he_goes_home_and_his_round_ends():
    sc = Scenario(num_players=3)
    sc.dragon("1404")
    sc.put(1, KNIGHT, "Ironcrag Castle", n=2)
    sc.load_dice(1, 3, 6, 6, 1, 4, 1, 4)
    sc.start_brimstone_round(first=0)
    sc.act("die 1 (N)")                                     # into Ironcrag Castle
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL
    assert in_being_round(sc)
    assert sc.dice_left() == 4                              # seats 2 and 1 never rolled


def test_rule_7_542_after_attacking_a_unit_he_moves_on_with_the_next_player():
    sc = Scenario(num_players=3)
    k = sc.put(1, KNIGHT, "0705")
    sc.load_dice(1, 3, 6, 6, 2, 5)                          # N onto the knight; 12 + 4
    sc.start_brimstone_round(first=0)
    sc.act("die 1 (N)")
    assert outcome(sc, k, "0705") == table(COL_SINGLE_PIECE, 16)
    assert int(sc.s["dragon_cell"]) == cell("0705")
    assert sc.phase == R.PH_DRAGON_DIE and sc.to_play == 2  # the next player to the right
    assert sc.legal() == ["die 2 (NE)", "die 5 (SW)"]


def test_rule_7_42_a_move_that_would_run_off_the_board_is_void_even_across_a_castle():
    """Choice (see rules.dragon_walk): 7.42 judges the rolled move as a whole, so
    the castle on the way is not attacked; he goes home and the player rolls again."""
    sc = Scenario(num_players=2)                            # seat 1 is Ironcrag
    sc.dragon("1304", enraged=True)
    castle = sc.put(1, KNIGHT, "Ironcrag Castle", n=3)
    sc.load_dice(N, 5, NE, 1)                               # castle, village, 1301, 1300, off
    last_move_by(sc, 0)
    assert sc.dice_left() == 0
    assert all(sc.loc(u) == cell("Ironcrag Castle") for u in castle)
    assert int(sc.s["dragon_cell"]) == step(LAIR, NE, 1)
