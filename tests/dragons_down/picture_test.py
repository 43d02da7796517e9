"""Dragons Down's picture (``envs/dragons_down/picture.py``): size, every kind
of piece drawn where it stands, the realm's tiles and the places a tile may
go, hidden information (face-down cards, Hidden Paths, secret Hero Tactics),
clickable shapes exactly the legal actions, SVG, and the cached board layer."""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from dragongym.envs.core import picture as core_picture
from dragongym.envs.core.picture import render_svg
from dragongym.envs.dragons_down import picture as P
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down import view as V
from dragongym.envs.dragons_down.constants import (
    CLEARINGS_PER_TILE, CW_HERO, MAX_HIDDEN_PER_SIDE, NUM_CARDS, T_BACKPACK, TW_PLACED,
)
from dragongym.envs.dragons_down.game import GAME, DragonsDown
from tests.conformance.play import random_play


def position(seed, steps, **options):
    """A copy of the position after ``steps`` random decisions (or where the
    game ended first)."""
    state = None
    for state, _ in random_play(GAME, GAME.make_config(**options), seed, max_steps=steps):
        pass
    return state.copy()


def first_position(seed, budget, wanted, **options):
    """A copy of the first position of a random game for which ``wanted(state)`` holds."""
    for state, _ in random_play(GAME, GAME.make_config(**options), seed, max_steps=budget):
        if wanted(state):
            return state.copy()
    raise AssertionError(f"no such position in {budget} decisions of seed {seed}")


def spread(seed, steps, count, **options):
    """``count`` copies of positions spread over a random game's first ``steps`` decisions."""
    states = [s.copy() for s, _ in random_play(GAME, GAME.make_config(**options), seed, max_steps=steps)]
    return [states[k] for k in sorted(set(np.linspace(0, len(states) - 1, count).round().astype(int)))]


def legal(state):
    return {int(a) for a in np.flatnonzero(GAME.mask_of(state))}


def board_pixels(state):
    """The board layer's raster of ``state``, as an array."""
    return np.asarray(core_picture.board_layer(GAME, state)[1])


def at(image, x, y, r=3):
    return image[int(y) - r:int(y) + r + 1, int(x) - r:int(x) + r + 1]


MID_GAME = dict(seed=5, steps=200, num_players=3, sandbox="open_realm")
"""A position of turn 3: 18 tiles, a combat, a dead hero's body, Natives and Merchants."""


# ------------------------------------------------------------------ size
def test_the_picture_is_an_rgb_image_whose_sides_are_multiples_of_16():
    state = position(**MID_GAME)
    image = GAME.render_rgb(state)
    assert image.dtype == np.uint8 and image.shape == (P.HEIGHT, P.WIDTH, 3)
    assert P.WIDTH % 16 == 0 and P.HEIGHT % 16 == 0 and 900 <= P.WIDTH <= 1600
    assert GAME.has_pictures
    assert image.shape == GAME.render_rgb(state, 1).shape


def test_every_placed_tile_and_clearing_lies_on_the_map_left_of_the_panel():
    for options in ({"num_players": 2, "sandbox": "open_realm"}, {"num_players": 4, "sandbox": "explore_the_realm"}):
        state = position(3, 400, **options)
        geo = P.realm_geometry(P.board_key(state))
        placed = V.placed_tiles(state)
        assert sorted(geo.tile_centre) == placed
        assert sorted(geo.clearing_xy) == sorted(V.clearings(state))
        for t in placed:
            for x, y in geo.hexagon(*geo.tile_centre[t]):
                assert 0 <= x <= P.MAP_WIDTH and 0 <= y <= P.HEIGHT
        for cx, cy in geo.spots.values():
            assert 0 <= cx <= P.MAP_WIDTH and 0 <= cy <= P.HEIGHT


def test_clearings_of_a_tile_do_not_overlap_and_sit_inside_it():
    for t in range(len(R.CLEARING_TYPE)):
        for side in (0, 1):
            spots = [p for p in P.local_layout(t, side) if p is not None]
            assert len(spots) == int((R.CLEARING_TYPE[t, side] >= 0).sum())
            for i, (x, y) in enumerate(spots):
                assert np.hypot(x, y) < 0.7
                for x2, y2 in spots[i + 1:]:
                    assert np.hypot(x - x2, y - y2) > 0.5, f"tile {t} side {side}: two clearings too close"


# ------------------------------------------------------------------ pieces
def test_every_kind_of_piece_is_drawn_where_it_stands():
    state = position(**MID_GAME)
    rec = state[0]
    image = GAME.render_rgb(state)
    board = board_pixels(state)
    geo = P.realm_geometry(P.board_key(state))
    pieces = P._pieces(rec)
    drawn = set()
    for c, items in pieces.items():
        x, y = geo.clearing_xy[c]
        for piece, (px, py) in zip(items, P._around(x, y, geo.clearing_r, geo.glyph, geo.outward[c], len(items))):
            assert not np.array_equal(at(image, px, py), at(board, px, py)), f"{piece} at clearing {c} not drawn"
            drawn.add(piece[0])
    assert {"hero", "monster", "native", "site", "body", "merchant"} <= drawn
    civ = int(rec["civ_clearing"][0])
    x, y = geo.clearing_xy[civ]
    corner = geo.clearing_r + 5
    assert not np.array_equal(at(image, x + corner, y + corner, 2), at(board, x + corner, y + corner, 2)), \
        "the Civilization Location's plate is missing"


def test_the_pieces_counted_are_the_records():
    state = position(**MID_GAME)
    rec = state[0]
    pieces = P._pieces(rec)
    heroes = sorted(p for items in pieces.values() for piece in items if piece[0] == "hero" for p in [piece[1]])
    assert heroes == sorted(p for p in range(3) if V.hero(rec, p)["state"] == "on the map")
    chips = sorted(m for items in pieces.values() for piece in items if piece[0] == "monster" for m in piece[3])
    assert chips == [m for m in range(len(rec["mon_clearing"])) if int(rec["mon_clearing"][m]) >= 0]
    for c, items in pieces.items():
        for piece in items:
            if piece[0] == "monster":
                assert all(int(rec["mon_clearing"][m]) == c for m in piece[3])


def test_a_revealed_gate_is_drawn():
    state = first_position(1, 1500, lambda s: any(int(s[0]["wild_where"][w]) == 1 and R.WILD_GATE[w]
                                                 for w in range(len(s[0]["wild_where"]))),
                           num_players=2, sandbox="open_realm")
    pieces = P._pieces(state[0])
    gates = [c for c, items in pieces.items() for piece in items if piece[0] == "gate"]
    assert gates and all("Gate" in V.tokens_at(state, c) for c in gates)


def test_the_combat_clearing_is_ringed_and_its_foes_listed():
    state = position(**MID_GAME)
    rec = state[0]
    assert int(rec["combat_step"]) > 0
    c = int(rec["combat_clearing"])
    geo = P.realm_geometry(P.board_key(state))
    scene = P.position_scene(state, None)
    x, y = geo.clearing_xy[c]
    rings = [op for op in scene.ops if op[0] == "circle" and op[3] == P.COMBAT_COLOUR]
    assert rings and rings[0][1][:2] == (x, y)
    texts = " ".join(op[2] for op in scene.ops if op[0] == "text")
    assert f"Combat at {V.clearing_name(rec, c)}" in texts
    foes = [m for m in range(len(rec["mon_clearing"])) if int(rec["mon_clearing"][m]) == c]
    assert foes and all(f"#{m} (" in texts for m in foes)


# ------------------------------------------------------------------ the realm as it grows
def test_the_places_a_tile_may_go_are_clickable_and_the_board_follows_the_realm():
    state = first_position(1, 50, lambda s: int(s[0]["phase"]) == R.PH_TILE_SPOT and int(s[0]["tiles_placed"]) >= 2,
                           num_players=2, sandbox="open_realm")
    key = P.board_key(state)
    before = board_pixels(state)
    assert key[1], "the realm still grows during the build"
    scene = P.position_scene(state, int(state[0]["to_play"]))
    spots = [op for op in scene.ops if op[0] == "polygon" and op[5]]
    assert spots and {a for op in spots for a in op[5]} == legal(state)
    assert all(R.A_SPOT <= a < R.A_TURN for op in spots for a in op[5])
    errors = np.zeros(1, dtype=np.int8)
    while int(state[0]["tiles_placed"]) == len(key[0]):
        GAME.step(state, np.array([min(legal(state))], dtype=np.int32), errors)
        assert errors[0] == 0
    new_key = P.board_key(state)
    assert len(new_key[0]) == len(key[0]) + 1 and new_key != key
    t, q, r, _, _ = next(tile for tile in new_key[0] if tile[0] not in {u for u, *_ in key[0]})
    ground = np.array([0xe9, 0xe4, 0xd6], dtype=np.uint8)

    def bare_ground(image, x, y):
        return float((at(image, x, y, 25) == ground).all(axis=2).mean())

    assert bare_ground(before, *P.realm_geometry(key).spots[(q, r)]) > 0.5, "the spot was empty"
    assert bare_ground(board_pixels(state), *P.realm_geometry(new_key).tile_centre[t]) == 0.0, "the tile is drawn"


def test_exploring_offers_the_empty_positions_beside_the_heros_tile():
    state = first_position(1, 100, lambda s: any(R.A_EXPLORE <= a < R.A_EXPLORE + 6 for a in legal(s)),
                           num_players=2, sandbox="explore_the_realm")
    geo = P.realm_geometry(P.board_key(state))
    scene = P.position_scene(state, int(state[0]["to_play"]))
    explore = {a for a in legal(state) if R.A_EXPLORE <= a < R.A_EXPLORE + 6}
    shapes = [op for op in scene.ops if op[0] == "polygon" and set(op[5]) & explore]
    assert {a for op in shapes for a in op[5]} == explore
    c = V.hero_clearing(state, int(state[0]["to_play"]))
    t = c // CLEARINGS_PER_TILE
    for op in shapes:
        (a,) = op[5]
        d = a - R.A_EXPLORE
        cell = (int(state[0]["tile_q"][t]) + int(R.DIR_DQ[d]), int(state[0]["tile_r"][t]) + int(R.DIR_DR[d]))
        cx = np.mean([x for x, _ in op[1]])
        assert abs(cx - geo.spots[cell][0]) < 1


# ------------------------------------------------------------------ hidden information
def hidden_card_position():
    """A position where some hero keeps a face-down card in its backpack."""
    def wanted(s):
        r = s[0]
        return any(int(r["card_where"][c]) == CW_HERO and int(r["card_slot"][c]) == T_BACKPACK
                   for c in range(NUM_CARDS)) and int(r["stage"]) >= R.ST_TURNS
    return first_position(2, 600, wanted, num_players=3, sandbox="explore_the_realm")


def test_a_seats_picture_is_the_same_whatever_it_cannot_know():
    rng = np.random.default_rng(3)
    states = spread(4, 500, 4, num_players=3, sandbox="open_realm") + [hidden_card_position()]
    for state in states:
        for seat in range(int(state[0]["num_players"])):
            seen = GAME.render_rgb(state, seat).tobytes()
            for variant in GAME.hidden_variants(state, seat, rng, count=3):
                assert GAME.render_rgb(variant, seat).tobytes() == seen


def test_the_full_picture_names_the_face_down_cards_a_seat_does_not_see():
    state = hidden_card_position()
    rec = state[0]
    owner, card = next((int(rec["card_owner"][c]), c) for c in range(NUM_CARDS)
                       if int(rec["card_where"][c]) == CW_HERO and int(rec["card_slot"][c]) == T_BACKPACK)
    other = (owner + 1) % int(rec["num_players"])
    assert not V.card_seen(rec, card, other)
    full = " ".join(op[2] for op in P.position_scene(state, None).ops if op[0] == "text")
    seen = " ".join(op[2] for op in P.position_scene(state, other).ops if op[0] == "text")
    assert "face down" in seen and V.card_name(card) in full
    assert not np.array_equal(GAME.render_rgb(state), GAME.render_rgb(state, other))


def test_a_hidden_path_is_drawn_for_the_seat_that_found_it():
    state = position(**MID_GAME)
    rec = state[0]
    t = V.placed_tiles(state)[0]
    side = int(rec["tile_side"][t])
    h = 0
    rec["hidden_found"][0, (t * 2 + side) * MAX_HIDDEN_PER_SIDE + h] = 1
    geo = P.realm_geometry(P.board_key(state))
    line = geo.hidden[(t, h)]
    drawn = tuple((float(x), float(y)) for x, y in line)

    def dashed_lines(seat):
        return [op[1] for op in P.position_scene(state, seat).ops if op[0] == "line" and op[4]]

    assert drawn in dashed_lines(0) and drawn in dashed_lines(None)
    assert drawn not in dashed_lines(1)


def test_hero_tactics_placed_in_secret_show_only_to_their_hero():
    def wanted(s):
        r = s[0]
        fighting = [p for p in range(3) if int(r["hero_combat"][p]) == 1]
        return int(r["combat_step"]) == R.CS_TACTICS and len(fighting) >= 2 and \
            any(r["placed"][p].sum() for p in fighting)
    state = first_position(5, 300, wanted, num_players=3, sandbox="open_realm")
    rec = state[0]
    p = next(p for p in range(3) if rec["placed"][p].sum())
    other = next(q for q in range(3) if q != p and int(rec["hero_combat"][q]) == 1)

    def tactics_line(seat):
        return next(op[2] for op in P.position_scene(state, seat).ops
                    if op[0] == "text" and op[2].startswith(f"player_{p}: "))

    assert "in secret" in tactics_line(other)
    assert "in secret" not in tactics_line(p) and "in secret" not in tactics_line(None)


def test_a_card_the_observer_cannot_see_is_named_by_its_place_on_its_button():
    state = hidden_card_position()
    rec = state[0]
    owner, card = next((int(rec["card_owner"][c]), c) for c in range(NUM_CARDS)
                       if int(rec["card_where"][c]) == CW_HERO and int(rec["card_slot"][c]) == T_BACKPACK)
    other = (owner + 1) % int(rec["num_players"])
    labels = P._button_labels(rec, other, {R.A_CARD + card, R.A_DO + R.DO_DONE}, {R.A_DO + R.DO_DONE: "done"})
    assert labels == [(R.A_DO + R.DO_DONE, "done"),
                      (R.A_CARD + card, f"ask for face-down card 1 of player_{owner}")]
    named = {R.A_CARD + card: f"offer {V.card_name(card)}"}
    assert P._button_labels(rec, owner, set(named), named) == list(named.items()), "its owner sees it"


# ------------------------------------------------------------------ clickable choices
@pytest.mark.parametrize("options", [
    {"num_players": 1, "sandbox": "open_realm"},
    {"num_players": 3, "sandbox": "explore_the_realm"},
    {"num_players": 6, "sandbox": "legendary"},
    {"num_players": 2, "sandbox": "legendary", "legendary_map": "explore_the_realm",
     "terrain_packs": ("cruel_caves", "wicked_woods")},
], ids=["open-1", "explore-3", "legendary-6", "legendary-explore-2"])
def test_the_clickable_shapes_are_exactly_the_legal_actions_of_the_seat_to_play(options):
    for i, (state, mask) in enumerate(random_play(GAME, GAME.make_config(**options), 6, max_steps=450)):
        if i % 9 or int(state[0]["status"]):
            continue
        moves = {int(a) for a in np.flatnonzero(mask)}
        p = int(state[0]["to_play"])
        for seat in (None, p):
            assert set(P.position_scene(state, seat).clickable()) == moves, GAME.action_to_string(state, min(moves))
        n = int(state[0]["num_players"])
        if n > 1:
            assert not P.position_scene(state, (p + 1) % n).clickable()


def test_a_button_for_every_legal_action_off_the_map():
    state = first_position(1, 150, lambda s: int(s[0]["phase"]) == R.PH_CLASS, num_players=2, sandbox="open_realm")
    scene = P.position_scene(state, int(state[0]["to_play"]))
    buttons = [op for op in scene.ops if op[0] == "rect" and op[5]]
    assert sorted(a for op in buttons for a in op[5]) == sorted(legal(state))
    assert all(op[6] == GAME.action_to_string(state, op[5][0]) for op in buttons)
    assert all(op[6].startswith("class ") for op in buttons)


# ------------------------------------------------------------------ svg and the cached board
def test_the_svg_document_parses_and_carries_the_legal_actions():
    state = position(**MID_GAME)
    root = ET.fromstring(render_svg(GAME, state, int(state[0]["to_play"])))
    offered = {int(a) for el in root.iter() if el.get("data-actions") for a in el.get("data-actions").split()}
    assert offered == legal(state)


def test_the_board_layer_is_drawn_once_for_many_frames(monkeypatch):
    monkeypatch.setattr(core_picture, "_BOARDS", {})
    calls = []
    drawn = DragonsDown.picture_board

    def counting(self, state):
        calls.append(1)
        return drawn(self, state)

    monkeypatch.setattr(DragonsDown, "picture_board", counting)
    state = position(**MID_GAME)
    later = state.copy()
    errors = np.zeros(1, dtype=np.int8)
    GAME.step(later, np.array([min(legal(later))], dtype=np.int32), errors)
    assert P.board_key(later) == P.board_key(state)
    GAME.render_rgb(state)
    GAME.render_rgb(state, 0)
    GAME.render_rgb(later)
    assert len(calls) == 1
    assert int((state[0]["tile_where"] == TW_PLACED).sum()) == len(P.board_key(state)[0])
