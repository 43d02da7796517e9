"""Sir Ethilrist and his Black Horse Troop (L748-L758): Ethilrist riding the
Hound, the Hound's Doom Run, and its run in a random direction when
Ethilrist falls. Ethilrist has no side yet (alliances come later): the
tests hand him and the Hound to a player, in 18.5 where both sides have an
Exotic Magic Phase (L271)."""
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import FORCES, UW_ESCAPING
from dragongym.envs.dragon_pass.data import MAP

from .exotic_test import choose, exotic
from .movement_test import moving, step as move
from .quake_test import step
from .scenario import LUNAR, SARTAR, Position, hexi, unit

ETHILRIST, HOUND = "ethilrist", "hell_hound"
CENTRE = "2014"                       # open ground, far from the board's edge and from Independents territory


def ethilrist_for(p, force, where=CENTRE, hound=True):
    """Ethilrist (and, stacked with him, the Hound) on the map, allied to ``force``."""
    s = p.s
    s["units_end"] = max(int(s["units_end"]), unit("keener_than") + 1)
    p.put(ETHILRIST, where)
    if hound:
        p.put(HOUND, where)
    for name in (ETHILRIST, HOUND):
        s["unit_force"][unit(name)] = FORCES.index(force)


def run_until_the_edge(where, d):
    """The hexes from the one beside ``where`` in direction d to the board's edge."""
    out = []
    g = int(R.HEX_STEP[hexi(where), d])
    while g >= 0:
        out.append(MAP.hex_id(g))
        g = int(R.HEX_STEP[g, d])
    return out


def unleash(p, force, d):
    """``force`` starts his Exotic Magic Phase and unleashes the Hound in direction d."""
    exotic(p, force)
    choose(p, "Hell Hound", "uses its exotic magic")
    choose(p, "Doom Run", f"through {step(p.where(HOUND), d)} ")


# ---------------------------------------------------------------- riding the Hound
def sartar_movement_starts(p):
    """The Lunar player-turn passes (18.3: no Exotic Magic Phase, no battle):
    the Sartar movement phase starts as in play, every allowance dealt by the
    rules (``movement.start_movement``)."""
    p.movement(LUNAR, player_turn=1)
    p.act("end the movement phase")
    assert p.phase == R.PH_MOVE and p.to_play == SARTAR


def test_rule_dp_ethil_riding_the_hound_ethilrist_has_an_mf_of_10():
    """L754: 'Ethilrist has an MF of 10 on the Hound' -- disrupted too; off
    the Hound, his counter's MF of 7."""
    p = Position("18.3")
    ethilrist_for(p, SARTAR, "2014")
    p.s["unit_side"][unit(ETHILRIST)] = 1
    sartar_movement_starts(p)
    assert p.mp(ETHILRIST) == 10.0
    p = Position("18.3")
    ethilrist_for(p, SARTAR, "2014", hound=False)
    p.put(HOUND, "2016")
    p.s["unit_side"][unit(ETHILRIST)] = 1
    sartar_movement_starts(p)
    assert p.mp(ETHILRIST) == 7.0


def test_rule_dp_ethil_riding_the_hound_ethilrist_cannot_use_heroic_movement():
    """L754: no heroic movement on the Hound: a mountain costs him its 3 MP,
    not the heroic 1 (L417); alone, he pays 1."""
    p = Position("18.3")
    ethilrist_for(p, SARTAR, "3802")
    sartar_movement_starts(p)
    moving(p, ETHILRIST, "3802")
    p.act(f"move {p.name(HOUND)} with the group")
    p.act(f"move 2 units ({p.name(ETHILRIST)}, {p.name(HOUND)}) from 3802 to 3703")
    assert p.mp(ETHILRIST) == 7.0
    p = Position("18.3")
    ethilrist_for(p, SARTAR, "3802", hound=False)
    sartar_movement_starts(p)
    moving(p, ETHILRIST, "3802")
    move(p, ETHILRIST, "3802", "3703")
    assert p.mp(ETHILRIST) == 6.0


# ---------------------------------------------------------------- the Doom Run
def test_rule_dp_ethil_the_hound_is_unleashed_in_its_players_exotic_magic_phase_in_any_of_6_directions():
    """L754: 'unleashed on a Doom Run in the player's exotic magic phase ... in
    a single direction that the player chooses': the six hexes beside it name
    the directions; only its controller may."""
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    exotic(p, LUNAR)
    choose(p, "Hell Hound", "uses its exotic magic")
    runs = sorted(t for t in p.legal() if "Doom Run" in t)
    assert len(runs) == 6
    assert sorted(t.split(" through ")[1].split(" ")[0] for t in runs) == sorted(step(CENTRE, d) for d in range(1, 7))
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    p.put("wasps", "3030")
    exotic(p, SARTAR)
    assert not any("Hell Hound" in t for t in p.legal())


def test_rule_dp_ethil_the_doom_run_eliminates_every_unit_in_its_path_to_the_edge():
    """L754: a straight line to the edge of the board, every unit in its path
    eliminated, of either side (a hero aside for his heroic escape); not the
    units beside the line, nor Ethilrist in the hex it left; the Hound runs
    off the board (Interpretations 80: the whole way in one phase, then gone)."""
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    path = run_until_the_edge(CENTRE, 1)
    assert len(path) > 10                     # further than its MF of 10: no limit (Interpretations 80)
    p.put("bh_bison_riders#1", path[0])
    p.put("cc_lancers#1", path[3])
    p.put("aelwrin", path[5])
    p.put("bh_bison_riders#2", path[-1])
    p.put("bh_bison_riders#3", step(path[3], 2))
    unleash(p, LUNAR, 1)
    assert p.where("bh_bison_riders#1") == "dead" and p.where("cc_lancers#1") == "dead"
    assert p.where("bh_bison_riders#2") == "dead"
    assert int(p.s["unit_where"][unit("aelwrin")]) == UW_ESCAPING
    assert p.where("bh_bison_riders#3") == step(path[3], 2)
    assert p.where(ETHILRIST) == CENTRE
    assert p.where(HOUND) == "dead"
    assert p.phase == R.PH_EXOTIC or p.phase == R.PH_BATTLE or p.to_play == LUNAR


def test_rule_dp_ethil_a_superhero_in_its_path_kills_the_hound_and_falls_with_a_heroic_escape():
    """L754: entering a hex that holds a superhero, the Hound is eliminated;
    the superhero is eliminated, with a chance of a heroic escape; the rest
    of that hex, and the hexes beyond, are untouched (Interpretations 80)."""
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    path = run_until_the_edge(CENTRE, 4)
    p.put("bh_bison_riders#1", path[0])
    p.put("harrek", path[2])
    p.put("bh_bison_riders#2", path[2])
    p.put("bh_bison_riders#3", path[4])
    unleash(p, LUNAR, 4)
    assert p.where("bh_bison_riders#1") == "dead"
    assert int(p.s["unit_where"][unit("harrek")]) == UW_ESCAPING
    assert p.where("bh_bison_riders#2") == path[2]
    assert p.where("bh_bison_riders#3") == path[4]
    assert p.where(HOUND) == "dead"


def test_rule_dp_ethil_a_dragon_in_its_path_kills_the_hound_and_survives():
    """L754: 'A dragon will survive this': the Hound is eliminated in the
    dragon's hex, the dragon stays."""
    p = Position("18.5", moon="full")
    ethilrist_for(p, SARTAR)
    p.s["units_end"] = max(int(p.s["units_end"]), unit("red_dragon") + 1)
    path = run_until_the_edge(CENTRE, 2)
    p.put("red_dragon", path[1])
    p.put("cc_lancers#1", path[3])
    unleash(p, SARTAR, 2)
    assert p.where("red_dragon") == path[1]
    assert p.where("cc_lancers#1") == path[3]
    assert p.where(HOUND) == "dead"


def test_rule_dp_ethil_a_herd_in_its_path_stampedes():
    """L588: nothing but the Pillar of Fire or a Dragonfight eliminates a herd:
    in the Hound's path it stampedes (Interpretations 80)."""
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    path = run_until_the_edge(CENTRE, 6)
    p.put("horse_herds#1", path[1])
    p.dice(1)                                 # the stampede's direction: north
    unleash(p, LUNAR, 6)
    assert p.where("horse_herds#1") != "dead"
    assert p.where(HOUND) == "dead"


def test_rule_dp_ethil_when_ethilrist_falls_in_exotic_magic_the_hound_runs_in_a_random_direction():
    """L754: 'If Ethilrist is eliminated in combat or exotic magic, the Hound
    will start a Doom Run in a random direction determined by rolling the die
    against the map compass' (1..6 = N NE SE S SW NW). The Wasps sting him,
    already disrupted, to death; the die shows 4: south."""
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR, "2012", hound=False)
    p.s["unit_side"][unit(ETHILRIST)] = 1
    p.put("wasps", step("2012", 1))
    p.put(HOUND, CENTRE)
    south = run_until_the_edge(CENTRE, 4)
    p.put("cc_lancers#1", south[2])
    p.put("bh_bison_riders#1", step(CENTRE, 1, 3))
    exotic(p, SARTAR)
    p.dice(4)
    choose(p, "Wasps", "uses its exotic magic")
    choose(p, "sting around")
    assert p.where(ETHILRIST) != "2012"
    assert p.where("cc_lancers#1") == "dead"
    assert p.where("bh_bison_riders#1") == step(CENTRE, 1, 3)
    assert p.where(HOUND) == "dead"
    assert int(p.s["doom_pending"]) == 0


def test_rule_dp_ethil_when_ethilrist_falls_in_combat_the_hound_runs_in_a_random_direction():
    """L754: Ethilrist, alone, is eliminated in melee; the Hound, away at 1010,
    runs as the next die says (3: south-east) before the battle goes on; a
    Sartar unit in its path dies with the rest."""
    from .combat_test import LANCERS, arranged, declare
    p = Position()
    ethilrist_for(p, SARTAR, "0604", hound=False)
    p.put(HOUND, "1010")
    path = run_until_the_edge("1010", 3)
    p.put("cm_town_militia#1", path[2])
    p.put("cm_town_militia#2", step("1010", 4))
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.combat(LUNAR)
    p.dice(6, 3)                              # the melee die; then the Hound's direction
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    p.act(f"eliminate {p.name(ETHILRIST)} at 0604")
    assert p.phase == R.PH_ADVANCE
    assert p.where(HOUND) == "dead" and p.where("cm_town_militia#1") == "dead"
    assert p.where("cm_town_militia#2") == step("1010", 4)


def test_rule_dp_ethil_a_disembodied_spirit_in_its_path_is_untouched():
    """L674 (DS&T): the Doom Run is exotic magic; a disembodied spirit in its
    path is not eliminated. (No scenario puts one on the map in the Exotic
    Magic Phase: an Independent spirit is handed to the Sartars here.)"""
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    spirit = unit("spirit_of_movement")
    p.s["units_end"] = max(int(p.s["units_end"]), spirit + 1)
    p.s["unit_force"][spirit] = FORCES.index(SARTAR)
    path = run_until_the_edge(CENTRE, 5)
    p.put("spirit_of_movement", path[1])
    p.put("bh_bison_riders#1", path[1])
    unleash(p, LUNAR, 5)
    assert p.where("spirit_of_movement") == path[1]
    assert p.where("bh_bison_riders#1") == "dead"


def test_the_heuristic_unleashes_the_hound_down_the_line_of_most_enemy_strength():
    """The heuristic's use of the Doom Run: worth the Hound when the best
    line costs the enemy more than the Hound's own CF of 10, and then that
    line; not when no line does."""
    from dragongym.agents import make_agent
    from dragongym.envs.dragon_pass.game import GAME
    import numpy as np
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    north = run_until_the_edge(CENTRE, 1)
    for k, name in enumerate(("bh_bison_riders#1", "bh_bison_riders#2", "bh_bison_riders#3")):
        p.put(name, north[2 + k])
    p.put("fa_free_warriors#1", step(CENTRE, 4, 2))
    p.s["cloak_turn"] = 1                     # the Cloak already cast: the Hound alone
    exotic(p, LUNAR, player_turn=7)
    agent = make_agent("dragon_pass.heuristic", game=GAME)
    a = agent.act_state(GAME, p.S, 0, np.random.default_rng(1))
    assert GAME.action_to_string(p.S, a).startswith("Hell Hound")
    p.act(GAME.action_to_string(p.S, a))
    a = agent.act_state(GAME, p.S, 0, np.random.default_rng(1))
    assert GAME.action_to_string(p.S, a) == f"the Hell Hound runs its Doom Run north through {north[0]} to the board's edge"
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    p.put("fa_free_warriors#1", step(CENTRE, 4, 2))
    p.s["cloak_turn"] = 1
    exotic(p, LUNAR, player_turn=7)
    a = agent.act_state(GAME, p.S, 0, np.random.default_rng(1))
    assert GAME.action_to_string(p.S, a) == "end the Exotic Magic Phase"


def test_the_heuristic_casts_the_cloak_when_its_cloud_would_hold_many_more_enemy_than_own_units():
    """The heuristic's use of the Cloak (once a game): at least 4 enemy units
    held by the cloud, more than twice the own ones held; not otherwise."""
    from dragongym.agents import make_agent
    from dragongym.envs.dragon_pass.game import GAME
    import numpy as np
    agent = make_agent("dragon_pass.heuristic", game=GAME)
    for own, cast in ((0, True), (2, False)):
        p = Position("18.5", moon="full")
        ethilrist_for(p, LUNAR, hound=False)
        for k in range(4):
            p.put(f"fa_free_warriors#{k + 1}" if k < 3 else "cm_town_militia#1", step(CENTRE, k + 1, 3))
        for k in range(own):
            p.put(f"cc_lancers#{k + 1}", step(CENTRE, 5, 2 + k))
        exotic(p, LUNAR)
        text = GAME.action_to_string(p.S, agent.act_state(GAME, p.S, 0, np.random.default_rng(1)))
        assert text.startswith("Sir Ethilrist") == cast, text


# ---------------------------------------------------------------- the Cloak of Darkness
def cloak_cast(p, where=CENTRE, turn=1):
    """The Cloak of Darkness cast at ``where`` in game-turn ``turn``."""
    p.s["cloak_hex"] = hexi(where)
    p.s["cloak_turn"] = turn


def test_rule_dp_ethil_the_cloak_is_cast_on_ethilrists_hex_in_his_exotic_magic_phase():
    """L752: 'Place the Cloak in the hex occupied by Ethilrist during his exotic
    magic phase': his hex is the only target; the cloud starts there."""
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    exotic(p, LUNAR)
    choose(p, "Sir Ethilrist", "uses its exotic magic")
    assert p.legal() == [f"Sir Ethilrist casts the Cloak of Darkness at {CENTRE}: a cloud 10 hexes around "
                         "for 2 more game-turns"]
    p.act(p.legal()[0])
    assert int(p.s["cloak_hex"]) == hexi(CENTRE) and int(p.s["cloak_turn"]) == int(p.s["turn"])
    assert not any("Sir Ethilrist" in t for t in p.legal())


def test_rule_dp_ethil_the_cloak_is_used_once_and_only_while_ethilrist_lives():
    """L752: kept off board until used (one counter: once a game); 'can only
    be used if Ethilrist has not been eliminated'."""
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    p.s["cloak_turn"] = 1                       # cast before, its cloud gone
    exotic(p, LUNAR, player_turn=7)
    assert not any("Sir Ethilrist" in t for t in p.legal())
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    p.s["unit_where"][unit(ETHILRIST)] = 3      # eliminated: the dead pile
    p.s["unit_hex"][unit(ETHILRIST)] = -1
    exotic(p, LUNAR)
    assert not any("Sir Ethilrist" in t for t in p.legal())


def test_rule_dp_ethil_units_in_the_cloud_cannot_move_but_the_unaffected():
    """L752: 'All units in the cloud cannot move' -- within 10 hexes of the
    Cloak; the eleventh hex is clear. Ethilrist, the Hound, the Black Horse
    units, spirits, dragons and superheroes are unaffected."""
    p = Position("18.3")
    ethilrist_for(p, SARTAR, step(CENTRE, 4, 2))
    cloak_cast(p)
    p.put("fa_free_warriors#1", step(CENTRE, 1, 10))
    p.put("fa_free_warriors#2", step(CENTRE, 1, 11))
    p.put("harrek", step(CENTRE, 2, 3))
    troop = "bh_troops#1"
    p.put(troop, step(CENTRE, 5, 3))
    p.s["unit_force"][unit(troop)] = FORCES.index(SARTAR)
    sartar_movement_starts(p)
    assert p.mp("fa_free_warriors#1") == 0
    assert p.mp("fa_free_warriors#2") > 0
    assert p.mp("harrek") > 0 and p.mp(troop) > 0 and p.mp(ETHILRIST) == 10.0 and p.mp(HOUND) > 0
    assert f"select the stack at {step(CENTRE, 1, 10)}" not in p.legal()


def test_rule_dp_ethil_a_unit_entering_the_cloud_must_stop():
    """L752: 'units that enter a hex of the cloud must stop'; a Black Horse
    unit goes on."""
    p = Position("18.3")
    ethilrist_for(p, SARTAR, step(CENTRE, 4, 2))
    cloak_cast(p)
    outside = step(CENTRE, 1, 11)
    p.put("fa_free_warriors#1", outside)
    troop = "bh_troops#1"
    p.put(troop, step(CENTRE, 1, 12))
    p.s["unit_force"][unit(troop)] = FORCES.index(SARTAR)
    sartar_movement_starts(p)
    moving(p, "fa_free_warriors#1", outside)
    move(p, "fa_free_warriors#1", outside, step(CENTRE, 1, 10))
    assert p.phase == R.PH_MOVE                 # stopped: the next stack to move
    assert p.where("fa_free_warriors#1") == step(CENTRE, 1, 10)
    moving(p, troop, step(CENTRE, 1, 12))
    move(p, troop, step(CENTRE, 1, 12), outside)
    move(p, troop, outside, step(CENTRE, 1, 10))
    assert p.phase == R.PH_MOVE_GROUP           # unaffected: it may go on


def end_of_turn(p, turn):
    """Game-turn ``turn`` ends (18.3: the Sartar player-turn second, no
    battles): the book-keeping phase, then the Lunar movement of the next."""
    p.movement(SARTAR, player_turn=2 * turn)
    p.act("end the movement phase")
    assert int(p.s["turn"]) == turn + 1 and p.phase == R.PH_MOVE and p.to_play == LUNAR


def test_rule_dp_ethil_the_cloud_lasts_2_game_turns_then_the_goblins_ally_with_ethilrists_controller():
    """L752: the cloud lasts 'for the next 2 game-turns' (Interpretations 81:
    cast in game-turn 1, it lifts at the end of game-turn 3); then a unit of
    Goblins stands in the Cloak's hex, allied with Ethilrist's controller when
    no unit of the other player is there."""
    p = Position("18.3")
    ethilrist_for(p, LUNAR, step(CENTRE, 4, 2))
    cloak_cast(p, turn=1)
    end_of_turn(p, 2)
    assert int(p.s["cloak_hex"]) == hexi(CENTRE) and p.where("goblins") != CENTRE
    end_of_turn(p, 3)
    assert int(p.s["cloak_hex"]) == -1
    assert p.where("goblins") == CENTRE and int(p.s["unit_force"][unit("goblins")]) == FORCES.index(LUNAR)


def test_rule_dp_ethil_the_goblins_ally_with_the_other_player_if_his_unit_is_in_the_cloaks_hex():
    """L752: 'If a unit from a player that does not control Ethilrist is in
    that hex ... the goblins will ally with that player'."""
    p = Position("18.3")
    ethilrist_for(p, LUNAR, step(CENTRE, 4, 2))
    cloak_cast(p, turn=1)
    p.put("harrek", CENTRE)
    end_of_turn(p, 3)
    assert p.where("goblins") == CENTRE and int(p.s["unit_force"][unit("goblins")]) == FORCES.index(SARTAR)


def test_rule_dp_ethil_the_observation_shows_the_cloak_and_its_cloud():
    """The Cloak's cloud is public: cast, lasting, game-turns left, its hex."""
    import numpy as np
    from dragongym.envs.dragon_pass import observe as O
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.3")
    ethilrist_for(p, LUNAR)
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([FORCES.index(SARTAR)], np.int64), obs)
    assert not obs[0, O.FLAT_OFF + O.F_CLOAK:O.FLAT_OFF + O.F_CLOAK + 5].any()
    cloak_cast(p)
    GAME.observe(p.S, np.array([FORCES.index(SARTAR)], np.int64), obs)
    f = O.FLAT_OFF + O.F_CLOAK
    assert obs[0, f] == 1 and obs[0, f + 1] == 1 and obs[0, f + 2] == 1.0
    assert obs[0, f + 3] > 0 and obs[0, f + 4] > 0


def test_rule_dp_ethil_a_cloud_outlasting_its_2_game_turns_is_an_unsound_record():
    """The record's invariants (soundness): the cloud lasts the game-turn it
    was cast in and the next 2; the Goblins come only when it lifts."""
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.3")
    p.movement(LUNAR)
    cloak_cast(p, turn=1)
    p.s["turn"] = 3
    assert GAME.check_state(p.S) == ""
    p.s["turn"] = 4
    assert "outlasts" in GAME.check_state(p.S)
    p.s["turn"] = 3
    p.put("goblins", "2020")
    assert "Goblins" in GAME.check_state(p.S)


def test_the_text_names_the_cloaks_cloud():
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.3")
    p.movement(LUNAR)
    cloak_cast(p)
    assert f"the Cloak of Darkness at {CENTRE}: its cloud covers every hex within 10, 2 more game-turn(s)" \
        in GAME.render_ansi(p.S)


# ---------------------------------------------------------------- Keener Than
def keener_for(p, force, where):
    """Keener Than on the map, the player's opposing Ethilrist (L756)."""
    p.s["units_end"] = max(int(p.s["units_end"]), unit("keener_than") + 1)
    p.put("keener_than", where)
    p.s["unit_force"][unit("keener_than")] = FORCES.index(force)


def test_rule_dp_ethil_keener_than_takes_the_hound_passing_within_3_hexes():
    """L756: 'If the Hound, on a Doom Run, passes within 3 hexes of Keener
    Than, it is immediately moved to the hex that Keener Than is in, and the
    player who controls Keener Than takes control of the Hound' -- the hex it
    enters within 3 of him is not struck (Interpretations 82)."""
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR)
    path = run_until_the_edge(CENTRE, 1)
    keener = step(path[7], 3, 3)
    keener_for(p, SARTAR, keener)
    first = next(i for i, h in enumerate(path) if MAP.distance(hexi(h), hexi(keener)) <= 3)
    assert 0 < first < 7
    p.put("bh_bison_riders#1", path[first - 1])
    p.put("bh_bison_riders#2", path[first])
    unleash(p, LUNAR, 1)
    assert p.where("bh_bison_riders#1") == "dead" and p.where("bh_bison_riders#2") == path[first]
    assert p.where(HOUND) == keener and int(p.s["unit_force"][unit(HOUND)]) == FORCES.index(SARTAR)
    assert int(p.s["keener_turn"]) == int(p.s["player_turn"]) + 1      # the Sartar player-turn next


def test_rule_dp_ethil_keener_than_must_release_the_hound_in_his_next_exotic_magic_phase():
    """L756: 'In the exotic magic phase of his next player-turn, Keener Than
    must release the Hound on another Doom Run': the phase cannot end before."""
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR, "3030", hound=False)
    keener_for(p, SARTAR, CENTRE)
    p.put(HOUND, CENTRE)
    p.s["unit_force"][unit(HOUND)] = FORCES.index(SARTAR)
    p.s["keener_turn"] = 2
    exotic(p, SARTAR, player_turn=2)
    assert "end the Exotic Magic Phase" not in p.legal()
    choose(p, "Hell Hound", "uses its exotic magic")
    choose(p, "Doom Run", f"through {step(CENTRE, 4)} ")
    assert int(p.s["keener_turn"]) == 0 and p.where(HOUND) == "dead"
    assert p.where("keener_than") == CENTRE


def test_rule_dp_ethil_keener_than_rides_the_hound_that_player_turn():
    """L756: 'For that turn, Keener Than must ride the Hound': stacked with it
    he has the rider's MF of 10 (disrupted, his MF is 5) (Interpretations 82)."""
    p = Position("18.3")
    keener_for(p, SARTAR, CENTRE)
    p.put(HOUND, CENTRE)
    p.s["unit_force"][unit(HOUND)] = FORCES.index(SARTAR)
    p.s["unit_side"][unit("keener_than")] = 1
    p.s["keener_turn"] = 2
    sartar_movement_starts(p)
    assert p.mp("keener_than") == 10.0
    p = Position("18.3")
    keener_for(p, SARTAR, CENTRE)
    p.put(HOUND, CENTRE)
    p.s["unit_force"][unit(HOUND)] = FORCES.index(SARTAR)
    p.s["unit_side"][unit("keener_than")] = 1
    sartar_movement_starts(p)
    assert p.mp("keener_than") == 5.0


def test_the_heuristic_releases_the_hound_keener_than_took_and_the_record_shows_the_debt():
    """Keener Than's release is owed: the heuristic makes it whatever the run
    is worth; the observation and the text show it."""
    import numpy as np
    from dragongym.agents import make_agent
    from dragongym.envs.dragon_pass import observe as O
    from dragongym.envs.dragon_pass.game import GAME
    p = Position("18.5", moon="full")
    ethilrist_for(p, LUNAR, "3030", hound=False)
    keener_for(p, SARTAR, CENTRE)
    p.put(HOUND, CENTRE)
    p.s["unit_force"][unit(HOUND)] = FORCES.index(SARTAR)
    p.s["keener_turn"] = 2
    exotic(p, SARTAR, player_turn=2)
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([FORCES.index(LUNAR)], np.int64), obs)
    assert obs[0, O.FLAT_OFF + O.F_KEENER] == 1
    assert "must release it on a Doom Run in player-turn 2" in GAME.render_ansi(p.S)
    agent = make_agent("dragon_pass.heuristic", game=GAME)
    a = agent.act_state(GAME, p.S, 1, np.random.default_rng(1))
    assert GAME.action_to_string(p.S, a).startswith("Hell Hound")
