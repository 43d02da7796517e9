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
