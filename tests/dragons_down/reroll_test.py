"""Rerolls a hero chooses (PH_REROLL): the Gage of the Thief (L1342),
Divination (L1528), the Dust of Destiny (L1330) and the Conjurer's Mastery
for Open Gate and Teleport (L1214). A roll waits, its dice shown, while its
parties (the active hero or caster, then the target hero) may roll some of
it again; then it applies.

The Loot tests play on Deepdelve (``trade_test``): the hero in clearing 1
with a found pile of two cards, the Loot Dice loaded as raw draws (the face
shown: 0 the grabby hand, 1..5 the numbers). The spell tests build a combat
as ``spells_test`` does and apply the spell's hit directly.
"""
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import CW_HERO, CW_REMOVED, SPELL_IDS, T_BACKPACK, T_HANDS, TILE_IDS
from dragongym.envs.dragons_down.game import GAME
from tests.dragons_down.actions_test import act, load
from tests.dragons_down.setup_test import legal
from tests.dragons_down.trade_test import CATACOMBS, GRABBY, LOOT, give, held, phase, pile, put_pile, start

DONE = R.A_DO + R.DO_DONE
ALL = R.MAX_ROLL_DICE


def reroll(src, k):
    """The action rerolling die k (ALL: every die) with source src (RR_*)."""
    return R.A_REROLL + src * R.REROLL_WAYS + k


def rerolls(S):
    return sorted(a for a in legal(S) if R.A_REROLL <= a < R.A_REROLL + R.NUM_RR_SOURCES * R.REROLL_WAYS)


def looter(*kinds, slot=T_BACKPACK):
    """A hero in Deepdelve 1 holding cards of ``kinds`` (at ``slot``), at a
    found pile of two cards; returns (S, p, the pile's cards)."""
    S, p = start()
    for kind in kinds:
        c = give(S, p, kind)
        if slot != T_BACKPACK:
            R.equip_card(S, 0, p, c, slot)
    cards = put_pile(S, CATACOMBS, ["skeleton_key", "alchemists_mixture"], finders=[p])
    return S, p, cards


def divined(S, p):
    """Divination cast on hero p (self or other, L1528): in play on him."""
    k = SPELL_IDS.index("divination")
    sp = next(sp for sp in range(len(S[0]["spell_on"])) if R.SPELL_KIND[sp] == k)
    S[0]["spell_where"][sp], S[0]["spell_owner"][sp] = R.SPW_KNOWN, p
    assert not R.aid_target(S, 0, p, sp, R.AIM_HERO + p)
    return sp


# ================================================================ the Gage of the Thief (L1342)
def test_dd_treasure_gage_of_the_thief_1_rerolls_one_loot_die_once_per_loot_action():
    """L1342: the Gage, equipped, lets its owner reroll one Loot Die of a
    Loot Action, his choice of die or none: a 5 beside a 2 takes nothing
    from a pile of two; rerolled to a 1, the 2 counts and he takes the
    second card. One die only (never both), and once: the new roll stands."""
    S, p, cards = looter("gage_of_the_thief", slot=T_HANDS)
    load(S, 5, 2)
    act(S, LOOT)
    assert phase(S) == R.PH_REROLL and int(S[0]["to_play"]) == p
    assert list(S[0]["roll_dice"]) == [5, 2]
    assert rerolls(S) == [reroll(R.RR_GAGE, 0), reroll(R.RR_GAGE, 1)] and DONE in legal(S)
    assert GAME.action_to_string(S, reroll(R.RR_GAGE, 0)) == "reroll die 1 (showing 5) with the Gage of the Thief"
    load(S, 1)
    act(S, reroll(R.RR_GAGE, 0))
    assert held(S, p, cards[1]) and pile(S, CATACOMBS) == [cards[0]]        # no second reroll asked
    assert int(S[0]["roll_kind"]) == R.ROLL_NONE


def test_dd_treasure_gage_of_the_thief_1_letting_the_roll_stand_or_no_gage():
    """The roll stands when its owner says so (a 5 takes nothing); a hero
    without the Gage (or with it in the backpack, not equipped) is never asked."""
    S, p, cards = looter("gage_of_the_thief", slot=T_HANDS)
    load(S, 5, 2)
    act(S, LOOT)
    act(S, DONE)
    assert pile(S, CATACOMBS) == cards and phase(S) == R.PH_ACTION
    S, p, cards = looter("gage_of_the_thief")
    load(S, 5, 2)
    act(S, LOOT)
    assert phase(S) == R.PH_ACTION and pile(S, CATACOMBS) == cards


# ================================================================ Divination (L1528)
def test_dd_spell_divination_1_rerolls_any_dice_of_one_loot_action_then_spent():
    """L1528: Divination on the hero lets him reroll any number of the dice
    of one Loot Action: both 5s again, a grabby hand and a 1: the first card.
    The spell is then spent for the turn: the next Loot Action asks nothing."""
    S, p, cards = looter()
    sp = divined(S, p)
    assert R.SPELL_BUILT[SPELL_IDS.index("divination")] == 1                 # castable: its effect is built
    load(S, 5, 5)
    act(S, LOOT)
    assert rerolls(S) == [reroll(R.RR_DIVINATION, 0), reroll(R.RR_DIVINATION, 1), reroll(R.RR_DIVINATION, ALL)]
    load(S, GRABBY, 1)
    act(S, reroll(R.RR_DIVINATION, ALL))
    assert held(S, p, cards[0]) and int(S[0]["spell_mark"][sp]) == 1
    while phase(S) != R.PH_ACTION:                                            # where the looted card goes
        act(S, legal(S)[0])
    load(S, 5, 5)
    act(S, LOOT)
    assert phase(S) == R.PH_ACTION and pile(S, CATACOMBS) == [cards[1]]


def test_dd_spell_divination_1_the_spell_on_another_hero_does_not_help():
    """Divination helps the Hero it targets only: without it in play on him
    the looter is asked nothing."""
    S, p = start(num_heroes=2)
    cards = put_pile(S, CATACOMBS, ["skeleton_key", "alchemists_mixture"], finders=[p])
    divined(S, 1 - p)
    load(S, 5, 5)
    act(S, LOOT)
    assert phase(S) == R.PH_ACTION and pile(S, CATACOMBS) == cards


# ================================================================ the Dust of Destiny (L1330)
def test_dd_treasure_dust_of_destiny_1_rerolls_a_loot_roll_once_and_leaves_the_game():
    """L1330: one-time, the Dust rerolls any one die or the whole roll of
    which its owner is the active Hero: the whole Loot roll again (two 5s
    become 2 and 1): the second card. The Dust leaves the game (L916)."""
    S, p, cards = looter("dust_of_destiny")
    dust = next(c for c in range(len(S[0]["card_where"])) if held(S, p, c) and
                int(R.CARD_KIND[c]) == R.DUST_OF_DESTINY)
    load(S, 5, 5)
    act(S, LOOT)
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]
    load(S, 2, 1)
    act(S, reroll(R.RR_DUST, ALL))
    assert held(S, p, cards[1]) and int(S[0]["card_where"][dust]) == CW_REMOVED


def test_dd_treasure_dust_of_destiny_1_kept_when_the_roll_stands():
    """Letting the roll stand keeps the Dust for a later roll."""
    S, p, cards = looter("dust_of_destiny")
    load(S, 1, 2)
    act(S, LOOT)
    act(S, DONE)
    assert held(S, p, cards[1])
    assert any(int(S[0]["card_where"][c]) == CW_HERO and int(R.CARD_KIND[c]) == R.DUST_OF_DESTINY
               for c in range(len(S[0]["card_where"])))


def test_dd_treasure_dust_of_destiny_1_gage_then_dust_on_one_loot():
    """Each source rerolls once: the Gage rerolls one die (still a 5), the
    Dust then the other or both; the roll applies once none is left."""
    S, p, cards = looter("gage_of_the_thief", slot=T_HANDS)
    give(S, p, "dust_of_destiny")
    load(S, 5, 4)
    act(S, LOOT)
    load(S, 5)
    act(S, reroll(R.RR_GAGE, 0))
    assert phase(S) == R.PH_REROLL and rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1),
                                                       reroll(R.RR_DUST, ALL)]
    load(S, 1)
    act(S, reroll(R.RR_DUST, 0))
    assert pile(S, CATACOMBS) == cards                                      # 1 and 4: the pile holds two


# ================================================================ the Conjurer's Mastery (L1214)
def _gated(cls="conjurer", targets_hero=False):
    """A hero of ``cls`` in Tri Peaks 1 fighting a Giant Spider, knowing
    Open Gate; two Gates revealed, in Hag's Mire 2 and 3."""
    from tests.dragons_down.combat_test import TRI_PEAKS_1, chip, combat
    from tests.dragons_down.spells_test import _gate, in_combat, learn
    heroes = [("human", cls, TRI_PEAKS_1)] + ([("human", "knight", TRI_PEAKS_1)] if targets_hero else [])
    S = combat(heroes, monsters=(("giant_spider", TRI_PEAKS_1),), tiles=("tri_peaks", "hags_mire"))
    sp = learn(S, 0, "open_gate")
    gates = [_gate(S, "hags_mire", 2), _gate(S, "hags_mire", 3)]
    spider = chip(S, "giant_spider")
    in_combat(S)
    return S, sp, spider, gates


def _two_gates(S, gates):
    """Two distinct Gate tokens (``_gate`` takes the first Gate token each time)."""
    s = S[0]
    ws = [i for i in range(len(R.WILD_GATE)) if R.WILD_GATE[i]][:2]
    for w, c in zip(ws, gates):
        s["wild_where"][w], s["wild_clearing"][w] = R.TOK_PLACED, c


def test_dd_class_conjurer_2_rerolls_open_gates_clearing_and_keeps_the_new_one():
    """L1214: the Conjurer may reroll one die for Open Gate: the Gate drawn
    (the first, Hag's Mire 2) is shown and he chooses; rerolled, the new
    clearing (Hag's Mire 3) must be accepted: the spider goes there."""
    S, sp, spider, gates = _gated()
    _two_gates(S, gates)
    load(S, 0)
    assert R.spell_hits(S, 0, 0, sp, spider, 1)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_GATE
    assert int(S[0]["roll_dice"][0]) == gates[0] and rerolls(S) == [reroll(R.RR_MASTERY, 0)]
    load(S, 1)
    act(S, reroll(R.RR_MASTERY, 0))
    assert int(S[0]["mon_clearing"][spider]) == gates[1] and phase(S) != R.PH_REROLL


def test_dd_class_conjurer_2_a_sorcerer_has_no_reroll_of_open_gate():
    """Mastery is the Conjurer's: a Sorcerer's Open Gate applies as drawn."""
    S, sp, spider, gates = _gated("sorcerer")
    _two_gates(S, gates)
    load(S, 0)
    assert not R.spell_hits(S, 0, 0, sp, spider, 1)
    assert int(S[0]["mon_clearing"][spider]) == gates[0]


def test_dd_class_conjurer_2_rerolls_teleports_clearing():
    """L1214, L1522: Teleport's clearing, drawn on the tile the Conjurer
    chose (Hag's Mire 2), may be rerolled once (Hag's Mire 1)."""
    from tests.dragons_down.spells_test import learn
    S, _, spider, _ = _gated()
    sp = learn(S, 0, "teleport")
    mire = TILE_IDS.index("hags_mire")
    assert R.spell_hits(S, 0, 0, sp, spider, 1) and phase(S) == R.PH_TELEPORT_TILE
    load(S, 1)
    act(S, R.A_TILE + mire)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_dice"][0]) == mire * 6 + 1
    assert rerolls(S) == [reroll(R.RR_MASTERY, 0)]
    load(S, 0)
    act(S, reroll(R.RR_MASTERY, 0))
    assert int(S[0]["mon_clearing"][spider]) == mire * 6


def test_dd_treasure_dust_of_destiny_1_the_target_hero_rerolls_after_the_caster():
    """L1330 "the target, or the attacker": a Sorcerer's Open Gate sends the
    Knight, who holds a Dust of Destiny; the caster has no reroll, so the
    Knight is asked, and his reroll's Gate applies."""
    S, sp, spider, gates = _gated("sorcerer", targets_hero=True)
    _two_gates(S, gates)
    give(S, 1, "dust_of_destiny")
    load(S, 0)
    assert R.spell_hits(S, 0, 0, sp, R.AIM_HERO + 1, 1)
    assert phase(S) == R.PH_REROLL and int(S[0]["to_play"]) == 1
    assert rerolls(S) == [reroll(R.RR_DUST, 0)]
    load(S, 1)
    act(S, reroll(R.RR_DUST, 0))
    assert int(S[0]["hero_clearing"][1]) == gates[1]


# ================================================================ the Dust of Destiny on a Search (L1330, L511)
def _dusty_searcher():
    """A Dwarf Knight holding a Dust of Destiny in Deepdelve 2, beside its Hidden Path."""
    from tests.dragons_down.treasures_test import _searcher
    return _searcher("dust_of_destiny", T_BACKPACK, _cave_2())


def _cave_2():
    from tests.dragons_down.actions_test import CAVE_2
    return CAVE_2


SPYGLASS, BLANK = 0, 3                      # Search Die raw draws (dice.txt)


def test_dd_treasure_dust_of_destiny_1_rerolls_the_blank_die_of_a_failed_search():
    """L1330, L511: a search showing a spyglass and a blank fails; its owner,
    the active Hero, may reroll the blank die with the Dust (never the
    spyglass): a spyglass, and the Hidden Path is found. The Dust is gone."""
    S, p = _dusty_searcher()
    load(S, SPYGLASS, BLANK)
    act(S, R.A_SEARCH + 0)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_SEARCH
    assert rerolls(S) == [reroll(R.RR_DUST, 1)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 1)) == "reroll die 2 (showing a blank) with the Dust of Destiny"
    load(S, SPYGLASS)
    act(S, reroll(R.RR_DUST, 1))
    assert int(S[0]["hidden_found"][p].sum()) == 1 and phase(S) == R.PH_ACTION
    assert not any(int(S[0]["card_where"][c]) == CW_HERO and int(R.CARD_KIND[c]) == R.DUST_OF_DESTINY
                   for c in range(len(S[0]["card_where"])))


def test_dd_treasure_dust_of_destiny_1_a_search_that_succeeds_or_stands():
    """A search that succeeds asks nothing; one whose failure is let stand
    keeps its dice for the next search of the same target (L513) and the Dust."""
    S, p = _dusty_searcher()
    load(S, BLANK, BLANK)
    act(S, R.A_SEARCH + 0)
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]
    act(S, DONE)
    assert int(S[0]["hidden_found"][p].sum()) == 0 and phase(S) == R.PH_ACTION
    load(S, SPYGLASS, SPYGLASS)
    act(S, R.A_SEARCH + 0)
    assert int(S[0]["hidden_found"][p].sum()) == 1 and phase(S) == R.PH_ACTION


# ================================================================ the Dust of Destiny on a Learn and a haggle (L1330, L542-L543, L995)
BOOK, LEARN_BLANK, CURSE = 0, 3, 5          # Learn Die raw draws (dice.txt: book x3, blank x2, curse)


def test_dd_treasure_dust_of_destiny_1_rerolls_a_learn_dies_curse_before_it_applies():
    """L1330, L543: a Learn roll showing a curse and a book would curse the
    Druid; before it applies he rerolls the curse with the Dust (never the
    book): a book, and he learns Nature's Help, uncursed."""
    from tests.dragons_down.magic_test import book_with, druid, known
    S, p = druid()
    _, (natures,) = book_with(S, p, "natures_help")
    give(S, p, "dust_of_destiny")
    load(S, CURSE, BOOK)
    act(S, R.A_SPELL + natures)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_LEARN
    assert rerolls(S) == [reroll(R.RR_DUST, 0)] and int(S[0]["curses"][p]) == 0
    load(S, BOOK)
    act(S, reroll(R.RR_DUST, 0))
    assert natures in known(S, p) and int(S[0]["curses"][p]) == 0


def test_dd_treasure_dust_of_destiny_1_rerolls_a_failed_haggles_door():
    """L1330, L995: a haggle with the Fence (haggle number 1) showing a 0 and
    the closed door fails; the Dust rerolls the door (not the 0): a 1, and
    the price drops a step, the hero still buying."""
    from tests.dragons_down.trade_test import DOOR, HAGGLE, bargain
    S, p, m, c = bargain(mid="fence")
    give(S, p, "dust_of_destiny")
    factor = int(S[0]["trade_factor"])
    load(S, 0, DOOR)
    act(S, HAGGLE)
    assert phase(S) == R.PH_REROLL and rerolls(S) == [reroll(R.RR_DUST, 1)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 1)) == \
        "reroll die 2 (showing the closed door) with the Dust of Destiny"
    load(S, 1)
    act(S, reroll(R.RR_DUST, 1))
    assert phase(S) == R.PH_BUY and int(S[0]["trade_factor"]) == factor - 1


# ================================================================ the Dust of Destiny when struck (L1330, L740-L743)
def _struck_knight(*dice):
    """A Knight with a Dust of Destiny against a Giant (attack speed 1), one
    Speed Cube in his maneuver box (1: the Hit Dice decide), the Giant's
    Monster Die and then its Hit Dice loaded as ``dice``; at its Resolve step."""
    from tests.dragons_down.combat_test import KNIGHT, TRI_PEAKS_1, combat, start as start_combat
    S = combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=dice)
    dust = give(S, 0, "dust_of_destiny")
    start_combat(S)
    while phase(S) != R.PH_TACTICS:
        act(S, R.A_DO + (R.DO_STAY if phase(S) == R.PH_EVADE else R.DO_PASS))
    act(S, R.A_BOX + R.BOX_MANEUVER)
    if phase(S) == R.PH_TACTICS:
        act(S, DONE)
    return S, dust


def test_dd_treasure_dust_of_destiny_1_the_target_rerolls_a_monsters_hit():
    """L1330 "the target", L740-L743: the Giant's Hit Dice show two hits at
    equal speeds: a hit. Before it applies the Knight rerolls one die with
    his Dust (a blank: a miss); no armour is asked, no wound taken; the Dust
    is gone."""
    from tests.dragons_down.combat_test import BLANK, HIT, NO_SYMBOL
    S, dust = _struck_knight(NO_SYMBOL, HIT, HIT)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_STRUCK and int(S[0]["to_play"]) == 0
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]
    load(S, BLANK)
    act(S, reroll(R.RR_DUST, 0))
    assert phase(S) != R.PH_ARMOR and int(S[0]["card_where"][dust]) == CW_REMOVED
    assert int(S[0]["hearts"][0, 1]) == 0 and int(S[0]["cubes"][0, 1].sum()) == 0


def test_dd_treasure_dust_of_destiny_1_a_hit_let_stand_strikes():
    """The Knight lets the Giant's hit stand: he takes it (his armour asked,
    L751) and keeps the Dust."""
    from tests.dragons_down.combat_test import HIT, NO_SYMBOL
    S, dust = _struck_knight(NO_SYMBOL, HIT, HIT)
    act(S, DONE)
    assert phase(S) == R.PH_ARMOR and int(S[0]["card_where"][dust]) == CW_HERO


# ================================================================ the heuristic bot's rerolls
def test_the_heuristic_rerolls_the_loot_die_that_takes_nothing_and_lets_a_good_roll_stand():
    """The bundled heuristic rerolls the counting (higher) die of a Loot roll
    that takes no card, with the Gage first; a roll that takes a card stands."""
    import numpy as np
    from dragongym.agents.dragons_down_heuristic import DragonsDownHeuristic
    bot = DragonsDownHeuristic(GAME)
    S, p, cards = looter("gage_of_the_thief", slot=T_HANDS)
    give(S, p, "dust_of_destiny")
    load(S, 2, 5)
    act(S, LOOT)
    assert bot.act_state(GAME, S, p, np.random.default_rng(0)) == reroll(R.RR_GAGE, 1)
    S, p, cards = looter("gage_of_the_thief", slot=T_HANDS)
    load(S, 2, 1)
    act(S, LOOT)
    assert bot.act_state(GAME, S, p, np.random.default_rng(0)) == DONE
