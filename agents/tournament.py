"""Seat-rotated tournaments with confidence intervals and OpenSkill ratings.

    from dragongym.agents.tournament import run_tournament
    result = run_tournament("dragonhunt", ["random", "dragonhunt.heuristic"], num_games=400,
                            seed=0, workers=2, num_players=2, max_hands=8)
    print(result.table())
    result.save("results/eval")          # tournament.json, tournament.csv, ratings.png

Seats. The game's options make its configuration, whose spec
(``game.spec_for(config)``) decides the ``n = spec.num_seats`` seats every
game fills, named ``spec.roles``. Any number of agents may enter: ``K >= n``
agents are seated in every lineup of ``n`` of them, fewer are cycled to fill
the seats (``K = 2`` agents in a 1-seat solo game: each game seats one).

Schedule. With ``K`` agents and ``n`` seats per game, the lineups are the
``C(K, n)`` combinations of agents (``K < n``: the agent list cycled to fill
the seats; where ``K`` does not divide ``n``, ``K`` cycles, each led by
another agent, so that every agent holds as many seats as the others over
``K * n`` games). Game ``i`` plays lineup ``(i // n) mod C`` rotated by ``i mod n``
seats, so over a multiple of ``n * C`` games every agent meets every other
equally often and sits in every seat equally often; where seats are roles,
the rotation is what makes every agent play every role.

Outcomes and ratings. Wins, draws and losses, mean ranks and scores are read
from each game's final record (:mod:`dragongym.agents.match`). OpenSkill
(Plackett-Luce) rates the agents from the ranks of each game, ties included;
games whose seats are not distinct agents (self-play copies, or one-seat solo
games, where agents never meet) carry no rating information and are skipped,
so a solo tournament has no ratings (``rating_system`` ``"none"``).

Determinism. Game ``i`` depends only on ``(seed, i)``: its game seed is
``seed_sequence(seed, num_games)[i]`` and the agent in seat ``s`` draws from
``numpy.random.default_rng([seed, i, s])``; agents are reset before each
game. Results are gathered in game order, so they are the same for any number
of ``workers`` (time-budgeted search agents excepted: their strength depends on
the machine's speed).

Games are played on the rules core directly; agents with ``uses_state`` get
``act_state`` (they read the state through the game's documented view), the
others ``act(observation, mask)``.

Saved results. ``tournament.json`` holds the seats (``roles``), the options,
per-agent summaries and every game with its seating, rewards, ranks and
scores. Files written before games carried ranks (``agents/eval_results``)
still load: their ranks are derived from the rewards (see
:func:`legacy_ranks`).
"""
import csv
import itertools
import json
import math
import os
import re
import signal
import sys
from dataclasses import asdict, dataclass

import numpy as np

import dragongym
from dragongym.agents.base import AgentLoadError, agent_problem, checked_action
from dragongym.agents.match import (AgentStats, GameOutcome, deferred_interrupt, labels_of, made_agents,
                                    record_file_problem, spec_fields, tally, write_record)
from dragongym.envs.core.outcome import end_at_decision_limit, outcome_of
from dragongym.envs.core.spec import player_names


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


def schedule(num_agents, num_seats, num_games):
    """``seatings[i][seat]`` = index of the agent in that seat in game ``i``."""
    if num_agents >= num_seats:
        lineups = list(itertools.combinations(range(num_agents), num_seats))
    elif num_seats % num_agents == 0:
        lineups = [tuple(k % num_agents for k in range(num_seats))]
    else:
        # the cycle does not divide the seats (2 agents, 3 seats: 0,1,0): each
        # agent leads the cycle in turn (0,1,0 then 1,0,1), or agent 0 would
        # always hold the extra seat
        lineups = [tuple((k + j) % num_agents for k in range(num_seats)) for j in range(num_agents)]
    out = []
    for i in range(num_games):
        lineup = lineups[(i // num_seats) % len(lineups)]
        r = i % num_seats
        out.append(tuple(lineup[(s + r) % num_seats] for s in range(num_seats)))
    return out


# one tournament game: the same record as a match game
GameRecord = GameOutcome


def _number_or_none(x):
    return None if isinstance(x, float) and math.isnan(x) else x


@dataclass
class AgentSummary(AgentStats):
    """One agent's tournament results: the match tallies (``AgentStats``, with
    its games per seat in ``seats`` and its results per seat in ``by_seat``)
    plus its rating (mu, sigma; NaN where no game rated it) and the seat
    names (``roles``) its JSON entry keys ``by_seat`` by."""

    mu: float = math.nan
    sigma: float = math.nan
    roles: tuple = ()

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
        """The JSON entry; ``seats`` maps each role (seat name) to the agent's
        results there."""
        lo, hi = self.win_ci
        dlo, dhi = self.decided_ci
        rated = not math.isnan(self.mu)
        return {"label": self.label, "agent_id": self.agent_id, "games": self.games, "wins": self.wins,
                "draws": self.draws, "losses": self.losses, "total_reward": self.total_reward,
                "total_rank": self.total_rank, "total_score": self.total_score,
                "total_length": self.total_length, "decisions": self.decisions,
                "seats": {role: t.as_dict() for role, t in zip(self.roles, self.by_seat)},
                "mu": _number_or_none(self.mu), "sigma": _number_or_none(self.sigma),
                "win_rate": self.win_rate, "win_ci": [lo, hi], "decided": self.decided,
                "decided_win_rate": None if not self.decided else self.decided_win_rate,
                "decided_ci": [dlo, dhi], "mean_rank": self.mean_rank, "mean_score": self.mean_score,
                "mean_reward": self.mean_reward, "mean_length": self.mean_length,
                "rating_ci": [self.mu - 1.96 * self.sigma, self.mu + 1.96 * self.sigma] if rated else None}


@dataclass
class TournamentResult:
    """Everything :func:`run_tournament` measured.

    Attributes:
        game: the game's registry id.
        roles: seat names in seat order (``spec.roles``).
        seed: the tournament seed.
        config: the game options it was played with.
        agents: an :class:`AgentSummary` per entry of the agent list.
        games: the :class:`GameRecord` of every game played, in schedule order.
        seats_are_roles, utility, score_name: from the configuration's spec.
        rating_system: ``"openskill.PlackettLuce"``, ``"elo"`` (without
            openskill) or ``"none"`` (no game had two distinct agents).
    """

    game: str
    roles: tuple
    seed: int
    config: dict
    agents: list
    games: list
    seats_are_roles: bool = False
    utility: str = "zero_sum"
    score_name: str = ""
    rating_system: str = "openskill.PlackettLuce"

    @property
    def num_seats(self):
        return len(self.roles)

    def table(self):
        from dragongym.agents.tables import tournament_table
        return tournament_table(self)

    def as_dict(self):
        return {"game": self.game, "roles": list(self.roles), "num_seats": self.num_seats,
                "seats_are_roles": self.seats_are_roles, "utility": self.utility,
                "score_name": self.score_name, "seed": self.seed, "config": self.config,
                "rating_system": self.rating_system, "truncated": sum(g.truncated for g in self.games),
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
                        "mean_rank", "mean_score", "mean_reward", "mean_length", "mu", "sigma"])
            for a in self.agents:
                rated = not math.isnan(a.mu)
                w.writerow([a.label, a.agent_id, a.games, a.wins, a.draws, a.losses, a.win_rate, *a.win_ci,
                            a.decided_win_rate if a.decided else "", *a.decided_ci, a.mean_rank,
                            a.mean_score, a.mean_reward, a.mean_length, a.mu if rated else "",
                            a.sigma if rated else ""])
        plot_ratings(self, os.path.join(out_dir, "ratings.png"))


PLOT_LABEL_CHARS = 32
"""Longest agent label drawn whole on ``ratings.png`` (longer ones keep their end)."""


def plot_ratings(result, path):
    """Ratings with ±1.96 sigma bars (a note instead where nothing was rated)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    # a checkpoint's label is its path: keep its end, so the axis fits the figure
    labels = [a.label if len(a.label) <= PLOT_LABEL_CHARS else "..." + a.label[-(PLOT_LABEL_CHARS - 3):]
              for a in result.agents]
    fig, ax = plt.subplots(figsize=(6, 0.6 * len(labels) + 1.5))
    if any(not math.isnan(a.mu) for a in result.agents):
        mu = [a.mu for a in result.agents]
        err = [1.96 * a.sigma for a in result.agents]
        ax.errorbar(mu, range(len(labels)), xerr=err, fmt="o", capsize=4)
        ax.set_yticks(range(len(labels)), labels)
        ax.set_xlabel("OpenSkill rating mu (bars: ±1.96 sigma)")
    else:
        ax.text(0.5, 0.5, "no ratings: no game seated two different agents", ha="center",
                transform=ax.transAxes)
        ax.set_axis_off()
    seats = f"{result.num_seats} seats" if result.num_seats != 1 else "1 seat"
    ax.set_title(f"{result.game}: {len(result.games)} games, {seats}")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


# ------------------------------------------------------------------ playing
_WORKER = {}


def play_one(game, config, agents, seed, rngs, index=None, labels=None, trace=None):
    """Play one game of configuration ``config`` on the rules core, ``agents[s]``
    in seat ``s`` drawing from ``rngs[s]``.

    Returns ``(rewards, outcome, decisions)``: the final reward per seat, the
    :class:`dragongym.envs.core.outcome.Outcome` read from the final record,
    and the decisions per seat. An agent that answers with anything but a
    legal action stops the game with an ``AgentActionError`` naming the game
    ``index``, the seat and its agent's label (``labels``). ``trace``, a dict
    if given, receives what a game record keeps: ``reset_seed``, ``actions``
    (every ``(seat, action)`` in order) and ``state`` (the final record). A
    game still running after ``spec.decision_limit`` decisions is ended
    there, truncated (``end_at_decision_limit``).
    """
    spec = game.spec_for(config)
    n = spec.num_seats
    state = game.new_states(1)
    game.reset(state, np.array([seed], dtype=np.uint64), config)
    for a in agents:
        a.reset()
    act = np.zeros(1, dtype=np.int64)
    err = np.zeros(1, dtype=np.int8)
    decisions = [0] * n
    if trace is not None:
        trace.update(reset_seed=int(seed), actions=[], state=state)
    limit = spec.decision_limit
    while int(state[0]["status"]) == 0:
        if limit and sum(decisions) >= limit:
            end_at_decision_limit(state, n, spec.utility)
            break
        p = int(state[0]["to_play"])
        agent = agents[p]
        mask = game.mask_of(state)
        if agent.uses_state:
            a = agent.act_state(game, state, p, rngs[p])
        else:
            a = agent.act(game.observation_of(state, p), mask, rngs[p])
        act[0] = checked_action(a, mask, index, p, spec.roles[p], labels[p] if labels else type(agent).__name__)
        game.step(state, act, err)
        decisions[p] += 1
        if trace is not None:
            trace["actions"].append((p, int(act[0])))
    rewards = tuple(float(r) for r in state[0]["rewards"][:n])
    return rewards, outcome_of(state, n, spec.utility), tuple(decisions)


def _make_agents(game, agent_specs):
    kwargs = {spec: kw for spec, kw in agent_specs if isinstance(spec, str)}
    return made_agents([spec for spec, _ in agent_specs], game, lambda spec: kwargs[spec])


def _init_worker(game_name, agent_specs, options, child=True):
    """Make the game and the agents in this process. A worker process
    (``child``) leaves Ctrl-C to the parent (which stops the pool), and keeps
    an error making its agents for its first game to raise, so that it
    reaches the parent (an initializer that raises is restarted forever)."""
    _WORKER.clear()
    if not child:
        game = dragongym.get_game(game_name)
        _WORKER.update(game=game, agents=_make_agents(game, agent_specs), config=game.make_config(**options))
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(1)
    try:
        game = dragongym.get_game(game_name)
        _WORKER.update(game=game, agents=_make_agents(game, agent_specs), config=game.make_config(**options))
    except Exception as error:
        _WORKER["error"] = error


def _play_indexed(job):
    """Play game ``i`` of the schedule in this worker: its outcome, and its
    actions (``(reset_seed, [(seat, action)], final state)``) where ``keep``
    asks for its game record, else None."""
    i, seating, game_seed, seed, keep = job
    w = _WORKER
    if "error" in w:
        raise w["error"]
    agents = [w["agents"][k] for k in seating]
    rngs = [np.random.default_rng([seed, i, s]) for s in range(len(seating))]
    trace = {} if keep else None
    rewards, outcome, decisions = play_one(w["game"], w["config"], agents, game_seed, rngs, index=i,
                                           trace=trace)
    return (GameRecord(i, tuple(seating), rewards, outcome.ranks, outcome.scores, sum(decisions),
                       outcome.truncated, decisions), trace)


def _rated(game):
    """Whether a game tells the ratings anything: at least two seats, each
    held by a different agent."""
    return len(game.seating) >= 2 and len(set(game.seating)) == len(game.seating)


def _rate(agents, games):
    """OpenSkill Plackett-Luce ratings from the ranks of the games, in order;
    returns the rating system's name."""
    if not any(_rated(g) for g in games):
        for a in agents:
            a.mu = a.sigma = math.nan
        return "none"
    try:
        from openskill.models import PlackettLuce
    except ImportError:                                       # pragma: no cover
        return _elo(agents, games)
    model = PlackettLuce()
    ratings = [model.rating(name=a.label) for a in agents]
    for g in games:
        if not _rated(g):
            continue
        # OpenSkill's ranks: lower is better, equal ranks are a tie, as in the record
        new = model.rate([[ratings[k]] for k in g.seating], ranks=list(g.ranks))
        for k, team in zip(g.seating, new):
            ratings[k] = team[0]
    for a, r in zip(agents, ratings):
        a.mu, a.sigma = float(r.mu), float(r.sigma)
    return "openskill.PlackettLuce"


def _elo(agents, games):                                      # pragma: no cover
    """Pairwise Elo from the ranks (the fallback without openskill)."""
    elo = [1500.0] * len(agents)
    for g in games:
        if not _rated(g):
            continue
        for x, y in itertools.combinations(range(len(g.seating)), 2):
            a, b = g.seating[x], g.seating[y]
            s = 0.5 if g.ranks[x] == g.ranks[y] else float(g.ranks[x] < g.ranks[y])
            e = 1 / (1 + 10 ** ((elo[b] - elo[a]) / 400))
            elo[a] += 16 * (s - e)
            elo[b] -= 16 * (s - e)
    for a, r in zip(agents, elo):
        a.mu, a.sigma = r, 0.0
    return "elo"


class OutFolderError(ValueError):
    """The tournament's ``out`` folder cannot take this run (checked before the
    first game), or its games log cannot be resumed (a line that is not one of
    this schedule's games: the message names the file and the line)."""


class TournamentInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run_tournament`.

    Attributes:
        games: the :class:`GameRecord` of every finished game (those a resumed
            run read back from its log included).
        scheduled: how many games the run was to have in all.
        log: the games log (``out/games.jsonl``) that keeps every finished
            game, so that ``resume`` plays the rest; None without ``out`` (the
            games are lost).
        resumed: how many of ``games`` were read back from the log.
    """

    def __init__(self, games, scheduled, log, resumed=0):
        super().__init__(f"tournament interrupted after {len(games)} of {scheduled} games")
        self.games = list(games)
        self.scheduled = scheduled
        self.log = log
        self.resumed = resumed


GAMES_FILE = "games.jsonl"
"""In a tournament's ``out`` folder: a header line naming the tournament, then
each game's outcome (a :class:`GameRecord` as JSON) as soon as it finished."""


_OUTCOME_KEYS = ("index", "seating", "rewards", "ranks", "scores", "decisions", "truncated")
"""The keys every game line of a games log holds (``seat_decisions`` may follow)."""


def _is_int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _outcome_problem(g, seatings, num_seats):
    """``""`` if ``g`` (a parsed line of a games log) is the outcome of a game
    of this schedule (``seatings[i]`` seats game ``i``), else what is wrong."""
    if not isinstance(g, dict):
        return f"a game's outcome is a JSON object, not {type(g).__name__}"
    missing = [k for k in _OUTCOME_KEYS if k not in g]
    if missing:
        return f"not a game's outcome: it has no {', '.join(missing)}"
    unknown = sorted(set(g) - set(_OUTCOME_KEYS) - {"seat_decisions"})
    if unknown:
        return f"not a game's outcome: unknown key(s) {', '.join(unknown)}"
    i = g["index"]
    if not _is_int(i) or not 0 <= i < len(seatings):
        return f"game index {i!r} is not one of this tournament's games 0..{len(seatings) - 1}"

    def seat_list(key, ok):
        value = g[key]
        return isinstance(value, list) and len(value) == num_seats and all(ok(x) for x in value)

    if not seat_list("seating", _is_int) or tuple(g["seating"]) != tuple(seatings[i]):
        return f"game {i}: seating {g['seating']!r} is not the schedule's {list(seatings[i])}"
    for key in ("rewards", "scores"):
        if not seat_list(key, _is_number):
            return f"game {i}: {key} {g[key]!r} are not {num_seats} numbers"
    # a solo seat ranks 1 (won) or 2 (lost): envs/core/outcome.py
    worst = 2 if num_seats == 1 else num_seats
    if not seat_list("ranks", lambda r: _is_int(r) and 1 <= r <= worst):
        return f"game {i}: ranks {g['ranks']!r} are not {num_seats} ranks in 1..{worst}"
    if not _is_int(g["decisions"]) or g["decisions"] < 0:
        return f"game {i}: decisions {g['decisions']!r} is not a count"
    if not isinstance(g["truncated"], bool):
        return f"game {i}: truncated {g['truncated']!r} is not true or false"
    counts = g.get("seat_decisions")
    if counts not in (None, []) and not seat_list("seat_decisions", lambda d: _is_int(d) and d >= 0):
        return f"game {i}: seat_decisions {g['seat_decisions']!r} are not {num_seats} counts"
    return ""


def _warn(message):
    print(f"dragongym: warning: {message}", file=sys.stderr, flush=True)


def _read_games_log(path, header_line, seatings, num_seats):
    """Read the games log ``path`` to resume it: ``(outcomes, keep, newline)``
    where ``keep`` is the byte length of its complete lines (what stays) and
    ``newline`` whether its last kept line still needs its line end.

    A torn last line (an interrupted write: ``kill -9``, a full disk) is
    dropped with a warning, and its game is played again; anything else that
    is not the line this schedule would have written is an OutFolderError
    naming the file, the line and what is wrong, and the file is left as it
    is. ``keep`` 0 means the log lacks even its header (an interrupted start)."""
    with open(path, "rb") as f:
        data = f.read()
    lines, start = [], 0                        # (line number, start, end, bytes) of non-blank lines
    for number, raw in enumerate(data.split(b"\n"), start=1):
        end = start + len(raw)
        if raw.strip():
            lines.append((number, start, end, raw))
        start = end + 1
    parsed = []
    for k, (number, first, end, raw) in enumerate(lines):
        try:
            parsed.append(json.loads(raw.decode("utf-8")))
        except ValueError as err:                # JSONDecodeError, UnicodeDecodeError
            why = (f"{err.msg} at column {err.colno}" if isinstance(err, json.JSONDecodeError)
                   else "not UTF-8 text")
            if k < len(lines) - 1:
                raise OutFolderError(f"{path}, line {number}: not JSON ({why}), and not the last line, so not "
                                     f"a torn write; the file is left as it is: mend or delete that line, "
                                     f"then resume again") from None
            if k == 0 and not header_line.startswith(raw.decode("utf-8", "replace").rstrip()):
                raise OutFolderError(f"{path}, line {number}: not JSON ({why}), and not this tournament's "
                                     f"header; the file is left as it is") from None
            if k > 0:                            # (a torn header: warned of below)
                index = re.search(rb'"index":\s*(\d+)', raw)
                which = f"game {int(index.group(1))}" if index else "its game"
                _warn(f"{path}, line {number}: dropped a torn last line (an interrupted write); "
                      f"{which} will be played again")
            lines.pop()
            break
    if not lines:                                # empty, or a torn header: start the log again
        _warn(f"{path} holds no complete header line (an interrupted start); it is written again and every "
              f"game will be played")
        return [], 0, False
    number = lines[0][0]
    head = parsed[0]
    if not isinstance(head, dict) or "tournament" not in head:
        raise OutFolderError(f"{path}, line {number}: not a tournament's games log (its first line names no "
                             f"tournament); the file is left as it is")
    want = json.loads(header_line)["tournament"]
    if head["tournament"] != want:
        have = head["tournament"]
        if (isinstance(have, dict) and "agent_settings" not in have and "agent_settings" in want
                and have == {k: v for k, v in want.items() if k != "agent_settings"}):
            raise OutFolderError(f"{path} was written before games logs kept the agents' settings (options, "
                                 f"checkpoint hashes, ladder rung budgets), so it cannot be known to be of these "
                                 f"agents; play in another folder")
        raise OutFolderError(f"{path} holds another tournament (game, agents, their settings, seed, games or "
                             f"options differ)")
    outcomes, seen = [], {}
    for (number, *_), g in zip(lines[1:], parsed[1:]):
        problem = _outcome_problem(g, seatings, num_seats)
        if problem:
            raise OutFolderError(f"{path}, line {number}: {problem}; the file is left as it is")
        record = _record_from_json(g)
        if record.index in seen:
            earlier, before = seen[record.index]
            if before != record:
                raise OutFolderError(f"{path}, line {number}: game {record.index} again, with another result "
                                     f"than on line {earlier}; the file is left as it is")
            continue
        seen[record.index] = (number, record)
        outcomes.append(record)
    keep = lines[-1][2]
    return outcomes, keep, data[keep:keep + 1] != b"\n"


def _games_log(out, header, resume, seatings, num_seats):
    """The outcomes already in ``out``'s games log (for ``resume``), after
    checking the folder before the first game: ``out`` is made if missing, a
    log of another tournament, or one of this tournament without ``resume``,
    is refused (OutFolderError) rather than mixed or overwritten. Resuming, a
    torn last line is dropped (and the file cut back to its last complete
    line, so what is appended makes valid JSON lines); any other line that is
    not one of this schedule's games (``seatings``, ``num_seats``) is an
    error naming it, and nothing is changed."""
    if os.path.exists(out) and not os.path.isdir(out):
        raise OutFolderError(f"out {out} is a file, not a folder")
    os.makedirs(out, exist_ok=True)
    if not os.access(out, os.W_OK):
        raise OutFolderError(f"out {out} cannot be written")
    path = os.path.join(out, GAMES_FILE)
    header_line = json.dumps({"tournament": header}, sort_keys=True)
    if not os.path.exists(path):
        if resume:
            raise OutFolderError(f"nothing to resume: {path} does not exist")
        with open(path, "w") as f:
            f.write(header_line + "\n")
        return []
    if not resume:
        raise OutFolderError(f"{path} already holds a tournament's games: resume it, or choose another folder")
    if os.path.isdir(path):
        raise OutFolderError(f"{path} is a folder, not a games log")
    outcomes, keep, newline = _read_games_log(path, header_line, seatings, num_seats)
    with open(path, "r+b") as f:
        if keep == 0:
            f.truncate(0)
            f.write((header_line + "\n").encode())
        else:
            f.truncate(keep + (not newline))
            if newline:
                f.seek(keep)
                f.write(b"\n")
    return outcomes


def file_sha256(path):
    """The SHA-256 of a file's bytes, in hex."""
    import hashlib

    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def agent_settings(agent_id, kwargs=None):
    """What decides how agent ``agent_id`` plays beyond its id, for a games
    log's header (a resumed tournament must face the same agents): its
    ``make_agent`` keyword options, a ladder rung's settings (the MCTS
    budget, the learned rung's checkpoint) and, for a checkpoint file, the
    SHA-256 of its bytes (the file may be retrained under the same name).
    None where the id says it all (``random``, a registered bot)."""
    from dragongym.agents.base import parse_agent_spec
    from dragongym.agents.ladder import rung_settings

    out = {}
    if kwargs:
        out["options"] = {k: v if isinstance(v, (bool, int, float, str, type(None))) else repr(v)
                          for k, v in sorted(kwargs.items())}
    try:
        base = parse_agent_spec(agent_id)[0]
    except ValueError:                       # agent_problem names it before any game
        base = agent_id
    rung = rung_settings(base)
    if rung is not None:
        out["rung"] = rung
    elif os.path.isfile(base):
        out["sha256"] = file_sha256(base)
    return out or None


def run_tournament(game_name, agent_ids, num_games, seed=0, workers=1, agent_kwargs=None, progress=True,
                   on_game_end=None, games=None, out=None, resume=False, records=None, record_every=1,
                   **options):
    """Play ``num_games`` seat-rotated games and rate the agents.

    Args:
        game_name: registered game id.
        agent_ids: the competing agents: registry ids (or checkpoint paths),
            :class:`Agent` objects or any objects with ``act(obs, mask, rng)``
            (objects need ``workers=1`` unless picklable).
            Any number: the schedule fills the configuration's seats.
        num_games: games to play.
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
        out: a folder: each game's outcome is appended to ``out/games.jsonl``
            as it finishes (checked before the first game), so an interrupted
            run keeps what it played.
        resume: with ``out``, play only the games its log does not hold yet,
            and return the whole tournament. A torn last line of the log (a
            crash mid-write) is dropped with a warning on stderr and its game
            played again; any other line that is not a game of this schedule
            is an :class:`OutFolderError` naming it, before anything changes.
        records: a path: every ``record_every``-th game of the schedule
            (index divisible by it) is appended to that game-record file,
            with all its actions, as soon as it finishes
            (``agents/game_record.py``; ``dragongym replay FILE`` replays
            them). A resumed run appends the games it plays.
        **options: the game's options (``num_players=3`` where the game has
            that option, ``max_hands=...``); they decide the seats.

    Returns a :class:`TournamentResult`. A missing, foreign or broken
    checkpoint raises :class:`dragongym.agents.base.AgentLoadError` before
    the first game (and before ``out`` is touched); Ctrl-C
    (KeyboardInterrupt) raises :class:`TournamentInterrupted`, naming the
    finished games and the log that keeps them.
    """
    from dragongym.envs.core.rng import seed_sequence

    if seed < 0:
        raise ValueError("seed must be a non-negative int")
    if not agent_ids:
        raise ValueError("a tournament needs at least one agent")
    game = dragongym.get_game(game_name)
    spec = game.spec_for(game.make_config(**options))      # validates the options early
    agent_kwargs = agent_kwargs or {}
    ids = [a if isinstance(a, str) else getattr(a, "name", None) or type(a).__name__ for a in agent_ids]
    specs = [(a, dict(agent_kwargs.get(a, {})) if isinstance(a, str) else {}) for a in agent_ids]
    seatings = schedule(len(agent_ids), spec.num_seats, num_games)
    game_seeds = seed_sequence(seed, num_games)
    if games is None:
        games = range(num_games)
    games = sorted(set(int(i) for i in games))
    if games and not 0 <= games[0] <= games[-1] < num_games:
        raise ValueError(f"games must be indices in 0..{num_games - 1}, got {games[0]}..{games[-1]}")
    if resume and out is None:
        raise OutFolderError("resume needs the out folder of the run to resume")
    if isinstance(record_every, bool) or not isinstance(record_every, int) or record_every < 1:
        raise ValueError(f"record_every must be an int >= 1, got {record_every!r}")
    if records is not None and record_file_problem(records):
        raise ValueError(record_file_problem(records))
    for agent_id, _ in specs:                  # a missing or foreign checkpoint costs no games, no files
        if isinstance(agent_id, str) and agent_problem(agent_id, game):
            raise AgentLoadError(agent_problem(agent_id, game))
    if workers <= 1:
        _init_worker(game_name, specs, options, child=False)
    done = []
    log = None
    selected = set(games)
    if out is not None:
        header = {"game": game_name, "agents": ids, "seed": int(seed), "num_games": int(num_games),
                  "config": {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}}
        settings = [agent_settings(a, kw) if isinstance(a, str) else None for a, kw in specs]
        if any(settings):
            header["agent_settings"] = settings
        done = _games_log(out, header, resume, seatings, spec.num_seats)
        finished = {g.index for g in done}
        selected |= finished
        games = [i for i in games if i not in finished]
        log = os.path.join(out, GAMES_FILE)
    jobs = [(i, seatings[i], int(game_seeds[i]), seed, records is not None and i % record_every == 0)
            for i in games]

    from tqdm import tqdm
    bar = tqdm(total=len(jobs), desc="games", unit="game", disable=None if progress else True,
               file=sys.stderr)
    outcomes = list(done)
    pool = None
    try:
        if workers <= 1:
            it = map(_play_indexed, jobs)
        else:
            import multiprocessing as mp
            methods = mp.get_all_start_methods()
            ctx = mp.get_context("fork" if "fork" in methods else "spawn")
            pool = ctx.Pool(workers, initializer=_init_worker, initargs=(game_name, specs, options))
            it = pool.imap_unordered(_play_indexed, jobs, chunksize=1)
        config = game.make_config(**options)
        for rec, trace in it:
            with deferred_interrupt():           # a finished game is logged and recorded whole, or not at all
                if trace is not None:
                    write_record(records, game, config, trace, [ids[k] for k in rec.seating], trace["state"],
                                 rec.rewards, rec.ranks, seed, rec.index)
                if log is not None:
                    with open(log, "a") as f:
                        f.write(json.dumps(asdict(rec)) + "\n")
                outcomes.append(rec)
            bar.update()
            if on_game_end is not None:
                on_game_end(rec)
        if pool is not None:
            pool.close()
            pool.join()
            pool = None
    except KeyboardInterrupt as interrupt:
        raise TournamentInterrupted(outcomes, len(selected), log, len(done)) from interrupt
    finally:
        if pool is not None:                     # stopped early (Ctrl-C, an agent's error): stop the workers
            pool.terminate()
            pool.join()
        bar.close()
    return summarize(game_name, ids, outcomes, seed=seed, config=options, **spec_fields(spec))


def summarize(game_name, agent_ids, records, roles, seed=0, config=None, seats_are_roles=False,
              utility="zero_sum", score_name=""):
    """Tally played games (:class:`GameRecord`) into a :class:`TournamentResult`
    with per-agent results and ratings; ``agent_ids`` are the agents' ids in the
    order ``seating`` indexes them, ``roles`` the seat names (and the other
    keywords the spec's, see :func:`dragongym.agents.match.spec_fields`).
    Ratings are updated in game order."""
    ids = list(agent_ids)
    roles = tuple(roles)
    records = sorted(records, key=lambda g: g.index)
    summaries = [AgentSummary.empty(label, agent_id, len(roles), roles=roles)
                 for label, agent_id in zip(labels_of(ids), ids)]
    for g in records:
        tally(summaries, g)
    system = _rate(summaries, records)
    return TournamentResult(game=game_name, roles=roles, seed=seed, config=dict(config or {}),
                            agents=summaries, games=records, seats_are_roles=seats_are_roles,
                            utility=utility, score_name=score_name, rating_system=system)


LEGACY_TIE = 1e-6
"""Rewards closer than this count as equal when :func:`legacy_ranks` ranks them."""


def legacy_ranks(rewards):
    """Ranks of a game saved before records carried ranks, from its final
    rewards: a seat's rank is 1 + the number of seats whose reward is higher
    (by more than :data:`LEGACY_TIE`), so seats on equal rewards share a rank.
    Those files are zero-sum games whose rewards order the seats as their
    outcome did (Dragonhunt: the slayer +1, the others below; a truncated
    game all 0, everyone tied), so the wins, draws and losses come out as
    they were counted then. New results read the ranks of the record instead."""
    return tuple(1 + sum(1 for other in rewards if other > mine + LEGACY_TIE) for mine in rewards)


def _record_from_json(g):
    rewards = tuple(g["rewards"])
    if "ranks" in g:
        ranks, scores = tuple(g["ranks"]), tuple(g["scores"])
    else:                                                  # legacy: saved without outcomes
        ranks, scores = legacy_ranks(rewards), tuple(0.0 for _ in rewards)
    return GameRecord(g["index"], tuple(g["seating"]), rewards, ranks, scores, g["decisions"],
                      g["truncated"], tuple(g.get("seat_decisions", ())))


def load_tournament(path):
    """Read a saved ``tournament.json`` (a file or the directory holding it) back
    into a :class:`TournamentResult`.

    Files saved before games carried ranks (they have ``num_players`` and no
    ``roles``) are read as ``player_0 ..`` seats of a zero-sum game, each
    game's ranks derived from its rewards (:func:`legacy_ranks`)."""
    if os.path.isdir(path):
        path = os.path.join(path, "tournament.json")
    with open(path) as f:
        d = json.load(f)
    records = [_record_from_json(g) for g in d["games"]]
    if "roles" in d:
        fields = {"roles": tuple(d["roles"]), "seats_are_roles": d["seats_are_roles"],
                  "utility": d["utility"], "score_name": d["score_name"]}
    else:
        fields = {"roles": player_names(d["num_players"])}
    return summarize(d["game"], [a["agent_id"] for a in d["agents"]], records, seed=d["seed"],
                     config=d["config"], **fields)


def merge_tournaments(results):
    """Join shards of one tournament (runs with the same game, agents, seats,
    seed and options, each playing some ``games=`` of the schedule) into one
    result. A game played by two shards must have the same outcome in both
    (the schedule is deterministic); it is counted once."""
    results = list(results)
    if not results:
        raise ValueError("merge_tournaments needs at least one result")
    first = results[0]
    key = lambda r: (r.game, r.roles, r.seed, dict(r.config), [a.agent_id for a in r.agents])
    outcome = lambda g: (g.seating, g.rewards, g.ranks, g.scores, g.decisions)
    by_index = {}
    for r in results:
        if key(r) != key(first):
            raise ValueError(f"cannot merge different tournaments: {key(r)} vs {key(first)}")
        for g in r.games:
            seen = by_index.setdefault(g.index, g)
            if outcome(seen) != outcome(g):
                raise ValueError(f"game {g.index} has different outcomes in two shards: {seen} vs {g}")
    return summarize(first.game, [a.agent_id for a in first.agents], by_index.values(), seed=first.seed,
                     config=first.config, seats_are_roles=first.seats_are_roles, utility=first.utility,
                     score_name=first.score_name, roles=first.roles)
