"""The dragons (L839-L857): dragonfights at the start of their side's Exotic
Magic Phase (L845 = L726), their CF in combat (L847), their immunity to magic
(L849, L678) and their negation of the Glowline and Glowspot (L670, L851).
Dragons have no side yet (alliances come later): the tests hand them to a
side, in 18.5 where both sides have an Exotic Magic Phase (L271)."""
import numpy as np

from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.constants import FORCES

from .cragspider_test import step
from .exotic_test import choose, exotic
from .scenario import LUNAR, SARTAR, Position, hexi, unit

CENTRE = "2014"                       # open ground, far from the board's edge


def cf(p, name, force=SARTAR):
    """Unit ``name``'s CF as the rules read it now, from ``force``'s observation
    (an Independent's counter has no printed force to observe it from)."""
    from dragongym.envs.dragon_pass import observe as O
    from .scenario import GAME, seat
    obs = np.zeros((1, O.OBS_SIZE), np.float32)
    GAME.observe(p.S, np.array([seat(force)], np.int64), obs)
    return round(float(obs[0, O.UNITS_OFF + unit(name) * O.UNIT_FEATURES + O.U_CF]) * 20) / 2


def given(p, force, name, where, disrupted=False):
    """Counter ``name`` (an Independent's, say) on the map for ``force``."""
    s = p.s
    s["units_end"] = max(int(s["units_end"]), unit("hungry_jack") + 1, unit(name) + 1)
    p.put(name, where, disrupted=disrupted)
    s["unit_force"][unit(name)] = FORCES.index(force)


def test_rule_dp_dragonfight_eliminates_every_enemy_unit_beside_it_and_the_dragon():
    """L845: 'If an active dragon remains adjacent to any inactive units ... at
    the start of an exotic magic phase, it must dragonfight. Normally, every
    enemy unit adjacent to a dragon and the dragon itself are eliminated';
    herds too (L588: a Dragonfight eliminates even herds). Units 2 hexes away
    are untouched."""
    p = Position("18.5", moon="full")
    given(p, SARTAR, "red_dragon", CENTRE)
    p.put("cc_lancers#1", step(CENTRE, 1))
    p.put("cc_lancers#2", step(CENTRE, 1))
    p.put("hc_infantry#1", step(CENTRE, 4))
    given(p, LUNAR, "horse_herds#1", step(CENTRE, 3))
    p.put("hc_infantry#2", step(CENTRE, 1, 2))
    exotic(p, SARTAR)
    for name in ("red_dragon", "cc_lancers#1", "cc_lancers#2", "hc_infantry#1", "horse_herds#1"):
        assert p.where(name) == "dead", name
    assert p.where("hc_infantry#2") == step(CENTRE, 1, 2)


def test_rule_dp_dragonfight_no_inactive_unit_beside_it_no_fight():
    """L845: only a dragon adjacent to inactive units must dragonfight; one of
    the inactive side's dragons does not fight in the active side's phase."""
    p = Position("18.5", moon="full")
    given(p, SARTAR, "red_dragon", CENTRE)
    given(p, LUNAR, "green_dragon", step(CENTRE, 1, 3))
    p.put("hc_infantry#1", step(CENTRE, 1, 2))
    given(p, LUNAR, "brown_dragon", step(step(CENTRE, 1, 3), 1))
    exotic(p, SARTAR)
    assert p.where("red_dragon") == CENTRE and p.where("hc_infantry#1") == step(CENTRE, 1, 2)
    assert p.where("green_dragon") == step(CENTRE, 1, 3)


def test_rule_dp_dragonfight_dragon_against_dragon_eliminates_only_the_two_dragons():
    """L845: 'If another dragon is in the enemy units, then both dragons are
    eliminated, but none of the other units are eliminated.'"""
    p = Position("18.5", moon="full")
    given(p, SARTAR, "red_dragon", CENTRE)
    given(p, LUNAR, "green_dragon", step(CENTRE, 2))
    p.put("cc_lancers#1", step(CENTRE, 2))
    p.put("hc_infantry#1", step(CENTRE, 5))
    exotic(p, SARTAR)
    assert p.where("red_dragon") == "dead" and p.where("green_dragon") == "dead"
    assert p.where("cc_lancers#1") == step(CENTRE, 2) and p.where("hc_infantry#1") == step(CENTRE, 5)


def test_rule_dp_dragonfight_a_superhero_in_a_stack_the_active_player_decides():
    """L845: 'If a superhero is in a stack adjacent to a dragon, the active
    player must decide between eliminating one of the superheroes or all
    non-superhero units in that stack (other stacks adjacent to the dragons
    are not protected by the superhero).' Here the non-superhero units go."""
    p = Position("18.5", moon="full")
    given(p, LUNAR, "red_dragon", CENTRE)
    p.put("cm_town_militia#1", step(CENTRE, 1))
    p.put("harrek", step(CENTRE, 1))
    p.put("cm_town_militia#2", step(CENTRE, 4))
    exotic(p, LUNAR)
    assert p.phase == R.PH_DRAGONFIGHT and p.to_play == LUNAR
    assert len(p.legal()) == 2
    choose(p, "units at", "but the superheroes")
    assert p.where("cm_town_militia#1") == "dead" and p.where("harrek") == step(CENTRE, 1)
    assert p.where("cm_town_militia#2") == "dead" and p.where("red_dragon") == "dead"


def test_rule_dp_dragonfight_a_superhero_eliminated_makes_a_heroic_escape():
    """L845: the other choice eliminates the superhero, and the stack's other
    units stay; 'Heroes or superheroes eliminated in dragonfights can
    attempt heroic escapes' (L642)."""
    p = Position("18.5", moon="full")
    given(p, LUNAR, "red_dragon", CENTRE)
    p.put("cm_town_militia#1", step(CENTRE, 1))
    p.put("harrek", step(CENTRE, 1))
    p.put("argrath", step(CENTRE, 3))
    exotic(p, LUNAR)
    choose(p, "eliminates Harrek")
    assert p.where("harrek") == "escaping" and p.where("cm_town_militia#1") == step(CENTRE, 1)
    assert p.where("argrath") == "escaping"               # a hero beside it: eliminated, and he escapes if he can
    assert p.where("red_dragon") == "dead"


def test_rule_dp_dragon_cf_is_its_stacks_divided_between_its_dragons():
    """L847, L397: 'A dragon has a CF of 0 on its own ... Otherwise, it has a CF
    equal to all the units stacked with it. If 2 or more dragons are in a
    stack, add all the units and CFs and divide between the dragons in the
    stack -- e.g. if a stack had a CF total of 13 and it contained 2 dragons
    in the stack, each dragon's defensive CF would then be 6½.' And 'the CF
    of a disrupted dragon is halved'."""
    p = Position("18.5", moon="full")
    given(p, SARTAR, "red_dragon", CENTRE)
    assert cf(p, "red_dragon") == 0                     # on its own
    given(p, SARTAR, "green_dragon", CENTRE)
    p.put("fa_free_warriors#1", CENTRE)                # 4
    p.put("fa_free_cavalry#1", CENTRE)                 # 5
    p.put("fa_free_warriors#2", CENTRE)                # 4: a CF total of 13
    assert cf(p, "red_dragon") == 6.5 and cf(p, "green_dragon") == 6.5
    p.s["unit_side"][unit("green_dragon")] = 1          # disrupted
    assert cf(p, "green_dragon") == 3.0 and cf(p, "red_dragon") == 6.5


def test_rule_dp_dragons_alone_do_not_attack():
    """L847: 'Dragons do not attack except by dragonfights': a stack of dragons
    alone beside an enemy stack is offered no battle, nor must it fight one."""
    p = Position("18.5", moon="full")
    p.put("fa_free_warriors#1", CENTRE)
    p.put("cc_lancers#1", step(CENTRE, 1))
    p.combat(SARTAR, player_turn=2)
    assert p.phase == R.PH_BATTLE                       # Free Warriors there must fight (L582)
    p = Position("18.5", moon="full")
    given(p, SARTAR, "red_dragon", CENTRE)
    p.put("cc_lancers#1", step(CENTRE, 1))
    p.combat(SARTAR, player_turn=2)
    assert p.phase != R.PH_BATTLE and p.phase != R.PH_BATTLE_ADD      # no battle: the phase is over
    assert p.where("red_dragon") == CENTRE and p.where("cc_lancers#1") == step(CENTRE, 1)


def test_rule_dp_dragons_and_three_units_they_save_are_unaffected_by_exotic_magic():
    """L849, L678: dragons are immune to exotic magic and 'can save up to three
    units stacked with them from any effects of exotic magic. The player who
    controls the dragon decides which units are to be saved.' A Meteor Storm
    (L710) on a stack of a dragon and 4 units: its controller saves 3."""
    p = Position("18.5", moon="full")
    p.put("crater_makers", "2010")
    given(p, SARTAR, "red_dragon", CENTRE)
    for name in ("fa_free_warriors#1", "fa_free_warriors#2", "fa_free_cavalry#1", "fa_free_archers#1"):
        p.put(name, CENTRE)
    exotic(p, LUNAR)
    choose(p, "Crater Makers", "uses its exotic magic")
    choose(p, "Meteor Storm strikes", CENTRE)
    assert p.phase == R.PH_SAVE and p.to_play == SARTAR
    assert len(p.legal()) == 4
    for name in ("fa_free_warriors#1", "fa_free_warriors#2", "fa_free_cavalry#1"):
        choose(p, "protects", p.name(name))
    assert p.where("red_dragon") == CENTRE
    assert [p.where(n) for n in ("fa_free_warriors#1", "fa_free_warriors#2", "fa_free_cavalry#1")] == [CENTRE] * 3
    assert p.where("fa_free_archers#1") == "dead"


def glowline_hex():
    """A hex within the Glowline whose neighbours are all on the map."""
    for h in range(len(R.HEX_GLOWLINE)):
        if R.HEX_GLOWLINE[h] and all(int(R.HEX_STEP[h, d]) >= 0 for d in range(1, 7)) \
                and all(R.HEX_GLOWLINE[int(R.HEX_STEP[h, d])] for d in range(1, 7)):
            from dragongym.envs.dragon_pass.data import MAP
            return MAP.hex_id(h)
    raise AssertionError("no Glowline hex")


def test_rule_dp_dragon_negates_the_glowline_within_1_hex_at_its_controllers_option():
    """L670, L851: 'For each dragon, the controlling player can choose to negate
    the Glowline and Glowspot within 1 hex of the dragon ... This effect is
    optional.' A Lunar cyclic unit in the Glowline counts 7 (L662); within 1
    hex of a Sartar dragon whose controller negates it, the moon's own value
    (Black: 3), and 7 again once he stops (Interpretations 102). The dragon
    switches in the Exotic Magic Phase 2 hexes away (beside the Lunar unit it
    would dragonfight, L845), then stands beside it."""
    p = Position("18.5", moon="black")
    g = glowline_hex()
    p.put("full_moon_corps", g)
    far, near = hexi(step(g, 2, 2)), hexi(step(g, 2))
    given(p, SARTAR, "red_dragon", step(g, 2, 2))
    p.s["unit_hex"][unit("red_dragon")] = near
    assert cf(p, "full_moon_corps", LUNAR) == 7         # not negated: optional
    p.s["unit_hex"][unit("red_dragon")] = far
    exotic(p, SARTAR)
    choose(p, "Red Dragon", "negate the Glowline near it or not")
    choose(p, "negates the Glowline")
    assert cf(p, "full_moon_corps", LUNAR) == 7         # 2 hexes away: no effect
    p.s["unit_hex"][unit("red_dragon")] = near
    assert cf(p, "full_moon_corps", LUNAR) == 3
    p.s["unit_hex"][unit("red_dragon")] = far
    exotic(p, SARTAR)
    choose(p, "Red Dragon", "negate the Glowline near it or not")
    choose(p, "stops negating")
    p.s["unit_hex"][unit("red_dragon")] = near
    assert cf(p, "full_moon_corps", LUNAR) == 7


def test_rule_dp_missile_fire_at_a_stack_with_a_dragon_is_3_less():
    """L382, L1107: 'Target includes a Dragon: Die roll -3'. 4 Missile Factors
    rolling 6 at two militia give 2DD (combat_test's
    test_rule_dp_missile_2dd_is_two_disruptions_or_one_elimination); with the
    Red Dragon in their stack the 6 reads 3, no result at 3-4 factors, and the
    battle goes straight on to the melee."""
    from .combat_test import ARCHERS, MILITIA, declare
    p = Position("18.2")
    for u in ARCHERS:
        p.put(u, "0504")
    p.put(MILITIA[0], "0604")
    p.put(MILITIA[1], "0604")
    given(p, SARTAR, "red_dragon", "0604")
    p.combat(LUNAR)
    p.dice(6)
    declare(p, ["0604"], ["0504"])
    assert p.phase == R.PH_ARRANGE
    assert not p.disrupted(MILITIA[0]) and not p.disrupted(MILITIA[1])


def test_rule_dp_a_spirit_attacking_a_battle_with_a_dragon_is_eliminated_without_effect():
    """L849: 'Any spirit using chaotic magic or spirit magic in a battle is
    eliminated if the opposing stacks contain at least 1 dragon, without having
    any effects upon the units stacked with the dragon.' The College Magicians'
    Spirit, committed to the shamans' stack with the Red Dragon, rolls nothing
    and is eliminated; the shamans lose nothing; its magician is unharmed."""
    from .magic_test import DEFENDER, MAGICIAN, declare, spirit_battle
    p = spirit_battle("bh_shamans#1", "bh_shamans#2")
    given(p, SARTAR, "red_dragon", DEFENDER)
    choose(p, "commit", "College Magicians' Spirit")
    choose(p, "attacks the stack at", DEFENDER)
    p.dice(6, 6, 6, 6)
    declare(p)
    assert not any(t.startswith("eliminate") for t in p.legal())
    assert p.where("lcm_magicians_spirit#1") == "dead" and p.where("lcm_magicians#1") == MAGICIAN
    assert p.where("bh_shamans#1") == DEFENDER and p.where("bh_shamans#2") == DEFENDER


def test_rule_dp_a_stack_with_a_dragon_suffers_no_physical_magic_losses():
    """L849: 'If a stack contains a dragon, that stack suffers no losses due to
    ... physical magic': the Sorcerers' agent rolls a loss of 4 (as in the
    magic tests without the dragon) and nothing can be taken; the agent goes home."""
    from .magic_test import DEFENDER, declare, spirit_battle
    p = spirit_battle("smu_earth_priestesses#1", "bh_shamans#1", "smu_earth_priestesses#2",
                      magicians=("lcm_sorcerers",))
    given(p, SARTAR, "red_dragon", DEFENDER)
    choose(p, "commit", "Agent")
    choose(p, "attacks the stack at", DEFENDER)
    p.dice(6)
    declare(p)
    assert not any(t.startswith("eliminate") for t in p.legal())
    for name in ("smu_earth_priestesses#1", "bh_shamans#1", "smu_earth_priestesses#2", "red_dragon"):
        assert p.where(name) == DEFENDER
    assert p.where("lcm_sorcerers_agent") == "holding box"


def test_rule_dp_pillar_a_dragon_is_unaffected_and_saves_three_units():
    """L764, L678, L849 (D&S): in the Pillar of Fire's hexes a dragon is
    unaffected and saves up to three units stacked with it, chosen by its
    controller; the fourth is destroyed ('dragons' saves come with the
    dragons', rows DP-INDEP-PILLAR-4 and DP-INDEP-QUAKE-4)."""
    from .cragspider_test import cragspider_for, name, pillar, triangle
    p = Position("18.5", moon="full")
    cragspider_for(p, SARTAR)
    hexes = triangle("2012")
    given(p, LUNAR, "red_dragon", hexes[0])
    for n in ("cc_lancers#1", "cc_lancers#2", "hc_infantry#1", "hc_infantry#2"):
        p.put(n, hexes[0])
    pillar(p, hexes[0])
    name(p, hexes[1], hexes[2])
    assert p.phase == R.PH_SAVE and p.to_play == LUNAR and len(p.legal()) == 4
    for n in ("cc_lancers#1", "cc_lancers#2", "hc_infantry#1"):
        choose(p, "protects", p.name(n))
    assert p.where("red_dragon") == hexes[0]
    assert [p.where(n) for n in ("cc_lancers#1", "cc_lancers#2", "hc_infantry#1")] == [hexes[0]] * 3
    assert p.where("hc_infantry#2") == "dead"


def test_qa_dp_a_flying_dragon_stops_on_entering_a_zoc():
    """Q&A L1008-L1010: 'Must flying units stop when entering an inactive
    unit's Zone of Control? A. Yes.' The Red Dragon (MF 20, Air Rune) steps
    into the Free Warriors' ZOC and its move ends there, points left."""
    from .movement_test import moving, step as move_step
    p = Position()
    given(p, LUNAR, "red_dragon", "0404")
    p.put("fa_free_warriors#1", "0604")
    p.movement(LUNAR)
    moving(p, "red_dragon", "0404")
    move_step(p, "red_dragon", "0404", "0504")
    assert p.phase == R.PH_MOVE and p.where("red_dragon") == "0504" and p.mp("red_dragon") > 0
    assert not any("Red Dragon" in t for t in p.legal() if t.startswith("move"))


def test_rule_dp_dragonfight_a_fight_without_its_decision_is_an_unsound_record():
    """The soundness check (soundness.py::_dragon_problem): a dragonfight under
    way outside its decision, or naming a unit that is no dragon, is unsound."""
    from .scenario import GAME
    p = Position("18.5", moon="full")
    given(p, LUNAR, "red_dragon", CENTRE)
    p.put("cm_town_militia#1", step(CENTRE, 1))
    p.put("harrek", step(CENTRE, 1))
    exotic(p, LUNAR)
    assert p.phase == R.PH_DRAGONFIGHT and GAME.check_state(p.S) == ""
    p.s["dragonfight_unit"] = unit("cm_town_militia#1") + 1
    assert "not a dragon" in GAME.check_state(p.S)
    p.s["dragonfight_unit"] = unit("red_dragon") + 1
    p.s["phase"] = R.PH_EXOTIC
    assert "no dragonfight decision" in GAME.check_state(p.S)


def test_rule_dp_dragon_defends_with_its_cf_without_terrain_or_leadership():
    """L847: 'Dragons are not affected by terrain, either adversely or
    beneficially. Dragons' CFs are not subject to leadership modifiers.' On a
    river hex (not a ford) the militia's and Argrath's counter-attack is
    halved and led (L584, L640, L582); the Red Dragon's CF, 7 (the militia's 3
    and Argrath's 4), is doubled as every defender's (L584), neither halved
    nor led: 2x3 halved + 2 (Argrath's LF), Argrath 2x4 (a hero, not halved),
    the dragon 2x7 -- 5 + 8 + 14 = 27."""
    from .combat_test import LANCERS, MILITIA, declare
    p = Position("18.3")
    for u in LANCERS[:3]:
        p.put(u, "0106")
    p.put(MILITIA[0], "0107")                    # a river hex, not a ford
    p.put("argrath", "0107")                     # (4!!): LF 2
    given(p, SARTAR, "red_dragon", "0107")
    assert cf(p, "red_dragon") == 7
    p.combat(LUNAR)
    p.dice(1, 1)                                 # 12 at 1 -> 2: too little for any of them
    declare(p, ["0107"], ["0106"])
    while int(p.s["def_total"]) == 0:
        t = [x for x in p.legal() if x.endswith("is arranged") or x == "no more retreats"]
        assert t, p.legal()
        p.act(t[0])
    assert int(p.s["def_total"]) == 5 + 8 + 14


def test_rule_dp_the_wasps_sting_does_not_disrupt_a_dragon():
    """L849: 'Dragons are immune to all forms of magic, including exotic magic':
    the Wasps' sting (L690) disrupts the Full Moon Corps beside them, not the
    Lunar Red Dragon beside them; a dragon saves no one from it, the sting
    listing no D&S (as a superhero, Interpretations 37)."""
    p = Position("18.5", moon="full")
    p.put("wasps", "2012")
    p.put("full_moon_corps", "2011")
    given(p, LUNAR, "red_dragon", "2013")
    p.put("cc_lancers#1", "2013")
    exotic(p, SARTAR)
    choose(p, "Wasps", "uses its exotic magic")
    choose(p, "sting around 2012")
    assert p.disrupted("full_moon_corps") and p.disrupted("cc_lancers#1") and not p.disrupted("red_dragon")
