"""Hungry Jack (L868-L882): carried by a dragon, he draws active units to him
at the start of each enemy movement phase (1, +1 for each of up to 2
magicians of his stacked with him that aid him); a summoned unit must move
toward him, each hex closer, until normal movement stops it; a unit that
becomes adjacent to him rolls: 1-3 eliminated, 4-6 it may move away.
Dragons, superheroes and the units stacked with them are immune to the
summons. Jack and his dragon have no side yet (alliances come later): the
tests hand them to the Lunars in 18.5 and play into the Sartar movement phase."""
from dragongym.envs.dragon_pass import rules as R

from dragongym.envs.dragon_pass.data import MAP

from .cragspider_test import step
from .dragons_test import given
from .exotic_test import choose
from .scenario import LUNAR, SARTAR, Position, hexi

JACK = "2014"                 # open ground; 2013, 2012, 2011 north of it open too
MILITIA = "cm_town_militia#1"


def jack_at(p, where=JACK):
    given(p, LUNAR, "red_dragon", where)
    given(p, LUNAR, "hungry_jack", where)


def to_sartar_movement(p):
    """Play the Lunar player-turn out (game-turn 1) to the start of the Sartar
    movement phase, where Hungry Jack's controller is asked first."""
    p.movement(LUNAR, player_turn=1)
    while not (p.phase in (R.PH_JACK, R.PH_JACK_AID) or (p.to_play == SARTAR and p.phase == R.PH_MOVE)):
        p.act(p.legal()[-1])


def test_rule_dp_jack_summons_a_unit_that_must_move_toward_him():
    """L872: 'At the start of an enemy movement phase (before any units have
    moved) ... the player who controls Hungry Jack can announce active units
    to be drawn to it (on his own, Hungry Jack can draw a single unit ...). The
    active player must move the summoned units towards Hungry Jack; each hex
    the unit enters must be closer to Jack than the last. The unit must move
    until stopped by normal movement rules.' L874: adjacent, it rolls: 1-3
    eliminated."""
    p = Position("18.5", moon="full")
    jack_at(p)
    p.put(MILITIA, "2011")
    p.put("cm_town_militia#2", "2311")
    to_sartar_movement(p)
    assert p.phase == R.PH_JACK and p.to_play == LUNAR
    assert sorted(p.legal()) == sorted([f"Hungry Jack summons {p.name(MILITIA)} at 2011",
                                        f"Hungry Jack summons {p.name('cm_town_militia#2')} at 2311",
                                        "Hungry Jack summons no more units"])
    choose(p, "summons", "at 2011")
    assert p.to_play == SARTAR and p.phase == R.PH_MOVE     # one unit on his own: the summons are over
    assert "end the movement phase" not in p.legal()       # the summoned unit must move first
    p.acts("select the stack at 2011", f"move {p.name(MILITIA)} with the group")
    steps = [t for t in p.legal() if t.startswith(f"move {p.name(MILITIA)} from")]
    assert f"move {p.name(MILITIA)} from 2011 to 2012" in steps
    assert all(MAP.distance(hexi(t.rsplit(" ", 1)[1]), hexi(JACK)) == 2 for t in steps)   # each hex closer
    assert not any(t.startswith("stop at") for t in p.legal())            # it must go on
    p.act(f"move {p.name(MILITIA)} from 2011 to 2012")
    assert not any(t.startswith("stop at") for t in p.legal())
    assert f"move {p.name(MILITIA)} from 2012 to 2011" not in p.legal()   # never away from him
    p.dice(2)
    p.act(f"move {p.name(MILITIA)} from 2012 to 2013")
    assert p.where(MILITIA) == "dead"
    assert "end the movement phase" in p.legal()
    assert p.where("cm_town_militia#2") == "2311"


def test_rule_dp_jack_a_unit_rolling_4_to_6_may_move_away():
    """L874: 'On a 4-6, the unit may move away (immediately if it has MF
    left)': the Free Cavalry survives beside Jack, no longer drawn (the
    ZOC of his stack stops its move there), and the phase may end."""
    p = Position("18.5", moon="full")
    jack_at(p)
    p.put("fa_free_cavalry#1", "2011")
    to_sartar_movement(p)
    choose(p, "summons", "at 2011")
    p.acts("select the stack at 2011", f"move {p.name('fa_free_cavalry#1')} with the group")
    p.act(f"move {p.name('fa_free_cavalry#1')} from 2011 to 2012")
    p.dice(5)
    p.act(f"move {p.name('fa_free_cavalry#1')} from 2012 to 2013")
    assert p.where("fa_free_cavalry#1") == "2013"
    assert all(int(x) == 0 for x in p.s["jack_summoned"])              # free of him
    assert "end the movement phase" in p.legal()


def test_rule_dp_jack_dragons_superheroes_and_their_stacks_are_immune_to_the_summons():
    """L874: 'Dragons, superheroes, and all units stacked with them are immune
    to the Jack's summons.' A hero can be drawn (and would roll)."""
    p = Position("18.5", moon="full")
    jack_at(p)
    p.put("harrek", "2011")
    p.put("cm_town_militia#2", "2011")
    given(p, SARTAR, "green_dragon", "2311")
    p.put("cm_town_militia#3", "2311")
    p.put("argrath", "1811")
    to_sartar_movement(p)
    assert sorted(p.legal()) == sorted([f"Hungry Jack summons {p.name('argrath')} at 1811",
                                        "Hungry Jack summons no more units"])


def test_rule_dp_jack_a_superhero_moved_adjacent_still_rolls_and_may_escape():
    """L874: 'a superhero moved adjacent to Hungry Jack must still roll for
    elimination (but the superhero can attempt a heroic escape if
    eliminated)': Harrek, not summoned, steps beside Jack and rolls a 1."""
    p = Position("18.5", moon="full")
    jack_at(p)
    p.put("harrek", "2012")
    to_sartar_movement(p)
    assert p.phase == R.PH_MOVE                           # no unit to summon: not asked
    p.acts("select the stack at 2012", f"move {p.name('harrek')} with the group")
    p.dice(1)
    p.act(f"move {p.name('harrek')} from 2012 to 2013")
    assert p.where("harrek") == "escaping"


def test_rule_dp_jack_two_aiding_magicians_draw_three_units_and_make_no_magic_that_game_turn():
    """L872: 'Up to 2 magicians stacked with Hungry Jack can summon extra units,
    and they cannot provide magical support or make a magical attack of any
    form in the game-turn that they aid the Jack. With 2 magicians aiding the
    Jack, up to 3 units can be drawn in each game-turn.' Then, in the Lunar
    player-turn of the same game-turn (the Sartars move first here), the
    aiding magician's spirit cannot be committed; the other's can."""
    p = Position("18.5", moon="full")
    jack_at(p)
    for m in ("lcm_magicians#1", "lcm_magicians#2", "lcm_magicians#3"):
        p.put(m, JACK)
    fmc, target = step(JACK, 3, 3), step(JACK, 3, 5)      # south-east; Jack's magicians' RF 8 reaches it
    p.put("full_moon_corps", fmc)
    p.put("bh_shamans#1", target)
    far = [step(JACK, d, 7) for d in (1, 2, 6, 5)]       # too far to reach him: no roll, no battle
    for k, where in enumerate(far):
        p.put(f"cm_town_militia#{k + 1}", where)
    p.movement(LUNAR, player_turn=2)                      # the Lunars second: game-turn 2 begins with Sartar
    while not (p.phase in (R.PH_JACK, R.PH_JACK_AID) or (p.to_play == SARTAR and p.phase == R.PH_MOVE)):
        p.act(p.legal()[-1])
    assert p.phase == R.PH_JACK_AID and p.to_play == LUNAR
    choose(p, p.name("lcm_magicians#1"), "aids")
    choose(p, p.name("lcm_magicians#2"), "aids")
    assert p.phase == R.PH_JACK                           # two aides: no third asked
    for where in far[:3]:
        choose(p, "summons", f"at {where}")
    assert p.to_play == SARTAR and p.phase == R.PH_MOVE   # 3 units drawn: the most
    assert all(int(x) > 0 for x in p.s["jack_summoned"])
    # the Sartar player-turn: the drawn militia move as far toward Jack as they can
    while p.to_play == SARTAR:
        p.act(p.legal()[-1])
    assert all(2 <= MAP.distance(hexi(p.where(f"cm_town_militia#{k + 1}")), hexi(JACK)) < 7 for k in range(3))
    assert p.where("cm_town_militia#4") == far[3]
    assert p.to_play == LUNAR and p.phase == R.PH_MOVE and int(p.s["turn"]) == int(p.s["jack_turn"]) == 2
    p.acts(f"select the stack at {fmc}", f"move {p.name('full_moon_corps')} with the group",
           f"move {p.name('full_moon_corps')} from {fmc} to {step(JACK, 3, 4)}")     # beside the shamans
    p.act("end the movement phase")
    while p.phase != R.PH_COMMIT:
        p.act(p.legal()[-1])
    commits = [t for t in p.legal() if t.startswith("commit ")]
    assert any(p.name("lcm_magicians_spirit#3") in t for t in commits)
    assert not any(p.name("lcm_magicians_spirit#1") in t or p.name("lcm_magicians_spirit#2") in t for t in commits)
