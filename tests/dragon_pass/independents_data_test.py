"""The Dragon Pass Independents' and special units' counters (L730-L920):
data/independents.txt as printed, what is authored, and clear errors from a
broken file. Pure Python.

Lines (L123) are lines of shared/rules/dragon_pass.txt; what is authored and
why is in envs/dragon_pass/SUBSTITUTES.md ("Units of the Independents and
special units").
"""
import shutil

import pytest

from dragongym.envs.dragon_pass import mapdata, unitdata as U
from tests.core.datafile_edits import edit, line_of

D = U.DATA
IU, IF = D.independent_units, D.independent_formations
RULEBOOK = U.DATA_DIR.parents[3] / "shared" / "rules" / "dragon_pass.txt"


def rule_line(n):
    return RULEBOOK.read_text(encoding="utf-8").splitlines()[n - 1] if RULEBOOK.exists() else None


def of(faction):
    """The unit ids of an Independent, in file order."""
    fid = next(f.id for f in IF.values() if f.faction == faction)
    return D.independents_of(fid)


def counts(faction):
    return {u: IU[u].counters for u in of(faction)}


def factors(side):
    return (side.cf_kind, side.cf, side.missile, side.leadership, side.single, side.mgf_kind,
            side.mgf, side.exotic, side.mf_kind, side.mf, side.rune, side.rf_kind, side.rf)


# ------------------------------------------------- kept apart from the game ----

def test_rule_dp_indep_counters_are_kept_apart_from_the_battalia():
    """The Independents' counters are in fields of their own, force
    independent, of no Battalia (L269, L297); only 18.6's Independent side
    (its four Major Independents, L284-L289) and 18.8's Tarsh player (those
    four, the Dwarf with his gifts and the Dragonewts, L305) deploy them."""
    assert IU and IF
    assert not set(IU) & set(D.units) and not set(IF) & set(D.formations)
    assert all(u.force in U.FORCES for u in D.units.values())
    assert all(u.force == U.INDEPENDENT and set(u.deploys) <= {"18.6", "18.8"} for u in IU.values())
    assert {u.formation for u in IU.values() if "18.6" in u.deploys} == {"AN", "EX", "GZ", "HB"}
    assert {u.formation for u in IU.values() if "18.8" in u.deploys} == {"AN", "EX", "GZ", "HB", "DW", "DN"}
    assert all(f.force == U.INDEPENDENT and not f.battalia for f in IF.values())
    assert set(D.scenarios) == {"18.1", "18.2", "18.3", "18.4", "18.5", "18.6", "18.7", "18.8", "18.9"}


def test_rule_dp_indep_the_independents_and_their_groups():
    """Major Independents (L730-L802), Minor Independents (L804-L912) and the
    giants, the special units (L914-L920): one formation each."""
    groups = {f.faction: f.group for f in IF.values()}
    assert sorted(groups) == sorted(U.FACTIONS)
    assert sorted(k for k, g in groups.items() if g == "major") == sorted(
        ["dragonewts", "black_horse", "cragspider", "exiles", "half_beasts", "grazelanders",
         "androgeus"])
    assert sorted(k for k, g in groups.items() if g == "minor") == sorted(
        ["delecti", "dinosaurs", "dragons", "dwarf", "hungry_jack", "hydra", "puppeteers",
         "spirit_of_movement", "sun_dome_templars", "tusk_riders"])
    assert [k for k, g in groups.items() if g == "special"] == ["giants"]


def test_rule_dp_indep_major_independents_diplomacy_points():
    """L738-L798, L1002: "Dragonewts 45, Ethilrist 25, Cragspider 25, Exiles
    20, Ironhoof 15, Grazelanders 15, Androgeus 10"; minors are allied by
    emissaries (L806, L815), the giants by Random Event (L918): no price."""
    dp = {f.faction: f.dp for f in IF.values()}
    assert {k: v for k, v in dp.items() if v is not None} == {
        "dragonewts": 45, "black_horse": 25, "cragspider": 25, "exiles": 20, "half_beasts": 15,
        "grazelanders": 15, "androgeus": 10}
    assert all(IF[f].dp is None for f in IF if IF[f].group != "major")
    assert not any("dp" in f.substituted for f in IF.values())


def test_rule_dp_indep_counter_colours():
    """L115-L121: Cragspider yellow on black, Sun Dome Templars yellow on grey,
    Black Horse County grey, Wintertop lime green, Dinosaurs purple on brown,
    Grazelanders yellow, Dragonewts purple, Beasts' Valley light blue, Dwarf
    magenta; the rest is authored."""
    colour = {f.faction: f.colour for f in IF.values()}
    assert {k: colour[k] for k in ("cragspider", "sun_dome_templars", "black_horse", "exiles",
                                    "dinosaurs", "grazelanders", "dragonewts", "half_beasts",
                                    "dwarf")} == {
        "cragspider": "yellow_on_black", "sun_dome_templars": "yellow_on_grey",
        "black_horse": "grey", "exiles": "lime_green", "dinosaurs": "purple_on_brown",
        "grazelanders": "yellow", "dragonewts": "purple", "half_beasts": "light_blue",
        "dwarf": "magenta"}
    for f in IF.values():
        assert ("colour" in f.substituted) == (f.faction in (
            "androgeus", "delecti", "dragons", "hungry_jack", "hydra", "puppeteers",
            "spirit_of_movement", "tusk_riders", "giants")), f.id


def test_rule_dp_indep_factions_are_the_maps_nations_and_homes():
    """The factions carry the names of map.txt's capitals (L740-L792) and
    minor Independents' homes (L817-L906)."""
    m = mapdata.MAP
    assert set(m.capitals) - {"lunar", "sartar"} <= set(U.FACTIONS)
    assert set(m.homes) <= set(U.FACTIONS)


def test_rule_dp_indep_how_many_counters():
    """Every counter the lists print (L746-L920): 18 formations, 68 kinds of
    counter, 144 counters (the Dwarf's gifts authored: 2 Stone Men, 1 Cannon
    Cult and its Agent, 1 Alchemical Transformer)."""
    assert (len(IF), len(IU), sum(u.counters for u in IU.values())) == (18, 68, 144)
    per = {f.faction: sum(IU[u].counters for u in D.independents_of(f.id)) for f in IF.values()}
    assert per == {"dragonewts": 21, "black_horse": 14, "cragspider": 8, "exiles": 18,
                   "half_beasts": 11, "grazelanders": 14, "androgeus": 1, "delecti": 13,
                   "dinosaurs": 15, "dragons": 3, "dwarf": 6, "hungry_jack": 1, "hydra": 1,
                   "puppeteers": 6, "spirit_of_movement": 1, "sun_dome_templars": 3,
                   "tusk_riders": 5, "giants": 3}


# ------------------------------------------------------- Major Independents ----

def test_rule_dp_indep_dragonewts_printed_units():
    """L746: 1x Inhuman King (8!)-8-8-8, 1x his Spirit X-8-X-8, 3x Priests
    6-5-8 Water Rune-8, 3x Priests' Spirits X-5-X-8, 5x Beaked 5-5-5-X, 3x
    Mounted Crested 2**-4-4-X, 5x Crested 2*-2-4-X."""
    assert counts("dragonewts") == {"inhuman_king": 1, "inhuman_king_spirit": 1, "dn_priests": 3,
                                    "dn_priests_spirit": 3, "dn_beaked": 5,
                                    "dn_mounted_crested": 3, "dn_crested": 5}
    k = IU["inhuman_king"]
    assert (k.front.cf, k.front.leadership, k.front.mgf, k.front.mf, k.front.rf) == (8, 1, 8, 8, 8)
    assert k.hero and k.heroic and k.magician == "spirit"
    p = IU["dn_priests"]
    assert (p.front.cf, p.front.mgf, p.front.mf, p.front.rune, p.front.rf) == (6, 5, 8, "water", 8)
    assert p.magician == "spirit" and IU["dn_priests_spirit"].spirit_of == "dn_priests"
    assert (IU["dn_mounted_crested"].front.missile, IU["dn_crested"].front.missile) == (2, 1)


def test_rule_dp_indep_inhuman_king_disrupted_side_and_spirit():
    """L626: Inhuman King (8!)-8-8-8 / (4)-4-8-0, a Spirit X-8-X-8 / X-4-X-4."""
    k, s = IU["inhuman_king"], IU["inhuman_king_spirit"]
    assert (k.back.cf, k.back.leadership, k.back.mgf, k.back.mf, k.back.rf) == (4, 0, 4, 8, 0)
    assert s.spirit_of == "inhuman_king" and (s.front.mgf, s.front.rf, s.back.mgf, s.back.rf) == \
        (8, 8, 4, 4)
    assert s.front.cf_kind == "blank" and s.front.mf_kind == "blank" and not s.major


def test_rule_dp_indep_ethilrist_and_the_black_horse_troop():
    """L758: Sir Ethilrist (4!!)-10*-7-X, Hell Hound 10-10*-10*-X, 7x Black
    Horse Troops 5-5-7-X, 2x Auxiliaries 3-3-4-X, Cloak of Darkness
    X-*-0-(10), Goblins 6-2-15-X, Keener Than (1)-4-10-0; L627: his disrupted
    side (2)-5*-7-X; L754: MF 10 on the Hound; L752: the Cloak reaches 10
    hexes."""
    assert counts("black_horse") == {"ethilrist": 1, "hell_hound": 1, "bh_troops": 7,
                                     "bh_auxiliaries": 2, "cloak_of_darkness": 1, "goblins": 1,
                                     "keener_than": 1}
    e = IU["ethilrist"]
    assert e.hero and (e.front.cf, e.front.leadership, e.front.mgf, e.front.exotic) == \
        (4, 2, 10, True)
    assert (e.back.cf, e.back.leadership, e.back.mgf, e.back.exotic, e.back.mf) == \
        (2, 0, 5, True, 7)
    h = IU["hell_hound"]
    assert (h.front.cf, h.front.mf, h.front.unusual, h.front.exotic) == (10, 10, True, True)
    c = IU["cloak_of_darkness"]
    assert (c.front.cf_kind, c.front.mgf_kind, c.front.mf, c.front.rf, c.front.rf_special) == \
        ("blank", "special", 0, 10, True) and not c.major and c.magician is None
    assert (IU["goblins"].front.cf, IU["goblins"].front.mf) == (6, 15)
    k = IU["keener_than"]
    assert k.front.single and k.front.leadership == 0 and k.rank == "none" and not k.major


def test_rule_dp_indep_cragspider_her_spirit_and_the_dark_trolls():
    """L770: Cragspider (4!)-7*-5-7, her Spirit X-7-X-7, 3x Dark Trolls 6-6-6-X,
    2x Trollkin 3-2-3-X (L766: "3 Troll and 2 Trollkin units"); L631: (2)-4-5-0,
    spirit X-4-X-4; the Pillar of Fire within her RF of 7 (L718, L764)."""
    assert counts("cragspider") == {"cragspider": 1, "cragspider_spirit": 1, "black_dragon": 1,
                                    "dark_trolls": 3, "trollkin": 2}
    c = IU["cragspider"]
    assert c.hero and c.magician == "spirit" and c.front.rf == 7 and c.front.exotic
    assert (c.front.cf, c.front.leadership, c.front.mgf, c.front.mf) == (4, 1, 7, 5)
    assert (c.back.cf, c.back.mgf, c.back.exotic, c.back.mf, c.back.rf) == (2, 4, False, 5, 0)
    s = IU["cragspider_spirit"]
    assert s.spirit_of == "cragspider" and (s.front.mgf, s.front.rf, s.back.mgf, s.back.rf) == \
        (7, 7, 4, 4)
    assert factors(IU["dark_trolls"].front)[:2] == ("number", 6) and IU["trollkin"].front.mgf == 2


def test_rule_dp_indep_the_black_dragon_printed_factors():
    """L770, L843: Cragspider's Black Dragon = - infinity* - 20 Air Rune - 0,
    disrupted = - infinity* - 20 - 0; hers (L768, L841), and a dragon."""
    b = IU["black_dragon"]
    assert b.formation == "CS" and IF["CS"].faction == "cragspider"
    assert (b.front.cf_kind, b.front.mgf_kind, b.front.exotic, b.front.mf, b.front.rune,
            b.front.rf) == ("equal", "infinity", True, 20, "air", 0)
    assert (b.back.cf_kind, b.back.mgf_kind, b.back.exotic, b.back.mf, b.back.rune,
            b.back.rf) == ("equal", "infinity", True, 20, None, 0)
    assert "dragon" in b.tags and b.major and b.counters == 1


def test_rule_dp_indep_the_four_dragons_are_immune_to_magic_and_marked_as_dragons():
    """L839-L849: a Red, a Green, a Brown and the Black Dragon, all
    = - infinity* - 20 Air Rune - 0; "=" is a dragon's CF (L397), infinity
    makes it invulnerable to spirit magic (L406, L849); the Missile modifier
    asks about dragons (L382)."""
    dragons = sorted(u.id for u in IU.values() if "dragon" in u.tags)
    assert dragons == ["black_dragon", "brown_dragon", "green_dragon", "red_dragon"]
    first = IU["red_dragon"]
    for d in dragons:
        u = IU[d]
        assert u.front.factors() == first.front.factors() and u.back.factors() == \
            first.back.factors()
        assert u.front.cf_kind == "equal" and u.front.mgf_kind == "infinity" and u.major
        assert u.counters == 1 and u.magician is None
    assert set(D.independents_of("DR")) == {"red_dragon", "green_dragon", "brown_dragon"}
    assert [u.id for u in IU.values() if u.front.cf_kind == "equal"] == \
        [u.id for u in IU.values() if "dragon" in u.tags]
    assert not any("dragon" in u.tags for u in D.units.values())


def test_rule_dp_indep_the_exiles_printed_units():
    """L778: Twins (2!)-5-5-X, Assassin X-*-*-X, Earth Shaker's Cult
    2-4*-3 Stone Rune-10 and its Spirit X-4-X-10, Moon Hater's 3-6-5-5 and
    Spirit X-6-X-5, Baron's Friends 3-6-3 Stone Rune-5 and Spirit, Old School
    2-5-3 Stone Rune-5 and Spirit X-5-X-5, 1x Cavalry 4-4-5-X, 2x Light
    Cavalry 3-3-5-X, 3x Infantry 3-3-3-X, 2x Archers 2*-2-4-X; the quake
    within the cult's RF of 10 (L720)."""
    assert counts("exiles") == {
        "twins": 1, "exiles_assassin": 1, "earth_shakers_cult": 1,
        "earth_shakers_cult_spirit": 1, "moon_haters": 1, "moon_haters_spirit": 1,
        "barons_friends": 1, "barons_friends_spirit": 1, "old_school": 1,
        "old_school_spirit": 1, "ex_cavalry": 1, "ex_light_cavalry": 2, "ex_infantry": 3,
        "ex_archers": 2}
    assert IU["exiles_assassin"].assassin
    esc = IU["earth_shakers_cult"]
    assert (esc.front.mgf, esc.front.exotic, esc.front.rune, esc.front.rf) == (4, True, "stone", 10)
    mages = [u for u in of("exiles") if IU[u].magician]
    assert sorted(mages) == ["barons_friends", "earth_shakers_cult", "moon_haters", "old_school"]
    for m in mages:
        s = IU[m + "_spirit"]
        assert s.spirit_of == m and (s.front.mgf, s.front.rf) == (IU[m].front.mgf, IU[m].front.rf)
    assert IU["ex_archers"].front.missile == 1 and IU["ex_infantry"].arm == "infantry"


def test_rule_dp_indep_the_twins_are_a_hero():
    """L633: Twins (2!)-5-5-X / (1)-3-5-X, among the heroes; Androgeus' best
    friend only in 18.6 and 18.8 (L291, L311), not on the counter (L615)."""
    t = IU["twins"]
    assert t.hero and t.heroic and (t.front.cf, t.front.leadership, t.front.mgf, t.front.mf) == \
        (2, 1, 5, 5)
    assert (t.back.cf, t.back.leadership, t.back.mgf, t.back.mf) == (1, 0, 3, 5)
    assert IU["androgeus"].best_friend is None


def test_rule_dp_indep_ironhoof_and_the_half_beasts():
    """L788: Ironhoof (4!)-10*-7-X, 2x Satyrs 1**-3-5-X, 3x Minotaurs 5-5-5-X,
    1x Manticore 6-3-5-X, 4x Centaurs 3*-3-6-X; L628: (2)-5*-7-X."""
    assert counts("half_beasts") == {"ironhoof": 1, "satyrs": 2, "minotaurs": 3, "manticore": 1,
                                     "centaurs": 4}
    i = IU["ironhoof"]
    assert i.hero and (i.front.cf, i.front.mgf, i.front.exotic, i.front.mf) == (4, 10, True, 7)
    assert (i.back.cf, i.back.mgf, i.back.exotic, i.back.mf) == (2, 5, True, 7)
    assert (IU["satyrs"].front.cf, IU["satyrs"].front.missile) == (1, 2)
    assert IU["centaurs"].front.missile == 1 and IU["centaurs"].arm != "cavalry"


def test_rule_dp_indep_the_grazeland_pony_breeders_and_their_horse_herds():
    """L796: Feathered Horse Queen (4!)-10-7-X, Golden Bow Warriors 1**-7-7-0,
    2x Clans 6-4-5-X, 2x Clans 3-7-2-X, 4x Clans 2*-4-7-X, 4x Horse Herds
    1h-2-+2-X; L629: (2)-5-7-X; herds give +2 MF (L137, L478, L794)."""
    assert counts("grazelanders") == {"feathered_horse_queen": 1, "golden_bow_warriors": 1,
                                      "gz_clans_6_4_5": 2, "gz_clans_3_7_2": 2,
                                      "gz_clans_2_4_7": 4, "horse_herds": 4}
    q = IU["feathered_horse_queen"]
    assert q.hero and (q.back.cf, q.back.mgf, q.back.mf) == (2, 5, 7)
    h = IU["horse_herds"]
    assert h.front.herd and (h.front.cf, h.front.mf_kind, h.front.mf) == (1, "plus", 2)
    assert "herd" in h.tags and h.back.herd and h.back.mf_kind == "plus"
    g = IU["golden_bow_warriors"]
    assert (g.front.missile, g.front.rf) == (2, 0) and g.magician is None


def test_rule_dp_indep_the_only_cavalry_units():
    """L786: all units of the Pony Breeders other than the Feathered Horse Queen
    (the herds included), the Exiles' cavalry and the Moon Haters, and Sir
    Ethilrist's Black Horse Troops are cavalry; no other unit is."""
    cavalry = {u.id for u in IU.values() if u.arm == "cavalry"}
    assert cavalry == {"golden_bow_warriors", "gz_clans_6_4_5", "gz_clans_3_7_2",
                       "gz_clans_2_4_7", "horse_herds", "ex_cavalry", "ex_light_cavalry",
                       "moon_haters", "bh_troops"}
    assert IU["feathered_horse_queen"].arm == "none"
    assert not any("arm" in IU[u].substituted for u in cavalry)


def test_rule_dp_indep_androgeus_is_a_superhero():
    """L615, L802: Androgeus (20!!)-infinity-6-X, Berserker Rage
    (20)-20-12-1; "no best friend unless assigned one by a scenario"."""
    a = IU["androgeus"]
    assert a.superhero and a.heroic and a.back_side == "berserk" and a.best_friend is None
    assert (a.front.cf, a.front.leadership, a.front.mgf_kind, a.front.mf) == (20, 2, "infinity", 6)
    assert (a.back.cf, a.back.mgf, a.back.mf, a.back.rf) == (20, 20, 12, 1)
    assert IF[a.formation].dp == 10


def test_rule_dp_indep_the_heroes_table():
    """L626-L633 (Other Heroes): the Inhuman King, Sir Ethilrist, Ironhoof,
    the Feathered Horse Queen, Cragspider, the Dwarf and the Twins are heroes;
    Androgeus a superhero (L615); no other Independent is either."""
    ranks = {u.id: u.rank for u in IU.values() if u.rank != "none"}
    assert ranks == {"inhuman_king": "hero", "ethilrist": "hero", "ironhoof": "hero",
                     "feathered_horse_queen": "hero", "cragspider": "hero", "dwarf": "hero",
                     "twins": "hero", "androgeus": "superhero"}
    for uid in ranks:
        u = IU[uid]
        assert u.front.single and u.front.leadership >= 1 and u.heroic and u.arm == "none"
        assert not {"front", "back"} & u.substituted


# ------------------------------------------------------- Minor Independents ----

def test_rule_dp_indep_delecti_and_his_twelve_zombies():
    """L831: Delecti (5)-10*-3-0, 12x Zombies 2-*-2*-X; "There are 12 zombies,
    each with an MF of 2" (L486), at most 12 on the board (L821)."""
    assert counts("delecti") == {"delecti": 1, "zombies": 12}
    d, z = IU["delecti"], IU["zombies"]
    assert (d.front.cf, d.front.single, d.front.mgf, d.front.exotic, d.front.mf, d.front.rf) == \
        (5, True, 10, True, 3, 0)
    assert d.rank == "none" and not d.major and d.magician is None
    assert (z.front.cf, z.front.mgf_kind, z.front.mf, z.front.unusual) == (2, "special", 2, True)
    assert z.major


def test_rule_dp_indep_the_dinosaurs():
    """L837: 3x Brontosauri 2h-10-3-X, 3x Pteradons 4-2-10 Air Rune-X, 3x
    Trachodons 1-4-3-10, 3x Trachodons' Spirits X-4-X-10, 3x Tricerotops
    Spirits 10-2-4-X; one dinosaur per dinosaur symbol of the map (L835)."""
    assert counts("dinosaurs") == {"brontosauri": 3, "pteradons": 3, "trachodons": 3,
                                   "trachodons_spirit": 3, "tricerotops_spirits": 3}
    t = IU["trachodons"]
    assert t.magician == "spirit" and IU["trachodons_spirit"].spirit_of == "trachodons"
    tri = IU["tricerotops_spirits"]
    assert tri.spirit_of is None and tri.major and (tri.front.cf, tri.front.mf) == (10, 4)
    assert IU["pteradons"].front.rune == "air" and IU["brontosauri"].front.herd
    physical = sum(IU[u].counters for u in of("dinosaurs") if IU[u].front.cf_kind != "blank")
    assert physical == len(mapdata.MAP.dinosaur_symbols) == 12


def test_rule_dp_indep_the_dwarf_and_his_gifts():
    """L859-L866: the Dwarf (3!)-7-4-X (L632: (2)-4-4-X), the Stone Man
    (8)-2-3 Stone Rune-X (a physical minor unit, L129), the Cannon Cult
    8-7-3-3 and its Agent 7-X-X-3, the Alchemical Transformer 2-x2-3-x2."""
    d = IU["dwarf"]
    assert d.hero and (d.front.cf, d.front.leadership, d.front.mgf, d.front.mf) == (3, 1, 7, 4)
    assert (d.back.cf, d.back.mgf, d.back.mf) == (2, 4, 4)
    s = IU["stone_men"]
    assert s.front.single and not s.major and s.front.rune == "stone" and s.front.cf == 8
    c, a = IU["cannon_cult"], IU["cannon_cult_agent"]
    assert c.magician == "physical" and c.front.physical and a.agent_of == "cannon_cult"
    assert (a.front.cf, a.front.mgf_kind, a.front.mf_kind, a.front.rf) == (7, "blank", "blank", 3)
    t = IU["alchemical_transformer"]
    assert (t.front.mgf_kind, t.front.rf_kind) == ("double", "double") and t.magician is None
    for gift in ("stone_men", "cannon_cult", "cannon_cult_agent", "alchemical_transformer"):
        assert "counters" in IU[gift].substituted


def test_rule_dp_indep_hungry_jack_cannot_move_himself():
    """L876: Hungry Jack 2-0*-0-X: MF 0, only a dragon carries him (L462,
    L870); chaotic but without chaotic magic (L435): MgF not negative."""
    j = IU["hungry_jack"]
    assert (j.front.cf, j.front.mgf, j.front.exotic, j.front.mf) == (2, 0, True, 0)
    assert j.counters == 1


def test_rule_dp_indep_the_hydra_and_the_crimson_bat_are_the_only_chaotic_units():
    """L882: Hydra 5 - -N - 4 - X, its MgF a die roll, negative (L136, L409,
    L880); L136, L435: the only two chaotic units are the Hydra and the Bat."""
    h = IU["hydra"]
    assert (h.front.cf, h.front.mgf_kind, h.front.mgf, h.front.mf) == (5, "die", -1, 4)
    chaotic = [u.id for u in list(D.units.values()) + list(IU.values())
               if u.front.mgf is not None and u.front.mgf < 0]
    assert sorted(chaotic) == ["crimson_bat", "hydra"]


def test_rule_dp_indep_the_puppeteers_and_five_illusory_armies():
    """L892: Puppeteer Troop 2-4*-4-(8), 5x Illusionary Armies 5-2*-*-X; the
    armies within the Puppeteers' RF of 8 (L724, L888), 5 pieces (L886)."""
    assert counts("puppeteers") == {"puppeteer_troop": 1, "illusory_armies": 5}
    p = IU["puppeteer_troop"]
    assert (p.front.rf, p.front.rf_special, p.front.exotic) == (8, True, True)
    assert p.magician is None
    a = IU["illusory_armies"]
    assert (a.front.cf, a.front.mgf, a.front.exotic, a.front.mf_kind) == (5, 2, True, "special")


def test_rule_dp_indep_the_spirit_of_movement():
    """L898: X-5-x2-1; doubles the MF of units stacked with it (L420, L490);
    a minor unit (L129); not a magician (L1028)."""
    s = IU["spirit_of_movement"]
    assert (s.front.cf_kind, s.front.mgf, s.front.mf_kind, s.front.rf) == ("blank", 5, "double", 1)
    assert not s.major and s.magician is None and s.spirit_of is None


def test_rule_dp_indep_sun_dome_templars_and_tusk_riders():
    """L904: 3x Sun Dome Templars 5-5*-3-X; L484, L912: "There are 5 Tusk
    Riders, each with an MF of 5", 5-4-5*-X, the * their unusual movement."""
    t = IU["sun_dome_templars"]
    assert t.counters == 3 and (t.front.cf, t.front.mgf, t.front.exotic, t.front.mf) == \
        (5, 5, True, 3)
    r = IU["tusk_riders"]
    assert r.counters == 5 and (r.front.cf, r.front.mgf, r.front.mf, r.front.unusual) == \
        (5, 4, 5, True)
    assert r.arm != "cavalry"


# ------------------------------------------------------------- special units ----

def test_rule_dp_indep_the_giants():
    """L920: 3x Giants 15-10-7-X; L686: disrupted 8-5-4-X; a Giant target
    (L384); special units (L914)."""
    g = IU["giants"]
    assert g.counters == 3 and IF[g.formation].group == "special"
    assert (g.front.cf, g.front.mgf, g.front.mf) == (15, 10, 7)
    assert (g.back.cf, g.back.mgf, g.back.mf) == (8, 5, 4) and "back" not in g.substituted
    assert [u.id for u in IU.values() if "giant" in u.tags] == ["giants"]


def test_rule_dp_indep_herds_and_no_treasures():
    """L137, L399: herds have h in their CF (the Pony Breeders' horse herds;
    the Brontosauri print one too); L138: no treasures in Dragon Pass."""
    herds = sorted(u.id for u in IU.values() if "herd" in u.tags)
    assert herds == ["brontosauri", "horse_herds"]
    assert all(IU[u].front.herd for u in herds)
    for u in list(IU.values()) + list(D.units.values()):
        assert "T" not in u.front.notation.split("-")[0]


def test_rule_dp_indep_physical_minor_units():
    """L127, L129: parenthesised CFs are minor units: heroes and superheroes,
    the Stone Men; and Delecti and Keener Than, printed (5) and (1) though
    L129's list leaves them out."""
    single = sorted(u.id for u in IU.values() if u.front.single and u.rank == "none")
    assert single == ["delecti", "keener_than", "stone_men"]
    for u in IU.values():
        if u.agent_of is None:
            assert u.major == (u.front.cf_kind != "blank" and not u.front.single), u.id


def test_rule_dp_indep_every_magician_has_one_spirit_or_agent():
    """L131-L134: spirit magicians (RF 1 or more) have a spirit with their
    MgF and RF, physical magicians an agent; L430, L1028: a parenthesised RF
    or a blank CF makes no magician."""
    mages = {u.id: u.magician for u in IU.values() if u.magician}
    assert mages == {"inhuman_king": "spirit", "dn_priests": "spirit", "cragspider": "spirit",
                     "earth_shakers_cult": "spirit", "moon_haters": "spirit",
                     "barons_friends": "spirit", "old_school": "spirit", "trachodons": "spirit",
                     "cannon_cult": "physical"}
    for m, kind in mages.items():
        link = [u for u in IU.values() if m in (u.spirit_of, u.agent_of)]
        assert len(link) == 1 and link[0].counters == IU[m].counters


def test_rule_dp_indep_disrupted_sides_use_reduced_factors():
    """L590: a disrupted unit uses reduced factors; the superhero's back is his
    Berserker Rage (L656)."""
    for u in IU.values():
        if u.back_side == "disrupted":
            assert u.back.combat_factor() <= u.front.combat_factor(), u.id
            assert u.back.missile <= u.front.missile and u.back.leadership <= u.front.leadership
            if u.front.mf_kind == "number":
                assert u.back.mf <= u.front.mf, u.id
        else:
            assert u.superhero


def test_printed_values_are_unmarked_and_authored_values_marked():
    """Every front is printed (L746-L920): none is marked '~'; the backs the
    rulebook does not print are."""
    printed_backs = {"inhuman_king", "inhuman_king_spirit", "ethilrist", "cragspider",
                     "cragspider_spirit", "black_dragon", "twins", "ironhoof",
                     "feathered_horse_queen", "androgeus", "red_dragon", "green_dragon",
                     "brown_dragon", "dwarf", "giants"}
    for u in IU.values():
        assert "front" not in u.substituted, u.id
        assert ("back" in u.substituted) == (u.id not in printed_backs), u.id
    assert "twin_stars" in D.units and "twin_stars" not in IU


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the rulebook is not beside the package")
@pytest.mark.parametrize("line, text", [
    (746, "1x Inhuman King (8!)-8-8-8, 1x Inhuman King's Spirit X-8-X-8, 3x Priests 6-5-8 Water "
          "Rune-8"),
    (758, "7x Black Horse Troops 5-5-7-X, 2x Black Horse Auxiliaries 3-3-4-X, 1x Cloak of "
          "Darkness X-*-0-(10)"),
    (770, "1x Cragspider's Black Dragon =-infinity*-20 Air Rune-0, 3x Dark Trolls 6-6-6-X"),
    (778, "1x Earth Shaker's Cult 2-4*-3 Stone Rune-10, 1x Earth Shaker's Cult Spirit X-4-X-10"),
    (788, "1x Ironhoof (4!)-10*-7-X, 2x Satyrs 1**-3-5-X, 3x Minotaurs 5-5-5-X"),
    (796, "4x Clans 2*-4-7-X, 4x Horse Herds 1h-2-+2-X"),
    (802, "Androgeus (20!!)-infinity-6-X"),
    (831, "1x Delecti (5)-10*-3-0, 12x Zombies 2-*-2*-X"),
    (837, "3x Brontosauri 2h-10-3-X, 3x Pteradons 4-2-10 Air Rune-X"),
    (843, "= - infinity* - 20 Air Rune - 0 / = - infinity* - 20 - 0"),
    (864, "Cannon Cult unit gained. 8-7-3-3 & Agent 7-X-X-3"),
    (892, "Puppeteer Troop 2-4*-4-(8), 5x Illusionary Armies 5-2*-*-X"),
    (898, "The Spirit of Movement X-5-×2-1"),
    (904, "3x Sun Dome Templars 5-5*-3-X"),
    (912, "5x Tusk Riders 5-4-5*-X"),
    (920, "3x Giants 15-10-7-X"),
    (1002, "Dragonewts 45, Ethilrist 25, Cragspider 25, Exiles 20, Ironhoof 15, Grazelanders 15, "
           "Androgeus 10"),
])
def test_the_printed_independents_are_at_the_cited_lines(line, text):
    """The values the reader holds as printed are in the rulebook where cited."""
    got = rule_line(line).replace(" – ", "-").replace("–", "-")
    assert text.replace(" – ", "-") in got or text in rule_line(line), (line, got)


# ----------------------------------------------------------- broken files ----

@pytest.fixture
def data_copy(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(U.DATA_DIR, target)
    return target


def indep(data_copy):
    return data_copy / U.INDEPENDENTS_FILE


def test_the_copied_data_loads(data_copy):
    d = U.load(data_copy)
    assert len(d.independent_units) == len(IU) and len(d.units) == len(D.units)


def test_error_black_dragons_printed_factors_are_checked(data_copy):
    f = indep(data_copy)
    edit(f, "front      =-infinity*-20 Air Rune-0\nback       =-infinity*-20-0\nscenarios  -\n"
            "cite       L382 L397 L406 L768",
         "front      =-infinity*-10 Air Rune-0\nback       =-infinity*-10-0\nscenarios  -\n"
            "cite       L382 L397 L406 L768")
    with pytest.raises(U.DataError, match=r"unit black_dragon: the rulebook prints "
                       r"=-infinity\*-20 Air Rune-0") as err:
        U.load(data_copy)
    assert err.value.file == U.INDEPENDENTS_FILE
    assert err.value.line == line_of(f, "[unit black_dragon]")


def test_error_bad_factor_notation(data_copy):
    f = indep(data_copy)
    edit(f, "front      5-5-5-X\n", "front      5-5-5\n")
    with pytest.raises(U.DataError, match=r"unit dn_beaked: front: '5-5-5' is not "
                       "CF-MgF-MF-RF") as err:
        U.load(data_copy)
    assert err.value.line == line_of(f, "front      5-5-5\n".rstrip())


def test_error_unknown_formation(data_copy):
    edit(indep(data_copy), "formation  TR\n", "formation  TX\n")
    with pytest.raises(U.DataError, match=r"unit tusk_riders: formation 'TX' is not a "
                       r"\[formation\]"):
        U.load(data_copy)


def test_error_missing_citation(data_copy):
    edit(indep(data_copy), "cite       L902 L904\n", "")
    with pytest.raises(U.DataError, match=r"\[unit sun_dome_templars\] is missing 'cite'"):
        U.load(data_copy)


def test_error_citation_outside_the_rulebook(data_copy):
    edit(indep(data_copy), "cite       L902 L904\n", "cite       L902 L9040\n")
    with pytest.raises(U.DataError, match="L9040"):
        U.load(data_copy)


def test_error_printed_count_contradicted(data_copy):
    f = indep(data_copy)
    edit(f, "counters   12\n", "counters   11\n")
    with pytest.raises(U.DataError, match=r"unit zombies: the rulebook prints 2-\*-2\*-X, none, "
                       r"12 counter"):
        U.load(data_copy)


def test_error_printed_value_marked_authored(data_copy):
    edit(indep(data_copy), "front      15-10-7-X\n", "front      15-10-7-X~\n")
    with pytest.raises(U.DataError, match=r"unit giants: front printed .*do not mark it"):
        U.load(data_copy)


def test_error_printed_back_contradicted(data_copy):
    edit(indep(data_copy), "back       8-5-4-X\n", "back       7-5-4-X\n")
    with pytest.raises(U.DataError, match=r"unit giants: the rulebook prints 15-10-7-X / 8-5-4-X"):
        U.load(data_copy)


def test_error_cavalry_that_l786_does_not_name(data_copy):
    f = indep(data_copy)
    text = f.read_text("utf-8")
    block = text[text.index("[unit bh_auxiliaries]"):]
    edit(f, block[:400], block[:400].replace("arm        infantry~", "arm        cavalry~", 1))
    with pytest.raises(U.DataError, match=r"unit bh_auxiliaries: arm cavalry; the only cavalry"):
        U.load(data_copy)


def test_error_l786_cavalry_left_out(data_copy):
    f = indep(data_copy)
    text = f.read_text("utf-8")
    block = text[text.index("[unit moon_haters]"):]
    edit(f, block[:400], block[:400].replace("arm        cavalry", "arm        infantry~", 1))
    with pytest.raises(U.DataError, match=r"unit moon_haters: arm infantry"):
        U.load(data_copy)


def test_error_diplomacy_points_contradicted(data_copy):
    edit(indep(data_copy), "dp        45\n", "dp        40\n")
    with pytest.raises(U.DataError, match=r"formation DN \(dragonewts\): group major, dp 40; the "
                       r"rulebook has major, 45 DP"):
        U.load(data_copy)


def test_error_minor_independent_with_a_price(data_copy):
    edit(indep(data_copy), "faction   hydra\ngroup     minor\n",
         "faction   hydra\ngroup     minor\ndp        5\n")
    with pytest.raises(U.DataError, match=r"formation HY \(hydra\): group minor, dp 5"):
        U.load(data_copy)


def test_error_printed_colour_contradicted(data_copy):
    edit(indep(data_copy), "colour    magenta\n", "colour    purple\n")
    with pytest.raises(U.DataError, match=r"formation DW: colour purple, but dwarf's counters are "
                       "magenta"):
        U.load(data_copy)


def test_error_a_treasure(data_copy):
    edit(indep(data_copy), "front      2-x2-3-x2\nback       1-x2-2-x2~",
         "front      2-x2-3-x2\nback       1T-x2-2-x2~")
    with pytest.raises(U.DataError, match=r"unit alchemical_transformer: a treasure .*L138"):
        U.load(data_copy)


def test_error_an_independents_scenarios_line_contradicts_the_records(data_copy):
    f = indep(data_copy)
    text = f.read_text("utf-8")
    block = text[text.index("[unit hydra]"):]
    edit(f, block[:400], block[:400].replace("scenarios  -", "scenarios  18.5=1", 1))
    with pytest.raises(U.DataError, match=r"unit hydra: scenarios 18.5=1 contradict the \[scenario\] "
                       r"records, which deploy -"):
        U.load(data_copy)


def test_error_a_counter_the_lists_do_not_print(data_copy):
    f = indep(data_copy)
    f.write_text(f.read_text("utf-8") + "\n[unit jaldon]\nname       Jaldon Toothmaker\n"
                 "force      independent\nformation  GI\ncounters   1~\narm        none\n"
                 "rank       none\nclass      major\ntags       -\nunderline  -~\n"
                 "front      4-10-6-X\nback       2-5-6-X~\nscenarios  -\ncite       L630\n",
                 "utf-8")
    with pytest.raises(U.DataError, match=r"unit jaldon: the Independents' lists \(L746-L920\) "
                       "print no such counter"):
        U.load(data_copy)


def test_error_a_dragon_without_its_tag(data_copy):
    f = indep(data_copy)
    text = f.read_text("utf-8")
    block = text[text.index("[unit green_dragon]"):]
    edit(f, block[:400], block[:400].replace("tags       dragon", "tags       -", 1))
    with pytest.raises(U.DataError, match=r"unit green_dragon: a dragon's CF is '='"):
        U.load(data_copy)


def test_error_a_spirit_with_another_mgf_than_its_magician(data_copy):
    edit(indep(data_copy), "front      X-6-X-5\nback       X-3-X-3~\nspirit_of  moon_haters",
         "front      X-5-X-5\nback       X-3-X-3~\nspirit_of  moon_haters")
    with pytest.raises(U.DataError, match=r"unit moon_haters_spirit: a spirit has its magician's "
                       "MgF and RF"):
        U.load(data_copy)


def test_error_an_id_of_units_txt(data_copy):
    edit(indep(data_copy), "[unit hydra]", "[unit argrath]")
    with pytest.raises(U.DataError, match=r"unit argrath: already a unit of units.txt"):
        U.load(data_copy)


def test_error_a_scenario_record_is_refused(data_copy):
    f = indep(data_copy)
    f.write_text(f.read_text("utf-8") + "\n[scenario 18.6]\nname      Dousing the Flames\n",
                 "utf-8")
    with pytest.raises(U.DataError, match=r"unexpected section \[scenario 18.6\]"):
        U.load(data_copy)


def test_error_missing_file(data_copy):
    indep(data_copy).unlink()
    with pytest.raises(U.DataError, match=r"independents\.txt:0: cannot read the file"):
        U.load(data_copy)
