"""The Dragon Pass heuristic (``"dragon_pass.heuristic"``): registered, plays
only legal actions through whole games of every scenario from either seat,
and, with the screening option, decides the same in every position the
hidden contents of the enemy's stacks could be (L452)."""
import copy

import numpy as np
import pytest

from dragongym.agents import list_agents, make_agent
from dragongym.agents.dragon_pass_heuristic import DragonPassHeuristic
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import PLAYABLE_SCENARIOS as SCENARIOS, UW_MAP, UW_POOL
from dragongym.envs.dragon_pass.data import MAP
from dragongym.envs.dragon_pass.game import GAME

HEURISTIC = "dragon_pass.heuristic"


def _new_game(scenario, seed, screening=False):
    config = GAME.make_config(scenario=scenario, screening=screening)
    state = GAME.new_states(1)
    GAME.reset(state, np.array([seed], np.uint64), config)
    return state


def _seats(scenario):
    """How many players the scenario has (three in 18.8, L303)."""
    return len(GAME.spec_for(GAME.make_config(scenario=scenario)).roles)


def _play(state, agents, rngs, on_decision=None):
    """Play ``state`` to its end, each seat by its agent; every action must be legal."""
    errors = np.zeros(1, np.int8)
    decisions = 0
    while int(state[0]["status"]) == 0:
        seat = int(state[0]["to_play"])
        agent = agents[seat]
        if on_decision is not None:
            on_decision(state, seat, agent)
        if agent.uses_state:
            a = agent.act_state(GAME, state, seat, rngs[seat])
        else:
            a = agent.act(GAME.observation_of(state, seat), GAME.mask_of(state), rngs[seat])
        mask = GAME.mask_of(state)
        assert mask[a], f"illegal action {a} ({GAME.action_to_string(state, a)})"
        GAME.step(state, np.array([a], np.int32), errors)
        assert errors[0] == 0, GAME.error_message(errors[0])
        decisions += 1
        assert decisions < 20000, "the game does not end"
    return state


def test_the_heuristic_is_registered_as_the_games_heuristic_agent():
    assert HEURISTIC in list_agents()
    assert GAME.heuristic_agent == HEURISTIC
    agent = make_agent(HEURISTIC, game=GAME)
    assert isinstance(agent, DragonPassHeuristic) and agent.uses_state


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_heuristic_plays_legal_actions_through_whole_games(scenario):
    """A game per seat of each scenario against the random agent (the
    Lunars, Sartar, 18.8's Tarsh), and one against itself."""
    n = _seats(scenario)
    seatings = [tuple(HEURISTIC if s == h else "random" for s in range(n)) for h in range(n)] + [(HEURISTIC,) * n]
    for k, names in enumerate(seatings):
        agents = [make_agent(a, game=GAME) for a in names]
        for a in agents:
            a.reset()
        rngs = [np.random.default_rng([k, s]) for s in range(n)]
        state = _play(_new_game(scenario, 100 + k), agents, rngs)
        assert int(state[0]["status"]) in (1, 2)
        assert GAME.check_state(state) == ""


def test_scenario_18_6_is_played():
    """The parametrisations below cover Dousing the Flames (the Lunars against
    the Independents, whose counters have no static force)."""
    assert "18.6" in SCENARIOS


def _deployed(scenario, seed, names):
    """The state once both sides have deployed, each seat by its agent."""
    state = _new_game(scenario, seed)
    agents = [make_agent(n, game=GAME) for n in names]
    rngs = [np.random.default_rng([seed, s]) for s in range(2)]
    errors = np.zeros(1, np.int8)
    while (state[0]["unit_where"] == UW_POOL).any():
        seat = int(state[0]["to_play"])
        a = agents[seat].act_state(GAME, state, seat, rngs[seat]) if agents[seat].uses_state else \
            agents[seat].act(GAME.observation_of(state, seat), GAME.mask_of(state), rngs[seat])
        GAME.step(state, np.array([a], np.int32), errors)
        assert errors[0] == 0
    return state


def _units_on(state, seat, hex_id):
    s = state[0]
    h = MAP.hex_index(hex_id)
    return [u for u in range(len(s["unit_where"]))
            if s["unit_where"][u] == UW_MAP and s["unit_hex"][u] == h and s["unit_force"][u] == seat]


@pytest.mark.parametrize("seed", [1, 2])
def test_in_18_6_the_independents_deploy_strong_garrisons_in_bagnot_and_dunstop(seed):
    """L284: at least one Independent unit in each of Bagnot and Dunstop -- the
    heuristic puts garrisons there by plan (several units, not just the last
    ones the rule forces in), and a garrison on each of the three sites."""
    state = _deployed("18.6", seed, ("random", HEURISTIC))
    for hex_id in ("1406", "0612"):
        assert len(_units_on(state, 1, hex_id)) >= 4, hex_id
    for hex_id in ("1229", "1921", "1927"):
        assert len(_units_on(state, 1, hex_id)) >= 2, hex_id


def test_in_18_6_the_lunars_take_all_five_places_from_random_independents():
    """L293: the Lunars win only with Bagnot, Dunstop, Rich Post, Wintertop and
    Wild Temple; against the random agent the heuristic takes all five."""
    wins = 0
    for k in range(3):
        agents = [make_agent(HEURISTIC, game=GAME), make_agent("random", game=GAME)]
        rngs = [np.random.default_rng([9, k, s]) for s in range(2)]
        state = _play(_new_game("18.6", 400 + k), agents, rngs)
        wins += int(state[0]["rank"][0]) == 1
        if int(state[0]["rank"][0]) == 1:
            assert all(R.controller(state, 0, int(h)) == 0 for h in R.VICTORY_18_6)
    assert wins >= 2


def test_the_heuristic_beats_the_random_agent_in_a_few_games():
    wins = 0
    for k, scenario in enumerate(SCENARIOS):
        n = _seats(scenario)
        for seat in (0, 1):
            agents = [make_agent("random", game=GAME) for _ in range(n)]
            agents[seat] = make_agent(HEURISTIC, game=GAME)
            rngs = [np.random.default_rng([7, k, seat, s]) for s in range(n)]
            state = _play(_new_game(scenario, 200 + 2 * k + seat), agents, rngs)
            ranks = [int(r) for r in state[0]["rank"][:n]]
            wins += ranks[seat] == 1 and ranks.count(1) == 1        # rank 1 alone (of 2 or 3)
    assert wins >= 4


def _hidden_stacks_differ(state, variant, seat):
    """Some enemy counter stands on another hex in ``variant``."""
    a, b = state[0], variant[0]
    on = a["unit_where"] == UW_MAP
    return bool((a["unit_hex"][on] != b["unit_hex"][on]).any())


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_with_screening_the_heuristic_ignores_what_enemy_stacks_hold(scenario):
    """At sampled decisions of a screened game, the heuristic's choice on the
    real position is its choice on every position ``hidden_variants`` deals
    (the enemy's unexamined stacks' contents shuffled among its stacks)."""
    checked = 0
    differing = 0
    sample = np.random.default_rng(11)

    def check(state, seat, agent):
        nonlocal checked, differing
        if not isinstance(agent, DragonPassHeuristic) or sample.random() > 0.25:
            return
        want = copy.deepcopy(agent).act_state(GAME, state.copy(), seat, np.random.default_rng(5))
        for variant in GAME.hidden_variants(state, seat, np.random.default_rng(checked), count=3):
            differing += _hidden_stacks_differ(state, variant, seat)
            got = copy.deepcopy(agent).act_state(GAME, variant, seat, np.random.default_rng(5))
            assert got == want, (f"{GAME.action_to_string(state, want)} on the real position, "
                                 f"{GAME.action_to_string(variant, got)} on a variant")
        checked += 1

    n = _seats(scenario)
    for seat in (0, 1):
        agents = [make_agent("random", game=GAME) for _ in range(n)]
        agents[seat] = make_agent(HEURISTIC, game=GAME)
        rngs = [np.random.default_rng([3, seat, s]) for s in range(n)]
        _play(_new_game(scenario, 300 + seat, screening=True), agents, rngs, on_decision=check)
    assert checked >= 20
    assert differing > 0, "no sampled position had hidden stacks to shuffle"


def test_the_heuristic_takes_a_dragonewt_road_journey_toward_its_goal():
    """A group of dragonewts at a city steps toward its goal by the hex that
    brings it nearest: a journey by dragonewt road (L482) where that is one."""
    from dragongym.agents.dragon_pass_heuristic import Position as Known
    from tests.dragon_pass.dragonewts_test import BEAKED, city, group_at, newts_for
    from tests.dragon_pass.scenario import SARTAR, Position, hexi, unit
    p = Position("18.1")
    newts_for(p, SARTAR, BEAKED)
    p.put(BEAKED, city(5))
    group_at(p, SARTAR, city(5), BEAKED)
    legal = {int(a) for a in np.flatnonzero(GAME.mask_of(p.S))}
    assert R.A_HEX + hexi(city(1)) in legal
    steps = [a - R.A_HEX for a in legal if a < R.A_UNIT]
    a = DragonPassHeuristic().step(Known(p.s, 1), [unit(BEAKED)], hexi(city(5)), hexi(city(1)), steps, legal)
    assert a == R.A_HEX + hexi(city(1))
