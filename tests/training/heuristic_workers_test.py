"""The heuristic opponent in worker processes (training/batched.py,
``heuristic_workers``): the same seed plays the same games whether the bots
play in the trainer's process or in 1 or 3 workers, the workers answer legal
moves, a bot's error names its game row and seat, a dead worker is an error
and close() stops them."""
import numpy as np
import pytest
import torch

import dragongym
from dragongym.agents import Agent, register
from dragongym.agents.base import _FACTORIES as agent_registry
from dragongym.training.batched import BatchedLeagueEnv, Opponents
from tests.core.toygame import RaceToTen

torch.set_num_threads(1)

SHORT = {"num_players": 2, "max_hands": 1}
"""Two-seat Dragonhunt games of one hand: several episodes end in 60 steps."""


class FailingBot(Agent):
    """A heuristic with a bug: every move raises."""

    name = "tests.failing_bot"
    uses_state = True

    def __init__(self, game=None):
        pass

    def act_state(self, game, state, player, rng):
        raise ValueError(f"no idea what to play at counter {int(state[0]['counter'])}")


class CountingBot(Agent):
    """A heuristic whose moves depend on its memory of the game and on its
    generator: its n-th move since its last reset is legal move
    ``(n + a draw of 0 or 1) % (legal moves)``. A reset that did not reach
    it, or draws from another row's stream, change its games."""

    name = "tests.counting_bot"
    uses_state = True

    def __init__(self, game=None):
        self.moves = 0

    def reset(self):
        self.moves = 0

    def act_state(self, game, state, player, rng):
        legal = np.flatnonzero(game.mask_of(state))
        self.moves += 1
        return int(legal[(self.moves + int(rng.integers(2))) % len(legal)])


register(FailingBot.name, FailingBot)
register(CountingBot.name, CountingBot)


class RaceWithAFailingBot(RaceToTen):
    """Race to Ten whose heuristic is :class:`FailingBot`, its registry id the
    ``module:ATTRIBUTE`` string that names it (``dragongym.get_game``)."""

    name = f"{__name__}:RACE_WITH_A_FAILING_BOT"
    heuristic_agent = FailingBot.name


class RaceWithACountingBot(RaceToTen):
    """Race to Ten whose heuristic is :class:`CountingBot` (named as above)."""

    name = f"{__name__}:RACE_WITH_A_COUNTING_BOT"
    heuristic_agent = CountingBot.name


RACE_WITH_A_FAILING_BOT = RaceWithAFailingBot()
RACE_WITH_A_COUNTING_BOT = RaceWithACountingBot()


@pytest.fixture(autouse=True, scope="module")
def registered_for_this_module_only():
    """This module's games (registered when first named) and bots leave the
    registries after its tests."""
    yield
    for name in (RaceWithAFailingBot.name, RaceWithACountingBot.name):
        dragongym.envs._FACTORIES.pop(name, None)
        dragongym.envs._GAMES.pop(name, None)
    for agent_id in (FailingBot.name, CountingBot.name):
        agent_registry.pop(agent_id, None)

GAMES = {"dragonhunt": ("dragonhunt", SHORT),
         "counting race": (RaceWithACountingBot.name, {"num_players": 3})}
"""The games the heuristic plays in the determinism test: the real Dragonhunt
heuristic, and a bot whose every move shows whether its resets and its own
generator reached it (three seats: it plays two in each game)."""


def play_games(game_name, options, heuristic_workers, steps=60, seed=11, weights=None):
    """8 games against the heuristic alone (or the league ``weights``) for
    ``steps`` steps, the learner's moves drawn from a generator of ``seed``
    over the legal masks: the first observations, then ``(obs, rewards,
    dones, league ends)`` per step."""
    env = BatchedLeagueEnv(game_name, 8, options, weights=weights or {"heuristic": 1.0}, seed=seed,
                           heuristic_workers=heuristic_workers)
    rng = np.random.default_rng(seed)
    try:
        assert len(env.opponents.workers) == heuristic_workers
        played = [env.reset()]
        for _ in range(steps):
            actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in env.action_masks()])
            obs, rewards, dones, infos = env.step(actions)
            played.append((obs, rewards, dones, [info.get("league") for info in infos]))
        return played
    finally:
        env.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_the_same_seed_plays_the_same_games_in_the_trainers_process_and_in_workers(game):
    """Each game row's bot draws from its own generator and forgets its game
    at each new episode, wherever it plays: 0, 1 and 3 workers give the same
    games bit for bit, across episode ends."""
    in_process = play_games(*GAMES[game], 0)
    ends = sum(int(dones.sum()) for _, _, dones, _ in in_process[1:])
    assert ends >= 4                                   # the bots were reset between episodes
    for workers in (1, 3):
        played = play_games(*GAMES[game], workers)
        assert np.array_equal(played[0], in_process[0])
        for step, ((obs, rewards, dones, ended), want) in enumerate(zip(played[1:], in_process[1:])):
            assert np.array_equal(obs, want[0]), (workers, step)
            assert np.array_equal(rewards, want[1]), (workers, step)
            assert np.array_equal(dones, want[2]), (workers, step)
            assert ended == want[3], (workers, step)


def test_the_workers_play_while_the_trainer_answers_for_the_other_opponents():
    """Against a league of the heuristic and the random bot, the heuristic's
    workers are asked first and answer last, the random bot drawing in the
    trainer's process meanwhile (issue 30, round 2): the same games bit for
    bit as with the heuristic in the trainer's process."""
    weights = {"heuristic": 0.5, "random": 0.5}
    in_process = play_games("dragonhunt", SHORT, 0, steps=80, weights=weights)
    opponents = {end["opponent"] for _, _, _, ended in in_process[1:] for end in ended if end}
    assert opponents == {"heuristic", "random"}        # both played (and finished) games
    played = play_games("dragonhunt", SHORT, 2, steps=80, weights=weights)
    assert np.array_equal(played[0], in_process[0])
    for step, (got, want) in enumerate(zip(played[1:], in_process[1:])):
        for a, b in zip(got[:3], want[:3]):
            assert np.array_equal(a, b), step
        assert got[3] == want[3], step


def test_every_action_the_workers_return_is_legal():
    """The heuristic plays every seat of 8 games through 3 workers."""
    game = dragongym.get_game("dragonhunt")
    venv = dragongym.make_vec("dragonhunt", 8, seed=5, **SHORT)
    venv.reset()
    opponents = Opponents(game, None, 5, heuristic_workers=3)
    rows = np.arange(8)
    try:
        for _ in range(150):
            actions = opponents.act("heuristic", venv, rows)
            assert actions.dtype == np.int64 and actions.shape == (8,)
            assert np.all(venv.masks[rows, actions] != 0)
            *_, info = venv.step(actions)
            if "done_index" in info:
                opponents.new_episodes(info["done_index"])
        # a subset of the rows: each comes back in its place
        some = np.array([6, 1, 4])
        actions = opponents.act("heuristic", venv, some)
        assert np.all(venv.masks[some, actions] != 0)
    finally:
        opponents.close()


def test_a_bot_that_raises_in_its_worker_names_the_game_row_the_seat_and_its_error():
    """The failing bot is an agent registered in this module, played as the
    heuristic of a Race to Ten whose ``heuristic_agent`` names it, the game's
    registry id being the ``"module:ATTRIBUTE"`` string of this module's
    instance. A worker finds both whichever way it starts: forked, it has this
    process's registries; spawned, its ``dragongym.get_game(game.name)``
    imports this module, which registers the bot again. (A monkeypatched bot
    would reach forked workers only.)"""
    game = dragongym.get_game(RACE_WITH_A_FAILING_BOT.name)
    venv = dragongym.make_vec(game.name, 4, seed=0, num_players=2)
    venv.reset()
    opponents = Opponents(game, None, 0, heuristic_workers=2)
    try:
        seat = int(venv.to_play[3])
        with pytest.raises(RuntimeError, match=rf"(?s)game row 3 \(seat {seat}\).*"
                                               r"ValueError: no idea what to play at counter 0"):
            opponents.act("heuristic", venv, np.array([3]))
        # the worker lives on, and answers the next request (not a stale reply)
        with pytest.raises(RuntimeError, match="game row 0 "):
            opponents.act("heuristic", venv, np.arange(4))
        assert all(process.is_alive() for process in opponents.workers)
    finally:
        opponents.close()


def test_close_stops_the_workers_and_a_dead_worker_is_an_error_not_a_hang():
    env = BatchedLeagueEnv("dragonhunt", 4, SHORT, weights={"heuristic": 1.0}, seed=3, heuristic_workers=2)
    workers = env.opponents.workers
    assert len(workers) == 2 and all(p.is_alive() and p.daemon for p in workers)
    env.reset()
    env.close()
    assert not any(p.is_alive() for p in workers)
    with pytest.raises(RuntimeError, match="stopped"):
        env.opponents.act("heuristic", env.venv, np.arange(4))

    game = dragongym.get_game("dragonhunt")
    venv = dragongym.make_vec("dragonhunt", 4, seed=3, **SHORT)
    venv.reset()
    opponents = Opponents(game, None, 3, heuristic_workers=2)
    try:
        opponents.workers[1].kill()
        opponents.workers[1].join()
        with pytest.raises(RuntimeError, match=r"heuristic worker 1 \(pid \d+, game rows b % 2 == 1\) died"):
            opponents.act("heuristic", venv, np.arange(4))
    finally:
        opponents.close()
    assert not any(p.is_alive() for p in opponents.workers)


def test_selfplay_passes_heuristic_workers_to_the_batched_env_and_checks_them():
    from dragongym.training.selfplay import Args, make_vec_env

    args = Args(game="dragonhunt", game_options={"max_hands": 1}, n_envs=2, heuristic_workers=1)
    args.validate()
    env = make_vec_env(args)
    try:
        assert len(env.opponents.workers) == 1
    finally:
        env.close()
    with pytest.raises(ValueError, match="heuristic_workers must be >= 0"):
        Args(game="dragonhunt", heuristic_workers=-1).validate()
