"""The realm's compiled geometry (rules/realm.py) against the rulebook's map
rules (L109, L113, L583) and against data.py's plain-Python reference on
complete Open Realm maps of every combination of Terrain Packs."""
import itertools

import numpy as np
import pytest

from dragongym.envs.dragons_down import data as D
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CLEARINGS_PER_TILE, NUM_DIRECTIONS, TILE_IDS, TW_PLACED, TW_STACK,
)
from dragongym.envs.dragons_down.state import STATE_DTYPE

PACK_SETS = [c for n in (1, 2, 3) for c in itertools.combinations(D.PACKS, n)]


def empty_realm(packs):
    """A one-game state with every tile of ``packs`` waiting in the stack."""
    S = np.zeros(1, dtype=STATE_DTYPE)
    for t, tid in enumerate(TILE_IDS):
        if D.REALM.tiles[tid].pack in packs:
            S[0]["tile_where"][t] = TW_STACK
    return S


def place(S, p):
    """Put data Placement ``p`` (1-based side) on the map of S."""
    t = TILE_IDS.index(p.tile)
    rec = S[0]
    rec["tile_where"][t] = TW_PLACED
    rec["tile_q"][t], rec["tile_r"][t] = p.q, p.r
    rec["tile_rot"][t], rec["tile_side"][t] = p.rotation, p.side - 1
    rec["tiles_placed"] += 1


def frontier(placed):
    """Empty positions beside the placed tiles (data placements by position)."""
    spots = set()
    for (q, r) in placed:
        for d in range(NUM_DIRECTIONS):
            n = (q + int(R.DIR_DQ[d]), r + int(R.DIR_DR[d]))
            if n not in placed:
                spots.add(n)
    return sorted(spots)


@pytest.mark.parametrize("packs", PACK_SETS, ids=["+".join(p) for p in PACK_SETS])
def test_rule_dd_realm_open_realm_placement_is_legal_at_every_step(packs):
    """L109: each tile is placed beside the map, matching every edge path to
    path and non-path to non-path, joined to at least one existing path, and
    touching two tiles if possible; the compiled test gives exactly the
    reference's legal placements before every placement of a complete map."""
    order = D.build_open_realm(packs, seed=len(packs))
    S = empty_realm(packs)
    placed = {}
    for step, p in enumerate(order):
        t = TILE_IDS.index(p.tile)
        if placed:
            two = R.touches_two_possible(S, 0, t)
            expected = {(x.side - 1, x.rotation, x.q, x.r)
                        for x in D.legal_placements(D.REALM, placed, p.tile)}
            got = {(side, rot, q, r) for (q, r) in frontier(placed) for side in (0, 1)
                   for rot in range(NUM_DIRECTIONS) if R.open_realm_legal(S, 0, t, side, rot, q, r, two)}
            assert got == expected, f"step {step}: tile {p.tile}"
            assert not R.open_realm_legal(S, 0, t, 0, 0, order[0].q, order[0].r, two)  # occupied
        else:
            assert R.open_realm_legal(S, 0, t, p.side - 1, p.rotation, 0, 0, False)
            assert not R.open_realm_legal(S, 0, t, p.side - 1, p.rotation, 1, 0, False)
        place(S, p)
        placed[(p.q, p.r)] = p


def reference_links(placed, tile_id, k):
    """Clearings joined to clearing k (0-based) of tile_id by printed paths and
    across tile edges, computed from data.py alone."""
    by_id = {p.tile: p for p in placed.values()}
    p = by_id[tile_id]
    side = D.REALM.tiles[tile_id].sides[p.side - 1]
    base = TILE_IDS.index(tile_id) * CLEARINGS_PER_TILE
    out = set()
    for a, z in side.paths:
        if a - 1 == k:
            out.add(base + z - 1)
        elif z - 1 == k:
            out.add(base + a - 1)
    for e, kk in enumerate(side.edges):
        if kk is None or kk - 1 != k:
            continue
        d = (e + p.rotation) % 6
        n = (p.q + int(R.DIR_DQ[d]), p.r + int(R.DIR_DR[d]))
        if n in placed:
            u = placed[n]
            eu = ((d + 3) % 6 - u.rotation) % 6
            ku = D.REALM.tiles[u.tile].sides[u.side - 1].edges[eu]
            assert ku is not None, "a complete legal map has no path ending at a tile edge"
            out.add(TILE_IDS.index(u.tile) * CLEARINGS_PER_TILE + ku - 1)
    return out


@pytest.mark.parametrize("packs", PACK_SETS, ids=["+".join(p) for p in PACK_SETS])
def test_rule_dd_realm_paths_join_clearings_within_and_across_tiles(packs):
    """L290, L109: paths join clearings on a tile, and a path crossing a tile
    edge joins the two edge clearings; the paths leading off the map (L113)
    are the reference's open exits."""
    order = D.build_open_realm(packs, seed=7)
    S = empty_realm(packs)
    placed = {}
    for p in order:
        place(S, p)
        placed[(p.q, p.r)] = p
    out = np.zeros(16, dtype=np.int64)
    exits = set()
    for p in order:
        t = TILE_IDS.index(p.tile)
        n_clear = len(D.REALM.tiles[p.tile].sides[p.side - 1].clearings)
        for k in range(n_clear):
            c = t * CLEARINGS_PER_TILE + k
            n = R.clearing_links(S, 0, c, out)
            assert set(int(x) for x in out[:n]) == reference_links(placed, p.tile, k)
            m = R.exits_from(S, 0, c, out)
            exits |= {((p.q, p.r), int(d) + 1) for d in out[:m]}
    assert exits == set(D.open_exits(D.REALM, placed))
    assert exits, "L113: heroes enter the map by a path off its edge"


def test_rule_dd_realm_explored_tile_connects_to_the_path_it_was_explored_by():
    """L583: an explored tile is placed connected to the path leading off the
    map, edges matching; L585: by Mountain Exploration it need only connect to
    some path."""
    packs = ("malevolent_mountains",)
    S = empty_realm(packs)
    civ = next(t for t in TILE_IDS if D.REALM.tiles[t].pack == packs[0]
               and D.REALM.tiles[t].kind == "civilization")
    place(S, D.Placement(civ, 1, 0, 0, 0))
    t0 = TILE_IDS.index(civ)
    new = next(t for t in TILE_IDS if D.REALM.tiles[t].pack == packs[0] and t != civ)
    tn = TILE_IDS.index(new)
    out = np.zeros(8, dtype=np.int64)
    toward = next(int(out[0]) for k in range(4) if R.exits_from(S, 0, t0 * CLEARINGS_PER_TILE + k, out))
    q, r = int(R.DIR_DQ[toward]), int(R.DIR_DR[toward])
    options = [(side, rot) for side in (0, 1) for rot in range(6)
               if R.explore_legal(S, 0, tn, side, rot, q, r, toward)]
    assert options, "some turn of the tile connects to the path"
    for side, rot in options:
        assert R.path_toward(tn, side, rot, (toward + 3) % 6)
    for side in (0, 1):
        for rot in range(6):
            if (side, rot) not in options:
                fits, touched, joined = R.placement_fit(S, 0, tn, side, rot, q, r)
                assert not (fits and R.path_toward(tn, side, rot, (toward + 3) % 6))
    assert not R.explore_legal(S, 0, tn, 0, 0, 0, 0, toward)          # the position is taken
    mountain = [(side, rot) for side in (0, 1) for rot in range(6)
                if R.explore_legal(S, 0, tn, side, rot, q, r, -1)]
    assert set(options) <= set(mountain)


def test_dd_comp_tiles_2_every_piece_stands_in_a_clearing():
    """L290: Heroes, Monsters, Treasure Sites and the like exist in clearings:
    through random play of both map rules, every Hero on the map, every
    Monster and Native chip out of the box and every Treasure Site placed is
    in an existing clearing of a tile on the map (never on a path or off the
    map)."""
    from dragongym.envs.dragons_down.constants import HS_ACTIVE, SB_EXPLORE, SB_OPEN_REALM
    from tests.dragons_down.setup_test import legal, new_game

    def in_a_clearing(rec, c):
        t, k = divmod(int(c), CLEARINGS_PER_TILE)
        return 0 <= t < len(TILE_IDS) and int(rec["tile_where"][t]) == TW_PLACED \
            and int(R.CLEARING_TYPE[t, int(rec["tile_side"][t]), k]) >= 0

    seen = {"hero": 0, "monster": 0, "native": 0, "site": 0}
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    for sandbox, seed in ((SB_OPEN_REALM, 3), (SB_EXPLORE, 5)):
        S = new_game(num_heroes=2, sandbox=sandbox, seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(220):
            rec = S[0]
            if int(rec["status"]) != 0:
                break
            for p in range(2):
                if int(rec["hero_state"][p]) == HS_ACTIVE:
                    assert in_a_clearing(rec, rec["hero_clearing"][p])
                    seen["hero"] += 1
            for field, name in (("mon_clearing", "monster"), ("native_clearing", "native"),
                                ("site_clearing", "site")):
                for c in rec[field]:
                    if c >= 0:
                        assert in_a_clearing(rec, c), (name, int(c))
                        seen[name] += 1
            R.apply_action(S, 0, int(rng.choice(legal(S))), mask)
    assert all(seen.values()), seen
