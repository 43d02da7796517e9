"""Range checks of a Dragonhunt record's fields, before any compiled code reads it.

The compiled core indexes arrays with the record's fields without bounds
checks, so a corrupted record (a flipped unit location, random bytes) could
make it read or write outside its arrays. ``field_range_problem`` is checked
by ``Dragonhunt.check_state`` before the compiled invariant checker runs.
"""
# jitcache: no compiled code
import numpy as np

from . import data as D
from .constants import MAX_PLAYERS, NUM_UNITS

NC = D.NUM_CELLS

# field -> (lowest, highest) allowed value of every element
FIELD_RANGES = {
    "unit_loc": (-3, NC - 1),
    "cell_count": (0, NUM_UNITS),
    "slot_loc": (-1, NC - 1),
    "dragon_cell": (-1, NC - 1),
    "sword_loc": (-1, NC - 1),
    "sword_holder": (-1, NUM_UNITS - 1),
    "md_holder": (-1, NUM_UNITS - 1),
    "sel_cell": (-1, NC - 1),
    "sel_unit": (-1, NUM_UNITS - 1),
    "target_cell": (-1, NC - 1),
    "struct_cell": (-1, NC - 1),
    "eagle_cell": (-1, NC - 1),
    "five_path": (-1, NC - 1),
    "round_order": (-1, MAX_PLAYERS - 1),
    "rank": (0, MAX_PLAYERS),
}


def field_range_problem(state):
    """``""`` if every field of ``state[0]`` in :data:`FIELD_RANGES` is in
    range, else a sentence naming the first field that is not."""
    rec = state[0]
    for name, (lo, hi) in FIELD_RANGES.items():
        values = np.asarray(rec[name]).reshape(-1)
        bad = np.flatnonzero((values < lo) | (values > hi))
        if len(bad):
            where = f"[{int(bad[0])}]" if values.size > 1 else ""
            return f"field {name}{where} is {int(values[bad[0]])}, outside {lo}..{hi}"
    return ""
