"""Scenarios 18.1-18.3 (L200-L249): who deploys first and where, unit by
unit; fortress control at the start; the sequence of play; the victory
conditions at the end of play."""
import numpy as np
import pytest

from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import LUNAR as LUNAR_I, SARTAR as SARTAR_I, UNIT_IDS, UW_POOL
from dragongym.envs.dragon_pass.data import DATA, MAP
from dragongym.envs.dragon_pass.game import GAME
from tests.dragon_pass.scenario import LUNAR, SARTAR, Position

OLD_SARTAR = set(MAP.hexes("old_sartar"))


def fresh(scenario, seed=3, **options):
    S = GAME.new_states(1)
    GAME.reset(S, np.array([seed], np.uint64), GAME.make_config(scenario=scenario, auto_single=False, **options))
    return S


def legal_hexes(S):
    return {int(a) - R.A_HEX for a in np.flatnonzero(GAME.mask_of(S)) if a < R.A_UNIT}


@pytest.mark.parametrize("scenario,first,inside", [("18.1", LUNAR_I, False), ("18.2", LUNAR_I, False),
                                                   ("18.3", SARTAR_I, True)])
def test_rule_dp_scenario_the_first_force_deploys_first_in_its_zone(scenario, first, inside):
    """L206, L211, L221, L226, L236, L242: Lunar outside Old Sartar, Sartar within."""
    S = fresh(scenario)
    assert int(S[0]["to_play"]) == first and int(S[0]["phase"]) == R.PH_DEPLOY
    hexes = legal_hexes(S)
    assert hexes and all((h in OLD_SARTAR) == inside for h in hexes)
    assert not any(MAP.terrain[h] == "lake" for h in hexes)


def test_each_counter_starts_under_its_own_forces_control_and_a_record_that_says_otherwise_is_refused():
    """Every counter of 18.1-18.5 is its formation's force's (``unit_force``);
    no counter changes sides before the Independents are allied, so a
    snapshot that hands one to the other force is unsound."""
    S = fresh("18.4")
    assert np.array_equal(S[0]["unit_force"], R.U_FORCE)
    bad = S.copy()
    u = UNIT_IDS.index("cc_lancers#1")
    bad[0]["unit_force"][u] = SARTAR_I
    assert "unit_force" in GAME.check_state(bad) and GAME.check_state(S) == ""


@pytest.mark.parametrize("scenario", ["18.1", "18.2", "18.3"])
def test_rule_dp_scenario_each_unit_is_placed_by_its_owner_one_at_a_time(scenario):
    S = fresh(scenario)
    sc = ("18.1", "18.2", "18.3").index(scenario)
    expected = {f: int(sum(R.U_DEPLOY[u, sc] for u in range(len(UNIT_IDS)) if R.U_FORCE[u] == f)) for f in (0, 1)}
    placed = {0: 0, 1: 0}
    order = []
    rng = np.random.default_rng(0)
    while int(S[0]["phase"]) == R.PH_DEPLOY:
        f = int(S[0]["to_play"])
        hexes = sorted(legal_hexes(S))
        h = hexes[int(rng.integers(len(hexes)))]
        errors = np.zeros(1, np.int8)
        GAME.step(S, np.array([R.A_HEX + h], np.int32), errors)
        assert errors[0] == 0
        placed[f] += 1
        if not order or order[-1] != f:
            order.append(f)
    assert placed == expected                     # the scenario's forces, unit by unit (L206-L248)
    assert len(order) == 2                        # one force, then the other
    assert not (S[0]["unit_where"] == UW_POOL).any()
    assert int(S[0]["active"]) == order[0]        # the first to deploy plays first (Interpretations)
    assert int(S[0]["turn"]) == 1 and int(S[0]["phase"]) == R.PH_MOVE


def test_rule_dp_scenario_the_second_force_may_not_deploy_on_the_first():
    S = fresh("18.3")
    while int(S[0]["to_play"]) == SARTAR_I:
        GAME.step(S, np.array([R.A_HEX + min(legal_hexes(S))], np.int32), np.zeros(1, np.int8))
    # every Sartar unit stands on one hex inside Old Sartar; the Lunars deploy outside it anyway
    assert all(h not in OLD_SARTAR for h in legal_hexes(S))


@pytest.mark.parametrize("scenario", ["18.1", "18.2", "18.3"])
def test_rule_dp_scenario_fortress_control_at_the_start(scenario):
    """L217, L232 (and 18.3 read the same way): Lunar holds the 3 Sartar
    fortresses outside Old Sartar, Sartar the 4 within."""
    S = fresh(scenario)
    for k, f in enumerate(MAP.fortresses):
        owner = int(S[0]["fortress_owner"][k])
        if f.nation == "sartar":
            assert owner == (SARTAR_I if f.in_old_sartar else LUNAR_I), f.name
        else:
            assert owner == LUNAR_I


@pytest.mark.parametrize("scenario,turns", [("18.1", 5), ("18.2", 6), ("18.3", 5)])
def test_rule_dp_scenario_game_turns(scenario, turns):
    assert int(fresh(scenario)[0]["max_turns"]) == turns == DATA.scenarios[scenario].turns


def end_of_play(scenario, lunar_fortresses=(), lunar_units=(), sartar_units=()):
    """The last movement phase of the last game-turn, with the named Sartar
    fortresses under Lunar control and units placed; play it out."""
    p = Position(scenario)
    for f in MAP.fortresses:
        if f.nation == "sartar":
            p.control(f.name, LUNAR if f.name in lunar_fortresses else SARTAR)
    for u, h in lunar_units:
        p.put(u, h)
    for u, h in sartar_units:
        p.put(u, h)
    turns = DATA.scenarios[scenario].turns
    second = SARTAR if scenario != "18.3" else LUNAR
    p.movement(second, player_turn=2 * turns)
    p.act("end the movement phase")
    assert int(p.s["status"]) == 1
    return list(int(r) for r in p.s["rank"][:2])


OUTSIDE = ("Duck Point", "Alda-Chur", "Alone")


def test_rule_dp_scenario_18_1_victory():
    """L217: Lunar wins with at least 4 Sartar fortresses, Sartar with 5, else a draw."""
    assert end_of_play("18.1", OUTSIDE + ("Jonstown",)) == [1, 2]
    assert end_of_play("18.1", OUTSIDE) == [1, 1]
    assert end_of_play("18.1", ("Duck Point", "Alda-Chur")) == [2, 1]


def test_rule_dp_scenario_18_2_victory():
    """L232: Lunar with Boldhome or 5 fortresses; Sartar with Boldhome and 3 others."""
    assert end_of_play("18.2", ("Boldhome",)) == [1, 2]
    assert end_of_play("18.2", OUTSIDE + ("Jonstown", "Swenstown")) == [1, 2]
    assert end_of_play("18.2", OUTSIDE) == [2, 1]
    assert end_of_play("18.2", OUTSIDE + ("Jonstown",)) == [1, 1]


def test_rule_dp_scenario_18_3_victory():
    """L248: Lunar wins if a fortress is occupied by Lunar units at the end; else Sartar."""
    argrath = [("argrath", "3727")]
    assert end_of_play("18.3", lunar_units=[("cc_lancers#1", "3122")], sartar_units=argrath) == [1, 2]
    assert end_of_play("18.3", OUTSIDE, sartar_units=argrath) == [2, 1]     # controlled but not occupied
    assert end_of_play("18.3") == [1, 2]                                    # Argrath is dead


def test_rule_dp_sequence_each_game_turn_has_both_player_turns_then_book_keeping():
    """L175-L182: after the first force's player-turn the other's; then the next game-turn."""
    p = Position()
    p.put("cc_lancers#1", "1010")
    p.put("cm_town_militia#1", "3724")
    p.movement(LUNAR, player_turn=1)
    p.act("end the movement phase")               # no battle to fight, no rally to hold
    assert p.to_play == SARTAR and p.phase == R.PH_MOVE and int(p.s["turn"]) == 1
    p.act("end the movement phase")
    assert p.to_play == LUNAR and int(p.s["turn"]) == 2


def test_rule_dp_truncation_option_is_a_draw():
    S = fresh("18.1", max_turns=1)
    rng = np.random.default_rng(1)
    while int(S[0]["status"]) == 0:
        legal = np.flatnonzero(GAME.mask_of(S))
        GAME.step(S, np.array([rng.choice(legal)], np.int32), np.zeros(1, np.int8))
    assert int(S[0]["status"]) == 2 and list(S[0]["rank"][:2]) == [1, 1] and int(S[0]["turn"]) == 1


def winner_18_4_or_5(scenario, lunar_fortresses=(), units=()):
    """The winner (a force name, None for a draw) at the end of play: the named
    fortresses under Lunar control, the others Sartar's, the units placed; the
    Sartar player ends the last movement phase of the last game-turn."""
    p = Position(scenario, moon="black")
    for f in MAP.fortresses:
        p.control(f.name, LUNAR if f.name in lunar_fortresses else SARTAR)
    for u, h in units:
        p.put(u, h)
    p.movement(SARTAR, player_turn=2 * DATA.scenarios[scenario].turns)
    p.act("end the movement phase")
    assert int(p.s["status"]) == 1
    ranks = [int(r) for r in p.s["rank"][:2]]
    return None if ranks == [1, 1] else ("lunar", "sartar")[ranks.index(1)]


def test_rule_dp_scenario_18_4_victory():
    """L265: the Lunars win if a Lunar unit occupies Boldhome at the end, Sartar if he
    still controls it; Lunar control without a unit there is neither (Interpretations 30)."""
    assert winner_18_4_or_5("18.4", ("Boldhome",), [("full_moon_corps", "3727")]) == "lunar"
    assert winner_18_4_or_5("18.4") == "sartar"
    assert winner_18_4_or_5("18.4", ("Boldhome",)) is None


def test_rule_dp_scenario_18_5_victory():
    """L273: the player that controls the most fortresses wins; equal numbers draw."""
    lunar = ("Furthest", "Dunstop", "Bagnot")
    assert winner_18_4_or_5("18.5", lunar) == "sartar"                               # 3 against 7
    assert winner_18_4_or_5("18.5", lunar + ("Duck Point", "Alda-Chur")) is None     # 5 and 5
    assert winner_18_4_or_5("18.5", lunar + ("Duck Point", "Alda-Chur", "Alone")) == "lunar"


def test_rule_dp_scenario_18_4_and_18_5_deployment_zones_and_fortresses_at_the_start():
    """L252-L261: in 18.4 the Lunars deploy within the Glowline, Sartar within Old Sartar;
    L269: in 18.5 the Lunars west of 26xx and north of xx19, Sartar within Sartar. Fortress
    control at the start: 18.4 as 18.1-18.3; in 18.5 Sartar holds his seven (Interpretations 29)."""
    sc4, sc5 = R.SCENARIOS.index("18.4"), R.SCENARIOS.index("18.5")
    z = R.DEPLOY_ZONE
    h = MAP.hex_index
    assert z[sc4, LUNAR_I, h("1009")] and not z[sc4, LUNAR_I, h("2011")]            # the Glowline only
    assert z[sc4, SARTAR_I, h("3727")] and not z[sc4, SARTAR_I, h("2627")]          # Old Sartar, not Duck Point
    assert z[sc5, LUNAR_I, h("2518")] and not z[sc5, LUNAR_I, h("2618")] and not z[sc5, LUNAR_I, h("2519")]
    assert z[sc5, SARTAR_I, h("2627")] and z[sc5, SARTAR_I, h("3727")]              # all of Sartar
    start = {f.name: k for k, f in enumerate(MAP.fortresses)}
    assert R.FORTRESS_START[start["Duck Point"], sc4] == LUNAR_I
    assert R.FORTRESS_START[start["Duck Point"], sc5] == SARTAR_I
    assert R.FORTRESS_START[start["Furthest"], sc5] == LUNAR_I


def test_scenarios_18_4_and_18_5_are_offered():
    import dragongym
    for sc in ("18.4", "18.5"):
        env = dragongym.make("dragon_pass", scenario=sc)
        env.reset(seed=1)
        assert env.agent_selection == "lunar"           # the Lunar player selects the moon first (L263, L271)


def test_rule_dp_scenario_18_5_no_unit_moves_or_retreats_into_independents_territory():
    """L271: 'Units cannot retreat or move through any Independents territory' -- the
    Grazelands hex 0718 is a step or a retreat away in 18.2, not in 18.5 (Interpretations 39)."""
    for scenario, open_ in (("18.2", True), ("18.5", False)):
        p = Position(scenario, moon="full") if scenario == "18.5" else Position(scenario)
        p.put("cc_lancers#1", "0617")
        p.movement(LUNAR)
        p.acts("select the stack at 0617", f"move {p.name('cc_lancers#1')} with the group")
        assert any(t.endswith("to 0718") for t in p.legal()) == open_
        p = Position(scenario, moon="full") if scenario == "18.5" else Position(scenario)
        for k in (1, 2, 3):
            p.put(f"cc_lancers#{k}", "0517")
        p.put("cm_town_militia#1", "0617")
        p.put("cm_town_militia#2", "0617")
        p.combat(LUNAR)
        p.acts("attack the stack at 0617", "attack with the stack at 0517", "attack 0617 with the stacks at 0517",
               "the stack at 0517 is arranged", "the stack at 0617 is arranged")
        p.act(f"retreat {p.name('cm_town_militia#2')}")
        targets = sorted(t[-4:] for t in p.legal())
        assert targets == (["0618", "0717", "0718"] if open_ else ["0618", "0717"])
