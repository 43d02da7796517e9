"""``rules_jit``: the decorator of every compiled function of a rules core.

It is ``numba.njit(cache=True)`` with one difference that decides how long a
core takes to compile: when one compiled function calls another, numba
compiles the callee once per distinct tuple of argument *types*, and a module
constant (``PH_MOVE_DEST``) is typed as its own literal type while a record
field is ``int8``, a cell ``int16`` and a loop index ``int64``. A helper such as
``pose(S, b, PH_X, seat)`` was so compiled 32 times (one per decision code),
``set_loc`` 13 times, and each copy is finalised by LLVM with its whole callee
tree linked in: a third of Dragonhunt's cold compile went to such copies.

A call between ``rules_jit`` functions therefore types every integer argument
as ``int64`` (``uint64`` stays: seeds and random streams need its bits) and
every literal as its plain type; numba inserts the widening casts at the call.
Each function compiles once, whatever its callers pass. Values are unchanged:
an ``int8`` or ``int16`` widens exactly, and arithmetic inside the callee now
happens in ``int64``, as it does in plain Python under ``NUMBA_DISABLE_JIT=1``.
Calls from Python are typed as numba always types them.

Use it bare (``@rules_jit``) or with ``nogil=True`` for a kernel that Python
threads run side by side.
"""
from numba.core import config, types
from numba.core.registry import CPUDispatcher


def widen(ty):
    """The type a call between rules functions passes for an argument of type ``ty``."""
    ty = types.unliteral(ty)
    if isinstance(ty, types.Integer) and not (not ty.signed and ty.bitwidth == 64):
        return types.int64
    return ty


class RulesDispatcher(CPUDispatcher):
    """A CPU dispatcher whose compiled callers see one signature per function
    (see the module docstring)."""

    def get_call_template(self, args, kws):
        return super().get_call_template(tuple(widen(a) for a in args),
                                         {k: widen(v) for k, v in kws.items()})


def rules_jit(func=None, *, nogil=False, inline=False):
    """Compile ``func`` in nopython mode, cached on disk, with one compiled
    version per function for calls from other rules functions. ``inline``:
    numba inlines the body into its compiled caller instead of compiling it
    apart (for a function with one caller). Under ``NUMBA_DISABLE_JIT=1``
    returns ``func`` itself."""
    def wrap(f):
        if config.DISABLE_JIT:
            return f
        options = {"nopython": True}
        if nogil:
            options["nogil"] = True
        if inline:
            options["inline"] = "always"
        disp = RulesDispatcher(py_func=f, locals={}, targetoptions=options)
        disp.enable_caching()
        return disp
    return wrap if func is None else wrap(func)
