"""Hungry Jack (L868-L882): carried by a dragon, he draws active units to him
at the start of each enemy movement phase (1, +1 for each of up to 2
magicians of his stacked with him that aid him); a summoned unit must move
toward him, each hex closer, until normal movement stops it; a unit that
becomes adjacent to him rolls: 1-3 eliminated, 4-6 it may move away.
Dragons, superheroes and the units stacked with them are immune to the
summons. The summons' tests hand Jack and a dragon to the Lunars in 18.5 and
play into the Sartar movement phase; the fetching's (L870, rules/fetch.py)
send a Sartar dragon off the West edge in 18.7 and bring it back with him."""
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


# ---------------------------------------------------------------- fetching him (L870, rules/fetch.py)
WEST = "0113"            # the West map edge (column 01), open ground; 0213 beside it


def fetch_off(p, dragon="red_dragon", start="0213", edge=WEST):
    """Sartar's dragon at ``start`` steps to West edge hex ``edge`` and flies off for Jack."""
    name = p.name(dragon)
    p.acts(f"select the stack at {start}", f"move {name} with the group", f"move {name} from {start} to {edge}")
    p.act(f"{name} flies off the West map edge to fetch Hungry Jack")


def test_rule_dp_jack_a_dragon_leaves_by_the_west_edge_and_returns_two_game_turns_later_carrying_him():
    """L870: 'To ally requires that any dragon be sent to fetch him. The dragon
    must leave the West map edge for 2 game-turns. When he returns, he is
    carrying Hungry Jack.' The red dragon leaves in game-turn 1, cannot come
    back in game-turn 2, comes back in game-turn 3 at a West edge hex no enemy
    holds, Jack on its stack, allied with Sartar, its move over there
    (Interpretations 160-161)."""
    p = Position("18.7", moon="full")
    given(p, SARTAR, "red_dragon", "0213")
    p.put("cc_lancers#1", "0120")
    p.movement(SARTAR, player_turn=1)
    name = p.name("red_dragon")
    p.acts("select the stack at 0213", f"move {name} with the group")
    assert not any("fetch Hungry Jack" in t for t in p.legal())          # not on the West edge yet
    p.act(f"move {name} from 0213 to {WEST}")
    p.act(f"{name} flies off the West map edge to fetch Hungry Jack")
    assert p.where("red_dragon") == "entering" and p.phase == R.PH_MOVE
    assert f"bring {name} onto the board" not in p.legal()
    p.movement(SARTAR, player_turn=3)                                     # game-turn 2: still away
    assert f"bring {name} onto the board" not in p.legal()
    p.movement(SARTAR, player_turn=5)                                     # game-turn 3: back
    p.act(f"bring {name} onto the board")
    hexes = [t.rsplit(" ", 1)[1] for t in p.legal()]
    assert all(h[:2] == "01" for h in hexes) and len(hexes) == MAP.rows - 1
    assert "0120" not in hexes                                             # an enemy holds it
    p.act(f"{name} enters at 0112")
    assert p.where("red_dragon") == p.where("hungry_jack") == "0112"
    assert p.stack("0112")[0] == "hungry_jack"                             # carried on the dragon
    assert int(p.s["unit_force"][R.HUNGRY_JACK]) == int(p.s["unit_force"][p_unit("red_dragon")]) == 1
    assert int(p.s["faction_ally"][R.JACK_FACTION]) == 1                  # allied with Sartar
    assert p.mp("red_dragon") == 0 and p.phase == R.PH_MOVE               # its move ends there
    assert int(p.s["jack_fetcher"]) == 0
    # the Lunar movement phase that follows begins with Jack's summons (L872)
    p.act("end the movement phase")
    while not (p.phase in (R.PH_JACK, R.PH_JACK_AID) or (p.to_play == LUNAR and p.phase == R.PH_MOVE)):
        p.act(p.legal()[-1])
    assert p.phase == R.PH_JACK and p.to_play == SARTAR
    assert f"Hungry Jack summons {p.name('cc_lancers#1')} at 0120" in p.legal()


def test_rule_dp_jack_only_a_dragon_alone_fetches_him_and_only_one():
    """L870: a dragon is sent, not other units: a dragon moving with another
    unit, or any other unit, is never offered the West edge; while one dragon
    is away for him no other is sent (Interpretations 160); and he is no
    one's to fetch outside the scenarios with the Independents' alliances
    (18.5 here)."""
    p = Position("18.7", moon="full")
    given(p, SARTAR, "red_dragon", "0213")
    given(p, SARTAR, "green_dragon", "0214")
    given(p, SARTAR, "brown_dragon", "0116")
    other = "cm_town_militia#2"
    p.put(other, "0213")
    p.movement(SARTAR, player_turn=1)
    name = p.name("red_dragon")
    p.acts("select the stack at 0213", f"move {name} with the group", f"move {p.name(other)} with the group")
    choose(p, "move 2 units", f"to {WEST}")
    assert not any("fetch Hungry Jack" in t for t in p.legal())          # not alone
    p.act(f"stop at {WEST}")
    fetch_off(p, "green_dragon", "0214", "0114")
    p.acts("select the stack at 0116", f"move {p.name('brown_dragon')} with the group")
    assert not any("fetch Hungry Jack" in t for t in p.legal())          # the green dragon is gone for him
    q = Position("18.5", moon="full")
    given(q, SARTAR, "red_dragon", WEST)
    q.movement(SARTAR, player_turn=1)
    q.acts(f"select the stack at {WEST}", f"move {name} with the group")
    assert not any("fetch Hungry Jack" in t for t in q.legal())


def test_rule_dp_jack_never_moves_by_himself():
    """L870: 'Hungry Jack cannot move by himself' (L462: zero-MF units): on
    the dragon's stack he is never offered to move; the dragon moves alone."""
    p = Position("18.7", moon="full")
    given(p, SARTAR, "red_dragon", "0213")
    given(p, SARTAR, "hungry_jack", "0213")
    p.movement(SARTAR, player_turn=1)
    p.act("select the stack at 0213")
    assert f"move {p.name('hungry_jack')} with the group" not in p.legal()
    assert f"move {p.name('red_dragon')} with the group" in p.legal()


def p_unit(name):
    return R.UNIT_IDS.index(name)


def test_rule_dp_jack_a_dragon_killed_while_away_fetches_no_one():
    """L768 with L870: Cragspider killed takes her Black Dragon with her, even
    gone West for Hungry Jack: it is dead, and no dragon is fetching him
    (Interpretations 160)."""
    from dragongym.envs.dragon_pass.constants import ENTRY_WEST_EDGE
    from .cragspider_test import CENTRE, cragspider_for, name, pillar, triangle
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR, CENTRE, ("black_dragon", "0113"))
    d = p.entering("black_dragon", ENTRY_WEST_EDGE)
    p.s["jack_fetcher"] = d + 1
    p.s["jack_back_turn"] = 3
    pillar(p, CENTRE)
    p.dice(1, 1, 1)                                          # her heroic escape fails
    name(p, *triangle(CENTRE)[1:])
    assert p.where("cragspider") == p.where("black_dragon") == "dead"
    assert int(p.s["jack_fetcher"]) == 0 and int(p.s["unit_entry"][d]) == -1
