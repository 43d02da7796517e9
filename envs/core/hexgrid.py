"""Hex-grid helpers shared by the hex-board games.

Convention (the one the Dragonhunt examples use): hexes are *flat-topped*, so
every hex has a neighbour due North and due South. Coordinates are axial
``(q, r)``; ``q`` is the column, ``r`` runs down the column. Direction numbers
follow the board's direction hexagon::

    1 = N  (0, -1)     2 = NE (+1, -1)    3 = SE (+1, 0)
    4 = S  (0, +1)     5 = SW (-1, +1)    6 = NW (-1, 0)

A board is a set of cells numbered 0..NC-1. Text maps are written in "odd-q"
offset layout (odd columns sit half a hex lower); ``offset_to_axial`` converts.
"""
import numpy as np

DIRECTIONS = ((0, 0), (0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""DIRECTIONS[d] is the axial step of direction d (1..6); index 0 is unused."""
DIRECTION_NAMES = ("", "N", "NE", "SE", "S", "SW", "NW")


def offset_to_axial(col, row):
    """Odd-q offset (column, row) to axial (q, r)."""
    return col, row - (col - (col & 1)) // 2


def axial_to_offset(q, r):
    """Axial (q, r) to odd-q offset (column, row)."""
    return q, r + (q - (q & 1)) // 2


def hex_distance(q1, r1, q2, r2):
    """Number of hex steps between two axial coordinates."""
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def opposite(d):
    """The direction opposite to direction d (1..6)."""
    return (d + 2) % 6 + 1


def build_tables(coords):
    """Lookup tables for a board given as a list of axial (q, r) per cell.

    Returns ``(step, dist)``: ``step[c, d]`` is the cell one step from ``c`` in
    direction ``d`` (1..6) or -1 off the board (column 0 is -1); ``dist[a, b]``
    is the hex distance between cells, as int16.
    """
    index = {tuple(c): i for i, c in enumerate(coords)}
    n = len(coords)
    step = np.full((n, 7), -1, dtype=np.int16)
    dist = np.zeros((n, n), dtype=np.int16)
    for i, (q, r) in enumerate(coords):
        for d in range(1, 7):
            dq, dr = DIRECTIONS[d]
            step[i, d] = index.get((q + dq, r + dr), -1)
        for j, (q2, r2) in enumerate(coords):
            dist[i, j] = hex_distance(q, r, q2, r2)
    return step, dist


def line_direction(q1, r1, q2, r2):
    """Direction 1..6 along which (q2, r2) lies in a straight hex row from (q1, r1), or 0."""
    dq, dr = q2 - q1, r2 - r1
    if dq == 0 and dr == 0:
        return 0
    for d in range(1, 7):
        sq, sr = DIRECTIONS[d]
        k = max(abs(dq), abs(dr))
        if sq * k == dq and sr * k == dr:
            return d
    return 0
