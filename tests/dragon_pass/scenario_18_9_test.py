"""Scenario 18.9 The Marathon Game (L315-L325): 28 game-turns, all combat and
the diplomacy rules (rules/marathon.py, rules/setup.py, rules/alliance.py).

"Roll a die; if odd, then Lunar deploys first, if even, then Sartar deploys
first. Lunar player deploys the entire Lunar Battalia within the Glowline.
Sartar player deploys the entire Sartar Battalia within Sartar. He may
choose to select up to 10 units to form the South Soldier Reserve. The
Reserve are initially kept off-board.

After deployment, roll the die again to decide who plays first: odd =
Lunar, even = Sartar. The player who deploys first selects the phase of the
moon before any units are deployed. The first moving player can only move
units at half-normal movement in the first game-turn.

All of the Independents are available in this scenario. On the first
game-turn, each player receives 40 DP, 20 DP on turns 2-7, 15 DP on turns
8-14, 10 DP on turns 15-28. The South Soldier Reserve enter on any south
edge hex as replacements on game-turn 1.

Receive replacements as per 18.7. In addition, you can purchase replacements
with DPs during the diplomacy segment. Only Sartar and Lunar infantry (at a
cost of 1 DP per CF) and cavalry (at a cost of 2 DP per CF) can be replaced.
Purchased replacements can come from the dead piles or stack of units
removed from play. Sartar replacements enter play from the south edge east
of Stone Cross (inclusive).

A player wins by controlling both Boldhome and Furthest at the end of the
game. If neither player wins, the game is a draw."""
import numpy as np
import pytest

from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.board import FORTRESS_NAMES
from dragongym.envs.dragon_pass.constants import (
    ENTRY_LUNAR_GLOWLINE, ENTRY_SARTAR_SOUTH, ENTRY_SOUTH_EDGE, LUNAR as LUNAR_SEAT, NUM_UNITS, SARTAR as SARTAR_SEAT,
    UW_ENTERING, UW_MAP, UW_OUT,
)
from dragongym.envs.dragon_pass.game import GAME

from .diplomacy_test import new_game_turn, skip
from .scenario import LUNAR, SARTAR, Position, seat, unit
from .scenario_18_7_test import end_of_play, first_die

SC = R.SCENARIOS.index("18.9")
FREE = "fa_free_warriors#1"          # Sartar infantry, 4-x-5: CF 4, MF 5
LANCERS = "cc_lancers#1"             # Lunar cavalry: CF 4
PHALANX = "nf_furthest_phalanx#1"    # Lunar infantry: CF 5, MF 4


def fresh(seed):
    """A new game of 18.9 from ``seed``, before anything is chosen."""
    p = Position("18.9", seed=seed)
    GAME.reset(p.S, np.array([seed], np.uint64), p.config)
    return p


def marathon(**kw):
    """An 18.9 position, the map empty (scenario.Position)."""
    return Position("18.9", moon="full", **kw)


def test_rule_dp_scenario_18_9_a_die_decides_who_deploys_first_and_he_selects_the_moon():
    """L317: odd, the Lunar player deploys first; even, Sartar. L319: the
    player who deploys first selects the phase of the moon before any units
    are deployed."""
    seen = set()
    for seed in range(1, 12):
        p = fresh(seed)
        first = LUNAR if first_die(seed) % 2 == 1 else SARTAR
        seen.add(first)
        assert int(p.s["first_deployer"]) == seat(first)
        assert int(p.s["max_turns"]) == 28                  # 28 game-turns (L315)
        assert p.phase == R.PH_MOON and p.to_play == first
        p.act(p.legal()[0])
        assert p.phase == R.PH_DEPLOY and p.to_play == first
    assert seen == {LUNAR, SARTAR}


def deploy_all(p, reserve=10):
    """Play the deployment: each side puts its units on the first legal hex,
    Sartar holding back ``reserve`` units as the South Soldier Reserve; stops
    before the last unit is placed. Returns the number held back."""
    held = 0
    while True:
        legal = p.legal()
        joins = [t for t in legal if t.endswith("joins the South Soldier Reserve")]
        if p.to_play == SARTAR and joins and held < reserve:
            p.act(joins[0])
            held += 1
            continue
        left = sum(1 for u in range(NUM_UNITS) if int(p.s["unit_where"][u]) == 1)
        if left == 1:
            return held, [t for t in legal if not t.endswith("joins the South Soldier Reserve")][0]
        p.act(legal[0])


def test_rule_dp_scenario_18_9_the_entire_battalia_the_reserve_off_board_and_the_second_die():
    """L317: the entire Lunar Battalia within the Glowline (the Twin Stars are
    not of it, L269; Interpretations 150), the entire Sartar Battalia within
    Sartar; up to 10 Sartar units form the South Soldier Reserve, kept
    off-board, to enter by any south edge hex (L321; Interpretations 151).
    L319: after deployment a second die decides who plays first, odd the
    Lunar player, even Sartar -- whoever deployed first. L321: 40 DP on the
    first game-turn."""
    p = fresh(2)
    p.act(p.legal()[0])                                       # the moon
    held, last = deploy_all(p)
    assert held == 10
    assert not [t for t in p.legal() if t.endswith("joins the South Soldier Reserve")]   # 10 at most
    s = p.s
    entering = [u for u in range(NUM_UNITS) if int(s["unit_where"][u]) == UW_ENTERING]
    assert len(entering) == 10 and all(int(s["unit_entry"][u]) == ENTRY_SOUTH_EDGE for u in entering)
    assert all(int(R.U_FORCE[u]) == SARTAR_SEAT for u in entering)
    assert int(s["unit_where"][unit("twin_stars")]) == UW_OUT
    for u in range(NUM_UNITS):
        if int(R.U_FORCE[u]) >= 0 and int(s["unit_where"][u]) == UW_MAP:
            assert R.DEPLOY_ZONE[SC, int(R.U_FORCE[u]), int(s["unit_hex"][u])]
    deployer = int(s["first_deployer"])
    for face, plays_first in ((1, LUNAR_SEAT), (2, SARTAR_SEAT), (5, LUNAR_SEAT), (6, SARTAR_SEAT)):
        q = Position("18.9")
        q.S[:] = p.S
        q.dice(face)                                          # the second die (L319)
        q.act(last)
        assert int(q.s["first_force"]) == plays_first
        assert int(q.s["first_deployer"]) == deployer        # the first die's choice stands
        assert q.phase == R.PH_DIPLOMACY and list(q.s["dp"][:2]) == [40, 40]     # L321
        assert q.to_play == ("lunar", "sartar")[plays_first]  # the first player assigns first


def test_rule_dp_scenario_18_9_the_reserve_enters_by_any_south_edge_hex_as_replacements():
    """L321: the South Soldier Reserve enters on any south edge hex -- west of
    Stone Cross too, unlike 18.7's (L297) -- as replacements do (L474): at its
    MF or force marched, or later (Interpretations 151)."""
    p = marathon()
    p.entering(FREE, ENTRY_SOUTH_EDGE)
    p.movement(SARTAR, player_turn=2)                         # game-turn 1, Sartar second: full movement
    assert "end the movement phase" in p.legal()              # it may wait, as replacements may (L474)
    p.act(f"bring {p.name(FREE)} onto the board")
    hexes = {a.rsplit(" ", 1)[1] for a in p.legal()}
    assert {"0134", "1834", "1934", "4534"} <= hexes          # every south edge hex
    p.act(f"{p.name(FREE)} enters at 1834")
    p.act(f"{p.name(FREE)} force marches on")
    assert p.where(FREE) == "1834"
    # 18.7's reserve: east of Stone Cross only (L297)
    q = Position("18.7", moon="full")
    q.entering(FREE, int(R.RESERVE_ENTRY[R.SCENARIOS.index("18.7")]))
    q.movement(SARTAR, player_turn=2)
    q.act(f"bring {q.name(FREE)} onto the board")
    assert "1834" not in {a.rsplit(" ", 1)[1] for a in q.legal()}


def first_movement(p, first):
    """Game-turn 1 begins from an 18.9 position (the game-turn 0 closing), with
    ``first`` the first player: its Diplomacy Segment passes (nothing bought,
    nothing assigned) and play runs to the first player's movement."""
    new_game_turn(p, 1, first=first)
    while p.phase != R.PH_MOVE:
        if p.phase in (R.PH_DIPLOMACY, R.PH_PURCHASE, R.PH_REPLACE, R.PH_ALLIANCE):
            done = [t for t in p.legal() if t.startswith(("assign no more", "buy no more", "take no more",
                                                           "end the Alliance"))]
            assert done, p.legal()
            p.act(done[0])
        else:
            skip(p)
    return p


@pytest.mark.parametrize("first", [LUNAR, SARTAR])
def test_rule_dp_scenario_18_9_the_first_moving_player_moves_at_half_movement_in_game_turn_1(first):
    """L319: the first moving player can only move units at half-normal
    movement in the first game-turn: each unit has half its MF in movement
    points, exactly (the core counts half MPs: a 5 MF unit has 2.5 MP);
    entering units too, the force march's 3 free MPs not halved
    (Interpretations 153)."""
    p = marathon()
    p.put(PHALANX, "0404")                                    # MF 4
    p.put(FREE, "2524")                                       # MF 5
    p.s["dp"][:] = 0
    mover, other = (PHALANX, FREE) if first == LUNAR else (FREE, PHALANX)
    first_movement(p, first)
    assert p.to_play == first and int(p.s["turn"]) == 1
    mf = int(R.U_MF[unit(mover), 0])
    assert p.mp(mover) == mf / 2                              # half-normal movement
    assert p.mp(other) == 0                                   # not his phase


def test_rule_dp_scenario_18_9_half_movement_covers_entering_units_and_ends_with_game_turn_1():
    """L319: half-normal movement for the first player's units in game-turn 1
    only: an entering unit has half its MF plus the force march's 3 free MP;
    the second player and later game-turns move at full movement."""
    p = marathon()
    p.entering(FREE, ENTRY_SOUTH_EDGE)
    p.s["dp"][:] = 0
    first_movement(p, SARTAR)
    p.acts(f"bring {p.name(FREE)} onto the board", f"{p.name(FREE)} enters at 2334",
           f"{p.name(FREE)} force marches on")
    assert p.mp(FREE) == 2.5 + 3 - 2                          # half of 5, 3 free, 2 to enter (L474)
    q = marathon()                                            # Sartar second in game-turn 1: full movement
    q.entering(FREE, ENTRY_SOUTH_EDGE)
    q.movement(SARTAR, player_turn=2)
    q.acts(f"bring {q.name(FREE)} onto the board", f"{q.name(FREE)} enters at 2334",
           f"{q.name(FREE)} force marches on")
    assert q.mp(FREE) == 5 + 3 - 2
    r = marathon()                                            # the first player in game-turn 2: full
    r.put(FREE, "2524")
    r.s["dp"][:] = 0
    new_game_turn(r, 2, first=SARTAR)
    while r.phase != R.PH_MOVE:
        done = [t for t in r.legal() if t.startswith(("assign no more", "buy no more", "take no more",
                                                       "end the Alliance"))]
        r.act(done[0]) if done else skip(r)
    assert r.to_play == SARTAR and r.mp(FREE) == 5


def test_rule_dp_scenario_18_9_diplomacy_points_of_each_game_turn():
    """L321: 40 DP on the first game-turn, 20 on turns 2-7, 15 on turns 8-14,
    10 on turns 15-28."""
    for turn, points in ((1, 40), (2, 20), (7, 20), (8, 15), (14, 15), (15, 10), (28, 10)):
        p = marathon()
        p.s["dp"][:] = 0
        new_game_turn(p, turn)
        assert p.phase == R.PH_PURCHASE and int(p.s["turn"]) == turn     # the Diplomacy Segment
        assert list(p.s["dp"][:2]) == [points, points], turn


def bought(p):
    """The units the player to move may buy now, by id."""
    from dragongym.envs.dragon_pass.constants import UNIT_IDS
    return {UNIT_IDS[GAME.string_to_action(p.S, t) - R.A_UNIT]: t for t in p.legal() if t.startswith("buy ")
            and not t.startswith("buy no more")}


def test_rule_dp_scenario_18_9_replacements_bought_with_diplomacy_points():
    """L323, L981: in the Diplomacy Segment a player may buy replacements:
    only Lunar and Sartar infantry, for 1 DP per CF, and cavalry, for 2 DP
    per CF, from the dead pile or the units removed from play; a Lunar one
    enters by an edge hex of the dark Glowline (L981), a Sartar one by the
    south edge east of Stone Cross (Interpretations 154-156). Heroes cannot
    be bought."""
    p = marathon()
    p.s["dp"][:] = 0
    p.s["random_events"] = 1                                  # events 32 and 33 remove Lunar units from play
    p.s["unit_where"][unit("hc_infantry#1")] = UW_OUT        # removed from play (L970, L971)
    new_game_turn(p, 15)                                      # 10 DP each (L321)
    assert p.phase == R.PH_PURCHASE and p.to_play == LUNAR
    offer = bought(p)
    assert offer[PHALANX].endswith("for 5 DP")                # infantry: its CF, 5
    assert int(R.U_CF[unit(LANCERS), 0]) == 4
    assert offer[LANCERS].endswith("for 8 DP")                # cavalry: twice its CF
    assert "cc_heavy_lancers#1" not in offer                  # 12 DP, more than the 10 he holds
    assert "hc_infantry#1" in offer                           # removed from play
    assert "jar_eel" not in offer and "red_emperor" not in offer     # only infantry and cavalry
    assert all(int(R.U_FORCE[unit(u)]) == LUNAR_SEAT for u in offer)
    p.act(offer[PHALANX])
    s = p.s
    assert int(s["dp"][LUNAR_SEAT]) == 10 - 5
    u = unit(PHALANX)
    assert int(s["unit_where"][u]) == UW_ENTERING and int(s["unit_entry"][u]) == ENTRY_LUNAR_GLOWLINE
    assert p.phase == R.PH_PURCHASE and p.to_play == LUNAR   # he may buy more, with 5 DP
    assert all(int(R.PURCHASE_COST[unit(v)]) <= 5 for v in bought(p))
    p.act("buy no more replacements this game-turn")
    assert p.phase == R.PH_PURCHASE and p.to_play == SARTAR
    offer = bought(p)
    assert offer["fa_free_cavalry#1"].endswith("for 10 DP")  # cavalry 5 CF: 10
    assert "argrath" not in offer
    p.act(offer["fa_free_cavalry#1"])
    v = unit("fa_free_cavalry#1")
    assert int(s["dp"][SARTAR_SEAT]) == 0 and int(s["unit_entry"][v]) == ENTRY_SARTAR_SOUTH
    assert p.phase != R.PH_PURCHASE                           # no DP left: the segment goes on


def test_rule_dp_scenario_18_9_a_bought_lunar_replacement_enters_by_the_dark_glowline_edge():
    """L981: Lunar replacements bought with DP enter the map on any edge hex
    within the darker portion of the Glowline, in a movement phase (L474)."""
    p = marathon()
    p.entering(PHALANX, ENTRY_LUNAR_GLOWLINE)
    p.movement(LUNAR, player_turn=3)
    p.act(f"bring {p.name(PHALANX)} onto the board")
    hexes = {a.rsplit(" ", 1)[1] for a in p.legal()}
    assert hexes and hexes <= {"0101", "0102", "0103", "0104", "0105", "0106", "0107", "0108", "0109", "0110",
                               "0201", "0301", "0401", "0501", "0601", "0701", "0801", "0901", "1001", "1101"}


def test_rule_dp_scenario_18_9_replacements_as_18_7_come_first_and_18_7_buys_none():
    """L323: replacements as per 18.7 (one per 2 dead infantry, in the
    capital, L299) are taken before any are bought; 18.7 itself has no
    purchases ("In addition", L323; Interpretations 155)."""
    p = marathon()
    p.s["dp"][:] = 0
    p.s["dead_count"][LUNAR_SEAT] = [2, 0]
    new_game_turn(p, 2)
    assert p.phase == R.PH_REPLACE and p.to_play == LUNAR
    p.act("take no more replacements this game-turn")
    assert p.phase == R.PH_PURCHASE
    q = Position("18.7", moon="full")
    q.s["dp"][:] = 0
    new_game_turn(q, 2)
    assert q.phase == R.PH_DIPLOMACY                          # straight to the assignment
    assert not any(t.startswith("buy ") for t in q.legal())


def test_rule_dp_scenario_18_9_victory_both_boldhome_and_furthest_else_a_draw():
    """L325: a player wins by controlling both Boldhome and Furthest at the
    end of the game; if neither player wins, the game is a draw."""
    boldhome, furthest = FORTRESS_NAMES.index("Boldhome"), FORTRESS_NAMES.index("Furthest")
    for owners, rank in (((SARTAR_SEAT, SARTAR_SEAT), [2, 1]), ((LUNAR_SEAT, LUNAR_SEAT), [1, 2]),
                         ((SARTAR_SEAT, LUNAR_SEAT), [1, 1])):
        p = marathon()
        p.s["fortress_owner"][boldhome], p.s["fortress_owner"][furthest] = owners
        end_of_play(p)
        assert int(p.s["turn"]) == 28
        assert list(p.s["rank"][:2]) == rank, owners
        assert list(p.s["score"][:2]) == [sum(o == LUNAR_SEAT for o in owners), sum(o == SARTAR_SEAT for o in owners)]


def test_rule_dp_scenario_18_9_is_made_by_name_with_the_random_events_option():
    """``dragongym.make("dragon_pass", scenario="18.9")``: seats lunar and
    sartar; the Random Events Option is allowed, a two-player game between
    Sartar and the Lunar Empire (L950)."""
    import dragongym
    env = dragongym.make("dragon_pass", scenario="18.9")
    assert tuple(env.possible_agents) == ("lunar", "sartar")
    config = GAME.make_config(scenario="18.9", random_events=True)
    assert config.random_events
    assert GAME.spec_for(config).turn_limit is None
