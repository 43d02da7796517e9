"""The heuristics decide as before their speed-ups (issue 30, "Training at
the speed of the env"): seeded games of the Dragonhunt and Dragon Pass
heuristics, against themselves, against the random bot and, for Dragonhunt,
against its first version, replay the very actions stored in
``heuristic_decisions.json``, which the code before the speed-ups played
(same state and same generator -> same action).

``python -m tests.agents.heuristic_decisions_test`` prints the file's contents
anew (the golden actions must only ever come from a version known to decide
as the reference does; overwrite it on purpose, never to make a test pass).
"""
import json
import sys
from pathlib import Path

import numpy as np
import pytest

import dragongym
from dragongym.agents import make_agent

GOLDEN = Path(__file__).with_name("heuristic_decisions.json")

H2, H1 = "dragonhunt.heuristic", "dragonhunt.heuristic_v1"
DP = "dragon_pass.heuristic"
MATCHES = {
    # name: (game, agent per seat, options)
    "dragonhunt_h2_h2": ("dragonhunt", [H2, H2], {"max_hands": 12}),
    "dragonhunt_h2_random": ("dragonhunt", [H2, "random"], {"max_hands": 12}),
    "dragonhunt_random_h2": ("dragonhunt", ["random", H2], {"max_hands": 12}),
    "dragonhunt_h1_h2": ("dragonhunt", [H1, H2], {"max_hands": 12}),
    "dragonhunt_h1_random": ("dragonhunt", [H1, "random"], {"max_hands": 12}),
    "dragonhunt_3p": ("dragonhunt", [H2, "random", H2], {"num_players": 3, "max_hands": 8}),
    "dragon_pass_h_h": ("dragon_pass", [DP, DP], {"max_turns": 4}),
    "dragon_pass_h_random": ("dragon_pass", [DP, "random"], {"max_turns": 3}),
    "dragon_pass_random_h": ("dragon_pass", ["random", DP], {"max_turns": 3}),
    "dragon_pass_18_6": ("dragon_pass", [DP, DP], {"scenario": "18.6", "max_turns": 3}),
}
SEEDS = (0, 1)


def play_seeded(game_name, agent_ids, seed, options):
    """The actions of one game of ``agent_ids`` from reset seed ``seed``, seat
    ``s`` drawing from ``default_rng([seed, s])``: the heuristics read the
    state (``act_state``), the random bot the legal mask."""
    game = dragongym.get_game(game_name)
    config = game.make_config(**options)
    agents = [make_agent(a, game=game) for a in agent_ids]
    rngs = [np.random.default_rng([seed, s]) for s in range(len(agents))]
    states = game.new_states(1)
    game.reset(states, np.array([seed], dtype=np.int64), config)
    errors = np.zeros(1, dtype=np.int8)
    mask = np.zeros((1, game.spec_for(config).num_actions), dtype=np.int8)
    actions = []
    while int(states[0]["status"]) == 0:
        seat = int(states[0]["to_play"])
        agent = agents[seat]
        if agent.uses_state:
            action = agent.act_state(game, states, seat, rngs[seat])
        else:
            game.legal_mask(states, mask)
            action = agent.act(None, mask[0], rngs[seat])
        game.step(states, np.array([action], dtype=np.int32), errors)
        assert errors[0] == 0, (game_name, seed, len(actions), action)
        actions.append(int(action))
    return actions


def golden_actions():
    """``{"<match>_<seed>": [action, ...]}`` of every match and seed."""
    return {f"{name}_{seed}": play_seeded(game, ids, seed, options)
            for name, (game, ids, options) in MATCHES.items() for seed in SEEDS}


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_the_heuristics_replay_the_reference_actions(name):
    golden = json.loads(GOLDEN.read_text())
    game, ids, options = MATCHES[name]
    for seed in SEEDS:
        want = golden[f"{name}_{seed}"]
        got = play_seeded(game, ids, seed, options)
        first = next((k for k, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
        assert got == want, f"{name}, seed {seed}: decision {first} of {len(want)} differs"
        assert len(want) > 50          # a real game, not an empty record


if __name__ == "__main__":
    json.dump(golden_actions(), sys.stdout, separators=(",", ":"))
