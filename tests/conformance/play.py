"""Random play through the Game contract (no adapter), shared by the
conformance tests, and the pure-Python side of the determinism test.

Run as a script, ``python -m tests.conformance.play CASES_JSON`` plays the
trajectories of every case named in the JSON (``[[name, options, seed,
max_steps], ...]``), through the Game contract and through the vector API, and
prints ``{"trajectories": [{"game": [...], "vector": [...]}, ...], "warnings":
[...]}`` as JSON; the test runs it under ``NUMBA_DISABLE_JIT=1`` and compares.
"""
import hashlib
import json
import sys
import warnings

import numpy as np

STATUS_RUNNING = 0


def decide(rng, mask):
    """A uniformly random legal action of ``mask`` drawn from ``rng``."""
    return int(rng.choice(np.flatnonzero(mask)))


def random_play(game, config, seed, max_steps=None):
    """Yield ``(state, mask)`` at every position of one random game: the live
    1-record array (copy what you keep) and the mover's legal mask (all zero
    once the game is over). Actions are drawn from ``default_rng(seed)``; the
    game's seed is ``seed`` too. At most ``max_steps`` decisions (None: until
    the game ends)."""
    states = game.new_states(1)
    game.reset(states, np.array([seed], dtype=np.uint64), config)
    rng = np.random.default_rng(seed)
    spec = game.spec_for(config)
    mask = np.zeros((1, spec.num_actions), dtype=np.int8)
    actions = np.zeros(1, dtype=np.int32)
    errors = np.zeros(1, dtype=np.int8)
    steps = 0
    while True:
        game.legal_mask(states, mask)
        yield states, mask[0]
        if int(states[0]["status"]) != STATUS_RUNNING:
            return
        if max_steps is not None and steps >= max_steps:
            return
        actions[0] = decide(rng, mask[0])
        errors[0] = 0
        game.step(states, actions, errors)
        if errors[0]:
            raise AssertionError(f"{game.name}: legal action {int(actions[0])} rejected: "
                                 f"{game.error_message(int(errors[0]))}")
        steps += 1


def changed_fields(before, state):
    """Names of the fields of ``state`` whose bytes differ from ``before``
    (bytes of a record of the same dtype)."""
    old = np.frombuffer(before, dtype=state.dtype)
    return [name for name in state.dtype.names if old[name].tobytes() != state[name].tobytes()]


def digest(*arrays):
    h = hashlib.sha1()
    for a in arrays:
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def trajectory(game, config, seed, max_steps):
    """One hash per position: the record's bytes, the mover's mask and every
    seat's observation."""
    spec = game.spec_for(config)
    out = []
    for state, mask in random_play(game, config, seed, max_steps):
        views = [game.observation_of(state, seat) for seat in range(spec.num_seats)]
        out.append(digest(state, mask, *views))
    return out


VEC_GAMES = 4


def vec_trajectory(name, options, seed, steps):
    """One hash per step of a batch of :data:`VEC_GAMES` games through the
    vector API (``dragongym.make_vec``, auto-reset included): every record,
    observation, mask and reward, with random legal actions from ``seed``."""
    import dragongym
    from tests.conformance.cases import registered

    with registered(name):
        venv = dragongym.make_vec(name, VEC_GAMES, seed=seed, num_threads=1, **options)
        obs, masks, to_play = venv.reset()
        rng = np.random.default_rng(seed)
        out = [digest(venv.states, obs, masks, to_play)]
        for _ in range(steps):
            obs, masks, rewards, term, trunc, to_play, _ = venv.step(venv.sample_actions(rng))
            out.append(digest(venv.states, obs, masks, rewards, term, trunc, to_play))
    return out


def main(argv):
    from dragongym.envs.core.config import options_from_json
    from tests.conformance.cases import load_game

    cases = json.loads(argv[0])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        results = []
        for name, options, seed, max_steps in cases:
            game = load_game(name)
            options = options_from_json(game.config_cls, options)   # JSON's lists are the options' tuples
            results.append({"game": trajectory(game, game.make_config(**options), seed, max_steps),
                            "vector": vec_trajectory(name, options, seed, max_steps // 4)})
    seen = sorted({(w.category.__name__, str(w.message), w.filename) for w in caught})
    json.dump({"trajectories": results, "warnings": seen}, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1:])
