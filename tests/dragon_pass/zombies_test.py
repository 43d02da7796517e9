"""Delecti and his zombies (L815-L831, L486). Delecti comes by an emissary
(diplomacy_test.py); here the tests hand him and his zombies to a player and
put the chain on the map as the rules would have raised it (zombie k beside
zombie k - 1, zombie 1 with Delecti)."""
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import FORCES

from .combat_test import ARCHERS, LANCERS, MILITIA, arranged, declare
from .magic_test import choose, declare as magic_declare
from .scenario import LUNAR, SARTAR, Position, unit

DELECTI = "delecti"
Z = [None] + [f"zombies#{k}" for k in range(1, 13)]        # Z[k]: zombie k


def delecti_for(p, force, where, *chain):
    """Delecti at ``where``, allied to ``force``, with zombies 1, 2, ... at the hexes ``chain``."""
    s = p.s
    s["units_end"] = max(int(s["units_end"]), unit(Z[12]) + 1)
    p.put(DELECTI, where)
    for name in [DELECTI] + Z[1:]:
        s["unit_force"][unit(name)] = FORCES.index(force)
    for k, at in enumerate(chain, 1):
        p.put(Z[k], at)


def lead(p, k):
    return f"move the zombie chain led by {p.name(Z[k])}"


def into(p, k, where):
    return f"{p.name(Z[k])} leads the zombie chain into {where}"


# ---------------------------------------------------------------- movement (L486, L823)
def test_rule_dp_zombies_the_first_zombie_moved_is_the_first_or_the_last_of_the_chain():
    """L823: only zombie 1 or zombie 3 of a chain of 3 may lead it; zombies
    never join an ordinary group."""
    p = Position()
    delecti_for(p, LUNAR, "2014", "2014", "2013", "2012")
    p.movement(LUNAR)
    legal = p.legal()
    assert lead(p, 1) in legal and lead(p, 3) in legal and lead(p, 2) not in legal
    p.act("select the stack at 2014")
    assert f"move {p.name(Z[1])} with the group" not in p.legal()
    assert f"move {p.name(DELECTI)} with the group" in p.legal()


def test_rule_dp_zombies_pay_1_mp_a_hex_and_follow_the_leaders_path():
    """L486, L823: the last zombie leads north into open ground, then a hill,
    1 MP each (a hill costs others 2): MF 2 spent; the others follow along its
    path, each into the hex the one before it left. Delecti joins zombie 1,
    so the chain lives at the end of the phase (L825)."""
    p = Position()
    delecti_for(p, LUNAR, "2014", "2014", "2013", "2012")
    p.movement(LUNAR)
    p.act(lead(p, 3))
    assert p.phase == R.PH_ZOMBIE_MARCH
    p.act(into(p, 3, "2011"))
    assert [p.where(Z[k]) for k in (1, 2, 3)] == ["2013", "2012", "2011"]
    p.act(into(p, 3, "2010"))                    # a hill: still 1 MP
    assert [p.where(Z[k]) for k in (1, 2, 3)] == ["2012", "2011", "2010"]
    assert p.mp(Z[3]) == 0 and p.mp(Z[1]) == 0
    assert p.legal() == ["the zombie chain stops"]
    p.act("the zombie chain stops")
    assert lead(p, 1) not in p.legal()          # the chain has moved this phase
    p.act("select the stack at 2014")
    p.act(f"move {p.name(DELECTI)} with the group")
    p.acts(f"move {p.name(DELECTI)} from 2014 to 2013", f"move {p.name(DELECTI)} from 2013 to 2012", "stop at 2012")
    p.act("end the movement phase")
    assert [p.where(Z[k]) for k in (1, 2, 3)] == ["2012", "2011", "2010"]


def test_rule_dp_zombies_all_fall_when_delecti_ends_a_phase_without_one():
    """L825: Delecti left behind, alone, at the end of the movement phase: every zombie is eliminated."""
    p = Position()
    delecti_for(p, LUNAR, "2014", "2014", "2013", "2012")
    p.movement(LUNAR)
    p.act(lead(p, 3))
    p.act(into(p, 3, "2011"))
    p.act("the zombie chain stops")
    assert p.where(Z[1]) == "2013"
    p.act("end the movement phase")
    assert [p.where(Z[k]) for k in (1, 2, 3)] == ["dead"] * 3
    assert p.where(DELECTI) == "2014"


def test_rule_dp_zombies_cannot_enter_lake_or_river_hexes_but_fords():
    """L823: from 0514, the river hexes 0513 and 0413 are closed, the ford
    0613 open; from 3410 the lake 3511 is closed."""
    p = Position()
    delecti_for(p, LUNAR, "0514", "0514")
    p.movement(LUNAR)
    p.act(lead(p, 1))
    legal = p.legal()
    assert into(p, 1, "0613") in legal and into(p, 1, "0614") in legal
    assert into(p, 1, "0513") not in legal and into(p, 1, "0413") not in legal
    p = Position()
    delecti_for(p, LUNAR, "3410", "3410")
    p.movement(LUNAR)
    p.act(lead(p, 1))
    assert into(p, 1, "3411") in p.legal() and into(p, 1, "3511") not in p.legal()


def test_rule_dp_zombies_unable_to_follow_fall_with_all_that_follow():
    """L825 with L460: zombie 2 follows its leader into 2012, in the militia's
    ZOC, and must stop there; on the leader's next step it cannot follow, and
    it falls with zombies 3 and 4 behind it."""
    p = Position()
    delecti_for(p, LUNAR, "2012", "2012", "2013", "2014", "2114")
    p.put(MILITIA[0], "1912")                    # its ZOC: 2011, 2012, not 2112 nor 2013
    p.movement(LUNAR)
    p.act(lead(p, 1))
    p.act(into(p, 1, "2112"))
    assert [p.where(Z[k]) for k in (1, 2, 3, 4)] == ["2112", "2012", "2013", "2014"]
    p.act(into(p, 1, "2111"))
    assert p.where(Z[1]) == "2111"
    assert [p.where(Z[k]) for k in (2, 3, 4)] == ["dead"] * 3


def test_rule_dp_zombies_leader_entering_an_enemy_zoc_stops_the_chain():
    """L460 for the chain: its leader stepping into an enemy ZOC ends the chain's move."""
    p = Position()
    delecti_for(p, LUNAR, "2013", "2013", "2014")
    p.put(MILITIA[0], "1912")
    p.movement(LUNAR)
    p.act(lead(p, 1))
    p.act(into(p, 1, "2012"))
    assert p.phase == R.PH_MOVE
    assert [p.where(Z[k]) for k in (1, 2)] == ["2012", "2013"]


# ---------------------------------------------------------------- elimination (L825)
def test_rule_dp_zombies_a_disrupted_zombie_falls_with_all_that_follow():
    """L825: the Lunar archers' 1DD disrupts zombie 2: it and zombie 3 are
    eliminated; zombie 1, before it in the chain, stays."""
    p = Position("18.2")
    p.put(ARCHERS[0], "0504")
    p.put(ARCHERS[1], "0504")
    delecti_for(p, SARTAR, "0605", "0605", "0604", "0704")
    p.combat(LUNAR)
    p.dice(6, 1)                                  # 2 MF at 6: 1DD
    declare(p, ["0604"], ["0504"])
    p.act(f"disrupt {p.name(Z[2])}")
    assert p.where(Z[2]) == "dead" and p.where(Z[3]) == "dead"
    assert p.where(Z[1]) == "0605"


# ---------------------------------------------------------------- new zombies (L821)
def test_rule_dp_zombies_a_unit_eliminated_beside_a_zombie_rises_as_the_next_one():
    """L821: the militia eliminated in 0604, beside zombie 1, raises zombie 2,
    placed by Delecti's controller in a hex beside zombie 1 (several qualify)."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    delecti_for(p, LUNAR, "0505", "0505")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    p.dice(4)
    declare(p, ["0604"], ["0504", "0505"])
    arranged(p, "0504", "0505")
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    assert p.phase == R.PH_ZOMBIE_RISE and p.to_play == LUNAR
    legal = p.legal()
    assert "a new zombie rises at 0604" in legal and "a new zombie rises at 0506" in legal
    assert "a new zombie rises at 0505" not in legal      # beside the last zombie, not with it
    p.act("a new zombie rises at 0506")
    assert p.where(Z[2]) == "0506" and int(p.s["unit_force"][unit(Z[2])]) == FORCES.index(LUNAR)


def test_rule_dp_zombies_with_none_left_zombie_1_rises_with_delecti():
    """L821: no zombie on the board: the new one is zombie 1, stacked with
    Delecti (one hex: no decision)."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    delecti_for(p, LUNAR, "0505")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    p.dice(4)
    declare(p, ["0604"], ["0504", "0505"])
    arranged(p, "0504")                         # Delecti alone: nothing to arrange
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    assert p.where(Z[1]) == "0505"
    assert p.phase != R.PH_ZOMBIE_RISE


def test_rule_dp_zombies_rise_nowhere_beside_the_enemy():
    """L821: every hex beside zombie 1 but the lancers' own is beside a Sartar
    unit; the lancers' 0504 holds units of Delecti's side, so it is the only
    hex (no decision)."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    delecti_for(p, LUNAR, "0505", "0505")
    p.put(MILITIA[0], "0604")
    p.put(MILITIA[1], "0605")                    # beside 0604, 0506, 0606...
    p.put(MILITIA[2], "0405")                    # beside 0404, 0406, 0506...
    p.combat(LUNAR)
    p.dice(4)
    declare(p, ["0604"], ["0504", "0505"])
    arranged(p, "0504", "0505")
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    assert p.where(Z[2]) == "0504"


# ---------------------------------------------------------------- combat (L829)
def test_rule_dp_zombies_fighting_add_every_zombie_on_the_board():
    """L829: zombies 2 and 3 attack from 0504; the CF of all four zombies on
    the board counts: 4 x 2 = 8."""
    p = Position()
    delecti_for(p, LUNAR, "0503", "0503", "0504", "0504", "0404")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    p.dice(1, 1)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504")
    p.act("no more retreats")
    assert int(p.s["att_total"]) == 8


def test_rule_dp_zombies_defending_do_not_counter_attack_nor_retreat():
    """L829: two defending zombies are offered no retreat, and do not
    counter-attack: the defenders' total is 0 (their CFs doubled would be 8)."""
    p = Position()
    p.put(LANCERS[0], "0504")
    delecti_for(p, SARTAR, "0704", "0704", "0604", "0604")
    p.combat(LUNAR)
    p.dice(1, 1, 1, 1)
    declare(p, ["0604"], ["0504"])
    arranged(p, "0604")
    assert int(p.s["att_total"]) == 4
    assert not [a for a in p.legal() if a.startswith("retreat")]
    arranged(p, "0604")
    assert int(p.s["def_total"]) == 0
    assert p.where(LANCERS[0]) == "0504" and p.where(Z[2]) == "0604"


# ---------------------------------------------------------------- spirit magic (L827)
def zombie_spirit_battle(*dice):
    """Two College Magicians' spirits (MgF 6 + 6) attack zombies 2 and 3 at
    2012 by spirit magic beside the Full Moon Corps; Delecti (MgF 10) and
    zombie 1 stand at 2013, out of the battle; dice loaded for the spirit
    magic roll then the DSM roll."""
    p = Position("18.4", moon="full")
    p.put("full_moon_corps", "2011")
    for m in ("lcm_magicians#1", "lcm_magicians#2"):
        p.put(m, "2008")
    delecti_for(p, SARTAR, "2013", "2013", "2012", "2012")
    p.combat(LUNAR)
    for k in (1, 2):
        choose(p, "commit", "Spirit", f"({k})")
        choose(p, "attacks the stack at", "2012")
    p.dice(*dice)
    magic_declare(p, "2012", "2011")
    return p


def test_rule_dp_zombies_defend_with_delectis_mgf():
    """L827: the zombies' DSM is Delecti's MgF 10 though he is not in the
    battle: rolled 6, a loss of 10 to the spirits (the zombies' own MgF is blank)."""
    p = zombie_spirit_battle(1, 6)
    assert int(p.s["magic_att_loss"]) == 10


def test_rule_dp_zombies_a_spirit_loss_of_delectis_mgf_takes_all_the_zombies_in_the_battle():
    """L827: a loss of 12 >= Delecti's MgF 10: the attacker may take the
    zombies of the battle, all of them at once, for 10 of it."""
    p = zombie_spirit_battle(6, 1)
    assert int(p.s["magic_def_loss"]) == 12
    assert p.to_play == LUNAR and p.legal() == [f"eliminate {p.name(Z[2])} at 2012"]
    p.act(f"eliminate {p.name(Z[2])} at 2012")
    assert p.where(Z[2]) == "dead" and p.where(Z[3]) == "dead" and p.where(Z[1]) == "2013"


def test_rule_dp_zombies_a_spirit_loss_under_delectis_mgf_takes_no_zombie():
    """L827: a loss of 2 < 10: the zombies cannot be taken (their blank MgF
    is not a zero MgF open to the excess loss, L554)."""
    p = zombie_spirit_battle(1, 1)
    assert int(p.s["magic_def_loss"]) == 2
    assert p.phase != R.PH_MAGIC_CASUALTY or not [a for a in p.legal() if "Zombies" in a and "eliminate" in a]
    assert p.where(Z[2]) == "2012" and p.where(Z[3]) == "2012"


def test_rule_dp_zombies_a_zombie_casualty_absorbs_2_whatever_the_terrain():
    """L829: a loss of 2 against zombie 2 on a hill (melee x1½): the zombie
    absorbs just its CF 2 (multiplied, 3, it could not be taken)."""
    p = Position()
    p.put(LANCERS[0], "2009")
    p.put(LANCERS[1], "2009")
    delecti_for(p, SARTAR, "2011", "2011", "2010")
    p.combat(LUNAR)
    p.dice(2, 1, 1)                               # 8 at 2: a loss of 2
    declare(p, ["2010"], ["2009"])
    arranged(p, "2009")
    assert int(p.s["loss_left"]) == 4             # halves
    assert p.legal() == [f"eliminate {p.name(Z[2])} at 2010"]
    p.act(f"eliminate {p.name(Z[2])} at 2010")
    assert p.where(Z[2]) == "dead" and int(p.s["loss_left"]) == 0


def test_rule_dp_zombies_no_thirteenth_zombie():
    """L821: at most 12 zombies: the last of the chain is zombie 12, so the
    militia falling beside it raises none."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    delecti_for(p, LUNAR, "0505")
    p.put(Z[12], "0505")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    p.dice(4)
    declare(p, ["0604"], ["0504", "0505"])
    arranged(p, "0504", "0505")
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    assert p.phase != R.PH_ZOMBIE_RISE
    assert int((p.s["unit_where"] == 2).sum()) == 5       # the 3 lancers, Delecti, zombie 12: no new counter


def test_rule_dp_zombies_all_fall_at_the_end_of_the_phase_delecti_is_eliminated_in():
    """L825: Delecti eliminated in a battle (with zombie 1): zombie 2 stands
    until the end of that combat phase, then falls."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    delecti_for(p, SARTAR, "0604", "0604", "0704")
    p.combat(LUNAR)
    p.dice(6, 1, 1, 1)                            # 12 at 6: a loss of 12
    declare(p, ["0604"], ["0504"])
    arranged(p, "0504", "0604")
    p.act("no more retreats")
    p.act(f"eliminate {p.name(Z[1])} at 0604")
    p.act(f"eliminate {p.name(DELECTI)} at 0604")
    assert p.where(DELECTI) == "dead" and p.where(Z[2]) == "0704"     # the phase goes on
    p.act("no more advances")
    assert int(p.s["stage"]) == R.ST_COMBAT and p.where(Z[2]) == "0704"
    arranged(p, "0504")                          # the last decision of the combat phase
    assert int(p.s["stage"]) != R.ST_COMBAT
    assert p.where(Z[2]) == "dead"


def test_rule_dp_zombies_a_unit_falling_in_a_zombies_own_hex_raises_one():
    """L821 (Interpretations 111): the Sartar militia stacked with zombie 1
    (Delecti two hexes off) falls to the Lunar lancers' melee: zombie 2
    rises beside zombie 1, where Sartar chooses among the hexes beside no
    Lunar unit, 0605 and 0705."""
    p = Position()
    for u in LANCERS[:3]:
        p.put(u, "0504")
    p.put(LANCERS[3], "0603")
    delecti_for(p, SARTAR, "0806", "0604")
    p.put(MILITIA[0], "0604")
    p.combat(LUNAR)
    p.dice(6, 1, 1, 1)
    declare(p, ["0604"], ["0504", "0603"])
    arranged(p, "0504", "0604")
    if "no more retreats" in p.legal():
        p.act("no more retreats")
    p.act(f"eliminate {p.name(MILITIA[0])} at 0604")
    assert p.phase == R.PH_ZOMBIE_RISE and p.to_play == SARTAR
    assert sorted(p.legal()) == ["a new zombie rises at 0605", "a new zombie rises at 0705"]
    p.act("a new zombie rises at 0705")
    assert p.where(Z[2]) == "0705"
