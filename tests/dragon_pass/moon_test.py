"""The Red Moon (L660-L668): its phase chosen before deployment, a phase a
game-turn, and the cyclic values it gives -- always 7 within the Glowline
until the Temple of the Reaching Moon is desecrated, within the Crimson
Bat's Glowspot, and neither within 1 hex of Argrath. Positions are hand-built
(``scenario.Position``) in scenario 18.4, whose Lunar player selects the
phase (L263)."""
import numpy as np

from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.game import GAME, DragonPassConfig

from .scenario import LUNAR, SARTAR, Position

OUTSIDE = "2011"        # open ground, neutral: no Glowline
GLOWLINE = "1009"       # open ground within the Glowline (its dark part)


def cf(pos, name):
    """The unit's CF where it stands, as a number (halves kept)."""
    return pos.cf(name)


def test_rule_dp_moon_the_lunar_player_selects_the_phase_before_any_unit_deploys():
    S = GAME.new_states(1)
    GAME.reset(S, np.array([3], np.uint64), DragonPassConfig(scenario="18.4"))
    assert (S[0]["phase"], S[0]["to_play"]) == (R.PH_MOON, 0)        # the Lunar seat, before deployment
    legal = [GAME.action_to_string(S, int(a)) for a in np.flatnonzero(GAME.mask_of(S))]
    assert legal == [f"the Red Moon starts at {name}" for name in
                     ("Black", "Crescent-Come", "Empty ½", "Full", "Full ½", "Crescent-Go", "Dying")]
    errors = np.zeros(1, np.int8)
    GAME.step(S, np.array([GAME.string_to_action(S, "the Red Moon starts at Full")], np.int32), errors)
    assert errors[0] == 0 and R.MOON_PHASE_IDS[S[0]["moon"]] == "full"
    assert S[0]["phase"] == R.PH_DEPLOY


def test_rule_dp_moon_no_phase_is_chosen_where_the_scenario_chooses_none():
    S = GAME.new_states(1)
    GAME.reset(S, np.array([3], np.uint64), GAME.make_config(scenario="18.3"))
    assert S[0]["moon"] == -1 and S[0]["phase"] == R.PH_DEPLOY


def test_rule_dp_moon_the_phase_moves_on_one_phase_each_game_turn():
    """The book-keeping phase ends each game-turn (L182): Full Half, then Crescent-Go;
    Dying, then Black again."""
    for phase, after in (("full_half", "crescent_go"), ("dying", "black")):
        pos = Position("18.4", moon=phase)
        pos.put("full_moon_corps", OUTSIDE)
        pos.put("wasps", "3727")
        pos.movement(SARTAR, player_turn=2)           # the second player-turn of game-turn 1
        pos.act("end the movement phase")
        assert R.MOON_PHASE_IDS[pos.s["moon"]] == after and pos.s["turn"] == 2


def test_rule_dp_moon_a_cyclic_factor_takes_the_phases_value_a_half_cyclic_one_half_of_it():
    for phase, value in (("black", 3), ("crescent_come", 4), ("empty_half", 5), ("full", 7),
                         ("full_half", 6), ("crescent_go", 5), ("dying", 3)):
        pos = Position("18.4", moon=phase)
        pos.put("full_moon_corps", OUTSIDE)
        assert cf(pos, "full_moon_corps") == value
        pos.put("full_moon_corps", OUTSIDE, disrupted=True)           # its back: half cyclic
        assert cf(pos, "full_moon_corps") == value / 2


def test_rule_dp_moon_fractions_are_kept_until_the_melee_total_then_dropped():
    """The disrupted Wolfrunners' half-cyclic CF at the Black Moon is 1½ (L662); in
    the counter-attack it doubles to 3, its fraction kept until the total (L110, L584):
    at a roll of 3 the Attack Table gives 3 a loss of 1 (2 would give none), and the
    defender takes the 1-CF Moon Priestesses off the top of the attacking stack."""
    pos = Position("18.5", moon="black")
    pos.put("cc_lancers#1", OUTSIDE)
    pos.put("lcm_moon_priestesses", OUTSIDE, disrupted=True)         # 1-½cyclic-2-0, on top
    pos.put("fa_wolfrunners", "2012", disrupted=True)
    assert cf(pos, "fa_wolfrunners") == 1.5
    pos.combat(LUNAR)                                                # no spirit to commit (RF 0)
    pos.dice(1, 3)                                                   # the attack (5 at 1) takes nothing
    pos.acts("attack the stack at 2012", f"attack with the stack at {OUTSIDE}", f"attack 2012 with the stacks at {OUTSIDE}")
    for _ in range(4):
        done = [t for t in pos.legal() if "is arranged" in t or t == "no more retreats"]
        if not done:
            break
        pos.act(done[0])
    assert pos.to_play == SARTAR and pos.legal() == [f"eliminate {pos.name('lcm_moon_priestesses')} at {OUTSIDE}"]


def test_rule_dp_moon_within_the_glowline_the_cyclic_value_is_always_7():
    pos = Position("18.4", moon="black")
    pos.put("full_moon_corps", GLOWLINE)
    assert cf(pos, "full_moon_corps") == 7
    pos.put("full_moon_corps", GLOWLINE, disrupted=True)
    assert cf(pos, "full_moon_corps") == 3.5


def test_rule_dp_moon_the_glowline_ceases_once_an_enemy_unit_occupies_the_temple_of_the_reaching_moon():
    """L143: a Sartar unit entering 1108 (passing through counts, Interpretations 28)."""
    pos = Position("18.4", moon="black")
    pos.put("full_moon_corps", GLOWLINE)
    pos.put("smu_storm_priests#1", "1208")
    assert cf(pos, "full_moon_corps") == 7
    pos.movement(SARTAR, player_turn=2)
    pos.acts("select the stack at 1208", f"move {pos.name('smu_storm_priests#1')} with the group",
             f"move {pos.name('smu_storm_priests#1')} from 1208 to 1108",
             f"move {pos.name('smu_storm_priests#1')} from 1108 to 1107")
    assert pos.s["glowline_gone"] == 1
    assert cf(pos, "full_moon_corps") == 3                           # the Black Moon's value, for good


def test_rule_dp_moon_within_2_hexes_of_the_crimson_bat_a_cyclic_factor_is_at_full():
    pos = Position("18.4", moon="black")
    pos.put("full_moon_corps", OUTSIDE)
    pos.put("crimson_bat", "2013")                                    # 2 hexes away: a Glowspot hex
    assert cf(pos, "full_moon_corps") == 7
    pos.put("crimson_bat", "2014")                                    # 3 away: no Glowspot
    assert cf(pos, "full_moon_corps") == 3


def test_rule_dp_moon_no_glowline_or_glowspot_within_1_hex_of_argrath():
    pos = Position("18.5", moon="black")
    pos.put("full_moon_corps", GLOWLINE)
    pos.put("argrath", "1010")                                        # beside it
    assert cf(pos, "full_moon_corps") == 3                             # the Black Moon's own value
    pos.put("argrath", "1011")                                        # 2 hexes away
    assert cf(pos, "full_moon_corps") == 7
    pos.put("full_moon_corps", OUTSIDE)
    pos.put("crimson_bat", "2012")
    pos.put("argrath", "2010")
    assert cf(pos, "full_moon_corps") == 3                             # the Glowspot neither


def test_rule_dp_moon_with_screening_the_glowspot_and_argraths_resistance_wait_on_a_reveal():
    pos = Position("18.5", screening=True, moon="black")
    pos.put("full_moon_corps", OUTSIDE)
    pos.put("crimson_bat", "2012")
    assert cf(pos, "full_moon_corps") == 3                             # the Bat's place not revealed
    pos.s["revealed"] |= R.REVEAL_BAT
    assert cf(pos, "full_moon_corps") == 7
    pos.put("full_moon_corps", GLOWLINE)
    pos.put("argrath", "1010")
    assert cf(pos, "full_moon_corps") == 7                             # Argrath's place not revealed
    pos.s["revealed"] |= R.REVEAL_ARGRATH
    assert cf(pos, "full_moon_corps") == 3


def test_rule_dp_moon_the_observation_shows_the_phase_and_the_glowline():
    from dragongym.envs.dragon_pass import observe as O
    pos = Position("18.4", moon="empty_half")
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(pos.S, np.array([1], np.int64), obs)
    flat = obs[0, O.FLAT_OFF:]
    assert flat[O.F_MOON + R.MOON_PHASE_IDS.index("empty_half")] == 1 and flat[O.F_MOON:O.F_MOON + 7].sum() == 1
    assert flat[O.F_GLOWLINE] == 1
    pos.s["glowline_gone"] = 1
    GAME.observe(pos.S, np.array([1], np.int64), obs)
    assert obs[0, O.FLAT_OFF + O.F_GLOWLINE] == 0


def test_rule_dp_moon_with_screening_the_bats_owner_may_reveal_it_when_a_battle_would_feel_its_glowspot():
    """L666: the Glowspot exists with screening only once the Lunar player reveals the
    Bat's location, 'at any time': the choice is offered as a battle begins in which it
    would change a cyclic value (Interpretations 41); revealed, the Bat is seen."""
    from dragongym.envs.dragon_pass import observe as O
    from .scenario import unit
    pos = Position("18.5", screening=True, moon="black")
    pos.put("full_moon_corps", OUTSIDE)
    pos.put("crimson_bat", "2009")                                  # 2 hexes from the Corps, not beside 2012
    pos.put("bh_bison_riders#1", "2012")
    pos.combat(LUNAR)
    pos.acts("attack the stack at 2012", f"attack with the stack at {OUTSIDE}", f"attack 2012 with the stacks at {OUTSIDE}")
    assert pos.to_play == LUNAR and sorted(pos.legal()) == ["keep the Crimson Bat hidden", "reveal where the Crimson Bat is"]
    assert cf(pos, "full_moon_corps") == 3
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(pos.S, np.array([1], np.int64), obs)
    assert obs[0, O.UNITS_OFF + unit("crimson_bat") * O.UNIT_FEATURES + O.U_SEEN] == 0
    pos.act("reveal where the Crimson Bat is")
    assert cf(pos, "full_moon_corps") == 7
    GAME.observe(pos.S, np.array([1], np.int64), obs)
    assert obs[0, O.UNITS_OFF + unit("crimson_bat") * O.UNIT_FEATURES + O.U_SEEN] == 1
