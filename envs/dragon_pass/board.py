"""The Dragon Pass map as the flat integer tables a compiled rules core reads.

Built once at import from ``data.MAP`` (``map.txt``). A hex is its index
``0 .. NUM_HEXES - 1`` (``data.MAP.hex_index("3727")``); a direction ``d`` is
1..6 (N NE SE S SW NW, ``envs/core/hexgrid.py``), and column 0 of every
per-hexside table stands for "no direction" so that ``HEX_STEP[h, 0] == -1``
(the layout of ``hexgrid.build_tables``).

=================  ==========  ===========================================================
table              shape       value
=================  ==========  ===========================================================
``HEX_STEP``       (n, 7)      the neighbour of h in direction d, -1 off the map
``HEX_TERRAIN``    (n,)        ``TERRAIN_IDS`` index (L335-L341, lake L372)
``HEX_STRUCTURE``  (n,)        ``STRUCTURE_IDS`` index, -1 for none (L350-L355)
``HEX_TERRITORY``  (n,)        ``TERRITORY_IDS`` index (L142-L150)
``HEX_RIVER``      (n,)        1 on a river hex (L370)
``HEX_FORD``       (n,)        1 on a ford or headwaters hex: the river's restrictions
                               do not apply (L371)
``HEX_FORTRESS``   (n,)        ``FORTRESS_NAMES`` index, -1 for none
``SIDE_RIDGE``     (n, 7)      +1 crossing from h in direction d climbs a ridge, -1
                               comes down one, 0 no ridge (L374-L375)
``SIDE_ROAD``      (n, 7)      bits ``ROAD_PRIMARY | ROAD_SECONDARY | ROAD_DRAGONEWT``: the
                               roads that follow the hexside (L363-L366)
=================  ==========  ===========================================================

What these features cost or change (movement points, combat multipliers) is
the rules' business, with the printed tables of ``data.DATA.tables``; this
module only lays the map out. Pure numpy; nothing is compiled here.
"""
import numpy as np

from .data import MAP
from .mapdata import STRUCTURES, TERRAIN, TERRITORIES

NUM_HEXES = MAP.n
NUM_DIRECTIONS = 6

TERRAIN_IDS = tuple(TERRAIN.values())
"""Terrain codes, in ``map.txt``'s letter order: open, hill, hill_forest, forest,
mountain, marsh, lake."""
STRUCTURE_IDS = STRUCTURES
TERRITORY_IDS = tuple(TERRITORIES.values())
ROAD_PRIMARY, ROAD_SECONDARY, ROAD_DRAGONEWT = 1, 2, 4
ROAD_BITS = {"primary": ROAD_PRIMARY, "secondary": ROAD_SECONDARY, "dragonewt": ROAD_DRAGONEWT}
FORTRESS_NAMES = tuple(f.name for f in MAP.fortresses)
"""The fortresses (``data.MAP.fortresses`` order)."""


def _code(values, ids, empty=None):
    out = np.full(len(values), -1, dtype=np.int8)
    for h, v in enumerate(values):
        if v != empty:
            out[h] = ids.index(v)
    return out


def _side_tables():
    ridge = np.zeros((NUM_HEXES, NUM_DIRECTIONS + 1), dtype=np.int8)
    road = np.zeros((NUM_HEXES, NUM_DIRECTIONS + 1), dtype=np.int8)
    for h in range(NUM_HEXES):
        for d in range(1, NUM_DIRECTIONS + 1):
            g = int(HEX_STEP[h, d])
            if g < 0:
                continue
            high = MAP.ridge_high(h, g)
            if high is not None:
                ridge[h, d] = 1 if high == g else -1
            for kind in MAP.road_kinds(h, g):
                road[h, d] |= ROAD_BITS[kind]
    return ridge, road


HEX_STEP = MAP.step_table().astype(np.int32)
HEX_TERRAIN = _code(MAP.terrain, TERRAIN_IDS)
HEX_STRUCTURE = _code(MAP.structure, STRUCTURE_IDS)
HEX_TERRITORY = _code(MAP.territory, TERRITORY_IDS)
HEX_RIVER = np.array([h in MAP.river_hexes for h in range(NUM_HEXES)], dtype=np.int8)
HEX_FORD = np.array([h in MAP.fords or h in MAP.headwaters for h in range(NUM_HEXES)], dtype=np.int8)
HEX_FORTRESS = np.full(NUM_HEXES, -1, dtype=np.int8)
for _k, _f in enumerate(MAP.fortresses):
    HEX_FORTRESS[_f.hex] = _k
SIDE_RIDGE, SIDE_ROAD = _side_tables()
