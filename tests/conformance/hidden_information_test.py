"""What a seat cannot know does not reach its observation: the positions
``game.hidden_variants(state, seat, rng)`` returns (and ``determinize``
makes) differ only in what ``seat`` cannot know, so its observation, and its
legal mask when it is on move, are the same in all of them."""
import numpy as np

from tests.conformance.play import random_play

RNG_FIELDS = ("seed", "rng_counter")
POSITIONS_PER_GAME = 25


def _sampled_positions(case, seed):
    states = [s.copy() for s, _ in random_play(case.game, case.config, seed)]
    every = max(1, len(states) // POSITIONS_PER_GAME)
    return states[::every] + ([states[-1]] if (len(states) - 1) % every else [])


def _fields_differing(a, b):
    return [name for name in a.dtype.names if a[name].tobytes() != b[name].tobytes()]


def test_hidden_variants_keep_the_seats_observation(case):
    game, spec = case.game, case.spec
    rng = np.random.default_rng(0)
    differing_fields = set()
    checked = 0
    for seed in (0, 1):
        for state in _sampled_positions(case, seed):
            original = state.tobytes()
            for seat in range(spec.num_seats):
                seen = game.observation_of(state, seat)
                on_move = int(state[0]["status"]) == 0 and int(state[0]["to_play"]) == seat
                mask = game.mask_of(state)
                variants = list(game.hidden_variants(state, seat, rng))
                assert state.tobytes() == original, "hidden_variants changed the position it was given"
                determinized = state.copy()
                game.determinize(determinized, seat, rng)
                assert variants, "hidden_variants returned nothing"
                for v in variants + [determinized]:
                    assert v.dtype == state.dtype and v.shape == (1,)
                    assert game.check_state(v) == "", f"a variant is not a sound position: {game.check_state(v)}"
                    for public in ("num_players", "to_play", "status"):
                        assert v[public][0] == state[public][0], f"a variant changed {public}"
                    assert np.array_equal(game.observation_of(v, seat), seen), \
                        f"seat {seat} can tell a variant from the position (fields " \
                        f"{_fields_differing(v, state)} differ)"
                    if on_move:
                        assert np.array_equal(game.mask_of(v), mask), \
                            f"the legal actions of seat {seat}, on move, differ in a variant"
                    differing_fields.update(_fields_differing(v, state))
                    checked += 1
    assert checked
    if spec.hidden_information:
        assert differing_fields, "the game declares hidden information but no variant differs"
        assert differing_fields - set(RNG_FIELDS), (
            "the game declares hidden information but its variants only reseed the RNG; "
            f"fields changed: {sorted(differing_fields)}")
    if spec.chance:
        assert differing_fields & set(RNG_FIELDS), "future draws are unknowable: variants should reseed"
