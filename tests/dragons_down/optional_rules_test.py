"""The optional rules (L1128-L1170) and the agreed Legend Point target of
the multi-player Legendary race (L166): each a game option, off unless
chosen.

The combat positions are built by hand as in ``combat_test.py`` (``combat``,
the dice loaded as raw faces, data/dice.txt order) with the optional rule
set in the record's ``optional_rules`` bits; retirement positions as in
``fate_test.py`` (``fated``)."""
import pytest

import dragongym
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CARD_IDS, CLASS_IDS, CW_REMOVED, HS_ACTIVE, HS_WAITING, HST_HIDDEN, LEGEND_TARGET_DEFAULT, MON_TAKEN,
    MON_TRAY, NUM_CARDS, NUM_MONSTER_CHIPS, OPT_CLOSING, OPT_ENDLESS, OPT_LURING, OPT_RED_MEAT,
    OPT_SHARED_FAME, OPT_TOUGH, OPT_WITS, OPTIONAL_RULES, SB_EXPLORE, SB_LEGENDARY,
)
from dragongym.envs.dragons_down.rules import combat as C
from tests.dragons_down.actions_test import make_hero
from tests.dragons_down.combat_test import (
    ARCHER, BARBARIAN, BLANK, HIT, KNIGHT, NO_SYMBOL, R_PLUS2, R_ZERO, ROGUE, TRI_PEAKS_1, WARLOCK,
    act, ask, card_of, chip, combat, native, no_armor, passive, place, stay, start, target,
)
from tests.dragons_down.fate_test import DEEPDELVE_1, WILD, fated
from tests.dragons_down.setup_test import legal, new_game

OPTION_BITS = {"luring": OPT_LURING, "tough_monsters": OPT_TOUGH, "closing_the_distance": OPT_CLOSING,
               "wits_only": OPT_WITS, "shared_fame": OPT_SHARED_FAME, "endless_monsters": OPT_ENDLESS,
               "red_meat": OPT_RED_MEAT, "enchantment_limit": R.OPT_ENCH_LIMIT,
               "enchanted_paths": R.OPT_ENCH_PATHS, "enchanted_realm": R.OPT_ENCH_REALM,
               "player_vs_player": R.OPT_PVP}


def playing(S, *bits):
    """The record plays the optional rules ``bits``."""
    S[0]["optional_rules"] = sum(bits)
    return S


def foes_offered(S):
    """The foes the pending decision offers (A_FOE + f)."""
    return sorted(a - R.A_FOE for a in legal(S) if R.A_FOE <= a < R.A_FOE + R.NUM_FOES)


# ================================================================ DD-OPT-1 (L1128)
def test_dd_opt_1_every_optional_rule_is_off_unless_chosen():
    """L1128: the optional rules are played only when the players choose
    them: the default game plays none (and the race is to 20 LP, L166)."""
    config = dragongym.get_game("dragons_down").make_config()
    assert set(OPTION_BITS) == set(OPTIONAL_RULES)
    assert not any(getattr(config, name) for name in OPTIONAL_RULES)
    assert config.optional_rules == 0 and config.legend_target == LEGEND_TARGET_DEFAULT == 20
    env = dragongym.make("dragons_down")
    env.reset(seed=0)
    assert int(env.state_record[0]["optional_rules"]) == 0
    assert int(env.state_record[0]["legend_target"]) == 20


@pytest.mark.parametrize("name", OPTIONAL_RULES)
def test_dd_opt_1_choosing_one_optional_rule_plays_exactly_that_rule(name):
    """L1128: choosing one optional rule sets its bit, and only its bit, in
    the game's record."""
    env = dragongym.make("dragons_down", **{name: True})
    env.reset(seed=0)
    assert int(env.state_record[0]["optional_rules"]) == OPTION_BITS[name]
    assert OPTION_BITS[name] == 1 << OPTIONAL_RULES.index(name)


# ================================================================ Luring (L1130-L1132)
def test_dd_opt_luring_1_unhidden_heroes_lure_in_player_order_and_the_lured_monster_challenges_its_lurer():
    """L1130-L1132: in the Challenge step, before the Monsters challenge,
    the unhidden heroes in player order (the Barbarian, then the Knight) may
    each lure a single Monster; the hidden Archer, who stays hidden, is not
    asked. The Giant the Barbarian lures challenges him; the Goblin, lured by
    no one, challenges at random. Without the optional rule no one is asked."""
    S = playing(combat([KNIGHT, ARCHER + (HST_HIDDEN,), BARBARIAN],
                       monsters=[("giant", TRI_PEAKS_1), ("goblin", TRI_PEAKS_1)], dice=[0]), OPT_LURING)
    s = S[0]
    s["turn_order"][:3] = (2, 1, 0)
    giant, gob = chip(S, "giant"), chip(S, "goblin")
    start(S)
    ask(S, R.PH_UNHIDE, 1)                                # hidden heroes first may unhide ...
    act(S, R.A_DO + R.DO_STAY)
    ask(S, R.PH_LURE, 2)                                  # ... then the luring, in player order
    assert sorted(legal(S)) == sorted([R.A_FOE + giant, R.A_FOE + gob, R.A_DO + R.DO_PASS])
    assert s["foe_target"][giant] == -1 and s["loaded_pos"] == 0     # no Monster has challenged yet
    act(S, R.A_FOE + giant)
    ask(S, R.PH_LURE, 0)                                  # the Knight; never the hidden Archer
    act(S, R.A_DO + R.DO_PASS)
    assert int(s["phase"]) != R.PH_LURE
    assert s["foe_target"][giant] == 2 and s["foe_flags"][giant] & C.FF_LURED
    assert s["foe_target"][gob] == 2 and s["loaded_pos"] == 1        # drawn among Barbarian, Knight: the first
    S = combat([KNIGHT, BARBARIAN], monsters=[("giant", TRI_PEAKS_1)], dice=[1])
    start(S)
    assert int(S[0]["phase"]) != R.PH_LURE and int(S[0]["foe_target"][giant]) == 1


def test_dd_opt_luring_1_a_hero_who_unhides_may_lure():
    """L1130 with L688: a hidden hero who becomes unhidden at the Challenge
    step is an unhidden hero when the luring comes, and may lure."""
    S = playing(combat([ARCHER + (HST_HIDDEN,)], monsters=[("giant", TRI_PEAKS_1)]), OPT_LURING)
    giant = chip(S, "giant")
    start(S)
    ask(S, R.PH_UNHIDE, 0)
    act(S, R.A_DO + R.DO_UNHIDE)
    ask(S, R.PH_LURE, 0)
    act(S, R.A_FOE + giant)
    assert S[0]["foe_target"][giant] == 0


def test_dd_opt_luring_2_a_lured_monster_cannot_be_lured_again_the_others_challenge_at_random():
    """L1132: the Knight lures Monster A (the Giant); the Barbarian may not
    lure it too -- only the Goblin, or none. He lures none: the Goblin
    challenges a random hero (the draw picks the Barbarian); the Giant
    challenges the Knight who lured it, whatever the dice."""
    S = playing(combat([KNIGHT, BARBARIAN], monsters=[("giant", TRI_PEAKS_1), ("goblin", TRI_PEAKS_1)],
                       dice=[1]), OPT_LURING)
    s = S[0]
    giant, gob = chip(S, "giant"), chip(S, "goblin")
    start(S)
    ask(S, R.PH_LURE, 0)
    act(S, R.A_FOE + giant)
    ask(S, R.PH_LURE, 1)
    assert foes_offered(S) == [gob] and R.A_DO + R.DO_PASS in legal(S)
    act(S, R.A_DO + R.DO_PASS)
    assert (s["foe_target"][giant], s["foe_target"][gob]) == (0, 1)
    assert s["loaded_pos"] == 1                           # one draw: the Goblin's only


def test_dd_opt_luring_2_once_every_monster_is_lured_no_one_else_is_asked():
    """L1132: with the clearing's only Monster lured by the Knight, there is
    nothing left for the Barbarian to lure: he is not asked, and no dice
    are drawn for challenges."""
    S = playing(combat([KNIGHT, BARBARIAN], monsters=[("giant", TRI_PEAKS_1)]), OPT_LURING)
    s = S[0]
    giant = chip(S, "giant")
    start(S)
    ask(S, R.PH_LURE, 0)
    act(S, R.A_FOE + giant)
    assert int(s["phase"]) != R.PH_LURE and s["foe_target"][giant] == 0 and s["loaded_pos"] == 0
    assert s["rng_counter"] == 0


# ================================================================ Tough Monsters (L1134-L1136)
def test_dd_opt_tough_1_a_hit_that_does_not_kill_does_not_harm_the_monster():
    """L1134-L1136: Monsters take no wounds. The Knight's 1 Might + 1 sword
    = 2 on the Giant (health 3) does nothing: no pink cube, and the round,
    the Giant's blow missing too, is a round without a wound (L781). Next
    round 2 Might + 1 sword = 3 kills it, and he takes its 8 Fame."""
    S = playing(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)],
                       dice=[NO_SYMBOL, BLANK, BLANK, NO_SYMBOL]), OPT_TOUGH)
    s = S[0]
    giant = chip(S, "giant")
    start(S)
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_MANEUVER)   # speed 2 beats its maneuver 1
    stay(S)
    ask(S, R.PH_TARGET, 0)
    assert s["combat_round"] == 2 and s["foe_wounds"][giant] == 0 and s["quiet_rounds"] == 1
    assert s["mon_clearing"][giant] == TRI_PEAKS_1
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_MANEUVER)
    assert s["mon_clearing"][giant] == MON_TAKEN and s["mon_taker"][giant] == 0 and s["fame"][0] == 8


def test_dd_opt_tough_1_a_killing_hit_kills_a_tough_monster_at_once():
    """L1136: a single hit of at least the Monster's health kills it as
    always: the Knight's 3 on the Giant (health 3)."""
    S = playing(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL]), OPT_TOUGH)
    giant = chip(S, "giant")
    start(S)
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert S[0]["mon_clearing"][giant] == MON_TAKEN and S[0]["fame"][0] == 8


def test_dd_opt_tough_1_a_warlock_heals_nothing_from_a_hit_that_does_not_harm():
    """L1136 with L1228: the Warlock heals when he kills or wounds an enemy;
    under Tough Monsters his sword's 1 Might + 1 sword = 2 on the Giant
    (health 3) neither kills nor wounds it (the Giant's blow, speed 1 and
    length 8 before his 1 and 6, missed first), so his wounded Heart stays
    wounded."""
    S = playing(combat([WARLOCK], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL, BLANK, BLANK, HIT, HIT]),
                OPT_TOUGH)
    s = S[0]
    s["hearts"][0] = (3, 1)
    giant = chip(S, "giant")
    start(S)
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_MANEUVER)
    assert s["loaded_pos"] == 5 and s["foe_wounds"][giant] == 0 and s["mon_clearing"][giant] == TRI_PEAKS_1
    assert tuple(s["hearts"][0]) == (3, 1)


def test_dd_opt_tough_1_the_archer_rerolls_when_only_a_kill_would_harm():
    """L1136 with L1208: the Archer's arrow (1 Might + 1 sword - 1 armour)
    on the Juvenile Dragon (health 2) rolls 0 and +2: 1 damage, which under
    Tough Monsters does nothing. Rerolling the 0 can only help -- a -1 does
    nothing either, a +1 or +2 kills -- so his reroll is made (Readings of
    the engine: made where it can only help): +2, 3 damage, the dragon is
    killed."""
    S = playing(combat([ARCHER], monsters=[("juvenile_dragon", TRI_PEAKS_1)],
                       dice=[NO_SYMBOL, HIT, HIT, R_ZERO, R_PLUS2, R_PLUS2]), OPT_TOUGH)
    s = S[0]
    jd = chip(S, "juvenile_dragon")
    start(S)
    target(S, 0, jd)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)   # 3 ties its 3: two hits; the bow's 16 first
    assert s["loaded_pos"] == 6 and s["mon_clearing"][jd] == MON_TAKEN


# ================================================================ Closing the Distance (L1138-L1140)
def test_dd_opt_closing_1_the_first_round_is_ordered_by_attack_length():
    """L1138-L1140: in the first Combat Round the Knight's long sword
    (length 10, speed 1) strikes before the Goblin (length 3, speed 2),
    though the Goblin is faster; whether it hits is still by speed: his 1
    against its maneuver 2 rolls the Hit Dice (two hits: 1 + 1 sword kills
    it before it strikes). Without the optional rule the faster Goblin
    strikes first (L732)."""
    S = playing(combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT]), OPT_CLOSING)
    s = S[0]
    gob = chip(S, "goblin")
    start(S)
    target(S, 0, gob)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK)
    assert s["loaded_pos"] == 3                           # the Hit Dice were rolled
    assert s["mon_clearing"][gob] == MON_TAKEN and s["fame"][0] == 3
    assert tuple(s["hearts"][0]) == (5, 0) and s["cubes"][0, 1].sum() == 0
    S = combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT])
    s = S[0]
    start(S)
    target(S, 0, gob)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK)
    ask(S, R.PH_ARMOR, 0)                                 # the Goblin first
    assert s["mon_clearing"][gob] == TRI_PEAKS_1 and s["loaded_pos"] == 1


def test_dd_opt_closing_1_attack_speed_breaks_a_tie_of_length():
    """L1140: the Rogue's short sword and the Orc both have length 6; the
    Orc's attack speed 2 beats the Rogue's 1, so in the first round too the
    Orc strikes first: it hits him before his Hit Dice are rolled."""
    S = playing(combat([ROGUE], monsters=[("orc", TRI_PEAKS_1)], dice=[NO_SYMBOL]), OPT_CLOSING)
    s = S[0]
    orc = chip(S, "orc")
    start(S)
    target(S, 0, orc)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK)
    ask(S, R.PH_ARMOR, 0)
    assert s["loaded_pos"] == 1 and not s["hero_cflags"][0] & C.CF_ATTACKED
    assert s["mon_clearing"][orc] == TRI_PEAKS_1


def test_dd_opt_closing_2_later_rounds_are_ordered_by_attack_speed():
    """L1140: in Combat Round 1 the Knight's long sword (length 10) strikes
    before the Goblin (length 3): he misses, and then the Goblin hits him.
    In round 2 the order is by speed again: the Goblin (2) strikes before
    the Knight (1) -- his Hit Dice are not yet rolled when it hits."""
    S = playing(combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)],
                       dice=[NO_SYMBOL, BLANK, BLANK, NO_SYMBOL]), OPT_CLOSING)
    s = S[0]
    gob = chip(S, "goblin")
    mail = card_of(S, 0, "chainmail")
    start(S)
    target(S, 0, gob)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK)
    ask(S, R.PH_ARMOR, 0)
    assert s["loaded_pos"] == 3                           # his dice first (two blanks), then the Goblin
    act(S, R.A_CARD + mail)
    act(S, R.A_HEAL + R.HEAL_HEART)
    target(S, 0, gob)
    assert s["combat_round"] == 2
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK)
    ask(S, R.PH_ARMOR, 0)
    assert s["loaded_pos"] == 4 and not s["hero_cflags"][0] & C.CF_ATTACKED   # the Goblin first now


# ================================================================ Wits Only (L1146-L1148)
def test_dd_opt_wits_1_every_hero_begins_with_no_gold():
    """L1146-L1148: all heroes begin the game with 0 Gold: the same two
    heroes dealt from the same seed take their Class Cards' Gold, or none
    when Wits Only is played."""
    records = {}
    for wits in (False, True):
        env = dragongym.make("dragons_down", num_heroes=2, sandbox="explore_the_realm", random_heroes=True,
                             wits_only=wits)
        env.reset(seed=0)
        records[wits] = env.state_record[0].copy()
    plain, wits = records[False], records[True]
    assert list(plain["hero_class"][:2]) == list(wits["hero_class"][:2])
    assert list(plain["hero_state"][:2]) == list(wits["hero_state"][:2]) == [HS_WAITING, HS_WAITING]
    for p in (0, 1):
        ci, side = int(plain["hero_class"][p]), int(plain["class_side"][p])
        assert int(plain["gold"][p]) == int(R.CLASS_GOLD[ci, side]) > 0
        assert int(wits["gold"][p]) == 0


def test_dd_opt_wits_1_a_hero_chosen_by_hand_and_a_new_hero_begin_with_no_gold():
    """L1148 with L829: the Knight chosen at set-up, and the new hero a
    player chooses after his hero's death, begin with no Gold."""
    S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b001)
    playing(S, OPT_WITS)
    make_hero(S, "human", "knight")
    assert int(S[0]["hero_class"][0]) == CLASS_IDS.index("knight") and int(S[0]["gold"][0]) == 0
    assert int(R.CLASS_GOLD[CLASS_IDS.index("knight"), 0]) > 0
    S = playing(fated([("knight", WILD)]), OPT_WITS)
    R.kill_hero(S, 0, 0)
    R.advance(S, 0)
    make_hero(S, "human", "barbarian")
    assert int(S[0]["hero_class"][0]) == CLASS_IDS.index("barbarian") and int(S[0]["gold"][0]) == 0


def test_dd_opt_wits_1_a_missing_starting_item_is_still_paid_in_gold():
    """L1148 with L829 (Interpretations, "Wits Only"): the Class Card's
    starting Gold is not taken, but a new hero whose starting item is
    missing still receives its price in its place: a new Barbarian with no
    Helmet left in the items has the Helmet's price, and nothing more."""
    S = playing(fated([("knight", WILD)]), OPT_WITS)
    s = S[0]
    helmet = CARD_IDS.index("helmet")
    for c in range(NUM_CARDS):
        if R.CARD_KIND[c] == helmet:
            s["card_where"][c] = CW_REMOVED
    R.kill_hero(S, 0, 0)
    R.advance(S, 0)
    make_hero(S, "human", "barbarian")
    assert helmet in list(R.CLASS_EQUIPMENT[CLASS_IDS.index("barbarian"), 0])
    assert int(s["gold"][0]) == int(R.KIND_PRICE[helmet]) > 0


# ================================================================ Shared Fame (L1150-L1152)
def test_dd_opt_sharedfame_1_fame_is_shared_by_the_wound_cubes_the_rest_to_the_killer():
    """L1150-L1152: the Rogue (faster, 2) wounds the Giant (health 3, 8
    Fame) once; the Knight's blow kills it, filling the 2 health left. The
    Rogue receives 8 x 1/3 = 2 (rounded down), the Knight 8 x 2/3 = 5 and
    the 1 left over for the death blow: 6 (Interpretations). Without the
    optional rule the killer takes all 8 (L799)."""
    for shared, fames in ((True, (6, 2)), (False, (8, 0))):
        S = combat([KNIGHT, ROGUE], monsters=[("giant", TRI_PEAKS_1)], dice=[0, NO_SYMBOL, HIT, HIT])
        if shared:
            playing(S, OPT_SHARED_FAME)
        s = S[0]
        giant = chip(S, "giant")
        start(S)
        stay(S)
        target(S, 0, giant)
        target(S, 1, giant)
        place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK)       # speed 1 ties its maneuver 1: two hits, 3
        place(S, 1, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)      # speed 2 beats it: 1 + 1 sword = 2, a wound
        assert s["mon_clearing"][giant] == MON_TAKEN and s["mon_taker"][giant] == 0
        assert (int(s["fame"][0]), int(s["fame"][1])) == fames, shared
        assert s["foe_wound_by"][giant].sum() == 0


def test_dd_opt_sharedfame_1_the_killer_counts_his_own_earlier_wounds():
    """L1152: the Ogre (health 4, 8 Fame) carries one wound from the Archer
    and one from the Knight when the Knight kills it: the Archer's 1 cube is
    8 x 1/4 = 2 Fame, the Knight's cube and the 2 health his blow filled are
    3 of 4, and he takes the rest: 6."""
    S = playing(combat([KNIGHT, ARCHER], monsters=[("ogre", TRI_PEAKS_1)], dice=[0, NO_SYMBOL]), OPT_SHARED_FAME)
    s = S[0]
    ogre = chip(S, "ogre")
    s["foe_wounds"][ogre] = 2
    s["foe_wound_by"][ogre, 0] = s["foe_wound_by"][ogre, 1] = 1
    start(S)
    stay(S)
    target(S, 0, ogre)
    target(S, 1, None)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)   # 1 + 1 sword = 2 kills (health 2 left)
    place(S, 1)
    assert s["mon_clearing"][ogre] == MON_TAKEN
    assert (int(s["fame"][0]), int(s["fame"][1])) == (6, 2)


def test_dd_opt_sharedfame_1_wounds_are_kept_by_who_placed_them():
    """L1152: "keep track of who placed which pink wound cubes": the
    Knight's wound on the Ogre is recorded as his."""
    S = playing(combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL]), OPT_SHARED_FAME)
    ogre = chip(S, "ogre")
    start(S)
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert S[0]["foe_wounds"][ogre] == 1 and list(S[0]["foe_wound_by"][ogre][:2]) == [1, 0]


# ================================================================ Endless Monsters (L1162-L1166)
def test_dd_opt_endless_1_a_killed_monster_goes_back_to_the_tray():
    """L1162-L1164: the Giant the Knight kills returns to the monster tray,
    to be summoned again, rather than lying by his Hero Board; he still
    gains its 8 Fame."""
    S = playing(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL]), OPT_ENDLESS)
    s = S[0]
    giant = chip(S, "giant")
    start(S)
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert s["mon_clearing"][giant] == MON_TRAY and s["fame"][0] == 8
    assert s["foe_wounds"][giant] == 0 and s["mon_flipped"][giant] == 0


def test_dd_opt_endless_2_natives_and_unique_monsters_never_go_back():
    """L1166: the Bandit, a unique Monster (a Guardian), and a Miner, a
    Native, stay with the Knight who killed them."""
    S = playing(combat([KNIGHT], monsters=[("bandit", TRI_PEAKS_1)], dice=[NO_SYMBOL]), OPT_ENDLESS)
    s = S[0]
    bandit = chip(S, "bandit")
    assert R.FOE_UNIQUE[bandit]
    start(S)
    target(S, 0, bandit)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)   # 3 beats its 2: 3 kills
    assert s["mon_clearing"][bandit] == MON_TAKEN and s["mon_taker"][bandit] == 0 and s["fame"][0] == 6
    S = playing(combat([KNIGHT], natives=[("miner", TRI_PEAKS_1)], dice=[NO_SYMBOL]), OPT_ENDLESS)
    s = S[0]
    m = native("miner")
    start(S)
    target(S, 0, m)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    i = m - NUM_MONSTER_CHIPS
    assert s["native_clearing"][i] == C.NATIVE_TAKEN and s["native_taker"][i] == 0 and s["fame"][0] == 5


# ================================================================ Red Meat (L1168-L1170)
def test_dd_opt_redmeat_1_a_non_fatal_hit_off_armour_wounds_a_heart():
    """L1168-L1170: the Ogre's 4 on the Knight (5 Hearts), taken on no
    armour, must wound a Heart: he is not asked which cube."""
    S = playing(combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL]), OPT_RED_MEAT)
    s = S[0]
    start(S)
    passive(S, 0)
    no_armor(S, 0)
    assert int(s["phase"]) != R.PH_WOUND
    assert tuple(s["hearts"][0]) == (4, 1) and s["cubes"][0, 1].sum() == 0 and s["hero_state"][0] == HS_ACTIVE


def test_dd_opt_redmeat_1_a_hit_on_armour_leaves_the_choice_of_cube():
    """L1170: a hit that strikes armour is not Red Meat: on his chainmail
    the Knight chooses the cube he wounds, as always (L787)."""
    S = playing(combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL]), OPT_RED_MEAT)
    start(S)
    passive(S, 0)
    ask(S, R.PH_ARMOR, 0)
    act(S, R.A_CARD + card_of(S, 0, "chainmail"))
    ask(S, R.PH_WOUND, 0)
    act(S, R.A_HEAL + R.CUBE_MIGHT)
    assert tuple(S[0]["hearts"][0]) == (5, 0)


def test_dd_opt_redmeat_1_a_fatal_hit_still_kills():
    """L1170 names non-fatal hits: the Ogre's 4 against the Archer's 4
    healthy Hearts, on no armour, kills him (L766)."""
    S = playing(combat([ARCHER], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL]), OPT_RED_MEAT)
    start(S)
    passive(S, 0)
    no_armor(S, 0)
    assert S[0]["hero_state"][0] != HS_ACTIVE


# ================================================================ the agreed Legend Point target (L166)
def test_dd_sandbox_legend_5_the_players_may_agree_another_legend_point_target():
    """L166: "for shorter or longer games, any number can be agreed to by
    the players": in a race to 5 LP, the Rogue retiring with 4 does not win
    and the game goes on; the Knight retiring with 5 wins at once."""
    S = fated([("knight", DEEPDELVE_1), ("rogue", DEEPDELVE_1)], sandbox=SB_LEGENDARY, max_turns=100)
    s = S[0]
    s["legend_target"] = 5
    s["lp"][0], s["lp"][1] = 5, 4
    s["turn_order"][:2] = (1, 0)
    R.advance(S, 0)
    ask(S, R.PH_RETIRE, 1)
    act(S, R.A_DO + R.DO_RETIRE)
    assert int(s["status"]) == 0 and int(s["legend"]) == -1
    ask(S, R.PH_RETIRE, 0)
    act(S, R.A_DO + R.DO_RETIRE)
    assert int(s["status"]) == 1 and int(s["legend"]) == 0 and list(s["rank"][:2]) == [1, 2]


def test_dd_sandbox_legend_5_the_agreed_target_is_a_game_option():
    """L166: the target is chosen with the game (``legend_target``; 20
    unless agreed)."""
    env = dragongym.make("dragons_down", sandbox="legendary", legend_target=5)
    env.reset(seed=0)
    assert int(env.state_record[0]["legend_target"]) == 5


def test_dd_sandbox_legend_5_the_agreed_target_is_the_multi_player_races_only():
    """L168: the agreed number is the multi-player race's; a solo hero
    retiring with 5 LP in a game whose ``legend_target`` is 5 has not won."""
    S = fated([("rogue", DEEPDELVE_1)], sandbox=SB_LEGENDARY)
    S[0]["legend_target"] = 5
    S[0]["lp"][0] = 5
    R.advance(S, 0)
    act(S, R.A_DO + R.DO_RETIRE)
    assert int(S[0]["legend"]) == -1 and int(S[0]["epic_victory"]) == 0


# ================================================================ the optional rules of magic (L1142-L1160)
def test_dd_enchant_5_a_multicolour_box_is_waived_where_no_box_has_the_colour():
    """L579 ("including a multicolor spell box"), L1020: Fireball (purple!,
    purple, purple, any) in a tile enchanted gray leaves its multi-colour box
    empty: three purple cubes cast it."""
    from tests.dragons_down.spells_test import GRAY, wizard
    S, sp = wizard("fireball", {"purple": 3}, monsters=(("ogre", TRI_PEAKS_1),))
    assert not R.may_cast(S, 0, 0, sp)
    S[0]["tile_enchant"][R.TILE_IDS.index("tri_peaks")] = GRAY
    assert R.may_cast(S, 0, 0, sp)
    assert R.waived_box(S, 0, 0, R.SPELL_KIND[sp]) == 3


def test_dd_opt_enchlimit_1_only_the_rightmost_solid_box_of_the_colour_is_waived():
    """L1142-L1144: under Enchantment Limit the enchantment waives the
    rightmost solid box of its colour -- not the caster's choice: Envenom
    (gray!, gray) in a gray tile leaves its second box empty, so the cube on
    the wound box is wounded; a multi-colour box is never waived."""
    from tests.dragons_down.spells_test import GRAY, wizard
    from tests.dragons_down.spells_test import to_target_step as targeting
    S, sp = wizard("envenom", {"gray": 1})
    playing(S, R.OPT_ENCH_LIMIT)
    S[0]["tile_enchant"][R.TILE_IDS.index("tri_peaks")] = GRAY
    assert R.waived_box(S, 0, 0, R.SPELL_KIND[sp]) == 1
    targeting(S)
    act(S, R.A_SEAT + 0)
    act(S, R.A_SPELL + sp)
    assert int(S[0]["cast_wound"][0]) == GRAY and int(S[0]["cast_cubes"][0, GRAY]) == 1
    T, fire = wizard("fireball", {"purple": 3}, monsters=(("ogre", TRI_PEAKS_1),))
    playing(T, R.OPT_ENCH_LIMIT)
    T[0]["tile_enchant"][R.TILE_IDS.index("tri_peaks")] = GRAY
    assert R.waived_box(T, 0, 0, R.SPELL_KIND[fire]) == -1 and not R.may_cast(T, 0, 0, fire)


def deepdelve_hidden_path():
    """Deepdelve (actions_test), the hero in Cave 2, which a Hidden Path joins
    to Mountains 4; returns (S, the path's colour)."""
    from tests.dragons_down.actions_test import CAVE_2, DEEPDELVE, deepdelve
    from tests.dragons_down.actions_test import act as step
    S = deepdelve()
    step(S, R.A_CLEARING + CAVE_2)
    side = int(S[0]["tile_side"][DEEPDELVE])
    h = next(h for h in range(R.MAX_HIDDEN_PER_SIDE) if R.HIDDEN[DEEPDELVE, side, h, 0] >= 0)
    return S, int(R.HIDDEN_COLOUR[DEEPDELVE, side, h])


def test_dd_opt_enchpaths_1_a_hidden_path_of_the_enchantments_colour_is_open_to_all():
    """L1154-L1156: under Enchanted Paths a Hidden Path of the colour of its
    tile's Magic Cube is a normal path: the hero moves along it without having
    found it, and does not discover it by using it; it may still be
    searched for. Without the rule, or in another colour, it stays hidden."""
    from tests.dragons_down.actions_test import DEEPDELVE, MOUNTAINS_4
    from tests.dragons_down.actions_test import act as step
    S, colour = deepdelve_hidden_path()
    S[0]["tile_enchant"][DEEPDELVE] = colour
    assert R.A_CLEARING + MOUNTAINS_4 not in legal(S)               # the rule not played
    playing(S, R.OPT_ENCH_PATHS)
    assert R.A_CLEARING + MOUNTAINS_4 in legal(S)
    assert any(R.A_SEARCH <= a < R.A_SEARCH + R.MAX_HIDDEN_PER_SIDE for a in legal(S))   # still searched for
    S[0]["tile_enchant"][DEEPDELVE] = (colour + 1) % R.NUM_COLOURS
    assert R.A_CLEARING + MOUNTAINS_4 not in legal(S)               # another colour
    S[0]["tile_enchant"][DEEPDELVE] = colour
    step(S, R.A_CLEARING + MOUNTAINS_4)
    assert int(S[0]["hero_clearing"][0]) == MOUNTAINS_4 and not S[0]["hidden_found"][0].any()


def test_dd_opt_enchrealm_1_a_return_arrow_flips_and_enchants_the_tiles_of_the_black_symbol():
    """L1158-L1160: under Enchanted Realm the return arrow also flips every
    tile bearing the symbol on the Local Monster Die and enchants it with
    the colour of one of its Hidden Paths (the side now up), drawn at random,
    replacing any cube; the other tiles stay as they are; without the rule
    nothing flips."""
    import numpy as np
    from tests.dragons_down.setup_test import play
    S = new_game(num_heroes=2, seed=4)
    play(S, np.random.default_rng(4))                                # the map built, the heroes made
    s = S[0]
    placed = [t for t in range(R.NUM_TILES) if s["tile_where"][t] == R.TW_PLACED and R.TILE_LOCAL_SYMBOL[t] > 0]
    t = placed[0]
    symbol = int(R.TILE_LOCAL_SYMBOL[t])
    assert any(int(R.TILE_LOCAL_SYMBOL[u]) != symbol for u in placed)    # some tiles keep their side
    s["summon_dice"][0] = list(R.GRAY_SYMBOL).index(R.SYM_RETURN)
    s["summon_dice"][2] = list(R.BLACK_SYMBOL).index(symbol)
    before = s["tile_side"].copy()
    T = S.copy()
    R.apply_summoning(T, 0, -1, -1, np.zeros(4, dtype=np.int64))
    assert np.array_equal(T[0]["tile_side"], before)                # the rule not played
    playing(S, R.OPT_ENCH_REALM)
    for u in range(R.NUM_TILES):
        S[0]["tile_enchant"][u] = 0                                  # a black cube everywhere, to be replaced
    R.apply_summoning(S, 0, -1, -1, np.zeros(4, dtype=np.int64))
    for u in range(R.NUM_TILES):
        hit = s["tile_where"][u] == R.TW_PLACED and int(R.TILE_LOCAL_SYMBOL[u]) == symbol
        assert int(S[0]["tile_side"][u]) == (1 - int(before[u]) if hit else int(before[u]))
        if hit:
            side = int(S[0]["tile_side"][u])
            colours = {int(R.HIDDEN_COLOUR[u, side, h]) for h in range(R.MAX_HIDDEN_PER_SIDE)
                       if R.HIDDEN[u, side, h, 0] >= 0}
            assert int(S[0]["tile_enchant"][u]) in (colours or {-1})
        else:
            assert int(S[0]["tile_enchant"][u]) == 0
