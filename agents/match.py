"""Seat-rotated matches between agents, played through the PettingZoo env.

Game ``i`` seats the agent list rotated by ``i`` (seat ``s`` is played by agent
``(s + i) mod n``), so over a multiple of ``n`` games every agent plays every
seat equally often. Game ``i`` depends only on ``(seed, i)``: its game seed is
``seed_sequence(seed, num_games)[i]`` and each seat draws its agent's
randomness from a generator seeded by ``(seed, i, seat)``.
"""
from dataclasses import dataclass, field

import numpy as np

import dragongym
from dragongym.agents.base import Agent, make_agent
from dragongym.envs.core.rng import seed_sequence

_TIE = 1e-6  # rewards closer than this are equal when deciding wins and draws


@dataclass
class AgentStats:
    """Results of one agent (one entry of the agent list) over a match.

    Attributes:
        label: how tables name it (its id, numbered when ids repeat).
        agent_id: registry id, or the class name of an agent passed as an object.
        games: games it played.
        wins: games it finished alone on the top reward.
        draws: games it finished tied on the top reward (all equal included).
        losses: the rest.
        total_reward: sum of its final rewards.
        total_length: sum of the lengths, in decisions, of the games it played.
        decisions: decisions it made itself.
    """

    label: str
    agent_id: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    total_reward: float = 0.0
    total_length: int = 0
    decisions: int = 0

    @property
    def win_rate(self):
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_reward(self):
        return self.total_reward / self.games if self.games else 0.0

    @property
    def mean_length(self):
        return self.total_length / self.games if self.games else 0.0


@dataclass
class GameOutcome:
    """One game of a match.

    Attributes:
        index: game number ``i`` in the match.
        seating: ``seating[seat]`` = index into the agent list of who sat there.
        rewards: final reward per seat.
        decisions: decisions taken by the agents (steps of the env).
        truncated: the game hit its limit instead of ending by the rules.
    """

    index: int
    seating: tuple
    rewards: tuple
    decisions: int
    truncated: bool


@dataclass
class MatchResult:
    """Everything :func:`play_match` measured; ``stats`` follows the agent list."""

    game: str
    num_players: int
    seed: int
    config: dict
    stats: list
    games: list = field(default_factory=list)


def _seat_results(rewards):
    """'win' / 'draw' / 'loss' per seat from final rewards."""
    top = max(rewards)
    at_top = [abs(r - top) <= _TIE for r in rewards]
    if all(at_top):
        return ["draw"] * len(rewards)
    if sum(at_top) == 1:
        return ["win" if t else "loss" for t in at_top]
    return ["draw" if t else "loss" for t in at_top]


def _labels(ids):
    if len(set(ids)) == len(ids):
        return list(ids)
    return [f"{agent_id}#{k}" for k, agent_id in enumerate(ids)]


def play_game(env, players, seed, rngs):
    """Play one game to its end in ``env`` (a ``GameAECEnv``).

    Args:
        env: the PettingZoo env; it is reset here.
        players: the :class:`Agent` playing each seat.
        seed: the game's reset seed.
        rngs: one ``numpy.random.Generator`` per seat.

    Returns ``(rewards, decisions, truncated)``: final reward and number of
    decisions per seat, and whether the game was truncated.
    """
    seat_of = {agent: s for s, agent in enumerate(env.possible_agents)}
    for player in players:
        player.reset()
    env.reset(seed=seed)
    rewards = np.zeros(len(players))
    decisions = np.zeros(len(players), dtype=np.int64)
    truncated = False
    for agent in env.agent_iter():
        seat = seat_of[agent]
        observation, reward, termination, truncation, _ = env.last()
        rewards[seat] += reward
        if termination or truncation:
            truncated |= truncation
            env.step(None)
            continue
        if players[seat].uses_state:
            action = players[seat].act_state(env.game, env.state_record, seat, rngs[seat])
        else:
            action = players[seat].act(observation["observation"], observation["action_mask"], rngs[seat])
        env.step(action)
        decisions[seat] += 1
    return rewards, decisions, truncated


def play_match(game_name, agent_ids, num_games, seed=0, num_players=None, on_game_end=None, **config):
    """Play ``num_games`` seat-rotated games of ``game_name``.

    Args:
        game_name: registered game id (``dragongym.list_games()``).
        agent_ids: one entry per seat: an agent registry id or an
            :class:`Agent` object.
        num_games: games to play.
        seed: the match seed (a non-negative int); the match replays exactly.
        num_players: seats; defaults to ``len(agent_ids)`` and must equal it.
        on_game_end: optional callable receiving each :class:`GameOutcome`
            (progress bars, logging).
        **config: the game's options.

    Returns a :class:`MatchResult`.
    """
    n = len(agent_ids) if num_players is None else int(num_players)
    if len(agent_ids) != n:
        raise ValueError(f"{len(agent_ids)} agents for {n} seats; give one agent per seat")
    if seed < 0:
        raise ValueError("seed must be a non-negative int")
    game = dragongym.get_game(game_name)
    agents = [a if isinstance(a, Agent) else make_agent(a, game=game) for a in agent_ids]
    ids = [a if isinstance(a, str) else type(a).__name__ for a in agent_ids]
    stats = [AgentStats(label, agent_id) for label, agent_id in zip(_labels(ids), ids)]
    env = dragongym.make(game_name, num_players=n, **config)
    game_seeds = seed_sequence(seed, num_games)
    result = MatchResult(game=game_name, num_players=n, seed=seed, config=dict(config), stats=stats)

    for i in range(num_games):
        seating = tuple((s + i) % n for s in range(n))
        rngs = [np.random.default_rng([seed, i, s]) for s in range(n)]
        rewards, decisions, truncated = play_game(env, [agents[k] for k in seating],
                                                  int(game_seeds[i]), rngs)
        length = int(decisions.sum())
        for seat, outcome in enumerate(_seat_results(rewards)):
            entry = stats[seating[seat]]
            entry.games += 1
            entry.wins += outcome == "win"
            entry.draws += outcome == "draw"
            entry.losses += outcome == "loss"
            entry.total_reward += float(rewards[seat])
            entry.total_length += length
            entry.decisions += int(decisions[seat])
        record = GameOutcome(i, seating, tuple(float(r) for r in rewards), length, truncated)
        result.games.append(record)
        if on_game_end is not None:
            on_game_end(record)
    env.close()
    return result
