"""The first hand-written Dragonhunt bot (``"dragonhunt.heuristic_v1"``), the
position evaluation search agents use at their depth cap, and the position
score the learners' reward shaping uses (:func:`seat_score_potential`, the
game's ``shaping_potential``).

The game's ``heuristic_agent``, ``"dragonhunt.heuristic"``, is its successor
(:mod:`dragongym.agents.dragonhunt_heuristic2`, a subclass of this bot): this
one keeps its hero at home until the magesword appears, and falls to a
learned policy that rushes Brimstone with its hero (issue 30). It is kept,
unchanged in play, for comparisons and for the results measured with it.

``dragongym.agents`` registers both bots lazily; importing this module (on the
first ``make_agent`` of either, or when a search first asks for Dragonhunt's
helpers) loads the rules core and registers the MCTS helpers.

It reads the position only through the documented view
(:mod:`dragongym.envs.dragonhunt.view`) and, for the few chance-laden choices it scores by
look-ahead, searches copies passed through ``GAME.determinize`` first, so it
never uses the other seats' face-down cards or the future dice.
"""
import numpy as np

from dragongym.agents.base import Agent
from dragongym.agents.random_agent import RandomAgent
from dragongym.agents.search_hooks import register_prior_only, register_value
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import view as V
from dragongym.envs.dragonhunt.constants import HERO, SNIPER, KNIGHT, MAN_AT_ARMS, UNITS_PER_COLOUR
from dragongym.envs.dragonhunt.state import F_WOUNDED, STATE_DTYPE

A_DONE, A_DIE0, A_CARD0, A_TYPE0 = R.A_DONE, R.A_DIE0, R.A_CARD0, R.A_TYPE0
NC = R.NC
GARRISON = 2          # units kept in the home castle and in the home village
MIN_FORCE = 1         # attack Brimstone whenever the force has at least this much strength
HUNT_WEIGHT = 1.0     # look-ahead value of one point of own strength next to Brimstone


def leader(state, me):
    """The other seat closest to winning: most wound markers, then an appeared sword."""
    r = V.record(state)
    wounds, loc, holder = r["wounds"].tolist(), r["sword_loc"].tolist(), r["sword_holder"].tolist()
    best, key = -1, None
    for q in range(int(r["num_players"])):
        if q == me:
            continue
        k = (wounds[q] + (2 if loc[q] >= 0 or holder[q] >= 0 else 0), -q)
        if key is None or k > key:
            best, key = q, k
    return best


def seat_score(state, p):
    """How well seat ``p`` stands: wound markers dominate, then the magesword in
    the hero's hand, material on the board, and Brimstone kept away from home."""
    r = V.record(state)
    d = int(r["dragon_cell"])
    score = 3.0 * int(r["wounds"][p])
    loc, holder = int(r["sword_loc"][p]), int(r["sword_holder"][p])
    if holder >= 0:
        score += 2.0
        score -= 0.3 * max(0, V.distance(int(r["unit_loc"][holder]), d) - 1) / 5
    elif loc >= 0:
        score += 1.0
    base = p * UNITS_PER_COLOUR
    score += 0.02 * int(_ATTACK_OF_INDEX[r["unit_loc"][base:base + UNITS_PER_COLOUR] >= 0].sum())
    k = int(r["kingdom"][p])
    if k >= 0:
        for home in (_CASTLE_CELLS[k], _VILLAGE_CELLS[k]):
            if V.distance(home, d) <= 1:
                score -= 0.3
    return score


def seat_score_potential(state, seat):
    """Potential ``phi(state, seat)`` for reward shaping: :func:`seat_score` of
    ``seat`` (wound markers x3, the magesword in a hero's hand +2 or appeared
    +1, the wielder's distance to Brimstone, strength on the board, Brimstone
    next to home) minus the best :func:`seat_score` among the other seats. It
    reads only public facts. Positive: ``seat`` stands better than every rival."""
    n = V.num_players(state)
    others = [seat_score(state, q) for q in range(n) if q != seat]
    return float(seat_score(state, seat) - max(others))


_ATTACK_OF_INDEX = np.array([V.ATTACK[t] for t in V._TYPE_OF_INDEX], dtype=np.int64)
"""Attack strength of each unit index of a colour (its type's)."""
_UNIT_ATTACK = tuple(int(a) for a in np.tile(_ATTACK_OF_INDEX, STATE_DTYPE["unit_loc"].shape[0] // UNITS_PER_COLOUR))
"""Attack strength of every unit index (all colours), as Python ints."""
_CASTLE_CELLS = tuple(int(c) for c in D.CASTLE_CELL)
_VILLAGE_CELLS = tuple(int(c) for c in D.VILLAGE_CELL)
_COTTAGE_CELLS = tuple(int(c) for c in D.COTTAGE_CELL)
"""Each kingdom's castle, village and cottage cells (``view.home_castle`` etc.), as Python ints."""
_IS_STRUCTURE = np.array([V.is_structure(c) for c in range(V.NUM_CELLS)], dtype=bool)
"""Whether each cell is a castle, village or cottage (``view.is_structure``)."""
_NO_SCORE = -np.inf


def seat_scores_batch(states):
    """:func:`seat_score` of every seat of every record of ``states`` (``[B]``
    records) at once, ``float64 [B, MAX_PLAYERS]``, equal to it bit for bit
    (the same terms added in the same order); seats beyond a game's
    ``num_players`` score ``-inf``."""
    B = len(states)
    seats = states["wounds"].shape[1]
    rows = np.arange(B)[:, None]
    score = 3.0 * states["wounds"].astype(np.float64)
    loc = states["sword_loc"].astype(np.int64)
    holder = states["sword_holder"].astype(np.int64)
    dragon = states["dragon_cell"].astype(np.int64)[:, None]
    held = holder >= 0
    holder_cell = states["unit_loc"][rows, np.where(held, holder, 0)].astype(np.int64)
    away = np.maximum(0, V.DISTANCES[holder_cell, np.broadcast_to(dragon, holder_cell.shape)].astype(np.int64) - 1)
    score += np.where(held, 2.0, np.where(loc >= 0, 1.0, 0.0))
    score -= np.where(held, 0.3 * away / 5, 0.0)
    unit_loc = states["unit_loc"].reshape(B, -1, UNITS_PER_COLOUR)[:, :seats]
    strength = np.where(unit_loc >= 0, _ATTACK_OF_INDEX, 0).sum(axis=2)
    score += 0.02 * strength
    kingdom = states["kingdom"].astype(np.int64)
    for cells in (D.CASTLE_CELL, D.VILLAGE_CELL):
        home = np.asarray(cells, dtype=np.int64)[np.maximum(kingdom, 0)]
        near = (kingdom >= 0) & (V.DISTANCES[home, np.broadcast_to(dragon, home.shape)] <= 1)
        score -= np.where(near, 0.3, 0.0)
    playing = np.arange(seats)[None, :] < states["num_players"].astype(np.int64)[:, None]
    return np.where(playing, score, _NO_SCORE)


def seat_score_potential_batch(states, seats):
    """:func:`seat_score_potential` of ``seats[b]`` in each record ``states[b]``
    (``float64 [B]``), in one pass over the batch (the game's
    ``shaping_potential_batch``: the batched self-play trainer's shaping
    would otherwise spend most of its environment time here)."""
    scores = seat_scores_batch(states)
    seats = np.asarray(seats, dtype=np.int64)
    rows = np.arange(len(states))
    own = scores[rows, seats]
    scores[rows, seats] = _NO_SCORE
    return own - scores.max(axis=1)


def evaluate(state):
    """Per-seat value in [-1, 1] of a position (exact ``rewards`` once the game
    is over): used by MCTS at its depth cap."""
    n = V.num_players(state)
    rec = state[0]
    if V.is_over(state):
        return np.asarray(rec["rewards"][:n], dtype=np.float64)
    s = np.array([seat_score(state, p) for p in range(n)])
    rel = s - (s.sum() - s) / max(1, n - 1)
    return np.tanh(0.15 * rel)


class DragonhuntHeuristic(Agent):
    """Plays Dragonhunt like a sensible person, deciding per pending phase.

    Strategy:

    * **Set-up**: take the free kingdom whose castle is closest to Brimstone's
      lair; place reinforcements on the legal cells nearest the lair (the hunt
      starts there).
    * **Garrison**: never strips the home castle or home village below two
      units; the hero stays inside the castle until his magesword appears.
    * **Hunt**: knights and men-at-arms march to the spaces next to Brimstone
      and gather there; in the Dragon Attack segment the bot joins every
      knight and man-at-arms it can (never snipers, never the swordless hero,
      never the last unit of a home structure) and attacks whenever that force
      has any strength (``MIN_FORCE``). Measured against waiting for a strong
      force (3+): attacking at every chance wounds him about three times as
      often, and lost men-at-arms come back as reinforcements.
    * **Magesword**: once it has appeared, the hero goes to fetch it, then
      marches on Brimstone and attacks alone with it.
    * **Movement cards**: a low card (to move first) when Brimstone is within
      four spaces of its forces, the highest card (most movement) when he is
      far away, a middle card otherwise.
    * **Combat**: avoids losing units to pointless attacks (it ends its combat
      segment); when defending a structure it sends the strongest non-hero
      defender, and it gives up its weakest units as casualties.
    * **Brimstone's moves and dragon cards** (die choice, five-space move,
      Dragon Charmer, structure of choice): one-ply look-ahead on a
      determinized copy, scored by Brimstone's distance from its own home
      (away), from the leader's home (toward) and from its gathered forces
      (next to them is good).
    * **Fantastic Beings**: moves the controlled being toward the leader's
      units and aims its power or attack at the leader first, other players
      next, neutral garrisons last, never at its own units; teleports and
      revives toward Brimstone.
    * Anything else: a uniformly random legal action.

    Speed: well under a millisecond per decision (one mask, a few distance
    look-ups; a look-ahead only for Brimstone's moves).
    """

    name = "dragonhunt.heuristic_v1"
    uses_state = True

    def __init__(self, game=None):
        from dragongym.envs.dragonhunt.game import GAME
        self.game = game if game is not None else GAME
        self._random = RandomAgent()
        self._tried_key = None
        self._tried = set()

    def reset(self):
        self._tried_key = None
        self._tried = set()

    def act(self, obs, mask, rng):
        """Without the state (a plain observation) it can only play randomly."""
        return self._random.act(obs, mask, rng)

    # ----------------------------------------------------------- main switch
    def act_state(self, game, state, player, rng):
        legal = V.legal_actions(state)
        if len(legal) == 1:
            return int(legal[0])
        ph = V.phase(state)
        handler = self._HANDLERS.get(ph)
        a = handler(self, state, player, legal, rng) if handler is not None else None
        if a is None or a not in set(legal.tolist()):
            a = int(legal[rng.integers(len(legal))])
        return int(a)

    # ----------------------------------------------------------- helpers
    @staticmethod
    def _cells(legal):
        return [int(a) for a in legal if a < NC]

    @staticmethod
    def _argbest(items, key, rng):
        if not items:
            return None
        scores = [key(x) for x in items]
        top = max(scores)
        best = [x for x, s in zip(items, scores) if s >= top - 1e-9]
        return best[int(rng.integers(len(best)))]

    @staticmethod
    def _legal_cells(legal):
        """The cells among ``legal`` (an ``int64`` array, ascending), as an array:
        :meth:`_cells` for the scorers that score all of them at once."""
        return legal[legal < NC]

    @staticmethod
    def _argbest_scored(cells, scores, rng):
        """:meth:`_argbest` of ``cells`` (an array) whose keys are ``scores``
        (an array as long, computed at once): the same ties within 1e-9 of the
        best, in the same order, and the same draw among them."""
        if not len(cells):
            return None
        top = scores.max()
        best = np.flatnonzero(scores >= top - 1e-9)
        return int(cells[best[int(rng.integers(len(best)))]])

    def _hero_mode(self, state, me):
        """'fetch' (sword lies somewhere), 'hunt' (hero wields it) or 'safe'."""
        loc, holder = V.sword(state, me)
        if holder >= 0 and holder == V.hero(state, me):
            return "hunt"
        if loc >= 0:
            return "fetch"
        return "safe"

    def _garrison_need(self, state, me, cell):
        if cell in (V.home_castle(state, me), V.home_village(state, me)):
            return GARRISON
        return 0

    def _dragon_position_score(self, state, me, q=None):
        """Where Brimstone stands, for seat ``me``: away from its homes, toward
        the leader's (``q``, :func:`leader` where not given) and next to its
        own knights, men-at-arms and the rest outside its castle and village."""
        r = V.record(state)
        d = int(r["dragon_cell"])
        score = 0.0
        k = int(r["kingdom"][me])
        if k >= 0:
            for home in (_CASTLE_CELLS[k], _VILLAGE_CELLS[k], _COTTAGE_CELLS[k]):
                if home >= 0:
                    score -= 1.0 / (1 + V.distance(home, d))
        if q is None:
            q = leader(state, me)
        if q >= 0:
            kq = int(r["kingdom"][q])
            if kq >= 0:
                for home in (_CASTLE_CELLS[kq], _VILLAGE_CELLS[kq], _COTTAGE_CELLS[kq]):
                    if home >= 0:
                        score += 0.5 / (1 + V.distance(home, d))
        homes = (_CASTLE_CELLS[k], _VILLAGE_CELLS[k]) if k >= 0 else ()
        base = me * UNITS_PER_COLOUR
        near = 0                 # a sum of small ints: the same in any order
        for u, c in enumerate(r["unit_loc"][base:base + UNITS_PER_COLOUR].tolist(), base):
            if c >= 0 and V.distance(c, d) == 1 and c not in homes:
                near += _UNIT_ATTACK[u]
        score += HUNT_WEIGHT * min(near, 12)
        return score

    def _lookahead(self, state, me, legal, rng):
        """Best legal action by one-ply look-ahead on determinized copies.

        Each action's copy is determinized and given its tie-breaking noise
        in the order of ``legal``, one after the other (the generator's
        stream is that of determinizing, stepping and scoring one copy at a
        time: neither the step nor the score draws from it); the copies then
        take their actions in one call of the rules."""
        k = len(legal)
        copies = np.frombuffer(bytearray(state.tobytes() * k), dtype=state.dtype)
        noise = []
        for i in range(k):
            self.game.determinize(copies[i:i + 1], me, rng)
            noise.append(rng.random())
        self.game.step(copies, np.asarray(legal, dtype=np.int32), np.zeros(k, dtype=np.int8))
        best, best_v = None, -1e9
        for i, a in enumerate(legal):
            s = copies[i:i + 1]
            q = leader(s, me)
            v = seat_score(s, me) - (seat_score(s, q) if q >= 0 else 0)
            v += self._dragon_position_score(s, me, q) + 1e-6 * noise[i]
            if V.is_over(s):
                v += 100.0 * float(s[0]["rewards"][me])
            if v > best_v:
                best, best_v = int(a), v
        return best

    def _target_priority(self, state, me, cell):
        owner = V.cell_owner(state, cell)
        if owner == me:
            return -10
        if owner == leader(state, me):
            return 3
        if 0 <= owner < V.num_players(state):
            return 2
        if V.being_at(state, cell) >= 0:
            return 1
        return 0 if owner >= 0 else -1

    # ----------------------------------------------------------- set-up
    def _kingdom(self, state, me, legal, rng):
        cells = self._legal_cells(legal)
        return self._argbest_scored(cells, -V.DISTANCES[cells, V.LAIR_CELL], rng)

    def _place(self, state, me, legal, rng):
        cells = self._legal_cells(legal)
        return self._argbest_scored(cells, -V.DISTANCES[cells, V.dragon_cell(state)], rng)

    # ----------------------------------------------------------- cards
    def _card(self, state, me, legal, rng):
        cards = sorted((V.CARD_VALUES[a - A_CARD0], int(a)) for a in legal if A_CARD0 <= a < A_CARD0 + 6)
        if not cards:
            return None
        d = V.dragon_cell(state)
        mine = [c for c in V.units_by_cell(state, me)]
        near = min((V.distance(c, d) for c in mine), default=99)
        if near <= 4:
            return cards[0][1]
        if near >= 8:
            return cards[-1][1]
        return cards[len(cards) // 2][1]

    # ----------------------------------------------------------- movement
    def _segment_key(self, state, me):
        key = (V.hand_and_turn(state), me)
        if key != self._tried_key:
            self._tried_key = key
            self._tried = set()

    @staticmethod
    def _fit_units_by_cell(state, me):
        """``{cell: [unit, ...]}`` of seat ``me``'s unwounded units on the board,
        each list ascending (what :meth:`_movable_here` reads of a cell)."""
        r = V.record(state)
        base = me * UNITS_PER_COLOUR
        flags = r["unit_flags"][base:base + UNITS_PER_COLOUR].tolist()
        out = {}
        for i, c in enumerate(r["unit_loc"][base:base + UNITS_PER_COLOUR].tolist()):
            if c >= 0 and not flags[i] & F_WOUNDED:
                out.setdefault(c, []).append(base + i)
        return out

    def _movable_here(self, state, me, cell, mode, fit=None):
        """The unit types seat ``me`` would move from ``cell`` (``fit``: its
        :meth:`_fit_units_by_cell`, where the caller has it)."""
        if fit is None:
            fit = self._fit_units_by_cell(state, me)
        us = fit.get(cell, [])
        hero = V.hero(state, me)
        spare = len(us) - self._garrison_need(state, me, cell)
        types = set()
        for u in us:
            t = V.unit_type(u)
            if u == hero:
                if mode in ("hunt", "fetch"):
                    types.add(HERO)
            elif t in (KNIGHT, MAN_AT_ARMS) and spare > 0:
                types.add(t)
        return types

    def _move_select(self, state, me, legal, rng):
        self._segment_key(state, me)
        mode = self._hero_mode(state, me)
        d = V.dragon_cell(state)
        options = []
        fit = self._fit_units_by_cell(state, me)
        for c in self._cells(legal):
            if c in self._tried:
                continue
            types = self._movable_here(state, me, c, mode, fit)
            if not types:
                continue
            if types == {HERO}:
                goal = d if mode == "hunt" else V.sword(state, me)[0]
                if goal < 0 or V.distance(c, goal) <= (1 if mode == "hunt" else 0):
                    continue
                options.append((10.0, c))
            elif V.distance(c, d) > 1:
                options.append((V.distance(c, d), c))
        if not options:
            return A_DONE
        options.sort(reverse=True)
        c = options[0][1]
        self._tried.add(c)
        return c

    def _move_type(self, state, me, legal, rng):
        mode = self._hero_mode(state, me)
        types = [int(a) - A_TYPE0 for a in legal if A_TYPE0 <= a < A_TYPE0 + 4]
        if mode in ("hunt", "fetch") and HERO in types:
            return A_TYPE0 + HERO
        for t in (KNIGHT, MAN_AT_ARMS):
            if t in types:
                return A_TYPE0 + t
        return None

    def _move_dest(self, state, me, legal, rng):
        r = V.record(state)
        unit = int(r["sel_unit"])
        d = V.dragon_cell(state)
        cells = self._legal_cells(legal)
        if unit == V.hero(state, me):
            mode = self._hero_mode(state, me)
            goal = V.sword(state, me)[0] if mode == "fetch" else d
            if goal < 0:
                goal = V.home_castle(state, me)
            want = 0 if mode == "fetch" else 1
            return self._argbest_scored(cells, -np.abs(V.DISTANCES[cells, goal] - want), rng)
        # others gather next to Brimstone; prefer cells where our units already stand
        ours = (r["cell_count"][cells] > 0) & (r["cell_colour"][cells] == me)
        return self._argbest_scored(cells, -np.abs(V.DISTANCES[cells, d] - 1) + 0.3 * ours, rng)

    # ----------------------------------------------------------- combat
    def _combat_select(self, state, me, legal, rng):
        return A_DONE if A_DONE in legal else None

    def _defender(self, state, me, legal, rng):
        types = [int(a) - A_TYPE0 for a in legal if A_TYPE0 <= a < A_TYPE0 + 4]
        non_hero = [t for t in types if t != HERO] or types
        return A_TYPE0 + max(non_hero, key=lambda t: (V.DEFENSE[t], t == KNIGHT))

    def _casualty(self, state, me, legal, rng):
        def cost(c):
            us = [u for u in V.cell_units(state, c) if u // 39 == me]
            return -min((V.ATTACK[V.unit_type(u)] + (10 if V.unit_type(u) == HERO else 0) for u in us),
                        default=0)
        return self._argbest(self._cells(legal), cost, rng)

    def _occupy(self, state, me, legal, rng):
        cells = self._cells(legal)
        return cells[0] if cells else None

    # ----------------------------------------------------------- dragon attack
    def _force(self, state, me, legal, rng):
        cells = self._cells(legal)
        hero = V.hero(state, me)
        loc, holder = V.sword(state, me)
        if holder >= 0:
            hc = V.unit_cell(state, holder)
            if hc in cells:
                return hc
        in_force = [u for u in V.units(state, me) if int(state[0]["unit_flags"][u]) & 16]
        if in_force and any(u == holder for u in in_force):
            return A_DONE
        have = V.strength(state, in_force)
        need = MIN_FORCE
        d = V.dragon_cell(state)
        cand = []
        for c in cells:
            us = [u for u in V.cell_units(state, c) if u // 39 == me and u != hero
                  and V.unit_type(u) in (KNIGHT, MAN_AT_ARMS) and not (int(state[0]["unit_flags"][u]) & 16)]
            if not us:
                continue
            cap = R.HEXSIDES[c, d] if V.is_structure(c) else len(us)
            cap = min(int(cap), len(us))
            if c in (V.home_castle(state, me), V.home_village(state, me)):
                cap = min(cap, max(0, len(us) - 1))
            if cap > 0:
                cand.append((max(V.ATTACK[V.unit_type(u)] for u in us), c, cap, us))
        potential = have + sum(sum(sorted((V.ATTACK[V.unit_type(u)] for u in us), reverse=True)[:cap])
                               for _, c, cap, us in cand)
        if potential < need or not cand:
            return A_DONE
        cand.sort(reverse=True)
        return cand[0][1]

    def _force_type(self, state, me, legal, rng):
        types = [int(a) - A_TYPE0 for a in legal if A_TYPE0 <= a < A_TYPE0 + 4]
        loc, holder = V.sword(state, me)
        if holder >= 0 and V.unit_type(holder) in types and V.unit_cell(state, holder) == V.pending(state)["sel_cell"]:
            return A_TYPE0 + V.unit_type(holder)
        for t in (KNIGHT, MAN_AT_ARMS):
            if t in types:
                return A_TYPE0 + t
        return None

    # ----------------------------------------------------------- beings
    def _being_move(self, state, me, legal, rng):
        cells = self._legal_cells(legal)
        q = leader(state, me)
        targets = [c for c, _ in V.units_by_cell(state, q).items()] if q >= 0 else []
        if not targets or not len(cells):
            return None
        return self._argbest_scored(cells, -V.DISTANCES[np.ix_(cells, targets)].min(axis=1), rng)

    def _being_target(self, state, me, legal, rng):
        cells = self._cells(legal)
        scored = [(self._target_priority(state, me, c), c) for c in cells]
        good = [c for s, c in scored if s > 0]
        if good:
            return self._argbest(good, lambda c: self._target_priority(state, me, c), rng)
        if A_DONE in legal:
            return A_DONE
        return self._argbest(cells, lambda c: self._target_priority(state, me, c), rng)

    def _toward_dragon(self, state, me, legal, rng):
        cells = self._legal_cells(legal)
        return self._argbest_scored(cells, -np.abs(V.DISTANCES[cells, V.dragon_cell(state)] - 1), rng)

    def _teleport_unit(self, state, me, legal, rng):
        return A_DONE if A_DONE in legal else None

    def _revive_type(self, state, me, legal, rng):
        types = [int(a) - A_TYPE0 for a in legal if A_TYPE0 <= a < A_TYPE0 + 4]
        for t in (HERO, KNIGHT, MAN_AT_ARMS, SNIPER):
            if t in types:
                return A_TYPE0 + t
        return None

    def _lookahead_phase(self, state, me, legal, rng):
        return self._lookahead(state, me, legal, rng)

    _HANDLERS = {
        R.PH_KINGDOM: _kingdom, R.PH_PLACE: _place, R.PH_CARD: _card,
        R.PH_MOVE_SELECT: _move_select, R.PH_MOVE_TYPE: _move_type, R.PH_MOVE_DEST: _move_dest,
        R.PH_COMBAT_SELECT: _combat_select, R.PH_DEFENDER: _defender, R.PH_CASUALTY: _casualty,
        R.PH_OCCUPY: _occupy, R.PH_DRAGON_FORCE: _force, R.PH_FORCE_TYPE: _force_type,
        R.PH_BEING_MOVE: _being_move, R.PH_BEING_TARGET: _being_target,
        R.PH_TELEPORT_UNIT: _teleport_unit, R.PH_TELEPORT_DEST: _toward_dragon,
        R.PH_REVIVE_TYPE: _revive_type, R.PH_REVIVE_CELL: _toward_dragon,
        R.PH_DRAGON_DIE: _lookahead_phase, R.PH_SECOND_DIE: _lookahead_phase,
        R.PH_FIVE_MOVE: _lookahead_phase, R.PH_CHARM: _lookahead_phase,
        R.PH_CARD_STRUCT: _lookahead_phase,
    }


register_value("dragonhunt", evaluate)

# unit movement and set-up placement: many options, small stakes, left to the heuristic by MCTS
PRIOR_ONLY_PHASES = frozenset((R.PH_MOVE_SELECT, R.PH_MOVE_TYPE, R.PH_MOVE_DEST, R.PH_PLACE))


def prior_only(state):
    """True for the decisions MCTS leaves to the heuristic (``PRIOR_ONLY_PHASES``;
    the phase is public)."""
    return V.phase(state) in PRIOR_ONLY_PHASES


register_prior_only("dragonhunt", prior_only)
