"""Observations: the board grid, the units rows, the static map served by the
spec, and what the screening option (L452) hides."""
import numpy as np

from dragongym.envs.dragon_pass import observe as O
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass.board import HEX_TERRAIN, NUM_HEXES, SIDE_RIDGE, TERRAIN_IDS
from dragongym.envs.dragon_pass.data import MAP
from dragongym.envs.dragon_pass.game import GAME
from tests.dragon_pass.scenario import LUNAR, Position, hexi, unit

LUNAR_SEAT, SARTAR_SEAT = 0, 1


def board(obs):
    off, shape = O.LAYOUT["board"]
    return obs[off:off + np.prod(shape)].reshape(shape)


def units(obs):
    off, shape = O.LAYOUT["units"]
    return obs[off:off + np.prod(shape)].reshape(shape)


def cell(h):
    return O.CELL_OF_HEX[hexi(h)]


def test_obs_board_is_a_hex_grid_in_reading_order_with_the_static_map_in_the_spec():
    spec = GAME.spec_for(GAME.make_config())
    block = spec.obs_layout["board"]
    assert block.kind == "grid" and block.grid_shape == (MAP.columns, MAP.rows) and block.geometry == "hex"
    static = spec.constants[block.static]
    assert static.shape == (NUM_HEXES, O.STATIC_PLANES) and not static.flags.writeable
    h = hexi("3703")                                   # a mountain
    assert static[O.CELL_OF_HEX[h], O.S_TERRAIN + TERRAIN_IDS.index("mountain")] == 1
    assert TERRAIN_IDS[HEX_TERRAIN[h]] == "mountain"
    up = [d for d in range(1, 7) if SIDE_RIDGE[hexi("0414"), d] == 1][0]
    assert static[cell("0414"), O.S_RIDGE + up - 1] == 1     # the ridge climbed from 0414 toward 0314
    assert O.CELL_OF_HEX[hexi("0102")] == MAP.columns        # 0102: column 0, row 1 -> the second row


def flat(obs):
    off, shape = O.LAYOUT["flat"]
    return obs[off:off + shape[0]]


def test_obs_own_and_enemy_strength_planes():
    p = Position()
    p.put("cc_lancers#1", "0504")
    p.put("cc_lancers#2", "0504")
    p.put("cm_town_militia#1", "0604", disrupted=True)
    p.movement(LUNAR)
    obs = GAME.observation_of(p.S, LUNAR_SEAT)
    g, rows = board(obs), units(obs)
    assert np.isclose(g[cell("0504"), O.G_OWN_CF], 0.8) and np.isclose(g[cell("0504"), O.G_OWN_UNITS], 2 / 3)
    assert np.isclose(g[cell("0604"), O.G_ENEMY_UNITS], 1 / 3) and np.isclose(g[cell("0604"), O.G_ENEMY_CF], 0.2)
    assert rows[unit("cm_town_militia#1"), O.U_DISRUPTED] == 1
    assert rows[unit("cm_town_militia#1"), O.U_ZOC] == 1      # the militia's zone covers 0504 (L460)
    jonstown = [f.hex for f in MAP.fortresses].index(hexi("3122"))
    assert flat(obs)[O.F_FORTRESS + jonstown] == -1          # Jonstown is Sartar's
    mine = GAME.observation_of(p.S, SARTAR_SEAT)
    assert np.isclose(board(mine)[cell("0604"), O.G_OWN_CF], 0.2)      # its back: 2-2-2
    assert flat(mine)[O.F_FORTRESS + jonstown] == 1


def test_obs_unit_rows_give_each_counters_place_in_its_stack_and_its_zone_of_control():
    p = Position()
    p.put("cc_lancers#1", "0504")
    p.put("cc_lancers#2", "0504")                          # put on top
    p.movement(LUNAR)
    rows = units(GAME.observation_of(p.S, LUNAR_SEAT))
    top, under = rows[unit("cc_lancers#2")], rows[unit("cc_lancers#1")]
    assert top[O.U_HEIGHT] == 0 and np.isclose(under[O.U_HEIGHT], 0.1)
    assert top[O.U_ZOC] == 1 and under[O.U_ZOC] == 0          # the top counter exerts the stack's zone (L460)


def test_obs_decision_plane_marks_the_battle_hexes():
    p = Position()
    p.put("cc_lancers#1", "0504")
    p.put("cm_town_militia#1", "0604")
    p.combat(LUNAR)
    p.acts("attack the stack at 0604", "attack with the stack at 0504", "attack 0604 with the stacks at 0504")
    g = board(GAME.observation_of(p.S, LUNAR_SEAT))
    assert g[cell("0504"), O.G_DECISION] == 1 and g[cell("0604"), O.G_DECISION] == -1
    assert np.count_nonzero(g[:, O.G_DECISION]) == 2


def test_obs_screening_hides_enemy_stacks_outside_combat():
    p = Position(screening=True)
    p.put("cc_lancers#1", "0504")
    p.put("cm_town_militia#1", "1010")
    p.movement(LUNAR)
    obs = GAME.observation_of(p.S, LUNAR_SEAT)
    g, rows = board(obs), units(obs)
    assert g[cell("1010"), O.G_ENEMY_UNITS] == -1             # on the map, contents unknown, a zone of control
    assert g[cell("1010"), O.G_ENEMY_CF] == 0
    militia = rows[unit("cm_town_militia#1")]
    assert militia[O.U_ENEMY] == 1 and militia[O.U_SEEN] == 0 and militia[O.U_CF] == 0 and militia[O.U_COLUMN] == 0
    assert militia[O.U_ZOC] == 0 and militia[O.U_HEIGHT] == 0
    assert np.count_nonzero(g[:, O.G_ENEMY_UNITS]) == 1       # its top counter shows its zone (L460), nothing more
    open_game = Position(screening=False)
    open_game.put("cm_town_militia#1", "1010")
    open_game.movement(LUNAR)
    assert board(GAME.observation_of(open_game.S, LUNAR_SEAT))[cell("1010"), O.G_ENEMY_CF] > 0


def test_obs_screening_shows_stacks_in_combat():
    p = Position(screening=True)
    p.put("cc_lancers#1", "0504")
    p.put("cm_town_militia#1", "0604")
    p.put("cm_town_militia#2", "0604")
    p.combat(LUNAR)
    p.acts("attack the stack at 0604", "attack with the stack at 0504", "attack 0604 with the stacks at 0504")
    obs = GAME.observation_of(p.S, LUNAR_SEAT)
    assert np.isclose(board(obs)[cell("0604"), O.G_ENEMY_CF], 0.6)     # "stacks in combat can be examined"
    assert np.isclose(board(obs)[cell("0604"), O.G_ENEMY_UNITS], 2 / 3)
    assert units(obs)[unit("cm_town_militia#2"), O.U_SEEN] == 1


def test_obs_screening_variants_keep_what_the_seat_sees():
    p = Position(screening=True)
    p.put("cc_lancers#1", "0504")
    p.put("cm_town_militia#1", "1010")
    p.put("cm_town_militia#2", "1212")
    p.put("cm_town_militia#3", "1212")
    p.movement(LUNAR)
    rng = np.random.default_rng(0)
    seen = GAME.observation_of(p.S, LUNAR_SEAT)
    moved = False
    for v in GAME.hidden_variants(p.S, LUNAR_SEAT, rng, count=8):
        assert np.array_equal(GAME.observation_of(v, LUNAR_SEAT), seen)
        moved |= int(v[0]["unit_hex"][unit("cm_town_militia#1")]) != hexi("1010")
    assert moved                                             # the hidden stacks trade places


def test_obs_a_revealed_crimson_bat_shows_its_row_not_its_stack_mates():
    from dragongym.envs.dragon_pass import rules as R
    p = Position("18.5", screening=True, moon="black")
    p.put("crimson_bat", "2009")
    p.put("cc_lancers#1", "2009")
    p.put("bh_bison_riders#1", "2012")
    p.movement(LUNAR)
    p.S[0]["revealed"] |= R.REVEAL_BAT                       # its place revealed (L666)
    obs = GAME.observation_of(p.S, SARTAR_SEAT)
    g, rows = board(obs), units(obs)
    assert rows[unit("crimson_bat"), O.U_SEEN] == 1 and rows[unit("cc_lancers#1"), O.U_SEEN] == 0
    assert g[cell("2009"), O.G_ENEMY_UNITS] == -1 and g[cell("2009"), O.G_ENEMY_CF] == 0
    text = GAME.render_ansi(p.S, SARTAR_SEAT)                 # the text shows as much, and no more
    line = [t for t in text.splitlines() if t.strip().startswith("2009")][0]
    assert "a screened stack with The Crimson Bat" in line and "Lancer" not in line
    assert "screened" not in [t for t in GAME.render_ansi(p.S, LUNAR_SEAT).splitlines()
                              if t.strip().startswith("2009")][0]


def test_obs_what_each_counter_is_is_served_once_beside_the_unit_rows():
    spec = GAME.spec_for(GAME.make_config())
    block = spec.obs_layout["units"]
    static = spec.constants[block.static]
    assert static.shape == (len(R.U_FORCE), O.STATIC_UNIT_FEATURES) and not static.flags.writeable
    lancers, argrath = static[unit("cc_lancers#1")], static[unit("argrath")]
    assert lancers[O.K_CAVALRY] == 1 and lancers[O.K_LUNAR] == 1 and lancers[O.K_HERO] == 0
    assert argrath[O.K_HERO] == 1 and argrath[O.K_SARTAR] == 1
    assert np.isclose(argrath[O.K_CF], 0.4) and np.isclose(argrath[O.K_BACK + O.K_CF], 0.2)   # (4!!) / (2!) (L130, L621)
    assert np.isclose(argrath[O.K_LF], 2 / 3)
    giant = static[unit("giants#1")]
    assert giant[O.K_INDEPENDENT] == 1 and np.isclose(giant[O.K_CF], 1.5) and np.isclose(giant[O.K_BACK + O.K_CF], 0.8)


def test_obs_independents_not_in_play_leave_their_rows_empty():
    p = Position()
    p.put("cc_lancers#1", "0504")
    p.movement(LUNAR)
    rows = units(GAME.observation_of(p.S, LUNAR_SEAT))
    independents = [u for u in range(len(R.U_FORCE)) if R.U_FORCE[u] < 0]
    assert independents and not rows[independents].any()


def test_obs_a_screened_stack_shows_whether_its_top_counter_exerts_a_zone_of_control():
    """L452, L460: the top counter is seen; a lone hero (parenthesised CF) exerts none."""
    p = Position("18.3", screening=True)
    p.put("cc_lancers#1", "0504")
    p.put("argrath", "1010")
    p.put("cm_town_militia#1", "1212")
    p.movement(LUNAR)
    g = board(GAME.observation_of(p.S, LUNAR_SEAT))
    assert g[cell("1010"), O.G_ENEMY_UNITS] == -0.5 and g[cell("1212"), O.G_ENEMY_UNITS] == -1


def test_a_neutral_herd_is_no_ones_secret():
    """A stampeded herd is neutral (L594): with screening every seat sees where it is
    and what it is, the board counts it in neither side's planes, and the hidden
    variants the conformance suite deals leave it where it stands while the
    Independents' own screened stacks trade places."""
    p = Position("18.6", screening=True, moon="full")
    p.put("horse_herds#1", "1010", disrupted=True)
    p.s["unit_force"][unit("horse_herds#1")] = -1
    p.s["unit_origin"][unit("horse_herds#1")] = R.ORIGIN_OF + 1
    p.put("ex_infantry#1", "2020")
    p.put("ex_cavalry", "2030")
    p.put("hc_cavalry#1", "0505")
    p.movement(LUNAR)
    obs = np.zeros(O.OBS_SIZE, np.float32)
    GAME.observe(p.S, np.array([LUNAR_SEAT], np.int8), obs[None])
    row = units(obs)[unit("horse_herds#1")]
    assert row[O.U_VALID] == 1 and row[O.U_OWN] == 0 and row[O.U_ENEMY] == 0
    assert row[O.U_COLUMN] == (hexi("1010") // MAP.rows) / MAP.columns        # its place is seen
    assert not board(obs)[cell("1010")].any()                                  # no side's stack
    assert units(obs)[unit("ex_infantry#1")][O.U_COLUMN] == 0                   # the enemy's stays screened
    rng = np.random.default_rng(0)
    moved = False
    for v in GAME.hidden_variants(p.S, LUNAR_SEAT, rng, count=8):
        assert int(v[0]["unit_hex"][unit("horse_herds#1")]) == hexi("1010")
        moved |= int(v[0]["unit_hex"][unit("ex_infantry#1")]) != hexi("2020")
    assert moved
