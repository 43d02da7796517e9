"""Sir Ethilrist and his Black Horse Troop (L748-L758): the Hound's Doom Run,
the Cloak of Darkness and Keener Than.

Ethilrist rides the Hound while they share a hex: his MF is then 10 and he
moves without his heroic MF (L754; ``base.riding``, ``base.mf_of``,
``base.heroic_now``).

The Doom Run (L754): in its player's Exotic Magic Phase the Hound may be
unleashed (one more exotic-ability unit, ``exotic.ABLE``); its target is
the first hex of its run, one of the (up to) six hexes beside it, which names
the direction. It runs in a straight line, hex after hex in that direction
(``board.HEX_STEP``), to the edge of the board (``doom_run``):

* every unit in a hex it enters is eliminated -- a hero or superhero aside
  for his heroic escape (``base.eliminate``) -- but disembodied spirits,
  which exotic magic does not touch (DS&T, L674), and herds, which stampede
  (L588: only the Pillar of Fire or a Dragonfight eliminates a herd);
* a hex holding a dragon or a superhero stops it: the Hound is eliminated
  there, the superheroes in that hex are eliminated (each with his heroic
  escape), the dragons survive, and the rest of that hex is untouched;
* running off the edge of the board, the Hound is gone: eliminated, to the
  dead pile.

If Ethilrist is eliminated in combat or exotic magic while the Hound is on
the map, the Hound runs wild (``base.eliminate`` marks ``doom_pending``;
``run_wild``, from the sequence of play before the next phase goes on): a
Doom Run in the direction of a die roll on the map's compass (1..6 =
``board.HEX_STEP`` directions, as a stampede reads it).

The Cloak of Darkness (L752): kept off the board until used, once a game,
while Ethilrist is on the map (not eliminated), in his Exotic Magic Phase
(Ethilrist is an exotic-ability unit; his target is his own hex): the
Cloak's hex is ``cloak_hex``, the game-turn ``cloak_turn``. Every hex
within 10 of it is a cloud (``base.in_cloud``) for the rest of that
game-turn and the next 2: units in it cannot move, a group entering it
stops there (``base.clouded``, ``movement.cloud_stops``), but those
``base.cloud_free``. At the end of the second game-turn after it
(``cloak_expires``, from the book-keeping phase) the cloud lifts and the
Goblins stand in the Cloak's hex, allied to a player who does not control
Ethilrist if a unit of his is there, else to Ethilrist's controller.

Keener Than (L756), the opposing player's: a Hound on a Doom Run that
enters a hex within 3 of him is moved at once to his hex, and his
controller takes control of it (``keener_takes``); in the Exotic Magic
Phase of that player's next player-turn (``keener_turn``) Keener Than must
release it on another Doom Run (the phase cannot end before,
``exotic.must_release``), and that player-turn he rides it (MF 10,
``base.riding``).

Interpretations (RULES.md, Interpretations 80, 81 and 82; rows DP-INDEP-ETHIL-*).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..board import HEX_STEP
from ..constants import NUM_UNITS, RANK_SUPERHERO, SIDE_FRONT, TAG_DRAGON, UW_MAP
from .base import (
    A_HEX, CLOAK_RANGE, CLOAK_TURNS, ETHILRIST, GOBLINS, HELL_HOUND, KEENER_THAN, U_HERD, U_RANK, U_SPIRIT, U_TAGS, d6, distance,
    eliminate, force_of, put_on_top, side_of, stack_at, stampede, units_end,
)
from .puppeteers import cloak_clears


@rules_jit
def doom_targets(S, b, mask):
    """mask[A_HEX + g] = 1 for each hex beside the Hound (each a direction of
    its Doom Run); returns how many (0: the Hound is not on the map)."""
    s = S[b]
    if s['unit_where'][HELL_HOUND] != UW_MAP:
        return 0
    h = s['unit_hex'][HELL_HOUND]
    n = 0
    for d in range(1, 7):
        g = HEX_STEP[h, d]
        if g >= 0:
            n += 1
            if mask.shape[0] > 1:
                mask[A_HEX + g] = 1
    return n


@rules_jit
def stops_the_hound(S, b, u):
    """Unit u, in a hex the Hound enters, stops it there: a dragon or a superhero (L754)."""
    return (U_TAGS[u] & TAG_DRAGON) != 0 or U_RANK[u] == RANK_SUPERHERO


@rules_jit
def doom_run(S, b, d):
    """The Hound runs from its hex in direction d (1..6, ``board.HEX_STEP``)
    to the edge of the board, eliminating every unit in its path, unless a
    dragon or a superhero stops it (L754; the module's docstring)."""
    s = S[b]
    h = int(s['unit_hex'][HELL_HOUND])
    s['keener_turn'] = 0                          # a release owed is made (or the run is the Hound's last)
    out = np.empty(NUM_UNITS, np.int64)
    while True:
        g = int(HEX_STEP[h, d])
        if g < 0:
            eliminate(S, b, HELL_HOUND)          # off the board's edge: gone (Interpretations 80)
            return
        if keener_near(S, b, g):
            keener_takes(S, b)
            return
        n = stack_at(S, b, g, out)
        stopped = False
        for j in range(n):
            if stops_the_hound(S, b, out[j]):
                stopped = True
        if stopped:
            # the Hound dies there; a superhero with it (his heroic escape), a dragon lives (L754)
            for j in range(n):
                if U_RANK[out[j]] == RANK_SUPERHERO:
                    eliminate(S, b, out[j])
            eliminate(S, b, HELL_HOUND)
            return
        for j in range(n):
            v = out[j]
            if U_SPIRIT[v, side_of(S, b, v)]:
                continue                          # disembodied spirits: DS&T (L674)
            if U_HERD[v]:
                stampede(S, b, v)                 # no herd is eliminated but by the Pillar or a Dragonfight (L588)
            else:
                eliminate(S, b, v)
        h = g


@rules_jit
def keener_near(S, b, g):
    """The running Hound entering hex g passes within 3 hexes of Keener Than,
    on the map and controlled by a player who does not control the Hound
    (L756; Interpretations 82)."""
    s = S[b]
    k = KEENER_THAN
    if s['unit_where'][k] != UW_MAP or force_of(S, b, k) < 0 or force_of(S, b, k) == force_of(S, b, HELL_HOUND):
        return False
    return distance(g, s['unit_hex'][k]) <= 3


@rules_jit
def keener_takes(S, b):
    """The Hound is moved to Keener Than's hex and his controller takes
    control of it; he must release it in the Exotic Magic Phase of his next
    player-turn (L756)."""
    s = S[b]
    f = force_of(S, b, KEENER_THAN)
    put_on_top(S, b, HELL_HOUND, s['unit_hex'][KEENER_THAN])
    s['unit_force'][HELL_HOUND] = f
    s['unit_flags'][HELL_HOUND] = 0
    # his next player-turn: the following one, or the one after if this one is his
    s['keener_turn'] = s['player_turn'] + (2 if s['active'] == f else 1)


@rules_jit
def unleash(S, b, g):
    """The Hound is unleashed on a Doom Run towards hex g beside it (L754)."""
    s = S[b]
    h = s['unit_hex'][HELL_HOUND]
    for d in range(1, 7):
        if HEX_STEP[h, d] == g:
            doom_run(S, b, d)
            return


@rules_jit
def run_wild(S, b):
    """Ethilrist fell in combat or exotic magic: the Hound, if still on the
    map, starts a Doom Run in a random direction -- the die on the map's
    compass (L754)."""
    s = S[b]
    s['doom_pending'] = 0
    if s['unit_where'][HELL_HOUND] == UW_MAP:
        doom_run(S, b, d6(S, b))


# ================================================================ the Cloak of Darkness (L752)
@rules_jit
def cloak_targets(S, b, mask):
    """mask[A_HEX + h] = 1 for Ethilrist's hex, where the Cloak may be cast:
    once a game, Ethilrist on the map (L752). Returns 1 or 0."""
    s = S[b]
    if s['cloak_turn'] != 0 or s['unit_where'][ETHILRIST] != UW_MAP:
        return 0
    if mask.shape[0] > 1:
        mask[A_HEX + s['unit_hex'][ETHILRIST]] = 1
    return 1


@rules_jit
def cast_cloak(S, b, h):
    """The Cloak of Darkness is placed at hex h (Ethilrist's): its cloud starts (L752)."""
    s = S[b]
    s['cloak_hex'] = h
    s['cloak_turn'] = s['turn']
    cloak_clears(S, b, h, CLOAK_RANGE)      # "Remove any Illusory Armies that are within the cloud" (L752)


@rules_jit
def cloak_expires(S, b):
    """The end of a game-turn: the cloud of a Cloak cast 2 game-turns before
    lifts, and the Goblins stand in the Cloak's hex (L752), allied to a player
    who does not control Ethilrist if a unit of his is there, else to
    Ethilrist's controller."""
    s = S[b]
    h = int(s['cloak_hex'])
    if h < 0 or s['turn'] < s['cloak_turn'] + CLOAK_TURNS:
        return
    s['cloak_hex'] = -1
    f = int(s['unit_force'][ETHILRIST])
    for v in range(units_end(S, b)):
        if s['unit_where'][v] == UW_MAP and s['unit_hex'][v] == h and s['unit_force'][v] >= 0 \
                and s['unit_force'][v] != s['unit_force'][ETHILRIST]:
            f = int(s['unit_force'][v])
    s['unit_force'][GOBLINS] = f
    s['unit_side'][GOBLINS] = SIDE_FRONT
    put_on_top(S, b, GOBLINS, h)
