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

from mslint.knowledge import apis
from mslint.analysis import astutil, compiled, resolve, scope, values
from mslint.checkers.follow import GraphModeNote
from mslint.checkers.messages import jit_syntax_level, spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter

FROZEN = "ms-frozen-random-in-graph"
MUTATION = "ms-lost-mutation-in-graph"
PYTHON_VALUE = "ms-tensor-as-python-value"


class GraphSemanticsChecker(GraphModeNote, BaseChecker):
    name = "mindspore-graph-semantics"
    msgs = {
        "E7901": (
            "%s() in graph code runs once, while the graph compiles: every call of the network reuses "
            "the same value; %s%s",
            FROZEN,
            "random.*, numpy.random.*, time.time() and similar host calls with no tensor input in "
            "graph code: MindSpore evaluates them once at compile time and the value never changes "
            "again (a LayerDrop or noise decision frozen forever).",
        ),
        "E7902": (
            "%s in graph code %s; %s%s",
            MUTATION,
            "self.<list>.append/clear/pop/remove (extend/insert under STRICT), an item assignment "
            "on a self list or dict, or an assignment to a self attribute that is not a Parameter, "
            "in graph code: lost, frozen at compile time, or a compile error under STRICT.",
        ),
        "E7903": (
            "%s %s; %s%s",
            PYTHON_VALUE,
            "A tensor where graph mode needs a Python number: range() over a runtime tensor fails "
            "to compile at every level; float()/int() of a trainable Parameter compiles but its "
            "gradient is zero.",
        ),
    }

    # -- calls -----------------------------------------------------------------
    @only_required_for_messages(FROZEN, MUTATION, PYTHON_VALUE)
    def visit_call(self, node: nodes.Call) -> None:
        analysis = scope.graph_call_analysis(node)
        if analysis is None:
            # the body of a @constexpr function graph code calls runs while the graph
            # compiles: a host random number drawn there is frozen too (measured,
            # even with reuse_result=False)
            compile_time = scope.compile_time_call_analysis(node)
            qname = resolve.qualified_name(node.func) if compile_time is not None else None
            if qname is not None:
                self._frozen(node, qname, compile_time)
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
        if analysis.bytecode_only(node):
            return False  # bytecode capture runs it as Python at every call (measured): not frozen
        arguments = astutil.call_arguments(node)
        if any(analysis.depends_on_tensor(argument) for argument in arguments):
            return False  # drawn per call from tensor data: not frozen
        if values.never_compiled(node, analysis.class_facts):
            return True  # under a constant-False branch: never compiled
        if _decides_nothing(node, analysis):
            return True  # drawn, but every use of it is code graph mode folds away
        if _placeholder_filled_in_loop(node):
            return False  # ``buf = Tensor(np.random.randn(n, m))`` then ``buf[i, j] = ...``: a buffer's first contents
        if is_clock:
            fix = apis.TIME_REPLACEMENT
        else:
            fix = "use %s with a seed instead" % apis.RANDOM_TO_MINDSPORE.get(qname, apis.RANDOM_DEFAULT_REPLACEMENT)
        self.add_message(FROZEN, node=node, args=(spelled(node.func), fix))
        return True

    # -- ms-lost-mutation-in-graph ---------------------------------------------
    def _list_mutation(self, node: nodes.Call, func: nodes.Attribute) -> None:
        attr = astutil.self_attribute(func.expr)
        if attr is None:
            return
        found = self._cell_method(node)
        if found is None:
            return
        if self._attribute_kind(found[1], attr) != values.LIST:
            return
        if values.never_compiled(node, scope.analysis(node.root()).class_facts):
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
        if found is None or values.never_compiled(node, analysis.class_facts):
            return
        method, cls = found
        value = getattr(node, "value", None)
        pairs = astutil.assignment_pairs(targets, value) if isinstance(node, nodes.Assign) else [(targets[0], value)]
        for leaf, leaf_value in pairs:
            if isinstance(leaf, nodes.AssignAttr):
                if self._sub_cell_parameter(node, leaf, cls):
                    continue
                self._attribute_assignment(node, leaf, leaf_value, method, cls, analysis)
            elif isinstance(leaf, nodes.Subscript):
                self._item_assignment(node, leaf, cls)

    visit_augassign = visit_assign
    visit_annassign = visit_assign

    def _attribute_assignment(
        self,
        node: nodes.NodeNG,
        target: nodes.AssignAttr,
        value: nodes.NodeNG | None,
        method: nodes.FunctionDef,
        cls: nodes.ClassDef,
        analysis: scope.ModuleAnalysis,
    ) -> None:
        attr = astutil.self_attribute(target)
        if attr is None or self._attribute_kind(cls, attr) in (values.PARAMETER, values.UNSURE):
            return
        exported = analysis.compiled_for(node) == scope.EXPORT
        if jit_syntax_level(self) == "strict" or exported:
            strict = "fails to compile under jit_syntax_level STRICT (only Parameter attributes can be assigned)"
            self.add_message(
                MUTATION,
                node=node,
                args=(
                    "assigning self.%s" % attr,
                    f"{strict}, which {analysis.decision_at(node).exported_by}'s mindspore.export always uses" if exported else strict,
                    apis.MUTATION_FIX,
                ),
            )
            return
        # LAX keeps the value on the host; the harm is a tensor read back from it
        # (each target's own value: ``self.cos, self.sin = cos_table, sin_table``)
        if value is None or not analysis.depends_on_tensor(value):
            return
        known = analysis.values_at(node)
        if known is None or not known.carries_gradient(value) or analysis.compiled_for(node) != scope.TRAINING:
            return  # a cache of rotary tables or shapes, or code compiled for inference: no gradient to lose
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

    def _sub_cell_parameter(self, node: nodes.NodeNG, target: nodes.AssignAttr, cls: nodes.ClassDef) -> bool:
        """``self.dense.weight = ...``: replacing a sub-cell's Parameter fails to compile
        at every level (measured); True when reported."""
        holder = astutil.self_attribute(target.expr)
        if holder is None:
            return False
        assigned = [value for value in scope.analysis(cls.root()).class_facts(cls).values(holder) if value is not None]
        if not assigned or not all(
            isinstance(value, nodes.Call) and target.attrname in apis.LAYER_PARAMETER_NAMES.get(
                resolve.qualified_name(value.func) or "", ())
            for value in assigned
        ):
            return False
        self.add_message(
            MUTATION,
            node=node,
            args=(
                "replacing the Parameter self.%s.%s" % (holder, target.attrname),
                "fails to compile at every jit_syntax_level",
                "update it in place with ops.assign(self.%s.%s, value), or compute with the new value "
                "without storing it" % (holder, target.attrname),
            ),
        )
        return True

    def _item_assignment(self, node: nodes.NodeNG, target: nodes.Subscript, cls: nodes.ClassDef) -> None:
        attr = astutil.self_attribute(target.value)
        if attr is None:
            return
        kind = self._attribute_kind(cls, attr)
        if kind not in (values.LIST, values.DICT):
            return
        if jit_syntax_level(self) == "strict":
            outcome = "fails to compile under jit_syntax_level STRICT (under LAX it is lost)"
        else:
            outcome = (
                "is lost under the default LAX level: the Cell's %s does not change (STRICT: compile error)" % kind
            )
        self.add_message(MUTATION, node=node, args=("assigning an item of self.%s" % attr, outcome, apis.MUTATION_FIX))

    @staticmethod
    def _cell_method(node: nodes.NodeNG) -> tuple[nodes.FunctionDef, nodes.ClassDef] | None:
        found = astutil.enclosing_method(node)
        if found is None:
            return None
        analysis = scope.analysis(node.root())
        return found if analysis.is_cell_class(found[1]) else None

    @staticmethod
    def _attribute_kind(cls: nodes.ClassDef, attr: str) -> str:
        return scope.analysis(cls.root()).class_facts(cls).kind(attr)

    # -- ms-tensor-as-python-value ---------------------------------------------
    def _python_value(self, node: nodes.Call, qname: str, analysis: scope.ModuleAnalysis) -> None:
        known = analysis.values_at(node)
        if known is None:
            return
        if qname in apis.INT_ONLY_BUILTINS:
            if any(not isinstance(arg, nodes.Starred) and known.is_tensor(arg) for arg in node.args):
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
            if self._cell_method(node) is None or not known.trainable:
                return
            sources = known.trainable_sources(node.args[0])
            if sources:
                argument = node.args[0]
                direct = astutil.self_attribute(argument) in sources
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


def _decides_nothing(node: nodes.Call, analysis: scope.ModuleAnalysis) -> bool:
    """Whether the value ``node`` draws is bound to a local name (``p =
    random.uniform(0, 1)``) every read of which is code graph mode never compiles:
    ``if self.training and p < self.layerdrop:`` in code the programs never train
    (the ``and`` stops at the training flag, fixed False), so the frozen value
    never decides anything."""
    target = astutil.local_target(node)
    if target is None:
        return False
    name = target.name
    frame = node.frame()
    reads = [read for read in frame.nodes_of_class(nodes.Name) if read.name == name]
    return bool(reads) and all(compiled.never_compiled(read, analysis) for read in reads)


def _placeholder_filled_in_loop(node: nodes.Call) -> bool:
    """Whether the drawn array, as it is or converted (``Tensor(np.random.randn(n,
    m), ms.float32)``), is assigned to a local name that a loop of the same function
    then writes item by item (``buf[i, j] = ...``): the random numbers only fill a
    buffer before its items are set, a placeholder, not a value the program uses."""
    value: nodes.NodeNG = node
    while isinstance(value.parent, nodes.Call) and value in value.parent.args:
        value = value.parent  # Tensor(...), np.array(...), ms.Tensor(..., dtype)
    target = astutil.local_target(value)
    if target is None:
        return False
    frame = node.frame()
    for assign in frame.nodes_of_class(nodes.Assign):
        for each in assign.targets:
            if isinstance(each, nodes.Subscript) and isinstance(each.value, nodes.Name) \
                    and each.value.name == target.name and (assign.lineno or 0) > (target.lineno or 0) \
                    and any(isinstance(holder, (nodes.For, nodes.While)) for holder in assign.node_ancestors()
                            if holder.frame() is frame):
                return True
    return False


def _read_after(method: nodes.FunctionDef, attr: str, assignment: nodes.NodeNG) -> bool:
    """Whether ``self.attr`` is read in ``method`` after ``assignment``."""
    end = assignment.tolineno or assignment.lineno
    return any(
        astutil.self_attribute(attribute) == attr and (attribute.lineno or 0) > end
        for attribute in method.nodes_of_class(nodes.Attribute)
    )


def register(linter: PyLinter) -> None:
    linter.register_checker(GraphSemanticsChecker(linter))
