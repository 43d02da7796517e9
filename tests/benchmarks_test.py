"""The benchmark scripts run (quick mode) and write their result files."""
import json

from dragongym.benchmarks import peers, throughput
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


def test_peers_quick_runs_and_skips_missing_peers_cleanly(tmp_path):
    result = peers.main(["--quick", "--out", str(tmp_path)])
    for ext in ("json", "md", "png"):
        assert (tmp_path / f"peers.{ext}").stat().st_size > 0
    labels = [r["label"] for r in result["peers"]["rows"]] + [s["label"] for s in result["peers"]["skipped"]]
    assert any("pgx" in label for label in labels)          # measured or skipped, never crashed
    assert "comparison" in (tmp_path / "peers.md").read_text()


def test_cli_bench_on_the_toy_game(race, tmp_path, capsys):
    assert cli_main(["bench", "--quick", "--games", race, "--out", str(tmp_path)]) == 0
    assert "vector API" in capsys.readouterr().out
    assert (tmp_path / "throughput.json").exists()
