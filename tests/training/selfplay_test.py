"""Self-play training (dragongym.training.selfplay): the network, the league, the
shaping, and a tiny end-to-end run whose checkpoint plays as an agent.
League and trainer on the solo (dive) and ranked (gather) toy games are in
``league_test.py``."""
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from gymnasium import spaces

import dragongym
from dragongym.agents import make_agent
from dragongym.agents.tournament import run_tournament
from dragongym.training.league import League, LeagueEnv
from dragongym.training.policy import BoardPolicy, PolicyAgent, grid_layout
from dragongym.training.selfplay import Args, saved_args
from dragongym.training.shaping import potential_for, shaped_reward, zero_potential

ROOT = Path(__file__).resolve().parents[2]
GAME = dragongym.get_game("dragonhunt")
SPEC = GAME.spec


def small_policy(seed=0):
    torch.manual_seed(seed)
    return BoardPolicy(spaces.Box(-1, 8, (SPEC.obs_size,), np.float32), spaces.Discrete(SPEC.num_actions),
                       lambda _: 1e-3, features_extractor_kwargs={"game": "dragonhunt", "channels": 4,
                                                                  "blocks": 1, "hidden": 16})


def live_positions(n=6, seed=3):
    """Observations and masks of the seat to move in a few random-play positions."""
    env = dragongym.make_single_agent("dragonhunt", max_hands=2)
    obs, masks = [], []
    for ep in range(n):
        o, _ = env.reset(seed=seed + ep)
        rng = np.random.default_rng(ep)
        for _ in range(5 + 7 * ep):
            m = env.action_masks()
            o, *_, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(m))))
            if term or trunc:
                o, _ = env.reset(seed=100 + ep)
        obs.append(o)
        masks.append(env.action_masks())
    return np.stack(obs), np.stack(masks)


def test_the_grid_is_read_from_the_typed_layout():
    grid = grid_layout(SPEC)
    board = SPEC.obs_layout["board"]
    assert board.kind == "grid" and grid.name == "board"
    assert (grid.offset, grid.cells, grid.planes) == (board.offset, board.shape[0], board.shape[1])
    assert (grid.cols, grid.rows) == board.grid_shape and grid.rows * grid.cols == grid.cells
    cell = SPEC.action_layout["cell"]
    assert cell.indexes == "board" and grid.cell_actions == ((cell.offset, cell.size),)


def test_cell_actions_get_their_own_cell_logit():
    """Changing one cell's board planes moves mostly that cell's logit: the
    per-cell head is wired to the cell action of the same index."""
    policy = small_policy()
    agent = PolicyAgent(policy)
    obs = np.zeros((1, SPEC.obs_size), dtype=np.float32)
    off = SPEC.obs_layout["board"].offset
    base = agent.logits(obs)[0]
    cell = 97
    obs[0, off + cell * 24: off + (cell + 1) * 24] = 1.0
    changed = np.abs(agent.logits(obs)[0] - base)
    cell_off, ncells = SPEC.action_layout["cell"].offset, SPEC.action_layout["cell"].size
    # the trunk's receptive field is a few hexes: far cells stay exactly unchanged
    far = [c for c in range(ncells) if abs(c // 15 - cell // 15) > 4]
    assert changed[cell_off + cell] > 0
    assert np.all(changed[[cell_off + c for c in far]] == 0)


def test_masked_actions_are_never_played_and_entropy_counts_legal_only():
    policy = small_policy()
    obs, masks = live_positions()
    agent = PolicyAgent(policy, deterministic=False)
    rng = np.random.default_rng(0)
    for _ in range(20):
        picks = agent.act_batch(obs, masks, rng)
        assert masks[np.arange(len(masks)), picks].all()
    greedy = PolicyAgent(policy, deterministic=True).act_batch(obs, masks, rng)
    assert masks[np.arange(len(masks)), greedy].all()
    dist = policy.get_distribution(torch.as_tensor(obs), action_masks=masks.astype(bool))
    entropy = dist.entropy().detach().numpy()
    # a uniform-ish fresh policy: entropy is bounded by log(#legal), not log(A)
    assert np.all(entropy <= np.log(masks.sum(axis=1)) + 1e-4)
    single = masks.sum(axis=1) == 1
    assert np.allclose(entropy[single], 0.0, atol=1e-5)


def test_league_prefers_recent_and_strong_snapshots():
    league = League({"self": 0.5, "random": 0.2, "heuristic": 0.3}, capacity=3, recency=0.5)
    sd = small_policy().state_dict()
    for u in range(4):
        league.add_snapshot(u, sd)
    assert sorted(league.snapshots) == [1, 2, 3]                 # capacity: oldest dropped
    w = league.snapshot_weights()
    assert w[3] > w[2] > w[1]                                    # recency
    for _ in range(30):
        league.record("self:3", "win")                           # the learner beats the newest
        league.record("self:1", "loss")                          # ... and loses to the oldest
    w2 = league.snapshot_weights()
    assert w2[1] / w2[3] > w[1] / w[3]                           # strong opponents gain weight
    total = league.weights()
    assert abs(sum(total.values()) - 1) < 1e-9
    assert abs(total["random"] - 0.2) < 1e-9 and abs(total["heuristic"] - 0.3) < 1e-9
    again = League({}, 1, 1.0)
    again.load_state_dict(league.state_dict())
    assert again.weights() == total


def test_league_env_swaps_opponents_between_episodes_and_reports_results():
    env = LeagueEnv(dragongym.make_single_agent("dragonhunt", max_hands=1), small_policy, shaping=0.1, seed=0)
    env.league_update({"self:0": 1.0}, {0: small_policy(1).state_dict()})
    obs, _ = env.reset(seed=0)
    assert env.opponent == "self:0"
    env.league_update({"heuristic": 1.0})
    assert env.opponent == "self:0"                              # from the next episode on
    rng = np.random.default_rng(0)
    info, done = {}, False
    while not done:
        m = env.action_masks()
        obs, r, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(m))))
        done = term or trunc
    outcome = env.outcome()
    assert info["league"]["opponent"] == "self:0"
    assert info["league"]["result"] == outcome.results[info["seat"]]      # read from the ranks
    assert info["league"]["rank"] == outcome.ranks[info["seat"]]
    env.reset(seed=1)
    assert env.opponent == "heuristic"
    with pytest.raises(ValueError, match="no usable opponent"):
        env.league_update({"self:7": 1.0})


def test_shaping_is_potential_based_on_the_public_position(race):
    """The potential is the one the game names (``shaping_potential``); for
    Dragonhunt my heuristic position score minus the best other seat's: a wound
    marker of mine raises it by 3, one of the opponent's lowers it by 3. A game
    that names none gets the zero potential."""
    potential = potential_for(GAME)
    assert GAME.shaping_potential.endswith(":" + potential.__name__)
    state = GAME.new_states(1)
    GAME.reset(state, np.array([5], dtype=np.uint64), GAME.make_config(num_players=2))
    base = potential(state, 0)
    assert potential(state, 1) == pytest.approx(-base)
    state[0]["wounds"][0] += 1
    assert potential(state, 0) == pytest.approx(base + 3.0)
    state[0]["wounds"][1] += 2
    assert potential(state, 0) == pytest.approx(base - 3.0)
    assert potential_for(dragongym.get_game(race)) is zero_potential
    assert shaped_reward(0.0, 0.0, 1.0, 0.9, 0.1, done=False) == pytest.approx(0.09)
    assert shaped_reward(1.0, 1.0, 5.0, 0.9, 0.1, done=True) == pytest.approx(0.9)  # phi(end) = 0


def test_bad_args_are_rejected_with_the_field_named():
    for bad, match in ((dict(n_envs=0), "n_envs"), (dict(vec_env="ray"), "vec_env"),
                       (dict(game="chess"), "unknown game"), (dict(game=""), "--game is required"),
                       (dict(game_options={"max_hands": -3}), "max_hands"),
                       (dict(truncation=0), "max_hands"), (dict(reward="sign"), "reward"),
                       (dict(truncation=3, game_options={"max_hands": 4}), "disagree"),
                       (dict(mix_self=0, mix_random=0, mix_heuristic=0), "mix"),
                       (dict(device="gpu"), "device"), (dict(device="cuda:x"), "device")):
        with pytest.raises(ValueError, match=match):
            Args(**{"game": "dragonhunt", **bad}).validate()


def test_game_options_reach_the_configuration_generically(race):
    """--truncation sets whichever option the game names as its length limit;
    string values (from --game-options) are read as the types they spell."""
    args = Args(game="dragonhunt", truncation=3, game_options={"auto_single": "false"})
    assert args.config_options() == {"max_hands": 3, "auto_single": False}
    assert args.spec().turn_limit == 3 and args.spec().num_seats == 2
    args = Args(game=race, truncation=7, num_players=3)
    assert args.config_options() == {"max_turns": 7, "num_players": 3}
    assert args.spec().roles == ("player_0", "player_1", "player_2")
    # an args.json of a run from before: max_hands and extra become the generic fields
    old = saved_args({"game": "dragonhunt", "num_players": 2, "max_hands": 20,
                      "extra": {"auto_single": False}})
    assert old.config_options() == {"max_hands": 20, "auto_single": False, "num_players": 2}


def test_tiny_run_writes_a_checkpoint_that_plays_legal_moves(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # --max-hands is not a selfplay flag: it reaches the game as one of its own options
    cmd = [sys.executable, "-m", "dragongym.training.selfplay", "--game", "dragonhunt",
           "--total-timesteps", "512", "--n-envs", "2",
           "--n-steps", "128", "--batch-size", "128", "--n-epochs", "1", "--channels", "4",
           "--hidden", "16", "--snapshot-every", "1", "--eval-every", "2", "--eval-games", "2",
           "--checkpoint-every", "1", "--final-eval-games", "2", "--eval-workers", "1",
           "--max-hands", "1", "--out-dir", str(tmp_path), "--run-name", "tiny", "--no-progress"]
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    run = tmp_path / "tiny"
    for f in ("final.zip", "checkpoints/latest.zip", "checkpoints/league.pt", "history.json",
              "learning_curve.png", "args.json"):
        assert (run / f).exists(), f
    assert list((run / "tb").rglob("events.out.tfevents.*"))
    history = json.loads((run / "history.json").read_text())
    kinds = [h["kind"] for h in history]
    assert "eval" in kinds and kinds[-1] == "final_eval"
    assert set(history[-1]["results"]) == {"random", "heuristic"}
    saved = json.loads((run / "args.json").read_text())
    assert saved["game_options"] == {"max_hands": 1}

    # the checkpoint is an agent id: it plays a seat-rotated tournament
    agent = make_agent(str(run / "final.zip"), game=GAME)
    assert isinstance(agent, PolicyAgent)
    result = run_tournament("dragonhunt", [str(run / "final.zip"), "random"], 2, progress=False,
                            max_hands=1)
    assert result.agents[0].games == 2

    # the report reads every figure from the run's files
    from dragongym.training.report import write_report
    report = write_report(run, tmp_path / "REPORT.md").read_text()
    final = history[-1]["results"]["random"]
    assert f"| random | {final['games']} | {final['wins']} | {final['draws']} | {final['losses']} |" in report
    assert (tmp_path / "REPORT_curve0.png").exists() and "`time/fps`" in report
    assert "the vector API alone in the same run" in report                 # raw step rate beside the trainer's
    assert "Target against heuristic: at least 55% of the decided games" in report
    assert "--max-hands 1`" in report and "--total-timesteps 512" in report   # the command reproduces it

    # --resume continues the same run from its checkpoint
    more = [sys.executable, "-m", "dragongym.training.selfplay", "--resume", str(run), "--total-timesteps", "768",
            "--final-eval-games", "0", "--no-progress"]
    done = subprocess.run(more, cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    history = json.loads((run / "history.json").read_text())
    ends = [h for h in history if h["kind"] == "end"]
    assert len(ends) == 2 and ends[-1]["timesteps"] >= 768
    assert json.loads((run / "args.json").read_text())["total_timesteps"] == 512   # launch args kept
    assert [h["args"]["total_timesteps"] for h in history if h["kind"] == "resume"] == [768]


def test_a_checkpoint_of_another_game_is_refused(tmp_path):
    from sb3_contrib import MaskablePPO
    from dragongym.training.policy import load_agent
    venv = dragongym.make_single_agent("dragonhunt", max_hands=1)
    model = MaskablePPO(BoardPolicy, venv, n_steps=8, batch_size=8, policy_kwargs={
        "features_extractor_kwargs": {"game": "dragonhunt", "channels": 4, "blocks": 0, "hidden": 8}})
    model.save(tmp_path / "m.zip")

    class Other:
        name = "dragons_down"
    with pytest.raises(ValueError, match="trained on 'dragonhunt'"):
        load_agent(str(tmp_path / "m.zip"), game=Other)


def test_cli_train_passes_its_arguments_to_selfplay(capsys):
    from dragongym.training.cli import main
    with pytest.raises(SystemExit) as exit_:
        main(["train", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "dragongym train" in out and "--mix-heuristic" in out and "--resume" in out


def test_cli_train_takes_the_games_own_options_through_the_generic_path(capsys, tmp_path):
    """``dragongym train --max-hands N``: not a trainer flag, a game option the
    game's make_config checks (0 hands is refused before anything trains)."""
    from dragongym.training.cli import main
    assert main(["train", "--game", "dragonhunt", "--max-hands", "0", "--out-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "max_hands" in err and "1..1000" in err
    assert main(["train", "--game", "dragonhunt", "--no-such-option", "1", "--out-dir", str(tmp_path)]) == 2
    assert "unknown option(s) no_such_option" in capsys.readouterr().err
    assert not list(tmp_path.iterdir())                            # refused before a run directory


def test_with_a_time_budget_the_progress_bar_counts_time(capsys, monkeypatch):
    """``--max-minutes M``: the bar runs toward M minutes (what ends the run),
    with the learner decisions beside it, not toward total_timesteps."""
    import time

    from dragongym.training.selfplay import TrainingProgress
    now = [1000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    bar = TrainingProgress(total_timesteps=5_000_000, timesteps=0, deadline=1000.0 + 90)
    assert (bar.bar.total, bar.bar.unit) == (90, "s")
    now[0] += 30
    bar.update(123_456)
    assert bar.bar.n == 30 and "123,456 learner decisions" in str(bar.bar)
    now[0] += 600                          # past the deadline: the bar is full, not beyond
    bar.update(200_000)
    assert bar.bar.n == 90
    bar.close()
    steps = TrainingProgress(total_timesteps=1000, timesteps=200)
    steps.update(700)
    assert (steps.bar.total, steps.bar.n, steps.bar.unit) == (1000, 700, "step")
    steps.close()


def test_imitation_records_legal_teacher_moves_and_cloning_fits_them():
    from dragongym.training.imitation import behaviour_clone, collect_demonstrations
    obs, masks, actions = collect_demonstrations("dragonhunt", "dragonhunt.heuristic", 300, seed=2,
                                                 max_hands=2)
    assert obs.shape == (300, SPEC.obs_size) and masks[np.arange(300), actions].all()
    again = collect_demonstrations("dragonhunt", "dragonhunt.heuristic", 300, seed=2, max_hands=2)
    assert np.array_equal(again[2], actions) and np.array_equal(again[0], obs)   # seeded
    policy = small_policy()
    before = np.mean(PolicyAgent(policy).act_batch(obs, masks, None) == actions)
    history = behaviour_clone(policy, obs, masks, actions, epochs=12, batch_size=100, lr=3e-3)
    assert history[-1][0] < history[0][0]                          # the loss falls
    after = np.mean(PolicyAgent(policy).act_batch(obs, masks, None) == actions)
    assert after > before + 0.1, (before, after)                    # it copies the teacher


@pytest.mark.parametrize("name", ["dragonhunt_2p_bc_s1.zip", "dragonhunt_2p_imitation_s1.zip",
                                  "dragonhunt_2p_scratch_s0.zip"])
def test_shipped_checkpoints_of_the_report_play_legal_moves(name, monkeypatch):
    """They were pickled when the policy module was ``training.policy``: they
    load without that module importable (as outside the repository)."""
    from sb3_contrib import MaskablePPO
    path = str(ROOT / "training" / "checkpoints" / name)
    for module in ("training", "training.policy"):
        monkeypatch.setitem(sys.modules, module, None)          # import raises ModuleNotFoundError
    with pytest.raises(Exception):
        MaskablePPO.load(path, device="cpu")                     # SB3 alone cannot find the class
    agent = make_agent(path, game=GAME)
    assert isinstance(agent, PolicyAgent) and isinstance(agent.policy, BoardPolicy)
    obs, masks = live_positions(n=4)
    picks = agent.act_batch(obs, masks, np.random.default_rng(0))
    assert masks[np.arange(len(masks)), picks].all()


def test_the_first_games_of_a_run_already_draw_their_opponents_from_the_league_mix(tmp_path):
    """The trainer resets the env before the first league push; the games of
    that first round must follow the mix (here: only the heuristic), not the
    env's fallback opponent, random."""
    args = Args(game="dragonhunt", game_options={"max_hands": 1}, total_timesteps=512, n_envs=4, n_steps=64,
                batch_size=64, channels=4, hidden=8, mix_self=0.0, mix_random=0.0, mix_heuristic=1.0,
                eval_every=0, final_eval_games=0, out_dir=str(tmp_path), run_name="first", progress=False)
    from dragongym.training.selfplay import train
    run = train(args)
    league = torch.load(run / "checkpoints" / "league.pt", weights_only=False)
    played = {name: games for name, (games, _) in league["records"].items() if games}
    assert played.get("heuristic", 0) >= 1 and set(played) == {"heuristic"}, played


def _outcomes(wins, draws, losses):
    games = wins + draws + losses
    decided = wins + losses
    return {"games": games, "wins": wins, "draws": draws, "losses": losses,
            "decided_win_rate": wins / decided if decided else None}


def _curve_colours(tmp_path, name, result):
    """Share of the curve's pixels that are clearly red and clearly mid grey."""
    from PIL import Image
    from dragongym.training.selfplay import plot_learning_curve
    history = [{"kind": "eval", "timesteps": t, "results": {"random": result}} for t in (1000, 2000, 3000)]
    history.append({"kind": "final_eval", "timesteps": 3000, "games": 400, "results": {"random": result}})
    plot_learning_curve(history, tmp_path / f"{name}.png", name)
    rgb = np.asarray(Image.open(tmp_path / f"{name}.png").convert("RGB")).astype(int)
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    red = ((r > 170) & (g < 110) & (b < 110)).mean()
    grey = ((abs(r - g) < 8) & (abs(g - b) < 8) & (r > 150) & (r < 215)).mean()
    return red, grey


def test_the_learning_curve_draws_all_draws_and_all_losses_differently(tmp_path):
    """Both have no win; the curve must still tell them apart (grey vs red)."""
    red_d, grey_d = _curve_colours(tmp_path, "draws", _outcomes(0, 20, 0))
    red_l, grey_l = _curve_colours(tmp_path, "losses", _outcomes(0, 0, 20))
    assert red_l > 0.1 and red_d < 0.01
    assert grey_d > 0.1 and grey_l < grey_d / 3


def test_the_reports_command_launches_the_same_run_again(tmp_path):
    """Every field that differs from the defaults, the game's options as its
    own flags: parsed back, the command gives the run's arguments."""
    import shlex
    from dataclasses import asdict
    from dragongym.training.report import command_line
    from dragongym.training.selfplay import parse_args
    curriculum = tmp_path / "games.jsonl"
    curriculum.write_text("")
    run = Args(game="dragonhunt", seed=3, mix_self=0.4, mix_heuristic=0.5, mix_random=0.1, torch_threads=1,
               curriculum=str(curriculum), curriculum_share=0.3, curriculum_every=4, curriculum_after=0.9,
               curriculum_anneal=6_000_000,
               eval_every=150, game_options={"max_hands": 25, "auto_single": False}, run_name="x y")
    words = shlex.split(command_line(run))
    assert words[:3] == ["python", "-m", "dragongym.training.selfplay"]
    assert "--curriculum-anneal" in words
    again = parse_args(words[3:])
    assert asdict(again) == asdict(run)


def test_a_resume_refuses_a_setting_it_would_drop():
    """A resumed run trains on with its launch arguments: a setting beside
    --resume other than its budget and evaluation is refused by name."""
    from dragongym.training.selfplay import parse_args
    kept = parse_args(["--resume", "runs/x", "--max-minutes", "30", "--final-eval-games", "400"])
    assert kept.max_minutes == 30 and kept.final_eval_games == 400
    for words, named in ((["--init", "a.zip"], "--init"), (["--learning-rate", "0.01"], "--learning-rate"),
                         (["--game", "dragonhunt", "--seed", "2"], "--game --seed")):
        with pytest.raises(ValueError, match=f"drop {named} "):
            parse_args(["--resume", "runs/x", *words])


def test_the_report_says_where_the_curriculum_starts():
    from dragongym.training.report import _curriculum_start
    assert _curriculum_start({"curriculum_after": 0.0}) == ""
    assert _curriculum_start({"curriculum_after": 0.6}) == ", from 60% of each game on"
    annealed = _curriculum_start({"curriculum_after": 0.9, "curriculum_anneal": 6_000_000})
    assert "from 90% of each game on at first" in annealed and "over 6,000,000 learner decisions" in annealed


def test_the_report_names_the_network_the_run_trained():
    from dragongym.training.report import _network
    assert _network({"policy": "layout"}).startswith("layout network")
    assert _network({"policy": "board"}) == "board conv trunk"
    assert _network({}) == "board conv trunk"        # runs from before the layout network


@pytest.mark.parametrize("game_name", ["dragonhunt", "dragons_down", "dragon_pass"])
def test_each_games_shipped_policy_plays_a_tournament_and_guides_mcts(game_name):
    """The policies of training/REPORT.md: a seat-rotated tournament, and MCTS
    with the policy as its rollout agent and prior and its value head as the
    value at the rollout cap."""
    from tests.agents.play_test import SHIPPED
    from dragongym.agents.mcts import MCTSAgent
    name, options = SHIPPED[game_name]
    path = str(ROOT / "training" / "checkpoints" / name)
    result = run_tournament(game_name, [path, "random"], 2, progress=False, **options)
    assert result.agents[0].games == 2 and result.agents[0].decisions > 0
    game = dragongym.get_game(game_name)
    cfg = game.make_config(**options)
    state = game.new_states(1)
    game.reset(state, np.array([4], dtype=np.uint64), cfg)
    err = np.zeros(1, dtype=np.int8)
    rng = np.random.default_rng(0)
    mcts = MCTSAgent(game, simulations=3, rollout=path, rollout_depth=2, value=path)
    for _ in range(3):
        if int(state[0]["status"]) != 0:
            break
        seat = int(state[0]["to_play"])
        action = mcts.act_state(game, state, seat, rng)
        assert game.mask_of(state)[action]
        game.step(state, np.array([action]), err)
        assert not err[0]


def test_ctrl_c_keeps_what_was_trained_and_the_run_resumes(tmp_path, monkeypatch, capsys):
    """A KeyboardInterrupt during training: the checkpoint and final.zip are
    written, the final evaluation is skipped, the exit status is 130, and
    --resume continues the run."""
    from dragongym.training import ppo
    from dragongym.training.selfplay import main
    real_learn = ppo.learn

    def learn_then_interrupt(model, total, **kwargs):
        real_learn(model, total, **kwargs)
        raise KeyboardInterrupt
    monkeypatch.setattr(ppo, "learn", learn_then_interrupt)
    common = ["--game", "dragonhunt", "--n-envs", "2", "--n-steps", "16", "--batch-size", "32",
              "--channels", "4", "--hidden", "8", "--eval-every", "0", "--final-eval-games", "2",
              "--env-rate-seconds", "0", "--out-dir", str(tmp_path), "--run-name", "cut", "--no-progress",
              "--max-hands", "1"]
    assert main(["--total-timesteps", "32"] + common) == 130
    run = tmp_path / "cut"
    assert "interrupted at 32 learner decisions" in capsys.readouterr().err
    history = json.loads((run / "history.json").read_text())
    assert history[-1]["kind"] == "end" and history[-1]["interrupted"]
    assert not any(h["kind"] == "final_eval" for h in history)              # skipped
    assert (run / "final.zip").exists() and (run / "checkpoints" / "latest.zip").exists()
    monkeypatch.setattr(ppo, "learn", real_learn)
    assert main(["--resume", str(run), "--total-timesteps", "64", "--final-eval-games", "0", "--no-progress"]) == 0
    ends = [h for h in json.loads((run / "history.json").read_text()) if h["kind"] == "end"]
    assert ends[-1]["timesteps"] >= 64 and "interrupted" not in ends[-1]


def test_a_warm_started_run_is_evaluated_where_ppo_starts(tmp_path):
    """--imitate-decisions: the heuristic's games are cloned before RL, and the
    cloned policy is evaluated at 0 learner decisions, before any PPO update."""
    from dragongym.training.selfplay import train
    args = Args(game="dragonhunt", game_options={"max_hands": 1}, total_timesteps=64, n_envs=4, n_steps=16,
                batch_size=32, channels=4, hidden=8, imitate_decisions=200, imitate_epochs=1, eval_every=1,
                eval_games=2, eval_workers=1, final_eval_games=0, env_rate_seconds=0, out_dir=str(tmp_path),
                run_name="warm", progress=False)
    history = json.loads((train(args) / "history.json").read_text())
    [imitation] = [h for h in history if h["kind"] == "imitation"]
    assert imitation["decisions"] == 200 and imitation["teacher"] == "dragonhunt.heuristic"
    evals = [h for h in history if h["kind"] == "eval"]
    assert evals[0]["timesteps"] == 0 and evals[0]["update"] == 0
    assert [h["timesteps"] for h in evals][1:] == [64]


def test_a_run_started_from_a_checkpoint_carries_its_network_on(tmp_path):
    """--init: the checkpoint's weights start the run (the first evaluation,
    before any update, plays the checkpoint's policy), the optimizer afresh;
    a checkpoint of another network or game is refused in one line."""
    from dragongym.training.policy import load_policy
    from dragongym.training.selfplay import train
    small = dict(game="dragonhunt", game_options={"max_hands": 1}, n_envs=4, n_steps=16, batch_size=32,
                 channels=4, hidden=8, eval_workers=1, final_eval_games=0, env_rate_seconds=0,
                 out_dir=str(tmp_path), progress=False)
    first = train(Args(**small, total_timesteps=64, eval_every=0, run_name="first", seed=1))
    before = load_policy(str(first / "final.zip")).state_dict()
    second = train(Args(**small, total_timesteps=64, eval_every=0, run_name="second", seed=2,
                        init=str(first / "final.zip"), learning_rate=0.0))
    after = load_policy(str(second / "final.zip")).state_dict()
    # no learning at rate 0: the second run ends with the first's weights, not fresh ones of seed 2
    assert before.keys() == after.keys() and all(torch.equal(before[k], after[k]) for k in before)
    fresh = train(Args(**small, total_timesteps=64, eval_every=0, run_name="fresh", seed=2, learning_rate=0.0))
    assert not all(torch.equal(before[k], v) for k, v in load_policy(str(fresh / "final.zip")).state_dict().items())
    history = json.loads((second / "history.json").read_text())
    assert [h["checkpoint"] for h in history if h["kind"] == "init"] == [str(first / "final.zip")]

    # refused before the run's folder is made
    with pytest.raises(ValueError, match=r"its network \(LayoutPolicy, channels 4, blocks 1, hidden 8\) is not "
                                         r"this run's \(LayoutPolicy, channels 4, blocks 1, hidden 16\)"):
        train(Args(**{**small, "hidden": 16}, total_timesteps=64, run_name="wider", init=str(first / "final.zip")))
    with pytest.raises(ValueError, match="was trained on 'dragonhunt', not 'dragons_down'"):
        train(Args(**{**small, "game": "dragons_down", "game_options": {}}, total_timesteps=64, run_name="other",
                   init=str(first / "final.zip")))
    assert not (tmp_path / "wider").exists() and not (tmp_path / "other").exists()
    with pytest.raises(ValueError, match="no such file"):
        Args(**small, init=str(tmp_path / "missing.zip")).validate()
    (tmp_path / "torn.zip").write_bytes((first / "final.zip").read_bytes()[:100])
    with pytest.raises(ValueError, match="not a checkpoint this trainer wrote"):
        Args(**small, init=str(tmp_path / "torn.zip")).validate()
    with pytest.raises(ValueError, match="give one"):
        Args(**small, init=str(first / "final.zip"), imitate_decisions=10).validate()
