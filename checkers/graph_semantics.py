"""Graph code that compiles but does not mean what it says: host random numbers
and clocks frozen at compile time, mutations of the Cell's Python state that are
lost, tensors used where a Python number is needed.

Measured on MindSpore 2.10, GRAPH_MODE, under STRICT and LAX
(tests/oracle/test_graph_syntax.py):

- ``random.random()``, ``np.random.*``, ``time.time()`` with no tensor input run
  once while the graph compiles: two calls of the network return the same value
  at both levels (a LayerDrop decision frozen forever). ``ops.rand(..., seed=1)``
  draws anew at each call.
- ``self.lst.append(x)`` (and ``clear``) is lost at both levels: the list does not
  change and later reads in the graph do not see it; ``pop()`` returns the same
  element at every call; ``remove`` is lost under LAX and fails under STRICT;
  ``extend``/``insert`` are lost under STRICT (LAX runs them on the host).
- Assigning a ``self`` attribute that is not a Parameter fails to compile under
  STRICT; under LAX it is kept on the host through JIT fallback, and a tensor read
  back from it has a zero gradient. Assigning an item of a ``self`` list or dict is
  lost under LAX and fails under STRICT. Parameters are assigned fine.
- ``range(t)`` over a tensor fails to compile at both levels; ``float(p)``/``int(p)``
  of a trainable Parameter compiles but its gradient is zero at both levels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint import apis, resolve, scope
from mslint.checkers.graph_syntax import TensorValue, enclosing_method, is_op_function
from mslint.messages import jit_syntax_level, spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter

FROZEN = "ms-frozen-random-in-graph"
MUTATION = "ms-lost-mutation-in-graph"
PYTHON_VALUE = "ms-tensor-as-python-value"

# What ``self.<attr>`` holds, from its assignments outside graph code.
PARAMETER, LIST, DICT, VALUE, UNSURE, ABSENT = "parameter", "list", "dict", "value", "unsure", "absent"


class GraphSemanticsChecker(BaseChecker):
    name = "mindspore-graph-semantics"
    msgs = {
        "E7901": (
            "%s() in graph code runs once, while the graph compiles: every call of the network reuses "
            "the same value; %s",
            FROZEN,
            "random.*, numpy.random.*, time.time() and similar host calls with no tensor input in "
            "graph code: MindSpore evaluates them once at compile time and the value never changes "
            "again (a LayerDrop or noise decision frozen forever).",
        ),
        "E7902": (
            "%s in graph code %s; %s",
            MUTATION,
            "self.<list>.append/clear/pop/remove (extend/insert under STRICT), an item assignment "
            "on a self list or dict, or an assignment to a self attribute that is not a Parameter, "
            "in graph code: lost, frozen at compile time, or a compile error under STRICT.",
        ),
        "E7903": (
            "%s %s; %s",
            PYTHON_VALUE,
            "A tensor where graph mode needs a Python number: range() over a runtime tensor fails "
            "to compile at every level; float()/int() of a trainable Parameter compiles but its "
            "gradient is zero.",
        ),
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._attr_cache: dict[nodes.ClassDef, tuple[dict[str, str], bool, frozenset[str]]] = {}

    def visit_module(self, _: nodes.Module) -> None:
        self._attr_cache.clear()  # keep memory flat over a large run

    # -- calls -----------------------------------------------------------------
    @only_required_for_messages(FROZEN, MUTATION, PYTHON_VALUE)
    def visit_call(self, node: nodes.Call) -> None:
        analysis = scope.graph_call_analysis(node)
        if analysis is None:
            return
        func = node.func
        qname = resolve.qualified_name(func)
        if qname is not None:
            if self._frozen(node, qname, analysis):
                return
            if isinstance(func, nodes.Name):
                self._python_value(node, qname, analysis)
            return
        if isinstance(func, nodes.Attribute) and func.attrname in apis.LIST_MUTATIONS:
            self._list_mutation(node, func)

    # -- ms-frozen-random-in-graph ---------------------------------------------
    def _frozen(self, node: nodes.Call, qname: str, analysis: scope.ModuleAnalysis) -> bool:
        if qname in apis.FROZEN_HOST_EXEMPT:
            return False
        is_clock = qname in apis.FROZEN_HOST_CALLS
        if not is_clock and not any(qname.startswith(module + ".") for module in apis.FROZEN_HOST_MODULES):
            return False
        arguments = list(node.args) + [keyword.value for keyword in node.keywords or ()]
        if any(analysis.depends_on_tensor(argument) for argument in arguments):
            return False  # drawn per call from tensor data: not frozen
        if is_clock:
            fix = apis.TIME_REPLACEMENT
        else:
            fix = "use %s with a seed instead" % apis.RANDOM_TO_MINDSPORE.get(qname, apis.RANDOM_DEFAULT_REPLACEMENT)
        self.add_message(FROZEN, node=node, args=(spelled(node.func), fix))
        return True

    # -- ms-lost-mutation-in-graph ---------------------------------------------
    def _list_mutation(self, node: nodes.Call, func: nodes.Attribute) -> None:
        attr = _self_attribute(func.expr)
        if attr is None:
            return
        found = self._cell_method(node)
        if found is None:
            return
        if self._attribute_kind(found[1], attr) != LIST:
            return
        outcome = apis.LIST_MUTATIONS[func.attrname][jit_syntax_level(self)]
        if func.attrname == "pop" and not isinstance(node.parent, (nodes.Assign, nodes.Expr)):
            outcome = apis.LIST_POP_IN_EXPRESSION
        if outcome is None:
            return  # LAX runs it on the host, as Python would
        what = "self.%s.%s()" % (attr, func.attrname)
        self.add_message(MUTATION, node=node, args=(what, outcome, apis.MUTATION_FIX))

    @only_required_for_messages(MUTATION)
    def visit_assign(self, node: nodes.Assign | nodes.AugAssign | nodes.AnnAssign) -> None:
        if isinstance(node, nodes.AnnAssign) and node.value is None:
            return  # ``self.x: int`` alone assigns nothing
        targets = node.targets if isinstance(node, nodes.Assign) else [node.target]
        analysis = scope.analysis(node.root())
        if not analysis.in_graph(node):
            return
        found = self._cell_method(node)
        if found is None:
            return
        method, cls = found
        for target in targets:
            for leaf in _flatten(target):
                if isinstance(leaf, nodes.AssignAttr):
                    self._attribute_assignment(node, leaf, method, cls, analysis)
                elif isinstance(leaf, nodes.Subscript):
                    self._item_assignment(node, leaf, cls)

    visit_augassign = visit_assign
    visit_annassign = visit_assign

    def _attribute_assignment(
        self,
        node: nodes.NodeNG,
        target: nodes.AssignAttr,
        method: nodes.FunctionDef,
        cls: nodes.ClassDef,
        analysis: scope.ModuleAnalysis,
    ) -> None:
        if not (isinstance(target.expr, nodes.Name) and target.expr.name == "self"):
            return
        attr = target.attrname
        if self._attribute_kind(cls, attr) in (PARAMETER, UNSURE):
            return
        if jit_syntax_level(self) == "strict":
            self.add_message(
                MUTATION,
                node=node,
                args=(
                    "assigning self.%s" % attr,
                    "fails to compile under jit_syntax_level STRICT (only Parameter attributes can be assigned)",
                    apis.MUTATION_FIX,
                ),
            )
            return
        # LAX keeps the value on the host; the harm is a tensor read back from it
        value = node.value
        if value is None or not analysis.depends_on_tensor(value):
            return
        trainable = self._class_attributes(cls)[2]
        if not _Gradient(analysis, node, trainable).carries(value):
            return  # a cache of rotary tables or shapes: no gradient to lose
        if not _read_after(method, attr, node):
            return
        self.add_message(
            MUTATION,
            node=node,
            args=(
                "assigning a tensor to self.%s" % attr,
                "keeps it on the host through JIT fallback under the default LAX level, and reading it "
                "back gives a silently zero gradient (STRICT: compile error)",
                apis.MUTATION_FIX,
            ),
        )

    def _item_assignment(self, node: nodes.NodeNG, target: nodes.Subscript, cls: nodes.ClassDef) -> None:
        attr = _self_attribute(target.value)
        if attr is None:
            return
        kind = self._attribute_kind(cls, attr)
        if kind not in (LIST, DICT):
            return
        if jit_syntax_level(self) == "strict":
            outcome = "fails to compile under jit_syntax_level STRICT (under LAX it is lost)"
        else:
            outcome = (
                "is lost under the default LAX level: the Cell's %s does not change (STRICT: compile error)" % kind
            )
        self.add_message(MUTATION, node=node, args=("assigning an item of self.%s" % attr, outcome, apis.MUTATION_FIX))

    def _cell_method(self, node: nodes.NodeNG) -> tuple[nodes.FunctionDef, nodes.ClassDef] | None:
        found = enclosing_method(node)
        if found is None:
            return None
        analysis = scope.analysis(node.root())
        return found if analysis.is_cell_class(found[1]) else None

    def _attribute_kind(self, cls: nodes.ClassDef, attr: str) -> str:
        kinds, dynamic, _ = self._class_attributes(cls)
        kind = kinds.get(attr)
        if kind is not None:
            return kind
        if dynamic:
            return UNSURE  # setattr / insert_param_to_cell may create it
        _, external = resolve.class_hierarchy(cls)
        if external - apis.CELL_ROOT_CLASSES - {"object"}:
            return UNSURE  # a MindSpore layer base (nn.Dense owns weight, bias) or an unknown base
        return ABSENT

    def _class_attributes(self, cls: nodes.ClassDef) -> tuple[dict[str, str], bool, frozenset[str]]:
        """(kind of each self attribute, whether attributes are created dynamically,
        trainable Parameter attributes), from the class and its user bases, outside
        graph code."""
        cached = self._attr_cache.get(cls)
        if cached is not None:
            return cached
        user, _ = resolve.class_hierarchy(cls)
        seen: dict[str, set[str]] = {}
        trainable: set[str] = set()
        dynamic = False
        for klass in user:
            for name, bound in klass.locals.items():  # class attributes: ``count = 0``
                for assign_name in bound:
                    if isinstance(assign_name, nodes.AssignName) and isinstance(assign_name.parent, nodes.Assign):
                        seen.setdefault(name, set()).add(_value_kind(assign_name.parent.value))
            for method in klass.mymethods():
                if scope.analysis(method.root()).kinds.get(method) == scope.GRAPH:
                    continue
                for call in method.nodes_of_class(nodes.Call):
                    callee = call.func
                    if isinstance(callee, nodes.Attribute):
                        callee_name = callee.attrname
                    else:
                        callee_name = getattr(callee, "name", None)
                    if callee_name in apis.DYNAMIC_ATTRIBUTE_CALLS:
                        dynamic = True
                for assign in method.nodes_of_class((nodes.Assign, nodes.AnnAssign)):
                    if assign.value is None:
                        continue
                    targets = assign.targets if isinstance(assign, nodes.Assign) else [assign.target]
                    for target, value in _pairs(targets, assign.value):
                        attr = _assigned_self_attribute(target)
                        if attr is None:
                            continue
                        kind = _value_kind(value)
                        seen.setdefault(attr, set()).add(kind)
                        if kind == PARAMETER and _is_trainable(value):
                            trainable.add(attr)
        kinds: dict[str, str] = {}
        for attr, found in seen.items():
            if PARAMETER in found or UNSURE in found:
                kinds[attr] = UNSURE if UNSURE in found else PARAMETER
            elif len(found) == 1:
                kinds[attr] = found.pop()
            else:
                kinds[attr] = VALUE if LIST not in found and DICT not in found else UNSURE
        result = (kinds, dynamic, frozenset(trainable))
        self._attr_cache[cls] = result
        return result

    # -- ms-tensor-as-python-value ---------------------------------------------
    def _python_value(self, node: nodes.Call, qname: str, analysis: scope.ModuleAnalysis) -> None:
        if qname in apis.INT_ONLY_BUILTINS:
            evaluator = TensorValue(analysis, node, frozenset())
            if any(not isinstance(arg, nodes.Starred) and evaluator.evaluate(arg)[0] for arg in node.args):
                self.add_message(
                    PYTHON_VALUE,
                    node=node,
                    args=(
                        "%s() over a runtime tensor" % spelled(node.func),
                        "fails to compile at every jit_syntax_level (it needs a Python int)",
                        "use a static bound such as x.shape[0], or %s(int(t))" % spelled(node.func),
                    ),
                )
            return
        if qname in apis.SCALAR_CONVERSIONS and len(node.args) == 1 and not node.keywords:
            found = self._cell_method(node)
            if found is None:
                return
            trainable = self._class_attributes(found[1])[2]
            if not trainable:
                return
            is_tensor, sources = TensorValue(analysis, node, trainable).evaluate(node.args[0])
            if is_tensor and sources:
                argument = node.args[0]
                direct = _self_attribute(argument) in sources
                of = "the trainable Parameter" if direct else "a value computed from the trainable Parameter"
                self.add_message(
                    PYTHON_VALUE,
                    node=node,
                    args=(
                        "%s() of %s self.%s" % (spelled(node.func), of, sorted(sources)[0]),
                        "makes a Python number: its gradient is silently zero at every jit_syntax_level",
                        "use the tensor itself (cast it with .astype() if needed)",
                    ),
                )


class _Gradient:
    """Whether a value certainly carries a gradient: computed by tensor operations
    from a tensor argument of graph code or a trainable Parameter (silent when unsure:
    user helpers, dtype-only uses such as ``t.type_as(x)``)."""

    def __init__(self, analysis: scope.ModuleAnalysis, at: nodes.NodeNG, trainable: frozenset[str]) -> None:
        taint = analysis.taint_of(at)
        self.tensor_names = taint.names if taint is not None else set()
        self.trainable = trainable

    def carries(self, expr: nodes.NodeNG, depth: int = 0) -> bool:  # noqa: C901 - one case per node type
        if depth > 12:
            return False
        if isinstance(expr, nodes.Name):
            return self._name(expr, depth)
        if isinstance(expr, nodes.Attribute):
            if expr.attrname in apis.STATIC_TENSOR_ATTRIBUTES:
                return False
            if isinstance(expr.expr, nodes.Name) and expr.expr.name == "self":
                return expr.attrname in self.trainable
            return self.carries(expr.expr, depth + 1)
        if isinstance(expr, nodes.Subscript):
            return self.carries(expr.value, depth + 1)
        if isinstance(expr, nodes.BinOp):
            return self.carries(expr.left, depth + 1) or self.carries(expr.right, depth + 1)
        if isinstance(expr, nodes.UnaryOp):
            return self.carries(expr.operand, depth + 1)
        if isinstance(expr, (nodes.Tuple, nodes.List)):
            return any(self.carries(element, depth + 1) for element in expr.elts)
        if isinstance(expr, nodes.Call):
            return self._call(expr, depth)
        return False

    def _name(self, expr: nodes.Name, depth: int) -> bool:
        frame = expr.frame()
        bindings = frame.locals.get(expr.name, []) if isinstance(frame, (nodes.FunctionDef, nodes.Lambda)) else []
        for binding in bindings:
            parent = binding.parent if isinstance(binding, nodes.AssignName) else None
            if isinstance(parent, nodes.Arguments):
                if expr.name in self.tensor_names:
                    return True
            elif isinstance(parent, nodes.Assign) and parent.targets == [binding]:
                if self.carries(parent.value, depth + 1):
                    return True
        return False

    def _call(self, expr: nodes.Call, depth: int) -> bool:
        func = expr.func
        arguments = list(expr.args) + [keyword.value for keyword in expr.keywords or ()]
        if isinstance(func, nodes.Attribute) and resolve.qualified_name(func) is None:
            method = func.attrname
            if method in apis.GRADIENT_STOPPING_METHODS or method in apis.STATIC_TENSOR_METHODS:
                return False
            if method in apis.HOST_COPY_METHODS:
                return False
            if self.carries(func.expr, depth + 1):
                return True
            if method in apis.RECEIVER_ONLY_METHODS:
                return False  # t.type_as(x): x lends its dtype, not its data
            return any(self.carries(argument, depth + 1) for argument in arguments)
        qname = resolve.qualified_name(func) if isinstance(func, (nodes.Name, nodes.Attribute)) else None
        if qname is None or qname in apis.GRADIENT_STOPPING_CALLS or qname in apis.CONSTANT_RESULT_CALLS:
            return False
        if is_op_function(qname):
            return any(self.carries(argument, depth + 1) for argument in arguments)
        return False


def _self_attribute(expr: nodes.NodeNG) -> str | None:
    """``attr`` of an expression ``self.attr``."""
    if isinstance(expr, nodes.Attribute) and isinstance(expr.expr, nodes.Name) and expr.expr.name == "self":
        return expr.attrname
    return None


def _assigned_self_attribute(target: nodes.NodeNG) -> str | None:
    if isinstance(target, nodes.AssignAttr) and isinstance(target.expr, nodes.Name) and target.expr.name == "self":
        return target.attrname
    return None


def _flatten(target: nodes.NodeNG) -> list[nodes.NodeNG]:
    if isinstance(target, (nodes.Tuple, nodes.List)):
        found: list[nodes.NodeNG] = []
        for element in target.elts:
            found.extend(_flatten(element))
        return found
    if isinstance(target, nodes.Starred):
        return _flatten(target.value)
    return [target]


def _pairs(targets: list[nodes.NodeNG], value: nodes.NodeNG) -> list[tuple[nodes.NodeNG, nodes.NodeNG | None]]:
    """(target, value) pairs of an assignment; value None where unpacking hides it."""
    pairs: list[tuple[nodes.NodeNG, nodes.NodeNG | None]] = []
    for target in targets:
        if isinstance(target, (nodes.Tuple, nodes.List)):
            if isinstance(value, (nodes.Tuple, nodes.List)) and len(value.elts) == len(target.elts):
                for element, element_value in zip(target.elts, value.elts):
                    pairs.extend(_pairs([element], element_value))
            else:
                pairs.extend((leaf, None) for leaf in _flatten(target))
        else:
            pairs.append((target, value))
    return pairs


def _value_kind(value: nodes.NodeNG | None) -> str:  # noqa: C901 - one case per value form
    """What assigning ``value`` to an attribute makes it: a Parameter, a list, a dict,
    another known value, or unsure."""
    if value is None:
        return UNSURE
    if isinstance(value, (nodes.List, nodes.ListComp)):
        return LIST
    if isinstance(value, (nodes.Dict, nodes.DictComp)):
        return DICT
    if isinstance(value, (nodes.Const, nodes.Tuple, nodes.JoinedStr, nodes.Set)):
        return VALUE
    if isinstance(value, (nodes.BinOp, nodes.UnaryOp, nodes.Compare, nodes.BoolOp)):
        children = list(value.get_children())
        kinds = {_value_kind(child) for child in children if not isinstance(child, nodes.Const)}
        if not kinds or kinds <= {VALUE}:
            return VALUE
        return UNSURE
    if isinstance(value, nodes.Call):
        qname = resolve.qualified_name(value.func) if isinstance(value.func, (nodes.Name, nodes.Attribute)) else None
        if qname is None:
            return UNSURE
        if qname in apis.PARAMETER_CLASSES:
            return PARAMETER
        if qname in apis.LIST_FACTORIES:
            return LIST
        if qname in apis.DICT_FACTORIES:
            return DICT
        if qname == "mindspore.Tensor" or qname in apis.PYTHON_SCALAR_BUILTINS:
            return VALUE
        if is_op_function(qname):
            return VALUE  # ops.ones(...): a tensor, not a Parameter
        return UNSURE
    return UNSURE


def _is_trainable(call: nodes.NodeNG) -> bool:
    """``Parameter(...)`` without ``requires_grad=False`` (third positional)."""
    if not isinstance(call, nodes.Call):
        return False
    flag = None
    if len(call.args) > 2:
        flag = call.args[2]
    for keyword in call.keywords or ():
        if keyword.arg == "requires_grad":
            flag = keyword.value
    if flag is None:
        return True
    return isinstance(flag, nodes.Const) and flag.value is True


def _read_after(method: nodes.FunctionDef, attr: str, assignment: nodes.NodeNG) -> bool:
    """Whether ``self.attr`` is read in ``method`` after ``assignment``."""
    end = assignment.tolineno or assignment.lineno
    for attribute in method.nodes_of_class(nodes.Attribute):
        if (
            attribute.attrname == attr
            and isinstance(attribute.expr, nodes.Name)
            and attribute.expr.name == "self"
            and (attribute.lineno or 0) > end
        ):
            return True
    return False


def register(linter: PyLinter) -> None:
    linter.register_checker(GraphSemanticsChecker(linter))
