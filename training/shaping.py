"""Potential-based reward shaping for self-play, one potential per game.

A potential ``phi(state, seat)`` scores the learner's position from the
public part of the game state (read through the game's documented view; the
reward may use what the policy does not see, but these potentials read only
public facts). The shaped reward of a step is
``coef * (gamma * phi(next) - phi(prev))`` with ``phi = 0`` once the game is
over, added to the game's reward. Shaping of this form leaves the optimal
policy unchanged (Ng, Harada & Russell, 1999) while giving the learner a
signal long before the first slaying; evaluations use the game's reward only.
"""

def dragonhunt_potential(state, seat):
    """The heuristic bot's position score (``dragongym.agents.dragonhunt_heuristic.seat_score``:
    wound markers x3, the magesword in a hero's hand +2 or appeared +1, the
    wielder's distance to Brimstone, strength on the board, Brimstone next to
    home) of ``seat``, minus the best score among the other seats."""
    from dragongym.agents.dragonhunt_heuristic import seat_score
    from dragongym.envs.dragonhunt import view as V
    n = V.num_players(state)
    others = [seat_score(state, q) for q in range(n) if q != seat]
    return float(seat_score(state, seat) - max(others))


POTENTIALS = {"dragonhunt": dragonhunt_potential}
"""game id -> potential ``phi(state, seat)`` of a 1-record state."""


def potential_for(game_name):
    """The game's potential, or a zero potential for games without one."""
    return POTENTIALS.get(game_name, lambda state, seat: 0.0)


def shaped_reward(reward, phi_prev, phi_next, gamma, coef, done):
    """The game's reward plus ``coef * (gamma * phi_next - phi_prev)``; ``phi_next`` counts 0 when done."""
    return float(reward) + coef * (gamma * (0.0 if done else phi_next) - phi_prev)


