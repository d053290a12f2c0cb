"""Cells and parameter data created or reinitialised inside graph code.

Measured on MindSpore 2.10 (FACTS.md): ``nn.Dense(2, 2)(x)`` inside construct
compiles, but its weights are fixed at compile time and never trained (the
network reports 0 trainable parameters). ``Parameter.set_data`` and
``initializer(...)`` inside construct fail to compile at every syntax level
(tests/oracle/test_graph.py); ``ops.assign`` is the graph-mode way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis
from mslint.analysis import astutil, programs, resolve, scope, training_code, values
from mslint.checkers import follow
from mslint.checkers.follow import GraphModeNote
from mslint.checkers.messages import spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter


class GraphCellsChecker(GraphModeNote, BaseChecker):
    name = "mindspore-graph-cells"
    msgs = {
        "W7301": (
            "%s(...) created inside %s %s; create it in __init__ as self.<name> and call that here%s",
            "ms-cell-in-construct",
            "An nn.Cell instantiated inside construct or a @jit function: its parameters are "
            "constants of the compiled graph, so the network has nothing to train there; a "
            "dropout layer built there drops nothing (training=False); built from runtime values "
            "(a tensor), it fails to compile.",
        ),
        "E7302": (
            "%s(...) inside graph code fails to compile at every jit_syntax_level; %s%s",
            "ms-parameter-init-in-construct",
            "`Parameter.set_data`, `init_data` or `initializer(...)` inside graph code: host "
            "operations the graph compiler refuses (RuntimeError under LAX, AttributeError "
            "or RuntimeError under STRICT).",
        ),
    }

    @only_required_for_messages("ms-cell-in-construct", "ms-parameter-init-in-construct")
    def visit_call(self, node: nodes.Call) -> None:
        analysis = scope.graph_call_analysis(node)
        if analysis is None:
            self._dropout_in_forward(node)
            return
        func = node.func
        if isinstance(func, nodes.Attribute) and func.attrname in apis.PARAMETER_INIT_METHODS:
            if resolve.qualified_name(func) is None:  # a method of a value, not a module function
                self.add_message(
                    "ms-parameter-init-in-construct",
                    node=node,
                    args=(spelled(func), "update it with ops.assign(param, value)"),
                )
            return
        qname = resolve.qualified_name(func)
        if qname in apis.PARAMETER_INIT_CALLS:
            self.add_message(
                "ms-parameter-init-in-construct",
                node=node,
                args=(spelled(func), "create the Parameter in __init__ and update it with ops.assign(param, value)"),
            )
            return
        if qname is not None and resolve.is_cell_qname(qname):
            runtime = _runtime_arguments(node, analysis)
            if runtime:
                self.add_message("ms-cell-in-construct", node=node, args=(spelled(func), "graph code", _NOT_CONSTANT.format(runtime)))
            elif _never_called(node) or _guarded_off_by_every_construction(node):
                return  # built and dropped, or never built: nothing it would drop or train ever runs
            elif _is_dropout(qname):
                self.add_message("ms-cell-in-construct", node=node, args=(spelled(func), "graph code", _NEVER_DROPS))
            # Softmax, ReLU, pooling, losses: no weights, nothing left untrained
            elif values.builds_parameters(node, qname) and not _functional_idiom(node, analysis) \
                    and not _never_trained(node):
                self.add_message("ms-cell-in-construct", node=node, args=(spelled(func), "graph code", _UNTRAINED))
            return
        cls = resolve.user_class_of_call(node)
        if cls is None or not analysis.is_cell_class(cls):
            return
        runtime = _runtime_arguments(node, analysis)
        if runtime:
            self.add_message("ms-cell-in-construct", node=node, args=(spelled(func), "graph code", _NOT_CONSTANT.format(runtime)))
        elif _never_called(node):
            return  # ``loss = SegLoss()`` and its use commented out: no weight of it ever runs
        elif analysis.class_facts(cls).creates_trainable_parameters(analysis.class_facts) and not _never_trained(node):
            self.add_message("ms-cell-in-construct", node=node, args=(spelled(func), "graph code", _UNTRAINED))


    def _dropout_in_forward(self, node: nodes.Call) -> None:
        """A dropout layer built in the construct of a Cell that runs PyNative: a new
        Cell with training=False there too (measured in both modes), so it drops
        nothing; graph code is judged in visit_call."""
        if follow.walking() or not isinstance(node.func, (nodes.Name, nodes.Attribute)) \
                or not node.func.as_string().rpartition(".")[2].startswith("Dropout"):
            return  # (reported in its own module: the walk of a caller's followed calls adds nothing)
        qname = resolve.qualified_name(node.func)
        if qname is None or not resolve.is_cell_qname(qname) or not _is_dropout(qname):
            return
        found = astutil.enclosing_method(node)
        if found is None or found[0].name != apis.CELL_FORWARD_METHOD or not resolve.is_cell_class(found[1]) \
                or node.frame() is not found[0] or _never_called(node) or _set_training_here(node) \
                or _called_with_training_off(node) or _guarded_off_by_every_construction(node):
            return
        self.add_message("ms-cell-in-construct", node=node, args=(spelled(node.func), "construct, which runs PyNative here,", _NEVER_DROPS))


_UNTRAINED = "is built once at compile time and its weights are never trained"
# measured (GRAPH_MODE and PyNative): nn.Dropout(p=0.5), nn.Dropout2d(0.5), mint.nn.Dropout(0.5)
# built in construct zero 0% of the input after net.set_train(); in __init__ about 50%
_NEVER_DROPS = (
    "is a new Cell with training=False, which net.set_train() never reaches: it drops nothing, "
    "in training too"
)


def _guarded_off_by_every_construction(call: nodes.Call) -> bool:
    """The layer is built under ``if self.drop_rate > 0:`` (``!= 0``, ``if
    self.drop_rate:``) and every construction in sight gives the value 0
    (mslint.analysis.values.received, through ``self.drop_rate =
    float(drop_rate)`` to what each site passes): the layer never exists."""
    for test in astutil.guarding_tests(call):
        operand = _compared_with_zero(test)
        if operand is not None and _zero_in_every_way(operand):
            return True
    return False


def _compared_with_zero(test: nodes.NodeNG) -> nodes.NodeNG | None:
    """X of ``X > 0``, ``X != 0``, ``0 < X`` or a bare ``X`` (a name or attribute)."""
    if isinstance(test, (nodes.Name, nodes.Attribute)):
        return test
    if isinstance(test, nodes.Compare) and len(test.ops) == 1:
        op, right = test.ops[0]
        if op in (">", "!=") and isinstance(right, nodes.Const) and right.value == 0 and not isinstance(right.value, bool):
            return test.left if isinstance(test.left, (nodes.Name, nodes.Attribute)) else None
        if op == "<" and isinstance(test.left, nodes.Const) and test.left.value == 0 and not isinstance(test.left.value, bool):
            return right if isinstance(right, (nodes.Name, nodes.Attribute)) else None
    return None


def _zero_in_every_way(operand: nodes.NodeNG, depth: int = 0) -> bool:
    if depth > 3:
        return False
    flows = values.received(operand)
    if flows is None:
        # ``self.drop_rate`` read in a construct no call in sight runs (a layer of
        # a CellList, called in ``for layer in self:``): its value is what
        # ``__init__`` assigns, whatever calls construct
        assigned = values.init_value(operand)
        return assigned is not None and _zero_in_every_way(assigned, depth + 1)
    if not flows:
        return False
    for flow in flows:
        if flow.value is not astutil.UNKNOWN:
            if not astutil.is_number(flow.value) or flow.value != 0:
                return False
            continue
        written = flow.written
        if isinstance(written, nodes.Call) and isinstance(written.func, nodes.Name) and written.func.name in ("float", "int") \
                and len(written.args) == 1 and not written.keywords:
            written = written.args[0]  # self.drop_rate = float(drop_rate)
        if not isinstance(written, (nodes.Name, nodes.Attribute)) or written is operand \
                or not _zero_in_every_way(written, depth + 1):
            return False
    return True


def _set_training_here(call: nodes.Call) -> bool:
    """The new layer's own training flag is turned on where it is built:
    ``drop = nn.Dropout(p=0.1); drop.set_train()`` or ``nn.Dropout(p=0.1).set_train()``
    (measured in PyNative: it drops)."""
    parent = call.parent
    if isinstance(parent, nodes.Attribute) and parent.attrname == "set_train":
        return _turns_training_on(parent.parent)
    target = astutil.local_target(call)
    if target is None:
        return False
    name = target.name
    return any(
        isinstance(use.func, nodes.Attribute) and use.func.attrname == "set_train"
        and isinstance(use.func.expr, nodes.Name) and use.func.expr.name == name and _turns_training_on(use)
        for use in call.frame().nodes_of_class(nodes.Call)
    )


def _called_with_training_off(call: nodes.Call) -> bool:
    """The new layer is called with ``training=False`` (PyTorch's
    ``F.dropout(x, training=False)`` rewritten with the layer class): the author
    asks for no dropping, which is what it does (the keyword itself is another
    matter: nn.Dropout's construct takes none)."""
    uses = [call.parent] if isinstance(call.parent, nodes.Call) and call.parent.func is call else []
    target = astutil.local_target(call)
    if target is not None:
        uses += [use for use in call.frame().nodes_of_class(nodes.Call)
                 if isinstance(use.func, nodes.Name) and use.func.name == target.name]
    return bool(uses) and all(
        any(keyword.arg == "training" and astutil.literal_bool(keyword.value) is False for keyword in use.keywords or ())
        for use in uses)


def _turns_training_on(call: nodes.NodeNG) -> bool:
    """``x.set_train()`` or ``x.set_train(True)``."""
    if not isinstance(call, nodes.Call) or call.keywords or len(call.args) > 1:
        return False
    return not call.args or astutil.literal_bool(call.args[0]) is True


def _never_called(call: nodes.Call) -> bool:
    """A Cell built in graph code and dropped: a bare expression statement, or a local
    name nothing in its function reads (``loss = SegLoss()`` whose call was commented
    out). Measured on 2.10 (GRAPH_MODE): such a construct compiles, runs and trains
    the rest of the network; the dead Cell's weights never take part."""
    return isinstance(call.parent, nodes.Expr) or astutil.held_by_unread_local(call)


def _never_trained(call: nodes.Call) -> bool:
    """Nothing in the program can train the Cell's weights, nor load trained ones
    into it: the code is in a file that is its own program and that nothing else in
    sight imports (a notebook, a test, a demo script), nothing else its program
    reaches trains or loads weights (programs.self_contained), and the file's own
    code names no optimizer, calls nothing named to train, fit or load weights, and
    applies no gradient it computes (training_code.may_update_weights): a forward
    pass under @jit, a test comparing outputs and input gradients. Built in
    __init__ or in construct, the weights stay the random values they start with."""
    module = call.root()
    return programs.self_contained(module.file) and not training_code.may_update_weights(module)


def _is_dropout(qname: str) -> bool:
    api = apis.LAYER_APIS.get(qname)
    return api is not None and api.family == "dropout"
# measured: nn.Dense(x, 2) in construct, GRAPH_MODE: TypeError "When creating an instance
# of 'Dense', all arguments are required to be constants"
_NOT_CONSTANT = (
    "from the runtime value {} fails to compile: graph mode builds a Cell only from constants "
    "(TypeError: all arguments are required to be constants)"
)


def _runtime_arguments(call: nodes.Call, analysis: scope.ModuleAnalysis) -> str:
    """The first argument that is certainly a runtime tensor (its shape would be a
    constant; a bare construct parameter may be a Python number; what a MindSpore
    layer of TENSOR_OUTPUT_CELLS returned is one), as written."""
    known = analysis.values_at(call)
    if known is None:
        return ""
    cls = astutil.enclosing_class(call)
    for argument in astutil.call_arguments(call):
        if not known.is_tensor(argument):
            if values.cell_output(argument) == values.TENSOR:
                # ``out = self.relu(self.conv(x))`` then ``nn.AdaptiveAvgPool2d(out, 1)``:
                # what a MindSpore layer returned (PyTorch's F.adaptive_avg_pool2d misread)
                return spelled(argument)
            continue
        attr = astutil.self_attribute(argument)
        if attr is not None and (cls is None or analysis.class_facts(cls).kind(attr) != values.PARAMETER):
            continue  # a Tensor attribute is a constant of the graph (measured: it builds)
        if _literal_tensor(argument) or _literal_tensor(resolve.assigned_value(argument, sole=True)):
            continue  # ``Tensor([14.7, 5.2], mstype.float32)``: folded into a constant (measured: it builds)
        return spelled(argument)
    return ""


_TENSOR_CLASSES = frozenset({"mindspore.Tensor", "mindspore.common.tensor.Tensor"})


def _literal_tensor(value: nodes.NodeNG | None) -> bool:
    """``Tensor([2.0, 5.0, 1.5], mstype.float32)``: a Tensor built from literal
    numbers (a number, or a list or tuple of them, nested), with at most a
    MindSpore dtype beside them. Graph mode folds it into a constant of the graph:
    a Cell built from it in construct compiles (tests/oracle/test_graph.py)."""
    if not isinstance(value, nodes.Call) or resolve.qualified_name(value.func) not in _TENSOR_CLASSES:
        return False
    if len(value.args) > 2 or any(keyword.arg not in ("input_data", "dtype") for keyword in value.keywords):
        return False
    data = astutil.argument(value, 0, "input_data")
    if not _literal_numbers(astutil.literal(data) if isinstance(data, nodes.NodeNG) else astutil.UNKNOWN):
        return False
    dtype = astutil.argument(value, 1, "dtype")
    if dtype is None:
        return True
    qname = resolve.qualified_name(dtype) if isinstance(dtype, (nodes.Name, nodes.Attribute)) else None
    return qname is not None and resolve.root_package(qname) == "mindspore"


def _literal_numbers(value: object) -> bool:
    if isinstance(value, (list, tuple)):
        return bool(value) and all(_literal_numbers(part) for part in value)
    return astutil.is_number(value)


def _functional_idiom(call: nodes.Call, analysis: scope.ModuleAnalysis) -> bool:
    """A layer used as a function, not a layer left untrained: sized from the input's
    own shape (``nn.LayerNorm(x.shape[1:])``, PyTorch's ``F.layer_norm`` without
    weights; a new shape per input could never be a trained layer), or given fixed
    weights as a value and no bias (``nn.Conv1d(..., weight_init=self.basis)``)."""
    weights = astutil.argument(call, None, apis.FIXED_WEIGHT_KEYWORD)
    if _fixed_value(weights):
        bias = astutil.argument(call, None, apis.BIAS_KEYWORD)
        if bias is None or astutil.literal_bool(bias) is False:
            return True
    known = analysis.values_at(call)
    return known is not None and any(
        _reads_input_shape(argument, known, depth=2) for argument in astutil.call_arguments(call)
    )


def _fixed_value(weights: object) -> bool:
    """A weight given as data (a name, an attribute, a Tensor), not an initializer
    (``"normal"``, ``Normal(0.02)``, None)."""
    if isinstance(weights, (nodes.Name, nodes.Attribute, nodes.Subscript)):
        return True
    return isinstance(weights, nodes.Call) and values.produces_tensor(weights)


def _reads_input_shape(expr: nodes.NodeNG, known: values.FunctionValues, depth: int) -> bool:
    """Whether ``expr`` reads the shape of a runtime tensor, directly (``x.shape[1:]``,
    ``ops.shape(x)``, ``mnp.size(x, axis=1)``, ``len(x)``) or through names bound from
    it (``h, w = x.shape[2:]``)."""
    for attribute in expr.nodes_of_class(nodes.Attribute):
        if attribute.attrname in apis.STATIC_TENSOR_ATTRIBUTES and known.depends(attribute.expr):
            return True
    for call in expr.nodes_of_class(nodes.Call):
        if values.constant_result(call) and any(known.depends(argument) for argument in astutil.call_arguments(call)):
            return True
    if depth == 0:
        return False
    for name in expr.nodes_of_class(nodes.Name):
        frame = name.frame()
        for binding in frame.locals.get(name.name, ()) if isinstance(frame, nodes.FunctionDef) else ():
            statement = binding.parent
            while isinstance(statement, (nodes.Tuple, nodes.List, nodes.Starred)):
                statement = statement.parent
            if isinstance(statement, nodes.Assign) and _reads_input_shape(statement.value, known, depth - 1):
                return True
    return False


def register(linter: PyLinter) -> None:
    linter.register_checker(GraphCellsChecker(linter))
