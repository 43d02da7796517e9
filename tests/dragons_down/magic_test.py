"""Magic outside combat, played through the driver on Deepdelve
(actions_test.py, trade_test.py): the starting spells (L203-L205, L1016,
L1200), Spell Books and Scrolls and their spells (L1028, L1424-L1428), the
Learn Action (L536-L547), the Enchant Action (L570-L580), curses (L1099-L1107,
the Curse Table of data/curses.txt) and their removal by trade (L568).

Raw draws are loaded for the dice: a Learn Die's raw 0-2 is a book, 3-4 a
blank, 5 a curse (dice.txt); the Curse Table's d6 raw r is the curse of roll
r + 1 (curses.txt: 1 Teleport, 2 Summon, 3 Sloth, 4 Clumsiness, 5 Weakness,
6 Misfortune)."""
import numpy as np

from dragongym.envs.dragons_down import observe as O
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CARD_IDS, CLASS_IDS, CUBE_MAGIC, CW_HERO, CW_REMOVED, HS_ACTIVE, LINEAGE_IDS, MONSTER_CHIP_KINDS,
    MONSTER_IDS, NUM_SPELLS, SPELL_DECK, SPELL_IDS, SPELL_START, SPW_ATTACHED, SPW_DECK, SPW_DISCARD,
    SPW_KNOWN, SPW_START, T_BACKPACK,
)
from dragongym.envs.dragons_down import data as D
from dragongym.envs.dragons_down.game import GAME
from tests.dragons_down.actions_test import CAVE_2, PLAINS_1, PLAINS_3, act, load, used
from tests.dragons_down.setup_test import SB_EXPLORE, legal, new_game
from tests.dragons_down.trade_test import CATACOMBS, GRABBY, TRADE, merchant, phase, put_pile, start

BOOK, BLANK, CURSED = 0, 3, 5                        # Learn Die raw draws
TELEPORT, SUMMON, SLOTH, CLUMSINESS, WEAKNESS, MISFORTUNE = range(6)   # Curse Table d6 raw draws
GREEN = D.MAGIC_COLOURS.index("green")
PURPLE = D.MAGIC_COLOURS.index("purple")
DONE = R.A_DO + R.DO_DONE


def kind(sid):
    return SPELL_IDS.index(sid)


def spell_card(S, sid, deck=SPELL_DECK):
    """A card of spell ``sid`` of ``deck`` (the Spell deck or the Hero
    Starting Spell deck) no hero holds: in its deck, or taken from under a
    Merchant's Spell Book (the set-up stocked some)."""
    return next(sp for sp in range(NUM_SPELLS) if R.SPELL_KIND[sp] == kind(sid) and R.SPELL_FROM[sp] == deck
                and int(S[0]["spell_where"][sp]) in (SPW_DECK, SPW_START, SPW_ATTACHED)
                and (int(S[0]["spell_where"][sp]) != SPW_ATTACHED
                     or int(S[0]["card_where"][int(S[0]["spell_owner"][sp])]) != CW_HERO))


def druid():
    """The Druid (two Green Magic Cubes, L1214) alone on Deepdelve 1, its
    starting spells taken, its turn begun."""
    return start(classes=("druid",))


def book_with(S, p, *sids, kind_id="spell_book_3"):
    """Give hero p a Spell Book holding exactly the spells ``sids``; returns
    the card and the Spell Cards."""
    from tests.dragons_down.trade_test import give
    c = give(S, p, kind_id)
    spells = []
    for sid in sids:
        sp = spell_card(S, sid)
        S[0]["spell_where"][sp], S[0]["spell_owner"][sp] = SPW_ATTACHED, c
        spells.append(sp)
    return c, spells


def known(S, p):
    return sorted(sp for sp in range(NUM_SPELLS) if S[0]["spell_where"][sp] == SPW_KNOWN
                  and S[0]["spell_owner"][sp] == p)


# ================================================================ starting spells (L203-L205, L1016, L1200)
def test_dd_spells_start_1_starting_spells_match_the_heros_magic_cube_colours():
    """L203-L204: a Class Card listing starting spells lets the player take
    them from the Hero Starting Spell deck, one at a time, only of a colour of
    its Magic Cubes (the universal Break Spells too, L1490): the Druid (two
    Green cubes) is offered the green spells and Break Spells, two of them."""
    S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b001)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    for a in (R.A_LINEAGE + LINEAGE_IDS.index("human"), R.A_SIDE, R.A_CLASS + CLASS_IDS.index("druid"), R.A_SIDE):
        assert R.apply_action(S, 0, a, mask) == R.E_OK
    assert phase(S) == R.PH_START_SPELL
    offered = {SPELL_IDS[R.SPELL_KIND[a - R.A_SPELL]] for a in legal(S)}
    expected = {sid for sid, sp in D.REALM.spells.items() if sp.start_copies and sp.colour in ("green", "universal")}
    assert offered == expected and "fireball" not in offered
    first = legal(S)[0]
    R.apply_action(S, 0, first, mask)
    assert phase(S) == R.PH_START_SPELL and first not in legal(S)         # not the same spell twice
    R.apply_action(S, 0, legal(S)[0], mask)
    assert phase(S) != R.PH_START_SPELL and len(known(S, 0)) == 2
    assert all(R.SPELL_FROM[sp] == SPELL_START for sp in known(S, 0))


def test_dd_spells_start_2_a_hero_without_starting_spells_takes_none():
    """L203: the Knight's Class Card lists none and the Human's none: no choice is posed."""
    S, p = start(classes=("knight",))
    assert known(S, p) == []


def test_dd_lineage_elf_1_the_elf_takes_one_more_starting_spell_of_its_colour():
    """L1200: the Elf has an extra starting spell matching a Magic Cube colour
    it selected: an Elf Knight (no class spells) chooses green for its cube
    and is offered the green spells."""
    S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b001)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    for a in (R.A_LINEAGE + LINEAGE_IDS.index("elf"), R.A_SIDE, R.A_CLASS + CLASS_IDS.index("knight"), R.A_SIDE):
        assert R.apply_action(S, 0, a, mask) == R.E_OK
    while phase(S) == R.PH_CUBE_COLOUR:
        R.apply_action(S, 0, R.A_CUBE + CUBE_MAGIC + GREEN, mask)
    assert phase(S) == R.PH_START_SPELL
    assert {D.REALM.spells[SPELL_IDS[R.SPELL_KIND[a - R.A_SPELL]]].colour for a in legal(S)} <= {"green", "universal"}
    R.apply_action(S, 0, legal(S)[-1], mask)
    assert len(known(S, 0)) == 1 and phase(S) != R.PH_START_SPELL


def test_dd_spells_start_3_starting_spells_are_secret_until_used():
    """L205: starting spells may be kept secret: another seat sees how many
    the hero knows, not which; the choice is not a public decision."""
    S = new_game(num_heroes=2, sandbox=SB_EXPLORE, packs=0b001)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    p = int(S[0]["to_play"])
    for a in (R.A_LINEAGE + LINEAGE_IDS.index("human"), R.A_SIDE, R.A_CLASS + CLASS_IDS.index("druid"), R.A_SIDE):
        R.apply_action(S, 0, a, mask)
    assert not GAME.decision_is_public(S, legal(S)[0])
    while phase(S) == R.PH_START_SPELL:
        R.apply_action(S, 0, legal(S)[0], mask)
    q = 1 - p
    mine = GAME.observation_of(S, p)
    theirs = GAME.observation_of(S, q)
    o, (rows, cols) = O.LAYOUT["spells"]
    assert mine[o:o + rows * cols].reshape(rows, cols)[:, O.S_KNOWN_START].sum() == 2
    assert theirs[o:o + rows * cols].reshape(rows, cols)[:, O.S_KNOWN_START].sum() == 0
    h = O.O_HEROES + ((p - q) % 2) * O.NUM_HERO_FEATURES + O.H_SPELLS
    assert theirs[h] == 2 / 5.0


def test_dd_spells_death_1_a_dead_heros_spells_are_discarded_or_set_aside():
    """L805: a new hero's seat has no spells of the old one: its learned
    spells go to the Spell deck's discard pile, its starting spells back to
    the Hero Starting Spell deck (Interpretations), and its curses go."""
    S, p = druid()
    start_spells = known(S, p)
    learned = spell_card(S, "fireball")
    S[0]["spell_where"][learned], S[0]["spell_owner"][learned] = SPW_KNOWN, p
    S[0]["curses"][p] = 1 << R.CURSE_SLOTH
    R.clear_hero(S, 0, p)
    assert known(S, p) == [] and int(S[0]["curses"][p]) == 0
    assert int(S[0]["spell_where"][learned]) == SPW_DISCARD
    assert all(int(S[0]["spell_where"][sp]) == SPW_START for sp in start_spells)


# ================================================================ Spell Books and Scrolls (L1028, L1424-L1428)
def test_dd_spellbook_1_a_revealed_spell_book_draws_its_spells_from_the_deck():
    """L1424: a Spell Book or Scroll, revealed, draws the number of Spell
    Cards it shows from the Spell deck, face down under it; looted, it is
    revealed to its new holder (Interpretations)."""
    S, p = druid()
    (c,) = put_pile(S, CATACOMBS, ["spell_book_3"], finders=[p])
    load(S, GRABBY, GRABBY)
    act(S, R.A_DO + R.DO_LOOT)
    under = [sp for sp in range(NUM_SPELLS) if S[0]["spell_where"][sp] == SPW_ATTACHED
             and int(S[0]["spell_owner"][sp]) == c]
    assert len(under) == 3
    assert all(R.SPELL_FROM[sp] == SPELL_DECK for sp in under)


def test_dd_spellbook_2_price_is_the_sum_of_its_spells():
    """L1028, L1424: the base price of a Spell Book is the sum of its spells';
    a Merchant pays it (L559) and asks three times it (L560)."""
    S, p = druid()
    c, spells = book_with(S, p, "fireball", "heal")
    total = sum(int(R.SPELL_PRICE[R.SPELL_KIND[sp]]) for sp in spells)
    assert R.card_price(S, 0, c) == total > 0
    assert R.buy_price(S, 0, c, 3) == 3 * total
    merchant(S, "fence")
    assert R.sellable(S, 0, p, c)


def test_dd_spellbook_3_spells_stay_attached_when_it_is_sold():
    """L1028: when a Hero sells a Spell Book, its spells stay attached to it;
    the seller, who read them while he held it (L1426), still knows them on
    the Merchant's stock: his position's variants keep them under it."""
    S, p = druid()
    c, spells = book_with(S, p, "fireball")
    m, _ = merchant(S, "fence")
    gold = int(S[0]["gold"][p])
    act(S, TRADE)
    if phase(S) == R.PH_TRADE_WITH:
        act(S, R.A_MERCHANT + m)
    act(S, R.A_STEP + R.STEP_SELL)
    act(S, R.A_CARD + c)
    assert int(S[0]["gold"][p]) == gold + int(R.SPELL_PRICE[kind("fireball")])
    assert int(S[0]["spell_where"][spells[0]]) == SPW_ATTACHED and int(S[0]["spell_owner"][spells[0]]) == c
    from dragongym.envs.dragons_down import view as V
    assert V.spells_under(S, c, p) == [(spells[0], V.spell_name(spells[0]))]
    seen = GAME.observation_of(S, p)
    for v in GAME.hidden_variants(S, p, np.random.default_rng(2), count=6):
        assert int(v[0]["spell_owner"][spells[0]]) == c and np.array_equal(GAME.observation_of(v, p), seen)


# ================================================================ Learn (L536-L547)
def test_dd_learn_1_two_books_learn_the_spell_for_1_lp_and_5_fame():
    """L542: both Learn Dice show a book: the spell leaves the Spell Book for
    the known spells, 1 LP and 5 Fame (L1661); the book keeps the others."""
    S, p = druid()
    c, (natures, trail) = book_with(S, p, "natures_help", "trail_blaze")
    lp, fame = int(S[0]["lp"][p]), int(S[0]["fame"][p])
    load(S, BOOK, BOOK)
    act(S, R.A_SPELL + natures)
    assert natures in known(S, p) and used(S, p) == 1
    assert int(S[0]["lp"][p]) == lp + 1 and int(S[0]["fame"][p]) == fame + 5
    assert int(S[0]["spell_where"][trail]) == SPW_ATTACHED and int(S[0]["card_where"][c]) == CW_HERO


def test_dd_learn_2_the_last_spell_learned_removes_the_book():
    """L542, L1428: the Treasure Card whose last spell is learned leaves the game."""
    S, p = druid()
    c, (natures,) = book_with(S, p, "natures_help", kind_id="spell_scroll")
    load(S, BOOK, BOOK)
    act(S, R.A_SPELL + natures)
    assert int(S[0]["card_where"][c]) == CW_REMOVED


def test_dd_learn_3_a_matching_magic_cube_is_needed_even_wounded():
    """L538: the Hero must possess a Magic Cube matching the spell's colour,
    healthy or wounded: the Druid may try a green spell, not a purple one;
    with its Green cubes wounded it still may."""
    S, p = druid()
    c, (natures, fireball) = book_with(S, p, "natures_help", "fireball")
    assert R.A_SPELL + natures in legal(S) and R.A_SPELL + fireball not in legal(S)
    g = CUBE_MAGIC + GREEN
    S[0]["cubes"][p, 1, g] += S[0]["cubes"][p, 0, g]
    S[0]["cubes"][p, 0, g] = 0
    assert R.A_SPELL + natures in legal(S)


def test_dd_learn_4_a_curse_symbol_fails_and_curses_the_hero():
    """L543: a Curse Symbol on either die fails the learn and the Hero rolls
    on the Curse Table at once: a 3 is Sloth, marked (L422)."""
    S, p = druid()
    c, (natures,) = book_with(S, p, "natures_help")
    load(S, BOOK, CURSED, SLOTH)
    act(S, R.A_SPELL + natures)
    assert natures not in known(S, p) and int(S[0]["spell_where"][natures]) == SPW_ATTACHED
    assert R.curse_held(S, 0, p, R.CURSE_SLOTH)


def test_dd_learn_5_a_blank_has_no_effect():
    """L544: a book and a blank: nothing happens (the action is spent)."""
    S, p = druid()
    c, (natures,) = book_with(S, p, "natures_help")
    load(S, BOOK, BLANK)
    act(S, R.A_SPELL + natures)
    assert natures not in known(S, p) and int(S[0]["curses"][p]) == 0 and used(S, p) == 1


def test_dd_learn_6_consecutive_learns_reroll_only_blanks_and_curses():
    """L546: learning the same spell with consecutive Learn Actions in a turn
    rerolls only the dice showing a blank or a curse: a book and a blank,
    then one die rolled again (one draw), a book: learned."""
    S, p = druid()
    c, (natures,) = book_with(S, p, "natures_help")
    load(S, BOOK, BLANK)
    act(S, R.A_SPELL + natures)
    before = int(S[0]["loaded_pos"])
    load(S, BOOK)
    act(S, R.A_SPELL + natures)
    assert int(S[0]["loaded_pos"]) == before + 1 and natures in known(S, p)


def test_dd_learn_7_another_action_between_learns_rolls_both_dice_again():
    """L546: only consecutive Learn Actions keep the books: after a Sneak the
    next learn rolls both dice."""
    S, p = druid()
    c, (natures,) = book_with(S, p, "natures_help")
    load(S, BOOK, BLANK)
    act(S, R.A_SPELL + natures)
    act(S, R.A_DO + R.DO_SNEAK)
    before = int(S[0]["loaded_pos"])
    load(S, BLANK, BOOK)
    act(S, R.A_SPELL + natures)
    assert int(S[0]["loaded_pos"]) == before + 2 and natures not in known(S, p)


def test_dd_learn_8_the_same_spell_once_from_each_deck():
    """L1016: a Hero may learn the same spell from each deck, not twice from
    one: the Druid knowing Nature's Help from the Spell deck is not offered
    another copy; knowing it from the starting deck, it may learn it."""
    S, p = druid()
    c, (natures,) = book_with(S, p, "natures_help")
    other = next(sp for sp in range(NUM_SPELLS) if R.SPELL_KIND[sp] == kind("natures_help")
                 and R.SPELL_FROM[sp] == SPELL_START)
    S[0]["spell_where"][other], S[0]["spell_owner"][other] = SPW_KNOWN, p
    assert R.A_SPELL + natures in legal(S)
    S[0]["spell_where"][other], S[0]["spell_owner"][other] = SPW_START, -1
    learned = next(sp for sp in range(NUM_SPELLS) if R.SPELL_KIND[sp] == kind("break_spells")
                   and R.SPELL_FROM[sp] == SPELL_DECK)
    c2, (again,) = book_with(S, p, "break_spells")
    S[0]["spell_where"][learned], S[0]["spell_owner"][learned] = SPW_KNOWN, p
    assert R.A_SPELL + again not in legal(S)


# ================================================================ Enchant (L570-L580)
def test_dd_enchant_1_three_consecutive_enchants_flip_the_tile_and_place_a_cube():
    """L572-L575: three consecutive Enchant Actions enchant the hero's Map
    Tile: it is flipped (its turn kept, the hero in the same clearing) and a
    Magic Cube of a colour the hero has lies on it."""
    S, p = druid()
    t = PLAINS_1 // 6
    side, rot = int(S[0]["tile_side"][t]), int(S[0]["tile_rot"][t])
    assert R.A_ENCHANT + GREEN in legal(S) and R.A_ENCHANT + PURPLE not in legal(S)
    for i in range(3):
        assert int(S[0]["tile_enchant"][t]) == -1
        act(S, R.A_ENCHANT + GREEN)
    s = S[0]
    assert int(s["tile_side"][t]) == 1 - side and int(s["tile_rot"][t]) == rot
    assert int(s["tile_enchant"][t]) == GREEN and int(s["hero_clearing"][p]) == PLAINS_1 and used(S, p) == 3


def test_dd_enchant_2_the_run_needs_three_actions_and_breaks_on_another_action():
    """L572: the three Enchant Actions are consecutive in one turn: the first
    needs three actions left; another action between them breaks the run
    (the tile stays as it was)."""
    S, p = druid()
    t = PLAINS_1 // 6
    side = int(S[0]["tile_side"][t])
    act(S, R.A_ENCHANT + GREEN)
    act(S, R.A_DO + R.DO_SNEAK)
    assert int(S[0]["enchant_done"]) == 0
    assert R.A_ENCHANT + GREEN not in legal(S)                         # two actions left: too few to begin
    assert int(S[0]["tile_side"][t]) == side and int(S[0]["tile_enchant"][t]) == -1


def test_dd_enchant_3_a_new_enchantment_replaces_the_old_cube():
    """L575: the Magic Cubes on the tile go back to the pool; the new one is the hero's colour."""
    S, p = druid()
    t = PLAINS_1 // 6
    S[0]["tile_enchant"][t] = PURPLE
    for _ in range(3):
        act(S, R.A_ENCHANT + GREEN)
    assert int(S[0]["tile_enchant"][t]) == GREEN


def test_dd_enchant_4_a_hero_without_magic_cubes_cannot_enchant():
    """L572: only a Hero with a coloured Magic Cube may enchant."""
    S, p = start(classes=("knight",))
    assert not [a for a in legal(S) if R.A_ENCHANT <= a < R.A_ENCHANT + 7]


# ================================================================ curses (L1099-L1107, L568)
def test_dd_curse_1_curses_are_not_cumulative():
    """L1107: a curse the Hero already has is not marked again and not rerolled."""
    S, p = druid()
    S[0]["curses"][p] = 1 << R.CURSE_SLOTH
    load(S, SLOTH)
    assert not R.curse_roll(S, 0, p)                   # nothing to decide: no Dust of Destiny
    assert int(S[0]["curses"][p]) == 1 << R.CURSE_SLOTH and int(S[0]["loaded_pos"]) == int(S[0]["loaded_count"])


def test_dd_curse_2_teleport_sends_the_hero_to_the_clearing_the_dice_name():
    """L1103: Teleport is instant: the gray and black symbol dice and a d6
    name a clearing of a Map Tile on the map (rerolled until they do): the
    Cruel Caves' tile whose symbol the black die shows, the d6's clearing."""
    S, p = druid()
    s = S[0]
    wild = next(t for t in range(len(s["tile_where"])) if int(s["tile_where"][t]) == R.TW_PLACED
                and int(R.TILE_KIND[t]) == R.TILE_WILDERNESS and int(R.TILE_LOCAL_SYMBOL[t]) > 0) \
        if any(int(s["tile_where"][t]) == R.TW_PLACED and int(R.TILE_KIND[t]) == R.TILE_WILDERNESS
               for t in range(len(s["tile_where"]))) else None
    if wild is None:                                  # put one wilderness tile of the pack beside Deepdelve
        wild = next(t for t in range(len(s["tile_where"])) if int(R.TILE_PACK[t]) == 0
                    and int(R.TILE_KIND[t]) == R.TILE_WILDERNESS and int(R.TILE_LOCAL_SYMBOL[t]) > 0)
        s["tile_where"][wild], s["tile_q"][wild], s["tile_r"][wild], s["tile_side"][wild] = R.TW_PLACED, 0, 1, 0
    gray = list(R.GRAY_SYMBOL).index(0)                # the Cruel Caves symbol
    black = list(R.BLACK_SYMBOL).index(int(R.TILE_LOCAL_SYMBOL[wild]))
    k = next(k for k in range(6) if int(R.CLEARING_TYPE[wild, int(s["tile_side"][wild]), k]) >= 0)
    blank = list(R.GRAY_SYMBOL).index(-1)
    load(S, TELEPORT, blank, black, k, gray, black, k)   # the first roll names no tile: rerolled
    assert not R.curse_roll(S, 0, p)
    assert int(s["hero_clearing"][p]) == wild * 6 + k and int(s["curses"][p]) == 0


def test_dd_curse_3_summon_brings_the_packs_wandering_monsters_to_the_hero():
    """L1105: Summon is instant: the gray numbered die's number of the Terrain
    Pack's Wandering Monsters come to the hero's clearing, even in a
    Civilization Map Tile."""
    S, p = druid()
    s = S[0]
    three = list(R.GRAY_NUMBER).index(3)
    load(S, SUMMON, three)
    assert not R.curse_roll(S, 0, p)
    wanderer = int(R.PACK_WANDERER[R.TILE_PACK[PLAINS_1 // 6]])
    here = [m for m in range(len(MONSTER_CHIP_KINDS)) if int(s["mon_clearing"][m]) == PLAINS_1]
    assert len(here) == 3 and all(MONSTER_CHIP_KINDS[m] == wanderer for m in here)


def test_dd_curse_4_sloth_takes_one_action_a_turn():
    """Curse Table (data/curses.txt): Sloth: one action fewer each turn (L451)."""
    S, p = druid()
    left = R.actions_left(S, 0, p)
    S[0]["curses"][p] = 1 << R.CURSE_SLOTH
    assert R.actions_left(S, 0, p) == left - 1
    from dragongym.envs.dragons_down import view as V      # the picture and the text count as the rules do
    assert V.actions_left(S, p) == V.hero(S, p)["actions_left"] == left - 1
    assert f"({left - 1} actions left)" in GAME.render_ansi(S)
    for _ in range(left - 1):
        act(S, R.A_DO + R.DO_SNEAK) if R.A_DO + R.DO_SNEAK in legal(S) else act(S, R.A_DO + R.DO_ALERT)
        while phase(S) == R.PH_ALERT:
            act(S, DONE)
    assert int(S[0]["order_pos"]) > 0 or int(S[0]["stage"]) != R.ST_TURNS


def test_dd_curse_5_clumsiness_lowers_the_maneuver_speed():
    """Curse Table: Clumsiness: -1 to the hero's maneuver speed in combat --
    one cube fewer to evade with (L700)."""
    from tests.dragons_down.combat_test import KNIGHT, TRI_PEAKS_1, combat
    S = combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)])
    cubes = R.evade_cubes(S, 0, 0)
    S[0]["curses"][0] = 1 << R.CURSE_CLUMSINESS
    assert R.evade_cubes(S, 0, 0) == cubes - 1


def test_dd_curse_6_weakness_lowers_the_base_damage():
    """Curse Table: Weakness: -1 base damage to the hero's attacks (L750):
    the Knight's 2 + 1 that kills the Giant (health 3) only wounds it."""
    from tests.dragons_down.combat_test import KNIGHT, NO_SYMBOL, TRI_PEAKS_1, chip, combat, place, target
    from tests.dragons_down.combat_test import start as begin
    S = begin(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
    s = S[0]
    s["curses"][0] = 1 << R.CURSE_WEAKNESS
    giant = chip(S, "giant")
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    assert int(s["mon_clearing"][giant]) == TRI_PEAKS_1 and int(s["foe_wounds"][giant]) == 1


def test_dd_curse_7_misfortune_lowers_the_attributes_for_haggling():
    """Curse Table: Misfortune: -1 to each attribute for haggling (L989),
    never below 0: the Human Knight's Charisma 3 counts 2 with the
    Blacksmith, its Cunning 1 counts 0 with the Fence."""
    from dragongym.envs.dragons_down.constants import MERCHANT_IDS
    S, p = start()
    blacksmith = MERCHANT_IDS.index("blacksmith")
    before = R.haggle_number(S, 0, p, blacksmith)
    S[0]["curses"][p] = 1 << R.CURSE_MISFORTUNE
    assert R.haggle_number(S, 0, p, blacksmith) == before - 1 == 2
    assert R.haggle_number(S, 0, p, MERCHANT_IDS.index("fence")) == 0


def test_dd_curse_8_removed_for_5_gold_each_at_a_civilization_location():
    """L568: a Hero in a Civilization Location may remove any number of
    curses from a willing Hero in the clearing (itself too) for 5 Gold each,
    in one Trade Action."""
    S, p = druid()
    s = S[0]
    s["hero_clearing"][p] = PLAINS_3                     # Deepdelve's Civilization Location
    s["curses"][p] = (1 << R.CURSE_SLOTH) | (1 << R.CURSE_WEAKNESS)
    s["gold"][p] = 12
    act(S, TRADE)
    if phase(S) == R.PH_TRADE_WITH:
        act(S, R.A_UNCURSE + p * R.NUM_CURSES + R.CURSE_SLOTH)
    else:
        raise AssertionError("the removal is offered as a choice of the Trade Action")
    assert phase(S) == R.PH_UNCURSE and int(s["gold"][p]) == 7
    act(S, R.A_UNCURSE + p * R.NUM_CURSES + R.CURSE_WEAKNESS)
    assert int(s["curses"][p]) == 0 and int(s["gold"][p]) == 2


def test_dd_curse_9_no_removal_outside_civilization_or_without_5_gold():
    """L568: only in a Civilization Location, and for 5 Gold."""
    S, p = druid()
    s = S[0]
    s["curses"][p] = 1 << R.CURSE_SLOTH
    s["gold"][p] = 20
    assert not R.curse_removable(S, 0, p, p, R.CURSE_SLOTH)              # Deepdelve 1: no Civilization Location
    s["hero_clearing"][p] = PLAINS_3
    assert R.curse_removable(S, 0, p, p, R.CURSE_SLOTH)
    s["gold"][p] = 4
    assert not R.curse_removable(S, 0, p, p, R.CURSE_SLOTH)


def test_dd_curse_10_another_heros_curse_may_be_removed():
    """L568: the curse of another (unhidden, willing) Hero in the clearing."""
    S, p = start(num_heroes=2, classes=("druid", "knight"))
    s = S[0]
    q = 1 - p
    s["hero_state"][q], s["hero_clearing"][q] = HS_ACTIVE, PLAINS_3
    s["hero_clearing"][p] = PLAINS_3
    s["curses"][q] = 1 << R.CURSE_CLUMSINESS
    s["gold"][p] = 5
    assert R.curse_removable(S, 0, p, q, R.CURSE_CLUMSINESS)
    s["hero_status"][q] |= R.HST_HIDDEN
    assert not R.curse_removable(S, 0, p, q, R.CURSE_CLUMSINESS)


def _dispelling():
    """The Druid (p) and the Knight (q) in Deepdelve's Civilization Location,
    the Druid with 12 Gold; each with a permanent Dark Matter on him (a
    hero may aim it at himself, L1504)."""
    S, p = start(num_heroes=2, classes=("druid", "knight"))
    s = S[0]
    q = 1 - p
    s["hero_state"][q], s["hero_clearing"][q] = HS_ACTIVE, PLAINS_3
    s["hero_clearing"][p] = PLAINS_3
    s["gold"][p] = 12
    dark = [sp for sp in range(R.NUM_SPELLS) if R.SPELL_KIND[sp] == R.SP_DARK_MATTER][:2]
    for sp, who in zip(dark, (p, q)):
        s["spell_where"][sp], s["spell_owner"][sp], s["spell_on"][sp] = R.SPW_KNOWN, who, R.AIM_HERO + who
    return S, p, q, dark


def test_dd_trade_curses_2_a_permanent_spell_is_removed_for_5_gold():
    """L568: "remove any number of curses and permanent spells from a willing
    Hero ... 5 Gold per curse or permanent spell dispelled": the Druid's
    Trade Action offers to remove the permanent spells on himself and on the
    Knight; his own goes at once for 5 Gold, and he may go on."""
    S, p, q, (mine, theirs) = _dispelling()
    s = S[0]
    act(S, TRADE)
    assert phase(S) == R.PH_TRADE_WITH
    assert R.A_DISPEL + mine in legal(S) and R.A_DISPEL + theirs in legal(S)
    assert GAME.action_to_string(S, R.A_DISPEL + mine) == "remove my Dark Matter for 5 Gold"
    act(S, R.A_DISPEL + mine)
    assert int(s["spell_on"][mine]) == -1 and int(s["gold"][p]) == 7
    assert phase(S) == R.PH_UNCURSE and R.A_DISPEL + theirs in legal(S)


def test_dd_trade_curses_2_another_heros_spell_only_if_he_is_willing():
    """L568 "from a willing Hero": the Knight is asked; refusing, his spell
    stays, no Gold is paid and the Trade Action is over (Interpretations);
    willing, it ends and the Druid pays 5 Gold. A hidden Knight is not
    offered (L895)."""
    S, p, q, (mine, theirs) = _dispelling()
    s = S[0]
    act(S, TRADE)
    act(S, R.A_DISPEL + theirs)
    assert phase(S) == R.PH_DISPEL_ASK and int(s["to_play"]) == q and int(s["dispel_card"]) == theirs
    act(S, R.A_ANSWER + 1 - R.ANSWER_ACCEPT)
    assert int(s["spell_on"][theirs]) == R.AIM_HERO + q and int(s["gold"][p]) == 12
    assert int(s["to_play"]) == p and phase(S) != R.PH_UNCURSE
    S, p, q, (mine, theirs) = _dispelling()
    s = S[0]
    act(S, TRADE)
    act(S, R.A_DISPEL + theirs)
    act(S, R.A_ANSWER + R.ANSWER_ACCEPT)
    assert int(s["spell_on"][theirs]) == -1 and int(s["gold"][p]) == 7 and int(s["dispel_card"]) == -1
    s["hero_status"][q] |= R.HST_HIDDEN
    s["spell_on"][theirs] = R.AIM_HERO + q
    assert not R.spell_removable(S, 0, p, theirs)


def test_dd_trade_curses_2_only_permanent_spells_are_removed():
    """L568 names curses and permanent spells: a turn spell on a hero (Fly)
    is not offered."""
    S, p, q, (mine, theirs) = _dispelling()
    s = S[0]
    fly = next(sp for sp in range(R.NUM_SPELLS) if R.SPELL_KIND[sp] == R.SP_FLY)
    s["spell_where"][fly], s["spell_owner"][fly], s["spell_on"][fly] = R.SPW_KNOWN, p, R.AIM_HERO + p
    assert R.spell_removable(S, 0, p, mine) and not R.spell_removable(S, 0, p, fly)


# ================================================================ hidden information (L205, L1424-L1426)
def test_dd_spells_secret_1_hidden_variants_deal_the_unseen_spells_anew():
    """A seat never sees another hero's spells nor the spells under Spell
    Books it does not hold, nor the Spell deck's order: ``hidden_variants``
    deal those anew (the counts kept), and the seat's observation, text
    picture and the mask are the same in every variant; its own spells and
    its own book's spells stay."""
    S, p = start(num_heroes=2, classes=("druid", "sorcerer"))
    s = S[0]
    q = 1 - p
    mine = known(S, p)
    c, (natures,) = book_with(S, p, "natures_help")
    theirs = [sp for sp in range(NUM_SPELLS) if int(s["spell_where"][sp]) == SPW_KNOWN
              and int(s["spell_owner"][sp]) == q]
    assert theirs and mine
    seen = GAME.observation_of(S, p)
    text = GAME.render_ansi(S, p)
    mask = GAME.mask_of(S)
    moved = 0
    for v in GAME.hidden_variants(S, p, np.random.default_rng(3), count=6):
        assert GAME.check_state(v) == ""
        assert np.array_equal(GAME.observation_of(v, p), seen) and GAME.render_ansi(v, p) == text
        assert np.array_equal(GAME.mask_of(v), mask)
        assert known(v, p) == mine and int(v[0]["spell_owner"][natures]) == c
        assert len(known(v, q)) == len(theirs)
        moved += known(v, q) != sorted(theirs)
    assert moved, "the other hero's spells are never dealt anew"


def test_dd_spellbook_4_a_merchants_book_is_revealed_to_read_its_spells():
    """L1424: a Hero trading with a Merchant may reveal a Spell Book on sale:
    its spells are drawn under it and that Hero alone reads them; priced by
    them now (L1028), it may be bought. Before that it has no price and is
    not offered for sale."""
    S, p = start(num_heroes=2, classes=("druid", "knight"))
    m, (c,) = merchant(S, "fence", ["spell_book"])
    S[0]["merchant_looked"][p] = 1 << m
    S[0]["gold"][p] = 200
    assert not R.buyable(S, 0, p, m, c) and R.revealable(S, 0, p, m, c)
    act(S, TRADE)
    if phase(S) == R.PH_TRADE_WITH:
        act(S, R.A_MERCHANT + m)
    assert GAME.action_to_string(S, R.A_CARD + c).startswith("reveal")
    act(S, R.A_CARD + c)
    under = [sp for sp in range(NUM_SPELLS) if int(S[0]["spell_where"][sp]) == SPW_ATTACHED
             and int(S[0]["spell_owner"][sp]) == c]
    assert len(under) == int(R.KIND_SPELLS[R.CARD_KIND[c]]) and phase(S) == R.PH_COMMERCE
    from dragongym.envs.dragons_down import view as V
    q = 1 - p
    assert all(name for _, name in V.spells_under(S, c, p)) and not any(name for _, name in V.spells_under(S, c, q))
    assert R.buyable(S, 0, p, m, c) and GAME.action_to_string(S, R.A_CARD + c).startswith("set apart")


def test_dd_spellbook_5_a_hero_trading_reads_the_book_another_revealed():
    """L1424, L1028 (Interpretations, *Spell Books*): the other hero revealed
    a Spell Book on the Fence's stock and alone read its spells, so its price
    is a secret from this hero: his position's variants deal those spells
    anew and price the book differently. Trading with the Fence after Looking
    he reads them too: then the variants keep them, and whether he may buy
    the book (his Gold is exactly its price) is the same in every one."""
    S, p = start(num_heroes=2, classes=("druid", "knight"))
    q = 1 - p
    m, (c,) = merchant(S, "fence", ["spell_book"])
    R.attach_spells(S, 0, c)
    S[0]["spells_read"][c] = 1 << q
    under = sorted(sp for sp in range(NUM_SPELLS) if int(S[0]["spell_where"][sp]) == SPW_ATTACHED
                   and int(S[0]["spell_owner"][sp]) == c)
    S[0]["merchant_looked"][p] = 1 << m
    S[0]["gold"][p] = R.card_price(S, 0, c)
    from dragongym.envs.dragons_down import view as V
    assert not any(name for _, name in V.spells_under(S, c, p))
    variants = list(GAME.hidden_variants(S, p, np.random.default_rng(5), count=8))
    assert any(R.card_price(v, 0, c) != R.card_price(S, 0, c) for v in variants), \
        "before he trades, the book's price is not this hero's to know"
    act(S, TRADE)
    if phase(S) == R.PH_TRADE_WITH:
        act(S, R.A_MERCHANT + m)
    assert phase(S) == R.PH_COMMERCE and int(S[0]["spells_read"][c]) == (1 << p) | (1 << q)
    assert all(name for _, name in V.spells_under(S, c, p))
    mask = GAME.mask_of(S)
    assert mask[R.A_CARD + c], "his Gold covers the price he has read"
    for v in GAME.hidden_variants(S, p, np.random.default_rng(5), count=8):
        assert sorted(sp for sp in range(NUM_SPELLS) if int(v[0]["spell_where"][sp]) == SPW_ATTACHED
                      and int(v[0]["spell_owner"][sp]) == c) == under
        assert np.array_equal(GAME.mask_of(v), mask)


def test_dd_enchant_5_both_sides_of_every_tile_have_the_same_clearings():
    """L574: the flip keeps every piece in its clearing: the data premise that
    every Map Tile has the same clearing slots on both sides."""
    ct = R.CLEARING_TYPE
    assert all(((ct[t, 0] >= 0) == (ct[t, 1] >= 0)).all() for t in range(ct.shape[0]))
