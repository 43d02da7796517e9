"""The Mission Cards (envs/dragons_down/data/missions.txt) and the Civilization
Cards and titles (envs/dragons_down/data/civilization.txt): the Temple Defiler
of the worked example (L1087), a full deck per Terrain Pack that fills every
Merchant's missions (L491, L564), tasks that each pack can meet on its own,
titles that follow L567, and clear errors from corrupt files.

Lines (L123) are lines of shared/rules/dragons_down.txt; what is substituted
and why is in envs/dragons_down/SUBSTITUTES.md ("Missions", "Civilization
Cards and titles").
"""
import re
import shutil

import pytest

from dragongym.envs.dragons_down import data as D
from tests.core.datafile_edits import edit, line_of

R = D.REALM
M = R.missions


# ------------------------------------------------------- the example ----

def test_example_l1087_temple_defiler():
    """L1087: the Temple Defiler is an Atrocity with bonus Cunning that pays
    one Legend Point, 20 Fame and an Outlaw Token (no Gold); the Human Knight,
    with one Cunning icon, rolls one Mission Die on top."""
    td = M["temple_defiler"]
    assert (td.name, td.kind, td.bonus, td.outlaw) == ("Temple Defiler", "atrocity", "cunning",
                                                       "gain")
    assert td.reward == D.Payout(gold=0, lp=1, fame=20)
    assert "L1087" in td.cite
    # printed, so not marked authored; the pack, task, place and text are ours
    assert not td.substituted & {"name", "kind", "bonus", "outlaw", "reward.gold", "reward.lp",
                                 "reward.fame"}
    assert {"pack", "text", "complete.at"} <= td.substituted
    # its pack is the one whose Treasure Site is a temple: the Shrine (L1250)
    assert td.pack == "wicked_woods"
    assert [(t.verb, t.by, t.target) for t in td.tasks] == [("loot", "site", "shrine")]
    assert "shrine" in R.setup_cards[td.pack].sites
    for ls in (1, 2):
        for cs in (1, 2):
            dice = (getattr(R.lineages["human"].sides[ls - 1], td.bonus)
                    + getattr(R.classes["knight"].sides[cs - 1], td.bonus))
            assert dice == 1
    assert dice <= R.dice["mission"].count


# ------------------------------------------------------------ the deck ----

def test_twelve_cards_per_pack_four_of_each_kind():
    assert len(M) == 36
    for pack in D.PACKS:
        deck = [M[m] for m in R.missions_of((pack,))]
        assert len(deck) == 12
        for kind in D.MISSION_KINDS:
            assert sum(m.kind == kind for m in deck) == 4, (pack, kind)
        assert {m.bonus for m in deck} == set(D.ATTRIBUTES), pack
    assert R.missions_of(D.PACKS) == list(M)


def test_rule_l184_one_deck_of_the_packs_in_play():
    both = R.missions_of(("cruel_caves", "wicked_woods"))
    assert len(both) == 24
    assert all(M[m].pack in ("cruel_caves", "wicked_woods") for m in both)


def test_rule_l491_l564_every_merchant_stock_fills_at_setup_with_cards_left():
    for pack, card in R.setup_cards.items():
        deck = len(R.missions_of((pack,)))
        for side in card.sides:
            need = sum(st.missions for st in side.stock.values())
            assert 1 <= need < deck, (pack, need, deck)
    # all packs in play, every Merchant revealed on either side of its card
    worst = sum(max(sum(st.missions for st in s.stock.values()) for s in c.sides)
                for c in R.setup_cards.values())
    assert worst < len(M)


def test_rule_l1083_outlaw_follows_the_kind():
    for m in M.values():
        assert m.outlaw == D.MISSION_OUTLAW[m.kind], m.id
        assert "outlaw" not in m.substituted


def test_rule_l1075_atrocities_most_lucrative_expeditions_most_gold():
    def mean(ms, value):
        return sum(map(value, ms)) / len(ms)

    def value(m):
        return 10 * m.reward.lp + m.reward.fame + m.reward.gold

    for pack in D.PACKS:
        by = {k: [m for m in M.values() if m.pack == pack and m.kind == k]
              for k in D.MISSION_KINDS}
        assert mean(by["atrocity"], value) > max(mean(by["quest"], value),
                                                 mean(by["expedition"], value))
        gold = lambda m: m.reward.gold  # noqa: E731
        assert mean(by["expedition"], gold) > max(mean(by["atrocity"], gold),
                                                  mean(by["quest"], gold))
    # in the scale of the game: a card pays at most 2 LP, 25 Fame and 20 Gold
    for m in M.values():
        assert 0 <= m.reward.lp <= 2 and 0 <= m.reward.fame <= 25 and 0 <= m.reward.gold <= 20


def test_rule_l1071_a_minority_of_cards_have_a_discard_reward_or_penalty():
    with_discard = [m for m in M.values() if m.discard is not None]
    assert 0 < len(with_discard) < len(M) / 2
    kinds = set()
    for m in with_discard:
        amounts = (m.discard.gold, m.discard.lp, m.discard.fame)
        assert any(amounts)
        kinds.add("reward" if min(amounts) >= 0 else "penalty")
    assert kinds == {"reward", "penalty"}


def test_tasks_can_be_met_in_the_cards_own_pack():
    for m in M.values():
        card = R.setup_cards[m.pack]
        reach = D.pack_monsters(R, m.pack)
        assert m.tasks, m.id
        for t in m.tasks:
            if t.verb == "kill" and t.by == "monster":
                assert t.target in reach and t.count <= R.monsters[t.target].chips, m.id
            elif t.verb == "kill":
                members = [x for x in R.monsters.values() if x.group == t.target]
                assert members and all(x.id in reach for x in members), m.id
                assert t.count <= sum(x.chips for x in members)
            elif t.verb == "kill_native":
                assert t.target == card.native_group
                for side in card.sides:
                    assert t.count <= len(side.natives), m.id
            elif t.verb == "loot":
                assert t.target in card.sites, m.id
            else:
                assert t.verb == "enter" and R.tiles[t.target].pack == m.pack
                assert R.tiles[t.target].kind == "wilderness"
        # completed in the pack's own Civilization Location or with one of its Merchants
        assert m.complete_at == card.civ_location or m.complete_at in card.merchants, m.id


def test_atrocities_are_the_cards_that_kill_natives():
    for m in M.values():
        if any(t.verb == "kill_native" for t in m.tasks):
            assert m.kind == "atrocity", m.id


def test_names_from_the_heros_story_l1702():
    names = {m.name for m in M.values()}
    for deed in ("Goblin Blight", "Bat Hawker", "Spelunker", "Blood Offerer", "Food & Ale"):
        assert deed in names


def test_ids_names_and_texts_are_unique_and_marked():
    assert len({m.name for m in M.values()}) == len(M)
    assert len({m.text for m in M.values()}) == len(M)
    for m in M.values():
        if m.id not in D.PRINTED_MISSIONS:
            assert {"name", "kind", "pack", "text", "bonus", "reward.gold"} <= m.substituted


# --------------------------------------------------- civilization cards ----

def test_rule_l180_one_two_sided_card_per_civilization_location():
    assert set(R.civ_cards) == set(R.civ_locations)
    for cid, card in R.civ_cards.items():
        assert card.pack == R.civ_locations[cid].pack
        assert card.group == R.setup_cards[card.pack].native_group                 # L567
        assert len(card.sides) == 2
        for side in card.sides:
            assert 2 <= len(side.titles) <= 4
            assert any(t.small for t in side.titles) and any(t.large for t in side.titles)


def test_rule_l567_titles_pay_lp_or_fame_and_large_boxes_cost_gold():
    ids = [t.id for c in R.civ_cards.values() for s in c.sides for t in s.titles]
    assert len(ids) == len(set(ids))
    for card in R.civ_cards.values():
        for n, side in enumerate(card.sides, 1):
            assert side.limit is None or side.limit >= 1
            for t in side.titles:
                assert t.lp + t.fame > 0
                if t.large:
                    assert t.price > 0
                assert card.title(t.id) == (n, t)
                assert not (t.outlaw is not None and t.requires == ())
    # one side without a limit ("if applicable", L326)
    assert any(s.limit is None for c in R.civ_cards.values() for s in c.sides)


def test_title_requirements_parse():
    mine = R.civ_cards["the_mine"]
    _, friend = mine.title("friend_of_the_delvers")
    assert (friend.min_missions, friend.outlaw, friend.price, friend.lp) == (1, False, 0, 1)
    _, rat = mine.title("tunnel_rat")
    assert (rat.outlaw, rat.min_fame, rat.requires) == (True, 10, ("outlaw", "fame>=10"))
    _, lord = R.civ_cards["the_keep"].title("lord_protector")
    assert (lord.min_lp, lord.min_missions, lord.outlaw) == (5, 2, False)
    assert "1.deep_delver.name" in mine.substituted and "1.limit" in mine.substituted


# ------------------------------------------------------- corrupt files ----

@pytest.fixture
def data_copy(tmp_path):
    target = tmp_path / "data"
    shutil.copytree(D.DATA_DIR, target)
    return target


def load_fails(data_copy, pattern, file="missions.txt", needle=None):
    with pytest.raises(D.DataError, match=pattern) as err:
        D.load(data_copy)
    assert err.value.file == file
    assert str(err.value).startswith(f"{file}:{err.value.line}: ")
    if needle is not None:
        assert err.value.line == line_of(data_copy / file, needle)
    return err.value


def test_the_copied_data_loads(data_copy):
    realm = D.load(data_copy)
    assert len(realm.missions) == 36 and len(realm.civ_cards) == 3


def test_error_unknown_monster(data_copy):
    edit(data_copy / "missions.txt", "monster=goblin* count=4*", "monster=gobbo* count=4*")
    load_fails(data_copy, r"goblin_blight: task kill monster=gobbo: unknown monster",
               needle="monster=gobbo*")


def test_error_monster_the_pack_never_summons(data_copy):
    edit(data_copy / "missions.txt", "monster=goblin* count=4*", "monster=griffon* count=2*")
    load_fails(data_copy, r"goblin_blight: .*the cruel_caves summoning never brings griffon")


def test_error_more_kills_than_chips(data_copy):
    edit(data_copy / "missions.txt", "monster=lich* count=1*", "monster=lich* count=2*")
    load_fails(data_copy, r"lay_the_lich: task kill monster=lich: count 2, but the game has 1")


def test_error_native_group_of_another_pack_and_too_many_natives(data_copy):
    f = data_copy / "missions.txt"
    edit(f, "group=delvers* count=2*", "group=keep_guard* count=2*")
    load_fails(data_copy, r"claim_jumper: task kill_native group=keep_guard: the group lives "
               r"at another pack's")
    edit(f, "group=keep_guard* count=2*", "group=delvers* count=4*")
    load_fails(data_copy, r"claim_jumper: .*count 4, but as few as 3 of them stand")


def test_error_unknown_site_tile_and_group(data_copy):
    f = data_copy / "missions.txt"
    edit(f, "site=catacombs*", "site=shrine*")
    load_fails(data_copy, r"grave_robber: task loot site=shrine: not a Treasure Site of the "
               r"cruel_caves", needle="site=shrine*")
    edit(f, "site=shrine*", "site=catacombs*")
    edit(f, "tile=gloomhollow*", "tile=tri_peaks*")
    load_fails(data_copy, r"spelunker: task enter tile=tri_peaks: not a Map Tile of cruel_caves")
    edit(f, "tile=tri_peaks*", "tile=gloomhollow*")
    edit(f, "group=bandits*", "group=outlaws*")
    load_fails(data_copy, r"break_the_bandits: task kill group=outlaws: unknown monster group")


def test_error_bad_kind_and_bad_task_verb(data_copy):
    f = data_copy / "missions.txt"
    edit(f, "kind      atrocity*\npack      cruel_caves*", "kind      heist*\npack      cruel_caves*")
    load_fails(data_copy, r"kind: 'heist' is not one of atrocity, quest, expedition",
               needle="heist*")
    edit(f, "kind      heist*", "kind      atrocity*")
    edit(f, "task      loot* site=catacombs*", "task      steal* site=catacombs*")
    load_fails(data_copy, r"task\.1\.verb: 'steal' is not one of kill, kill_native, loot, enter")


def test_error_outlaw_inconsistent_with_kind(data_copy):
    f = data_copy / "missions.txt"
    text = f.read_text(encoding="utf-8")
    start = text.index("[mission goblin_blight]")
    f.write_text(text[:start] + text[start:].replace("outlaw    discard", "outlaw    gain", 1),
                 encoding="utf-8")
    load_fails(data_copy, r"goblin_blight: a quest card has 'outlaw discard', not 'outlaw gain'",
               needle="[mission goblin_blight]")


def test_error_completing_place(data_copy):
    f = data_copy / "missions.txt"
    edit(f, "complete  at=fence*", "complete  at=the_pub*")
    load_fails(data_copy, r"bat_hawker: complete at 'the_pub' is neither")
    edit(f, "complete  at=the_pub*", "complete  at=smuggler*")
    load_fails(data_copy, r"bat_hawker: it is a cruel_caves card but completes at smuggler of "
               r"malevolent_mountains")


def test_error_the_temple_defiler_against_l1087(data_copy):
    edit(data_copy / "missions.txt", "reward    gold=0 lp=1 fame=20", "reward    gold=5 lp=1 fame=20")
    load_fails(data_copy, r"temple_defiler: L1087 prints the Temple Defiler, an atrocity with "
               r"bonus cunning", needle="[mission temple_defiler]")


def test_error_a_pack_without_enough_cards_for_its_merchants(data_copy):
    f = data_copy / "missions.txt"
    text = f.read_text(encoding="utf-8")
    # keep the first three Malevolent Mountains cards, drop the other nine
    start = text.index("[mission sell_the_pass]")
    end = text.index("# WICKED WOODS")
    f.write_text(text[:start] + "# ====\n" + text[end:], encoding="utf-8")
    load_fails(data_copy, r"malevolent_mountains: 1 Mission Cards; its Merchants take up to 4 "
               r"when revealed \(L491\), .*need at least 5")


def test_error_a_pack_without_a_kind(data_copy):
    f = data_copy / "missions.txt"
    text = f.read_text(encoding="utf-8")
    for mid in ("food_and_ale", "smugglers_road", "titans_tribute", "hoard_hunter"):
        m = re.search(rf"\[mission {mid}\].*?\nkind      expedition\*", text, re.S)
        text = text[:m.end() - len("expedition*")] + "quest*" + text[m.end():]
    text = re.sub(r"(kind      quest\*\npack      malevolent_mountains\*(?:\n.*?)*?)outlaw    none",
                  r"\1outlaw    discard", text)
    f.write_text(text, encoding="utf-8")
    load_fails(data_copy, r"malevolent_mountains: no expedition card")


def test_error_atrocities_not_the_most_lucrative(data_copy):
    edit(data_copy / "missions.txt", "reward    gold=0* lp=2* fame=10*\nbonus     wisdom*",
         "reward    gold=0* lp=9* fame=10*\nbonus     wisdom*")
    load_fails(data_copy, r"cruel_caves: atrocities are more lucrative \(L1075\)")


def test_error_expeditions_not_the_most_gold(data_copy):
    edit(data_copy / "missions.txt", "reward    gold=12* lp=1* fame=15*",
         "reward    gold=60* lp=1* fame=15*")
    load_fails(data_copy, r"cruel_caves: expeditions earn more Gold \(L1075\)")


def test_error_discard_on_most_cards(data_copy):
    f = data_copy / "missions.txt"
    text = f.read_text(encoding="utf-8")
    f.write_text(text.replace("discard   none*", "discard   gold=0* lp=0* fame=-1*"),
                 encoding="utf-8")
    load_fails(data_copy, r"36 of 36 cards have a discard reward or penalty")


def test_error_bad_payouts(data_copy):
    f = data_copy / "missions.txt"
    edit(f, "discard   gold=2* lp=0* fame=0*", "discard   gold=0* lp=0* fame=0*")
    load_fails(data_copy, r"bat_hawker: a discard of nothing is written 'discard none'")
    edit(f, "discard   gold=0* lp=0* fame=0*", "discard   gold=2* lp=0*")
    load_fails(data_copy, r"discard: missing fame=")
    edit(f, "discard   gold=2* lp=0*", "discard   gold=2* lp=0* fame=0*")
    edit(f, "reward    gold=14* lp=0* fame=5*", "reward    gold=-1* lp=0* fame=5*")
    load_fails(data_copy, r"reward\.gold: -1 is out of range \(0\.\.99\)")


def test_error_duplicate_mission_id(data_copy):
    edit(data_copy / "missions.txt", "[mission grave_robber]", "[mission claim_jumper]")
    load_fails(data_copy, r"duplicate id 'claim_jumper'")


def test_error_civilization_card_for_an_unknown_location(data_copy):
    edit(data_copy / "civilization.txt", "[civ the_lodge]", "[civ the_tavern]")
    load_fails(data_copy, r"civilization card the_tavern: not a Civilization Location",
               file="civilization.txt", needle="[civ the_tavern]")


def test_error_civilization_card_missing(data_copy):
    f = data_copy / "civilization.txt"
    text = f.read_text(encoding="utf-8")
    f.write_text(text[:text.index("[civ the_lodge]")], encoding="utf-8")
    load_fails(data_copy, r"no Civilization Card for the_lodge", file="civilization.txt")


def test_error_civilization_group_and_pack(data_copy):
    f = data_copy / "civilization.txt"
    edit(f, "group     delvers", "group     woodwardens")
    load_fails(data_copy, r"the Natives at the_mine are the delvers", file="civilization.txt")
    edit(f, "group     woodwardens", "group     dwarves")
    load_fails(data_copy, r"unknown Native Group 'dwarves'", file="civilization.txt")
    edit(f, "group     dwarves", "group     delvers")
    edit(f, "pack      cruel_caves", "pack      wicked_woods")
    load_fails(data_copy, r"the location is of cruel_caves, not wicked_woods",
               file="civilization.txt")


def test_error_title_requirements(data_copy):
    f = data_copy / "civilization.txt"
    edit(f, "require=kills>=5*", "require=gold>=5*")
    load_fails(data_copy, r"title deep_delver: requirement 'gold>=5' is not one of",
               file="civilization.txt", needle="require=gold>=5*")
    edit(f, "require=gold>=5*", "require=outlaw,no_outlaw*")
    load_fails(data_copy, r"title deep_delver: 'no_outlaw' repeats or contradicts",
               file="civilization.txt")
    edit(f, "require=outlaw,no_outlaw*", "require=missions>=13*")
    load_fails(data_copy, r"title deep_delver: missions>=13, but a game of cruel_caves alone "
               r"has 12 Mission Cards", file="civilization.txt", needle="missions>=13*")


def test_error_title_box_price_reward_and_count(data_copy):
    f = data_copy / "civilization.txt"
    edit(f, "box=small*  require=kills>=5*", "box=medium*  require=kills>=5*")
    load_fails(data_copy, r"box: 'medium' is not one of small, large", file="civilization.txt")
    edit(f, "box=medium*", "box=small*")
    edit(f, "price=gold:5*   reward=lp:1,fame:5*", "price=5*   reward=lp:1,fame:5*")
    load_fails(data_copy, r"price '5' is not gold:N", file="civilization.txt")
    edit(f, "price=5*", "price=gold:5*")
    edit(f, "reward=lp:1,fame:5*", "reward=lp:0,fame:0*")
    load_fails(data_copy, r"title deep_delver: a title earns LPs or Fame", file="civilization.txt")
    edit(f, "reward=lp:0,fame:0*", "reward=lp:1,fame:5*")
    edit(f, "1.title   friend_of_the_forest", "# 1.title   friend_of_the_forest")
    edit(f, "1.title   master_of_the_hunt", "# 1.title   master_of_the_hunt")
    edit(f, "1.title   shadow_of_the_woods", "# 1.title   shadow_of_the_woods")
    load_fails(data_copy, r"civilization card the_lodge side 1 has 1 titles; give each side 2-4",
               file="civilization.txt", needle="[civ the_lodge]")


def test_error_free_large_box_without_limit_and_useless_limit(data_copy):
    f = data_copy / "civilization.txt"
    edit(f, "price=gold:18*  reward=lp:1,fame:0*\n2.limit   2*",
         "price=gold:0*  reward=lp:1,fame:0*\n2.limit   2*")
    load_fails(data_copy, r"title patron_of_the_lodge: a free large box on a side without a limit",
               file="civilization.txt", needle="patron_of_the_lodge")
    edit(f, "price=gold:0*  reward=lp:1,fame:0*\n2.limit   2*",
         "price=gold:18*  reward=lp:1,fame:0*\n2.limit   2*")
    edit(f, "box=large*  require=fame>=10*", "box=small*  require=fame>=10*")
    edit(f, "2.limit   2*\n2.title   honorary_foreman", "2.limit   4*\n2.title   honorary_foreman")
    load_fails(data_copy, r"the_mine side 2: limit 4 limits nothing on a side of 4 small boxes",
               file="civilization.txt")


def test_error_duplicate_title_id(data_copy):
    edit(data_copy / "civilization.txt", "2.title   tunnel_rat ", "2.title   deep_delver ")
    load_fails(data_copy, r"duplicate title id 'deep_delver'", file="civilization.txt",
               needle="2.title   deep_delver ")
