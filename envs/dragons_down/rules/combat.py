"""Combat in each clearing with a hero (L674-L800): the eight steps of a
Combat Round, wounds, monster death.

Being written (Dragons Down, part 1).
"""
from dragongym.envs.core.jit import rules_jit
from ..constants import ST_FATE


@rules_jit
def combat_phase(S, b):
    """Play combat in each clearing with a hero, in Turn Order (L676); when
    all are done, the battle phase ends (``stage`` = ST_FATE). True if a
    decision is posed."""
    S[b]['stage'] = ST_FATE
    return False
