"""Scenario 18.8 The Rising of Tarsh (L303-L313): 14 game-turns, all combat,
three players.

"The Tarsh player deploys first within Beast's Valley, Grazelands and
Wintertop: Androgeus, The Dwarf and all his gifts, The Exiles, The
Grazelanders, Ironhoof and the Half-Beasts, The Dragonewts (Dragonewts on
their home cities). Lunar player deploys second, with the entire Lunar
Battalia (but not the Twin Star unit) within the Glowline. Sartar player
deploys last, placing the entire Sartar Battalia within Sartar. The Tarsh
player selects the phase of the moon before any units are deployed. ... If
a player controls his own capital and at least one other capital at the end
of the game, he is the winner. If none of the players win, the game is a
draw."
"""
import numpy as np

import dragongym
from dragongym.envs.dragon_pass import observe as O
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.board import FORTRESS_NAMES, HEX_STEP
from dragongym.envs.dragon_pass.constants import NUM_UNITS, TARSH as TARSH_SEAT, UW_MAP, UW_OUT, UW_POOL
from dragongym.envs.dragon_pass.data import MAP
from dragongym.envs.dragon_pass.game import GAME

from .scenario import LUNAR, SARTAR, TARSH, Position, hexi, seat, unit

PONIES = "gz_clans_6_4_5#1"          # a Grazelander clan, Tarsh's (6-4-5)
LANCER = "cc_lancers#1"              # Lunar 4-2-7
MILITIA = "cm_town_militia#1"        # Sartar 3-3-4
FREE = "fa_free_warriors#1"          # Sartar 4-5-5


def fresh(seed=1):
    """A new game of 18.8 from ``seed``, before anything is chosen."""
    p = Position("18.8", seed=seed)
    GAME.reset(p.S, np.array([seed], np.uint64), p.config)
    return p


def test_rule_dp_scenario_18_8_three_players_named_by_faction():
    """L303: a 3-player scenario; the agents are the factions."""
    env = dragongym.make("dragon_pass", scenario="18.8")
    assert sorted(env.possible_agents) == ["lunar", "sartar", "tarsh"]
    spec = GAME.spec_for(GAME.make_config(scenario="18.8"))
    assert spec.roles == ("lunar", "sartar", "tarsh") and spec.num_seats == 3


def test_rule_dp_scenario_18_8_tarsh_selects_the_moon_and_deploys_first_then_lunar_then_sartar():
    """L305-L311: the Tarsh player selects the phase of the moon, then deploys
    first within Beast's Valley, the Grazelands and Wintertop; the Lunars
    second within the Glowline; Sartar last within Sartar."""
    p = fresh()
    assert p.phase == R.PH_MOON and p.to_play == TARSH
    p.act(p.legal()[0])
    order = []
    s = p.s
    while p.phase == R.PH_DEPLOY:
        who = p.to_play
        if not order or order[-1] != who:
            order.append(who)
        zone = {"tarsh": {"beast_valley", "grazelands", "wintertop"}, "lunar": {"glowline_dark", "glowline_light"},
                "sartar": {"old_sartar", "duck_point", "alda_chur", "alone"}}[who]
        hexes = [a.split()[-1] for a in p.legal() if a.split()[-1].isdigit()]
        assert hexes and all(MAP.territory[hexi(h)] in zone for h in hexes)
        p.act(p.legal()[0])
    assert order == [TARSH, LUNAR, SARTAR]
    # every counter the scenario gives is on the map: Tarsh's are the Independents it takes
    placed = [u for u in range(NUM_UNITS) if int(s["unit_where"][u]) == UW_MAP]
    tarsh = [u for u in placed if int(s["unit_force"][u]) == TARSH_SEAT]
    assert unit("androgeus") in tarsh and unit("ironhoof") in tarsh and unit("dwarf") in tarsh
    assert unit("stone_men#1") in tarsh and unit("alchemical_transformer") in tarsh
    assert all(int(R.U_FORCE[u]) < 0 for u in tarsh)
    assert not any(int(s["unit_where"][u]) == UW_POOL for u in range(NUM_UNITS))
    assert int(s["unit_where"][unit("twin_stars")]) != UW_MAP          # not the Twin Star unit (L307)


def test_rule_dp_scenario_18_8_the_dragonewts_start_on_their_home_cities():
    """L305, L740: the Dragonewts are placed on their home cities, not
    deployed like the others."""
    p = fresh()
    s = p.s
    newts = [u for u in range(NUM_UNITS) if R.U_HOME_CITY[u] >= 0 and int(s["unit_force"][u]) == TARSH_SEAT]
    assert newts
    for u in newts:
        if R.U_MAGICIAN[u] >= 0:
            continue                                          # a spirit in its holding box (L416)
        assert int(s["unit_where"][u]) == UW_MAP
        assert int(s["unit_hex"][u]) == int(R.CITY_HEX[R.U_HOME_CITY[u]])


def test_rule_dp_scenario_18_8_the_player_turns_go_tarsh_lunar_sartar():
    """The three players play in the order they deploy (Interpretations 180):
    Tarsh, then the Lunars, then Sartar, each game-turn."""
    p = fresh()
    p.act(p.legal()[0])
    while p.phase == R.PH_DEPLOY:
        p.act(p.legal()[0])
    s = p.s
    seen = []
    while int(s["turn"]) <= 2 and int(s["status"]) == 0:
        pt = int(s["player_turn"])
        if not seen or seen[-1][0] != pt:
            seen.append((pt, int(s["active"]), int(s["turn"])))
        legal = p.legal()
        done = [a for a in legal if a.startswith(("done", "no more", "end", "commit no more"))]
        p.act(done[0] if done else legal[0])
    by_turn = [(t, a) for _, a, t in seen if t <= 2]
    assert [a for t, a in by_turn if t == 1] == [seat(TARSH), seat(LUNAR), seat(SARTAR)]
    assert [a for t, a in by_turn if t == 2][:1] == [seat(TARSH)]


def test_rule_dp_scenario_18_8_every_other_players_zone_of_control_stops_a_move():
    """L460 among three: a unit entering a hex beside a unit of either of the
    other two players stops there."""
    for foe in (MILITIA, LANCER):
        p = Position("18.8")
        p.put(PONIES, "0404")
        p.put(foe, "0604")                      # beside 0504
        p.movement(TARSH)
        p.acts("select the stack at 0404", f"move {p.name(PONIES)} with the group")
        p.act(f"move {p.name(PONIES)} from 0404 to 0504")
        assert p.where(PONIES) == "0504"
        assert "select the stack at 0504" not in p.legal()      # its move is over


def test_rule_dp_scenario_18_8_a_battle_is_fought_against_one_players_stacks():
    """Interpretations 180: a Tarsh stack beside a Lunar and a Sartar stack
    attacks either; the battle's other defending stacks are of the first
    one's player, who takes the defender's decisions."""
    p = Position("18.8")
    p.put(PONIES, "1722")
    p.put("gz_clans_6_4_5#2", "1722")
    p.put(LANCER, "1822")
    p.put(MILITIA, "1723")
    p.put("cm_town_militia#2", "1723")
    p.combat(TARSH)
    legal = p.legal()
    assert "attack the stack at 1822" in legal and "attack the stack at 1723" in legal
    p.act("attack the stack at 1723")
    p.act("attack with the stack at 1722")
    assert "also attack the stack at 1822" not in p.legal()    # the Lunar stack is no party to it
    assert int(p.s["bat_foe"]) == seat(SARTAR)
    p.act("attack 1723 with the stacks at 1722")
    p.act("the stack at 1722 is arranged")
    assert p.to_play == SARTAR and "the stack at 1723 is arranged" in p.legal()     # the defender arranges
    p.act("the stack at 1723 is arranged")
    assert p.to_play == SARTAR and p.phase == R.PH_RETREAT
    p.act(f"retreat {p.name(MILITIA)}")
    hexes = {a.split()[-1] for a in p.legal()}
    # never beside an enemy unit, whichever of the two other players it is (L578)
    beside = lambda a, b: hexi(b) in HEX_STEP[hexi(a), 1:]
    assert hexes and not any(beside(h, "1822") or beside(h, "1722") for h in hexes)


def end_of_play(owners):
    """Ranks and rewards at the end of 18.8: Furthest, Boldhome and Wintertop
    controlled as ``owners`` says (player names or None); the Sartar player,
    last to play, ends the last movement phase of the last game-turn."""
    p = Position("18.8", moon="black")
    s = p.s
    for u in range(NUM_UNITS):
        if R.U_HOME_CITY[u] >= 0:
            s["unit_where"][u] = UW_OUT          # no dragonewt in the dead pile to resurrect (L742)
    for name, who in zip(("Furthest", "Boldhome"), owners[:2]):
        s["fortress_owner"][FORTRESS_NAMES.index(name)] = -1 if who is None else seat(who)
    s["site_owner"][int(R.HEX_SITE[int(R.FORCE_CAPITAL[TARSH_SEAT])])] = -1 if owners[2] is None else seat(owners[2])
    p.movement(SARTAR, player_turn=3 * int(s["max_turns"]))
    p.act("end the movement phase")
    assert int(s["status"]) == 1
    return [int(r) for r in s["rank"]], [float(x) for x in s["rewards"]], [int(x) for x in s["score"]]


def test_rule_dp_scenario_18_8_victory_own_capital_and_one_other():
    """L313: the player controlling his own capital and at least one other
    wins: rank 1 to him, 2 to the others; rewards +1, -1/2, -1/2; the score
    is the players' capitals each holds (Interpretations 181: Wintertop is
    Tarsh's capital, the other capitals the players')."""
    for owners, winner in ((("lunar", "lunar", "tarsh"), LUNAR), (("tarsh", "sartar", "tarsh"), TARSH),
                           (("lunar", "sartar", "sartar"), SARTAR)):
        ranks, rewards, score = end_of_play(owners)
        w = seat(winner)
        assert ranks[w] == 1 and sorted(ranks) == [1, 2, 2]
        assert rewards[w] == 1.0 and sorted(rewards) == [-0.5, -0.5, 1.0]
        assert score[w] == 2 and sum(score) == 3


def test_rule_dp_scenario_18_8_no_winner_is_a_draw():
    """L313: if none of the players win, the game is a draw -- each holding
    his own capital only, or two capitals held by a player who lost his own."""
    for owners in (("lunar", "sartar", "tarsh"), ("sartar", "tarsh", "lunar"), ("tarsh", "tarsh", "lunar")):
        ranks, rewards, _ = end_of_play(owners)
        assert ranks == [1, 1, 1] and rewards == [0.0, 0.0, 0.0], owners


def test_rule_dp_scenario_18_8_the_observation_tells_the_two_opponents_apart():
    """Each seat sees its own units, the first opponent's and the second's
    (U_THIRD) and the three capitals from its side."""
    p = Position("18.8")
    p.put(PONIES, "1722")
    p.put(LANCER, "1822")
    p.put(MILITIA, "3727")
    obs = np.zeros((3, O.OBS_SIZE), np.float32)
    GAME.observe(np.repeat(p.S, 3), np.array([0, 1, 2], np.int64), obs)
    row = lambda name: O.UNITS_OFF + unit(name) * O.UNIT_FEATURES
    # the Lunar seat: Sartar is its first opponent, Tarsh its second
    assert obs[0, row(LANCER) + O.U_OWN] == 1
    assert obs[0, row(MILITIA) + O.U_ENEMY] == 1 and obs[0, row(MILITIA) + O.U_THIRD] == 0
    assert obs[0, row(PONIES) + O.U_ENEMY] == 1 and obs[0, row(PONIES) + O.U_THIRD] == 1
    # the Tarsh seat: Lunar first, Sartar second
    assert obs[2, row(LANCER) + O.U_THIRD] == 0 and obs[2, row(MILITIA) + O.U_THIRD] == 1
    cap = O.FLAT_OFF + O.F_CAPITALS
    assert list(obs[0, cap:cap + 3]) == [1.0, -1.0, -0.5]       # Furthest, Boldhome, Wintertop
    assert list(obs[2, cap:cap + 3]) == [-1.0, -0.5, 1.0]
