"""The trainer's device: ``device="auto"`` (the default) trains on a GPU
where torch sees one, and on a machine without one trains exactly what
``device="cpu"`` trains, byte for byte."""
import json

import pytest
import torch

from dragongym.training.policy import load_policy
from dragongym.training.selfplay import Args, train


def tiny_run(tmp_path, name, device):
    """A Dragonhunt run of two updates (one hand, 4 games of 8 steps, a small network)."""
    args = Args(game="dragonhunt", game_options={"max_hands": 1}, total_timesteps=64, n_envs=4, n_steps=8,
                batch_size=16, channels=4, hidden=8, snapshot_every=1, checkpoint_every=1, eval_every=0,
                final_eval_games=0, env_rate_seconds=0, torch_threads=1, device=device,
                out_dir=str(tmp_path), run_name=name, progress=False)
    run = train(args)
    history = json.loads((run / "history.json").read_text())
    assert sum(h["kind"] == "update" for h in history) == 2
    return load_policy(run / "final.zip").state_dict()


def test_auto_without_a_gpu_trains_the_same_bytes_as_cpu(tmp_path, monkeypatch):
    # this machine as one without a GPU, whatever it has
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    on_cpu = tiny_run(tmp_path, "cpu", "cpu")
    on_auto = tiny_run(tmp_path, "auto", "auto")
    assert on_cpu.keys() == on_auto.keys()
    for name, value in on_cpu.items():
        assert torch.equal(value, on_auto[name]), name


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_auto_trains_on_the_gpu_where_there_is_one(tmp_path):
    """Rollout tensors, masks, draws, the update and the checkpoint on CUDA:
    a tiny run trains and its checkpoint loads on the CPU."""
    weights = tiny_run(tmp_path, "gpu", "auto")
    assert all(value.device.type == "cpu" for value in weights.values())
