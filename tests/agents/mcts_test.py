"""MCTS search controls: early stop, prior-only decisions, PUCT prior, the
Dragonhunt value function, simulation calibration."""
import numpy as np
import pytest

import dragongym.agents  # noqa: F401  (registers the agents and the Dragonhunt value function)
from dragongym.agents.dragonhunt_heuristic import DragonhuntHeuristic, PRIOR_ONLY_PHASES, evaluate, prior_only
from dragongym.agents.mcts import MCTSAgent, calibrate_simulations
from dragongym.envs.dragonhunt import view as V
from dragongym.envs.dragonhunt.game import GAME
from tests.agents.agents_test import _card_position, _hidden_variant


def _positions(count, searched=True, seed=21, max_hands=3):
    """Positions from a heuristic self-play game: decisions with more than one
    legal action that MCTS searches (``searched``) or leaves to its prior."""
    cfg = GAME.make_config(num_players=2, max_hands=max_hands)
    state = GAME.new_states(1)
    GAME.reset(state, np.array([seed], dtype=np.uint64), cfg)
    bots = [DragonhuntHeuristic(GAME), DragonhuntHeuristic(GAME)]
    rngs = [np.random.default_rng([seed, s]) for s in range(2)]
    err = np.zeros(1, dtype=np.int8)
    out, k = [], 0
    while int(state[0]["status"]) == 0 and len(out) < count:
        p = V.to_play(state)
        if len(V.legal_actions(state)) > 1 and prior_only(state) != searched:
            k += 1
            if k % 3 == 0:
                out.append((state.copy(), p))
        GAME.step(state, np.array([bots[p].act_state(GAME, state, p, rngs[p])]), err)
    assert len(out) == count
    return out


@pytest.mark.parametrize("prior_weight", [0.0, 0.5])
def test_early_stop_picks_what_the_full_search_picks(prior_weight):
    saved = 0
    for i, (state, p) in enumerate(_positions(12)):
        kw = dict(simulations=30, rollout="heuristic", rollout_depth=6, prior_weight=prior_weight)
        full = MCTSAgent(GAME, early_stop=False, **kw)
        fast = MCTSAgent(GAME, early_stop=True, **kw)
        a = full.act_state(GAME, state, p, np.random.default_rng(i))
        b = fast.act_state(GAME, state, p, np.random.default_rng(i))
        assert a == b
        assert full.last_stats["simulations"] == 30 and not full.last_stats["stopped_early"]
        assert fast.last_stats["simulations"] <= 30
        if fast.last_stats["stopped_early"]:
            # the leader could not be overtaken any more
            visits = sorted(fast.last_stats["root_visits"].values(), reverse=True) + [0]
            assert visits[0] > visits[1] + 30 - fast.last_stats["simulations"]
        saved += 30 - fast.last_stats["simulations"]
    if prior_weight > 0:
        assert saved > 0, "early stop never triggered"


def test_early_stop_with_a_time_budget_plays_legally():
    state, p = _positions(1)[0]
    agent = MCTSAgent(GAME, time_ms=30, rollout="heuristic", rollout_depth=6, prior_weight=0.5)
    a = agent.act_state(GAME, state, p, np.random.default_rng(0))
    assert GAME.mask_of(state)[a] == 1 and agent.last_stats["simulations"] >= 1


def test_prior_only_decisions_play_the_heuristic_without_search():
    assert PRIOR_ONLY_PHASES
    for i, (state, p) in enumerate(_positions(6, searched=False)):
        agent = MCTSAgent(GAME, simulations=30, rollout="heuristic", rollout_depth=6, prior_only=True)
        a = agent.act_state(GAME, state, p, np.random.default_rng(i))
        assert agent.last_stats["simulations"] == 0 and agent.last_stats["prior_only"]
        assert a == DragonhuntHeuristic(GAME).act_state(GAME, state, p, np.random.default_rng(i))
        # turned off, the same decision is searched
        searching = MCTSAgent(GAME, simulations=5, rollout="heuristic", rollout_depth=6, prior_only=False)
        searching.act_state(GAME, state, p, np.random.default_rng(i))
        assert searching.last_stats["simulations"] > 0
    # random rollouts have no prior agent: everything is searched
    state, p = _positions(1, searched=False)[0]
    agent = MCTSAgent(GAME, simulations=5, rollout="random", rollout_depth=6, prior_only=True)
    agent.act_state(GAME, state, p, np.random.default_rng(0))
    assert agent.last_stats["simulations"] > 0
    # and it is off by default
    agent = MCTSAgent(GAME, simulations=5, rollout="heuristic", rollout_depth=6)
    agent.act_state(GAME, state, p, np.random.default_rng(0))
    assert agent.last_stats["simulations"] > 0


def test_a_named_prior_only_set_is_the_one_its_game_registered_under_that_name():
    from dragongym.agents.search_hooks import _HOOKS, PRIOR_ONLY, register_prior_only
    state, p = _positions(1, searched=True)[0]
    register_prior_only("dragonhunt", lambda s: True, name="everything")
    try:
        agent = MCTSAgent(GAME, simulations=5, rollout="heuristic", rollout_depth=6, prior_only="everything")
        a = agent.act_state(GAME, state, p, np.random.default_rng(0))
        assert agent.last_stats["simulations"] == 0 and agent.last_stats["prior_only"]
        assert a == DragonhuntHeuristic(GAME).act_state(GAME, state, p, np.random.default_rng(0))
        # True is still the default set, which searches this decision
        agent = MCTSAgent(GAME, simulations=5, rollout="heuristic", rollout_depth=6, prior_only=True)
        agent.act_state(GAME, state, p, np.random.default_rng(0))
        assert agent.last_stats["simulations"] > 0
    finally:
        _HOOKS["dragonhunt"].pop(PRIOR_ONLY + ":everything")
    with pytest.raises(ValueError, match="prior_only='everything': dragonhunt registers no such set"):
        MCTSAgent(GAME, simulations=5, rollout="heuristic", prior_only="everything")


def test_prior_only_and_value_function_use_only_public_information():
    state = _card_position()
    other = _hidden_variant(state)
    assert prior_only(state) == prior_only(other)
    assert np.array_equal(evaluate(state), evaluate(other))
    for state, p in _positions(8) + _positions(4, searched=False):
        v = evaluate(state)
        assert v.shape == (2,) and np.all(np.abs(v) <= 1)
        copy = state.copy()
        GAME.determinize(copy, p, np.random.default_rng(5))
        assert np.array_equal(evaluate(copy), v)


def test_prior_weight_keeps_the_search_near_the_prior():
    """With a strong prior weight the heuristic's pick collects most root visits."""
    for i, (state, p) in enumerate(_positions(4)):
        agent = MCTSAgent(GAME, simulations=40, rollout="heuristic", rollout_depth=6,
                          prior_weight=0.95, early_stop=False)
        agent.act_state(GAME, state, p, np.random.default_rng(i))
        visits = agent.last_stats["root_visits"]
        assert max(visits.values()) >= 20 and sum(visits.values()) == 40


@pytest.mark.parametrize("prior_weight", [0.0, 0.5])
def test_mcts_never_reads_hidden_state_with_any_prior_weight(prior_weight):
    state = _card_position()
    other = _hidden_variant(state)
    agent = MCTSAgent(GAME, simulations=30, rollout="heuristic", rollout_depth=20, prior_weight=prior_weight)
    a = agent.act_state(GAME, state, 1, np.random.default_rng(7))
    stats = agent.last_stats
    assert a == agent.act_state(GAME, other, 1, np.random.default_rng(7)) and stats == agent.last_stats


def test_calibrate_simulations_reports_a_budget():
    out = calibrate_simulations("dragonhunt", time_ms=50, decisions=4, config={"max_hands": 2},
                                rollout="heuristic", rollout_depth=4)
    assert out["searches"] == 4 and out["simulations"] >= 1 and out["ms_per_sim"] > 0
    assert out["simulations"] == max(1, int(50 / out["ms_per_sim"]))


CHECKPOINT = "training/checkpoints/dragonhunt_2p_scratch_s0.zip"


def test_a_trained_checkpoint_scores_positions_with_its_value_head():
    """``value=<checkpoint>``: at the rollout cap each seat's value is the
    checkpoint's value head on that seat's own observation, clipped to -1..1."""
    from dragongym.agents import make_agent
    net = make_agent(CHECKPOINT, game=GAME)
    agent = MCTSAgent(GAME, simulations=6, rollout_depth=0, value=CHECKPOINT)
    for state, p in _positions(3):
        seats = V.num_players(state)
        want = np.clip([net.values(GAME.observation_of(state, q)[None])[0] for q in range(seats)], -1, 1)
        assert np.allclose(agent._value(state, seats), want, atol=1e-6)
        assert GAME.mask_of(state)[agent.act_state(GAME, state, p, np.random.default_rng(0))]


def test_a_trained_checkpoint_is_the_rollout_agent_and_the_prior():
    """``rollout=<checkpoint>``: with a tiny budget the search plays the policy's own pick."""
    from dragongym.agents import make_agent
    net = make_agent(CHECKPOINT, game=GAME)
    agent = MCTSAgent(GAME, simulations=1, rollout=CHECKPOINT, rollout_depth=4)
    for i, (state, p) in enumerate(_positions(3)):
        pick = net.act(GAME.observation_of(state, p), GAME.mask_of(state), np.random.default_rng(i))
        assert agent.act_state(GAME, state, p, np.random.default_rng(i)) == pick


def test_a_value_agent_without_a_value_head_is_refused():
    with pytest.raises(ValueError, match="no values"):
        MCTSAgent(GAME, simulations=4, value="random")


def test_an_action_only_a_determinized_world_allows_is_never_played():
    """A determinization may allow what the real position does not (in
    Dragons Down, a Spell Book another hero revealed is priced by spells this
    seat has not read). Here every determinized world of Race to Ten has the
    counter at 7, where adding 3 wins at once; in the real position the
    counter is at 8, where adding 3 would pass 10. The search finds the win
    in every world, and still plays an action legal in the real one."""
    from tests.core.toygame import RaceToTen

    class SevenInEveryWorld(RaceToTen):
        def determinize(self, state, player, rng):
            RaceToTen.determinize(self, state, player, rng)
            state[0]["counter"] = 7

    game = SevenInEveryWorld()
    config = game.make_config(num_players=2)
    state = game.new_states(1)
    game.reset(state, np.array([3], dtype=np.uint64), config)
    state[0]["counter"] = 8
    mask = np.zeros((1, 3), dtype=np.int8)
    game.legal_mask(state, mask)
    assert mask[0].tolist() == [1, 1, 0]                 # adding 3 would pass 10
    agent = MCTSAgent(game=game, simulations=64, rollout="random", early_stop=False)
    action = agent.act_state(game, state, int(state[0]["to_play"]), np.random.default_rng(0))
    assert action in (0, 1)
    assert max(agent.last_stats["root_visits"], key=agent.last_stats["root_visits"].get) == 2  # the worlds' favourite


def test_an_action_only_a_determinized_world_allows_never_ends_the_search():
    """The early stop weighs only the actions legal in the real position: in
    every world of Race to Ten the counter is at 7 and adding 3 wins, so that
    action soon holds more visits than the others can reach, yet it is never
    played; the search goes on while the legal actions can still change
    places."""
    from tests.core.toygame import RaceToTen

    class SevenInEveryWorld(RaceToTen):
        def determinize(self, state, player, rng):
            RaceToTen.determinize(self, state, player, rng)
            state[0]["counter"] = 7

    game = SevenInEveryWorld()
    state = game.new_states(1)
    game.reset(state, np.array([3], dtype=np.uint64), game.make_config(num_players=2))
    state[0]["counter"] = 8
    agent = MCTSAgent(game=game, simulations=64, rollout="random", early_stop=True)
    agent.act_state(game, state, int(state[0]["to_play"]), np.random.default_rng(0))
    visits = agent.last_stats["root_visits"]
    left = 64 - agent.last_stats["simulations"]
    assert visits[2] > visits.get(0, 0) + visits.get(1, 0)         # the worlds' favourite leads
    first, second = sorted((visits.get(0, 0), visits.get(1, 0)), reverse=True)
    assert not agent.last_stats["stopped_early"] or first > second + left
