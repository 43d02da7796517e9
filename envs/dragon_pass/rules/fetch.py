"""Fetching Hungry Jack (L870): "To ally requires that any dragon be sent to
fetch him. The dragon must leave the West map edge for 2 game-turns. When
he returns, he is carrying Hungry Jack. Hungry Jack cannot move by himself
and can only be carried by a dragon."

* **The leaving** (``may_fetch``, ``send_for_jack``): in its side's movement
  phase, a dragon moving alone (a group of one, L450) that stands on a hex
  of the West map edge (column 01) with movement points left may fly off the
  board to fetch Hungry Jack (``CH_FETCH_JACK`` in PH_MOVE_GROUP), in a
  scenario with the Independents (18.7), while Jack is out of play and no
  other dragon is already gone for him. It is then off the board, to come
  back by the West edge (``UW_ENTERING``, ``ENTRY_WEST_EDGE``), and stops
  negating the Glowline (it is no longer on the map).
* **Two game-turns away** (``still_away``): it may come back from the
  movement phase of its side two game-turns after the one it left in
  (``jack_back_turn``), or later, when its controller chooses, as a
  reinforcement enters (L474): at a West edge hex no enemy unit holds
  (``movement.entry_hexes``). (Interpretations 160.)
* **The return** (``bring_jack``): the dragon comes onto that edge hex with
  Hungry Jack on its stack and its move ends there (it has flown the whole
  way back; Interpretations 161). Hungry Jack allies with the dragon's
  controller (``dragons.jack_arrives``; ``faction_ally``), and from his
  enemy's next movement phase on he summons (``dragons.jack_due``).
* Jack never moves by himself (MF 0: never ``movement.movable``); a dragon
  alone may carry him on (``base.can_carry``, L462, L870).
"""
from dragongym.envs.core.jit import rules_jit
from ..constants import ENTRY_WEST_EDGE, UF_GROUP, UF_MOVED, UW_ENTERING, UW_OUT
from ..unitdata import FACTIONS
from .base import (
    ENTRY_HEXES, HUNGRY_JACK, SCENARIO_DIPLOMACY, floods, force_of, is_dragon, occupy, put_on_top, trespass,
    units_end,
)
from .dragons import dragon_index, jack_arrives

WEST_EDGE = ENTRY_HEXES[ENTRY_WEST_EDGE]
"""WEST_EDGE[h]: hex h is on the West map edge, column 01 (L870)."""
AWAY_TURNS = 2
"""The game-turns the dragon is gone (L870)."""
JACK_FACTION = FACTIONS.index("hungry_jack")


@rules_jit
def fetching(S, b, u):
    """Unit u is the dragon gone to fetch Hungry Jack."""
    return int(S[b]['jack_fetcher']) == u + 1


@rules_jit
def still_away(S, b, u):
    """Unit u is the dragon gone for Hungry Jack and its 2 game-turns away are
    not yet over: it cannot come back in this movement phase (L870)."""
    s = S[b]
    return fetching(S, b, u) and int(s['turn']) < int(s['jack_back_turn'])


@rules_jit
def group_dragon(S, b, p):
    """The group now moving is one dragon of force p alone: that dragon; -1 otherwise."""
    s = S[b]
    d = -1
    n = 0
    for u in range(units_end(S, b)):
        if s['unit_flags'][u] & UF_GROUP:
            n += 1
            d = u
    if n == 1 and is_dragon(d) and force_of(S, b, d) == p:
        return d
    return -1


@rules_jit
def may_fetch(S, b, p):
    """Force p's group now moving may leave by the West map edge to fetch
    Hungry Jack (L870): one dragon alone, on a West edge hex, with movement
    points left for the step off the board; the Independents in play (18.7);
    Jack out of play and unallied, no dragon already gone for him."""
    s = S[b]
    if not SCENARIO_DIPLOMACY[int(s['scenario'])] or s['jack_fetcher'] != 0:
        return False
    if s['unit_where'][HUNGRY_JACK] != UW_OUT or s['faction_ally'][JACK_FACTION] >= 0:
        return False
    h = int(s['sel_hex'])
    if h < 0 or not WEST_EDGE[h]:
        return False
    d = group_dragon(S, b, p)
    return d >= 0 and s['unit_mp'][d] > 0


@rules_jit
def send_for_jack(S, b, p):
    """``CH_FETCH_JACK``: the dragon of the group flies off the West map edge
    to fetch Hungry Jack; it may come back 2 game-turns later (L870)."""
    s = S[b]
    d = group_dragon(S, b, p)
    s['unit_where'][d] = UW_ENTERING
    s['unit_hex'][d] = -1
    s['unit_entry'][d] = ENTRY_WEST_EDGE
    s['unit_flags'][d] = UF_MOVED
    s['unit_mp'][d] = 0
    s['unit_road'][d] = 0
    k = dragon_index(d)
    s['dragon_negates'] = int(s['dragon_negates']) & ~(1 << k)      # off the map, it negates nothing (L851)
    s['jack_fetcher'] = d + 1
    s['jack_back_turn'] = int(s['turn']) + AWAY_TURNS
    s['sel_hex'] = -1
    s['group_start'] = -1
    s['group_moved'] = 0
    s['group_arranged'] = 0
    return False


@rules_jit
def bring_jack(S, b, p, d, h):
    """The dragon d gone for Hungry Jack comes back at West edge hex h carrying
    him (L870): Jack on its stack, allied with p, the dragon's move over
    there (Interpretations 161). Called by ``movement.enter_board``."""
    s = S[b]
    put_on_top(S, b, d, h)
    s['unit_entry'][d] = -1
    s['unit_mp'][d] = 0
    s['unit_road'][d] = 0
    s['unit_flags'][d] = UF_MOVED
    occupy(S, b, p, h)
    trespass(S, b, d, -1, h)
    floods(S, b, d, h, True)
    if s['units_end'] < HUNGRY_JACK + 1:
        s['units_end'] = HUNGRY_JACK + 1
    jack_arrives(S, b, d)
    s['unit_flags'][HUNGRY_JACK] = UF_MOVED
    s['faction_ally'][JACK_FACTION] = p
    s['allied_turn'][JACK_FACTION] = s['player_turn']
    s['jack_fetcher'] = 0
    s['jack_back_turn'] = 0
    s['sel_hex'] = -1                 # no group moves on from there
    s['group_start'] = -1
    s['group_moved'] = 0
    return False
