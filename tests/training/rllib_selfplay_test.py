"""training/rllib_selfplay.py: the turn-based RLlib env (envs/core/rllib_env.py)
on zero-sum, solo and ranked games, the league mapping, and one tiny training
iteration run as the user runs it (a subprocess starting a private local Ray
instance), whose checkpoints reload and play legal moves.

Needs the ``distributed`` extra (Ray RLlib); skipped without it.
"""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

import torch  # noqa: E402

import dragongym  # noqa: E402
from dragongym.envs.core.game import IllegalActionError  # noqa: E402
from dragongym.envs.core.outcome import seat_results  # noqa: E402
from dragongym.envs.core.rllib_env import GameMultiAgentEnv  # noqa: E402
from dragongym.training import rllib_selfplay as rs  # noqa: E402
from dragongym.training.rllib_policy import MASKED_LOGIT, SUFFIX, load_policy  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
NUM_PLAYERS = 2
MAX_HANDS = 2
BATCH = 300
ENVS_PER_RUNNER = 4


# --- the env -----------------------------------------------------------------------

def _play_random(env, rng, max_steps=10_000):
    """Random legal play to the end; returns the step tuples."""
    obs, _ = env.reset(seed=3)
    steps = []
    for _ in range(max_steps):
        assert len(obs) == 1, "only the seat to move is observed mid-game"
        (agent, o), = obs.items()
        assert o["action_mask"].dtype == np.float32 and o["action_mask"].sum() >= 1
        action = int(rng.choice(np.flatnonzero(o["action_mask"])))
        out = env.step({agent: action})
        steps.append(out)
        obs, rewards, terminateds, truncateds, _ = out
        assert set(rewards) == set(env.agents)
        if terminateds["__all__"] or truncateds["__all__"]:
            return steps
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("num_players", [2, 4])
def test_env_is_turn_based_and_pays_every_seat_at_the_end(race, num_players):
    env = GameMultiAgentEnv({"game": race, "game_options": {"num_players": num_players, "max_turns": 30}})
    assert env.agents == [f"player_{i}" for i in range(num_players)]
    space = env.get_observation_space("player_0")
    rng = np.random.default_rng(0)
    for _ in range(5):
        steps = _play_random(env, rng)
        obs, rewards, terminateds, truncateds, _ = steps[-1]
        assert set(obs) == set(env.agents)  # a last observation for every seat
        for o in obs.values():
            assert space.contains(o) and not o["action_mask"].any()
        done = terminateds if terminateds["__all__"] else truncateds
        assert all(done[a] for a in env.agents)
        total = {a: sum(s[1][a] for s in steps) for a in env.agents}
        game_rewards = env._states["rewards"][0, :num_players]
        assert [total[a] for a in env.agents] == pytest.approx(game_rewards.tolist())


@pytest.mark.parametrize("toy, roles", [("dive", ["diver"]),
                                        ("gather", ["player_0", "player_1", "player_2"])])
def test_env_agents_are_the_roles_and_each_learns_its_outcome(toy, roles, request):
    """Solo and ranked games: agent ids are the spec's roles; the last infos
    carry each seat's result from the ranks (gather pays every seat a positive
    score, so no reward sign could tell)."""
    name = request.getfixturevalue(toy)
    env = GameMultiAgentEnv({"game": name, "seed": 1})
    assert env.agents == env.possible_agents == roles
    assert rs.GameMultiAgentEnv is GameMultiAgentEnv      # the trainer uses the adapter
    rng = np.random.default_rng(0)
    results = set()
    for _ in range(8):
        *_, infos = _play_random(env, rng)[-1]
        outcome = env.outcome()
        assert set(infos) == set(roles)
        for i, agent in enumerate(roles):
            assert infos[agent]["outcome"]["result"] == seat_results(outcome.ranks, outcome.utility)[i]
            assert infos[agent]["outcome"]["rank"] == outcome.ranks[i]
            results.add(infos[agent]["outcome"]["result"])
    assert "win" in results
    mapping = rs.LeagueMapping(roles, num_opponents=2, seed=0)

    class Episode:
        id_ = "e"
    lineup = [mapping(agent, Episode()) for agent in roles]
    assert lineup.count(rs.LEARNER) == 1 and lineup == mapping.lineup("e")


def test_env_rank_reward_is_paid_at_the_end(gather):
    env = GameMultiAgentEnv({"game": gather, "reward": "rank", "seed": 2})
    steps = _play_random(env, np.random.default_rng(2))
    assert all(r == 0 for s in steps[:-1] for r in s[1].values())
    from dragongym.envs.core.outcome import rank_rewards
    want = rank_rewards(env.outcome().ranks, "general_sum")
    assert [steps[-1][1][a] for a in env.agents] == pytest.approx(want.tolist())


def test_env_illegal_action_raises_or_is_refused_and_counted(race):
    env = GameMultiAgentEnv({"game": race})
    obs, _ = env.reset(seed=0)
    (agent, o), = obs.items()
    illegal = int(np.flatnonzero(o["action_mask"] == 0)[0]) if (o["action_mask"] == 0).any() else 99
    with pytest.raises(IllegalActionError):
        env.step({agent: illegal})

    env = GameMultiAgentEnv({"game": race, "illegal_action": "penalty", "illegal_penalty": -0.5})
    obs, _ = env.reset(seed=0)
    (agent, o), = obs.items()
    before = env._states.copy()
    obs2, rewards, terminateds, truncateds, infos = env.step({agent: 99})
    assert list(obs2) == [agent] and rewards == {agent: -0.5} and infos[agent]["illegal_action"]
    assert not terminateds["__all__"] and not truncateds["__all__"]
    assert env._states.tobytes() == before.tobytes() and env.illegal_actions == 1


def test_env_on_dragonhunt_observes_the_mover():
    env = GameMultiAgentEnv({"game": "dragonhunt", "game_options": {"num_players": 3, "max_hands": 1}})
    game = env.game
    obs, _ = env.reset(seed=5)
    for _ in range(20):
        (agent, o), = obs.items()
        seat = env.agents.index(agent)
        assert seat == int(env._states["to_play"][0])
        np.testing.assert_array_equal(o["action_mask"], game.mask_of(env._states))
        np.testing.assert_array_equal(o["observations"], game.observation_of(env._states, seat))
        obs, *_ = env.step({agent: int(np.flatnonzero(o["action_mask"])[0])})


# --- the league ----------------------------------------------------------------------

def test_league_mapping_seats_one_learner_and_favours_recent_snapshots():
    mapping = rs.LeagueMapping(["player_0", "player_1", "player_2"], num_opponents=3, decay=0.5, seed=1)
    counts = {m: 0 for m in mapping.order}
    for i in range(3000):
        lineup = mapping.lineup(f"episode-{i}")
        assert lineup.count(rs.LEARNER) == 1
        for m in lineup:
            counts[m] = counts.get(m, 0) + 1

        class Episode:
            id_ = f"episode-{i}"
        assert [mapping(f"player_{s}", Episode()) for s in range(3)] == lineup  # per episode
    oldest, middle, newest = (counts[m] for m in mapping.order)
    assert newest > middle > oldest > 0
    mapping.set_order(["opponent_2", "opponent_0", "opponent_1"], generation=1)
    assert mapping.weights()[-1] == pytest.approx(4 / 7)
    assert rs.LeagueMapping(["a", "b"], 0).lineup("x") == [rs.LEARNER, rs.LEARNER]  # pure self-play


# --- one tiny iteration, as a user runs it --------------------------------------------

@pytest.fixture(scope="module")
def run_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("rllib_run")
    cmd = [sys.executable, "-m", "dragongym.training.rllib_selfplay", "--game", "dragonhunt",
           "--iterations", "1", "--num-env-runners", "1", "--num-cpus", "2",
           "--num-envs-per-env-runner", str(ENVS_PER_RUNNER),
           "--train-batch-size", str(BATCH), "--minibatch-size", "150", "--num-epochs", "1",
           "--channels", "4", "--latent", "16", "--num-opponents", "2", "--snapshot-every", "1",
           # count (and refuse) masked actions instead of stopping at the first one
           "--illegal-action", "penalty",
           "--num-players", str(NUM_PLAYERS), "--seed", "0", "--out-dir", str(out),
           "--max-hands", str(MAX_HANDS)]
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", OMP_NUM_THREADS="1")
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, (f"exit {proc.returncode}\n--- stdout\n{proc.stdout[-4000:]}"
                                  f"\n--- stderr\n{proc.stderr[-6000:]}")
    return out


def test_one_iteration_exits_0_writes_a_checkpoint_and_takes_no_masked_action(run_dir):
    summary = json.loads((run_dir / "summary.json").read_text())
    assert summary["iterations"] == 1
    assert summary["decisions"] >= BATCH  # every env step was checked against the mask
    assert summary["illegal_actions"] == 0
    steps = summary["module_steps"]
    # the league played: learner and frozen opponents sampled (an action still
    # waiting for its seat's next observation at the cut is not counted yet:
    # at most one a seat in each of the runner's games)
    assert steps.get(rs.LEARNER, 0) > 0 and sum(steps.values()) >= BATCH - NUM_PLAYERS * ENVS_PER_RUNNER
    assert any(m.startswith("opponent_") for m in steps)
    assert summary["league"]["generation"] == 1  # the learner was copied into a frozen slot
    # throughput: the learner's decisions over the wall time, and per env runner
    rate = steps[rs.LEARNER] / summary["time_s"]
    assert summary["learner_decisions_per_s"] == pytest.approx(rate, rel=0.01, abs=0.1)
    per_runner = summary["learner_decisions_per_s"] / max(1, summary["num_env_runners"])
    assert summary["learner_decisions_per_s_per_env_runner"] == pytest.approx(per_runner, abs=0.1)
    assert (run_dir / "checkpoint" / "rllib_checkpoint.json").exists()
    assert (run_dir / "checkpoint" / rs.LEAGUE_FILE).exists()
    assert (run_dir / rs.POLICY_FILE).name.endswith(SUFFIX) and (run_dir / rs.POLICY_FILE).exists()
    rows = [json.loads(line) for line in (run_dir / "progress.jsonl").read_text().splitlines()]
    assert [r["iteration"] for r in rows] == [1] and rows[0]["illegal_actions"] == 0


@pytest.fixture(scope="module")
def ranked_run_dir(tmp_path_factory):
    """One tiny iteration on Gather, the 3-seat ranked toy game, named by its module path."""
    out = tmp_path_factory.mktemp("rllib_ranked_run")
    cmd = [sys.executable, "-m", "dragongym.training.rllib_selfplay",
           "--game", "tests.core.toygames:GATHER",
           "--iterations", "1", "--num-env-runners", "1", "--num-cpus", "2",
           "--train-batch-size", "200", "--minibatch-size", "100", "--num-epochs", "1",
           "--channels", "4", "--latent", "16", "--num-opponents", "1", "--snapshot-every", "1",
           "--illegal-action", "penalty", "--seed", "0", "--out-dir", str(out)]
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", OMP_NUM_THREADS="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, (f"exit {proc.returncode}\n--- stdout\n{proc.stdout[-4000:]}"
                                  f"\n--- stderr\n{proc.stderr[-6000:]}")
    return out


def test_one_iteration_on_a_ranked_game_judges_the_learner_by_its_rank(ranked_run_dir):
    """The trainer on three ranked seats: every step checked, no masked action,
    and a win rate read from outcomes (Gather's rewards are all positive, so the
    sign of a return would call every game a win)."""
    summary = json.loads((ranked_run_dir / "summary.json").read_text())
    assert summary["iterations"] == 1 and summary["illegal_actions"] == 0
    assert summary["decisions"] >= 200
    assert summary["roles"] == ["player_0", "player_1", "player_2"]
    row = json.loads((ranked_run_dir / "progress.jsonl").read_text().splitlines()[-1])
    assert row["learner_win_rate"] is not None and 0.0 <= row["learner_win_rate"] < 1.0


def _play(choose, num_steps=60, seed=0):
    """``choose(obs, mask) -> action`` plays every seat of a Dragonhunt game (the
    PettingZoo env raises on an illegal action); returns the decisions made."""
    env = dragongym.make("dragonhunt", num_players=NUM_PLAYERS, max_hands=MAX_HANDS)
    env.reset(seed=seed)
    for n in range(num_steps):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            return n
        o = env.observe(env.agent_selection)
        action = choose(o["observation"], o["action_mask"])
        assert o["action_mask"][action] == 1
        env.step(action)
    return num_steps


def test_exported_policy_reloads_without_ray_and_plays_legal_moves(run_dir):
    from dragongym.agents import make_agent

    path = str(run_dir / rs.POLICY_FILE)
    game = dragongym.get_game("dragonhunt")
    rng = np.random.default_rng(0)
    for deterministic in (True, False):
        agent = make_agent(path, game=game, deterministic=deterministic)
        assert _play(lambda obs, mask: agent.act(obs, mask, rng)) > 0
    net, info = load_policy(path)
    assert info["game"] == "dragonhunt"
    assert info["game_options"] == {"max_hands": MAX_HANDS, "num_players": NUM_PLAYERS}
    assert info["roles"] == ["player_0", "player_1"]


def test_rllib_checkpoint_reloads_and_plays_legal_moves(run_dir):
    from ray.rllib.core.rl_module.rl_module import RLModule

    module_dir = run_dir / "checkpoint" / "learner_group" / "learner" / "rl_module" / rs.LEARNER
    module = RLModule.from_checkpoint(module_dir.resolve())
    net, _ = load_policy(run_dir / rs.POLICY_FILE)

    def choose(obs, mask):
        batch = {"observations": torch.as_tensor(obs)[None],
                 "action_mask": torch.as_tensor(mask, dtype=torch.float32)[None]}
        logits = module.forward_inference({"obs": batch})["action_dist_inputs"][0]
        assert torch.all(logits[torch.as_tensor(mask) == 0] == MASKED_LOGIT)
        # the exported network is the same policy
        torch.testing.assert_close(net.logits(batch["observations"], batch["action_mask"])[0], logits)
        return int(logits.argmax())

    assert _play(choose) > 0


@pytest.fixture
def registry_restored():
    """Naming a game "package.module:ATTRIBUTE" registers it for the rest of the
    process; put the registry back, so later tests list the package's games only."""
    from dragongym import envs
    saved = dict(envs._FACTORIES), dict(envs._GAMES)
    yield
    envs._FACTORIES.clear()
    envs._FACTORIES.update(saved[0])
    envs._GAMES.clear()
    envs._GAMES.update(saved[1])


@pytest.mark.usefixtures("registry_restored")
@pytest.mark.parametrize("game, options, roles", [
    ("dragons_down", ["--num-players", "2", "--max-turns", "1"], ["player_0", "player_1"]),
    ("dragon_pass", ["--scenario", "18.2", "--max-turns", "1"], None),
    ("tests.core.toygames:DIVE", [], ["diver"]),                     # solo: the learner alone
])
def test_one_iteration_on_every_other_game_with_the_layout_network(game, options, roles, tmp_path):
    """The RLlib trainer's default network is the self-play trainer's layout
    network on every game: one iteration exits 0 with no masked action, and
    the export reloads without Ray as an agent that plays legal moves."""
    from dragongym.agents import make_agent
    from dragongym.agents.tournament import run_tournament
    from dragongym.training.rllib_policy import LayoutPolicyNet

    cmd = [sys.executable, "-m", "dragongym.training.rllib_selfplay", "--game", game,
           "--iterations", "1", "--num-env-runners", "1", "--num-envs-per-env-runner", "2", "--num-cpus", "2",
           "--train-batch-size", "120", "--minibatch-size", "60", "--num-epochs", "1",
           "--channels", "4", "--latent", "16", "--num-opponents", "1", "--snapshot-every", "1",
           "--illegal-action", "penalty", "--seed", "0", "--out-dir", str(tmp_path), *options]
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", OMP_NUM_THREADS="1", PYTHONPATH=str(ROOT))
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, (f"exit {proc.returncode}\n--- stdout\n{proc.stdout[-4000:]}"
                                  f"\n--- stderr\n{proc.stderr[-6000:]}")
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["iterations"] == 1 and summary["illegal_actions"] == 0 and summary["decisions"] >= 120
    if roles:
        assert summary["roles"] == roles
    net, info = load_policy(tmp_path / rs.POLICY_FILE)
    assert isinstance(net, LayoutPolicyNet) and info["network"] == "layout"
    g = dragongym.get_game(game)
    agent = make_agent(str(tmp_path / rs.POLICY_FILE), game=g)
    seats = len(info["roles"])
    result = run_tournament(game, [agent] + ["random"] * (seats - 1), 1, progress=False, **info["game_options"])
    assert result.agents[0].games == 1
