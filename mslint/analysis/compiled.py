"""How graph code compiles, beyond which code is graph code (mslint.analysis.scope):
which values are evidently tensors, how many times graph mode unrolls a loop,
which Cell or @jit function a line is compiled in, what a call site compiles, and
which code graph mode never compiles (the branch of ``if self.training:`` the
programs never take, a Cell called only there).
(Which devices the programs may run on is the program model's: mslint.analysis.devices.)

Used by checkers/graph_compile.py and checkers/graph_performance.py (issue 28),
and by mslint.run.engine for each finding's compiled unit (``mslint --graph-report``).
"""

from __future__ import annotations


import astroid
from astroid import nodes

from mslint.knowledge import apis
from mslint.analysis import astutil, programs, resolve, scope, sites, values
from mslint.analysis.project import module_name, real_path

_NESTED_SCOPES = (nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)

# ---------------------------------------------------------------------------
# Values that are evidently tensors
# ---------------------------------------------------------------------------

_TENSOR_EVIDENCE = apis.TENSOR_VALUE_METHODS | frozenset(apis.DTYPE_CAST_METHODS) | {"astype"}


def evident_tensors(func: nodes.NodeNG) -> frozenset[str]:
    """Parameters of ``func`` its code uses as tensors (``x.sum()``,
    ``x.astype(...)``, ``x.shape``): a Python number has no such method or
    attribute, so they are tensors wherever they are read
    (mslint.analysis.values is silent on a bare parameter, which may be an int)."""
    if not isinstance(func, nodes.FunctionDef):
        return frozenset()
    params = {param.name for param in astutil.all_params(func)}
    found = set()
    for attribute in func.nodes_of_class(nodes.Attribute):
        receiver = attribute.expr
        if not (isinstance(receiver, nodes.Name) and receiver.name in params):
            continue
        called = isinstance(attribute.parent, nodes.Call) and attribute.parent.func is attribute
        if (called and attribute.attrname in _TENSOR_EVIDENCE) or attribute.attrname in ("shape", "dtype", "ndim"):
            found.add(receiver.name)
    return frozenset(found)


def tensorish(
    expr: nodes.NodeNG, known: values.FunctionValues, evident: frozenset[str], depth: int = 0,
    visiting: frozenset[str] = frozenset(),
) -> bool:
    """Certainly a tensor: as mslint.analysis.values says, or a parameter the
    function uses as a tensor (``evident``) and rebinds only to tensors,
    arithmetic and methods on one."""
    if known.is_tensor(expr):
        return True
    if depth > 8:
        return False
    if isinstance(expr, nodes.Name):
        if expr.name in visiting:
            return True  # ``x = x * 2``: as the other bindings say
        if expr.name not in evident:
            return False
        bindings = expr.frame().locals.get(expr.name, ())
        inner = visiting | {expr.name}
        return bool(bindings) and all(
            isinstance(binding.parent, nodes.Arguments)
            or (
                isinstance(binding, nodes.AssignName)
                and (
                    (isinstance(binding.parent, nodes.Assign) and binding.parent.targets == [binding])
                    or isinstance(binding.parent, nodes.AugAssign)
                )
                and tensorish(binding.parent.value, known, evident, depth + 1, inner)
            )
            for binding in bindings
        )
    if isinstance(expr, nodes.BinOp):
        return tensorish(expr.left, known, evident, depth + 1, visiting) \
            or tensorish(expr.right, known, evident, depth + 1, visiting)
    if isinstance(expr, nodes.UnaryOp):
        return tensorish(expr.operand, known, evident, depth + 1, visiting)
    if isinstance(expr, nodes.Call) and isinstance(expr.func, nodes.Attribute):
        method = expr.func.attrname
        if method in apis.STATIC_TENSOR_METHODS or method in apis.HOST_COPY_METHODS:
            return False
        if resolve.qualified_name(expr.func) is None:
            return tensorish(expr.func.expr, known, evident, depth + 1, visiting)
    return False


# ---------------------------------------------------------------------------
# Loops graph mode unrolls
# ---------------------------------------------------------------------------


def range_count(loop: nodes.For, analysis: scope.ModuleAnalysis) -> int | None:
    """How many times ``for ... in range(a[, b[, step]])`` runs, when its
    arguments are constants (literals, module constants, attributes __init__
    sets once to a literal); None otherwise."""
    call = loop.iter
    if not (isinstance(call, nodes.Call) and isinstance(call.func, nodes.Name) and call.func.name == "range"):
        return None
    if resolve.binding(call.func) is not None or call.keywords or not 1 <= len(call.args) <= 3:
        return None
    bounds = []
    for argument in call.args:
        value = values.constant(argument)
        attr = astutil.self_attribute(argument)
        if value is astutil.UNKNOWN and attr is not None:
            cls = astutil.enclosing_class(argument)
            value = analysis.class_facts(cls).constant(attr) if cls is not None else astutil.UNKNOWN
        if isinstance(value, bool) or not isinstance(value, int):
            return None
        bounds.append(value)
    try:
        return len(range(*bounds))
    except (ValueError, OverflowError):
        return None


def unrolled_iterations(loop: nodes.For, analysis: scope.ModuleAnalysis) -> int | None:
    """At least how many iterations graph mode unrolls for ``loop``: its count
    times the iterations of the counted loops directly in its body (summed);
    None when its own count is unknown."""
    count = range_count(loop, analysis)
    if count is None:
        return None
    inner = 0
    for child in _direct_loops(loop.body):
        inner += unrolled_iterations(child, analysis) or 0
    return count * max(inner, 1)


def iterations_around(node: nodes.NodeNG, analysis: scope.ModuleAnalysis) -> tuple[nodes.For | None, int]:
    """The outermost counted ``for`` loop around ``node`` in its function, and how
    many times graph mode unrolls ``node`` (the product of the counted loops
    around it; 1 outside any)."""
    outermost, total = None, 1
    parent = node.parent
    while parent is not None and not isinstance(parent, _NESTED_SCOPES):
        if isinstance(parent, nodes.For) and node not in (parent.iter,):
            count = range_count(parent, analysis)
            if count is not None:
                outermost, total = parent, total * count
        parent = parent.parent
    return outermost, total


def enclosing_counted_loop(node: nodes.NodeNG, analysis: scope.ModuleAnalysis) -> nodes.For | None:
    parent = node.parent
    while parent is not None and not isinstance(parent, _NESTED_SCOPES):
        if isinstance(parent, nodes.For) and range_count(parent, analysis) is not None:
            return parent
        parent = parent.parent
    return None


def _direct_loops(block: list[nodes.NodeNG]) -> list[nodes.For]:
    found = []
    for statement in block:
        if isinstance(statement, nodes.For):
            found.append(statement)
        elif not isinstance(statement, _NESTED_SCOPES):
            for child in statement.get_children():
                if isinstance(child, nodes.NodeNG) and not isinstance(child, _NESTED_SCOPES) and child.is_statement:
                    found.extend(_direct_loops([child]))
    return found


# ---------------------------------------------------------------------------
# Compiled units: the Cells and @jit functions a line is compiled in
# ---------------------------------------------------------------------------


def unit_name(entry: nodes.NodeNG) -> str:
    """``Net`` for a Cell's construct, ``Net.forward_jit`` for another compiled
    method, ``train_step`` for a function."""
    if isinstance(entry, nodes.FunctionDef) and isinstance(entry.parent, nodes.ClassDef):
        cls = entry.parent.name
        return cls if entry.name in apis.CELL_METHODS_COMPILED else f"{cls}.{entry.name}"
    if isinstance(entry, nodes.FunctionDef):
        return entry.name
    return "<lambda>"


def unit_label(entry: nodes.NodeNG) -> str:
    """``<file>:<line>:<name>``: where a compiled unit is defined, and its name."""
    owner = entry.parent if isinstance(entry, nodes.FunctionDef) and isinstance(entry.parent, nodes.ClassDef) else entry
    return f"{entry.root().file or entry.root().name}:{owner.lineno or 0}:{unit_name(entry)}"


def compiled_units(node: nodes.NodeNG) -> tuple[str, ...]:
    """The compiled units (Cells, @jit functions) whose compilation reaches
    ``node``, as :func:`unit_label` writes them; for a call of one from host
    code (``train_step(x, step)``, ``net(x)``), that unit; () otherwise."""
    analysis = scope.analysis(node.root())
    found = analysis.enclosing(node)
    if found is not None and found[1] == scope.GRAPH:
        reach = _reach(analysis)
        owner = found[0]
        entries = [entry for entry, reached in reach.items() if owner in reached]
        return tuple(sorted({unit_label(entry) for entry in entries})) or (unit_label(owner),)
    if isinstance(node, nodes.Call):
        callee = compiled_callee(node)
        if callee is not None:
            return (unit_label(callee),)
    return ()


_REACH: list = [None, None]


def _reach(analysis: scope.ModuleAnalysis) -> dict[nodes.NodeNG, set[nodes.NodeNG]]:
    """Each graph entry of the module and the functions it reaches (cached for the
    module analysed last)."""
    if _REACH[0] is analysis:
        return _REACH[1]
    edges: dict[nodes.NodeNG, set[nodes.NodeNG]] = {}
    for callee, sites in analysis.call_sites.items():
        for _call, caller, _skips in sites:
            edges.setdefault(caller, set()).add(callee)
    for func in analysis.kinds:
        parent = func.parent.frame() if func.parent is not None else None
        while parent is not None and not isinstance(parent, (nodes.Module, nodes.ClassDef)):
            if parent in analysis.kinds:
                edges.setdefault(parent, set()).add(func)
                break
            parent = parent.parent.frame() if parent.parent is not None else None
    reach: dict[nodes.NodeNG, set[nodes.NodeNG]] = {}
    for entry in analysis.entries:
        if analysis.kinds.get(entry) != scope.GRAPH:
            continue
        reached, stack = {entry}, [entry]
        while stack:
            for callee in edges.get(stack.pop(), ()):
                if callee not in reached:
                    reached.add(callee)
                    stack.append(callee)
        reach[entry] = reached
    _REACH[:] = [analysis, reach]
    return reach


def compiled_callee(call: nodes.Call) -> nodes.FunctionDef | None:
    """What a call from host code compiles (AST capture): a @jit function (by
    decorator or ``step = ms.jit(fn)``), or the construct of a Cell built by
    ``net = Net(...)`` whose construct is graph code; None otherwise (and for
    capture_mode="bytecode", which compiles differently)."""
    func = call.func
    if not isinstance(func, nodes.Name):
        return None
    bound = resolve.binding(func)
    if isinstance(bound, nodes.FunctionDef):
        return bound if _jit_decorated(bound) else None
    if isinstance(bound, (nodes.Import, nodes.ImportFrom)):
        imported = resolve.project_function(func)
        return imported if imported is not None and _jit_decorated(imported) else None
    value = resolve.assigned_value(func, sole=True)
    if not isinstance(value, nodes.Call) or not isinstance(value.func, (nodes.Name, nodes.Attribute)):
        return None
    if resolve.qualified_name(value.func) in apis.JIT_DECORATORS:
        if value.args and isinstance(value.args[0], nodes.Name) and not _bytecode_call(value):
            target = resolve.binding(value.args[0])
            return target if isinstance(target, nodes.FunctionDef) else None
        return None
    cls = resolve.user_class_of_call(value)
    if cls is None or not resolve.is_cell_class(cls):
        return None
    construct = resolve.find_method(cls, "construct")
    if construct is None:
        return None
    owner = scope.analysis(construct.root())
    if owner.kinds.get(construct) != scope.GRAPH or owner.bytecode_only(construct):
        return None
    return construct


def _jit_decorated(func: nodes.FunctionDef) -> bool:
    if not func.decorators or not resolve.has_decorator(func, apis.JIT_DECORATORS):
        return False
    return not any(isinstance(decorator, nodes.Call) and _bytecode_call(decorator) for decorator in func.decorators.nodes)


def _bytecode_call(call: nodes.Call) -> bool:
    value = astutil.argument(call, None, "capture_mode")
    return isinstance(value, nodes.Const) and value.value == "bytecode"


# ---------------------------------------------------------------------------
# Code graph mode never compiles
# ---------------------------------------------------------------------------
# Graph mode folds a test it can evaluate while compiling and compiles only the
# branch taken: a constant (values.never_compiled), and the Cell's training flag,
# ``self.training``, which set_train fixes before the compile (measured,
# tests/oracle/test_graph.py: with set_train(True), an asnumpy() under
# ``if not self.training:`` compiles under STRICT, and a Cell called only there
# is never compiled).

# the attribute set_train sets: not ``is_training``, which the project itself sets
_TRAINING_FLAG = "training"
# how far never_compiled follows a method's callers and a Cell's holders
_CALLER_DEPTH = 16
# calls that reach a Cell held in ``self`` other than by its attribute's name
_DYNAMIC_CELL_ACCESS = frozenset({"getattr", "cells", "name_cells", "cells_and_names", "__getattr__"})


def never_compiled(node: nodes.NodeNG, analysis: scope.ModuleAnalysis, parsed: bool = False) -> bool:
    """Whether the programs that build the code at ``node`` never compile it, so no
    graph rule applies there:

    - it sits in a branch graph mode folds away: its test is a constant
      (values.never_compiled), or reads the Cell's training flag and the programs
      fix the flag (mode.Decision.training_flag): ``if not self.training:`` (the
      ``else`` of ``if self.training:``, the code after ``if self.training: ...
      return``) in code every program only trains, ``if self.training:`` in code
      they only evaluate;
    - it sits under a guard every call of its function in sight makes false
      (values.never_runs: ``if deterministic:`` left to its default False), or a
      guard on ``self`` attributes every construction in sight (else the
      defaults) makes false (values.never_runs_as_built);
    - or it is in a method every ``self.<method>(...)`` call of which is such code,
      or in the construct of a Cell every call of which is (a post-processor built
      in ``__init__`` as ``self.post`` and called only under ``if not
      self.training:``).

    ``parsed``: a problem of the function's syntax, which MindSpore meets in every
    branch of a function it compiles (checkers/follow.py, PARSE_ERRORS): only the
    last kind then."""
    cache = _never_called_cache(analysis)
    return _never_compiled(node, analysis, parsed, frozenset(), 0, cache)


_NEVER_CALLED: list = [None, {}]


def _never_called_cache(analysis: scope.ModuleAnalysis) -> dict:
    """Each Cell class's answer of _cell_never_called, for the module analysed last
    (nodes are keys: emptied per module so old trees are not kept alive)."""
    if _NEVER_CALLED[0] is not analysis:
        _NEVER_CALLED[:] = [analysis, {}]
    return _NEVER_CALLED[1]


def _never_compiled(  # noqa: PLR0913
    node: nodes.NodeNG, analysis: scope.ModuleAnalysis, parsed: bool, seen: frozenset, depth: int, cache: dict
) -> bool:
    if not parsed and (_in_folded_branch(node, analysis) or values.never_runs(node) or values.never_runs_as_built(node)):
        return True  # a guard every call (never_runs) or construction (never_runs_as_built) in sight makes false
    if analysis.at_compile_time(node):
        return _compile_time_never_run(node, analysis, seen, depth, cache)
    found = astutil.enclosing_method(node)
    if found is None or depth >= _CALLER_DEPTH:
        return False
    method, cls = found
    if method in seen or (method.decorators and resolve.has_decorator(method, apis.JIT_DECORATORS)):
        return False
    if method.name != apis.CELL_FORWARD_METHOD and not _only_called(method):
        return False  # ``ms.jit(self.step)``, ``grad(self.forward)``: run from elsewhere
    seen = seen | {method}
    if method.name == apis.CELL_FORWARD_METHOD:
        if resolve.is_cell_class(cls):
            held = cache.get(("never called", cls))
            if held is None:
                held = cache[("never called", cls)] = _cell_never_called_compiled(cls)
            if held:
                return True
        # (looked for only where the programs fix the training flag: finding a
        # class's constructions in the project costs a search of its modules)
        if not resolve.is_cell_class(cls) or _decision(method, analysis).training_flag() is None:
            return False
        known = cache.get(cls)
        if known is None:
            known = cache[cls] = _cell_never_called(cls, analysis, seen, depth, cache)
        return known
    callers = analysis.class_facts(cls).self_calls(method.name)
    return bool(callers) and all(
        _never_compiled(call, analysis, False, seen, depth + 1, cache) for call in callers
    )


def _compile_time_never_run(  # noqa: PLR0913
    node: nodes.NodeNG, analysis: scope.ModuleAnalysis, seen: frozenset, depth: int, cache: dict
) -> bool:
    """Whether the compile-time code at ``node`` (the body of a ``@constexpr``
    function graph code calls, or what it calls) never runs: every call of its
    function in sight is code graph mode never compiles (or never runs)."""
    func = node.frame()
    while func is not None and func not in analysis.compile_time and not isinstance(func, nodes.Module):
        func = func.parent.frame() if func.parent is not None else None
    if func is None or func in seen or depth >= _CALLER_DEPTH:
        return False
    sites = analysis.call_sites.get(func)
    if not sites:
        return False  # a view's callee: the home module's calls decide (checkers/follow.py)
    seen = seen | {func}
    return all(_never_compiled(call, analysis, False, seen, depth + 1, cache) for call, _, _ in sites)


def _in_folded_branch(node: nodes.NodeNG, analysis: scope.ModuleAnalysis) -> bool:
    """Whether ``node`` is in a branch graph mode never compiles: a constant test's
    (values.never_compiled), the training flag's when the programs fix it, or
    ``isinstance`` on a value that is a Tensor at every compile (followed out of
    nested functions up to the method or module function)."""
    if values.never_compiled(node, analysis.class_facts):
        return True
    found = astutil.enclosing_method(node)
    flag = _training_flag(node, found[1], analysis) if found is not None else None
    folding = _Folding(flag, analysis)
    child, parent = node, node.parent
    while parent is not None and not isinstance(parent, (nodes.ClassDef, nodes.Module)):
        if child.is_statement and _after_exit(child, parent, folding):
            return True
        if isinstance(parent, (nodes.If, nodes.IfExp)) and child is not parent.test:
            holds = folding.value(parent.test)
            in_body = child is parent.body if isinstance(parent, nodes.IfExp) else child in parent.body
            if holds is not None and holds != in_body:
                return True
        elif isinstance(parent, nodes.BoolOp) and child in parent.values:
            # ``self.training and f(x)``: f(x) runs only when what precedes it lets it
            stop = parent.op == "or"
            if any(folding.value(value) is stop for value in parent.values[: parent.values.index(child)]):
                return True
        child, parent = parent, parent.parent
    return False


def _training_flag(node: nodes.NodeNG, cls: nodes.ClassDef, analysis: scope.ModuleAnalysis) -> bool | None:
    """``self.training`` whenever the programs compile the code at ``node`` (a
    method of ``cls``): None when they may compile it either way, or the class
    sets the flag itself."""
    if analysis.class_facts(cls).values(_TRAINING_FLAG):
        return None
    return _decision(node, analysis).training_flag()


def _decision(node: nodes.NodeNG, analysis: scope.ModuleAnalysis):
    """How the programs run the code at ``node``, of this module or another."""
    root = node.root()
    if analysis.home is None:
        if root is analysis.module:
            return analysis.decision_at(node)
    elif root is not analysis.home and analysis.enclosing(node) is not None:
        return analysis.decision  # followed code runs as the home module's code
    return programs.decision_for(root.file, programs.top_level_name(node))


class _Folding:
    """What graph mode knows of a test while compiling: the training flag the
    programs fix (None: either), whether a value is a Tensor (its type is a
    compile-time fact)."""

    def __init__(self, flag: bool | None, analysis: scope.ModuleAnalysis) -> None:
        self.flag = flag
        self.analysis = analysis

    def value(self, test: nodes.NodeNG) -> bool | None:
        """What ``test`` is at every compile, or None when it may be either."""
        if isinstance(test, nodes.UnaryOp) and test.op == "not":
            inner = self.value(test.operand)
            return None if inner is None else not inner
        if isinstance(test, nodes.BoolOp):
            results = [self.value(value) for value in test.values]
            decisive = test.op == "or"  # True decides an ``or``, False an ``and``
            if decisive in results:
                return decisive
            return (not decisive) if all(result is (not decisive) for result in results) else None
        if astutil.self_attribute(test) == _TRAINING_FLAG:
            return self.flag
        return self._isinstance(test)

    def _isinstance(self, test: nodes.NodeNG) -> bool | None:
        """``isinstance(x, T)`` with ``x`` a Tensor at every compile and ``T`` types
        graph mode decides for a tensor (Tensor; list, tuple, numpy arrays...)."""
        if not (isinstance(test, nodes.Call) and isinstance(test.func, nodes.Name) and test.func.name == "isinstance"
                and len(test.args) == 2 and not test.keywords and resolve.binding(test.func) is None):
            return None
        subject, kinds = test.args
        kinds = kinds.elts if isinstance(kinds, nodes.Tuple) else [kinds]
        verdicts = [_tensor_instance_of(kind) for kind in kinds]
        if None in verdicts or not isinstance(subject, nodes.Name) or not _tensor_name(subject, self.analysis, 0):
            return None
        return any(verdicts)


def _tensor_instance_of(kind: nodes.NodeNG) -> bool | None:
    """Whether a runtime tensor is an instance of the type ``kind`` names; None
    when mslint cannot tell (a project class, a Parameter...)."""
    if isinstance(kind, nodes.Name) and resolve.binding(kind) is not None \
            and not isinstance(resolve.binding(kind), (nodes.Import, nodes.ImportFrom)):
        return None  # a name the module binds itself
    qname = resolve.qualified_name(kind) if isinstance(kind, (nodes.Name, nodes.Attribute)) else None
    if qname in apis.TENSOR_TYPES:
        return True
    if qname in apis.NON_TENSOR_TYPES:
        return False
    return None


# how many callers up a parameter is followed to prove it a Tensor
_TENSOR_CALLERS = 4


def _tensor_name(name: nodes.Name, analysis: scope.ModuleAnalysis, depth: int) -> bool:
    """Whether the value ``name`` reads is a Tensor at every compile: a local the
    function's values prove one (``y = ops.relu(x)``), or a parameter every call
    that compiles the function gives one (mslint.analysis.values is unsure of a
    bare parameter, which may be a list)."""
    func = name.frame()
    bindings = func.locals.get(name.name, ()) if isinstance(func, (nodes.FunctionDef, nodes.Lambda)) else ()
    if not bindings:
        return False
    if not all(isinstance(binding.parent, nodes.Arguments) for binding in bindings):
        known = analysis.values_at(name)
        return known is not None and known.is_tensor(name)
    seed = func in analysis.seeds  # a view's callee: typed by the calls of the home module
    if seed and name.name not in analysis.typed_seeds.get(func, ()):
        return False
    sites = analysis.call_sites.get(func, ())
    if (func in analysis.entries and not seed) or not (sites or seed) or depth >= _TENSOR_CALLERS:
        return False  # an entry takes what the program gives it
    if not isinstance(func, nodes.FunctionDef) or not _only_called(func):
        return False  # passed along as a value (``map(f, items)``): called with what mslint does not see
    for call, _caller, skips_self in sites:
        given = [value for names, value in astutil.bind_call(call, func, skips_self) if name.name in names]
        if len(given) != 1 or not _tensor_value(given[0], analysis, depth + 1):
            return False
    return True


def _tensor_value(expr: nodes.NodeNG, analysis: scope.ModuleAnalysis, depth: int) -> bool:
    known = analysis.values_at(expr)
    if known is not None and known.is_tensor(expr):
        return True
    return isinstance(expr, nodes.Name) and _tensor_name(expr, analysis, depth)


def tensor_arguments(
    callee: nodes.FunctionDef, call: nodes.Call, skips_self: bool, analysis: scope.ModuleAnalysis
) -> frozenset[str]:
    """The parameters of ``callee`` that ``call`` (in ``analysis``'s graph code)
    certainly gives a Tensor: what a view of the callee knows of their type."""
    return frozenset(
        names[0] for names, value in astutil.bind_call(call, callee, skips_self)
        if len(names) == 1 and _tensor_value(value, analysis, 0)
    )


def _after_exit(statement: nodes.NodeNG, parent: nodes.NodeNG, folding: _Folding) -> bool:
    """Whether ``statement`` follows, in the same block, an ``if`` that holds at
    every compile and ends in ``return`` or ``raise``: it is never compiled."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and statement in block:
            break
    else:
        return False
    return any(
        isinstance(earlier, nodes.If) and not earlier.orelse
        and isinstance(earlier.body[-1], (nodes.Return, nodes.Raise))
        and folding.value(earlier.test) is True
        for earlier in block[: block.index(statement)]
    )


def _cell_never_called(  # noqa: PLR0913
    cls: nodes.ClassDef, analysis: scope.ModuleAnalysis, seen: frozenset, depth: int, cache: dict
) -> bool:
    """Whether every call of a Cell of class ``cls`` is code graph mode never
    compiles: the programs build it only as ``self.<attr> = Cls(...)`` in the
    ``__init__`` of Cells (mslint.analysis.programs.construction: the
    constructions in the code they reach; no subclass, no reference passed on),
    and each holder uses ``self.<attr>`` only to call it there."""
    built = programs.construction(cls.root().file, cls.name) if isinstance(cls.parent, nodes.Module) else None
    if built is None or not built.sites or built.passed_along or built.subclasses:
        return False
    for site in built.sites:
        call = _call_at(site.path, site.line, cls)
        held = _held_as(call, cls) if call is not None else None
        if held is None:
            return False
        uses = _uses_of(*held)
        if not uses:
            return False
        for use in uses:
            called = use.parent
            if not (isinstance(called, nodes.Call) and called.func is use):
                return False  # passed along, stored elsewhere: it may run anywhere
            if not _never_compiled(called, analysis, False, seen, depth + 1, cache):
                return False
    return True


def _cell_never_called_compiled(cls: nodes.ClassDef) -> bool:
    """Whether no Cell of class ``cls`` is ever called where it may be compiled:
    the programs in sight build it (mslint.analysis.programs.construction; no
    subclass, no reference passed on) only as ``self.<attr> = Cls(...)`` in the
    ``__init__`` of a class whose ``<instance>.<attr>`` nothing in sight reads
    (sites.attribute_never_read: a metric Cell a ``Metric`` holds and never
    calls), or else in the main guard of an entry whose own program runs
    PyNative (a module's self-test), and at least once the first way. Its
    construct then never runs compiled."""
    built = programs.construction(cls.root().file, cls.name) if isinstance(cls.parent, nodes.Module) else None
    if built is None or not built.sites or built.passed_along or built.subclasses:
        return False
    held_once = False
    for site in built.sites:
        if site.pynative_main:
            continue
        call = _call_at(site.path, site.line, cls)
        held = _held_by_any(call, cls) if call is not None else None
        if held is None or not sites.attribute_never_read(*held):
            return False
        held_once = True
    return held_once


def _held_by_any(call: nodes.Call, cls: nodes.ClassDef) -> tuple[nodes.ClassDef, str] | None:
    """(holder, attribute) when ``call`` is ``self.<attribute> = Cls(...)`` in the
    ``__init__`` of a class ``holder`` (a Cell or not) and builds ``cls`` itself."""
    if not _builds(call, cls):
        return None
    statement = call.parent
    if not (isinstance(statement, nodes.Assign) and statement.value is call and len(statement.targets) == 1):
        return None
    attr = astutil.self_attribute(statement.targets[0])
    found = astutil.enclosing_method(call)
    if attr is None or found is None or found[0].name != "__init__":
        return None
    return found[1], attr


def _call_at(path: str, line: int, cls: nodes.ClassDef) -> nodes.Call | None:
    """The call at ``line`` of the file at ``path`` that builds ``cls``."""
    try:
        module = resolve.module_at(path, module_name(path))
    except (astroid.AstroidError, OSError, SyntaxError):
        return None
    return next((call for call in astutil.module_nodes(module, nodes.Call)
                 if call.lineno == line and _builds(call, cls)), None)


def _builds(call: nodes.Call, cls: nodes.ClassDef) -> bool:
    built = resolve.user_class_of_call(call)
    return built is not None and _same_definition(built, cls)


def _held_as(call: nodes.Call, cls: nodes.ClassDef) -> tuple[nodes.ClassDef, str] | None:
    """:func:`_held_by_any` where the holder is a Cell."""
    held = _held_by_any(call, cls)
    return held if held is not None and resolve.is_cell_class(held[0]) else None


def _uses_of(holder: nodes.ClassDef, attr: str) -> list[nodes.Attribute] | None:
    """The reads of ``self.<attr>`` in ``holder`` and the subclasses of its module;
    None when one of them may reach its Cells another way (``getattr(self, ...)``,
    ``self.cells()``)."""
    classes = [klass for klass in astutil.module_nodes(holder.root(), nodes.ClassDef)
               if any(base is holder for base in resolve.class_hierarchy(klass)[0])]
    found = []
    for klass in classes:
        for call in klass.nodes_of_class(nodes.Call):
            func = call.func
            name = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", None)
            if name in _DYNAMIC_CELL_ACCESS:
                return None
        found += [
            attribute for attribute in klass.nodes_of_class(nodes.Attribute)
            if astutil.self_attribute(attribute) == attr and astutil.enclosing_class(attribute) is klass
        ]
    return found


def _only_called(func: nodes.FunctionDef) -> bool:
    """Whether every read of ``func``'s name where it is defined calls it (a method:
    every ``self.<name>`` of its class): never passed along as a value, so its
    calls in sight are all the ways it runs."""
    scope_node = func.parent.frame() if func.parent is not None else None
    if isinstance(scope_node, nodes.ClassDef):
        reads = [attribute for attribute in scope_node.nodes_of_class(nodes.Attribute)
                 if attribute.attrname == func.name and astutil.is_self(attribute.expr)]
    elif scope_node is not None:
        reads = [name for name in scope_node.nodes_of_class(nodes.Name) if name.name == func.name]
    else:
        return False
    return all(isinstance(read.parent, nodes.Call) and read.parent.func is read for read in reads)


def _same_definition(first: nodes.NodeNG, second: nodes.NodeNG) -> bool:
    """The same class, also when seen through two module names (the linted file and
    the module another file imports)."""
    return first is second or _definition_key(first) == _definition_key(second)


def _definition_key(node: nodes.NodeNG) -> tuple:
    root = node.root()
    return (real_path(root.file) if root.file else root.name, node.name, node.lineno or 0)
