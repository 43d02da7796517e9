"""Cubes of the other kind in Hero Tactics (L1308-L1314, L1482, L1504): the
Bracelets of Finesse, the Bracers of Vigor, the Cape of Alteration, the
Warblade, and Dark Matter on a Hero.

A placed cube's kind is ``placed_cross``: of the cubes in each box
(``placed``), those of the other kind -- Speed Cubes in the weapon's might
boxes, Might Cubes in the attack and maneuver speed boxes. A_BOX + box places
a cube of the box's colour, A_CROSS + box one of the other kind.
"""
import numpy as np

from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import CUBE_MIGHT, CUBE_SPEED, T_HANDS, T_NECK, T_WEAPON1
from dragongym.envs.dragons_down.rules import combat as C
from tests.dragons_down.combat_test import act
from tests.dragons_down.setup_test import legal
from tests.dragons_down.spells_test import _dark, in_combat
from dragongym.envs.dragons_down import soundness
from tests.dragons_down.treasures_test import DONE, _fighter, _tactics

MIGHT_BOX, ATTACK_BOX, MANEUVER_BOX = R.BOX_MIGHT, R.BOX_ATTACK, R.BOX_MANEUVER


def sound(S):
    """The hero's placements keep soundness's invariant: no box holds more
    cubes of the other kind than cubes, and he places no more Might or Speed
    Cubes than he has healthy."""
    problem = soundness.placement_problem(S[0], 0)
    assert problem == "", problem


def box(x):
    return R.A_BOX + x


def cross(x):
    return R.A_CROSS + x


def crossings(S):
    return [x for x in range(R.NUM_BOXES) if cross(x) in legal(S)]


def free(S, kind):
    return int(R.unplaced(S, 0, 0, kind))


def test_without_a_treasure_every_cube_goes_in_a_box_of_its_colour():
    """L714-L718: Might Cubes only in might boxes, Speed Cubes only in speed boxes."""
    S, _, ogre = _fighter()
    _tactics(S, ogre)
    assert crossings(S) == [] and box(MIGHT_BOX) in legal(S) and box(ATTACK_BOX) in legal(S)


def test_dd_treasure_bracelets_of_finesse_1_one_might_cube_in_a_speed_box_within_the_limit():
    """L1308: the Knight (3 Might, 3 Speed) wearing the Bracelets puts one
    healthy Might Cube in his attack speed box: it counts as attack speed and
    against the cube limit; a second may not follow, in either speed box."""
    S, _, ogre = _fighter("bracelets_of_finesse", T_HANDS)
    _tactics(S, ogre)
    assert crossings(S) == [ATTACK_BOX, MANEUVER_BOX]
    act(S, cross(ATTACK_BOX))
    assert tuple(S[0]["placed"][0]) == (0, 1, 0) and tuple(S[0]["placed_cross"][0]) == (0, 1, 0)
    assert free(S, CUBE_MIGHT) == 2 and free(S, CUBE_SPEED) == 3 and int(R.cubes_placed(S, 0, 0)) == 1
    assert crossings(S) == []
    sound(S)


def test_dd_treasure_bracelets_of_finesse_1_the_cube_limit_still_holds():
    """L1308: "This cube counts against the Combat Round limit": with five
    cubes placed the Bracelets' cube may not go in."""
    S, _, ogre = _fighter("bracelets_of_finesse", T_HANDS)
    _tactics(S, ogre)
    for a in (box(MIGHT_BOX), box(MIGHT_BOX), box(ATTACK_BOX), box(ATTACK_BOX), box(ATTACK_BOX)):
        act(S, a)
    assert int(R.cubes_placed(S, 0, 0)) == 5 and crossings(S) == []


def test_dd_treasure_bracers_of_vigor_1_one_speed_cube_in_a_might_box():
    """L1310: the Bracers let one healthy Speed Cube fill the long sword's
    mandatory might box; his attack is ready with it; a second Speed Cube may
    not follow, and no Might Cube goes in a speed box."""
    S, _, ogre = _fighter("bracers_of_vigor", T_HANDS)
    _tactics(S, ogre)
    assert crossings(S) == [MIGHT_BOX]
    act(S, cross(MIGHT_BOX))
    assert R.hero_attack_ready(S, 0, 0) and DONE in legal(S)
    assert free(S, CUBE_SPEED) == 2 and free(S, CUBE_MIGHT) == 3
    assert crossings(S) == [] and box(MIGHT_BOX) in legal(S)
    sound(S)


def test_dd_treasure_cape_of_alteration_1_might_cubes_only_in_speed_boxes_speed_cubes_only_in_might_boxes():
    """L1314: with the Cape every cube crosses: no cube of a box's own colour
    is offered; Speed Cubes fill the might boxes and Might Cubes the speed
    boxes, as many as the boxes and his cubes allow."""
    S, _, ogre = _fighter("cape_of_alteration", T_NECK)
    _tactics(S, ogre)
    assert [x for x in range(R.NUM_BOXES) if box(x) in legal(S)] == []
    assert crossings(S) == [MIGHT_BOX, ATTACK_BOX, MANEUVER_BOX]
    act(S, cross(MIGHT_BOX))
    act(S, cross(MIGHT_BOX))                    # both of the long sword's boxes hold Speed Cubes
    act(S, cross(ATTACK_BOX))
    act(S, cross(ATTACK_BOX))
    assert tuple(S[0]["placed_cross"][0]) == tuple(S[0]["placed"][0]) == (2, 2, 0)
    assert free(S, CUBE_SPEED) == 1 and free(S, CUBE_MIGHT) == 1
    assert R.weapon_might(S, 0, 0, R.hero_weapon(S, 0, 0)) == 2 and R.hero_attack_ready(S, 0, 0)
    sound(S)


def test_dd_treasure_cape_of_alteration_1_evasion_counts_might_cubes():
    """L1314, L700: his maneuver speed boxes take Might Cubes, so he evades
    with as many of them as the boxes hold."""
    S, _, _ = _fighter("cape_of_alteration", T_NECK)
    s = S[0]
    s["cubes"][0, 0, CUBE_SPEED] = 0
    assert C.evade_cubes(S, 0, 0) == min(int(s["cubes"][0, 0, CUBE_MIGHT]), C.speed_boxes(S, 0, 0, MANEUVER_BOX))
    assert C.evade_cubes(S, 0, 0) > 0


def test_dd_treasure_warblade_1_one_speed_cube_fills_its_required_box():
    """L1482: the Warblade requires one Speed Cube in lieu of a Might Cube:
    its required box takes a Speed Cube (and adds to its might), its two
    optional boxes Might Cubes; Might Cubes never take the Speed Cube's box,
    and the attack is not ready, nor the placing done, without it."""
    S, blade, ogre = _fighter("warblade", T_WEAPON1)
    _tactics(S, ogre)
    assert R.hero_weapon(S, 0, 0) == blade and tuple(R.might_open(S, 0, 0, blade)) == (1, 3)
    act(S, box(MIGHT_BOX))
    act(S, box(MIGHT_BOX))
    assert box(MIGHT_BOX) not in legal(S)               # the third box waits for a Speed Cube
    assert not R.hero_attack_ready(S, 0, 0) and DONE not in legal(S)
    act(S, cross(MIGHT_BOX))
    assert R.hero_attack_ready(S, 0, 0) and DONE in legal(S)
    assert R.weapon_might(S, 0, 0, blade) == 3 and free(S, CUBE_SPEED) == 2
    sound(S)


def test_dd_treasure_warblade_1_wounding_its_speed_cube_cancels_the_attack():
    """L1482, L791: the Speed Cube taken from the Warblade's required box
    leaves it empty, and the attack not yet made is canceled."""
    S, blade, ogre = _fighter("warblade", T_WEAPON1)
    _tactics(S, ogre)
    act(S, cross(MIGHT_BOX))
    act(S, box(MIGHT_BOX))
    assert R.hero_attack_ready(S, 0, 0)
    out = np.zeros(R.WOUND_CHOICES, dtype=np.int64)
    choices = list(out[:R.wound_choices(S, 0, 0, out)])
    assert cross(MIGHT_BOX) in choices and box(MIGHT_BOX) in choices
    R.apply_wound(S, 0, 0, cross(MIGHT_BOX))
    assert int(S[0]["cubes"][0, 1, CUBE_SPEED]) == 1 and not R.hero_attack_ready(S, 0, 0)
    sound(S)


def test_dd_spell_dark_matter_3_a_hero_so_hit_plays_might_in_speed_boxes_and_speed_in_might_boxes():
    """L1504: a Warlock may aim Dark Matter at himself (its swap may serve
    him; Interpretations) but at no other Hero without Player vs. Player;
    hit, his cubes cross like the Cape's: Speed Cubes only in might boxes,
    Might Cubes only in speed boxes."""
    S, sp, ogre = _dark()
    in_combat(S)
    k = int(R.SPELL_KIND[sp])
    assert R.aim_ok(S, 0, 0, k, R.AIM_HERO + 0) and R.aim_ok(S, 0, 0, k, ogre)
    R.spell_hits(S, 0, 0, sp, R.AIM_HERO + 0, 1)
    assert R.permanent_active(S, 0, sp) and R.altered(S, 0, 0)


def test_dd_spell_dark_matter_3_unresolved_attacks_swap_their_cubes_at_once():
    """L1504: "Unresolved attacks swap Speed Cubes and Might Cubes
    immediately ... and may alter or cancel attacks": the Warlock with two
    cubes in his might boxes and three in his speed boxes, holding 1 Might
    and 3 Speed Cubes, keeps two Speed Cubes in the might boxes and one Might
    Cube in the attack box; the maneuver box empties (Interpretations)."""
    S, sp, ogre = _dark()
    in_combat(S)
    s = S[0]
    s["cubes"][0, 0, CUBE_MIGHT], s["cubes"][0, 0, CUBE_SPEED] = 2, 3
    s["placed"][0] = (2, 1, 2)
    R.spell_hits(S, 0, 0, sp, R.AIM_HERO + 0, 1)
    assert tuple(s["placed"][0]) == (2, 1, 1) and tuple(s["placed_cross"][0]) == (2, 1, 1)
    s["cubes"][0, 0, CUBE_MIGHT] = 1
    s["placed"][0], s["placed_cross"][0] = (2, 1, 2), (0, 0, 0)
    R.realign_cubes(S, 0, 0)
    assert tuple(s["placed"][0]) == (2, 1, 0) and tuple(s["placed_cross"][0]) == (2, 1, 0)


def test_the_crossed_cubes_come_off_in_cleanup():
    """L779: at the end of the round every placed cube, of either kind, comes off."""
    S, _, ogre = _fighter("bracers_of_vigor", T_HANDS)
    _tactics(S, ogre)
    act(S, cross(MIGHT_BOX))
    act(S, DONE)
    first = int(S[0]["combat_round"])
    for _ in range(50):
        if int(S[0]["combat_round"]) != first or int(S[0]["combat_step"]) == C.CS_NONE:
            break
        act(S, legal(S)[0])
    assert int(S[0]["combat_round"]) != first or int(S[0]["combat_step"]) == C.CS_NONE
    assert S[0]["placed_cross"].sum() == 0 and S[0]["placed"].sum() == 0
