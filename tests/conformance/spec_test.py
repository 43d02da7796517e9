"""``game.spec_for(config)`` describes what the envs do: seats, spaces,
layouts, bounds, limits."""
import numpy as np
from gymnasium import spaces

from dragongym.envs.core.game import COMMON_FIELDS
from dragongym.envs.core.spec import GameSpec, validate_layout
from tests.conformance.play import decide, random_play


def test_the_spec_describes_the_configuration(case):
    game, spec, config = case.game, case.spec, case.config
    assert isinstance(spec, GameSpec)
    assert spec.name == game.name and spec.config == config
    assert game.spec_for(game.make_config(**case.kwargs)) == spec, "spec_for is not a function of the config"
    validate_layout(spec)
    assert spec.obs_layout and spec.action_layout, "the layouts must be declared"
    assert sum(b.size for b in spec.obs_layout.values()) == spec.obs_size
    assert sum(a.size for a in spec.action_layout.values()) == spec.num_actions
    assert spec.max_decisions > 0
    if game.truncation_option:
        assert spec.turn_limit == getattr(config, game.truncation_option) and spec.turn_unit
    for name in COMMON_FIELDS:
        assert name in game.dtype.names, f"the record lacks common field {name}"
    max_seats = game.dtype["rank"].shape[0] if game.dtype["rank"].shape else 1
    assert game.dtype["rewards"].shape == game.dtype["score"].shape == game.dtype["rank"].shape
    assert 1 <= spec.num_seats <= max_seats
    low, high = game.obs_bounds
    assert np.isfinite(low) and np.isfinite(high) and low < high, f"obs_bounds {game.obs_bounds} must be finite"
    state = case.new_game(0)
    assert int(state[0]["num_players"]) == spec.num_seats


def test_the_aec_env_follows_the_spec(case):
    spec = case.spec
    env = case.make()
    assert env.possible_agents == list(spec.roles)
    low, high = case.game.obs_bounds
    for agent in env.possible_agents:
        space = env.observation_space(agent)
        assert isinstance(space, spaces.Dict) and set(space.spaces) == {"observation", "action_mask"}
        box = space["observation"]
        assert box.shape == (spec.obs_size,) and box.dtype == np.float32
        assert (box.low == low).all() and (box.high == high).all()
        mask = space["action_mask"]
        assert mask.shape == (spec.num_actions,) and mask.dtype == np.int8
        assert env.action_space(agent) == spaces.Discrete(spec.num_actions)
    env.reset(seed=0)
    assert env.agents == list(spec.roles)
    obs = env.observe(env.agent_selection)
    assert obs["observation"].shape == (spec.obs_size,) and obs["observation"].dtype == np.float32


def test_the_vector_env_follows_the_spec(case):
    spec = case.spec
    B = 3
    venv = case.make_vec(B)
    assert venv.spec == spec
    obs, mask, to_play = venv.reset()
    assert obs.shape == (B, spec.obs_size) and obs.dtype == np.float32
    assert mask.shape == (B, spec.num_actions)
    assert ((0 <= to_play) & (to_play < spec.num_seats)).all()
    _, _, rewards, *_ = venv.step(venv.sample_actions(np.random.default_rng(0)))
    assert rewards.shape == (B, spec.num_seats)


def test_every_observation_is_finite_within_bounds_and_the_same_through_the_env(case):
    """Every seat's view of every position of random games, through the Game
    contract and through the AEC env (which must hand out exactly that)."""
    game, spec = case.game, case.spec
    low, high = game.obs_bounds
    for seed in (0, 1):
        for state, _ in random_play(game, case.config, seed):
            for seat in range(spec.num_seats):
                o = game.observation_of(state, seat)
                assert o.dtype == np.float32 and o.shape == (spec.obs_size,)
                assert np.isfinite(o).all(), f"seat {seat}: non-finite entries at {np.flatnonzero(~np.isfinite(o))}"
                out = np.flatnonzero((o < low) | (o > high))
                assert not len(out), f"seat {seat}: entries {out[:10]} = {o[out[:10]]} outside {game.obs_bounds}"
    env = case.make()
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    while True:
        for seat, agent in enumerate(env.possible_agents):
            assert np.array_equal(env.observe(agent)["observation"], game.observation_of(env.state_record, seat))
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(decide(rng, obs["action_mask"]))


def test_actions_have_distinct_names_and_the_picture_is_text(case):
    game = case.game
    for state, mask in random_play(game, case.config, 0):
        legal = [int(a) for a in np.flatnonzero(mask)]
        names = [game.action_to_string(state, a) for a in legal]
        assert all(isinstance(t, str) and t for t in names)
        assert len(set(names)) == len(names), f"two legal actions share a name: {names}"
        for a, text in zip(legal, names):
            assert game.string_to_action(state, text) == a
        picture = game.render_ansi(state)
        assert isinstance(picture, str) and picture.strip()
