"""The Hydra of Hydra Hill (0314; L878-L882).

Once allied, a die gives the Hydra's chaotic MgF: minus the roll (the
counter's "-N", L136, L882; ``data/tables.txt`` [table hydra]), kept in
``hydra_mgf`` and read wherever its MgF is (``base.mgf_of``: chaotic magic in
battle, L516-L520). It cannot be moved -- nor retreat nor advance
(``base.frozen``) -- until it has been fed as many units as its MgF
(``hydra_hunger`` counts those still owed). ``hydra_awakes`` rolls it, called
by the alliance phase.

Any allied unit within 1 hex of the Hydra can be fed to it "at any time"
(L880). The decision is posed to its controller (Interpretations 135):

* at the start of his movement phase (PH_HYDRA_FEED, after Ironhoof's
  freeze is asked): one unit at a time, then CH_DONE; fed enough, the Hydra
  moves at its MF in that same phase;
* in his Exotic Magic Phase, the Hydra is an exotic-ability unit whose
  targets are the units it may be fed (``feed_targets``).

A fed unit is eliminated outright: a hero or superhero fed to it makes no
heroic escape (L880). Units are fed only while the Hydra still needs them;
an Illusory Army is no food (Interpretations 136).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..constants import ST_MOVEMENT, UW_MAP
from ..data import DATA
from .base import A_CHOICE, A_UNIT, CH_DONE, HYDRA, IS_ILLUSION, PH_HYDRA_FEED, U_MF, d6, distance, force_of, killed, \
    pose, units_end

HYDRA_MGF = np.zeros(7, np.int8)
HYDRA_FEED = np.zeros(7, np.int8)
for _roll, _row in DATA.tables.hydra.items():
    HYDRA_MGF[int(_roll)] = int(_row["mgf"])
    HYDRA_FEED[int(_roll)] = int(_row["feed"])
"""By die roll 1..6: the Hydra's chaotic MgF and the units it must be fed before it moves (L880, L882)."""


@rules_jit
def hydra_awakes(S, b, f):
    """The Hydra allies force f: a die gives its chaotic MgF and its hunger
    (L880). Called by the alliance phase when the Hydra allies
    (``alliance.act_alliance``); it sets the Hydra's controller too."""
    s = S[b]
    r = d6(S, b)
    s['unit_force'][HYDRA] = f
    s['hydra_mgf'] = HYDRA_MGF[r]
    s['hydra_hunger'] = HYDRA_FEED[r]


@rules_jit
def hydra_food(S, b, v):
    """Unit v may be fed to the Hydra now: the Hydra on the map, allied and
    still hungry; v its controller's, on the map within 1 hex of it, not the
    Hydra, not an Illusory Army (L880)."""
    s = S[b]
    if s['hydra_hunger'] <= 0 or s['unit_where'][HYDRA] != UW_MAP or force_of(S, b, HYDRA) < 0:
        return False
    if v == HYDRA or IS_ILLUSION[v] or s['unit_where'][v] != UW_MAP or force_of(S, b, v) != force_of(S, b, HYDRA):
        return False
    return distance(s['unit_hex'][v], s['unit_hex'][HYDRA]) <= 1


@rules_jit
def feed_targets(S, b, mask):
    """mask[A_UNIT + v] = 1 for each unit that may be fed to the Hydra now; returns how many."""
    n = 0
    for v in range(units_end(S, b)):
        if hydra_food(S, b, v):
            n += 1
            if mask.shape[0] > 1:
                mask[A_UNIT + v] = 1
    return n


@rules_jit
def feed_hydra(S, b, v):
    """Unit v is fed to the Hydra: eliminated, no heroic escape (L880). Fed
    enough in its controller's movement phase, the Hydra may move at once."""
    s = S[b]
    killed(S, b, v)
    s['unit_flags'][v] = 0
    s['hydra_hunger'] -= 1
    if s['hydra_hunger'] == 0 and force_of(S, b, HYDRA) == s['active'] and s['stage'] == ST_MOVEMENT:
        s['unit_mp'][HYDRA] = 2 * int(U_MF[HYDRA, int(s['unit_side'][HYDRA])])


@rules_jit
def hydra_question(S, b):
    """At the start of the active player's movement phase, once: his Hydra can
    be fed (PH_HYDRA_FEED posed, True) or not (False)."""
    s = S[b]
    if s['hydra_asked']:
        return False
    s['hydra_asked'] = 1
    if force_of(S, b, HYDRA) != s['active'] or feed_targets(S, b, np.zeros(1, np.int8)) == 0:
        return False
    return pose(S, b, PH_HYDRA_FEED, int(s['active']))


@rules_jit
def mask_hydra_feed(S, b, p, mask):
    feed_targets(S, b, mask)
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_hydra_feed(S, b, p, a):
    """Unit a is fed to the Hydra (then, while it is still hungry, another may
    be); ``CH_DONE``: no more now."""
    if a == A_CHOICE + CH_DONE:
        return False
    feed_hydra(S, b, a - A_UNIT)
    if feed_targets(S, b, np.zeros(1, np.int8)) > 0:
        return pose(S, b, PH_HYDRA_FEED, p)
    return False
