"""Loot (L522-L534, the Treasure Site features of L1232-L1252) and Trade
(L552-L568: swap, commerce with a Merchant, haggling L982-L1000, repair),
played through the driver on Deepdelve (actions_test.py): the hero stands in
clearing 1, with piles and Merchants put there by hand."""

from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CARD_IDS, CIV_TOKENS, CUBE_MIGHT, CW_DECK, CW_HERO, CW_MERCHANT, CW_SITE, HS_ACTIVE,
    HST_BLOCKED, HST_HIDDEN, MERCHANT_IDS, MON_TRAY, MONSTER_CHIP_KINDS, MONSTER_IDS, NUM_CARDS,
    NUM_SITES, SITE_IDS, T_BACKPACK, T_HAND1, T_HAND2, T_HEAD, T_PENDING, TOK_PLACED,
)
from tests.dragons_down.actions_test import MOUNTAINS_4, PLAINS_1, PLAINS_3, act, deepdelve, load, used
from tests.dragons_down.setup_test import legal

LOOT = R.A_DO + R.DO_LOOT
TRADE = R.A_DO + R.DO_TRADE
DONE = R.A_DO + R.DO_DONE
LOOK, SELL, REPAIR, PAY, HAGGLE = (R.A_STEP + k for k in (R.STEP_LOOK, R.STEP_SELL, R.STEP_REPAIR,
                                                           R.STEP_PAY, R.STEP_HAGGLE))
ACCEPT, REFUSE = R.A_ANSWER + R.ANSWER_ACCEPT, R.A_ANSWER + R.ANSWER_REFUSE
CATACOMBS, CHAMBER, SHRINE = (SITE_IDS.index(x) for x in ("catacombs", "chamber", "shrine"))
GRABBY = 0                              # the Loot Die's grabby hand (raw draw 0, dice.txt)
DOOR = 5                                # the Haggle Die's closed door (raw draw 5)
SITE_SYMBOL, CLAW = 0, 1                # Local Monster symbol die faces (raw draws)


# ---------------------------------------------------------------- arranging a game by hand
def start(num_heroes=1, lineages=("human",), classes=("knight", "barbarian", "archer")):
    """Deepdelve; the first hero to act placed in clearing 1, its turn begun."""
    S = deepdelve(num_heroes=num_heroes, lineages=lineages, classes=classes)
    p = int(S[0]["to_play"])
    act(S, R.A_CLEARING + PLAINS_1)
    return S, p


def beside(S, p, clearing=PLAINS_1):
    """Put another seat's hero on the map in ``clearing``; returns the seat."""
    q = next(q for q in range(int(S[0]["num_players"])) if q != p)
    S[0]["hero_state"][q] = HS_ACTIVE
    S[0]["hero_clearing"][q] = clearing
    return q


def free_card(S, kind):
    """A card of ``kind`` still in its deck."""
    k = CARD_IDS.index(kind)
    return next(c for c in range(NUM_CARDS) if R.CARD_KIND[c] == k and S[0]["card_where"][c] == CW_DECK)


def give(S, p, kind, slot=T_BACKPACK):
    c = free_card(S, kind)
    S[0]["card_where"][c], S[0]["card_owner"][c], S[0]["card_slot"][c] = CW_HERO, p, slot
    return c


def put_pile(S, pile, kinds, finders, gold=0, side=0, clearing=PLAINS_1):
    """Pile ``pile`` in ``clearing`` holding cards of ``kinds``, top first,
    and ``gold``; found by the seats ``finders``; its setup card on ``side``."""
    s = S[0]
    cards = []
    for i, kind in enumerate(kinds):
        c = free_card(S, kind)
        s["card_where"][c], s["card_owner"][c], s["card_slot"][c] = CW_SITE, pile, i
        cards.append(c)
    s["site_clearing"][pile] = clearing
    s["site_opened"][pile] = 1
    s["site_gold"][pile] = gold
    for q in finders:
        s["site_found"][q, pile] = 1
    if pile < NUM_SITES:
        s["setup_side"][R.SITE_PACK[pile]] = side
    return cards


def pile(S, p_):
    """The pile's cards, top first."""
    s = S[0]
    cards = [c for c in range(NUM_CARDS) if s["card_where"][c] == CW_SITE and s["card_owner"][c] == p_]
    return sorted(cards, key=lambda c: int(s["card_slot"][c]))


def merchant(S, mid, kinds=(), clearing=PLAINS_1):
    """Merchant ``mid`` alone in ``clearing`` (any other Merchant token there
    moved to clearing 4), its stock exactly cards of ``kinds``."""
    s = S[0]
    m = MERCHANT_IDS.index(mid)
    for c in range(NUM_CARDS):
        if s["card_where"][c] == CW_MERCHANT and s["card_owner"][c] == m:
            s["card_where"][c], s["card_owner"][c], s["card_slot"][c] = CW_DECK, R.CARD_DECK[c], -1
    for k in range(len(CIV_TOKENS)):
        if R.CIV_TOKEN_MERCHANT[k] == m:
            s["civ_token_where"][k], s["civ_token_clearing"][k] = TOK_PLACED, clearing
        elif s["civ_token_where"][k] == TOK_PLACED and s["civ_token_clearing"][k] == clearing:
            s["civ_token_clearing"][k] = MOUNTAINS_4
    cards = []
    for kind in kinds:
        c = free_card(S, kind)
        s["card_where"][c], s["card_owner"][c], s["card_slot"][c] = CW_MERCHANT, m, -1
        cards.append(c)
    return m, cards


def held(S, p, c):
    return int(S[0]["card_where"][c]) == CW_HERO and int(S[0]["card_owner"][c]) == p


def phase(S):
    return int(S[0]["phase"])


def gold(S, p):
    return int(S[0]["gold"][p])


def wraith_chips():
    w = MONSTER_IDS.index("wraith")
    return [m for m, k in enumerate(MONSTER_CHIP_KINDS) if k == w]


# ================================================================ Loot
def test_dd_loot_1_only_its_finders_may_loot_a_site():
    """L524: a Hero may not loot a Treasure Site it has not discovered, even
    if other Heroes have; once it has, the Loot Action is open to it."""
    S, p = start(num_heroes=2)
    q = beside(S, p)
    put_pile(S, CATACOMBS, ["alchemists_mixture"], finders=[q])
    assert LOOT not in legal(S)
    S[0]["site_found"][p, CATACOMBS] = 1
    assert LOOT in legal(S)
    S[0]["site_clearing"][CATACOMBS] = PLAINS_3                 # found, but not in the hero's clearing
    assert LOOT not in legal(S)


def test_dd_loot_2_two_grabby_hands_keep_one_of_three_others_back_in_order():
    """L526: only grabby hands: the Hero looks at the top three cards and
    keeps one; the other two go back in their order (L248: the hand is the
    best face). The Loot Action is spent."""
    S, p = start()
    cards = put_pile(S, CATACOMBS, ["alchemists_mixture", "skeleton_key", "disenchanter", "adamantium_blade"],
                     finders=[p])
    load(S, GRABBY, GRABBY)
    act(S, LOOT)
    assert phase(S) == R.PH_LOOT_KEEP and used(S, p) == 1
    assert legal(S) == sorted(R.A_CARD + c for c in cards[:3])
    act(S, R.A_CARD + cards[1])
    assert held(S, p, cards[1])
    assert pile(S, CATACOMBS) == [cards[0], cards[2], cards[3]]
    assert [int(S[0]["card_slot"][c]) for c in pile(S, CATACOMBS)] == [0, 1, 2]   # re-compacted
    assert int(S[0]["card_revealed"][cards[2]]) == 1                # L960: the Backpack Special card seen is face up
    assert phase(S) == R.PH_RECEIVED                                # the key: a miscellaneous position or the backpack


def test_dd_loot_3_higher_die_is_the_loot_result():
    """L528, L530: otherwise the highest number rolled is the place, counted
    from the top, of the card taken; a grabby hand beside a number gives
    that number."""
    for dice, place in (((2, 4), 3), ((GRABBY, 3), 2), ((1, 1), 0)):
        S, p = start()
        cards = put_pile(S, CATACOMBS, ["dagger", "shield", "skeleton_key", "alchemists_mixture"], finders=[p])
        load(S, *dice)
        act(S, LOOT)
        assert held(S, p, cards[place]), dice
        assert pile(S, CATACOMBS) == [c for i, c in enumerate(cards) if i != place]


def test_dd_loot_4_card_at_the_rolled_depth_or_none():
    """L530: no card if the pile holds fewer cards than the loot result; the
    action is spent all the same."""
    S, p = start()
    cards = put_pile(S, CATACOMBS, ["skeleton_key", "alchemists_mixture"], finders=[p])
    load(S, 5, 1)
    act(S, LOOT)
    assert pile(S, CATACOMBS) == cards and used(S, p) == 1 and phase(S) == R.PH_ACTION


def test_dd_loot_5_looted_card_equipped_or_stowed_face_down():
    """L532, L972: the looter sees the card secretly and at once equips it
    (a matching free position) or puts it face down in the backpack; a card
    with the backpack its only place just goes there."""
    S, p = start()
    helmet, mixture = put_pile(S, CATACOMBS, ["helmet", "alchemists_mixture"], finders=[p])
    load(S, 1, 1)
    act(S, LOOT)
    assert phase(S) == R.PH_RECEIVED and int(S[0]["to_play"]) == p
    assert legal(S) == [R.A_TARGET + T_HEAD, R.A_TARGET + T_BACKPACK]
    assert int(S[0]["card_slot"][helmet]) == T_BACKPACK              # face down while the Hero decides
    act(S, R.A_TARGET + T_HEAD)
    assert int(S[0]["card_slot"][helmet]) == T_HEAD and phase(S) == R.PH_ACTION
    load(S, 1, 1)
    act(S, LOOT)                                                     # the mixture: backpack only
    assert int(S[0]["card_slot"][mixture]) == T_BACKPACK and phase(S) == R.PH_ACTION
    assert not any(int(S[0]["card_slot"][c]) == T_PENDING for c in range(NUM_CARDS))


def test_dd_loot_6_backpack_special_card_is_always_face_up():
    """L532, L960: a card with the red Backpack Special symbol is face up
    as soon as it is taken; an Epic one so revealed earns its reward (L534)."""
    S, p = start()
    icon, = put_pile(S, CATACOMBS, ["icon_of_the_dragon"], finders=[p])
    lp, fame = int(S[0]["lp"][p]), int(S[0]["fame"][p])
    load(S, 1, 1)
    act(S, LOOT)
    assert held(S, p, icon) and int(S[0]["card_revealed"][icon]) == 1
    assert int(S[0]["lp"][p]) == lp + 1 and int(S[0]["fame"][p]) == fame + 5
    assert phase(S) == R.PH_ACTION                                   # no choice: backpack, face up


def test_dd_loot_7_first_reveal_of_an_epic_earns_1_lp_and_5_fame_once():
    """L534, L908: revealing a possessed Epic Treasure the first time earns
    1 LP and 5 Fame, once per card per game: the Hero may reveal a stowed
    one, or equip it (face up); kept secret it earns nothing yet."""
    S, p = start()
    icon, band = put_pile(S, CATACOMBS, ["golden_icon", "band_of_sagacity"], finders=[p])
    lp, fame = int(S[0]["lp"][p]), int(S[0]["fame"][p])
    load(S, 1, 1)
    act(S, LOOT)
    assert legal(S) == [R.A_TARGET + T_BACKPACK, R.A_CARD + icon]
    act(S, R.A_CARD + icon)                                         # revealed, kept in the backpack
    assert int(S[0]["card_slot"][icon]) == T_BACKPACK
    assert int(S[0]["lp"][p]) == lp + 1 and int(S[0]["fame"][p]) == fame + 5
    load(S, 1, 1)
    act(S, LOOT)
    assert legal(S) == [R.A_TARGET + T_HAND1, R.A_TARGET + T_HAND2, R.A_TARGET + T_BACKPACK, R.A_CARD + band]
    act(S, R.A_TARGET + T_BACKPACK)                                 # kept secret: nothing yet
    assert int(S[0]["lp"][p]) == lp + 1 and int(S[0]["card_revealed"][band]) == 0
    S2, q = start()                                                # the same card equipped instead
    band2, = put_pile(S2, CATACOMBS, ["band_of_sagacity"], finders=[q])
    lp2 = int(S2[0]["lp"][q])
    load(S2, 1, 1)
    act(S2, LOOT)
    act(S2, R.A_TARGET + T_HAND1)
    assert int(S2[0]["lp"][q]) == lp2 + 1 and int(S2[0]["card_revealed"][band2]) == 1
    R.reveal_card(S2, 0, q, band2)                                  # a second reveal earns nothing
    assert int(S2[0]["lp"][q]) == lp2 + 1


def test_dd_loot_pile_choice_when_several_piles_are_found():
    """L524: with two found piles in the clearing (a site and a body, L805)
    the Hero chooses which to loot; a body is looted like a site."""
    S, p = start(num_heroes=2)
    q = 1 - p
    put_pile(S, CATACOMBS, ["skeleton_key"], finders=[p])
    body, = put_pile(S, NUM_SITES + q, ["dagger"], finders=[p])
    act(S, LOOT)
    assert phase(S) == R.PH_LOOT_PILE and legal(S) == [R.A_PILE + CATACOMBS, R.A_PILE + NUM_SITES + q]
    load(S, 1, 1)
    act(S, R.A_PILE + NUM_SITES + q)
    assert int(S[0]["card_owner"][body]) == p and int(S[0]["card_where"][body]) == CW_HERO


def test_interpretation_dd_loot_gold_goes_with_the_card_taken():
    """L1244 ("as if they had performed a successful Loot Action"): a loot
    that takes a card takes the pile's Gold too; one that takes nothing
    leaves it; a pile with Gold and no card gives it to the next Loot."""
    S, p = start()
    put_pile(S, CATACOMBS, ["skeleton_key"], finders=[p], gold=5)
    g = gold(S, p)
    load(S, 3, 2)                                                    # result 3: nothing
    act(S, LOOT)
    assert gold(S, p) == g and int(S[0]["site_gold"][CATACOMBS]) == 5
    load(S, 1, 1)
    act(S, LOOT)
    assert gold(S, p) == g + 5 and int(S[0]["site_gold"][CATACOMBS]) == 0
    S, p = start()
    put_pile(S, CATACOMBS, [], finders=[p], gold=4)
    g, counter = gold(S, p), int(S[0]["rng_counter"])
    act(S, LOOT)
    assert gold(S, p) == g + 4 and int(S[0]["rng_counter"]) == counter     # no dice rolled
    assert LOOT not in legal(S)                                      # nothing left


# ---------------------------------------------------------------- Treasure Site features
def test_dd_site_catacombs_1_labyrinth_fails_dice_above_cunning():
    """L1236: with the Labyrinth (side 2 of the Cruel Caves card) any loot
    die above the Hero's Cunning fails the loot; grabby hands (0) never do.
    The Human Knight has Cunning 1 (L1087)."""
    S, p = start()
    cards = put_pile(S, CATACOMBS, ["skeleton_key", "alchemists_mixture", "dagger"], finders=[p], side=1)
    assert R.hero_attribute(S, 0, p, R.ATTR_CUNNING) == 1
    load(S, GRABBY, 2)
    act(S, LOOT)
    assert pile(S, CATACOMBS) == cards                               # a 2 beats Cunning 1
    load(S, 1, GRABBY)
    act(S, LOOT)
    assert held(S, p, cards[0])
    S, p = start()
    cards = put_pile(S, CATACOMBS, ["skeleton_key", "alchemists_mixture", "dagger"], finders=[p], side=0)
    load(S, GRABBY, 2)
    act(S, LOOT)
    assert held(S, p, cards[1])                                      # side 1: no Labyrinth


def test_dd_site_chamber_1_closed_chamber_cannot_be_looted():
    """L1240: with the Massive Door (side 2) no Hero may loot the Chamber
    until it is opened; the Knight has neither the key nor 4 Might Cubes."""
    S, p = start()
    put_pile(S, CHAMBER, ["dagger"], finders=[p], side=1)
    assert int(S[0]["cubes"][p, 0, CUBE_MIGHT]) < 4
    assert LOOT not in legal(S)
    S[0]["door_open"][CHAMBER] = 1                                   # opened (e.g. by a blow in combat)
    assert LOOT in legal(S)
    S[0]["door_open"][CHAMBER] = 0
    S[0]["setup_side"][R.SITE_PACK[CHAMBER]] = 0                     # side 1: no door
    assert LOOT in legal(S)


def test_dd_site_chamber_2_door_opens_to_the_key_or_4_might():
    """L1240, L1418: a Hero with the Skeleton Key, or with 4 healthy Might
    Cubes while no Monster is present, opens the Massive Door (as he loots,
    Interpretations); once open, any Hero may loot the Chamber. (A blow of
    4 damage in combat opens it too: rules/combat.py.)"""
    S, p = start(num_heroes=2)
    q = beside(S, p)
    put_pile(S, CHAMBER, ["dagger", "dagger"], finders=[p, q], side=1)
    give(S, p, "skeleton_key")
    assert LOOT in legal(S)
    load(S, 1, 1)
    act(S, LOOT)
    assert int(S[0]["door_open"][CHAMBER]) == 1
    assert R.lootable(S, 0, q, CHAMBER)                              # open for everyone now
    S, p = start(lineages=("human",), classes=("barbarian",))        # 5 healthy Might Cubes
    put_pile(S, CHAMBER, ["dagger"], finders=[p], side=1)
    assert int(S[0]["cubes"][p, 0, CUBE_MIGHT]) >= 4 and LOOT in legal(S)
    goblin = next(m for m, k in enumerate(MONSTER_CHIP_KINDS) if MONSTER_IDS[k] == "goblin")
    S[0]["mon_clearing"][goblin] = PLAINS_1
    assert LOOT not in legal(S)                                      # not with a Monster present


def test_dd_site_shrine_1_wraith_summoned_on_the_site_symbol_after_a_loot():
    """L1252, L1278: with the active Wraith (side 2 of the woods card), a loot
    at the Shrine that takes a treasure rolls the Local Monster symbol die;
    the Treasure Site Symbol summons the Wraith to the Shrine from wherever
    it is, and nothing else comes; another symbol does nothing."""
    S, p = start()
    put_pile(S, SHRINE, ["potion_of_healing"] * 3, finders=[p], side=1)   # backpack cards: no choice
    wraiths = wraith_chips()
    load(S, 1, 1, CLAW)
    act(S, LOOT)
    assert all(int(S[0]["mon_clearing"][m]) == MON_TRAY for m in wraiths)
    before = [int(x) for x in S[0]["mon_clearing"]]
    load(S, 1, 1, SITE_SYMBOL)
    act(S, LOOT)
    assert all(int(S[0]["mon_clearing"][m]) == PLAINS_1 for m in wraiths)
    assert all(int(S[0]["mon_clearing"][m]) == before[m] for m in range(len(before)) if m not in wraiths)
    S, p = start()
    put_pile(S, SHRINE, ["potion_of_healing"], finders=[p], side=1)
    stream = int(S[0]["rng_counter"])
    load(S, 4, 4)                                                    # nothing taken: no roll for the Wraith
    act(S, LOOT)
    assert int(S[0]["rng_counter"]) == stream
    assert all(int(S[0]["mon_clearing"][m]) == MON_TRAY for m in wraiths)


# ================================================================ Trade: one thing a Trade Action
def test_dd_trade_1_one_trade_action_does_one_thing():
    """L554: a Trade Action does one thing: here the Hero chooses between a
    swap with the Hero beside him and commerce with the Merchant; the
    commerce done, the action is over (one action spent)."""
    S, p = start(num_heroes=2)
    q = beside(S, p)
    m, _ = merchant(S, "fence", ["skeleton_key"])
    act(S, TRADE)
    assert phase(S) == R.PH_TRADE_WITH and used(S, p) == 1
    assert legal(S) == [R.A_SEAT + q, R.A_MERCHANT + m]
    act(S, R.A_MERCHANT + m)
    assert phase(S) == R.PH_COMMERCE
    act(S, DONE)
    assert phase(S) == R.PH_ACTION and used(S, p) == 1 and int(S[0]["trade_mode"]) == 0


# ---------------------------------------------------------------- Swap
def test_dd_trade_swap_1_swap_with_one_unhidden_unblocked_hero_in_the_clearing():
    """L556: the partner is another Hero in the clearing, unhidden and
    unblocked."""
    S, p = start(num_heroes=2)
    q = beside(S, p)
    assert TRADE in legal(S)
    S[0]["hero_status"][q] = HST_HIDDEN
    assert TRADE not in legal(S)
    S[0]["hero_status"][q] = HST_BLOCKED
    assert TRADE not in legal(S)
    S[0]["hero_status"][q] = 0
    S[0]["hero_clearing"][q] = PLAINS_3
    assert TRADE not in legal(S)


def test_dd_trade_swap_2_spells_and_missions_cannot_be_swapped():
    """L556: only Item and Treasure Cards, Gold, found Treasure Sites and
    Hidden Paths go into a swap (Spell and Mission Cards are not cards of
    this part); the partner's face-down backpack is hidden (L958), so of his
    cards only the face-up ones can be asked for."""
    S, p = start(num_heroes=2)
    q = beside(S, p)
    key = give(S, q, "skeleton_key")                                 # face down in q's backpack
    helmet = give(S, q, "helmet", T_HEAD)                            # face up on q's board
    act(S, TRADE)
    assert phase(S) == R.PH_SWAP_OFFER
    acts = legal(S)
    mine = [c for c in range(NUM_CARDS) if held(S, p, c)]
    his_face_up = [c for c in range(NUM_CARDS) if held(S, q, c) and int(S[0]["card_slot"][c]) < T_BACKPACK]
    assert helmet in his_face_up
    assert [a - R.A_CARD for a in acts if R.A_CARD <= a < R.A_CARD + NUM_CARDS] == sorted(mine + his_face_up)
    assert R.A_CARD + key not in acts
    assert all(R.A_CARD <= a < R.A_CARD + NUM_CARDS or R.A_GOLD <= a < R.A_STEP or R.A_PILE <= a < R.A_SEAT
               or a == DONE for a in acts)


def test_interpretation_dd_trade_swap_proposed_by_the_active_hero_accepted_by_the_partner():
    """L556, Interpretations: the active Hero puts together the swap -- his
    cards, the partner's face-up cards, Gold one way, sites and Hidden Paths
    one of them knows -- and proposes it; the partner's seat accepts or
    refuses. Refused, nothing changes; accepted, everything changes hands,
    each receiver equipping or stowing his new cards at once (L972), and
    what was known is shared."""
    S, p = start(num_heroes=2)
    q = beside(S, p)
    S[0]["gold"][p], S[0]["gold"][q] = 8, 3
    key = give(S, p, "skeleton_key")
    helmet = next(c for c in range(NUM_CARDS) if held(S, q, c) and int(S[0]["card_slot"][c]) == T_HEAD)
    put_pile(S, CATACOMBS, ["dagger"], finders=[p])
    path = 7
    S[0]["hidden_found"][q, path] = 1
    before = S.copy()
    act(S, TRADE)
    for a in (R.A_CARD + key, R.A_CARD + helmet, R.A_GOLD + R.GOLD_GIVE_5, R.A_GOLD + R.GOLD_GIVE_1,
              R.A_PILE + CATACOMBS, R.A_PATH + path):
        act(S, a)
    acts = legal(S)
    assert R.A_GOLD + R.GOLD_TAKE_1 not in acts and R.A_GOLD + R.GOLD_GIVE_5 not in acts   # 6 given, 2 left
    assert R.A_GOLD + R.GOLD_GIVE_1 in acts and R.A_CARD + key not in acts
    act(S, DONE)
    assert phase(S) == R.PH_SWAP_ANSWER and int(S[0]["to_play"]) == q
    assert legal(S) == sorted([ACCEPT, REFUSE])
    act(S, REFUSE)
    assert phase(S) == R.PH_ACTION and int(S[0]["to_play"]) == p and used(S, p) == 1
    for f in ("gold", "card_owner", "card_slot", "site_found", "hidden_found"):
        assert (S[0][f] == before[0][f]).all(), f
    act(S, TRADE)
    for a in (R.A_CARD + key, R.A_CARD + helmet, R.A_GOLD + R.GOLD_GIVE_5, R.A_PILE + CATACOMBS,
              R.A_PATH + path, DONE):
        act(S, a)
    act(S, ACCEPT)
    assert gold(S, p) == 3 and gold(S, q) == 8
    assert int(S[0]["site_found"][q, CATACOMBS]) == 1 and int(S[0]["site_found"][p, CATACOMBS]) == 1
    assert int(S[0]["hidden_found"][p, path]) == 1 and int(S[0]["hidden_found"][q, path]) == 1
    assert phase(S) == R.PH_RECEIVED and int(S[0]["to_play"]) == p            # the helmet: p's head is free
    assert legal(S) == [R.A_TARGET + T_HEAD, R.A_TARGET + T_BACKPACK]
    act(S, R.A_TARGET + T_HEAD)
    assert held(S, p, helmet) and int(S[0]["card_slot"][helmet]) == T_HEAD
    assert phase(S) == R.PH_RECEIVED and int(S[0]["to_play"]) == q            # then the partner: the key
    act(S, R.A_TARGET + T_BACKPACK)
    assert held(S, q, key) and int(S[0]["card_slot"][key]) == T_BACKPACK
    assert phase(S) == R.PH_ACTION and int(S[0]["to_play"]) == p and used(S, p) == 2


def test_interpretation_dd_trade_swap_partner_places_what_he_receives():
    """L972: the partner, though not the active Hero, chooses at once where
    each card he receives goes; then the active Hero plays on."""
    S, p = start(num_heroes=2)
    q = beside(S, p)
    helmet = give(S, p, "helmet")
    act(S, TRADE)
    act(S, R.A_CARD + helmet)
    act(S, DONE)
    act(S, ACCEPT)
    assert phase(S) == R.PH_RECEIVED and int(S[0]["to_play"]) == q
    assert legal(S) == [R.A_TARGET + T_HEAD, R.A_TARGET + T_BACKPACK]
    act(S, R.A_TARGET + T_BACKPACK)
    assert held(S, q, helmet) and phase(S) == R.PH_ACTION and int(S[0]["to_play"]) == p


# ---------------------------------------------------------------- Commerce
def test_dd_trade_commerce_1_each_commerce_step_once_per_trade():
    """L557: Look, Sell, Buy and Repair, each at most once in a Trade
    Action, in any order; with no step left the action ends by itself."""
    S, p = start()
    m, (key,) = merchant(S, "fence", ["potion_of_healing"])     # a backpack card: stowed, no choice
    S[0]["gold"][p] = 30
    act(S, TRADE)
    assert phase(S) == R.PH_COMMERCE and legal(S) == sorted([LOOK, SELL, DONE])
    act(S, LOOK)
    assert legal(S) == sorted([SELL, R.A_CARD + key, DONE])
    act(S, SELL)
    assert phase(S) == R.PH_SELL
    act(S, DONE)                                                     # sold nothing: the step is taken
    assert legal(S) == sorted([R.A_CARD + key, DONE])
    act(S, R.A_CARD + key)
    act(S, PAY)                                                      # backpack only: stowed; no step left
    assert held(S, p, key) and phase(S) == R.PH_ACTION and used(S, p) == 1


def test_dd_trade_commerce_2_look_shows_the_merchants_cards_to_the_hero():
    """L558: Look: the Hero sees all the cards of the Merchant (its
    ``merchant_looked`` bit); unseen, no card can be picked to buy. A
    Backpack Special card seen turns face up (L960)."""
    S, p = start(num_heroes=2)
    m, (key, mirror) = merchant(S, "fence", ["skeleton_key", "mirror_of_idolatry"])
    S[0]["gold"][p] = 50
    act(S, TRADE)
    assert not any(R.A_CARD <= a < R.A_CARD + NUM_CARDS for a in legal(S))
    act(S, LOOK)
    assert R.has_looked(S, 0, p, m) and not R.has_looked(S, 0, 1 - p, m)
    assert {R.A_CARD + key, R.A_CARD + mirror} <= set(legal(S))
    assert int(S[0]["card_revealed"][mirror]) == 1 and int(S[0]["card_revealed"][key]) == 0
    act(S, DONE)
    act(S, TRADE)                                                    # a later Trade: known, no Look offered
    assert LOOK not in legal(S) and R.A_CARD + key in legal(S)


def test_dd_trade_commerce_3_sell_at_the_base_price():
    """L559, L914: the Hero sells any number of his items and treasures,
    equipped or not, for their base price."""
    S, p = start()
    m, _ = merchant(S, "blacksmith")
    key = give(S, p, "skeleton_key")
    helmet = give(S, p, "helmet", T_HEAD)
    g = gold(S, p)
    act(S, TRADE)
    act(S, SELL)
    assert {R.A_CARD + key, R.A_CARD + helmet, DONE} <= set(legal(S))
    act(S, R.A_CARD + key)
    act(S, R.A_CARD + helmet)
    price = int(R.KIND_PRICE[CARD_IDS.index("skeleton_key")]) + int(R.KIND_PRICE[CARD_IDS.index("helmet")])
    assert gold(S, p) == g + price and phase(S) == R.PH_SELL
    assert int(S[0]["card_where"][helmet]) == CW_MERCHANT and int(S[0]["card_owner"][helmet]) == m


def test_dd_trade_commerce_4_sold_cards_are_on_sale_at_once():
    """L559: sold cards are placed with the Merchant and are for sale at
    once; a Hero who had looked at that stock no longer knows all of it."""
    S, p = start(num_heroes=2)
    q = 1 - p
    m, _ = merchant(S, "blacksmith")
    S[0]["merchant_looked"][q] = 1 << m
    key = give(S, p, "skeleton_key")
    act(S, TRADE)
    act(S, LOOK)
    act(S, SELL)
    act(S, R.A_CARD + key)
    assert phase(S) == R.PH_SELL                                      # more cards to sell: go on or stop
    act(S, DONE)
    assert phase(S) == R.PH_COMMERCE and R.A_CARD + key in legal(S)    # the seller may buy it back
    assert not R.has_looked(S, 0, q, m) and R.has_looked(S, 0, p, m)


def test_dd_trade_commerce_5_buy_one_card_at_three_times_its_price():
    """L560, L914: the Hero buys one card for three times its base price;
    a card he cannot pay even at 1x is not offered (L997)."""
    S, p = start()
    m, (key, icon) = merchant(S, "fence", ["skeleton_key", "golden_icon"])
    price = int(R.KIND_PRICE[CARD_IDS.index("skeleton_key")])
    S[0]["gold"][p] = 3 * price
    S[0]["merchant_looked"][p] = 1 << m
    act(S, TRADE)
    assert R.A_CARD + key in legal(S) and R.A_CARD + icon not in legal(S)
    act(S, R.A_CARD + key)
    assert phase(S) == R.PH_BUY and int(S[0]["trade_card"]) == key
    act(S, PAY)
    assert held(S, p, key) and gold(S, p) == 0


def test_dd_comp_dice_14_merchant_sells_at_three_times_the_base_price():
    """L252, L560, L914: the price asked is 3x the printed base price; with
    less Gold the Hero must haggle or leave the card."""
    S, p = start()
    m, (helmet,) = merchant(S, "blacksmith", ["helmet"])
    price = int(R.KIND_PRICE[CARD_IDS.index("helmet")])
    assert R.buy_price(S, 0, helmet, 3) == 3 * price
    S[0]["gold"][p] = 3 * price - 1
    S[0]["merchant_looked"][p] = 1 << m
    act(S, TRADE)
    act(S, R.A_CARD + helmet)
    assert legal(S) == sorted([HAGGLE, DONE])


def test_dd_trade_commerce_7_bought_card_may_be_equipped_at_once():
    """L562, L972: a bought card may be equipped at once; then the commerce
    goes on."""
    S, p = start()
    m, (helmet,) = merchant(S, "blacksmith", ["helmet"])
    give(S, p, "skeleton_key")
    S[0]["gold"][p] = 20
    S[0]["merchant_looked"][p] = 1 << m
    act(S, TRADE)
    act(S, R.A_CARD + helmet)
    act(S, PAY)
    assert phase(S) == R.PH_RECEIVED and legal(S) == [R.A_TARGET + T_HEAD, R.A_TARGET + T_BACKPACK]
    act(S, R.A_TARGET + T_HEAD)
    assert int(S[0]["card_slot"][helmet]) == T_HEAD
    assert phase(S) == R.PH_COMMERCE and SELL in legal(S)


def test_dd_trade_commerce_8_bought_epic_revealed_for_1_lp_and_5_fame():
    """L563: a bought Epic not yet revealed this game may be revealed for
    1 LP and 5 Fame; one already revealed earns nothing (L534)."""
    S, p = start()
    m, (icon,) = merchant(S, "fence", ["golden_icon"])
    S[0]["gold"][p] = 100
    S[0]["merchant_looked"][p] = 1 << m
    lp, fame = int(S[0]["lp"][p]), int(S[0]["fame"][p])
    act(S, TRADE)
    act(S, R.A_CARD + icon)
    act(S, PAY)
    assert legal(S) == [R.A_TARGET + T_BACKPACK, R.A_CARD + icon]
    act(S, R.A_CARD + icon)
    assert int(S[0]["lp"][p]) == lp + 1 and int(S[0]["fame"][p]) == fame + 5
    S, p = start()
    m, (icon,) = merchant(S, "fence", ["golden_icon"])
    S[0]["card_revealed"][icon] = 1                                  # revealed earlier in the game
    lp = int(S[0]["lp"][p])
    S[0]["gold"][p] = 100
    S[0]["merchant_looked"][p] = 1 << m
    act(S, TRADE)
    act(S, R.A_CARD + icon)
    act(S, PAY)
    assert held(S, p, icon) and phase(S) == R.PH_COMMERCE            # no reveal offered: nothing to choose
    assert int(S[0]["lp"][p]) == lp


def test_dd_trade_repair_1_repair_pays_the_price_and_clears_the_damage():
    """L565: a Merchant repairs any number of damaged armour cards for the
    repair price shown on each; the Gold goes to the pool and the pink
    Status Cube comes off."""
    S, p = start()
    merchant(S, "armorer")
    helmet = give(S, p, "helmet", T_HEAD)
    shield = next(c for c in range(NUM_CARDS) if held(S, p, c) and R.KIND_SHIELD[R.CARD_KIND[c]])
    S[0]["card_damaged"][helmet] = 1
    S[0]["card_damaged"][shield] = 1
    cost = [int(R.KIND_REPAIR[R.CARD_KIND[c]]) for c in (helmet, shield)]
    S[0]["gold"][p] = sum(cost)
    act(S, TRADE)
    assert REPAIR in legal(S)
    act(S, REPAIR)
    assert legal(S) == sorted([R.A_CARD + helmet, R.A_CARD + shield, DONE])
    act(S, R.A_CARD + helmet)
    act(S, R.A_CARD + shield)
    assert gold(S, p) == 0 and int(S[0]["card_damaged"][helmet]) == 0 and int(S[0]["card_damaged"][shield]) == 0
    assert not R.armor_damaged(S, 0, helmet)


# ---------------------------------------------------------------- Haggling
def bargain(kind="helmet", mid="blacksmith", factor_gold=3):
    """The Knight before the Merchant, the card set apart (PH_BUY)."""
    S, p = start()
    m, (c,) = merchant(S, mid, [kind])
    S[0]["gold"][p] = factor_gold * int(R.KIND_PRICE[R.CARD_KIND[c]])
    S[0]["merchant_looked"][p] = 1 << m
    act(S, TRADE)
    act(S, R.A_CARD + c)
    return S, p, m, c


def test_dd_haggle_1_haggle_over_the_card_being_bought():
    """L983-L985: the Hero may haggle over the card he is buying, set apart
    from the Merchant's other cards."""
    S, p, m, c = bargain()
    assert phase(S) == R.PH_BUY and int(S[0]["trade_card"]) == c and int(S[0]["trade_factor"]) == 3
    assert legal(S) == sorted([PAY, HAGGLE, DONE])


def test_dd_haggle_3_haggle_number_counts_matching_icons():
    """L987-L989: the haggle number is the Hero's icons of the attribute the
    Merchant respects on his Lineage and Class Cards; a Merchant respecting
    two counts both (Interpretations). Human 1 + Knight 0 Cunning, 0 + 1
    Wisdom, 1 + 2 Charisma."""
    S, p = start()
    assert R.haggle_number(S, 0, p, MERCHANT_IDS.index("fence")) == 1              # cunning
    assert R.haggle_number(S, 0, p, MERCHANT_IDS.index("blacksmith")) == 3         # charisma
    assert R.haggle_number(S, 0, p, MERCHANT_IDS.index("gem_cutter")) == 2         # cunning + wisdom


def test_dd_haggle_5_closed_door_shuts_the_merchant_for_the_turn():
    """L995: a closed door on either die fails the haggle and the Merchant
    closes its doors to the Hero for the rest of the turn: the Trade Action
    ends and no other is offered with that Merchant until next turn."""
    S, p, m, c = bargain()
    load(S, 0, DOOR)
    act(S, HAGGLE)
    assert phase(S) == R.PH_ACTION and used(S, p) == 1
    assert int(S[0]["card_where"][c]) == CW_MERCHANT and TRADE not in legal(S)
    S[0]["turn"] += 1
    assert TRADE in legal(S)


def test_dd_haggle_6_high_roll_ends_the_trade_action():
    """L996: a highest number above the haggle number fails and ends the
    Trade Action; a later Trade Action may try again."""
    S, p, m, c = bargain(mid="fence")                                # haggle number 1
    load(S, 2, 0)
    act(S, HAGGLE)
    assert phase(S) == R.PH_ACTION and int(S[0]["card_where"][c]) == CW_MERCHANT
    assert TRADE in legal(S)


def test_dd_haggle_7_success_lowers_the_factor_by_one():
    """L997: a highest number at most the haggle number lowers the price
    from 3x to 2x, then to 1x, never below; the Hero may haggle on in the
    same Trade Action."""
    S, p, m, c = bargain(factor_gold=1)                              # haggle number 3; Gold for 1x only
    assert legal(S) == sorted([HAGGLE, DONE])
    load(S, 3, 1)
    act(S, HAGGLE)
    assert int(S[0]["trade_factor"]) == 2 and legal(S) == sorted([HAGGLE, DONE])
    load(S, 0, 2)
    act(S, HAGGLE)
    assert int(S[0]["trade_factor"]) == 1 and legal(S) == sorted([PAY, DONE])    # no haggling below 1x
    act(S, PAY)
    assert held(S, p, c) and gold(S, p) == 0


def test_dd_haggle_8_card_not_bought_returns():
    """L999: a card not bought goes back to the Merchant; the Buy step is
    spent for this Trade Action."""
    S, p, m, c = bargain()
    act(S, DONE)
    assert int(S[0]["card_where"][c]) == CW_MERCHANT and int(S[0]["card_owner"][c]) == m
    assert phase(S) == R.PH_COMMERCE and R.A_CARD + c not in legal(S)


# ---------------------------------------------------------------- Outlaws haggling (L991, L1124)
def test_dd_haggle_4_an_outlaw_haggles_worse_with_wisdom_and_better_with_cunning():
    """L991: the human Knight (Cunning 1, Wisdom 1, Charisma 3) with one or
    more Outlaw Tokens has one icon less with the Merchants respecting only
    Wisdom (the Quartermaster, the Herbalist: 1 -> 0) and one more with
    those respecting only Cunning (the Fence, the Smuggler, the Peddler:
    1 -> 2); the number of tokens does not matter, and Merchants respecting
    another attribute, or two, are not moved."""
    S, p = start()
    numbers = lambda: {m: R.haggle_number(S, 0, p, MERCHANT_IDS.index(m)) for m in MERCHANT_IDS}
    honest = numbers()
    assert honest == {"blacksmith": 3, "fence": 1, "gem_cutter": 2, "armorer": 3, "quartermaster": 1,
                      "smuggler": 1, "herbalist": 1, "hermit": 4, "peddler": 1}
    change = {"quartermaster": -1, "herbalist": -1, "fence": 1, "smuggler": 1, "peddler": 1}
    for tokens in (1, 3):
        S[0]["outlaw"][p] = tokens
        assert numbers() == {m: n + change.get(m, 0) for m, n in honest.items()}, tokens


def test_dd_haggle_4_an_outlaw_at_the_fence_haggles_where_an_honest_hero_fails():
    """L991, L997: the honest Knight's haggle number with the Fence is 1, and
    a roll of 2 fails (L996); as an Outlaw it is 2: the same roll lowers the
    price from 3x to 2x."""
    S, p, m, c = bargain(mid="fence")
    S[0]["outlaw"][p] = 1
    load(S, 2, 0)
    act(S, HAGGLE)
    assert phase(S) == R.PH_BUY and int(S[0]["trade_factor"]) == 2


def test_dd_haggle_4_the_haggle_number_is_never_below_0():
    """L991: "The minimum haggle number is 0": the halfling Barbarian has no
    Wisdom icon; as an Outlaw with the Quartermaster his number is 0, not -1."""
    S, p = start(lineages=("halfling",), classes=("barbarian",))
    assert R.hero_attribute(S, 0, p, R.ATTR_WISDOM) == 0
    S[0]["outlaw"][p] = 1
    assert R.haggle_number(S, 0, p, MERCHANT_IDS.index("quartermaster")) == 0
