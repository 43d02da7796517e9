"""Scenario 18.6 Dousing the Flames (L275-L293): the Lunars against the
Independents -- the second player plays Androgeus, the Exiles, the Pony
Breeders and the Half-Beasts; where each side deploys (Bagnot and Dunstop
held by the Independents); no unit enters Sartar; the Twins are Androgeus'
best friend; the Lunars win only with all five of Bagnot, Dunstop, Rich
Post, Wintertop and Wild Temple."""
import numpy as np

import dragongym
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import LUNAR as LUNAR_I, NEUTRAL, UNIT_IDS, UW_OUT, UW_POOL
from dragongym.envs.dragon_pass.data import DATA, MAP
from dragongym.envs.dragon_pass.game import GAME
from tests.dragon_pass.combat_test import arranged, declare
from tests.dragon_pass.scenario import INDEPENDENTS, LUNAR, Position, unit

SC = R.SCENARIOS.index("18.6")
H = MAP.hex_index
BAGNOT, DUNSTOP = H("1406"), H("0612")
SARTAR_HEXES = {h for h in range(len(MAP.ids)) if MAP.territory[h] in ("old_sartar", "duck_point", "alda_chur", "alone")}


def fresh(seed=3):
    S = GAME.new_states(1)
    GAME.reset(S, np.array([seed], np.uint64), GAME.make_config(scenario="18.6", auto_single=False))
    return S


def step(S, a):
    errors = np.zeros(1, np.int8)
    GAME.step(S, np.array([a], np.int32), errors)
    assert errors[0] == 0


def legal_hexes(S):
    return {int(a) - R.A_HEX for a in np.flatnonzero(GAME.mask_of(S)) if a < R.A_UNIT}


def test_rule_dp_scenario_18_6_the_players_are_the_lunars_and_the_independents():
    """L275: "Lunars vs Independents" -- two agents named by faction; the Lunar
    player selects the moon before any unit is deployed (L291), then deploys first (L277)."""
    env = dragongym.make("dragon_pass", scenario="18.6")
    env.reset(seed=1)
    assert env.possible_agents == ["lunar", "independents"]
    assert env.agent_selection == "lunar"
    S = fresh()
    assert int(S[0]["phase"]) == R.PH_MOON and int(S[0]["to_play"]) == LUNAR_I


def test_rule_dp_scenario_18_6_the_independents_are_the_second_players_units():
    """L284-L289: Androgeus, the Exiles minus the Assassin, the Pony Breeders and the
    Half-Beasts are the Independent player's (seat 1); the other Independents are out."""
    S = fresh()
    for u, name in enumerate(UNIT_IDS):
        if R.U_FORCE[u] == NEUTRAL:
            if R.U_DEPLOY[u, SC]:
                assert int(S[0]["unit_force"][u]) == 1, name
            else:
                assert int(S[0]["unit_where"][u]) == UW_OUT, name
    assert int(S[0]["unit_where"][unit("exiles_assassin")]) == UW_OUT
    assert int(S[0]["unit_where"][unit("androgeus")]) == UW_POOL
    assert int(S[0]["unit_where"][unit("red_emperor")]) == UW_OUT           # only Jar-eel and Aelwrin (L279)
    assert int(S[0]["unit_where"][unit("jar_eel")]) == UW_POOL


def deploy_lunars(S):
    """Choose the moon, then place every Lunar unit on the first hex offered."""
    while int(S[0]["to_play"]) == LUNAR_I:
        step(S, int(np.flatnonzero(GAME.mask_of(S))[0]))


def test_rule_dp_scenario_18_6_the_lunars_deploy_in_the_dark_glowline_but_not_bagnot_or_dunstop():
    """L277: "within the dark part of the Glowline. No units can be placed within Bagnot or Dunstop"."""
    S = fresh()
    step(S, int(np.flatnonzero(GAME.mask_of(S))[0]))           # the moon
    hexes = legal_hexes(S)
    assert hexes and all(MAP.territory[h] == "glowline_dark" for h in hexes)
    assert BAGNOT not in hexes and DUNSTOP not in hexes


def test_rule_dp_scenario_18_6_the_independents_deploy_outside_sartar_and_hold_bagnot_and_dunstop():
    """L284: "outside of Sartar and the dark part of the Glowline. At least one
    Independent unit must be inside each of Bagnot and Dunstop" -- the last units
    to deploy are held to those two hexes while either is still empty of them."""
    S = fresh()
    deploy_lunars(S)
    hexes = legal_hexes(S)
    assert BAGNOT in hexes and DUNSTOP in hexes
    assert not hexes & SARTAR_HEXES
    assert all(MAP.territory[h] != "glowline_dark" for h in hexes - {BAGNOT, DUNSTOP})
    far = H("1229")                                              # Rich Post
    while len(legal_hexes(S)) > 2:
        step(S, R.A_HEX + far)                                   # everyone but the last two at Rich Post
    assert legal_hexes(S) == {BAGNOT, DUNSTOP}
    step(S, R.A_HEX + BAGNOT)
    assert legal_hexes(S) == {DUNSTOP}                           # Bagnot is held; Dunstop must be
    step(S, R.A_HEX + DUNSTOP)
    fort = {f.name: k for k, f in enumerate(MAP.fortresses)}
    assert int(S[0]["fortress_owner"][fort["Bagnot"]]) == int(S[0]["fortress_owner"][fort["Dunstop"]]) == 1
    assert int(S[0]["phase"]) != R.PH_DEPLOY and not (S[0]["unit_where"] == UW_POOL).any()


def test_rule_dp_scenario_18_6_no_unit_moves_or_retreats_into_sartar():
    """L291: "Units cannot retreat or move into or through any part of Sartar":
    from 2822, open ground beside Sartar, no step leads in."""
    beside = {int(n) for n in R.HEX_STEP[H("2822"), 1:] if n >= 0}
    assert beside & SARTAR_HEXES and beside - SARTAR_HEXES
    p = Position("18.6", moon="full")
    p.put("hc_cavalry#1", "2822")
    p.movement(LUNAR)
    p.acts("select the stack at 2822", f"move {p.name('hc_cavalry#1')} with the group")
    steps = {H(t[-4:]) for t in p.legal() if " to " in t}
    assert steps and not steps & SARTAR_HEXES


def winner(lunar_sites):
    """The winner's name at the end of play with the named sites of L293 under
    Lunar control and the rest the Independents'."""
    p = Position("18.6", moon="black")
    fort = {f.name: k for k, f in enumerate(MAP.fortresses)}
    for name in ("Bagnot", "Dunstop"):
        p.s["fortress_owner"][fort[name]] = LUNAR_I if name in lunar_sites else 1
    for k, name in enumerate(("Rich Post", "Wintertop", "Wild Temple")):
        p.s["site_owner"][k] = LUNAR_I if name in lunar_sites else 1
    p.movement(INDEPENDENTS, player_turn=2 * DATA.scenarios["18.6"].turns)
    p.act("end the movement phase")
    assert int(p.s["status"]) == 1
    ranks = [int(r) for r in p.s["rank"][:2]]
    return ("lunar", "independents")[ranks.index(1)], [int(x) for x in p.s["score"][:2]]


def test_rule_dp_scenario_18_6_victory():
    """L293: "Lunar wins if he controls Bagnot, Dunstop, Rich Post, Wintertop, Wild
    Temple. Independent wins if a Lunar victory is prevented" -- four are not enough."""
    five = ("Bagnot", "Dunstop", "Rich Post", "Wintertop", "Wild Temple")
    assert winner(five) == ("lunar", [5, 0])
    for missing in five:
        assert winner(tuple(n for n in five if n != missing)) == ("independents", [4, 1])


def test_rule_dp_scenario_18_6_a_site_comes_under_the_control_of_the_last_side_to_enter_it():
    """Rich Post, a town, is controlled as a fortress is: by the last side to enter it
    (Interpretations); the Independents hold it at the start (their land, L144)."""
    p = Position("18.6", moon="full")
    assert int(p.s["site_owner"][0]) == 1
    p.put("hc_cavalry#1", "1329")
    p.movement(LUNAR)
    p.acts("select the stack at 1329", f"move {p.name('hc_cavalry#1')} with the group", f"move {p.name('hc_cavalry#1')} from 1329 to 1229")
    assert int(p.s["site_owner"][0]) == LUNAR_I


def test_rule_dp_scenario_18_6_the_twins_are_androgeus_best_friend():
    """L291, L633: in 18.6 the Twins are Androgeus' best friend: the Twins killed in
    battle, the Independent player picks the scapegoat that turns Androgeus berserk (L654)."""
    assert R.SCENARIO_BEST_FRIEND[SC, unit("androgeus")] == unit("twins")
    assert R.SCENARIO_BEST_FRIEND[R.SCENARIOS.index("18.4"), unit("androgeus")] == -1      # none unless assigned (L615)
    p = Position("18.6", moon="full")
    p.put("ex_infantry#1", "0904")
    p.put("twins", "0904")
    p.put("androgeus", "1010")
    for k in (1, 2, 3):
        p.put(f"hc_heavy_infantry#{k}", "0804")
    p.put("horse_herds#1", "0804")                 # captured by the Lunars: herds are never scapegoats (L654)
    p.s["unit_force"][unit("horse_herds#1")] = LUNAR_I
    p.s["unit_origin"][unit("horse_herds#1")] = R.ORIGIN_OF + 1      # the Independents' own, captured
    p.combat(LUNAR)
    p.dice(6, 1, 1, 1, 1, 1)
    declare(p, ["0904"], ["0804"])
    arranged(p, "0804", "0904")
    while p.phase != R.PH_SCAPEGOAT and int(p.s["stage"]) == 3:
        p.act(p.legal()[0] if not any(t.startswith("eliminate") for t in p.legal())
              else next(t for t in p.legal() if t.startswith("eliminate")))
    assert p.phase == R.PH_SCAPEGOAT and p.to_play == INDEPENDENTS
    assert p.legal() and not any(t.startswith(p.name("horse_herds#1")) for t in p.legal())
    p.act(p.legal()[0])
    assert p.disrupted("androgeus")                               # his Berserker Rage side (L656)
