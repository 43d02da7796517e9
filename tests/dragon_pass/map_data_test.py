"""The Dragon Pass map (envs/dragon_pass/data/map.txt): every fact the rulebook
states about the map, the readings we chose where it contradicts itself, the
authored map's playability, and clear errors from corrupt files.

Lines (L123) are lines of shared/rules/dragon_pass.txt; what is substituted and
why is in envs/dragon_pass/SUBSTITUTES.md ("The map").
"""
import shutil

import numpy as np
import pytest

from dragongym.envs.core import hexgrid
from dragongym.envs.dragon_pass import mapdata as M
from tests.core.datafile_edits import edit, line_of

MAP = M.MAP


def ix(h):
    return MAP.hex_index(h)


def col(i):
    return int(MAP.ids[i][:2])


def row(i):
    return int(MAP.ids[i][2:])


def reachable(start, allowed):
    """Hexes reachable from the set ``start`` through hexes where allowed(i) holds."""
    seen, todo = set(start), list(start)
    while todo:
        x = todo.pop()
        for y in MAP.neighbours[x]:
            if y >= 0 and y not in seen and allowed(y):
                seen.add(y)
                todo.append(y)
    return seen


def not_lake(i):
    return MAP.terrain[i] != "lake"


# -------------------------------------------------------------- grid ----

def test_rule_dp_map_every_hex_number_in_the_rulebook_is_on_the_map():
    """L73, L76, L79, L81-L83, L85, L155-L160, L750, L774, L886, L916: all named hexes exist."""
    for h in M.RULE_HEX_NUMBERS:
        assert MAP.hex_id(ix(h)) == h


def test_rule_dp_map_grid_is_45_columns_by_34_rows_about_1500_hexes():
    """Column 45 holds Giants Walk 4505 on the NE edge (L85) and the altars 4520, 4529 (L157);
    row 34 holds Stone Cross 1934 on the south edge (L155, L297). 1530 hexes, the printed
    map's size order ("about 1,500")."""
    assert (MAP.columns, MAP.rows, MAP.n) == (45, 34, 1530)
    assert MAP.ids[0] == "0101" and MAP.ids[-1] == "4534"
    assert MAP.is_edge("4505") and col(ix("4505")) == MAP.columns
    assert row(ix("1934")) == MAP.rows


def test_rule_dp_map_errata_hexsides_are_between_neighbours():
    """L158 names the hexside between 2511 and 2610; L160 the step 1813 -> 1914; L159 puts
    0806 beside 0707. Only the even-q layout (even columns half a hex lower) makes all
    three pairs neighbours."""
    assert MAP.adjacent("2511", "2610") and MAP.direction("2511", "2610") == 2   # NE
    assert MAP.adjacent("1813", "1914") and MAP.direction("1813", "1914") == 3   # SE
    assert MAP.adjacent("0707", "0806") and MAP.direction("0707", "0806") == 2   # NE


def test_map_neighbour_rule_even_q():
    """Odd column c: NE (c+1, r-1), SE (c+1, r); even column: NE (c+1, r), SE (c+1, r+1)."""
    def ids(h):
        return [MAP.ids[j] if j >= 0 else None for j in MAP.neighbours[ix(h)]]
    assert ids("2511") == ["2510", "2610", "2611", "2512", "2411", "2410"]
    assert ids("2610") == ["2609", "2710", "2711", "2611", "2511", "2510"]
    assert ids("0101") == [None, None, "0201", "0102", None, None]
    assert ids("4534") == ["4533", None, None, None, "4434", "4433"]
    for i in range(MAP.n):
        assert len(MAP.neighbours[i]) == 6
        for d, j in enumerate(MAP.neighbours[i], 1):
            if j >= 0:
                assert MAP.neighbours[j][hexgrid.opposite(d) - 1] == i
                assert MAP.distance(i, j) == 1
    edge = sum(1 for i in range(MAP.n) if MAP.is_edge(i))
    assert edge == 2 * 45 + 2 * 34 - 4       # exactly the hexes of the outer rows and columns


def test_map_step_table_and_distances_follow_core_hexgrid():
    """Column CC is hexgrid's odd-q column CC - 1; step_table has build_tables' layout."""
    step = MAP.step_table()
    assert step.dtype == np.int16 and step.shape == (MAP.n, 7) and (step[:, 0] == -1).all()
    for h in ("2511", "1813", "0707", "4505"):
        i = ix(h)
        q, r = hexgrid.offset_to_axial(col(i) - 1, row(i))
        for d in range(1, 7):
            j = step[i, d]
            if j >= 0:
                q2, r2 = hexgrid.offset_to_axial(col(j) - 1, row(j))
                assert (q2 - q, r2 - r) == hexgrid.DIRECTIONS[d]
    assert MAP.distance("0101", "4534") == 55   # 44 columns east, then 11 more hexes south


# ----------------------------------------------------------- terrain ----

def test_rule_dp_map_terrain_is_the_rulebooks_terrain_types_and_no_sea():
    """L335-L341 terrain types, L372 lakes; sea is Nomad Gods only (L435)."""
    used = set(MAP.terrain)
    assert used == {"open", "hill", "hill_forest", "forest", "mountain", "marsh", "lake"}
    assert "sea" not in used


def test_rule_dp_map_lakes_hold_no_place_road_river_or_symbol():
    """L372: no unit can end a turn in a lake, so no place, home or symbol lies on one."""
    lakes = {i for i, t in enumerate(MAP.terrain) if t == "lake"}
    assert lakes
    assert not lakes & set(MAP.sites) and not lakes & set(MAP.symbols)
    assert not lakes & MAP.river_hexes
    assert not any(lakes & set(r.path) for r in MAP.roads)
    assert not any(lakes & set(h) for h in MAP.homes.values())


def test_rule_dp_map_temples():
    """L155: the nine temples of the Terrain Clarifications (Sun Dome at 2631, see below)."""
    temples = {"1108": "Temple of the Reaching Moon", "1902": "Travelling Stone",
               "1918": "Shaker's Temple", "1927": "Wild Temple", "1934": "Stone Cross",
               "2631": "Sun Dome Temple", "2802": "Ivory Plinth", "3531": "Wasp's Nest",
               "3832": "Old Wind Temple"}
    got = {MAP.ids[i]: s.name for i, s in MAP.sites.items() if s.structure == "temple"}
    assert got == temples


def test_rule_dp_map_towns_and_too_far_is_a_town_not_a_stockade():
    """L156: Queen's Post, North Post, Rich Post, Cliffhome, Too Far; Too Far is a Town."""
    got = {MAP.ids[i]: s.name for i, s in MAP.sites.items() if s.structure == "town"}
    assert got == {"0823": "Queen's Post", "0918": "North Post", "1229": "Rich Post",
                   "3904": "Cliffhome", "2308": "Too Far"}
    assert MAP.structure[ix("2308")] == "town"


def test_rule_dp_map_apple_lane_and_dwarf_mine_are_open_ground_not_towns():
    """L156: Apple Lane (3124) and Dwarf Mine (2612) are always Open Ground, not Towns."""
    for h, name in (("3124", "Apple Lane"), ("2612", "Dwarf Mine")):
        i = ix(h)
        assert MAP.name[i] == name and MAP.structure[i] is None and MAP.terrain[i] == "open"


def test_rule_dp_map_dwarf_mine_is_open_ground_with_a_secondary_road():
    """L1010 (Q&A): the Dwarf Mine (2612) is an open ground hex with a secondary road."""
    mine = ix("2612")
    assert MAP.terrain[mine] == "open"
    assert any(mine in r.path for r in MAP.roads if r.kind == "secondary")
    assert any("secondary" in MAP.road_kinds(mine, j) for j in MAP.neighbours[mine] if j >= 0)


def test_rule_dp_map_altars():
    """L157: Jaldon's Rest (4520) and Pimper's Block (4529) are altars."""
    got = {MAP.ids[i]: s.name for i, s in MAP.sites.items() if s.structure == "altar"}
    assert got == {"4520": "Jaldon's Rest", "4529": "Pimper's Block"}


def test_rule_dp_map_structures_are_the_rulebooks_and_ruins_stand_on_their_terrain():
    """L350-L355: fortress, stockade, marsh/ruin, hill/ruin, dragonewt city, ruin, temple,
    town, altar. A marsh/ruin is marsh, a hill/ruin a hill."""
    used = {s for s in MAP.structure if s}
    assert used == set(M.STRUCTURES)
    for i, s in enumerate(MAP.structure):
        if s == "marsh_ruin":
            assert MAP.terrain[i] == "marsh"
        if s == "hill_ruin":
            assert MAP.terrain[i] == "hill"
    assert "stockade" in used       # L156 needs one for "not a stockade" to mean anything


def test_rule_dp_map_sun_dome_temple_is_2631_of_the_two_numbers():
    """L82 and L900 say 2631, L155 says 2630: we read 2631 (the Templars' own section, where
    the emissary must go) and keep 2630 plain, beside it."""
    assert MAP.structure[ix("2631")] == "temple" and MAP.name[ix("2631")] == "Sun Dome Temple"
    assert MAP.structure[ix("2630")] is None and MAP.name[ix("2630")] is None
    assert MAP.adjacent("2630", "2631")
    assert MAP.homes["sun_dome_templars"] == (ix("2631"),)


def test_rule_dp_map_cliffhome_is_3904_of_the_two_numbers():
    """L156 lists the town Cliffhome as 1904; L158, L377 and L762 say 3904, Cragspider's
    capital in the north-east (L147). We read 3904; 1904 is an ordinary hex."""
    assert MAP.name[ix("3904")] == "Cliffhome" and MAP.structure[ix("3904")] == "town"
    assert MAP.name[ix("1904")] is None and MAP.structure[ix("1904")] is None
    assert MAP.capitals["cragspider"] == ix("3904")


def test_rule_dp_map_cliffhome_is_surrounded_by_ridges_and_upslope():
    """L158, L377: Cliffhome (3904) is completely surrounded by ridge hexsides and is on
    the upslope side of the entire ridgeline."""
    cliff = ix("3904")
    for j in MAP.neighbours[cliff]:
        assert j >= 0 and MAP.ridge_high(cliff, j) == cliff


def test_rule_dp_map_the_partial_ridge_between_2511_and_2610_is_a_ridge():
    """L158: partial ridge hexsides, such as between hex 2511 and 2610, are normal ridges."""
    high = MAP.ridge_high("2511", "2610")
    assert high in (ix("2511"), ix("2610"))
    assert MAP.ridge_high("2610", "2511") == high


def test_rule_dp_map_0707_is_no_ford_and_the_road_does_not_cross_the_river():
    """L159: hex 0707 is not a ford hex; the road does not cross the river."""
    h = ix("0707")
    assert h in MAP.river_hexes and h not in MAP.fords and h not in MAP.headwaters
    roads_here = [r for r in MAP.roads if h in r.path]
    assert roads_here                      # the road of the erratum comes to 0707 ...
    for r in MAP.roads:                    # ... and crosses nothing there
        assert all(h not in hexes for _, hexes in MAP.road_river_crossings(r))
    spur = next(r for r in MAP.roads if r.id == "dunstop_spur")
    assert spur.path[-1] == h


def test_rule_dp_map_jaldons_wrong_river_does_not_enter_0806():
    """L159: Jaldon's Wrong River does not enter hex 0806 (it passes 0707, beside it)."""
    river = next(r for r in MAP.rivers if r.name == "Jaldon's Wrong River")
    assert ix("0806") not in river.course and ix("0707") in river.course
    assert ix("0806") not in MAP.river_hexes


def test_rule_dp_map_the_secondary_road_in_1813_merges_and_does_not_enter_1914():
    """L160: the secondary road in hex 1813 does not cross into 1914; it merges with the
    primary road in 1813."""
    a, b = ix("1813"), ix("1914")
    assert MAP.road_kinds(a, b) == frozenset()    # no road into 1914: the erratum has its effect
    assert any(a in r.path for r in MAP.roads if r.kind == "primary")
    merging = [r for r in MAP.roads if r.kind == "secondary" and a in r.path]
    assert merging and all(r.path[-1] == a or r.path[0] == a for r in merging)


def test_road_river_crossing_detection():
    """A road crosses a river when it leaves by the other bank; ending on the river or
    running along it is no crossing (the reading behind L159)."""
    graz = next(r for r in MAP.roads if r.id == "grazeland_road")
    assert MAP.road_river_crossings(graz) == [("oslir", (ix("0613"),))]
    fake = M.Road("x", "secondary", tuple(ix(h) for h in ("0708", "0707", "0606")), ())
    assert MAP.road_river_crossings(fake) == [("jaldons_wrong", (ix("0707"),))]
    along = M.Road("x", "secondary", tuple(ix(h) for h in ("0708", "0707", "0706", "0705")), ())
    assert MAP.road_river_crossings(along) == [("jaldons_wrong", (ix("0707"), ix("0706")))]
    same_bank = M.Road("x", "secondary", tuple(ix(h) for h in ("0708", "0707", "0807")), ())
    assert MAP.road_river_crossings(same_bank) == []


# ------------------------------------------------- named places, homes ----

def test_rule_dp_map_minor_independents_starting_hexes():
    """L73 Delecti 2423, L76 Dwarf 2612, L79 Hydra 0314, L81 Spirit of Movement 1902, L82
    Sun Dome Templars 2631, L83 Tusk Riders 2802, L886 the five Puppeteer locations;
    Hungry Jack has no starting hex (L868)."""
    want = {k: sorted(v[0]) for k, v in M.MINOR_HOMES.items()}
    assert {k: sorted(MAP.ids[i] for i in v) for k, v in MAP.homes.items()} == want
    assert "hungry_jack" not in MAP.homes


def test_rule_dp_map_delectis_ruin_is_a_marsh_ruin_in_the_upland_marsh():
    """L73, L817: Delecti's Ruin (2423). That it is a marsh/ruin in the Upland Marsh
    (L353, L468) is our reading."""
    i = ix("2423")
    assert MAP.name[i] == "Delecti's Ruin" and MAP.structure[i] == "marsh_ruin"
    assert i in MAP.areas["upland_marsh"] and MAP.territory[i] == "neutral"


def test_rule_dp_map_puppeteer_locations():
    """L886: Grazelands (1325), Bush Range (2315), the ruin near Dragons Eye (3216), Too Far
    (2308) and the clearing in Stinking Forest (3202)."""
    assert MAP.name[ix("1325")] == "Grazelands" and MAP.territory[ix("1325")] == "grazelands"
    assert MAP.name[ix("2315")] == "Bush Range"
    ruin = ix("3216")
    assert MAP.structure[ruin] in M.RUINS
    assert MAP.distance(ruin, MAP.site_named("Dragons Eye")) <= 2
    assert MAP.name[ix("2308")] == "Too Far"
    clearing = ix("3202")
    assert clearing in MAP.areas["stinking_forest"] and MAP.terrain[clearing] == "open"
    around = [MAP.terrain[j] for j in MAP.neighbours[clearing] if j >= 0]
    assert around.count("forest") >= 4


def test_rule_dp_map_ivory_plinth_is_inside_stinking_forest():
    """L83, L906: the Ivory Plinth (2802) is inside the Stinking Forest."""
    i = ix("2802")
    assert MAP.name[i] == "Ivory Plinth" and i in MAP.areas["stinking_forest"]
    assert MAP.terrain[i] == "forest"
    forest = MAP.areas["stinking_forest"]
    assert sum(MAP.terrain[j] == "forest" for j in forest) >= len(forest) - 1


def test_rule_dp_map_travelling_stone_north_centre_and_sun_dome_southern_centre():
    """L81: Travelling Stone 1902 is in the north centre; L82: Sun Dome Temple near the
    southern centre of the map."""
    for h, north in (("1902", True), ("2631", False)):
        i = ix(h)
        assert MAP.columns / 3 <= col(i) <= 2 * MAP.columns / 3
        assert (row(i) <= MAP.rows / 3) if north else (row(i) >= 2 * MAP.rows / 3)


def test_rule_dp_map_giants_walk_is_the_giant_symbol_on_the_ne_edge():
    """L85, L916, L963: Giants Walk (hex 4505, NE edge of map), where giants are placed."""
    i = ix("4505")
    assert MAP.giant_symbols == (i,) and MAP.symbols[i] == ("giant",)
    assert MAP.name[i] == "Giants Walk" and MAP.is_edge(i)
    assert col(i) == MAP.columns and row(i) < MAP.rows / 2


def test_rule_dp_map_hydra_hill_is_a_hill():
    """L79, L878: Hydra Hill (0314); its terrain follows its name (our reading)."""
    assert MAP.name[ix("0314")] == "Hydra Hill" and MAP.terrain[ix("0314")] == "hill"


def test_rule_dp_map_capitals():
    """L740 Dragonewt city 1, L750 Muse Roost 0325, L762 Cliffhome 3904, L774 Wintertop 1921,
    L782 Wild Temple 1927, L792 Rich Post 1229, L987 Boldhome and Furthest; each in its
    nation's territory."""
    want = {"black_horse": ("0325", "black_horse_country"), "cragspider": ("3904", "cragspider"),
            "exiles": ("1921", "wintertop"), "half_beasts": ("1927", "beast_valley"),
            "grazelanders": ("1229", "grazelands")}
    for nation, (h, terr) in want.items():
        assert MAP.ids[MAP.capitals[nation]] == h and MAP.territory[ix(h)] == terr
    assert MAP.capitals["dragonewts"] == MAP.dragonewt_cities[1]
    assert MAP.name[MAP.capitals["sartar"]] == "Boldhome"
    assert MAP.territory[MAP.capitals["sartar"]] == "old_sartar"
    assert MAP.name[MAP.capitals["lunar"]] == "Furthest"
    assert MAP.territory[MAP.capitals["lunar"]] == "glowline_dark"


def test_rule_dp_map_every_named_place_is_on_one_hex():
    """Names are unique; the places named without a hex number (Boldhome, Furthest,
    Bagnot, Dunstop: L232, L277, L293, L987) each have one."""
    names = [n for n in MAP.name if n]
    assert len(names) == len(set(names))
    for name in M.RULE_NAMES:
        MAP.site_named(name)


# ------------------------------------------------------- territories ----

def test_rule_dp_map_old_sartar_is_in_the_southeast_and_sartar_adds_three_light_areas():
    """L142: Old Sartar is the south-east corner; Sartar is Old Sartar plus Duck Point,
    Alda-Chur and Alone. Each light area borders Old Sartar (authored)."""
    old = set(MAP.hexes("old_sartar"))
    assert ix("4534") in old
    assert sum(col(i) for i in old) / len(old) > MAP.columns / 2
    assert sum(row(i) for i in old) / len(old) > MAP.rows / 2
    assert set(MAP.hexes("sartar")) == old | set(MAP.hexes("sartar_light"))
    for area in ("duck_point", "alda_chur", "alone"):
        hexes = MAP.hexes(area)
        assert hexes and any(j in old for i in hexes for j in MAP.neighbours[i])


def test_rule_dp_map_tarsh_within_the_glowline_is_the_northwest_with_a_lighter_part():
    """L143, L662: Tarsh, within the Glowline, is the NW corner; its lighter portion is still
    within the Glowline. Bagnot and Dunstop lie in the lighter part: the Independents must
    hold them in 18.6 while deploying outside the dark part (L277, L284)."""
    dark, light = set(MAP.hexes("glowline_dark")), set(MAP.hexes("glowline_light"))
    assert ix("0101") in dark and dark and light
    assert set(MAP.hexes("glowline")) == dark | light
    for name in ("Bagnot", "Dunstop"):
        assert MAP.site_named(name) in light
    assert MAP.site_named("Furthest") in dark
    assert ix("1108") in dark     # the Temple of the Reaching Moon (our reading)


def test_rule_dp_map_independents_territories_lie_where_the_rulebook_says():
    """L144 Grazelands SW, L145 Wintertop near the centre, L146 Black Horse Country SW,
    L147 Cragspider NE corner, L148 Beast Valley in the south bordering Sartar."""
    def centre(t):
        hs = MAP.hexes(t)
        return sum(map(col, hs)) / len(hs), sum(map(row, hs)) / len(hs)
    mc, mr = (MAP.columns + 1) / 2, (MAP.rows + 1) / 2
    for t in ("grazelands", "black_horse_country"):
        c, r = centre(t)
        assert c < mc and r > mr, t
    c, r = centre("wintertop")
    assert abs(c - mc) <= MAP.columns / 6 and abs(r - mr) <= MAP.rows / 6
    assert all(col(i) > mc and row(i) < mr for i in MAP.hexes("cragspider"))
    c, r = centre("beast_valley")
    sartar = set(MAP.hexes("sartar"))
    assert r > mr and any(j in sartar for i in MAP.hexes("beast_valley") for j in MAP.neighbours[i])


def test_rule_dp_map_cragspiders_territory_is_12_mountains_and_the_black_dragonrest():
    """L147, L163: Cragspider's territory is 13 hexes, 12 grey mountain hexes plus the Black
    Dragon's dragonrest, and holds Cliffhome (L762)."""
    crag = set(MAP.hexes("cragspider"))
    black = MAP.dragonrests["black"]
    assert len(crag) == 13 and black in crag and ix("3904") in crag
    assert all(MAP.terrain[i] == "mountain" for i in crag - {black})
    assert reachable({ix("3904")}, lambda i: i in crag) == crag


def test_rule_dp_map_dragonewt_territory_is_the_eight_cities():
    """L149, L740: the Dragonewts' territory consists of the eight dragonewt cities, city 1
    the capital; Dragons Eye (L886) is city 1 (our reading)."""
    cities = MAP.dragonewt_cities
    assert sorted(cities) == list(range(1, 9))
    assert set(MAP.hexes("dragonewt")) == set(cities.values())
    assert all(MAP.structure[i] == "dragonewt_city" for i in cities.values())
    assert MAP.name[cities[1]] == "Dragons Eye"


def test_rule_dp_map_neutral_border_hexes_separate_the_southwest_nations():
    """L1026 (Q&A): neutral border hexes lie between Black Horse Country, the Grazelands,
    the Exiles' territory, Beast Valley and the southern edge, and both armies use them."""
    neutral = {i for i in range(MAP.n) if MAP.territory[i] == "neutral" and not_lake(i)}
    for t in ("black_horse_country", "grazelands", "wintertop", "beast_valley"):
        assert any(j in neutral for i in MAP.hexes(t) for j in MAP.neighbours[i]), t
    south = {i for i in neutral if row(i) == MAP.rows}
    band = reachable(south, lambda i: i in neutral)
    for t in ("black_horse_country", "grazelands", "wintertop", "beast_valley"):
        assert any(j in band for i in MAP.hexes(t) for j in MAP.neighbours[i]), t


# ------------------------------------------------------------ symbols ----

def test_rule_dp_map_dragonrests_green_sw_red_w_centre_brown_se_black_ne():
    """L75, L839: dragons start in dragonrests (Green SW, Red W-centre, Brown SE, Black NE);
    the Black Dragon's is near Cliffhome (L768)."""
    rests = MAP.dragonrests
    assert set(rests) == {"green", "red", "brown", "black"}
    mc, mr = (MAP.columns + 1) / 2, (MAP.rows + 1) / 2
    g, rd, b, k = (rests[c] for c in ("green", "red", "brown", "black"))
    assert col(g) < mc and row(g) > mr
    assert col(rd) <= MAP.columns / 3 and abs(row(rd) - mr) <= MAP.rows / 6
    assert col(b) > mc and row(b) > mr
    assert col(k) > mc and row(k) < mr and MAP.distance(k, ix("3904")) <= 3


def test_rule_dp_map_dinosaur_symbols_one_per_dinosaur():
    """L74, L835, L837: dinosaurs are placed on the hexes with a dinosaur symbol; 12 units
    (3 Brontosauri, 3 Pteradons, 3 Trachodons, 3 Triceratops), one symbol each (reading)."""
    dinos = MAP.dinosaur_symbols
    assert len(dinos) == len(set(dinos)) == 12
    assert all(MAP.symbols[i] == ("dinosaur",) for i in dinos)


def test_rule_dp_map_symbols_mark_no_territory():
    """L151: dragonrests, dinosaur and giant symbols mark no territory (only the Black
    Dragon's lies inside one, Cragspider's, L147)."""
    for i, kinds in MAP.symbols.items():
        if kinds != ("dragonrest_black",):
            assert MAP.territory[i] not in M.INDEPENDENT, MAP.ids[i]


# --------------------------------------------------------- fortresses ----

def test_rule_dp_map_seven_sartar_fortresses_four_in_old_sartar_with_boldhome():
    """L217, L232: 4 Sartar fortresses within Old Sartar (Boldhome among them) and 3 outside
    Old Sartar; we put one in each light orange area."""
    forts = [f for f in MAP.fortresses if f.nation == "sartar"]
    inside = [f for f in forts if f.in_old_sartar]
    assert len(forts) == 7 and len(inside) == 4
    assert "Boldhome" in {f.name for f in inside}
    outside = {MAP.territory[f.hex] for f in forts if not f.in_old_sartar}
    assert outside == {"duck_point", "alda_chur", "alone"}


def test_rule_dp_map_fortress_control_at_the_start_of_18_1_to_18_3():
    """L217, L232: the Lunar player controls the 3 Sartar fortresses outside Old Sartar, the
    Sartar player the 4 within; 18.3 (L248) is read the same way. Lunar fortresses are
    Lunar (L973)."""
    for f in MAP.fortresses:
        for s in ("18.1", "18.2", "18.3"):
            if f.nation == "sartar":
                assert f.start_owner[s] == ("sartar" if f.in_old_sartar else "lunar")
            else:
                assert f.nation == "lunar" and f.start_owner[s] == "lunar"
    lunar = {f.name for f in MAP.fortresses if f.nation == "lunar"}
    assert lunar == {"Furthest", "Bagnot", "Dunstop"}
    for s in ("18.1", "18.2"):
        held = [f for f in MAP.fortresses if f.nation == "sartar" and f.start_owner[s] == "lunar"]
        assert len(held) == 3


# -------------------------------------------------------- rivers, roads ----

def test_rule_dp_map_a_river_reaches_the_upland_marsh():
    """L468: moving from a river hex into the Upland Marsh counts as moving along the river."""
    marsh = MAP.areas["upland_marsh"]
    assert all(MAP.terrain[i] == "marsh" for i in marsh)
    touching = [r.id for r in MAP.rivers
                if any(j in marsh for i in r.course for j in MAP.neighbours[i])]
    assert len(touching) >= 1


def test_map_rivers_run_from_a_source_to_the_edge_or_a_lake():
    """Authored: each river starts at headwaters, the edge, a lake or the marsh and ends at
    the edge, a lake or the marsh; fords and headwaters are river hexes (L371)."""
    lakes = {i for i, t in enumerate(MAP.terrain) if t == "lake"}
    marsh = MAP.areas["upland_marsh"]
    for r in MAP.rivers:
        last = r.course[-1]
        near = {last, *MAP.neighbours[last]}
        assert MAP.is_edge(last) or near & lakes or near & marsh, r.id
        assert r.fords <= set(r.course) and r.headwaters <= {r.course[0]}
    assert MAP.headwaters and MAP.fords


def test_map_roads_cross_rivers_only_at_fords():
    """Authored: a primary or secondary road crosses a river only at a ford."""
    for road in MAP.roads:
        if road.kind == "dragonewt":
            continue
        for _, hexes in MAP.road_river_crossings(road):
            assert any(h in MAP.fords for h in hexes), (road.id, [MAP.ids[h] for h in hexes])


def test_map_roads_join_every_fortress_and_town():
    """Authored playability: the primary and secondary roads form one network reaching
    every fortress and town."""
    links = MAP.road_links["primary"] | MAP.road_links["secondary"]
    graph = {}
    for a, b in links:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set()).add(a)
    start = MAP.site_named("Boldhome")
    seen, todo = {start}, [start]
    while todo:
        x = todo.pop()
        for y in graph.get(x, ()):
            if y not in seen:
                seen.add(y)
                todo.append(y)
    for i, s in MAP.sites.items():
        if s.structure in ("fortress", "town"):
            assert i in seen, s.name
    assert set(graph) == seen


def test_rule_dp_map_dragonewt_roads_join_the_cities_and_shakers_temple():
    """L365, L482, L744: dragonewts travel city to city (Shaker's Temple included) along
    dragonewt roads, turning at junctions; they cross the Exiles' territory by road."""
    cities = set(MAP.dragonewt_cities.values())
    ends = cities | {ix("1918")} | MAP.junctions
    for r in MAP.roads:
        if r.kind == "dragonewt":
            assert r.path[0] in ends and r.path[-1] in ends
    graph = {}
    for a, b in MAP.road_links["dragonewt"]:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set()).add(a)
    assert all(len(graph[j]) >= 3 for j in MAP.junctions)
    seen = reachable({MAP.dragonewt_cities[1]}, lambda i: i in graph)
    assert cities | {ix("1918")} <= seen
    assert any(MAP.territory[i] == "wintertop" for r in MAP.roads if r.kind == "dragonewt"
               for i in r.path)


# ------------------------------------------------ scenario playability ----

def test_rule_dp_map_room_to_deploy_for_18_1_to_18_3():
    """L206, L211, L221, L226, L236, L242: the Lunars deploy outside Old Sartar, the Sartar
    player inside it; both sides have room, and Old Sartar is reachable by land."""
    old = set(MAP.hexes("old_sartar"))
    land = [i for i in range(MAP.n) if not_lake(i)]
    assert len(old) >= 150 and len(land) - len(old) >= 1000
    outside = {i for i in land if i not in old}
    assert reachable(outside, not_lake) >= old


def test_rule_dp_map_18_5_lunars_reach_sartar_without_independent_territory():
    """L269, L271: the Lunars deploy west of 26xx and north of xx19; units cannot move
    through any Independents territory, so a way to every Sartar fortress must avoid it."""
    zone = {i for i in range(MAP.n) if col(i) < 26 and row(i) < 19
            and MAP.territory[i] not in M.INDEPENDENT and not_lake(i)}
    assert zone
    ok = reachable(zone, lambda i: not_lake(i) and MAP.territory[i] not in M.INDEPENDENT)
    for f in MAP.fortresses:
        if f.nation == "sartar":
            assert f.hex in ok, f.name


def test_rule_dp_map_18_6_lunars_reach_their_objectives_without_entering_sartar():
    """L277, L291, L293: from the dark Glowline, without entering Sartar, the Lunars can
    reach Bagnot, Dunstop, Rich Post, Wintertop and Wild Temple."""
    dark = set(MAP.hexes("glowline_dark"))
    ok = reachable(dark, lambda i: not_lake(i) and MAP.territory[i] not in M.SARTAR)
    for name in ("Bagnot", "Dunstop", "Rich Post", "Wintertop", "Wild Temple"):
        assert MAP.site_named(name) in ok


def test_rule_dp_map_board_edges_for_reinforcements():
    """L297, L323, L972: Sartar's reserve and replacements enter on south edge hexes east of
    Stone Cross (inclusive); L800 Androgeus at the south edge in Sartar; L981 Lunar
    replacements on edge hexes of the dark Glowline; L970, L971 paths to the N, W, E edges."""
    stone = ix("1934")
    south = [i for i in range(MAP.n) if row(i) == MAP.rows and col(i) >= col(stone)]
    assert stone in south and any(MAP.territory[i] in M.SARTAR for i in south)
    dark = MAP.hexes("glowline_dark")
    assert any(row(i) == 1 for i in dark) and any(col(i) == 1 for i in dark)
    assert any(col(i) == MAP.columns for i in range(MAP.n) if row(i) < MAP.rows / 2)


# ------------------------------------------------------- bookkeeping ----

def test_map_helpers():
    assert MAP.hex_id(MAP.hex_index("2423")) == "2423"
    assert MAP.hex_index("0101") == 0 and MAP.hex_index("0201") == 34
    with pytest.raises(KeyError):
        MAP.hex_index("4601")
    assert MAP.adjacent(ix("2511"), "2610") and not MAP.adjacent("2511", "2613")
    assert MAP.direction("2610", "2511") == 5 and MAP.direction("2511", "2613") == 0
    assert MAP.road_kinds("1813", "1913") == frozenset({"primary"})
    assert MAP.road_kinds("1813", "1914") == frozenset()
    assert MAP.ridge_high("0101", "0102") is None


def test_substituted_values_are_marked():
    """Authored values carry '*': Boldhome's name is the rulebook's, its hex is ours."""
    bold = MAP.sites[MAP.site_named("Boldhome")]
    assert bold.substituted == frozenset({"hex"})
    assert "L232" in bold.cite
    assert MAP.sites[ix("1108")].substituted == frozenset()
    assert MAP.sites[MAP.site_named("Jonstown")].substituted == frozenset({"hex", "name"})


def test_cites_fall_inside_the_rulebook():
    for s in MAP.sites.values():
        for c in s.cite:
            lo, _, hi = c.partition("-")
            assert 1 <= int(lo[1:]) <= M.RULEBOOK_LINES
            if hi:
                assert int(lo[1:]) <= int(hi[1:]) <= M.RULEBOOK_LINES


# ------------------------------------------------------ corrupt files ----

@pytest.fixture
def map_copy(tmp_path):
    target = tmp_path / "map.txt"
    shutil.copy(M.MAP_FILE, target)
    return target


def cell(path, section, hex_id, ch):
    """Set one grid cell of [terrain] or [territory]."""
    lines = path.read_text().splitlines()
    start = lines.index(f"[{section}]")
    r, c = int(hex_id[2:]), int(hex_id[:2])
    for k in range(start, len(lines)):
        if lines[k].startswith(f"row {r:02d} "):
            key, num, cells = lines[k].split()
            lines[k] = f"{key} {num}  {cells[:c - 1]}{ch}{cells[c:]}"
            path.write_text("\n".join(lines) + "\n")
            return k + 1
    raise AssertionError(hex_id)


def fails(path, match):
    with pytest.raises(M.DataError, match=match) as err:
        M.load(path)
    assert err.value.file == "map.txt" and str(err.value).startswith("map.txt:")
    return err.value


def test_the_copied_map_loads(map_copy):
    assert M.load(map_copy).n == 1530
    assert M.load(map_copy.parent).n == 1530


def test_error_unknown_terrain_letter_names_row_and_column(map_copy):
    line = cell(map_copy, "terrain", "1010", "X")
    err = fails(map_copy, r"\[terrain\] row 10 column 10: unknown letter 'X'")
    assert err.line == line


def test_error_short_row(map_copy):
    edit(map_copy, "row 05  ....", "row 05  ...")
    err = fails(map_copy, r"\[terrain\] row 05 has 44 cells, want 45")
    assert err.line == line_of(map_copy, "row 05  ...")


def test_error_cragspider_territory_with_a_14th_hex(map_copy):
    cell(map_copy, "territory", "3702", "C")
    fails(map_copy, r"Cragspider's territory is 13 hexes \(L163\), found 14")


def test_error_cragspider_hex_that_is_not_mountain(map_copy):
    cell(map_copy, "terrain", "3703", "h")
    fails(map_copy, r"12 mountain hexes plus the dragonrest \(L163\); 3703 are not mountain")


def test_error_an_eighth_sartar_fortress(map_copy):
    edit(map_copy, "site 4031* stockade", "site 4031* fortress")
    fails(map_copy, r"Sartar has 7 fortresses, 4 inside Old Sartar and 3 outside it "
                    r"\(L217, L232\); found 5 inside and 3 outside")


def test_error_boldhome_outside_old_sartar(map_copy):
    edit(map_copy, "site 3727* fortress  L217,L232,L987      Boldhome",
         "site 3727* fortress  L217,L232,L987      Boldhome*\nsite 3626  fortress  -  Old Fort")
    cell(map_copy, "territory", "3727", "a")
    err = fails(map_copy, r"capital of sartar .* must lie in old_sartar")
    assert err.line == line_of(map_copy, "capital sartar")


def test_error_a_missing_cliffhome_ridge(map_copy):
    edit(map_copy, "3904>3903 ", "")
    fails(map_copy, r"Cliffhome \(3904\) is completely surrounded by ridge hexsides .* "
                    r"towards 3903 is not")


def test_error_cliffhome_downslope(map_copy):
    edit(map_copy, "3904>3905", "3905>3904")
    fails(map_copy, r"Cliffhome upslope \(L158, L377\): the hexside towards 3905")


def test_error_no_ridge_between_2511_and_2610(map_copy):
    edit(map_copy, "2610>2511 ", "")
    fails(map_copy, r"the hexside between 2511 and 2610 is a ridge \(L158\)")


def test_error_0707_made_a_ford(map_copy):
    edit(map_copy, "headwaters  0905\nfords       -", "headwaters  0905\nfords       0707")
    err = fails(map_copy, r"\[river jaldons_wrong\]: hex 0707 is not a ford hex \(L159\)")
    assert err.line == line_of(map_copy, "[river jaldons_wrong]")


def test_error_the_road_crossing_the_river_at_0707(map_copy):
    edit(map_copy, "path        0612 0611 0610 0710 0709 0708 0707",
         "path        0612 0611 0610 0710 0709 0708 0707 0606")
    err = fails(map_copy, r"\[road dunstop_spur\] crosses the river at 0707.*\(L159\)")
    assert err.line == line_of(map_copy, "[road dunstop_spur]")


def test_error_jaldons_wrong_river_entering_0806(map_copy):
    edit(map_copy, "course      0905 0805 0706 0707", "course      0905 0805 0806 0707")
    fails(map_copy, r"Jaldon's Wrong River does not enter hex 0806 \(L159\)")


def test_error_the_secondary_road_going_on_into_1914(map_copy):
    edit(map_copy, "path        2308 2208 2209 2110 2111 2011 1912 1812 1813",
         "path        2308 2208 2209 2110 2111 2011 1912 1812 1813 1914")
    err = fails(map_copy, r"\[road too_far_road\] goes on through 1813; the secondary road merges "
                          r"with the primary road in 1813 \(L160\)")
    assert err.line == line_of(map_copy, "[road too_far_road]")


def test_error_a_secondary_road_from_1914_into_1813(map_copy):
    with open(map_copy, "a") as f:
        f.write("\n[road bad]\nkind        secondary\npath        2014 1914 1813\ncite        -\n")
    err = fails(map_copy, r"\[road bad\]: no road crosses from 1813 into hex 1914; the secondary road in "
                          r"1813 does not, and merges with the primary road there \(L160\)")
    assert err.line == line_of(map_copy, "[road bad]")


def test_error_the_primary_road_crossing_from_1813_into_1914(map_copy):
    edit(map_copy, "1612 1713 1813 1913 2013 2114 2115", "1612 1713 1813 1914 2014 2115")
    err = fails(map_copy, r"\[road trunk\]: no road crosses from 1813 into hex 1914")
    assert err.line == line_of(map_copy, "[road trunk]")


def test_error_dwarf_mine_made_a_town(map_copy):
    edit(map_copy, "site 2612  -   ", "site 2612  town")
    err = fails(map_copy, r"Dwarf Mine \(2612\) must have no structure \(L76 L156 L1010\), found town")
    assert err.line == line_of(map_copy, "site 2612")


def test_error_sun_dome_temple_at_2630(map_copy):
    edit(map_copy, "site 2631  temple", "site 2630  temple")
    fails(map_copy, r"hex 2631 must be listed in \[sites\] as Sun Dome Temple")


def test_error_road_with_a_gap(map_copy):
    edit(map_copy, "path        3727 3728 3628", "path        3727 3628")
    err = fails(map_copy, r"\[road swenstown_road\] path: 3727 and 3628 are not adjacent")
    assert err.line == line_of(map_copy, "path        3727 3628")


def test_error_hex_off_the_map(map_copy):
    edit(map_copy, "0516* 1414*", "4635* 1414*")
    fails(map_copy, r"symbol dinosaur: hex 4635 is off the map \(columns 01-45, rows 01-34\)")


def test_error_a_hex_listed_twice(map_copy):
    edit(map_copy, "site 1203* stockade  -", "site 1921* stockade  -")
    fails(map_copy, r"hex 1921 is listed twice \(first at line \d+\)")


def test_error_bad_citation(map_copy):
    edit(map_copy, "site 3531  temple    L155 ", "site 3531  temple    L9999 ")
    fails(map_copy, r"citation L9999 is outside the rulebook \(1..1145\)")


def test_error_unknown_key_in_a_record(map_copy):
    edit(map_copy, "[road trunk]\nkind        primary\n", "[road trunk]\nkind        primary\nwidth 2\n")
    err = fails(map_copy, r"unknown key 'width' in \[road trunk\]")
    assert err.line == line_of(map_copy, "width 2")


def test_error_missing_section(map_copy):
    edit(map_copy, "[junctions]\njunction -      2213 2914\n", "")
    fails(map_copy, r"map\.txt:0: missing section \[junctions\]")


def test_error_river_through_a_lake(map_copy):
    cell(map_copy, "terrain", "3709", "~")
    fails(map_copy, r"\[river cragwater\] runs through lake hex 3709")


def test_error_dragonewt_road_to_nowhere(map_copy):
    edit(map_copy, "path        2914 2913 2912 2911 2910 2909", "path        2914 2913 2912 2911 2910")
    fails(map_copy, r"\[road d5\] ends at 2910: a dragonewt road runs from city to city")


def test_error_a_ninth_dragonewt_city_hex_in_the_territory(map_copy):
    cell(map_copy, "territory", "2020", "N")
    fails(map_copy, r"the dragonewts' territory is exactly the eight cities \(L149\); check 2020")


def test_error_unreadable_file(tmp_path):
    with pytest.raises(M.DataError, match=r"map\.txt:0: cannot read the file"):
        M.load(tmp_path / "map.txt")
