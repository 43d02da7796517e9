"""Small helpers shared by the Fantastic Being tests (rulebook sections 8 and 15).

Positions are built with :class:`tests.dragonhunt.scenario.Scenario`; cells are
named as ``dragongym.envs.dragonhunt.game.cell_name`` writes them ("CCRR", "Cave", ...).
"""
import numpy as np

from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import BEING_NAMES, NUM_BEINGS
from dragongym.envs.dragonhunt.game import GAME, cell_name
from tests.dragonhunt.scenario import Scenario, cell, step

LAIR = {0: "Cave", 1: "Hollow Tree"}


def name(c):
    """Space name of a cell index (or None for -1)."""
    return None if int(c) < 0 else cell_name(int(c))


def towards(where, direction, k=1):
    """Name of the space k hexes from ``where`` in direction 1..6."""
    return name(step(where, direction, k))


def arena(*beings, num_players=2, kingdoms=None):
    """A cleared board with the given beings: ``(slot, being id, space)`` each;
    the other beings lie face down in the pile."""
    sc = Scenario(num_players=num_players, kingdoms=kingdoms)
    sc.no_beings()
    sc.s["being_pile"] = (1 << NUM_BEINGS) - 1
    for slot, k, where in beings:
        sc.being(slot, k, where)
    return sc


def being_loc(sc, slot):
    """Space name of the being of lair slot ``slot``, or None."""
    return name(sc.s["slot_loc"][slot]) if int(sc.s["slot_being"][slot]) >= 0 else None


def in_pile(sc, k):
    return bool(int(sc.s["being_pile"]) >> k & 1)


def pile_index(sc, k, joining=()):
    """Raw draw that picks being k from the pile (its index among the pile's
    beings, in id order), for ``Scenario.load_rolls``; ``joining``: beings that
    go into the pile before the draw."""
    pile = int(sc.s["being_pile"])
    for j in joining:
        pile |= 1 << j
    assert pile >> k & 1, f"{BEING_NAMES[k]} is not in the pile"
    return sum(1 for j in range(k) if pile >> j & 1)


def use_being(sc, where, to=None):
    """The first player selects the being on ``where`` and moves it to ``to``
    (default: it stays)."""
    sc.act(f"use being at {where}")
    sc.act(f"being to {to or where}")


def first_being_stays(sc, where, choice_player=0, second_player=1):
    """Start the round; the first player uses the being on ``where`` without
    moving it and declines any power it offers. The game then waits for the
    second being's die (or has moved it already on doubles)."""
    sc.start_being_round(choice_player, second_player)
    use_being(sc, where)
    while sc.phase not in (R.PH_SECOND_DIE, R.PH_CARD):
        sc.act("done")


def second_being_moves(sc, direction, other=None):
    """Roll the second being's dice as ``direction`` and ``other`` (default: a
    different face) and choose ``direction``."""
    if other is None:
        other = 1 if direction != 1 else 2
    sc.load_dice(direction, other)
    return direction


def choose_die(sc, face):
    sc.act(f"die {face} ({('', 'N', 'NE', 'SE', 'S', 'SW', 'NW')[face]})")


def vacant_fields(sc):
    """All vacant non-structure spaces (the Banisher's and revival targets)."""
    return [c for c in range(D.NUM_CELLS) if R.is_vacant_field(sc.S, 0, c)]


def mask(sc):
    """The legal-action mask of the position."""
    return GAME.mask_of(sc.S)


def legal_cells(sc):
    """Names of the board cells legal now."""
    return sorted(name(c) for c in np.flatnonzero(mask(sc)[:R.NC]))
