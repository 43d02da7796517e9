"""The Dragonhunt heuristic (``"dragonhunt.heuristic"``, the game's
``heuristic_agent``) that does not fall to the hero rush (issue 30).

Version 1 (:class:`~dragongym.agents.dragonhunt_heuristic.DragonhuntHeuristic`,
kept as ``"dragonhunt.heuristic_v1"``) keeps its hero in the castle until the
magesword appears and wounds Brimstone only with knights and men-at-arms. The
reverse-curriculum policy (``training/checkpoints/dragonhunt_2p_reverse_curriculum_s0.zip``)
beats it in 96.5% of games by doing what 9.81 allows and version 1 never
does: its **hero marches out at once and attacks Brimstone alone**. With
attack strength 5 the hero wounds him on two dice of 7 or more (21 in 36)
where a man-at-arms needs 11 (3 in 36), and the few knights and men-at-arms
version 1 gathers rarely add up to 5. The policy also lays its high movement
cards, so the hero reaches Brimstone from the castle in one round. It earns
its three wound markers in a hand or two, its hero then takes up the sword,
and it slays Brimstone long before version 1 has a wound.

This version races the same way, and moves its units so as not to lose them:

* **Hero strike** (the counter): until the magesword appears the hero is a
  hunter too. He leaves the castle, marches to a space next to Brimstone and,
  in the Dragon Attack segment, attacks alone whenever his strength is at
  least that of the knights and men-at-arms that could attack instead (one
  attempt per round, 9.85; the hero attacks alone, 9.81), and Brimstone is
  neither in his lair nor enraged (-2 each, 9.71 and 9.842: then the others
  attack and the hero waits a round). A wounded hero heals at home, a dead
  one comes back as a replacement at the next growth phase (12.3).
* **The hunter moves first**: the hero, or the sword-wielder, whether hero or
  knight (13.21; version 1 left a knight wielder in the castle), moves
  before anyone else, so he has the card's movement points. Version 1 moved
  the space farthest from Brimstone first, and its men-at-arms spent them.
* **No stacking**: no unit ends a move on a field space another of ours
  holds. Two units stacked outside a structure at the end of the movement
  segment are all removed (9.14), and version 1 preferred such spaces.
* **Movement cards**: the highest card (most movement points) while the
  hunter still has to reach Brimstone; the lowest (to attack first, before a
  rival's wound enrages him, 9.842) when he already stands next to him.
* **Brimstone's moves**: the one-ply look-ahead of version 1 also counts
  the rivals' strike strength within reach of Brimstone against the move
  (the leader's most), and a rival's sword-wielder next to him most of all.
* **Fantastic Beings**: their attacks and powers aim at a rival's hero (or
  sword-wielder) before any other unit.

Everything else (set-up, garrisons, combat, the dragon cards, the beings'
movement) is version 1's. Measured (``agents/EVAL.md``, issue 30; 400
seat-rotated 2-player games, ``max_hands=20``): 75.8% against the
reverse-curriculum policy, 99.0% against version 1, 100% against random.
The hero strike and the two movement fixes carry most of it. The cards and
the dice add a few points each.
"""
import numpy as np

from dragongym.agents.dragonhunt_heuristic import (_CASTLE_CELLS, _IS_STRUCTURE, _VILLAGE_CELLS, DragonhuntHeuristic,
                                                   HUNT_WEIGHT, leader)
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt import view as V
from dragongym.envs.dragonhunt.constants import HERO, KNIGHT, MAN_AT_ARMS, UNITS_PER_COLOUR
from dragongym.envs.dragonhunt.state import F_IN_FORCE   # the unit has joined this round's attack on Brimstone
from dragongym.envs.dragonhunt.state import F_WOUNDED

A_DONE, A_CARD0, A_TYPE0 = R.A_DONE, R.A_CARD0, R.A_TYPE0
HERO_STRENGTH = V.ATTACK[HERO]
RIVAL_WEIGHT = 1.0       # look-ahead cost of one point of a rival's strike strength next to Brimstone
WIELDER_THREAT = 8.0     # look-ahead cost of a rival's sword-wielder next to Brimstone
REACH = 4                # spaces a hunter covers in one round on a high card (a rough measure)


def _reach_weight(dist):
    """How much a unit ``dist`` spaces from Brimstone counts toward this
    round's attack: fully next to him, half within ``REACH``, nothing beyond."""
    if dist <= 1:
        return 1.0
    return 0.5 if dist <= REACH else 0.0


class DragonhuntHeuristicV2(DragonhuntHeuristic):
    """Version 1's bot with a hunting hero who strikes Brimstone alone and
    moves first, no stacked units, hunter's cards and a Brimstone kept away
    from the rivals' hunters (the module's docstring has the strategy and
    why). Same interface (``act_state``, ``act``, ``reset``) and per-game
    memory (the spaces tried in the current movement segment) as version 1."""

    name = "dragonhunt.heuristic"

    # ----------------------------------------------------------- the hero
    def _hero_mode(self, state, me):
        """'fetch' (sword lies somewhere), 'hunt' (hero wields it, or it has
        not appeared: he hunts Brimstone to wound him) or 'safe' (the hero is
        off the board or wounded, or a knight wields the sword)."""
        loc, holder = V.sword(state, me)
        hero = V.hero(state, me)
        if holder >= 0:
            return "hunt" if holder == hero else "safe"
        if loc >= 0:
            return "fetch"
        return "hunt"

    def _hero_ready(self, state, me):
        """The hero stands on the board, unwounded and unharried."""
        hero = V.hero(state, me)
        return V.unit_cell(state, hero) >= 0 and not V.unit_wounded(state, hero) \
            and not V.unit_harried(state, hero)

    def _hunter(self, state, me):
        """``(unit, goal, want)``: the unit that carries the hunt this round,
        the cell it heads for and the distance from it where it stops; None
        when there is none. The sword-wielder (hero or knight, 13.21) goes
        next to Brimstone; the hero goes onto a magesword lying in the castle
        (or cottage) to take it up, else next to Brimstone to strike."""
        loc, holder = V.sword(state, me)
        d = V.dragon_cell(state)
        if holder >= 0:
            fit = V.unit_cell(state, holder) >= 0 and not V.unit_wounded(state, holder) \
                and not V.unit_harried(state, holder)
            return (holder, d, 1) if fit else None
        if not self._hero_ready(state, me):
            return None
        return (V.hero(state, me), loc, 0) if loc >= 0 else (V.hero(state, me), d, 1)

    def _hunter_to_move(self, state, me):
        """The hunter (:meth:`_hunter`) when he still has to move, else None."""
        h = self._hunter(state, me)
        if h is None:
            return None
        unit, goal, want = h
        return h if V.distance(V.unit_cell(state, unit), goal) != want else None

    # ----------------------------------------------------------- movement
    def _move_select(self, state, me, legal, rng):
        """The hunter moves first, with the whole card's movement points
        (version 1 moved whichever space lay farthest from Brimstone first,
        so its men-at-arms often spent the points the hero needed)."""
        self._segment_key(state, me)
        h = self._hunter_to_move(state, me)
        if h is not None:
            c = V.unit_cell(state, h[0])
            if c in self._cells(legal) and c not in self._tried:
                self._tried.add(c)
                return c
        return DragonhuntHeuristic._move_select(self, state, me, legal, rng)

    def _move_type(self, state, me, legal, rng):
        h = self._hunter_to_move(state, me)
        if h is not None and V.unit_cell(state, h[0]) == V.pending(state)["sel_cell"]:
            if R.A_WIELDER in legal and h[0] == V.sword(state, me)[1]:
                return R.A_WIELDER                  # the knight with the sword, not another knight
            t = V.unit_type(h[0])
            if A_TYPE0 + t in legal:
                return A_TYPE0 + t
        return DragonhuntHeuristic._move_type(self, state, me, legal, rng)

    def _move_dest(self, state, me, legal, rng):
        """The hunter to the space nearest his goal, the others next to
        Brimstone as in version 1; but never onto a field space that one of
        our units already holds: two units stacked outside a structure at the
        end of the movement segment are all removed (9.14), which version 1
        (preferring spaces its units hold) did to its own men."""
        h = self._hunter(state, me)
        r = V.record(state)
        if h is not None and int(r["sel_unit"]) == h[0]:
            unit, goal, want = h
        else:
            goal, want = V.dragon_cell(state), 1
        cells = self._legal_cells(legal)
        stacks = ~_IS_STRUCTURE[cells] & (r["cell_count"][cells] > 0) & (r["cell_colour"][cells] == me)  # _stacks
        return self._argbest_scored(cells, -np.abs(V.DISTANCES[cells, goal] - want) - 100 * stacks, rng)

    @staticmethod
    def _stacks(state, me, cell):
        """Moving one more of our units onto ``cell`` stacks it (9.14)."""
        return (not V.is_structure(cell)) and V.cell_count(state, cell) > 0 and V.cell_owner(state, cell) == me

    # ----------------------------------------------------------- strike strength
    def _force_potential(self, state, me, cells=None):
        """Strength of the largest force of knights and men-at-arms (no hero,
        no sword-wielder) that could join an attack on Brimstone from
        ``cells`` (default: every space next to him), keeping one unit in the
        home castle and village as version 1 does."""
        d = V.dragon_cell(state)
        if cells is None:
            cells = V.neighbours(d)
        hero = V.hero(state, me)
        holder = V.sword(state, me)[1]
        total = 0
        for c in cells:
            if V.distance(c, d) != 1 or V.cell_owner(state, c) != me:
                continue
            us = [u for u in V.cell_units(state, c) if u // 39 == me and u not in (hero, holder)
                  and V.unit_type(u) in (KNIGHT, MAN_AT_ARMS) and not V.unit_wounded(state, u)
                  and not V.unit_harried(state, u)]
            if not us:
                continue
            cap = int(R.HEXSIDES[c, d]) if V.is_structure(c) else len(us)
            cap = min(cap, len(us))
            if c in (V.home_castle(state, me), V.home_village(state, me)):
                cap = min(cap, max(0, len(us) - 1))
            total += sum(sorted((V.ATTACK[V.unit_type(u)] for u in us), reverse=True)[:cap])
        return total

    def _hero_strikes(self, state, me):
        """The swordless hero, next to Brimstone and fit, attacks alone this
        round: his strength is at least the knights' and men-at-arms', and
        Brimstone is neither in his lair nor enraged (either takes 2 from the
        roll, 9.71 and 9.842: the hero would draw a first wound in 10 of 36
        rolls instead of 21 and fall more often, so the knights and
        men-at-arms attack then and the hero waits a round)."""
        if V.sword(state, me)[1] >= 0 or not self._hero_ready(state, me):
            return False
        if V.dragon_cell(state) == V.LAIR_CELL or V.dragon_enraged(state):
            return False
        if V.distance(V.unit_cell(state, V.hero(state, me)), V.dragon_cell(state)) != 1:
            return False
        return HERO_STRENGTH >= self._force_potential(state, me)

    def _strike_strength(self, state, seat, d):
        """What seat ``seat`` may bring against Brimstone on cell ``d`` this
        round, weighted by reach: its hero alone or its knights and
        men-at-arms outside the home castle and village, whichever is more;
        a sword-wielder within reach counts ``WIELDER_THREAT``."""
        r = V.record(state)
        hero = V.hero(state, seat)
        holder = int(r["sword_holder"][seat])
        k = int(r["kingdom"][seat])
        homes = (_CASTLE_CELLS[k], _VILLAGE_CELLS[k]) if k >= 0 else ()
        base = seat * UNITS_PER_COLOUR
        flags = r["unit_flags"][base:base + UNITS_PER_COLOUR].tolist()
        # force_term sums small integers times 1 or 0.5: exact, the same in any order
        hero_term = force_term = wielder = 0.0
        for i, c in enumerate(r["unit_loc"][base:base + UNITS_PER_COLOUR].tolist()):
            if c < 0 or flags[i] & F_WOUNDED:
                continue
            w = _reach_weight(V.distance(c, d))
            if w == 0.0:
                continue
            u = base + i
            if u == holder:
                wielder = max(wielder, w)
            elif u == hero:
                hero_term = HERO_STRENGTH * w
            elif c not in homes and V.unit_type(u) in (KNIGHT, MAN_AT_ARMS):
                force_term += V.ATTACK[V.unit_type(u)] * w
        return max(hero_term, min(force_term, 12.0)), wielder

    def _dragon_position_score(self, state, me, q=None):
        """Version 1's score of where Brimstone stands, plus half the hero's
        strength when our hunting hero is next to him, minus the rivals'
        :meth:`_strike_strength` (the leader's, ``q``, in full, the others' half)."""
        if q is None:
            q = leader(state, me)
        score = DragonhuntHeuristic._dragon_position_score(self, state, me, q)
        d = V.dragon_cell(state)
        hero = V.hero(state, me)
        if V.sword(state, me)[1] < 0 and self._hero_ready(state, me) \
                and V.distance(V.unit_cell(state, hero), d) == 1:
            score += HUNT_WEIGHT * HERO_STRENGTH * 0.5   # our hunting hero can strike him
        for p in range(V.num_players(state)):
            if p == me:
                continue
            strike, wielder = self._strike_strength(state, p, d)
            weight = 1.0 if p == q else 0.5
            score -= weight * (RIVAL_WEIGHT * strike + WIELDER_THREAT * wielder)
        return score

    # ----------------------------------------------------------- cards
    def _card(self, state, me, legal, rng):
        cards = sorted((V.CARD_VALUES[a - A_CARD0], int(a)) for a in legal if A_CARD0 <= a < A_CARD0 + 6)
        if not cards:
            return None
        h = self._hunter(state, me)
        if h is not None:
            ready = self._hunter_to_move(state, me) is None and h[2] == 1
        else:
            ready = self._force_potential(state, me) >= HERO_STRENGTH
        return cards[0][1] if ready else cards[-1][1]

    # ----------------------------------------------------------- dragon attack
    def _force(self, state, me, legal, rng):
        cells = self._cells(legal)
        hero = V.hero(state, me)
        in_force = [u for u in V.units(state, me) if int(state[0]["unit_flags"][u]) & F_IN_FORCE]
        if not in_force and V.sword(state, me)[1] < 0 and self._hero_strikes(state, me):
            hc = V.unit_cell(state, hero)
            if hc in cells:
                return hc          # the hero joins alone (PH_FORCE_TYPE picks him where others stand)
        return DragonhuntHeuristic._force(self, state, me, legal, rng)

    def _force_type(self, state, me, legal, rng):
        types = [int(a) - A_TYPE0 for a in legal if A_TYPE0 <= a < A_TYPE0 + 4]
        hero = V.hero(state, me)
        in_force = [u for u in V.units(state, me) if int(state[0]["unit_flags"][u]) & F_IN_FORCE]
        if R.A_WIELDER in legal and not in_force:
            return R.A_WIELDER                      # the sword-wielding knight attacks alone (14.41)
        if (HERO in types and not in_force and V.unit_cell(state, hero) == V.pending(state)["sel_cell"]
                and self._hero_strikes(state, me)):
            return A_TYPE0 + HERO
        return DragonhuntHeuristic._force_type(self, state, me, legal, rng)

    # ----------------------------------------------------------- beings
    def _target_priority(self, state, me, cell):
        base = DragonhuntHeuristic._target_priority(self, state, me, cell)
        owner = V.cell_owner(state, cell)
        if base > 0 and 0 <= owner < V.num_players(state) and owner != me:
            held = V.sword(state, owner)[1]
            if any(u == V.hero(state, owner) or u == held for u in V.cell_units(state, cell)):
                return base + 2    # a rival's hero or sword-wielder first
        return base

    _HANDLERS = {**DragonhuntHeuristic._HANDLERS,
                 R.PH_CARD: _card, R.PH_MOVE_SELECT: _move_select, R.PH_MOVE_TYPE: _move_type,
                 R.PH_MOVE_DEST: _move_dest, R.PH_DRAGON_FORCE: _force, R.PH_FORCE_TYPE: _force_type}
