"""The Dragons Down data files: the rulebook's numbers, its two worked examples,
references that resolve, a legal Open Realm from every choice of Terrain Packs,
and clear errors from corrupt files.

Lines (L123) are lines of shared/rules/dragons_down.txt; what is substituted
and why is in envs/dragons_down/SUBSTITUTES.md.
"""
import itertools
import random
import re
import shutil

import pytest

from dragongym.envs.dragons_down import data as D
from tests.core.datafile_edits import edit, line_of

R = D.REALM
PACK_COMBOS = [c for k in (1, 2, 3) for c in itertools.combinations(D.PACKS, k)]


def tile_named(name):
    return next(t for t in R.tiles.values() if t.name == name)


# ------------------------------------------------------------- counts ----

def test_rule_l290_each_pack_has_one_civilization_and_five_wilderness_tiles():
    assert len(R.tiles) == 18
    for pack in D.PACKS:
        kinds = sorted(t.kind for t in R.tiles.values() if t.pack == pack)
        assert kinds == ["civilization"] + ["wilderness"] * 5


def test_rule_l290_clearings_four_on_civilization_six_on_wilderness_both_sides():
    for t in R.tiles.values():
        want = 4 if t.kind == "civilization" else 6
        assert len(t.sides) == 2
        for side in t.sides:
            assert len(side.clearings) == want, t.id
            assert set(side.clearings) <= set(D.CLEARING_TYPES)


def test_rule_l294_only_wilderness_tiles_have_summoning_symbols():
    for t in R.tiles.values():
        assert (t.local_symbol is not None) == (t.kind == "wilderness"), t.id


def test_rule_l292_a_cruel_caves_tile_has_woods_clearing_1_and_plains_clearing_3():
    assert any(t.pack == "cruel_caves" and s.clearings[0] == "woods" and s.clearings[2] == "plains"
               for t in R.tiles.values() for s in t.sides)


def test_all_five_clearing_types_are_used_and_every_pack_has_its_own_terrain_mostly():
    used = {c for t in R.tiles.values() for s in t.sides for c in s.clearings}
    assert used == set(D.CLEARING_TYPES)
    main = {"cruel_caves": "cave", "malevolent_mountains": "mountains", "wicked_woods": "woods"}
    for pack, terrain in main.items():
        clearings = [c for t in R.tiles.values() if t.pack == pack and t.kind == "wilderness"
                     for s in t.sides for c in s.clearings]
        most = max(D.CLEARING_TYPES, key=clearings.count)
        assert most == terrain, pack


def test_every_monster_the_rulebook_names_is_there():
    names = {m.plural for m in R.monsters.values()} | {m.name for m in R.monsters.values()}
    for named in ("Giant Spiders", "Goblins", "Griffons", "Juvenile Dragons", "Adult Dragons",
                  "Great Drake", "Great Wyrm", "Giant", "Giant Bats", "Demon", "Lich", "Titan",
                  "Wraith", "Orc Lord", "Orc Champion", "Goblin King", "Kobold Rex", "Bandits",
                  "Orcs", "Ogre"):
        assert named in names, named
    assert sum(m.chips for m in R.monsters.values() if m.kind == "elemental") >= 2


def test_rule_l1258_unique_monsters_are_the_guardians_and_the_four_leaders():
    unique = {m.id for m in R.monsters.values() if m.unique}
    guardians = {s.guardian for c in R.setup_cards.values() for s in c.sites.values()}
    assert unique == guardians | set(D.LEADERS)


def test_four_lineages_and_twelve_classes_with_their_advantages():
    assert sorted(c.name for c in R.lineages.values()) == ["Dwarf", "Elf", "Halfling", "Human"]
    assert len(R.classes) == 12
    advantages = {c.id: c.advantage for c in list(R.lineages.values()) + list(R.classes.values())}
    assert advantages["dwarf"] == "Caver" and advantages["knight"] == "Health"     # L1198, L1222
    assert advantages["barbarian"] == "Mountain Lore" and advantages["warrior"] == "Adept"
    for card in list(R.lineages.values()) + list(R.classes.values()):
        assert len(card.sides) == 2


def test_rule_l200_a_class_shows_a_black_and_purple_cube():
    assert any(("black", "purple") == cube for c in R.classes.values() for s in c.sides
               for cube in s.cubes)


def test_dice_faces_the_rulebook_states():
    faces = {d: sorted(map(str, R.dice[d].faces)) for d in R.dice}
    assert faces["search"] == ["blank"] * 3 + ["spyglass"] * 3                  # L232
    assert faces["hit"] == ["blank", "blank", "equal", "hit", "hit", "hit"]     # L236
    assert faces["monster"] == ["blank"] * 4 + ["monster"] * 2                  # L244
    assert R.dice["loot"].faces == (0, 1, 2, 3, 4, 5)                           # L248
    assert sorted(R.dice["haggle"].faces, key=str) == [0, 1, 2, 3, 4, "door"]   # L252
    assert faces["learn"] == ["blank", "blank", "book", "book", "book", "curse"]  # L260
    for d in ("search", "hit", "ranged", "monster", "loot", "haggle", "learn"):
        assert R.dice[d].count == 2, d                                          # "Two dice"
    summoning = ("wandering_symbol", "wandering_number", "local_symbol", "local_number")
    assert [R.dice[d].colour for d in summoning] == ["gray", "gray", "black", "black"]  # L222
    assert all(len(d.faces) == 6 for d in R.dice.values())
    ranged = R.dice["ranged"].faces
    assert min(ranged) < 0 < max(ranged)                                       # L240
    assert all(re.fullmatch(r"(gold|fame):\d+", f) for f in R.dice["mission"].faces)  # L256


def test_rule_l1274_gray_and_black_symbol_dice_name_exactly_one_wilderness_tile():
    for pack in D.PACKS:
        for symbol in R.dice["local_symbol"].faces:
            if symbol == "site":
                continue
            hits = [t for t in R.tiles.values() if t.pack == pack and t.local_symbol == symbol]
            assert len(hits) == 1, (pack, symbol)


# ------------------------------------------------------- the examples ----

def summons(tile, wandering_face, local_face, gray_n, black_n):
    """(monster, count) summoned to one Hero clearing of ``tile`` (L624-L631)."""
    out = []
    if tile.kind != "wilderness":
        return out
    if wandering_face == tile.pack:
        out.append((R.setup_cards[tile.pack].wandering, gray_n))
    if local_face == tile.local_symbol:
        out.append((tile.local_monster, gray_n + black_n if tile.local_dual else black_n))
    return out


def test_example_l643_monster_activation():
    # claw on the Local Monster Die, Malevolent Mountains on the Wandering
    # Monster Die, 1 on both numbered dice (L647).
    assert "claw" in R.dice["local_symbol"].faces
    assert "malevolent_mountains" in R.dice["wandering_symbol"].faces
    assert 1 in R.dice["wandering_number"].faces and 1 in R.dice["local_number"].faces
    roll = ("malevolent_mountains", "claw", 1, 1)
    dens = tile_named("Secret Dens")
    assert summons(dens, *roll) == [("goblin", 2)]                       # L654
    assert R.monsters["goblin"].chips >= 4          # two to each of two clearings
    lonely = tile_named("Lonely Mountains")
    assert lonely.pack == "malevolent_mountains"
    assert sorted(summons(lonely, *roll)) == [("griffon", 1), ("juvenile_dragon", 1)]  # L661
    assert R.monsters["griffon"].chips >= 2        # one already there + one summoned
    tri = tile_named("Tri-Peaks")
    assert summons(tri, *roll) == [("juvenile_dragon", 1)]               # L668
    assert R.monsters["juvenile_dragon"].chips >= 3  # Tri-Peaks' one + two summoned
    assert any(not summons(t, *roll) for t in R.tiles.values())           # the Druid's, L672


def hero(lineage, cls, lside=1, cside=1):
    """The Hero of a Lineage and a Class card (sides 1 or 2) as plain numbers."""
    a, b = R.lineages[lineage].sides[lside - 1], R.classes[cls].sides[cside - 1]
    return {"might": a.might + b.might, "speed": a.speed + b.speed,
            "hearts": a.hearts + b.hearts, "attack_boxes": a.attack_boxes + b.attack_boxes,
            "maneuver_boxes": a.maneuver_boxes + b.maneuver_boxes,
            "cunning": a.cunning + b.cunning, "equipment": [R.items[i] for i in b.equipment]}


def damage(cubes, swords, armored):
    """Base damage (L750), one less against armour when the attack has swords (L752)."""
    return cubes + swords - (1 if armored and swords else 0)


def hits(attack_speed, maneuver, dice):
    """L740-L743: faster hits; else the worse Hit Die decides."""
    if attack_speed > maneuver:
        return True
    if "blank" in dice:
        return False
    if dice == ("hit", "hit"):
        return True
    return attack_speed == maneuver


@pytest.mark.parametrize("lineage", D.LINEAGES)
def test_example_l840_barbarian_and_knight_combat(lineage):
    knight, barb = hero(lineage, "knight"), hero(lineage, "barbarian")
    jd, giant, drake = R.monsters["juvenile_dragon"], R.monsters["giant"], R.monsters["great_drake"]
    sword = next(c for c in knight["equipment"] if c.weapon)
    axe = next(c for c in barb["equipment"] if c.weapon)
    helmet = next(c for c in barb["equipment"] if c.position == "head")
    assert sword.id == "long_sword" and sword.length == (10,) and sword.swords == 1   # L852
    assert sword.might_mandatory + sword.might_optional >= 2
    assert axe.swords == 1 and axe.might_mandatory + axe.might_optional >= 4         # L870
    assert helmet.armor == 2                                                         # L854
    assert knight["speed"] == 3 and knight["might"] >= 2
    assert barb["speed"] == 3 and barb["might"] >= 4
    assert knight["attack_boxes"] >= 3 and knight["maneuver_boxes"] >= 1
    assert barb["attack_boxes"] >= 2 and barb["maneuver_boxes"] >= 2
    assert all(c.weight <= knight["might"] for c in knight["equipment"])
    assert all(c.weight <= barb["might"] for c in barb["equipment"])

    # Round 1. Evade (L848): neither can place more maneuver cubes than the
    # fastest maneuver of the (name-side-up) Monsters challenging them.
    assert min(knight["speed"], knight["maneuver_boxes"]) <= max(jd.front.maneuver,
                                                                  giant.front.maneuver)
    assert min(barb["speed"], barb["maneuver_boxes"]) <= drake.front.maneuver
    # Tactics (L850-L856): the Knight places 2 Might on the sword, 2 Speed in
    # attack and 1 in maneuver (5 cubes, his limit); the alerted Barbarian 4
    # Might on the axe and 2 Speed in maneuver (6 = 5 + 1 Speed Cube), keeping
    # one Speed Cube unused -- the one she wounds (L854).
    assert knight["might"] >= 2 and knight["speed"] >= 2 + 1
    assert knight["attack_boxes"] >= 2 and knight["maneuver_boxes"] >= 1 and 2 + 2 + 1 <= 5
    assert barb["might"] >= 4 and barb["maneuver_boxes"] >= 2 and 4 + 2 <= 5 + 1
    assert barb["speed"] - 2 == 1
    # The dragons flip (L851); the Giant does not.
    assert (jd.back.speed, jd.back.length, jd.back.maneuver) == (2, 0, 3)
    assert (drake.back.speed, drake.back.length) == (2, 0)
    # The Knight goes first: equal speed, longer attack (L852).
    assert (2, sword.length[0]) > (jd.back.speed, jd.back.length)
    assert jd.back.speed == drake.back.speed and jd.back.length == drake.back.length
    assert not 2 > jd.back.maneuver and hits(2, jd.back.maneuver, ("hit", "hit"))   # L853
    assert jd.armored and damage(2, sword.swords, jd.armored) == 2 == jd.health and jd.fame == 10
    # The Great Drake hits the Barbarian on "hit, equal" at equal speeds (L854).
    assert hits(drake.back.speed, 2, ("hit", "equal"))
    assert drake.back.attack == "melee" and drake.back.damage == 4 and drake.back.swords == 1
    hit_on_helmet = damage(drake.back.damage, drake.back.swords, True)
    assert hit_on_helmet == 4 > helmet.armor                       # the helmet is destroyed
    # The Giant at speed 1 ties the Knight's maneuver 1 and misses on blanks (L855).
    assert giant.front.speed == 1 and not hits(giant.front.speed, 1, ("blank", "blank"))
    # The Barbarian at speed 0 rolls against maneuver 1 and misses (L856).
    assert drake.back.maneuver == 1 and not hits(0, drake.back.maneuver, ("hit", "blank"))
    assert jd.fame > giant.fame                                                     # L849

    # Round 2 (L866-L870): all brown cubes in attack speed.
    knight_speed, barb_speed = knight["speed"], barb["speed"] - 1     # one wounded in round 1
    assert (knight_speed, barb_speed) == (3, 2)
    assert hits(knight_speed, giant.front.maneuver, ()) and not giant.armored
    assert damage(2, sword.swords, giant.armored) == 3 >= giant.health and giant.fame == 8
    assert hits(barb_speed, drake.back.maneuver, ())
    assert damage(4, axe.swords, drake.armored) == 4 >= drake.health and drake.fame == 20
    assert damage(4, axe.swords, drake.armored) - 1 < drake.health   # 4 Might "needed" (L856)


def test_example_l1087_the_human_knight_has_one_cunning():
    for ls in (1, 2):
        for cs in (1, 2):
            assert hero("human", "knight", ls, cs)["cunning"] == 1


def test_fire_breathers_and_spell_casting_monsters():
    for mid in D.FIRE_BREATHERS:                                                    # L1266
        sides = [R.monsters[mid].front, R.monsters[mid].back]
        assert [s.attack for s in sides].count("fire") == 1
        fire = next(s for s in sides if s.attack == "fire")
        assert (fire.damage, fire.swords, fire.targets) == (2, 1, 4)                # L1562
    assert R.monsters["demon"].back.spell == "fiery_chasm" and R.monsters["demon"].flying
    assert R.monsters["lich"].back.spell == "vapor_form"                            # L1270
    assert R.monsters["titan"].front.spell == "teleport"                            # L1274


def test_rule_l1105_giant_bats_at_the_mine():
    card = R.setup_cards["cruel_caves"]
    assert card.wandering == "giant_bat" and R.civ_locations[card.civ_location].name == "The Mine"
    assert R.setup_cards["malevolent_mountains"].wandering == "juvenile_dragon"     # L224


def test_rule_l1360_the_sound_symbol_of_the_mountains_summons_adult_dragons():
    assert [t.local_monster for t in R.tiles.values()
            if t.pack == "malevolent_mountains" and t.local_symbol == "sound"] == ["adult_dragon"]


def test_treasure_sites_of_the_reference():
    sites = {sid: (c, s) for c in R.setup_cards.values() for sid, s in c.sites.items()}
    card, cache = sites["secret_cache"]
    assert cache.token == "wilderness" and cache.red_arrow                         # L344, L1246
    assert R.monsters[cache.guardian].group == "bandits" and R.monsters[cache.guardian].chips > 1
    for n, side in enumerate(card.sides, 1):
        loot = side.loot["secret_cache"]
        assert (loot.treasures, loot.deep) == (0, 1) and loot.gold > 0            # L1244
        assert ("hidden_trap" in loot.features) == (n == 2)                       # L1248
    card, shrine = sites["shrine"]
    assert card.pack == "wicked_woods" and shrine.guardian == "wraith"             # L1278
    assert [("active_wraith" in s.loot["shrine"].features) for s in card.sides] == [False, True]
    for sid, feature in (("catacombs", "labyrinth"), ("chamber", "massive_door")):
        card, _ = sites[sid]
        assert sum(feature in s.loot[sid].features for s in card.sides) == 1      # L1236, L1240


def test_rule_l1412_shield_of_defiance_and_the_manifest():
    sod = R.treasures["shield_of_defiance"]
    assert (sod.armor, sod.weight, sod.epic, sod.is_shield) == (3, 2, True, True)
    names = {re.sub(r" \(.*\)$", "", c.name) for c in R.treasures.values()}
    assert names == set(D.MANIFEST)
    epics = {n for n, (_, flags) in D.MANIFEST.items() if "epic" in flags}
    assert len(epics) == 30
    assert {re.sub(r" \(.*\)$", "", c.name) for c in R.treasures.values() if c.epic} == epics
    assert R.treasures["magical_bowl_of_mixing"].epic                              # L366
    face_up = {c.name for c in R.treasures.values() if c.backpack_special}
    assert face_up == {"DisEnchanter", "Icon of the Dragon", "Mirror of Idolatry",
                       "Summoning Marcation"}                                      # L960


def test_rule_l902_deep_treasures_hold_a_higher_share_of_epics():
    def share(deck):
        cards = [(c.epic, n) for c in R.treasures.values() for k, n in c.copies.items() if k == deck]
        return sum(n for e, n in cards if e) / sum(n for _, n in cards)
    assert share("deep") > share("treasure")


def test_spells_of_the_manifest():
    assert len(R.spells) == 36
    assert {s.name for s in R.spells.values()} == set(D.SPELL_MANIFEST)
    assert R.spells["fireball"].form == "ranged" and R.spells["fireball"].targets == 4  # L1562
    assert R.spells["discord"].targets == 2                                            # L1596
    for sp in R.spells.values():
        wound = [c for c, w in sp.boxes if w]
        assert len(wound) == (0 if D.SPELL_MANIFEST[sp.name][4] is None else 1)


def test_substitutes_are_marked_and_printed_values_are_not():
    jd = R.monsters["juvenile_dragon"]
    assert "back.speed" not in jd.substituted and "back.damage" in jd.substituted
    assert "fame" not in jd.substituted and "chips" in jd.substituted
    assert "length" not in R.items["long_sword"].substituted
    assert "faces.1" not in R.dice["search"].substituted
    assert R.dice["ranged"].substituted


# ------------------------------------------------------- references ----

def test_every_reference_resolves():
    for t in R.tiles.values():
        if t.kind == "wilderness":
            assert t.local_monster in R.monsters
    for card in R.setup_cards.values():
        assert card.wandering in R.monsters and card.civ_location in R.civ_locations
        for s in card.sites.values():
            assert R.monsters[s.guardian].kind == "guardian"
        for side in card.sides:
            assert all(R.natives[n].group == card.native_group for n in side.natives)
    for cls in R.classes.values():
        for side in cls.sides:
            assert all(i in R.items for i in side.equipment)
    for m in R.monsters.values():
        for side in (m.front, m.back):
            assert side.spell is None or side.spell in R.spells
    for c in R.treasures.values():
        assert c.casts is None or c.casts in R.spells
    for tok in R.civ_tokens.values():
        assert tok.merchant is None or tok.merchant in R.setup_cards[tok.pack].merchants
    for tok in R.wilderness_tokens.values():
        if tok.kind == "treasure_site":
            assert tok.target in R.setup_cards[tok.pack].sites
    for st in R.site_tokens.values():
        assert st.site in R.setup_cards[st.pack].sites


def test_starting_equipment_is_equippable_and_there_are_enough_cards():
    need = {}
    for cls in R.classes.values():
        for side in cls.sides:
            assert D.equip_problem([R.items[i] for i in side.equipment]) is None, cls.id
        for i in {i for s in cls.sides for i in s.equipment}:
            need[i] = need.get(i, 0) + 1
    for i, n in need.items():
        assert R.items[i].copies["item"] >= n, i


# ----------------------------------------------------------- the map ----

@pytest.mark.parametrize("packs", PACK_COMBOS, ids=["+".join(p) for p in PACK_COMBOS])
def test_rule_l109_an_open_realm_can_be_built_from_every_choice_of_packs(packs):
    order = D.build_open_realm(packs, seed=1)
    placed = D.check_open_realm(order)
    assert sorted(p.tile for p in order) == sorted(R.tiles_of(packs))
    assert D.open_exits(R, placed)                                                 # L113
    # check_open_realm replayed every placement as legal (matching edges, a
    # joined path, touching two tiles where possible); the finished map's
    # shared edges all meet path to path:
    for p in placed.values():
        for d, clearing in D.exits(R, p).items():
            other = placed.get(D.neighbour(p.q, p.r, d))
            if other is not None:
                assert D.opposite(d) in D.exits(R, other)


@pytest.mark.parametrize("packs", PACK_COMBOS, ids=["+".join(p) for p in PACK_COMBOS])
def test_random_open_realm_builds_never_get_stuck(packs):
    """Players place their tiles in any order and any legal way: never a dead end."""
    for seed in range(15):
        rng = random.Random(seed)
        tiles = R.tiles_of(packs)
        rng.shuffle(tiles)
        placed = {}
        for tile in tiles:
            options = D.legal_placements(R, placed, tile)
            assert options, (seed, tile)
            p = rng.choice(options)
            placed[(p.q, p.r)] = p
        assert D.open_exits(R, placed)


def test_enchanting_flips_a_tile_without_breaking_its_edges():
    """L574: a flipped tile keeps its orientation; its paths leave by the same edges."""
    placed = D.check_open_realm(D.build_open_realm(D.PACKS, seed=3))
    for pos, p in list(placed.items()):
        flipped = D.Placement(p.tile, 3 - p.side, p.rotation, p.q, p.r)
        rest = {k: v for k, v in placed.items() if k != pos}
        ok, touched, _ = D.placement_touches(R, rest, flipped)
        assert ok and touched >= 1


def test_tile_geometry_and_rotation_convention():
    assert [D.facing_edge(0, d) for d in range(1, 7)] == [1, 2, 3, 4, 5, 6]
    assert D.facing_edge(1, 2) == 1           # edge 1 (N) turned once faces NE
    dens = tile_named("Secret Dens")
    p0 = D.Placement(dens.id, 1, 0, 0, 0)
    p1 = D.Placement(dens.id, 1, 1, 0, 0)
    assert {d % 6 + 1: c for d, c in D.exits(R, p0).items()} == D.exits(R, p1)


def test_hidden_paths_and_connectivity():
    for t in R.tiles.values():
        for side in t.sides:
            if t.kind == "wilderness":
                assert side.hidden                                                 # L1160
            assert all(colour in D.MAGIC_COLOURS for _, _, colour in side.hidden)
            assert side.path_edges() == t.sides[0].path_edges()


# ------------------------------------------------------ corrupt files ----

@pytest.fixture
def data_copy(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(D.DATA_DIR, target)
    return target


def test_the_copied_data_loads(data_copy):
    assert len(D.load(data_copy).tiles) == 18


def test_error_unknown_key_names_file_and_line(data_copy):
    f = data_copy / "monsters.txt"
    edit(f, "plural    Giants\n", "plural    Giants\ncolour    red\n")
    with pytest.raises(D.DataError) as err:
        D.load(data_copy)
    assert err.value.file == "monsters.txt" and err.value.line == line_of(f, "colour    red")
    assert "unknown key 'colour'" in str(err.value) and str(err.value).startswith("monsters.txt:")


def test_error_missing_field(data_copy):
    edit(data_copy / "monsters.txt", "fame      8\nhealth    3\n", "health    3\n")
    with pytest.raises(ValueError, match=r"monsters\.txt:\d+: \[monster giant\] is missing 'fame'"):
        D.load(data_copy)


def test_error_starting_item_that_does_not_exist(data_copy):
    f = data_copy / "heroes.txt"
    edit(f, "1.equipment   long_sword shield* chainmail*", "1.equipment   long_swerd shield*")
    with pytest.raises(D.DataError, match="knight side 1: starting equipment 'long_swerd' is not "
                       "an Item Card") as err:
        D.load(data_copy)
    assert err.value.file == "heroes.txt"


def test_error_tile_sides_whose_edges_do_not_match(data_copy):
    edit(data_copy / "tiles.txt", "2.edges     1 3 - 4 - -", "2.edges     1 3 - 4 5 -")
    with pytest.raises(D.DataError, match=r"tiles\.txt:\d+: tile 'secret_dens': side 2 carries "
                       r"paths on edges \{1,2,4,5\} but side 1 on \{1,2,4\}"):
        D.load(data_copy)


def test_error_dice_faces_contradicting_the_rulebook(data_copy):
    edit(data_copy / "dice.txt", "faces   spyglass spyglass spyglass blank blank blank",
         "faces   spyglass spyglass spyglass spyglass blank blank")
    with pytest.raises(D.DataError, match=r"dice\.txt:\d+: die search: faces .* contradict L232"):
        D.load(data_copy)


def test_error_a_pack_without_five_wilderness_tiles(data_copy):
    f = data_copy / "tiles.txt"
    text = f.read_text()
    start = text.index("[tile murkwater_fen]")
    f.write_text(text[:start])
    with pytest.raises(D.DataError, match="wicked_woods: 1 Civilization and 4 Wilderness Tiles"):
        D.load(data_copy)


def test_error_bad_citation_and_bad_table_row(data_copy):
    edit(data_copy / "natives.txt", "cite      L189 L310-L314 L1003-L1008\n\n[native miner]",
         "cite      L9999\n\n[native miner]")
    with pytest.raises(D.DataError, match="citation L9999 is outside the rulebook"):
        D.load(data_copy)
    edit(data_copy / "natives.txt", "cite      L9999\n", "cite      L189\n")
    row = "         cc_empty           cruel_caves           -              1*"
    edit(data_copy / "tokens.txt", row + "      L318", row)
    with pytest.raises(D.DataError, match=r"tokens\.txt:\d+: \[table civilization_tokens\] row "
                       r"has 4 values, need 5"):
        D.load(data_copy)


def test_error_a_guardian_that_is_not_a_monster(data_copy):
    edit(data_copy / "setup_cards.txt", "guardian=lich", "guardian=lych")
    with pytest.raises(D.DataError, match="site catacombs: guardian 'lych' is not a guardian"):
        D.load(data_copy)


def test_error_a_spell_that_wounds_against_the_manifest(data_copy):
    edit(data_copy / "spells.txt", "affliction     black      1*     black*  ",
         "affliction     black      1*     black!  ")
    with pytest.raises(D.DataError, match=r"spells\.txt:\d+: spell affliction: wound boxes"):
        D.load(data_copy)


# ----------------------------------------------------------- flying ----

def test_dd_flying_1_flying_is_built_into_the_monsters_maneuver():
    """L1089-L1091: "Flying is already built into the maneuver speed for
    Monsters with Flying Ability" and has no impact of its own in combat: the
    compiled chips of the flyers carry exactly their printed maneuver, both
    sides, and a flying Juvenile Dragon challenging a hero asks of an evader
    (L700) just what a non-flying Kobold of the same maneuver does. (The
    effects that name flying -- Fiery Chasm sparing flyers, the Fly ability
    -- come with magic, part 2: DD-SPELL-FIERY-CHASM-1, DD-FLYING-2 to -5.)"""
    from dragongym.envs.dragons_down import rules as Rules
    from dragongym.envs.dragons_down.constants import MONSTER_CHIP_KINDS, MONSTER_IDS
    from tests.dragons_down.combat_test import KNIGHT, TRI_PEAKS_1, chip, combat, start
    flyers = [m for m in R.monsters.values() if m.flying]
    assert {m.id for m in flyers} >= {"giant_bat", "griffon", "juvenile_dragon", "adult_dragon", "demon"}
    for f, k in enumerate(MONSTER_CHIP_KINDS):
        m = R.monsters[MONSTER_IDS[k]]
        for side, printed in enumerate((m.front, m.back)):
            assert int(Rules.FOE_SIDE[f, side, Rules.SD_MANEUVER]) == printed.maneuver, m.id
    seen = set()
    for kind in ("juvenile_dragon", "kobold"):
        assert R.monsters[kind].front.maneuver == 3
        S = start(combat([KNIGHT], monsters=[(kind, TRI_PEAKS_1)]))    # it challenges him (L688)
        assert int(S[0]["foe_target"][chip(S, kind)]) == 0
        seen.add((Rules.challenger_maneuver(S, 0, 0), Rules.can_evade(S, 0, 0)))
    assert len(seen) == 1 and next(iter(seen))[0] == 3


def test_error_a_bowl_mixing_the_colour_it_takes(data_copy):
    """The Magical Bowl of Mixing converts between two colours with the cube it
    takes, of a third colour (L1368, SUBSTITUTES.md): mixing blue is refused."""
    edit(data_copy / "treasures.txt", "mixes      green* purple*", "mixes      blue* purple*")
    with pytest.raises(D.DataError, match="'mixes' converts between two colours"):
        D.load(data_copy)
