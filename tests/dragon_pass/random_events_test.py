"""The Random Events Option (L948-L973, L169-L177, L444).

Only in the two-player games between Sartar and the Lunar Empire (L950).
Each game-turn opens with the Random Events Segment (L174): two dice, the
first the tens, the second the units (L952), looked up in the Random Events
Table. The tests play Sartar's player-turn 2 out (no battles), so that the
book-keeping phase ends game-turn 1 and the segment of game-turn 2 rolls
the loaded dice, before Lunar's player-turn 3.
"""
import pytest

from dragongym.envs.core.config import ConfigError
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.board import FORTRESS_NAMES
from dragongym.envs.dragon_pass.constants import (
    ENTRY_SARTAR_SOUTH, FORCES, NEUTRAL, ST_MOVEMENT, UNIT_IDS, UW_DEAD, UW_ENTERING, UW_OUT,
)
from dragongym.envs.dragon_pass.data import MAP
from dragongym.envs.dragon_pass.game import GAME
from tests.dragon_pass.combat_test import LANCERS, MILITIA, WARRIORS
from tests.dragon_pass.scenario import LUNAR, SARTAR, Position, unit

GIANTS = ["giants#1", "giants#2", "giants#3"]
GIANTS_WALK = "4505"
GLOWLINE = "1009"       # open ground within the Glowline (moon_test.py)
STOPS = (R.PH_EVENT_REMOVE, R.PH_EVENT_REPLACE, R.PH_GIANT_STEP)


def position(scenario="18.1", moon=None):
    p = Position(scenario, moon=moon)
    p.s["random_events"] = 1
    return p


def event(p, *dice):
    """Sartar's player-turn 2 ends; the Random Events Segment of game-turn 2
    rolls ``dice`` (tens, units, then the event's own rolls); play goes on
    to the first decision the event poses or Lunar's player-turn 3."""
    p.movement(SARTAR, player_turn=2)
    p.dice(*dice)
    p.act("end the movement phase")
    while p.phase not in STOPS and not (int(p.s["player_turn"]) == 3 and int(p.s["stage"]) == ST_MOVEMENT):
        legal = p.legal()
        p.act("fight no more battles" if "fight no more battles" in legal else legal[0])
    return p


def removable(p):
    return sorted(t.split(" (random", 1)[0][len("remove "):] for t in p.legal())


# ---------------------------------------------------------------- the option and the segment
def test_rule_dp_events_the_option_is_only_for_lunar_against_sartar():
    """L950: 'The Random Events Option can only be used in two-player games
    between Sartar and the Lunar Empire': 18.6 is the Lunars against the
    Independents -- a configuration error."""
    for sc in ("18.1", "18.2", "18.3", "18.4", "18.5", "18.7", "18.9"):
        assert GAME.make_config(scenario=sc, random_events=True).random_events
    with pytest.raises(ConfigError, match="random_events"):
        GAME.make_config(scenario="18.6", random_events=True)
    assert not GAME.make_config(scenario="18.1").random_events          # off unless asked


def test_rule_dp_events_two_dice_the_first_the_tens_once_each_game_turn():
    """L952: the first roll is the first digit, the second the second: 1 then
    4 is event 14 (rain), 4 then 1 event 41 (none); the segment is held once,
    at the start of the game-turn (L174)."""
    p = event(position(), 1, 4)
    assert int(p.s["event_roll"]) == 14 and int(p.s["rain"]) == 1
    assert int(p.s["event_turn"]) == 2 == int(p.s["turn"])
    assert p.phase == R.PH_MOVE and p.to_play == LUNAR
    p = event(position(), 4, 1)
    assert int(p.s["event_roll"]) == 41 and int(p.s["rain"]) == 0


def test_rule_dp_events_without_the_option_no_segment():
    p = Position("18.1")
    p.movement(SARTAR, player_turn=2)
    p.dice(1, 4)
    p.act("end the movement phase")
    assert int(p.s["event_roll"]) == 0 and int(p.s["rain"]) == 0 and int(p.s["loaded_pos"]) == 0


def test_rule_dp_sequence_diplomacy_random_events_random_movement_then_the_alliance_phase():
    """L173-L178: in the Full Game with the Random Events Option, game-turn 2
    opens with the Diplomacy Segment (the event not yet rolled), then the
    Random Events Segment (21: a giant at Giants Walk); the first player's
    turn then opens with its Random Movement Phase (the giant), then his
    Alliance Phase, then his Movement Phase."""
    p = position("18.7", moon="full")
    p.s["dp_assigned"][FORCES.index(LUNAR), R.MAJORS.index("androgeus")] = 10   # something to seek
    p.movement(SARTAR, player_turn=2)
    p.dice(2, 1)
    p.act("end the movement phase")
    while p.phase != R.PH_DIPLOMACY:
        p.act(next(t for t in p.legal() if t.startswith(("end the", "fight no more", "commit no more",
                                                           "give no more"))))
    assert int(p.s["turn"]) == 2 and int(p.s["event_turn"]) < 2 and int(p.s["event_roll"]) == 0
    while p.phase == R.PH_DIPLOMACY:
        p.act(next(t for t in p.legal() if t.startswith("assign no more")))
    assert int(p.s["event_turn"]) == 2 and int(p.s["event_roll"]) == 21 and p.where(GIANTS[0]) == GIANTS_WALK
    assert p.phase == R.PH_GIANT_STEP and p.to_play == LUNAR and int(p.s["player_turn"]) == 3
    p.act(f"{p.name(GIANTS[0])} stops")
    assert p.phase == R.PH_ALLIANCE and p.to_play == LUNAR
    p.act("end the Alliance Phase")
    assert p.phase == R.PH_MOVE and p.to_play == LUNAR


def test_rule_dp_events_11_the_initiative_shifts():
    """L957: reverse the order in which player-turns are taken: Sartar plays
    first from game-turn 2 on (Interpretations 140)."""
    p = event(position(), 1, 1)
    assert int(p.s["first_force"]) == FORCES.index(SARTAR)
    assert p.to_play == SARTAR and int(p.s["active"]) == FORCES.index(SARTAR)


def test_rule_dp_events_12_and_13_without_diplomacy_ally_no_one():
    """L958-L959: the Dragonewts' and Androgeus' offers are made in Diplomacy
    Points; in a scenario without the diplomacy rules no one has any to offer,
    and equal offers ally no one: the roll changes nothing."""
    for units in (2, 3):
        p = event(position(), 1, units)
        assert int(p.s["event_roll"]) == 10 + units
        assert int(p.s["first_force"]) == FORCES.index(LUNAR) and int(p.s["rain"]) == 0
        assert p.to_play == LUNAR and p.phase == R.PH_MOVE


def test_rule_dp_events_14_to_16_rain_for_the_rest_of_the_game_turn():
    """L960-L962, L466: rain falls for the rest of the game-turn: +1 MP, -1 to
    attacking rolls; the book-keeping phase ends it -- not a storm's rain (L688)."""
    for units in (4, 5, 6):
        p = event(position(), 1, units)
        assert int(p.s["rain"]) == 1 and int(p.s["event_rain"]) == 1
    p = position()
    p.s["rain"] = 1
    p.s["event_rain"] = 1                         # game-turn 1's rain
    event(p, 4, 1)
    assert int(p.s["rain"]) == 0 and int(p.s["event_rain"]) == 0
    p = position()
    p.s["rain"] = 1
    p.s["event_rain"] = 1
    p.s["storm_day"] = 1                          # a storm's first day as well: its second is rain too
    event(p, 4, 1)
    assert int(p.s["rain"]) == 1


# ---------------------------------------------------------------- 21-26: giants
def test_rule_dp_events_21_to_26_a_giant_at_giants_walk_destroying_units_there():
    """L963-L968: a giant is placed in hex 4505; it is no one's, and a unit
    there is destroyed (L344, Interpretations 141). Lunar's player-turn then
    opens with its Random Movement Phase (L176, L918)."""
    for units in range(1, 7):
        p = position()
        p.put(MILITIA[0], GIANTS_WALK)
        event(p, 2, units)
        assert p.where(GIANTS[0]) == GIANTS_WALK
        assert int(p.s["unit_force"][unit(GIANTS[0])]) == NEUTRAL
        assert p.where(MILITIA[0]) == "dead"
        assert p.phase == R.PH_GIANT_STEP and p.to_play == LUNAR


def test_rule_dp_events_a_giant_event_places_none_when_all_three_are_in_play():
    """Three giants (L920): one not on the map comes (an eliminated one again);
    with all three on the board the event places none."""
    p = position()
    p.s["units_end"] = len(UNIT_IDS)
    for g, at in zip(GIANTS, ("3010", "3012", "3014")):
        p.put(g, at)
        p.s["unit_force"][unit(g)] = NEUTRAL
    event(p, 2, 3)
    assert [p.where(g) for g in GIANTS] == ["3010", "3012", "3014"]
    p = position()
    p.s["units_end"] = len(UNIT_IDS)
    for g, at in zip(GIANTS[:2], ("3010", "3012")):
        p.put(g, at)
        p.s["unit_force"][unit(g)] = NEUTRAL
    p.s["unit_where"][unit(GIANTS[2])] = UW_DEAD
    event(p, 2, 3)
    assert p.where(GIANTS[2]) == GIANTS_WALK


# ---------------------------------------------------------------- 31: the Glowline fails
def test_rule_dp_events_31_the_glowline_does_not_exist_for_the_game_turn():
    """L969: the Glowline will not exist for the rest of the game-turn: a
    cyclic unit within it takes the moon's value, not 7 (L662); next
    game-turn it is back."""
    p = position("18.4", moon="black")
    p.put("full_moon_corps", GLOWLINE)
    assert p.cf("full_moon_corps") == 7
    event(p, 3, 1)
    assert int(p.s["glowline_failed"]) == 1
    moon_value = int(R.MOON_CYCLIC[int(p.s["moon"])])
    assert moon_value != 7 and p.cf("full_moon_corps") == moon_value
    p = position("18.4", moon="black")
    p.put("full_moon_corps", GLOWLINE)
    p.s["glowline_failed"] = 1                    # game-turn 1's event 31
    event(p, 4, 1)
    assert int(p.s["glowline_failed"]) == 0 and p.cf("full_moon_corps") == 7


# ---------------------------------------------------------------- 32, 33: units removed
def boxed_in(p, where="2020"):
    """A Lunar unit at ``where`` and three Sartar units two hexes away (not
    beside it: no battle) whose ZOCs cover every hex around it: no clear path."""
    p.put(WARRIORS[0], where)
    h = MAP.hex_index(where)
    for d, (name) in zip((1, 3, 5), MILITIA[:3]):
        g = int(R.HEX_STEP[int(R.HEX_STEP[h, d]), d % 6 + 1])
        p.put(name, MAP.hex_id(g))


def test_rule_dp_events_32_revolt_in_the_redlands_three_units_with_a_clear_path_north_or_west():
    """L970: the Lunar player removes three units with a clear path to the
    north or west edge (Interpretations 142): a boxed-in unit has none; the
    removed units leave the game."""
    p = position()
    p.put(LANCERS[0], "2002")                     # beside the north edge
    p.put(LANCERS[1], "0110")                     # on the west edge
    p.put(LANCERS[2], "1212")                     # open ground all the way
    p.put(LANCERS[3], "4420")                     # near the east edge: a path north too
    boxed_in(p)
    event(p, 3, 2)
    assert p.phase == R.PH_EVENT_REMOVE and p.to_play == LUNAR
    assert removable(p) == sorted(p.name(u) for u in LANCERS)
    for u in LANCERS[:3]:
        p.act(f"remove {p.name(u)} (random event 32)")
    assert [int(p.s["unit_where"][unit(u)]) for u in LANCERS[:3]] == [UW_OUT] * 3
    assert p.where(LANCERS[3]) == "4420" and p.where(WARRIORS[0]) == "2020"
    assert p.phase == R.PH_MOVE and p.to_play == LUNAR


def test_rule_dp_events_32_fewer_than_three_with_a_clear_path_none_are_taken():
    """L970: 'If no three units meet this condition, none are taken.'"""
    p = position()
    p.put(LANCERS[0], "2002")
    p.put(LANCERS[1], "0110")
    boxed_in(p)
    event(p, 3, 2)
    assert p.phase == R.PH_MOVE and p.to_play == LUNAR
    assert p.where(LANCERS[0]) == "2002" and p.where(LANCERS[1]) == "0110"


def test_rule_dp_events_33_unrest_in_the_provinces_two_units_with_a_clear_path_north_or_east():
    """L971: two units, with a clear path to the north or east edge; the
    boxed-in unit has none."""
    p = position()
    p.put(LANCERS[0], "4520")                     # on the east edge
    p.put(LANCERS[1], "2002")                     # near the north edge
    p.put(LANCERS[2], "0120")                     # on the west edge, with a path north all the same
    boxed_in(p)
    event(p, 3, 3)
    assert p.phase == R.PH_EVENT_REMOVE
    names = removable(p)
    assert p.name(LANCERS[0]) in names and p.name(LANCERS[1]) in names
    assert p.name(WARRIORS[0]) not in names
    p.act(f"remove {p.name(LANCERS[0])} (random event 33)")
    p.act(f"remove {p.name(LANCERS[1])} (random event 33)")
    assert p.phase == R.PH_MOVE and p.where(LANCERS[2]) == "0120"


# ---------------------------------------------------------------- 34: the South Soldiers
def test_rule_dp_events_34_the_south_soldiers_replace_two_lost_infantry_or_cavalry():
    """L972: the Sartar player replaces any two infantry or cavalry units lost
    so far; they enter on the south edge east of Stone Cross inclusive (in
    his movement phase, L474). Neither a dead hero nor a Lunar unit is one."""
    p = position("18.3")
    for name in (MILITIA[0], MILITIA[1], "fa_free_cavalry#1", "argrath", LANCERS[0]):
        assert p.where(name) == "dead"            # a hand-built position: all start in the dead pile
    event(p, 3, 4)
    assert p.phase == R.PH_EVENT_REPLACE and p.to_play == SARTAR
    legal = p.legal()
    assert f"the South Soldiers replace {p.name(MILITIA[0])}" in legal
    assert f"the South Soldiers replace {p.name('fa_free_cavalry#1')}" in legal
    assert not [t for t in legal if p.name("argrath") in t or p.name(LANCERS[0]) in t]
    assert "replace no more units" in legal
    p.act(f"the South Soldiers replace {p.name(MILITIA[0])}")
    p.act(f"the South Soldiers replace {p.name('fa_free_cavalry#1')}")
    for name in (MILITIA[0], "fa_free_cavalry#1"):
        assert int(p.s["unit_where"][unit(name)]) == UW_ENTERING
        assert int(p.s["unit_entry"][unit(name)]) == ENTRY_SARTAR_SOUTH
    assert p.where(MILITIA[1]) == "dead"          # two at most
    assert p.phase == R.PH_MOVE and p.to_play == LUNAR


# ---------------------------------------------------------------- 35: plague
def test_rule_dp_events_35_plague_in_a_lunar_fortress():
    """L973: each Lunar fortress rolls a die, hit on a 1; then each unit there
    rolls, except superheroes, dragons and disembodied spirits: 1-2
    eliminated, 3-4 disrupted, 5-6 no effect."""
    p = position("18.3")
    for k in range(len(FORTRESS_NAMES)):
        p.s["fortress_owner"][k] = FORCES.index(SARTAR)
    k = 0
    p.s["fortress_owner"][k] = FORCES.index(LUNAR)   # the only Lunar fortress
    at = MAP.hex_id(int(R.FORTRESS_HEX[k]))
    for u in LANCERS[:3]:
        p.put(u, at)
    event(p, 3, 5, 1, 2, 3, 6)                    # event 35; the fortress hit; a roll per unit, bottom first
    assert int(p.s["event_roll"]) == 35
    assert p.where(LANCERS[0]) == "dead"
    assert p.where(LANCERS[1]) == at and p.disrupted(LANCERS[1])
    assert p.where(LANCERS[2]) == at and not p.disrupted(LANCERS[2])
    p = position("18.3")
    for kk in range(len(FORTRESS_NAMES)):
        p.s["fortress_owner"][kk] = FORCES.index(SARTAR)
    p.s["fortress_owner"][k] = FORCES.index(LUNAR)
    p.put(LANCERS[0], at)
    event(p, 3, 5, 2, 1)                          # spared: a 2
    assert p.where(LANCERS[0]) == at and not p.disrupted(LANCERS[0])


# ---------------------------------------------------------------- 42: the Twin Stars
def test_rule_dp_events_42_the_twin_stars_appear_at_the_temple():
    """L444: the Twin Stars appear on event 42 as a Lunar unit (at the Temple
    of the Reaching Moon, authored); rolled again while they are on the
    board, nothing happens; nor while Sartar units hold the Temple
    (Interpretations 144)."""
    p = event(position(), 4, 2)
    assert p.where("twin_stars") == "1108"
    assert int(p.s["unit_force"][unit("twin_stars")]) == FORCES.index(LUNAR)
    p = position()
    p.put("twin_stars", "2010")
    event(p, 4, 2)
    assert p.where("twin_stars") == "2010"
    p = position()
    p.put(MILITIA[0], "1108")                     # Sartar holds the Temple: they cannot appear there
    event(p, 4, 2)
    assert p.where("twin_stars") == "out"


def test_rule_dp_events_42_eliminated_twin_stars_return_only_while_the_temple_is_lunar():
    """L444: after their elimination they reappear only if the Temple of the
    Reaching Moon is Lunar controlled -- no enemy unit has entered it
    (Interpretations 144)."""
    p = position()
    p.s["unit_where"][unit("twin_stars")] = UW_DEAD
    p.s["glowline_gone"] = 1                      # a Sartar unit entered the Temple
    event(p, 4, 2)
    assert p.where("twin_stars") == "dead"
    p = position()
    p.s["unit_where"][unit("twin_stars")] = UW_DEAD
    event(p, 4, 2)
    assert p.where("twin_stars") == "1108"


def test_rule_dp_events_the_text_shows_the_event_of_the_game_turn():
    """The event rolled is public: the game's text names it."""
    p = event(position(), 1, 5)
    text = GAME.render_ansi(p.S)
    assert "random event: 15 (rain); rain" in text
