"""Spells cast in combat (L706-L781, L1018-L1065) and, one test each, the
spells of the Spell Manifest whose effects are built (L1486-L1597).

Positions are built as in ``combat_test``: heroes, Monsters and Natives in a
clearing at the combat step, the dice loaded as raw draws named by the face
they show. ``learn`` gives a hero a spell and ``magic`` his Magic Cubes.
"""
import numpy as np
import pytest

from dragongym.envs.dragons_down import data as D
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CURSE_IDS, CW_HERO, CW_REMOVED, HST_HIDDEN, MON_TAKEN, MON_TRAY, NUM_SPELLS, SPELL_IDS, SPW_DISCARD,
    SPW_START, ST_COMBAT, TILE_IDS, TW_PLACED,
)
from dragongym.envs.dragons_down.rules import combat as C
from tests.dragons_down.combat_test import (
    BLANK, EQUAL, HIT, NO_SYMBOL, R_PLUS1, R_ZERO, TRI_PEAKS_1, act, ask, chip, combat, legal, load, place, start,
)

BLACK, BLUE, GRAY, GREEN, PURPLE, WHITE, YELLOW = range(7)      # data.MAGIC_COLOURS
ME = R.AIM_HERO


def learn(S, p, spell):
    """Hero p knows a card of ``spell`` (the first one not yet known); its index."""
    s = S[0]
    k = SPELL_IDS.index(spell)
    sp = next(sp for sp in range(NUM_SPELLS) if R.SPELL_KIND[sp] == k and s["spell_where"][sp] != R.SPW_KNOWN)
    s["spell_where"][sp], s["spell_owner"][sp] = R.SPW_KNOWN, p
    return sp


def magic(S, p, **cubes):
    """Hero p's healthy Magic Cubes, by colour name, replacing those he had."""
    s = S[0]
    s["cubes"][p, 0, R.CUBE_MAGIC:] = 0
    for colour, n in cubes.items():
        s["cubes"][p, 0, R.CUBE_MAGIC + D.MAGIC_COLOURS.index(colour)] = n


def to_target_step(S):
    """Start the combat and answer its first steps (no unhide, no evade)
    until a hero's Target step."""
    start(S)
    while int(S[0]["phase"]) in (R.PH_EVADE, R.PH_UNHIDE):
        act(S, R.A_DO + R.DO_STAY)
    return S


def in_combat(S):
    """The combat of the heroes' clearing under way, at its Target step (for
    a spell's effect applied directly, as its hit does)."""
    to_target_step(S)
    assert int(S[0]["combat_step"]) != C.CS_NONE
    return S


def cast(S, p, sp, *boxes):
    """Hero p casts Spell Card sp in Hero Tactics, then places ``boxes`` and is done."""
    ask(S, R.PH_TACTICS, p)
    act(S, R.A_SPELL + sp)
    place(S, p, *boxes)


def wizard(spell, cubes, monsters=(("giant_spider", TRI_PEAKS_1),), cls="sorcerer", dice=(), more=()):
    """A Human of ``cls`` in Tri Peaks 1 who knows ``spell`` and holds the
    Magic Cubes ``cubes`` (a dict), against ``monsters``; ``more`` heroes
    after him. Returns (S, the spell's card)."""
    S = combat([("human", cls, TRI_PEAKS_1), *more], monsters=monsters, dice=dice)
    sp = learn(S, 0, spell)
    magic(S, 0, **cubes)
    return S, sp


# ================================================================ casting (L706-L781, L1018-L1034)
def test_a_spell_is_aimed_in_the_target_step_and_cast_in_secret_in_hero_tactics():
    """L711, L714, L723: the Targeting Token goes on the foe; in Tactics the
    Spell Card is covered with Magic Cubes of its colours (Hesitation: one
    yellow box), the hero's Speed Cubes give its attack speed, and until all
    have placed the cast is his secret."""
    S, sp = wizard("hesitation", {"yellow": 1})
    to_target_step(S)
    ask(S, R.PH_TARGET, 0)
    spider = chip(S, "giant_spider")
    act(S, R.A_FOE + spider)
    ask(S, R.PH_TACTICS, 0)
    assert R.A_SPELL + sp in legal(S)
    act(S, R.A_SPELL + sp)
    assert int(S[0]["cast_card"][0]) == sp and list(S[0]["cast_cubes"][0]) == [0, 0, 0, 0, 0, 0, 1]
    assert R.A_BOX + R.BOX_MIGHT not in legal(S), "one card that attacks a round (L720)"
    act(S, R.A_BOX + R.BOX_ATTACK)
    assert C.placement_secret(S, 0, 1, 0) and int(S[0]["combat_step"]) == C.CS_TACTICS


def test_a_spell_needs_a_cube_of_each_box_colour():
    """L1020: a hero who cannot cover every box cannot cast: Curse needs two
    black cubes; with one it is not offered, not even as a reason to target."""
    S, sp = wizard("curse", {"black": 1}, cls="warlock")
    S[0]["hero_class"][0] = R.CLASS_IDS.index("sorcerer")        # no weapon: only a spell could target
    for c in range(R.NUM_CARDS):
        if S[0]["card_where"][c] == CW_HERO:
            S[0]["card_where"][c] = CW_REMOVED
    to_target_step(S)
    assert int(S[0]["combat_step"]) != C.CS_TARGET or int(S[0]["phase"]) != R.PH_TARGET
    magic(S, 0, black=2)
    assert R.cover_fits(S, 0, 0, SPELL_IDS.index("curse"))


def test_a_multi_colour_box_takes_the_colour_the_hero_chooses():
    """L723: a multi-colour box takes any Magic Cube; with two colours free
    the hero chooses (Illusion: gray!, gray, any)."""
    S, sp = wizard("illusion", {"gray": 2, "blue": 1, "green": 1})
    to_target_step(S)
    act(S, R.A_SEAT + 0)                                          # on himself
    act(S, R.A_SPELL + sp)
    ask(S, R.PH_SPELL_CUBE, 0)
    assert sorted(a - R.A_CUBE - R.CUBE_MAGIC for a in legal(S)) == [BLUE, GREEN]
    act(S, R.A_CUBE + R.CUBE_MAGIC + GREEN)
    assert list(S[0]["cast_cubes"][0]) == [0, 0, 2, 1, 0, 0, 0] and int(S[0]["cast_wound"][0]) == GRAY


def test_an_enchanted_tile_leaves_one_box_of_its_colour_empty():
    """L1022: in a tile enchanted gray, one gray box need not be covered --
    the wound box first, so Envenom (gray!, gray) costs one cube and wounds none."""
    S, sp = wizard("envenom", {"gray": 1})
    S[0]["tile_enchant"][TILE_IDS.index("tri_peaks")] = GRAY
    to_target_step(S)
    act(S, R.A_SEAT + 0)
    act(S, R.A_SPELL + sp)
    assert list(S[0]["cast_cubes"][0]) == [0, 0, 1, 0, 0, 0, 0] and int(S[0]["cast_wound"][0]) == -1


def test_the_cube_on_the_wound_box_is_wounded_in_cleanup():
    """L779: Strength (purple!, purple) on himself: after the round one purple
    cube is in the wounded box, the other back in the healthy box."""
    S, sp = wizard("strength", {"purple": 2}, dice=(NO_SYMBOL, BLANK, BLANK))
    to_target_step(S)
    act(S, R.A_SEAT + 0)
    cast(S, 0, sp)
    while int(S[0]["combat_step"]) not in (C.CS_CLEANUP, C.CS_CHALLENGE) or int(S[0]["phase"]) == R.PH_WOUND:
        if int(S[0]["phase"]) == R.PH_WOUND:
            act(S, legal(S)[0])
        else:
            break
    s = S[0]
    assert int(s["cubes"][0, 1, R.CUBE_MAGIC + PURPLE]) == 1 and int(s["cubes"][0, 0, R.CUBE_MAGIC + PURPLE]) == 1


def test_one_spell_a_round_and_not_again_while_it_lasts():
    """L1024-L1026: one spell per Combat Round; a spell that lasts (Iron Skin,
    combat) is not cast again until it ends."""
    S, sp = wizard("iron_skin", {"purple": 2}, monsters=())
    other = learn(S, 0, "strength")
    to_target_step(S)
    act(S, R.A_SEAT + 0)
    act(S, R.A_SPELL + sp)
    assert R.A_SPELL + other not in legal(S)
    act(S, R.A_DO + R.DO_DONE)
    assert int(S[0]["spell_on"][sp]) == ME + 0
    assert not R.may_cast(S, 0, 0, sp)


@pytest.mark.parametrize("dice,wounds", [((HIT, BLANK), 0), ((HIT, HIT), 1)])
def test_a_targeted_spell_hits_by_the_normal_attack_rules(dice, wounds):
    """L1030, L740-L743: Affliction at the Giant Spider (maneuver 2) with no
    Speed Cube: speed 0 against 2, so the Hit Dice roll: a blank misses, two
    hits hit. The hero's two maneuver cubes make the spider (speed 2) roll
    too, and it misses on two blanks."""
    S, sp = wizard("affliction", {"black": 1}, dice=(NO_SYMBOL, BLANK, BLANK, *dice))
    to_target_step(S)
    spider = chip(S, "giant_spider")
    act(S, R.A_FOE + spider)
    cast(S, 0, sp, R.BOX_MANEUVER, R.BOX_MANEUVER)
    assert int(S[0]["foe_wounds"][spider]) == wounds


def test_a_spell_strikes_in_attack_speed_order_its_length_breaking_ties():
    """L732-L734: Affliction at speed 2 (length 5) against the Giant Spider's
    speed 2, length 0: the spell strikes first and kills the 1-health spider
    hurt before; the spider never strikes."""
    S, sp = wizard("affliction", {"black": 1}, cls="sorcerer", dice=(NO_SYMBOL, HIT, HIT))
    spider = chip(S, "giant_spider")
    S[0]["foe_wounds"][spider] = 1
    S[0]["cubes"][0, 0, R.CUBE_SPEED] = 2
    S[0]["hero_class"][0] = R.CLASS_IDS.index("archer")         # two attack speed boxes
    to_target_step(S)
    act(S, R.A_FOE + spider)
    cast(S, 0, sp, R.BOX_ATTACK, R.BOX_ATTACK)                   # speed 2 against 2: it rolls
    assert int(S[0]["mon_clearing"][spider]) == MON_TAKEN and int(S[0]["hearts"][0, 1]) == 0


def test_a_wound_that_empties_a_box_cancels_the_spell():
    """L789: the Giant Spider (speed 2) strikes before the spell (speed 0) and
    its wound takes the cube from the Spell Card: the spell is canceled."""
    S, sp = wizard("affliction", {"black": 1}, dice=(NO_SYMBOL, HIT, HIT))
    to_target_step(S)
    spider = chip(S, "giant_spider")
    act(S, R.A_FOE + spider)
    cast(S, 0, sp)
    ask(S, R.PH_WOUND, 0)
    act(S, R.A_CUBE + R.CUBE_MAGIC + BLACK)
    assert int(S[0]["cast_stage"][0]) in (R.CAST_CANCELED, R.CAST_NONE)
    assert int(S[0]["foe_wounds"][spider]) == 0


def test_a_hidden_caster_rolls_to_stay_hidden():
    """L1020, L775: a hidden hero casts from hiding (an Ambush) and rolls the
    Monster Die after the round: a Monster symbol unhides him."""
    S, sp = wizard("affliction", {"black": 1}, dice=(NO_SYMBOL, HIT, HIT))
    S[0]["hero_status"][0] = HST_HIDDEN
    to_target_step(S)
    spider = chip(S, "giant_spider")
    ask(S, R.PH_TARGET, 0)
    act(S, R.A_FOE + spider)
    load(S, 0)                                                    # the hide roll's first Monster Die: monster
    cast(S, 0, sp)
    assert int(S[0]["hero_status"][0]) & HST_HIDDEN == 0


def test_another_hero_accepts_or_refuses_a_targeted_spell():
    """L1032: Break Spells at a cursed friend: he is asked; accepting, it hits
    without a roll and lifts his curse."""
    S, sp = wizard("break_spells", {"gray": 2}, monsters=(), more=[("human", "knight", TRI_PEAKS_1)])
    S[0]["curses"][1] = 1 << R.CURSE_SLOTH
    to_target_step(S)
    ask(S, R.PH_TARGET, 0)
    act(S, R.A_SEAT + 1)
    cast(S, 0, sp)
    ask(S, R.PH_ACCEPT, 1)
    act(S, R.A_ANSWER + R.ANSWER_ACCEPT)
    assert int(S[0]["curses"][1]) == 0


def test_the_undead_are_immune_to_spells_marked_so():
    """L1065, L1530: Envenom may not be aimed at the Wraith (undead)."""
    S, sp = wizard("envenom", {"gray": 2}, monsters=(("wraith", TRI_PEAKS_1),))
    to_target_step(S)
    wraith = chip(S, "wraith")
    assert not R.aim_ok(S, 0, 0, SPELL_IDS.index("envenom"), wraith)
    assert R.aim_ok(S, 0, 0, SPELL_IDS.index("envenom"), ME + 0)


def test_combat_spells_end_with_the_combat_and_turn_spells_at_the_next_battle_phase():
    """L1042, L1044: at the end of combat Iron Skin ends; Charm lasts until
    the next battle phase begins."""
    S, sp = wizard("iron_skin", {"purple": 1, "yellow": 3}, monsters=())
    charm = learn(S, 0, "charm")
    S[0]["spell_on"][sp] = ME + 0
    S[0]["spell_on"][charm] = ME + 0
    R.end_of_combat(S, 0) if hasattr(R, "end_of_combat") else C.end_of_combat(S, 0)
    assert int(S[0]["spell_on"][sp]) == -1 and int(S[0]["spell_on"][charm]) == ME + 0
    R.expire_spells(S, 0, R.DUR_TURN)
    assert int(S[0]["spell_on"][charm]) == -1


def test_a_hero_killed_takes_his_spells_and_those_on_him_with_him():
    """L805, L1058: the caster dies: the spells he cast and those on him end."""
    S, sp = wizard("iron_skin", {"purple": 1}, monsters=(), more=[("human", "knight", TRI_PEAKS_1)])
    skin = learn(S, 1, "iron_skin")
    S[0]["spell_on"][sp] = ME + 1
    S[0]["spell_on"][skin] = ME + 0
    R.kill_hero(S, 0, 0)
    assert int(S[0]["spell_on"][sp]) == -1 and int(S[0]["spell_on"][skin]) == -1


def test_fireball_takes_up_to_four_foes_one_at_a_time():
    """L1562, L711: after the first foe, more foes may be added (PH_MORE_TARGETS)."""
    S, sp = wizard("fireball", {"purple": 4},
                   monsters=(("goblin", TRI_PEAKS_1), ("goblin", TRI_PEAKS_1), ("kobold", TRI_PEAKS_1)))
    to_target_step(S)
    g0, g1, k = chip(S, "goblin", 0), chip(S, "goblin", 1), chip(S, "kobold")
    act(S, R.A_FOE + g0)
    ask(S, R.PH_MORE_TARGETS, 0)
    assert R.A_FOE + g0 not in legal(S) and R.A_FOE + g1 in legal(S)
    act(S, R.A_FOE + g1)
    act(S, R.A_FOE + k)
    assert list(S[0]["more_targets"][0]) == [g1, k, -1]


# ================================================================ the Spell Manifest (L1486-L1597)
def test_break_spells_lifts_every_spell_and_curse_on_its_target():
    """L1492: Break Spells on a foe ends its Iron Skin and its curses."""
    S, sp = wizard("break_spells", {"gray": 2})
    in_combat(S)
    spider = chip(S, "giant_spider")
    skin = learn(S, 0, "iron_skin")
    S[0]["spell_on"][skin] = spider
    S[0]["foe_curses"][spider] = 1 << R.CURSE_CLUMSINESS
    R.spell_hits(S, 0, 0, sp, spider, 1)
    assert int(S[0]["spell_on"][skin]) == -1 and int(S[0]["foe_curses"][spider]) == 0


def test_affliction_wounds_and_kills_on_the_last_point_of_health():
    """L1498: the target suffers one wound -- the Giant Spider (health 2)
    takes a pink cube, and a second one kills it (the caster takes it, L799)."""
    S, sp = wizard("affliction", {"black": 1})
    in_combat(S)
    spider = chip(S, "giant_spider")
    R.spell_hits(S, 0, 0, sp, spider, 1)
    assert int(S[0]["foe_wounds"][spider]) == 1
    R.spell_hits(S, 0, 0, sp, spider, 1)
    assert int(S[0]["mon_clearing"][spider]) == MON_TAKEN and int(S[0]["mon_taker"][spider]) == 0


def test_curse_gives_a_foe_a_lasting_curse_from_the_table():
    """L1500: the Curse spell hits: a roll on the Curse Table; Clumsiness on a
    Monster takes one from its maneuver speed (Interpretations)."""
    roll = D.REALM.curses["clumsiness"].roll - 1
    S, sp = wizard("curse", {"black": 2}, cls="warlock")
    in_combat(S)
    spider = chip(S, "giant_spider")
    load(S, roll)
    R.spell_hits(S, 0, 0, sp, spider, 1)
    assert int(S[0]["foe_curses"][spider]) == 1 << CURSE_IDS.index("clumsiness")
    assert R.foe_maneuver(S, 0, spider) == R.FOE_SIDE[spider, 0, R.SD_MANEUVER] - 1


def test_fiery_chasm_kills_the_unhidden_and_non_flying_it_hits():
    """L1508: the Giant Spider is hit and killed, the flying Giant Bat is not
    attacked; the caster, attacked too, is missed."""
    S, sp = wizard("fiery_chasm", {"black": 5}, cls="warlock",
                   monsters=(("giant_spider", TRI_PEAKS_1), ("giant_bat", TRI_PEAKS_1)))
    spider, bat = chip(S, "giant_spider"), chip(S, "giant_bat")
    in_combat(S)
    load(S, HIT, HIT, BLANK, BLANK)                   # speed 0: the spider (maneuver 2) hit, the caster missed
    R.fiery_chasm(S, 0, ME + 0, 0)
    assert int(S[0]["mon_clearing"][spider]) == MON_TAKEN and int(S[0]["mon_clearing"][bat]) == TRI_PEAKS_1
    assert int(S[0]["hero_state"][0]) == R.HS_ACTIVE


def test_envenom_adds_a_sword_and_a_wound():
    """L1530: the envenomed hero's next hit has one sword more and, the
    target not killed, one wound more: a dagger-less Sorcerer's spell aside,
    his weapon hit on the Ogre (health 4) leaves two pink cubes."""
    S, sp = wizard("envenom", {"gray": 2}, cls="warrior", monsters=(("ogre", TRI_PEAKS_1),))
    ogre = chip(S, "ogre")
    S[0]["spell_on"][sp] = ME + 0
    to_target_step(S)
    act(S, R.A_FOE + ogre)
    load(S, NO_SYMBOL)
    place(S, 0, R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_ATTACK)
    assert int(S[0]["foe_wounds"][ogre]) == 2 and int(S[0]["spell_on"][sp]) == -1


def test_illusion_slows_every_attacker_of_its_target():
    """L1532: the Giant Spider (speed 2) attacking a hero under Illusion strikes at speed 1."""
    S, sp = wizard("illusion", {"gray": 3})
    S[0]["spell_on"][sp] = ME + 0
    spider = chip(S, "giant_spider")
    S[0]["foe_target"][spider] = 0
    S[0]["combat_step"] = C.CS_RESOLVE
    assert C.foe_speed(S, 0, spider) == 1


def test_anti_magic_keeps_off_targeted_spells():
    """L1534: a foe under Anti-Magic may not be targeted by a targeted spell;
    a self-or-other spell still may."""
    S, sp = wizard("anti_magic", {"gray": 4})
    spider = chip(S, "giant_spider")
    to_target_step(S)
    S[0]["spell_on"][sp] = spider
    assert not R.aim_ok(S, 0, 0, SPELL_IDS.index("affliction"), spider)
    assert R.aim_ok(S, 0, 0, SPELL_IDS.index("iron_skin"), spider)


def test_calm_returns_a_monster_to_its_tray_but_never_a_guardian():
    """L1548: Calm hits the Giant Spider: back to the tray, no Fame."""
    S, sp = wizard("calm", {"green": 4}, cls="druid")
    spider = chip(S, "giant_spider")
    R.calm(S, 0, spider)
    assert int(S[0]["mon_clearing"][spider]) == MON_TRAY and int(S[0]["fame"][0]) == 0
    S, sp = wizard("calm", {"green": 4}, cls="druid", monsters=(("bandit", TRI_PEAKS_1),))
    bandit = chip(S, "bandit")
    R.calm(S, 0, bandit)
    assert int(S[0]["mon_clearing"][bandit]) == TRI_PEAKS_1


def test_iron_skin_takes_a_sword_from_a_hit_not_on_armour():
    """L1556: the Giant Bat's back side (damage 1, 1 sword) hits an unarmoured
    hero under Iron Skin: 1 + 1 - 1 = 1, a wound, not 2."""
    S, sp = wizard("iron_skin", {"purple": 1})
    S[0]["spell_on"][sp] = ME + 0
    assert C.attack_damage(S, 0, 1, 1, R.hero_has_spell(S, 0, 0, R.SP_IRON_SKIN)) == 1


def test_strength_adds_one_base_damage_to_the_next_hit_then_ends():
    """L1558: +1 base damage on the next hit, then the spell expires."""
    S, sp = wizard("strength", {"purple": 2})
    S[0]["spell_on"][sp] = ME + 0
    base, swords, venom = R.hit_bonus(S, 0, ME + 0, chip(S, "giant_spider"))
    assert (base, swords, venom) == (1, 0, False) and int(S[0]["spell_on"][sp]) == -1


def test_fireball_on_one_foe_strikes_with_two_swords():
    """L1562: one target: base damage 2 + 2 swords, ranged: the Ogre (health
    4, unarmoured) hit with the worse Ranged Attack Die 0 takes 4: killed."""
    S, sp = wizard("fireball", {"purple": 4}, monsters=(("ogre", TRI_PEAKS_1),))
    ogre = chip(S, "ogre")
    S[0]["cubes"][0, 0, R.CUBE_SPEED] = 2
    to_target_step(S)
    act(S, R.A_FOE + ogre)
    act(S, R.A_DO + R.DO_DONE) if int(S[0]["phase"]) == R.PH_MORE_TARGETS else None
    load(S, NO_SYMBOL, R_ZERO, R_PLUS1)
    cast(S, 0, sp, R.BOX_ATTACK)
    assert int(S[0]["mon_clearing"][ogre]) == MON_TAKEN


def test_soul_save_rerolls_an_undead_attackers_best_hit_die():
    """L1574: the Wraith attacks a hero under Soul Save: its hit-and-blank is
    rerolled on the hit, and the new blank misses."""
    S, sp = wizard("soul_save", {"white": 1}, cls="cleric")
    S[0]["spell_on"][sp] = ME + 0
    load(S, HIT, EQUAL, BLANK)
    assert not R.roll_to_hit_saved(S, 0, 2, 3, True)


def test_heal_heals_two_cubes_once_a_turn():
    """L1576: Heal on himself moves two wounded cubes to the healthy box
    (he chooses which); not again this turn."""
    S, sp = wizard("heal", {"white": 2}, cls="cleric", monsters=())
    S[0]["cubes"][0, 1, R.CUBE_MIGHT] = 1
    S[0]["hearts"][0, 1] = 1
    to_target_step(S)
    act(S, R.A_SEAT + 0)
    cast(S, 0, sp)
    ask(S, R.PH_HEAL, 0)
    act(S, R.A_HEAL + R.HEAL_HEART)
    act(S, R.A_HEAL + R.CUBE_MIGHT)
    assert int(S[0]["hearts"][0, 1]) == 0 and int(S[0]["cubes"][0, 1, R.CUBE_MIGHT]) == 0
    assert int(S[0]["cast_turn"][0]) & 1


def test_life_armor_takes_the_hit_first_and_is_damaged_at_two():
    """L1578, L762: a hit of damage 2 on Life Armor damages it and wounds the hero."""
    S, sp = wizard("life_armor", {"white": 3}, cls="cleric")
    S[0]["spell_on"][sp] = ME + 0
    C.wear_life_armor(S, 0, 0, 2)
    assert int(S[0]["spell_mark"][sp]) == R.LIFE_ARMOR_DAMAGED
    C.wear_life_armor(S, 0, 0, 2)
    assert int(S[0]["spell_on"][sp]) == -1


def test_turn_undead_kills_every_undead_foe():
    """L1580: the Wraith is killed and taken; the Giant Spider stays."""
    S, sp = wizard("turn_undead", {"white": 4}, cls="cleric",
                   monsters=(("wraith", TRI_PEAKS_1), ("giant_spider", TRI_PEAKS_1)))
    in_combat(S)
    R.turn_undead(S, 0, 0)
    assert int(S[0]["mon_clearing"][chip(S, "wraith")]) == MON_TAKEN
    assert int(S[0]["mon_clearing"][chip(S, "giant_spider")]) == TRI_PEAKS_1


def test_peace_ends_the_combat_at_once():
    """L1582: combat ends in the clearing; the round is not finished."""
    S, sp = wizard("peace", {"white": 5}, cls="cleric", monsters=())
    to_target_step(S)
    cast(S, 0, sp)
    assert int(S[0]["combat_step"]) == C.CS_NONE and int(S[0]["combat_round"]) == 1
    assert int(S[0]["cubes"][0, 1, R.CUBE_MAGIC + WHITE]) == 1, "its wound box's cube is wounded"


def test_hesitation_slows_the_next_maneuver_then_ends():
    """L1588: -1 maneuver the next time the target is attacked, then it expires."""
    S, sp = wizard("hesitation", {"yellow": 1})
    spider = chip(S, "giant_spider")
    S[0]["spell_on"][sp] = spider
    S[0]["combat_step"] = C.CS_RESOLVE
    S[0]["combat_clearing"] = TRI_PEAKS_1
    assert R.foe_maneuver(S, 0, spider) == R.FOE_SIDE[spider, 0, R.SD_MANEUVER] - 1
    R.struck_at(S, 0, spider)
    assert int(S[0]["spell_on"][sp]) == -1


def test_disorient_cancels_and_stills_the_foe_until_it_is_targeted():
    """L1594: a disoriented Monster may not attack until targeted or hit, then
    its next attack is at -2 speed."""
    S, sp = wizard("disorient", {"yellow": 4})
    spider = chip(S, "giant_spider")
    S[0]["spell_on"][sp] = spider
    S[0]["spell_mark"][sp] = R.DIS_DORMANT | R.DIS_SLOW
    S[0]["combat_step"] = C.CS_RESOLVE
    S[0]["combat_clearing"] = TRI_PEAKS_1
    assert R.dormant(S, 0, spider)
    R.rouse(S, 0, spider, R.DIS_DORMANT)
    assert not R.dormant(S, 0, spider)
    assert R.attack_speed_against(S, 0, 2, spider, -1) == 0


def test_charm_adds_two_to_every_attribute_in_haggling():
    """L1592: Charm on a hero: +2 to each attribute a Merchant respects."""
    S, sp = wizard("charm", {"yellow": 3}, monsters=())
    before = R.haggle_number(S, 0, 0, 0)
    S[0]["spell_on"][sp] = ME + 0
    respected = int(R.MERCHANT_RESPECT[0].sum())
    assert R.haggle_number(S, 0, 0, 0) == before + 2 * respected


def test_trail_blaze_makes_a_mountain_cost_one_move():
    """L1544: one clearing for each Move Action, whatever its type."""
    S, sp = wizard("trail_blaze", {"green": 2}, monsters=())
    mountain = next(c for c in range(TILE_IDS.index("tri_peaks") * 6, TILE_IDS.index("tri_peaks") * 6 + 6)
                    if R.CLEARING_TYPE[c // 6, 0, c % 6] == R.CLEAR_MOUNTAINS)
    assert R.move_cost(S, 0, 0, mountain) == 2
    S[0]["spell_on"][sp] = ME + 0
    assert R.move_cost(S, 0, 0, mountain) == 1


def test_cards_of_either_deck_cast_alike():
    """L1016: a Hero may know one Affliction from each deck and cast either."""
    S, first = wizard("affliction", {"black": 1})
    second = learn(S, 0, "affliction")
    assert R.SPELL_FROM[first] != R.SPELL_FROM[second]
    to_target_step(S)
    act(S, R.A_FOE + chip(S, "giant_spider"))
    assert {R.A_SPELL + first, R.A_SPELL + second} <= set(legal(S))


# ================================================================ hidden information (L714, L724)
def test_a_spell_cast_in_tactics_is_secret_from_the_other_seats():
    """Hero Tactics are placed in secret: while they are, another seat's
    observation, text picture and picture are the same whether the hero
    casts Fireball, casts Affliction or casts nothing -- and its covering a
    multi-colour box shows as placing tactics; once revealed they differ."""
    from dragongym.envs.dragons_down.game import DragonsDown
    game = DragonsDown()
    S, fire = wizard("fireball", {"purple": 4, "black": 1}, monsters=(("ogre", TRI_PEAKS_1),),
                     more=[("human", "knight", TRI_PEAKS_1)])
    hurt = learn(S, 0, "affliction")
    to_target_step(S)
    ogre = chip(S, "ogre")
    act(S, R.A_FOE + ogre)
    if int(S[0]["phase"]) == R.PH_MORE_TARGETS:
        act(S, R.A_DO + R.DO_DONE)
    while not (int(S[0]["phase"]) == R.PH_TACTICS and int(S[0]["to_play"]) == 0):
        act(S, legal(S)[-1] if int(S[0]["phase"]) != R.PH_TARGET else R.A_DO + R.DO_PASS)
    variants = []
    for sp in (fire, hurt, -1):
        v = S.copy()
        if sp >= 0:
            act(v, R.A_SPELL + sp)
        variants.append(v)
    assert int(variants[0]["phase"][0]) in (R.PH_TACTICS, R.PH_SPELL_CUBE)
    seen = [game.observation_of(v, 1) for v in variants]
    assert all(np.array_equal(seen[0], o) for o in seen[1:])
    assert len({game.render_ansi(v, 1) for v in variants}) == 1
    assert len({game.render_rgb(v, 1).tobytes() for v in variants}) == 1
    assert not np.array_equal(game.observation_of(variants[0], 0), game.observation_of(variants[2], 0))
    assert game.decision_is_public(variants[2], R.A_SPELL + fire) is False



# ================================================================ spells that move their target (L1516, L1522, L485)
def _gate(S, tile, k):
    """A revealed Gate token in clearing k (1-based) of ``tile``."""
    s = S[0]
    w = next(i for i in range(len(R.WILD_GATE)) if R.WILD_GATE[i])
    s["wild_where"][w], s["wild_clearing"][w] = R.TOK_PLACED, TILE_IDS.index(tile) * 6 + k - 1
    return int(s["wild_clearing"][w])


def test_open_gate_puts_its_target_in_a_clearing_with_a_revealed_gate():
    """L1516: the Giant Spider hit by Open Gate is placed in a random clearing
    holding a revealed Gate (here the only one, Hag's Mire 2): out of the
    fight. With no Gate revealed it stays."""
    S, sp = wizard("open_gate", {"blue": 3})
    spider = chip(S, "giant_spider")
    in_combat(S)
    R.spell_hits(S, 0, 0, sp, spider, 1)
    assert int(S[0]["mon_clearing"][spider]) == TRI_PEAKS_1
    S = combat([("human", "sorcerer", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),),
               tiles=("tri_peaks", "hags_mire"))
    sp = learn(S, 0, "open_gate")
    gate = _gate(S, "hags_mire", 2)
    spider = chip(S, "giant_spider")
    in_combat(S)
    load(S, 0)
    R.spell_hits(S, 0, 0, sp, spider, 1)
    assert int(S[0]["mon_clearing"][spider]) == gate and not R.foe_here(S, 0, spider)


def test_teleport_sends_its_target_to_a_tile_the_caster_chooses_up_to_two_away():
    """L1522: the caster chooses a Map Tile up to two tiles away (his own
    included; Hag's Mire two east, not Murkwater Fen three); the spider lands
    in a clearing of it drawn at random."""
    S = combat([("human", "sorcerer", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),),
               tiles=("tri_peaks", "gloomhollow", "hags_mire", "murkwater_fen"))
    sp = learn(S, 0, "teleport")
    spider = chip(S, "giant_spider")
    in_combat(S)
    assert R.spell_hits(S, 0, 0, sp, spider, 1)
    assert int(S[0]["phase"]) == R.PH_TELEPORT_TILE and int(S[0]["to_play"]) == 0
    tiles = sorted(a - R.A_TILE for a in legal(S))
    assert tiles == sorted(TILE_IDS.index(t) for t in ("tri_peaks", "gloomhollow", "hags_mire"))
    load(S, 1)
    act(S, R.A_TILE + TILE_IDS.index("hags_mire"))
    assert int(S[0]["mon_clearing"][spider]) == TILE_IDS.index("hags_mire") * 6 + 1


def test_dd_move_tokens_2_a_hero_moved_into_a_new_tile_by_a_spell_gets_its_tokens_after_combat():
    """L485: a Hero entering a new tile by a spell during combat has its
    tokens placed only once all combat of the turn is over: the Knight,
    teleported by his friend to Hag's Mire (never entered), leaves the
    fight; the tile stays bare until the battle's combats are done."""
    S = combat([("human", "sorcerer", TRI_PEAKS_1), ("human", "knight", TRI_PEAKS_1)], tiles=("tri_peaks", "hags_mire"))
    sp = learn(S, 0, "teleport")
    mire = TILE_IDS.index("hags_mire")
    in_combat(S)
    assert R.spell_hits(S, 0, 0, sp, ME + 1, 1)
    load(S, 0)
    act(S, R.A_TILE + mire)
    s = S[0]
    assert int(s["hero_clearing"][1]) == mire * 6 and not C.fighting(S, 0, 1)
    assert int(s["tile_revealed"][mire]) == 0 and int(s["spell_moved"]) == 2
    for _ in range(400):                                  # the combats are played out, the first pick each time
        if int(s["stage"]) != ST_COMBAT:
            break
        act(S, legal(S)[0])
    assert int(s["tile_revealed"][mire]) == 1 and int(s["spell_moved"]) == 0




# ================================================================ the casting classes (L1216, L1220, L1226)
def _cast_done(cls, spell, cubes):
    """A hero of ``cls`` in combat whose ``spell`` was cast this round with
    ``cubes`` (colour -> count) on its card, the first colour on its
    wound-symbol box; his healthy Magic Cubes are those."""
    S, sp = wizard(spell, cubes, cls=cls)
    in_combat(S)
    s = S[0]
    s["cast_card"][0], s["cast_stage"][0] = sp, R.CAST_DONE
    for colour, n in cubes.items():
        s["cast_cubes"][0, D.MAGIC_COLOURS.index(colour)] = n
    s["cast_wound"][0] = D.MAGIC_COLOURS.index(next(iter(cubes)))
    return S


def _wounded(S, colour):
    return int(S[0]["cubes"][0, 1, R.CUBE_MAGIC + D.MAGIC_COLOURS.index(colour)])


def test_dd_class_druid_1_a_druid_spares_a_green_cube_on_the_wound_box():
    """L1216, L779: the Druid's Trail Blaze (green on its wound box) wounds
    no cube in Cleanup; a Sorcerer's does; the black cube on his Fiery
    Chasm's wound box is wounded."""
    S = _cast_done("druid", "trail_blaze", {"green": 2})
    C.spell_wounds(S, 0)
    assert _wounded(S, "green") == 0
    S = _cast_done("sorcerer", "trail_blaze", {"green": 2})
    C.spell_wounds(S, 0)
    assert _wounded(S, "green") == 1
    S = _cast_done("druid", "fiery_chasm", {"black": 5})
    C.spell_wounds(S, 0)
    assert _wounded(S, "black") == 1


def test_dd_class_illusionist_1_an_illusionist_spares_the_wound_cube_of_a_targeted_or_self_or_other_spell():
    """L1220, L779: the Illusionist's Affliction (targeted) and Trail Blaze
    (self or other) wound no cube; her Fiery Chasm (aimed at no one) does."""
    for spell, cubes, wounded in (("affliction", {"black": 1}, 0), ("trail_blaze", {"green": 2}, 0),
                                  ("fiery_chasm", {"black": 5}, 1)):
        S = _cast_done("illusionist", spell, cubes)
        C.spell_wounds(S, 0)
        assert _wounded(S, next(iter(cubes))) == wounded, spell


def test_dd_class_sorcerer_1_a_one_colour_spell_strikes_one_faster():
    """L1226: the Sorcerer's spell cast with Magic Cubes of one colour only
    has attack speed +1 (his two Speed Cubes: 3); cast with two colours, or
    by a Druid, it has none."""
    for cls, cubes, bonus in (("sorcerer", {"purple": 4}, 1), ("sorcerer", {"purple": 3, "green": 1}, 0),
                              ("druid", {"purple": 4}, 0)):
        S = _cast_done(cls, "fireball", cubes)
        S[0]["placed"][0, R.BOX_ATTACK] = 2
        assert R.specialized(S, 0, 0) == bonus
        assert C.hero_speed(S, 0, 0) == 2 + bonus + int(R.speed_given(S, 0, 0, R.BOX_ATTACK)) \
            + int(R.cube_on(S, 0, 0, R.TRICKY_RING)), cls

# ================================================================ Move Earth (L1546)
def _laid_so(S, u, side, rot):
    """Tile u, if laid ``side`` up and turned ``rot``, matches every placed
    neighbour path to path, non-path to non-path (read edge by edge)."""
    s = S[0]
    for d in range(6):
        v = [w for w in range(len(TILE_IDS)) if int(s["tile_where"][w]) == TW_PLACED
             and (int(s["tile_q"][w]), int(s["tile_r"][w])) == (int(s["tile_q"][u]) + int(R.DIR_DQ[d]),
                                                              int(s["tile_r"][u]) + int(R.DIR_DR[d]))]
        if v and R.path_toward(u, side, rot, d) != R.path_toward(v[0], int(s["tile_side"][v[0]]),
                                                                  int(s["tile_rot"][v[0]]), (d + 3) % 6):
            return False
    return True


def test_move_earth_turns_the_casters_tile_or_an_adjacent_one_for_good_edges_matching():
    """L1546: cast with three green cubes, Move Earth offers the caster's tile
    (Tri Peaks) and Gloomhollow beside it, not Hag's Mire two away.
    Gloomhollow may be laid, either side up, every way whose edges match Tri
    Peaks' and Hag's Mire's, and only those; laid flipped, it stays so, its
    blue enchantment and the Giant Bat in its clearing 2 unaffected; the
    Resolve step goes on."""
    glo = TILE_IDS.index("gloomhollow")
    S = combat([("human", "druid", TRI_PEAKS_1)], monsters=(("giant_bat", glo * 6 + 1),),
               tiles=("tri_peaks", "gloomhollow", "hags_mire"))
    sp = learn(S, 0, "move_earth")
    magic(S, 0, green=3)
    s = S[0]
    s["tile_enchant"][glo] = BLUE
    to_target_step(S)
    cast(S, 0, sp, R.BOX_ATTACK)
    while int(s["phase"]) == R.PH_SPELL_CUBE:
        act(S, R.A_CUBE + R.CUBE_MAGIC + GREEN)
    ask(S, R.PH_EARTH_TILE, 0)
    assert sorted(a - R.A_TILE for a in legal(S)) == sorted(TILE_IDS.index(t) for t in ("tri_peaks", "gloomhollow"))
    act(S, R.A_TILE + glo)
    ask(S, R.PH_EARTH_TURN, 0)
    ways = {(k // 6, k % 6) for k in range(12) if _laid_so(S, glo, k // 6, k % 6)}
    assert {((a - R.A_TURN) // 6, (a - R.A_TURN) % 6) for a in legal(S)} == ways
    flipped = sorted(w for w in ways if w[0] == 1)
    assert flipped, "some flipped way fits (the scene is chosen so)"
    act(S, R.A_TURN + flipped[-1][0] * 6 + flipped[-1][1])
    assert (int(s["tile_side"][glo]), int(s["tile_rot"][glo])) == flipped[-1]
    assert int(s["tile_enchant"][glo]) == BLUE and int(s["mon_clearing"][chip(S, "giant_bat")]) == glo * 6 + 1
    assert int(s["phase"]) not in (R.PH_EARTH_TILE, R.PH_EARTH_TURN) and int(s["earth_tile"]) == -1
    assert int(s["spell_shown"][sp]) == 1, "a cast spell is public"

# ================================================================ Monsters that cast (L1260-L1274), Confuse (L1590)
def _caster_foe(kind, flipped, more=(("giant_spider", TRI_PEAKS_1),), tiles=("tri_peaks",)):
    """A Knight in Tri Peaks 1 against ``kind`` (its back up if ``flipped``),
    which targets him, and ``more``; the combat at its Target step."""
    S = combat([("human", "knight", TRI_PEAKS_1)], monsters=((kind, TRI_PEAKS_1),) + tuple(more), tiles=tiles)
    f = chip(S, kind)
    S[0]["mon_flipped"][f] = flipped
    in_combat(S)
    S[0]["foe_target"][f] = 0
    return S, f


def test_dd_monster_demon_1_the_demons_fiery_chasm_spares_only_the_flying_demon():
    """L1262, L1508: the Demon's back casts Fiery Chasm at its speed 4: the
    Giant Spider (maneuver 2) and the Knight are hit and killed -- the
    spider's chip goes to no one -- and the flying Demon is not attacked."""
    S, demon = _caster_foe("demon", 1)
    spider = chip(S, "giant_spider")
    assert C.foe_can_strike(S, 0, demon)
    R.monster_cast(S, 0, demon)
    assert int(S[0]["mon_clearing"][spider]) == MON_TRAY and int(S[0]["fame"][0]) == 0
    assert int(S[0]["hero_state"][0]) == R.HS_DEAD
    assert int(S[0]["mon_clearing"][demon]) == TRI_PEAKS_1


def test_dd_monster_titan_1_the_titan_teleports_its_target_by_the_summoning_dice():
    """L1274: the Titan's front casts Teleport on its target; hit (speed 3
    above the unmaneuvering Knight's), he goes to the tile both Summoning
    symbol dice name -- Wicked Woods and the eye: Hag's Mire -- and the
    clearing a d6 names (3), out of the fight."""
    S, titan = _caster_foe("titan", 0, more=(), tiles=("tri_peaks", "hags_mire"))
    assert C.foe_can_strike(S, 0, titan)
    load(S, 2, 3, 2)                                      # gray: Wicked Woods; black: eye; d6: 3
    R.monster_cast(S, 0, titan)
    assert int(S[0]["hero_clearing"][0]) == TILE_IDS.index("hags_mire") * 6 + 2
    assert not C.fighting(S, 0, 0) and int(S[0]["spell_moved"]) == 1


def test_dd_spell_confuse_1_a_confused_caster_casts_no_more_and_loses_its_pending_cast():
    """L1590: Confuse hits the Titan: its Teleport, not yet resolved this
    round, is canceled, and it may not cast while Confuse lasts."""
    S, titan = _caster_foe("titan", 0, more=(), tiles=("tri_peaks", "hags_mire"))
    sp = learn(S, 0, "confuse")
    R.spell_hits(S, 0, 0, sp, titan, 1)
    assert int(S[0]["foe_flags"][titan]) & C.FF_ATTACKED and not C.foe_can_strike(S, 0, titan)
    S[0]["foe_flags"][titan] = 0                          # a new round: still confused
    assert not C.foe_can_strike(S, 0, titan) and int(S[0]["spell_on"][sp]) == titan


# ================================================================ the Air Sword (L1520)
def test_air_sword_fights_from_the_next_round_and_its_kills_are_the_casters():
    """L1520: cast, the Air Sword is in play from the next Combat Round: a
    sword of might 2 and one sword icon, speed 2 and length 6, striking its
    caster's target -- the Giant Spider (health 2, unarmoured, maneuver 2:
    a tie, Hit Dice rolled) takes 3 and dies, the caster taking it."""
    S, sp = wizard("air_sword", {"blue": 4})
    spider = chip(S, "giant_spider")
    in_combat(S)
    s = S[0]
    s["cast_card"][0], s["cast_stage"][0] = sp, R.CAST_PLACED
    R.cast_spell(S, 0, 0)
    assert int(s["spell_on"][sp]) == ME + 0 and R.air_sword(S, 0, 0) == -1     # not this round
    s["combat_round"] += 1
    assert R.air_sword(S, 0, 0) == sp
    s["hero_target"][0] = spider
    assert R.sword_ready(S, 0, 0) and R.sword_speed(S, 0, 0) == 2
    load(S, HIT, HIT)
    R.sword_attack(S, 0, 0)
    assert int(s["mon_clearing"][spider]) == MON_TAKEN and int(s["mon_taker"][spider]) == 0
    assert not R.sword_ready(S, 0, 0)                     # one attack a round


def test_air_sword_lets_its_caster_target_a_foe_without_a_weapon():
    """L1520, L709: with the sword in play a hero may target a foe for it
    even without a weapon he may use."""
    S, sp = wizard("air_sword", {"blue": 4})
    s = S[0]
    for c in range(len(s["card_where"])):                 # no weapon equipped
        if int(s["card_where"][c]) == CW_HERO and int(s["card_owner"][c]) == 0 and int(s["card_slot"][c]) < 4:
            s["card_slot"][c] = R.T_BACKPACK
    s["spell_where"][sp], s["spell_on"][sp], s["spell_mark"][sp] = R.SPW_KNOWN, ME + 0, -1
    to_target_step(S)
    spider = chip(S, "giant_spider")
    assert R.A_FOE + spider in legal(S)


def test_air_sword_vanishes_with_its_caster_and_a_hidden_caster_rolls_to_stay_hidden():
    """L1520: the sword is removed when its caster leaves (here he evades:
    his combat spells end, L1042); while it is in play a hidden caster rolls
    to stay hidden at the end of each round -- a Monster symbol, and he is
    seen."""
    S, sp = wizard("air_sword", {"blue": 4})
    s = S[0]
    in_combat(S)
    s["spell_on"][sp], s["spell_mark"][sp] = ME + 0, 0
    R.end_combat_spells(S, 0, 0, ME + 0)
    assert int(s["spell_on"][sp]) == -1
    S, sp = wizard("air_sword", {"blue": 4})
    s = S[0]
    in_combat(S)
    s["spell_on"][sp], s["spell_mark"][sp] = ME + 0, 0
    s["hero_status"][0] |= HST_HIDDEN
    load(S, 0, 0)                                         # two Monster symbols
    C.end_of_round(S, 0)
    assert not int(s["hero_status"][0]) & HST_HIDDEN


# ================================================================ permanent spells (L1046-L1061, L695-L698): Dark Matter (L1502)
def _dark(monster="ogre", black=2):
    """A Warlock in Tri Peaks 1 who knows Dark Matter, against ``monster``."""
    S, sp = wizard("dark_matter", {"black": black}, cls="warlock", monsters=((monster, TRI_PEAKS_1),))
    return S, sp, chip(S, monster)


def test_dd_spell_dark_matter_1_swaps_might_and_attack_speed_and_ignores_swords():
    """L1502: a Monster hit by Dark Matter swaps its might (the red cube's
    damage) and its attack speed and ignores its sword icons, while the
    spell is active."""
    S, sp, ogre = _dark()
    speed, damage = C.foe_value(S, 0, ogre, R.SD_SPEED), C.foe_value(S, 0, ogre, R.SD_DAMAGE)
    in_combat(S)
    R.spell_hits(S, 0, 0, sp, ogre, 1)
    assert R.permanent_active(S, 0, sp)
    assert (C.foe_value(S, 0, ogre, R.SD_SPEED), C.foe_value(S, 0, ogre, R.SD_DAMAGE)) == (damage, speed)
    assert C.foe_value(S, 0, ogre, R.SD_SWORDS) == 0


def test_dd_spell_dark_matter_2_a_casting_monster_attacks_at_its_spells_box_count():
    """L1502: the Titan's front casts Teleport (five boxes): under Dark Matter
    it attacks at speed 5 with might its old speed (3), in melee."""
    S, sp, titan = _dark("titan")
    in_combat(S)
    R.spell_hits(S, 0, 0, sp, titan, 1)
    assert C.foe_value(S, 0, titan, R.SD_ATTACK) == R.ATK_MELEE
    assert C.foe_value(S, 0, titan, R.SD_SPEED) == 5 and C.foe_value(S, 0, titan, R.SD_DAMAGE) == 3


def test_dd_magic_permanent_3_inactive_from_the_next_battle_phase_and_activated_by_a_cube():
    """L1055, L1602: the active Dark Matter turns inactive as the next
    turn's combat begins (the Ogre is itself again); L695: in the Activation
    step its caster may wound a black Magic Cube to make it active again."""
    S, sp, ogre = _dark()
    s = S[0]
    s["spell_where"][sp], s["spell_owner"][sp], s["spell_on"][sp], s["spell_mark"][sp] = R.SPW_KNOWN, 0, ogre, R.PERM_ACTIVE
    speed = int(R.FOE_SIDE[ogre, 0, R.SD_SPEED])
    start(S)                                              # a fresh battle phase: inactive
    assert not R.permanent_active(S, 0, sp) and C.foe_value(S, 0, ogre, R.SD_SPEED) == speed
    while int(s["phase"]) == R.PH_UNHIDE:
        act(S, R.A_DO + R.DO_STAY)
    ask(S, R.PH_ACTIVATE, 0)
    assert legal(S) == sorted([R.A_SPELL + sp, R.A_DO + R.DO_DONE])
    black = int(s["cubes"][0, 0, R.CUBE_MAGIC + BLACK])
    act(S, R.A_SPELL + sp)
    assert R.permanent_active(S, 0, sp) and int(s["cubes"][0, 0, R.CUBE_MAGIC + BLACK]) == black - 1
    assert int(s["cubes"][0, 1, R.CUBE_MAGIC + BLACK]) == 1 and int(s["phase"]) != R.PH_ACTIVATE


def test_dd_combat_activation_2_in_a_tile_enchanted_in_its_colour_it_is_active_without_a_cube():
    """L697, L577, L1051: the Ogre stands in a tile enchanted black: the
    inactive Dark Matter on it is active at once, no cube wounded, and the
    Activation step asks nothing."""
    S, sp, ogre = _dark()
    s = S[0]
    s["spell_where"][sp], s["spell_owner"][sp], s["spell_on"][sp], s["spell_mark"][sp] = R.SPW_KNOWN, 0, ogre, 0
    s["tile_enchant"][TRI_PEAKS_1 // 6] = BLACK
    R.enchant_permanents(S, 0)
    assert R.permanent_active(S, 0, sp) and not R.activatable(S, 0, 0, sp)


def test_dd_combat_activation_3_no_cube_for_a_spell_affecting_another_hero():
    """L698: a hero may not wound a cube to activate an inactive permanent
    spell of his that affects another hero; on a Monster, or on himself, he may."""
    S, sp, ogre = _dark()
    s = S[0]
    s["spell_where"][sp], s["spell_owner"][sp], s["spell_mark"][sp] = R.SPW_KNOWN, 0, 0
    s["hero_state"][1] = R.HS_ACTIVE
    s["spell_on"][sp] = ME + 1
    assert not R.activatable(S, 0, 0, sp)
    s["spell_on"][sp] = ME + 0
    assert R.activatable(S, 0, 0, sp)
    s["spell_on"][sp] = ogre
    assert R.activatable(S, 0, 0, sp)


def test_dd_magic_permanent_4_a_broken_permanent_spell_goes_back_to_its_caster():
    """L1055, L1059-L1061: Break Spells on its target, or the target's death,
    breaks Dark Matter; its card is its caster's to cast again."""
    S, sp, ogre = _dark()
    s = S[0]
    s["spell_where"][sp], s["spell_owner"][sp], s["spell_on"][sp], s["spell_mark"][sp] = R.SPW_KNOWN, 0, ogre, R.PERM_ACTIVE
    breaker = learn(S, 0, "break_spells")
    in_combat(S)
    R.spell_hits(S, 0, 0, breaker, ogre, 1)
    assert int(s["spell_on"][sp]) == -1 and int(s["spell_owner"][sp]) == 0
    s["spell_on"][sp], s["spell_mark"][sp] = ogre, R.PERM_ACTIVE
    R.monster_killed(S, 0, ogre, 0)
    assert int(s["spell_on"][sp]) == -1
