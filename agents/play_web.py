"""A person plays a game against bots in the browser: the play session served on 127.0.0.1.

    dragongym play --game dragonhunt --web --port 8765

One page (inline CSS and JavaScript, nothing fetched from elsewhere) shows
the board as the person's seat may know it (the game's picture as SVG, as
:func:`dragongym.envs.core.picture.render_svg` draws it, its board layer sent
once; the text picture for a game that draws none yet), with the shapes of
the legal actions highlighted: a click on a shape plays its action,
or offers a small list when several actions share the shape. Every legal
action is a button too; the log of decisions grows beside the board; undo,
save (to a file on the server, or a download) and the result at the end.

The page talks to JSON endpoints, usable by scripts too:

    GET  /api/state    the position: whose turn, legal actions, picture, log, result
    GET  /api/board/K  the board layer of the picture whose ``board_key`` is K
    POST /api/act      {"action": 17}: the person's decision (the bots then answer)
    POST /api/undo     {}: take back the person's last decision
    POST /api/save     {"path": "game.jsonl"}: write the game record on the server
    GET  /api/record   the game record, as a file to download

A request the session refuses (an action that is not a legal one, undo with
nothing to undo, a path that cannot be written) is answered 400 with
``{"error": "..."}`` and leaves the game as it was. The server listens on
127.0.0.1 only, answers only requests addressed to 127.0.0.1 or localhost
(a page of another site cannot reach it through a rebound domain name), and
takes only JSON bodies in POSTs (which a page of another site cannot send it
without a CORS preflight this server never grants).
"""
import hashlib
import json
import socket
import sys
import threading

from flask import Flask, Response, jsonify, request
from werkzeug.serving import WSGIRequestHandler, make_server

from dragongym.agents.play import PlayError
from dragongym.envs.core.picture import PALETTE, board_layer, board_svg

HOST = "127.0.0.1"
"""The only address the play server listens on."""


def picture_json(session, boards):
    """The picture of ``session``'s position in two layers, as the page draws
    it: ``{"board_key", "width", "height", "background", "position"}``.

    ``position`` is the SVG elements of the position layer as the person's
    seat may know it (the full position once the game is over), the live
    choices carrying ``data-actions``; the board layer, the same for every
    position with the same ``board_key``, is fetched once from
    ``/api/board/<board_key>`` (a map's board is most of its picture).
    ``boards`` (``{board_key: board SVG elements}``) keeps those served.
    """
    game, state = session.game, session.state
    scene, _ = board_layer(game, state)
    key = hashlib.sha256(repr((game.name, game.picture_board_key(state))).encode()).hexdigest()[:16]
    if key not in boards:
        boards[key] = board_svg(game, state)
    seat = None if session.finished else session.seat
    return {"board_key": key, "width": scene.width, "height": scene.height,
            "background": scene.background or PALETTE["paper"],
            "position": game.picture_position(state, seat).svg_elements()}


def state_json(session, saved_to=None, boards=None):
    """What the page shows of ``session`` (a :class:`PlaySession`), as a dict.

    Keys: ``game``, ``version``, ``roles``, ``players`` (agent id per seat,
    ``"human"`` for the person), ``seat`` and ``you`` (the person's seat and
    role), ``to_play`` (-1 once over), ``your_turn``, ``finished``,
    ``stopped`` (a failed bot's message, or null), ``status`` (one line),
    ``result`` (how the game ended, or null), ``legal`` (``[{"action",
    "name"}]``), ``picture`` (:func:`picture_json`, with ``boards``, or null
    for a game that draws no pictures), ``text`` (the text picture, for a
    game without pictures: it shows the full position; else null), ``log``
    (``[{"seat", "role", "player", "name"}]``), ``can_undo``, ``decisions``
    and ``saved_to`` (where the game was last saved automatically, or null).
    """
    game = session.game
    picture = picture_json(session, {} if boards is None else boards) if game.has_pictures else None
    return {
        "game": game.name, "version": int(session.spec.version), "roles": list(session.roles),
        "players": list(session.labels), "seat": session.seat, "you": session.roles[session.seat],
        "to_play": session.to_play, "your_turn": session.your_turn, "finished": session.finished,
        "stopped": session.failure.message if session.failure is not None else None,
        "status": session.status_text(), "result": session.result_text() if session.finished else None,
        "legal": [{"action": a, "name": name} for a, name in session.legal_actions()],
        "picture": picture, "text": None if picture is not None else session.text_picture(),
        "log": [{"seat": d.seat, "role": d.role, "player": d.player, "name": d.name}
                for d in session.decisions],
        "can_undo": session.can_undo(), "decisions": len(session.decisions), "saved_to": saved_to,
    }


def make_app(session, autosave=None):
    """The Flask app serving ``session``; with ``autosave`` (a path) the game
    is saved there whenever a decision ends it or a bot fails."""
    app = Flask(__name__)
    # requests must name this machine: a rebound domain name of another site is refused (400)
    app.config["TRUSTED_HOSTS"] = ["127.0.0.1", "localhost"]
    lock = threading.Lock()          # one request at a time changes or reads the game
    saved = {"to": None}
    boards = {}                      # board_key -> the board layer's SVG elements

    def shown():
        return jsonify(state_json(session, saved["to"], boards))

    def refuse(message):
        return jsonify({"error": message}), 400

    def body():
        """The request's JSON object, or None (a form post, no JSON at all, or
        JSON nested too deeply for the parser: Python's json raises
        RecursionError there, not the ValueError Flask's ``silent`` catches)."""
        try:
            data = request.get_json(silent=True)
        except RecursionError:
            return None
        return data if isinstance(data, dict) else None

    @app.get("/")
    def page():
        return Response(PAGE.replace("/*SEATS*/", json.dumps(list(PALETTE["seats"]))),
                        mimetype="text/html")

    @app.get("/api/state")
    def state():
        with lock:
            return shown()

    @app.get("/api/board/<key>")
    def board(key):
        with lock:
            if key not in boards:
                return jsonify({"error": f"no board {key!r} was drawn here"}), 404
            return jsonify({"board": boards[key]})

    @app.post("/api/act")
    def act():
        data = body()
        if data is None or "action" not in data:
            return refuse('send a JSON object {"action": <action id>}')
        action = data["action"]
        if type(action) is not int:      # JSON true or 17.0 is no action id
            return refuse(f"an action is an integer action id, not {json.dumps(action)}")
        with lock:
            try:
                session.choose(action)
            except PlayError as error:
                return refuse(str(error))
            if autosave and not session.live:
                try:
                    saved["to"] = session.save(autosave)
                except PlayError as error:
                    print(f"dragongym play: {error}", file=sys.stderr)
            return shown()

    @app.post("/api/undo")
    def undo():
        if body() is None:
            return refuse("send a JSON object ({} will do)")
        with lock:
            try:
                session.undo()
            except PlayError as error:
                return refuse(str(error))
            return shown()

    @app.post("/api/save")
    def save():
        data = body()
        path = data.get("path") if data is not None else None
        if not isinstance(path, str) or not path.strip():
            return refuse('send a JSON object {"path": "<file on the server>"}')
        with lock:
            try:
                where = session.save(path.strip())
            except PlayError as error:
                return refuse(str(error))
            return jsonify({"saved": where, "decisions": len(session.decisions),
                            "unfinished": not session.finished})

    @app.get("/api/record")
    def record():
        with lock:
            text = session.record_text()
            name = f"{session.game.name}-seed{session.seed}-{len(session.decisions)}.jsonl"
        return Response(text, mimetype="application/x-ndjson",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    return app


class _QuietHandler(WSGIRequestHandler):
    """Werkzeug's request handler without the access line per request (the
    terminal keeps the address and errors); errors are still logged."""

    def log_request(self, code="-", size="-"):
        pass


class PlayServer:
    """``session`` served on 127.0.0.1 at ``port`` (0: a free one); see :attr:`url`.

    Raises ValueError for any other ``host`` (the page can save files on this
    machine: it is never offered to the network) and OSError when the port
    cannot be taken.
    """

    def __init__(self, session, port=0, host=HOST, autosave=None):
        if host != HOST:
            raise ValueError(f"the play server listens on {HOST} only, not {host!r}")
        self.session = session
        self.app = make_app(session, autosave)
        # bound here, not by werkzeug, which answers a taken port with sys.exit
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            listener.bind((HOST, int(port)))
            listener.listen(64)
            self.server = make_server(HOST, int(port), self.app, threaded=True, request_handler=_QuietHandler,
                                      fd=listener.fileno())
        finally:
            listener.close()             # the server holds its own duplicate of the socket
        self.port = self.server.server_address[1]
        self.url = f"http://{HOST}:{self.port}/"
        self._thread = None

    def serve_forever(self):
        self.server.serve_forever()

    def start(self):
        """Serve from a background thread (tests, notebooks); returns self."""
        self._thread = threading.Thread(target=self.server.serve_forever, name="dragongym-play", daemon=True)
        self._thread.start()
        return self

    def shutdown(self):
        """Stop serving and free the port."""
        self.server.shutdown()
        self.server.server_close()
        if self._thread is not None:
            self._thread.join()


def serve(session, port=0, autosave=None, out=None):
    """Serve ``session`` until Ctrl-C, printing its address; with ``autosave``
    the game is saved there when it ends and when the server stops. Returns
    the exit status (0; 2 when the port cannot be taken)."""
    out = out or sys.stdout
    try:
        server = PlayServer(session, port=port, autosave=autosave)
    except OSError as error:
        print(f"dragongym play: error: cannot serve on {HOST}:{port}: {error.strerror}", file=sys.stderr)
        return 2
    print(f"dragongym play: {session.game.name}, you are {session.roles[session.seat]}; open {server.url} "
          "in a browser (Ctrl-C stops the server)", file=out, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print(file=out)
    finally:
        server.server.server_close()
    if autosave:
        try:
            where = session.save(autosave)
            print(f"saved {len(session.decisions)} decisions to {where}"
                  f"{'' if session.finished else ' (an unfinished game)'}", file=out)
        except PlayError as error:
            print(f"dragongym play: {error}", file=sys.stderr)
    return 0


PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>dragongym play</title>
<link rel="icon" href="data:,">
<style>
  body { margin: 0; font: 14px "DejaVu Sans", sans-serif; background: #fbf8f0; color: #202020; }
  body.busy, body.busy * { cursor: progress !important; }
  header { padding: 8px 16px; background: #f1ede2; border-bottom: 1px solid #d8d0bc; }
  header b { margin-right: 12px; }
  main { display: flex; gap: 16px; padding: 12px 16px; align-items: flex-start; }
  #boardwrap { position: relative; flex: 0 1 auto; min-width: 0; }
  #board svg { display: block; max-width: 100%; height: auto; }
  /* only the live shapes take clicks: a label or counter drawn over a shape lets the click through */
  #board svg * { pointer-events: none; }
  /* the game draws its legal choices marked (envs/core/picture.py); the page adds the hover */
  #board .act.live { pointer-events: all; cursor: pointer; }
  #board .act.live:hover { stroke: #ffd400; stroke-width: 5px; stroke-opacity: 1; }
  #text { margin: 0; font: 13px "DejaVu Sans Mono", monospace; white-space: pre; overflow: auto; }
  #chooser { position: absolute; z-index: 2; background: #fff; border: 1px solid #202020;
             box-shadow: 2px 2px 8px rgba(0,0,0,.3); padding: 4px; max-height: 320px; overflow: auto; }
  #chooser button { display: block; width: 100%; text-align: left; margin: 1px 0; }
  aside { flex: 0 0 360px; }
  aside h3 { margin: 14px 0 4px; font-size: 14px; }
  #actions { max-height: 320px; overflow: auto; }
  #actions button { display: block; width: 100%; text-align: left; margin: 1px 0; }
  #filter { width: 100%; box-sizing: border-box; margin-bottom: 4px; }
  #result { padding: 8px; margin-bottom: 8px; background: #ffd400; font-weight: bold; }
  #result.stopped { background: #f3c0b8; }
  #message { min-height: 1.2em; }
  #message.error { color: #c0392b; }
  #tools { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; }
  #savepath { flex: 1 1 140px; }
  #log { max-height: 260px; overflow: auto; margin: 0; padding-left: 2.6em; font-size: 13px; }
  #log li.you { font-weight: bold; }
</style>
</head>
<body>
<header><b id="title">dragongym play</b><span id="status"></span></header>
<main>
  <section id="boardwrap">
    <div id="board"></div>
    <pre id="text" hidden></pre>
    <div id="chooser" hidden></div>
  </section>
  <aside>
    <div id="result" hidden></div>
    <div id="message" role="status"></div>
    <h3>Your choices</h3>
    <input id="filter" type="search" placeholder="filter your choices" hidden>
    <div id="actions"></div>
    <h3>Game</h3>
    <div id="tools">
      <button id="undo" type="button">Undo</button>
      <input id="savepath" type="text" placeholder="file on the server, e.g. game.jsonl">
      <button id="save" type="button">Save</button>
      <a id="download" href="/api/record" download>download the record</a>
    </div>
    <h3>Log</h3>
    <ol id="log"></ol>
  </aside>
</main>
<script>
"use strict";
const SEATS = /*SEATS*/;
const $ = (id) => document.getElementById(id);
let current = null;
let busy = false;
let boardKey = null;

async function call(path, body) {
  const options = body === undefined ? {} :
    {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function say(text, error) {
  $("message").textContent = text || "";
  $("message").className = error ? "error" : "";
}

function setBusy(on) {
  busy = on;
  document.body.classList.toggle("busy", on);
  document.querySelectorAll("aside button, #chooser button").forEach((b) => { b.disabled = on; });
  if (!on && current) $("undo").disabled = !current.can_undo;
}

async function request(path, body, done) {
  if (busy) return;
  setBusy(true);
  try {
    const data = await call(path, body);
    say("");
    await (done || show)(data);
  } catch (error) {
    say(error.message, true);
  } finally {
    setBusy(false);
  }
}

function act(action) { hideChooser(); request("/api/act", {action: action}); }

function legalNames() { return new Map((current ? current.legal : []).map((x) => [x.action, x.name])); }

function shapeActions(shape, legal) {
  return (shape.getAttribute("data-actions") || "").split(" ").filter((x) => x !== "")
    .map(Number).filter((a) => legal.has(a));
}

function choiceButton(action, name) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = name;
  button.dataset.action = String(action);
  button.addEventListener("click", (event) => { event.stopPropagation(); act(action); });
  return button;
}

function showChooser(actions, legal, event) {
  const chooser = $("chooser");
  chooser.replaceChildren(...actions.map((a) => choiceButton(a, legal.get(a))));
  const box = $("boardwrap").getBoundingClientRect();
  chooser.style.left = (event.clientX - box.left + 8) + "px";
  chooser.style.top = (event.clientY - box.top + 8) + "px";
  chooser.hidden = false;
}

function hideChooser() { $("chooser").hidden = true; }

function showActions() {
  const wanted = $("filter").value.trim().toLowerCase();
  const shown = current.legal.filter((x) => x.name.toLowerCase().includes(wanted));
  $("actions").replaceChildren(...shown.map((x) => choiceButton(x.action, x.name)));
}

// the board layer is drawn once per board_key; each position replaces only the layer above it
async function showPicture(picture) {
  if (picture.board_key !== boardKey) {
    const layer = await call("/api/board/" + picture.board_key);
    $("board").innerHTML =
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${picture.width} ${picture.height}" ` +
      `width="${picture.width}" height="${picture.height}" font-family="DejaVu Sans, sans-serif">` +
      `<rect width="100%" height="100%" fill="${picture.background}"/>` +
      `<g class="board">${layer.board}</g><g class="position"></g></svg>`;
    boardKey = picture.board_key;
  }
  $("board").querySelector("g.position").innerHTML = picture.position;
}

async function show(state) {
  hideChooser();
  if (state.picture) await showPicture(state.picture);
  current = state;
  $("title").textContent = `${state.game} v${state.version}: you are ${state.you} (seat ${state.seat})`;
  $("status").textContent = state.status;
  if (state.picture) {
    const legal = legalNames();
    $("board").querySelectorAll(".act").forEach((shape) => {
      shape.classList.toggle("live", state.your_turn && shapeActions(shape, legal).length > 0);
    });
    $("text").hidden = true;
  } else {
    boardKey = null;
    $("board").textContent = "This game draws no picture yet; here is its text picture:";
    $("text").textContent = state.text;
    $("text").hidden = false;
  }
  $("filter").hidden = state.legal.length <= 12;
  if ($("filter").hidden) $("filter").value = "";
  showActions();
  const ending = state.stopped || state.result;
  $("result").hidden = !ending;
  $("result").textContent = ending ? (state.stopped ? "Stopped: " + state.stopped : state.result) : "";
  $("result").className = state.stopped ? "stopped" : "";
  $("log").replaceChildren(...state.log.map((d) => {
    const item = document.createElement("li");
    item.textContent = `${d.role} (${d.player === "human" ? "you" : d.player}): ${d.name}`;
    item.style.color = SEATS[d.seat % SEATS.length];
    if (d.player === "human") item.className = "you";
    return item;
  }));
  $("log").scrollTop = $("log").scrollHeight;
  $("undo").disabled = !state.can_undo;
  if (state.saved_to) say("saved to " + state.saved_to);
}

$("board").addEventListener("click", (event) => {
  const shape = event.target.closest(".act.live");
  if (!shape || busy || !current || !current.your_turn) { hideChooser(); return; }
  const legal = legalNames();
  const actions = shapeActions(shape, legal);
  event.stopPropagation();
  if (actions.length === 1) act(actions[0]);
  else if (actions.length > 1) showChooser(actions, legal, event);
});
document.addEventListener("click", (event) => {
  if (!$("chooser").contains(event.target)) hideChooser();
});
document.addEventListener("keydown", (event) => { if (event.key === "Escape") hideChooser(); });
$("filter").addEventListener("input", showActions);
$("undo").addEventListener("click", () => request("/api/undo", {}));
$("save").addEventListener("click", () => {
  const path = $("savepath").value.trim();
  if (!path) { say("type the file's path on the server first", true); return; }
  request("/api/save", {path: path}, (data) => {
    say(`saved ${data.decisions} decisions to ${data.saved}${data.unfinished ? " (an unfinished game)" : ""}`);
  });
});
request("/api/state");
</script>
</body>
</html>
"""
