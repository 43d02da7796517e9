"""Every self-play trainer on every game: a tiny run of each of ``--trainer
ppo`` (training/ppo.py; its update overlapped with the next rollout, and
sequential) and ``--trainer sb3`` (MaskablePPO.learn) on the
batched league games of Dragonhunt, Dragons Down and Dragon Pass and of the
toy games (two seats, solo, three ranked seats) exits, never plays a masked
action (the vector API raises ``IllegalActionError`` on one, which would end
the run), resumes from its checkpoint, and reloads as an agent that plays a
tournament. The RLlib trainer's runs are in rllib_selfplay_test.py."""
import json
import zipfile

import pytest
import torch

import dragongym
from dragongym.agents import make_agent
from dragongym.agents.tournament import run_tournament
from dragongym.training.policy import PolicyAgent
from dragongym.training.selfplay import Args, train

torch.set_num_threads(1)

GAMES = {
    "dragonhunt": {"max_hands": 1},
    "dragons_down": {"num_players": 2, "max_turns": 1},       # a graph and entities, no grid
    "dragon_pass": {"scenario": "18.2", "max_turns": 1},       # the 1,530-hex grid, two roles
    "race": {},                                                 # toy: two interchangeable seats
    "dive": {},                                                 # toy: solo
    "gather": {},                                               # toy: three ranked seats
}


TRAINERS = {
    "ppo": {"trainer": "ppo", "overlap_update": True},
    "ppo_sequential": {"trainer": "ppo", "overlap_update": False},
    "sb3": {"trainer": "sb3"},
}


@pytest.mark.parametrize("trainer", list(TRAINERS))
@pytest.mark.parametrize("name", list(GAMES))
def test_a_tiny_run_trains_resumes_and_plays_as_an_agent(name, trainer, request, tmp_path):
    if name in ("race", "dive", "gather"):
        request.getfixturevalue(name)
    options = GAMES[name]
    args = Args(game=name, game_options=options, **TRAINERS[trainer], total_timesteps=64, n_envs=4, n_steps=8,
                batch_size=16, channels=4, hidden=8, snapshot_every=1, checkpoint_every=1, eval_every=0,
                final_eval_games=0, out_dir=str(tmp_path), run_name="tiny", progress=False,
                env_rate_seconds=0.05)
    run = train(args)
    history = json.loads((run / "history.json").read_text())
    rates = [h for h in history if h["kind"] == "env_rate"]      # the vector API's own rate, beside the trainer's
    assert len(rates) == 1 and rates[0]["decisions_per_second"] > 0 and rates[0]["games"] == 4
    assert [h["timesteps"] for h in history if h["kind"] == "end"][-1] >= 64
    assert sum(h["kind"] == "update" for h in history) == 2               # 64 decisions of 4 x 8

    more = Args(resume=str(run), total_timesteps=96, final_eval_games=0, progress=False)
    train(more)
    history = json.loads((run / "history.json").read_text())
    ends = [h["timesteps"] for h in history if h["kind"] == "end"]
    assert sum(h["kind"] == "env_rate" for h in history) == 1                # measured once per run
    assert len(ends) == 2 and ends[-1] >= 96 and sum(h["kind"] == "update" for h in history) == 3

    with zipfile.ZipFile(run / "final.zip") as final:            # an agent, without the rollout state
        assert "_last_obs" not in json.loads(final.read("data"))
    game = dragongym.get_game(name)
    assert isinstance(make_agent(str(run / "final.zip"), game=game), PolicyAgent)
    seats = game.spec_for(game.make_config(**options)).num_seats
    result = run_tournament(name, [str(run / "final.zip")] + ["random"] * (seats - 1), 1, progress=False,
                            **options)
    assert result.agents[0].games == 1
