"""Graph code that compiles, but slowly, again, or in pieces (issue 28, 84xx).

Measured on MindSpore 2.10, CPU (tests/oracle/test_graph_performance.py):

- a tensor item assignment in a ``for`` over ``range(n)`` costs about 0.1 s of
  compile time per unrolled iteration (9.4 s for 100);
- masked_select, nonzero, unique, a boolean-mask index, a slice bound or a TopK
  k computed from a tensor make shapes that depend on the data: on CPU they
  compile and run as fast as static twins; MindSpore's dynamic-shape guide
  says they split the graph or take a slow path on Ascend (the guide's claim),
  so this warning is given only where a program that compiles the code may
  select Ascend;
- a @jit function or a GRAPH_MODE Cell called with a Python number, list or
  tuple that changes from call to call compiles once per value (10 values: 10
  compiles); ``ms.mutable(...)`` or a Tensor compiles once;
- under ``@jit(capture_mode="bytecode")``, a branch on a tensor, a set, a class
  defined inside, nonlocal, numpy/asnumpy, host random numbers, clocks and
  logging, an import, a custom class built from tensors, creating a Parameter,
  ``set_seed``, ``v in tensor``, ``range`` of a tensor value and a generator
  function break the graph: the function is split and that part runs as Python.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis
from mslint.analysis import astutil, compiled, mode, resolve, scope, values
from mslint.checkers.follow import GraphModeNote
from mslint.checkers.messages import spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter

SLOW_LOOP = "ms-slow-unrolled-loop"
DYNAMIC_SHAPE = "ms-dynamic-shape-in-graph"
RECOMPILE = "ms-recompile-python-argument"
GRAPH_BREAK = "ms-graph-break"

_NESTED_SCOPES = (nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)
_LOOPS = (nodes.For, nodes.While)
_PYTHON_VALUE_CALLS = frozenset({"float", "int", "round", "abs", "min", "max", "pow"})
_DYNAMIC_OP_CLASSES = frozenset(name.rsplit(".", 1)[-1] for name in apis.DYNAMIC_SHAPE_FUNCTIONS if values.is_op_class(name))


class GraphPerformanceChecker(GraphModeNote, BaseChecker):
    name = "mindspore-graph-performance"
    msgs = {
        "W8401": (
            "item assignment to the tensor %s in a loop graph mode unrolls %d times: each iteration adds a "
            "copy of the tensor to the graph, about 0.1 s of compile time per iteration (9 s for 100, "
            "measured on CPU); assign the whole slice at once, or build the rows with ops.stack/ops.concat%s",
            SLOW_LOOP,
            "`y[i] = ...` on a tensor inside a for loop over a constant range of at least 50 iterations "
            "in graph code: the loop is unrolled and compiling grows by about 0.1 s per iteration.",
        ),
        "W8402": (
            "%s makes a tensor whose shape depends on the data: MindSpore's dynamic-shape guide says it splits "
            "the graph or takes a slow path on Ascend, where %s may run it (on CPU it compiles and runs like a "
            "static shape, measured); %s%s",
            DYNAMIC_SHAPE,
            "masked_select, nonzero, argwhere, unique, a boolean-mask index, a slice bound or a TopK k "
            "computed from a tensor, in graph code that a program which may run on Ascend compiles (its "
            "set_context(device_target=...) or set_device, read through its options and configs).",
        ),
        "W8403": (
            "%s() is compiled again for every value of %s, a Python %s that changes at each iteration of this "
            "loop (a graph constant: 10 calls with 10 values compile 10 times, measured); pass "
            "ms.mutable(%s) or a Tensor, which compile once%s",
            RECOMPILE,
            "A @jit function or a GRAPH_MODE Cell called in a loop with a Python number, list or tuple "
            "built from the loop variable or a counter: MindSpore compiles it once per value.",
        ),
        "W8404": (
            '%s breaks the graph under capture_mode="bytecode" ("%s"): MindSpore splits the function there '
            "and runs that part as Python, op by op, at every call; %s%s",
            GRAPH_BREAK,
            "In a @jit(capture_mode=\"bytecode\") function: code the bytecode capture cannot put in the "
            "graph (a branch on a tensor, numpy, host random numbers, an import, a set, ...). It runs, "
            "but as Python between two graphs.",
        ),
    }

    def open(self) -> None:
        self._slow_reported: set[tuple[nodes.NodeNG, str]] = set()

    def visit_module(self, node: nodes.Module) -> None:  # noqa: ARG002 - per-module state
        self._slow_reported.clear()  # holds nodes: never keep old trees alive

    # -- ms-slow-unrolled-loop ---------------------------------------------------
    @only_required_for_messages(SLOW_LOOP)
    def visit_assign(self, node: nodes.Assign | nodes.AugAssign) -> None:
        targets = node.targets if isinstance(node, nodes.Assign) else [node.target]
        subscripts = [target for target in targets if isinstance(target, nodes.Subscript)]
        if not subscripts:
            return
        analysis = _ast_graph(node)
        if analysis is None:
            return
        loop, iterations = compiled.iterations_around(node, analysis)
        if loop is None or iterations < apis.SLOW_UNROLL_ITERATIONS:
            return
        known = analysis.values_at(node)
        if known is None:
            return
        evident = compiled.evident_tensors(known.func)
        for target in subscripts:
            held = target.value
            if not isinstance(held, nodes.Name) or not _holds_tensor(held, known, evident):
                continue
            key = (loop, held.name)
            if key in self._slow_reported:
                continue
            self._slow_reported.add(key)
            self.add_message(SLOW_LOOP, node=node, args=(f"'{held.name}'", iterations))

    visit_augassign = visit_assign

    # -- ms-dynamic-shape-in-graph -----------------------------------------------
    def _dynamic_shape_applies(self, node: nodes.NodeNG) -> str | None:
        """The program that compiles ``node`` and may run it on Ascend, and where
        it selects the device (mslint.analysis.programs: Decision.ascend); None
        where no such program is in sight. Not in code whose graph mode is only
        assumed (the cost needs both graph mode and Ascend: two assumptions are
        one too many), and not where every program compiling it selects CPU or GPU,
        or no device at all: the cost is Ascend's and unmeasured elsewhere."""
        analysis = scope.analysis(node.root())
        if not analysis.in_graph(node) or values.never_compiled(node, analysis.class_facts):
            return None
        # the decision for the class or function holding the node: a module some
        # program compiles may hold a class none builds, whose mode is only assumed
        decision = analysis.decision_at(node)
        if decision.assumed and not analysis.compiled_in_every_mode(node):
            return None
        return decision.ascend or None

    @only_required_for_messages(DYNAMIC_SHAPE, RECOMPILE, GRAPH_BREAK)
    def visit_call(self, node: nodes.Call) -> None:
        analysis = scope.analysis(node.root())
        if analysis.in_graph(node):
            if self.linter.is_message_enabled(DYNAMIC_SHAPE):
                self._dynamic_call(node)
            if analysis.bytecode_only(node):
                self._break_call(node, analysis)
        elif self.linter.is_message_enabled(RECOMPILE):
            self._recompile(node)

    def _dynamic_call(self, node: nodes.Call) -> None:
        func = node.func
        what = None
        if isinstance(func, nodes.Call):  # ops.Unique()(x)
            qname = resolve.qualified_name(func.func) if isinstance(func.func, (nodes.Name, nodes.Attribute)) else None
            if qname in apis.DYNAMIC_SHAPE_FUNCTIONS:
                what = qname.rsplit(".", 1)[-1]
            elif qname in apis.TOPK_CALLS:
                what = self._topk_k(node, qname)
        elif isinstance(func, (nodes.Name, nodes.Attribute)):
            qname = resolve.qualified_name(func)
            if qname in apis.DYNAMIC_SHAPE_FUNCTIONS and values.is_op_class(qname):
                return  # ops.Unique(): building the op; its call on data is the finding
            if qname in apis.DYNAMIC_SHAPE_FUNCTIONS:
                what = qname.rsplit(".", 1)[-1]
            elif qname in apis.TOPK_CALLS:
                what = self._topk_k(node, qname)
            elif qname is None and isinstance(func, nodes.Attribute):
                what = self._dynamic_method(node, func)
        if what is None:
            return
        ascend = self._dynamic_shape_applies(node)
        if ascend is None:
            return
        key = "topk" if what.startswith("topk") else _fix_key(what)
        self.add_message(DYNAMIC_SHAPE, node=node, args=(what if what.startswith("topk") else f"{what}()", ascend,
                                                           apis.DYNAMIC_SHAPE_FIX[key]))

    def _dynamic_method(self, node: nodes.Call, func: nodes.Attribute) -> str | None:
        attr = astutil.self_attribute(func)
        if attr is None and func.attrname not in apis.DYNAMIC_SHAPE_METHODS and func.attrname != apis.TOPK_METHOD:
            return None  # most method calls
        analysis = scope.analysis(node.root())
        known = analysis.values_at(node)
        if known is None:
            return None
        if attr is not None and known.op_attrs.get(attr) in _DYNAMIC_OP_CLASSES:
            return known.op_attrs[attr]  # self.unique = ops.Unique(); self.unique(x)
        if attr is not None and known.op_attrs.get(attr) == "TopK":
            return self._topk_k(node, "mindspore.ops.TopK")
        # a Python number has no such method: a receiver computed from tensors is one
        if func.attrname in apis.DYNAMIC_SHAPE_METHODS and known.depends(func.expr):
            return func.attrname
        if func.attrname == apis.TOPK_METHOD and known.depends(func.expr):
            k = astutil.argument(node, 0, "k")
            if isinstance(k, nodes.NodeNG) and _computed_from_tensor(k, known):
                return f"topk with k = {spelled(k)} computed from a tensor"
        return None

    @staticmethod
    def _topk_k(node: nodes.Call, qname: str) -> str | None:
        index, keyword = apis.TOPK_CALLS[qname]
        k = astutil.argument(node, index, keyword)
        known = scope.analysis(node.root()).values_at(node)
        if known is None or not isinstance(k, nodes.NodeNG) or not _computed_from_tensor(k, known):
            return None
        return f"topk with k = {spelled(k)} computed from a tensor"

    @only_required_for_messages(DYNAMIC_SHAPE)
    def visit_subscript(self, node: nodes.Subscript) -> None:
        if not isinstance(node.parent, (nodes.Assign, nodes.Expr, nodes.Return, nodes.Call, nodes.BinOp,
                                        nodes.Attribute, nodes.Subscript, nodes.Tuple, nodes.Keyword)):
            return
        if isinstance(node.parent, nodes.Assign) and node in node.parent.targets:
            return  # ``x[mask] = 0``: the shape does not change
        analysis = scope.analysis(node.root())
        if not analysis.in_graph(node):
            return
        known = analysis.values_at(node)
        if known is None or not known.depends(node.value):
            return
        what = _dynamic_index(node.slice, known)
        ascend = self._dynamic_shape_applies(node) if what is not None else None
        if ascend is None:
            return
        self.add_message(DYNAMIC_SHAPE, node=node, args=(f"{spelled(node)} ({what})", ascend, apis.DYNAMIC_SHAPE_FIX[
            "mask" if what.startswith("a boolean") else "slice"]))

    # -- ms-recompile-python-argument --------------------------------------------
    def _recompile(self, node: nodes.Call) -> None:
        if not isinstance(node.func, nodes.Name) or not node.args and not node.keywords:
            return
        # the arguments first: most calls pass no Python value that varies, and
        # resolving the callee costs more
        for argument in astutil.call_arguments(node):
            found = _varying_python_value(argument, node)
            if found is None:
                continue
            if compiled.compiled_callee(node) is None or _inside_one_graph(node):
                return
            name, kind = found
            self.add_message(RECOMPILE, node=node, args=(spelled(node.func), f"'{name}'", kind, spelled(argument)))
            return

    # -- ms-graph-break ----------------------------------------------------------
    def _break(self, node: nodes.NodeNG, what: str, reason: str) -> None:
        message, fix = apis.GRAPH_BREAK_REASONS[reason]
        self.add_message(GRAPH_BREAK, node=node, args=(what, message, fix))

    @staticmethod
    def _bytecode(node: nodes.NodeNG) -> scope.ModuleAnalysis | None:
        analysis = scope.analysis(node.root())
        if not analysis.bytecode_only(node) or values.never_compiled(node, analysis.class_facts):
            return None
        return analysis

    def _break_call(self, node: nodes.Call, analysis: scope.ModuleAnalysis) -> None:
        if values.never_compiled(node, analysis.class_facts):
            return
        func = node.func
        known = analysis.values_at(node)
        cls = resolve.user_class_of_call(node)
        if cls is not None:
            if not scope.analysis(cls.root()).is_cell_class(cls) and not resolve.has_decorator(cls, apis.JIT_CLASS_DECORATORS) \
                    and known is not None and any(known.depends(argument) for argument in astutil.call_arguments(node)):
                self._break(node, f"{cls.name}(...) built from tensors", "custom-class")
            return
        qname = resolve.qualified_name(func) if isinstance(func, (nodes.Name, nodes.Attribute)) else None
        if qname is not None:
            root = resolve.root_package(qname)
            if any(qname == module or qname.startswith(module + ".") for module in apis.GRAPH_BREAK_HOST_MODULES):
                self._break(node, f"{spelled(func)}()", "host-call")
            elif root in apis.HOST_ARRAY_PACKAGES and known is not None and any(
                known.depends(argument) for argument in astutil.call_arguments(node)
            ):
                self._break(node, f"{spelled(func)}() on a tensor", "host-call")
            elif qname in apis.GRAPH_BREAK_CALLS:
                self._break(node, f"{spelled(func)}()", "forbidden")
            elif qname == "range" and known is not None and any(
                _computed_from_tensor(argument, known) for argument in node.args
            ):
                self._break(node, f"{spelled(node)} over a tensor value", "tensor-range")
            return
        if isinstance(func, nodes.Attribute) and func.attrname in apis.GRAPH_BREAK_COPY_METHODS and known is not None \
                and known.depends(func.expr):
            self._break(node, f".{func.attrname}()", "host-copy")

    @only_required_for_messages(GRAPH_BREAK)
    def visit_if(self, node: nodes.If | nodes.While | nodes.IfExp | nodes.Assert) -> None:
        analysis = self._bytecode(node)
        if analysis is None:
            return
        known = analysis.values_at(node)
        test = node.test
        if known is None or not compiled.tensorish(test, known, compiled.evident_tensors(known.func)):
            return
        kind = {nodes.If: "an if", nodes.While: "a while loop", nodes.IfExp: "a conditional expression",
                nodes.Assert: "an assert"}[type(node)]
        what = f"{kind} on a tensor value ({spelled(test)})"
        # at the condition: the line that breaks, not the whole block
        self._break(node if isinstance(node, nodes.IfExp) else test, what, "tensor-branch")

    visit_while = visit_if
    visit_ifexp = visit_if
    visit_assert = visit_if

    @only_required_for_messages(GRAPH_BREAK)
    def visit_compare(self, node: nodes.Compare) -> None:
        analysis = self._bytecode(node)
        if analysis is None:
            return
        known = analysis.values_at(node)
        if known is None:
            return
        evident = compiled.evident_tensors(known.func)
        left = node.left
        for op, right in node.ops:
            if op in ("is", "is not") and compiled.tensorish(left, known, evident) \
                    and compiled.tensorish(right, known, evident):
                self._break(node, f"'{spelled(node)}' on tensors", "identity")
                return
            if op in ("in", "not in") and compiled.tensorish(right, known, evident) \
                    and not compiled.tensorish(left, known, evident):
                self._break(node, f"'{spelled(node)}' with a tensor on the right", "tensor-membership")
                return
            left = right

    @only_required_for_messages(GRAPH_BREAK)
    def visit_set(self, node: nodes.Set | nodes.SetComp) -> None:
        if self._bytecode(node) is not None:
            self._break(node, "a set" if isinstance(node, nodes.Set) else "a set comprehension", "set")

    visit_setcomp = visit_set

    @only_required_for_messages(GRAPH_BREAK)
    def visit_classdef(self, node: nodes.ClassDef) -> None:
        if isinstance(node.parent, nodes.Module) or node.parent is None:
            return
        if self._bytecode(node.parent) is not None:
            self._break(node, f"defining class {node.name} inside", "class")

    @only_required_for_messages(GRAPH_BREAK)
    def visit_nonlocal(self, node: nodes.Nonlocal) -> None:
        if self._bytecode(node) is not None:
            self._break(node, f"nonlocal {', '.join(node.names)}", "nonlocal")

    @only_required_for_messages(GRAPH_BREAK)
    def visit_import(self, node: nodes.Import | nodes.ImportFrom) -> None:
        if isinstance(node.scope(), nodes.Module):
            return  # most imports: never graph code
        if self._bytecode(node) is not None:
            self._break(node, "an import statement", "import")

    visit_importfrom = visit_import

    @only_required_for_messages(GRAPH_BREAK)
    def visit_yield(self, node: nodes.Yield | nodes.YieldFrom) -> None:
        analysis = self._bytecode(node)
        if analysis is None:
            return
        func = node.frame()
        if func in analysis.bytecode_roots:  # the @jit function itself is a generator
            self._break(node, f"yield makes {func.name}() a generator", "generator")

    visit_yieldfrom = visit_yield


def _ast_graph(node: nodes.NodeNG) -> scope.ModuleAnalysis | None:
    analysis = scope.analysis(node.root())
    if not analysis.in_graph(node) or analysis.bytecode_only(node):
        return None
    if values.never_compiled(node, analysis.class_facts):
        return None
    return analysis


def _holds_tensor(name: nodes.Name, known: values.FunctionValues, evident: frozenset[str]) -> bool:
    """``name`` holds a tensor: a parameter used as one, or every binding of it in
    the function is a tensor value (not a list, a tuple or a dict)."""
    if compiled.tensorish(name, known, evident):
        return True
    frame = name.frame()
    bindings = frame.locals.get(name.name, ()) if isinstance(frame, nodes.FunctionDef) else ()
    if not bindings:
        return False
    for binding in bindings:
        statement = binding.parent
        if not (isinstance(statement, nodes.Assign) and statement.targets == [binding]):
            return False
        value = statement.value
        if not (known.is_tensor(value) or compiled.tensorish(value, known, evident)):
            return False
    return True


def _fix_key(what: str) -> str:
    """The DYNAMIC_SHAPE_FIX key of a function or op class name (``MaskedSelect`` -> masked_select)."""
    normalised = what.lower().replace("_", "")
    for key in apis.DYNAMIC_SHAPE_FIX:
        if key.replace("_", "") == normalised:
            return key
    return "unique" if normalised.startswith("unique") else "mask"


def _computed_from_tensor(expr: nodes.NodeNG, known: values.FunctionValues) -> bool:
    """A value computed from a tensor's data (``(x > 0).sum()``, ``int(n)`` of one):
    it depends on a tensor and is not a bare parameter or arithmetic on parameters
    (which may be Python numbers)."""
    if not known.depends(expr):
        return False
    return any(isinstance(child, nodes.Call) for child in expr.nodes_of_class(nodes.Call)) or any(
        isinstance(name, nodes.Name) and not _is_parameter(name) for name in expr.nodes_of_class(nodes.Name)
        if known.depends(name)
    )


def _is_parameter(name: nodes.Name) -> bool:
    frame = name.frame()
    bindings = frame.locals.get(name.name, ()) if isinstance(frame, (nodes.FunctionDef, nodes.Lambda)) else ()
    return bool(bindings) and all(isinstance(binding.parent, nodes.Arguments) for binding in bindings)


def _dynamic_index(index: nodes.NodeNG, known: values.FunctionValues) -> str | None:
    """What makes ``x[index]`` data-dependent in shape: a boolean mask computed
    from a tensor, or a slice bound computed from one."""
    if isinstance(index, nodes.Slice):
        for bound in (index.lower, index.upper):
            if bound is not None and _computed_from_tensor(bound, known):
                return f"a slice bound computed from a tensor: {spelled(bound)}"
        return None
    mask = index
    if isinstance(mask, nodes.Name):
        mask = resolve.assigned_value(mask, sole=True)
    if _tensor_mask(mask, known):
        return "a boolean-mask index"
    return None


def _tensor_mask(expr: nodes.NodeNG | None, known: values.FunctionValues) -> bool:
    """A comparison of tensor data (``x > 0``), or ``~``/``&``/``|`` of such."""
    if isinstance(expr, nodes.Compare):
        if any(op in ("is", "is not", "in", "not in") for op, _ in expr.ops):
            return False
        # the value indexed is a tensor (its caller checks): a comparison of tensor
        # data picks a data-dependent number of its elements
        return known.depends(expr)
    if isinstance(expr, nodes.UnaryOp) and expr.op == "~":
        return _tensor_mask(expr.operand, known)
    if isinstance(expr, nodes.BinOp) and expr.op in ("&", "|"):
        return _tensor_mask(expr.left, known) or _tensor_mask(expr.right, known)
    return False


# -- Python values that change from call to call -------------------------------


def _varying_python_value(argument: nodes.NodeNG, call: nodes.Call) -> tuple[str, str] | None:
    """(the name that varies, "int"/"number"/"list"/"tuple") when ``argument`` is a
    Python value built from a loop variable or counter of a loop around ``call``."""
    if isinstance(argument, (nodes.Starred, nodes.Keyword)):
        return None
    loops = _loops_around(call)
    if not loops:
        return None
    varying: list[str] = []
    if not _python_value(argument, loops, varying, 0) or not varying:
        return None
    if isinstance(argument, nodes.List):
        kind = "list"
    elif isinstance(argument, nodes.Tuple):
        kind = "tuple"
    else:
        kind = "number"
    return varying[0], kind


def _loops_around(node: nodes.NodeNG) -> list[nodes.For | nodes.While]:
    found = []
    parent = node.parent
    while parent is not None and not isinstance(parent, _NESTED_SCOPES):
        if isinstance(parent, _LOOPS) and node not in _loop_head(parent):
            found.append(parent)
        parent = parent.parent
    return found


def _loop_head(loop: nodes.For | nodes.While) -> list[nodes.NodeNG]:
    return list(loop.iter.nodes_of_class(nodes.NodeNG)) if isinstance(loop, nodes.For) else \
        list(loop.test.nodes_of_class(nodes.NodeNG))


def _python_value(expr: nodes.NodeNG, loops: list, varying: list[str], depth: int) -> bool:  # noqa: C901
    """Whether ``expr`` is certainly a Python number, list or tuple (literals,
    arithmetic, loop counters); collects the names in it that vary per iteration."""
    if depth > 6:
        return False
    if isinstance(expr, nodes.Const):
        return isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool)
    if isinstance(expr, (nodes.Tuple, nodes.List)):
        return bool(expr.elts) and all(_python_value(element, loops, varying, depth + 1) for element in expr.elts)
    if isinstance(expr, nodes.BinOp):
        return _python_value(expr.left, loops, varying, depth + 1) and _python_value(expr.right, loops, varying, depth + 1)
    if isinstance(expr, nodes.UnaryOp) and expr.op in ("-", "+"):
        return _python_value(expr.operand, loops, varying, depth + 1)
    if isinstance(expr, nodes.Call) and isinstance(expr.func, nodes.Name) and expr.func.name in _PYTHON_VALUE_CALLS \
            and resolve.binding(expr.func) is None and not expr.keywords:
        return bool(expr.args) and all(_python_value(argument, loops, varying, depth + 1) for argument in expr.args)
    if isinstance(expr, nodes.Name):
        kind = _loop_name(expr, loops, depth)
        if kind == "varying":
            varying.append(expr.name)
            return True
        return kind == "constant"
    return False


def _loop_name(name: nodes.Name, loops: list, depth: int) -> str | None:
    """"varying" for a loop variable of ``for ... in range(...)``/``enumerate(...)``
    around the call, a counter ``+=``-ed in such a loop, or a name bound in the
    loop to a Python value built from those; "constant" for a module-level or
    function-level number bound once; None when unsure."""
    frame = name.frame()
    bindings = frame.locals.get(name.name, ()) if isinstance(frame, (nodes.FunctionDef, nodes.Module)) else ()
    if not bindings:
        return None
    for loop in loops:
        if isinstance(loop, nodes.For) and _counting_target(loop, name.name):
            if any(_inside(binding, loop) and binding.parent is not loop and binding.parent is not loop.target
                   for binding in bindings):
                return None  # rebound in the loop (``step = Tensor(step)``): unsure what the call gets
            count = _constant_range(loop)
            # a few values compile a few times, as the author may mean (train/eval phases)
            return "varying" if count is None or count > apis.FEW_COMPILES else None
    counters = [binding for binding in bindings if isinstance(binding.parent, nodes.AugAssign)]
    if counters and any(_inside(counter, loop) for counter in counters for loop in loops):
        plain = [binding for binding in bindings if binding not in counters]
        # ``step = 0`` then ``step += 1``: every binding is a number, so the call gets one;
        # ``img = image.astype(...)``, ``img -= (104, 117, 123)``, ``img = Tensor(img)``
        # is an array and then a Tensor, no counter
        if plain and all(_number_added(counter) for counter in counters) and all(
                isinstance(binding.parent, nodes.Assign) and astutil.is_number(astutil.literal(binding.parent.value))
                for binding in plain):
            return "varying"
        return None
    if len(bindings) == 1 and isinstance(bindings[0].parent, nodes.Assign) and bindings[0].parent.targets == [bindings[0]]:
        value = bindings[0].parent.value
        if any(_inside(bindings[0], loop) for loop in loops):
            inner: list[str] = []
            if _python_value(value, loops, inner, depth + 1) and inner:
                return "varying"
            return None
        literal = astutil.literal(value)
        if astutil.is_number(literal) and not isinstance(literal, bool):
            return "constant"
    return None


def _number_added(counter: nodes.AssignName) -> bool:
    """``n += 1``, ``n -= step``: a number added, not ``x -= (104, 117, 123)``
    (a numpy array's in-place arithmetic)."""
    value = counter.parent.value
    literal = astutil.literal(value)
    if literal is not astutil.UNKNOWN:
        return astutil.is_number(literal) and not isinstance(literal, bool)
    return not isinstance(value, (nodes.Tuple, nodes.List, nodes.Dict, nodes.Set))


def _counting_target(loop: nodes.For, name: str) -> bool:
    """``for name in range(...)`` or ``for name, item in enumerate(...)``."""
    call = loop.iter
    if not (isinstance(call, nodes.Call) and isinstance(call.func, nodes.Name)):
        return False
    if call.func.name == "range" and resolve.binding(call.func) is None:
        return isinstance(loop.target, nodes.AssignName) and loop.target.name == name
    if call.func.name == "enumerate" and resolve.binding(call.func) is None:
        target = loop.target
        return isinstance(target, nodes.Tuple) and bool(target.elts) and isinstance(target.elts[0], nodes.AssignName) \
            and target.elts[0].name == name
    return False


def _constant_range(loop: nodes.For) -> int | None:
    """How many values ``for i in range(...)`` gives, when its bounds are literals or constants."""
    call = loop.iter
    if not (isinstance(call, nodes.Call) and isinstance(call.func, nodes.Name) and call.func.name == "range"):
        return None
    bounds = [values.constant(argument) for argument in call.args]
    if not 1 <= len(bounds) <= 3 or not all(isinstance(bound, int) and not isinstance(bound, bool) for bound in bounds):
        return None
    try:
        return len(range(*bounds))
    except ValueError:
        return None


def _inside(node: nodes.NodeNG, loop: nodes.NodeNG) -> bool:
    parent = node.parent
    while parent is not None:
        if parent is loop:
            return True
        parent = parent.parent
    return False


def register(linter: PyLinter) -> None:
    linter.register_checker(GraphPerformanceChecker(linter))


def _inside_one_graph(node: nodes.Call) -> bool:
    """The call is itself compiled: in graph code, or in a function given to
    ``grad``/``value_and_grad`` where its program runs GRAPH_MODE (differentiating
    compiles the whole function, FACTS.md: the loop is unrolled into one graph and
    each value of the loop variable is a constant of that one compile)."""
    analysis = scope.analysis(node.root())
    found = analysis.enclosing(node)
    if found is None:
        return False
    return found[1] == scope.GRAPH or (found[1] == scope.DIFFERENTIATED and analysis.decision_at(node).mode == mode.GRAPH)
