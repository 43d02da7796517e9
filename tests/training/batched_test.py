"""Batched self-play (training/batched.py): B league games in lockstep as one
SB3 VecEnv -- every game waits at its learner's seat after each step, the
learner sees its own view, episodes pay what the rules pay, opponents answer
in batches, seats rotate, and MaskablePPO trains on it without a masked action."""
import json
import warnings

import numpy as np
import pytest
import torch

import dragongym
from dragongym.training.batched import BatchedLeagueEnv, Opponents
from dragongym.envs.core.spec import GameSpec

torch.set_num_threads(1)


def random_learner(env, rng):
    masks = env.action_masks()
    return np.array([rng.choice(np.flatnonzero(m)) for m in masks])


def play(env, steps, seed=0):
    """Random learner decisions for ``steps`` steps; yields ``(obs, rewards, dones, infos)``."""
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        yield env.step(random_learner(env, rng))


def check_waiting_for_the_learner(env):
    """Every game waits at its learner's seat, and the observation is that seat's."""
    venv, game = env.venv, env.game
    assert np.array_equal(venv.to_play, env.seat)
    for b in range(env.num_envs):
        want = game.observation_of(venv.states[b:b + 1], int(env.seat[b]))
        assert np.array_equal(venv.obs[b], want)


def test_every_game_waits_at_the_learners_seat_with_its_view(race):
    env = BatchedLeagueEnv(race, 16, {"num_players": 3}, weights={"random": 1.0}, seed=1)
    obs = env.reset()
    check_waiting_for_the_learner(env)
    assert np.array_equal(obs, env.venv.obs)
    for obs, rewards, dones, infos in play(env, 40):
        check_waiting_for_the_learner(env)
        assert obs.shape == (16, env.game_spec.obs_size) and rewards.dtype == np.float32
    assert env.opponent_decisions > 0 and env.learner_decisions == 16 * 40


def test_an_episode_pays_the_learners_final_reward_once_and_reports_its_outcome(race):
    """Race to Ten pays +1 / -1/(n-1) at the end: the step that ends a
    learner's episode pays exactly that for its seat, every other step 0;
    the end carries the result, rank and the learner's final view."""
    env = BatchedLeagueEnv(race, 8, {"num_players": 3}, weights={"random": 1.0}, seed=2)
    env.reset()
    ended = 0
    for _, rewards, dones, infos in play(env, 60, seed=2):
        for b in range(env.num_envs):
            if not dones[b]:
                assert rewards[b] == 0.0
                continue
            ended += 1
            league = infos[b]["league"]
            assert league["opponent"] == "random"
            assert rewards[b] == pytest.approx({"win": 1.0, "loss": -0.5, "draw": 0.0}[league["result"]])
            assert league["rank"] in (1, 2) and infos[b]["terminal_observation"].shape == (7,)
            assert league["game_return"] == pytest.approx(rewards[b])
    assert ended > 20


def test_seats_rotate_and_opponents_follow_the_league_weights(race):
    env = BatchedLeagueEnv(race, 32, {"num_players": 2}, weights={"random": 3.0, "heuristic": 1.0}, seed=3)
    env.reset()
    seats, opponents = set(), {}
    for _, _, dones, infos in play(env, 80, seed=3):
        seats.update(env.seat.tolist())
        for b in np.flatnonzero(dones):
            name = infos[b]["league"]["opponent"]
            opponents[name] = opponents.get(name, 0) + 1
    assert seats == {0, 1}
    assert set(opponents) == {"random"}          # Race to Ten has no heuristic: its weight is dropped
    with pytest.raises(ValueError, match="no usable opponent"):
        env.set_weights({"heuristic": 1.0})


def test_snapshots_play_their_games_in_one_batch_and_only_legal_moves(race):
    """A snapshot of the learner's network answers all its games at once."""
    from stable_baselines3.common.utils import ConstantSchedule

    from dragongym.training.policy import BoardPolicy

    env = BatchedLeagueEnv(race, 12, {"num_players": 2}, seed=4)
    space = env.observation_space

    def make():
        return BoardPolicy(space, env.action_space, ConstantSchedule(0.0),
                           features_extractor_kwargs={"game": race, "game_options": {"num_players": 2},
                                                      "hidden": 8})

    env.opponents._make_policy = make
    net = make()
    env.league_update({"self:0": 1.0}, {0: net.state_dict()})
    calls = []
    act = env.opponents.act

    def spy(name, venv, rows):
        calls.append((name, len(rows)))
        return act(name, venv, rows)

    env.opponents.act = spy
    env.reset()
    for _ in play(env, 20, seed=4):
        check_waiting_for_the_learner(env)
    assert calls and {name for name, _ in calls} == {"self:0"}
    assert max(n for _, n in calls) > 1                 # several games in one forward pass

    # the league drops snapshot 0 for snapshot 1 while games still play 0:
    # those games go on against 0, new episodes draw 1, and 0 is forgotten once unused
    env.league_update({"self:1": 1.0}, {1: make().state_dict()}, [0])
    assert env.opponents.names[-1] == "self:1" and "self:0" not in env.opponents.names
    calls.clear()
    for _ in play(env, 200, seed=5):
        check_waiting_for_the_learner(env)
    assert {name for name, _ in calls} == {"self:0", "self:1"}
    assert 0 not in env.opponents._snapshots and 1 in env.opponents._snapshots


def test_a_solo_game_has_no_opponent(dive):
    env = BatchedLeagueEnv(dive, 4, {}, seed=5)
    env.reset()
    for _, _, dones, infos in play(env, 50, seed=5):
        for b in np.flatnonzero(dones):
            assert infos[b]["league"]["opponent"] == "solo"
    assert env.opponent_decisions == 0


def test_rank_rewards_are_paid_at_the_end_in_a_ranked_game(gather):
    env = BatchedLeagueEnv(gather, 8, {}, weights={"random": 1.0}, seed=6, reward="rank")
    env.reset()
    by_rank = {}
    for _, rewards, dones, infos in play(env, 60, seed=6):
        assert np.all(rewards[~dones] == 0.0)
        for b in np.flatnonzero(dones):
            by_rank.setdefault(infos[b]["league"]["rank"], set()).add(float(rewards[b]))
    # rank_rewards of three seats: 1st +1 (+0.5 tied with 2nd, 0 all tied), 2nd 0 (-0.5 tied with 3rd), 3rd -1
    assert by_rank and all(by_rank[r] <= {1: {1.0, 0.5, 0.0}, 2: {0.0, -0.5}, 3: {-1.0}}[r] for r in by_rank)


def test_maskable_ppo_trains_on_it_and_never_plays_a_masked_action(race):
    """MaskablePPO's rollouts go through the vector API's checks: a masked
    action would raise IllegalActionError there."""
    from sb3_contrib import MaskablePPO

    from dragongym.training.policy import BoardPolicy

    env = BatchedLeagueEnv(race, 8, {"num_players": 2}, weights={"random": 1.0}, seed=7)
    model = MaskablePPO(BoardPolicy, env, n_steps=16, batch_size=32, n_epochs=1, seed=7, device="cpu",
                        policy_kwargs={"features_extractor_kwargs": {"game": race, "hidden": 8,
                                                                     "game_options": {"num_players": 2}}})
    model.learn(256)
    assert model.num_timesteps >= 256


def test_dragonhunt_against_its_heuristic_and_random_at_once():
    """A real game with both fixed bots in one batch: every step hands the
    learner all games back at its seat."""
    env = BatchedLeagueEnv("dragonhunt", 6, {"num_players": 2, "max_hands": 1},
                           weights={"random": 1.0, "heuristic": 1.0}, seed=8)
    env.reset()
    for _ in play(env, 30, seed=8):
        check_waiting_for_the_learner(env)
    assert isinstance(env.opponents, Opponents) and env.opponents.heuristic is not None
    # each game has its own heuristic: the bot remembers what it tried within a segment
    bots = env.opponents._heuristic_of_game
    assert bots and len({id(bot) for bot in bots.values()}) == len(bots)


def test_a_games_heuristic_forgets_its_memory_when_a_new_episode_starts():
    env = BatchedLeagueEnv("dragonhunt", 2, {"num_players": 2, "max_hands": 1}, weights={"heuristic": 1.0},
                           seed=4)
    env.reset()
    for _ in play(env, 40, seed=4):
        pass
    bot = env.opponents._heuristic_of_game[0]
    bot._tried_key, bot._tried = ("segment",), {5}
    env._draw(np.array([0]))
    assert bot._tried_key is None and bot._tried == set()


def test_a_curriculum_starts_a_share_of_the_episodes_from_recorded_positions(race, tmp_path):
    """Positions of recorded games start episodes (reseeded: their future
    dice are new); the rest start from the opening; a record of another
    configuration is refused."""
    from dragongym.agents.match import play_match
    from dragongym.training.batched import recorded_positions

    path = tmp_path / "games.jsonl"
    play_match(race, ["random", "random"], 3, seed=1, records=str(path), num_players=2)
    starts = recorded_positions(str(path), race, {"num_players": 2})
    assert len(starts) > 6 and (starts["turns"] > 0).any() and (starts["status"] == 0).all()
    assert len(recorded_positions(str(path), race, {"num_players": 2}, every=2)) < len(starts)
    late = recorded_positions(str(path), race, {"num_players": 2}, after=0.5)   # the games' second halves
    assert 0 < len(late) < len(starts) and late["turns"].mean() > starts["turns"].mean()
    with pytest.raises(ValueError, match="after must be in 0..1"):
        recorded_positions(str(path), race, {"num_players": 2}, after=1.0)
    with pytest.raises(ValueError, match="not race with"):
        recorded_positions(str(path), race, {"num_players": 3})

    env = BatchedLeagueEnv(race, 16, {"num_players": 2}, weights={"random": 1.0}, seed=9,
                           start_positions=starts, start_share=1.0)
    env.reset()
    # every game began at a recorded position; some of those ended before the learner's turn
    # and the next episode began at another one
    assert env.started_from_records >= 16
    opening = BatchedLeagueEnv(race, 16, {"num_players": 2}, weights={"random": 1.0}, seed=9)
    opening.reset()
    assert env.venv.states["turns"].mean() > opening.venv.states["turns"].mean() + 1
    check_waiting_for_the_learner(env)
    for _ in play(env, 30, seed=9):
        check_waiting_for_the_learner(env)
    assert env.started_from_records > 16
    half = BatchedLeagueEnv(race, 64, {"num_players": 2}, weights={"random": 1.0}, seed=9,
                            start_positions=starts, start_share=0.5)
    half.reset()
    assert 16 < half.started_from_records < 64
    with pytest.raises(ValueError, match="start_share needs start_positions"):
        BatchedLeagueEnv(race, 4, {"num_players": 2}, start_share=0.5)
    with pytest.raises(ValueError, match="start_share must be in 0..1"):
        BatchedLeagueEnv(race, 4, {"num_players": 2}, start_positions=starts, start_share=2.0)



def test_an_unsound_start_position_is_said_left_out_and_its_episode_starts_from_the_opening(race, tmp_path):
    """A recorded position the env's soundness check refuses (here a running
    game whose mover is no seat) does not stop the run: a warning names it,
    it is never drawn again, and its game starts from the opening. A
    curriculum whose every position is refused is an error."""
    from dragongym.agents.match import play_match
    from dragongym.envs.core.game import InvalidStateError
    from dragongym.training.batched import recorded_positions

    path = tmp_path / "games.jsonl"
    play_match(race, ["random", "random"], 2, seed=1, records=str(path), num_players=2)
    starts, progress = recorded_positions(str(path), race, {"num_players": 2}, progress=True)
    starts[3]["to_play"] = 7
    env = BatchedLeagueEnv(race, 64, {"num_players": 2}, weights={"random": 1.0}, seed=9,
                           start_positions=starts, start_share=1.0, start_progress=progress)
    with pytest.warns(RuntimeWarning, match="start position 3 refused.*to_play 7"):
        env.reset()
        for _ in play(env, 40, seed=9):
            pass
    assert list(env.refused_start_positions) == [3] and 3 not in env._eligible
    assert env.started_from_records > 64
    check_waiting_for_the_learner(env)
    with warnings.catch_warnings():
        warnings.simplefilter("error")             # left out: never drawn, never warned again
        for _ in play(env, 40, seed=10):
            pass
    env.curriculum_from(0.0)                    # a new stage of the curriculum keeps it out
    assert 3 not in env._eligible and len(env._eligible) == len(starts) - 1
    bad = starts[:2].copy()
    bad["to_play"] = 7
    with pytest.warns(RuntimeWarning), pytest.raises(InvalidStateError, match="every one of the 2"):
        BatchedLeagueEnv(race, 8, {"num_players": 2}, weights={"random": 1.0}, seed=9,
                         start_positions=bad, start_share=1.0).reset()


def test_a_reverse_curriculum_starts_near_the_recorded_ends_then_ever_earlier(race, tmp_path):
    """``curriculum_from(x)``: episodes start only from positions at least x
    of the way into their recorded games (the latest ones if none lies that
    far); lowered to 0 every recorded position may start an episode again."""
    from dragongym.agents.match import play_match
    from dragongym.training.batched import recorded_positions

    path = tmp_path / "games.jsonl"
    play_match(race, ["random", "random"], 4, seed=3, records=str(path), num_players=2)
    starts, progress = recorded_positions(str(path), race, {"num_players": 2}, progress=True)
    assert len(progress) == len(starts) and progress.min() == 0.0 and 0.0 < progress.max() < 1.0
    env = BatchedLeagueEnv(race, 8, {"num_players": 2}, weights={"random": 1.0}, seed=4,
                           start_positions=starts, start_share=1.0, start_progress=progress)
    picked = []
    restore = env.venv.restore_game
    env.venv.restore_game = lambda b, rec: (picked.append(int(rec["turns"][0])), restore(b, rec))[1]
    env.curriculum_from(0.8)
    env.reset()
    late_turns = starts["turns"][progress >= 0.8]
    assert picked and set(picked) <= set(late_turns.tolist())
    env.curriculum_from(1.0)                        # beyond every position: the latest ones
    assert np.array_equal(env._eligible, np.flatnonzero(progress == progress.max()))
    env.curriculum_from(0.0)
    assert len(env._eligible) == len(starts)
    with pytest.raises(ValueError, match="after must be in 0..1"):
        env.curriculum_from(1.5)
    with pytest.raises(ValueError, match="needs start_progress"):
        BatchedLeagueEnv(race, 4, {"num_players": 2}, start_positions=starts, start_share=0.5).curriculum_from(0.5)
    with pytest.raises(ValueError, match="one value per start position"):
        BatchedLeagueEnv(race, 4, {"num_players": 2}, start_positions=starts, start_share=0.5,
                         start_progress=progress[:-1])

def test_selfplay_takes_a_curriculum_and_checks_it(race, tmp_path):
    from dragongym.agents.match import play_match
    from dragongym.training.selfplay import Args, curriculum_start, train

    path = tmp_path / "games.jsonl"
    play_match(race, ["random", "random"], 2, seed=2, records=str(path), num_players=2)
    base = dict(game=race, game_options={"num_players": 2}, total_timesteps=64, n_envs=4, n_steps=16,
                batch_size=32, n_epochs=1, hidden=8, eval_every=0, final_eval_games=0, out_dir=str(tmp_path),
                progress=False)
    run = train(Args(**base, run_name="cur", curriculum=str(path), curriculum_share=0.5))
    assert (run / "final.zip").exists()
    # annealed: the start moves back from 90% of each game to its opening over 256 decisions
    annealed = Args(**{**base, "total_timesteps": 128}, run_name="rev", curriculum=str(path),
                    curriculum_share=1.0, curriculum_after=0.9, curriculum_anneal=256)
    run = train(annealed)
    starts = [h["curriculum_after"] for h in json.loads((run / "checkpoints" / "history.json").read_text())
              if h["kind"] == "update"]
    assert starts == [pytest.approx(0.675), pytest.approx(0.45)]     # after 64 and 128 decisions
    refused = [h["curriculum_refused"] for h in json.loads((run / "checkpoints" / "history.json").read_text())
               if h["kind"] == "update"]
    assert refused == [0, 0]                    # every recorded position sound
    assert curriculum_start(annealed, 0) == 0.9 and curriculum_start(annealed, 10**6) == 0.0
    assert curriculum_start(Args(**base, curriculum=str(path), curriculum_after=0.6), 10**9) == 0.6
    for bad, why in ((dict(curriculum_share=0.5), "needs --curriculum"),
                     (dict(curriculum=str(tmp_path / "none.jsonl")), "no such file"),
                     (dict(curriculum=str(path), vec_env="dummy"), "needs vec_env batched"),
                     (dict(curriculum=str(path), curriculum_anneal=100), "needs --curriculum and a --curriculum-after"),
                     (dict(curriculum_anneal=-1), "curriculum_anneal must be at least 0")):
        with pytest.raises(ValueError, match=why):
            Args(**base, **bad).validate()


def test_shaping_is_potential_based_each_episode_telescopes_to_its_game_return():
    """With gamma 1 the shaping terms of an episode sum to minus the
    coefficient times the potential where the learner first decided (the
    final position's potential counts 0): what is paid over an episode is its
    game return minus that, so the optimal policy is unchanged."""
    from dragongym.training.shaping import potential_for

    env = BatchedLeagueEnv("dragonhunt", 4, {"num_players": 2, "max_hands": 1}, weights={"random": 1.0},
                           seed=10, shaping=0.5, gamma=1.0)
    env.reset()
    potential = potential_for(env.game)
    start = np.array([potential(env.venv.states[b:b + 1], int(env.seat[b])) for b in range(4)])
    assert np.array_equal(start, env._phi) and start.any()
    paid = np.zeros(4)
    checked = 0
    for _, rewards, dones, infos in play(env, 400, seed=10):
        paid += rewards
        for b in np.flatnonzero(dones):
            assert paid[b] == pytest.approx(infos[b]["league"]["game_return"] - 0.5 * start[b], abs=1e-4)
            checked += 1
            paid[b] = 0.0
            start[b] = env._phi[b]
    assert checked >= 2


def test_an_illegal_action_names_who_chose_it_and_steps_no_game():
    """The learner's or an opponent's action outside its game's mask: an
    IllegalActionError that names the game row and who chose it; no game moves."""
    from dragongym.envs.core.game import IllegalActionError
    env = BatchedLeagueEnv("dragonhunt", 4, {"max_hands": 1}, weights={"random": 1.0}, seed=3)
    env.reset()
    masks = env.action_masks()
    assert not masks.all(axis=1).any()          # every opening position rules actions out
    before = env.venv.states.copy()
    actions = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    actions[2] = int(np.flatnonzero(~masks[2])[0])
    env.step_async(actions)
    with pytest.raises(IllegalActionError, match=r"game 2: action \d+ .*\(chosen by the learner \(seat \d\)\)"):
        env.step_wait()
    assert env.venv.states.tobytes() == before.tobytes()

    def stray(name, venv, rows):                     # an opponent that answers outside the mask
        return np.array([int(np.flatnonzero(venv.masks[b] == 0)[0]) for b in rows])
    env.opponents.act = stray
    env.step_async(np.array([int(np.flatnonzero(m)[0]) for m in masks]))
    with pytest.raises(IllegalActionError, match=r"\(chosen by opponent random \(seat \d\)\)"):
        env.step_wait()


def test_games_the_opponents_never_hand_back_stop_the_step_naming_them(race, monkeypatch):
    """An endless run of opponent decisions (a cycle the rules allow, such
    as the Dragons Down combat a Shield of Mercy once kept going) stops the
    step with an error naming each stuck game, its opponent and the seat to
    play, instead of stepping forever."""
    from dragongym.training import batched
    env = BatchedLeagueEnv(race, 2, {"num_players": 2}, weights={"random": 1.0}, seed=0)
    env.reset()
    monkeypatch.setattr(batched, "MAX_OPPONENT_ROUNDS", 0)      # every opponent turn counts as stuck
    monkeypatch.setattr(GameSpec, "decision_limit", property(lambda self: 0))   # and no limit ends a game
    with pytest.raises(RuntimeError, match=r"after 0 rounds .*: game 0, opponent random, seat \d to play; "
                                           r"game 1, opponent random, seat \d to play"):
        env.step(np.array([int(np.flatnonzero(m)[0]) for m in env.action_masks()]))


def test_opponent_stretches_within_the_decision_limit_are_not_stuck(race, monkeypatch):
    """The stuck-guard counts only beyond twice the decision limit: in a
    4-seat Race to Ten the three opponents move after each learner decision,
    more rounds than a guard of 2 would allow alone, and a game that reaches
    the limit (5 decisions, one more than Race to Ten needs at least) is
    ended by the vector env, not judged stuck."""
    from dragongym.training import batched
    monkeypatch.setattr(batched, "MAX_OPPONENT_ROUNDS", 2)
    monkeypatch.setattr(GameSpec, "decision_limit", property(lambda self: 5))
    env = BatchedLeagueEnv(race, 4, {"num_players": 4}, weights={"random": 1.0}, seed=0)
    env.reset()
    ended = 0
    for _ in range(8):
        _, _, dones, infos = env.step(np.array([int(np.flatnonzero(m)[0]) for m in env.action_masks()]))
        ended += int(dones.sum())
        assert (env.venv.to_play == env.seat).all()          # every game waits at its learner's seat again
    assert ended > 0 and env.opponent_decisions > 2 * 8
