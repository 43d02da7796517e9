"""The giants (L914-L920, L490) and the dinosaurs (L833-L837, L600).

Giants come by random events 21-26 at Giants Walk (random_events_test.py);
here they are put on the map by hand, no one's (``unit_force`` -1), and the
game is played into the next player-turn, whose Random Movement Phase (L176)
asks its active player to move every giant like a normal unit, all players'
units inactive to it (L918); giants ending beside units attack them
(Interpretations 148). Dinosaurs are put on the map neutral by hand
(``place_dinosaurs`` sets them up as 18.7 begins: scenario_18_7_test.py).
"""
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import FORCES, NEUTRAL, UNIT_IDS
from tests.dragon_pass.combat_test import LANCERS, MILITIA, arranged, declare
from tests.dragon_pass.herds_test import finish_movement, moving, step_to
from tests.dragon_pass.scenario import LUNAR, SARTAR, Position, unit

GIANT = "giants#1"
GIANT2 = "giants#2"
TRICERATOPS = "tricerotops_spirits#1"
PTERADON = "pteradons#1"


def neutral_at(p, name, hex_id):
    """A counter of the Independents on the map, no one's."""
    p.s["units_end"] = len(UNIT_IDS)
    u = p.put(name, hex_id)
    p.s["unit_force"][u] = NEUTRAL
    return u


def force(p, name):
    f = int(p.s["unit_force"][unit(name)])
    return FORCES[f] if f >= 0 else None


def into_next_player_turn(p):
    """From the end of a movement phase, play the lone decisions on (no
    battles, the rally, book-keeping) into the next player-turn's first
    decision of several or its Random Movement Phase."""
    finish_movement(p)
    while p.phase != R.PH_GIANT_STEP and len(p.legal()) == 1:
        p.act(p.legal()[0])


def giant_steps(p, name):
    return sorted(t.rsplit(" ", 1)[1] for t in p.legal() if t.startswith(f"{p.name(name)} steps to "))


def random_movement(p, *giants):
    """Sartar's player-turn 2 ends; Lunar's player-turn 3 opens with its Random Movement Phase."""
    for g in giants:
        neutral_at(p, *g)
    p.movement(SARTAR, player_turn=2)
    into_next_player_turn(p)
    assert p.phase == R.PH_GIANT_STEP and p.to_play == LUNAR


# ---------------------------------------------------------------- the giants' Random Movement Phase
def test_rule_dp_giants_move_in_the_random_movement_phase_the_active_player_deciding():
    """L490, L918: in every player's Random Movement phase the active player
    moves every giant like a normal unit (MF 7, the terrain's costs), one
    giant after the other; then his movement phase."""
    p = Position("18.1")
    random_movement(p, (GIANT, "2014"), (GIANT2, "3014"))
    assert int(p.s["cursor"]) == unit(GIANT)
    assert p.legal()[-1] == f"{p.name(GIANT)} stops"
    assert len(giant_steps(p, GIANT)) == 6
    p.act(f"{p.name(GIANT)} steps to 2013")
    assert p.where(GIANT) == "2013" and int(p.s["unit_mp"][unit(GIANT)]) < 14
    p.act(f"{p.name(GIANT)} stops")
    assert int(p.s["cursor"]) == unit(GIANT2) and p.to_play == LUNAR
    p.act(f"{p.name(GIANT2)} stops")
    # the Random Movement Phase over, Lunar's movement phase
    assert p.phase == R.PH_MOVE and p.to_play == LUNAR
    assert int(p.s["stage"]) == R.ST_MOVEMENT


def test_rule_dp_giants_spend_their_mf_like_normal_units():
    """L918 'like normal units': a giant's MF of 7 is spent on the terrain it enters (L456)."""
    p = Position("18.1")
    random_movement(p, (GIANT, "2014"))
    mf = int(R.U_MF[unit(GIANT), 0])
    assert mf == 7
    g = unit(GIANT)
    assert int(p.s["unit_mp"][g]) == 2 * mf      # half MPs
    while giant_steps(p, GIANT):
        before = int(p.s["unit_mp"][g])
        nxt = giant_steps(p, GIANT)[0]
        p.act(f"{p.name(GIANT)} steps to {nxt}")
        assert p.where(GIANT) == nxt
        assert 0 <= int(p.s["unit_mp"][g]) < before   # each step paid for
    # its MPs spent: it can only stop
    assert p.legal() == [f"{p.name(GIANT)} stops"]


def test_rule_dp_giants_are_stopped_by_the_zoc_of_either_player_even_the_active_one():
    """L918: all players' units are inactive to the giant; it must stop when
    moved beside inactive or active units (L490): entering a ZOC of Sartar
    (inactive) or of the Lunars (active, whose player moves it) stops it."""
    for owner_unit, owner in ((LANCERS[0], LUNAR), (MILITIA[0], SARTAR)):
        p = Position("18.1")
        p.put(owner_unit, "2012")
        random_movement(p, (GIANT, "2014"))
        p.dice(1)                                 # the giant's attack: a 1, no loss at 2012
        p.act(f"{p.name(GIANT)} steps to 2013")   # beside 2012: in that player's ZOC
        assert p.where(GIANT) == "2013", owner
        assert p.phase != R.PH_GIANT_STEP, owner  # it had to stop (and attacks, DP-GIANTS-5)


def test_rule_dp_giants_enter_no_hex_holding_units():
    """Giants hold their own hexes: they enter none with a player's units (L448)."""
    p = Position("18.1")
    p.put(LANCERS[0], "2012")         # Lunar: inactive in Sartar's player-turn, not bound to attack it (Interpretations 162)
    random_movement(p, (GIANT, "2013"))
    assert "2012" not in giant_steps(p, GIANT)
    # and starting in a ZOC it may not step straight into another ZOC hex (L460)
    assert "2112" not in giant_steps(p, GIANT) and "1912" not in giant_steps(p, GIANT)


def test_rule_dp_giants_are_inactive_to_both_players_their_zoc_stops_either():
    """The giants are no one's: a player's unit cannot enter their hex, and a
    giant's zone of control stops the units of both players (L918, L460)."""
    p = Position("18.1")
    neutral_at(p, GIANT, "2012")
    p.put(LANCERS[0], "2014")
    p.movement(LUNAR)
    moving(p, "2014", LANCERS[0])
    step_to(p, "2014", "2013")                    # beside the giant
    assert p.where(LANCERS[0]) == "2013"
    assert not [t for t in p.legal() if t.endswith(" to 2012")]
    assert p.phase == R.PH_MOVE                   # stopped by the giant's ZOC


def test_rule_dp_giants_no_random_movement_phase_without_giants():
    """L169-L177: a phase with nothing to do is skipped: without giants the
    player-turn opens with its movement phase."""
    p = Position("18.1")
    p.put(LANCERS[0], "2014")
    p.movement(SARTAR, player_turn=2)
    into_next_player_turn(p)
    assert p.phase == R.PH_MOVE and p.to_play == LUNAR


# ---------------------------------------------------------------- dinosaurs
def test_rule_dp_dinosaurs_ally_with_a_unit_that_ends_a_phase_stacked_with_them():
    """L835: a dinosaur will ally with any unit that ends a phase stacked with
    it; neutral, it holds no hex (any unit may enter it)."""
    p = Position("18.1")
    neutral_at(p, TRICERATOPS, "0604")
    p.put(LANCERS[0], "0504")
    p.movement(LUNAR)
    moving(p, "0504", LANCERS[0])
    step_to(p, "0504", "0604")
    p.act("stop at 0604")
    assert force(p, TRICERATOPS) is None          # not before the end of the phase
    finish_movement(p)
    assert force(p, TRICERATOPS) == LUNAR


def test_rule_dp_dinosaurs_left_alone_revert_to_neutrality_but_not_during_the_movement_phase():
    """L835: a dinosaur left alone at any time except during the movement
    phase reverts to neutrality: its ally moving away in the movement phase
    leaves it allied until the phase ends, then it is neutral."""
    p = Position("18.1")
    neutral_at(p, PTERADON, "0604")
    p.s["unit_force"][unit(PTERADON)] = FORCES.index(LUNAR)
    p.put(LANCERS[0], "0604")
    p.movement(LUNAR)
    moving(p, "0604", LANCERS[0])
    step_to(p, "0604", "0504")
    p.act("stop at 0504")
    assert force(p, PTERADON) == LUNAR            # alone during the movement phase: still allied
    finish_movement(p)
    assert force(p, PTERADON) is None


def test_rule_dp_dinosaurs_neutral_ones_are_allied_by_an_advance_ending_on_them():
    """L600: 'If an advance ends on neutral dinosaurs, it allies those
    dinosaurs': the lancers' extended advance (MF 7) from the vacated hex
    into the neutral Triceratops' hex allies it with the Lunars."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    neutral_at(p, TRICERATOPS, "0704")            # beside 0604, far from any other unit
    p.combat(LUNAR)
    p.dice(6)                                     # loss 12
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")                           # a lone militia: no arrangement
    if p.phase == R.PH_RETREAT:
        p.act("no more retreats")
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    p.act(f"advance {p.name(LANCERS[0])}")
    p.act(f"{p.name(LANCERS[0])} advances into 0604")
    assert force(p, TRICERATOPS) is None
    ext = [t for t in p.legal() if t.endswith(" 0704")]
    assert len(ext) == 1, p.legal()
    p.act(ext[0])
    assert p.where(LANCERS[0]) == "0704"
    assert force(p, TRICERATOPS) == LUNAR


def test_rule_dp_giants_a_giant_of_a_player_is_an_unsound_record():
    """L918: giants are no one's: a record giving one to a side is unsound
    (``soundness.py``)."""
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.1")
    neutral_at(p, GIANT, "3010")
    p.movement(LUNAR)
    assert GAME.check_state(p.S) == ""
    p.s["unit_force"][unit(GIANT)] = FORCES.index(SARTAR)
    assert "no one's" in GAME.check_state(p.S)


def test_rule_dp_giants_no_retreat_into_or_beside_their_hex():
    """L577, L918: a retreating unit may not end beside (or in) a hex of
    another player's units; the giants, inactive to both players, count as
    such: 0705, beside the giant at 0805, is no longer a retreat hex."""
    from tests.dragon_pass.combat_test import WARRIORS
    cavalry = "fa_free_cavalry#1"
    options = []
    for giant_hex in (None, "0805"):
        p = Position("18.3")
        for u in WARRIORS[:2]:
            p.put(u, "0504")
        p.put(cavalry, "0604")
        if giant_hex:
            neutral_at(p, GIANT, giant_hex)
        p.combat(LUNAR)
        declare(p, ["0604"], ["0504"])
        arranged(p, "0504")
        p.act(f"retreat {p.name(cavalry)}")
        options.append(sorted(t.rsplit(" ", 1)[1] for t in p.legal()))
    assert options == [["0605", "0704", "0705"], ["0605", "0704"]]


# ---------------------------------------------------------------- the giants' attack
def test_rule_dp_giants_attack_the_units_they_end_beside_the_other_player_deciding_for_them():
    """L918: 'Any giants that end their movement adjacent to any players' units
    will attack all of those units according to normal combat rules. Giants
    will even attack the active player if they are moved into a ZOC of the
    active player.' The Lunar (active) player moves the giant beside his own
    Lancers: it attacks them, the Sartar player deciding for the giant
    (Interpretations 148); the giant makes no advance into the hex it
    emptied; then it is no one's again and the Lunar movement phase begins."""
    p = Position("18.1")
    p.put(LANCERS[0], "2012")
    random_movement(p, (GIANT, "2014"))
    p.dice(6)                                     # a 6 at 15 CF: the lancers are lost
    p.act(f"{p.name(GIANT)} steps to 2013")
    assert p.phase == R.PH_CASUALTY and p.to_play == SARTAR
    assert p.legal() == [f"eliminate {p.name(LANCERS[0])} at 2012"]
    p.act(f"eliminate {p.name(LANCERS[0])} at 2012")
    assert p.where(LANCERS[0]) == "dead"
    assert p.where(GIANT) == "2013" and force(p, GIANT) is None          # no advance was asked
    assert p.phase == R.PH_MOVE and p.to_play == LUNAR and int(p.s["giant_foe"]) == 0


def test_rule_dp_giants_attack_both_players_units_the_inactive_players_first():
    """L918 'attack all of those units': a giant beside units of both players
    fights two battles, the inactive player's units first (the active player
    deciding for the giant), then the active player's (the inactive player
    deciding) (Interpretations 148)."""
    p = Position("18.1")
    p.put(LANCERS[0], "2012")
    random_movement(p, (GIANT, "2013"))
    # the Sartar militia beside it now (in Sartar's own combat phase it would have had to attack it,
    # Interpretations 162)
    p.put(MILITIA[0], "2014")
    p.dice(6, 6)
    p.act(f"{p.name(GIANT)} stops")
    assert p.phase == R.PH_CASUALTY and p.to_play == LUNAR
    assert p.legal() == [f"eliminate {p.name(MILITIA[0])} at 2014"]
    p.act(f"eliminate {p.name(MILITIA[0])} at 2014")
    assert p.phase == R.PH_CASUALTY and p.to_play == SARTAR
    assert p.legal() == [f"eliminate {p.name(LANCERS[0])} at 2012"]
    p.act(f"eliminate {p.name(LANCERS[0])} at 2012")
    assert p.phase == R.PH_MOVE and p.to_play == LUNAR
    assert p.where(MILITIA[0]) == p.where(LANCERS[0]) == "dead"


def test_rule_dp_giants_attacked_units_may_retreat_and_counter_attack():
    """Normal combat (L571-L600): the attacked stack is arranged and may
    retreat, and what stays counter-attacks the giant, its player taking the
    giant's casualties as the striker (Interpretations 148)."""
    p = Position("18.1")
    for u in LANCERS:
        p.put(u, "2012")
    random_movement(p, (GIANT, "2014"))
    p.dice(1, 6)                                  # the attack: a 1; the counter-attack at 16: a 6
    p.act(f"{p.name(GIANT)} steps to 2013")
    assert p.to_play == LUNAR and p.phase == R.PH_ARRANGE
    arranged_as_they_are(p)
    assert p.phase == R.PH_RETREAT and f"retreat {p.name(LANCERS[0])}" in p.legal()
    p.act("no more retreats")
    arranged_as_they_are(p)
    while p.phase == R.PH_CASUALTY and p.to_play == SARTAR:
        p.act(p.legal()[0])                       # the giant's strike, taken by the Sartar player's choice
    arranged_as_they_are(p)
    # the counter-attack of 16 CF: the giant is lost, the Lunar player taking it as the striker
    assert p.phase == R.PH_CASUALTY and p.to_play == LUNAR
    assert p.legal() == [f"eliminate {p.name(GIANT)} at 2013"]
    p.act(f"eliminate {p.name(GIANT)} at 2013")
    arranged_as_they_are(p)
    assert p.phase == R.PH_MOVE and p.to_play == LUNAR
    assert p.where(GIANT) == "dead" and all(p.where(u) == "2012" for u in LANCERS)


def test_rule_dp_giants_missile_fire_at_a_stack_with_a_giant_is_1_more():
    """L382, L1109: +1 to the missile roll at a stack with a giant. Eight Lunar
    Missile Factors (the 7-9 column) fire at the giant that attacks them from
    open ground (2013): a 1 is 2 with the +1, a 1DD -- it would be 1, no
    result, without it; the Sartar player takes the giant's casualty
    (Interpretations 148)."""
    from tests.dragon_pass.combat_test import ALL_LUNAR_MISSILES
    archers = [u for u in ALL_LUNAR_MISSILES if not u.startswith("cc_light_horse_archers")]
    p = Position("18.3")
    for u in archers:
        p.put(u, "2012")
    assert sum(int(R.U_MISSILE[unit(u), 0]) for u in archers) == 8
    random_movement(p, (GIANT, "2014"))
    p.dice(1)
    p.act(f"{p.name(GIANT)} steps to 2013")
    assert p.phase == R.PH_MISSILE_CASUALTY and p.to_play == SARTAR
    assert p.legal() == [f"disrupt {p.name(GIANT)}"]


def arranged_as_they_are(p):
    """Every arrangement asked of the attacked player is left as it is."""
    while p.phase == R.PH_ARRANGE:
        p.act(p.legal()[-1])


def test_rule_dp_dinosaurs_a_trachodon_allies_with_its_spirit():
    """L835, L837: the Trachodons are spirit magicians: allied, a Trachodon
    brings its spirit (in its holding box, L416) to the same side."""
    from dragongym.envs.dragon_pass.constants import UW_HOLDING
    p = Position("18.1")
    neutral_at(p, "trachodons#1", "0604")
    p.s["unit_where"][unit("trachodons_spirit#1")] = UW_HOLDING
    p.s["unit_force"][unit("trachodons_spirit#1")] = NEUTRAL
    p.put(LANCERS[0], "0504")
    p.movement(LUNAR)
    moving(p, "0504", LANCERS[0])
    step_to(p, "0504", "0604")
    p.act("stop at 0604")
    finish_movement(p)
    assert force(p, "trachodons#1") == LUNAR and force(p, "trachodons_spirit#1") == LUNAR


# ---------------------------------------------------------------- players attacking giants (Interpretations 162)
WARRIORS = [f"nf_tarsh_warriors#{i}" for i in range(1, 4)]     # Lunar 4-3-4


def test_rule_dp_giants_beside_a_players_stack_must_be_attacked_the_other_player_deciding_for_them():
    """L918: the giants are no one's, every player's units inactive to them;
    so are they to the active player (their ZOC stops him, DP-GIANTS-1), and
    'any active stack that ends movement adjacent to an inactive stack must
    have a battle' (L516): the Lunar lancers beside a giant must fight it (no
    'no more battles' while they have not). The battle is against the giant
    alone (the Sartar militia beside the lancers is not added to it); the
    giant is lent to the Sartar player for it, who takes the Lunar casualties
    of its counter-attack; the battle over, it is no one's again."""
    p = Position("18.1")
    neutral_at(p, GIANT, "2013")
    for u in LANCERS[:3]:
        p.put(u, "2012")
    p.put(MILITIA[0], "2011")
    p.combat(LUNAR)
    assert sorted(p.legal()) == ["attack the stack at 2011", "attack the stack at 2013"]
    p.act("attack the stack at 2013")
    assert force(p, GIANT) == SARTAR                              # lent to the other player
    assert p.legal() == ["attack with the stack at 2012"]
    p.act("attack with the stack at 2012")
    assert p.legal() == ["attack 2013 with the stacks at 2012"]   # the militia at 2011 is not added
    p.act("attack 2013 with the stacks at 2012")
    p.dice(1, 1)                                  # 12 CF at 1: loss 2, none of the giant's 15; 15 CF at 1: loss 3
    arranged_as_they_are(p)
    assert p.phase == R.PH_CASUALTY and p.to_play == SARTAR      # the giant's counter-attack: Sartar decides
    p.act(p.legal()[0])
    arranged_as_they_are(p)
    assert force(p, GIANT) is None and int(p.s["giants_lent"]) == 0
    assert p.where(GIANT) == "2013" and sum(p.where(u) == "dead" for u in LANCERS[:3]) == 1


def test_rule_dp_giants_attacked_in_a_fortress_defend_outside_it():
    """L458, L472: 'dragons, giants, herds (and units stacked above them) are
    always considered to be outside structures': a giant in Jonstown (a
    fortress, x2 inside) absorbs a loss at its own CF of 15, not 30: a loss
    of 24 takes it."""
    p = Position("18.1")
    neutral_at(p, GIANT, "3122")
    for u in LANCERS[:3]:
        p.put(u, "3123")
    for u in WARRIORS:
        p.put(u, "3121")
    p.combat(LUNAR)
    p.dice(6)                                     # 24 CF at 6
    declare(p, ["3122"], ["3123", "3121"])
    arranged_as_they_are(p)
    assert p.phase == R.PH_CASUALTY and p.to_play == LUNAR
    assert p.legal() == [f"eliminate {p.name(GIANT)} at 3122"]
    p.act(f"eliminate {p.name(GIANT)} at 3122")
    assert p.where(GIANT) == "dead"


def test_rule_dp_giants_spirits_may_be_committed_against_giants():
    """L496: a spirit is committed 'atop any inactive stack within the
    magician's RF that is to be attacked': a giants' stack is one
    (Interpretations 162). The Storm Priests' spirit goes against the giant
    beside the Sartar militia; it attacks in the battle and goes home."""
    p = Position("18.5", moon="full")
    neutral_at(p, GIANT, "2013")
    for u in MILITIA[:3]:
        p.put(u, "2012")
    p.put("smu_storm_priests#1", "2012")
    p.combat(SARTAR, player_turn=2)
    spirit = p.name("smu_storm_priests_spirit#1")
    p.act(f"commit {spirit}")
    assert p.legal() == [f"{spirit} attacks the stack at 2013"]
    p.act(f"{spirit} attacks the stack at 2013")
    assert p.where("smu_storm_priests_spirit#1") == "committed to 2013"
    p.dice(1, 1, 1, 1, 1, 1)
    p.acts("attack the stack at 2013", "attack with the stack at 2012", "attack 2013 with the stacks at 2012")
    while int(p.s["giants_lent"]):
        p.act(p.legal()[0])
    assert force(p, GIANT) is None and p.where("smu_storm_priests_spirit#1") == "holding box"
