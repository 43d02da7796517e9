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

A rules function called from compiled code is compiled for that purpose
apart (``CalleeDispatcher``): lowered into a ``CalleeLibrary`` that LLVM
optimises function by function only, with no Python wrapper and no machine
code of its own. numba's own way finalises every compiled function as a
module with its whole callee tree linked in -- optimised at O3 and emitted as
machine code -- so a helper deep in the tree went through LLVM once per
ancestor: Dragons Down's core pushed 0.86M LLVM instructions through the
optimiser for a kernel of 95k, and its cold compile took 190.9 s (103.0 s of
them holding the LLVM lock). Here the function Python calls (an entry point:
``EntryLibrary``) links every library of its tree once, then optimises and
emits that one module, every callee internal to it (LLVM inlines one
called from a single place): 85.4 s, 24.5 s in LLVM
(``python -m dragongym.benchmarks.compile_profile --game dragons_down``,
2026-12-05; docs/performance.md has the steps). The same function called
from Python is compiled again as an entry point, with machine code and a
disk cache; a compiled caller never loads a callee from the disk cache, it
has the callee's code in its own.

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
import llvmlite.binding as ll
import numpy as np
from numba.core import cgutils, compiler, config, sigutils, types
from numba.core.codegen import JITCodeLibrary
from numba.core.compiler_lock import require_global_compiler_lock
from numba.core.dispatcher import _FunctionCompiler
from numba.core.environment import lookup_environment
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


class CalleeLibrary(JITCodeLibrary):
    """The LLVM code of a rules function compiled for its compiled callers:
    optimised function by function, never optimised as a module nor turned
    into machine code on its own. It carries the libraries it calls (the
    whole tree below it, flattened), and the ``EntryLibrary`` that finally
    links it optimises and emits the whole tree once."""

    def finalize(self):
        require_global_compiler_lock()
        self._raise_if_finalized()
        self._linking_libraries = _flatten(self._linking_libraries)
        self._finalized = True

    def own_module_for_linking(self):
        """This library's functions alone, for the ``EntryLibrary`` that links
        the whole tree (and makes them its own, internal)."""
        return self._final_module

    def _get_module_for_linking(self):
        # Linked by code that is not a rules entry point (a user's njit
        # function): hand it the whole tree in one module, exported as
        # ``linkonce_odr`` so that each such caller may hold its own copy.
        if self._shared_module is None:
            mod = self._final_module.clone()
            for library in self._linking_libraries:
                mod.link_in(_module_for_linking(library), preserve=True)
            for fn in mod.functions:
                if not fn.is_declaration and fn.linkage == ll.Linkage.external:
                    fn.linkage = "linkonce_odr"
            self._shared_module = mod
        return self._shared_module

    def get_pointer_to_function(self, name):
        raise RuntimeError(f"{self.name}: compiled for compiled callers only")


class EntryLibrary(JITCodeLibrary):
    """The LLVM code of a rules function called from Python: links every
    library of its call tree once, then optimises and emits the one module."""

    def finalize(self):
        require_global_compiler_lock()
        self._codegen._check_llvm_bugs()
        self._raise_if_finalized()
        callees = set()
        for library in _flatten(self._linking_libraries):
            self._reload_init.update(library._reload_init)
            self._final_module.link_in(_module_for_linking(library), preserve=True)
            if isinstance(library, CalleeLibrary):
                callees.update(fn.name for fn in library.get_defined_functions())
        # The callees are this module's own copies: internal, LLVM inlines one
        # called from a single place whatever its size (exported, it would be
        # kept whole and called) and drops what it inlined everywhere.
        for fn in self._final_module.functions:
            if fn.name in callees and not fn.is_declaration:
                fn.linkage = "internal"
        self._optimize_final_module()
        self._final_module.verify()
        self._finalize_final_module()
        # numba points each compiled function's environment at its Python
        # object when it emits that function; the callees were emitted here.
        for gv in self._final_module.global_variables:
            env = lookup_environment(gv.name) if gv.name.startswith("_ZN08NumbaEnv") else None
            if env is not None:
                self._codegen.set_env(gv.name, env)


def _module_for_linking(library):
    if isinstance(library, CalleeLibrary):
        return library.own_module_for_linking()
    return library._get_module_for_linking()


def _flatten(libraries):
    """``libraries`` and, for each ``CalleeLibrary`` among them, the tree it
    carries; each library once, in first-seen order."""
    seen, out = set(), []
    for library in libraries:
        below = library._linking_libraries if isinstance(library, CalleeLibrary) else ()
        for lib in (library, *below):
            if id(lib) not in seen:
                seen.add(id(lib))
                out.append(lib)
    return out


class RulesFlags(compiler.Flags):
    """numba's compile flags, compared cheaply. numba keys its cache of
    ``@overload`` implementations on the flags of the compile in progress and
    compares two ``Flags`` by building the dict of all their options (about
    fifty properties) on each side: 0.8M such dicts in a cold compile of
    Dragons Down, a tenth of its time (cProfile). Two flags with the same
    options set to the same values are equal without that; the hash is
    numba's own (the option names)."""

    def __eq__(self, other):
        if isinstance(other, compiler.Flags) and self._values == other._values:
            return True
        return super().__eq__(other)

    __hash__ = compiler.Flags.__hash__


def _remember_record_reprs():
    """Make numba's ``repr`` of a record type -- a text built field by field,
    which numba builds again each time it names an array of records -- be
    built once per record type: Dragons Down's state record has 150 fields,
    and 24k such texts took 6% of its cold compile (cProfile)."""
    build = types.Record.__repr__
    texts = {}

    def __repr__(self):
        text = texts.get(self.name)
        if text is None:
            text = texts[self.name] = build(self)
        return text
    types.Record.__repr__ = __repr__


_remember_record_reprs()


class _RulesCompiler(_FunctionCompiler):
    """numba's function compiler, lowering into an ``EntryLibrary`` or (for a
    compiled caller, ``callee=True``) a ``CalleeLibrary`` with no Python
    wrapper and no machine code."""

    def __init__(self, compiler, callee):
        super().__init__(compiler.py_func, compiler.targetdescr, compiler.targetoptions,
                         compiler.locals, compiler.pipeline_class)
        self.callee = callee

    def _compile_core(self, args, return_type):
        flags = RulesFlags()
        self.targetdescr.options.parse_as_flags(flags, self.targetoptions)
        codegen = self.targetdescr.target_context.codegen()
        name = self.py_func.__qualname__
        if self.callee:
            flags.no_compile = flags.no_cpython_wrapper = flags.no_cfunc_wrapper = True
            library = CalleeLibrary(codegen, name)
        else:
            library = EntryLibrary(codegen, name)
            library.enable_object_caching()          # so that the disk cache can save it
        cres = compiler.compile_extra(self.targetdescr.typing_context,
                                      self.targetdescr.target_context, self.py_func,
                                      args=args, return_type=return_type, flags=flags,
                                      locals=self.locals, library=library,
                                      pipeline_class=self.pipeline_class)
        if cres.typing_error is not None:
            raise cres.typing_error
        return cres


class CalleeKey:
    """Stands for one compiled version of a callee where numba's lowering
    looks a compiled function up (a Python entry point otherwise)."""

    def __init__(self, name, signature):
        self.name, self.signature = name, signature

    def __repr__(self):
        return f"<rules callee {self.name}{self.signature}>"


class CalleeDispatcher(CPUDispatcher):
    """The versions of a rules function its compiled callers call: never
    cached, never called from Python (see ``CalleeLibrary``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._compiler = _RulesCompiler(self._compiler, callee=True)

    def add_overload(self, cres):
        key = CalleeKey(self.py_func.__qualname__, cres.signature)
        cres = cres._replace(entry_point=key)
        self.targetctx.insert_user_function(key, cres.fndesc, [cres.library])
        self.overloads[tuple(cres.signature.args)] = cres


class RulesDispatcher(CPUDispatcher):
    """A CPU dispatcher whose compiled callers see one signature per function
    (see the module docstring) and call its ``CalleeDispatcher`` version."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._compiler = _RulesCompiler(self._compiler, callee=False)
        self._callee = None

    @property
    def callee(self):
        """The ``CalleeDispatcher`` compiling this function for compiled callers."""
        if self._callee is None:
            self._callee = CalleeDispatcher(py_func=self.py_func, locals=self.locals,
                                            targetoptions=self.targetoptions)
        return self._callee

    def get_call_template(self, args, kws):
        return self.callee.get_call_template(tuple(widen(a) for a in args),
                                             {k: widen(v) for k, v in kws.items()})

    def get_overload(self, sig):
        args, _ = sigutils.normalize_signature(sig)
        cres = self.callee.overloads.get(tuple(args))
        return cres.entry_point if cres is not None else super().get_overload(sig)


def rules_jit(func=None, *, nogil=False):
    """Compile ``func`` in nopython mode, cached on disk, with one compiled
    version per function for calls from other rules functions (its code then
    inlined or called as LLVM sees fit). A function of an ``NRT_FREE``
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
