"""Monsters controlled by a hero (L688-L692, L710): the undead Monster a
Rule Undead rules (L1506), the Elemental an Elemental spell or the Elemental
Spherule brings (L1550, L1334). A controlled Monster counts as a hero in
combat: the other Monsters challenge it as they challenge heroes, its
controller chooses its target and the side of its chip face up, and its
kills are his.

Positions are built as in ``combat_test``/``spells_test``: a Human in Tri
Peaks 1 against a Wraith (undead, a Guardian: front melee speed 3, damage
2 + 1 sword, maneuver 3; back speed 2, damage 3 + 1 sword, maneuver 4) and a
Giant Spider (health 2, Fame 5, maneuver 2), the dice loaded as raw draws.
"""
import numpy as np

from dragongym.agents.dragons_down_heuristic import DragonsDownHeuristic
from dragongym.envs.dragons_down import observe as O
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import CW_HERO, HS_ACTIVE, MON_TAKEN, MON_TRAY, NUM_MONSTER_CHIPS
from dragongym.envs.dragons_down.game import GAME
from dragongym.envs.dragons_down.rules import combat as C
from tests.dragons_down.combat_test import (
    HIT, NO_SYMBOL, SYMBOL, TRI_PEAKS_1, act, ask, chip, give, legal, load, stay,
)
from tests.dragons_down.observe_test import block
from tests.dragons_down.spells_test import in_combat, wizard

WRAITH_FAME, SPIDER_FAME = 15, 5
ELEMENTALS = [f for f in range(NUM_MONSTER_CHIPS) if R.FOE_ELEMENTAL[f]]
"""The Elemental chips in chip order: air, earth, fire, water (data/monsters.txt)."""


def ruler(more=(), spider=True):
    """A Human Sorcerer who knows Rule Undead and holds four black cubes
    (the spell's four boxes: one colour, so Specialized makes his one Speed
    Cube an attack speed of 2, L1226), against the Wraith and (``spider``)
    the spider; ``more`` heroes after him. (S, card, wraith, spider or -1)."""
    monsters = (("wraith", TRI_PEAKS_1),) + ((("giant_spider", TRI_PEAKS_1),) if spider else ())
    S, sp = wizard("rule_undead", {"black": 4}, cls="sorcerer", more=more, monsters=monsters)
    return S, sp, chip(S, "wraith"), (chip(S, "giant_spider") if spider else -1)


def wound_through(S):
    """Answer the armour and wound choices of the Monsters' strikes (the first
    offered); the foes whose strikes asked them, in order."""
    strikers = []
    while int(S[0]["phase"]) in (R.PH_ARMOR, R.PH_WOUND):
        f = int(S[0]["atk_foe"])
        if not strikers or strikers[-1] != f:
            strikers.append(f)
        act(S, legal(S)[0])
    return strikers


def cast_rule_undead(S, sp, wraith, spider):
    """Round 1: both Monsters challenge the only hero; he targets the Wraith
    and casts Rule Undead with one Speed Cube (attack speed 2, length 5).
    The spider keeps its side (speed 2), the Wraith turns to its back (speed
    2, maneuver 4): the spell, as fast and longer, strikes first (L732-L734)
    and hits (two hits on the Hit Dice, L740)."""
    in_combat(S)
    ask(S, R.PH_TARGET, 0)
    act(S, R.A_FOE + wraith)
    act(S, R.A_SPELL + sp)
    load(S, *(((NO_SYMBOL,) if spider >= 0 else ()) + (SYMBOL, HIT, HIT)))
    act(S, R.A_BOX + R.BOX_ATTACK)
    if int(S[0]["phase"]) == R.PH_TACTICS:
        act(S, R.A_DO + R.DO_DONE)


def controller(S, f):
    return int(S[0]["foe_ctrl"][f]) - 1


# ================================================================ Rule Undead (L1506)
def test_dd_spell_rule_undead_1_the_ruled_wraith_fights_for_its_caster_and_its_kill_is_his():
    """L1506: the Wraith hit is the caster's for the rest of combat. Next
    round the spider challenges it as it would a hero (L688, L692: the draw
    falls on it, the second of the two to challenge); it challenges no one
    and rolls no Monster Die; in the Target step its controller chooses the
    spider as its target and its front side up (L710); it strikes the spider
    (speed 3 against maneuver 2: a hit, damage 2 + 1 sword against health
    2) and the caster takes the spider and its 5 Fame (L799)."""
    S, sp, wraith, spider = ruler()
    s = S[0]
    cast_rule_undead(S, sp, wraith, spider)
    ask(S, R.PH_CTRL_KEEP, 0)
    assert controller(S, wraith) == 0 and int(s["spell_on"][sp]) == wraith
    act(S, R.A_ANSWER + R.ANSWER_REFUSE)
    load(S, 1)                                   # round 2: the spider's challenge draws its second candidate
    wound_through(S)
    assert int(s["combat_round"]) == 2
    assert int(s["foe_vs"][spider]) - 1 == wraith and int(s["foe_target"][spider]) == -1
    assert int(s["foe_target"][wraith]) == -1 and int(s["foe_vs"][wraith]) == 0, "a ruled Monster challenges no one"
    stay(S)
    ask(S, R.PH_TARGET, 0)
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_CTRL_TARGET, 0)
    assert sorted(legal(S)) == sorted([R.A_FOE + spider, R.A_DO + R.DO_PASS])
    act(S, R.A_FOE + spider)
    ask(S, R.PH_CTRL_SIDE, 0)
    assert GAME.action_to_string(S, R.A_SIDE).endswith("side front up")
    fame = int(s["fame"][0])
    load(S, NO_SYMBOL)                           # the spider's Monster Die only: the Wraith rolls none
    act(S, R.A_SIDE)                             # no cube to place: on to the Resolve step
    while int(s["phase"]) == R.PH_TACTICS:
        act(S, R.A_DO + R.DO_DONE)
    assert int(s["mon_flipped"][wraith]) == 0
    assert int(s["mon_clearing"][spider]) == MON_TAKEN and int(s["mon_taker"][spider]) == 0
    assert int(s["fame"][0]) == fame + SPIDER_FAME
    assert controller(S, wraith) == 0


def test_dd_spell_rule_undead_1_control_ends_when_the_caster_targets_it_leaves_or_dies():
    """L1506: "until the caster is killed, targets the Monster, or leaves the
    clearing": targeting it frees it at once (the Wraith a Monster again, the
    Rule Undead card back to its caster); so does evading, or his death, and
    Break Spells ending the card (L1492)."""
    for how in ("target", "evade", "killed", "broken"):
        S, sp, wraith, spider = ruler()
        s = S[0]
        in_combat(S)
        R.put_in_play(S, 0, sp, wraith)
        R.take_control(S, 0, wraith, 0, R.CTRL_UNDEAD)
        assert controller(S, wraith) == 0 and not R.foe_is_monster(S, 0, wraith)
        if how == "target":
            ask(S, R.PH_TARGET, 0)
            act(S, R.A_FOE + wraith)
        else:
            if how == "evade":
                s["hero_combat"][0] = C.HC_EVADED
                R.end_combat_spells(S, 0, 0, R.AIM_HERO + 0)
            elif how == "killed":
                R.hero_killed(S, 0, 0)
            else:
                R.end_spells_on(S, 0, wraith)
            R.ctrl_sync(S, 0)
        assert controller(S, wraith) == -1 and int(s["spell_on"][sp]) == -1, how
        assert int(s["mon_clearing"][wraith]) == TRI_PEAKS_1, how


def test_dd_spell_rule_undead_2_a_pending_attack_is_canceled_or_goes_on_as_the_caster_decides():
    """L1506: the Wraith's attack this round (speed 2, after the spell) was
    still to resolve when the spell took it: its caster decides. Canceled, it
    never strikes him; going on, it strikes him (its kills would be his)."""
    for answer, struck in ((R.ANSWER_REFUSE, False), (R.ANSWER_ACCEPT, True)):
        S, sp, wraith, spider = ruler(spider=False)
        cast_rule_undead(S, sp, wraith, spider)
        ask(S, R.PH_CTRL_KEEP, 0)
        act(S, R.A_ANSWER + answer)
        s = S[0]
        hurt = int(s["hero_state"][0]) != HS_ACTIVE or int(s["cubes"][0, 1, :R.CUBE_MAGIC].sum()) + int(s["hearts"][0, 1]) > 0 \
            or int(s["phase"]) in (R.PH_ARMOR, R.PH_WOUND)
        assert hurt == struck


def test_dd_spell_rule_undead_2_the_caster_killing_his_ruled_monster_earns_its_fame():
    """L1506: "normal Fame if the undead Monster is killed by the caster":
    the Wraith he rules, killed by him, gives him its 15 Fame and its chip."""
    S, sp, wraith, spider = ruler()
    s = S[0]
    in_combat(S)
    R.put_in_play(S, 0, sp, wraith)
    R.take_control(S, 0, wraith, 0, R.CTRL_UNDEAD)
    R.strike_monster(S, 0, wraith, 9, 0, True)
    assert int(s["fame"][0]) == WRAITH_FAME and int(s["mon_taker"][wraith]) == 0
    R.ctrl_sync(S, 0)
    assert controller(S, wraith) == -1


# ================================================================ counting as a hero (L688-L692, L710)
def test_dd_combat_challenge_3_a_controlled_monster_is_challenged_as_a_hero_and_challenges_no_one():
    """L688, L692: in the Challenge step each Monster challenges a random one
    of the unhidden heroes and the controlled Monsters (here the hero first,
    then the ruled Wraith: the draw 1 falls on the Wraith, 0 on the hero);
    the Wraith itself challenges no one, though a hero is there."""
    for draw, hero_challenged in ((1, False), (0, True)):
        S, sp, wraith, spider = ruler()
        s = S[0]
        in_combat(S)
        R.put_in_play(S, 0, sp, wraith)
        R.take_control(S, 0, wraith, 0, R.CTRL_UNDEAD)
        C.new_round(S, 0)
        load(S, draw)
        C.challenge_step(S, 0)
        assert (int(s["foe_target"][spider]) == 0) == hero_challenged
        assert (int(s["foe_vs"][spider]) - 1 == wraith) == (not hero_challenged)
        assert int(s["foe_target"][wraith]) == -1 and int(s["foe_vs"][wraith]) == 0
        assert C.challenger_maneuver(S, 0, 0) == (2 if hero_challenged else 0)


def test_dd_combat_target_4_the_controller_chooses_his_monsters_target_and_side_up():
    """L710: targeting with a controlled Monster, the hero chooses the side of
    its chip face up: the Wraith's back (speed 2, maneuver 4) chosen, it stays
    up through the Monster Tactics (no Monster Die for it, L726) and the
    Wraith strikes the spider at speed 2 -- a tie with the maneuver 2, so the
    Hit Dice roll (two hits: a hit, damage 3 + 1 sword kills it)."""
    S, sp, wraith, spider = ruler()
    s = S[0]
    in_combat(S)
    R.put_in_play(S, 0, sp, wraith)
    R.take_control(S, 0, wraith, 0, R.CTRL_UNDEAD)
    act(S, R.A_DO + R.DO_PASS)                   # his own target: none
    ask(S, R.PH_CTRL_TARGET, 0)
    assert R.A_FOE + wraith not in legal(S), "a controlled Monster does not fight its own side"
    act(S, R.A_FOE + spider)
    ask(S, R.PH_CTRL_SIDE, 0)
    assert sorted(legal(S)) == [R.A_SIDE, R.A_SIDE + 1]
    act(S, R.A_SIDE + 1)
    assert int(s["mon_flipped"][wraith]) == 1
    load(S, NO_SYMBOL, HIT, HIT)                 # the spider's Monster Die; the Wraith's Hit Dice
    while int(s["phase"]) == R.PH_TACTICS:
        act(S, R.A_DO + R.DO_DONE)
    wound_through(S)
    assert int(s["mon_flipped"][wraith]) == 1 or int(s["combat_step"]) == C.CS_NONE
    assert int(s["mon_clearing"][spider]) == MON_TAKEN and int(s["fame"][0]) == SPIDER_FAME


def test_interpretation_controlled_another_hero_may_not_target_a_monster_someone_controls():
    """Interpretations, "Controlled Monsters": the Wraith ruled by player_0
    counts as a hero (L692), and heroes fight heroes only with Player vs.
    Player (L1172): without it player_1 may not target it; player_0 may (it
    frees it)."""
    S, sp, wraith, spider = ruler(more=[("human", "knight", TRI_PEAKS_1)])
    in_combat(S)
    R.put_in_play(S, 0, sp, wraith)
    R.take_control(S, 0, wraith, 0, R.CTRL_UNDEAD)
    ask(S, R.PH_TARGET, 0)
    assert R.A_FOE + wraith in legal(S)
    act(S, R.A_FOE + spider)
    ask(S, R.PH_TARGET, 1)
    assert R.A_FOE + wraith not in legal(S) and R.A_FOE + spider in legal(S)


def ruled_beside_a_knight(pvp):
    """The Sorcerer (player_0) rules the Wraith (put in play and controlled
    as Rule Undead's hit does) beside a Human Knight (player_1), both against
    the spider, Player vs. Player played or not; at the Challenge step (or
    the Target step). (S, card, wraith, spider)"""
    S, sp, wraith, spider = ruler(more=[("human", "knight", TRI_PEAKS_1)])
    if pvp:
        S[0]["optional_rules"] |= R.OPT_PVP
    in_combat(S)
    R.put_in_play(S, 0, sp, wraith)
    R.take_control(S, 0, wraith, 0, R.CTRL_UNDEAD)
    return S, sp, wraith, spider


def test_dd_pvp_controlled_1_with_player_vs_player_another_hero_attacks_a_monster_someone_controls():
    """L692, L1174: with Player vs. Player the Wraith player_0 rules is a hero
    of the fight that player_1 may target and attack. The Knight's Battle
    Axe strike (two Might Cubes, two hits) kills it: its Fame is his, the chip
    his, and player_0's control ends with it (a Monster's kill, not a hero's
    death: Interpretations, *Controlled Monsters*)."""
    from tests.dragons_down.combat_test import place, stay
    S, sp, wraith, spider = ruled_beside_a_knight(True)
    s = S[0]
    while int(s["phase"]) == R.PH_CHALLENGE:               # no hero challenges a hero
        act(S, R.A_DO + R.DO_PASS)
    stay(S)
    ask(S, R.PH_TARGET, 0)
    act(S, R.A_FOE + spider)
    stay(S)
    ask(S, R.PH_TARGET, 1)
    assert R.A_FOE + wraith in legal(S)
    act(S, R.A_FOE + wraith)
    ask(S, R.PH_CTRL_TARGET, 0)
    act(S, R.A_DO + R.DO_PASS)                             # the Wraith targets no one
    act(S, R.A_SIDE)
    load(S, NO_SYMBOL, *[HIT] * 8)
    ask(S, R.PH_TACTICS, 0)
    act(S, R.A_DO + R.DO_DONE)
    place(S, 1, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    assert int(s["mon_clearing"][wraith]) == MON_TAKEN and int(s["mon_taker"][wraith]) == 1
    assert int(s["fame"][1]) == WRAITH_FAME and controller(S, wraith) == -1


def test_dd_pvp_controlled_3_with_player_vs_player_a_hero_challenges_a_monster_someone_controls():
    """L692, L1182-L1184: with Player vs. Player the Wraith player_0 rules is
    an unhidden hero of the fight that player_1 may challenge: his Targeting
    Token goes on it, he places Speed Cubes in his maneuver boxes for the
    round, and the Target step does not ask him again. player_0 may not
    challenge his own Monster."""
    S, sp, wraith, spider = ruled_beside_a_knight(True)
    s = S[0]
    ask(S, R.PH_CHALLENGE, 0)
    assert R.A_FOE + wraith not in legal(S) and R.A_SEAT + 1 in legal(S)
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_CHALLENGE, 1)
    assert R.A_FOE + wraith in legal(S) and R.A_FOE + spider not in legal(S)
    assert GAME.action_to_string(S, R.A_FOE + wraith) == f"challenge Wraith (chip {wraith})"
    act(S, R.A_FOE + wraith)
    assert int(s["hero_target"][1]) == wraith
    ask(S, R.PH_CHALLENGE_CUBE, 1)
    act(S, R.A_BOX + R.BOX_MANEUVER)
    act(S, R.A_DO + R.DO_DONE)
    while int(s["phase"]) == R.PH_EVADE:
        act(S, R.A_DO + R.DO_STAY)
    ask(S, R.PH_TARGET, 0)
    act(S, R.A_FOE + spider)
    assert int(s["phase"]) != R.PH_TARGET                    # player_1's token already lies on the Wraith
    assert int(s["hero_target"][1]) == wraith and int(s["placed"][1, R.BOX_MANEUVER]) == 1


def test_dd_pvp_controlled_2_with_player_vs_player_a_controlled_monster_attacks_a_hero():
    """L692, L710, L1174: with Player vs. Player the Wraith player_0 rules, a
    hero of the fight, may target player_1 (never its own controller), and
    strikes him as a Monster strikes a hero: hit, he chooses his armour.
    Its kill is its controller's (L1190: the Fame death discards, and an
    Outlaw Token for killing a hero who is none, L1117)."""
    from tests.dragons_down.combat_test import stay
    S, sp, wraith, spider = ruled_beside_a_knight(True)
    s = S[0]
    while int(s["phase"]) == R.PH_CHALLENGE:
        act(S, R.A_DO + R.DO_PASS)
    for p in (0, 1):
        stay(S)
        ask(S, R.PH_TARGET, p)
        act(S, R.A_FOE + spider)
    ask(S, R.PH_CTRL_TARGET, 0)
    assert R.A_SEAT + 1 in legal(S) and R.A_SEAT + 0 not in legal(S)
    assert GAME.action_to_string(S, R.A_SEAT + 1) == f"Wraith (chip {wraith}) targets player_1"
    act(S, R.A_SEAT + 1)
    act(S, R.A_SIDE)
    assert int(s["foe_target"][wraith]) == 1
    load(S, NO_SYMBOL, *[HIT] * 10)
    ask(S, R.PH_TACTICS, 0)
    act(S, R.A_DO + R.DO_DONE)
    ask(S, R.PH_TACTICS, 1)
    act(S, R.A_DO + R.DO_DONE)
    ask(S, R.PH_ARMOR, 1)                                     # the Wraith's hit on him
    assert int(s["atk_foe"]) == wraith and int(s["atk_victim"]) == 1
    s["fame"][1], s["outlaw"][0] = 10, 0
    R.hero_killed(S, 0, 1)                                    # had it killed him: player_0's kill
    assert int(s["fame"][0]) == 5 and int(s["outlaw"][0]) == 1


def test_dd_pvp_controlled_2_a_controlled_monster_may_target_one_another_hero_controls():
    """L692, L1174: with Player vs. Player a Monster another hero controls is
    a hero of the fight for a controlled Monster too: the spider player_1
    controls may target the Wraith player_0 rules. Without Player vs. Player
    it may not (it is no Monster of the fight, and heroes fight no heroes):
    with no Monster left to target, player_1 only turns its chip."""
    for pvp in (True, False):
        S, sp, wraith, spider = ruled_beside_a_knight(pvp)
        s = S[0]
        R.take_control(S, 0, spider, 1, R.CTRL_ELEMENTAL)     # no card to keep: it stays his
        while int(s["phase"]) in (R.PH_CHALLENGE, R.PH_EVADE, R.PH_TARGET):
            act(S, R.A_DO + R.DO_STAY if int(s["phase"]) == R.PH_EVADE else R.A_DO + R.DO_PASS)
        if pvp:
            ask(S, R.PH_CTRL_TARGET, 1)
            assert R.A_FOE + wraith in legal(S) and R.A_SEAT + 0 in legal(S)
        else:
            ask(S, R.PH_CTRL_SIDE, 1)


def test_dd_pvp_controlled_2_without_player_vs_player_a_controlled_monster_targets_monsters_only():
    """L1172: without Player vs. Player the ruled Wraith may target the
    Monsters of the fight only: no hero."""
    S, sp, wraith, spider = ruled_beside_a_knight(False)
    ask(S, R.PH_TARGET, 0)
    act(S, R.A_FOE + spider)
    ask(S, R.PH_TARGET, 1)
    act(S, R.A_FOE + spider)
    ask(S, R.PH_CTRL_TARGET, 0)
    assert sorted(legal(S)) == [R.A_DO + R.DO_PASS, R.A_FOE + spider]


def test_dd_pvp_controlled_4_a_shape_shifted_heros_chip_attacks_a_hero_his_dust_on_its_miss():
    """L1174, L1564, L1330: with Player vs. Player the Sorcerer, Shape Shifted
    into a Goblin, is a hero of the fight: his chip may target the Rogue
    (never himself). The Rogue, threatened, puts two Speed Cubes in his
    maneuver boxes (maneuver 2, the Goblin's speed): the Goblin's Hit Dice
    show two blanks, a miss. The roll is the Sorcerer's, the attacker: his
    Dust of Destiny rerolls it, two hits, and the Rogue takes the hit. Its
    kill would be the Sorcerer's."""
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, combat, start as start_combat
    from tests.dragons_down.reroll_test import ALL, _dusty, _gone, reroll, rerolls
    from tests.dragons_down.shape_shift_test import shape_on
    S = combat([("human", "sorcerer", TRI_PEAKS_1), ("human", "rogue", TRI_PEAKS_1)],
               monsters=(("giant_spider", TRI_PEAKS_1),))
    s = S[0]
    s["optional_rules"] |= R.OPT_PVP
    _, goblin = shape_on(S, 0, "goblin")
    s["tile_enchant"][TRI_PEAKS_1 // 6] = R.SPELL_COLOUR[R.SP_SHAPE_SHIFT]
    dust = _dusty(S, 0)
    start_combat(S)
    spider = chip(S, "giant_spider")
    while int(s["phase"]) != R.PH_CTRL_TARGET:
        act(S, R.A_DO + R.DO_STAY if int(s["phase"]) == R.PH_EVADE else R.A_FOE + spider)
    ask(S, R.PH_CTRL_TARGET, 0)
    assert R.A_SEAT + 1 in legal(S) and R.A_SEAT + 0 not in legal(S)
    act(S, R.A_SEAT + 1)
    act(S, R.A_SIDE)                                          # its front: speed 2
    load(S, NO_SYMBOL, HIT_BLANK, HIT_BLANK)
    ask(S, R.PH_TACTICS, 1)
    act(S, R.A_BOX + R.BOX_MANEUVER)
    act(S, R.A_BOX + R.BOX_MANEUVER)
    act(S, R.A_DO + R.DO_DONE)
    ask(S, R.PH_REROLL, 0)
    assert int(s["roll_kind"]) == R.ROLL_ATTACK and int(s["roll_then"]) == R.ATTACK_ON_HERO
    assert int(s["atk_foe"]) == goblin and int(s["atk_victim"]) == 1 and rerolls(S) == [reroll(R.RR_DUST, ALL)]
    load(S, HIT, HIT)
    act(S, reroll(R.RR_DUST, ALL))
    ask(S, R.PH_ARMOR, 1)
    assert _gone(S, dust)
    s["fame"][1], s["outlaw"][0] = 10, 0
    R.hero_killed(S, 0, 1)
    assert int(s["fame"][0]) == 5 and int(s["outlaw"][0]) == 1


# ================================================================ Elemental (L1550) and the Elemental Spherule (L1334)
def summoner():
    """A Human Druid who knows Elemental with five green cubes, against the spider. (S, card, spider)."""
    S, sp = wizard("elemental", {"green": 5}, cls="druid", monsters=(("giant_spider", TRI_PEAKS_1),))
    return S, sp, chip(S, "giant_spider")


def test_dd_spell_elemental_1_a_random_elemental_joins_and_fights_for_the_caster_from_the_next_round():
    """L1550: cast (no target, five green cubes), it draws one of the four
    Elemental chips at random (the draw 2: the Fire Elemental) into the
    clearing. This round it does nothing; the next it is challenged as a
    hero (the spider's draw 1) and its caster chooses its target and side."""
    S, sp, spider = summoner()
    s = S[0]
    in_combat(S)
    s["cast_card"][0], s["cast_stage"][0] = sp, R.CAST_PLACED
    load(S, 2)
    assert not R.cast_spell(S, 0, 0)
    fire = ELEMENTALS[2]
    assert int(s["mon_clearing"][fire]) == TRI_PEAKS_1 and controller(S, fire) == 0
    assert int(s["ctrl_flags"][fire]) & R.CTRL_WAITING and not R.ctrl_active(S, 0, fire)
    assert int(s["spell_on"][sp]) == R.AIM_HERO + 0
    assert not C.foe_can_strike(S, 0, fire)
    C.new_round(S, 0)
    assert R.ctrl_active(S, 0, fire)
    load(S, 1)
    C.challenge_step(S, 0)
    assert int(s["foe_vs"][spider]) - 1 == fire


def test_dd_spell_elemental_2_no_fame_for_ones_own_elemental_fame_for_its_kills():
    """L1550: the Fire Elemental's kill of the spider (front: speed 3 against
    maneuver 2, damage 3 + 1 sword) gives its caster the 5 Fame; killing his
    own Elemental gives him none, and it goes back to the pool (L799)."""
    S, sp, spider = summoner()
    s = S[0]
    in_combat(S)
    fire = ELEMENTALS[2]
    load(S, 2)
    R.summon_elemental(S, 0, 0, sp)
    C.new_round(S, 0)
    s["foe_vs"][fire] = spider + 1
    R.versus_strike(S, 0, fire)
    assert int(s["mon_clearing"][spider]) == MON_TAKEN and int(s["fame"][0]) == SPIDER_FAME
    R.strike_monster(S, 0, fire, 9, 0, True)
    assert int(s["fame"][0]) == SPIDER_FAME and int(s["mon_clearing"][fire]) == MON_TRAY
    assert int(s["kills"][0].sum()) == 1
    R.ctrl_sync(S, 0)
    assert controller(S, fire) == -1 and int(s["spell_on"][sp]) == -1


def test_dd_spell_elemental_2_it_expires_when_its_caster_dies_or_leaves_or_the_combat_ends():
    """L1550: the caster killed, or gone from the clearing, or the combat
    over: the Elemental's spell expires and its chip goes back to the pool
    (Interpretations, "Controlled Monsters")."""
    for how in ("killed", "evade", "end"):
        S, sp, spider = summoner()
        s = S[0]
        in_combat(S)
        load(S, 0)
        R.summon_elemental(S, 0, 0, sp)
        air = ELEMENTALS[0]
        assert int(s["mon_clearing"][air]) == TRI_PEAKS_1
        if how == "killed":
            R.hero_killed(S, 0, 0)
            R.ctrl_sync(S, 0)
        elif how == "evade":
            s["hero_combat"][0] = C.HC_EVADED
            R.ctrl_sync(S, 0)
        else:
            C.end_of_combat(S, 0)
        assert int(s["mon_clearing"][air]) == MON_TRAY and controller(S, air) == -1, how
        assert int(s["spell_on"][sp]) == -1, how


def test_dd_treasure_elemental_spherule_1_its_attack_casts_elemental_without_magic_cubes():
    """L1334: one-time; used in Hero Tactics, no cube may go on a Weapon or
    Spell Card that round (no might box, no spell); when its attack resolves
    (speed 1, after the spider's 2) Elemental is cast -- the draw 2, the
    Fire Elemental, is his -- and no Magic Cube is placed or wounded."""
    S, sp, spider = summoner()
    s = S[0]
    orb = give(S, 0, "elemental_spherule")
    in_combat(S)
    act(S, R.A_FOE + spider)
    ask(S, R.PH_TACTICS, 0)
    assert R.A_SPELL + sp not in legal(S)        # no target: the Elemental spell itself needs none
    act(S, R.A_CARD + orb)
    assert int(s["card_where"][orb]) != CW_HERO
    assert R.A_BOX + R.BOX_MIGHT not in legal(S) and not any(R.A_SPELL <= a < R.A_SPELL + R.NUM_SPELLS
                                                            for a in legal(S))
    act(S, R.A_BOX + R.BOX_ATTACK)
    magic_before = s["cubes"][0, :, R.CUBE_MAGIC:].copy()
    load(S, NO_SYMBOL, 2)
    act(S, R.A_DO + R.DO_DONE)
    wound_through(S)
    fire = ELEMENTALS[2]
    assert int(s["mon_clearing"][fire]) == TRI_PEAKS_1 and controller(S, fire) == 0
    assert (s["cubes"][0, :, R.CUBE_MAGIC:] == magic_before).all()


def test_controlled_monsters_are_in_the_observation():
    """The foes block shows every seat who controls a foe (relative seat), an
    Elemental just arrived, and the fights between chips this round."""
    S, sp, wraith, spider = ruler(more=[("human", "knight", TRI_PEAKS_1)])
    s = S[0]
    in_combat(S)
    R.take_control(S, 0, wraith, 0, R.CTRL_UNDEAD | R.CTRL_WAITING)
    s["foe_vs"][spider] = wraith + 1
    for seat in (0, 1):
        foes = block(GAME.observation_of(S, seat), "foes")
        rows = {f: i for i, f in enumerate(sorted([spider, wraith]))}
        w, sr = foes[rows[wraith]], foes[rows[spider]]
        assert w[O.F_CONTROLLED_BY + (0 - seat) % 2] == 1.0 and w[O.F_CONTROLLED_BY:O.F_CONTROLLED_BY + 6].sum() == 1
        assert w[O.F_CTRL_NEW] == 1.0 and w[O.F_VS_IT] == 1.0 and w[O.F_VS_CHIP] == 0.0
        assert sr[O.F_VS_CHIP] == 1.0 and sr[O.F_CONTROLLED_BY:O.F_CONTROLLED_BY + 6].sum() == 0


def test_the_heuristic_plays_the_controlled_decisions():
    """The heuristic bot answers each new decision legally and sensibly: its
    Wraith strikes the spider, back side up (damage 3 + 1 sword beats 2 + 1),
    and a ruled Monster's pending attack on heroes is canceled."""
    bot = DragonsDownHeuristic(GAME)

    def choice(S):
        a = bot.act_state(GAME, S, int(S[0]["to_play"]), np.random.default_rng(0))
        assert a in legal(S)
        return a
    S, sp, wraith, spider = ruler()
    in_combat(S)
    R.put_in_play(S, 0, sp, wraith)
    R.take_control(S, 0, wraith, 0, R.CTRL_UNDEAD)
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_CTRL_TARGET, 0)
    assert choice(S) == R.A_FOE + spider
    act(S, R.A_FOE + spider)
    assert choice(S) == R.A_SIDE + 1
    S, sp, wraith, spider = ruler()
    cast_rule_undead(S, sp, wraith, spider)
    ask(S, R.PH_CTRL_KEEP, 0)
    assert choice(S) == R.A_ANSWER + R.ANSWER_REFUSE


# ================================================================ what strikes a controlled Monster as a hero (L692, L1262, L1266)
def test_dd_monster_demon_1_the_demons_fiery_chasm_strikes_the_controlled_monsters_too():
    """L1262, L1508, L692: the Demon's Fiery Chasm attacks every unhidden,
    non-flying Hero and Monster in the clearing: the Knight's Earth
    Elemental (maneuver 1, under the chasm's speed 4) is hit and killed, and
    goes back to the pool, no one's kill; his Air Elemental flies, and is
    spared."""
    from tests.dragons_down.spells_test import _caster_foe
    for draw, kind in ((1, "earth"), (0, "air")):
        S, demon = _caster_foe("demon", 1, more=())
        s = S[0]
        load(S, draw)
        R.summon_elemental(S, 0, 0, -1)
        f = ELEMENTALS[draw]
        assert controller(S, f) == 0
        R.monster_cast(S, 0, demon)
        if kind == "earth":
            assert int(s["mon_clearing"][f]) == MON_TRAY and int(s["fame"][0]) == 0
        else:
            assert int(s["mon_clearing"][f]) == TRI_PEAKS_1, "a flying Elemental is spared"


def test_dd_monster_dragons_1_dragon_fire_adds_controlled_monsters_to_its_targets():
    """L1266, L728, L692: the Adult Dragon challenges the Knight (the draw 0
    of him and his Earth Elemental); its fire strikes up to four heroes, the
    Monsters heroes control among them: the Elemental is added (the only one
    left, no draw) and struck -- speed 3 over its maneuver 1, 2 + 1 sword,
    one less on its armour, the worse Ranged Attack Die 0: a wound -- then
    the Knight."""
    from tests.dragons_down.combat_test import R_ZERO, combat
    S = combat([("human", "knight", TRI_PEAKS_1)], monsters=(("adult_dragon", TRI_PEAKS_1),))
    s = S[0]
    earth = ELEMENTALS[1]
    s["mon_clearing"][earth], s["foe_ctrl"][earth], s["ctrl_flags"][earth] = TRI_PEAKS_1, 1, R.CTRL_ELEMENTAL
    dragon = chip(S, "adult_dragon")
    load(S, 0)
    R.advance(S, 0)
    assert int(s["foe_target"][dragon]) == 0
    stay(S)
    act(S, R.A_DO + R.DO_PASS)                   # the Knight targets no one
    ask(S, R.PH_CTRL_TARGET, 0)
    act(S, R.A_DO + R.DO_PASS)
    act(S, R.A_SIDE + 0)
    load(S, NO_SYMBOL, R_ZERO, R_ZERO)           # the dragon keeps its fire side; its Ranged Dice on the chip
    act(S, R.A_DO + R.DO_DONE)                   # the Knight places nothing
    assert int(s["foe_extra_vs"][dragon, 0]) == earth + 1
    assert int(s["foe_wounds"][earth]) == 1
    ask(S, R.PH_ARMOR, 0)
    assert int(s["atk_foe"]) == dragon
    foes = block(GAME.observation_of(S, 0), "foes")
    rows = {f: i for i, f in enumerate(sorted([dragon, earth]))}
    assert foes[rows[dragon]][O.F_VS_CHIP] == 1.0 and foes[rows[earth]][O.F_VS_IT] == 1.0, "public: seen by all"
