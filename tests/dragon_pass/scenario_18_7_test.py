"""Scenario 18.7 The Full Game (L295-L301): 14 game-turns, all combat and the
diplomacy rules.

"Roll a die; if odd, then Lunar deploys first, if even, then Sartar deploys
first. Lunar player deploys the entire Lunar Battalia (but not the Twin
Stars unit) within the Glowline. Sartar player deploys the entire Sartar
Battalia within Sartar. He may choose to pick up to 10 units to form the
South Soldier Reserve. ... All of the Independents are available in this
scenario. ... At the end of play, the player who controls the greater number
of his opponent's fortresses wins. If tied, the player who was not chosen to
be the first player to deploy is the winner."
"""
import numpy as np

from dragongym.envs.dragon_pass import observe as O
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.board import FORTRESS_NAMES
from dragongym.envs.dragon_pass.constants import LUNAR as LUNAR_SEAT, NUM_UNITS, SARTAR as SARTAR_SEAT, UW_OUT
from dragongym.envs.dragon_pass.game import GAME

from .diplomacy_test import skip
from .scenario import LUNAR, SARTAR, Position, seat

_GOLDEN, _M1, _M2, _MASK = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB, (1 << 64) - 1


def first_die(seed):
    """The first die of a game's stream (envs/core/rng.py: splitmix64 of
    seed + GOLDEN, its top 53 bits as a fraction of 6), worked out here by
    hand: the deploy-first roll is the game's first draw."""
    z = (seed + _GOLDEN) & _MASK
    z = ((z ^ (z >> 30)) * _M1) & _MASK
    z = ((z ^ (z >> 27)) * _M2) & _MASK
    z ^= z >> 31
    return int(float(z >> 11) / 9007199254740992.0 * 6) + 1


def fresh(seed):
    """A new game of 18.7 from ``seed``, before anything is chosen."""
    p = Position("18.7", seed=seed)
    GAME.reset(p.S, np.array([seed], np.uint64), p.config)
    return p


def test_rule_dp_scenario_18_7_a_die_decides_who_deploys_first_and_he_selects_the_moon():
    """L297: odd, the Lunar player deploys first; even, Sartar. The first to
    deploy selects the phase of the moon (L313; Interpretations 91) and plays
    first each game-turn."""
    seen = set()
    for seed in range(1, 12):
        p = fresh(seed)
        first = LUNAR if first_die(seed) % 2 == 1 else SARTAR
        seen.add(first)
        assert int(p.s["first_deployer"]) == seat(first) == int(p.s["first_force"])
        assert p.phase == R.PH_MOON and p.to_play == first
        p.act(p.legal()[0])
        assert p.phase == R.PH_DEPLOY and p.to_play == first
    assert seen == {LUNAR, SARTAR}


def test_rule_dp_scenario_18_7_the_entire_battalia_and_the_south_soldier_reserve():
    """L297: the entire Lunar Battalia (not the Twin Stars) within the
    Glowline, the entire Sartar Battalia within Sartar; Sartar may hold up
    to 10 units back as the South Soldier Reserve, which force marches on
    to the board on game-turn 1 by any south edge hex east of Stone Cross."""
    p = fresh(2)
    s = p.s
    # the dinosaurs set up before any other unit, one on each dinosaur symbol (L835), and the
    # Puppeteers' 5 Illusory Armies at their locations (L886), all no one's
    from dragongym.envs.dragon_pass.data import MAP
    dinos = [u for u in range(NUM_UNITS) if R.U_DINOSAUR[u] and int(s["unit_where"][u]) == 2]
    assert len(dinos) == len(MAP.dinosaur_symbols) == 12
    assert {int(s["unit_hex"][u]) for u in dinos} == set(MAP.dinosaur_symbols)
    assert all(int(s["unit_force"][u]) == -1 for u in dinos)
    assert sorted(int(s["unit_hex"][u]) for u in R.ILLUSORY_ARMIES) == sorted(int(h) for h in R.PUPPETEER_HOMES)
    p.act(p.legal()[0])                                  # the moon
    reserve = 0
    while p.phase == R.PH_DEPLOY:
        legal = p.legal()
        joins = [t for t in legal if t.endswith("joins the South Soldier Reserve")]
        if p.to_play == SARTAR:
            assert bool(joins) == (reserve < 10)
            if joins:
                p.act(joins[0])
                reserve += 1
                continue
        else:
            assert not joins
        p.act(legal[0])
    s = p.s
    assert reserve == 10
    entering = [u for u in range(NUM_UNITS) if int(s["unit_where"][u]) == 5]
    assert len(entering) == 10 and all(int(s["unit_entry"][u]) == R.ENTRY_SARTAR_SOUTH for u in entering)
    assert int(s["unit_where"][R.UNIT_IDS.index("twin_stars")]) == UW_OUT
    for u in range(NUM_UNITS):
        if int(R.U_FORCE[u]) >= 0 and int(s["unit_where"][u]) == 2:
            h = int(s["unit_hex"][u])
            assert R.DEPLOY_ZONE[R.SCENARIOS.index("18.7"), int(R.U_FORCE[u]), h]
    # every Independent available, out of play and unallied (L299)
    assert int(s["units_end"]) == NUM_UNITS
    on_board = set(int(u) for u in R.ILLUSORY_ARMIES) | {u for u in range(NUM_UNITS) if R.U_DINOSAUR[u]}
    assert all(int(s["unit_where"][u]) in (UW_OUT, 6) and int(s["unit_force"][u]) == -1
               for u in range(NUM_UNITS) if R.U_FACTION[u] >= 0 and u not in on_board)
    assert list(s["faction_ally"]) == [-1] * R.NUM_FACTIONS
    # the first game-turn's Diplomacy Segment: 50 DP each (L299)
    assert p.phase == R.PH_DIPLOMACY and list(s["dp"][:2]) == [50, 50]


def test_rule_dp_scenario_18_7_the_independents_are_distinct_in_the_observation():
    """Unallied Independents are valid rows owned by no one, off the map; an
    allied one is its ally's (observe.U_*)."""
    p = Position("18.7", moon="full")
    p.s["faction_ally"][R.MAJORS.index("exiles")] = SARTAR_SEAT
    u = R.UNIT_IDS.index("ex_infantry#1")
    p.s["unit_force"][u] = SARTAR_SEAT
    p.put("ex_infantry#1", "1921")
    p.movement(SARTAR, player_turn=2)
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([LUNAR_SEAT]), obs)
    rows = obs[0, O.UNITS_OFF:O.FLAT_OFF].reshape(NUM_UNITS, O.UNIT_FEATURES)
    unallied = R.UNIT_IDS.index("ironhoof")
    assert rows[unallied, O.U_VALID] == 1 and rows[unallied, O.U_OWN] == 0 and rows[unallied, O.U_ENEMY] == 0
    assert rows[unallied, O.U_COLUMN] == -1
    assert rows[u, O.U_ENEMY] == 1
    assert obs[0, O.FLAT_OFF + O.F_ALLY + R.MAJORS.index("exiles")] == -1


def end_of_play(p, first=LUNAR):
    """The scenario's last game-turn (14 in 18.7, 28 in 18.9) ends: its second
    player ends his movement, and play runs to the end of the game (L295, L315)."""
    second = SARTAR if first == LUNAR else LUNAR
    p.s["first_force"] = seat(first)
    p.movement(second, player_turn=2 * int(p.s["max_turns"]))
    p.s["first_force"] = seat(first)
    p.act("end the movement phase")
    while int(p.s["status"]) == 0:
        skip(p)
    return p


def test_rule_dp_scenario_18_7_victory_the_more_enemy_fortresses_and_the_tie_break():
    """L301: the player who controls the greater number of his opponent's
    fortresses wins; if tied, the player who was not chosen to deploy
    first."""
    sartar_forts = [k for k in range(len(FORTRESS_NAMES)) if R.FORTRESS_SARTAR[k]]
    lunar_forts = [k for k in range(len(FORTRESS_NAMES)) if not R.FORTRESS_SARTAR[k]]
    p = Position("18.7", moon="full")
    p.s["fortress_owner"][sartar_forts[0]] = LUNAR_SEAT
    p.s["fortress_owner"][sartar_forts[1]] = LUNAR_SEAT
    p.s["fortress_owner"][lunar_forts[0]] = SARTAR_SEAT
    end_of_play(p)
    assert list(p.s["rank"][:2]) == [1, 2] and list(p.s["score"][:2]) == [2, 1]
    for chosen, winner in ((LUNAR, [2, 1]), (SARTAR, [1, 2])):
        p = Position("18.7", moon="full")
        p.s["first_deployer"] = seat(chosen)
        p.s["fortress_owner"][sartar_forts[0]] = LUNAR_SEAT
        p.s["fortress_owner"][lunar_forts[0]] = SARTAR_SEAT
        end_of_play(p)
        assert list(p.s["rank"][:2]) == winner                 # tied 1-1: the one not chosen wins
