"""Shape Shift (L1564-L1568): a Self spell (L1034), permanent (L1046-L1061).
The caster takes a non-undead, non-unique Monster chip from the tray in
place of his Hero; in combat that chip fights for him -- he chooses its
target and side, it rolls no Monster Die, the Monsters challenge it as a
hero (L691) and its death is his; outside combat he may only Sneak, Make
Noise, Move, Search and Loot, his cubes and possessions unavailable, and a
flying form flies (L1093). Inactive, the chip lies by his board; cancelled,
it returns to the tray.

Combats on Tri Peaks 1 against a Giant Spider (``combat_test``: speed 2,
damage 2, maneuver 2, health 2, Fame 5); actions on Deepdelve
(``actions_test``). The Shape Shift card has five boxes, three purple and
two of any colour: five purple cubes cast it (the whole cube limit, so its
attack speed is 0 and the spider strikes first, at the other hero).
"""
import numpy as np

from dragongym.envs.dragons_down import data as D
from dragongym.envs.dragons_down import observe as O
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    HS_DEAD, MON_SHAPE, MON_TAKEN, MON_TRAY, MONSTER_CHIP_KINDS, MONSTER_IDS, NUM_MONSTER_CHIPS, T_BACKPACK,
)
from dragongym.envs.dragons_down.game import GAME
from dragongym.envs.dragons_down.rules import combat as C
from tests.dragons_down.actions_test import moves
from tests.dragons_down.combat_test import (
    HIT, NO_SYMBOL, TRI_PEAKS_1, act, ask, chip, combat, legal, load, start,
)
from tests.dragons_down.observe_test import block
from tests.dragons_down.spells_test import ME, learn, magic, to_target_step, wizard
from tests.dragons_down.trade_test import give
from tests.dragons_down.trade_test import start as start_turn

SPIDER_FAME = 5


def tray_chip(S, kind):
    """The first chip of Monster ``kind`` in the tray."""
    return next(f for f in range(NUM_MONSTER_CHIPS) if MONSTER_IDS[MONSTER_CHIP_KINDS[f]] == kind
                and int(S[0]["mon_clearing"][f]) == MON_TRAY)


def kind_of(f):
    return MONSTER_IDS[MONSTER_CHIP_KINDS[f]]


def shape_on(S, p, kind, active=True):
    """Hero p bears his own Shape Shift into a tray chip of ``kind``, active
    or not, its chip by his board (as after a cast). (card, chip)"""
    s = S[0]
    sp = learn(S, p, "shape_shift")
    f = tray_chip(S, kind)
    s["spell_on"][sp] = ME + p
    s["spell_mark"][sp] = R.PERM_ACTIVE if active else 0
    s["shape"][p] = f + 1
    s["mon_clearing"][f] = MON_SHAPE
    return sp, f


def answer_strikes(S):
    while int(S[0]["phase"]) in (R.PH_ARMOR, R.PH_WOUND):
        act(S, legal(S)[0])


def cast_shape_shift():
    """Round 1: a Human Sorcerer (seat 0) with five purple cubes and a Human
    Warrior (seat 1) against the spider, which challenges the Warrior (the
    draw falls on the second hero). The Sorcerer targets no one and casts
    Shape Shift in Hero Tactics; the spider strikes the Warrior first; then
    the spell is cast: the Sorcerer is asked for his Monster (PH_SHAPE).
    (S, card, spider)"""
    S, sp = wizard("shape_shift", {"purple": 5}, more=(("human", "warrior", TRI_PEAKS_1),), dice=(1,))
    spider = chip(S, "giant_spider")
    to_target_step(S)
    ask(S, R.PH_TARGET, 0)
    act(S, R.A_DO + R.DO_PASS)                  # L1034: a Self spell has no target
    ask(S, R.PH_TARGET, 1)
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_TACTICS, 0)
    assert R.A_SPELL + sp in legal(S)
    act(S, R.A_SPELL + sp)
    ask(S, R.PH_TACTICS, 1)
    load(S, NO_SYMBOL)                           # the spider's Monster Die: it keeps its side
    act(S, R.A_DO + R.DO_DONE)
    answer_strikes(S)
    return S, sp, spider


# ================================================================ casting (L1564, L1034, L1258)
def test_dd_magic_self_1_and_dd_spell_shape_shift_1_the_caster_takes_a_tray_chip_in_place_of_his_hero():
    """L1034: a Self spell targets its caster and takes effect as it is cast:
    no target, no roll to hit. L1564: the caster selects any non-undead,
    non-unique Monster chip from the tray (L1258: no Guardian, no leader;
    the Elementals wait in their own pool): one choice per kind with a chip
    in the tray. The Wolf chip he picks replaces his hero: the card lies on
    him, active, and the chip stands in the clearing under his control."""
    S, sp, spider = cast_shape_shift()
    s = S[0]
    ask(S, R.PH_SHAPE, 0)
    assert int(s["hero_target"][0]) == -1, "a Self spell is aimed at no one"
    offered = {kind_of(a - R.A_FOE) for a in legal(S)}
    tray_kinds = {kind_of(f) for f in range(NUM_MONSTER_CHIPS) if int(s["mon_clearing"][f]) == MON_TRAY}
    eligible = {k for k in tray_kinds if not (D.REALM.monsters[k].undead or D.REALM.monsters[k].unique
                                              or D.REALM.monsters[k].kind == "elemental")}
    assert offered == eligible and len(legal(S)) == len(eligible), "one chip of each eligible kind"
    for k in ("wraith", "orc_lord", "kobold_rex"):
        assert k not in offered, f"{k} is undead or unique (L1258)"
    assert "wolf" in offered
    wolf = tray_chip(S, "wolf")
    assert R.A_FOE + wolf in legal(S)
    assert "Wolf" in GAME.action_to_string(S, R.A_FOE + wolf)
    act(S, R.A_FOE + wolf)
    assert int(s["spell_on"][sp]) == ME + 0 and int(s["spell_mark"][sp]) & R.PERM_ACTIVE
    assert int(s["shape"][0]) == wolf + 1 and R.shifted(S, 0, 0)
    assert int(s["mon_clearing"][wolf]) == int(s["combat_clearing"]), "the chip replaces his hero"
    assert int(s["foe_ctrl"][wolf]) == 1 and int(s["ctrl_flags"][wolf]) & R.CTRL_SHAPE
    assert not C.fighting(S, 0, 0) and C.in_fight(S, 0, 0)


def test_no_chip_to_take_and_the_spell_does_nothing():
    """Interpretations: with no eligible chip in the tray the cast does
    nothing: no choice, no spell in play."""
    S, sp = wizard("shape_shift", {"purple": 5}, more=(("human", "warrior", TRI_PEAKS_1),), dice=(1,))
    s = S[0]
    for f in range(NUM_MONSTER_CHIPS):
        if R.SHAPE_OK[f] and int(s["mon_clearing"][f]) == MON_TRAY:
            s["mon_clearing"][f] = MON_TAKEN
    to_target_step(S)
    act(S, R.A_DO + R.DO_PASS)
    act(S, R.A_DO + R.DO_PASS)
    act(S, R.A_SPELL + sp)
    load(S, NO_SYMBOL)
    act(S, R.A_DO + R.DO_DONE)
    answer_strikes(S)
    assert int(s["phase"]) != R.PH_SHAPE and int(s["spell_on"][sp]) == -1 and int(s["shape"][0]) == 0


# ================================================================ fighting as the Monster (L1564, L691)
def test_dd_spell_shape_shift_2_he_fights_as_his_monster_choosing_its_target_and_side():
    """L1564: the next round the Shape Shifted hero has no Target, Tactics or
    Evade of his own (no cubes, no possessions); he chooses his Wolf's target
    and the side face up (PH_CTRL_TARGET, PH_CTRL_SIDE) and it rolls no
    Monster Die: only the spider's is drawn. The Wolf (speed 3 against the
    spider's maneuver 2: a hit, 1 damage + 1 sword against health 2) kills
    the spider, and its Fame is his."""
    S, sp, spider = cast_shape_shift()
    s = S[0]
    wolf = tray_chip(S, "wolf")
    load(S, 0)                                   # round 2: the spider's challenge draws the Warrior
    act(S, R.A_FOE + wolf)
    while int(s["phase"]) in (R.PH_ADJUST, R.PH_EVADE) and int(s["to_play"]) == 1:
        act(S, R.A_DO + (R.DO_DONE if int(s["phase"]) == R.PH_ADJUST else R.DO_STAY))
    assert int(s["combat_round"]) == 2
    ask(S, R.PH_TARGET, 1)                       # the Sorcerer is not asked: he has no target of his own
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_CTRL_TARGET, 0)
    assert sorted(legal(S)) == sorted([R.A_FOE + spider, R.A_DO + R.DO_PASS])
    act(S, R.A_FOE + spider)
    ask(S, R.PH_CTRL_SIDE, 0)
    act(S, R.A_SIDE)
    fame = int(s["fame"][0])
    ask(S, R.PH_TACTICS, 1)                      # no Hero Tactics for the Sorcerer
    load(S, NO_SYMBOL)                           # one Monster Die: the spider's
    assert int(s["loaded_count"]) - int(s["loaded_pos"]) == 1
    act(S, R.A_DO + R.DO_DONE)
    answer_strikes(S)
    assert int(s["loaded_pos"]) == int(s["loaded_count"]), "the spider's die drawn, and no other"
    assert int(s["mon_flipped"][wolf]) == 0
    assert int(s["mon_clearing"][spider]) == MON_TAKEN and int(s["mon_taker"][spider]) == 0
    assert int(s["fame"][0]) == fame + SPIDER_FAME


def test_dd_spell_shape_shift_2_his_monsters_wounds_heal_at_the_end_of_combat():
    """L1564: "All Monster wounds are healed at the end of combat": the
    Wolf, wounded, is whole again when the combat is over, its chip by his
    board and he himself again in the clearing."""
    S, sp, spider = cast_shape_shift()
    s = S[0]
    wolf = tray_chip(S, "wolf")
    act(S, R.A_FOE + wolf)
    s["foe_wounds"][wolf] = 1
    s["mon_clearing"][spider] = MON_TRAY          # the spider is gone: the combat winds down
    for _ in range(40):
        if int(s["combat_step"]) == C.CS_NONE:
            break
        act(S, legal(S)[0])
    assert int(s["combat_step"]) == C.CS_NONE
    assert int(s["foe_wounds"][wolf]) == 0 and int(s["mon_clearing"][wolf]) == MON_SHAPE
    assert int(s["foe_ctrl"][wolf]) == 0 and int(s["shape"][0]) == wolf + 1


def test_dd_combat_challenge_5_a_shape_shifted_hero_is_still_a_hero_the_monsters_challenge():
    """L691: "A Hero that is Shape Shifted into a Monster is still considered
    a Hero": the spider's challenge draws among the Warrior and the
    Sorcerer's Wolf (the draw falls on the second: the Wolf), never the
    Sorcerer himself; it fights the Wolf (``foe_vs``)."""
    S, sp, spider = cast_shape_shift()
    s = S[0]
    wolf = tray_chip(S, "wolf")
    load(S, 1)
    act(S, R.A_FOE + wolf)
    while int(s["phase"]) in (R.PH_ADJUST, R.PH_EVADE) and int(s["to_play"]) == 1:
        act(S, R.A_DO + (R.DO_DONE if int(s["phase"]) == R.PH_ADJUST else R.DO_STAY))
    assert int(s["combat_round"]) == 2
    assert int(s["foe_vs"][spider]) - 1 == wolf and int(s["foe_target"][spider]) == -1
    assert int(s["foe_target"][wolf]) == -1 and int(s["foe_vs"][wolf]) == 0, "his Monster challenges no one"


def test_interpretation_shape_shift_his_chip_killed_he_is_killed():
    """Interpretations, "Shape Shift": the hero is the Monster: the spider
    kills his Giant Bat (health 1; speed 2 against maneuver 4: two hits on
    the Hit Dice, 2 damage) and he is killed; the chip goes back to the
    tray, the spider's slayer no one. In Tri Peaks enchanted with purple
    magic the spell is active from the start of the battle phase (L1052)."""
    S = combat([("human", "sorcerer", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),))
    s = S[0]
    sp, bat = shape_on(S, 0, "giant_bat")
    s["tile_enchant"][TRI_PEAKS_1 // 6] = R.SPELL_COLOUR[R.SP_SHAPE_SHIFT]
    start(S)
    assert R.shifted(S, 0, 0) and int(s["mon_clearing"][bat]) == int(s["combat_clearing"])
    assert int(s["foe_vs"][chip(S, "giant_spider")]) == bat + 1, "the only 'hero' to challenge"
    ask(S, R.PH_CTRL_TARGET, 0)
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_CTRL_SIDE, 0)
    load(S, NO_SYMBOL, HIT, HIT)
    act(S, R.A_SIDE)
    assert int(s["hero_state"][0]) == HS_DEAD or int(s["phase"]) == R.PH_LINEAGE, \
        "killed: dead, or already choosing his next hero (L829)"
    assert int(s["mon_clearing"][bat]) == MON_TRAY and int(s["shape"][0]) == 0 and int(s["spell_on"][sp]) == -1


# ================================================================ outside combat (L1566, L1093)
def test_dd_spell_shape_shift_3_shifted_he_may_only_sneak_make_noise_move_search_and_loot():
    """L1566: while Shape Shift is active he may Sneak, Make Noise, Move,
    Search and Loot (and Pass): no rest (Action Cubes unavailable), no
    one-time card, no Alert, Trade, Learn, Enchant or Explore; all his
    possessions are inactive; a card he gains goes to his backpack."""
    S, p = start_turn(lineages=("halfling",))
    s = S[0]
    potion = give(S, p, "potion_of_healing")
    s["cubes"][p, 1, 0] = 1                      # a wounded cube: a rest and the potion would be open
    before = set(legal(S))
    assert R.A_DO + R.DO_QUICK_REST in before and R.A_CARD + potion in before
    shape_on(S, p, "wolf")
    now = set(legal(S))
    allowed = {R.A_CLEARING + c for c in moves(S)} | {R.A_DO + d for d in (
        R.DO_PASS, R.DO_SNEAK, R.DO_NOISE, R.DO_LOOT, R.DO_UNHIDE)} | \
        {a for a in before if R.A_SEARCH <= a < R.A_TARGET}
    assert now <= allowed and now
    assert R.A_DO + R.DO_SNEAK in now and R.A_DO + R.DO_NOISE in now
    assert R.A_DO + R.DO_QUICK_REST not in now and R.A_CARD + potion not in now and R.A_DO + R.DO_ALERT not in now
    assert {a for a in before if R.A_CLEARING <= a < R.A_DO} == {a for a in now if R.A_CLEARING <= a < R.A_DO}
    assert R.possessions_inactive(S, 0, p)
    c = next(c for c in range(R.NUM_CARDS) if R.CARD_KIND[c] == R.CARD_KIND[potion] and int(s["card_where"][c]) == 0)
    R.gain_card(S, 0, p, c)
    s["phase"] = R.PH_GAINED
    assert legal(S) == [R.A_TARGET + T_BACKPACK], "gained while Shape Shifted: to the backpack"


def test_dd_spell_shape_shift_3_shifted_into_a_flying_monster_he_must_fly():
    """L1093: "A Hero Shape Shifted into a flying Monster must fly": as a
    Giant Bat he has the Fly ability (every Move a flight); as a Wolf, not."""
    S, p = start_turn(lineages=("halfling",))
    assert not R.hero_flies(S, 0, p)
    sp, bat = shape_on(S, p, "giant_bat")
    assert R.hero_flies(S, 0, p)
    S, p = start_turn(lineages=("halfling",))
    shape_on(S, p, "wolf")
    assert not R.hero_flies(S, 0, p)


def test_dd_spell_shape_shift_3_a_flying_form_flies_every_move_and_has_no_hide_among_monsters():
    """L1093, L1095, L1097: "must fly": Shape Shifted into a Giant Bat, his
    Move along the path from Plains 1 to Plains 3 is a flight, so entering
    among the goblins there he is blocked at once, with no Hide reaction;
    as a Wolf he walks it, and may Hide. The Bat also flies where no path
    leads (Mountains 4)."""
    from tests.dragons_down.actions_test import MOUNTAINS_4, PLAINS_3, put_monster
    for kind, flies in (("giant_bat", True), ("wolf", False)):
        S, p = start_turn(lineages=("halfling",))
        shape_on(S, p, kind)
        assert (MOUNTAINS_4 in moves(S)) == flies and PLAINS_3 in moves(S)
        put_monster(S, "goblin", PLAINS_3)
        act(S, R.A_CLEARING + PLAINS_3)
        s = S[0]
        assert int(s["hero_clearing"][p]) == PLAINS_3
        if flies:
            assert int(s["hero_status"][p]) & R.HST_BLOCKED and int(s["phase"]) != R.PH_BLOCK, kind
        else:
            ask(S, R.PH_BLOCK, p)


# ================================================================ inactive, activated, cancelled (L1568, L1046-L1061)
def test_dd_spell_shape_shift_4_inactive_the_chip_lies_by_his_board_and_he_fights_as_himself():
    """L1055, L1568: as the next battle phase begins the spell turns
    inactive: the Wolf chip lies by his board -- not in the tray (not counted
    there, not summoned), not in the clearing -- and he fights as himself.
    In the Activation step he may wound a purple cube to activate it
    (L695): from then he is his Wolf again."""
    S = combat([("human", "sorcerer", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),))
    s = S[0]
    sp, wolf = shape_on(S, 0, "wolf")
    magic(S, 0, purple=1)
    obs = GAME.observation_of(S, 0)
    tray = block(obs, "tray")
    assert tray[O.FOE_KIND[wolf]] == min(
        sum(1 for f in range(NUM_MONSTER_CHIPS) if int(s["mon_clearing"][f]) == MON_TRAY
            and MONSTER_CHIP_KINDS[f] == MONSTER_CHIP_KINDS[wolf]) * 0.25, O.OBS_HIGH)
    assert block(obs, "taken")[O.FOE_KIND[wolf]] == 0, "a chip by a hero's board is no chip he killed"
    start(S)
    assert not R.shifted(S, 0, 0) and int(s["mon_clearing"][wolf]) == MON_SHAPE
    assert C.fighting(S, 0, 0)
    ask(S, R.PH_ACTIVATE, 0)
    assert R.A_SPELL + sp in legal(S)
    act(S, R.A_SPELL + sp)
    if int(s["phase"]) == R.PH_ACTIVATE:
        act(S, R.A_DO + R.DO_DONE)
    assert R.shifted(S, 0, 0) and int(s["cubes"][0, 1, R.CUBE_MAGIC + R.SPELL_COLOUR[R.SP_SHAPE_SHIFT]]) == 1
    assert int(s["mon_clearing"][wolf]) == int(s["combat_clearing"]) and int(s["foe_ctrl"][wolf]) == 1
    assert not C.fighting(S, 0, 0)


def test_dd_spell_shape_shift_4_cancelled_the_chip_returns_to_the_tray():
    """L1568, L1058: broken -- by Break Spells (L1492), or by his death --
    the spell ends: its card is his to cast again and the chip goes back to
    the monster tray."""
    for how in ("break", "death"):
        S, p = start_turn(lineages=("halfling",))
        s = S[0]
        sp, wolf = shape_on(S, p, "wolf", active=False)
        if how == "break":
            R.end_spells_on(S, 0, ME + p)
        else:
            R.kill_hero(S, 0, p)
        assert int(s["mon_clearing"][wolf]) == MON_TRAY and int(s["shape"][p]) == 0 and int(s["spell_on"][sp]) == -1


def test_a_heros_shape_is_public():
    """L1564, L1568: every seat sees which Monster a hero is Shape Shifted
    into, and whether the spell is active."""
    S, p = start_turn(num_heroes=2, lineages=("halfling",))
    sp, wolf = shape_on(S, p, "wolf")
    q = 1 - p
    heroes = block(GAME.observation_of(S, q), "heroes")
    row = heroes[(p - q) % 2]
    assert row[O.H_SHAPE + int(O.FOE_KIND[wolf])] == 1 and row[O.H_SHAPE_ACTIVE] == 1
    S[0]["spell_mark"][sp] = 0
    row = block(GAME.observation_of(S, q), "heroes")[(p - q) % 2]
    assert row[O.H_SHAPE + int(O.FOE_KIND[wolf])] == 1 and row[O.H_SHAPE_ACTIVE] == 0
    assert np.count_nonzero(block(GAME.observation_of(S, q), "heroes")[:, O.H_SHAPE:O.H_SHAPE + len(MONSTER_IDS)]) == 1


def test_the_heuristic_answers_the_shape_shift_decisions():
    """The heuristic bot never casts Shape Shift, but answers its decisions
    legally: the Monster to become (the most health: a Giant or a Dragon),
    and a shifted hero's turn (only what a Shape Shifted hero may do)."""
    from dragongym.agents.dragons_down_heuristic import DragonsDownHeuristic
    bot = DragonsDownHeuristic(GAME)
    S, sp, spider = cast_shape_shift()
    ask(S, R.PH_SHAPE, 0)
    a = bot.act_state(GAME, S, 0, np.random.default_rng(0))
    assert a in legal(S) and int(R.FOE_HEALTH[a - R.A_FOE]) == max(int(R.FOE_HEALTH[x - R.A_FOE]) for x in legal(S))
    S, p = start_turn(lineages=("halfling",))
    shape_on(S, p, "wolf")
    for seed in range(5):
        assert bot.act_state(GAME, S, p, np.random.default_rng(seed)) in legal(S)


# ================================================================ what strikes the whole clearing or several heroes (L1508, L1266, L691)
def test_dd_spell_fiery_chasm_1_it_strikes_a_shape_shifted_heros_chip_and_the_kill_is_the_casters():
    """L1508, L691, L1190: the Warlock's Fiery Chasm attacks every unhidden,
    non-flying piece: the Sorcerer Shape Shifted into a Wolf is his chip in
    the clearing, so it is attacked (hit: the Sorcerer dies, his chip back
    in the tray); with Player vs. Player the kill is the Warlock's (the half
    of the Sorcerer's 20 Fame, an Outlaw Token). A Giant Bat's chip flies,
    and is spared."""
    from dragongym.envs.dragons_down.constants import OPT_PVP
    from tests.dragons_down.combat_test import BLANK
    for kind, spared in (("wolf", False), ("giant_bat", True)):
        S = combat([("human", "warlock", TRI_PEAKS_1), ("human", "sorcerer", TRI_PEAKS_1)])
        s = S[0]
        s["optional_rules"] = OPT_PVP
        s["fame"][1] = 20
        sp, f = shape_on(S, 1, kind)
        start(S)                                     # (his spell turned inactive as the battle phase began)
        s["spell_mark"][sp] = R.PERM_ACTIVE          # active again: he is his chip (L1055, L695)
        R.shape_sync(S, 0)
        assert int(s["mon_clearing"][f]) == TRI_PEAKS_1 and not C.fighting(S, 0, 1)
        load(S, *(() if spared else (HIT, HIT)), BLANK, BLANK)   # the chip hit (not the flyer); the caster missed
        R.fiery_chasm(S, 0, ME + 0, 0)
        assert (int(s["hero_state"][1]) == HS_DEAD) != spared, kind
        assert int(s["hero_state"][0]) == R.HS_ACTIVE
        if not spared:
            assert int(s["mon_clearing"][f]) == MON_TRAY and int(s["shape"][1]) == 0
            assert int(s["fame"][0]) == 10 and int(s["outlaw"][0]) == 1


def test_dd_monster_dragons_1_a_dragons_fire_added_on_a_hero_strikes_his_chip_once_he_shifts():
    """L1266, L728, L691: the dragon's fire added the Sorcerer to its
    targets; he becomes his Wolf before it strikes (his Shape Shift
    activated): the fire strikes the chip in his place (``foe_extra_vs``)."""
    S = combat([("human", "knight", TRI_PEAKS_1), ("human", "sorcerer", TRI_PEAKS_1)],
               monsters=(("adult_dragon", TRI_PEAKS_1),))
    s = S[0]
    sp, wolf = shape_on(S, 1, "wolf", active=False)
    to_target_step(S)
    dragon = chip(S, "adult_dragon")
    s["foe_target"][dragon], s["foe_extra"][dragon] = 0, 1 << 1
    s["spell_mark"][sp] = R.PERM_ACTIVE
    R.shape_sync(S, 0)
    assert int(s["foe_extra"][dragon]) == 0 and int(s["foe_extra_vs"][dragon, 0]) == wolf + 1
    assert C.foe_can_strike(S, 0, dragon)
    load(S, HIT, HIT, 1, 1)                          # the Wolf (maneuver 3 = speed 3) hit; the Ranged Dice 0, 0
    R.versus_strike(S, 0, dragon)
    assert int(s["hero_state"][1]) == HS_DEAD, "2 + 1 sword kills the Wolf (health 1): the Sorcerer dies"
