"""Dragon Pass's rules package keeps the template's shape (envs/README.md; the
checks are tests/core/rules_layout.py's): each part imports only the parts
above it in the order of ``rules/__init__``, every compiled function is
``rules_jit``, and the adapters reach the core through one entry point,
``kernel.run_batch``."""
import dragongym.envs.dragon_pass.rules as R
from tests.core.rules_layout import RulesLayout

LAYOUT = RulesLayout(R)


def test_every_part_is_listed_in_order():
    LAYOUT.check_every_part_is_listed_in_order()


def test_each_part_imports_only_the_parts_above_it():
    LAYOUT.check_each_part_imports_only_the_parts_above_it()


def test_every_compiled_function_uses_rules_jit():
    LAYOUT.check_every_compiled_function_uses_rules_jit()


def test_only_the_kernel_loops_over_a_batch():
    LAYOUT.check_only_the_kernel_loops_over_a_batch("DragonPass")
