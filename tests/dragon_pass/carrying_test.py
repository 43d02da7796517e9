"""Carrying zero-MF units (L462, L578, L586), the Twin Stars' movement (L444,
L636), Keener Than on the Hound (L756) and the disembodied spirits' movement
(L464). Hungry Jack, whose MF is 0, is the one zero-MF counter of Dragon Pass
that moves on the map (only a dragon carries him, L870); he and his dragon
have no side yet in these positions (alliances come later): the tests hand
them to a player."""
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import KINDS, UNIT_IDS, UNIT_KIND_OF

from .combat_test import declare
from .dragons_test import given
from .ethilrist_test import HOUND, keener_for, sartar_movement_starts
from .movement_test import step
from .scenario import LUNAR, SARTAR, Position, unit

JACK, DRAGON = "hungry_jack", "red_dragon"
LANCERS = "cc_lancers#1"         # Lunar cavalry, MF 7
MILITIA = "cm_town_militia#1"    # Sartar, 3-3-4
CENTRE = "2014"                # open ground; 2013, 2012, 2011 north of it open too


def go(p, frm, to):
    """The group now moving steps from ``frm`` to ``to``, whoever is in it."""
    return p.act(next(t for t in p.legal() if t.startswith("move ") and t.endswith(f" from {frm} to {to}")))


def carried_by_the_dragon(p, where=CENTRE):
    """The Lunars' red dragon and Hungry Jack stacked at ``where``, and the
    Lunar movement phase begun."""
    given(p, LUNAR, DRAGON, where)
    given(p, LUNAR, JACK, where)
    p.movement(LUNAR)


def test_rule_dp_carry_a_dragon_carries_hungry_jack_who_pays_nothing():
    """L462: 'Zero MF units cannot move themselves. They can be carried by any
    unit with an MF of 1 or higher'; L870: Hungry Jack 'can only be carried by
    a dragon'. Jack joins the dragon's group, moves with it, pays nothing."""
    p = Position("18.5")
    carried_by_the_dragon(p)
    p.act(f"select the stack at {CENTRE}")
    assert f"move {p.name(JACK)} with the group" not in p.legal()     # no carrier yet: he cannot move himself
    p.act(f"move {p.name(DRAGON)} with the group")
    p.act(f"move {p.name(JACK)} with the group")
    go(p, "2014", "2013")
    go(p, "2013", "2012")
    p.act("stop at 2012")
    assert p.where(JACK) == "2012" and p.where(DRAGON) == "2012"
    assert p.mp(JACK) == 0
    assert p.mp(DRAGON) == 18.0           # the dragon paid 2 clear hexes of its 20


def test_rule_dp_carry_hungry_jack_is_carried_by_no_unit_but_a_dragon():
    """L462, L870: Hungry Jack 'can only be carried by a dragon': a militia
    unit stacked with him moves without him, and alone he cannot move."""
    p = Position("18.5")
    given(p, LUNAR, JACK, CENTRE)
    p.put(LANCERS, CENTRE)
    p.movement(LUNAR)
    p.act(f"select the stack at {CENTRE}")
    assert f"move {p.name(JACK)} with the group" not in p.legal()
    p.act(f"move {p.name(LANCERS)} with the group")
    assert f"move {p.name(JACK)} with the group" not in p.legal()
    step(p, LANCERS, "2014", "2013")
    assert p.where(JACK) == CENTRE


def test_rule_dp_carry_a_carried_unit_is_dropped_off_at_any_hex():
    """L462: zero-MF units are carried 'and dropped off at any hex': the dragon
    drops Jack at 2013 and flies on to 2011."""
    p = Position("18.5")
    carried_by_the_dragon(p)
    p.acts(f"select the stack at {CENTRE}", f"move {p.name(DRAGON)} with the group",
           f"move {p.name(JACK)} with the group")
    assert f"drop off {p.name(JACK)} at 2014" not in p.legal()       # he has not moved yet
    go(p, "2014", "2013")
    p.act(f"drop off {p.name(JACK)} at 2013")
    step(p, DRAGON, "2013", "2012")
    step(p, DRAGON, "2012", "2011")
    p.act("stop at 2011")
    assert p.where(JACK) == "2013" and p.where(DRAGON) == "2011"
    # his move is over: the dragon cannot come back for him this phase
    assert "select the stack at 2013" not in p.legal()


# ---------------------------------------------------------------- retreats (L578) and melee casualties (L586)
def sartar_stack_attacked(p, *names, at="0604", lancers=3):
    """Sartar's counters ``names`` (the first at the bottom) at ``at``, attacked
    from 0504 by Lunar lancers (MF 7) and what else stands there; the defender
    retreats now."""
    for name in names:
        given(p, SARTAR, name, at)
    for k in range(lancers):
        p.put(f"cc_lancers#{k + 1}", "0504")
    p.combat(LUNAR)
    p.dice(1)
    declare(p, [at], ["0504"])
    while p.phase == R.PH_ARRANGE:
        p.act(p.legal()[-1])
    assert p.phase == R.PH_RETREAT


def test_rule_dp_carry_a_fast_unit_carries_a_zero_mf_unit_off_without_cover():
    """L578: 'Defending units that are faster than all of the attacking units,
    and any zero MF units that they want to carry, can always retreat
    regardless of whether an adequate covering force is left behind.' Jack
    cannot retreat by himself; once the dragon (MF 20, faster than the lancers'
    7) has retreated, he may go with it, to its hex only, leaving no one behind."""
    p = Position()
    sartar_stack_attacked(p, DRAGON, JACK)
    assert f"retreat {p.name(JACK)}" not in p.legal()       # no carrier has gone: he cannot move himself
    p.act(f"retreat {p.name(DRAGON)}")
    p.act(p.legal()[0])                                    # the dragon's retreat hex
    there = p.where(DRAGON)
    p.act(f"retreat {p.name(JACK)}")
    assert len(p.legal()) == 1                             # only where his carrier went
    p.act(p.legal()[0])
    assert p.where(JACK) == there and p.stack("0604") == []


def test_rule_dp_carry_a_zero_mf_unit_carried_by_a_slow_unit_needs_cover():
    """L578: a carrier no faster than every fighting attacker is slow: the
    zero-MF unit it carries off needs a covering force left behind, as the
    carrier did. The Lunar green dragon (MF 20) attacks with the lancers, so
    Sartar's red dragon (MF 20) is not faster: it retreats with Jack covering
    it, and then Jack, the last unit of the stack, cannot follow."""
    p = Position()
    given(p, LUNAR, "green_dragon", "0504")
    sartar_stack_attacked(p, DRAGON, JACK, lancers=1)
    p.act(f"retreat {p.name(DRAGON)}")
    p.act(p.legal()[0])
    assert f"retreat {p.name(JACK)}" not in p.legal()
    # with the militia left behind to cover him, he may follow -- into his carrier's hex only
    p = Position()
    given(p, LUNAR, "green_dragon", "0504")
    sartar_stack_attacked(p, "cm_town_militia#1", DRAGON, JACK, lancers=1)
    assert f"retreat {p.name(JACK)}" not in p.legal()
    p.act(f"retreat {p.name(DRAGON)}")
    p.act(p.legal()[0])
    there = p.where(DRAGON)
    p.act(f"retreat {p.name(JACK)}")
    assert len(p.legal()) == 1
    p.act(p.legal()[0])
    assert p.where(JACK) == there and p.stack("0604") == ["cm_town_militia#1"]


def test_rule_dp_carry_a_zero_mf_unit_may_be_bypassed_as_a_melee_casualty():
    """L586: 'Herds and units with zero MF can be bypassed, but they can
    optionally also be selected to be casualties.' Jack, dropped off on top of
    the Sartar militia, may be taken or passed over for the militia."""
    p = Position()
    given(p, SARTAR, "cm_town_militia#1", "0604")
    given(p, SARTAR, JACK, "0604")                         # on top
    for k in range(3):
        p.put(f"cc_lancers#{k + 1}", "0504")
    p.combat(LUNAR)
    p.dice(6)
    declare(p, ["0604"], ["0504"])
    while p.phase != R.PH_CASUALTY:
        p.act(p.legal()[-1])
    legal = p.legal()
    assert f"eliminate {p.name(JACK)} at 0604" in legal
    assert f"eliminate {p.name('cm_town_militia#1')} at 0604" in legal
    p.act(f"eliminate {p.name('cm_town_militia#1')} at 0604")
    assert p.where("cm_town_militia#1") is None or p.where("cm_town_militia#1") != "0604"


# ---------------------------------------------------------------- the Twin Stars (L444, L636)
def lunar_movement_starts(p):
    """The Sartar player-turn passes (18.3: no Exotic Magic Phase, no battle):
    the Lunar movement phase starts as in play (``movement.start_movement``)."""
    p.movement(SARTAR, player_turn=1)
    p.act("end the movement phase")
    assert p.phase == R.PH_MOVE and p.to_play == LUNAR


def twin_stars_at(p, where):
    """Random event 42 brought the Twin Stars, a Lunar unit, to the board (L444)."""
    p.s["random_events"] = 1
    p.put("twin_stars", where)
    p.s["unit_force"][unit("twin_stars")] = 0


def test_rule_dp_carry_the_twin_stars_move_like_a_normal_unit():
    """L636: 'Twin Stars have a blank CF so cannot attack or be attacked by
    missile/melee, but unlike disembodied spirits, they instead move like a
    normal unit' (L444): rain costs them +1 MP as it costs any unit (L466;
    'neither weather nor terrain has any effect on a disembodied spirit',
    L464), and the Cloak of Darkness's cloud, which does not hold disembodied
    spirits, holds them (L752; Interpretations 170)."""
    from .ethilrist_test import cloak_cast
    p = Position("18.3")
    twin_stars_at(p, CENTRE)
    p.movement(LUNAR)
    p.s["rain"] = 1
    p.acts(f"select the stack at {CENTRE}", f"move {p.name('twin_stars')} with the group")
    step(p, "twin_stars", CENTRE, "2013")
    assert p.mp("twin_stars") == 5.0                 # MF 7: clear ground 1 MP, +1 MP in rain
    p = Position("18.3")
    twin_stars_at(p, CENTRE)
    cloak_cast(p, "2010")                              # 4 hexes away: CENTRE is in the cloud
    lunar_movement_starts(p)
    assert p.mp("twin_stars") == 0
    assert f"select the stack at {CENTRE}" not in p.legal()
    assert R.U_DISEMBODIED[unit("twin_stars")].tolist() == [0, 0] and R.U_SPIRIT[unit("twin_stars")].tolist() == [1, 1]


# ---------------------------------------------------------------- Keener Than rides the Hound (L756)
def test_rule_dp_carry_keener_than_must_stay_on_the_hound_that_player_turn():
    """L756: 'For that turn, Keener Than must ride the Hound': in the player-turn
    he must release it, neither he nor the Hound moves apart from the other
    (Interpretations 172); together they go at the rider's MF of 10. In
    another player-turn he may leave it."""
    p = Position("18.3")
    keener_for(p, SARTAR, CENTRE)
    p.put(HOUND, CENTRE)
    p.s["unit_force"][unit(HOUND)] = 1
    p.s["keener_turn"] = 2
    sartar_movement_starts(p)
    p.acts(f"select the stack at {CENTRE}", f"move {p.name('keener_than')} with the group")
    assert not [t for t in p.legal() if t.startswith(f"move {p.name('keener_than')} from")]   # not without the Hound
    p.act(f"move {p.name(HOUND)} with the group")
    steps = [t for t in p.legal() if t.startswith("move 2 units")]
    assert steps
    p.act(steps[0])
    assert p.where("keener_than") == p.where(HOUND) != CENTRE
    # the Hound alone cannot leave him either
    p = Position("18.3")
    keener_for(p, SARTAR, CENTRE)
    p.put(HOUND, CENTRE)
    p.s["unit_force"][unit(HOUND)] = 1
    p.s["keener_turn"] = 2
    sartar_movement_starts(p)
    p.acts(f"select the stack at {CENTRE}", f"move {p.name(HOUND)} with the group")
    assert not [t for t in p.legal() if t.startswith(f"move {p.name(HOUND)} from")]
    # not his player-turn to ride: he may go alone
    p = Position("18.3")
    keener_for(p, SARTAR, CENTRE)
    p.put(HOUND, CENTRE)
    p.s["unit_force"][unit(HOUND)] = 1
    sartar_movement_starts(p)
    p.acts(f"select the stack at {CENTRE}", f"move {p.name('keener_than')} with the group")
    step(p, "keener_than", CENTRE, "2013")
    assert p.where("keener_than") == "2013" and p.where(HOUND) == CENTRE


# ---------------------------------------------------------------- outside structures (L458, L472)
def test_rule_dp_outside_a_dragon_and_the_units_above_it_absorb_at_the_grounds_multiplier():
    """L458, L472: 'Dragons, giants, herds and units stacked above them are
    outside': the militia on Sartar's red dragon in Jonstown (a fortress, x2
    inside) absorbs 3 (its CF, open ground), not 6."""
    from .herds_test import no_retreat
    p = Position()
    given(p, SARTAR, DRAGON, "3122")                     # Jonstown, a fortress
    p.put(MILITIA, "3122")
    for k in range(3):
        p.put(f"cc_lancers#{k + 1}", "3123")
    p.combat(LUNAR)
    p.dice(3, 1)                                         # 12 at 3: loss 4 < 6 inside, >= 3 outside
    declare(p, ["3122"], ["3123"])
    while p.phase == R.PH_ARRANGE:
        p.act(p.legal()[-1])
    no_retreat(p)
    assert f"eliminate {p.name(MILITIA)} at 3122" in p.legal()


def test_rule_dp_outside_a_stack_on_a_herd_gets_no_structure_missile_modifier():
    """L458: herds 'and units stacked above them are always considered to be
    outside structures (so cannot benefit from structure bonuses)': fire at
    two militia on a herd in Jonstown reads the open ground's 0, not the
    fortress's -4 (L1113), and hits (4 Missile Factors, 6 + 0 + 1 for the
    herd, L1109). With the herd on top of them the militia are inside: -4, no
    result (Interpretations 173)."""
    from .combat_test import ARCHERS
    from .herds_test import herd_for
    for herd_below, hit in ((True, True), (False, False)):
        p = Position("18.2")
        for u in ARCHERS:
            p.put(u, "3123")
        if herd_below:
            herd_for(p, SARTAR, "3122")
        p.put("cm_town_militia#1", "3122")
        p.put("cm_town_militia#2", "3122")
        if not herd_below:
            herd_for(p, SARTAR, "3122")
        p.combat(LUNAR)
        p.dice(6, 1)
        declare(p, ["3122"], ["3123"])
        assert (p.phase in (R.PH_MISSILE_CHOICE, R.PH_MISSILE_CASUALTY)) == hit


# ---------------------------------------------------------------- disembodied spirits (L464)
def test_rule_dp_spirit_no_disembodied_spirit_moves_on_the_map():
    """L464: disembodied spirits 'pay 1 MP for each hex' whatever the terrain
    and weather -- but L462: 'disembodied spirits cannot move on the map'. Of
    Dragon Pass's blank-CF counters, the magicians' spirits have a blank MF
    (the holding box at a movement phase's start, L416), the assassins a
    special one (off the map), the Cloak of Darkness an MF of 0 and no
    carrying (L752, L462); the Twin Stars and the Spirit of Movement move like
    normal units (L444, L636). Were a counter with a blank CF and an MF to
    move added, L464's costs would have to be built (Interpretations 171)."""
    cloak = UNIT_IDS.index("cloak_of_darkness")
    for u in range(len(UNIT_IDS)):
        kind = KINDS[UNIT_KIND_OF[u]]
        for sd, side in enumerate((kind.front, kind.back)):
            if not R.U_DISEMBODIED[u, sd]:
                continue
            if R.U_MAGICIAN[u] >= 0:
                assert side.mf_kind == "blank", UNIT_IDS[u]
            elif R.U_ASSASSIN[u]:
                assert side.mf_kind == "special", UNIT_IDS[u]
            else:
                assert u == cloak and R.U_MF[u, sd] == 0 and R.U_ZERO_MF[u, sd], UNIT_IDS[u]
    for name in ("twin_stars", "spirit_of_movement"):
        assert R.U_SPIRIT[unit(name)].all() and not R.U_DISEMBODIED[unit(name)].any()
    # the Cloak, MF 0, is no zero-MF unit to carry: a disembodied spirit cannot move on the map
    p = Position("18.5")
    given(p, LUNAR, DRAGON, CENTRE)
    given(p, LUNAR, "cloak_of_darkness", CENTRE)
    p.movement(LUNAR)
    p.acts(f"select the stack at {CENTRE}", f"move {p.name(DRAGON)} with the group")
    assert f"move {p.name('cloak_of_darkness')} with the group" not in p.legal()


def test_rule_dp_outside_giants_in_a_fortress_get_no_structure_missile_modifier():
    """L458, L472: giants are always outside structures: the giant that stops
    in Jonstown (a fortress, -4, L1113) beside the Lunar archers and attacks
    them (L918) is fired on at the open ground's 0, +1 for a giant (L1109): 6
    + 1 hits with 4 Missile Factors, where 6 - 4 + 1 would not."""
    from .combat_test import ARCHERS
    from .giants_test import GIANT, random_movement
    p = Position("18.2")
    for u in ARCHERS:
        p.put(u, "3123")
    random_movement(p, (GIANT, "3122"))
    p.dice(6, 1)
    p.act(f"{p.name(GIANT)} stops")
    assert p.phase == R.PH_MISSILE_CASUALTY and p.legal() == [f"eliminate {p.name(GIANT)}"]


def test_a_disembodied_spirit_in_a_moving_group_is_an_unsound_record():
    """The record's invariants (soundness): no disembodied spirit moves on the
    map (L462); a retreated unit's stack index is a battle stack's."""
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.5")
    given(p, LUNAR, "cloak_of_darkness", CENTRE)
    p.movement(LUNAR)
    assert GAME.check_state(p.S) == ""
    p.s["unit_flags"][unit("cloak_of_darkness")] = R.UF_GROUP
    assert "disembodied spirit" in GAME.check_state(p.S)
    p.s["unit_flags"][unit("cloak_of_darkness")] = 0
    p.s["unit_retreat_k"][unit(JACK)] = -1
    assert "unit_retreat_k" in GAME.check_state(p.S)
