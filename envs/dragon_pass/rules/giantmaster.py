"""Players against the giants (L918, L458, L516) and Argrath's Giantmaster (L686).

* **Attacking giants** (Interpretations 162): the giants are no one's, and
  every player's units are inactive to them (L918); to the active player
  they are an inactive stack like the enemy's -- their zone of control
  stops his units (DP-GIANTS-1) -- so in his combat phase a stack of his
  beside giants must fight them, as beside any inactive stack (L516; the
  fortification exception, L514, applies), and he may commit spirits and
  agents against them (L496). L458 and L472 put giants outside structures,
  which matters only to giants defending: they can be attacked. A battle
  against giants is against one giants' stack alone (no enemy stack in
  it); for the battle its giants are lent to the inactive player, who
  decides for them as a defender (arrangement, retreat, the casualties of
  their counter-attack), as the giants' own battles lend them
  (Interpretations 148); the battle over they are no one's again
  (``lend_giants``, ``return_giants``; combat.py: ``candidate_stacks``,
  ``strands``, ``act_battle``, ``mask_battle_add``, ``end_battle``;
  magic.py: ``attackable``).
* **Giantmaster** (L686; Interpretations 163-165): in a scenario with exotic
  magic, Argrath moving alone may step into a hex holding one giant (never
  two) if he controls none: he must stop there and gains control of it
  (``giantmaster_step``, ``giantmaster_enters``). The giant is then his
  side's unit: it moves with him (or he without it), fights in his side's
  battles, is left out of the Random Movement Phase and its battles.
  While they are stacked, no other unit joins them and they join no other
  unit (``giantmaster_bars``), and neither may retreat from any combat
  (``combat.may_retreat``). The moment Argrath is no longer with it
  (moved away, or gone from the map) the giant reverts to normal: no one's
  (``giant_reverts``, after every action).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from ..constants import NEUTRAL, NUM_UNITS, ST_COMBAT, UF_GROUP, UNIT_IDS, UW_MAP
from .base import U_GIANT, force_of, in_list, units_end
from .setup import SCENARIO_EXOTIC_MAGIC

GIANT_UNITS = np.array([u for u in range(NUM_UNITS) if U_GIANT[u]], np.int64)
"""giants#1..#3 (L920); bit k of ``giants_lent``: GIANT_UNITS[k]."""
ARGRATH = UNIT_IDS.index("argrath")


# ================================================================ giants attacked by a player (L918, L516)
@rules_jit
def neutral_giants_at(S, b, h):
    """How many giants no one controls stand at hex h."""
    s = S[b]
    n = 0
    for k in range(GIANT_UNITS.shape[0]):
        u = GIANT_UNITS[k]
        if u < units_end(S, b) and s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h \
                and s['unit_force'][u] < 0:
            n += 1
    return n


@rules_jit
def lend_giants(S, b, h, f):
    """A battle is declared against the giants' stack at hex h: its giants are
    lent to force f, the inactive player, who decides for them in it
    (Interpretations 162)."""
    s = S[b]
    for k in range(GIANT_UNITS.shape[0]):
        u = GIANT_UNITS[k]
        if u < units_end(S, b) and s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h \
                and s['unit_force'][u] < 0:
            s['unit_force'][u] = f
            s['giants_lent'] = int(s['giants_lent']) | (1 << k)


@rules_jit
def lent_giants_hex(S, b, h):
    """Hex h holds giants lent for the battle being declared or fought."""
    s = S[b]
    for k in range(GIANT_UNITS.shape[0]):
        u = GIANT_UNITS[k]
        if (int(s['giants_lent']) >> k) & 1 and s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h:
            return True
    return False


@rules_jit
def return_giants(S, b):
    """The battle is over: the lent giants are no one's again, wherever they are."""
    s = S[b]
    for k in range(GIANT_UNITS.shape[0]):
        if (int(s['giants_lent']) >> k) & 1:
            s['unit_force'][GIANT_UNITS[k]] = NEUTRAL
    s['giants_lent'] = 0


# ================================================================ Giantmaster (L686)
@rules_jit
def controlled_giant(S, b):
    """The giant Argrath controls (on the map, stacked with him, his force's); -1 none."""
    s = S[b]
    a = ARGRATH
    if a >= units_end(S, b) or s['unit_where'][a] != UW_MAP:
        return -1
    for k in range(GIANT_UNITS.shape[0]):
        u = GIANT_UNITS[k]
        if u < units_end(S, b) and s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == s['unit_hex'][a] \
                and s['unit_force'][u] >= 0 and s['unit_force'][u] == s['unit_force'][a]:
            return u
    return -1


@rules_jit
def is_controlled(S, b, u):
    return U_GIANT[u] != 0 and controlled_giant(S, b) == u


@rules_jit
def giantmaster_step(S, b, p, g):
    """The group of force p now moving may step into hex g, which holds giants
    no player controls (L686): the group is Argrath alone, in a scenario with
    exotic magic, controlling no giant, and g holds exactly one giant."""
    s = S[b]
    if not SCENARIO_EXOTIC_MAGIC[int(s['scenario'])] or controlled_giant(S, b) >= 0:
        return False
    a = ARGRATH
    if force_of(S, b, a) != p or not s['unit_flags'][a] & UF_GROUP:
        return False
    for u in range(units_end(S, b)):
        if u != a and s['unit_flags'][u] & UF_GROUP:
            return False
    return neutral_giants_at(S, b, g) == 1


@rules_jit
def giantmaster_enters(S, b, p, g):
    """Argrath stepped into the giant's hex g: he gains control of it (L686).
    Returns True (his move ends there)."""
    s = S[b]
    for k in range(GIANT_UNITS.shape[0]):
        u = GIANT_UNITS[k]
        if u < units_end(S, b) and s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == g \
                and s['unit_force'][u] < 0:
            s['unit_force'][u] = p
            s['unit_mp'][u] = 0           # it was no one's this phase: it moves from the next one
    return True


@rules_jit
def giantmaster_bars(S, b, p, g):
    """The group of force p now moving may not step into hex g (L686: "Argrath
    and a giant cannot be stacked with any other unit"): g holds Argrath and
    the giant he controls and the group is not made of them; or the group
    holds them and g holds other units of p."""
    s = S[b]
    c = controlled_giant(S, b)
    if c < 0:
        return False
    a = ARGRATH
    pair = s['unit_hex'][a]
    own = False
    other = False
    for u in range(units_end(S, b)):
        if s['unit_flags'][u] & UF_GROUP:
            if u == a or u == c:
                own = True
            else:
                other = True
    if g == pair and other:
        return True
    if own:
        for u in range(units_end(S, b)):
            if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == g and u != a and u != c \
                    and force_of(S, b, u) == p:
                return True
    return False


@rules_jit
def pair_hex_barred(S, b, u):
    """The hex of Argrath and the giant he controls, which unit u (not one of
    them) may not join by a retreat or an advance (L686); -1 none."""
    c = controlled_giant(S, b)
    if c < 0 or u == c or u == ARGRATH:
        return -1
    return int(S[b]['unit_hex'][ARGRATH])


@rules_jit
def may_not_retreat(S, b, u):
    """Argrath and the giant he controls, stacked, cannot retreat from any combat (L686)."""
    c = controlled_giant(S, b)
    return c >= 0 and (u == c or u == ARGRATH)


@rules_jit
def giant_reverts(S, b):
    """A giant of a player that is not with Argrath reverts to normal: no one's
    (L686: "a controlled giant reverts to normal if Argrath moves away";
    Interpretations 164). Not a giant lent for a battle (``giants_lent``, or
    the giants' own battle, ``giant_foe``: the battle gives them back), nor
    one standing in a hex of the battle being fought: it reverts when that
    battle ends."""
    s = S[b]
    c = controlled_giant(S, b)
    lent_to = 2 - int(s['giant_foe']) if s['giant_foe'] != 0 else -1     # 1 - foe  # two-player
    for k in range(GIANT_UNITS.shape[0]):
        u = GIANT_UNITS[k]
        if u >= units_end(S, b) or s['unit_force'][u] < 0 or u == c:
            continue
        if (int(s['giants_lent']) >> k) & 1 or s['unit_force'][u] == lent_to:
            continue
        if s['stage'] == ST_COMBAT and s['unit_where'][u] == UW_MAP and \
                (in_list(s['bat_att'], s['unit_hex'][u]) or in_list(s['bat_def'], s['unit_hex'][u])):
            continue
        s['unit_force'][u] = NEUTRAL
