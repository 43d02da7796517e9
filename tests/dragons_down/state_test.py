"""The Dragons Down state record keeps the platform's common fields and
serialises faithfully (no padding bytes)."""
import numpy as np

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
