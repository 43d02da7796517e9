"""The Dragon Pass unit and table data: the rulebook's printed counters,
scenarios 18.1-18.5, the tables cell by cell, and clear errors from corrupt
files.

Lines (L123) are lines of shared/rules/dragon_pass.txt; what is substituted
and why is in envs/dragon_pass/SUBSTITUTES.md ("Units").
"""
import math
import shutil
from fractions import Fraction

import numpy as np
import pytest

from dragongym.envs.dragon_pass import unitdata as U
from tests.core.datafile_edits import edit, line_of

D = U.DATA
T = D.tables
RULEBOOK = U.DATA_DIR.parents[3] / "shared" / "rules" / "dragon_pass.txt"


def rule_line(n):
    return RULEBOOK.read_text(encoding="utf-8").splitlines()[n - 1] if RULEBOOK.exists() else None


# ------------------------------------------------------------- heroes ----

def test_rule_dp_units_argrath_printed_factors():
    """L130: "Argrath has a CF of (4!!) and an MF of 6"; L621: MgF 10, RF 0,
    disrupted (2!)-5-6-0; heroes have underlined (heroic) MFs (L130)."""
    a = D.units["argrath"]
    assert (a.front.cf, a.front.leadership, a.front.single) == (4, 2, True)
    assert (a.front.mgf, a.front.mf, a.front.rf) == (10, 6, 0)
    assert a.heroic and a.hero and not a.major and a.counters == 1
    assert (a.back.cf, a.back.leadership, a.back.mgf, a.back.mf, a.back.rf) == (2, 1, 5, 6, 0)
    assert a.force == "sartar" and a.arm == "none"


def test_rule_dp_units_harrek_is_a_superhero_whose_back_is_berserker_rage():
    """L614: Harrek (20!!)-infinity-6-X, Berserker Rage (20)-20-12-1; superheroes
    cannot be disrupted (L590), in rage the counter turns back side up (L656)."""
    h = D.units["harrek"]
    assert h.superhero and h.heroic and h.back_side == "berserk"
    assert (h.front.cf, h.front.leadership, h.front.mgf_kind, h.front.mf, h.front.rf_kind) == \
        (20, 2, "infinity", 6, "blank")
    assert (h.back.cf, h.back.leadership, h.back.mgf, h.back.mf, h.back.rf) == (20, 0, 20, 12, 1)


def test_rule_dp_units_gunda_is_harreks_best_friend_and_their_leadership_combines():
    """L614: Gunda the Guilty (4!)-10-6-X / (2)-5-6-X, Harrek's best friend;
    L652: Harrek stacked with Gunda gives a leadership factor of 3."""
    g, h = D.units["gunda"], D.units["harrek"]
    assert h.best_friend == "gunda" and g.hero
    assert (g.front.cf, g.front.leadership, g.front.mgf, g.front.mf) == (4, 1, 10, 6)
    assert (g.back.cf, g.back.leadership, g.back.mgf, g.back.mf) == (2, 0, 5, 6)
    assert h.front.leadership + g.front.leadership == 3


def test_rule_dp_units_dragontooth_runners():
    """L684: "The Dragontooth Runners (3)-5*-6-0 / (2)-3-3-X. Argrath can summon
    these 2 units"; a parenthesised CF makes them minor units (L127)."""
    r = D.units["dragontooth_runners"]
    assert r.counters == 2 and not r.major and r.rank == "none"
    assert (r.front.cf, r.front.single, r.front.mgf, r.front.exotic, r.front.mf, r.front.rf) == \
        (3, True, 5, True, 6, 0)
    assert (r.back.cf, r.back.mgf, r.back.exotic, r.back.mf, r.back.rf_kind) == \
        (2, 3, False, 3, "blank")


def test_rule_dp_units_heroes_have_parenthesised_cfs_with_leader_marks_and_heroic_mfs():
    """L130: heroes and superheroes have underlined MFs and parenthesised CFs
    with exclamation marks inside; L786: they are not cavalry."""
    heroes = [u for u in D.units.values() if u.rank != "none"]
    assert {u.id for u in heroes} == {"argrath", "harrek", "gunda", "red_emperor", "jar_eel",
                                      "aelwrin"}
    for u in heroes:
        assert u.front.single and u.front.leadership >= 1 and u.heroic and u.arm == "none"


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook is not beside the package")
@pytest.mark.parametrize("line, text", [
    (130, "Argrath has a CF of (4!!) and an MF of 6"),
    (614, "Harrek the Berserk\t(20!!)-infinity-6-X\t(20)-20-12-1\tGunda the Guilty (4!)-10-6-X "
          "/ (2)-5-6-X"),
    (621, "Prince Argrath\t(4!)-10-6-0\t(2!)-5-6-0"),
    (684, "The Dragontooth Runners (3)-5*-6-0 / (2)-3-3-X"),
    (209, "minus the two 2*-2-6s and the two 2*-1-6s"),
    (214, "(3) 4-5-5s of the Sartar Free Army"),
    (215, "(4) 4-3-5s of the Barbarian Horde"),
    (240, "minus the Wolfrunners (up/down-3-3)"),
    (261, "(3) 5-4-5-4s of the Barbarian Horde"),
])
def test_the_printed_values_are_at_the_cited_lines(line, text):
    """The values the loader holds as printed are in the rulebook where cited."""
    assert text in rule_line(line).replace(" – ", "-")


# ---------------------------------------------------------- formations ----

def test_rule_dp_units_the_formations_of_the_first_five_scenarios():
    """L208-L246: NF, CC and HC (Lunar), CM, FA and the Barbarian Horde (Sartar),
    and Argrath, Harrek, Gunda and the Dragontooth Runners; L250-L271: the Red
    Emperor, the Lunar College of Magic, the Sartar Magical Union, Jar-eel and
    Aelwrin, the assassins, and the Twin Stars apart from the Battalia."""
    forces = {f: x.force for f, x in D.formations.items()}
    assert forces == {"NF": "lunar", "CC": "lunar", "HC": "lunar", "CM": "sartar",
                      "FA": "sartar", "BH": "sartar", "SH": "sartar", "LH": "lunar",
                      "LCM": "lunar", "LA": "lunar", "TS": "lunar", "PRG": "lunar", "SMU": "sartar",
                      "SA": "sartar"}
    names = {x.name for x in D.formations.values()}
    assert {"Native Furthest Corps", "Cavalry Corps", "Heartland Corps", "Sartar City Militia",
            "Sartar Free Army", "Barbarian Horde"} <= names


def test_rule_dp_units_the_barbarian_horde_is_green_and_part_of_the_sartar_battalia():
    """L117: Barbarian Horde dark green (Sartar); L123, L441: part of the Sartar
    Battalia; L115-L116: Lunar red, Sartar orange."""
    assert D.formations["BH"].colour == "dark_green" and D.formations["BH"].force == "sartar"
    for f in ("NF", "CC", "HC"):
        assert D.formations[f].colour == "red"
    for f in ("CM", "FA"):
        assert D.formations[f].colour == "orange"


def test_rule_dp_units_cavalry_corps_has_exactly_two_2_2_6s_and_two_2_1_6s():
    """L209: "The Cavalry Corps (CC) minus the two 2*-2-6s and the two 2*-1-6s";
    2* is a CF of 2 with one Missile Factor (L394)."""
    by_front = {D.units[u].front.notation: D.units[u] for u in D.units_of("CC")}
    for notation, mgf in (("2*-2-6-X", 2), ("2*-1-6-X", 1)):
        u = by_front[notation]
        assert u.counters == 2 and (u.front.cf, u.front.missile, u.front.mgf, u.front.mf) == \
            (2, 1, mgf, 6)
        assert u.arm == "cavalry"


def test_rule_dp_units_free_army_has_the_4_5_5s_and_the_cyclic_wolfrunners():
    """L214: "(3) 4-5-5s of the Sartar Free Army"; L240: "the Wolfrunners
    (up/down-3-3)", the up/down arrow being a cyclic value (L398)."""
    fa = [D.units[u] for u in D.units_of("FA")]
    assert sum(u.counters for u in fa if u.front.notation == "4-5-5-X") >= 3
    w = D.units["fa_wolfrunners"]
    assert (w.front.cf_kind, w.front.mgf, w.front.mf) == ("cyclic", 3, 3)
    assert w.front.combat_factor(U.MOON_CYCLIC["full"]) == 7
    assert w.back.cf_kind == "half_cyclic" and w.back.combat_factor(7) == Fraction(7, 2)


def test_rule_dp_units_horde_has_4_3_5s_and_5_4_5_4_spirit_magicians():
    """L215: "(4) 4-3-5s of the Barbarian Horde"; L261: "(3) 5-4-5-4s"; a
    non-parenthesised RF of 1 or more is a spirit magician (L131) whose spirit
    has a blank MF (L132) and the magician's MgF and RF (pairs as L778)."""
    bh = {u: D.units[u] for u in D.units_of("BH")}
    assert sum(u.counters for u in bh.values() if u.front.notation == "4-3-5-X") >= 4
    shamans = bh["bh_shamans"]
    assert shamans.counters >= 3 and shamans.front.rf == 4
    spirit = bh["bh_shaman_spirit"]
    assert spirit.spirit_of == "bh_shamans" and not spirit.major
    assert (spirit.front.cf_kind, spirit.front.mgf, spirit.front.mf_kind, spirit.front.rf) == \
        ("blank", 4, "blank", 4)


def test_rule_dp_units_city_militia_has_duck_units():
    """L213: "The Sartar City Militia (CM) minus all Duck units"; Ducks are a
    missile target modifier (L383, L1108)."""
    ducks = [D.units[u] for u in D.units_of("CM") if "duck" in D.units[u].tags]
    assert ducks and all(u.major for u in ducks)


def test_rule_dp_units_major_and_minor_units():
    """L127: major units have non-blank, non-parenthesised CFs; all others are
    minor (L129: spirits, heroes and superheroes among them)."""
    for u in D.units.values():
        if u.agent_of is None:
            assert u.major == (u.front.cf_kind != "blank" and not u.front.single), u.id
        else:
            assert not u.major, u.id          # "All Spirits, Agents" are minor (L129)
    assert not D.units["argrath"].major and not D.units["bh_shaman_spirit"].major
    assert D.units["cc_lancers"].major


def test_rule_dp_units_disrupted_sides_use_reduced_factors():
    """L590: "A disrupted unit is turned back side up and uses those reduced
    factors"; superheroes cannot be disrupted."""
    for u in D.units.values():
        if u.back_side == "disrupted":
            assert u.back.combat_factor() <= u.front.combat_factor(), u.id
            assert u.back.missile <= u.front.missile and u.back.leadership <= u.front.leadership
            if u.front.mf is not None:
                assert u.back.mf <= u.front.mf
        else:
            assert u.superhero


def test_rule_dp_units_cavalry_are_mounted_units_other_than_heroes():
    """L786: all mounted Lunar and Sartar units other than heroes and
    superheroes are cavalry; the Cavalry Corps is all cavalry."""
    assert all(D.units[u].arm == "cavalry" for u in D.units_of("CC"))
    assert all(u.arm == "none" for u in D.units.values() if u.rank != "none" or u.spirit_of)


def test_every_printed_value_is_unmarked_and_every_other_value_is_marked_authored():
    """The printed counters carry no '~' in their factors; the authored ones do."""
    for uid in ("argrath", "harrek", "gunda", "dragontooth_runners"):
        assert not {"front", "back"} & D.units[uid].substituted
    assert {"front", "back", "counters", "name"} <= D.units["nf_tarsh_warriors"].substituted
    assert "front" not in D.units["cc_horse_archers"].substituted
    assert "back" in D.units["cc_horse_archers"].substituted


# ----------------------------------------------------------- scenarios ----

def test_rule_dp_units_scenario_18_1_stemming_the_tide():
    """L204-L215: 5 game-turns, melee only; the Lunar player deploys first
    outside Old Sartar the entire NF and the CC minus the two 2*-2-6s and the
    two 2*-1-6s; Sartar second within Old Sartar the CM minus all Duck units,
    (3) 4-5-5s of the FA and (4) 4-3-5s of the Horde."""
    s = D.scenarios["18.1"]
    assert (s.name, s.turns, s.combat, s.first) == ("Stemming the Tide", 5, ("melee",), "lunar")
    assert s.zone("lunar") == "outside_old_sartar" and s.zone("sartar") == "old_sartar"
    lunar, sartar = s.counters("lunar"), s.counters("sartar")
    nf = {u: D.units[u].counters for u in D.units_of("NF")}
    assert {u: lunar[u] for u in nf} == nf
    assert "cc_horse_archers" not in lunar and "cc_light_horse_archers" not in lunar
    cc = sum(D.units[u].counters for u in D.units_of("CC"))
    assert sum(n for u, n in lunar.items() if D.units[u].formation == "CC") == cc - 4
    assert not any("duck" in D.units[u].tags for u in sartar)
    assert sum(n for u, n in sartar.items() if D.units[u].formation == "FA") == 3
    assert sartar["fa_free_warriors"] == 3 and sartar["bh_bison_riders"] == 4
    assert sum(n for u, n in sartar.items() if D.units[u].formation == "BH") == 4


def test_rule_dp_units_scenario_18_2_high_tide():
    """L219-L230: 6 game-turns, missile and melee; the entire NF and CC; the
    entire CM, (3) 4-5-5s of the FA, (4) 4-3-5s of the Horde."""
    s = D.scenarios["18.2"]
    assert (s.name, s.turns, s.combat, s.first) == ("High Tide", 6, ("melee", "missile"), "lunar")
    lunar, sartar = s.counters("lunar"), s.counters("sartar")
    for f in ("NF", "CC"):
        for u in D.units_of(f):
            assert lunar[u] == D.units[u].counters
    for u in D.units_of("CM"):
        assert sartar[u] == D.units[u].counters
    assert sartar["cm_duck_militia"] == 2 and sartar["fa_free_warriors"] == 3
    assert not any(D.units[u].formation == "HC" for u in lunar)


def test_rule_dp_units_scenario_18_3_argraths_return():
    """L234-L246: 5 game-turns, missile, melee, heroes and superheroes; Sartar
    deploys first within Old Sartar: Argrath, Harrek, Gunda, the Dragontooth
    Runners, the entire CM, the FA minus the Wolfrunners (up/down-3-3); the
    Lunar player second outside Old Sartar: the entire HC, CC and NF."""
    s = D.scenarios["18.3"]
    assert (s.name, s.turns, s.first) == ("Argrath's Return", 5, "sartar")
    assert set(s.combat) == {"missile", "melee", "heroes", "superheroes"}
    assert s.zone("sartar") == "old_sartar" and s.zone("lunar") == "outside_old_sartar"
    sartar, lunar = s.counters("sartar"), s.counters("lunar")
    assert {u: sartar[u] for u in ("argrath", "harrek", "gunda", "dragontooth_runners")} == \
        {"argrath": 1, "harrek": 1, "gunda": 1, "dragontooth_runners": 2}
    assert "fa_wolfrunners" not in sartar
    assert {D.units[u].formation for u in sartar} == {"SH", "CM", "FA"}
    for f in ("HC", "CC", "NF"):
        for u in D.units_of(f):
            assert lunar[u] == D.units[u].counters
    assert not any(D.units[u].formation == "BH" for u in sartar)


def test_rule_dp_units_units_list_the_scenarios_they_deploy_in():
    """Every unit states how many of its counters each scenario deploying its
    formation uses (0 where the scenario text excludes it, L209, L213, L240)."""
    assert D.units["cc_horse_archers"].deploys == {"18.1": 0, "18.2": 2, "18.3": 2, "18.5": 2, "18.7": 2, "18.8": 2, "18.9": 2}
    assert D.units["cm_duck_militia"].deploys == {"18.1": 0, "18.2": 2, "18.3": 2, "18.5": 2, "18.7": 2, "18.8": 2, "18.9": 2}
    assert D.units["fa_wolfrunners"].deploys == {"18.1": 0, "18.2": 0, "18.3": 0, "18.5": 1, "18.7": 1, "18.8": 1, "18.9": 1}
    assert D.units["hc_infantry"].deploys == {"18.3": 3, "18.5": 3, "18.6": 3, "18.7": 3, "18.8": 3, "18.9": 3}
    assert D.units["argrath"].deploys == {"18.3": 1, "18.4": 1, "18.5": 1, "18.7": 1, "18.8": 1, "18.9": 1}
    assert D.units["twin_stars"].deploys == {}
    assert D.independent_units["horse_herds"].deploys == {"18.6": 4, "18.8": 4}
    # "minus the Assassin" in 18.6 (L287); 18.8's Tarsh player takes the Exiles whole (L305)
    assert D.independent_units["exiles_assassin"].deploys == {"18.6": 0, "18.8": 1}


def test_rule_dp_scenario_18_6_dousing_the_flames_forces():
    """L275-L293: 10 game-turns, All Combat; the Lunar player deploys first in
    the dark Glowline but not in Bagnot or Dunstop -- Jar-eel, Aelwrin, the
    College of Magic, the Heartland and Native Furthest Corps; the Independent
    player second, outside Sartar and the dark Glowline, at least one unit in
    each of Bagnot and Dunstop -- Androgeus, the Exiles minus the Assassin, the
    Pony Breeders, the Half-Beasts. The Lunar player selects the moon; no
    unit moves or retreats into Sartar; the Twins are Androgeus' best friend."""
    s = D.scenarios["18.6"]
    assert (s.name, s.turns, s.sides) == ("Dousing the Flames", 10, ("lunar", "independent"))
    assert s.zone("lunar") == "dark_glowline" and s.zone("independent") == "outside_sartar_and_dark_glowline"
    assert s.keep_out == (("lunar", "1406"), ("lunar", "0612"))
    assert s.garrison == (("independent", "1406"), ("independent", "0612"))
    assert s.moon == "lunar" and s.special == ("no_sartar",) and s.best_friends == (("androgeus", "twins"),)
    lunar, indep = s.counters("lunar"), s.counters("independent")
    assert {"jar_eel", "aelwrin"} <= set(lunar) and "red_emperor" not in lunar
    assert {D.units[u].formation for u in lunar} == {"LH", "LCM", "HC", "NF"}
    assert {D.independent_units[u].formation for u in indep} == {"AN", "EX", "GZ", "HB"}
    assert "exiles_assassin" not in indep and indep["horse_herds"] == 4 and indep["androgeus"] == 1


def test_rule_dp_units_no_cyclic_factor_and_no_hero_where_the_scenario_has_none():
    """No phase of the moon is chosen in 18.1-18.3 (it is from 18.4 on, L263),
    so none of their units has a cyclic factor; heroes only from 18.3 on
    (L234, L250, L267)."""
    for s in D.scenarios.values():
        for u in s.units:
            if s.units[u]:
                unit = {**D.units, **D.independent_units}[u]
                assert s.moon is not None or not unit.front.cyclic
                assert unit.rank == "none" or "heroes" in s.combat
    assert [sid for sid, s in D.scenarios.items() if s.moon is None] == ["18.1", "18.2", "18.3"]


# ------------------------------------------------------------ notation ----

@pytest.mark.parametrize("text, want", [
    ("(4!)-10-7-X", dict(cf=4, leadership=1, single=True, mgf=10, mf=7, rf_kind="blank")),
    ("2**-4-4-X", dict(cf=2, missile=2, mgf=4, mf=4)),
    ("6-5-8 Water Rune-8", dict(cf=6, mgf=5, mf=8, rune="water", rf=8)),
    ("=-infinity*-20 Air Rune-0", dict(cf_kind="equal", mgf_kind="infinity", exotic=True,
                                       mf=20, rune="air", rf=0)),
    ("1h-2-+2-X", dict(cf=1, herd=True, mf_kind="plus", mf=2)),
    ("5 - –N - 4 - X", dict(cf=5, mgf_kind="die", mgf=-1, mf=4)),
    ("X-*-0-(10)", dict(cf_kind="blank", mgf_kind="special", exotic=True, mf=0, rf=10,
                        rf_special=True)),
    ("2-×2-3-×2", dict(cf=2, mgf_kind="double", mf=3, rf_kind="double")),
    ("6-cyclic*-4 Air Rune-12", dict(mgf_kind="cyclic", exotic=True, rune="air", rf=12)),
    ("3-½ cyclic-2-0", dict(mgf_kind="half_cyclic", mf=2, rf=0)),
    ("2-*-2*-X", dict(mgf_kind="special", mf=2, unusual=True)),
    ("(8)-2-3 Stone Rune-X", dict(cf=8, single=True, rune="stone")),
])
def test_rule_dp_units_notation_reads_the_independents_factor_lists(text, want):
    """The Independents' printed factor lists (L746-L920) in the notation of
    L390-L431: the parser reads every form the rulebook uses."""
    side = U.parse_side(text)
    for key, value in want.items():
        assert getattr(side, key) == value, (text, key)


def test_rule_dp_units_scenario_notation_leaves_off_a_blank_rf():
    """The scenarios write "4-5-5s" for CF-MgF-MF with a blank RF (L214)."""
    assert U.parse_side("4-5-5", allow_blank_rf=True).factors() == \
        U.parse_side("4-5-5-X").factors()
    with pytest.raises(ValueError, match="not CF-MgF-MF-RF"):
        U.parse_side("4-5-5")
    with pytest.raises(ValueError, match="not a combat factor"):
        U.parse_side("(4-10-6-0")


# -------------------------------------------------------------- tables ----

def test_rule_dp_tables_attack_table_printed_cells():
    """Spot checks of the Attack Table (L1054-L1080), total along the top, die
    roll down the side."""
    a = T.attack
    assert a.shape == (61, 7) and a.dtype == np.int16
    assert [int(a[t, 1]) for t in (1, 5, 6, 12, 18, 24)] == [0, 0, 1, 2, 3, 4]      # L1055
    assert [int(a[t, 5]) for t in (1, 2, 5, 20)] == [0, 1, 3, 15]                    # L1059
    assert int(a[23, 5]) == 17 and int(a[40, 2]) == 10 and int(a[37, 3]) == 12       # L1066-L1069
    assert int(a[41, 1]) == 6 and int(a[42, 1]) == 7 and int(a[60, 5]) == 45        # L1075, L1079
    assert int(a[51, 6]) == 51 and int(a[15, 6]) == 15 and int(a[32, 6]) == 32      # L1060-L1080
    assert (a[0, 1:] == 0).all() and (a[:, 0] == -1).all()


def test_rule_dp_tables_attack_table_cells_are_fractions_of_the_total():
    """Every printed cell is 1/6, 1/4, 1/3, 1/2, 3/4 or all of its total, fractions
    dropped, as the rule for totals beyond 60 states (L1084-L1093)."""
    for total in range(1, 61):
        for die in range(1, 7):
            assert T.attack[total, die] == math.floor(U.ATTACK_FRACTIONS[die - 1] * total)


def test_rule_dp_tables_attack_row_six_is_completed_where_the_print_stops():
    """Row 6 prints 15, 12 and 11 cells (L1060, L1070, L1080); the rest are
    authored as the total ("Roll 6: Factor equal to Total", L1091)."""
    authored = T.substituted["attack"]
    assert len(authored) == 5 + 8 + 9
    assert {"16/6", "33/6", "52/6"} <= authored and "15/6" not in authored
    assert int(T.attack[16, 6]) == 16 and int(T.attack[60, 6]) == 60


def test_rule_dp_tables_attack_beyond_60_and_die_clamping():
    """L1082: a die roll less than 1 is 1, more than 6 is 6, fractions of the
    total dropped; L1084-L1093: beyond 60 the loss is a fraction of the total."""
    assert T.attack_beyond == U.ATTACK_FRACTIONS
    assert U.attack_loss(61, 1) == 10 and U.attack_loss(100, 5) == 75
    assert U.attack_loss(75, 5) == 56 and U.attack_loss(90, 6) == 90
    assert U.attack_loss(20, 0) == U.attack_loss(20, 1) == 3
    assert U.attack_loss(20, 9) == 20
    assert U.attack_loss(Fraction(41, 2), 4) == 10     # 20½ counts as 20
    assert U.attack_loss(0, 6) == 0


def test_rule_dp_tables_missile_fire_table_cells():
    """The Missile Fire Table (L1121-L1129): rows the modified roll 0..7, columns
    the Missile Factor totals 0, 1, 2, 3-4, 5-6, 7-9, 10-12, 13-16, 17-20."""
    assert T.missile.shape == (8, 21)
    assert T.missile_columns == ((0, 0), (1, 1), (2, 2), (3, 4), (5, 6), (7, 9), (10, 12),
                                 (13, 16), (17, 20))
    r = U.missile_result
    assert [r(t, 0) for t in (0, 12, 13, 20)] == ["-", "-", "1DD", "1DD"]          # L1122
    assert [r(t, 2) for t in (6, 7, 16, 17)] == ["-", "1DD", "2DD", "1DE"]         # L1124
    assert [r(t, 4) for t in (2, 3, 8, 11, 14, 18)] == ["-", "1DD", "2DD", "1DE", "2DE", "3DE"]
    assert [r(t, 6) for t in (0, 1, 4, 6, 9, 12, 16, 20)] == \
        ["-", "1DD", "2DD", "1DE", "2DE", "3DE", "3DE", "4DE"]                     # L1128
    assert [r(t, 7) for t in (2, 3, 5, 8, 11, 15, 19)] == \
        ["2DD", "1DE", "2DE", "3DE", "3DE", "4DE", "5DE"]                          # L1129


def test_rule_dp_tables_missile_roll_is_clamped_to_0_7():
    """L1117: a Missile Fire result less than 0 is treated as 0, greater than 7
    as 7; the total is halved when firing up a ridge."""
    assert T.missile_roll == (0, 7) and T.missile_ridge_divisor == 2
    assert U.missile_result(20, -3) == U.missile_result(20, 0) == "1DD"
    assert U.missile_result(3, 9) == U.missile_result(3, 7) == "1DE"
    assert U.missile_result(25, 7) == "5DE"           # beyond 20: the 17-20 column (authored)
    assert "over_20_column" in T.substituted["missile_limits"]


def test_rule_dp_tables_missile_results_legend():
    """L1131: 1DD one defender disrupted; 2DD two disrupted or one eliminated;
    2DE..5DE that many eliminated (1DE is not in the legend: authored)."""
    res = T.missile_results
    assert (res["1DD"].disrupted, res["1DD"].eliminated) == (1, 0)
    assert (res["2DD"].disrupted, res["2DD"].or_eliminated) == (2, 1)
    assert [res[f"{n}DE"].eliminated for n in range(1, 6)] == [1, 2, 3, 4, 5]
    assert T.substituted["missile_results"] == {"1DE.eliminated"}


def test_rule_dp_tables_missile_fire_modifiers():
    """L1105-L1115: unit modifiers -3 dragon, -1 solely Duck/Bison/minor, +1
    giant etc.; terrain -4 fortress, -2 forest ... town, -1 hill or marsh."""
    assert T.missile_unit_modifiers == {"dragon": -3, "small_targets": -1, "large_targets": 1}
    m = T.missile_terrain_modifiers
    assert m["fortress"] == -4 and m["hill"] == m["marsh"] == -1
    assert {m[h] for h in ("forest", "mountain", "altar", "dragonewt_city", "ruin", "stockade",
                           "temple", "town")} == {-2}


def test_rule_dp_tables_terrain_table():
    """L336-L342: movement, physical magic, melee and missile by terrain."""
    t = T.terrain
    assert (t["open"].movement, t["open"].melee, t["open"].missile) == (1, 1, 0)
    assert (t["hill"].melee, t["hill"].missile, t["hill"].phys_magic) == (Fraction(3, 2), -1, 1)
    assert (t["hill_forest"].movement, t["hill_forest"].melee, t["hill_forest"].missile) == (2, 2, -2)
    assert (t["forest"].melee, t["forest"].missile, t["forest"].missile_ng) == (Fraction(3, 2), -2, -1)
    assert (t["mountain"].movement, t["mountain"].rune, t["mountain"].rune_movement) == (3, "stone", 1)
    assert (t["marsh"].movement, t["marsh"].rune, t["marsh"].phys_magic) == (2, "water", 2)
    assert t["oasis"].nomad_gods_only and not t["hill"].nomad_gods_only


def test_rule_dp_tables_structures_table():
    """L348-L355: fortress CF x2 and missile -4, stockade x1½ and -2 (both
    fortifications); the ruins x2 inside, x1½ outside."""
    s = T.structures
    assert (s["fortress"].melee, s["fortress"].missile, s["fortress"].fortification) == (2, -4, True)
    assert (s["stockade"].melee, s["stockade"].phys_magic, s["stockade"].missile) == \
        (Fraction(3, 2), Fraction(3, 2), -2)
    assert (s["marsh_ruin"].melee, s["marsh_ruin"].melee_outside, s["marsh_ruin"].movement) == \
        (2, Fraction(3, 2), 2)
    assert (s["hill_ruin"].phys_magic, s["hill_ruin"].melee_outside) == (Fraction(3, 2), Fraction(3, 2))
    for k in ("dragonewt_city", "ruin", "temple", "town", "altar"):
        assert (s[k].melee, s[k].missile, s[k].fortification) == (Fraction(3, 2), -2, False)
    assert T.melee["structure_units"] == 3


def test_rule_dp_tables_roads_rivers_ridges_and_rain():
    """L363-L375: primary road ½ MP, secondary 1 MP with every third hex free;
    river +1 MP to leave (+0 Water Rune) and the attacker's CF halved; ridge
    up +1 MP (+0 Stone Rune), attacker's CF and missile factors halved; rain
    +1 MP and -1 to the attacker's roll."""
    assert T.roads["primary"]["cost"] == Fraction(1, 2)
    assert (T.roads["secondary"]["cost"], T.roads["secondary"]["free_every"]) == (1, 3)
    assert T.roads["dragonewt"]["dragonewt_only"]
    f = T.features
    assert f["river"]["leave"] == {"base": 1, "water": 0}
    assert f["river"]["melee"]["attacker"] == Fraction(1, 2)
    assert f["ridge_up"]["enter"] == {"base": 1, "stone": 0}
    assert f["ridge_up"]["missile"]["attacker_factor"] == Fraction(1, 2)
    assert f["rain"]["missile"]["attacker_die"] == -1 and f["rain"]["enter"]["base"] == 1
    assert f["ford"]["cancels"]["words"] == ("river",)


def test_rule_dp_tables_unit_modifiers_agree_with_the_reference_sheet():
    """L382-L385 and L1107-L1109 print the same missile unit modifiers; melee
    adds the leader's LF to each non-leader (L385, L388)."""
    for k, v in T.missile_unit_modifiers.items():
        assert T.unit_modifiers[k]["missile"] == v
    assert T.unit_modifiers["leadership"]["melee"] == "+LF"


def test_rule_dp_tables_moon_phases_and_cyclic_values():
    """L398, L410, L433, L664, L694: Black 3, Crescent-Come 4, Empty ½ 5, Full 7,
    Full ½ 6, Crescent-Go 5, Dying 3; always 7 in the Glowline (L398, L662)."""
    assert T.cyclic == {"black": 3, "crescent_come": 4, "empty_half": 5, "full": 7,
                        "full_half": 6, "crescent_go": 5, "dying": 3}
    assert [p.movement for p in T.moon_phases] == [2, 1, 5, 6, 7, 4, 2]
    assert U.cyclic_value("black") == 3 and U.cyclic_value("black", glowline=True) == 7
    assert T.moon["glowspot_radius"] == 2 and T.moon["half_cyclic"] == Fraction(1, 2)
    line = rule_line(664)
    if line is not None:
        assert "2 (Black, cyclic 3), 1 (Crescent-Come, cyclic 4)" in line


def test_rule_dp_tables_notation_codes():
    """L390-L431: the marks of CF, MgF, MF and RF."""
    n = T.notation
    assert n[("cf", "*")].startswith("Missile Factors")
    assert n[("mf", "underline")].startswith("Heroic movement")
    assert n[("rf", "0")] == "Can use DSM (Defensive Spirit Magic) on its stack."
    assert len(n) == 31


def test_rule_dp_tables_casualty_selection_by_attack_type():
    """L1097-L1101 (and L567, L582, L584): who picks the casualties and from where."""
    c = T.casualties
    assert (c["chaotic"].defender_by, c["chaotic"].attacker_by) == ("active", "active")
    assert (c["physical"].both, c["physical"].defender_by) == (False, "active")
    assert (c["spirit"].defender_by, c["spirit"].attacker_by) == ("active", "inactive")
    assert (c["missile"].first, c["missile"].defender_by, c["missile"].only) == \
        ("inactive", "inactive", "major")
    assert (c["melee"].where, c["melee"].defender_by, c["melee"].attacker_by) == \
        ("top", "active", "inactive")


def test_rule_dp_tables_melee_numbers_and_heroic_escape():
    """L571 top 3 major units fight; L584 defensive doubling; L578 cover 1/6;
    L600 extended advance MF 5+; L642 heroes escape on 4-6, superheroes 3-6."""
    m = T.melee
    assert (m["fighting_majors"], m["defensive_doubling"], m["extended_advance_mf"]) == (3, 2, 5)
    assert m["covering_fraction"] == Fraction(1, 6) and m["rain_die"] == -1
    assert m["river_ridge_attacker"] == Fraction(1, 2)
    assert T.heroic_escape == {"hero": 4, "superhero": 3}


def test_the_data_is_read_only():
    with pytest.raises(Exception):
        D.units["argrath"].counters = 2
    with pytest.raises(ValueError):
        T.attack[1, 1] = 5
    with pytest.raises(ValueError):
        T.missile[0, 0] = 1


# ------------------------------------------------------ corrupt files ----

@pytest.fixture
def data_copy(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(U.DATA_DIR, target)
    return target


def test_the_copied_data_loads(data_copy):
    assert len(U.load(data_copy).units) == len(D.units)


def test_error_argraths_printed_cf_is_checked(data_copy):
    f = data_copy / "units.txt"
    edit(f, "front      (4!!)-10-6-0", "front      (5!!)-10-6-0")
    with pytest.raises(U.DataError, match=r"unit argrath: the rulebook prints \(4!!\)-10-6-0") as err:
        U.load(data_copy)
    assert err.value.file == "units.txt" and err.value.line == line_of(f, "[unit argrath]")


def test_error_unknown_key_names_file_and_line(data_copy):
    f = data_copy / "units.txt"
    edit(f, "name       Lancers~\n", "name       Lancers~\ncolour     red\n")
    with pytest.raises(U.DataError) as err:
        U.load(data_copy)
    assert err.value.line == line_of(f, "colour     red") and "unknown key 'colour'" in str(err.value)
    assert str(err.value).startswith("units.txt:")


def test_error_scenario_asks_for_more_counters_than_exist(data_copy):
    f = data_copy / "units.txt"
    edit(f, "counters   3~\narm        infantry~\nrank       none\nclass      major\ntags       -\n"
            "underline  -~\nfront      4-5-5-X",
         "counters   2~\narm        infantry~\nrank       none\nclass      major\ntags       -\n"
            "underline  -~\nfront      4-5-5-X")
    with pytest.raises(U.DataError, match=r"scenario 18.1: 'FA only 3:4-5-5' asks for 3 counters "
                       r"of 4-5-5, but FA has 2 \(fa_free_warriors\)"):
        U.load(data_copy)


def test_error_unit_scenarios_line_contradicts_the_scenario(data_copy):
    f = data_copy / "units.txt"
    edit(f, "scenarios  18.1=0 18.2=2 18.3=2 18.5=2 18.7=2 18.8=2 18.9=2\ncite       L209",
         "scenarios  18.1=2 18.2=2 18.3=2 18.5=2 18.7=2 18.8=2 18.9=2\ncite       L209")
    with pytest.raises(U.DataError, match=r"unit cc_horse_archers: scenarios 18.1=2 18.2=2 18.3=2 "
                       r"18.5=2 18.7=2 18.8=2 18.9=2 contradict the \[scenario\] records, which deploy 18.1=0") as err:
        U.load(data_copy)
    lines = f.read_text("utf-8").splitlines()
    assert lines[err.value.line - 1].startswith("scenarios  18.1=2")
    header = max(i for i in range(err.value.line) if lines[i].startswith("[unit "))
    assert lines[header] == "[unit cc_horse_archers]"


def test_error_cyclic_unit_in_a_scenario_without_a_moon_phase(data_copy):
    f = data_copy / "units.txt"
    edit(f, "take      FA minus all:cyclic-3-3", "take      FA all")
    edit(f, "scenarios  18.1=0 18.2=0 18.3=0 18.5=1 18.7=1 18.8=1 18.9=1\ncite       L240",
         "scenarios  18.1=0 18.2=0 18.3=1 18.5=1 18.7=1 18.8=1 18.9=1\ncite       L240")
    with pytest.raises(U.DataError, match="scenario 18.3: deploys fa_wolfrunners, whose factors "
                       "are cyclic"):
        U.load(data_copy)


def test_error_disrupted_side_stronger_than_the_front(data_copy):
    edit(data_copy / "units.txt", "back       2-1-4-X~", "back       5-1-4-X~")
    with pytest.raises(U.DataError, match=r"unit cc_lancers: disrupted CF 5-1-4-X exceeds"):
        U.load(data_copy)


def test_error_bad_notation(data_copy):
    f = data_copy / "units.txt"
    edit(f, "front      5-3-4-X~", "front      5-3-4~")
    with pytest.raises(U.DataError, match=r"unit nf_furthest_phalanx: front: '5-3-4' is not "
                       "CF-MgF-MF-RF") as err:
        U.load(data_copy)
    assert err.value.line == line_of(f, "front      5-3-4~")


def test_error_attack_table_cell(data_copy):
    f = data_copy / "tables.txt"
    edit(f, "   5   5   6   6   7   7   8   8   9   9  10",
         "   5   5   6   6   7   7   8   8   9   9  11")
    with pytest.raises(U.DataError, match=r"tables\.txt:\d+: Attack Table total 20 roll 4: 11, "
                       "but .* here 10") as err:
        U.load(data_copy)
    assert err.value.line == line_of(f, "   9   9  11")


def test_error_missile_table_row_length(data_copy):
    edit(data_copy / "tables.txt", "7              -     1DD   2DD   1DE   2DE   3DE   3DE    4DE    5DE",
         "7              -     1DD   2DD   1DE   2DE   3DE   3DE    4DE")
    with pytest.raises(U.DataError, match=r"\[table missile\] row has 9 values, need 10"):
        U.load(data_copy)


def test_error_moon_cyclic_value(data_copy):
    edit(data_copy / "tables.txt", "4               full           6         7       Full",
         "4               full           6         6       Full")
    with pytest.raises(U.DataError, match="moon phase full: 6, cyclic 6; the rulebook has 6, "
                       "cyclic 7"):
        U.load(data_copy)


def test_error_terrain_missile_modifier_disagrees_with_the_reference_sheet(data_copy):
    edit(data_copy / "tables.txt", "hill                   1           -           x1½    -1",
         "hill                   1           -           x1½    -2")
    with pytest.raises(U.DataError, match=r"Hill: missile modifier -2 .* worst for hill is -1"):
        U.load(data_copy)


def test_error_citation_outside_the_rulebook(data_copy):
    edit(data_copy / "units.txt", "cite       L208 L223 L246\n", "cite       L9999\n")
    with pytest.raises(U.DataError, match="citation L9999 is outside the rulebook"):
        U.load(data_copy)


def test_error_missing_file(data_copy):
    (data_copy / "tables.txt").unlink()
    with pytest.raises(U.DataError, match=r"tables\.txt:0: cannot read the file"):
        U.load(data_copy)


# ------------------------------------- the Battalia of 18.4 and 18.5 ----

def test_rule_dp_units_red_emperor_printed_factors_and_spirit():
    """L620: The Red Emperor (4!)-10-6-10 / disrupted (2!)-5-6-10, his Spirit
    X-10-X-10 / X-5-X-5; L443: the asterisk on his MgF (1st Edition) is a
    misprint; L786: on horseback but not cavalry; L254: named apart from the
    College."""
    e, s = D.units["red_emperor"], D.units["red_emperor_spirit"]
    assert e.hero and e.heroic and e.counters == 1 and e.arm == "none" and e.force == "lunar"
    assert (e.front.cf, e.front.leadership, e.front.mgf, e.front.exotic, e.front.mf, e.front.rf) == \
        (4, 1, 10, False, 6, 10)
    assert (e.back.cf, e.back.leadership, e.back.mgf, e.back.mf, e.back.rf) == (2, 1, 5, 6, 10)
    assert e.magician == "spirit" and not e.front.physical
    assert s.spirit_of == "red_emperor" and s.counters == 1 and not s.major
    assert (s.front.cf_kind, s.front.mgf, s.front.mf_kind, s.front.rf) == ("blank", 10, "blank", 10)
    assert (s.back.mgf, s.back.rf) == (5, 5)
    assert e.formation != "LCM"


def test_rule_dp_units_jar_eel_is_a_superhero_and_aelwrin_her_best_friend():
    """L613: Jar-eel the Razoress (20!!)-infinity-6-X, Berserker Rage
    (20)-20-12-1, best friend Beat-pot Aelwrin (4!)-10-6-X / (2)-5-6-X; both
    Lunar (L269, L279)."""
    j, a = D.units["jar_eel"], D.units["aelwrin"]
    assert j.superhero and j.back_side == "berserk" and j.best_friend == "aelwrin"
    assert (j.front.cf, j.front.leadership, j.front.mgf_kind, j.front.mf) == (20, 2, "infinity", 6)
    assert (j.back.cf, j.back.mgf, j.back.mf, j.back.rf) == (20, 20, 12, 1)
    assert a.hero and (a.front.cf, a.front.leadership, a.front.mgf, a.front.mf) == (4, 1, 10, 6)
    assert (a.back.cf, a.back.leadership, a.back.mgf) == (2, 0, 5)
    assert j.force == a.force == "lunar" and j.formation == a.formation


def test_rule_dp_units_crimson_bat_is_chaotic_and_a_physical_minor_unit():
    """L696: The Crimson Bat (4)-1*-9 Air Rune-0 / (2)-0-5 Air Rune-X; L136
    and L435: it is one of the two chaotic units, MgF -1*; L129: a physical
    minor unit (Lunar); L263: part of the College in 18.4."""
    b = D.units["crimson_bat"]
    assert (b.front.cf, b.front.single, b.front.mgf_kind, b.front.mgf, b.front.exotic) == \
        (4, True, "number", -1, True)
    assert (b.front.mf, b.front.rune, b.front.rf) == (9, "air", 0)
    assert (b.back.cf, b.back.mgf, b.back.mf, b.back.rf_kind) == (2, 0, 5, "blank")
    assert not b.major and b.rank == "none" and b.formation == "LCM" and b.counters == 1
    assert [u.id for u in D.units.values() if u.front.mgf is not None and u.front.mgf < 0] == \
        ["crimson_bat"]


def test_rule_dp_units_crater_makers_are_a_physical_magician_with_a_cyclic_agent():
    """L710: The Crater Makers 6-cyclic*-4 Air Rune-12 / 3-½cyclic-2-0, and
    Agent cyclic-X-X-12; an agent makes them a physical magician (underlined
    RF, L133, L428); agents have blank MF and MgF (L134) and are minor (L129)."""
    c, a = D.units["crater_makers"], D.units["crater_makers_agent"]
    assert (c.front.cf, c.front.mgf_kind, c.front.exotic, c.front.mf, c.front.rune, c.front.rf) == \
        (6, "cyclic", True, 4, "air", 12)
    assert (c.back.cf, c.back.mgf_kind, c.back.mf, c.back.rune, c.back.rf) == \
        (3, "half_cyclic", 2, None, 0)
    assert c.magician == "physical" and c.front.physical
    assert a.agent_of == "crater_makers" and a.counters == c.counters and not a.major
    assert (a.front.cf_kind, a.front.mgf_kind, a.front.mf_kind, a.front.rf, a.front.physical) == \
        ("cyclic", "blank", "blank", 12, True)
    assert "front" not in a.substituted and "back" in a.substituted


def test_rule_dp_units_full_moon_corps():
    """L712: The Full Moon Corps cyclic-10*-6-0 / ½cyclic-5*-3-X, of the College
    (L263); brought on at the start of 18.4 and 18.5 (the reading)."""
    f = D.units["full_moon_corps"]
    assert (f.front.cf_kind, f.front.mgf, f.front.exotic, f.front.mf, f.front.rf) == \
        ("cyclic", 10, True, 6, 0)
    assert (f.back.cf_kind, f.back.mgf, f.back.exotic, f.back.mf, f.back.rf_kind) == \
        ("half_cyclic", 5, True, 3, "blank")
    assert f.formation == "LCM" and f.major and f.magician is None
    assert f.deploys == {"18.4": f.counters, "18.5": f.counters, "18.6": f.counters, "18.7": f.counters, "18.8": f.counters, "18.9": f.counters}


def test_rule_dp_units_twin_stars_are_lunar_but_not_of_the_battalia():
    """L634: Twin Stars X-cyclic-7-1 / X-½cyclic-4-0; L444: not part of the
    Lunar setup, only Random Event 42; L269: not part of the Battalia; L129:
    disembodied spirits that move, so minor and no spirit magician."""
    t = D.units["twin_stars"]
    assert (t.front.cf_kind, t.front.mgf_kind, t.front.mf, t.front.rf) == ("blank", "cyclic", 7, 1)
    assert (t.back.cf_kind, t.back.mgf_kind, t.back.mf, t.back.rf) == ("blank", "half_cyclic", 4, 0)
    assert t.force == "lunar" and not D.formations[t.formation].battalia and t.deploys == {}
    assert not t.major and t.magician is None and not t.heroic
    assert all(s.units.get("twin_stars", 0) == 0 for s in D.scenarios.values())
    assert [f for f, x in D.formations.items() if not x.battalia] == [t.formation]


def test_rule_dp_units_pavis_royal_guard_is_mounted_but_not_cavalry():
    """L786: the Pavis Royal Guard is on horseback but is not cavalry (and not
    frozen by Ironhoof); of the Lunar Battalia in 18.5 (the reading)."""
    g = D.units["pavis_royal_guard"]
    assert g.arm == "none" and g.rank == "none" and g.major and "arm" not in g.substituted
    assert g.deploys == {"18.5": g.counters, "18.7": g.counters, "18.8": g.counters, "18.9": g.counters}


def test_rule_dp_units_lunar_college_of_magic_is_printed_cm():
    """L255: "The entire Lunar College of Magic (CM)", the Sartar City Militia
    being CM too (L213): the record is LCM with the printed abbreviation."""
    assert D.formations["LCM"].abbrev == "CM" and D.formations["CM"].abbrev == "CM"
    assert D.formations["LCM"].name == "Lunar College of Magic"
    assert D.formations["LCM"].force == "lunar" and D.formations["CM"].force == "sartar"
    assert {"crimson_bat", "crater_makers", "crater_makers_agent", "full_moon_corps"} <= \
        set(D.units_of("LCM"))


def test_rule_dp_units_stormwalkers_are_a_spirit_magician_of_the_union():
    """L688: The Stormwalkers 7-5*-20 Air Rune-12 / 4-3*-10 Air Rune-0, whose
    spirit is eliminated by their storm: a spirit magician (L131); L260: of
    the Sartar Magical Union."""
    s = D.units["stormwalkers"]
    assert (s.front.cf, s.front.mgf, s.front.exotic, s.front.mf, s.front.rune, s.front.rf) == \
        (7, 5, True, 20, "air", 12)
    assert (s.back.cf, s.back.mgf, s.back.exotic, s.back.mf, s.back.rf) == (4, 3, True, 10, 0)
    assert s.magician == "spirit" and s.formation == "SMU" and s.force == "sartar"
    spirit = D.units["stormwalkers_spirit"]
    assert spirit.spirit_of == "stormwalkers" and (spirit.front.mgf, spirit.front.rf) == (5, 12)


def test_rule_dp_units_sylphs_are_the_children_of_the_winds_physical_agent():
    """L442: "The Sylphs are the Wind Children's physical agent": the Children
    of the Wind are a physical magician (underlined RF, L133), the Sylphs an
    agent (blank MF and MgF, L134) of the Union (L260)."""
    c, s = D.units["children_of_the_wind"], D.units["sylphs"]
    assert c.magician == "physical" and c.formation == s.formation == "SMU"
    assert s.agent_of == "children_of_the_wind" and not s.major
    assert (s.front.mgf_kind, s.front.mf_kind, s.front.rf, s.front.physical) == \
        ("blank", "blank", c.front.rf, True)


def test_rule_dp_units_wasps_are_a_physical_minor_unit():
    """L690: The Wasps (2)-4*-10 Air Rune-X / (1)-2*-5 Air Rune-X; L129: a
    physical minor unit (Sartar)."""
    w = D.units["wasps"]
    assert (w.front.cf, w.front.single, w.front.mgf, w.front.exotic, w.front.mf, w.front.rf_kind) == \
        (2, True, 4, True, 10, "blank")
    assert (w.back.cf, w.back.mgf, w.back.mf) == (1, 2, 5)
    assert not w.major and w.force == "sartar" and w.formation == "SMU"


def test_rule_dp_units_each_side_has_an_assassin():
    """L926: "Assassins X-*-*-X"; L271: 18.5 lets assassins be used without
    the DP penalty, so both forces have one; they act in the Exotic Magic
    Phase (L728, L924)."""
    for force in U.FORCES:
        mine = [u for u in D.units.values() if u.assassin and u.force == force]
        assert mine and all(not u.major and u.arm == "none" for u in mine)
        assert all(D.scenarios["18.5"].units[u.id] == u.counters for u in mine)
    assert not any(D.units[u].assassin for u, n in D.scenarios["18.4"].units.items() if n)


def test_rule_dp_units_every_magician_has_one_spirit_or_one_agent():
    """L131-L134: a spirit magician (RF of 1 or more) has a spirit with a blank
    CF and MF, its MgF and RF (L746, L770, L778); a physical magician
    (underlined RF) an agent with a CF and blank MgF and MF; one per counter."""
    for u in D.units.values():
        spirits = [s for s in D.units.values() if s.spirit_of == u.id]
        agents = [a for a in D.units.values() if a.agent_of == u.id]
        if u.magician == "spirit":
            assert len(spirits) == 1 and not agents, u.id
            assert spirits[0].counters == u.counters
        elif u.magician == "physical":
            assert len(agents) == 1 and not spirits, u.id
            assert agents[0].counters == u.counters and agents[0].front.rf == u.front.rf
        else:
            assert not spirits and not agents, u.id
    for force in U.FORCES:
        kinds = {u.magician for u in D.units.values() if u.force == force}
        assert {"spirit", "physical"} <= kinds


def test_rule_dp_units_new_counters_deploy_in_no_scenario_before_18_4():
    """18.1-18.3 (L204-L246) deploy what they did: the counters of 18.4 and 18.5
    deploy 0 there."""
    totals = {sid: sum(D.scenarios[sid].units.values()) for sid in ("18.1", "18.2", "18.3")}
    assert totals == {"18.1": 31, "18.2": 37, "18.3": 52}
    for f in ("LH", "LCM", "LA", "TS", "PRG", "SMU", "SA"):
        for u in D.units_of(f):
            assert not any(D.units[u].deploys.get(sid, 0) for sid in totals), u


def test_rule_dp_units_scenario_18_4_counterstroke():
    """L250-L263: 7 game-turns, all combat; the Lunar player selects the moon's
    phase before deploying and deploys first, within the Glowline, the Red
    Emperor and the entire College; Sartar second within Old Sartar: Argrath,
    the Dragontooth Runners, the Union minus the Stormwalkers and the Children
    of the Wind, (3) 5-4-5-4s of the Horde; an Exotic Magic Phase for the
    Lunar player only."""
    s = D.scenarios["18.4"]
    assert (s.name, s.turns, s.first, s.moon, s.exotic, s.special) == \
        ("Counterstroke", 7, "lunar", "lunar", ("lunar",), ())
    assert set(s.combat) == set(U.COMBAT_KINDS)
    assert s.zone("lunar") == "glowline" and s.zone("sartar") == "old_sartar"
    lunar, sartar = s.counters("lunar"), s.counters("sartar")
    college = {u: D.units[u].counters for u in D.units_of("LCM")}
    assert lunar == {"red_emperor": 1, "red_emperor_spirit": 1, **college}
    assert sum(lunar.values()) == 16
    for gone in ("stormwalkers", "stormwalkers_spirit", "children_of_the_wind", "sylphs"):
        assert gone not in sartar
    assert sartar["argrath"] == 1 and sartar["dragontooth_runners"] == 2
    assert sartar["bh_shamans"] == 3 and sartar["bh_shaman_spirit"] == 3
    assert sartar["wasps"] == 1 and "harrek" not in sartar and "bh_bison_riders" not in sartar
    assert sum(sartar.values()) == 20


def test_rule_dp_units_scenario_18_5_hearts_and_minds():
    """L267-L271: 7 game-turns, all combat; the Lunar player selects the moon's
    phase and deploys first the entire Lunar Battalia but not the Twin Stars,
    west of 26xx and north of xx19; Sartar the entire Sartar Battalia within
    Sartar; no retreat or move through Independents territory; assassins
    without the DP penalty."""
    s = D.scenarios["18.5"]
    assert (s.name, s.turns, s.first, s.moon) == ("Hearts and Minds", 7, "lunar", "lunar")
    assert s.exotic == ("lunar", "sartar") and set(s.combat) == set(U.COMBAT_KINDS)
    assert set(s.special) == {"no_independent_territory", "assassins_free"}
    assert s.zone("lunar") == "west_of_26xx_north_of_xx19" and s.zone("sartar") == "sartar"
    for u in D.units.values():
        want = 0 if u.id == "twin_stars" else u.counters
        assert s.units.get(u.id, 0) == want, u.id
    assert {f: sum(s.counters(f).values()) for f in U.FORCES} == {"lunar": 50, "sartar": 49}


def test_rule_dp_zones_read_the_map():
    """L142: Sartar is Old Sartar plus the light orange areas; L143: within the
    Glowline, dark or light; L269: west of 26xx and north of xx19, hex ids
    being column then row (rows grow southward), read as column < 26 and row
    < 19, Independents territory left out (L271)."""
    from dragongym.envs.dragon_pass import mapdata as M
    assert U.ZONE_TERRITORIES["sartar"] == M.SARTAR and U.ZONE_TERRITORIES["glowline"] == M.GLOWLINE
    assert U.INDEPENDENT_TERRITORIES == M.INDEPENDENT
    m = M.MAP
    assert m.hex_id(m.site_named("Furthest")) < m.hex_id(m.site_named("Boldhome"))

    def zone(z):
        return {m.ids[i] for i in range(m.n) if U.in_zone(z, m.ids[i], m.territory[i])}

    west = zone("west_of_26xx_north_of_xx19")
    assert "2518" in west and "2618" not in west and "2519" not in west and "0101" in west
    assert not any(m.territory[m.hex_index(h)] in M.INDEPENDENT for h in west)
    assert zone("glowline") == {m.ids[i] for i in m.hexes("glowline")}
    assert zone("sartar") == {m.ids[i] for i in m.hexes("sartar")}
    assert zone("old_sartar") | zone("outside_old_sartar") == set(m.ids)
    with pytest.raises(ValueError, match="not a deployment zone"):
        U.in_zone("tarsh", "0101", "glowline_dark")


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook is not beside the package")
@pytest.mark.parametrize("line, text", [
    (613, "Jar-eel the Razoress\t(20!!)-infinity-6-X\t(20)-20-12-1\tBeat-pot Aelwrin (4!)-10-6-X "
          "/ (2)-5-6-X"),
    (620, "The Red Emperor\t(4!)-10-6-10\t(2!)-5-6-10"),
    (620, "Spirit is X-10-X-10 / X-5-X-5"),
    (634, "Twin Stars\tX-cyclic-7-1\tX-½ cyclic-4-0"),
    (443, "asterisk in the Red Emperor's MgF"),
    (442, "The Sylphs are the Wind Children's physical agent"),
    (136, "The Crimson Bat has an MgF of -1*"),
    (696, "The Crimson Bat: (4)-1*-9 Air Rune-0 / (2)-0-5 Air Rune-X"),
    (710, "The Crater Makers: 6-cyclic*-4 Air Rune-12 / 3-½ cyclic-2-0 (and Agent cyclic-X-X-12)"),
    (712, "The Full Moon Corps: cyclic-10*-6-0 / ½ cyclic-5*-3-X"),
    (688, "The Stormwalkers: 7-5*-20 Air Rune-12 / 4-3*-10 Air Rune-0"),
    (690, "The Wasps: (2)-4*-10 Air Rune-X / (1)-2*-5 Air Rune-X"),
    (926, "Assassins X-*-*-X"),
    (255, "The entire Lunar College of Magic (CM)"),
    (260, "minus the Stormwalkers & Children of the Wind"),
    (269, "west of row 26xx and north of row xx19"),
])
def test_the_printed_values_of_18_4_and_18_5_are_at_the_cited_lines(line, text):
    """The counters of 18.4 and 18.5 the loader holds as printed are in the rulebook."""
    assert text in rule_line(line).replace(" – ", "-").replace("–", "-")


# ------------------------------------ corrupt files: 18.4 and 18.5 ----

_SYLPHS_CLASS = "class      minor\ntags       -\nunderline  rf\nfront      5-X-X-10~"


def test_error_physical_magician_needs_exactly_one_agent(data_copy):
    edit(data_copy / "units.txt", "agent_of   smu_lightbringers", "agent_of   children_of_the_wind")
    with pytest.raises(U.DataError, match=r"unit children_of_the_wind: a physical magician "
                       r"\(underlined RF 10, L133\) needs exactly one agent \(L134\), found 2"):
        U.load(data_copy)


def test_error_agent_has_a_blank_mgf(data_copy):
    edit(data_copy / "units.txt", "front      5-X-X-10~", "front      5-3-X-10~")
    with pytest.raises(U.DataError, match=r"unit sylphs: an agent has a blank MF and a blank MgF"):
        U.load(data_copy)


def test_error_agent_rf_is_underlined_and_its_magicians(data_copy):
    edit(data_copy / "units.txt", "underline  rf\nfront      5-X-X-10~", "underline  -\nfront      5-X-X-10~")
    with pytest.raises(U.DataError, match=r"unit sylphs: an agent's RF is underlined \(L428\)"):
        U.load(data_copy)


def test_error_agent_is_a_minor_unit(data_copy):
    f = data_copy / "units.txt"
    edit(f, _SYLPHS_CLASS, _SYLPHS_CLASS.replace("minor", "major"))
    with pytest.raises(U.DataError, match=r"unit sylphs: class major, but agents are minor units "
                       r"\(L129\)") as err:
        U.load(data_copy)
    assert err.value.file == "units.txt"


def test_error_blank_mf_and_mgf_need_agent_of(data_copy):
    f = data_copy / "units.txt"
    edit(f, _SYLPHS_CLASS, _SYLPHS_CLASS.replace("minor", "major"))
    edit(f, "agent_of   children_of_the_wind\n", "")
    with pytest.raises(U.DataError, match=r"unit sylphs: a blank MF and MgF is a physical "
                       r"magician's agent .* give its magician in 'agent_of'") as err:
        U.load(data_copy)
    assert err.value.line == line_of(f, "[unit sylphs]")


def test_error_hero_spirit_magician_needs_his_spirit(data_copy):
    edit(data_copy / "units.txt", "spirit_of  red_emperor", "spirit_of  aelwrin")
    with pytest.raises(U.DataError, match=r"unit red_emperor: a spirit magician \(RF 10, L131\) "
                       r"needs exactly one spirit \(L132\), found 0"):
        U.load(data_copy)


def test_error_crimson_bat_must_be_chaotic(data_copy):
    edit(data_copy / "units.txt", "front      (4)--1*-9 Air Rune-0", "front      (4)-1*-9 Air Rune-0")
    with pytest.raises(U.DataError, match=r"unit crimson_bat: no negative MgF; the only chaotic "
                       r"units are the Hydra and the Crimson Bat"):
        U.load(data_copy)


def test_error_crimson_bat_is_a_physical_minor_unit(data_copy):
    edit(data_copy / "units.txt", "class      minor\ntags       -\nunderline  -~\nfront      (4)--1*",
         "class      major\ntags       -\nunderline  -~\nfront      4--1*")
    with pytest.raises(U.DataError, match=r"unit crimson_bat: L129 lists it among the physical "
                       r"minor units"):
        U.load(data_copy)


def test_error_formation_abbrev_other_than_its_id(data_copy):
    f = data_copy / "units.txt"
    edit(f, "abbrev    CM\ncolour    red", "abbrev    CX\ncolour    red")
    with pytest.raises(U.DataError, match=r"formation LCM: abbrev 'CX' must be its id") as err:
        U.load(data_copy)
    assert err.value.line == line_of(f, "[formation LCM]")


def test_error_formation_abbrev_shared_within_a_force(data_copy):
    edit(data_copy / "units.txt", "abbrev    LA~", "abbrev    CM")
    with pytest.raises(U.DataError, match=r"formation LCM: abbrev 'CM' is also LA's, of the same "
                       r"force lunar"):
        U.load(data_copy)


def test_error_twin_stars_are_not_of_the_battalia(data_copy):
    edit(data_copy / "units.txt", "battalia  no\n", "")
    with pytest.raises(U.DataError, match=r"formation TS: battalia yes, but twin_stars is not part "
                       r"of the Battalia \(L269, L444\)"):
        U.load(data_copy)


def test_error_18_5_takes_the_entire_battalia(data_copy):
    f = data_copy / "units.txt"
    edit(f, "take      LA all\n", "")
    edit(f, "scenarios  18.5=1 18.7=1 18.8=1 18.9=1\ncite       L271", "scenarios  18.7=1 18.8=1 18.9=1\ncite       L271")
    with pytest.raises(U.DataError, match=r"scenario 18.5: the forces .* are not those of the "
                       r"rulebook .*'LA all'.* \(L267-L273\)"):
        U.load(data_copy)


def test_error_18_4_moon_is_the_lunar_players(data_copy):
    edit(data_copy / "units.txt", "moon      lunar\nexotic    lunar\n", "moon      sartar\nexotic    lunar\n")
    with pytest.raises(U.DataError, match=r"scenario 18.4: moon 'sartar', but the rulebook has "
                       r"'lunar' \(L250-L265\)"):
        U.load(data_copy)


def test_error_cyclic_units_need_a_moon_line(data_copy):
    edit(data_copy / "units.txt", "moon      lunar\nexotic    lunar\n", "exotic    lunar\n")
    with pytest.raises(U.DataError, match=r"scenario 18.4: deploys crater_makers, whose factors are "
                       r"cyclic, but no phase of the moon is chosen"):
        U.load(data_copy)


def test_error_assassin_needs_an_exotic_magic_phase(data_copy):
    edit(data_copy / "units.txt", "exotic    lunar sartar", "exotic    lunar")
    with pytest.raises(U.DataError, match=r"scenario 18.5: deploys sartar_assassin, an assassin, "
                       r"but sartar has no Exotic Magic Phase"):
        U.load(data_copy)


def test_error_exotic_forces_need_exotic_combat(data_copy):
    edit(data_copy / "units.txt", "combat    melee missile heroes superheroes magic exotic\nmoon      "
         "lunar\nexotic    lunar\n", "combat    melee missile heroes superheroes magic\nmoon      "
         "lunar\nexotic    lunar\n")
    with pytest.raises(U.DataError, match=r"scenario 18.4: combat .* and exotic lunar: an Exotic "
                       r"Magic Phase \(L263, L672\) needs 'exotic' in combat"):
        U.load(data_copy)


def test_error_spirit_deployed_apart_from_its_magician(data_copy):
    f = data_copy / "units.txt"
    edit(f, "take      BH only 3:5-4-5-4 3:bh_shaman_spirit", "take      BH only 3:5-4-5-4 2:bh_shaman_spirit")
    edit(f, "scenarios  18.1=0 18.2=0 18.4=3 18.5=3 18.7=3 18.8=3 18.9=3\ncite       L129",
         "scenarios  18.1=0 18.2=0 18.4=2 18.5=3 18.7=3 18.8=3 18.9=3\ncite       L129")
    with pytest.raises(U.DataError, match=r"scenario 18.4: deploys 2 of bh_shaman_spirit but 3 of "
                       r"its magician bh_shamans: a spirit comes and goes with its magician"):
        U.load(data_copy)


def test_error_unknown_deploy_zone_and_special_rule(data_copy):
    f = data_copy / "units.txt"
    edit(f, "deploy    lunar glowline", "deploy    lunar nowhere")
    with pytest.raises(U.DataError, match=r"deploy: want SIDE ZONE \(lunar\|sartar\|independent\|tarsh .*glowline\|"
                       r"sartar\|west_of_26xx_north_of_xx19\|.*\), got 'lunar nowhere'"):
        U.load(data_copy)
    edit(f, "deploy    lunar nowhere", "deploy    lunar glowline")
    edit(f, "special   no_independent_territory assassins_free", "special   free_lunch")
    with pytest.raises(U.DataError, match=r"special: 'free_lunch' is not one of "
                       r"no_independent_territory, assassins_free") as err:
        U.load(data_copy)
    assert err.value.line == line_of(f, "special   free_lunch")
