"""Replays of recorded games as pictures: an animated gif, an H.264 mp4, or one
self-contained HTML page to step through.

    from dragongym.agents.game_record import read_records
    from dragongym.agents.replay_media import write_gif, write_html, write_mp4

    record = read_records("games.jsonl")[0]      # written by `dragongym match --records`
    write_html(record, "game.html")              # every position, each seat's view, the log
    write_gif(record, "game.gif", every=5)       # a frame every 5th position, and the last
    write_mp4(record, "game.mp4", seat=0)        # what seat 0 saw

On the command line (``dragongym replay FILE --to OUT``, see
:func:`add_replay_media_arguments`) the suffix of ``OUT`` picks the medium.

Every medium replays the record from its seed exactly as
:func:`game_record.replay` does (:func:`positions`), so a record that does
not replay to its recorded final state is refused (:class:`RecordError`)
rather than drawn, and no half-written file is left behind. The pictures are
the game's own (``envs/<game>/picture.py`` through ``envs/core/picture.py``):
a game that draws none yet is refused with :class:`ReplayMediaError`.

A position ``k`` is the state after ``k`` decisions; ``0`` is the start,
``n`` (the record's decision count) the end. A frame shows position ``k``
with a caption: the decision that led there and the one taken from there.

``seat`` (a view): None is the full position; a seat number (or role name)
shows only what that seat may know, and names the other seats' decisions
without saying what they were, because no Game hook tells which decisions
are public (a Dragonhunt movement card is chosen in secret).
"""
# jitcache: no compiled code
import bisect
import json
import os
import re
import sys
from importlib import resources
from typing import NamedTuple

import numpy as np

from dragongym.agents.game_record import RecordError, read_records, replay_steps, replayed_game
from dragongym.envs.core.options import number_type
from dragongym.envs.core.picture import PALETTE, Scene, board_layer, check_seat

SUFFIXES = (".gif", ".mp4", ".html")
"""The replay files this module writes, chosen by the output path's suffix."""

CAPTION_HEIGHT = 48
"""Pixels of the caption strip under a gif or mp4 frame (two lines of text)."""

VIDEO_BLOCK = 16
"""Video frames are padded to multiples of this many pixels (H.264 macroblocks)."""

FINAL_HOLD_MS = 2000
"""How long the gif rests on its last frame (the result) before it loops."""

PAGE_SPEEDS = (0.5, 1, 2, 4, 8, 16, 32, 64)
"""The replay page's speed choices, in positions per second."""


class ReplayMediaError(ValueError):
    """A replay file that cannot be made: a game that draws no pictures, a
    view that is not a seat of the game, a suffix that is not a medium."""


class Position(NamedTuple):
    """One position of a replayed game.

    Attributes:
        index: decisions made before this position (0 = the start).
        state: the position, a 1-record array (a copy: keep it freely).
        seat: the seat whose decision led here, None at the start.
        action: that decision's action id, None at the start.
        action_name: that action as ``game.action_to_string`` names it in
            the position where it was taken; None at the start, and where
            :func:`positions` was asked not to name it.
        public: whether every seat may know that decision
            (``game.decision_is_public``); True at the start.
    """

    index: int
    state: np.ndarray
    seat: object
    action: object
    action_name: object
    public: bool = True


def positions(record, game=None, named=None):
    """The positions of the recorded game, from the start to the end, as
    :class:`Position` tuples (``len(record.actions) + 1`` of them).

    The game is replayed from its seed as :func:`game_record.replay` does
    (``game`` skips the registry look-up); :class:`RecordError` is raised at
    the first mismatch, and the final position only comes once its digest is
    checked -- a consumer that writes a file at the end writes nothing for a
    record that does not replay.

    ``named``: None names every decision; else a predicate on a decision's
    number ``k`` (the one taken from position ``k``) saying which to name,
    the others' ``action_name`` being None -- a game may name an action by
    naming every legal one (Dragon Pass: milliseconds a position), and a gif
    of every tenth position needs a fifth of the names."""
    game, _ = replayed_game(record, game)
    led_here = (None, None, None, True)
    for k, state, seat, action in replay_steps(record, game):
        yield Position(k, state.copy(), *led_here)
        if seat is not None:
            # named now, in the position where it is taken: names depend on it
            name = game.action_to_string(state, action) if named is None or named(k) else None
            led_here = (seat, action, name, bool(game.decision_is_public(state, action)))


def drawing_game(record):
    """``(game, config)`` of ``record`` (checked as a replay checks it), or
    :class:`ReplayMediaError` if the game draws no pictures yet."""
    game, config = replayed_game(record)
    if not game.has_pictures:
        raise ReplayMediaError(f"{game.name} draws no pictures yet (its Game has no picture_board), so its "
                               "games cannot become a gif, an mp4 or a replay page; `dragongym replay FILE` "
                               "still checks them")
    return game, config


def view_seat(record, seat):
    """The observer ``seat`` names for ``record``'s game: None (also
    ``"full"``) for the full position, a seat number, or a role name; a
    :class:`ReplayMediaError` for anything else."""
    roles = list(record.roles)
    if seat is None or seat == "full":
        return None
    if isinstance(seat, str):
        if seat in roles:
            return roles.index(seat)
        if seat.strip().isdigit():
            seat = int(seat)
    if isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) and 0 <= int(seat) < len(roles):
        return int(seat)
    raise ReplayMediaError(f"the view {seat!r} is not a seat of this {record.game} game: give a seat "
                           f"0..{len(roles) - 1}, a role ({', '.join(roles)}) or full")


# ---------------------------------------------------------------- captions
def _ordinal(n):
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def result_text(record):
    """The game's end in words: each role's rank and reward, or that it was
    left unfinished."""
    end = record.end
    if end.get("unfinished"):
        return f"left unfinished after {len(record.actions)} decisions"
    ranks, rewards = end.get("ranks") or [], end.get("rewards") or []
    seats = [f"{role} {_ordinal(int(rank))} ({float(reward):+g})"
             for role, rank, reward in zip(record.roles, ranks, rewards)]
    return "game over: " + ", ".join(seats)


def decision_text(record, viewer, seat, name, public=True):
    """How the decision ``name`` of ``seat`` reads to ``viewer`` (None: the
    full position): its name, or -- another seat's secret decision
    (``public`` False) in a seat's view -- only who decided."""
    role = record.roles[seat]
    if viewer is None or viewer == seat or public:
        return f"{role}: {name}"
    return f"{role} decided (not shown to {record.roles[viewer]})"


def _frames(record, game, every, captions=True):
    """``(position, next_position)`` for every ``every``-th position and the
    last (whose next is None): the next position carries the decision taken
    from this one. ``captions``: name the decisions a caption shows (the one
    leading to a frame, the one taken from it), or none."""
    last = len(record.actions)

    def shown(k):
        return captions and (k % every == 0 or (k + 1) % every == 0 or k + 1 == last)

    previous = None
    for position in positions(record, game, named=shown):
        if previous is not None and previous.index % every == 0:
            yield previous, position
        previous = position
    yield previous, None


def choice_marks(scene, action):
    """A scene ringing the shapes of ``scene`` that offer ``action`` (the
    legal choices drawn with ``actions=``): the choice about to be taken,
    marked among the others. The ring is two-tone, ink outside and the
    highlight colour inside, to stand out whatever colour a game draws its
    choices in."""
    marks = Scene(scene.width, scene.height)
    for op in scene.ops:
        if op[0] in ("polygon", "circle", "rect") and action in op[5]:
            for colour, width in ((PALETTE["ink"], 6), (PALETTE["highlight"], 3)):
                if op[0] == "polygon":
                    marks.polygon(op[1], outline=colour, width=width)
                elif op[0] == "circle":
                    marks.circle(*op[1], outline=colour, width=width)
                else:
                    marks.rect(*op[1], outline=colour, width=width)
    return marks


def frame_image(game, record, position, following, seat):
    """The picture of ``position`` as ``seat`` may know it, with a caption
    strip below (the decision that led here; the next one, or the result),
    padded to multiples of :data:`VIDEO_BLOCK` pixels: a Pillow RGB image.
    Where the view may know the next decision, its choice is outlined
    (:func:`choice_marks`)."""
    from PIL import Image

    seat = check_seat(game, position.state, seat)
    picture = board_layer(game, position.state)[1].copy()
    scene = game.picture_position(position.state, seat)
    scene.draw_on(picture)
    if following is not None and (seat is None or seat == following.seat or following.public):
        choice_marks(scene, following.action).draw_on(picture)
    width, height = picture.size
    size = (-(-width // VIDEO_BLOCK) * VIDEO_BLOCK,
            -(-(height + CAPTION_HEIGHT) // VIDEO_BLOCK) * VIDEO_BLOCK)
    image = Image.new("RGB", size, PALETTE["panel"])
    image.paste(picture, (0, 0))
    caption = Scene(*size)
    caption.line([(0, height), (size[0], height)], PALETTE["ink"])
    lines = [(None, f"position {position.index} of {len(record.actions)}: the start")]
    if position.seat is not None:
        lines[0] = (position.seat, f"position {position.index} of {len(record.actions)}, after "
                                   + decision_text(record, seat, position.seat, position.action_name,
                                                   position.public))
    if following is not None:
        lines.append((following.seat, "next, " + decision_text(record, seat, following.seat,
                                                               following.action_name, following.public)))
    else:
        lines.append((None, result_text(record)))
    for row, (who, text) in enumerate(lines):
        y = height + 14 + 20 * row
        swatch = PALETTE["seats"][who % len(PALETTE["seats"])] if who is not None else PALETTE["ink"]
        caption.rect(8, y - 6, 20, y + 6, fill=swatch)
        caption.text(28, y, text, size=14, color=PALETTE["ink"], anchor="lm")
    caption.draw_on(image)
    return image


# ---------------------------------------------------------------- gif and mp4
def _check_rate(fps, every):
    if not (isinstance(fps, (int, float)) and np.isfinite(fps) and fps > 0):
        raise ReplayMediaError(f"fps is a positive number of frames per second, not {fps!r}")
    if isinstance(every, bool) or not isinstance(every, (int, np.integer)) or every < 1:
        raise ReplayMediaError(f"every is a whole number of positions per frame, at least 1, not {every!r}")
    return float(fps), int(every)


def _partial_path(path):
    """A file beside ``path`` to write into and then rename over it, so a
    refused record or a failed encoder leaves no broken replay behind."""
    folder, name = os.path.split(os.path.abspath(os.fspath(path)))
    # the suffix stays last: imageio picks its writer by it
    return os.path.join(folder, f".{name}.{os.getpid()}.partial{os.path.splitext(name)[1]}")


def _publish(partial, path, write):
    try:
        write(partial)
        os.replace(partial, path)
    finally:
        if os.path.exists(partial):
            os.remove(partial)


def write_gif(record, path, seat=None, fps=4, every=1):
    """Write ``record`` as an animated, looping gif at ``path``: a frame for
    every ``every``-th position and the last (:func:`frame_image`), ``fps``
    frames per second, the last held :data:`FINAL_HOLD_MS`. ``seat``: the
    view (see :func:`view_seat`). Returns the number of frames."""
    from PIL import Image

    fps, every = _check_rate(fps, every)
    game, _ = drawing_game(record)
    seat = view_seat(record, seat)
    # A first pass replays the record (raising, before anything is drawn,
    # for one that does not replay) and finds the first and last frames,
    # whose colours make the one palette of every frame: frames that share
    # a palette are stored as the rectangle that changed (a few times
    # smaller than frames each quantized anew), and mapping to a known
    # palette is quick.
    first = last = None
    for pair in _frames(record, game, every, captions=False):
        first, last = first or pair, pair
    sample = [frame_image(game, record, *pair, seat) for pair in (first, last)]   # captions: colours only
    montage = Image.new("RGB", (sum(im.width for im in sample), max(im.height for im in sample)))
    montage.paste(sample[0], (0, 0))
    montage.paste(sample[1], (sample[0].width, 0))
    palette = montage.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    frames = [frame_image(game, record, position, following, seat).quantize(palette=palette,
                                                                             dither=Image.Dither.NONE)
              for position, following in _frames(record, game, every)]
    durations = [round(1000 / fps)] * len(frames)
    durations[-1] = max(durations[-1], FINAL_HOLD_MS)

    def write(partial):
        frames[0].save(partial, format="GIF", save_all=True, append_images=frames[1:], duration=durations,
                       loop=0, disposal=1)

    _publish(_partial_path(path), path, write)
    return len(frames)


def write_mp4(record, path, seat=None, fps=8, every=1):
    """Write ``record`` as an H.264 (yuv420p) mp4 video at ``path`` through
    imageio's ffmpeg backend: a frame for every ``every``-th position and the
    last (:func:`frame_image`, sizes multiples of 16), ``fps`` frames per
    second. ``seat``: the view (see :func:`view_seat`). Returns the number
    of frames."""
    import imageio.v2 as imageio

    fps, every = _check_rate(fps, every)
    game, _ = drawing_game(record)
    seat = view_seat(record, seat)
    count = 0

    def write(partial):
        nonlocal count
        writer = imageio.get_writer(partial, format="FFMPEG", mode="I", fps=fps, codec="libx264",
                                    pixelformat="yuv420p", macro_block_size=VIDEO_BLOCK, quality=8,
                                    ffmpeg_log_level="error")
        try:
            for position, following in _frames(record, game, every):
                writer.append_data(np.asarray(frame_image(game, record, position, following, seat)))
                count += 1
        finally:
            writer.close()

    _publish(_partial_path(path), path, write)
    return count


# ---------------------------------------------------------------- the replay page
class _Fragments:
    """The distinct SVG strings of a page, each stored once and referred to
    by its index; a shape (a Scene op, a hashable tuple) is turned into SVG
    only the first time it is seen."""

    def __init__(self):
        self.strings = []
        self._ids = {}
        self._of_shape = {}
        self._scratch = Scene(0, 0)

    def of_string(self, text):
        k = self._ids.get(text)
        if k is None:
            k = self._ids[text] = len(self.strings)
            self.strings.append(text)
        return k

    def of_scene(self, scene):
        """The indices of ``scene``'s shapes, in drawing order (a list)."""
        ids = []
        for op in scene.ops:
            k = self._of_shape.get(op)
            if k is None:
                # one shape at a time through Scene.svg_elements, so that the
                # page's concatenated fragments are exactly render_svg's group
                self._scratch.ops = [op]
                k = self._of_shape[op] = self.of_string(self._scratch.svg_elements())
            ids.append(k)
        return ids


def frame_segments(previous, ids):
    """``ids`` (a frame's fragment indices) as segments against the frame
    before it, ``previous`` (None for the first), a flat list of pairs:

    * ``first, count`` with ``first >= 0``: the fragments ``first ..
      first + count - 1``;
    * ``-1 - start, count``: ``count`` indices copied from ``previous``
      beginning at its index ``start``.

    A decision moves a counter or changes a panel line, so most of a frame
    is a few long copies of the one before: the page stays small."""
    where = {}
    for j, k in enumerate(previous or ()):
        where.setdefault(k, []).append(j)
    out, i, j = [], 0, 0           # j: where in previous the last copy ended
    while i < len(ids):
        spots = where.get(ids[i])
        if spots:
            # resume after the last copy when the shape is there again, so
            # shapes kept in their order copy as one segment
            at = bisect.bisect_left(spots, j)
            start = spots[at] if at < len(spots) else spots[0]
            count = 1
            while (i + count < len(ids) and start + count < len(previous)
                   and ids[i + count] == previous[start + count]):
                count += 1
            out += [-1 - start, count]
            i, j = i + count, start + count
        else:
            if out and out[-2] >= 0 and out[-2] + out[-1] == ids[i]:
                out[-1] += 1
            else:
                out += [ids[i], 1]
            i += 1
    return out


def page_views(record, spec, views):
    """The page's views, as observers (None: the full position): ``views``
    as given (None, ``"full"``, seat numbers or role names), or by default
    the full position and, when the game hides information, each seat."""
    if views is None:
        views = [None] + (list(range(len(record.roles))) if spec.hidden_information else [])
    seats = []
    for view in views:
        seat = view_seat(record, view)
        if seat not in seats:
            seats.append(seat)
    if not seats:
        raise ReplayMediaError("a replay page needs at least one view")
    return seats


def _view_name(record, seat):
    return "full position" if seat is None else f"{record.roles[seat]}'s view"


def page_data(record, views=None, fps=4):
    """Everything the replay page shows, as a JSON-able dict (see
    ``agents/replay_page.html`` for how it is read):

    * ``fragments``: the distinct SVG strings of the page's shapes (one
      shape each, board and position layers alike);
    * ``boards``: the distinct board layers (a realm built from tiles
      changes its board), ``{width, height, background, segments}``, each
      board's shapes as :func:`frame_segments` against the board before it;
      ``board_runs``: ``[board, count]`` runs over the frames;
    * ``views``: ``{name, seat, frames}``; ``frames[k]`` is position ``k``'s
      layer in that view as :func:`frame_segments` against ``frames[k - 1]``;
    * ``log``: one entry per decision (``seat``, ``action``, ``text``; the
      text is null when no view of the page may read it);
    * the header: game, version, config, roles, agents, seat colours, end,
      result, digest and frame count.
    """
    game, config = drawing_game(record)
    spec = game.spec_for(config)
    seats = page_views(record, spec, views)
    fragments = _Fragments()
    boards, board_of_key, board_of_svg, board_runs = [], {}, {}, []
    last_board = None                     # the fragment indices of the board stored last
    frames = [[] for _ in seats]
    shown = [None for _ in seats]         # each view's fragment indices of the frame before
    log = []
    readers = set(seats)
    for position in positions(record, game):
        state = position.state
        key = game.picture_board_key(state)
        board = board_of_key.get(key)
        if board is None:
            # the scene only: the page has no use for board_layer's raster
            scene = game.picture_board(state)
            svg = scene.svg_elements()
            board = board_of_svg.get(svg)
            if board is None:
                # a board that changes back to an earlier one is stored once
                board = board_of_svg[svg] = len(boards)
                ids = fragments.of_scene(scene)
                boards.append({"width": scene.width, "height": scene.height,
                               "background": scene.background or PALETTE["paper"],
                               "segments": frame_segments(last_board, ids)})
                last_board = ids
            board_of_key[key] = board
        if board_runs and board_runs[-1][0] == board:
            board_runs[-1][1] += 1
        else:
            board_runs.append([board, 1])
        for v, seat in enumerate(seats):
            ids = fragments.of_scene(game.picture_position(state, seat))
            frames[v].append(frame_segments(shown[v], ids))
            shown[v] = ids
        if position.seat is not None:
            visible = None in readers or position.seat in readers or position.public
            log.append({"seat": position.seat, "action": position.action, "public": position.public,
                        "text": position.action_name if visible else None})
    end = dict(record.end)
    return {
        "game": record.game, "version": record.game_version, "config": record.config,
        "roles": list(record.roles), "agents": list(record.agents),
        "colors": [PALETTE["seats"][k % len(PALETTE["seats"])] for k in range(len(record.roles))],
        "match_seed": record.match_seed, "game_index": record.game_index,
        "end": end, "result": result_text(record), "digest": end.get("digest"),
        "frame_count": len(record.actions) + 1, "fps": fps, "speeds": list(PAGE_SPEEDS),
        "boards": boards, "board_runs": board_runs, "fragments": fragments.strings,
        "views": [{"name": _view_name(record, seat), "seat": seat, "frames": frames[v]}
                  for v, seat in enumerate(seats)],
        "log": log,
    }


def _script_json(value):
    """``value`` as JSON that may sit inside a ``<script>`` element: no
    ``</`` (it would end the element) and no ``<!--``, both only possible
    inside JSON strings, where ``\\/`` and ``\\u003c`` mean the same."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<!--", "\\u003c!--").replace("</", "<\\/")


def page_html(record, views=None, fps=4):
    """The replay page of ``record`` (:func:`write_html`) as a string."""
    import html

    if not (isinstance(fps, (int, float)) and np.isfinite(fps) and fps > 0):
        raise ReplayMediaError(f"fps is a positive number of positions per second, not {fps!r}")
    data = page_data(record, views, fps)
    seats = ", ".join(f"{role} {agent}" for role, agent in zip(record.roles, record.agents))
    values = {
        "TITLE": html.escape(f"{record.game} replay: {seats}"),
        "DIGEST": html.escape(str(data["digest"])),
        "FRAMES": str(data["frame_count"]),
        "DATA": _script_json(data),
    }
    template = resources.files("dragongym.agents").joinpath("replay_page.html").read_text(encoding="utf-8")
    # one pass over the template: text put in is never scanned for markers
    return re.sub(r"@@(TITLE|DIGEST|FRAMES|DATA)@@", lambda m: values[m.group(1)], template)


def write_html(record, path, views=None, fps=4):
    """Write ``record`` as ONE self-contained HTML page at ``path`` (inline
    CSS, script and SVG; nothing fetched): the board, every position of each
    view (``views``: see :func:`page_views`), step / play controls, a slider,
    the keyboard's arrows, and the log of decisions beside the board.
    ``fps``: the starting speed. Returns the page's size in bytes.

    The page's root element ``#replay`` carries ``data-digest`` (the final
    state's), ``data-frames`` (positions) and ``data-frame`` (the one shown).
    """
    text = page_html(record, views, fps).encode("utf-8")

    def write(partial):
        with open(partial, "wb") as fh:
            fh.write(text)

    _publish(_partial_path(path), path, write)
    return len(text)


# ---------------------------------------------------------------- command line
def add_replay_media_arguments(parser):
    """Add ``--to OUT``, ``--index K``, ``--seat S``, ``--fps`` and
    ``--every`` to ``parser`` (the ``replay`` subcommand's); with ``--to``,
    :func:`run_replay_media` makes the picture file."""
    parser.add_argument("--to", metavar="OUT", default=None,
                        help="make one game of FILE a picture file; the suffix picks it: OUT.gif (animated "
                             "gif), OUT.mp4 (H.264 video) or OUT.html (a self-contained page to step through, "
                             "with the log of decisions)")
    parser.add_argument("--index", metavar="K", type=number_type(int, at_least=0), default=0,
                        help="which game of FILE (0, the default, is the first)")
    parser.add_argument("--seat", metavar="S", default="full",
                        help="whose view: full (the whole position, the default), a seat number or a role "
                             "name; a full .html page also holds each seat's view when the game hides "
                             "information")
    parser.add_argument("--fps", type=number_type(float, above=0), default=None,
                        help="frames per second (default 4 for .gif, 8 for .mp4; the .html page's "
                             "starting speed, default 4)")
    parser.add_argument("--every", metavar="N", type=number_type(int, at_least=1), default=None,
                        help=".gif and .mp4: a frame for every N-th position, and the last (default 1)")


def _fail(message):
    print(f"dragongym: error: {message}", file=sys.stderr)
    return 2


def run_replay_media(args):
    """Make the picture file ``args.to`` of game ``args.index`` of the record
    file ``args.file`` (the arguments of :func:`add_replay_media_arguments`);
    prints what it wrote. Returns the exit status: 0, or 2 with a one-line
    error on stderr."""
    out = args.to
    if not out:
        return _fail("--to OUT is needed to make a picture file (.gif, .mp4 or .html)")
    suffix = os.path.splitext(out)[1].lower()
    if suffix not in SUFFIXES:
        return _fail(f"--to {out}: the suffix picks the picture file, one of {', '.join(SUFFIXES)}, "
                     f"not {suffix or 'none'}")
    if suffix == ".html" and args.every not in (None, 1):
        return _fail("--every is for .gif and .mp4; the .html page holds every position")
    folder = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(folder):
        return _fail(f"--to {out}: the folder {folder} does not exist")
    if os.path.isdir(out):
        return _fail(f"--to {out}: is a folder, not a file")
    try:
        records = read_records(args.file)
    except RecordError as err:
        return _fail(str(err))
    if not 0 <= args.index < len(records):
        return _fail(f"--index {args.index}: {args.file} holds {len(records)} game(s), numbered "
                     f"0..{len(records) - 1}")
    record = records[args.index]
    try:
        seat = view_seat(record, args.seat)
        every = args.every or 1
        if suffix == ".gif":
            frames = write_gif(record, out, seat, fps=args.fps or 4, every=every)
            what = f"{frames} frames"
        elif suffix == ".mp4":
            frames = write_mp4(record, out, seat, fps=args.fps or 8, every=every)
            what = f"{frames} frames"
        else:
            write_html(record, out, views=None if seat is None else [seat], fps=args.fps or 4)
            what = f"{len(record.actions) + 1} positions"
    except RecordError as err:
        return _fail(err.located(f"{args.file}, game {args.index}"))
    except ReplayMediaError as err:
        return _fail(f"{args.file}, game {args.index}: {err}")
    view = "the full position" if seat is None else f"{record.roles[seat]}'s view"
    print(f"{out}: game {args.index} of {args.file} ({record.game}, {len(record.actions)} decisions), "
          f"{what}, {view}, {os.path.getsize(out) / 1024:.1f} KiB")
    return 0
