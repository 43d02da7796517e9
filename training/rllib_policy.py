"""Policies trained by :mod:`dragongym.training.rllib_selfplay`, playable without Ray.

The self-play script exports its learner as ``<out-dir>/policy.rllib.pt``: a
``torch.save`` dictionary (tensors and plain values only, read with
``weights_only=True``: no class is unpickled, so module renames cannot break
it) with the network's weights and what rebuilds it (the game, its options,
the seats' roles, layer sizes). Loading it needs torch only, not Ray:

    import dragongym
    import dragongym.training.rllib_policy  # registers the ".rllib.pt" checkpoint loader
    from dragongym.agents import make_agent
    agent = make_agent("runs/rllib/policy.rllib.pt", game=dragongym.get_game(name))

so ``dragongym eval --agents runs/rllib/policy.rllib.pt,random`` works once
this module is imported (or the loader is registered by name:
``register_loader(".rllib.pt", "dragongym.training.rllib_policy:load_agent")``). The
double suffix keeps these files apart from other torch checkpoints: a loader
registered for plain ``.pt`` must not be handed an RLlib export.

The network is the same object the RLlib module
(``dragongym.training.rllib_selfplay.ActionMaskingTorchModule``) trains, by
default :class:`LayoutPolicyNet`, the self-play trainer's own network
(``training/layout_policy.py``: one policy class for every game, built from
the layout of its spec), or with ``--network mlp`` :class:`MaskedPolicyNet`,
policy and value MLPs over the flat observation. Either way illegal logits
are replaced by the float32 minimum (probability exactly 0, no ``-inf``
arithmetic). Exports of format version 1 (MLPs, before the layout network)
still load.
"""
from pathlib import Path

import numpy as np
import torch
from torch import nn

from dragongym.agents.base import Agent, register_loader

SUFFIX = ".rllib.pt"
"""File suffix of exported policies (the :func:`dragongym.agents.base.register_loader` key)."""
FORMAT = "dragongym.rllib_policy"
FORMAT_VERSION = 2
DEFAULT_HIDDEN = (256, 256)
MASKED_LOGIT = float(torch.finfo(torch.float32).min)
"""The logit of an illegal action: softmax gives it probability exactly 0."""


def _mlp(in_size, hidden, out_size, out_gain):
    layers = []
    size = in_size
    for width in hidden:
        linear = nn.Linear(size, width)
        nn.init.orthogonal_(linear.weight, gain=np.sqrt(2))
        nn.init.zeros_(linear.bias)
        layers += [linear, nn.Tanh()]
        size = width
    head = nn.Linear(size, out_size)
    nn.init.orthogonal_(head.weight, gain=out_gain)
    nn.init.zeros_(head.bias)
    layers.append(head)
    return nn.Sequential(*layers)


class MaskedPolicyNet(nn.Module):
    """Actor-critic MLPs over a flat observation, with action masking.

    Args:
        obs_size: length of the float32 observation.
        num_actions: size ``A`` of the ``Discrete(A)`` action space.
        hidden: widths of the hidden layers (tanh), the same for both nets.
    """

    def __init__(self, obs_size, num_actions, hidden=DEFAULT_HIDDEN):
        super().__init__()
        self.obs_size = int(obs_size)
        self.num_actions = int(num_actions)
        self.hidden = tuple(int(h) for h in hidden)
        # small policy-head gain: a near-uniform policy over the legal actions at first
        self.pi = _mlp(self.obs_size, self.hidden, self.num_actions, out_gain=0.01)
        self.vf = _mlp(self.obs_size, self.hidden, 1, out_gain=1.0)

    def features(self, obs):
        """What both heads read: the observation itself (the MLPs share nothing)."""
        return obs

    def logits(self, obs, mask, features=None):
        """Masked logits ``[B, A]``: illegal entries (``mask == 0``) become :data:`MASKED_LOGIT`."""
        raw = self.pi(obs)
        return torch.where(mask > 0, raw, torch.full_like(raw, MASKED_LOGIT))

    def value(self, obs, features=None):
        """State values ``[B]`` from the observation alone."""
        return self.vf(obs).squeeze(-1)


class LayoutPolicyNet(nn.Module):
    """The self-play trainer's network (:class:`dragongym.training.layout_policy.LayoutTrunk`
    and ``LayoutPolicy``'s heads: convolutions over grids, message passing over
    graphs, per-row encoders and pointer logits), with :class:`MaskedPolicyNet`'s
    interface, so RLlib trains the same policy class as ``selfplay``.

    Args:
        game: registered game id.
        game_options: the options of the configuration it plays.
        obs_size, num_actions: that configuration's sizes.
        channels, blocks, hidden: as for ``LayoutTrunk``.
    """

    def __init__(self, game, game_options, obs_size, num_actions, channels=8, blocks=1, hidden=128):
        super().__init__()
        from gymnasium import spaces
        from dragongym.training.layout_policy import LayoutTrunk, init_layout_weights
        from dragongym.training.policy import _ActionHead, _ValueHead

        self.obs_size, self.num_actions = int(obs_size), int(num_actions)
        self.game, self.game_options = str(game), dict(game_options or {})
        self.channels, self.blocks, self.hidden = int(channels), int(blocks), int(hidden)
        space = spaces.Box(-np.inf, np.inf, (self.obs_size,), np.float32)
        self.trunk = LayoutTrunk(space, self.game, self.game_options, channels=self.channels,
                                 blocks=self.blocks, hidden=self.hidden)
        pointer_actions = tuple((p.offset, p.size) for p in self.trunk.layout.pointers)
        self.action_head = _ActionHead(pointer_actions, self.hidden, self.num_actions)
        self.value_head = _ValueHead(self.trunk.pointer_outputs, self.hidden)
        init_layout_weights(self.trunk, self.action_head, self.value_head)     # LayoutPolicy's own

    def features(self, obs):
        """The trunk's output ``[B, pointer logits + hidden]``, shared by both heads."""
        return self.trunk(obs)

    def logits(self, obs, mask, features=None):
        """Masked logits ``[B, A]``: illegal entries (``mask == 0``) become :data:`MASKED_LOGIT`."""
        raw = self.action_head(self.features(obs) if features is None else features)
        return torch.where(mask > 0, raw, torch.full_like(raw, MASKED_LOGIT))

    def value(self, obs, features=None):
        """State values ``[B]``."""
        return self.value_head(self.features(obs) if features is None else features).squeeze(-1)


NETWORKS = ("layout", "mlp")
"""What an export's ``network`` field may name: :class:`LayoutPolicyNet` or :class:`MaskedPolicyNet`."""


def build_net(network, *, game, game_options, obs_size, num_actions, hidden=DEFAULT_HIDDEN, channels=8,
              blocks=1, latent=128):
    """The network an RLlib module trains and an export rebuilds: ``layout``
    (:class:`LayoutPolicyNet`, of ``channels``, ``blocks``, ``latent``) or
    ``mlp`` (:class:`MaskedPolicyNet` of ``hidden`` widths)."""
    if network == "layout":
        return LayoutPolicyNet(game, game_options, obs_size, num_actions, channels, blocks, latent)
    if network == "mlp":
        return MaskedPolicyNet(obs_size, num_actions, hidden)
    raise ValueError(f"network must be one of {', '.join(NETWORKS)}, got {network!r}")


class RLlibPolicyAgent(Agent):
    """An :class:`dragongym.agents.base.Agent` playing a :class:`MaskedPolicyNet`.

    Args:
        net: the network.
        deterministic: play the most probable legal action (default), or sample
            from the masked policy with the caller's generator.
        name: label in match tables.
    """

    def __init__(self, net, deterministic=True, name="rllib"):
        self.net = net.eval()
        self.deterministic = bool(deterministic)
        self.name = name

    def act_batch(self, obs, mask, rng):
        mask = np.asarray(mask)
        if not (mask != 0).any(axis=1).all():
            raise ValueError("no legal action in some row of the mask")
        with torch.no_grad():
            logits = self.net.logits(torch.as_tensor(np.asarray(obs, dtype=np.float32)),
                                     torch.as_tensor(mask.astype(np.float32)))
        if self.deterministic:
            return logits.argmax(dim=1).numpy().astype(np.int64)
        legal = mask != 0
        probs = torch.softmax(logits, dim=1).numpy().astype(np.float64) * legal
        cumulative = np.cumsum(probs, axis=1)
        u = rng.random(len(probs)) * cumulative[:, -1]
        # the first index whose cumulative mass passes u has positive mass, so is legal
        actions = np.argmax(cumulative > u[:, None], axis=1)
        underflow = cumulative[:, -1] <= 0
        actions[underflow] = np.argmax(legal[underflow], axis=1)
        return actions.astype(np.int64)

    def act(self, obs, mask, rng):
        return int(self.act_batch(np.asarray(obs)[None], np.asarray(mask)[None], rng)[0])


def save_policy(path, state_dict, *, game, spec, game_options, hidden, network="mlp", layout=None,
                game_id=None, extra=None):
    """Write an exported policy (see the module docstring).

    Args:
        path: file to write (conventionally ending in :data:`SUFFIX`).
        state_dict: the :class:`MaskedPolicyNet` weights (tensors or arrays).
        game: the :class:`dragongym.envs.core.game.Game` it plays.
        spec: the :class:`dragongym.envs.core.spec.GameSpec` of the
            configuration it was trained on (seats, sizes).
        game_options: the keyword options of that configuration.
        hidden: hidden-layer widths of the MLP network.
        network: ``layout`` or ``mlp`` (:func:`build_net`).
        layout: ``{"channels", "blocks", "latent"}`` of a layout network.
        game_id: the id the game was trained under (a registered name or a
            ``module:ATTRIBUTE`` path; default its name): a layout network
            reads the game's spec through it when it is rebuilt.
        extra: more JSON-like facts to keep (iteration, steps sampled...).
    """
    payload = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game": game.name,
        "game_id": str(game_id or game.name),
        "game_version": int(spec.version),
        "roles": [str(r) for r in spec.roles],
        "num_players": int(spec.num_seats),
        "game_options": dict(game_options),
        "obs_size": int(spec.obs_size),
        "num_actions": int(spec.num_actions),
        "hidden": [int(h) for h in hidden],
        "network": str(network),
        "layout": {k: int(v) for k, v in (layout or {}).items()},
        "state_dict": {k: torch.as_tensor(np.asarray(v)).clone() for k, v in state_dict.items()},
        "extra": dict(extra or {}),
    }
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    torch.save(payload, tmp)
    tmp.replace(path)
    return path


def load_policy(path):
    """``(net, info)`` from an exported policy file; ``info`` is the saved
    dictionary without the weights."""
    payload = torch.load(path, map_location="cpu", weights_only=True)
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise ValueError(f"{path}: not a dragongym RLlib policy export")
    if payload.get("format_version") not in (1, FORMAT_VERSION):
        raise ValueError(f"{path}: export format version {payload.get('format_version')}, "
                         f"this code reads 1 and {FORMAT_VERSION}")
    # version 1 exports are MLPs; version 2 names its network
    net = build_net(payload.get("network", "mlp"), game=payload.get("game_id", payload["game"]),
                    game_options=payload["game_options"],
                    obs_size=payload["obs_size"], num_actions=payload["num_actions"], hidden=payload["hidden"],
                    **payload.get("layout", {}))
    net.load_state_dict(payload["state_dict"])
    net.eval()
    info = {k: v for k, v in payload.items() if k != "state_dict"}
    return net, info


def load_agent(path, game=None, deterministic=True, **_):
    """The :func:`dragongym.agents.base.register_loader` loader for ``*.rllib.pt`` files.

    Raises a ValueError if ``game`` is not the game it was trained on, or the
    spec of its training configuration has other sizes than the network.
    """
    net, info = load_policy(path)
    if game is not None:
        if info["game"] != game.name:
            raise ValueError(f"{path} was trained on {info['game']!r}, not {game.name!r}")
        spec = game.spec_for(game.config_from_json(info["game_options"]))
        if (spec.obs_size, spec.num_actions) != (info["obs_size"], info["num_actions"]):
            raise ValueError(f"{path} was trained on {info['game']} (obs {info['obs_size']}, "
                             f"{info['num_actions']} actions), not {spec.name} "
                             f"(obs {spec.obs_size}, {spec.num_actions} actions)")
    return RLlibPolicyAgent(net, deterministic=deterministic, name=f"rllib:{Path(path).name}")


register_loader(SUFFIX, load_agent)
