"""The benchmark scripts run (quick mode) and write their result files; they
read everything game-specific from the game's hooks."""
import json
import subprocess
import sys

import pytest

import dragongym
from dragongym.benchmarks import peers, suite, throughput
from dragongym.training.cli import main as cli_main


def test_throughput_quick_writes_json_markdown_and_plot(tmp_path):
    result = throughput.main(["--quick", "--games", "dragonhunt", "--out", str(tmp_path)])
    for ext in ("json", "md", "png"):
        assert (tmp_path / f"throughput.{ext}").stat().st_size > 0
    data = json.loads((tmp_path / "throughput.json").read_text())
    paths = {r["path"] for r in data["rows"]}
    assert paths == {"pettingzoo AEC", "vector API", "bare core"}
    assert {r["batch"] for r in data["rows"] if r["path"] == "vector API"} == {1, 64}
    assert all(r["median"] > 0 for r in data["rows"])
    assert data["memory"]["dragonhunt"]["bytes_per_state"] > 0 and data["peak_rss_bytes"] > 0
    assert result["rows"] == data["rows"]
    # played with the game's own benchmark options, not options named here
    assert data["options"]["dragonhunt"] == dragongym.get_game("dragonhunt").bench_options


def test_peers_quick_runs_and_skips_missing_peers_cleanly(tmp_path):
    result = peers.main(["--quick", "--out", str(tmp_path)])
    for ext in ("json", "md", "png"):
        assert (tmp_path / f"peers.{ext}").stat().st_size > 0
    labels = [r["label"] for r in result["peers"]["rows"]] + [s["label"] for s in result["peers"]["skipped"]]
    assert any("pgx" in label for label in labels)          # measured or skipped, never crashed
    md = (tmp_path / "peers.md").read_text()
    assert "comparison" in md
    assert md.count("| peer |") == 1                       # the peers' section once, not twice


def test_cli_bench_on_the_toy_game(race, tmp_path, capsys):
    assert cli_main(["bench", "--quick", "--games", race, "--out", str(tmp_path)]) == 0
    assert "vector API" in capsys.readouterr().out
    assert (tmp_path / "throughput.json").exists()


def test_cli_bench_times_the_pictures_of_the_games_that_draw(race, dive, tmp_path, capsys):
    """``bench --pictures``: frames per second of each game that draws (Race
    to Ten), nothing for one that does not (Dive), in pictures.json/.md."""
    assert cli_main(["bench", "--quick", "--pictures", "--games", f"{race},{dive}", "--out", str(tmp_path)]) == 0
    assert "Pictures (frames per second)" in capsys.readouterr().out
    rows = json.loads((tmp_path / "pictures.json").read_text())
    assert [r["game"] for r in rows] == [race]
    (row,) = rows
    assert row["size"] == [592, 208] and row["frames"] == 20
    assert min(row["full_fps"], row["seat_fps"], row["svg_fps"]) > 0 and row["first_frame_s"] > 0
    assert "| race |" in (tmp_path / "pictures.md").read_text()


def test_a_solo_game_is_benchmarked_with_its_own_options(dive):
    """Dive has no num_players option and no bare core: no path names one."""
    result = suite.run_suite([dive], quick=True, threads=(1,), batches=(1, 4), log=lambda _: None)
    assert {r["path"] for r in result["rows"]} == {"pettingzoo AEC", "vector API"}
    assert result["options"] == {dive: {}} and all(r["median"] > 0 for r in result["rows"])
    assert not suite.has_core(dive) and suite.has_core("dragonhunt")


def test_the_bare_core_hook_counts_its_decisions():
    game = dragongym.get_game("dragonhunt")
    config = game.make_config(**game.bench_options)
    states = game.new_states(3)
    from dragongym.envs.core.rng import seed_sequence
    game.reset(states, seed_sequence(0, 3), config)
    assert game.bench_playout(states, config, 5, seed=1) == 15
    assert int(states["decisions"].sum()) > 0


def test_the_benchmark_modules_import_in_one_direction():
    """suite <- peers <- throughput: no module imports one above it."""
    code = ("import sys; import dragongym.benchmarks.suite as s; a = sorted(m for m in sys.modules "
            "if m.startswith('dragongym.benchmarks.')); import dragongym.benchmarks.peers; "
            "b = 'dragongym.benchmarks.throughput' in sys.modules; print(a, b)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['dragongym.benchmarks.suite'] False"


def test_game_length_counts_decided_games_by_turn(race):
    from dragongym.benchmarks.game_length import measure

    result = measure(race, 30, 5, seed=3, agent_id="random", num_players=2)
    turns, decided = result["turns"], result["decided"]
    assert len(turns) == 30 and all(1 <= t <= 5 for t in turns)
    assert all(t == 5 for t, d in zip(turns, decided) if not d)   # undecided: ran to the limit
    by = result["decided_by"]
    assert [by[t] for t in sorted(by)] == sorted(by.values())        # a cumulative share
    assert by[5] == sum(decided) / 30 and 0 < by[5] < 1
    assert result["median_decided_turn"] is not None
    again = measure(race, 30, 5, seed=3, agent_id="random", num_players=2)
    assert again["turns"] == turns                                   # seeded: replays exactly


def test_game_length_needs_a_truncation_option(dive):
    from dragongym.benchmarks.game_length import measure

    import pytest
    with pytest.raises(NotImplementedError, match="does not count its turns"):
        measure(dive, 2, 5, agent_id="random")


def test_peer_comparisons_use_each_games_own_targets():
    # a made-up result: each game at 300k/s rules only and 60k/s with observations, chess at 100k/20k
    rows = [dict(game=g, path="vector API", batch=1024, obs=obs, threads=1, median=60e3 if obs else 300e3)
            for g in ("dragonhunt", "dragons_down") for obs in (False, True)]
    chess = [dict(library="openspiel", game="chess", obs=obs, batch=1, median=20e3 if obs else 100e3, min=1, max=1,
                  label="openspiel chess +obs" if obs else "openspiel chess") for obs in (False, True)]
    lines = {text: (ratio, target) for text, ratio, target in
             peers.comparisons({"rows": rows, "peers": {"rows": chess}})}
    assert lines["dragonhunt vector API B=1024 without obs / openspiel chess"] == (3.0, 10.0)
    assert lines["dragonhunt vector API B=1024 with obs / openspiel chess +obs"] == (3.0, 8.0)
    assert lines["dragons_down vector API B=1024 without obs / openspiel chess"] == (3.0, 2.0)
    assert lines["dragons_down vector API B=1024 with obs / openspiel chess +obs"] == (3.0, 2.0)
    table = peers.markdown({"rows": rows, "peers": {"rows": chess},
                            "memory": {"dragonhunt": {"bytes_per_state": 1535},
                                       "dragons_down": {"bytes_per_state": 3482}}})
    assert "| dragonhunt bytes per game state | 1535 B | < 4096 B: met |" in table
    assert "| dragons_down bytes per game state | 3482 B |  |" in table      # no size target of its own


def test_phase_profile_times_every_decision_random_play_meets(capsys):
    from dragongym.benchmarks import phase_profile
    phase_profile.main(["--game", "dragonhunt", "--games", "3", "--per-phase", "8", "--reps", "1",
                        "--set", "max_hands=2"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("dragonhunt {'num_players': 2, 'max_hands': 2}, 3 random games")
    rows = [line.split() for line in out[2:]]
    assert rows and all(len(r) == 5 and r[1].endswith("%") for r in rows)
    names = {r[0] for r in rows}
    assert "none" not in names and not any(n.isdigit() for n in names)      # named by the game's PHASE_NAMES
    assert abs(sum(float(r[1][:-1]) for r in rows) - 100.0) < 1.0


def test_compile_profile_charges_each_function_its_own_time():
    """``compile_profile``: a compile nested in another (a callee typed while
    its caller compiles) is charged to the callee; the rest to the caller;
    the report sums own times by module."""
    from dragongym.benchmarks.compile_profile import own_times, report

    spans = [("kernel", "dragongym.envs.g.kernel", 0.0, 10.0, 0),
             ("rule", "dragongym.envs.g.rules.a", 1.0, 4.0, 1),
             ("helper", "dragongym.envs.g.rules.b", 2.0, 3.0, 2),
             ("rule2", "dragongym.envs.g.rules.b", 5.0, 6.0, 1)]
    own = own_times(spans)
    assert own[("dragongym.envs.g.kernel", "kernel")] == (6.0, 1)
    assert own[("dragongym.envs.g.rules.a", "rule")] == (2.0, 1)
    assert own[("dragongym.envs.g.rules.b", "helper")] == (1.0, 1)
    lines = report({"wall": 11.0, "llvm": 4.0, "spans": spans, "entries": [("reset", 10.0)]}, top=3)
    assert lines[0].startswith("cold warm-up: 11.0 s wall; 10.0 s in 4 compiles of 4 functions")
    assert any(line.startswith("g.kernel") and "6.0" in line for line in lines)
    assert any(line.startswith("g.rules.b") and "2.0" in line for line in lines)


def test_trainer_cpu_times_a_tiny_training_loop(tmp_path, capsys):
    """``benchmarks/trainer_cpu.py``: the CPU and wall time of the training
    loop of a selfplay command line, as one JSON line (stdout and ``--out``);
    a command line without ``--`` is refused."""
    from dragongym.benchmarks import trainer_cpu
    out = tmp_path / "t.json"
    trainer_cpu.main(["--out", str(out), "--", "--game", "dragonhunt", "--max-hands", "1", "--n-envs", "2",
                      "--n-steps", "16", "--batch-size", "32", "--channels", "4", "--hidden", "8",
                      "--total-timesteps", "64", "--eval-every", "0", "--final-eval-games", "0",
                      "--env-rate-seconds", "0", "--no-progress", "--torch-threads", "1"])
    printed = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert json.loads(out.read_text()) == printed
    assert printed["timesteps"] == 64 and printed["cpu_seconds"] > 0 and printed["wall_seconds"] > 0
    assert printed["decisions_per_cpu_second"] == 64 / printed["cpu_seconds"]
    with pytest.raises(SystemExit, match="usage"):
        trainer_cpu.main(["--game", "dragonhunt"])


def test_acting_forward_times_eager_and_traced_calls_and_checks_their_bytes(tmp_path, capsys):
    """``benchmarks/acting_forward.py``: one acting forward pass of the
    default network, eager and traced, per batch size, the same bytes."""
    from dragongym.benchmarks import acting_forward

    out = tmp_path / "acting.json"
    acting_forward.main(["--game", "dragonhunt", "--sizes", "1,3", "--calls", "2", "--rounds", "1",
                         "--games", "4", "--out", str(out)])
    rows = json.loads(out.read_text())
    assert [r["batch"] for r in rows] == [1, 3]
    assert all(r["same_bytes"] and r["eager_us"] > 0 and r["traced_us"] > 0 for r in rows)
    assert "dragonhunt batch    3: eager" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        acting_forward.main(["--game", "dragonhunt", "--sizes", "8", "--games", "4"])
