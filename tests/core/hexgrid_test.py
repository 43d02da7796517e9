"""Hex-grid helpers: flat-topped axial coordinates, odd-q offset maps."""
from hypothesis import given, strategies as st

from dragongym.envs.core.hexgrid import (DIRECTION_NAMES, DIRECTIONS, axial_to_offset, build_tables,
                               hex_distance, line_direction, offset_to_axial, opposite)

coord = st.integers(-40, 40)


def test_direction_names_and_opposites():
    assert DIRECTION_NAMES[1:] == ("N", "NE", "SE", "S", "SW", "NW")
    assert DIRECTIONS[1] == (0, -1) and DIRECTIONS[4] == (0, 1)  # flat-topped: due N and due S
    pairs = {DIRECTION_NAMES[d]: DIRECTION_NAMES[opposite(d)] for d in range(1, 7)}
    assert pairs == {"N": "S", "NE": "SW", "SE": "NW", "S": "N", "SW": "NE", "NW": "SE"}
    for d in range(1, 7):
        dq, dr = DIRECTIONS[d]
        assert DIRECTIONS[opposite(d)] == (-dq, -dr)
        assert opposite(opposite(d)) == d


def test_every_direction_is_one_step():
    for d in range(1, 7):
        assert hex_distance(0, 0, *DIRECTIONS[d]) == 1
    assert len({DIRECTIONS[d] for d in range(1, 7)}) == 6


def test_known_distances():
    assert hex_distance(0, 0, 0, 0) == 0
    assert hex_distance(0, 0, 3, 0) == 3
    assert hex_distance(0, 0, 3, -3) == 3
    assert hex_distance(0, 0, 2, 1) == 3
    assert hex_distance(-2, 1, 2, -1) == 4


@given(coord, coord, coord, coord, coord, coord)
def test_distance_is_a_metric(q1, r1, q2, r2, q3, r3):
    d12 = hex_distance(q1, r1, q2, r2)
    assert d12 == hex_distance(q2, r2, q1, r1)
    assert (d12 == 0) == ((q1, r1) == (q2, r2))
    assert hex_distance(q1, r1, q3, r3) <= d12 + hex_distance(q2, r2, q3, r3)


@given(coord, coord)
def test_offset_axial_round_trip(a, b):
    assert axial_to_offset(*offset_to_axial(a, b)) == (a, b)
    assert offset_to_axial(*axial_to_offset(a, b)) == (a, b)


def test_odd_columns_sit_half_a_hex_lower():
    # Offset (0,0) touches (1,0) to its SE and (1,-1) to its NE; (1,0) touches (2,0) to its NE.
    def step(col, row, d):
        q, r = offset_to_axial(col, row)
        return axial_to_offset(q + DIRECTIONS[d][0], r + DIRECTIONS[d][1])

    assert step(0, 0, 3) == (1, 0)
    assert step(0, 0, 2) == (1, -1)
    assert step(1, 0, 2) == (2, 0)
    assert step(1, 0, 3) == (2, 1)
    assert step(3, 2, 1) == (3, 1) and step(3, 2, 4) == (3, 3)


@given(coord, coord, st.integers(1, 6), st.integers(1, 12))
def test_line_direction_along_rows(q, r, d, k):
    dq, dr = DIRECTIONS[d]
    assert line_direction(q, r, q + k * dq, r + k * dr) == d
    assert line_direction(q + k * dq, r + k * dr, q, r) == opposite(d)


def test_line_direction_off_the_rows():
    assert line_direction(0, 0, 0, 0) == 0
    assert line_direction(0, 0, 2, 1) == 0
    assert line_direction(0, 0, 1, -2) == 0
    assert line_direction(1, 1, 1, -4) == 1


def test_build_tables_on_a_small_board():
    coords = [offset_to_axial(c, r) for c in range(3) for r in range(3)]  # 3x3 offset board
    step, dist = build_tables(coords)
    centre = coords.index(offset_to_axial(1, 1))
    assert step.shape == (9, 7) and (step[:, 0] == -1).all()
    # Column 1 sits half a hex lower, so (1,1) touches every cell but (0,0) and (2,0).
    expected = {coords.index(offset_to_axial(c, r)) for c, r in
                [(1, 0), (2, 1), (2, 2), (1, 2), (0, 2), (0, 1)]}
    assert set(step[centre, 1:].tolist()) == expected
    for c in range(9):
        for d in range(1, 7):
            n = step[c, d]
            if n >= 0:
                assert step[n, opposite(d)] == c
                assert dist[c, n] == 1
    assert (dist == dist.T).all() and (dist.diagonal() == 0).all()
    corner = coords.index(offset_to_axial(0, 0))
    assert step[corner, 1] == -1 and step[corner, 6] == -1
