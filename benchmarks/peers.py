"""The throughput measurement of ``benchmarks/throughput.py`` for peer libraries,
in the same run, with our figures beside theirs as ratios (for every game of
ours in the run). Built on :mod:`dragongym.benchmarks.suite`; it does not
import the throughput script (which imports it for ``--peers``).

Peers (each skipped cleanly, with the reason, when not installed; install them
with ``pip install -e ".[peers]"``):

* PettingZoo classic: ``connect_four_v3``, ``chess_v6`` (needs ``chess``): the
  AEC loop, a random legal action from the mask, as for our AEC figure.
* OpenSpiel (``pyspiel``): ``chess``, ``backgammon``, ``connect_four``: random
  play stepped from Python (``legal_actions`` + ``apply_action``; chance nodes
  sampled and not counted as decisions), without and with
  ``observation_tensor`` of the player to move after every decision.
* Pgx on CPU (jax): ``connect_four``, ``backgammon``: ``jit(vmap(step))`` with
  auto-reset and a random legal action, called from Python once per batch step
  (observations are always computed by Pgx).

    python -m dragongym.benchmarks.peers            # ours + peers -> results/peers.{json,md,png}
    python -m dragongym.benchmarks.peers --quick    # smoke run: fast peers only, short timings
    python -m dragongym.benchmarks.peers --games dragonhunt   # only these games of ours

Targets (reported, not asserted) are each game's ``Game.bench_targets``
(Dragonhunt: vector API at B=1024 >= 10x OpenSpiel chess without observations
and >= 8x OpenSpiel chess with the observation tensor, 2 threads >= 1.7x one
thread at B=8192, < 4 KiB per game state; Dragons Down: >= 2x chess both ways).
"""
import argparse
import random
import sys
import time

from dragongym.benchmarks import suite

PZ_GAMES = ("connect_four_v3", "chess_v6")
OS_GAMES = ("chess", "backgammon", "connect_four")
PGX_GAMES = ("connect_four", "backgammon")
PGX_BATCH = 1024


# ------------------------------------------------------------------ PettingZoo
def bench_pettingzoo(env_name, seconds, seed=0):
    module = __import__(f"pettingzoo.classic.{env_name}", fromlist=["env"])
    return suite.aec_random_play(module.env(), seconds, seed)


# ------------------------------------------------------------------ OpenSpiel
def bench_openspiel(game_name, with_obs, seconds, seed=0):
    import pyspiel
    game = pyspiel.load_game(game_name)
    rnd = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rnd.choices(outcomes, probs)[0])
                continue
            state.apply_action(rnd.choice(state.legal_actions()))
            decisions += 1
            if with_obs and not state.is_terminal() and not state.is_chance_node():
                state.observation_tensor(state.current_player())
            if decisions % 256 == 0 and time.perf_counter() - start >= seconds:
                break
    return decisions / (time.perf_counter() - start)


# ------------------------------------------------------------------------ Pgx
def _pgx_stepper(game_name, batch):
    import jax
    import pgx
    from pgx.experimental import act_randomly, auto_reset
    env = pgx.make(game_name)
    step = jax.vmap(auto_reset(env.step, env.init))
    init = jax.jit(jax.vmap(env.init))

    @jax.jit
    def one(state, key):
        k1, k2 = jax.random.split(key)
        action = act_randomly(k1, state.legal_action_mask)
        return step(state, action, jax.random.split(k2, batch))

    return init, one


def bench_pgx(game_name, batch, seconds, seed=0, _cache={}):
    import jax
    key = (game_name, batch)
    if key not in _cache:
        _cache[key] = _pgx_stepper(game_name, batch)
    init, one = _cache[key]
    k = jax.random.PRNGKey(seed)
    state = init(jax.random.split(k, batch))
    state = one(state, k)                       # compile outside the timing
    jax.block_until_ready(state)
    steps = 0
    start = time.perf_counter()
    while True:
        for _ in range(4):
            k, sub = jax.random.split(k)
            state = one(state, sub)
        steps += 4
        jax.block_until_ready(state)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    return steps * batch / elapsed


# ------------------------------------------------------------------------ run
def _available(module):
    try:
        __import__(module)
        return None
    except Exception as error:   # ImportError, or a broken install
        return f"{module} not importable ({type(error).__name__}: {error})"


def run_peers(quick=False, reps=3, log=print):
    """Measure every installed peer; returns ``{"rows": [...], "skipped": [...]}``."""
    seconds = 0.2 if quick else 2.0
    reps = 1 if quick else reps
    rows, skipped = [], []

    def add(library, game, obs, batch, fn):
        label = f"{library} {game}{' +obs' if obs else ''}{f' B={batch}' if batch > 1 else ''}"
        try:
            values = [fn(r) for r in range(reps)]
        except Exception as error:   # a peer that breaks must not stop the run
            skipped.append(dict(label=label, reason=f"{type(error).__name__}: {error}"))
            log(f"[peers] {label}: skipped ({type(error).__name__}: {error})")
            return
        m = suite._median(values)
        rows.append(dict(library=library, game=game, obs=obs, batch=batch, label=label,
                         median=m[0], min=m[1], max=m[2], reps=len(values)))
        log(f"[peers] {label:40s} {m[0]:>13,.0f} decisions/s ({m[1]:,.0f}..{m[2]:,.0f})")

    why = _available("pettingzoo.classic")
    for name in (PZ_GAMES[:1] if quick else PZ_GAMES):
        extra = why or (_available("chess") if name.startswith("chess") else None)
        if extra:
            skipped.append(dict(label=f"pettingzoo {name}", reason=extra))
            log(f"[peers] pettingzoo {name}: skipped ({extra})")
            continue
        add("pettingzoo", name, True, 1, lambda r, n=name: bench_pettingzoo(n, seconds, r))

    why = _available("pyspiel")
    for name in (("connect_four",) if quick else OS_GAMES):
        for obs in (False, True):
            if why:
                skipped.append(dict(label=f"openspiel {name}", reason=why))
                continue
            add("openspiel", name, obs, 1, lambda r, n=name, o=obs: bench_openspiel(n, o, seconds, r))
    if why:
        log(f"[peers] openspiel: skipped ({why})")

    why = _available("pgx") or _available("jax")
    if quick:
        why = why or "skipped in --quick (jax compiles each game for tens of seconds)"
    for name in PGX_GAMES:
        if why:
            skipped.append(dict(label=f"pgx {name}", reason=why))
            continue
        add("pgx", name, True, PGX_BATCH, lambda r, n=name: bench_pgx(n, PGX_BATCH, seconds, r))
    if why:
        log(f"[peers] pgx: skipped ({why})")
    return dict(rows=rows, skipped=skipped)


def _ours(result, game, batch, obs, threads=1, path="vector API"):
    r = suite.find(result["rows"], game=game, path=path, batch=batch, obs=obs, threads=threads)
    return r["median"] if r else None


def _peer(result, library, game, obs):
    for p in result.get("peers", {}).get("rows", []):
        if p["library"] == library and p["game"] == game and p["obs"] == obs:
            return p["median"]
    return None


def our_games(result):
    """Our games measured in ``result``, sorted."""
    return sorted({r["game"] for r in result["rows"]})


def comparisons(result):
    """(description, ratio or None, target or None) lines: each of our games against the peers."""
    out = []
    for game in our_games(result):
        out += _comparisons(result, game)
    return out


def _targets(game):
    """The game's ``bench_targets`` ({} for a game no longer registered)."""
    import dragongym
    try:
        return dict(dragongym.get_game(game).bench_targets)
    except (KeyError, ValueError):
        return {}


def _comparisons(result, game):
    out = []
    targets = _targets(game)
    rows = [r for r in result["rows"] if r["game"] == game]
    batches = {r["batch"] for r in rows if r["path"] == "vector API"}
    if not batches:
        return out
    big = 1024 if 1024 in batches else max(batches)
    v_no, v_obs = _ours(result, game, big, False), _ours(result, game, big, True)
    aec = _ours(result, game, 1, True, path="pettingzoo AEC")
    for p in result.get("peers", {}).get("rows", []):
        ours = v_obs if p["obs"] else v_no
        target = targets.get(p["label"])
        if ours:
            out.append((f"{game} vector API B={big} {'with' if p['obs'] else 'without'} obs / {p['label']}",
                        ours / p["median"], target))
        if p["library"] == "pettingzoo" and aec:
            out.append((f"{game} PettingZoo AEC / {p['label']}", aec / p["median"], None))
    one, two = _ours(result, game, 8192, False, 1), _ours(result, game, 8192, False, 2)
    if one and two:
        out.append((f"{game} vector API B=8192 no obs: 2 threads / 1 thread", two / one, targets.get("threads")))
    one, two = _ours(result, game, 8192, True, 1), _ours(result, game, 8192, True, 2)
    if one and two:
        out.append((f"{game} vector API B=8192 with obs: 2 threads / 1 thread", two / one, None))
    return out


def markdown(result):
    """The peers' figures, the comparisons and the state-size target as Markdown."""
    peers = result.get("peers", {})
    lines = ["| peer | decisions/s (median) | min..max |", "|---|---:|---|"]
    for p in peers.get("rows", []):
        lines.append(f"| {p['label']} | {p['median']:,.0f} | {p['min']:,.0f}..{p['max']:,.0f} |")
    for s in peers.get("skipped", []):
        lines.append(f"| {s['label']} | skipped | {s['reason']} |")
    lines += ["", "| comparison | ratio | target |", "|---|---:|---|"]
    for text, ratio, target in comparisons(result):
        mark = "" if target is None else f">= {target:g}x: {'met' if ratio >= target else 'NOT met'}"
        lines.append(f"| {text} | {ratio:,.1f}x | {mark} |")
    for name, m in result.get("memory", {}).items():
        most = _targets(name).get("bytes_per_state")
        mark = "" if most is None else f"< {most} B: {'met' if m['bytes_per_state'] < most else 'NOT met'}"
        lines.append(f"| {name} bytes per game state | {m['bytes_per_state']} B | {mark} |")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="short run (smoke test)")
    ap.add_argument("--reps", type=int, default=3, help="repetitions per figure (default: %(default)s)")
    ap.add_argument("--games", default=None, help="comma-separated game ids of ours (default: all registered)")
    ap.add_argument("--out", default="results", help="folder for peers.json / .md / .png")
    args = ap.parse_args(argv)
    log = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    batches = (1, 64) if args.quick else (1024, 8192)
    games = args.games.split(",") if args.games else None
    result = suite.run_suite(games, quick=args.quick, reps=args.reps, batches=batches, log=log)
    result["rows"] = [r for r in result["rows"] if r["path"] != "bare core" or not args.quick]
    result["peers"] = run_peers(quick=args.quick, reps=args.reps, log=log)
    result["peak_rss_bytes"] = suite.peak_rss_bytes()
    table = suite.write(result, args.out, stem="peers", sections=[markdown(result)])
    print(table)
    return result


if __name__ == "__main__":
    main()
