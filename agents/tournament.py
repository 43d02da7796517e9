"""Seat-rotated tournaments with confidence intervals and OpenSkill ratings.

    from dragongym.agents.tournament import run_tournament
    result = run_tournament("dragonhunt", ["random", "dragonhunt.heuristic"], num_games=400,
                            num_players=2, seed=0, workers=2, max_hands=8)
    print(result.table())
    result.save("results/eval")          # tournament.json, tournament.csv, ratings.png

Schedule. With ``K`` agents and ``n`` seats per game, the lineups are the
``C(K, n)`` combinations of agents (``K <= n``: the agent list cycled to fill
the seats). Game ``i`` plays lineup ``(i // n) mod C`` rotated by ``i mod n``
seats, so over a multiple of ``n * C`` games every agent meets every other
equally often and sits in every seat equally often.

Determinism. Game ``i`` depends only on ``(seed, i)``: its game seed is
``seed_sequence(seed, num_games)[i]`` and the agent in seat ``s`` draws from
``numpy.random.default_rng([seed, i, s])``; agents are reset before each
game. Results are gathered in game order, so they are the same for any number
of ``workers`` (time-budgeted search agents excepted: their strength depends on
the machine's speed).

Games are played on the rules core directly; agents with ``uses_state`` get
``act_state`` (they read the state through the game's documented view), the
others ``act(observation, mask)``.
"""
import csv
import itertools
import json
import math
import os
import sys
from dataclasses import dataclass, field, asdict

import numpy as np

import dragongym
from dragongym.agents.base import Agent, make_agent
from dragongym.agents.match import _TIE, AgentStats, GameOutcome, _seat_results
from dragongym.envs.core.rng import seed_sequence



def wilson_interval(successes, trials, z=1.96):
    """Wilson score interval ``(low, high)`` of a binomial proportion (95% for
    ``z=1.96``); ``(0.0, 1.0)`` when there are no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def schedule(num_agents, num_players, num_games):
    """``seatings[i][seat]`` = index of the agent in that seat in game ``i``."""
    if num_agents >= num_players:
        lineups = list(itertools.combinations(range(num_agents), num_players))
    else:
        lineups = [tuple(k % num_agents for k in range(num_players))]
    out = []
    for i in range(num_games):
        lineup = lineups[(i // num_players) % len(lineups)]
        r = i % num_players
        out.append(tuple(lineup[(s + r) % num_players] for s in range(num_players)))
    return out


# one tournament game: the same record as a match game
GameRecord = GameOutcome


@dataclass
class AgentSummary(AgentStats):
    """One agent's tournament results: the match tallies (``AgentStats``) plus
    the games it played in each seat and its rating (mu, sigma)."""

    seats: list = field(default_factory=list)       # games played in each seat
    mu: float = 0.0
    sigma: float = 0.0

    @property
    def win_ci(self):
        return wilson_interval(self.wins, self.games)

    @property
    def decided(self):
        return self.wins + self.losses

    @property
    def decided_win_rate(self):
        return self.wins / self.decided if self.decided else float("nan")

    @property
    def decided_ci(self):
        return wilson_interval(self.wins, self.decided)

    def as_dict(self):
        d = asdict(self)
        lo, hi = self.win_ci
        dlo, dhi = self.decided_ci
        d.update(win_rate=self.win_rate, win_ci=[lo, hi], decided=self.decided,
                 decided_win_rate=None if not self.decided else self.decided_win_rate,
                 decided_ci=[dlo, dhi], mean_reward=self.mean_reward, mean_length=self.mean_length,
                 rating_ci=[self.mu - 1.96 * self.sigma, self.mu + 1.96 * self.sigma])
        return d


@dataclass
class TournamentResult:
    game: str
    num_players: int
    seed: int
    config: dict
    agents: list
    games: list
    rating_system: str = "openskill.PlackettLuce"

    def table(self):
        from dragongym.training.cli import format_table
        rows = []
        for a in self.agents:
            lo, hi = a.win_ci
            dlo, dhi = a.decided_ci
            dec = f"{100 * a.decided_win_rate:.1f}% [{100 * dlo:.0f},{100 * dhi:.0f}]" if a.decided else "-"
            rows.append((a.label, a.games, a.wins, a.draws, a.losses,
                         f"{100 * a.win_rate:.1f}% [{100 * lo:.0f},{100 * hi:.0f}]", dec,
                         f"{a.mean_reward:+.3f}", f"{a.mean_length:.0f}",
                         f"{a.mu:.1f} ± {1.96 * a.sigma:.1f}"))
        return format_table(("agent", "games", "wins", "draws", "losses", "win rate [95% CI]",
                             "decided win rate [95% CI]", "mean reward", "mean length",
                             "rating (mu ± 1.96 sigma)"), rows)

    def as_dict(self):
        return {"game": self.game, "num_players": self.num_players, "seed": self.seed,
                "config": self.config, "rating_system": self.rating_system,
                "truncated": sum(g.truncated for g in self.games),
                "agents": [a.as_dict() for a in self.agents],
                "games": [asdict(g) for g in self.games]}

    def save(self, out_dir):
        """Write ``tournament.json``, ``tournament.csv`` and ``ratings.png``."""
        os.makedirs(out_dir, exist_ok=True)
        with open(os.path.join(out_dir, "tournament.json"), "w") as f:
            json.dump(self.as_dict(), f, indent=1)
        with open(os.path.join(out_dir, "tournament.csv"), "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["agent", "agent_id", "games", "wins", "draws", "losses", "win_rate", "win_ci_low",
                        "win_ci_high", "decided_win_rate", "decided_ci_low", "decided_ci_high",
                        "mean_reward", "mean_length", "mu", "sigma"])
            for a in self.agents:
                w.writerow([a.label, a.agent_id, a.games, a.wins, a.draws, a.losses, a.win_rate, *a.win_ci,
                            a.decided_win_rate if a.decided else "", *a.decided_ci, a.mean_reward,
                            a.mean_length, a.mu, a.sigma])
        plot_ratings(self, os.path.join(out_dir, "ratings.png"))


def plot_ratings(result, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    labels = [a.label for a in result.agents]
    mu = [a.mu for a in result.agents]
    err = [1.96 * a.sigma for a in result.agents]
    fig, ax = plt.subplots(figsize=(6, 0.6 * len(labels) + 1.5))
    ax.errorbar(mu, range(len(labels)), xerr=err, fmt="o", capsize=4)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("OpenSkill rating mu (bars: ±1.96 sigma)")
    ax.set_title(f"{result.game}: {len(result.games)} games, {result.num_players} players")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ------------------------------------------------------------------ playing
_WORKER = {}


def play_one(game, config, agents, seed, rngs):
    """Play one game on the rules core; returns ``(rewards, decisions, truncated)``."""
    n = config.num_players
    state = game.new_states(1)
    game.reset(state, np.array([seed], dtype=np.uint64), config)
    for a in agents:
        a.reset()
    act = np.zeros(1, dtype=np.int64)
    err = np.zeros(1, dtype=np.int8)
    decisions = 0
    while int(state[0]["status"]) == 0:
        p = int(state[0]["to_play"])
        agent = agents[p]
        if agent.uses_state:
            a = agent.act_state(game, state, p, rngs[p])
        else:
            a = agent.act(game.observation_of(state, p), game.mask_of(state), rngs[p])
        act[0] = a
        game.step(state, act, err)
        if err[0]:
            raise RuntimeError(f"{type(agent).__name__} played illegal action {a}: "
                               f"{game.error_message(err[0])}")
        decisions += 1
    return tuple(float(r) for r in state[0]["rewards"][:n]), decisions, int(state[0]["status"]) == 2


def _make_agents(game, agent_specs):
    out = []
    for spec, kwargs in agent_specs:
        out.append(spec if isinstance(spec, Agent) else make_agent(spec, game=game, **kwargs))
    return out


def _init_worker(game_name, agent_specs, config_kwargs, child=True):
    if child and "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
    game = dragongym.get_game(game_name)
    _WORKER.update(game=game, agents=_make_agents(game, agent_specs),
                   config=game.make_config(**config_kwargs))


def _play_indexed(job):
    i, seating, game_seed, seed = job
    w = _WORKER
    agents = [w["agents"][k] for k in seating]
    rngs = [np.random.default_rng([seed, i, s]) for s in range(len(seating))]
    rewards, decisions, truncated = play_one(w["game"], w["config"], agents, game_seed, rngs)
    return GameRecord(i, tuple(seating), rewards, decisions, truncated)


def _rate(agents, games, num_agents):
    """OpenSkill Plackett-Luce ratings from the games in order."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:                                       # pragma: no cover
        return _elo(agents, games)
    model = PlackettLuce()
    ratings = [model.rating(name=a.label) for a in agents]
    for g in games:
        if len(set(g.seating)) != len(g.seating):
            continue                                          # self-play copies: no rating info
        teams = [[ratings[k]] for k in g.seating]
        ranks = [-r for r in g.rewards]
        new = model.rate(teams, ranks=ranks)
        for k, team in zip(g.seating, new):
            ratings[k] = team[0]
    for a, r in zip(agents, ratings):
        a.mu, a.sigma = float(r.mu), float(r.sigma)
    return "openskill.PlackettLuce"


def _elo(agents, games):                                      # pragma: no cover
    elo = [1500.0] * len(agents)
    for g in games:
        for x, y in itertools.combinations(range(len(g.seating)), 2):
            a, b = g.seating[x], g.seating[y]
            s = 0.5 if abs(g.rewards[x] - g.rewards[y]) <= _TIE else float(g.rewards[x] > g.rewards[y])
            e = 1 / (1 + 10 ** ((elo[b] - elo[a]) / 400))
            elo[a] += 16 * (s - e)
            elo[b] -= 16 * (s - e)
    for a, r in zip(agents, elo):
        a.mu, a.sigma = r, 0.0
    return "elo"


def run_tournament(game_name, agent_ids, num_games, num_players=None, seed=0, workers=1,
                   agent_kwargs=None, progress=True, on_game_end=None, games=None, **config):
    """Play ``num_games`` seat-rotated games and rate the agents.

    Args:
        game_name: registered game id.
        agent_ids: the competing agents: registry ids (or checkpoint paths) or
            :class:`Agent` objects (objects need ``workers=1`` unless picklable).
        num_games: games to play.
        num_players: seats per game (default ``len(agent_ids)`` clipped to the
            game's range).
        seed: non-negative tournament seed; the tournament replays exactly.
        workers: processes playing games in parallel (1 = in this process).
        agent_kwargs: ``{agent_id: {kwarg: value}}`` options for ``make_agent``
            (e.g. ``{"mcts": {"time_ms": 50}}``).
        progress: show a tqdm progress bar on stderr.
        on_game_end: callable receiving each :class:`GameRecord` (in completion order).
        games: optional indices into the ``num_games`` schedule to play instead
            of all of them (a shard, or the rest of an interrupted run); each
            game is the same as in the full tournament, so shards' records can
            be merged.
        **config: the game's options (``max_hands=...``).

    Returns a :class:`TournamentResult`.
    """
    if seed < 0:
        raise ValueError("seed must be a non-negative int")
    game = dragongym.get_game(game_name)
    spec = game.spec
    if num_players is None:
        num_players = min(max(len(agent_ids), spec.min_players), spec.max_players)
    if not spec.min_players <= num_players <= spec.max_players:
        raise ValueError(f"{spec.name} is for {spec.min_players}..{spec.max_players} players")
    config_kwargs = dict(config, num_players=num_players)
    game.make_config(**config_kwargs)                        # validate early
    agent_kwargs = agent_kwargs or {}
    ids = [a if isinstance(a, str) else type(a).__name__ for a in agent_ids]
    specs = [(a, dict(agent_kwargs.get(a, {})) if isinstance(a, str) else {}) for a in agent_ids]
    seatings = schedule(len(agent_ids), num_players, num_games)
    game_seeds = seed_sequence(seed, num_games)
    if games is None:
        games = range(num_games)
    games = sorted(set(int(i) for i in games))
    if games and not 0 <= games[0] <= games[-1] < num_games:
        raise ValueError(f"games must be indices in 0..{num_games - 1}, got {games[0]}..{games[-1]}")
    jobs = [(i, seatings[i], int(game_seeds[i]), seed) for i in games]

    from tqdm import tqdm
    bar = tqdm(total=len(jobs), desc="games", unit="game", disable=None if progress else True,
               file=sys.stderr)
    records = []
    try:
        if workers <= 1:
            _init_worker(game_name, specs, config_kwargs, child=False)
            it = map(_play_indexed, jobs)
            pool = None
        else:
            import multiprocessing as mp
            methods = mp.get_all_start_methods()
            ctx = mp.get_context("fork" if "fork" in methods else "spawn")
            pool = ctx.Pool(workers, initializer=_init_worker, initargs=(game_name, specs, config_kwargs))
            it = pool.imap_unordered(_play_indexed, jobs, chunksize=1)
        for rec in it:
            records.append(rec)
            bar.update()
            if on_game_end is not None:
                on_game_end(rec)
        if pool is not None:
            pool.close()
            pool.join()
    finally:
        bar.close()
    return summarize(game_name, ids, records, num_players, seed, config)


def summarize(game_name, agent_ids, records, num_players, seed=0, config=None):
    """Tally played games (:class:`GameRecord`) into a :class:`TournamentResult`
    with per-agent results and ratings; ``agent_ids`` are the agents' ids in the
    order ``seating`` indexes them. Ratings are updated in game order."""
    ids = list(agent_ids)
    labels = ids if len(set(ids)) == len(ids) else [f"{x}#{k}" for k, x in enumerate(ids)]
    records = sorted(records, key=lambda g: g.index)
    summaries = [AgentSummary(label, agent_id, seats=[0] * num_players) for label, agent_id in zip(labels, ids)]
    for g in records:
        for seat, outcome in enumerate(_seat_results(g.rewards)):
            a = summaries[g.seating[seat]]
            a.games += 1
            a.wins += outcome == "win"
            a.draws += outcome == "draw"
            a.losses += outcome == "loss"
            a.total_reward += g.rewards[seat]
            a.total_length += g.decisions
            a.seats[seat] += 1
    system = _rate(summaries, records, len(ids))
    return TournamentResult(game=game_name, num_players=num_players, seed=seed, config=dict(config or {}),
                            agents=summaries, games=records, rating_system=system)


def load_tournament(path):
    """Read a saved ``tournament.json`` (a file or the directory holding it) back
    into a :class:`TournamentResult`."""
    if os.path.isdir(path):
        path = os.path.join(path, "tournament.json")
    with open(path) as f:
        d = json.load(f)
    records = [GameRecord(g["index"], tuple(g["seating"]), tuple(g["rewards"]), g["decisions"],
                          g["truncated"]) for g in d["games"]]
    return summarize(d["game"], [a["agent_id"] for a in d["agents"]], records, d["num_players"],
                     d["seed"], d["config"])


def merge_tournaments(results):
    """Join shards of one tournament (runs with the same game, agents, players,
    seed and options, each playing some ``games=`` of the schedule) into one
    result. A game played by two shards must have the same outcome in both
    (the schedule is deterministic); it is counted once."""
    results = list(results)
    if not results:
        raise ValueError("merge_tournaments needs at least one result")
    first = results[0]
    key = lambda r: (r.game, r.num_players, r.seed, dict(r.config), [a.agent_id for a in r.agents])
    by_index = {}
    for r in results:
        if key(r) != key(first):
            raise ValueError(f"cannot merge different tournaments: {key(r)} vs {key(first)}")
        for g in r.games:
            seen = by_index.setdefault(g.index, g)
            if (seen.seating, seen.rewards, seen.decisions) != (g.seating, g.rewards, g.decisions):
                raise ValueError(f"game {g.index} has different outcomes in two shards: {seen} vs {g}")
    return summarize(first.game, [a.agent_id for a in first.agents], by_index.values(),
                     first.num_players, first.seed, first.config)
