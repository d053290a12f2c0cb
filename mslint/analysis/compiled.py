"""How graph code compiles, beyond which code is graph code (mslint.analysis.scope):
which values are evidently tensors, how many times graph mode unrolls a loop,
which Cell or @jit function a line is compiled in, and what a call site compiles.
(Which devices the programs may run on is the program model's: mslint.analysis.devices.)

Used by checkers/graph_compile.py and checkers/graph_performance.py (issue 28),
and by mslint.run.engine for each finding's compiled unit (``mslint --graph-report``).
"""

from __future__ import annotations

from astroid import nodes

from mslint.knowledge import apis
from mslint.analysis import astutil, resolve, scope, values

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
