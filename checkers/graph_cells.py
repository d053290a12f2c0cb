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

from mslint import apis, resolve, scope, values
from mslint.messages import GraphModeNote, spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter


class GraphCellsChecker(GraphModeNote, BaseChecker):
    name = "mindspore-graph-cells"
    msgs = {
        "W7301": (
            "%s(...) created inside graph code is built once at compile time and its weights are never trained; "
            "create it in __init__ as self.<name> and call that here%s",
            "ms-cell-in-construct",
            "An nn.Cell instantiated inside construct or a @jit function: its parameters are "
            "constants of the compiled graph, so the network has nothing to train there.",
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
            # Softmax, ReLU, pooling, losses: no weights, nothing left untrained
            if values.builds_parameters(node, qname):
                self.add_message("ms-cell-in-construct", node=node, args=(spelled(func),))
            return
        cls = resolve.user_class_of_call(node)
        if (
            cls is not None
            and analysis.is_cell_class(cls)
            and analysis.class_facts(cls).creates_trainable_parameters(analysis.class_facts)
        ):
            self.add_message("ms-cell-in-construct", node=node, args=(spelled(func),))


def register(linter: PyLinter) -> None:
    linter.register_checker(GraphCellsChecker(linter))
