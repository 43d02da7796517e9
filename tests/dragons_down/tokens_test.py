"""Tokens placed when a hero first enters a tile (L485-L502)."""
import numpy as np

from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CIV_TOKENS, CW_HERO, CW_MERCHANT, NUM_CARDS, SITE_IDS, T_BACKPACK, T_PENDING, TILE_IDS, TOK_PLACED,
    TOK_SPENT, TW_PLACED, WILD_TOKENS,
)
from tests.dragons_down.actions_test import DEEPDELVE, PLAINS_1, act, deepdelve, load
from tests.dragons_down.setup_test import legal

SECRET_DENS = TILE_IDS.index("secret_dens")
# the Cruel Caves' Wilderness Tokens in pile order (tokens.txt)
CC = [i for i, w in enumerate(WILD_TOKENS) if w.startswith("cc_")]


def with_wilderness_tile():
    """Deepdelve in the centre, the hero placed on it; Secret Dens on the map, not yet entered."""
    S = deepdelve()
    act(S, R.A_CLEARING + PLAINS_1)
    rec = S[0]
    rec["tile_where"][SECRET_DENS] = TW_PLACED
    rec["tile_q"][SECRET_DENS], rec["tile_r"][SECRET_DENS] = 0, -1
    return S


def pick(token_id):
    """The raw draw that picks ``token_id`` among the Cruel Caves tokens still in the pile."""
    return [WILD_TOKENS[i] for i in CC].index(token_id)


def test_dd_move_tokens_civilization_tile_gets_two_civilization_tokens_and_stock():
    """L129, L487-L491: the civilization tile's location gets two random
    Civilization Tokens; a Merchant among them is stocked with cards."""
    S = deepdelve()
    rec = S[0]
    placed = [k for k in range(len(CIV_TOKENS)) if rec["civ_token_where"][k] == TOK_PLACED]
    assert len(placed) == 2 and all(rec["civ_token_clearing"][k] == rec["civ_clearing"][0] for k in placed)
    merchants = [int(R.CIV_TOKEN_MERCHANT[k]) for k in placed if R.CIV_TOKEN_MERCHANT[k] >= 0]
    stocked = {int(rec["card_owner"][c]) for c in range(NUM_CARDS) if rec["card_where"][c] == CW_MERCHANT}
    assert stocked == set(merchants)
    assert int(rec["tile_revealed"][DEEPDELVE]) == 1


def test_dd_move_tokens_one_wilderness_token_on_first_entry_only():
    """L485, L493: the first hero to enter a wilderness tile reveals one of
    its pack's Wilderness Tokens there; the tile gets no more later."""
    S = with_wilderness_tile()
    load(S, pick("cc_gate_2"))
    R.reveal_tile(S, 0, 0, SECRET_DENS)
    gate = WILD_TOKENS.index("cc_gate_2")
    assert int(S[0]["wild_where"][gate]) == TOK_PLACED and int(S[0]["wild_clearing"][gate]) == SECRET_DENS * 6 + 1
    R.reveal_tile(S, 0, 0, SECRET_DENS)
    assert int((S[0]["wild_where"] != 0).sum()) == 1


def test_dd_move_tokens_site_token_places_its_treasure_site():
    """L497: Site: a random Site Token puts its Treasure Site in the clearing
    its number names."""
    S = with_wilderness_tile()
    load(S, pick("cc_site"), 0)                         # the first Site Token: the Catacombs, clearing 3
    R.reveal_tile(S, 0, 0, SECRET_DENS)
    assert int(S[0]["site_clearing"][SITE_IDS.index("catacombs")]) == SECRET_DENS * 6 + 2


def test_dd_move_tokens_item_token_gives_a_card_to_equip_or_stow():
    """L499, L972: Item: the hero draws an Item Card and at once chooses to
    equip it or stow it in the backpack."""
    S = with_wilderness_tile()
    load(S, pick("cc_item"))
    R.reveal_tile(S, 0, 0, SECRET_DENS)
    card = next(c for c in range(NUM_CARDS) if S[0]["card_where"][c] == CW_HERO and S[0]["card_slot"][c] == T_PENDING)
    R.advance(S, 0)
    assert int(S[0]["phase"]) == R.PH_GAINED and R.A_TARGET + T_BACKPACK in legal(S)
    act(S, R.A_TARGET + T_BACKPACK)
    assert int(S[0]["card_slot"][card]) == T_BACKPACK and int(S[0]["phase"]) == R.PH_ACTION
    assert int(S[0]["wild_where"][WILD_TOKENS.index("cc_item")]) == TOK_SPENT


def test_dd_move_tokens_discovery_rolls_two_mission_dice():
    """L501: Discovery: the hero rolls two Mission Dice and takes their rewards."""
    S = with_wilderness_tile()
    gold, fame = int(S[0]["gold"][0]), int(S[0]["fame"][0])
    load(S, pick("cc_discovery"), 1, 5)                 # 4 Gold, 6 Fame
    R.reveal_tile(S, 0, 0, SECRET_DENS)
    assert int(S[0]["gold"][0]) == gold + 4 and int(S[0]["fame"][0]) == fame + 6


def test_dd_move_tokens_forgotten_city_reveals_one_more_token_per_setup_card():
    """L502: the Forgotten City (or Dwarven Ruins) reveals one more token
    from each Terrain Setup Card in play, resolved the same way, and gives the
    revealing hero 1 LP and 5 Fame."""
    S = with_wilderness_tile()
    S[0]["packs"] |= 0b100                                 # the Wicked Woods in play too
    vale = TILE_IDS.index("twisted_vale")
    S[0]["tile_where"][vale] = TW_PLACED
    S[0]["tile_q"][vale], S[0]["tile_r"][vale] = 1, 0
    ww = [WILD_TOKENS[i] for i, w in enumerate(WILD_TOKENS) if w.startswith("ww_")]
    # the city; then, last pushed first: a Wicked Woods gate, a Cruel Caves gate
    load(S, ww.index("ww_forgotten_city"), ww.index("ww_gate_1") - 1, pick("cc_gate_4"))
    lp, fame = int(S[0]["lp"][0]), int(S[0]["fame"][0])
    R.reveal_tile(S, 0, 0, vale)
    assert int(S[0]["lp"][0]) == lp + 1 and int(S[0]["fame"][0]) == fame + 5
    for tok in ("ww_forgotten_city", "ww_gate_1", "cc_gate_4"):
        w = WILD_TOKENS.index(tok)
        assert int(S[0]["wild_where"][w]) == TOK_PLACED and int(S[0]["wild_tile"][w]) == vale


def site_in_deepdelve(site, setup_side=0):
    """The hero on Deepdelve clearing 1 with Treasure Site ``site`` there."""
    S = deepdelve(num_heroes=2)
    p = int(S[0]["to_play"])
    act(S, R.A_CLEARING + PLAINS_1)
    S[0]["site_clearing"][SITE_IDS.index(site)] = PLAINS_1
    S[0]["setup_side"][R.SITE_PACK[SITE_IDS.index(site)]] = setup_side
    return S, p


def pile(S, site):
    """(deck, place) of the cards of the site's Treasure Pile, top first."""
    cards = [c for c in range(NUM_CARDS) if S[0]["card_where"][c] == 4 and S[0]["card_owner"][c] == site]
    return sorted((int(S[0]["card_slot"][c]), int(R.CARD_DECK[c])) for c in cards)


def test_dd_search_5_first_finder_of_a_site_earns_1_lp_and_5_fame_and_draws_its_pile():
    """L508-L511: a hero searches for the Treasure Site in its clearing; two
    spyglasses find it. L517-L520: the first to find it gains 1 LP and 5 Fame
    and its Treasure Pile is drawn, the Deep Treasures on top."""
    S, p = site_in_deepdelve("catacombs")
    site = SITE_IDS.index("catacombs")
    assert R.A_SEARCH_SITE + site in legal(S)
    lp, fame = int(S[0]["lp"][p]), int(S[0]["fame"][p])
    load(S, 0, 1)
    act(S, R.A_SEARCH_SITE + site)
    assert int(S[0]["site_found"][p, site]) == 1 and R.A_SEARCH_SITE + site not in legal(S)
    assert int(S[0]["lp"][p]) == lp + 1 and int(S[0]["fame"][p]) == fame + 5
    treasures, deep, gold = (int(x) for x in R.SITE_LOOT[site, 0])
    assert pile(S, site) == [(i, 2) for i in range(deep)] + [(deep + i, 1) for i in range(treasures)]


def test_dd_search_6_a_later_finder_earns_nothing_and_the_pile_stays():
    """L517: the reward is the first finder's only; L524: each hero must find
    a site itself before looting it."""
    S, p = site_in_deepdelve("catacombs")
    site = SITE_IDS.index("catacombs")
    load(S, 0, 1)
    act(S, R.A_SEARCH_SITE + site)
    before = pile(S, site)
    act(S, R.A_DO + R.DO_PASS)
    q = int(S[0]["to_play"])
    act(S, R.A_CLEARING + PLAINS_1)
    lp = int(S[0]["lp"][q])
    assert R.A_SEARCH_SITE + site in legal(S)
    load(S, 0, 1)
    act(S, R.A_SEARCH_SITE + site)
    assert int(S[0]["site_found"][q, site]) == 1 and int(S[0]["lp"][q]) == lp and pile(S, site) == before


def test_dd_site_secret_cache_first_finder_takes_its_deep_treasure_and_gold():
    """L1244: the first finder of the Secret Cache takes its Deep Treasure and
    its Gold at once; L1248: side 2 of the card's Hidden Trap wounds one of
    its Action Cubes."""
    for setup_side in (0, 1):
        S, p = site_in_deepdelve("secret_cache", setup_side)
        site = SITE_IDS.index("secret_cache")
        gold = int(S[0]["gold"][p])
        healthy = int(S[0]["hearts"][p, 0]) + int(S[0]["cubes"][p, 0].sum())
        load(S, 0, 1)
        act(S, R.A_SEARCH_SITE + site)
        assert int(S[0]["gold"][p]) == gold + int(R.SITE_LOOT[site, setup_side, 2])
        assert int(S[0]["phase"]) == R.PH_GAINED                  # the Deep Treasure: equip or stow
        now = int(S[0]["hearts"][p, 0]) + int(S[0]["cubes"][p, 0].sum())
        assert now == healthy - int(R.SITE_TRAP[site, setup_side])
    assert int(R.SITE_TRAP[SITE_IDS.index("secret_cache"), 1]) == 1
