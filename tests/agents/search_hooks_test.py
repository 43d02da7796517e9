"""The search hooks of Dragons Down and Dragon Pass (value at the rollout cap,
prior-only decisions), registered by their heuristics' modules: exact
rewards once a game is over, better positions valued higher, nothing read
that determinization deals anew, prior-only by phase."""
import numpy as np
import pytest

import dragongym
from dragongym.agents import dragon_pass_heuristic as DPH
from dragongym.agents import dragons_down_heuristic as DDH
from dragongym.agents.base import make_agent
from dragongym.agents.mcts import MCTSAgent
from dragongym.agents.search_hooks import PRIOR_ONLY, VALUE, hook
from dragongym.envs.dragon_pass import rules as DPR
from dragongym.envs.dragon_pass.constants import LUNAR, SARTAR, UW_DEAD, UW_MAP, UW_POOL
from dragongym.envs.dragons_down import rules as DDR


def _play(game_name, seed, until=None, **options):
    """A heuristic self-play game of ``game_name`` from ``seed``: the positions
    where the seat to move has a choice (state copy, seat), stopping early once
    ``until(state)`` holds, and the last state."""
    game = dragongym.get_game(game_name)
    cfg = game.make_config(**options)
    n = game.spec_for(cfg).num_seats
    state = game.new_states(1)
    game.reset(state, np.array([seed], dtype=np.uint64), cfg)
    bots = [make_agent(game.heuristic_agent, game=game) for _ in range(n)]
    rng = np.random.default_rng(seed)
    act, err = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int8)
    seen = []
    while int(state[0]["status"]) == 0:
        p = int(state[0]["to_play"])
        if int(game.mask_of(state).sum()) > 1:
            seen.append((state.copy(), p))
        if until is not None and until(state):
            break
        act[0] = bots[p].act_state(game, state, p, rng)
        game.step(state, act, err)
        assert not err[0]
    return seen, state


@pytest.mark.parametrize("game_name, module", [("dragons_down", DDH), ("dragon_pass", DPH)])
def test_the_hooks_are_registered_for_mcts(game_name, module):
    game = dragongym.get_game(game_name)
    assert hook(game, VALUE) is module.evaluate and hook(game, PRIOR_ONLY) is module.prior_only
    agent = MCTSAgent(game, simulations=2, rollout="heuristic", prior_only=True)
    assert agent.value_fn is module.evaluate and agent.prior_only_fn is module.prior_only


# ------------------------------------------------------------------ Dragons Down
@pytest.mark.parametrize("heroes", [1, 2, 3])
def test_dragons_down_value_is_the_rewards_once_over(heroes):
    _, state = _play("dragons_down", 3, num_players=heroes, max_turns=1)
    assert int(state[0]["status"]) != 0
    assert np.array_equal(DDH.evaluate(state), state[0]["rewards"][:heroes].astype(np.float64))


def test_dragons_down_value_ranks_by_legend_points_and_fame():
    seen, _ = _play("dragons_down", 4, until=lambda s: int(s[0]["phase"]) == DDR.PH_ACTION,
                    num_players=3, max_turns=2)
    state = seen[-1][0]
    rec = state[0]
    rec["lp"][:3] = 0
    rec["fame"][:3] = 0
    even = DDH.evaluate(state)
    assert np.allclose(even, 0.0)
    rec["fame"][1] = 7                       # 0.7 LP if seat 1 retired now
    rec["lp"][2] = 2
    v = DDH.evaluate(state)
    assert v[2] > v[1] > v[0] and abs(v.sum()) < 1e-9 and np.all(np.abs(v) <= 1)
    # a clear lead is the rank's position value: +1 first, 0 second, -1 last
    rec["lp"][1], rec["lp"][2] = 10, 20
    assert np.allclose(DDH.evaluate(state), [-1.0, 0.0, 1.0], atol=1e-6)


def test_dragons_down_solo_value_rises_with_legend_points():
    seen, _ = _play("dragons_down", 5, until=lambda s: int(s[0]["phase"]) == DDR.PH_ACTION,
                    num_players=1, max_turns=2)
    state = seen[-1][0]
    values = []
    for lp in (0, 1, 3):
        state[0]["lp"][0], state[0]["fame"][0] = lp, 0
        values.append(float(DDH.evaluate(state)[0]))
    assert values[0] == -1.0 and values[0] < values[1] < values[2] < 1.0


def test_dragons_down_hooks_read_no_secret():
    seen, _ = _play("dragons_down", 6, num_players=2, max_turns=2)
    for k, (state, p) in enumerate(seen[::25]):
        for seat in range(2):
            other = state.copy()
            dragongym.get_game("dragons_down").determinize(other, seat, np.random.default_rng(k))
            assert np.array_equal(DDH.evaluate(other), DDH.evaluate(state))
            assert DDH.prior_only(other) == DDH.prior_only(state)


@pytest.mark.parametrize("heroes, sandbox", [(1, "open_realm"), (2, "open_realm"), (4, "explore_the_realm"),
                                             (1, "legendary"), (3, "legendary")])
def test_dragons_down_shaping_potential_is_the_value_and_its_batch_the_same_bytes(heroes, sandbox):
    """The trainer's shaping (the game's ``shaping_potential``) is each seat's value at
    MCTS's cap while the game runs, 0 once it is over; the batched form is the same
    number, bit for bit, over positions of heuristic games (with Legend Points and
    Fame set as a game could hold them, so leads of every size are met)."""
    from dragongym.agents.base import _resolve

    game = dragongym.get_game("dragons_down")
    assert _resolve(game.shaping_potential) is DDH.legend_lead_potential
    assert _resolve(game.shaping_potential_batch) is DDH.legend_lead_potential_batch
    seen, last = _play("dragons_down", 10 + heroes, num_players=heroes, sandbox=sandbox, max_turns=3)
    rng = np.random.default_rng(heroes)
    states = [s for s, _ in seen[::7]]
    for s in states[::2]:
        s[0]["lp"][:heroes] = rng.integers(0, 25, heroes)
        s[0]["fame"][:heroes] = rng.integers(0, 10, heroes)
    states.append(last)
    batch = np.concatenate(states)
    for seat in range(heroes):
        one = np.array([DDH.legend_lead_potential(s, seat) for s in states])
        many = DDH.legend_lead_potential_batch(batch, np.full(len(states), seat))
        assert one.tobytes() == many.tobytes()
        running = [int(s[0]["status"]) == 0 for s in states]
        assert np.array_equal(one[running], [DDH.evaluate(s)[seat] for s, r in zip(states, running) if r])
    assert int(last[0]["status"]) != 0 and DDH.legend_lead_potential(last, 0) == 0.0
    assert len({float(DDH.legend_lead_potential(s, 0)) for s in states}) > 2, "every position scored alike"


def test_dragons_down_shaping_pays_a_hero_for_fame_gained():
    """Two heroes: Fame a hero gains raises its potential and lowers the other's by
    as much (the leads are zero-sum); the shaped step of that gain is positive."""
    from dragongym.training.shaping import potential_for, shaped_reward

    seen, _ = _play("dragons_down", 4, until=lambda s: int(s[0]["phase"]) == DDR.PH_ACTION,
                    num_players=2, max_turns=2)
    before = seen[-1][0]
    before[0]["lp"][:2], before[0]["fame"][:2] = 0, 0
    after = before.copy()
    after[0]["fame"][0] = 5
    phi = potential_for(dragongym.get_game("dragons_down"))
    assert phi(before, 0) == 0.0 and phi(before, 1) == 0.0
    assert phi(after, 0) == pytest.approx(np.tanh(0.5)) and phi(after, 1) == pytest.approx(-np.tanh(0.5))
    assert shaped_reward(0.0, phi(before, 0), phi(after, 0), 0.997, 0.1, done=False) > 0


def test_dragons_down_prior_only_by_phase():
    seen, _ = _play("dragons_down", 7, num_players=2, max_turns=2)
    phases = {int(s[0]["phase"]): DDH.prior_only(s) for s, _ in seen}
    assert phases[DDR.PH_ACTION] is True             # a turn's actions: the heuristic's plan
    assert phases[DDR.PH_TACTICS] is True            # each cube of a combat round
    assert phases[DDR.PH_HIDE] is False              # hiding from the monsters is searched
    assert all(v == (ph in DDH.PRIOR_ONLY_PHASES) for ph, v in phases.items())


# ------------------------------------------------------------------ Dragon Pass
@pytest.mark.parametrize("scenario", ["18.2", "18.8"])
def test_dragon_pass_value_is_the_rewards_once_over(scenario):
    _, state = _play("dragon_pass", 3, scenario=scenario, max_turns=1)
    n = int(DPR.SCENARIO_PLAYERS[int(state[0]["scenario"])])
    assert int(state[0]["status"]) != 0
    assert np.array_equal(DPH.evaluate(state), state[0]["rewards"][:n].astype(np.float64))


def _first_move(scenario, **options):
    seen, _ = _play("dragon_pass", 8, until=lambda s: int(s[0]["phase"]) == DPR.PH_MOVE, scenario=scenario,
                    max_turns=1, **options)
    return seen[-1][0]


def test_dragon_pass_value_follows_the_places_and_the_strength_left():
    state = _first_move("18.2")
    v = DPH.evaluate(state)
    assert v.shape == (2,) and abs(v.sum()) < 1e-9 and np.all(np.abs(v) <= 1)
    assert v[SARTAR] > v[LUNAR]              # Sartar holds Boldhome: he would win now
    weaker = state.copy()
    rec = weaker[0]
    lunar = [u for u in range(DPH.NUM_UNITS) if rec["unit_force"][u] == LUNAR
             and rec["unit_where"][u] in (UW_MAP, UW_POOL)]
    rec["unit_where"][lunar[:len(lunar) // 3]] = UW_DEAD
    assert DPH.evaluate(weaker)[LUNAR] < v[LUNAR]
    taken = state.copy()
    taken[0]["fortress_owner"][DPR.BOLDHOME] = LUNAR    # 18.2: the Lunars win with Boldhome
    assert DPH.evaluate(taken)[LUNAR] > v[LUNAR] and DPH.winner_now(taken)[LUNAR] == 1.0


def test_dragon_pass_three_players_value_sums_to_zero():
    v = DPH.evaluate(_first_move("18.8"))
    assert v.shape == (3,) and abs(v.sum()) < 1e-9 and np.all(np.abs(v) <= 1)


def test_dragon_pass_hooks_read_no_secret():
    game = dragongym.get_game("dragon_pass")
    seen, _ = _play("dragon_pass", 9, scenario="18.2", screening=True, max_turns=2)
    for k, (state, p) in enumerate(seen[::20]):
        other = state.copy()
        game.determinize(other, 1 - p, np.random.default_rng(k))
        assert np.array_equal(DPH.evaluate(other), DPH.evaluate(state))
        assert DPH.prior_only(other) == DPH.prior_only(state)


def test_dragon_pass_prior_only_by_phase():
    seen, _ = _play("dragon_pass", 10, scenario="18.2", max_turns=1)
    phases = {int(s[0]["phase"]): DPH.prior_only(s) for s, _ in seen}
    assert phases[DPR.PH_MOVE_GROUP] is True and phases[DPR.PH_DEPLOY] is True   # steps and set-up
    assert phases[DPR.PH_MOVE] is False                                           # which stack moves
    assert all(v == (ph in DPH.PRIOR_ONLY_PHASES) for ph, v in phases.items())
