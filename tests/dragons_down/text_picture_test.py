"""Dragons Down's text picture (``render_ansi``, ``envs/dragons_down/text_picture.py``):
the staggered hex map of the placed tiles with what stands on each, the
legend, the tile-by-tile clearing list (only clearings that hold something),
the heroes named as the agents, the pending decision, lines kept short."""
from dragongym.envs.dragons_down import text_picture as T
from dragongym.envs.dragons_down import view as V
from dragongym.envs.dragons_down.constants import CLEARINGS_PER_TILE, CW_HERO, T_BACKPACK
from dragongym.envs.dragons_down.game import GAME
from tests.conformance.play import random_play


def position(seed, steps, **options):
    state = None
    for state, _ in random_play(GAME, GAME.make_config(**options), seed, max_steps=steps):
        pass
    return state.copy()


EXPLORED = dict(seed=2, steps=200, num_players=3, sandbox="explore_the_realm")
"""Turn 6 of Explore the Realm: six tiles, heroes on two of them, a dead hero's body."""
MID_GAME = dict(seed=5, steps=200, num_players=3, sandbox="open_realm")
"""Turn 3 of Open Realm: all 18 tiles, a combat on Tri-Peaks."""


def cell_of(lines, rec, t):
    """The three lines of tile t's cell in ``map_text`` lines (header first)."""
    placed = V.placed_tiles(rec)
    q0 = min(int(rec["tile_q"][u]) for u in placed)
    h0 = min(2 * int(rec["tile_r"][u]) + int(rec["tile_q"][u]) for u in placed)
    x = T.CELL_WIDTH * (int(rec["tile_q"][t]) - q0)
    top = 1 + 2 * (2 * int(rec["tile_r"][t]) + int(rec["tile_q"][t]) - h0)
    return [lines[top + i][x:x + T.CELL_WIDTH - 1] for i in range(T.CELL_LINES)]


def test_each_placed_tile_is_a_hexagon_cell_where_its_position_puts_it():
    for options in (EXPLORED, MID_GAME):
        state = position(**options)
        rec = state[0]
        lines = T.map_text(rec)
        assert lines[0].split() == [w for u in sorted({int(rec["tile_q"][t]) for t in V.placed_tiles(rec)})
                                    for w in ("q", str(u))]
        for t in V.placed_tiles(rec):
            top, middle, bottom = cell_of(lines, rec, t)
            assert top == f"/{T.short_name(t):<{T.CELL_TEXT}}\\"
            assert middle.startswith("|") and middle.endswith("|")
            assert bottom.startswith("\\") and bottom.endswith("/")


def test_a_tile_north_of_another_is_four_lines_above_it_and_the_next_column_half_a_tile_lower():
    rec = position(**MID_GAME)[0]
    lines = T.map_text(rec)
    placed = V.placed_tiles(rec)
    where = {(int(rec["tile_q"][t]), int(rec["tile_r"][t])): t for t in placed}
    checked = 0
    for (q, r), t in where.items():
        for dq, dr, lines_down in ((0, 1, 4), (1, 0, 2)):      # S: a row lower; SE: the next column, half a row
            u = where.get((q + dq, r + dr))
            if u is None:
                continue
            name_line = next(i for i, line in enumerate(lines) if f"/{T.short_name(t):<{T.CELL_TEXT}}\\" in line)
            assert f"/{T.short_name(u):<{T.CELL_TEXT}}\\" in lines[name_line + lines_down]
            checked += 1
    assert checked >= 5


def test_a_cell_shows_the_heroes_by_seat_the_monsters_and_the_natives_on_its_tile():
    for options in (EXPLORED, MID_GAME):
        state = position(**options)
        rec = state[0]
        lines = T.map_text(rec)
        for t in V.placed_tiles(rec):
            _, middle, bottom = cell_of(lines, rec, t)
            clearings = [t * CLEARINGS_PER_TILE + k for k in range(CLEARINGS_PER_TILE)]
            heroes = sorted(p for c in clearings for p in V.heroes_at(rec, c))
            assert ("@" + "".join(map(str, heroes)) in middle) == bool(heroes)
            monsters = sum(len(V.monsters_at(rec, c)) for c in clearings)
            natives = sum(len(V.natives_at(rec, c)) for c in clearings)
            marks = bottom[1:-1].split()
            assert (f"M{monsters}" in marks) == bool(monsters)
            assert (f"N{natives}" in marks) == bool(natives)
        assert any("@" in cell_of(lines, rec, t)[1] for t in V.placed_tiles(rec))


def test_the_combat_is_marked_on_its_tile_and_told_below():
    state = position(**MID_GAME)
    rec = state[0]
    c = int(rec["combat_clearing"])
    text = GAME.render_ansi(state)
    assert "!" in cell_of(T.map_text(rec), rec, c // CLEARINGS_PER_TILE)[1]
    assert f"combat at {V.clearing_name(rec, c)}, round 1" in text


def test_the_legend_and_the_clearing_list_only_where_something_stands():
    state = position(**EXPLORED)
    rec = state[0]
    text = GAME.render_ansi(state)
    assert "\n".join(T._wrap(T.LEGEND)) in text
    contents = T.clearing_contents(rec)
    occupied = [c for c in V.clearings(rec) if c in contents]
    assert sorted(contents) == sorted(occupied), "everything stands in a clearing on the map"
    listed = [line for line in text.split("\n") if line[:2] == "  " and line[2:3].isdigit() and line[3] == ":"]
    assert len(listed) == len(occupied)
    for t in V.placed_tiles(rec):
        assert f"{V.tile_name(t)}{'*' if V.is_civilization(t) else ''} at ({int(rec['tile_q'][t])}, " \
               f"{int(rec['tile_r'][t])})" in text
    where = {(int(rec["tile_q"][t]), int(rec["tile_r"][t])): t for t in V.placed_tiles(rec)}
    realm = [line for t in V.placed_tiles(rec) for line in T._tile_lines(rec, t, where, contents)]
    assert len(realm) < len(V.clearings(rec)) + len(V.placed_tiles(rec)), "shorter than a line per clearing"


def test_the_heroes_are_named_as_the_agents_and_their_face_down_cards_counted():
    state = position(**EXPLORED)
    rec = state[0]
    text = GAME.render_ansi(state)
    roles = GAME.spec_for(GAME.make_config(num_players=3, sandbox="explore_the_realm")).roles
    for p, role in enumerate(roles):
        line = next(line for line in text.split("\n") if line.startswith(f"{role}: "))
        down = int(((rec["card_where"] == CW_HERO) & (rec["card_owner"] == p) & (rec["card_slot"] >= T_BACKPACK)).sum())
        hero_text = text[text.index(line):]
        assert f"face down: {down}" in hero_text.split("\n")[1] + hero_text.split("\n")[2]


def test_the_pending_decision_and_then_the_ranks():
    state = position(**EXPLORED)
    text = GAME.render_ansi(state)
    p = int(state[0]["to_play"])
    assert text.rstrip("\n").split("\n")[-1] == f"to play: player_{p}, {T.decision_words(state[0])}"
    over = position(3, 5000, num_players=1, sandbox="open_realm", max_turns=1)
    assert int(over[0]["status"]) != 0
    assert GAME.render_ansi(over).rstrip("\n").split("\n")[-1].startswith("ranks: player_0 ")


def test_every_line_is_short_through_random_games():
    for options in ({"num_players": 6, "sandbox": "open_realm"}, {"num_players": 4, "sandbox": "explore_the_realm"},
                    {"num_players": 2, "sandbox": "legendary", "legendary_map": "explore_the_realm"}):
        for i, (state, _) in enumerate(random_play(GAME, GAME.make_config(**options), 9, max_steps=400)):
            if i % 40:
                continue
            text = GAME.render_ansi(state)
            assert text.endswith("\n") and text.strip()
            assert max(len(line) for line in text.split("\n")) <= 120
            assert "to play: " in text or "ranks: " in text


def test_the_words_name_every_decision_and_stage():
    from dragongym.envs.dragons_down.game import PHASE_NAMES, STAGE_NAMES
    rec = position(**EXPLORED)[0].copy()
    for ph, name in PHASE_NAMES.items():
        if name == "none":
            continue
        rec["phase"] = ph
        assert not T.decision_words(rec).startswith("phase "), name
    for st in STAGE_NAMES:
        rec["stage"] = st
        assert not T.stage_words(rec).startswith("stage ")


def test_the_clearing_list_agrees_with_the_view_clearing_by_clearing():
    rec = position(**MID_GAME)[0]
    contents = T.clearing_contents(rec)
    for c in V.clearings(rec):
        words = " ; ".join(contents.get(c, []))
        for p in V.heroes_at(rec, c):
            assert f"player_{p}" in words
        for m in V.merchants_at(rec, c):
            assert f"{V.merchant_name(m)} ({V.merchant_stock_size(rec, m)} cards)" in words
        for pile in V.piles_at(rec, c):
            assert V.pile_name(pile) in words and f"{int(rec['site_gold'][pile])} Gold" in words
        for token in V.tokens_at(rec, c):
            assert token in words
        assert (c in contents) == bool(V.heroes_at(rec, c) or V.monsters_at(rec, c) or V.natives_at(rec, c)
                                       or V.merchants_at(rec, c) or V.piles_at(rec, c) or V.tokens_at(rec, c)
                                       or c in rec["civ_clearing"].tolist())
