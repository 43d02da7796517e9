"""Race to Ten: the smallest game that exercises the whole Game contract.

It lets the generic adapters be tested without any real rules core.

2-4 players take turns adding 1, 2 or 3 to a shared counter (actions 0, 1, 2);
the counter may not pass 10. After each move a die is rolled (counter-based
RNG): a 6 adds a bonus 1 unless the counter is already at 10. Whoever brings
the counter to exactly 10 wins (+1; the others share -1). After
``max_turns`` moves without a winner the game is truncated, a draw.
Each seat also holds a secret digit 0..9 dealt at the start, seen only by its
owner: hidden information for the observation tests.

Observation (from seat p, seats rotated so p is 0), 3 + 4 floats:
    [0] counter / 10   [1] own secret / 9   [2] last die / 6
    [3 + k] 1 if seat (p + k) % n is to play
Pure Python and numpy (no numba), so it adds nothing to the JIT cache.
"""
from dataclasses import dataclass, field

import numpy as np

from dragongym.envs.core.game import STATUS_RUNNING, STATUS_TERMINATED, STATUS_TRUNCATED, Game
from dragongym.envs.core.picture import PALETTE, Scene
from dragongym.envs.core.rng import draw_below
from dragongym.envs.core.spec import ActionBlock, GameSpec, ObsBlock, player_names

MAX_PLAYERS = 4
TARGET = 10
NUM_ACTIONS = 3
OBS_SIZE = 3 + MAX_PLAYERS

E_OUT_OF_RANGE, E_PASSES_TARGET, E_GAME_OVER = 1, 2, 3
_ERRORS = {E_OUT_OF_RANGE: "no such action",
           E_PASSES_TARGET: "the counter may not pass 10",
           E_GAME_OVER: "the game is over"}

DTYPE = np.dtype([
    ("seed", np.uint64),
    ("rng_counter", np.uint64),
    ("rewards", np.float32, (MAX_PLAYERS,)),
    ("score", np.float32, (MAX_PLAYERS,)),
    ("turns", np.int32),              # moves made so far
    ("max_turns", np.int32),          # config: truncate after this many moves
    ("secret", np.int8, (MAX_PLAYERS,)),  # seat -> secret digit; -1 for empty seats
    ("counter", np.int8),
    ("last_roll", np.int8),           # 1..6, 0 before the first roll
    ("num_players", np.int8),
    ("to_play", np.int8),
    ("status", np.int8),
    ("error", np.int8),
    ("rank", np.int8, (MAX_PLAYERS,)),
])
assert sum(DTYPE.fields[n][0].itemsize for n in DTYPE.names) == DTYPE.itemsize


@dataclass(frozen=True)
class RaceConfig:
    """Options of Race to Ten.

    Attributes:
        num_players: seats, 2..4.
        max_turns: moves after which the game is truncated as a draw.
    """

    num_players: int = field(default=2, metadata={"range": (2, MAX_PLAYERS)})
    max_turns: int = field(default=100, metadata={"range": (1, 10_000)})


class RaceToTen(Game):
    name = "race"
    dtype = DTYPE
    config_cls = RaceConfig
    obs_bounds = (0.0, 1.0)
    truncation_option = "max_turns"

    def spec_for(self, config):
        return GameSpec(
            name="race", version=1, roles=player_names(config.num_players),
            num_actions=NUM_ACTIONS, obs_size=OBS_SIZE,
            obs_layout={"counter": ObsBlock(0, (1,)), "secret": ObsBlock(1, (1,)),
                        "last_roll": ObsBlock(2, (1,)), "to_play": ObsBlock(3, (MAX_PLAYERS,))},
            action_layout={"add": ActionBlock(0, NUM_ACTIONS)}, max_decisions=config.max_turns,
            turn_limit=config.max_turns, turn_unit="moves", chance=True, hidden_information=True,
            utility="zero_sum", config=config)

    def turns_played(self, state):
        return int(state[0]["turns"])

    def test_configs(self):
        return [{"num_players": n} for n in range(2, MAX_PLAYERS + 1)]

    def hidden_variants(self, state, seat, rng, count=4):
        """The others' secret digits and the RNG stream are unknown to ``seat``."""
        out = []
        for v in Game.hidden_variants(self, state, seat, rng, count):
            n = int(v["num_players"][0])
            for p in range(n):
                if p != seat:
                    v["secret"][0, p] = int(rng.integers(10))
            out.append(v)
        return out

    def reset(self, states, seeds, config):
        for b in range(len(states)):
            rec = states[b]
            rec["seed"] = seeds[b]
            rec["rng_counter"] = 0
            rec["rewards"] = 0
            rec["score"] = 0
            rec["rank"] = 0
            rec["turns"] = 0
            rec["max_turns"] = config.max_turns
            rec["counter"] = 0
            rec["last_roll"] = 0
            rec["num_players"] = config.num_players
            rec["to_play"] = 0
            rec["status"] = STATUS_RUNNING
            rec["error"] = 0
            for p in range(MAX_PLAYERS):
                rec["secret"][p] = self._draw(states, b, 10) if p < config.num_players else -1

    @staticmethod
    def _draw(states, b, n):
        value = draw_below(states[b]["seed"], states[b]["rng_counter"], n)
        states[b]["rng_counter"] += np.uint64(1)
        return value

    def step(self, states, actions, errors, parallel=False):
        for b in range(len(states)):
            a = int(actions[b])
            if a < 0:
                continue
            rec = states[b]
            counter = int(rec["counter"])
            if int(rec["status"]) != STATUS_RUNNING:
                code = E_GAME_OVER
            elif a >= NUM_ACTIONS:
                code = E_OUT_OF_RANGE
            elif counter + a + 1 > TARGET:
                code = E_PASSES_TARGET
            else:
                code = 0
            errors[b] = code
            if code:
                continue            # a refused action leaves the record as it was
            rec["error"] = 0
            counter += a + 1
            roll = self._draw(states, b, 6) + 1
            if roll == 6 and counter < TARGET:
                counter += 1
            rec["counter"] = counter
            rec["last_roll"] = roll
            rec["turns"] += 1
            n = int(rec["num_players"])
            mover = int(rec["to_play"])
            if counter == TARGET:
                rec["rewards"][:n] = -1.0 / (n - 1)
                rec["rewards"][mover] = 1.0
                rec["rank"][:n] = 2
                rec["rank"][mover] = 1
                rec["status"] = STATUS_TERMINATED
                rec["to_play"] = -1
            elif int(rec["turns"]) >= int(rec["max_turns"]):
                rec["rank"][:n] = 1
                rec["status"] = STATUS_TRUNCATED
                rec["to_play"] = -1
            else:
                rec["to_play"] = (mover + 1) % n

    def legal_mask(self, states, masks):
        masks[:] = 0
        for b in range(len(states)):
            if int(states[b]["status"]) != STATUS_RUNNING:
                continue
            for a in range(NUM_ACTIONS):
                if int(states[b]["counter"]) + a + 1 <= TARGET:
                    masks[b, a] = 1

    def observe(self, states, players, obs, parallel=False):
        obs[:] = 0
        for b in range(len(states)):
            rec = states[b]
            p, n = int(players[b]), int(rec["num_players"])
            obs[b, 0] = int(rec["counter"]) / TARGET
            obs[b, 1] = int(rec["secret"][p]) / 9
            obs[b, 2] = int(rec["last_roll"]) / 6
            if int(rec["status"]) == STATUS_RUNNING:
                obs[b, 3 + (int(rec["to_play"]) - p) % n] = 1.0

    def error_message(self, code):
        return _ERRORS.get(int(code), f"error {code}")

    def action_to_string(self, state, action):
        return f"add {int(action) + 1}"

    # Pictures: a track of eleven squares 0..10 with the counter on it, one
    # clickable square per legal move, and a panel with each seat's secret as
    # the observer may know it (the shared picture layer's smallest client).
    def picture_board(self, state):
        scene = Scene(PICTURE_SIZE[0], PICTURE_SIZE[1], background=PALETTE["paper"])
        for square in range(TARGET + 1):
            x0, y0, x1, y1 = _square_box(square)
            scene.rect(x0, y0, x1, y1, fill="#e8e0c8", outline=PALETTE["ink"])
            scene.text((x0 + x1) / 2, y1 + 12, str(square), size=12)
        return scene

    def picture_position(self, state, seat):
        rec = state[0]
        n, counter = int(rec["num_players"]), int(rec["counter"])
        scene = Scene(*PICTURE_SIZE)
        x0, y0, x1, y1 = _square_box(counter)
        scene.circle((x0 + x1) / 2, (y0 + y1) / 2, 14, fill=PALETTE["highlight"], outline=PALETTE["ink"])
        running = int(rec["status"]) == STATUS_RUNNING
        if running and (seat is None or seat == int(rec["to_play"])):
            mask = self.mask_of(state)
            for a in np.flatnonzero(mask):
                bx0, by0, bx1, by1 = _square_box(counter + int(a) + 1)
                scene.rect(bx0 + 3, by0 + 3, bx1 - 3, by1 - 3, outline=PALETTE["select"], width=3,
                           actions=(int(a),), title=self.action_to_string(state, int(a)))
        for p in range(n):
            known = seat is None or seat == p
            secret = str(int(rec["secret"][p])) if known else "?"
            mark = " <- to play" if running and p == int(rec["to_play"]) else ""
            scene.text(20, 110 + 20 * p, f"player_{p}: secret {secret}{mark}", size=14,
                       color=PALETTE["seats"][p], anchor="lm")
        scene.text(20, 196, f"last die {int(rec['last_roll'])}, move {int(rec['turns'])}", size=14, anchor="lm")
        return scene

    def render_ansi(self, state, seat=None):
        rec = state[0]
        status = {STATUS_RUNNING: f"seat {int(rec['to_play'])} to play",
                  STATUS_TERMINATED: "won", STATUS_TRUNCATED: "truncated"}[int(rec["status"])]
        return f"counter {int(rec['counter'])}/{TARGET}, last die {int(rec['last_roll'])}, {status}\n"


PICTURE_SIZE = (592, 208)
"""Width and height of Race to Ten's picture (multiples of 16, for videos)."""


def _square_box(square):
    """Pixel box of track square ``square`` (0..10)."""
    return 20 + 50 * square, 30, 62 + 50 * square, 72


GAME = RaceToTen()
