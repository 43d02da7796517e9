"""Two more toy games beside Race to Ten (``toygame.py``), so the adapters,
matches, tournaments, ratings, league and trainers meet solo and ranked play
before a real game needs them. Pure Python and numpy, like Race to Ten.

**Dive** (1 seat, utility ``solo``): a diver makes up to ``max_turns`` dives.
Action 0 dives: a die is rolled; 1 loses everything carried so far, 2..6 add
that many pearls to the bag. Action 1 surfaces: the bag is banked into the
score. The game ends when the diver has banked ``target`` pearls (a win,
rank 1) or has made ``max_turns`` decisions (truncated: rank 1 if the target
was reached, else rank 2, a loss). Score = pearls banked.
Observation: [bag / 20, banked / target, turns left / max_turns, last die / 6].

**Gather** (3 seats, utility ``general_sum``): a pile of ``pile`` stones; seats
take 1, 2 or 3 stones in turn (actions 0..2, never more than are left). A seat
taking the last stone gets a bonus of 2. When the pile is empty the scores
(stones + bonus) rank the seats, equal scores sharing a rank. Each seat's
reward is its own score / 10 (general sum). Each seat holds a secret favourite
number 0..2 (hidden information; it changes nothing in the rules).
Observation from seat p (rotated): [pile / 20, own secret / 2, scores of
seats p, p+1, p+2 / 20, to-play one-hot (3)].
"""
from dataclasses import dataclass, field

import numpy as np

from dragongym.envs.core.game import STATUS_RUNNING, STATUS_TERMINATED, STATUS_TRUNCATED, Game
from dragongym.envs.core.outcome import ranks_from_scores
from dragongym.envs.core.rng import draw_below
from dragongym.envs.core.spec import ActionBlock, GameSpec, ObsBlock, player_names

E_OUT_OF_RANGE, E_ILLEGAL, E_GAME_OVER = 1, 2, 3
_ERRORS = {E_OUT_OF_RANGE: "no such action", E_ILLEGAL: "not legal here", E_GAME_OVER: "the game is over"}


def _common_fields(max_seats):
    return [("seed", np.uint64), ("rng_counter", np.uint64),
            ("rewards", np.float32, (max_seats,)), ("score", np.float32, (max_seats,))]


def refusal(rec, a, num_actions, legal):
    """The error code that refuses action ``a`` (``>= 0``) in ``rec``, or 0 where
    ``legal(rec, a)`` allows it; a refused action leaves the record as it was."""
    if int(rec["status"]) != STATUS_RUNNING:
        return E_GAME_OVER
    if a >= num_actions:
        return E_OUT_OF_RANGE
    return 0 if legal(rec, a) else E_ILLEGAL


def _draw(states, b, n):
    value = draw_below(states[b]["seed"], states[b]["rng_counter"], n)
    states[b]["rng_counter"] += np.uint64(1)
    return int(value)


# ------------------------------------------------------------------ Dive

DIVE_DTYPE = np.dtype(_common_fields(1) + [
    ("turns", np.int32), ("max_turns", np.int32), ("target", np.int32), ("bag", np.int32),
    ("banked", np.int32),
    ("last_roll", np.int8), ("num_players", np.int8), ("to_play", np.int8), ("status", np.int8),
    ("rank", np.int8, (1,)),
])


@dataclass(frozen=True)
class DiveConfig:
    """Options of Dive: ``target`` pearls to bank, ``max_turns`` decisions."""

    target: int = field(default=20, metadata={"range": (1, 1000)})
    max_turns: int = field(default=40, metadata={"range": (1, 10_000)})


class Dive(Game):
    name = "dive"
    dtype = DIVE_DTYPE
    config_cls = DiveConfig
    obs_bounds = (0.0, 50.0)
    truncation_option = "max_turns"
    # the score is the pearls banked: under the largest target (1000) before the
    # last bank, plus a bag of at most 6 a turn over the longest game (10,000)
    float_ranges = {"rewards": (-1.0, 1.0), "score": (0.0, 999.0 + 6 * 10_000)}

    def spec_for(self, config):
        return GameSpec(
            name="dive", version=1, roles=("diver",), seats_are_roles=True, num_actions=2,
            obs_size=4, obs_layout={"bag": ObsBlock(0, (1,)), "banked": ObsBlock(1, (1,)),
                                    "turns_left": ObsBlock(2, (1,)), "last_roll": ObsBlock(3, (1,))},
            action_layout={"dive": ActionBlock(0, 1), "surface": ActionBlock(1, 1)},
            max_decisions=config.max_turns, turn_limit=config.max_turns, turn_unit="decisions",
            chance=True, hidden_information=False, utility="solo", score_name="pearls",
            config=config)

    def test_configs(self):
        return [{}, {"target": 8, "max_turns": 12}]

    def reset(self, states, seeds, config):
        for b in range(len(states)):
            rec = states[b]
            rec["seed"] = seeds[b]
            rec["max_turns"], rec["target"] = config.max_turns, config.target
            rec["num_players"], rec["to_play"], rec["status"] = 1, 0, STATUS_RUNNING

    def _legal(self, rec, a):
        return a == 0 or int(rec["bag"]) > 0

    def step(self, states, actions, errors, parallel=False):
        for b in range(len(states)):
            a = int(actions[b])
            if a < 0:
                continue
            rec = states[b]
            errors[b] = refusal(rec, a, 2, self._legal)
            if errors[b]:
                continue
            if a == 0:
                roll = _draw(states, b, 6) + 1
                rec["last_roll"] = roll
                rec["bag"] = 0 if roll == 1 else int(rec["bag"]) + roll
            else:
                rec["banked"] += rec["bag"]
                rec["bag"] = 0
            rec["turns"] += 1
            won = int(rec["banked"]) >= int(rec["target"])
            if won or int(rec["turns"]) >= int(rec["max_turns"]):
                rec["status"] = STATUS_TERMINATED if won else STATUS_TRUNCATED
                rec["to_play"] = -1
                rec["rank"][0] = 1 if won else 2
                rec["score"][0] = float(rec["banked"])
                rec["rewards"][0] = 1.0 if won else -1.0

    def legal_mask(self, states, masks):
        masks[:] = 0
        for b in range(len(states)):
            if int(states[b]["status"]) == STATUS_RUNNING:
                for a in range(2):
                    masks[b, a] = self._legal(states[b], a)

    def observe(self, states, players, obs, parallel=False):
        for b in range(len(states)):
            rec = states[b]
            obs[b] = (int(rec["bag"]) / 20, int(rec["banked"]) / int(rec["target"]),
                      (int(rec["max_turns"]) - int(rec["turns"])) / int(rec["max_turns"]),
                      int(rec["last_roll"]) / 6)

    def error_message(self, code):
        return _ERRORS.get(int(code), f"error {code}")

    def action_to_string(self, state, action):
        return {0: "dive", 1: "surface"}.get(int(action), f"action {int(action)} (means nothing here)")

    def render_ansi(self, state, seat=None):
        rec = state[0]
        return (f"bag {int(rec['bag'])}, banked {int(rec['banked'])}/{int(rec['target'])}, "
                f"turn {int(rec['turns'])}/{int(rec['max_turns'])}\n")


DIVE = Dive()


# ------------------------------------------------------------------ Gather

GATHER_SEATS = 3
GATHER_DTYPE = np.dtype(_common_fields(GATHER_SEATS) + [
    ("stones", np.int32, (GATHER_SEATS,)), ("bonus", np.int32, (GATHER_SEATS,)),
    ("pile", np.int32),
    ("secret", np.int8, (GATHER_SEATS,)),
    ("num_players", np.int8), ("to_play", np.int8), ("status", np.int8),
    ("rank", np.int8, (GATHER_SEATS,)),
])


@dataclass(frozen=True)
class GatherConfig:
    """Options of Gather: the stones in the pile at the start."""

    pile: int = field(default=13, metadata={"range": (1, 60)})


class Gather(Game):
    name = "gather"
    dtype = GATHER_DTYPE
    config_cls = GatherConfig
    # a seat's score is its stones (the largest pile, 60) and the bonus of 2;
    # its reward that score / 10
    float_ranges = {"rewards": (0.0, 6.2), "score": (0.0, 62.0)}
    obs_bounds = (0.0, 5.0)

    def spec_for(self, config):
        return GameSpec(
            name="gather", version=1, roles=player_names(GATHER_SEATS), num_actions=3, obs_size=8,
            obs_layout={"pile": ObsBlock(0, (1,)), "secret": ObsBlock(1, (1,)),
                        "scores": ObsBlock(2, (GATHER_SEATS,)), "to_play": ObsBlock(5, (GATHER_SEATS,))},
            action_layout={"take": ActionBlock(0, 3)}, max_decisions=config.pile,
            chance=False, hidden_information=True, utility="general_sum", score_name="stones",
            config=config)

    def test_configs(self):
        return [{}, {"pile": 4}]

    def reset(self, states, seeds, config):
        for b in range(len(states)):
            rec = states[b]
            rec["seed"] = seeds[b]
            rec["pile"] = config.pile
            rec["num_players"], rec["to_play"], rec["status"] = GATHER_SEATS, 0, STATUS_RUNNING
            for p in range(GATHER_SEATS):
                rec["secret"][p] = _draw(states, b, 3)

    def step(self, states, actions, errors, parallel=False):
        for b in range(len(states)):
            a = int(actions[b])
            if a < 0:
                continue
            rec = states[b]
            errors[b] = refusal(rec, a, 3, lambda rec, a: a + 1 <= int(rec["pile"]))
            if errors[b]:
                continue
            p = int(rec["to_play"])
            rec["pile"] -= a + 1
            rec["stones"][p] += a + 1
            if int(rec["pile"]) == 0:
                rec["bonus"][p] = 2
                scores = [int(rec["stones"][q]) + int(rec["bonus"][q]) for q in range(GATHER_SEATS)]
                rec["rank"][:] = ranks_from_scores(scores)
                rec["score"][:] = scores
                rec["rewards"][:] = np.asarray(scores, dtype=np.float32) / 10
                rec["status"] = STATUS_TERMINATED
                rec["to_play"] = -1
            else:
                rec["to_play"] = (p + 1) % GATHER_SEATS

    def legal_mask(self, states, masks):
        masks[:] = 0
        for b in range(len(states)):
            if int(states[b]["status"]) == STATUS_RUNNING:
                masks[b, :min(3, int(states[b]["pile"]))] = 1

    def observe(self, states, players, obs, parallel=False):
        obs[:] = 0
        for b in range(len(states)):
            rec, p = states[b], int(players[b])
            obs[b, 0] = int(rec["pile"]) / 20
            obs[b, 1] = int(rec["secret"][p]) / 2
            for k in range(GATHER_SEATS):
                q = (p + k) % GATHER_SEATS
                obs[b, 2 + k] = (int(rec["stones"][q]) + int(rec["bonus"][q])) / 20
            if int(rec["status"]) == STATUS_RUNNING:
                obs[b, 5 + (int(rec["to_play"]) - p) % GATHER_SEATS] = 1.0

    def hidden_variants(self, state, seat, rng, count=4):
        """The others' secret favourites are unknown to ``seat``."""
        out = []
        for _ in range(count):
            v = state.copy()
            for q in range(GATHER_SEATS):
                if q != seat:
                    v["secret"][0, q] = int(rng.integers(3))
            out.append(v)
        return out

    def error_message(self, code):
        return _ERRORS.get(int(code), f"error {code}")

    def action_to_string(self, state, action):
        a = int(action)
        return f"take {a + 1}" if 0 <= a < 3 else f"action {a} (means nothing here)"

    def render_ansi(self, state, seat=None):
        rec = state[0]
        return (f"pile {int(rec['pile'])}, stones {list(int(x) for x in rec['stones'])}, "
                f"to play {int(rec['to_play'])}\n")


GATHER = Gather()
