"""Outcomes of finished games, read from the state record, and the default
rewards derived from them.

When a game ends its record carries, per seat, ``rank`` (1 = best; tied seats
share a rank, after the game's own tie-breaks) and ``score`` (the game's own
score where it has one, such as legend points; 0 otherwise). Evaluation reads
these, never the sign of a reward:

* a seat **wins** when it holds rank 1 alone (in a solo game: rank 1, the
  game's victory condition met);
* it **draws** when it shares rank 1 with another seat (all seats tied: a
  drawn or truncated game);
* it **loses** otherwise.

The default learner reward is terminal and derived from the ranks
(:func:`rank_rewards`): each seat's *position value* falls linearly from +1
(first) to -1 (last), tied seats averaging the positions they share. For two
seats that is +1 / -1; for one winner among ``n`` it is +1 and ``-1/(n-1)``
each; all tied is 0 for everyone; the values always sum to 0. A solo game pays
+1 for a win and -1 otherwise.
"""
# jitcache: no compiled code
from dataclasses import dataclass

import numpy as np

from dragongym.envs.core.game import STATUS_RUNNING, STATUS_TRUNCATED

WIN, DRAW, LOSS = "win", "draw", "loss"


@dataclass(frozen=True)
class Outcome:
    """How one finished game came out.

    Attributes:
        ranks: rank per seat (1 = best, ties share).
        scores: the game's own score per seat (0.0 where it has none).
        truncated: the game hit its configured limit instead of ending by the rules.
        utility: the spec's utility kind.
    """

    ranks: tuple
    scores: tuple
    truncated: bool
    utility: str = "zero_sum"

    @property
    def results(self):
        """``"win"`` / ``"draw"`` / ``"loss"`` per seat (see the module docstring)."""
        return seat_results(self.ranks, self.utility)


def outcome_of(state, num_seats, utility="zero_sum"):
    """The :class:`Outcome` of the finished game in ``state`` (a record or a
    1-record array). Raises ValueError if the game is still running or its
    ranks are not a valid ranking."""
    rec = np.asarray(state).reshape(-1)[0]
    status = int(rec["status"])
    if status == 0:
        raise ValueError("the game is still running: it has no outcome yet")
    ranks = tuple(int(r) for r in rec["rank"][:num_seats])
    problem = ranking_problem(ranks)
    if problem:
        raise ValueError(f"the record's ranks {ranks} are not a ranking: {problem}")
    scores = tuple(float(x) for x in rec["score"][:num_seats])
    return Outcome(ranks, scores, status == 2, utility)


def end_at_decision_limit(state, num_seats, utility="zero_sum"):
    """End the running game in ``state`` (a 1-record array, changed in place)
    because it reached its spec's ``decision_limit``: status truncated,
    nobody to play, every seat ranked 1 (a draw, paying 0) or, a solo seat,
    ranked 2 (lost, paying -1). The scores stay what the
    record holds. Only the common fields change, so this is the same for
    every game; a game record replayed to the limit ends the same way."""
    rec = state[0]
    if int(rec["status"]) != STATUS_RUNNING:
        raise ValueError("the game is already over: only a running game reaches the decision limit")
    ranks = (2,) if utility == "solo" or num_seats == 1 else (1,) * num_seats
    rec["status"] = STATUS_TRUNCATED
    rec["to_play"] = -1
    rec["rank"][:num_seats] = ranks
    rec["rewards"][:num_seats] = -1.0 if len(ranks) == 1 else 0.0


def ranking_problem(ranks):
    """Why ``ranks`` is not a competition ranking (1 = best, ``k`` seats tied at
    rank ``r`` leave ranks ``r+1 .. r+k-1`` unused), or ``""``. A lone seat
    (solo play) ranks 1 when it met the game's victory condition and 2 when
    it did not."""
    n = len(ranks)
    if n == 0:
        return "no seats"
    if n == 1:
        return "" if ranks[0] in (1, 2) else f"a solo seat ranks 1 (won) or 2 (lost), not {ranks[0]}"
    if any(not 1 <= r <= n for r in ranks):
        return f"a rank outside 1..{n}"
    for r in set(ranks):
        if r != 1 + sum(1 for x in ranks if x < r):
            return f"rank {r} does not follow the {sum(1 for x in ranks if x < r)} better seats"
    return ""


def ranks_from_scores(keys):
    """Competition ranks from per-seat sort keys (tuples compared
    lexicographically, higher is better): the game's own tie-breaks."""
    keys = [tuple(k) if isinstance(k, (tuple, list)) else (k,) for k in keys]
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


def rank_rewards(ranks, utility="zero_sum"):
    """Default terminal rewards from ranks (float32 per seat; see the module docstring)."""
    n = len(ranks)
    if utility == "solo" or n == 1:
        return np.array([1.0 if ranks[0] == 1 else -1.0], dtype=np.float32)
    out = np.zeros(n, dtype=np.float64)
    for i, r in enumerate(ranks):
        tied = sum(1 for x in ranks if x == r)
        positions = np.arange(r - 1, r - 1 + tied)          # 0-based places the tie shares
        out[i] = np.mean(1.0 - 2.0 * positions / (n - 1))
    return out.astype(np.float32)


def seat_results(ranks, utility="zero_sum"):
    """``"win"`` / ``"draw"`` / ``"loss"`` per seat from ranks."""
    if utility == "solo" or len(ranks) == 1:
        return [WIN if ranks[0] == 1 else LOSS]
    firsts = sum(1 for r in ranks if r == 1)
    return [(WIN if firsts == 1 else DRAW) if r == 1 else LOSS for r in ranks]
