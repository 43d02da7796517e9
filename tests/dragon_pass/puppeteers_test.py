"""The Puppeteers (L884-L892, L724; the Cloak of Darkness, L752): once allied,
the controller creates or removes Illusory Armies in his Exotic Magic Phase
anywhere within the Troop's RF of 8 (5 pieces); they never move; the Troop
switches places with one in the movement phase, then moves normally, and may
switch out of a battle once a game-turn; a disrupted Illusory Army is
removed (to be created again), an eliminated one is gone for good; one beside
an enemy dragon or superhero is destroyed at once. The Puppeteers come by
an emissary (diplomacy_test.py); here the tests hand the Troop and the Illusory
Armies to a side, in 18.5 where both sides have an Exotic Magic Phase
(L271), or in 18.1 for the battles. The cup draw and the alliance
(``puppeteers.puppeteer_draw``, ``place_puppeteers``) are the alliance
phase's to call."""
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import FORCES, UW_OUT
from dragongym.envs.dragon_pass.data import MAP

from .combat_test import LANCERS, MILITIA, arranged, declare
from .cragspider_test import step
from .exotic_test import choose, exotic
from .scenario import LUNAR, SARTAR, Position, hexi, unit

TROOP = "puppeteer_troop"
IA = [f"illusory_armies#{k}" for k in range(1, 6)]
CENTRE = "2014"


def puppeteers_for(p, force, where=CENTRE, **armies):
    """The Troop on the map at ``where`` and the 5 Illusory Armies, allied to
    ``force``: off the board (free to be created) but those named in
    ``armies`` (index -> hex), which stand on the map."""
    s = p.s
    s["units_end"] = max(int(s["units_end"]), unit(IA[-1]) + 1)
    p.put(TROOP, where)
    s["unit_force"][unit(TROOP)] = FORCES.index(force)
    for k, name in enumerate(IA):
        s["unit_force"][unit(name)] = FORCES.index(force)
        s["unit_where"][unit(name)] = UW_OUT
        s["unit_hex"][unit(name)] = -1
    for k, at in armies.items():
        p.put(IA[int(k[1:])], at)


def create_targets(p):
    return sorted(t.rsplit(" ", 1)[1] for t in p.legal() if t.startswith("create an Illusory Army at"))


def remove_targets(p):
    return sorted(t.rsplit(" ", 1)[1] for t in p.legal() if t.startswith("remove the Illusory Army at"))


def troop_magic(p, force=SARTAR):
    exotic(p, force)
    choose(p, "Puppeteer Troop", "uses its exotic magic")


def test_rule_dp_puppet_illusory_armies_are_created_anywhere_within_the_troops_rf_of_8():
    """L724, L888: 'placed anywhere within the Puppeteers' RF (so up to 8 hexes)'."""
    p = Position("18.5", moon="full")
    puppeteers_for(p, SARTAR)
    p.put("full_moon_corps", step(CENTRE, 1, 4))                     # an enemy's hex: none there (Interpretations 134)
    troop_magic(p)
    hexes = create_targets(p)
    near, edge, beyond = step(CENTRE, 1, 2), step(CENTRE, 1, 8), step(CENTRE, 1, 9)
    assert near in hexes and edge in hexes and beyond not in hexes and step(CENTRE, 1, 4) not in hexes
    assert all(MAP.distance(hexi(h), hexi(CENTRE)) <= 8 for h in hexes)
    p.act(f"create an Illusory Army at {near}")
    assert p.stack(near) == [IA[0]] and not p.disrupted(IA[0])


def test_rule_dp_puppet_five_illusory_armies_created_or_removed_in_one_exotic_magic_phase():
    """L888: 'create or remove multiple Illusory Armies in his exotic magic
    phase. 5 Illusory Army units are available'. One standing is removed,
    the 4 others created; each piece is created or removed once a phase
    (Interpretations 134), so the one removed waits for the next phase."""
    p = Position("18.5", moon="full")
    far = step(CENTRE, 5, 6)
    puppeteers_for(p, SARTAR, a0=far)
    troop_magic(p)
    assert remove_targets(p) == [far]
    p.act(f"remove the Illusory Army at {far}")
    assert p.where(IA[0]) == "out"
    targets = ["2012", "2010", "1815", "1616"]        # open hexes within 8 (18.5 shuts the Independents' lands)
    for h in targets:
        choose(p, "Puppeteer Troop", "uses its exotic magic")
        p.act(f"create an Illusory Army at {h}")
    assert sorted(p.where(n) for n in IA[1:]) == sorted(targets) and p.where(IA[0]) == "out"
    assert not any("Puppeteer Troop" in t for t in p.legal())       # none left to create or remove this phase
    troop_magic(p)                                                   # the next player-turn of his
    assert create_targets(p) and sorted(remove_targets(p)) == sorted(targets)
    p.act("create an Illusory Army at 1813")
    assert p.where(IA[0]) == "1813"


def test_rule_dp_puppet_illusory_armies_cannot_move():
    """L888: 'Illusory Army units cannot move, only be created, or removed, or
    switch places with the Puppeteer Troop'."""
    p = Position("18.5", moon="full")
    puppeteers_for(p, SARTAR, a0="2010")
    p.movement(SARTAR, player_turn=2)
    assert "select the stack at 2010" not in p.legal() and f"select the stack at {CENTRE}" in p.legal()


def test_rule_dp_puppet_troop_switches_places_with_an_illusory_army_then_moves_normally():
    """L888: 'The Puppeteers can switch places with any Illusory Army in the
    movement phase and then move normally within their MF.'"""
    p = Position("18.5", moon="full")
    puppeteers_for(p, SARTAR, a0="2010", a1="1612")
    p.movement(SARTAR, player_turn=2)
    assert "the Puppeteer Troop switches places with the Illusory Army at 2010" in p.legal()
    p.act("the Puppeteer Troop switches places with the Illusory Army at 2010")
    assert p.where(TROOP) == "2010" and p.where(IA[0]) == CENTRE
    assert p.mp(TROOP) == 4                                          # its full MF still
    assert not any("switches places" in t for t in p.legal())         # once a phase
    p.act("select the stack at 2010")
    p.act(f"move {p.name(TROOP)} with the group")
    p.act(f"move {p.name(TROOP)} from 2010 to 2009")
    assert p.where(TROOP) == "2009"


def test_rule_dp_puppet_the_illusory_army_switched_with_is_not_removed_that_player_turn():
    """L888: 'The Illusory Army switched with cannot be removed from the board
    in the same movement phase' (read: that player-turn, whose Exotic Magic
    Phase follows its movement phase: Interpretations 131)."""
    p = Position("18.5", moon="full")
    puppeteers_for(p, SARTAR, a0="2010", a1="1612")
    p.movement(SARTAR, player_turn=2)
    p.act("the Puppeteer Troop switches places with the Illusory Army at 2010")
    p.act("end the movement phase")
    choose(p, "Puppeteer Troop", "uses its exotic magic")
    assert remove_targets(p) == ["1612"]                             # not the one now at 2014


def test_rule_dp_puppet_a_disrupted_illusory_army_is_removed_and_can_be_recreated():
    """L890: 'Any disrupted Illusory Armies are removed from the board, but can
    be recreated.' The Wasps' sting disrupts it (L690)."""
    p = Position("18.5", moon="full")
    puppeteers_for(p, LUNAR, "1010", a0="2013")
    p.put("wasps", "2012")
    exotic(p, SARTAR)
    choose(p, "Wasps", "uses its exotic magic")
    choose(p, "the Wasps sting around 2012")
    assert p.where(IA[0]) == "out"
    p.s["moon"] = R.MOON_PHASE_IDS.index("full")
    troop_magic(p, LUNAR)
    assert len(create_targets(p)) > 0
    p.act(f"create an Illusory Army at {step('1010', 4)}")
    assert p.where(IA[0]) == step("1010", 4)                         # the same piece, back


def test_rule_dp_puppet_an_eliminated_illusory_army_cannot_be_recreated():
    """L890: 'If eliminated, however, they are removed from the board and
    cannot be recreated.' A Meteor Storm eliminates one (L710); 4 are left."""
    p = Position("18.5", moon="full")
    puppeteers_for(p, SARTAR, a0="2012")
    p.put("crater_makers", "2010")
    exotic(p, LUNAR)
    choose(p, "Crater Makers", "uses its exotic magic")
    choose(p, "a Meteor Storm strikes 2012")
    assert p.where(IA[0]) == "dead"
    p.s["moon"] = R.MOON_PHASE_IDS.index("full")
    troop_magic(p)
    for k in range(4):
        if k:
            choose(p, "Puppeteer Troop", "uses its exotic magic")
        p.act(f"create an Illusory Army at {['2012', '1815', '1616', '1813'][k]}")
    assert p.where(IA[0]) == "dead"
    assert not any("Puppeteer Troop" in t for t in p.legal())


def test_rule_dp_puppet_defending_illusory_armies_cannot_retreat():
    """L890: 'Defending Illusory Armies cannot retreat.' Its stack-mate may."""
    p = Position()
    puppeteers_for(p, SARTAR, "1010", a0="0604")
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    assert p.phase == R.PH_RETREAT
    assert f"retreat {p.name(MILITIA[0])}" in p.legal() and f"retreat {p.name(IA[0])}" not in p.legal()


def test_rule_dp_puppet_troop_switches_with_an_illusory_army_to_avoid_a_battle_once_a_game_turn():
    """L890: 'If the Puppeteer Troop unit is involved in battle, it can choose to
    switch with an Illusory Army (that is not involved in the same battle) to
    avoid combat. If the Puppeteers switch to a location that is also going to
    be involved in a battle, they must take part in that battle.'"""
    p = Position()
    puppeteers_for(p, SARTAR, "0604", a0="0706", a1="0503")
    p.put(LANCERS[0], "0504")
    p.put(LANCERS[1], "0606")
    p.combat(LUNAR)
    declare(p, ["0604"], ["0504"])
    assert p.to_play == SARTAR and sorted(p.legal()) == sorted([
        "the Puppeteer Troop fights this battle",
        "the Puppeteer Troop switches places with the Illusory Army at 0503 to avoid the battle",
        "the Puppeteer Troop switches places with the Illusory Army at 0706 to avoid the battle"])
    p.act("the Puppeteer Troop switches places with the Illusory Army at 0706 to avoid the battle")
    assert p.where(TROOP) == "0706" and p.where(IA[0]) == "0604"
    while p.phase != R.PH_BATTLE:
        p.act(p.legal()[-1])
    declare(p, ["0706"], ["0606"])                                    # the Troop's new hex attacked
    assert p.phase != R.PH_PUPPET_DODGE and p.where(TROOP) == "0706"   # it must fight this one


def test_rule_dp_puppet_an_illusory_army_beside_an_enemy_superhero_is_destroyed():
    """L890: 'If an Illusory Army is ever adjacent to an enemy dragon or
    superhero at any time, the Illusory Army is immediately destroyed.'"""
    p = Position("18.5", moon="full")
    puppeteers_for(p, SARTAR, "1010", a0="2014", a1="2020")
    p.put("jar_eel", "2016")                                          # the Lunar superhero
    p.movement(LUNAR, player_turn=1)
    p.act("select the stack at 2016")
    p.act(f"move {p.name('jar_eel')} with the group")
    p.act(f"move {p.name('jar_eel')} from 2016 to 2015")
    assert p.where(IA[0]) == "dead" and p.where(IA[1]) == "2020"


def test_rule_dp_puppet_an_illusory_army_created_beside_an_enemy_dragon_is_destroyed():
    """L890: a dragon (the Black Dragon, allied to the Lunars) as well."""
    p = Position("18.5", moon="full")
    puppeteers_for(p, SARTAR)
    p.put("black_dragon", step(CENTRE, 1, 3))
    p.s["unit_force"][unit("black_dragon")] = FORCES.index(LUNAR)
    troop_magic(p)
    p.act(f"create an Illusory Army at {step(CENTRE, 1, 2)}")
    assert p.where(IA[0]) == "dead"


def test_rule_dp_puppet_with_screening_only_revealed_units_destroy_an_illusory_army():
    """L890: 'If the Screening Option is used, the location of the dragon or
    superhero must be revealed ... and also the Illusory Army must be revealed'
    (Interpretations 132: revealed = in the battle being fought, or Argrath's
    revealed location)."""
    p = Position("18.5", moon="full", screening=True)
    puppeteers_for(p, SARTAR, "1010", a0="2014")
    p.put("jar_eel", "2016")
    p.movement(LUNAR, player_turn=1)
    p.act("select the stack at 2016")
    p.act(f"move {p.name('jar_eel')} with the group")
    p.act(f"move {p.name('jar_eel')} from 2016 to 2015")
    assert p.where(IA[0]) == "2014"                                   # neither is revealed


def test_rule_dp_puppet_illusory_armies_no_one_controls_are_not_destroyed():
    """Interpretations 130, 132: before the alliance the pieces are the cup's
    markers: not destroyed, and a unit (an emissary) may stand with one."""
    p = Position("18.5", moon="full")
    puppeteers_for(p, SARTAR, "1010", a0="2014", a1="2015")
    for k in (0, 1):
        p.s["unit_force"][unit(IA[k])] = -1
    p.put("jar_eel", "2016")
    p.movement(LUNAR, player_turn=1)
    p.act("select the stack at 2016")
    p.act(f"move {p.name('jar_eel')} with the group")
    p.act(f"move {p.name('jar_eel')} from 2016 to 2015")
    assert p.where(IA[0]) == "2014" and p.stack("2015") == ["jar_eel", IA[1]]
    p.check()


def test_rule_dp_indep_ethil_cloak_removes_illusory_armies_within_it():
    """L752: 'Remove any Illusory Armies that are within the cloud (though they
    can be recreated)'; none is created in the cloud while it lasts
    (Interpretations 133)."""
    from .ethilrist_test import ethilrist_for
    p = Position("18.5", moon="full")
    puppeteers_for(p, SARTAR, "1414", a0=step("2010", 4, 10), a1=step("2010", 4, 11))
    ethilrist_for(p, LUNAR, "2010")
    exotic(p, LUNAR)
    choose(p, "Sir Ethilrist", "uses its exotic magic")
    choose(p, "casts the Cloak of Darkness at 2010")
    assert p.where(IA[0]) == "out" and p.where(IA[1]) == step("2010", 4, 11)
    p.s["moon"] = R.MOON_PHASE_IDS.index("full")
    troop_magic(p)
    hexes = create_targets(p)
    assert hexes and all(MAP.distance(hexi(h), hexi("2010")) > 10 for h in hexes)
