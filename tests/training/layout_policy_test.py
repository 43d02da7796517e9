"""LayoutPolicy (training/layout_policy.py): one masked actor-critic built from
the block kinds of any game's spec -- it builds and answers for every game and
configuration, puts each indexed cell's, node's and entity row's own features
behind that row's logit, in action order, never lets padding rows or absent
nodes reach the output, trains under MaskablePPO without a masked action, and
reloads from a checkpoint as an agent that plays legal moves."""
import numpy as np
import pytest
import torch
from gymnasium import spaces

import dragongym
from dragongym.envs.core.spec import ActionBlock, GameSpec, ObsBlock, player_names
from dragongym.training import layout_policy
from dragongym.training.layout_policy import LayoutPolicy, layout_of
from dragongym.training.policy import PolicyAgent, load_agent

torch.set_num_threads(1)

GAMES = tuple(sorted(dragongym.list_games()))
TOY_GAMES = ("race", "dive", "gather")           # registered by the fixtures of tests/conftest.py


def policy_for(game, options=None, seed=0, **trunk):
    """An untrained LayoutPolicy for ``game`` (a Game or a stand-in with a spec)."""
    options = dict(options or {})
    spec = game.spec_for(game.make_config(**options))
    low, high = getattr(game, "obs_bounds", (-1.0, 1.0))
    torch.manual_seed(seed)
    key = game.name if game.name in dragongym.list_games() else game
    return LayoutPolicy(spaces.Box(low, high, (spec.obs_size,), np.float32), spaces.Discrete(spec.num_actions),
                        lambda _: 1e-3, features_extractor_kwargs={"game": key, "game_options": options, **trunk})


def positions(name, count, seed=0, steps=6, **options):
    """Observations and masks of ``count`` games after ``steps`` random decisions each."""
    venv = dragongym.make_vec(name, count, seed=seed, **options)
    venv.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        venv.step(venv.sample_actions(rng))
    return venv.obs.copy(), venv.masks.copy()


def logits_of(policy, obs):
    """Logits ``[B, A]`` by the path PolicyAgent takes, with gradients."""
    features = policy.extract_features(obs)
    return policy.action_net(policy.mlp_extractor.forward_actor(features))


def rows_of(obs, block):
    """The ``(rows, features)`` view of ``block`` in observation ``obs`` (1-D)."""
    return obs[block.offset:block.stop].reshape(block.shape)


# ------------------------------------------------------------------ building

@pytest.mark.parametrize("name", GAMES + TOY_GAMES)
def test_it_builds_and_answers_for_every_game(name, request):
    if name in TOY_GAMES:
        request.getfixturevalue(name)
    game = dragongym.get_game(name)
    spec = game.spec
    policy = policy_for(game)
    trunk = policy.features_extractor
    obs, masks = positions(name, 6)
    obs_t = torch.as_tensor(obs)
    with torch.no_grad():
        features = policy.extract_features(obs_t)
        logits = PolicyAgent(policy).logits(obs)
        values = policy.predict_values(obs_t)
        dist = policy.get_distribution(obs_t, action_masks=masks != 0)
        draws = torch.stack([dist.sample() for _ in range(20)], dim=1).numpy()
    assert features.shape == (6, trunk.pointer_outputs + trunk.hidden)
    assert trunk.pointer_outputs == sum(a.size for a in spec.action_layout.values() if a.indexes)
    assert logits.shape == (6, spec.num_actions) and np.isfinite(logits).all()
    assert values.shape == (6, 1) and torch.isfinite(values).all()
    assert all(masks[b, draws[b]].all() for b in range(6))          # masked sampling: legal only
    assert torch.isfinite(dist.entropy()).all()
    greedy = PolicyAgent(policy).act_batch(obs, masks, np.random.default_rng(0))
    assert masks[np.arange(6), greedy].all()


def test_every_test_configuration_builds_and_answers():
    for name in GAMES:
        game = dragongym.get_game(name)
        for options in game.test_configs():
            states = game.new_states(1)
            game.reset(states, np.array([7], dtype=np.uint64), game.make_config(**options))
            obs = game.observation_of(states, 0)[None]
            policy = policy_for(game, options)
            logits = PolicyAgent(policy).logits(obs)
            assert logits.shape == (1, policy.action_space.n) and np.isfinite(logits).all(), (name, options)


def test_the_layout_gives_every_block_its_kind():
    hunt = layout_of(dragongym.get_game("dragonhunt").spec)
    (board,) = hunt.boards
    assert (board.rows, board.cols, board.planes, board.static) == (13, 15, 24, None)
    assert hunt.pointers[0].target == "board" and (hunt.pointers[0].offset, hunt.pointers[0].size) == (0, 195)

    spec = dragongym.get_game("dragons_down").spec
    down = layout_of(spec)
    (realm,) = down.graphs
    paths = spec.obs_layout["paths"]
    assert (realm.nodes, realm.neighbours_offset, realm.max_degree) == (108, paths.offset, paths.shape[1])
    assert {b.name for b in down.row_blocks} == {k for k, b in spec.obs_layout.items() if b.kind == "entities"}
    assert {p.target for p in down.pointers} == {"tiles", "realm", "piles", "merchants"}
    assert not set(down.flat_index) & set(range(paths.offset, paths.stop))   # node numbers are not features

    spec = dragongym.get_game("dragon_pass").spec
    pass_ = layout_of(spec)
    (board,) = pass_.boards
    assert (board.rows, board.cols) == (34, 45)
    assert np.array_equal(board.static, spec.constants[spec.obs_layout["board"].static])
    assert [b.name for b in pass_.row_blocks] == ["units"]
    assert np.array_equal(pass_.row_blocks[0].static, spec.constants[spec.obs_layout["units"].static])  # what each counter is
    assert [(p.target, p.offset) for p in pass_.pointers] == [("units", spec.action_layout["unit"].offset)]


# ------------------------------------------------------------------ one logit per row

def row_gradients(policy, obs, action, block):
    """``|d logit[action] / d row features|`` summed per row of ``block``."""
    o = torch.as_tensor(obs[None]).clone().requires_grad_(True)
    (grad,) = torch.autograd.grad(logits_of(policy, o)[0, action], o)
    return rows_of(grad[0].numpy(), block).__abs__().sum(axis=1)


@pytest.mark.parametrize("name", ["dragons_down", "dragon_pass"])
def test_an_indexed_node_or_entity_row_drives_its_own_logit(name):
    """Row ``i``'s logit reads row ``i`` among the most (a row that holds a
    channel's maximum reaches every logit through the max pool, so it may
    read one or two such rows as much), and the rows beyond its reach (other
    entities; nodes not adjacent to it) far less on average: it hears them
    only through the pooled latent."""
    game = dragongym.get_game(name)
    spec = game.spec
    policy = policy_for(game)
    obs = positions(name, 1, steps=4)[0][0]
    checked = 0
    for pointer in policy.features_extractor.layout.pointers:
        block = spec.obs_layout[pointer.target]
        rows = rows_of(obs, block)
        # real rows with something written in them (an entity that is there, a clearing on the map)
        real = np.flatnonzero(rows[:, max(block.valid_column, 0)] > 0.5)
        for i in real[:4]:
            grads = row_gradients(policy, obs, pointer.offset + i, block)
            reach = [i]
            if block.kind == "graph":                           # its neighbours hear it in message passing
                reach += [int(j) for j in rows_of(obs, spec.obs_layout[block.neighbours])[i] if j >= 0]
            beyond = np.setdiff1d(np.arange(block.shape[0]), reach)
            assert i in np.argsort(grads)[-3:], (pointer, i)
            assert grads[i] > 10 * grads[beyond].mean(), (pointer, i)
            checked += 1
    assert checked >= 4


def test_a_cell_drives_the_logits_of_its_neighbourhood_most():
    """Cell ``i``'s logit reads the cells within the conv trunk's reach of ``i``
    (its hex neighbours most) far more than the rest of the board, which it
    hears only through the pooled latent."""
    game = dragongym.get_game("dragonhunt")
    block = game.spec.obs_layout["board"]
    cols, rows = block.grid_shape
    policy = policy_for(game)
    obs = positions("dragonhunt", 1, steps=4)[0][0]
    for cell in (20, 97, 150, 194):
        grads = row_gradients(policy, obs, cell, block).reshape(rows, cols)
        r, c = divmod(cell, cols)
        top = np.unravel_index(grads.argmax(), grads.shape)
        assert max(abs(top[0] - r), abs(top[1] - c)) <= 1, (cell, top)
        near = np.zeros_like(grads, dtype=bool)
        near[max(0, r - 2):r + 3, max(0, c - 2):c + 3] = True
        assert grads[near].mean() > 3 * grads[~near].mean(), cell


@pytest.mark.parametrize("name", GAMES)
def test_logits_come_out_in_action_order(name):
    """Action ``offset + i`` of a block that indexes rows scores row ``i``'s
    features (captured from its encoder) with the block's pointer head; every
    other action is the latent's linear head, in order."""
    game = dragongym.get_game(name)
    policy = policy_for(game)
    trunk = policy.features_extractor
    captured = {}

    def keep(module, _, output):
        features = output[0] if isinstance(output, tuple) else output
        if features.dim() == 4:                                  # a board: [n, channels, rows, cols]
            features = features.flatten(2).transpose(1, 2)
        captured[module.block.name] = features

    for encoder in (*trunk.boards, *trunk.row_encoders, *trunk.graphs):
        encoder.register_forward_hook(keep)
    obs = torch.as_tensor(positions(name, 3)[0])
    with torch.no_grad():
        logits = logits_of(policy, obs)
        latent = trunk(obs)[:, trunk.pointer_outputs:]
        want = torch.empty_like(logits)
        pointer_ids = []
        for head, pointer in zip(trunk.pointer_heads, trunk.layout.pointers):
            q = head.query(latent)
            rows = captured[pointer.target]
            want[:, pointer.offset:pointer.offset + pointer.size] = \
                torch.einsum("nrc,nc->nr", rows, q[:, :-1]) + q[:, -1:]
            pointer_ids.extend(range(pointer.offset, pointer.offset + pointer.size))
        others = np.setdiff1d(np.arange(logits.shape[1]), pointer_ids)
        want[:, others] = policy.action_net.other(latent)
    torch.testing.assert_close(logits, want, rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------ padding and absence

@pytest.mark.parametrize("name", ["dragons_down", "dragon_pass"])
def test_padding_rows_of_an_entities_block_do_not_reach_the_output(name):
    game = dragongym.get_game(name)
    spec = game.spec
    policy = policy_for(game)
    obs = positions(name, 2, steps=4)[0]
    noisy = obs.copy()
    rng = np.random.default_rng(1)
    padded = 0
    for block in spec.blocks_of_kind("entities").values():
        for b in range(len(obs)):
            rows = rows_of(noisy[b], block)                      # a view: writes go to noisy
            pad = rows[:, block.valid_column] < 0.5
            others = np.arange(block.shape[1]) != block.valid_column
            rows[np.ix_(pad, others)] = rng.random((pad.sum(), others.sum()), dtype=np.float32)
            padded += int(pad.sum())
    assert padded > 0
    with torch.no_grad():
        clean = policy.extract_features(torch.as_tensor(obs))
        assert torch.equal(policy.extract_features(torch.as_tensor(noisy)), clean)
        # while a real row's features do count
        block = next(b for b in spec.blocks_of_kind("entities").values() if rows_of(obs[0], b)[0, b.valid_column])
        changed = obs.copy()
        rows_of(changed[0], block)[0, :] = 0.5
        rows_of(changed[0], block)[0, block.valid_column] = 1.0
        assert not torch.equal(policy.extract_features(torch.as_tensor(changed)), clean)


class LayoutOnly:
    """A stand-in game that is nothing but one spec (all the trunk reads)."""

    obs_bounds = (-1.0, 8.0)

    def __init__(self, spec):
        self.spec, self.name = spec, spec.name

    def make_config(self, **_):
        return None

    def spec_for(self, _):
        return self.spec


def patchwork_spec(row_sets=True):
    """Every block kind but flat: a graph whose nodes may be absent (column 0),
    a square board and (``row_sets``) a cell set with static planes and a
    crew of entities."""
    layout, pos = {}, 0

    def block(name, shape, **kw):
        nonlocal pos
        layout[name] = ObsBlock(pos, shape, **kw)
        pos += int(np.prod(shape))

    block("map", (6, 3), kind="graph", neighbours="roads", valid_column=0)
    block("roads", (6, 3), kind="neighbours", of="map")
    block("field", (6, 2), kind="grid", geometry="square", grid_shape=(3, 2), static="soil")
    actions = {"go": ActionBlock(0, 6, indexes="map"), "dig": ActionBlock(6, 6, indexes="field"),
               "pass": ActionBlock(12, 1)}
    if row_sets:
        block("cells", (5, 2), kind="grid", geometry="hex", static="terrain")
        block("crew", (4, 3), kind="entities", valid_column=0)
        actions["hail"] = ActionBlock(13, 5, indexes="cells")
        actions["pick"] = ActionBlock(18, 4, indexes="crew")
    constants = {"soil": np.linspace(0, 1, 6, dtype=np.float32)[:, None],
                 "terrain": np.eye(5, 2, dtype=np.float32)}
    return GameSpec(name="patchwork", version=1, roles=player_names(2),
                    num_actions=sum(a.size for a in actions.values()), obs_size=pos, obs_layout=layout,
                    action_layout=actions, constants=constants)


def patchwork_obs(spec, rng, n=4):
    obs = rng.random((n, spec.obs_size), dtype=np.float32)
    m = spec.obs_layout["map"]
    roads = spec.obs_layout["roads"]
    for b in range(n):
        nodes = rows_of(obs[b], m)
        nodes[:, 0] = [1, 1, 1, 0, 1, 0]                         # nodes 3 and 5 are not on the map
        rows_of(obs[b], roads)[:] = [[1, 2, -1], [0, 3, -1], [0, 4, 5], [1, -1, -1], [2, -1, -1], [2, -1, -1]]
    crew = spec.obs_layout.get("crew")
    if crew is not None:
        for b in range(n):
            rows_of(obs[b], crew)[:, 0] = [1, 0, 1, 0]
    return obs


@pytest.mark.parametrize("row_sets", [True, False])
def test_every_block_kind_in_one_layout_and_absent_nodes_count_for_nothing(row_sets, monkeypatch):
    spec = patchwork_spec(row_sets)
    policy = policy_for(LayoutOnly(spec))
    trunk = policy.features_extractor
    assert [len(trunk.layout.boards), len(trunk.layout.row_blocks), len(trunk.layout.graphs)] == \
        [1, 2 * row_sets, 1]
    assert (trunk.context is None) == (not row_sets)             # no flat, no row sets: a learned context
    rng = np.random.default_rng(3)
    obs = patchwork_obs(spec, rng)
    with torch.no_grad():
        logits = logits_of(policy, torch.as_tensor(obs))
        assert logits.shape == (4, spec.num_actions) and torch.isfinite(logits).all()
        # what is written on an absent node, and the roads from it, reach nothing
        noisy = obs.copy()
        for b in range(4):
            rows_of(noisy[b], spec.obs_layout["map"])[[3, 5], 1:] = rng.random((2, 2))
            rows_of(noisy[b], spec.obs_layout["roads"])[3] = [4, 0, 2]
        assert torch.equal(logits_of(policy, torch.as_tensor(noisy)), logits)
        # the dense neighbour mean (a [nodes, nodes] matrix per sample) is the gathered one
        monkeypatch.setattr(layout_policy, "DENSE_GRAPH_NODES", 10**9)
        torch.testing.assert_close(logits_of(policy, torch.as_tensor(obs)), logits)


def test_actions_that_index_a_block_without_rows_to_score_are_refused():
    spec = patchwork_spec(row_sets=False)
    actions = dict(spec.action_layout, go=ActionBlock(0, 6, indexes="roads"))   # node numbers, not rows
    bad = GameSpec(name="patchwork", version=1, roles=spec.roles, num_actions=spec.num_actions,
                   obs_size=spec.obs_size, obs_layout=spec.obs_layout, action_layout=actions,
                   constants=spec.constants)
    with pytest.raises(ValueError, match="'roads', which is not a grid, graph or entities block"):
        layout_of(bad)


def test_gathered_and_dense_neighbour_means_agree_on_the_realm(monkeypatch):
    """The realm hears its neighbours by gathering their rows (issue 30, round
    2); the dense ``[nodes, nodes]`` averaging it replaced computes the same
    features and the same gradients, to float tolerance."""
    game = dragongym.get_game("dragons_down")
    policy = policy_for(game)
    obs = torch.as_tensor(positions("dragons_down", 3, steps=6)[0])

    def features_and_gradients():
        policy.zero_grad()
        features = policy.extract_features(obs)
        features.square().mean().backward()
        return [features.detach()] + [p.grad.clone() for p in policy.parameters() if p.grad is not None]

    assert layout_policy.DENSE_GRAPH_NODES < 108          # the realm's 108 clearings gather
    gathered = features_and_gradients()
    monkeypatch.setattr(layout_policy, "DENSE_GRAPH_NODES", 10**9)
    dense = features_and_gradients()
    assert len(gathered) == len(dense) > 10
    for g, d in zip(gathered, dense):
        torch.testing.assert_close(g, d)


def test_a_graph_layer_of_random_weights_gathers_what_the_dense_mean_averages():
    """The two neighbour means on random features and random neighbour slots
    (some empty, some naming a node twice): equal to float tolerance."""
    gen = torch.Generator().manual_seed(5)
    n, N, D, width = 7, 30, 5, 6
    neighbour = torch.randint(0, N, (n, N, D), generator=gen)
    linked = torch.rand(n, N, D, generator=gen) < 0.7
    share = linked.float() / linked.float().sum(dim=2, keepdim=True).clamp(min=1.0)
    h = torch.randn(n, N, width, generator=gen)
    dense = layout_policy._GraphEncoder._dense_mean(neighbour, share)(h)
    gathered = layout_policy._GraphEncoder._gathered_mean(neighbour, share)(h)
    torch.testing.assert_close(gathered, dense)
    assert dense.abs().sum() > 0


@pytest.mark.parametrize("name", GAMES)
def test_the_learners_per_row_convolutions_compute_the_same_network(name):
    """``LayoutTrunk.fixed_batches`` (the trainer's learner) runs the per-row
    layers as 1x1 convolutions: the same logits, values and gradients."""
    policy = policy_for(dragongym.get_game(name))
    obs = torch.as_tensor(positions(name, 3, steps=6)[0])

    def outputs_and_gradients():
        policy.zero_grad()
        logits = logits_of(policy, obs)
        values = policy.predict_values(obs)
        (logits.square().mean() + values.mean()).backward()
        return [logits.detach(), values.detach()] + [p.grad.clone() for p in policy.parameters()
                                                     if p.grad is not None]

    linear = outputs_and_gradients()
    policy.features_extractor.fixed_batches(True)
    assert any(getattr(m, "rowwise_convolution", False) for m in policy.modules())
    convolved = outputs_and_gradients()
    assert len(linear) == len(convolved)
    for a, b in zip(linear, convolved):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-5)


def test_a_playing_agent_follows_new_weights():
    """Passes without gradients keep the stem's constant part (static planes,
    cell embedding) between calls; new weights must replace it."""
    game = dragongym.get_game("dragon_pass")
    first, second = policy_for(game, seed=1), policy_for(game, seed=2)
    with torch.no_grad():
        second.features_extractor.boards[0].cell_embed.normal_()
    obs = positions("dragon_pass", 2, steps=2)[0]
    agent = PolicyAgent(first)
    before = agent.logits(obs)
    assert np.array_equal(agent.logits(obs), before)
    first.load_state_dict(second.state_dict())
    after = agent.logits(obs)
    assert not np.allclose(after, before)
    with torch.enable_grad():                                    # the uncached path
        np.testing.assert_allclose(after, logits_of(first, torch.as_tensor(obs)).detach().numpy(),
                                   rtol=1e-5, atol=1e-6)


# ------------------------------------------------------------------ training and reloading

def learner(name, options, num_envs, n_steps, seed=0):
    from sb3_contrib import MaskablePPO

    from dragongym.training.batched import BatchedLeagueEnv
    env = BatchedLeagueEnv(name, num_envs, options, weights={"random": 1.0}, seed=seed)
    return MaskablePPO(LayoutPolicy, env, n_steps=n_steps, batch_size=num_envs * n_steps // 2, n_epochs=1,
                       seed=seed, device="cpu",
                       policy_kwargs={"features_extractor_kwargs": {"game": name, "game_options": options}})


def test_maskable_ppo_trains_it_on_the_toy_game_without_a_masked_action(race):
    """MaskablePPO's rollouts go through the vector API's checks: a masked
    action would raise IllegalActionError there."""
    model = learner(race, {"num_players": 2}, 8, 16, seed=3)
    start = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(256)
    assert model.num_timesteps >= 256
    assert any(not torch.equal(a, b) for a, b in zip(start, model.policy.parameters()))


@pytest.fixture(scope="module")
def dragons_down_checkpoint(tmp_path_factory):
    """A LayoutPolicy trained briefly on 2-player, 1-turn Dragons Down, saved;
    ``(path, model)``."""
    model = learner("dragons_down", {"num_players": 2, "max_turns": 1}, 4, 8, seed=5)
    start = [p.detach().clone() for p in model.policy.parameters()]
    model.learn(32)
    assert model.num_timesteps >= 32
    assert any(not torch.equal(a, b) for a, b in zip(start, model.policy.parameters()))
    path = tmp_path_factory.mktemp("layout") / "dragons_down.zip"
    model.save(path)
    return path, model


def test_maskable_ppo_trains_it_on_dragons_down_without_a_masked_action(dragons_down_checkpoint):
    _, model = dragons_down_checkpoint
    assert isinstance(model.policy, LayoutPolicy) and model.policy.features_extractor.layout.graphs


def test_a_saved_model_reloads_as_an_agent_that_plays_legal_moves(dragons_down_checkpoint):
    path, model = dragons_down_checkpoint
    game = dragongym.get_game("dragons_down")
    agent = load_agent(str(path), game=game, deterministic=False)
    assert isinstance(agent, PolicyAgent) and type(agent.policy) is LayoutPolicy
    venv = dragongym.make_vec("dragons_down", 4, seed=11, num_players=2, max_turns=1)
    venv.reset()
    np.testing.assert_allclose(agent.logits(venv.obs), PolicyAgent(model.policy).logits(venv.obs),
                               rtol=1e-5, atol=1e-6)
    rng = np.random.default_rng(0)
    for _ in range(20):                      # the vector API raises on an action its mask forbids
        venv.step(agent.act_batch(venv.obs, venv.masks, rng))
    with pytest.raises(ValueError, match="trained on"):
        load_agent(str(path), game=dragongym.get_game("dragonhunt"))


def test_a_dragons_down_checkpoint_trained_with_the_dense_mean_acts_the_same(monkeypatch):
    """``training/checkpoints/dragons_down_2p_bc_v7_s0.zip`` was trained when
    the realm heard its neighbours through the dense averaging matrix: it loads
    as it was, and its logits and greedy actions by gathering are the dense
    ones (logits to float tolerance)."""
    from pathlib import Path

    path = Path(layout_policy.__file__).with_name("checkpoints") / "dragons_down_2p_bc_v7_s0.zip"
    game = dragongym.get_game("dragons_down")
    agent = load_agent(str(path), game=game)
    obs, masks = positions("dragons_down", 8, seed=4, steps=30)
    gathered = agent.logits(obs)
    greedy = agent.act_batch(obs, masks, np.random.default_rng(0))
    monkeypatch.setattr(layout_policy, "DENSE_GRAPH_NODES", 10**9)
    np.testing.assert_allclose(gathered, agent.logits(obs), rtol=1e-4, atol=1e-4)
    assert np.array_equal(agent.act_batch(obs, masks, np.random.default_rng(0)), greedy)


def test_the_board_stems_sum_is_the_same_in_place_and_into_new_tensors():
    """``_stem_sum`` (issue 30, round 2): in place (playing, without
    gradients) and into new tensors (the update, where an in-place op on the
    stem's view costs autograd a copy of the whole batch), the same values and
    the same gradients, bit for bit; and the pooled mean of a board is torch's."""
    gen = torch.Generator().manual_seed(2)
    stem = torch.randn(3, 4, 6, 5, generator=gen)              # the stem's output, as _rowwise leaves it
    constant = torch.randn(24, 5, generator=gen)
    context = torch.randn(3, 1, 5, generator=gen)
    results = []
    for in_place in (True, False):
        leaves = [t.clone().requires_grad_(True) for t in (stem, constant, context)]
        base = leaves[0] * 1.0                          # a fresh non-leaf, as the stem's output is
        x = layout_policy._stem_sum(base.reshape(3, 24, 5), leaves[1], leaves[2], in_place)   # a view of it
        (x * torch.arange(x.numel(), dtype=x.dtype).reshape(x.shape)).sum().backward()
        results.append([x.detach()] + [leaf.grad for leaf in leaves])
    assert (results[0][0] > 0).any() and (results[0][0] == 0).any()        # the ReLU cut some, kept some
    for a, b in zip(*results):
        assert torch.equal(a, b)
    h = torch.rand(3, 24, 5, generator=gen)
    assert torch.equal(layout_policy._masked_pool(h, None)[:, :5], h.mean(dim=1))
