"""Dragons Down's face to the adapters (``game.py``): options, the spec and
its layouts, action names, the soundness check, what an observation shows
and hides, and the hidden-information variants."""
import numpy as np
import pytest

import dragongym
from dragongym.envs.core.config import ConfigError
from dragongym.envs.dragons_down import observe as O
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down import soundness
from dragongym.envs.dragons_down import view as V
from dragongym.envs.dragons_down.constants import (
    CLEARINGS_PER_TILE, CW_DECK, CW_HERO, DECK_ITEM, NUM_CARDS, NUM_CLEARINGS, SANDBOXES, T_BACKPACK,
    TW_PLACED,
)
from dragongym.envs.dragons_down.game import GAME, action_blocks
from dragongym.envs.dragons_down.state import STATE_DTYPE


def new_game(seed=1, **options):
    config = GAME.make_config(**options)
    states = GAME.new_states(1)
    GAME.reset(states, np.array([seed], dtype=np.uint64), config)
    return states


def step(states, action):
    errors = np.zeros(1, dtype=np.int8)
    GAME.step(states, np.array([action], dtype=np.int32), errors)
    assert errors[0] == 0, GAME.error_message(errors[0])


def play(states, decisions, rng):
    """Random legal decisions; yields every position reached (the live record)."""
    for _ in range(decisions):
        yield states
        if int(states[0]["status"]) != 0:
            return
        step(states, int(rng.choice(np.flatnonzero(GAME.mask_of(states)))))


def act(states, text):
    step(states, GAME.string_to_action(states, text))


def to_the_first_turn(states, rng):
    """Random decisions until the action phase of the first turn."""
    for _ in range(500):
        if int(states[0]["phase"]) == R.PH_ACTION:
            return states
        step(states, int(rng.choice(np.flatnonzero(GAME.mask_of(states)))))
    raise AssertionError("no action phase reached")


# ------------------------------------------------------------------ options
def test_the_options_make_the_configuration_they_name():
    env = dragongym.make("dragons_down", num_heroes=3, sandbox="explore_the_realm",
                         terrain_packs=("cruel_caves", "wicked_woods"), max_turns=12)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    config = env.config
    assert (config.num_players, config.sandbox, config.terrain_packs, config.max_turns) == \
        (3, "explore_the_realm", ("cruel_caves", "wicked_woods"), 12)
    env.reset(seed=0)
    rec = env.state_record[0]
    assert int(rec["packs"]) == 0b101 and int(rec["max_turns"]) == 12 and int(rec["num_players"]) == 3
    assert GAME.make_config(num_heroes=2) == GAME.make_config(num_players=2)
    assert GAME.default_config().terrain_packs == ("cruel_caves", "malevolent_mountains", "wicked_woods")
    assert GAME.default_config().max_turns == 30


@pytest.mark.parametrize("options, words", [
    ({"num_heroes": 7}, ["num_heroes", "7", "1..6"]),
    ({"num_players": 0}, ["num_players", "1..6"]),
    ({"num_heroes": 2, "num_players": 3}, ["num_heroes", "num_players"]),
    ({"sandbox": "scenario_1"}, ["sandbox", "open_realm", "legendary"]),
    ({"terrain_packs": ()}, ["terrain_packs", "at least one"]),
    ({"terrain_packs": ("cruel_caves", "icy_isles")}, ["terrain_packs", "icy_isles"]),
    ({"legendary_map": "legendary"}, ["legendary_map", "explore_the_realm"]),
    ({"random_heroes": "yes"}, ["random_heroes"]),
    ({"max_turns": 0}, ["max_turns", "1..1000"]),
])
def test_a_bad_option_is_refused_by_name(options, words):
    with pytest.raises(ConfigError) as err:
        GAME.make_config(**options)
    for w in words:
        assert w in str(err.value)


def test_random_heroes_are_dealt_not_chosen():
    """L198 with the ``random_heroes`` option: no seat is asked for a
    Lineage, Class, side or cube colour; every hero is made, with distinct
    Classes, and the same seed deals the same heroes."""
    from dragongym.envs.dragons_down.constants import HS_WAITING
    config = GAME.make_config(num_players=6, random_heroes=True, sandbox="explore_the_realm")   # heroes at once
    made = []
    for _ in range(2):
        states = GAME.new_states(3)
        GAME.reset(states, np.array([5, 6, 7], dtype=np.uint64), config)
        made.append(states.tobytes())
        for rec in states:
            assert int(rec["phase"]) not in (R.PH_LINEAGE, R.PH_LINEAGE_SIDE, R.PH_CLASS, R.PH_CLASS_SIDE,
                                             R.PH_CUBE_COLOUR, R.PH_START_SPELL)
            classes = [int(c) for c in rec["hero_class"][:6]]
            assert min(classes) >= 0 and len(set(classes)) == 6
            assert all(int(h) == HS_WAITING for h in rec["hero_state"][:6]) or int(rec["stage"]) > R.ST_HEROES
    assert made[0] == made[1]


# ------------------------------------------------------------------ the spec
def test_the_spec_describes_the_spaces_from_the_rules_sizes():
    spec = GAME.spec_for(GAME.make_config(num_players=4))
    assert spec.num_actions == R.NUM_ACTIONS and spec.obs_size == O.OBS_SIZE
    assert spec.roles == ("player_0", "player_1", "player_2", "player_3")
    assert spec.utility == "zero_sum" and spec.score_name == "legend points"
    assert GAME.spec_for(GAME.make_config(num_players=1)).utility == "solo"
    realm, paths = spec.obs_layout["realm"], spec.obs_layout["paths"]
    assert realm.kind == "graph" and realm.shape[0] == NUM_CLEARINGS and realm.neighbours == "paths"
    assert paths.kind == "neighbours" and paths.shape == (NUM_CLEARINGS, O.MAX_DEGREE)
    for name in ("heroes", "tiles", "foes", "cards", "piles", "merchants"):
        assert spec.obs_layout[name].kind == "entities"
    blocks = action_blocks()
    assert blocks[0][1] == 0 and sum(size for _, _, size in blocks) == R.NUM_ACTIONS
    assert spec.action_layout["clearing"].offset == R.A_CLEARING
    assert spec.action_layout["clearing"].indexes == "realm"
    assert spec.turn_limit == 30 and spec.turn_unit == "turns"


def test_every_field_of_the_record_has_a_range_in_soundness():
    """A field a part adds must be given the values it keeps
    (``soundness.FIELD_RANGES``), so restore_state can refuse a corrupt one."""
    missing = [name for name in STATE_DTYPE.names if name not in soundness.FIELD_RANGES]
    assert not missing, f"add these fields to soundness.FIELD_RANGES: {missing}"


def test_the_bit_fields_ranges_hold_every_bit_the_rules_set():
    """A bit field's range admits every bit its part sets: the treasures'
    combat effects all at once (the Potion of Energy, the Horn, the Time Stone,
    the Band; a 30-turn fuzz found the range admitting the first alone), and
    every commerce step taken (Take Missions among them)."""
    states = new_game(3)
    states[0]["treasure_combat"][0] = R.TC_ENERGY | R.TC_HORN | R.TC_TIME_STONE | R.TC_BAND_USED
    states[0]["trade_steps"] = R.DONE_LOOK | R.DONE_SELL | R.DONE_REPAIR | R.DONE_BUY | R.DONE_MISSIONS
    assert GAME.check_state(states) == ""


# ------------------------------------------------------------------ random play through the Game contract
CONFIGS = [dict(num_players=n, sandbox=sb, max_turns=3) for sb in SANDBOXES for n in (1, 3)] + \
    [dict(num_players=2, sandbox="open_realm", terrain_packs=("malevolent_mountains",), max_turns=3)]


@pytest.mark.parametrize("options", CONFIGS, ids=[f"{o['sandbox']}-{o['num_players']}" for o in CONFIGS])
def test_random_play_is_sound_named_observed_and_hides_what_it_must(options):
    rng = np.random.default_rng(7)
    n = options["num_players"]
    for seed in (1, 2):
        states = new_game(seed, **options)
        for t, states in enumerate(play(states, 400, rng)):
            assert GAME.check_state(states) == "", f"decision {t}: {GAME.check_state(states)}"
            mask = GAME.mask_of(states)
            legal = np.flatnonzero(mask)
            names = [GAME.action_to_string(states, a) for a in legal]
            assert len(set(names)) == len(names), names
            assert all(GAME.string_to_action(states, text) == a for a, text in zip(legal, names))
            assert GAME.render_ansi(states).strip()
            if t % 5:
                continue
            for seat in range(n):
                seen = GAME.observation_of(states, seat)
                assert np.isfinite(seen).all()
                assert seen.min() >= -1 and seen.max() <= max(GAME.obs_bounds[1], O.OBS_HIGH)
                for v in GAME.hidden_variants(states, seat, rng, 2):
                    assert GAME.check_state(v) == ""
                    assert np.array_equal(GAME.observation_of(v, seat), seen)
                    if int(states[0]["to_play"]) == seat and int(states[0]["status"]) == 0:
                        assert np.array_equal(GAME.mask_of(v), mask)


def test_an_action_outside_the_position_is_named_with_why():
    states = new_game(3, num_players=2)
    assert GAME.action_to_string(states, -1) == "action -1 (no such action)"
    assert GAME.action_to_string(states, R.NUM_ACTIONS) == f"action {R.NUM_ACTIONS} (no such action)"
    text = GAME.action_to_string(states, R.A_DO + R.DO_PASS)
    assert text.startswith("pass (not legal now")
    with pytest.raises(ValueError):
        GAME.string_to_action(states, "fly to the moon")


def test_the_set_up_decisions_read_like_the_rulebook():
    """Open Realm: a seat picks a dealt tile, its spot beside the map and its
    side and turn (L109); then Lineage, side, Class, side (L198)."""
    rng = np.random.default_rng(0)
    states = new_game(4, num_players=2, sandbox="open_realm")
    names = [GAME.action_to_string(states, a) for a in np.flatnonzero(GAME.mask_of(states))]
    assert all(t.startswith("place tile ") for t in names)
    act(states, names[0])
    names = [GAME.action_to_string(states, a) for a in np.flatnonzero(GAME.mask_of(states))]
    assert all(t.startswith("side ") and ", turn " in t for t in names)     # the first tile is the origin
    act(states, names[0])
    names = [GAME.action_to_string(states, a) for a in np.flatnonzero(GAME.mask_of(states))]
    act(states, names[0])
    names = [GAME.action_to_string(states, a) for a in np.flatnonzero(GAME.mask_of(states))]
    assert all(t.startswith("place ") and " at " in t and " of " in t for t in names), names
    while int(states[0]["phase"]) != R.PH_LINEAGE:
        step(states, int(rng.choice(np.flatnonzero(GAME.mask_of(states)))))
    assert sorted(GAME.action_to_string(states, a) for a in np.flatnonzero(GAME.mask_of(states))) == \
        ["lineage Dwarf", "lineage Elf", "lineage Halfling", "lineage Human"]
    act(states, "lineage Dwarf")
    assert sorted(GAME.action_to_string(states, a) for a in np.flatnonzero(GAME.mask_of(states))) == \
        ["Dwarf side 1", "Dwarf side 2"]


def test_moves_name_the_clearing_by_tile_number_and_type():
    rng = np.random.default_rng(1)
    states = to_the_first_turn(new_game(5, num_players=1, sandbox="open_realm"), rng)
    names = [GAME.action_to_string(states, a) for a in np.flatnonzero(GAME.mask_of(states))]
    entering = [t for t in names if t.startswith("enter the map at ")]
    assert entering and all(t.endswith(")") for t in entering)      # "enter the map at Deepdelve 2 (cave)"
    act(states, entering[0])
    names = [GAME.action_to_string(states, a) for a in np.flatnonzero(GAME.mask_of(states))]
    assert "pass" in names or int(states[0]["phase"]) != R.PH_ACTION


# ------------------------------------------------------------------ the soundness check
def _first_turn_state():
    return to_the_first_turn(new_game(6, num_players=2, sandbox="explore_the_realm"), np.random.default_rng(2))


@pytest.mark.parametrize("what, corrupt", [
    ("hero_clearing", lambda r: r["hero_clearing"].__setitem__(0, NUM_CLEARINGS + 3)),
    ("a clearing of no placed tile", lambda r: r["mon_clearing"].__setitem__(0, 17 * CLEARINGS_PER_TILE)),
    ("phase", lambda r: r.__setitem__("phase", 0)),
    ("hearts", lambda r: r["hearts"].__setitem__((0, 0), r["hearts"][0, 0] + 1)),
    ("Action Cubes", lambda r: r["cubes"].__setitem__((1, 0, 0), r["cubes"][1, 0, 0] + 1)),
    ("seat not in play", lambda r: r["gold"].__setitem__(4, 3)),
    ("tile stack", lambda r: r.__setitem__("stack_len", int(r["stack_len"]) - 1)),
    ("share the position", lambda r: _two_tiles_on_one_spot(r)),
    ("card", lambda r: _card_to_a_bad_slot(r)),
])
def test_check_state_names_the_first_broken_invariant(what, corrupt):
    states = _first_turn_state()
    assert GAME.check_state(states) == ""
    bad = states.copy()
    corrupt(bad[0])
    problem = GAME.check_state(bad)
    assert problem, f"a record with a bad {what} passed"


def _two_tiles_on_one_spot(r):
    stacked = [t for t in range(len(r["tile_where"])) if r["tile_where"][t] != TW_PLACED and r["tile_where"][t]]
    t = stacked[0]
    r["tile_where"][t] = TW_PLACED
    r["tile_q"][t] = 0
    r["tile_r"][t] = 0
    r["tiles_placed"] += 1


def _card_to_a_bad_slot(r):
    c = next(c for c in range(NUM_CARDS) if r["card_where"][c] == CW_DECK and R.CARD_DECK[c] == DECK_ITEM)
    r["card_where"][c] = CW_HERO
    r["card_owner"][c] = 0
    r["card_slot"][c] = 30


# ------------------------------------------------------------------ what the observation shows and hides
def test_another_heros_backpack_card_is_hidden_and_an_equipped_one_shown():
    states = _first_turn_state()
    rec = states[0]
    deck = [c for c in range(NUM_CARDS) if rec["card_where"][c] == CW_DECK and R.CARD_DECK[c] == DECK_ITEM
            and not O.KIND_FACE_UP[R.CARD_KIND[c]]]
    a, b = deck[0], next(c for c in deck if R.CARD_KIND[c] != R.CARD_KIND[deck[0]])
    one, other = states.copy(), states.copy()
    for s, c in ((one, a), (other, b)):
        s[0]["card_where"][c] = CW_HERO
        s[0]["card_owner"][c] = 1
        s[0]["card_slot"][c] = T_BACKPACK
    assert GAME.check_state(one) == "" and GAME.check_state(other) == ""
    assert np.array_equal(GAME.observation_of(one, 0), GAME.observation_of(other, 0))
    assert not np.array_equal(GAME.observation_of(one, 1), GAME.observation_of(other, 1))
    assert V.card_seen(one, a, 1) and not V.card_seen(one, a, 0)


def test_the_paths_block_holds_a_hidden_path_only_for_the_seat_that_found_it():
    states = to_the_first_turn(new_game(6, num_players=2, sandbox="open_realm"), np.random.default_rng(2))
    rec = states[0]
    t = next(t for t in range(len(rec["tile_where"])) if rec["tile_where"][t] == TW_PLACED
             and R.HIDDEN[t, int(rec["tile_side"][t]), 0, 0] >= 0)
    side = int(rec["tile_side"][t])
    a, z = (int(x) for x in R.HIDDEN[t, side, 0])
    ca, cz = t * CLEARINGS_PER_TILE + a, t * CLEARINGS_PER_TILE + z
    found = states.copy()
    found[0]["hidden_found"][0, (t * 2 + side) * R.HIDDEN.shape[2]] = 1

    def neighbours(s, seat, c):
        o = GAME.observation_of(s, seat)
        off = O.LAYOUT["paths"][0] + c * O.MAX_DEGREE
        return {int(x) for x in o[off:off + O.MAX_DEGREE] if x >= 0}
    assert cz in neighbours(found, 0, ca) and ca in neighbours(found, 0, cz)
    assert cz not in neighbours(found, 1, ca) and cz not in neighbours(states, 0, ca)
    assert neighbours(found, 0, ca) == set(V.neighbours(found, ca, seat=0))
    assert neighbours(found, 1, ca) == set(V.neighbours(found, ca))


def test_the_observation_is_the_observers_rotated_view():
    states = _first_turn_state()
    for seat in range(2):
        o = GAME.observation_of(states, seat)
        off = O.LAYOUT["heroes"][0]
        heroes = o[off:off + 2 * O.NUM_HERO_FEATURES].reshape(2, O.NUM_HERO_FEATURES)
        assert heroes[0, O.H_VALID] == 1 and heroes[1, O.H_VALID] == 1
        mine = int(states[0]["hero_class"][seat])
        assert heroes[0, O.H_CLASS + mine] == 1
        to_play = int(states[0]["to_play"])
        assert o[O.LAYOUT["to_play"][0] + (to_play - seat) % 2] == 1


def test_the_compiled_entry_points_run():
    points = GAME.compiled_entry_points()
    assert [name for name, _ in points] == ["reset", "step", "legal_mask", "observe", "vec_step",
                                            "vec_step threads", "vec_observe threads", "check_state", "seeds",
                                            "heuristic's rules checks"]
    for _, run in points:
        run()


def test_a_card_gained_during_an_action_waits_for_the_actions_own_decisions():
    """L972 with L1103: a looted Cursed Treasure's Teleport curse puts the hero
    on a new tile whose tokens give him cards; they wait at T_PENDING while
    the loot asks him to place the card received in the treasure's stead, and
    are equipped or stowed once the Loot Action is over. The soundness check
    accepts that position (it refused it once, stopping a training run that
    restored it from a heuristic game's record), and still refuses a gained
    card left waiting for a hero who is not taking his turn, or for the
    acting hero once he is asked for his next action."""
    import json
    from pathlib import Path
    from dragongym.envs.dragons_down.constants import T_PENDING
    saved = json.loads((Path(__file__).parent / "positions" / "teleported_while_looting.json").read_text())
    states = GAME.new_states(1)
    GAME.reset(states, np.array([saved["reset_seed"]], dtype=np.uint64), GAME.config_from_json(saved["config"]))
    err = np.zeros(1, dtype=np.int8)
    for seat, action in saved["decisions (seat, action)"]:
        assert int(states[0]["to_play"]) == seat
        GAME.step(states, np.array([action], dtype=np.int32), err)
        assert not err[0]
    r = states[0]
    pending = [c for c in range(NUM_CARDS) if r["card_where"][c] == CW_HERO and r["card_slot"][c] == T_PENDING]
    acting = int(r["turn_order"][int(r["order_pos"])])
    assert int(r["phase"]) == R.PH_RECEIVED and int(r["to_play"]) == acting == 1 and len(pending) == 2
    assert GAME.check_state(states) == ""
    # the loot's card placed, the gained ones are asked for at once (PH_GAINED), before any next action
    GAME.step(states, np.array([int(np.flatnonzero(GAME.mask_of(states))[0])], dtype=np.int32), err)
    assert not err[0] and int(states[0]["phase"]) == R.PH_GAINED and int(states[0]["to_play"]) == 1
    stranded = states.copy()
    stranded[0]["card_owner"][pending[0]] = 0                   # waiting for a hero not taking his turn
    assert "waits to be equipped or stowed" in GAME.check_state(stranded)
    asked_on = states.copy()
    asked_on[0]["phase"] = R.PH_ACTION                          # the acting hero asked on, the card forgotten
    assert "waits to be equipped or stowed" in GAME.check_state(asked_on)
