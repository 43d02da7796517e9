"""The Dragons Down state record keeps the platform's common fields and
serialises faithfully (no padding bytes); its Legend Points, Fame and Gold
counters are the common, unlimited pool of L187 and L262-L274."""
import numpy as np

from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import MAX_HEROES, NUM_CLEARINGS, NUM_TILES
from dragongym.envs.dragons_down.state import STATE_DTYPE


def test_the_record_has_the_platforms_common_fields():
    for name in ("seed", "rng_counter", "status", "to_play", "rank", "score", "rewards",
                 "decisions", "phase", "stage"):
        assert name in STATE_DTYPE.names
    assert STATE_DTYPE["rank"].shape == (MAX_HEROES,)


def test_the_record_has_no_padding_so_bytes_are_the_position():
    assert sum(STATE_DTYPE.fields[n][0].itemsize for n in STATE_DTYPE.names) == STATE_DTYPE.itemsize
    a = np.zeros(1, dtype=STATE_DTYPE)
    b = np.zeros(1, dtype=STATE_DTYPE)
    a["tile_q"][0, 3] = 2
    assert a.tobytes() != b.tobytes()


def test_every_tile_and_clearing_has_a_place_in_the_record():
    """L288: 18 Map Tiles, three packs of six; clearings are numbered tile * 6 + k."""
    assert NUM_TILES == 18 and NUM_CLEARINGS == 108
    assert STATE_DTYPE["tile_where"].shape == (NUM_TILES,)


# ---------------------------------------------------------------- Legend Points, Fame and Gold (L187, L262-L274)
def two_heroes():
    """Two heroes in the wilderness (Secret Dens 2) at the end of a battle phase."""
    from tests.dragons_down.fate_test import WILD, fated
    return fated([("knight", WILD), ("rogue", WILD)])


def test_dd_setup_game_10_awards_come_from_the_common_pool():
    """L187: Legend Points, Fame and Gold lie in one pool by the map. A hero
    who earns them takes them from the pool, not from another hero; Gold he
    pays goes back to the pool (L565), not to anyone."""
    from dragongym.envs.dragons_down.constants import SITE_IDS
    S = two_heroes()
    s = S[0]
    s["lp"][1], s["fame"][1], s["gold"][1] = 3, 7, 11
    R.open_site(S, 0, 0, SITE_IDS.index("catacombs"))          # the first finder's 1 LP and 5 Fame (L517)
    assert (int(s["lp"][0]), int(s["fame"][0])) == (1, 5)
    assert (int(s["lp"][1]), int(s["fame"][1]), int(s["gold"][1])) == (3, 7, 11)
    from tests.dragons_down.fate_test import give
    armour = give(S, 0, "chainmail")
    s["card_damaged"][armour] = 1
    s["gold"][0] = 10
    R.repair_armor(S, 0, 0, armour)                             # the repair price, to the pool
    assert int(s["gold"][0]) == 10 - int(R.KIND_REPAIR[R.CARD_KIND[armour]]) and int(s["gold"][1]) == 11


def test_dd_comp_score_1_legend_points_are_unbounded():
    """L264-L266: Legend Points are the victory points and are not limited by
    the tokens in the box: a hero far past any supply still earns them, at
    the finding of a site and from Fame at his death (L803), and the most LP
    ranks first (L121)."""
    from dragongym.envs.dragons_down.constants import SITE_IDS
    assert np.dtype(STATE_DTYPE["lp"].base).itemsize >= 2 and np.issubdtype(STATE_DTYPE["lp"].base, np.signedinteger)
    S = two_heroes()
    s = S[0]
    s["lp"][0] = 500
    R.open_site(S, 0, 0, SITE_IDS.index("catacombs"))
    assert int(s["lp"][0]) == 501
    s["fame"][0] = 4000                                        # 2000 kept at death: 200 LP more
    R.kill_hero(S, 0, 0)
    assert int(s["best"][0, 0]) == 701
    s["lp"][1] = 699                                          # 700 with the living legend (L820)
    s["turn"] = 30
    R.advance(S, 0)
    assert list(s["rank"][:2]) == [1, 2] and float(s["score"][0]) == 701.0


def test_dd_comp_score_3_fame_is_unbounded():
    """L270: Fame is not limited by the tokens provided: a hero holding
    thousands still gains the 5 Fame of a finding (L517) and the Fame of a
    Discovery (L501)."""
    from dragongym.envs.dragons_down.constants import SITE_IDS
    assert np.dtype(STATE_DTYPE["fame"].base).itemsize >= 2
    S = two_heroes()
    s = S[0]
    s["fame"][0] = 9000
    R.open_site(S, 0, 0, SITE_IDS.index("catacombs"))
    assert int(s["fame"][0]) == 9005


def test_dd_comp_score_4_gold_is_unbounded():
    """L272-L274: Gold, the currency, is not limited by the tokens provided:
    a rich hero still takes the price of a card he sells (L559), and a body
    keeps all its Gold (L805)."""
    from tests.dragons_down.fate_test import give
    S = two_heroes()
    s = S[0]
    c = give(S, 0, "long_sword")
    s["gold"][0] = 20000
    R.sell_card(S, 0, 0, 0, c)
    assert int(s["gold"][0]) == 20000 + int(R.KIND_PRICE[R.CARD_KIND[c]])
    R.kill_hero(S, 0, 0)
    assert int(s["site_gold"][R.NUM_SITES + 0]) == 20000 + int(R.KIND_PRICE[R.CARD_KIND[c]])
