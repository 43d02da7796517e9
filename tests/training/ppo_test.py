"""The single-file masked PPO (training/ppo.py): the same masking contract and
the same numbers as MaskablePPO, never a masked action, resumable, the same
run from the same seed, on the toy games and (in selfplay_test.py and
trainers_test.py) on every real game."""
import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.buffers import RolloutBuffer

from dragongym.training import ppo
from dragongym.training.batched import BatchedLeagueEnv
from dragongym.training.policy import BoardPolicy, PolicyAgent

torch.set_num_threads(1)


def tiny_model(game, env, seed=7, n_steps=16):
    return MaskablePPO(BoardPolicy, env, n_steps=n_steps, batch_size=32, n_epochs=2, seed=seed, device="cpu",
                       policy_kwargs={"features_extractor_kwargs": {"game": game, "hidden": 8,
                                                                    "game_options": {"num_players": 2}}})


def random_masks(rng, n, a):
    masks = rng.random((n, a)) < 0.4
    masks[np.arange(n), rng.integers(0, a, n)] = True           # at least one legal action a row
    return masks


def test_log_probs_and_entropy_are_maskableppos_own(race):
    """Values, log-probabilities of the taken actions and the entropy over
    legal actions equal ``MaskableActorCriticPolicy.evaluate_actions``."""
    env = BatchedLeagueEnv(race, 4, {"num_players": 2}, seed=1)
    model = tiny_model(race, env)
    rng = np.random.default_rng(0)
    obs = torch.as_tensor(rng.random((64, env.observation_space.shape[0])), dtype=torch.float32)
    masks = random_masks(rng, 64, env.action_space.n)
    actions = torch.as_tensor([rng.choice(np.flatnonzero(m)) for m in masks])
    with torch.no_grad():
        values, log_prob, entropy = model.policy.evaluate_actions(obs, actions, action_masks=masks)
        logits, ours = ppo.policy_outputs(model.policy, obs)
        log_probs = ppo.masked_log_probs(logits, torch.as_tensor(masks))
    assert torch.allclose(ours, values.flatten())
    assert torch.allclose(log_probs.gather(1, actions[:, None])[:, 0], log_prob, atol=1e-6)
    assert torch.allclose(ppo.legal_entropy(log_probs, torch.as_tensor(masks)), entropy, atol=1e-6)
    # an illegal action has no probability at all
    assert float(log_probs.exp()[~torch.as_tensor(masks)].max()) == 0.0
    # the actor alone (what an agent plays from) gives the same logits; its value head the same values
    with torch.no_grad():
        assert torch.equal(ppo.action_logits(model.policy, obs), logits)
    agent = PolicyAgent(model.policy)
    assert np.allclose(agent.values(obs.numpy()), values.flatten().numpy(), atol=1e-6)


def test_the_advantages_are_sb3s_gae():
    rng = np.random.default_rng(2)
    steps, envs = 7, 3
    from gymnasium import spaces
    buffer = RolloutBuffer(steps, spaces.Box(-1, 1, (2,)), spaces.Discrete(2), gamma=0.9, gae_lambda=0.8,
                           n_envs=envs)
    ours = ppo.Rollout(steps, envs, 2, 2)
    for t in range(steps):
        reward, start, value = rng.random(envs), rng.random(envs) < 0.3, rng.random(envs)
        buffer.add(np.zeros((envs, 2)), np.zeros((envs, 1)), reward, start, torch.as_tensor(value),
                   torch.zeros(envs))
        ours.rewards[t], ours.episode_starts[t], ours.values[t] = (torch.as_tensor(x, dtype=torch.float32)
                                                                   for x in (reward, start, value))
    last, dones = rng.random(envs), rng.random(envs) < 0.5
    buffer.compute_returns_and_advantage(torch.as_tensor(last), dones)
    ours.compute_returns(torch.as_tensor(last, dtype=torch.float32), torch.as_tensor(dones, dtype=torch.float32),
                         0.9, 0.8)
    assert np.allclose(ours.advantages.numpy(), buffer.advantages, atol=1e-5)
    assert np.allclose(ours.returns.numpy(), buffer.returns, atol=1e-5)


def test_draws_follow_the_masked_distribution_and_never_an_illegal_action():
    """The rollout's inverse-CDF draws (``ppo.sample_masked``): every draw
    legal, even a masked first or last action, frequencies those of the
    masked softmax, and the log-probabilities the masked ones."""
    torch.manual_seed(0)
    logits = torch.tensor([[0.0, 1.0, 2.0, 3.0, 9.0]]).repeat(40_000, 1)
    masks = torch.tensor([[False, True, True, True, False]]).repeat(40_000, 1)
    log_probs, draws = ppo.sample_masked(logits, masks)
    assert torch.equal(log_probs, ppo.masked_log_probs(logits, masks))
    counts = np.bincount(draws.numpy(), minlength=5) / len(draws)
    want = np.exp([-np.inf, 1.0, 2.0, 3.0, -np.inf]) / np.exp([1.0, 2.0, 3.0]).sum()
    assert counts[0] == counts[4] == 0 and np.allclose(counts, want, atol=0.01)
    # a row with a single legal action always draws it
    one = torch.zeros(1000, 5, dtype=torch.bool)
    one[:, 2] = True
    assert torch.equal(ppo.sample_masked(torch.randn(1000, 5), one)[1], torch.full((1000,), 2))


def test_the_entropy_over_legal_actions_is_the_exponentials_own():
    """``legal_entropy`` takes the probabilities as a softmax of the
    log-probabilities (fast where most actions are masked): the same values
    as their exponential."""
    rng = np.random.default_rng(5)
    logits = torch.as_tensor(rng.normal(size=(64, 300)) * 3, dtype=torch.float32)
    masks = torch.as_tensor(random_masks(rng, 64, 300))
    log_probs = ppo.masked_log_probs(logits, masks)
    want = -(log_probs.double().exp() * log_probs.double()).masked_fill(~masks, 0.0).sum(dim=1)
    assert torch.allclose(ppo.legal_entropy(log_probs, masks).double(), want, atol=1e-5)


def test_it_trains_without_a_masked_action_resumes_and_replays_from_its_seed(race, tmp_path):
    """The batched env checks every learner action (a masked one raises
    there); a saved model resumes where it stopped; the same seed gives the
    same weights."""
    def run(seed):
        env = BatchedLeagueEnv(race, 8, {"num_players": 2}, weights={"random": 1.0}, seed=seed)
        model = tiny_model(race, env, seed=seed)
        ppo.learn(model, 256)
        return model

    first, again, other = run(7), run(7), run(8)
    assert first.num_timesteps >= 256 and first._n_updates == 2 * 2       # 2 rollouts x 2 epochs
    weights = lambda m: torch.cat([p.detach().flatten() for p in m.policy.parameters()])
    assert torch.equal(weights(first), weights(again))
    assert not torch.equal(weights(first), weights(other))
    first.save(tmp_path / "model.zip")
    env = BatchedLeagueEnv(race, 8, {"num_players": 2}, weights={"random": 1.0}, seed=9)
    resumed = MaskablePPO.load(tmp_path / "model.zip", env=env, device="cpu")
    ppo.learn(resumed, 128, reset_num_timesteps=False)
    assert resumed.num_timesteps >= first.num_timesteps + 128


@pytest.mark.parametrize("toy", ["dive", "gather"])
def test_it_trains_on_the_solo_and_the_ranked_toy_game(toy, request):
    name = request.getfixturevalue(toy)
    options = {}
    env = BatchedLeagueEnv(name, 6, options, weights={"random": 1.0}, seed=3, reward="rank" if toy == "gather" else "game")
    model = MaskablePPO(BoardPolicy, env, n_steps=16, batch_size=32, n_epochs=1, seed=3, device="cpu",
                        policy_kwargs={"features_extractor_kwargs": {"game": name, "hidden": 8,
                                                                     "game_options": options}})
    ppo.learn(model, 192)
    assert model.num_timesteps >= 192 and env.learner_decisions == model.num_timesteps


# ----------------------------------------------------------------- overlapped update

def _weights(policy):
    return torch.cat([p.detach().flatten() for p in policy.parameters()]).clone()


def _race_model(race, seed=7):
    env = BatchedLeagueEnv(race, 8, {"num_players": 2}, weights={"random": 1.0}, seed=seed)
    return tiny_model(race, env, seed=seed)


def test_the_overlapped_loop_plays_each_rollout_one_update_behind_and_replays_from_its_seed(race, monkeypatch):
    """``overlap=True``: rollout k+1 is collected while the update on rollout
    k runs, by a copy holding the weights rollout k was played with; the
    same number of rollouts and updates as the sequential loop, and the
    same seed gives the same weights."""
    seen = []                      # ("collect", weights it acts with) / ("update", weights before)
    collect, update = ppo.collect, ppo.update

    def spy_collect(model, rollout, callback, policy=None, **kwargs):
        seen.append(("collect", _weights(model.policy if policy is None else policy)))
        return collect(model, rollout, callback, policy=policy, **kwargs)

    def spy_update(model, rollout, **kwargs):
        seen.append(("update", _weights(model.policy)))
        update(model, rollout, **kwargs)
        seen.append(("updated", _weights(model.policy)))

    monkeypatch.setattr(ppo, "collect", spy_collect)
    monkeypatch.setattr(ppo, "update", spy_update)
    model = ppo.learn(_race_model(race), 512, overlap=True)      # 4 rollouts of 8 games x 16 steps
    monkeypatch.undo()
    assert model.num_timesteps == 512 and model._n_updates == 4 * 2
    collects = [w for kind, w in seen if kind == "collect"]
    before = [w for kind, w in seen if kind == "update"]
    after = [w for kind, w in seen if kind == "updated"]
    assert len(collects) == len(before) == len(after) == 4
    theta = [before[0]] + after                   # theta_0 .. theta_4
    assert all(torch.equal(before[k], theta[k]) for k in range(4))       # each update starts where the last ended
    # rollouts 1 and 2 by theta_0, rollout 3 by theta_1, rollout 4 by theta_2
    for k, want in enumerate([0, 0, 1, 2]):
        assert torch.equal(collects[k], theta[want]), k
    assert not torch.equal(theta[1], theta[0])
    again = ppo.learn(_race_model(race), 512, overlap=True)
    assert torch.equal(_weights(again.policy), _weights(model.policy))
    sequential = ppo.learn(_race_model(race), 512)
    assert sequential._n_updates == model._n_updates
    assert not torch.equal(_weights(sequential.policy), _weights(model.policy))   # another schedule


class _Stops:
    """A callback that records the learner's weights at each rollout's end and
    stops the training (``on_step`` False) at the ``stop_at``-th step."""

    def __init__(self, model, stop_at=None):
        from stable_baselines3.common.callbacks import BaseCallback

        outer = self

        class Callback(BaseCallback):
            def _on_step(self):
                outer.steps += 1
                return outer.stop_at is None or outer.steps < outer.stop_at

            def _on_rollout_end(self):
                outer.ends.append((self.model.num_timesteps, _weights(self.model.policy)))

        self.steps, self.stop_at, self.ends, self.callback = 0, stop_at, [], Callback()


def test_overlapped_rollout_ends_see_the_finished_update_and_a_stopped_rollout_is_dropped(race, monkeypatch):
    """The callbacks' ``on_rollout_end`` (snapshots, evaluations,
    checkpoints) runs with no update in flight, on the weights a sequential
    run would show there: after the updates on every rollout before. A
    rollout a callback stops (the deadline) is not learned from."""
    model = _race_model(race)
    updated = []
    update = ppo.update

    def spy_update(model, rollout, **kwargs):
        update(model, rollout, **kwargs)
        updated.append(_weights(model.policy))

    monkeypatch.setattr(ppo, "update", spy_update)
    stops = _Stops(model, stop_at=16 * 2 + 5)          # in the third rollout's sixth step
    ppo.learn(model, 10_000, callback=stops.callback, overlap=True)
    # rollout 1 ends before any update; rollout 2 after the update on rollout 1
    assert [t for t, _ in stops.ends] == [128, 256]
    assert torch.equal(stops.ends[1][1], updated[0])
    # the update on rollout 2 ran to its end; the stopped third rollout was dropped
    assert len(updated) == 2 and torch.equal(_weights(model.policy), updated[1])


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_an_error_in_either_thread_of_the_overlapped_loop_reaches_the_caller(error, race, monkeypatch):
    """An update that raises (or is interrupted by Ctrl-C, which reaches the
    main thread, the update's) stops the rollout being collected beside it;
    a rollout that raises is reported once the update beside it is done.
    Either way the error reaches ``learn``'s caller and no thread is left running."""
    import threading

    def broken_update(model, rollout, **kwargs):
        raise error("update broke")

    monkeypatch.setattr(ppo, "update", broken_update)
    with pytest.raises(error, match="update broke"):
        ppo.learn(_race_model(race), 512, overlap=True)
    monkeypatch.undo()
    assert not any(t.name == "ppo-collect" for t in threading.enumerate())

    collect, calls = ppo.collect, []

    def collect_breaks_second(model, rollout, callback, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise ValueError("rollout broke")
        return collect(model, rollout, callback, **kwargs)

    monkeypatch.setattr(ppo, "collect", collect_breaks_second)
    model = _race_model(race)
    with pytest.raises(ValueError, match="rollout broke"):
        ppo.learn(model, 512, overlap=True)
    assert model._n_updates == 2          # the update beside the broken rollout finished (2 epochs)
    assert not any(t.name == "ppo-collect" for t in threading.enumerate())


# ----------------------------------------------------------------- the traced acting forward

def _league_observations(game, n=24, steps=30, seed=3):
    """``n`` observations of ``game``'s default configuration after up to
    ``steps`` random league decisions (the learner's network, the layout one)."""
    from dragongym.training import selfplay

    args = selfplay.Args(game=game)
    env = BatchedLeagueEnv(game, n, args.config_options(), weights={"random": 1.0}, seed=seed)
    env.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        masks = env.action_masks()
        env.step(np.array([rng.choice(np.flatnonzero(m)) for m in masks]))
    make = selfplay._policy_factory(args, env.observation_space, env.action_space)
    return make, torch.as_tensor(env.venv.obs.copy())


@pytest.mark.parametrize("game", ["dragonhunt", "dragons_down", "dragon_pass"])
def test_the_traced_acting_forward_is_the_eager_one_byte_for_byte(game):
    """``Acting`` (the league's snapshots, the learner's rollout, a
    checkpoint's agent) replays the network's operators as a trace: the same
    bytes as the eager forward at every batch size, and after the weights
    change in place (an optimiser step, ``load_state_dict``) it plays the
    new ones: the trace reads the policy's parameters, and the layout
    network's remembered constants are computed inside it."""
    make, obs = _league_observations(game)
    policy = make().eval()
    acting = ppo.Acting(ppo.policy_outputs, policy)
    logits_only = ppo.Acting(ppo.action_logits, policy)

    def same_as_eager():
        with torch.inference_mode():
            for n in (5, 1, 24, 9):
                logits, values = acting(obs[:n])
                eager_logits, eager_values = ppo.policy_outputs(policy, obs[:n])
                assert torch.equal(logits, eager_logits) and torch.equal(values, eager_values), n
                assert torch.equal(logits_only(obs[:n]), eager_logits), n
        return logits

    before = same_as_eager()
    assert acting._traced is not None and not acting._eager        # it did trace
    optimizer = torch.optim.Adam(policy.parameters(), lr=0.05)
    loss = sum(out.square().mean() for out in ppo.policy_outputs(policy, obs))
    loss.backward()
    optimizer.step()
    after = same_as_eager()
    assert not torch.equal(before, after)
    policy.load_state_dict(make().state_dict())
    same_as_eager()


def test_a_policy_the_tracer_cannot_hold_plays_eagerly_with_a_warning(race):
    """A forward pass the trace would get wrong is found when the trace is
    taken, and played eagerly from then on, with a warning naming why: one
    that decides on a value of its batch (the tracer warns that it keeps it
    as a constant), one that keeps Python state between calls (the trace
    keeps the state of its first call: its check against the eager call
    differs), one the tracer refuses (it returns a dict)."""
    env = BatchedLeagueEnv(race, 4, {"num_players": 2}, seed=1)
    policy = tiny_model(race, env).policy
    obs = torch.as_tensor(np.random.default_rng(0).random((6, env.observation_space.shape[0])),
                          dtype=torch.float32)
    calls = []

    def reads_the_data(policy, x):
        logits = ppo.action_logits(policy, x)
        return logits * 2 if float(x.sum()) > 3.0 else logits

    def counts_its_calls(policy, x):
        calls.append(1)
        return ppo.action_logits(policy, x) + len(calls)

    def refused(policy, x):
        return {"logits": ppo.action_logits(policy, x)}

    cases = {reads_the_data: ("the tracer warns: Converting a tensor to a Python float",
                              lambda x, out: torch.equal(out, reads_the_data(policy, x))),
             counts_its_calls: ("its output differs from the eager call's",
                                lambda x, out: torch.equal(out, ppo.action_logits(policy, x) + len(calls))),
             refused: ("RuntimeError",
                       lambda x, out: torch.equal(out["logits"], ppo.action_logits(policy, x)))}
    for fn, (why, played_eagerly) in cases.items():
        acting = ppo.Acting(fn, policy)
        with pytest.warns(RuntimeWarning, match="the traced forward pass is not used") as caught:
            first = acting(obs)
        assert why in str(caught[0].message), (fn.__name__, str(caught[0].message))
        assert acting._eager and acting._traced is None
        assert played_eagerly(obs, first), fn.__name__
        for x in (obs[:1], obs[2:]):
            assert played_eagerly(x, acting(x)), fn.__name__


def test_a_playing_agent_copies_and_pickles_without_its_trace(race):
    """A checkpoint's agent that has moved (its forward traced) still deep-
    copies and pickles (workers, saved objects); the copy traces anew and
    plays the same moves."""
    import copy
    import pickle

    env = BatchedLeagueEnv(race, 4, {"num_players": 2}, seed=1)
    env.reset()
    agent = PolicyAgent(tiny_model(race, env).policy, deterministic=False)
    obs, masks = env.venv.obs.copy(), env.venv.masks.copy()
    moves = agent.act_batch(obs, masks, np.random.default_rng(5))
    assert agent._logits._traced is not None
    for twin in (copy.deepcopy(agent), pickle.loads(pickle.dumps(agent))):
        assert twin._logits._traced is None and twin._logits.policy is twin.policy
        assert np.array_equal(twin.act_batch(obs, masks, np.random.default_rng(5)), moves)
    # a policy set on the agent later is the one it plays, not the trace of the first
    other = tiny_model(race, env, seed=11).policy
    agent.policy = other.eval()
    with torch.no_grad():
        want = ppo.action_logits(other, torch.as_tensor(obs)).numpy()
    assert np.array_equal(agent.logits(obs), want)


def test_collect_refuses_a_forward_pass_of_another_policy(race):
    """``collect(forward=...)`` must be the acting policy's own: another's
    is refused before any step, the rollout and the games untouched."""
    model = _race_model(race)
    model._last_obs = model.env.reset()
    rollout = ppo.Rollout(model.n_steps, model.env.num_envs, model.env.observation_space.shape[0],
                          int(model.env.action_space.n))
    before = model.env.venv.states.copy()
    stranger = ppo.Acting(ppo.policy_outputs, _race_model(race, seed=3).policy)
    with pytest.raises(ValueError, match="forward must be an Acting of the policy that acts"):
        ppo.collect(model, rollout, None, forward=stranger)
    assert np.array_equal(model.env.venv.states, before) and not rollout.obs.any()


def test_the_rollouts_and_the_training_are_the_same_traced_or_eager(race, monkeypatch):
    """Tracing the acting forward changes the speed only: the same seed
    trains the same weights with the trace as with the eager calls, in both
    loops, snapshots playing."""
    def train(overlap):
        env = BatchedLeagueEnv(race, 8, {"num_players": 2}, seed=7, make_policy=lambda: tiny_model(race, env).policy)
        model = tiny_model(race, env)
        env.set_weights({"random": 0.5, "self:0": 0.5}, new_snapshots={0: model.policy.state_dict()})
        return _weights(ppo.learn(model, 384, overlap=overlap).policy)

    traced = [train(False), train(True)]
    monkeypatch.setattr(ppo.Acting, "__call__", lambda self, obs: self.fn(self.policy, obs))
    eager = [train(False), train(True)]
    assert all(torch.equal(t, e) for t, e in zip(traced, eager))
