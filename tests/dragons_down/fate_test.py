"""The fate of heroes (L801-L838): death and the body, retirement, new
heroes, the end of the game; victory and its tie-breaks (L113-L121,
L157-L168). Positions are built by hand at the end of a battle phase
(``stage`` ST_FATE) and played on by the driver."""
import numpy as np
import pytest

from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CARD_IDS, CLASS_IDS, CW_HERO, CW_REMOVED, CW_SITE, HS_ACTIVE, HS_DEAD, HS_NONE, HS_RETIRED,
    HS_WAITING, NUM_CARDS, NUM_SITES, SB_EXPLORE, SB_LEGENDARY, SB_OPEN_REALM, ST_FATE, ST_HEROES,
    ST_OVER, T_BACKPACK,
)
from tests.dragons_down.activation_test import battle, clearing
from tests.dragons_down.setup_test import legal

DEEPDELVE_1 = clearing("deepdelve", 1)          # the Cruel Caves' Civilization Location here
WILD = clearing("secret_dens", 2)


def fated(heroes, sandbox=SB_OPEN_REALM, turn=5, max_turns=30):
    """Heroes ``(class, clearing)`` in Turn Order, at the end of the battle
    phase of ``turn``; Deepdelve 1 is a Civilization Location."""
    S = battle(["deepdelve", "secret_dens"], heroes)
    s = S[0]
    s["sandbox"] = sandbox
    s["packs"] = 0b111
    s["turn"] = turn
    s["max_turns"] = max_turns
    s["civ_clearing"][:] = -1
    s["civ_clearing"][0] = DEEPDELVE_1
    s["best"][:] = -1
    s["legend"] = -1
    s["card_where"][:] = 0                      # every card in its deck
    s["card_owner"][:] = R.CARD_DECK
    s["card_slot"][:] = -1
    for p in range(len(heroes)):
        s["hearts"][p, 0] = 4
    s["stage"] = ST_FATE
    return S


def give(S, p, kind, slot=T_BACKPACK):
    """Put a card of ``kind`` from its deck into p's possession."""
    s = S[0]
    c = next(c for c in range(NUM_CARDS) if CARD_IDS[R.CARD_KIND[c]] == kind and s["card_where"][c] == 0)
    s["card_where"][c], s["card_owner"][c], s["card_slot"][c] = CW_HERO, p, slot
    return c


def act(S, a):
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    assert a in legal(S), f"action {a} is not legal: {legal(S)}"
    assert R.apply_action(S, 0, a, mask) == R.E_OK


# ---------------------------------------------------------------- death (L801-L805)
def test_dd_fate_death_1_death_discards_half_the_fame_rounded_down():
    """L803: a killed hero discards half its Fame, rounded down (25 -> 13 left)."""
    S = fated([("knight", WILD)])
    S[0]["fame"][0] = 25
    R.kill_hero(S, 0, 0)
    assert int(S[0]["lp"][0]) == 1 and int(S[0]["fame"][0]) == 3     # 13 kept: one ten converted, 3 left


def test_dd_fate_death_2_each_ten_fame_left_buys_one_lp():
    """L803: of the remainder, each 10 Fame the hero can discard gives 1 LP."""
    S = fated([("knight", WILD)])
    S[0]["fame"][0] = 41                        # 21 left after halving: 2 LP, 1 Fame
    S[0]["lp"][0] = 3
    R.kill_hero(S, 0, 0)
    assert int(S[0]["lp"][0]) == 5 and int(S[0]["fame"][0]) == 1
    assert list(S[0]["best"][0]) == [5, 1, 0, 0, 0]


def test_dd_fate_death_3_dead_hero_is_set_aside_and_may_still_win():
    """L803: the dead hero's cards, LP and Fame are set aside; L121: "the Hero
    with the most Legend Points at game end wins (even if deceased)"."""
    S = fated([("knight", WILD), ("rogue", DEEPDELVE_1)], turn=30)
    S[0]["lp"][0] = 6
    S[0]["lp"][1] = 2
    R.kill_hero(S, 0, 0)
    assert int(S[0]["hero_state"][0]) == HS_DEAD and int(S[0]["hero_clearing"][0]) == -1
    assert int(S[0]["class_gone"]) >> CLASS_IDS.index("knight") & 1
    R.advance(S, 0)                             # the last turn's end: the game is over
    assert int(S[0]["stage"]) == ST_OVER and int(S[0]["status"]) == 1
    assert list(S[0]["rank"][:2]) == [1, 2] and list(S[0]["score"][:2]) == [6.0, 3.0]   # the rogue: 2 + living legend


def test_dd_fate_death_5_body_lies_where_the_hero_died_possessions_shuffled_with_the_gold():
    """L805: the hero's possessions, shuffled face down, lie with all its Gold
    in the clearing where it died."""
    S = fated([("knight", WILD)])
    cards = [give(S, 0, "long_sword", R.T_WEAPON1), give(S, 0, "helmet", R.T_HEAD), give(S, 0, "dagger")]
    S[0]["gold"][0] = 7
    R.kill_hero(S, 0, 0)
    body = NUM_SITES + 0
    assert int(S[0]["site_clearing"][body]) == WILD and int(S[0]["site_gold"][body]) == 7
    assert int(S[0]["gold"][0]) == 0
    assert all(int(S[0]["card_where"][c]) == CW_SITE and int(S[0]["card_owner"][c]) == body for c in cards)
    assert sorted(int(S[0]["card_slot"][c]) for c in cards) == [0, 1, 2]          # a pile, top first
    assert not S[0]["site_found"][:, body].any()


def test_dd_fate_death_7_body_finder_takes_the_gold_without_fame():
    """L805: the hero who finds the body receives all its Gold, but no LP or
    Fame; L508: it is found by a Search Action (two spyglasses)."""
    S = fated([("knight", WILD), ("rogue", WILD)])
    give(S, 0, "dagger")
    S[0]["gold"][0] = 9
    R.kill_hero(S, 0, 0)
    s = S[0]
    s["stage"] = R.ST_TURNS
    s["turn_order"][:2] = [1, 0]
    s["order_pos"] = 0
    s["actions_used"][1] = 0
    R.advance(S, 0)
    body = NUM_SITES + 0
    assert R.A_SEARCH_SITE + body in legal(S)
    from tests.dragons_down.activation_test import load
    spyglass = int(np.flatnonzero(R.SEARCH_DIE_SPYGLASS)[0])
    load(S, spyglass, spyglass)                 # two spyglasses
    act(S, R.A_SEARCH_SITE + body)
    assert int(s["site_found"][1, body]) == 1 and int(s["gold"][1]) == 9
    assert int(s["lp"][1]) == 0 and int(s["fame"][1]) == 0
    assert int(s["site_gold"][body]) == 0


def test_dd_fate_body_left_by_an_earlier_hero_is_gone_when_the_next_dies():
    """Interpretations (one body per seat): a seat's second hero dying takes
    the place of the first one's body; what was left on it leaves the game."""
    S = fated([("knight", WILD)])
    old = give(S, 0, "dagger")
    R.kill_hero(S, 0, 0)
    S[0]["hero_state"][0] = HS_ACTIVE
    S[0]["hero_clearing"][0] = DEEPDELVE_1
    new = give(S, 0, "helmet")
    R.kill_hero(S, 0, 0)
    assert int(S[0]["card_where"][old]) == CW_REMOVED and int(S[0]["card_where"][new]) == CW_SITE
    assert int(S[0]["site_clearing"][NUM_SITES]) == DEEPDELVE_1


# ---------------------------------------------------------------- retirement (L815-L825)
def test_dd_fate_retire_1_retire_only_at_a_civilization_location():
    """L817: a hero in a Civilization Location at the end of the Battle Phase
    may retire; one elsewhere is not asked."""
    S = fated([("knight", WILD), ("rogue", DEEPDELVE_1)])
    R.advance(S, 0)
    assert int(S[0]["phase"]) == R.PH_RETIRE and int(S[0]["to_play"]) == 1
    assert legal(S) == [R.A_DO + R.DO_STAY, R.A_DO + R.DO_RETIRE] or \
        sorted(legal(S)) == sorted([R.A_DO + R.DO_STAY, R.A_DO + R.DO_RETIRE])
    act(S, R.A_DO + R.DO_STAY)
    assert int(S[0]["hero_state"][1]) == HS_ACTIVE and int(S[0]["turn"]) == 6     # the next turn began


def test_dd_fate_retire_2_ten_fame_a_legend_point_rest_kept():
    """L819: each 10 Fame discarded gives 1 LP; the remaining Fame is kept as
    a tie-breaker."""
    S = fated([("rogue", DEEPDELVE_1)])
    S[0]["fame"][0] = 37
    S[0]["lp"][0] = 2
    R.advance(S, 0)
    act(S, R.A_DO + R.DO_RETIRE)
    assert list(S[0]["best"][0][:2]) == [5, 7]


def test_dd_fate_retire_3_last_turn_retirement_is_a_living_legend():
    """L820: a hero retiring on the last turn gets one LP as a living legend;
    L833-L835: at the end of the game every surviving hero retires, so all are."""
    S = fated([("rogue", DEEPDELVE_1), ("knight", DEEPDELVE_1)], turn=30)
    S[0]["fame"][0] = 12
    R.advance(S, 0)
    assert int(S[0]["stage"]) == ST_OVER
    assert list(S[0]["best"][:2, 0]) == [2, 1]      # 1 for the ten Fame + 1 living legend; 1


def test_dd_fate_retire_7_retired_hero_leaves_the_map():
    """L825: the retired hero's LP, Fame and cards are set aside and its Hero
    Chip leaves the map; its possessions go with it."""
    S = fated([("rogue", DEEPDELVE_1)])
    c = give(S, 0, "dagger")
    R.advance(S, 0)
    act(S, R.A_DO + R.DO_RETIRE)
    assert int(S[0]["card_where"][c]) == CW_REMOVED
    assert int(S[0]["class_gone"]) >> CLASS_IDS.index("rogue") & 1


# ---------------------------------------------------------------- new heroes (L827-L829)
def test_dd_fate_newhero_1_new_hero_plays_from_the_next_turn():
    """L829: a player whose hero died or retired selects another hero, who
    begins play on the following turn; the Class Card set aside is not
    available again (L803, L825)."""
    S = fated([("knight", WILD), ("rogue", DEEPDELVE_1)])
    S[0]["fame"][1] = 10
    R.kill_hero(S, 0, 0)
    R.advance(S, 0)
    act(S, R.A_DO + R.DO_RETIRE)                 # the rogue retires too
    assert int(S[0]["stage"]) == ST_HEROES and int(S[0]["phase"]) == R.PH_LINEAGE
    assert int(S[0]["to_play"]) == 0             # in Turn Order: the knight's seat first
    assert int(S[0]["hero_state"][0]) == HS_NONE and int(S[0]["lp"][0]) == 0


def test_dd_fate_newhero_2_new_hero_set_up_as_at_the_start():
    """L829: the new hero follows the set-up rules (lineage, class, either
    side, its Hearts, cubes, equipment and Gold); L198: not a class set aside."""
    S = fated([("knight", WILD)])
    R.kill_hero(S, 0, 0)
    R.advance(S, 0)
    act(S, R.A_LINEAGE + 0)
    act(S, R.A_SIDE)
    assert R.A_CLASS + CLASS_IDS.index("knight") not in legal(S)
    act(S, R.A_CLASS + CLASS_IDS.index("barbarian"))
    act(S, R.A_SIDE)
    while int(S[0]["phase"]) in (R.PH_CUBE_COLOUR, R.PH_START_SPELL):
        act(S, legal(S)[0])
    s = S[0]
    assert int(s["hero_class"][0]) == CLASS_IDS.index("barbarian") and int(s["hearts"][0, 0]) > 0
    assert int(s["gold"][0]) == int(R.CLASS_GOLD[CLASS_IDS.index("barbarian"), 0])
    assert int(s["heroes_made"][0]) == 1


def test_dd_fate_newhero_4_a_new_caster_chooses_from_the_starting_spells_set_aside():
    """L829, L805: the Knight held a Hero Starting Spell (Nature's Help) when
    he died: it went back to the box. His seat's new hero, a Druid, chooses
    his starting spells from the Hero Starting Spells set aside -- that one
    among them -- and never from the Spell deck."""
    from tests.dragons_down.setup_test import fresh_magic
    S = fated([("knight", WILD)])
    fresh_magic(S[0])
    natures = next(sp for sp in range(R.NUM_SPELLS) if R.SPELL_IDS[R.SPELL_KIND[sp]] == "natures_help"
                   and R.SPELL_FROM[sp] == R.SPELL_START)
    S[0]["spell_where"][natures], S[0]["spell_owner"][natures] = R.SPW_KNOWN, 0
    R.kill_hero(S, 0, 0)
    R.advance(S, 0)
    assert int(S[0]["phase"]) == R.PH_LINEAGE and int(S[0]["spell_where"][natures]) == R.SPW_START
    act(S, R.A_LINEAGE + 0)
    act(S, R.A_SIDE)
    act(S, R.A_CLASS + CLASS_IDS.index("druid"))
    act(S, R.A_SIDE)
    while int(S[0]["phase"]) == R.PH_CUBE_COLOUR:
        act(S, legal(S)[0])
    assert int(S[0]["phase"]) == R.PH_START_SPELL
    offered = [a - R.A_SPELL for a in legal(S)]
    assert natures in offered
    assert all(R.SPELL_FROM[sp] == R.SPELL_START and int(S[0]["spell_where"][sp]) == R.SPW_START for sp in offered)


def test_dd_fate_newhero_5_new_hero_enters_by_the_sandbox_rule():
    """L829: the new hero begins as the sandbox says: in Explore the Realm it
    is placed on a clearing of the central Civilization Tile (L133)."""
    S = fated([("knight", WILD)], sandbox=SB_EXPLORE)
    S[0]["tile_q"][R.TILE_IDS.index("deepdelve")] = 0
    R.kill_hero(S, 0, 0)
    R.advance(S, 0)
    from tests.dragons_down.actions_test import make_hero
    make_hero(S, "dwarf", "warrior")
    assert int(S[0]["hero_state"][0]) == HS_WAITING or int(S[0]["phase"]) == R.PH_ENTER_PLACE
    assert int(S[0]["phase"]) == R.PH_ENTER_PLACE


# ---------------------------------------------------------------- the end (L831-L838)
def test_dd_fate_endgame_1_survivors_retire_at_the_end():
    """L833-L835: at the end of the game all surviving heroes retire; in a
    Civilization Location normally."""
    S = fated([("rogue", DEEPDELVE_1)], turn=30)
    S[0]["fame"][0] = 20
    R.advance(S, 0)
    assert int(S[0]["hero_state"][0]) == HS_RETIRED and int(S[0]["best"][0, 0]) == 3   # 2 + living legend


def test_dd_fate_endgame_2_survivor_outside_civilization_loses_half_fame_first():
    """L836: a hero not in a Civilization Location first loses half its Fame
    (rounded down), then retires as if it were in one."""
    S = fated([("rogue", WILD)], turn=30)
    S[0]["fame"][0] = 25                        # 13 left: 1 LP and 3 Fame, + living legend
    R.advance(S, 0)
    assert list(S[0]["best"][0][:2]) == [2, 3]


def test_dd_sandbox_open_6_game_ends_after_turn_30():
    """L117: Open Realm lasts 30 turns: the end of turn 29 goes on, the end of
    turn 30 ends the game by its rules (terminated, not truncated)."""
    S = fated([("rogue", WILD), ("knight", WILD)], turn=29)
    R.advance(S, 0)
    assert int(S[0]["status"]) == 0 and int(S[0]["turn"]) == 30
    S = fated([("rogue", WILD), ("knight", WILD)], turn=30)
    R.advance(S, 0)
    assert int(S[0]["status"]) == 1 and int(S[0]["to_play"]) == -1


def test_dd_fate_max_turns_shorter_than_the_rules_truncates_as_a_draw():
    """Interpretations: ``max_turns`` below the rules' 30 turns cuts the game
    short: truncated, a draw for all seats, the LP still reported as scores."""
    S = fated([("rogue", DEEPDELVE_1), ("knight", WILD)], turn=3, max_turns=3)
    S[0]["fame"][0] = 30
    R.advance(S, 0)
    assert int(S[0]["status"]) == 2 and list(S[0]["rank"][:2]) == [1, 1]
    assert list(S[0]["rewards"][:2]) == [0.0, 0.0] and list(S[0]["score"][:2]) == [4.0, 1.0]


def test_dd_sandbox_open_7_most_legend_points_wins_dead_heroes_included():
    """L121: the most Legend Points wins; a seat counts its best hero, the
    dead one included (Interpretations)."""
    S = fated([("knight", WILD), ("rogue", DEEPDELVE_1), ("cleric", DEEPDELVE_1)], turn=30)
    S[0]["lp"][0] = 9
    R.kill_hero(S, 0, 0)                        # the knight's seat: 9 LP, dead
    S[0]["lp"][1] = 4
    S[0]["lp"][2] = 7
    R.advance(S, 0)
    assert list(S[0]["rank"][:3]) == [1, 3, 2]
    assert list(S[0]["rewards"][:3]) == [1.0, -1.0, 0.0]


def test_dd_sandbox_open_8_ties_broken_by_fame_epics_treasures_then_gold():
    """L121: ties on LP are broken by most Fame, then Epic Treasures, then
    Treasures, then Gold; equal on all, the seats share the rank."""
    epic = next(t for t in CARD_IDS if R.KIND_EPIC[CARD_IDS.index(t)])
    plain = next(t for t in CARD_IDS if R.KIND_TREASURE[CARD_IDS.index(t)] and not R.KIND_EPIC[CARD_IDS.index(t)]
                 and int((R.CARD_KIND == CARD_IDS.index(t)).sum()) >= 4)
    standings = {                               # seat: (fame, cards, gold)
        0: (5, [], 0), 1: (5, [epic], 0), 2: (5, [plain, plain], 0), 3: (5, [plain, plain], 4),
        4: (9, [], 0), 5: (5, [], 0),
    }
    S = fated([(c, WILD) for c in ("knight", "rogue", "cleric", "druid", "archer", "warrior")], turn=30)
    for p, (fame, cards, gold) in standings.items():
        S[0]["fame"][p] = fame * 2              # halved outside civilization at the end
        S[0]["gold"][p] = gold
        for k in cards:
            give(S, p, k)
    R.advance(S, 0)
    # Fame 9 first; then the epic; then two treasures with Gold, without; then the two with nothing
    assert list(S[0]["rank"][:6]) == [5, 2, 4, 3, 1, 5]


def test_dd_sandbox_legend_5_first_to_retire_with_20_legend_points_wins():
    """L166: multi-player Legendary: the first player to retire with 20 LP
    wins the game at once."""
    S = fated([("knight", WILD), ("rogue", DEEPDELVE_1)], sandbox=SB_LEGENDARY, max_turns=100)
    S[0]["lp"][0] = 25                          # more LP, but not retired
    S[0]["lp"][1] = 18
    S[0]["fame"][1] = 20
    R.advance(S, 0)
    act(S, R.A_DO + R.DO_RETIRE)
    assert int(S[0]["status"]) == 1 and list(S[0]["rank"][:2]) == [2, 1]


def test_dd_sandbox_legend_3_multiplayer_legendary_has_no_turn_limit():
    """L161: multi-player Legendary is indefinite: turn 30 passes; only
    ``max_turns`` ends it, as a truncation (no one won the race)."""
    S = fated([("knight", WILD), ("rogue", WILD)], sandbox=SB_LEGENDARY, turn=30, max_turns=100)
    R.advance(S, 0)
    assert int(S[0]["status"]) == 0 and int(S[0]["turn"]) == 31
    S = fated([("knight", WILD), ("rogue", WILD)], sandbox=SB_LEGENDARY, turn=100, max_turns=100)
    R.advance(S, 0)
    assert int(S[0]["status"]) == 2 and list(S[0]["rank"][:2]) == [1, 1]


def test_dd_sandbox_legend_4_solo_legendary_lasts_30_turns():
    """L162: solo Legendary lasts 30 turns."""
    S = fated([("rogue", WILD)], sandbox=SB_LEGENDARY, turn=30, max_turns=100)
    R.advance(S, 0)
    assert int(S[0]["status"]) == 1


def test_dd_sandbox_legend_6_solo_needs_a_20_lp_retirement_and_30_is_epic():
    """L168: solo Legendary is lost unless the hero retires with 20 LP
    before the game ends; retiring with 30 LP is an Epic victory."""
    S = fated([("rogue", WILD)], sandbox=SB_LEGENDARY, turn=30)
    S[0]["lp"][0] = 19
    R.advance(S, 0)
    assert int(S[0]["best"][0, 0]) == 20        # 19 + the living legend, but only at the end:
    assert int(S[0]["rank"][0]) == 2 and float(S[0]["rewards"][0]) == -1.0     # not "before the game ends"
    for lp, epic in ((20, 0), (30, 1)):
        S = fated([("rogue", DEEPDELVE_1)], sandbox=SB_LEGENDARY)
        S[0]["lp"][0] = lp
        R.advance(S, 0)
        act(S, R.A_DO + R.DO_RETIRE)
        assert int(S[0]["status"]) == 1 and int(S[0]["rank"][0]) == 1 and int(S[0]["epic_victory"]) == epic


@pytest.mark.parametrize("lp, epic", [(19, 0), (29, 1)])
def test_dd_sandbox_legend_6_a_hero_who_retires_on_the_last_turn_wins_and_may_win_epically(lp, epic):
    """L168, L820: on turn 30 a solo Legendary hero in a Civilization
    Location may still retire in the Fate phase: that is before the game
    ends, and the living legend's LP counts -- 19 LP retire with 20 and win,
    29 with 30 and win an Epic victory. Staying, the same hero is retired by
    the end of the game (L833) and loses with the same LP (Interpretations)."""
    S = fated([("rogue", DEEPDELVE_1)], sandbox=SB_LEGENDARY, turn=30)
    S[0]["lp"][0] = lp
    R.advance(S, 0)
    assert int(S[0]["phase"]) == R.PH_RETIRE and int(S[0]["to_play"]) == 0
    act(S, R.A_DO + R.DO_RETIRE)
    assert int(S[0]["status"]) == 1 and int(S[0]["best"][0, 0]) == lp + 1
    assert int(S[0]["rank"][0]) == 1 and float(S[0]["rewards"][0]) == 1.0 and int(S[0]["epic_victory"]) == epic
    S = fated([("rogue", DEEPDELVE_1)], sandbox=SB_LEGENDARY, turn=30)
    S[0]["lp"][0] = lp
    R.advance(S, 0)
    act(S, R.A_DO + R.DO_STAY)
    assert int(S[0]["status"]) == 1 and int(S[0]["best"][0, 0]) == lp + 1
    assert int(S[0]["rank"][0]) == 2 and int(S[0]["epic_victory"]) == 0


def test_dd_fate_solo_open_realm_is_scored_by_its_lp():
    """Solo Open Realm: the lone hero "with the most Legend Points" wins if
    it has any (Interpretations); the score is its LP, never a draw."""
    S = fated([("rogue", WILD)], turn=30)
    R.kill_hero(S, 0, 0)                         # dead with nothing: no living legend point either
    R.advance(S, 0)
    assert int(S[0]["rank"][0]) == 2 and float(S[0]["score"][0]) == 0.0 and int(S[0]["status"]) == 1
    S = fated([("rogue", DEEPDELVE_1)], turn=30)
    S[0]["lp"][0] = 2
    R.advance(S, 0)
    assert int(S[0]["rank"][0]) == 1 and float(S[0]["score"][0]) == 3.0


# ---------------------------------------------------------------- the body (L805)
def dead_knight_and_finders(*finders, cards=("long_sword", "helmet", "dagger"), gold=4):
    """The Knight (seat 0) died in Secret Dens 2 with ``cards`` and ``gold``;
    the heroes ``finders`` (classes, seats 1, 2, ...) stand there, seat 1
    about to take his actions."""
    S = fated([("knight", WILD)] + [(c, WILD) for c in finders])
    held = [give(S, 0, k) for k in cards]
    S[0]["gold"][0] = gold
    R.kill_hero(S, 0, 0)
    s = S[0]
    s["stage"] = R.ST_TURNS
    n = 1 + len(finders)
    s["turn_order"][:n] = list(range(1, n)) + [0]
    s["order_pos"] = 0
    s["actions_used"][:] = 0
    R.advance(S, 0)
    return S, held


def pile_cards(S, pile):
    """The pile's cards, top first."""
    s = S[0]
    return [c for _, c in sorted((int(s["card_slot"][c]), c) for c in range(NUM_CARDS)
                                 if s["card_where"][c] == CW_SITE and s["card_owner"][c] == pile)]


SPYGLASS = int(np.flatnonzero(R.SEARCH_DIE_SPYGLASS)[0])
LOOT_2, LOOT_3, LOOT_5 = 2, 3, 5                  # raw Loot Die faces (0 is the grabby hand)


def test_dd_fate_death_6_body_searched_and_looted_like_a_site():
    """L805: the dead hero's possessions "may be searched for and looted like
    a normal Treasure Site": a Search Action with two spyglasses finds the
    body (L511); then each Loot Action rolls the two Loot Dice and takes the
    card at the place of the highest number from the top (L528-L530) --
    here the second, then none when the pile is shorter than the roll."""
    from tests.dragons_down.activation_test import load
    S, held = dead_knight_and_finders("rogue")
    body = NUM_SITES + 0
    assert int(S[0]["phase"]) == R.PH_ACTION and int(S[0]["to_play"]) == 1
    assert R.A_DO + R.DO_LOOT not in legal(S)               # not found yet (L524)
    load(S, SPYGLASS, SPYGLASS)
    act(S, R.A_SEARCH_SITE + body)
    assert int(S[0]["site_found"][1, body]) == 1 and R.A_DO + R.DO_LOOT in legal(S)
    order = pile_cards(S, body)
    assert sorted(order) == sorted(held)
    load(S, 1, LOOT_2)                                      # 1 and 2: the second card from the top
    act(S, R.A_DO + R.DO_LOOT)
    assert int(S[0]["card_where"][order[1]]) == CW_HERO and int(S[0]["card_owner"][order[1]]) == 1
    if int(S[0]["phase"]) == R.PH_RECEIVED:
        act(S, R.A_TARGET + T_BACKPACK)
    assert pile_cards(S, body) == [order[0], order[2]]      # the others close up, in their order
    spent = int(S[0]["actions_used"][1])
    load(S, LOOT_3, LOOT_5)                                 # a 5 on a pile of two: nothing
    act(S, R.A_DO + R.DO_LOOT)
    assert pile_cards(S, body) == [order[0], order[2]] and int(S[0]["actions_used"][1]) == spent + 1


def test_dd_fate_death_8_found_body_is_had_only_by_looting():
    """L805: finding the body gives its Gold, and nothing else: "possessions
    must be looted once the body is found" -- the cards stay on the body
    until Loot Actions take them, and only a hero who found it himself may
    loot it (L524): the Cleric beside the Rogue who found it may not."""
    from tests.dragons_down.activation_test import load
    S, held = dead_knight_and_finders("rogue", "cleric")
    body = NUM_SITES + 0
    load(S, SPYGLASS, SPYGLASS)
    act(S, R.A_SEARCH_SITE + body)
    s = S[0]
    assert int(s["gold"][1]) == 4 and int(s["site_gold"][body]) == 0
    assert all(int(s["card_where"][c]) == CW_SITE and int(s["card_owner"][c]) == body for c in held)
    assert not any(s["card_where"][c] == CW_HERO and s["card_owner"][c] == 1 for c in range(NUM_CARDS))
    act(S, R.A_DO + R.DO_PASS)
    assert int(s["to_play"]) == 2 and R.A_DO + R.DO_LOOT not in legal(S)
    assert R.A_SEARCH_SITE + body in legal(S)                # he must find it himself


def test_dd_sandbox_open_8_an_epic_treasure_counts_as_an_epic_and_as_a_treasure():
    """L121: ties are broken by "most Epic Treasures, most Treasures"; L365-L366:
    an Epic Treasure is a Treasure Card with a red banner, so it counts under
    both tie-breaks (Interpretations, "An Epic Treasure in the tie-breaks").
    The Knight holds the Magical Bowl of Mixing alone: 1 Epic Treasure and 1
    Treasure; the Rogue holds the Shield of Defiance and a Warblade: 1 and 2.
    Read the other way (an Epic counted only as an Epic) they would stand at
    1 and 0, 1 and 1.

    The reading ranks no seat differently: Treasures are compared only
    between heroes with as many Epic Treasures (unequal ones decide first),
    and counting those Epics again adds the same number to both sides, so the
    Rogue's Warblade puts him ahead either way. It shows in the standing
    itself -- ``hero_standing`` and the ``best`` row set aside at the end."""
    S = fated([("knight", WILD), ("rogue", WILD)], turn=30)
    give(S, 0, "magical_bowl_of_mixing")
    give(S, 1, "shield_of_defiance")
    give(S, 1, "warblade")
    standing = np.zeros(5, dtype=np.int64)
    R.hero_standing(S, 0, 0, standing)
    assert list(standing) == [0, 0, 1, 1, 0]    # LP, Fame, Epic Treasures, Treasures, Gold
    R.hero_standing(S, 0, 1, standing)
    assert list(standing) == [0, 0, 1, 2, 0]
    R.advance(S, 0)                             # the end of turn 30: both retire, living legends
    assert int(S[0]["stage"]) == ST_OVER
    assert [list(S[0]["best"][p]) for p in range(2)] == [[1, 0, 1, 1, 0], [1, 0, 1, 2, 0]]
    assert list(S[0]["rank"][:2]) == [2, 1]     # the same ranking under either reading


# ---------------------------------------------------------------- Outlaw Tokens (L821-L824, L1109-L1126)
def outlaw_dice(S, *faces):
    """Load Monster Dice for the Outlaw rolls: True a symbol, False a blank
    (raw faces 0 and 2, data/dice.txt order)."""
    from tests.dragons_down.activation_test import load
    load(S, *(0 if f else 2 for f in faces))


def retire_outlaw(lp, fame, tokens, *faces, turn=5):
    """The rogue, in a Civilization Location with ``lp``, ``fame`` and
    ``tokens`` Outlaw Tokens, retires with the Monster Dice ``faces``
    loaded; returns the record."""
    S = fated([("rogue", DEEPDELVE_1)], turn=turn)
    s = S[0]
    s["lp"][0], s["fame"][0], s["outlaw"][0] = lp, fame, tokens
    outlaw_dice(S, *faces)
    R.advance(S, 0)
    if int(s["stage"]) != ST_OVER:
        act(S, R.A_DO + R.DO_RETIRE)
    return S


def test_dd_fate_retire_4_two_symbols_on_an_outlaws_dice_gain_a_legend_point():
    """L821-L822: the retiring Outlaw rolls two Monster Dice for his Outlaw
    Token; both show a symbol: he gains 1 LP (3 -> 4)."""
    S = retire_outlaw(3, 0, 1, True, True)
    assert int(S[0]["loaded_pos"]) == 2
    assert list(S[0]["best"][0][:2]) == [4, 0]


def test_dd_fate_retire_4_no_outlaw_token_no_roll():
    """L821: a hero with no Outlaw Token rolls nothing at retirement."""
    S = retire_outlaw(3, 0, 0, True, True)
    assert int(S[0]["loaded_pos"]) == 0 and list(S[0]["best"][0][:2]) == [3, 0]


def test_dd_fate_retire_4_an_outlaw_also_rolls_when_he_dies():
    """L244, L1666-L1671 (Interpretations, "Outlaw rolls at death"): the
    killed Outlaw rolls for his token too, after his Fame is halved and
    converted: 2 LP and two symbols make 3."""
    S = fated([("knight", WILD)])
    S[0]["lp"][0], S[0]["outlaw"][0] = 2, 1
    outlaw_dice(S, True, True)
    R.kill_hero(S, 0, 0)
    assert int(S[0]["loaded_pos"]) == 2 and int(S[0]["best"][0, 0]) == 3


def test_dd_fate_retire_5_one_symbol_loses_a_legend_point():
    """L823: one symbol and one blank: the Outlaw loses 1 LP (3 -> 2); his
    Fame is untouched."""
    S = retire_outlaw(3, 7, 1, True, False)
    assert list(S[0]["best"][0][:2]) == [2, 7]


def test_dd_fate_retire_5_with_no_legend_point_the_remaining_fame_is_lost():
    """L823: one symbol, and the Outlaw has no LP to lose: all his remaining
    Fame is lost (7 -> 0)."""
    S = retire_outlaw(0, 7, 1, False, True)
    assert list(S[0]["best"][0][:2]) == [0, 0]


def test_dd_fate_retire_5_outlaw_rolls_come_after_the_fame_and_the_living_legend():
    """L819-L823 (Interpretations, "Order of retirement"): the Fame is
    converted first (15 Fame: 1 LP and 5 left), so one symbol takes that LP
    and leaves the 5 Fame; on the last turn the living legend's LP comes
    first too: with no LP and 5 Fame, one symbol takes the living legend's
    LP, not the Fame."""
    S = retire_outlaw(0, 15, 1, True, False)
    assert list(S[0]["best"][0][:2]) == [0, 5]
    S = retire_outlaw(0, 5, 1, True, False, turn=30)
    assert int(S[0]["stage"]) == ST_OVER and list(S[0]["best"][0][:2]) == [0, 5]


def test_dd_fate_retire_6_two_blanks_change_nothing():
    """L824: two blanks: nothing happens (3 LP and 7 Fame stay)."""
    S = retire_outlaw(3, 7, 1, False, False)
    assert int(S[0]["loaded_pos"]) == 2 and list(S[0]["best"][0][:2]) == [3, 7]


def test_dd_outlaw_1_any_number_of_outlaw_tokens_each_rolls():
    """L1111: there is no limit to the Outlaw Tokens a hero holds; L821:
    two Monster Dice are rolled for each: three tokens, six dice -- two
    symbols (+1), a symbol and a blank (-1), two symbols (+1): 5 -> 6 LP."""
    S = retire_outlaw(5, 0, 3, True, True, True, False, True, True)
    assert int(S[0]["loaded_pos"]) == 6 and list(S[0]["best"][0][:2]) == [6, 0]


def test_dd_outlaw_1_a_new_hero_starts_with_no_outlaw_token():
    """L1111 with L829: the Outlaw Tokens are the hero's: when he dies, the
    new hero his player chooses is no Outlaw."""
    S = fated([("knight", WILD)])
    S[0]["outlaw"][0] = 2
    outlaw_dice(S, False, False, False, False)
    R.kill_hero(S, 0, 0)
    R.advance(S, 0)
    assert int(S[0]["phase"]) == R.PH_LINEAGE and int(S[0]["outlaw"][0]) == 0
