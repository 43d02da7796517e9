"""The Exotic Magic Phase (L672-L712): the Crimson Bat's feeding and hunger, the
Crater Makers' Meteor Storm, the Full Moon Corps summoned, the Wasps' sting, the
Stormwalkers' storms; dragons' and superheroes' immunity. Positions are
hand-built in 18.4 and 18.5 (``scenario.Position``); a phase is reached as in
play, by ending the movement phase."""
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.rules.movement import start_movement

from .scenario import LUNAR, SARTAR, Position

RIVER, BANK = "0622", "0722"          # open ground on a river (not a ford), and open ground beside it


def choose(p, *words):
    hits = [t for t in p.legal() if all(w in t for w in words)]
    assert len(hits) == 1, (words, p.legal())
    return p.act(hits[0])


def exotic(p, force, player_turn=None):
    """End ``force``'s movement phase: its Exotic Magic Phase follows (L178)."""
    p.movement(force, player_turn=player_turn or (1 if force == LUNAR else 2))
    return p.act("end the movement phase")


def test_rule_dp_exotic_the_lunar_player_has_an_exotic_magic_phase_in_18_4_the_sartar_player_none():
    """L263: 'An Exotic Magic Phase is required for the Lunar player only.'"""
    p = Position("18.4", moon="full")
    p.put("crater_makers", "2014")
    p.put("wasps", "2012")
    exotic(p, LUNAR)
    assert p.phase == 27 and p.to_play == LUNAR          # PH_EXOTIC
    p = Position("18.4", moon="full")
    p.put("crater_makers", "2014")
    p.put("wasps", "2012")
    exotic(p, SARTAR)
    assert not any("exotic" in t for t in p.legal())     # straight on to the combat phase


def test_rule_dp_exotic_a_meteor_storm_eliminates_every_unit_of_a_hex_within_12():
    """L710: every unit in the hex is eliminated (a hero to roll his heroic escape,
    L642); the Crater Makers' agent cannot attack that turn."""
    p = Position("18.4", moon="full")
    p.put("crater_makers", "2014")
    p.put("full_moon_corps", "2011")
    p.put("smu_storm_priests#1", "2012")
    p.put("argrath", "2012")
    p.put("bh_shamans#1", "2010")
    exotic(p, LUNAR)
    choose(p, "Crater Makers", "uses its exotic magic")
    choose(p, "Meteor Storm strikes 2012")
    assert p.where("smu_storm_priests#1") == "dead" and p.where("argrath") == "escaping"
    assert p.where("crater_makers") == "2014"
    # the phase is over (nothing more to use); in the combat phase the agent stays home
    assert "attack the stack at 2010" in p.legal() and not any("commit" in t for t in p.legal())


def test_rule_dp_exotic_no_meteor_storm_on_a_black_or_dying_day():
    for moon in ("black", "dying"):
        p = Position("18.4", moon=moon)
        p.put("crater_makers", "2014")
        p.put("smu_storm_priests#1", "2012")
        exotic(p, LUNAR)
        assert not any("Crater Makers" in t for t in p.legal())


def test_rule_dp_exotic_superheroes_are_unaffected_and_save_three_units():
    """L674, L678, L650: Harrek is untouched and saves Gunda, then two units his owner
    picks; the rest of the stack is eliminated."""
    p = Position("18.5", moon="full")
    p.put("crater_makers", "2014")
    for u in ("harrek", "gunda", "bh_bison_riders#1", "bh_bison_riders#2", "bh_bison_riders#3"):
        p.put(u, "2012")
    exotic(p, LUNAR)
    choose(p, "Crater Makers", "uses its exotic magic")
    choose(p, "Meteor Storm strikes 2012")
    assert p.to_play == SARTAR
    choose(p, "protects", "(1)")
    choose(p, "protects", "(2)")
    assert [p.where(u) for u in ("harrek", "gunda", "bh_bison_riders#1", "bh_bison_riders#2")] == ["2012"] * 4
    assert p.where("bh_bison_riders#3") == "dead"


def test_rule_dp_exotic_the_full_moon_corps_are_summoned_on_a_full_moon_day_to_a_magicians_hex():
    """L712: eliminated, they come back on a Full Moon day to a hex with a Lunar magician."""
    p = Position("18.4", moon="full")                   # the Full Moon Corps start in the dead pile here
    p.put("lcm_magicians#1", "2014")
    exotic(p, LUNAR)
    choose(p, "Full Moon Corps", "uses its exotic magic")
    assert [t for t in p.legal()] == ["summon the Full Moon Corps to 2014"]
    p.act("summon the Full Moon Corps to 2014")
    assert p.where("full_moon_corps") == "2014"
    p = Position("18.4", moon="full_half")
    p.put("lcm_magicians#1", "2014")
    exotic(p, LUNAR)
    assert not any("Full Moon Corps" in t for t in p.legal())


def test_rule_dp_exotic_the_bat_devours_a_lunar_unit_within_1_hex_on_a_black_day_with_no_escape():
    """L698: a Lunar unit, hero or superhero, no heroic escape allowed."""
    p = Position("18.4", moon="black")
    p.put("crimson_bat", "2011")
    p.put("red_emperor", "2012")
    p.put("lcm_magicians#1", "2015")                  # 4 hexes off
    exotic(p, LUNAR)
    choose(p, "Crimson Bat", "uses its exotic magic")
    assert p.legal() == [f"the Crimson Bat devours {p.name('red_emperor')}"]
    p.act(p.legal()[0])
    assert p.where("red_emperor") == "dead"
    assert not any("Crimson Bat" in t for t in p.legal())   # fed for the day


def test_qa_dp_exotic_magic_picks_its_casualty_anywhere_in_a_stack():
    """L1044 (Q&A): "When selecting casualties of chaotic or exotic magic, can
    the attacker select any units in a stack for elimination? Yes": the Bat
    (L698) may devour any Lunar unit of the stack beside it, the bottom one
    too, not only the top of the stack."""
    p = Position("18.4", moon="black")
    p.put("crimson_bat", "2011")
    for name in ("lcm_magicians#1", "lcm_magicians#2", "red_emperor"):     # red_emperor on top
        p.put(name, "2012")
    exotic(p, LUNAR)
    choose(p, "Crimson Bat", "uses its exotic magic")
    assert sorted(p.legal()) == sorted(f"the Crimson Bat devours {p.name(n)}"
                                       for n in ("lcm_magicians#1", "lcm_magicians#2", "red_emperor"))
    p.act(f"the Crimson Bat devours {p.name('lcm_magicians#1')}")    # the bottom unit
    assert p.where("lcm_magicians#1") == "dead"
    assert p.where("lcm_magicians#2") == "2012" and p.where("red_emperor") == "2012"


def test_rule_dp_exotic_an_unfed_bat_goes_hungry_and_needs_more_units_the_next_days():
    """L700-L708: missing the Black day, the Bat needs 2 units on Crescent-Come."""
    p = Position("18.4", moon="black")
    p.put("crimson_bat", "2011")
    for k in (1, 2, 3):
        p.put(f"lcm_magicians#{k}", "2012")
    p.put("bh_shamans#1", "3727")
    exotic(p, LUNAR)
    choose(p, "end the Exotic Magic Phase")
    choose(p, "give no more magical support") if "give no more magical support" in p.legal() else None
    while p.to_play == SARTAR:                        # Sartar's player-turn passes
        done = [t for t in p.legal() if t in ("end the movement phase", "give no more magical support",
                                               "commit no more spirits or agents", "fight no more battles")]
        p.act(done[0])
    assert int(p.s["turn"]) == 2 and int(p.s["bat_missed"]) == 1
    p.movement(LUNAR, player_turn=3)
    p.act("end the movement phase")
    for _ in range(2):
        choose(p, "Crimson Bat", "uses its exotic magic")
        choose(p, "devours", "(1)" if p.where("lcm_magicians#1") == "2012" else "(2)")
    assert not any("Crimson Bat" in t for t in p.legal())


def test_rule_dp_exotic_a_bat_unfed_by_the_full_half_day_dies_and_its_spirit_takes_lunar_units():
    """L700: not fed by the end of the Lunar Exotic Magic Phase of the Full Half day,
    it is eliminated, and the opposing player eliminates the Lunar units it still
    needed (16 with one day missed, none devoured yet: all three here)."""
    p = Position("18.4", moon="full_half")
    p.put("crimson_bat", "2011")
    p.put("lcm_magicians#1", "2012")
    p.put("lcm_magicians#2", "2030")
    p.put("red_emperor", "0404")
    p.s["bat_missed"] = 1
    exotic(p, LUNAR)
    choose(p, "end the Exotic Magic Phase")
    assert p.where("crimson_bat") == "dead" and p.to_play == SARTAR
    for u in ("red_emperor", "lcm_magicians#1", "lcm_magicians#2"):
        p.act(f"the Bat's spirit takes {p.name(u)}")
    assert [p.where(u) for u in ("lcm_magicians#1", "lcm_magicians#2", "red_emperor")] == ["dead"] * 3


def test_rule_dp_exotic_an_enemy_the_bat_kills_in_combat_feeds_it():
    """L698: 'or an enemy unit during combat': the Bat's chaotic magic kills a Sartar
    unit on the Black day; it is not hungry the next day."""
    p = Position("18.4", moon="black")
    p.put("crimson_bat", "2011")
    p.put("full_moon_corps", "2011")
    p.put("bh_shamans#1", "2012")
    p.put("bh_shamans#2", "2012")
    exotic(p, LUNAR)
    choose(p, "end the Exotic Magic Phase")
    p.dice(1)
    p.acts("attack the stack at 2012", "attack with the stack at 2011", "attack 2012 with the stacks at 2011")
    choose(p, "eliminate", "Shaman", "(1)")
    assert int(p.s["bat_fed"]) == 1


def test_rule_dp_exotic_the_wasps_sting_disrupts_every_non_sartar_unit_within_1_hex():
    """L690: DS&T; the Wasps are eliminated. Jar-eel, a superhero, is unaffected (L650)
    but saves no one: the sting lists no D&S (Interpretations 37)."""
    p = Position("18.5", moon="full")
    p.put("wasps", "2012")
    p.put("full_moon_corps", "2011")
    p.put("jar_eel", "2013")
    p.put("aelwrin", "2013")
    p.put("cc_lancers#1", "2015")
    p.put("bh_bison_riders#1", "2112")
    exotic(p, SARTAR)
    choose(p, "Wasps", "uses its exotic magic")
    choose(p, "sting around 2012")
    assert p.disrupted("full_moon_corps") and p.disrupted("aelwrin") and not p.disrupted("jar_eel")
    assert not p.disrupted("cc_lancers#1") and not p.disrupted("bh_bison_riders#1")
    assert p.where("wasps") == "dead"


def test_rule_dp_exotic_a_type_1_storm_eliminates_a_hex_and_disrupts_the_non_sartar_units_beside_it():
    """L688: within the Stormwalkers' RF of 12; their spirit is spent."""
    p = Position("18.5", moon="full")
    p.put("stormwalkers", "2016")
    p.put("full_moon_corps", "2012")
    p.put("cc_lancers#1", "2011")
    p.put("bh_bison_riders#1", "2013")
    exotic(p, SARTAR)
    choose(p, "Stormwalkers", "uses its exotic magic")
    choose(p, "Type 1 storm strikes 2012")
    assert p.where("full_moon_corps") == "dead"
    assert p.disrupted("cc_lancers#1") and not p.disrupted("bh_bison_riders#1")
    assert p.where("stormwalkers_spirit") == "dead"
    assert not any("Stormwalkers" in t for t in p.legal())   # no spirit, no second storm


def test_rule_dp_disrupt_a_superhero_beside_a_storm_is_not_disrupted():
    """L590: superheroes cannot be disrupted. A Type 1 storm on 2012 eliminates
    the lancer there and disrupts the one beside it (L688); Jar-eel, alone beside
    it too, stays front side up."""
    p = Position("18.5", moon="full")
    p.put("stormwalkers", "2016")
    p.put("cc_lancers#2", "2012")                # the storm strikes a stack
    p.put("cc_lancers#1", "2011")
    p.put("jar_eel", "2013")
    exotic(p, SARTAR)
    choose(p, "Stormwalkers", "uses its exotic magic")
    choose(p, "Type 1 storm strikes 2012")
    assert p.where("cc_lancers#2") == "dead" and p.disrupted("cc_lancers#1")
    assert p.where("jar_eel") == "2013" and not p.disrupted("jar_eel")


def test_rule_dp_exotic_a_type_2_storm_rains_two_days_then_floods_the_rivers():
    """L688: day 1 and day 2 rain, day 3 flood: every unit on a river hex is disrupted,
    and a unit entering one is disrupted too."""
    p = Position("18.5", moon="full")
    p.put("stormwalkers", "3727")
    p.put("cc_lancers#1", RIVER)
    p.put("cc_lancers#2", "0723")
    exotic(p, SARTAR)
    choose(p, "Stormwalkers", "uses its exotic magic")
    choose(p, "Type 2 storm")
    assert int(p.s["rain"]) == 1
    for day in (2, 3):
        while int(p.s["turn"]) < day:                  # play the game-turn out
            done = [t for t in p.legal() if t in ("end the movement phase", "give no more magical support",
                                                   "commit no more spirits or agents", "fight no more battles",
                                                   "end the Exotic Magic Phase")]
            p.act(done[0])
        if day == 2:
            assert int(p.s["rain"]) == 1 and not p.disrupted("cc_lancers#1")
    assert int(p.s["rain"]) == 0 and p.disrupted("cc_lancers#1") and not p.disrupted("cc_lancers#2")
    p.acts("select the stack at 0723", f"move {p.name('cc_lancers#2')} with the group",
           f"move {p.name('cc_lancers#2')} from 0723 to {RIVER}")
    assert p.disrupted("cc_lancers#2")


def test_rule_dp_exotic_argrath_summons_a_dragontooth_runner_beside_him_and_it_moves_no_more():
    """L684: 'Argrath can summon these 2 units to within 1 hex of himself at any time,
    independently if wanted, but cannot move on the turn that they were summoned'; a
    scenario with exotic magic (18.4) has it, 18.3 not (Interpretations 40)."""
    p = Position("18.4", moon="full")
    p.put("argrath", "3727")
    p.put("dragontooth_runners#1", "3122")
    p.put("dragontooth_runners#2", "3123")
    p.movement(SARTAR, player_turn=2)
    runner = p.name("dragontooth_runners#1")
    p.act(f"Argrath summons {runner}")
    assert f"{runner} comes to 3727" in p.legal() and len(p.legal()) == 7     # his hex and its six neighbours
    p.act(f"{runner} comes to 3728")
    assert p.where("dragontooth_runners#1") == "3728" and p.where("dragontooth_runners#2") == "3123"
    assert "select the stack at 3728" not in p.legal()                       # it cannot move this turn
    p = Position("18.3")
    p.put("argrath", "3727")
    p.put("dragontooth_runners#1", "3122")
    p.movement(SARTAR, player_turn=2)
    assert not any("summons" in t for t in p.legal())


def test_rule_dp_exotic_a_runner_summoned_this_turn_is_not_summoned_again():
    """L684: a summoned Runner 'cannot move on the turn that they were summoned', so
    it is not summoned a second time that turn (else the summons could be repeated
    without end and the turn never finish; Interpretations 40); the other Runner
    still may be, and both may again next turn."""
    p = Position("18.4", moon="full")
    p.put("argrath", "3727")
    p.put("dragontooth_runners#1", "3122")
    p.put("dragontooth_runners#2", "3123")
    p.movement(SARTAR, player_turn=2)
    first, second = p.name("dragontooth_runners#1"), p.name("dragontooth_runners#2")
    p.act(f"Argrath summons {first}")
    p.act(f"{first} comes to 3728")
    assert f"Argrath summons {first}" not in p.legal()
    assert f"Argrath summons {second}" in p.legal()
    p.act(f"Argrath summons {second}")
    p.act(f"{second} comes to 3626")
    assert not any("summons" in t for t in p.legal())
    assert p.where("dragontooth_runners#1") == "3728" and p.where("dragontooth_runners#2") == "3626"
    start_movement(p.S, 0)           # the next movement phase's start: the mark clears
    assert f"Argrath summons {first}" in p.legal() and f"Argrath summons {second}" in p.legal()


def test_rule_dp_exotic_a_runner_that_moved_this_turn_may_still_be_summoned():
    """L684 forbids moving after the summons, not the summons after a move
    (Interpretations 40): a Runner that stepped this turn is summoned, once."""
    p = Position("18.4", moon="full")
    p.put("argrath", "3727")
    p.put("dragontooth_runners#1", "3122")
    p.movement(SARTAR, player_turn=2)
    runner = p.name("dragontooth_runners#1")
    p.act("select the stack at 3122")
    p.act(f"move {runner} with the group")
    p.act(f"move {runner} from 3122 to 3222")
    p.act("stop at 3222")
    assert "select the stack at 3222" not in p.legal()           # it has moved
    p.act(f"Argrath summons {runner}")
    p.act(f"{runner} comes to 3728")
    assert p.where("dragontooth_runners#1") == "3728"
    assert f"Argrath summons {runner}" not in p.legal()


def assassin_at_work(*faces, screening=False):
    p = Position("18.5", moon="full", screening=screening)
    p.put("lcm_magicians#1", "2012")
    p.put("red_emperor", "2012")
    p.put("cm_town_militia#1", "3727")
    p.dice(*faces)
    exotic(p, SARTAR)
    choose(p, "Sartar Assassin", "uses its exotic magic")
    p.act(f"{p.name('sartar_assassin')} scouts the stack at 2012")
    return p


def test_rule_dp_exotic_an_assassin_scouts_then_may_kill_one_unit_and_must_get_away():
    """L924-L947: scouting at 3-6 succeeds; against a hero the die is 1 less (a 4 fails);
    a 5 kills (the hero may escape); the getaway at 4-6 brings the assassin home."""
    p = assassin_at_work(3, 4, 6)
    assert sorted(p.legal()) == sorted([f"{p.name('sartar_assassin')} tries to kill {p.name('lcm_magicians#1')}",
                                        f"{p.name('sartar_assassin')} tries to kill {p.name('red_emperor')}",
                                        f"{p.name('sartar_assassin')} is taken back"])
    p.act(f"{p.name('sartar_assassin')} tries to kill {p.name('red_emperor')}")
    assert p.where("red_emperor") == "2012" and p.where("sartar_assassin") == "holding box"
    p = assassin_at_work(3, 5, 6)
    p.act(f"{p.name('sartar_assassin')} tries to kill {p.name('red_emperor')}")
    assert p.where("red_emperor") == "escaping"


def test_rule_dp_exotic_a_failed_scouting_or_getaway_loses_the_assassin():
    """L932 (1: captured, 2: killed), L942 (0-1 captured, 2-3 killed)."""
    p = assassin_at_work(2)
    assert p.where("sartar_assassin") == "dead"
    p = assassin_at_work(6, 6, 3)
    p.act(f"{p.name('sartar_assassin')} tries to kill {p.name('lcm_magicians#1')}")
    assert p.where("lcm_magicians#1") == "dead" and p.where("sartar_assassin") == "dead"


def test_rule_dp_exotic_with_screening_a_scouted_stack_is_examined_by_the_scout_only():
    """L924, L932: 'the player can examine the units in the hex'."""
    import numpy as np
    from dragongym.envs.dragon_pass import observe as O
    from dragongym.envs.dragon_pass.game import GAME
    from .scenario import unit
    p = assassin_at_work(3, screening=True)
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([1], np.int64), obs)
    assert obs[0, O.UNITS_OFF + unit("red_emperor") * O.UNIT_FEATURES + O.U_SEEN] == 1
    p.act(f"{p.name('sartar_assassin')} is taken back")
    GAME.observe(p.S, np.array([1], np.int64), obs)
    assert obs[0, O.UNITS_OFF + unit("red_emperor") * O.UNIT_FEATURES + O.U_SEEN] == 0


def bat_strikes_argrath(p, escape_die):
    """The Bat's chaotic magic eliminates Argrath at 2012; the battle is played out,
    every die showing ``escape_die``, until his heroic escape is rolled (L642)."""
    exotic(p, LUNAR)
    choose(p, "end the Exotic Magic Phase")
    p.dice(1)
    p.acts("attack the stack at 2012", "attack with the stack at 2011", "attack 2012 with the stacks at 2011")
    choose(p, "eliminate", "Argrath")
    while p.where("argrath") == "escaping":
        legal = p.legal()
        p.dice(*[escape_die] * 10)
        p.act(next((t for t in legal if "arranged" in t or t.startswith("end")), legal[0]))


def bat_position(sartar_elsewhere):
    p = Position("18.4", moon="black")
    p.put("crimson_bat", "2011")
    p.put("full_moon_corps", "2011")
    p.put("argrath", "2012")
    p.put("bh_shamans#1", "2012")
    if sartar_elsewhere:
        p.put("bh_shamans#2", "3030")
    return p


def test_rule_dp_exotic_a_hero_the_bat_strikes_feeds_it_only_if_he_fails_his_escape():
    """L698: the Bat feeds on 'an enemy unit during combat'; a hero is devoured only
    if his heroic escape (L642) fails."""
    p = bat_position(sartar_elsewhere=True)
    bat_strikes_argrath(p, escape_die=1)
    assert p.where("argrath") == "dead" and int(p.s["bat_fed"]) == 1
    p = bat_position(sartar_elsewhere=True)
    bat_strikes_argrath(p, escape_die=6)
    assert p.where("argrath") == "3030" and int(p.s["bat_fed"]) == 0


def test_rule_dp_exotic_a_hero_with_no_stack_to_escape_to_dies_and_feeds_the_bat():
    """L642: a hero whose side has no stack left on the map is eliminated
    permanently, whatever the die; struck by the Bat, he feeds it (L698)."""
    p = bat_position(sartar_elsewhere=False)
    bat_strikes_argrath(p, escape_die=6)
    assert p.where("argrath") == "dead" and int(p.s["bat_fed"]) == 1


# ---------------------------------------------------------------- Giantmaster (L686, rules/giantmaster.py)
GIANT, GIANT2 = "giants#1", "giants#2"


def giant_at(p, name, where, force=None):
    """A giant on the map, no one's (or ``force``'s, as Argrath's)."""
    from dragongym.envs.dragon_pass.constants import FORCES, NEUTRAL, UNIT_IDS
    p.s["units_end"] = len(UNIT_IDS)
    u = p.put(name, where)
    p.s["unit_force"][u] = NEUTRAL if force is None else FORCES.index(force)


def giant_force(p, name):
    from dragongym.envs.dragon_pass.constants import FORCES, UNIT_IDS
    f = int(p.s["unit_force"][UNIT_IDS.index(name)])
    return FORCES[f] if f >= 0 else None


def test_rule_dp_exotic_giantmaster_argrath_enters_a_giants_hex_stops_and_controls_it():
    """L686: 'Argrath must stop if he chooses to enter a hex containing a giant
    ... and gains control of the giant. Argrath and a giant cannot be stacked
    with any other unit.' Beside the giant (its ZOC), he steps into its hex
    and his move ends there; the giant is Sartar's; a militia beside them may
    not join them."""
    p = Position("18.5", moon="full")
    giant_at(p, GIANT, "2013")
    p.put("argrath", "2012")
    p.put("cm_town_militia#1", "2014")
    p.put("dragontooth_runners#1", "3122")
    p.movement(SARTAR, player_turn=2)
    argrath = p.name("argrath")
    p.acts("select the stack at 2012", f"move {argrath} with the group", f"move {argrath} from 2012 to 2013")
    assert p.where("argrath") == p.where(GIANT) == "2013"
    assert giant_force(p, GIANT) == SARTAR
    assert p.phase == R.PH_MOVE                                           # he stopped there
    runner = p.name("dragontooth_runners#1")
    p.act(f"Argrath summons {runner}")
    assert f"{runner} comes to 2013" not in p.legal() and f"{runner} comes to 2113" in p.legal()
    p.act(f"{runner} comes to 2113")
    militia = p.name("cm_town_militia#1")
    p.acts("select the stack at 2014", f"move {militia} with the group")
    assert f"move {militia} from 2014 to 2013" not in p.legal()


def test_rule_dp_exotic_giantmaster_alone_never_two_giants_and_only_with_exotic_magic():
    """L686: 'If 2 giants are in a hex, Argrath cannot enter'; 'Argrath cannot
    control more than 1 giant at a time' (with one, he steps into no other
    giant's hex); with another unit in his group he enters none (no other unit
    stacks with them); and without exotic magic (18.3) he is no Giantmaster
    (Interpretations 163)."""
    p = Position("18.5", moon="full")
    giant_at(p, GIANT, "2013")
    giant_at(p, GIANT2, "2013")
    p.put("argrath", "2012")
    p.movement(SARTAR, player_turn=2)
    argrath = p.name("argrath")
    p.acts("select the stack at 2012", f"move {argrath} with the group")
    assert f"move {argrath} from 2012 to 2013" not in p.legal()           # two giants there
    p = Position("18.5", moon="full")
    giant_at(p, GIANT, "2013", SARTAR)
    p.put("argrath", "2013")
    giant_at(p, GIANT2, "2014")
    p.movement(SARTAR, player_turn=2)
    p.acts("select the stack at 2013", f"move {argrath} with the group")
    assert f"move {argrath} from 2013 to 2014" not in p.legal()           # he controls one already
    p = Position("18.5", moon="full")
    giant_at(p, GIANT, "2013")
    p.put("argrath", "2012")
    p.put("cm_town_militia#1", "2012")
    p.movement(SARTAR, player_turn=2)
    p.acts("select the stack at 2012", f"move {argrath} with the group",
           f"move {p.name('cm_town_militia#1')} with the group")
    assert not any(t.endswith("to 2013") for t in p.legal())              # not alone
    p = Position("18.3")
    giant_at(p, GIANT, "2013")
    p.put("argrath", "2012")
    p.movement(SARTAR, player_turn=2)
    p.acts("select the stack at 2012", f"move {argrath} with the group")
    assert f"move {argrath} from 2012 to 2013" not in p.legal()


def test_rule_dp_exotic_giantmaster_the_giant_moves_with_him_and_reverts_when_he_moves_away():
    """L686: the controlled giant is his side's: it moves with him; 'a
    controlled giant reverts to normal if Argrath moves away' -- no one's
    again the moment he steps off its hex alone (Interpretations 164)."""
    p = Position("18.5", moon="full")
    giant_at(p, GIANT, "2013", SARTAR)
    p.put("argrath", "2013")
    p.put("cm_town_militia#1", "2014")
    p.movement(SARTAR, player_turn=2)
    argrath, giant = p.name("argrath"), p.name(GIANT)
    p.acts("select the stack at 2013", f"move {argrath} with the group", f"move {giant} with the group")
    assert not any(t.startswith("move 2 units") and t.endswith("to 2014") for t in p.legal())   # no other unit's stack
    choose(p, "move 2 units", "to 2113")
    assert p.where("argrath") == p.where(GIANT) == "2113" and giant_force(p, GIANT) == SARTAR
    p.act("stop at 2113")
    p = Position("18.5", moon="full")
    giant_at(p, GIANT, "2013", SARTAR)
    p.put("argrath", "2013")
    p.movement(SARTAR, player_turn=2)
    p.acts("select the stack at 2013", f"move {argrath} with the group", f"move {argrath} from 2013 to 2113")
    assert giant_force(p, GIANT) is None and p.where(GIANT) == "2013"


def test_rule_dp_exotic_giantmaster_neither_retreats_from_combat():
    """L686: 'while stacked, neither can retreat from any combat': the giant
    (MF 7) attacked with Argrath by slower Lunar infantry could otherwise
    retreat; it is never offered (Argrath, a hero, retreats no more than
    ever, L578)."""
    p = Position("18.5", moon="full")
    giant_at(p, GIANT, "2013", SARTAR)
    p.put("argrath", "2013")
    p.put("nf_tarsh_warriors#1", "2012")
    p.combat(LUNAR, player_turn=1)
    p.dice(1, 1)
    p.acts("attack the stack at 2013", "attack with the stack at 2012", "attack 2013 with the stacks at 2012")
    seen = []
    while p.s["stage"] == R.ST_COMBAT and p.phase != R.PH_BATTLE:
        seen.append(p.phase)
        p.act(p.legal()[-1])
    assert R.PH_RETREAT not in seen
    assert giant_force(p, GIANT) == SARTAR and p.where(GIANT) == p.where("argrath") == "2013"


def test_rule_dp_exotic_giantmaster_argrath_fallen_in_battle_the_giant_reverts_after_it():
    """L686 (Interpretations 164): Argrath eliminated in a battle beside his
    giant leaves it: it fights that battle out as Sartar's (its
    counter-attack, the Sartar player taking the Lunar casualties) and is no
    one's once the battle is over -- the next Random Movement Phase moves it."""
    p = Position("18.5", moon="full")
    giant_at(p, GIANT, "2013", SARTAR)
    p.put("argrath", "2013")
    for i in (1, 2, 3):
        p.put(f"nf_tarsh_warriors#{i}", "2012")
    p.combat(LUNAR, player_turn=1)
    p.dice(6, 1, 1, 1)                           # 12 CF at 6: loss 12, Argrath on top; the giant's 15 at 1
    p.acts("attack the stack at 2013", "attack with the stack at 2012", "attack 2013 with the stacks at 2012")
    while p.phase == R.PH_ARRANGE:
        p.act(p.legal()[-1])
    p.act(f"eliminate {p.name('argrath')} at 2013")
    assert p.where("argrath") == "escaping"
    assert p.phase == R.PH_CASUALTY and p.to_play == SARTAR and giant_force(p, GIANT) == SARTAR
    p.act(p.legal()[0])
    while p.phase == R.PH_ARRANGE:
        p.act(p.legal()[-1])
    assert giant_force(p, GIANT) is None and p.where(GIANT) == "2013"


def test_rule_dp_exotic_giantmaster_no_unit_retreats_into_argrath_and_his_giant():
    """L686: 'Argrath and a giant cannot be stacked with any other unit': the
    Free Cavalry retreating from a Lunar attack may not go into their hex
    beside it (Interpretations 164)."""
    p = Position("18.5", moon="full")
    giant_at(p, GIANT, "2013", SARTAR)
    p.put("argrath", "2013")
    p.put("fa_free_cavalry#1", "2012")
    p.put("nf_tarsh_warriors#1", "2011")
    p.combat(LUNAR, player_turn=1)
    p.acts("attack the stack at 2012", "attack with the stack at 2011", "attack 2012 with the stacks at 2011")
    cavalry = p.name("fa_free_cavalry#1")
    p.act(f"retreat {cavalry}")
    assert sorted(p.legal()) == [f"{cavalry} retreats from 2012 to 1913", f"{cavalry} retreats from 2012 to 2113"]
