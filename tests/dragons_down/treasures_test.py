"""Treasures' powers (the Treasure Manifest, L1280-L1484), one test per card
built so far, and the one-time banner (L916): played through the driver on
Deepdelve (``actions_test``), the hero given his cards by hand.

``equip`` puts a card on the hero through the rules (``equipment.equip_card``),
so what an equipped card gives follows it as in play.
"""
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down import soundness
from dragongym.envs.dragons_down.constants import (
    ACTIONS_PER_TURN, CARD_IDS, CLEAR_CAVE, CLEAR_MOUNTAINS, CLEAR_PLAINS, CLEAR_WOODS, CUBE_MAGIC, CUBE_MIGHT, CUBE_SPEED, CW_HERO, CW_REMOVED,
    SPELL_IDS, CW_CLEARING, CW_DECK, CW_MERCHANT, CW_SITE, DECK_DEEP, DECK_TREASURE, T_PENDING,
    HS_ACTIVE, HST_SNEAK, MERCHANT_IDS, MON_TAKEN, T_BACKPACK, T_CHEST, T_FEET, T_HAND1, T_HANDS, T_MISC1, T_NECK,
    T_WAIST, T_WEAPON1, T_WEAPON2, T_WEAPONS,
)
from dragongym.envs.dragons_down.game import GAME
from tests.dragons_down.actions_test import CAVE_2, MOUNTAINS_4, PLAINS_1, PLAINS_3, act, load, moves, used
from tests.dragons_down.magic_test import book_with
from tests.dragons_down.setup_test import legal
from tests.dragons_down.trade_test import (
    CATACOMBS, GRABBY, LOOT, PAY, TRADE, give, held, merchant, phase, put_pile, start,
)

BLACK, BLUE, GRAY, GREEN, PURPLE, WHITE, YELLOW = range(7)      # data.MAGIC_COLOURS
DONE = R.A_DO + R.DO_DONE
BOOK = 0                                                        # the Learn Die's book (raw draw 0)


def equip(S, p, kind, slot):
    """Give hero p a card of ``kind`` and equip it at ``slot`` through the rules."""
    c = give(S, p, kind)
    R.equip_card(S, 0, p, c, slot)
    return c


def cube(S, p, kind, box=0):
    return int(S[0]["cubes"][p, box, kind])


def sound(S):
    """The record keeps every invariant of ``soundness`` (cubes and Hearts
    as the hero's cards, gains and equipped treasures give them)."""
    problem = soundness.record_problem(S)
    assert problem == "", problem


def use(S, c):
    """Use one-time card c: it must be offered, is named so, and leaves the game."""
    assert R.A_CARD + c in legal(S)
    assert GAME.action_to_string(S, R.A_CARD + c).startswith("use ")
    act(S, R.A_CARD + c)


# ================================================================ the one-time banner (L916)
def test_dd_equip_banner_2_a_one_time_card_is_used_in_the_turn_even_unequipped_and_leaves():
    """L916: a one-time card may be used at any time of its owner's turn,
    even in the backpack; it is then removed from the game. Using it is no
    action (Interpretations)."""
    S, p = start()
    c = give(S, p, "tome_of_nature")
    assert int(S[0]["card_slot"][c]) == T_BACKPACK
    before = cube(S, p, CUBE_MAGIC + GREEN)
    use(S, c)
    assert int(S[0]["card_where"][c]) == CW_REMOVED and used(S, p) == 0 and phase(S) == R.PH_ACTION
    assert cube(S, p, CUBE_MAGIC + GREEN) == before + 1
    sound(S)


def test_dd_equip_banner_2_a_one_time_card_is_also_used_in_hero_tactics():
    """L916: in combat a one-time card is used at the hero's Tactics: a
    Potion of Might drunk there gives a Might Cube he may place this round."""
    from tests.dragons_down.combat_test import TRI_PEAKS_1, ask, combat, start as start_combat
    S = combat([("human", "knight", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),))
    potion = give(S, 0, "potion_of_might")
    start_combat(S)
    while int(S[0]["phase"]) != R.PH_TACTICS:
        act(S, legal(S)[0] if int(S[0]["phase"]) != R.PH_TARGET else next(a for a in legal(S) if a >= R.A_FOE))
    ask(S, R.PH_TACTICS, 0)
    might = cube(S, 0, CUBE_MIGHT)
    use(S, potion)
    assert cube(S, 0, CUBE_MIGHT) == might + 1 and phase(S) == R.PH_TACTICS
    assert int(S[0]["card_where"][potion]) == CW_REMOVED


# ================================================================ cubes for good (L1384, L1386, L1458-L1472)
def _grants(kind, cube_kind):
    S, p = start()
    c = give(S, p, kind)
    before = cube(S, p, cube_kind)
    use(S, c)
    assert cube(S, p, cube_kind) == before + 1 and int(S[0]["cubes_gained"][p]) == 1
    sound(S)
    return S, p


def test_dd_treasure_tome_of_conjuring_1_a_blue_magic_cube_for_good():
    _grants("tome_of_conjuring", CUBE_MAGIC + BLUE)


def test_dd_treasure_tome_of_fay_1_a_yellow_magic_cube_for_good():
    _grants("tome_of_fay", CUBE_MAGIC + YELLOW)


def test_dd_treasure_tome_of_nature_1_a_green_magic_cube_for_good():
    _grants("tome_of_nature", CUBE_MAGIC + GREEN)


def test_dd_treasure_tome_of_power_1_a_purple_magic_cube_for_good():
    _grants("tome_of_power", CUBE_MAGIC + PURPLE)


def test_dd_treasure_tome_of_righteousness_1_a_white_magic_cube_for_good():
    _grants("tome_of_righteousness", CUBE_MAGIC + WHITE)


def test_dd_treasure_tome_of_the_black_arts_1_a_black_magic_cube_for_good():
    _grants("tome_of_the_black_arts", CUBE_MAGIC + BLACK)


def test_dd_treasure_tome_of_tricks_1_a_gray_magic_cube_for_good():
    _grants("tome_of_tricks", CUBE_MAGIC + GRAY)


def test_dd_treasure_potion_of_might_1_a_might_cube_for_good():
    """L1386; the new cube lasts: it is the hero's after the turn, like a printed one."""
    S, p = _grants("potion_of_might", CUBE_MIGHT)
    act(S, R.A_DO + R.DO_PASS)
    assert int(S[0]["cubes_gained"][p]) == 1


def test_dd_treasure_potion_of_maneuver_1_a_speed_cube_for_good():
    _grants("potion_of_maneuver", CUBE_SPEED)


def test_dd_treasure_tome_of_wizardry_1_a_magic_cube_of_the_heros_colour():
    """L1472: the hero chooses the colour, any of the seven."""
    S, p = start()
    c = give(S, p, "tome_of_wizardry")
    use(S, c)
    assert phase(S) == R.PH_CUBE_COLOUR and legal(S) == [R.A_CUBE + CUBE_MAGIC + k for k in range(7)]
    assert GAME.action_to_string(S, R.A_CUBE + CUBE_MAGIC + WHITE) == "take a white Magic Cube"
    before = cube(S, p, CUBE_MAGIC + WHITE)
    act(S, R.A_CUBE + CUBE_MAGIC + WHITE)
    assert cube(S, p, CUBE_MAGIC + WHITE) == before + 1 and int(S[0]["card_where"][c]) == CW_REMOVED
    assert phase(S) == R.PH_ACTION and int(S[0]["use_card"]) == -1
    sound(S)


# ================================================================ other one-time cards
def test_dd_treasure_potion_of_healing_1_every_wounded_cube_returns_healthy():
    """L1382: all cubes of the wounded box, Hearts too (L408), go back to the
    healthy box; with nothing wounded the potion is not offered."""
    S, p = start()
    c = give(S, p, "potion_of_healing")
    assert R.A_CARD + c not in legal(S)
    s = S[0]
    s["hearts"][p, 0] -= 1
    s["hearts"][p, 1] += 1
    s["cubes"][p, 0, CUBE_MIGHT] -= 2
    s["cubes"][p, 1, CUBE_MIGHT] += 2
    use(S, c)
    assert int(s["hearts"][p, 1]) == 0 and int(s["cubes"][p, 1].sum()) == 0
    sound(S)


def test_dd_treasure_potion_of_relief_1_removes_every_curse_never_selectively():
    """L1388: every curse goes at once; uncursed, the potion is not offered."""
    S, p = start()
    c = give(S, p, "potion_of_relief")
    assert R.A_CARD + c not in legal(S)
    S[0]["curses"][p] = (1 << R.CURSE_SLOTH) | (1 << R.CURSE_MISFORTUNE)
    use(S, c)
    assert int(S[0]["curses"][p]) == 0


def test_dd_treasure_alchemists_mixture_1_turns_one_magic_cube_into_another_colour():
    """L1284: the hero picks a colour he holds, then the new colour (any
    other); one cube changes for good, healthy first (Interpretations)."""
    S, p = start()
    s = S[0]
    s["cubes"][p, 0, CUBE_MAGIC + GREEN] = 1
    s["cubes"][p, 1, CUBE_MAGIC + GREEN] = 1
    s["cubes_gained"][p] = 2
    c = give(S, p, "alchemists_mixture")
    use(S, c)
    assert legal(S) == [R.A_CUBE + CUBE_MAGIC + GREEN]
    assert GAME.action_to_string(S, R.A_CUBE + CUBE_MAGIC + GREEN) == "replace a green Magic Cube"
    act(S, R.A_CUBE + CUBE_MAGIC + GREEN)
    assert R.A_CUBE + CUBE_MAGIC + GREEN not in legal(S) and len(legal(S)) == 6
    assert GAME.action_to_string(S, R.A_CUBE + CUBE_MAGIC + BLUE) == "turn the green Magic Cube blue"
    act(S, R.A_CUBE + CUBE_MAGIC + BLUE)
    assert (cube(S, p, CUBE_MAGIC + GREEN), cube(S, p, CUBE_MAGIC + GREEN, 1)) == (0, 1)
    assert cube(S, p, CUBE_MAGIC + BLUE) == 1 and int(s["card_where"][c]) == CW_REMOVED
    sound(S)


def test_interpretation_dd_treasure_a_given_cube_is_not_the_mixtures_to_convert():
    """A cube an equipped treasure gives goes back with the card, so the
    Alchemist's Mixture may not convert it: with only the Ring of Truth's
    white cube the mixture has nothing to work on."""
    S, p = start()
    S[0]["cubes"][p, :, CUBE_MAGIC:] = 0
    S[0]["cubes_gained"][p] = -int(S[0]["cubes"][p].sum()) + int(S[0]["cubes_taken"][p])
    equip(S, p, "ring_of_truth", T_HAND1)
    c = give(S, p, "alchemists_mixture")
    assert cube(S, p, CUBE_MAGIC + WHITE) == 1 and R.A_CARD + c not in legal(S)


def test_dd_treasure_kings_pardon_1_discards_up_to_two_of_the_owners_outlaw_tokens_in_civilization():
    """L1364: only in a Civilization Location (Deepdelve 3), only his own
    tokens, at most two."""
    S, p = start(lineages=("halfling",))
    c = give(S, p, "kings_pardon")
    S[0]["outlaw"][p] = 3
    assert R.A_CARD + c not in legal(S)                        # Deepdelve 1 is no Civilization Location
    act(S, R.A_CLEARING + PLAINS_3)
    use(S, c)
    assert int(S[0]["outlaw"][p]) == 1


def test_dd_treasure_writ_of_redemption_1_one_card_bought_at_1x():
    """L1484: set apart to buy, the card costs 1x its base price with the
    Writ, which leaves the game; offered only while the price is above 1x."""
    S, p = start()
    m, (helmet,) = merchant(S, "blacksmith", ["helmet"])
    price = int(R.KIND_PRICE[CARD_IDS.index("helmet")])
    writ = give(S, p, "writ_of_redemption")
    S[0]["gold"][p] = price
    S[0]["merchant_looked"][p] = 1 << m
    act(S, TRADE)
    act(S, R.A_CARD + helmet)
    assert PAY not in legal(S)
    use(S, writ)
    assert phase(S) == R.PH_BUY and int(S[0]["trade_factor"]) == 1 and R.A_CARD + writ not in legal(S)
    act(S, PAY)
    assert int(S[0]["card_where"][helmet]) == CW_HERO and int(S[0]["gold"][p]) == 0
    assert int(S[0]["card_where"][writ]) == CW_REMOVED


# ================================================================ cubes and Hearts while equipped
def _gives(kind, slot, cube_kind):
    """Equipped, the card adds its cube healthy; unequipped it takes one of
    that kind back, a wounded one first, and keeps it wounded: equipped
    again, it gives it back wounded (Interpretations, "Cubes a treasure
    gives")."""
    S, p = start()
    before = cube(S, p, cube_kind) + cube(S, p, cube_kind, 1)
    c = equip(S, p, kind, slot)
    assert cube(S, p, cube_kind) + cube(S, p, cube_kind, 1) == before + 1
    assert int(S[0]["gift_cubes"][p, cube_kind]) == 1
    sound(S)
    S[0]["cubes"][p, 0, cube_kind] -= 1                       # one of them wounded
    S[0]["cubes"][p, 1, cube_kind] += 1
    healthy = cube(S, p, cube_kind)
    R.equip_card(S, 0, p, c, T_BACKPACK)
    assert cube(S, p, cube_kind, 1) == 0 and cube(S, p, cube_kind) == healthy
    assert cube(S, p, cube_kind) + cube(S, p, cube_kind, 1) == before
    assert int(S[0]["gift_wounded"][cube_kind]) == 1
    sound(S)
    R.equip_card(S, 0, p, c, slot)
    assert cube(S, p, cube_kind, 1) == 1 and cube(S, p, cube_kind) == healthy
    assert int(S[0]["gift_wounded"][cube_kind]) == 0
    sound(S)


def test_dd_treasure_belt_of_the_beast_1_one_more_might_cube_while_equipped():
    _gives("belt_of_the_beast", T_WAIST, CUBE_MIGHT)


def test_dd_treasure_earthen_cincture_1_a_green_magic_cube_while_equipped():
    _gives("earthen_cincture", T_WAIST, CUBE_MAGIC + GREEN)


def test_dd_treasure_incanters_jewel_1_a_blue_magic_cube_while_equipped():
    _gives("incanters_jewel", T_NECK, CUBE_MAGIC + BLUE)


def test_dd_treasure_ring_of_malevolence_1_a_black_magic_cube_while_equipped():
    _gives("ring_of_malevolence", T_HAND1, CUBE_MAGIC + BLACK)


def test_dd_treasure_ring_of_truth_1_a_white_magic_cube_while_equipped():
    _gives("ring_of_truth", T_HAND1, CUBE_MAGIC + WHITE)


def test_dd_treasure_robe_of_the_chanter_1_a_yellow_magic_cube_while_equipped():
    _gives("robe_of_the_chanter", T_CHEST, CUBE_MAGIC + YELLOW)


def test_dd_treasure_scepter_of_the_sorcerer_1_a_purple_magic_cube_while_equipped():
    _gives("scepter_of_the_sorcerer", T_WEAPON1, CUBE_MAGIC + PURPLE)


def test_dd_treasure_tricksters_stone_1_a_gray_magic_cube_while_equipped():
    _gives("tricksters_stone", T_MISC1, CUBE_MAGIC + GRAY)


def test_dd_treasure_robust_ring_1_one_more_health_while_equipped():
    """L1402 with L765-L766: health is the healthy Hearts, plus one with the
    Robust Ring (Interpretations, "Robust Ring"): the Ogre's 4 that kills the
    Archer's 4 Hearts (DD-COMBAT-DAMAGE-15) only wounds him with the ring on."""
    from tests.dragons_down.combat_test import ARCHER, NO_SYMBOL, TRI_PEAKS_1, ask, combat, passive
    from tests.dragons_down.combat_test import give as give_at, start as start_combat
    S = combat([ARCHER], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL])
    ring = give_at(S, 0, "robust_ring", T_HAND1)
    assert R.hero_health(S, 0, 0) == 5
    start_combat(S)
    passive(S, 0)
    ask(S, R.PH_ARMOR, 0)
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_WOUND, 0)
    assert int(S[0]["hero_state"][0]) == HS_ACTIVE and int(S[0]["hearts"][0, 0]) == 4
    S[0]["card_slot"][ring] = T_BACKPACK
    assert R.hero_health(S, 0, 0) == 4


def test_interpretation_dd_treasure_a_given_cube_lost_may_unequip_armour():
    """L920, L976 with L1304: the Belt of the Beast's Might Cube counts for
    weight; selling the belt takes the cube, and Chainmail (weight 2) worn on
    it goes to the backpack at once."""
    S, p = start()
    s = S[0]
    s["cubes"][p, 0, CUBE_MIGHT] = 1                             # a hero of one Might Cube, none wounded
    belt = equip(S, p, "belt_of_the_beast", T_WAIST)
    assert cube(S, p, CUBE_MIGHT) == 2
    armour = equip(S, p, "chainmail", T_CHEST)
    assert int(s["card_slot"][armour]) == T_CHEST
    R.sell_card(S, 0, p, MERCHANT_IDS.index("blacksmith"), belt)
    assert int(s["gift_cubes"][p, CUBE_MIGHT]) == 0 and cube(S, p, CUBE_MIGHT) == 1
    assert int(s["card_slot"][armour]) == T_BACKPACK


# ================================================================ attributes (L1294, L1316, L1420)
def _attribute(kind, attr):
    S, p = start()
    before = R.hero_attribute(S, 0, p, attr)
    c = equip(S, p, kind, T_MISC1)
    assert R.hero_attribute(S, 0, p, attr) == before + 1
    R.equip_card(S, 0, p, c, T_BACKPACK)
    assert R.hero_attribute(S, 0, p, attr) == before
    return S, p, c


def test_dd_treasure_bauble_of_intelligence_1_one_more_cunning():
    _attribute("bauble_of_intelligence", R.ATTR_CUNNING)


def test_dd_treasure_charismatic_gemstone_1_one_more_charisma_counts_in_haggling():
    """L1316 with L989: the Blacksmith respects Charisma: the haggle number rises by one."""
    S, p, c = _attribute("charismatic_gemstone", R.ATTR_CHARISMA)
    blacksmith = MERCHANT_IDS.index("blacksmith")
    before = R.haggle_number(S, 0, p, blacksmith)
    R.equip_card(S, 0, p, c, T_MISC1)
    assert R.haggle_number(S, 0, p, blacksmith) == before + 1


def test_dd_treasure_sparkler_of_wisdom_1_one_more_wisdom():
    _attribute("sparkler_of_wisdom", R.ATTR_WISDOM)


# ================================================================ the Symbols (L1432-L1448)
def _symbol(kind, lineage="halfling", cls="knight"):
    """A non-Human (no civilization action) on Deepdelve 1 with the Symbol equipped."""
    S, p = start(lineages=(lineage,), classes=(cls,))
    equip(S, p, kind, T_MISC1)
    return S, p


def test_dd_treasure_symbol_of_motion_1_one_move_a_turn_outside_the_action_limit():
    """L1442: the first Move of the turn is not counted; the second is. With
    every action spent, that free Move is still open, and nothing else but
    Pass is."""
    S, p = _symbol("symbol_of_motion")
    act(S, R.A_CLEARING + PLAINS_3)
    assert used(S, p) == 0
    act(S, R.A_CLEARING + PLAINS_1)
    assert used(S, p) == 1
    S, p = _symbol("symbol_of_motion")
    for _ in range(ACTIONS_PER_TURN):
        act(S, R.A_DO + R.DO_SNEAK)
    assert phase(S) == R.PH_ACTION and used(S, p) == ACTIONS_PER_TURN
    assert moves(S) == [PLAINS_3] and R.A_DO + R.DO_SNEAK not in legal(S)  # the cave needs a second action
    act(S, R.A_CLEARING + PLAINS_3)
    assert int(S[0]["hero_clearing"][p]) == PLAINS_3 and (phase(S) != R.PH_ACTION or int(S[0]["to_play"]) != p)


def test_interpretation_dd_treasure_a_symbol_pays_one_action_of_a_costlier_action():
    """A Symbol's action does not count against the limit: of a Move into a
    Mountain Clearing (two actions, L477) the Symbol of Motion pays one."""
    S, p = _symbol("symbol_of_motion")
    act(S, R.A_DO + R.DO_SNEAK)
    act(S, R.A_CLEARING + PLAINS_3)                          # no action counted, and none left to pay
    assert used(S, p) == 1
    act(S, R.A_CLEARING + MOUNTAINS_4)
    assert used(S, p) == 3
    S, p = _symbol("symbol_of_motion")
    act(S, R.A_CLEARING + PLAINS_3)
    act(S, R.A_CLEARING + MOUNTAINS_4)                        # the free Move is the first one
    assert used(S, p) == 2


def test_dd_treasure_symbol_of_rest_1_one_rest_a_turn_outside_the_action_limit():
    """L1444: a quick rest (two actions, L550) costs one with the Symbol of Rest."""
    S, p = _symbol("symbol_of_rest")
    S[0]["hearts"][p, 0] -= 1
    S[0]["hearts"][p, 1] += 1
    act(S, R.A_DO + R.DO_QUICK_REST)
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert used(S, p) == 1


def test_dd_treasure_symbol_of_stealth_1_one_sneak_a_turn_outside_the_action_limit():
    S, p = _symbol("symbol_of_stealth")
    act(S, R.A_DO + R.DO_SNEAK)
    assert used(S, p) == 0
    act(S, R.A_DO + R.DO_SNEAK)
    assert used(S, p) == 1


def test_dd_treasure_symbol_of_alertness_1_one_alert_a_turn_outside_the_action_limit():
    S, p = _symbol("symbol_of_alertness")
    act(S, R.A_DO + R.DO_ALERT)
    act(S, DONE)
    assert used(S, p) == 0


def test_dd_treasure_symbol_of_vision_1_one_search_a_turn_outside_the_action_limit():
    S, p = _symbol("symbol_of_vision", lineage="dwarf")
    act(S, R.A_CLEARING + CAVE_2)                 # a Dwarf: no action lost to the cave
    assert used(S, p) == 1
    load(S, 0, 3)
    act(S, R.A_SEARCH + 0)
    assert used(S, p) == 1


def test_dd_treasure_symbol_of_greed_1_one_loot_a_turn_outside_the_action_limit():
    S, p = _symbol("symbol_of_greed")
    put_pile(S, CATACOMBS, ["golden_icon"], finders=[p])
    load(S, GRABBY, 1)
    act(S, R.A_DO + R.DO_LOOT)
    while phase(S) != R.PH_ACTION:
        act(S, legal(S)[0])
    assert used(S, p) == 0


def test_dd_treasure_symbol_of_commerce_1_one_trade_a_turn_outside_the_action_limit():
    S, p = _symbol("symbol_of_commerce")
    m, _ = merchant(S, "blacksmith", ["helmet"])
    act(S, TRADE)
    if phase(S) == R.PH_TRADE_WITH:
        act(S, R.A_MERCHANT + m)
    act(S, DONE)
    assert phase(S) == R.PH_ACTION and used(S, p) == 0


def test_dd_treasure_symbol_of_knowledge_1_one_learn_a_turn_outside_the_action_limit():
    S, p = _symbol("symbol_of_knowledge", cls="druid")
    c, (natures,) = book_with(S, p, "natures_help")
    load(S, BOOK, BOOK)
    act(S, R.A_SPELL + natures)
    assert used(S, p) == 0


def test_dd_treasure_symbol_of_magic_1_one_enchant_a_turn_outside_the_action_limit():
    """L1440: the first of the three Enchant Actions is free: a hero with one
    action spent still enchants in the turn (three from the three left)."""
    S, p = _symbol("symbol_of_magic", cls="druid")
    act(S, R.A_DO + R.DO_SNEAK)
    act(S, R.A_DO + R.DO_SNEAK)
    assert R.A_ENCHANT + GREEN in legal(S)                  # two left and the free one
    for _ in range(3):
        act(S, R.A_ENCHANT + GREEN)
    assert int(S[0]["tile_enchant"][PLAINS_1 // 6]) == GREEN and used(S, p) == 4


def test_dd_treasure_symbols_only_when_equipped():
    """L980: an unequipped card has no effect: a Symbol in the backpack frees nothing."""
    S, p = start(lineages=("halfling",))
    give(S, p, "symbol_of_stealth")
    act(S, R.A_DO + R.DO_SNEAK)
    assert used(S, p) == 1


def test_dd_treasure_free_actions_are_lost_with_a_pass():
    """L612: a Pass ends the hero's actions, a Symbol's free one with them."""
    S, p = _symbol("symbol_of_stealth")
    act(S, R.A_DO + R.DO_PASS)
    assert int(S[0]["free_used"][p]) == 0xFFFF


# ================================================================ caves, Sneak and Alert, enchanting
def test_dd_treasure_taper_of_illumination_1_no_action_lost_to_caves():
    """L1452: like a Dwarf (L1198), the hero loses no action to a Cave
    Clearing, and may enter one with his last action."""
    S, p = start(lineages=("halfling",))
    equip(S, p, "taper_of_illumination", T_MISC1)
    act(S, R.A_CLEARING + CAVE_2)
    assert used(S, p) == 1
    act(S, R.A_DO + R.DO_SNEAK)
    act(S, R.A_CLEARING + PLAINS_1)
    assert used(S, p) == 3 and CAVE_2 in moves(S)


def test_dd_treasure_mirror_of_idolatry_1_no_sneak_or_alert_while_possessed():
    """L1370: possessing the Mirror (a Backpack Special card, always face
    up) forbids Sneak and Alert; a Sneak taken before stands."""
    S, p = start()
    act(S, R.A_DO + R.DO_SNEAK)
    give(S, p, "mirror_of_idolatry")
    assert R.A_DO + R.DO_SNEAK not in legal(S) and R.A_DO + R.DO_ALERT not in legal(S)
    assert int(S[0]["hero_status"][p]) & HST_SNEAK


def test_dd_treasure_ring_of_the_magi_1_enchanting_needs_one_action_fewer():
    """L1396: two consecutive Enchant Actions enchant the tile."""
    S, p = start(classes=("druid",))
    equip(S, p, "ring_of_the_magi", T_HAND1)
    act(S, R.A_ENCHANT + GREEN)
    act(S, R.A_ENCHANT + GREEN)
    assert int(S[0]["tile_enchant"][PLAINS_1 // 6]) == GREEN and used(S, p) == 2


def test_dd_class_enchanter_1_enchants_with_one_action_fewer():
    """L1218: an Enchanter enchants with two Enchant Actions; with the Ring
    of the Magi too, with one (the two add up, Interpretations)."""
    S, p = start(classes=("enchanter",))
    colour = next(k for k in range(7) if R.A_ENCHANT + k in legal(S))
    act(S, R.A_ENCHANT + colour)
    assert int(S[0]["tile_enchant"][PLAINS_1 // 6]) == -1
    act(S, R.A_ENCHANT + colour)
    assert int(S[0]["tile_enchant"][PLAINS_1 // 6]) == colour
    S, p = start(classes=("enchanter",))
    equip(S, p, "ring_of_the_magi", T_HAND1)
    act(S, R.A_ENCHANT + colour)
    assert int(S[0]["tile_enchant"][PLAINS_1 // 6]) == colour and used(S, p) == 1



# ================================================================ in combat: boxes filled for free, more boxes (L1280-L1484)
def _fighter(kind=None, target=None, hero=None, wounds=0):
    """The Knight (long sword: one mandatory and one optional might box, 1
    sword) against an Ogre (health 4, ``wounds`` on it) in Tri Peaks 1,
    with a card of ``kind`` equipped at ``target``; at his Target step."""
    from tests.dragons_down.combat_test import KNIGHT, NO_SYMBOL, TRI_PEAKS_1, chip, combat
    from tests.dragons_down.combat_test import give as give_at, start as start_combat
    S = combat([hero or KNIGHT], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL])
    card = give_at(S, 0, kind, target) if kind else -1
    ogre = chip(S, "ogre")
    S[0]["foe_wounds"][ogre] = wounds
    start_combat(S)
    return S, card, ogre


def _tactics(S, ogre):
    from tests.dragons_down.combat_test import target
    target(S, 0, ogre)
    assert phase(S) == R.PH_TACTICS


def weapon(S):
    return int(R.hero_weapon(S, 0, 0))


def test_dd_treasure_gauntlets_of_brawn_1_count_as_a_might_cube_in_an_existing_box():
    """L1346: the Gauntlets fill the long sword's mandatory box, outside the
    limit: one Might Cube more fills it, and with it the Knight deals 3 --
    enough for an Ogre with one wound, which his one cube alone only wounds
    (DD-COMBAT-DAMAGE-10)."""
    from tests.dragons_down.combat_test import place
    S, _, ogre = _fighter("gauntlets_of_brawn", T_HANDS, wounds=1)
    _tactics(S, ogre)
    assert tuple(R.might_open(S, 0, 0, weapon(S))) == (0, 1) and DONE in legal(S)
    act(S, R.A_BOX + R.BOX_MIGHT)
    assert R.A_BOX + R.BOX_MIGHT not in legal(S) and R.weapon_might(S, 0, 0, weapon(S)) == 2
    place(S, 0, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert int(S[0]["mon_clearing"][ogre]) == MON_TAKEN


def test_dd_treasure_battle_staff_1_its_required_box_is_filled_for_free():
    """L1292: the Battle Staff's mandatory box fills itself: with no cube
    placed the Knight's attack is ready, and two optional boxes take cubes."""
    S, staff, ogre = _fighter("battle_staff", T_WEAPONS)
    _tactics(S, ogre)
    assert weapon(S) == staff and tuple(R.might_open(S, 0, 0, staff)) == (0, 2)
    assert R.weapon_might(S, 0, 0, staff) == 1 and R.hero_attack_ready(S, 0, 0) and DONE in legal(S)


def test_dd_treasure_mace_of_smiting_1_a_required_box_is_filled_for_free():
    S, mace, ogre = _fighter("mace_of_smiting", T_WEAPON1)
    _tactics(S, ogre)
    assert weapon(S) == mace and tuple(R.might_open(S, 0, 0, mace)) == (0, 2)
    assert R.weapon_might(S, 0, 0, mace) == 1 and R.hero_attack_ready(S, 0, 0)


def test_dd_treasure_adamantium_blade_1_its_optional_box_is_filled_for_free():
    """L1282: the optional box fills itself; the mandatory one still takes a cube."""
    S, blade, ogre = _fighter("adamantium_blade", T_WEAPON1)
    _tactics(S, ogre)
    assert weapon(S) == blade and tuple(R.might_open(S, 0, 0, blade)) == (1, 1)
    assert not R.hero_attack_ready(S, 0, 0) and DONE in legal(S)
    act(S, R.A_BOX + R.BOX_MIGHT)
    assert R.weapon_might(S, 0, 0, blade) == 2 and R.A_BOX + R.BOX_MIGHT not in legal(S)


def test_dd_treasure_ring_of_strength_1_fills_the_optional_box_of_the_weapon():
    """L1394: the long sword's optional box is filled by the ring; a weapon
    whose optional box fills itself (the Adamantium Blade) gains nothing."""
    S, _, ogre = _fighter("ring_of_strength", T_HAND1)
    _tactics(S, ogre)
    assert tuple(R.might_open(S, 0, 0, weapon(S))) == (1, 1)
    act(S, R.A_BOX + R.BOX_MIGHT)
    assert R.weapon_might(S, 0, 0, weapon(S)) == 2
    from tests.dragons_down.combat_test import give as give_at
    blade = give_at(S, 0, "adamantium_blade", T_WEAPON1)
    assert tuple(R.might_given(S, 0, 0, blade)) == (0, 1)


def test_dd_treasure_gloves_of_aggression_1_count_as_a_speed_cube_in_an_attack_box():
    """L1348: one more attack speed outside the limit, in an existing box:
    the Knight's three attack boxes take two cubes more."""
    S, _, ogre = _fighter("gloves_of_aggression", T_HANDS)
    _tactics(S, ogre)
    assert R.speed_boxes(S, 0, 0, R.BOX_ATTACK) == R.printed_speed_boxes(S, 0, 0, R.BOX_ATTACK) - 1
    act(S, R.A_BOX + R.BOX_ATTACK)
    assert R.hero_speed(S, 0, 0) == 2


def test_dd_treasure_talaria_of_the_gladiator_1_count_as_a_speed_cube_in_a_maneuver_box():
    """L1450: one more maneuver speed outside the limit; it counts when evading too."""
    S, _, ogre = _fighter("talaria_of_the_gladiator", T_FEET)
    assert R.hero_maneuver(S, 0, 0) == 1
    assert R.speed_boxes(S, 0, 0, R.BOX_MANEUVER) == R.printed_speed_boxes(S, 0, 0, R.BOX_MANEUVER) - 1
    speed = cube(S, 0, CUBE_SPEED)
    assert R.evade_cubes(S, 0, 0) == min(speed, R.speed_boxes(S, 0, 0, R.BOX_MANEUVER)) + 1


def test_dd_treasure_quick_ring_1_a_speed_cube_on_it_adds_maneuver_speed():
    S, _, ogre = _fighter("quick_ring", T_HAND1)
    assert R.speed_boxes(S, 0, 0, R.BOX_MANEUVER) == R.printed_speed_boxes(S, 0, 0, R.BOX_MANEUVER) + 1


def test_dd_treasure_clashing_ring_1_a_speed_cube_on_it_adds_attack_speed():
    """L1318: one more attack box (its cube counts against the limit)."""
    S, _, ogre = _fighter("clashing_ring", T_HAND1)
    S[0]["cubes"][0, 0, CUBE_SPEED] += 1                       # Speed Cubes for every box
    _tactics(S, ogre)
    printed = R.printed_speed_boxes(S, 0, 0, R.BOX_ATTACK)
    assert R.speed_boxes(S, 0, 0, R.BOX_ATTACK) == printed + 1
    for _ in range(printed + 1):
        act(S, R.A_BOX + R.BOX_ATTACK)
    assert R.hero_speed(S, 0, 0) == printed + 1


def test_dd_treasure_shoes_of_the_thief_1_evade_as_with_three_maneuver_cubes():
    """L1416: the Archer (speed cubes in the Ogre's way cut to one) evades
    as if three maneuver cubes were placed; never faster."""
    from tests.dragons_down.combat_test import ARCHER
    S, _, ogre = _fighter("shoes_of_the_thief", T_FEET, hero=ARCHER)
    S[0]["cubes"][0, 1, CUBE_SPEED] += int(S[0]["cubes"][0, 0, CUBE_SPEED]) - 1
    S[0]["cubes"][0, 0, CUBE_SPEED] = 1
    assert R.evade_cubes(S, 0, 0) == 3


def test_dd_treasure_potion_of_energy_1_one_more_speed_cube_each_round_until_combat_ends():
    """L1378 with L916: only in combat (a combat effect); drunk at Tactics,
    the cube limit is one more for the rest of the combat."""
    S, p = start()
    potion = give(S, p, "potion_of_energy")
    assert R.A_CARD + potion not in legal(S)                     # not in the Action Phase
    S, potion, ogre = _fighter("potion_of_energy", T_BACKPACK)
    _tactics(S, ogre)
    limit = R.cube_limit(S, 0, 0)
    use(S, potion)
    assert R.cube_limit(S, 0, 0) == limit + 1
    R.end_of_combat(S, 0)
    assert R.cube_limit(S, 0, 0) == limit


# ================================================================ rerolls (L1326, L1336, L1354, L1356, L1408)
def _searcher(kind, slot, clearing, lineage="dwarf"):
    """A Dwarf Knight (no cave loss, no Barbarian's reroll) with the card
    equipped, moved into ``clearing`` of Deepdelve, beside the Hidden Path
    between Deepdelve 2 and 4."""
    S, p = start(lineages=(lineage,))
    equip(S, p, kind, slot)
    for c in {MOUNTAINS_4: (PLAINS_3, MOUNTAINS_4), CAVE_2: (CAVE_2,)}[clearing]:
        act(S, R.A_CLEARING + c)
    return S, p


def _found(S, p):
    return int(S[0]["hidden_found"][p].sum())


def test_dd_treasure_hamblens_pendant_1_rerolls_a_search_die_in_mountains():
    """L1354: a blank Search Die of a search in a Mountain Clearing is rolled
    again (spyglass, blank -> spyglass: found); the same dice without the
    pendant fail (DD-SEARCH-1)."""
    S, p = _searcher("hamblens_pendant", T_NECK, MOUNTAINS_4)
    load(S, 0, 3, 1)
    act(S, R.A_SEARCH + 0)
    assert _found(S, p) == 1


def test_dd_treasure_diggers_ruin_1_rerolls_a_search_die_in_caves():
    S, p = _searcher("diggers_ruin", T_MISC1, CAVE_2)
    load(S, 0, 3, 1)
    act(S, R.A_SEARCH + 0)
    assert _found(S, p) == 1


def test_dd_treasure_diggers_ruin_1_rerolls_nothing_elsewhere():
    """Digger's Ruin works in a Cave Clearing only: in Deepdelve 4 (mountains)
    the blank stands and the search fails."""
    S, p = _searcher("diggers_ruin", T_MISC1, MOUNTAINS_4)
    load(S, 0, 3, 1)
    act(S, R.A_SEARCH + 0)
    assert _found(S, p) == 0


def test_dd_treasure_elven_amulet_1_rerolls_a_search_die_in_woods():
    """L1336: Deepdelve has no woods: the reroll count the search asks for is
    one in a Woods Clearing, none in any other."""
    S, p = _searcher("elven_amulet", T_NECK, CAVE_2)
    assert R.search_rerolls(S, 0, p, CLEAR_WOODS) == 1
    assert R.search_rerolls(S, 0, p, CLEAR_CAVE) == 0


def test_dd_treasure_hawkeye_1_rerolls_a_search_die_in_plains():
    S, p = _searcher("hawkeye", T_MISC1, CAVE_2)
    assert R.search_rerolls(S, 0, p, CLEAR_PLAINS) == 1
    assert R.search_rerolls(S, 0, p, CLEAR_MOUNTAINS) == 0


def test_dd_treasure_shadow_cloak_1_a_failed_hide_is_rolled_again_once_a_turn():
    """L1408: blocked by a Goblin in Deepdelve 3, the hero's hide fails
    (a Monster symbol) and is rolled again, both dice: two blanks, hidden.
    The second failure of the turn is not rolled again."""
    from tests.dragons_down.actions_test import put_monster
    S, p = start(lineages=("halfling",), classes=("rogue",))
    equip(S, p, "shadow_cloak", T_NECK)
    put_monster(S, "goblin", PLAINS_3)
    act(S, R.A_CLEARING + PLAINS_3)
    load(S, 0, 2, 1, 2, 3)                      # symbol, blank (the Halfling's reroll: symbol), then two blanks
    act(S, R.A_DO + R.DO_HIDE)
    assert int(S[0]["hero_status"][p]) & R.HST_HIDDEN and int(S[0]["turn_powers"][p]) == 1
    S[0]["hero_status"][p] = int(S[0]["hero_status"][p]) & (0xFF ^ R.HST_HIDDEN)
    load(S, 0, 0, 0, 2, 3)
    assert not R.hide_roll(S, 0, p, True)


# ================================================================ Magic Cubes on treasures in Hero Tactics (L1288-L1476)
def _magic(S, **cubes):
    """The Knight's healthy Magic Cubes (hand-built: he has none printed)."""
    for colour, n in cubes.items():
        S[0]["cubes"][0, 0, CUBE_MAGIC + ("black", "blue", "gray", "green", "purple", "white", "yellow").index(colour)] = n


def test_dd_treasure_elven_slippers_1_a_green_cube_on_them_adds_one_maneuver_speed():
    """L1338: in Hero Tactics, beside his other cards, the Knight puts his
    green cube on the Slippers: +1 maneuver speed; the cube counts against
    the limit and may be wounded off them (L787)."""
    import numpy as np
    S, slippers, ogre = _fighter("elven_slippers", T_FEET)
    _magic(S, green=1)
    _tactics(S, ogre)
    assert GAME.action_to_string(S, R.A_CARD + slippers) == "put a Magic Cube on Elven Slippers"
    placed, maneuver = R.cubes_placed(S, 0, 0), R.hero_maneuver(S, 0, 0)
    act(S, R.A_CARD + slippers)
    assert R.hero_maneuver(S, 0, 0) == maneuver + 1 and R.cubes_placed(S, 0, 0) == placed + 1
    assert R.A_CARD + slippers not in legal(S) and R.unplaced(S, 0, 0, CUBE_MAGIC + GREEN) == 0
    out = np.zeros(R.WOUND_CHOICES, dtype=np.int64)
    assert R.A_CARD + slippers in out[:R.wound_choices(S, 0, 0, out)]
    R.apply_wound(S, 0, 0, R.A_CARD + slippers)
    assert R.hero_maneuver(S, 0, 0) == maneuver and cube(S, 0, CUBE_MAGIC + GREEN, 1) == 1


def test_dd_treasure_tricky_ring_1_a_gray_cube_on_it_adds_one_attack_speed():
    S, ring, ogre = _fighter("tricky_ring", T_HAND1)
    _magic(S, gray=1)
    _tactics(S, ogre)
    speed = R.hero_speed(S, 0, 0)
    act(S, R.A_CARD + ring)
    assert R.hero_speed(S, 0, 0) == speed + 1


def test_dd_treasure_ascendant_ornament_1_a_purple_cube_counts_as_a_might_cube_in_a_box():
    """L1288: the purple cube fills a might box of the long sword -- its
    mandatory one -- and counts against the limit like any cube placed."""
    S, ornament, ogre = _fighter("ascendant_ornament", T_NECK)
    _magic(S, purple=1)
    _tactics(S, ogre)
    act(S, R.A_CARD + ornament)
    sword = weapon(S)
    assert tuple(R.might_open(S, 0, 0, sword)) == (0, 1) and R.weapon_might(S, 0, 0, sword) == 1
    assert R.hero_attack_ready(S, 0, 0) and R.cubes_placed(S, 0, 0) == 1


def test_dd_treasure_decimation_1_a_black_cube_raises_its_damage():
    """L1324 (Interpretations): two Might Cubes and its sword deal 3, a wound
    on the Ogre (health 4); with the black cube on Decimation, 4: the kill."""
    from tests.dragons_down.combat_test import place
    for black, killed in ((0, False), (1, True)):
        S, axe, ogre = _fighter("decimation", T_WEAPONS)
        _magic(S, black=black)
        _tactics(S, ogre)
        assert weapon(S) == axe
        if black:
            act(S, R.A_CARD + axe)
        place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
        assert (int(S[0]["mon_clearing"][ogre]) == MON_TAKEN) == killed


def test_dd_treasure_shamans_kaftan_1_armour_only_with_a_magic_cube_on_it():
    """L1410: without a cube the Kaftan is ignored (no armour to take a hit
    on); any colour turns it into armour -- the hero chooses which, in secret."""
    S, kaftan, ogre = _fighter("shamans_kaftan", T_CHEST)
    _magic(S, green=1, blue=1)
    _tactics(S, ogre)
    assert not R.armor_worn(S, 0, 0, kaftan)
    act(S, R.A_CARD + kaftan)
    assert phase(S) == R.PH_CUBE_COLOUR and not GAME.decision_is_public(S, R.A_CUBE + CUBE_MAGIC + GREEN)
    assert GAME.action_to_string(S, R.A_CUBE + CUBE_MAGIC + GREEN) == "put a green Magic Cube on Shaman's Kaftan"
    act(S, R.A_CUBE + CUBE_MAGIC + GREEN)
    assert R.armor_worn(S, 0, 0, kaftan) and phase(S) == R.PH_TACTICS and int(S[0]["card_cube"][kaftan]) == 1 + GREEN


def test_dd_treasure_shield_of_mercy_1_a_white_cube_on_it_means_no_wound_from_a_blocked_hit():
    """L1414: the Ogre's 4 on the Shield of Mercy (armour 2) destroys it, but
    with the white cube on it the Knight takes no wound."""
    from tests.dragons_down.combat_test import ask, place
    S, shield, ogre = _fighter("shield_of_mercy", T_WEAPON2)
    _magic(S, white=1)
    from tests.dragons_down.combat_test import target
    target(S, 0, None)
    ask(S, R.PH_TACTICS, 0)
    act(S, R.A_CARD + shield)
    place(S, 0)
    ask(S, R.PH_ARMOR, 0)
    act(S, R.A_CARD + shield)
    assert int(S[0]["card_where"][shield]) == CW_REMOVED and tuple(S[0]["hearts"][0]) == (5, 0)
    assert int(S[0]["hero_state"][0]) == HS_ACTIVE and phase(S) != R.PH_WOUND
    # no wound, so the round stays quiet (L781): a hero blocking every hit
    # with it does not keep the combat going round after round
    assert int(S[0]["round_wounds"]) == 0


def test_a_magic_cube_on_a_treasure_is_secret_from_the_other_seats_in_hero_tactics():
    """L714, L724: like every placement, the cube on a treasure is the
    hero's secret until all have placed: the text picture names it for him
    and for no other seat; after Hero Tactics every seat sees it."""
    from dragongym.envs.dragons_down import view as V
    from dragongym.envs.dragons_down.text_picture import picture
    S, slippers, ogre = _fighter("elven_slippers", T_FEET)
    _magic(S, green=1)
    _tactics(S, ogre)
    act(S, R.A_CARD + slippers)
    assert V.treasure_cubes(S, 0, 0) == [("Elven Slippers", "green")]
    assert V.treasure_cubes(S, 0, 1) == [] and V.treasure_cubes(S, 0, None) == [("Elven Slippers", "green")]
    assert "cubes on: Elven Slippers (green)" in picture(S[0], 0)
    assert "Elven Slippers (green)" not in picture(S[0], 1)
    S[0]["combat_step"] = R.CS_RESOLVE
    assert V.treasure_cubes(S, 0, 1) == [("Elven Slippers", "green")]


# ================================================================ moving (L1344)
def test_dd_treasure_garb_of_the_gate_1_moves_to_any_revealed_gate_as_if_by_a_path():
    """L1344: from Deepdelve 1, with no Gate there, the Garb's wearer may Move
    to the one revealed Gate's clearing (Deepdelve 4), at its cost (a Mountain
    Clearing: two actions, L477); without the Garb he may not (L479 asks for
    two Gates and one in his clearing)."""
    S, p = start(lineages=("halfling",))
    gate = next(w for w in range(len(R.WILD_GATE)) if R.WILD_GATE[w])
    S[0]["wild_where"][gate], S[0]["wild_clearing"][gate] = R.TOK_PLACED, MOUNTAINS_4
    assert MOUNTAINS_4 not in moves(S)
    equip(S, p, "garb_of_the_gate", T_CHEST)
    assert MOUNTAINS_4 in moves(S)
    act(S, R.A_CLEARING + MOUNTAINS_4)
    assert int(S[0]["hero_clearing"][p]) == MOUNTAINS_4 and used(S, p) == 2


# ================================================================ one-time cards against a hit or a wound (L1312, L1352)
def _struck(kind, target):
    """The Knight, passive, with a card of ``kind`` at ``target``, hit by the Ogre (4 damage)."""
    from tests.dragons_down.combat_test import ask, passive
    S, card, ogre = _fighter(kind, target)
    passive(S, 0)
    ask(S, R.PH_ARMOR, 0)
    return S, card


def test_dd_treasure_broche_of_deflection_1_cancels_one_hit_on_the_wearer():
    """L1312: offered with the armour when the hit lands; used, the hit is
    cancelled -- no damage to armour or Hero -- and the Broche leaves the game."""
    S, broche = _struck("broche_of_deflection", T_NECK)
    assert GAME.action_to_string(S, R.A_CARD + broche) == "cancel the hit with Broche of Deflection"
    mail = next(c for c in range(len(S[0]["card_where"])) if R.armor_worn(S, 0, 0, c))
    act(S, R.A_CARD + broche)
    s = S[0]
    assert int(s["card_where"][broche]) == CW_REMOVED and tuple(s["hearts"][0]) == (5, 0)
    assert int(s["card_damaged"][mail]) == 0 and int(s["card_where"][mail]) == CW_HERO and phase(S) != R.PH_WOUND


def test_dd_treasure_guard_charm_1_discarded_instead_of_one_wound():
    """L1352: the Ogre's 4 on no armour wounds the Knight (5 Hearts): the
    charm, in his backpack (one-time, L916), is discarded instead."""
    from tests.dragons_down.combat_test import ask
    S, charm = _struck("guard_charm", T_BACKPACK)
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_WOUND, 0)
    assert GAME.action_to_string(S, R.A_CARD + charm) == "discard Guard Charm instead of the wound"
    cubes = S[0]["cubes"][0].copy()
    act(S, R.A_CARD + charm)
    s = S[0]
    assert int(s["card_where"][charm]) == CW_REMOVED and tuple(s["hearts"][0]) == (5, 0)
    assert (s["cubes"][0] == cubes).all()


# ================================================================ the DisEnchanter (L1328)
def test_dd_treasure_disenchanter_1_clears_its_tiles_magic_cube_and_bars_enchanting():
    """L1328: the Druid on a green-enchanted Deepdelve may enchant it again;
    once he holds the DisEnchanter (always face up, L960) the tile's cube is
    removed after his next decision, the tile not flipped, and no Enchant
    Action is offered there."""
    S, p = start(classes=("druid",))
    t = PLAINS_1 // 6
    S[0]["tile_enchant"][t] = GREEN
    side = int(S[0]["tile_side"][t])
    assert R.A_ENCHANT + GREEN in legal(S)
    give(S, p, "disenchanter")
    assert R.disenchanted_tile(S, 0) == t and R.A_ENCHANT + GREEN not in legal(S)
    act(S, R.A_DO + R.DO_SNEAK)
    assert int(S[0]["tile_enchant"][t]) == -1 and int(S[0]["tile_side"][t]) == side


# ================================================================ instantaneous treasures (L962, L1320, L1340, L1404)
def deck_of(S, deck, kinds):
    """Leave in ``deck`` (DECK_*) only one card of each of ``kinds``, in
    card order (the others out of the game), so a draw's raw pick is the
    kind's place in that order. Returns the cards kept."""
    s = S[0]
    keep = []
    for kind in kinds:
        k = CARD_IDS.index(kind)
        keep.append(next(c for c in range(len(s["card_where"])) if R.CARD_KIND[c] == k
                         and int(s["card_where"][c]) == CW_DECK and int(R.CARD_DECK[c]) == deck and c not in keep))
    for c in range(len(s["card_where"])):
        if int(s["card_where"][c]) == CW_DECK and int(R.CARD_DECK[c]) == deck and c not in keep:
            s["card_where"][c] = CW_REMOVED
    return sorted(keep)


def copy_in(S, kind, deck):
    """A card of ``kind`` from ``deck`` still free (DECK_TREASURE or DECK_DEEP)."""
    k = CARD_IDS.index(kind)
    return next(c for c in range(len(S[0]["card_where"])) if R.CARD_KIND[c] == k
                and int(S[0]["card_where"][c]) == CW_DECK and int(R.CARD_DECK[c]) == deck)


def to_merchant(S, m, c):
    S[0]["card_where"][c], S[0]["card_owner"][c], S[0]["card_slot"][c] = CW_MERCHANT, m, -1
    return c


def on_pile(S, p, cards):
    """A Treasure Pile of exactly ``cards`` (top first) found by p in his clearing."""
    s = S[0]
    for i, c in enumerate(cards):
        s["card_where"][c], s["card_owner"][c], s["card_slot"][c] = CW_SITE, CATACOMBS, i
    s["site_clearing"][CATACOMBS] = int(s["hero_clearing"][p])
    s["site_opened"][CATACOMBS] = 1
    s["site_found"][p, CATACOMBS] = 1


SLOTH, CLUMSINESS, WEAKNESS = 2, 3, 4                     # raw d6 draws on the Curse Table (curses.txt)


def test_dd_treasure_cursed_treasure_1_replaced_from_its_deck_and_the_looter_cursed():
    """L1320: a Cursed Treasure looted is replaced by a card drawn from the
    Treasure deck, which the Hero receives instead; the Hero rolls on the
    Curse Table; the Cursed Treasure leaves the game."""
    S, p = start()
    cursed = copy_in(S, "cursed_treasure", DECK_TREASURE)
    on_pile(S, p, [cursed])
    key, = deck_of(S, DECK_TREASURE, ["skeleton_key"])
    load(S, 1, 1, 0, SLOTH)                               # loot 1; the draw; the Curse Table
    act(S, LOOT)
    assert int(S[0]["card_where"][cursed]) == CW_REMOVED
    assert held(S, p, key) and phase(S) == R.PH_RECEIVED     # the key waits to be equipped or stowed
    assert R.curse_held(S, 0, p, R.CURSE_SLOTH)
    sound(S)


def test_dd_treasure_cursed_treasure_1_a_deep_one_is_replaced_by_a_deep_treasure_in_succession():
    """L1320: a Deep Cursed Treasure draws a Deep Treasure Card; a replacement
    that is cursed too acts in turn (two curses), then the next card comes."""
    S, p = start()
    deep = copy_in(S, "cursed_treasure", DECK_DEEP)
    on_pile(S, p, [deep])
    blade = copy_in(S, "adamantium_blade", DECK_DEEP)
    s = S[0]
    for c in range(len(s["card_where"])):                 # the Deep deck: only the blade
        if int(s["card_where"][c]) == CW_DECK and int(R.CARD_DECK[c]) == DECK_DEEP and c != blade:
            s["card_where"][c] = CW_REMOVED
    load(S, 1, 1, 0, SLOTH)
    act(S, LOOT)
    assert held(S, p, blade) and R.CARD_DECK[blade] == DECK_DEEP
    S2, p2 = start()
    first = copy_in(S2, "cursed_treasure", DECK_TREASURE)
    on_pile(S2, p2, [first])
    kept = deck_of(S2, DECK_TREASURE, ["cursed_treasure", "skeleton_key"])
    second = next(c for c in kept if R.CARD_KIND[c] == CARD_IDS.index("cursed_treasure"))
    key = next(c for c in kept if c != second)
    load(S2, 1, 1, kept.index(second), SLOTH, 0, WEAKNESS)
    act(S2, LOOT)
    assert int(S2[0]["card_where"][first]) == CW_REMOVED and int(S2[0]["card_where"][second]) == CW_REMOVED
    assert held(S2, p2, key)
    assert R.curse_held(S2, 0, p2, R.CURSE_SLOTH) and R.curse_held(S2, 0, p2, R.CURSE_WEAKNESS)


def test_dd_treasure_cursed_treasure_2_viewing_it_at_a_merchant_curses_the_hero():
    """L1320: the curse comes even if the Hero only viewed the card: a Look
    at a Merchant's stock replaces the Cursed Treasure there and curses the
    Hero, who buys nothing."""
    S, p = start()
    m, _ = merchant(S, "fence", ["mirror_of_idolatry"])
    cursed = to_merchant(S, m, copy_in(S, "cursed_treasure", DECK_TREASURE))
    key, = deck_of(S, DECK_TREASURE, ["skeleton_key"])
    S[0]["gold"][p] = 50
    act(S, TRADE)
    load(S, 0, CLUMSINESS)
    act(S, R.A_STEP + R.STEP_LOOK)
    assert int(S[0]["card_where"][cursed]) == CW_REMOVED
    assert int(S[0]["card_where"][key]) == CW_MERCHANT and int(S[0]["card_owner"][key]) == m
    assert R.curse_held(S, 0, p, R.CURSE_CLUMSINESS) and R.has_looked(S, 0, p, m)
    assert R.A_CARD + key in legal(S)                     # the replacement is on sale, seen


def test_dd_treasure_cursed_treasure_2_seen_among_the_top_three_of_a_grabby_loot():
    """L526, L1320: two grabby hands show the top three cards; a Cursed
    Treasure among them is replaced in its place and curses the Hero, who
    then keeps one of the three he sees."""
    S, p = start()
    dagger_pile = [copy_in(S, "alchemists_mixture", DECK_TREASURE), copy_in(S, "cursed_treasure", DECK_TREASURE),
                   copy_in(S, "disenchanter", DECK_TREASURE), copy_in(S, "adamantium_blade", DECK_DEEP)]
    on_pile(S, p, dagger_pile)
    key, = deck_of(S, DECK_TREASURE, ["skeleton_key"])
    load(S, GRABBY, GRABBY, 0, SLOTH)
    act(S, LOOT)
    assert phase(S) == R.PH_LOOT_KEEP and R.curse_held(S, 0, p, R.CURSE_SLOTH)
    assert int(S[0]["card_slot"][key]) == 1 and int(S[0]["card_owner"][key]) == CATACOMBS
    assert legal(S) == sorted(R.A_CARD + c for c in (dagger_pile[0], key, dagger_pile[2]))


def test_dd_treasure_enchanted_treasure_1_viewed_it_enchants_the_tile_and_is_replaced():
    """L1340: an Enchanted Treasure seen at a Merchant is replaced there by a
    card from the Treasure deck; the Hero's Map Tile is flipped over and
    enchanted with a Magic Cube of the card's colour; the card leaves."""
    S, p = start()
    m, _ = merchant(S, "fence")
    enchanted = to_merchant(S, m, copy_in(S, "enchanted_treasure_green", DECK_TREASURE))
    key, = deck_of(S, DECK_TREASURE, ["skeleton_key"])
    t = int(S[0]["hero_clearing"][p]) // 6
    side = int(S[0]["tile_side"][t])
    act(S, TRADE)
    load(S, 0)
    act(S, R.A_STEP + R.STEP_LOOK)
    assert int(S[0]["card_where"][enchanted]) == CW_REMOVED
    assert int(S[0]["card_where"][key]) == CW_MERCHANT
    assert int(S[0]["tile_side"][t]) == 1 - side and int(S[0]["tile_enchant"][t]) == GREEN
    assert int(S[0]["curses"][p]) == 0


def test_dd_treasure_satchel_of_a_giant_1_looted_it_gives_two_treasure_cards():
    """L1404: the Hero draws and keeps two Treasure Cards (not Deep), then
    the Satchel leaves the game; both wait to be equipped or stowed."""
    S, p = start()
    satchel = copy_in(S, "satchel_of_a_giant", DECK_TREASURE)
    on_pile(S, p, [satchel])
    key, mirror = deck_of(S, DECK_TREASURE, ["skeleton_key", "mirror_of_idolatry"])
    load(S, 1, 1, 0, 0)
    act(S, LOOT)
    assert int(S[0]["card_where"][satchel]) == CW_REMOVED
    assert held(S, p, key) and held(S, p, mirror)
    assert phase(S) == R.PH_RECEIVED
    while phase(S) == R.PH_RECEIVED:
        act(S, R.A_TARGET + T_BACKPACK)
    assert phase(S) == R.PH_ACTION
    sound(S)


def test_interpretation_instants_the_satchel_acts_only_in_a_heros_hands():
    """Interpretations, "Instantaneous treasures": the Satchel prints no
    "even if viewed", so a Look leaves it on sale (at three times its
    authored price); bought, it gives its two cards."""
    S, p = start()
    m, (satchel,) = merchant(S, "fence", ["satchel_of_a_giant"])
    key, mirror = deck_of(S, DECK_TREASURE, ["skeleton_key", "mirror_of_idolatry"])
    S[0]["gold"][p] = 3 * int(R.KIND_PRICE[R.CARD_KIND[satchel]])
    act(S, TRADE)
    act(S, R.A_STEP + R.STEP_LOOK)
    assert int(S[0]["card_where"][satchel]) == CW_MERCHANT
    act(S, R.A_CARD + satchel)
    load(S, 0, 0)
    act(S, PAY)
    assert int(S[0]["card_where"][satchel]) == CW_REMOVED and held(S, p, key) and held(S, p, mirror)


def test_dd_equip_banner_22_an_instant_card_gained_from_a_token_acts_before_it_is_placed():
    """L962: an instantaneous treasure acts at once and leaves the game: a
    Cursed Treasure gained (a Treasure token) is never offered a position;
    its replacement is."""
    S, p = start()
    cursed = copy_in(S, "cursed_treasure", DECK_TREASURE)
    S[0]["card_where"][cursed], S[0]["card_owner"][cursed], S[0]["card_slot"][cursed] = CW_HERO, p, T_PENDING
    key, = deck_of(S, DECK_TREASURE, ["skeleton_key"])
    load(S, 0, SLOTH)
    act(S, R.A_DO + R.DO_SNEAK)                           # the action phase comes back to the hero
    assert int(S[0]["card_where"][cursed]) == CW_REMOVED and R.curse_held(S, 0, p, R.CURSE_SLOTH)
    assert phase(S) == R.PH_GAINED and int(S[0]["card_slot"][key]) == T_PENDING and held(S, p, key)


# ================================================================ summoning treasures (L1360, L1430)
def _summoner(kind, tiles, where="hero", dice=()):
    """A Knight in the first tile's clearing 1 with ``kind`` face up: in his
    hands, or lying in his clearing (a dead hero's, L960); the Summoning Dice."""
    from tests.dragons_down.activation_test import battle, clearing
    hero = clearing(tiles[0], 1)
    S = battle(tiles, [("knight", hero)], dice=dice)
    k = CARD_IDS.index(kind)
    c = next(c for c in range(len(S[0]["card_where"])) if R.CARD_KIND[c] == k)
    S[0]["card_where"][c], S[0]["card_owner"][c] = (CW_HERO, 0) if where == "hero" else (CW_CLEARING, hero)
    S[0]["card_revealed"][c] = 1
    return S, hero, c


def test_dd_treasure_icon_of_the_dragon_1_its_tile_summons_the_dragons():
    """L1360: on Hag's Mire (Wicked Woods, eye: Ogre) the Icon summons as if
    the Malevolent Mountains symbol (Juvenile Dragons) and the sound symbol
    (the Adult Dragon) were printed: one of each comes on those faces; none
    without the Icon."""
    from tests.dragons_down.activation_test import MOUNTAINS, ONE, at
    SOUND = 2
    S, hero, _ = _summoner("icon_of_the_dragon", ["hags_mire"], dice=[MOUNTAINS, ONE, SOUND, ONE])
    R.start_activation(S, 0)
    assert at(S, hero) == ["adult_dragon", "juvenile_dragon"]
    S, hero, icon = _summoner("icon_of_the_dragon", ["hags_mire"], dice=[MOUNTAINS, ONE, SOUND, ONE])
    S[0]["card_revealed"][icon] = 0                       # face down, unseen: not active (L960)
    S[0]["card_where"][icon] = CW_DECK
    R.start_activation(S, 0)
    assert at(S, hero) == []


def test_dd_treasure_icon_of_the_dragon_1_never_twice_where_the_symbols_are_printed():
    """L1360: on Dragon's Spine (Malevolent Mountains, sound: Adult Dragon)
    the dragons come once, as printed."""
    from tests.dragons_down.activation_test import MOUNTAINS, ONE, at
    SOUND = 2
    S, hero, _ = _summoner("icon_of_the_dragon", ["dragons_spine"], dice=[MOUNTAINS, ONE, SOUND, ONE])
    R.start_activation(S, 0)
    assert at(S, hero) == ["adult_dragon", "juvenile_dragon"]


def test_dd_treasure_icon_of_the_dragon_1_lying_in_a_clearing_it_still_summons():
    """L1360, L960: fallen face up in a clearing, the Icon still makes its
    tile summon for the heroes there."""
    from tests.dragons_down.activation_test import MOUNTAINS, ONE, at
    S, hero, _ = _summoner("icon_of_the_dragon", ["hags_mire"], where="clearing", dice=[MOUNTAINS, ONE, 5, ONE])
    R.start_activation(S, 0)
    assert at(S, hero) == ["juvenile_dragon"]


def test_dd_treasure_summoning_marcation_1_adjacent_local_symbols_summon_here():
    """L1430: with the Marcation on Hag's Mire, the sound face summons Echo
    Grotto's Kobolds (dual dice: 1 + 1) from the adjacent tile; a tile two
    away adds nothing, and Hag's Mire's own eye still summons its Ogre."""
    from tests.dragons_down.activation_test import BLANK, ONE, EYE, at
    SOUND = 2
    S, hero, _ = _summoner("summoning_marcation", ["hags_mire", "echo_grotto"], dice=[BLANK, ONE, SOUND, ONE])
    R.start_activation(S, 0)
    assert at(S, hero) == ["kobold", "kobold"]
    S, hero, _ = _summoner("summoning_marcation", ["hags_mire", "tri_peaks", "echo_grotto"],
                           dice=[BLANK, ONE, SOUND, ONE])
    R.start_activation(S, 0)
    assert at(S, hero) == []
    S, hero, _ = _summoner("summoning_marcation", ["hags_mire", "gloomhollow"], dice=[BLANK, ONE, EYE, ONE])
    R.start_activation(S, 0)
    assert at(S, hero) == ["giant_spider", "ogre"]


# ================================================================ the Thief's Lucky Coin (L1454)
def test_dd_treasure_thiefs_lucky_coin_1_one_loot_action_rolls_a_single_die():
    """L1454: used before a Loot Action (offered only where one is open), the
    coin makes it roll one Loot Die: a grabby hand alone shows the top three
    (two dice would need two hands); then it is gone."""
    S, p = start()
    coin = give(S, p, "thiefs_lucky_coin")
    assert R.A_CARD + coin not in legal(S)                # no Loot Action open: not offered
    cards = put_pile(S, CATACOMBS, ["alchemists_mixture", "skeleton_key", "disenchanter"], finders=[p])
    use(S, coin)
    assert R.A_CARD + coin not in legal(S) and used(S, p) == 0
    load(S, GRABBY, 3)
    act(S, LOOT)
    assert phase(S) == R.PH_LOOT_KEEP
    assert legal(S) == sorted(R.A_CARD + c for c in cards)
    act(S, R.A_CARD + cards[0])
    assert int(S[0]["turn_powers"][p]) & R.TP_LUCKY_COIN == 0


# ================================================================ Nature's Help on a search (L1542)
def _helped(S, p):
    """Nature's Help in play on hero p (cast on him in last turn's combat)."""
    k = SPELL_IDS.index("natures_help")
    sp = next(sp for sp in range(len(S[0]["spell_on"])) if R.SPELL_KIND[sp] == k)
    S[0]["spell_where"][sp], S[0]["spell_owner"][sp] = R.SPW_KNOWN, p
    S[0]["spell_on"][sp] = R.AIM_HERO + p
    return sp


def test_dd_spell_natures_help_1_rerolls_the_blank_dice_of_one_search():
    """L1542: Nature's Help on the hero rerolls the dice of one Search
    Action: two blanks are rolled again (two spyglasses: found); the next
    failing search of the turn has no reroll (Interpretations, "Nature's
    Help": the blanks, of the first search that fails)."""
    S, p = _searcher("hamblens_pendant", T_BACKPACK, CAVE_2)
    _helped(S, p)
    load(S, 3, 3, 0, 1)
    act(S, R.A_SEARCH + 0)
    assert _found(S, p) == 1
    S, p = _searcher("hamblens_pendant", T_BACKPACK, CAVE_2)
    sp = _helped(S, p)
    load(S, 3, 3, 3, 4)                                   # blank twice, and again: spent, not found
    act(S, R.A_SEARCH + 0)
    assert _found(S, p) == 0 and int(S[0]["spell_mark"][sp]) == 1
    load(S, 3, 5, 0, 0)                                   # the next search: its own dice only
    act(S, R.A_SEARCH + 0)
    assert _found(S, p) == 0


# ================================================================ cards used for a round's attack (L1358, L1456)
def _at_tactics(kind, monsters=(("giant_spider", "tri_peaks_1"),), cls="knight", status=0):
    """A hero of ``cls`` in Tri Peaks 1 holding a ``kind`` card, at his Hero
    Tactics against ``monsters`` (he targets the first foe when asked)."""
    from tests.dragons_down.combat_test import TRI_PEAKS_1, ask, combat, start as start_combat
    mons = tuple((k, TRI_PEAKS_1 if c == "tri_peaks_1" else c) for k, c in monsters)
    S = combat([("human", cls, TRI_PEAKS_1, status)], monsters=mons)
    card = give(S, 0, kind)
    start_combat(S)
    while int(S[0]["phase"]) != R.PH_TACTICS:
        act(S, legal(S)[0] if int(S[0]["phase"]) != R.PH_TARGET else next(a for a in legal(S) if a >= R.A_FOE))
    ask(S, R.PH_TACTICS, 0)
    return S, card


def test_dd_treasure_horn_of_the_dark_angel_1_its_attack_casts_fiery_chasm_without_cubes():
    """L1358: used, no cube may go on a Weapon or Spell Card that round; the
    hero's attack, at the speed of his Speed Cubes, casts Fiery Chasm with no
    Magic Cube: the Giant Spider is killed, and the Knight -- unhidden, not
    flying -- is struck too and dies (L1508: the caster too)."""
    from tests.dragons_down.combat_test import NO_SYMBOL
    S, horn = _at_tactics("horn_of_the_dark_angel")
    spider = next(f for f in range(R.NUM_MONSTER_CHIPS) if int(S[0]["mon_clearing"][f]) >= 0)
    assert R.A_BOX + R.BOX_MIGHT in legal(S)
    use(S, horn)
    assert R.A_BOX + R.BOX_MIGHT not in legal(S) and R.A_BOX + R.BOX_ATTACK in legal(S)
    assert not any(R.A_SPELL <= a < R.A_SPELL + R.NUM_SPELLS for a in legal(S))
    magic = int(S[0]["cubes"][0, 0, CUBE_MAGIC:].sum())
    load(S, NO_SYMBOL)                                    # Monster Tactics: the spider keeps its side
    for _ in range(3):                                    # the third fills the last box: Tactics end, the round resolves
        act(S, R.A_BOX + R.BOX_ATTACK)
    assert int(S[0]["mon_clearing"][spider]) == MON_TAKEN and int(S[0]["mon_taker"][spider]) == 0
    assert phase(S) == R.PH_LINEAGE and magic == 0        # he died: his seat makes a new hero (L829)


def test_dd_treasure_time_stone_1_an_attack_that_ties_on_maneuver_speed_hits():
    """L1456: used at Tactics, the hero's attack this round that ties on
    maneuver speed hits without the Hit Dice (here blanks, a miss without
    it); the stone's attack is then spent."""
    S, stone = _at_tactics("time_stone")
    spider = next(f for f in range(R.NUM_MONSTER_CHIPS) if int(S[0]["mon_clearing"][f]) >= 0)
    use(S, stone)
    assert int(S[0]["treasure_combat"][0]) & R.TC_TIME_STONE
    maneuver = R.foe_maneuver(S, 0, spider)
    assert R.stone_tie(S, 0, 0, maneuver, maneuver)
    assert not R.stone_tie(S, 0, 0, maneuver, maneuver)   # spent
    S, stone = _at_tactics("time_stone")
    use(S, stone)
    assert not R.stone_tie(S, 0, 0, 3, 2) and int(S[0]["treasure_combat"][0]) & R.TC_TIME_STONE


def test_dd_treasure_artificers_concoction_1_a_ranged_weapon_gone_after_one_attack():
    """L1286: a ranged weapon of one use: wielded, the Knight attacks the
    Giant Spider with it (a ranged attack: he may ambush with it hidden) and
    it leaves the game with that attack."""
    from tests.dragons_down.combat_test import NO_SYMBOL, TRI_PEAKS_1, ask, combat, start as start_combat
    S = combat([("human", "knight", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),))
    s = S[0]
    for c in range(len(s["card_where"])):                 # his sword to the backpack
        if int(s["card_where"][c]) == CW_HERO and int(s["card_owner"][c]) == 0 and int(s["card_slot"][c]) in (T_WEAPON1, T_WEAPON2, T_WEAPONS):
            s["card_slot"][c] = T_BACKPACK
    flask = equip(S, 0, "artificers_concoction", T_WEAPON1)
    assert R.hero_weapon(S, 0, 0) == flask and R.ranged_armed(S, 0, 0)
    start_combat(S)
    while int(S[0]["phase"]) != R.PH_TACTICS:
        act(S, legal(S)[0] if int(S[0]["phase"]) != R.PH_TARGET else next(a for a in legal(S) if a >= R.A_FOE))
    ask(S, R.PH_TACTICS, 0)
    load(S, NO_SYMBOL, 0, 0, 0, 0, 0, 0)
    act(S, R.A_BOX + R.BOX_MIGHT)
    while int(S[0]["phase"]) == R.PH_TACTICS and int(S[0]["card_where"][flask]) == CW_HERO:
        act(S, R.A_BOX + R.BOX_ATTACK if R.A_BOX + R.BOX_ATTACK in legal(S) else DONE)
    assert int(S[0]["card_where"][flask]) == CW_REMOVED


# ================================================================ Hit Die rerolls (L1290, L1480)
def test_dd_treasure_wand_of_the_magician_1_a_targeted_spells_missing_dice_are_rerolled():
    """L1480: casting a targeted spell with the Wand, a roll that misses
    rerolls its one or two dice not showing a hit (blank + hit -> the blank
    again: a hit); without the Wand the blank misses. A weapon's roll is no
    spell's: no reroll."""
    from tests.dragons_down.combat_test import BLANK, HIT, TRI_PEAKS_1, combat
    S = combat([("human", "sorcerer", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),))
    load(S, BLANK, HIT, HIT)
    assert R.hero_roll_to_hit(S, 0, 0, 2, 2, True) and int(S[0]["loaded_pos"]) == 3
    load(S, BLANK, HIT, HIT)
    assert not R.hero_roll_to_hit(S, 0, 0, 2, 2, False)
    assert not R.wand_held(S, 0, 0)
    equip(S, 0, "wand_of_the_magician", T_WEAPON2)
    assert R.wand_held(S, 0, 0)


def test_dd_treasure_band_of_sagacity_1_a_yellow_cube_rerolls_one_roll_a_round():
    """L1290: with a yellow Magic Cube on it (placed in Hero Tactics beside
    the round's other cards), the Band rerolls one Hit Die roll by or
    against its hero a Combat Round: a hit against him is rolled again (two
    blanks: a miss); the next hit that round stands. A new round, a new
    reroll (its cube placed again)."""
    S, band = _at_tactics("band_of_sagacity")
    s = S[0]
    R.equip_card(S, 0, 0, band, T_HAND1)
    s["cubes"][0, 0, CUBE_MAGIC + YELLOW] = 1
    assert R.A_CARD + band in legal(S)
    act(S, R.A_CARD + band)
    assert int(s["card_cube"][band]) == 1 + YELLOW
    from tests.dragons_down.combat_test import BLANK, HIT
    load(S, HIT, HIT, BLANK, BLANK)
    assert not R.roll_against_hero(S, 0, 0, 2, 2, False)
    load(S, HIT, HIT)
    assert R.roll_against_hero(S, 0, 0, 2, 2, False) and int(s["loaded_pos"]) == 6
    R.round_powers_end(S, 0, 0)
    load(S, BLANK, BLANK, HIT, HIT)                       # by him: a miss rolled again
    assert R.hero_roll_to_hit(S, 0, 0, 2, 2, False)


def test_dd_treasure_cursed_treasure_2_the_replacement_at_a_merchant_is_unknown_to_the_others():
    """L1320, L558: the card replacing a Cursed Treasure seen at a Merchant is
    seen by the Hero who looked, not by one who had looked before: he no
    longer knows all of the stock (as after a sale, L559)."""
    S, p = start(num_heroes=2)
    q = 1 - p
    m, _ = merchant(S, "fence", ["mirror_of_idolatry"])
    to_merchant(S, m, copy_in(S, "cursed_treasure", DECK_TREASURE))
    deck_of(S, DECK_TREASURE, ["skeleton_key"])
    S[0]["merchant_looked"][q] = 1 << m
    act(S, TRADE)
    load(S, 0, CLUMSINESS)
    act(S, R.A_STEP + R.STEP_LOOK)
    assert R.has_looked(S, 0, p, m) and not R.has_looked(S, 0, q, m)


def test_dd_treasure_magical_bowl_of_mixing_1_a_blue_cube_on_it_converts_a_cube_between_its_colours():
    """L1368: in Hero Tactics the Knight puts a blue Magic Cube on the Bowl
    (it counts in the cube limit like any cube on a card) and chooses the
    direction: one of his green Magic Cubes becomes purple, for good. The
    Bowl shows green and purple (data/treasures.txt, authored); with no cube
    of either colour it takes no cube."""
    S, bowl, ogre = _fighter("magical_bowl_of_mixing", R.T_MISC1)
    _magic(S, blue=1)
    _tactics(S, ogre)
    assert R.A_CARD + bowl not in legal(S)                      # nothing to convert
    _magic(S, blue=1, green=2)
    assert R.A_CARD + bowl in legal(S)
    act(S, R.A_CARD + bowl)
    assert int(S[0]["card_cube"][bowl]) == 1 + BLUE and int(R.cubes_placed(S, 0, 0)) == 1
    assert phase(S) == R.PH_CUBE_COLOUR
    choices = [a - R.A_CUBE - CUBE_MAGIC for a in legal(S)]
    assert choices == [GREEN]                                   # no purple cube to turn green
    assert GAME.action_to_string(S, R.A_CUBE + CUBE_MAGIC + GREEN) == \
        "turn a green Magic Cube purple with Magical Bowl of Mixing"
    act(S, R.A_CUBE + CUBE_MAGIC + GREEN)
    assert phase(S) == R.PH_TACTICS
    assert cube(S, 0, CUBE_MAGIC + GREEN) == 1 and cube(S, 0, CUBE_MAGIC + PURPLE) == 1
    assert R.A_CARD + bowl not in legal(S)                      # one cube on it a round
