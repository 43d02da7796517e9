"""The Puppeteers (L884-L892, L724): the Puppeteer Troop and its 5 Illusory
Armies.

Before an alliance (L886): the 5 Illusory Army pieces stand, no one's, at
Grazelands (1325), Bush Range (2315), the ruin near Dragons Eye (3216), Too
Far (2308) and the clearing in Stinking Forest (3202)
(``place_illusory_armies``, from the 18.7 set-up). The real Puppeteers are in
one of them, found by a draw from a cup of the real counter and 4 blanks when
an emissary stands in one of those locations (``puppeteer_draw``). The draw
is chance, decided when it is made -- no location holds them in advance --
so nothing is secret: it is a draw without replacement, the real counter
coming out with chance 1 in the counters left in the cup
(``puppet_blanks`` blanks drawn so far). A blank: the Illusory Army there is
removed. The Puppeteers: they are in that hex (``puppet_found_hex``), every
Illusory Army is removed, the Troop stands there, and the emissary rolls on
the Emissary Table (the alliance phase's); every further attempt is made from
that hex. Allied, the Troop is its ally's and the 5 Illusory Armies,
off the board, are his to create (``place_puppeteers``).

Once allied:

* In his Exotic Magic Phase the controller creates or removes Illusory
  Armies, any number, anywhere within the Troop's RF of 8 (L724, L888): the
  Troop is an exotic-ability unit (``exotic.ABLE``) whose target is a hex
  (``illusion_targets``): one holding his Illusory Army removes it, an
  empty-of-illusions hex he may stand in creates one there. Each piece is
  created or removed once a phase at most (its ``UF_EXOTIC``), so the phase
  ends; the one the Troop switched with this player-turn is not removed
  (``illusion_kept``, L888). An eliminated piece is never created again
  (UW_DEAD); a removed one is UW_OUT, free to be created (L890).
* Illusory Armies never move, retreat or advance (``base.frozen``, L888,
  L890). In his movement phase the Troop may switch places with any of his
  Illusory Armies once, before it moves, then move normally (PH_MOVE,
  A_UNIT + v: ``switch_places``).
* A disrupted Illusory Army is removed (``base.disrupt``), to be created
  again (L890).
* The Troop in a battle about to be fought may switch places with one of his
  Illusory Armies not in that battle, which then stands in the battle in its
  place (PH_PUPPET_DODGE); once a game-turn: switched into another battle
  it must fight it (L890, ``puppet_dodge_turn``).
* An Illusory Army adjacent to an enemy dragon or superhero is destroyed
  (eliminated) at once, whenever that happens (``illusions_dispelled``, run
  by the driver after every action); with screening only when both are
  revealed: in the battle being fought, or Argrath with his location
  revealed (L890; Interpretations 132).
* The Cloak of Darkness removes every Illusory Army within its cloud, and
  none is created there while it lasts (L752; ``ethilrist.cast_cloak``).

Interpretations 130-134 (RULES.md; rows DP-INDEP-PUPPET-*).
"""
import numpy as np

from dragongym.envs.core.jit import rules_jit
from dragongym.envs.core.rng import roll
from ..board import HEX_TERRAIN, NUM_HEXES
from ..constants import RANK_SUPERHERO, TAG_DRAGON, UF_EXOTIC, UF_MOVED, UF_USED, UW_MAP, UW_OUT
from ..data import MAP
from .base import (
    A_CHOICE, A_HEX, A_UNIT, CH_DONE, ILLUSORY_ARMIES, IS_ILLUSION, PUPPETEER_TROOP, TERRAIN_LAKE, U_RANK, U_TAGS,
    distance, force_of, hex_force, in_cloud, in_list, killed, put_on_top, remove_illusion, shut, units_end, U_RF,
)
from .moon import ARGRATH_UNIT, REVEAL_ARGRATH

PUPPETEER_HOMES = np.array(MAP.homes["puppeteers"], np.int64)
"""The 5 Puppeteer locations (L886), one Illusory Army each before an alliance."""
CUP_COUNTERS = 5
"""The cup: the real Puppeteers and 4 blanks (L886)."""


# ================================================================ before the alliance (L886)
@rules_jit
def place_illusory_armies(S, b):
    """The set-up (called by the 18.7 set-up): an Illusory Army, no one's, at
    each of the 5 Puppeteer locations; the Troop off the board; the cup full."""
    s = S[b]
    for k in range(ILLUSORY_ARMIES.shape[0]):
        u = ILLUSORY_ARMIES[k]
        s['unit_force'][u] = -1
        s['unit_side'][u] = 0
        put_on_top(S, b, u, PUPPETEER_HOMES[k])
    s['puppet_blanks'] = 0
    s['puppet_found_hex'] = -1


@rules_jit
def puppeteer_location(S, b, h):
    """An emissary at hex h may try to ally the Puppeteers (L886): before they
    are found, an Illusory Army still stands there, no one's; after, h is the
    hex they were found in."""
    s = S[b]
    if s['puppet_found_hex'] >= 0:
        return h == s['puppet_found_hex']
    for k in range(ILLUSORY_ARMIES.shape[0]):
        u = ILLUSORY_ARMIES[k]
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h and s['unit_force'][u] < 0:
            return True
    return False


@rules_jit
def puppeteer_draw(S, b, f, emissary, h):
    """Force f's emissary (unit ``emissary``) is at Puppeteer location h
    (``puppeteer_location``): a counter is drawn from the cup (L886). Returns
    True if the Puppeteers are there -- found now (every Illusory Army removed,
    the Troop placed at h, no one's yet) or found there before -- and the
    emissary then rolls on the Emissary Table (the alliance phase's, which
    calls ``place_puppeteers`` on success); False for a blank: the Illusory
    Army at h is removed. Called by the alliance phase when an emissary tries
    the Puppeteers (``alliance.act_alliance``)."""
    s = S[b]
    if s['puppet_found_hex'] >= 0:
        return h == s['puppet_found_hex']          # every further attempt from that hex (L886)
    left = CUP_COUNTERS - int(s['puppet_blanks'])
    if left > 1 and roll(S, b, left) != 0:
        # a blank: that Illusory Army goes (Interpretations 130: a draw without replacement)
        for k in range(ILLUSORY_ARMIES.shape[0]):
            u = ILLUSORY_ARMIES[k]
            if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h:
                remove_illusion(S, b, u)
        s['puppet_blanks'] += 1
        return False
    s['puppet_found_hex'] = h
    for k in range(ILLUSORY_ARMIES.shape[0]):
        u = ILLUSORY_ARMIES[k]
        if s['unit_where'][u] == UW_MAP:
            remove_illusion(S, b, u)
    s['unit_force'][PUPPETEER_TROOP] = -1
    s['unit_side'][PUPPETEER_TROOP] = 0
    put_on_top(S, b, PUPPETEER_TROOP, h)
    return True


@rules_jit
def place_puppeteers(S, b, f):
    """The Puppeteers ally force f (L886, L888): the Troop, in the hex where
    they were found, is f's; the 5 Illusory Armies, off the board, are f's to
    create in his Exotic Magic Phases. Called by the alliance phase after a
    successful Emissary Table roll (``alliance.act_alliance``)."""
    s = S[b]
    if s['unit_where'][PUPPETEER_TROOP] != UW_MAP and s['puppet_found_hex'] >= 0:
        put_on_top(S, b, PUPPETEER_TROOP, s['puppet_found_hex'])
    s['unit_force'][PUPPETEER_TROOP] = f
    for k in range(ILLUSORY_ARMIES.shape[0]):
        u = ILLUSORY_ARMIES[k]
        if s['unit_where'][u] == UW_MAP:
            remove_illusion(S, b, u)
        s['unit_force'][u] = f


# ================================================================ the Exotic Magic Phase (L724, L888)
@rules_jit
def illusion_at(S, b, h, f):
    """Force f's Illusory Army standing at hex h, -1 if none."""
    s = S[b]
    for k in range(ILLUSORY_ARMIES.shape[0]):
        u = ILLUSORY_ARMIES[k]
        if s['unit_where'][u] == UW_MAP and s['unit_hex'][u] == h and force_of(S, b, u) == f:
            return u
    return -1


@rules_jit
def illusion_free(S, b, f):
    """An Illusory Army of force f off the board that may be created now (not
    eliminated, not already created or removed this phase), -1 if none."""
    s = S[b]
    for k in range(ILLUSORY_ARMIES.shape[0]):
        u = ILLUSORY_ARMIES[k]
        if s['unit_where'][u] == UW_OUT and force_of(S, b, u) == f and not s['unit_flags'][u] & UF_EXOTIC:
            return u
    return -1


@rules_jit
def removable(S, b, u):
    """Illusory Army u may be removed in this Exotic Magic Phase: not yet
    created or removed in it, not the one the Troop switched with in this
    player-turn's movement phase (L888)."""
    s = S[b]
    if s['unit_flags'][u] & UF_EXOTIC:
        return False
    return not (u == s['illusion_kept'] and s['puppet_switch_turn'] == s['player_turn'])


@rules_jit
def creatable(S, b, h, f):
    """An Illusory Army of force f may be created at hex h: no enemy there (one
    force a hex, L448), not a lake, not shut (18.5), not in the Cloak's cloud
    (L752; Interpretations 133), no Illusory Army of f there yet."""
    if HEX_TERRAIN[h] == TERRAIN_LAKE or shut(S, b, h) or in_cloud(S, b, h):
        return False
    g = hex_force(S, b, h)
    return (g < 0 or g == f) and illusion_at(S, b, h, f) < 0


@rules_jit
def troop_range(S, b):
    """The Troop's parenthesised RF, the range within which it creates Illusory
    Armies (8 on either side, L430, L724, L888); not a magician's RF."""
    t = PUPPETEER_TROOP
    return int(U_RF[t, int(S[b]['unit_side'][t])])


@rules_jit
def illusion_targets(S, b, mask):
    """mask[A_HEX + h] = 1 for each hex within the Troop's RF where its
    controller may create an Illusory Army or remove his one (the module
    docstring); returns how many."""
    s = S[b]
    u = PUPPETEER_TROOP
    if s['unit_where'][u] != UW_MAP:
        return 0
    f = force_of(S, b, u)
    if f < 0:
        return 0
    centre = int(s['unit_hex'][u])
    rf = troop_range(S, b)
    spare = illusion_free(S, b, f) >= 0
    n = 0
    for h in range(NUM_HEXES):
        if distance(h, centre) > rf:
            continue
        v = illusion_at(S, b, h, f)
        if (v >= 0 and removable(S, b, v)) or (v < 0 and spare and creatable(S, b, h, f)):
            n += 1
            if mask.shape[0] > 1:
                mask[A_HEX + h] = 1
    return n


@rules_jit
def create_or_remove(S, b, h):
    """At hex h: the controller's Illusory Army there is removed, or one is
    created there (L888); that piece is done for the phase."""
    s = S[b]
    f = force_of(S, b, PUPPETEER_TROOP)
    v = illusion_at(S, b, h, f)
    if v >= 0:
        remove_illusion(S, b, v)
    else:
        v = illusion_free(S, b, f)
        s['unit_side'][v] = 0
        put_on_top(S, b, v, h)
    s['unit_flags'][v] |= UF_EXOTIC


# ================================================================ switching places (L888, L890)
@rules_jit
def may_switch(S, b, p, v):
    """In p's movement phase the Troop may switch places with p's Illusory Army
    v: both on the map in different hexes, the Troop not yet moved nor
    switched this phase (L888: it switches, then moves normally)."""
    s = S[b]
    t = PUPPETEER_TROOP
    if not IS_ILLUSION[v] or s['unit_where'][v] != UW_MAP or s['unit_where'][t] != UW_MAP:
        return False
    if force_of(S, b, t) != p or force_of(S, b, v) != p or s['unit_hex'][v] == s['unit_hex'][t]:
        return False
    if s['puppet_switch_turn'] == s['player_turn'] or s['unit_mp'][t] <= 0:
        return False
    return (s['unit_flags'][t] & UF_MOVED) == 0


@rules_jit
def swap_with_troop(S, b, v):
    """The Troop and Illusory Army v change hexes, each on top there."""
    s = S[b]
    t = PUPPETEER_TROOP
    ht = int(s['unit_hex'][t])
    hv = int(s['unit_hex'][v])
    put_on_top(S, b, t, hv)
    put_on_top(S, b, v, ht)


@rules_jit
def switch_places(S, b, p, v):
    """The Troop switches places with Illusory Army v in the movement phase;
    v cannot be removed this player-turn (L888)."""
    s = S[b]
    swap_with_troop(S, b, v)
    s['puppet_switch_turn'] = s['player_turn']
    s['illusion_kept'] = v


@rules_jit
def dodge_options(S, b, mask):
    """mask[A_UNIT + v] = 1 for each Illusory Army the Troop may switch with to
    avoid the battle about to be fought (L890): the Troop in one of its
    stacks, not switched out of a battle yet this game-turn, v its
    controller's, on the map, in none of the battle's stacks. Returns how many."""
    s = S[b]
    t = PUPPETEER_TROOP
    if s['unit_where'][t] != UW_MAP or force_of(S, b, t) < 0 or s['puppet_dodge_turn'] == s['turn']:
        return 0
    ht = s['unit_hex'][t]
    if not in_list(s['bat_att'], ht) and not in_list(s['bat_def'], ht):
        return 0
    n = 0
    for k in range(ILLUSORY_ARMIES.shape[0]):
        v = ILLUSORY_ARMIES[k]
        if s['unit_where'][v] != UW_MAP or force_of(S, b, v) != force_of(S, b, t):
            continue
        hv = s['unit_hex'][v]
        if in_list(s['bat_att'], hv) or in_list(s['bat_def'], hv):
            continue
        n += 1
        if mask.shape[0] > 1:
            mask[A_UNIT + v] = 1
    return n


@rules_jit
def mask_puppet_dodge(S, b, p, mask):
    dodge_options(S, b, mask)
    mask[A_CHOICE + CH_DONE] = 1


@rules_jit
def act_puppet_dodge(S, b, p, a):
    """Illusory Army a takes the Troop's place in the battle, the Troop its
    place outside it; ``CH_DONE``: the Troop fights (L890)."""
    s = S[b]
    if a == A_CHOICE + CH_DONE:
        return False
    v = a - A_UNIT
    t = PUPPETEER_TROOP
    kept = s['unit_flags'][v] & UF_USED        # the stack the Troop joins may have fought already
    swap_with_troop(S, b, v)
    s['unit_flags'][v] |= UF_USED
    s['unit_flags'][t] = (s['unit_flags'][t] & ~UF_USED) | kept
    s['puppet_dodge_turn'] = s['turn']
    return False


# ================================================================ dispelled (L890)
@rules_jit
def revealed_now(S, b, u):
    """With screening, unit u's location is known to both players: it stands
    in a stack of the battle being fought, or it is Argrath with his location
    revealed (L452, L668; Interpretations 132). Without screening, always."""
    s = S[b]
    if not s['screening']:
        return True
    h = s['unit_hex'][u]
    if in_list(s['bat_att'], h) or in_list(s['bat_def'], h):
        return True
    return u == ARGRATH_UNIT and (s['revealed'] & REVEAL_ARGRATH) != 0


@rules_jit
def dispels(S, b, v, f):
    """Unit v is an enemy dragon or superhero of force f's Illusory Armies (L890)."""
    return force_of(S, b, v) >= 0 and force_of(S, b, v) != f \
        and ((U_TAGS[v] & TAG_DRAGON) != 0 or U_RANK[v] == RANK_SUPERHERO)


@rules_jit
def illusions_dispelled(S, b):
    """Every allied Illusory Army adjacent to an enemy dragon or superhero is
    destroyed at once (L890): eliminated, never to be created again; with
    screening only if both are revealed (``revealed_now``). The driver runs it
    before each decision. Illusory Armies no one controls (before the
    alliance) are only the cup's markers (Interpretations 132)."""
    s = S[b]
    any_on = False
    for k in range(ILLUSORY_ARMIES.shape[0]):
        u = ILLUSORY_ARMIES[k]
        if s['unit_where'][u] == UW_MAP and s['unit_force'][u] >= 0:
            any_on = True
    if not any_on:
        return
    for k in range(ILLUSORY_ARMIES.shape[0]):
        u = ILLUSORY_ARMIES[k]
        if s['unit_where'][u] != UW_MAP or s['unit_force'][u] < 0 or not revealed_now(S, b, u):
            continue
        h = s['unit_hex'][u]
        f = force_of(S, b, u)
        for v in range(units_end(S, b)):
            if s['unit_where'][v] == UW_MAP and distance(s['unit_hex'][v], h) == 1 and dispels(S, b, v, f) \
                    and revealed_now(S, b, v):
                killed(S, b, u)
                break


@rules_jit
def cloak_clears(S, b, h, rng):
    """The Cloak of Darkness cast at hex h removes every Illusory Army within
    ``rng`` of it; they can be created again (L752)."""
    s = S[b]
    for k in range(ILLUSORY_ARMIES.shape[0]):
        u = ILLUSORY_ARMIES[k]
        if s['unit_where'][u] == UW_MAP and distance(s['unit_hex'][u], h) <= rng:
            remove_illusion(S, b, u)

