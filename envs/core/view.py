"""Reading one game record in Python: the accessors every game's ``view.py``
shares (the pending decision, the stage, the seat to play, the seats).

A ``state`` here is one record or a 1-record array (what ``Game`` methods
take). Game-specific readers (units, cards, tiles) live in the game's own
``view.py``, which imports these.
"""
# jitcache: no compiled code


def record(state):
    """The record itself: ``state[0]`` of a 1-record array, else ``state``."""
    return state[0] if getattr(state, "shape", None) == (1,) else state


def phase(state):
    """The pending decision (the game's ``rules.PH_*``)."""
    return int(record(state)["phase"])


def stage(state):
    """The position in the sequence of play (the game's ``ST_*``)."""
    return int(record(state)["stage"])


def to_play(state):
    """Seat that decides now (-1 once the game is over)."""
    return int(record(state)["to_play"])


def num_players(state):
    """How many seats the game has."""
    return int(record(state)["num_players"])
