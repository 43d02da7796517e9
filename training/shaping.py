"""Potential-based reward shaping for self-play, from the game's own potential.

A game names its potential in ``Game.shaping_potential``: a ``"module:function"``
string for ``phi(state, seat) -> float``, a score of ``seat``'s position in the
1-record ``state`` read from public facts only (the reward may use what the
policy does not see, but these potentials read only public facts). It is
imported on first use, so naming it costs nothing. The shaped reward of a step
is ``coef * (gamma * phi(next) - phi(prev))`` with ``phi = 0`` once the game is
over, added to the learner's reward. Shaping of this form leaves the optimal
policy unchanged (Ng, Harada & Russell, 1999) while giving the learner a
signal long before the game's end; evaluations use outcomes only.
"""
import importlib

import numpy as np


def zero_potential(state, seat):
    """The potential of a game that declares none: 0 everywhere (no shaping)."""
    return 0.0


def resolve(target):
    """The object a ``"module:attribute"`` string names (imported now)."""
    module_name, sep, attribute = str(target).partition(":")
    if not sep or not module_name or not attribute:
        raise ValueError(f"{target!r} is not a 'module:function' name")
    return getattr(importlib.import_module(module_name), attribute)


def potential_for(game):
    """``phi(state, seat)`` of ``game`` (a :class:`dragongym.envs.core.game.Game`):
    the function its ``shaping_potential`` names, or :func:`zero_potential`."""
    target = getattr(game, "shaping_potential", None)
    if not target:
        return zero_potential
    potential = resolve(target)
    if not callable(potential):
        raise TypeError(f"{game.name}: shaping_potential {target!r} is not callable")
    return potential


def batch_potential_for(game):
    """``phi(states, seats) -> float64[B]`` of ``game``: the function its
    ``shaping_potential_batch`` names, else :func:`potential_for`'s applied
    record by record."""
    target = getattr(game, "shaping_potential_batch", None)
    if target:
        potential = resolve(target)
        if not callable(potential):
            raise TypeError(f"{game.name}: shaping_potential_batch {target!r} is not callable")
        return potential
    one = potential_for(game)

    def record_by_record(states, seats):
        return np.array([one(states[b:b + 1], int(s)) for b, s in enumerate(np.asarray(seats).tolist())],
                        dtype=np.float64)
    return record_by_record


def shaped_reward(reward, phi_prev, phi_next, gamma, coef, done):
    """The learner's reward plus ``coef * (gamma * phi_next - phi_prev)``; ``phi_next`` counts 0 when done."""
    return float(reward) + coef * (gamma * (0.0 if done else phi_next) - phi_prev)
