"""Mission Cards (L328-L332, L564-L566, L1067-L1087), the titles of the
Civilization Cards (L322-L326, L567) and the Outlaw Tokens they give and take
(L1109-L1122), played through the driver on Deepdelve (actions_test.py): the
hero stands in clearing 1 with a Merchant put there by hand (trade_test.py)."""

import numpy as np

from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CIV_CARD_IDS, MERCHANT_IDS, MISSION_IDS, MONSTER_CHIP_KINDS, MONSTER_IDS, MW_DECK, MW_DISCARD, MW_DONE,
    MW_HERO, MW_MERCHANT, MW_OUT, NATIVE_CHIP_KINDS, NUM_MISSIONS, SB_EXPLORE, SITE_IDS, TITLE_IDS,
)
from tests.dragons_down.actions_test import MOUNTAINS_4, PLAINS_1, act, load, used
from tests.dragons_down.setup_test import legal, new_game
from tests.dragons_down.trade_test import DONE, LOOK, TRADE, merchant, phase, start

ACCEPT, REFUSE = R.A_ANSWER + R.ANSWER_ACCEPT, R.A_ANSWER + R.ANSWER_REFUSE
PASS = R.A_DO + R.DO_PASS
FENCE = "fence"                          # a Cruel Caves Merchant listing two missions (setup_cards.txt)
FAME_4 = 4                               # the Mission Die's raw draw 4: 4 Fame (dice.txt: gold 2, 4, 6, fame 2, 4, 6)
GOLD_6 = 2                               # raw draw 2: 6 Gold


def mission(mid):
    return MISSION_IDS.index(mid)


def title(tid):
    return TITLE_IDS.index(tid)


def hand(S, p, *mids):
    """Put those Mission Cards in hero p's backpack; returns their indices."""
    ks = [mission(m) for m in mids]
    for k in ks:
        S[0]["mission_where"][k], S[0]["mission_owner"][k], S[0]["mission_order"][k] = MW_HERO, p, -1
    return ks


def listed(S, m):
    return sorted(k for k in range(NUM_MISSIONS)
                  if S[0]["mission_where"][k] == MW_MERCHANT and S[0]["mission_owner"][k] == m)


def at_fence(num_heroes=1, lineage="human"):
    """A hero (a Human Knight) in clearing 1 beside the Fence, which lists
    two missions."""
    S, p = start(num_heroes, lineages=(lineage,))
    m, _ = merchant(S, FENCE)
    R.list_missions(S, 0, m)
    return S, p, m


def held(S, p):
    return sorted(k for k in range(NUM_MISSIONS)
                  if S[0]["mission_where"][k] == MW_HERO and S[0]["mission_owner"][k] == p)


def place_of(S, k, p):
    """Stand hero p where Mission Card k is completed: its Civilization
    Location is made hero p's clearing (or its Merchant put there)."""
    pack = int(R.MISSION_AT_CIV[k])
    if pack >= 0:
        S[0]["civ_clearing"][pack] = S[0]["hero_clearing"][p]
    else:
        merchant(S, MERCHANT_IDS[int(R.MISSION_AT_MERCHANT[k])], clearing=int(S[0]["hero_clearing"][p]))


def end_turn(S):
    """The active hero passes (L612)."""
    act(S, PASS)


# ================================================================ the set-up (L180, L184)
def test_dd_setup_game_7_one_shuffled_mission_deck_of_the_packs_in_play():
    """L184: the Mission Cards of the packs in play form one shuffled deck
    (and the set-up's Merchants list theirs from it); the rest stay out."""
    orders = set()
    for seed in range(4):
        S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b011, seed=seed)
        s = S[0]
        for k in range(NUM_MISSIONS):
            in_play = R.MISSION_PACK[k] in (0, 1)
            assert (int(s["mission_where"][k]) != MW_OUT) == in_play
        deck = [k for k in range(NUM_MISSIONS) if s["mission_where"][k] == MW_DECK]
        places = sorted(int(s["mission_order"][k]) for k in deck)
        assert len(set(places)) == len(places)
        orders.add(tuple(sorted(deck, key=lambda k: int(s["mission_order"][k]))))
    assert len(orders) > 1                                       # shuffled, differently per seed


def test_dd_setup_game_3_civilization_cards_random_side_up():
    """L180: the Civilization Card of each pack in play lies random side up;
    the others are not in play."""
    sides = set()
    for seed in range(12):
        S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b101, seed=seed)
        for k, cid in enumerate(CIV_CARD_IDS):
            side = int(S[0]["civ_side"][k])
            if R.CIV_PACK[k] == 1:
                assert side == -1
            else:
                assert side in (0, 1)
                sides.add(side)
    assert sides == {0, 1}


def test_dd_comp_missions_1_three_kinds_of_mission_from_merchants():
    """L328-L330: Missions come from Merchants, as Atrocities, Quests and
    Expeditions."""
    assert set(int(k) for k in R.MISSION_KIND) == {R.MK_ATROCITY, R.MK_QUEST, R.MK_EXPEDITION}
    S, p, m = at_fence()
    assert len(listed(S, m)) == 2                                # the Fence's missions=2 (setup_cards.txt)


# ================================================================ taking missions (L564)
def test_dd_trade_commerce_9_take_up_to_two_missions_face_down():
    """L564: Take Missions is one step of commerce: 0, 1 or 2 cards from the
    Merchant into the backpack. Like buying, it needs the Merchant's cards
    known (L558); no third card in the same Trade Action."""
    S, p, m = at_fence()
    a, b_ = listed(S, m)
    act(S, TRADE)
    assert phase(S) == R.PH_COMMERCE
    assert R.A_MISSION + a not in legal(S)                       # not seen yet
    act(S, LOOK)
    assert {R.A_MISSION + a, R.A_MISSION + b_} <= set(legal(S))
    act(S, R.A_MISSION + a)
    assert phase(S) == R.PH_TAKE_MISSION and set(legal(S)) == {R.A_MISSION + b_, DONE}
    act(S, R.A_MISSION + b_)
    assert held(S, p) == [a, b_]
    assert used(S, p) == 1                                       # one Trade Action
    assert R.A_MISSION + a not in legal(S)


def test_dd_trade_commerce_9_one_card_then_the_step_is_over():
    """Taking one card and declining a second ends the step: the commerce
    does not offer it again in the same Trade Action (L557: each step once)."""
    S, p, m = at_fence()
    a, b_ = listed(S, m)
    act(S, TRADE)
    act(S, LOOK)
    act(S, R.A_MISSION + a)
    act(S, DONE)
    assert held(S, p) == [a]
    assert R.A_MISSION + b_ not in legal(S)


def test_dd_trade_commerce_10_excess_missions_discarded_at_the_end_of_the_turn():
    """L564, L1071: at the end of his turn a Hero keeps at most two
    uncompleted missions; he discards the excess, its discard penalty
    applying."""
    S, p, m = at_fence()
    ks = hand(S, p, "claim_jumper", "grave_robber", "demons_bargain")
    S[0]["fame"][p] = 12
    end_turn(S)
    assert phase(S) == R.PH_MISSION_LIMIT and int(S[0]["to_play"]) == p
    assert {a - R.A_MISSION for a in legal(S)} == set(ks)
    act(S, R.A_MISSION + mission("demons_bargain"))              # discard: -5 Fame (missions.txt)
    assert int(S[0]["fame"][p]) == 7
    assert held(S, p) == sorted(ks[:2])
    assert int(S[0]["mission_where"][mission("demons_bargain")]) == MW_DISCARD


def test_dd_trade_commerce_11_merchants_refilled_at_the_end_of_the_turn():
    """L564: after the player's turn every Merchant lists its number of
    missions again, from the top of the Mission Deck."""
    S, p, m = at_fence()
    a, b_ = listed(S, m)
    act(S, TRADE)
    act(S, LOOK)
    act(S, R.A_MISSION + a)
    act(S, R.A_MISSION + b_)
    assert listed(S, m) == []
    deck = sorted((k for k in range(NUM_MISSIONS) if S[0]["mission_where"][k] == MW_DECK),
                  key=lambda k: int(S[0]["mission_order"][k]))
    if phase(S) == R.PH_COMMERCE:
        act(S, DONE)
    end_turn(S)
    assert listed(S, m) == sorted(deck[:2])
    assert not R.has_looked(S, 0, p, m)                          # cards he has not seen joined it (L558)


def test_dd_trade_commerce_12_an_empty_deck_is_rebuilt_from_the_discards():
    """L564: an empty Mission Deck is shuffled anew from the discard pile;
    with no discards either, the Merchants are not restocked."""
    S, p, m = at_fence()
    s = S[0]
    for k in listed(S, m):
        s["mission_where"][k], s["mission_owner"][k] = MW_DONE, -1
    for k in range(NUM_MISSIONS):
        if s["mission_where"][k] == MW_DECK:
            s["mission_where"][k], s["mission_order"][k] = MW_DISCARD, -1
    discards = [k for k in range(NUM_MISSIONS) if s["mission_where"][k] == MW_DISCARD]
    R.list_missions(S, 0, m)
    assert len(listed(S, m)) == 2 and set(listed(S, m)) <= set(discards)
    assert all(s["mission_where"][k] in (MW_DECK, MW_MERCHANT) for k in discards)
    for k in range(NUM_MISSIONS):
        if s["mission_where"][k] == MW_DECK:
            s["mission_where"][k], s["mission_order"][k] = MW_DONE, -1
    for k in listed(S, m):
        s["mission_where"][k], s["mission_owner"][k] = MW_DONE, -1
    R.list_missions(S, 0, m)
    assert listed(S, m) == []


# ================================================================ discarding (L1071)
def test_dd_mission_2_discard_at_any_time_in_ones_turn_for_no_action():
    """L1071: a Mission Card may be discarded face up at any time during
    the Hero's turn: no action is spent."""
    S, p, m = at_fence()
    k, = hand(S, p, "goblin_blight")
    assert R.A_MISSION + k in legal(S)
    act(S, R.A_MISSION + k)
    assert held(S, p) == [] and int(S[0]["mission_where"][k]) == MW_DISCARD
    assert used(S, p) == 0 and phase(S) == R.PH_ACTION


def test_dd_mission_3_a_discard_applies_its_mandatory_reward_or_penalty():
    """L1071: a discard's mandatory reward or penalty applies (a penalty
    takes no more than the hero has, missions.txt)."""
    S, p, m = at_fence()
    gift = next(k for k in range(NUM_MISSIONS) if R.MISSION_DISCARD[k, 0] > 0)
    cost = next(k for k in range(NUM_MISSIONS) if R.MISSION_DISCARD[k, 2] < 0)
    hand(S, p, MISSION_IDS[gift], MISSION_IDS[cost])
    S[0]["gold"][p], S[0]["fame"][p] = 3, 2
    act(S, R.A_MISSION + gift)
    assert int(S[0]["gold"][p]) == 3 + int(R.MISSION_DISCARD[gift, 0])
    act(S, R.A_MISSION + cost)
    assert int(S[0]["fame"][p]) == 0                             # 2 Fame, no more, taken


# ================================================================ completing (L566, L1077-L1087)
def kill(S, p, mid, n=1):
    """Credit hero p with n kills of Monster kind ``mid`` (L799)."""
    S[0]["kills"][p, MONSTER_IDS.index(mid)] += n


def test_dd_mission_complete_1_tasks_then_a_trade_action_at_its_place():
    """L1077-L1079: the tasks done, a Trade Action at the card's place
    completes it; tasks not done, or elsewhere, it cannot be."""
    S, p, m = at_fence()
    k, = hand(S, p, "goblin_blight")                              # kill 4 Goblins, at the Mine
    place_of(S, k, p)
    kill(S, p, "goblin", 3)
    assert not R.completable(S, 0, p, k)
    kill(S, p, "goblin")
    assert R.completable(S, 0, p, k)
    S[0]["civ_clearing"][R.MISSION_AT_CIV[k]] = MOUNTAINS_4        # the Mine elsewhere
    assert not R.completable(S, 0, p, k)


def test_dd_mission_complete_1_tasks_done_before_taking_the_card_count():
    """L1079: requirements met before the mission is accepted count: the
    kills were made first, the card taken after, and it completes at once."""
    S, p, m = at_fence()
    kill(S, p, "goblin", 4)
    k = mission("goblin_blight")
    S[0]["mission_where"][k], S[0]["mission_owner"][k], S[0]["mission_order"][k] = MW_MERCHANT, m, -1
    place_of(S, k, p)
    act(S, TRADE)
    act(S, LOOK)
    act(S, R.A_MISSION + k)
    while phase(S) in (R.PH_TAKE_MISSION, R.PH_COMMERCE):
        act(S, DONE)
    act(S, TRADE)                                                # the Fence, or the mission
    assert phase(S) == R.PH_TRADE_WITH and R.A_MISSION + k in legal(S)
    act(S, R.A_MISSION + k)
    assert int(S[0]["mission_where"][k]) == MW_DONE


def test_dd_trade_mission_1_completing_is_a_trade_action_and_the_card_leaves_the_game():
    """L566: a Trade Action completes the mission; the card is removed from
    the game (a Dwarf: no Human's extra action at the Mine, L1204)."""
    S, p, m = at_fence(lineage="dwarf")
    k, = hand(S, p, "goblin_blight")
    place_of(S, k, p)
    kill(S, p, "goblin", 4)
    left = R.actions_left(S, 0, p)
    act(S, TRADE)
    if phase(S) == R.PH_TRADE_WITH:
        act(S, R.A_MISSION + k)
    assert int(S[0]["mission_where"][k]) == MW_DONE and R.actions_left(S, 0, p) == left - 1
    assert int(S[0]["missions_done"][p]) == 1


def test_dd_mission_complete_2_and_3_printed_rewards_and_mission_dice():
    """L1079-L1081: the printed Gold, LP and Fame, and one Mission Die per
    icon of the bonus attribute on the Lineage and Class Cards."""
    S, p, m = at_fence()
    k, = hand(S, p, "goblin_blight")                              # bonus: charisma
    place_of(S, k, p)
    kill(S, p, "goblin", 4)
    dice = R.hero_attribute(S, 0, p, int(R.MISSION_BONUS[k]))
    assert dice >= 1
    gold, lp, fame = (int(S[0][f][p]) for f in ("gold", "lp", "fame"))
    load(S, *([FAME_4] * dice))
    R.complete_mission(S, 0, p, k)
    assert int(S[0]["gold"][p]) == gold + int(R.MISSION_REWARD[k, 0])
    assert int(S[0]["lp"][p]) == lp + int(R.MISSION_REWARD[k, 1])
    assert int(S[0]["fame"][p]) == fame + int(R.MISSION_REWARD[k, 2]) + 4 * dice
    assert int(S[0]["loaded_pos"]) == dice                       # exactly one die per icon


def test_dd_mission_complete_3_charm_adds_two_dice_misfortune_takes_one():
    """L1592 (Charm: +2 to every attribute for mission rewards) and the
    Misfortune curse (-1, curses.txt), never below none."""
    S, p, m = at_fence()
    k = mission("goblin_blight")
    base = R.hero_attribute(S, 0, p, int(R.MISSION_BONUS[k]))
    assert R.mission_dice(S, 0, p, k) == base
    S[0]["curses"][p] |= 1 << R.CURSE_MISFORTUNE
    assert R.mission_dice(S, 0, p, k) == max(base - 1, 0)


def test_dd_outlaw_3_an_atrocity_gives_an_outlaw_token():
    """L1116: completing an Atrocity gives one Outlaw Token."""
    S, p, m = at_fence()
    k, = hand(S, p, "claim_jumper")
    assert R.MISSION_KIND[k] == R.MK_ATROCITY
    load(S, *([0] * 8))
    R.complete_mission(S, 0, p, k)
    assert int(S[0]["outlaw"][p]) == 1


def test_dd_mission_complete_4_a_quest_may_discard_one_outlaw_token_already_held():
    """L1083, L1121: after a Quest the hero may discard one Outlaw Token he
    already holds (he chooses: some titles want an Outlaw); with none, he is
    not asked."""
    S, p, m = at_fence()
    k, = hand(S, p, "goblin_blight")
    assert R.MISSION_KIND[k] == R.MK_QUEST
    place_of(S, k, p)
    kill(S, p, "goblin", 4)
    S[0]["outlaw"][p] = 2
    load(S, *([0] * 8))
    act(S, TRADE)
    if phase(S) == R.PH_TRADE_WITH:
        act(S, R.A_MISSION + k)
    assert phase(S) == R.PH_PARDON and set(legal(S)) == {ACCEPT, REFUSE}
    act(S, ACCEPT)
    assert int(S[0]["outlaw"][p]) == 1
    S2, p2, _ = at_fence()
    k2, = hand(S2, p2, "goblin_blight")
    place_of(S2, k2, p2)
    kill(S2, p2, "goblin", 4)
    load(S2, *([0] * 8))
    assert not R.complete_mission(S2, 0, p2, k2)                 # no token held: no question
    assert int(S2[0]["outlaw"][p2]) == 0


def test_dd_mission_example_1_human_knight_completes_the_temple_defiler():
    """L1087: the Human Knight completes the Temple Defiler Atrocity: its
    bonus attribute is Cunning, he has one Cunning icon and rolls one Mission
    Die, adding its result to the one Legend Point, 20 Fame and the Outlaw
    Token of the Atrocity."""
    S, p, m = at_fence()
    assert (R.LINEAGE_IDS[int(S[0]["hero_lineage"][p])], R.CLASS_IDS[int(S[0]["hero_class"][p])]) == \
        ("human", "knight")
    k, = hand(S, p, "temple_defiler")
    assert R.MISSION_BONUS[k] == R.ATTR_CUNNING and R.mission_dice(S, 0, p, k) == 1
    S[0]["sites_looted"][p, SITE_IDS.index("shrine")] = 1        # its task (authored): loot the Shrine
    place_of(S, k, p)
    assert R.completable(S, 0, p, k)
    lp, fame, gold = (int(S[0][f][p]) for f in ("lp", "fame", "gold"))
    load(S, GOLD_6)
    R.complete_mission(S, 0, p, k)
    assert int(S[0]["lp"][p]) == lp + 1
    assert int(S[0]["fame"][p]) == fame + 20
    assert int(S[0]["gold"][p]) == gold + 6                      # the one Mission Die
    assert int(S[0]["outlaw"][p]) == 1


def test_deeds_count_kills_loots_and_tiles_as_they_happen():
    """What the tasks read: a kill credited as for Fame (L799) counts for the
    killer, a Native's for its Group; a successful loot marks the site; each
    decision marks the tile every hero stands in."""
    S, p, m = at_fence()
    goblin = next(f for f, k in enumerate(MONSTER_CHIP_KINDS) if MONSTER_IDS[k] == "goblin")
    R.credit_kill(S, 0, goblin, p, True)
    assert int(S[0]["kills"][p, MONSTER_IDS.index("goblin")]) == 1
    native = R.NUM_MONSTER_CHIPS
    R.credit_kill(S, 0, native, p, True)
    assert int(S[0]["native_kills"][p, R.NATIVE_GROUP_OF[0]]) == 1
    R.note_loot(S, 0, p, 0)
    assert int(S[0]["sites_looted"][p, 0]) == 1
    tile = PLAINS_1 // 6
    S[0]["tiles_entered"][p, tile] = 0
    end_turn(S)
    assert int(S[0]["tiles_entered"][p, tile]) == 1


def test_dd_fate_death_9_a_dead_heros_missions_are_discarded():
    """L805: his Mission Cards are discarded (no discard reward or penalty,
    Interpretations)."""
    S, p, m = at_fence()
    ks = hand(S, p, "claim_jumper", "demons_bargain")
    S[0]["fame"][p] = 10
    R.kill_hero(S, 0, p)
    assert all(int(S[0]["mission_where"][k]) == MW_DISCARD for k in ks)


# ================================================================ titles (L322-L326, L567)
def at_the_mine(side=0, lineage="human"):
    """A hero at the Mine (Deepdelve's Civilization Location), a Delver there,
    the Mine's card on ``side``."""
    S, p = start(lineages=(lineage,))
    s = S[0]
    card = CIV_CARD_IDS.index("the_mine")
    s["civ_side"][card] = side
    s["civ_clearing"][R.CIV_PACK[card]] = PLAINS_1
    delver = next(i for i, n in enumerate(NATIVE_CHIP_KINDS) if R.NATIVE_GROUP_OF[i] == R.CIV_GROUP[card])
    s["native_clearing"][delver] = PLAINS_1
    return S, p, delver


def test_dd_trade_title_1_requirements_and_a_member_of_the_group_present():
    """L567: a title is claimed if the hero meets the card's requirements and
    a member of its Native Group is present."""
    S, p, delver = at_the_mine()
    t = title("deep_delver")                                     # kills>=5, 5 Gold
    S[0]["gold"][p] = 20
    kill(S, p, "goblin", 4)
    assert not R.claimable(S, 0, p, t)
    kill(S, p, "kobold")
    assert R.claimable(S, 0, p, t)
    S[0]["native_clearing"][delver] = -2                         # the Delver gone
    assert not R.claimable(S, 0, p, t)
    S2, p2, _ = at_the_mine(side=1)
    S2[0]["gold"][p2] = 20
    kill(S2, p2, "goblin", 5)
    assert not R.claimable(S2, 0, p2, t)                         # its side is not up


def test_dd_trade_title_2_claiming_pays_the_price_and_gives_the_reward():
    """L567: a pink cube on the title; the hero pays its price and receives
    its reward, as a Trade Action (a Dwarf: no Human's extra action, L1204)."""
    S, p, _ = at_the_mine(lineage="dwarf")
    t = title("deep_delver")
    S[0]["gold"][p] = 20
    kill(S, p, "goblin", 5)
    lp, fame = int(S[0]["lp"][p]), int(S[0]["fame"][p])
    left = R.actions_left(S, 0, p)
    act(S, TRADE)
    if phase(S) == R.PH_TRADE_WITH:
        act(S, R.A_TITLE + t)
    assert int(S[0]["gold"][p]) == 20 - int(R.TITLE_PRICE[t])
    assert int(S[0]["lp"][p]) == lp + int(R.TITLE_REWARD[t, 0])
    assert int(S[0]["fame"][p]) == fame + int(R.TITLE_REWARD[t, 1])
    assert int(S[0]["title_taken"][t]) == 1 and R.actions_left(S, 0, p) == left - 1


def test_dd_trade_title_3_small_boxes_once_large_boxes_each_trade_action():
    """L567: a small box is claimed once in the game; a large box any
    number of times, one per Trade Action -- up to the side's limit (L326)."""
    S, p, _ = at_the_mine()
    small, large = title("deep_delver"), title("benefactor_of_the_mine")
    S[0]["gold"][p] = 200
    kill(S, p, "goblin", 5)
    R.claim_title(S, 0, p, small)
    assert not R.claimable(S, 0, p, small)
    R.claim_title(S, 0, p, large)
    assert R.claimable(S, 0, p, large)                           # 2 of side 1's limit of 3
    R.claim_title(S, 0, p, large)
    assert int(S[0]["title_claims"][p, large]) == 2
    assert not R.claimable(S, 0, p, large)                       # the limit reached
    out = np.zeros(64, dtype=np.int64)
    assert R.A_TITLE + large not in set(out[:R.mission_options(S, 0, p, out, 0)])


def test_titles_outlaw_requirements():
    """civilization.txt: ``outlaw`` and ``no_outlaw`` requirements read the
    Outlaw Tokens held (L1111)."""
    S, p, _ = at_the_mine(side=1)
    rat = title("tunnel_rat")                                    # outlaw, fame>=10
    S[0]["gold"][p], S[0]["fame"][p] = 20, 10
    assert not R.claimable(S, 0, p, rat)
    S[0]["outlaw"][p] = 1
    assert R.claimable(S, 0, p, rat)
    S3, p3, _ = at_the_mine()
    friend = title("friend_of_the_delvers")                      # no_outlaw, missions>=1
    S3[0]["missions_done"][p3] = 1
    assert R.claimable(S3, 0, p3, friend)
    S3[0]["outlaw"][p3] = 1
    assert not R.claimable(S3, 0, p3, friend)


def test_a_new_hero_starts_with_no_deeds():
    """A new hero (L829) has killed, looted, entered and completed nothing
    for his missions and titles; the small boxes his predecessor claimed
    stay claimed."""
    S, p, _ = at_the_mine()
    kill(S, p, "goblin", 5)
    S[0]["gold"][p] = 20
    R.claim_title(S, 0, p, title("deep_delver"))
    R.clear_hero(S, 0, p)
    assert not S[0]["kills"][p].any() and not S[0]["title_claims"][p].any()
    assert int(S[0]["title_taken"][title("deep_delver")]) == 1


def test_mission_deck_order_and_sides_leave_the_games_other_chance_alone():
    """The Mission Deck and the Civilization Cards draw from a stream of
    their own (tokens.mission_roll): the game's main stream is where the
    set-up left it, whatever the deck holds."""
    S = new_game(num_heroes=2, sandbox=SB_EXPLORE, packs=0b111, seed=9)
    assert int(S[0]["mission_draws"]) > 0
    counter = int(S[0]["rng_counter"])
    R.shuffle_mission_deck(S, 0)
    assert int(S[0]["rng_counter"]) == counter
