"""The optional Player vs. Player (L1172-L1192), with the Outlaw Tokens a
hero's death gives or takes (L1117, L1122).

Combat positions are built as in ``combat_test`` (Tri-Peaks clearing 1):
the Human Knight (seat 0: long sword, chainmail on the chest, a shield) and
the Human Barbarian (seat 1: battle axe, helmet), no Monster unless named.
Hero Block positions are built as in ``actions_test`` (Deepdelve).
"""
import dragongym
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    HS_ACTIVE, HST_BLOCKED, HST_HIDDEN, NUM_CARDS, OPT_PVP, OPTIONAL_RULES,
)
from dragongym.envs.dragons_down.rules import combat as C
from tests.dragons_down.actions_test import PLAINS_1, PLAINS_3, NOT_HUMAN, deepdelve, used
from tests.dragons_down.actions_test import load as load_action
from tests.dragons_down.combat_test import (
    R_ZERO, TRI_PEAKS_1, act, ask, card_of, chip, combat, give, load, over, place, start,
)
from tests.dragons_down.setup_test import legal

KNIGHT, BARB = 0, 1


def duel(pvp=True, monsters=()):
    """The Knight and the Barbarian in one clearing, Player vs. Player played."""
    S = combat([("human", "knight", TRI_PEAKS_1), ("human", "barbarian", TRI_PEAKS_1)], monsters=monsters)
    S[0]["optional_rules"] = OPT_PVP if pvp else 0
    return S


def no_challenges(S):
    for seat in (KNIGHT, BARB):
        ask(S, R.PH_CHALLENGE, seat)
        act(S, R.A_DO + R.DO_PASS)


def armour_offered(S):
    return sorted(a - R.A_CARD for a in legal(S) if R.A_CARD <= a < R.A_CARD + NUM_CARDS)


def barbarian_strikes_knight(S, aim=None, might=2, attack=2):
    """No challenge; the Knight targets no one, the Barbarian targets him and
    places ``might`` Might Cubes on his axe and ``attack`` Speed Cubes in his
    attack boxes (and one in the aim box ``aim``); the Knight places nothing."""
    start(S)
    no_challenges(S)
    ask(S, R.PH_TARGET, KNIGHT)
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_TARGET, BARB)
    act(S, R.A_SEAT + KNIGHT)
    ask(S, R.PH_TACTICS, KNIGHT)
    place(S, KNIGHT)
    ask(S, R.PH_TACTICS, BARB)
    if aim is not None:
        act(S, R.A_AIM + aim)
    place(S, BARB, *[R.BOX_MIGHT] * might, *[R.BOX_ATTACK] * attack)


# ================================================================ DD-PVP-1 (L1172-L1174)
def test_dd_pvp_1_player_vs_player_is_an_optional_rule_off_by_default():
    """L1172: Player vs. Player is one of the optional rules, chosen by name."""
    assert OPTIONAL_RULES[-1] == "player_vs_player" and OPT_PVP == 1 << (len(OPTIONAL_RULES) - 1)
    config = dragongym.get_game("dragons_down").make_config()
    assert config.player_vs_player is False
    assert dragongym.get_game("dragons_down").make_config(player_vs_player=True).optional_rules == OPT_PVP


def test_dd_pvp_1_without_the_option_a_hero_never_targets_a_hero_with_his_weapon():
    """L712: without Player vs. Player heroes are targeted only to aid them;
    two armed heroes alone in a clearing have nothing to fight."""
    S = duel(pvp=False)
    start(S)
    assert int(S[0]["phase"]) not in (R.PH_CHALLENGE, R.PH_TARGET)
    assert not any(R.A_SEAT <= a < R.A_SEAT + 6 for a in legal(S))


def test_dd_pvp_1_with_the_option_a_hero_attacks_an_unhidden_hero():
    """L1174: with Player vs. Player a hero targets another unhidden hero with
    his weapon and strikes him as a Monster would be struck, rolling against
    his maneuver speed; the victim takes the hit on armour or as a wound."""
    S = duel()
    barbarian_strikes_knight(S)
    # attack speed 2 > the Knight's maneuver 0: a hit; he chooses his armour
    ask(S, R.PH_ARMOR, KNIGHT)
    chain, shield = card_of(S, KNIGHT, "chainmail"), card_of(S, KNIGHT, "shield")
    assert armour_offered(S) == sorted([chain, shield])
    hearts = int(S[0]["hearts"][KNIGHT, 0])
    act(S, R.A_DO + R.DO_PASS)                   # on no armour: damage under his 5 Hearts, one wound
    ask(S, R.PH_WOUND, KNIGHT)                   # he chooses the cube, as against a Monster (L787)
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert int(S[0]["hearts"][KNIGHT, 0]) == hearts - 1 and int(S[0]["hero_state"][KNIGHT]) == HS_ACTIVE
    assert int(S[0]["atk_by"]) == 0              # the attack is over


def test_dd_pvp_1_a_hidden_hero_is_never_targeted():
    """L1172: only unhidden Heroes may be attacked."""
    S = duel()
    S[0]["hero_status"][KNIGHT] |= HST_HIDDEN
    start(S)
    while int(S[0]["phase"]) in (R.PH_UNHIDE, R.PH_CHALLENGE):
        act(S, R.A_DO + (R.DO_STAY if int(S[0]["phase"]) == R.PH_UNHIDE else R.DO_PASS))
    assert R.A_SEAT + KNIGHT not in legal(S)


# ================================================================ DD-PVP-CHALLENGE (L1182-L1184)
def test_dd_pvp_challenge_1_a_hero_challenges_one_hero_with_maneuver_cubes_and_his_token():
    """L1182: in the Challenge step an unhidden hero challenges one other
    unhidden hero: his Speed Cubes go in his maneuver boxes and his
    Targeting Token on that hero (he is not asked to target again)."""
    S = duel()
    start(S)
    ask(S, R.PH_CHALLENGE, KNIGHT)
    assert R.A_SEAT + BARB in legal(S) and R.A_SEAT + KNIGHT not in legal(S)
    act(S, R.A_SEAT + BARB)
    ask(S, R.PH_CHALLENGE_CUBE, KNIGHT)
    act(S, R.A_BOX + R.BOX_MANEUVER)
    act(S, R.A_BOX + R.BOX_MANEUVER)
    assert int(S[0]["phase"]) != R.PH_CHALLENGE_CUBE or int(S[0]["to_play"]) != KNIGHT   # his 2 boxes are full
    s = S[0]
    assert int(s["hero_challenge"][KNIGHT]) == 1 + BARB and int(s["hero_target"][KNIGHT]) == R.AIM_HERO + BARB
    assert int(s["placed"][KNIGHT, R.BOX_MANEUVER]) == 2


def test_dd_pvp_challenge_2_an_evader_must_exceed_every_challenging_hero():
    """L1184: the Barbarian (3 Speed Cubes, 3 maneuver boxes) may evade the
    Knight who challenged him with 2 maneuver cubes -- not if the Knight had
    placed as many as he can."""
    S = duel()
    start(S)
    act(S, R.A_SEAT + BARB)
    act(S, R.A_BOX + R.BOX_MANEUVER)
    act(S, R.A_BOX + R.BOX_MANEUVER)
    ask(S, R.PH_CHALLENGE, BARB)
    act(S, R.A_DO + R.DO_PASS)
    assert C.challenger_maneuver(S, 0, BARB) == 2 and C.evade_cubes(S, 0, BARB) == 3
    ask(S, R.PH_EVADE, BARB)                     # asked although no Monster is here
    # the Rogue's tie aside, 3 cubes against 3 would not do
    S[0]["placed"][KNIGHT, R.BOX_MANEUVER] = 3
    assert not C.can_evade(S, 0, BARB)


def test_dd_pvp_challenge_3_a_challenger_may_not_evade_that_round():
    """L1184: a hero who challenges may not evade this Combat Round, though
    he could outrun the Monster challenging him."""
    S = duel(monsters=[("goblin", TRI_PEAKS_1)])
    start(S)
    act(S, R.A_SEAT + BARB)
    act(S, R.A_DO + R.DO_DONE)
    ask(S, R.PH_CHALLENGE, BARB)
    act(S, R.A_DO + R.DO_PASS)
    assert not C.can_evade(S, 0, KNIGHT)
    S[0]["hero_challenge"][KNIGHT] = 0
    assert C.can_evade(S, 0, KNIGHT)             # the goblin alone would let him


def test_dd_pvp_challenge_4_challenge_cubes_stay_for_the_whole_round():
    """L1184: cubes placed in the Challenge step stay in the maneuver box
    through Hero Tactics (counted in the cube limit) and the Resolve step,
    until Cleanup."""
    S = duel()
    start(S)
    act(S, R.A_SEAT + BARB)
    act(S, R.A_BOX + R.BOX_MANEUVER)
    act(S, R.A_DO + R.DO_DONE)
    act(S, R.A_DO + R.DO_PASS)                   # the Barbarian challenges no one
    if int(S[0]["phase"]) == R.PH_EVADE:
        act(S, R.A_DO + R.DO_STAY)
    ask(S, R.PH_TARGET, BARB)                    # the Knight's token is placed: he is not asked
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_TACTICS, KNIGHT)
    assert int(S[0]["placed"][KNIGHT, R.BOX_MANEUVER]) == 1 and C.cubes_placed(S, 0, KNIGHT) == 1
    place(S, KNIGHT, R.BOX_MIGHT, R.BOX_ATTACK)
    assert int(S[0]["placed"][KNIGHT, R.BOX_MANEUVER]) == 1


# ================================================================ DD-PVP-AIM (L1186-L1188)
def test_dd_pvp_aim_1_one_speed_cube_in_one_aim_box_counted_in_the_limit():
    """L1186: aiming at a hero puts one Speed Cube in the head or torso aim
    box, not both, and it counts against the cube limit."""
    S = duel()
    start(S)
    no_challenges(S)
    act(S, R.A_DO + R.DO_PASS)
    act(S, R.A_SEAT + KNIGHT)
    ask(S, R.PH_TACTICS, KNIGHT)
    place(S, KNIGHT)
    ask(S, R.PH_TACTICS, BARB)
    assert R.A_AIM + R.AIMB_HEAD in legal(S) and R.A_AIM + R.AIMB_TORSO in legal(S)
    act(S, R.A_AIM + R.AIMB_TORSO)
    assert int(S[0]["hero_aim"][BARB]) == 1 + R.AIMB_TORSO and C.cubes_placed(S, 0, BARB) == 1
    assert R.A_AIM + R.AIMB_HEAD not in legal(S)
    assert C.unplaced(S, 0, BARB, R.CUBE_SPEED) == 2


def test_dd_pvp_aim_1_monsters_are_not_aimed_at():
    """L1188: aiming at a Monster offers no aim box."""
    S = duel(monsters=[("goblin", TRI_PEAKS_1)])
    start(S)
    no_challenges(S)
    while int(S[0]["phase"]) == R.PH_EVADE:
        act(S, R.A_DO + R.DO_STAY)
    act(S, R.A_DO + R.DO_PASS)
    act(S, R.A_FOE + chip(S, "goblin"))
    while int(S[0]["to_play"]) != BARB or int(S[0]["phase"]) != R.PH_TACTICS:
        act(S, R.A_DO + R.DO_DONE)
    assert R.A_AIM + R.AIMB_HEAD not in legal(S) and R.A_AIM + R.AIMB_TORSO not in legal(S)


def test_dd_pvp_aim_2_an_aimed_attack_ignores_armour_elsewhere_but_a_shield():
    """L1188: aimed at the head, the Barbarian's hit cannot be taken on the
    Knight's chainmail (chest); his shield may always block it."""
    S = duel()
    barbarian_strikes_knight(S, aim=R.AIMB_HEAD)
    ask(S, R.PH_ARMOR, KNIGHT)
    assert armour_offered(S) == [card_of(S, KNIGHT, "shield")]


def test_dd_pvp_aim_2_aimed_at_the_torso_the_helmet_is_no_help():
    """L1188: the Knight aims at the Barbarian's torso: his helmet (head) is
    ignored, and with no other armour the hit is taken unarmoured."""
    S = duel()
    start(S)
    no_challenges(S)
    act(S, R.A_SEAT + BARB)
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_TACTICS, KNIGHT)
    act(S, R.A_AIM + R.AIMB_TORSO)
    place(S, KNIGHT, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    ask(S, R.PH_TACTICS, BARB)
    place(S, BARB)
    assert int(S[0]["phase"]) != R.PH_ARMOR          # no armour choice: the helmet is not offered
    assert int(S[0]["round_wounds"]) == 1


# ================================================================ DD-PVP-DEATH-1, DD-OUTLAW-4, -5 (L1190-L1192, L1117, L1122)
def killing_blow(S):
    """The Knight, 1 Heart left, no armour worn, is struck by the Barbarian."""
    s = S[0]
    s["hearts"][KNIGHT, 1] = int(s["hearts"][KNIGHT, 0]) - 1
    s["hearts"][KNIGHT, 0] = 1
    for name in ("chainmail", "shield"):
        s["card_slot"][card_of(S, KNIGHT, name)] = R.T_BACKPACK
    barbarian_strikes_knight(S)


def test_dd_pvp_death_1_the_killer_gets_the_fame_the_victim_discards():
    """L1190: the Fame the Knight would discard at death (half of his 21,
    rounded down: 10) goes to the Barbarian who struck the death blow."""
    S = duel()
    S[0]["fame"][KNIGHT], S[0]["fame"][BARB] = 21, 4
    killing_blow(S)
    assert int(S[0]["hero_state"][KNIGHT]) != HS_ACTIVE
    assert int(S[0]["fame"][BARB]) == 14


def test_dd_outlaw_4_killing_a_hero_who_is_no_outlaw_gives_an_outlaw_token():
    """L1117: killing a Hero who holds no Outlaw Token gives the killer one."""
    S = duel()
    killing_blow(S)
    assert int(S[0]["outlaw"][BARB]) == 1


def test_dd_outlaw_5_killing_an_outlaw_hero_discards_one_of_the_killers():
    """L1122: killing an Outlaw discards one Outlaw Token of the killer's."""
    S = duel()
    S[0]["outlaw"][KNIGHT], S[0]["outlaw"][BARB] = 1, 2
    killing_blow(S)
    assert int(S[0]["outlaw"][BARB]) == 1


# ================================================================ DD-PVP-BLOCK (L1176-L1180)
def two_on_deepdelve():
    """Two heroes of Deepdelve, Player vs. Player played: the first to act has
    entered Plains 1, the other stands in Plains 3 (unhidden, not yet acted)."""
    S = deepdelve(num_heroes=2, lineages=NOT_HUMAN)
    p = int(S[0]["to_play"])
    q = 1 - p
    act(S, R.A_CLEARING + PLAINS_1)
    S[0]["hero_state"][q], S[0]["hero_clearing"][q] = HS_ACTIVE, PLAINS_3
    S[0]["optional_rules"] = OPT_PVP
    return S, p, q


def test_dd_pvp_block_1_a_hero_may_block_another_who_acted_in_his_clearing():
    """L1176: the active hero moves into the other's clearing: at the end of
    that action the other may block him."""
    S, p, q = two_on_deepdelve()
    act(S, R.A_CLEARING + PLAINS_3)
    assert int(S[0]["phase"]) == R.PH_HERO_BLOCK and int(S[0]["to_play"]) == q
    assert R.A_SEAT + p in legal(S)


def test_dd_pvp_block_1_no_block_without_the_option_or_elsewhere():
    """L1176: no Hero Block without Player vs. Player, nor after an action
    in another clearing."""
    S, p, q = two_on_deepdelve()
    act(S, R.A_DO + R.DO_SNEAK)                  # in Plains 1, not the other's clearing
    assert int(S[0]["phase"]) == R.PH_ACTION and int(S[0]["to_play"]) == p
    S[0]["optional_rules"] = 0
    act(S, R.A_CLEARING + PLAINS_3)
    assert int(S[0]["phase"]) == R.PH_ACTION and int(S[0]["to_play"]) == p


def test_dd_pvp_block_2_the_blocker_is_blocked_and_the_blocked_loses_his_actions():
    """L1180: the blocker becomes unhidden and blocked; the block has the
    Monster block's effect: the active hero loses his remaining actions."""
    S, p, q = two_on_deepdelve()
    S[0]["hero_status"][q] |= HST_HIDDEN
    act(S, R.A_CLEARING + PLAINS_3)
    act(S, R.A_SEAT + p)
    st = int(S[0]["hero_status"][q])
    assert st & HST_BLOCKED and not st & HST_HIDDEN
    assert int(S[0]["phase"]) == R.PH_BLOCK and int(S[0]["to_play"]) == p
    act(S, R.A_DO + R.DO_STAY)
    assert int(S[0]["hero_status"][p]) & HST_BLOCKED and used(S, p) == 4


def test_dd_pvp_block_3_the_active_hero_blocks_a_hero_who_has_not_acted():
    """L1180: the active hero may block a hero of his clearing who has not
    acted yet: that hero loses his turn's actions."""
    S, p, q = two_on_deepdelve()
    S[0]["hero_clearing"][q] = PLAINS_1
    assert R.A_SEAT + q in legal(S)
    act(S, R.A_SEAT + q)
    assert int(S[0]["phase"]) == R.PH_BLOCK and int(S[0]["to_play"]) == q
    act(S, R.A_DO + R.DO_STAY)
    assert int(S[0]["hero_status"][q]) & HST_BLOCKED and used(S, q) == 4
    assert int(S[0]["hero_status"][p]) & HST_BLOCKED


def test_dd_pvp_block_4_a_targeted_hero_may_hide_to_avoid_the_block():
    """L1180: the hero so targeted takes the Hide reaction: hidden, he is not
    blocked."""
    S, p, q = two_on_deepdelve()
    S[0]["hero_clearing"][q] = PLAINS_1
    act(S, R.A_SEAT + q)
    load_action(S, 2, 3)                         # two blank Monster Dice: hidden
    act(S, R.A_DO + R.DO_HIDE)
    st = int(S[0]["hero_status"][q])
    assert st & HST_HIDDEN and not st & HST_BLOCKED and used(S, q) == 0


def test_dd_pvp_combat_without_a_monster_ends_after_two_quiet_rounds():
    """Interpretations (combat among heroes alone): two heroes who never
    attack each other end the combat after two rounds without a wound (L781)."""
    S = duel()
    start(S)
    for _ in range(2):
        no_challenges(S)
        for seat in (KNIGHT, BARB):
            ask(S, R.PH_TARGET, seat)
            act(S, R.A_DO + R.DO_PASS)
        while not over(S) and int(S[0]["phase"]) not in (R.PH_CHALLENGE,):
            act(S, legal(S)[-1] if R.A_DO + R.DO_DONE not in legal(S) else R.A_DO + R.DO_DONE)
    assert over(S)


# ================================================================ harmful spells at heroes (L712, L1032, L1174)
def test_dd_pvp_1_a_harmful_spell_is_aimed_at_a_hero_only_with_the_option():
    """L712: without Player vs. Player Affliction is never aimed at a hero;
    with it (L1174) the Sorcerer afflicts the Knight, who refuses the hit
    (L1032): it rolls to hit (attack speed 1 > maneuver 0) and he suffers
    one wound, the Sorcerer's doing."""
    from tests.dragons_down.spells_test import cast, learn, magic
    S = combat([("human", "sorcerer", TRI_PEAKS_1), ("human", "knight", TRI_PEAKS_1)])
    S[0]["optional_rules"] = OPT_PVP
    sp = learn(S, 0, "affliction")
    magic(S, 0, black=1)
    k = int(R.SPELL_KIND[sp])
    start(S)
    no_challenges_of(S, 0, 1)
    for pvp in (False, True):
        S[0]["optional_rules"] = OPT_PVP if pvp else 0
        assert bool(R.aim_ok(S, 0, 0, k, R.AIM_HERO + 1)) == pvp
        assert not R.aim_ok(S, 0, 0, k, R.AIM_HERO + 0)          # never at himself
    ask(S, R.PH_TARGET, 0)
    act(S, R.A_SEAT + 1)
    ask(S, R.PH_TARGET, 1)
    act(S, R.A_DO + R.DO_PASS)
    cast(S, 0, sp, R.BOX_ATTACK)
    ask(S, R.PH_TACTICS, 1)
    place(S, 1)
    ask(S, R.PH_ACCEPT, 1)
    act(S, R.A_ANSWER + R.ANSWER_REFUSE)
    wounded = int(S[0]["hearts"][1, 1]) + int(S[0]["cubes"][1, 1].sum())
    if int(S[0]["phase"]) == R.PH_WOUND:
        act(S, R.A_HEAL + R.HEAL_HEART)
        wounded += 1
    assert wounded == 1 and int(S[0]["atk_by"]) == 0


def no_challenges_of(S, *seats):
    for seat in seats:
        ask(S, R.PH_CHALLENGE, seat)
        act(S, R.A_DO + R.DO_PASS)


# ================================================================ what a seat sees (observe.py)
def test_dd_pvp_aim_1_the_aim_box_is_secret_in_tactics_and_challenges_are_public():
    """L714, L724: the aim cube is placed in secret like the other Hero
    Tactics, seen by all once every hero has placed; a challenge is made in
    the open (L1182): every seat sees who challenges whom."""
    import numpy as np
    from dragongym.envs.dragons_down import observe as O
    from dragongym.envs.dragons_down.game import GAME
    from tests.dragons_down.observe_test import block, first_turn
    states = first_turn(player_vs_player=True)
    rec = states[0]
    rec["combat_step"] = O.CS_TACTICS
    hidden = GAME.observation_of(states, 0)
    rec["hero_aim"][1] = 1 + R.AIMB_TORSO
    assert np.array_equal(GAME.observation_of(states, 0), hidden)
    assert block(GAME.observation_of(states, 1), "heroes")[0][O.H_AIM_BOX + R.AIMB_TORSO] == 1
    rec["combat_step"] = O.CS_TACTICS + 1
    assert block(GAME.observation_of(states, 0), "heroes")[1][O.H_AIM_BOX + R.AIMB_TORSO] == 1
    rec["hero_challenge"][1] = 1 + 0                 # seat 1 challenges seat 0
    for seat in (0, 1):                              # rows and columns by seat relative to the observer
        heroes = block(GAME.observation_of(states, seat), "heroes")
        assert heroes[(0 - seat) % 2][O.H_CHALLENGED_BY + (1 - seat) % 2] == 1
        assert heroes[(1 - seat) % 2][O.H_CHALLENGED_BY:O.H_CHALLENGED_BY + 2].sum() == 0


def test_dd_pvp_challenge_2_monsters_and_heroes_challenging_count_together():
    """L1184: the evader must exceed the maneuver speed of every Monster and
    every Hero challenging him: the faster of the Giant and the challenging
    Knight (1 cube) decides."""
    S = duel(monsters=[("giant", TRI_PEAKS_1)])
    start(S)
    act(S, R.A_SEAT + BARB)
    act(S, R.A_BOX + R.BOX_MANEUVER)
    act(S, R.A_DO + R.DO_DONE)
    giant = chip(S, "giant")
    S[0]["foe_target"][giant] = BARB
    monster = int(C.foe_value(S, 0, giant, R.SD_MANEUVER))
    assert C.challenger_maneuver(S, 0, BARB) == max(monster, 1)
    S[0]["foe_target"][giant] = KNIGHT
    assert C.challenger_maneuver(S, 0, BARB) == 1


# ================================================================ the other harmful spells at heroes (L1174, L1486-L1597)
SORCERER = ("human", "sorcerer", TRI_PEAKS_1)     # dagger; 1 Might, 2 Speed, 4 Hearts
MAGE, KNIGHT_2, BARB_2 = 0, 1, 2                   # the Sorcerer first, then the Knight and the Barbarian


def mage_duel(spell, cubes, pvp=True, more=(("human", "knight", TRI_PEAKS_1),), monsters=()):
    """The Sorcerer (seat 0), who knows ``spell`` and holds the Magic Cubes
    ``cubes``, and ``more`` heroes in one clearing. (S, the spell's card)"""
    from tests.dragons_down.spells_test import learn, magic
    S = combat([SORCERER, *more], monsters=monsters)
    S[0]["optional_rules"] = OPT_PVP if pvp else 0
    sp = learn(S, MAGE, spell)
    magic(S, MAGE, **cubes)
    return S, sp


def test_dd_pvp_1_every_spell_whose_card_allows_a_hero_is_aimed_at_one():
    """L1174, L1486-L1597 (Interpretations, "Spells aimed at heroes"): with
    Player vs. Player the harmful targeted spells whose card lets a hero be
    their target -- Fireball, Curse, Confuse, Disorient, besides Affliction,
    Hesitation and Dark Matter -- are aimed at another unhidden hero; never
    at the caster, never without the option. Calm "has no effect on Heroes"
    and Discord must hit two Monsters: never at a hero."""
    from dragongym.envs.dragons_down.constants import SPELL_IDS
    S, sp = mage_duel("fireball", {"purple": 4})
    start(S)
    for name, at_heroes in (("fireball", True), ("curse", True), ("confuse", True), ("disorient", True),
                            ("affliction", True), ("hesitation", True), ("dark_matter", True),
                            ("calm", False), ("discord", False), ("rule_undead", False)):
        k = SPELL_IDS.index(name)
        for pvp in (False, True):
            S[0]["optional_rules"] = OPT_PVP if pvp else 0
            assert bool(R.aim_ok(S, 0, MAGE, k, R.AIM_HERO + KNIGHT_2)) == (pvp and at_heroes), (name, pvp)
        assert not R.aim_ok(S, 0, MAGE, k, R.AIM_HERO + MAGE) or name == "dark_matter", name
        S[0]["hero_status"][KNIGHT_2] |= HST_HIDDEN
        assert not R.aim_ok(S, 0, MAGE, k, R.AIM_HERO + KNIGHT_2), f"{name}: never at a hidden hero"
        S[0]["hero_status"][KNIGHT_2] = int(S[0]["hero_status"][KNIGHT_2]) & ~HST_HIDDEN


def fireball_at_both(S, sp):
    """The Sorcerer targets the Knight, then the Barbarian as the Fireball's
    second target (PH_MORE_TARGETS), and casts it with one Speed Cube (attack
    speed 2: one colour, Specialized, L1226); the others target no one and
    place nothing. The Knight and the Barbarian are then asked, in turn,
    whether they accept its hit (L1032)."""
    start(S)
    no_challenges_of(S, MAGE, KNIGHT_2, BARB_2)
    ask(S, R.PH_TARGET, MAGE)
    act(S, R.A_SEAT + KNIGHT_2)
    ask(S, R.PH_MORE_TARGETS, MAGE)
    assert R.A_SEAT + BARB_2 in legal(S) and R.A_SEAT + KNIGHT_2 not in legal(S) and R.A_SEAT + MAGE not in legal(S)
    from dragongym.envs.dragons_down.game import GAME
    assert GAME.action_to_string(S, R.A_SEAT + BARB_2) == "also target player_2"
    act(S, R.A_SEAT + BARB_2)
    assert int(S[0]["more_targets"][MAGE, 0]) == R.AIM_HERO + BARB_2
    for seat in (KNIGHT_2, BARB_2):
        ask(S, R.PH_TARGET, seat)
        act(S, R.A_DO + R.DO_PASS)
    from tests.dragons_down.spells_test import cast
    cast(S, MAGE, sp, R.BOX_ATTACK)
    for seat in (KNIGHT_2, BARB_2):
        place(S, seat)


def test_dd_spell_fireball_1_with_player_vs_player_it_strikes_several_heroes_each_as_a_hit():
    """L1562, L1174: the Fireball aimed at the Knight and the Barbarian (two
    targets: 2 + 1 sword each) asks each whether he accepts its hit; both
    refuse, and its attack speed 2 above their maneuver 0 hits both. Each in
    Turn Order takes it as a hero's ranged hit: his armour choice, the worse
    Ranged Attack Die (0): 3 damage, unarmoured under 5 Hearts, one wound."""
    S, sp = mage_duel("fireball", {"purple": 4}, more=(("human", "knight", TRI_PEAKS_1),
                                                        ("human", "barbarian", TRI_PEAKS_1)))
    fireball_at_both(S, sp)
    for seat in (KNIGHT_2, BARB_2):
        ask(S, R.PH_ACCEPT, seat)
        act(S, R.A_ANSWER + R.ANSWER_REFUSE)
    load(S, R_ZERO, R_ZERO, R_ZERO, R_ZERO)          # the Ranged Attack Dice: 0 and 0 for each
    for seat in (KNIGHT_2, BARB_2):
        ask(S, R.PH_ARMOR, seat)
        act(S, R.A_DO + R.DO_PASS)
        assert int(S[0]["atk_dmg"]) == 2 and int(S[0]["atk_swords"]) == 1 and int(S[0]["atk_by"]) == 1 + MAGE
        ask(S, R.PH_WOUND, seat)
        act(S, R.A_HEAL + R.HEAL_HEART)
    assert [int(S[0]["hearts"][q, 1]) for q in (KNIGHT_2, BARB_2)] == [1, 1]
    assert int(S[0]["atk_by"]) == 0 and int(S[0]["cast_stage"][MAGE]) == R.CAST_DONE


def test_dd_pvp_death_1_a_fireball_kill_is_the_casters():
    """L1562, L1190, L1117: the Fireball at the Knight alone (2 + 2 swords,
    the worse Ranged Attack Die 0: 4 damage) on his last Heart, no armour
    worn: he dies, and the Sorcerer gets the Fame he discards and an Outlaw
    Token."""
    S, sp = mage_duel("fireball", {"purple": 4})
    s = S[0]
    s["fame"][KNIGHT_2] = 21
    s["hearts"][KNIGHT_2, 1], s["hearts"][KNIGHT_2, 0] = 4, 1
    for name in ("chainmail", "shield"):
        s["card_slot"][card_of(S, KNIGHT_2, name)] = R.T_BACKPACK
    start(S)
    no_challenges_of(S, MAGE, KNIGHT_2)
    act(S, R.A_SEAT + KNIGHT_2)
    if int(s["phase"]) == R.PH_MORE_TARGETS:
        act(S, R.A_DO + R.DO_DONE)
    ask(S, R.PH_TARGET, KNIGHT_2)
    act(S, R.A_DO + R.DO_PASS)
    from tests.dragons_down.spells_test import cast
    cast(S, MAGE, sp, R.BOX_ATTACK)
    place(S, KNIGHT_2)
    ask(S, R.PH_ACCEPT, KNIGHT_2)
    load(S, R_ZERO, R_ZERO)                          # the Ranged Attack Dice: 0 and 0
    act(S, R.A_ANSWER + R.ANSWER_REFUSE)
    assert int(s["hero_state"][KNIGHT_2]) != HS_ACTIVE
    assert int(s["fame"][MAGE]) == 10 and int(s["outlaw"][MAGE]) == 1


def test_dd_spell_curse_1_with_player_vs_player_a_hero_rolls_on_the_curse_table():
    """L1500, L1174: the Curse hits the Knight: a roll on the Curse Table --
    Clumsiness, a lasting curse, marked on him; Teleport moves him out of
    the combat as a spell does (to the clearing the Summoning dice and a d6
    name: Hag's Mire 3)."""
    from dragongym.envs.dragons_down import data as D
    from dragongym.envs.dragons_down.constants import CURSE_IDS, TILE_IDS
    S, sp = mage_duel("curse", {"black": 2})
    start(S)
    load(S, D.REALM.curses["clumsiness"].roll - 1)
    R.spell_hits(S, 0, MAGE, sp, R.AIM_HERO + KNIGHT_2, 1)
    assert int(S[0]["curses"][KNIGHT_2]) == 1 << CURSE_IDS.index("clumsiness")
    S = combat([SORCERER, ("human", "knight", TRI_PEAKS_1)], tiles=("tri_peaks", "hags_mire"))
    S[0]["optional_rules"] = OPT_PVP
    start(S)
    load(S, D.REALM.curses["teleport"].roll - 1, 2, 3, 2)    # gray: Wicked Woods; black: eye; d6: 3
    R.spell_hits(S, 0, MAGE, sp, R.AIM_HERO + KNIGHT_2, 1)
    assert int(S[0]["hero_clearing"][KNIGHT_2]) == TILE_IDS.index("hags_mire") * 6 + 2
    assert not C.fighting(S, 0, KNIGHT_2) and int(S[0]["spell_moved"]) == 1 << KNIGHT_2


def test_dd_spell_confuse_1_a_confused_hero_casts_no_more_and_loses_his_pending_cast():
    """L1590, L1174: Confuse hits the Warlock, whose Affliction is not yet
    resolved this round: it is canceled (no wound for its box, L779), he may
    cast no spell while Confuse lasts, nor blow the Horn of the Dark Angel,
    whose attack casts one (L1358)."""
    from tests.dragons_down.spells_test import learn, magic
    S, sp = mage_duel("confuse", {"yellow": 2}, more=(("human", "warlock", TRI_PEAKS_1),))
    s = S[0]
    curse = learn(S, 1, "affliction")
    magic(S, 1, black=2)
    horn = give(S, 1, "horn_of_the_dark_angel")
    start(S)
    s["cast_card"][1], s["cast_stage"][1] = curse, R.CAST_PLACED      # his Affliction, at the Sorcerer
    s["cast_cubes"][1, 0], s["hero_target"][1] = 1, R.AIM_HERO + MAGE
    assert C.hero_can_strike(S, 0, 1)
    R.spell_hits(S, 0, MAGE, sp, R.AIM_HERO + 1, 1)
    assert int(s["cast_stage"][1]) == R.CAST_CANCELED and not C.hero_can_strike(S, 0, 1)
    assert int(s["spell_on"][sp]) == R.AIM_HERO + 1
    R.clear_cast(S, 0, 1)
    assert not R.may_cast(S, 0, 1, curse) and not R.usable(S, 0, 1, horn)
    s["spell_on"][sp] = -1
    assert R.may_cast(S, 0, 1, curse) and R.usable(S, 0, 1, horn)


def test_dd_spell_disorient_1_a_disoriented_hero_chooses_no_target_until_targeted():
    """L1594, L1174: the Sorcerer's Disorient (attack speed 2) hits the
    Barbarian before his axe (speed 0) strikes: the axe's attack is canceled.
    Next round he challenges and targets no one -- he is not asked -- until
    a hero targets him (the Sorcerer's dagger): then he chooses a target
    normally, and his next attack is 2 slower."""
    S, sp = mage_duel("disorient", {"yellow": 4}, more=(("human", "barbarian", TRI_PEAKS_1),))
    s = S[0]
    start(S)
    no_challenges_of(S, MAGE, 1)
    act(S, R.A_SEAT + 1)
    ask(S, R.PH_TARGET, 1)
    act(S, R.A_SEAT + MAGE)
    from tests.dragons_down.spells_test import cast
    cast(S, MAGE, sp, R.BOX_ATTACK)
    place(S, 1, R.BOX_MIGHT, R.BOX_MIGHT)
    ask(S, R.PH_ACCEPT, 1)
    act(S, R.A_ANSWER + R.ANSWER_REFUSE)
    assert int(s["spell_on"][sp]) == R.AIM_HERO + 1 and R.dormant(S, 0, R.AIM_HERO + 1)
    assert int(s["hearts"][MAGE, 1]) == 0 and int(s["cubes"][MAGE, 1, :R.CUBE_MAGIC].sum()) == 0, \
        "the axe never struck (his yellow cube is the spell's wound, L779)"
    while int(s["combat_round"]) == 1:
        act(S, legal(S)[-1] if R.A_DO + R.DO_DONE not in legal(S) else R.A_DO + R.DO_DONE)
    ask(S, R.PH_CHALLENGE, MAGE)                     # the Barbarian will not be asked
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_TARGET, MAGE)
    act(S, R.A_DO + R.DO_PASS)
    assert int(s["combat_step"]) != C.CS_TARGET, "disoriented, he has no Target step"
    S2, sp2 = mage_duel("disorient", {"yellow": 4}, more=(("human", "barbarian", TRI_PEAKS_1),))
    s2 = S2[0]
    start(S2)
    s2["spell_on"][sp2], s2["spell_mark"][sp2] = R.AIM_HERO + 1, R.DIS_DORMANT | R.DIS_SLOW
    no_challenges_of(S2, MAGE)                       # the Barbarian is not asked to challenge
    act(S2, R.A_SEAT + 1)                            # the Sorcerer targets him: he may attack again
    ask(S2, R.PH_TARGET, 1)
    act(S2, R.A_SEAT + MAGE)
    place(S2, MAGE)
    ask(S2, R.PH_TACTICS, 1)
    act(S2, R.A_BOX + R.BOX_ATTACK)
    act(S2, R.A_BOX + R.BOX_ATTACK)
    assert C.hero_speed(S2, 0, 1) == 0, "his next attack is at -2 speed"


def test_dd_pvp_death_1_another_heros_fiery_chasm_kill_is_his():
    """L1508, L1190, L1117: the Warlock's Fiery Chasm (speed 0) misses him
    and hits the Knight, who dies: with Player vs. Player the Warlock gets
    the Fame the Knight discards and an Outlaw Token; without it, neither
    (L1117: "only allowed if playing with the optional Player vs. Player")."""
    from tests.dragons_down.combat_test import BLANK, HIT
    from tests.dragons_down.spells_test import in_combat
    for pvp in (True, False):
        S = combat([("human", "warlock", TRI_PEAKS_1), ("human", "knight", TRI_PEAKS_1)])
        s = S[0]
        s["optional_rules"] = OPT_PVP if pvp else 0
        s["fame"][1] = 20
        in_combat(S)
        load(S, BLANK, BLANK, HIT, HIT)              # the caster missed, the Knight hit
        R.fiery_chasm(S, 0, R.AIM_HERO + 0, 0)
        assert int(s["hero_state"][0]) == HS_ACTIVE and int(s["hero_state"][1]) != HS_ACTIVE
        assert (int(s["fame"][0]), int(s["outlaw"][0])) == ((10, 1) if pvp else (0, 0)), pvp


def test_dd_pvp_challenge_1_the_challenge_cubes_stay_seen_in_hero_tactics():
    """L1182-L1184, L714: a challenger's Speed Cubes go in his maneuver boxes
    in the open, in the Challenge step: through Hero Tactics the other seats
    still see them (``challenge_cubes``) -- but not the cubes he places in
    secret there, nor his other boxes."""
    import numpy as np
    from dragongym.envs.dragons_down import observe as O
    from dragongym.envs.dragons_down.game import GAME
    from tests.dragons_down.observe_test import block
    S = duel()
    start(S)
    act(S, R.A_SEAT + BARB)
    act(S, R.A_BOX + R.BOX_MANEUVER)
    act(S, R.A_DO + R.DO_DONE)
    assert int(S[0]["challenge_cubes"][KNIGHT]) == 1
    act(S, R.A_DO + R.DO_PASS)                   # the Barbarian challenges no one
    if int(S[0]["phase"]) == R.PH_EVADE:
        act(S, R.A_DO + R.DO_STAY)
    act(S, R.A_DO + R.DO_PASS)                   # the Barbarian targets no one
    ask(S, R.PH_TACTICS, KNIGHT)
    place(S, KNIGHT, R.BOX_MIGHT, R.BOX_ATTACK)
    ask(S, R.PH_TACTICS, BARB)
    assert int(S[0]["combat_step"]) == C.CS_TACTICS
    row = block(GAME.observation_of(S, BARB), "heroes")[(KNIGHT - BARB) % 2]
    assert row[O.H_PLACED + R.BOX_MANEUVER] == np.float32(1 / 5.0), "his challenge cube"
    assert row[O.H_PLACED + R.BOX_MIGHT] == 0 and row[O.H_PLACED + R.BOX_ATTACK] == 0, "his secret placing"
    mine = block(GAME.observation_of(S, KNIGHT), "heroes")[0]
    assert mine[O.H_PLACED + R.BOX_ATTACK] == np.float32(1 / 5.0)
    place(S, BARB)
    row = block(GAME.observation_of(S, BARB), "heroes")[(KNIGHT - BARB) % 2]
    assert row[O.H_PLACED + R.BOX_ATTACK] == np.float32(1 / 5.0), "revealed once all have placed (L724)"


def test_the_heuristic_refuses_a_harmful_spells_hit_and_accepts_an_aid():
    """The heuristic bot, asked whether it accepts a spell's hit (L1032),
    refuses a Fireball (Player vs. Player) and accepts a Teleport (an aid)."""
    import numpy as np
    from dragongym.agents.dragons_down_heuristic import DragonsDownHeuristic
    from dragongym.envs.dragons_down.game import GAME
    bot = DragonsDownHeuristic(GAME)
    S, sp = mage_duel("fireball", {"purple": 4}, more=(("human", "knight", TRI_PEAKS_1),
                                                        ("human", "barbarian", TRI_PEAKS_1)))
    fireball_at_both(S, sp)
    ask(S, R.PH_ACCEPT, KNIGHT_2)
    assert bot.act_state(GAME, S, KNIGHT_2, np.random.default_rng(0)) == R.A_ANSWER + R.ANSWER_REFUSE
    S[0]["cast_card"][MAGE] = next(c for c in range(R.NUM_SPELLS) if R.SPELL_KIND[c] == R.SP_TELEPORT)
    assert bot.act_state(GAME, S, KNIGHT_2, np.random.default_rng(0)) == R.A_ANSWER + R.ANSWER_ACCEPT


def test_dd_spell_tentacles_1_with_player_vs_player_tentacles_hold_heroes_too():
    """L1518 ("any number of targets"), L1174: with Player vs. Player the
    Druid's tentacles may hold the Knight (never the Druid himself; no hero
    without the option): a double hit takes one from his maneuver speed, a
    single hit one from his attack speed."""
    from tests.dragons_down.combat_test import BLANK, HIT
    from tests.dragons_down.spells_test import in_combat, wizard
    from dragongym.envs.dragons_down.game import GAME
    for pvp in (False, True):
        S, sp = wizard("tentacles", {"blue": 3}, cls="druid", monsters=(("giant_spider", TRI_PEAKS_1),),
                       more=(("human", "knight", TRI_PEAKS_1),))
        s = S[0]
        s["optional_rules"] = OPT_PVP if pvp else 0
        in_combat(S)
        s["cast_card"][0], s["cast_stage"][0] = sp, R.CAST_PLACED
        assert R.cast_spell(S, 0, 0)
        ask(S, R.PH_TENTACLE, 0)
        assert (R.A_SEAT + 1 in legal(S)) == pvp and R.A_SEAT + 0 not in legal(S)
    assert GAME.action_to_string(S, R.A_SEAT + 1) == "put a tentacle on player_1"
    spider = chip(S, "giant_spider")
    load(S, HIT, HIT, HIT, BLANK, BLANK, BLANK, BLANK, BLANK)    # the Knight's: double, single; the spider's: misses
    for a in (R.A_SEAT + 1, R.A_SEAT + 1, R.A_FOE + spider, R.A_FOE + spider):
        act(S, a)                                    # placed, then rolled (L1518)
    i = list(R.TENTACLE_CARDS).index(sp)
    assert [int(t) for t in s["tentacle_on"][i]] == [R.AIM_HERO + 1] * 2 + [spider] * 2
    assert [int(h) for h in s["tentacle_hit"][i]] == [R.TENT_MANEUVER, R.TENT_ATTACK, R.TENT_MISS, R.TENT_MISS]
    s["placed"][1, R.BOX_MANEUVER] = 2
    assert C.hero_maneuver(S, 0, 1) == 1 and R.attack_speed_against(S, 0, 3, R.AIM_HERO + 1, -1) == 2


def test_dd_spell_air_sword_1_with_player_vs_player_it_strikes_the_hero_its_caster_targets():
    """L1520, L1174: the Sorcerer's Air Sword, in play from an earlier round,
    strikes the hero his Targeting Token is on -- not without the option --:
    speed 2 above the Knight's maneuver 0, a hit he takes as a hero's hit
    (his armour choice; on none, might 2 + 1 sword: 3, one wound)."""
    from tests.dragons_down.spells_test import learn
    S = combat([SORCERER, ("human", "knight", TRI_PEAKS_1)])
    s = S[0]
    sp = learn(S, MAGE, "air_sword")
    s["spell_on"][sp], s["spell_mark"][sp] = R.AIM_HERO + MAGE, 0      # cast in an earlier round
    s["optional_rules"] = OPT_PVP
    start(S)
    no_challenges_of(S, MAGE, KNIGHT_2)
    act(S, R.A_SEAT + KNIGHT_2)
    assert R.sword_ready(S, 0, MAGE) and R.sword_speed(S, 0, MAGE) == 2
    s["optional_rules"] = 0
    assert not R.sword_ready(S, 0, MAGE)
    s["optional_rules"] = OPT_PVP
    act(S, R.A_DO + R.DO_PASS)                       # the Knight targets no one
    place(S, MAGE)                                   # no cube on his dagger: the sword alone strikes
    place(S, KNIGHT_2)
    ask(S, R.PH_ARMOR, KNIGHT_2)
    assert (int(s["atk_by"]), int(s["atk_victim"]), int(s["atk_dmg"]), int(s["atk_swords"])) == (1 + MAGE, KNIGHT_2, 2, 1)
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_WOUND, KNIGHT_2)
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert int(s["hearts"][KNIGHT_2, 1]) == 1
