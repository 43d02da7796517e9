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
same for both. Actions are drawn by the Gumbel-max trick from torch's
generator, which ``MaskablePPO`` seeds: the same seed replays the same run.
"""
import time

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


def masked_log_probs(logits, masks):
    """Log-probabilities ``[n, A]`` of the masked distribution (``masks`` bool ``[n, A]``)."""
    return torch.log_softmax(logits.masked_fill(~masks, MASKED_LOGIT), dim=1)


def legal_entropy(log_probs, masks):
    """Entropy ``[n]`` over the legal actions only."""
    return -(log_probs.exp() * log_probs).masked_fill(~masks, 0.0).sum(dim=1)


class Rollout:
    """One rollout of ``steps`` steps of ``envs`` games, in preallocated tensors.

    ``episode_starts[t]`` is 1 where the observation of step ``t`` opens an
    episode (its predecessor's ended), as in SB3's buffer.
    """

    def __init__(self, steps, envs, obs_size, num_actions):
        self.steps, self.envs = steps, envs
        self.obs = torch.zeros(steps, envs, obs_size)
        self.masks = torch.zeros(steps, envs, num_actions, dtype=torch.bool)
        self.actions = torch.zeros(steps, envs, dtype=torch.long)
        self.log_probs = torch.zeros(steps, envs)
        self.values = torch.zeros(steps, envs)
        self.rewards = torch.zeros(steps, envs)
        self.episode_starts = torch.zeros(steps, envs)
        self.advantages = torch.zeros(steps, envs)
        self.returns = torch.zeros(steps, envs)

    def compute_returns(self, last_values, dones, gamma, gae_lambda):
        """GAE advantages and TD(lambda) returns (SB3's ``compute_returns_and_advantage``)."""
        last = torch.zeros(self.envs)
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


def collect(model, rollout, callback):
    """Fill ``rollout`` from ``model.env``; returns False when a callback
    stopped the training (SB3's ``collect_rollouts`` contract)."""
    env, policy = model.env, model.policy
    policy.set_training_mode(False)
    callback.on_rollout_start()
    obs, starts = model._last_obs, model._last_episode_starts
    for t in range(rollout.steps):
        with torch.no_grad():
            obs_t = torch.as_tensor(obs, dtype=torch.float32)
            masks_t = torch.as_tensor(_action_masks(env))
            logits, values = policy_outputs(policy, obs_t)
            log_probs = masked_log_probs(logits, masks_t)
            # Gumbel-max: argmax(log p + Gumbel noise) is a draw from p
            noise = -torch.empty_like(log_probs).exponential_().log()
            actions = (log_probs + noise).argmax(dim=1)
        new_obs, rewards, dones, infos = env.step(actions.numpy())
        model.num_timesteps += env.num_envs
        callback.update_locals(locals())
        if not callback.on_step():
            return False
        model._update_info_buffer(infos, dones)
        rewards = torch.as_tensor(rewards, dtype=torch.float32)
        for b in np.flatnonzero(dones).tolist():
            info = infos[b]
            if info.get("terminal_observation") is not None and info.get("TimeLimit.truncated", False):
                with torch.no_grad():
                    final = torch.as_tensor(info["terminal_observation"], dtype=torch.float32)[None]
                    rewards[b] += model.gamma * float(policy_outputs(policy, final)[1][0])
        rollout.obs[t] = obs_t
        rollout.masks[t] = masks_t
        rollout.actions[t] = actions
        rollout.log_probs[t] = log_probs.gather(1, actions[:, None])[:, 0]
        rollout.values[t] = values
        rollout.rewards[t] = rewards
        rollout.episode_starts[t] = torch.as_tensor(starts, dtype=torch.float32)
        obs, starts = new_obs, dones
    with torch.no_grad():
        last_values = policy_outputs(policy, torch.as_tensor(obs, dtype=torch.float32))[1]
    rollout.compute_returns(last_values, torch.as_tensor(starts, dtype=torch.float32), model.gamma,
                            model.gae_lambda)
    model._last_obs, model._last_episode_starts = obs, starts
    callback.update_locals(locals())
    callback.on_rollout_end()
    return True


def update(model, rollout):
    """``n_epochs`` passes of clipped-PPO minibatches over ``rollout`` (MaskablePPO's ``train``)."""
    policy = model.policy
    policy.set_training_mode(True)
    model._update_learning_rate(policy.optimizer)
    clip_range = model.clip_range(model._current_progress_remaining)
    n = rollout.steps * rollout.envs
    obs = rollout.obs.view(n, -1)
    masks = rollout.masks.view(n, -1)
    actions, old_log_probs = rollout.actions.view(n), rollout.log_probs.view(n)
    advantages_all, returns = rollout.advantages.view(n), rollout.returns.view(n)
    stats = {"entropy_loss": [], "policy_gradient_loss": [], "value_loss": [], "clip_fraction": []}
    approx_kls, loss, stop = [], None, False
    for _ in range(model.n_epochs):
        approx_kls = []
        order = torch.randperm(n)
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
                approx_kl = float(((ratio - 1) - log_ratio).mean())
            approx_kls.append(approx_kl)
            stats["policy_gradient_loss"].append(policy_loss.item())
            stats["value_loss"].append(value_loss.item())
            stats["entropy_loss"].append(entropy_loss.item())
            stats["clip_fraction"].append(float(((ratio - 1).abs() > clip_range).float().mean()))
            if model.target_kl is not None and approx_kl > 1.5 * model.target_kl:
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
            log.record(f"train/{name}", float(np.mean(values)))
    if approx_kls:
        log.record("train/approx_kl", float(np.mean(approx_kls)))
    if loss is not None:
        log.record("train/loss", loss.item())
    log.record("train/explained_variance", _explained_variance(rollout.values.view(n), returns))
    log.record("train/n_updates", model._n_updates, exclude="tensorboard")
    log.record("train/clip_range", clip_range)


def learn(model, total_timesteps, callback=None, tb_log_name="selfplay", reset_num_timesteps=True):
    """Train ``model`` (a ``MaskablePPO`` whose env is a ``VecEnv`` with
    ``action_masks()``) for ``total_timesteps`` more decisions, as
    ``model.learn`` would; returns the model."""
    total, callback = model._setup_learn(total_timesteps, callback, reset_num_timesteps, tb_log_name,
                                         progress_bar=False)
    env = model.env
    rollout = Rollout(model.n_steps, env.num_envs, int(np.prod(env.observation_space.shape)),
                      int(env.action_space.n))
    callback.on_training_start(locals(), globals())
    iteration = 0
    while model.num_timesteps < total:
        if not collect(model, rollout, callback):
            break
        iteration += 1
        model._update_current_progress_remaining(model.num_timesteps, total)
        seconds = max(time.time_ns() - model.start_time, 1) / 1e9
        model.logger.record("time/iterations", iteration, exclude="tensorboard")
        model.logger.record("time/fps", int((model.num_timesteps - model._num_timesteps_at_start) / seconds))
        model.logger.record("time/total_timesteps", model.num_timesteps, exclude="tensorboard")
        update(model, rollout)
        model.logger.dump(step=model.num_timesteps)
    callback.on_training_end()
    return model
