"""The set-up: rules 1-3.52.

``fresh_game`` deals a game through the rules themselves with the first draws
of its stream loaded: the Cave's being (raw 0..9), the Hollow Tree's (0..8),
then one die per seat for the set-up order (raw 0..5 = faces 1..6).
"""
from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import (
    HERO, SNIPER, KNIGHT, MAN_AT_ARMS, NUM_BEINGS, DECK_SIZE, UNITS_PER_COLOUR,
    OPEN, FOREST, MOUNTAIN, SWAMP, CASTLE, VILLAGE, COTTAGE, DRAGON_LAIR, BEING_LAIR,
    BANISHER, BERSERKER, DEMON, DISPERSER,
)
from dragongym.envs.dragonhunt.state import LOC_RESERVE
from dragongym.envs.dragonhunt.game import cell_name
from tests.dragonhunt.scenario import Scenario, fresh_game, cell

LAIR = "Lair of Brimstone"


def faces(*dice):
    """Raw values of die faces."""
    return tuple(f - 1 for f in dice)


def units_of(sc, colour, where=None, unit_type=None):
    s = sc.s
    out = []
    for i in range(UNITS_PER_COLOUR):
        u = colour * UNITS_PER_COLOUR + i
        loc = int(s["unit_loc"][u])
        if where is not None and loc != cell(where):
            continue
        if where is None and loc < 0:
            continue
        if unit_type is not None and int(R.UNIT_TYPE[u]) != unit_type:
            continue
        out.append(u)
    return out


def choose_kingdoms(sc, names):
    for name in names:
        sc.act(f"choose kingdom {name}")


def place_all(sc, pick=0):
    """Make every set-up placement, taking the ``pick``-th legal space each time.
    Returns [(seat, unit type), ...] in the order placed."""
    seq = []
    while int(sc.s["stage"]) == R.ST_SETUP_PLACE and sc.phase == R.PH_PLACE:
        seq.append((sc.to_play, int(sc.s["place_type"])))
        legal = sc.legal()
        sc.act(legal[min(pick, len(legal) - 1)])
    return seq


# ------------------------------------------------------------------ 1
def test_rule_1_set_up_leaves_the_first_player_choosing_a_kingdom():
    sc = fresh_game(3, rolls=(0, 0, *faces(6, 1, 2)))
    assert int(sc.s["stage"]) == R.ST_SETUP_KINGDOM
    assert sc.phase == R.PH_KINGDOM and sc.to_play == 0
    assert len(sc.legal()) == 6


def test_rule_1_1_normal_dragon_starts_in_his_lair():
    sc = fresh_game(2, rolls=(0, 0, *faces(6, 1)))
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL == cell(LAIR)
    assert int(D.TERRAIN[R.LAIR_CELL]) == DRAGON_LAIR
    assert int(sc.s["enraged"]) == 0


def test_rule_1_2_two_beings_are_drawn_at_random_from_the_ten():
    sc = fresh_game(2, rolls=(3, 0, *faces(6, 1)))
    assert [int(x) for x in sc.s["slot_being"]] == [DISPERSER, BANISHER]
    sc = fresh_game(2, rolls=(9, 8, *faces(6, 1)))          # the last of ten, then of nine
    assert [int(x) for x in sc.s["slot_being"]] == [NUM_BEINGS - 1, NUM_BEINGS - 2]
    sc = fresh_game(2, rolls=(0, 0, *faces(6, 1)))
    assert [int(x) for x in sc.s["slot_being"]] == [BANISHER, BERSERKER]   # never the same one twice


def test_rule_1_2_unloaded_draws_vary_with_the_seed():
    pairs = {tuple(int(x) for x in fresh_game(2, seed=seed).s["slot_being"]) for seed in range(12)}
    assert len(pairs) > 3
    assert all(a != b for a, b in pairs)


def test_rule_1_21_the_first_being_drawn_goes_face_up_in_the_cave():
    sc = fresh_game(2, rolls=(2, 5, *faces(6, 1)))
    assert int(sc.s["slot_being"][0]) == DEMON
    assert int(sc.s["slot_loc"][0]) == cell("Cave") == int(D.BEING_LAIR_CELL[0])


def test_rule_1_22_the_second_being_goes_face_up_in_the_hollow_tree():
    sc = fresh_game(2, rolls=(2, 5, *faces(6, 1)))
    assert int(sc.s["slot_being"][1]) == 6                  # 5th of the nine left: Paralyzer
    assert int(sc.s["slot_loc"][1]) == cell("Hollow Tree") == int(D.BEING_LAIR_CELL[1])


def test_rule_1_23_the_other_eight_wait_face_down_to_replace_lost_beings():
    sc = fresh_game(2, rolls=(3, 0, *faces(6, 1)))
    pile = int(sc.s["being_pile"])
    assert pile == ((1 << NUM_BEINGS) - 1) & ~(1 << DISPERSER) & ~(1 << BANISHER)
    # the Disperser (Cave) is killed: the replacement comes from that pile
    sc.load_rolls(0)
    R.being_killed(sc.S, 0, 0, False, -1)
    assert int(sc.s["slot_being"][0]) == BERSERKER          # lowest of the mixed pile
    assert int(sc.s["slot_loc"][0]) == cell("Cave")
    assert int(sc.s["being_pile"]) >> DISPERSER & 1


def test_rule_1_3_dragon_deck_is_shuffled_every_card_once_before_a_reshuffle():
    sc = fresh_game(2, seed=5)
    assert int(sc.s["deck_left"]) == (1 << DECK_SIZE) - 1
    drawn = [int(R.draw_dragon_card(sc.S, 0)) for _ in range(DECK_SIZE)]
    assert sorted(drawn) == list(range(DECK_SIZE))          # a permutation of the deck
    assert drawn != list(range(DECK_SIZE))                  # ... not the printed order
    assert int(sc.s["deck_left"]) == 0
    assert 0 <= int(R.draw_dragon_card(sc.S, 0)) < DECK_SIZE   # spent deck: reshuffled
    assert bin(int(sc.s["deck_left"])).count("1") == DECK_SIZE - 1
    other = fresh_game(2, seed=6)
    assert [int(R.draw_dragon_card(other.S, 0)) for _ in range(DECK_SIZE)] != drawn


# ------------------------------------------------------------------ 2
def test_example_2_1_highest_untied_roll_takes_the_first_turn():
    """EXAMPLE: In a five player game the die rolls are 6, 6, 2, 5, 3. With this the
    case, the player that rolled the FIVE will have the FIRST TURN in the set-up.
    Five is the HIGHEST, UNTIED roll in this example."""
    sc = fresh_game(5, rolls=(0, 0, *faces(6, 6, 2, 5, 3)))
    assert sc.dice_left() == 0
    assert int(sc.s["setup_first"]) == 3
    assert sc.phase == R.PH_KINGDOM and sc.to_play == 3


def test_rule_2_1_first_player_takes_the_first_turn_in_every_set_up_phase():
    sc = fresh_game(3, rolls=(0, 0, *faces(2, 4, 3)))
    assert sc.to_play == 1                                  # kingdoms
    choose_kingdoms(sc, ("Sunken", "Ironcrag", "Elderwood"))
    assert sc.phase == R.PH_PLACE and sc.to_play == 1       # men-at-arms
    seq = place_all(sc)
    first_knight = next(p for p, t in seq if t == KNIGHT)
    assert first_knight == 1                                # knights


def test_rule_2_2_if_all_are_tied_everyone_rolls_again():
    sc = fresh_game(3, rolls=(0, 0, *faces(4, 4, 4), *faces(2, 6, 1)))
    assert sc.dice_left() == 0
    assert int(sc.s["setup_first"]) == 1


def test_rule_2_2_no_untied_roll_at_all_means_a_reroll():
    sc = fresh_game(4, rolls=(0, 0, *faces(3, 3, 5, 5), *faces(1, 2, 3, 4)))
    assert sc.dice_left() == 0
    assert int(sc.s["setup_first"]) == 3


def test_rule_2_3_set_up_turns_pass_to_the_left():
    sc = fresh_game(4, rolls=(0, 0, *faces(1, 2, 6, 3)))
    order = []
    for name in ("Sunken", "Ironcrag", "Elderwood", "Greymoor"):
        order.append(sc.to_play)
        sc.act(f"choose kingdom {name}")
    assert order == [2, 3, 0, 1]                            # left = the next seat up


# ------------------------------------------------------------------ 3.1
def test_rule_3_1_each_player_takes_a_kingdom_and_his_colour():
    sc = fresh_game(3, rolls=(0, 0, *faces(6, 1, 2)))
    sc.act("choose kingdom Sunken")
    k = D.KINGDOM_NAMES.index("Sunken")
    assert int(sc.s["kingdom"][0]) == k and int(sc.s["colour_kingdom"][0]) == k
    assert "choose kingdom Sunken" not in sc.legal()        # taken
    assert len(sc.legal()) == 5
    # one kingdom = castle, village and cottage of the same name
    for t in (CASTLE, VILLAGE, COTTAGE):
        c = int({CASTLE: D.CASTLE_CELL, VILLAGE: D.VILLAGE_CELL, COTTAGE: D.COTTAGE_CELL}[t][k])
        assert int(D.KINGDOM[c]) == k and int(D.TERRAIN[c]) == t
        assert cell_name(c).startswith("Sunken")


def test_rule_3_11_hero_and_four_knights_in_the_castle_two_snipers_six_men_in_the_village():
    sc = fresh_game(2, rolls=(0, 0, *faces(1, 6)))
    sc.act("choose kingdom Ambervale")
    p = 1
    castle, village, cottage = "Ambervale Castle", "Ambervale Village", "Ambervale Cottage"
    assert len(units_of(sc, p, castle, HERO)) == 1
    assert len(units_of(sc, p, castle, KNIGHT)) == 4
    assert len(units_of(sc, p, castle)) == 5
    assert len(units_of(sc, p, village, SNIPER)) == 2
    assert len(units_of(sc, p, village, MAN_AT_ARMS)) == 6
    assert len(units_of(sc, p, village)) == 8
    assert units_of(sc, p, cottage) == []
    assert len(units_of(sc, p)) == 13                       # nothing anywhere else


def test_rule_3_12_the_next_player_chooses_once_the_units_are_in_place():
    sc = fresh_game(3, rolls=(0, 0, *faces(6, 1, 2)))
    assert sc.to_play == 0
    sc.act("choose kingdom Greymoor")
    assert sc.phase == R.PH_KINGDOM and sc.to_play == 1
    assert len(units_of(sc, 0)) == 13 and units_of(sc, 1) == []


# ------------------------------------------------------------------ 3.2
def test_rule_3_2_only_the_unchosen_kingdoms_are_garrisoned():
    sc = fresh_game(4, rolls=(0, 0, *faces(6, 1, 2, 3)))
    choose_kingdoms(sc, ("Elderwood", "Ironcrag", "Ambervale", "Sunken"))
    for k in range(4):                                      # chosen: only the owner's units
        assert int(sc.s["cell_colour"][D.CASTLE_CELL[k]]) == k
        assert int(sc.s["cell_count"][D.CASTLE_CELL[k]]) == 5
    for k in (4, 5):
        assert int(sc.s["cell_count"][D.CASTLE_CELL[k]]) > 0
    six = fresh_game(6, rolls=(0, 0, *faces(6, 1, 2, 3, 4, 5)))
    choose_kingdoms(six, D.KINGDOM_NAMES)
    assert all(int(six.s["colour_kingdom"][c]) == int(six.s["kingdom"][c]) for c in range(6))
    assert int(six.s["cell_count"][D.CASTLE_CELL].sum()) == 6 * 5


def test_rule_3_21_two_knights_of_an_unused_colour_in_each_vacant_castle():
    sc = fresh_game(2, rolls=(0, 0, *faces(6, 1)))
    choose_kingdoms(sc, ("Elderwood", "Sunken"))
    colours = set()
    for name in ("Ironcrag", "Ambervale", "Greymoor", "Stonehelm"):
        c = cell(f"{name} Castle")
        colour = int(sc.s["cell_colour"][c])
        assert colour >= 2                                  # not a player's colour
        assert int(sc.s["colour_kingdom"][colour]) == D.KINGDOM_NAMES.index(name)
        assert len(units_of(sc, colour, c, KNIGHT)) == 2 == int(sc.s["cell_count"][c])
        colours.add(colour)
    assert len(colours) == 4                                # one unused colour per kingdom


def test_rule_3_22_four_men_at_arms_of_an_unused_colour_in_each_vacant_village():
    sc = fresh_game(2, rolls=(0, 0, *faces(6, 1)))
    choose_kingdoms(sc, ("Elderwood", "Sunken"))
    for name in ("Ironcrag", "Ambervale", "Greymoor", "Stonehelm"):
        c = cell(f"{name} Village")
        colour = int(sc.s["cell_colour"][c])
        assert colour >= 2
        assert colour == int(sc.s["cell_colour"][cell(f"{name} Castle")])
        assert len(units_of(sc, colour, c, MAN_AT_ARMS)) == 4 == int(sc.s["cell_count"][c])
        assert int(sc.s["cell_count"][cell(f"{name} Cottage")]) == 0


def test_rule_3_23_once_garrisoned_the_placement_of_3_3_begins():
    sc = fresh_game(2, rolls=(0, 0, *faces(6, 1)))
    choose_kingdoms(sc, ("Elderwood", "Sunken"))
    assert int(sc.s["stage"]) == R.ST_SETUP_PLACE
    assert sc.phase == R.PH_PLACE and sc.to_play == 0


# ------------------------------------------------------------------ 3.3
def test_rule_3_3_six_men_and_two_knights_each_are_set_aside_and_placed():
    sc = fresh_game(3, rolls=(0, 0, *faces(6, 1, 2)))
    choose_kingdoms(sc, ("Elderwood", "Ironcrag", "Sunken"))
    for p in range(3):
        assert [int(x) for x in sc.s["reinf_left"][p]] == [6, 2]
    place_all(sc)
    for p in range(3):
        field = [u for u in units_of(sc, p) if R.IS_FIELD[sc.loc(u)]]
        assert sum(int(R.UNIT_TYPE[u]) == MAN_AT_ARMS for u in field) == 6
        assert sum(int(R.UNIT_TYPE[u]) == KNIGHT for u in field) == 2
        assert len(field) == 8


def test_rule_3_31_men_at_arms_one_at_a_time_in_rotation_from_the_first_player():
    sc = fresh_game(3, rolls=(0, 0, *faces(2, 6, 4)))
    choose_kingdoms(sc, ("Elderwood", "Ironcrag", "Sunken"))
    seq = place_all(sc)
    assert seq[:18] == [(p, MAN_AT_ARMS) for p in (1, 2, 0) * 6]


def test_rule_3_32_then_knights_from_the_first_player_in_the_same_rotation():
    sc = fresh_game(3, rolls=(0, 0, *faces(2, 6, 4)))
    choose_kingdoms(sc, ("Elderwood", "Ironcrag", "Sunken"))
    seq = place_all(sc)
    assert seq[18:] == [(p, KNIGHT) for p in (1, 2, 0) * 2]
    assert len(seq) == 24


def test_rule_3_31_a_player_with_no_legal_space_keeps_the_unit_in_reserve():
    """Choice (the rulebook is silent): his turn is skipped and the counter stays
    in reserve (rules.placement_round)."""
    sc = fresh_game(2, rolls=(0, 0, *faces(6, 1)))
    choose_kingdoms(sc, ("Elderwood", "Sunken"))
    # X: a space next to seat 0's own castle, legal for seat 0 only (3.44)
    castle = cell("Elderwood Castle")
    x = next(c for c in range(R.NC) if R.SPACE_ADJ[c, castle] and R.placement_legal(sc.S, 0, 0, c))
    assert not R.placement_legal(sc.S, 0, 1, x)
    # fill every space seat 1 could use: next to X with seat 0's men (no bar to
    # seat 0), elsewhere with counters of the unused colours 2..5
    spare = [u for u in range(2 * UNITS_PER_COLOUR, 6 * UNITS_PER_COLOUR) if sc.loc(u) == LOC_RESERVE]
    for c in range(R.NC):
        if R.placement_legal(sc.S, 0, 1, c):
            if R.SPACE_ADJ[c, x]:
                sc.put(0, MAN_AT_ARMS, c)
            else:
                R.set_loc(sc.S, 0, spare.pop(), c)
    assert not R.any_placement(sc.S, 0, 1)
    assert R.placement_legal(sc.S, 0, 0, x)
    reserve_1 = [u for u in range(UNITS_PER_COLOUR, 2 * UNITS_PER_COLOUR) if sc.loc(u) == LOC_RESERVE]
    seq = place_all(sc)
    assert seq and all(p == 0 for p, _ in seq)              # seat 1 is skipped every time
    assert [u for u in range(UNITS_PER_COLOUR, 2 * UNITS_PER_COLOUR) if sc.loc(u) == LOC_RESERVE] == reserve_1
    assert int(sc.s["stage"]) == R.ST_BRIMSTONE


# ------------------------------------------------------------------ 3.4
def test_rule_3_4_every_set_up_placement_obeys_the_restrictions():
    sc = fresh_game(4, rolls=(0, 0, *faces(6, 1, 2, 3)))
    choose_kingdoms(sc, ("Elderwood", "Ambervale", "Greymoor", "Stonehelm"))
    place_all(sc, pick=7)
    s = sc.s
    lairs = [R.LAIR_CELL, *[int(x) for x in D.BEING_LAIR_CELL]]
    for p in range(4):
        for u in units_of(sc, p):
            c = sc.loc(u)
            if not R.IS_FIELD[c]:
                continue
            assert int(s["cell_count"][c]) == 1                                 # 3.42
            for c2 in range(R.NC):
                if not R.SPACE_ADJ[c, c2]:
                    continue
                assert c2 not in lairs                                          # 3.45
                if R.IS_STRUCTURE[c2]:
                    assert int(D.KINGDOM[c2]) == int(s["kingdom"][p])           # 3.44
                if int(s["cell_count"][c2]) > 0:
                    assert int(s["cell_colour"][c2]) == p                       # 3.44


def legal_for(sc, p, name):
    return bool(R.placement_legal(sc.S, 0, p, cell(name)))


def test_rule_3_41_only_vacant_mountain_forest_swamp_or_open_spaces():
    sc = Scenario(num_players=2)
    ok = [c for c in range(R.NC) if R.placement_legal(sc.S, 0, 0, c)]
    assert {int(D.TERRAIN[c]) for c in ok} == {OPEN, FOREST, MOUNTAIN, SWAMP}
    for c in range(R.NC):
        if int(D.TERRAIN[c]) in (DRAGON_LAIR, BEING_LAIR):
            assert not R.placement_legal(sc.S, 0, 0, c)
    sc.being(0, BANISHER, cell_name(ok[0]))                 # a being makes it not vacant
    assert not R.placement_legal(sc.S, 0, 0, ok[0])


def test_rule_3_42_one_unit_per_space():
    sc = Scenario(num_players=2)
    spot = next(c for c in range(R.NC) if R.placement_legal(sc.S, 0, 0, c))
    sc.put(0, MAN_AT_ARMS, spot)
    assert not R.placement_legal(sc.S, 0, 0, spot)          # not even on his own unit


def test_rule_3_43_no_unit_in_a_castle_village_or_cottage():
    sc = Scenario(num_players=2)                            # seat 0 is Elderwood
    for k in range(6):
        for arr in (D.CASTLE_CELL, D.VILLAGE_CELL, D.COTTAGE_CELL):
            assert not R.placement_legal(sc.S, 0, 0, int(arr[k]))
            assert not R.placement_legal(sc.S, 0, 1, int(arr[k]))


def test_rule_3_44_not_next_to_an_enemy_unit():
    sc = Scenario(num_players=2)
    spot = "0303"
    around = [int(c) for c in D.NEIGHBOURS[cell(spot)][:D.NUM_NEIGHBOURS[cell(spot)]]]
    free = [c for c in around if R.placement_legal(sc.S, 0, 1, c)]
    assert free                                             # legal before ...
    sc.put(0, KNIGHT, spot)
    assert not any(R.placement_legal(sc.S, 0, 1, c) for c in free)   # ... not next to the enemy
    assert all(R.placement_legal(sc.S, 0, 0, c) for c in free)       # his own unit is no bar


def test_rule_3_44_not_next_to_an_enemy_castle_village_or_cottage():
    """Choice: "enemy" qualifies the structures too; a player may place next to
    his own castle, village or cottage (rules._placement_table)."""
    sc = Scenario(num_players=2, kingdoms=("Elderwood", "Sunken"))
    for name in ("Elderwood Castle", "Elderwood Village", "Elderwood Cottage"):
        c = cell(name)
        near = [int(x) for x in D.NEIGHBOURS[c][:D.NUM_NEIGHBOURS[c]] if R.IS_FIELD[x]]
        assert not any(R.placement_legal(sc.S, 0, 1, x) for x in near), name   # Sunken's player
        assert any(R.placement_legal(sc.S, 0, 0, x) for x in near), name       # the owner
    # a kingdom nobody plays (garrisoned, 3.2) is an enemy to all
    c = cell("Greymoor Castle")
    near = [int(x) for x in D.NEIGHBOURS[c][:D.NUM_NEIGHBOURS[c]]]
    assert not any(R.placement_legal(sc.S, 0, p, x) for p in (0, 1) for x in near)


def test_rule_3_45_not_next_to_the_lair_the_cave_or_the_hollow_tree():
    sc = Scenario(num_players=2)
    sc.no_beings()
    for name in (LAIR, "Cave", "Hollow Tree"):
        c = cell(name)
        near = [int(x) for x in D.NEIGHBOURS[c][:D.NUM_NEIGHBOURS[c]]]
        assert near
        assert not any(R.placement_legal(sc.S, 0, p, x) for p in (0, 1) for x in near), name
        two_away = [x for x in range(R.NC) if R.SPACE_DIST[x, c] == 2 and R.placement_legal(sc.S, 0, 0, x)]
        assert two_away, name                               # the ban is adjacency only


# ------------------------------------------------------------------ 3.5
def full_setup(n, dice, kingdoms):
    sc = fresh_game(n, rolls=(0, 0, *faces(*dice)))
    choose_kingdoms(sc, kingdoms)
    while sc.phase == R.PH_PLACE:
        if int(sc.s["place_type"]) == KNIGHT and sum(int(x) for x in sc.s["reinf_left"][:n, 1]) == 1:
            sc.load_dice(1, 2)                              # Brimstone's first roll: a choice
        sc.act(sc.legal()[0])
    return sc


def test_rule_3_51_the_first_player_takes_the_being_choice_marker():
    sc = full_setup(3, (2, 6, 4), ("Elderwood", "Ironcrag", "Sunken"))
    assert int(sc.s["setup_first"]) == 1
    assert int(sc.s["choice_player"]) == 1


def test_rule_3_52_the_last_to_play_in_the_set_up_takes_the_second_being_marker():
    sc = full_setup(3, (2, 6, 4), ("Elderwood", "Ironcrag", "Sunken"))
    assert int(sc.s["placed_last"]) == 0                    # rotation 1, 2, 0
    assert int(sc.s["second_player"]) == 0


def test_rule_6_the_last_set_up_placer_moves_the_dragon_first():
    sc = full_setup(3, (2, 6, 4), ("Elderwood", "Ironcrag", "Sunken"))
    assert int(sc.s["stage"]) == R.ST_BRIMSTONE
    assert sc.phase == R.PH_DRAGON_DIE and sc.to_play == 0
    assert sc.legal() == ["die 1 (N)", "die 2 (NE)"]
