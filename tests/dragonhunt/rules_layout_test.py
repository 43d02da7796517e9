"""The rules package keeps the template's shape (envs/README.md): a module
imports only from the modules above it in the order below -- ``base`` first,
the driver last -- so the parts form no cycle and a rule's code is found in
its part; and only the driver holds entry points that loop over a batch."""
import ast
from pathlib import Path

import dragongym.envs.dragonhunt.rules as R

RULES_DIR = Path(R.__file__).parent
ORDER = ["base", "brimstone", "setup", "growth", "magesword", "combat", "players_round",
         "beings", "driver"]
"""What calls what: each part may call the parts before it (envs/README.md)."""


def sibling_imports(path):
    """The ``rules`` modules that the module at ``path`` imports (``from .x import ...``)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            out.add(node.module.split(".")[0])
    return out


def test_every_part_is_listed():
    modules = {p.stem for p in RULES_DIR.glob("*.py") if p.stem != "__init__"}
    assert modules == set(ORDER)


def test_each_part_imports_only_the_parts_above_it():
    for i, name in enumerate(ORDER):
        later = sibling_imports(RULES_DIR / f"{name}.py") - set(ORDER[:i])
        assert not later, f"rules/{name}.py imports {sorted(later)}, which come after it"


def test_only_the_driver_loops_over_a_batch():
    """The compiled entry points Python calls (``*_batch``) live in the driver."""
    for name in ORDER[:-1]:
        tree = ast.parse((RULES_DIR / f"{name}.py").read_text())
        batch = [f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
                 and f.name.endswith("_batch")]
        assert not batch, f"rules/{name}.py defines entry points {batch}; they belong in driver.py"
    driver = ast.parse((RULES_DIR / "driver.py").read_text())
    names = {f.name for f in ast.walk(driver) if isinstance(f, ast.FunctionDef)}
    assert {"reset_batch", "step_batch", "mask_batch"} <= names
