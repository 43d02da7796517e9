"""The text picture (``render_ansi``): a staggered hex grid with a legend, the
stacks by force and size, the fortresses and the decision pending."""
from dragongym.envs.dragon_pass.game import GAME, LEGEND, _map_text
from dragongym.envs.dragon_pass.data import MAP
from tests.dragon_pass.scenario import LUNAR, Position


def test_render_the_map_is_a_staggered_hex_grid_with_the_stacks():
    p = Position(screening=True)
    p.put("cc_lancers#1", "0504")
    p.put("cc_lancers#2", "0504")
    p.put("cm_town_militia#1", "3122")
    p.movement(LUNAR)
    text = GAME.render_ansi(p.S)
    assert LEGEND in text and "to play: lunar (move)" in text and "Jonstown (sartar)" in text
    lines = _map_text(p.s)
    assert len(lines) == 1 + 2 * MAP.rows + 1
    col, row = 4, 3                                   # 0504: column 5, row 4, counted from 1
    assert lines[1 + 2 * row + col % 2][3 * col:3 * col + 2] == "L2"
    assert lines[1 + 2 * 21 + 30 % 2][3 * 30:3 * 30 + 2] == "S1"      # 3122: column 31, row 22
    screened = _map_text(p.s, viewer=0)
    assert screened[1 + 2 * 21][3 * 30:3 * 30 + 2] == "S?"            # what the Lunar seat may see
