"""The self-play league: who the learner plays each episode.

Two halves, so opponents change without restarting env workers:

* :class:`League` lives in the trainer. It holds frozen snapshots of the
  learner (state dicts) and the learner's record against every opponent, and
  decides the sampling weights: snapshots are drawn with a bias to recent ones
  (``recency ** age``) and to strong ones (those the learner scores worst
  against), and the fixed bots (``random``, the game's heuristic agent,
  ``Game.heuristic_agent``) by their share of ``mix``.
* :class:`LeagueEnv` wraps each worker's single-agent env. Before every
  episode it draws an opponent from the weights it was last sent
  (:meth:`LeagueEnv.league_update`, called through ``VecEnv.env_method``),
  puts it in every other seat, adds potential-based shaping
  (``dragongym.training.shaping``), and reports the episode's opponent and
  outcome in ``info["league"]`` at the end.

Results are outcomes, never the sign of a return: the learner's seat wins,
draws or loses by the ranks the game writes when it ends
(``dragongym.envs.core.outcome``), so ranked general-sum games (where every
return may be positive) and solo games (no opponent: the opponent is
``"solo"``, the result the game's victory condition) are judged rightly.
"""
from dataclasses import dataclass

import gymnasium
import numpy as np

from dragongym.agents.base import is_agent_id, make_agent
from dragongym.envs.core.outcome import DRAW, LOSS, WIN, outcome_of, rank_rewards
from dragongym.training.shaping import potential_for, shaped_reward

OPPONENT_KINDS = ("self", "random", "heuristic")
HEURISTIC = "heuristic"
"""The league's name of the game's heuristic bot (its slot, ``mix_heuristic``)."""
SOLO = "solo"
"""The opponent name of a solo game's episodes (there is no one to draw)."""
RESULT_POINTS = {WIN: 1.0, DRAW: 0.5, LOSS: 0.0}
"""Points of a result in a record."""
REWARD_KINDS = ("game", "rank", "score")
"""What the learner is paid (:class:`LeagueEnv` ``reward``): ``game``, the
rewards the rules core writes (by default terminal and rank-derived); ``rank``,
:func:`dragongym.envs.core.outcome.rank_rewards` of the final ranks, paid at the
end; ``score``, the seat's own final score (legend points), paid at the end."""


def opponent_label(agent_id):
    """The league's name of a frozen opponent that takes the heuristic's slot
    (the trainer's ``opponent``): its spec with every character outside
    letters, digits and ``._=-`` made ``_`` (``"mcts:simulations=16"`` ->
    ``"mcts_simulations=16"``, ``"runs/a/final.zip"`` ->
    ``"runs_a_final.zip"``), so that it is one TensorBoard tag
    (``league/win_rate_vs_<label>``) and never reads as a snapshot
    (``self:<id>``); a spec whose label would be one of the league's own
    names (``random``) is ``opponent.<label>``."""
    import re
    label = re.sub(r"[^A-Za-z0-9._=-]", "_", str(agent_id)) or "opponent"
    return f"opponent.{label}" if label in ("self", "random", HEURISTIC, SOLO) else label


@dataclass
class Record:
    """The learner's results against one opponent (win 1, draw 0.5, loss 0)."""
    games: int = 0
    score: float = 0.0

    def add(self, result):
        """Count one game; ``result`` is ``"win"``, ``"draw"`` or ``"loss"``."""
        if result not in RESULT_POINTS:
            raise ValueError(f"a result is one of {sorted(RESULT_POINTS)}, not {result!r}")
        self.games += 1
        self.score += RESULT_POINTS[result]

    @property
    def rate(self):
        """Learner's score rate with a uniform prior (0.5 before any game)."""
        return (self.score + 1.0) / (self.games + 2.0)


class League:
    """Frozen snapshots and the learner's records (lives in the trainer).

    Args:
        mix: shares of ``self`` (snapshots), ``random`` and ``heuristic`` opponents.
        capacity: snapshots kept; the oldest is dropped beyond it.
        recency: weight factor per step of age (newest snapshot has age 0).
    """

    def __init__(self, mix, capacity=8, recency=0.8):
        self.mix = dict(mix)
        self.capacity = int(capacity)
        self.recency = float(recency)
        self.snapshots = {}          # id -> (update, state_dict)
        self.records = {}            # opponent name -> Record
        self.next_id = 0

    def add_snapshot(self, update, state_dict):
        """Freeze the learner; returns ``(new_id, dropped_ids)``."""
        sid = self.next_id
        self.next_id += 1
        self.snapshots[sid] = (int(update), {k: v.detach().cpu().clone() for k, v in state_dict.items()})
        dropped = sorted(self.snapshots)[:-self.capacity] if len(self.snapshots) > self.capacity else []
        for d in dropped:
            del self.snapshots[d]
        return sid, dropped

    def record(self, opponent, result):
        """Count a game against ``opponent`` (``"self:<id>"``, ``"random"``,
        ``"heuristic"``, ``"solo"``) that the learner's seat ``result`` (``"win"``,
        ``"draw"`` or ``"loss"``)."""
        self.records.setdefault(opponent, Record()).add(result)

    def snapshot_weights(self):
        """``{snapshot id: probability among snapshots}``: recent and strong first."""
        ids = sorted(self.snapshots)
        if not ids:
            return {}
        w = np.array([self.recency ** (len(ids) - 1 - k)
                      * (1.05 - self.records.get(f"self:{sid}", Record()).rate)
                      for k, sid in enumerate(ids)])
        w /= w.sum()
        return dict(zip(ids, w.tolist()))

    def weights(self):
        """``{opponent name: probability}`` over every opponent (``self:<id>``, ``random``, ``heuristic``)."""
        out = {}
        snaps = self.snapshot_weights()
        share = {k: v for k, v in self.mix.items() if v > 0 and (k != "self" or snaps)}
        total = sum(share.values())
        for kind, v in share.items():
            if kind == "self":
                out.update({f"self:{sid}": v / total * p for sid, p in snaps.items()})
            else:
                out[kind] = v / total
        return out

    def state_dict(self):
        return {"mix": self.mix, "capacity": self.capacity, "recency": self.recency,
                "snapshots": self.snapshots, "next_id": self.next_id,
                "records": {k: (r.games, r.score) for k, r in self.records.items()}}

    def load_state_dict(self, d):
        self.mix, self.capacity, self.recency = d["mix"], d["capacity"], d["recency"]
        self.snapshots, self.next_id = d["snapshots"], d["next_id"]
        self.records = {k: Record(g, s) for k, (g, s) in d["records"].items()}


class LeagueEnv(gymnasium.Wrapper):
    """A single-agent env whose opponents come from the league (see module doc).

    Args:
        env: a ``dragongym.make_single_agent`` env (any seat count; with one
            seat there is no opponent and every episode is ``"solo"``).
        make_policy: ``() -> policy`` building an untrained copy of the learner's
            network, to load snapshots into (built on first use).
        gamma: discount for the shaping term.
        shaping: shaping coefficient (0 disables it); the potential is the
            game's ``shaping_potential``.
        seed: seed of the opponent draws.
        reward: what the learner is paid, one of :data:`REWARD_KINDS`.
        opponent: an agent spec that takes the heuristic's slot, named
            :func:`opponent_label` (one instance for this env's one game);
            None: the game's heuristic.
    """

    def __init__(self, env, make_policy, gamma=0.99, shaping=0.0, seed=0, reward="game", opponent=None):
        super().__init__(env)
        if reward not in REWARD_KINDS:
            raise ValueError(f"reward must be one of {REWARD_KINDS}, not {reward!r}")
        single = env.unwrapped
        game = single.game
        self.game_spec = single.game_spec
        self.game_name = self.game_spec.name
        self.solo = self.game_spec.num_seats == 1
        self._fixed = {"random": make_agent("random", game=game)}
        if opponent:
            self._fixed[opponent_label(opponent)] = make_agent(opponent, game=game)
        elif game.heuristic_agent and is_agent_id(game.heuristic_agent):
            self._fixed["heuristic"] = make_agent(game.heuristic_agent, game=game)
        self._make_policy = make_policy
        self._net = None
        self._net_agent = None             # the PolicyAgent playing self._net
        self._loaded = None
        self._snapshots = {}
        self._weights = {"random": 1.0}
        self._rng = np.random.default_rng(seed)
        self.potential = potential_for(game)
        self.gamma, self.shaping = float(gamma), float(shaping)
        self.reward_kind = reward
        self.opponent = SOLO if self.solo else "random"
        self._phi = 0.0
        self._game_return = 0.0

    # ------------------------------------------------------ league messages
    def league_update(self, weights, new_snapshots=None, dropped=()):
        """Take new sampling weights and snapshots (from :class:`League`); from the next episode on."""
        for sid in dropped:
            self._snapshots.pop(sid, None)
        self._snapshots.update(new_snapshots or {})
        weights = {k: v for k, v in weights.items()
                   if k in self._fixed or (k.startswith("self:") and int(k[5:]) in self._snapshots)}
        total = sum(weights.values())
        if total <= 0:
            raise ValueError(f"no usable opponent in the league weights {weights}")
        self._weights = {k: v / total for k, v in weights.items()}

    def _draw_opponent(self):
        if self.solo:
            return SOLO, []
        names = sorted(self._weights)
        name = names[self._rng.choice(len(names), p=[self._weights[n] for n in names])]
        if name in self._fixed:
            return name, self._fixed[name]
        from dragongym.training.policy import PolicyAgent
        sid = int(name[5:])
        if self._net is None:
            self._net = self._make_policy()
            # one agent for every snapshot: their weights are loaded into its network in place,
            # which its traced forward pass (ppo.Acting, traced once) reads
            self._net_agent = PolicyAgent(self._net, deterministic=False)
        if self._loaded != sid:
            self._net.load_state_dict(self._snapshots[sid])
            self._loaded = sid
        self._net_agent.name = name
        return name, self._net_agent

    # ---------------------------------------------------------- gymnasium
    def reset(self, **kwargs):
        self.opponent, agent = self._draw_opponent()
        self.env.unwrapped.set_opponents(agent)
        obs, info = self.env.reset(**kwargs)
        self._phi = self._potential()
        self._game_return = 0.0
        return obs, info

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        done = terminated or truncated
        self._game_return += reward
        outcome = self.outcome() if done else None
        if self.reward_kind != "game":
            reward = self._outcome_reward(outcome) if done else 0.0
        phi = 0.0 if done else self._potential()
        shaped = shaped_reward(reward, self._phi, phi, self.gamma, self.shaping, done)
        self._phi = phi
        if done:
            seat = self.env.unwrapped.seat
            info["league"] = {"opponent": self.opponent, "result": outcome.results[seat],
                              "rank": outcome.ranks[seat], "score": outcome.scores[seat],
                              "truncated": outcome.truncated, "game_return": self._game_return}
        return obs, shaped, terminated, truncated, info

    def outcome(self):
        """The :class:`dragongym.envs.core.outcome.Outcome` of the finished episode."""
        return outcome_of(self.env.unwrapped.states, self.game_spec.num_seats, self.game_spec.utility)

    def _outcome_reward(self, outcome):
        seat = self.env.unwrapped.seat
        if self.reward_kind == "rank":
            return float(rank_rewards(outcome.ranks, outcome.utility)[seat])
        return float(outcome.scores[seat])

    def _potential(self):
        if not self.shaping:
            return 0.0
        single = self.env.unwrapped
        return self.potential(single.states, single.seat)

    def action_masks(self):
        return self.env.unwrapped.action_masks()
