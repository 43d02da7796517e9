"""Scenario 18.9 The Marathon Game (L315-L325): what it adds to the Full
Game's rules (18.7, L295-L301, and the diplomacy rules, L975-L1003).

* **Who plays first** (``who_plays_first``, L319): after deployment a second
  die decides it, odd the Lunar player, even Sartar -- the deploy-first die
  (``setup.setup_scenario``) only decides who deploys first and so selects
  the moon (L317, L319). 18.7's first player is the first deployer.
* **Half movement** (``base.half_movement``, ``base.first_turn_mp``, L319):
  the first moving player's units move at half-normal movement in game-turn 1
  (Interpretations 153).
* **Replacements bought with Diplomacy Points** (``PH_PURCHASE``, in the
  Diplomacy Segment after the replacements the dead piles give,
  ``alliance.diplomacy_segment``; L323, L981): a Lunar or Sartar infantry unit
  costs its CF in DP, a cavalry unit twice its CF; it comes from the dead pile
  or from the units removed from play, and enters by its side's edge in a
  later movement phase as a replacement does (L474): Sartar's by the south
  edge east of Stone Cross inclusive (L323, L981), the Lunars' by an edge hex
  of the dark Glowline (L981) (Interpretations 154-156). Only in 18.9
  (Interpretations 155).

The South Soldier Reserve enters by any south edge hex (``ENTRY_SOUTH_EDGE``,
``setup.RESERVE_ENTRY``, L321; Interpretations 151).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..constants import (
    ENTRY_LUNAR_GLOWLINE, ENTRY_SARTAR_SOUTH, LUNAR, SARTAR, SCENARIOS, SIDE_FRONT, UW_DEAD, UW_ENTERING, UW_OUT,
)
from ..data import DATA, MAP
from .base import BOLDHOME, A_CHOICE, A_UNIT, CH_DONE, PH_PURCHASE, U_CAVALRY, U_CF, U_FORCE, U_REPLACEABLE, d6, pose, units_end

SCENARIO_PURCHASES = np.array([sid == "18.9" for sid in SCENARIOS], np.int8)
"""Replacements may be bought with Diplomacy Points: 18.9 only ("In
addition", L323; Interpretations 155)."""
SCENARIO_PLAY_ROLL = np.array([sid == "18.9" for sid in SCENARIOS], np.int8)
"""A second die after deployment decides who plays first (L319)."""
PURCHASE_ENTRY = np.array([ENTRY_LUNAR_GLOWLINE, ENTRY_SARTAR_SOUTH], np.int8)
"""The edge a bought replacement of each force enters by: the Lunars' any edge
hex of the dark Glowline, Sartar's the south edge east of Stone Cross
inclusive (L323, L981; Interpretations 156)."""


def _costs():
    per_cf = (int(DATA.tables.diplomacy["replacement_infantry_per_cf"]),
              int(DATA.tables.diplomacy["replacement_cavalry_per_cf"]))
    out = np.zeros(U_CF.shape[0], np.int16)
    for u in range(U_CF.shape[0]):
        if U_REPLACEABLE[u] >= 0:
            out[u] = int(U_CF[u, SIDE_FRONT]) * per_cf[1 if U_CAVALRY[u] else 0]
    return out


PURCHASE_COST = _costs()
"""PURCHASE_COST[u]: the Diplomacy Points that buy unit u back (L981; tables.txt
``replacement_*_per_cf``): an infantry unit's CF, twice a cavalry unit's; its front side's CF, a cyclic
CF at its full value, 7 (Interpretations 154); 0 for a unit that cannot be
bought (not Lunar or Sartar infantry or cavalry, U_REPLACEABLE)."""


FURTHEST = list(f.name for f in MAP.fortresses).index("Furthest")
"""The fortress index of Furthest, the Lunar capital (L987)."""


@rules_jit
def marathon_capitals(S, b, f):
    """How many of the two capitals, Boldhome and Furthest, force f controls
    (18.9's victory, L325; the score)."""
    s = S[b]
    return (1 if s['fortress_owner'][BOLDHOME] == f else 0) + (1 if s['fortress_owner'][FURTHEST] == f else 0)


@rules_jit
def marathon_winner(S, b):
    """18.9 (L325): the player controlling both Boldhome and Furthest at the
    end of the game wins; if neither does, a draw (-1)."""
    for f in range(2):       # two-player
        if marathon_capitals(S, b, f) == 2:
            return f
    return -1


@rules_jit
def who_plays_first(S, b):
    """After deployment (L319): in 18.9 a die decides who plays first, odd the
    Lunar player, even Sartar; elsewhere the first deployer does."""
    s = S[b]
    if SCENARIO_PLAY_ROLL[int(s['scenario'])]:
        s['first_force'] = LUNAR if d6(S, b) % 2 == 1 else SARTAR


@rules_jit
def may_purchase(S, b, f, u):
    """Force f may buy unit u now: one of his own Lunar or Sartar infantry or
    cavalry (L981), dead or removed from play, for no more DP than he holds."""
    s = S[b]
    if U_REPLACEABLE[u] < 0 or U_FORCE[u] != f:
        return False
    w = s['unit_where'][u]
    return (w == UW_DEAD or w == UW_OUT) and int(PURCHASE_COST[u]) <= s['dp'][f]


@rules_jit
def any_purchase(S, b, f):
    """Force f may buy some replacement now (18.9 only)."""
    if not SCENARIO_PURCHASES[int(S[b]['scenario'])]:
        return False
    for u in range(units_end(S, b)):
        if may_purchase(S, b, f, u):
            return True
    return False


@rules_jit
def purchase_step(S, b, f):
    """Pose force f's purchase if he may buy; returns True if posed."""
    if any_purchase(S, b, f):
        return pose(S, b, PH_PURCHASE, f)
    return False


@rules_jit
def mask_purchase(S, b, p, mask):
    for u in range(units_end(S, b)):
        if may_purchase(S, b, p, u):
            mask[A_UNIT + u] = 1
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_purchase(S, b, p, a):
    """A_UNIT + u: p pays PURCHASE_COST[u] DP and unit u, front side up, waits
    off the board to enter by his edge (PURCHASE_ENTRY) in a movement phase, as
    replacements enter (L474); CH_DONE: he buys no more this game-turn (the
    Diplomacy Segment's ``cursor`` moves on)."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        s['cursor'] += 1
        return False
    u = a - A_UNIT
    s['dp'][p] -= PURCHASE_COST[u]
    s['unit_where'][u] = UW_ENTERING
    s['unit_hex'][u] = -1
    s['unit_side'][u] = SIDE_FRONT
    s['unit_force'][u] = p
    s['unit_entry'][u] = PURCHASE_ENTRY[p]
    return False
