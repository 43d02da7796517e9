"""The Hydra of Hydra Hill (L878-L882): once allied, a die gives its chaotic
MgF; it cannot be moved until it is fed as many units as its MgF; any allied
unit within 1 hex can be fed to it -- offered at the start of its side's
movement phase and in its Exotic Magic Phase (Interpretations 135) -- and a
hero or superhero fed to it makes no heroic escape. The Hydra comes by an
emissary (diplomacy_test.py); here the tests hand it to a side with its MgF rolled
(``hydra_mgf``, ``hydra_hunger``), as ``hydra.hydra_awakes`` does."""
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import FORCES

from .combat_test import LANCERS
from .cragspider_test import step
from .exotic_test import choose, exotic
from .magic_test import ATTACKER, DEFENDER, declare
from .movement_test import to_next_player_turn
from .scenario import LUNAR, SARTAR, Position, unit

HYDRA = "hydra"


def hydra_for(p, force, where="2014", mgf=-2):
    """The Hydra on the map at ``where``, allied to ``force``, its MgF rolled:
    ``mgf``, as many units still to feed it."""
    s = p.s
    s["units_end"] = max(int(s["units_end"]), unit(HYDRA) + 1)
    p.put(HYDRA, where)
    s["unit_force"][unit(HYDRA)] = FORCES.index(force)
    s["hydra_mgf"] = mgf
    s["hydra_hunger"] = -mgf


def lunar_turn_starts(p):
    """Play the Sartar player-turn out: the Lunar one begins (its movement phase)."""
    p.movement(SARTAR, player_turn=2)
    to_next_player_turn(p)
    assert p.to_play == LUNAR


def test_rule_dp_hydra_cannot_move_until_fed_as_many_units_as_its_mgf():
    """L880: 'The Hydra cannot be moved until it is fed a number of units equal
    to its MgF. Any allied units within 1 hex of the Hydra can be fed to it'."""
    p = Position()
    hydra_for(p, LUNAR, mgf=-2)
    p.put(LANCERS[0], "2013")
    p.put(LANCERS[1], "2015")
    p.put(LANCERS[2], "2017")                                 # 3 hexes away: no food
    lunar_turn_starts(p)
    assert p.phase == R.PH_HYDRA_FEED and sorted(p.legal()) == sorted([
        f"feed {p.name(LANCERS[0])} to the Hydra", f"feed {p.name(LANCERS[1])} to the Hydra",
        "feed no more units to the Hydra now"])
    p.act(f"feed {p.name(LANCERS[0])} to the Hydra")
    assert p.where(LANCERS[0]) == "dead" and int(p.s["hydra_hunger"]) == 1
    p.act("feed no more units to the Hydra now")
    assert p.phase == R.PH_MOVE and "select the stack at 2014" not in p.legal()   # still hungry: it stays
    assert "select the stack at 2015" in p.legal()


def test_rule_dp_hydra_fed_enough_moves_in_that_movement_phase():
    """L880: fed its MgF in units, it moves (at its MF of 4) -- in the movement
    phase it was fed at the start of (Interpretations 135)."""
    p = Position()
    hydra_for(p, LUNAR, mgf=-2)
    p.put(LANCERS[0], "2013")
    p.put(LANCERS[1], "2015")
    lunar_turn_starts(p)
    p.act(f"feed {p.name(LANCERS[0])} to the Hydra")
    p.act(f"feed {p.name(LANCERS[1])} to the Hydra")
    assert p.phase == R.PH_MOVE and int(p.s["hydra_hunger"]) == 0
    assert "select the stack at 2014" in p.legal() and p.mp(HYDRA) == 4


def test_rule_dp_hydra_heroes_fed_to_it_make_no_heroic_escape():
    """L880: 'Heroes and superheroes fed to the Hydra cannot attempt heroic escapes.'"""
    p = Position("18.5", moon="full")
    hydra_for(p, LUNAR, mgf=-1)
    p.put("aelwrin", "2013")
    lunar_turn_starts(p)
    p.act(f"feed {p.name('aelwrin')} to the Hydra")
    assert p.where("aelwrin") == "dead"                      # not "escaping" (L642)


def test_rule_dp_hydra_nothing_is_asked_without_allied_units_within_1_hex():
    """L880: 'Any allied units within 1 hex': with none (a unit of its side 2
    hexes away; the Hydra itself is no food), nothing is asked."""
    p = Position()
    hydra_for(p, LUNAR, mgf=-3)
    p.put(LANCERS[0], "2012")
    lunar_turn_starts(p)
    assert p.phase == R.PH_MOVE and not any("Hydra" in t for t in p.legal())


def test_rule_dp_hydra_is_fed_in_its_sides_exotic_magic_phase():
    """L880 'at any time': in the Exotic Magic Phase too (Interpretations 135);
    no longer offered once it is sated."""
    p = Position("18.5", moon="full")
    hydra_for(p, SARTAR, mgf=-1)
    p.put("cm_town_militia#1", "2013")
    p.put("cm_town_militia#2", "2015")
    p.put("full_moon_corps", step("2014", 5))               # an enemy beside it: no food
    exotic(p, SARTAR)
    choose(p, "Hydra", "uses its exotic magic")
    assert sorted(p.legal()) == sorted(f"feed {p.name(u)} to the Hydra" for u in ("cm_town_militia#1", "cm_town_militia#2"))
    p.act(f"feed {p.name('cm_town_militia#2')} to the Hydra")
    assert p.where("cm_town_militia#2") == "dead" and int(p.s["hydra_hunger"]) == 0
    assert not any("Hydra" in t for t in p.legal())


def test_rule_dp_hydra_chaotic_mgf_is_the_one_rolled():
    """L880, L516: the Hydra's chaotic MgF, rolled when it allied (here -2),
    eliminates that many defenders, chosen by the attacker."""
    p = Position("18.4", moon="full")
    hydra_for(p, LUNAR, ATTACKER, mgf=-2)
    p.s["hydra_hunger"] = 0
    p.put("full_moon_corps", ATTACKER)
    defenders = ("bh_shamans#1", "bh_shamans#2", "smu_earth_priestesses#1")
    for u in defenders:
        p.put(u, DEFENDER)
    p.combat(LUNAR)
    declare(p)
    for u in defenders[:2]:
        assert p.to_play == LUNAR and p.phase == R.PH_MAGIC_CASUALTY
        choose(p, "eliminate", p.name(u))
    assert p.where(defenders[0]) == p.where(defenders[1]) == "dead"
    assert p.where(defenders[2]) == DEFENDER


def test_rule_dp_hydra_still_hungry_cannot_retreat():
    """L880: 'cannot be moved until it is fed': no retreat either; its
    stack-mate may retreat."""
    from .combat_test import MILITIA, arranged
    from .combat_test import declare as declare_battle
    p = Position()
    hydra_for(p, SARTAR, "0604", mgf=-2)
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    declare_battle(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    assert p.phase == R.PH_RETREAT
    assert f"retreat {p.name(MILITIA[0])}" in p.legal() and f"retreat {p.name(HYDRA)}" not in p.legal()
