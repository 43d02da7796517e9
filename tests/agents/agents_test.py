"""Registry (lazy), the Dragonhunt heuristic and MCTS: legal play, hidden
information, speed, per-game search helpers, the shaping potential."""
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import dragongym.agents
from dragongym.agents import list_agents, make_agent, register, register_loader, is_agent_id
from dragongym.agents import search_hooks
from dragongym.agents.base import _FACTORIES, _LOADERS, _resolve, Agent
from dragongym.agents.dragonhunt_heuristic import (DragonhuntHeuristic, evaluate, prior_only, seat_score,
                                                   seat_score_potential, seat_score_potential_batch)
from dragongym.agents.dragonhunt_heuristic2 import DragonhuntHeuristicV2
from dragongym.agents.mcts import MCTSAgent
from dragongym.agents.random_agent import RandomAgent
from dragongym.agents.tournament import play_one
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt import view as V
from dragongym.envs.dragonhunt.game import GAME


def test_registry_by_id():
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("dragonhunt.heuristic", game=GAME), DragonhuntHeuristicV2)
    assert type(make_agent("dragonhunt.heuristic_v1", game=GAME)) is DragonhuntHeuristic
    mcts = make_agent("mcts", game=GAME, simulations=3)
    assert isinstance(mcts, MCTSAgent) and mcts.simulations == 3
    with pytest.raises(ValueError):
        make_agent("no-such-agent")
    with pytest.raises(ValueError):
        make_agent("mcts")                      # search needs its game


def test_importing_the_agents_loads_no_game_core_and_no_torch():
    code = textwrap.dedent("""
        import sys
        import dragongym.agents
        from dragongym.agents import make_agent
        make_agent("random")
        import dragongym.agents.tournament, dragongym.agents.tables, dragongym.agents.mcts
        loaded = [m for m in ("dragongym.envs.dragonhunt.rules", "dragongym.envs.dragonhunt.game",
                              "dragongym.agents.dragonhunt_heuristic", "torch", "numba") if m in sys.modules]
        assert not loaded, loaded
        assert {"dragonhunt.heuristic", "dragonhunt.heuristic_v1"} <= set(dragongym.agents.list_agents())
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_string_factories_are_imported_on_first_use(tmp_path, monkeypatch):
    (tmp_path / "lazy_bot_module.py").write_text(
        "from dragongym.agents.random_agent import RandomAgent\n"
        "def make(game=None, **kwargs):\n"
        "    return RandomAgent(game)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    register("lazy.bot", "lazy_bot_module:make")
    register("broken.bot", "no_such_module_anywhere:make")
    try:
        assert is_agent_id("lazy.bot") and "lazy.bot" in list_agents()
        assert "lazy_bot_module" not in sys.modules          # registering imported nothing
        assert isinstance(make_agent("lazy.bot"), RandomAgent)
        assert "lazy_bot_module" in sys.modules
        assert is_agent_id("broken.bot")
        with pytest.raises(ModuleNotFoundError):
            make_agent("broken.bot")
        with pytest.raises(TypeError):
            register("bad.bot", 42)
    finally:
        for agent_id in ("lazy.bot", "broken.bot"):
            _FACTORIES.pop(agent_id, None)
        sys.modules.pop("lazy_bot_module", None)


def test_search_helpers_come_from_the_games_heuristic_module(race, tmp_path, monkeypatch):
    """MCTS asks the registry for a game's helpers; the first request imports
    the module of the game's ``heuristic_agent``, which registers them."""
    import dragongym
    (tmp_path / "race_bot_module.py").write_text(
        "from dragongym.agents.random_agent import RandomAgent\n"
        "from dragongym.agents.search_hooks import register_value\n"
        "def value(state):\n"
        "    return [0.25, -0.25]\n"
        "register_value('race', value)\n"
        "def make(game=None, **kwargs):\n"
        "    return RandomAgent(game)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(search_hooks, "_HOOKS", {})
    monkeypatch.setattr(search_hooks, "_LOOKED_UP", set())
    game = dragongym.get_game(race)
    plain = MCTSAgent(game, simulations=2)                      # no heuristic: plain search
    assert plain.value_fn is None and plain._rollout_agent is None
    with pytest.raises(ValueError, match="declares no heuristic agent"):
        MCTSAgent(game, rollout="heuristic")
    monkeypatch.setattr(search_hooks, "_LOOKED_UP", set())
    monkeypatch.setattr(game, "heuristic_agent", "race.bot")
    register("race.bot", "race_bot_module:make")
    try:
        agent = MCTSAgent(game, simulations=2, rollout="heuristic")
        assert agent.value_fn(None) == [0.25, -0.25]
        assert isinstance(agent._rollout_agent, RandomAgent)
    finally:
        _FACTORIES.pop("race.bot", None)
        sys.modules.pop("race_bot_module", None)


def test_dragonhunt_search_helpers_are_found_through_the_game():
    mcts = MCTSAgent(GAME, simulations=2, prior_only=True)
    assert mcts.value_fn is evaluate and mcts.prior_only_fn is prior_only
    assert GAME.heuristic_agent == "dragonhunt.heuristic"


def test_the_shaping_potential_is_the_seat_score_lead():
    assert _resolve(GAME.shaping_potential) is seat_score_potential
    for players in (2, 3):
        cfg = GAME.make_config(num_players=players, max_hands=2)
        state = GAME.new_states(1)
        GAME.reset(state, np.array([8], dtype=np.uint64), cfg)
        rng = np.random.default_rng(8)
        err = np.zeros(1, dtype=np.int8)
        seen = set()
        for _ in range(400):
            if int(state[0]["status"]) != 0:
                break
            scores = [seat_score(state, p) for p in range(players)]
            for p in range(players):
                lead = scores[p] - max(scores[q] for q in range(players) if q != p)
                assert seat_score_potential(state, p) == pytest.approx(lead)
            seen.add(tuple(np.round(scores, 6)))
            legal = np.flatnonzero(GAME.mask_of(state))
            GAME.step(state, np.array([rng.choice(legal)]), err)
        assert len(seen) > 1, "the positions never changed the seat scores"
        if players == 2:
            assert seat_score_potential(state, 0) == pytest.approx(-seat_score_potential(state, 1))


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
    # version 2 says what it changes and why (its module) and points there (its class)
    from dragongym.agents import dragonhunt_heuristic2
    module_doc = dragonhunt_heuristic2.__doc__
    assert "Hero strike" in module_doc and "rush" in module_doc and "9.14" in DragonhuntHeuristicV2._move_dest.__doc__
    assert "docstring" in DragonhuntHeuristicV2.__doc__


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
    kinds = [RandomAgent(), DragonhuntHeuristic(GAME), DragonhuntHeuristicV2(GAME),
             MCTSAgent(GAME, simulations=4, rollout_depth=10)]
    cfg = GAME.make_config(num_players=players, max_hands=1)
    for g in range(2):
        seats = [_Checked(kinds[(s + g * players) % len(kinds)]) for s in range(players)]
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


@pytest.mark.parametrize("version", [DragonhuntHeuristic, DragonhuntHeuristicV2])
def test_heuristic_never_reads_hidden_state(version):
    state = _card_position()
    other = _hidden_variant(state)
    h = version(GAME)
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
    for g in result.games:
        # the record ranks the slayer first alone; a truncated game ties every seat on rank 1
        assert sorted(g.ranks) in ([1, 1], [1, 2])
        assert g.truncated == (g.ranks == (1, 1))
    assert sum(s.wins + s.draws + s.losses for s in result.stats) == 4


def test_the_batched_shaping_potential_equals_it_record_by_record():
    """The batched trainer's potential (``shaping_potential_batch``) is the same
    number, bit for bit, as the one-record potential, in positions with the
    magesword unseen, lying and wielded, Brimstone next to a home or far."""
    assert _resolve(GAME.shaping_potential_batch) is seat_score_potential_batch
    rng = np.random.default_rng(3)
    positions = []
    for players in (2, 3, 6):
        cfg = GAME.make_config(num_players=players, max_hands=3)
        state = GAME.new_states(1)
        GAME.reset(state, np.array([players], dtype=np.uint64), cfg)
        err = np.zeros(1, dtype=np.int8)
        for step in range(600):
            if int(state[0]["status"]) != 0:
                break
            if step % 20 == 0:
                positions.append(state.copy())
            legal = np.flatnonzero(GAME.mask_of(state))
            GAME.step(state, np.array([rng.choice(legal)]), err)
    # the same positions with each seat's magesword lying at home or in its hero's hand
    for base in list(positions):
        for seat in range(int(base[0]["num_players"])):
            lying, held = base.copy(), base.copy()
            lying[0]["sword_loc"][seat] = max(0, V.home_castle(base, seat))
            held[0]["sword_holder"][seat] = V.hero(base, seat)
            held[0]["wounds"][seat] = 3
            positions += [lying, held]
    states = np.concatenate(positions)
    seats = np.array([k % int(s["num_players"]) for k, s in enumerate(states)])
    batch = seat_score_potential_batch(states, seats)
    one = [seat_score_potential(states[b:b + 1], int(seats[b])) for b in range(len(states))]
    assert batch.tolist() == one
    assert len(set(one)) > 20, "the positions barely differ in score"
