"""Set-up (L170-L205): the realm dealt and built by the seats or stacked
around a civilization tile, Civilization Locations and Natives, and hero
selection -- played through the compiled driver (rules/driver.py)."""
import itertools

import numpy as np
import pytest

from dragongym.envs.dragons_down import data as D
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CLASS_IDS, CLEARINGS_PER_TILE, CUBE_MAGIC, CUBE_MIGHT, CUBE_SPEED, HS_WAITING, LINEAGE_IDS,
    NATIVE_CHIP_KINDS, SB_EXPLORE, SB_LEGENDARY, SB_OPEN_REALM, ST_HEROES, ST_TURNS, TILE_IDS,
    TW_OUT, TW_PLACED, TW_STACK,
)
from dragongym.envs.dragons_down.state import STATE_DTYPE

ALL_PACKS = 0b111


def new_game(num_heroes=2, sandbox=SB_OPEN_REALM, packs=ALL_PACKS, seed=1, loaded=(),
             legendary_map=SB_OPEN_REALM):
    """A record configured as ``reset_game`` does, with ``loaded`` raw draws
    (consumed by ``roll`` before the game's stream), set up to its first
    decision."""
    S = np.zeros(1, dtype=STATE_DTYPE)
    s = S[0]
    s["seed"], s["num_players"], s["sandbox"], s["packs"] = seed, num_heroes, sandbox, packs
    s["max_turns"], s["legendary_map"] = 30, legendary_map
    for i, v in enumerate(loaded):
        s["loaded"][i] = v
    s["loaded_count"] = len(loaded)
    R.setup_game(S, 0)
    R.advance(S, 0)
    return S


def legal(S):
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    R.fill_mask(S, 0, mask)
    return [int(a) for a in np.flatnonzero(mask)]


def play(S, rng, until_stage=ST_TURNS, on_place=None):
    """Random legal decisions until ``stage`` reaches ``until_stage``."""
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    while int(S[0]["stage"]) < until_stage:
        acts = legal(S)
        assert acts, f"stage {int(S[0]['stage'])}: no decision pending and no progress"
        placed = int(S[0]["tiles_placed"])
        assert R.apply_action(S, 0, int(rng.choice(acts)), mask) == R.E_OK
        if on_place is not None and int(S[0]["tiles_placed"]) > placed:
            on_place(S)


def pack_bits(packs):
    return sum(1 << D.PACKS.index(p) for p in packs)


PACK_SETS = [c for n in (1, 2, 3) for c in itertools.combinations(D.PACKS, n)]


@pytest.mark.parametrize("num_heroes", [1, 2, 4, 6])
@pytest.mark.parametrize("packs", PACK_SETS, ids=["+".join(p) for p in PACK_SETS])
def test_rule_dd_setup_open_realm_map_is_built_by_the_seats(packs, num_heroes):
    """L109: all tiles are dealt to the seats, then placed one at a time, each
    placement legal when made (checked by data.py's reference); L189: each
    civilization tile revealed gets its Civilization Location in clearing 1-4."""
    S = new_game(num_heroes=num_heroes, packs=pack_bits(packs), seed=11 * num_heroes)
    order = []

    def record(S):
        t = next(t for t in range(len(TILE_IDS)) if S[0]["tile_where"][t] == TW_PLACED
                 and TILE_IDS[t] not in {p.tile for p in order})
        rec = S[0]
        order.append(D.Placement(TILE_IDS[t], int(rec["tile_side"][t]) + 1, int(rec["tile_rot"][t]),
                                 int(rec["tile_q"][t]), int(rec["tile_r"][t])))
    play(S, np.random.default_rng(num_heroes), until_stage=ST_HEROES, on_place=record)
    placed = {(p.q, p.r): p for p in order}
    for i in range(1, len(order)):
        before = {(p.q, p.r): p for p in order[:i]}
        assert order[i] in D.legal_placements(D.REALM, before, order[i].tile)
    in_play = [t for t in TILE_IDS if D.REALM.tiles[t].pack in packs]
    out = [TILE_IDS[t] for t in range(len(TILE_IDS)) if S[0]["tile_where"][t] == TW_OUT]
    assert sorted([p.tile for p in order] + [t for t in out if t in in_play]) == sorted(in_play)
    assert len(placed) == len(order)
    for k, pack in enumerate(D.PACKS):
        c = int(S[0]["civ_clearing"][k])
        civ = TILE_IDS.index(next(t for t in in_play if D.REALM.tiles[t].pack == pack
                                  and D.REALM.tiles[t].kind == "civilization")) if pack in packs else -1
        if pack in packs and S[0]["tile_where"][civ] == TW_PLACED:
            assert c // CLEARINGS_PER_TILE == civ and c % CLEARINGS_PER_TILE < 4
        elif pack not in packs:
            assert c == -1


def test_rule_dd_setup_terrain_setup_cards_random_side_up():
    sides = {tuple(new_game(packs=0b101, seed=seed)[0]["setup_side"]) for seed in range(1, 40)}
    assert {s[0] for s in sides} == {0, 1} and {s[2] for s in sides} == {0, 1}
    assert {s[1] for s in sides} == {-1}                   # a pack not in play has no card


def test_rule_dd_setup_civilization_location_rerolls_5_and_6():
    """L189: roll a d6 for the clearing and reroll 5s and 6s. Explore the
    Realm with one pack: the setup card's side, five swaps of the shuffle, the
    centre tile and its side come first; then the d6 shows 6, then 5, then 3."""
    S = new_game(sandbox=SB_EXPLORE, packs=0b001, loaded=[0] * 8 + [5, 4, 2])
    civ = int(R.CIV_TILE_OF_PACK[0])
    assert int(S[0]["civ_clearing"][0]) == civ * CLEARINGS_PER_TILE + 2       # clearing 3


def test_rule_dd_setup_natives_are_stacked_on_the_civilization_location():
    """L189, L312: the Natives the Terrain Setup Card lists go on the location."""
    for seed in range(1, 6):
        S = new_game(sandbox=SB_EXPLORE, packs=0b100, seed=seed)
        rec = S[0]
        card = D.REALM.setup_cards["wicked_woods"].sides[int(rec["setup_side"][2])]
        there = sorted(NATIVE_CHIP_KINDS[c] for c in range(len(NATIVE_CHIP_KINDS))
                       if rec["native_clearing"][c] == rec["civ_clearing"][2])
        assert there == sorted(card.natives)
        assert all(rec["native_clearing"][c] == -1 for c in range(len(NATIVE_CHIP_KINDS))
                   if NATIVE_CHIP_KINDS[c] not in card.natives or
                   D.REALM.natives[NATIVE_CHIP_KINDS[c]].pack != "wicked_woods")


@pytest.mark.parametrize("sandbox,legendary_map", [(SB_EXPLORE, SB_OPEN_REALM),
                                                    (SB_LEGENDARY, SB_EXPLORE)])
def test_rule_dd_setup_explore_starts_from_a_civilization_tile_in_the_centre(sandbox, legendary_map):
    """L129: a random civilization tile of a pack in play in the centre, the
    other tiles shuffled into the stack; the Legendary sandbox may use these
    map rules (L153)."""
    centres = set()
    for seed in range(1, 12):
        S = new_game(sandbox=sandbox, legendary_map=legendary_map, packs=0b011, seed=seed)
        rec = S[0]
        placed = [t for t in range(len(TILE_IDS)) if rec["tile_where"][t] == TW_PLACED]
        assert len(placed) == 1 and D.REALM.tiles[TILE_IDS[placed[0]]].kind == "civilization"
        assert (rec["tile_q"][placed[0]], rec["tile_r"][placed[0]]) == (0, 0)
        stack = [int(t) for t in rec["tile_stack"][:int(rec["stack_len"])]]
        assert sorted(stack) == [t for t in range(12) if t != placed[0]]
        assert all(rec["tile_where"][t] == TW_STACK for t in stack)
        assert int(rec["stage"]) == ST_HEROES
        centres.add(placed[0])
    assert centres == {0, 6}                               # either pack's civilization tile


def cards_cubes(lineage, lside, cls, cside):
    """Printed cubes of the two cards, as tuples of options."""
    return (D.REALM.lineages[lineage].sides[lside].cubes + D.REALM.classes[cls].sides[cside].cubes)


def kind_of(name):
    return {"might": CUBE_MIGHT, "speed": CUBE_SPEED}.get(name, CUBE_MAGIC + D.MAGIC_COLOURS.index(name)
                                                         if name in D.MAGIC_COLOURS else None)


def test_rule_dd_setup_a_hero_is_a_lineage_and_a_class_card_either_side_up():
    """L198: choose a Lineage Card and a Class Card, each either side up; L199:
    Hearts of both; L200: the cubes they show, choosing the colour of a cube
    showing several; L202: the Class Card's starting Gold."""
    S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b001)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    assert legal(S) == [R.A_LINEAGE + i for i in range(4)]
    R.apply_action(S, 0, R.A_LINEAGE + LINEAGE_IDS.index("elf"), mask)
    assert legal(S) == [R.A_SIDE, R.A_SIDE + 1]
    R.apply_action(S, 0, R.A_SIDE + 0, mask)
    assert legal(S) == [R.A_CLASS + i for i in range(12)]
    R.apply_action(S, 0, R.A_CLASS + CLASS_IDS.index("druid"), mask)
    R.apply_action(S, 0, R.A_SIDE + 0, mask)
    printed = cards_cubes("elf", 0, "druid", 0)
    multi = [o for o in printed if len(o) > 1]
    assert multi, "the data's Elf shows a multi-colour cube on side 1"
    assert legal(S) == sorted(R.A_CUBE + kind_of(c) for c in multi[0])
    R.apply_action(S, 0, R.A_CUBE + kind_of(multi[0][-1]), mask)
    rec = S[0]
    assert int(rec["stage"]) == ST_TURNS and int(rec["hero_state"][0]) == HS_WAITING
    assert int(rec["hearts"][0, 0]) == (D.REALM.lineages["elf"].sides[0].hearts
                                        + D.REALM.classes["druid"].sides[0].hearts)
    expected = np.zeros(CUBE_MAGIC + len(D.MAGIC_COLOURS), dtype=int)
    for options in printed:
        expected[kind_of(options[-1] if len(options) > 1 else options[0])] += 1
    assert list(rec["cubes"][0, 0]) == list(expected)
    assert int(rec["gold"][0]) == D.REALM.classes["druid"].sides[0].gold


def test_interpretation_dd_setup_classes_are_unique_lineages_may_repeat():
    """One Hero Chip and Targeting Token per class (L198): a class another
    hero took is not offered; the four lineages serve six heroes, so they may
    repeat (Interpretations)."""
    S = new_game(num_heroes=2, sandbox=SB_EXPLORE, packs=0b001)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    first = int(S[0]["to_play"])
    for a in (R.A_LINEAGE + 0, R.A_SIDE, R.A_CLASS + 3, R.A_SIDE):
        R.apply_action(S, 0, a, mask)
    while int(S[0]["to_play"]) == first:
        R.apply_action(S, 0, legal(S)[0], mask)
    assert R.A_LINEAGE + 0 in legal(S)
    R.apply_action(S, 0, R.A_LINEAGE + 0, mask)
    R.apply_action(S, 0, R.A_SIDE, mask)
    assert R.A_CLASS + 3 not in legal(S) and len(legal(S)) == 11


def test_rule_dd_setup_hero_selection_order_is_random():
    firsts = {int(new_game(num_heroes=4, sandbox=SB_EXPLORE, packs=1, seed=seed)[0]["to_play"])
              for seed in range(1, 30)}
    assert firsts == {0, 1, 2, 3}
    S = new_game(num_heroes=4, sandbox=SB_EXPLORE, packs=1)
    assert sorted(int(p) for p in S[0]["hero_order"][:4]) == [0, 1, 2, 3]


def test_dd_sandbox_open_2_tiles_dealt_evenly_and_placed_clockwise_from_a_random_player():
    """L109: all tiles dealt as evenly as possible to the seats; the map is
    built from a random seat, moving clockwise (the next seat), each seat
    placing one of its own tiles."""
    firsts = set()
    for seed in range(1, 16):
        S = new_game(num_heroes=4, packs=ALL_PACKS, seed=seed)
        rec = S[0]
        dealt = [int((rec["tile_holder"] == p).sum()) for p in range(4)]
        assert sorted(dealt) == [4, 4, 5, 5]                 # 18 tiles over four seats
        first = int(rec["to_play"])
        firsts.add(first)
        mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
        seats = []
        rng = np.random.default_rng(seed)
        while len(seats) < 6:
            if int(S[0]["phase"]) == R.PH_TILE_CHOOSE:
                p = int(S[0]["to_play"])
                seats.append(p)
                a = int(rng.choice(legal(S)))
                assert S[0]["tile_holder"][a - R.A_TILE] == p      # one of its own tiles
            else:
                a = int(rng.choice(legal(S)))
            R.apply_action(S, 0, a, mask)
        assert seats == [(first + i) % 4 for i in range(6)]
    assert len(firsts) > 1
