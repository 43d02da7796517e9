"""Magic in the combat phase (L492-L557, L602-L605, L650): spirits and agents
committed in phase A, chaotic, physical and spirit magic in the battles, and
magical support in phase C. Positions are hand-built in scenarios 18.4 and
18.5 (``scenario.Position``), the dice loaded in the order the rules roll
them."""
from .scenario import LUNAR, SARTAR, Position

# open ground, no structure, neutral: 2011 and 2012 are neighbours, 2014 two hexes south of 2012
ATTACKER, DEFENDER, MAGICIAN = "2011", "2012", "2014"


def choose(p, *words):
    """Act the one legal action whose name holds every word."""
    hits = [t for t in p.legal() if all(w in t for w in words)]
    assert len(hits) == 1, (words, p.legal())
    return p.act(hits[0])


def declare(p, defender=DEFENDER, attacker=ATTACKER):
    choose(p, "attack the stack at", defender)
    choose(p, "attack with the stack at", attacker)
    return choose(p, "with the stacks at")


def spirit_battle(*sartar, magicians=("lcm_magicians#1",), moon="full"):
    """Lunar's Full Moon Corps beside Sartar's stack, with College magicians two
    hexes off; the combat phase begins (phase A posed)."""
    p = Position("18.4", moon=moon)
    p.put("full_moon_corps", ATTACKER)
    for m in magicians:
        p.put(m, MAGICIAN)
    for u in sartar:
        p.put(u, DEFENDER)
    return p.combat(LUNAR)


def test_rule_dp_magic_a_magician_commits_its_spirit_atop_an_inactive_stack_within_its_rf():
    """L496, L1012: placed, not moved; the magician stays where it is."""
    p = spirit_battle("bh_shamans#1")
    assert p.to_play == LUNAR and any("commit" in t for t in p.legal())
    choose(p, "commit", "College Magicians' Spirit")
    assert [t for t in p.legal()] == [f"{p.name('lcm_magicians_spirit#1')} attacks the stack at {DEFENDER}"]
    choose(p, "attacks the stack at", DEFENDER)
    assert p.where("lcm_magicians_spirit#1") == f"committed to {DEFENDER}"
    assert p.where("lcm_magicians#1") == MAGICIAN
    assert p.stack(DEFENDER) == ["bh_shamans#1"]           # atop it, not part of the Sartar stack


def test_rule_dp_magic_no_commitment_beyond_the_rf_or_onto_a_stack_no_unit_can_attack():
    """L496: within the magician's RF; L512: spirits and agents cannot be the only attackers."""
    p = Position("18.4", moon="full")
    p.put("full_moon_corps", ATTACKER)
    p.put("lcm_magicians#1", "2011")
    p.put("bh_shamans#1", "2020")                         # 8 hexes off but no Lunar stack beside it
    p.put("bh_shamans#2", DEFENDER)
    p.combat(LUNAR)
    choose(p, "commit", "College Magicians' Spirit")
    assert [t for t in p.legal() if "attacks the stack" in t] == \
        [f"{p.name('lcm_magicians_spirit#1')} attacks the stack at {DEFENDER}"]


def test_rule_dp_magic_a_disrupted_magician_commits_nothing():
    """L496: an RF of 1 or more; a disrupted magician's RF is 0 (DSM only, L429)."""
    p = Position("18.4", moon="full")
    p.put("full_moon_corps", ATTACKER)
    p.put("lcm_magicians#1", MAGICIAN, disrupted=True)
    p.put("bh_shamans#1", DEFENDER)
    p.combat(LUNAR)
    assert not any("commit" in t for t in p.legal())


def test_rule_dp_magic_a_committed_spirit_must_take_part_in_the_attack_on_its_stack():
    """L496, L582: the combat phase cannot end before the stack it waits on is attacked."""
    p = spirit_battle("bh_shamans#1")
    p.put("lcm_magicians#2", "2009")
    choose(p, "commit", "(1)")
    choose(p, "attacks the stack at", DEFENDER)
    choose(p, "commit no more")
    assert "fight no more battles" not in p.legal()


def test_rule_dp_magic_spirit_magic_and_defensive_spirit_magic_roll_then_each_side_picks():
    """L544-L552: the spirits' MgF 6 and the shamans' DSM 8 roll first (6, 6: losses
    6 and 8); the attacker takes a 4-MgF shaman (the other no longer fits), the
    defender the spirit (MgF 6); the magician is unharmed (L1016)."""
    p = spirit_battle("bh_shamans#1", "bh_shamans#2")
    choose(p, "commit", "College Magicians' Spirit")
    choose(p, "attacks the stack at", DEFENDER)
    p.dice(6, 6)
    declare(p)
    assert p.to_play == LUNAR and sorted(p.legal()) == sorted(
        f"eliminate {p.name(u)} at {DEFENDER}" for u in ("bh_shamans#1", "bh_shamans#2"))
    choose(p, "eliminate", "(1)")
    assert p.to_play == SARTAR and p.legal() == [f"eliminate {p.name('lcm_magicians_spirit#1')} at {DEFENDER}"]
    choose(p, "eliminate")
    assert p.where("bh_shamans#1") == "dead" and p.where("bh_shamans#2") == DEFENDER
    assert p.where("lcm_magicians_spirit#1") == "dead" and p.where("lcm_magicians#1") == MAGICIAN


def test_rule_dp_magic_surviving_spirits_go_back_to_their_holding_boxes():
    """L556: a loss of 4 against the spirit's MgF 6 takes nothing; home it goes."""
    p = spirit_battle("bh_shamans#1")
    choose(p, "commit", "College Magicians' Spirit")
    choose(p, "attacks the stack at", DEFENDER)
    p.dice(6, 6)                                        # the spirit: 6 lost by the shaman; DSM 4: 4
    declare(p)
    choose(p, "eliminate", "Shaman")
    assert p.where("lcm_magicians_spirit#1") == "holding box"


def test_rule_dp_magic_dsm_only_where_spirit_magic_attacks():
    """L542: no spirit attack, no DSM: a melee alone rolls one die."""
    p = spirit_battle("bh_shamans#1")
    choose(p, "commit no more")
    p.dice(1)
    declare(p)
    assert int(p.s["loaded_pos"]) <= 1


def test_rule_dp_magic_physical_magic_strikes_one_stack_with_its_agents_cf_anywhere_in_it():
    """L520-L524: the Sorcerers' agent (CF 4) rolls 6: a loss of 4 on the Attack
    Table; the attacker takes any units of the stack, each absorbing its CF times
    the Phys Magic multiplier (open ground: x1): both 2-CF Earth Priestesses; the
    agent then goes home whether or not it was involved."""
    p = spirit_battle("smu_earth_priestesses#1", "bh_shamans#1", "smu_earth_priestesses#2",
                      magicians=("lcm_sorcerers",))
    choose(p, "commit", "Agent")
    choose(p, "attacks the stack at", DEFENDER)
    p.dice(6)
    declare(p)
    assert p.to_play == LUNAR
    names = sorted(p.legal())
    assert names == sorted(f"eliminate {p.name(u)} at {DEFENDER}"
                           for u in ("smu_earth_priestesses#1", "smu_earth_priestesses#2"))
    choose(p, "eliminate", "(1)")
    choose(p, "eliminate", "(2)")
    assert p.where("bh_shamans#1") == DEFENDER
    assert p.where("lcm_sorcerers_agent") == "holding box"


def test_rule_dp_magic_physical_magic_casualties_take_the_terrains_phys_magic_multiplier():
    """L335-L355: in a forest a unit absorbs twice its CF: the loss of 4 takes one
    Earth Priestess (2 x 2), not two."""
    p = Position("18.4", moon="full")
    forest = "1809"
    p.put("full_moon_corps", "1808")
    p.put("lcm_sorcerers", "1806")
    p.put("smu_earth_priestesses#1", forest)
    p.put("smu_earth_priestesses#2", forest)
    p.combat(LUNAR)
    choose(p, "commit", "Agent")
    choose(p, "attacks the stack at", forest)
    p.dice(6)
    declare(p, forest, "1808")
    choose(p, "eliminate", "(1)")
    assert p.where("smu_earth_priestesses#2") == forest


def test_rule_dp_magic_a_chaotic_unit_eliminates_units_the_attacker_chooses_on_both_sides():
    """L516-L518, L1044: the attacking Crimson Bat (MgF -1) eliminates one defender,
    chosen by the attacker, anywhere in the stack."""
    p = Position("18.4", moon="full")
    p.put("crimson_bat", ATTACKER)
    p.put("full_moon_corps", ATTACKER)
    p.put("smu_earth_priestesses#1", DEFENDER)
    p.put("bh_shamans#1", DEFENDER)
    p.combat(LUNAR)
    p.dice(1)
    declare(p)
    assert p.to_play == LUNAR
    choose(p, "eliminate", "Shaman")
    assert p.where("bh_shamans#1") == "dead" and p.where("smu_earth_priestesses#1") == DEFENDER


def test_rule_dp_magic_a_defending_chaotic_unit_eliminates_an_attacker_the_attacker_picks():
    """L518: the defending Bat eliminates one attacking unit; the attacker chooses which."""
    p = Position("18.4", moon="full")
    p.put("bh_shamans#1", ATTACKER)
    p.put("bh_shamans#2", ATTACKER)
    p.put("crimson_bat", DEFENDER)
    p.combat(SARTAR, player_turn=2)
    choose(p, "commit no more")
    declare(p)
    assert p.to_play == SARTAR
    assert sorted(p.legal()) == sorted(f"eliminate {p.name(u)} at {ATTACKER}" for u in ("bh_shamans#1", "bh_shamans#2"))


def test_rule_dp_magic_superheroes_and_three_units_with_them_are_proof_against_spirit_magic():
    """L650, L1024: Harrek cannot be picked, nor Gunda (his best friend, saved first),
    nor two more units his owner chooses; the rest can."""
    p = Position("18.5", moon="full")
    p.put("full_moon_corps", ATTACKER)
    p.put("lcm_magicians#1", MAGICIAN)
    p.put("lcm_magicians#2", MAGICIAN)
    p.put("lcm_magicians#3", MAGICIAN)
    for u in ("harrek", "gunda", "bh_shamans#1", "bh_shamans#2", "bh_shamans#3"):
        p.put(u, DEFENDER)
    p.combat(LUNAR, player_turn=1)
    for k in (1, 2, 3):
        choose(p, "commit", f"College Magicians' Spirit X-6-X-8 ({k})")
        choose(p, "attacks the stack at", DEFENDER)
    p.dice(6, 1)
    declare(p)
    assert p.to_play == SARTAR and sorted(p.legal()) == sorted(
        f"{p.name('harrek')} protects {p.name(u)} from magic" for u in ("bh_shamans#1", "bh_shamans#2", "bh_shamans#3"))
    choose(p, "protects", "(1)")
    choose(p, "protects", "(2)")
    assert p.to_play == LUNAR
    assert p.legal() == [f"eliminate {p.name('bh_shamans#3')} at {DEFENDER}"]


def test_rule_dp_magic_phase_c_spirits_support_their_side_and_go_home_at_its_next_movement():
    """L508, L604: after the battles the attacker sets spirits atop his stacks; they
    stay through the enemy's player-turn and go back to their holding boxes at the
    start of his own next movement phase."""
    p = Position("18.4", moon="full")
    p.put("full_moon_corps", ATTACKER)
    p.put("lcm_magicians#1", MAGICIAN)
    p.put("bh_shamans#1", "2030")
    p.combat(LUNAR)
    choose(p, "gives magical support")
    choose(p, "supports the stack at", ATTACKER)
    assert p.to_play == SARTAR and int(p.s["player_turn"]) == 2     # Sartar's movement: the spirit stays
    assert p.where("lcm_magicians_spirit#1") == f"supporting {ATTACKER}"
    p.act("end the movement phase")
    choose(p, "give no more magical support")                       # the Sartar shaman's spirit stays home
    assert p.to_play == LUNAR and int(p.s["player_turn"]) == 3
    assert p.where("lcm_magicians_spirit#1") == "holding box"


def dsm_takes_the_spirit(sartar, supporting=(), dead=(), also=()):
    """Lunar's College spirit (MgF 6) attacks the Sartar stack at DEFENDER (its own
    roll a 1: a loss of 1, which takes no 4-MgF unit); the DSM rolls 6. Is its loss
    (the DSM total at 6) enough for the defender to take the spirit?"""
    from .scenario import hexi, unit
    p = Position("18.4", moon="full")
    p.put("full_moon_corps", ATTACKER)
    p.put("lcm_magicians#1", MAGICIAN)
    for u in sartar:
        p.put(u, DEFENDER)
    for u, h in also:
        p.put(u, h)
    for sp in supporting:
        p.s["unit_where"][unit(sp)] = 8
        p.s["unit_hex"][unit(sp)] = hexi(DEFENDER)
    for sp in dead:
        p.s["unit_where"][unit(sp)] = 3
    p.combat(LUNAR)
    choose(p, "commit", "College Magicians' Spirit")
    choose(p, "attacks the stack at", DEFENDER)
    p.dice(1, 6)
    choose(p, "attack the stack at", DEFENDER)
    choose(p, "attack with the stack at", ATTACKER)
    if also:
        choose(p, "also attack the stack at", also[0][1])
    choose(p, "with the stacks at")
    taken = p.to_play == SARTAR and p.legal() == [f"eliminate {p.name('lcm_magicians_spirit#1')} at {DEFENDER}"]
    return taken


def test_rule_dp_magic_a_magician_whose_spirit_supports_uses_no_dsm_but_the_spirit_does():
    """L108, L508, L542, L1014: a spirit supporting the stack defends it with DSM (4 +
    4: a loss of 8 takes the 6-MgF spirit); its magician may not (the spirit's 4 alone
    takes nothing); a magician whose spirit was eliminated may (errata)."""
    assert dsm_takes_the_spirit(["bh_shamans#1"], supporting=["bh_shaman_spirit#2"])
    assert not dsm_takes_the_spirit(["bh_shamans#2"], supporting=["bh_shaman_spirit#2"])
    assert dsm_takes_the_spirit(["bh_shamans#1", "bh_shamans#2"], dead=["bh_shaman_spirit#2"])


def test_rule_dp_magic_dsm_only_by_a_stack_spirit_magic_attacks():
    """L542: a defending stack of the battle that no spirit attacks uses no DSM: the
    two shamans at 2111 add nothing to the 4 of the one the spirit attacks."""
    assert not dsm_takes_the_spirit(["bh_shamans#1"], also=[("bh_shamans#2", "2111"), ("bh_shamans#3", "2111")])


def test_rule_dp_magic_spirits_agents_and_assassins_start_off_the_board():
    """L416, L496: spirits and agents wait in their holding boxes, never deployed on
    the map; L924: assassins too, until dropped on a stack."""
    import numpy as np
    from dragongym.envs.dragon_pass.constants import UNIT_IDS, UW_HOLDING, UW_POOL
    from dragongym.envs.dragon_pass.game import GAME, DragonPassConfig
    from dragongym.envs.dragon_pass import rules as R
    S = GAME.new_states(1)
    GAME.reset(S, np.array([5], np.uint64), DragonPassConfig(scenario="18.5"))
    where = {UNIT_IDS[u]: int(S[0]["unit_where"][u]) for u in range(len(UNIT_IDS))}
    for name in ("lcm_magicians_spirit#1", "crater_makers_agent", "sylphs", "bh_shaman_spirit#3",
                 "lunar_assassin", "sartar_assassin"):
        assert where[name] == UW_HOLDING, name
    for name in ("lcm_magicians#1", "crater_makers", "full_moon_corps", "argrath"):
        assert where[name] == UW_POOL, name
    assert all(where[UNIT_IDS[u]] != UW_POOL for u in range(len(UNIT_IDS))
               if R.U_MAGICIAN[u] >= 0 or R.U_ASSASSIN[u])


def test_rule_dp_magic_supporting_spirits_covering_a_retreat_block_attackers_up_to_their_mgf():
    """L578: the physical force left behind needs a sixth of the CF of the fighting
    attackers not blocked by spirits; the spirits block attackers whose MgF total is at
    most theirs. Three Heartland 6-4-4s (18 CF) against two 2-CF Ducks: the Duck left
    behind covers 12 at most, so one Duck retreats only if the shaman's spirit (MgF 4),
    supporting the stack, blocks a 6-4-4 (MgF 4); the spirit itself stays (L508)."""
    from .scenario import hexi, unit
    for supported in (False, True):
        p = Position("18.5", moon="full")
        for k in (1, 2, 3):
            p.put(f"hc_heavy_infantry#{k}", "0517")
        p.put("cm_duck_militia#1", "0617")
        p.put("cm_duck_militia#2", "0617")
        if supported:
            p.s["unit_where"][unit("bh_shaman_spirit#1")] = 8
            p.s["unit_hex"][unit("bh_shaman_spirit#1")] = hexi("0617")
        p.combat(LUNAR)
        p.acts("attack the stack at 0617", "attack with the stack at 0517", "attack 0617 with the stacks at 0517",
               "the stack at 0517 is arranged", "the stack at 0617 is arranged")
        assert any(t.startswith("retreat") for t in p.legal()) == supported


def test_rule_dp_magic_a_best_friend_killed_by_a_spirit_makes_its_magician_the_scapegoat():
    """L654: 'If a magician's spirit or agent killed the best friend, the magician
    becomes the scapegoat.' Aelwrin, away from Jar-eel, falls to two Storm Priests'
    spirits (MgF 12 at a 6); the scapegoat is one of the two Storm Priests."""
    p = Position("18.5", moon="full")
    p.put("jar_eel", "0404")
    p.put("aelwrin", "2012")
    p.put("bh_bison_riders#1", "2011")
    p.put("smu_storm_priests#1", "2014")
    p.put("smu_storm_priests#2", "2014")
    p.combat(SARTAR, player_turn=2)
    for k in (1, 2):
        p.act(f"commit {p.name(f'smu_storm_priests_spirit#{k}')}")
        p.act(f"{p.name(f'smu_storm_priests_spirit#{k}')} attacks the stack at 2012")
    p.dice(6, 1)
    p.acts("attack the stack at 2012", "attack with the stack at 2011", "attack 2012 with the stacks at 2011")
    p.act(f"eliminate {p.name('aelwrin')} at 2012")
    while p.to_play != LUNAR or "scapegoat" not in " ".join(p.legal()):
        done = [t for t in p.legal() if "arranged" in t or t.startswith("no more") or "stays" in t]
        p.act(done[0])
    assert sorted(p.legal()) == sorted(f"{p.name(f'smu_storm_priests#{k}')} is the scapegoat of {p.name('jar_eel')}"
                                       for k in (1, 2))


def test_rule_dp_magic_zero_mgf_defenders_fall_only_to_a_loss_beyond_the_rest():
    """L554, Interpretations 33: the disrupted Crimson Bat (MgF 0) can be a spirit magic
    casualty only when the loss (12 at a 6 against two Storm Priests' spirits) exceeds the
    MgF of the non-negative defenders (the College Magicians' 6); at a 4 the loss is 6."""
    for roll, bat_open in ((6, True), (4, False)):
        p = Position("18.5", moon="full")
        p.put("lcm_magicians#1", DEFENDER)
        p.put("crimson_bat", DEFENDER, disrupted=True)
        p.put("bh_bison_riders#1", ATTACKER)
        p.put("smu_storm_priests#1", MAGICIAN)
        p.put("smu_storm_priests#2", MAGICIAN)
        p.combat(SARTAR, player_turn=2)
        for k in (1, 2):
            choose(p, "commit", f"Storm Priests' Spirit X-6-X-8 ({k})")
            choose(p, "attacks the stack at", DEFENDER)
        p.dice(roll, 1)
        declare(p)
        assert p.to_play == SARTAR
        assert (f"eliminate {p.name('crimson_bat')} at {DEFENDER}" in p.legal()) == bat_open
