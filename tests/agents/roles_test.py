"""Seats that are roles (Factions, tests/agents/rolegame.py): seat rotation
rotates who plays which role, and tables and saved results name seats by role."""
import json

from dragongym.agents import match_table, play_match
from dragongym.agents.tournament import load_tournament, run_tournament

ROLES = ("north", "east", "south")


def test_seat_rotation_rotates_who_plays_which_role(factions):
    result = play_match(factions, ["random", "random", "random"], num_games=6, seed=0)
    assert result.roles == ("north", "east", "south") and result.seats_are_roles
    assert [g.seating for g in result.games[:3]] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    for s in result.stats:
        assert s.seats == [2, 2, 2]                    # every agent played every role twice
        assert sum(t.wins for t in s.by_seat) == s.wins
        assert sum(t.total_rank for t in s.by_seat) == s.total_rank
    text = match_table(result)
    overall, by_role = text.split("\n\n")
    assert by_role.splitlines()[0].split()[:3] == ["agent", "role", "games"]
    rows = [line.split() for line in by_role.splitlines()[2:]]
    assert [(r[0], r[1], r[2]) for r in rows] == [(f"random#{k}", role, "2") for k in range(3)
                                                  for role in ("north", "east", "south")]


def test_a_tournament_names_seats_by_role(factions, tmp_path):
    agents = ["random", "random", "mcts", "random"]
    result = run_tournament(factions, agents, num_games=12, seed=1, progress=False,
                            agent_kwargs={"mcts": {"simulations": 5}})
    assert result.roles == ROLES and result.seats_are_roles
    for a in result.agents:
        # 4 lineups of 3 agents x 3 rotations: every agent plays every role 3 times
        assert a.games == 9 and a.seats == [3, 3, 3]
    result.save(tmp_path)
    data = json.loads((tmp_path / "tournament.json").read_text())
    assert data["roles"] == list(ROLES) and data["seats_are_roles"] is True
    for entry, a in zip(data["agents"], result.agents):
        assert list(entry["seats"]) == list(ROLES)
        assert [entry["seats"][r]["wins"] for r in ROLES] == [t.wins for t in a.by_seat]
    back = load_tournament(tmp_path)
    assert back.roles == ROLES and back.as_dict() == result.as_dict()
    role_rows = result.table().split("\n\n")[1].splitlines()[2:]
    assert {line.split()[1] for line in role_rows} == set(ROLES)
