"""Tentacles (L1518): four tentacles placed on any foes, each rolling the
Hit Dice -- a double hit lowers its target's maneuver speed by one, a single
hit its attack speed -- lasting until the target dies or the caster dies or
leaves; tentacles on the dead may be placed elsewhere before Hero Tactics,
rolled at once; a hidden caster rolls to stay hidden in a round one is placed.
A Human Druid in Tri Peaks 1 (``combat_test``) against a Giant Spider and a
Giant Bat."""
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import HST_HIDDEN, MON_TAKEN
from dragongym.envs.dragons_down.game import GAME
from dragongym.envs.dragons_down.rules import combat as C
from tests.dragons_down.combat_test import BLANK, EQUAL, HIT, TRI_PEAKS_1, act, ask, chip, legal, load
from tests.dragons_down.spells_test import ME, in_combat, wizard


def cast_tentacles(hidden=False, cls="druid"):
    """The Druid's (or a hero of ``cls``) Tentacles resolved in the first
    round (his Target step still to come): (S, card, spider, bat), its first
    tentacle to place."""
    S, sp = wizard("tentacles", {"blue": 3}, cls=cls,
                   monsters=(("giant_spider", TRI_PEAKS_1), ("giant_bat", TRI_PEAKS_1)))
    if hidden:
        S[0]["hero_status"][0] = HST_HIDDEN
    spider, bat = chip(S, "giant_spider"), chip(S, "giant_bat")
    in_combat(S)
    s = S[0]
    s["cast_card"][0], s["cast_stage"][0] = sp, R.CAST_PLACED
    assert R.cast_spell(S, 0, 0)
    return S, sp, spider, bat


def held(S, f, effect):
    return int(R.tentacle_hold(S, 0, f, effect))


def test_dd_spell_tentacles_1_four_tentacles_each_roll_double_for_maneuver_single_for_speed():
    """L1518: the four tentacles are placed first (three on the spider, one
    on the bat; no foe may be skipped), then each rolls two Hit Dice: two
    hits -1 maneuver, one hit -1 attack speed, none (an equal sign is no hit)
    nothing. The spider moves at 1 less and strikes at 1 less; the bat is
    untouched."""
    S, sp, spider, bat = cast_tentacles()
    ask(S, R.PH_TENTACLE, 0)
    assert sorted(legal(S)) == sorted([R.A_FOE + spider, R.A_FOE + bat])
    assert GAME.action_to_string(S, R.A_FOE + spider).startswith("put a tentacle on Giant Spider")
    maneuver, speed = R.foe_maneuver(S, 0, spider), C.foe_speed(S, 0, spider)
    bat_maneuver = R.foe_maneuver(S, 0, bat)
    for f in (spider, spider, spider):
        act(S, R.A_FOE + f)
    load(S, HIT, HIT, HIT, BLANK, BLANK, BLANK, EQUAL, EQUAL)
    act(S, R.A_FOE + bat)
    assert int(S[0]["phase"]) != R.PH_TENTACLE and int(S[0]["spell_on"][sp]) == ME + 0
    assert (held(S, spider, R.TENT_MANEUVER), held(S, spider, R.TENT_ATTACK)) == (1, 1)
    assert R.foe_maneuver(S, 0, spider) == maneuver - 1 and C.foe_speed(S, 0, spider) == speed - 1
    assert R.foe_maneuver(S, 0, bat) == bat_maneuver and held(S, bat, R.TENT_ATTACK) == 0


def test_dd_spell_tentacles_2_tentacles_on_the_dead_move_before_tactics_and_end_with_the_caster():
    """L1518: the spider dead, before his Hero Tactics the Druid may place
    its three tentacles elsewhere, one by one: one to the bat (rolled at
    once: a double hit), two left where they lie; then his Tactics. When he
    leaves the fight (killed or evaded) the tentacles let go."""
    S, sp, spider, bat = cast_tentacles()
    for f in (spider, spider, spider):
        act(S, R.A_FOE + f)
    load(S, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK)
    act(S, R.A_FOE + bat)
    ask(S, R.PH_TACTICS, 0)
    S[0]["mon_clearing"][spider] = MON_TAKEN               # killed (as in a later Resolve step)
    assert R.move_tentacles(S, 0, 0)                       # what his next Hero Tactics asks first
    ask(S, R.PH_TENTACLE, 0)
    assert sorted(legal(S)) == sorted([R.A_FOE + bat, R.A_DO + R.DO_PASS])
    load(S, HIT, HIT)
    act(S, R.A_FOE + bat)
    act(S, R.A_DO + R.DO_PASS)
    act(S, R.A_DO + R.DO_PASS)
    ask(S, R.PH_TACTICS, 0)
    assert held(S, bat, R.TENT_MANEUVER) == 1
    before = R.foe_maneuver(S, 0, bat)
    R.end_combat_spells(S, 0, 0, -1)                      # he evades or dies: his combat spells end (L1042)
    assert int(S[0]["spell_on"][sp]) == -1 and R.foe_maneuver(S, 0, bat) == before + 1


def test_dd_spell_tentacles_3_a_hidden_caster_rolls_to_stay_hidden_when_a_tentacle_is_placed():
    """L1518: in a round a tentacle of his is newly placed a hidden caster
    rolls to stay hidden at Cleanup, though he used no card this round
    (a Monster symbol unhides him); in a round none is placed he does not roll."""
    for placed in (True, False):
        S, sp, spider, bat = cast_tentacles(hidden=True)
        for f in (spider, spider, spider, bat):
            if f == bat:
                load(S, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK, BLANK)
            act(S, R.A_FOE + f)
        s = S[0]
        s["hero_cflags"][0] = 0                            # no card used this round: the tentacles alone
        if not placed:
            s["tentacle_new"] = 0
        load(S, 0, 2)                                      # the hide roll: a Monster symbol, a blank
        C.end_of_round(S, 0)
        assert bool(int(s["hero_status"][0]) & HST_HIDDEN) == (not placed)


def test_dd_class_conjurer_1_a_conjurer_rerolls_one_die_of_a_missing_tentacle_or_air_sword_roll():
    """L1214: the Conjurer rerolls one die for a blue spell's effect and
    keeps the new face: a tentacle rolling two blanks rerolls one (a hit: a
    single hit, -1 attack speed), where a Druid's misses; the Air Sword's
    missing roll (a blank beside a hit, speed 1 against maneuver 2) rerolls
    its blank (a hit: it hits). A roll that hits is not rerolled."""
    for cls, effect in (("conjurer", R.TENT_ATTACK), ("druid", R.TENT_MISS)):
        S, sp, spider, bat = cast_tentacles(cls=cls)
        for f in (spider, spider, spider):
            act(S, R.A_FOE + f)
        load(S, HIT, HIT, HIT, HIT, HIT, HIT, BLANK, BLANK, HIT)
        act(S, R.A_FOE + bat)
        assert held(S, bat, effect) == 1, cls
    S, sp, spider, bat = cast_tentacles(cls="conjurer")
    load(S, BLANK, HIT, HIT)
    assert R.mastery_roll(S, 0, 0, 1, 2)
    load(S, HIT, HIT, BLANK)
    assert R.mastery_roll(S, 0, 0, 1, 2) and int(S[0]["loaded_pos"]) < int(S[0]["loaded_count"])
    S[0]["hero_class"][0] = R.CLASS_IDS.index("druid")
    S[0]["loaded_pos"] = S[0]["loaded_count"] = 0
    load(S, BLANK, HIT, HIT)
    assert not R.mastery_roll(S, 0, 0, 1, 2)
