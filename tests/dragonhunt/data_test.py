"""The Dragonhunt data files: printed tables as printed, substitutes within the rules.

Rule numbers refer to shared/rules/dragonhunt.txt; what is substituted and why is
in envs/dragonhunt/SUBSTITUTES.md.
"""
import heapq
from collections import Counter, deque

import numpy as np
import pytest

from dragongym.envs.core.hexgrid import build_tables, offset_to_axial
from dragongym.envs.dragonhunt import constants as K
from dragongym.envs.dragonhunt import data as D

NC = D.NUM_CELLS
STRUCTURES = (K.CASTLE, K.VILLAGE, K.COTTAGE)
LAIRS = (K.DRAGON_LAIR, K.BEING_LAIR)
PLAIN = (K.OPEN, K.FOREST, K.MOUNTAIN, K.SWAMP)


def members(space_cell):
    """All hexes of the space whose canonical cell is ``space_cell``."""
    return np.flatnonzero(D.SPACE == D.SPACE[space_cell])


def structure_cells():
    return [int(c) for k in range(K.NUM_KINGDOMS)
            for c in (D.CASTLE_CELL[k], D.VILLAGE_CELL[k], D.COTTAGE_CELL[k])]


def lair_cells():
    return [int(D.LAIR_CELL), int(D.BEING_LAIR_CELL[K.CAVE]), int(D.BEING_LAIR_CELL[K.HOLLOW_TREE])]


# --------------------------------------------------------- combat table ----

R = {name[2:]: getattr(K, name) for name in dir(K) if name.startswith("R_")}
R.update({f"OCCUPANTS_DIE_{k}": K.R_OCCUPANTS_DIE_1 + k - 1 for k in range(1, 6)})

# Brimstone the Dragon Combat Table as printed (rulebook p. 16, rows "6 or Less",
# 7, 8 and the first cell of row 9).
PRINTED = {
    6: ("ALL_KILLED", "ONE_KILLED_ATTACKS_CASTLE", "DEFENDER_KILLED", "OCCUPANTS_DIE_5", "ALL_KILLED"),
    7: ("ALL_WOUNDED", "ONE_WOUNDED_ATTACKS_CASTLE", "DEFENDER_KILLED", "OCCUPANTS_DIE_4", "ALL_KILLED"),
    8: ("ONE_KILLED", "ALL_WOUNDED", "DEFENDER_KILLED", "OCCUPANTS_DIE_3", "THREE_KILLED"),
    9: ("ONE_WOUNDED", None, None, None, None),
}

# Results of each column from worst to best for the player who rolls; the
# printed rows fix the order of the printed results.
RANKING = {
    K.COL_FIRST_WOUND: ("ALL_KILLED", "ALL_WOUNDED", "ONE_KILLED", "ONE_WOUNDED", "DRAW_CARD",
                        "DRAGON_WOUNDED"),
    K.COL_LATER_WOUND: ("ONE_KILLED_ATTACKS_CASTLE", "ONE_WOUNDED_ATTACKS_CASTLE", "ALL_WOUNDED",
                        "ONE_KILLED", "ONE_WOUNDED", "DRAW_CARD", "DRAGON_WOUNDED"),
    K.COL_SINGLE_PIECE: ("DEFENDER_KILLED", "DEFENDER_WOUNDED", "DEFENDER_UNHARMED"),
    K.COL_STRUCTURE: ("OCCUPANTS_DIE_5", "OCCUPANTS_DIE_4", "OCCUPANTS_DIE_3", "OCCUPANTS_DIE_2",
                      "OCCUPANTS_DIE_1", "NO_EFFECT"),
    K.COL_DO_OR_DIE: ("ALL_KILLED", "THREE_KILLED", "TWO_KILLED", "ONE_KILLED", "ONE_WOUNDED",
                      "DRAGON_WOUNDED"),
}


def test_combat_table_shape():
    assert D.COMBAT_TABLE.shape == (5, K.COMBAT_TABLE_MAX_TOTAL + 1)
    assert D.COMBAT_TABLE.dtype == np.int8
    assert D.COMBAT_TABLE_SUBSTITUTED.shape == D.COMBAT_TABLE.shape
    assert D.COMBAT_TABLE_SUBSTITUTED.dtype == bool


def test_combat_table_printed_cells_are_transcribed_exactly():
    for total, row in PRINTED.items():
        totals = range(0, 7) if total == 6 else [total]   # "6 or Less"
        for col, name in enumerate(row):
            if name is None:
                continue
            for t in totals:
                assert D.COMBAT_TABLE[col, t] == R[name], (col, t, name)
                assert not D.COMBAT_TABLE_SUBSTITUTED[col, t], (col, t)


def test_combat_table_marks_exactly_the_unprinted_cells_as_substituted():
    printed = np.zeros_like(D.COMBAT_TABLE_SUBSTITUTED)
    printed[:, :9] = True
    printed[K.COL_FIRST_WOUND, 9] = True
    assert np.array_equal(D.COMBAT_TABLE_SUBSTITUTED, ~printed)


@pytest.mark.parametrize("col", sorted(RANKING))
def test_combat_table_higher_total_is_never_worse(col):
    rank = {R[name]: i for i, name in enumerate(RANKING[col])}
    codes = D.COMBAT_TABLE[col]
    assert set(codes.tolist()) <= set(rank), "a column holds a result foreign to it"
    ranks = [rank[c] for c in codes.tolist()]
    assert ranks == sorted(ranks)


def test_combat_table_best_results_are_reachable():
    # Every column ends in the roller's best result: Brimstone wounded when
    # attacking him, the defender unharmed or no effect when he attacks.
    last = D.COMBAT_TABLE[:, K.COMBAT_TABLE_MAX_TOTAL]
    assert last[K.COL_FIRST_WOUND] == K.R_DRAGON_WOUNDED
    assert last[K.COL_LATER_WOUND] == K.R_DRAGON_WOUNDED
    assert last[K.COL_DO_OR_DIE] == K.R_DRAGON_WOUNDED
    assert last[K.COL_SINGLE_PIECE] == K.R_DEFENDER_UNHARMED
    assert last[K.COL_STRUCTURE] == K.R_NO_EFFECT
    # The dragon-card draw of 7.6 appears in the wound columns only.
    assert (D.COMBAT_TABLE[K.COL_FIRST_WOUND] == K.R_DRAW_CARD).any()
    assert (D.COMBAT_TABLE[K.COL_LATER_WOUND] == K.R_DRAW_CARD).any()


# ---------------------------------------------------------- dragon deck ----

DECK_COMPOSITION = {
    K.CARD_DO_OR_DIE: 3, K.CARD_ATTACKS_CASTLE_OF_CHOICE: 1, K.CARD_ATTACKS_VILLAGE_OF_CHOICE: 1,
    K.CARD_ATTACKS_COTTAGE_OF_CHOICE: 1, K.CARD_MOVES_FIVE_OF_CHOICE: 1,
    K.CARD_ATTACKS_YOUR_CASTLE: 1, K.CARD_ATTACKS_YOUR_VILLAGE: 1, K.CARD_ATTACKS_YOUR_COTTAGE: 1,
    K.CARD_KILLS_ADJACENT: 1, K.CARD_WOUNDS_ADJACENT: 1, K.CARD_KILLS_WITHIN_TWO: 1,
    K.CARD_WOUNDS_WITHIN_TWO: 1, K.CARD_KILLS_ATTACKING_FORCE: 1, K.CARD_WOUNDS_ATTACKING_FORCE: 2,
    K.CARD_KILLS_TWO: 2, K.CARD_FLIES_SIX_RANDOM: 2, K.CARD_NAP: 1, K.CARD_FLAMES_YOUR_COTTAGE: 1,
    K.CARD_FLAMES_COTTAGE_OF_CHOICE: 1,
}

# Words the text of a card of each kind must contain (7.61-7.68).
CARD_WORDS = {
    K.CARD_DO_OR_DIE: ("do or die",), K.CARD_ATTACKS_CASTLE_OF_CHOICE: ("castle", "choice"),
    K.CARD_ATTACKS_VILLAGE_OF_CHOICE: ("village", "choice"),
    K.CARD_ATTACKS_COTTAGE_OF_CHOICE: ("cottage", "choice", "10"),
    K.CARD_MOVES_FIVE_OF_CHOICE: ("five",), K.CARD_ATTACKS_YOUR_CASTLE: ("your castle",),
    K.CARD_ATTACKS_YOUR_VILLAGE: ("your village",), K.CARD_ATTACKS_YOUR_COTTAGE: ("your cottage", "10"),
    K.CARD_KILLS_ADJACENT: ("adjacent", "killed"), K.CARD_WOUNDS_ADJACENT: ("adjacent", "wounded"),
    K.CARD_KILLS_WITHIN_TWO: ("within two", "killed"),
    K.CARD_WOUNDS_WITHIN_TWO: ("within two", "wounded"),
    K.CARD_KILLS_ATTACKING_FORCE: ("attacking force", "killed"),
    K.CARD_WOUNDS_ATTACKING_FORCE: ("attacking force", "wounded"),
    K.CARD_KILLS_TWO: ("kills two",), K.CARD_FLIES_SIX_RANDOM: ("six", "random"),
    K.CARD_NAP: ("nap",), K.CARD_FLAMES_YOUR_COTTAGE: ("flames your cottage",),
    K.CARD_FLAMES_COTTAGE_OF_CHOICE: ("flames", "cottage", "choice"),
}


def test_deck_has_24_cards_of_every_kind():
    assert D.DECK.shape == (K.DECK_SIZE,) and D.DECK.dtype == np.int8
    assert len(D.CARD_TEXT) == K.DECK_SIZE
    assert set(D.DECK.tolist()) == set(range(K.NUM_CARD_KINDS))
    assert sum(DECK_COMPOSITION.values()) == K.DECK_SIZE
    assert Counter(D.DECK.tolist()) == DECK_COMPOSITION


def test_card_texts_say_what_their_kind_does():
    for kind, text in zip(D.DECK.tolist(), D.CARD_TEXT):
        for word in CARD_WORDS[kind]:
            assert word in text.lower(), (kind, text)
    assert len(set(D.CARD_TEXT)) > K.NUM_CARD_KINDS  # repeated kinds are worded differently


# ------------------------------------------------------- small tables ----

def test_unit_strengths_match_the_rulebook():
    # Unit Strength Table; sniper 9.641
    assert D.UNIT_ATTACK.tolist() == [5, 1, 2, 1]    # hero, sniper, knight, man-at-arms
    assert D.UNIT_DEFENSE.tolist() == [5, 1, 2, 1]
    assert D.UNIT_ATTACK.dtype == D.UNIT_DEFENSE.dtype == np.int8
    assert D.SNIPE_STRENGTH == 4


def test_being_attributes_match_section_15():
    expected = {  # name: (movement, flies, attack, defense)
        "Banisher": (5, 1, 5, 1), "Berserker": (3, 0, 4, 1), "Demon": (6, 1, 3, 3),
        "Disperser": (7, 1, 1, 1), "Dragon Charmer": (8, 0, 1, 1), "Eagle": (8, 1, 2, 2),
        "Paralyzer": (8, 0, 0, 0), "Revivor": (4, 1, 1, 1), "Teleporter": (6, 1, 1, 1),
        "Troll": (6, 0, 5, 2),
    }
    for b, name in enumerate(K.BEING_NAMES):
        got = (D.BEING_MOVE[b], D.BEING_FLIES[b], D.BEING_ATTACK[b], D.BEING_DEFENSE[b])
        assert tuple(int(x) for x in got) == expected[name], name
    assert D.BEING_SECOND_MOVE.tolist() == [0, 3, 0, 0, 0, 0, 0, 0, 0, 0]   # 15.62: 3M/3M
    for arr in (D.BEING_MOVE, D.BEING_FLIES, D.BEING_ATTACK, D.BEING_DEFENSE):
        assert arr.shape == (K.NUM_BEINGS,) and arr.dtype == np.int8


def test_movement_cards():
    # 9.123 example plays 7, 9, 12 and 10; 9.31 mentions a 10.
    values = D.MOVEMENT_CARD_VALUES.tolist()
    assert D.MOVEMENT_CARD_VALUES.dtype == np.int8
    assert values == [6, 7, 8, 9, 10, 12]
    assert len(values) == K.CARDS_PER_PLAYER == len(set(values))
    assert {7, 9, 10, 12} <= set(values)


def test_terrain_costs_and_defence_match_9_32_and_9_7():
    cost = {K.OPEN: 1, K.FOREST: 2, K.MOUNTAIN: 3, K.SWAMP: 2, K.DRAGON_LAIR: 4, K.BEING_LAIR: 3,
            K.CASTLE: 1, K.VILLAGE: 1, K.COTTAGE: 1}
    defence = {K.DRAGON_LAIR: 2, K.BEING_LAIR: 1, K.MOUNTAIN: 2, K.FOREST: 1, K.SWAMP: 1,
               K.CASTLE: 2, K.VILLAGE: 1, K.COTTAGE: 0, K.OPEN: 0}
    for t in range(K.NUM_TERRAINS):
        assert D.TERRAIN_MOVE_COST[t] == cost[t]
        assert D.TERRAIN_DEFENSE[t] == defence[t]
    assert D.MOVE_COST.dtype == D.DEFENSE.dtype == np.int8
    assert np.array_equal(D.MOVE_COST, D.TERRAIN_MOVE_COST[D.TERRAIN])
    assert np.array_equal(D.DEFENSE, D.TERRAIN_DEFENSE[D.TERRAIN])


def test_magesword_chart_13_5():
    assert D.MAGESWORD_PLUS.tolist() == [0, 2, 3, 3, 4, 4, 5]
    assert D.MAGESWORD_PLUS.dtype == np.int8


# ---------------------------------------------------------------- board ----

def test_board_size_and_cell_coordinates():
    assert 13 <= D.BOARD_COLS <= 15 and 12 <= D.BOARD_ROWS <= 13
    assert NC == len(D.CELL_COL) <= D.BOARD_COLS * D.BOARD_ROWS
    for arr in (D.CELL_COL, D.CELL_ROW, D.CELL_Q, D.CELL_R):
        assert arr.shape == (NC,) and arr.dtype == np.int16
    for c in range(NC):
        col, row = int(D.CELL_COL[c]), int(D.CELL_ROW[c])
        assert D.cell_at(col, row) == c
        assert offset_to_axial(col, row) == (D.CELL_Q[c], D.CELL_R[c])
    order = list(zip(D.CELL_ROW.tolist(), D.CELL_COL.tolist()))
    assert order == sorted(order)               # reading order
    assert D.cell_at(-1, 0) == D.cell_at(0, D.BOARD_ROWS) == -1


def test_step_and_hex_distance_come_from_hexgrid():
    step, dist = build_tables(list(zip(D.CELL_Q.tolist(), D.CELL_R.tolist())))
    assert np.array_equal(D.STEP, step) and D.STEP.shape == (NC, 7)
    assert np.array_equal(D.HEX_DIST, dist) and D.HEX_DIST.dtype == np.int16


def test_each_kingdom_has_one_castle_village_and_cottage():
    assert len(D.KINGDOM_NAMES) == K.NUM_KINGDOMS == len(set(D.KINGDOM_NAMES))
    assert "Sunken" in D.KINGDOM_NAMES                     # 3.1
    for k in range(K.NUM_KINGDOMS):
        for cell, terrain, size in ((D.CASTLE_CELL[k], K.CASTLE, 2), (D.VILLAGE_CELL[k], K.VILLAGE, 2),
                                    (D.COTTAGE_CELL[k], K.COTTAGE, 1)):
            hexes = members(cell)
            assert D.SPACE[cell] == cell                   # canonical cell
            assert len(hexes) == size
            assert (D.TERRAIN[hexes] == terrain).all() and (D.KINGDOM[hexes] == k).all()
            assert set(np.flatnonzero((D.TERRAIN == terrain) & (D.KINGDOM == k))) == set(hexes)
        # a two-hex castle or village is two adjacent hexes
        for cell in (D.CASTLE_CELL[k], D.VILLAGE_CELL[k]):
            a, b = members(cell)
            assert D.HEX_DIST[a, b] == 1
    assert (D.KINGDOM[~np.isin(D.TERRAIN, STRUCTURES)] == -1).all()
    assert np.isin(D.TERRAIN, STRUCTURES).sum() == 5 * K.NUM_KINGDOMS


def test_the_three_lairs_are_single_hexes():
    assert D.TERRAIN[D.LAIR_CELL] == K.DRAGON_LAIR
    assert (D.TERRAIN == K.DRAGON_LAIR).sum() == 1
    assert D.BEING_LAIR_CELL.shape == (2,) and D.BEING_LAIR_CELL.dtype == np.int16
    assert (D.TERRAIN[D.BEING_LAIR_CELL] == K.BEING_LAIR).all()
    assert (D.TERRAIN == K.BEING_LAIR).sum() == 2
    for c in lair_cells():
        assert D.SPACE[c] == c and len(members(c)) == 1


def test_space_is_consistent():
    assert D.SPACE.dtype == np.int16
    assert np.array_equal(D.SPACE[D.SPACE], D.SPACE)          # canonical cells map to themselves
    assert (D.SPACE <= np.arange(NC)).all()                  # the lowest cell of the space
    multi = D.SPACE != np.arange(NC)
    assert np.isin(D.TERRAIN[multi], (K.CASTLE, K.VILLAGE)).all()
    assert np.array_equal(D.TERRAIN, D.TERRAIN[D.SPACE])
    assert np.array_equal(D.KINGDOM, D.KINGDOM[D.SPACE])


def brute_force_space_tables():
    """HEXSIDES and SPACE_DIST recomputed hex by hex, the slow and obvious way."""
    space_of = D.SPACE.tolist()
    edges = Counter((space_of[x], space_of[int(y)]) for x in range(NC) for y in D.STEP[x, 1:]
                    if y >= 0 and space_of[x] != space_of[int(y)])
    hexsides = np.array([[edges[(space_of[a], space_of[b])] for b in range(NC)] for a in range(NC)])
    hexes = {s: members(s) for s in set(space_of)}
    sdist = np.array(D.HEX_DIST, dtype=int)
    for a in range(NC):
        for b in range(NC):
            if len(hexes[space_of[a]]) > 1 or len(hexes[space_of[b]]) > 1:
                sdist[a, b] = D.HEX_DIST[np.ix_(hexes[space_of[a]], hexes[space_of[b]])].min()
    return hexsides, sdist


def test_space_adjacency_hexsides_and_distance():
    hexsides, sdist = brute_force_space_tables()
    assert D.HEXSIDES.dtype == D.SPACE_ADJ.dtype == np.int8 and D.SPACE_DIST.dtype == np.int16
    assert np.array_equal(D.HEXSIDES, hexsides)
    assert np.array_equal(D.HEXSIDES, D.HEXSIDES.T)
    assert np.array_equal(D.SPACE_ADJ, (hexsides > 0).astype(np.int8))
    assert np.array_equal(D.SPACE_ADJ, D.SPACE_ADJ.T)
    assert np.array_equal(D.SPACE_DIST, sdist)
    assert np.array_equal(D.SPACE_DIST == 1, D.SPACE_ADJ == 1)
    assert np.array_equal(D.SPACE_DIST == 0, D.SPACE[:, None] == D.SPACE[None, :])
    # a castle touches what either of its hexes touches (9.33)
    for k in range(K.NUM_KINGDOMS):
        a, b = members(D.CASTLE_CELL[k])
        assert np.array_equal(D.SPACE_ADJ[a], D.SPACE_ADJ[b])
    # a hex beside both hexes of a castle shares two hexsides with it (9.86)
    assert D.HEXSIDES.max() >= 2


def test_neighbours_list_the_adjacent_spaces():
    assert D.NEIGHBOURS.dtype == np.int16 and D.NUM_NEIGHBOURS.dtype == np.int8
    assert D.NEIGHBOURS.shape == (NC, int(D.NUM_NEIGHBOURS.max()))
    for a in range(NC):
        n = int(D.NUM_NEIGHBOURS[a])
        row = D.NEIGHBOURS[a].tolist()
        assert row[:n] == sorted({int(D.SPACE[b]) for b in np.flatnonzero(D.SPACE_ADJ[a])})
        assert row[n:] == [-1] * (len(row) - n)
        assert np.array_equal(D.NEIGHBOURS[a], D.NEIGHBOURS[D.SPACE[a]])


def test_board_is_connected_with_and_without_cottages():
    def reachable(passable):
        start = int(np.flatnonzero(passable)[0])
        seen, todo = {start}, deque([start])
        while todo:
            a = todo.popleft()
            for b in D.STEP[a, 1:]:
                if b >= 0 and passable[b] and b not in seen:
                    seen.add(int(b))
                    todo.append(int(b))
        return len(seen) == passable.sum()

    assert reachable(np.ones(NC, dtype=bool))
    assert reachable(D.TERRAIN != K.COTTAGE)    # no unit may enter another's cottage (9.321)


def test_structures_of_different_kingdoms_are_not_adjacent():
    cells = structure_cells()
    for a in cells:
        for b in cells:
            if D.KINGDOM[a] != D.KINGDOM[b]:
                assert D.SPACE_DIST[a, b] >= 2, (a, b)


def test_structures_keep_away_from_the_lairs():
    for s in structure_cells():
        for lair in lair_cells():
            assert D.SPACE_DIST[s, lair] >= 3, (s, lair)   # not adjacent (required), one hex clear


def test_kingdoms_are_compact_but_not_all_adjacent():
    for k in range(K.NUM_KINGDOMS):
        c, v, h = int(D.CASTLE_CELL[k]), int(D.VILLAGE_CELL[k]), int(D.COTTAGE_CELL[k])
        assert max(D.SPACE_DIST[c, v], D.SPACE_DIST[c, h], D.SPACE_DIST[v, h]) <= 3
        assert not (D.SPACE_ADJ[c, v] and D.SPACE_ADJ[c, h] and D.SPACE_ADJ[v, h])
        assert not D.SPACE_ADJ[h, c] and not D.SPACE_ADJ[h, v]    # the cottage stands apart


def test_lair_of_brimstone_central_and_being_lairs_on_opposite_sides():
    centre_col, centre_row = (D.BOARD_COLS - 1) / 2, (D.BOARD_ROWS - 1) / 2
    assert abs(D.CELL_COL[D.LAIR_CELL] - centre_col) <= 1
    assert abs(D.CELL_ROW[D.LAIR_CELL] - centre_row) <= 1
    cave, tree = (int(c) for c in D.BEING_LAIR_CELL)
    lair_col = D.CELL_COL[D.LAIR_CELL]
    assert (D.CELL_COL[cave] - lair_col) * (D.CELL_COL[tree] - lair_col) < 0
    assert D.SPACE_DIST[cave, tree] >= 6


def test_kingdoms_are_evenly_placed_round_the_edge():
    castles = D.CASTLE_CELL
    to_lair = [int(D.SPACE_DIST[c, D.LAIR_CELL]) for c in castles]
    assert max(to_lair) - min(to_lair) <= 1
    for c in structure_cells():
        col, row = D.CELL_COL[members(c)], D.CELL_ROW[members(c)]
        edge = np.minimum.reduce([col, row, D.BOARD_COLS - 1 - col, D.BOARD_ROWS - 1 - row])
        assert edge.min() <= 2, c
    for i in range(K.NUM_KINGDOMS):
        for j in range(i + 1, K.NUM_KINGDOMS):
            assert D.SPACE_DIST[castles[i], castles[j]] >= 5


def test_every_castle_is_equally_far_from_brimstone_in_movement_points():
    def cheapest(src, targets):
        cost = {src: 0}
        heap = [(0, src)]
        while heap:
            d, a = heapq.heappop(heap)
            if a in targets:
                return d
            if d > cost[a]:
                continue
            for b in D.STEP[a, 1:]:
                b = int(b)
                if b < 0 or D.TERRAIN[b] == K.COTTAGE or D.TERRAIN[b] == K.DRAGON_LAIR:
                    continue
                nd = d + (0 if D.SPACE[b] == D.SPACE[a] else int(D.MOVE_COST[b]))
                if nd < cost.get(b, 1 << 30):
                    cost[b] = nd
                    heapq.heappush(heap, (nd, b))
        raise AssertionError("unreachable")

    beside_lair = set(np.flatnonzero(D.SPACE_ADJ[D.LAIR_CELL]).tolist())
    costs = [cheapest(int(c), beside_lair) for c in D.CASTLE_CELL]
    assert max(costs) - min(costs) <= 1, costs


def test_terrain_mix():
    plain = D.TERRAIN[np.isin(D.TERRAIN, PLAIN)]
    share = {t: np.mean(plain == t) for t in PLAIN}
    assert 0.40 <= share[K.OPEN] <= 0.60
    assert 0.15 <= share[K.FOREST] <= 0.25
    assert 0.10 <= share[K.MOUNTAIN] <= 0.20
    assert 0.10 <= share[K.SWAMP] <= 0.20


def test_setup_allowed_is_the_static_part_of_3_41_to_3_45():
    assert D.SETUP_ALLOWED.dtype == np.int8
    banned_neighbour = np.isin(D.TERRAIN, STRUCTURES + LAIRS)
    for c in range(NC):
        ok = D.TERRAIN[c] in PLAIN and not any(
            D.SPACE_ADJ[c, b] for b in np.flatnonzero(banned_neighbour))
        assert D.SETUP_ALLOWED[c] == ok, c


def place_setup_units(rng, num_players=6, per_player=8, greedy=True):
    """Place ``per_player`` units per player one at a time in rotation (3.31, 3.32).

    Legal spaces: SETUP_ALLOWED, vacant (3.42), not adjacent to an enemy unit
    (3.44). The greedy placer takes the legal space that leaves the most legal
    spaces for the others (fewest free set-up spaces beside it, own units beside
    it a plus), ties broken at random; otherwise the space is uniformly random.
    Returns whether every unit found a space.
    """
    adj = D.SPACE_ADJ.astype(bool)
    adj_int = D.SPACE_ADJ.astype(np.int32)
    allowed = D.SETUP_ALLOWED.astype(bool)
    owner = np.full(NC, -1)
    near_enemy = np.zeros((num_players, NC), dtype=bool)
    for _ in range(per_player):
        for p in range(num_players):
            legal = np.flatnonzero(allowed & (owner < 0) & ~near_enemy[p])
            if legal.size == 0:
                return False
            if greedy:
                free = (allowed & (owner < 0)).astype(np.int32)
                own = (owner == p).astype(np.int32)
                score = adj_int[legal] @ free - 3 * (adj_int[legal] @ own)
                legal = legal[score == score.min()]
            cell = int(rng.choice(legal))
            owner[cell] = p
            others = np.arange(num_players) != p
            near_enemy[others] |= adj[cell]
    return True


def test_six_players_can_place_all_48_set_up_units():
    rng = np.random.default_rng(20240611)
    results = [place_setup_units(rng) for _ in range(200)]
    assert np.mean(results) >= 0.99


def test_uniformly_random_set_up_often_runs_out_of_spaces():
    # Recorded, not a rule: a placer choosing uniformly at random among legal
    # spaces scatters units and blocks the board for the others; on this board
    # about a sixth of 6-player set-ups complete (5 players: ~97%). The rules
    # core must handle a player with no legal set-up space. Three always fit.
    rng = np.random.default_rng(7)
    rate = np.mean([place_setup_units(rng, greedy=False) for _ in range(200)])
    assert 0.1 <= rate <= 0.5
    assert all(place_setup_units(rng, num_players=3, greedy=False) for _ in range(50))


def test_ascii_board_round_trips_board_txt():
    rows = [line.split()[1:] for line in D.ascii_board().splitlines()[1:]]
    assert len(rows) == D.BOARD_ROWS
    plain = {"..": K.OPEN, "ff": K.FOREST, "mm": K.MOUNTAIN, "ss": K.SWAMP,
             "LB": K.DRAGON_LAIR, "CV": K.BEING_LAIR, "HT": K.BEING_LAIR}
    structure = {"C": K.CASTLE, "V": K.VILLAGE, "H": K.COTTAGE}
    for c in range(NC):
        token = rows[D.CELL_ROW[c]][D.CELL_COL[c]]
        if token in plain:
            assert (D.TERRAIN[c], D.KINGDOM[c]) == (plain[token], -1)
        else:
            assert (D.TERRAIN[c], D.KINGDOM[c]) == (structure[token[0]], int(token[1]))
    assert D.BEING_LAIR_CELL.tolist() == [
        c for name in ("CV", "HT") for c in range(NC) if rows[D.CELL_ROW[c]][D.CELL_COL[c]] == name]
    marked = D.ascii_board(marks={D.LAIR_CELL: "Dr"})
    assert "Dr" in marked and "LB" not in marked
    assert len(D.ascii_board(staggered=True).splitlines()) == 1 + 2 * D.BOARD_ROWS
