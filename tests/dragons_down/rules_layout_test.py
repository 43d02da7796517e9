"""Dragons Down's rules package keeps the template's shape (envs/README.md):
each part imports only the parts above it in the order of ``rules/__init__``
-- ``base`` first, the driver last -- so a rule's code is found in its part
and the parts form no cycle; every compiled function is ``rules_jit`` (one
compiled copy whatever integer types its callers pass); and the adapters
reach the core through one entry point, ``kernel.run_batch``."""
import ast
from pathlib import Path

import dragongym.envs.dragons_down.rules as R
from tests.core.datafile_edits import sibling_imports

RULES_DIR = Path(R.__file__).parent
GAME_DIR = RULES_DIR.parent
ORDER = [node.module for node in ast.parse((RULES_DIR / "__init__.py").read_text()).body
         if isinstance(node, ast.ImportFrom)]
"""The parts in the order ``rules/__init__`` imports them: what calls what."""
COMPILED = sorted(RULES_DIR.glob("*.py")) + [GAME_DIR / "observe.py", GAME_DIR / "kernel.py"]


def test_every_part_is_listed_in_order():
    assert ORDER[0] == "base" and ORDER[-1] == "driver"
    assert set(ORDER) == {p.stem for p in RULES_DIR.glob("*.py") if p.stem != "__init__"}


def test_each_part_imports_only_the_parts_above_it():
    for i, name in enumerate(ORDER):
        later = sibling_imports(RULES_DIR / f"{name}.py") - set(ORDER[:i])
        assert not later, f"rules/{name}.py imports {sorted(later)}, which come after it"


def test_every_compiled_function_uses_rules_jit():
    for path in COMPILED:
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.FunctionDef) and node.decorator_list:
                deco = ast.unparse(node.decorator_list[0])
                assert deco.startswith("rules_jit"), f"{path.name}::{node.name} is compiled with {deco}"


def test_only_the_kernel_loops_over_a_batch():
    for path in COMPILED[:-1]:
        batch = [f.name for f in ast.walk(ast.parse(path.read_text()))
                 if isinstance(f, ast.FunctionDef) and f.name.endswith("_batch")]
        assert not batch, f"{path.name} defines batched entry points {batch}; use kernel.run_batch"
    kernel = ast.parse((GAME_DIR / "kernel.py").read_text())
    assert [f.name for f in kernel.body if isinstance(f, ast.FunctionDef)] == ["run_batch"]
    game_src = (GAME_DIR / "game.py").read_text()
    for method in ("reset", "step", "legal_mask", "observe", "vec_step", "vec_observe"):
        body = game_src.split(f"    def {method}(self", 1)[1].split("\n    def ", 1)[0]
        assert "_run(K.OP_" in body or "K.run_batch(" in body or "self.observe(" in body, \
            f"DragonsDown.{method} bypasses run_batch"
