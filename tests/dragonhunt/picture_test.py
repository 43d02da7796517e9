"""Dragonhunt's picture (``envs/dragonhunt/picture.py``): size, every kind of
counter drawn where it stands, the pending decision highlighted, hidden
information, clickable shapes exactly the legal actions, SVG, and the cached
board layer."""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from dragongym.envs.core import picture as core_picture
from dragongym.envs.core.picture import PALETTE, render_svg
from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import picture as P
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import (
    BEING_NAMES, HERO, KNIGHT, MAN_AT_ARMS, NUM_BEINGS, SNIPER,
)
from dragongym.envs.dragonhunt.game import GAME, Dragonhunt
from dragongym.envs.dragonhunt.state import F_HARRIED, F_WOUNDED
from tests.conformance.play import random_play
from tests.dragonhunt.scenario import Scenario, cell

FIELD = "0705"          # an open space next to nothing in particular


def positions(num_players, seed, steps=700, every=23, cards_wanted=2):
    """Copies of every ``every``-th position of a random game, plus the first
    ``cards_wanted`` positions of the card segment where a card lies face down
    (the one secret of the game)."""
    out, cards = [], []
    config = GAME.make_config(num_players=num_players)
    for i, (state, _) in enumerate(random_play(GAME, config, seed, max_steps=steps)):
        if i % every == 0:
            out.append(state.copy())
        if int(state[0]["stage"]) == R.ST_CARDS and int(state[0]["cards_laid"]) > 0 and len(cards) < cards_wanted:
            cards.append(state.copy())
    return out + cards


def bare(num_players=3, markers=False):
    """A position with the board cleared: no units, no beings, Brimstone in his
    lair, nobody to play; the being control markers with the first and last
    seats if ``markers``, else nowhere (a picture-only position: the rules
    always place them)."""
    sc = Scenario(num_players=num_players, kingdoms=("Sunken", "Ironcrag", "Elderwood")[:num_players])
    sc.no_beings()
    if not markers:
        sc.s["choice_player"] = -1
        sc.s["second_player"] = -1
    return sc


def around(image, where, r=30):
    """The pixels of ``image`` within ``r`` of the centre of space ``where``'s hex."""
    x, y = (int(round(v)) for v in P.CENTRE[cell(where)])
    return image[y - r:y + r, x - r:x + r]


def picture(sc):
    return GAME.render_rgb(sc.S)


# ------------------------------------------------------------------ size
def test_the_picture_is_an_rgb_image_whose_sides_are_multiples_of_16():
    sc = bare()
    image = picture(sc)
    assert image.dtype == np.uint8 and image.shape == (P.HEIGHT, P.WIDTH, 3)
    assert P.WIDTH % 16 == 0 and P.HEIGHT % 16 == 0 and 900 <= P.WIDTH <= 1600
    assert GAME.has_pictures


def test_the_board_fits_left_of_the_panel_and_inside_the_picture():
    xs = [x for c in P.CORNERS for x, _ in c]
    ys = [y for c in P.CORNERS for _, y in c]
    assert min(xs) >= 0 and max(xs) < P.PANEL_X - 6 and min(ys) >= 0 and max(ys) < P.HEIGHT


# ------------------------------------------------------------------ counters
UNIT_TYPES = {"hero": HERO, "sniper": SNIPER, "knight": KNIGHT, "man-at-arms": MAN_AT_ARMS}


def test_each_unit_type_is_a_counter_of_its_own_on_its_space():
    empty = around(picture(bare()), FIELD)
    seen = []
    for unit_type in UNIT_TYPES.values():
        sc = bare()
        sc.put(0, unit_type, FIELD)
        here = around(picture(sc), FIELD)
        assert not np.array_equal(here, empty)
        assert all(not np.array_equal(here, other) for other in seen), "two unit types look alike"
        seen.append(here)


def test_a_counter_is_drawn_in_its_owners_colour_and_a_garrison_in_neither():
    looks = []
    for colour in (0, 1, 4):                  # two players and a colour no player holds (3.2)
        sc = bare()
        sc.put(colour, KNIGHT, FIELD)
        looks.append(around(picture(sc), FIELD))
    red = np.array([int(PALETTE["seats"][0][i:i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)
    assert (looks[0] == red).all(axis=2).sum() > 200
    assert not np.array_equal(looks[0], looks[1]) and not np.array_equal(looks[0], looks[2])
    assert not (looks[2] == red).all(axis=2).any()


def test_a_stack_shows_how_many_units_it_holds():
    one, three = bare(), bare()
    one.put(0, KNIGHT, "Sunken Castle")
    three.put(0, KNIGHT, "Sunken Castle", n=3)
    assert not np.array_equal(around(picture(one), "Sunken Castle"), around(picture(three), "Sunken Castle"))
    assert [(c, k) for (c, *_), k in P._unit_groups(three.s, 3)] == [(cell("Sunken Castle"), 3)]


@pytest.mark.parametrize("mark", ["wounded", "harried", "wields the magesword", "carries magic defense"])
def test_a_units_state_is_marked_on_its_counter(mark):
    plain, marked = bare(), bare()
    plain.put(0, KNIGHT, FIELD)
    u = marked.put(0, KNIGHT, FIELD, flags={"wounded": F_WOUNDED, "harried": F_HARRIED}.get(mark, 0))
    if mark == "wields the magesword":
        marked.s["sword_holder"][0] = u
    if mark == "carries magic defense":
        marked.s["md_holder"][0] = u
        marked.s["md_carried"][0] = 2
    assert not np.array_equal(around(picture(plain), FIELD), around(picture(marked), FIELD))


def test_brimstone_is_drawn_where_he_is_and_enraged_or_asleep_look_different():
    lair = around(picture(bare()), FIELD)
    looks = []
    for enraged, asleep in ((False, False), (True, False), (False, True)):
        sc = bare()
        sc.dragon(FIELD, enraged=enraged)
        if asleep:
            sc.s["asleep_until"] = 3
        looks.append(around(picture(sc), FIELD))
        assert not np.array_equal(looks[-1], lair)
    assert not np.array_equal(looks[0], looks[1]) and not np.array_equal(looks[0], looks[2])


def test_every_fantastic_being_has_a_counter_of_its_own():
    empty = around(picture(bare()), FIELD)
    seen = []
    for k in range(NUM_BEINGS):
        sc = bare()
        sc.being(0, k, FIELD)
        here = around(picture(sc), FIELD)
        assert not np.array_equal(here, empty), BEING_NAMES[k]
        assert all(not np.array_equal(here, other) for other in seen), f"{BEING_NAMES[k]} looks like another"
        seen.append(here)


@pytest.mark.parametrize("marker", ["magesword lying", "magic defense in the cottage", "flame",
                                    "being choice marker", "second being marker"])
def test_every_marker_is_drawn_on_its_space(marker):
    sc = bare()
    where = {"magesword lying": FIELD, "being choice marker": "Sunken Castle",
             "second being marker": "Sunken Castle"}.get(marker, "Sunken Cottage")
    before = around(picture(sc), where)
    if marker == "magesword lying":
        sc.s["sword_loc"][0] = cell(FIELD)
    elif marker == "magic defense in the cottage":
        sc.s["md_cottage"][0] = 2
    elif marker == "flame":
        sc.s["flamed"][D.KINGDOM_NAMES.index("Sunken")] = 1
    else:
        sc.s["choice_player" if marker == "being choice marker" else "second_player"] = 0
    assert not np.array_equal(around(picture(sc), where), before)


def test_a_chosen_kingdom_is_ringed_in_its_players_colour():
    sc = bare()
    image = picture(sc)
    blue = np.array([int(PALETTE["seats"][1][i:i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)
    assert (around(image, "Ironcrag Cottage", 40) == blue).all(axis=2).sum() > 100
    assert not (around(image, "Elderwood Cottage", 40) == blue).all(axis=2).any()


# ------------------------------------------------------------------ the pending decision
def colour_count(image, colour):
    rgb = np.array([int(colour[i:i + 2], 16) for i in (1, 3, 5)], dtype=np.uint8)
    return int((image == rgb).all(axis=2).sum())


def moving_knight():
    """Player_0's knight on FIELD, player_1's on another space; player_0 to move."""
    sc = bare(2, markers=True)
    sc.put(0, KNIGHT, FIELD)
    sc.put(1, KNIGHT, "0310")
    sc.start_player_round(order=[0, 1])
    assert sc.phase == R.PH_MOVE_SELECT and sc.to_play == 0
    return sc


def test_the_units_that_may_move_are_highlighted_and_the_selected_one_and_its_destinations_after():
    sc = moving_knight()
    image = picture(sc)
    assert colour_count(around(image, FIELD, 40), PALETTE["highlight"]) > 100
    assert colour_count(around(image, "0310", 40), PALETTE["highlight"]) == 0
    sc.act(f"select unit at {FIELD}")
    assert sc.phase == R.PH_MOVE_DEST
    image = picture(sc)
    assert colour_count(around(image, FIELD, 40), PALETTE["select"]) > 100
    dest = int(D.STEP[cell(FIELD), 4])
    assert colour_count(around(image, dest, 40), PALETTE["highlight"]) > 100


def test_the_decision_is_in_words_and_buttons_are_labelled():
    sc = moving_knight()
    scene = P.position_scene(sc.S, None)
    texts = [op[2] for op in scene.ops if op[0] == "text"]
    assert "player_0 to play" in texts and "end movement" in texts
    assert any("choose a unit to move" in t for t in texts)
    sc.act(f"select unit at {FIELD}")
    words = P.decision_words(sc.s)
    assert "knight" in words and FIELD in words and "movement points left" in words


def test_dice_are_buttons_while_a_die_picks_brimstones_direction():
    sc = bare(2, markers=True)
    sc.load_dice(2, 5)
    sc.start_brimstone_round(first=0)
    assert sc.phase == R.PH_DRAGON_DIE
    scene = P.position_scene(sc.S, sc.to_play)
    legal = set(np.flatnonzero(GAME.mask_of(sc.S)).tolist())
    assert set(scene.clickable()) == legal == {R.A_DIE0, R.A_DIE1}
    texts = {op[2] for op in scene.ops if op[0] == "text"}
    assert {"2", "5", "NE", "SW"} <= texts


def test_a_finished_game_says_how_it_ended_and_offers_nothing_to_click():
    config = GAME.make_config(num_players=2, max_hands=1)
    *_, (state, mask) = random_play(GAME, config, 8)
    assert int(state[0]["status"]) == 2 and not mask.any()
    texts = [op[2] for op in P.position_scene(state, None).ops if op[0] == "text"]
    assert "truncated after 1 hand: a draw" in texts and P.position_scene(state, None).clickable() == {}
    slain = state.copy()
    slain[0]["status"], slain[0]["winner"], slain[0]["to_play"] = 1, 1, -1
    texts = [op[2] for op in P.position_scene(slain, 0).ops if op[0] == "text"]
    assert "Brimstone is slain by player_1 -- player_1 wins" in texts
    assert GAME.render_rgb(slain).shape == (P.HEIGHT, P.WIDTH, 3)


# ------------------------------------------------------------------ hidden information
def test_a_seats_picture_is_the_same_for_every_position_it_cannot_tell_apart():
    """The position layer's display list is compared for every sampled
    position (the board layer is one for all, so equal lists are equal
    pictures), and the rendered bytes for the card segments, where the
    game's one secret lies, and the first position of each game."""
    checked_cards = 0
    for n, seed in ((3, 21), (6, 22)):
        sample = positions(n, seed, steps=500, every=60)
        for i, state in enumerate(sample):
            secret = int(state[0]["stage"]) == R.ST_CARDS
            checked_cards += secret
            for seat in range(n):
                variants = GAME.hidden_variants(state, seat, np.random.default_rng(seat))
                first = P.position_scene(variants[0], seat).ops
                assert all(P.position_scene(v, seat).ops == first for v in variants[1:])
                if secret or i == 0:
                    image = GAME.render_rgb(variants[0], seat).tobytes()
                    assert all(GAME.render_rgb(v, seat).tobytes() == image for v in variants[1:])
    assert checked_cards >= 4


def test_the_full_picture_shows_the_face_down_card_a_seat_may_not_see():
    state = next(s for s in positions(3, 23) if int(s[0]["stage"]) == R.ST_CARDS)
    laid = [p for p in range(3) if int(state[0]["card_played"][p]) >= 0]
    other = next(p for p in range(3) if p not in laid)
    assert not np.array_equal(GAME.render_rgb(state, None), GAME.render_rgb(state, other))
    assert np.array_equal(GAME.render_rgb(state, laid[0])[:, :P.PANEL_X - 6],
                          GAME.render_rgb(state, None)[:, :P.PANEL_X - 6])     # the board hides nothing
    texts = [op[2] for op in P.position_scene(state, other).ops if op[0] == "text"]
    assert any("laid a card face down" in t for t in texts)


# ------------------------------------------------------------------ clickable choices
@pytest.mark.parametrize("options", GAME.test_configs(), ids=lambda o: f"{o['num_players']}p")
def test_the_clickable_shapes_are_exactly_the_legal_actions_of_the_seat_to_play(options):
    n = options["num_players"]
    config = GAME.make_config(**options)
    phases = set()
    for i, (state, mask) in enumerate(random_play(GAME, config, 30 + n, max_steps=600)):
        if i % 7 or int(state[0]["status"]) != 0:
            continue
        legal = set(np.flatnonzero(mask).tolist())
        to_play = int(state[0]["to_play"])
        phases.add(int(state[0]["phase"]))
        for seat in (None, to_play):
            scene = P.position_scene(state, seat)
            assert set(scene.clickable()) == legal
            for op in scene.ops:
                if op[0] == "polygon" and op[5]:
                    (a,) = op[5]
                    assert a < R.NC, "only spaces are drawn on the board"
                    x = np.mean([pt[0] for pt in op[1]])
                    y = np.mean([pt[1] for pt in op[1]])
                    hexes = P.SPACE_HEXES[int(D.SPACE[a])]
                    assert min(np.hypot(*(P.CENTRE[c] - (x, y))) for c in hexes) < 1.0
        for seat in range(n):
            if seat != to_play:
                assert P.position_scene(state, seat).clickable() == {}
    assert len(phases) >= 5


# ------------------------------------------------------------------ svg and the board layer
def test_the_svg_picture_parses_and_carries_the_legal_actions():
    sc = moving_knight()
    root = ET.fromstring(render_svg(GAME, sc.S, 0))
    acts = {int(a) for el in root.iter() for a in el.get("data-actions", "").split()}
    assert acts == set(np.flatnonzero(GAME.mask_of(sc.S)).tolist())
    assert int(root.get("width")) == P.WIDTH and int(root.get("height")) == P.HEIGHT


def test_the_board_layer_is_drawn_once_for_many_frames(monkeypatch):
    monkeypatch.setattr(core_picture, "_BOARDS", {})
    calls = []
    original = Dragonhunt.picture_board

    def counted(self, state):
        calls.append(1)
        return original(self, state)

    monkeypatch.setattr(Dragonhunt, "picture_board", counted)
    sc = moving_knight()
    first = GAME.render_rgb(sc.S)
    sc.act(f"select unit at {FIELD}")
    second = GAME.render_rgb(sc.S)
    assert len(calls) == 1 and not np.array_equal(first, second)


def test_the_wielder_is_never_merged_with_the_other_knights_of_his_space():
    sc = bare()
    knights = sc.put(0, KNIGHT, "Sunken Castle", n=3)
    sc.s["sword_holder"][0] = knights[1]
    groups = P._unit_groups(sc.s, 3)
    assert sorted((k, key[5]) for key, k in groups) == [(1, True), (2, False)]
