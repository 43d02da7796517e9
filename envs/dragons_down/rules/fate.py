"""The fate of heroes (L801-L838): hero death and the body left behind,
retirement, starting a new hero, the end of the game; victory and its
tie-breaks (L113-L121, L141, L157-L168).

Being written (Dragons Down, part 1).
"""
from dragongym.envs.core.jit import rules_jit
from ..constants import ST_TURN_START


@rules_jit
def kill_hero(S, b, p):
    """L803-L805: hero p is killed."""
    return


@rules_jit
def fate_phase(S, b):
    """The end of the battle phase (L813-L838). True if a decision is posed."""
    S[b]['stage'] = ST_TURN_START
    return False
