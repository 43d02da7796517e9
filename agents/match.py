"""Seat-rotated matches between agents, played through the PettingZoo env.

Seats. The options make the game's configuration, and its spec
(``game.spec_for(game.make_config(**options))``) decides the seats: a match
needs one agent per seat (``spec.num_seats``; a solo game has one). Game ``i``
seats the agent list rotated by ``i`` (seat ``s`` is played by agent
``(s + i) mod n``), so over a multiple of ``n`` games every agent plays every
seat equally often. Where the seats are roles (``spec.seats_are_roles``, e.g.
factions fixed by a scenario) the rotation rotates who plays which role, and
results are also kept per role (``AgentStats.by_seat``, seats in the order of
``spec.roles``).

Outcomes. A finished game's record carries a rank and a score per seat
(:mod:`dragongym.envs.core.outcome`); the match reads them, never the sign of a
reward. A seat **wins** holding rank 1 alone, **draws** sharing rank 1 (all
seats tied included: a truncated game), and **loses** otherwise; the one seat
of a solo game wins or loses by its rank. Each agent's tally keeps wins, draws
and losses, its mean rank, its mean score (the game's own score, meaningful
where ``spec.score_name`` names one) and its mean reward.

Determinism. Game ``i`` depends only on ``(seed, i)``: its game seed is
``seed_sequence(seed, num_games)[i]`` and each seat draws its agent's
randomness from a generator seeded by ``(seed, i, seat)``.
"""
import contextlib
import signal
import threading
from dataclasses import dataclass, field

import numpy as np

import dragongym
from dragongym.agents.base import AgentLoadError, agent_problem, as_agent, checked_action, make_agent
from dragongym.envs.core.outcome import DRAW, LOSS, WIN, end_at_decision_limit, outcome_of, seat_results


def _count(tally, result, reward, rank, score):
    """Add one game to ``tally`` (a :class:`SeatStats` or :class:`AgentStats`)."""
    tally.games += 1
    tally.wins += result == WIN
    tally.draws += result == DRAW
    tally.losses += result == LOSS
    tally.total_reward += float(reward)
    tally.total_rank += int(rank)
    tally.total_score += float(score)


class _Means:
    """Rates and means of a tally with fields ``games``, ``wins``,
    ``total_reward``, ``total_rank`` and ``total_score`` (0 without games)."""

    @property
    def win_rate(self):
        """Share of its games it won (rank 1 alone, or a solo game's win)."""
        return self.wins / self.games if self.games else 0.0

    @property
    def mean_reward(self):
        return self.total_reward / self.games if self.games else 0.0

    @property
    def mean_rank(self):
        """Mean finishing rank (1 = best; tied seats share a rank)."""
        return self.total_rank / self.games if self.games else 0.0

    @property
    def mean_score(self):
        """Mean of the game's own score (0 for games without one)."""
        return self.total_score / self.games if self.games else 0.0


@dataclass
class SeatStats(_Means):
    """One agent's results in one seat (one role where seats are roles).

    Attributes:
        games: games it played in this seat.
        wins, draws, losses: how they came out (see the module docstring).
        total_reward: sum of its final rewards there.
        total_rank: sum of its ranks there.
        total_score: sum of its scores there.
    """

    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    total_reward: float = 0.0
    total_rank: int = 0
    total_score: float = 0.0

    def add(self, result, reward, rank, score):
        """Count one game: ``result`` is ``"win"``, ``"draw"`` or ``"loss"``."""
        _count(self, result, reward, rank, score)

    def as_dict(self):
        return {"games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "win_rate": self.win_rate, "mean_rank": self.mean_rank, "mean_score": self.mean_score,
                "mean_reward": self.mean_reward}


@dataclass
class AgentStats(_Means):
    """Results of one agent (one entry of the agent list) over a match.

    Attributes:
        label: how tables name it (its id, numbered when ids repeat).
        agent_id: registry id, or the class name of an agent passed as an object.
        games: games it played.
        wins: games it finished alone on rank 1 (solo: games it won).
        draws: games it finished sharing rank 1 (all seats tied included).
        losses: the rest.
        total_reward: sum of its final rewards.
        total_rank: sum of its finishing ranks (1 = best).
        total_score: sum of its scores in the game's own terms (legend points;
            0 for games without a score).
        total_length: sum of the lengths, in decisions, of the games it played.
        decisions: decisions it made itself.
        by_seat: a :class:`SeatStats` per seat, in seat (role) order.
    """

    label: str
    agent_id: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    total_reward: float = 0.0
    total_rank: int = 0
    total_score: float = 0.0
    total_length: int = 0
    decisions: int = 0
    by_seat: list = field(default_factory=list)

    @classmethod
    def empty(cls, label, agent_id, num_seats, **fields):
        """A tally with no games yet, one empty :class:`SeatStats` per seat."""
        return cls(label, agent_id, by_seat=[SeatStats() for _ in range(num_seats)], **fields)

    @property
    def seats(self):
        """Games played in each seat, in seat order."""
        return [s.games for s in self.by_seat]

    @property
    def mean_length(self):
        return self.total_length / self.games if self.games else 0.0

    def add(self, seat, result, reward, rank, score, length, decisions):
        """Count one game it played in ``seat`` (length and its own decisions in decisions)."""
        _count(self, result, reward, rank, score)
        self.by_seat[seat].add(result, reward, rank, score)
        self.total_length += int(length)
        self.decisions += int(decisions)


@dataclass
class GameOutcome:
    """One game of a match or tournament.

    Attributes:
        index: game number ``i`` in the schedule.
        seating: ``seating[seat]`` = index into the agent list of who sat there.
        rewards: final reward per seat.
        ranks: finishing rank per seat from the final record (1 = best, tied
            seats share a rank).
        scores: the game's own score per seat (0.0 where it has none).
        decisions: decisions taken by the agents (steps of the env).
        truncated: the game hit its configured limit instead of ending by the rules.
        seat_decisions: decisions per seat (empty for records read back from
            a saved tournament).
    """

    index: int
    seating: tuple
    rewards: tuple
    ranks: tuple
    scores: tuple
    decisions: int
    truncated: bool
    seat_decisions: tuple = ()

    @property
    def results(self):
        """``"win"`` / ``"draw"`` / ``"loss"`` per seat, from the ranks (a
        one-seat game is solo: rank 1 wins)."""
        return seat_results(self.ranks, "solo" if len(self.ranks) == 1 else "zero_sum")


def tally(stats, record):
    """Add the game ``record`` (a :class:`GameOutcome`) to the :class:`AgentStats`
    of the agents who sat in it (``stats`` indexed like the agent list)."""
    for seat, result in enumerate(record.results):
        decisions = record.seat_decisions[seat] if record.seat_decisions else 0
        stats[record.seating[seat]].add(seat, result, record.rewards[seat], record.ranks[seat],
                                        record.scores[seat], record.decisions, decisions)


def spec_fields(spec):
    """What results keep of a :class:`GameSpec`: the seats' names, whether they
    are roles, the utility kind and the score's name."""
    return {"roles": tuple(spec.roles), "seats_are_roles": bool(spec.seats_are_roles),
            "utility": spec.utility, "score_name": spec.score_name}


@dataclass
class MatchResult:
    """Everything :func:`play_match` measured; ``stats`` follows the agent list.

    Attributes:
        game: the game's registry id.
        roles: seat names in seat order (``spec.roles``).
        seed: the match seed.
        config: the game options the match was played with.
        stats: an :class:`AgentStats` per entry of the agent list.
        games: a :class:`GameOutcome` per game, in order.
        seats_are_roles, utility, score_name: from the configuration's spec.
    """

    game: str
    roles: tuple
    seed: int
    config: dict
    stats: list
    games: list = field(default_factory=list)
    seats_are_roles: bool = False
    utility: str = "zero_sum"
    score_name: str = ""

    @property
    def num_seats(self):
        return len(self.roles)


def labels_of(ids):
    """Table labels of the agent list: the ids, numbered ``id#k`` when ids repeat."""
    if len(set(ids)) == len(ids):
        return list(ids)
    return [f"{agent_id}#{k}" for k, agent_id in enumerate(ids)]


def play_game(env, players, seed, rngs, trace=None, index=None, labels=None):
    """Play one game to its end in ``env`` (a ``GameAECEnv``).

    Args:
        env: the PettingZoo env; it is reset here.
        players: the :class:`Agent` playing each seat.
        seed: the game's reset seed.
        rngs: one ``numpy.random.Generator`` per seat.
        trace: a dict that, if given, receives ``reset_seed`` (the seed
            ``Game.reset`` started the game from), ``actions``, every
            ``(seat, action)`` in order, and ``state``, the final record
            (what a game record keeps).
        index, labels: the game's number in its match and each seat's agent
            label, for the error that stops the game when an agent answers
            with something that is not a legal action (``AgentActionError``).

    Returns ``(rewards, outcome, decisions)``: the final reward per seat, the
    :class:`dragongym.envs.core.outcome.Outcome` read from the final record,
    and the number of decisions per seat. A game still running after
    ``spec.decision_limit`` decisions is ended there, truncated
    (``end_at_decision_limit``, on a copy of the env's record).
    """
    seat_of = {agent: s for s, agent in enumerate(env.possible_agents)}
    for player in players:
        player.reset()
    env.reset(seed=seed)
    if trace is not None:
        trace["reset_seed"] = int(env.state_record[0]["seed"])
        trace["actions"] = []
    rewards = np.zeros(len(players))
    decisions = np.zeros(len(players), dtype=np.int64)
    spec, final = env.spec, None
    for agent in env.agent_iter():
        if spec.decision_limit and decisions.sum() >= spec.decision_limit \
                and int(env.state_record[0]["status"]) == 0:
            final = env.clone_state()
            end_at_decision_limit(final, spec.num_seats, spec.utility)
            rewards += final[0]["rewards"][:spec.num_seats] - env.state_record[0]["rewards"][:spec.num_seats]
            break
        seat = seat_of[agent]
        observation, reward, termination, truncation, _ = env.last()
        rewards[seat] += reward
        if termination or truncation:
            env.step(None)
            continue
        if players[seat].uses_state:
            action = players[seat].act_state(env.game, env.state_record, seat, rngs[seat])
        else:
            action = players[seat].act(observation["observation"], observation["action_mask"], rngs[seat])
        action = checked_action(action, observation["action_mask"], index, seat, env.spec.roles[seat],
                                labels[seat] if labels else type(players[seat]).__name__)
        env.step(action)
        decisions[seat] += 1
        if trace is not None:
            trace["actions"].append((seat, int(action)))
    if final is None:
        final = env.state_record
    if trace is not None:
        trace["state"] = final
    return rewards, outcome_of(final, spec.num_seats, spec.utility), decisions


def record_file_problem(path):
    """``""`` if a game-record file can be appended at ``path``, else why not
    (matches and tournaments ask before their first game, so a bad path
    costs no games)."""
    import os
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        return f"records: the folder {folder} does not exist"
    if os.path.isdir(path):
        return f"records: {path} is a folder, not a file"
    if not os.access(folder, os.W_OK) or (os.path.exists(path) and not os.access(path, os.W_OK)):
        return f"records: {path} cannot be written"
    return ""


def write_record(path, game, config, trace, seat_agents, state, rewards, ranks, seed, index):
    """Append one finished game to the game-record file ``path``
    (``agents/game_record.py``): ``trace`` is what :func:`play_game` (or the
    tournament's ``play_one``) filled, ``seat_agents`` the agent id in each
    seat, ``state`` the final 1-record array, ``seed`` and ``index`` the
    match's (or tournament's) seed and the game's number in it."""
    from dragongym.agents.game_record import GameRecord, append, config_dict, finish
    record = GameRecord(game=game.name, game_version=int(getattr(game, "version", 0)),
                        config=config_dict(config), reset_seed=trace["reset_seed"],
                        roles=list(game.spec_for(config).roles), agents=list(seat_agents),
                        actions=trace["actions"], match_seed=int(seed), game_index=int(index))
    append(path, finish(record, state, rewards, ranks))


@contextlib.contextmanager
def deferred_interrupt():
    """Hold off Ctrl-C (SIGINT) while the block runs, then deliver it: the
    bookkeeping of a finished game (its record, its line in a games log) is
    written whole or not at all. Only in the main thread, and only where
    SIGINT has a Python handler (elsewhere the block just runs)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.getsignal(signal.SIGINT)
    if not callable(previous):                    # SIG_IGN, SIG_DFL or a handler set outside Python
        yield
        return
    caught = []
    signal.signal(signal.SIGINT, lambda signum, frame: caught.append((signum, frame)))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            previous(*caught[0])


def made_agents(agent_ids, game, kwargs_of=lambda agent_id: {}):
    """The :class:`Agent` of each entry of ``agent_ids`` (an id made by
    :func:`make_agent` with ``kwargs_of(id)``, or an object, duck-typed ones
    wrapped): every id is checked (:func:`agent_problem`) before any is made,
    so a missing or foreign checkpoint raises :class:`AgentLoadError` before
    anything is loaded."""
    for a in agent_ids:
        if isinstance(a, str):
            problem = agent_problem(a, game)
            if problem:
                raise AgentLoadError(problem)
    return [make_agent(a, game=game, **kwargs_of(a)) if isinstance(a, str) else as_agent(a) for a in agent_ids]


class MatchInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`play_match`: ``result`` is the
    :class:`MatchResult` of the games that finished (every one of them
    written to ``records`` where it was given), ``num_games`` the games the
    match was to play."""

    def __init__(self, result, num_games):
        super().__init__(f"match interrupted after {len(result.games)} of {num_games} games")
        self.result = result
        self.num_games = num_games


def play_match(game_name, agent_ids, num_games, seed=0, on_game_end=None, records=None, record_every=1,
               **options):
    """Play ``num_games`` seat-rotated games of ``game_name``.

    Args:
        game_name: registered game id (``dragongym.list_games()``).
        agent_ids: one entry per seat of the configuration (``spec.num_seats``):
            an agent registry id (or checkpoint path), an :class:`Agent`, or
            any object with ``act(obs, mask, rng)`` (given ``Agent``'s defaults
            for the rest).
        num_games: games to play.
        seed: the match seed (a non-negative int); the match replays exactly.
        on_game_end: optional callable receiving each :class:`GameOutcome`
            (progress bars, logging).
        records: a path: each game (every ``record_every``-th) is appended to
            that game-record file as soon as it ends (``agents/game_record.py``;
            ``dragongym replay FILE`` checks them).
        **options: the game's options (``num_players=3`` where the game has
            that option, ``max_hands=8``, a scenario, ...); they decide the seats.

    Returns a :class:`MatchResult`. A missing, foreign or broken checkpoint
    raises :class:`dragongym.agents.base.AgentLoadError` before the first
    game; Ctrl-C (KeyboardInterrupt) raises :class:`MatchInterrupted`,
    which holds the finished games (``records`` keeps them, and only them).
    """
    from dragongym.envs.core.rng import seed_sequence

    if seed < 0:
        raise ValueError("seed must be a non-negative int")
    game = dragongym.get_game(game_name)
    spec = game.spec_for(game.make_config(**options))
    n = spec.num_seats
    if len(agent_ids) != n:
        raise ValueError(f"{len(agent_ids)} agents for the {n} seats of this {game_name} configuration "
                         f"({', '.join(spec.roles)}); give one agent per seat")
    if records is not None and record_file_problem(records):
        raise ValueError(record_file_problem(records))
    agents = made_agents(agent_ids, game)
    ids = [a if isinstance(a, str) else type(a).__name__ for a in agent_ids]
    stats = [AgentStats.empty(label, agent_id, n) for label, agent_id in zip(labels_of(ids), ids)]
    env = dragongym.make(game_name, **options)
    game_seeds = seed_sequence(seed, num_games)
    result = MatchResult(game=game_name, seed=seed, config=dict(options), stats=stats, **spec_fields(spec))

    try:
        for i in range(num_games):
            seating = tuple((s + i) % n for s in range(n))
            rngs = [np.random.default_rng([seed, i, s]) for s in range(n)]
            trace = {} if records is not None and i % record_every == 0 else None
            rewards, outcome, decisions = play_game(env, [agents[k] for k in seating], int(game_seeds[i]),
                                                    rngs, trace, index=i, labels=[ids[k] for k in seating])
            record = GameOutcome(i, seating, tuple(float(r) for r in rewards), outcome.ranks, outcome.scores,
                                 int(decisions.sum()), outcome.truncated, tuple(int(d) for d in decisions))
            with deferred_interrupt():               # the game is recorded and counted, or neither
                if trace is not None:
                    write_record(records, game, game.make_config(**options), trace, [ids[k] for k in seating],
                                 trace["state"], rewards, outcome.ranks, seed, i)
                tally(stats, record)
                result.games.append(record)
            if on_game_end is not None:
                on_game_end(record)
    except KeyboardInterrupt as interrupt:
        if isinstance(interrupt, MatchInterrupted):
            raise
        raise MatchInterrupted(result, num_games) from interrupt
    finally:
        env.close()
    return result
