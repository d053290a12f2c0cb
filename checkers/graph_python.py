"""Python features graph mode cannot compile or runs only once: imports, user
classes applied to tensors, threads and processes.

Measured on MindSpore 2.10 (FACTS.md): an import inside construct fails to
compile at every level; a custom class holding a tensor compiles under LAX with a
zero gradient inside @jit and fails under STRICT; a ``@jit_class`` class built
from tensors inside construct fails at every level; ``threading.Thread(...)``
inside construct runs once, at compile time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis
from mslint.analysis import astutil, resolve, scope
from mslint.checkers.follow import GraphModeNote
from mslint.checkers.messages import export_consequence, host_code_consequence, jit_syntax_level, spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter

class GraphPythonChecker(GraphModeNote, BaseChecker):
    name = "mindspore-graph-python"
    msgs = {
        "E7201": (
            "%s(...) is a user class built from a runtime tensor in graph code: %s; %s%s",
            "ms-custom-type-on-tensor",
            "A user-defined class that is not an nn.Cell, constructed with tensor values in "
            "graph code. Under LAX it compiles through JIT fallback and the gradient is "
            "silently zero; under STRICT it fails to compile. A @jit_class built from tensors "
            "inside graph code fails at every level. Calling an instance built in __init__ is fine.",
        ),
        "E7202": (
            "import statement inside graph code fails to compile at every jit_syntax_level; move the import to module level%s",
            "ms-import-in-graph",
            "An import statement inside construct, a @jit function or a function they call.",
        ),
        "W7203": (
            "%s in graph code runs once, at compile time, never per step; start threads and processes outside construct/@jit%s",
            "ms-concurrency-in-graph",
            "threading, multiprocessing or concurrent.futures used in graph code: the "
            "compiler executes the call once while compiling and never again.",
        ),
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._exempt_cache: dict[nodes.ClassDef, bool] = {}

    def visit_module(self, node: nodes.Module) -> None:  # noqa: ARG002 - per-module caches
        # keyed by nodes: emptied per module so they never keep old trees alive
        self._exempt_cache.clear()

    @only_required_for_messages("ms-import-in-graph")
    def visit_import(self, node: nodes.Import | nodes.ImportFrom) -> None:
        analysis = scope.analysis(node.root())
        # @jit(capture_mode="bytecode") runs an import as Python (measured: a graph
        # break, ms-graph-break's), where AST capture refuses it
        if analysis.in_graph(node) and not analysis.bytecode_only(node):
            self.add_message("ms-import-in-graph", node=node)

    visit_importfrom = visit_import

    @only_required_for_messages("ms-custom-type-on-tensor", "ms-concurrency-in-graph")
    def visit_call(self, node: nodes.Call) -> None:
        analysis = scope.graph_call_analysis(node)
        if analysis is None:
            return
        func = node.func
        qname = resolve.qualified_name(func)
        if qname is not None and resolve.root_package(qname) in apis.CONCURRENCY_PACKAGES:
            self.add_message("ms-concurrency-in-graph", node=node, args=(spelled(func),))
            return
        cls = self._user_class(node, analysis)
        if cls is None or not self._applies_to_tensor(node, analysis):
            return
        if resolve.has_decorator(cls, apis.JIT_CLASS_DECORATORS):
            consequence = "a @jit_class built from tensors inside graph code fails to compile at every level"
            fix = "build it in __init__ or from constants"
        elif analysis.compiled_for(node) == scope.EXPORT:
            consequence = export_consequence(analysis.decision_at(node).exported_by)
            fix = "make it an nn.Cell, or apply mindspore.ops to the tensors directly"
        else:
            if jit_syntax_level(self) != "strict" and analysis.compiled_for(node) == scope.INFERENCE:
                return  # under LAX it runs through JIT fallback, and nothing is differentiated
            consequence = host_code_consequence(self, scope.GRAPH)
            fix = ("build it in __init__ and pass the tensors to its methods, make it an nn.Cell, "
                   "or apply mindspore.ops to the tensors directly")
        self.add_message("ms-custom-type-on-tensor", node=node, args=(spelled(func), consequence, fix))

    def _user_class(self, node: nodes.Call, analysis: scope.ModuleAnalysis) -> nodes.ClassDef | None:
        # Only building an instance from tensors: calling one built in __init__
        # (``self.scaler(x)``, ``self.scaler.apply(x)``) compiles at both levels with
        # the true gradient (tests/oracle/test_graph.py): its code is inlined.
        cls = resolve.user_class_of_call(node)
        if cls is None or analysis.is_cell_class(cls) or self._is_exempt(cls):
            return None
        return cls

    def _is_exempt(self, cls: nodes.ClassDef) -> bool:
        """Only plain Python classes (every ancestor is the user's own) are custom
        types; a class deriving from a library class (an Exception, an Enum, a
        MindSpore Primitive, a NamedTuple) is that library's business."""
        exempt = self._exempt_cache.get(cls)
        if exempt is None:
            _, external = resolve.class_hierarchy(cls)
            exempt = bool(external - {"object"})
            self._exempt_cache[cls] = exempt
        return exempt

    @staticmethod
    def _applies_to_tensor(node: nodes.Call, analysis: scope.ModuleAnalysis) -> bool:
        return any(analysis.depends_on_tensor(argument) for argument in astutil.call_arguments(node))


def register(linter: PyLinter) -> None:
    linter.register_checker(GraphPythonChecker(linter))
