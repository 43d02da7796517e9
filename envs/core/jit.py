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

The functions of the packages in ``NRT_FREE`` compile without numba's
reference counting (NRT). With it, every compiled call that passes the state
array ``S`` increments and decrements the array's reference count with atomic
instructions on entry and exit: in Dragons Down's core, where a decision runs
through hundreds of small helpers, those two functions took 55% of the run
time (``perf`` over the vector API's random play, 2026-12-05). Such a
function may not allocate: a scratch array is ``local_array(n, dtype)`` (or
``local_zeros``), ``n`` a constant, which lives on the stack of the compiled
function it appears in (numba's ``np.empty`` outside the JIT) -- so it is
never returned; a function that fills an array takes it as an argument.
"""
import numpy as np
from numba.core import cgutils, config, types
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic

NRT_FREE = ("dragongym.envs.dragons_down.", "dragongym.envs.core.")
"""Packages whose compiled functions run without reference counting (see the
module docstring); the other games' cores still allocate with numba's NRT."""


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
    apart (for a function with one caller). A function of an ``NRT_FREE``
    package compiles without reference counting. Under
    ``NUMBA_DISABLE_JIT=1`` returns ``func`` itself."""
    def wrap(f):
        if config.DISABLE_JIT:
            return f
        options = {"nopython": True}
        if f.__module__.startswith(NRT_FREE):
            options["_nrt"] = False
        if nogil:
            options["nogil"] = True
        if inline:
            options["inline"] = "always"
        disp = RulesDispatcher(py_func=f, locals={}, targetoptions=options)
        disp.enable_caching()
        return disp
    return wrap if func is None else wrap(func)


def _stack_array(typingctx, n, dtype, zero):
    """Typing and code of ``local_array``: ``n`` elements of ``dtype`` in one
    ``alloca`` of the function's entry block (so a loop reuses them)."""
    if not isinstance(n, types.IntegerLiteral):
        return None                          # numba then says no local_array takes a variable size
    if isinstance(dtype, types.NumberClass):
        elem = dtype.instance_type
    elif isinstance(dtype, types.DType):
        elem = dtype.dtype
    else:
        raise TypeError(f"local_array: the dtype must be a numpy scalar type such as np.int64, got {dtype}")
    arrty = types.Array(elem, 1, "C")
    size = n.literal_value

    def codegen(context, builder, sig, args):
        llty = context.get_data_type(elem)
        ptr = cgutils.alloca_once(builder, llty, size=size)
        itemsize = context.get_abi_sizeof(llty)
        if zero:
            cgutils.memset(builder, ptr, context.get_constant(types.intp, size * itemsize), 0)
        ary = context.make_array(arrty)(context, builder)
        context.populate_array(ary, data=ptr, shape=[context.get_constant(types.intp, size)],
                               strides=[context.get_constant(types.intp, itemsize)],
                               itemsize=context.get_constant(types.intp, itemsize), meminfo=None)
        return ary._getvalue()
    return arrty(n, dtype), codegen


if config.DISABLE_JIT:
    def local_array(n, dtype):
        """A scratch array of ``n`` elements, uninitialised (``np.empty``)."""
        return np.empty(n, dtype=dtype)

    def local_zeros(n, dtype):
        """A scratch array of ``n`` zeros (``np.zeros``)."""
        return np.zeros(n, dtype=dtype)
else:
    @intrinsic(prefer_literal=True)
    def local_array(typingctx, n, dtype):
        """A scratch array of ``n`` (constant) elements on the compiled
        function's stack, uninitialised, like ``np.empty``: valid until that
        function returns, so never returned itself."""
        return _stack_array(typingctx, n, dtype, False)

    @intrinsic(prefer_literal=True)
    def local_zeros(typingctx, n, dtype):
        """``local_array`` filled with zeros, like ``np.zeros``."""
        return _stack_array(typingctx, n, dtype, True)
