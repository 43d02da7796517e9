"""Pictures of positions, shared by every game: one drawing, two backends.

A game draws a position as :class:`Scene` objects -- display lists of
polygons, lines, circles, rectangles and text in pixel coordinates -- and
never touches an imaging library itself. The same scene becomes

* a raster image (Pillow) for ``render_mode="rgb_array"``, videos and gifs, and
* SVG elements for the replay page and the browser play page, where a shape
  drawn with ``actions=`` is clickable: it carries the legal actions that
  choosing it would take (``data-actions``).

A picture has two layers. The **board** (:meth:`Game.picture_board`) is what
no decision changes -- the map, its terrain, roads and rivers; it is drawn and
rasterised once per ``Game.picture_board_key`` and cached, so a frame costs
only its **position** layer (:meth:`Game.picture_position`): counters,
markers, the pending decision's highlights and the side panel.

A game supplies the two hooks; everything else here is generic::

    image = render_rgb(game, state, seat=None)     # H x W x 3 uint8
    svg = render_svg(game, state, seat=0)          # one <svg> document

``seat`` is the observer: the picture shows what that seat may know (hidden
cards, screened stacks and undiscovered paths are not drawn); ``None`` shows
the full position (replays of finished games, debugging).
"""
# jitcache: no compiled code
import html
import os
import sys
import warnings

import numpy as np

POSITION_OPS = ("polygon", "line", "circle", "rect", "text")

ANCHORS_H = {"l": "start", "m": "middle", "r": "end"}
ANCHORS_V = {"t": "hanging", "m": "central", "b": "text-after-edge"}

PALETTE = {
    # seat colours, in seat order: distinct on a light board and in grey print
    "seats": ("#c0392b", "#2e6fd8", "#27ae60", "#8e44ad", "#e67e22", "#16a085"),
    "highlight": "#ffd400",
    "select": "#ff00aa",
    "ink": "#202020",
    "paper": "#fbf8f0",
    "panel": "#f1ede2",
}
"""Colours every game draws with, so the three games read alike."""


class Scene:
    """A display list: shapes drawn in the order they were added.

    Coordinates are pixels from the top left; colours are ``"#rrggbb"``
    strings or None (no fill / no outline). ``actions`` on a shape are the
    action ids choosing it would take (the web page offers them on a click);
    ``title`` is its tooltip in SVG.
    """

    def __init__(self, width, height, background=None):
        self.width = int(width)
        self.height = int(height)
        self.background = background
        self.ops = []

    def polygon(self, points, fill=None, outline=None, width=1, actions=(), title=None):
        self.ops.append(("polygon", tuple((float(x), float(y)) for x, y in points), fill, outline,
                         float(width), tuple(int(a) for a in actions), title))

    def line(self, points, color, width=1, dash=None):
        """A polyline; ``dash`` = ``(on, off)`` pixels draws it dashed."""
        if dash is not None:
            on, off = (float(d) for d in dash)
            if not (on > 0 and off > 0):
                raise ValueError(f"a dash is (on, off) pixels, both above 0, not {dash!r}")
            dash = (on, off)
        self.ops.append(("line", tuple((float(x), float(y)) for x, y in points), color,
                         float(width), dash))

    def circle(self, x, y, r, fill=None, outline=None, width=1, actions=(), title=None):
        self.ops.append(("circle", (float(x), float(y), float(r)), fill, outline, float(width),
                         tuple(int(a) for a in actions), title))

    def rect(self, x0, y0, x1, y1, fill=None, outline=None, width=1, actions=(), title=None):
        self.ops.append(("rect", (float(x0), float(y0), float(x1), float(y1)), fill, outline,
                         float(width), tuple(int(a) for a in actions), title))

    def text(self, x, y, text, size=12, color="#202020", anchor="mm", bold=False):
        """``anchor``: two letters, horizontal ``l``/``m``/``r`` then vertical
        ``t``/``m``/``b``, the point ``(x, y)`` of the text's box."""
        if len(anchor) != 2 or anchor[0] not in ANCHORS_H or anchor[1] not in ANCHORS_V:
            raise ValueError(f"text anchor {anchor!r} is not one of l/m/r then t/m/b")
        self.ops.append(("text", (float(x), float(y)), str(text), int(size), color, anchor, bool(bold)))

    def extend(self, other):
        """Append every shape of ``other`` (a Scene) after this one's."""
        self.ops.extend(other.ops)

    def clickable(self):
        """``{action: count}`` of the actions some shape offers."""
        out = {}
        for op in self.ops:
            if op[0] in ("polygon", "circle", "rect"):
                for a in op[5]:
                    out[a] = out.get(a, 0) + 1
        return out

    # ------------------------------------------------------------ raster
    def draw_on(self, image):
        """Draw every shape onto ``image`` (a Pillow RGB image) in place."""
        from PIL import ImageDraw

        draw = ImageDraw.Draw(image)
        for op in self.ops:
            kind = op[0]
            if kind == "polygon":
                _, pts, fill, outline, width, _, _ = op
                draw.polygon(pts, fill=fill, outline=outline, width=max(1, round(width)) if outline else 0)
            elif kind == "line":
                _, pts, color, width, dash = op
                w = max(1, round(width))
                if dash is None:
                    draw.line(pts, fill=color, width=w, joint="curve")
                else:
                    for seg in _dashes(pts, dash):
                        draw.line(seg, fill=color, width=w)
            elif kind == "circle":
                _, (x, y, r), fill, outline, width, _, _ = op
                draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=outline,
                             width=max(1, round(width)) if outline else 0)
            elif kind == "rect":
                _, box, fill, outline, width, _, _ = op
                draw.rectangle(box, fill=fill, outline=outline, width=max(1, round(width)) if outline else 0)
            else:
                _, (x, y), text, size, color, anchor, bold = op
                where = anchor[0] + {"t": "t", "m": "m", "b": "d"}[anchor[1]]
                if bold and size >= 14:      # Pillow's font has no bold face: a one-pixel stroke
                    draw.text((x, y), text, fill=color, font=_font(size), anchor=where,
                              stroke_width=1, stroke_fill=color)
                else:
                    draw.text((x, y), text, fill=color, font=_font(size), anchor=where)

    # ------------------------------------------------------------ svg
    def svg_elements(self):
        """The shapes as SVG elements (a string, no enclosing ``<svg>``)."""
        parts = []
        for op in self.ops:
            kind = op[0]
            if kind in ("polygon", "circle", "rect"):
                geo, fill, outline, width, actions, title = op[1:]
                style = (f' fill="{fill or "none"}" stroke="{outline or "none"}"'
                         f'{f" stroke-width={_q(_n(width))}" if outline else ""}')
                attrs = style + (f' data-actions="{" ".join(map(str, actions))}" class="act"' if actions else "")
                if kind == "polygon":
                    pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in geo)
                    head = f'<polygon points="{pts}"{attrs}'
                elif kind == "circle":
                    x, y, r = geo
                    head = f'<circle cx="{_n(x)}" cy="{_n(y)}" r="{_n(r)}"{attrs}'
                else:
                    x0, y0, x1, y1 = geo
                    head = (f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" '
                            f'height="{_n(y1 - y0)}"{attrs}')
                parts.append(f"{head}><title>{html.escape(title)}</title></{head.split()[0][1:]}>"
                             if title else head + "/>")
            elif kind == "line":
                _, pts, color, width, dash = op
                d = " ".join(f"{_n(x)},{_n(y)}" for x, y in pts)
                dash_attr = f' stroke-dasharray="{_n(dash[0])} {_n(dash[1])}"' if dash else ""
                parts.append(f'<polyline points="{d}" fill="none" stroke="{color}" '
                             f'stroke-width="{_n(width)}" stroke-linecap="round" '
                             f'stroke-linejoin="round"{dash_attr}/>')
            else:
                _, (x, y), text, size, color, anchor, bold = op
                parts.append(f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" fill="{color}" '
                             f'text-anchor="{ANCHORS_H[anchor[0]]}" '
                             f'dominant-baseline="{ANCHORS_V[anchor[1]]}"'
                             f'{" font-weight=" + _q("bold") if bold else ""}>{html.escape(text)}</text>')
        return "".join(parts)


def _q(s):
    return f'"{s}"'


def _n(v):
    """A coordinate written short (SVG pages hold thousands of them)."""
    r = round(v, 1)
    return str(int(r)) if r == int(r) else str(r)


def _dashes(points, dash):
    """The drawn pieces of a dashed polyline, as point pairs."""
    on, off = dash
    out = []
    carry, drawing = 0.0, True
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = float(np.hypot(x1 - x0, y1 - y0))
        pos = 0.0
        while pos < length:
            run = (on if drawing else off) - carry
            end = min(length, pos + run)
            if drawing and end > pos:
                t0, t1 = pos / length, end / length
                out.append(((x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0),
                            (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)))
            # Compare where the run would end, not the distance drawn: a run
            # left shorter than pos's rounding step (carry a hair under the
            # dash) adds nothing to pos, and must still end, or this never does.
            if pos + run > length:
                carry += end - pos
            else:
                carry, drawing = 0.0, not drawing
            pos = end
    return out


_FONTS = {}


def _font(size):
    font = _FONTS.get(size)
    if font is None:
        from PIL import ImageFont

        font = _FONTS[size] = ImageFont.load_default(size=size)
    return font


# ---------------------------------------------------------------- the game's two layers
_BOARDS = {}
_BOARD_CACHE_SIZE = 16


def board_layer(game, state):
    """``(scene, image)`` of the board layer of ``state``'s game: the game's
    :meth:`Game.picture_board` scene and its raster, cached per
    ``game.picture_board_key(state)``."""
    key = (game.name, game.picture_board_key(state))
    hit = _BOARDS.get(key)
    if hit is None:
        from PIL import Image

        scene = game.picture_board(state)
        image = Image.new("RGB", (scene.width, scene.height), scene.background or PALETTE["paper"])
        scene.draw_on(image)
        if len(_BOARDS) >= _BOARD_CACHE_SIZE:
            _BOARD_SVG.pop(next(iter(_BOARDS)), None)
            _BOARDS.pop(next(iter(_BOARDS)))
        hit = _BOARDS[key] = (scene, image)
    return hit


_BOARD_SVG = {}
"""The board layers' SVG elements, by the key of :data:`_BOARDS` (made on
first use: a map's board is most of a page's SVG)."""


def board_svg(game, state):
    """The SVG elements of ``state``'s board layer, cached with the layer."""
    scene, _ = board_layer(game, state)
    key = (game.name, game.picture_board_key(state))
    svg = _BOARD_SVG.get(key)
    if svg is None:
        svg = _BOARD_SVG[key] = scene.svg_elements()
    return svg


def check_seat(game, state, seat):
    """``seat`` as an int observer, or None for the full position; a clear
    error for anything else."""
    if seat is None:
        return None
    n = int(state[0]["num_players"])
    if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) or not 0 <= int(seat) < n:
        raise ValueError(f"{game.name}: a picture's seat is None (the full position) or a seat "
                         f"0..{n - 1}, not {seat!r}")
    return int(seat)


def render_image(game, state, seat=None):
    """The picture of ``state`` (a 1-record array) as ``seat`` may know it,
    as a Pillow image."""
    seat = check_seat(game, state, seat)
    _, board = board_layer(game, state)
    image = board.copy()
    game.picture_position(state, seat).draw_on(image)
    return image


def render_rgb(game, state, seat=None):
    """:func:`render_image` as an ``H x W x 3`` uint8 array."""
    return np.asarray(render_image(game, state, seat), dtype=np.uint8)


def svg_document(width, height, body, background=None):
    """An ``<svg>`` document of ``width x height`` pixels around ``body``."""
    bg = f'<rect width="100%" height="100%" fill="{background or PALETTE["paper"]}"/>'
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
            f'width="{width}" height="{height}" font-family="DejaVu Sans, sans-serif">'
            f"{bg}{body}</svg>")


def render_svg(game, state, seat=None):
    """The picture of ``state`` as one SVG document (board and position)."""
    seat = check_seat(game, state, seat)
    board, _ = board_layer(game, state)
    body = (f'<g class="board">{board_svg(game, state)}</g>'
            f'<g class="position">{game.picture_position(state, seat).svg_elements()}</g>')
    return svg_document(board.width, board.height, body, board.background)


# ---------------------------------------------------------------- render_mode="human"
class HumanWindow:
    """Shows frames in a window where there is a screen (matplotlib's
    interactive backend); where there is none, says so once on stderr and
    prints the text picture instead, so ``render_mode="human"`` never fails."""

    def __init__(self, title):
        self.title = title
        self._figure = None
        self._axes_image = None
        self._warned = False

    @staticmethod
    def display_available():
        """True when a window can be opened: an X or Wayland display is set
        (or the platform always has a screen) and matplotlib has a GUI backend."""
        if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY")
                                                     or os.environ.get("WAYLAND_DISPLAY")):
            return False
        try:
            import matplotlib

            backend = matplotlib.get_backend().lower()
        except Exception:  # noqa: BLE001 -- no matplotlib is no window
            return False
        return backend not in ("agg", "pdf", "ps", "svg", "cairo", "template") and "inline" not in backend

    def show(self, image, text):
        """Show ``image`` (uint8 H x W x 3) in the window, or ``text`` on stdout."""
        if not self.display_available():
            if not self._warned:
                warnings.warn(f"{self.title}: render_mode='human' found no screen (no DISPLAY, or "
                              "matplotlib has no GUI backend); the text picture is printed instead. "
                              "Use render_mode='rgb_array' for images.", RuntimeWarning, stacklevel=3)
                self._warned = True
            print(text, end="" if text.endswith("\n") else "\n", flush=True)
            return
        import matplotlib.pyplot as plt

        if self._figure is None or not plt.fignum_exists(self._figure.number):
            self._figure = plt.figure(self.title)
            ax = self._figure.add_axes((0, 0, 1, 1))
            ax.axis("off")
            self._axes_image = ax.imshow(image)
        else:
            self._axes_image.set_data(image)
        self._figure.canvas.draw_idle()
        plt.pause(0.001)

    def close(self):
        if self._figure is not None:
            import matplotlib.pyplot as plt

            plt.close(self._figure)
            self._figure = None
