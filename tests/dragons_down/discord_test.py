"""Discord (L1596): cast at two Monsters, it takes effect only if both are
hit in the same Combat Round; their attacks of that round are canceled, and
from the next round they challenge and attack each other, the caster
earning the Fame of their kills, until one dies at a round's end or the
combat ends. A Human Sorcerer in Tri Peaks 1 (``combat_test``) against a
Giant Spider and a Goblin."""
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import MON_TAKEN
from dragongym.envs.dragons_down.rules import combat as C
from tests.dragons_down.combat_test import BLANK, HIT, TRI_PEAKS_1, chip, load
from tests.dragons_down.spells_test import in_combat, wizard


def cast_discord(speed):
    """The Sorcerer's Discord aimed at the spider, then the goblin, cast at
    attack ``speed``: (S, card, spider, goblin)."""
    S, sp = wizard("discord", {"yellow": 5}, monsters=(("giant_spider", TRI_PEAKS_1), ("goblin", TRI_PEAKS_1)))
    spider, goblin = chip(S, "giant_spider"), chip(S, "goblin")
    in_combat(S)
    s = S[0]
    s["hero_target"][0] = spider
    s["more_targets"][0, 0] = goblin
    s["placed"][0, R.BOX_ATTACK] = speed
    s["foe_target"][spider] = s["foe_target"][goblin] = 0
    s["cast_card"][0], s["cast_stage"][0] = sp, R.CAST_PLACED
    R.cast_spell(S, 0, 0)
    return S, sp, spider, goblin


def test_dd_spell_discord_1_both_hit_cancels_their_attacks_and_sets_them_on_each_other():
    """L1596: cast at speed 5, above both maneuvers: both are hit, their
    attacks this round canceled; next round neither challenges the Sorcerer,
    each may strike only the other."""
    S, sp, spider, goblin = cast_discord(5)
    s = S[0]
    assert int(s["spell_on"][sp]) == spider and int(s["spell_mark"][sp]) == goblin
    assert R.discord_foe(S, 0, spider) == goblin and R.discord_foe(S, 0, goblin) == spider
    assert not C.foe_can_strike(S, 0, spider) and not C.foe_can_strike(S, 0, goblin)
    C.new_round(S, 0)
    C.challenge_step(S, 0)
    assert int(s["foe_target"][spider]) == -1 and int(s["foe_target"][goblin]) == -1
    assert C.foe_can_strike(S, 0, spider) and C.foe_can_strike(S, 0, goblin)
    assert C.foe_victims(S, 0, spider) == 0, "no hero is attacked"


def test_discord_takes_effect_only_if_both_monsters_are_hit():
    """L1596: "must hit two Monsters in the same Combat Round": at speed 0
    the spider is hit (two hit faces), the goblin missed (a blank): nothing
    comes of it, the spider's attack stands."""
    S, sp = wizard("discord", {"yellow": 5}, monsters=(("giant_spider", TRI_PEAKS_1), ("goblin", TRI_PEAKS_1)))
    spider, goblin = chip(S, "giant_spider"), chip(S, "goblin")
    in_combat(S)
    s = S[0]
    s["hero_target"][0], s["more_targets"][0, 0] = spider, goblin
    s["placed"][0, R.BOX_ATTACK] = 0
    s["foe_target"][spider] = 0
    s["cast_card"][0], s["cast_stage"][0] = sp, R.CAST_PLACED
    load(S, HIT, HIT, BLANK, BLANK)
    R.cast_spell(S, 0, 0)
    assert int(s["spell_on"][sp]) == -1 and R.discord_foe(S, 0, spider) == -1
    assert not int(s["foe_flags"][spider]) & C.FF_ATTACKED


def test_dd_spell_discord_2_their_kill_earns_the_caster_its_fame_and_ends_the_spell_at_the_round_end():
    """L1596: the goblin's hit (two hit faces) on the spider deals its red
    cube's damage plus its swords (one less on armour); killing it, the Sorcerer earns the
    spider's Fame (the caster does not control them: nothing else); at the
    round's end the Discord expires."""
    S, sp, spider, goblin = cast_discord(5)
    s = S[0]
    C.new_round(S, 0)
    C.challenge_step(S, 0)
    side = int(s["mon_flipped"][goblin])
    damage = int(R.attack_damage(S, 0, int(R.FOE_SIDE[goblin, side, R.SD_DAMAGE]),
                                 int(R.FOE_SIDE[goblin, side, R.SD_SWORDS]), R.foe_armored(S, 0, spider)))
    assert damage >= 1
    s["foe_wounds"][spider] = max(int(R.FOE_HEALTH[spider]) - damage, 0)    # this hit kills it
    fame = int(s["fame"][0])
    load(S, HIT, HIT)
    R.discord_strike(S, 0, goblin)
    assert int(s["mon_clearing"][spider]) == MON_TAKEN and int(s["mon_taker"][spider]) == 0
    assert int(s["fame"][0]) == fame + int(R.FOE_FAME[spider]) and int(s["outlaw"][0]) == 0
    assert int(s["spell_on"][sp]) == -1, "its spider died: the spell on it ended"
    S, sp, spider, goblin = cast_discord(5)
    S[0]["mon_clearing"][goblin] = MON_TAKEN                 # the other one killed (by anyone)
    assert int(S[0]["spell_on"][sp]) == spider
    R.discord_ends(S, 0)
    assert int(S[0]["spell_on"][sp]) == -1
