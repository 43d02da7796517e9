"""``rules_jit``: a rules function called from compiled code is compiled into
its caller's code, and LLVM optimises and emits each entry point's whole tree
once (``envs/core/jit.py``)."""
import os
import subprocess
import sys
import textwrap

import pytest
from numba.core import config

pytestmark = pytest.mark.skipif(config.DISABLE_JIT, reason="about numba's compiled code")

TREE = '''
from numba import njit
from dragongym.envs.core.jit import rules_jit


@rules_jit
def leaf(x):
    return x * 2


@rules_jit
def mid(x):
    return leaf(x) + 1


@rules_jit
def top(x):
    return mid(x) + leaf(x)


@njit
def outside(x):                   # not a rules function: links mid's whole tree
    return mid(x)
'''

SCRIPT = """
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
from numba.core import codegen, event
from dragongym.envs.core.jit import CalleeLibrary, EntryLibrary, _flatten
import tree

optimised = []
whole_module_passes = codegen.CPUCodeLibrary._optimize_final_module
def counted(self):
    if self.name in ("top", "mid", "leaf"):      # not numba's own runtime library
        optimised.append(self.name)
    whole_module_passes(self)
codegen.CPUCodeLibrary._optimize_final_module = counted

compiled = []
class Compiles(event.Listener):
    def on_start(self, ev): pass
    def on_end(self, ev): compiled.append(ev.data["dispatcher"].py_func.__name__)
event.register("numba:compile", Compiles())

print(tree.top(np.int64(3)), tree.leaf(np.int64(5)), tree.outside(np.int64(4)))
print(sorted(compiled))
print(optimised)
if compiled:
    callee = tree.mid.callee.overloads
    print(len(callee), all(isinstance(c.library, CalleeLibrary) for c in callee.values()),
          isinstance(next(iter(tree.top.overloads.values())).library, EntryLibrary), len(tree.mid.overloads))
    entry = next(iter(tree.top.overloads.values())).library
    print(sorted(lib.name for lib in _flatten(entry._linking_libraries) if isinstance(lib, CalleeLibrary)))
"""


def run(tmp_path):
    (tmp_path / "tree.py").write_text(textwrap.dedent(TREE))
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def test_a_callee_is_compiled_into_its_caller_and_optimised_with_it_once(tmp_path):
    result, compiled, optimised, counts, linked = run(tmp_path)
    assert result == "13 10 9"
    # mid and leaf compiled once each for compiled callers, then leaf as an entry point
    assert compiled == str(sorted(["leaf", "leaf", "mid", "outside", "top"]))
    # LLVM's module passes ran twice: over top with its whole tree, over leaf alone
    assert optimised == str(["top", "leaf"])
    # one callee version of mid, compiled apart; mid itself never compiled as
    # an entry point; top linked the code of mid and of leaf, each once
    assert counts == "1 True True 0"
    assert linked == str(["leaf", "mid"])


def test_an_entry_point_loads_from_the_cache_with_its_callees_inside(tmp_path):
    run(tmp_path)
    result, compiled, optimised = run(tmp_path)[:3]
    # top and leaf load; only the uncached njit caller compiles again, with
    # the callee versions of the tree it calls, never optimised on their own
    assert (result, compiled, optimised) == ("13 10 9", str(["leaf", "mid", "outside"]), "[]")
