"""The map's flat tables (``board.py``) say what the map reader says, hex by
hex and hexside by hexside, including the errata the rulebook prints."""
import numpy as np

from dragongym.envs.dragon_pass import board as B
from dragongym.envs.dragon_pass.data import MAP


def h(number):
    return MAP.hex_index(number)


def test_steps_are_the_maps_neighbours_and_go_both_ways():
    assert B.HEX_STEP.shape == (B.NUM_HEXES, 7) and (B.HEX_STEP[:, 0] == -1).all()
    for i in range(B.NUM_HEXES):
        assert tuple(int(g) for g in B.HEX_STEP[i, 1:]) == tuple(MAP.neighbours[i])
        for d in range(1, 7):
            g = int(B.HEX_STEP[i, d])
            if g >= 0:
                assert int(B.HEX_STEP[g, (d + 2) % 6 + 1]) == i       # the opposite direction leads back


def test_hex_codes_name_the_maps_terrain_structure_territory_and_fortresses():
    for i in range(B.NUM_HEXES):
        assert B.TERRAIN_IDS[B.HEX_TERRAIN[i]] == MAP.terrain[i]
        assert (B.HEX_STRUCTURE[i] < 0) == (MAP.structure[i] is None)
        if MAP.structure[i] is not None:
            assert B.STRUCTURE_IDS[B.HEX_STRUCTURE[i]] == MAP.structure[i]
        assert B.TERRITORY_IDS[B.HEX_TERRITORY[i]] == MAP.territory[i]
        assert bool(B.HEX_RIVER[i]) == (i in MAP.river_hexes)
        assert bool(B.HEX_FORD[i]) == (i in MAP.fords or i in MAP.headwaters)
    assert sorted(int(k) for k in B.HEX_FORTRESS if k >= 0) == list(range(len(MAP.fortresses)))
    assert B.FORTRESS_NAMES[B.HEX_FORTRESS[MAP.site_named("Boldhome")]] == "Boldhome"


def test_rule_dp_board_ridges_climb_one_way_and_roads_follow_both():
    """L374-L375: a ridge is crossed uphill one way and downhill the other;
    a road along a hexside is the same road from either hex (L363-L366)."""
    for i in range(B.NUM_HEXES):
        for d in range(1, 7):
            g = int(B.HEX_STEP[i, d])
            if g < 0:
                assert B.SIDE_RIDGE[i, d] == 0 and B.SIDE_ROAD[i, d] == 0
                continue
            back = (d + 2) % 6 + 1
            assert B.SIDE_RIDGE[i, d] == -B.SIDE_RIDGE[g, back]
            assert B.SIDE_ROAD[i, d] == B.SIDE_ROAD[g, back]
    assert np.count_nonzero(B.SIDE_RIDGE == 1) == len(MAP.ridges)


def test_rule_dp_board_errata_hexsides():
    """L158: the partial ridge between 2511 and 2610 is a ridge; Cliffhome
    (3904) is ringed by ridges with Cliffhome upslope, so every way in climbs.
    L160: the secondary road in 1813 does not cross into 1914 (nor does any road)."""
    a, b = h("2511"), h("2610")
    d = MAP.direction(a, b)
    assert B.SIDE_RIDGE[a, d] != 0
    cliff = h("3904")
    for d in range(1, 7):
        g = int(B.HEX_STEP[cliff, d])
        if g >= 0:
            assert B.SIDE_RIDGE[g, (d + 2) % 6 + 1] == 1          # from outside up into Cliffhome
    d = MAP.direction(h("1813"), h("1914"))
    assert B.SIDE_ROAD[h("1813"), d] == 0
