"""Combat (L674-L800) and Natives drawn into it (L1001-L1008), with the
rulebook's example (L840-L872).

Positions are built by hand at the start of the combat step of the battle
phase (``combat``) and played through ``R.advance`` and the decisions a
player takes (``act``); the dice are loaded as raw draws (``load``), named
below by the face they show (data/dice.txt order). A random hero is drawn
among the candidates in Turn Order; a single candidate draws nothing.
"""
import numpy as np

import pytest

from dragongym.envs.dragons_down import data as D
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CARD_IDS, CLASS_IDS, CUBE_MIGHT, CUBE_SPEED, CW_HERO, CW_REMOVED, HS_ACTIVE, HST_ALERT,
    HST_EVADED, HST_HIDDEN, HST_SNEAK, LINEAGE_IDS, MON_TAKEN, MON_TRAY, MONSTER_CHIP_KINDS,
    MONSTER_IDS, NATIVE_CHIP_KINDS, NUM_CARDS, NUM_MONSTER_CHIPS, ST_COMBAT, T_BACKPACK,
    T_HEAD, T_NECK, T_WEAPON1, T_WEAPON2, T_WEAPONS, TILE_IDS, TW_PLACED,
)
from dragongym.envs.dragons_down.rules import combat as C
from dragongym.envs.dragons_down.state import STATE_DTYPE
from tests.dragons_down.setup_test import fresh_magic, legal

# raw faces (data/dice.txt order)
HIT, EQUAL, BLANK = 0, 3, 4                    # Hit Die: hit hit hit equal blank blank
SYMBOL, NO_SYMBOL = 0, 2                       # Monster Die: monster monster blank x4
R_MINUS1, R_ZERO, R_PLUS1, R_PLUS2 = 0, 1, 3, 5   # Ranged Attack Die: -1 0 0 +1 +1 +2


def clearing(tile, k):
    """Clearing k (1-based, as printed) of the tile named ``tile``."""
    return TILE_IDS.index(tile) * 6 + k - 1


TRI_PEAKS_1 = clearing("tri_peaks", 1)


def combat(heroes, monsters=(), natives=(), tiles=("tri_peaks",), dice=()):
    """A realm of ``tiles`` (side 1 up, in a row); ``heroes`` as (lineage,
    class, clearing[, status bits]) in Turn Order, each made from the two
    cards' side 1 (the first colour of a many-coloured cube) with his Class
    Card's starting equipment; ``monsters`` and ``natives`` as (kind,
    clearing); the raw ``dice`` loaded; at the combat step of the battle
    phase. Every decision is posed (``auto_single`` off)."""
    S = np.zeros(1, dtype=STATE_DTYPE)
    s = S[0]
    s["num_players"], s["turn"], s["max_turns"], s["legend"] = len(heroes), 1, 30, -1
    s["legend_target"] = 20
    fresh_magic(s)
    s["mon_clearing"][:] = MON_TRAY
    s["native_clearing"][:] = -1
    s["site_clearing"][:] = -1
    s["civ_clearing"][:] = -1
    s["card_owner"][:] = R.CARD_DECK
    s["card_slot"][:] = -1
    s["sel_card"] = -1
    s["best"][:] = -1
    s["mon_taker"][:] = -1
    s["native_taker"][:] = -1
    for i, t in enumerate(tiles):
        u = TILE_IDS.index(t)
        s["tile_where"][u] = TW_PLACED
        s["tile_q"][u], s["tile_r"][u] = i, 0
    s["tiles_placed"] = len(tiles)
    s["turn_order"][:] = -1
    for p, (lineage, cls, c, *status) in enumerate(heroes):
        li, ci = LINEAGE_IDS.index(lineage), CLASS_IDS.index(cls)
        s["hero_state"][p] = HS_ACTIVE
        s["hero_lineage"][p], s["hero_class"][p] = li, ci
        s["lineage_side"][p] = s["class_side"][p] = 0
        s["hero_clearing"][p] = c
        s["hero_status"][p] = status[0] if status else 0
        s["turn_order"][p] = p
        s["hearts"][p, 0] = R.LINEAGE_HEARTS[li, 0] + R.CLASS_HEARTS[ci, 0]
        for card in (D.REALM.lineages[lineage], D.REALM.classes[cls]):
            for cube in card.sides[0].cubes:
                k = {"might": CUBE_MIGHT, "speed": CUBE_SPEED}.get(cube[0])
                s["cubes"][p, 0, k if k is not None else R.CUBE_MAGIC + D.MAGIC_COLOURS.index(cube[0])] += 1
        for kind in R.CLASS_EQUIPMENT[ci, 0]:
            if kind >= 0:
                R.take_starting_item(S, 0, p, int(kind))
    for kind, c in monsters:
        m = next(m for m in range(NUM_MONSTER_CHIPS) if MONSTER_IDS[MONSTER_CHIP_KINDS[m]] == kind
                 and s["mon_clearing"][m] == MON_TRAY)
        s["mon_clearing"][m] = c
    for kind, c in natives:
        i = next(i for i, k in enumerate(NATIVE_CHIP_KINDS) if k == kind and s["native_clearing"][i] < 0)
        s["native_clearing"][i] = c
    load(S, *dice)
    s["stage"] = ST_COMBAT
    return S


def load(S, *raw):
    """Load the next raw draws, after those loaded before and not yet used."""
    s = S[0]
    rest = [int(v) for v in s["loaded"][int(s["loaded_pos"]):int(s["loaded_count"])]] + list(raw)
    s["loaded"][:len(rest)] = rest
    s["loaded_pos"], s["loaded_count"] = 0, len(rest)


def start(S):
    R.advance(S, 0)
    return S


def act(S, a):
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    assert a in legal(S), f"action {a} is not legal in phase {int(S[0]['phase'])}: {legal(S)}"
    assert R.apply_action(S, 0, a, mask) == R.E_OK


def ask(S, phase, seat):
    """The decision now pending is ``phase`` for ``seat``."""
    assert (int(S[0]["phase"]), int(S[0]["to_play"])) == (phase, seat), \
        f"pending: phase {int(S[0]['phase'])} seat {int(S[0]['to_play'])}, step {int(S[0]['combat_step'])}"


def place(S, seat, *boxes):
    """Seat's Hero Tactics: one cube in each box named; then done (unless the
    placing ended by itself)."""
    for x in boxes:
        ask(S, R.PH_TACTICS, seat)
        act(S, R.A_BOX + x)
    if int(S[0]["phase"]) == R.PH_TACTICS and int(S[0]["to_play"]) == seat:
        act(S, R.A_DO + R.DO_DONE)


def chip(S, kind, n=0):
    """The n-th chip of Monster ``kind`` placed or taken (chip order)."""
    return [m for m in range(NUM_MONSTER_CHIPS) if MONSTER_IDS[MONSTER_CHIP_KINDS[m]] == kind
            and S[0]["mon_clearing"][m] != MON_TRAY][n]


def native(kind, n=0):
    return NUM_MONSTER_CHIPS + [i for i, k in enumerate(NATIVE_CHIP_KINDS) if k == kind][n]


def card_of(S, p, kind):
    return next(c for c in range(NUM_CARDS) if S[0]["card_where"][c] == CW_HERO and S[0]["card_owner"][c] == p
                and CARD_IDS[R.CARD_KIND[c]] == kind)


def give(S, p, kind, target=T_BACKPACK):
    """Give hero p a card of ``kind`` from its deck at ``target`` (what is in
    the way goes to the backpack)."""
    s = S[0]
    c = next(c for c in range(NUM_CARDS) if CARD_IDS[R.CARD_KIND[c]] == kind and s["card_where"][c] == 0)
    s["card_where"][c], s["card_owner"][c], s["card_slot"][c] = CW_HERO, p, T_BACKPACK
    if target != T_BACKPACK:
        for u in range(NUM_CARDS):
            if R.displaced_by(S, 0, p, c, target, u):
                s["card_slot"][u] = T_BACKPACK
        s["card_slot"][c] = target
    return c


def strip(S, p):
    """Hero p's cards all go back to their decks."""
    s = S[0]
    for c in range(NUM_CARDS):
        if s["card_where"][c] == CW_HERO and s["card_owner"][c] == p:
            s["card_where"][c], s["card_owner"][c], s["card_slot"][c] = 0, R.CARD_DECK[c], -1


def over(S):
    """The combat step of the battle phase is over."""
    return int(S[0]["stage"]) != ST_COMBAT


# ================================================================ the rulebook's example (L840-L872)
def test_example_combat_barbarian_and_knight():
    """L840-L872: the unhidden, blocked Barbarian (alerted) and Knight, both
    healthy with their starting equipment, against a Juvenile Dragon, a
    Giant and the Great Drake, every number as the rulebook gives it."""
    barb, knight = 0, 1
    S = combat([("human", "barbarian", TRI_PEAKS_1, HST_ALERT | R.HST_BLOCKED), ("human", "knight", TRI_PEAKS_1)],
               monsters=[("juvenile_dragon", TRI_PEAKS_1), ("giant", TRI_PEAKS_1), ("great_drake", TRI_PEAKS_1)])
    s = S[0]
    jd, giant, drake = chip(S, "juvenile_dragon"), chip(S, "giant"), chip(S, "great_drake")
    axe, helmet = card_of(S, barb, "battle_axe"), card_of(S, barb, "helmet")
    # L842: the Knight may place 5 cubes, the alerted Barbarian 5 and a Speed Cube
    assert C.cube_limit(S, 0, knight) == 5 and C.cube_limit(S, 0, barb) == 6
    # Round 1. L846: the Juvenile Dragon and the Giant challenge the Knight, the
    # Great Drake the Barbarian (the random hero drawn in Turn Order: 0 Barbarian, 1 Knight).
    # L851: the dragons' Monster Dice show symbols, the Giant's a blank.
    # L853: the Knight rolls two hits; L854: the Drake hit and equal; L855: the
    # Giant two blanks; L856: the Barbarian a hit and a blank.
    load(S, 1, 1, 0, SYMBOL, NO_SYMBOL, SYMBOL, HIT, HIT, HIT, EQUAL, BLANK, BLANK, HIT, BLANK)
    start(S)
    assert s["combat_round"] == 1 and s["combat_clearing"] == TRI_PEAKS_1
    assert (s["foe_target"][jd], s["foe_target"][giant], s["foe_target"][drake]) == (knight, knight, barb)
    # L847-L848: no spell to activate; neither can evade: the Barbarian's 3
    # maneuver cubes do not beat the Drake's 3, the Knight's 2 the dragon's 3.
    assert not C.can_evade(S, 0, barb) and not C.can_evade(S, 0, knight)
    # L849: the Barbarian targets the Great Drake, the Knight the Juvenile Dragon.
    ask(S, R.PH_TARGET, barb)
    act(S, R.A_FOE + drake)
    ask(S, R.PH_TARGET, knight)
    act(S, R.A_FOE + jd)
    # L850: the Barbarian 4 Might on the axe and 2 Speed in maneuver, one Speed
    # Cube unused (6 cubes: his limit, so his placing ends); the Knight 2 Might
    # on the long sword, 2 Speed in attack, 1 in maneuver (5).
    place(S, barb, *[R.BOX_MIGHT] * 4, R.BOX_MANEUVER, R.BOX_MANEUVER)
    ask(S, R.PH_TACTICS, knight)
    assert list(s["placed"][barb]) == [4, 0, 2]          # secret from the Knight's seat (state.py)
    place(S, knight, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_MANEUVER)
    # L851: the dragons flip, the Giant does not; L852: the Knight (speed 2,
    # length 10) strikes before the dragons (2, 0); L853: two hits: 2 + 1 sword
    # - 1 armour = 2 kills the Juvenile Dragon, chip and 10 Fame to the Knight.
    # L854: the Drake hits the Barbarian: he takes it on the helmet ...
    ask(S, R.PH_ARMOR, barb)
    assert s["mon_flipped"][drake] == 1 and s["mon_flipped"][giant] == 0
    assert s["mon_clearing"][jd] == MON_TAKEN and s["mon_taker"][jd] == knight and s["fame"][knight] == 10
    assert sorted(a - R.A_CARD for a in legal(S) if R.A_CARD <= a < R.A_CARD + NUM_CARDS) == [helmet]
    act(S, R.A_CARD + helmet)
    # ... 4 + 1 sword - 1 = 4 destroys it (armour 2), and he wounds his unused Speed Cube.
    ask(S, R.PH_WOUND, barb)
    assert s["card_where"][helmet] == CW_REMOVED
    # Round 2's draws: L862: both Monsters challenge the Knight; L867: no
    # symbol, the sides stay (the Drake's flipped).
    load(S, 1, 1, NO_SYMBOL, NO_SYMBOL)
    act(S, R.A_HEAL + CUBE_SPEED)
    assert tuple(s["cubes"][barb, :, CUBE_SPEED]) == (2, 1) and tuple(s["hearts"][barb]) == (5, 0)
    # L855-L856: the Giant misses the Knight, the Barbarian misses the Drake.
    # L858: two Monsters remain; a round with a wound and a death is not quiet.
    assert s["hearts"][knight, 1] == 0 and s["foe_wounds"][drake] == 0
    assert s["combat_round"] == 2 and s["quiet_rounds"] == 0
    # L864: neither evades (both could now: the Knight's 2 maneuver cubes beat 1,
    # the Barbarian, unchallenged, needs one).
    ask(S, R.PH_EVADE, barb)
    assert (s["foe_target"][giant], s["foe_target"][drake]) == (knight, knight)
    act(S, R.A_DO + R.DO_STAY)
    ask(S, R.PH_EVADE, knight)
    act(S, R.A_DO + R.DO_STAY)
    # L865: the Knight targets the Giant, the Barbarian the Drake again.
    act(S, R.A_FOE + drake)
    act(S, R.A_FOE + giant)
    # L866: every brown cube in attack speed: the Barbarian 2, the Knight 3.
    place(S, barb, *[R.BOX_MIGHT] * 4, R.BOX_ATTACK, R.BOX_ATTACK)
    place(S, knight, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    # L869: the Knight's 3 beats the Giant's maneuver 1, 3 damage kills it: 8 more Fame.
    # L870: the Barbarian's 2 beats the Drake's 1 (and his axe's length 7 its 0):
    # 4 + 1 - 1 = 4 kills it before it strikes: 20 Fame.
    assert s["mon_clearing"][giant] == MON_TAKEN and s["mon_taker"][giant] == knight and s["fame"][knight] == 18
    assert s["mon_clearing"][drake] == MON_TAKEN and s["mon_taker"][drake] == barb and s["fame"][barb] == 20
    assert s["hearts"][knight, 1] == 0 and s["cubes"][knight, 1].sum() == 0
    # L872: two more rounds without activity end the combat; in each the heroes
    # may rearrange their equipment in Cleanup.
    for rnd in (3, 4):
        assert s["combat_round"] == rnd
        ask(S, R.PH_ADJUST, barb)
        act(S, R.A_DO + R.DO_DONE)
        ask(S, R.PH_ADJUST, knight)
        act(S, R.A_DO + R.DO_DONE)
    assert over(S) and s["combat_step"] == C.CS_NONE
    assert (s["fame"][barb], s["fame"][knight]) == (20, 18)
    assert s["card_where"][axe] == CW_HERO


# ================================================================ helpers for one-on-one fights
KNIGHT = ("human", "knight", TRI_PEAKS_1)        # 3 Might, 3 Speed, attack 3 / maneuver 2 boxes, 5 Hearts;
#                                                  long sword (1 + 1 boxes, 1 sword, length 10), shield, chainmail
BARBARIAN = ("human", "barbarian", TRI_PEAKS_1)  # 5 Might, 3 Speed, 3 / 3 boxes, 5 Hearts; battle axe (2 + 2, 1 sword, 7), helmet
ARCHER = ("human", "archer", TRI_PEAKS_1)        # 2 Might, 3 Speed, 3 / 3 boxes, 4 Hearts; bow (1 + 1, 1 sword, 16), leather armour
ROGUE = ("human", "rogue", TRI_PEAKS_1)          # 2 Might, 3 Speed, 2 / 3 boxes, 4 Hearts; short sword (1 + 1, 1, 6), leather armour


def stay(S):
    """Answer an Evade decision, if one is pending, by fighting on."""
    while int(S[0]["phase"]) == R.PH_EVADE:
        act(S, R.A_DO + R.DO_STAY)


def target(S, seat, f):
    stay(S)
    ask(S, R.PH_TARGET, seat)
    act(S, R.A_DO + R.DO_PASS if f is None else R.A_FOE + f)


def step(S):
    return int(S[0]["combat_step"])


def no_armor(S, seat):
    ask(S, R.PH_ARMOR, seat)
    act(S, R.A_DO + R.DO_PASS)


# ================================================================ the clearings (L674-L678)
def test_dd_combat_1_clearings_with_heroes_fought_in_turn_order():
    """L676: combat is fought in each clearing with a hero, the start
    player's first, then in Turn Order; a clearing without heroes is ignored."""
    a, b_, c = TRI_PEAKS_1, clearing("tri_peaks", 3), clearing("tri_peaks", 5)
    S = combat([("human", "knight", a), ("human", "barbarian", b_), ("human", "archer", a)],
               monsters=[("goblin", a), ("ogre", c)])
    s = S[0]
    s["turn_order"][:3] = (1, 0, 2)                       # the Barbarian is the start player
    ogre = chip(S, "ogre")
    s["mon_flipped"][ogre] = 1
    start(S)
    ask(S, R.PH_ADJUST, 1)                                # his clearing first, alone: Cleanup of round 1
    assert s["combat_clearing"] == b_ and s["combat_round"] == 1
    act(S, R.A_DO + R.DO_DONE)
    ask(S, R.PH_ADJUST, 1)
    act(S, R.A_DO + R.DO_DONE)                            # two quiet rounds: over
    target(S, 0, chip(S, "goblin"))                       # then the Knight's clearing, with the Archer
    assert s["combat_clearing"] == a and s["hero_combat"][2] == C.HC_FIGHTING
    assert s["hero_combat"][1] == C.HC_DONE
    assert s["mon_flipped"][ogre] == 1                    # the heroless clearing is never fought


def test_dd_combat_2_combat_runs_in_a_clearing_without_monsters():
    """L678: a hero alone in his clearing still has his combat: its rounds
    run to their Cleanup step (where he may adjust his equipment) and end
    after two quiet rounds."""
    S = start(combat([KNIGHT]))
    s = S[0]
    ask(S, R.PH_ADJUST, 0)
    assert step(S) == C.CS_CLEANUP and s["combat_round"] == 1
    act(S, R.A_DO + R.DO_DONE)
    ask(S, R.PH_ADJUST, 0)
    assert s["combat_round"] == 2 and s["quiet_rounds"] == 1
    act(S, R.A_DO + R.DO_DONE)
    assert over(S)


def test_dd_combat_steps_1_a_round_runs_the_eight_steps_in_order():
    """L684-L686: Challenge (with the unhide choice), Activation (nothing
    without spells), Evade, Target, Hero Tactics, Monster Tactics, Resolve,
    Cleanup, in that order, each decision in its step."""
    S = combat([KNIGHT + (HST_HIDDEN,)], monsters=[("giant", TRI_PEAKS_1)],
               dice=[NO_SYMBOL])                         # the Giant's Monster Die
    s = S[0]
    giant = chip(S, "giant")
    start(S)
    seen = []
    ask(S, R.PH_UNHIDE, 0)
    seen.append(step(S))
    act(S, R.A_DO + R.DO_UNHIDE)
    ask(S, R.PH_EVADE, 0)                                 # 2 maneuver cubes beat the Giant's 1
    assert s["foe_target"][giant] == 0
    seen.append(step(S))
    act(S, R.A_DO + R.DO_STAY)
    ask(S, R.PH_TARGET, 0)
    seen.append(step(S))
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_TACTICS, 0)
    seen.append(step(S))
    act(S, R.A_DO + R.DO_DONE)                            # no maneuver: the Giant hits (1 > 0)
    ask(S, R.PH_ARMOR, 0)
    seen.append(step(S))
    act(S, R.A_DO + R.DO_PASS)                            # 4 damage < 5 Hearts: one wound
    ask(S, R.PH_WOUND, 0)
    act(S, R.A_HEAL + R.HEAL_HEART)
    ask(S, R.PH_ADJUST, 0)
    seen.append(step(S))
    assert seen == [C.CS_CHALLENGE, C.CS_EVADE, C.CS_TARGET, C.CS_TACTICS, C.CS_RESOLVE, C.CS_CLEANUP]
    assert s["loaded_pos"] == 1                           # Monster Tactics rolled its die in between


# ================================================================ Ambush (L680-L682)
def test_dd_combat_ambush_1_hidden_hero_fights_only_with_ranged_weapons_or_spells():
    """L682: a hidden hero takes the Target, Tactics and Resolve steps only
    with a ranged weapon (an Ambush); the hidden Knight with his long sword
    is asked nothing, the hidden Archer shoots with his bow."""
    S = combat([KNIGHT + (HST_HIDDEN,), ARCHER + (HST_HIDDEN,)], monsters=[("goblin", TRI_PEAKS_1)],
               dice=[NO_SYMBOL, HIT, HIT, R_ZERO, R_ZERO, BLANK, BLANK])
    s = S[0]
    gob = chip(S, "goblin")
    start(S)
    ask(S, R.PH_UNHIDE, 0)
    act(S, R.A_DO + R.DO_STAY)
    ask(S, R.PH_UNHIDE, 1)
    act(S, R.A_DO + R.DO_STAY)
    stay(S)
    ask(S, R.PH_TARGET, 1)                                # not the Knight: no ranged weapon
    act(S, R.A_FOE + gob)
    place(S, 1, R.BOX_MIGHT, R.BOX_ATTACK)                # speed 1 against maneuver 2: the dice hit
    assert s["mon_clearing"][gob] == MON_TAKEN and s["fame"][1] == 3 and s["fame"][0] == 0


def test_interpretation_combat_a_hidden_hero_with_a_throwing_weapon_ambushes_with_a_throw():
    """L682, L928 (Interpretations): a melee-or-ranged weapon held in one
    hand arms a hidden hero with a ranged weapon; his attack is a throw (its
    thrown length, the Ranged Attack Dice, the weapon beside the board)."""
    S = combat([ROGUE + (HST_HIDDEN,)], monsters=[("ogre", TRI_PEAKS_1)],
               dice=[NO_SYMBOL, R_PLUS1, R_ZERO])
    s = S[0]
    dagger = give(S, 0, "dagger", T_WEAPON1)
    ogre = chip(S, "ogre")
    start(S)
    act(S, R.A_DO + R.DO_STAY)                            # stays hidden
    target(S, 0, ogre)
    assert R.A_DO + R.DO_THROW not in legal(S)            # no choice: it is a throw
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)   # speed 2 beats the Ogre's 1
    assert s["card_where"][dagger] == CW_REMOVED and s["card_thrown"][dagger] == 1
    assert s["foe_wounds"][ogre] == 1                     # 2 + 1 sword + 0 (the worse die) = 3: a wound
    assert s["hero_cflags"][0] & C.CF_THREW


def test_dd_combat_ambush_2_monsters_never_target_a_hidden_hero():
    """L682, L890: Monsters challenge only unhidden heroes: with the hidden
    Archer ambushing beside the Knight, the Goblins all challenge the Knight;
    alone, the Archer is never challenged or attacked."""
    S = combat([ARCHER + (HST_HIDDEN,), KNIGHT], monsters=[("goblin", TRI_PEAKS_1), ("goblin", TRI_PEAKS_1)])
    s = S[0]
    start(S)
    ask(S, R.PH_UNHIDE, 0)
    act(S, R.A_DO + R.DO_STAY)
    stay(S)
    assert [int(s["foe_target"][chip(S, "goblin", i)]) for i in range(2)] == [1, 1]
    S = combat([ARCHER + (HST_HIDDEN,)], monsters=[("goblin", TRI_PEAKS_1)],
               dice=[NO_SYMBOL, BLANK, BLANK, NO_SYMBOL, NO_SYMBOL])
    s = S[0]
    gob = chip(S, "goblin")
    start(S)
    act(S, R.A_DO + R.DO_STAY)
    assert s["foe_target"][gob] == -1
    target(S, 0, gob)
    place(S, 0, R.BOX_MIGHT)                              # speed 0: the dice miss; the Goblin attacks no one
    assert s["hearts"][0, 1] == 0 and s["cubes"][0, 1].sum() == 0


# ================================================================ 1. Challenge (L688-L693)
def test_dd_combat_challenge_1_hidden_heroes_may_unhide_only_at_the_challenge():
    """L688, L890: at the start of each Challenge step, in player order, a
    hidden hero may become unhidden; at no other decision may he."""
    S = combat([ARCHER + (HST_HIDDEN,), KNIGHT], monsters=[("ogre", TRI_PEAKS_1)],
               dice=[NO_SYMBOL, HIT, HIT, BLANK, BLANK, 0])
    s = S[0]
    ogre = chip(S, "ogre")
    start(S)
    ask(S, R.PH_UNHIDE, 0)
    assert step(S) == C.CS_CHALLENGE
    act(S, R.A_DO + R.DO_STAY)
    assert s["hero_status"][0] & HST_HIDDEN and s["foe_target"][ogre] == 1
    stay(S)
    target(S, 0, None)
    assert R.A_DO + R.DO_UNHIDE not in legal(S)           # the Knight's target: no unhiding here
    target(S, 1, ogre)
    assert R.A_DO + R.DO_UNHIDE not in legal(S)
    place(S, 1, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_MANEUVER)   # speed 1 vs 1: two hits, 2 damage wounds the Ogre
    # the Ogre (speed 1) against maneuver 1: two blanks; the idle Archer's Cleanup
    ask(S, R.PH_ADJUST, 0)
    act(S, R.A_DO + R.DO_DONE)
    ask(S, R.PH_UNHIDE, 0)                                # round 2 begins with the choice again
    assert s["combat_round"] == 2
    act(S, R.A_DO + R.DO_UNHIDE)
    assert not s["hero_status"][0] & HST_HIDDEN
    stay(S)
    assert s["foe_target"][ogre] == 0                     # now he may be challenged (the draw: 0)


def test_interpretation_combat_no_unhide_or_evade_choice_without_monsters():
    """L688, L700 (Interpretations): where no Monster (nor Native) is in the
    clearing, a hidden hero is not asked to unhide and no one to evade."""
    S = start(combat([KNIGHT + (HST_HIDDEN,)]))
    ask(S, R.PH_ADJUST, 0)
    assert S[0]["hero_status"][0] & HST_HIDDEN


def test_dd_combat_challenge_2_each_monster_challenges_a_random_unhidden_hero():
    """L688, L690: each Monster challenges a random unhidden hero (drawn
    among them in Turn Order); several may challenge the same one."""
    S = combat([KNIGHT, ARCHER + (HST_HIDDEN,), BARBARIAN],
               monsters=[("goblin", TRI_PEAKS_1)] * 3, dice=[0, 0, 1])
    s = S[0]
    start(S)
    act(S, R.A_DO + R.DO_STAY)                            # the Archer stays hidden
    assert [int(s["foe_target"][chip(S, "goblin", i)]) for i in range(3)] == [0, 0, 2]
    assert s["loaded_pos"] == 3


def test_dd_combat_challenge_4_monsters_and_natives_ignore_each_other():
    """L693: a Monster challenges a hero, never a Native, and a Native no one."""
    S = combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)], natives=[("miner", TRI_PEAKS_1)])
    s = S[0]
    start(S)
    assert s["foe_target"][chip(S, "goblin")] == 0 and s["foe_target"][native("miner")] == -1
    assert s["loaded_pos"] == 0                           # one hero: no draw


def test_dd_natives_1_natives_neither_block_nor_attack():
    """L1003: Natives do not attack heroes: a hero alone with Natives is not
    challenged, has nothing to evade and ends his combat unhurt."""
    S = combat([KNIGHT], natives=[("miner", TRI_PEAKS_1), ("mine_foreman", TRI_PEAKS_1)])
    s = S[0]
    start(S)
    for rnd in (1, 2):
        target(S, 0, None)                                # he may target them, and does not
        ask(S, R.PH_ADJUST, 0)
        assert s["foe_target"][native("miner")] == -1
        act(S, R.A_DO + R.DO_DONE)
    assert over(S) and s["hearts"][0, 1] == 0 and s["cubes"][0, 1].sum() == 0


# ================================================================ 3. Evade (L700-L704)
def test_dd_combat_evade_1_evade_needs_more_maneuver_cubes_than_the_fastest_challenger():
    """L700: the Knight (2 maneuver boxes, 3 Speed Cubes) can evade the Giant
    (maneuver 1) alone, not the Giant and a Goblin (maneuver 2) together."""
    S = start(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1), ("goblin", TRI_PEAKS_1)]))
    ask(S, R.PH_TARGET, 0)
    S = start(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)]))
    ask(S, R.PH_EVADE, 0)


def test_interpretation_combat_an_unchallenged_hero_evades_with_one_speed_cube():
    """L700 (Interpretations, "Evading with no challenger"): a hero no
    Monster challenges needs one Speed Cube in a maneuver box; the Knight,
    challenged by the Goblin (2), cannot; the Archer beside him can."""
    S = start(combat([KNIGHT, ARCHER], monsters=[("goblin", TRI_PEAKS_1)], dice=[0]))
    assert S[0]["foe_target"][chip(S, "goblin")] == 0
    ask(S, R.PH_EVADE, 1)


def test_dd_combat_evade_2_equal_maneuver_cannot_evade():
    """L702: the Archer's 3 maneuver cubes only tie the Kobold's 3: no evade
    (only a Rogue may try on a tie, L1224)."""
    S = start(combat([ARCHER], monsters=[("kobold", TRI_PEAKS_1)]))
    ask(S, R.PH_TARGET, 0)


def test_dd_combat_evade_3_evader_leaves_by_a_path_of_his_choice():
    """L703: the evader chooses the path he leaves by (Tri-Peaks 1: to 2 or
    to 6) and takes no further part: the combat is over without him."""
    S = start(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)]))
    s = S[0]
    ask(S, R.PH_EVADE, 0)
    assert sorted(a - R.A_CLEARING for a in legal(S) if a < R.A_DO) == \
        [clearing("tri_peaks", 2), clearing("tri_peaks", 6)]
    act(S, R.A_CLEARING + clearing("tri_peaks", 6))
    assert over(S)
    assert s["evade_to"][0] == clearing("tri_peaks", 6) and s["hero_status"][0] & HST_EVADED
    assert s["hearts"][0, 1] == 0 and s["hero_clearing"][0] == TRI_PEAKS_1


def test_dd_combat_evade_4_paths_out_exclude_gates_and_the_map_edge():
    """L703 (Interpretations): an evader leaves by a printed path or a Hidden
    Path he has discovered, never by a Gate, nor by a path off the map's
    edge. (Every authored clearing has a printed path out, so an evade is
    never barred for want of one.)"""
    three, six = clearing("tri_peaks", 3), clearing("tri_peaks", 6)
    S = combat([("human", "knight", three)], monsters=[("giant", three)])
    s = S[0]
    gates = [w for w in range(len(R.WILD_GATE)) if R.WILD_GATE[w]][:2]
    for w, c in zip(gates, (three, six)):
        s["wild_where"][w], s["wild_clearing"][w] = R.TOK_PLACED, c
    s["hidden_found"][0, (TILE_IDS.index("tri_peaks") * 2) * R.MAX_HIDDEN_PER_SIDE] = 1   # Hidden Path 3-5
    start(S)
    ask(S, R.PH_EVADE, 0)
    assert sorted(a - R.A_CLEARING for a in legal(S) if a < R.A_DO) == \
        [clearing("tri_peaks", k) for k in (2, 4, 5)]
    S = start(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)]))
    assert R.exits_from(S, 0, TRI_PEAKS_1, np.zeros(6, dtype=np.int64)) > 0     # a path off the map's edge ...
    assert sorted(a - R.A_CLEARING for a in legal(S) if a < R.A_DO) == \
        [clearing("tri_peaks", 2), clearing("tri_peaks", 6)]                      # ... is not offered


def test_dd_combat_evade_5_evade_cubes_return_healthy():
    """L703: the evader's cubes are back in his healthy box, and next turn
    he must move as his first action (L481)."""
    S = start(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)]))
    s = S[0]
    act(S, R.A_CLEARING + clearing("tri_peaks", 2))
    assert tuple(s["cubes"][0, :, CUBE_SPEED]) == (3, 0) and s["placed"][0].sum() == 0
    while int(s["phase"]) != R.PH_ACTION:                  # on to his next turn
        act(S, legal(S)[0])
    assert int(s["to_play"]) == 0 and all(R.A_CLEARING <= a < R.A_DO for a in legal(S))


def test_dd_combat_evade_6_evaded_monster_challenges_no_one_else():
    """L704: the Giant the Knight evaded does not challenge the Archer instead."""
    S = start(combat([KNIGHT, ARCHER], monsters=[("giant", TRI_PEAKS_1)], dice=[0]))
    s = S[0]
    giant = chip(S, "giant")
    ask(S, R.PH_EVADE, 0)
    act(S, R.A_CLEARING + clearing("tri_peaks", 2))
    assert s["foe_target"][giant] == -1 and s["hero_combat"][0] == C.HC_EVADED
    stay(S)
    ask(S, R.PH_TARGET, 1)
    assert s["foe_target"][giant] == -1


# ================================================================ 4. Target (L706-L712)
def test_dd_combat_target_1_monsters_target_the_hero_they_challenge():
    """L708: the Giant targets the Barbarian it challenged, the Goblin the
    Knight: each strikes its own hero."""
    S = start(combat([KNIGHT, BARBARIAN], monsters=[("giant", TRI_PEAKS_1), ("goblin", TRI_PEAKS_1)],
                     dice=[0, 1, NO_SYMBOL, NO_SYMBOL]))          # (the Goblin's chip draws first)
    s = S[0]
    giant, gob = chip(S, "giant"), chip(S, "goblin")
    stay(S)
    target(S, 0, None)
    target(S, 1, None)
    assert (s["foe_target"][giant], s["foe_target"][gob]) == (1, 0)
    place(S, 0)
    place(S, 1)
    no_armor(S, 0)                                        # the Goblin (speed 2) on the Knight (maneuver 0)
    act(S, R.A_HEAL + R.HEAL_HEART)
    no_armor(S, 1)                                        # then the Giant (1) on the Barbarian


def test_dd_combat_target_2_heroes_choose_targets_in_player_order():
    """L709: in player order (the Archer drawn first) each hero targets one
    Monster, several the same one, or (Interpretations) no one."""
    S = combat([KNIGHT, ARCHER], monsters=[("ogre", TRI_PEAKS_1), ("goblin", TRI_PEAKS_1)], dice=[0, 0])
    s = S[0]
    s["turn_order"][:2] = (1, 0)
    start(S)
    ogre = chip(S, "ogre")
    stay(S)
    ask(S, R.PH_TARGET, 1)
    assert R.A_DO + R.DO_PASS in legal(S)
    act(S, R.A_FOE + ogre)
    ask(S, R.PH_TARGET, 0)
    act(S, R.A_FOE + ogre)
    assert tuple(s["hero_target"][:2]) == (ogre, ogre)


def test_dd_combat_target_5_evaded_monster_attacks_no_one_but_may_be_attacked():
    """L711: the Giant whose hero evaded attacks no one, but the Archer may
    still shoot it."""
    S = start(combat([KNIGHT, ARCHER], monsters=[("giant", TRI_PEAKS_1)],
                     dice=[0, NO_SYMBOL, R_ZERO, R_ZERO]))
    s = S[0]
    giant = chip(S, "giant")
    act(S, R.A_CLEARING + clearing("tri_peaks", 2))       # the Knight evades
    target(S, 1, giant)
    place(S, 1, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)  # 2 beats the Giant's 1: 1 + 1 sword + 0 = 2 < 3
    assert s["foe_wounds"][giant] == 1
    assert s["hearts"][1, 1] == 0 and s["cubes"][1, 1].sum() == 0


# ================================================================ 5. Hero Tactics (L714-L724)
def chamber_combat(found=True, side=1, might=5, heroes=1):
    """A human Barbarian (a Battle Axe: two might boxes and a sword; 5 healthy
    Might Cubes, or ``might``) alone (or with a second Barbarian) in the
    clearing of the Chamber, whose Massive Door is on its card's side up
    (``side`` 1, the data's second) and closed; no Monster there; he has
    found the Chamber (``found``)."""
    S = combat([("human", "barbarian", TRI_PEAKS_1)] * heroes)
    s = S[0]
    s["site_clearing"][R.CHAMBER] = TRI_PEAKS_1
    s["setup_side"][R.SITE_PACK[R.CHAMBER]] = side
    s["site_found"][0, R.CHAMBER] = int(found)
    s["cubes"][0, 0, CUBE_MIGHT] = might
    return start(S)


def strike_the_door(S, might_cubes):
    """Seat 0 targets the door and places ``might_cubes`` on the axe and one
    Speed Cube in the attack box."""
    ask(S, R.PH_TARGET, 0)
    act(S, R.A_DO + R.DO_DOOR)
    place(S, 0, *[R.BOX_MIGHT] * might_cubes, R.BOX_ATTACK)


def test_dd_site_chamber_2_a_blow_of_4_damage_in_combat_opens_the_massive_door():
    """L1240: "The Chamber is opened by an attack upon it during combat that
    causes 4 or more damage (the door is unarmored)". A Barbarian at the
    found, closed Chamber with no Monster present gets the Target step with
    the door among his targets; four Might Cubes on his Battle Axe and its
    sword are 5 damage, his attack speed 1 beats the door's maneuver 0 without
    a roll, and the door opens, for every hero."""
    S = chamber_combat()
    assert R.A_DO + R.DO_DOOR in legal(S) and R.A_DO + R.DO_PASS in legal(S)
    strike_the_door(S, 4)
    assert int(S[0]["door_open"][R.CHAMBER]) == 1
    assert int(S[0]["fame"][0]) == 0                                  # a door gives no Fame


def test_dd_site_chamber_2_a_blow_of_3_damage_leaves_the_door_shut():
    """Two Might Cubes and the sword are 3 damage: below 4, the door stays shut
    (no wound counts on a door: after two such rounds the combat ends, L781)."""
    S = chamber_combat(might=2)
    strike_the_door(S, 2)
    assert int(S[0]["door_open"][R.CHAMBER]) == 0


@pytest.mark.parametrize("why", ["not found", "no door on the side up", "already open"])
def test_dd_site_chamber_2_the_door_is_a_target_only_while_it_bars_a_found_chamber(why):
    """The door is no target for a hero who has not found the Chamber, on the
    setup side without the door, or once it is open (Interpretations); with
    no Monster either, the hero then has nothing to target and no Target step."""
    if why == "already open":
        S = combat([("human", "barbarian", TRI_PEAKS_1)])
        S[0]["site_clearing"][R.CHAMBER] = TRI_PEAKS_1
        S[0]["setup_side"][R.SITE_PACK[R.CHAMBER]] = 1
        S[0]["site_found"][0, R.CHAMBER] = 1
        S[0]["door_open"][R.CHAMBER] = 1
        start(S)
    else:
        S = chamber_combat(found=why != "not found", side=0 if why == "no door on the side up" else 1)
    assert int(S[0]["phase"]) != R.PH_TARGET and R.A_DO + R.DO_DOOR not in legal(S)


def test_dd_combat_tactics_1_placements_hidden_until_all_are_placed():
    """L714, L724 (Interpretations, "Simultaneous choices"): each hero places
    in Turn Order, his placements secret from the other seats; they are
    revealed, and the round goes on (Monster Tactics), only once all have placed."""
    S = start(combat([KNIGHT, BARBARIAN], monsters=[("ogre", TRI_PEAKS_1)], dice=[0, SYMBOL]))
    s = S[0]
    ogre = chip(S, "ogre")
    stay(S)
    target(S, 0, ogre)
    target(S, 1, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_MANEUVER)
    ask(S, R.PH_TACTICS, 1)
    assert list(s["placed"][0]) == [1, 0, 1]
    assert C.placement_secret(S, 0, 1, 0) and not C.placement_secret(S, 0, 0, 0)
    assert s["mon_flipped"][ogre] == 0 and s["loaded_pos"] == 1
    place(S, 1, R.BOX_MIGHT, R.BOX_MIGHT)
    assert step(S) != C.CS_TACTICS and not C.placement_secret(S, 0, 1, 0)
    assert s["mon_flipped"][ogre] == 1


def test_dd_combat_tactics_2_five_cubes_or_an_extra_speed_cube_after_alert():
    """L716: at most 5 cubes a round: the Barbarian's 4 Might and a Speed Cube
    end his placing; after an Alert Action a sixth, a Speed Cube, may go."""
    for status, speed in ((0, 1), (HST_ALERT, 2)):
        S = start(combat([BARBARIAN + (status,)], monsters=[("juvenile_dragon", TRI_PEAKS_1)]))
        s = S[0]
        target(S, 0, chip(S, "juvenile_dragon"))
        for _ in range(4):
            act(S, R.A_BOX + R.BOX_MIGHT)
        for _ in range(speed):
            ask(S, R.PH_TACTICS, 0)
            act(S, R.A_BOX + R.BOX_ATTACK)
        assert step(S) != C.CS_TACTICS and s["placed"][0].sum() == 4 + speed


def test_dd_action_alert_2_alert_adds_one_speed_cube_to_the_limit():
    """L465, L716: the alerted Barbarian places six cubes in every Combat
    Round of the turn, the sixth a Speed Cube."""
    S = start(combat([BARBARIAN + (HST_ALERT,)], monsters=[("juvenile_dragon", TRI_PEAKS_1)],
                     dice=[NO_SYMBOL, BLANK, BLANK, NO_SYMBOL, BLANK, BLANK]))
    s = S[0]
    jd = chip(S, "juvenile_dragon")
    for rnd in (1, 2):
        assert s["combat_round"] == rnd and C.cube_limit(S, 0, 0) == 6
        target(S, 0, jd)
        for _ in range(4):
            act(S, R.A_BOX + R.BOX_MIGHT)
        act(S, R.A_BOX + R.BOX_ATTACK)
        ask(S, R.PH_TACTICS, 0)
        act(S, R.A_BOX + R.BOX_ATTACK)                    # the sixth; then his placing ends
        no_armor(S, 0)                                    # the dragon (3) hits his maneuver 0
        act(S, R.A_HEAL + R.HEAL_HEART)


def test_dd_combat_tactics_3_might_cubes_only_in_might_boxes():
    """L717: Might Cubes go only in the red boxes of his weapon: the Knight's
    long sword takes two, his third Might Cube has no box, and no Speed box
    takes it."""
    S = start(combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)]))
    s = S[0]
    target(S, 0, chip(S, "ogre"))
    for _ in range(3):
        act(S, R.A_BOX + R.BOX_ATTACK)                    # his three Speed Cubes
    assert R.A_BOX + R.BOX_ATTACK not in legal(S) and R.A_BOX + R.BOX_MANEUVER not in legal(S)
    act(S, R.A_BOX + R.BOX_MIGHT)
    act(S, R.A_BOX + R.BOX_MIGHT)
    assert step(S) != C.CS_TACTICS and list(s["placed"][0]) == [2, 3, 0]
    assert C.unplaced(S, 0, 0, CUBE_MIGHT) == 1


def test_dd_combat_tactics_3_spear_optional_box_only_two_handed():
    """L950: a spear held in one hand has its one mandatory red box; wielded
    two-handed, its optional box too."""
    warrior = ("human", "warrior", TRI_PEAKS_1)          # 4 Might; spear (one-handed), shield, helmet
    for two_handed in (False, True):
        S = combat([warrior], monsters=[("ogre", TRI_PEAKS_1)])
        spear = card_of(S, 0, "spear")
        if two_handed:
            S[0]["card_slot"][card_of(S, 0, "shield")] = T_BACKPACK
            S[0]["card_slot"][spear] = T_WEAPONS
        start(S)
        target(S, 0, chip(S, "ogre"))
        act(S, R.A_BOX + R.BOX_MIGHT)
        assert (R.A_BOX + R.BOX_MIGHT in legal(S)) == two_handed


def test_dd_combat_tactics_4_speed_cubes_only_in_speed_boxes():
    """L718: Speed Cubes go in attack and maneuver speed boxes, as many as the
    Lineage and Class Cards print: the Rogue's 2 attack boxes take two of his
    three Speed Cubes; the third may go in a maneuver box, not on his sword."""
    S = start(combat([ROGUE], monsters=[("kobold", TRI_PEAKS_1)]))
    s = S[0]
    target(S, 0, chip(S, "kobold"))
    act(S, R.A_BOX + R.BOX_ATTACK)
    act(S, R.A_BOX + R.BOX_ATTACK)
    assert R.A_BOX + R.BOX_ATTACK not in legal(S) and R.A_BOX + R.BOX_MANEUVER in legal(S)
    act(S, R.A_BOX + R.BOX_MIGHT)
    act(S, R.A_BOX + R.BOX_MIGHT)                         # both Might Cubes on the sword ...
    assert R.A_BOX + R.BOX_MIGHT not in legal(S)          # ... and the Speed Cube cannot follow
    act(S, R.A_BOX + R.BOX_MANEUVER)
    assert list(s["placed"][0]) == [2, 2, 1]


def test_dd_combat_tactics_5_zero_speed_still_attacks_and_maneuvers():
    """L718: an attack speed of 0 is still an attack, a maneuver speed of 0
    still a maneuver: the Goblin (2) hits the Barbarian's maneuver 0 without
    dice; the Barbarian's speed 0 rolls two hits and kills it."""
    S = start(combat([BARBARIAN], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT]))
    s = S[0]
    gob = chip(S, "goblin")
    target(S, 0, gob)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT)
    no_armor(S, 0)
    assert s["loaded_pos"] == 1                           # no Hit Dice for the Goblin
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert s["mon_clearing"][gob] == MON_TAKEN and s["loaded_pos"] == 3


def test_dd_combat_tactics_7_one_attacking_or_casting_card_a_round():
    """L720: one card makes the round's attack -- the equipped weapon takes
    the Might Cubes, the Lineage and Class Cards the Speed Cubes -- and the
    hero attacks once."""
    S = start(combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT, BLANK, BLANK]))
    s = S[0]
    sword = card_of(S, 0, "long_sword")
    give(S, 0, "dagger")                                  # a second weapon, in the backpack
    ogre = chip(S, "ogre")
    target(S, 0, ogre)
    assert C.hero_weapon(S, 0, 0) == sword and C.might_capacity(S, 0, 0, sword) == 2
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_MANEUVER)
    assert s["foe_wounds"][ogre] == 1 and s["loaded_pos"] == 5   # his one attack, then the Ogre's


def test_dd_combat_tactics_8_no_cubes_on_backpack_cards():
    """L721: cubes never go on a possession in the backpack: the Knight whose
    sword is there has no weapon to target with and no red box."""
    S = combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)])
    S[0]["card_slot"][card_of(S, 0, "long_sword")] = T_BACKPACK
    start(S)
    stay(S)
    ask(S, R.PH_TACTICS, 0)                               # no Target step for him
    assert R.A_BOX + R.BOX_MIGHT not in legal(S) and R.A_BOX + R.BOX_MANEUVER in legal(S)


def test_dd_combat_tactics_9_mandatory_boxes_of_a_used_card_filled():
    """L722: once a cube is on the battle axe both its mandatory boxes must be
    filled; its optional ones may stay empty."""
    S = start(combat([BARBARIAN], monsters=[("ogre", TRI_PEAKS_1)]))
    target(S, 0, chip(S, "ogre"))
    assert R.A_DO + R.DO_DONE in legal(S)
    act(S, R.A_BOX + R.BOX_MIGHT)
    assert R.A_DO + R.DO_DONE not in legal(S)
    act(S, R.A_BOX + R.BOX_MIGHT)
    assert R.A_DO + R.DO_DONE in legal(S) and R.A_BOX + R.BOX_MIGHT in legal(S)


def test_interpretation_combat_a_weapon_attacks_only_with_a_cube_on_it():
    """L750 (Interpretations): sword icons count when covered by cubes, so a
    weapon with no mandatory box (the dagger) attacks only with a cube on
    it: Speed Cubes alone make no attack."""
    S = combat([ROGUE], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL, BLANK, BLANK])
    give(S, 0, "dagger", T_WEAPON1)
    start(S)
    ogre = chip(S, "ogre")
    target(S, 0, ogre)
    place(S, 0, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_MANEUVER)
    s = S[0]
    assert s["foe_wounds"][ogre] == 0 and s["loaded_pos"] == 3   # only the Ogre's dice
    ask(S, R.PH_ADJUST, 0)                                # he used no card: he may adjust


def test_interpretation_combat_tactics_asked_only_with_something_to_place():
    """L714 (Interpretations): a hero with no target whom no Monster may
    strike has nothing to place and is not asked."""
    S = start(combat([KNIGHT, ARCHER], monsters=[("giant", TRI_PEAKS_1)], dice=[1]))
    ask(S, R.PH_EVADE, 0)                                 # unchallenged: may evade
    act(S, R.A_DO + R.DO_STAY)
    act(S, R.A_CLEARING + clearing("tri_peaks", 2))       # the challenged Archer evades
    target(S, 0, None)
    ask(S, R.PH_ADJUST, 0)


def passive(S, *seats):
    """The seats fight on, target no one and place nothing."""
    for p in seats:
        stay(S)
        target(S, p, None)
    for p in seats:
        place(S, p)


def answer_all(S, phases=(R.PH_EVADE, R.PH_TARGET, R.PH_TACTICS)):
    """Fight on, target no one, place nothing, for every seat asked."""
    while int(S[0]["phase"]) in phases:
        ph = int(S[0]["phase"])
        act(S, R.A_DO + {R.PH_EVADE: R.DO_STAY, R.PH_TARGET: R.DO_PASS, R.PH_TACTICS: R.DO_DONE}[ph])


# ================================================================ 6. Monster Tactics (L726-L728)
def test_dd_combat_mtactics_1_monster_symbol_flips_the_chip():
    """L726 (Interpretations): one Monster Die per Monster; a symbol flips the
    chip, which stays so in the next round until another symbol flips it back."""
    S = start(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)] * 2,
                     dice=[SYMBOL, NO_SYMBOL] + [BLANK] * 4 + [SYMBOL, NO_SYMBOL] + [BLANK] * 4))
    s = S[0]
    g1, g2 = chip(S, "giant"), chip(S, "giant", 1)
    stay(S)
    target(S, 0, None)
    place(S, 0, R.BOX_MANEUVER, R.BOX_MANEUVER)
    ask(S, R.PH_ADJUST, 0)
    assert (s["mon_flipped"][g1], s["mon_flipped"][g2]) == (1, 0)
    act(S, R.A_DO + R.DO_DONE)
    stay(S)
    assert s["combat_round"] == 2 and s["mon_flipped"][g1] == 1
    target(S, 0, None)
    place(S, 0, R.BOX_MANEUVER, R.BOX_MANEUVER)
    ask(S, R.PH_ADJUST, 0)
    assert (s["mon_flipped"][g1], s["mon_flipped"][g2]) == (0, 0)


def test_dd_combat_mtactics_2_multi_target_tactic_adds_random_heroes():
    """L728, L1266: the Adult Dragon's fire strikes up to 4 heroes: the one
    it challenged and 3 more drawn at random among the others."""
    heroes = [KNIGHT, BARBARIAN, ARCHER, ROGUE, ("human", "warrior", TRI_PEAKS_1)]
    S = start(combat(heroes, monsters=[("adult_dragon", TRI_PEAKS_1)], dice=[0, NO_SYMBOL, 2, 0, 1]))
    s = S[0]
    dragon = chip(S, "adult_dragon")
    answer_all(S)
    ask(S, R.PH_ARMOR, 0)                                 # fire (speed 3) on the Knight's maneuver 0
    assert s["foe_target"][dragon] == 0
    assert [p for p in range(5) if s["foe_extra"][dragon] >> p & 1] == [1, 3, 4]


# ================================================================ 7. Resolve: order (L730-L736)
def test_dd_combat_order_1_fastest_attack_resolves_first():
    """L732: the Goblin (speed 2) strikes before the Barbarian (speed 0),
    whose attack waits until it is resolved."""
    S = start(combat([BARBARIAN], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT]))
    s = S[0]
    gob = chip(S, "goblin")
    target(S, 0, gob)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT)
    no_armor(S, 0)
    assert s["mon_clearing"][gob] == TRI_PEAKS_1 and not s["hero_cflags"][0] & C.CF_ATTACKED
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert s["mon_clearing"][gob] == MON_TAKEN


def test_dd_combat_order_2_longer_attack_length_breaks_ties():
    """L734: the Knight and the Orc both at speed 2: the long sword's length
    10 beats the Orc's 6, so the Knight strikes first and kills it."""
    S = start(combat([KNIGHT], monsters=[("orc", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT]))
    s = S[0]
    orc = chip(S, "orc")
    target(S, 0, orc)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    assert s["mon_clearing"][orc] == MON_TAKEN and s["hearts"][0, 1] == 0 and s["cubes"][0, 1].sum() == 0


def test_dd_combat_order_4_equal_attacks_strike_together():
    """L736 (Interpretations, "Simultaneous attacks"): the Rogue's short sword
    and the Orc tie on speed 2 and length 6: both strike, the Orc even after
    the Rogue's blow has killed it."""
    S = start(combat([ROGUE], monsters=[("orc", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT, HIT, HIT]))
    s = S[0]
    orc = chip(S, "orc")
    target(S, 0, orc)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_MANEUVER)
    ask(S, R.PH_ARMOR, 0)
    assert s["mon_clearing"][orc] == MON_TAKEN and s["fame"][0] == 5


def test_dd_combat_order_5_killed_monster_loses_its_pending_attack():
    """L736, L853: the Knight (speed 3) kills the Giant (speed 1) before it
    strikes: it never attacks."""
    S = start(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
    s = S[0]
    giant = chip(S, "giant")
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert s["mon_clearing"][giant] == MON_TAKEN
    assert s["hearts"][0, 1] == 0 and s["cubes"][0, 1].sum() == 0


# ================================================================ 7. Resolve: hits (L738-L743)
def test_dd_combat_resolution_1_faster_attack_hits_without_dice():
    """L740: attack speed 3 above the Giant's maneuver 1 hits, no dice rolled."""
    S = start(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
    s = S[0]
    giant = chip(S, "giant")
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert s["foe_wounds"][giant] == 1 and s["loaded_pos"] == 1 and s["rng_counter"] == 0


def test_dd_combat_resolution_2_a_blank_misses():
    """L741: speed 2 against the Goblin's maneuver 2 rolls hit and blank: a miss."""
    S = start(combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, BLANK]))
    s = S[0]
    gob = chip(S, "goblin")
    target(S, 0, gob)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    ask(S, R.PH_ARMOR, 0)                                 # the Goblin's own attack comes next
    assert s["mon_clearing"][gob] == TRI_PEAKS_1 and s["loaded_pos"] == 3


def test_dd_combat_resolution_3_two_hits_hit_at_any_speed():
    """L742: attack speed 0 against the Juvenile Dragon's maneuver 3: two hit
    symbols hit (2 + 1 sword - 1 armour = 2 kills it)."""
    S = start(combat([KNIGHT], monsters=[("juvenile_dragon", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT]))
    s = S[0]
    jd = chip(S, "juvenile_dragon")
    target(S, 0, jd)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT)
    no_armor(S, 0)                                        # the dragon (3) strikes first
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert s["mon_clearing"][jd] == MON_TAKEN


@pytest.mark.parametrize("speed,dice,hit", [(2, (EQUAL, HIT), True), (2, (EQUAL, EQUAL), True),
                                            (1, (HIT, EQUAL), False)])
def test_dd_combat_resolution_4_an_equal_face_hits_only_at_equal_speed(speed, dice, hit):
    """L743: hits and equal signs hit when attack speed equals maneuver
    speed (the Goblin's 2), miss otherwise."""
    S = start(combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL, *dice]))
    s = S[0]
    gob = chip(S, "goblin")
    target(S, 0, gob)
    place(S, 0, R.BOX_MIGHT, *[R.BOX_ATTACK] * speed)
    if speed < 2:
        no_armor(S, 0)                                    # the Goblin is faster
        act(S, R.A_HEAL + R.HEAL_HEART)
    assert (s["mon_clearing"][gob] == MON_TAKEN) == hit


# ================================================================ 7. Resolve: damage (L745-L767)
def test_dd_combat_damage_1_a_miss_does_no_damage():
    """L745: the Archer's arrow misses (a blank): no damage, no Ranged Attack Dice."""
    S = start(combat([ARCHER], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL, BLANK, HIT, HIT, HIT]))
    s = S[0]
    ogre = chip(S, "ogre")
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_MANEUVER)   # 1 against the Ogre's 1: dice
    ask(S, R.PH_ARMOR, 0)                                 # the next two dice were the Ogre's: two hits
    assert s["foe_wounds"][ogre] == 0 and s["loaded_pos"] == 5


def test_dd_combat_damage_2_any_damage_is_one_wound_or_a_kill():
    """L747, L754: 3 damage on the Ogre (health 4) is one wound, not three;
    the Archer's 1 + 1 sword - 1 armour - 1 (the worse Ranged Die; his reroll
    of it, L1208, shows -1 again) = 0 on the Juvenile Dragon does nothing."""
    S = start(combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
    s = S[0]
    ogre = chip(S, "ogre")
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert s["foe_wounds"][ogre] == 1 and s["mon_clearing"][ogre] == TRI_PEAKS_1
    S = start(combat([ARCHER], monsters=[("juvenile_dragon", TRI_PEAKS_1)],
                     dice=[NO_SYMBOL, HIT, HIT, R_MINUS1, R_PLUS2, R_MINUS1]))
    s = S[0]
    jd = chip(S, "juvenile_dragon")
    target(S, 0, jd)
    place(S, 0, R.BOX_MIGHT)
    no_armor(S, 0)                                        # the dragon first ...
    act(S, R.A_HEAL + R.HEAL_HEART)
    ask(S, R.PH_TARGET, 0)                                # round 2: the arrow hit for nothing
    assert s["foe_wounds"][jd] == 0 and s["loaded_pos"] == 6 and s["combat_round"] == 2


def test_dd_combat_damage_4_base_damage_is_cubes_plus_swords():
    """L750: base damage is the cubes on the weapon plus its swords: 2 + 1
    kills the Giant (health 3), 1 + 1 only wounds it."""
    for might, killed in ((2, True), (1, False)):
        S = start(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
        s = S[0]
        giant = chip(S, "giant")
        target(S, 0, giant)
        place(S, 0, *[R.BOX_MIGHT] * might, R.BOX_ATTACK, R.BOX_ATTACK)
        assert (s["mon_clearing"][giant] == MON_TAKEN) == killed and s["foe_wounds"][giant] == (0 if killed else 1)


def test_dd_combat_damage_5_shield_icon_makes_a_monster_armored():
    """L751: the Juvenile Dragon's shield icon armours it: the Knight's 2 + 1
    sword makes 2 on it (it has 2 health: killed), 1 + 1 only 1 (a wound)."""
    for might, killed in ((2, True), (1, False)):
        S = start(combat([KNIGHT], monsters=[("juvenile_dragon", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT]))
        s = S[0]
        jd = chip(S, "juvenile_dragon")
        target(S, 0, jd)
        place(S, 0, *[R.BOX_MIGHT] * might, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)   # 3 ties its 3: dice
        assert (s["mon_clearing"][jd] == MON_TAKEN) == killed


def test_dd_combat_damage_7_armor_cancels_one_sword():
    """L752 (Interpretations, "Sword icons"): armour takes one off an attack
    with swords, none off the swordless mace: 2 Might with the mace kill the
    Juvenile Dragon (health 2)."""
    S = combat([KNIGHT], monsters=[("juvenile_dragon", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT])
    give(S, 0, "mace", T_WEAPON1)
    start(S)
    s = S[0]
    jd = chip(S, "juvenile_dragon")
    target(S, 0, jd)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert s["mon_clearing"][jd] == MON_TAKEN


def test_dd_combat_damage_6_hero_chooses_hit_location_and_armor_before_ranged_dice():
    """L751: hit by the flipped Goblin's arrow, the Knight chooses where he
    takes it -- his chainmail (torso), his shield, or no armour -- before the
    Ranged Attack Dice are rolled; 1 + 1 sword - 1 + 1 = 2 leaves the
    chainmail (3) whole, and he takes one wound."""
    S = combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL, R_PLUS1, R_PLUS2])
    s = S[0]
    gob = chip(S, "goblin")
    s["mon_flipped"][gob] = 1                             # its back: a ranged attack, speed 1
    start(S)
    passive(S, 0)
    ask(S, R.PH_ARMOR, 0)
    mail, shield = card_of(S, 0, "chainmail"), card_of(S, 0, "shield")
    assert sorted(legal(S)) == sorted([R.A_CARD + mail, R.A_CARD + shield, R.A_DO + R.DO_PASS])
    assert s["loaded_pos"] == 1                           # no Ranged Attack Die yet
    act(S, R.A_CARD + mail)
    ask(S, R.PH_WOUND, 0)
    assert s["loaded_pos"] == 3 and s["card_where"][mail] == CW_HERO and s["card_damaged"][mail] == 0


@pytest.mark.parametrize("dice,killed", [((R_PLUS2, R_PLUS1), True), ((R_PLUS2, R_MINUS1, R_MINUS1), False)])
def test_dd_combat_damage_8_ranged_hit_adjusted_by_the_worse_ranged_die(dice, killed):
    """L753: the Archer's arrow (2 + 1 sword) on the Ogre (health 4): +2 and
    +1 make it 4, a kill; +2 and -1 make it 2, a wound (his reroll of the -1,
    L1208, shows -1 again)."""
    S = start(combat([ARCHER], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL, *dice]))
    s = S[0]
    ogre = chip(S, "ogre")
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    assert (s["mon_clearing"][ogre] == MON_TAKEN) == killed and s["foe_wounds"][ogre] == (0 if killed else 1)


def test_dd_combat_damage_9_damage_at_least_health_kills_a_monster():
    """L755-L757: the Ogre's health is 4 less its wounds: with one wound, 3
    damage kills it, and the Knight takes the chip."""
    S = combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL])
    ogre = chip(S, "ogre")
    S[0]["foe_wounds"][ogre] = 1
    start(S)
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert S[0]["mon_clearing"][ogre] == MON_TAKEN and S[0]["mon_taker"][ogre] == 0


def test_dd_combat_damage_10_smaller_damage_wounds_a_monster_once():
    """L758: 2 damage on the unwounded Ogre (health 4): one pink cube."""
    S = start(combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
    ogre = chip(S, "ogre")
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert S[0]["foe_wounds"][ogre] == 1


def ogre_hits(hero, armor_kind, dice=(NO_SYMBOL,)):
    """``hero`` alone with an Ogre (4 damage, no sword, speed 1), placing
    nothing: it hits; he takes it on his ``armor_kind`` card (None: none)."""
    S = start(combat([hero], monsters=[("ogre", TRI_PEAKS_1)], dice=list(dice)))
    passive(S, 0)
    ask(S, R.PH_ARMOR, 0)
    act(S, R.A_DO + R.DO_PASS if armor_kind is None else R.A_CARD + card_of(S, 0, armor_kind))
    return S


def test_dd_combat_damage_11_armored_hero_takes_one_wound():
    """L759-L760 (Interpretations, "Armoured Heroes"): on his leather armour
    the Archer (4 Hearts) takes one wound from the Ogre's 4, not death."""
    S = ogre_hits(ARCHER, "leather_armor")
    ask(S, R.PH_WOUND, 0)
    act(S, R.A_HEAL + CUBE_MIGHT)
    s = S[0]
    assert s["hero_state"][0] == HS_ACTIVE and tuple(s["hearts"][0]) == (4, 0) and s["cubes"][0, 1, CUBE_MIGHT] == 1


def test_dd_combat_damage_12_damage_above_armor_destroys_it():
    """L761: 4 damage on the chainmail (armour 3) destroys it."""
    S = ogre_hits(KNIGHT, "chainmail")
    mail = next(c for c in range(NUM_CARDS) if CARD_IDS[R.CARD_KIND[c]] == "chainmail" and S[0]["card_owner"][c] == -1)
    assert S[0]["card_where"][mail] == CW_REMOVED


def test_dd_combat_damage_13_damage_equal_to_armor_damages_then_destroys():
    """L762: the Orc's 2 + 1 sword - 1 = 2 on the leather armour (2) damages
    it (a pink cube); the next such hit destroys it."""
    S = start(combat([ARCHER], monsters=[("orc", TRI_PEAKS_1)], dice=[NO_SYMBOL, NO_SYMBOL]))
    s = S[0]
    leather = card_of(S, 0, "leather_armor")
    for rnd in (1, 2):
        passive(S, 0)
        ask(S, R.PH_ARMOR, 0)
        act(S, R.A_CARD + leather)
        ask(S, R.PH_WOUND, 0)
        act(S, R.A_HEAL + R.HEAL_HEART)
        if rnd == 1:
            assert s["card_where"][leather] == CW_HERO and s["card_damaged"][leather] == 1
            ask(S, R.PH_ADJUST, 0)
            act(S, R.A_DO + R.DO_DONE)
    assert s["card_where"][leather] == CW_REMOVED


def test_dd_combat_damage_14_damage_below_armor_leaves_it_intact():
    """L763: the Goblin's 1 + 1 sword - 1 = 1 on the leather armour (2)
    leaves it whole; the hero still takes his wound (L760)."""
    S = start(combat([ARCHER], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
    s = S[0]
    leather = card_of(S, 0, "leather_armor")
    passive(S, 0)
    act(S, R.A_CARD + leather)
    ask(S, R.PH_WOUND, 0)
    assert s["card_where"][leather] == CW_HERO and s["card_damaged"][leather] == 0


def test_dd_combat_damage_15_unarmored_damage_at_least_healthy_hearts_kills():
    """L764-L766: without armour, the Ogre's 4 against the Archer's 4 healthy
    Hearts kills him."""
    S = ogre_hits(ARCHER, None)
    s = S[0]
    assert s["hero_state"][0] != HS_ACTIVE and s["hearts"][0, 1] == 0


def test_dd_combat_damage_16_unarmored_smaller_damage_wounds_once():
    """L767: the Ogre's 4 against the Knight's 5 Hearts: one wound."""
    S = ogre_hits(KNIGHT, None)
    ask(S, R.PH_WOUND, 0)
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert tuple(S[0]["hearts"][0]) == (4, 1) and S[0]["hero_state"][0] == HS_ACTIVE


# ================================================================ 8. Cleanup (L771-L781)
def test_dd_combat_cleanup_1_idle_hero_may_swap_one_card():
    """L773, L977 (Interpretations, "Adjust Equipment"): a hero who used no
    card may unequip one card and then equip one: the dagger from his
    backpack into the long sword's place (the sword goes to the backpack;
    beside the sword it would be a second weapon, L974); or the chainmail
    off, then the helmet on; never a second change."""
    S = combat([KNIGHT])
    s = S[0]
    dagger, helmet = give(S, 0, "dagger"), give(S, 0, "helmet")
    sword, mail = card_of(S, 0, "long_sword"), card_of(S, 0, "chainmail")
    start(S)
    ask(S, R.PH_ADJUST, 0)
    assert sorted(a - R.A_CARD for a in legal(S) if a >= R.A_CARD and a < R.A_CARD + NUM_CARDS) == \
        sorted([dagger, helmet, sword, mail, card_of(S, 0, "shield")])
    act(S, R.A_CARD + dagger)                             # its one place: the sword's
    assert s["card_slot"][dagger] == T_WEAPON1 and s["card_slot"][sword] == T_BACKPACK
    ask(S, R.PH_ADJUST, 0)                                # round 2's Cleanup: a new swap
    assert s["combat_round"] == 2
    act(S, R.A_CARD + mail)                               # its one place to go: the backpack
    ask(S, R.PH_ADJUST, 0)
    assert s["card_slot"][mail] == T_BACKPACK
    cards = sorted(a - R.A_CARD for a in legal(S) if R.A_CARD <= a < R.A_CARD + NUM_CARDS)
    assert cards == sorted([helmet, mail])                # only an equip now, into a free position
    act(S, R.A_CARD + helmet)
    assert s["card_slot"][helmet] == T_HEAD and over(S)


def test_interpretation_dd_combat_cleanup_re_equipping_a_treasure_heals_nothing():
    """L773 ("may be the same card") with L1362 (Interpretations, "Cubes a
    treasure gives"): the Knight's Incanter's Jewel gave him its blue Magic
    Cube, now wounded. Unequipping the Jewel in Cleanup takes that cube back
    wounded, and equipping it again returns it wounded: the swap heals no
    wound, so it cannot keep a combat going one wound per round forever
    (L781)."""
    blue = R.CUBE_MAGIC + D.MAGIC_COLOURS.index("blue")
    S = combat([KNIGHT])
    s = S[0]
    jewel = give(S, 0, "incanters_jewel")
    R.equip_card(S, 0, 0, jewel, T_NECK)
    assert tuple(s["cubes"][0, :, blue]) == (1, 0)            # healthy, as the Jewel gives it
    s["cubes"][0, 0, blue], s["cubes"][0, 1, blue] = 0, 1     # then wounded
    start(S)
    ask(S, R.PH_ADJUST, 0)
    act(S, R.A_CARD + jewel)                                   # off to the backpack ...
    assert s["card_slot"][jewel] == T_BACKPACK and tuple(s["cubes"][0, :, blue]) == (0, 0)
    assert s["gift_wounded"][blue] == 1                        # ... its cube with it, wounded
    ask(S, R.PH_ADJUST, 0)
    act(S, R.A_CARD + jewel)                                   # and on again
    assert s["card_slot"][jewel] == T_NECK
    assert tuple(s["cubes"][0, :, blue]) == (0, 1) and s["gift_wounded"][blue] == 0


def test_dd_combat_cleanup_2_thrower_may_rearm_from_the_backpack():
    """L774, L978: the Rogue who threw his dagger may equip a card from his
    backpack in a weapon position: his short sword."""
    S = combat([ROGUE], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL, R_ZERO, R_ZERO, BLANK, BLANK])
    s = S[0]
    dagger = give(S, 0, "dagger", T_WEAPON1)
    short = card_of(S, 0, "short_sword")
    start(S)
    target(S, 0, chip(S, "ogre"))
    act(S, R.A_DO + R.DO_THROW)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_MANEUVER)
    ask(S, R.PH_REARM, 0)
    assert s["card_thrown"][dagger] == 1
    assert [a - R.A_CARD for a in legal(S) if a < R.A_DO or a >= R.A_CARD and a < R.A_CARD + NUM_CARDS] == [short]
    act(S, R.A_CARD + short)
    ask(S, R.PH_ADJUST_TARGET, 0)
    assert sorted(a - R.A_TARGET for a in legal(S)) == [T_WEAPON1, T_WEAPON2]
    act(S, R.A_TARGET + T_WEAPON1)
    assert s["card_slot"][short] == T_WEAPON1


def test_dd_equip_banner_7_thrown_weapon_uses_the_bottom_length():
    """L928: the dagger thrown has attack length 8, in melee 3: thrown it
    strikes before the Orc (speed 2, length 6) and kills it; in melee the
    Orc strikes first."""
    for throw in (True, False):
        S = combat([ROGUE], monsters=[("orc", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT, R_ZERO, R_ZERO])
        give(S, 0, "dagger", T_WEAPON1)
        start(S)
        orc = chip(S, "orc")
        target(S, 0, orc)
        if throw:
            act(S, R.A_DO + R.DO_THROW)
        place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
        if throw:
            assert S[0]["mon_clearing"][orc] == MON_TAKEN
        else:
            ask(S, R.PH_ARMOR, 0)
            assert S[0]["mon_clearing"][orc] == TRI_PEAKS_1


def test_dd_equip_banner_8_only_a_one_handed_weapon_is_thrown():
    """L930 (Interpretations, "Thrown weapons"): a spear held in one hand may
    be thrown, one wielded two-handed may not."""
    warrior = ("human", "warrior", TRI_PEAKS_1)
    for two_handed in (False, True):
        S = combat([warrior], monsters=[("ogre", TRI_PEAKS_1)])
        if two_handed:
            S[0]["card_slot"][card_of(S, 0, "shield")] = T_BACKPACK
            S[0]["card_slot"][card_of(S, 0, "spear")] = T_WEAPONS
        start(S)
        target(S, 0, chip(S, "ogre"))
        assert (R.A_DO + R.DO_THROW in legal(S)) == (not two_handed)


@pytest.mark.parametrize("dice,hidden", [((SYMBOL, NO_SYMBOL), False), ((NO_SYMBOL, NO_SYMBOL), True)])
def test_dd_combat_cleanup_3_ambusher_rolls_to_stay_hidden(dice, hidden):
    """L775, L607 (Interpretations, "Ambush and hiding"): the Archer who
    shot from hiding rolls two Monster Dice in Cleanup; a symbol unhides him
    for the rest of combat (the Goblin may then challenge him), two blanks
    keep him hidden."""
    S = start(combat([ARCHER + (HST_HIDDEN,)], monsters=[("goblin", TRI_PEAKS_1)],
                     dice=[NO_SYMBOL, BLANK, HIT, *dice]))
    s = S[0]
    gob = chip(S, "goblin")
    act(S, R.A_DO + R.DO_STAY)
    target(S, 0, gob)
    place(S, 0, R.BOX_MIGHT)                              # speed 0: a miss
    assert bool(s["hero_status"][0] & HST_HIDDEN) == hidden and s["loaded_pos"] == 5
    if not hidden:
        stay(S)
        assert s["combat_round"] == 2 and s["foe_target"][gob] == 0


def test_dd_combat_cleanup_4_cleanup_hide_takes_no_sneak_or_halfling_help():
    """L777, L1018: the hidden Halfling Archer who sneaked this turn shoots;
    his Cleanup roll shows one symbol: he may not ignore it (Sneak) nor
    reroll it (Halfling): he is unhidden."""
    S = start(combat([("halfling", "archer", TRI_PEAKS_1, HST_HIDDEN | HST_SNEAK)], monsters=[("goblin", TRI_PEAKS_1)],
                     dice=[NO_SYMBOL, BLANK, HIT, SYMBOL, NO_SYMBOL, NO_SYMBOL]))
    s = S[0]
    act(S, R.A_DO + R.DO_STAY)
    target(S, 0, chip(S, "goblin"))
    place(S, 0, R.BOX_MIGHT)
    assert not s["hero_status"][0] & HST_HIDDEN and s["loaded_pos"] == 5


def test_dd_combat_cleanup_6_other_cubes_return_healthy():
    """L780: at the end of the round every placed cube is back in the healthy box."""
    S = start(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL] + [BLANK] * 4))
    s = S[0]
    stay(S)
    target(S, 0, chip(S, "giant"))
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_MANEUVER, R.BOX_MANEUVER)   # both roll, both miss
    ask(S, R.PH_EVADE, 0)
    assert s["combat_round"] == 2 and s["placed"][0].sum() == 0
    assert tuple(s["cubes"][0, 0, :2]) == (3, 3) and s["cubes"][0, 1].sum() == 0


def test_dd_combat_cleanup_7_two_quiet_rounds_end_the_combat():
    """L781 (Interpretations, "Quiet rounds"): round 1 sees a wound; rounds 2
    and 3 none: the combat ends after round 3."""
    S = start(combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)],
                     dice=[NO_SYMBOL, HIT, HIT, NO_SYMBOL, BLANK, BLANK, NO_SYMBOL, BLANK, BLANK]))
    s = S[0]
    for rnd in (1, 2, 3):
        target(S, 0, None)
        place(S, 0, R.BOX_MANEUVER, R.BOX_MANEUVER)       # 2 against the Goblin's 2: dice
        if rnd == 1:
            no_armor(S, 0)
            act(S, R.A_HEAL + R.HEAL_HEART)
        ask(S, R.PH_ADJUST, 0)
        assert s["combat_round"] == rnd and s["round_wounds"] == (rnd == 1)
        act(S, R.A_DO + R.DO_DONE)
        assert over(S) == (rnd == 3)
        if rnd == 2:
            assert s["quiet_rounds"] == 1


# ================================================================ wounds (L783-L795)
def test_dd_combat_wounds_1_each_wound_lowers_monster_health_by_one():
    """L785: the Ogre (health 4) takes a pink cube for each 2 damage, and
    with two on it 2 damage kills it."""
    S = start(combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL, BLANK, BLANK] * 3))
    s = S[0]
    ogre = chip(S, "ogre")
    for rnd in (1, 2, 3):
        stay(S)
        target(S, 0, ogre)
        place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_MANEUVER)
        if rnd < 3:
            assert s["foe_wounds"][ogre] == rnd
    assert s["mon_clearing"][ogre] == MON_TAKEN


def test_dd_combat_wounds_2_wounded_hero_chooses_the_cube():
    """L787: the wounded Knight chooses the cube: a Heart, a healthy cube of
    each kind, or one placed on his sword or his speed boxes; he wounds the
    Speed Cube of his attack."""
    S = start(combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
    s = S[0]
    target(S, 0, chip(S, "goblin"))
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_MANEUVER)
    no_armor(S, 0)
    ask(S, R.PH_WOUND, 0)
    assert sorted(legal(S)) == sorted([R.A_HEAL + R.HEAL_HEART, R.A_HEAL + CUBE_MIGHT, R.A_HEAL + CUBE_SPEED,
                                       R.A_BOX + R.BOX_MIGHT, R.A_BOX + R.BOX_ATTACK, R.A_BOX + R.BOX_MANEUVER])
    act(S, R.A_BOX + R.BOX_ATTACK)
    assert tuple(s["cubes"][0, :, CUBE_SPEED]) == (2, 1) and tuple(s["hearts"][0]) == (5, 0)


def test_dd_combat_wounds_3_wounding_the_last_healthy_heart_kills():
    """L787: a Heart may be the cube wounded: the Knight with one healthy Heart
    left takes the Goblin's hit on his chainmail and chooses his Heart: he is killed."""
    S = combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL])
    s = S[0]
    s["hearts"][0] = (1, 4)
    start(S)
    passive(S, 0)
    act(S, R.A_CARD + card_of(S, 0, "chainmail"))
    ask(S, R.PH_WOUND, 0)
    assert R.A_HEAL + CUBE_MIGHT in legal(S)
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert s["hero_state"][0] != HS_ACTIVE


def test_dd_comp_cubes_3_no_healthy_heart_means_immediate_death():
    """L408: a hero with no Heart left in his healthy box dies at once: the
    Knight, at his last healthy Heart, wounds it when the faster Kobold hits
    him; he is dead before his own blow, which would have killed the Giant."""
    S = combat([KNIGHT], monsters=[("kobold", TRI_PEAKS_1), ("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL, NO_SYMBOL])
    s = S[0]
    s["hearts"][0] = (1, 4)
    start(S)
    giant = chip(S, "giant")
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)   # 2 > the Giant's maneuver 1: a sure kill
    act(S, R.A_CARD + card_of(S, 0, "chainmail"))         # the Kobold (3) first: 1 damage on the chainmail
    ask(S, R.PH_WOUND, 0)
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert s["hero_state"][0] != HS_ACTIVE and s["mon_clearing"][giant] == TRI_PEAKS_1
    assert s["fame"][0] == 0


def test_dd_combat_wounds_5_emptied_mandatory_box_cancels_the_attack():
    """L791: the Barbarian's 2 Might fill the axe's 2 mandatory boxes; the
    faster Goblin's wound takes one of them: his attack is cancelled (no
    dice are rolled for it)."""
    S = start(combat([BARBARIAN], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT]))
    s = S[0]
    gob = chip(S, "goblin")
    target(S, 0, gob)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT)
    no_armor(S, 0)
    act(S, R.A_BOX + R.BOX_MIGHT)
    assert s["mon_clearing"][gob] == TRI_PEAKS_1 and s["loaded_pos"] == 1


def test_dd_combat_wounds_6_a_wound_reorders_the_unresolved_attacks():
    """L793: the Knight (speed 2, length 10) would strike before the Orc (2,
    6); the faster Kobold's wound takes a Speed Cube from his attack: at
    speed 1 he now strikes after the Orc."""
    S = start(combat([KNIGHT], monsters=[("kobold", TRI_PEAKS_1), ("orc", TRI_PEAKS_1)],
                     dice=[NO_SYMBOL, NO_SYMBOL]))
    s = S[0]
    orc = chip(S, "orc")
    target(S, 0, orc)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_MANEUVER)
    no_armor(S, 0)                                        # the Kobold (3)
    act(S, R.A_BOX + R.BOX_ATTACK)
    no_armor(S, 0)                                        # now the Orc, still alive
    assert s["mon_clearing"][orc] == TRI_PEAKS_1 and not s["hero_cflags"][0] & C.CF_ATTACKED


def test_dd_combat_wounds_7_resolved_attacks_stand():
    """L795: the Knight's blow has wounded the Ogre; the Goblin's wound then
    takes the Might Cube off his sword: the Ogre keeps its wound."""
    S = start(combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1), ("ogre", TRI_PEAKS_1)],
                     dice=[NO_SYMBOL, NO_SYMBOL, BLANK, BLANK]))
    s = S[0]
    ogre = chip(S, "ogre")
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_MANEUVER)
    no_armor(S, 0)                                        # the Goblin (2, length 3) after the Knight (2, 10)
    assert s["foe_wounds"][ogre] == 1
    act(S, R.A_BOX + R.BOX_MIGHT)
    assert s["foe_wounds"][ogre] == 1


# ================================================================ Monster death (L797-L799)
def test_dd_combat_death_1_killer_takes_the_chip_and_its_fame():
    """L799: the Knight, who struck the final blow, takes the Giant's chip
    and its 8 Fame at once."""
    S = start(combat([KNIGHT, ARCHER], monsters=[("giant", TRI_PEAKS_1)], dice=[1, NO_SYMBOL]))
    s = S[0]
    giant = chip(S, "giant")
    s["foe_wounds"][giant] = 1
    answer_all(S, (R.PH_EVADE,))
    target(S, 0, giant)
    target(S, 1, None)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    place(S, 1)
    assert s["mon_clearing"][giant] == MON_TAKEN and s["mon_taker"][giant] == 0
    assert s["fame"][0] == 8 and s["fame"][1] == 0


def test_dd_combat_death_2_killed_elemental_returns_to_the_pool():
    """L799 (Interpretations): a killed Elemental goes back to the pool, not
    to its killer, who still gains its Fame."""
    S = start(combat([KNIGHT], monsters=[("fire_elemental", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
    s = S[0]
    el = chip(S, "fire_elemental")
    target(S, 0, el)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert s["mon_clearing"][el] == MON_TRAY and s["fame"][0] == 6


# ================================================================ the end of combat (L807-L813)
def test_dd_combat_end_1_monsters_heal_and_turn_name_up_heroes_stay_wounded():
    """L811: when the combat is over (here because its only hero evaded:
    Interpretations) the Ogre loses its pink cube and lies name side up; the
    Knight's wound stays."""
    S = combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL])
    s = S[0]
    ogre = chip(S, "ogre")
    s["mon_flipped"][ogre] = 1                            # speed 2, 3 damage + 1 sword
    start(S)
    stay(S)
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_MANEUVER)   # (2, 10) before its (2, 8)
    no_armor(S, 0)
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert s["foe_wounds"][ogre] == 1 and s["mon_flipped"][ogre] == 1
    ask(S, R.PH_EVADE, 0)
    act(S, R.A_CLEARING + clearing("tri_peaks", 2))
    assert over(S) and s["foe_wounds"][ogre] == 0 and s["mon_flipped"][ogre] == 0
    assert tuple(s["hearts"][0]) == (4, 1)


def test_dd_combat_end_2_thrown_weapon_recovered_only_from_a_clear_clearing():
    """L812: the Rogue's dagger, thrown to kill the only Goblin, comes back
    into his backpack; thrown at the Ogre, which is still there when he
    evades, it leaves the game."""
    S = combat([ROGUE], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT, R_ZERO, R_ZERO])
    s = S[0]
    dagger = give(S, 0, "dagger", T_WEAPON1)
    start(S)
    target(S, 0, chip(S, "goblin"))
    act(S, R.A_DO + R.DO_THROW)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    while not over(S):
        act(S, R.A_DO + R.DO_DONE)                        # no rearming, no adjusting
    assert (s["card_where"][dagger], s["card_owner"][dagger], s["card_slot"][dagger]) == (CW_HERO, 0, T_BACKPACK)
    assert s["card_thrown"][dagger] == 0
    S = combat([ROGUE], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL, R_MINUS1, R_ZERO])
    s = S[0]
    dagger = give(S, 0, "dagger", T_WEAPON1)
    start(S)
    target(S, 0, chip(S, "ogre"))
    act(S, R.A_DO + R.DO_THROW)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    act(S, R.A_CARD + card_of(S, 0, "leather_armor"))     # the Ogre hits: on the leather
    act(S, R.A_HEAL + R.HEAL_HEART)
    ask(S, R.PH_REARM, 0)
    act(S, R.A_DO + R.DO_DONE)
    ask(S, R.PH_EVADE, 0)
    act(S, R.A_CLEARING + clearing("tri_peaks", 2))
    assert over(S) and s["card_where"][dagger] == CW_REMOVED and s["card_owner"][dagger] == -1
    assert s["card_thrown"][dagger] == 0


def test_dd_combat_end_3_retirement_then_next_turn():
    """L813: after combat, a hero in a Civilization Location may retire; then
    the next turn's Action Phase follows."""
    S = combat([KNIGHT])
    S[0]["civ_clearing"][0] = TRI_PEAKS_1
    strip(S, 0)
    start(S)
    ask(S, R.PH_RETIRE, 0)
    assert S[0]["stage"] == R.ST_FATE
    act(S, R.A_DO + R.DO_STAY)
    assert int(S[0]["turn"]) == 2 and int(S[0]["phase"]) == R.PH_ACTION


# ================================================================ Natives (L1001-L1008)
def test_dd_natives_2_natives_can_be_targeted():
    """L1003: the Knight targets a Miner like a Monster and kills it: he
    takes the chip and its 5 Fame (L799)."""
    S = start(combat([KNIGHT], natives=[("miner", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
    s = S[0]
    m = native("miner")
    target(S, 0, m)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    i = m - NUM_MONSTER_CHIPS
    assert s["native_clearing"][i] == C.NATIVE_TAKEN and s["native_taker"][i] == 0 and s["fame"][0] == 5


def test_dd_natives_3_targeting_a_native_makes_all_natives_monsters():
    """L1005: once a Miner is targeted, every Native of the clearing fights
    as a Monster this combat: each targets the Knight and rolls its Monster Die."""
    S = start(combat([KNIGHT], natives=[("miner", TRI_PEAKS_1), ("miner", TRI_PEAKS_1), ("mine_foreman", TRI_PEAKS_1)],
                     dice=[SYMBOL, NO_SYMBOL, SYMBOL]))
    s = S[0]
    m1, m2, fm = native("miner"), native("miner", 1), native("mine_foreman")
    target(S, 0, m1)
    ask(S, R.PH_TACTICS, 0)
    assert s["natives_hostile"] == 1 and [int(s["foe_target"][f]) for f in (m1, m2, fm)] == [0, 0, 0]
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert [int(s["native_flipped"][f - NUM_MONSTER_CHIPS]) for f in (fm, m1, m2)] == [1, 0, 1]


def test_dd_natives_4_hostile_natives_target_the_native_attackers():
    """L1006 (Interpretations, "Hostile Natives"): the Natives target a random
    hero among those who targeted a Native -- the Knight, not the Archer,
    who shoots the Goblin -- and next round challenge only him, though he
    targets the Goblin then."""
    S = start(combat([KNIGHT, ARCHER], monsters=[("goblin", TRI_PEAKS_1)],
                     natives=[("miner", TRI_PEAKS_1), ("miner", TRI_PEAKS_1)],
                     dice=[1] + [NO_SYMBOL] * 3 + [BLANK] * 6 + [0] + [NO_SYMBOL] * 3))
    s = S[0]
    gob, m1, m2 = chip(S, "goblin"), native("miner"), native("miner", 1)
    answer_all(S, (R.PH_EVADE,))
    target(S, 0, m1)
    target(S, 1, gob)
    ask(S, R.PH_TACTICS, 0)
    assert (s["foe_target"][gob], s["foe_target"][m1], s["foe_target"][m2]) == (1, 0, 0)
    place(S, 0, R.BOX_MANEUVER, R.BOX_MANEUVER)
    place(S, 1, R.BOX_MANEUVER, R.BOX_MANEUVER)
    for p in (0, 1):
        if int(s["phase"]) == R.PH_ADJUST:
            act(S, R.A_DO + R.DO_DONE)
    answer_all(S, (R.PH_EVADE,))
    ask(S, R.PH_TARGET, 0)
    assert s["combat_round"] == 2 and (s["foe_target"][m1], s["foe_target"][m2]) == (0, 0)
    assert s["foe_target"][gob] == 0


def test_dd_natives_5_natives_calm_after_the_combat():
    """L1008: after the clearing's combat its Natives are at peace again:
    the wounded, flipped Mine Foreman loses its wound and turns name side up."""
    S = start(combat([ROGUE], natives=[("mine_foreman", TRI_PEAKS_1)], dice=[SYMBOL, HIT, HIT]))
    s = S[0]
    fm = native("mine_foreman")
    target(S, 0, fm)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)   # 2 against its back's 2: two hits
    act(S, R.A_CARD + card_of(S, 0, "leather_armor"))     # its 4 damage destroys the leather
    act(S, R.A_HEAL + R.HEAL_HEART)
    assert s["foe_wounds"][fm] == 1 and s["native_flipped"][fm - NUM_MONSTER_CHIPS] == 1
    ask(S, R.PH_EVADE, 0)
    act(S, R.A_CLEARING + clearing("tri_peaks", 2))
    assert over(S) and s["natives_hostile"] == 0
    assert s["foe_wounds"][fm] == 0 and s["native_flipped"][fm - NUM_MONSTER_CHIPS] == 0
    assert s["native_clearing"][fm - NUM_MONSTER_CHIPS] == TRI_PEAKS_1


# ================================================================ rows of other parts that combat carries out
def test_dd_hide_4_ambush_triggers_hide_at_cleanup():
    """L601, L775: the Cleanup hide roll is for the hidden hero who ambushed
    this round (the Archer), not for one who stayed out of the fight (the Knight)."""
    S = start(combat([ARCHER + (HST_HIDDEN,), KNIGHT + (HST_HIDDEN,)], monsters=[("goblin", TRI_PEAKS_1)],
                     dice=[NO_SYMBOL, BLANK, HIT, SYMBOL, SYMBOL]))
    s = S[0]
    act(S, R.A_DO + R.DO_STAY)
    act(S, R.A_DO + R.DO_STAY)
    target(S, 0, chip(S, "goblin"))
    place(S, 0, R.BOX_MIGHT)                              # speed 0: a miss
    ask(S, R.PH_ADJUST, 1)                                # the idle Knight's Cleanup, then the hide rolls
    act(S, R.A_DO + R.DO_DONE)
    assert not s["hero_status"][0] & HST_HIDDEN and s["hero_status"][1] & HST_HIDDEN
    assert s["loaded_pos"] == 5


def test_dd_monster_dragons_1_dragon_fire_is_a_fireball_on_up_to_four_heroes():
    """L1266, L728: the Adult Dragon's fire strikes four of five heroes: the
    one it challenged and three drawn at random; the fifth is spared."""
    heroes = [KNIGHT, BARBARIAN, ARCHER, ROGUE, ("human", "warrior", TRI_PEAKS_1)]
    S = combat(heroes, monsters=[("adult_dragon", TRI_PEAKS_1)], dice=[2, NO_SYMBOL, 0, 0, 0] + [R_ZERO] * 8)
    for p in range(5):
        strip(S, p)
    s = S[0]
    start(S)
    answer_all(S)
    dragon = chip(S, "adult_dragon")
    assert s["foe_target"][dragon] == 2 and [p for p in range(5) if s["foe_extra"][dragon] >> p & 1] == [0, 1, 3]
    for p in (0, 1, 2, 3):                                # the challenged Archer and three drawn, in Turn Order
        ask(S, R.PH_WOUND, p)
        act(S, R.A_HEAL + R.HEAL_HEART)
    assert [int(s["hearts"][p, 1]) for p in range(5)] == [1, 1, 1, 1, 0]


def test_dd_monster_dragons_2_dragon_fire_is_not_a_spell():
    """L1266, L1562 (Interpretations, "Ranged dice for Monsters"): dragon
    fire is a ranged attack that strikes with no spell cast: 2 + 1 sword and
    the worse Ranged Attack Die, +2, make 5 against the unarmoured Knight's 5 Hearts."""
    S = combat([KNIGHT], monsters=[("adult_dragon", TRI_PEAKS_1)], dice=[NO_SYMBOL, R_PLUS2, R_PLUS2])
    strip(S, 0)
    start(S)
    answer_all(S)
    assert S[0]["hero_state"][0] != HS_ACTIVE


# ================================================================ Class advantages in combat (L1206-L1230)
def test_dd_class_archer_1_archer_rerolls_one_ranged_die():
    """L1208: Archers may reroll one Ranged Attack Die per attack (made for
    them where it can only help: Readings of the engine). The arrow (2 Might
    + 1 sword) on the Ogre (health 4) rolls +2 and -1: the worse, -1, makes
    2, a wound. The Archer rerolls that die, the one that counts, to +1: 4,
    the Ogre is killed; a Knight with a bow keeps the -1 and only wounds it.
    A roll that already kills is not rerolled; nor, on the armoured Juvenile
    Dragon (1 + 1 sword - 1 = 1), is the 0 of 0 and +2 that wounds it: a
    reroll could kill it (+2) or leave it unhurt (-1)."""
    S = start(combat([ARCHER], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL, R_PLUS2, R_MINUS1, R_PLUS1]))
    s = S[0]
    ogre = chip(S, "ogre")
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)   # 2 beats its maneuver 1: a hit
    assert s["mon_clearing"][ogre] == MON_TAKEN and s["loaded_pos"] == 4
    S = combat([KNIGHT], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL, R_PLUS2, R_MINUS1, R_PLUS1])
    give(S, 0, "bow", T_WEAPONS)
    start(S)
    s = S[0]
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    ask(S, R.PH_ARMOR, 0)                                 # the wounded Ogre strikes back
    assert s["foe_wounds"][ogre] == 1 and s["loaded_pos"] == 3
    S = start(combat([ARCHER], monsters=[("ogre", TRI_PEAKS_1)], dice=[NO_SYMBOL, R_PLUS1, R_PLUS1, R_MINUS1]))
    s = S[0]
    target(S, 0, ogre)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)   # +1: 4, a kill
    assert s["mon_clearing"][ogre] == MON_TAKEN and s["loaded_pos"] == 3
    S = start(combat([ARCHER], monsters=[("juvenile_dragon", TRI_PEAKS_1)],
                     dice=[NO_SYMBOL, HIT, HIT, R_ZERO, R_PLUS2, R_PLUS2]))
    s = S[0]
    jd = chip(S, "juvenile_dragon")
    target(S, 0, jd)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)   # 3 ties its 3: two hits; the bow's 16 first
    ask(S, R.PH_ARMOR, 0)                                 # the wounded dragon strikes back
    assert s["foe_wounds"][jd] == 1 and s["loaded_pos"] == 5


@pytest.mark.parametrize("dice,evaded", [((HIT, EQUAL), True), ((HIT, BLANK), False)])
def test_dd_class_rogue_1_rogue_evades_on_a_tie_with_a_hit_roll(dice, evaded):
    """L1224 (Interpretations, "Rogue"): the Rogue's 3 maneuver cubes only
    tie the Kobold's 3, yet he may evade: he chooses his path and rolls two
    Hit Dice. A hit and an equal sign: he evades by it. A hit and a blank
    (the blank counts, the Golden Rule, L216): he is blocked and fights on."""
    S = start(combat([ROGUE], monsters=[("kobold", TRI_PEAKS_1)], dice=list(dice)))
    s = S[0]
    ask(S, R.PH_EVADE, 0)
    act(S, R.A_CLEARING + clearing("tri_peaks", 2))
    assert s["loaded_pos"] == 2
    if evaded:
        assert over(S) and s["hero_status"][0] & HST_EVADED and s["evade_to"][0] == clearing("tri_peaks", 2)
    else:
        ask(S, R.PH_TARGET, 0)
        assert s["hero_combat"][0] == C.HC_FIGHTING and not s["hero_status"][0] & HST_EVADED


WARLOCK = ("human", "warlock", TRI_PEAKS_1)      # 2 Might, 2 Speed, 2 black; attack 2 / maneuver 2 boxes, 4 Hearts; short sword


@pytest.mark.parametrize("black_wounded", [False, True])
def test_dd_class_warlock_1_warlock_heals_on_a_wound_or_kill(black_wounded):
    """L1228: once per round a Warlock who kills or wounds a non-undead
    enemy heals one Action Cube at once. The faster Kobold wounds his Heart;
    his short sword (2 + 1 sword) kills it and he heals -- the Heart at once
    when it is his only wounded cube, or the cube he chooses when a black
    one is wounded too. Wounding the undead Lich (its back side casts Vapor
    Form, here Confused so that it casts nothing) heals nothing."""
    S = combat([WARLOCK], monsters=[("kobold", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT])
    s = S[0]
    black = R.CUBE_MAGIC + D.MAGIC_COLOURS.index("black")
    if black_wounded:
        s["cubes"][0, :, black] = (1, 1)
    start(S)
    kobold = chip(S, "kobold")
    target(S, 0, kobold)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    ask(S, R.PH_WOUND, 0)                                 # the Kobold (speed 3) first: 1 damage
    act(S, R.A_HEAL + R.HEAL_HEART)                       # then his two hits kill it (maneuver 3)
    if black_wounded:
        ask(S, R.PH_HEAL, 0)
        assert tuple(s["hearts"][0]) == (3, 1) and s["mon_clearing"][kobold] == MON_TAKEN
        assert sorted(legal(S)) == [R.A_HEAL + black, R.A_HEAL + R.HEAL_HEART]
        act(S, R.A_HEAL + R.HEAL_HEART)
    ask(S, R.PH_ADJUST, 0)                                # round 2, alone
    assert s["mon_clearing"][kobold] == MON_TAKEN and tuple(s["hearts"][0]) == (4, 0)
    assert tuple(s["cubes"][0, :, black]) == ((1, 1) if black_wounded else (2, 0))
    S = combat([WARLOCK], monsters=[("lich", TRI_PEAKS_1)], dice=[NO_SYMBOL, HIT, HIT])
    s = S[0]
    lich = chip(S, "lich")
    s["mon_flipped"][lich] = 1
    s["spell_on"][list(R.SPELL_KIND).index(R.SP_CONFUSE)] = lich      # L1590: it may not cast
    s["hearts"][0] = (3, 1)
    start(S)
    target(S, 0, lich)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)   # 2 ties its 2: two hits, 3 < 4
    ask(S, R.PH_TARGET, 0)                                # round 2
    assert s["foe_wounds"][lich] == 1 and tuple(s["hearts"][0]) == (3, 1)


def test_dd_class_warrior_1_warrior_may_always_swap_a_weapon():
    """L1230, L773 (Interpretations, "Warrior"): the Warrior who used his
    spear to kill the Goblin may still, in Adjust Equipment, unequip one
    Weapon Card and equip one: his dagger from the backpack takes the spear's
    place. Weapon Cards only: not his helmet, nor his shield, nor the dagger
    in the shield's place. The Knight who used his sword may adjust nothing
    until the next round."""
    S = combat([("human", "warrior", TRI_PEAKS_1)], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL])
    s = S[0]
    dagger = give(S, 0, "dagger")
    spear, shield = card_of(S, 0, "spear"), card_of(S, 0, "shield")
    start(S)
    gob = chip(S, "goblin")
    target(S, 0, gob)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)   # 3 beats the Goblin's 2: a kill
    assert s["mon_clearing"][gob] == MON_TAKEN
    ask(S, R.PH_ADJUST, 0)
    assert s["combat_round"] == 1
    assert sorted(a - R.A_CARD for a in legal(S) if R.A_CARD <= a < R.A_CARD + NUM_CARDS) == sorted([spear, dagger])
    act(S, R.A_CARD + dagger)                             # its one place: the spear's
    assert s["card_slot"][dagger] == T_WEAPON1 and s["card_slot"][spear] == T_BACKPACK
    assert s["card_slot"][shield] == T_WEAPON2
    S = start(combat([KNIGHT], monsters=[("goblin", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
    s = S[0]
    target(S, 0, chip(S, "goblin"))
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    ask(S, R.PH_ADJUST, 0)
    assert s["combat_round"] == 2


# ================================================================ Outlaw Tokens (L1109-L1115)
def test_dd_outlaw_2_killing_a_native_gives_one_outlaw_token():
    """L1113-L1115: the Knight who kills a Miner receives one Outlaw Token;
    killing another Native gives a second (L1111: no limit)."""
    for before in (0, 1):
        S = combat([KNIGHT], natives=[("miner", TRI_PEAKS_1)], dice=[NO_SYMBOL])
        s = S[0]
        s["outlaw"][0] = before
        start(S)
        target(S, 0, native("miner"))
        place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
        assert s["native_clearing"][native("miner") - NUM_MONSTER_CHIPS] == C.NATIVE_TAKEN
        assert int(s["outlaw"][0]) == before + 1


def test_dd_outlaw_2_wounding_a_native_or_killing_a_monster_gives_none():
    """L1115 (Interpretations, "Natives and Outlaws"): a Native attacked and
    only wounded -- the Mine Foreman (health 3, armoured) taking 1 + 1 sword
    - 1 = 1 -- makes no Outlaw; nor does killing a Monster (the Giant)."""
    S = combat([KNIGHT], natives=[("mine_foreman", TRI_PEAKS_1)], dice=[NO_SYMBOL])
    s = S[0]
    fm = native("mine_foreman")
    start(S)
    target(S, 0, fm)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)   # 3 beats its maneuver 1
    assert s["foe_wounds"][fm] == 1 and int(s["outlaw"][0]) == 0
    S = start(combat([KNIGHT], monsters=[("giant", TRI_PEAKS_1)], dice=[NO_SYMBOL]))
    s = S[0]
    giant = chip(S, "giant")
    target(S, 0, giant)
    place(S, 0, R.BOX_MIGHT, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK, R.BOX_ATTACK)
    assert s["mon_clearing"][giant] == MON_TAKEN and int(s["outlaw"][0]) == 0
