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


# ---------------------------------------------------------------- the tokens' packs (L334-L344), Merchants (L491)
TWISTED_VALE = TILE_IDS.index("twisted_vale")


def with_all_packs():
    """with_wilderness_tile(), all three packs in play (each setup card side 1),
    Twisted Vale (Wicked Woods) and Tri-Peaks (Malevolent Mountains) on the map too."""
    S = with_wilderness_tile()
    rec = S[0]
    rec["packs"] = 0b111
    rec["setup_side"][:] = 0
    for t, (q, r) in ((TWISTED_VALE, (1, 0)), (TILE_IDS.index("tri_peaks"), (-1, 0))):
        rec["tile_where"][t] = TW_PLACED
        rec["tile_q"][t], rec["tile_r"][t] = q, r
    return S


def test_dd_comp_wildtokens_1_token_drawn_from_the_tiles_own_pack():
    """L334-L336: a Wilderness Token's back shows its Terrain Pack, which
    decides the tiles it goes in: a Malevolent Mountains token in a Malevolent
    Mountains tile. With all three piles full, the first token of every
    wilderness tile revealed is one of its own pack's."""
    S = with_all_packs()
    for tile in (SECRET_DENS, TWISTED_VALE, TILE_IDS.index("tri_peaks")):
        pack = int(R.TILE_PACK[tile])
        packs = set()
        for seed in range(1, 25):
            T = S.copy()
            T[0]["seed"] = seed
            R.reveal_tile(T, 0, 0, tile)
            first = [w for w in range(len(WILD_TOKENS)) if int(T[0]["wild_tile"][w]) == tile]
            assert first, "the tile got its token"
            assert any(int(R.WILD_PACK[w]) == pack for w in first)
            if len(first) == 1:                            # (a Special Location brings one of each pack, L502)
                packs.add(int(R.WILD_PACK[first[0]]))
        assert packs == {pack}


def test_dd_comp_sitetokens_3_named_wilderness_token_is_a_treasure_site():
    """L344: a Wilderness Token naming a Treasure Site (the Wicked Woods'
    Secret Cache) is a Treasure Site for all purposes: revealed, the site
    stands in the clearing numbered on it (L498); a hero there may Search for
    it (L508) and its first finder earns 1 LP and 5 Fame (L517) and, it
    being the Secret Cache, its Deep Treasure and Gold (L1244)."""
    S = with_all_packs()
    ww = [i for i, w in enumerate(WILD_TOKENS) if w.startswith("ww_")]
    load(S, [WILD_TOKENS[i] for i in ww].index("ww_secret_cache"))
    R.reveal_tile(S, 0, 0, TWISTED_VALE)
    cache = SITE_IDS.index("secret_cache")
    where = TWISTED_VALE * 6 + 4                          # clearing 5, as numbered on the token
    assert int(S[0]["site_clearing"][cache]) == where
    S[0]["hero_clearing"][0] = where
    assert R.A_SEARCH_SITE + cache in legal(S)
    lp, fame, gold = int(S[0]["lp"][0]), int(S[0]["fame"][0]), int(S[0]["gold"][0])
    load(S, 0, 1)                                          # two spyglasses
    act(S, R.A_SEARCH_SITE + cache)
    assert int(S[0]["site_found"][0, cache]) == 1
    assert (int(S[0]["lp"][0]), int(S[0]["fame"][0])) == (lp + 1, fame + 5)
    assert int(S[0]["gold"][0]) == gold + int(R.SITE_LOOT[cache, 0, 2])
    assert int(S[0]["phase"]) == R.PH_GAINED               # its Deep Treasure, to equip or stow


def test_dd_move_tokens_4_new_merchant_stocked_from_the_decks():
    """L491: each newly revealed Merchant is filled with the number of
    treasures and items its Terrain Setup Card lists for it (on the side up),
    the treasures from the Treasure deck (never the Deep one) and the items
    from the Item deck. (Its missions come with part 2.)"""
    from dragongym.envs.dragons_down.constants import CW_DECK, DECK_ITEM, DECK_TREASURE, TOK_POOL
    S = with_all_packs()
    rec = S[0]
    for c in range(NUM_CARDS):                             # the centre tile's stock back in the decks
        if rec["card_where"][c] == CW_MERCHANT:
            rec["card_where"][c], rec["card_owner"][c], rec["card_slot"][c] = CW_DECK, R.CARD_DECK[c], -1
    rec["civ_token_where"][:] = TOK_POOL
    checked = 0
    for side in (0, 1):
        rec["setup_side"][:] = side
        for k in range(len(CIV_TOKENS)):
            m = int(R.CIV_TOKEN_MERCHANT[k])
            if m < 0:
                continue
            T = S.copy()
            load(T, k)                                     # all twelve in the pool: the k-th
            R.reveal_civ_token(T, 0, PLAINS_1, 1)
            stock = [c for c in range(NUM_CARDS) if T[0]["card_where"][c] == CW_MERCHANT and T[0]["card_owner"][c] == m]
            treasures = [c for c in stock if int(R.CARD_DECK[c]) == DECK_TREASURE]
            items = [c for c in stock if int(R.CARD_DECK[c]) == DECK_ITEM]
            assert (len(treasures), len(items)) == tuple(int(x) for x in R.MERCHANT_STOCK[m, side, :2])
            assert len(stock) == len(treasures) + len(items)   # no Deep Treasure
            listed = [k for k in range(R.NUM_MISSIONS) if T[0]["mission_where"][k] == R.MW_MERCHANT
                      and T[0]["mission_owner"][k] == m]
            assert len(listed) == int(R.MERCHANT_STOCK[m, side, 2])   # and its missions (L564)
            checked += 1
    assert checked == 18


def test_dd_move_tokens_9_treasure_token_gives_the_top_treasure_card():
    """L500: Treasure: the hero draws a treasure from the top of the Treasure
    Deck -- never the Deep Treasure Deck -- and may equip it at once (L972):
    whichever card the (shuffled, L185) deck gives is a Treasure Card, and a
    ring drawn may go straight onto a hand."""
    from dragongym.envs.dragons_down.constants import CARD_IDS, CW_DECK, DECK_TREASURE, T_HAND1
    S = with_wilderness_tile()
    deck = [c for c in range(NUM_CARDS) if S[0]["card_where"][c] == CW_DECK and int(R.CARD_DECK[c]) == DECK_TREASURE]
    for raw in range(len(deck)):
        T = S.copy()
        load(T, pick("cc_treasure"), raw)
        R.reveal_tile(T, 0, 0, SECRET_DENS)
        got, = [c for c in range(NUM_CARDS) if T[0]["card_where"][c] == CW_HERO and T[0]["card_slot"][c] == T_PENDING]
        assert got == deck[raw] and int(R.CARD_DECK[got]) == DECK_TREASURE
    ring = next(i for i, c in enumerate(deck) if CARD_IDS[R.CARD_KIND[c]] == "ring_of_strength")
    load(S, pick("cc_treasure"), ring)
    R.reveal_tile(S, 0, 0, SECRET_DENS)
    R.advance(S, 0)
    assert int(S[0]["phase"]) == R.PH_GAINED and R.A_TARGET + T_HAND1 in legal(S)
    act(S, R.A_TARGET + T_HAND1)
    assert int(S[0]["card_slot"][deck[ring]]) == T_HAND1


def test_dd_site_cache_2_bandits_summon_as_one_group():
    """L1246: the Bandits always summon as a group, as if they were a single
    Guardian: the site symbol with a hero on the Secret Cache's tile brings
    every Bandit chip to the Cache at once -- from the tray, from another
    tile, from a hero's clearing (L633). (The red arrow is Desolation's.)"""
    from dragongym.envs.dragons_down.constants import MONSTER_CHIP_KINDS, MONSTER_IDS
    from tests.dragons_down.activation_test import BLANK, ONE, SITE, battle, clearing
    cache, hero, elsewhere = clearing("twisted_vale", 5), clearing("twisted_vale", 1), clearing("tri_peaks", 1)
    bandits = [m for m in range(len(MONSTER_CHIP_KINDS)) if MONSTER_IDS[MONSTER_CHIP_KINDS[m]] == "bandit"]
    assert len(bandits) == 3
    S = battle(["twisted_vale", "tri_peaks"], [("knight", hero), ("rogue", elsewhere)],
               monsters=[("bandit", elsewhere)], dice=[BLANK, ONE, SITE, ONE])
    S[0]["site_clearing"][SITE_IDS.index("secret_cache")] = cache
    R.start_activation(S, 0)
    assert [int(S[0]["mon_clearing"][m]) for m in bandits] == [cache] * 3
