"""How long a game's bot games last: the measurement behind a default turn limit.

    python -m dragongym.benchmarks.game_length --game dragonhunt --games 200 --limit 40

plays ``--games`` seat-rotated games of the game's own heuristic against
itself (``Game.heuristic_agent``, or ``--agent``) with the game's truncation
option (``Game.truncation_option``) set to ``--limit``, and reports, for each
turn ``t`` (in the spec's ``turn_unit``), the share of games decided by the
rules within ``t`` turns, and the median turn of the decided ones. A default
limit should let most bot games end by the rules, so that a first match,
evaluation or training run shows wins and losses rather than draws.
"""
import argparse
import json
import sys

import numpy as np

import dragongym
from dragongym.envs.core.game import STATUS_TERMINATED
from dragongym.envs.core.rng import seed_sequence


def play_to_the_end(env, agents, seed, rngs):
    """Play one game in ``env`` (reset with ``seed``); returns the final record."""
    env.reset(seed=seed)
    for agent in agents:
        agent.reset()
    seat_of = {name: s for s, name in enumerate(env.possible_agents)}
    for name in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
            continue
        seat = seat_of[name]
        player = agents[seat]
        if player.uses_state:
            action = player.act_state(env.game, env.state_record, seat, rngs[seat])
        else:
            action = player.act(obs["observation"], obs["action_mask"], rngs[seat])
        env.step(action)
    return env.clone_state()


def measure(game_name, num_games, limit, seed=0, agent_id=None, log=None, **options):
    """Play ``num_games`` bot games with the truncation option at ``limit``.

    Returns a dict: ``turns`` (turns started in each game), ``decided`` (each
    game ended by the rules), ``decided_by`` (``{t: share of all games decided
    within t turns}`` for ``t = 1..limit``), ``median_decided_turn`` and the
    settings.
    """
    from dragongym.agents import make_agent

    game = dragongym.get_game(game_name)
    option = game.truncation_option
    if option is None:
        raise ValueError(f"{game_name} has no truncation option to choose a default for")
    agent_id = agent_id or game.heuristic_agent
    if agent_id is None:
        raise ValueError(f"{game_name} has no heuristic agent; name one with agent_id")
    options = {**options, option: limit}
    env = dragongym.make(game_name, **options)
    seats = env.spec.num_seats
    agents = [make_agent(agent_id, game=game) for _ in range(seats)]
    seeds = seed_sequence(seed, num_games)
    turns, decided = [], []
    for i in range(num_games):
        rngs = [np.random.default_rng([seed, i, s]) for s in range(seats)]
        final = play_to_the_end(env, agents, int(seeds[i]), rngs)
        turns.append(game.turns_played(final))
        decided.append(int(final["status"][0]) == STATUS_TERMINATED)
        if log is not None:
            log(f"game {i + 1}/{num_games}: {'decided' if decided[-1] else 'undecided'} "
                f"in {turns[-1]} {env.spec.turn_unit}")
    env.close()
    turns, decided = np.array(turns), np.array(decided)
    decided_by = {t: float(np.mean(decided & (turns <= t))) for t in range(1, limit + 1)}
    median = float(np.median(turns[decided])) if decided.any() else None
    return {"game": game_name, "agent": agent_id, "option": option, "limit": limit,
            "turn_unit": env.spec.turn_unit, "games": num_games, "seed": seed,
            "options": {k: v for k, v in options.items() if k != option},
            "turns": turns.tolist(), "decided": decided.tolist(), "decided_by": decided_by,
            "median_decided_turn": median}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, choices=dragongym.list_games())
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--limit", type=int, default=40, help="the truncation option's value")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent", default=None, help="agent id (default: the game's heuristic)")
    parser.add_argument("--out", default=None, help="write the result as JSON here")
    args, rest = parser.parse_known_args(argv)
    from dragongym.envs.core.options import parse_game_options
    options = parse_game_options(rest, dragongym.get_game(args.game))
    result = measure(args.game, args.games, args.limit, seed=args.seed, agent_id=args.agent,
                     log=lambda line: print(line, file=sys.stderr, flush=True), **options)
    unit = result["turn_unit"]
    print(f"{result['game']}: {result['games']} games of {result['agent']} against itself, "
          f"{result['option']}={result['limit']}")
    for t in sorted(result["decided_by"]):
        if t % 2 == 0 or t == 1:
            print(f"  decided within {t:3d} {unit}: {100 * result['decided_by'][t]:5.1f}%")
    print(f"  median {unit[:-1] if unit.endswith('s') else unit} of the decided games: "
          f"{result['median_decided_turn']}")
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
