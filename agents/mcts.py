"""Monte Carlo tree search for every dragongym game (``"mcts"``).

Generic over the :class:`dragongym.envs.core.game.Game` contract: it copies the 1-record
state (a copy is a snapshot), and uses only ``step``, ``legal_mask``,
``determinize`` and, when the game supplies it, ``playout``.

* **Hidden information**: determinization. Every simulation starts from a copy
  of the root passed through ``game.determinize(copy, player, rng)``, which
  resamples what the searching seat cannot know (other seats' secret cards, the
  RNG stream of future dice and draws) from the agent's own generator; the
  search never uses the true hidden values. The tree is *open loop*: nodes are
  action sequences, shared by all determinizations; at each node only the
  actions legal in the current determinization compete (information-set style).
* **Chance**: sampled, since each determinization carries a fresh RNG stream.
* **Multi-player**: nodes hold a reward vector; the seat to move at a node picks
  the child that maximises *its own* mean reward (UCT, ``c`` exploration).
* **Rollouts**: ``"random"`` (the game's compiled ``playout`` if it has one,
  else random play in Python) or ``"heuristic"`` (the state-reading agent
  the game names as ``game.heuristic_agent``), capped at ``rollout_depth``
  decisions; at the cap the position is scored by the value function the
  game's agent module registered (:mod:`dragongym.agents.search_hooks`; if
  none, the record's rewards, zero while the game runs), or with
  ``value=<agent id>`` by that agent's ``values`` (a trained checkpoint's
  value head, ``value="runs/x/final.zip"``: each seat's estimate from its
  own observation, clipped to the reward range -1..1).
  ``rollout=<checkpoint>`` makes a trained policy the rollout agent and the
  prior (its pick is a node's first child), as below.
* **Prior**: with a state-reading rollout agent (``rollout="heuristic"``), a
  node's first child is that agent's own choice and further children are
  added by progressive widening (``1 + sqrt(visits)`` children), so with a
  tiny budget the search plays like the agent and more simulations refine it.
  By default children are then selected by UCT (``c``); with
  ``prior_weight > 0`` by PUCT, ``q + c_puct * P(a) * sqrt(N) / (1 + n)``
  with ``P`` = ``prior_weight`` for the agent's pick and the rest shared by
  the other expanded children, and ``q`` the mean value (in the reward scale;
  ``normalize=True`` rescales it by the range of values seen in this search):
  an alternative takes visits from the agent's pick only when it scores
  clearly better. With ``prior_only=True``, decisions the game's agent
  module registers with :func:`register_prior_only` (many options, little at
  stake, e.g. single unit steps) are played by the agent without search.
  Without a prior agent, selection is always UCT (``c``).
* **Budget**: ``simulations`` and/or ``time_ms`` per decision (whichever comes
  first; at least one simulation per legal root action is not guaranteed).
  A ``simulations`` budget makes results independent of the machine's speed
  and load; :func:`calibrate_simulations` measures how many fit in a time.
* **Early stop** (``early_stop=True``, "smart pruning"): the search ends as
  soon as the most-visited root child can no longer be overtaken: its visits
  exceed every other legal root action's visits (unexpanded ones count 0)
  plus the simulations still left. With a ``simulations`` budget the chosen
  action is then exactly the one the full search would choose (the robust
  child, most visits); with only ``time_ms`` the simulations left are
  estimated from the time per simulation so far.
* **Choice**: the robust child (most visits, ties by mean value).
"""
import math
import time

import numpy as np

from dragongym.agents.base import Agent, make_agent
from dragongym.agents.search_hooks import (
    PRIOR_ONLY, VALUE, hook, prior_only_names, register_prior_only, register_value,
)

__all__ = ["MCTSAgent", "calibrate_simulations", "heuristic_id", "register_prior_only", "register_value"]


def heuristic_id(game, rollout):
    """The agent id a ``rollout`` setting names: ``"heuristic"`` is the game's
    own heuristic (``game.heuristic_agent``), anything else is taken as an
    agent id (``"random"`` included)."""
    if rollout != "heuristic":
        return rollout
    if not game.heuristic_agent:
        raise ValueError(f"{game.name} declares no heuristic agent (Game.heuristic_agent); "
                         "use rollout='random' or name a state-reading agent")
    return game.heuristic_agent


def _copy(state):
    return np.frombuffer(bytearray(state.tobytes()), dtype=state.dtype)


class _Node:
    __slots__ = ("visits", "value", "children", "prior")

    def __init__(self, num_players):
        self.visits = 0
        self.value = np.zeros(num_players)
        self.children = {}
        self.prior = -1          # the prior agent's pick here (-1: none)


class MCTSAgent(Agent):
    """UCT with determinization; see the module docstring.

    Args:
        game: the :class:`Game` (required).
        simulations: simulations per decision (default 200 if ``time_ms`` is None).
        time_ms: wall-clock budget per decision in milliseconds.
        c: UCT exploration constant (without a prior agent).
        c_puct: exploration constant of the prior-weighted (PUCT) selection
            used with a prior agent.
        normalize: compare mean values normalised to [0, 1] by the range of
            values this search has seen (the exploration constants then do not
            depend on the value scale, but tiny, noisy differences get blown
            up; off by default, see agents/EVAL.md).
        prior_weight: with a prior agent, the prior probability given to its
            pick at a node (the other expanded children share the rest);
            0 (the default) turns PUCT off: plain UCT with ``c``.
        prior_only: leave the decisions the game's agent module registered
            with :func:`register_prior_only` to the prior agent (no search); off
            by default. A string names another set the module registered
            (``register_prior_only(game, fn, name=...)``).

    PUCT, ``prior_only`` and ``normalize`` are opt-in: in seat-rotated
    Dragonhunt games against the heuristic none of them has beaten plain UCT
    so far (agents/EVAL.md).
        rollout: ``"random"``, ``"heuristic"`` (the game's
            ``heuristic_agent``) or the id of any agent that reads the state.
        rollout_depth: decisions per rollout before the value function scores it.
        value: ``""`` (the game's registered value function) or an agent id
            whose agent has ``values(obs) -> float [B]`` (a self-play
            checkpoint ``*.zip``) to score positions at the rollout cap.
        tree_depth: no expansion deeper than this below the root.
        early_stop: stop once the most-visited root child cannot be overtaken
            in the remaining budget (see the module docstring).
    """

    name = "mcts"
    uses_state = True

    def __init__(self, game=None, simulations=None, time_ms=None, c=1.0, rollout="random",
                 rollout_depth=200, tree_depth=40, early_stop=True, normalize=False, prior_weight=0.0,
                 c_puct=1.0, prior_only=False, value=""):
        if game is None:
            raise ValueError("mcts needs the game it will play")
        self.game = game
        self.simulations = simulations if simulations is not None or time_ms is not None else 200
        self.time_ms = time_ms
        self.c = float(c)
        self.rollout_depth = int(rollout_depth)
        self.tree_depth = int(tree_depth)
        self.early_stop = bool(early_stop)
        self.normalize = bool(normalize)
        self.prior_weight = float(prior_weight)
        self.c_puct = float(c_puct)
        self.value_fn = hook(game, VALUE)
        self._value_agent = None
        if value:
            self._value_agent = make_agent(value, game=game)
            if not callable(getattr(self._value_agent, "values", None)):
                raise ValueError(f"mcts value={value!r}: that agent has no values(obs) "
                                 "(a self-play checkpoint *.zip has one)")
        self.prior_only_fn = None
        if isinstance(prior_only, str) and prior_only:
            self.prior_only_fn = hook(game, f"{PRIOR_ONLY}:{prior_only}")
            if self.prior_only_fn is None:
                names = ", ".join(prior_only_names(game)) or "none"
                raise ValueError(f"mcts prior_only={prior_only!r}: {game.name} registers no such set "
                                 f"(its named sets: {names}; True is its default one)")
        elif prior_only:
            self.prior_only_fn = hook(game, PRIOR_ONLY)
        self._rollout_agent = self._prior_agent = None
        rollout = heuristic_id(game, rollout)
        if rollout != "random":
            self._rollout_agent = make_agent(rollout, game=game)
            self._prior_agent = make_agent(rollout, game=game)   # plays the prior-only decisions
        self._has_playout = _overrides(game, "playout")
        A = game.spec.num_actions      # the action space is the same in every configuration
        self._mask = np.zeros((1, A), dtype=np.int8)
        self._act = np.zeros(1, dtype=np.int64)
        self._err = np.zeros(1, dtype=np.int8)
        self.last_stats = {}

    def reset(self):
        if self._prior_agent is not None:
            self._prior_agent.reset()

    def act(self, obs, mask, rng):
        raise TypeError("MCTSAgent needs the state: call act_state (runners do when uses_state)")

    # ------------------------------------------------------------------ search
    def _legal(self, s):
        self.game.legal_mask(s, self._mask)
        return np.flatnonzero(self._mask[0])

    def _step(self, s, a):
        self._act[0] = a
        self.game.step(s, self._act, self._err)
        if self._err[0]:
            raise RuntimeError(f"mcts: illegal action {a} ({self.game.error_message(self._err[0])})")

    def _value(self, s, n):
        rec = s[0]
        if int(rec["status"]) != 0:
            return np.asarray(rec["rewards"][:n], dtype=np.float64)
        if self._value_agent is not None:
            return self._learned_value(s, n)
        if self.value_fn is not None:
            return np.asarray(self.value_fn(s), dtype=np.float64)
        return np.asarray(rec["rewards"][:n], dtype=np.float64)

    def _learned_value(self, s, n):
        """Each seat's value-head estimate from its own observation of ``s``."""
        obs = np.zeros((n, self.game.spec.obs_size), dtype=np.float32)
        self.game.observe(np.repeat(s, n), np.arange(n, dtype=np.int8), obs)
        return np.clip(np.asarray(self._value_agent.values(obs), dtype=np.float64), -1.0, 1.0)

    def _rollout(self, s, rng):
        if int(s[0]["status"]) != 0 or self.rollout_depth <= 0:
            return
        if self._rollout_agent is None and self._has_playout:
            self.game.playout(s, self.rollout_depth, int(rng.integers(0, 2**63)))
            return
        for _ in range(self.rollout_depth):
            if int(s[0]["status"]) != 0:
                return
            p = int(s[0]["to_play"])
            if self._rollout_agent is not None:
                a = self._rollout_agent.act_state(self.game, s, p, rng)
            else:
                legal = self._legal(s)
                a = int(legal[rng.integers(len(legal))])
            self._step(s, a)

    def act_state(self, game, state, player, rng):
        legal = self._legal(state)
        if len(legal) == 1:
            self.last_stats = {"simulations": 0, "root_visits": {}, "stopped_early": False}
            return int(legal[0])
        if (self._rollout_agent is not None and self.prior_only_fn is not None
                and self.prior_only_fn(state)):
            self.last_stats = {"simulations": 0, "root_visits": {}, "stopped_early": False, "prior_only": True}
            return int(self._prior_agent.act_state(game, state, player, rng))
        n = int(state[0]["num_players"])
        root = _Node(n)
        allowed = set(legal.tolist())
        self._lo = np.full(n, np.inf)
        self._hi = np.full(n, -np.inf)
        start = time.perf_counter()
        deadline = None if self.time_ms is None else start + self.time_ms / 1000.0
        sims = 0
        stopped = False
        while True:
            if self.simulations is not None and sims >= self.simulations:
                break
            if deadline is not None and sims > 0 and time.perf_counter() >= deadline:
                break
            if self.early_stop and sims > 0 and self._decided(root, sims, start, deadline, allowed):
                stopped = True
                break
            self._simulate(state, player, root, n, rng)
            sims += 1
        best = self._pick(root, allowed, game, state, player, rng)
        self.last_stats = {"simulations": sims, "stopped_early": stopped,
                           "spread": float(self._hi[player] - self._lo[player]),
                           "root_visits": {int(a): ch.visits for a, ch in root.children.items()}}
        return int(best)

    def _pick(self, root, allowed, game, state, player, rng):
        """The most visited root action (ties: the higher value for ``player``)
        among the actions legal in the real position. A determinized world
        may allow an action the real one does not (in Dragons Down a Spell
        Book another hero revealed is priced by spells this seat has not read,
        so whether it can afford the book differs between worlds); its
        visits stand for nothing this seat can do. Where no legal action was
        searched, the prior agent's pick, else the first legal action."""
        searched = [kv for kv in root.children.items() if kv[0] in allowed]
        if searched:
            return max(searched, key=lambda kv: (kv[1].visits, kv[1].value[player]))[0]
        if self._prior_agent is not None:
            return int(self._prior_agent.act_state(game, state, player, rng))
        return min(allowed)

    def _decided(self, root, sims, start, deadline, allowed):
        """True when no other root action can reach the leader's visits with
        the simulations still left (an upper bound on them). Only actions in
        ``allowed`` (legal in the real position) count: one that only a
        determinized world allows is never played (``_pick``), so its visits
        decide nothing."""
        left = None
        if self.simulations is not None:
            left = self.simulations - sims
        if deadline is not None:
            per_sim = (time.perf_counter() - start) / sims
            by_time = int((deadline - time.perf_counter()) / per_sim) + 1 if per_sim > 0 else None
            if by_time is not None:
                left = by_time if left is None else min(left, by_time)
        if left is None:
            return False
        first = second = 0
        for a, ch in root.children.items():
            if a not in allowed:
                continue
            v = ch.visits
            if v > first:
                first, second = v, first
            elif v > second:
                second = v
        # actions not yet expanded at the root have 0 visits so far
        return first > second + left

    def _simulate(self, root_state, player, root, n, rng):
        s = _copy(root_state)
        self.game.determinize(s, player, rng)
        node, path, depth = root, [root], 0
        if self._rollout_agent is not None:
            self._rollout_agent.reset()
        while int(s[0]["status"]) == 0:
            legal = self._legal(s)
            p = int(s[0]["to_play"])
            if len(legal) == 1:
                a = int(legal[0])
            else:
                untried = [int(a) for a in legal if int(a) not in node.children]
                known = len(legal) - len(untried)
                # with a prior agent: progressive widening, its own pick first
                allowed = len(legal) if self._rollout_agent is None else 1 + int(math.sqrt(node.visits))
                if untried and known < allowed:
                    a = untried[int(rng.integers(len(untried)))]
                    if self._rollout_agent is not None and known == 0:
                        pick = int(self._rollout_agent.act_state(self.game, s, p, rng))
                        if pick in untried:
                            a = pick
                            node.prior = a
                    child = _Node(n)
                    node.children[a] = child
                    self._step(s, a)
                    path.append(child)
                    break
                log_n = math.log(max(1, node.visits))
                lo, span = 0.0, 1.0
                if self.normalize:
                    span = self._hi[p] - self._lo[p]
                    lo, span = (float(self._lo[p]), float(span)) if span > 1e-12 else (0.0, math.inf)
                best, best_u = None, -1e18
                puct = self.prior_weight > 0 and node.prior >= 0
                if puct:
                    sqrt_n = math.sqrt(node.visits)
                    p_other = (1.0 - self.prior_weight) / max(1, known - 1)
                for a0 in legal:
                    ch = node.children.get(int(a0))
                    if ch is None or ch.visits == 0:
                        continue
                    q = (ch.value[p] / ch.visits - lo) / span
                    if puct:
                        pa = self.prior_weight if int(a0) == node.prior else p_other
                        u = q + self.c_puct * pa * sqrt_n / (1 + ch.visits)
                    else:
                        u = q + self.c * math.sqrt(log_n / ch.visits)
                    if u > best_u:
                        best, best_u = int(a0), u
                a = best if best is not None else (untried[0] if untried else int(legal[0]))
            child = node.children.get(a)
            if child is None:
                child = node.children[a] = _Node(n)
            self._step(s, a)
            node = child
            path.append(node)
            depth += 1
            if depth >= self.tree_depth:
                break
        self._rollout(s, rng)
        value = self._value(s, n)
        np.minimum(self._lo, value, out=self._lo)
        np.maximum(self._hi, value, out=self._hi)
        for nd in path:
            nd.visits += 1
            nd.value += value


def _overrides(game, method):
    from dragongym.envs.core.game import Game
    return getattr(type(game), method) is not getattr(Game, method)


def calibrate_simulations(game_name, time_ms=50.0, decisions=200, seed=0, config=None, every=3,
                          **agent_kwargs):
    """How many simulations fit in ``time_ms`` on this machine.

    Plays the game with ``rollout`` agents in every seat (the game's heuristic
    when ``agent_kwargs`` has ``rollout="heuristic"``, else random) and, at
    every decision an MCTS agent with ``agent_kwargs`` would really search
    (more than one legal action, not left to its prior), times a fixed search
    of 20 simulations without early stop at every ``every``-th such decision
    (so the sample spreads over whole games), until ``decisions`` searches
    are timed. ``config``: the game's options (e.g. ``{"num_players": 3,
    "max_hands": 20}``); their spec decides the seats.
    Searches are timed by this process's CPU time, which is what wall time
    would be on an idle core and barely depends on the machine's load (the
    wall-clock figures come along for comparison). Returns a dict with
    ``ms_per_sim`` (CPU time / total simulations), ``simulations``
    (``time_ms / ms_per_sim``, rounded down), ``wall_ms_per_sim`` and the counts.
    """
    import dragongym
    game = dragongym.get_game(game_name)
    kwargs = dict(agent_kwargs, simulations=20, time_ms=None, early_stop=False)
    agent = MCTSAgent(game=game, **kwargs)
    player_id = heuristic_id(game, kwargs.get("rollout", "random"))
    cfg = game.make_config(**(config or {}))
    num_seats = game.spec_for(cfg).num_seats
    players = [make_agent(player_id, game=game) for _ in range(num_seats)]
    act = np.zeros(1, dtype=np.int64)
    err = np.zeros(1, dtype=np.int8)
    total_s, total_wall, total_sims, timed, seen, g = 0.0, 0.0, 0, 0, 0, 0
    while timed < decisions:
        state = game.new_states(1)
        game.reset(state, np.array([seed + g], dtype=np.uint64), cfg)
        rngs = [np.random.default_rng([seed, g, s]) for s in range(num_seats)]
        agent.reset()
        for a in players:
            a.reset()
        while int(state[0]["status"]) == 0 and timed < decisions:
            p = int(state[0]["to_play"])
            searched = (len(agent._legal(state)) > 1 and not (
                agent._prior_agent is not None and agent.prior_only_fn is not None
                and agent.prior_only_fn(state)))
            seen += searched
            if searched and (seen - 1) % max(1, int(every)) == 0:
                t, w = time.process_time(), time.perf_counter()
                agent.act_state(game, state, p, np.random.default_rng([seed, g, timed]))
                total_s += time.process_time() - t
                total_wall += time.perf_counter() - w
                total_sims += agent.last_stats["simulations"]
                timed += 1
            act[0] = players[p].act_state(game, state, p, rngs[p]) if players[p].uses_state else \
                players[p].act(game.observation_of(state, p), game.mask_of(state), rngs[p])
            game.step(state, act, err)
        g += 1
    ms_per_sim = 1000.0 * total_s / max(1, total_sims)
    return {"game": game_name, "time_ms": time_ms, "ms_per_sim": ms_per_sim,
            "simulations": max(1, int(time_ms / ms_per_sim)), "searches": timed,
            "wall_ms_per_sim": 1000.0 * total_wall / max(1, total_sims),
            "mean_search_ms": 1000.0 * total_s / max(1, timed), "games": g}
