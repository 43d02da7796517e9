"""Imitation warm start: behaviour cloning of a bot before self-play.

Optional (``dragongym.training.selfplay --imitate-decisions N``; 0, the default, trains
from scratch). A teacher (e.g. the game's heuristic) plays games against
itself; every decision of every seat is recorded as (observation of the seat
to move, legal mask, action), and the policy is trained to put its masked
probability on the teacher's action (cross-entropy over legal actions only).
"""
import numpy as np
import torch

import dragongym
from dragongym.agents.base import make_agent


def collect_demonstrations(game_name, teacher, num_decisions, seed=0, **options):
    """``(obs float32[N, O], masks bool[N, A], actions int64[N])`` of a teacher's self-play.

    Args:
        game_name: registered game id.
        teacher: agent id that plays every seat (e.g. the game's ``heuristic_agent``).
        num_decisions: decisions to record (whole games are played until then).
        seed: seed of the games and of the teacher's generators.
        **options: the game's options (``num_players=...`` where it has it);
            the seats and sizes come from the spec of that configuration.
    """
    game = dragongym.get_game(game_name)
    config = game.make_config(**options)
    spec = game.spec_for(config)
    agent = make_agent(teacher, game=game)
    obs = np.zeros((num_decisions, spec.obs_size), dtype=np.float32)
    masks = np.zeros((num_decisions, spec.num_actions), dtype=bool)
    actions = np.zeros(num_decisions, dtype=np.int64)
    state = game.new_states(1)
    act = np.zeros(1, dtype=np.int64)
    err = np.zeros(1, dtype=np.int8)
    n, g = 0, 0
    while n < num_decisions:
        game.reset(state, np.array([seed * 100_003 + g], dtype=np.uint64), config)
        agent.reset()
        rng = np.random.default_rng([seed, g])
        while int(state[0]["status"]) == 0 and n < num_decisions:
            p = int(state[0]["to_play"])
            game.observe(state, np.array([p], dtype=np.int8), obs[n:n + 1])
            mask = np.zeros((1, spec.num_actions), dtype=np.int8)
            game.legal_mask(state, mask)
            masks[n] = mask[0] != 0
            a = (agent.act_state(game, state, p, rng) if agent.uses_state
                 else agent.act(obs[n], masks[n], rng))
            actions[n] = a
            act[0] = a
            game.step(state, act, err)
            if err[0]:
                raise RuntimeError(f"teacher {teacher} played illegal action {a}: {game.error_message(err[0])}")
            n += 1
        g += 1
    return obs, masks, actions


def behaviour_clone(policy, obs, masks, actions, epochs=3, batch_size=512, lr=1e-3, seed=0, log=None):
    """Train ``policy`` (a ``MaskableActorCriticPolicy``) to imitate ``actions``.

    Returns the list of per-epoch ``(mean loss, greedy accuracy on a fixed sample)``; ``log(epoch, loss, acc)``
    is called after each epoch.
    """
    opt = torch.optim.Adam(policy.parameters(), lr=lr)
    rng = np.random.default_rng(seed)
    history = []
    device = policy.device                           # the demonstrations go where the network is (a GPU under auto)
    policy.train()
    for epoch in range(epochs):
        order = rng.permutation(len(actions))
        total, correct, count = 0.0, 0, 0
        for start in range(0, len(order), batch_size):
            idx = order[start:start + batch_size]
            obs_t = torch.as_tensor(obs[idx], device=device)
            act_t = torch.as_tensor(actions[idx], device=device)
            _, log_prob, _ = policy.evaluate_actions(obs_t, act_t, action_masks=masks[idx])
            loss = -log_prob.mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item() * len(idx)
            count += len(idx)
        with torch.no_grad():                        # accuracy on a fixed sample
            idx = np.arange(0, len(actions), max(1, len(actions) // 2048))
            dist = policy.get_distribution(torch.as_tensor(obs[idx], device=device), action_masks=masks[idx])
            correct = float((dist.distribution.probs.argmax(dim=1).cpu().numpy() == actions[idx]).mean())
        history.append((total / count, correct))
        if log is not None:
            log(epoch, *history[-1])
    return history
