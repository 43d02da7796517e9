"""The Dragonhunt heuristic that does not fall to the hero rush (issue 30,
``dragonhunt.heuristic``) against the first one (``dragonhunt.heuristic_v1``):
the decisions that differ, in positions built by the rules' scenario helper,
and legal play of both. Player 0 holds Sunken, player 1 Ironcrag."""
import numpy as np
import pytest

from dragongym.agents import make_agent, play_match
from dragongym.agents.dragonhunt_heuristic import DragonhuntHeuristic
from dragongym.agents.dragonhunt_heuristic2 import DragonhuntHeuristicV2
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt import view as V
from dragongym.envs.dragonhunt.constants import HERO, KNIGHT, MAN_AT_ARMS
from dragongym.envs.dragonhunt.game import GAME
from tests.dragonhunt.scenario import Scenario, cell, step

MOUNTAIN = "0904"        # Brimstone on a mountain: no terrain for him (9.71), far from both homes
N, NE, SE, S, SW, NW = range(1, 7)


def decide(bot_class, sc, seat=0, seed=0):
    return bot_class(GAME).act_state(GAME, sc.S, seat, np.random.default_rng(seed))


def dragon_attack_segment(dragon=MOUNTAIN, enraged=False):
    """Player 0's hero and one man-at-arms stand next to Brimstone; player 0
    skips movement and combat and comes to his Dragon Attack segment."""
    sc = Scenario(num_players=2, kingdoms=("Sunken", "Ironcrag"))
    sc.no_beings()
    sc.dragon(dragon, enraged=enraged)
    hero = sc.put(0, HERO, step(dragon, N))
    sc.put(0, MAN_AT_ARMS, step(dragon, S))
    sc.start_player_round(order=[0, 1])
    sc.act("done")
    sc.act("done")
    assert (sc.phase, sc.to_play) == (R.PH_DRAGON_FORCE, 0)
    return sc, hero


def test_the_swordless_hero_strikes_brimstone_alone_where_version_1_sends_a_man_at_arms():
    sc, hero = dragon_attack_segment()
    assert decide(DragonhuntHeuristicV2, sc) == step(MOUNTAIN, N)           # the hero (strength 5)
    assert decide(DragonhuntHeuristic, sc) == step(MOUNTAIN, S)             # the man-at-arms (1)
    wounds = V.wounds(sc.S)[0]
    sc.load_dice(6, 6)                   # 5 + 12: a wound on any table (the hero attacks alone, 9.81)
    sc.act(decide(DragonhuntHeuristicV2, sc))
    assert V.wounds(sc.S)[0] == wounds + 1


@pytest.mark.parametrize("where", ["lair", "enraged"])
def test_the_hero_waits_when_brimstone_is_in_his_lair_or_enraged(where):
    lair = V.cell_name(V.LAIR_CELL)
    sc, hero = dragon_attack_segment(dragon=lair if where == "lair" else MOUNTAIN, enraged=where == "enraged")
    near = step(lair if where == "lair" else MOUNTAIN, S)
    assert decide(DragonhuntHeuristicV2, sc) == near      # -2 on the roll: the man-at-arms goes instead


def movement_segment(extra=()):
    """Player 0's swordless hero stands alone on a field space four spaces
    from Brimstone, a man-at-arms on another; player 0 moves first, on 9."""
    sc = Scenario(num_players=2, kingdoms=("Sunken", "Ironcrag"))
    sc.no_beings()
    sc.dragon(MOUNTAIN)
    hero = sc.put(0, HERO, step(MOUNTAIN, S, 4))
    for unit_type, where in extra:
        sc.put(0, unit_type, where)
    sc.start_player_round(order=[0, 1])
    assert (sc.phase, sc.to_play) == (R.PH_MOVE_SELECT, 0)
    return sc, hero


def test_the_hunting_hero_moves_first_and_ends_next_to_brimstone():
    far = step(MOUNTAIN, SW, 5)
    sc, hero = movement_segment(extra=[(MAN_AT_ARMS, far)])
    start = sc.loc(hero)
    assert decide(DragonhuntHeuristicV2, sc) == start
    # version 1 keeps a swordless hero where he is: it moves the man-at-arms
    assert decide(DragonhuntHeuristic, sc) == cell(far)
    sc.act(start)
    assert sc.phase == R.PH_MOVE_DEST and int(sc.s["sel_unit"]) == hero
    sc.act(decide(DragonhuntHeuristicV2, sc))
    assert V.distance(sc.loc(hero), V.dragon_cell(sc.S)) == 1


def test_no_unit_is_moved_onto_a_space_another_of_ours_holds():
    # a man-at-arms already next to Brimstone; a second one two spaces away comes up
    beside, behind = step(MOUNTAIN, S), step(MOUNTAIN, S, 2)
    sc = Scenario(num_players=2, kingdoms=("Sunken", "Ironcrag"))
    sc.no_beings()
    sc.dragon(MOUNTAIN)
    sc.put(0, MAN_AT_ARMS, beside)
    mover = sc.put(0, MAN_AT_ARMS, behind)
    sc.start_player_round(order=[0, 1])
    sc.act(behind)
    assert sc.phase == R.PH_MOVE_DEST and int(sc.s["sel_unit"]) == mover
    assert beside in V.legal_actions(sc.S)
    # version 1 prefers the space its man already holds: both would be removed (9.14)
    assert decide(DragonhuntHeuristic, sc) == beside
    dest = decide(DragonhuntHeuristicV2, sc)
    assert dest != beside and V.distance(dest, V.dragon_cell(sc.S)) == 1


def test_cards_high_to_reach_brimstone_low_to_strike_first():
    sc, hero = movement_segment()
    sc.s["stage"] = R.ST_OVER
    sc.start_card_segment()
    assert (sc.phase, sc.to_play) == (R.PH_CARD, 0)
    played = GAME.action_to_string(sc.S, decide(DragonhuntHeuristicV2, sc))
    assert played == f"play card {max(V.CARD_VALUES)}"       # the hero is four spaces away
    R.set_loc(sc.S, 0, hero, step(MOUNTAIN, S))                 # now next to him
    played = GAME.action_to_string(sc.S, decide(DragonhuntHeuristicV2, sc))
    assert played == f"play card {min(V.CARD_VALUES)}"


def test_both_versions_are_registered_and_play_each_other_legally():
    assert type(make_agent("dragonhunt.heuristic_v1", game=GAME)) is DragonhuntHeuristic
    assert type(make_agent("dragonhunt.heuristic", game=GAME)) is DragonhuntHeuristicV2
    assert DragonhuntHeuristic.name == "dragonhunt.heuristic_v1" and DragonhuntHeuristicV2.name == "dragonhunt.heuristic"
    result = play_match("dragonhunt", ["dragonhunt.heuristic", "dragonhunt.heuristic_v1"], num_games=2, seed=3,
                        max_hands=1)
    assert [s.games for s in result.stats] == [2, 2]
    assert all(s.decisions > 0 for s in result.stats)


def test_the_memory_of_a_movement_segment_is_per_game():
    sc, hero = movement_segment(extra=[(KNIGHT, step(MOUNTAIN, SW, 5))])
    bot = DragonhuntHeuristicV2(GAME)
    rng = np.random.default_rng(0)
    first = bot.act_state(GAME, sc.S, 0, rng)
    again = bot.act_state(GAME, sc.S, 0, rng)
    assert again != first                    # the space tried this segment is not tried twice
    bot.reset()
    assert bot.act_state(GAME, sc.S, 0, np.random.default_rng(0)) == first


def test_a_knight_wielding_the_sword_leaves_the_castle_first():
    # the hero is dead and a knight took up the sword in the castle (13.21), beside another knight
    sc = Scenario(num_players=2, kingdoms=("Sunken", "Ironcrag"))
    sc.no_beings()
    sc.dragon(MOUNTAIN)
    castle = V.home_castle(sc.S, 0)
    wielder, other = sc.put(0, KNIGHT, castle, n=2)
    sc.kill(V.hero(sc.S, 0))
    sc.s["wounds"][0] = 3
    sc.s["sword_holder"][0] = wielder
    sc.start_player_round(order=[0, 1], cards=[12, 9])
    assert decide(DragonhuntHeuristicV2, sc) == castle
    sc.act(castle)
    assert sc.phase == R.PH_MOVE_TYPE and R.A_WIELDER in V.legal_actions(sc.S)
    assert decide(DragonhuntHeuristicV2, sc) == R.A_WIELDER
    # version 1 moves "a knight" (not the wielder) out, if anyone
    assert decide(DragonhuntHeuristic, sc) != R.A_WIELDER
    sc.act(R.A_WIELDER)
    sc.act(decide(DragonhuntHeuristicV2, sc))
    assert V.distance(sc.loc(wielder), V.dragon_cell(sc.S)) < V.distance(castle, V.dragon_cell(sc.S))
