"""Registry, the Dragonhunt heuristic and MCTS: legal play, hidden information, speed."""
import time

import numpy as np
import pytest

import dragongym.agents
from dragongym.agents import make_agent, register_loader, is_agent_id
from dragongym.agents.base import _LOADERS, Agent
from dragongym.agents.dragonhunt_heuristic import DragonhuntHeuristic, evaluate
from dragongym.agents.mcts import MCTSAgent
from dragongym.agents.random_agent import RandomAgent
from dragongym.agents.tournament import play_one
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt import view as V
from dragongym.envs.dragonhunt.game import GAME


def test_registry_by_id():
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("dragonhunt.heuristic", game=GAME), DragonhuntHeuristic)
    mcts = make_agent("mcts", game=GAME, simulations=3)
    assert isinstance(mcts, MCTSAgent) and mcts.simulations == 3
    with pytest.raises(ValueError):
        make_agent("no-such-agent")
    with pytest.raises(ValueError):
        make_agent("mcts")                      # search needs its game


def test_checkpoint_ids_resolve_through_registered_loaders():
    seen = {}

    def loader(path, game=None, **kwargs):
        seen["path"] = path
        return RandomAgent()

    assert not is_agent_id("runs/policy.pt")
    register_loader(".pt", loader)
    try:
        assert is_agent_id("runs/policy.pt")
        assert isinstance(make_agent("runs/policy.pt", game=GAME), RandomAgent)
        assert seen["path"] == "runs/policy.pt"
    finally:
        _LOADERS.pop(".pt")


def test_heuristic_documents_its_strategy():
    doc = DragonhuntHeuristic.__doc__
    assert "Strategy" in doc and "magesword" in doc.lower() and "garrison" in doc.lower()


class _Checked(Agent):
    """Wraps an agent and asserts every action it picks is in the legal mask."""

    def __init__(self, inner):
        self.inner = inner
        self.uses_state = True
        self.count = 0

    def reset(self):
        self.inner.reset()

    def act_state(self, game, state, player, rng):
        mask = game.mask_of(state)
        before = state.tobytes()
        if self.inner.uses_state:
            a = self.inner.act_state(game, state, player, rng)
        else:
            a = self.inner.act(game.observation_of(state, player), mask, rng)
        assert mask[a] == 1, f"{type(self.inner).__name__} picked masked action {a}"
        assert state.tobytes() == before, "an agent wrote to the live state"
        self.count += 1
        return a


@pytest.mark.parametrize("players", [2, 3])
def test_no_agent_ever_picks_a_masked_action(players):
    kinds = [RandomAgent(), DragonhuntHeuristic(GAME),
             MCTSAgent(GAME, simulations=4, rollout_depth=10)]
    cfg = GAME.make_config(num_players=players, max_hands=1)
    for g in range(2):
        seats = [_Checked(kinds[(s + g) % 3]) for s in range(players)]
        rngs = [np.random.default_rng([g, s]) for s in range(players)]
        play_one(GAME, cfg, seats, 1000 + g, rngs)
        assert all(s.count > 0 for s in seats)


def _card_position(seed=4):
    """A 2-player position in the card segment: seat 0 has laid its card face
    down, seat 1 must choose."""
    cfg = GAME.make_config(num_players=2, max_hands=3)
    state = GAME.new_states(1)
    GAME.reset(state, np.array([seed], dtype=np.uint64), cfg)
    rng = np.random.default_rng(seed)
    err = np.zeros(1, dtype=np.int8)
    for _ in range(5000):
        rec = state[0]
        if (int(rec["phase"]) == R.PH_CARD and int(rec["to_play"]) == 1
                and int(rec["card_played"][0]) >= 0 and bin(int(rec["cards_in_hand"][0])).count("1") > 1):
            return state
        legal = np.flatnonzero(GAME.mask_of(state))
        GAME.step(state, np.array([rng.choice(legal)]), err)
        assert int(state[0]["status"]) == 0
    raise AssertionError("no card position found")


def _hidden_variant(state):
    """Same position as seat 1 sees it; seat 0's face-down card and the RNG stream differ."""
    other = state.copy()
    rec = other[0]
    hand = [i for i in range(6) if int(rec["cards_in_hand"][0]) >> i & 1]
    rec["card_played"][0] = next(i for i in hand if i != int(rec["card_played"][0]))
    rec["seed"] = np.uint64(int(rec["seed"]) ^ 0x9E3779B97F4A7C15)
    rec["rng_counter"] += 7
    return other


def test_determinize_resamples_only_what_the_player_cannot_know():
    state = _card_position()
    other = _hidden_variant(state)
    assert state.tobytes() != other.tobytes()
    assert np.array_equal(GAME.observation_of(state, 1), GAME.observation_of(other, 1))
    a, b = state.copy(), other.copy()
    GAME.determinize(a, 1, np.random.default_rng(9))
    GAME.determinize(b, 1, np.random.default_rng(9))
    assert a.tobytes() == b.tobytes()
    # the seat's own card and everything public are kept
    c = state.copy()
    GAME.determinize(c, 0, np.random.default_rng(9))
    assert int(c[0]["card_played"][0]) == int(state[0]["card_played"][0])
    assert c[0]["unit_loc"].tobytes() == state[0]["unit_loc"].tobytes()


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
def test_mcts_never_reads_hidden_state(rollout):
    state = _card_position()
    other = _hidden_variant(state)
    agent = MCTSAgent(GAME, simulations=40, rollout=rollout, rollout_depth=30)
    a = agent.act_state(GAME, state, 1, np.random.default_rng(123))
    stats_a = agent.last_stats
    b = agent.act_state(GAME, other, 1, np.random.default_rng(123))
    assert a == b and stats_a == agent.last_stats


def test_heuristic_never_reads_hidden_state():
    state = _card_position()
    other = _hidden_variant(state)
    h = DragonhuntHeuristic(GAME)
    assert h.act_state(GAME, state, 1, np.random.default_rng(1)) == \
        h.act_state(GAME, other, 1, np.random.default_rng(1))


def test_heuristic_is_fast():
    cfg = GAME.make_config(num_players=2, max_hands=2)
    h = [DragonhuntHeuristic(GAME), DragonhuntHeuristic(GAME)]
    timed = []

    class Timed(Agent):
        uses_state = True

        def __init__(self, inner):
            self.inner = inner

        def reset(self):
            self.inner.reset()

        def act_state(self, game, state, player, rng):
            t = time.perf_counter()
            a = self.inner.act_state(game, state, player, rng)
            timed.append(time.perf_counter() - t)
            return a

    play_one(GAME, cfg, [Timed(x) for x in h], 77, [np.random.default_rng(s) for s in range(2)])
    assert np.median(timed) < 2e-3, f"median {np.median(timed) * 1e3:.2f} ms per decision"


def test_evaluate_is_per_seat_and_bounded():
    state = _card_position()
    v = evaluate(state)
    assert v.shape == (2,) and np.all(np.abs(v) <= 1)
    assert V.phase(state) == R.PH_CARD and V.to_play(state) == 1
    assert V.visible_card_played(state, 0, 1) == -1
    assert V.visible_card_played(state, 0, 0) == int(state[0]["card_played"][0])


def test_match_runner_gives_state_reading_agents_the_state():
    from dragongym.agents import play_match
    result = play_match("dragonhunt", ["dragonhunt.heuristic", "random"], num_games=2, seed=1, max_hands=1)
    assert [s.games for s in result.stats] == [2, 2]
