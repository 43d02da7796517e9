"""Possessions changing hands in the action phase: the Loot Action (L522-L534;
the Treasure Site features of L1232-L1252) and the Trade Action (L552-L568:
swap, commerce with its haggling L982-L1000, repair).

Being written (Dragons Down, part 1): until it lands neither action is legal.
"""
from dragongym.envs.core.jit import rules_jit


@rules_jit
def mask_loot_trade(S, b, p, mask):
    """Mark A_DO + DO_LOOT and A_DO + DO_TRADE in ``mask`` where hero p may
    take the Loot or the Trade Action now (called by ``actions.mask_action``)."""
    return


@rules_jit
def loot_action(S, b, p):
    """Hero p takes the Loot Action (spends it). True if it posed a decision."""
    return False


@rules_jit
def trade_action(S, b, p):
    """Hero p takes the Trade Action (spends it). True if it posed a decision."""
    return False
