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


# ================================================================ the Dust of Destiny on the hero's own attack (L1330, L740-L753)
def _dusty(S, p):
    """Hero p of a combat position holds a Dust of Destiny (in his backpack); its card."""
    from tests.dragons_down.combat_test import give as give_card
    return give_card(S, p, "dust_of_destiny")


def _gone(S, dust):
    return int(S[0]["card_where"][dust]) == CW_REMOVED


def test_dd_treasure_dust_of_destiny_1_the_attacker_rerolls_his_missing_hit_dice():
    """L1330 "the attacker", L740-L743: the Knight strikes the Giant at speed
    1 against its maneuver 1; his Hit Dice show a blank and a hit: a miss.
    Before it applies he may reroll the blank with his Dust (never the hit,
    nor the whole roll: the hit is never worth rolling again): a hit, and
    2 Might and a sword (3) kill the Giant (health 3)."""
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, KNIGHT, NO_SYMBOL, TRI_PEAKS_1, chip, combat, \
        place, start as start_combat, target
    S = combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT_BLANK, HIT])
    dust = _dusty(S, 0)
    start_combat(S)
    giant = chip(S, "giant")
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_ATTACK and int(S[0]["to_play"]) == 0
    assert rerolls(S) == [reroll(R.RR_DUST, 0)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 0)) == "reroll die 1 (showing a blank) with the Dust of Destiny"
    assert int(S[0]["mon_clearing"][giant]) == TRI_PEAKS_1                  # the roll waits: nothing applied yet
    load(S, HIT)
    act(S, reroll(R.RR_DUST, 0))
    assert int(S[0]["mon_clearing"][giant]) == R.MON_TAKEN and int(S[0]["fame"][0]) == 8 and _gone(S, dust)


def test_dd_treasure_dust_of_destiny_1_a_miss_let_stand_and_a_sure_hit_ask_nothing():
    """The Knight lets his miss stand: the Giant is unharmed and strikes him
    (he has no maneuver: it hits without dice, nothing to reroll); the Dust
    is kept. An attack speed above the foe's maneuver hits without dice: no
    roll, nothing asked."""
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, KNIGHT, NO_SYMBOL, TRI_PEAKS_1, chip, combat, \
        place, start as start_combat, target
    S = combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT_BLANK, HIT])
    dust = _dusty(S, 0)
    start_combat(S)
    giant = chip(S, "giant")
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK)
    act(S, DONE)
    assert int(S[0]["foe_wounds"][giant]) == 0 and phase(S) == R.PH_ARMOR and not _gone(S, dust)
    S = combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL])
    dust = _dusty(S, 0)
    start_combat(S)
    giant = chip(S, "giant")
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    assert int(S[0]["mon_clearing"][giant]) == R.MON_TAKEN and not _gone(S, dust)


def test_dd_treasure_dust_of_destiny_1_the_attacker_rerolls_the_worse_ranged_attack_die():
    """L1330, L753: the Archer's arrow (2 + 1 sword) hits the Ogre (health 4)
    without dice; his Ranged Attack Dice show +1 and -1, and his own reroll
    of the -1 (L1208) shows -1 again: 2 damage, a wound. The Dust may reroll
    the -1 (the worse die, the only one worth rolling): +2, so the +1
    counts: 4 damage kill the Ogre."""
    from tests.dragons_down.combat_test import ARCHER, NO_SYMBOL, R_MINUS1, R_PLUS1, R_PLUS2, TRI_PEAKS_1, chip, \
        combat, place, start as start_combat, target
    S = combat([ARCHER], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL, R_PLUS1, R_MINUS1, R_MINUS1])
    dust = _dusty(S, 0)
    start_combat(S)
    ogre = chip(S, "ogre")
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_RANGED
    assert list(S[0]["roll_dice"]) == [-1, 1] and rerolls(S) == [reroll(R.RR_DUST, 0)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 0)) == "reroll die 1 (showing -1) with the Dust of Destiny"
    load(S, R_PLUS2)
    act(S, reroll(R.RR_DUST, 0))
    assert int(S[0]["mon_clearing"][ogre]) == R.MON_TAKEN and _gone(S, dust)


def test_dd_treasure_dust_of_destiny_1_the_target_rerolls_a_monsters_ranged_attack_dice():
    """L1330 "the target", L751-L753: the flipped Goblin's arrow hits the
    Knight, who takes it on his chainmail (1 + 1 sword - 1); its Ranged
    Attack Dice show +1 and +2: 2 damage, a wound. He rerolls the +1 with
    his Dust: -1, 0 damage, no wound."""
    from tests.dragons_down.combat_test import KNIGHT, NO_SYMBOL, R_MINUS1, R_PLUS1, R_PLUS2, TRI_PEAKS_1, card_of, \
        chip, combat, passive, start as start_combat
    S = combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL, R_PLUS1, R_PLUS2])
    dust = _dusty(S, 0)
    S[0]["mon_flipped"][chip(S, "goblin")] = 1                            # its back: a ranged attack, speed 1
    start_combat(S)
    passive(S, 0)
    act(S, R.A_CARD + card_of(S, 0, "chainmail"))
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_RANGED and int(S[0]["to_play"]) == 0
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]
    load(S, R_MINUS1)
    act(S, reroll(R.RR_DUST, 0))
    assert phase(S) != R.PH_WOUND and int(S[0]["cubes"][0, 1].sum()) == 0 and int(S[0]["hearts"][0, 1]) == 0
    assert _gone(S, dust)


# ================================================================ Player vs. Player (L1174, L1330)
def test_dd_treasure_dust_of_destiny_1_both_heroes_of_a_duel_may_reroll_its_hit_dice():
    """L1330 "the target, or the attacker" (Player vs. Player, L1174): the
    Barbarian strikes the Knight at speed 0 against maneuver 0; a blank and a
    hit miss. The attacker is asked first and rerolls the blank: a hit. Now
    the hit goes against the Knight, who is asked next and rerolls a die of
    it: a blank, the attack misses. Each Dust is spent."""
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT
    from tests.dragons_down.pvp_test import BARB, KNIGHT, barbarian_strikes_knight, duel
    S = duel()
    dusts = [_dusty(S, KNIGHT), _dusty(S, BARB)]
    load(S, HIT_BLANK, HIT)
    barbarian_strikes_knight(S, attack=0)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_ATTACK and int(S[0]["to_play"]) == BARB
    assert rerolls(S) == [reroll(R.RR_DUST, 0)]
    load(S, HIT)
    act(S, reroll(R.RR_DUST, 0))
    assert phase(S) == R.PH_REROLL and int(S[0]["to_play"]) == KNIGHT
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]
    load(S, HIT_BLANK)
    act(S, reroll(R.RR_DUST, 1))
    assert phase(S) != R.PH_ARMOR and int(S[0]["hearts"][KNIGHT, 1]) == 0 and int(S[0]["cubes"][KNIGHT, 1].sum()) == 0
    assert all(_gone(S, d) for d in dusts)


def _fireball_at_the_knight_and_the_barbarian():
    """Player vs. Player: the Sorcerer's Fireball at the Knight (a Dust of
    Destiny in his backpack, two Speed Cubes in his maneuver boxes) and the
    Barbarian (none), cast at attack speed 2 (one cube, Specialized); both
    refuse its hit (L1032) and the Knight's roll (speed 2 against maneuver
    2) shows two hits. (S, the Dust)"""
    from tests.dragons_down.combat_test import HIT, TRI_PEAKS_1, ask, place, start as start_combat
    from tests.dragons_down.pvp_test import BARB_2, KNIGHT_2, MAGE, mage_duel, no_challenges_of
    from tests.dragons_down.spells_test import cast
    S, sp = mage_duel("fireball", {"purple": 4}, more=(("human", "knight", TRI_PEAKS_1),
                                                        ("human", "barbarian", TRI_PEAKS_1)))
    dust = _dusty(S, KNIGHT_2)
    start_combat(S)
    no_challenges_of(S, MAGE, KNIGHT_2, BARB_2)
    act(S, R.A_SEAT + KNIGHT_2)
    act(S, R.A_SEAT + BARB_2)                                             # its second target (PH_MORE_TARGETS)
    for seat in (KNIGHT_2, BARB_2):
        ask(S, R.PH_TARGET, seat)
        act(S, R.A_DO + R.DO_PASS)
    cast(S, MAGE, sp, R.BOX_ATTACK)
    place(S, KNIGHT_2, R.BOX_MANEUVER, R.BOX_MANEUVER)
    place(S, BARB_2)
    for seat in (KNIGHT_2, BARB_2):
        ask(S, R.PH_ACCEPT, seat)
        if seat == BARB_2:
            load(S, HIT, HIT)
        act(S, R.A_ANSWER + R.ANSWER_REFUSE)
    return S, dust


def test_dd_treasure_dust_of_destiny_1_a_hero_a_fireball_hits_rerolls_its_hit_dice_then_its_ranged_dice():
    """L1330 "the target", L1562, L1174: the Fireball's two hits on the
    Knight go against him: he is asked (the caster has no Dust) and rerolls
    one -- a blank at equal speeds misses him; the cast goes on to the
    Barbarian, hit without dice, who alone takes its ranged attack (his
    armour choice). Let stand instead, the hit strikes the Knight first, in
    Turn Order, as a hero's ranged hit: unarmoured, 2 + 1 sword and its
    Ranged Attack Dice +1 and +2 make 4; the dice go against him too, and he
    rerolls the +1 with the Dust he kept: -1, 2 damage, one wound."""
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, R_MINUS1, R_PLUS1, R_PLUS2, ask
    from tests.dragons_down.pvp_test import BARB_2, KNIGHT_2, MAGE
    S, dust = _fireball_at_the_knight_and_the_barbarian()
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_ATTACK and int(S[0]["to_play"]) == KNIGHT_2
    assert list(S[0]["roll_party"]) == [MAGE, KNIGHT_2]
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]
    load(S, HIT_BLANK)
    act(S, reroll(R.RR_DUST, 0))
    ask(S, R.PH_ARMOR, BARB_2)
    assert (int(S[0]["atk_by"]), int(S[0]["atk_victim"]), int(S[0]["atk_victims"])) == (1 + MAGE, BARB_2, 0)
    assert _gone(S, dust) and int(S[0]["hearts"][KNIGHT_2, 1]) == 0
    S, dust = _fireball_at_the_knight_and_the_barbarian()
    act(S, DONE)
    ask(S, R.PH_ARMOR, KNIGHT_2)
    assert int(S[0]["atk_victims"]) == 1 << BARB_2
    load(S, R_PLUS1, R_PLUS2)
    act(S, R.A_DO + R.DO_PASS)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_RANGED and int(S[0]["to_play"]) == KNIGHT_2
    assert int(S[0]["roll_target"]) == 3 and rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1),
                                                             reroll(R.RR_DUST, ALL)]
    load(S, R_MINUS1)
    act(S, reroll(R.RR_DUST, 0))
    ask(S, R.PH_WOUND, KNIGHT_2)
    assert int(S[0]["atk_stage"]) == R.AS_WOUND and _gone(S, dust)


def test_dd_treasure_dust_of_destiny_1_a_hero_a_curse_spell_hits_rerolls_the_curse_table_and_its_clearing():
    """L1330 "the target", L1500, L1174: the Curse spell hits the Knight, who
    holds a Dust: his roll on the Curse Table (Clumsiness) waits on it; he
    rerolls it: Sloth, marked on him. With a second Dust, the Teleport curse
    is let stand, and the clearing the dice name (Hag's Mire 3) waits on it
    in turn; rerolled, Hag's Mire 1: he is moved there as a spell moves him,
    out of the combat."""
    from dragongym.envs.dragons_down import data as D, view as V
    from dragongym.envs.dragons_down.constants import CURSE_IDS, OPT_PVP
    from tests.dragons_down.combat_test import TRI_PEAKS_1, combat, start as start_combat
    from tests.dragons_down.pvp_test import KNIGHT_2, MAGE, SORCERER, mage_duel
    from tests.dragons_down.spells_test import learn
    S, sp = mage_duel("curse", {"black": 2})
    dust = _dusty(S, KNIGHT_2)
    start_combat(S)
    load(S, D.REALM.curses["clumsiness"].roll - 1)
    assert R.spell_hits(S, 0, MAGE, sp, R.AIM_HERO + KNIGHT_2, 1)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_CURSE and int(S[0]["to_play"]) == KNIGHT_2
    assert rerolls(S) == [reroll(R.RR_DUST, 0)] and V.pending_roll(S) == "the Curse Table: Clumsiness"
    assert int(S[0]["curses"][KNIGHT_2]) == 0
    load(S, D.REALM.curses["sloth"].roll - 1)
    act(S, reroll(R.RR_DUST, 0))
    assert int(S[0]["curses"][KNIGHT_2]) == 1 << CURSE_IDS.index("sloth") and _gone(S, dust)
    S = combat([SORCERER, ("human", "knight", TRI_PEAKS_1)], tiles=("tri_peaks", "hags_mire"))
    S[0]["optional_rules"] = OPT_PVP
    sp = learn(S, MAGE, "curse")
    dust = _dusty(S, KNIGHT_2)
    start_combat(S)
    mire = TILE_IDS.index("hags_mire")
    load(S, D.REALM.curses["teleport"].roll - 1, 2, 3, 2)    # gray: Wicked Woods; black: eye; d6: 3
    assert R.spell_hits(S, 0, MAGE, sp, R.AIM_HERO + KNIGHT_2, 1)
    assert V.pending_roll(S) == "the Curse Table: Teleport"
    act(S, DONE)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_DESTINATION
    assert list(S[0]["roll_dice"]) == [mire * 6 + 2, -1] and V.pending_roll(S).startswith("the Teleport curse's clearing Hag")
    load(S, 2, 3, 0)
    act(S, reroll(R.RR_DUST, 0))
    assert int(S[0]["hero_clearing"][KNIGHT_2]) == mire * 6 and _gone(S, dust)
    assert int(S[0]["spell_moved"]) == 1 << KNIGHT_2 and int(S[0]["hero_combat"][KNIGHT_2]) == R.HC_NONE


def test_dd_treasure_dust_of_destiny_1_both_heroes_may_reroll_an_air_swords_hit_dice():
    """L1330 "the target, or the attacker", L1520, L1174: the Sorcerer's Air
    Sword (speed 2) strikes the Knight, two Speed Cubes in his maneuver
    boxes: a blank and a hit miss. Its caster rerolls the blank (the sword's
    attack is his): a hit, which now goes against the Knight, who rerolls a
    die of it: a blank, and the sword misses him. Both Dusts are spent."""
    from dragongym.envs.dragons_down.constants import OPT_PVP
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, TRI_PEAKS_1, combat, place, \
        start as start_combat
    from tests.dragons_down.pvp_test import KNIGHT_2, MAGE, SORCERER, no_challenges_of
    from tests.dragons_down.spells_test import learn
    S = combat([SORCERER, ("human", "knight", TRI_PEAKS_1)])
    s = S[0]
    sp = learn(S, MAGE, "air_sword")
    s["spell_on"][sp], s["spell_mark"][sp] = R.AIM_HERO + MAGE, 0      # cast in an earlier round
    s["optional_rules"] = OPT_PVP
    dusts = [_dusty(S, KNIGHT_2), _dusty(S, MAGE)]
    start_combat(S)
    no_challenges_of(S, MAGE, KNIGHT_2)
    act(S, R.A_SEAT + KNIGHT_2)
    act(S, R.A_DO + R.DO_PASS)                       # the Knight targets no one
    place(S, MAGE)
    load(S, HIT_BLANK, HIT)
    place(S, KNIGHT_2, R.BOX_MANEUVER, R.BOX_MANEUVER)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_ATTACK and int(s["to_play"]) == MAGE
    assert list(s["roll_party"]) == [MAGE, KNIGHT_2] and rerolls(S) == [reroll(R.RR_DUST, 0)]
    load(S, HIT)
    act(S, reroll(R.RR_DUST, 0))
    assert phase(S) == R.PH_REROLL and int(s["to_play"]) == KNIGHT_2
    load(S, HIT_BLANK)
    act(S, reroll(R.RR_DUST, 1))
    assert phase(S) != R.PH_ARMOR and int(s["atk_by"]) == 0 and int(s["hearts"][KNIGHT_2, 1]) == 0
    assert all(_gone(S, d) for d in dusts)


# ================================================================ a spell's roll to hit and its Ranged Attack Dice (L1330, L1030, L1562)
def _fireball_at_two_ogres(speed):
    """A Sorcerer with a Dust of Destiny casting Fireball at two Ogres
    (maneuver 1, health 4, unarmoured) at attack speed ``speed``, at the
    Resolve step: 2 base damage and a sword each (two targets). Returns (S,
    the two Ogres, the Dust)."""
    from tests.dragons_down.combat_test import TRI_PEAKS_1, chip
    from tests.dragons_down.spells_test import in_combat, wizard
    S, sp = wizard("fireball", {"purple": 4}, monsters=(("ogre", TRI_PEAKS_1), ("ogre", TRI_PEAKS_1)))
    dust = _dusty(S, 0)
    in_combat(S)
    s = S[0]
    ogres = [chip(S, "ogre", 0), chip(S, "ogre", 1)]
    s["cast_card"][0], s["cast_stage"][0] = sp, R.CAST_PLACED
    s["hero_target"][0], s["more_targets"][0, 0] = ogres
    s["placed"][0, R.BOX_ATTACK] = speed
    return S, ogres, dust


def test_dd_treasure_dust_of_destiny_1_a_spells_roll_to_hit_then_the_cast_goes_on():
    """L1330, L1030: the Fireball strikes the first Ogre at speed 1 against
    its maneuver 1; a blank and a hit miss it. The caster rerolls the blank
    with his Dust: a hit, its Ranged Attack Dice (+1, +1) make 4: killed.
    The cast then goes on to the second Ogre: two hits and +1, +1: killed."""
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, R_PLUS1
    S, ogres, dust = _fireball_at_two_ogres(1)
    load(S, HIT_BLANK, HIT)
    assert R.cast_spell(S, 0, 0)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_ATTACK and rerolls(S) == [reroll(R.RR_DUST, 0)]
    load(S, HIT, R_PLUS1, R_PLUS1, HIT, HIT, R_PLUS1, R_PLUS1)
    act(S, reroll(R.RR_DUST, 0))
    assert [int(S[0]["mon_clearing"][f]) for f in ogres] == [R.MON_TAKEN, R.MON_TAKEN] and _gone(S, dust)


def test_dd_treasure_dust_of_destiny_1_a_fireballs_ranged_attack_dice_then_the_cast_goes_on():
    """L1330, L1562: at speed 2 the Fireball hits both Ogres without dice.
    The first one's Ranged Attack Dice show -1 and +1: 2 damage, a wound;
    the caster rerolls the -1: +2, so +1 counts, 4 damage kill it. The cast
    goes on: the second Ogre's dice (+1, +1) kill it too; nothing is asked,
    the Dust being spent."""
    from tests.dragons_down.combat_test import R_MINUS1, R_PLUS1, R_PLUS2
    S, ogres, dust = _fireball_at_two_ogres(2)
    load(S, R_MINUS1, R_PLUS1)
    assert R.cast_spell(S, 0, 0)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_RANGED and rerolls(S) == [reroll(R.RR_DUST, 0)]
    assert int(S[0]["cast_aim"]) == 0
    load(S, R_PLUS2, R_PLUS1, R_PLUS1)
    act(S, reroll(R.RR_DUST, 0))
    assert [int(S[0]["mon_clearing"][f]) for f in ogres] == [R.MON_TAKEN, R.MON_TAKEN] and _gone(S, dust)
    assert int(S[0]["roll_kind"]) == R.ROLL_NONE


# ================================================================ the Titan's Teleport (L1274, L1330)
def test_dd_treasure_dust_of_destiny_1_the_titans_target_rerolls_its_hit_and_its_clearing():
    """L1330 "the target", L1274: the Titan's Teleport (speed 3) against the
    Knight's maneuver 3 rolls two hits; the Knight rerolls one with his Dust:
    a blank, it misses and he stays. With a second Dust, hit without dice
    (maneuver 0), the clearing the dice name (Hag's Mire 3) waits on it: he
    rerolls it (Hag's Mire 1) and goes there."""
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, TRI_PEAKS_1
    from dragongym.envs.dragons_down import view as V
    from tests.dragons_down.spells_test import _caster_foe
    S, titan = _caster_foe("titan", 0, more=(), tiles=("tri_peaks", "hags_mire"))
    dust = _dusty(S, 0)
    S[0]["placed"][0, R.BOX_MANEUVER] = 3
    load(S, HIT, HIT)
    assert R.monster_cast(S, 0, titan)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_STRUCK and int(S[0]["to_play"]) == 0
    load(S, HIT_BLANK)
    act(S, reroll(R.RR_DUST, 0))
    assert int(S[0]["hero_clearing"][0]) == TRI_PEAKS_1 and _gone(S, dust)
    S, titan = _caster_foe("titan", 0, more=(), tiles=("tri_peaks", "hags_mire"))
    dust = _dusty(S, 0)
    mire = TILE_IDS.index("hags_mire")
    load(S, 2, 3, 2)                                                     # Wicked Woods, the eye, clearing 3
    assert R.monster_cast(S, 0, titan)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_DESTINATION
    assert list(S[0]["roll_dice"]) == [mire * 6 + 2, -1] and rerolls(S) == [reroll(R.RR_DUST, 0)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 0)).startswith("reroll die 1 (showing Hag")
    assert V.pending_roll(S).startswith("the Titan's Teleport's clearing Hag")
    load(S, 2, 3, 0)
    act(S, reroll(R.RR_DUST, 0))
    assert int(S[0]["hero_clearing"][0]) == mire * 6 and _gone(S, dust)


# ================================================================ Soul Save after the Dust (L1574, L1330)
def test_dd_spell_soul_save_1_acts_again_on_a_roll_the_dust_rerolled():
    """L1574: Soul Save makes an undead attacker reroll its most favourable
    Hit Die, unless both are blank -- on every roll it makes: the Wraith
    (speed 3) against the Barbarian's maneuver 3 rolls two hits, the save
    rerolls one, a hit again: a hit. He rerolls one with his Dust: an equal
    sign, and Soul Save rerolls the better die left, the hit: a blank, a
    miss (without the save acting again, the equal sign and the hit would
    hit at equal speeds)."""
    from tests.dragons_down.combat_test import BARBARIAN, BLANK as HIT_BLANK, EQUAL, HIT, NO_SYMBOL, TRI_PEAKS_1, \
        combat, place, start as start_combat, target
    from tests.dragons_down.spells_test import learn
    S = combat([BARBARIAN], monsters=[("wraith", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT, HIT])
    dust = _dusty(S, 0)
    save = learn(S, 0, "soul_save")
    S[0]["spell_on"][save] = R.AIM_HERO + 0
    start_combat(S)
    target(S, 0, None)
    place(S, 0, R.BOX_MANEUVER, R.BOX_MANEUVER, R.BOX_MANEUVER)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_STRUCK and int(S[0]["loaded_pos"]) == 4
    load(S, EQUAL, HIT_BLANK)
    act(S, reroll(R.RR_DUST, 0))
    assert int(S[0]["loaded_pos"]) == int(S[0]["loaded_count"])                # the save's die rolled too
    assert phase(S) != R.PH_ARMOR and int(S[0]["hearts"][0, 1]) == 0 and int(S[0]["cubes"][0, 1].sum()) == 0
    assert _gone(S, dust)


# ================================================================ hide attempts (L597-L605, L775, L1330)
MONSTER, NOTHING = 0, 2                        # raw Monster Die faces


def _hiding_knight(status=0):
    """A Knight with a Dust of Destiny beside a Giant at the end of Monster
    Activation, asked to hide (PH_HIDE); his heroes are bare (``activation_test.battle``)."""
    from tests.dragons_down.activation_test import BLANK as GRAY_BLANK, MOON, ONE, battle, clearing
    c = clearing("tri_peaks", 1)
    S = battle(["tri_peaks"], [("knight", c)], monsters=[("giant", c)], dice=[GRAY_BLANK, ONE, MOON, ONE])
    S[0]["hero_status"][0] = status
    dust = _dusty(S, 0)
    R.advance(S, 0)
    assert phase(S) == R.PH_HIDE
    return S, dust


def test_dd_treasure_dust_of_destiny_1_rerolls_the_monster_symbol_of_a_failed_hide():
    """L1330, L597-L605: the Knight's Hide reaction shows a Monster symbol and
    a blank: it fails. He rerolls the symbol with his Dust (never the blank):
    a blank, and he is hidden; the battle goes on to combat."""
    S, dust = _hiding_knight()
    load(S, MONSTER, NOTHING)
    assert R.do_action(S, 0, R.A_DO + R.DO_HIDE)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_HIDE and rerolls(S) == [reroll(R.RR_DUST, 0)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 0)) == \
        "reroll die 1 (showing a Monster symbol) with the Dust of Destiny"
    load(S, NOTHING)
    assert not R.do_action(S, 0, reroll(R.RR_DUST, 0))
    assert int(S[0]["hero_status"][0]) & R.HST_HIDDEN and _gone(S, dust)
    assert not R.activation_round(S, 0) and int(S[0]["stage"]) == R.ST_COMBAT


def test_dd_treasure_dust_of_destiny_1_one_die_of_a_hide_only_where_it_alone_could_hide_him():
    """Two Monster symbols: one die rerolled could never hide him (the other
    still fails), so only the whole roll is offered; a hero who Sneaked
    ignores one symbol (L603), so either die alone could: each is offered."""
    S, _ = _hiding_knight()
    load(S, MONSTER, MONSTER)
    R.do_action(S, 0, R.A_DO + R.DO_HIDE)
    assert rerolls(S) == [reroll(R.RR_DUST, ALL)]
    S, _ = _hiding_knight(R.HST_SNEAK)
    load(S, MONSTER, MONSTER)
    R.do_action(S, 0, R.A_DO + R.DO_HIDE)
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]


def test_dd_treasure_dust_of_destiny_1_a_hide_against_a_block_rerolled_escapes_it():
    """L459, L599, L1330: moved among a Goblin, the Dwarf is blocked unless he
    hides; his hide fails on a symbol, he rerolls it with his Dust: a blank,
    he is hidden, not blocked, and acts on."""
    from tests.dragons_down.actions_test import act as act_action, load as load_action
    from tests.dragons_down.hide_test import blocked_on_plains_3
    S, p = blocked_on_plains_3(lineages=("dwarf",))
    dust = give(S, p, "dust_of_destiny")
    load_action(S, MONSTER, NOTHING)
    act_action(S, R.A_DO + R.DO_HIDE)
    assert phase(S) == R.PH_REROLL and int(S[0]["to_play"]) == p and rerolls(S) == [reroll(R.RR_DUST, 0)]
    load_action(S, NOTHING)
    act_action(S, reroll(R.RR_DUST, 0))
    status = int(S[0]["hero_status"][p])
    assert status & R.HST_HIDDEN and not status & R.HST_BLOCKED and phase(S) == R.PH_ACTION and _gone(S, dust)


def test_dd_treasure_dust_of_destiny_1_rerolls_a_failed_roll_to_stay_hidden_in_cleanup():
    """L775, L1330: the hidden Archer shoots the Goblin at speed 0 and misses
    (a blank and a hit; he lets it stand, keeping the Dust); in Cleanup his
    roll to stay hidden shows a symbol: he rerolls it with the Dust, a blank,
    and stays hidden; the round ends."""
    from tests.dragons_down.combat_test import ARCHER, BLANK as HIT_BLANK, HIT, NO_SYMBOL, SYMBOL, TRI_PEAKS_1, chip, \
        combat, place, start as start_combat, target
    S = combat([ARCHER + (R.HST_HIDDEN,)], monsters=[("goblin", TRI_PEAKS_1)],
               dice=[NO_SYMBOL, HIT_BLANK, HIT, SYMBOL, NO_SYMBOL])
    dust = _dusty(S, 0)
    start_combat(S)
    act(S, R.A_DO + R.DO_STAY)
    target(S, 0, chip(S, "goblin"))
    place(S, 0, R.BOX_MIGHT)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_ATTACK
    act(S, DONE)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_HIDE and rerolls(S) == [reroll(R.RR_DUST, 0)]
    load(S, NO_SYMBOL)
    act(S, reroll(R.RR_DUST, 0))
    assert int(S[0]["hero_status"][0]) & R.HST_HIDDEN and int(S[0]["combat_round"]) == 2 and _gone(S, dust)


# ================================================================ the Make Noise roll (L471, L637, L1330)
def test_dd_treasure_dust_of_destiny_1_the_noisy_hero_rerolls_his_summoning_dice():
    """L471, L637, L1330: the Knight who made noise rolls the Summoning Dice
    for his clearing: the black symbol shows the eye (Tri-Peaks' Giants).
    He may reroll its gray or black symbol die, or the whole roll; he
    rerolls the black one: the moon, and nothing comes."""
    from tests.dragons_down.activation_test import BLANK as GRAY_BLANK, EYE, MOON, ONE, at, battle, clearing
    noisy = clearing("tri_peaks", 1)
    S = battle(["tri_peaks"], [("knight", noisy)], dice=[GRAY_BLANK, ONE, MOON, ONE,     # the start player's: nothing
                                                         GRAY_BLANK, ONE, EYE, ONE])     # the noisy hero's: a Giant
    S[0]["hero_status"][0] = R.HST_NOISE
    dust = _dusty(S, 0)
    R.advance(S, 0)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_NOISE
    assert list(S[0]["roll_dice"]) == [GRAY_BLANK, EYE] and at(S, noisy) == []
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 1)) == "reroll die 2 (showing black eye) with the Dust of Destiny"
    load(S, MOON)
    assert not R.do_action(S, 0, reroll(R.RR_DUST, 1))
    assert at(S, noisy) == [] and _gone(S, dust)
    S = battle(["tri_peaks"], [("knight", noisy)], dice=[GRAY_BLANK, ONE, MOON, ONE, GRAY_BLANK, ONE, EYE, ONE])
    S[0]["hero_status"][0] = R.HST_NOISE
    dust = _dusty(S, 0)
    R.advance(S, 0)
    R.do_action(S, 0, DONE)
    assert at(S, noisy) == ["giant"] and not _gone(S, dust)


# ================================================================ the Hidden Trap (L1248, L1330)
def test_dd_treasure_dust_of_destiny_1_rerolls_the_cube_the_hidden_trap_wounds():
    """L1248, L1330: the first finder of the Secret Cache (side 2) has a random
    Action Cube wounded: a Heart is drawn; he rerolls the draw with his
    Dust: a Might Cube is wounded instead. Then he equips or stows the Cache's
    Deep Treasure (L972), taken as he found it: the trap's roll, made then,
    is decided first."""
    from dragongym.envs.dragons_down import soundness
    from dragongym.envs.dragons_down.constants import CUBE_MIGHT, SITE_IDS
    from tests.dragons_down.tokens_test import site_in_deepdelve
    S, p = site_in_deepdelve("secret_cache", 1)
    dust = give(S, p, "dust_of_destiny")
    s = S[0]
    hearts, might = int(s["hearts"][p, 0]), int(s["cubes"][p, 0, CUBE_MIGHT])
    assert hearts > 0 and might > 0
    load(S, 0, 1, 0)                                          # two spyglasses; the first cube: a Heart
    act(S, R.A_SEARCH_SITE + SITE_IDS.index("secret_cache"))
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_TRAP and rerolls(S) == [reroll(R.RR_DUST, 0)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 0)) == "reroll die 1 (showing a Heart) with the Dust of Destiny"
    assert int(s["hearts"][p, 0]) == hearts                   # nothing wounded yet
    assert not soundness._card_problem(s, int(s["num_players"]))    # the Deep Treasure gained waits for this roll
    load(S, hearts)                                           # the first cube after the Hearts: a Might Cube
    act(S, reroll(R.RR_DUST, 0))
    assert int(s["hearts"][p, 0]) == hearts and int(s["cubes"][p, 0, CUBE_MIGHT]) == might - 1
    assert phase(S) == R.PH_GAINED and _gone(S, dust)


# ================================================================ the Curse Table (L543, L1099-L1107, L1330)
def test_dd_treasure_dust_of_destiny_1_rerolls_the_curse_table():
    """L543, L1330: the Druid's Learn roll shows a curse and a book; he lets
    it stand (keeping his Dust) and rolls on the Curse Table at once: Sloth,
    which he does not hold. He rerolls it with the Dust: Misfortune, which he
    holds already (not cumulative, L1107): no curse more."""
    from tests.dragons_down.magic_test import MISFORTUNE, SLOTH, book_with, druid
    S, p = druid()
    _, (natures,) = book_with(S, p, "natures_help")
    dust = give(S, p, "dust_of_destiny")
    S[0]["curses"][p] = 1 << R.CURSE_MISFORTUNE
    load(S, CURSE, BOOK)
    act(S, R.A_SPELL + natures)
    assert int(S[0]["roll_kind"]) == R.ROLL_LEARN
    load(S, SLOTH)
    act(S, DONE)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_CURSE and rerolls(S) == [reroll(R.RR_DUST, 0)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 0)) == "reroll die 1 (showing Sloth) with the Dust of Destiny"
    assert int(S[0]["curses"][p]) == 1 << R.CURSE_MISFORTUNE
    load(S, MISFORTUNE)
    act(S, reroll(R.RR_DUST, 0))
    assert int(S[0]["curses"][p]) == 1 << R.CURSE_MISFORTUNE and phase(S) == R.PH_ACTION and _gone(S, dust)


def test_dd_treasure_dust_of_destiny_1_a_curse_already_held_asks_nothing():
    """A roll on the Curse Table naming a curse the hero holds does nothing
    (L1107): no reroll is worth it, none is asked."""
    from tests.dragons_down.magic_test import MISFORTUNE, book_with, druid
    S, p = druid()
    _, (natures,) = book_with(S, p, "natures_help")
    dust = give(S, p, "dust_of_destiny")
    S[0]["curses"][p] = 1 << R.CURSE_MISFORTUNE
    load(S, CURSE, BOOK)
    act(S, R.A_SPELL + natures)
    load(S, MISFORTUNE)
    act(S, DONE)
    assert phase(S) == R.PH_ACTION and int(S[0]["curses"][p]) == 1 << R.CURSE_MISFORTUNE and not _gone(S, dust)


def test_the_heuristic_rerolls_a_curse_and_a_duels_hit_on_a_weak_hero_and_lets_its_own_miss_stand():
    """The bundled heuristic answers the Dust's new rolls: it rerolls the
    Curse Table's curse (asked only where it would touch him), and a duel's
    hit on him when he has two healthy Hearts or fewer (the whole roll, as a
    Monster's); its own attack's miss stands, the Dust kept."""
    import numpy as np
    from dragongym.agents.dragons_down_heuristic import DragonsDownHeuristic
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, KNIGHT, NO_SYMBOL, TRI_PEAKS_1, chip, combat, \
        place, start as start_combat, target
    from tests.dragons_down.magic_test import SLOTH, book_with, druid
    from tests.dragons_down.pvp_test import KNIGHT as DUELLIST, barbarian_strikes_knight, duel
    bot = DragonsDownHeuristic(GAME)
    rng = np.random.default_rng(0)
    S, p = druid()
    _, (natures,) = book_with(S, p, "natures_help")
    give(S, p, "dust_of_destiny")
    load(S, CURSE, BOOK)
    act(S, R.A_SPELL + natures)
    load(S, SLOTH)
    act(S, DONE)
    assert bot.act_state(GAME, S, p, rng) == reroll(R.RR_DUST, 0)
    S = duel()
    _dusty(S, DUELLIST)
    S[0]["hearts"][DUELLIST, 0] = 2
    load(S, HIT, HIT)
    barbarian_strikes_knight(S, attack=0)
    assert int(S[0]["to_play"]) == DUELLIST and bot.act_state(GAME, S, DUELLIST, rng) == reroll(R.RR_DUST, ALL)
    S = combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT_BLANK, HIT])
    _dusty(S, 0)
    start_combat(S)
    target(S, 0, chip(S, "giant"))
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK)
    assert phase(S) == R.PH_REROLL and bot.act_state(GAME, S, 0, rng) == DONE


# ================================================================ the Air Sword and Fiery Chasm (L1508, L1520, L1330)
def test_dd_treasure_dust_of_destiny_1_the_air_swords_caster_rerolls_its_miss():
    """L1520, L1330: the Air Sword (speed 2) strikes the Giant Spider
    (maneuver 2); a blank and a hit miss. The attack is its caster's: he
    rerolls the blank with his Dust, a hit, and the sword's 3 kill the
    spider (health 2), his kill."""
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, chip
    from tests.dragons_down.spells_test import in_combat, wizard
    S, sp = wizard("air_sword", {"blue": 4})
    dust = _dusty(S, 0)
    spider = chip(S, "giant_spider")
    in_combat(S)
    s = S[0]
    s["spell_on"][sp], s["spell_mark"][sp] = R.AIM_HERO + 0, 0
    s["combat_round"] += 1
    s["hero_target"][0] = spider
    load(S, HIT_BLANK, HIT)
    assert R.sword_attack(S, 0, 0)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_ATTACK and rerolls(S) == [reroll(R.RR_DUST, 0)]
    load(S, HIT)
    act(S, reroll(R.RR_DUST, 0))
    assert int(s["mon_clearing"][spider]) == R.MON_TAKEN and int(s["mon_taker"][spider]) == 0 and _gone(S, dust)


def test_dd_treasure_dust_of_destiny_1_a_hero_struck_by_the_demons_fiery_chasm_rerolls_it():
    """L1262, L1508, L1330 "the target": the Demon's Fiery Chasm (speed 4)
    kills the Giant Spider outright (maneuver 2); against the Knight's
    maneuver 4 it rolls two hits, death. He rerolls one with his Dust: a
    blank, the chasm misses him and he lives."""
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, TRI_PEAKS_1, chip
    from tests.dragons_down.spells_test import _caster_foe
    S, demon = _caster_foe("demon", 1)
    dust = _dusty(S, 0)
    spider = chip(S, "giant_spider")
    S[0]["placed"][0, R.BOX_MANEUVER] = 4
    load(S, HIT, HIT)
    assert R.monster_cast(S, 0, demon)
    assert int(S[0]["mon_clearing"][spider]) == R.MON_TRAY
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_ATTACK and int(S[0]["to_play"]) == 0
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]
    load(S, HIT_BLANK)
    act(S, reroll(R.RR_DUST, 0))
    assert int(S[0]["hero_state"][0]) == R.HS_ACTIVE and int(S[0]["hero_clearing"][0]) == TRI_PEAKS_1 and _gone(S, dust)


def test_dd_treasure_dust_of_destiny_1_the_casters_fiery_chasm_goes_on_after_his_reroll():
    """L1508, L1330 "the attacker": a Sorcerer's Fiery Chasm at speed 1 misses
    the Ogre (maneuver 1: a blank and a hit); he rerolls the blank with his
    Dust, a hit: the Ogre is killed, his kill. The chasm then goes on to the
    heroes: it strikes him too, unhidden and unmaneuvering, and he dies."""
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, TRI_PEAKS_1, chip
    from tests.dragons_down.spells_test import in_combat, wizard
    S, sp = wizard("fiery_chasm", {"purple": 4}, monsters=(("ogre", TRI_PEAKS_1),))
    dust = _dusty(S, 0)
    ogre = chip(S, "ogre")
    in_combat(S)
    s = S[0]
    s["cast_card"][0], s["cast_stage"][0] = sp, R.CAST_PLACED
    s["placed"][0, R.BOX_ATTACK] = 1
    load(S, HIT_BLANK, HIT)
    assert R.cast_spell(S, 0, 0)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_ATTACK and rerolls(S) == [reroll(R.RR_DUST, 0)]
    load(S, HIT)
    act(S, reroll(R.RR_DUST, 0))
    assert int(s["mon_clearing"][ogre]) == R.MON_TAKEN and int(s["mon_taker"][ogre]) == 0 and _gone(S, dust)
    assert int(s["hero_state"][0]) != R.HS_ACTIVE


# ================================================================ the Summon curse (L1105, L1330)
def _wanderers_at(S, c):
    """The Wandering Monsters of clearing c's Terrain Pack standing in c."""
    from dragongym.envs.dragons_down.constants import MONSTER_CHIP_KINDS
    wanderer = int(R.PACK_WANDERER[R.TILE_PACK[c // 6]])
    return [m for m in range(len(MONSTER_CHIP_KINDS))
            if int(S[0]["mon_clearing"][m]) == c and MONSTER_CHIP_KINDS[m] == wanderer]


def _summon_cursed(number):
    """The Druid, holding a Dust of Destiny, lets a Learn roll showing a curse
    stand, then the Curse Table's Summon (both asked); the gray numbered die
    shows ``number``. Returns (S, p, dust, his clearing)."""
    from tests.dragons_down.magic_test import SUMMON, book_with, druid
    S, p = druid()
    _, (natures,) = book_with(S, p, "natures_help")
    dust = give(S, p, "dust_of_destiny")
    load(S, CURSE, BOOK)
    act(S, R.A_SPELL + natures)
    assert int(S[0]["roll_kind"]) == R.ROLL_LEARN
    load(S, SUMMON)
    act(S, DONE)
    assert int(S[0]["roll_kind"]) == R.ROLL_CURSE
    load(S, list(R.GRAY_NUMBER).index(number))
    act(S, DONE)
    return S, p, dust, int(S[0]["hero_clearing"][p])


def test_dd_treasure_dust_of_destiny_1_rerolls_the_summon_curses_number():
    """L1105, L1330: the Summon curse's gray numbered die shows 3: three
    Wandering Monsters would come to the Druid's clearing. The roll is his,
    as the active Hero: before any comes he rerolls it with his Dust, a 1,
    and one Wandering Monster comes."""
    S, p, dust, here = _summon_cursed(3)
    s = S[0]
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_SUMMON and rerolls(S) == [reroll(R.RR_DUST, 0)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 0)) == "reroll die 1 (showing 3) with the Dust of Destiny"
    assert _wanderers_at(S, here) == []                   # none yet
    load(S, list(R.GRAY_NUMBER).index(1))
    act(S, reroll(R.RR_DUST, 0))
    assert len(_wanderers_at(S, here)) == 1 and _gone(S, dust) and int(s["roll_kind"]) == R.ROLL_NONE


def test_dd_treasure_dust_of_destiny_1_the_summon_curses_fewest_asks_nothing():
    """A Summon curse bringing the fewest Wandering Monsters its die can (a 1)
    is never worth rolling again: none is asked, the Dust kept; let stand, a
    3 brings three."""
    S, p, dust, here = _summon_cursed(1)
    assert int(S[0]["roll_kind"]) == R.ROLL_NONE and len(_wanderers_at(S, here)) == 1 and not _gone(S, dust)
    S, p, dust, here = _summon_cursed(3)
    act(S, DONE)
    assert int(S[0]["roll_kind"]) == R.ROLL_NONE and len(_wanderers_at(S, here)) == 3 and not _gone(S, dust)


# ================================================================ the Active Wraith's die after a loot (L1252, L1330)
def _shrine_looter():
    """A hero holding a Dust of Destiny at the Shrine, its active Wraith side
    up, its pile of backpack cards found; he loots the top card (his Loot
    Dice, asked first, let stand). Returns (S, p, dust, the pile's cards)."""
    from dragongym.envs.dragons_down.constants import MON_TRAY
    from tests.dragons_down.trade_test import SHRINE, wraith_chips
    S, p = start()
    dust = give(S, p, "dust_of_destiny")
    cards = put_pile(S, SHRINE, ["potion_of_healing"] * 3, finders=[p], side=1)
    assert all(int(S[0]["mon_clearing"][m]) == MON_TRAY for m in wraith_chips())
    return S, p, dust, cards


def test_dd_treasure_dust_of_destiny_1_the_looter_rerolls_the_wraiths_site_symbol():
    """L1252, L1330: a loot at the Shrine takes a treasure; the Local Monster
    Die shows the Treasure Site Symbol: the Wraith would come to the Shrine.
    The roll is the looter's, as the active Hero: before the Wraith moves he
    rerolls it with his Dust, a claw, and no Wraith comes; he keeps the card."""
    from dragongym.envs.dragons_down.constants import MON_TRAY
    from tests.dragons_down.trade_test import CLAW, SHRINE, SITE_SYMBOL, wraith_chips
    S, p, dust, cards = _shrine_looter()
    s = S[0]
    load(S, 1, 1, SITE_SYMBOL)
    act(S, LOOT)
    assert int(s["roll_kind"]) == R.ROLL_LOOT
    act(S, DONE)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_WRAITH and rerolls(S) == [reroll(R.RR_DUST, 0)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 0)) == \
        "reroll die 1 (showing the Treasure Site Symbol) with the Dust of Destiny"
    assert all(int(s["mon_clearing"][m]) == MON_TRAY for m in wraith_chips())
    load(S, CLAW)
    act(S, reroll(R.RR_DUST, 0))
    assert all(int(s["mon_clearing"][m]) == MON_TRAY for m in wraith_chips())
    assert held(S, p, cards[0]) and pile(S, SHRINE) == cards[1:] and _gone(S, dust) and phase(S) == R.PH_ACTION


def test_dd_treasure_dust_of_destiny_1_the_wraiths_die_let_stand_or_another_symbol():
    """The Wraith's die let stand brings it to the Shrine, the Dust kept; a
    die showing another symbol brings nothing and asks nothing."""
    from dragongym.envs.dragons_down.constants import MON_TRAY
    from tests.dragons_down.trade_test import CLAW, PLAINS_1, SITE_SYMBOL, wraith_chips
    S, p, dust, cards = _shrine_looter()
    load(S, 1, 1, SITE_SYMBOL)
    act(S, LOOT)
    act(S, DONE)
    act(S, DONE)
    assert all(int(S[0]["mon_clearing"][m]) == PLAINS_1 for m in wraith_chips())
    assert held(S, p, cards[0]) and not _gone(S, dust) and int(S[0]["roll_kind"]) == R.ROLL_NONE
    S, p, dust, cards = _shrine_looter()
    load(S, 1, 1, CLAW)
    act(S, LOOT)
    act(S, DONE)
    assert all(int(S[0]["mon_clearing"][m]) == MON_TRAY for m in wraith_chips())
    assert held(S, p, cards[0]) and phase(S) == R.PH_ACTION and int(S[0]["roll_kind"]) == R.ROLL_NONE


# ================================================================ the Curse Table a Curse spell rolls, for its caster (L1500, L1330)
def test_dd_treasure_dust_of_destiny_1_the_caster_rerolls_a_curse_that_leaves_his_foe_untouched():
    """L1500, L1330 "the attacker": the Warlock's Curse hits the Giant Spider;
    the Curse Table shows Sloth, which touches nothing a Monster does. The
    roll is his attack's: he rerolls it with his Dust, Weakness, which stays
    on the spider. A curse that serves him (Clumsiness) asks nothing."""
    from dragongym.envs.dragons_down import data as D, view as V
    from dragongym.envs.dragons_down.constants import CURSE_IDS
    from tests.dragons_down.combat_test import chip
    from tests.dragons_down.spells_test import in_combat, wizard
    S, sp = wizard("curse", {"black": 2}, cls="warlock")
    dust = _dusty(S, 0)
    in_combat(S)
    spider = chip(S, "giant_spider")
    s = S[0]
    load(S, D.REALM.curses["sloth"].roll - 1)
    assert R.spell_hits(S, 0, 0, sp, spider, 1)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_CURSE and int(s["to_play"]) == 0
    assert rerolls(S) == [reroll(R.RR_DUST, 0)] and V.pending_roll(S) == "the Curse Table: Sloth"
    assert int(s["foe_curses"][spider]) == 0
    load(S, D.REALM.curses["weakness"].roll - 1)
    act(S, reroll(R.RR_DUST, 0))
    assert int(s["foe_curses"][spider]) == 1 << CURSE_IDS.index("weakness") and _gone(S, dust)
    assert int(s["roll_kind"]) == R.ROLL_NONE
    S, sp = wizard("curse", {"black": 2}, cls="warlock")
    dust = _dusty(S, 0)
    in_combat(S)
    load(S, D.REALM.curses["clumsiness"].roll - 1)
    assert not R.spell_hits(S, 0, 0, sp, spider, 1)
    assert int(S[0]["foe_curses"][spider]) == 1 << CURSE_IDS.index("clumsiness") and not _gone(S, dust)


def test_dd_treasure_dust_of_destiny_1_a_curse_on_a_foe_summoning_to_its_caster_waits_on_his_dust():
    """L1500, L1105, L1330: the Curse on the Giant Spider rolls Summon: the
    Wandering Monsters would come to the Warlock. He lets the curse stand;
    its gray numbered die shows 3, and waits on his Dust in turn: rerolled, a
    1, and one Wandering Monster comes to his clearing."""
    from dragongym.envs.dragons_down import data as D
    from tests.dragons_down.combat_test import TRI_PEAKS_1, chip
    from tests.dragons_down.spells_test import in_combat, wizard
    S, sp = wizard("curse", {"black": 2}, cls="warlock")
    dust = _dusty(S, 0)
    in_combat(S)
    spider = chip(S, "giant_spider")
    s = S[0]
    before = len(_wanderers_at(S, TRI_PEAKS_1))
    load(S, D.REALM.curses["summon"].roll - 1)
    assert R.spell_hits(S, 0, 0, sp, spider, 1)
    assert int(s["roll_kind"]) == R.ROLL_CURSE and rerolls(S) == [reroll(R.RR_DUST, 0)]
    load(S, list(R.GRAY_NUMBER).index(3))
    act(S, DONE)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_SUMMON and int(s["to_play"]) == 0
    assert len(_wanderers_at(S, TRI_PEAKS_1)) == before
    load(S, list(R.GRAY_NUMBER).index(1))
    act(S, reroll(R.RR_DUST, 0))
    assert len(_wanderers_at(S, TRI_PEAKS_1)) == before + 1 and _gone(S, dust)


def test_dd_treasure_dust_of_destiny_1_a_curse_spells_caster_rerolls_a_curse_his_target_holds():
    """L1500, L1107, L1330, L1174: the Sorcerer's Curse hits the Knight, who
    holds Sloth already: the Curse Table's Sloth would do nothing. Its caster
    is asked first and rerolls it with his Dust: Clumsiness, which would
    touch the Knight -- so the Knight, the target, is asked next with his
    own Dust; he lets it stand and is made clumsy."""
    from dragongym.envs.dragons_down import data as D
    from dragongym.envs.dragons_down.constants import CURSE_IDS
    from tests.dragons_down.combat_test import start as start_combat
    from tests.dragons_down.pvp_test import KNIGHT_2, MAGE, mage_duel
    S, sp = mage_duel("curse", {"black": 2})
    mine, his = _dusty(S, MAGE), _dusty(S, KNIGHT_2)
    start_combat(S)
    s = S[0]
    sloth = 1 << CURSE_IDS.index("sloth")
    s["curses"][KNIGHT_2] = sloth
    load(S, D.REALM.curses["sloth"].roll - 1)
    assert R.spell_hits(S, 0, MAGE, sp, R.AIM_HERO + KNIGHT_2, 1)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_CURSE and int(s["to_play"]) == MAGE
    assert rerolls(S) == [reroll(R.RR_DUST, 0)]
    load(S, D.REALM.curses["clumsiness"].roll - 1)
    act(S, reroll(R.RR_DUST, 0))
    assert phase(S) == R.PH_REROLL and int(s["to_play"]) == KNIGHT_2 and rerolls(S) == [reroll(R.RR_DUST, 0)]
    assert int(s["curses"][KNIGHT_2]) == sloth and _gone(S, mine)
    act(S, DONE)
    assert int(s["curses"][KNIGHT_2]) == sloth | 1 << CURSE_IDS.index("clumsiness") and not _gone(S, his)


# ================================================================ the tentacles' Hit Dice (L1518, L1330)
def test_dd_treasure_dust_of_destiny_1_the_caster_rerolls_a_tentacles_blank_hit_die():
    """L1518, L1330 "the attacker": the Druid's four tentacles placed (three
    on the spider, one on the bat), each rolls its Hit Dice in turn. The
    first shows a hit and a blank: it would hold only the spider's attack
    speed. Before it holds, he rerolls the blank with his Dust (never the
    hit, nor both): a hit, and it holds the spider's maneuver speed. The
    other tentacles roll as they fall, the Dust gone."""
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, EQUAL, HIT
    from tests.dragons_down.tentacles_test import cast_tentacles
    S, sp, spider, bat = cast_tentacles()
    dust = _dusty(S, 0)
    s = S[0]
    i = list(R.TENTACLE_CARDS).index(sp)
    for f in (spider, spider, spider):
        act(S, R.A_FOE + f)
    load(S, HIT, HIT_BLANK)
    act(S, R.A_FOE + bat)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_TENTACLE and int(s["to_play"]) == 0
    assert rerolls(S) == [reroll(R.RR_DUST, 1)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 1)) == "reroll die 2 (showing a blank) with the Dust of Destiny"
    assert [int(h) for h in s["tentacle_hit"][i]] == [R.TENT_UNROLLED] * 4
    load(S, HIT, HIT_BLANK, HIT_BLANK, EQUAL, EQUAL, HIT, HIT_BLANK)
    act(S, reroll(R.RR_DUST, 1))
    assert [int(h) for h in s["tentacle_hit"][i]] == [R.TENT_MANEUVER, R.TENT_MISS, R.TENT_MISS, R.TENT_ATTACK]
    assert _gone(S, dust) and int(s["roll_kind"]) == R.ROLL_NONE and phase(S) != R.PH_TENTACLE


def test_dd_treasure_dust_of_destiny_1_a_hero_a_tentacle_holds_rerolls_its_hits():
    """L1518, L1330 "the target", L1174: with Player vs. Player the Druid's
    tentacles hold the Knight twice and the spider twice. The first on the
    Knight rolls two hits -- his maneuver speed held; the Druid has no Dust,
    the Knight has: he rerolls the whole roll, a blank and an equal sign,
    and it holds nothing. A roll holding nothing of him asks him nothing
    (the second, two blanks), nor do the spider's tentacles."""
    from dragongym.envs.dragons_down.constants import OPT_PVP
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, EQUAL, HIT, TRI_PEAKS_1, chip
    from tests.dragons_down.spells_test import in_combat, wizard
    S, sp = wizard("tentacles", {"blue": 3}, cls="druid", monsters=(("giant_spider", TRI_PEAKS_1),),
                   more=(("human", "knight", TRI_PEAKS_1),))
    s = S[0]
    s["optional_rules"] = OPT_PVP
    dust = _dusty(S, 1)
    in_combat(S)
    s["cast_card"][0], s["cast_stage"][0] = sp, R.CAST_PLACED
    assert R.cast_spell(S, 0, 0)
    spider = chip(S, "giant_spider")
    i = list(R.TENTACLE_CARDS).index(sp)
    for a in (R.A_SEAT + 1, R.A_SEAT + 1, R.A_FOE + spider):
        act(S, a)
    load(S, HIT, HIT)
    act(S, R.A_FOE + spider)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_TENTACLE and int(s["to_play"]) == 1
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]
    load(S, HIT_BLANK, EQUAL, HIT_BLANK, HIT_BLANK, HIT, HIT, HIT, HIT_BLANK)
    act(S, reroll(R.RR_DUST, ALL))
    assert [int(h) for h in s["tentacle_hit"][i]] == [R.TENT_MISS, R.TENT_MISS, R.TENT_MANEUVER, R.TENT_ATTACK]
    assert _gone(S, dust) and int(s["roll_kind"]) == R.ROLL_NONE


# ================================================================ an Outlaw Token's Monster Dice at retirement (L821-L824, L1669, L1330)
def _retiring_outlaw(lp, tokens, *faces):
    """The Rogue, holding a Dust of Destiny and ``tokens`` Outlaw Tokens with
    ``lp`` LP (no Fame), chooses to retire in Deepdelve's Civilization
    Location, the Monster Dice ``faces`` loaded (True a symbol). Returns
    (S, the Dust)."""
    from tests.dragons_down.fate_test import DEEPDELVE_1, fated, give as deck_card, outlaw_dice
    S = fated([("rogue", DEEPDELVE_1)])
    s = S[0]
    s["lp"][0], s["fame"][0], s["outlaw"][0] = lp, 0, tokens
    dust = deck_card(S, 0, "dust_of_destiny")
    outlaw_dice(S, *faces)
    R.advance(S, 0)
    act(S, R.A_DO + R.DO_RETIRE)
    return S, dust


def test_dd_treasure_dust_of_destiny_1_a_retiring_outlaw_rerolls_his_monster_dice():
    """L821-L823, L1330: the retiring Outlaw's first token rolls a symbol and
    a blank: he would lose 1 LP. The roll is his, as the active Hero: he
    rerolls the blank with his Dust, a symbol, and gains 1 LP instead (3 ->
    4); his second token's two symbols, a gain, ask nothing (4 -> 5), and he
    retires. The bundled heuristic rerolls that blank too (never worse: the
    Dust leaves with him)."""
    from tests.dragons_down.fate_test import outlaw_dice
    S, dust = _retiring_outlaw(3, 2, True, False)
    s = S[0]
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_OUTLAW and int(s["to_play"]) == 0
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]
    assert GAME.action_to_string(S, reroll(R.RR_DUST, 1)) == "reroll die 2 (showing a blank) with the Dust of Destiny"
    assert int(s["lp"][0]) == 3 and int(s["best"][0, 0]) < 0       # not yet set aside
    import numpy as np
    from dragongym.agents.dragons_down_heuristic import DragonsDownHeuristic
    assert DragonsDownHeuristic(GAME).act_state(GAME, S, 0, np.random.default_rng(0)) == reroll(R.RR_DUST, 1)
    outlaw_dice(S, True, True, True)
    act(S, reroll(R.RR_DUST, 1))
    assert list(s["best"][0][:2]) == [5, 0] and (int(s["class_gone"]) >> R.CLASS_IDS.index("rogue")) & 1  # set aside
    assert _gone(S, dust) and int(s["roll_kind"]) == R.ROLL_NONE and phase(S) != R.PH_REROLL


def test_dd_treasure_dust_of_destiny_1_an_outlaws_two_blanks_only_whole_and_death_asks_nothing():
    """Two blanks change nothing (L824): only two symbols could gain, so only
    the whole roll is offered; let stand, the Outlaw retires with his 3 LP.
    Two symbols ask nothing. At death the rolls fall as they are, inside the
    wound that kills him (a symbol and a blank: 3 -> 2 LP): his Dust is
    among the possessions that become his body (L805; Interpretations)."""
    from tests.dragons_down.fate_test import WILD, fated, give as deck_card, outlaw_dice
    S, dust = _retiring_outlaw(3, 1, False, False)
    s = S[0]
    assert phase(S) == R.PH_REROLL and rerolls(S) == [reroll(R.RR_DUST, ALL)]
    act(S, DONE)
    assert list(s["best"][0][:2]) == [3, 0] and phase(S) != R.PH_REROLL
    S, dust = _retiring_outlaw(3, 1, True, True)
    assert list(S[0]["best"][0][:2]) == [4, 0] and phase(S) != R.PH_REROLL
    S = fated([("knight", WILD)])
    S[0]["lp"][0], S[0]["outlaw"][0] = 3, 1
    deck_card(S, 0, "dust_of_destiny")
    outlaw_dice(S, True, False)
    R.kill_hero(S, 0, 0)
    assert int(S[0]["roll_kind"]) == R.ROLL_NONE and int(S[0]["best"][0, 0]) == 2


def test_dd_treasure_dust_of_destiny_1_an_outlaw_retired_by_the_end_of_the_game_rerolls_his_dice():
    """L833, L821-L823, L1330: at the end of turn 30 every surviving hero
    retires. The Rogue's Outlaw Token shows a symbol and a blank (he would
    lose 1 LP); the roll is his, so his Dust rerolls the blank before it
    applies: a symbol, +1 LP (3 + 1 living legend + 1). Only then does the
    end go on: the Knight retires and the game is over."""
    from dragongym.envs.dragons_down.constants import HS_ACTIVE, HS_RETIRED
    from tests.dragons_down.fate_test import DEEPDELVE_1, WILD, fated, give as deck_card, outlaw_dice
    S = fated([("rogue", DEEPDELVE_1), ("knight", WILD)], turn=30)
    s = S[0]
    s["lp"][0], s["fame"][0], s["outlaw"][0] = 3, 0, 1
    dust = deck_card(S, 0, "dust_of_destiny")
    outlaw_dice(S, True, False)
    R.advance(S, 0)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_OUTLAW and int(s["to_play"]) == 0
    assert int(s["hero_state"][1]) == HS_ACTIVE and int(s["stage"]) != R.ST_OVER    # the end waits on him
    outlaw_dice(S, True)
    act(S, reroll(R.RR_DUST, 1))
    assert list(s["best"][0][:2]) == [5, 0] and _gone(S, dust)
    assert int(s["hero_state"][1]) == HS_RETIRED and int(s["best"][1, 0]) == 1
    assert int(s["stage"]) == R.ST_OVER and int(s["status"]) == 1 and int(s["roll_kind"]) == R.ROLL_NONE


# ================================================================ a Shape Shifted hero's chip fights (L1564, L1330)
def _shifted_into(kind, target):
    """The Sorcerer, holding a Dust of Destiny (usable from the backpack,
    L916, as his possessions are while he is Shape Shifted, L1566), Shape
    Shifted into a ``kind`` in Tri Peaks enchanted in purple, fights the
    Giant Spider, which challenges his chip; his chip targets the spider
    (``target``) or no one. Returns (S, his chip, the spider, the Dust),
    at the side choice of his chip."""
    from tests.dragons_down.combat_test import TRI_PEAKS_1, ask, chip, combat, start as start_combat
    from tests.dragons_down.shape_shift_test import shape_on
    S = combat([("human", "sorcerer", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),))
    s = S[0]
    _, mine = shape_on(S, 0, kind)
    s["tile_enchant"][TRI_PEAKS_1 // 6] = R.SPELL_COLOUR[R.SP_SHAPE_SHIFT]
    dust = _dusty(S, 0)
    start_combat(S)
    spider = chip(S, "giant_spider")
    assert R.shifted(S, 0, 0) and int(s["foe_vs"][spider]) == mine + 1
    ask(S, R.PH_CTRL_TARGET, 0)
    act(S, R.A_FOE + spider if target else R.A_DO + R.DO_PASS)
    ask(S, R.PH_CTRL_SIDE, 0)
    return S, mine, spider, dust


def test_dd_treasure_dust_of_destiny_1_a_shape_shifted_hero_rerolls_the_hit_on_his_chip():
    """L1564, L1330 "the target": the spider (speed 2) strikes the Sorcerer's
    Giant Bat (maneuver 4, health 1): two hits would kill it, and him with
    it. The chip is he: before the hit lands he rerolls the whole roll with
    his Dust, a blank and a hit, a miss; his bat lives."""
    from dragongym.envs.dragons_down.constants import HS_DEAD
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, NO_SYMBOL
    S, bat, spider, dust = _shifted_into("giant_bat", False)
    s = S[0]
    load(S, NO_SYMBOL, HIT, HIT)
    act(S, R.A_SIDE)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_ATTACK and int(s["roll_then"]) == R.ATTACK_CHIP
    assert int(s["to_play"]) == 0 and list(s["roll_chips"]) == [spider, bat, 0]
    assert rerolls(S) == [reroll(R.RR_DUST, 0), reroll(R.RR_DUST, 1), reroll(R.RR_DUST, ALL)]
    load(S, HIT_BLANK, HIT)
    act(S, reroll(R.RR_DUST, ALL))
    assert int(s["hero_state"][0]) != HS_DEAD and int(s["shape"][0]) == bat + 1
    assert int(s["mon_clearing"][bat]) == int(s["combat_clearing"]) and _gone(S, dust)
    assert list(s["roll_chips"]) == [-1, -1, -1]


def test_dd_treasure_dust_of_destiny_1_a_shape_shifted_heros_chip_rerolls_its_miss():
    """L1564, L1330 "the attacker": the Sorcerer's Goblin (speed 2) strikes
    the spider (maneuver 2) first; a hit and a blank miss. His chip's attack
    is his: he rerolls the blank with his Dust (never the hit), a hit, and
    the Goblin's 1 damage and sword kill the spider (health 2): his kill,
    the fight among the chips going on after the roll (the dead spider
    strikes no more)."""
    from dragongym.envs.dragons_down.constants import MON_TAKEN
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, NO_SYMBOL
    S, goblin, spider, dust = _shifted_into("goblin", True)
    s = S[0]
    load(S, NO_SYMBOL, HIT, HIT_BLANK)
    act(S, R.A_SIDE)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_ATTACK and int(s["to_play"]) == 0
    assert list(s["roll_chips"]) == [goblin, spider, 0] and rerolls(S) == [reroll(R.RR_DUST, 1)]
    assert int(s["foe_wounds"][spider]) == 0
    load(S, HIT)
    act(S, reroll(R.RR_DUST, 1))
    assert int(s["mon_clearing"][spider]) == MON_TAKEN and int(s["mon_taker"][spider]) == 0
    assert int(s["mon_clearing"][goblin]) == int(s["combat_clearing"]) and _gone(S, dust)
    assert int(s["roll_kind"]) == R.ROLL_NONE and list(s["roll_chips"]) == [-1, -1, -1]


def test_dd_treasure_dust_of_destiny_1_a_shape_shifted_heros_chip_rerolls_its_ranged_attack_dice():
    """L1564, L753, L1330 "the attacker": the Sorcerer's Goblin, its back side
    up (an arrow), hits the spider with both Hit Dice; its Ranged Attack Dice
    show -1 and +1, the -1 counting: too little to kill the spider (health
    2). The roll is his: before it applies he rerolls the -1 with his Dust
    (the worse die, the only one worth rolling), a +2, so the +1 counts and
    the spider dies, his kill. (The
    spider, faster, strikes first and misses: two blanks, nothing to ask.)"""
    from dragongym.envs.dragons_down.constants import MON_TAKEN
    from tests.dragons_down.combat_test import BLANK as HIT_BLANK, HIT, NO_SYMBOL, R_MINUS1, R_PLUS1, R_PLUS2
    S, goblin, spider, dust = _shifted_into("goblin", True)
    s = S[0]
    load(S, NO_SYMBOL, HIT_BLANK, HIT_BLANK, HIT, HIT, R_MINUS1, R_PLUS1)
    act(S, R.A_SIDE + 1)
    assert phase(S) == R.PH_REROLL and int(s["roll_kind"]) == R.ROLL_RANGED and int(s["roll_then"]) == R.ATTACK_CHIP
    assert int(s["to_play"]) == 0 and list(s["roll_chips"]) == [goblin, spider, 0]
    assert rerolls(S) == [reroll(R.RR_DUST, 0)] and int(s["foe_wounds"][spider]) == 0
    load(S, R_PLUS2)
    act(S, reroll(R.RR_DUST, 0))
    assert int(s["mon_clearing"][spider]) == MON_TAKEN and int(s["mon_taker"][spider]) == 0 and _gone(S, dust)
    assert int(s["roll_kind"]) == R.ROLL_NONE and list(s["roll_chips"]) == [-1, -1, -1]


# ================================================================ the Dust of Destiny on a Cursed Treasure seen (L1320, L1330)
def _cursed_at_the_fence(curse):
    """A hero holding a Dust of Destiny takes the Look step at the Fence, whose
    stock holds a Cursed Treasure; the card drawn to replace it is a Skeleton
    Key, and the Curse Table shows ``curse``. Returns (S, p, m, dust, key)."""
    from tests.dragons_down.trade_test import TRADE, merchant
    from tests.dragons_down.treasures_test import copy_in, deck_of, to_merchant
    from dragongym.envs.dragons_down.constants import DECK_TREASURE
    S, p = start()
    dust = give(S, p, "dust_of_destiny")
    m, _ = merchant(S, "fence", ["mirror_of_idolatry"])
    cursed = to_merchant(S, m, copy_in(S, "cursed_treasure", DECK_TREASURE))
    key, = deck_of(S, DECK_TREASURE, ["skeleton_key"])
    act(S, TRADE)
    load(S, 0, curse)
    act(S, R.A_STEP + R.STEP_LOOK)
    assert int(S[0]["card_where"][cursed]) == CW_REMOVED
    return S, p, m, dust, key


def test_dd_treasure_dust_of_destiny_1_rerolls_the_curse_of_a_cursed_treasure_seen_at_a_merchant():
    """L1320, L1330: the curse of a Cursed Treasure comes "even if the Hero
    simply viewed the treasure"; it is a roll of which he is the target, so
    before it applies his Dust of Destiny may reroll it. He sees the card in
    the Fence's stock: the Curse Table shows Clumsiness; he rerolls it:
    Sloth, which holds. Then the commerce goes on, the Skeleton Key drawn in
    the Cursed Treasure's place in the stock."""
    from tests.dragons_down.treasures_test import CLUMSINESS, SLOTH
    S, p, m, dust, key = _cursed_at_the_fence(CLUMSINESS)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_CURSE
    assert rerolls(S) == [reroll(R.RR_DUST, 0)] and int(S[0]["curses"][p]) == 0
    assert int(S[0]["seen_then"]) == R.SEEN_MERCHANT
    load(S, SLOTH)
    act(S, reroll(R.RR_DUST, 0))
    assert R.curse_held(S, 0, p, R.CURSE_SLOTH) and not R.curse_held(S, 0, p, R.CURSE_CLUMSINESS)
    assert phase(S) == R.PH_COMMERCE and _gone(S, dust) and R.has_looked(S, 0, p, m)
    assert int(S[0]["card_where"][key]) == R.CW_MERCHANT and int(S[0]["card_owner"][key]) == m
    assert int(S[0]["seen_then"]) == -1


def test_dd_treasure_dust_of_destiny_1_a_cursed_treasures_curse_let_stand_applies_and_the_dust_stays():
    """L1330: letting the Curse Table stand, the curse applies as rolled and
    the Dust of Destiny is kept; the Look ends as it would have."""
    from tests.dragons_down.treasures_test import CLUMSINESS
    S, p, m, dust, key = _cursed_at_the_fence(CLUMSINESS)
    act(S, DONE)
    assert R.curse_held(S, 0, p, R.CURSE_CLUMSINESS) and phase(S) == R.PH_COMMERCE
    assert int(S[0]["card_where"][dust]) == CW_HERO


def _dusty_looter_at_a_cursed_pile():
    """A hero with a Dust of Destiny at a found pile whose top card is a
    Cursed Treasure, then a Potion of Healing and an Alchemist's Mixture; the
    Treasure deck holds only a Skeleton Key. Returns (S, p, dust, key)."""
    from tests.dragons_down.treasures_test import copy_in, deck_of, on_pile
    from dragongym.envs.dragons_down.constants import DECK_TREASURE
    S, p = start()
    dust = give(S, p, "dust_of_destiny")
    on_pile(S, p, [copy_in(S, "cursed_treasure", DECK_TREASURE), copy_in(S, "potion_of_healing", DECK_TREASURE),
                   copy_in(S, "alchemists_mixture", DECK_TREASURE)])
    key, = deck_of(S, DECK_TREASURE, ["skeleton_key"])
    return S, p, dust, key


def test_dd_treasure_dust_of_destiny_1_a_looter_seeing_a_cursed_treasure_among_the_top_three():
    """L526, L1320, L1330: two grabby hands: the looter looks at the top three
    cards, a Cursed Treasure among them. Its replacement is drawn and the
    Curse Table rolled for him; he may reroll it with his Dust before it
    applies. He lets it stand: Clumsiness; then he keeps one of the three he
    sees, the Skeleton Key drawn in the Cursed Treasure's place among them."""
    from tests.dragons_down.treasures_test import CLUMSINESS, sound
    S, p, dust, key = _dusty_looter_at_a_cursed_pile()
    load(S, GRABBY, GRABBY)
    act(S, LOOT)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_LOOT   # first the Loot Dice (L1330)
    load(S, 0, CLUMSINESS)
    act(S, DONE)
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_CURSE
    act(S, DONE)
    assert R.curse_held(S, 0, p, R.CURSE_CLUMSINESS)
    assert phase(S) == R.PH_LOOT_KEEP and R.A_CARD + key in legal(S)
    assert len([a for a in legal(S) if R.A_CARD <= a < R.A_CARD + R.NUM_CARDS]) == 3
    sound(S)


def test_dd_treasure_dust_of_destiny_1_rerolls_the_curse_of_a_cursed_treasure_looted():
    """L962, L1320, L1330: a Cursed Treasure looted acts as it arrives: its
    replacement comes to the looter instead and he rolls on the Curse Table;
    his Dust rerolls the Sloth shown: Weakness. Then the Skeleton Key waits to
    be equipped or stowed."""
    from tests.dragons_down.treasures_test import SLOTH, WEAKNESS, sound
    S, p, dust, key = _dusty_looter_at_a_cursed_pile()
    load(S, 1, 1)                                     # the top card
    act(S, LOOT)
    load(S, 0, SLOTH)
    act(S, DONE)                                      # the Loot Dice stand
    assert phase(S) == R.PH_REROLL and int(S[0]["roll_kind"]) == R.ROLL_CURSE and held(S, p, key)
    load(S, WEAKNESS)
    act(S, reroll(R.RR_DUST, 0))
    assert R.curse_held(S, 0, p, R.CURSE_WEAKNESS) and not R.curse_held(S, 0, p, R.CURSE_SLOTH)
    assert phase(S) == R.PH_RECEIVED and _gone(S, dust)
    sound(S)
