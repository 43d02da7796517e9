"""The template's shape of a rules package (envs/README.md), checked the same
way for every game that follows it: each part imports only the parts above it
in the order of ``rules/__init__`` -- ``base`` first, the driver last -- so a
rule's code is found in its part and the parts form no cycle; every compiled
function is ``rules_jit`` (one compiled copy whatever integer types its
callers pass); and the adapters reach the core through one entry point,
``kernel.run_batch``. A game's ``rules_layout_test.py`` calls these with its
rules package."""
import ast
from pathlib import Path

from tests.core.datafile_edits import sibling_imports


class RulesLayout:
    """The files of one game's rules core (``rules``: the imported package)."""

    def __init__(self, rules):
        self.rules_dir = Path(rules.__file__).parent
        self.game_dir = self.rules_dir.parent
        self.order = [node.module for node in ast.parse((self.rules_dir / "__init__.py").read_text()).body
                      if isinstance(node, ast.ImportFrom)]
        self.compiled = sorted(self.rules_dir.glob("*.py")) + [self.game_dir / "observe.py",
                                                                  self.game_dir / "kernel.py"]

    def check_every_part_is_listed_in_order(self):
        assert self.order[0] == "base" and self.order[-1] == "driver"
        assert set(self.order) == {p.stem for p in self.rules_dir.glob("*.py") if p.stem != "__init__"}

    def check_each_part_imports_only_the_parts_above_it(self):
        for i, name in enumerate(self.order):
            later = sibling_imports(self.rules_dir / f"{name}.py") - set(self.order[:i])
            assert not later, f"rules/{name}.py imports {sorted(later)}, which come after it"

    def check_every_compiled_function_uses_rules_jit(self):
        for path in self.compiled:
            for node in ast.parse(path.read_text()).body:
                if isinstance(node, ast.FunctionDef) and node.decorator_list:
                    deco = ast.unparse(node.decorator_list[0])
                    assert deco.startswith("rules_jit"), f"{path.name}::{node.name} is compiled with {deco}"

    def check_only_the_kernel_loops_over_a_batch(self, game_class):
        for path in self.compiled[:-1]:
            batch = [f.name for f in ast.walk(ast.parse(path.read_text()))
                     if isinstance(f, ast.FunctionDef) and f.name.endswith("_batch")]
            assert not batch, f"{path.name} defines batched entry points {batch}; use kernel.run_batch"
        kernel = ast.parse((self.game_dir / "kernel.py").read_text())
        assert [f.name for f in kernel.body if isinstance(f, ast.FunctionDef)] == ["run_batch"]
        game_src = (self.game_dir / "game.py").read_text()
        for method in ("reset", "step", "legal_mask", "observe", "vec_step", "vec_observe"):
            body = game_src.split(f"    def {method}(self", 1)[1].split("\n    def ", 1)[0]
            # every batched call is an op of the kernel, through envs/core/kernel_calls.py
            assert f"CALLS.{method.replace('vec_observe', 'observe')}(" in body, \
                f"{game_class}.{method} bypasses run_batch"
