"""The self-play league: who the learner plays each episode.

Two halves, so opponents change without restarting env workers:

* :class:`League` lives in the trainer. It holds frozen snapshots of the
  learner (state dicts) and the learner's record against every opponent, and
  decides the sampling weights: snapshots are drawn with a bias to recent ones
  (``recency ** age``) and to strong ones (those the learner scores worst
  against), and the fixed bots (``random``, the game's heuristic) by their
  share of ``mix``.
* :class:`LeagueEnv` wraps each worker's single-agent env. Before every
  episode it draws an opponent from the weights it was last sent
  (:meth:`LeagueEnv.league_update`, called through ``VecEnv.env_method``),
  puts it in every other seat, adds potential-based shaping
  (``dragongym.training.shaping``), and reports the episode's opponent and result in
  ``info["league"]`` at the end.
"""
from dataclasses import dataclass

import gymnasium
import numpy as np

from dragongym.agents.base import is_agent_id, make_agent
from dragongym.training.shaping import potential_for, shaped_reward

OPPONENT_KINDS = ("self", "random", "heuristic")


@dataclass
class Record:
    """The learner's results against one opponent (win 1, draw 0.5, loss 0)."""
    games: int = 0
    score: float = 0.0

    def add(self, result):
        self.games += 1
        self.score += 1.0 if result > 0 else (0.5 if result == 0 else 0.0)

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
        env: an ``dragongym.make_single_agent`` env.
        make_policy: ``() -> policy`` building an untrained copy of the learner's
            network, to load snapshots into (built on first use).
        gamma: discount for the shaping term.
        shaping: shaping coefficient (0 disables it).
        seed: seed of the opponent draws.
    """

    def __init__(self, env, make_policy, gamma=0.99, shaping=0.0, seed=0):
        super().__init__(env)
        self.game_name = env.unwrapped.game.spec.name
        game = env.unwrapped.game
        self._fixed = {"random": make_agent("random", game=game)}
        heuristic = f"{self.game_name}.heuristic"
        if is_agent_id(heuristic):
            self._fixed["heuristic"] = make_agent(heuristic, game=game)
        self._make_policy = make_policy
        self._net = None
        self._loaded = None
        self._snapshots = {}
        self._weights = {"random": 1.0}
        self._rng = np.random.default_rng(seed)
        self.potential = potential_for(self.game_name)
        self.gamma, self.shaping = float(gamma), float(shaping)
        self.opponent = "random"
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
        names = sorted(self._weights)
        name = names[self._rng.choice(len(names), p=[self._weights[n] for n in names])]
        if name in self._fixed:
            return name, self._fixed[name]
        from dragongym.training.policy import PolicyAgent
        sid = int(name[5:])
        if self._net is None:
            self._net = self._make_policy()
        if self._loaded != sid:
            self._net.load_state_dict(self._snapshots[sid])
            self._loaded = sid
        return name, PolicyAgent(self._net, deterministic=False, name=name)

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
        phi = 0.0 if done else self._potential()
        shaped = shaped_reward(reward, self._phi, phi, self.gamma, self.shaping, done)
        self._phi = phi
        if done:
            info["league"] = {"opponent": self.opponent, "result": float(np.sign(self._game_return)),
                              "game_return": self._game_return}
        return obs, shaped, terminated, truncated, info

    def _potential(self):
        if not self.shaping:
            return 0.0
        single = self.env.unwrapped
        return self.potential(single._states, single.seat)

    def action_masks(self):
        return self.env.unwrapped.action_masks()
