"""Rulebook section 15: the Fantastic Beings, their powers and exceptions
(15 to 15.7, with 15.601x and the misprinted 16.624).

Positions are built with the Scenario helper; dice are fixed with
``load_dice`` (faces) and ``load_rolls`` (raw draws: a random space, a being
from the pile, a random target). Being combat (15.2) is one die each plus the
strengths and the defender's terrain (9.45): open 0, forest/swamp 1, mountain 2.

Board facts used below: seat 0 plays Elderwood (castle 0600/0700, cottage
0501), seat 1 Ironcrag; column 10 runs 1002 open, 1003 open, 1004 open,
1005 forest, 1006 forest, 1007 open, 1008 mountain, 1009 open, 1010 swamp.
"""
import numpy as np
import pytest

from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import (
    BANISHER, BERSERKER, DEMON, DISPERSER, DRAGON_CHARMER, EAGLE, PARALYZER, REVIVOR,
    TELEPORTER, TROLL, NUM_BEINGS, HERO, KNIGHT, MAN_AT_ARMS, SNIPER,
)
from dragongym.envs.dragonhunt.state import LOC_DEAD, LOC_OUT, F_WOUNDED, F_HARRIED, F_DEMON_KILL
from tests.dragonhunt.beings_common import (
    arena, being_loc, in_pile, pile_index, use_being, first_being_stays, choose_die,
    legal_cells, mask, name, towards, vacant_fields,
)
from tests.dragonhunt.scenario import cell

ATTACKERS = (BANISHER, BERSERKER, DEMON, TROLL)


def control(sc, where, to=None, second_dice=(2, 5)):
    """Start the round; the first player (seat 0) selects the being on
    ``where`` and moves it to ``to`` (default: stays). The second being's dice
    are loaded after whatever the test loaded already."""
    sc.load_dice(*second_dice)
    sc.start_being_round(0, 1)
    use_being(sc, where, to)


def preload(sc, *faces, rolls=()):
    """Load dice faces, then raw draws, ahead of the second being's dice."""
    sc.load_dice(*faces)
    sc.load_rolls(*rolls)


def player_attacks(sc, seat, attacker_at, target_at, order=None):
    """Play ``seat``'s Player's round up to one attack: no movement, then the
    unit on ``attacker_at`` attacks ``target_at``."""
    sc.start_player_round(order or [seat, 1 - seat])
    sc.act("done")                                    # end the movement segment
    assert sc.phase == R.PH_COMBAT_SELECT
    sc.act(f"attack with unit at {attacker_at}")
    sc.act(f"attack {target_at}")


# ------------------------------------------------------------------ 15 general
def test_15_never_more_than_two_beings_in_play():
    """15: "No more than two of them will be in play at any one time": a being
    killed goes to the pile and one is drawn for its lair; pile and board
    always hold the ten."""
    sc = arena((0, PARALYZER, "Cave"), (1, REVIVOR, "1004"))
    sc.put(0, KNIGHT, "1003")
    preload(sc, 6, 1, rolls=(0,))
    player_attacks(sc, 0, "1003", "1004")
    on_board = [int(k) for k in sc.s["slot_being"] if k >= 0]
    pile = [k for k in range(NUM_BEINGS) if in_pile(sc, k)]
    assert len(on_board) == 2 and sorted(on_board + pile) == list(range(NUM_BEINGS))


def test_15_11_flying_beings_ignore_terrain_costs():
    """15.11: the Demon (6F) spends one point a space: from 1002 it reaches 1008,
    six spaces south over forest and onto a mountain."""
    sc = arena((0, DEMON, "1002"), (1, PARALYZER, "Hollow Tree"))
    sc.start_being_round(0, 1)
    sc.act("use being at 1002")
    cells = legal_cells(sc)
    assert "1008" in cells and "1009" not in cells


def test_15_12_ground_beings_pay_terrain_costs():
    """15.12: the Troll (6M) pays 1+1+2+2 to reach 1006; 1007 would cost 7."""
    sc = arena((0, TROLL, "1002"), (1, PARALYZER, "Hollow Tree"))
    sc.start_being_round(0, 1)
    sc.act("use being at 1002")
    cells = legal_cells(sc)
    assert "1006" in cells and "1007" not in cells


def test_15_13_a_being_sent_home_goes_regardless_of_distance():
    """15.13: a being required to return to its lair is placed there whatever
    its movement: the Eagle (Cave slot) loses a harry at 1004, far from the
    Cave, and is there at once (15.664)."""
    sc = arena((0, EAGLE, "1210"), (1, PARALYZER, "Hollow Tree"))
    sc.put(1, KNIGHT, "1211")
    preload(sc, 1, 6)                                 # Eagle 2+1 against 2+1(forest)+6
    control(sc, "1210")
    sc.act("being acts on 1211")
    assert being_loc(sc, 0) == "Cave"
    assert D.SPACE_DIST[cell("1210"), cell("Cave")] > int(D.BEING_MOVE[EAGLE])


@pytest.mark.parametrize("k", range(NUM_BEINGS))
def test_15_2_only_four_beings_attack(k):
    """15.2: only the BANISHER, BERSERKER, DEMON and TROLL can attack other units;
    no other being is offered the adjacent enemy knight as a target (the Eagle
    may harry it, 15.664, which never kills)."""
    sc = arena((0, k, "1003"), (1, PARALYZER if k != PARALYZER else REVIVOR, "Hollow Tree"))
    knight = sc.put(1, KNIGHT, "1004")
    preload(sc, 6, 1)                                 # the being's die 6, the knight's 1
    control(sc, "1003")
    offered = sc.phase == R.PH_BEING_TARGET and bool(mask(sc)[cell("1004")])
    if k in ATTACKERS:
        assert offered
        sc.act("being acts on 1004")
        if k == BANISHER:
            sc.act("banish to 0000")
        assert sc.loc(knight) != cell("1004")
    elif k == EAGLE:
        assert offered
        sc.act("being acts on 1004")
        assert sc.loc(knight) == cell("1004") and int(sc.s["unit_flags"][knight]) & F_HARRIED
    else:
        assert not offered
        assert sc.loc(knight) == cell("1004")


def test_15_3_no_being_ever_attacks_the_dragon():
    """15.3: no Fantastic Being will ever attack the Dragon: the Demon next to
    Brimstone alone is offered nothing."""
    sc = arena((0, DEMON, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1004")
    control(sc, "1003")
    assert sc.phase == R.PH_SECOND_DIE
    assert not R.can_be_attacked_by_being(sc.S, 0, 0, cell("1004"), 0)


def test_15_3_a_being_attacked_by_the_dragon_defends_with_its_defence_only():
    """15.3, 7.512: attacked by Brimstone a being defends as any unit, with its
    DEFENSIVE strength and no power: the Banisher (5/1) rolls 3+3+1 = 7 on the
    Single Piece column and is killed (with his attack of 5 it would be 11)."""
    sc = arena((0, BANISHER, "1004"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1003")
    sc.load_dice(3, 3)
    sc.load_rolls(pile_index(sc, EAGLE, joining=[BANISHER]))
    R.dragon_walk(sc.S, 0, 4, 1)
    assert in_pile(sc, BANISHER)
    assert int(sc.s["slot_being"][0]) == EAGLE


def test_15_31_only_the_dragon_charmer_affects_the_dragon():
    """15.31: all other being powers are useless against the Dragon: the
    Disperser next to Brimstone alone has nothing to disperse and the Banisher
    nothing to banish; the Charmer moves him (15.65)."""
    for k in (DISPERSER, BANISHER):
        sc = arena((0, k, "1003"), (1, PARALYZER, "Hollow Tree"))
        sc.dragon("1004")
        control(sc, "1003")
        assert sc.phase == R.PH_SECOND_DIE
        assert int(sc.s["dragon_cell"]) == cell("1004")
    sc = arena((0, DRAGON_CHARMER, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1005")
    control(sc, "1003")
    assert sc.phase == R.PH_CHARM
    sc.act("charm Brimstone 1 away")
    assert int(sc.s["dragon_cell"]) == cell("1006")


def test_15_4_a_being_killed_by_a_player_goes_to_the_pile_and_a_new_one_is_drawn():
    """15.4: players may attack the beings; a killed being (not the Demon) goes
    face down into the pile and a being is drawn for its lair; 9.481 the
    winner occupies its space."""
    sc = arena((0, PARALYZER, "Cave"), (1, REVIVOR, "1004"))
    knight = sc.put(0, KNIGHT, "1003")
    preload(sc, 6, 1, rolls=(pile_index(sc, TROLL, joining=[REVIVOR]),))   # knight 2+6 against 1+0+1
    player_attacks(sc, 0, "1003", "1004")
    assert in_pile(sc, REVIVOR)
    assert int(sc.s["slot_being"][1]) == TROLL and being_loc(sc, 1) == "Hollow Tree"
    assert sc.loc(knight) == cell("1004")


def test_15_4_the_being_drawn_may_be_the_one_just_killed():
    """15.4: "(The Being picked may be the same being that the player just killed.)" """
    sc = arena((0, PARALYZER, "Cave"), (1, REVIVOR, "1004"))
    sc.put(0, KNIGHT, "1003")
    preload(sc, 6, 1, rolls=(pile_index(sc, REVIVOR, joining=[REVIVOR]),))
    player_attacks(sc, 0, "1003", "1004")
    assert int(sc.s["slot_being"][1]) == REVIVOR and being_loc(sc, 1) == "Hollow Tree"


def test_15_5_the_actively_used_beings_power_prevails():
    """15.5: the power of the being ACTIVELY used prevails: the first player's
    Banisher beats the Demon and banishes it where he likes (the Demon's own
    rule would only have wounded it home, 15.633)."""
    sc = arena((0, BANISHER, "1003"), (1, DEMON, "1004"))
    preload(sc, 6, 1)                                 # Banisher 5+6 against Demon 3+0+1
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert sc.phase == R.PH_BANISH_DEST
    sc.act("banish to 1412")
    assert being_loc(sc, 1) == "1412"
    assert being_loc(sc, 0) == "1004"


def test_15_5_the_active_eagle_carries_a_unit_the_paralyzer_holds():
    """15.5: the active Eagle's power prevails over the (inactive) Paralyzer's:
    it may fly away a unit she paralyzes."""
    sc = arena((0, EAGLE, "1002"), (1, PARALYZER, "1005"))
    knight = sc.put(0, KNIGHT, "1004")
    assert R.is_paralyzed(sc.S, 0, knight)
    control(sc, "1002")
    sc.act("being acts on 1004")
    sc.act("eagle carries to 0202")
    assert name(sc.loc(knight)) == "0202"


def test_15_51_only_the_first_players_being_is_actively_used():
    """15.51: a being is actively used only under the FIRST PLAYER: his Berserker
    that kills may move again (15.621); the same kill made while the Berserker
    moves at random gives no second move (15.622, 15.623)."""
    sc = arena((0, BERSERKER, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(1, MAN_AT_ARMS, "1004")
    preload(sc, 6, 1)
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert sc.phase == R.PH_BEING_MOVE and being_loc(sc, 0) == "1004"
    sc2 = arena((0, PARALYZER, "Cave"), (1, BERSERKER, "1002"))
    sc2.put(0, MAN_AT_ARMS, "1004")
    sc2.load_dice(4, 1, 6, 1)
    first_being_stays(sc2, "Cave")
    choose_die(sc2, 4)
    assert sc2.phase == R.PH_CARD and being_loc(sc2, 1) == "1004"


@pytest.mark.parametrize("k, lost_to", [(DEMON, LOC_OUT), (BANISHER, LOC_DEAD), (TROLL, LOC_DEAD)])
def test_15_52_a_unit_the_paralyzer_holds_is_killed_without_a_roll(k, lost_to):
    """15.52: if a Fantastic Being attacks a unit affected by the PARALYZER, the
    unit is automatically killed (no dice; the Banisher too: the rule names no
    exception) and the being takes its space."""
    sc = arena((0, k, "1003"), (1, PARALYZER, "1005"))
    knight = sc.put(1, KNIGHT, "1004")
    assert R.is_paralyzed(sc.S, 0, knight)
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert sc.loc(knight) == lost_to
    assert being_loc(sc, 0) == "1004"
    assert (int(sc.s["die0"]), int(sc.s["die1"])) == (2, 5)    # the second being's dice, untouched


def test_15_52_the_paralyzer_has_no_effect_on_beings():
    """15.52, 15.673: the Paralyzer's power has no effect on any Fantastic Being:
    the Demon beside her flies off freely."""
    sc = arena((0, DEMON, "1004"), (1, PARALYZER, "1005"))
    sc.start_being_round(0, 1)
    sc.act("use being at 1004")
    assert "1010" in legal_cells(sc)


# ------------------------------------------------------------------ 15.61 Banisher
def test_15_61_the_banisher_attacks_after_his_move_any_adjacent_piece():
    """15.61: moved next to any other piece, the Banisher may attack it after his
    movement: an enemy unit or the other being (never Brimstone, 15.3)."""
    sc = arena((0, BANISHER, "1002"), (1, REVIVOR, "1005"))
    sc.put(1, KNIGHT, "1103")
    sc.dragon("0903")
    sc.load_dice(2, 5)
    sc.start_being_round(0, 1)
    sc.act("use being at 1002")
    assert sc.phase == R.PH_BEING_MOVE
    sc.act("being to 1004")
    assert sc.phase == R.PH_BEING_TARGET
    assert legal_cells(sc) == ["1005", "1103"]
    assert mask(sc)[R.A_DONE] == 1                    # "may"


def test_15_611_the_first_player_sends_the_loser_to_any_empty_space():
    """15.611: if the Banisher wins, the player moving him sends the loser to any
    empty space on the board; the Banisher takes the emptied space (9.481)."""
    sc = arena((0, BANISHER, "1003"), (1, PARALYZER, "Hollow Tree"))
    knight = sc.put(1, KNIGHT, "1004")
    preload(sc, 6, 1)
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert sc.phase == R.PH_BANISH_DEST and sc.to_play == 0
    expected = sorted(name(c) for c in vacant_fields(sc))
    assert legal_cells(sc) == expected and "0000" in expected
    sc.act("banish to 0000")
    assert name(sc.loc(knight)) == "0000"
    assert being_loc(sc, 0) == "1004"


@pytest.mark.parametrize("dice", [(1, 4), (1, 6)])      # 5+1 = 2+0+4 (tie); 5+1 < 2+0+6
def test_15_612_a_tie_or_a_loss_leaves_both_unharmed(dice):
    """15.612: if the Banisher ties or loses, nothing happens to either unit."""
    sc = arena((0, BANISHER, "1003"), (1, PARALYZER, "Hollow Tree"))
    knight = sc.put(1, KNIGHT, "1004")
    preload(sc, *dice)
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert sc.loc(knight) == cell("1004") and int(sc.s["unit_flags"][knight]) == 0
    assert being_loc(sc, 0) == "1003" and int(sc.s["slot_being"][0]) == BANISHER
    assert sc.phase == R.PH_SECOND_DIE


@pytest.mark.parametrize("dice", [(1, 5), (1, 6)])      # 5+1 = 1+0+5 (tie); 5+1 < 1+0+6
def test_15_612_a_sniper_the_banisher_fails_to_banish_stays(dice):
    """Interpretation: 15.612's "nothing happens to either unit" overrides 9.645
    for the Banisher, so a sniper that survives his attack does not flee."""
    sc = arena((0, BANISHER, "1003"), (1, PARALYZER, "Hollow Tree"))
    sniper = sc.put(1, SNIPER, "1004")
    preload(sc, *dice)
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert sc.loc(sniper) == cell("1004") and int(sc.s["unit_flags"][sniper]) == 0
    assert sc.phase == R.PH_SECOND_DIE


def test_15_613_the_banisher_never_attacks_the_first_players_units():
    """15.613: the FIRST PLAYER may not use the Banisher to attack his own units."""
    sc = arena((0, BANISHER, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(0, KNIGHT, "1004")
    enemy = sc.put(1, KNIGHT, "1002")
    control(sc, "1003")
    assert legal_cells(sc) == ["1002"]
    assert name(sc.loc(enemy)) == "1002"


def test_15_614_the_banisher_attacks_once_per_round():
    """15.614: one attack per Fantastic Being Round: after it the round moves on
    to the second being though another enemy stands next to him."""
    sc = arena((0, BANISHER, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(1, KNIGHT, "1004")
    sc.put(1, MAN_AT_ARMS, "1002")
    preload(sc, 1, 6)
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert sc.phase == R.PH_SECOND_DIE


def test_15_614_attacked_in_the_combat_segment_the_banisher_kills_as_normal():
    """15.614: if the Banisher is attacked in the combat segment and wins, the
    attacker is killed as per normal combat: his power works only when he
    attacks (no banishment)."""
    sc = arena((0, PARALYZER, "Cave"), (1, BANISHER, "1004"))
    knight = sc.put(0, KNIGHT, "1003")
    preload(sc, 1, 6)                                 # knight 2+1 against 1+0+6
    player_attacks(sc, 0, "1003", "1004")
    assert sc.loc(knight) == LOC_DEAD
    assert being_loc(sc, 1) == "1004"


# ------------------------------------------------------------------ 15.62 Berserker
def test_15_62_15_621_the_berserker_kills_moves_again_and_attacks_again():
    """15.62 "3M/3M", 15.621: after his move he attacks and kills, moves again (a
    second 3M move) and, adjacent to another unit, may attack again."""
    sc = arena((0, BERSERKER, "1003"), (1, PARALYZER, "Hollow Tree"))
    first = sc.put(1, MAN_AT_ARMS, "1004")
    second = sc.put(1, MAN_AT_ARMS, "1008")
    preload(sc, 6, 1, 6, 1)
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert sc.loc(first) == LOC_DEAD and being_loc(sc, 0) == "1004"
    assert sc.phase == R.PH_BEING_MOVE
    cells = legal_cells(sc)
    assert "1007" not in cells                       # 2+2+1 > 3
    assert "1006" not in cells and "1005" in cells
    sc.act("being to 1005")
    assert int(D.BEING_SECOND_MOVE[BERSERKER]) == 3
    # second move done; 1008 is not adjacent to 1005: no second attack offered
    assert sc.phase == R.PH_SECOND_DIE
    assert sc.loc(second) == cell("1008")


def test_15_621_the_second_attack_follows_the_second_move():
    """15.621: "If, at the end of this second move, he is adjacent to another
    unit he may attack again" (and that is his last)."""
    sc = arena((0, BERSERKER, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(1, MAN_AT_ARMS, "1004")
    second = sc.put(1, MAN_AT_ARMS, "1103")
    third = sc.put(1, MAN_AT_ARMS, "1002")
    preload(sc, 6, 1, 6, 1)
    control(sc, "1003")
    sc.act("being acts on 1004")
    sc.act("being to 1004")                           # stays on the won space
    assert sc.phase == R.PH_BEING_TARGET
    sc.act("being acts on 1103")
    assert sc.loc(second) == LOC_DEAD and being_loc(sc, 0) == "1103"
    assert sc.phase == R.PH_SECOND_DIE                # no third move or attack
    assert sc.loc(third) == cell("1002")


def test_15_622_moved_at_random_he_must_make_his_second_attack():
    """15.622: moved by the LAST PLAYER he takes no second move, but if he kills
    and another target is adjacent he must attack it."""
    sc = arena((0, PARALYZER, "Cave"), (1, BERSERKER, "1002"))
    first = sc.put(0, MAN_AT_ARMS, "1004")
    second = sc.put(0, MAN_AT_ARMS, "1103")
    sc.load_dice(4, 1)                                # direction S: blocked by 1004
    sc.load_dice(6, 1)                                # kills it, takes 1004
    sc.load_rolls(0)                                  # the target: 1103, the only one
    sc.load_dice(6, 1)
    first_being_stays(sc, "Cave")
    choose_die(sc, 4)
    assert sc.loc(first) == LOC_DEAD and sc.loc(second) == LOC_DEAD
    assert being_loc(sc, 1) == "1103"
    assert sc.dice_left() == 0


def test_15_623_no_second_move_under_the_last_player():
    """15.623: the second move is allowed ONLY under the FIRST PLAYER: the random
    Berserker stays on the space of his victim, the rest of his movement lost."""
    sc = arena((0, PARALYZER, "Cave"), (1, BERSERKER, "1002"))
    sc.put(0, MAN_AT_ARMS, "1003")
    sc.load_dice(4, 1, 6, 1)
    first_being_stays(sc, "Cave")
    choose_die(sc, 4)
    assert sc.phase == R.PH_CARD
    assert being_loc(sc, 1) == "1003"


def test_16_624_no_combat_no_battle_fury():
    """16.624 (misprint of 15.624): the second move and attack come of battle
    fury: a Berserker that does not fight, or fights and kills nothing, gets
    neither."""
    sc = arena((0, BERSERKER, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(1, MAN_AT_ARMS, "1004")
    control(sc, "1003")
    sc.act("done")
    assert sc.phase == R.PH_SECOND_DIE
    sc = arena((0, BERSERKER, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(1, MAN_AT_ARMS, "1004")
    preload(sc, 1, 6)                                 # 4+1 < 1+0+6: the Berserker dies
    sc.load_rolls(0)
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert sc.phase == R.PH_SECOND_DIE and in_pile(sc, BERSERKER)


# ------------------------------------------------------------------ 15.63 Demon
def demon_attacks(sc, dice, target="1004"):
    preload(sc, *dice)
    control(sc, "1003")
    sc.act(f"being acts on {target}")


def test_15_63_the_demons_victims_are_out_of_play_for_good():
    """15.63: any unit killed by the Demon, except the Hero, is killed PERMANENTLY."""
    sc = arena((0, DEMON, "1003"), (1, PARALYZER, "Hollow Tree"))
    knight = sc.put(1, KNIGHT, "1004")
    demon_attacks(sc, (6, 1))
    assert sc.loc(knight) == LOC_OUT
    assert R.dead_unit(sc.S, 0, 1, KNIGHT) == -1      # not in the dead pile: no replacement


def test_15_63_a_knight_that_attacks_the_demon_and_loses_is_killed_for_good():
    """15.63: "Any unit that is killed by the Demon, except the Hero, is killed
    PERMANENTLY" -- a knight that attacks the Demon and loses (9.482) is killed
    by the Demon too: out of play, never a replacement."""
    sc = arena((0, PARALYZER, "Cave"), (1, DEMON, "1004"))
    knight = sc.put(0, KNIGHT, "1003")
    preload(sc, 1, 6)                                 # 2+1 < 3+0+6
    player_attacks(sc, 0, "1003", "1004")
    assert sc.loc(knight) == LOC_OUT
    assert R.dead_unit(sc.S, 0, 0, KNIGHT) == -1
    assert being_loc(sc, 1) == "1004"


def test_15_682_a_hero_that_attacks_the_demon_and_loses_may_not_be_revived():
    """15.631, 15.682: the Hero who attacks the Demon and loses goes to the dead
    pile (he may come back as a replacement) but the Revivor may not raise him."""
    sc = arena((0, PARALYZER, "Cave"), (1, DEMON, "1004"))
    hero = sc.put(0, HERO, "1003")
    preload(sc, 1, 6)                                 # 5+1 < 3+0+6
    player_attacks(sc, 0, "1003", "1004")
    assert sc.loc(hero) == LOC_DEAD
    assert int(sc.s["unit_flags"][hero]) & F_DEMON_KILL
    assert R.dead_unit(sc.S, 0, 0, HERO) == hero
    assert not R.can_revive(sc.S, 0, 0)


def test_15_631_the_hero_killed_by_the_demon_may_be_replaced():
    """15.631: the Hero killed by the Demon goes to the dead pile and may be
    taken as a replacement (12.3)."""
    sc = arena((0, DEMON, "1003"), (1, PARALYZER, "Hollow Tree"))
    hero = sc.put(1, HERO, "1004")
    demon_attacks(sc, (6, 1))                         # 3+6 = 9 against 5+0+1 = 6
    assert sc.loc(hero) == LOC_DEAD
    assert R.dead_unit(sc.S, 0, 1, HERO) == hero


def test_15_632_the_demon_shrugs_off_wounds():
    """15.632: the Demon is unaffected by any WOUND result: a tie wounds the
    knight only, whether the Demon attacks or is attacked; Brimstone's wound
    result leaves it where it is."""
    sc = arena((0, DEMON, "1003"), (1, PARALYZER, "Hollow Tree"))
    knight = sc.put(1, KNIGHT, "1004")
    demon_attacks(sc, (1, 2))                         # 3+1 = 2+0+2
    assert int(sc.s["unit_flags"][knight]) & F_WOUNDED
    assert being_loc(sc, 0) == "1003"
    sc = arena((0, PARALYZER, "Cave"), (1, DEMON, "1004"))
    knight = sc.put(0, KNIGHT, "1003")
    preload(sc, 2, 1)                                 # 2+2 = 3+0+1
    player_attacks(sc, 0, "1003", "1004")
    assert int(sc.s["unit_flags"][knight]) & F_WOUNDED
    assert being_loc(sc, 1) == "1004"
    sc = arena((0, DEMON, "1004"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1003")
    sc.load_dice(3, 3)                                # 6+3+0 = 9: "the defender is wounded"
    R.dragon_walk(sc.S, 0, 4, 1)
    assert being_loc(sc, 0) == "1004" and int(sc.s["slot_being"][0]) == DEMON


def test_15_632_15_633_a_knight_that_beats_the_demon_only_wounds_it_home():
    """15.632, 15.633: only the Hero or the Dragon can kill the Demon; when combat
    calls for another unit to kill it, it is wounded and returns to its lair."""
    sc = arena((0, PARALYZER, "Cave"), (1, DEMON, "1004"))
    knight = sc.put(0, KNIGHT, "1003")
    preload(sc, 6, 1)                                 # 2+6 > 3+0+1
    player_attacks(sc, 0, "1003", "1004")
    assert being_loc(sc, 1) == "Hollow Tree" and not in_pile(sc, DEMON)
    assert sc.loc(knight) == cell("1004")             # 9.481: the winner occupies


def test_15_633_the_demon_losing_its_own_attack_goes_home():
    """15.633: the Demon attacks a knight and loses: wounded, home, not killed."""
    sc = arena((0, DEMON, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(1, KNIGHT, "1004")
    demon_attacks(sc, (1, 6))
    assert being_loc(sc, 0) == "Cave" and int(sc.s["slot_being"][0]) == DEMON


def test_15_634_the_demon_killed_by_the_hero_never_returns():
    """15.634: killed by the Hero the Demon is out of play permanently: not in the
    pile, and its lair gets a being drawn from the pile."""
    sc = arena((0, PARALYZER, "Cave"), (1, DEMON, "1004"))
    sc.put(0, HERO, "1003")
    preload(sc, 6, 1, rolls=(pile_index(sc, TROLL),))  # hero 5+6 > 3+0+1
    player_attacks(sc, 0, "1003", "1004")
    assert not in_pile(sc, DEMON)
    assert DEMON not in [int(k) for k in sc.s["slot_being"]]
    assert int(sc.s["slot_being"][1]) == TROLL


def test_15_634_the_demon_killed_by_the_dragon_never_returns():
    """15.634: killed by the Dragon the Demon is out of play for good too."""
    sc = arena((0, DEMON, "1004"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1003")
    sc.load_dice(1, 1)                                # 2+3+0 = 5: killed
    sc.load_rolls(0)
    R.dragon_walk(sc.S, 0, 4, 1)
    assert not in_pile(sc, DEMON)
    assert int(sc.s["slot_being"][0]) == BANISHER     # raw 0: first of the pile
    assert int(sc.s["md_cottage"][0]) == 0 and int(sc.s["md_cottage"][1]) == 0


def test_15_635_the_demons_slayer_gets_two_magical_defense_markers_at_home():
    """15.635: the player who KILLS the Demon receives TWO MAGICAL DEFENSE MARKERS
    in his HOME COTTAGE, picked up on the way to the Dragon (by the sword
    wielder), and unaffected if the cottage is flamed."""
    sc = arena((0, DEMON, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(1, HERO, "1004")
    preload(sc, 1, 6, rolls=(0,))                     # Demon 3+1 < hero 5+0+6: the Demon dies
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert not in_pile(sc, DEMON) and int(sc.s["md_cottage"][1]) == 2
    R.flame_cottage(sc.S, 0, int(sc.s["kingdom"][1]))
    assert int(sc.s["md_cottage"][1]) == 2
    knight = sc.put(1, KNIGHT, "1010")
    sc.s["sword_holder"][1] = knight
    R.set_loc(sc.S, 0, knight, R.home_cottage(sc.S, 0, 1))
    assert int(sc.s["md_holder"][1]) == knight and int(sc.s["md_carried"][1]) == 2
    assert int(sc.s["md_cottage"][1]) == 0


# ------------------------------------------------------------------ 15.64 Disperser
def test_15_64_the_disperser_sends_all_adjacent_units_four_spaces_away():
    """15.64: after moving the Disperser the first player may send all adjacent
    units, of any owner, up to FOUR SPACES directly away; never the Dragon."""
    sc = arena((0, DISPERSER, "0903"), (1, PARALYZER, "Hollow Tree"))
    south = sc.put(0, KNIGHT, "1004")                 # SE of 1003
    north = sc.put(1, KNIGHT, "1002")
    sc.dragon("0903")
    sc.load_dice(2, 5)
    sc.start_being_round(0, 1)
    sc.act("use being at 0903")
    sc.act("being to 1003")
    assert sc.phase == R.PH_BEING_TARGET and mask(sc)[R.A_DONE] == 1
    sc.act("being acts on 1003")
    assert name(sc.loc(south)) == "1008"
    assert name(sc.loc(north)) == towards("1002", 1, 2)   # the north edge after two spaces
    assert int(sc.s["dragon_cell"]) == cell("0903")


def test_15_641_a_unit_stops_short_of_a_structure_in_the_closest_vacant_space():
    """15.641: structures may not be counted among the spaces dispersed through;
    the unit stops in the vacant space CLOSEST to the structure: 0701, before
    the Elderwood Castle; it ends in a vacant space, so the man at 1005 is
    passed over (1004 -> 1008 with 1008 occupied stops at 1007)."""
    sc = arena((0, DISPERSER, "0703"), (1, PARALYZER, "Hollow Tree"))
    unit = sc.put(1, KNIGHT, "0702")
    control(sc, "0703")
    sc.act("being acts on 0703")
    assert name(sc.loc(unit)) == "0701"
    sc = arena((0, DISPERSER, "1003"), (1, PARALYZER, "Hollow Tree"))
    unit = sc.put(1, KNIGHT, "1004")
    sc.put(0, MAN_AT_ARMS, "1005")
    sc.put(0, MAN_AT_ARMS, "1008")
    control(sc, "1003")
    sc.act("being acts on 1003")
    assert name(sc.loc(unit)) == "1007"


def test_15_642_every_space_counts_one_in_a_straight_line():
    """15.642: each space counts one regardless of terrain, in a straight line
    directly away from the Disperser: 1004 to 1008 through two forests onto a
    mountain (a unit could not walk it on 4 points)."""
    sc = arena((0, DISPERSER, "1003"), (1, PARALYZER, "Hollow Tree"))
    unit = sc.put(1, KNIGHT, "1004")
    control(sc, "1003")
    sc.act("being acts on 1003")
    assert name(sc.loc(unit)) == "1008" == towards("1004", 4, 4)


# ------------------------------------------------------------------ 15.65 Dragon Charmer
def test_15_65_the_charmer_in_brimstones_row_moves_him_up_to_three_spaces():
    """15.65: moved into a hex row with the Dragon, the Charmer may move him up to
    three spaces DIRECTLY TOWARDS or AWAY from her."""
    sc = arena((0, DRAGON_CHARMER, "1002"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1007")
    control(sc, "1002", to="1003")
    assert sc.phase == R.PH_CHARM
    assert sorted(sc.legal()) == sorted(["done"] + [f"charm Brimstone {k} {w}" for k in (1, 2, 3)
                                                    for w in ("toward", "away")])
    sc.act("charm Brimstone 3 toward")
    assert int(sc.s["dragon_cell"]) == cell("1004")


def test_15_65_no_charm_outside_brimstones_row():
    """15.65: only "into a hex row that contains the Dragon"."""
    sc = arena((0, DRAGON_CHARMER, "1002"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1107")
    control(sc, "1002", to="1003")
    assert sc.phase == R.PH_SECOND_DIE
    assert int(sc.s["dragon_cell"]) == cell("1107")


def test_15_651_the_charmed_dragon_attacks_the_piece_he_is_moved_onto():
    """15.651: he may be moved onto another piece to attack it."""
    sc = arena((0, DRAGON_CHARMER, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1007")
    knight = sc.put(1, KNIGHT, "1008")
    preload(sc, 1, 1)                                 # 2+2+2 = 6: killed
    control(sc, "1003")
    sc.act("charm Brimstone 1 away")
    assert int(sc.s["dragon_cell"]) == cell("1008") and sc.loc(knight) == LOC_DEAD


def test_15_651_the_charmed_dragon_attacks_the_structure_he_is_moved_onto():
    """15.651 with 7.45: moved across the Elderwood Castle he attacks it and
    returns to his lair."""
    sc = arena((0, DRAGON_CHARMER, "0704"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("0702")
    knight = sc.put(0, KNIGHT, "Elderwood Castle")
    preload(sc, 1, 1)                                 # 2+2 = 4: five occupants die
    control(sc, "0704")
    sc.act("charm Brimstone 2 away")
    assert sc.loc(knight) == LOC_DEAD
    assert int(sc.s["dragon_cell"]) == R.LAIR_CELL


def test_15_652_charmed_out_of_his_lair_he_lands_enraged():
    """15.652: used on the Dragon in his lair, the power works but, when he lands,
    he is enraged; the attack where he lands is an enraged one (9.844: at once;
    9.842: -2): 4+4+2 = 10 would only wound the knight, 8 kills it."""
    sc = arena((0, DRAGON_CHARMER, "0702"), (1, PARALYZER, "Hollow Tree"))
    knight = sc.put(1, KNIGHT, "0707")
    preload(sc, 4, 4)
    control(sc, "0702")
    sc.act("charm Brimstone 1 away")
    assert int(sc.s["dragon_cell"]) == cell("0707")
    assert int(sc.s["enraged"]) == 1
    assert sc.loc(knight) == LOC_DEAD


def test_15_653_no_effect_on_a_sleeping_brimstone():
    """15.653: if Brimstone is asleep (7.67) the power has no effect on him."""
    sc = arena((0, DRAGON_CHARMER, "1002"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1007")
    sc.s["asleep_until"] = int(sc.s["brimstone_rounds"]) + 1
    control(sc, "1002", to="1003")
    assert sc.phase == R.PH_SECOND_DIE


def test_15_654_the_charmer_has_no_effect_on_units():
    """15.654: no effect on any unit except the Dragon: her only actions move
    Brimstone; units next to her are untouched."""
    sc = arena((0, DRAGON_CHARMER, "1002"), (1, PARALYZER, "Hollow Tree"))
    sc.dragon("1007")
    knight = sc.put(1, KNIGHT, "1004")
    control(sc, "1002", to="1003")
    assert sc.phase == R.PH_CHARM
    assert not mask(sc)[:R.NC].any()
    sc.act("done")
    assert sc.loc(knight) == cell("1004")


# ------------------------------------------------------------------ 15.66 Eagle
def test_15_66_the_eagle_flies_an_own_unit_within_eight_spaces_anywhere():
    """15.66: the Eagle flies any own unit within eight spaces of it an unlimited
    distance; 15.662 then lands in an empty space next to it."""
    sc = arena((0, EAGLE, "1003"), (1, PARALYZER, "Hollow Tree"))
    near = sc.put(0, KNIGHT, "1010")                  # 7 spaces
    far = sc.put(0, MAN_AT_ARMS, "0012")              # more than 8
    control(sc, "1003")
    assert sc.phase == R.PH_BEING_TARGET
    assert mask(sc)[cell("1010")] and not mask(sc)[cell("0012")]
    sc.act("being acts on 1010")
    assert sc.phase == R.PH_EAGLE_DEST
    sc.act("eagle carries to 0202")
    assert name(sc.loc(near)) == "0202"
    assert sc.phase == R.PH_EAGLE_LAND
    assert legal_cells(sc) == sorted(name(c) for c in D.NEIGHBOURS[cell("0202")]
                                     if c >= 0 and R.is_vacant_field(sc.S, 0, int(c)))
    sc.act(f"eagle lands at {towards('0202', 4)}")
    assert being_loc(sc, 0) == towards("0202", 4)
    assert name(sc.loc(far)) == "0012"


def test_15_661_the_eagle_will_not_enter_a_structure():
    """15.661: the Eagle will not enter a Castle, Village or Cottage: no unit is
    picked up from one, none is set down in one."""
    sc = arena((0, EAGLE, "0703"), (1, PARALYZER, "Hollow Tree"))
    sc.put(0, KNIGHT, "Elderwood Castle")
    field = sc.put(0, KNIGHT, "0704")
    control(sc, "0703")
    assert not mask(sc)[cell("Elderwood Castle")]
    sc.act("being acts on 0704")
    for structure in ("Elderwood Castle", "Elderwood Village", "Ironcrag Cottage"):
        assert not mask(sc)[cell(structure)]
    assert sc.loc(field) == cell("0704")


def test_15_662_the_destination_needs_an_empty_space_for_the_eagle():
    """15.662: the unit may be taken to a space only if there is an empty adjacent
    space for the Eagle to land in."""
    sc = arena((0, EAGLE, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(0, KNIGHT, "1004")
    ring = [towards("0404", d) for d in range(1, 7)]
    for c in ring:
        sc.put(1, MAN_AT_ARMS, c)
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert not mask(sc)[cell("0404")]
    assert mask(sc)[cell("0202")]


def test_15_663_the_eagle_moves_only_own_units_and_not_after_a_harry():
    """15.663: only units of the owning (first) player are carried; on a turn he
    harries an enemy unit he carries none."""
    sc = arena((0, EAGLE, "1003"), (1, PARALYZER, "Hollow Tree"))
    enemy = sc.put(1, KNIGHT, "1004")
    own = sc.put(0, KNIGHT, "1008")
    preload(sc, 6, 1)                                 # harry: 2+6 against 2+0+1
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert sc.loc(enemy) == cell("1004")              # harried, not carried
    assert sc.phase == R.PH_EAGLE_LAND
    sc.act(f"eagle lands at {legal_cells(sc)[0]}")
    assert sc.phase == R.PH_SECOND_DIE
    assert sc.loc(own) == cell("1008")


@pytest.mark.parametrize("dice, harried", [((6, 1), True), ((1, 1), True), ((1, 6), False)])
def test_15_664_the_harry_roll(dice, harried):
    """15.664: a normal combat roll: the Eagle wins or ties, the unit is harried;
    the Eagle loses, it is wounded and returns to its lair."""
    sc = arena((0, EAGLE, "1003"), (1, PARALYZER, "Hollow Tree"))
    enemy = sc.put(1, KNIGHT, "1004")
    preload(sc, *dice)
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert bool(int(sc.s["unit_flags"][enemy]) & F_HARRIED) is harried
    assert sc.loc(enemy) == cell("1004")
    if not harried:
        assert being_loc(sc, 0) == "Cave"


@pytest.mark.parametrize("dice, harried", [((6, 1), True), ((1, 6), False)])  # 2+6 > 1+0+1; 2+1 < 1+0+6
def test_9_645_a_sniper_that_survives_the_eagles_harry_flees_home(dice, harried):
    """9.645: a sniper attacked by a being that survives flees at once to its
    home village -- whether the Eagle's harry (a normal combat roll, 15.664)
    succeeds and it is harried, or fails and the Eagle goes home wounded."""
    sc = arena((0, EAGLE, "1003"), (1, PARALYZER, "Hollow Tree"))
    sniper = sc.put(1, SNIPER, "1004")
    village = R.home_village(sc.S, 0, 1)
    assert int(sc.s["cell_count"][village]) == 0 or int(sc.s["cell_colour"][village]) == 1
    preload(sc, *dice)
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert sc.loc(sniper) == village
    assert bool(int(sc.s["unit_flags"][sniper]) & F_HARRIED) is harried


def test_15_6641_harried_until_the_players_round_is_over_and_the_eagle_lands_beside():
    """15.6641: the harried unit is turned over until the Player's round is over;
    after the attempt the Eagle is placed in any adjacent space."""
    sc = arena((0, EAGLE, "1003"), (1, PARALYZER, "Hollow Tree"))
    enemy = sc.put(1, KNIGHT, "1004")
    preload(sc, 6, 1)
    control(sc, "1003")
    sc.act("being acts on 1004")
    expected = sorted(name(c) for c in D.NEIGHBOURS[cell("1004")]
                      if c >= 0 and R.is_vacant_field(sc.S, 0, int(c)))
    assert legal_cells(sc) == expected
    sc.act("eagle lands at 1005")
    assert being_loc(sc, 0) == "1005"
    R.end_players_round(sc.S, 0)
    assert int(sc.s["unit_flags"][enemy]) & F_HARRIED == 0


def test_15_665_a_harried_unit_may_not_move_or_attack_and_defends_minus_two():
    """15.665: a harried unit may not attack or move in the Player's round; it
    defends subtracting TWO from its roll (the Demon's 3+1 ties an unharried
    knight's 2+0+2 but beats a harried one)."""
    sc = arena((0, PARALYZER, "Cave"), (1, REVIVOR, "1005"))
    knight = sc.put(1, KNIGHT, "1004", flags=F_HARRIED)
    sc.put(0, MAN_AT_ARMS, "1003")
    sc.start_player_round([1, 0])
    assert sc.to_play == 1 and not mask(sc)[cell("1004")]
    sc.act("done")
    assert sc.phase == R.PH_COMBAT_SELECT and not mask(sc)[cell("1004")]
    sc = arena((0, DEMON, "1003"), (1, PARALYZER, "Hollow Tree"))
    knight = sc.put(1, KNIGHT, "1004", flags=F_HARRIED)
    demon_attacks(sc, (1, 2))
    assert sc.loc(knight) == LOC_OUT


# ------------------------------------------------------------------ 15.67 Paralyzer
def test_15_67_a_unit_next_to_the_paralyzer_may_not_move_or_attack():
    """15.67: a player unit adjacent to her is paralyzed: no move, no attack."""
    sc = arena((0, REVIVOR, "Cave"), (1, PARALYZER, "1005"))
    sc.put(0, KNIGHT, "1004")
    sc.put(1, KNIGHT, "1003")
    sc.start_player_round([0, 1])
    assert not mask(sc)[cell("1004")]
    sc.act("done")
    assert sc.phase == R.PH_COMBAT_SELECT and not mask(sc)[cell("1004")]


def test_15_671_a_unit_passing_next_to_her_is_stopped():
    """15.671: a unit that passes adjacent to the Paralyzer in its move is
    affected: its move ends there. Down column 10 the knight may reach 1004
    (next to her at 1104) but not beyond, as it can without her."""
    def reachable(with_paralyzer):
        sc = arena((0, REVIVOR, "Cave"), (1, PARALYZER, "1104") if with_paralyzer else (1, EAGLE, "Hollow Tree"))
        sc.put(0, KNIGHT, "1002")
        sc.start_player_round([0, 1], cards=[7, 7])       # 1+1+2+2+1 = 7 down column 10
        sc.act("select unit at 1002")
        return legal_cells(sc)
    assert "1007" in reachable(False)
    cells = reachable(True)
    assert "1004" in cells and "1007" not in cells


def test_15_672_no_effect_in_a_castle_village_or_cottage():
    """15.672: her power will not affect a unit in a CASTLE, VILLAGE or COTTAGE."""
    sc = arena((0, REVIVOR, "Cave"), (1, PARALYZER, "0601"))
    knight = sc.put(0, KNIGHT, "Elderwood Castle")
    assert D.SPACE_ADJ[cell("0601"), cell("Elderwood Castle")]
    assert not R.is_paralyzed(sc.S, 0, knight)
    sc.start_player_round([0, 1])
    assert mask(sc)[cell("Elderwood Castle")]


def test_15_673_no_effect_on_the_dragon():
    """15.673: her power will not affect the Dragon (nor any being, 15.52):
    Brimstone walks on past her."""
    sc = arena((0, REVIVOR, "Cave"), (1, PARALYZER, "1104"))
    sc.dragon("1002")
    R.dragon_walk(sc.S, 0, 4, 4)                     # 1003, 1004 (next to her), 1005, 1006
    assert int(sc.s["dragon_cell"]) == cell("1006")


def test_15_674_paralyzed_units_never_attack_her_and_are_freed_when_she_leaves():
    """15.674: no unit paralyzed by her may attack her; units remain paralyzed
    while adjacent; if she moves, they do not move with her and are free."""
    sc = arena((0, REVIVOR, "Cave"), (1, PARALYZER, "1005"))
    knight = sc.put(0, KNIGHT, "1004")
    assert not R.is_attack_target(sc.S, 0, knight, cell("1005"), False) or not R.can_attack(sc.S, 0, knight)
    sc.start_player_round([0, 1])
    sc.act("done")
    assert not mask(sc)[cell("1004")]
    sc = arena((0, PARALYZER, "1005"), (1, REVIVOR, "Hollow Tree"))
    knight = sc.put(0, KNIGHT, "1004")
    control(sc, "1005", to="1009")
    assert sc.loc(knight) == cell("1004")
    assert not R.is_paralyzed(sc.S, 0, knight)


def test_15_675_the_magesword_wielder_is_immune():
    """15.675: a unit wielding the Magesword cannot be affected by her."""
    sc = arena((0, REVIVOR, "Cave"), (1, PARALYZER, "1005"))
    knight = sc.put(0, KNIGHT, "1004")
    other = sc.put(0, MAN_AT_ARMS, "1006")
    sc.s["sword_holder"][0] = knight
    assert not R.is_paralyzed(sc.S, 0, knight)
    assert R.is_paralyzed(sc.S, 0, other)



def test_15_675_the_wielder_moves_on_alone_when_his_fellow_knight_is_paralyzed():
    """15.675 with 13.4: the wielder steps onto a space next to her where a
    knight of his already stands paralyzed; selecting that space again moves
    the only unit there that may move -- the wielder -- and his destinations
    are offered (a defect once posed a destination choice with no unit and
    no legal action)."""
    sc = arena((0, REVIVOR, "Cave"), (1, PARALYZER, "1005"))
    stuck = sc.put(0, KNIGHT, "1004")
    wielder = sc.put(0, KNIGHT, "1003")
    sc.s["sword_holder"][0] = wielder
    sc.start_player_round([0, 1], cards=[7, 12])
    sc.act("select unit at 1003")
    sc.act("move to 1004")
    assert R.is_paralyzed(sc.S, 0, stuck) and not R.is_paralyzed(sc.S, 0, wielder)
    sc.act("select unit at 1004")
    assert sc.phase == R.PH_MOVE_DEST and int(sc.s["sel_unit"]) == wielder
    assert "1003" in legal_cells(sc)
    sc.act("move to 1003")
    assert (sc.loc(wielder), sc.loc(stuck)) == (cell("1003"), cell("1004"))
    sc.check()

# ------------------------------------------------------------------ 15.68 Revivor
def test_15_68_15_681_the_revivor_brings_back_one_dead_unit_beside_her():
    """15.68: the first player may bring one of his dead units back into play;
    15.681 after her movement, on any empty space ADJACENT to her."""
    sc = arena((0, REVIVOR, "1002"), (1, PARALYZER, "Hollow Tree"))
    dead = sc.put(0, KNIGHT, "0000")
    sc.kill(dead)
    dead_man = sc.put(0, MAN_AT_ARMS, "0000")
    sc.kill(dead_man)
    sc.put(1, KNIGHT, "1005")
    control(sc, "1002", to="1004")
    assert sc.phase == R.PH_REVIVE_TYPE
    assert sorted(sc.legal()) == ["done", "type knight", "type man-at-arms"]
    sc.act("type knight")
    assert sc.phase == R.PH_REVIVE_CELL
    expected = sorted(name(c) for c in D.NEIGHBOURS[cell("1004")]
                      if c >= 0 and R.is_vacant_field(sc.S, 0, int(c)))
    assert legal_cells(sc) == expected and "1005" not in expected
    sc.act("revive at 1003")
    assert sc.loc(dead) == cell("1003")
    assert sc.loc(dead_man) == LOC_DEAD                 # one unit only
    assert sc.phase == R.PH_SECOND_DIE


def test_15_682_the_demons_victims_cannot_be_revived():
    """15.682: units killed by the Demon may not be revived, the Hero included
    (he may only come back as a replacement, 15.631)."""
    sc = arena((0, REVIVOR, "1002"), (1, PARALYZER, "Hollow Tree"))
    knight = sc.put(0, KNIGHT, "0000")
    hero = sc.put(0, HERO, "0001")
    R.kill_unit(sc.S, 0, knight, True)
    R.kill_unit(sc.S, 0, hero, True)
    assert sc.loc(hero) == LOC_DEAD and sc.loc(knight) == LOC_OUT
    control(sc, "1002")
    assert sc.phase == R.PH_SECOND_DIE                # nothing to revive
    assert not R.can_revive(sc.S, 0, 0)


def test_15_682_a_hero_the_demon_killed_who_came_back_and_fell_again_may_be_revived():
    """15.682 applies to the Demon's kill only: the same Hero, replaced (12.3) and
    killed later by a knight, lies in the dead pile as any other unit."""
    sc = arena((0, REVIVOR, "1002"), (1, PARALYZER, "Hollow Tree"))
    hero = sc.put(0, HERO, "0000")
    R.kill_unit(sc.S, 0, hero, True)
    R.set_loc(sc.S, 0, hero, cell("0000"))            # back as a replacement
    R.kill_unit(sc.S, 0, hero, False)
    assert R.can_revive(sc.S, 0, 0)


# ------------------------------------------------------------------ 15.69 Teleporter
def test_15_69_15_691_the_teleporter_sends_one_own_unit_beside_her_after_her_move():
    """15.69: the first player may teleport any ONE of his units, even from his
    castle, to a space adjacent to the Teleporter; 15.691 after her movement."""
    sc = arena((0, TELEPORTER, "1002"), (1, PARALYZER, "Hollow Tree"))
    hero = sc.put(0, HERO, "Elderwood Castle")
    knight = sc.put(0, KNIGHT, "Elderwood Castle")
    sc.load_dice(2, 5)
    sc.start_being_round(0, 1)
    sc.act("use being at 1002")
    assert sc.phase == R.PH_BEING_MOVE
    sc.act("being to 1008")
    assert sc.phase == R.PH_TELEPORT_UNIT
    sc.act("teleport unit at Elderwood Castle")
    assert sc.phase == R.PH_TELEPORT_UNIT                 # which of the two
    assert sorted(sc.legal()) == ["type hero", "type knight"]
    sc.act("type hero")
    assert sc.phase == R.PH_TELEPORT_DEST
    expected = sorted(name(c) for c in D.NEIGHBOURS[cell("1008")]
                      if c >= 0 and R.is_vacant_field(sc.S, 0, int(c)))
    assert legal_cells(sc) == expected
    sc.act("teleport to 1009")
    assert sc.loc(hero) == cell("1009")
    assert sc.loc(knight) == cell("Elderwood Castle")
    assert sc.phase == R.PH_SECOND_DIE


def test_15_692_no_attack_on_the_teleporter_the_turn_her_power_is_used():
    """15.692: a player may not attack the Teleporter on the same turn that he
    uses her power; others may."""
    sc = arena((0, TELEPORTER, "1003"), (1, PARALYZER, "Hollow Tree"))
    mine = sc.put(0, KNIGHT, "0000")
    theirs = sc.put(1, KNIGHT, "1103")
    control(sc, "1003")
    sc.act("teleport unit at 0000")
    sc.act("teleport to 1004")
    assert R.is_attack_target(sc.S, 0, theirs, cell("1003"), False)
    assert not R.is_attack_target(sc.S, 0, mine, cell("1003"), False)
    R.end_players_round(sc.S, 0)
    assert R.is_attack_target(sc.S, 0, mine, cell("1003"), False)


# ------------------------------------------------------------------ 15.601 Troll
def test_15_601_the_troll_must_attack_an_adjacent_player_unit_once():
    """15.601: whenever the Troll is adjacent to a player unit it will attack
    (no choice to decline), and only ONE attack per turn."""
    sc = arena((0, TROLL, "1003"), (1, PARALYZER, "Hollow Tree"))
    sc.put(1, MAN_AT_ARMS, "1004")
    other = sc.put(1, MAN_AT_ARMS, "1002")
    preload(sc, 6, 1)
    control(sc, "1003")
    assert sc.phase == R.PH_BEING_TARGET
    assert mask(sc)[R.A_DONE] == 0
    sc.act("being acts on 1004")
    assert sc.phase == R.PH_SECOND_DIE
    assert sc.loc(other) == cell("1002")


def test_15_601_the_troll_moved_at_random_attacks_a_unit_beside_his_path_end():
    """15.601: the randomly moved Troll (6M, 1002 south to 1006) ends next to a
    player unit it was not blocked by, and attacks it."""
    sc = arena((0, PARALYZER, "Cave"), (1, TROLL, "1002"))
    unit = sc.put(0, MAN_AT_ARMS, towards("1006", 3))
    sc.load_dice(4, 1)
    sc.load_rolls(0)                                  # the only target
    sc.load_dice(6, 1)
    first_being_stays(sc, "Cave")
    choose_die(sc, 4)
    assert sc.loc(unit) == LOC_DEAD
    assert being_loc(sc, 1) == towards("1006", 3)


def test_15_6011_the_troll_shrugs_off_wounds():
    """15.6011: the Troll is unaffected by any WOUND result: a tie leaves him in place."""
    sc = arena((0, TROLL, "1003"), (1, PARALYZER, "Hollow Tree"))
    knight = sc.put(1, KNIGHT, "1004")
    preload(sc, 1, 4)                                 # 5+1 = 2+0+4
    control(sc, "1003")
    sc.act("being acts on 1004")
    assert being_loc(sc, 0) == "1003"
    assert int(sc.s["unit_flags"][knight]) & F_WOUNDED


@pytest.mark.parametrize("dice, outcome", [((4, 4), "killed"), ((5, 4), "retreats")])
def test_15_60111_against_the_dragon_the_troll_subtracts_two_and_retreats_when_wounded(dice, outcome):
    """15.60111: fighting the Dragon, the Troll subtracts TWO from his roll
    (4+4+2-2 = 8: killed; it would be 10, a wound, without); a wound result
    makes him retreat one space towards his lair into a vacant space (9: from
    1108 to 1107, the one space nearer the Hollow Tree)."""
    sc = arena((0, PARALYZER, "Cave"), (1, TROLL, "1108"))
    sc.dragon("1109")
    sc.load_dice(*dice)
    sc.load_rolls(0)
    R.dragon_walk(sc.S, 0, 1, 1)
    if outcome == "killed":
        assert in_pile(sc, TROLL)
    else:
        assert int(sc.s["slot_being"][1]) == TROLL and being_loc(sc, 1) == "1107"


def test_15_7_no_being_enters_a_structure():
    """15.7: no Fantastic Being may enter or attack a Castle, Village or Cottage:
    the first player's Demon next to the Elderwood Castle cannot move into it;
    moved at random into one, a being returns to its lair (8.32)."""
    sc = arena((0, DEMON, "0701"), (1, PARALYZER, "Hollow Tree"))
    sc.start_being_round(0, 1)
    sc.act("use being at 0701")
    cells = legal_cells(sc)
    for structure in ("Elderwood Castle", "Elderwood Village", "Elderwood Cottage"):
        assert structure not in cells
    assert "0702" in cells
