"""The picture contract (``envs/core/picture.py``), for every game that draws.

At positions of a random game:

* the picture is an ``H x W x 3`` uint8 image the size of the board layer,
  and its SVG form is well-formed XML;
* for the seat to play (and for the full position) the clickable shapes offer
  exactly the legal actions, each of them; for any other seat, nothing;
* a seat's picture is byte-identical across ``hidden_variants`` of the
  position for that seat: nothing it may not know is drawn.
"""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from dragongym.envs.core.picture import board_layer, render_rgb, render_svg
from tests.conformance.play import random_play

POSITIONS = 6
"""Positions of one random game checked per case (spread over its course)."""


def sample_positions(case, seed=0, count=POSITIONS):
    """``count`` copies of positions of one random game of ``case``, spread
    over its first 600 decisions, the last one where the game stopped."""
    game = case.game
    states = [s.copy() for s, _ in random_play(game, case.config, seed, max_steps=600)]
    picks = np.linspace(0, len(states) - 1, count).round().astype(int)
    return [states[k] for k in sorted(set(picks))]


@pytest.fixture
def drawn_case(case):
    if not case.game.has_pictures:
        pytest.skip(f"{case.name} draws no pictures (a toy game that tests the adapters without them)")
    return case


def test_pictures_are_images_of_the_board_size(drawn_case):
    game = drawn_case.game
    for state in sample_positions(drawn_case):
        board, _ = board_layer(game, state)
        for seat in (None, *range(int(state[0]["num_players"]))):
            image = render_rgb(game, state, seat)
            assert image.dtype == np.uint8 and image.shape == (board.height, board.width, 3)
            assert board.width % 16 == 0 and board.height % 16 == 0, "video encoders need multiples of 16"
        ET.fromstring(render_svg(game, state, None))


def test_clickable_shapes_offer_exactly_the_legal_actions(drawn_case):
    game = drawn_case.game
    for state in sample_positions(drawn_case, seed=1):
        legal = {int(a) for a in np.flatnonzero(game.mask_of(state))}
        to_play = int(state[0]["to_play"])
        for seat in (None, *range(int(state[0]["num_players"]))):
            offered = set(game.picture_position(state, seat).clickable())
            if seat is None or seat == to_play:
                assert offered == legal, (f"seat {seat}: clickable {sorted(offered - legal)[:8]} not legal, "
                                          f"legal {sorted(legal - offered)[:8]} not clickable")
            else:
                assert not offered, f"seat {seat} is not to play but the picture offers {sorted(offered)[:8]}"


def test_a_seats_picture_shows_nothing_hidden_from_it(drawn_case):
    game = drawn_case.game
    if not drawn_case.spec.hidden_information:
        pytest.skip(f"{drawn_case} hides nothing")
    rng = np.random.default_rng(7)
    for state in sample_positions(drawn_case, seed=2, count=4):
        for seat in range(min(int(state[0]["num_players"]), 3)):
            seen = render_rgb(game, state, seat).tobytes()
            for variant in game.hidden_variants(state, seat, rng, count=3):
                assert render_rgb(game, variant, seat).tobytes() == seen, (
                    f"seat {seat}'s picture changes with what it cannot know")


def test_a_seats_text_picture_shows_nothing_hidden_from_it(case):
    """``render_ansi(state, seat)`` -- what ``dragongym play`` shows a person
    -- is the same text across the position's hidden variants for that seat."""
    game = case.game
    if not case.spec.hidden_information:
        pytest.skip(f"{case} hides nothing")
    rng = np.random.default_rng(11)
    for state in sample_positions(case, seed=3, count=4):
        for seat in range(min(int(state[0]["num_players"]), 3)):
            seen = game.render_ansi(state, seat)
            for variant in game.hidden_variants(state, seat, rng, count=3):
                assert game.render_ansi(variant, seat) == seen, f"seat {seat}'s text changes with what it cannot know"


def test_a_finished_games_picture_and_text_draw_its_result(case):
    """The last position of a random game played to its end (the test
    configuration's truncation keeps it short): every seat's text and scene,
    and the full picture, render it, with nothing left to click. (A random
    game mostly ends truncated, a draw; a decided one is each game's own test,
    such as ``tests/dragon_pass/picture_test.py``'s winner of 18.1.)"""
    game = case.game
    *_, (state, mask) = random_play(game, case.config, seed=5)
    assert int(state[0]["status"]) != 0 and not mask.any()
    for seat in (None, *range(int(state[0]["num_players"]))):
        assert game.render_ansi(state, seat)
        if game.has_pictures:             # the scene is what fails; one raster of it is enough
            assert not game.picture_position(state, seat).clickable()
    if game.has_pictures:
        board, _ = board_layer(game, state)
        assert render_rgb(game, state, None).shape == (board.height, board.width, 3)
