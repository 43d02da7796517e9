"""Monte Carlo tree search for every dragongym game (``"mcts"``).

Generic over the :class:`envs.core.game.Game` contract: it copies the 1-record
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
  else random play in Python) or ``"heuristic"`` (a state-reading agent, e.g.
  the game's heuristic), capped at ``rollout_depth`` decisions; at the cap the
  position is scored by the value function registered for the game with
  :func:`register_value` (zero if none).
* **Prior**: with a state-reading rollout agent (``rollout="heuristic"``), a
  node's first child is that agent's own choice and further children are
  added by progressive widening (``1 + sqrt(visits)`` children), so with a
  tiny budget the search plays like the agent and more simulations refine it.
* **Budget**: ``simulations`` and/or ``time_ms`` per decision (whichever comes
  first; at least one simulation per legal root action is not guaranteed).
"""
import math
import time

import numpy as np

from agents.base import Agent, make_agent, register

_VALUES = {}   # game name -> fn(state) -> float array[num_players]


def register_value(game_name, fn):
    """Value function used at the rollout cap: ``fn(state) -> array[num_players]``
    of rewards in the game's reward scale (exact rewards once over)."""
    _VALUES[game_name] = fn


def _copy(state):
    return np.frombuffer(bytearray(state.tobytes()), dtype=state.dtype)


class _Node:
    __slots__ = ("visits", "value", "children")

    def __init__(self, num_players):
        self.visits = 0
        self.value = np.zeros(num_players)
        self.children = {}


class MCTSAgent(Agent):
    """UCT with determinization; see the module docstring.

    Args:
        game: the :class:`Game` (required).
        simulations: simulations per decision (default 200 if ``time_ms`` is None).
        time_ms: wall-clock budget per decision in milliseconds.
        c: UCT exploration constant (rewards are in [-1, 1]).
        rollout: ``"random"`` or ``"heuristic"`` (or an agent id that reads
            the state, e.g. ``"dragonhunt.heuristic"``).
        rollout_depth: decisions per rollout before the value function scores it.
        tree_depth: no expansion deeper than this below the root.
    """

    name = "mcts"
    uses_state = True

    def __init__(self, game=None, simulations=None, time_ms=None, c=1.0, rollout="random",
                 rollout_depth=200, tree_depth=40):
        if game is None:
            raise ValueError("mcts needs the game it will play")
        self.game = game
        self.simulations = simulations if simulations is not None or time_ms is not None else 200
        self.time_ms = time_ms
        self.c = float(c)
        self.rollout_depth = int(rollout_depth)
        self.tree_depth = int(tree_depth)
        self.value_fn = _VALUES.get(game.spec.name)
        self._rollout_agent = None
        if rollout == "heuristic":
            rollout = f"{game.spec.name}.heuristic"
        if rollout != "random":
            self._rollout_agent = make_agent(rollout, game=game)
        self._has_playout = _overrides(game, "playout")
        A = game.spec.num_actions
        self._mask = np.zeros((1, A), dtype=np.int8)
        self._act = np.zeros(1, dtype=np.int64)
        self._err = np.zeros(1, dtype=np.int8)
        self.last_stats = {}

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
        if self.value_fn is not None:
            return np.asarray(self.value_fn(s), dtype=np.float64)
        return np.asarray(rec["rewards"][:n], dtype=np.float64)

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
            return int(legal[0])
        n = int(state[0]["num_players"])
        root = _Node(n)
        deadline = None if self.time_ms is None else time.perf_counter() + self.time_ms / 1000.0
        sims = 0
        while True:
            if self.simulations is not None and sims >= self.simulations:
                break
            if deadline is not None and sims > 0 and time.perf_counter() >= deadline:
                break
            self._simulate(state, player, root, n, rng)
            sims += 1
        best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].value[player]))[0]
        self.last_stats = {"simulations": sims, "root_visits": {int(a): ch.visits for a, ch in root.children.items()}}
        return int(best)

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
                    child = _Node(n)
                    node.children[a] = child
                    self._step(s, a)
                    path.append(child)
                    break
                log_n = math.log(max(1, node.visits))
                best, best_u = None, -1e18
                for a0 in legal:
                    ch = node.children.get(int(a0))
                    if ch is None or ch.visits == 0:
                        continue
                    u = ch.value[p] / ch.visits + self.c * math.sqrt(log_n / ch.visits)
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
        for nd in path:
            nd.visits += 1
            nd.value += value


def _overrides(game, method):
    from envs.core.game import Game
    return getattr(type(game), method) is not getattr(Game, method)


register("mcts", lambda game=None, **kwargs: MCTSAgent(game=game, **kwargs))
