"""Complete games of random legal play in every scenario, checking after
every decision: the record sound (``GAME.check_state``: one owner per hex,
every field in range), units conserved (every counter of the scenario in one
place, the dead never back but by a heroic escape), zones of control
respected by every step made (judged here, in Python, from the position
before it), the mask exact (a masked action is refused and changes
nothing), and every game ending with a valid outcome.

The players are random but not aimless: they deploy near the Old Sartar
border and most of their steps close on the enemy, so that battles, missile
fire, retreats, advances and heroic escapes come up in most games.

CI plays 50 games of each scenario (18.7, fourteen game-turns of both whole
Battalia and the Independents, 10); ``DRAGONGYM_LONG_FUZZ=1`` plays 500 of
each. A second player never says 'done' while anything else is legal, so a
free act that could be repeated without end holds a phase open (one game of
each scenario in CI, 20 with ``DRAGONGYM_LONG_FUZZ=1``)."""
import os

import numpy as np
import pytest

from dragongym.envs.core.outcome import ranking_problem
from dragongym.envs.dragon_pass import rules as R
from dragongym.envs.dragon_pass import view as V
from dragongym.envs.dragon_pass.board import HEX_STEP, NUM_HEXES
from dragongym.envs.dragon_pass.constants import (
    NUM_UNITS, PLAYABLE_SCENARIOS as SCENARIOS, UW_DEAD, UW_ESCAPING, UW_MAP, UW_OUT, UW_POOL,
)
from dragongym.envs.dragon_pass.data import MAP
from dragongym.envs.dragon_pass.game import GAME
from tests.core.stalling import play_stalling

LONG = os.environ.get("DRAGONGYM_LONG_FUZZ") == "1"
GAMES = 500 if LONG else 50
CI_GAMES = {"18.7": 10, "18.8": 5, "18.9": 5}
"""Scenarios whose games are long enough to play fewer in CI."""
CHUNKS = 5

OLD_SARTAR = np.zeros(NUM_HEXES, bool)
OLD_SARTAR[list(MAP.hexes("old_sartar"))] = True
BORDER = {h for h in range(NUM_HEXES)
          if any(g >= 0 and OLD_SARTAR[g] != OLD_SARTAR[h] for g in HEX_STEP[h, 1:])}
NEAR_BORDER = set(BORDER)
for _ in range(3):
    NEAR_BORDER |= {int(g) for h in NEAR_BORDER for g in HEX_STEP[h, 1:] if g >= 0}


def zoc_of(state, force):
    """Hexes in a zone of control of ``force``'s stacks (L460), judged in Python."""
    rec = V.record(state)
    out = set()
    for h, units in V.stacks(rec).items():
        top = units[0]
        if int(rec["unit_force"][top]) != force:        # an Independent plays for its ally
            continue
        sd = int(rec["unit_side"][top])
        if R.U_SINGLE[top, sd] or (R.U_SPIRIT[top, sd] and (R.U_RF[top, sd] < 0 or R.U_RF_SPECIAL[top, sd])):
            continue
        out.update(int(g) for g in HEX_STEP[h, 1:] if g >= 0)
    return out


def choose(state, legal, rng):
    """A random legal action, deployments near the border and most steps toward the enemy."""
    rec = V.record(state)
    ph = int(rec["phase"])
    hexes = [a for a in legal if a < R.A_UNIT]
    if ph == R.PH_DEPLOY:
        near = [a for a in hexes if a - R.A_HEX in NEAR_BORDER]
        if near and rng.random() < 0.9:
            return int(rng.choice(near))
    if ph == R.PH_MOVE_GROUP and hexes and rng.random() < 0.7:
        me = int(rec["to_play"])
        enemy = [int(rec["unit_hex"][u]) for u in range(NUM_UNITS)
                 if int(rec["unit_where"][u]) == UW_MAP and int(rec["unit_force"][u]) not in (me, -1)]
        if enemy:
            return int(min(hexes, key=lambda a: min(MAP.distance(a - R.A_HEX, e) for e in enemy)))
    if ph == R.PH_MOVE and rng.random() < 0.15 and R.A_CHOICE + R.CH_DONE in legal:
        return R.A_CHOICE + R.CH_DONE
    return int(rng.choice(legal))


def check_step(before, after, a, seed):
    """The step just made respected the zones of control (L460, L460, L1036)."""
    rb = V.record(before)
    if int(rb["phase"]) != R.PH_MOVE_GROUP or not R.A_HEX <= a < R.A_UNIT:
        return
    me = int(rb["to_play"])
    n = int(rb["num_players"])
    enemy_zoc = set().union(*(zoc_of(before, f) for f in range(n) if f != me))   # every other player's (18.8: two)
    frm, to = int(rb["sel_hex"]), a - R.A_HEX
    if int(rb["group_moved"]) == 0 and frm in enemy_zoc:
        assert to not in enemy_zoc, f"game {seed}: a group left a ZOC straight into another ({V.hex_name(to)})"
    if to in enemy_zoc:
        ra = V.record(after)
        moved_on = int(ra["phase"]) == R.PH_MOVE_GROUP and int(ra["sel_hex"]) == to and int(ra["to_play"]) == me
        assert not moved_on, f"game {seed}: a group entered a ZOC at {V.hex_name(to)} and was not stopped"


def check_units(state, deployed, dead_before, seed):
    rec = V.record(state)
    where = rec["unit_where"]
    alliances = bool(R.SCENARIO_DIPLOMACY[int(rec["scenario"])])
    if not alliances:
        assert int((where != UW_OUT).sum()) == deployed, f"game {seed}: units appeared or vanished"
    dead = {u for u in range(NUM_UNITS) if int(where[u]) == UW_DEAD}
    # only the Full Moon Corps come back from the dead pile, summoned on a Full Moon day (L712);
    # in the Full and Marathon Games replacements (L299, L323), resurrected dragonewts (L742)
    # and zombies risen again (L821) too
    back = dead_before - {R.FULL_MOON_CORPS} - dead
    back = {u for u in back if R.U_HOME_CITY[u] < 0}        # dragonewts resurrect (L742)
    # a zombie counter of a chain wiped out rises again as a new zombie (L821; Interpretations 110)
    back = {u for u in back if not R.ZOMBIE_1 <= u <= R.ZOMBIE_LAST}
    if alliances:
        back = {u for u in back if R.U_REPLACEABLE[u] < 0}
    assert not back, f"game {seed}: a dead unit came back"
    for u in range(NUM_UNITS):
        if int(where[u]) in (UW_POOL, UW_DEAD, UW_ESCAPING, UW_OUT):
            assert int(rec["unit_hex"][u]) == -1
    return dead


def play_to_the_end(seed, scenario, screening):
    rng = np.random.default_rng(seed)
    config = GAME.make_config(scenario=scenario, screening=screening)
    S = GAME.new_states(1)
    GAME.reset(S, np.array([seed], np.uint64), config)
    deployed = int((S[0]["unit_where"] != UW_OUT).sum())
    dead = set()
    decisions = 0
    errors = np.zeros(1, np.int8)
    while int(S[0]["status"]) == 0:
        mask = GAME.mask_of(S)
        legal = np.flatnonzero(mask)
        assert len(legal), f"game {seed}: phase {int(S[0]['phase'])} has no legal action"
        masked = np.flatnonzero(mask == 0)
        if len(masked):
            before = S.tobytes()
            GAME.step(S, np.array([rng.choice(masked)], np.int32), errors)
            assert errors[0] == R.E_ILLEGAL and S.tobytes() == before, f"game {seed}: a masked action was taken"
        a = choose(S, [int(x) for x in legal], rng)
        before = S.copy()
        GAME.step(S, np.array([a], np.int32), errors)
        assert errors[0] == 0
        decisions += 1
        check_step(before, S, a, seed)
        dead = check_units(S, deployed, dead, seed)
        problem = GAME.check_state(S)
        assert not problem, f"game {seed}, decision {decisions}: {problem}"
    s = S[0]
    assert int(s["status"]) == 1 and int(s["to_play"]) == -1
    assert not ranking_problem([int(r) for r in s["rank"][:int(s["num_players"])]])
    return decisions, int(s["decisions"])


@pytest.mark.parametrize("scenario", SCENARIOS)
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_to_their_end_keep_every_invariant(scenario, chunk):
    per = (GAMES if LONG else CI_GAMES.get(scenario, GAMES)) // CHUNKS
    for g in range(chunk * per, (chunk + 1) * per):
        made, _ = play_to_the_end(7000 + g, scenario, screening=g % 2 == 1)
        assert made > 0


STALL_GAMES = 20 if LONG else 1


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_a_player_who_never_says_done_while_he_may_do_anything_else_still_ends_every_phase(scenario):
    """Every phase is finite: each of its optional acts (a step, a summons, an
    arrangement, a support) can be taken only so often, so a player who picks
    at random among everything but 'done' still reaches the phase's end, and
    the game its outcome, before the decision limit. A free act that could be
    repeated without end (the Dragontooth Runners summoned again and again, game
    versions up to 10, Interpretations 40) would hold one stage of one
    player-turn here forever."""
    config = GAME.make_config(scenario=scenario)
    rng = np.random.default_rng(11)
    for g in range(STALL_GAMES):
        _, status = play_stalling(GAME, config, 9000 + g, rng, [R.A_CHOICE + R.CH_DONE],
                                  stage_of=lambda state: (int(state[0]["stage"]), int(state[0]["player_turn"])))
        assert status == 1            # a scenario ends by its victory conditions
