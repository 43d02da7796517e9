"""The Dragon Pass tables of diplomacy, the Independents and random events:
each printed entry as transcribed, what is authored, and clear errors from a
broken tables.txt.

Lines (L123) are lines of shared/rules/dragon_pass.txt; what is authored and
why is in envs/dragon_pass/SUBSTITUTES.md ("Tables of diplomacy, the
Independents and random events"). The compiled rules read only the Random
Events Table and the plague's rolls (rules/events.py); these tests are pure
Python.
"""
import shutil

import pytest

from dragongym.envs.dragon_pass import mapdata as M
from dragongym.envs.dragon_pass import unitdata as U
from tests.core.datafile_edits import edit, line_of

T = U.DATA.tables
RULEBOOK = U.DATA_DIR.parents[3] / "shared" / "rules" / "dragon_pass.txt"


def rule_line(n):
    """Line n of the rulebook, or None where this checkout has no rulebook."""
    return RULEBOOK.read_text(encoding="utf-8").splitlines()[n - 1] if RULEBOOK.exists() else None


def event(roll):
    e = T.random_events[roll]
    return (e.event, e.force, e.effect, e.count, e.hex, e.edges, e.lasts, e.unit)


# ----------------------------------------------------------- diplomacy ----

def test_rule_dp_tables_diplomacy_points_to_ally_each_major_independent():
    """L1002 (again L1135, L64-L70 and the headings L738-L798): Dragonewts 45,
    Ethilrist 25, Cragspider 25, Exiles 20, Ironhoof 15, Grazelanders 15,
    Androgeus 10; the ids are the capitals' of the map (Androgeus has none, L800)."""
    assert T.alliance_dp == {"dragonewts": 45, "black_horse": 25, "cragspider": 25,
                             "exiles": 20, "half_beasts": 15, "grazelanders": 15, "androgeus": 10}
    assert list(T.alliance_names.values()) == ["Dragonewts", "Ethilrist", "Cragspider", "Exiles",
                                               "Ironhoof", "Grazelanders", "Androgeus"]
    assert set(T.alliance_dp) - {"androgeus"} == set(M.MAP.capitals) - {"sartar", "lunar"}
    text = rule_line(1002)
    if text is not None:
        assert text == ", ".join(f"{n} {T.alliance_dp[i]}" for i, n in T.alliance_names.items()) + "."
        assert rule_line(1135).endswith(text)


def test_rule_dp_tables_diplomacy_bonus_capitals_and_trespass():
    """L979, L983: a denied alliance gives the inactive player who assigned more
    a 5 DP bonus; L987: an occupied Boldhome or Furthest stops the DP income
    (0 DP); L989: -1 DP per occupied allied capital, never below 0; L991: +1 DP
    to the inactive player per trespassing active unit."""
    d = T.diplomacy
    assert d["denied_bonus"] == 5
    assert d["own_capital_occupied"] == 0
    assert (d["allied_capital_occupied"], d["income_floor"]) == (-1, 0)
    assert d["trespass"] == 1
    assert T.substituted["diplomacy"] == frozenset()


def test_rule_dp_tables_replacements_by_dead_units_and_by_diplomacy_points():
    """L299, L981: 1 infantry replacement per 2 dead infantry, 1 cavalry per 3
    dead cavalry; L323, L981: a bought replacement costs 1 DP per CF for
    infantry and 2 DP per CF for cavalry."""
    d = T.diplomacy
    assert (d["dead_infantry_per_replacement"], d["dead_cavalry_per_replacement"]) == (2, 3)
    assert (d["replacement_infantry_per_cf"], d["replacement_cavalry_per_cf"]) == (1, 2)


def test_rule_dp_tables_full_game_dp_schedule():
    """L299: 18.7 (14 game-turns, L295) gives each player 50 DP on the first
    game-turn and 25 DP on each other turn."""
    s = T.dp_schedule["18.7"]
    assert len(s) == 14 and s[0] == 50 and set(s[1:]) == {25}
    assert sum(s) == 50 + 13 * 25


def test_rule_dp_tables_marathon_game_dp_schedule():
    """L321: 18.9 (28 game-turns, L315) gives 40 DP on turn 1, 20 on turns 2-7,
    15 on turns 8-14 and 10 on turns 15-28."""
    s = T.dp_schedule["18.9"]
    assert len(s) == 28
    assert s[0] == 40 and s[1:7] == (20,) * 6 and s[7:14] == (15,) * 7 and s[14:] == (10,) * 14
    assert set(T.dp_schedule) == {"18.7", "18.9"}


# ------------------------------------------------ minor independents ----

def test_rule_dp_tables_emissary_table():
    """L811-L813 (again L996-L998, L1137): 1, 2 denied and the emissary and his
    stack eliminated; 3 denied, the emissary not eliminated; 4, 5, 6 granted."""
    e = T.emissary
    for roll in (1, 2):
        assert e[roll] == {"alliance": "denied", "emissary": "eliminated", "stack": "eliminated"}
    assert e[3] == {"alliance": "denied", "emissary": "survives", "stack": "survives"}
    for roll in (4, 5, 6):
        assert e[roll] == {"alliance": "granted", "emissary": "survives", "stack": "survives"}


def test_rule_dp_tables_dwarf_luck_table():
    """L862-L866 (again L1139): 1 emissary slain; 2, 3 a Stone Man; 4 the Cannon
    Cult; 5 the Alchemical Transformer; 6 the Dwarf allies."""
    d = T.dwarf_luck
    assert d[1] == {"result": "slain", "unit": None}
    assert d[2] == d[3] == {"result": "gift", "unit": "Stone Man"}
    assert d[4] == {"result": "gift", "unit": "Cannon Cult"}
    assert d[5] == {"result": "gift", "unit": "Alchemical Transformer"}
    assert d[6] == {"result": "allies", "unit": "The Dwarf"}


def test_rule_dp_tables_tusk_riders_blood_sacrifice():
    """L908: on a 1 the alliance is rejected and the magician and the sacrificed
    unit are eliminated; on 2-6 the alliance is granted (the sacrifice is gone
    either way)."""
    t = T.tusk_riders
    assert t[1] == {"alliance": "denied", "magician": "eliminated", "sacrifice": "eliminated"}
    for roll in range(2, 7):
        assert t[roll] == {"alliance": "granted", "magician": "survives", "sacrifice": "eliminated"}


def test_rule_dp_tables_the_die_tables_are_printed_whole():
    """Nothing of the Emissary, Dwarf Luck, Tusk Riders, Hungry Jack, Hydra and
    Plague tables is authored."""
    for name in ("emissary", "dwarf_luck", "tusk_riders", "hungry_jack", "hydra",
                 "plague_fortress", "plague_unit"):
        assert T.substituted[name] == frozenset(), name
        assert list(getattr(T, name)) == [1, 2, 3, 4, 5, 6], name


def test_rule_dp_tables_hungry_jack():
    """L874: a unit adjacent to Hungry Jack is eliminated on 1-3 and may move
    away on 4-6."""
    assert T.hungry_jack == {1: "eliminated", 2: "eliminated", 3: "eliminated",
                             4: "escapes", 5: "escapes", 6: "escapes"}


def test_rule_dp_tables_hydra_mgf_die():
    """L880, L882 (the counter's "-N", L409): the die gives the Hydra's chaotic
    MgF, and it moves only once fed as many units."""
    assert {r: v["mgf"] for r, v in T.hydra.items()} == {r: -r for r in range(1, 7)}
    assert {r: v["feed"] for r, v in T.hydra.items()} == {r: r for r in range(1, 7)}


# ------------------------------------------------------ random events ----

def test_rule_dp_tables_random_events_cover_every_roll_of_two_dice():
    """L952: the first die is the tens, the second the units: 36 rolls 11..66."""
    assert list(T.random_events) == [a * 10 + b for a in range(1, 7) for b in range(1, 7)]


def test_rule_dp_tables_random_event_11_initiative_shifts():
    """L957: reverse the order in which Player turns are taken."""
    assert event(11) == ("initiative_shifts", "both", "reverse_turn_order", None, None, (), None, None)
    assert T.random_events[11].cite == ("L957",)


def test_rule_dp_tables_random_event_12_dragonewts_offer_to_ally():
    """L958: both players secretly bid DP for the Dragonewts' alliance."""
    assert event(12) == ("dragonewts_offer", "both", "auction", None, None, (), None, "Dragonewts")


def test_rule_dp_tables_random_event_13_androgeus_allies():
    """L959: Androgeus allies to the side that has assigned him the most DP."""
    assert event(13) == ("androgeus_allies", "both", "ally_to_most_dp", None, None, (), None,
                         "Androgeus")


def test_rule_dp_tables_random_events_14_to_16_rain():
    """L960-L962: rain falls for the rest of the game-turn."""
    for roll in (14, 15, 16):
        assert event(roll) == ("rain", None, "rain", None, None, (), "turn", None)
        assert T.random_events[roll].cite == (f"L{946 + roll}",)


def test_rule_dp_tables_random_events_21_to_26_a_giant():
    """L963-L968: a Giant is placed in hex 4505 (Giants Walk, L916)."""
    for roll in range(21, 27):
        assert event(roll) == ("giant", "neutral", "place_unit", 1, "4505", (), None, "Giant")
        assert T.random_events[roll].cite == (f"L{942 + roll}",)
    assert M.MAP.hex_id(M.MAP.giant_symbols[0]) == "4505"


def test_rule_dp_tables_random_event_31_glowline_fails():
    """L969: a Temple of the Reaching Moon fails; no Glowline for the rest of the
    game-turn."""
    assert event(31) == ("glowline_fails", "lunar", "no_glowline", None, None, (), "turn", None)


def test_rule_dp_tables_random_event_32_revolt_in_the_redlands():
    """L970: the Lunar player removes three units with a clear path to the North
    or West edge."""
    assert event(32) == ("revolt_in_the_redlands", "lunar", "remove_units", 3, None,
                         ("north", "west"), None, None)


def test_rule_dp_tables_random_event_33_unrest_in_the_provinces():
    """L971: the Lunar player removes two units with a clear path to the North
    or East edge."""
    assert event(33) == ("unrest_in_the_provinces", "lunar", "remove_units", 2, None,
                         ("north", "east"), None, None)


def test_rule_dp_tables_random_event_34_south_soldiers_arrive():
    """L972: Sartar replaces two lost infantry or cavalry units, entering on the
    South edge east of Stone Cross (1934, L155), inclusive."""
    assert event(34) == ("south_soldiers_arrive", "sartar", "replace_units", 2, "1934",
                         ("south",), None, None)
    assert M.RULE_HEX_NUMBERS["1934"] == "L155"


def test_rule_dp_tables_random_event_35_plague():
    """L973: each Lunar fortress is hit on a 1; in a hit fortress each unit but
    treasures, superheroes, dragons and disembodied spirits is eliminated on
    1-2, disrupted on 3-4, unharmed on 5-6."""
    assert event(35) == ("plague", "lunar", "plague", None, None, (), None, None)
    assert T.plague_fortress == {1: "hit", 2: "spared", 3: "spared", 4: "spared", 5: "spared",
                                 6: "spared"}
    assert T.plague_unit == {1: "eliminated", 2: "eliminated", 3: "disrupted", 4: "disrupted",
                             5: "none", 6: "none"}
    assert T.plague_exempt == ("treasure", "superhero", "dragon", "disembodied_spirit")


def test_rule_dp_tables_random_event_42_the_twin_stars():
    """L444, L634: the Twin Stars appear only from Random Event 42, as a Lunar
    unit; where is not printed: authored at the Temple of the Reaching Moon."""
    e = T.random_events[42]
    assert event(42) == ("twin_stars", "lunar", "place_unit", 1, "1108", (), None, "Twin Stars")
    assert e.substituted == {"hex"} and e.cite == ("L444",)
    assert M.MAP.hex_id(M.MAP.site_named("Temple of the Reaching Moon")) == "1108"


def test_rule_dp_tables_random_events_the_table_leaves_out_are_authored_as_none():
    """The table prints 11-16, 21-26 and 31-35 (L957-L973); 42 comes from L444.
    The 18 other rolls are authored: no event."""
    unprinted = [r for r in T.random_events if r not in U._RANDOM_EVENTS_PRINTED and r != 42]
    assert unprinted == [36, 41, 43, 44, 45, 46] + list(range(51, 57)) + list(range(61, 67))
    for roll in unprinted:
        assert event(roll) == ("no_event", None, "none", None, None, (), None, None)
        assert T.random_events[roll].substituted == {"event", "effect"}
    printed = [r for r in U._RANDOM_EVENTS_PRINTED]
    assert all(not T.random_events[r].substituted for r in printed)
    assert len(T.substituted["random_events"]) == 2 * 18 + 1


NEW_FIELDS = ("alliance_dp", "alliance_names", "diplomacy", "dp_schedule", "emissary", "dwarf_luck",
              "tusk_riders", "hungry_jack", "hydra", "plague_fortress", "plague_unit",
              "plague_exempt", "random_events")


USED_BY = {"diplomacy": {"alliance.py", "base.py", "marathon.py"}, "dp_schedule": {"alliance.py"}, "emissary": {"alliance.py"},
           "alliance_names": {"game.py", "view.py", "picture.py"}, "hydra": {"hydra.py"}, "dwarf_luck": {"minors.py"},
           "tusk_riders": {"minors.py"}, "random_events": {"events.py", "game.py"}, "plague_fortress": {"events.py"},
           "plague_unit": {"events.py"}, "hungry_jack": {"dragons.py"}}
"""The tables a rule reads now, and the modules that read each: the diplomacy
numbers, the Diplomacy Points of each game-turn and the Emissary Table
(rules/alliance.py, rules/base.py's trespassing: DP-DIPLO-*; rules/marathon.py's
prices of bought replacements: DP-SCEN-SETUP-9-BUY), the Majors'
names in the actions' and the text's words, the Hydra's MgF die
(rules/hydra.py), the Dwarf Luck Table and the blood sacrifice
(rules/minors.py), the Random Events Table and the plague's rolls
(rules/events.py), Hungry Jack's roll (rules/dragons.py)."""


def test_the_new_tables_are_read_only_by_the_rules_that_use_them():
    """The tables of issue 29 are read by the reader and by the modules of the
    rules that use them (``USED_BY``); a table no rule uses yet is named by no
    module of the game, so it cannot change the compiled rules unnoticed."""
    game = U.DATA_DIR.parent
    readers = [p for p in game.rglob("*.py") if p.name != "unitdata.py"]
    assert readers
    for path in readers:
        text = path.read_text(encoding="utf-8")
        for name in NEW_FIELDS:
            if path.name in USED_BY.get(name, ()):
                continue
            for ref in (f"tables.{name}", f"T.{name}"):
                assert ref not in text, (path.name, ref)
    for name, files in USED_BY.items():
        assert all(any(ref in (game / "rules" / f if (game / "rules" / f).exists() else game / f).read_text("utf-8")
                       for ref in (f"tables.{name}", f"T.{name}")) for f in files), name


# ------------------------------------------------------ broken files ----

@pytest.fixture
def tables_copy(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(U.DATA_DIR, target)
    return target


def test_error_emissary_table_gap(tables_copy):
    f = tables_copy / "tables.txt"
    edit(f, "3              denied    survives    survives\n", "")
    with pytest.raises(U.DataError, match=r"\[table emissary\]: no row for roll 3 \(the rows must "
                       r"cover 1\.\.6\)") as err:
        U.load(tables_copy)
    assert err.value.line == line_of(f, "[table emissary]")


def test_error_emissary_table_overlap(tables_copy):
    f = tables_copy / "tables.txt"
    edit(f, "1-2            denied    eliminated", "1-3            denied    eliminated")
    with pytest.raises(U.DataError, match=r"\[table emissary\]: roll 3 is in two rows") as err:
        U.load(tables_copy)
    assert err.value.line == line_of(f, "3              denied    survives")


def test_error_emissary_table_disagrees_with_its_other_prints(tables_copy):
    edit(tables_copy / "tables.txt", "4-6            granted   survives    survives",
         "4-6            denied    survives    survives")
    with pytest.raises(U.DataError, match=r"\[table emissary\]: 1-2 denied .* \(L811-L813"):
        U.load(tables_copy)


def test_error_unknown_keyword(tables_copy):
    f = tables_copy / "tables.txt"
    edit(f, "4-6            escapes", "4-6            flees")
    with pytest.raises(U.DataError, match=r"\[table hungry_jack\] result 'flees' is not one of "
                       "eliminated, escapes") as err:
        U.load(tables_copy)
    assert err.value.line == line_of(f, "4-6            flees")


def test_error_roll_out_of_range(tables_copy):
    edit(tables_copy / "tables.txt", "2-6            spared", "2-7            spared")
    with pytest.raises(U.DataError, match=r"\[table plague_fortress\]: roll '2-7' is not a roll "
                       r"or span of 1\.\.6"):
        U.load(tables_copy)


def test_error_dwarf_luck_changed(tables_copy):
    edit(tables_copy / "tables.txt", "5              gift    Alchemical Transformer",
         "5              gift    Stone Man")
    with pytest.raises(U.DataError, match=r"\[table dwarf_luck\]: 1 emissary slain"):
        U.load(tables_copy)


def test_error_alliance_dp_changed(tables_copy):
    edit(tables_copy / "tables.txt", "exiles                 20", "exiles                 25")
    with pytest.raises(U.DataError, match=r"\[table alliance_dp\]: .*'exiles': 25"):
        U.load(tables_copy)


def test_error_dp_schedule_gap(tables_copy):
    edit(tables_copy / "tables.txt", "18.9               8           14", "18.9               9           14")
    with pytest.raises(U.DataError, match=r"\[table dp_schedule\] 18.9: turns 9-14 do not follow "
                       "on from turn 7"):
        U.load(tables_copy)


def test_error_dp_schedule_short_of_the_game(tables_copy):
    edit(tables_copy / "tables.txt", "18.7               2           14", "18.7               2           13")
    with pytest.raises(U.DataError, match=r"\[table dp_schedule\] 18.7: the spans cover 13 "
                       "game-turns, the scenario has 14"):
        U.load(tables_copy)


def test_error_random_events_gap(tables_copy):
    edit(tables_copy / "tables.txt", "51-56           no_event~", "52-56           no_event~")
    with pytest.raises(U.DataError, match=r"\[table random_events\]: no row for roll 51 "
                       r"\(the rows must cover 11\.\.66\)"):
        U.load(tables_copy)


def test_error_random_events_roll_without_a_face(tables_copy):
    edit(tables_copy / "tables.txt", "36              no_event~", "37              no_event~")
    with pytest.raises(U.DataError, match=r"\[table random_events\]: roll '37' is not a roll or "
                       r"span of 11\.\.66"):
        U.load(tables_copy)


def test_error_random_event_the_table_does_not_print_must_be_authored(tables_copy):
    f = tables_copy / "tables.txt"
    edit(f, "41              no_event~                -        none~",
         "41              no_event                 -        none ")
    with pytest.raises(U.DataError, match=r"random_events\] 41: the table prints no roll 41") as err:
        U.load(tables_copy)
    assert err.value.line == line_of(f, "41              no_event ")


def test_error_random_event_unknown_effect(tables_copy):
    edit(tables_copy / "tables.txt", "lunar    plague              -", "lunar    pestilence          -")
    with pytest.raises(U.DataError, match=r"random_events\] 35: effect 'pestilence' is not one of"):
        U.load(tables_copy)


def test_error_random_event_unknown_edge(tables_copy):
    edit(tables_copy / "tables.txt", "north,west", "north,up")
    with pytest.raises(U.DataError, match=r"random_events\] 32: edges 'north,up' are not board edges"):
        U.load(tables_copy)


def test_error_random_event_placing_a_unit_needs_a_hex(tables_copy):
    edit(tables_copy / "tables.txt", "1      4505   -           -      L963",
         "1      -      -           -      L963")
    with pytest.raises(U.DataError, match=r"random_events\] 21: place_unit needs a count, a hex "
                       "and a unit"):
        U.load(tables_copy)


def test_error_hydra_mgf_is_not_the_die(tables_copy):
    edit(tables_copy / "tables.txt", "4              -4   4", "4              -5   4")
    with pytest.raises(U.DataError, match=r"\[table hydra\] 4: MgF -5, fed 4"):
        U.load(tables_copy)


def test_error_missing_diplomacy_limit(tables_copy):
    edit(tables_copy / "tables.txt", "trespass                        1\n", "")
    with pytest.raises(U.DataError, match=r"\[limits diplomacy\] is missing trespass"):
        U.load(tables_copy)
