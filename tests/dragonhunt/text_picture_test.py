"""Dragonhunt's text picture (``render_ansi``, ``envs/dragonhunt/text_picture.py``):
a staggered hex grid with a legend, the counters by owner and type, stacks by
count and types, the players named as the agents, and hidden information."""
import numpy as np
import pytest

import dragongym
from dragongym.envs.dragonhunt import data as D
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.constants import HERO, KNIGHT, MAN_AT_ARMS, PARALYZER, SNIPER
from dragongym.envs.dragonhunt.game import GAME
from dragongym.envs.dragonhunt.state import F_WOUNDED
from dragongym.envs.dragonhunt.text_picture import LEFT, LEGEND, PITCH, map_lines, text_picture
from tests.conformance.play import random_play
from tests.dragonhunt.scenario import Scenario, cell


def token_at(lines, where, width=5):
    """The text the grid shows at space ``where``'s hex (its canonical hex)."""
    c = cell(where)
    col, row = int(D.CELL_COL[c]), int(D.CELL_ROW[c])
    line = lines[1 + 2 * row + col % 2]
    x = LEFT + PITCH * col
    return line[x:x + width].split(" ")[0]


def arranged():
    sc = Scenario(num_players=3, kingdoms=("Sunken", "Ironcrag", "Elderwood"))
    sc.no_beings()
    sc.put(0, KNIGHT, "0304")                    # odd column: half a hex lower
    sc.put(1, MAN_AT_ARMS, "0405")               # even column
    sc.put(0, HERO, "Sunken Castle")
    sc.put(0, KNIGHT, "Sunken Castle", n=3)
    sc.put(4, KNIGHT, "Greymoor Castle", n=2)    # a garrison: colour 4 is no player's (3.2)
    sc.put(2, SNIPER, "Elderwood Cottage", flags=F_WOUNDED)
    sc.being(1, PARALYZER, "0908")
    sc.dragon("0707", enraged=True)
    return sc


def test_the_grid_is_staggered_like_the_board_with_odd_columns_half_a_hex_lower():
    lines = map_lines(arranged().s)
    assert len(lines) == 1 + 2 * D.BOARD_ROWS
    assert lines[0].split() == [f"{c:02d}" for c in range(D.BOARD_COLS)]
    # 0304 is column 3, row 4: the second text line of row 4; 0405 the first of row 5
    assert lines[1 + 2 * 4 + 1][LEFT + PITCH * 3:LEFT + PITCH * 3 + 2] == "0k"
    assert lines[1 + 2 * 5][LEFT + PITCH * 4:LEFT + PITCH * 4 + 2] == "1m"
    assert lines[1 + 2 * 5].startswith("05")
    # the unoccupied hexes show board.txt's tokens, row by row
    for c in range(D.NUM_CELLS):
        if D.SPACE[c] != c or c in {cell(w) for w in ("0304", "0405", "Sunken Castle", "Greymoor Castle",
                                                      "Elderwood Cottage", "0908", "0707")}:
            continue
        expected = D.ascii_board().splitlines()[1 + int(D.CELL_ROW[c])].split()[1 + int(D.CELL_COL[c])]
        assert token_at(lines, c) == expected


def test_counters_show_owner_and_type_and_stacks_their_count():
    sc = arranged()
    lines = map_lines(sc.s)
    assert token_at(lines, "0304") == "0k"
    assert token_at(lines, "Sunken Castle") == "0:4"
    assert token_at(lines, "Greymoor Castle") == "n:2"
    assert token_at(lines, "Elderwood Cottage") == "2s"
    assert token_at(lines, "0707") == "DR!"
    assert token_at(lines, "0908") == "*Pa"
    text = text_picture(sc.S)
    assert "Sunken Castle     player_0: hero, 3 knights" in text
    assert "Greymoor Castle   garrison: 2 knights" in text
    assert "Elderwood Cottage player_2: sniper (wounded)" in text
    assert "0707              Brimstone (ENRAGED)" in text and "0908              Paralyzer" in text


def test_a_legend_follows_the_grid_and_every_line_fits_in_120_columns():
    text = text_picture(arranged().S)
    lines = text.splitlines()
    start = lines.index(LEGEND[0])
    assert lines[start:start + len(LEGEND)] == list(LEGEND)
    assert start == 1 + len(map_lines(arranged().s))
    assert max(len(line) for line in lines) <= 120


@pytest.mark.parametrize("num_players", [2, 6])
def test_players_are_named_as_the_agents_and_the_decision_is_in_words(num_players):
    env = dragongym.make("dragonhunt", num_players=num_players, render_mode="ansi")
    env.reset(seed=3)
    text = env.render()
    assert text == GAME.render_ansi(env.state_record) == text_picture(env.state_record)
    for agent in env.possible_agents:
        assert f"\n{agent}: " in text
    to_play = env.possible_agents[int(env.state_record[0]["to_play"])]
    assert f"to play: {to_play} (kingdom): choose a kingdom" in text


def test_stages_and_markers_are_in_words():
    sc = arranged()
    sc.put(0, KNIGHT, "0504")
    sc.put(1, KNIGHT, "0310")
    sc.start_player_round(order=[1, 0, 2], cards=[7, 9, 12])
    text = text_picture(sc.S)
    assert "Player's round (player_1, movement segment)" in text
    assert "player_0: Sunken, wounds 0, cards [6, 7, 8, 9, 10, 12], played 7" in text
    assert "Being Choice marker" in text and "order 1" in text
    assert "to play: player_1 (move_select): movement: choose a unit to move" in text
    sc.act("select unit at 0310")
    lines = map_lines(sc.s)
    assert token_at(lines, "0310") == "1k<"


def test_another_seats_face_down_card_is_hidden_from_a_seat_and_shown_in_full():
    config = GAME.make_config(num_players=3)
    state = next(s.copy() for s, _ in random_play(GAME, config, 4, max_steps=2000)
                 if int(s[0]["stage"]) == R.ST_CARDS and int(s[0]["cards_laid"]) > 0)
    laid = int(state[0]["card_played"][0])
    value = int(D.MOVEMENT_CARD_VALUES[laid])
    assert f"laid {value} face down" in text_picture(state) == GAME.render_ansi(state)
    assert f"laid {value} face down" in text_picture(state, 0)
    for seat in (1, 2):
        seen = text_picture(state, seat)
        assert "laid a card face down" in seen and f"laid {value} face down" not in seen
        variants = GAME.hidden_variants(state, seat, np.random.default_rng(seat))
        assert all(text_picture(v, seat) == seen for v in variants)
