"""The Hero Board's cards (L936-L981): starting equipment, positions,
weapons and shields, weight, and the Alert Action's equipping."""
import numpy as np

from dragongym.envs.dragons_down import data as D
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CARD_IDS, CUBE_MIGHT, CW_DECK, CW_HERO, HST_ALERT, NUM_CARDS, T_BACKPACK, T_CHEST, T_HEAD,
    T_HEAD_CHEST, T_WEAPON1, T_WEAPON2, T_WEAPONS,
)
from tests.dragons_down.actions_test import PLAINS_1, act, deepdelve, used


def cards_of(S, p=0):
    """{card id: [targets]} of p's cards."""
    out = {}
    for c in range(NUM_CARDS):
        if S[0]["card_where"][c] == CW_HERO and S[0]["card_owner"][c] == p:
            out.setdefault(CARD_IDS[R.CARD_KIND[c]], []).append(int(S[0]["card_slot"][c]))
    return out


def give(S, kind, p=0, target=T_BACKPACK):
    """Hand p a card of ``kind`` from its deck, at ``target``; returns it."""
    k = CARD_IDS.index(kind)
    c = next(c for c in range(NUM_CARDS) if R.CARD_KIND[c] == k and S[0]["card_where"][c] == CW_DECK)
    S[0]["card_where"][c], S[0]["card_owner"][c], S[0]["card_slot"][c] = CW_HERO, p, target
    return c


def test_dd_setup_hero_8_starting_equipment_is_taken_and_equipped():
    """L201: the hero takes the equipment its face-up Class Card lists and
    places it in the matching positions: the Knight's (side 1) long sword and
    shield in the two weapon positions, its chainmail on the chest."""
    S = deepdelve(classes=("knight",))
    assert D.REALM.classes["knight"].sides[0].equipment == ("long_sword", "shield", "chainmail")
    assert cards_of(S) == {"long_sword": [T_WEAPON1], "shield": [T_WEAPON2], "chainmail": [T_CHEST]}
    S = deepdelve(classes=("barbarian",))
    assert cards_of(S) == {"battle_axe": [T_WEAPONS], "helmet": [T_HEAD]}


def test_dd_equip_1_one_weapon_and_one_shield_at_most():
    """L974: no more than one weapon in the weapon positions, nor two shields."""
    S = deepdelve(classes=("knight",))
    dagger = give(S, "dagger")
    sword = next(c for c in range(NUM_CARDS) if S[0]["card_slot"][c] == T_WEAPON1 and S[0]["card_where"][c] == CW_HERO)
    assert not R.target_legal(S, 0, 0, dagger, T_WEAPON2)       # beside the long sword: a second weapon
    assert R.target_legal(S, 0, 0, dagger, T_WEAPON1)           # in the sword's place: the sword is unequipped
    shield = give(S, "shield")
    assert not R.target_legal(S, 0, 0, shield, T_WEAPON1)       # a second shield beside the first
    R.equip_card(S, 0, 0, dagger, T_WEAPON1)
    assert int(S[0]["card_slot"][sword]) == T_BACKPACK          # L973: the displaced card goes to the backpack


def test_dd_equip_2_head_and_chest_cards_fill_both_positions():
    """L944: a head-and-chest card fills both positions; L973: equipping it
    unequips the cards there."""
    S = deepdelve(classes=("knight",))
    S[0]["cubes"][0, 0, CUBE_MIGHT] = 3                         # plate armour weighs 3
    plate = give(S, "plate_armor")
    assert R.target_legal(S, 0, 0, plate, T_HEAD_CHEST) and not R.target_legal(S, 0, 0, plate, T_HEAD)
    R.equip_card(S, 0, 0, plate, T_HEAD_CHEST)
    assert cards_of(S)["chainmail"] == [T_BACKPACK]
    helmet = give(S, "helmet")
    R.equip_card(S, 0, 0, helmet, T_HEAD)
    assert int(S[0]["card_slot"][plate]) == T_BACKPACK


def test_dd_equip_weight_needs_healthy_might_cubes():
    """L920, L976: a card is equipped only with as many healthy Might Cubes as
    its weight, and is unequipped at once when they are no longer there."""
    S = deepdelve(classes=("knight",))
    chain = next(c for c in range(NUM_CARDS) if S[0]["card_slot"][c] == T_CHEST and S[0]["card_where"][c] == CW_HERO)
    assert int(R.KIND_WEIGHT[R.CARD_KIND[chain]]) == 2
    S[0]["cubes"][0, 0, CUBE_MIGHT] = 2
    assert R.target_legal(S, 0, 0, chain, T_CHEST)
    S[0]["cubes"][0, 0, CUBE_MIGHT] -= 1
    S[0]["cubes"][0, 1, CUBE_MIGHT] += 1
    R.enforce_weight(S, 0, 0)
    assert int(S[0]["card_slot"][chain]) == T_BACKPACK and not R.target_legal(S, 0, 0, chain, T_CHEST)
    assert cards_of(S)["long_sword"] == [T_WEAPON1]             # weight 1: still carried


def test_dd_action_alert_1_alert_equips_and_unequips_freely_for_one_action():
    """L463, L979: the Alert Action lets the hero unequip and equip any of its
    cards, and marks the Alert status; it costs one action."""
    S = deepdelve(classes=("knight",))
    act(S, R.A_CLEARING + PLAINS_1)
    act(S, R.A_DO + R.DO_ALERT)
    assert int(S[0]["phase"]) == R.PH_ALERT and int(S[0]["hero_status"][0]) & HST_ALERT and used(S) == 1
    shield = next(c for c in range(NUM_CARDS) if S[0]["card_slot"][c] == T_WEAPON2 and S[0]["card_where"][c] == CW_HERO)
    act(S, R.A_CARD + shield)
    assert R.A_TARGET + T_BACKPACK in R_legal(S) and R.A_TARGET + T_WEAPON2 not in R_legal(S)
    act(S, R.A_TARGET + T_BACKPACK)
    assert int(S[0]["phase"]) == R.PH_ALERT
    act(S, R.A_CARD + shield)
    act(S, R.A_TARGET + T_WEAPON2)
    act(S, R.A_DO + R.DO_DONE)
    assert int(S[0]["phase"]) == R.PH_ACTION and used(S) == 1 and cards_of(S)["shield"] == [T_WEAPON2]


def R_legal(S):
    from tests.dragons_down.setup_test import legal
    return legal(S)


def test_dd_fate_newhero_3_missing_starting_item_pays_its_price():
    """L823: if a starting item is not available the hero receives its sale
    price in Gold instead."""
    S = deepdelve(classes=("knight",))
    k = CARD_IDS.index("plate_armor")
    for c in range(NUM_CARDS):
        if R.CARD_KIND[c] == k:
            S[0]["card_where"][c] = 2                           # out of the game
    gold = int(S[0]["gold"][0])
    R.take_starting_item(S, 0, 0, k)
    assert int(S[0]["gold"][0]) == gold + D.REALM.items["plate_armor"].price
