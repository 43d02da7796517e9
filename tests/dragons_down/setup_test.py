"""Set-up (L170-L205): the realm dealt and built by the seats or stacked
around a civilization tile, Civilization Locations and Natives, and hero
selection -- played through the compiled driver (rules/driver.py)."""
import itertools

import numpy as np
import pytest

from dragongym.envs.dragons_down import data as D
from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CLASS_IDS, CLEARINGS_PER_TILE, CUBE_MAGIC, CUBE_MIGHT, CUBE_SPEED, HS_WAITING, LINEAGE_IDS,
    NATIVE_CHIP_KINDS, SANDBOXES, SB_EXPLORE, SB_LEGENDARY, SB_OPEN_REALM, ST_HEROES, ST_TURNS, TILE_IDS,
    NUM_DIRECTIONS, TW_OUT, TW_PLACED, TW_STACK,
)
from dragongym.envs.dragons_down.state import STATE_DTYPE

ALL_PACKS = 0b111


def fresh_magic(s):
    """A hand-built record's Spell Cards in their decks, none in play or being
    cast, no tile enchanted, no Learn or Enchant run (what ``setup_game``
    sets, L185, L1016)."""
    s["spell_where"][:] = np.where(R.SPELL_FROM == R.SPELL_START, R.SPW_START, R.SPW_DECK)
    s["spell_owner"][:] = -1
    s["spell_on"][:] = -1
    s["cast_card"][:] = -1
    s["cast_wound"][:] = -1
    s["more_targets"][:] = -1
    s["tile_enchant"][:] = -1
    s["tentacle_on"][:] = -1
    s["tentacle_card"] = -1
    s["learn_spell"] = -1
    s["enchant_colour"] = -1


def new_game(num_heroes=2, sandbox=SB_OPEN_REALM, packs=ALL_PACKS, seed=1, loaded=(),
             legendary_map=SB_OPEN_REALM):
    """A record configured as ``reset_game`` does, with ``loaded`` raw draws
    (consumed by ``roll`` before the game's stream), set up to its first
    decision."""
    S = np.zeros(1, dtype=STATE_DTYPE)
    s = S[0]
    s["seed"], s["num_players"], s["sandbox"], s["packs"] = seed, num_heroes, sandbox, packs
    s["max_turns"], s["legendary_map"], s["legend_target"] = 30, legendary_map, 20
    for i, v in enumerate(loaded):
        s["loaded"][i] = v
    s["loaded_count"] = len(loaded)
    R.setup_game(S, 0)
    R.advance(S, 0)
    return S


def legal(S):
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    R.fill_mask(S, 0, mask)
    return [int(a) for a in np.flatnonzero(mask)]


def play(S, rng, until_stage=ST_TURNS, on_place=None):
    """Random legal decisions until ``stage`` reaches ``until_stage``."""
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    while int(S[0]["stage"]) < until_stage:
        acts = legal(S)
        assert acts, f"stage {int(S[0]['stage'])}: no decision pending and no progress"
        placed = int(S[0]["tiles_placed"])
        assert R.apply_action(S, 0, int(rng.choice(acts)), mask) == R.E_OK
        if on_place is not None and int(S[0]["tiles_placed"]) > placed:
            on_place(S)


def pack_bits(packs):
    return sum(1 << D.PACKS.index(p) for p in packs)


PACK_SETS = [c for n in (1, 2, 3) for c in itertools.combinations(D.PACKS, n)]


@pytest.mark.parametrize("num_heroes", [1, 2, 4, 6])
@pytest.mark.parametrize("packs", PACK_SETS, ids=["+".join(p) for p in PACK_SETS])
def test_rule_dd_setup_open_realm_map_is_built_by_the_seats(packs, num_heroes):
    """L109: all tiles are dealt to the seats, then placed one at a time, each
    placement legal when made (checked by data.py's reference); L189: each
    civilization tile revealed gets its Civilization Location in clearing 1-4."""
    S = new_game(num_heroes=num_heroes, packs=pack_bits(packs), seed=11 * num_heroes)
    order = []

    def record(S):
        t = next(t for t in range(len(TILE_IDS)) if S[0]["tile_where"][t] == TW_PLACED
                 and TILE_IDS[t] not in {p.tile for p in order})
        rec = S[0]
        order.append(D.Placement(TILE_IDS[t], int(rec["tile_side"][t]) + 1, int(rec["tile_rot"][t]),
                                 int(rec["tile_q"][t]), int(rec["tile_r"][t])))
    play(S, np.random.default_rng(num_heroes), until_stage=ST_HEROES, on_place=record)
    placed = {(p.q, p.r): p for p in order}
    for i in range(1, len(order)):
        before = {(p.q, p.r): p for p in order[:i]}
        assert order[i] in D.legal_placements(D.REALM, before, order[i].tile)
    in_play = [t for t in TILE_IDS if D.REALM.tiles[t].pack in packs]
    out = [TILE_IDS[t] for t in range(len(TILE_IDS)) if S[0]["tile_where"][t] == TW_OUT]
    assert sorted([p.tile for p in order] + [t for t in out if t in in_play]) == sorted(in_play)
    assert len(placed) == len(order)
    for k, pack in enumerate(D.PACKS):
        c = int(S[0]["civ_clearing"][k])
        civ = TILE_IDS.index(next(t for t in in_play if D.REALM.tiles[t].pack == pack
                                  and D.REALM.tiles[t].kind == "civilization")) if pack in packs else -1
        if pack in packs and S[0]["tile_where"][civ] == TW_PLACED:
            assert c // CLEARINGS_PER_TILE == civ and c % CLEARINGS_PER_TILE < 4
        elif pack not in packs:
            assert c == -1


@pytest.mark.parametrize("num_heroes", [1, 3, 6])
def test_rule_dd_setup_open_realm_masks_offer_exactly_the_legal_placements(num_heroes):
    """L109, through the decisions themselves: at every step of building an
    Open Realm the tiles offered are the seat's dealt tiles that fit somewhere,
    the positions offered (each once) are those where the chosen tile fits,
    and the sides and turns those that fit there -- all as data.py's reference
    ``legal_placements`` finds them from the placed tiles alone."""
    S = new_game(num_heroes=num_heroes, seed=5 + num_heroes)
    rng = np.random.default_rng(num_heroes)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    seen = set()
    while int(S[0]["stage"]) < ST_HEROES:
        rec = S[0]
        placed = {(int(rec["tile_q"][t]), int(rec["tile_r"][t])):
                  D.Placement(TILE_IDS[t], int(rec["tile_side"][t]) + 1, int(rec["tile_rot"][t]),
                              int(rec["tile_q"][t]), int(rec["tile_r"][t]))
                  for t in range(len(TILE_IDS)) if rec["tile_where"][t] == TW_PLACED}

        def options(t):
            return D.legal_placements(D.REALM, placed, TILE_IDS[t]) if placed else ["origin"]
        acts = legal(S)
        ph, p = int(rec["phase"]), int(rec["to_play"])
        seen.add(ph)
        if ph == R.PH_TILE_CHOOSE:
            hand = [t for t in range(len(TILE_IDS)) if rec["tile_where"][t] == R.TW_HAND and rec["tile_holder"][t] == p]
            assert acts == [R.A_TILE + t for t in hand if options(t)]
        elif ph == R.PH_TILE_SPOT:
            spots = [tuple(int(v) for v in R.spot_position(S, 0, a)) for a in acts]
            assert len(spots) == len(set(spots))                     # each position once
            assert set(spots) == {(x.q, x.r) for x in options(int(rec["sel_tile"]))}
        elif ph == R.PH_TILE_TURN and placed:
            here = (int(rec["sel_q"]), int(rec["sel_r"]))
            assert {divmod(a - R.A_TURN, NUM_DIRECTIONS) for a in acts} == \
                {(x.side - 1, x.rotation) for x in options(int(rec["sel_tile"])) if (x.q, x.r) == here}
        assert R.apply_action(S, 0, int(rng.choice(acts)), mask) == R.E_OK
    assert {R.PH_TILE_CHOOSE, R.PH_TILE_SPOT, R.PH_TILE_TURN} <= seen


def test_rule_dd_setup_terrain_setup_cards_random_side_up():
    sides = {tuple(new_game(packs=0b101, seed=seed)[0]["setup_side"]) for seed in range(1, 40)}
    assert {s[0] for s in sides} == {0, 1} and {s[2] for s in sides} == {0, 1}
    assert {s[1] for s in sides} == {-1}                   # a pack not in play has no card


def test_rule_dd_setup_civilization_location_rerolls_5_and_6():
    """L189: roll a d6 for the clearing and reroll 5s and 6s. Explore the
    Realm with one pack: the setup card's side, five swaps of the shuffle, the
    centre tile and its side come first; then the d6 shows 6, then 5, then 3."""
    S = new_game(sandbox=SB_EXPLORE, packs=0b001, loaded=[0] * 8 + [5, 4, 2])
    civ = int(R.CIV_TILE_OF_PACK[0])
    assert int(S[0]["civ_clearing"][0]) == civ * CLEARINGS_PER_TILE + 2       # clearing 3


def test_rule_dd_setup_natives_are_stacked_on_the_civilization_location():
    """L189, L312: the Natives the Terrain Setup Card lists go on the location."""
    for seed in range(1, 6):
        S = new_game(sandbox=SB_EXPLORE, packs=0b100, seed=seed)
        rec = S[0]
        card = D.REALM.setup_cards["wicked_woods"].sides[int(rec["setup_side"][2])]
        there = sorted(NATIVE_CHIP_KINDS[c] for c in range(len(NATIVE_CHIP_KINDS))
                       if rec["native_clearing"][c] == rec["civ_clearing"][2])
        assert there == sorted(card.natives)
        assert all(rec["native_clearing"][c] == -1 for c in range(len(NATIVE_CHIP_KINDS))
                   if NATIVE_CHIP_KINDS[c] not in card.natives or
                   D.REALM.natives[NATIVE_CHIP_KINDS[c]].pack != "wicked_woods")


@pytest.mark.parametrize("sandbox,legendary_map", [(SB_EXPLORE, SB_OPEN_REALM),
                                                    (SB_LEGENDARY, SB_EXPLORE)])
def test_rule_dd_setup_explore_starts_from_a_civilization_tile_in_the_centre(sandbox, legendary_map):
    """L129: a random civilization tile of a pack in play in the centre, the
    other tiles shuffled into the stack; the Legendary sandbox may use these
    map rules (L153)."""
    centres = set()
    for seed in range(1, 12):
        S = new_game(sandbox=sandbox, legendary_map=legendary_map, packs=0b011, seed=seed)
        rec = S[0]
        placed = [t for t in range(len(TILE_IDS)) if rec["tile_where"][t] == TW_PLACED]
        assert len(placed) == 1 and D.REALM.tiles[TILE_IDS[placed[0]]].kind == "civilization"
        assert (rec["tile_q"][placed[0]], rec["tile_r"][placed[0]]) == (0, 0)
        stack = [int(t) for t in rec["tile_stack"][:int(rec["stack_len"])]]
        assert sorted(stack) == [t for t in range(12) if t != placed[0]]
        assert all(rec["tile_where"][t] == TW_STACK for t in stack)
        assert int(rec["stage"]) == ST_HEROES
        centres.add(placed[0])
    assert centres == {0, 6}                               # either pack's civilization tile


def cards_cubes(lineage, lside, cls, cside):
    """Printed cubes of the two cards, as tuples of options."""
    return (D.REALM.lineages[lineage].sides[lside].cubes + D.REALM.classes[cls].sides[cside].cubes)


def kind_of(name):
    return {"might": CUBE_MIGHT, "speed": CUBE_SPEED}.get(name, CUBE_MAGIC + D.MAGIC_COLOURS.index(name)
                                                         if name in D.MAGIC_COLOURS else None)


def test_rule_dd_setup_a_hero_is_a_lineage_and_a_class_card_either_side_up():
    """L198: choose a Lineage Card and a Class Card, each either side up; L199:
    Hearts of both; L200: the cubes they show, choosing the colour of a cube
    showing several; L202: the Class Card's starting Gold."""
    S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b001)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    assert legal(S) == [R.A_LINEAGE + i for i in range(4)]
    R.apply_action(S, 0, R.A_LINEAGE + LINEAGE_IDS.index("elf"), mask)
    assert legal(S) == [R.A_SIDE, R.A_SIDE + 1]
    R.apply_action(S, 0, R.A_SIDE + 0, mask)
    assert legal(S) == [R.A_CLASS + i for i in range(12)]
    R.apply_action(S, 0, R.A_CLASS + CLASS_IDS.index("druid"), mask)
    R.apply_action(S, 0, R.A_SIDE + 0, mask)
    printed = cards_cubes("elf", 0, "druid", 0)
    multi = [o for o in printed if len(o) > 1]
    assert multi, "the data's Elf shows a multi-colour cube on side 1"
    assert legal(S) == sorted(R.A_CUBE + kind_of(c) for c in multi[0])
    R.apply_action(S, 0, R.A_CUBE + kind_of(multi[0][-1]), mask)
    while int(S[0]["phase"]) == R.PH_START_SPELL:        # L203: the Elf's and the Druid's spells (magic_test.py)
        R.apply_action(S, 0, legal(S)[0], mask)
    rec = S[0]
    assert int(rec["stage"]) == ST_TURNS and int(rec["hero_state"][0]) == HS_WAITING
    assert int(rec["hearts"][0, 0]) == (D.REALM.lineages["elf"].sides[0].hearts
                                        + D.REALM.classes["druid"].sides[0].hearts)
    expected = np.zeros(CUBE_MAGIC + len(D.MAGIC_COLOURS), dtype=int)
    for options in printed:
        expected[kind_of(options[-1] if len(options) > 1 else options[0])] += 1
    assert list(rec["cubes"][0, 0]) == list(expected)
    assert int(rec["gold"][0]) == D.REALM.classes["druid"].sides[0].gold


def test_interpretation_dd_setup_classes_are_unique_lineages_may_repeat():
    """One Hero Chip and Targeting Token per class (L198): a class another
    hero took is not offered; the four lineages serve six heroes, so they may
    repeat (Interpretations)."""
    S = new_game(num_heroes=2, sandbox=SB_EXPLORE, packs=0b001)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    first = int(S[0]["to_play"])
    for a in (R.A_LINEAGE + 0, R.A_SIDE, R.A_CLASS + 3, R.A_SIDE):
        R.apply_action(S, 0, a, mask)
    while int(S[0]["to_play"]) == first:
        R.apply_action(S, 0, legal(S)[0], mask)
    assert R.A_LINEAGE + 0 in legal(S)
    R.apply_action(S, 0, R.A_LINEAGE + 0, mask)
    R.apply_action(S, 0, R.A_SIDE, mask)
    assert R.A_CLASS + 3 not in legal(S) and len(legal(S)) == 11


def test_rule_dd_setup_hero_selection_order_is_random():
    firsts = {int(new_game(num_heroes=4, sandbox=SB_EXPLORE, packs=1, seed=seed)[0]["to_play"])
              for seed in range(1, 30)}
    assert firsts == {0, 1, 2, 3}
    S = new_game(num_heroes=4, sandbox=SB_EXPLORE, packs=1)
    assert sorted(int(p) for p in S[0]["hero_order"][:4]) == [0, 1, 2, 3]


def test_dd_sandbox_open_2_tiles_dealt_evenly_and_placed_clockwise_from_a_random_player():
    """L109: all tiles dealt as evenly as possible to the seats; the map is
    built from a random seat, moving clockwise (the next seat), each seat
    placing one of its own tiles."""
    firsts = set()
    for seed in range(1, 16):
        S = new_game(num_heroes=4, packs=ALL_PACKS, seed=seed)
        rec = S[0]
        dealt = [int((rec["tile_holder"] == p).sum()) for p in range(4)]
        assert sorted(dealt) == [4, 4, 5, 5]                 # 18 tiles over four seats
        first = int(rec["to_play"])
        firsts.add(first)
        mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
        seats = []
        rng = np.random.default_rng(seed)
        while len(seats) < 6:
            if int(S[0]["phase"]) == R.PH_TILE_CHOOSE:
                p = int(S[0]["to_play"])
                seats.append(p)
                a = int(rng.choice(legal(S)))
                assert S[0]["tile_holder"][a - R.A_TILE] == p      # one of its own tiles
            else:
                a = int(rng.choice(legal(S)))
            R.apply_action(S, 0, a, mask)
        assert seats == [(first + i) % 4 for i in range(6)]
    assert len(firsts) > 1


# ---------------------------------------------------------------- the sandboxes and the Game Setup (L99-L189)
def load_raw(S, *raw):
    """Load the next raw draws, after those loaded before and not yet used."""
    s = S[0]
    rest = [int(v) for v in s["loaded"][int(s["loaded_pos"]):int(s["loaded_count"])]] + list(raw)
    s["loaded"][:len(rest)] = rest
    s["loaded_pos"], s["loaded_count"] = 0, len(rest)


def test_dd_sandbox_2_sandbox_option_selects_open_explore_or_legendary():
    """L101: the game is played in one of the sandboxes -- Open Realm,
    Explore the Realm or Legendary -- chosen as a game option; the scenario
    book is not modelled, so no scenario is accepted. The option decides the
    map: Open Realm's seats build it first (L109), Explore the Realm starts
    from one civilization tile (L129), Legendary uses either rule
    (L151-L153) and is, multi-player, as long as the players let it (L161)."""
    from dragongym.envs.core.config import ConfigError
    from dragongym.envs.dragons_down.game import GAME
    assert SANDBOXES == ("open_realm", "explore_the_realm", "legendary")
    for name in SANDBOXES:
        assert GAME.make_config(sandbox=name).sandbox == name
    with pytest.raises(ConfigError):
        GAME.make_config(sandbox="scenario_1")
    built_first = {}
    for sandbox, legendary_map in ((SB_OPEN_REALM, SB_OPEN_REALM), (SB_EXPLORE, SB_OPEN_REALM),
                                   (SB_LEGENDARY, SB_OPEN_REALM), (SB_LEGENDARY, SB_EXPLORE)):
        rec = new_game(num_heroes=2, sandbox=sandbox, legendary_map=legendary_map)[0]
        built_first[(sandbox, legendary_map)] = (int(rec["stage"]), int(rec["tiles_placed"]), int(rec["stack_len"]))
    assert built_first[(SB_OPEN_REALM, SB_OPEN_REALM)] == (R.ST_BUILD_REALM, 0, 0)
    assert built_first[(SB_EXPLORE, SB_OPEN_REALM)] == (ST_HEROES, 1, 17)
    assert built_first[(SB_LEGENDARY, SB_OPEN_REALM)] == built_first[(SB_OPEN_REALM, SB_OPEN_REALM)]
    assert built_first[(SB_LEGENDARY, SB_EXPLORE)] == built_first[(SB_EXPLORE, SB_OPEN_REALM)]
    for sandbox, length in ((SB_OPEN_REALM, 30), (SB_EXPLORE, 30), (SB_LEGENDARY, 100)):
        S = new_game(num_heroes=2, sandbox=sandbox)
        S[0]["max_turns"] = 100
        assert R.last_turn(S, 0) == length


def test_dd_sandbox_explore_1_explore_the_realm_starts_without_a_built_map():
    """L123-L125: Explore the Realm is Open Realm "except that the map is
    built during game play rather than created prior to game start": no tile
    is dealt and the seats build nothing; the heroes are chosen with one tile
    on the map and the others in the stack, and the map grows when a hero
    explores (L583)."""
    from tests.dragons_down.actions_test import PLAINS_1, act, deepdelve
    S = new_game(num_heroes=2, sandbox=SB_OPEN_REALM, packs=0b001)
    assert int(S[0]["stage"]) == R.ST_BUILD_REALM and int(S[0]["phase"]) == R.PH_TILE_CHOOSE
    play(S, np.random.default_rng(1), until_stage=ST_HEROES)
    assert int(S[0]["tiles_placed"]) == 6                 # built before the first hero is chosen
    S = new_game(num_heroes=2, sandbox=SB_EXPLORE, packs=0b001)
    rec = S[0]
    assert int(rec["stage"]) == ST_HEROES and int(rec["phase"]) == R.PH_LINEAGE
    assert int(rec["tiles_placed"]) == 1 and int(rec["stack_len"]) == 5
    assert not (rec["tile_where"] == R.TW_HAND).any() and (rec["tile_holder"] == -1).all()
    S = deepdelve()
    act(S, R.A_CLEARING + PLAINS_1)
    assert int(S[0]["tiles_placed"]) == 1                 # the game has begun on a one-tile map
    act(S, R.A_EXPLORE + 0)                               # north, the path off clearing 1
    act(S, legal(S)[0])
    assert int(S[0]["tiles_placed"]) == 2 and int(S[0]["stack_len"]) == 4


@pytest.mark.parametrize("packs", PACK_SETS, ids=["+".join(p) for p in PACK_SETS])
def test_dd_setup_game_1_packs_in_play_are_a_game_option(packs):
    """L176-L178: the players decide which Terrain Packs they use (the
    ``terrain_packs`` option): only those packs' tiles come into play -- dealt
    (Open Realm) or on the map and in the stack (Explore the Realm) -- and
    only their Terrain Setup Cards and Civilization Locations."""
    from dragongym.envs.dragons_down.game import GAME
    bits = pack_bits(packs)
    states = GAME.new_states(1)
    GAME.reset(states, np.array([1], dtype=np.uint64),
               GAME.make_config(terrain_packs=packs, sandbox="explore_the_realm"))
    assert int(states[0]["packs"]) == bits
    for sandbox in (SB_OPEN_REALM, SB_EXPLORE):
        rec = new_game(num_heroes=2, sandbox=sandbox, packs=bits, seed=len(packs))[0]
        for t, tid in enumerate(TILE_IDS):
            in_play = D.REALM.tiles[tid].pack in packs
            assert (int(rec["tile_where"][t]) != TW_OUT) == in_play, tid
        for k, pack in enumerate(D.PACKS):
            assert (int(rec["setup_side"][k]) >= 0) == (pack in packs)
            if pack not in packs:
                assert int(rec["civ_clearing"][k]) == -1


def pile_of(rec, pack):
    """Indices of ``pack``'s Wilderness Tokens still face down on its setup card."""
    from dragongym.envs.dragons_down.constants import TOK_POOL
    return [w for w in range(len(R.WILD_PACK)) if int(R.WILD_PACK[w]) == D.PACKS.index(pack)
            and int(rec["wild_where"][w]) == TOK_POOL]


def test_dd_setup_game_4_wilderness_tokens_shuffled_per_pack():
    """L181: each pack's Wilderness Tokens lie shuffled face down on its own
    Terrain Setup Card: at the set-up every token is in its pile, and a
    wilderness tile of a pack draws a random token of that pile only (the
    k-th draw picks the k-th token of it, whichever pack's tile it is)."""
    from dragongym.envs.dragons_down.constants import TOK_POOL, WILD_TOKENS
    S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=ALL_PACKS)
    rec = S[0]
    assert (rec["wild_where"] == TOK_POOL).all() and (rec["wild_tile"] == -1).all()
    for pack in D.PACKS:
        tile = next(t for t, tid in enumerate(TILE_IDS) if D.REALM.tiles[tid].pack == pack
                    and D.REALM.tiles[tid].kind == "wilderness")
        pile = pile_of(rec, pack)
        assert len(pile) == sum(w.copies for w in D.REALM.wilderness_tokens.values() if w.pack == pack)
        drawn = set()
        for k in range(len(pile)):
            T = S.copy()
            load_raw(T, k, 0, 0, 0, 0)                    # the token; then whatever it asks for
            R.reveal_wild_token(T, 0, 0, tile, D.PACKS.index(pack))
            got = [w for w in range(len(WILD_TOKENS)) if int(T[0]["wild_tile"][w]) == tile]
            assert got == [pile[k]]
            drawn.add(got[0])
        assert drawn == set(pile)                         # any of the pile may come, no other


def test_dd_setup_game_5_one_civilization_token_pool_for_all_packs():
    """L182: the Civilization Tokens of all packs in play are one shuffled
    pool: a civilization tile of one pack may draw another pack's token, and
    never one of a pack not in play."""
    from dragongym.envs.dragons_down.constants import CIV_TOKENS, TOK_PLACED, TOK_POOL
    S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b101)       # Cruel Caves and Wicked Woods
    rec = S[0]
    for k in range(len(CIV_TOKENS)):
        rec["civ_token_where"][k] = TOK_POOL                          # all back in the pool
    pool = [k for k in range(len(CIV_TOKENS)) if not CIV_TOKENS[k].startswith("mm_")]
    seen = set()
    for raw in range(len(pool) + 2):
        T = S.copy()
        load_raw(T, raw, *([0] * 8))
        R.reveal_civ_token(T, 0, DEEPDELVE_1, 0)
        got, = [k for k in range(len(CIV_TOKENS)) if int(T[0]["civ_token_where"][k]) == TOK_PLACED]
        assert got == pool[raw % len(pool)] and int(T[0]["civ_token_clearing"][got]) == DEEPDELVE_1
        seen.add(CIV_TOKENS[got][:2])
    assert seen == {"cc", "ww"}


DEEPDELVE_1 = TILE_IDS.index("deepdelve") * CLEARINGS_PER_TILE


def test_dd_setup_game_6_one_treasure_site_pool_for_all_packs():
    """L183: the Treasure Site Tokens of all packs in play are one shuffled
    pool: a Site token in a Cruel Caves tile may bring the Wicked Woods'
    Shrine, never the Malevolent Mountains' sites when that pack is out."""
    S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b101)
    tile = TILE_IDS.index("secret_dens")
    pool = [i for i, st in enumerate(D.REALM.site_tokens.values()) if st.pack != "malevolent_mountains"]
    assert [list(D.REALM.site_tokens.values())[i].site for i in pool] == ["catacombs", "chamber", "shrine"]
    for raw, i in enumerate(pool):
        T = S.copy()
        load_raw(T, raw)
        R.place_site_token(T, 0, tile)
        site = R.SITE_IDS.index(list(D.REALM.site_tokens.values())[i].site)
        assert int(T[0]["site_clearing"][site]) // CLEARINGS_PER_TILE == tile
        assert int((T[0]["site_clearing"] >= 0).sum()) == 1


def test_dd_setup_game_8_spell_treasure_and_deep_decks_shuffled_apart():
    """L185: the Treasure and Deep Treasure Cards are separate face-down
    decks, each shuffled: every card starts in its own deck, and a draw from
    one deck is a random card of that deck, never of the other. (The Spell
    decks come with magic, part 2.)"""
    from dragongym.envs.dragons_down.constants import CW_DECK, DECK_DEEP, DECK_TREASURE
    rec = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b001)[0]
    assert all(int(rec["card_where"][c]) == CW_DECK and int(rec["card_owner"][c]) == int(R.CARD_DECK[c])
               for c in range(len(R.CARD_DECK)))
    S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b001)
    for deck in (DECK_TREASURE, DECK_DEEP):
        cards = [c for c in range(len(R.CARD_DECK)) if int(R.CARD_DECK[c]) == deck]
        for raw in (0, 1, len(cards) - 1):
            T = S.copy()
            load_raw(T, raw)
            assert R.draw_card(T, 0, deck) == cards[raw]
        kinds = set()
        for seed in range(1, 30):
            T = S.copy()
            T[0]["seed"] = seed
            c = R.draw_card(T, 0, deck)
            assert int(R.CARD_DECK[c]) == deck
            kinds.add(int(R.CARD_KIND[c]))
        assert len(kinds) > 5


def test_dd_setup_game_9_every_monster_starts_in_the_trays():
    """L186, L300: Monsters need no set-up; every chip stays in the monster
    trays until it is summoned: through the set-up, hero selection and the
    whole first action phase none is on the map."""
    from dragongym.envs.dragons_down.constants import MON_TRAY
    for sandbox in (SB_OPEN_REALM, SB_EXPLORE):
        S = new_game(num_heroes=3, sandbox=sandbox, seed=4)
        rng = np.random.default_rng(sandbox)
        mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
        while int(S[0]["stage"]) <= ST_TURNS and int(S[0]["turn"]) <= 1:
            assert (S[0]["mon_clearing"] == MON_TRAY).all()
            assert R.apply_action(S, 0, int(rng.choice(legal(S))), mask) == R.E_OK


def test_dd_setup_game_11_map_built_by_the_sandbox_rule():
    """L188: the Map Tiles of the packs in play are shuffled, then the map is
    built as the sandbox says: dealt out in a random order to the seats who
    place them (Open Realm, L109), or left as the tile stack from which
    Explore Actions draw (Explore the Realm, L129)."""
    from dragongym.envs.dragons_down.constants import TW_HAND
    hands, stacks = set(), set()
    for seed in range(1, 9):
        rec = new_game(num_heroes=2, sandbox=SB_OPEN_REALM, packs=0b011, seed=seed)[0]
        dealt = [t for t in range(len(TILE_IDS)) if int(rec["tile_where"][t]) == TW_HAND]
        assert sorted(dealt) == list(range(12))           # every tile of both packs, to be placed by the seats
        hands.add(tuple(t for t in dealt if int(rec["tile_holder"][t]) == 0))
        rec = new_game(num_heroes=2, sandbox=SB_EXPLORE, packs=0b011, seed=seed)[0]
        stack = tuple(int(t) for t in rec["tile_stack"][:int(rec["stack_len"])])
        assert len(stack) == 11 and all(int(rec["tile_where"][t]) == TW_STACK for t in stack)
        stacks.add(stack)
    assert len(hands) > 4 and len(stacks) > 4            # shuffled: a different deal each game


# ---------------------------------------------------------------- Hero Selection (L197-L206)
def made_heroes():
    """One hero of every Class Card side, the Lineages and their sides in
    turn; the last colour of a cube showing several. Yields ((lineage,
    lineage side, class, class side, colour choices), the record)."""
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    for i, cls in enumerate(CLASS_IDS):
        for cside in (0, 1):
            lineage, lside = LINEAGE_IDS[(2 * i + cside) % 4], (i + cside) % 2
            S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=0b001, seed=i + 1)
            for a in (R.A_LINEAGE + LINEAGE_IDS.index(lineage), R.A_SIDE + lside,
                      R.A_CLASS + CLASS_IDS.index(cls), R.A_SIDE + cside):
                assert R.apply_action(S, 0, a, mask) == R.E_OK
            while int(S[0]["phase"]) in (R.PH_CUBE_COLOUR, R.PH_START_SPELL):
                R.apply_action(S, 0, legal(S)[-1], mask)
            yield (lineage, lside, cls, cside), S[0]


def test_dd_setup_hero_5_hearts_of_both_cards_start_healthy():
    """L199: the Hero takes Hearts equal to those shown on both cards, in the
    healthy box -- none wounded -- for every Class Card side."""
    for (lineage, lside, cls, cside), rec in made_heroes():
        want = D.REALM.lineages[lineage].sides[lside].hearts + D.REALM.classes[cls].sides[cside].hearts
        assert list(rec["hearts"][0]) == [want, 0], (lineage, cls, cside)


def test_dd_setup_hero_6_action_cubes_of_both_cards_start_healthy():
    """L200: the Hero takes the Action Cubes shown on the Lineage and Class
    Cards, one per printed cube (of the colour chosen where it shows
    several), into the healthy box; the wounded box stays empty."""
    for (lineage, lside, cls, cside), rec in made_heroes():
        printed = cards_cubes(lineage, lside, cls, cside)
        want = np.zeros(CUBE_MAGIC + len(D.MAGIC_COLOURS), dtype=int)
        for options in printed:
            want[max(kind_of(o) for o in options)] += 1    # the last option offered, as chosen
        assert list(rec["cubes"][0, 0]) == list(want), (lineage, cls, cside)
        assert int(rec["cubes"][0, 1].sum()) == 0 and int(rec["cubes_taken"][0]) == len(printed)


def test_dd_setup_hero_9_starting_gold_from_the_class_card():
    """L202: the Hero takes the starting Gold of his face-up Class Card into
    his backpack (the Lineage Card prints none)."""
    golds = set()
    for (lineage, lside, cls, cside), rec in made_heroes():
        assert int(rec["gold"][0]) == D.REALM.classes[cls].sides[cside].gold, (cls, cside)
        golds.add(int(rec["gold"][0]))
    assert len(golds) > 1


def test_dd_setup_hero_13_remaining_items_form_the_item_deck():
    """L201, L206: once every Hero has taken his starting equipment, the
    remaining Item Cards are shuffled into the Item deck. So in Explore the
    Realm the Merchants the set-up revealed in the centre (L129) are filled
    only then (L491, from the piles of the set-up): before the last hero is
    made no Merchant holds a card, and every hero gets his Class Card's
    items; after, every Item Card not on a hero is in the deck or with a
    Merchant."""
    from dragongym.envs.dragons_down.constants import CW_DECK, CW_HERO, CW_MERCHANT, DECK_ITEM, TOK_PLACED
    from tests.dragons_down.actions_test import make_hero
    for seed in range(1, 6):
        S = new_game(num_heroes=6, sandbox=SB_EXPLORE, packs=ALL_PACKS, seed=seed)
        rec = S[0]
        merchants = [int(R.CIV_TOKEN_MERCHANT[k]) for k in range(len(R.CIV_TOKEN_MERCHANT))
                     if int(rec["civ_token_where"][k]) == TOK_PLACED and R.CIV_TOKEN_MERCHANT[k] >= 0]
        classes = ["knight", "barbarian", "archer", "warrior", "cleric", "rogue"]
        for i, cls in enumerate(classes):
            assert not (rec["card_where"] == CW_MERCHANT).any()           # no deck to fill them from yet
            make_hero(S, "dwarf", cls)
        for p in range(6):
            cls = CLASS_IDS[int(rec["hero_class"][p])]
            held = sorted(R.CARD_IDS[R.CARD_KIND[c]] for c in range(len(R.CARD_KIND))
                          if rec["card_where"][c] == CW_HERO and rec["card_owner"][c] == p)
            assert held == sorted(D.REALM.classes[cls].sides[0].equipment)
            assert int(rec["gold"][p]) == D.REALM.classes[cls].sides[0].gold      # no item paid in Gold (L823)
        side = {m: int(rec["setup_side"][R.MERCHANT_PACK[m]]) for m in merchants}
        for m in merchants:
            stock = [c for c in range(len(R.CARD_KIND)) if rec["card_where"][c] == CW_MERCHANT
                     and rec["card_owner"][c] == m]
            assert len(stock) == int(R.MERCHANT_STOCK[m, side[m], :2].sum())     # treasures and items
        for c in range(len(R.CARD_KIND)):
            if int(R.CARD_DECK[c]) == DECK_ITEM:
                assert int(rec["card_where"][c]) in (CW_HERO, CW_DECK, CW_MERCHANT)
                if int(rec["card_where"][c]) == CW_DECK:
                    assert int(rec["card_owner"][c]) == DECK_ITEM


def test_dd_comp_setupcard_1_only_setup_cards_of_packs_in_play():
    """L282-L284: only the Terrain Setup Cards of the packs in play are used:
    with one pack, the others' cards have no side up, and no Native, Merchant,
    Civilization, Wilderness or Site Token of theirs ever comes to the map."""
    from dragongym.envs.dragons_down.constants import CIV_TOKENS, TOK_POOL
    for k, pack in enumerate(D.PACKS):
        S = new_game(num_heroes=1, sandbox=SB_EXPLORE, packs=1 << k, seed=k + 2)
        rec = S[0]
        assert [int(rec["setup_side"][j]) >= 0 for j in range(3)] == [j == k for j in range(3)]
        natives = {D.REALM.natives[NATIVE_CHIP_KINDS[c]].pack for c in range(len(NATIVE_CHIP_KINDS))
                   if rec["native_clearing"][c] >= 0}
        assert natives == {pack}
        tile = next(t for t, tid in enumerate(TILE_IDS) if D.REALM.tiles[tid].pack == pack
                    and D.REALM.tiles[tid].kind == "wilderness")
        for raw in range(12):
            T = S.copy()
            for i in range(len(CIV_TOKENS)):
                T[0]["civ_token_where"][i] = TOK_POOL
            load_raw(T, raw, raw, raw, 0, 0, 0)
            R.reveal_civ_token(T, 0, int(rec["civ_clearing"][k]), 1)
            R.place_site_token(T, 0, tile)
            R.reveal_wild_token(T, 0, 0, tile, k)
            r = T[0]
            assert {CIV_TOKENS[i][:2] for i in range(len(CIV_TOKENS)) if r["civ_token_where"][i] != TOK_POOL} \
                == {pack[0] + pack.split("_")[1][0]}
            assert all(int(R.MERCHANT_PACK[int(r["card_owner"][c])]) == k for c in range(len(R.CARD_KIND))
                       if int(r["card_where"][c]) == 3)
            assert all(int(R.SITE_PACK[s]) == k for s in range(len(R.SITE_PACK)) if r["site_clearing"][s] >= 0)
            assert all(int(R.WILD_PACK[w]) == k for w in range(len(R.WILD_PACK)) if r["wild_where"][w] != TOK_POOL)
