"""The shared picture layer (envs/core/picture.py) on Race to Ten: one scene,
two backends that agree, clickable shapes, the board layer cached once."""
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from dragongym.envs.core import picture
from dragongym.envs.core.picture import Scene, board_layer, board_svg, render_rgb, render_svg
from tests.core.toygame import GAME


def test_a_scene_rasterises_and_writes_svg_with_its_clickable_actions():
    scene = Scene(64, 48, background="#ffffff")
    scene.rect(4, 4, 20, 20, fill="#ff0000", actions=(2,), title="add 3")
    scene.circle(40, 12, 6, fill="#00ff00", outline="#000000", actions=(0, 1))
    scene.polygon([(4, 40), (20, 30), (30, 44)], fill="#0000ff")
    scene.line([(0, 24), (64, 24)], "#202020", width=2, dash=(4, 4))
    scene.text(32, 40, "a & b", size=10, anchor="lb")
    assert scene.clickable() == {2: 1, 0: 1, 1: 1}
    svg = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{scene.svg_elements()}</svg>')
    clickable = [el.get("data-actions") for el in svg.iter() if el.get("data-actions")]
    assert clickable == ["2", "0 1"]
    assert any(el.text == "a & b" for el in svg.iter())
    from PIL import Image

    image = Image.new("RGB", (64, 48), "#ffffff")
    scene.draw_on(image)
    pixels = np.asarray(image)
    assert tuple(pixels[10, 10]) == (255, 0, 0) and tuple(pixels[12, 40]) == (0, 255, 0)
    dashed = pixels[24, :, 0] < 100                      # the dashed line: on and off runs
    assert 20 < dashed.sum() < 48
    with pytest.raises(ValueError, match="anchor"):
        scene.text(0, 0, "x", anchor="xx")


def test_a_dashed_line_ends_where_rounding_leaves_a_run_too_short_to_move():
    """A Dragons Down hero's dashed path whose carried dash reached
    3.999999999999999 of 4 on its second piece: the 9e-16 left is below the
    rounding step of the position along it, and the raster looped forever
    (a random game's final picture hung CI). Its pieces alternate 2 on, 4 off."""
    path = [(676.1891907510336, 189.79292259615383), (683.4870261143953, 190.21299038461535),
            (695.7135561106894, 189.1715), (706.8978245335287, 186.32475961538458),
            (717.0398313829137, 181.6727692307692), (726.1395766588439, 175.21552884615386)]
    pieces = picture._dashes(path, (2.0, 4.0))
    total = sum(np.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip(path, path[1:]))
    drawn = sum(np.hypot(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in pieces)
    assert drawn == pytest.approx(total / 3, abs=2.0)     # a third of the length is "on"
    assert all(np.hypot(x1 - x0, y1 - y0) <= 2.0 + 1e-9 for (x0, y0), (x1, y1) in pieces)
    with pytest.raises(ValueError, match="both above 0"):
        Scene(8, 8).line([(0, 0), (8, 8)], "#000000", dash=(2, 0))


def test_the_board_layer_and_its_svg_are_made_once_per_key(monkeypatch):
    states = GAME.new_states(1)
    GAME.reset(states, np.array([1], dtype=np.uint64), GAME.make_config(num_players=2))
    picture._BOARDS.clear()
    picture._BOARD_SVG.clear()
    calls = []
    original = type(GAME).picture_board

    def counted(self, state):
        calls.append(1)
        return original(self, state)

    monkeypatch.setattr(type(GAME), "picture_board", counted)
    first = render_rgb(GAME, states, 0)
    svg = board_svg(GAME, states)
    GAME.step(states, np.array([0], dtype=np.int32), np.zeros(1, dtype=np.int8))
    assert render_rgb(GAME, states, None).shape == first.shape
    assert board_svg(GAME, states) is svg and svg in render_svg(GAME, states, 1)
    assert len(calls) == 1 and board_layer(GAME, states)[0].svg_elements() == svg
    with pytest.raises(ValueError, match="a seat 0..1"):
        render_rgb(GAME, states, 2)
