"""A stalling player, for the check that every phase of a game is finite.

The player picks at random among the legal actions other than a game's
"pass / done" actions, taking one of those only when nothing else is legal.
If every optional act of a phase can be taken only so often, such a player
still reaches the phase's end and the game its outcome; a free act that could
be repeated without end holds the game open (Dragon Pass's Dragontooth
Runners, summoned again and again until its game version 11)."""
import numpy as np

from dragongym.envs.core.outcome import ranking_problem


def play_stalling(game, config, seed, rng, stalling, stage_of=None, max_stretch=5000):
    """Play one game of ``config`` from ``seed`` with every seat stalling:
    never one of the actions ``stalling`` while another is legal. Fails (an
    ``AssertionError`` naming the act) if the game reaches its spec's decision
    limit, or, with ``stage_of(state) -> key``, if one key lasts
    ``max_stretch`` decisions in a row. Returns ``(decisions, status)``: the
    decisions made and the final status, 1 (over) or 2 (truncated by the
    game's own turn limit); the ranking is checked valid."""
    limit = game.spec_for(config).decision_limit
    state = game.new_states(1)
    act, err = np.zeros(1, np.int64), np.zeros(1, np.int8)
    game.reset(state, np.array([seed], dtype=np.uint64), config)
    decisions, stretch, stage = 0, 0, None
    while int(state[0]["status"]) == 0:
        legal = np.flatnonzero(np.asarray(game.mask_of(state)).reshape(-1))
        other = legal[~np.isin(legal, stalling)]
        act[0] = rng.choice(other) if len(other) else legal[0]
        if stage_of is not None:
            now = stage_of(state)
            stretch = stretch + 1 if now == stage else 0
            stage = now
        assert stretch < max_stretch and decisions < limit, \
            f"game {seed}: {'stage ' + str(stage) if stage_of else 'the game'} goes on after " \
            f"{decisions} decisions ({game.action_to_string(state, int(act[0]))})"
        game.step(state, act, err)
        assert err[0] == 0
        decisions += 1
    num_seats = game.spec_for(config).num_seats
    assert int(state[0]["status"]) in (1, 2)
    assert not ranking_problem([int(r) for r in state[0]["rank"][:num_seats]])
    return decisions, int(state[0]["status"])
