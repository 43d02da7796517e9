"""The Dragonewts (L738-L746): Resurrection (L742) -- an eliminated
dragonewt reappears in its home city (its counter's number, L740;
independents.txt 'homes') in the rally phase, unless enemy units have
entered that city since the game began. The dragonewts come by alliance
(diplomacy_test.py); here the tests hand them to a force."""
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import FORCES, UW_DEAD, UW_HOLDING
from dragongym.envs.dragon_pass.data import DATA, MAP

from .scenario import LUNAR, SARTAR, Position, hexi, unit

LANCERS = [f"cc_lancers#{i}" for i in range(1, 5)]          # Lunar 4-2-7
CRESTED = "dn_crested#1"                                      # 2*-2-4-X, home city 5
BEAKED = "dn_beaked#1"                                        # 5-5-5-X, home city 1
KING = "inhuman_king"                                         # (8!)-8-8-8, a hero, home city 1
CENTRE = "2014"                                               # open ground, far from any city


def city(n):
    return MAP.hex_id(MAP.dragonewt_cities[n])


def newts_for(p, force, *names):
    """The dragonewts ``names`` (and every unit before them) may come into
    play, on ``force``'s side; each lies in the dead pile until put."""
    s = p.s
    s["units_end"] = max(int(s["units_end"]), max(unit(n) for n in names) + 1)
    for n in names:
        s["unit_force"][unit(n)] = FORCES.index(force)
        if R.U_MAGICIAN[unit(n)] >= 0:
            s["unit_where"][unit(n)] = UW_HOLDING


def killed(p, name):
    """``name`` was eliminated earlier this player-turn (as combat leaves it)."""
    u = unit(name)
    p.s["unit_where"][u] = UW_DEAD
    p.s["unit_hex"][u] = -1


def to_rally(p, force):
    """``force``'s combat phase ends with no battle: its rally phase."""
    p.combat(force)
    p.act("fight no more battles")


def walk(p, force, name, frm, to):
    """In ``force``'s movement phase, ``name`` alone moves from ``frm`` to the adjacent ``to``."""
    p.movement(force)
    p.act(f"select the stack at {frm}")
    p.act(f"move {p.name(name)} with the group")
    p.act(f"move {p.name(name)} from {frm} to {to}")


def neighbour(where, d=1):
    return MAP.hex_id(int(R.HEX_STEP[hexi(where), d]))


def test_rule_dp_newts_every_dragonewt_counter_has_a_home_city_1_to_8():
    """L740: the dragonewt units are numbered for their home city; the book
    does not print the numbers, authored (SUBSTITUTES.md): every city is
    someone's home, and a spirit's home is its magician's."""
    homes = {}
    for uid in DATA.independent_units:
        kind = DATA.independent_units[uid]
        if kind.formation == "DN":
            assert len(kind.homes) == kind.counters and "homes" in kind.substituted, uid
            for k, h in enumerate(kind.homes):
                homes[f"{uid}#{k + 1}" if kind.counters > 1 else uid] = h
        else:
            assert kind.homes == (), uid
    assert set(homes.values()) == set(range(1, 9))
    assert homes["inhuman_king"] == 1 and homes["inhuman_king_spirit"] == 1
    for k in range(1, 4):
        assert homes[f"dn_priests_spirit#{k}"] == homes[f"dn_priests#{k}"]
    for name, h in homes.items():
        assert int(R.U_HOME_CITY[unit(name)]) == h - 1


def test_rule_dp_newts_an_eliminated_dragonewt_reappears_in_its_home_city_in_the_rally_phase():
    """L742: eliminated in a battle, it is back in its home city (city 5)
    in the rally phase of the same player-turn, front side up."""
    p = Position("18.1")
    newts_for(p, SARTAR, CRESTED)
    p.put(CRESTED, CENTRE)
    for u in LANCERS[:3]:
        p.put(u, neighbour(CENTRE))
    p.combat(LUNAR)
    p.dice(6)
    p.act(f"attack the stack at {CENTRE}")
    p.act(f"attack with the stack at {neighbour(CENTRE)}")
    p.act(f"attack {CENTRE} with the stacks at {neighbour(CENTRE)}")
    for _ in range(20):
        if p.where(CRESTED) == "dead":
            break
        p.act(p.legal()[0])
    assert p.where(CRESTED) == "dead"
    for _ in range(20):
        if p.where(CRESTED) != "dead" or int(p.s["stage"]) != R.ST_COMBAT and int(p.s["stage"]) != R.ST_RALLY:
            break
        legal = p.legal()
        p.act("fight no more battles" if "fight no more battles" in legal else legal[0])
    assert p.where(CRESTED) == city(5)
    assert not p.disrupted(CRESTED)


def test_rule_dp_newts_resurrection_is_cancelled_once_an_enemy_entered_the_home_city():
    """L742: cancelled if its home city has been occupied by enemy units at
    any time since the dragonewts entered play (Interpretations: since the
    game began); the enemy need not be there still."""
    p = Position("18.1")
    newts_for(p, SARTAR, CRESTED, BEAKED)
    p.put(LANCERS[0], neighbour(city(5)))
    walk(p, LUNAR, LANCERS[0], neighbour(city(5)), city(5))
    assert int(p.s["city_entered"][4]) == 1 << FORCES.index(LUNAR)
    assert int(p.s["city_entered"][0]) == 0
    p.put(LANCERS[0], CENTRE)                       # gone again
    killed(p, CRESTED)                              # home city 5: entered by the Lunars
    killed(p, BEAKED)                               # home city 1: never entered
    to_rally(p, LUNAR)
    assert p.where(CRESTED) == "dead"
    assert p.where(BEAKED) == city(1)
    to_rally(p, LUNAR)                              # and for good
    assert p.where(CRESTED) == "dead"


def test_rule_dp_newts_an_own_unit_in_the_home_city_does_not_cancel_resurrection():
    """L742: only enemy units cancel it; the city's own side may have been there."""
    p = Position("18.1")
    newts_for(p, LUNAR, CRESTED)
    p.put(LANCERS[0], neighbour(city(5)))
    walk(p, LUNAR, LANCERS[0], neighbour(city(5)), city(5))
    p.put(LANCERS[0], CENTRE)
    killed(p, CRESTED)
    to_rally(p, SARTAR)
    assert p.where(CRESTED) == city(5)


def test_rule_dp_newts_a_resurrected_dragonewt_joining_a_stack_may_rearrange_it():
    """L450 (DP-STACK-ARRANGE-3): a dragonewt reappearing on a stack lets
    its owner rearrange that stack."""
    p = Position("18.1")
    newts_for(p, SARTAR, CRESTED, "dn_beaked#3")    # beaked #3: home city 6; crested #1: 5
    p.put("dn_beaked#3", city(5))
    killed(p, CRESTED)
    to_rally(p, SARTAR)
    assert p.where(CRESTED) == city(5)
    assert p.phase == R.PH_ARRANGE and int(p.s["arr_hex"]) == hexi(city(5))
    assert p.to_play == SARTAR
    p.act(f"the stack at {city(5)} is arranged")
    assert p.phase != R.PH_ARRANGE


def test_rule_dp_newts_a_dragonewt_spirit_resurrects_to_its_holding_box():
    """L742, L416 (Interpretations): a spirit is no counter on the map; it
    comes back to its holding box."""
    p = Position("18.1")
    newts_for(p, SARTAR, "dn_priests#1", "dn_priests_spirit#1")
    p.put("dn_priests#1", CENTRE)
    killed(p, "dn_priests_spirit#1")
    to_rally(p, LUNAR)
    assert p.where("dn_priests_spirit#1") == "holding box"


def test_rule_dp_newts_the_inhuman_king_rolls_his_heroic_escape_first():
    """Interpretations: the Inhuman King is a hero (L626, L642): he rolls his
    heroic escape; on a 4-6 he rejoins the nearest stack as a hero does."""
    p = Position("18.1")
    newts_for(p, SARTAR, KING, BEAKED)
    p.put(BEAKED, CENTRE)
    k = unit(KING)
    p.s["unit_where"][k] = 4                        # eliminated this player-turn, to roll his escape
    p.s["unit_dead_hex"][k] = hexi(neighbour(CENTRE))
    p.dice(5)
    to_rally(p, LUNAR)
    p.act(f"{p.name(KING)} rejoins the stack at {CENTRE}")
    assert p.where(KING) == CENTRE


def test_rule_dp_newts_the_inhuman_king_failing_his_escape_resurrects_in_city_1():
    """Interpretations: a failed heroic escape (L642) does not end him: he
    resurrects in his home city, city 1 (L742), where it is not cancelled."""
    p = Position("18.1")
    newts_for(p, SARTAR, KING, BEAKED)
    p.put(BEAKED, CENTRE)
    k = unit(KING)
    p.s["unit_where"][k] = 4
    p.s["unit_dead_hex"][k] = hexi(neighbour(CENTRE))
    p.dice(2)
    to_rally(p, LUNAR)
    assert p.where(KING) == city(1)


def test_rule_dp_newts_a_neutral_dragonewt_does_not_resurrect():
    """Dragonewts not yet in play (on no side) stay where they are."""
    p = Position("18.1")
    p.s["units_end"] = unit(CRESTED) + 1
    killed(p, CRESTED)
    to_rally(p, LUNAR)
    assert p.where(CRESTED) == "dead"


# ------------------------------------------------------------ the dragonewt roads
TEMPLE = "1918"                                               # Shaker's Temple (L482)
ROAD_5_TO_1 = ["3408", "3409", "3410", "3411", "3312", "3313", "3314", "3315", "3316"]   # [road d8], reversed


def journeys(p):
    """The legal journeys by road: {destination: action text}."""
    return {t.rsplit(" to ", 1)[1]: t for t in p.legal() if "by dragonewt road" in t}


def group_at(p, force, where, *names):
    """``force``'s movement: the stack at ``where`` selected, ``names`` its group."""
    p.movement(force)
    p.act(f"select the stack at {where}")
    for n in names:
        p.act(f"move {p.name(n)} with the group")


def test_rule_dp_newts_a_journey_from_city_to_city_costs_1_mp():
    """L482, L744: city to city by dragonewt road for 1 MP; the group then
    goes on with its remaining MPs (by road again, or normally)."""
    p = Position("18.1")
    newts_for(p, SARTAR, BEAKED)                  # 5-5-5-X: 5 MP
    p.put(BEAKED, city(5))
    group_at(p, SARTAR, city(5), BEAKED)
    assert set(journeys(p)) == {city(1)}          # the next stop along [road d8]
    p.act(journeys(p)[city(1)])
    assert p.where(BEAKED) == city(1) and p.mp(BEAKED) == 4
    assert p.phase == R.PH_MOVE_GROUP
    # on from city 1: to 4111 and back to 3407 for 1 MP, past junction 2914
    # for 2, past 2914 and 2213 for 3 (4 MP left)
    assert set(journeys(p)) == {city(8), city(5), city(4), city(6), city(2), city(3), TEMPLE}
    p.act(f"move {p.name(BEAKED)} from {city(1)} to {neighbour(city(1))}")     # and normally
    assert p.mp(BEAKED) < 4


def test_rule_dp_newts_each_junction_turned_at_costs_1_mp_more():
    """L482, L744 (Interpretations 73): +1 MP for each junction turned at; every
    road branch ends at its junction, so going past one is a turn. Shaker's
    Temple is a stop (L482)."""
    p = Position("18.1")
    newts_for(p, SARTAR, BEAKED)
    p.put(BEAKED, city(1))
    group_at(p, SARTAR, city(1), BEAKED)
    p.act(journeys(p)[city(4)])                   # 3316 -> 2914 (a junction) -> 2909
    assert p.where(BEAKED) == city(4) and p.mp(BEAKED) == 3
    p.act(journeys(p)[TEMPLE])                    # 2909 -> 2914 -> 2213 -> 1918: two junctions
    assert p.where(BEAKED) == TEMPLE and p.mp(BEAKED) == 0


def test_rule_dp_newts_a_group_the_flood_wipes_out_on_the_road_ends_its_move():
    """L688, L482: on the storm's third day the flood disrupts each unit that
    enters a river hex -- the road's hexes are entered -- and a second
    disruption eliminates it; a group left with no unit ends its move and the
    next stack's is asked for."""
    p = Position("18.1")
    newts_for(p, SARTAR, BEAKED)
    p.put(BEAKED, "1615")
    group_at(p, SARTAR, "1615", BEAKED)
    p.s["storm_day"] = 3                          # the flood (rivers 1814 and 1915 lie on the road)
    p.act(journeys(p)["3316"])
    assert p.where(BEAKED) == "dead"
    assert p.phase == R.PH_MOVE and int(p.s["sel_hex"]) == -1
    p.check()                                     # a sound position with a legal action


def test_rule_dp_newts_a_journey_needs_the_mps():
    """L482: a journey costs 1 MP (+1 per junction); a group without them cannot make it."""
    p = Position("18.1")
    newts_for(p, SARTAR, BEAKED)
    p.put(BEAKED, city(1))
    group_at(p, SARTAR, city(1), BEAKED)
    p.s["unit_mp"][unit(BEAKED)] = 2              # 1 MP left
    assert set(journeys(p)) == {city(8), city(5)}  # not past the junction to cities 4 and 6


def test_rule_dp_newts_only_dragonewts_use_the_roads():
    """L365, L482: no effect for any other unit; a group with one cannot travel."""
    p = Position("18.1")
    newts_for(p, LUNAR, BEAKED)
    p.put(LANCERS[0], city(1))
    p.put(BEAKED, city(1))
    group_at(p, LUNAR, city(1), LANCERS[0])
    assert journeys(p) == {}
    p.act(f"move {p.name(BEAKED)} with the group")
    assert journeys(p) == {}


def test_rule_dp_newts_a_road_blocked_by_a_zoc_stops_the_dragonewt_1_hex_before():
    """L482, L744: the journey ends 1 hex before the first road hex in an
    enemy ZOC (the 1 MP paid), and the dragonewt goes on normally from there."""
    p = Position("18.1")
    newts_for(p, SARTAR, BEAKED)
    p.put(BEAKED, city(5))
    foe = neighbour(ROAD_5_TO_1[5], 2)
    assert foe not in ROAD_5_TO_1
    p.put(LANCERS[0], foe)
    in_zoc = [k for k, x in enumerate(ROAD_5_TO_1)
              if x == foe or foe in {neighbour(x, d) for d in range(1, 7)}]
    stop = ROAD_5_TO_1[in_zoc[0] - 1]
    group_at(p, SARTAR, city(5), BEAKED)
    assert set(journeys(p)) == {stop}
    p.act(journeys(p)[stop])
    assert p.where(BEAKED) == stop and p.mp(BEAKED) == 4
    assert any(t.startswith(f"move {p.name(BEAKED)} from {stop} to ") for t in p.legal())


def test_rule_dp_newts_a_road_blocked_next_to_the_city_offers_no_journey():
    """Interpretations 73: where the dragonewt would stop on the city's own
    neighbour (or the city), there is no journey: an ordinary step goes there."""
    p = Position("18.1")
    newts_for(p, SARTAR, BEAKED)
    p.put(BEAKED, city(5))
    p.put(LANCERS[0], neighbour(ROAD_5_TO_1[1], 3) if neighbour(ROAD_5_TO_1[1], 3) not in ROAD_5_TO_1
          else neighbour(ROAD_5_TO_1[1], 2))
    group_at(p, SARTAR, city(5), BEAKED)
    assert journeys(p) == {}


def test_rule_dp_newts_the_observation_shows_which_forces_entered_each_city():
    """L742: who has entered a Dragonewt City is public (it decides whose
    dragonewts still resurrect there): observe's F_NEWT_CITY, own then enemy."""
    import numpy as np
    from dragongym.envs.dragon_pass import observe as O
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.1")
    p.put(LANCERS[0], neighbour(city(5)))
    walk(p, LUNAR, LANCERS[0], neighbour(city(5)), city(5))
    for seat, own, foe in ((0, 1, 0), (1, 0, 1)):
        obs = np.zeros((1, O.OBS_SIZE), np.float32)
        GAME.observe(p.S, np.array([seat], np.int64), obs)
        at = O.FLAT_OFF + O.F_NEWT_CITY + 2 * 4
        assert (obs[0, at], obs[0, at + 1]) == (own, foe)
        assert obs[0, O.FLAT_OFF + O.F_NEWT_CITY:at].sum() == 0


def test_the_picture_names_a_journeys_end_and_offers_it():
    """The picture titles a journey's end "travel by dragonewt road to" and
    offers exactly the legal actions; its decision text names the roads."""
    import xml.etree.ElementTree as ET

    import numpy as np
    from dragongym.envs.core.picture import render_svg
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.1")
    newts_for(p, SARTAR, BEAKED)
    p.put(BEAKED, city(5))
    group_at(p, SARTAR, city(5), BEAKED)
    svg = render_svg(GAME, p.S, None)
    root = ET.fromstring(svg)
    offered = set()
    for element in root.iter():
        if "data-actions" in element.attrib:
            offered.update(int(a) for a in element.attrib["data-actions"].split())
    assert offered == {int(a) for a in np.flatnonzero(GAME.mask_of(p.S))}
    assert "travel by dragonewt road to" in svg and "dragonewt road to another city" in svg
