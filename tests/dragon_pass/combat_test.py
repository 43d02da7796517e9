"""The combat phase (L492-L601) with the heroes' combat rules (L606-L659) and
the Q&A rulings on them (L1014, L1022, L1042).

Positions are built by hand at the start of the active player's combat
phase (``scenario.py``); every decision is posed (``auto_single`` off); the
dice are loaded in the order the rules roll them.
"""
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import UF_FLEE
from dragongym.envs.dragon_pass.data import MAP
from tests.dragon_pass.scenario import LUNAR, SARTAR, Position, hexi, unit

LANCERS = [f"cc_lancers#{i}" for i in range(1, 5)]          # 4-2-7
MILITIA = [f"cm_town_militia#{i}" for i in range(1, 7)]     # Sartar 3-3-4
FREE = [f"fa_free_warriors#{i}" for i in range(1, 4)]       # Sartar 4-5-5
WARRIORS = [f"nf_tarsh_warriors#{i}" for i in range(1, 5)]  # 4-3-4
ARCHERS = ["cc_horse_archers#1", "cc_horse_archers#2", "cc_light_horse_archers#1", "cc_light_horse_archers#2"]


def declare(p, defenders, attackers):
    """Announce one battle: the first defending stack, the attacking stacks, the other defending stacks."""
    p.act(f"attack the stack at {defenders[0]}")
    for a in attackers:
        p.act(f"attack with the stack at {a}")
    for d in defenders[1:]:
        p.act(f"also attack the stack at {d}")
    p.act(f"attack {', '.join(defenders)} with the stacks at {', '.join(attackers)}")


def arranged(p, *hexes):
    for h in hexes:
        p.act(f"the stack at {h} is arranged")


def test_rule_dp_melee_only_the_top_three_major_units_fight():
    p = Position()
    for u in LANCERS:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    p.dice(4)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    assert p.phase == R.PH_CASUALTY             # no retreat: a lone slow unit leaves no cover
    assert int(p.s["att_total"]) == 12          # 3 x 4; the fourth lancer is in reserve (L571)
    assert int(p.s["loss_left"]) == 2 * 6       # Attack Table: 12, roll 4 -> 6 (L1058)
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    assert p.where(MILITIA[0]) == "dead"
    assert p.phase == R.PH_ADVANCE              # no defender left to counter-attack


def test_rule_dp_melee_a_leader_adds_its_leadership_factor_to_each_unit_that_fights():
    p = Position("18.3")
    p.put(FREE[0], "0604")
    p.put(FREE[1], "0604")
    p.put("argrath", "0604")                    # (4!!): +2 to each (L385, L582)
    p.put(WARRIORS[0], "0504")
    p.combat(SARTAR)
    p.dice(1, 1)
    declare(p, ["0504"], ["0604"])
    arranged(p, "0604")
    assert int(p.s["att_total"]) == 4 + 2 * (4 + 2)          # 16


def test_rule_dp_melee_a_superhero_and_its_best_friend_combine_their_leadership():
    p = Position("18.3")
    p.put(FREE[0], "0604")
    p.put("gunda", "0604")
    p.put("harrek", "0604")
    p.put(WARRIORS[0], "0504")
    p.combat(SARTAR)
    p.dice(1, 1)
    declare(p, ["0504"], ["0604"])
    arranged(p, "0604")
    assert int(p.s["att_total"]) == 20 + 4 + (4 + 3)       # LF 2 + 1 = 3 (L652)


def test_rule_dp_melee_a_disrupted_hero_without_a_leader_mark_gets_the_stacks_leadership():
    """L385: "+ LF for each non-leader ... with CF > 0", the LF being the ! marks
    in the leader's CF (L388). Disrupted, Gunda shows (2)-5-6-X (L614), and a
    disrupted unit uses those factors (L590): no mark, so she leads nobody and
    Argrath's LF is added to her CF (Interpretations)."""
    p = Position("18.3")
    p.put(FREE[0], "0604")
    p.put("gunda", "0604", disrupted=True)      # (2): no leader mark
    p.put("argrath", "0604")                    # (4!!): LF 2
    p.put(WARRIORS[0], "0504")
    p.combat(SARTAR)
    p.dice(1, 1)
    declare(p, ["0504"], ["0604"])
    arranged(p, "0604")
    assert int(p.s["att_total"]) == 4 + (2 + 2) + (4 + 2)  # Argrath, Gunda, the 4-5-5


def test_rule_dp_the_dragontooth_runners_are_not_heroes_they_are_halved_on_a_river():
    """L684 prints the Runners (3)-5*-6-0 / (2)-3-3-X: no leader mark, and an MF
    that halves when disrupted, so they are not heroes (Interpretations). On a
    river the attacking Runners are halved; Argrath, a hero, is not (L640)."""
    p = Position("18.3")
    p.put("dragontooth_runners#1", "0107")      # a river hex, not a ford
    p.put("argrath", "0107")                    # (4!!): LF 2
    p.put(WARRIORS[0], "0106")
    p.combat(SARTAR)
    p.dice(1, 1)
    declare(p, ["0106"], ["0107"])
    arranged(p, "0107")
    assert int(p.s["att_total"]) == 4 + 7 // 2     # 4 + (1.5 + 2): 7.5, fractions dropped


def test_rule_dp_the_dragontooth_runners_are_not_heroes_they_make_no_heroic_escape():
    """L642: an eliminated hero rolls for its heroic escape; an eliminated
    Runner goes to the dead pile (Interpretations)."""
    p = Position("18.3")
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.put("dragontooth_runners#1", "0604")
    p.combat(LUNAR)
    p.dice(6)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    p.act(f"eliminate {p.name('dragontooth_runners#1')} at 0604")
    assert p.where("dragontooth_runners#1") == "dead"


def test_rule_dp_melee_attacking_from_a_river_halves_the_cf_but_not_a_heroes():
    p = Position("18.3")
    p.put(FREE[0], "0107")                      # a river hex, not a ford
    p.put(FREE[1], "0107")
    p.put("gunda", "0107")                       # (4!) LF 1
    p.put(WARRIORS[0], "0106")
    p.combat(SARTAR)
    p.dice(1, 1)
    declare(p, ["0106"], ["0107"])
    arranged(p, "0107")
    assert int(p.s["att_total"]) == 4 + 2 * (2 + 1)        # halved first, LF after (L582, L640)


def test_rule_dp_melee_attacking_up_a_ridge_halves_the_cf():
    p = Position()
    p.put(LANCERS[0], "0414")
    p.put(LANCERS[1], "0414")
    p.put(LANCERS[2], "0414")
    p.put(MILITIA[0], "0314")                   # up the ridge from 0414
    p.combat(LUNAR)
    p.dice(1, 1)
    declare(p, ["0314"], ["0414"])
    arranged(p, "0414")
    assert int(p.s["att_total"]) == 6           # 12 halved (L374, L582)


def test_rule_dp_melee_fractions_are_kept_until_the_total():
    p = Position()
    p.put("nf_furthest_phalanx#1", "0107")      # 5 on a river: 2.5
    p.put("nf_furthest_phalanx#2", "0107")      # 2.5: 5 together, not 4 (L110)
    p.put(MILITIA[0], "0106")
    p.combat(LUNAR)
    p.dice(1, 1)
    declare(p, ["0106"], ["0107"])
    arranged(p, "0107")
    assert int(p.s["att_total"]) == 5


def test_rule_dp_melee_casualties_absorb_their_cf_times_the_terrain():
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0215")
    p.put(MILITIA[0], "0214")                   # a hill: CF x1.5 = 4.5 for casualties (L338)
    p.combat(LUNAR)
    p.dice(4)                                    # 12 at 4: loss 6 >= 4.5
    declare(p, ["0214"], ["0215"])
    arranged(p, "0215")
    assert p.phase == R.PH_CASUALTY             # 4.5 <= 6
    p.act(f"eliminate {p.name(MILITIA[0])} at 0214")


def test_rule_dp_melee_a_loss_too_small_for_the_top_unit_takes_nothing():
    p = Position()
    for u in LANCERS[:2]:
        p.put(u, "0215")
    p.put(MILITIA[0], "0214")
    p.combat(LUNAR)
    p.dice(3, 1)                                 # 8 at 3 -> 2 < 4.5; the counter-attack 6 at 1 -> 1
    declare(p, ["0214"], ["0215"])
    arranged(p, "0215")
    assert p.where(MILITIA[0]) == "0214"        # no casualty (L582, L586)
    assert p.phase == R.PH_ARRANGE              # the attacker's reorganising after the battle (L596)


def test_rule_dp_melee_the_bottom_three_units_are_inside_the_fortress():
    p = Position()
    for u in MILITIA[:4]:
        p.put(u, "3122")                         # Jonstown: bottom three x2, the fourth outside (L348)
    for u in LANCERS[:3]:
        p.put(u, "3123")
    p.combat(LUNAR)
    p.dice(4, 1)                                 # loss 6: the top militia (3, outside) goes, then 6 inside
    declare(p, ["3122"], ["3123"])
    arranged(p, "3123", "3122")
    p.act("no more retreats")
    p.act(f"eliminate {p.name(MILITIA[3])} at 3122")      # value 3 outside
    assert int(p.s["loss_left"]) == 2 * 3
    assert p.phase == R.PH_ARRANGE                          # the next, inside, is worth 6 > 3: no more
    assert p.stack("3122") == MILITIA[:3][::-1]


def test_rule_dp_superhero_denies_the_defenders_terrain_bonus():
    p = Position("18.3")
    for u in ["cc_lancers#1", "cc_lancers#2", "cc_lancers#3"]:
        p.put(u, "3122")                         # in Jonstown
    p.put(FREE[0], "3123")
    p.put("harrek", "3123")
    p.combat(SARTAR)
    p.dice(1, 1)                                  # 24 at 1: loss 4 -> a 4 lancer without its x2 (L648)
    declare(p, ["3122"], ["3123"])
    arranged(p, "3123", "3122")
    if p.phase == R.PH_RETREAT:
        p.act("no more retreats")
    assert int(p.s["att_total"]) == 20 + 4 + 2
    assert f"eliminate {p.name('cc_lancers#3')} at 3122" in p.legal()


def test_rule_dp_melee_counter_attack_doubles_and_charged_attackers_have_no_terrain():
    p = Position()
    for u in LANCERS:
        p.put(u, "0214")                         # on a hill; the bottom one in reserve
    p.put(MILITIA[0], "0215")
    p.put(MILITIA[1], "0215")
    p.combat(LUNAR)
    p.dice(1, 6)                                 # attack 12 at 1 -> 2: nothing; counter 12 at 6 -> 12
    declare(p, ["0215"], ["0214"])
    arranged(p, "0214", "0215")
    if p.phase == R.PH_RETREAT:
        p.act("no more retreats")
    assert p.phase == R.PH_ARRANGE              # the defender may rearrange before striking back
    p.act("the stack at 0215 is arranged")
    assert int(p.s["def_total"]) == 2 * 3 + 2 * 3          # defensive doubling (L584)
    assert int(p.s["loss_left"]) == 2 * 12
    names = p.legal()
    top = p.stack("0214")[0]
    assert names == [f"eliminate {p.name(top)} at 0214"]
    for _ in range(3):                                     # three charged lancers at 4 each (L571)
        p.act(p.legal()[0])
    assert p.stack("0214") == [LANCERS[0]]
    assert p.phase != R.PH_CASUALTY                        # the reserve keeps the hill: 6 > 0 left


def test_rule_dp_retreat_leaves_a_covering_force_of_a_sixth():
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")                         # 12 fighting: cover needs CF 2
    p.put(MILITIA[0], "0604")
    p.put(MILITIA[1], "0604")
    p.combat(LUNAR)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    assert p.phase == R.PH_RETREAT
    p.act(f"retreat {p.name(MILITIA[1])}")
    p.act(f"{p.name(MILITIA[1])} retreats from 0604 to 0705")
    assert p.where(MILITIA[1]) == "0705"
    assert f"retreat {p.name(MILITIA[0])}" not in p.legal()     # someone must stay (L578)


def test_rule_dp_retreat_is_not_next_to_another_players_units():
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    p.put(MILITIA[1], "0604")
    p.combat(LUNAR)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    p.act(f"retreat {p.name(MILITIA[1])}")
    legal = p.legal()
    assert not any(x.endswith("to 0603") or x.endswith("to 0505") for x in legal)   # beside 0504 (L577)
    assert any(x.endswith("to 0705") for x in legal)


def test_rule_dp_retreat_fast_defenders_need_no_cover():
    p = Position("18.3")
    for u in WARRIORS[:3]:
        p.put(u, "0504")                         # MF 4
    p.put("fa_free_cavalry#1", "0604")          # 5-3-7: faster than every attacker (L578)
    p.combat(LUNAR)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    p.act(f"retreat {p.name('fa_free_cavalry#1')}")
    p.act(f"{p.name('fa_free_cavalry#1')} retreats from 0604 to 0705")
    assert p.stack("0604") == []
    assert p.phase == R.PH_ADVANCE              # nothing left to attack; 0604 is vacated


def test_rule_dp_heroes_cannot_retreat_but_those_with_them_may():
    p = Position("18.3")
    for u in WARRIORS[:3]:
        p.put(u, "0504")
    p.put(FREE[0], "0604")
    p.put(FREE[1], "0604")
    p.put("argrath", "0604")
    p.combat(LUNAR)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    legal = p.legal()
    assert f"retreat {p.name('argrath')}" not in legal and f"retreat {p.name(FREE[0])}" in legal   # L644


def test_rule_dp_no_unit_stacked_with_a_superhero_retreats():
    p = Position("18.3")
    for u in WARRIORS[:3]:
        p.put(u, "0504")
    p.put(FREE[0], "0604")
    p.put(FREE[1], "0604")
    p.put("harrek", "0604")
    p.combat(LUNAR)
    p.dice(1, 1)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    assert p.phase == R.PH_ARRANGE and p.to_play == SARTAR   # no retreat step: the counter-attack's arranging (L644)


def test_rule_dp_advance_into_the_vacated_hex_and_an_extended_advance():
    p = Position()
    p.put(LANCERS[0], "0504")
    p.put(LANCERS[1], "0504")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    p.dice(6)                                    # 8 at 6 -> 8: the militia dies
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    p.act(f"advance {p.name(LANCERS[1])}")
    p.act(f"{p.name(LANCERS[1])} advances into 0604")
    assert p.phase == R.PH_ADVANCE_EXT          # MF 7, 0604 beside no enemy (L600)
    p.act(f"{p.name(LANCERS[1])} advances on to 0705")
    assert p.where(LANCERS[1]) == "0705"


def test_qa_dp_an_advance_may_go_from_one_zoc_into_another():
    """Q&A L1022: an advance is not regular movement."""
    p = Position()
    p.put(LANCERS[0], "0504")
    p.put(MILITIA[0], "0604")
    p.put(MILITIA[1], "0705")                    # beside 0604
    p.combat(LUNAR)
    p.dice(6)
    declare(p, ["0604"], ["0504"])
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    p.act(f"advance {p.name(LANCERS[0])}")
    p.act(f"{p.name(LANCERS[0])} advances into 0604")
    assert p.where(LANCERS[0]) == "0604"
    assert p.phase != R.PH_ADVANCE_EXT          # beside an enemy stack: the advance stops


def test_rule_dp_declaration_every_adjacent_stack_must_fight():
    p = Position()
    p.put(LANCERS[0], "0504")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    assert "fight no more battles" not in p.legal()        # L512
    assert p.legal() == ["attack the stack at 0604"]


def test_rule_dp_declaration_a_fortification_with_three_majors_need_not_attack():
    p = Position()
    for u in MILITIA[:3]:
        p.put(u, "3122")                         # Jonstown, a fortress
    p.put(LANCERS[0], "3123")
    p.combat(SARTAR)
    assert "fight no more battles" in p.legal()             # L357, L514
    p.put(MILITIA[3], "3122")                    # a fourth major is outside: the stack must attack
    assert "fight no more battles" not in p.legal()


def test_rule_dp_declaration_every_attacker_is_beside_every_defender_and_one_battle_a_stack():
    p = Position()
    p.put(LANCERS[0], "0504")
    p.put(LANCERS[1], "0705")
    p.put(MILITIA[0], "0604")
    p.put(MILITIA[1], "0703")
    p.combat(LUNAR)
    p.act("attack the stack at 0604")
    legal = p.legal()
    assert "attack with the stack at 0504" in legal and "attack with the stack at 0705" in legal
    p.act("attack with the stack at 0504")
    assert "also attack the stack at 0703" not in p.legal()     # not beside 0504 (L582)


def test_rule_dp_missile_defender_fires_first_then_the_attacker():
    p = Position("18.2")
    p.put("cm_duck_militia#1", "0604")           # 2*: one Missile Factor
    p.put(ARCHERS[0], "0504")
    p.put(ARCHERS[1], "0504")
    p.combat(LUNAR)
    p.dice(6, 6)                                  # the ducks at 1 MF: 6 -> 1DD; the archers at 2: 6-1 -> 1DD
    declare(p, ["0604"], ["0504"])
    assert p.phase == R.PH_MISSILE_CASUALTY and p.to_play == LUNAR     # the attacker takes the first hit (L562)


def test_rule_dp_missile_modifiers_fortress_and_small_targets():
    p = Position("18.2")
    for u in ARCHERS:
        p.put(u, "3123")                          # 4 Missile Factors
    p.put(MILITIA[0], "3122")                    # Jonstown: -4 (L1113)
    p.put(MILITIA[1], "3122")
    p.combat(LUNAR)
    p.dice(6, 1)                                  # 6 - 4 = 2: no result on 3-4
    declare(p, ["3122"], ["3123"])
    assert p.phase == R.PH_ARRANGE               # no missile casualty: straight to the melee


def test_rule_dp_missile_2dd_is_two_disruptions_or_one_elimination():
    p = Position("18.2")
    for u in ARCHERS:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    p.put(MILITIA[1], "0604")
    p.combat(LUNAR)
    p.dice(6)                                     # 4 MF at 6 -> 2DD (L1128)
    declare(p, ["0604"], ["0504"])
    assert p.phase == R.PH_MISSILE_CHOICE and p.to_play == SARTAR
    p.act("take two disruptions")
    p.act(f"disrupt {p.name(MILITIA[0])}")
    p.act(f"disrupt {p.name(MILITIA[1])}")
    assert p.disrupted(MILITIA[0]) and p.disrupted(MILITIA[1])


def test_rule_dp_missile_too_few_majors_are_all_eliminated():
    p = Position("18.2")
    for u in ARCHERS:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    p.dice(6, 1)                                  # 2DD on one major: two disruptions cannot be taken
    declare(p, ["0604"], ["0504"])
    assert p.legal() == [f"eliminate {p.name(MILITIA[0])}"]     # so it is eliminated (L567)
    p.act(f"eliminate {p.name(MILITIA[0])}")
    assert p.where(MILITIA[0]) == "dead"


def test_rule_dp_missile_a_disrupted_unit_disrupted_again_is_eliminated():
    p = Position("18.2")
    p.put(ARCHERS[0], "0504")
    p.put(ARCHERS[1], "0504")
    p.put(MILITIA[0], "0604", disrupted=True)
    p.put(MILITIA[1], "0604")
    p.combat(LUNAR)
    p.dice(6, 1)                                  # 2 MF at 6: 1DD
    declare(p, ["0604"], ["0504"])
    p.act(f"disrupt {p.name(MILITIA[0])}")
    assert p.where(MILITIA[0]) == "dead"         # L590


def test_qa_dp_a_missile_unit_may_fire_then_retreat_before_melee():
    """Q&A L1042."""
    p = Position("18.2")
    p.put("cm_duck_militia#1", "0604")
    p.put(MILITIA[0], "0604")
    p.put("cc_heavy_lancers#1", "0504")
    p.combat(LUNAR)
    p.dice(1)                                     # the ducks fire (no result)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0604")
    assert f"retreat {p.name('cm_duck_militia#1')}" in p.legal()


def test_rule_dp_heroic_escape_on_four_to_six_rejoins_the_nearest_stack():
    p = Position("18.3")
    p.put("argrath", "0604")
    p.put(FREE[0], "0806")
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.combat(LUNAR)
    p.dice(6, 4)                                  # the attack kills Argrath; his escape roll is 4 (L642)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    p.act(f"eliminate {p.name('argrath')} at 0604")
    assert p.where("argrath") == "escaping"
    while p.phase != R.PH_ESCAPE_HEX:
        p.act(p.legal()[-1])
    p.act(f"{p.name('argrath')} rejoins the stack at 0806")
    assert p.where("argrath") == "0806"
    assert p.phase == R.PH_ARRANGE and int(p.s["arr_hex"]) == hexi("0806")   # the stack may be rearranged (L450)


def test_rule_dp_18_3_argrath_eliminated_and_failing_his_escape_is_a_lunar_win():
    p = Position("18.3")
    p.put("argrath", "0604")
    p.put(FREE[0], "0806")
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.combat(LUNAR)
    p.dice(6, 3)                                  # the escape roll fails (L246, L642)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    p.act(f"eliminate {p.name('argrath')} at 0604")
    while int(p.s["status"]) == 0:
        p.act(p.legal()[-1])
    assert list(p.s["rank"][:2]) == [1, 2]


def test_rule_dp_18_3_argrath_escaping_with_no_sartar_stack_left_is_a_lunar_win():
    """L642, L248: his escape roll succeeds, but no Sartar stack is left on the map
    to rejoin: he is eliminated permanently, and 18.3 ends with the Lunar win."""
    p = Position("18.3")
    p.put("argrath", "0604")
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.combat(LUNAR)
    p.dice(6, 6)                                  # the attack kills Argrath; his escape roll is 6
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    p.act(f"eliminate {p.name('argrath')} at 0604")
    while int(p.s["status"]) == 0 and p.where("argrath") == "escaping":
        p.act(p.legal()[-1])
    assert p.where("argrath") == "dead" and int(p.s["status"]) == 1 and list(p.s["rank"][:2]) == [1, 2]


def test_rule_dp_rally_disrupted_units_recover_in_their_next_player_turn_away_from_the_enemy():
    p = Position()
    p.put(LANCERS[0], "3122", disrupted=True)    # in Jonstown, beside the militia: stays disrupted
    p.put(LANCERS[1], "1010", disrupted=True)    # away from the enemy: recovers
    p.put(LANCERS[2], "1012", disrupted=True)    # disrupted in this very player-turn: not yet
    p.put(MILITIA[0], "3123")
    p.combat(LUNAR, player_turn=3)
    p.s["unit_disrupted_at"][[unit(u) for u in LANCERS[:2]]] = 2
    p.s["unit_disrupted_at"][unit(LANCERS[2])] = 3
    p.act("fight no more battles")               # Jonstown's three majors need not attack (L514)
    assert p.phase == R.PH_MOVE and p.to_play == SARTAR    # the rally phase is over (L590)
    assert p.disrupted(LANCERS[0]) and not p.disrupted(LANCERS[1]) and p.disrupted(LANCERS[2])


# ---------------------------------------------------------------- the berserker rage (L654-L658)
def berserk_position(harrek_at, goat, goat_at):
    """Harrek in Berserker Rage (his back side, (20)-20-12-1) with ``goat`` his scapegoat."""
    p = Position("18.3")
    p.put("harrek", harrek_at)
    p.put(goat, goat_at)
    p.s["unit_side"][unit("harrek")] = 1
    p.s["unit_scapegoat"][unit("harrek")] = unit(goat)
    return p


def test_rule_dp_berserk_the_best_friends_death_makes_a_scapegoat():
    p = Position("18.3")
    p.put(FREE[0], "0604")
    p.put("gunda", "0604")
    p.put("harrek", "1010")
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.combat(LUNAR)
    p.dice(6, 1)                                   # the attack kills both; Gunda's escape fails
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    p.act("no more retreats")
    p.act(f"eliminate {p.name('gunda')} at 0604")
    p.act(f"eliminate {p.name(FREE[0])} at 0604")
    p.act("no more advances")
    p.act("the stack at 0504 is arranged")
    assert p.phase == R.PH_SCAPEGOAT and p.to_play == SARTAR      # "select the scapegoat at the end of combat"
    assert sorted(p.legal()) == sorted(f"{p.name(u)} is the scapegoat of {p.name('harrek')}" for u in LANCERS[:3])
    p.act(f"{p.name(LANCERS[0])} is the scapegoat of {p.name('harrek')}")
    assert p.disrupted("harrek")                                  # turned to his Berserker Rage side (L656)
    assert int(p.s["unit_scapegoat"][unit("harrek")]) == unit(LANCERS[0])


def test_rule_dp_berserk_the_superhero_must_move_as_close_as_possible_to_the_scapegoat():
    p = berserk_position("0806", LANCERS[0], "0504")
    p.movement(SARTAR)
    assert "end the movement phase" not in p.legal()
    p.acts("select the stack at 0806", f"move {p.name('harrek')} with the group")
    assert "stop at 0806" not in p.legal()
    goat = hexi("0504")
    while p.phase == R.PH_MOVE_GROUP:
        legal = p.legal()
        if f"stop at {p.where('harrek')}" in legal:              # stopping only where none is closer
            assert MAP.distance(hexi(p.where("harrek")), goat) == 1
        p.act([a for a in legal if a.startswith("move ")][0])
    assert MAP.distance(hexi(p.where("harrek")), goat) == 1       # beside the scapegoat: its ZOC stopped him


def test_rule_dp_berserk_the_superhero_must_attack_the_scapegoats_stack():
    p = berserk_position("0604", LANCERS[0], "0504")
    p.put(LANCERS[1], "0605")
    p.combat(SARTAR)
    assert p.legal() == ["attack the stack at 0504"]
    p.act("attack the stack at 0504")
    assert p.legal() == ["attack with the stack at 0604"]                  # Harrek's stack joins first
    p.act("attack with the stack at 0604")
    assert any(a.startswith("attack 0504 with") for a in p.legal())


def test_rule_dp_berserk_the_scapegoat_is_picked_whenever_it_can_be_and_cannot_retreat():
    p = berserk_position("0604", LANCERS[0], "0504")
    p.put(FREE[0], "0604")
    p.put(LANCERS[1], "0605")
    p.put(LANCERS[2], "0504")                      # on top of the scapegoat
    p.combat(SARTAR)
    p.dice(6, 1)
    declare(p, ["0504", "0605"], ["0604"])
    arranged(p, "0604", "0504")
    assert f"retreat {p.name(LANCERS[0])}" not in p.legal()      # L656
    p.act("no more retreats")
    assert f"eliminate {p.name(LANCERS[2])} at 0504" in p.legal()
    p.act(f"eliminate {p.name(LANCERS[2])} at 0504")
    assert p.legal() == [f"eliminate {p.name(LANCERS[0])} at 0504"]   # the scapegoat before 0605's lancer
    p.act(f"eliminate {p.name(LANCERS[0])} at 0504")
    assert not p.disrupted("harrek") and int(p.s["unit_scapegoat"][unit("harrek")]) == -1   # avenged


def test_rule_dp_berserk_the_rage_passes_when_the_best_friend_escapes():
    p = berserk_position("1010", LANCERS[0], "0504")
    g = unit("gunda")
    p.s["unit_where"][g] = 4                       # eliminated this player-turn, to roll her escape
    p.s["unit_dead_hex"][g] = p.s["unit_hex"][unit("harrek")]
    p.combat(LUNAR)
    p.dice(5)
    p.act("fight no more battles")
    p.act(f"{p.name('gunda')} rejoins the stack at 1010")
    assert not p.disrupted("harrek") and int(p.s["unit_scapegoat"][unit("harrek")]) == -1   # L658


def test_rule_dp_scenario_18_1_is_melee_only():
    p = Position("18.1")
    p.put("nf_tarsh_archers#1", "0504")          # 2*-2-4: a Missile Factor, unused in 18.1 (L204)
    p.put("nf_tarsh_archers#2", "0504")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    declare(p, ["0604"], ["0504"])
    assert p.phase == R.PH_ARRANGE               # straight to the melee's arranging, no missile step


def test_rule_dp_rain_reduces_every_attacking_roll_and_the_roll_is_clamped():
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    p.s["rain"] = 1
    p.combat(LUNAR)
    p.dice(1)                                     # 1 - 1 = 0, read as 1 (L466, L1082)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    assert int(p.s["loss_left"]) == 2 * 2         # 12 at 1 -> 2


def test_rule_dp_rain_reduces_the_attack_roll_by_one():
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    p.s["rain"] = 1
    p.combat(LUNAR)
    p.dice(5)                                     # 5 - 1 = 4: 12 at 4 -> 6, not 9 (L466)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    assert int(p.s["loss_left"]) == 2 * 6


def test_rule_dp_attack_table_beyond_60_takes_the_printed_fraction():
    p = Position("18.3")
    for u in ("harrek", "gunda", *FREE):
        p.put(u, "0504")                         # 20 + 4 + 3 x (4 + 3) = 45
    for u in ("fa_free_cavalry#1", "fa_free_cavalry#2", "cm_boldhome_militia#1"):
        p.put(u, "0605")                         # 5 + 5 + 4 = 14
    for u in MILITIA[:3]:
        p.put(u, "0705")                         # 9
    p.put(LANCERS[0], "0604")
    p.combat(SARTAR)
    p.dice(4, 1)
    declare(p, ["0604"], ["0504", "0605", "0705"])
    arranged(p, "0504", "0605", "0705")
    assert int(p.s["att_total"]) == 68
    assert int(p.s["loss_left"]) == 2 * 34       # roll 4: half of the total (L1084-L1093)


def test_rule_dp_declaration_a_stack_fights_one_battle_so_all_its_neighbours_attack_it_together():
    p = Position()
    p.put(LANCERS[0], "0504")
    p.put(LANCERS[1], "0705")
    p.put(MILITIA[0], "0604")                    # beside both lancers
    p.combat(LUNAR)
    p.dice(1, 1)                                  # nobody falls
    p.act("attack the stack at 0604")
    p.act("attack with the stack at 0504")
    # 0604 fights once (L516): attacked by 0504 alone, 0705 would have no battle left (L512)
    assert p.legal() == ["attack with the stack at 0705"]
    p.act("attack with the stack at 0705")
    p.act("attack 0604 with the stacks at 0504, 0705")
    while not (p.phase == R.PH_MOVE and p.to_play == SARTAR):
        assert p.phase != R.PH_BATTLE, p.legal()  # every stack has fought: the phase ends
        p.act(p.legal()[-1])
    assert p.where(LANCERS[1]) == "0705" and p.where(MILITIA[0]) == "0604"


def to_the_next_declaration(p):
    """Play out the battle (the last legal action each time) until the next
    battle is to be announced or the combat phase is over."""
    while p.phase != R.PH_BATTLE and not (p.phase == R.PH_MOVE and p.to_play == SARTAR):
        p.act(p.legal()[-1])


def obliged_position():
    """18.1: Sartar 4-5-5s at 1005 and 1003; Lunar lancers at 1105, beside
    1005 only, and at 1004, beside both."""
    p = Position()
    p.put(FREE[0], "1005")
    p.put(FREE[1], "1003")
    p.put(LANCERS[0], "1105")
    p.put(LANCERS[1], "1004")
    p.combat(LUNAR)
    p.dice(1, 1, 1, 1)                            # nobody falls
    return p


def test_rule_dp_declaration_every_active_stack_beside_an_inactive_stack_must_attack():
    """L510-L512, L582: "All active units adjacent to inactive units must attack";
    one stack fights one battle (L516). Attacked by 1004 alone, 1005 would have
    fought and the lancers at 1105 would be left with no battle."""
    p = obliged_position()
    assert "fight no more battles" not in p.legal()
    p.act("attack the stack at 1005")
    p.act("attack with the stack at 1004")
    legal = p.legal()
    assert "attack 1005 with the stacks at 1004" not in legal
    assert "also attack the stack at 1003" not in legal      # 1105 could not join that battle
    assert legal == ["attack with the stack at 1105"]
    p.act("attack with the stack at 1105")
    p.act("attack 1005 with the stacks at 1004, 1105")
    to_the_next_declaration(p)
    assert p.phase == R.PH_MOVE and p.to_play == SARTAR      # every obliged stack has fought


def test_rule_dp_declaration_the_phase_goes_on_until_every_obliged_stack_has_fought():
    """L512, L582: with 1003 attacked first by 1004, the lancers at 1105 still
    have 1005 to attack, and must; then the phase ends."""
    p = obliged_position()
    declare(p, ["1003"], ["1004"])
    to_the_next_declaration(p)
    assert p.phase == R.PH_BATTLE and p.legal() == ["attack the stack at 1005"]
    declare(p, ["1005"], ["1105"])
    to_the_next_declaration(p)
    assert p.phase == R.PH_MOVE and p.to_play == SARTAR


def test_rule_dp_declaration_a_stack_with_no_battle_left_to_join_does_not_hold_the_phase_open():
    """L512 asks a battle of the stack, L516 forbids a stack a second battle:
    where every inactive stack beside it has already fought this phase, no
    legal battle is left to it, and the phase may end."""
    p = Position()
    p.put(FREE[0], "1005")
    p.put(LANCERS[0], "1105")                    # beside 1005 only
    p.put(LANCERS[1], "1006")                    # beside 1005
    p.combat(LUNAR)
    p.fought("1005", "1006")                     # 1005 has fought 1006 earlier in this phase
    assert p.legal() == ["fight no more battles"]
    p.act("fight no more battles")
    assert p.phase == R.PH_MOVE and p.to_play == SARTAR


def test_rule_dp_missile_small_targets_are_harder_to_hit():
    p = Position("18.2")
    for u in ARCHERS:
        p.put(u, "0504")
    p.put("cm_duck_militia#1", "0604")
    p.put("cm_duck_militia#2", "0604")
    p.combat(LUNAR)
    p.dice(1, 6)                                  # the ducks miss; 4 MF at 6 - 1 = 5 -> 1DD, not 2DD (L1108)
    declare(p, ["0604"], ["0504"])
    assert p.phase == R.PH_MISSILE_CASUALTY and p.to_play == SARTAR
    assert int(p.s["loss_left"]) == 1


def test_rule_dp_missile_firing_up_a_ridge_halves_the_factors():
    p = Position("18.2")
    for u in ARCHERS:
        p.put(u, "0414")                          # 4 MF, up the ridge to 0314: 2
    p.put(MILITIA[0], "0314")                    # a hill: -1
    p.put(MILITIA[1], "0314")
    p.combat(LUNAR)
    p.dice(5, 1)                                  # 5 - 1 = 4: nothing at 2 (1DD at 3-4) (L1117)
    declare(p, ["0314"], ["0414"])
    assert p.phase == R.PH_ARRANGE


def test_rule_dp_berserk_a_raging_superhero_is_not_disrupted_and_never_left_without_a_move():
    """Regression: the Berserker Rage side was taken for a disruption, so a raging
    Harrek beside an enemy had to flee and close on his scapegoat at once, and
    could be left with no legal action (L590: superheroes cannot be disrupted)."""
    p = berserk_position("0721", "nf_tarsh_warriors#2", "0718")
    p.put("nf_tarsh_warriors#1", "0722")
    p.movement(SARTAR)
    p.s["unit_mp"][unit("harrek")] = 4
    p.act("select the stack at 0721")
    p.act(f"move {p.name('harrek')} with the group")
    p.act(f"move {p.name('harrek')} from 0721 to 0720")
    assert p.legal()                               # he goes on toward the scapegoat
    assert not int(p.s["unit_flags"][unit("harrek")]) & UF_FLEE


def test_rule_dp_berserk_a_hero_scapegoat_killed_in_its_avengers_battle_makes_no_heroic_escape():
    """L656, L1018: eliminated in a battle of the berserk superhero, a hero or superhero
    scapegoat does not attempt a heroic escape, and the rage passes; killed elsewhere it
    may escape, and stays the scapegoat meanwhile. Harrek raging attacks in spirit
    combat with his berserk MgF of 20 (L656): at a 6 the Red Emperor (MgF 10) is taken."""
    def raging(p):
        p.put("harrek", "2011" if in_battle else "2030", disrupted=True)    # his Berserker Rage side
        p.s["unit_scapegoat"][unit("harrek")] = unit("red_emperor")
        p.put("red_emperor", "2012")

    for in_battle in (True, False):
        p = Position("18.5", moon="full")
        raging(p)
        if not in_battle:                      # two Storm Priests' spirits (MgF 6 + 6) kill him instead
            p.put("bh_bison_riders#1", "2011")
            p.put("smu_storm_priests#1", "2014")
            p.put("smu_storm_priests#2", "2014")
        p.combat(SARTAR, player_turn=2)
        if not in_battle:
            for k in (1, 2):
                p.act(f"commit {p.name(f'smu_storm_priests_spirit#{k}')}")
                p.act(f"{p.name(f'smu_storm_priests_spirit#{k}')} attacks the stack at 2012")
        p.dice(6, 1)                            # the spirit attack at 6; the Red Emperor's DSM at 1
        p.acts("attack the stack at 2012", "attack with the stack at 2011", "attack 2012 with the stacks at 2011")
        p.act(f"eliminate {p.name('red_emperor')} at 2012")
        if in_battle:
            assert p.where("red_emperor") == "dead"
            assert int(p.s["unit_scapegoat"][unit("harrek")]) == -1 and not p.disrupted("harrek")
        else:
            assert p.where("red_emperor") == "escaping"
            assert int(p.s["unit_scapegoat"][unit("harrek")]) == unit("red_emperor") and p.disrupted("harrek")


def test_rule_dp_melee_a_ford_or_headwaters_stack_is_not_halved():
    """L371: a ford or headwaters hex ignores the river's restrictions, the CF
    halving of L370 included; a stack on the river beside the ford is halved."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0613")                         # a ford of the Oslir: 12, whole
    p.put(LANCERS[3], "0713")                    # the river next to it: 4 halved to 2 (L370)
    p.put(MILITIA[0], "0714")
    p.combat(LUNAR)
    p.dice(1, 1)
    declare(p, ["0714"], ["0613", "0713"])
    arranged(p, "0613")
    assert int(p.s["att_total"]) == 12 + 2

    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0905")                         # the headwaters of Jaldon's Wrong River
    p.put(MILITIA[0], "0904")
    p.combat(LUNAR)
    p.dice(1, 1)
    declare(p, ["0904"], ["0905"])
    arranged(p, "0905")
    assert int(p.s["att_total"]) == 12           # not halved to 6


def test_rule_dp_melee_the_counter_attack_from_a_river_hex_is_halved():
    """L584: the defender's counter-attack is halved like the attack (L370): the
    militia on the river strike back with 3 x 2 halved, those beside it with 3 x 2."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0106")
    p.put(MILITIA[0], "0107")                    # a river hex, not a ford
    p.put(MILITIA[1], "0206")                    # open ground
    p.combat(LUNAR)
    p.dice(1, 1)                                 # 12 at 1 -> 2: too little for a militia (3)
    declare(p, ["0107", "0206"], ["0106"])
    arranged(p, "0106")                          # no retreat (no cover), no casualty
    assert int(p.s["def_total"]) == 3 + 6        # 6 halved, and 6 whole; 9 at 1 -> 1: no lancer
    assert p.phase == R.PH_ARRANGE and p.to_play == LUNAR    # the battle is over (L596)


def test_rule_dp_missile_each_missile_unit_fires_on_the_stack_its_owner_chooses():
    """L564-L565: with two enemy stacks in the battle, the owner of each missile
    unit picks its target; both archers fire at 0505, and 0604 takes nothing."""
    p = Position("18.2")
    p.put(ARCHERS[0], "0504")
    p.put(ARCHERS[1], "0504")
    p.put(MILITIA[0], "0604")
    p.put(MILITIA[1], "0505")
    p.combat(LUNAR)
    p.dice(6, 1)                                  # 2 MF at 6 -> 1DD on 0505 (L1128)
    declare(p, ["0604", "0505"], ["0504"])
    assert p.phase == R.PH_MISSILE_TARGET and p.to_play == LUNAR
    assert sorted(p.legal()) == [f"{p.name(ARCHERS[0])} fires at 0505", f"{p.name(ARCHERS[0])} fires at 0604"]
    p.act(f"{p.name(ARCHERS[0])} fires at 0505")
    assert p.phase == R.PH_MISSILE_TARGET         # the second archer chooses too
    p.act(f"{p.name(ARCHERS[1])} fires at 0505")
    assert p.phase == R.PH_MISSILE_CASUALTY and p.to_play == SARTAR
    assert p.legal() == [f"disrupt {p.name(MILITIA[1])}"]    # at 0505 only
    p.act(f"disrupt {p.name(MILITIA[1])}")
    assert p.disrupted(MILITIA[1]) and not p.disrupted(MILITIA[0])


ALL_LUNAR_MISSILES = ["nf_tarsh_archers#1", "nf_tarsh_archers#2", "hc_archers#1", "hc_archers#2"] + ARCHERS   # 10 MF


def test_rule_dp_missile_a_roll_below_0_reads_the_0_row():
    """L1117: a result less than 0 is treated as 0. Ten Missile Factors (the
    10-12 column) at Jonstown (-4, L1113): a 5 is 1 -> 1DD, a 1 is -3 -> 0 -> no result."""
    for die, hit in ((5, True), (1, False)):
        p = Position("18.3")
        for u in ALL_LUNAR_MISSILES:
            p.put(u, "3123")
        p.put(MILITIA[0], "3122")
        p.put(MILITIA[1], "3122")
        p.combat(LUNAR)
        p.dice(die, 1)
        declare(p, ["3122"], ["3123"])
        if hit:
            assert p.phase == R.PH_MISSILE_CASUALTY and p.to_play == SARTAR
            assert sorted(p.legal()) == sorted(f"disrupt {p.name(m)}" for m in MILITIA[:2])
        else:
            assert p.phase == R.PH_ARRANGE and p.to_play == LUNAR    # no casualty: on to the melee
            assert not p.disrupted(MILITIA[0]) and not p.disrupted(MILITIA[1])


def test_rule_dp_missile_more_than_20_missile_factors_read_the_17_20_column():
    """L1121-L1129: the Missile Table's last column is 17-20; with the
    Independents (here Dragonewts and Satyrs handed to the Lunars) a target
    can face more. At Jonstown (-4, L1113) a 6 is 2: 25 Missile Factors read
    the 17-20 column, 1DE (one unit eliminated); 16 read the 13-16 column,
    2DD (two disruptions or one elimination, the defender's choice)."""
    newts = ["dn_mounted_crested#1", "dn_mounted_crested#2", "dn_mounted_crested#3"] + \
        [f"dn_crested#{k}" for k in range(1, 6)] + ["satyrs#1", "satyrs#2"]
    for extra, total in ((newts, 25), (newts[:3], 16)):
        p = Position("18.3")
        p.s["units_end"] = len(R.U_FORCE)
        for u in ALL_LUNAR_MISSILES + extra:
            p.put(u, "3123")
        for u in extra:
            p.s["unit_force"][unit(u)] = 0
        assert sum(int(R.U_MISSILE[unit(u), 0]) for u in ALL_LUNAR_MISSILES + extra) == total
        p.put(MILITIA[0], "3122")
        p.put(MILITIA[1], "3122")
        p.combat(LUNAR)
        p.dice(6, 1)
        declare(p, ["3122"], ["3123"])
        assert p.to_play == SARTAR
        if total > 20:
            assert sorted(p.legal()) == sorted(f"eliminate {p.name(m)}" for m in MILITIA[:2])
        else:
            assert sorted(p.legal()) == ["take one elimination", "take two disruptions"]


def test_rule_dp_terrain_missile_fire_at_a_stack_on_a_dinosaur_symbol_takes_no_modifier():
    """L344: a dinosaur symbol has "no effect on movement or combat": eight
    Missile Factors (the 7-9 column) fire at Town Militia on the symbol at 3011
    (open ground, no modifier): a 2 is 2, a 1DD -- a -1 would make it 1, no
    result."""
    from dragongym.envs.dragon_pass.data import MAP
    assert hexi("3011") in MAP.dinosaur_symbols
    archers = [u for u in ALL_LUNAR_MISSILES if not u.startswith("cc_light_horse_archers")]
    p = Position("18.3")
    for u in archers:
        p.put(u, "2911")
    p.put(MILITIA[0], "3011")
    p.combat(LUNAR)
    p.dice(2, 1)
    declare(p, ["3011"], ["2911"])
    assert p.phase == R.PH_MISSILE_CASUALTY and p.to_play == SARTAR
    assert p.legal() == [f"disrupt {p.name(MILITIA[0])}"]


def test_rule_dp_heroic_escape_a_superhero_escapes_on_a_three():
    """L642: a superhero escapes on 3-6 (a hero fails on a 3,
    test_rule_dp_18_3_argrath_eliminated_and_failing_his_escape_is_a_lunar_win)."""
    p = Position("18.3")
    p.put("harrek", "0604")                       # (20!!): a casualty worth 20
    p.put(FREE[0], "0806")
    for u in LANCERS[:3]:
        p.put(u, "0504")
    for u in WARRIORS[:3]:
        p.put(u, "0505")
    p.combat(LUNAR)
    p.dice(6, 3)                                  # 24 at 6 -> 24; Harrek's escape roll is 3
    declare(p, ["0604"], ["0504", "0505"])
    arranged(p, "0504", "0505")
    p.act(f"eliminate {p.name('harrek')} at 0604")
    assert p.where("harrek") == "escaping"
    while p.phase != R.PH_ESCAPE_HEX:
        p.act(p.legal()[-1])
    p.act(f"{p.name('harrek')} rejoins the stack at 0806")
    assert p.where("harrek") == "0806"


def test_rule_dp_advance_no_extended_advance_into_forest_marsh_or_a_stack_that_attacks_later():
    """L600: from the vacated 2124 the lancer may go on to open ground or a hill,
    not into the forest (2125) or the marsh (2223), nor into 2123, whose Lunar
    stack has still to attack the militia at 2122."""
    p = Position()
    p.put(LANCERS[0], "2023")
    p.put(LANCERS[1], "2023")
    p.put(MILITIA[0], "2124")
    p.put(LANCERS[2], "2123")
    p.put(MILITIA[1], "2122")
    p.combat(LUNAR)
    p.dice(6)                                     # 8 at 6 -> 8: the militia dies
    declare(p, ["2124"], ["2023"])
    arranged(p, "2023")
    p.act(f"eliminate {p.name(MILITIA[0])} at 2124")
    p.act(f"advance {p.name(LANCERS[1])}")
    p.act(f"{p.name(LANCERS[1])} advances into 2124")
    assert p.phase == R.PH_ADVANCE_EXT
    ext = sorted(t[-4:] for t in p.legal() if " advances on to " in t)
    assert ext == ["2023", "2024", "2224"]


def test_rule_dp_melee_inside_a_structure_on_better_ground_the_ground_counts():
    """L348, L352, L341 (Interpretations 4): a militia (3) inside the stockade
    on the mountain at 1921 is worth 3 x 2 as a casualty, the mountain's x2
    beating the stockade's x1.5, never both (x3). A loss of 5 takes nothing
    (x1.5 would be 4.5); a loss of 6 takes it (x3 would be 9)."""
    for attackers, die, taken in (([LANCERS[0], LANCERS[1], "nf_tarsh_archers#1"], 4, False),   # 10 at 4 -> 5
                                  (LANCERS[:3], 4, True)):                                      # 12 at 4 -> 6
        p = Position()
        for u in attackers:
            p.put(u, "1920")
        p.put(MILITIA[0], "1921")
        p.combat(LUNAR)
        p.dice(die, 1)
        declare(p, ["1921"], ["1920"])
        arranged(p, "1920")
        if taken:
            assert p.phase == R.PH_CASUALTY and p.legal() == [f"eliminate {p.name(MILITIA[0])} at 1921"]
        else:
            assert int(p.s["att_total"]) == 10
            assert p.where(MILITIA[0]) == "1921" and p.phase == R.PH_ARRANGE


def test_rule_dp_missile_1de_eliminates_one_unit_of_the_owners_choice():
    """L1128-L1131: six Missile Factors (the 5-6 column) at 6 give 1DE: one unit
    of the target stack eliminated, its owner choosing; the other is untouched."""
    p = Position("18.3")
    for u in ["hc_archers#1", "hc_archers#2", ARCHERS[0], ARCHERS[1]]:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    p.put(MILITIA[1], "0604")
    p.combat(LUNAR)
    p.dice(6, 1)
    declare(p, ["0604"], ["0504"])
    assert p.phase == R.PH_MISSILE_CASUALTY and p.to_play == SARTAR
    assert sorted(p.legal()) == sorted(f"eliminate {p.name(m)}" for m in MILITIA[:2])
    p.act(f"eliminate {p.name(MILITIA[0])}")
    assert p.where(MILITIA[0]) == "dead"
    assert p.where(MILITIA[1]) == "0604" and not p.disrupted(MILITIA[1])


def test_rule_dp_retreat_onto_a_friendly_stack_and_a_fast_unit_left_as_cover_stays():
    """L577-L578 (Interpretations 13): the slow militia retreats onto the Sartar
    stack at 0705, covered by the free cavalry (5 >= 12 / 6); the cavalry, faster
    than every attacker, would need no cover, but the militia's cover may not leave."""
    p = Position("18.3")
    for u in WARRIORS[:3]:
        p.put(u, "0504")                          # MF 4, 12 fighting: cover needs CF 2
    p.put(MILITIA[0], "0604")
    p.put("fa_free_cavalry#1", "0604")           # 5-3-7
    p.put(FREE[0], "0705")                        # a Sartar stack away from the enemy
    p.combat(LUNAR)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    assert p.phase == R.PH_RETREAT
    assert {f"retreat {p.name(MILITIA[0])}", f"retreat {p.name('fa_free_cavalry#1')}"} <= set(p.legal())
    p.act(f"retreat {p.name(MILITIA[0])}")
    p.act(f"{p.name(MILITIA[0])} retreats from 0604 to 0705")
    assert p.where(MILITIA[0]) == "0705" and set(p.stack("0705")) == {MILITIA[0], FREE[0]}
    assert f"retreat {p.name('fa_free_cavalry#1')}" not in p.legal()


def test_rule_dp_advance_no_extended_advance_into_hill_forest_lake_or_mountain():
    """L600 (Interpretations 16): from the vacated 3412 a lancer may not go on into
    the hill/forest at 3413 (a forest) or the lake at 3512; from the vacated 1619,
    not into the mountain at 1719. Open ground and hills are open to it."""
    for start, vacated, allowed in (("3312", "3412", ["3312", "3313", "3411", "3513"]),
                                    ("1519", "1619", ["1519", "1520", "1618", "1620", "1720"])):
        p = Position()
        p.put(LANCERS[0], start)
        p.put(LANCERS[1], start)
        p.put(MILITIA[0], vacated)
        p.combat(LUNAR)
        p.dice(6)                                 # 8 at 6 -> 8: the militia dies
        declare(p, [vacated], [start])
        arranged(p, start)
        p.act(f"eliminate {p.name(MILITIA[0])} at {vacated}")
        p.act(f"advance {p.name(LANCERS[1])}")
        p.act(f"{p.name(LANCERS[1])} advances into {vacated}")
        assert p.phase == R.PH_ADVANCE_EXT
        assert sorted(t[-4:] for t in p.legal() if " advances on to " in t) == allowed


def test_rule_dp_ironhoof_frozen_cavalry_neither_retreats_nor_advances():
    """L784: in the game-turn Ironhoof froze the cavalry, no cavalry unit retreats
    or advances after combat (the fast Free Cavalry of the retreat rules, L578)."""
    from tests.dragon_pass.movement_test import ironhoof_for
    p = Position("18.3")
    for u in WARRIORS[:3]:
        p.put(u, "0504")
    p.put("fa_free_cavalry#1", "0604")
    ironhoof_for(p, "sartar", "3030")
    p.combat(LUNAR)
    p.s["freeze_turn"] = p.s["turn"]
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    assert f"retreat {p.name('fa_free_cavalry#1')}" not in p.legal()
    p = Position("18.3")
    p.put("cc_lancers#1", "0504")
    p.put(WARRIORS[0], "0504")
    p.put(FREE[0], "0604")
    ironhoof_for(p, "lunar", "3030")
    p.combat(LUNAR)
    p.s["freeze_turn"] = p.s["turn"]
    p.dice(6)                                     # the attack eliminates the defender
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    while p.phase != R.PH_ADVANCE and int(p.s["status"]) == 0:
        p.act(p.legal()[-1])
    assert f"advance {p.name('cc_lancers#1')}" not in p.legal()
    assert f"advance {p.name(WARRIORS[0])}" in p.legal()
