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

from mslint import apis, resolve, scope
from mslint.messages import host_code_consequence, spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter

class GraphPythonChecker(BaseChecker):
    name = "mindspore-graph-python"
    msgs = {
        "E7201": (
            "%s(...) is a user class built or called with a runtime tensor in graph code: %s; %s",
            "ms-custom-type-on-tensor",
            "A user-defined class that is not an nn.Cell, constructed or called with tensor "
            "values in graph code. Under LAX it compiles through JIT fallback and the "
            "gradient is silently zero; under STRICT it fails to compile. A @jit_class built "
            "from tensors inside graph code fails at every level.",
        ),
        "E7202": (
            "import statement inside graph code fails to compile at every jit_syntax_level; move the import to module level",
            "ms-import-in-graph",
            "An import statement inside construct, a @jit function or a function they call.",
        ),
        "W7203": (
            "%s in graph code runs once, at compile time, never per step; start threads and processes outside construct/@jit",
            "ms-concurrency-in-graph",
            "threading, multiprocessing or concurrent.futures used in graph code: the "
            "compiler executes the call once while compiling and never again.",
        ),
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._exempt_cache: dict[nodes.ClassDef, bool] = {}
        self._init_cache: dict[nodes.ClassDef, dict[str, list[nodes.NodeNG]]] = {}

    def visit_module(self, node: nodes.Module) -> None:  # noqa: ARG002 - per-module caches
        # keyed by nodes: emptied per module so they never keep old trees alive
        self._exempt_cache.clear()
        self._init_cache.clear()

    @only_required_for_messages("ms-import-in-graph")
    def visit_import(self, node: nodes.Import | nodes.ImportFrom) -> None:
        if scope.analysis(node.root()).in_graph(node):
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
        else:
            consequence = host_code_consequence(self, scope.GRAPH)
            fix = "make it an nn.Cell, or apply mindspore.ops to the tensors directly"
        self.add_message("ms-custom-type-on-tensor", node=node, args=(spelled(func), consequence, fix))

    def _user_class(self, node: nodes.Call, analysis: scope.ModuleAnalysis) -> nodes.ClassDef | None:
        cls = resolve.user_class_of_call(node)
        if cls is None:
            cls = self._called_instance_class(node, self._init_cache)
            if cls is not None and resolve.has_decorator(cls, apis.JIT_CLASS_DECORATORS):
                return None  # calling a jit_class instance's methods is supported
        if cls is None or analysis.is_cell_class(cls) or self._is_exempt(cls):
            return None
        return cls

    @staticmethod
    def _called_instance_class(
        node: nodes.Call, init_cache: dict[nodes.ClassDef, dict[str, list[nodes.NodeNG]]]
    ) -> nodes.ClassDef | None:
        """``self.helper(x)`` where ``__init__`` did ``self.helper = Helper()``."""
        func = node.func
        if not (isinstance(func, nodes.Attribute) and isinstance(func.expr, nodes.Name) and func.expr.name == "self"):
            return None
        method = node.frame()
        cls = method.parent if isinstance(method, nodes.FunctionDef) else None
        if not isinstance(cls, nodes.ClassDef) or resolve.find_method(cls, func.attrname) is not None:
            return None
        assignments = init_cache.get(cls)
        if assignments is None:  # one walk of __init__ per class, not one per call
            assignments = init_cache[cls] = _self_assignments_in_init(cls)
        assigned = None
        for value in assignments.get(func.attrname, ()):
            if not isinstance(value, nodes.Call):
                return None
            found = resolve.user_class_of_call(value)
            if found is None or (assigned is not None and found is not assigned):
                return None  # assigned something else too: unsure
            assigned = found
        if assigned is None or resolve.find_method(assigned, "__call__") is None:
            return None
        return assigned

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
        arguments = list(node.args) + [keyword.value for keyword in node.keywords or ()]
        return any(analysis.depends_on_tensor(argument) for argument in arguments)


def _self_assignments_in_init(cls: nodes.ClassDef) -> dict[str, list[nodes.NodeNG]]:
    """``self.<attr> = value`` statements of the class's own ``__init__``, by attr."""
    found: dict[str, list[nodes.NodeNG]] = {}
    for init in cls.locals.get("__init__", ()):
        if not isinstance(init, nodes.FunctionDef):
            continue
        for assign in init.nodes_of_class(nodes.Assign):
            for target in assign.targets:
                if (
                    isinstance(target, nodes.AssignAttr)
                    and isinstance(target.expr, nodes.Name)
                    and target.expr.name == "self"
                ):
                    found.setdefault(target.attrname, []).append(assign.value)
    return found


def register(linter: PyLinter) -> None:
    linter.register_checker(GraphPythonChecker(linter))
