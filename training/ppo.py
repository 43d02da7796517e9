"""Masked PPO in one file, in the CleanRL style, for a model built by ``MaskablePPO``.

Why it exists: with the batched league env (``training/batched.py``) and a
cheap network, Stable-Baselines3's rollout machinery set the pace of
self-play. Profiled on Dragonhunt (``python -m cProfile -m
dragongym.training.selfplay --game dragonhunt --max-hands 20 --channels 8
--n-epochs 1 --n-envs 256 --n-steps 64 --batch-size 1024 --trainer sb3
--total-timesteps 49152 ...``, ``training/report_notes.md``), a quarter of the
learning time went to the rollout buffer's copies: ``swap_and_flatten``
copying every observation once more per update (1.9 s of 16 s) and
``RolloutBuffer.add`` (1.5 s), and more to building a masked distribution
object per step. Here the rollout lives in preallocated tensors, written in
place and read by index, and the policy's trunk and heads are called
directly.

The masking contract is MaskablePPO's, kept exactly:

* an illegal action's logit is replaced by a large negative number (``-1e8``,
  as ``MaskableCategorical`` does) before sampling, log-probabilities and the
  loss;
* the masks are stored with the rollout and applied again in the update;
* the entropy is over the legal actions only (``p log p`` counted where the
  mask allows).

What an update does is MaskablePPO's ``train`` too (advantages normalised per
minibatch, clipped surrogate, unclipped value loss on the GAE returns,
entropy bonus, gradient-norm clipping, early stop past ``1.5 * target_kl``),
and so is the rollout (GAE over ``episode_starts``, the value of the final
observation added to the reward of a step whose episode was truncated), so
the two trainers differ in speed, not in what they compute. The model is a
``MaskablePPO`` (its policy, optimiser, hyperparameters, logger, callbacks and
``save``), so checkpoints, ``--resume``, league callbacks and agents are the
same for both. Actions are drawn by the inverse CDF (:func:`sample_masked`)
from torch's generator, which ``MaskablePPO`` seeds: the same seed replays
the same run. The rollout lives on the policy's device (a GPU under
``device="auto"`` where there is one; without one ``auto`` is the CPU and
trains the same bytes as ``device="cpu"``).
"""
import copy
import threading
import time
import warnings

import numpy as np
import torch
from torch.nn import functional as F

MASKED_LOGIT = -1e8
"""The logit an illegal action gets (``sb3_contrib``'s ``MaskableCategorical`` value)."""


def policy_outputs(policy, obs):
    """``(logits [n, A], values [n])`` of a ``MaskableActorCriticPolicy`` for
    observations ``obs`` (float tensor ``[n, obs_size]``), unmasked."""
    features = policy.extract_features(obs)
    if policy.share_features_extractor:
        latent_pi, latent_vf = policy.mlp_extractor(features)
    else:
        latent_pi = policy.mlp_extractor.forward_actor(features[0])
        latent_vf = policy.mlp_extractor.forward_critic(features[1])
    return policy.action_net(latent_pi), policy.value_net(latent_vf).flatten()


def action_logits(policy, obs):
    """The actor's logits ``[n, A]`` alone, unmasked (an agent playing needs no value)."""
    features = policy.extract_features(obs)
    if not policy.share_features_extractor:
        features = features[0]
    return policy.action_net(policy.mlp_extractor.forward_actor(features))


class Acting:
    """``fn(policy, obs)`` (:func:`policy_outputs` or :func:`action_logits`)
    for acting, without gradients, run as a TorchScript trace of it taken at
    the first call.

    Why: the league's snapshots answer a few games at a time (a round of
    Dragons Down's opponents moves 14 games on average), where the network's
    few hundred small operators cost more in Python and dispatch than in
    arithmetic. The trace replays the same operators without the Python:
    37% and 24% less time a call at 4 and 16 games on Dragonhunt's network,
    46% and 34% on Dragons Down's, 6-8% at the learner's 256 (one thread,
    ``benchmarks/acting_forward.py``; issue 30, round 4). The same operators
    on the same inputs give the same bytes as the eager call.

    The trace reads the policy's own parameters (shared, not copied), so
    weights written in place later (an optimiser step, ``load_state_dict``,
    the overlapped loop's copy) are the ones it plays with; the batch size
    may change from call to call. It is taken once, and checked against the
    eager call on that first batch and on another made from it: a policy the
    tracer cannot hold (an error, the tracer's warning that it kept a value
    read from the data, another result) plays eagerly from then on, with a
    warning. A trace is specific to the policy's structure at that moment
    (its ``fixed_batches`` choice, train or eval mode), so it is taken when
    the policy is ready to act and not reused across such changes."""

    def __init__(self, fn, policy):
        self.fn = fn
        self.policy = policy
        self._traced = None
        self._eager = False

    def __call__(self, obs):
        """``fn(policy, obs)``; ``obs`` a float tensor ``[n, obs_size]``."""
        if self._eager:
            return self.fn(self.policy, obs)
        if self._traced is None:
            self._traced = self._trace(obs)
            if self._traced is None:
                return self.fn(self.policy, obs)
        return self._traced(obs)

    def _trace(self, obs):
        class Call(torch.nn.Module):
            def __init__(self, fn, policy):
                super().__init__()
                self.fn, self.policy = fn, policy

            def forward(self, x):
                return self.fn(self.policy, x)

        # the trace is taken outside inference mode (its records would be inference tensors) and
        # without gradients, the way it will run; it is checked on its own batch and on another
        # (fewer rows, in another order), where a size or a value baked into it would show
        with torch.inference_mode(False), torch.no_grad():
            example = obs.clone()
            other = example.flip(0)[:max(1, len(example) - 1)].contiguous()
            try:
                with warnings.catch_warnings(record=True) as heard:
                    warnings.simplefilter("always")
                    traced = torch.jit.trace(Call(self.fn, self.policy), example, check_trace=False)
                # the tracer's own warning: a value read from the data became a constant of the trace
                doubts = [w for w in heard if issubclass(w.category, torch.jit.TracerWarning)]
                # torch.jit.trace says it is deprecated (torch 2.13, pinned): a removal would raise
                # here and leave the eager call; any other warning is passed on (the record is
                # process-wide: one the update's thread raises meanwhile is passed on from here)
                for w in heard:
                    if not issubclass(w.category, (torch.jit.TracerWarning, DeprecationWarning)):
                        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
                if doubts:
                    problem = f"the tracer warns: {doubts[0].message}"
                elif not all(_same(traced(x), self.fn(self.policy, x)) for x in (example, other)):
                    problem = "its output differs from the eager call's"
                else:
                    problem = None
            except Exception as error:                  # a policy the tracer cannot follow
                traced, problem = None, f"{type(error).__name__}: {error}"
        if problem is not None:
            warnings.warn(f"{type(self.policy).__name__}: the traced forward pass is not used ({problem}); "
                          "playing eagerly", RuntimeWarning, stacklevel=3)
            self._eager = True
            return None
        return traced

    def __getstate__(self):
        # a trace is not picklable: a copy traces again at its first call
        return {**self.__dict__, "_traced": None}

    def __deepcopy__(self, memo):
        copied = Acting(self.fn, copy.deepcopy(self.policy, memo))
        copied._eager = self._eager
        return copied


def _same(a, b):
    """Whether two outputs (tensors or tuples of them) are equal byte for byte."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.shape == b.shape and torch.equal(a, b)
    return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))


def masked_log_probs(logits, masks):
    """Log-probabilities ``[n, A]`` of the masked distribution (``masks`` bool ``[n, A]``)."""
    return torch.log_softmax(logits.masked_fill(~masks, MASKED_LOGIT), dim=1)


def legal_entropy(log_probs, masks):
    """Entropy ``[n]`` over the legal actions only."""
    return -(_probs(log_probs) * log_probs).masked_fill(~masks, 0.0).sum(dim=1)


def _probs(log_probs):
    """The probabilities of normalised ``log_probs`` ``[n, A]``: their softmax,
    which equals their exponential. ``exp`` itself leaves its vectorised
    path on the masked actions' huge negative log-probabilities (about 12x
    slower on a CPU for Dragon Pass's 1,829 actions, most of them masked);
    softmax's kernel does not."""
    return torch.softmax(log_probs, dim=1)


class Rollout:
    """One rollout of ``steps`` steps of ``envs`` games, in preallocated tensors.

    ``episode_starts[t]`` is 1 where the observation of step ``t`` opens an
    episode (its predecessor's ended), as in SB3's buffer.
    """

    def __init__(self, steps, envs, obs_size, num_actions, device="cpu"):
        self.steps, self.envs = steps, envs
        self.obs = torch.zeros(steps, envs, obs_size, device=device)
        self.masks = torch.zeros(steps, envs, num_actions, dtype=torch.bool, device=device)
        self.actions = torch.zeros(steps, envs, dtype=torch.long, device=device)
        self.log_probs = torch.zeros(steps, envs, device=device)
        self.values = torch.zeros(steps, envs, device=device)
        self.rewards = torch.zeros(steps, envs, device=device)
        self.episode_starts = torch.zeros(steps, envs, device=device)
        self.advantages = torch.zeros(steps, envs, device=device)
        self.returns = torch.zeros(steps, envs, device=device)

    def compute_returns(self, last_values, dones, gamma, gae_lambda):
        """GAE advantages and TD(lambda) returns (SB3's ``compute_returns_and_advantage``)."""
        last = torch.zeros(self.envs, device=self.values.device)
        for t in reversed(range(self.steps)):
            if t == self.steps - 1:
                next_non_terminal, next_values = 1.0 - dones, last_values
            else:
                next_non_terminal, next_values = 1.0 - self.episode_starts[t + 1], self.values[t + 1]
            delta = self.rewards[t] + gamma * next_values * next_non_terminal - self.values[t]
            last = delta + gamma * gae_lambda * next_non_terminal * last
            self.advantages[t] = last
        self.returns[:] = self.advantages + self.values


def _explained_variance(predicted, target):
    var = float(target.var())
    return float("nan") if var == 0 else 1.0 - float((target - predicted).var()) / var


def _action_masks(env):
    """Bool ``[num_envs, A]``: the env's own ``action_masks()`` (the batched
    league env) or SB3's per-env ``env_method`` (Dummy/SubprocVecEnv)."""
    own = getattr(env, "action_masks", None)
    if own is not None:
        return np.asarray(own(), dtype=bool)
    from sb3_contrib.common.maskable.utils import get_action_masks
    return np.asarray(get_action_masks(env), dtype=bool)


def sample_masked(logits, masks):
    """``(log_probs [n, A], actions [n])``: the masked distribution's
    log-probabilities (:func:`masked_log_probs`) and one draw from each row.

    The draw is by the inverse CDF: one uniform per row from torch's
    generator against the row's cumulative probabilities. The Gumbel-max
    trick used before drew one exponential variate per action, 468,224 a step
    for 256 Dragon Pass games (1,829 actions): the largest single cost of a
    rollout step after the network. An illegal action has probability 0 (its
    logit is :data:`MASKED_LOGIT`), so it adds nothing to the CDF and is never
    the first entry past the uniform; a row whose draw lands on one all the
    same (a parallel scan on a GPU may round a flat stretch of the CDF
    unevenly) takes its most probable action instead.
    """
    log_probs = masked_log_probs(logits, masks)
    cdf = _probs(log_probs).cumsum(dim=1)
    cdf = cdf / cdf[:, -1:]                 # the last entry exactly 1, above every uniform in [0, 1)
    u = torch.rand(len(cdf), 1, dtype=cdf.dtype, device=cdf.device)
    actions = torch.searchsorted(cdf, u, right=True)[:, 0].clamp_(max=cdf.shape[1] - 1)
    stray = ~masks.gather(1, actions[:, None])[:, 0]
    return log_probs, torch.where(stray, log_probs.argmax(dim=1), actions)


def collect(model, rollout, callback, policy=None, end_rollout=True, abort=None, forward=None):
    """Fill ``rollout`` from ``model.env``; returns False when a callback
    stopped the training (SB3's ``collect_rollouts`` contract).

    Each step's observations and masks are copied once, from the env's numpy
    arrays into the rollout's tensors (on the policy's device), and the
    learner's forward pass reads them there; forward passes run in
    ``torch.inference_mode``, traced (:class:`Acting`). ``policy`` acts
    (default ``model.policy``; the overlapped loop passes its acting copy);
    ``forward`` is its :class:`Acting` of :func:`policy_outputs` (default: one
    traced for this rollout; the training loops keep one for all of theirs);
    ``end_rollout=False`` leaves the callbacks' ``on_rollout_end`` to the
    caller; a set ``abort`` event stops the rollout (returns False) before
    its next step."""
    env = model.env
    policy = model.policy if policy is None else policy
    if forward is None:
        forward = Acting(policy_outputs, policy)
    elif forward.policy is not policy:
        raise ValueError("collect: forward must be an Acting of the policy that acts")
    device = rollout.obs.device
    policy.set_training_mode(False)
    callback.on_rollout_start()
    obs, starts = model._last_obs, model._last_episode_starts
    for t in range(rollout.steps):
        if abort is not None and abort.is_set():
            return False
        obs_t, masks_t = rollout.obs[t], rollout.masks[t]
        obs_t.copy_(torch.from_numpy(np.ascontiguousarray(obs, dtype=np.float32)))
        masks_t.copy_(torch.from_numpy(np.ascontiguousarray(_action_masks(env))))
        rollout.episode_starts[t].copy_(torch.from_numpy(np.asarray(starts, dtype=np.float32)))
        with torch.inference_mode():
            logits, values = forward(obs_t)
            log_probs, actions = sample_masked(logits, masks_t)
            rollout.actions[t] = actions
            rollout.log_probs[t] = log_probs.gather(1, actions[:, None])[:, 0]
            rollout.values[t] = values
        new_obs, rewards, dones, infos = env.step(actions.cpu().numpy())
        model.num_timesteps += env.num_envs
        callback.update_locals(locals())
        if not callback.on_step():
            return False
        model._update_info_buffer(infos, dones)
        rewards = np.asarray(rewards, dtype=np.float32)
        # a truncated episode's reward gets the discounted value of its final
        # observation (SB3's bootstrap): one forward pass for all such games
        truncated = [b for b in np.flatnonzero(dones).tolist()
                     if infos[b].get("terminal_observation") is not None
                     and infos[b].get("TimeLimit.truncated", False)]
        if truncated:
            final = np.stack([np.asarray(infos[b]["terminal_observation"], dtype=np.float32) for b in truncated])
            with torch.inference_mode():
                final_values = forward(torch.from_numpy(final).to(device))[1].cpu().numpy()
            rewards = rewards.copy()
            rewards[truncated] += np.float32(model.gamma) * final_values
        rollout.rewards[t].copy_(torch.from_numpy(rewards))
        obs, starts = new_obs, dones
    with torch.inference_mode():
        last_obs = torch.from_numpy(np.ascontiguousarray(obs, dtype=np.float32)).to(device)
        last_values = forward(last_obs)[1].clone()
    rollout.compute_returns(last_values, torch.as_tensor(starts, dtype=torch.float32, device=device),
                            model.gamma, model.gae_lambda)
    model._last_obs, model._last_episode_starts = obs, starts
    callback.update_locals(locals())
    if end_rollout:
        callback.on_rollout_end()
    return True


def update(model, rollout, generator=None):
    """``n_epochs`` passes of clipped-PPO minibatches over ``rollout``
    (MaskablePPO's ``train``); the minibatches' order is drawn from
    ``generator`` (default: torch's global one)."""
    policy = model.policy
    policy.set_training_mode(True)
    model._update_learning_rate(policy.optimizer)
    clip_range = model.clip_range(model._current_progress_remaining)
    n = rollout.steps * rollout.envs
    obs = rollout.obs.view(n, -1)
    masks = rollout.masks.view(n, -1)
    actions, old_log_probs = rollout.actions.view(n), rollout.log_probs.view(n)
    advantages_all, returns = rollout.advantages.view(n), rollout.returns.view(n)
    # each minibatch's statistics stay tensors until the update ends: one
    # device-to-host copy per update, not five per minibatch
    stats = {"entropy_loss": [], "policy_gradient_loss": [], "value_loss": [], "clip_fraction": []}
    approx_kls, loss, stop = [], None, False
    for _ in range(model.n_epochs):
        approx_kls = []
        order = torch.randperm(n, device=obs.device, generator=generator)
        for start in range(0, n, model.batch_size):
            idx = order[start:start + model.batch_size]
            logits, values = policy_outputs(policy, obs.index_select(0, idx))
            mb_masks = masks.index_select(0, idx)
            log_probs_all = masked_log_probs(logits, mb_masks)
            log_prob = log_probs_all.gather(1, actions[idx, None])[:, 0]
            entropy = legal_entropy(log_probs_all, mb_masks)
            advantages = advantages_all[idx]
            if model.normalize_advantage and len(idx) > 1:
                advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
            log_ratio = log_prob - old_log_probs[idx]
            ratio = log_ratio.exp()
            policy_loss = -torch.min(advantages * ratio,
                                     advantages * ratio.clamp(1 - clip_range, 1 + clip_range)).mean()
            value_loss = F.mse_loss(returns[idx], values)
            entropy_loss = -entropy.mean()
            loss = policy_loss + model.ent_coef * entropy_loss + model.vf_coef * value_loss
            with torch.no_grad():
                approx_kl = ((ratio - 1) - log_ratio).mean()
                approx_kls.append(approx_kl)
                stats["policy_gradient_loss"].append(policy_loss.detach())
                stats["value_loss"].append(value_loss.detach())
                stats["entropy_loss"].append(entropy_loss.detach())
                stats["clip_fraction"].append(((ratio - 1).abs() > clip_range).float().mean())
            # the early stop needs the KL now (a sync); without a target none is waited for
            if model.target_kl is not None and float(approx_kl) > 1.5 * model.target_kl:
                stop = True
                break
            policy.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(policy.parameters(), model.max_grad_norm)
            policy.optimizer.step()
        model._n_updates += 1
        if stop:
            break
    log = model.logger
    for name, values in stats.items():
        if values:
            log.record(f"train/{name}", float(np.mean(torch.stack(values).double().cpu().numpy())))
    if approx_kls:
        log.record("train/approx_kl", float(np.mean(torch.stack(approx_kls).double().cpu().numpy())))
    if loss is not None:
        log.record("train/loss", loss.item())
    log.record("train/explained_variance", _explained_variance(rollout.values.view(n), returns))
    log.record("train/n_updates", model._n_updates, exclude="tensorboard")
    log.record("train/clip_range", clip_range)


def learn(model, total_timesteps, callback=None, tb_log_name="selfplay", reset_num_timesteps=True,
          overlap=False):
    """Train ``model`` (a ``MaskablePPO`` whose env is a ``VecEnv`` with
    ``action_masks()``) for ``total_timesteps`` more decisions, as
    ``model.learn`` would; returns the model.

    ``overlap=True`` collects each rollout while the previous one's update
    runs (:func:`_learn_overlapped`): one update behind, twice the cores busy."""
    total, callback = model._setup_learn(total_timesteps, callback, reset_num_timesteps, tb_log_name,
                                         progress_bar=False)
    env = model.env

    def new_rollout():
        return Rollout(model.n_steps, env.num_envs, int(np.prod(env.observation_space.shape)),
                       int(env.action_space.n), device=model.policy.device)

    # the learner's batches keep their sizes (n_envs games, batch_size samples):
    # the layout network may run its per-row layers as convolutions
    fixed_batches = getattr(model.policy.features_extractor, "fixed_batches", None)
    if fixed_batches is not None:
        fixed_batches(True)
    callback.on_training_start(locals(), globals())
    if overlap:
        _learn_overlapped(model, total, callback, new_rollout)
    else:
        rollout = new_rollout()
        forward = Acting(policy_outputs, model.policy)
        iteration = 0
        while model.num_timesteps < total:
            if not collect(model, rollout, callback, forward=forward):
                break
            iteration += 1
            _log_iteration(model, total, iteration)
            update(model, rollout)
            model.logger.dump(step=model.num_timesteps)
    callback.on_training_end()
    return model


def _log_iteration(model, total, iteration):
    """The progress (learning rate, clip range) and time entries after ``iteration``'s rollout."""
    model._update_current_progress_remaining(model.num_timesteps, total)
    seconds = max(time.time_ns() - model.start_time, 1) / 1e9
    model.logger.record("time/iterations", iteration, exclude="tensorboard")
    model.logger.record("time/fps", int((model.num_timesteps - model._num_timesteps_at_start) / seconds))
    model.logger.record("time/total_timesteps", model.num_timesteps, exclude="tensorboard")


def _learn_overlapped(model, total, callback, new_rollout):
    """PPO with the update of rollout ``k`` and the collection of rollout
    ``k + 1`` at the same time, on two threads: the update on
    ``model.policy``, the collection by an acting copy of it that still has
    the weights rollout ``k`` was played with. Rollout ``k + 1`` is
    therefore played one update behind the policy that learns from it; its
    stored log-probabilities are those of the policy that played it, so the
    clipped ratio measures the step from there (as in asynchronous PPO).

    Why: on a few cores the rollout (the rules, the opponents, the learner's
    forward passes) and the update (forward, backward, Adam) each leave most
    cores idle, and the rules' kernels and torch's operations release the
    GIL, so the two overlap. The schedule is fixed (collect ``k + 1`` while
    updating on ``k``, then copy the weights), so a seed replays the same
    run; the minibatches' order comes from a generator of its own (seeded
    from torch's), as the two threads would otherwise draw from one in a
    varying order. The callbacks' ``on_rollout_end`` (snapshots,
    evaluations, checkpoints) runs between the two, with the update done: it
    sees the weights a sequential run would show at that point. A rollout
    cut short by a callback (the deadline, Ctrl-C) is dropped, as in the
    sequential loop, after the update on the one before it is finished."""
    device = model.policy.device
    # the acting copy needs no optimiser: its state (Adam's moments) stays with the learner alone
    optimizer = getattr(model.policy, "optimizer", None)
    actor = copy.deepcopy(model.policy, memo={id(optimizer): None} if optimizer is not None else None)
    generator = torch.Generator(device=device)
    generator.manual_seed(int(torch.randint(0, 2 ** 62, (1,))))
    forward = Acting(policy_outputs, actor)        # traced at its first call, on this thread
    rollouts = [new_rollout(), new_rollout()]
    iteration = 0
    if model.num_timesteps >= total or not collect(model, rollouts[0], callback, policy=actor,
                                                   forward=forward):
        return
    while True:
        iteration += 1
        learned = rollouts[(iteration - 1) % 2]
        _log_iteration(model, total, iteration)
        failure, going, abort = [], [], threading.Event()

        def run_collect():
            try:
                going.append(collect(model, rollouts[iteration % 2], callback, policy=actor,
                                     end_rollout=False, abort=abort, forward=forward))
            except BaseException as error:     # re-raised in the calling thread
                failure.append(error)

        collector = None
        if model.num_timesteps < total:
            collector = threading.Thread(target=run_collect, name="ppo-collect", daemon=True)
            collector.start()
        try:
            update(model, learned, generator=generator)
        except BaseException:
            abort.set()                        # Ctrl-C or an error in the update: the rollout is dropped
            raise
        finally:
            if collector is not None:
                collector.join()
        if failure:
            raise failure[0]
        # the acting copy takes the new weights
        with torch.no_grad():
            for mine, learner in zip(actor.state_dict().values(), model.policy.state_dict().values()):
                mine.copy_(learner)
        model.logger.dump(step=model.num_timesteps)
        if not (going and going[0]):
            return
        callback.on_rollout_end()
