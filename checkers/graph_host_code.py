"""numpy, scipy and host copies (``.asnumpy()``) applied to tensors in graph code.

Measured on MindSpore 2.10 (FACTS.md): under the default LAX level, numpy on a
runtime tensor compiles through JIT fallback and the gradient through it is
silently zero; under STRICT it fails to compile. numpy on constants is folded at
compile time and is harmless.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis
from mslint.analysis import astutil, edits, mode, resolve, scope, training_code, values
from mslint.checkers.follow import GraphModeNote, calls_into
from mslint.checkers.messages import export_consequence, host_code_consequence, jit_syntax_level, spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter


def replacement_for(qname: str) -> str:
    """The MindSpore op to write instead of a host-library call."""
    known = apis.NUMPY_TO_MINDSPORE.get(qname) or apis.SCIPY_TO_MINDSPORE.get(qname)
    if known is not None:
        return known
    return "the equivalent mindspore.ops function"


class GraphHostCodeChecker(GraphModeNote, BaseChecker):
    name = "mindspore-graph-host-code"
    msgs = {
        "E7101": (
            "%s() on a runtime tensor in %s code: %s; use %s instead%s",
            "ms-numpy-on-tensor",
            "A numpy/scipy/other host-library call whose arguments depend on a runtime "
            "tensor, in graph (construct, @jit) or differentiated code. Under MindSpore's "
            "default LAX level it compiles through JIT fallback and its gradient is silently "
            "zero; under STRICT it fails to compile.",
        ),
        "C7102": (
            "%s() on constants in graph code is folded at compile time; compute it once in __init__ and keep the result%s",
            "ms-numpy-in-graph",
            "numpy/scipy called only on constants inside graph code: harmless (folded at "
            "compile time) but it belongs in __init__.",
            {"default_enabled": False},
        ),
        "E7103": (
            "%s() copies a tensor to the host in %s code: %s; keep it a tensor and use mindspore.ops instead%s",
            "ms-asnumpy-in-graph",
            "`.asnumpy()`, `.numpy()`, `.item()` or `.tolist()` on a tensor in graph or "
            "differentiated code: the value leaves the graph and the gradient through it is "
            "cut (asnumpy/numpy/tolist also fail to compile under STRICT).",
        ),
    }

    @only_required_for_messages("ms-numpy-on-tensor", "ms-numpy-in-graph", "ms-asnumpy-in-graph")
    def visit_call(self, node: nodes.Call) -> None:
        func = node.func
        if not isinstance(func, (nodes.Name, nodes.Attribute)):
            return
        analysis = scope.analysis(node.root())
        found = analysis.enclosing(node)
        if found is None:
            return
        _, kind = found
        if isinstance(func, nodes.Attribute) and func.attrname in apis.HOST_COPY_METHODS:
            if self._check_host_copy(node, func, analysis, kind):
                return
        qname = resolve.qualified_name(func)
        if qname is None or resolve.root_package(qname) not in apis.HOST_ARRAY_PACKAGES:
            return
        if qname in apis.HOST_CONSTANT_CALLS and qname not in apis.HOST_TYPE_CONVERSIONS:
            return  # np.zeros((B, H, W)), np.finfo(...): compile-time constants
        arguments = astutil.call_arguments(node)
        depending = [argument for argument in arguments if analysis.depends_on_tensor(argument)]
        on_tensor = any(not _host_value_here(argument, analysis) for argument in depending)
        if depending and not on_tensor:
            return  # host data (its copy is judged where it is made), or no tensor where it is read
        if not on_tensor and qname.startswith(apis.HOST_RANDOM_PREFIXES):
            return  # a value frozen at compile time: ms-frozen-random-in-graph
        if on_tensor and qname in apis.HOST_RANDOM_INDEX_DRAWS and _bounds_are_sizes(arguments, analysis):
            return  # ``np.random.randint(0, data.num_nodes, (1,))``: a random index, no gradient
        if on_tensor and values.only_for_host_arrays(node):
            return  # ``if isinstance(v, np.ndarray): return np.mod(v, p)``: graph code is given tensors
        if on_tensor and kind == scope.DIFFERENTIATED and self._host_code_on_inputs(node, arguments, analysis):
            return  # ``np.repeat(label.asnumpy(), k)`` in PyNative: the inputs carry no gradient to lose
        if on_tensor:
            known = analysis.values_at(node)
            carried = known is not None and known.host_derived_gradient(node)
            consequence = self._consequence(node, analysis, kind, carried, falls_back=True)
            if consequence is None:
                return  # nothing lost: np.digitize(...) as data, a comparison, a log, inference code
            edits.offer("ms-numpy-on-tensor", node, _ops_edits(node, qname))
            self.add_message(
                "ms-numpy-on-tensor",
                node=node,
                args=(spelled(func), kind, consequence, replacement_for(qname)),
            )
        elif kind == scope.GRAPH:
            self.add_message("ms-numpy-in-graph", node=node, args=(spelled(func),))

    def _check_host_copy(self, node: nodes.Call, func: nodes.Attribute, analysis, kind: str) -> bool:
        always, compiles_under_strict = apis.HOST_COPY_METHODS[func.attrname]
        if isinstance(func.expr, nodes.Name) and resolve.qualified_name(func.expr) is not None:
            return False  # np.item(...)? a module attribute, not a tensor method
        if not always and not analysis.depends_on_tensor(func.expr):
            return False
        if values.host_data(func.expr):
            return True  # ``x.asnumpy().tolist()``: a numpy method; the copy is reported at asnumpy
        if values.only_for_host_arrays(node):
            return True  # ``ans.asnumpy() if is_numpy else ans``: graph code is given tensors
        if kind == scope.DIFFERENTIATED and self._copies_an_input(node, func, analysis):
            # gradients are taken with respect to the weights only: a host copy of an
            # input loses nothing in PyNative; GRAPH_MODE compiles the function given
            # to value_and_grad and the copy fails to compile (FACTS.md)
            decision = analysis.decision_at(node)
            if decision.mode == mode.PYNATIVE or func.attrname not in apis.GRAPH_GRAD_COPY_FAILS:
                return True
            consequence = apis.GRAPH_GRAD_COPY_HARM
            if decision.assumed:
                consequence += f" (assuming graph mode: {decision.basis}; set {mode.setting_name()})"
            self.add_message("ms-asnumpy-in-graph", node=node, args=(spelled(func), kind, consequence))
            return True
        if kind == scope.GRAPH and func.attrname in apis.PARAMETER_COPY_FAILS and _is_parameter(func.expr, analysis):
            consequence = apis.PARAMETER_COPY_HARM
        else:
            known = analysis.values_at(node)
            # ``x.asnumpy().item()``: the receiver is host data, its copy is reported already
            carried = known is not None and known.carries_gradient(func.expr)
            consequence = self._consequence(node, analysis, kind, carried, falls_back=not compiles_under_strict)
            if consequence is None:
                return True
            if compiles_under_strict:
                consequence = "it compiles, but the gradient through the Python scalar is cut"
        self.add_message("ms-asnumpy-in-graph", node=node, args=(spelled(func), kind, consequence))
        return True

    def _consequence(self, node: nodes.Call, analysis, kind: str, carried: bool, falls_back: bool) -> str | None:
        """What host code at ``node`` does to its program, or None when nothing.
        Under STRICT, graph code that needs JIT fallback fails to compile. Under LAX
        (measured, tests/oracle/test_graph.py) a host value that becomes a shape, a
        size or an index of a tensor operation sends that operation through JIT
        fallback: its gradient is zero or fails; one that flows into tensor data
        loses its own gradient (``carried``: not an index, a mask, a frozen value).
        A value only compared, logged or used where the Cell is not training loses
        nothing; in differentiated PyNative code only its data use does."""
        if falls_back and kind == scope.GRAPH and analysis.compiled_for(node) == scope.EXPORT:
            return export_consequence(analysis.decision_at(node).exported_by)
        if _defines_bprop(node):
            # the Cell's own bprop defines its gradient (measured non-zero): nothing is lost,
            # only STRICT's compile error remains
            if falls_back and kind == scope.GRAPH and jit_syntax_level(self) == "strict":
                return host_code_consequence(self, kind, loses_gradient=False)
            return None
        if falls_back and kind == scope.GRAPH and jit_syntax_level(self) == "strict":
            return host_code_consequence(self, kind, loses_gradient=bool(self._harmful_uses(node, analysis, kind, carried, falls_back)))
        harmful = self._harmful_uses(node, analysis, kind, carried, falls_back)
        if not harmful:
            return None
        use = next(use for use in (values.STRUCTURE, values.DATA, values.UNFOLLOWED) if use in harmful)
        return host_code_consequence(self, kind, use=use)

    @staticmethod
    def _harmful_uses(node: nodes.Call, analysis, kind: str, carried: bool, falls_back: bool) -> frozenset[str]:
        known = analysis.values_at(node)
        if known is None:
            return frozenset()
        if kind == scope.GRAPH and (
            analysis.compiled_for(node) != scope.TRAINING or values.inference_only(node, analysis.class_facts)
        ):
            return frozenset()  # compiled, never differentiated: no gradient to lose
        uses = known.uses(node, carried)
        if kind != scope.GRAPH or not falls_back:
            return uses & {values.DATA}  # PyNative, or .item() (a graph op): a shape or an index is no harm there
        return uses  # a fallback value: a tensor operation it reaches runs through JIT fallback

    @staticmethod
    def _host_code_on_inputs(node: nodes.Call, arguments: list, analysis) -> bool:
        """A host-library call on the differentiated function's own inputs alone
        (labels, data: ``np.repeat(label.asnumpy(), k)``), in a function
        differentiated with respect to the weights only, in a program that runs
        PyNative: the weights' gradient does not flow through the inputs, so nothing
        is cut (as ms-asnumpy-in-graph judges a host copy of an input). GRAPH_MODE
        compiles the function: left to the rule as before."""
        found = analysis.enclosing(node)
        if found is None or not isinstance(found[0], nodes.FunctionDef):
            return False
        if analysis.decision_at(node).mode != mode.PYNATIVE:
            return False
        tensors = [argument for argument in arguments if analysis.depends_on_tensor(argument)]
        if not tensors or not all(_input_only(argument, found[0], frozenset()) for argument in tensors):
            return False
        return analysis.differentiated_by_weights_only(found[0])

    @staticmethod
    def _copies_an_input(node: nodes.Call, func: nodes.Attribute, analysis) -> bool:
        """A host copy of the differentiated function's own inputs (labels, data),
        in a function differentiated with respect to the weights only."""
        found = analysis.enclosing(node)
        if found is None or not isinstance(found[0], nodes.FunctionDef):
            return False
        if not _input_only(func.expr, found[0], frozenset()):
            return False
        if analysis.differentiated_by_weights_only(found[0]):
            return True
        return _inputs_passed_on(func.expr, found[0])


def _host_value_here(expr: nodes.NodeNG, analysis, depth: int = 0) -> bool:
    """Whether the name ``expr``, where it is read, holds no runtime tensor: a value that
    depends on none, host data (``a = h.asnumpy()``, ``np.max(a)``: the copy or
    the host call on the tensor is where a rule judges the cut, once), or a name
    whose reaching assignment gives such a value (``w = (1 - beta) / np.array(n)``
    before ``w`` is rebound to a tensor further down; ``a = a / np.linalg.norm(a)``
    after ``a = h.asnumpy()``), or arithmetic on those."""
    if depth == 0 and not isinstance(expr, nodes.Name) and not _arithmetic_without_copy(expr) \
            and not _read_from_a_name(expr) and not _sequence_without_copy(expr):
        return False  # written in the call, ``np.tanh(x.asnumpy())``: the call is judged with the copy
    if isinstance(expr, nodes.Name) and len(expr.frame().locals.get(expr.name, ())) > _HOST_VALUE_BINDINGS:
        return False  # a name rebound line after line (``x = np.exp(x)`` n times): judged as before, in linear time
    if values.host_data(expr) or (depth and not analysis.depends_on_tensor(expr)):
        return True
    if depth > _HOST_VALUE_DEPTH:
        return False
    if isinstance(expr, nodes.Name):
        if _returned_host_data(expr):
            return True
        element_of = values.comprehension_source(expr)
        if element_of is not None:  # ``c`` in ``[f(c) for i, c in enumerate(np.split(C, k))]``
            return _host_value_here(element_of, analysis, depth + 1)
        value = values.reaching_value(expr)
        return value is not None and _host_value_here(value, analysis, depth + 1)
    if isinstance(expr, (nodes.ListComp, nodes.GeneratorExp)):
        return _host_value_here(expr.elt, analysis, depth + 1)  # a list of host arrays
    if isinstance(expr, (nodes.List, nodes.Tuple)):
        return bool(expr.elts) and all(_host_value_here(elt, analysis, depth + 1) for elt in expr.elts)
    if isinstance(expr, (nodes.BinOp, nodes.UnaryOp)):
        return all(_host_value_here(child, analysis, depth + 1) for child in expr.get_children())
    if isinstance(expr, nodes.Call) and _method_of_a_value(expr.func):
        # ``valid.sum(1)``, ``C.reshape(...)`` on a host array: numpy's own method gives numpy
        return _host_array(expr.func.expr, analysis, depth + 1)
    if isinstance(expr, nodes.Subscript):
        return _host_value_here(expr.value, analysis, depth + 1)
    if _method_of_a_value(expr):
        return _host_array(expr.expr, analysis, depth + 1)  # ``v.T`` of a host array
    return False


def _host_array(receiver: nodes.NodeNG, analysis, depth: int) -> bool:
    """A receiver that holds a host copy of a tensor's data: it depends on a tensor,
    and is host data where it is read. ``self`` or ``self.drop`` depend on none, and
    their methods (a sub-cell's call) give tensors."""
    return analysis.depends_on_tensor(receiver) and _host_value_here(receiver, analysis, depth)


def _method_of_a_value(func: nodes.NodeNG) -> bool:
    """``v.sum``, ``v.T``: an attribute of a value, not a module's function
    (``ops.softmax``, which names something) nor a host copy (``x.asnumpy``)."""
    return isinstance(func, nodes.Attribute) and func.attrname not in apis.HOST_COPY_METHODS \
        and resolve.qualified_name(func) is None


def _sequence_without_copy(expr: nodes.NodeNG) -> bool:
    """``[col for (_, col) in pairs]``, ``(a, b)`` written in the call with no host copy
    in it (``[x.asnumpy() for x in xs]`` makes the copies there: judged with them)."""
    return isinstance(expr, (nodes.List, nodes.Tuple, nodes.ListComp, nodes.GeneratorExp)) and not any(
        isinstance(call.func, nodes.Attribute) and call.func.attrname in apis.HOST_COPY_METHODS
        for call in expr.nodes_of_class(nodes.Call))


def _read_from_a_name(expr: nodes.NodeNG) -> bool:
    """``v.sum(1)``, ``v[:, 0]``, ``v.reshape(n, -1).T``: methods, elements and attributes
    read from a name, with no host copy among them (``v.asnumpy().sum()`` makes the
    copy in the call: judged with it, as before)."""
    while True:
        if isinstance(expr, nodes.Call) and isinstance(expr.func, nodes.Attribute):
            if not _method_of_a_value(expr.func):
                return False
            expr = expr.func.expr
        elif isinstance(expr, nodes.Subscript):
            expr = expr.value
        elif isinstance(expr, nodes.Attribute):
            if not _method_of_a_value(expr):
                return False
            expr = expr.expr
        else:
            return isinstance(expr, nodes.Name)


def _returned_host_data(name: nodes.Name) -> bool:
    """``ids, tries = choice(n, k, targets)`` where the module's own ``choice`` returns, at
    every return, host data in that place (``np.array(...)``, a number, a local counter
    of numbers): the name holds no tensor, whatever the call was given."""
    assign = values.reaching_assignment(name)
    if assign is None or len(assign.targets) != 1 or not isinstance(assign.value, nodes.Call) \
            or not isinstance(assign.value.func, nodes.Name):
        return False
    func = resolve.binding(assign.value.func)
    if not isinstance(func, nodes.FunctionDef) or func.root() is not name.root() or func.is_method():
        return False
    target = assign.targets[0]
    if isinstance(target, nodes.AssignName):
        index = None
    elif isinstance(target, nodes.Tuple):
        places = [i for i, elt in enumerate(target.elts) if isinstance(elt, nodes.AssignName) and elt.name == name.name]
        if len(places) != 1:
            return False
        index = places[0]
    else:
        return False
    returned = [value for _, value in training_code.returns(func)]
    if not returned:
        return False
    for value in returned:
        if index is not None:
            if not isinstance(value, nodes.Tuple) or len(value.elts) != len(target.elts):
                return False
            value = value.elts[index]
        if not (values.host_data(value) or _number_local(value, func)):
            return False
    return True


def _number_local(expr: nodes.NodeNG, func: nodes.FunctionDef) -> bool:
    """A number literal, or a local of ``func`` only ever bound to numbers (``tries = 0``,
    ``tries += 1``)."""
    if isinstance(expr, nodes.Const):
        return isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool)
    if not isinstance(expr, nodes.Name) or expr.name in func.argnames():
        return False
    bindings = func.locals.get(expr.name, ())
    return bool(bindings) and all(
        (isinstance(binding.parent, nodes.AugAssign)
         or isinstance(binding.parent, nodes.Assign) and binding.parent.targets == [binding])
        and isinstance(binding.parent.value, nodes.Const) and isinstance(binding.parent.value.value, (int, float))
        for binding in bindings
    )


def _arithmetic_without_copy(expr: nodes.NodeNG) -> bool:
    """``(a + 2.0) / (a + 1.0)`` written in the call: arithmetic judged by its operands
    (``a`` a host copy made on an earlier line), unless a host copy is made in it."""
    return isinstance(expr, (nodes.BinOp, nodes.UnaryOp)) and not any(
        isinstance(call.func, nodes.Attribute) and call.func.attrname in apis.HOST_COPY_METHODS
        for call in expr.nodes_of_class(nodes.Call)
    )


_HOST_VALUE_DEPTH = 8
_HOST_VALUE_BINDINGS = 16


def _inputs_passed_on(expr: nodes.NodeNG, callee: nodes.FunctionDef) -> bool:
    """In a function of another module that differentiated code calls (the first
    layer's ``construct``, given the batch by the network's): every call passes the
    parameters ``expr`` reads the inputs of a function differentiated with respect
    to the weights only, or values computed from them and constants alone."""
    calls = calls_into(callee)
    if not calls:
        return False
    params = {param.name for param in astutil.all_params(callee)}
    read = {name.name for name in [expr, *expr.nodes_of_class(nodes.Name)] if isinstance(name, nodes.Name)} & params
    for call, skips_self, home in calls:
        found = home.enclosing(call)
        caller = found[0] if found is not None else None
        if not isinstance(caller, nodes.FunctionDef) or not home.differentiated_by_weights_only(caller):
            return False
        passed = {}
        for names, value in astutil.bind_call(call, callee, skips_self):
            for name in names:
                passed.setdefault(name, []).append(value)
        for name in read:
            if len(passed.get(name, ())) != 1 or not _input_only(passed[name][0], caller, frozenset()):
                return False  # left to its default, or bound through *args/**kwargs: unsure
    return True


def _defines_bprop(node: nodes.NodeNG) -> bool:
    """Whether ``node`` is in a method of a Cell that defines ``bprop``: MindSpore
    differentiates the Cell with that bprop, not through its construct."""
    cls = astutil.enclosing_class(node)
    return cls is not None and resolve.find_method(cls, apis.BPROP_METHOD) is not None


def _is_parameter(expr: nodes.NodeNG, analysis) -> bool:
    """``self.<attr>`` where every assignment of the attribute outside graph code makes a Parameter."""
    attr = astutil.self_attribute(expr)
    cls = astutil.enclosing_class(expr)
    return attr is not None and cls is not None and analysis.class_facts(cls).kind(attr) == values.PARAMETER


def _input_only(expr: nodes.NodeNG | None, func: nodes.FunctionDef, seen: frozenset) -> bool:  # noqa: C901, PLR0911
    """Whether ``expr`` is computed from ``func``'s parameters and constants alone:
    no Cell, no ``self`` attribute, no helper whose result may carry a gradient."""
    if isinstance(expr, nodes.Const):
        return True
    if isinstance(expr, nodes.Name):
        if expr.name in seen:
            return True
        bindings = func.locals.get(expr.name)
        if not bindings:
            qname = resolve.qualified_name(expr)
            return qname is not None and resolve.root_package(qname) in _CONSTANT_PACKAGES
        for binding in bindings:
            parent = binding.parent
            if isinstance(parent, nodes.Arguments):
                if _is_self_parameter(binding, func):
                    return False  # ``self``: the Cell, its layers and weights
                continue
            if not (isinstance(parent, nodes.Assign) and parent.targets == [binding]):
                return False
            if not _input_only(parent.value, func, seen | {expr.name}):
                return False
        return True
    if isinstance(expr, nodes.Attribute):
        if astutil.self_attribute(expr) is not None:
            return False
        qname = resolve.qualified_name(expr)
        if qname is not None:
            return resolve.root_package(qname) in _CONSTANT_PACKAGES
        return _input_only(expr.expr, func, seen)
    if isinstance(expr, nodes.Call):
        callee = expr.func
        arguments = astutil.call_arguments(expr)
        if isinstance(callee, nodes.Attribute) and resolve.qualified_name(callee) is None:
            if callee.attrname in _LAYOUT_METHODS:
                arguments = []  # ``rewards.reshape(self.cfg.batch)``: a shape, no value the result is computed from
            arguments.append(callee.expr)  # a method of the value: labels.astype(...)
        else:
            qname = resolve.qualified_name(callee)
            if qname is None or resolve.root_package(qname) not in _CONSTANT_PACKAGES | {"int", "float"}:
                return False
        return all(_input_only(argument, func, seen) for argument in arguments)
    if isinstance(expr, (nodes.Subscript, nodes.Slice, nodes.BinOp, nodes.UnaryOp, nodes.Compare, nodes.Tuple, nodes.List)):
        return all(_input_only(child, func, seen) for child in expr.get_children())
    return False


def _is_self_parameter(param: nodes.AssignName, func: nodes.FunctionDef) -> bool:
    """``self`` of a method (``construct``): what it reaches is the Cell's state."""
    if not (isinstance(func.parent, nodes.ClassDef) and astutil.is_bound_method(func)):
        return False
    positional = astutil.positional_params(func)
    return bool(positional) and positional[0] is param


# Tensor methods whose arguments are a shape, axes or a dtype: the result's values
# come from the receiver alone.
_LAYOUT_METHODS = frozenset({"reshape", "view", "copy", "astype", "squeeze", "unsqueeze", "expand_dims",
                             "transpose", "permute", "flatten", "swapaxes"})
# Packages whose names are constants or tensor constructors, not trainable state:
# dtypes (mindspore.int32), Tensor(...), numpy conversions.
_CONSTANT_PACKAGES = frozenset({"mindspore", "numpy"})


def _ops_edits(call: nodes.Call, qname: str) -> list | None:
    """``np.exp(x)`` -> ``ops.exp(x)`` for the functions with the same positional
    arguments (apis.NUMPY_EXACT_OPS), through the module's own name for
    mindspore.ops, else adding ``from mindspore import ops``."""
    op = apis.NUMPY_EXACT_OPS.get(qname)
    if op is None or call.keywords or any(isinstance(arg, nodes.Starred) for arg in call.args):
        return None
    module = call.root()
    spelling, import_edit = edits.module_alias(module, apis.OPS_MODULE, at=call)
    if spelling is None:
        return None
    return [edits.replace(call.func, f"{spelling}.{op}"), *([import_edit] if import_edit else [])]


def register(linter: PyLinter) -> None:
    linter.register_checker(GraphHostCodeChecker(linter))


def _bounds_are_sizes(arguments: list, analysis) -> bool:
    """Whether every tensor-looking argument of a random integer draw is a size or
    a count (``x.shape[0]``, ``x.size``, ``len(x)``, ``data.num_nodes``, and
    integer arithmetic on them): the draw returns an index, not tensor data."""
    tensors = [argument for argument in arguments if analysis.depends_on_tensor(argument)]
    return bool(tensors) and all(_is_size(argument) for argument in tensors)


def _is_size(node: nodes.NodeNG) -> bool:
    if isinstance(node, nodes.Const):
        return isinstance(node.value, int) and not isinstance(node.value, bool)
    if isinstance(node, nodes.Attribute):
        return node.attrname in apis.SIZE_ATTRIBUTES or node.attrname.startswith(apis.COUNT_ATTRIBUTE_PREFIXES)
    if isinstance(node, nodes.Subscript):
        return isinstance(node.value, nodes.Attribute) and node.value.attrname == "shape"
    if isinstance(node, nodes.Call) and isinstance(node.func, nodes.Name) and node.func.name in ("len", "int"):
        return len(node.args) == 1 and not node.keywords and (node.func.name == "len" or _is_size(node.args[0]))
    if isinstance(node, nodes.BinOp) and node.op in ("+", "-", "*", "//"):
        return _is_size(node.left) and _is_size(node.right)
    return False
