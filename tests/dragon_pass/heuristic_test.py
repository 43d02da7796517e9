"""The Dragon Pass heuristic (``agents/dragon_pass_heuristic.py``) takes the
Independents' own decisions by rule, not at random: one test per rule, each
from a hand-built position played to the decision through the real phases,
asserting the heuristic's choice (the Independents' counters handed to a
side as their rules' tests do)."""
import numpy as np

from dragongym.agents.dragon_pass_heuristic import DragonPassHeuristic
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import ENTRY_SARTAR_SOUTH, FORCES
from dragongym.envs.dragon_pass.game import GAME

from .combat_test import LANCERS, MILITIA, WARRIORS, declare
from .cragspider_test import step
from .dragons_test import given
from .exotic_test import exotic
from .giants_test import random_movement
from .hungry_jack_test import JACK, jack_at, to_sartar_movement
from .hydra_test import hydra_for, lunar_turn_starts
from .minors_test import CANNON, SPIRIT, for_side, transformer_turn
from .movement_test import to_next_player_turn
from .puppeteers_test import puppeteers_for
from .random_events_test import event, position
from .scenario import LUNAR, SARTAR, Position, unit
from .zombies_test import Z, delecti_for

CENTRE = "2014"


def heuristic_choice(p, seed=0):
    """The action the heuristic takes for the seat to play, in words."""
    seat = int(p.s["to_play"])
    a = DragonPassHeuristic(GAME).act_state(GAME, p.S, seat, np.random.default_rng(seed))
    return GAME.action_to_string(p.S, a)


def several(p):
    """The decision is a real one: the heuristic's rule, not a forced move, is tested."""
    assert len(p.legal()) > 1, p.legal()


# ---------------------------------------------------------------- dragons (L845, L851)
def dragonfight_at_harrek(p, *others):
    given(p, LUNAR, "red_dragon", CENTRE)
    p.put("harrek", step(CENTRE, 1))
    for name in others:
        p.put(name, step(CENTRE, 1))
    exotic(p, LUNAR)
    assert p.phase == R.PH_DRAGONFIGHT and p.to_play == LUNAR
    several(p)


def test_heuristic_dragonfight_strikes_the_superhero_worth_more_than_his_stack():
    """L845: Harrek (CF 20, weighed 1.5 times) against one militia (3): Harrek falls."""
    p = Position("18.5", moon="full")
    dragonfight_at_harrek(p, MILITIA[0])
    assert heuristic_choice(p) == next(t for t in p.legal() if p.name("harrek") in t)


def test_heuristic_dragonfight_strikes_the_stack_worth_more_than_its_superhero():
    """L845: beside Harrek stand 6 militia, 3 free warriors and the Wolfrunners
    (37 CF, more than his 30): the non-superhero units fall."""
    p = Position("18.5", moon="full")
    dragonfight_at_harrek(p, *MILITIA, "fa_free_warriors#1", "fa_free_warriors#2", "fa_free_warriors#3",
                          "fa_wolfrunners")
    choice = heuristic_choice(p)
    assert "but the superheroes" in choice, choice


def test_heuristic_dragon_on_a_non_lunar_side_negates_the_glowline():
    """L851: a Sartar dragon beside the Glowline switches its negation on (the
    Glowline raises the Lunars' cyclic factors, L662); a Lunar one does not."""
    from .dragons_test import glowline_hex
    g = glowline_hex()
    for force, wanted in ((SARTAR, True), (LUNAR, False)):
        p = Position("18.5", moon="full")
        given(p, force, "red_dragon", g)
        p.put("smu_storm_priests#1" if force == LUNAR else LANCERS[0], "0101")
        exotic(p, force)
        assert p.phase == R.PH_EXOTIC, p.legal()
        choice = heuristic_choice(p)
        if wanted:
            assert p.name("red_dragon") in choice, choice
            p.act(choice)
            if p.phase == R.PH_EXOTIC_TARGET:
                p.act(heuristic_choice(p))
            assert int(p.s["dragon_negates"]) & 1
        else:
            assert p.name("red_dragon") not in choice and int(p.s["dragon_negates"]) == 0


def dragon_steps_toward(*garrison):
    """A Lunar dragon two hexes from Swenstown (3432), which holds ``garrison``:
    the heuristic's step for the dragon's group with Swenstown its goal."""
    from dragongym.agents import dragon_pass_heuristic as H
    fort = "3432"
    start = step(fort, 1, 2)
    p = Position("18.5", moon="full")
    given(p, LUNAR, "red_dragon", start)
    for name in garrison:
        p.put(name, fort)
    p.movement(LUNAR)
    p.act(f"select the stack at {start}")
    p.act(f"move {p.name('red_dragon')} with the group")
    assert p.phase == R.PH_MOVE_GROUP
    legal = {int(a) for a in np.flatnonzero(GAME.mask_of(p.S))}
    steps = [a - R.A_HEX for a in legal if a < R.A_UNIT]
    a = DragonPassHeuristic(GAME).step(H.Position(p.s, 0), [unit("red_dragon")], _hex(start), _hex(fort), steps, legal)
    return GAME.action_to_string(p.S, a), fort


def test_heuristic_dragon_does_not_stop_beside_a_stack_not_worth_its_dragonfight():
    """L845: a dragon that ends its move beside enemy units must dragonfight
    them and is lost with them: it does not step beside Swenstown held by one
    militia (3 CF); held by 6 militia (18 CF, DRAGONFIGHT_WORTH 15) it does."""
    choice, fort = dragon_steps_toward(MILITIA[0])
    assert choice == f"stop at {step(fort, 1, 2)}", choice
    choice, fort = dragon_steps_toward(*MILITIA)
    assert choice.endswith(f"from {step(fort, 1, 2)} to {step(fort, 1)}"), choice


def _hex(name):
    from .scenario import hexi
    return hexi(name)


# ---------------------------------------------------------------- Hungry Jack (L872)
def test_heuristic_jack_summons_the_strongest_enemy_unit():
    """L872: of a militia (3) and the Wolfrunners (7), the Wolfrunners are drawn."""
    p = Position("18.5", moon="full")
    jack_at(p)
    p.put(MILITIA[0], "2011")
    p.put("fa_wolfrunners", "2311")
    to_sartar_movement(p)
    assert p.phase == R.PH_JACK
    several(p)
    assert heuristic_choice(p) == f"Hungry Jack summons {p.name('fa_wolfrunners')} at 2311"


def test_heuristic_jack_magicians_aid_while_the_enemy_has_more_units_to_draw():
    """L872: with four enemy units on the map a magician aids Jack; with one
    (Jack draws it alone) none does, keeping its magic."""
    for n, aids in ((4, True), (1, False)):
        p = Position("18.5", moon="full")
        jack_at(p)
        p.put("lcm_magicians#1", JACK)
        p.put("lcm_magicians#2", JACK)
        for k in range(n):
            p.put(MILITIA[k], step(JACK, 1 + k, 7))
        to_sartar_movement(p)
        assert p.phase == R.PH_JACK_AID
        choice = heuristic_choice(p)
        assert ("aids" in choice) == aids, choice


# ---------------------------------------------------------------- the Spirit of Movement (L898), the Transformer (L857)
def spirit_turn(*lancers_at, last_turn=False):
    p = Position("18.5")
    for_side(p, LUNAR, SPIRIT, "1010")
    for k, at in enumerate(lancers_at):
        p.put(LANCERS[k], at)
    p.put("smu_storm_priests#1", "3230")
    if last_turn:
        p.s["max_turns"] = 2
    p.movement(SARTAR, player_turn=2)
    to_next_player_turn(p)
    assert p.phase == R.PH_SPEED and p.to_play == LUNAR
    return p


def test_heuristic_spirit_of_movement_is_spent_when_units_need_the_doubling():
    """L898: a lancer (MF 7) at 1111 reaches the Sartar fortress it goes for
    only with twice its MF: in the last game-turn that is worth the Spirit, in
    another not (SPEED_UNITS); three such lancers are; a lancer already in a
    fortress needs none."""
    speed = "eliminate the Spirit of Movement: every unit's movement doubled this phase"
    stays = "the Spirit of Movement stays"
    assert heuristic_choice(spirit_turn("1111", last_turn=True)) == speed
    assert heuristic_choice(spirit_turn("1111")) == stays
    assert heuristic_choice(spirit_turn("1111", "1111", "1111")) == speed
    assert heuristic_choice(spirit_turn(_fortress_hex_id(), last_turn=True)) == stays


def _fortress_hex_id():
    from dragongym.envs.dragon_pass.data import MAP
    from dragongym.agents.dragon_pass_heuristic import FORT_HEX, SARTAR_FORTS
    return MAP.hex_id(FORT_HEX[SARTAR_FORTS[0]])


def test_heuristic_transformer_doubles_the_mgf_of_the_strongest_magician():
    """L857: of the Cannon Cult (MgF 7), a stone man (2) and the lancers (2),
    the Cannon Cult's MgF is doubled."""
    p = transformer_turn(CANNON, "stone_men#1", LANCERS[0])
    assert p.phase == R.PH_ALCHEMY
    assert heuristic_choice(p) == f"the Alchemical Transformer doubles {p.name(CANNON)}"
    p.act(f"the Alchemical Transformer doubles {p.name(CANNON)}")
    several(p)
    assert heuristic_choice(p) == f"double the MgF of {p.name(CANNON)}"


# ---------------------------------------------------------------- the Puppeteers (L890)
def test_heuristic_puppeteer_troop_dodges_a_lost_battle_to_the_safest_illusory_army():
    """L890: three lancers attack the lone Troop (CF 2): it switches with the
    Illusory Army farthest from the Lunar stacks."""
    p = Position()
    puppeteers_for(p, SARTAR, "0604", a0="0706", a1="0510")
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.combat(LUNAR)
    declare(p, ["0604"], ["0504"])
    assert p.phase == R.PH_PUPPET_DODGE and p.to_play == SARTAR
    assert heuristic_choice(p) == \
        "the Puppeteer Troop switches places with the Illusory Army at 0510 to avoid the battle"


def test_heuristic_puppeteer_troop_fights_a_battle_it_wins():
    """L890: the Troop in a stack of six militia, attacked by one lancer, fights."""
    p = Position()
    puppeteers_for(p, SARTAR, "0604", a0="0706")
    for u in MILITIA:
        p.put(u, "0604")
    p.put(LANCERS[0], "0504")
    p.combat(LUNAR)
    declare(p, ["0604"], ["0504"])
    assert p.phase == R.PH_PUPPET_DODGE
    assert heuristic_choice(p) == "the Puppeteer Troop fights this battle"


# ---------------------------------------------------------------- the Hydra (L880)
def test_heuristic_hydra_is_fed_the_weakest_unit_worth_less_than_it():
    """L880: of a lancer (CF 4) and a magician (CF 3), the magician is fed;
    Aelwrin, a hero, never is."""
    p = Position("18.5", moon="full")
    hydra_for(p, LUNAR, mgf=-2)
    p.put(LANCERS[0], "2013")
    p.put("lcm_magicians#1", "2015")
    p.put("aelwrin", "2014")
    lunar_turn_starts(p)
    assert p.phase == R.PH_HYDRA_FEED
    assert heuristic_choice(p) == f"feed {p.name('lcm_magicians#1')} to the Hydra"
    p.act(f"feed {p.name('lcm_magicians#1')} to the Hydra")
    assert heuristic_choice(p) == f"feed {p.name(LANCERS[0])} to the Hydra"


def test_heuristic_hydra_is_fed_nothing_worth_as_much_as_it():
    p = Position("18.5", moon="full")
    hydra_for(p, LUNAR, mgf=-1)
    p.put("aelwrin", "2013")
    p.put("full_moon_corps", "2015")                       # CF 7
    lunar_turn_starts(p)
    assert p.phase == R.PH_HYDRA_FEED
    assert heuristic_choice(p) == "feed no more units to the Hydra now"


# ---------------------------------------------------------------- the random events (L970-L972)
def test_heuristic_revolt_sends_home_the_weakest_lunar_units():
    """L970: of the lancers (CF 4) and a Tarsh warrior band (4, slower), the
    warriors go first, then the lancers by number."""
    p = position()
    p.put(LANCERS[0], "2002")
    p.put(LANCERS[1], "0110")
    p.put(WARRIORS[0], "1212")
    p.put(LANCERS[2], "1412")
    event(p, 3, 2)
    assert p.phase == R.PH_EVENT_REMOVE
    assert heuristic_choice(p).startswith(f"remove {p.name(WARRIORS[0])}")
    p.act(heuristic_choice(p))
    assert heuristic_choice(p).startswith(f"remove {p.name(LANCERS[0])}")


def test_heuristic_south_soldiers_replace_the_strongest_lost_units():
    """L972: of the dead Sartar infantry and cavalry (every one, in a
    hand-built position), the Free Cavalry (CF 5, MF 7) come back first."""
    p = position("18.3")
    event(p, 3, 4)
    assert p.phase == R.PH_EVENT_REPLACE
    several(p)
    assert heuristic_choice(p) == f"the South Soldiers replace {p.name('fa_free_cavalry#1')}"


# ---------------------------------------------------------------- the giants (L490, L918)
def test_heuristic_giant_steps_toward_the_enemy_and_away_from_its_own():
    """L918: the Lunar player moves the giant at 2014 toward the Sartar
    militia at 2010 (the giant attacks the stacks it ends beside), not toward
    the Lunar lancers at 2018."""
    p = Position()
    p.put(MILITIA[0], "2010")
    p.put(LANCERS[0], "2018")
    random_movement(p, ("giants#1", CENTRE))
    choice = heuristic_choice(p)
    assert choice == f"{p.name('giants#1')} steps to 2013", choice


def test_heuristic_giant_does_not_step_beside_its_movers_own_units():
    """L918: the giant attacks every stack it ends beside, the Lunars' too:
    with the Lunar lancers at 2012 between it and the Sartar militia at 2008,
    the Lunar player stops it rather than step it to 2013."""
    p = Position()
    p.put(LANCERS[0], "2012")
    p.put(MILITIA[0], "2008")
    random_movement(p, ("giants#1", CENTRE))
    assert f"{p.name('giants#1')} steps to 2013" in p.legal()
    assert heuristic_choice(p) == f"{p.name('giants#1')} stops"


# ---------------------------------------------------------------- Delecti's zombies (L821, L823)
def test_heuristic_zombie_rises_nearest_the_enemy():
    """L821: the new zombie rises in the hex of those offered nearest the Sartar stacks."""
    from .combat_test import arranged
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    delecti_for(p, LUNAR, "0505", "0505")
    p.put(MILITIA[0], "0604")
    p.put(MILITIA[1], "0807")
    p.combat(LUNAR)
    p.dice(4)
    declare(p, ["0604"], ["0504", "0505"])
    arranged(p, "0504", "0505")
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    assert p.phase == R.PH_ZOMBIE_RISE
    hexes = [t.rsplit(" ", 1)[1] for t in p.legal()]
    from dragongym.agents.dragon_pass_heuristic import hex_distance
    near = min(hexes, key=lambda h: (hex_distance(_hex(h), _hex("0807")), _hex(h)))
    assert heuristic_choice(p) == f"a new zombie rises at {near}"


def test_heuristic_zombie_chain_marches_toward_the_enemy_keeping_one_with_delecti():
    """L823, L825: Delecti and zombie 1 at 2014, zombies 2 and 3 north of it;
    Sartar militia to the south. Led by zombie 3 the chain would leave Delecti
    alone (all fall at the phase's end): zombie 1 leads it south-east, zombie 2
    following into Delecti's hex."""
    p = Position()
    delecti_for(p, LUNAR, CENTRE, CENTRE, "2013", "2012")
    p.put(MILITIA[0], "2416")
    p.movement(LUNAR)
    choice = heuristic_choice(p)
    assert choice == f"move the zombie chain led by {p.name(Z[1])}", choice
    p.act(choice)
    choice = heuristic_choice(p)
    assert choice == f"{p.name(Z[1])} leads the zombie chain into 2115", choice
    p.act(choice)
    assert p.where(Z[2]) == CENTRE and p.where(Z[1]) == "2115"


# ---------------------------------------------------------------- reinforcements (L474)
def test_heuristic_reinforcement_enters_nearest_a_place_to_take_force_marching():
    """L474: a Lunar lancer entering by the south edge is brought on (the
    movement phase does not end before it), by the edge hex nearest a Sartar
    fortress (3334, two hexes from Swenstown), force marching (its first 3 MPs free)."""
    p = Position()
    p.entering(LANCERS[0], ENTRY_SARTAR_SOUTH)
    p.s["unit_force"][unit(LANCERS[0])] = FORCES.index(LUNAR)
    p.movement(LUNAR)
    assert heuristic_choice(p) == f"bring {p.name(LANCERS[0])} onto the board"
    p.act(heuristic_choice(p))
    assert p.phase == R.PH_ENTER_HEX
    assert heuristic_choice(p) == f"{p.name(LANCERS[0])} enters at 3334"
    p.act(heuristic_choice(p))
    assert p.phase == R.PH_FORCE_MARCH
    assert heuristic_choice(p) == f"{p.name(LANCERS[0])} force marches on"


def test_heuristic_dragontooth_runner_joins_the_largest_own_stack_by_argrath():
    """L684: a Runner Argrath summons cannot move that turn: it comes to the
    largest Sartar stack within a hex of him, two shaman bands at 3728."""
    p = Position("18.4", moon="full")
    p.put("argrath", "3727")
    p.put("bh_shamans#1", "3728")
    p.put("bh_shamans#2", "3728")
    p.put("dragontooth_runners#1", "3122")
    p.movement(SARTAR, player_turn=2)
    runner = p.name("dragontooth_runners#1")
    p.act(f"Argrath summons {runner}")
    assert p.phase == R.PH_SUMMON_HEX
    assert heuristic_choice(p) == f"{runner} comes to 3728"


# ---------------------------------------------------------------- the Tusk Riders (L906-L908)
def test_heuristic_the_weakest_magician_makes_the_blood_sacrifice():
    """L906-L908: on a 1 the sacrificing magician falls too: of the Bison
    Hunters' shamans (CF 5) and the storm priests (CF 3), the priests sacrifice."""
    from .diplomacy_test import alliance_phase, full_game
    p = full_game()
    p.put("bh_shamans#1", "2802")
    p.put("smu_storm_priests#1", "2802")
    p.put(MILITIA[0], "2802")
    alliance_phase(p, SARTAR, player_turn=2)
    p.act(f"{p.name(MILITIA[0])} is offered to the Tusk Riders at 2802")
    assert p.phase == R.PH_SACRIFICE
    several(p)
    assert heuristic_choice(p) == \
        f"{p.name('smu_storm_priests#1')} sacrifices {p.name(MILITIA[0])} to the Tusk Riders"


def test_heuristic_has_a_rule_for_every_decision_of_the_game():
    """No decision code of ``rules/base.py`` is left to chance."""
    from dragongym.agents.dragon_pass_heuristic import _PHASES
    from dragongym.envs.dragon_pass.rules import base as B
    codes = {getattr(B, n) for n in dir(B) if n.startswith("PH_") and n != "PH_NONE"}
    assert codes and codes <= set(_PHASES), sorted(codes - set(_PHASES))


def test_the_magic_prior_only_set_adds_the_magic_decisions_to_the_default_one():
    """``prior_only="magic"`` (the 18.4 MCTS rung) leaves the magic decisions to
    the heuristic as well as the default set's; the default set searches them."""
    from dragongym.agents.dragon_pass_heuristic import (
        MAGIC_PHASES, PRIOR_ONLY_PHASES, prior_only, prior_only_with_magic)
    from dragongym.agents.search_hooks import PRIOR_ONLY, hook

    assert hook(GAME, PRIOR_ONLY + ":magic") is prior_only_with_magic
    assert not MAGIC_PHASES & PRIOR_ONLY_PHASES
    state = GAME.new_states(1)
    for phase in (R.PH_SUPPORT, R.PH_COMMIT, R.PH_EXOTIC, R.PH_SUMMON_HEX, R.PH_MOVE_GROUP, R.PH_MOVE, R.PH_BATTLE):
        state[0]["phase"] = phase
        assert prior_only_with_magic(state) == (phase in MAGIC_PHASES or phase in PRIOR_ONLY_PHASES)
        assert prior_only(state) == (phase in PRIOR_ONLY_PHASES)
    state[0]["phase"] = R.PH_SUPPORT
    assert prior_only_with_magic(state) and not prior_only(state)
