"""Dragonhunt 9.4-9.72: the combat segment, healing (9.5, 9.52), castle and village
assaults (9.61x), snipers (9.64x) and defensive terrain (9.7x).

Player 0 holds Sunken, player 1 Ironcrag; Elderwood (colour 2) and the other
kingdoms belong to no player. Player 0 plays first; the dice of a melee are the
attacker's die, then the defender's (9.45).
"""
import numpy as np
import pytest

from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import (
    HERO, SNIPER, KNIGHT, MAN_AT_ARMS, TROLL, REVIVOR, COL_SINGLE_PIECE,
    R_DEFENDER_UNHARMED, R_DEFENDER_WOUNDED, R_DEFENDER_KILLED,
)
from dragongym.envs.dragonhunt.state import LOC_DEAD, LOC_OUT, F_WOUNDED
from tests.dragonhunt.scenario import Scenario, cell

KINGDOMS = ("Sunken", "Ironcrag")
TYPE_NAMES = ("hero", "sniper", "knight", "man-at-arms")
NP = 2          # Elderwood's colour: a non-player garrison


def game(**kw):
    sc = Scenario(num_players=2, kingdoms=KINGDOMS, **kw)
    sc.no_beings()
    sc.dragon("Lair of Brimstone")
    return sc


def to_combat(sc):
    """Player 0 (first in the order) skips his movement: his combat segment begins."""
    sc.start_player_round(order=[0, 1])
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_COMBAT_SELECT, 0)


def attack(sc, src, target, unit_type=None, snipe=False):
    """Choose the attacker at ``src`` (by type if asked) and attack ``target``."""
    sc.act(f"attack with unit at {src}")
    if sc.phase == R.PH_COMBAT_TYPE:
        sc.act("snipe" if snipe else f"type {TYPE_NAMES[unit_type]}")
    sc.act(f"attack {target}")


def attackers(sc):
    return {a[len("attack with unit at "):] for a in sc.legal() if a.startswith("attack with")}


def targets(sc, src, unit_type=None, snipe=False):
    sc.act(f"attack with unit at {src}")
    if sc.phase == R.PH_COMBAT_TYPE:
        sc.act("snipe" if snipe else f"type {TYPE_NAMES[unit_type]}")
    return {a[len("attack "):] for a in sc.legal()}


def wounded(sc, u):
    return bool(int(sc.s["unit_flags"][u]) & F_WOUNDED)


# ------------------------------------------------------------------ 9.41-9.44
def test_9_41_units_in_a_cottage_are_never_attacked():
    """9.41: a player may NEVER attack any unit that is located in a cottage."""
    sc = game()
    sc.put(0, KNIGHT, "1404")
    sc.put(0, SNIPER, "1305")
    sc.put(1, MAN_AT_ARMS, "Ironcrag Cottage")
    to_combat(sc)
    assert sc.legal() == ["done"]


def test_9_42_one_attacker_against_one_defender():
    """9.42: combat is one attacking unit against one defending unit: an attack on a
    village of four kills one of them at most."""
    sc = game()
    k = sc.put(0, KNIGHT, "0901")
    guards = sc.put(NP, MAN_AT_ARMS, "Elderwood Village", n=4)
    to_combat(sc)
    sc.load_dice(6, 1)
    attack(sc, "0901", "Elderwood Village")
    assert sum(sc.loc(g) == LOC_OUT or sc.loc(g) == LOC_DEAD for g in guards) == 1
    assert len(sc.units_at("Elderwood Village")) == 3
    assert sc.loc(k) == cell("0901")


def test_9_43_only_units_adjacent_at_the_start_may_attack():
    """9.43: an attacker must BEGIN the combat segment adjacent to the unit attacked."""
    sc = game()
    sc.put(0, KNIGHT, "0302")
    sc.put(1, KNIGHT, "0502")              # two spaces away
    to_combat(sc)
    assert sc.legal() == ["done"]


def test_9_44_a_unit_attacks_once_even_when_a_victory_brings_it_next_to_another():
    """9.43, 9.44: no player unit may make more than one attack in the combat
    segment; the victor that moved up (9.481) did not begin next to the new foe."""
    sc = game()
    k = sc.put(0, KNIGHT, "0302")
    sc.put(1, MAN_AT_ARMS, "0402")
    sc.put(1, MAN_AT_ARMS, "0502")
    to_combat(sc)
    sc.load_dice(6, 1)
    attack(sc, "0302", "0402")
    assert sc.loc(k) == cell("0402")
    assert sc.legal() == ["done"]


def test_9_44_castle_and_village_defenders_may_be_attacked_again():
    """9.44: unless the defending unit is defending a castle or village -- the
    attacker is, in effect, attacking the structure."""
    sc = game()
    sc.put(0, KNIGHT, "0901")
    sc.put(NP, MAN_AT_ARMS, "Elderwood Village", n=2)
    to_combat(sc)
    sc.load_dice(6, 1)
    attack(sc, "0901", "Elderwood Village")
    assert attackers(sc) == {"0901"}
    sc.load_dice(6, 1)
    attack(sc, "0901", "Elderwood Village")
    assert sc.units_at("Elderwood Village") == []


def test_9_441_units_that_fought_may_attack_brimstone():
    """9.441: units that fought in the combat segment MAY engage the Dragon if they
    end the combat segment adjacent to him."""
    sc = game()
    k = sc.put(0, KNIGHT, "0605")
    sc.put(1, MAN_AT_ARMS, "0606")         # next to the Lair of Brimstone
    to_combat(sc)
    sc.load_dice(6, 1)
    attack(sc, "0605", "0606")
    assert sc.loc(k) == cell("0606")
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_DRAGON_FORCE, 0)
    assert "join dragon attack from 0606" in sc.legal()


# ------------------------------------------------------------------ 9.45-9.483
@pytest.mark.parametrize("atk_die, def_die, outcome", [
    (4, 3, "attacker"),        # 2+4 = 6 against 1+1+3 = 5
    (3, 3, "tie"),             # 5 against 5
    (2, 3, "defender"),        # 4 against 5
])
def test_9_45_one_die_plus_strength_against_one_die_plus_strength_and_terrain(atk_die, def_die, outcome):
    """9.45: the attacker rolls ONE DIE + his strength; the defender ONE DIE + his
    strength + defensive terrain (a forest, +1); the defender's total is subtracted
    from the attacker's."""
    sc = game()
    k = sc.put(0, KNIGHT, "0302")
    m = sc.put(1, MAN_AT_ARMS, "0301")     # forest
    to_combat(sc)
    sc.load_dice(atk_die, def_die)
    attack(sc, "0302", "0301")
    assert sc.dice_left() == 0
    if outcome == "attacker":                                   # 9.481
        assert sc.loc(m) == LOC_DEAD and sc.loc(k) == cell("0301")
    elif outcome == "defender":                                 # 9.482
        assert sc.loc(k) == LOC_DEAD and sc.loc(m) == cell("0301")
    else:                                                       # 9.483
        assert sc.loc(k) == cell("Sunken Cottage") and sc.loc(m) == cell("Ironcrag Cottage")


def test_9_481_the_victor_must_occupy_the_defenders_space():
    """9.481: positive: the defending unit is killed; the attacking unit MUST occupy
    the defending unit's space (no choice is offered)."""
    sc = game()
    k = sc.put(0, HERO, "0302")
    m = sc.put(1, KNIGHT, "0402")
    to_combat(sc)
    sc.load_dice(1, 1)                      # 6 against 3
    attack(sc, "0302", "0402")
    assert sc.loc(m) == LOC_DEAD
    assert sc.loc(k) == cell("0402") and sc.units_at("0302") == []
    assert sc.phase == R.PH_COMBAT_SELECT


def test_9_482_the_defender_never_occupies():
    """9.482: negative: the attacking unit is killed; the defending unit may NEVER
    occupy the attacking unit's space."""
    sc = game()
    k = sc.put(0, MAN_AT_ARMS, "0302")
    h = sc.put(1, HERO, "0402")
    to_combat(sc)
    sc.load_dice(1, 1)                      # 1+1 = 2 against 5+1 = 6
    attack(sc, "0302", "0402")
    assert sc.loc(k) == LOC_DEAD
    assert sc.loc(h) == cell("0402") and sc.units_at("0302") == []


def test_9_483_tie_wounds_both_into_their_home_cottages():
    """9.483: zero: both units are wounded and placed in their HOME COTTAGES."""
    sc = game()
    k = sc.put(0, KNIGHT, "0302")
    e = sc.put(1, KNIGHT, "0402")
    to_combat(sc)
    sc.load_dice(5, 5)
    attack(sc, "0302", "0402")
    assert sc.loc(k) == cell("Sunken Cottage") and wounded(sc, k)
    assert sc.loc(e) == cell("Ironcrag Cottage") and wounded(sc, e)


# ------------------------------------------------------------------ 9.5, 9.52
def test_9_5_wounded_units_heal_for_their_owners_next_movement_segment():
    """9.5: wounded units go at once to the home cottage and are ready to move again
    in the OWNING PLAYER's next movement segment, whether or not in the same round."""
    sc = game()
    k = sc.put(0, KNIGHT, "0302")
    e = sc.put(1, KNIGHT, "0402")
    to_combat(sc)
    sc.load_dice(5, 5)
    attack(sc, "0302", "0402")
    sc.act("done")                                          # player 0's round ends
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 1)
    assert not wounded(sc, e)                               # healed: same round
    assert "select unit at Ironcrag Cottage" in sc.legal()
    assert wounded(sc, k)                                   # player 0 waits ...
    sc.act("done")
    sc.act("done")
    sc.start_player_round(order=[0, 1])                     # ... for his next round
    assert not wounded(sc, k)
    assert "select unit at Sunken Cottage" in sc.legal()


def test_9_5_a_wounded_unit_cannot_move_before_it_heals():
    """9.5: the wounded unit is not ready before its owner's next movement segment."""
    sc = game()
    sc.put(0, KNIGHT, "Sunken Cottage", flags=F_WOUNDED)
    sc.start_player_round(order=[1, 0])                     # player 1 moves first
    assert sc.to_play == 1
    assert "select unit at Sunken Cottage" not in sc.legal()


def test_9_52_wounded_units_die_while_the_cottage_is_flamed():
    """9.52: the home cottage is the only place to heal; while it is flamed, units
    that are wounded are killed instead."""
    sc = game()
    k = sc.put(0, KNIGHT, "0302")
    e = sc.put(1, KNIGHT, "0402")
    sc.s["flamed"][D.KINGDOM_NAMES.index("Ironcrag")] = 1
    to_combat(sc)
    sc.load_dice(5, 5)
    attack(sc, "0302", "0402")
    assert sc.loc(e) == LOC_DEAD
    assert sc.loc(k) == cell("Sunken Cottage")


# ------------------------------------------------------------------ 9.61-9.616
def test_9_61_the_defender_chooses_which_unit_defends():
    """9.61 (2): the defender chooses which unit inside the structure defends."""
    sc = game()
    sc.put(0, KNIGHT, "1203")
    hero = sc.put(1, HERO, "Ironcrag Village")
    maa = sc.put(1, MAN_AT_ARMS, "Ironcrag Village")
    to_combat(sc)
    sc.act("attack with unit at 1203")
    sc.act("attack Ironcrag Village")
    assert (sc.phase, sc.to_play) == (R.PH_DEFENDER, 1)
    assert sc.legal() == ["type hero", "type man-at-arms"]
    sc.load_dice(6, 1)                      # 8 against 1+1+1 = 3
    sc.act("type man-at-arms")
    assert sc.loc(maa) == LOC_DEAD and sc.loc(hero) == cell("Ironcrag Village")
    assert (sc.phase, sc.to_play) == (R.PH_COMBAT_SELECT, 0)


def test_9_61_the_assault_goes_on_with_any_adjacent_unit():
    """9.61 (4): return to (1) while the attacker has units adjacent and there are
    defenders: each round is one of his adjacent units against one defender."""
    sc = game()
    a = sc.put(0, KNIGHT, "0901")
    b = sc.put(0, KNIGHT, "0802")
    sc.put(NP, MAN_AT_ARMS, "Elderwood Village", n=2)
    to_combat(sc)
    sc.load_dice(6, 1)
    attack(sc, "0901", "Elderwood Village")
    sc.load_dice(6, 1)
    attack(sc, "0802", "Elderwood Village")
    assert sc.units_at("Elderwood Village") == []
    assert sc.phase == R.PH_OCCUPY
    assert sc.loc(a) == cell("0901") and sc.loc(b) == cell("0802")


def test_9_611_the_attacker_may_break_off():
    """9.611: the attacker may break off his attack at any time after the first attack
    is resolved: the rest of the garrison stays, his units stay outside."""
    sc = game()
    k = sc.put(0, KNIGHT, "0901")
    sc.put(NP, MAN_AT_ARMS, "Elderwood Village", n=3)
    to_combat(sc)
    sc.load_dice(6, 1)
    attack(sc, "0901", "Elderwood Village")
    assert "done" in sc.legal()
    sc.act("done")
    assert len(sc.units_at("Elderwood Village")) == 2
    assert sc.loc(k) == cell("0901")
    assert sc.to_play == 1


def test_9_612_any_or_all_adjacent_attackers_may_occupy_the_emptied_structure():
    """9.612: if all defending units are eliminated, any or all attacking units that
    are adjacent to the structure may occupy it."""
    sc = game()
    a = sc.put(0, KNIGHT, "0901")
    b = sc.put(0, KNIGHT, "0802")
    sc.put(NP, MAN_AT_ARMS, "Elderwood Village", n=2)
    to_combat(sc)
    for src in ("0901", "0802"):
        sc.load_dice(6, 1)
        attack(sc, src, "Elderwood Village")
    assert (sc.phase, sc.to_play) == (R.PH_OCCUPY, 0)
    assert set(sc.legal()) == {"occupy from 0901", "occupy from 0802", "done"}
    sc.act("occupy from 0802")
    assert sc.loc(b) == cell("Elderwood Village")
    assert sc.legal() == ["occupy from 0901", "done"]
    sc.act("done")                                   # the other stays outside
    assert sc.loc(a) == cell("0901")
    assert sc.phase == R.PH_COMBAT_SELECT


def test_9_613_a_wounded_defender_has_free_passage_to_its_cottage():
    """9.613: a wounded defending unit is always given free passage to its cottage,
    even out of a surrounded castle."""
    sc = game()
    sc.put(0, KNIGHT, "1203")
    sc.put(0, KNIGHT, "1304")
    sc.put(0, KNIGHT, "1404")
    d = sc.put(1, KNIGHT, "Ironcrag Castle")
    to_combat(sc)
    sc.load_dice(4, 2)                      # 2+4 = 6 against 2+2+2 = 6
    attack(sc, "1203", "Ironcrag Castle")
    assert sc.loc(d) == cell("Ironcrag Cottage") and wounded(sc, d)


def test_9_614_a_wounded_non_player_defender_is_out_of_play():
    """9.614: a wounded NON-PLAYER defender is taken out of play for good."""
    sc = game()
    sc.put(0, KNIGHT, "0901")
    sc.put(0, KNIGHT, "0802")
    g = sc.put(NP, MAN_AT_ARMS, "Elderwood Village", n=2)
    to_combat(sc)
    sc.load_dice(1, 1)                      # 2+1 = 3 against 1+1+1 = 3: a tie
    attack(sc, "0901", "Elderwood Village")
    assert sorted(sc.loc(u) for u in g)[0] == LOC_OUT
    assert len(sc.units_at("Elderwood Village")) == 1


def test_9_615_last_defender_wounded_with_no_attacker_adjacent_leaves_it_vacant():
    """9.615: if, when the last defender is wounded, there are no adjacent attacking
    units to occupy the structure, it is left vacant."""
    sc = game()
    k = sc.put(0, KNIGHT, "0901")
    g = sc.put(NP, MAN_AT_ARMS, "Elderwood Village")
    to_combat(sc)
    sc.load_dice(1, 1)                      # 3 against 3: both wounded
    attack(sc, "0901", "Elderwood Village")
    assert sc.loc(g) == LOC_OUT and sc.loc(k) == cell("Sunken Cottage")
    assert sc.units_at("Elderwood Village") == []
    assert sc.phase == R.PH_COMBAT_SELECT          # no occupation to decide


def test_9_616_a_being_never_attacks_a_castle_or_village():
    """9.616: a Fantastic Being may never be used to attack a castle or village."""
    sc = game()
    sc.being(0, TROLL, "0802")                       # next to Elderwood Village
    sc.put(NP, MAN_AT_ARMS, "Elderwood Village")
    sc.put(1, KNIGHT, "0702")                        # and to a knight in the open
    assert not R.can_be_attacked_by_being(sc.S, 0, 0, cell("Elderwood Village"), 0)
    assert R.can_be_attacked_by_being(sc.S, 0, 0, cell("0702"), 0)


def test_9_62_a_non_player_defence_asks_no_one():
    """9.62: the defence of a non-player unit is rolled by the player to the
    attacker's left: a die roll, no decision of anyone."""
    sc = game()
    sc.put(0, KNIGHT, "0901")
    sc.put(NP, MAN_AT_ARMS, "Elderwood Village", n=4)
    to_combat(sc)
    sc.load_dice(6, 1)
    attack(sc, "0901", "Elderwood Village")
    assert (sc.phase, sc.to_play) == (R.PH_COMBAT_SELECT, 0)
    assert sc.dice_left() == 0


def test_9_63_brimstone_is_not_attacked_in_the_combat_segment():
    """9.63: Brimstone the Dragon may NOT be attacked during the COMBAT SEGMENT."""
    sc = game()
    sc.put(0, HERO, "0606")                 # next to the Lair of Brimstone
    to_combat(sc)
    assert sc.legal() == ["done"]


# ------------------------------------------------------------------ 9.64x the sniper
def test_9_641_one_snipe_a_round_at_strength_four():
    """9.641: the sniper makes ONE SNIPE ATTACK per round at a combat strength of 4."""
    sc = game()
    s = sc.put(0, SNIPER, "0302")
    m = sc.put(1, MAN_AT_ARMS, "0402")
    to_combat(sc)
    sc.load_dice(1, 4)                      # 4+1 = 5 against 1+4 = 5
    attack(sc, "0302", "0402", snipe=True)
    assert sc.loc(m) == cell("Ironcrag Cottage")     # a tie wounds the target ...
    assert sc.loc(s) == cell("0302") and not wounded(sc, s)   # ... only (9.643)
    sc.put(1, MAN_AT_ARMS, "0202")
    sc.act("attack with unit at 0302")      # no snipe left: straight to its normal attack
    assert sc.phase == R.PH_COMBAT_TARGET and int(sc.s["sel_type"]) == SNIPER


def test_9_641_the_sniper_defends_at_one():
    """9.641: its defense strength is 1."""
    sc = game()
    s = sc.put(1, SNIPER, "0402")
    assert R.unit_defense(sc.S, 0, s, False) == 1
    sc.put(0, KNIGHT, "0302")
    to_combat(sc)
    sc.load_dice(1, 2)                      # 2+1 = 3 against 1+2 = 3
    attack(sc, "0302", "0402")
    assert sc.loc(s) == cell("Ironcrag Cottage")


def test_9_641_snipes_only_in_the_owners_combat_segment():
    """9.641: during the owning player's combat segment only."""
    sc = game()
    sc.put(1, SNIPER, "0402")
    sc.put(0, MAN_AT_ARMS, "0302")
    to_combat(sc)
    assert attackers(sc) == {"0302"}


def test_9_642_snipe_targets_adjacent_anything_but_a_cottage_or_brimstone():
    """9.642: a snipe may be made against any target except a cottage or the Dragon;
    the sniper must be adjacent to it."""
    sc = game()
    sc.dragon("1305")
    sc.put(0, SNIPER, "1304")
    sc.put(1, MAN_AT_ARMS, "Ironcrag Cottage")
    sc.put(1, KNIGHT, "Ironcrag Castle")
    sc.put(1, KNIGHT, "1203")                        # not adjacent
    sc.put(1, KNIGHT, "1204")
    to_combat(sc)
    assert targets(sc, "1304", snipe=True) == {"Ironcrag Castle", "1204"}


def test_example_9_6421_sniper_fires_at_a_hero_in_a_castle():
    """9.6421 EXAMPLE: a Sniper fires at a Hero that is in a Castle. The sniper rolls
    adding 4. The Hero rolls adding 7, 5 for his strength and 2 for the castle. The
    sniping player chooses which defending unit he fires at."""
    sc = game()
    s = sc.put(0, SNIPER, "1203")
    hero = sc.put(1, HERO, "Ironcrag Castle")
    sc.put(1, KNIGHT, "Ironcrag Castle", n=2)
    to_combat(sc)
    sc.act("attack with unit at 1203")
    sc.act("snipe")
    sc.act("attack Ironcrag Castle")
    assert (sc.phase, sc.to_play) == (R.PH_SNIPE_TYPE, 0)     # the sniper chooses
    assert sc.legal() == ["type hero", "type knight"]
    sc.load_dice(4, 1)                                        # 4+4 = 8 against 7+1 = 8
    sc.act("type hero")
    assert sc.loc(hero) == cell("Ironcrag Cottage") and wounded(sc, hero)
    assert sc.loc(s) == cell("1203")
    assert len(sc.units_at("Ironcrag Castle")) == 2


def test_example_9_6421_the_hero_in_the_castle_falls_to_a_total_over_seven_plus_his_die():
    """9.6421 EXAMPLE: 4 + 6 = 10 beats the hero's 7 + 2 = 9."""
    sc = game()
    sc.put(0, SNIPER, "1203")
    hero = sc.put(1, HERO, "Ironcrag Castle")
    to_combat(sc)
    sc.load_dice(6, 2)
    attack(sc, "1203", "Ironcrag Castle", snipe=True)
    assert sc.loc(hero) == LOC_DEAD


def test_9_6422_snipes_come_before_normal_combat():
    """9.6422: all sniping before any normal combat; once a normal attack is resolved
    the snipe option for the round is forfeited."""
    sc = game()
    sc.put(0, SNIPER, "0302")
    sc.put(0, KNIGHT, "0502")
    sc.put(1, MAN_AT_ARMS, "0402")
    sc.put(1, MAN_AT_ARMS, "0202")
    to_combat(sc)
    sc.load_dice(1, 6)
    attack(sc, "0502", "0402")              # a normal attack first
    sc.act("attack with unit at 0302")      # no snipe left: straight to its normal attack
    assert sc.phase == R.PH_COMBAT_TARGET and int(sc.s["sel_type"]) == SNIPER


def test_9_643_the_sniper_is_never_hurt_by_its_own_snipe():
    """9.643: whatever the result, only the unit attacked can be affected."""
    sc = game()
    s = sc.put(0, SNIPER, "0302")
    h = sc.put(1, HERO, "0402")
    to_combat(sc)
    sc.load_dice(1, 6)                      # 5 against 11
    attack(sc, "0302", "0402", snipe=True)
    assert sc.loc(s) == cell("0302") and not wounded(sc, s)
    assert sc.loc(h) == cell("0402")


def test_9_644_a_sniper_may_snipe_and_fight_normally_at_strength_one():
    """9.644: snipers may engage in normal combat, at strength 1, in the same combat
    segment that they snipe."""
    sc = game()
    s = sc.put(0, SNIPER, "0302")
    m1 = sc.put(1, MAN_AT_ARMS, "0402")
    m2 = sc.put(1, MAN_AT_ARMS, "0202")
    to_combat(sc)
    sc.load_dice(6, 1)                      # snipe: 10 against 2
    attack(sc, "0302", "0402", snipe=True)
    assert sc.loc(m1) == LOC_DEAD and sc.loc(s) == cell("0302")   # a snipe never moves in
    sc.load_dice(3, 3)                      # normal: 1+3 = 4 against 1+3 = 4
    attack(sc, "0302", "0202", SNIPER)
    assert sc.loc(s) == cell("Sunken Cottage") and sc.loc(m2) == cell("Ironcrag Cottage")


def test_9_645_snipers_never_attack_beings():
    """9.645: snipers may not be used to attack any FANTASTIC BEING (nor snipe it)."""
    sc = game()
    sc.being(0, REVIVOR, "0402")
    sc.put(0, SNIPER, "0302")
    sc.put(0, KNIGHT, "0502")
    to_combat(sc)
    assert attackers(sc) == {"0502"}        # the knight may, the sniper not


def test_9_645_snipers_never_attack_brimstone():
    """9.645, 9.861: snipers may not be used to attack the DRAGON."""
    sc = game()
    sc.put(0, SNIPER, "0606")
    sc.put(0, SNIPER, "Sunken Castle")
    sc.dragon("0711")
    to_combat(sc)
    sc.act("done")                          # nobody may join: the round is over
    assert sc.to_play == 1 and sc.phase == R.PH_MOVE_SELECT


def _brimstone_attacks_sniper(result):
    totals = [t for t in range(2 + 1, 12 + 1 + 1) if D.COMBAT_TABLE[COL_SINGLE_PIECE, t] == result]
    assert totals, "no two-dice total gives this result"
    sc = game()
    s = sc.put(0, SNIPER, "0302")           # open: defends 1 + 0
    sc.dragon("0302")
    dice = totals[0] - 1
    sc.load_dice(min(6, dice - 1), dice - min(6, dice - 1))
    R.dragon_attacks_piece(sc.S, 0, cell("0302"))
    return sc, s


def test_9_645_a_sniper_that_survives_brimstone_flees_to_its_village():
    """9.645: if attacked by the Dragon and it survives, it flees to its home village."""
    sc, s = _brimstone_attacks_sniper(R_DEFENDER_UNHARMED)
    assert sc.loc(s) == cell("Sunken Village")


def test_9_645_a_wounded_sniper_goes_to_its_cottage():
    """9.645: if wounded it goes to its home cottage instead."""
    sc, s = _brimstone_attacks_sniper(R_DEFENDER_WOUNDED)
    assert sc.loc(s) == cell("Sunken Cottage")


# ------------------------------------------------------------------ 9.7, 9.72
@pytest.mark.parametrize("where, bonus", [
    ("Lair of Brimstone", 2), ("Sunken Castle", 2), ("Cave", 1), ("Sunken Village", 1),
    ("0303", 2), ("Sunken Cottage", 0), ("0301", 1), ("0302", 0), ("0903", 1),
])
def test_9_7_defensive_terrain_value_chart(where, bonus):
    """9.7: Dragon's lair +2, Being lair +1, mountain +2, forest +1, swamp +1,
    castle +2, village +1, cottage 0, open 0 -- added to the defender's roll."""
    sc = game()
    sc.dragon("0912")
    k = sc.put(0, KNIGHT, where)
    assert R.unit_defense(sc.S, 0, k, False) == 2 + bonus


def test_9_7_a_mountain_adds_two_to_the_defenders_roll():
    """9.7, 9.45: a man-at-arms on a mountain defends at 1 + 2 + his die."""
    sc = game()
    sc.put(0, KNIGHT, "0302")
    m = sc.put(1, MAN_AT_ARMS, "0303")
    to_combat(sc)
    sc.load_dice(4, 3)                      # 2+4 = 6 against 1+2+3 = 6
    attack(sc, "0302", "0303")
    assert sc.loc(m) == cell("Ironcrag Cottage")


def test_9_72_beings_defend_with_their_lair():
    """9.72: all defenders except the Dragon receive the bonuses: a Troll in the Hollow
    Tree defends at 2 + 1 + his die."""
    sc = game()
    sc.being(1, TROLL, "Hollow Tree")
    k = sc.put(0, KNIGHT, "1007")
    to_combat(sc)
    sc.load_dice(3, 2)                      # 2+3 = 5 against 2+1+2 = 5: a tie
    attack(sc, "1007", "Hollow Tree")
    assert sc.loc(k) == cell("Sunken Cottage")
    assert int(sc.s["slot_being"][1]) == TROLL and int(sc.s["slot_loc"][1]) == cell("Hollow Tree")


def test_9_481_the_victor_over_a_being_takes_its_space():
    """9.481, 15.4: a being killed in the open leaves its space to the victor (a new
    being is drawn for its lair)."""
    sc = game()
    sc.being(0, REVIVOR, "0402")
    k = sc.put(0, KNIGHT, "0302")
    to_combat(sc)
    sc.load_dice(6, 1)                      # 2+6 = 8 against 1+0+1 = 2
    attack(sc, "0302", "0402")
    assert sc.loc(k) == cell("0402")
    assert int(sc.s["slot_loc"][0]) == cell("Cave")
