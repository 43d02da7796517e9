"""Monster activation (L615-L641), with the rulebook's example (L643-L672)."""
import numpy as np


from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CLASS_IDS, HS_ACTIVE, HST_HIDDEN, HST_NOISE, HST_SNEAK, LINEAGE_IDS, MON_TRAY,
    MONSTER_CHIP_KINDS, MONSTER_IDS, ST_ACTIVATION, ST_BATTLE, ST_COMBAT, TILE_IDS, TW_PLACED,
)
from dragongym.envs.dragons_down.state import STATE_DTYPE
from tests.dragons_down.setup_test import fresh_magic, legal


def clearing(tile, k):
    """Clearing k (1-based, as printed) of the tile named ``tile``."""
    return TILE_IDS.index(tile) * 6 + k - 1


def battle(tiles, heroes, monsters=(), dice=(), lineage="human"):
    """A realm of ``tiles`` (side 1 up), heroes ``(class, clearing)`` in Turn
    Order, ``monsters`` ``(kind, clearing)`` already on the map, and the
    Summoning Dice loaded as raw faces; at the start of the battle phase."""
    S = np.zeros(1, dtype=STATE_DTYPE)
    s = S[0]
    s["num_players"] = len(heroes)
    s["legend_target"] = 20                     # the rules' Legendary race (L166)
    fresh_magic(s)
    s["mon_clearing"][:] = MON_TRAY
    s["site_clearing"][:] = -1
    for i, t in enumerate(tiles):
        u = TILE_IDS.index(t)
        s["tile_where"][u] = TW_PLACED
        s["tile_q"][u], s["tile_r"][u] = i, 0
    s["turn_order"][:] = -1
    for p, (cls, c) in enumerate(heroes):
        s["hero_state"][p] = HS_ACTIVE
        s["hero_class"][p] = CLASS_IDS.index(cls)
        s["hero_lineage"][p] = LINEAGE_IDS.index(lineage)
        s["hero_clearing"][p] = c
        s["turn_order"][p] = p
    for kind, c in monsters:
        m = next(m for m in range(len(MONSTER_CHIP_KINDS)) if MONSTER_IDS[MONSTER_CHIP_KINDS[m]] == kind
                 and s["mon_clearing"][m] == MON_TRAY)
        s["mon_clearing"][m] = c
    load(S, *dice)
    s["stage"] = ST_BATTLE
    return S


def load(S, *raw):
    s = S[0]
    for i, v in enumerate(raw):
        s["loaded"][int(s["loaded_count"]) + i] = v
    s["loaded_count"] += len(raw)


def at(S, c):
    """Sorted kinds of the monsters in clearing c."""
    return sorted(MONSTER_IDS[MONSTER_CHIP_KINDS[m]] for m in np.flatnonzero(S[0]["mon_clearing"] == c))


# raw faces of the Summoning Dice (data/dice.txt order)
MOUNTAINS, RETURN, BLANK = 1, 3, 5            # gray symbol die
ONE, TWO = 0, 3                                # numbered dice
CLAW, EYE, MOON = 1, 3, 5                      # black symbol die (it has no blank face)


def test_example_activation_enchanter_sorcerer_barbarian_cleric_druid():
    """L643-L672: the Enchanter rolls claw, the Malevolent Mountains symbol and
    1 and 1. Secret Dens: the Goblins' dual dice make two Goblins, to the
    Enchanter's clearing first, then to the Sorcerer's. Lonely Mountains: the
    Griffon there moves to the Barbarian, and one Griffon and one Juvenile
    Dragon are summoned. Tri-Peaks: its Juvenile Dragon moves to the Cleric
    and one more is summoned. The Druid's tile matches nothing."""
    enchanter, sorcerer = clearing("secret_dens", 1), clearing("secret_dens", 3)
    barbarian, cleric, druid = clearing("lonely_mountains", 1), clearing("tri_peaks", 1), clearing("hags_mire", 1)
    S = battle(["secret_dens", "lonely_mountains", "tri_peaks", "hags_mire"],
               [("enchanter", enchanter), ("sorcerer", sorcerer), ("barbarian", barbarian),
                ("cleric", cleric), ("druid", druid)],
               monsters=[("griffon", clearing("lonely_mountains", 3)), ("juvenile_dragon", clearing("tri_peaks", 4))],
               dice=[MOUNTAINS, ONE, CLAW, ONE])
    R.start_activation(S, 0)
    assert at(S, enchanter) == ["goblin", "goblin"]
    assert at(S, sorcerer) == ["goblin", "goblin"]
    assert at(S, barbarian) == ["griffon", "griffon", "juvenile_dragon"]
    assert at(S, clearing("lonely_mountains", 3)) == []
    assert at(S, cleric) == ["juvenile_dragon", "juvenile_dragon"]
    assert at(S, druid) == []
    assert int(S[0]["stage"]) == ST_ACTIVATION


def test_dd_activation_return_arrow_returns_monsters_of_tiles_without_heroes():
    """L619-L623: on the arrow, monsters in tiles with no hero go back to the
    tray; in tiles with a hero they move to the hero earliest in Turn Order;
    nothing is summoned."""
    hero = clearing("tri_peaks", 1)
    S = battle(["tri_peaks", "hags_mire"], [("knight", hero)],
               monsters=[("ogre", clearing("hags_mire", 2)), ("giant", clearing("tri_peaks", 3))],
               dice=[RETURN, TWO, MOON, TWO])
    R.start_activation(S, 0)
    assert at(S, clearing("hags_mire", 2)) == [] and at(S, hero) == ["giant"]
    assert int((S[0]["mon_clearing"] >= 0).sum()) == 1


def test_dd_activation_summon_once_per_clearing_in_turn_order_and_what_remains():
    """L627: each clearing summons once however many heroes it holds; L629:
    when the tray runs short the rest is placed. The Giant (two chips) on
    Tri-Peaks' eye: 3 wanted in the first hero's clearing, none left after."""
    first, second = clearing("tri_peaks", 1), clearing("tri_peaks", 2)
    S = battle(["tri_peaks"], [("knight", first), ("rogue", first), ("cleric", second)],
               dice=[BLANK, ONE, EYE, 5])            # black number face 6: three
    R.start_activation(S, 0)
    assert at(S, first) == ["giant", "giant"] and at(S, second) == []


def test_dd_activation_moved_monsters_are_placed_name_side_up():
    """L635: moved and summoned monsters are placed name side up."""
    hero = clearing("tri_peaks", 1)
    S = battle(["tri_peaks"], [("knight", hero)], monsters=[("giant", clearing("tri_peaks", 3))],
               dice=[RETURN, ONE, MOON, ONE])
    S[0]["mon_flipped"][:] = 1
    R.start_activation(S, 0)
    moved = int(np.flatnonzero(S[0]["mon_clearing"] == hero)[0])
    assert int(S[0]["mon_flipped"][moved]) == 0


def test_dd_action_noise_3_noisy_hero_rerolls_for_his_clearing_only():
    """L471, L637: after activation each hero that made noise rolls all the
    Summoning Dice again, applied to his clearing only."""
    noisy, quiet = clearing("tri_peaks", 1), clearing("tri_peaks", 2)
    S = battle(["tri_peaks"], [("knight", noisy), ("rogue", quiet)],
               dice=[BLANK, ONE, MOON, ONE,          # the start player's roll: nothing
                     BLANK, ONE, EYE, ONE])               # the noisy hero's: one Giant
    S[0]["hero_status"][0] = HST_NOISE
    R.advance(S, 0)
    assert at(S, noisy) == ["giant"] and at(S, quiet) == []


def test_dd_hide_after_activation_offered_with_monsters_present():
    """L639-L641: unblocked heroes may hide at the end of Monster Activation;
    L597-L601: a Monster symbol on either Monster Die fails the hide, none
    gives the Hidden status."""
    hero, alone = clearing("tri_peaks", 1), clearing("secret_dens", 1)     # eye: Tri-Peaks' Giant only
    S = battle(["tri_peaks", "secret_dens"], [("knight", hero), ("rogue", alone)],
               dice=[BLANK, ONE, EYE, ONE])
    R.advance(S, 0)
    assert int(S[0]["phase"]) == R.PH_HIDE and int(S[0]["to_play"]) == 0   # the rogue has no monster
    load(S, 2, 3)                                            # two blanks
    assert R.A_DO + R.DO_HIDE in legal(S)
    R.do_action(S, 0, R.A_DO + R.DO_HIDE)
    assert not R.activation_round(S, 0)                      # no one else to ask: combat begins
    assert int(S[0]["hero_status"][0]) & HST_HIDDEN and int(S[0]["stage"]) == ST_COMBAT


def hide_once(status=0, lineage="human", dice=()):
    hero = clearing("tri_peaks", 1)
    S = battle(["tri_peaks"], [("knight", hero)], monsters=[("giant", hero)],
               dice=[BLANK, ONE, MOON, ONE], lineage=lineage)
    S[0]["hero_status"][0] = status
    R.advance(S, 0)
    load(S, *dice)
    assert R.A_DO + R.DO_HIDE in legal(S)
    R.do_action(S, 0, R.A_DO + R.DO_HIDE)       # the reaction alone: combat would follow
    return bool(int(S[0]["hero_status"][0]) & HST_HIDDEN)


def test_dd_action_sneak_2_sneaking_hero_ignores_one_monster_symbol():
    """L467, L603: a hero that Sneaked ignores one Monster symbol; not two."""
    assert not hide_once(dice=(0, 3))
    assert hide_once(status=HST_SNEAK, dice=(0, 3))
    assert not hide_once(status=HST_SNEAK, dice=(0, 1))


def test_dd_lineage_halfling_rerolls_one_monster_die_when_hiding():
    """L1202: a Halfling may reroll one Monster Die per hide attempt."""
    assert hide_once(lineage="halfling", dice=(0, 3, 4))      # the symbol rerolled to a blank
    assert not hide_once(lineage="halfling", dice=(0, 3, 1))  # rerolled to a symbol again
    assert not hide_once(lineage="halfling", dice=(0, 1, 4))  # two symbols: one reroll is not enough


SITE = 0                                        # black symbol die: the Treasure Site Symbol


def test_dd_activation_guardian_1_site_symbol_summons_guardians_to_their_sites():
    """L633: the Treasure Site Symbol, with a hero and a Treasure Site on a
    tile, brings that site's Guardians to its clearing from wherever they are
    -- even out of a hero's clearing on another tile; a site on a tile with no
    hero summons nothing."""
    from dragongym.envs.dragons_down.constants import SITE_IDS
    hero, elsewhere = clearing("secret_dens", 1), clearing("tri_peaks", 1)
    S = battle(["secret_dens", "tri_peaks", "hags_mire"], [("knight", hero), ("rogue", elsewhere)],
               monsters=[("lich", elsewhere)], dice=[BLANK, ONE, SITE, ONE])
    S[0]["site_clearing"][SITE_IDS.index("catacombs")] = clearing("secret_dens", 3)   # guarded by the Lich
    S[0]["site_clearing"][SITE_IDS.index("shrine")] = clearing("hags_mire", 2)        # no hero on that tile
    R.start_activation(S, 0)
    assert at(S, clearing("secret_dens", 3)) == ["lich"] and at(S, elsewhere) == []
    assert at(S, clearing("hags_mire", 2)) == []


def test_dd_class_cleric_1_cleric_rerolls_an_undead_summons_for_his_tile():
    """L1212 (Interpretations, "Cleric"): a Summoning Die that would summon
    or move undead Monsters to the Cleric's clearing is rerolled, once per
    turn; the new result applies only to his tile, the prior one everywhere
    else. The site symbol would bring the Lich to the Catacombs in his
    clearing: rerolled, it shows the moon, which brings nothing to Secret
    Dens, while the Knight's Tri-Peaks keeps the site symbol and its Shrine
    its Wraith. The return arrow would move the Wraith on his tile to him:
    rerolled blank, it stays, while the Ogre of the heroless Hag's Mire
    still goes back to the tray. A Make Noise reroll after his own reroll is
    not rerolled: the Lich comes."""
    from dragongym.envs.dragons_down.constants import SITE_IDS
    cleric, knight = clearing("secret_dens", 1), clearing("tri_peaks", 1)
    S = battle(["secret_dens", "tri_peaks"], [("cleric", cleric), ("knight", knight)],
               dice=[BLANK, ONE, SITE, ONE, MOON])
    S[0]["site_clearing"][SITE_IDS.index("catacombs")] = cleric          # guarded by the Lich
    S[0]["site_clearing"][SITE_IDS.index("shrine")] = clearing("tri_peaks", 2)   # guarded by the Wraith
    R.start_activation(S, 0)
    assert at(S, cleric) == [] and at(S, clearing("tri_peaks", 2)) == ["wraith"]
    assert int(S[0]["loaded_pos"]) == 5 and int(S[0]["cleric_rerolled"]) == 1
    cleric = clearing("tri_peaks", 1)
    S = battle(["tri_peaks", "hags_mire"], [("cleric", cleric)],
               monsters=[("wraith", clearing("tri_peaks", 3)), ("ogre", clearing("hags_mire", 2))],
               dice=[RETURN, ONE, MOON, ONE, BLANK])
    R.start_activation(S, 0)
    assert at(S, clearing("tri_peaks", 3)) == ["wraith"] and at(S, cleric) == []
    assert at(S, clearing("hags_mire", 2)) == [] and int(S[0]["loaded_pos"]) == 5
    cleric = clearing("secret_dens", 1)
    S = battle(["secret_dens"], [("cleric", cleric)],
               dice=[BLANK, ONE, SITE, ONE, MOON,          # the first roll, its site symbol rerolled
                     BLANK, ONE, SITE, ONE])               # his Make Noise roll: the site symbol stands
    S[0]["site_clearing"][SITE_IDS.index("catacombs")] = cleric
    S[0]["hero_status"][0] = HST_NOISE
    R.advance(S, 0)
    assert at(S, cleric) == ["lich"] and int(S[0]["loaded_pos"]) == 9


def test_dd_activation_return_1_return_arrow_still_summons_from_the_black_die():
    """L617: the gray dice are processed first, then the black; L619-L622: the
    return arrow returns the Monsters of tiles without Heroes and moves those
    of a Hero's tile to him -- and does nothing else: the black die is still
    processed after it (Interpretations, "The return arrow and the black
    die"), so a Local Monster symbol matching a Hero's tile summons there
    (L624-L629). The Knight is in Murkwater Fen 1 (moon: Goblins). Six
    Goblins are in heroless Secret Dens and one more wanders in Murkwater
    Fen 4, so one alone is in the tray. The gray die shows the arrow, the
    black the moon and 2: Secret Dens' Goblins go back to the tray, the
    wanderer moves to the Knight, then two Goblins come from the tray --
    which has them only because the arrow came first. Were the arrow to end
    the activation, the Knight would face the wanderer alone."""
    knight, dens = clearing("murkwater_fen", 1), clearing("secret_dens", 2)
    S = battle(["murkwater_fen", "secret_dens"], [("knight", knight)],
               monsters=[("goblin", dens)] * 6 + [("goblin", clearing("murkwater_fen", 4))],
               dice=[RETURN, ONE, MOON, TWO])
    tray = [m for m in range(len(MONSTER_CHIP_KINDS)) if MONSTER_IDS[MONSTER_CHIP_KINDS[m]] == "goblin"
            and S[0]["mon_clearing"][m] == MON_TRAY]
    assert len(tray) == 1
    R.start_activation(S, 0)
    assert at(S, dens) == [] and at(S, clearing("murkwater_fen", 4)) == []
    assert at(S, knight) == ["goblin"] * 3                  # the wanderer and two summoned
    assert int((S[0]["mon_clearing"] >= 0).sum()) == 3
