"""Static features served once in ``GameSpec.constants`` beside a grid's cells
or an entities block's rows, and the layout checks that refuse a mismatch."""
import numpy as np
import pytest

from dragongym.envs.core.spec import ActionBlock, GameSpec, ObsBlock


def spec_with(block, constants):
    return GameSpec(name="toy", version=1, roles=("a", "b"), num_actions=2, obs_size=block.size,
                    obs_layout={"rows": block}, action_layout={"x": ActionBlock(0, 2)}, constants=constants)


def test_an_entities_block_may_name_static_features_of_its_rows():
    table = np.zeros((3, 5), np.float32)
    spec = spec_with(ObsBlock(0, (3, 4), kind="entities", valid_column=0, static="kinds"), {"kinds": table})
    assert spec.constants[spec.obs_layout["rows"].static].shape == (3, 5)


@pytest.mark.parametrize("table", [np.zeros((4, 5), np.float32), np.zeros(3, np.float32), None])
def test_static_features_of_another_row_count_are_refused(table):
    constants = {} if table is None else {"kinds": table}
    with pytest.raises(ValueError, match="static features 'kinds'"):
        spec_with(ObsBlock(0, (3, 4), kind="entities", valid_column=0, static="kinds"), constants)


def test_a_flat_block_has_no_static_features():
    with pytest.raises(ValueError, match="only grid and entities blocks"):
        spec_with(ObsBlock(0, (4,), static="kinds"), {"kinds": np.zeros((4, 1), np.float32)})
