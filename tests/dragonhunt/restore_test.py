"""Restoring Dragonhunt records: every reachable position passes
``check_state`` (so the soundness ranges refuse no real game), and a corrupted
record is either refused before anything is copied in or safe to play on (it
can never crash the interpreter through the compiled core)."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import dragongym
from dragongym.envs.core.game import InvalidStateError
from dragongym.envs.dragonhunt import rules as R
from dragongym.envs.dragonhunt.game import GAME
from dragongym.envs.dragonhunt.soundness import FIELD_RANGES, record_problems

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_every_visited_position_of_random_games_is_sound():
    """A few hundred random games (2 to 6 seats, the final positions
    included): ``check_state`` is "" at every position they visit."""
    games = 0
    checked = 0
    for players, seed in ((2, 0), (3, 1), (4, 2), (6, 3)):
        venv = dragongym.make_vec("dragonhunt", 16, seed=seed, num_players=players, max_hands=2,
                                  observations=False, num_threads=1)
        venv.reset()
        rng = np.random.default_rng(seed)
        finished = 0
        while finished < 60:
            for b in range(venv.num_envs):
                problem = GAME.check_state(venv.states[b:b + 1])
                assert problem == "", f"{players} seats, game {b}: a visited position is refused: {problem}"
            checked += venv.num_envs
            *_, info = venv.step(venv.sample_actions(rng))
            if info:
                final = info["final_state"]
                for k in range(len(final)):
                    problem = GAME.check_state(final[k:k + 1])
                    assert problem == "", f"{players} seats: a final position is refused: {problem}"
                finished += len(final)
        games += finished
    assert games >= 240 and checked > 10_000


def test_the_batched_range_check_agrees_with_the_one_record_check():
    venv = dragongym.make_vec("dragonhunt", 8, seed=5, num_players=3, observations=False)
    venv.reset()
    assert record_problems(venv.states) == (-1, "")
    states = venv.states.copy()
    states["phase"][5] = 99
    states["unit_loc"][6, 10] = 500
    assert record_problems(states) == (5, "field phase is 99, outside 0..31")
    assert GAME.check_state(states[6:7]) == "field unit_loc[10] is 500, outside -3..194"


def test_the_ranges_cover_the_fields_compiled_code_indexes_with():
    indexing = {"unit_loc", "cell_count", "cell_colour", "slot_loc", "dragon_cell", "sword_loc",
                "sword_holder", "md_holder", "sel_cell", "sel_unit", "target_cell", "struct_cell",
                "eagle_cell", "five_path", "round_order", "phase", "stage", "num_players", "order_pos",
                "sel_type", "slot_being", "active_slot", "kingdom", "colour_kingdom", "card_played",
                "loaded_count", "loaded_pos", "loaded_card", "five_left", "kingdoms_chosen", "placer",
                "dragon_moves_made", "being_step", "cards_laid", "segment", "die0", "die1",
                "place_type", "setup_first", "choice_player", "second_player", "dragon_first",
                "placed_last", "place_start", "teleport_user", "winner", "mp_left", "reinf_left",
                "casualties", "after_casualty", "turn"}
    assert indexing <= set(FIELD_RANGES)


def _mid_game_record(seed, players=3, steps=120):
    env = dragongym.make("dragonhunt", num_players=players)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
    return env


@pytest.mark.parametrize("what, field, value, words", [
    ("a unit off the board's cells", "unit_loc", 4000, "unit_loc"),
    ("an unknown phase", "phase", 77, "phase"),
    ("an unknown status", "status", 5, "status 5"),
    ("a seat that is not in the game", "to_play", 3, "to_play 3"),
    ("a finished game with a seat to play", "status", 1, "finished game has to_play"),
    ("a being slot that does not exist", "active_slot", 2, "active_slot"),
])
def test_restore_state_refuses_a_corrupted_record_and_keeps_the_game(what, field, value, words):
    env = _mid_game_record(0)
    record = env.clone_state()
    before = env.state_record.tobytes(), env.agent_selection, list(env.agents)
    bad = record.copy()
    bad[field] = value
    with pytest.raises(InvalidStateError, match=words):
        env.restore_state(bad)
    assert (env.state_record.tobytes(), env.agent_selection, list(env.agents)) == before, what
    env.restore_state(record)          # the sound snapshot still restores
    assert env.state_record.tobytes() == record.tobytes()


def test_vector_restores_refuse_a_corrupted_record_and_keep_the_batch():
    venv = dragongym.make_vec("dragonhunt", 4, seed=2, num_players=2)
    venv.reset()
    rng = np.random.default_rng(0)
    for _ in range(30):
        venv.step(venv.sample_actions(rng))
    before = venv.states.tobytes(), venv.masks.tobytes(), venv.obs.tobytes()
    bad = venv.clone_game(1)
    bad["sel_type"] = -9
    with pytest.raises(InvalidStateError, match="sel_type"):
        venv.restore_game(0, bad)
    snap = venv.clone()
    snap["states"][2] = bad[0]
    with pytest.raises(InvalidStateError, match="game 2.*sel_type"):
        venv.restore(snap)
    assert (venv.states.tobytes(), venv.masks.tobytes(), venv.obs.tobytes()) == before


_FUZZ = textwrap.dedent('''
    import sys
    import numpy as np
    import dragongym
    from dragongym.envs.core.game import InvalidStateError

    rng = np.random.default_rng(int(sys.argv[1]))
    bases = []
    for seed, players, steps in ((0, 3, 0), (1, 3, 40), (2, 2, 150), (3, 4, 300), (4, 6, 500), (5, 2, 900)):
        env = dragongym.make("dragonhunt", num_players=players)
        env.reset(seed=seed)
        r = np.random.default_rng(seed)
        for _ in range(steps):
            if not env.agents or env.state_record[0]["status"] != 0:
                break
            env.step(int(r.choice(np.flatnonzero(env.observe(env.agent_selection)["action_mask"]))))
        bases.append((players, env.clone_state()))
    envs = {p: dragongym.make("dragonhunt", num_players=p) for p in (2, 3, 4, 6)}
    venvs = {p: dragongym.make_vec("dragonhunt", 2, seed=0, num_players=p) for p in (2, 3, 4, 6)}
    for e in envs.values():
        e.reset(seed=0)
    for v in venvs.values():
        v.reset()
    fields = [n for n in bases[0][1].dtype.names if n not in ("seed", "rng_counter", "rewards", "score")]
    refused = accepted = derailed = 0
    for trial in range(int(sys.argv[2])):
        players, base = bases[trial % len(bases)]
        bad = base.copy()
        raw = bad.view(np.uint8)
        kind = trial % 5
        if kind == 0:                      # one flipped byte anywhere
            i = int(rng.integers(raw.size))
            raw[i] ^= np.uint8(int(rng.integers(1, 256)))
        elif kind == 1:                    # random bytes behind the seed and counter
            raw[16:] = rng.integers(0, 256, raw.size - 16, dtype=np.uint8)
        elif kind == 2:                    # a bad status
            bad["status"] = int(rng.choice([-1, 1, 2, 3, 100, -128]))
        elif kind == 3:                    # a bad seat to play
            bad["to_play"] = int(rng.choice([-1, players, 6, 100, -128]))
        else:                              # a plausible small value in one element of a field
            name = fields[int(rng.integers(len(fields)))]
            element = bad[0][name].reshape(-1) if bad[0][name].ndim else bad[name]
            j = int(rng.integers(element.size))
            element[j] = np.array(int(rng.integers(-3, 12))).astype(bad.dtype[name].base)
        env, venv = envs[players], venvs[players]
        live = env.state_record.tobytes()
        live_batch = venv.states.tobytes()
        try:
            env.restore_state(bad)
        except InvalidStateError:
            refused += 1
            assert env.state_record.tobytes() == live, "a refused record changed the env"
            try:
                venv.restore_game(1, bad)
            except InvalidStateError:
                assert venv.states.tobytes() == live_batch, "a refused record changed the batch"
            else:
                raise AssertionError("restore_game accepted what restore_state refused")
            continue
        accepted += 1
        venv.restore_game(1, bad)
        # an accepted record must be safe to observe, mask and play on
        for agent in env.possible_agents:
            env.observe(agent)
        try:
            for _ in range(30):
                if not env.agents or env.state_record[0]["status"] != 0:
                    break
                mask = env.observe(env.agent_selection)["action_mask"]
                if not mask.any():         # the rules reached a dead end
                    raise RuntimeError("a running game with no legal action")
                env.step(int(rng.choice(np.flatnonzero(mask))))
            for _ in range(10):
                if ((venv.counts == 0) & (venv.states["status"] == 0)).any():
                    raise RuntimeError("a running game with no legal action")
                venv.step(venv.sample_actions(rng))
        except RuntimeError:
            # a subtly inconsistent record (sound by every check, but not a
            # position the rules reach) may derail the game later: a Python
            # error the adapters raise, never a crash
            derailed += 1
        env.reset(seed=trial)
        venv.reset()
    print(f"refused {refused} accepted {accepted} derailed {derailed}")
''')


def test_corrupted_records_never_crash_the_interpreter():
    """In a subprocess, so that a crash is a failed test and not a dead pytest."""
    trials = 500
    out = subprocess.run([sys.executable, "-c", _FUZZ, "11", str(trials)], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, f"exit {out.returncode}\n{out.stdout[-2000:]}\n{out.stderr[-4000:]}"
    last = out.stdout.strip().splitlines()[-1].split()
    refused, accepted, derailed = int(last[1]), int(last[3]), int(last[5])
    assert refused + accepted == trials
    assert derailed <= accepted // 10, "accepted records should play on like real positions"
    assert refused >= trials // 2, "most corruptions must be refused"
    assert accepted > 0, "flips of harmless bytes (the seed, counters) must still be accepted"


def test_the_kingdom_choice_names_only_real_choices():
    env = dragongym.make("dragonhunt", num_players=3)
    env.reset(seed=0)
    S = env.state_record
    assert int(S[0]["phase"]) == R.PH_KINGDOM
    legal = [int(a) for a in np.flatnonzero(GAME.mask_of(S))]
    names = [GAME.action_to_string(S, a) for a in legal]
    assert all(n.startswith("choose kingdom ") for n in names) and len(set(names)) == len(names)
    others = [GAME.action_to_string(S, a) for a in range(R.NC) if a not in legal]
    assert not any(n.startswith("choose kingdom") for n in others)
    assert "cell 0304 (no kingdom to choose there)" in others
    assert GAME.action_to_string(S, -1) == "action -1 (no such action)"
    assert GAME.action_to_string(S, R.NUM_ACTIONS) == f"action {R.NUM_ACTIONS} (no such action)"
    assert GAME.action_to_string(S, R.A_SNIPE) == "snipe (not legal now: the position asks for kingdom)"
    for a, text in zip(legal, names):
        assert GAME.string_to_action(S, text) == a
    with pytest.raises(ValueError, match="names no legal action"):
        GAME.string_to_action(S, "cell 0304 (no kingdom to choose there)")


def test_legal_action_names_stay_unique_in_random_play():
    positions = 0
    for players in (2, 4, 6):
        venv = dragongym.make_vec("dragonhunt", 8, seed=players, num_players=players, max_hands=2,
                                  observations=False, num_threads=1)
        venv.reset()
        rng = np.random.default_rng(players)
        for _ in range(250):
            for b in range(venv.num_envs):
                S = venv.states[b:b + 1]
                legal = np.flatnonzero(venv.masks[b])
                names = [GAME.action_to_string(S, int(a)) for a in legal]
                assert len(set(names)) == len(names), f"phase {int(S[0]['phase'])}: {names}"
                assert not any("not legal" in n or "no such" in n for n in names)
                positions += 1
            venv.step(venv.sample_actions(rng))
    assert positions == 3 * 8 * 250
