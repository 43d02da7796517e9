"""Replays of recorded games as pictures (agents/replay_media.py): every
position of the record replays as game_record.replay does, the gif and the
mp4 have one frame per chosen position at a video-friendly size, a record
that does not replay or a game that draws nothing is refused with no file
left behind, and the self-contained replay page works in a real browser
(headless chromium): it steps, plays, jumps, shows the recorded final
position exactly and each seat's view hides what that seat may not know."""
import argparse
import json
import re

import numpy as np
import pytest

import dragongym
from dragongym.agents import play_match
from dragongym.agents.game_record import RecordError, digest, read_records, replay
from dragongym.agents.replay_media import (ReplayMediaError, add_replay_media_arguments, decision_text,
                                           frame_image, frame_segments, page_data, positions,
                                           run_replay_media, write_gif, write_html, write_mp4)
from dragongym.envs.core.game import Game
from dragongym.envs.core.picture import render_svg
from tests.browser import launched_chromium
from tests.core.toygame import RaceToTen

REAL_GAMES = ("dragonhunt", "dragons_down", "dragon_pass")
SHORT = {"dragonhunt": {"max_hands": 1}, "dragons_down": {"num_players": 2, "max_turns": 1},
         "dragon_pass": {"scenario": "18.2", "max_turns": 1}}
"""Options that end a real game in about a hundred decisions."""


def record_of(tmp_path, game, agents, seed=3, **options):
    path = tmp_path / f"{game}.jsonl"
    play_match(game, agents, 1, seed=seed, records=str(path), **options)
    return path, read_records(path)[0]


@pytest.fixture
def race_record(race, tmp_path):
    """A three-seat Race to Ten game long enough to step through (path, record)."""
    for seed in range(20):
        path, record = record_of(tmp_path, "race", ["random"] * 3, seed=seed, num_players=3)
        if len(record.actions) >= 4:
            return path, record
        path.unlink()
    raise AssertionError("no seed gave a Race to Ten game of four decisions")


def drawing_record(name, tmp_path):
    """A short recorded game of the real game ``name``, skipping where it draws nothing yet."""
    if not dragongym.get_game(name).has_pictures:
        pytest.skip(f"{name} draws no pictures yet (no picture_board): nothing to replay as pictures")
    return record_of(tmp_path, name, ["random", "random"], **SHORT[name])


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if ".partial" in p.name)


# ---------------------------------------------------------------- positions
def test_positions_are_the_replay_one_decision_at_a_time(race_record):
    _, record = race_record
    game = dragongym.get_game("race")
    seen = list(positions(record))
    assert [p.index for p in seen] == list(range(len(record.actions) + 1))
    assert (seen[0].seat, seen[0].action, seen[0].action_name) == (None, None, None)
    assert [(p.seat, p.action) for p in seen[1:]] == record.actions
    for before, after in zip(seen, seen[1:]):
        assert int(before.state[0]["to_play"]) == after.seat
        assert after.action_name == game.action_to_string(before.state, after.action)
        stepped = before.state.copy()
        errors = np.zeros(1, dtype=np.int8)
        game.step(stepped, np.array([after.action], dtype=np.int32), errors)
        assert errors[0] == 0 and stepped.tobytes() == after.state.tobytes()
    assert digest(seen[-1].state) == record.end["digest"] == digest(replay(record))
    seen[0].state[0]["counter"] = 9                  # copies: changing one leaves the others
    assert int(seen[1].state[0]["counter"]) > 0 and int(seen[-1].state[0]["counter"]) == 10


def test_a_record_that_does_not_replay_is_refused_and_nothing_is_written(race_record, tmp_path):
    _, record = race_record
    record.end["digest"] = "0" * 64
    with pytest.raises(RecordError, match="digest"):
        list(positions(record))
    out = tmp_path / "media"
    out.mkdir()
    for write, name in ((write_gif, "r.gif"), (write_mp4, "r.mp4"), (write_html, "r.html")):
        with pytest.raises(RecordError, match="digest"):
            write(record, out / name)
    assert list(out.iterdir()) == []


# ---------------------------------------------------------------- gif and mp4
def test_the_gif_has_a_frame_per_chosen_position_and_the_last(race_record, tmp_path):
    from PIL import Image

    _, record = race_record
    n = len(record.actions)
    for every in (1, 2, 3):
        path = tmp_path / f"every{every}.gif"
        expected = len(set(range(0, n + 1, every)) | {n})
        assert write_gif(record, path, fps=5, every=every) == expected
        with Image.open(path) as gif:
            assert gif.n_frames == expected
            assert gif.size == (592, 256)        # the 592 x 208 picture and its caption, multiples of 16
            assert gif.info["loop"] == 0 and gif.info["duration"] == 200
            gif.seek(gif.n_frames - 1)
            assert gif.info["duration"] >= 2000   # the result rests on screen before the loop
    assert leftovers(tmp_path) == []


def test_the_mp4_reads_back_with_a_frame_per_chosen_position(race_record, tmp_path):
    import imageio.v2 as imageio

    _, record = race_record
    n = len(record.actions)
    path = tmp_path / "game.mp4"
    assert write_mp4(record, path, fps=8, every=2) == len(set(range(0, n + 1, 2)) | {n})
    reader = imageio.get_reader(path, format="FFMPEG")
    try:
        meta = reader.get_meta_data()
        assert meta["codec"] == "h264" and meta["pix_fmt"].startswith("yuv420p") and meta["fps"] == 8
        assert meta["size"] == (592, 256)
        assert reader.count_frames() == len(set(range(0, n + 1, 2)) | {n})
        first = reader.get_data(0)
        assert first.shape == (256, 592, 3)
    finally:
        reader.close()
    # the video is the frames, lossy: the first frame is close to its picture
    picture = np.asarray(frame_image(dragongym.get_game("race"), record, next(positions(record)),
                                     list(positions(record))[1], None), dtype=np.float64)
    assert np.abs(first - picture).mean() < 6


def test_a_seat_view_hides_the_other_seats_secrets_and_decisions(race_record):
    _, record = race_record
    game = dragongym.get_game("race")
    start, after_first = list(positions(record))[:2]
    full = np.asarray(frame_image(game, record, start, after_first, None))
    own = np.asarray(frame_image(game, record, start, after_first, 0))
    other = np.asarray(frame_image(game, record, start, after_first, 1))
    assert full.shape == own.shape == other.shape
    assert (full != own).any() and (own != other).any()
    assert decision_text(record, None, 0, "add 2") == "player_0: add 2"
    assert decision_text(record, 0, 0, "add 2") == "player_0: add 2"
    assert decision_text(record, 1, 0, "add 2") == "player_0: add 2"            # a public move
    assert decision_text(record, 1, 0, "add 2", public=False) == "player_0 decided (not shown to player_1)"


def test_the_chosen_move_is_outlined_only_where_the_view_may_know_it(race_record):
    _, record = race_record
    game = dragongym.get_game("race")
    start, after_first = list(positions(record))[:2]
    marked = np.asarray(frame_image(game, record, start, after_first, None))[:208]
    unmarked = np.asarray(frame_image(game, record, start, None, None))[:208]
    # the outline is yellow, drawn on the square the move goes to
    yellow = np.all(marked == (255, 212, 0), axis=-1) & ~np.all(unmarked == (255, 212, 0), axis=-1)
    square = int(start.state[0]["counter"]) + after_first.action + 1
    cols = np.flatnonzero(yellow.any(axis=0))
    assert cols.size and 20 + 50 * square - 3 <= cols.min() and cols.max() <= 62 + 50 * square + 3
    # another seat does not see seat 0's choice (nor its options)
    other = np.asarray(frame_image(game, record, start, after_first, 1))[:208]
    assert (other == np.asarray(frame_image(game, record, start, None, 1))[:208]).all()


class BlindRace(RaceToTen):
    """Race to Ten with its pictures taken away: a game that draws nothing."""

    name = "blind_race"
    picture_board = Game.picture_board
    picture_position = Game.picture_position


BLIND_RACE = BlindRace()


@pytest.fixture
def blind_record(tmp_path):
    dragongym.register("blind_race", lambda: BLIND_RACE)
    try:
        yield record_of(tmp_path, "blind_race", ["random", "random"])
    finally:
        dragongym.envs._FACTORIES.pop("blind_race", None)
        dragongym.envs._GAMES.pop("blind_race", None)


def test_a_game_that_draws_nothing_is_refused_clearly(blind_record, tmp_path):
    _, record = blind_record
    assert not BLIND_RACE.has_pictures
    for write, name in ((write_gif, "b.gif"), (write_mp4, "b.mp4"), (write_html, "b.html")):
        with pytest.raises(ReplayMediaError, match="blind_race draws no pictures yet"):
            write(record, tmp_path / name)
        assert not (tmp_path / name).exists()


# ---------------------------------------------------------------- the command line
def run_cli(*argv):
    parser = argparse.ArgumentParser(prog="dragongym replay")
    parser.add_argument("file")
    add_replay_media_arguments(parser)
    return run_replay_media(parser.parse_args([str(a) for a in argv]))


def test_the_command_writes_each_medium_by_its_suffix(race_record, tmp_path, capsys):
    from PIL import Image

    path, record = race_record
    n = len(record.actions)
    assert run_cli(path, "--to", tmp_path / "g.gif", "--every", "2", "--fps", "2") == 0
    out = capsys.readouterr().out
    assert f"{len(set(range(0, n + 1, 2)) | {n})} frames" in out and "the full position" in out
    with Image.open(tmp_path / "g.gif") as gif:
        assert gif.info["duration"] == 500
    assert run_cli(path, "--to", tmp_path / "g.mp4", "--seat", "player_1") == 0
    assert "player_1's view" in capsys.readouterr().out
    assert run_cli(path, "--to", tmp_path / "g.html", "--seat", "2") == 0
    page = (tmp_path / "g.html").read_text()
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', page, re.S).group(1))
    assert [v["seat"] for v in data["views"]] == [2]            # a page for seat 2's eyes only
    # Race to Ten's moves are public: seat 2 reads them all; a secret one it would not
    assert all(e["text"] is not None and e["public"] for e in data["log"])


@pytest.mark.parametrize("argv, message", [
    (["--to", "{tmp}/g.avi"], "--to {tmp}/g.avi: the suffix picks the picture file, one of .gif, .mp4, "
                              ".html, not .avi"),
    (["--to", "{tmp}/g"], "not none"),
    (["--to", "{tmp}/g.gif", "--index", "1"], "--index 1: {file} holds 1 game(s), numbered 0..0"),
    (["--to", "{tmp}/g.gif", "--seat", "sartar"], "not a seat of this race game"),
    (["--to", "{tmp}/g.gif", "--seat", "3"], "give a seat 0..2, a role (player_0, player_1, player_2) or full"),
    (["--to", "{tmp}/no/such/g.gif"], "does not exist"),
    (["--to", "{tmp}/g.html", "--every", "2"], "--every is for .gif and .mp4"),
])
def test_the_command_answers_a_bad_request_in_one_line(race_record, tmp_path, capsys, argv, message):
    path, _ = race_record
    argv = [a.format(tmp=tmp_path) for a in argv]
    assert run_cli(path, *argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("dragongym: error: ")
    assert message.format(tmp=tmp_path, file=path) in err
    assert [p.name for p in tmp_path.iterdir()] == [path.name]


def test_the_command_refuses_a_corrupt_record_naming_the_game(race_record, tmp_path, capsys):
    path, _ = race_record
    bad = tmp_path / "bad.jsonl"
    bad.write_text(path.read_text().replace('"digest": "', '"digest": "0', 1))
    assert run_cli(bad, "--to", tmp_path / "g.gif") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{bad}, game 0" in err and "digest" in err
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(path.read_text().splitlines()[:-1]) + "\n")
    assert run_cli(cut, "--to", tmp_path / "g.html") == 2
    assert "no end line" in capsys.readouterr().err
    assert not (tmp_path / "g.gif").exists() and not (tmp_path / "g.html").exists()


def test_the_command_refuses_a_game_that_draws_nothing(blind_record, tmp_path, capsys):
    path, _ = blind_record
    assert run_cli(path, "--to", tmp_path / "b.mp4") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "blind_race draws no pictures yet" in err


# ---------------------------------------------------------------- the page, as data
def test_the_page_is_self_contained_and_stores_each_drawing_once(race_record, tmp_path):
    _, record = race_record
    path = tmp_path / "game.html"
    size = write_html(record, path)
    page = path.read_text()
    assert size == len(page.encode())
    # nothing to fetch: the only URL is the SVG namespace, a name, not a download
    assert set(re.findall(r"\b(?:https?|ftp)://[^\s\"'<>]+", page)) == {"http://www.w3.org/2000/svg"}
    assert not re.search(r"<(?:link|img|iframe)\b|<script[^>]*\bsrc=|@import|url\(", page)
    main = re.search(r'<main id="replay"[^>]*>', page).group(0)
    assert f'data-digest="{record.end["digest"]}"' in main
    assert f'data-frames="{len(record.actions) + 1}"' in main
    data = page_data(record)
    assert len(data["boards"]) == 1 and data["board_runs"] == [[0, len(record.actions) + 1]]
    board = dragongym.get_game("race").picture_board(replay(record))
    [board_ids] = decoded([b["segments"] for b in data["boards"]])
    assert "".join(data["fragments"][k] for k in board_ids) == board.svg_elements()
    for view in data["views"]:
        assert len(view["frames"]) == len(record.actions) + 1
    assert [v["name"] for v in data["views"]] == ["full position", "player_0's view", "player_1's view",
                                                  "player_2's view"]
    shapes = sum(sum(frame[1::2]) for v in data["views"] for frame in v["frames"])
    assert len(set(data["fragments"])) == len(data["fragments"]) < shapes / 2
    assert [(e["seat"], e["action"]) for e in data["log"]] == record.actions


def decoded(frames):
    """The fragment indices of every frame, decoded as the page's script does."""
    out, previous = [], []
    for segments in frames:
        ids = []
        for first, count in zip(segments[::2], segments[1::2]):
            ids += list(range(first, first + count)) if first >= 0 else previous[-1 - first:-1 - first + count]
        out.append(ids)
        previous = ids
    return out


def test_frames_are_stored_against_the_frame_before_and_decode_exactly():
    rng = np.random.default_rng(7)
    ids, truth, frames, previous = list(range(60)), [], [], None
    for _ in range(300):
        ids = list(ids)
        for _ in range(int(rng.integers(0, 4))):
            change = rng.integers(4)
            at = int(rng.integers(len(ids) + 1))
            if change == 0:                               # a counter drawn anew
                ids.insert(at, int(rng.integers(200)))
            elif change == 1 and at < len(ids):           # a counter gone
                del ids[at]
            elif change == 2 and at < len(ids):           # a panel line rewritten
                ids[at] = int(rng.integers(200))
            elif change == 3 and ids:                     # the same shape twice
                ids.insert(at, ids[int(rng.integers(len(ids)))])
        truth.append(ids)
        frames.append(frame_segments(previous, ids))
        previous = ids
    assert decoded(frames) == truth
    assert frame_segments(None, [4, 5, 6, 9]) == [4, 3, 9, 1]
    assert frame_segments([4, 5, 6, 9], [4, 5, 6, 9]) == [-1, 4]
    assert frame_segments([1, 2, 3, 4, 5], [1, 2, 7, 4, 5]) == [-1, 2, 7, 1, -4, 2]
    assert frame_segments([1, 2], []) == []


# ---------------------------------------------------------------- the page, in a browser
@pytest.fixture(scope="module")
def browser():
    """Headless chromium: skipped where it is missing, failed under DRAGONGYM_REQUIRE_BROWSER=1."""
    with launched_chromium() as chromium:
        yield chromium


class Page:
    """A replay page open in the browser, collecting its errors and requests."""

    def __init__(self, browser, path):
        self.page = browser.new_page()
        self.problems, self.requests = [], []
        self.page.on("pageerror", lambda error: self.problems.append(f"page error: {error}"))
        self.page.on("console", lambda m: self.problems.append(f"console error: {m.text}")
                     if m.type == "error" else None)
        self.page.on("request", lambda request: self.requests.append(request.url))
        self.url = path.resolve().as_uri()
        self.page.goto(self.url)

    def position(self):
        return self.page.inner_html("#board g.position")

    def board(self):
        return self.page.inner_html("#board g.board")

    def frame(self):
        return int(self.page.get_attribute("#replay", "data-frame"))

    def current_line(self):
        return self.page.inner_text("#log li.current")

    def parsed(self, svg):
        """``svg`` (elements) as the browser writes it back after parsing it into the board."""
        return self.page.evaluate("""(s) => { const g = document.createElementNS(
            "http://www.w3.org/2000/svg", "g"); g.innerHTML = s; return g.innerHTML; }""", svg)

    def check_clean(self):
        assert self.problems == []
        assert set(self.requests) == {self.url}          # the page itself, nothing else
        self.page.close()


def layers_of(svg_document):
    """``(board, position)``: the two groups of a render_svg document."""
    found = re.fullmatch(r'<svg [^>]*>.*?<g class="board">(.*)</g><g class="position">(.*)</g></svg>',
                         svg_document, re.S)
    return found.group(1), found.group(2)


def check_final_position(page, game, record):
    final = replay(record)
    board, position = layers_of(render_svg(game, final, None))
    page.page.click("#last")
    assert page.frame() == len(record.actions)
    assert page.position() == page.parsed(position)
    assert page.board() == page.parsed(board)
    assert page.page.get_attribute("#replay", "data-digest") == digest(final)
    assert int(page.page.get_attribute("#replay", "data-frames")) == len(record.actions) + 1


def test_the_page_steps_plays_and_ends_on_the_recorded_final_position(race_record, browser, tmp_path):
    _, record = race_record
    record.agents[0] = "</script><!-- a name that must stay text"
    path = tmp_path / "race.html"
    write_html(record, path)
    page = Page(browser, path)
    assert "</script><!-- a name that must stay text" in page.page.inner_text("#seats")
    assert page.frame() == 0 and page.current_line().startswith("0")
    start, line = page.position(), page.current_line()
    page.page.click("#forward")
    assert page.frame() == 1 and page.position() != start and page.current_line() != line
    assert "player_1" in page.current_line()       # decision 1, the second seat's
    page.page.click("#back")
    assert page.frame() == 0 and page.position() == start
    page.page.keyboard.press("ArrowRight")
    page.page.keyboard.press("ArrowRight")
    assert page.frame() == 2
    page.page.keyboard.press("ArrowLeft")
    assert page.frame() == 1
    page.page.keyboard.press("End")
    assert page.frame() == len(record.actions)
    page.page.keyboard.press("Home")
    assert page.frame() == 0
    page.page.click("#log li:nth-child(4)")       # decision 3's line: the position it is taken in
    assert page.frame() == 3 and page.current_line().startswith("3")
    page.page.fill("#slider", "2")
    assert page.frame() == 2
    check_final_position(page, dragongym.get_game("race"), record)
    assert "game over" in page.current_line()
    page.page.select_option("#speed", "64")
    page.page.click("#play")                       # from the end, play starts again at the start
    page.page.wait_for_function("document.getElementById('replay').dataset.frame === "
                                f"'{len(record.actions)}'", timeout=5000)
    page.check_clean()


def test_a_seat_view_shows_only_that_seats_secret(race_record, browser, tmp_path, monkeypatch):
    _, record = race_record
    path = tmp_path / "race.html"
    write_html(record, path)
    page = Page(browser, path)
    game = dragongym.get_game("race")
    start = next(positions(record)).state
    secrets = [int(s) for s in start[0]["secret"][:3]]
    full = page.position()
    assert all(f"player_{p}: secret {secrets[p]}" in full for p in range(3))
    page.page.select_option("#view", label="player_1's view")
    seen = page.position()
    assert seen != full and seen == page.parsed(layers_of(render_svg(game, start, 1))[1])
    assert f"player_1: secret {secrets[1]}" in seen
    assert "player_0: secret ?" in seen and "player_2: secret ?" in seen
    assert "player_0: add" in page.page.inner_text("#log li:nth-child(1)")   # a public move: every view reads it
    page.check_clean()
    # were the moves secret (Game.decision_is_public), a seat would read only its own
    monkeypatch.setattr(type(game), "decision_is_public", lambda self, state, action: False)
    secret = tmp_path / "secret.html"
    write_html(record, secret)
    page = Page(browser, secret)
    page.page.select_option("#view", label="player_1's view")
    assert "not shown to player_1" in page.page.inner_text("#log li:nth-child(1)")   # player_0's move
    page.page.click("#forward")
    assert "player_1: add" in page.current_line()   # its own decision it knows
    page.page.select_option("#view", label="full position")
    assert "player_0: add" in page.page.inner_text("#log li:nth-child(1)")
    page.check_clean()


@pytest.mark.parametrize("name", REAL_GAMES)
def test_a_real_game_page_ends_on_its_recorded_final_position(name, browser, tmp_path):
    _, record = drawing_record(name, tmp_path)
    game = dragongym.get_game(name)
    path = tmp_path / f"{name}.html"
    write_html(record, path)
    page = Page(browser, path)
    start = page.position()
    page.page.click("#forward")
    assert page.frame() == 1 and page.position() != start
    check_final_position(page, game, record)
    if len(page.page.query_selector_all("#view option")) > 1:
        full = page.position()
        page.page.select_option("#view", index=1)
        assert page.page.get_attribute("#replay", "data-frame") == str(len(record.actions))
        assert page.position() == page.parsed(layers_of(render_svg(game, replay(record), 0))[1])
        assert full == page.parsed(layers_of(render_svg(game, replay(record), None))[1])
    page.check_clean()


@pytest.mark.parametrize("name", REAL_GAMES)
def test_a_real_game_becomes_a_gif_and_an_mp4(name, tmp_path):
    import imageio.v2 as imageio
    from PIL import Image

    _, record = drawing_record(name, tmp_path)
    n = len(record.actions)
    every = max(1, n // 4)
    expected = len(set(range(0, n + 1, every)) | {n})
    assert write_gif(record, tmp_path / "g.gif", every=every) == expected
    with Image.open(tmp_path / "g.gif") as gif:
        assert gif.n_frames == expected
        width, height = gif.size
    assert width % 16 == 0 and height % 16 == 0
    assert write_mp4(record, tmp_path / "g.mp4", every=every) == expected
    reader = imageio.get_reader(tmp_path / "g.mp4", format="FFMPEG")
    try:
        assert reader.count_frames() == expected and reader.get_meta_data()["size"] == (width, height)
    finally:
        reader.close()


def first_position(name, options, phase, seeds=range(6), steps=3000):
    """A random-play position of ``name`` whose pending decision is ``phase``."""
    game = dragongym.get_game(name)
    config = game.make_config(**options)
    errors = np.zeros(1, dtype=np.int8)
    for seed in seeds:
        rng = np.random.default_rng(seed)
        state = game.new_states(1)
        game.reset(state, np.array([seed], dtype=np.uint64), config)
        for _ in range(steps):
            if int(state[0]["status"]) != 0:
                break
            if int(state[0]["phase"]) == phase:
                return game, state
            action = int(rng.choice(np.flatnonzero(game.mask_of(state))))
            game.step(state, np.array([action], dtype=np.int32), errors)
    raise AssertionError(f"random play of {name} never reached phase {phase}")


@pytest.mark.parametrize("name, options, secret_phase", [
    ("dragonhunt", {"num_players": 3}, "PH_CARD"),           # a movement card laid face down (9.11)
    ("dragons_down", {"num_players": 2}, "PH_TACTICS"),      # Hero Tactics placed in secret
])
def test_a_secret_decision_is_not_public_and_the_others_are(name, options, secret_phase):
    import importlib

    rules = importlib.import_module(f"dragongym.envs.{name}.rules")
    game, state = first_position(name, options, getattr(rules, secret_phase))
    action = int(np.flatnonzero(game.mask_of(state))[0])
    assert game.decision_is_public(state, action) is False
    start = game.new_states(1)
    game.reset(start, np.array([0], dtype=np.uint64), game.make_config(**options))
    assert game.decision_is_public(start, int(np.flatnonzero(game.mask_of(start))[0])) is True


def test_dragon_pass_decisions_are_public_unless_screening_hides_the_counters():
    game = dragongym.get_game("dragon_pass")
    for screening in (False, True):
        state = game.new_states(1)
        game.reset(state, np.array([1], dtype=np.uint64), game.make_config(scenario="18.1", screening=screening))
        action = int(np.flatnonzero(game.mask_of(state))[0])
        assert game.decision_is_public(state, action) is (not screening)
