"""A person against bots in the browser (agents/play_web.py): headless
Chromium plays whole games by clicking the highlighted shapes of the board
(and an entry of the list a shape offers when several actions share it),
saves the record, which replays to the same final state; the JSON endpoints
refuse bad and illegal actions with 400 and leave the game unchanged; the
page raises no errors."""
import json
import socket
import signal
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager

import numpy as np
import pytest

import dragongym
from dragongym.agents.game_record import digest, read_records, replay
from dragongym.agents.play import PlaySession
from dragongym.agents.play_web import PlayServer, serve
from dragongym.envs.core.picture import PALETTE
from tests.browser import launched_chromium
from tests.core.toygame import RaceToTen

SHORT_REAL = {"dragons_down": {"num_players": 2, "max_turns": 1}}
"""Real games played through the page, with options that truncate them early:
Dragons Down's first turn is ~35 decisions of yours (a hand of Dragonhunt
~75, a turn of Dragon Pass ~190: too long for a browser test)."""


class RaceWithMoveButton(RaceToTen):
    """Race to Ten whose picture also has a "move" button carrying every legal
    move: one shape offering several actions, as a map space does where more
    than one decision can start."""

    name = "race_button"

    def picture_position(self, state, seat):
        scene = super().picture_position(state, seat)
        if int(state[0]["status"]) == 0 and (seat is None or seat == int(state[0]["to_play"])):
            legal = tuple(int(a) for a in np.flatnonzero(self.mask_of(state)))
            scene.rect(420, 110, 570, 180, fill=PALETTE["panel"], outline=PALETTE["ink"], width=2,
                       actions=legal, title="move")
            scene.text(495, 145, "move", size=16)
        return scene


@pytest.fixture
def race_button():
    dragongym.register("race_button", lambda: RaceWithMoveButton())
    yield "race_button"
    dragongym.envs._FACTORIES.pop("race_button", None)
    dragongym.envs._GAMES.pop("race_button", None)


@contextmanager
def served(session):
    server = PlayServer(session).start()
    try:
        yield server
    finally:
        server.shutdown()


@pytest.fixture(scope="module")
def browser():
    """Headless chromium: skipped where it is missing, failed under DRAGONGYM_REQUIRE_BROWSER=1."""
    with launched_chromium() as chromium:
        yield chromium


@contextmanager
def page_of(browser, url):
    """A fresh page on ``url``; on leaving, asserts it logged no page or console error."""
    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on("console", lambda message: errors.append(f"console: {message.text}")
            if message.type == "error" else None)
    page.goto(url)
    page.wait_for_function("() => document.getElementById('status').textContent !== ''")  # the first state shown
    try:
        yield page
        assert errors == []
    finally:
        context.close()


def settled(page, log_length):
    """Wait until the page shows more than ``log_length`` decisions, or the
    game's end, and no request is in flight."""
    page.wait_for_function(
        "n => !document.body.classList.contains('busy') && "
        "(document.querySelectorAll('#log li').length > n || !document.getElementById('result').hidden)",
        arg=log_length, timeout=30_000)


def play_by_clicking(page, session, rng, limit=400, prefer_lists=False):
    """Click the board until the game is over: a random highlighted shape
    (with ``prefer_lists``, one offering several actions where there is one),
    then, when it offers a list, a random entry. Returns how many clicks took
    a shape's one action, went through a list, and (a decision the game drew
    no shape for) took a button of the actions list."""
    clicks = {"shape": 0, "list": 0, "button": 0}
    for _ in range(limit):
        if page.locator("#result").is_visible():
            return clicks
        length = page.locator("#log li").count()
        live = page.locator("#board .act.live")
        if live.count():
            legal = dict(session.legal_actions())
            offers = [[a for a in text.split() if int(a) in legal] for text in live.evaluate_all(
                "shapes => shapes.map(s => s.getAttribute('data-actions'))")]
            several = [k for k, offer in enumerate(offers) if len(offer) > 1]
            k = int(rng.choice(several)) if prefer_lists and several else int(rng.integers(len(offers)))
            offered = offers[k]
            live.nth(k).click()
            if len(offered) > 1:
                entries = page.locator("#chooser button")
                entries.first.wait_for()
                assert entries.count() == len(offered)
                entries.nth(int(rng.integers(len(offered)))).click()
                clicks["list"] += 1
            else:
                clicks["shape"] += 1
        else:
            buttons = page.locator("#actions button")
            buttons.nth(int(rng.integers(buttons.count()))).click()
            clicks["button"] += 1
        settled(page, length)
    raise AssertionError(f"the game did not end within {limit} clicks")


def save_and_replay(page, session, tmp_path):
    """Save the record on the server and as a download; both replay to the session's final state."""
    path = tmp_path / "played.jsonl"
    page.fill("#savepath", str(path))
    page.click("#save")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('saved ')")
    with page.expect_download() as download:
        page.click("#download")
    for saved in (path, download.value.path()):
        [record] = read_records(saved)
        assert "unfinished" not in record.end
        assert digest(replay(record, session.game)) == digest(session.state)


def test_a_person_clicks_through_race_to_ten_with_undo_and_saves(browser, race, tmp_path):
    session = PlaySession(race, {"num_players": 3}, seat=0, opponents=["random"], seed=7)
    rng = np.random.default_rng(1)
    with served(session) as server, page_of(browser, server.url) as page:
        assert page.locator("#board .act.live").count() == len(session.legal_actions())
        assert page.locator("#actions button").count() == len(session.legal_actions())
        # one decision, then undo: the page and the game are back where they were
        page.locator("#board .act.live").first.click()
        settled(page, 0)
        assert page.locator("#log li").count() == len(session.decisions) == 3
        page.click("#undo")
        page.wait_for_function("() => document.querySelectorAll('#log li').length === 0")
        assert session.decisions == [] and page.locator("#undo").is_disabled()
        clicks = play_by_clicking(page, session, rng)
        assert clicks["shape"] > 0 and clicks["list"] == 0 and clicks["button"] == 0
        assert session.finished
        assert page.locator("#result").inner_text() == session.result_text()
        assert page.locator("#board .act.live").count() == 0 and page.locator("#actions button").count() == 0
        assert page.locator("#log li").count() == len(session.decisions)
        save_and_replay(page, session, tmp_path)


def test_a_shape_offering_several_actions_lists_them(browser, race_button, tmp_path):
    session = PlaySession(race_button, seat=1, opponents=["random"], seed=3)
    rng = np.random.default_rng(2)
    with served(session) as server, page_of(browser, server.url) as page:
        button = page.locator("#board .act.live", has=page.locator("title", has_text="move"))
        button.click()
        names = [name for _, name in session.legal_actions()]
        assert page.locator("#chooser button").all_inner_texts() == names
        page.keyboard.press("Escape")                    # the list closes and nothing is played
        assert page.locator("#chooser").is_hidden() and page.locator("#log li").count() == 1
        clicks = play_by_clicking(page, session, rng, prefer_lists=True)
        assert clicks["list"] > 0 and clicks["button"] == 0
        save_and_replay(page, session, tmp_path)


@pytest.mark.parametrize("game_name", sorted(SHORT_REAL))
def test_a_person_clicks_through_a_short_real_game(browser, game_name, tmp_path):
    game = dragongym.get_game(game_name)
    if not game.has_pictures:
        pytest.skip(f"{game_name} draws no pictures yet (its Game.picture_board is not written)")
    session = PlaySession(game_name, SHORT_REAL[game_name], seat=0, opponents=["random"], seed=5)
    rng = np.random.default_rng(3)
    with served(session) as server, page_of(browser, server.url) as page:
        clicks = play_by_clicking(page, session, rng, limit=2000)
        assert session.finished and clicks["shape"] + clicks["list"] > 0
        save_and_replay(page, session, tmp_path)


# ---------------------------------------------------------------- the JSON endpoints
def post(url, body, content_type="application/json"):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        with error:                              # closed: no unclosed socket left for a later test's warnings
            return error.code, json.loads(error.read())


def get(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def test_bad_and_illegal_actions_get_400_and_change_nothing(race, tmp_path):
    session = PlaySession(race, seat=0, opponents=["random"], seed=2)
    with served(session) as server:
        api = server.url + "api/"
        before, state = digest(session.state), get(api + "state")
        assert [x["name"] for x in state["legal"]] == ["add 1", "add 2", "add 3"]
        for body, why in [({"action": 7}, "not a legal action"), ({"action": True}, "integer action id"),
                          ({"action": "add 1"}, "integer action id"), ({"move": 0}, "send a JSON object"),
                          (b"not json", "send a JSON object"),
                          (b"[" * 100_000 + b"]" * 100_000, "send a JSON object"),
                          (b'{"action": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", "send a JSON object")]:
            status, answer = post(api + "act", body)
            assert status == 400 and why in answer["error"], answer
        status, answer = post(api + "act", {"action": 0}, content_type="text/plain")   # a cross-site form
        assert status == 400
        assert post(api + "undo", {}) == (400, {"error": "nothing to undo: you have not decided anything yet"})
        status, answer = post(api + "save", {"path": str(tmp_path / "no" / "such.jsonl")})
        assert status == 400 and "does not exist" in answer["error"]
        assert digest(session.state) == before and get(api + "state") == state
        status, answer = post(api + "act", {"action": 2})
        assert status == 200 and answer["log"][0] == {"seat": 0, "role": "player_0", "player": "human",
                                                      "name": "add 3"}
        assert answer == get(api + "state")


def test_the_server_listens_on_127_0_0_1_only_and_answers_only_requests_for_it(race):
    session = PlaySession(race, opponents=["random"])
    for host in ("0.0.0.0", "localhost", "192.168.1.2", "::"):
        with pytest.raises(ValueError, match="127.0.0.1 only"):
            PlayServer(session, host=host)
    with served(session) as server:
        assert server.server.server_address[0] == "127.0.0.1"
        rebound = urllib.request.Request(server.url + "api/state", headers={"Host": f"evil.example:{server.port}"})
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(rebound, timeout=30)
        refused.value.close()                    # its connection, else a ResourceWarning in a later test
        assert refused.value.code == 400
        with urllib.request.urlopen(server.url, timeout=30) as response:
            page = response.read().decode()
        assert "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "https://" not in page and "<script src" not in page


def test_the_command_serves_the_game_and_saves_it_when_stopped(tmp_path):
    pexpect = pytest.importorskip("pexpect", reason="the command is driven through a pseudo-terminal by pexpect")
    saved = tmp_path / "web.jsonl"
    child = pexpect.spawn(sys.executable, ["-m", "dragongym.training.cli", "play", "--game", "dragonhunt", "--web",
                                           "--max-hands", "1", "--opponents", "random", "--save", str(saved)],
                          cwd=str(tmp_path), encoding="utf-8", timeout=90,
                          # a suite started as a background job (`pytest &`) ignores SIGINT, and
                          # so would the server it spawns: Ctrl-C must reach the server here
                          preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        child.expect(r"open (http://127\.0\.0\.1:\d+/) in a browser")
        url = child.match.group(1)
        state = get(url + "api/state")
        assert state["game"] == "dragonhunt" and state["your_turn"] and state["picture"] is not None
        status, answer = post(url + "api/act", {"action": state["legal"][0]["action"]})
        assert status == 200 and answer["decisions"] >= 1
        child.sendintr()                                   # Ctrl-C stops the server and saves
        child.expect_exact(f"saved {answer['decisions']} decisions to {saved} (an unfinished game)")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 0
    [record] = read_records(saved)
    assert len(record.actions) == answer["decisions"] and record.end["unfinished"]
    replay(record)


def test_a_port_in_use_is_a_one_line_error(race, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        assert serve(PlaySession(race, opponents=["random"]), port=taken.getsockname()[1]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "cannot serve on 127.0.0.1:" in err
