"""Potential-based reward shaping for self-play, one potential per game.

A potential ``phi(obs)`` scores the learner's position from its own
observation (public information only). The shaped reward of a step is
``coef * (gamma * phi(next) - phi(prev))`` with ``phi = 0`` once the game is
over, added to the game's reward. Shaping of this form leaves the optimal
policy unchanged (Ng, Harada & Russell, 1999) while giving the learner a
signal long before the first slaying; evaluations use the game's reward only.
"""
import numpy as np

import envs


def dragonhunt_potential(obs):
    """Dragon wound markers (9.82): mine minus the most any other seat holds.

    A wound marker is progress towards the slaying (each helps the slaying
    battle), so holding more than anyone else is the nearest thing to a lead.
    """
    off, shape = envs.get_game("dragonhunt").spec.obs_layout["wounds"]
    wounds = obs[off:off + shape[0]] * 3.0          # relative seats, 0 = me
    return float(wounds[0] - wounds[1:].max())


POTENTIALS = {"dragonhunt": dragonhunt_potential}
"""game id -> potential over the learner's observation."""


def potential_for(game_name):
    """The game's potential, or a zero potential for games without one."""
    return POTENTIALS.get(game_name, lambda obs: 0.0)


def shaped_reward(reward, phi_prev, phi_next, gamma, coef, done):
    """The game's reward plus ``coef * (gamma * phi_next - phi_prev)``; ``phi_next`` counts 0 when done."""
    return float(reward) + coef * (gamma * (0.0 if done else phi_next) - phi_prev)


__all__ = ["POTENTIALS", "dragonhunt_potential", "potential_for", "shaped_reward", "np"]
