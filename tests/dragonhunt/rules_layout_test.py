"""The rules package keeps the template's shape (envs/README.md): a module
imports only from the modules above it in the order below -- ``base`` first,
the driver last -- so the parts form no cycle and a rule's code is found in
its part; one compiled entry point, ``kernel.run_batch``, loops over a batch
for the adapters; and the compile layout's rules hold."""
import ast
from pathlib import Path

import dragongym.envs.dragonhunt.rules as R
from tests.core.datafile_edits import sibling_imports

RULES_DIR = Path(R.__file__).parent
GAME_DIR = RULES_DIR.parent
ORDER = ["base", "brimstone", "setup", "growth", "magesword", "combat", "players_round",
         "beings", "driver"]
"""What calls what: each part may call the parts before it (envs/README.md)."""


def test_every_part_is_listed():
    modules = {p.stem for p in RULES_DIR.glob("*.py") if p.stem != "__init__"}
    assert modules == set(ORDER)


def test_each_part_imports_only_the_parts_above_it():
    for i, name in enumerate(ORDER):
        later = sibling_imports(RULES_DIR / f"{name}.py") - set(ORDER[:i])
        assert not later, f"rules/{name}.py imports {sorted(later)}, which come after it"


def test_only_the_kernel_loops_over_a_batch():
    """The adapters reach the compiled core through one entry point,
    ``kernel.run_batch`` (envs/README.md, "Compile layout"): no rules part
    defines a batched (``*_batch``) function, and every batched operation of
    the game class goes through ``_run``."""
    for name in ORDER:
        tree = ast.parse((RULES_DIR / f"{name}.py").read_text())
        batch = [f.name for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
                 and f.name.endswith("_batch")]
        assert not batch, f"rules/{name}.py defines batched entry points {batch}; use kernel.run_batch"
    kernel = ast.parse((GAME_DIR / "kernel.py").read_text())
    assert [f.name for f in kernel.body if isinstance(f, ast.FunctionDef)] == ["run_batch"]
    game_src = (GAME_DIR / "game.py").read_text()
    for method in ("reset", "step", "legal_mask", "observe", "vec_step", "vec_observe"):
        body = game_src.split(f"    def {method}(self", 1)[1].split("\n    def ", 1)[0]
        assert f"CALLS.{method.replace('vec_observe', 'observe')}(" in body, f"Dragonhunt.{method} bypasses run_batch"


# ------------------------------------------------------------------ compile layout (envs/README.md)
COMPILED = sorted(RULES_DIR.glob("*.py")) + [GAME_DIR / f"{m}.py" for m in
                                              ("observe", "invariants", "playout", "kernel")]
"""Every module of the game that holds compiled code."""


def compiled_functions():
    """name -> (module, decorator source) of every function decorated in ``COMPILED``."""
    out = {}
    for path in COMPILED:
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.decorator_list:
                out[node.name] = (path.name, ast.unparse(node.decorator_list[0]))
    return out


def test_every_compiled_function_uses_rules_jit():
    """``rules_jit`` (envs/core/jit.py) compiles each function once whatever
    integer types and constants its callers pass; a bare ``njit`` would again
    compile one copy per caller's argument types."""
    bare = {n: d for n, (m, d) in compiled_functions().items() if not d.startswith("rules_jit")}
    assert not bare, f"compiled with something other than rules_jit: {bare}"
