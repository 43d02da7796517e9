"""The magesword and the slaying (13, 14): the sword appears with the third
wound marker, and its wielder's battle against Brimstone ends the game.
(The sword counter's bookkeeping, which every move and death touches, is in
``base``.)"""
import numpy as np

from dragongym.envs.core.jit import rules_jit

from .base import (
    MAGESWORD_PLUS, PH_NONE, ST_OVER, UNIT_ATTACK, UNIT_TYPE, d6, kill_unit, materialise_sword,
)
from .brimstone import set_enraged


# ================================================================ the magesword (13) and the slaying (14)
@rules_jit
def wound_brimstone(S, b, p):
    """9.83, 9.84, 13.1: a wound marker; he becomes enraged; the third marker makes
    the magesword appear."""
    s = S[b]
    if s['wounds'][p] < 3:
        s['wounds'][p] += 1
        if s['wounds'][p] == 3:
            materialise_sword(S, b, p)
    set_enraged(S, b)
    s['do_or_die'] = 0


@rules_jit
def slaying_battle(S, b, p, u):
    """13.5-14.43: the sword-wielder's attempt to kill Brimstone. Magical defense
    = strength + the Mage Sword Chart (+2 markers per Demon slain, 15.635);
    five dragon parts 1-5, six (two 1s) when enraged (14.21, 14.22). The
    attacker removes the part matching his die; Brimstone hits on a 6 or on a
    surviving part's number (14.32, 14.33). Returns True if Brimstone is slain."""
    s = S[b]
    md = int(UNIT_ATTACK[UNIT_TYPE[u]]) + int(MAGESWORD_PLUS[d6(S, b)])
    if s['md_holder'][p] == u:
        md += int(s['md_carried'][p])
    parts = np.zeros(7, dtype=np.int64)           # parts[v] = surviving parts numbered v
    for v in range(1, 6):
        parts[v] = 1
    if s['enraged']:
        parts[1] = 2
    left = 6 if s['enraged'] else 5
    while True:
        r = d6(S, b)
        if r <= 5 and parts[r] > 0:
            parts[r] -= 1
            left -= 1
            if left == 0:
                return True
        r = d6(S, b)
        if r == 6 or parts[r] > 0:
            md -= 1
            if md == 0:
                kill_unit(S, b, u, False)         # 14.34, 13.3, 14.43
                set_enraged(S, b)                 # 9.842
                return False


@rules_jit
def end_game(S, b, winner):
    """Brimstone is slain: the slayer wins (rank 1, +1), the others share last
    place (rank 2) and -1."""
    s = S[b]
    n = int(s['num_players'])
    s['status'] = 1
    s['winner'] = winner
    s['to_play'] = -1
    s['phase'] = PH_NONE
    s['stage'] = ST_OVER
    for q in range(n):
        s['rewards'][q] = 1.0 if q == winner else np.float32(-1.0 / (n - 1))
        s['rank'][q] = 1 if q == winner else 2
