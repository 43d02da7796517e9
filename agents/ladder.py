"""The reference ladder: per game and configuration, agents of known,
increasing strength, and one protocol that puts a number on a new agent.

    from dragongym.agents.ladder import get_ladder, place
    ladder = get_ladder("dragonhunt", "2p")
    placement = place(ladder, "runs/mine/final.zip", workers=2, out="results/ladder_mine")
    print(placement.table())

A :class:`Ladder` is one game configuration (``dragonhunt/2p``: two players,
20 hands) and its rungs, weakest first: ``random``; the game's heuristic; MCTS
at a fixed budget of simulations with the heuristic as rollout and prior
(``<game>.mcts``: the same decisions on any machine); and, where one is
shipped, a policy learned by self-play without imitating any bot
(``<game>.ppo_<config>``, a checkpoint in ``training/checkpoints/``). Every
rung is a registered agent id, so ``dragongym play``, ``match`` and ``eval``
can face it too.

The schedule. Two agents meet in ``ladder.games`` (400) games with the
ladder's seed: game ``i`` is the same deal for every pair (its game seed is
``seed_sequence(seed, n)[i]``, independent of ``n``), and seats are rotated
(:func:`dragongym.agents.tournament.schedule`). In a game of more than two
seats each agent holds every other seat (Dragonhunt 4 players: A B A B;
three seats alternate A B A and B A B), so each side sits equally often in
every seat. A game is the first agent's win when the best rank is held by
its seats alone, its loss when by the other's alone, else a draw (a
truncated game, or both agents sharing first place).

Ratings. The ladder's own ratings come from a round robin of its rungs
(every pair, ``games`` games each), rated with OpenSkill's Plackett-Luce
model game by game in a fixed order (game 0 of every pair, then game 1, ...),
and stored beside this module in ``ladders/<game>_<config>.json`` with the
command that produced them. A new agent is placed against the stored rungs
without replaying them: it starts from OpenSkill's default rating and is
updated by each of its games, in the same fixed order, against the rung's
stored rating, which stays frozen. Its rating with ``mu ± 1.96 sigma`` is on
the ladder's scale, comparable with the rungs'.

Solo configurations (Dragons Down with one hero) have no opponent: their
rungs are ordered by mean score (legend points) with a 95% interval, and a
new agent's games are compared game by game with each rung's stored scores
of the same deals (the mean paired difference and its interval).
"""
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

LADDER_DIR = Path(__file__).resolve().parent / "ladders"
"""Where the ladders' stored round robins live (``<game>_<config>.json``)."""
CHECKPOINT_DIR = Path(__file__).resolve().parent.parent / "training" / "checkpoints"
"""The shipped checkpoints of the learned rungs (``dragongym.training``'s folder)."""
FORMAT = 1
"""Version of the stored round-robin files."""
WIN, DRAW, LOSS = "W", "D", "L"

MCTS_RUNGS = {
    # simulations, not milliseconds: a rung's decisions are the same on any machine. The
    # heuristic is the rollout and the prior (a node's first child is its pick), the rollout
    # is cut after rollout_depth decisions and the position scored by the game's value hook.
    # Dragonhunt leaves unit movement and set-up to the heuristic too: against the second heuristic
    # a full search of 16 simulations won 10 of 40 games, 16 with movement left to the heuristic
    # 19 of 40, and 32 of them 127 of 200 (63.5%, agents/LADDER.md)
    "dragonhunt.mcts": {"simulations": 32, "rollout": "heuristic", "rollout_depth": 10, "prior_only": True},
    # Dragons Down and Dragon Pass leave their prior-only decisions (their heuristics' modules
    # list them: unit steps and set-up, DD's turn actions and combat details) to the heuristic:
    # searched, they were noise and cost (agents/EVAL.md, issue 30).
    # Dragons Down searches only its reactions and bargains, so 32 simulations of 20 decisions stay
    # affordable (16 of 10 did not beat the heuristic: 18 wins of 40).
    "dragons_down.mcts": {"simulations": 32, "rollout": "heuristic", "rollout_depth": 20, "prior_only": True},
    # Dragon Pass's value at the cap (who holds what now, the strength left) misleads a short
    # rollout: at 16 simulations of 10 decisions MCTS won 46.0% of its decided games against the
    # heuristic over 400 games of 18.2 (more simulations of 10 did worse), at 32 of 30 decisions
    # 76.3% over 200 (agents/LADDER.md).
    "dragon_pass.mcts": {"simulations": 32, "rollout": "heuristic", "rollout_depth": 30, "prior_only": True},
    # 18.4 is decided by the side between the heuristic and that rung (MCTS won 142 of 200 as
    # Lunar, 1 of 200 as Sartar). With the magic decisions left to the heuristic too and 64
    # simulations of 60 decisions it won 15 of 40 probe games as Sartar, 20 of 20 as Lunar;
    # 64 of 30, 32 of 60 and 64 of 90 won 0, 2 and 1 of 20 as Sartar. In its round robin:
    # 63.7% of 400 against the heuristic (Lunar 199 of 200, Sartar 56 of 200; agents/LADDER.md).
    "dragon_pass.mcts_18.4": {"simulations": 64, "rollout": "heuristic", "rollout_depth": 60,
                              "prior_only": "magic"},
}
"""The MCTS rungs by agent id: ``make_agent("mcts", game=..., **MCTS_RUNGS[rung_id])``.
``<game>.mcts`` is the game's; a configuration whose games cost too much at
that budget, or need more, has its own, ``<game>.mcts_<config>``."""


def mcts_rung_id(game, config):
    """The id of the MCTS rung of ``game`` in configuration ``config``: its
    own (``<game>.mcts_<config>``) where :data:`MCTS_RUNGS` has one, else the game's."""
    own = f"{game}.mcts_{config}"
    return own if own in MCTS_RUNGS else f"{game}.mcts"


@dataclass(frozen=True)
class Rung:
    """One rung: the agent id it plays as, its kind and a line on what it is."""

    agent: str
    kind: str
    about: str


@dataclass(frozen=True)
class Ladder:
    """A game configuration and its rungs, weakest first.

    Attributes:
        game: registered game id.
        config: the configuration's short name (``2p``, ``solo-open``, ``18.2``).
        options: the game options, as sorted ``(name, value)`` pairs.
        rungs: the :class:`Rung` s, weakest first.
        games: games per pair of agents (the placement's games per rung).
        seed: the schedule's seed.
    """

    game: str
    config: str
    options: tuple
    rungs: tuple
    games: int = 400
    seed: int = 0
    about: str = field(default="", compare=False)

    @property
    def id(self):
        return f"{self.game}/{self.config}"

    @property
    def option_dict(self):
        return dict(self.options)

    @property
    def file(self):
        """The stored round robin of this ladder."""
        return LADDER_DIR / f"{self.game}_{self.config}.json"

    @property
    def solo(self):
        """Whether the configuration has one seat (rungs ordered by mean score)."""
        import dragongym
        game = dragongym.get_game(self.game)
        return game.spec_for(game.make_config(**self.option_dict)).num_seats == 1


def _heuristic(game):
    return Rung(f"{game}.heuristic", "heuristic", "the hand-written bot (agents/)")


def _mcts(game, config):
    rung_id = mcts_rung_id(game, config)
    s = MCTS_RUNGS[rung_id]
    about = (f"MCTS, {s['simulations']} simulations a decision, the heuristic as rollout and prior, "
             f"rollouts cut at {s['rollout_depth']} decisions")
    if s.get("prior_weight"):
        about += f", PUCT with the heuristic's pick at prior {s['prior_weight']:g} (c_puct {s.get('c_puct', 1.0):g})"
    if s.get("c", 1.0) != 1.0:
        about += f", UCT c {s['c']:g}"
    prior_only = s.get("prior_only")
    if prior_only:
        # a named set is the game's own (its agent module says what it holds)
        which = f"in its set `{prior_only}`" if isinstance(prior_only, str) else "(set-up, unit steps...)"
        about += f", the heuristic plays the decisions its module marks prior-only {which} unsearched"
    return Rung(rung_id, "mcts", about)


_SOLO_SCORE_RECIPE = ("MaskablePPO from scratch, alone, paid its final Legend Points (--reward score) and "
                      "shaped by them, episodes started from recorded positions (a reverse curriculum); "
                      "training/REPORT.md, ")
"""How the solo Dragons Down rungs were learned (their run names follow)."""
_LEAGUE_SHAPED_RECIPE = ("MaskablePPO from scratch against a league (snapshots, random, the heuristic), "
                         "rewarded by the lead in Legend Points and Fame (a shaping potential), "
                         "episodes started from recorded positions (a reverse curriculum); training/REPORT.md, ")
"""How the Dragons Down rungs of two and four heroes were learned (their run names follow)."""

LEARNED_RUNGS = {
    # (game, config) -> (agent id, checkpoint file in training/checkpoints, how it was learned)
    ("dragonhunt", "2p"): ("dragonhunt.ppo_2p", "dragonhunt_2p_continued_s0.zip",
                           "MaskablePPO from scratch against a league (snapshots, random, the first heuristic) "
                           "with a reverse curriculum, then continued (--init) against a league with the second "
                           "heuristic and a reverse curriculum of its games; training/REPORT.md, dh_reverse_s0 "
                           "then dh2_init_s0"),
    ("dragons_down", "2-open"): ("dragons_down.ppo_2-open", "dragons_down_2p_open_shaped_s0.zip",
                                 _LEAGUE_SHAPED_RECIPE + "dd2o_v11_shaped_s0"),
    ("dragons_down", "2-explore"): ("dragons_down.ppo_2-explore", "dragons_down_2p_explore_shaped_s0.zip",
                                    _LEAGUE_SHAPED_RECIPE + "dd2e_v12_shaped_s0"),
    ("dragons_down", "4-open"): ("dragons_down.ppo_4-open", "dragons_down_4p_open_shaped_s0.zip",
                                 _LEAGUE_SHAPED_RECIPE + "dd4o_v12_shaped_s0"),
    ("dragons_down", "4-explore"): ("dragons_down.ppo_4-explore", "dragons_down_4p_explore_continued_s0.zip",
                                    _LEAGUE_SHAPED_RECIPE + "dd4o_v12_shaped_s0 in Open Realm, then trained on "
                                    "(--init) in Explore the Realm the same way: dd4e_init_s0"),
    ("dragons_down", "solo-open"): ("dragons_down.ppo_solo-open", "dragons_down_solo_open_score_s0.zip",
                                    _SOLO_SCORE_RECIPE + "ddso_v11_score_s0"),
    ("dragons_down", "solo-explore"): ("dragons_down.ppo_solo-explore", "dragons_down_solo_explore_score_s0.zip",
                                       _SOLO_SCORE_RECIPE + "ddse_v12_score_s0"),
}
"""The shipped policies learned without imitation, by configuration."""


def _rungs(game, config):
    rungs = [Rung("random", "random", "uniform over the legal actions"), _heuristic(game), _mcts(game, config)]
    learned = LEARNED_RUNGS.get((game, config))
    if learned is not None:
        rungs.append(Rung(learned[0], "learned", learned[2]))
    return tuple(rungs)


def _ladder(game, config, about, **options):
    return Ladder(game, config, tuple(sorted(options.items())), _rungs(game, config), about=about)


LADDERS = {ladder.id: ladder for ladder in (
    _ladder("dragonhunt", "2p", "two players, 20 hands", num_players=2, max_hands=20),
    _ladder("dragonhunt", "4p", "four players, 20 hands", num_players=4, max_hands=20),
    _ladder("dragons_down", "solo-open", "one hero, Open Realm", num_players=1, sandbox="open_realm"),
    _ladder("dragons_down", "solo-explore", "one hero, Explore the Realm", num_players=1,
            sandbox="explore_the_realm"),
    _ladder("dragons_down", "2-open", "two heroes, Open Realm", num_players=2, sandbox="open_realm"),
    _ladder("dragons_down", "2-explore", "two heroes, Explore the Realm", num_players=2,
            sandbox="explore_the_realm"),
    _ladder("dragons_down", "4-open", "four heroes, Open Realm", num_players=4, sandbox="open_realm"),
    _ladder("dragons_down", "4-explore", "four heroes, Explore the Realm", num_players=4,
            sandbox="explore_the_realm"),
    _ladder("dragon_pass", "18.2", "scenario 18.2", scenario="18.2"),
    _ladder("dragon_pass", "18.4", "scenario 18.4", scenario="18.4"),
    _ladder("dragon_pass", "18.7", "scenario 18.7", scenario="18.7"),
    _ladder("dragon_pass", "18.8", "scenario 18.8, three players", scenario="18.8"),
)}
"""Every ladder, by id ``<game>/<config>``."""


def register_ladder(ladder):
    """Add a :class:`Ladder` (a game's own configuration, or a toy game's in
    tests); its stored round robin is ``ladder.file``."""
    if not isinstance(ladder, Ladder):
        raise TypeError(f"register_ladder takes a Ladder, not {type(ladder).__name__}")
    LADDERS[ladder.id] = ladder
    return ladder


def ladders_of(game):
    """The ladders of ``game``, in their order (the first is its default)."""
    return [ladder for ladder in LADDERS.values() if ladder.game == game]


def get_ladder(game, config=None):
    """The ladder of ``game`` named ``config`` (default: the game's first);
    a ValueError names the known ones."""
    mine = ladders_of(game)
    if not mine:
        raise ValueError(f"no ladder for game {game!r}; games with ladders: "
                         f"{', '.join(dict.fromkeys(x.game for x in LADDERS.values()))}")
    if config is None:
        return mine[0]
    for ladder in mine:
        if ladder.config == config:
            return ladder
    raise ValueError(f"{game} has no ladder configuration {config!r}; known: {', '.join(x.config for x in mine)}")


# --------------------------------------------------------------- rung agents

def make_rung(agent_id, game=None, **kwargs):
    """The agent a rung id names: ``<game>.mcts`` or ``<game>.mcts_<config>``
    (MCTS at the ladder's budget) or ``<game>.ppo_<config>`` (a shipped checkpoint)."""
    from dragongym.agents.base import make_agent

    if agent_id in MCTS_RUNGS:
        return make_agent("mcts", game=game, **{**MCTS_RUNGS[agent_id], **kwargs})
    for (g, _config), (rung_id, file, _) in LEARNED_RUNGS.items():
        if rung_id == agent_id:
            return make_agent(str(CHECKPOINT_DIR / file), game=game, **kwargs)
    raise ValueError(f"{agent_id!r} is no ladder rung")


def rung_settings(agent_id):
    """What a rung id stands for, as plain data (None for an id that is no
    rung): ``{"mcts": {...}}`` with its budget, or ``{"checkpoint": name,
    "sha256": hex}`` of a learned rung. A tournament's games log keeps it in its header, so a
    rung whose settings changed is not resumed from games of the old one
    (a learned rung's file is named by its name in the checkpoint folder
    and its SHA-256, not by where this checkout lies)."""
    if agent_id in MCTS_RUNGS:
        return {"mcts": dict(sorted(MCTS_RUNGS[agent_id].items()))}
    for rung_id, file, _ in LEARNED_RUNGS.values():
        if rung_id == agent_id:
            from dragongym.agents.tournament import file_sha256

            path = CHECKPOINT_DIR / file
            return {"checkpoint": file, "sha256": file_sha256(path) if path.is_file() else None}
    return None


def rung_ids():
    """The agent ids of the MCTS and learned rungs (:func:`register_rungs`)."""
    return list(MCTS_RUNGS) + [rung_id for rung_id, _, _ in LEARNED_RUNGS.values()]


def register_rungs(register):
    """Register every MCTS and learned rung as an agent id (``register`` is
    :func:`dragongym.agents.register`; nothing is imported until one is made)."""
    import functools

    for rung_id in rung_ids():
        register(rung_id, functools.partial(make_rung, rung_id))


# --------------------------------------------------------------- outcomes

def pair_outcome(record):
    """``"W"``, ``"D"`` or ``"L"`` of agent 0 in a two-agent game record
    (:class:`dragongym.agents.match.GameOutcome`, ``seating`` indexing the
    two agents): a win when the best rank is held by its seats alone."""
    best = min(record.ranks)
    leaders = {record.seating[s] for s, rank in enumerate(record.ranks) if rank == best}
    if leaders == {0}:
        return WIN
    if leaders == {1}:
        return LOSS
    return DRAW


@dataclass
class PairResult:
    """Agent ``a`` against agent ``b``: ``outcomes`` is a string of ``W``/``D``/``L``
    from ``a``'s side, game ``i`` of the schedule at position ``i``."""

    a: str
    b: str
    outcomes: str

    @property
    def games(self):
        return len(self.outcomes)

    @property
    def wins(self):
        return self.outcomes.count(WIN)

    @property
    def draws(self):
        return self.outcomes.count(DRAW)

    @property
    def losses(self):
        return self.outcomes.count(LOSS)

    @property
    def decided(self):
        return self.wins + self.losses

    @property
    def decided_rate(self):
        """``a``'s share of the decided games (NaN when none was decided)."""
        return self.wins / self.decided if self.decided else math.nan

    @property
    def decided_ci(self):
        """Wilson 95% interval of :attr:`decided_rate`."""
        from dragongym.agents.tournament import wilson_interval
        return wilson_interval(self.wins, self.decided)

    def as_dict(self):
        lo, hi = self.decided_ci
        return {"a": self.a, "b": self.b, "games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "decided_rate": None if not self.decided else self.decided_rate,
                "decided_ci": [lo, hi], "outcomes": self.outcomes}


def mean_interval(values, z=1.96):
    """``(mean, low, high, sd)`` of ``values`` (normal approximation of the mean)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan, math.nan
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n) if n > 1 else math.inf
    return mean, mean - half, mean + half, sd


# --------------------------------------------------------------- ratings

def _model():
    from openskill.models import PlackettLuce
    return PlackettLuce()


def _ranks(outcome):
    """OpenSkill ranks (lower is better) of ``[a, b]`` for ``a``'s outcome."""
    return {WIN: [1, 2], DRAW: [1, 1], LOSS: [2, 1]}[outcome]


def round_robin_ratings(rungs, pairs):
    """OpenSkill ``{agent: (mu, sigma)}`` of a round robin: ``pairs`` are
    :class:`PairResult` s between the ``rungs`` (agent ids), rated game ``i``
    of every pair (in the pairs' order) before game ``i + 1`` of any."""
    model = _model()
    ratings = {r: model.rating(name=r) for r in rungs}
    longest = max((p.games for p in pairs), default=0)
    for i in range(longest):
        for p in pairs:
            if i < p.games:
                (ra,), (rb,) = model.rate([[ratings[p.a]], [ratings[p.b]]], ranks=_ranks(p.outcomes[i]))
                ratings[p.a], ratings[p.b] = ra, rb
    return {r: (float(x.mu), float(x.sigma)) for r, x in ratings.items()}


def anchored_rating(pairs, anchors):
    """The OpenSkill ``(mu, sigma)`` of a new agent from its games against
    rungs of frozen ratings: ``pairs`` are :class:`PairResult` s with the new
    agent as ``a``; ``anchors`` maps each rung (``b``) to its stored
    ``(mu, sigma)``, which no game changes. Game ``i`` against every rung (in
    the pairs' order) is rated before game ``i + 1``."""
    model = _model()
    me = model.rating(name="agent")
    frozen = {b: model.rating(mu=mu, sigma=sigma, name=b) for b, (mu, sigma) in anchors.items()}
    longest = max((p.games for p in pairs), default=0)
    for i in range(longest):
        for p in pairs:
            if i < p.games:
                (me,), _ = model.rate([[me], [frozen[p.b]]], ranks=_ranks(p.outcomes[i]))
    return float(me.mu), float(me.sigma)


# --------------------------------------------------------------- playing

def _folder(out, k, name, resume=False):
    """The folder of pair (or solo rung) ``k`` named ``name`` in ``out``:
    ``<k>-<name>``. Resumed, where that folder is missing, a folder of the same
    name under another number that holds a games log is used instead: a ladder
    that gained a rung numbers its pairs anew, and the games an old pair
    played (checked against the rungs' settings when resumed) are not played again."""
    if out is None:
        return None
    tail = re.sub(r'[^A-Za-z0-9_.-]+', '_', name)
    folder = os.path.join(out, f"{k}-{tail}")
    if not resume or os.path.isdir(folder) or not os.path.isdir(out):
        return folder
    from dragongym.agents.tournament import GAMES_FILE

    for entry in sorted(os.listdir(out)):
        number, _, rest = entry.partition("-")
        if number.isdigit() and rest == tail and os.path.exists(os.path.join(out, entry, GAMES_FILE)):
            return os.path.join(out, entry)
    return folder


def _check_resume(out, resume):
    """A resumed ladder run needs its ``out`` folder (a mistyped one is an error, not a fresh start)."""
    from dragongym.agents.tournament import OutFolderError

    if resume and (out is None or not os.path.isdir(out)):
        raise OutFolderError(f"nothing to resume: {out} is no folder" if out else "resume needs --out")


def _resume_pair(folder, resume):
    """Whether a pair's games are resumed: with ``resume``, those the run had
    begun (its games log exists); a pair it had not reached yet starts."""
    from dragongym.agents.tournament import GAMES_FILE

    return bool(resume) and folder is not None and os.path.exists(os.path.join(folder, GAMES_FILE))


def play_pair(ladder, a, b, games=None, workers=1, out=None, resume=False, progress=True, agent_kwargs=None,
              records=None):
    """Play ``a`` against ``b`` (agent ids) on the ladder's schedule; a
    :class:`PairResult` from ``a``'s side. ``out`` keeps each game as it ends
    (``games.jsonl``) and ``resume`` plays only those it lacks."""
    from dragongym.agents.tournament import run_tournament

    n = ladder.games if games is None else games
    result = run_tournament(ladder.game, [a, b], n, seed=ladder.seed, workers=workers, out=out, resume=resume,
                            progress=progress, agent_kwargs=agent_kwargs, records=records,
                            **ladder.option_dict)
    return PairResult(a, b, "".join(pair_outcome(g) for g in result.games))


def play_solo(ladder, agent, games=None, workers=1, out=None, resume=False, progress=True, agent_kwargs=None,
              records=None):
    """Scores (the game's own, e.g. legend points) of ``agent`` alone in the
    ladder's ``games`` deals, game ``i`` at position ``i``."""
    from dragongym.agents.tournament import run_tournament

    n = ladder.games if games is None else games
    result = run_tournament(ladder.game, [agent], n, seed=ladder.seed, workers=workers, out=out, resume=resume,
                            progress=progress, agent_kwargs=agent_kwargs, records=records,
                            **ladder.option_dict)
    return [float(g.scores[0]) for g in result.games]


# --------------------------------------------------------------- stored round robins

class LadderError(ValueError):
    """A ladder's stored round robin is missing, foreign or corrupt."""


def load_round_robin(ladder):
    """The stored round robin of ``ladder`` (the JSON dict), checked: it must be
    of this ladder (game, options, rungs and their settings -- an MCTS rung's
    budget, a learned rung's checkpoint hash --, schedule) and of the game's version."""
    path = ladder.file
    if not path.exists():
        raise LadderError(f"ladder {ladder.id} has no stored round robin yet ({path.name}); play it with "
                          f"`dragongym ladder --game {ladder.game} --config {ladder.config} --round-robin --write`")
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as error:
        raise LadderError(f"{path.name}: not a ladder file ({error})") from None
    want = {**_schedule(ladder, ladder.games), "rungs": [r.agent for r in ladder.rungs],
            "rung_settings": _rung_settings(ladder)}
    for key, value in want.items():
        if data.get(key) != value:
            raise LadderError(f"{path.name}: {key} is {data.get(key)!r}, the ladder's is {value!r}; its ratings "
                              f"are stale: play the round robin again (`dragongym ladder --game {ladder.game} "
                              f"--config {ladder.config} --round-robin --write`)")
    return data


def _schedule(ladder, games):
    """What a stored round robin of ``games`` games a pair must share with the
    ladder for its games to be the ones it would play: file format, ladder,
    options, schedule and the game's version (the rungs come on top)."""
    import dragongym

    return {"format": FORMAT, "ladder": ladder.id, "options": _jsonable(ladder.option_dict), "games": games,
            "seed": ladder.seed, "game_version": dragongym.get_game(ladder.game).spec.version}


def _rung_settings(ladder):
    """``{rung: rung_settings(rung)}``: what a stored round robin played, beyond the rungs' ids."""
    return {r.agent: rung_settings(r.agent) for r in ladder.rungs}


def _jsonable(options):
    return {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}


def reusable_results(ladder, games=None):
    """What the ladder's stored round robin holds that a round robin of
    ``games`` games would play again game for game: ``{(a, b): outcomes}`` of
    its pairs, and ``{rung: scores}`` of a solo ladder's rungs, whose rungs
    are still on the ladder with the settings they were played with (an MCTS
    rung's budget, a learned rung's checkpoint hash), when the file is of the
    game's version, options and schedule; empty where nothing is stored or
    the file cannot be read. The same deals, seats and settings replay the same
    games, so a ladder whose learned rung changed plays only that rung's pairs
    (a heuristic's code has no version: change one and replay its pairs)."""
    n = ladder.games if games is None else games
    try:
        data = json.loads(ladder.file.read_text())
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or any(data.get(k) != v for k, v in _schedule(ladder, n).items()):
        return {}
    now, then = _rung_settings(ladder), data.get("rung_settings") or {}
    kept = {r for r in now if r in then and then[r] == now[r]}
    out = {}
    for p in data.get("pairs", []):
        if p.get("a") in kept and p.get("b") in kept and len(p.get("outcomes", "")) == n:
            out[(p["a"], p["b"])] = p["outcomes"]
    for rung, scores in (data.get("scores") or {}).items():
        if rung in kept and len(scores) == n:
            out[rung] = scores
    return out


def round_robin(ladder, games=None, workers=1, out=None, resume=False, progress=True, log=print,
                reuse=False):
    """Play every pair of the ladder's rungs (or, solo, every rung alone) and
    return the round robin as the dict :func:`save_round_robin` stores. With
    ``reuse``, the pairs (solo: rungs) the stored round robin holds unchanged
    (:func:`reusable_results`) are taken from it instead of played."""
    import itertools

    import dragongym

    n = ladder.games if games is None else games
    rungs = [r.agent for r in ladder.rungs]
    data = {"format": FORMAT, "ladder": ladder.id, "game": ladder.game, "config": ladder.config,
            "options": _jsonable(ladder.option_dict), "rungs": rungs, "rung_settings": _rung_settings(ladder),
            "games": n, "seed": ladder.seed, "game_version": dragongym.get_game(ladder.game).spec.version}
    _check_resume(out, resume)
    stored = reusable_results(ladder, n) if reuse else {}
    if ladder.solo:
        scores = {}
        for k, rung in enumerate(rungs):
            if rung in stored:
                log(f"{ladder.id}: {rung} alone, {n} games, taken from {ladder.file.name}")
                scores[rung] = stored[rung]
                continue
            log(f"{ladder.id}: {rung} alone, {n} games")
            folder = _folder(out, k, rung, resume)
            scores[rung] = play_solo(ladder, rung, n, workers, folder, _resume_pair(folder, resume), progress)
        data["scores"] = scores
        return data
    pairs = []
    for i, j in itertools.combinations(range(len(rungs)), 2):
        if (rungs[j], rungs[i]) in stored:
            log(f"{ladder.id}: {rungs[j]} against {rungs[i]}, {n} games, taken from {ladder.file.name}")
            pairs.append(PairResult(rungs[j], rungs[i], stored[(rungs[j], rungs[i])]))
            continue
        log(f"{ladder.id}: {rungs[j]} against {rungs[i]}, {n} games")
        folder = _folder(out, len(pairs), f"{rungs[j]}-{rungs[i]}", resume)
        pairs.append(play_pair(ladder, rungs[j], rungs[i], n, workers, folder, _resume_pair(folder, resume),
                               progress))
    data["pairs"] = [p.as_dict() for p in pairs]
    data["ratings"] = {r: list(mr) for r, mr in round_robin_ratings(rungs, pairs).items()}
    return data


def save_round_robin(ladder, data, command):
    """Store a round robin (:func:`round_robin`) as the ladder's file, with the
    ``command`` that played it."""
    LADDER_DIR.mkdir(exist_ok=True)
    data = dict(data, command=command)
    ladder.file.write_text(json.dumps(data, indent=1) + "\n")
    return ladder.file


def stored_pairs(data):
    """The :class:`PairResult` s of a stored round robin."""
    return [PairResult(p["a"], p["b"], p["outcomes"]) for p in data.get("pairs", [])]


# --------------------------------------------------------------- placing a new agent

@dataclass
class Placement:
    """A new agent's results against every rung of a ladder.

    Attributes:
        ladder: the :class:`Ladder`.
        agent: the agent's id.
        results: per rung, a :class:`PairResult` (the agent as ``a``) or,
            solo, the agent's scores in the rung's deals.
        rating: the agent's OpenSkill ``(mu, sigma)`` on the ladder's scale
            (None when solo or when the ladder has no stored round robin).
        stored: the ladder's stored round robin (None if it has none).
        games: games per rung played.
    """

    ladder: Ladder
    agent: str
    results: dict
    rating: tuple
    stored: dict
    games: int
    scores: list = None

    def table(self):
        """The placement as a text table."""
        return placement_table(self)

    def as_dict(self):
        out = {"ladder": self.ladder.id, "agent": self.agent, "games_per_rung": self.games,
               "options": _jsonable(self.ladder.option_dict), "seed": self.ladder.seed,
               "rating": None if self.rating is None else
               {"mu": self.rating[0], "sigma": self.rating[1],
                "interval": [self.rating[0] - 1.96 * self.rating[1], self.rating[0] + 1.96 * self.rating[1]]}}
        if self.scores is not None:
            mean, lo, hi, sd = mean_interval(self.scores)
            out["scores"] = self.scores
            out["mean_score"] = {"mean": mean, "interval": [lo, hi], "sd": sd}
            out["against"] = {rung: paired_difference(self.scores, self.stored["scores"][rung])
                              for rung in self.results} if self.stored else {}
        else:
            out["against"] = {rung: r.as_dict() for rung, r in self.results.items()}
        return out


def paired_difference(mine, theirs):
    """Mean of ``mine[i] - theirs[i]`` over the deals both played, with its
    95% interval: ``{"games", "mean", "interval"}``."""
    diffs = [x - y for x, y in zip(mine, theirs)]
    mean, lo, hi, _ = mean_interval(diffs)
    return {"games": len(diffs), "mean": mean, "interval": [lo, hi]}


def place(ladder, agent, games=None, workers=1, out=None, resume=False, progress=True, agent_kwargs=None,
          log=print):
    """Play ``agent`` against every rung of ``ladder`` on its schedule and
    rate it against the rungs' stored ratings; a :class:`Placement`. Raises
    :class:`LadderError` before any game when the ladder has no valid
    stored round robin."""
    stored = load_round_robin(ladder)
    n = ladder.games if games is None else games
    rungs = [r.agent for r in ladder.rungs]
    _check_resume(out, resume)
    if ladder.solo:
        log(f"{ladder.id}: {agent} alone, {n} games")
        folder = _folder(out, 0, agent, resume)
        scores = play_solo(ladder, agent, n, workers, folder, _resume_pair(folder, resume), progress, agent_kwargs)
        return Placement(ladder, agent, {r: None for r in rungs}, None, stored, n, scores=scores)
    results = {}
    for k, rung in enumerate(rungs):
        log(f"{ladder.id}: {agent} against {rung}, {n} games")
        folder = _folder(out, k, rung, resume)
        results[rung] = play_pair(ladder, agent, rung, n, workers, folder, _resume_pair(folder, resume), progress,
                                  agent_kwargs)
    anchors = {r: tuple(stored["ratings"][r]) for r in rungs}
    rating = anchored_rating(list(results.values()), anchors)
    return Placement(ladder, agent, results, rating, stored, n)


# --------------------------------------------------------------- tables

def _pct(x):
    return "-" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _interval(lo, hi, scale=100.0, digits=1):
    return f"[{scale * lo:.{digits}f}, {scale * hi:.{digits}f}]"


def placement_table(p):
    """A :class:`Placement` as text: one row per rung, then the agent's rating."""
    from dragongym.agents.tables import format_table

    ladder = p.ladder
    head = (f"ladder {ladder.id} ({ladder.about}; {_options_text(ladder)}), {p.games} games against each rung, "
            f"seed {ladder.seed}")
    if p.scores is not None:
        mean, lo, hi, sd = mean_interval(p.scores)
        rows = []
        for rung in p.results:
            theirs = p.stored["scores"][rung]
            rmean, rlo, rhi, _ = mean_interval(theirs)
            diff = paired_difference(p.scores, theirs)
            rows.append([rung, f"{rmean:.2f} {_interval(rlo, rhi, 1, 2)}", str(diff["games"]),
                         f"{diff['mean']:+.2f} {_interval(*diff['interval'], 1, 2)}"])
        table = format_table(["rung", "rung's mean score [95%]", "deals", "agent minus rung [95%]"], rows)
        return (f"{head}\n{table}\n{p.agent}: mean score {mean:.2f} [{lo:.2f}, {hi:.2f}] over {len(p.scores)} "
                f"games (solo: the rungs are ordered by mean score)")
    rows = []
    for rung, r in p.results.items():
        mu, sigma = p.stored["ratings"][rung]
        lo, hi = r.decided_ci
        rows.append([rung, f"{mu:.2f} ± {1.96 * sigma:.2f}", str(r.games), str(r.wins), str(r.draws), str(r.losses),
                     _pct(r.decided_rate if r.decided else None), _interval(lo, hi) if r.decided else "-"])
    table = format_table(["rung", "rung rating", "games", "W", "D", "L", "decided win rate", "95%"], rows)
    mu, sigma = p.rating
    return (f"{head}\n{table}\n{p.agent}: OpenSkill {mu:.2f} ± {1.96 * sigma:.2f} on the ladder's scale "
            f"({position_text(mu, p.stored['ratings'], [r.agent for r in ladder.rungs])})")


def position_text(mu, ratings, rungs):
    """Where a rating of ``mu`` falls among the rungs' stored ratings."""
    below = [r for r in rungs if ratings[r][0] < mu]
    above = [r for r in rungs if ratings[r][0] >= mu]
    if not below:
        return f"below {above[0]}, the lowest rung"
    if not above:
        return f"above {below[-1]}, the highest rung"
    return f"between {max(below, key=lambda r: ratings[r][0])} and {min(above, key=lambda r: ratings[r][0])}"


def _options_text(ladder):
    return ", ".join(f"{k}={v}" for k, v in ladder.options)


def round_robin_table(ladder, data):
    """A stored round robin as text: the pairs' results and the ratings (or,
    solo, each rung's mean score)."""
    from dragongym.agents.tables import format_table

    if "scores" in data:
        rows = []
        for rung in data["rungs"]:
            mean, lo, hi, sd = mean_interval(data["scores"][rung])
            rows.append([rung, str(len(data["scores"][rung])), f"{mean:.2f}", _interval(lo, hi, 1, 2), f"{sd:.2f}"])
        return format_table(["rung", "games", "mean score", "95%", "sd"], rows)
    rows = []
    for p in stored_pairs(data):
        lo, hi = p.decided_ci
        rows.append([p.a, p.b, str(p.games), str(p.wins), str(p.draws), str(p.losses),
                     _pct(p.decided_rate if p.decided else None), _interval(lo, hi) if p.decided else "-"])
    pairs = format_table(["rung", "against", "games", "W", "D", "L", "decided win rate", "95%"], rows)
    ratings = format_table(["rung", "OpenSkill mu", "sigma", "mu ± 1.96 sigma"],
                           [[r, f"{mu:.2f}", f"{sigma:.2f}", _interval(mu - 1.96 * sigma, mu + 1.96 * sigma, 1, 2)]
                            for r, (mu, sigma) in data["ratings"].items()])
    return pairs + "\n\n" + ratings


def bar_met(data):
    """Per adjacent pair of rungs (upper, lower): whether the upper one won
    at least 55% of the decided games (``None`` solo: compare the scores)."""
    out = []
    rungs = data["rungs"]
    if "scores" in data:
        for lower, upper in zip(rungs, rungs[1:]):
            out.append((upper, lower, mean_interval(data["scores"][upper])[0] >
                        mean_interval(data["scores"][lower])[0]))
        return out
    by_pair = {(p.a, p.b): p for p in stored_pairs(data)}
    for lower, upper in zip(rungs, rungs[1:]):
        p = by_pair[(upper, lower)]
        out.append((upper, lower, bool(p.decided) and p.decided_rate >= 0.55))
    return out


# --------------------------------------------------------------- agents/LADDER.md

MARKDOWN_BEGIN = "<!-- ladder tables: written by `dragongym ladder --write-markdown`; edit outside -->"
MARKDOWN_END = "<!-- end of ladder tables -->"
MARKDOWN_FILE = Path(__file__).resolve().parent / "LADDER.md"


def ladder_markdown():
    """The generated part of ``agents/LADDER.md``: per ladder its options,
    rungs and stored round robin (or that it has none yet)."""
    lines = [MARKDOWN_BEGIN, ""]
    for ladder in LADDERS.values():
        lines += [f"### `{ladder.id}`: {ladder.about}", "",
                  f"Options {_options_text(ladder)}; {ladder.games} games {'a rung, alone' if ladder.solo else 'a pair'}, "
                  f"seed {ladder.seed}.", "",
                  "| rung | kind | what |", "| --- | --- | --- |"]
        lines += [f"| `{r.agent}` | {r.kind} | {r.about} |" for r in ladder.rungs]
        lines.append("")
        try:
            data = load_round_robin(ladder)
        except LadderError as error:
            lines += [f"Round robin: not played yet ({str(error).split(';')[0]}).", ""]
            continue
        lines += [f"Round robin (`{data['command']}`, game version {data['game_version']}):", "", "```",
                  round_robin_table(ladder, data), "```", ""]
        by_pair = {(p.a, p.b): p for p in stored_pairs(data)}
        for upper, lower, met in bar_met(data):
            p = by_pair.get((upper, lower))
            figure = (f" ({_pct(p.decided_rate if p.decided else None)} of {p.decided} decided games; the bar is 55%)"
                      if p is not None else " (by mean score)")
            lines.append(f"- `{upper}` over `{lower}`: {'bar met' if met else 'bar MISSED'}{figure}")
        lines.append("")
    lines.append(MARKDOWN_END)
    return "\n".join(lines)


def write_markdown(path=None):
    """Replace the generated part of ``agents/LADDER.md`` (``path``; between the markers)."""
    path = MARKDOWN_FILE if path is None else path
    text = Path(path).read_text()
    start, end = text.index(MARKDOWN_BEGIN), text.index(MARKDOWN_END) + len(MARKDOWN_END)
    Path(path).write_text(text[:start] + ladder_markdown() + text[end:])

