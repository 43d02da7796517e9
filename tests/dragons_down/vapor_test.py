"""Vapor Form (L1536), the permanent spell it is (L1046-L1063) and the Lich
that casts it (L1270). In combat on Tri Peaks (``combat_test``); in the
action phase on Deepdelve (``actions_test``: side 1 has Plains 1, Cave 2,
Plains 3 and Mountains 4, paths 1-2, 2-3, 3-4 and 1-3, and a Hidden Path
from Cave 2 to Mountains 4)."""
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import HST_BLOCKED, MON_TRAY, NUM_SPELLS, TILE_IDS
from dragongym.envs.dragons_down.rules import combat as C
from tests.dragons_down.actions_test import CAVE_2, MOUNTAINS_4, PLAINS_1, act, moves, put_monster
from tests.dragons_down.combat_test import TRI_PEAKS_1, chip, combat, load, start
from tests.dragons_down.setup_test import legal
from tests.dragons_down.spells_test import GRAY, ME, in_combat, learn, magic
from tests.dragons_down.trade_test import give
from tests.dragons_down.trade_test import start as start_turn

TRI_PEAKS = TILE_IDS.index("tri_peaks")
DEEPDELVE = TILE_IDS.index("deepdelve")


def vapor_on(S, caster, target, active=True):
    """The caster's Vapor Form lies on ``target`` (a target code), active or not."""
    sp = learn(S, caster, "vapor_form")
    S[0]["spell_on"][sp] = target
    S[0]["spell_mark"][sp] = R.PERM_ACTIVE if active else 0
    return sp


# ================================================================ the hit (L1536)
def test_dd_spell_vapor_form_1_a_monster_hit_becomes_vapor_and_leaves_the_fight():
    """L1536: the Giant Spider hit by Vapor Form takes no part in the combat
    any more (no longer a foe here, its target forgotten, its wounds gone)
    and may not block; the spell is permanent, active as cast."""
    S = combat([("human", "illusionist", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),))
    sp = learn(S, 0, "vapor_form")
    magic(S, 0, gray=5)
    spider = chip(S, "giant_spider")
    in_combat(S)
    s = S[0]
    s["foe_target"][spider], s["foe_wounds"][spider] = 0, 1
    assert C.foe_here(S, 0, spider) and R.blocking_monsters(S, 0, TRI_PEAKS_1) == 1
    R.spell_hits(S, 0, 0, sp, spider, 1)
    assert int(s["spell_on"][sp]) == spider and R.permanent_active(S, 0, sp)
    assert not C.foe_here(S, 0, spider) and int(s["foe_target"][spider]) == -1 and int(s["foe_wounds"][spider]) == 0
    assert R.blocking_monsters(S, 0, TRI_PEAKS_1) == 0 and R.monsters_in(S, 0, TRI_PEAKS_1) == 1


def test_dd_spell_vapor_form_1_a_hero_hit_leaves_the_fight_his_possessions_inactive_in_place():
    """L1536: the Illusionist casts Vapor Form on herself (her own target, a
    sure hit): she is out of the fight (the spider targeting her forgets
    her), her equipped Dagger stays where it is but is inactive, and a
    possession's power (the Taper of Illumination) no longer acts."""
    S = combat([("human", "illusionist", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),))
    sp = learn(S, 0, "vapor_form")
    spider = chip(S, "giant_spider")
    taper = give(S, 0, "taper_of_illumination", slot=R.T_MISC1)
    in_combat(S)
    s = S[0]
    s["foe_target"][spider] = 0
    kind = int(R.CARD_KIND[taper])
    assert R.kind_equipped(S, 0, 0, kind) == 1 and R.possesses(S, 0, 0, kind) and C.fighting(S, 0, 0)
    R.spell_hits(S, 0, 0, sp, ME + 0, 1)
    assert R.vapor(S, 0, ME + 0) and not C.fighting(S, 0, 0) and int(s["foe_target"][spider]) == -1
    assert R.kind_equipped(S, 0, 0, kind) == 0 and int(s["card_slot"][taper]) == R.T_MISC1
    assert not R.possesses(S, 0, 0, kind)


def test_dd_spell_vapor_form_2_vapor_only_explores_and_moves_along_every_hidden_path_unblocked():
    """L1536: a vapor hero may only Explore and Move (and Pass): no Sneak,
    Noise, Alert, rest, search, one-time card. From Cave 2 the Hidden Path to
    Mountains 4, never found, is his to use, and stays unfound; the Giant
    Spider in Cave 2 does not block him."""
    S, p = start_turn(lineages=("halfling",))
    s = S[0]
    potion = give(S, p, "potion_of_healing")
    s["cubes"][p, 1, 0] = 1                                   # a wounded cube: a rest and the potion would be open
    before = legal(S)
    assert R.A_DO + R.DO_SNEAK in before and R.A_CARD + potion in before
    explores = {a for a in before if R.A_EXPLORE <= a < R.A_EXPLORE + 6}
    vapor_on(S, p, ME + p)
    assert set(legal(S)) == {R.A_CLEARING + c for c in moves(S)} | {R.A_DO + R.DO_PASS} | explores
    assert moves(S) == sorted([CAVE_2, 2 + PLAINS_1])        # Plains 1's paths: 1-2, 1-3
    put_monster(S, "giant_spider", CAVE_2)
    act(S, R.A_CLEARING + CAVE_2)
    assert not int(s["hero_status"][p]) & HST_BLOCKED and int(s["phase"]) == R.PH_ACTION
    assert MOUNTAINS_4 in moves(S) and PLAINS_1 in moves(S)
    h = R.hidden_index(S, 0, DEEPDELVE, 0)
    act(S, R.A_CLEARING + MOUNTAINS_4)
    assert int(s["hero_clearing"][p]) == MOUNTAINS_4 and int(s["hidden_found"][p, h]) == 0


def test_a_hero_not_vapor_does_not_see_the_hidden_path_he_has_not_found():
    """L515, against L1536: without Vapor Form the unfound Hidden Path from
    Cave 2 to Mountains 4 is no way for him."""
    S, p = start_turn(lineages=("halfling",))
    act(S, R.A_CLEARING + CAVE_2)
    assert MOUNTAINS_4 not in moves(S)


# ================================================================ permanent: active, inactive, broken (L1046-L1063)
def test_dd_magic_example_1_vapor_form_returns_in_a_gray_tile_and_lasts_the_battle_phase_there():
    """L1063: the Illusionist's Vapor Form on herself is inactive; moving
    into a tile enchanted with gray magic she is vapor at once (after that
    very action). At the battle phase she is still in gray magic: it stays
    active and she takes no part in the combat of her clearing, though a
    Monster is there. Out of gray magic it turns inactive as the battle
    phase begins and she fights."""
    S, p = start_turn(lineages=("halfling",), classes=("illusionist",))
    s = S[0]
    sp = vapor_on(S, p, ME + p, active=False)
    assert not R.vapor(S, 0, ME + p)
    s["tile_enchant"][DEEPDELVE] = GRAY
    act(S, R.A_CLEARING + CAVE_2)
    assert R.vapor(S, 0, ME + p) and R.permanent_active(S, 0, sp)
    for gray, fights in ((True, False), (False, True)):
        S = combat([("human", "illusionist", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),))
        vapor_on(S, 0, ME + 0)
        if gray:
            S[0]["tile_enchant"][TRI_PEAKS] = GRAY
        start(S)
        assert R.vapor(S, 0, ME + 0) == gray
        assert (int(S[0]["hero_combat"][0]) == C.HC_FIGHTING) == fights


def test_dd_magic_permanent_5_the_caster_can_neither_revoke_nor_recast_it():
    """L1057, L1026: while his Vapor Form lies (here inactive, on a Giant
    Spider) the caster may not cast that card again -- the only use of it
    he has, where a Break Spells he knows may be cast -- and it stays in
    play through the combat's end and the next battle phase's start."""
    S = combat([("human", "illusionist", TRI_PEAKS_1)], monsters=(("giant_spider", TRI_PEAKS_1),))
    spider = chip(S, "giant_spider")
    sp = vapor_on(S, 0, spider, active=False)
    other = learn(S, 0, "break_spells")
    magic(S, 0, gray=5)
    in_combat(S)
    assert R.may_cast(S, 0, 0, other) and not R.may_cast(S, 0, 0, sp)
    C.end_of_combat(S, 0)
    R.deactivate_permanents(S, 0)
    assert int(S[0]["spell_on"][sp]) == spider


def test_dd_magic_permanent_6_broken_by_the_targets_death_break_spells_or_the_potion_of_relief():
    """L1059-L1061, L1388: a permanent spell breaks when its target dies
    (the card back to its caster), when Break Spells hits it, and by the
    Potion of Relief, which also ends the Lich's Vapor Form (no card)."""
    S = combat([("human", "illusionist", TRI_PEAKS_1), ("human", "knight", TRI_PEAKS_1)])
    sp = vapor_on(S, 0, ME + 1, active=False)
    R.kill_hero(S, 0, 1)
    assert int(S[0]["spell_on"][sp]) == -1 and int(S[0]["spell_where"][sp]) == R.SPW_KNOWN
    S = combat([("human", "illusionist", TRI_PEAKS_1), ("human", "knight", TRI_PEAKS_1)])
    sp = vapor_on(S, 0, ME + 1, active=False)
    breaker = learn(S, 0, "break_spells")
    S[0]["lich_vapor"][1] = R.LICH_VAPOR_ON
    R.spell_hits(S, 0, 0, breaker, ME + 1, 1)
    assert int(S[0]["spell_on"][sp]) == -1 and int(S[0]["lich_vapor"][1]) == 0
    S, p = start_turn(lineages=("halfling",))
    sp = vapor_on(S, p, ME + p, active=False)
    S[0]["lich_vapor"][p] = R.LICH_VAPOR_ON
    relief = give(S, p, "potion_of_relief")
    act(S, R.A_CARD + relief)
    assert int(S[0]["spell_on"][sp]) == -1 and int(S[0]["lich_vapor"][p]) == 0


# ================================================================ the Lich (L1270)
def test_dd_monster_lich_1_the_lich_casts_vapor_form_on_its_target():
    """L1270: the Lich's back casts Vapor Form on its target (the Knight:
    speed 3 above his maneuver, a hit), not on itself; he is vapor, out of
    the fight; the spell has no card, it is the Lich's; gray magic brings it
    back after it turns inactive."""
    S = combat([("human", "knight", TRI_PEAKS_1)], monsters=(("lich", TRI_PEAKS_1),))
    lich = chip(S, "lich")
    S[0]["mon_flipped"][lich] = 1
    in_combat(S)
    S[0]["foe_target"][lich] = 0
    assert C.foe_can_strike(S, 0, lich)
    R.monster_cast(S, 0, lich)
    assert R.vapor(S, 0, ME + 0) and not C.fighting(S, 0, 0) and not R.vapor(S, 0, lich)
    assert all(int(S[0]["spell_on"][sp]) != ME + 0 for sp in range(NUM_SPELLS))
    R.deactivate_permanents(S, 0)
    assert not R.vapor(S, 0, ME + 0) and int(S[0]["lich_vapor"][0]) == R.LICH_VAPOR_ON
    S[0]["tile_enchant"][TRI_PEAKS] = GRAY
    R.enchant_permanents(S, 0)
    assert R.vapor(S, 0, ME + 0)


def test_the_lich_casts_at_another_target_each_round():
    """L1270: "a new target every Combat Round": with the Knight vapor, the
    Lich targeting the Archer next round makes him vapor too."""
    S = combat([("human", "knight", TRI_PEAKS_1), ("human", "archer", TRI_PEAKS_1)],
               monsters=(("lich", TRI_PEAKS_1),))
    lich = chip(S, "lich")
    S[0]["mon_flipped"][lich] = 1
    in_combat(S)
    S[0]["foe_target"][lich] = 0
    load(S, 0, 0, 0, 0)
    R.monster_cast(S, 0, lich)
    S[0]["foe_flags"][lich] = 0
    S[0]["foe_target"][lich] = 1
    R.monster_cast(S, 0, lich)
    assert R.vapor(S, 0, ME + 0) and R.vapor(S, 0, ME + 1)
    assert int(S[0]["mon_clearing"][lich]) != MON_TRAY


def test_a_vapor_hero_is_shown_as_such():
    """Public (L1048): the text names the Lich's Vapor Form on the Knight."""
    from dragongym.envs.dragons_down import view as V
    S = combat([("human", "knight", TRI_PEAKS_1)])
    S[0]["lich_vapor"][0] = R.LICH_VAPOR_ON
    assert V.spells_on(S, ME + 0) == ["Vapor Form, the Lich's (inactive)"]
