"""Random legal play of Dragons Down as far as it is built (set-up, the
action phase with Learn and Enchant, monster activation, combat, curses),
every sandbox and hero count, checking the invariants after every decision; and the same game gives the same bytes
compiled and in plain Python (``NUMBA_DISABLE_JIT=1``)."""
import os
import subprocess
import sys

import numpy as np
import pytest

from dragongym.envs.dragons_down import rules as R
from dragongym.envs.dragons_down.constants import (
    CARD_IDS, CW_CLEARING, CW_DECK, CW_HERO, CW_MERCHANT, CW_REMOVED, CW_SITE, HS_ACTIVE, MON_SHAPE, MON_TAKEN, MON_TRAY, NUM_CARDS,
    NUM_CLEARINGS, NUM_POSITIONS, OPTIONAL_RULES, SB_EXPLORE, SB_LEGENDARY, SB_OPEN_REALM, T_BACKPACK,
    T_PENDING,
    TW_PLACED,
)
from dragongym.envs.dragons_down.state import STATE_DTYPE


def check(S):
    """The invariants every reachable position keeps; raises AssertionError."""
    s = S[0]
    n = int(s["num_players"])
    placed = [t for t in range(18) if s["tile_where"][t] == TW_PLACED]
    positions = {(int(s["tile_q"][t]), int(s["tile_r"][t])) for t in placed}
    assert len(positions) == len(placed), "two tiles on one position"
    assert int(s["tiles_placed"]) == len(placed)
    for p in range(n):
        assert s["hearts"][p].min() >= 0 and s["cubes"][p].min() >= 0
        if s["hero_state"][p] == HS_ACTIVE:
            c = int(s["hero_clearing"][p])
            assert 0 <= c < NUM_CLEARINGS and c // 6 in placed and R.CLEARING_TYPE[c // 6, int(s["tile_side"][c // 6]), c % 6] >= 0
        assert 0 <= int(s["actions_used"][p]) <= 4
        cover = np.zeros(NUM_POSITIONS, dtype=int)
        weapons = shields = 0
        for card in range(NUM_CARDS):
            if s["card_where"][card] == CW_HERO and s["card_owner"][card] == p and s["card_slot"][card] < T_BACKPACK:
                k = int(R.CARD_KIND[card])
                cover += R.TARGET_COVERS[int(s["card_slot"][card])]
                weapons += int(R.KIND_WEAPON[k])
                shields += int(R.KIND_SHIELD[k])
                assert R.KIND_WEIGHT[k] <= s["cubes"][p, 0, 0], "equipped beyond its weight"
                assert R.TARGET_OK[R.KIND_POSITION[k], int(s["card_slot"][card])]
        assert cover.max() <= 1 and weapons <= 1 and shields <= 1
    for card in range(NUM_CARDS):
        assert s["card_where"][card] in (CW_DECK, CW_HERO, CW_REMOVED, CW_MERCHANT, CW_SITE, CW_CLEARING)
        if s["card_where"][card] == CW_HERO and s["card_slot"][card] == T_PENDING:
            # asked now, or gained in the action under way (settled once it is over, L972)
            acting = int(s["turn_order"][int(s["order_pos"])]) if int(s["stage"]) == R.ST_TURNS \
                and int(s["order_pos"]) < n else -1
            owner = int(s["card_owner"][card])
            assert (int(s["phase"]) in (R.PH_GAINED, R.PH_REROLL) and int(s["to_play"]) == owner) \
                or (owner == acting and int(s["phase"]) != R.PH_ACTION)
        if s["card_where"][card] == CW_HERO:
            assert 0 <= s["card_owner"][card] < n
    for m in range(s["mon_clearing"].shape[0]):
        c = int(s["mon_clearing"][m])
        assert c in (MON_TRAY, MON_TAKEN) or (c == MON_SHAPE and m + 1 in s["shape"].tolist()) \
            or (0 <= c < NUM_CLEARINGS and c // 6 in placed)
    check_magic(s, n)


def check_magic(s, n):
    """Spell Cards, enchantments and curses: every Spell Card in one place of
    its own deck's; a hero knows only spells of its Magic Cubes' colours (or
    universal ones, L204, L538), each kind at most once per deck (L1016); a
    Spell Book or Scroll holds at most the spells it shows (L1424); an
    enchanted tile is on the map; only lasting curses are held (L1103).
    Once an Alchemist's Mixture was used (L1284: a Magic Cube turned into
    another colour), a hero may know a spell of a colour he no longer holds:
    nothing makes him forget it (a 30-turn fuzz found such a game)."""
    lasting = sum(1 << k for k in range(R.NUM_CURSES) if not R.CURSE_INSTANT[k])
    mixed = any(CARD_IDS[R.CARD_KIND[c]] == "alchemists_mixture" and int(s["card_where"][c]) == CW_REMOVED
                for c in range(R.NUM_CARDS))
    for p in range(n):
        assert int(s["curses"][p]) & ~lasting == 0, "an instant curse is held"
        kinds = set()
        for sp in range(R.NUM_SPELLS):
            if int(s["spell_where"][sp]) == R.SPW_KNOWN and int(s["spell_owner"][sp]) == p:
                colour = int(R.SPELL_COLOUR[R.SPELL_KIND[sp]])
                cubes = s["cubes"][p, 0, R.CUBE_MAGIC:] + s["cubes"][p, 1, R.CUBE_MAGIC:]
                assert mixed or ((cubes.sum() > 0) if colour < 0 else cubes[colour] > 0), \
                    "a spell of no colour of the hero's"
                key = (int(R.SPELL_KIND[sp]), int(R.SPELL_FROM[sp]))
                assert key not in kinds, "a spell known twice from one deck"
                kinds.add(key)
    under = {}
    for sp in range(R.NUM_SPELLS):
        if int(s["spell_where"][sp]) == R.SPW_ATTACHED:
            c = int(s["spell_owner"][sp])
            under[c] = under.get(c, 0) + 1
    for c, count in under.items():
        assert count <= int(R.KIND_SPELLS[R.CARD_KIND[c]]), "more spells under a card than it holds"
    for t in range(18):
        if int(s["tile_enchant"][t]) >= 0:
            assert int(s["tile_where"][t]) == TW_PLACED, "an enchanted tile off the map"
    check_casting(s, n)


def check_casting(s, n):
    """Spells cast in combat: a spell in play lasts (not instantaneous, L1040)
    on its caster's known card, on a hero in play or a foe on the map; a
    Spell Card being cast is its caster's, its cubes among his healthy ones
    and within his cube limit (L716, L723), and only during combat."""
    for sp in range(R.NUM_SPELLS):
        t = int(s["spell_on"][sp])
        if t >= 0:
            assert R.SPELL_DURATION[R.SPELL_KIND[sp]] != R.DUR_INSTANT, "an instantaneous spell in play"
            assert int(s["spell_where"][sp]) == R.SPW_KNOWN, "a spell in play that no hero knows"
            if t >= R.AIM_HERO:
                assert int(s["hero_state"][t - R.AIM_HERO]) == HS_ACTIVE, "a spell on a hero out of play"
    for p in range(n):
        c = int(s["cast_card"][p])
        if c >= 0:
            assert int(s["combat_step"]) != 0, "a spell cast outside combat"
            assert int(s["spell_where"][c]) == R.SPW_KNOWN and int(s["spell_owner"][c]) == p
        assert (s["cast_cubes"][p] <= s["cubes"][p, 0, R.CUBE_MAGIC:]).all(), "more cubes cast than healthy"
        assert int(s["cast_cubes"][p].sum()) + int(s["placed"][p].sum()) <= 6, "beyond the cube limit"


def play(seed, num_heroes, sandbox, packs, legendary_map=SB_OPEN_REALM, checks=True, turns=2, options=0):
    """One game by random legal decisions for ``turns`` turns (or to its end),
    with the optional rules ``options`` (bits ``constants.OPT_*``); returns its bytes."""
    S = np.zeros(1, dtype=STATE_DTYPE)
    R.reset_game(S, 0, np.uint64(seed), num_heroes, sandbox, packs, 30, legendary_map, 1, 0, options, 20)
    rng = np.random.default_rng(seed)
    mask = np.zeros(R.NUM_ACTIONS, dtype=np.int8)
    while int(S[0]["status"]) == 0 and int(S[0]["turn"]) <= turns:
        m = R.fill_mask(S, 0, mask)
        assert m > 0, f"stage {int(S[0]['stage'])} phase {int(S[0]['phase'])}: no legal action"
        a = int(rng.choice(np.flatnonzero(mask)))
        assert R.apply_action(S, 0, a, mask) == R.E_OK
        illegal = int(np.flatnonzero(mask == 0)[0]) if (mask == 0).any() else -1
        if illegal >= 0 and int(S[0]["status"]) == 0:
            before = S.tobytes()
            assert R.apply_action(S, 0, illegal, np.zeros(R.NUM_ACTIONS, dtype=np.int8)) == R.E_ILLEGAL
            assert S.tobytes() == before, "a refused action changed the game"
        if checks:
            check(S)
    return S.tobytes()


CASES = [(h, sb, packs) for h in (1, 2, 4, 6) for sb in (SB_OPEN_REALM, SB_EXPLORE, SB_LEGENDARY)
         for packs in (0b001, 0b110, 0b111)]
EVERY_RULE = (1 << len(OPTIONAL_RULES)) - 1


@pytest.mark.parametrize("num_heroes,sandbox,packs", CASES)
def test_random_play_keeps_the_invariants_and_the_mask_exact(num_heroes, sandbox, packs):
    for seed in range(3):
        play(seed + 10 * num_heroes, num_heroes, sandbox, packs)
        play(seed + 10 * num_heroes, num_heroes, sandbox, packs, options=EVERY_RULE)


SCRIPT = """
import hashlib, sys
sys.path.insert(0, {root!r})
from tests.dragons_down.fuzz_test import play
print(hashlib.sha1(b''.join(play(s, 3, sb, 0b111, checks=False, options=o) for s in (1, 2) for sb in (0, 1)
                           for o in (0, {every}))).hexdigest())
"""


def test_the_same_games_give_the_same_bytes_compiled_and_in_plain_python():
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = []
    for disable in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable, PYTHONWARNINGS="ignore")
        res = subprocess.run([sys.executable, "-c", SCRIPT.format(root=root, every=EVERY_RULE)], env=env, capture_output=True,
                             text=True, timeout=600)
        assert res.returncode == 0, res.stderr[-2000:]
        out.append(res.stdout.strip())
    assert out[0] == out[1]
