"""What every game declares about itself, and the contract adapters rely on."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class GameSpec:
    """A game's declared type, in the spirit of OpenSpiel's GameType.

    Attributes:
        name: registry id, e.g. ``"dragonhunt"``.
        version: bumped whenever rules, observations or actions change.
        min_players, max_players: seats the rules allow.
        num_actions: size ``A`` of the fixed ``Discrete(A)`` action space.
        obs_size: length of the flat float32 observation vector.
        obs_layout: block name -> (offset, shape) inside the observation; a
            shape of rank 2 ``(cells, planes)`` marks a board block that a
            network may reshape into planes.
        action_layout: block name -> (offset, size) inside ``0..A-1``.
        max_decisions: upper bound on decisions in one game under the default
            truncation limit (used to size buffers and search horizons).
        chance: the rules roll dice / draw cards.
        hidden_information: some of the state is not visible to every player.
        reward_model: ``"zero_sum_terminal"`` etc., described in the game docs.
        board_shape: (columns, rows) of the printed board, for rendering.
    """

    name: str
    version: int
    min_players: int
    max_players: int
    num_actions: int
    obs_size: int
    obs_layout: dict = field(default_factory=dict)
    action_layout: dict = field(default_factory=dict)
    max_decisions: int = 0
    chance: bool = True
    hidden_information: bool = True
    reward_model: str = "zero_sum_terminal"
    board_shape: tuple = ()
