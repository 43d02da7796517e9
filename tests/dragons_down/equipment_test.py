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


# ---------------------------------------------------------------- the healthy box (L384, L408)
def take(S, kind, p=0, target=T_BACKPACK):
    """Hand p a card of ``kind`` from its deck or a Merchant's stock; returns it."""
    k = CARD_IDS.index(kind)
    c = next(c for c in range(NUM_CARDS) if R.CARD_KIND[c] == k and S[0]["card_where"][c] in (CW_DECK, R.CW_MERCHANT))
    S[0]["card_where"][c], S[0]["card_owner"][c], S[0]["card_slot"][c] = CW_HERO, p, target
    return c


def seat_of(S, cls):
    from dragongym.envs.dragons_down.constants import CLASS_IDS
    return int(np.flatnonzero(S[0]["hero_class"][:int(S[0]["num_players"])] == CLASS_IDS.index(cls))[0])


def held(S, p, kind):
    return next(c for c in range(NUM_CARDS) if S[0]["card_where"][c] == CW_HERO and S[0]["card_owner"][c] == p
                and CARD_IDS[R.CARD_KIND[c]] == kind)
def test_dd_comp_board_2_only_healthy_cubes_are_usable():
    """L384: Action Cubes in the healthy box are usable, those in the wounded
    box are not: with two healthy and two wounded Might Cubes the Knight may
    not equip plate armour (weight 3, L976), nor open the Massive Door (4
    healthy Might, L1240), and in combat he has only his healthy cubes to
    place (L714)."""
    S = deepdelve(classes=("knight",))
    rec = S[0]
    rec["cubes"][0, 0, CUBE_MIGHT], rec["cubes"][0, 1, CUBE_MIGHT] = 2, 2
    plate = take(S, "plate_armor")
    assert not R.target_legal(S, 0, 0, plate, R.T_HEAD_CHEST)
    rec["cubes"][0, 0, CUBE_MIGHT] = 3
    assert R.target_legal(S, 0, 0, plate, R.T_HEAD_CHEST)
    rec["hero_clearing"][0] = PLAINS_1
    assert not R.can_open_door(S, 0, 0)                         # 3 healthy and 2 wounded: 5 Might, 3 usable
    rec["cubes"][0, 0, CUBE_MIGHT], rec["cubes"][0, 1, CUBE_MIGHT] = 4, 0
    assert R.can_open_door(S, 0, 0)
    rec["cubes"][0, 0, CUBE_MIGHT], rec["cubes"][0, 1, CUBE_MIGHT] = 1, 3
    assert R.unplaced(S, 0, 0, CUBE_MIGHT) == 1


def test_dd_comp_cubes_4_hearts_count_as_action_cubes():
    """L408: Hearts are Action Cubes for all purposes: a random Action Cube
    wounded (the Hidden Trap's, L1248) may be a Heart, a wound in combat may
    be taken on one (L787), and a rest heals one like any cube (L550)."""
    from tests.dragons_down.actions_test import load
    S = deepdelve(classes=("knight",))
    rec = S[0]
    hearts = int(rec["hearts"][0, 0])
    load(S, 0)                                                   # the first of the healthy cubes: a Heart
    R.wound_random_cube(S, 0, 0)
    assert list(rec["hearts"][0]) == [hearts - 1, 1]
    load(S, hearts - 1)                                          # past the Hearts left: the first Might Cube
    might = int(rec["cubes"][0, 0, CUBE_MIGHT])
    R.wound_random_cube(S, 0, 0)
    assert int(rec["cubes"][0, 1, CUBE_MIGHT]) == 1 and int(rec["cubes"][0, 0, CUBE_MIGHT]) == might - 1
    out = np.zeros(16, dtype=np.int64)
    n = R.wound_choices(S, 0, 0, out)
    assert R.A_HEAL + R.HEAL_HEART in [int(x) for x in out[:n]]
    act(S, R.A_CLEARING + PLAINS_1)
    act(S, R.A_DO + R.DO_QUICK_REST)
    assert R.A_HEAL + R.HEAL_HEART in R_legal(S)


# ---------------------------------------------------------------- the Position banners (L936-L962)
BODY = {"neck": R.T_NECK, "waist": R.T_WAIST, "feet": R.T_FEET, "head": R.T_HEAD, "chest": R.T_CHEST}


def targets(S, c, p=0):
    return [t for t in range(R.NUM_TARGETS) if R.target_legal(S, 0, p, c, t)]


def test_dd_equip_banner_11_body_position_cards_fill_their_position():
    """L936-L944: a neck, waist, feet, head or chest card goes on that
    position when active, face up, and lies face down in the backpack when
    inactive; equipping it sends the card already there to the backpack."""
    S = deepdelve(classes=("knight",))
    S[0]["cubes"][0, 0, CUBE_MIGHT] = 6
    kinds = [k for k in CARD_IDS if (D.REALM.items.get(k) or D.REALM.treasures[k]).position in BODY]
    assert len(kinds) == 23
    for kind in kinds:
        pos = BODY[(D.REALM.items.get(kind) or D.REALM.treasures[kind]).position]
        T = S.copy()
        c = take(T, kind)
        assert targets(T, c) == sorted([pos, T_BACKPACK]), kind
        before = [u for u in range(NUM_CARDS) if R.equipped(T, 0, 0, u) and T[0]["card_slot"][u] == pos]
        R.equip_card(T, 0, 0, c, pos)
        assert int(T[0]["card_slot"][c]) == pos and int(T[0]["card_revealed"][c]) == 1
        assert all(int(T[0]["card_slot"][u]) == T_BACKPACK for u in before)
        R.equip_card(T, 0, 0, c, T_BACKPACK)
        assert not R.equipped(T, 0, 0, c)


def test_dd_equip_banner_15_spear_optional_box_only_two_handed():
    """L950: a spear may be held in one hand (either weapon position) or in
    two (both); its optional might box only works two-handed. (Placing cubes
    on it in combat: combat_test.py::test_dd_combat_tactics_3_spear_optional_box_only_two_handed.)"""
    S = deepdelve(classes=("archer",))
    for c in range(NUM_CARDS):                                   # an empty-handed hero
        if S[0]["card_where"][c] == CW_HERO:
            S[0]["card_slot"][c] = T_BACKPACK
    S[0]["cubes"][0, 0, CUBE_MIGHT] = 2
    for kind in ("spear", "spear_of_piercing"):
        T = S.copy()
        spear = take(T, kind)
        assert targets(T, spear) == [T_WEAPON1, T_WEAPON2, T_WEAPONS, T_BACKPACK]
        mandatory, optional, two = (int(x) for x in R.KIND_MIGHT_BOXES[R.CARD_KIND[spear]])
        assert two == 1
        R.equip_card(T, 0, 0, spear, T_WEAPON1)
        assert R.might_capacity(T, 0, 0, spear) == mandatory + optional
        R.equip_card(T, 0, 0, spear, T_WEAPONS)
        assert R.might_capacity(T, 0, 0, spear) == mandatory + optional + 1


def test_dd_equip_banner_16_single_hand_card_fills_one_hand():
    """L952: a single-hand card (a ring) goes on either hand position, one
    each: two rings may be worn at once; a third takes the place of one."""
    S = deepdelve(classes=("knight",))
    a, b, c = take(S, "ring_of_strength"), take(S, "quick_ring"), take(S, "robust_ring")
    assert targets(S, a) == [R.T_HAND1, R.T_HAND2, T_BACKPACK]
    R.equip_card(S, 0, 0, a, R.first_free_target(S, 0, 0, a))
    R.equip_card(S, 0, 0, b, R.first_free_target(S, 0, 0, b))
    assert sorted(int(S[0]["card_slot"][x]) for x in (a, b)) == [R.T_HAND1, R.T_HAND2]
    R.equip_card(S, 0, 0, c, R.T_HAND2)
    assert int(S[0]["card_slot"][c]) == R.T_HAND2 and int(S[0]["card_slot"][b]) == T_BACKPACK
    assert int(S[0]["card_slot"][a]) == R.T_HAND1


def test_dd_equip_banner_17_two_hands_card_fills_both_hands():
    """L954: a two-hands card (bracers) covers both hand positions: it goes
    nowhere else, and equipping it unequips both rings."""
    S = deepdelve(classes=("knight",))
    a, b = take(S, "ring_of_strength", target=R.T_HAND1), take(S, "quick_ring", target=R.T_HAND2)
    bracers = take(S, "bracers_of_vigor")
    assert targets(S, bracers) == [R.T_HANDS, T_BACKPACK]
    R.equip_card(S, 0, 0, bracers, R.T_HANDS)
    assert int(S[0]["card_slot"][a]) == int(S[0]["card_slot"][b]) == T_BACKPACK
    R.equip_card(S, 0, 0, a, R.T_HAND1)
    assert int(S[0]["card_slot"][bracers]) == T_BACKPACK         # a ring on one hand frees the other too


def test_dd_equip_banner_18_misc_card_fills_a_misc_position():
    """L956: a miscellaneous card goes on either miscellaneous position (it
    does not matter which); with both taken, a third takes one's place."""
    S = deepdelve(classes=("knight",))
    a, b, c = take(S, "skeleton_key"), take(S, "hawkeye"), take(S, "diggers_ruin")
    assert targets(S, a) == [R.T_MISC1, R.T_MISC2, T_BACKPACK]
    for x in (a, b):
        R.equip_card(S, 0, 0, x, R.first_free_target(S, 0, 0, x))
    assert sorted(int(S[0]["card_slot"][x]) for x in (a, b)) == [R.T_MISC1, R.T_MISC2]
    assert R.first_free_target(S, 0, 0, c) == T_BACKPACK           # no free one left
    R.equip_card(S, 0, 0, c, R.T_MISC1)
    assert int(S[0]["card_slot"][a]) == T_BACKPACK and int(S[0]["card_slot"][b]) == R.T_MISC2


def test_dd_equip_banner_19_backpack_cards_are_inactive_and_secret():
    """L958: any card may go in the backpack; there it lies face down,
    inactive and hidden from the other players: a weapon stowed is no weapon
    (L971), armour stowed takes no hit (L751), and the other seat cannot see
    which card it is (L981)."""
    from dragongym.envs.dragons_down import observe as O
    assert all(R.TARGET_OK[:, T_BACKPACK])
    S = deepdelve(num_heroes=2, classes=("knight", "barbarian"))
    p = seat_of(S, "knight")
    sword, shield, chain = (held(S, p, k) for k in ("long_sword", "shield", "chainmail"))
    assert R.hero_weapon(S, 0, p) == sword and R.armor_choices(S, 0, p) == 2
    assert O.card_visible(S, 0, 1 - p, sword)
    for c in (sword, shield, chain):
        assert R.target_legal(S, 0, p, c, T_BACKPACK)
        R.equip_card(S, 0, p, c, T_BACKPACK)
    assert R.hero_weapon(S, 0, p) == -1 and R.armor_choices(S, 0, p) == 0
    assert not O.card_visible(S, 0, 1 - p, sword) and O.card_visible(S, 0, p, sword)


def test_dd_equip_banner_20_seen_backpack_special_card_turns_face_up():
    """L960, L532: a Backpack Special card must always be face up: drawn by a
    Treasure token (L500) it is revealed at once -- an Epic so earning its
    1 LP and 5 Fame (L534) -- and it goes to the backpack, its only place,
    face up for all; seen at a Merchant it turns face up there (its Epic
    reward then spent, L563)."""
    from dragongym.envs.dragons_down import observe as O
    from tests.dragons_down.actions_test import load
    from tests.dragons_down.tokens_test import SECRET_DENS, pick, with_wilderness_tile
    S = with_wilderness_tile()
    deck = [c for c in range(NUM_CARDS) if S[0]["card_where"][c] == CW_DECK and int(R.CARD_DECK[c]) == R.DECK_TREASURE]
    mirror = next(c for c in deck if CARD_IDS[R.CARD_KIND[c]] == "mirror_of_idolatry")
    assert R.KIND_EPIC[R.CARD_KIND[mirror]]
    lp, fame = int(S[0]["lp"][0]), int(S[0]["fame"][0])
    load(S, pick("cc_treasure"), deck.index(mirror))
    R.reveal_tile(S, 0, 0, SECRET_DENS)
    assert int(S[0]["card_revealed"][mirror]) == 1
    assert (int(S[0]["lp"][0]), int(S[0]["fame"][0])) == (lp + 1, fame + 5)
    R.advance(S, 0)
    assert R_legal(S) == [R.A_TARGET + T_BACKPACK]
    act(S, R.A_TARGET + T_BACKPACK)
    assert int(S[0]["card_slot"][mirror]) == T_BACKPACK and O.card_visible(S, 0, 1, mirror)
    marcation = next(c for c in range(NUM_CARDS) if CARD_IDS[R.CARD_KIND[c]] == "summoning_marcation")
    S[0]["card_where"][marcation], S[0]["card_owner"][marcation] = R.CW_MERCHANT, 0
    R.look_at_merchant(S, 0, 0, 0)
    assert int(S[0]["card_revealed"][marcation]) == 1 and int(S[0]["lp"][0]) == lp + 1


# ---------------------------------------------------------------- Equipping (L964-L981)
def test_dd_equip_1_only_equipped_cards_take_effect():
    """L964-L966, L971: a hero has the benefit of his equipped cards only:
    his long sword is his weapon and his chainmail and shield take hits while
    equipped; stowed face down in the backpack they do nothing."""
    S = deepdelve(classes=("knight",))
    mine = {CARD_IDS[R.CARD_KIND[c]]: c for c in range(NUM_CARDS) if S[0]["card_where"][c] == CW_HERO}
    assert R.hero_weapon(S, 0, 0) == mine["long_sword"] and R.armor_choices(S, 0, 0) == 2
    R.equip_card(S, 0, 0, mine["chainmail"], T_BACKPACK)
    assert R.armor_choices(S, 0, 0) == 1
    R.equip_card(S, 0, 0, mine["long_sword"], T_BACKPACK)
    assert R.hero_weapon(S, 0, 0) == -1
    assert not R.equipped(S, 0, 0, mine["long_sword"]) and R.possesses(S, 0, 0, R.CARD_KIND[mine["long_sword"]])


def test_dd_equip_6_weapon_needs_cubes_for_its_mandatory_boxes():
    """L976: a weapon weighs as many Might Cubes as it has dark red
    (mandatory) boxes, and is equipped only if the hero can fill them all
    with healthy Might Cubes: the battle axe's two need two; the dagger,
    with none, needs none. Losing one drops the axe to the backpack."""
    for kind in CARD_IDS:
        k = CARD_IDS.index(kind)
        if R.KIND_WEAPON[k]:
            assert int(R.KIND_WEIGHT[k]) == int(R.KIND_MIGHT_BOXES[k, 0]), kind
    S = deepdelve(classes=("archer",))
    for c in range(NUM_CARDS):
        if S[0]["card_where"][c] == CW_HERO:
            S[0]["card_slot"][c] = T_BACKPACK
    axe, dagger = take(S, "battle_axe"), take(S, "dagger")
    S[0]["cubes"][0, 0, CUBE_MIGHT] = 0
    assert R.target_legal(S, 0, 0, dagger, T_WEAPON1) and not R.target_legal(S, 0, 0, axe, T_WEAPONS)
    S[0]["cubes"][0, 0, CUBE_MIGHT] = 1
    assert not R.target_legal(S, 0, 0, axe, T_WEAPONS)
    S[0]["cubes"][0, 0, CUBE_MIGHT] = 2
    assert R.target_legal(S, 0, 0, axe, T_WEAPONS)
    R.equip_card(S, 0, 0, axe, T_WEAPONS)
    S[0]["cubes"][0, 0, CUBE_MIGHT], S[0]["cubes"][0, 1, CUBE_MIGHT] = 1, 1
    R.enforce_weight(S, 0, 0)
    assert int(S[0]["card_slot"][axe]) == T_BACKPACK


def test_dd_equip_9_face_down_cards_hidden_from_other_seats():
    """L981: face-up cards are public knowledge; face-down cards are not, but
    a hero may look at all the cards in his own backpack: the Barbarian's
    equipped helmet is known to the other seat, his stowed dagger only to himself."""
    from dragongym.envs.dragons_down import observe as O
    from dragongym.envs.dragons_down import view as V
    S = deepdelve(num_heroes=2, classes=("knight", "barbarian"))
    p = seat_of(S, "barbarian")
    helmet = held(S, p, "helmet")
    dagger = take(S, "dagger", p=p)
    for seat in (0, 1):
        assert O.card_visible(S, 0, seat, helmet) and V.card_seen(S, helmet, seat)
    assert O.card_visible(S, 0, p, dagger) and not O.card_visible(S, 0, 1 - p, dagger)
    assert V.card_seen(S, dagger, p) and not V.card_seen(S, dagger, 1 - p)


def test_dd_equip_banner_21_dead_owners_special_card_goes_to_the_next_entrant():
    """L960: a Backpack Special card "must always be face-up ... If its owner
    is killed, it is placed face-up in the clearing. Anyone entering the
    clearing immediately takes possession of the card"; the rest of the
    possessions form the body (L805)."""
    from dragongym.envs.dragons_down.constants import CW_CLEARING, CW_SITE, NUM_CLEARINGS, NUM_SITES
    from dragongym.envs.dragons_down import soundness
    from tests.dragons_down.fate_test import DEEPDELVE_1, WILD, fated, give
    special = next(k for k in CARD_IDS if R.KIND_BACKPACK_SPECIAL[CARD_IDS.index(k)])
    S = fated([("knight", WILD), ("rogue", DEEPDELVE_1)])
    c = give(S, 0, special)
    d = give(S, 0, "dagger")
    R.kill_hero(S, 0, 0)
    s = S[0]
    assert int(s["card_where"][c]) == CW_CLEARING and int(s["card_owner"][c]) == WILD
    assert int(s["card_revealed"][c]) == 1
    assert int(s["card_where"][d]) == CW_SITE and int(s["card_owner"][d]) == NUM_SITES
    far = S.copy()                                              # any clearing may hold it (a full-length fuzz game
    far[0]["card_owner"][c] = NUM_CLEARINGS - 1                 # once met a card in clearing 84, refused as out of range)
    assert not soundness._ranges(far[0]) and not soundness._card_problem(far[0], 2)
    R.move_hero(S, 0, 1, WILD)                                  # the rogue enters the clearing
    assert int(s["card_where"][c]) == CW_HERO and int(s["card_owner"][c]) == 1


# ================================================================ more miscellaneous positions (L1302, L1514)
def test_dd_treasure_belt_of_expansion_1_two_more_miscellaneous_positions():
    """L1302: wearing the Belt of Expansion the hero has four miscellaneous
    positions: a third and a fourth card go on without unequipping the first
    two. Taking the belt off sends the cards of its two positions to the
    backpack (Interpretations, "Positions lost")."""
    S = deepdelve(classes=("knight",))
    a, b, c, d = (take(S, k) for k in ("skeleton_key", "hawkeye", "diggers_ruin", "taper_of_illumination"))
    assert R.T_MISC3 not in targets(S, a)                        # no belt, two positions (L956)
    belt = take(S, "belt_of_expansion", target=R.T_WAIST)
    assert targets(S, a) == [R.T_MISC1, R.T_MISC2, R.T_MISC3, R.T_MISC4, T_BACKPACK]
    for x in (a, b, c, d):
        R.equip_card(S, 0, 0, x, R.first_free_target(S, 0, 0, x))
    assert sorted(int(S[0]["card_slot"][x]) for x in (a, b, c, d)) == [R.T_MISC1, R.T_MISC2, R.T_MISC3, R.T_MISC4]
    R.equip_card(S, 0, 0, belt, T_BACKPACK)
    assert sorted(int(S[0]["card_slot"][x]) for x in (a, b, c, d)) == [R.T_MISC1, R.T_MISC2, T_BACKPACK, T_BACKPACK]


def test_dd_spell_floating_disk_1_any_number_of_treasures_in_miscellaneous_positions():
    """L1514: while a Floating Disk lies on the hero, a treasure equipped in a
    miscellaneous position unequips none there (an item still would). When
    the spell ends, each position keeps one card, the rest go to the
    backpack (Interpretations, "Positions lost")."""
    S = deepdelve(classes=("knight",))
    a, b, c = take(S, "skeleton_key"), take(S, "hawkeye"), take(S, "diggers_ruin")
    s = S[0]
    disk = next(sp for sp in range(len(s["spell_on"])) if R.SPELL_KIND[sp] == R.SP_FLOATING_DISK)
    s["spell_where"][disk], s["spell_owner"][disk], s["spell_on"][disk] = R.SPW_KNOWN, 0, R.AIM_HERO + 0
    for x in (a, b, c):
        R.equip_card(S, 0, 0, x, R.T_MISC1)
    assert [int(s["card_slot"][x]) for x in (a, b, c)] == [R.T_MISC1] * 3 and R.floating(S, 0, 0)
    R.end_spell(S, 0, disk)
    assert sorted(int(s["card_slot"][x]) for x in (a, b, c)) == [R.T_MISC1, T_BACKPACK, T_BACKPACK]


def test_dd_spell_floating_disk_1_is_cast_on_self_or_another_hero():
    """L1514: self or other, turn: its effect is built, so it is offered, and
    it is aimed only at heroes (a turn spell serves a hero's turn)."""
    k = R.SP_FLOATING_DISK
    assert R.SPELL_BUILT[k] and R.SPELL_AIM[k] == R.AIM_SELF_OR_OTHER and R.SPELL_DURATION[k] == R.DUR_TURN
