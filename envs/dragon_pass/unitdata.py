"""Dragon Pass unit counters, scenarios 18.1-18.6 and the printed tables.

Read from ``envs/dragon_pass/data/units.txt``, ``data/independents.txt`` (the
Independents' and special units' counters, L730-L920) and ``data/tables.txt``. The
rulebook (``shared/rules/dragon_pass.txt``; ``L123`` is its line 123) names the
formations of the first five scenarios (the Lunar and Sartar Battalia) but
prints few of their counters; the tables it prints in full (but for the end of the Attack Table's sixth row).
The text files are the source of truth: printed values are transcribed with
their line, the rest is authored for dragongym and marked ``~`` (in Dragon
Pass ``*`` is printed notation, L394, L407); the reasons are in
``envs/dragon_pass/SUBSTITUTES.md ("Units")``. This module parses the files into
frozen dataclasses, checks every rule the rulebook states about them, and
raises :class:`DataError` (a ``ValueError``) naming the file, the line and the
problem. Pure Python and numpy; nothing is compiled.

    from dragongym.envs.dragon_pass import unitdata as U
    U.DATA.units["argrath"].front.leadership          # 2: (4!!), L130
    U.DATA.scenarios["18.1"].counters("lunar")        # {unit id: counters}
    U.DATA.tables.attack[23, 5]                       # 17 (L1069)
    U.attack_loss(75, 5)                              # 56: 3/4 of 75 (L1090)
    U.missile_result(8, 4)                            # '2DD' (L1126)
    U.DATA.independent_units["giants"].back.cf        # 8: 8-5-4-X, L686

:class:`UnitData` (``load(data_dir)`` returns one; ``DATA`` is the default):

======================  ============================  ================
field                   type                          file
======================  ============================  ================
units                   dict[str, Unit]               units.txt
formations              dict[str, Formation]          units.txt
scenarios               dict[str, Scenario]           units.txt
tables                  Tables                        tables.txt
independent_units       dict[str, Unit]               independents.txt
independent_formations  dict[str, Formation]          independents.txt
======================  ============================  ================

``units`` is the game's unit set (constants.UNIT_IDS). The Independents' and
special units' counters (L730-L920, force ``independent``, one formation per
Independent with its ``faction``, ``group`` and ``dp``) are read from
``independents.txt`` into fields of their own; the scenarios of units.txt
take their formations too (18.6, L275-L293), for the side ``independent``.

A counter's factors are :class:`Side` records (front and back), parsed from
the rulebook's own notation CF-MgF-MF-RF (L608, L734): ``(4!!)-10-6-0``,
``2*-2-6-X``, ``cyclic-3-3-X``, ``2*-3-4 Water Rune-X``. Every record has
``cite`` (rulebook lines) and ``substituted`` (the names of its authored
fields).

Tables (see :class:`Tables`): ``attack[total, die]`` for totals 0..60 and dice
1..6 (beyond 60 and with die modifiers use :func:`attack_loss`);
``missile[roll, total]`` for modified rolls 0..7 and Missile Factor totals
0..20, a code into ``missile_codes`` (use :func:`missile_result`). The tables
of diplomacy, the Independents and random events (``alliance_dp``,
``emissary``, ``dwarf_luck``, ``random_events`` ...) are read and checked but
not yet used by the rules.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

import numpy as np

from dragongym.envs.core.records import Record, Syntax, authored, check_cite, read_sections
from .datafiles import DATA_DIR, RULEBOOK_LINES, DataError  # noqa: F401 (DataError is part of this module's face)


# ----------------------------------------------------- rulebook vocabulary ----

FORCES = ("lunar", "sartar")
"""The two forces of the Battalia, of scenarios 18.1-18.5 (L204-L273)."""
SIDES = ("lunar", "sartar", "independent", "tarsh")
"""The sides a scenario's players take, its 'deploy' lines in deployment
order: in 18.6 the Lunar player's opponent is the Independent player, who
deploys and plays the Independents the scenario takes (L275-L293); in 18.8
the Tarsh player deploys and plays the Independents it takes, beside the
Lunar and Sartar players (L303-L313)."""
SIDE_FORCE = {"lunar": "lunar", "sartar": "sartar", "independent": "independent", "tarsh": "independent"}
"""The counters' force (a unit's ``force``) each side plays: the Tarsh player
plays Independents (L305)."""
ZONES = ("old_sartar", "outside_old_sartar", "glowline", "sartar", "west_of_26xx_north_of_xx19",
         "dark_glowline", "outside_sartar_and_dark_glowline", "beasts_valley_grazelands_wintertop")
"""Deployment zones: "anywhere within / outside Old Sartar" (L206, L211, L236,
L242, L257), "anywhere within the Glowline" (L252), "within Sartar" (L269) and
"west of row 26xx and north of row xx19" (L269), "within the dark part of
the Glowline" and "outside of Sartar and the dark part of the Glowline"
(L277, L284), "within Beast's Valley, Grazelands and Wintertop" (L305); see
:func:`in_zone`. A scenario's 'keep_out' and 'garrison' lines narrow them (18.6: not Bagnot or Dunstop for the Lunars; at least one
Independent unit in each, L277, L284)."""
ZONE_TERRITORIES = {"old_sartar": frozenset({"old_sartar"}),
                    "glowline": frozenset({"glowline_dark", "glowline_light"}),
                    "beasts_valley_grazelands_wintertop": frozenset({"beast_valley", "grazelands", "wintertop"}),
                    "sartar": frozenset({"old_sartar", "duck_point", "alda_chur", "alone"})}
"""The map territories (mapdata.TERRITORIES values) of the territorial zones
(L142, L143); tests check them against mapdata.SARTAR and mapdata.GLOWLINE."""
INDEPENDENT_TERRITORIES = frozenset({"grazelands", "wintertop", "black_horse_country",
                                     "cragspider", "beast_valley", "dragonewt"})
"""The Major Independents' territories (L144-L149; mapdata.INDEPENDENT)."""
COMBAT_KINDS = ("melee", "missile", "heroes", "superheroes", "magic", "exotic")
"""What a scenario's title says is in use (L204, L219, L234); "All Combat"
(L250, L267) is every one of them, the Exotic Magic Phase included (L263,
L674)."""
SPECIAL_RULES = ("no_independent_territory", "assassins_free", "no_sartar")
"""Scenario special rules: units cannot retreat or move through any
Independents territory; assassins are used without the usual DP penalty
(L271); units cannot retreat or move into or through any part of Sartar
(L291)."""
ASSASSIN = "X-*-*-X"
"""The printed Assassins counter (L926)."""
ARMS = ("infantry", "cavalry", "none")
"""Replacement and Ironhoof's freeze count infantry and cavalry (L299, L786)."""
RANKS = ("none", "hero", "superhero")
"""Heroes and superheroes (L130, L610-L634)."""
TAGS = ("duck", "bison", "dragon", "giant", "llama", "herd", "ancestor")
"""What the missile unit modifiers ask about (L382-L384, L1107-L1109)."""
COLOURS = ("red", "orange", "dark_green")
"""Counter colours of the Lunar Empire, Sartar and the Barbarian Horde (L115-L117)."""
INDEPENDENT = "independent"
"""The force of every counter of ``independents.txt``: the Independents and the
special units (L730-L920). Not one of :data:`FORCES` (the Battalia's): a
scenario gives them to its ``independent`` side (18.6), or they are no one's."""
GROUPS = ("major", "minor", "special")
"""Major Independents (L730), Minor Independents (L804), Special Units (L914)."""
FACTIONS = ("dragonewts", "black_horse", "cragspider", "exiles", "half_beasts",
            "grazelanders", "androgeus", "delecti", "dinosaurs", "dragons", "dwarf",
            "hungry_jack", "hydra", "puppeteers", "spirit_of_movement", "sun_dome_templars",
            "tusk_riders", "giants")
"""The Independents (and the giants) as the rulebook groups them, L738-L920; the
names of map.txt's capitals and homes where it has them."""
INDEPENDENT_COLOURS = ("purple", "grey", "yellow_on_black", "lime_green", "light_blue",
                       "yellow", "purple_on_brown", "magenta", "yellow_on_grey",
                       "white_on_black", "brown")
"""Counter colours of the Independents (L115-L121; brown, the neutral ground's
colour, L150, is authored for those the table leaves out)."""
FACTORS = ("cf", "mgf", "mf", "rf")
"""The four factors, in the order the notation writes them (L608)."""

MOON_CYCLIC = {"black": 3, "crescent_come": 4, "empty_half": 5, "full": 7,
               "full_half": 6, "crescent_go": 5, "dying": 3}
"""The Red Moon's cyclic value by phase (L398, L410, L433, L664, L694)."""
MOON_MOVEMENT = {"black": 2, "crescent_come": 1, "empty_half": 5, "full": 6,
                 "full_half": 7, "crescent_go": 4, "dying": 2}
"""The phases' "movement value" (L433, L664, L694; its use is not stated)."""
GLOWLINE_CYCLIC = 7
"""The cyclic value inside the Glowline or a Glowspot (L398, L662, L666)."""
ATTACK_FRACTIONS = (Fraction(1, 6), Fraction(1, 4), Fraction(1, 3), Fraction(1, 2),
                    Fraction(3, 4), Fraction(1))
"""Attack Table losses beyond a total of 60, die 1..6 (L1086-L1091)."""
MISSILE_SEVERITY = ("-", "1DD", "2DD", "1DE", "2DE", "3DE", "4DE", "5DE")
"""Missile Fire results from mildest to worst (L1122-L1131); the code is the index."""

# The marks the notation parser reads, each a row of the printed notation
# table (L390-L431).
_NOTATION_MARKS = {
    ("cf", "X"), ("cf", "*"), ("cf", "()"), ("cf", "!"), ("cf", "="), ("cf", "cyclic"),
    ("cf", "h"), ("cf", "T"), ("cf", "underline"),
    ("mgf", "X"), ("mgf", "infinity"), ("mgf", "*"), ("mgf", "!"), ("mgf", "N"),
    ("mgf", "cyclic"), ("mgf", "-"), ("mgf", "x2"), ("mgf", "underline"),
    ("mf", "X"), ("mf", "underline"), ("mf", "*"), ("mf", "+"), ("mf", "x2"),
    ("mf", "water_rune"), ("mf", "air_rune"), ("mf", "stone_rune"),
    ("rf", "X"), ("rf", "underline"), ("rf", "0"), ("rf", "()"), ("rf", "x2"),
}

_ALL_COMBAT = tuple(sorted(COMBAT_KINDS))

# The printed facts about the scenarios (L204-L273): title, game-turns, the
# combat in use, who deploys first and where, and each bullet of forces, in
# the selector syntax of units.txt; from 18.4 on who selects the phase of the
# moon (L263, L271), which forces have an Exotic Magic Phase (L263; "All
# Combat" in 18.5), the special rules (L271) and the forces whose entire
# Battalia deploys (L269). Missing keys: no moon, no exotic phase, none. The
# file must say the same.
_SCENARIO_RULES = {
    "18.1": dict(name="Stemming the Tide", turns=5, combat=("melee",),
                 deploy=(("lunar", "outside_old_sartar"), ("sartar", "old_sartar")),
                 takes=("NF all", "CC minus 2:2*-2-6 2:2*-1-6", "CM minus all:@duck",
                        "FA only 3:4-5-5", "BH only 4:4-3-5"),
                 cite="L204-L218"),
    "18.2": dict(name="High Tide", turns=6, combat=("melee", "missile"),
                 deploy=(("lunar", "outside_old_sartar"), ("sartar", "old_sartar")),
                 takes=("NF all", "CC all", "CM all", "FA only 3:4-5-5", "BH only 4:4-3-5"),
                 cite="L219-L232"),
    "18.3": dict(name="Argrath's Return", turns=5,
                 combat=("heroes", "melee", "missile", "superheroes"),
                 deploy=(("sartar", "old_sartar"), ("lunar", "outside_old_sartar")),
                 takes=("SH only all:argrath all:harrek all:gunda all:dragontooth_runners",
                        "CM all", "FA minus all:cyclic-3-3", "HC all", "CC all", "NF all"),
                 cite="L234-L248"),
    # "The Red Emperor" and "Prince Argrath" bring his printed Spirit; the
    # Union "minus the Stormwalkers & Children of the Wind" leaves their
    # spirit and agent (the Sylphs, L442) behind too; the three 5-4-5-4s
    # bring their spirits (SUBSTITUTES.md, "Interpretation choices").
    "18.4": dict(name="Counterstroke", turns=7, combat=_ALL_COMBAT,
                 deploy=(("lunar", "glowline"), ("sartar", "old_sartar")),
                 takes=("LH only all:red_emperor all:red_emperor_spirit", "LCM all",
                        "SH only all:argrath all:dragontooth_runners",
                        "SMU minus all:stormwalkers all:stormwalkers_spirit "
                        "all:children_of_the_wind all:sylphs",
                        "BH only 3:5-4-5-4 3:bh_shaman_spirit"),
                 moon="lunar", exotic=("lunar",), cite="L250-L265"),
    "18.5": dict(name="Hearts and Minds", turns=7, combat=_ALL_COMBAT,
                 deploy=(("lunar", "west_of_26xx_north_of_xx19"), ("sartar", "sartar")),
                 battalia=("lunar", "sartar"),
                 moon="lunar", exotic=("lunar", "sartar"),
                 special=("assassins_free", "no_independent_territory"), cite="L267-L273"),
    # Lunars against the Independents: "Jar-eel, Aelwrin" are of the Lunar
    # heroes; the Exiles come "minus the Assassin" (L287).
    "18.6": dict(name="Dousing the Flames", turns=10, combat=_ALL_COMBAT,
                 deploy=(("lunar", "dark_glowline"), ("independent", "outside_sartar_and_dark_glowline")),
                 takes=("LH only all:jar_eel all:aelwrin", "LCM all", "HC all", "NF all",
                        "AN all", "EX minus all:exiles_assassin", "GZ all", "HB all"),
                 moon="lunar", exotic=("independent", "lunar"), special=("no_sartar",),
                 keep_out=(("lunar", "1406"), ("lunar", "0612")),
                 garrison=(("independent", "1406"), ("independent", "0612")),
                 best_friends=(("androgeus", "twins"),), cite="L275-L293"),
    # The Full Game: a die decides who deploys first; the entire Battalia of
    # each side (the Twin Stars are not of it, L297); up to 10 Sartar units in
    # the South Soldier Reserve; every Independent available (L295-L301; the
    # Diplomacy Points and replacements: tables.txt). Who selects the moon is not
    # printed for 18.7: the first to deploy, as 18.9 prints (L313,
    # Interpretations 91).
    "18.7": dict(name="The Full Game", turns=14, combat=_ALL_COMBAT,
                 deploy=(("lunar", "glowline"), ("sartar", "sartar")),
                 battalia=("lunar", "sartar"),
                 moon="first", exotic=("lunar", "sartar"),
                 independents=True,
                 reserve=("sartar", 10), deploy_first="roll", cite="L295-L301"),
    # The Marathon Game: as the Full Game's set-up (L317: the entire Battalia,
    # the Twin Stars not of it, L269; Interpretations 150); the first to deploy
    # selects the moon (L319); the second die, the half movement and the
    # purchased replacements are rules/marathon.py's.
    "18.9": dict(name="The Marathon Game", turns=28, combat=_ALL_COMBAT,
                 deploy=(("lunar", "glowline"), ("sartar", "sartar")),
                 battalia=("lunar", "sartar"),
                 moon="first", exotic=("lunar", "sartar"),
                 independents=True,
                 reserve=("sartar", 10), deploy_first="roll", cite="L315-L325"),
}

# Counters the rulebook prints: (front, back, back side, counters or None,
# rank, best friend, cite). Argrath's CF is L130's "(4!!)"; L621 prints
# "(4!)" (see SUBSTITUTES.md ("Units")).
_PRINTED_UNITS = {
    "red_emperor": ("(4!)-10-6-10", "(2!)-5-6-10", "disrupted", 1, "hero", None, "L443, L620"),
    "red_emperor_spirit": ("X-10-X-10", "X-5-X-5", "disrupted", 1, "none", None, "L620"),
    "jar_eel": ("(20!!)-infinity-6-X", "(20)-20-12-1", "berserk", 1, "superhero", "aelwrin",
                "L613"),
    "aelwrin": ("(4!)-10-6-X", "(2)-5-6-X", "disrupted", 1, "hero", None, "L613"),
    "twin_stars": ("X-cyclic-7-1", "X-½cyclic-4-0", "disrupted", 1, "none", None, "L634"),
    "crimson_bat": ("(4)--1*-9 Air Rune-0", "(2)-0-5 Air Rune-X", "disrupted", 1, "none", None,
                    "L136, L696"),
    "crater_makers": ("6-cyclic*-4 Air Rune-12", "3-½cyclic-2-0", "disrupted", None, "none", None,
                      "L710"),
    "full_moon_corps": ("cyclic-10*-6-0", "½cyclic-5*-3-X", "disrupted", None, "none", None,
                        "L712"),
    "stormwalkers": ("7-5*-20 Air Rune-12", "4-3*-10 Air Rune-0", "disrupted", None, "none", None,
                     "L688"),
    "wasps": ("(2)-4*-10 Air Rune-X", "(1)-2*-5 Air Rune-X", "disrupted", None, "none", None,
              "L690"),
    "argrath": ("(4!!)-10-6-0", "(2!)-5-6-0", "disrupted", 1, "hero", None, "L130, L621"),
    "harrek": ("(20!!)-infinity-6-X", "(20)-20-12-1", "berserk", 1, "superhero", "gunda",
               "L614"),
    "gunda": ("(4!)-10-6-X", "(2)-5-6-X", "disrupted", 1, "hero", None, "L614"),
    "dragontooth_runners": ("(3)-5*-6-0", "(2)-3-3-X", "disrupted", 2, "none", None, "L684"),
}

# What the text says a formation holds: (formation, selector, at least,
# exactly, cite). "the two 2*-2-6s": exactly two.
_PRINTED_MIX = (
    ("CC", "2*-2-6", 2, 2, "L209"),
    ("CC", "2*-1-6", 2, 2, "L209"),
    ("CM", "@duck", 1, None, "L213"),
    ("FA", "4-5-5", 3, None, "L214"),
    ("FA", "cyclic-3-3", 1, None, "L240"),
    ("BH", "4-3-5", 4, None, "L215"),
    ("BH", "5-4-5-4", 3, None, "L261"),
)

# Printed fronts of counters whose back the rulebook does not print.
_PRINTED_FRONTS = {"crater_makers_agent": ("cyclic-X-X-12", "L710"),
                   "lunar_assassin": (ASSASSIN, "L926"), "sartar_assassin": (ASSASSIN, "L926")}

# Where the rulebook puts a counter: (formation, cite). The Red Emperor is
# named apart from the College (L254); the Twin Stars are not of the Battalia
# (L269, L444).
_PRINTED_HOMES = {
    "crimson_bat": ("LCM", "L263"), "full_moon_corps": ("LCM", "L263"),
    "stormwalkers": ("SMU", "L260"), "children_of_the_wind": ("SMU", "L260"),
    "sylphs": ("SMU", "L260, L442"),
}
_NOT_BATTALIA = {"twin_stars": "L269, L444"}
"""Counters that are not part of their force's Battalia."""
_AGENTS = {"crater_makers_agent": ("crater_makers", "L710"),
           "cannon_cult_agent": ("cannon_cult", "L864"),
           "sylphs": ("children_of_the_wind", "L442")}
"""Physical magicians' agents the rulebook names."""
_CHAOTIC = {"crimson_bat", "hydra"}
"""The only chaotic units of Dragon Pass (L136, L435)."""

_PHYSICAL_MINOR = {"crimson_bat", "stone_men", "wasps"}
"""The only physical minor units besides heroes and superheroes (L129)."""
_L129_EXCEPTIONS = {"dragontooth_runners": "L684 prints their CF as (3)",
                    "keener_than": "L758 prints his CF as (1)",
                    "delecti": "L831 prints his CF as (5)"}
# (The Crimson Bat and the Wasps, L129's Lunar and Sartar physical minor
# units, are in _PHYSICAL_MINOR; the check also asks that they are.)
"""Physical minor units L129 leaves out though the rulebook prints them."""

# ------------------------------------------- the Independents (L730-L920) ----

# Each Independent as the rulebook groups it: (group, Diplomacy Points to
# ally a Major Independent, counter colour where L115-L121 print one, cite).
# Minor Independents are allied by emissaries (L806, L815), not DPs; the
# giants come by Random Event (L918, L963).
_FACTION_RULES = {
    "dragonewts": ("major", 45, "purple", "L119, L738, L1002"),
    "black_horse": ("major", 25, "grey", "L117, L748, L1002"),
    "cragspider": ("major", 25, "yellow_on_black", "L115, L760, L762, L1002"),
    "exiles": ("major", 20, "lime_green", "L118, L145, L772, L1002"),
    "half_beasts": ("major", 15, "light_blue", "L120, L780, L1002"),
    "grazelanders": ("major", 15, "yellow", "L119, L790, L1002"),
    "androgeus": ("major", 10, None, "L798, L1002"),
    "delecti": ("minor", None, None, "L817"),
    "dinosaurs": ("minor", None, "purple_on_brown", "L118, L833"),
    "dragons": ("minor", None, None, "L839"),
    "dwarf": ("minor", None, "magenta", "L120, L853"),
    "hungry_jack": ("minor", None, None, "L868"),
    "hydra": ("minor", None, None, "L878"),
    "puppeteers": ("minor", None, None, "L884"),
    "spirit_of_movement": ("minor", None, None, "L894"),
    "sun_dome_templars": ("minor", None, "yellow_on_grey", "L116, L900"),
    "tusk_riders": ("minor", None, None, "L906"),
    "giants": ("special", None, None, "L914, L916"),
}

# Every counter the Independents' and special units' lists print: (faction,
# front, back or None where not printed, counters or None where not printed,
# rank, cite). The lists print the fronts (L734); the backs are printed for
# the heroes, their spirits (L626-L633), Androgeus' Berserker Rage (L615),
# the dragons (L843) and the giants (L686). "Androgeus", "Hungry Jack", "Hydra",
# "Puppeteer Troop" and "The Spirit of Movement" are listed without a count:
# one each (a single person or being, L395, L886, L896).
_PRINTED_INDEPENDENTS = {
    "inhuman_king": ("dragonewts", "(8!)-8-8-8", "(4)-4-8-0", 1, "hero", "L626, L746"),
    "inhuman_king_spirit": ("dragonewts", "X-8-X-8", "X-4-X-4", 1, "none", "L626, L746"),
    "dn_priests": ("dragonewts", "6-5-8 Water Rune-8", None, 3, "none", "L746"),
    "dn_priests_spirit": ("dragonewts", "X-5-X-8", None, 3, "none", "L746"),
    "dn_beaked": ("dragonewts", "5-5-5-X", None, 5, "none", "L746"),
    "dn_mounted_crested": ("dragonewts", "2**-4-4-X", None, 3, "none", "L746"),
    "dn_crested": ("dragonewts", "2*-2-4-X", None, 5, "none", "L746"),
    "ethilrist": ("black_horse", "(4!!)-10*-7-X", "(2)-5*-7-X", 1, "hero", "L627, L758"),
    "hell_hound": ("black_horse", "10-10*-10*-X", None, 1, "none", "L754, L758"),
    "bh_troops": ("black_horse", "5-5-7-X", None, 7, "none", "L758"),
    "bh_auxiliaries": ("black_horse", "3-3-4-X", None, 2, "none", "L758"),
    "cloak_of_darkness": ("black_horse", "X-*-0-(10)", None, 1, "none", "L752, L758"),
    "goblins": ("black_horse", "6-2-15-X", None, 1, "none", "L752, L758"),
    "keener_than": ("black_horse", "(1)-4-10-0", None, 1, "none", "L756, L758"),
    "cragspider": ("cragspider", "(4!)-7*-5-7", "(2)-4-5-0", 1, "hero", "L631, L770"),
    "cragspider_spirit": ("cragspider", "X-7-X-7", "X-4-X-4", 1, "none", "L631, L770"),
    "black_dragon": ("cragspider", "=-infinity*-20 Air Rune-0", "=-infinity*-20-0", 1, "none",
                     "L768, L770, L843"),
    "dark_trolls": ("cragspider", "6-6-6-X", None, 3, "none", "L766, L770"),
    "trollkin": ("cragspider", "3-2-3-X", None, 2, "none", "L766, L770"),
    "twins": ("exiles", "(2!)-5-5-X", "(1)-3-5-X", 1, "hero", "L633, L778"),
    "exiles_assassin": ("exiles", ASSASSIN, None, 1, "none", "L778, L926"),
    "earth_shakers_cult": ("exiles", "2-4*-3 Stone Rune-10", None, 1, "none", "L720, L778"),
    "earth_shakers_cult_spirit": ("exiles", "X-4-X-10", None, 1, "none", "L778"),
    "moon_haters": ("exiles", "3-6-5-5", None, 1, "none", "L778"),
    "moon_haters_spirit": ("exiles", "X-6-X-5", None, 1, "none", "L778"),
    "barons_friends": ("exiles", "3-6-3 Stone Rune-5", None, 1, "none", "L778"),
    "barons_friends_spirit": ("exiles", "X-6-X-5", None, 1, "none", "L778"),
    "old_school": ("exiles", "2-5-3 Stone Rune-5", None, 1, "none", "L778"),
    "old_school_spirit": ("exiles", "X-5-X-5", None, 1, "none", "L778"),
    "ex_cavalry": ("exiles", "4-4-5-X", None, 1, "none", "L778"),
    "ex_light_cavalry": ("exiles", "3-3-5-X", None, 2, "none", "L778"),
    "ex_infantry": ("exiles", "3-3-3-X", None, 3, "none", "L778"),
    "ex_archers": ("exiles", "2*-2-4-X", None, 2, "none", "L778"),
    "ironhoof": ("half_beasts", "(4!)-10*-7-X", "(2)-5*-7-X", 1, "hero", "L628, L788"),
    "satyrs": ("half_beasts", "1**-3-5-X", None, 2, "none", "L788"),
    "minotaurs": ("half_beasts", "5-5-5-X", None, 3, "none", "L788"),
    "manticore": ("half_beasts", "6-3-5-X", None, 1, "none", "L788"),
    "centaurs": ("half_beasts", "3*-3-6-X", None, 4, "none", "L788"),
    "feathered_horse_queen": ("grazelanders", "(4!)-10-7-X", "(2)-5-7-X", 1, "hero",
                              "L629, L796"),
    "golden_bow_warriors": ("grazelanders", "1**-7-7-0", None, 1, "none", "L796"),
    "gz_clans_6_4_5": ("grazelanders", "6-4-5-X", None, 2, "none", "L796"),
    "gz_clans_3_7_2": ("grazelanders", "3-7-2-X", None, 2, "none", "L796"),
    "gz_clans_2_4_7": ("grazelanders", "2*-4-7-X", None, 4, "none", "L796"),
    "horse_herds": ("grazelanders", "1h-2-+2-X", None, 4, "none", "L137, L478, L796"),
    "androgeus": ("androgeus", "(20!!)-infinity-6-X", "(20)-20-12-1", 1, "superhero",
                  "L615, L802"),
    "delecti": ("delecti", "(5)-10*-3-0", None, 1, "none", "L831"),
    "zombies": ("delecti", "2-*-2*-X", None, 12, "none", "L486, L821, L831"),
    "brontosauri": ("dinosaurs", "2h-10-3-X", None, 3, "none", "L837"),
    "pteradons": ("dinosaurs", "4-2-10 Air Rune-X", None, 3, "none", "L837"),
    "trachodons": ("dinosaurs", "1-4-3-10", None, 3, "none", "L837"),
    "trachodons_spirit": ("dinosaurs", "X-4-X-10", None, 3, "none", "L837"),
    "tricerotops_spirits": ("dinosaurs", "10-2-4-X", None, 3, "none", "L837"),
    "red_dragon": ("dragons", "=-infinity*-20 Air Rune-0", "=-infinity*-20-0", 1, "none", "L843"),
    "green_dragon": ("dragons", "=-infinity*-20 Air Rune-0", "=-infinity*-20-0", 1, "none",
                     "L843"),
    "brown_dragon": ("dragons", "=-infinity*-20 Air Rune-0", "=-infinity*-20-0", 1, "none",
                     "L843"),
    "dwarf": ("dwarf", "(3!)-7-4-X", "(2)-4-4-X", 1, "hero", "L632, L866"),
    "stone_men": ("dwarf", "(8)-2-3 Stone Rune-X", None, None, "none", "L863, L1139"),
    "cannon_cult": ("dwarf", "8-7-3-3", None, None, "none", "L864"),
    "cannon_cult_agent": ("dwarf", "7-X-X-3", None, None, "none", "L864"),
    "alchemical_transformer": ("dwarf", "2-x2-3-x2", None, None, "none", "L857, L865"),
    "hungry_jack": ("hungry_jack", "2-0*-0-X", None, 1, "none", "L876"),
    "hydra": ("hydra", "5--N-4-X", None, 1, "none", "L136, L882"),
    "puppeteer_troop": ("puppeteers", "2-4*-4-(8)", None, 1, "none", "L724, L886, L892"),
    "illusory_armies": ("puppeteers", "5-2*-*-X", None, 5, "none", "L886, L888, L892"),
    "spirit_of_movement": ("spirit_of_movement", "X-5-x2-1", None, 1, "none", "L490, L898"),
    "sun_dome_templars": ("sun_dome_templars", "5-5*-3-X", None, 3, "none", "L904"),
    "tusk_riders": ("tusk_riders", "5-4-5*-X", None, 5, "none", "L484, L912"),
    "giants": ("giants", "15-10-7-X", "8-5-4-X", 3, "none", "L686, L920"),
}
_INDEPENDENT_CAVALRY = frozenset({"bh_troops", "moon_haters", "ex_cavalry", "ex_light_cavalry",
                                  "golden_bow_warriors", "gz_clans_6_4_5", "gz_clans_3_7_2",
                                  "gz_clans_2_4_7", "horse_herds"})
"""L786: of the Independents only the Pony Breeders' units (but the Feathered
Horse Queen; the herds included), the Exiles' cavalry and the Moon Haters, and
Sir Ethilrist's Black Horse Troops are cavalry; no other unit is."""
_DRAGONS = ("red_dragon", "green_dragon", "brown_dragon", "black_dragon")
"""The four dragons (L839, L843); the black one is Cragspider's (L768, L770)."""

# The rows each table of tables.txt prints (the lines of the first column).
_TABLE_ROWS = {
    "terrain": ("open", "hill", "hill_forest", "forest", "mountain", "marsh", "oasis"),
    "structures": ("fortress", "stockade", "marsh_ruin", "hill_ruin", "dragonewt_city", "ruin",
                   "temple", "town", "altar"),
    "roads": ("primary", "secondary", "dragonewt"),
    "features": ("river", "ford", "lake_sea", "rain", "ridge_up", "ridge_down"),
    "unit_modifiers": ("dragon", "small_targets", "large_targets", "leadership",
                       "magical_leadership"),
    "missile_unit_modifiers": ("dragon", "small_targets", "large_targets"),
    "casualties": ("chaotic", "physical", "spirit", "missile", "melee"),
}
_ROADS = {"primary": (Fraction(1, 2), None), "secondary": (1, 3)}
"""Road costs and the free hex of a secondary road (L363, L364)."""

# Compound hexes of the terrain and structure tables and the hexes of the
# reference sheet's missile terrain list they combine; only the worst applies
# (L331, L1111).
_MISSILE_HEX_PARTS = {"hill_forest": ("hill", "forest"), "marsh_ruin": ("marsh", "ruin"),
                      "hill_ruin": ("hill", "ruin")}

# The tables of diplomacy, the Independents and random events (L275-L1145).
# Nothing compiled reads them yet. Where the rulebook prints a table twice the
# file must say what both prints say.
ALLIANCE_DP = {"dragonewts": 45, "black_horse": 25, "cragspider": 25, "exiles": 20,
               "half_beasts": 15, "grazelanders": 15, "androgeus": 10}
"""DP to ally each Major Independent (L64-L70, L738-L798, L1002, L1135), by
the ids of their capitals in map.txt (Androgeus has none, L800)."""
_EMISSARY = {1: ("denied", "eliminated", "eliminated"), 2: ("denied", "eliminated", "eliminated"),
             3: ("denied", "survives", "survives"), 4: ("granted", "survives", "survives"),
             5: ("granted", "survives", "survives"), 6: ("granted", "survives", "survives")}
"""The Emissary Table (L811-L813, L996-L998, L1137): alliance, emissary, stack."""
_DWARF_LUCK = {1: ("slain", None), 2: ("gift", "Stone Man"), 3: ("gift", "Stone Man"),
               4: ("gift", "Cannon Cult"), 5: ("gift", "Alchemical Transformer"),
               6: ("allies", "The Dwarf")}
"""The Dwarf Luck Table (L862-L866, L1139)."""
_DIPLOMACY_SCENARIOS = {"18.7": 14, "18.9": 28}
"""The scenarios with Diplomacy Rules and their game-turns (L295, L315)."""
_RANDOM_EVENTS_PRINTED = tuple(range(11, 17)) + tuple(range(21, 27)) + tuple(range(31, 36))
"""The rolls the Random Events Table prints (L957-L973); every other roll of
the file must carry an authored value."""
_FORCES_OF_EVENTS = ("lunar", "sartar", "both", "neutral", "-")
_EVENT_EFFECTS = ("reverse_turn_order", "auction", "ally_to_most_dp", "rain", "place_unit",
                  "no_glowline", "remove_units", "replace_units", "plague", "none")
_EDGES = ("north", "south", "east", "west")
# The keywords each column of the small die tables may hold ('int': a number).
_DIE_TABLES = {
    "emissary": {"alliance": ("denied", "granted"), "emissary": ("eliminated", "survives"),
                 "stack": ("eliminated", "survives")},
    "dwarf_luck": {"result": ("slain", "gift", "allies"), "unit": None},
    "tusk_riders": {"alliance": ("denied", "granted"), "magician": ("eliminated", "survives"),
                    "sacrifice": ("eliminated", "survives")},
    "hungry_jack": {"result": ("eliminated", "escapes")},
    "hydra": {"mgf": "int", "feed": "int"},
    "plague_fortress": {"result": ("hit", "spared")},
    "plague_unit": {"result": ("eliminated", "disrupted", "none")},
}
_PLAGUE_EXEMPT = ("treasure", "superhero", "dragon", "disembodied_spirit")
"""Units the plague spares (L973)."""


# ------------------------------------------------------------ records ----

@dataclass(frozen=True)
class Side:
    """One side of a counter, parsed from its notation (L390-L431).

    cf_kind: number | blank (X, a disembodied spirit) | cyclic | half_cyclic
    (the Red Moon value or half of it, L398, L662) | equal (a dragon's "=",
    L397); cf is the number for kind number, else None. missile: asterisks
    (Missile Factors, L394); leadership: ! marks (L396); single: parenthesised
    (one person or entity, L395); herd: h (L399).
    mgf_kind: number | blank | cyclic | half_cyclic | infinity | die (N,
    L409; negative when chaotic) | double (x2, L412) | special (a bare *);
    exotic: * (L407).
    mf_kind: number | blank | plus (+N, L419) | double (x2) | special (bare *);
    unusual: * (L418); rune: water | air | stone | None (L421-L423);
    heroic: underlined MF (L417).
    rf_kind: number | blank | double; rf_special: parenthesised (L430);
    physical: underlined RF (L428).
    """
    notation: str
    cf_kind: str
    cf: int | None
    missile: int
    leadership: int
    single: bool
    herd: bool
    mgf_kind: str
    mgf: int | None
    exotic: bool
    mf_kind: str
    mf: int | None
    unusual: bool
    rune: str | None
    rf_kind: str
    rf: int | None
    rf_special: bool
    heroic: bool = False
    physical: bool = False

    @property
    def major(self):
        """Non-blank, non-parenthesised CF (L127)."""
        return self.cf_kind != "blank" and not self.single

    @property
    def cyclic(self):
        """Any factor takes the Red Moon's value (L398, L410)."""
        return "cyclic" in self.cf_kind or "cyclic" in self.mgf_kind

    def combat_factor(self, cyclic_value=GLOWLINE_CYCLIC):
        """The CF as a number (a Fraction for half-cyclic), given the moon's cyclic value."""
        if self.cf_kind == "number":
            return self.cf
        if self.cf_kind == "cyclic":
            return cyclic_value
        if self.cf_kind == "half_cyclic":
            return Fraction(cyclic_value, 2)
        return 0

    def factors(self):
        """Everything the notation says (not the underlines): for comparing sides."""
        return (self.cf_kind, self.cf, self.missile, self.leadership, self.single, self.herd,
                self.mgf_kind, self.mgf, self.exotic, self.mf_kind, self.mf, self.unusual,
                self.rune, self.rf_kind, self.rf, self.rf_special)


@dataclass(frozen=True)
class Formation:
    """A formation of units.txt (NF, CC, HC, LH, LCM, LA, PRG, TS, CM, FA, BH, SH, SMU, SA)."""
    id: str
    name: str
    force: str
    abbrev: str
    colour: str
    cite: tuple
    substituted: frozenset
    line: int = field(default=0, compare=False)
    battalia: bool = True
    """Part of its force's Battalia (L269; the Twin Stars are not, L444)."""
    faction: str | None = None
    """independents.txt: which Independent (a :data:`FACTIONS` word); else None."""
    group: str | None = None
    """independents.txt: major | minor | special (:data:`GROUPS`); else None."""
    dp: int | None = None
    """A Major Independent's price in Diplomacy Points (L738-L798, L1002)."""


@dataclass(frozen=True)
class Unit:
    """One kind of counter (units.txt); ``counters`` copies of it.

    back_side: disrupted (L590) | berserk (a superhero's Berserker Rage side,
    L656). deploys: counters deployed by each scenario that deploys the
    formation (0 = the scenario excludes this unit).
    """
    id: str
    name: str
    force: str
    formation: str
    counters: int
    arm: str
    rank: str
    major: bool
    tags: frozenset
    front: Side
    back: Side
    back_side: str
    best_friend: str | None
    spirit_of: str | None
    agent_of: str | None
    deploys: dict
    cite: tuple
    substituted: frozenset
    line: int = field(default=0, compare=False)
    homes: tuple = ()
    """A dragonewt counter's home Dragonewt City, 1-8, copy by copy (L740;
    independents.txt 'homes'); () for every other unit."""

    @property
    def hero(self):
        return self.rank == "hero"

    @property
    def superhero(self):
        return self.rank == "superhero"

    @property
    def heroic(self):
        """Underlined (heroic) MF (L130, L417)."""
        return self.front.heroic

    @property
    def assassin(self):
        """The Assassins counter X-*-*-X (L926)."""
        return self.front.factors() == parse_side(ASSASSIN).factors()

    @property
    def magician(self):
        """'spirit' (a non-parenthesised RF of 1 or more, L131), 'physical' (the
        RF underlined too, L133) or None. Spirits, agents and disembodied units
        (blank CF, as the Twin Stars, L129) are not magicians."""
        f = self.front
        if (f.rf_kind != "number" or f.rf < 1 or f.rf_special or f.cf_kind == "blank"
                or self.spirit_of or self.agent_of or self.superhero):
            return None
        return "physical" if f.physical else "spirit"


@dataclass(frozen=True)
class Take:
    """One bullet of a scenario's forces: formation, all | minus | only, selectors."""
    formation: str
    mode: str
    selectors: tuple
    text: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class Scenario:
    """A scenario (units.txt): who deploys first and where, and with what.

    deploy: ((force, zone), ...) in deployment order; units: {unit id:
    counters} over both forces. moon: the force that selects the phase of the
    moon before any units are deployed (L263, L271), None where no phase is
    chosen; exotic: the forces with an Exotic Magic Phase (L263); special:
    SPECIAL_RULES words (L271).
    """
    id: str
    name: str
    turns: int
    combat: tuple
    deploy: tuple
    takes: tuple
    units: dict
    cite: tuple
    line: int = field(default=0, compare=False)
    moon: str | None = None
    exotic: tuple = ()
    special: tuple = ()
    keep_out: tuple = ()
    garrison: tuple = ()
    best_friends: tuple = ()
    independents: bool = False
    reserve: tuple = ()
    deploy_first: str = "listed"

    @property
    def first(self):
        """The force that deploys first."""
        return self.deploy[0][0]

    @property
    def sides(self):
        """Its sides in deployment order (SIDES words)."""
        return tuple(f for f, _ in self.deploy)

    def zone(self, force):
        return dict(self.deploy)[force]

    def counters(self, force, units=None):
        """{unit id: counters} that side ``force`` deploys."""
        units = units if units is not None else {**DATA.units, **DATA.independent_units}
        return {u: n for u, n in self.units.items() if units[u].force == SIDE_FORCE[force] and n}


@dataclass(frozen=True)
class Terrain:
    """A row of the terrain or structures table (L335-L355).

    movement: MP to enter; rune / rune_movement: the rune that lowers it
    (L340, L341, L353). phys_magic, melee (inside), melee_outside: CF
    multipliers for selecting casualties (1 = no effect; melee_outside None =
    not printed). missile: the die modifier (0 = no effect); missile_ng the
    Nomad Gods value where printed.
    """
    id: str
    name: str
    movement: int
    rune: str | None
    rune_movement: int | None
    phys_magic: Fraction
    melee: Fraction
    melee_outside: Fraction | None
    missile: int
    missile_ng: int | None
    fortification: bool
    nomad_gods_only: bool
    cite: tuple


@dataclass(frozen=True)
class MoonPhase:
    """A phase of the Red Moon: order 1..7, movement value, cyclic value (L433)."""
    order: int
    id: str
    name: str
    movement: int
    cyclic: int


@dataclass(frozen=True)
class CasualtyRule:
    """Casualty selection for one attack type (L1095-L1101); see tables.txt."""
    attack: str
    both: bool
    first: str | None
    defender_by: str
    attacker_by: str | None
    where: str
    only: str | None
    text: str


@dataclass(frozen=True)
class MissileResult:
    """A Missile Fire result (L1131): disrupted, eliminated, or the elimination
    the defender may take instead of the disruptions (2DD)."""
    code: str
    disrupted: int
    eliminated: int
    or_eliminated: int | None
    text: str


@dataclass(frozen=True)
class RandomEvent:
    """A roll of the Random Events Table (L954-L973); see tables.txt for the
    vocabulary. ``count`` and ``hex`` are None where the event has none;
    ``edges`` a tuple; ``substituted`` the authored columns."""
    roll: int
    event: str
    force: str | None
    effect: str
    count: int | None
    hex: str | None
    edges: tuple
    lasts: str | None
    unit: str | None
    cite: tuple
    substituted: frozenset


@dataclass(frozen=True)
class Tables:
    """The printed tables (tables.txt).

    attack: int16 (61, 7), ``attack[total, die]`` the loss for an MgF/CF total
    0..60 and die 1..6 (row 0 is 0, column 0 unused = -1; L1054-L1080).
    attack_beyond: the fractions of the total for die 1..6 beyond 60 (L1084).
    missile: int8 (8, 21), ``missile[roll, total]`` a code into
    ``missile_codes`` for modified roll 0..7 and Missile Factor total 0..20
    (L1121-L1129); missile_columns: the printed total ranges.
    terrain, structures: {id: Terrain}; roads, features, melee, moon: plain
    dicts of the printed numbers; unit_modifiers: {id: {column: value}};
    missile_unit_modifiers: {id: modifier}; missile_terrain_modifiers: {hex id:
    modifier}; notation: {(factor, mark): meaning}; moon_phases: MoonPhase in
    order; cyclic: {phase id: value}; casualties: {attack: CasualtyRule};
    heroic_escape: {rank: lowest escaping roll}; cite: {table: cites};
    substituted: {table: authored cells}.

    Diplomacy, the Independents and random events (read, not yet used by the
    rules): alliance_dp {major independent: DP to ally}; alliance_names {id:
    the name L1002 prints}; diplomacy: the DP numbers of L979-L991 and the
    replacement rates (L299, L323, L981); dp_schedule {scenario: DP received on
    each game-turn, turn 1 first}; emissary, dwarf_luck, tusk_riders,
    hungry_jack, hydra, plague_fortress, plague_unit: {die roll 1..6: {column:
    value}} (one column: the value); plague_exempt: the kinds of unit the
    plague spares; random_events {roll 11..66: RandomEvent}.
    """
    attack: np.ndarray
    attack_beyond: tuple
    attack_max_total: int
    attack_die: tuple
    missile: np.ndarray
    missile_codes: tuple
    missile_results: dict
    missile_columns: tuple
    missile_roll: tuple
    missile_ridge_divisor: int
    missile_over_20: tuple
    missile_unit_modifiers: dict
    missile_terrain_modifiers: dict
    terrain: dict
    structures: dict
    roads: dict
    features: dict
    unit_modifiers: dict
    notation: dict
    moon_phases: tuple
    cyclic: dict
    moon: dict
    bat_hunger: dict
    assassin: dict
    assassin_dp: dict
    casualties: dict
    melee: dict
    heroic_escape: dict
    alliance_dp: dict
    alliance_names: dict
    diplomacy: dict
    dp_schedule: dict
    emissary: dict
    dwarf_luck: dict
    tusk_riders: dict
    hungry_jack: dict
    hydra: dict
    plague_fortress: dict
    plague_unit: dict
    plague_exempt: tuple
    random_events: dict
    cite: dict
    substituted: dict


@dataclass(frozen=True)
class UnitData:
    """Everything in the data folder; see the module docstring."""
    units: dict
    formations: dict
    scenarios: dict
    tables: Tables
    independent_units: dict = field(default_factory=dict)
    """independents.txt: the Independents' and special units' counters (force
    :data:`INDEPENDENT`). Apart from ``units``, which is the game's unit set."""
    independent_formations: dict = field(default_factory=dict)
    """independents.txt: one formation per Independent (FACTIONS), and the giants."""

    def units_of(self, formation):
        """Unit ids of a formation, in file order."""
        return [u for u, unit in self.units.items() if unit.formation == formation]

    def independents_of(self, formation):
        """Unit ids of an Independent's formation (independents.txt), in file order."""
        return [u for u, unit in self.independent_units.items() if unit.formation == formation]


# ------------------------------------------------------------ the reader ----

_MARK = "~"
"""The authored mark of units.txt and tables.txt (``*`` is printed notation)."""


class _Syntax(Syntax):
    """The syntax of units.txt and tables.txt: an id may hold dots (``[scenario 18.1]``)."""

    header = re.compile(r"^\[(\w+)(?:\s+([\w.]+))?\]$")


_SYNTAX = _Syntax()


def _read_sections(path):
    """The file's ``[kind id]`` sections and their lines."""
    return read_sections(path, _SYNTAX)


def _cites(tokens, file, line):
    """One citation a token (no commas, no '-'), at least one."""
    out = tuple(check_cite(tok, file, line, RULEBOOK_LINES) for tok in tokens)
    if not out:
        raise DataError(file, line, "'cite' needs at least one rulebook line")
    return out


def _homes(r, uid):
    """A unit's 'homes' line: one Dragonewt City number (1-8, L740) per copy,
    or () where the record has none."""
    ln = r.one("homes", required=False)
    if ln is None:
        return ()
    homes = tuple(r.star(t, "homes") for t in ln.tokens)
    if not all(re.fullmatch(r"[1-8]", h) for h in homes):
        r.err(ln.line, f"unit {uid}: homes {' '.join(homes)}: want Dragonewt City numbers 1-8 (L740)")
    counters = r.one("counters")
    if counters is not None and len(homes) != int(r.star(counters.tokens[0], "counters")):
        r.err(ln.line, f"unit {uid}: {len(homes)} homes for {counters.tokens[0]} counters: one per copy")
    return tuple(int(h) for h in homes)


def _authored(value):
    """(value without its '~', whether it was marked authored)."""
    return authored(value, _MARK)


class _Rec(Record):
    """Reading one record (a ``records.Record``, mark ``~``) with the value helpers."""

    mark = _MARK

    def text(self, key, required=True):
        ln = self.one(key, required)
        if ln is None:
            return None
        if not ln.rest:
            self.err(ln.line, f"{key!r} needs a value")
        return self.star(ln.rest, key)

    def word(self, key, choices=None, required=True, default=None):
        ln, tok = self.single(key, required)
        if ln is None:
            return default
        value = self.star(tok, key)
        if choices is not None and value not in choices:
            self.err(ln.line, f"{key}: {value!r} is not one of {', '.join(choices)}")
        return value

    def int(self, key, lo=0, hi=None):
        ln, tok = self.single(key)
        value = self.star(tok, key)
        if not re.fullmatch(r"-?\d+", value):
            self.err(ln.line, f"{key}: {value!r} is not an integer")
        number = int(value)
        if number < lo or (hi is not None and number > hi):
            self.err(ln.line, f"{key}: {number} is out of range ({lo}..{hi if hi is not None else ''})")
        return number

    def words(self, key, choices=None):
        """A list of values; '-' alone is the empty list."""
        ln = self.one(key)
        toks = [self.star(t, key) for t in ln.tokens]
        if toks == ["-"]:
            return []
        for t in toks:
            if choices is not None and t not in choices:
                self.err(ln.line, f"{key}: {t!r} is not one of {', '.join(choices)}")
        return toks

    def cite(self):
        ln = self.one("cite")
        return _cites(ln.tokens, self.file, ln.line)


def _records(sections, kinds, file):
    seen = {}
    for s in sections:
        if s.kind not in kinds or s.id is None:
            raise DataError(file, s.line, f"unexpected section [{s.kind} {s.id or ''}] (this file "
                            f"holds {', '.join(f'[{k} ID]' for k in kinds)} records)")
        if (s.kind, s.id) in seen:
            raise DataError(file, s.line, f"duplicate [{s.kind} {s.id}] (first at line "
                            f"{seen[(s.kind, s.id)]})")
        seen[(s.kind, s.id)] = s.line
    return sections


# ------------------------------------------------------------ notation ----

_CF = re.compile(r"^(\()?(X|\d+|=|cyclic|½cyclic)(\**)(!*)(h?)(T?)(\))?$")
_MGF = re.compile(r"^(X|-?\d+|-?N|infinity|cyclic|½cyclic|x2)?(\*?)(!*)$")
_MF = re.compile(r"^(X|\+?\d+|x2)?(\*?)(?: (Water|Air|Stone) Rune)?$")
_RF = re.compile(r"^(\()?(X|\d+|x2)(\))?$")


def _normalise(text):
    s = text.strip().replace("–", "-").replace("×", "x").replace("∞", "infinity")
    s = re.sub(r"½\s*(cyclic|up/down)", "½cyclic", s)
    s = s.replace("up/down", "cyclic")
    s = re.sub(r"\s*-\s*", "-", s)
    return re.sub(r"\s+", " ", s)


def in_zone(zone, hex_id, territory):
    """Is hex ``hex_id`` (CCRR: column then row, ``"2518"``) of map territory
    ``territory`` (a mapdata.TERRITORIES value) in deployment zone ``zone``?

    old_sartar, glowline, sartar: the territories of ZONE_TERRITORIES (L142,
    L143); outside_old_sartar: any other hex. west_of_26xx_north_of_xx19
    (18.5, L269): column below 26 and row below 19 (rows grow southward:
    Furthest 0404 is north of Boldhome 3727), both exclusive (2518 is in, 2618
    and 2519 are not), and not Independents territory, which 18.5's units may
    not move through (L271). dark_glowline, outside_sartar_and_dark_glowline:
    18.6's zones (L277, L284). Lakes are left to the rules (no unit ends a turn
    on one, L421).
    """
    if zone == "outside_old_sartar":
        return territory not in ZONE_TERRITORIES["old_sartar"]
    if zone in ZONE_TERRITORIES:
        return territory in ZONE_TERRITORIES[zone]
    if zone == "dark_glowline":
        return territory == "glowline_dark"
    if zone == "outside_sartar_and_dark_glowline":
        return territory not in ZONE_TERRITORIES["sartar"] and territory != "glowline_dark"
    if zone == "west_of_26xx_north_of_xx19":
        return (int(hex_id[:2]) < 26 and int(hex_id[2:]) < 19
                and territory not in INDEPENDENT_TERRITORIES)
    raise ValueError(f"{zone!r} is not a deployment zone ({', '.join(ZONES)})")


def parse_side(text, allow_blank_rf=False):
    """The :class:`Side` a notation such as ``(4!!)-10-6-0`` describes.

    Reads the rulebook's CF-MgF-MF-RF notation (L390-L431, L608, L734); also
    "up/down" and "–" as the rulebook prints them. With ``allow_blank_rf`` the
    RF may be left off, as the scenarios write "4-5-5s" (L214). ValueError
    when the text is not such a notation.
    """
    s = _normalise(text)
    raw = s.split("-")
    parts, i = [], 0
    while i < len(raw):
        if raw[i] == "" and i + 1 < len(raw) and parts:
            parts.append("-" + raw[i + 1])       # "5--N-4-X": a negative MgF
            i += 2
        else:
            parts.append(raw[i])
            i += 1
    if len(parts) == 3 and allow_blank_rf:
        parts.append("X")
    if len(parts) != 4:
        raise ValueError(f"{text!r} is not CF-MgF-MF-RF (got {len(parts)} factors)")
    cf, mgf, mf, rf = parts
    m = _CF.match(cf)
    if not m or bool(m.group(1)) != bool(m.group(7)):
        raise ValueError(f"{text!r}: CF {cf!r} is not a combat factor (L390-L400)")
    value = m.group(2)
    cf_kind = {"X": "blank", "=": "equal", "cyclic": "cyclic", "½cyclic": "half_cyclic"}.get(
        value, "number")
    cf_value = int(value) if cf_kind == "number" else None
    missile, leadership = len(m.group(3)), len(m.group(4))
    single, herd = bool(m.group(1)), bool(m.group(5))
    m = _MGF.match(mgf)
    if not m or not (m.group(1) or m.group(2)):
        raise ValueError(f"{text!r}: MgF {mgf!r} is not a magic factor (L402-L412)")
    value = m.group(1) or ""
    exotic = bool(m.group(2))
    if value == "":
        mgf_kind, mgf_value = "special", None
    elif value in ("N", "-N"):
        mgf_kind, mgf_value = "die", (-1 if value == "-N" else None)
    elif re.fullmatch(r"-?\d+", value):
        mgf_kind, mgf_value = "number", int(value)
    else:
        mgf_kind = {"X": "blank", "infinity": "infinity", "cyclic": "cyclic",
                    "½cyclic": "half_cyclic", "x2": "double"}[value]
        mgf_value = None
    if m.group(3):
        raise ValueError(f"{text!r}: a leader's ! on the MgF is Nomad Gods only (L408)")
    m = _MF.match(mf)
    if not m or not (m.group(1) or m.group(2)):
        raise ValueError(f"{text!r}: MF {mf!r} is not a movement factor (L414-L423)")
    value = m.group(1) or ""
    unusual = bool(m.group(2))
    if value == "":
        mf_kind, mf_value = "special", None
    elif value == "X":
        mf_kind, mf_value = "blank", None
    elif value == "x2":
        mf_kind, mf_value = "double", None
    elif value.startswith("+"):
        mf_kind, mf_value = "plus", int(value[1:])
    else:
        mf_kind, mf_value = "number", int(value)
    rune = m.group(3).lower() if m.group(3) else None
    m = _RF.match(rf)
    if not m or bool(m.group(1)) != bool(m.group(3)):
        raise ValueError(f"{text!r}: RF {rf!r} is not a range factor (L425-L431)")
    value = m.group(2)
    rf_kind = {"X": "blank", "x2": "double"}.get(value, "number")
    rf_value = int(value) if rf_kind == "number" else None
    return Side(s, cf_kind, cf_value, missile, leadership, single, herd, mgf_kind, mgf_value,
                exotic, mf_kind, mf_value, unusual, rune, rf_kind, rf_value, bool(m.group(1)))


def _strength(kind, value):
    """A factor's size for comparing sides: blank 0, cyclic at full (L398)."""
    return {"blank": 0, "number": value, "cyclic": GLOWLINE_CYCLIC,
            "half_cyclic": GLOWLINE_CYCLIC / 2, "infinity": math.inf}.get(kind)


# --------------------------------------------------------------- units ----

_FORMATION_KEYS = {"name", "force", "abbrev", "colour", "battalia", "cite"}
_INDEPENDENT_FORMATION_KEYS = {"name", "force", "faction", "group", "dp", "abbrev", "colour",
                               "cite"}
INDEPENDENTS_FILE = "independents.txt"
"""The Independents' and special units' counters: the syntax of units.txt, no
[scenario] records (units.txt's take their formations)."""
_UNIT_KEYS = {"name", "force", "formation", "counters", "arm", "rank", "class", "tags",
              "underline", "front", "back", "back_side", "best_friend", "spirit_of",
              "agent_of", "scenarios", "homes", "cite"}
_SCENARIO_KEYS = {"name", "turns", "combat", "moon", "exotic", "special", "deploy", "take",
                  "keep_out", "garrison", "best_friend", "independents",
                  "reserve", "deploy_first", "cite"}


def _side(r, key, underline):
    ln = r.one(key)
    text = r.star(ln.rest, key)
    try:
        side = parse_side(text)
    except ValueError as exc:
        r.err(ln.line, f"unit {r.s.id}: {key}: {exc}")
    return replace(side, heroic="mf" in underline, physical="rf" in underline)


def _parse_units(data_dir, file="units.txt"):
    """(formations, units, scenario records, scenario lines) of units.txt, or
    of independents.txt (force independent, a faction and group per
    formation, no [scenario] records). The scenario records are parsed by
    :func:`_parse_scenarios` once both files are read: a scenario may take the
    Independents' formations (18.6-18.9, L275-L325)."""
    indep = file == INDEPENDENTS_FILE
    kinds = ("formation", "unit") if indep else ("formation", "unit", "scenario")
    forces = (INDEPENDENT,) if indep else FORCES
    sections = _records(_read_sections(data_dir / file), kinds, file)
    formations, units, scenario_lines, raw_scenarios = {}, {}, {}, []
    for s in sections:
        if s.kind == "formation" and indep:
            r = _Rec(s, _INDEPENDENT_FORMATION_KEYS)
            head = (s.id, r.text("name"), r.word("force", forces), r.word("abbrev"),
                    r.word("colour", INDEPENDENT_COLOURS), r.cite())
            faction, group = r.word("faction", FACTIONS), r.word("group", GROUPS)
            dp = r.int("dp", lo=1) if r.one("dp", False) else None
            # No Independent is of either force's Battalia (L269, L297).
            formations[s.id] = Formation(*head, frozenset(r.subst), s.line, False, faction,
                                         group, dp)
        elif s.kind == "formation":
            r = _Rec(s, _FORMATION_KEYS)
            formations[s.id] = Formation(s.id, r.text("name"), r.word("force", FORCES),
                                         r.word("abbrev"), r.word("colour", COLOURS), r.cite(),
                                         frozenset(r.subst), s.line,
                                         r.word("battalia", ("yes", "no"), False, "yes") == "yes")
        elif s.kind == "unit":
            r = _Rec(s, _UNIT_KEYS)
            underline = r.words("underline", FACTORS)
            klass = r.word("class", ("major", "minor"))
            front, back = _side(r, "front", underline), _side(r, "back", underline)
            agent_of = r.word("agent_of", required=False)
            if agent_of is not None and klass != "minor":
                r.err(r.one("class").line, f"unit {s.id}: class {klass}, but agents are minor "
                      "units (L129)")
            if agent_of is None and front.major != (klass == "major"):
                r.err(r.one("class").line,
                      f"unit {s.id}: class {klass} contradicts its CF {front.notation.split('-')[0]}"
                      " (major units have non-blank, non-parenthesised CFs, L127)")
            ln = r.one("scenarios")
            listed = {}
            for tok in ln.tokens:
                if tok == "-" and len(ln.tokens) == 1:
                    break
                m = re.fullmatch(r"([\w.]+)=(\d+)", tok)
                if not m:
                    r.err(ln.line, f"scenarios: {tok!r} is not SCENARIO=COUNT (e.g. 18.1=2) or '-'")
                if m.group(1) in listed:
                    r.err(ln.line, f"scenarios: {m.group(1)} given twice")
                listed[m.group(1)] = int(m.group(2))
            scenario_lines[s.id] = (ln.line, listed)
            homes = _homes(r, s.id)         # before r.subst is read: its '~' marks count
            units[s.id] = Unit(
                s.id, r.text("name"), r.word("force", forces), r.word("formation"),
                r.int("counters", lo=1), r.word("arm", ARMS), r.word("rank", RANKS),
                klass == "major", frozenset(r.words("tags", TAGS)), front, back,
                r.word("back_side", ("disrupted", "berserk"), required=False, default="disrupted"),
                r.word("best_friend", required=False), r.word("spirit_of", required=False),
                agent_of, {}, r.cite(), frozenset(r.subst), s.line, homes)
        else:
            raw_scenarios.append(s)
    for u in units.values():
        if u.formation not in formations:
            raise DataError(file, u.line, f"unit {u.id}: formation {u.formation!r} is not a "
                            f"[formation] ({', '.join(formations)})")
    return formations, units, raw_scenarios, {uid: (file, line, listed)
                                              for uid, (line, listed) in scenario_lines.items()}


def _parse_scenarios(raw_scenarios, formations, units, scenario_lines):
    """{scenario id: Scenario} of the [scenario] records, over the counters of
    both files; each counter's ``scenarios`` line must say what they deploy."""
    scenarios = {s.id: _parse_scenario(s, formations, units) for s in raw_scenarios}
    for uid, (file, line, listed) in scenario_lines.items():
        want = {sid: sc.units[uid] for sid, sc in scenarios.items()
                if any(t.formation == units[uid].formation for t in sc.takes)}
        if listed != want:
            got = " ".join(f"{k}={v}" for k, v in listed.items()) or "-"
            need = " ".join(f"{k}={v}" for k, v in want.items()) or "-"
            raise DataError(file, line, f"unit {uid}: scenarios {got} contradict the [scenario] "
                            f"records, which deploy {need}")
        object.__setattr__(units[uid], "deploys", want)
    return scenarios


def _parse_scenario(s, formations, units):
    r = _Rec(s, _SCENARIO_KEYS, repeatable=("deploy", "take", "keep_out", "garrison", "best_friend"))
    name = r.text("name")
    turns = r.int("turns", lo=1)
    combat = tuple(sorted(r.words("combat", COMBAT_KINDS)))
    deploy = []
    moon = r.word("moon", SIDES + ("first",), required=False)
    exotic = tuple(sorted(r.words("exotic", SIDES))) if r.one("exotic", False) else ()
    special = tuple(sorted(r.words("special", SPECIAL_RULES))) if r.one("special", False) else ()
    for ln in r.many("deploy"):
        if len(ln.tokens) != 2 or ln.tokens[0] not in SIDES or ln.tokens[1] not in ZONES:
            r.err(ln.line, f"deploy: want SIDE ZONE ({'|'.join(SIDES)} {'|'.join(ZONES)}), "
                  f"got {' '.join(ln.tokens)!r}")
        if ln.tokens[0] in dict(deploy):
            r.err(ln.line, f"scenario {s.id}: {ln.tokens[0]} deploys twice")
        deploy.append((ln.tokens[0], ln.tokens[1]))
    if "lunar" not in dict(deploy) or not (len(deploy) == 2 or (len(deploy) == 3 and "tarsh" in dict(deploy))):
        r.err(s.line, f"scenario {s.id}: the Lunar side and one other ({', '.join(SIDES[1:])}), or the "
              "Tarsh, Lunar and Sartar sides (18.8), need one 'deploy' line each")
    sides = dict(deploy)
    narrow = {}
    for key in ("keep_out", "garrison"):
        pairs = []
        for ln in r.many(key):
            if len(ln.tokens) < 2 or ln.tokens[0] not in sides \
                    or not all(re.fullmatch(r"\d{4}", h) for h in ln.tokens[1:]):
                r.err(ln.line, f"{key}: want SIDE HEX... (a side that deploys, hex ids CCRR)")
            pairs += [(ln.tokens[0], h) for h in ln.tokens[1:]]
        narrow[key] = tuple(pairs)
    friends = []
    for ln in r.many("best_friend"):
        if len(ln.tokens) != 2 or any(u not in units for u in ln.tokens):
            r.err(ln.line, "best_friend: want SUPERHERO_ID FRIEND_ID (unit ids)")
        friends.append(tuple(ln.tokens))
    independents = r.word("independents", ("all", "none"), False, "none") == "all"
    reserve = ()
    if r.one("reserve", False):
        ln = r.one("reserve")
        if len(ln.tokens) != 2 or ln.tokens[0] not in SIDES or not ln.tokens[1].isdigit():
            r.err(ln.line, "reserve: want SIDE MOST_UNITS")
        reserve = (ln.tokens[0], int(ln.tokens[1]))
    deploy_first = r.word("deploy_first", ("listed", "roll"), False, "listed")
    takes, deployed = [], {}
    for ln in r.many("take"):
        take = _take(r, s.id, ln, formations, units, dict(deploy))
        if any(t.formation == take.formation for t in takes):
            r.err(ln.line, f"scenario {s.id}: formation {take.formation} is taken twice")
        takes.append(take)
        deployed.update(_resolve(r, s.id, take, units))
    if not takes:
        r.err(s.line, f"scenario {s.id}: no 'take' lines")
    return Scenario(s.id, name, turns, combat, tuple(deploy), tuple(takes), deployed, r.cite(),
                    s.line, moon=moon, exotic=exotic, special=special, keep_out=narrow["keep_out"],
                    garrison=narrow["garrison"], best_friends=tuple(friends),
                    independents=independents, reserve=reserve,
                    deploy_first=deploy_first)


def _take(r, sid, ln, formations, units, deploy):
    toks = ln.tokens
    if len(toks) < 2 or toks[1] not in ("all", "minus", "only"):
        r.err(ln.line, "take: want FORMATION all | FORMATION minus SEL... | FORMATION only SEL...")
    form, mode, sels = toks[0], toks[1], tuple(toks[2:])
    if form not in formations:
        r.err(ln.line, f"take: {form!r} is not a [formation] ({', '.join(formations)})")
    if (mode == "all") != (not sels):
        r.err(ln.line, f"take {form} {mode}: " + ("'all' takes no selectors" if sels else
                                                   "needs at least one COUNT:WHAT selector"))
    if formations[form].force not in {SIDE_FORCE[side] for side in deploy}:
        r.err(ln.line, f"take {form}: no side that plays its force {formations[form].force} has a 'deploy' line")
    return Take(form, mode, sels, " ".join(toks), ln.line)


def _select(units, formation, what):
    """Unit ids of ``formation`` that a selector's WHAT names (id, @tag or notation)."""
    members = [u for u in units.values() if u.formation == formation]
    if what.startswith("@"):
        return [u.id for u in members if what[1:] in u.tags]
    if what in units:
        return [what] if units[what].formation == formation else []
    key = parse_side(what, allow_blank_rf=True).factors()
    return [u.id for u in members if u.front.factors() == key]


def _resolve(r, sid, take, units):
    """{unit id: counters} one take line deploys."""
    members = {u.id: u.counters for u in units.values() if u.formation == take.formation}
    picked = {}
    for sel in take.selectors:
        count, _, what = sel.partition(":")
        if not what or not (count == "all" or count.isdigit()):
            r.err(take.line, f"take {take.formation}: selector {sel!r} is not COUNT:WHAT")
        try:
            ids = _select(units, take.formation, what)
        except ValueError as exc:
            r.err(take.line, f"take {take.formation}: selector {sel!r}: {exc}")
        if not ids:
            r.err(take.line, f"scenario {sid}: {take.formation} has no {what} (take "
                  f"{take.text!r})")
        if count == "all":
            for u in ids:
                picked[u] = members[u]
            continue
        if len(ids) != 1:
            r.err(take.line, f"scenario {sid}: {what} names {len(ids)} kinds of counter in "
                  f"{take.formation} ({', '.join(ids)}); a count needs exactly one")
        n, have = int(count), members[ids[0]]
        if n > have:
            r.err(take.line, f"scenario {sid}: {take.text!r} asks for {n} counters of {what}, "
                  f"but {take.formation} has {have} ({ids[0]})")
        picked[ids[0]] = n
    if take.mode == "all":
        return dict(members)
    if take.mode == "only":
        return {u: picked.get(u, 0) for u in members}
    return {u: n - picked.get(u, 0) for u, n in members.items()}


# -------------------------------------------------------------- tables ----

_TABLE_COLUMNS = {
    "terrain": "id movement phys_magic melee missile missile_ng game name",
    "structures": "id movement phys_magic melee melee_outside missile fortification name",
    "unit_modifiers": "id spirit_magic melee missile name",
    "notation": "factor mark cite meaning",
    "moon_phases": "order id movement cyclic name",
    "bat_hunger": "phase one_day two_or_more_days",
    "assassin": "roll scouting assassination getaway",
    "attack_beyond_60": "roll fraction",
    "casualties": "attack both first defender_by attacker_by from only name",
    "missile_unit_modifiers": "id modifier name",
    "missile_terrain_modifiers": "modifier hexes name",
    "missile_results": "code disrupted eliminated or_eliminated name",
    "missile": "roll 0 1 2 3-4 5-6 7-9 10-12 13-16 17-20",
    "heroic_escape": "rank min_roll",
    "alliance_dp": "id dp name",
    "dp_schedule": "scenario first_turn last_turn dp",
    "emissary": "roll alliance emissary stack",
    "dwarf_luck": "roll result unit",
    "tusk_riders": "roll alliance magician sacrifice",
    "hungry_jack": "roll result",
    "hydra": "roll mgf feed",
    "random_events": "roll event force effect count hex edges lasts cite unit",
    "plague_fortress": "roll result",
    "plague_unit": "roll result",
    "plague_exempt": "kind name",
    **{f"attack_{lo}_{lo + 19}": "roll " + " ".join(str(t) for t in range(lo, lo + 20))
       for lo in (1, 21, 41)},
}
"""The columns of each table of tables.txt."""
_REST_COLUMNS = ("name", "meaning", "unit")
"""A table whose last column is one of these takes the rest of the line there
(printed words, or a unit's name as the rulebook writes it)."""


def _table(sections, name, file):
    """(rows as (line, {column: raw}), cites, section) of ``[table name]``."""
    want = _TABLE_COLUMNS[name]
    found = [s for s in sections if s.kind == "table" and s.id == name]
    if not found:
        raise DataError(file, 0, f"missing [table {name}]")
    s = found[0]
    cites, columns, rows = None, None, []
    for ln in s.lines:
        if ln.key == "cite":
            cites = _cites(ln.tokens, file, ln.line)
        elif ln.key == "columns":
            if columns is not None:
                raise DataError(file, ln.line, f"[table {name}]: a second 'columns' line")
            columns = ln.tokens
            if columns != want.split():
                raise DataError(file, ln.line, f"[table {name}]: columns {' '.join(columns)!r}, "
                                f"want {want!r}")
        elif columns is None:
            raise DataError(file, ln.line, f"[table {name}]: rows before the 'columns' line")
        else:
            cells = [ln.key] + ln.tokens
            if columns[-1] in _REST_COLUMNS:
                if len(cells) < len(columns):
                    raise DataError(file, ln.line, f"[table {name}] row has {len(cells)} values, "
                                    f"need {len(columns)} ({' '.join(columns)})")
                cells = cells[:len(columns) - 1] + [" ".join(cells[len(columns) - 1:])]
            elif len(cells) != len(columns):
                raise DataError(file, ln.line, f"[table {name}] row has {len(cells)} values, need "
                                f"{len(columns)} ({' '.join(columns)})")
            rows.append((ln.line, dict(zip(columns, cells))))
    if cites is None or columns is None:
        raise DataError(file, s.line, f"[table {name}] needs 'cite' and 'columns' lines")
    return rows, cites, s


def _keyed(sections, kind, file, keys):
    """{id: (_Rec, section)} of the ``[kind id]`` key-value records."""
    return {s.id: (_Rec(s, keys), s) for s in sections if s.kind == kind}


def _num(raw, file, line, what):
    """A printed number: int, ½ fractions (x1½), a/b; '-' is None."""
    if raw == "-":
        return None
    text = raw.lstrip("x")
    m = re.fullmatch(r"([+-]?)(\d*)(½?)", text)
    if m and (m.group(2) or m.group(3)):
        value = Fraction(int(m.group(2) or 0)) + (Fraction(1, 2) if m.group(3) else 0)
        value = -value if m.group(1) == "-" else value
        return int(value) if value.denominator == 1 else value
    m = re.fullmatch(r"(\d+)/(\d+)", text)
    if m and int(m.group(2)):
        value = Fraction(int(m.group(1)), int(m.group(2)))
        return int(value) if value.denominator == 1 else value
    raise DataError(file, line, f"{what}: {raw!r} is not a number")


def _int(raw, file, line, what, subst=None, key=None):
    value, authored = _authored(raw)
    if authored and subst is not None:
        subst.add(key)
    if not re.fullmatch(r"[+-]?\d+", value):
        raise DataError(file, line, f"{what}: {raw!r} is not an integer")
    return int(value)


def _movement(raw, file, line, what):
    m = re.fullmatch(r"(\d+)(?:/(water|stone)=(\d+))?", raw)
    if not m:
        raise DataError(file, line, f"{what}: movement {raw!r} is not N or N/RUNE=M")
    return int(m.group(1)), m.group(2), (int(m.group(3)) if m.group(3) else None)


def _multiplier(raw, file, line, what, none_ok=False):
    if raw == "-":
        return None if none_ok else Fraction(1)
    if not raw.startswith("x"):
        raise DataError(file, line, f"{what}: {raw!r} is not a multiplier (x2, x1½, '-')")
    return _num(raw, file, line, what)


def _die(raw, file, line, what):
    return 0 if raw == "-" else _int(raw, file, line, what)


def _yes(raw, file, line, what):
    if raw not in ("yes", "no"):
        raise DataError(file, line, f"{what}: {raw!r} is not yes or no")
    return raw == "yes"


def _parse_tables(data_dir):
    file = "tables.txt"
    sections = _records(_read_sections(data_dir / file),
                        ("table", "limits", "road", "feature"), file)
    cite, subst = {}, {}
    terrain, structures = {}, {}
    for name, target in (("terrain", terrain), ("structures", structures)):
        rows, cite[name], _ = _table(sections, name, file)
        for line, c in rows:
            what = f"[table {name}] {c['id']}"
            mp, rune, rune_mp = _movement(c["movement"], file, line, what)
            outside = _multiplier(c["melee_outside"], file, line, what, True) \
                if "melee_outside" in c else None
            ng = c.get("missile_ng", "-")
            target[c["id"]] = Terrain(
                c["id"], c["name"], mp, rune, rune_mp,
                _multiplier(c["phys_magic"], file, line, what),
                _multiplier(c["melee"], file, line, what), outside,
                _die(c["missile"], file, line, what),
                None if ng == "-" else _int(ng, file, line, what),
                _yes(c["fortification"], file, line, what) if "fortification" in c else False,
                c.get("game") == "ng", cite[name])
    roads = {}
    for rid, (r, s) in _keyed(sections, "road", file,
                              {"name", "cost", "free_every", "dragonewt_only", "cite"}).items():
        ln, tok = r.single("cost")
        roads[rid] = {"name": r.text("name"), "cost": _num(tok, file, ln.line, f"road {rid}"),
                      "free_every": r.int("free_every") if r.one("free_every", False) else None,
                      "dragonewt_only": r.word("dragonewt_only", ("yes", "no"), False, "no") == "yes",
                      "cite": r.cite()}
    features = {}
    for fid, (r, s) in _keyed(sections, "feature", file,
                              {"name", "leave", "enter", "except", "melee", "missile", "cancels",
                               "end_turn", "cite"}).items():
        feat = {"name": r.text("name"), "cite": r.cite()}
        for key in ("leave", "enter", "except", "melee", "missile", "cancels", "end_turn"):
            ln = r.one(key, False)
            if ln is not None:
                feat[key] = _feature_values(ln, file)
        features[fid] = feat
    rows, cite["unit_modifiers"], _ = _table(sections, "unit_modifiers", file)
    unit_modifiers = {}
    for line, c in rows:
        what = f"[table unit_modifiers] {c['id']}"
        unit_modifiers[c["id"]] = {
            "spirit_magic": c["spirit_magic"] if c["spirit_magic"] != "-" else 0,
            "melee": c["melee"] if c["melee"] != "-" else 0,
            "missile": _die(c["missile"], file, line, what), "name": c["name"]}
    rows, cite["notation"], _ = _table(sections, "notation", file)
    notation = {}
    for line, c in rows:
        if c["factor"] not in FACTORS:
            raise DataError(file, line, f"[table notation]: factor {c['factor']!r} is not one of "
                            f"{', '.join(FACTORS)}")
        _cites([c["cite"]], file, line)
        notation[(c["factor"], c["mark"])] = c["meaning"]
    rows, cite["moon_phases"], _ = _table(sections, "moon_phases", file)
    phases = tuple(MoonPhase(_int(c["order"], file, line, "order"), c["id"], c["name"],
                             _int(c["movement"], file, line, c["id"]),
                             _int(c["cyclic"], file, line, c["id"])) for line, c in rows)
    rows, cite["bat_hunger"], _ = _table(sections, "bat_hunger", file)
    hunger = {}
    for line, c in rows:
        if c["phase"] not in {p.id for p in phases}:
            raise DataError(file, line, f"[table bat_hunger]: {c['phase']!r} is not a phase of the moon")
        one, more = _int(c["one_day"], file, line, c["phase"]), _int(c["two_or_more_days"], file, line, c["phase"])
        if not 0 < one < more:
            raise DataError(file, line, f"[table bat_hunger]: {c['phase']}: a second missed day must "
                            f"ask more units ({one}, {more})")
        hunger[c["phase"]] = (one, more)
    rows, cite["assassin"], _ = _table(sections, "assassin", file)
    results = {"scouting": ("captured", "killed", "success"), "assassination": ("fail", "success"),
               "getaway": ("captured", "killed", "away")}
    assassin = {k: {} for k in results}
    for line, c in rows:
        roll = _int(c["roll"], file, line, "roll")
        for k, allowed in results.items():
            if c[k] == "-":
                continue
            if c[k] not in allowed:
                raise DataError(file, line, f"[table assassin] {k} {c[k]!r} is not one of {', '.join(allowed)}")
            assassin[k][roll] = c[k]
    assassin_dp, subst["assassin_dp"] = _limits(sections, "assassin", file, cite, (
        "scouting_captured", "scouting_killed", "assassination_success", "getaway_captured", "getaway_killed",
        "hero_modifier"))
    moon, subst["moon"] = _limits(
        sections, "moon", file, cite, ("glowline", "glowspot_radius", "half_cyclic", "argrath_radius"))
    attack, attack_subst, columns_seen = np.full((61, 7), -1, dtype=np.int16), set(), []
    attack[0, 1:] = 0
    for block in ("attack_1_20", "attack_21_40", "attack_41_60"):
        rows, cite[block], sec = _table(sections, block, file)
        totals = [c for c in rows[0][1] if c != "roll"] if rows else []
        if [c["roll"] for _, c in rows] != ["1", "2", "3", "4", "5", "6"]:
            raise DataError(file, sec.line, f"[table {block}]: rows must be the die rolls 1..6")
        for line, c in rows:
            for t in totals:
                if not t.isdigit() or not 1 <= int(t) <= 60:
                    raise DataError(file, sec.line, f"[table {block}]: column {t!r} is not a "
                                    "total 1..60")
                total, die = int(t), int(c["roll"])
                value = _int(c[t], file, line, f"[table {block}] total {t} roll {die}",
                             attack_subst, f"{t}/{die}")
                want = math.floor(ATTACK_FRACTIONS[die - 1] * total)
                if value != want:
                    raise DataError(file, line, f"Attack Table total {total} roll {die}: {value}, "
                                    f"but every printed cell is the fraction of its total that "
                                    f"L1086-L1091 give, here {want}")
                attack[total, die] = value
        columns_seen += [int(t) for t in totals]
    if columns_seen != list(range(1, 61)):
        raise DataError(file, 0, "the Attack Table blocks must cover the totals 1..60 in order "
                        "(L1052-L1080)")
    subst["attack"] = frozenset(attack_subst)
    attack_limits, subst["attack_limits"] = _limits(
        sections, "attack", file, cite, ("max_total", "die_min", "die_max"))
    rows, cite["attack_beyond_60"], sec = _table(sections, "attack_beyond_60", file)
    beyond = tuple(_num(c["fraction"], file, line, "fraction") for line, c in rows)
    if [c["roll"] for _, c in rows] != ["1", "2", "3", "4", "5", "6"]:
        raise DataError(file, sec.line, "[table attack_beyond_60]: rows must be the die rolls 1..6")
    rows, cite["casualties"], _ = _table(sections, "casualties", file)
    casualties = {}
    for line, c in rows:
        dash = {k: (None if v == "-" else v) for k, v in c.items()}
        casualties[c["attack"]] = CasualtyRule(
            c["attack"], _yes(c["both"], file, line, c["attack"]), dash["first"], c["defender_by"],
            dash["attacker_by"], c["from"], dash["only"], c["name"])
    rows, cite["missile_unit_modifiers"], _ = _table(sections, "missile_unit_modifiers", file)
    missile_units = {c["id"]: _int(c["modifier"], file, line, c["id"]) for line, c in rows}
    rows, cite["missile_terrain_modifiers"], _ = _table(sections, "missile_terrain_modifiers", file)
    missile_hexes = {}
    for line, c in rows:
        for hex_id in c["hexes"].split(","):
            if hex_id in missile_hexes:
                raise DataError(file, line, f"[table missile_terrain_modifiers]: {hex_id} listed twice")
            missile_hexes[hex_id] = _int(c["modifier"], file, line, "modifier")
    missile_limits, subst["missile_limits"] = _limits(
        sections, "missile", file, cite, ("ridge_divisor", "roll_min", "roll_max", "over_20_column"))
    rows, cite["missile_results"], _ = _table(sections, "missile_results", file)
    results, results_subst = {}, set()
    for line, c in rows:
        code = c["code"]
        results[code] = MissileResult(
            code, _int(c["disrupted"], file, line, code, results_subst, f"{code}.disrupted"),
            _int(c["eliminated"], file, line, code, results_subst, f"{code}.eliminated"),
            None if c["or_eliminated"] == "-" else _int(c["or_eliminated"], file, line, code),
            _authored(c["name"])[0])
    subst["missile_results"] = frozenset(results_subst)
    rows, cite["missile"], sec = _table(sections, "missile", file)
    spans = []
    for col in [k for k in rows[0][1] if k != "roll"] if rows else []:
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", col)
        if not m:
            raise DataError(file, sec.line, f"[table missile]: column {col!r} is not N or N-M")
        spans.append((col, int(m.group(1)), int(m.group(2) or m.group(1))))
    codes = MISSILE_SEVERITY
    missile = np.zeros((8, 21), dtype=np.int8)
    if [c["roll"] for _, c in rows] != [str(i) for i in range(8)]:
        raise DataError(file, sec.line, "[table missile]: rows must be the modified rolls 0..7 "
                        "(L1122-L1129)")
    expect = 0
    for col, lo, hi in spans:
        if lo != expect or hi < lo:
            raise DataError(file, sec.line, f"[table missile]: column {col} does not follow on "
                            f"from total {expect - 1}")
        expect = hi + 1
    if expect != 21:
        raise DataError(file, sec.line, "[table missile]: columns must cover totals 0..20")
    for line, c in rows:
        for col, lo, hi in spans:
            if c[col] not in codes or c[col] not in results:
                raise DataError(file, line, f"[table missile] roll {c['roll']} total {col}: "
                                f"{c[col]!r} is not a result of the legend (L1131)")
            missile[int(c["roll"]), lo:hi + 1] = codes.index(c[col])
    melee, subst["melee"] = _limits(
        sections, "melee", file, cite, ("fighting_majors", "structure_units", "defensive_doubling",
                                        "river_ridge_attacker", "rain_die", "covering_fraction",
                                        "extended_advance_mf"))
    rows, cite["heroic_escape"], _ = _table(sections, "heroic_escape", file)
    escape = {c["rank"]: _int(c["min_roll"], file, line, c["rank"]) for line, c in rows}
    over = missile_limits["over_20_column"]
    for arr in (attack, missile):
        arr.flags.writeable = False
    return Tables(
        attack=attack, attack_beyond=beyond, attack_max_total=int(attack_limits["max_total"]),
        attack_die=(int(attack_limits["die_min"]), int(attack_limits["die_max"])),
        missile=missile, missile_codes=codes, missile_results=results,
        missile_columns=tuple((lo, hi) for _, lo, hi in spans),
        missile_roll=(int(missile_limits["roll_min"]), int(missile_limits["roll_max"])),
        missile_ridge_divisor=int(missile_limits["ridge_divisor"]),
        missile_over_20=tuple(int(x) for x in str(over).split("-")),
        missile_unit_modifiers=missile_units, missile_terrain_modifiers=missile_hexes,
        terrain=terrain, structures=structures, roads=roads, features=features,
        unit_modifiers=unit_modifiers, notation=notation, moon_phases=phases,
        cyclic={p.id: p.cyclic for p in phases}, moon=moon, bat_hunger=hunger, assassin=assassin,
        assassin_dp=assassin_dp, casualties=casualties,
        melee=melee, heroic_escape=escape, **_parse_diplomacy(sections, file, cite, subst),
        cite=cite, substituted=subst)


def _rolls(raw, file, line, what, d66=False):
    """The rolls of a printed span: '3' or '1-2' (d66: '43-46', '51-56' in the
    order of two dice, first die the tens, L952)."""
    value, was = _authored(raw)
    m = re.fullmatch(r"(\d+)(?:-(\d+))?", value)
    faces = [a * 10 + b for a in range(1, 7) for b in range(1, 7)] if d66 else list(range(1, 7))
    if was or not m or int(m.group(1)) not in faces or int(m.group(2) or m.group(1)) not in faces:
        raise DataError(file, line, f"{what}: roll {raw!r} is not a roll or span of "
                        + ("11..66 (two dice)" if d66 else "1..6"))
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if hi < lo:
        raise DataError(file, line, f"{what}: span {raw!r} runs backwards")
    return [r for r in faces if lo <= r <= hi]


def _cover(rows, name, file, sec, d66=False):
    """[(roll, line, row)] of a die table whose rows cover every roll once, in order."""
    faces = [a * 10 + b for a in range(1, 7) for b in range(1, 7)] if d66 else list(range(1, 7))
    out = []
    for line, c in rows:
        for r in _rolls(c["roll"], file, line, f"[table {name}]", d66):
            if out and r <= out[-1][0]:
                raise DataError(file, line, f"[table {name}]: roll {r} " + (
                    "is in two rows" if r in [x[0] for x in out] else "is out of order"))
            out.append((r, line, c))
    missing = [r for r in faces if r not in {x[0] for x in out}]
    if missing:
        raise DataError(file, sec.line, f"[table {name}]: no row for roll "
                        f"{', '.join(map(str, missing))} (the rows must cover "
                        + ("11..66" if d66 else "1..6") + ")")
    return out


def _parse_diplomacy(sections, file, cite, subst):
    """The Tables fields of diplomacy, the Independents and random events."""
    out = {}
    rows, cite["alliance_dp"], _ = _table(sections, "alliance_dp", file)
    out["alliance_dp"] = {c["id"]: _int(c["dp"], file, line, c["id"]) for line, c in rows}
    out["alliance_names"] = {c["id"]: c["name"] for _, c in rows}
    out["diplomacy"], subst["diplomacy"] = _limits(sections, "diplomacy", file, cite, (
        "denied_bonus", "own_capital_occupied", "allied_capital_occupied", "income_floor",
        "trespass", "replacement_infantry_per_cf", "replacement_cavalry_per_cf",
        "dead_infantry_per_replacement", "dead_cavalry_per_replacement"))
    rows, cite["dp_schedule"], sec = _table(sections, "dp_schedule", file)
    schedule = {}
    for line, c in rows:
        sid = c["scenario"]
        if sid not in _DIPLOMACY_SCENARIOS:
            raise DataError(file, line, f"[table dp_schedule]: {sid!r} is not a scenario with "
                            f"Diplomacy Rules ({', '.join(_DIPLOMACY_SCENARIOS)}; L295, L315)")
        first, last = (_int(c[k], file, line, f"{sid} {k}") for k in ("first_turn", "last_turn"))
        turns = schedule.setdefault(sid, [])
        if first != len(turns) + 1 or last < first:
            raise DataError(file, line, f"[table dp_schedule] {sid}: turns {first}-{last} do "
                            f"not follow on from turn {len(turns)}")
        turns += [_int(c["dp"], file, line, f"{sid} dp")] * (last - first + 1)
    for sid, turns in _DIPLOMACY_SCENARIOS.items():
        if len(schedule.get(sid, ())) != turns:
            raise DataError(file, sec.line, f"[table dp_schedule] {sid}: the spans cover "
                            f"{len(schedule.get(sid, ()))} game-turns, the scenario has {turns} "
                            "(L295, L315)")
    out["dp_schedule"] = {sid: tuple(t) for sid, t in schedule.items()}
    for name, kinds in _DIE_TABLES.items():
        rows, cite[name], sec = _table(sections, name, file)
        table, marked = {}, set()
        for roll, line, c in _cover(rows, name, file, sec):
            values = {}
            for col, allowed in kinds.items():
                raw, was = _authored(c[col])
                if was:
                    marked.add(f"{roll}.{col}")
                if allowed == "int":
                    values[col] = _int(raw, file, line, f"[table {name}] {col}")
                elif allowed is None:
                    values[col] = None if raw == "-" else raw
                elif raw not in allowed:
                    raise DataError(file, line, f"[table {name}] {col} {raw!r} is not one of "
                                    f"{', '.join(allowed)}")
                else:
                    values[col] = raw
            table[roll] = values if len(values) > 1 else values[next(iter(kinds))]
        out[name], subst[name] = table, frozenset(marked)
    rows, cite["plague_exempt"], _ = _table(sections, "plague_exempt", file)
    out["plague_exempt"] = tuple(c["kind"] for _, c in rows)
    rows, cite["random_events"], sec = _table(sections, "random_events", file)
    events, authored_cells = {}, set()
    for roll, line, c in _cover(rows, "random_events", file, sec, d66=True):
        what = f"[table random_events] {roll}"
        cells, marked = {}, set()
        for col in ("event", "force", "effect", "count", "hex", "edges", "lasts", "unit"):
            cells[col], was = _authored(c[col])
            if was:
                marked.add(col)
        force, effect, lasts = cells["force"], cells["effect"], cells["lasts"]
        for col, value, allowed in (("force", force, _FORCES_OF_EVENTS),
                                    ("effect", effect, _EVENT_EFFECTS),
                                    ("lasts", lasts, ("turn", "-"))):
            if value not in allowed:
                raise DataError(file, line, f"{what}: {col} {value!r} is not one of "
                                f"{', '.join(allowed)}")
        if not re.fullmatch(r"[a-z_]+", cells["event"]):
            raise DataError(file, line, f"{what}: event {cells['event']!r} is not an id")
        edges = () if cells["edges"] == "-" else tuple(cells["edges"].split(","))
        if any(e not in _EDGES for e in edges) or len(set(edges)) != len(edges):
            raise DataError(file, line, f"{what}: edges {cells['edges']!r} are not board edges "
                            f"({', '.join(_EDGES)})")
        count = None if cells["count"] == "-" else _int(cells["count"], file, line, f"{what} count")
        hex_id = None if cells["hex"] == "-" else cells["hex"]
        if hex_id is not None and not re.fullmatch(r"\d{4}", hex_id):
            raise DataError(file, line, f"{what}: hex {hex_id!r} is not a hex (CCRR)")
        unit = None if cells["unit"] == "-" else cells["unit"]
        need = {"place_unit": (count, hex_id, unit), "remove_units": (count, edges),
                "replace_units": (count, edges)}.get(effect, ())
        if not all(need):
            raise DataError(file, line, f"{what}: {effect} needs a count"
                            + (", a hex and a unit" if effect == "place_unit" else " and edges"))
        if roll not in _RANDOM_EVENTS_PRINTED and not marked:
            raise DataError(file, line, f"{what}: the table prints no roll {roll} (L957-L973); "
                            "what the file gives it must be marked authored ('~')")
        authored_cells |= {f"{roll}.{col}" for col in marked}
        events[roll] = RandomEvent(roll, cells["event"], None if force == "-" else force, effect,
                                   count, hex_id, edges, None if lasts == "-" else lasts, unit,
                                   _cites([c["cite"]], file, line), frozenset(marked))
    subst["random_events"] = frozenset(authored_cells)
    out["random_events"] = events
    return out


def _feature_values(ln, file):
    """'+1 water=+0 attacker=x½' -> {'base': 1, 'water': 0, 'attacker': 1/2}; other
    words go to 'words'."""
    out = {}
    for tok in ln.tokens:
        name, _, value = tok.rpartition("=")
        if re.fullmatch(r"x?[+-]?\d*½?", value) and value not in ("", "x"):
            out[name or "base"] = _num(value, file, ln.line, f"{ln.key} {tok}")
        else:
            out.setdefault("words", []).append(tok)
    if "words" in out:
        out["words"] = tuple(out["words"])
    return out


def _limits(sections, name, file, cite, keys):
    """({key: number or text}, authored keys) of ``[limits name]``; exactly ``keys``."""
    found = [s for s in sections if s.kind == "limits" and s.id == name]
    if not found:
        raise DataError(file, 0, f"missing [limits {name}]")
    out, authored = {}, []
    for ln in found[0].lines:
        if ln.key == "cite":
            cite[f"limits_{name}"] = _cites(ln.tokens, file, ln.line)
            continue
        if ln.key not in keys or ln.key in out:
            raise DataError(file, ln.line, f"[limits {name}]: unknown or repeated key {ln.key!r} "
                            f"(allowed: {', '.join(keys)})")
        if len(ln.tokens) != 1:
            raise DataError(file, ln.line, f"[limits {name}] {ln.key}: takes exactly one value")
        value, was = _authored(ln.tokens[0])
        if was:
            authored.append(ln.key)
        if re.fullmatch(r"\d+-\d+", value):
            out[ln.key] = value
        else:
            out[ln.key] = _num(value, file, ln.line, f"[limits {name}] {ln.key}")
            if out[ln.key] is None:
                raise DataError(file, ln.line, f"[limits {name}] {ln.key}: needs a number")
    if f"limits_{name}" not in cite:
        raise DataError(file, found[0].line, f"[limits {name}] needs a 'cite' line")
    missing = [k for k in keys if k not in out]
    if missing:
        raise DataError(file, found[0].line, f"[limits {name}] is missing {', '.join(missing)}")
    return out, frozenset(authored)


# ---------------------------------------------------------- validation ----

def _fail(file, obj, problem):
    raise DataError(file, getattr(obj, "line", 0), problem)


def _check(data):
    _check_formations(data)
    _check_units(data)
    _check_printed(data)
    _check_scenarios(data)
    _check_tables(data.tables)
    _check_independents(data)


def _check_formations(data):
    f = "units.txt"
    for form in data.formations.values():
        other = data.formations.get(form.abbrev)
        if form.abbrev != form.id and (other is None or other.force == form.force):
            _fail(f, form, f"formation {form.id}: abbrev {form.abbrev!r} must be its id, unless "
                  "the other force's formation of that id shares the printed abbreviation (CM, "
                  "L213, L255)")
        clash = [x.id for x in data.formations.values()
                 if x.id != form.id and x.abbrev == form.abbrev and x.force == form.force]
        if clash:
            _fail(f, form, f"formation {form.id}: abbrev {form.abbrev!r} is also {clash[0]}'s, "
                  f"of the same force {form.force}")
        want = "red" if form.force == "lunar" else (
            "dark_green" if form.name == "Barbarian Horde" else "orange")
        if form.colour != want:
            _fail(f, form, f"formation {form.id} ({form.name}): colour {form.colour}, but "
                  f"{form.force} counters are {want} (L115-L117)")
    horde = [x for x in data.formations.values() if x.name == "Barbarian Horde"]
    if horde and horde[0].force != "sartar":
        _fail(f, horde[0], "the Barbarian Horde is part of the Sartar Battalia (L123, L441)")


def _check_units(data):
    _check_unit_set(data.units, data.formations, "units.txt")
    units = data.units
    if "harrek" in units and "gunda" in units:
        lf = units["harrek"].front.leadership + units["gunda"].front.leadership
        if lf != 3 or units["harrek"].best_friend != "gunda":
            _fail("units.txt", units["harrek"], f"Harrek stacked with Gunda, his best friend, "
                  f"gives a leadership factor of 3 (L614, L652), not {lf}")


def _check_unit_set(units, formations, f):
    """The rules of L127-L138, L590, L786 on every counter of one file."""
    for u in units.values():
        form = formations[u.formation]
        for side in (u.front, u.back):
            if "T" in side.notation.split("-")[0]:
                _fail(f, u, f"unit {u.id}: a treasure (T in the CF, {side.notation}); there are "
                      "no treasures in the Dragon Pass game (L138, L400)")
        if u.force != form.force:
            _fail(f, u, f"unit {u.id}: force {u.force}, but formation {u.formation} is {form.force}")
        if u.rank != "none":
            if not (u.front.single and u.front.leadership >= 1 and u.heroic):
                _fail(f, u, f"unit {u.id}: a {u.rank} has a parenthesised CF with ! marks and an "
                      "underlined (heroic) MF (L130)")
            if u.arm != "none":
                _fail(f, u, f"unit {u.id}: heroes and superheroes are not cavalry or infantry "
                      "(L786)")
        if u.superhero:
            if u.back_side != "berserk":
                _fail(f, u, f"unit {u.id}: superheroes cannot be disrupted (L590); the back is "
                      "the Berserker Rage side (L656): back_side berserk")
            if u.front.mgf_kind != "infinity":
                _fail(f, u, f"unit {u.id}: a superhero's MgF is infinity (L406)")
        elif u.back_side != "disrupted":
            _fail(f, u, f"unit {u.id}: only a superhero has a Berserker Rage side (L656)")
        if u.back_side == "disrupted":
            _check_reduced(f, u)
        if u.front.single and u.front.cf_kind != "blank" and u.rank == "none" \
                and u.id not in _PHYSICAL_MINOR | set(_L129_EXCEPTIONS):
            _fail(f, u, f"unit {u.id}: a physical minor unit that is not a hero, superhero, "
                  "Crimson Bat, Stone Man or Wasps (L129)")
        if u.id in _PHYSICAL_MINOR and (u.major or u.front.cf_kind == "blank"):
            _fail(f, u, f"unit {u.id}: L129 lists it among the physical minor units: a "
                  "parenthesised, non-blank CF")
        chaotic = u.front.mgf is not None and u.front.mgf < 0
        if chaotic != (u.id in _CHAOTIC):
            _fail(f, u, f"unit {u.id}: " + ("a negative (chaotic) MgF" if chaotic else
                                             "no negative MgF") + "; the only chaotic units are "
                  "the Hydra and the Crimson Bat, MgF -1* (L136, L435)")
        if u.best_friend is not None:
            friend = units.get(u.best_friend)
            if not u.superhero or friend is None or friend.rank != "hero":
                _fail(f, u, f"unit {u.id}: best_friend {u.best_friend!r} must be a hero, named "
                      "by a superhero (L610-L615, L652)")
        if u.spirit_of is None and u.front.cf_kind == "blank" and u.front.mf_kind == "blank":
            _fail(f, u, f"unit {u.id}: a blank CF and MF is a magician's spirit (L132, L135); "
                  "give its magician in 'spirit_of'")
        if u.agent_of is None and u.front.cf_kind != "blank" and u.front.mf_kind == "blank" \
                and u.front.mgf_kind == "blank":
            _fail(f, u, f"unit {u.id}: a blank MF and MgF is a physical magician's agent (L134, "
                  "L404); give its magician in 'agent_of'")
        if u.spirit_of is not None and u.agent_of is not None:
            _fail(f, u, f"unit {u.id}: a spirit or an agent, not both")
    for u in units.values():
        spirits = [s for s in units.values() if s.spirit_of == u.id]
        agents = [a for a in units.values() if a.agent_of == u.id]
        if u.magician == "spirit" and len(spirits) != 1:
            _fail(f, u, f"unit {u.id}: a spirit magician (RF {u.front.rf}, L131) needs exactly one "
                  f"spirit (L132), found {len(spirits)}")
        if u.magician == "physical" and len(agents) != 1:
            _fail(f, u, f"unit {u.id}: a physical magician (underlined RF {u.front.rf}, L133) needs "
                  f"exactly one agent (L134), found {len(agents)}")
        if u.magician != "physical" and agents:
            _fail(f, u, f"unit {u.id}: {agents[0].id} names it in agent_of, but only a physical "
                  "magician (an underlined RF of 1 or more, L133) has an agent")
        if u.agent_of is not None:
            mage = units.get(u.agent_of)
            if mage is None or mage.formation != u.formation:
                _fail(f, u, f"unit {u.id}: agent_of {u.agent_of!r} is not a unit of "
                      f"{u.formation}")
            if u.front.cf_kind == "blank" or u.front.mf_kind != "blank" \
                    or u.front.mgf_kind != "blank":
                _fail(f, u, f"unit {u.id}: an agent has a blank MF and a blank MgF (L134, L404) "
                      f"and a CF (it is physical, L710); front {u.front.notation}")
            if not u.front.physical or u.front.rf != mage.front.rf:
                _fail(f, u, f"unit {u.id}: an agent's RF is underlined (L428) and its "
                      f"magician's ({mage.id} {mage.front.notation}; L710)")
            if u.counters != mage.counters or u.arm != "none":
                _fail(f, u, f"unit {u.id}: one agent per magician ({mage.counters}), arm none")
        if u.spirit_of is not None:
            mage = units.get(u.spirit_of)
            if mage is None or mage.formation != u.formation:
                _fail(f, u, f"unit {u.id}: spirit_of {u.spirit_of!r} is not a unit of "
                      f"{u.formation}")
            if u.front.cf_kind != "blank" or u.front.mf_kind != "blank" or u.major:
                _fail(f, u, f"unit {u.id}: a magician's spirit has a blank CF and MF and is a "
                      "minor unit (L127, L129, L132, L135)")
            if (u.front.mgf_kind, u.front.mgf, u.front.rf) != (mage.front.mgf_kind,
                                                                 mage.front.mgf, mage.front.rf):
                _fail(f, u, f"unit {u.id}: a spirit has its magician's MgF and RF ({mage.id} "
                      f"{mage.front.notation}; e.g. L778, L837)")
            if u.counters != mage.counters or u.arm != "none":
                _fail(f, u, f"unit {u.id}: one spirit per magician ({mage.counters}), arm none")
    for uid, (mid, cite) in _AGENTS.items():
        if uid in units and units[uid].agent_of != mid:
            _fail(f, units[uid], f"unit {uid}: the agent of {mid} ({cite}); agent_of "
                  f"{units[uid].agent_of!r}")


def _check_reduced(f, u):
    """A disrupted side uses "reduced factors" (L590): none larger than the front's."""
    a, b = u.front, u.back
    pairs = (("CF", (a.cf_kind, a.cf), (b.cf_kind, b.cf)), ("MgF", (a.mgf_kind, a.mgf),
             (b.mgf_kind, b.mgf)), ("MF", (a.mf_kind, a.mf), (b.mf_kind, b.mf)),
             ("RF", (a.rf_kind, a.rf), (b.rf_kind, b.rf)))
    for name, front, back in pairs:
        x, y = _strength(*front), _strength(*back)
        if name == "MgF" and x is not None and y is not None:
            x, y = abs(x), abs(y)          # a chaotic MgF's size (L411): -1* to 0
        if x is not None and y is not None and y > x:
            _fail(f, u, f"unit {u.id}: disrupted {name} {b.notation} exceeds the front's "
                  f"{a.notation} (a disrupted unit uses reduced factors, L590)")
    if b.missile > a.missile or b.leadership > a.leadership:
        _fail(f, u, f"unit {u.id}: disrupted side {b.notation} has more missile or leader marks "
              f"than {a.notation} (L590)")


def _check_printed(data):
    f = "units.txt"
    for uid, (front, back, side, counters, rank, friend, cite) in _PRINTED_UNITS.items():
        u = data.units.get(uid)
        if u is None:
            raise DataError(f, 0, f"missing unit {uid!r} ({cite})")
        got = (u.front.factors(), u.back.factors(), u.back_side, u.rank, u.best_friend)
        want = (parse_side(front).factors(), parse_side(back).factors(), side, rank, friend)
        if got != want or (counters is not None and u.counters != counters):
            _fail(f, u, f"unit {uid}: the rulebook prints {front} / {back} ({side}), {rank}, "
                  f"{counters} counter(s){', best friend ' + friend if friend else ''} ({cite}); "
                  f"the file has {u.front.notation} / {u.back.notation} ({u.back_side}), "
                  f"{u.rank}, {u.counters}")
        for key in ("front", "back"):
            if key in u.substituted:
                _fail(f, u, f"unit {uid}: {key} is printed ({cite}); do not mark it authored '~'")
    for uid, (front, cite) in _PRINTED_FRONTS.items():
        u = data.units.get(uid)
        if u is None:
            raise DataError(f, 0, f"missing unit {uid!r} ({cite})")
        if u.front.factors() != parse_side(front).factors() or "front" in u.substituted:
            _fail(f, u, f"unit {uid}: the rulebook prints its front {front} ({cite}), unmarked; "
                  f"the file has {u.front.notation}")
    for uid, (form, cite) in _PRINTED_HOMES.items():
        u = data.units.get(uid)
        if u is None or u.formation != form:
            _fail(f, u, f"unit {uid}: the rulebook puts it in {form} ({cite})")
    for u in data.units.values():
        form = data.formations[u.formation]
        if form.battalia == (u.id in _NOT_BATTALIA):
            _fail(f, form, f"formation {form.id}: battalia {'yes' if form.battalia else 'no'}, but "
                  f"{u.id} is " + (f"not part of the Battalia ({_NOT_BATTALIA[u.id]})"
                                   if u.id in _NOT_BATTALIA else "of the Battalia"))
    for form, what, least, exactly, cite in _PRINTED_MIX:
        if form not in data.formations:
            raise DataError(f, 0, f"missing formation {form!r} ({cite})")
        ids = _select(data.units, form, what)
        n = sum(data.units[u].counters for u in ids)
        if n < least or (exactly is not None and n != exactly):
            need = f"exactly {exactly}" if exactly is not None else f"at least {least}"
            _fail(f, data.formations[form], f"formation {form}: the rulebook has {need} "
                  f"counter(s) of {what} ({cite}), the file {n}")


def _check_independents(data):
    """independents.txt against L730-L920 (and the units.txt rules it shares)."""
    f = INDEPENDENTS_FILE
    forms, units = data.independent_formations, data.independent_units
    by_faction = {}
    for form in forms.values():
        if form.faction in by_faction:
            _fail(f, form, f"formation {form.id}: faction {form.faction} is already "
                  f"{by_faction[form.faction]}'s (one formation per Independent)")
        by_faction[form.faction] = form.id
        group, dp, colour, cite = _FACTION_RULES[form.faction]
        if form.abbrev != form.id:
            _fail(f, form, f"formation {form.id}: abbrev {form.abbrev!r} must be its id")
        if (form.group, form.dp) != (group, dp) or {"group", "dp"} & form.substituted:
            _fail(f, form, f"formation {form.id} ({form.faction}): group {form.group}, dp "
                  f"{form.dp}; the rulebook has {group}, " + (f"{dp} DP" if dp else
                  "no DP price (allied by emissary or by event, L806, L815, L918)") +
                  f", unmarked ({cite})")
        if colour is not None and (form.colour != colour or "colour" in form.substituted):
            _fail(f, form, f"formation {form.id}: colour {form.colour}, but {form.faction}'s "
                  f"counters are {colour} ({cite}), unmarked")
        if colour is None and "colour" not in form.substituted:
            _fail(f, form, f"formation {form.id}: the rulebook prints no colour for "
                  f"{form.faction} (L115-L121): mark it authored '~'")
    for faction in FACTIONS:
        if faction not in by_faction:
            raise DataError(f, 0, f"no formation of {faction} ({_FACTION_RULES[faction][3]})")
    _check_unit_set(units, forms, f)
    for uid, (faction, front, back, counters, rank, cite) in _PRINTED_INDEPENDENTS.items():
        u = units.get(uid)
        if u is None:
            raise DataError(f, 0, f"missing unit {uid!r} ({cite})")
        want = (by_faction[faction], parse_side(front).factors(), rank)
        got = (u.formation, u.front.factors(), u.rank)
        if back is not None:
            want += (parse_side(back).factors(),)
            got += (u.back.factors(),)
        if got != want or (counters is not None and u.counters != counters):
            _fail(f, u, f"unit {uid}: the rulebook prints {front}" + (f" / {back}" if back else "")
                  + f", {rank}, {counters or 'some'} counter(s), of {faction} ({cite}); the file "
                  f"has {u.front.notation} / {u.back.notation}, {u.rank}, {u.counters}, of "
                  f"{u.formation}")
        printed = {"front", "rank", "formation"} | ({"back"} if back else set()) | (
            {"counters"} if counters is not None else set())
        if printed & u.substituted:
            _fail(f, u, f"unit {uid}: {', '.join(sorted(printed & u.substituted))} printed "
                  f"({cite}); do not mark it authored '~'")
    for u in units.values():
        if u.id not in _PRINTED_INDEPENDENTS:
            _fail(f, u, f"unit {u.id}: the Independents' lists (L746-L920) print no such counter")
        if (u.arm == "cavalry") != (u.id in _INDEPENDENT_CAVALRY) or (
                u.arm == "cavalry" and "arm" in u.substituted):
            _fail(f, u, f"unit {u.id}: arm {u.arm}; the only cavalry among the Independents are "
                  "the Pony Breeders' units but the Feathered Horse Queen, the Exiles' cavalry and "
                  "Moon Haters, and the Black Horse Troops (L786), unmarked")
        faction = forms[u.formation].faction
        if ("giant" in u.tags) != (faction == "giants"):
            _fail(f, u, f"unit {u.id}: the giants, and only they, are Giant targets (L384, L920)")
        if ("dragon" in u.tags) != (u.front.cf_kind == "equal"):
            _fail(f, u, f"unit {u.id}: a dragon's CF is '=' (L397) and it is a Dragon target "
                  "(L382): tag dragon exactly where the CF is '='")
        if ("herd" in u.tags) != u.front.herd:
            _fail(f, u, f"unit {u.id}: herds have h in their CF (L137, L399) and are Herd "
                  "targets (L384): tag herd exactly where the CF has h")
        if u.front.mgf_kind == "infinity" and not (u.superhero or "dragon" in u.tags):
            _fail(f, u, f"unit {u.id}: an infinite MgF is a dragon's or a superhero's (L406)")
    dragons = sorted(u.id for u in units.values() if "dragon" in u.tags)
    if dragons != sorted(_DRAGONS):
        raise DataError(f, 0, f"the dragons are {', '.join(_DRAGONS)} (L843); the file has "
                        f"{', '.join(dragons)}")


def _check_scenarios(data):
    f = "units.txt"
    every = {**data.units, **data.independent_units}
    for sc in data.scenarios.values():
        for hero, friend in sc.best_friends:
            if every[hero].rank != "superhero" or not sc.units.get(hero) or not sc.units.get(friend):
                _fail(f, sc, f"scenario {sc.id}: best_friend {hero} {friend}: a best friend is "
                      "assigned to a superhero the scenario deploys, among its units (L615, L652)")
        for uid, n in sc.units.items():
            u = every[uid]
            if not n:
                continue
            plural = {"hero": "heroes", "superhero": "superheroes"}.get(u.rank)
            if plural and plural not in sc.combat:
                _fail(f, sc, f"scenario {sc.id}: deploys {uid}, but {plural} are not in use in "
                      f"it ({', '.join(sc.combat)}; L204, L219, L234)")
            if (u.front.cyclic or u.back.cyclic) and sc.moon is None:
                _fail(f, sc, f"scenario {sc.id}: deploys {uid}, whose factors are cyclic, but no "
                      "phase of the moon is chosen in it (no 'moon' line; 18.1-18.3 choose none, "
                      "from 18.4 on the Lunar player does, L263)")
            if u.assassin and u.force not in {SIDE_FORCE[side] for side in sc.exotic}:
                _fail(f, sc, f"scenario {sc.id}: deploys {uid}, an assassin, but {u.force} has no "
                      "Exotic Magic Phase ('exotic'), in which assassins are used (L728, L924)")
            for link, key in ((u.spirit_of, "spirit"), (u.agent_of, "agent")):
                if link is not None and sc.units.get(link, 0) != n:
                    _fail(f, sc, f"scenario {sc.id}: deploys {n} of {uid} but "
                          f"{sc.units.get(link, 0)} of its magician {link}: a {key} comes and "
                          "goes with its magician (L131-L134)")
        for uid, n in sc.units.items():
            for other in every.values():
                if n and uid in (other.spirit_of, other.agent_of) and not sc.units.get(other.id):
                    _fail(f, sc, f"scenario {sc.id}: deploys {uid} without {other.id}: a "
                          "magician comes with his spirit or agent (L131-L134)")
        if ("exotic" in sc.combat) != bool(sc.exotic):
            _fail(f, sc, f"scenario {sc.id}: combat {' '.join(sc.combat)} and exotic "
                  f"{' '.join(sc.exotic) or '-'}: an Exotic Magic Phase (L263, L672) needs "
                  "'exotic' in combat and the forces that have one")
    for sid, rule in _SCENARIO_RULES.items():
        sc = data.scenarios.get(sid)
        if sc is None:
            raise DataError(f, 0, f"missing scenario {sid} ({rule['cite']})")
        for key in ("name", "turns", "combat", "deploy", "moon", "exotic", "special", "keep_out",
                    "garrison", "best_friends", "independents", "reserve",
                    "deploy_first"):
            want = rule.get(key, {"moon": None, "independents": False, "deploy_first": "listed"}.get(key, ()))
            if getattr(sc, key) != want:
                _fail(f, sc, f"scenario {sid}: {key} {getattr(sc, key)!r}, but the rulebook has "
                      f"{want!r} ({rule['cite']})")
        want = list(rule.get("takes", ()))
        for force in rule.get("battalia", ()):
            want += [f"{x.id} all" for x in data.formations.values()
                     if x.force == force and x.battalia]
        got = sorted(t.text for t in sc.takes)
        if got != sorted(want):
            _fail(f, sc, f"scenario {sid}: the forces {got} are not those of the rulebook "
                  f"{sorted(want)} ({rule['cite']})")


def _check_tables(t):
    f = "tables.txt"
    if t.attack_beyond != ATTACK_FRACTIONS:
        raise DataError(f, 0, f"[table attack_beyond_60]: {t.attack_beyond} are not 1/6 1/4 1/3 "
                        "1/2 3/4 1 (L1086-L1091)")
    if t.attack_max_total != 60 or t.attack_die != (1, 6):
        raise DataError(f, 0, "[limits attack]: the table ends at 60; dice are 1..6 (L1082)")
    if t.missile_roll != (0, 7) or t.missile_ridge_divisor != 2:
        raise DataError(f, 0, "[limits missile]: results are clamped to 0..7 and the total halved "
                        "up a ridge (L1117)")
    for a in range(8):
        for total in range(21):
            if (a and t.missile[a, total] < t.missile[a - 1, total]) or \
                    (total and t.missile[a, total] < t.missile[a, total - 1]):
                raise DataError(f, 0, f"Missile Fire Table: roll {a} total {total} is milder than "
                                "a lower roll or total (L1122-L1129)")
    for phase in t.moon_phases:
        if MOON_CYCLIC.get(phase.id) != phase.cyclic or MOON_MOVEMENT.get(phase.id) != phase.movement:
            raise DataError(f, 0, f"moon phase {phase.id}: {phase.movement}, cyclic {phase.cyclic}; "
                            f"the rulebook has {MOON_MOVEMENT.get(phase.id)}, cyclic "
                            f"{MOON_CYCLIC.get(phase.id)} (L398, L410, L433, L664, L694)")
    if [p.id for p in t.moon_phases] != list(MOON_CYCLIC) or \
            [p.order for p in t.moon_phases] != list(range(1, 8)):
        raise DataError(f, 0, f"moon phases must be {', '.join(MOON_CYCLIC)} in order (L433)")
    if t.moon["glowline"] != GLOWLINE_CYCLIC or t.moon["half_cyclic"] != Fraction(1, 2):
        raise DataError(f, 0, "[limits moon]: the Glowline value is 7, half-cyclic is half (L398, "
                        "L662, L696)")
    sheet = t.missile_terrain_modifiers
    for hexes in (t.terrain, t.structures):
        for row in hexes.values():
            if row.nomad_gods_only:
                continue
            parts = _MISSILE_HEX_PARTS.get(row.id, (row.id,))
            want = min((sheet.get(p, 0) for p in parts), default=0)
            if row.missile != want:
                raise DataError(f, 0, f"{row.name}: missile modifier {row.missile} (L335-L355), "
                                f"but the reference sheet's worst for {', '.join(parts)} is {want} "
                                "(L1113-L1115)")
    for key in ("dragon", "small_targets", "large_targets"):
        a, b = t.unit_modifiers.get(key, {}).get("missile"), t.missile_unit_modifiers.get(key)
        if a is None or a != b:
            raise DataError(f, 0, f"missile unit modifier {key}: {a} (L382-L384) and {b} "
                            "(L1107-L1109) must agree")
    if t.missile_over_20 != t.missile_columns[-1]:
        raise DataError(f, 0, f"[limits missile]: over_20_column {t.missile_over_20} is not the "
                        f"last column {t.missile_columns[-1]}")
    for fid, feat in t.features.items():
        for road in feat.get("except", {}).get("words", ()):
            if road not in t.roads:
                raise DataError(f, 0, f"[feature {fid}]: except {road!r} is not a [road]")
    missing = sorted(_NOTATION_MARKS - set(t.notation))
    if missing:
        raise DataError(f, 0, f"[table notation] lacks {missing} (L390-L431)")
    for code, res in t.missile_results.items():
        m = re.fullmatch(r"(\d)D([DE])", code)
        n = int(m.group(1)) if m else 0
        want = (n, 0) if m and m.group(2) == "D" else (0, n)
        if (res.disrupted, res.eliminated) != want:
            raise DataError(f, 0, f"missile result {code}: {res.disrupted} disrupted, "
                            f"{res.eliminated} eliminated; the code says {want[0]} and {want[1]} "
                            "(L1131)")
    for name, ids in _TABLE_ROWS.items():
        got = tuple(getattr(t, name))
        if got != ids:
            raise DataError(f, 0, f"{name}: rows {', '.join(got)}; the rulebook prints "
                            f"{', '.join(ids)} ({', '.join(t.cite.get(name, ()))})")
    for rid, (cost, free) in _ROADS.items():
        if (t.roads[rid]["cost"], t.roads[rid]["free_every"]) != (cost, free):
            raise DataError(f, 0, f"[road {rid}]: costs {cost} MP" + (f", every {free}rd hex "
                            "free" if free else "") + " (L363, L364)")
    for rows in (t.terrain, t.structures):
        for row in rows.values():
            for value in (row.phys_magic, row.melee, row.melee_outside):
                if value not in (None, 1, Fraction(3, 2), 2):
                    raise DataError(f, 0, f"{row.name}: CF multiplier {value}; the tables print "
                                    "only x1½ and x2 (L335-L355)")
            if not 1 <= row.movement <= 3 or not -4 <= row.missile <= 0:
                raise DataError(f, 0, f"{row.name}: {row.movement} MP and missile {row.missile} "
                                "are outside the printed 1..3 MP and -4..0 (L335-L355)")
    if set(t.missile_results) != set(MISSILE_SEVERITY):
        raise DataError(f, 0, f"[table missile_results]: codes {sorted(t.missile_results)} are "
                        f"not {', '.join(MISSILE_SEVERITY)} (L1131)")
    if t.heroic_escape != {"hero": 4, "superhero": 3}:
        raise DataError(f, 0, "[table heroic_escape]: heroes escape on 4-6, superheroes on 3-6 "
                        "(L642)")
    _check_diplomacy_tables(t)


def _check_diplomacy_tables(t):
    """The tables of diplomacy and the Independents against their other prints."""
    f = "tables.txt"
    if t.alliance_dp != ALLIANCE_DP:
        raise DataError(f, 0, f"[table alliance_dp]: {t.alliance_dp}; the rulebook prints "
                        f"{ALLIANCE_DP} (L64-L70, L738-L798, L1002, L1135)")
    emissary = {r: (v["alliance"], v["emissary"], v["stack"]) for r, v in t.emissary.items()}
    if emissary != _EMISSARY:
        raise DataError(f, 0, "[table emissary]: 1-2 denied and the emissary's stack eliminated, "
                        "3 denied, 4-6 granted (L811-L813, L996-L998, L1137)")
    luck = {r: (v["result"], v["unit"]) for r, v in t.dwarf_luck.items()}
    if luck != _DWARF_LUCK:
        raise DataError(f, 0, "[table dwarf_luck]: 1 emissary slain, 2-3 Stone Man, 4 Cannon "
                        "Cult, 5 Alchemical Transformer, 6 The Dwarf allies (L862-L866, L1139)")
    if t.plague_exempt != _PLAGUE_EXEMPT:
        raise DataError(f, 0, f"[table plague_exempt]: {t.plague_exempt}; L973 spares "
                        f"{', '.join(_PLAGUE_EXEMPT)}")
    for roll, mgf in t.hydra.items():
        if mgf["mgf"] != -roll or mgf["feed"] != roll:
            raise DataError(f, 0, f"[table hydra] {roll}: MgF {mgf['mgf']}, fed {mgf['feed']}; "
                            f"the die gives the chaotic MgF -{roll} and it is fed {roll} units "
                            "(L880)")


# ------------------------------------------------------------ loading ----

def load(data_dir=None):
    """Parse and check the files of ``data_dir`` (default: the package's data/).

    Returns a :class:`UnitData`; raises :class:`DataError` (a ``ValueError``)
    naming the file, line and problem.
    """
    data_dir = Path(data_dir) if data_dir is not None else DATA_DIR
    formations, units, raw_scenarios, lines = _parse_units(data_dir)
    tables = _parse_tables(data_dir)
    indep_formations, indep_units, _, indep_lines = _parse_units(data_dir, INDEPENDENTS_FILE)
    # one name space for both files' ids, checked before the scenarios read both
    for fid, form in indep_formations.items():
        if fid in formations:
            raise DataError(INDEPENDENTS_FILE, form.line, f"formation {fid}: already a formation of units.txt")
    for uid, unit in indep_units.items():
        if uid in units:
            raise DataError(INDEPENDENTS_FILE, unit.line, f"unit {uid}: already a unit of units.txt")
    scenarios = _parse_scenarios(raw_scenarios, {**formations, **indep_formations},
                                 {**units, **indep_units}, {**lines, **indep_lines})
    data = UnitData(units, formations, scenarios, tables, indep_units, indep_formations)
    _check(data)
    return data


def attack_loss(total, die, tables=None):
    """The loss the Attack Table inflicts (L1048-L1093).

    ``total``: the attacking MgF or CF total (fractions are dropped, L1082);
    ``die``: the modified roll, clamped to 1..6 (L1082). Totals above 60 take
    1/6, 1/4, 1/3, 1/2, 3/4 or all of the total, fractions dropped (L1084-L1093).
    """
    t = tables or DATA.tables
    total = math.floor(total)
    die = min(max(int(die), t.attack_die[0]), t.attack_die[1])
    if total <= 0:
        return 0
    if total <= t.attack_max_total:
        return int(t.attack[total, die])
    return math.floor(t.attack_beyond[die - 1] * total)


def missile_result(total, roll, tables=None):
    """The Missile Fire Table's result code ('-', '1DD', ...; L1119-L1131).

    ``total``: the Missile Factor total, already halved when firing up a ridge
    (fractions dropped); totals above 20 read the 17-20 column (authored).
    ``roll``: the die roll with the worst terrain modifier and every unit
    modifier applied, clamped to 0..7 (L564, L1117).
    """
    t = tables or DATA.tables
    total = min(max(math.floor(total), 0), t.missile.shape[1] - 1)
    roll = min(max(int(roll), t.missile_roll[0]), t.missile_roll[1])
    return t.missile_codes[int(t.missile[roll, total])]


def cyclic_value(phase, glowline=False, tables=None):
    """A cyclic factor's value in ``phase`` (an id of MOON_CYCLIC); 7 inside the
    Glowline or a Glowspot (L398, L662, L666)."""
    t = tables or DATA.tables
    return t.moon["glowline"] if glowline else t.cyclic[phase]


DATA = load()
"""The data folder, loaded and checked at import."""
