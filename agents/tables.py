"""Plain-text result tables of matches and tournaments (the CLI prints these).

Columns follow the game's outcome: wins, draws and losses (a solo game has no
draws: its seat wins or loses), the mean rank where there is more than one
seat, the mean score named after the game's score (``spec.score_name``, e.g.
"mean legend points") where it has one. Where the seats are roles, a second
table gives each agent's results in each role.
"""
import math


def format_table(headers, rows):
    """Plain-text table: first column left-aligned, the others right-aligned."""
    cells = [list(headers)] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[k]) for row in cells) for k in range(len(headers))]
    lines = []
    for row in cells:
        parts = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
        lines.append("  ".join(parts))
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _solo(result):
    return result.utility == "solo"


def _outcome_columns(result, tally):
    """Header/value pairs of a tally's wins, draws (not in solo games) and losses."""
    cols = [("wins", tally.wins)]
    if not _solo(result):
        cols.append(("draws", tally.draws))
    cols.append(("losses", tally.losses))
    return cols


def _rank_score_columns(result, tally):
    """Header/value pairs of a tally's mean rank (not in solo games: it only
    repeats the win rate) and mean score (where the game has a score)."""
    cols = []
    if not _solo(result):
        cols.append(("mean rank", f"{tally.mean_rank:.2f}"))
    if result.score_name:
        cols.append((f"mean {result.score_name}", f"{tally.mean_score:.2f}"))
    return cols


def _table(columns_per_row):
    headers = [h for h, _ in columns_per_row[0]]
    return format_table(headers, [[v for _, v in cols] for cols in columns_per_row])


def match_table(result):
    """The table of a :class:`dragongym.agents.match.MatchResult`: one row per
    agent, then (where seats are roles) one row per agent and role."""
    rows = []
    for s in result.stats:
        rows.append([("agent", s.label), ("games", s.games)] + _outcome_columns(result, s)
                    + [("win rate", f"{100 * s.win_rate:.1f}%")] + _rank_score_columns(result, s)
                    + [("mean reward", f"{s.mean_reward:+.3f}"), ("mean length", f"{s.mean_length:.1f}")])
    text = _table(rows)
    if result.seats_are_roles:
        text += "\n\n" + role_table(result, result.stats)
    return text


def role_table(result, stats):
    """Each agent's results in each role it played (``stats``: its
    :class:`AgentStats`; roles named by ``result.roles``)."""
    rows = []
    for s in stats:
        for role, t in zip(result.roles, s.by_seat):
            if t.games:
                rows.append([("agent", s.label), ("role", role), ("games", t.games)]
                            + _outcome_columns(result, t) + [("win rate", f"{100 * t.win_rate:.1f}%")]
                            + _rank_score_columns(result, t) + [("mean reward", f"{t.mean_reward:+.3f}")])
    return _table(rows) if rows else "(no games)"


def tournament_table(result):
    """The table of a :class:`dragongym.agents.tournament.TournamentResult`:
    win rates with Wilson 95% intervals (all games, and the decided ones where
    draws are possible), mean rank and score, mean reward and length, and the
    rating (absent where games had one seat: agents never met)."""
    rated = any(not math.isnan(a.mu) for a in result.agents)
    rows = []
    for a in result.agents:
        lo, hi = a.win_ci
        cols = [("agent", a.label), ("games", a.games)] + _outcome_columns(result, a)
        cols.append(("win rate [95% CI]", f"{100 * a.win_rate:.1f}% [{100 * lo:.0f},{100 * hi:.0f}]"))
        if not _solo(result):
            dlo, dhi = a.decided_ci
            decided = f"{100 * a.decided_win_rate:.1f}% [{100 * dlo:.0f},{100 * dhi:.0f}]" if a.decided else "-"
            cols.append(("decided win rate [95% CI]", decided))
        cols += _rank_score_columns(result, a)
        cols += [("mean reward", f"{a.mean_reward:+.3f}"), ("mean length", f"{a.mean_length:.0f}")]
        if rated:
            cols.append(("rating (mu ± 1.96 sigma)", f"{a.mu:.1f} ± {1.96 * a.sigma:.1f}"))
        rows.append(cols)
    text = _table(rows)
    if result.seats_are_roles:
        text += "\n\n" + role_table(result, result.agents)
    return text
